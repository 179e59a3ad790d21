"""Recording why requests to a chat backend failed (inference.llm_failures) and summarising the reasons of a
run, for its parameters, its closing message and the error of a run where every request failed.

A failure row names the item (a record id, or a trial key of the implicit-bias study), the request's cache key,
the status code, the error type, and the content type and length of an answer that was not a chat completion -
never the prompt, never any part of an answer (a truncated answer is the model's text about a patient).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import duckdb
import pandas as pd

from biasmirror.backends.base import Failure, Generation
from biasmirror.url_secrets import scrub_text
from biasmirror.warehouse.writes import append_rows, utc_now


@dataclass
class FailureTally:
    """Failures of a run counted by reason, with the content type and length of the first answer body seen for
    each reason that had one."""

    reasons: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # reason -> "text/html, 1,234 bytes"
    rows: list[dict[str, Any]] = field(default_factory=list)  # not yet written

    def add(self, *, run_id: str, backend: Any, key: str, generation: Generation, dataset: str | None,
            item_id: str, attempt: str = "first") -> None:
        failure: Failure = generation.failure_or_generic
        self.reasons[failure.reason] += 1
        if failure.body_chars and failure.reason not in self.examples:
            self.examples[failure.reason] = f"{failure.content_type or 'no content type'}, {failure.body_chars:,} bytes"
        self.rows.append({
            "run_id": run_id, "backend": backend.name, "model": backend.model, "request_key": key,
            "dataset": dataset, "item_id": item_id, "attempt": attempt, "reason": failure.reason,
            "http_status": failure.http_status, "error_type": failure.error_type,
            "content_type": failure.content_type, "body_chars": failure.body_chars, "attempts": failure.attempts,
            "detail": scrub_text(generation.error or "")[:500] or None, "created_at": utc_now(),
        })

    def write(self, con: duckdb.DuckDBPyConnection) -> int:
        """Append the pending rows (inside the caller's transaction)."""
        written = append_rows(con, "llm_failures", pd.DataFrame(self.rows)) if self.rows else 0
        self.rows = []
        return written

    @property
    def total(self) -> int:
        return sum(self.reasons.values())

    def as_parameters(self) -> dict[str, int]:
        return dict(self.reasons.most_common())

    def summary(self) -> str:
        """'HTTP 429 x 12, timeout x 3' (most frequent first); '' when nothing failed."""
        return ", ".join(f"{reason} x {n:,}" for reason, n in self.reasons.most_common())

    def explain(self, backend: str, what: str, run_id: str) -> str:
        """A closing message: how many failed, why, what kind of answer body came back (its content type and
        length, never its content), and where to look."""
        lines = [f"The {backend} backend failed for {self.total:,} {what}: {self.summary()}."]
        for reason, described in self.examples.items():
            lines.append(f"  {reason}: the answer was {described} (not shown: it may hold patient data)")
        lines.append(f"  Each failure is in inference.llm_failures (run {run_id}).")
        return "\n".join(lines)
