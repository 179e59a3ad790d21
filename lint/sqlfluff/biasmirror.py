"""The project's macro namespace for sqlfluff's jinja templater (`make lint`): biasmirror.<macro>(...) calls the
project macro of that name, as dbt's namespace does."""

from __future__ import annotations

from typing import Any, Callable

from jinja2 import pass_context
from jinja2.runtime import Context


def __getattr__(name: str) -> Callable[..., Any]:
    if name.startswith("__"):
        raise AttributeError(name)

    @pass_context
    def call(context: Context, *args: Any, **kwargs: Any) -> Any:
        return context.resolve(name)(*args, **kwargs)

    return call
