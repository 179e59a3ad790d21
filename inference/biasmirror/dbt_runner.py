"""Running dbt in-process on the project, against the same warehouse files as the Python side.

dbt writes the working copy under the writer lock (held here for the whole invocation); the project's
on-run-end hook publishes it when every node succeeded (macros/publish_warehouse.sql)."""

from __future__ import annotations

import json
from typing import Any

from biasmirror.paths import WAREHOUSE_ENV, WORKING_COPY_ENV, project_dir, scoped_env, warehouse_path, working_path
from biasmirror.warehouse.lock import writer_lock


class DbtFailed(RuntimeError):
    """dbt reported an error; its own output above says which model or test failed and why."""


def run_dbt(command: str, select: list[str] | None = None, variables: dict[str, Any] | None = None,
            extra: list[str] | None = None) -> None:
    """Invoke `dbt <command>` (build, run, test, seed, docs generate) on the project."""
    from dbt.cli.main import dbtRunner  # imported late: dbt's import is slow and not every command needs it

    project = str(project_dir())
    # dbt resolves the warehouse through profiles.yml; pin it to the absolute paths the Python side uses.
    published = warehouse_path()
    working = working_path(published)
    args = [command, "--project-dir", project, "--profiles-dir", project]
    if select:
        args += ["--select", *select]
    if variables:
        args += ["--vars", json.dumps(variables)]
    args += extra or []
    with writer_lock(working, published=published), scoped_env({WAREHOUSE_ENV: str(published),
                                                                   WORKING_COPY_ENV: str(working)}):
        try:
            result = dbtRunner().invoke(args)
        finally:
            _release_warehouse()
    if not result.success:
        detail = f": {result.exception}" if result.exception else " (see the dbt output above)"
        raise DbtFailed(f"dbt {command} failed{detail}. Nothing was published: readers of {published} keep the "
                        "last successful build.")


def _release_warehouse() -> None:
    """dbt-duckdb keeps its DuckDB connection open for the life of the process; close it, so that the same
    process can reopen the file (read-only, or from another library) right after a build."""
    try:
        from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    except ImportError:  # pragma: no cover - dbt-duckdb is a core dependency
        return
    environment = DuckDBConnectionManager._ENV
    if environment is not None:
        environment.close()
    DuckDBConnectionManager.close_all_connections()
