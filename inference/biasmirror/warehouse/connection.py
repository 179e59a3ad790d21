"""Opening the warehouse: writers get the working copy under the writer lock, readers the published file."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import duckdb

from biasmirror.paths import WAREHOUSE_ENV, warehouse_path, working_path
from biasmirror.warehouse.lock import acquire, release
from biasmirror.warehouse.postgres import PostgresConnection, describe, uses_postgres
from biasmirror.warehouse.publish import seed_working_copy


# Where `biasmirror demo` (and `make demo`) builds its own warehouse, relative to the folder it ran in.
DEMO_WAREHOUSE = "demo_data/biasmirror.duckdb"


class WarehouseMissing(FileNotFoundError):
    """A command that only reads was pointed at a warehouse file that does not exist."""


class WarehouseInUse(RuntimeError):
    """DuckDB refused to open a warehouse file because another program holds a conflicting connection."""


def require_published(published: Path | None = None) -> Path:
    """The published file, or WarehouseMissing saying what to run (a reader never creates a warehouse)."""
    target = published or warehouse_path()
    if target.is_file():
        return target
    working = working_path(target)
    if working.is_file():
        raise WarehouseMissing(
            f"No published warehouse at {target} yet: its working copy {working} holds data that no build has "
            "published. Run `biasmirror build` (or the scheduled `dbt build`); a successful build publishes it.")
    demo = Path(DEMO_WAREHOUSE)
    if published is None and not os.environ.get(WAREHOUSE_ENV) and demo.is_file():
        raise WarehouseMissing(
            f"No warehouse at {target}, the default. The demo (`make demo`, `biasmirror demo`) built its own: "
            f"{demo.resolve()}. Read it with `biasmirror --warehouse {DEMO_WAREHOUSE} <command>` (e.g. summary, "
            f"report), or export {WAREHOUSE_ENV}={demo.resolve()}.")
    raise WarehouseMissing(
        f"No warehouse at {target}. Check the path (--warehouse or BIASMIRROR_WAREHOUSE), or create it with "
        "`biasmirror import-pairs ...` then `biasmirror build` (or `make demo`).")


def reader_label(path: Path | None = None) -> str:
    """What a reader reads, as a message or a report names it: `path`, else the published file, or the PostgreSQL
    database with BIASMIRROR_TARGET=postgres (as `connect(path, read_only=True)` opens)."""
    if path is None and uses_postgres():
        return describe()
    return str(path or warehouse_path())


def _open(target: Path, read_only: bool, role: str) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(target), read_only=read_only)
    except duckdb.IOException as error:
        if read_only:
            raise WarehouseInUse(
                f"Cannot open the warehouse {target} read-only: {error}. A program has opened this published file "
                "for writing; builds never do (they write the working copy and replace this file). Close that "
                "program's connection, or reopen it read-only.") from error
        raise WarehouseInUse(
            f"Cannot open the {role} {target}: {error}. Another program has opened the working copy directly; "
            "biasmirror's writers take turns through the writer lock, and readers should open the published file "
            f"{warehouse_path()} instead. Close that connection and run this again.") from error


@contextmanager
def connect(path: Path | None = None, read_only: bool = False,
            working: bool | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the warehouse, closed on exit.

    - `read_only=True`: the published file (BIASMIRROR_WAREHOUSE), the state of the last successful build, as
      analysts see it. A missing file is an error: reading never creates a warehouse.
    - otherwise: the working copy, under the writer lock (waiting for another writer as BIASMIRROR_LOCK_TIMEOUT
      says). When only a published file exists, the working copy is first seeded from it.
    - `read_only=True, working=True`: the working copy, read-only, under the writer lock: what a writer reads
      before it writes (what it or an earlier writer wrote since the last build); a missing one is an error.
    - `path`: open exactly that file (no lock, no working copy): for tools and tests.
    With BIASMIRROR_TARGET=postgres (and no `path`), the PostgreSQL database instead (biasmirror.warehouse.postgres):
    one database that readers and writers share, with no lock, working copy or publication.
    """
    if path is None and uses_postgres():
        pg = PostgresConnection()
        try:
            yield pg  # type: ignore[misc]
        finally:
            pg.close()
        return
    if path is not None:
        if read_only and not path.exists():
            raise WarehouseMissing(f"No warehouse at {path}.")
        con = _open(path, read_only, "warehouse")
        try:
            yield con
        finally:
            con.close()
        return
    if read_only and not working:
        con = _open(require_published(), True, "warehouse")
        try:
            yield con
        finally:
            con.close()
        return
    published = warehouse_path()
    target = working_path(published)
    acquire(target, published=published)
    try:
        seed_working_copy(target, published)
        if read_only and not target.exists():
            raise WarehouseMissing(f"No warehouse at {published} (nor a working copy at {target}): build or import "
                                   "something first (`biasmirror build`, `biasmirror import-pairs`).")
        con = _open(target, read_only, "working copy")
        try:
            yield con
        finally:
            con.close()
    finally:
        release(target)
