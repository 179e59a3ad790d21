"""Reading model inputs from the warehouse and writing predictions, shared by every triage model.

Predictions are keyed by (dataset, model, input_id), the md5 of the input text: an input already scored by a
model is not scored again, so runs resume after an interruption and identical inputs are scored once.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from biasmirror.settings import LEVELS
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now


def training_inputs(dataset: str) -> pd.DataFrame:
    """Original records of the train split in the full setting, with their documented level."""
    with connect(read_only=True, working=True) as con:
        frame = con.execute(
            "select record_id, input_text, documented_level from audit.model_inputs "
            "where dataset = ? and split = 'train' and variant = 'original' and setting = 'full' order by record_id",
            [dataset]).df()
    if frame.empty:
        raise RuntimeError(f"No training inputs for data set {dataset!r}: build the cohort first (biasmirror build).")
    return frame


def unscored_inputs(dataset: str, model: str) -> pd.DataFrame:
    """Distinct test inputs (originals and counterfactuals, every setting) this model has not scored yet, with
    the record, setting and variant of one of the rows that carry them (to keep a pair's inputs adjacent)."""
    with connect() as con:
        ensure_inference_tables(con)
        return con.execute(
            "select input_id, any_value(input_text) as input_text, min(record_id) as record_id, "
            "min(setting) as setting, min(variant) as variant from audit.model_inputs i "
            "where dataset = ? and split = 'test' and not exists (select 1 from inference.predictions p "
            "where p.dataset = i.dataset and p.model = ? and p.input_id = i.input_id) "
            "group by input_id order by input_id", [dataset, model]).df()


def unrepeated_originals(dataset: str, model: str, repeat_number: int = 1) -> pd.DataFrame:
    """Test originals (every setting) this model has scored but not yet re-scored as repeat `repeat_number`."""
    with connect() as con:
        ensure_inference_tables(con)
        return con.execute(
            "select i.input_id, any_value(i.input_text) as input_text from audit.model_inputs i "
            "join inference.predictions p on p.dataset = i.dataset and p.input_id = i.input_id and p.model = ? "
            "where i.dataset = ? and i.split = 'test' and i.variant = 'original' and not exists ("
            "select 1 from inference.prediction_repeats r where r.dataset = i.dataset and r.model = ? "
            "and r.input_id = i.input_id and r.repeat_number = ?) group by i.input_id order by i.input_id",
            [model, dataset, model, repeat_number]).df()


def dataset_language(dataset: str) -> str:
    """The language of a data set's records (en for MIMIC-IV, fr for Bordeaux)."""
    with connect(read_only=True, working=True) as con:
        row = con.execute("select min(language), count(distinct language) from audit.triage_cohort where dataset = ?",
                          [dataset]).fetchone()
    if row is None or row[0] is None:
        raise RuntimeError(f"No records for data set {dataset!r} in audit.triage_cohort: build the cohort first.")
    if row[1] > 1:
        raise RuntimeError(f"Data set {dataset!r} mixes languages; cannot pick one prompt language.")
    return str(row[0])


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


def write_predictions(rows: pd.DataFrame, table: str = "predictions") -> int:
    """Append rows in one transaction: a batch is written whole or not at all."""
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


def register_model(dataset: str, model: str, kind: str, parameter_count: int | None,
                   trainable_parameter_count: int | None, hyperparameters: dict[str, Any],
                   base_model: str | None = None, input_transform: str = "none", artifact_path: str | None = None,
                   run_id: str | None = None) -> None:
    """Record (or replace) a model's row in inference.triage_models."""
    row = pd.DataFrame([{
        "dataset": dataset, "model": model, "kind": kind, "base_model": base_model,
        "input_transform": input_transform, "parameter_count": parameter_count,
        "trainable_parameter_count": trainable_parameter_count,
        "hyperparameters": json.dumps(hyperparameters, sort_keys=True, default=str),
        "artifact_path": artifact_path, "run_id": run_id, "created_at": utc_now(),
    }])
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        con.execute("delete from inference.triage_models where dataset = ? and model = ?", [dataset, model])
        append_rows(con, "triage_models", row)
        con.commit()
