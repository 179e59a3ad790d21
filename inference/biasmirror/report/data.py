"""Read-only access to the audit marts through ibis, tolerant of marts that are missing or empty."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pandas as pd

AUDIT = "audit"


@dataclass
class Marts:
    """The warehouse's audit schema, opened read-only. A missing table reads as an empty frame."""

    con: Any
    _tables: dict[str, set[str]] = field(default_factory=dict)

    def tables(self, schema: str = AUDIT) -> set[str]:
        if schema not in self._tables:
            try:
                self._tables[schema] = set(self.con.list_tables(database=schema))
            except Exception:  # the schema itself does not exist yet
                self._tables[schema] = set()
        return self._tables[schema]

    def exists(self, name: str, schema: str = AUDIT) -> bool:
        return name in self.tables(schema)

    def columns(self, name: str, schema: str = AUDIT) -> list[str]:
        return list(self.con.table(name, database=schema).columns) if self.exists(name, schema) else []

    def frame(self, name: str, schema: str = AUDIT, **equals: Any) -> pd.DataFrame:
        """The table (filtered on column = value for each keyword), or an empty frame when it does not exist."""
        if not self.exists(name, schema):
            return pd.DataFrame()
        table = self.con.table(name, database=schema)
        for column, value in equals.items():
            if column not in table.columns:
                return pd.DataFrame(columns=list(table.columns))
            table = table.filter(table[column].isin(value) if isinstance(value, (list, tuple)) else table[column] == value)
        return table.to_pandas()

    def counts(self, name: str, by: list[str], schema: str = AUDIT) -> pd.DataFrame:
        """Row counts per group, computed in the warehouse (column n); empty when the table does not exist.
        Only the grouping columns leave the database (the cohort table also holds note text)."""
        if not self.exists(name, schema):
            return pd.DataFrame(columns=[*by, "n"])
        table = self.con.table(name, database=schema)
        return table.group_by(by).aggregate(n=table.count()).to_pandas()


@contextmanager
def open_marts(warehouse: Path) -> Iterator[Marts]:
    import ibis

    if not warehouse.exists():
        raise FileNotFoundError(f"No warehouse at {warehouse}: run `biasmirror build` (or `make demo`) first.")
    try:
        con = ibis.duckdb.connect(database=str(warehouse), read_only=True)
    except Exception as error:  # duckdb.IOException (a program opened the file for writing), or not a DuckDB file
        raise RuntimeError(f"Cannot open the warehouse {warehouse} read-only: {error}. Builds never hold this file "
                           "(they write the working copy and replace it); another program has it open for writing, "
                           "or it is not a DuckDB file.") from error
    try:
        yield Marts(con)
    finally:
        con.disconnect()
