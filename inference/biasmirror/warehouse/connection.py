"""Opening the warehouse file."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import duckdb

from biasmirror.paths import warehouse_path


@contextmanager
def connect(path: Path | None = None, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the warehouse, closed on exit. DuckDB allows one writing process at a time."""
    target = path or warehouse_path()
    if read_only and not target.exists():
        raise FileNotFoundError(f"No warehouse at {target}: run `biasmirror build` (or `make demo`) first.")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = duckdb.connect(str(target), read_only=read_only)
    except duckdb.IOException as error:
        raise RuntimeError(
            f"Cannot open the warehouse {target}: {error}. Is another process (dbt, a BI tool with write "
            "access) holding it?"
        ) from error
    try:
        yield con
    finally:
        con.close()
