"""What a `biasmirror build` did: one progress line while dbt runs, and a summary of the nodes it built.

dbt's own node log (one or more lines per model and test) goes to its log file (`dbt.log` under the build's
log folder, `biasmirror.paths.dbt_artifact_dirs`), not to the console: the console shows one progress line
(nodes done of the total, the node running) and, at the end, the summary `build` returns."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

# A node finished: (nodes done, nodes selected, resource type, node name, status).
StepCallback = Callable[[int, int, str, str, str], None]


@dataclass(frozen=True)
class NodeResult:
    """One node of a build: its name, kind (model, test, unit_test, seed), status and seconds."""

    name: str
    resource_type: str
    status: str
    seconds: float


@dataclass(frozen=True)
class BuildSummary:
    """What a build ran (`Warehouse.build()` returns it; `biasmirror build` prints it).

    `selection` is the dbt selection (None: every node) and `reason` why; `nodes` every node dbt ran, with
    status and time; `published` the file readers now open (None when nothing was published, or on
    PostgreSQL); `log_file` dbt's full log of the run."""

    selection: tuple[str, ...] | None
    reason: str
    nodes: tuple[NodeResult, ...]
    seconds: float
    unit_tests: bool
    published: Path | None = None
    log_file: Path | None = None
    variables: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """Nodes per resource type (models, tests, unit tests, seeds)."""
        return dict(Counter(node.resource_type for node in self.nodes))

    def frame(self) -> pd.DataFrame:
        """One row per node: name, resource_type, status, seconds."""
        return pd.DataFrame([vars(node) for node in self.nodes], columns=["name", "resource_type", "status", "seconds"])

    def models(self) -> list[str]:
        """The models built, in the order they ran."""
        return [node.name for node in self.nodes if node.resource_type == "model"]

    def counts_text(self) -> str:
        """e.g. "30 models, 50 data tests"."""
        kinds = {"model": "models", "test": "data tests", "unit_test": "unit tests", "seed": "seeds",
                 "snapshot": "snapshots"}
        counts = self.counts()
        return ", ".join(f"{counts[kind]} {kinds.get(kind, kind)}" for kind in sorted(counts, key=lambda k: -counts[k]))

    def __str__(self) -> str:
        parts = [self.counts_text()] if self.nodes else []
        problems = Counter(node.status for node in self.nodes if node.status not in ("success", "pass"))
        lines = [f"Built {', '.join(parts) or 'nothing'} in {self.seconds:.1f} s: {self.reason}"
                 + ("" if self.unit_tests else "; unit tests not run (unit_tests=True / --unit-tests)") + "."]
        if problems:
            lines.append("Not a plain pass: " + ", ".join(f"{n} {status}" for status, n in sorted(problems.items())) + ".")
        if self.published is not None:
            lines.append(f"Published: {self.published}")
        if self.log_file is not None:
            lines.append(f"dbt's log: {self.log_file}")
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython shows the text, not the dataclass
        printer.text(str(self))


class NodeEvents:
    """A dbtRunner callback: collects each finished node and calls `on_step` for it (the progress line)."""

    def __init__(self, on_step: StepCallback | None = None) -> None:
        self.on_step = on_step
        self.total = 0
        self.nodes: list[NodeResult] = []
        self.started = time.perf_counter()

    def __call__(self, event: Any) -> None:
        name = event.info.name
        if name == "LogStartLine":  # its total counts exposures too: the line may end short of it
            self.total = max(self.total, int(event.data.total))
        elif name == "NodeFinished":
            info = event.data.node_info
            if info.resource_type == "exposure":  # documentation nodes: nothing runs
                return
            status = str(info.node_status).lower()
            seconds = float(getattr(event.data.run_result, "execution_time", 0.0) or 0.0)
            self.nodes.append(NodeResult(info.node_name, info.resource_type, status, seconds))
            if self.on_step is not None:
                self.on_step(len(self.nodes), max(self.total, len(self.nodes)), info.resource_type, info.node_name,
                             status)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started
