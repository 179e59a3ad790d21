"""The study's classical baseline: TF-IDF features of the linearized record and a random forest.

The study tuned the forest with 3-fold cross-validation on part of the train split; this baseline uses fixed,
documented hyperparameters so the demo is fast and reproducible (the tuned version is
`biasmirror.triage.classical.TfidfForest`, `biasmirror baselines tfidf-rf`). Single-character tokens are kept so
that the tabular sex value is a feature. Scoring goes through `biasmirror.triage.runs.score_pending`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.triage.runs import score_pending
from biasmirror.triage.scoring import register_model, training_inputs

DEFAULT_MODEL_NAME = "tfidf-rf"


@dataclass(frozen=True)
class BaselineRun:
    run_id: str
    model: str
    n_train: int
    n_scored: int
    train_seconds: float


class _FittedPipeline:
    """A fitted scikit-learn pipeline as a probability model for `score_pending`."""

    def __init__(self, pipeline: Any) -> None:
        self.pipeline = pipeline
        self.levels = [int(c) for c in pipeline.classes_]

    def score(self, records: Sequence[str], batch_size: int = 5000, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        out = self.pipeline.predict_proba(list(records))
        if progress is not None:
            progress(len(records))
        return out


def train_and_score(dataset: str, model: str = DEFAULT_MODEL_NAME, seed: int = 0, n_estimators: int = 300,
                    batch_size: int = 5000) -> BaselineRun:
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline

    train = training_inputs(dataset)
    parameters = {"seed": seed, "n_estimators": n_estimators, "min_df": 2, "ngram_range": [1, 2],
                  "n_train": len(train)}
    pipeline = make_pipeline(
        TfidfVectorizer(token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), min_df=2, sublinear_tf=True),
        RandomForestClassifier(n_estimators=n_estimators, min_samples_leaf=2, n_jobs=-1, random_state=seed),
    )
    started = time.perf_counter()
    pipeline.fit(train["input_text"], train["documented_level"].astype(int))
    train_seconds = time.perf_counter() - started
    nodes = sum(int(tree.tree_.node_count) for tree in pipeline[-1].estimators_)
    register_model(dataset, model, "tfidf-rf-fixed", nodes, nodes, parameters)
    run = score_pending(dataset, model, _FittedPipeline(pipeline), parameters, batch_size=batch_size,
                        chunk_size=batch_size, order="input_id")
    return BaselineRun(run.run_id, model, len(train), run.n_scored, train_seconds)
