"""Running dbt in-process on the project, against the same warehouse file as the Python side."""

from __future__ import annotations

import json
import os
from typing import Any

from biasmirror.paths import WAREHOUSE_ENV, project_dir, warehouse_path


class DbtFailed(RuntimeError):
    """dbt reported an error; its own output above says which model or test failed and why."""


def run_dbt(command: str, select: list[str] | None = None, variables: dict[str, Any] | None = None,
            extra: list[str] | None = None) -> None:
    """Invoke `dbt <command>` (build, run, test, seed, docs generate) on the project."""
    from dbt.cli.main import dbtRunner  # imported late: dbt's import is slow and not every command needs it

    project = str(project_dir())
    # dbt resolves the warehouse through profiles.yml; pin it to the absolute path the Python side uses.
    os.environ[WAREHOUSE_ENV] = str(warehouse_path())
    args = [command, "--project-dir", project, "--profiles-dir", project]
    if select:
        args += ["--select", *select]
    if variables:
        args += ["--vars", json.dumps(variables)]
    args += extra or []
    try:
        result = dbtRunner().invoke(args)
    finally:
        _release_warehouse()
    if not result.success:
        detail = f": {result.exception}" if result.exception else " (see the dbt output above)"
        raise DbtFailed(f"dbt {command} failed{detail}")


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
