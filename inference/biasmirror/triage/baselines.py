"""Training a non-LLM triage model on a data set's train split and scoring its test inputs.

Shared by the TF-IDF + random forest, the embedding MLP and the RoBERTa-from-scratch models: read the train
split (audit.model_inputs), apply the input transform (`neutralized` for the gender-neutralization baseline:
the same transform is applied to every input the model scores), fit, register the model in
inference.triage_models with its parameter counts, and score the pending test inputs (resumable).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.runs import score_pending
from biasmirror.triage.scoring import dataset_language, register_model, training_inputs


class TrainableModel(Protocol):
    kind: str
    levels: Sequence[int]

    def fit(self, texts: Sequence[str], levels: Sequence[int]) -> Any: ...

    def score(self, records: Sequence[str], batch_size: int = ..., progress: Callable[[int], None] | None = ...,
              **options: Any) -> np.ndarray: ...

    def parameter_counts(self) -> tuple[int, int]: ...

    def hyperparameters(self) -> dict[str, Any]: ...


class TransformedInputs:
    """A fitted model that applies an input transform to whatever it scores."""

    def __init__(self, model: TrainableModel, transform: str, language: str) -> None:
        self.model = model
        self.transform = transform
        self.language = language
        self.levels = model.levels

    def score(self, records: Sequence[str], batch_size: int = 256, progress: Callable[[int], None] | None = None,
              **options: Any) -> np.ndarray:
        return self.model.score(transform_inputs(list(records), self.transform, self.language),
                                batch_size=batch_size, progress=progress, **options)


@dataclass(frozen=True)
class TrainedRun:
    model: str
    kind: str
    n_train: int
    train_seconds: float
    run_id: str
    n_scored: int
    parameter_count: int
    trainable_parameter_count: int


def train_and_score_model(dataset: str, model_name: str, model: TrainableModel, input_transform: str = "none",
                          batch_size: int = 256, save: Callable[[Path], Any] | None = None,
                          out_dir: Path | None = None, max_train: int | None = None, seed: int = 0) -> TrainedRun:
    """Fit `model` on the train split (optionally transformed), register it, and score the pending test inputs."""
    train = training_inputs(dataset)
    if max_train is not None and max_train < len(train):
        train = train.sample(n=max_train, random_state=seed).sort_values("record_id")
    language = dataset_language(dataset)
    texts = transform_inputs(train["input_text"].tolist(), input_transform, language)
    started = time.perf_counter()
    model.fit(texts, train["documented_level"].astype(int).tolist())
    train_seconds = time.perf_counter() - started
    if save is not None and out_dir is not None:
        save(out_dir)
    total, trainable = model.parameter_counts()
    hyperparameters = {**model.hyperparameters(), "n_train": len(train), "train_seconds": round(train_seconds, 3)}
    register_model(dataset, model_name, model.kind, total, trainable, hyperparameters,
                   base_model=hyperparameters.get("encoder"), input_transform=input_transform,
                   artifact_path=str(out_dir) if out_dir is not None else None)
    run = score_pending(dataset, model_name, TransformedInputs(model, input_transform, language),
                        {"kind": model.kind, "input_transform": input_transform, **hyperparameters},
                        batch_size=batch_size, chunk_size=max(batch_size, 2048))
    return TrainedRun(model_name, model.kind, len(train), train_seconds, run.run_id, run.n_scored, total, trainable)
