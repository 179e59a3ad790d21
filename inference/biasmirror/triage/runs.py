"""Scoring runs: every not-yet-scored test input of a data set through a model, resumable and idempotent.

Any model that turns input texts into level probabilities (`ProbabilityModel`) is scored the same way: the
pending inputs (audit.model_inputs without a row in inference.predictions for this model) are split into
chunks; each chunk's rows are written in one transaction. A run killed mid-way keeps its finished chunks, and
the next run scores exactly the rest. The run is recorded in inference.runs (status failed when it raised).

`rescore_originals` scores the test originals a second time in another batch composition (shuffled, another
batch size) into inference.prediction_repeats: the noise floor of audit.noise_floor.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import numpy as np
import pandas as pd

from biasmirror.progress import progress_bar, rate_text
from biasmirror.triage.scoring import prediction_rows, unrepeated_originals, unscored_inputs, write_predictions
from biasmirror.warehouse import connect
from biasmirror.warehouse.runs import recorded_run, update_run_details
from biasmirror.warehouse.writes import utc_now


class ProbabilityModel(Protocol):
    levels: Sequence[int]

    def score(self, records: Sequence[str], batch_size: int = ..., progress: Callable[[int], None] | None = ...,
              **options: Any) -> np.ndarray: ...


@dataclass(frozen=True)
class ScoreRun:
    run_id: str
    model: str
    n_scored: int
    seconds: float

    @property
    def inputs_per_second(self) -> float:
        return self.n_scored / self.seconds if self.seconds > 0 else float("nan")


def order_pending(pending: pd.DataFrame, order: str) -> pd.DataFrame:
    """`length`: longest texts first (little padding; the scorer sorts by tokens within a chunk).
    `pair`: by record, setting and variant, so a record's original and counterfactual inputs are adjacent
    (what prefix caching on vLLM profits from)."""
    if order == "length":
        return pending.assign(_n=pending["input_text"].str.len()).sort_values(
            ["_n", "input_id"], ascending=[False, True], kind="stable").drop(columns="_n").reset_index(drop=True)
    if order == "pair":
        return pending.sort_values(["record_id", "setting", "variant", "input_id"], kind="stable").reset_index(drop=True)
    if order == "input_id":
        return pending.sort_values("input_id", kind="stable").reset_index(drop=True)
    raise ValueError(f"Unknown order {order!r}: length, pair or input_id")


def update_run_parameters(run_id: str, extra: dict[str, Any]) -> None:
    """Merge `extra` into a run's parameters JSON (e.g. the parity check's result)."""
    with connect() as con:
        update_run_details(con, run_id, extra)


def score_pending(dataset: str, model_name: str, model: ProbabilityModel, parameters: dict[str, Any],
                  batch_size: int = 16, chunk_size: int = 512, order: str = "length",
                  score_options: dict[str, Any] | None = None) -> ScoreRun:
    """Score every pending test input of `dataset` with `model` and store the rows under `model_name`."""
    if chunk_size < 1 or batch_size < 1:
        raise ValueError("chunk size and batch size must be >= 1")
    pending = order_pending(unscored_inputs(dataset, model_name), order)
    levels = [int(level) for level in model.levels]
    scored = 0
    started = time.perf_counter()
    with recorded_run("predictions", {**parameters, "batch_size": batch_size, "chunk_size": chunk_size,
                                      "order": order, "n_pending": len(pending)},
                      dataset=dataset, model=model_name) as run:
        run_id = run.run_id
        with progress_bar() as bar:
            task = bar.add_task(f"scoring ({model_name})", total=len(pending), rate="")

            def advance(n: int) -> None:
                bar.update(task, advance=n, rate=rate_text(scored + n, time.perf_counter() - started, "inputs"))

            for start in range(0, len(pending), chunk_size):
                chunk = pending.iloc[start:start + chunk_size]
                probabilities = model.score(chunk["input_text"].tolist(), batch_size=batch_size, progress=advance,
                                            **(score_options or {}))
                rows = prediction_rows(dataset, model_name, run_id, chunk["input_id"].tolist(), levels, probabilities)
                scored += write_predictions(rows)
                run.n_items = scored
    seconds = time.perf_counter() - started
    return ScoreRun(run_id, model_name, scored, seconds)


def rescore_originals(dataset: str, model_name: str, model: ProbabilityModel, batch_size: int = 7,
                      seed: int = 1, chunk_size: int = 512, repeat_number: int = 1) -> ScoreRun:
    """Score the test originals again, in a shuffled order and another batch size, into prediction_repeats."""
    pending = unrepeated_originals(dataset, model_name, repeat_number)
    pending = pending.iloc[np.random.default_rng(seed).permutation(len(pending))].reset_index(drop=True)
    levels = [int(level) for level in model.levels]
    scored = 0
    started = time.perf_counter()
    with recorded_run("prediction_repeats", {"batch_size": batch_size, "seed": seed, "repeat_number": repeat_number,
                                             "n_pending": len(pending)},
                      dataset=dataset, model=model_name) as run:
        run_id = run.run_id
        with progress_bar() as bar:
            task = bar.add_task(f"re-scoring originals ({model_name})", total=len(pending), rate="")
            for start in range(0, len(pending), chunk_size):
                chunk = pending.iloc[start:start + chunk_size]
                probabilities = model.score(chunk["input_text"].tolist(), batch_size=batch_size,
                                            progress=lambda n: bar.update(task, advance=n),
                                            sort_by_length=False)
                rows = prediction_rows(dataset, model_name, run_id, chunk["input_id"].tolist(), levels, probabilities)
                rows = rows.assign(repeat_number=repeat_number, batch_size=batch_size, order_seed=seed,
                                   predicted_at=utc_now())
                scored += write_predictions(rows, table="prediction_repeats")
                run.n_items = scored
    return ScoreRun(run_id, model_name, scored, time.perf_counter() - started)
