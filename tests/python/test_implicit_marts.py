"""The implicit-bias study end to end: simulated respondent with planted bias -> runs -> dbt marts.

Both marts are checked against independent pandas/numpy/scipy computations from the raw inference tables;
the planted values must be recovered with intervals that cover them; runs resume, cache and refuse to mix
designs; the commands fail cleanly on bad input.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats
from typer.testing import CliRunner

from biasmirror.backends.registry import make_backend
from biasmirror.implicit.imports import import_allocations
from biasmirror.implicit.prompts import BUILTIN, load_prompt_set
from biasmirror.implicit.runs import (Decoding, RunConfigurationError, run_allocation, run_associations, run_explicit,
                                     trial_seed)
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

PLANTED = dict(association_bias={"risk": 0.6, "emotions": -0.3, "appearance": 0.0},
               trans_rates={"hiv": 0.75, "gynecology": 0.25, "prostate": 0.35}, symptoms_shrink=0.5,
               explanation_shrink=0.4, position_bias=0.15, refusal_rate=0.03, noise_rate=0.15, seed=11)
CATEGORIES = ["risk", "emotions", "appearance"]
ITERATIONS = 60
N_BOOT = 2000
BIG_PAIRS, BIG_RATE = 1000, 0.6
GROUP = ["model", "prompt_set", "language", "discipline", "explanation", "symptoms"]


@pytest.fixture(scope="module")
def study(module_workspace: Workspace):
    ws = module_workspace
    runs = {}
    with ws.active():
        backend = make_backend("simulated", "planted", **PLANTED)
        runs["associations"] = run_associations(backend, categories=CATEGORIES, iterations=ITERATIONS)
        runs["allocation"] = run_allocation(backend, languages=["en"], disciplines=["hiv", "gynecology"])
        runs["allocation_es"] = run_allocation(backend, languages=["es"], disciplines=["prostate"], explanations=[False],
                                               symptom_conditions=[False])
        runs["explicit"] = run_explicit(backend)
        rng = np.random.default_rng(3)
        big = pd.DataFrame([{"model": "big", "language": "en", "discipline": "sti", "explanation": "false",
                             "symptoms": "false", "pair_id": f"b{pair}", "order": order,
                             "chosen": "transgender" if rng.random() < BIG_RATE else "cisgender"}
                            for pair in range(BIG_PAIRS) for order in (1, 2)])
        big.loc[::97, "chosen"] = ""  # some refusals
        big.to_csv(ws.root / "big.csv", index=False)
        import_allocations(ws.root / "big.csv", own_stimuli=True)  # 1,000 pairs: more than the study's 100
    ws.build(select=["tag:implicit"])
    return ws, runs, backend


def reference_bias(words: pd.DataFrame) -> float:
    def count(valence: str, group: str) -> int:
        return ((words.valence == valence) & (words.assigned_group == group)).sum()

    pt, nt = count("positive", "transgender"), count("negative", "transgender")
    pc, nc = count("positive", "cisgender"), count("negative", "cisgender")
    return nt / (pt + nt) + pc / (nc + pc) - 1


def test_runs_wrote_every_planned_answer_and_recorded_their_parameters(study) -> None:
    ws, runs, _ = study
    assert runs["associations"].written == runs["associations"].planned == 2 * len(CATEGORIES) * ITERATIONS
    assert runs["allocation"].written == 2 * 2 * 2 * 2 * 100 * 2 // 2  # 2 disciplines x 2 x 2 conditions x 100 pairs x 2 orders
    assert runs["explicit"].written == 4
    recorded = ws.query("select kind, parameters, status, n_items from inference.runs where kind like 'implicit%'")
    assert set(recorded.status) == {"finished"}
    parameters = json.loads(recorded[recorded.kind == "implicit_associations"].parameters.iloc[0])
    assert parameters["simulation"] is True and parameters["temperature"] == 0.0 and parameters["seed"] == 0
    assert parameters["prompt_set"] == "biasmirror-v1" and parameters["iterations"] == ITERATIONS
    stored = ws.query("select distinct temperature, seed from inference.implicit_allocation_responses where model = 'planted'")
    assert stored.values.tolist() == [[0.0, 0]]


def test_word_association_bias_matches_a_pandas_computation(study) -> None:
    ws, _, _ = study
    mart = ws.query("select * from audit.word_association_bias").set_index(["model", "language", "category"])
    words = ws.query("select * from inference.implicit_association_assignments")
    responses = ws.query("select * from inference.implicit_association_responses")
    assert len(mart) == 2 * len(CATEGORIES)
    for (model, language, category), cell in words.groupby(["model", "language", "category"]):
        row = mart.loc[(model, language, category)]
        assert row.bias == pytest.approx(reference_bias(cell), abs=1e-12)
        answers = responses[(responses.model == model) & (responses.language == language) & (responses.category == category)]
        assert row.n_responses == len(answers) == ITERATIONS
        for status, column in (("refused", "n_refused"), ("unparsed", "n_unparsed"), ("partial", "n_partial")):
            assert row[column] == (answers.parse_status == status).sum()
        assert row.n_negative_transgender == ((cell.valence == "negative") & (cell.assigned_group == "transgender")).sum()
        assert row.n_boot == N_BOOT
    assert (responses.parse_status != "ok").sum() > 0  # the sloppy and refusing answers were exercised


def test_word_association_interval_matches_a_numpy_bootstrap_of_answers(study) -> None:
    ws, _, _ = study
    words = ws.query("select * from inference.implicit_association_assignments")
    replicates = ws.query("select * from intermediate.int_implicit_association_replicates where replicate >= 0")
    mart = ws.query("select * from audit.word_association_bias").set_index(["language", "category"])
    rng = np.random.default_rng(0)
    for (language, category), cell in words.groupby(["language", "category"]):
        per_answer = cell.assign(
            pt=(cell.valence == "positive") & (cell.assigned_group == "transgender"),
            nt=(cell.valence == "negative") & (cell.assigned_group == "transgender"),
            pc=(cell.valence == "positive") & (cell.assigned_group == "cisgender"),
            nc=(cell.valence == "negative") & (cell.assigned_group == "cisgender"),
        ).groupby("iteration")[["pt", "nt", "pc", "nc"]].sum().reindex(range(ITERATIONS), fill_value=0).to_numpy(float)
        draws = rng.integers(0, ITERATIONS, (N_BOOT, ITERATIONS))
        sums = per_answer[draws].sum(axis=1)
        boot = sums[:, 1] / (sums[:, 0] + sums[:, 1]) + sums[:, 2] / (sums[:, 3] + sums[:, 2]) - 1
        sql = replicates[(replicates.language == language) & (replicates.category == category)].bias
        assert sql.std() == pytest.approx(boot.std(), rel=0.12), (language, category)
        low, high = np.quantile(boot, [0.025, 0.975])
        row = mart.loc[(language, category)]
        assert row.ci_low == pytest.approx(low, abs=0.35 * boot.std()) and row.ci_high == pytest.approx(high, abs=0.35 * boot.std())


def test_allocation_selection_rates_match_a_pandas_computation(study) -> None:
    ws, _, _ = study
    mart = ws.query("select * from audit.allocation_selection_rates").set_index(GROUP)
    answers = ws.query("select * from inference.implicit_allocation_responses")
    assert len(mart) == 2 * 4 + 1 + 1
    for key, cell in answers.groupby(GROUP):
        row = mart.loc[key]
        valid = cell[cell.chosen_group.notna()]
        trans = valid.chosen_group == "transgender"
        trans_first = valid.presentation_order == 2
        assert row.trans_rate == pytest.approx(trans.mean(), abs=1e-12)
        assert row.cis_rate == pytest.approx(1 - trans.mean(), abs=1e-12)
        assert (row.n_valid, row.n_transgender, row.n_answers) == (len(valid), trans.sum(), len(cell))
        assert row.n_refused == (cell.parse_status == "refused").sum()
        assert row.n_unparsed == (cell.parse_status == "unparsed").sum()
        assert row.trans_rate_trans_first == pytest.approx(trans[trans_first].mean(), abs=1e-12)
        assert row.trans_rate_cis_first == pytest.approx(trans[~trans_first].mean(), abs=1e-12)
        assert row.order_effect == pytest.approx(trans[trans_first].mean() - trans[~trans_first].mean(), abs=1e-12)
        assert row.first_position_rate == pytest.approx((trans == trans_first).mean(), abs=1e-12)
        assert row.n_pairs == cell.pair_id.nunique()
        assert row.p_value == pytest.approx(stats.binomtest(int(trans.sum()), len(valid), 0.5).pvalue, abs=1e-12)
    assert mart.n_refused.sum() > 0 and (answers.parse_status == "untagged").sum() > 0


def test_allocation_interval_resamples_pairs(study) -> None:
    ws, _, _ = study
    replicates = ws.query("select * from intermediate.int_implicit_allocation_replicates where replicate >= 0")
    answers = ws.query("select * from inference.implicit_allocation_responses")
    mart = ws.query("select * from audit.allocation_selection_rates").set_index(GROUP)
    rng = np.random.default_rng(1)
    for model, discipline in (("big", "sti"), ("planted", "hiv")):
        cell = answers[(answers.model == model) & (answers.discipline == discipline) & ~answers.explanation & ~answers.symptoms]
        per_pair = cell.assign(valid=cell.chosen_group.notna(), trans=cell.chosen_group == "transgender") \
            .groupby("pair_id")[["valid", "trans"]].sum().to_numpy(float)
        draws = rng.integers(0, len(per_pair), (N_BOOT, len(per_pair)))
        sums = per_pair[draws].sum(axis=1)
        boot = sums[:, 1] / sums[:, 0]
        sql = replicates[(replicates.model == model) & (replicates.discipline == discipline)
                         & ~replicates.explanation & ~replicates.symptoms].trans_rate
        assert sql.std() == pytest.approx(boot.std(), rel=0.1), model
        row = mart[(mart.index.get_level_values("model") == model) & (mart.index.get_level_values("discipline") == discipline)].xs(False, level="explanation").xs(False, level="symptoms").iloc[0]
        low, high = np.quantile(boot, [0.025, 0.975])
        assert row.ci_low == pytest.approx(low, abs=0.3 * boot.std()) and row.ci_high == pytest.approx(high, abs=0.3 * boot.std())
    # independent choices: the pair bootstrap's standard error is the binomial one
    big = replicates[replicates.model == "big"].trans_rate
    n_valid = mart.xs("big", level="model").n_valid.iloc[0]
    assert big.std() == pytest.approx(np.sqrt(BIG_RATE * (1 - BIG_RATE) / n_valid), rel=0.1)


def test_the_planted_bias_is_recovered_with_intervals_that_cover_it(study) -> None:
    ws, _, backend = study
    covered, cells = 0, 0
    bias = ws.query("select * from audit.word_association_bias where model = 'planted'")
    for row in bias.itertuples():
        planted = backend.expected_association_bias(row.category)
        assert abs(row.bias - planted) < 4 * (row.ci_high - row.ci_low) / 3.92, row
        covered += row.ci_low <= planted <= row.ci_high
        cells += 1
    rates = ws.query("select * from audit.allocation_selection_rates where model = 'planted'")
    for row in rates.itertuples():
        planted = backend.expected_trans_rate(row.discipline, row.symptoms, row.explanation)
        assert abs(row.trans_rate - planted) < 4 * np.sqrt(planted * (1 - planted) / row.n_valid), row
        covered += row.ci_low <= planted <= row.ci_high
        cells += 1
        # the planted position bias (+0.15 when listed first, -0.15 when listed second) shows as the order effect
        assert row.order_effect_ci_low <= 2 * PLANTED["position_bias"] <= row.order_effect_ci_high or \
            abs(row.order_effect - 0.3) < 0.2, row
        assert row.order_effect_ci_low > 0, row
    assert cells == 6 + 9
    assert covered >= 13  # 95% intervals: at most two misses of 15 (binomial probability of more: < 4%)
    assert np.mean(rates.order_effect) == pytest.approx(2 * PLANTED["position_bias"], abs=0.06)
    # the stereotyped directions: risk positive, emotions negative; HIV toward trans, gynecology toward cis
    assert (bias[bias.category == "risk"].ci_low > 0).all() and (bias[bias.category == "emotions"].ci_high < 0).all()
    plain = rates[~rates.explanation & ~rates.symptoms].set_index("discipline")
    assert plain.loc["hiv"].p_value < 0.001 and plain.loc["hiv"].ci_low > 0.5
    assert plain.loc["gynecology"].p_value < 0.001 and plain.loc["gynecology"].ci_high < 0.5


def test_every_pair_was_shown_in_both_orders_and_personas_are_balanced(study) -> None:
    ws, _, _ = study
    answers = ws.query("select * from inference.implicit_allocation_responses where model = 'planted'")
    orders = answers.groupby(GROUP[2:] + ["pair_id"]).presentation_order.apply(lambda s: sorted(s))
    assert all(o == [1, 2] for o in orders)
    first = answers.apply(lambda r: r.cis_persona_id if r.presentation_order == 1 else r.trans_persona_id, axis=1)
    second = answers.apply(lambda r: r.trans_persona_id if r.presentation_order == 1 else r.cis_persona_id, axis=1)
    assert first.value_counts().sort_index().equals(second.value_counts().sort_index())


def test_explicit_answers_are_a_view_with_their_stance(study) -> None:
    ws, _, _ = study
    view = ws.query("select table_type from information_schema.tables where table_schema = 'audit' and table_name = 'explicit_answers'")
    assert view.table_type.tolist() == ["VIEW"]
    answers = ws.query("select * from audit.explicit_answers order by language, question_id")
    assert answers[["language", "question_id"]].values.tolist() == [["en", "allocation"], ["en", "association"],
                                                                     ["es", "allocation"], ["es", "association"]]
    assert set(answers.stance) == {"no"} and answers.answer.str.startswith("No.").all()


def test_parse_rates_match_a_pandas_computation_with_exact_intervals(study) -> None:
    """audit.implicit_parse_rates against counts of the raw inference tables and scipy's beta quantiles
    (Clopper-Pearson): the simulated respondent's refusals and sloppy formatting give every status."""
    ws, _, _ = study
    mart = ws.query("select * from audit.implicit_parse_rates")
    associations = ws.query("select model, prompt_set, language, source, constrained, parse_status, finish_reason, "
                            "n_words, n_assigned from inference.implicit_association_responses")
    allocations = ws.query("select model, prompt_set, language, explanation, symptoms, source, constrained, "
                           "parse_status, finish_reason from inference.implicit_allocation_responses")
    associations["task"], allocations["task"] = "associations", "allocation"
    associations["parsed"] = associations.parse_status.isin(["ok", "partial"])
    allocations["parsed"] = allocations.parse_status.isin(["ok", "untagged"])
    answers = pd.concat([associations, allocations], ignore_index=True)
    answers["decoding"] = np.where(answers.source == "imported", "unknown",
                                   np.where(answers.constrained.fillna(False).astype(bool), "constrained", "free"))
    keys = ["model", "prompt_set", "language", "task", "explanation", "symptoms", "decoding"]
    reference = answers.groupby(keys, dropna=False).agg(
        n_answers=("parsed", "size"), n_parsed=("parsed", "sum"),
        n_refused=("parse_status", lambda s: (s == "refused").sum()),
        n_unparsed=("parse_status", lambda s: (s == "unparsed").sum()),
        n_words=("n_words", "sum"), n_words_assigned=("n_assigned", "sum")).reset_index()
    assert len(mart) == len(reference)
    assert set(reference.decoding) == {"free", "unknown"} and set(mart.task) == {"associations", "allocation"}
    assert 0 < reference.n_refused.sum()
    assert (reference.n_parsed < reference.n_answers).any()
    merged = reference.merge(mart, on=keys, suffixes=("", "_mart"), how="inner")  # null keys match in pandas merges
    assert len(merged) == len(reference)
    for column in ("n_answers", "n_parsed", "n_refused", "n_unparsed"):
        assert (merged[column] == merged[f"{column}_mart"]).all(), column
    words = merged[merged.task == "associations"]
    assert (words.n_words == words.n_words_mart).all() and (words.n_words_assigned == words.n_words_assigned_mart).all()
    assert merged[merged.task == "allocation"].n_words_mart.isna().all()
    np.testing.assert_allclose(merged.parsed_share, merged.n_parsed / merged.n_answers, atol=1e-12)
    n, k = merged.n_answers.to_numpy(), merged.n_parsed.to_numpy()
    low = np.where(k == 0, 0.0, stats.beta.ppf(0.025, np.maximum(k, 1), n - k + 1))
    high = np.where(k == n, 1.0, stats.beta.ppf(0.975, k + 1, np.maximum(n - k, 1)))
    np.testing.assert_allclose(merged.ci_low, low, atol=1e-8)
    np.testing.assert_allclose(merged.ci_high, high, atol=1e-8)


def test_runs_resume_use_the_cache_and_refuse_to_mix_designs(study, tmp_path) -> None:
    ws, runs, backend = study
    with ws.active():
        again = run_associations(backend, categories=CATEGORIES, iterations=ITERATIONS)
        assert (again.written, again.skipped_existing) == (0, runs["associations"].planned)
        more = run_associations(backend, categories=["risk"], languages=["en"], iterations=ITERATIONS + 5)
        assert (more.written, more.skipped_existing) == (5, ITERATIONS)
        copy = run_allocation(backend, label="planted-copy", languages=["es"], disciplines=["prostate"],
                              explanations=[False], symptom_conditions=[False])
        assert copy.written == copy.cache_hits == 200  # identical prompts: answered from inference.llm_responses
        original = ws.query("select pair_id, presentation_order, response_text from inference.implicit_allocation_responses "
                            "where model = 'planted' and language = 'es' order by 1, 2")
        copied = ws.query("select pair_id, presentation_order, response_text from inference.implicit_allocation_responses "
                          "where model = 'planted-copy' order by 1, 2")
        assert original.equals(copied)
        with pytest.raises(RunConfigurationError, match="--design-seed 20250101"):
            run_associations(backend, categories=["risk"], iterations=2, design_seed=5)
        document = yaml.safe_load(BUILTIN.read_text(encoding="utf-8"))
        document["languages"]["en"]["association_templates"][0]["text"] += " Thanks."
        changed = tmp_path / "changed.yaml"
        changed.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
        with pytest.raises(RunConfigurationError, match="different wording"):
            run_associations(backend, prompt_set=load_prompt_set(changed), categories=["risk"], iterations=2)
        with pytest.raises(RunConfigurationError, match="unknown categor"):
            run_associations(backend, categories=["weather"], iterations=2)
    assert ws.query("select count(*) as n from inference.implicit_association_responses where model = 'planted'").n[0] \
        == runs["associations"].planned + 5


def test_commands_run_and_fail_cleanly(study, tmp_path) -> None:
    ws, _, _ = study
    runner = CliRunner()
    with ws.active():
        ok = runner.invoke(app_(), ["implicit", "associations", "--backend", "simulated", "--model", "cli", "--iterations", "2",
                                    "--category", "risk", "--language", "es", "--option", "association_bias=0.5"])
        allocation = runner.invoke(app_(), ["implicit", "allocation", "--backend", "simulated", "--model", "cli",
                                            "--language", "en", "--discipline", "sti", "--explanation", "--no-symptoms"])
        explicit = runner.invoke(app_(), ["implicit", "explicit", "--backend", "simulated", "--model", "cli", "--language", "en"])
        bad_option = runner.invoke(app_(), ["implicit", "explicit", "--backend", "simulated", "--model", "x", "--option", "refusal_rate=3"])
        bad_backend = runner.invoke(app_(), ["implicit", "explicit", "--backend", "nope", "--model", "x"])
        bad_category = runner.invoke(app_(), ["implicit", "associations", "--backend", "simulated", "--model", "x", "--category", "weather"])
        broken = tmp_path / "broken.yaml"
        broken.write_text("name: x\nlanguages: {en: {groups: {}}}\n", encoding="utf-8")
        bad_prompts = runner.invoke(app_(), ["implicit", "explicit", "--backend", "simulated", "--model", "x", "--prompts", str(broken)])
    assert ok.exit_code == 0, ok.output
    assert "SIMULATION" in ok.output and "2 answers written for cli" in ok.output
    assert allocation.exit_code == 0 and "200 answers written" in allocation.output
    assert explicit.exit_code == 0 and "2 answers written" in explicit.output
    conditions = ws.query("select distinct explanation, symptoms from inference.implicit_allocation_responses where model = 'cli'")
    assert conditions.values.tolist() == [[True, False]]
    for result, message in ((bad_option, "refusal_rate must be between 0 and 1"), (bad_backend, "Unknown backend 'nope'"),
                            (bad_category, "unknown categor(ies) weather"), (bad_prompts, "missing key 'association_templates'")):
        assert result.exit_code == 1 and "error:" in result.output and message in " ".join(result.output.split()), result.output
        assert "Traceback" not in result.output


def app_():
    from biasmirror.cli import app

    return app


def test_allocation_limit_takes_whole_pairs_and_sampling_seeds_each_trial(study) -> None:
    ws, _, _ = study
    with ws.active():
        backend = make_backend("simulated", "limited", **PLANTED)
        first = run_allocation(backend, languages=["en"], disciplines=["sti"], limit=7, decoding=Decoding(0.7, 5))
        second = run_allocation(backend, languages=["en"], disciplines=["sti"], limit=7, decoding=Decoding(0.7, 5))
        with pytest.raises(RunConfigurationError, match="cannot constrain decoding"):
            run_allocation(backend, languages=["en"], disciplines=["sti"], limit=2, decoding=Decoding(constrained=True))
    assert (first.written, first.left_by_limit) == (6, 800 - 6)  # 3 whole pairs: 7 would split the fourth
    assert (second.written, second.skipped_existing, second.left_by_limit) == (6, 6, 800 - 12)
    rows = ws.query("select pair_id, presentation_order, seed, temperature, constrained from "
                    "inference.implicit_allocation_responses where model = 'limited' order by pair_id, presentation_order")
    assert len(rows) == 12 and rows.groupby("pair_id").size().eq(2).all()
    assert rows.seed.nunique() == 12 and (rows.temperature == 0.7).all() and not rows.constrained.any()
    keys = [f"allocation/en/sti/explanation=False/symptoms=False/{p}/order={o}"
            for p, o in zip(rows.pair_id, rows.presentation_order)]
    expected = [trial_seed(5, key) for key in keys]
    assert rows.seed.tolist() == expected
