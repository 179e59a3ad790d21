"""`adapter` for sqlfluff's jinja templater (`make lint`): adapter.dispatch(name) renders the project's own
DuckDB implementation of a cross-database macro (duckdb__<name>, else default__<name>), as dbt does with the
duckdb adapter, so that the SQL sqlfluff lints is the SQL dbt compiles."""

from __future__ import annotations

from typing import Any, Callable

from jinja2 import pass_context
from jinja2.runtime import Context, Undefined


@pass_context
def dispatch(context: Context, macro_name: str, macro_namespace: str | None = None) -> Callable[..., Any]:
    for prefix in ("duckdb__", "default__"):
        implementation = context.resolve(prefix + macro_name)
        if callable(implementation) and not isinstance(implementation, Undefined):
            return implementation
    raise KeyError(f"no duckdb__ or default__ implementation of {macro_name}")
