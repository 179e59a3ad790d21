"""What the last successful dbt build used, as recorded by its on-run-end hook (macro record_build): the
effective value of every project var (inference.dbt_builds.vars) and the models it built, so that a command run
later (`biasmirror check`) expects what the warehouse was built with rather than the project's defaults.

A build records itself just before it publishes (the record must be in the copy it publishes), as published.
When that publish never completes (the process killed during the copy, a full disk at the final checkpoint),
the working copy holds a record the published file does not: `reconcile_build_records`, which the dbt plugin
runs at the start of every dbt command, marks such records not published, so that no later publish shows them
as successful builds."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import duckdb

from biasmirror.project_config import dbt_project
from biasmirror.warehouse.catalog import column_names, has_table


def project_var_default(name: str) -> Any:
    """A var's default in dbt_project.yml (what a plain `dbt build` uses with no --vars)."""
    variables = dbt_project().get("vars") or {}
    if name not in variables:
        raise KeyError(f"dbt_project.yml defines no var {name!r}")
    return variables[name]


def last_build_vars(con: duckdb.DuckDBPyConnection, built_model: str | None = None) -> tuple[dict[str, Any], str] | None:
    """The vars of the last successful build (that built `built_model`, when given) and when it finished."""
    if not has_table(con, "inference", "dbt_builds"):
        return None
    published = _published_filter(con)
    rows = con.execute(f"select vars, models, finished_at from inference.dbt_builds {published} "
                       "order by finished_at desc").fetchall()
    for variables, models, finished_at in rows:
        if built_model is not None and built_model not in json.loads(models or "[]"):
            continue
        return json.loads(variables or "{}"), f"{finished_at:%Y-%m-%d %H:%M:%S} UTC"
    return None


def resolve_var(name: str, explicit: Any, variables: Mapping[str, Any] | None,
                con: duckdb.DuckDBPyConnection | None, built_model: str | None = None) -> tuple[Any, str]:
    """A var's value for a command, and where it came from: the command's own option, then --vars, then the
    last successful build (that built `built_model`), then dbt_project.yml."""
    if explicit is not None:
        return explicit, "option"
    if variables and name in variables:
        return variables[name], "--vars"
    if con is not None:
        found = last_build_vars(con, built_model)
        if found is not None and name in found[0]:
            return found[0][name], f"the build of {found[1]}"
    return project_var_default(name), "dbt_project.yml"


def _published_filter(con: duckdb.DuckDBPyConnection) -> str:
    """The where clause that keeps the builds that published (rows of older versions, without the column or with
    null, did: they recorded only builds that were about to publish)."""
    return "where coalesce(published, true)" if "published" in column_names(con, "inference", "dbt_builds") else ""


def reconcile_build_records(working: Path, published: Path) -> list[str]:
    """Mark not published the builds the working copy records as published but the published file does not hold
    (their publish was killed or failed). Returns their invocation ids. The caller holds the writer lock and has
    not opened the working copy yet."""
    if not working.is_file():
        return []
    with duckdb.connect(str(working)) as con:
        if "where" not in _published_filter(con):
            return []
        claimed = {row[0] for row in con.execute(
            "select invocation_id from inference.dbt_builds where coalesce(published, true)").fetchall()}
        if not claimed:
            return []
        held: set[str] = set()
        if published.is_file():
            try:
                with duckdb.connect(str(published), read_only=True) as reader:
                    if has_table(reader, "inference", "dbt_builds"):
                        held = {row[0] for row in
                                reader.execute("select invocation_id from inference.dbt_builds").fetchall()}
            except duckdb.Error:  # held for writing by another program: leave the records for the next command
                return []
        missing = sorted(claimed - held)
        if missing:
            con.execute("update inference.dbt_builds set published = false where invocation_id in "
                        f"({', '.join('?' for _ in missing)})", missing)
        return missing
