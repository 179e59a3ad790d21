"""The demo's pipeline on a small synthetic data set: files -> cohort -> counterfactuals -> model -> marts."""

from __future__ import annotations


import pytest

from biasmirror.counterfactuals.generate import generate_counterfactuals
from biasmirror.settings import SETTINGS
from biasmirror.synth.mimic import write_mimic
from biasmirror.triage.classifier_training import fit_and_score
from biasmirror.triage.forest import TfidfForest
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pipeline(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("mimic")
    # a strong planted effect so that a small data set and a small forest still show its direction
    write_mimic(root, stays=2500, seed=5, female_effect=0.9)
    variables = {"mimic_root": str(root), "bootstrap_resamples": 200}
    module_workspace.build(variables=variables)
    with module_workspace.active():
        first = generate_counterfactuals("mimic", "rules")
        assert first.written > 0 and first.skipped_existing == 0
    module_workspace.build(select=["model_inputs"], variables=variables)
    with module_workspace.active():
        scored = fit_and_score("mimic", "rf-small", TfidfForest.fixed(n_estimators=60, seed=1))
        assert scored.n_scored > 0
    module_workspace.build(select=["source:inference+"], variables=variables)
    return module_workspace


def test_every_setting_has_one_pair_per_test_record(pipeline: Workspace) -> None:
    n_test = pipeline.query("select count(*) as n from audit.triage_cohort where split = 'test'").n[0]
    flagged = pipeline.query("select count(*) as n from inference.counterfactuals where status <> 'ok'").n[0]
    counts = pipeline.query("select setting, count(*) as n from audit.pair_outcomes group by setting")
    assert set(counts.setting) == set(SETTINGS)
    assert (counts.n == n_test - flagged).all()


def test_settings_show_what_they_should(pipeline: Workspace) -> None:
    inputs = pipeline.query("select setting, variant, input_text from audit.model_inputs where split = 'test'")
    text_only = inputs[inputs.setting == "text_only"].input_text
    tabular_only = inputs[inputs.setting == "tabular_only"].input_text
    assert not text_only.str.contains("\nsex: ").any()
    assert text_only.str.contains("history of present illness: ").all()
    assert tabular_only.str.contains("\nsex: ").all()
    assert not tabular_only.str.contains("history of present illness").any()
    pairs = pipeline.query(
        "select o.input_text as original, c.input_text as copy, k.sex from audit.model_inputs o "
        "join audit.model_inputs c using (dataset, record_id, setting) join audit.triage_cohort k using (dataset, record_id) "
        "where o.variant = 'original' and c.variant = 'counterfactual' and setting = 'full'")
    female = pairs[pairs.sex == "F"]
    assert female.original.str.contains("sex: female").all() and female["copy"].str.contains("sex: male").all()
    assert (pairs["original"] != pairs["copy"]).all()


def test_the_planted_effect_shows_in_the_right_direction(pipeline: Workspace) -> None:
    pooled = pipeline.query(
        "select estimate from audit.paired_metrics where stratum_name = 'overall' and setting = 'full' "
        "and metric = 'pooled_rate'").estimate[0]
    assert pooled > 0


def test_model_performance_and_strata_are_built(pipeline: Workspace) -> None:
    performance = pipeline.query("select * from audit.model_performance where setting = 'full'")
    assert set(performance.metric) == {"accuracy", "kappa_linear", "kappa_quadratic", "macro_precision", "macro_recall", "macro_f1"}
    accuracy = performance[performance.metric == "accuracy"].estimate.iloc[0]
    assert 0.3 < accuracy <= 1
    strata = pipeline.query("select distinct stratum_name from audit.paired_metrics")
    assert set(strata.stratum_name) == {"overall", "documented_level", "presentation_group", "age_band"}


def test_rerunning_resumes_without_duplicates(pipeline: Workspace) -> None:
    before = pipeline.query("select count(*) as n from inference.counterfactuals").n[0]
    with pipeline.active():
        again = generate_counterfactuals("mimic", "rules")
        rescored = fit_and_score("mimic", "rf-small", TfidfForest.fixed(n_estimators=60, seed=1))
    assert again.written == 0 and again.skipped_existing == before
    assert rescored.n_scored == 0
    assert pipeline.query("select count(*) as n from inference.counterfactuals").n[0] == before


def test_interrupted_counterfactual_run_resumes(workspace: Workspace, pipeline: Workspace, monkeypatch) -> None:
    """A run that dies after its first batch keeps that batch; the next run writes exactly the rest."""
    import biasmirror.counterfactuals.generate as generate

    calls = {"n": 0}
    original_append = generate.append_rows

    def failing_append(con, table, frame):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt("simulated kill")
        return original_append(con, table, frame)

    with pipeline.active():
        total = pipeline.query("select count(*) as n from audit.triage_cohort where split = 'test'").n[0]
        from biasmirror.warehouse import connect
        with connect() as con:
            con.execute("delete from inference.counterfactuals where generator = 'rules'")
        monkeypatch.setattr(generate, "append_rows", failing_append)
        with pytest.raises(KeyboardInterrupt):
            generate.generate_counterfactuals("mimic", "rules", batch_size=200)
        monkeypatch.setattr(generate, "append_rows", original_append)
        assert pipeline.query("select count(*) as n from inference.counterfactuals").n[0] == 200
        resumed = generate.generate_counterfactuals("mimic", "rules", batch_size=200)
    assert resumed.skipped_existing == 200 and resumed.written == total - 200
    keys = pipeline.query("select count(*) as n, count(distinct record_id) as k from inference.counterfactuals")
    assert keys.n[0] == keys.k[0] == total
