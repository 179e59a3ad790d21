"""Counterfactual generation on a small synthetic cohort: rules and placebo copies, the LLM rewriter through a
local OpenAI-compatible server (retry, refusal, response cache), resume after the process is killed mid-run,
the run manifest, and audit.counterfactual_quality against independent computations and planted faults."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics.pairwise import cosine_similarity

from biasmirror.counterfactuals.base import OTHER_SEX, PLACEBO_SUFFIX
from biasmirror.counterfactuals.checks import wrong_sex_terms
from biasmirror.counterfactuals.diagnostics import joined_text as joined
from biasmirror.counterfactuals.generate import LlmSpec, generate_counterfactuals, llm_generator_name
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.counterfactuals.llm_rewriter import CANNOT_SWAP_REASON
from biasmirror.paths import project_dir
from biasmirror.synth.mimic import write_mimic
from warehouse_workspace import Workspace
from local_openai_server import LocalChatServer, completion, is_retry, last_record, rule_swap_answer, rule_swap_is_valid

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

QUALITY_MODELS = ["stg_inference__counterfactuals", "stg_inference__counterfactual_checks",
                  "stg_inference__counterfactual_similarity", "int_counterfactual_diagnostics", "counterfactual_quality",
                  "model_inputs"]


def build(workspace: Workspace, select: list[str], variables: dict | None = None) -> None:
    from biasmirror.dbt_runner import run_dbt

    with workspace.active():
        run_dbt("build", select=select, variables=variables, extra=["--indirect-selection", "cautious"])


@pytest.fixture(scope="module")
def cohort(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("mimic")
    write_mimic(root, stays=150, seed=11)
    build(module_workspace, ["+triage_cohort"], {"mimic_root": str(root)})
    with module_workspace.active():
        rules = generate_counterfactuals("mimic", "rules")
        placebo = generate_counterfactuals("mimic", "rules", placebo=True)
    assert rules.written == placebo.written > 40
    return module_workspace


def test_names() -> None:
    assert llm_generator_name("/models/Mistral-Small-24B-Instruct/") == "llm-mistral-small-24b-instruct"
    assert llm_generator_name("gpt 4o") == "llm-gpt-4o"


def test_rules_and_placebo_copies(cohort: Workspace) -> None:
    test = cohort.query("select record_id, sex, hpi, pmh from audit.triage_cohort where split = 'test'")
    copies = cohort.query("select * from inference.counterfactuals where generator in ('rules', 'rules-placebo')")
    for _generator, group in copies.groupby("generator"):
        assert sorted(group.record_id) == sorted(test.record_id)
    merged = copies.merge(test, on="record_id", suffixes=("", "_original"))
    swap = merged[merged.generator == "rules"]
    placebo = merged[merged.generator == "rules-placebo"]
    assert (swap.counterfactual_sex == swap.original_sex.map(OTHER_SEX)).all()
    assert (placebo.counterfactual_sex == placebo.original_sex).all() and (placebo.sex == placebo.original_sex).all()
    ok = swap[swap.status == "ok"]
    assert all(h == swap_sex(o, c).text for h, o, c in zip(ok.hpi, ok.hpi_original, ok.counterfactual_sex))
    # the placebo copy is the swap swapped back, exactly; mostly the original itself (a round trip differs on about
    # a fifth of the demo's varied notes: benchmarks/README.md, the demo's notes against their exact copy)
    back = [swap_sex(swap_sex(o, OTHER_SEX[s]).text, s).text if isinstance(o, str) else o
            for o, s in zip(placebo.hpi_original, placebo.original_sex)]
    assert [h for h in placebo.hpi] == back
    assert (placebo.hpi == placebo.hpi_original).mean() > 0.5
    # every copy with a text is checked, flagged ones included (diagnostics.write_checks)
    checks = cohort.query("select generator, count(*) as n from inference.counterfactual_checks group by generator")
    with_text = {name: int((group.hpi.notna() | group.pmh.notna()).sum()) for name, group in (("rules", swap),
                                                                                             ("rules-placebo", placebo))}
    assert dict(zip(checks.generator, checks.n)) == with_text and with_text["rules"] == len(swap)
    runs = cohort.query("select * from inference.runs where kind = 'counterfactuals' and generator = 'rules'")
    parameters = json.loads(runs.parameters[0])
    assert runs.status[0] == "finished" and parameters["counts"]["written"] == len(test)
    assert parameters["backend"] == "rules" and parameters["placebo"] is False


def _planted_model(body, n):
    """A model that answers correctly, except: a first answer that is not JSON for records mentioning 'fever'
    (repaired by the retry), and a refusal for records whose HPI mentions 'pain' and 'nausea'."""
    target, record = last_record(body)
    hpi = (record["hpi"] or "").lower()
    if "pain" in hpi and "nausea" in hpi:
        return 200, completion('{"cannot_swap": "test refusal"}'), 0.0
    if "fever" in hpi and not is_retry(body):
        return 200, completion("Here is the rewritten record."), 0.0
    return 200, completion(rule_swap_answer(body)), 0.0


def test_llm_rewriter_through_a_local_server_with_cache_and_manifest(cohort: Workspace) -> None:
    with LocalChatServer(_planted_model) as server, cohort.active():
        spec = LlmSpec("openai", "stub-model", options={"base_url": server.url, "api_key": "s3cret"}, k_shots=2,
                       name="llm-served")
        first = generate_counterfactuals("mimic", "llm", batch_size=8, llm=spec, allow_remote=True)
        sent = len(server.bodies)
        again = generate_counterfactuals("mimic", "llm", llm=spec)
        assert again.written == 0 and len(server.bodies) == sent  # nothing pending: nothing sent
        from biasmirror.warehouse import connect
        with connect() as con:
            con.execute("delete from inference.counterfactuals where generator = 'llm-served'")
        replay = generate_counterfactuals("mimic", "llm", batch_size=8, llm=spec)
        assert len(server.bodies) == sent  # every answer came from inference.llm_responses
    test = cohort.query("select record_id, sex, hpi, pmh from audit.triage_cohort where split = 'test'")
    copies = cohort.query("select * from inference.counterfactuals where generator = 'llm-served'").merge(
        test, on="record_id", suffixes=("", "_original"))
    low = copies.hpi_original.fillna("").str.lower()
    refused = low.str.contains("pain") & low.str.contains("nausea")
    valid = pd.Series([rule_swap_is_valid(h, p, x) for h, p, x in zip(copies.hpi_original, copies.pmh_original,
                                                                        copies.sex)], index=copies.index)
    invalid = ~refused & ~valid
    retried = (low.str.contains("fever") & ~refused) | invalid
    assert refused.any() and retried.any() and (~refused & valid).any()
    assert (copies[refused].status == "flagged").all()
    assert (copies[refused].flag_reason == CANNOT_SWAP_REASON).all()  # never the model's own words
    assert (copies[~refused & valid].status == "ok").all() and (copies[invalid].status == "flagged").all()
    ok = copies[~refused & valid]
    assert all(h == swap_sex(o, c).text for h, o, c in zip(ok.hpi, ok.hpi_original, ok.counterfactual_sex))
    assert first.written == replay.written == len(test) and first.flagged == int((refused | invalid).sum())
    assert sent == len(test) + int(retried.sum())
    run = cohort.query("select * from inference.runs where run_id = ?", [first.run_id])
    parameters = json.loads(run.parameters[0])
    assert parameters["backend"] == "openai" and parameters["model"] == "stub-model"
    assert parameters["backend_options"] == {"api_key": "***", "base_url": server.url}
    assert parameters["allow_remote"] is True and parameters["patient_data_guard"]["backend_is_local"] is True
    assert len(parameters["prompt_template_sha256"]) == 64 and parameters["k_shots"] == 2
    assert parameters["counts"]["retries"] == int(retried.sum())
    assert parameters["counts"]["flagged_cannot_swap"] == int(refused.sum())
    assert "s3cret" not in run.parameters[0]
    stored = cohort.query("select count(*) as n, count(distinct request_key) as k from inference.llm_responses "
                          "where model = 'stub-model'")
    assert stored.n[0] == stored.k[0] == sent


def test_resume_after_the_process_is_killed_mid_run(cohort: Workspace) -> None:
    def slow(body, n):
        return 200, completion(rule_swap_answer(body)), 0.15

    test = cohort.query("select record_id, sex, hpi, pmh from audit.triage_cohort where split = 'test'")
    n_invalid = sum(not rule_swap_is_valid(h, p, x) for h, p, x in zip(test.hpi, test.pmh, test.sex))
    with LocalChatServer(slow) as server:
        env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(cohort.warehouse), "BIASMIRROR_PROJECT_DIR": str(project_dir())}
        command = [sys.executable, "-m", "biasmirror.cli", "counterfactuals", "--generator", "llm", "--backend",
                   "openai", "--model", "killed-model", "--option", f"base_url={server.url}", "--k-shots", "1",
                   "--batch-size", "3"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while server.answered < 8 and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert process.poll() is None, "the run ended before it could be killed"
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        killed_at = len(server.bodies)
        partial = cohort.query("select count(*) as n from inference.counterfactuals where generator = 'llm-killed-model'").n[0]
        assert 0 < partial < len(test)
        with cohort.active():
            resumed = generate_counterfactuals("mimic", "llm", batch_size=3, llm=LlmSpec(
                "openai", "killed-model", options={"base_url": server.url}, k_shots=1))
    rows = cohort.query("select record_id, hpi, counterfactual_sex, status from inference.counterfactuals "
                        "where generator = 'llm-killed-model'").merge(test, on="record_id", suffixes=("", "_original"))
    assert len(rows) == rows.record_id.nunique() == len(test)  # nothing lost, nothing duplicated
    assert resumed.skipped_existing == partial and resumed.written == len(test) - partial
    valid = [rule_swap_is_valid(h, p, x) for h, p, x in zip(rows.hpi_original, rows.pmh, rows.sex)]
    assert list(rows.status == "ok") == valid
    ok = rows[valid]
    assert all(h == swap_sex(o, c).text for h, o, c in zip(ok.hpi, ok.hpi_original, ok.counterfactual_sex))
    # answers stored before the kill were not asked again: only the batch in flight can be sent twice
    repeats = Counter(json.dumps(b, sort_keys=True) for b in server.bodies)
    assert sum(n - 1 for n in repeats.values()) <= 3
    assert len(server.bodies) - killed_at <= len(test) - partial + 3 + n_invalid  # + a retry per invalid answer
    runs = cohort.query("select status, finished_at, error from inference.runs where generator = 'llm-killed-model' "
                        "order by started_at")
    # the killed run could record nothing; the resumed run's start found its process gone
    assert list(runs.status) == ["interrupted", "finished"] and pd.isna(runs.finished_at[0])
    assert "killed" in runs.error[0]


def _plant(cohort: Workspace, n: int = 10) -> pd.DataFrame:
    """Copies of n test records as a generator 'planted' would write them: the rule swap, with planted faults."""
    from biasmirror.warehouse import connect
    from biasmirror.warehouse.writes import append_rows, utc_now

    test = cohort.query("select dataset, record_id, sex, hpi, pmh from audit.triage_cohort where split = 'test' "
                        "and hpi is not null order by record_id limit ?", [n + 1])
    rows = []
    for i, r in enumerate(test.itertuples(index=False)):
        if i == n:  # the last record: a flagged copy
            rows.append({**rows[-1], "record_id": r.record_id, "original_sex": r.sex, "counterfactual_sex": OTHER_SEX[r.sex],
                         "status": "flagged", "hpi": None, "pmh": None, "flag_reason": "test"})
            break
        target = OTHER_SEX[r.sex]
        hpi = swap_sex(r.hpi, target).text
        pmh = swap_sex(r.pmh, target).text
        if i < 3:
            hpi += " Took 5 mg."  # a number (with unit) added
        elif i < 5:
            hpi += " No chills."  # a negation added
        elif i == 5:
            hpi += " Took aspirin."  # a drug added
        elif i == 6:
            hpi += " Ms. ___ agrees." if r.sex == "F" else " Mr. ___ agrees."  # a word of the original sex
        rows.append({"dataset": r.dataset, "record_id": r.record_id, "generator": "planted", "original_sex": r.sex,
                     "counterfactual_sex": target, "hpi": hpi, "pmh": pmh, "status": "ok", "flag_reason": None,
                     "n_replacements": 0, "run_id": "planted", "created_at": utc_now()})
    with cohort.active(), connect() as con:
        con.begin()
        append_rows(con, "counterfactuals", pd.DataFrame(rows))
        con.commit()
        from biasmirror.counterfactuals.diagnostics import write_checks, write_similarity
        assert write_checks(con, "mimic", "planted", "planted") == n
        write_similarity(con, "mimic", "planted", "planted", embedder=_embedder())
    return test


_EMBEDDER = []


def _embedder():
    from biasmirror.counterfactuals.diagnostics import SentenceEmbedder

    if not _EMBEDDER:
        _EMBEDDER.append(SentenceEmbedder())
    return _EMBEDDER[0]


def test_quality_mart_against_independent_computations(cohort: Workspace) -> None:
    _plant(cohort)
    build(cohort, QUALITY_MODELS)
    quality = cohort.query("select * from audit.counterfactual_quality").set_index("generator")
    # planted faults: 3 numbers, 2 negations, 1 drug, 1 wrong-sex word over 10 checked copies; 1 flagged copy
    p = quality.loc["planted"]
    assert (p.n_copies, p.n_ok, p.n_flagged, p.n_checked) == (11, 10, 1, 10)
    assert p.flagged_share == pytest.approx(1 / 11)
    assert (p.numbers_preserved_share, p.negations_preserved_share, p.drugs_preserved_share) == (0.7, 0.8, 0.9)
    assert p.content_preserved_share == pytest.approx(0.4) and p.residual_share == pytest.approx(0.1)
    assert not p.is_placebo and quality.loc["rules-placebo"].is_placebo

    # every generator, recomputed with pandas from the raw tables
    copies = cohort.query("select * from inference.counterfactuals").merge(
        cohort.query("select dataset, record_id, language, hpi as o_hpi, pmh as o_pmh from audit.triage_cohort"),
        on=["dataset", "record_id"], how="left")
    for generator, group in copies.groupby("generator"):
        row = quality.loc[generator]
        ok = group[group.status == "ok"]
        ratio = (ok.hpi.fillna("").str.len() + ok.pmh.fillna("").str.len()) / (
            ok.o_hpi.fillna("").str.len() + ok.o_pmh.fillna("").str.len())
        assert row.n_copies == len(group) and row.n_flagged == int((group.status == "flagged").sum())
        assert row.mean_length_ratio == pytest.approx(ratio.mean())
        assert row.min_length_ratio == pytest.approx(ratio.min()) and row.max_length_ratio == pytest.approx(ratio.max())
        # the stored count leaves out partner nouns (a partner's sex never flags a copy) and the words the copy
        # keeps from its original that are not the patient's (checks.residual_words_many)
        placebo = generator.endswith(PLACEBO_SUFFIX)
        wrong = [wrong_sex_terms(joined(h, m), sex, language, original=joined(oh, om), placebo=placebo)
                 for h, m, oh, om, sex, language in zip(ok.hpi, ok.pmh, ok.o_hpi, ok.o_pmh, ok.counterfactual_sex,
                                                        ok.language)]
        assert row.residual_share == pytest.approx(np.mean([w > 0 for w in wrong]))
        assert row.mean_wrong_sex_terms == pytest.approx(np.mean(wrong))
        if generator != "planted":  # rewrites that pass the checks never touch numbers, drugs or negations
            assert row.content_preserved_share == 1.0

    # semantic similarity: the stored cosines against scikit-learn on unnormalised embeddings
    sims = cohort.query("select * from inference.counterfactual_similarity where generator = 'planted'")
    assert len(sims) == 10
    model = _embedder().model
    pl = copies[(copies.generator == "planted") & (copies.status == "ok")].merge(sims, on=["dataset", "record_id"])
    raw_o, raw_c = model.encode(list(pl.o_hpi)), model.encode(list(pl.hpi))
    expected = [cosine_similarity(a[None, :], b[None, :])[0, 0] for a, b in zip(raw_o, raw_c)]
    assert np.allclose(pl.cosine_hpi, expected, atol=1e-5)
    per_record = pl[["cosine_hpi", "cosine_pmh"]].mean(axis=1)
    assert p.mean_cosine_similarity == pytest.approx(per_record.mean(), abs=1e-9)
    assert p.min_cosine_similarity == pytest.approx(per_record.min(), abs=1e-9)
    assert p.n_with_similarity == 10 and 0.5 < p.mean_cosine_similarity <= 1

    # placebo copies enter model_inputs like any generator; in tabular_only they equal the original input
    inputs = cohort.query("select setting, variant, generator, record_id, input_id from audit.model_inputs "
                          "where split = 'test' and (variant = 'original' or generator = 'rules-placebo')")
    tabular = inputs[inputs.setting == "tabular_only"].pivot_table(index="record_id", columns="variant",
                                                                   values="input_id", aggfunc="first")
    # (a flagged placebo copy has no input: it leaves the pairs)
    flagged = set(cohort.query("select record_id from inference.counterfactuals where generator = 'rules-placebo' "
                               "and status <> 'ok'").record_id)
    assert set(tabular.index[tabular["counterfactual"].isna()]) == flagged
    kept = tabular.dropna(subset=["counterfactual"])
    assert len(kept) > 0 and (kept["original"] == kept["counterfactual"]).all()
