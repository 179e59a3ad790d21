"""One small demo warehouse (synthetic MIMIC-IV -> cohort -> rule-based counterfactuals -> random forest ->
marts), built once per test process and shared by the strata, term and report tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

from warehouse_workspace import Workspace
from pair_references import random_pairs

STAYS = 2500
SEED = 5
# A strong planted effect so that a small data set and a small forest still show its direction.
FEMALE_EFFECT = 0.9
N_BOOT = 200
VARIABLES = {"bootstrap_resamples": N_BOOT, "implicit_bootstrap_resamples": N_BOOT}
NOISE_FLIPS = 0.04


@cache
def demo_warehouse() -> Workspace:
    from biasmirror.build_plan import RECORDS_SELECTION
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.synth.mimic import write_mimic
    from biasmirror.triage.classifier_training import fit_and_score
    from biasmirror.triage.forest import TfidfForest

    root = Path(tempfile.mkdtemp(prefix="biasmirror-demo-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    workspace = Workspace(root / "warehouse")
    workspace.root.mkdir()
    write_mimic(root / "mimic", stays=STAYS, seed=SEED, female_effect=FEMALE_EFFECT)
    variables = {**VARIABLES, "mimic_root": str(root / "mimic")}
    # the cohort and what is derived from records alone (as the demo's first build); the rest is downstream of
    # the inference tables
    workspace.build(select=list(RECORDS_SELECTION), variables=variables)
    with workspace.active():
        generate_counterfactuals("mimic", "rules")
        generate_counterfactuals("mimic", "rules", placebo=True)  # same-sex rewrites: generator rules-placebo
    workspace.build(select=["model_inputs"], variables=variables)
    with workspace.active():
        fit_and_score("mimic", "rf-small", TfidfForest.fixed(n_estimators=60, seed=1))
        write_noise_floor_repeats()
        write_review(root / "review.csv")
    # pairs scored elsewhere, with the nurse x patient sex dyad of each record (as Bordeaux has)
    rng = np.random.default_rng(8)
    dyads = random_pairs(rng, 1200, shift_probability=0.2, female_bias=0.2)
    dyads["stratum_nurse_patient_dyad"] = rng.choice(["F", "M"], len(dyads)) + "_nurse_" + dyads["original_sex"] + "_patient"
    dyads["stratum_site"] = rng.choice(["north", "south", "east"], len(dyads))  # a second imported stratum column
    workspace.import_pairs(dyads, "dyads", "imported-model", "full", name="dyads.parquet")
    with workspace.active():
        run_simulated_implicit_study()
    workspace.build(select=["source:inference+"], variables=variables)
    return workspace


def run_simulated_implicit_study() -> None:
    """A small implicit-bias study answered by the simulated respondent (recorded as a simulation)."""
    from biasmirror.backends.registry import make_backend
    from biasmirror.implicit.runs import run_allocation, run_associations, run_explicit

    backend = make_backend("simulated", "sim-respondent", association_bias={"risk": 0.5, "emotions": -0.3},
                           seed=4)
    run_associations(backend, languages=["en"], categories=["risk", "emotions", "appearance"], iterations=12)
    run_allocation(backend, languages=["en"], disciplines=["hiv", "gynecology"], explanations=[False])
    run_explicit(backend, languages=["en"])


def write_noise_floor_repeats() -> None:
    """A second scoring of every test original (inference.prediction_repeats, as `biasmirror score` writes it
    for LLM models) in which a known share NOISE_FLIPS of predictions moved by one level."""
    import numpy as np

    from biasmirror.triage.prediction_runs import write_rows
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
    write_rows(repeats, table="prediction_repeats")


def write_review(path: Path) -> None:
    """A clinician's review of 40 sampled copies, through `review export` and `review import` (one in eight
    judged invalid)."""
    import csv
    import io

    from biasmirror.counterfactuals.review import export_sample, import_reviews

    export_sample("mimic", path, n=40, seed=2)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    for i, row in enumerate(rows):
        row["judgement"], row["reason"] = ("invalid", "pronoun of the original sex left") if i % 8 == 0 else ("valid", "")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    import_reviews(path, reviewer="demo")


def mimic_root(workspace: Workspace) -> Path:
    return workspace.root.parent / "mimic"
