"""The study's classical baseline: TF-IDF features of the linearized record and a random forest.

The study tuned the forest with 3-fold cross-validation on part of the train split; this baseline uses fixed,
documented hyperparameters so the demo is fast and reproducible (the tuned version belongs to the
triage-models work). Single-character tokens are kept so that the tabular sex value is a feature.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from biasmirror.progress import progress_bar, rate_text
from biasmirror.triage.scoring import prediction_rows, training_inputs, unscored_inputs, write_predictions
from biasmirror.warehouse import connect
from biasmirror.warehouse.writes import finish_run, start_run

DEFAULT_MODEL_NAME = "tfidf-rf"


@dataclass(frozen=True)
class BaselineRun:
    run_id: str
    model: str
    n_train: int
    n_scored: int
    train_seconds: float


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
    classes = [int(c) for c in pipeline.classes_]

    pending = unscored_inputs(dataset, model)
    with connect() as con:
        run_id = start_run(con, "predictions", parameters, dataset=dataset, model=model)
    scored = 0
    started = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task(f"scoring ({model})", total=len(pending), rate="")
        for start in range(0, len(pending), batch_size):
            batch = pending.iloc[start:start + batch_size]
            probabilities = pipeline.predict_proba(batch["input_text"])
            scored += write_predictions(prediction_rows(dataset, model, run_id, batch["input_id"].tolist(),
                                                        classes, probabilities))
            bar.update(task, advance=len(batch), rate=rate_text(scored, time.perf_counter() - started, "inputs"))
    with connect() as con:
        finish_run(con, run_id, scored)
    return BaselineRun(run_id, model, len(train), scored, train_seconds)
