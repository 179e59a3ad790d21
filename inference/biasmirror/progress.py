"""Rich progress bars for long steps (counts, throughput, time left)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskID, TaskProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

console = Console(stderr=True)


def progress_bar() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=False,
    )


def rate_text(done: int, elapsed: float, unit: str) -> str:
    return f"{done / elapsed:,.0f} {unit}/s" if elapsed > 0 else ""


# A long step reports its phases as (phase, done, total): e.g. ("forest: trees", 40, 300). total None: unknown.
PhaseCallback = Callable[[str, int, Optional[int]], None]


@contextmanager
def phase_bars(prefix: str = "") -> Iterator[PhaseCallback]:
    """A progress bar per phase of a long step (fitting a model: search, refit, epochs), as one callback."""
    with progress_bar() as bar:
        tasks: dict[str, TaskID] = {}

        def update(phase: str, done: int, total: Optional[int]) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(f"{prefix}{phase}", total=total, rate="")
            bar.update(tasks[phase], completed=done, total=total)

        yield update


@contextmanager
def step_line(description: str) -> Iterator[Callable[[int, int, str, str, str], None]]:
    """One progress line for a sequence of steps of unknown kinds (a dbt build's nodes): steps done of the
    total, elapsed time and the step that just finished. The line stays, complete, when the block ends."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[step]}"))
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(description, total=None, step="")

        def update(done: int, total: int, kind: str, name: str, status: str) -> None:
            last = "" if done >= total else f"{kind} {name}"
            bar.update(task, completed=done, total=total, step=last)

        yield update
