"""Prediction runs: pending test inputs of a data set through a model, into the warehouse, resumable.

Every model family (causal LMs with label probabilities, the forest, the MLP, the encoders) is scored by
`score_inputs`: the pending inputs (audit.model_inputs of the chosen settings without a row for this model) are
split into chunks; each chunk's rows are written in one transaction. A run killed mid-way keeps its finished
chunks, and the next run scores exactly the rest. The run is recorded in inference.runs (finished, failed or
interrupted).

With `repeat`, the same function scores the test originals a second time, shuffled and in another batch size,
into inference.prediction_repeats: the noise floor of audit.noise_floor.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import numpy as np
import pandas as pd

from biasmirror.progress import progress_bar, rate_text
from biasmirror.settings import LEVELS, SETTINGS
from biasmirror.triage.model_inputs import pending_inputs
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.runs import interruption_held, recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now


class ProbabilityModel(Protocol):
    """Anything that turns input texts into level probabilities (rows sum to 1, columns in `levels` order).
    A model that also sees the probability mass on its label tokens sets `reports_label_mass = True` and returns
    (probabilities, label_mass) when called with `with_label_mass=True`."""

    levels: Sequence[int]

    def score(self, records: Sequence[str], batch_size: int = ..., progress: Callable[[int], None] | None = ...,
              **options: Any) -> Any: ...


@dataclass(frozen=True)
class Repeat:
    """Score the model's already scored test originals again (inference.prediction_repeats)."""

    number: int = 1
    order_seed: int = 1


@dataclass(frozen=True)
class ScoreRun:
    run_id: str
    model: str
    n_scored: int
    seconds: float
    n_pending: int = 0

    @property
    def inputs_per_second(self) -> float:
        return self.n_scored / self.seconds if self.seconds > 0 else float("nan")


def order_pending(pending: pd.DataFrame, order: str) -> pd.DataFrame:
    """`length`: longest texts first (little padding; the scorer sorts by tokens within a chunk).
    `pair`: by record, setting and variant, so a record's original and counterfactual inputs are adjacent
    (what prefix caching on vLLM profits from). `input_id`: by content hash."""
    if order == "length":
        return pending.assign(_n=pending["input_text"].str.len()).sort_values(
            ["_n", "input_id"], ascending=[False, True], kind="stable").drop(columns="_n").reset_index(drop=True)
    if order == "pair":
        return pending.sort_values(["record_id", "setting", "variant", "input_id"], kind="stable").reset_index(drop=True)
    if order == "input_id":
        return pending.sort_values("input_id", kind="stable").reset_index(drop=True)
    raise ValueError(f"Unknown order {order!r}: length, pair or input_id")


def limit_pending(pending: pd.DataFrame, limit: int | None) -> pd.DataFrame:
    """At most `limit` inputs, taken record by record (a record's original and copies together), so a trial run
    with --limit gives whole pairs."""
    if limit is None or limit >= len(pending):
        return pending
    if limit < 0:
        raise ValueError(f"--limit must be >= 0, got {limit}")
    return order_pending(pending, "pair").head(limit)


def prediction_rows(dataset: str, model: str, run_id: str, input_ids: list[str], classes: Sequence[int],
                    probabilities: np.ndarray, label_mass: np.ndarray | None = None) -> pd.DataFrame:
    """Rows for inference.predictions from class probabilities (columns in `classes` order)."""
    full = np.zeros((len(input_ids), len(LEVELS)))
    for column, level in enumerate(classes):
        full[:, LEVELS.index(int(level))] = probabilities[:, column]
    levels = np.asarray(LEVELS)
    rows = pd.DataFrame({
        "dataset": dataset, "model": model, "input_id": input_ids,
        "predicted_level": levels[full.argmax(axis=1)],
        "expected_level": full @ levels,
        "run_id": run_id, "predicted_at": utc_now(),
        "label_mass": np.clip(label_mass, 0.0, 1.0) if label_mass is not None else np.nan,
    })
    for index, level in enumerate(LEVELS):
        rows[f"p_level_{level}"] = full[:, index]
    return rows


def write_rows(rows: pd.DataFrame, table: str = "predictions") -> int:
    """Append rows in one transaction: a chunk is written whole or not at all."""
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        try:
            written = append_rows(con, table, rows)
        except BaseException:
            con.rollback()
            raise
        con.commit()
    return written


def _scores(model: ProbabilityModel, texts: list[str], batch_size: int, progress: Callable[[int], None],
            options: dict[str, Any]) -> tuple[np.ndarray, np.ndarray | None]:
    if getattr(model, "reports_label_mass", False):
        probabilities, mass = model.score(texts, batch_size=batch_size, progress=progress, with_label_mass=True,
                                          **options)
        return probabilities, mass
    return model.score(texts, batch_size=batch_size, progress=progress, **options), None


def score_inputs(dataset: str, model_name: str, model: ProbabilityModel, parameters: dict[str, Any], *,
                 settings: Sequence[str] = SETTINGS, batch_size: int = 16, chunk_size: int = 512,
                 order: str = "length", limit: int | None = None, repeat: Repeat | None = None,
                 score_options: dict[str, Any] | None = None) -> ScoreRun:
    """Score the pending test inputs of `settings` with `model` and store them under `model_name`.

    repeat: score the model's test originals again (shuffled by `repeat.order_seed`, in the given batch size)
    into inference.prediction_repeats, instead of the unscored inputs into inference.predictions.
    limit: at most this many inputs in this run (whole records first; the rest stays pending)."""
    if chunk_size < 1 or batch_size < 1:
        raise ValueError("chunk size and batch size must be >= 1")
    options = dict(score_options or {})
    if repeat is None:
        table, kind, what = "predictions", "predictions", "scoring"
        pending = order_pending(limit_pending(pending_inputs(dataset, model_name, settings), limit), order)
    else:
        table, kind, what = "prediction_repeats", "prediction_repeats", "re-scoring originals"
        pending = limit_pending(pending_inputs(dataset, model_name, settings, table=table,
                                               repeat_number=repeat.number), limit)
        pending = pending.iloc[np.random.default_rng(repeat.order_seed).permutation(len(pending))].reset_index(drop=True)
        options.setdefault("sort_by_length", False)
    levels = [int(level) for level in model.levels]
    run_parameters = {**parameters, "batch_size": batch_size, "chunk_size": chunk_size, "order": order,
                      "settings": list(settings), "limit": limit, "n_pending": len(pending)}
    if repeat is not None:
        run_parameters.update(repeat_number=repeat.number, seed=repeat.order_seed)
    scored = 0
    started = time.perf_counter()
    with recorded_run(kind, run_parameters, dataset=dataset, model=model_name) as run:
        with progress_bar() as bar:
            task = bar.add_task(f"{what} ({model_name})", total=len(pending), rate="")
            done = {"n": 0}

            def advance(n: int) -> None:
                done["n"] += n
                bar.update(task, advance=n, rate=rate_text(done["n"], time.perf_counter() - started, "inputs"))

            for start in range(0, len(pending), chunk_size):
                chunk = pending.iloc[start:start + chunk_size]
                probabilities, mass = _scores(model, chunk["input_text"].tolist(), batch_size, advance, options)
                rows = prediction_rows(dataset, model_name, run.run_id, chunk["input_id"].tolist(), levels,
                                       probabilities, mass)
                if repeat is not None:
                    rows = rows.assign(repeat_number=repeat.number, batch_size=batch_size,
                                       order_seed=repeat.order_seed)
                with interruption_held():  # the chunk and its count go in together
                    scored += write_rows(rows, table)
                    run.n_items = scored
    return ScoreRun(run.run_id, model_name, scored, time.perf_counter() - started, len(pending))
