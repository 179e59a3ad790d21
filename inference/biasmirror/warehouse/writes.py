"""Transactional writes into the inference schema, and the run manifest."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from typing import Any

import duckdb
import pandas as pd

from biasmirror.warehouse.contract import SCHEMA, ensure_inference_tables, inference_columns


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
    """Insert rows (inside the caller's transaction), cast to the contract's types."""
    if frame.empty:
        return 0
    columns = inference_columns(table)
    rows = conform(frame, table)
    con.register("_biasmirror_rows", rows)
    try:
        select = ", ".join(f'cast("{name}" as {sql_type})' for name, sql_type in columns.items())
        con.execute(f"insert into {SCHEMA}.{table} select {select} from _biasmirror_rows")
    finally:
        con.unregister("_biasmirror_rows")
    return len(rows)


def start_run(con: duckdb.DuckDBPyConnection, kind: str, parameters: dict[str, Any], **keys: str | None) -> str:
    """Record a run in inference.runs and return its id."""
    ensure_inference_tables(con)
    run_id = f"{kind}-{utc_now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    frame = pd.DataFrame([{
        "run_id": run_id, "kind": kind, "parameters": json.dumps(parameters, sort_keys=True, default=str),
        "started_at": utc_now(), "status": "running", **keys,
    }])
    append_rows(con, "runs", frame)
    return run_id


def finish_run(con: duckdb.DuckDBPyConnection, run_id: str, n_items: int, status: str = "finished") -> None:
    con.execute(
        f"update {SCHEMA}.runs set finished_at = ?, status = ?, n_items = ? where run_id = ?",
        [utc_now(), status, n_items, run_id],
    )
