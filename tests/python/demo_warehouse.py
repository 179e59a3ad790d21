"""One small demo warehouse (synthetic MIMIC-IV -> cohort -> rule-based counterfactuals -> random forest ->
marts), built once per test process and shared by the strata, term and report tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

from conftest import Workspace, random_pairs

STAYS = 2500
SEED = 5
# A strong planted effect so that a small data set and a small forest still show its direction.
FEMALE_EFFECT = 0.9
N_BOOT = 200
VARIABLES = {"bootstrap_resamples": N_BOOT}
NOISE_FLIPS = 0.04


@cache
def demo_warehouse() -> Workspace:
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.synth.mimic import write_mimic
    from biasmirror.triage.baseline import train_and_score

    root = Path(tempfile.mkdtemp(prefix="biasmirror-demo-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    workspace = Workspace(root / "warehouse")
    workspace.root.mkdir()
    write_mimic(root / "mimic", stays=STAYS, seed=SEED, female_effect=FEMALE_EFFECT)
    variables = {**VARIABLES, "mimic_root": str(root / "mimic")}
    # the cohort and what is derived from records alone; the rest is downstream of the inference tables
    workspace.build(select=["+model_inputs", "+cohort_flow", "+int_cohort_records_stratified", "+int_record_terms"],
                    variables=variables)
    with workspace.active():
        generate_counterfactuals("mimic", "rules")
        generate_counterfactuals("mimic", "rules", placebo=True)  # same-sex rewrites: generator rules-placebo
    workspace.build(select=["model_inputs"], variables=variables)
    with workspace.active():
        train_and_score("mimic", "rf-small", seed=1, n_estimators=60)
        write_noise_floor_repeats()
    # pairs scored elsewhere, with the nurse x patient sex dyad of each record (as Bordeaux has)
    rng = np.random.default_rng(8)
    dyads = random_pairs(rng, 1200, shift_probability=0.2, female_bias=0.2)
    dyads["stratum_nurse_patient_dyad"] = rng.choice(["F", "M"], len(dyads)) + "_nurse_" + dyads["original_sex"] + "_patient"
    workspace.import_pairs(dyads, "dyads", "imported-model", "full", name="dyads.parquet")
    workspace.build(select=["source:inference+"], variables=variables)
    return workspace


def write_noise_floor_repeats() -> None:
    """A second scoring of every test original (inference.prediction_repeats, as `biasmirror score` writes it
    for LLM models) in which a known share NOISE_FLIPS of predictions moved by one level."""
    import numpy as np

    from biasmirror.triage.scoring import write_predictions
    from biasmirror.warehouse import connect

    # what train_and_score just wrote is in the working copy (published by the next build)
    with connect(read_only=True, working=True) as con:
        first = con.execute(
            "select distinct p.dataset, p.model, p.input_id, p.predicted_level, p.expected_level "
            "from inference.predictions p join audit.model_inputs i on i.dataset = p.dataset and i.input_id = p.input_id "
            "where i.split = 'test' and i.variant = 'original' order by p.input_id").df()
    flip = np.random.default_rng(3).random(len(first)) < NOISE_FLIPS
    repeats = first.assign(
        predicted_level=np.where(flip, np.where(first["predicted_level"] < 4, first["predicted_level"] + 1, 3),
                                 first["predicted_level"]),
        repeat_number=1, batch_size=7, order_seed=1, run_id="test-noise-floor")
    write_predictions(repeats, table="prediction_repeats")


def mimic_root(workspace: Workspace) -> Path:
    return workspace.root.parent / "mimic"
