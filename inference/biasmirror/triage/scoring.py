"""Reading model inputs from the warehouse and writing predictions, shared by every triage model.

Predictions are keyed by (dataset, model, input_id), the md5 of the input text: an input already scored by a
model is not scored again, so runs resume after an interruption and identical inputs are scored once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from biasmirror.settings import LEVELS
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now


def training_inputs(dataset: str) -> pd.DataFrame:
    """Original records of the train split in the full setting, with their documented level."""
    with connect(read_only=True) as con:
        frame = con.execute(
            "select record_id, input_text, documented_level from audit.model_inputs "
            "where dataset = ? and split = 'train' and variant = 'original' and setting = 'full' order by record_id",
            [dataset]).df()
    if frame.empty:
        raise RuntimeError(f"No training inputs for data set {dataset!r}: build the cohort first (biasmirror build).")
    return frame


def unscored_inputs(dataset: str, model: str) -> pd.DataFrame:
    """Distinct test inputs (originals and counterfactuals, every setting) this model has not scored yet."""
    with connect() as con:
        ensure_inference_tables(con)
        return con.execute(
            "select input_id, any_value(input_text) as input_text from audit.model_inputs i "
            "where dataset = ? and split = 'test' and not exists (select 1 from inference.predictions p "
            "where p.dataset = i.dataset and p.model = ? and p.input_id = i.input_id) "
            "group by input_id order by input_id", [dataset, model]).df()


def prediction_rows(dataset: str, model: str, run_id: str, input_ids: list[str], classes: list[int],
                    probabilities: np.ndarray) -> pd.DataFrame:
    """Rows for inference.predictions from class probabilities (columns in `classes` order)."""
    full = np.zeros((len(input_ids), len(LEVELS)))
    for column, level in enumerate(classes):
        full[:, LEVELS.index(level)] = probabilities[:, column]
    levels = np.asarray(LEVELS)
    rows = pd.DataFrame({
        "dataset": dataset, "model": model, "input_id": input_ids,
        "predicted_level": levels[full.argmax(axis=1)],
        "expected_level": full @ levels,
        "run_id": run_id, "predicted_at": utc_now(),
    })
    for index, level in enumerate(LEVELS):
        rows[f"p_level_{level}"] = full[:, index]
    return rows


def write_predictions(rows: pd.DataFrame) -> int:
    with connect() as con:
        con.begin()
        written = append_rows(con, "predictions", rows)
        con.commit()
    return written
