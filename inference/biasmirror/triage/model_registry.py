"""The registry of triage models: one row per data set and model in inference.triage_models.

A row says what the model is (kind, base model, parameter counts, hyperparameters), how its inputs were
transformed, which setting's inputs it was trained on (`training_setting`), which settings' test inputs its
predictions are read for (`scored_settings`), and, for models trained with several seeds, the name the seeds
share (`seed_group`) and its seed. Registering a model again replaces its row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

import pandas as pd

from biasmirror.settings import SETTINGS
from biasmirror.triage.model_inputs import check_settings
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now


@dataclass(frozen=True)
class ModelEntry:
    """What inference.triage_models records about a model."""

    dataset: str
    model: str
    kind: str
    parameter_count: int | None = None
    trainable_parameter_count: int | None = None
    hyperparameters: dict[str, Any] = field(default_factory=dict)
    base_model: str | None = None
    input_transform: str = "none"
    artifact_path: str | None = None
    run_id: str | None = None
    training_setting: str | None = "full"
    scored_settings: Sequence[str] = SETTINGS
    seed_group: str | None = None
    training_seed: int | None = None


def default_scored_settings(training_setting: str | None) -> tuple[str, ...]:
    """The settings a model scores unless told otherwise: a model trained on full inputs scores every setting (its
    text-only and tabular-only scores are then a probe of the full model with part of its input removed); a model
    trained on one isolated setting scores that setting only."""
    if training_setting in (None, "full"):
        return SETTINGS
    return (training_setting,)


def register_model(entry: ModelEntry) -> None:
    """Record (or replace) the model's row in inference.triage_models."""
    if entry.training_setting is not None:
        check_settings([entry.training_setting])
    scored = check_settings(list(entry.scored_settings))
    row = pd.DataFrame([{
        "dataset": entry.dataset, "model": entry.model, "kind": entry.kind, "base_model": entry.base_model,
        "input_transform": entry.input_transform, "parameter_count": entry.parameter_count,
        "trainable_parameter_count": entry.trainable_parameter_count,
        "hyperparameters": json.dumps(entry.hyperparameters, sort_keys=True, default=str),
        "artifact_path": entry.artifact_path, "run_id": entry.run_id, "created_at": utc_now(),
        "training_setting": entry.training_setting,
        "scored_settings": ",".join(s for s in SETTINGS if s in scored),
        "seed_group": entry.seed_group, "training_seed": entry.training_seed,
    }])
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        con.execute("delete from inference.triage_models where dataset = ? and model = ?",
                    [entry.dataset, entry.model])
        append_rows(con, "triage_models", row)
        con.commit()


def registered_entry(dataset: str, model: str) -> ModelEntry | None:
    """The model's registry row, or None when it is not registered."""
    with connect() as con:
        ensure_inference_tables(con)
        frame = con.execute("select * from inference.triage_models where dataset = ? and model = ?",
                            [dataset, model]).df()
    if frame.empty:
        return None
    row = frame.iloc[0]

    def value(column: str) -> Any:
        item = row.get(column)
        return None if item is None or pd.isna(item) else item

    scored = tuple(s for s in (value("scored_settings") or "").split(",") if s) or SETTINGS
    seed = value("training_seed")
    return ModelEntry(
        dataset, model, str(row["kind"]), value("parameter_count"), value("trainable_parameter_count"),
        json.loads(value("hyperparameters") or "{}"), base_model=value("base_model"),
        input_transform=value("input_transform") or "none", artifact_path=value("artifact_path"),
        run_id=value("run_id"), training_setting=value("training_setting"), scored_settings=scored,
        seed_group=value("seed_group"), training_seed=int(seed) if seed is not None else None)


def model_name(name: str, setting: str, seed: int | None, several_seeds: bool) -> str:
    """The name a trained model is stored under: `<name>`, plus `-<setting>` for a model trained on an isolated
    setting (text_only, tabular_only), plus `-seed<s>` when several seeds are trained."""
    out = name if setting == "full" else f"{name}-{setting}"
    return f"{out}-seed{seed}" if several_seeds else out


def seed_group_name(name: str, setting: str, several_seeds: bool) -> str | None:
    """What the models of one multi-seed training share (audit.training_seed_summary groups by it)."""
    return model_name(name, setting, None, False) if several_seeds else None
