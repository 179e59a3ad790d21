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
