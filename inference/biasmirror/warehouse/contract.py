"""The `inference` schema contract, read from the dbt sources file that declares it.

models/staging/inference/_inference__sources.yml is the single definition of the tables Python writes: dbt's
on-run-start hook creates them from it, and so does `ensure_inference_tables` here.
"""

from __future__ import annotations

from functools import lru_cache

import duckdb
import yaml

from biasmirror.paths import project_dir
from biasmirror.warehouse.catalog import columns_by_table

CONTRACT_FILE = "models/staging/inference/_inference__sources.yml"
SCHEMA = "inference"


@lru_cache(maxsize=1)
def _tables() -> dict[str, dict[str, str]]:
    document = yaml.safe_load((project_dir() / CONTRACT_FILE).read_text(encoding="utf-8"))
    (source,) = [s for s in document["sources"] if s["name"] == SCHEMA]
    return {
        table["name"]: {column["name"]: column["data_type"] for column in table["columns"]}
        for table in source["tables"]
    }


@lru_cache(maxsize=1)
def retired_columns() -> dict[str, tuple[str, ...]]:
    """table -> columns an older version wrote and this one drops (the table's `meta: retired_columns`): columns
    that held what must not be kept, e.g. llm_failures.body_excerpt, which quoted answer bodies."""
    document = yaml.safe_load((project_dir() / CONTRACT_FILE).read_text(encoding="utf-8"))
    (source,) = [s for s in document["sources"] if s["name"] == SCHEMA]
    return {table["name"]: tuple((table.get("meta") or {}).get("retired_columns") or ())
            for table in source["tables"] if (table.get("meta") or {}).get("retired_columns")}


def inference_columns(table: str) -> dict[str, str]:
    """Column name -> SQL type of one inference table, in declared order."""
    tables = _tables()
    if table not in tables:
        raise KeyError(f"{SCHEMA}.{table} is not in the contract ({CONTRACT_FILE}); known: {sorted(tables)}")
    return dict(tables[table])


def ensure_inference_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Create the inference schema and any missing table, and add the columns a newer contract declares to a
    table made by an older version (appended at the end; existing rows get null), and drop the columns the
    contract retires (`retired_columns`). Nothing else is dropped or retyped. The dbt hook
    `create_inference_tables` applies the same rules."""
    from biasmirror.warehouse.postgres import PostgresConnection, postgres_type

    typed = postgres_type if isinstance(con, PostgresConnection) else str
    con.execute(f"create schema if not exists {SCHEMA}")
    existing = {table: set(columns) for table, columns in columns_by_table(con, SCHEMA).items()}
    for table, columns in _tables().items():
        if table not in existing:
            ddl = ", ".join(f'"{name}" {typed(sql_type)}' for name, sql_type in columns.items())
            con.execute(f"create table if not exists {SCHEMA}.{table} ({ddl})")
            continue
        for name, sql_type in columns.items():
            if name not in existing[table]:
                con.execute(f'alter table {SCHEMA}.{table} add column if not exists "{name}" {typed(sql_type)}')
        for name in retired_columns().get(table, ()):
            if name in existing[table]:
                con.execute(f'alter table {SCHEMA}.{table} drop column if exists "{name}"')
