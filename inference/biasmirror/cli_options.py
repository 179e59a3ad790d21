"""What every `biasmirror` command shares: the console, the error exit, `--option KEY=VALUE` parsing, and option
groups (a set of options declared once, on a dataclass, and added to each command that takes them)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import typing
from typing import Any, Callable, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from biasmirror.display import shown

class SafeConsole(Console):
    """A rich console that prints text with its control and bidirectional-formatting characters made visible
    (biasmirror.display.shown; a message's own line breaks kept): a name read from data cannot send an escape
    sequence to the terminal or reverse a line. Messages that put a name inside a line call `shown` on the
    name itself, so that a newline in it cannot forge a line either."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: A003 - rich's API
        super().print(*(shown(o, keep="\n") if isinstance(o, str) else o for o in objects), **kwargs)


# Wide enough for the metrics table when the output goes to a file or a pipe (CI logs, `make demo | tee`);
# soft_wrap: messages are never broken with newlines (a path or command copied from them pastes whole).
console = SafeConsole(width=None if Console().is_terminal else 130, soft_wrap=True)
# For commands whose standard output is their result (e.g. `biasmirror swap`): messages go to standard error.
error_console = SafeConsole(stderr=True, soft_wrap=True, highlight=False)

Command = TypeVar("Command", bound=Callable[..., Any])


def fail(message: str, code: int = 1, *, stderr: bool = False) -> NoReturn:
    """Print `error: message` and exit with `code` (on standard error with stderr=True). The message is printed
    literally (never read as rich markup), so a bracket in a file name or a value cannot garble or restyle it."""
    (error_console if stderr else console).print(f"[bold red]error:[/bold red] {escape(message)}")
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


def backend_options(pairs: list[str] | None) -> dict[str, Any]:
    """--option KEY=VALUE pairs as a backend's keyword options; a malformed pair ends the command with an error."""
    try:
        return parse_key_values(pairs)
    except ValueError as error:
        fail(str(error))


def option_group(group: type, into: str, **defaults: Any) -> Callable[[Command], Command]:
    """A decorator that gives a typer command the options declared once as the fields of the dataclass `group`
    (each field: its type Annotated with its typer.Option, and its default) and passes their values to the
    command as one argument, `into`, an instance of `group`. `defaults` changes a field's default for this
    command only. The group's options come first in --help, then the command's own."""
    hints = typing.get_type_hints(group, include_extras=True)
    fields = dataclasses.fields(group)

    def default(field: dataclasses.Field) -> Any:
        if field.name in defaults:
            return defaults[field.name]
        return inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default

    shared = [inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=default(field),
                                annotation=hints[field.name]) for field in fields]
    unknown = set(defaults) - {field.name for field in fields}
    if unknown:
        raise TypeError(f"{group.__name__} has no option(s) {', '.join(sorted(unknown))}")

    def decorate(command: Command) -> Command:
        own = [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY)
               for parameter in inspect.signature(command, eval_str=True).parameters.values() if parameter.name != into]

        @functools.wraps(command)
        def with_group(**values: Any) -> Any:
            options = group(**{field.name: values.pop(field.name) for field in fields})
            return command(**values, **{into: options})

        parameters = shared + own
        with_group.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        with_group.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
        return with_group  # type: ignore[return-value]

    return decorate
