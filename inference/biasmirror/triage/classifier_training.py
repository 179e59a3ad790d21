"""The one train-and-score path of the classifiers trained here: the TF-IDF + random forest, the MLP on sentence
embeddings, RoBERTa from scratch and a pretrained encoder fine-tuned as a classifier.

`fit_and_score` reads the train split of one setting (audit.model_inputs), applies the input transform
(`neutralized` for the gender-neutralization baseline: the same transform is applied to every input the model
scores), fits the model with a progress bar per phase, records the training run, registers the model in
inference.triage_models (kind, parameter counts, training setting, scored settings, seed group) and scores the
pending test inputs of the scored settings (resumable) through `score_inputs`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback, phase_bars
from biasmirror.triage.model_inputs import check_settings, dataset_language, training_inputs
from biasmirror.triage.model_registry import ModelEntry, default_scored_settings, register_model
from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.prediction_runs import score_inputs
from biasmirror.warehouse.runs import recorded_run


class TrainableModel(Protocol):
    kind: str
    levels: Sequence[int]

    def fit(self, texts: Sequence[str], levels: Sequence[int], progress: PhaseCallback | None = ...) -> Any: ...

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
    training_setting: str = "full"


@dataclass(frozen=True)
class TrainingPlan:
    """Where a model is trained and what it scores."""

    input_transform: str = "none"
    training_setting: str = "full"
    scored_settings: Sequence[str] | None = None  # None: default_scored_settings(training_setting)
    seed_group: str | None = None
    training_seed: int | None = None
    max_train: int | None = None
    sample_seed: int = 0
    limit: int | None = None  # score at most this many inputs in this run


def fit_and_score(dataset: str, model_name: str, model: TrainableModel, plan: TrainingPlan = TrainingPlan(),
                  batch_size: int = 256, save: Callable[[Path], Any] | None = None,
                  out_dir: Path | None = None) -> TrainedRun:
    """Fit `model` on the train split of `plan.training_setting` (optionally transformed), register it, and score
    the pending test inputs of its scored settings."""
    scored_settings = check_settings(list(plan.scored_settings or default_scored_settings(plan.training_setting)))
    train = training_inputs(dataset, plan.training_setting)
    if plan.max_train is not None and plan.max_train < len(train):
        train = train.sample(n=plan.max_train, random_state=plan.sample_seed).sort_values("record_id")
    language = dataset_language(dataset)
    texts = transform_inputs(train["input_text"].tolist(), plan.input_transform, language)
    levels = train["documented_level"].astype(int).tolist()
    parameters = {"kind": model.kind, "input_transform": plan.input_transform,
                  "training_setting": plan.training_setting, "n_train": len(train)}
    with recorded_run("training", parameters, dataset=dataset, model=model_name) as run:
        started = time.perf_counter()
        with phase_bars(f"{model_name}: ") as progress:
            model.fit(texts, levels, progress=progress)
        train_seconds = time.perf_counter() - started
        if save is not None and out_dir is not None:
            save(out_dir)
        total, trainable = model.parameter_counts()
        hyperparameters = {**model.hyperparameters(), "n_train": len(train), "train_seconds": round(train_seconds, 3)}
        run.n_items = len(train)
        training_run = run.run_id
    register_model(ModelEntry(
        dataset, model_name, model.kind, total, trainable, hyperparameters, base_model=hyperparameters.get("encoder"),
        input_transform=plan.input_transform, artifact_path=str(out_dir) if out_dir is not None else None,
        run_id=training_run, training_setting=plan.training_setting, scored_settings=scored_settings,
        seed_group=plan.seed_group, training_seed=plan.training_seed))
    scored = score_inputs(dataset, model_name, TransformedInputs(model, plan.input_transform, language),
                          {**parameters, **hyperparameters}, settings=scored_settings, batch_size=batch_size,
                          chunk_size=max(batch_size, 2048), limit=plan.limit)
    return TrainedRun(model_name, model.kind, len(train), train_seconds, scored.run_id, scored.n_scored, total,
                      trainable, plan.training_setting)
