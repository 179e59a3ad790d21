"""Reading the inputs a triage model trains on and scores (audit.model_inputs), shared by every model family.

Inputs are keyed by input_id, the md5 of the input text. A model is trained on the train split's originals of
one setting (`full` by default) and scores the test inputs (originals and counterfactual copies) of the
settings it is asked to score. An input this model has already scored is never pending again, so runs resume
after an interruption and identical inputs are scored once.

The queries run on DuckDB and PostgreSQL alike. Training rows come in the order of their record ids' characters
(what the forest's bootstrap samples index), sorted here: a PostgreSQL server's collation may order text
otherwise than DuckDB, and the same inputs must train the same model on either engine.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from biasmirror.settings import SETTINGS
from biasmirror.warehouse import connect, ensure_inference_tables


def check_settings(settings: Sequence[str]) -> tuple[str, ...]:
    """The settings, validated against biasmirror.settings.SETTINGS (a clear error names the bad one)."""
    unknown = [s for s in settings if s not in SETTINGS]
    if unknown or not settings:
        raise ValueError(f"Unknown setting(s) {', '.join(map(repr, unknown)) or '(none given)'}: "
                         f"choose among {', '.join(SETTINGS)}.")
    return tuple(dict.fromkeys(settings))


def training_inputs(dataset: str, setting: str = "full") -> pd.DataFrame:
    """Original records of the train split in one setting, with their documented level."""
    check_settings([setting])
    with connect(read_only=True, working=True) as con:
        frame = con.execute(
            "select record_id, input_text, documented_level from audit.model_inputs "
            "where dataset = ? and split = 'train' and variant = 'original' and setting = ? order by record_id",
            [dataset, setting]).df()
    frame = frame.sort_values("record_id", kind="stable", ignore_index=True)  # code-point order on every engine
    if frame.empty:
        raise RuntimeError(f"No training inputs for data set {dataset!r} in setting {setting}: build the cohort and "
                           "the model inputs first (biasmirror build).")
    return frame


def pending_inputs(dataset: str, model: str, settings: Sequence[str] = SETTINGS, *, table: str = "predictions",
                   repeat_number: int | None = None) -> pd.DataFrame:
    """Distinct test inputs of `settings` that still need a score from this model, with the record, setting and
    variant of one of the rows that carry them (to keep a pair's inputs adjacent). The rows of one input_id hold
    one text (the id is its md5): `min(input_text)` picks it on both engines (PostgreSQL 15 has no any_value).

    table="predictions": every input (originals and copies) without a prediction of this model.
    table="prediction_repeats": originals this model has scored but not yet re-scored as repeat `repeat_number`
    (the noise floor)."""
    settings = check_settings(settings)
    placeholders = ", ".join("?" for _ in settings)
    if table == "predictions":
        sql = ("select input_id, min(input_text) as input_text, min(record_id) as record_id, "
               "min(setting) as setting, min(variant) as variant from audit.model_inputs i "
               f"where dataset = ? and split = 'test' and setting in ({placeholders}) and not exists ("
               "select 1 from inference.predictions p where p.dataset = i.dataset and p.model = ? "
               "and p.input_id = i.input_id) group by input_id order by input_id")
        parameters = [dataset, *settings, model]
    elif table == "prediction_repeats":
        sql = ("select i.input_id, min(i.input_text) as input_text, min(i.record_id) as record_id, "
               "min(i.setting) as setting, min(i.variant) as variant from audit.model_inputs i "
               "join inference.predictions p on p.dataset = i.dataset and p.input_id = i.input_id and p.model = ? "
               f"where i.dataset = ? and i.split = 'test' and i.variant = 'original' and i.setting in ({placeholders}) "
               "and not exists (select 1 from inference.prediction_repeats r where r.dataset = i.dataset "
               "and r.model = ? and r.input_id = i.input_id and r.repeat_number = ?) "
               "group by i.input_id order by i.input_id")
        parameters = [model, dataset, *settings, model, repeat_number or 1]
    else:
        raise ValueError(f"Unknown table {table!r}: predictions or prediction_repeats")
    with connect() as con:
        ensure_inference_tables(con)
        return con.execute(sql, parameters).df()


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


def training_subset(frame: pd.DataFrame, n: int, seed: int, balance_levels: bool = False) -> pd.DataFrame:
    """A random subset of n training records (in record order); with balance_levels, n // levels records of each
    documented level (all of a level that has fewer), the rest of n filled from the other records at random."""
    if n >= len(frame):
        return frame
    if not balance_levels:
        return frame.sample(n=n, random_state=seed).sort_values("record_id")
    per_level = n // frame["documented_level"].nunique()
    chosen = pd.concat([group.sample(n=min(per_level, len(group)), random_state=seed)
                        for _, group in frame.groupby("documented_level", sort=True)])
    rest = frame.drop(chosen.index)
    if len(chosen) < n:
        chosen = pd.concat([chosen, rest.sample(n=n - len(chosen), random_state=seed)])
    return chosen.sort_values("record_id")
