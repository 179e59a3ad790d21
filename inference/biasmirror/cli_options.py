"""What every `biasmirror` command shares: the console, the error exit, and `--option KEY=VALUE` parsing."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

# Wide enough for the metrics table when the output goes to a file or a pipe (CI logs, `make demo | tee`);
# soft_wrap: messages are never broken with newlines (a path or command copied from them pastes whole).
console = Console(width=None if Console().is_terminal else 130, soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print `error: message` and exit with `code`. The message is printed literally (never read as rich
    markup), so a bracket in a file name or a value cannot garble or restyle it."""
    console.print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code=code)


def parse_key_values(pairs: list[str] | None) -> dict[str, Any]:
    """KEY=VALUE pairs as a dict; VALUE is read as JSON when it parses (numbers, booleans), else kept as text."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option expects KEY=VALUE, got {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options
