"""Transactional writes into the inference schema."""

from __future__ import annotations

from datetime import datetime, timezone

from typing import Any, Sequence

import duckdb
import pandas as pd

from biasmirror.warehouse.contract import SCHEMA, inference_columns
from biasmirror.warehouse.postgres import PostgresConnection


def utc_now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def conform(frame: pd.DataFrame, table: str) -> pd.DataFrame:
    """The frame with exactly the contract's columns, in order (missing optional columns become null)."""
    columns = inference_columns(table)
    unknown = set(frame.columns) - set(columns)
    if unknown:
        raise ValueError(f"{SCHEMA}.{table} has no column(s) {sorted(unknown)}")
    return frame.reindex(columns=list(columns))


def append_rows(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> int:
    """Insert rows (inside the caller's transaction), cast to the contract's types. Columns are named, so a
    table that gained columns by migration (appended at its end) is written correctly."""
    if frame.empty:
        return 0
    columns = inference_columns(table)
    rows = conform(frame, table)
    if isinstance(con, PostgresConnection):
        con.append_frame(SCHEMA, table, columns, rows)
        return len(rows)
    con.register("_biasmirror_rows", rows)
    try:
        names = ", ".join(f'"{name}"' for name in columns)
        select = ", ".join(f'cast("{name}" as {sql_type})' for name, sql_type in columns.items())
        con.execute(f"insert into {SCHEMA}.{table} ({names}) select {select} from _biasmirror_rows")
    finally:
        con.unregister("_biasmirror_rows")
    return len(rows)


def delete_rows(con: duckdb.DuckDBPyConnection, table: str, where: str, parameters: Sequence[Any] = ()) -> int:
    """Delete the rows of inference.<table> that `where` selects (inside the caller's transaction); the number
    deleted. DuckDB answers a `delete` with one row holding that count, PostgreSQL with no row (the cursor's
    rowcount holds it)."""
    result = con.execute(f"delete from {SCHEMA}.{table} where {where}", list(parameters))
    if isinstance(con, PostgresConnection):
        return result.rowcount
    return int(result.fetchone()[0])
