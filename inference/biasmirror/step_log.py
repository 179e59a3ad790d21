"""Long multi-step commands (`biasmirror demo`) on one line per step: each step's own output (its messages,
progress bars, dbt's node log) goes to a log file, and the console shows a spinner while the step runs and one
line when it ends. A step that fails prints where its output is and the end of it."""

from __future__ import annotations

import sys
import time
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import IO, Callable, Iterator, Optional

from rich.console import Console
from rich.markup import escape

# A step returns an optional detail for its line (e.g. "40 models, 120 data tests").
Step = Callable[[], Optional[str]]
_TAIL_LINES = 25


def _consoles() -> list[Console]:
    """Every rich console biasmirror's commands print through."""
    from biasmirror import cli_options, cli_warehouse, progress

    return [cli_options.console, cli_options.error_console, progress.console, cli_warehouse.notes]


class StepLog:
    """Runs steps with their output in `path` (appended) and one line each on `screen`."""

    def __init__(self, path: Path, screen: Console) -> None:
        self.path = path
        self.screen = screen
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("", encoding="utf-8")

    @contextmanager
    def _into_log(self, log: IO[str]) -> Iterator[None]:
        consoles = _consoles()
        # the private attribute: the `file` property would pin a console to today's sys.stdout for good, where
        # unset it follows sys.stdout (as a test runner that captures output swaps it)
        saved = [(console, console._file) for console in consoles]
        with ExitStack() as stack:
            for console in consoles:
                console.file = log
            stack.enter_context(redirect_stdout(log))
            stack.enter_context(redirect_stderr(log))
            try:
                yield
            finally:
                for console, file in saved:
                    console._file = file

    def run(self, title: str, step: Step) -> None:
        started = time.perf_counter()
        with self.path.open("a", encoding="utf-8") as log:
            log.write(f"\n==== {title} ====\n")
            log.flush()
            try:
                with self.screen.status(escape(title)), self._into_log(log):
                    detail = step()
            except BaseException:
                log.flush()
                self._failed(title, time.perf_counter() - started)
                raise
        seconds = time.perf_counter() - started
        suffix = f": {detail}" if detail else ""
        self.screen.print(f"[green]done[/green] {escape(title)} ({seconds:.0f} s){escape(suffix)}", soft_wrap=True)

    def _failed(self, title: str, seconds: float) -> None:
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        self.screen.print(f"[bold red]failed[/bold red] {escape(title)} after {seconds:.0f} s; its output is in "
                          f"{escape(str(self.path))}, which ends:", soft_wrap=True)
        for line in lines[-_TAIL_LINES:]:
            self.screen.print("  " + line, markup=False, highlight=False, soft_wrap=True)


def default_screen() -> Console:
    """The console the step lines go to: standard output as it is now (before any step redirects it)."""
    return Console(file=sys.stdout, soft_wrap=True, highlight=False)
