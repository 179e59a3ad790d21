"""`biasmirror forget`: a data set, one model or one counterfactual generator removed from every inference table
that holds them, in one transaction recorded as a `forget` run; the published file keeps them until the next
build, which drops them from the marts (end to end: real DuckDB, real dbt builds)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from biasmirror.cli import app
from biasmirror.forget import (DATASET_TABLES, GENERATOR_TABLES, HISTORY_TABLES, IMPLICIT_TABLES, KEPT_TABLES,
                               MODEL_TABLES, RUN_TABLES)
from biasmirror.paths import project_dir
from warehouse_workspace import Workspace
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_BOOT = 100


def forget(workspace: Workspace, *args: str, confirm: str | None = None):
    with workspace.active():
        return CliRunner().invoke(app, ["forget", *args, *([] if confirm is not None else ["--yes"])], input=confirm)


def test_every_inference_table_is_either_forgotten_or_kept_on_purpose() -> None:
    contract = yaml.safe_load((project_dir() / "models/staging/inference/_inference__sources.yml").read_text())
    (source,) = [s for s in contract["sources"] if s["name"] == "inference"]
    tables = {table["name"] for table in source["tables"]}
    handled = {*MODEL_TABLES, *GENERATOR_TABLES, *DATASET_TABLES, *IMPLICIT_TABLES, *RUN_TABLES, *KEPT_TABLES,
               *HISTORY_TABLES}
    assert tables == handled, (sorted(tables - handled), sorted(handled - tables))


@pytest.fixture(scope="module")
def imported(module_workspace: Workspace) -> tuple[Workspace, dict[tuple[str, str], pd.DataFrame]]:
    """Pairs of two models in data set `fg` and one model in data set `other`, built and published."""
    rng = np.random.default_rng(17)
    frames = {
        ("fg", "m1"): random_pairs(rng, 400, shift_probability=0.3, female_bias=0.3, strata={"site": ["a", "b"]}),
        ("fg", "m2"): random_pairs(rng, 300, shift_probability=0.2, female_bias=-0.3, strata={"site": ["a", "b"]}),
        ("other", "m1"): random_pairs(rng, 200, shift_probability=0.2),
    }
    for (dataset, model), frame in frames.items():
        module_workspace.import_pairs(frame, dataset, model, name=f"{dataset}-{model}.parquet")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, frames


def test_forget_a_model_and_a_data_set_then_build_drops_them_from_the_marts(imported) -> None:
    workspace, frames = imported
    strata_m2 = int(workspace.query("select count(*) as n from inference.imported_pair_strata "
                                    "where dataset = 'fg' and model = 'm2'").n.iloc[0])
    assert strata_m2 == len(frames[("fg", "m2")])
    n_history_m2 = len(workspace.query_published("select * from audit.paired_metrics where dataset = 'fg' and "
                                                 "model = 'm2' and stratum_name = 'overall'"))
    assert n_history_m2 > 0

    # without --yes: the counts, a question, and nothing removed on "no"
    declined = forget(workspace, "--dataset", "fg", "--model", "m2", confirm="n\n")
    assert declined.exit_code == 1 and "Nothing was removed" in declined.output
    assert "inference.imported_pairs" in declined.output and "300" in declined.output
    assert len(workspace.query("select * from inference.imported_pairs where model = 'm2'")) == 300

    result = forget(workspace, "--dataset", "fg", "--model", "m2")
    assert result.exit_code == 0, result.output
    held = workspace.query("select dataset, model, count(*) as n from inference.imported_pairs group by all")
    assert {(r.dataset, r.model): r.n for r in held.itertuples()} == {("fg", "m1"): 400, ("other", "m1"): 200}
    assert workspace.query("select count(*) as n from inference.imported_pair_strata where model = 'm2'").n.iloc[0] == 0
    runs = workspace.query("select kind, dataset, model, status, n_items, parameters from inference.runs")
    assert not len(runs[(runs.kind == "import") & (runs.model == "m2")])  # its import run went with its rows
    (record,) = runs[runs.kind == "forget"].itertuples()
    assert (record.dataset, record.model, record.status) == ("fg", "m2", "finished")
    removed = json.loads(record.parameters)["removed"]
    # its pairs, their strata, its import run, and the build's headline rows of m2 (one per setting and metric)
    assert removed == {"imported_pairs": 300, "imported_pair_strata": strata_m2, "runs": 1,
                       "audit_history": n_history_m2}
    assert record.n_items == sum(removed.values())

    # a whole data set: its pairs and its runs
    result = forget(workspace, "--dataset", "other")
    assert result.exit_code == 0, result.output
    assert not len(workspace.query("select * from inference.imported_pairs where dataset = 'other'"))
    assert not len(workspace.query("select * from inference.runs where dataset = 'other' and kind <> 'forget'"))
    assert len(workspace.query("select * from inference.runs where dataset = 'other' and kind = 'forget'")) == 1

    # the published file is the last build until the next one
    published = workspace.query_published("select distinct dataset, model from audit.paired_metrics")
    assert set(map(tuple, published.to_numpy())) == {("fg", "m1"), ("fg", "m2"), ("other", "m1")}
    before = workspace.query_published("select * from audit.paired_metrics where dataset = 'fg' and model = 'm1'")

    workspace.build(variables={"bootstrap_resamples": N_BOOT})
    for mart in ("paired_metrics", "pair_outcomes", "model_performance"):
        models = workspace.query_published(f"select distinct dataset, model from audit.{mart}")
        assert set(map(tuple, models.to_numpy())) == {("fg", "m1")}, mart
    after = workspace.query_published("select * from audit.paired_metrics where dataset = 'fg' and model = 'm1'")
    key = ["setting", "stratum_name", "stratum_value", "metric"]
    merged = before.merge(after, on=key, suffixes=("_before", "_after"))
    assert len(merged) == len(before) == len(after)
    assert np.allclose(merged.estimate_before, merged.estimate_after)  # what stays is untouched
    frame = frames[("fg", "m1")]
    expected = reference_paired_metrics(frame.original_sex, frame.original_level, frame.counterfactual_level)
    overall = after[after.stratum_name == "overall"].set_index("metric").estimate
    assert overall["pooled_rate"] == pytest.approx(expected["pooled_rate"], abs=1e-12)

    again = forget(workspace, "--dataset", "fg", "--model", "m2")
    assert again.exit_code == 1
    assert "Nothing to forget" in again.output and "'m1'" in again.output


def test_bad_requests_change_nothing(imported) -> None:
    workspace, _ = imported
    before = workspace.query("select count(*) as n from inference.runs").n.iloc[0]
    both = forget(workspace, "--dataset", "fg", "--model", "m1", "--generator", "rules")
    assert both.exit_code == 1 and "forget the model and the generator in two commands" in both.output
    unknown = forget(workspace, "--dataset", "nope")
    assert unknown.exit_code == 1 and "Nothing to forget" in unknown.output and "'fg'" in unknown.output
    empty = forget(workspace, "--dataset", " ")
    assert empty.exit_code == 1 and "--dataset must not be empty" in empty.output
    assert workspace.query("select count(*) as n from inference.runs").n.iloc[0] == before


@pytest.mark.slow
def test_forget_a_generator_and_a_trained_model_of_a_built_cohort(tmp_path: Path) -> None:
    """On a copy of the demo warehouse (synthetic MIMIC-IV cohort, rule-based and placebo counterfactuals, a
    random forest, imported pairs, the implicit-bias study): forget the placebo generator, then the forest, and
    rebuild everything downstream of the inference tables."""
    from demo_warehouse import VARIABLES, demo_warehouse, mimic_root

    demo = demo_warehouse()
    workspace = Workspace(tmp_path)
    shutil.copyfile(demo.warehouse, workspace.warehouse)

    def generators(table: str) -> set[str]:
        return set(workspace.query(f"select distinct generator from inference.{table} where dataset = 'mimic'").generator)

    tables = ("counterfactuals", "counterfactual_checks", "counterfactual_similarity")
    held = {table: generators(table) for table in tables}
    assert {"rules", "rules-placebo"} <= held["counterfactuals"] and "rules-placebo" in held["counterfactual_checks"]
    dyads_before = workspace.query_published("select * from audit.paired_metrics where dataset = 'dyads'")
    implicit_before = workspace.query_published("select * from audit.word_association_bias")

    result = forget(workspace, "--dataset", "mimic", "--generator", "rules-placebo")
    assert result.exit_code == 0, result.output
    for table in tables:  # the placebo's rows are gone, the other generator's are all there
        assert generators(table) == held[table] - {"rules-placebo"}, table
    assert not len(workspace.query("select * from inference.runs where generator = 'rules-placebo' and kind <> 'forget'"))

    result = forget(workspace, "--dataset", "mimic", "--model", "rf-small")
    assert result.exit_code == 0, result.output
    for table in ("predictions", "prediction_repeats", "triage_models"):
        assert not len(workspace.query(f"select * from inference.{table} where model = 'rf-small'")), table
    assert len(workspace.query("select * from inference.counterfactuals where generator = 'rules'"))

    workspace.build(select=["source:inference+"], variables={**VARIABLES, "mimic_root": str(mimic_root(demo))})
    metrics = workspace.query_published("select distinct dataset, model, generator from audit.paired_metrics")
    assert not len(metrics[metrics.dataset == "mimic"])
    for mart in ("noise_floor", "sex_gap", "model_performance", "scoring_parity"):
        assert "rf-small" not in set(workspace.query_published(f"select distinct model from audit.{mart}").model), mart
    quality = workspace.query_published("select distinct generator from audit.counterfactual_quality")
    assert set(quality.generator) == {"rules"}
    # what was not forgotten is what it was
    dyads_after = workspace.query_published("select * from audit.paired_metrics where dataset = 'dyads'")
    key = ["model", "setting", "stratum_name", "stratum_value", "metric"]
    assert list(dyads_before.sort_values(key)[key].itertuples(index=False)) == list(dyads_after.sort_values(key)[key].itertuples(index=False))
    assert np.allclose(dyads_before.sort_values(key).estimate.to_numpy(), dyads_after.sort_values(key).estimate.to_numpy(),
                       equal_nan=True)
    assert len(workspace.query_published("select * from audit.word_association_bias")) == len(implicit_before)
