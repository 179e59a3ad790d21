"""The command line's handling of the warehouse: the global options, saying which file a command used, the
writer lock held for a whole command, and one clear message (never a traceback) when the warehouse is busy,
missing or held by another program."""

from __future__ import annotations

import math
import shlex
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Optional

import typer
from rich.console import Console
from typer.core import TyperGroup

from biasmirror.cli_options import SafeConsole, fail
from biasmirror.paths import LOCK_TIMEOUT_ENV, WAREHOUSE_ENV, WORKING_COPY_ENV, scoped_env, warehouse_path

# Notes about the warehouse go to stderr, so that a command's own output (tables, JSON) stays clean on stdout.
notes = SafeConsole(stderr=True, soft_wrap=True, highlight=False)


class WarehouseAwareGroup(TyperGroup):
    """The top-level command group: a warehouse error raised anywhere in a command becomes one error line."""

    def invoke(self, ctx: Any) -> Any:
        import duckdb

        from biasmirror.warehouse import WAREHOUSE_ERRORS
        from biasmirror.warehouse.runs import is_duckdb_interruption

        try:
            return super().invoke(ctx)
        except WAREHOUSE_ERRORS as error:
            fail(str(error), stderr=True)
        except (duckdb.Error, RuntimeError) as error:
            # Ctrl-C that landed while DuckDB ran a query arrives as DuckDB's own error: it is an interruption
            if is_duckdb_interruption(error):
                raise KeyboardInterrupt from error
            raise


def _announce_writer(working: Path) -> None:
    published = warehouse_path()
    if not published.exists() and not working.exists():
        notes.print(f"Warehouse: {published} (none there yet: creating a new one; this command writes its working "
                    f"copy {working}, and the first successful build publishes it)", markup=False)
    else:
        notes.print(f"Warehouse: {published} (this command writes its working copy {working}; a successful build "
                    "publishes it)", markup=False)


def announce_reader() -> Path | None:
    """Say which published file a read-only command reads (and when it was published); return its path.
    Raises WarehouseMissing when there is none: reading never creates a warehouse. With BIASMIRROR_TARGET=postgres,
    say which database it reads (no file: None)."""
    from biasmirror.warehouse import reader_label, require_published
    from biasmirror.warehouse.postgres import uses_postgres

    if uses_postgres():
        notes.print(f"Warehouse: {reader_label()} (BIASMIRROR_TARGET=postgres; read-only)", markup=False)
        return None
    published = require_published()
    stamp = datetime.fromtimestamp(published.stat().st_mtime).strftime("%Y-%m-%d %H:%M:%S")
    notes.print(f"Warehouse: {published} (read-only; published {stamp})", markup=False)
    return published


@contextmanager
def command_session(warehouse: Optional[Path], lock_timeout: Optional[float]) -> Iterator[None]:
    """The global options as the environment the whole command (and the dbt it runs) sees, and the writer lock,
    once a writer takes it, held until the command ends."""
    from biasmirror.warehouse.lock import command_scope

    values: dict[str, str | None] = {}
    if warehouse is not None:
        values[WAREHOUSE_ENV] = str(warehouse.expanduser().resolve())
    if lock_timeout is not None:
        if not math.isfinite(lock_timeout) or lock_timeout < 0:
            raise typer.BadParameter("must be a finite number of seconds >= 0", param_hint="--lock-timeout")
        values[LOCK_TIMEOUT_ENV] = repr(float(lock_timeout))
    with scoped_env(values), command_scope(on_acquire=_announce_writer):
        yield


@contextmanager
def own_warehouse(published: Path) -> Iterator[Path]:
    """Point the command at its own warehouse (the demo's, under its output folder), whatever
    BIASMIRROR_WAREHOUSE or BIASMIRROR_WORKING_COPY say."""
    published = published.expanduser().resolve()
    with scoped_env({WAREHOUSE_ENV: str(published), WORKING_COPY_ENV: None}):
        yield published


def print_command(console: Console, label: str, argv: list[str]) -> None:
    """Print `label`, then a command for copy-paste on a line of its own: never wrapped (whatever the terminal
    width), its arguments quoted for a POSIX shell."""
    console.print(label, soft_wrap=True, markup=False, highlight=False)
    console.print("  " + shell_command(argv), soft_wrap=True, markup=False, highlight=False, crop=False)


def shell_command(argv: list[str]) -> str:
    """`argv` as one POSIX shell line: an argument that needs quoting is put in double quotes when nothing in
    it is special there (a SQL query with 'strings' reads as written), else in single quotes (shlex)."""
    def quote(argument: str) -> str:
        quoted = shlex.quote(argument)
        if quoted == argument or any(char in argument for char in '"$`\\!'):
            return quoted
        return f'"{argument}"'

    return " ".join(quote(argument) for argument in argv)
