"""What the last successful dbt build used, as recorded by its on-run-end hook (macro record_build): the
effective value of every project var (inference.dbt_builds.vars) and the models it built, so that a command run
later (`biasmirror check`) expects what the warehouse was built with rather than the project's defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import duckdb
import yaml

from biasmirror.paths import project_dir


def project_var_default(name: str) -> Any:
    """A var's default in dbt_project.yml (what a plain `dbt build` uses with no --vars)."""
    document = yaml.safe_load((project_dir() / "dbt_project.yml").read_text(encoding="utf-8")) or {}
    variables = document.get("vars") or {}
    if name not in variables:
        raise KeyError(f"dbt_project.yml defines no var {name!r}")
    return variables[name]


def last_build_vars(con: duckdb.DuckDBPyConnection, built_model: str | None = None) -> tuple[dict[str, Any], str] | None:
    """The vars of the last successful build (that built `built_model`, when given) and when it finished."""
    exists = con.execute("select count(*) from information_schema.tables where table_schema = 'inference' "
                         "and table_name = 'dbt_builds'").fetchone()[0]
    if not exists:
        return None
    rows = con.execute("select vars, models, finished_at from inference.dbt_builds order by finished_at desc").fetchall()
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
