"""Read-only access to the audit marts, tolerant of marts that are missing or empty.

The marts are read through the warehouse connection (biasmirror.warehouse.connect), with SQL both engines accept:
the published DuckDB file, or the PostgreSQL database with BIASMIRROR_TARGET=postgres. Frames come from the
connection's `df()`, typed alike on both engines."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pandas as pd

from biasmirror.warehouse.catalog import column_names, table_names

AUDIT = "audit"


def _name(identifier: str) -> str:
    """An identifier quoted for SQL (both engines quote with double quotes)."""
    return '"' + str(identifier).replace('"', '""') + '"'


@dataclass
class Marts:
    """The warehouse's audit schema, opened read-only. A missing table reads as an empty frame."""

    con: Any
    _tables: dict[str, set[str]] = field(default_factory=dict)
    _columns: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def tables(self, schema: str = AUDIT) -> set[str]:
        if schema not in self._tables:
            self._tables[schema] = table_names(self.con, schema)
        return self._tables[schema]

    def exists(self, name: str, schema: str = AUDIT) -> bool:
        return name in self.tables(schema)

    def columns(self, name: str, schema: str = AUDIT) -> list[str]:
        if not self.exists(name, schema):
            return []
        if (schema, name) not in self._columns:
            self._columns[(schema, name)] = column_names(self.con, schema, name)
        return self._columns[(schema, name)]

    def frame(self, name: str, schema: str = AUDIT, **equals: Any) -> pd.DataFrame:
        """The table (filtered on column = value, or column in (values) for a list, for each keyword), or an empty
        frame when it does not exist."""
        if not self.exists(name, schema):
            return pd.DataFrame()
        columns = self.columns(name, schema)
        conditions, parameters = [], []
        for column, value in equals.items():
            if column not in columns:
                return pd.DataFrame(columns=columns)
            if isinstance(value, (list, tuple)):
                if not value:
                    return pd.DataFrame(columns=columns)
                conditions.append(f"{_name(column)} in ({', '.join('?' for _ in value)})")
                parameters += list(value)
            else:
                conditions.append(f"{_name(column)} = ?")
                parameters.append(value)
        where = f" where {' and '.join(conditions)}" if conditions else ""
        return self.con.execute(f"select * from {_name(schema)}.{_name(name)}{where}", parameters).df()

    def counts(self, name: str, by: list[str], schema: str = AUDIT) -> pd.DataFrame:
        """Row counts per group, computed in the warehouse (column n); empty when the table does not exist.
        Only the grouping columns leave the database (the cohort table also holds note text)."""
        if not self.exists(name, schema):
            return pd.DataFrame(columns=[*by, "n"])
        keys = ", ".join(_name(column) for column in by)
        return self.con.execute(f"select {keys}, count(*) as n from {_name(schema)}.{_name(name)} "
                                f"group by {keys}").df()


@contextmanager
def open_marts(warehouse: Path | None = None) -> Iterator[Marts]:
    """The marts of `warehouse` (a DuckDB file, read-only), or, without one, of the warehouse readers use: the
    published file (BIASMIRROR_WAREHOUSE), or the PostgreSQL database with BIASMIRROR_TARGET=postgres."""
    from biasmirror.warehouse import connect

    if warehouse is not None and not warehouse.exists():
        raise FileNotFoundError(f"No warehouse at {warehouse}: run `biasmirror build` (or `make demo`) first.")
    with connect(warehouse, read_only=True) as con:
        yield Marts(con)
