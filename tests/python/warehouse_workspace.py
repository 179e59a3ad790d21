"""An isolated warehouse for tests: its own DuckDB files (published file and working copy) and dbt target/log
folders in a temporary folder, with helpers to build it with dbt, import pairs and query it."""

from __future__ import annotations

import filecmp
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import duckdb
import pandas as pd

from biasmirror.paths import scoped_env


def same_contents(working: Path, published: Path) -> bool:
    """The published file is a byte copy of the working copy, or a compacted copy (after a `forget`): the same
    tables and views, each with the same number of rows, and the same builds recorded."""
    if filecmp.cmp(working, published, shallow=False):
        return True

    def inventory(path: Path) -> dict[str, Any]:
        with duckdb.connect(str(path), read_only=True) as con:
            tables = con.execute("select schema_name, table_name from duckdb_tables() "
                                 "where database_name = current_database() order by all").fetchall()
            views = con.execute("select schema_name, view_name from duckdb_views() where not internal "
                                "and database_name = current_database() order by all").fetchall()
            counts = {f"{s}.{t}": con.execute(f'select count(*) from "{s}"."{t}"').fetchone()[0] for s, t in tables}
            builds = con.execute("select invocation_id from inference.dbt_builds order by all").fetchall()
            return {"views": views, "counts": counts, "builds": builds}

    return inventory(working) == inventory(published)


@dataclass
class Workspace:
    """A warehouse in a temporary folder, with helpers to build it with dbt and query it."""

    root: Path

    @property
    def warehouse(self) -> Path:
        """The published file: what a successful build publishes and analysts open."""
        return self.root / "warehouse.duckdb"

    @property
    def working(self) -> Path:
        """The working copy writers write (published by the next successful build)."""
        return self.root / "warehouse.work" / "warehouse.duckdb"

    @contextmanager
    def active(self, **extra: str) -> Iterator[None]:
        env = {"BIASMIRROR_WAREHOUSE": str(self.warehouse), "BIASMIRROR_WORKING_COPY": str(self.working),
               "DBT_TARGET_PATH": str(self.root / "target"), "DBT_LOG_PATH": str(self.root / "logs"), **extra}
        with scoped_env(env):
            yield

    def build(self, select: list[str] | None = None, variables: dict[str, Any] | None = None,
              unit_tests: bool = False, **env: str) -> None:
        """Run `dbt build`; once it succeeds, the published file must hold what the working copy holds (so what
        `query` reads after a build is what analysts read): an exact copy, or a compacted one with the same
        tables and rows. dbt's unit tests run only with unit_tests=True: they do not depend on the data a test
        builds, so test_dbt_unit_tests.py runs every one of them once instead of every test build."""
        from biasmirror.dbt_runner import run_dbt

        with self.active(**env):
            run_dbt("build", select=select, variables=variables,
                    extra=None if unit_tests else ["--exclude-resource-type", "unit_test"])
        if (variables or {}).get("publish_warehouse", True) is not False:
            assert same_contents(self.working, self.warehouse), "the build did not publish the working copy"

    def query(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        """Query the warehouse as it stands: the working copy, which holds what writers (imports, counterfactuals,
        scoring) wrote since the last build and, right after a build, equals the published file byte for byte
        (`build` checks it); the published file when no writer has created a working copy."""
        path = self.working if self.working.exists() else self.warehouse
        with duckdb.connect(str(path), read_only=True) as con:
            return con.execute(sql, params or []).df()

    def query_published(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        """Query the published file, as an analyst or a BI tool does (the last successful build)."""
        with duckdb.connect(str(self.warehouse), read_only=True) as con:
            return con.execute(sql, params or []).df()

    def import_pairs(self, frame: pd.DataFrame, dataset: str, model: str, setting: str | None = None, name: str = "pairs.parquet"):
        from biasmirror.imports.pairs import import_pairs

        path = self.root / name
        frame.to_parquet(path, index=False)
        with self.active():
            return import_pairs(path, dataset, model, setting)
