"""Triage models in the warehouse: train/score commands, the tuned forest and its neutralized twin, resume after a
kill, and the marts (noise floor, probability shifts, sex gap, parameter counts) against independent
computations with numpy, pandas and scipy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.counterfactuals.generate import generate_counterfactuals
from biasmirror.synth.mimic import write_mimic
from biasmirror.triage.tiny_models import TinyModelSpec, build_tiny_causal_lm, synthetic_texts
from biasmirror.triage.classifier_training import TrainingPlan, TransformedInputs, fit_and_score
from biasmirror.triage.forest import TINY_FOREST_GRID, TfidfForest
from biasmirror.triage.neutralize import neutralize_text, remaining_markers
from warehouse_workspace import Workspace
from toy_triage import single_torch_thread  # noqa: F401 (module fixture)


# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("single_torch_thread")]

VARIABLES = {"bootstrap_resamples": 200}
# Only what the triage marts need: the cohort and the pairs' strata first, then the part of the project that
# reads the inference tables and feeds the triage marts and model performance.
FIRST_BUILD = ["+model_inputs", "+int_pair_strata"]
MARTS = ["noise_floor", "sex_gap", "probability_shifts", "model_performance", "paired_metrics", "scoring_parity",
         "model_settings", "training_seed_summary"]
LAST_BUILD = [f"source:inference+,+{mart}" for mart in MARTS]


def build(ws: Workspace, select: list[str], variables: dict) -> None:
    """dbt build of a selection; data tests run when all the models they read are selected (cautious)."""
    from biasmirror.dbt_runner import run_dbt

    with ws.active():
        run_dbt("build", select=select, variables=variables, extra=["--indirect-selection", "cautious"])
LEVEL_COLUMNS = [f"p_level_{level}" for level in range(1, 6)]


def forest(seed: int = 0) -> TfidfForest:
    return TfidfForest(grid=dict(TINY_FOREST_GRID), seed=seed, n_jobs=1)


@pytest.fixture(scope="module")
def pipeline(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory):
    from biasmirror.cli import app

    root = tmp_path_factory.mktemp("triage")
    write_mimic(root / "mimic", stays=150, seed=11, female_effect=0.9)
    variables = {**VARIABLES, "mimic_root": str(root / "mimic")}
    build(module_workspace, FIRST_BUILD, variables)
    with module_workspace.active():
        generate_counterfactuals("mimic", "rules")
    build(module_workspace, ["model_inputs"], variables)
    inputs = module_workspace.query("select input_text from audit.model_inputs where split = 'train' "
                                    "and setting = 'full'").input_text
    # a larger vocabulary trained on the inputs themselves keeps the prompts short (fast scoring)
    base = build_tiny_causal_lm(root / "base", synthetic_texts(60, seed=1) + inputs.tolist(),
                                TinyModelSpec(vocab_size=4096, hidden_size=32, intermediate_size=64, seed=2))
    runner = CliRunner()
    with module_workspace.active():
        trained = runner.invoke(app, ["train", "--dataset", "mimic", "--base", str(base), "--out", str(root / "lora"),
                                      "--model", "lora-a", "--max-steps", "3", "--batch-size", "4",
                                      "--max-train", "12", "--learning-rate", "5e-3"])
        assert trained.exit_code == 0, trained.output
        scored = runner.invoke(app, ["score", "--dataset", "mimic", "--model", "lora-a", "--base", str(base),
                                     "--adapter", str(root / "lora"), "--merge", "--batch-size", "16",
                                     "--chunk-size", "128", "--parity-sample", "6"])
        assert scored.exit_code == 0, scored.output
        original = fit_and_score("mimic", "rf-cv", forest())
        neutral = fit_and_score("mimic", "rf-cv-neutral", forest(), TrainingPlan(input_transform="neutralized"))
        # one forest per isolated setting, and a fixed forest trained with three seeds
        isolated = runner.invoke(app, ["baselines", "tfidf-rf", "--dataset", "mimic", "--model", "rf-iso", "--tiny",
                                       "--setting", "text_only,tabular_only"])
        assert isolated.exit_code == 0, isolated.output
        seeded = runner.invoke(app, ["baselines", "tfidf-rf", "--dataset", "mimic", "--model", "rf-seeds",
                                     "--no-search", "--trees", "15", "--seeds", "1,2,3"])
        assert seeded.exit_code == 0, seeded.output
    build(module_workspace, LAST_BUILD, variables)
    return module_workspace, root, base, original, neutral, scored.output


def predictions_with_inputs(ws: Workspace, model: str) -> pd.DataFrame:
    return ws.query(
        "select i.record_id, i.setting, i.variant, i.generator, i.input_text, k.sex, k.documented_level, p.* "
        "from inference.predictions p join audit.model_inputs i on i.dataset = p.dataset and i.input_id = p.input_id "
        "join audit.triage_cohort k on k.dataset = i.dataset and k.record_id = i.record_id "
        "where p.model = ? and i.split = 'test'", [model])


def test_every_test_input_is_scored_once_with_probabilities(pipeline) -> None:
    ws, *_ = pipeline
    counts = ws.query(
        "select p.model, count(*) as n, count(distinct p.input_id) as k, "
        "(select count(distinct input_id) from audit.model_inputs where split = 'test') as expected, "
        "max(abs(p_level_1 + p_level_2 + p_level_3 + p_level_4 + p_level_5 - 1)) as worst_sum "
        "from inference.predictions p group by p.model")
    full_models = counts[counts.model.isin(["lora-a", "rf-cv", "rf-cv-neutral", "rf-seeds-seed1"])]
    assert len(full_models) == 4
    assert (counts.n == counts.k).all() and (full_models.n == full_models.expected).all()
    assert counts.worst_sum.max() < 1e-9
    lora = ws.query("select * from inference.predictions where model = 'lora-a'")
    levels = np.arange(1, 6)
    probabilities = lora[LEVEL_COLUMNS].to_numpy()
    np.testing.assert_array_equal(lora.predicted_level, levels[probabilities.argmax(axis=1)])
    np.testing.assert_allclose(lora.expected_level, probabilities @ levels)


def test_training_and_scoring_runs_are_recorded(pipeline) -> None:
    ws, root, base, _, _, output = pipeline
    runs = ws.query("select kind, model, status, parameters, n_items from inference.runs where model = 'lora-a'")
    assert set(runs.kind) == {"training", "predictions", "prediction_repeats"}
    assert (runs.status == "finished").all()
    scoring = json.loads(runs[runs.kind == "predictions"].parameters.iloc[0])
    assert scoring["parity"]["n"] == 6 and scoring["merge"] is True
    levels = ws.query("select distinct documented_level from audit.model_inputs where split = 'train' "
                      "and setting = 'full'")
    assert scoring["levels"] == sorted(levels.documented_level.astype(int).tolist())
    assert scoring["label_tokens"] == {str(level): str(level) for level in scoring["levels"]}
    assert "Parity with generate-and-parse on 6 inputs" in output
    model = ws.query("select * from inference.triage_models where model = 'lora-a'").iloc[0]
    assert model.kind == "lora" and model.input_transform == "none"
    assert Path(model.artifact_path) == (root / "lora").resolve()
    per_layer = 16 * ((32 + 32) * 2 + (32 + 16) * 2 + (32 + 64) * 3)  # r (in + out) on q, o, k, v, gate, up, down
    assert model.trainable_parameter_count == 2 * per_layer


def test_model_performance_carries_the_parameter_counts(pipeline) -> None:
    ws, _, base, original, _, _ = pipeline
    from transformers import AutoModelForCausalLM

    performance = ws.query("select * from audit.model_performance where setting = 'full' and metric = 'kappa_linear'")
    by_model = performance.set_index("model")
    base_parameters = sum(p.numel() for p in AutoModelForCausalLM.from_pretrained(base).parameters())
    lora = by_model.loc["lora-a"]
    assert lora.model_kind == "lora"
    assert lora.parameter_count == base_parameters + lora.trainable_parameter_count
    assert by_model.loc["rf-cv"].parameter_count == original.parameter_count
    assert by_model.loc["rf-cv-neutral"].input_transform == "neutralized"


def test_resume_after_a_kill_loses_and_duplicates_nothing(pipeline, monkeypatch) -> None:
    """A run killed while writing its third chunk keeps exactly the first two (the third is rolled back); the
    next run writes exactly the rest, and the result equals an uninterrupted run."""
    import biasmirror.triage.prediction_runs as scoring
    from biasmirror.triage.prediction_runs import score_inputs

    ws, *_ = pipeline
    model = TransformedInputs(forest().fit(*_train(ws)), "none", "en")
    original_append = scoring.append_rows
    calls = {"n": 0}

    def append_then_die(con, table, frame):
        calls["n"] += 1
        written = original_append(con, table, frame)
        if calls["n"] == 3:
            raise KeyboardInterrupt("killed while writing")
        return written

    with ws.active():
        monkeypatch.setattr(scoring, "append_rows", append_then_die)
        with pytest.raises(KeyboardInterrupt):
            score_inputs("mimic", "rf-resume", model, {}, batch_size=16, chunk_size=40)
        monkeypatch.setattr(scoring, "append_rows", original_append)
        assert ws.query("select count(*) as n from inference.predictions where model = 'rf-resume'").n[0] == 80
        interrupted = ws.query("select status, n_items from inference.runs where model = 'rf-resume'")
        assert interrupted.status.tolist() == ["interrupted"] and interrupted.n_items.tolist() == [80]
        resumed = score_inputs("mimic", "rf-resume", model, {}, batch_size=16, chunk_size=40)
        again = score_inputs("mimic", "rf-resume", model, {}, batch_size=16, chunk_size=40)
    total = ws.query("select count(distinct input_id) as n from audit.model_inputs where split = 'test'").n[0]
    assert resumed.n_scored == total - 80 and again.n_scored == 0
    compare = ws.query(
        "select a.input_id, a.predicted_level as a_level, b.predicted_level as b_level, "
        + ", ".join(f"a.{c} as a_{c}, b.{c} as b_{c}" for c in LEVEL_COLUMNS)
        + " from inference.predictions a full join inference.predictions b using (dataset, input_id) "
          "where a.model = 'rf-resume' and b.model = 'rf-cv'")
    assert len(compare) == total and compare.input_id.is_unique
    assert (compare.a_level == compare.b_level).all()
    np.testing.assert_allclose(compare[[f"a_{c}" for c in LEVEL_COLUMNS]].to_numpy(),
                               compare[[f"b_{c}" for c in LEVEL_COLUMNS]].to_numpy())


def _train(ws: Workspace) -> tuple[list[str], list[int]]:
    train = ws.query("select input_text, documented_level from audit.model_inputs "
                     "where split = 'train' and setting = 'full' order by record_id")
    return train.input_text.tolist(), train.documented_level.astype(int).tolist()


def test_tuned_forest_predictions_are_the_forests(pipeline) -> None:
    """The stored probabilities are those of the same search refitted independently on the train split."""
    ws, *_ = pipeline
    texts, levels = _train(ws)
    for model, transform in (("rf-cv", lambda t: t), ("rf-cv-neutral", neutralize_text)):
        refit = forest().fit([transform(t) for t in texts], levels)
        stored = predictions_with_inputs(ws, model).drop_duplicates("input_id")
        columns = [f"p_level_{level}" for level in refit.levels]
        np.testing.assert_allclose(stored[columns].to_numpy(), refit.score([transform(t) for t in stored.input_text]))
        others = [c for c in LEVEL_COLUMNS if c not in columns]
        assert (stored[others].to_numpy() == 0).all()


def test_neutralized_model_cannot_see_sex(pipeline) -> None:
    ws, *_ = pipeline
    inputs = ws.query("select input_text from audit.model_inputs where split = 'train' and setting = 'full'").input_text
    assert all(remaining_markers(neutralize_text(text)) == [] for text in inputs)
    pdr = ws.query("select model, estimate from audit.paired_metrics where stratum_name = 'overall' "
                   "and setting = 'full' and metric = 'pdr'").set_index("model").estimate
    assert pdr["rf-cv-neutral"] == 0.0  # a record and its sex-swapped copy neutralize to the same text


def test_sex_gap_against_numpy_and_scipy(pipeline) -> None:
    from scipy.stats import mannwhitneyu

    ws, *_ = pipeline
    mart = ws.query("select * from audit.sex_gap").set_index(["model", "setting"])
    assert set(mart.reset_index().model) >= {"lora-a", "rf-cv", "rf-cv-neutral"}
    for model in ("lora-a", "rf-cv", "rf-cv-neutral"):
        frame = predictions_with_inputs(ws, model)
        for setting in ("full", "text_only"):
            originals = frame[(frame.variant == "original") & (frame.setting == setting)]
            male = originals[originals.sex == "M"].predicted_level.to_numpy(float)
            female = originals[originals.sex == "F"].predicted_level.to_numpy(float)
            row = mart.loc[(model, setting)]
            assert (row.n_male, row.n_female) == (len(male), len(female))
            assert row.m_minus_f == pytest.approx(male.mean() - female.mean(), abs=1e-12)
            if np.concatenate([male, female]).std() == 0:
                continue
            test = mannwhitneyu(male, female, alternative="two-sided", method="asymptotic", use_continuity=True)
            assert row.mann_whitney_u == pytest.approx(test.statistic)
            assert row.mann_whitney_p == pytest.approx(test.pvalue, rel=1e-5, abs=1e-12)
            assert row.m_minus_f_ci_low <= row.m_minus_f <= row.m_minus_f_ci_high
    assert mart.loc[("rf-cv-neutral", "full")].input_transform == "neutralized"


def test_probability_shifts_against_pandas(pipeline) -> None:
    ws, *_ = pipeline
    mart = ws.query("select * from audit.probability_shifts where stratum_name = 'overall'")
    for model in ("lora-a", "rf-cv"):
        frame = predictions_with_inputs(ws, model)
        frame["p_high"] = frame.p_level_1 + frame.p_level_2
        for setting in ("full", "tabular_only"):
            subset = frame[frame.setting == setting]
            original = subset[subset.variant == "original"].set_index("record_id")
            copies = subset[subset.variant == "counterfactual"].set_index("record_id")
            # a flagged copy has no model input, so no prediction: its record has no pair
            paired = original.index.intersection(copies.index)
            assert len(copies) == len(paired) >= 0.8 * len(original)
            original, copy = original.loc[paired], copies.loc[paired]
            sign = np.where(original.sex == "F", 1.0, -1.0)  # female minus male
            expected_shift = (sign * (original.expected_level - copy.expected_level)).mean()
            p_high_shift = (sign * (original.p_high - copy.p_high)).mean()
            rows = mart[(mart.model == model) & (mart.setting == setting)].set_index("metric")
            assert rows.loc["expected_level_shift"].estimate == pytest.approx(expected_shift, abs=1e-12)
            assert rows.loc["p_high_acuity_shift"].estimate == pytest.approx(p_high_shift, abs=1e-12)
            assert rows.loc["expected_level_shift"].n_pairs == len(original)
    # a model blind to sex words moves only where a copy changed other words too (a wrong copy: a relative's pronoun
    # swapped, benchmarks/README.md); with the tabular fields alone the copies differ in sex only
    neutral = mart[mart.model == "rf-cv-neutral"]
    assert (neutral[neutral.setting == "tabular_only"].estimate.abs() < 1e-12).all()
    assert (neutral.estimate.abs() < 0.03).all()


def test_probability_shifts_noise_floor_and_sex_gap_resample_patients_as_the_paired_metrics_do(pipeline) -> None:
    """A patient's pairs share one resampling unit (var bootstrap_unit = 'patient', the default), the same key the
    paired metrics use for the same pair; pairs of different patients never share one. The noise floor's records
    have the key of their pairs, and so have the sex gap's."""
    ws, *_ = pipeline
    pairs = ws.query("select p.pair_id, p.patient_id, p.unit_key, u.unit_key as paired_metrics_unit_key "
                     "from intermediate.int_pair_probabilities p join intermediate.int_pairs_unioned u "
                     "using (dataset, model, generator, setting, pair_id)")
    assert len(pairs) > 0 and (pairs.unit_key == pairs.paired_metrics_unit_key).all()
    per_patient = pairs.dropna(subset=["patient_id"]).groupby("patient_id")
    assert (per_patient.pair_id.nunique() > 1).any()  # some patient has several pairs: the rule is exercised
    assert (per_patient.unit_key.nunique() == 1).all()
    owners = pairs.dropna(subset=["patient_id"]).groupby("unit_key").patient_id.nunique()
    assert (owners == 1).all()
    # the noise floor's records: the same unit as their pairs
    records = ws.query("select distinct f.record_id, f.unit_key, u.unit_key as paired_metrics_unit_key "
                       "from intermediate.int_self_flip_records f join intermediate.int_pairs_unioned u "
                       "on u.dataset = f.dataset and u.model = f.model and u.setting = f.setting "
                       "and u.pair_id = f.record_id")
    assert len(records) > 0 and (records.unit_key == records.paired_metrics_unit_key).all()
    # the sex gap's records too, and a patient's records share one unit
    gap = ws.query("select distinct g.record_id, g.patient_id, g.unit_key, g.unit_is_pair, "
                   "u.unit_key as paired_metrics_unit_key from intermediate.int_sex_gap_records g "
                   "join intermediate.int_pairs_unioned u on u.dataset = g.dataset and u.model = g.model "
                   "and u.setting = g.setting and u.pair_id = g.record_id")
    assert len(gap) > 0 and (gap.unit_key == gap.paired_metrics_unit_key).all()
    assert (gap.unit_is_pair == gap.patient_id.isna()).all()
    patients = gap.dropna(subset=["patient_id"]).groupby("patient_id")
    assert (patients.record_id.nunique() > 1).any() and (patients.unit_key.nunique() == 1).all()


def test_noise_floor_against_pandas(pipeline) -> None:
    ws, *_ = pipeline
    repeats = ws.query("select * from inference.prediction_repeats where model = 'lora-a'")
    originals = ws.query("select distinct input_id from audit.model_inputs where split = 'test' and variant = 'original'")
    assert sorted(repeats.input_id) == sorted(originals.input_id)
    assert (repeats.batch_size == 9).all()
    first = predictions_with_inputs(ws, "lora-a")
    first = first[first.variant == "original"].merge(repeats, on="input_id", suffixes=("", "_repeat"))
    mart = ws.query("select * from audit.noise_floor where model = 'lora-a'")
    pdr = ws.query("select setting, estimate from audit.paired_metrics where model = 'lora-a' "
                   "and stratum_name = 'overall' and metric = 'pdr'").set_index("setting").estimate
    for setting, group in first.groupby("setting"):
        rows = mart[mart.setting == setting].set_index("metric")
        flips = (group.predicted_level != group.predicted_level_repeat).mean()
        change = (group.expected_level - group.expected_level_repeat).abs().mean()
        assert rows.loc["self_flip_rate"].estimate == pytest.approx(flips)
        assert rows.loc["mean_abs_expected_change"].estimate == pytest.approx(change, abs=1e-12)
        assert rows.loc["self_flip_rate"].n_records == len(group)
        assert rows.loc["self_flip_rate"].pdr == pytest.approx(pdr[setting])
        assert rows.loc["self_flip_rate"].generator == "rules"
    # float32 batching moves probabilities by rounding only
    assert mart[mart.metric == "mean_abs_expected_change"].estimate.max() < 1e-4


def test_multi_seed_training_and_clear_errors(pipeline) -> None:
    from biasmirror.cli import app

    ws, root, base, *_ = pipeline
    runner = CliRunner()
    with ws.active():
        trained = runner.invoke(app, ["train", "--dataset", "mimic", "--base", str(base), "--out", str(root / "seeds"),
                                      "--model", "lora-s", "--seeds", "1,2", "--max-steps", "1", "--batch-size", "2",
                                      "--max-train", "12"])  # a random subset: enough records for two levels
        assert trained.exit_code == 0, trained.output
        missing = runner.invoke(app, ["score", "--dataset", "mimic", "--model", "x", "--base", str(root / "nothing")])
        bad_seeds = runner.invoke(app, ["train", "--dataset", "mimic", "--base", str(base), "--out", str(root / "x"),
                                        "--seeds", "1,one"])
        no_data = runner.invoke(app, ["baselines", "tfidf-rf", "--dataset", "bordeaux", "--tiny"])
    models = ws.query("select model, artifact_path, hyperparameters from inference.triage_models "
                      "where model like 'lora-s-seed%' order by model")
    assert models.model.tolist() == ["lora-s-seed1", "lora-s-seed2"]
    assert [json.loads(h)["seed"] for h in models.hyperparameters] == [1, 2]
    assert all((Path(p) / "adapter_model.safetensors").is_file() for p in models.artifact_path)
    for result, message in ((missing, "not a model folder"), (bad_seeds, "--seeds"), (no_data, "bordeaux")):
        text = " ".join(result.output.split())  # rich wraps long lines
        assert result.exit_code == 1 and "error:" in text and message in text, result.output
        assert "Traceback" not in result.output


# ---- scoring parity, settings, seeds, --limit ------------------------------------------------------------------

def test_label_mass_is_the_full_softmax_share_of_the_label_tokens(pipeline) -> None:
    """The stored label mass equals a plain transformers forward pass: softmax over the whole vocabulary, summed
    over the level tokens."""
    import torch

    from biasmirror.triage.model_loading import load_causal_lm, load_tokenizer
    from biasmirror.triage.prompt import TriagePrompt

    ws, root, base, *_ = pipeline
    stored = ws.query(
        "select p.input_id, p.label_mass, any_value(i.input_text) as input_text from inference.predictions p "
        "join audit.model_inputs i on i.dataset = p.dataset and i.input_id = p.input_id "
        "where p.model = 'lora-a' group by all order by p.input_id limit 5")
    assert stored.label_mass.notna().all() and ((stored.label_mass > 0) & (stored.label_mass <= 1)).all()
    tokenizer = load_tokenizer(base, root / "lora")
    model = load_causal_lm(base, root / "lora", merge=True)
    levels = sorted(json.loads(ws.query("select parameters from inference.runs where model = 'lora-a' "
                                        "and kind = 'predictions'").parameters[0])["levels"])
    prompt = TriagePrompt(tokenizer, levels)
    labels = [prompt.label_token_ids[level] for level in levels]
    with torch.inference_mode():
        for row in stored.itertuples():
            ids = torch.tensor([prompt.prompt_ids([row.input_text])[0]])
            probabilities = torch.softmax(model(input_ids=ids).logits[0, -1].double(), -1)
            assert row.label_mass == pytest.approx(float(probabilities[labels].sum()), abs=1e-5)
    classifiers = ws.query("select count(label_mass) as n from inference.predictions where model = 'rf-cv'")
    assert classifiers.n[0] == 0


def test_scoring_parity_mart_against_pandas(pipeline) -> None:
    ws, *_ = pipeline
    checks = ws.query("select * from inference.scoring_parity_checks")
    assert len(checks) == 6 and set(checks.model) == {"lora-a"}
    run_id = checks.run_id.iloc[0]
    predictions = ws.query("select label_mass from inference.predictions where model = 'lora-a' and run_id = ?",
                           [run_id])
    mart = ws.query("select * from audit.scoring_parity")
    assert set(mart.model) == {"lora-a"}  # classifiers have no label tokens: no row
    row = mart.set_index("run_id").loc[run_id]
    agreeing = int((checks.generated_level == checks.scored_level).sum())
    unparseable = int(checks.generated_level.isna().sum())
    assert (row.n_checked, row.n_agreeing, row.n_unparseable) == (6, agreeing, unparseable)
    assert row.agreement == pytest.approx(agreeing / 6) and row.unparseable_share == pytest.approx(unparseable / 6)
    assert row.n_scored == len(predictions)
    assert row.mean_label_mass == pytest.approx(predictions.label_mass.mean())
    assert row.min_label_mass == pytest.approx(predictions.label_mass.min())
    assert row.low_label_mass_share == pytest.approx((predictions.label_mass < 0.5).mean())
    assert row.sample_mean_label_mass == pytest.approx(checks.label_mass.mean())
    # the Wilson score interval, as statsmodels' proportion_confint(method="wilson") computes it
    from scipy.stats import norm

    z, n, p = norm.ppf(0.975), 6, agreeing / 6
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert row.agreement_ci_low == pytest.approx(centre - half, abs=1e-6)
    assert row.agreement_ci_high == pytest.approx(centre + half, abs=1e-6)
    runs = json.loads(ws.query("select parameters from inference.runs where run_id = ?", [run_id]).parameters[0])
    assert runs["parity"] == {"n": 6, "agreeing": agreeing, "unparseable": unparseable}


def test_check_fails_below_the_parity_threshold(pipeline, tmp_path) -> None:
    from biasmirror.quality.runner import run_checks

    ws, *_ = pipeline
    agreement = ws.query("select agreement from audit.scoring_parity where n_checked > 0").agreement[0]
    with ws.active():
        passing = run_checks(tmp_path / "pass", layers=["audit"], min_parity_agreement=max(0.0, agreement - 0.01))
        failing = run_checks(tmp_path / "fail", layers=["audit"], min_parity_agreement=min(1.0, agreement + 0.01)
                             if agreement < 1 else 1.01)
    assert not passing.failed("scoring_parity")
    assert failing.failed("scoring_parity", "generate-and-parse") and not failing.success


def test_a_model_per_setting_scores_its_own_setting(pipeline) -> None:
    """--setting text_only,tabular_only trains one forest per setting on that setting's train inputs; each scores
    only its setting, and the marts record which model scored which setting."""
    ws, *_ = pipeline
    registry = ws.query("select model, training_setting, scored_settings, seed_group, training_seed "
                        "from inference.triage_models where model like 'rf-iso%' order by model")
    assert registry.model.tolist() == ["rf-iso-tabular_only", "rf-iso-text_only"]
    assert registry.training_setting.tolist() == ["tabular_only", "text_only"]
    assert registry.scored_settings.tolist() == ["tabular_only", "text_only"]
    for model, setting in (("rf-iso-text_only", "text_only"), ("rf-iso-tabular_only", "tabular_only")):
        expected = ws.query("select count(distinct input_id) as n from audit.model_inputs "
                            "where split = 'test' and setting = ?", [setting]).n[0]
        count = ws.query("select count(*) as n from inference.predictions where model = ?", [model]).n[0]
        assert count == expected
        metrics = ws.query("select distinct setting from audit.paired_metrics where model = ?", [model])
        assert metrics.setting.tolist() == [setting]
        # trained on the setting's own train inputs: the forest refitted on them gives the stored probabilities
        train = ws.query("select input_text, documented_level from audit.model_inputs where split = 'train' "
                         "and variant = 'original' and setting = ? order by record_id", [setting])
        refit = forest().fit(train.input_text.tolist(), train.documented_level.astype(int).tolist())
        stored = predictions_with_inputs(ws, model)
        stored = stored[stored.setting == setting].drop_duplicates("input_id")
        columns = [f"p_level_{level}" for level in refit.levels]
        np.testing.assert_allclose(stored[columns].to_numpy(), refit.score(stored.input_text.tolist()))
    mart = ws.query("select * from audit.model_settings").set_index(["model", "setting"])
    assert bool(mart.loc[("rf-iso-text_only", "text_only")].in_training_distribution)
    assert mart.loc[("rf-iso-text_only", "text_only")].reading == "trained on this setting"
    assert not bool(mart.loc[("rf-cv", "tabular_only")].in_training_distribution)
    assert mart.loc[("rf-cv", "tabular_only")].reading.startswith("full-input model probed")
    n_test = ws.query("select count(*) as n from audit.triage_cohort where split = 'test'").n[0]
    assert mart.loc[("rf-cv", "full")].n_originals == n_test
    assert ("rf-iso-text_only", "full") not in mart.index


def test_seed_summary_against_numpy(pipeline) -> None:
    ws, *_ = pipeline
    registry = ws.query("select model, seed_group, training_seed from inference.triage_models "
                        "where seed_group = 'rf-seeds' order by training_seed")
    assert registry.model.tolist() == ["rf-seeds-seed1", "rf-seeds-seed2", "rf-seeds-seed3"]
    assert registry.training_seed.tolist() == [1, 2, 3]
    summary = ws.query("select * from audit.training_seed_summary where seed_group = 'rf-seeds'")
    paired = ws.query("select * from audit.paired_metrics where model like 'rf-seeds-seed%'")
    performance = ws.query("select * from audit.model_performance where model like 'rf-seeds-seed%'")
    checked = 0
    for source, frame, keys in (("paired_metrics", paired, ["setting", "generator", "stratum_name", "stratum_value", "metric"]),
                                ("model_performance", performance, ["setting", "metric"])):
        for key, group in frame.groupby(keys, dropna=False):
            values = group.estimate.dropna().to_numpy(float)
            query = summary[summary.metric_source == source]
            for column, value in zip(keys, key):
                query = query[query[column] == value]
            (row,) = query.itertuples()
            assert (row.n_models, row.n_defined) == (len(group), len(values))
            if len(values) == 0:
                continue
            assert row.mean_estimate == pytest.approx(values.mean(), abs=1e-12)
            assert row.min_estimate == pytest.approx(values.min()) and row.max_estimate == pytest.approx(values.max())
            assert row.range_estimate == pytest.approx(np.ptp(values), abs=1e-12)
            if len(values) > 1:
                assert row.sd_estimate == pytest.approx(values.std(ddof=1), abs=1e-12)
            checked += 1
    assert checked > 50 and summary.sd_estimate.max() > 0  # the seeds give different forests


def test_score_limit_scores_whole_records_first(pipeline) -> None:
    from biasmirror.cli import app

    ws, root, base, *_ = pipeline
    runner = CliRunner()
    with ws.active():
        first = runner.invoke(app, ["score", "--dataset", "mimic", "--model", "lora-limited", "--base", str(base),
                                    "--adapter", str(root / "lora"), "--limit", "10", "--parity-sample", "0",
                                    "--no-rescore", "--setting", "full"])
        assert first.exit_code == 0, first.output
        scored = ws.query("select i.record_id, i.variant from inference.predictions p join audit.model_inputs i "
                          "on i.dataset = p.dataset and i.input_id = p.input_id and i.split = 'test' "
                          "and i.setting = 'full' where p.model = 'lora-limited'")
        second = runner.invoke(app, ["score", "--dataset", "mimic", "--model", "lora-limited", "--base", str(base),
                                     "--adapter", str(root / "lora"), "--limit", "5", "--parity-sample", "0",
                                     "--no-rescore", "--setting", "full"])
        assert second.exit_code == 0, second.output
    assert len(scored.drop_duplicates()) == 10 and "Scored 10 new inputs" in " ".join(first.output.split())
    # the first records in record order, each with its original and copies (the last one may be cut)
    records = ws.query("select distinct record_id from audit.model_inputs where split = 'test' and setting = 'full' "
                       "order by record_id").record_id.tolist()
    assert sorted(set(scored.record_id)) == records[:len(set(scored.record_id))]
    total = ws.query("select count(*) as n from inference.predictions where model = 'lora-limited'").n[0]
    assert total == 15


def test_ctrl_c_during_score_says_what_was_kept(pipeline) -> None:
    """A real `biasmirror score` process, interrupted (SIGINT, what Ctrl-C sends) once its progress bar shows that
    two chunks were scored: it exits 130, names the run it marked interrupted and how many predictions it kept,
    and the warehouse holds exactly those (whole chunks); rerunning the command scores exactly the rest."""
    import os
    import pty
    import re
    import select
    import signal
    import subprocess
    import sys
    import time

    from biasmirror.cli import app

    ws, root, base, *_ = pipeline
    command = ["score", "--dataset", "mimic", "--model", "lora-interrupted", "--base", str(base), "--adapter",
               str(root / "lora"), "--batch-size", "2", "--chunk-size", "8", "--parity-sample", "0", "--no-rescore"]
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(ws.warehouse), "COLUMNS": "200", "OMP_NUM_THREADS": "1"}
    primary, secondary = pty.openpty()  # a terminal, so the progress bar is drawn live
    process = subprocess.Popen([sys.executable, "-m", "biasmirror.cli", *command], stdin=subprocess.DEVNULL,
                               stdout=secondary, stderr=secondary, env=env, cwd=ws.root)
    os.close(secondary)
    output = b""
    progress = re.compile(r"scoring \(lora-interrupted\)\D*?(\d+)/(\d+)")
    deadline = time.monotonic() + 240
    interrupted = False
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # the process closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
            plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.decode("utf-8", "replace"))
            counts = [int(done) for done, _ in progress.findall(plain)]
            if not interrupted and counts and max(counts) >= 18:
                process.send_signal(signal.SIGINT)
                interrupted = True
            if process.poll() is not None:
                break
        code = process.wait(timeout=60)
        while True:  # what is left in the terminal
            ready, _, _ = select.select([primary], [], [], 0.2)
            if not ready:
                break
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    finally:
        if process.poll() is None:
            process.kill()
        os.close(primary)
    text = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.decode("utf-8", "replace")).split())
    assert interrupted, text[-2000:]
    assert code == 130, text[-2000:]
    run = ws.query("select run_id, status, n_items, error from inference.runs where model = 'lora-interrupted'")
    assert run.status.tolist() == ["interrupted"] and run.error[0] == "Ctrl-C or SIGTERM"
    kept = ws.query("select count(*) as n from inference.predictions where model = 'lora-interrupted'").n[0]
    assert kept == run.n_items[0] and kept > 0 and kept % 8 == 0  # whole chunks only
    assert "interrupted." in text and f"run {run.run_id[0]} (predictions) is marked interrupted" in text
    assert f"{kept:,} item(s) written in committed batches are kept" in text
    assert "Traceback" not in text
    total = ws.query("select count(distinct input_id) as n from audit.model_inputs where split = 'test'").n[0]
    with ws.active():  # the same command (larger batches only go faster; they do not change what is pending)
        resumed = CliRunner().invoke(app, [*command, "--batch-size", "16", "--chunk-size", "256"])
    assert resumed.exit_code == 0, resumed.output
    assert f"Scored {total - kept:,} new inputs" in " ".join(resumed.output.split())
