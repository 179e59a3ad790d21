"""A small audited warehouse with both data sets, built once per test session and shared by the Bordeaux and
data-quality tests (each test that changes it works on a copy).

Synthetic Bordeaux and MIMIC-IV files -> dbt build -> counterfactuals (MIMIC: the rule-based generator;
Bordeaux: a copy written here, text unchanged, sex flipped) -> model inputs -> predictions written directly
(a deterministic function of the input, with a planted dyad effect) -> audit marts.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from warehouse_workspace import Workspace

BORDEAUX_VISITS = 1500
MIMIC_STAYS = 700
VARIABLES_BASE = {"bootstrap_resamples": 50}
MODEL = "planted"
AUDIT = ("+paired_metrics", "+pair_outcomes", "+cohort_flow")


@dataclass(frozen=True)
class Pipeline:
    workspace: Workspace
    bordeaux_root: Path
    mimic_root: Path
    variables: dict

    def copy(self, destination: Path) -> Workspace:
        """A workspace holding a copy of the built warehouse (to break without touching the shared one)."""
        destination.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.workspace.warehouse, destination / "warehouse.duckdb")
        return Workspace(destination)


def planted_level(input_id: str, documented_level: int, shown_sex: str | None, nurse_sex: str | None) -> int:
    """The 'model': the documented level, one step less severe for a shown female patient of a female nurse
    in about half the cases, one step more severe in about one case in eight otherwise."""
    u = int(hashlib.sha256(input_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    if shown_sex == "F" and nurse_sex == "F" and u < 0.5:
        return min(documented_level + 1, 5)
    if u > 0.875:
        return max(documented_level - 1, 1)
    return documented_level


def write_bordeaux_counterfactuals(workspace: Workspace, generator: str = "test-copy") -> int:
    from biasmirror.warehouse import connect, ensure_inference_tables
    from biasmirror.warehouse.writes import append_rows, utc_now

    tests = workspace.query("select dataset, record_id, sex, hpi, pmh from audit.triage_cohort "
                            "where dataset = 'bordeaux' and split = 'test'")
    frame = pd.DataFrame({
        "dataset": tests.dataset, "record_id": tests.record_id, "generator": generator,
        "original_sex": tests.sex, "counterfactual_sex": np.where(tests.sex == "F", "M", "F"),
        "hpi": tests.hpi, "pmh": tests.pmh, "status": "ok", "n_replacements": 0, "run_id": "test",
        "created_at": utc_now(),
    })
    with workspace.active(), connect() as con:
        ensure_inference_tables(con)
        con.begin()
        append_rows(con, "counterfactuals", frame)
        con.commit()
    return len(frame)


def write_planted_predictions(workspace: Workspace, dataset: str, model: str = MODEL) -> int:
    from biasmirror.warehouse import connect
    from biasmirror.warehouse.writes import append_rows, utc_now

    inputs = workspace.query(
        "select distinct i.input_id, i.documented_level, i.shown_sex, c.nurse_sex from audit.model_inputs i "
        "join audit.triage_cohort c using (dataset, record_id) where i.dataset = ? and i.split = 'test'", [dataset])
    levels = [planted_level(r.input_id, int(r.documented_level), r.shown_sex, r.nurse_sex) for r in inputs.itertuples()]
    frame = pd.DataFrame({"dataset": dataset, "model": model, "input_id": inputs.input_id,
                          "predicted_level": levels, "run_id": "test", "predicted_at": utc_now()})
    for level in range(1, 6):
        frame[f"p_level_{level}"] = (frame.predicted_level == level).astype(float)
    frame = frame.drop_duplicates("input_id")
    with workspace.active(), connect() as con:
        con.begin()
        append_rows(con, "predictions", frame)
        con.commit()
    return len(frame)


def build_pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    """The shared warehouse, built on first use in this session's temporary folder."""
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.synth.bordeaux import write_bordeaux
    from biasmirror.synth.mimic import write_mimic

    base = tmp_path_factory.getbasetemp() / "bordeaux_pipeline"
    bordeaux_root, mimic_root = base / "bordeaux", base / "mimic"
    variables = {**VARIABLES_BASE, "bordeaux_root": str(bordeaux_root), "mimic_root": str(mimic_root)}
    pipeline = Pipeline(Workspace(base / "warehouse"), bordeaux_root, mimic_root, variables)
    if (base / "done").exists():
        return pipeline
    write_bordeaux(bordeaux_root, visits=BORDEAUX_VISITS, seed=3)
    write_mimic(mimic_root, stays=MIMIC_STAYS, seed=5)
    workspace = pipeline.workspace
    workspace.root.mkdir(parents=True, exist_ok=True)
    # Only what the audit of paired metrics needs (and the flowchart): other marts are not under test here.
    workspace.build(select=list(AUDIT), variables=variables)
    write_bordeaux_counterfactuals(workspace)
    with workspace.active():
        generate_counterfactuals("mimic", "rules")
    workspace.build(select=["model_inputs"], variables=variables)
    for dataset in ("bordeaux", "mimic"):
        write_planted_predictions(workspace, dataset)
    workspace.build(select=[f"source:inference+,{selector}" for selector in AUDIT], variables=variables)
    (base / "done").touch()
    return pipeline
