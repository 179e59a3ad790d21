"""The data-quality gates (`biasmirror check`): every gate passes on a correctly built warehouse and fails,
alone, on data built to break it."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.quality import CheckReport, run_checks
from bordeaux_pipeline import MODEL, Pipeline, build_pipeline
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    return build_pipeline(tmp_path_factory)


def check(ws: Workspace, docs: Path, **kwargs) -> CheckReport:
    with ws.active():
        return run_checks(docs, **kwargs)


def failing_rules(report: CheckReport) -> set[tuple[str, str]]:
    return {(o.suite.removeprefix("biasmirror."), o.rule) for o in report.failures}


def mutate(ws: Workspace, *statements: str) -> None:
    with duckdb.connect(str(ws.warehouse)) as con:
        for statement in statements:
            con.execute(statement)


@pytest.fixture(scope="module")
def good_report(pipeline: Pipeline, tmp_path_factory: pytest.TempPathFactory) -> CheckReport:
    return check(pipeline.workspace, tmp_path_factory.mktemp("docs"),
                 roots={"bordeaux": pipeline.bordeaux_root, "mimic": pipeline.mimic_root})


def test_every_gate_passes_on_a_good_warehouse(good_report: CheckReport) -> None:
    assert good_report.success, [(o.suite, o.rule, o.detail) for o in good_report.failures]
    suites = {o.suite for o in good_report.outcomes}
    for dataset in ("bordeaux", "mimic"):
        assert f"biasmirror.raw.{dataset}.files" in suites
        assert f"biasmirror.cohort.{dataset}.records" in suites
        assert f"biasmirror.cohort.{dataset}.split" in suites
        assert f"biasmirror.inference.{dataset}.counterfactuals" in suites
        assert f"biasmirror.inference.{dataset}.prediction_coverage" in suites
        assert f"biasmirror.inference.{dataset}.predictions.{MODEL}" in suites
    assert "biasmirror.raw.bordeaux.visits.encoding" in suites
    assert "biasmirror.audit.paired_metrics.identities" in suites
    assert not good_report.skipped
    docs = good_report.docs_dir
    assert (docs / "index.html").is_file()
    assert any((docs / "validations").rglob("*.html"))
    summary = json.loads((docs / "summary.json").read_text())
    assert summary["success"] is True and len(summary["outcomes"]) == len(good_report.outcomes)


def test_cohort_gates_fail_on_a_broken_cohort(pipeline: Pipeline, tmp_path: Path) -> None:
    ws = pipeline.copy(tmp_path / "w")
    mutate(ws,
           # a level the Bordeaux exclusions remove
           "update audit.triage_cohort set documented_level = 1 where dataset = 'bordeaux' and record_id = "
           "(select min(record_id) from audit.triage_cohort where dataset = 'bordeaux')",
           # gender-specific content left in the notes, in each language
           "update audit.triage_cohort set hpi = hpi || ' Enceinte de 12 SA.' where dataset = 'bordeaux' and record_id = "
           "(select max(record_id) from audit.triage_cohort where dataset = 'bordeaux')",
           "update audit.triage_cohort set pmh = 'BPH, prostatitis' where dataset = 'mimic' and record_id = "
           "(select min(record_id) from audit.triage_cohort where dataset = 'mimic')",
           # an excluded complaint class
           "update audit.triage_cohort set chief_complaint_class = 'N94.8' where dataset = 'bordeaux' and record_id = "
           "(select max(record_id) from audit.triage_cohort where dataset = 'bordeaux' and hpi not like '%Enceinte de 12%')",
           # temperatures in deg F
           "update audit.triage_cohort set temperature_c = temperature_c * 9 / 5 + 32 where dataset = 'bordeaux'",
           # every mimic woman in the test split
           "update audit.triage_cohort set split = 'test' where dataset = 'mimic' and sex = 'F'")
    report = check(ws, tmp_path / "docs", layers=["cohort"])
    assert failing_rules(report) == {
        ("cohort.bordeaux.records", "bordeaux's documented levels after exclusions are [2, 3, 4, 5]"),
        ("cohort.bordeaux.records", "no text matches an exclusion keyword of its language (seeds exclusion_keywords_<language>)"),
        ("cohort.mimic.records", "no text matches an exclusion keyword of its language (seeds exclusion_keywords_<language>)"),
        ("cohort.bordeaux.records", "no complaint class in an excluded range (seed excluded_complaint_classes)"),
        ("cohort.bordeaux.records", "temperature_c within 30-44 deg C (at least 99.0% of values)"),
        ("cohort.mimic.split", "the test share (overall, per sex, per level) is within 4 binomial standard errors "
                               "of test_fraction = 0.5"),
    }
    keyword = [o for o in report.failures if "keyword" in o.rule and "bordeaux" in o.suite][0]
    assert keyword.detail.startswith("1 of ")
    level = [o for o in report.failures if "documented levels" in o.rule][0]
    assert "1 of" in level.detail and "(e.g. 1)" in level.detail


def test_inference_gates_fail_on_missing_copies_and_predictions(pipeline: Pipeline, tmp_path: Path) -> None:
    ws = pipeline.copy(tmp_path / "w")
    mutate(ws,
           # a Bordeaux test record loses its counterfactual
           "delete from inference.counterfactuals where dataset = 'bordeaux' and record_id = "
           "(select min(record_id) from inference.counterfactuals where dataset = 'bordeaux')",
           # a MIMIC counterfactual that does not swap the sex
           "update inference.counterfactuals set counterfactual_sex = original_sex where dataset = 'mimic' and record_id = "
           "(select min(record_id) from inference.counterfactuals where dataset = 'mimic' and status = 'ok')",
           # a Bordeaux input scored by nobody (the full-setting original of one record)
           "delete from inference.predictions where dataset = 'bordeaux' and input_id = (select min(input_id) from "
           "audit.model_inputs where dataset = 'bordeaux' and split = 'test' and setting = 'full' and variant = 'original')",
           # 10% of MIMIC predictions unparsed
           "update inference.predictions set predicted_level = null where dataset = 'mimic' and "
           "input_id in (select input_id from inference.predictions where dataset = 'mimic' order by input_id "
           "limit (select cast(count(*) * 0.10 as integer) from inference.predictions where dataset = 'mimic'))")
    report = check(ws, tmp_path / "docs", layers=["inference"])
    assert failing_rules(report) == {
        ("inference.bordeaux.counterfactuals", "every test record has a counterfactual from every generator used on the data set"),
        ("inference.mimic.counterfactuals", "the counterfactual shows the other sex (the same for placebo copies)"),
        ("inference.bordeaux.prediction_coverage", "every model scored the original input of every test record in every setting"),
        ("inference.mimic.predictions.planted", "parse rate: at least 95.0% of predictions have a level (predicted_level not null)"),
    }


def test_parse_rate_threshold_is_a_threshold(pipeline: Pipeline, tmp_path: Path) -> None:
    ws = pipeline.copy(tmp_path / "w")
    mutate(ws, "update inference.predictions set predicted_level = null where dataset = 'mimic' and "
               "input_id in (select input_id from inference.predictions where dataset = 'mimic' order by input_id "
               "limit (select cast(count(*) * 0.03 as integer) from inference.predictions where dataset = 'mimic'))")
    assert check(ws, tmp_path / "a", layers=["inference"]).success
    assert not check(ws, tmp_path / "b", layers=["inference"], min_parse_rate=0.99).success


def test_audit_gates_fail_when_an_identity_breaks(pipeline: Pipeline, tmp_path: Path) -> None:
    ws = pipeline.copy(tmp_path / "w")
    where = ("where dataset = 'bordeaux' and model = 'planted' and setting = 'full' and stratum_name = 'overall'")
    mutate(ws,
           f"update audit.paired_metrics set estimate = estimate + 0.01 {where} and metric = 'nats_plus'",
           f"update audit.paired_metrics set estimate = estimate - 0.02 {where} and metric = 'pooled_rate'",
           "update audit.paired_metrics set ci_low = ci_high + 0.5 where dataset = 'mimic' and metric = 'pdr' "
           "and stratum_name = 'overall' and setting = 'text_only'")
    report = check(ws, tmp_path / "docs", layers=["audit"])
    assert failing_rules(report) == {
        ("audit.paired_metrics.identities", "nats_plus = p_up_f_to_m - p_up_m_to_f"),
        ("audit.paired_metrics.identities", "nats_plus - nats_minus = dts_f_to_m - dts_m_to_f"),
        ("audit.paired_metrics.identities", "pooled_rate = (n_m_to_f dts_m_to_f - n_f_to_m dts_f_to_m) / N"),
        ("audit.paired_metrics.intervals", "every confidence interval has ci_low <= ci_high"),
    }
    identity = [o for o in report.failures if o.rule.startswith("nats_plus - nats_minus")][0]
    assert identity.detail.startswith("1 of ")


# --------------------------------------------------------------------------------------------------------------
# Raw files (no warehouse needed when the folders are given)
# --------------------------------------------------------------------------------------------------------------
def _extract(pipeline: Pipeline) -> pd.DataFrame:
    return pd.read_csv(pipeline.bordeaux_root / "visits.csv.gz", dtype=str, keep_default_na=False)


def _raw_failures(folder: Path, docs: Path) -> set[tuple[str, str]]:
    return failing_rules(run_checks(docs, layers=["raw"], roots={"bordeaux": folder}))


def test_raw_gates_pass_on_csv_and_parquet(pipeline: Pipeline, tmp_path: Path) -> None:
    parquet = tmp_path / "parquet"
    parquet.mkdir()
    _extract(pipeline).replace("", None).to_parquet(parquet / "visits.parquet", index=False)
    assert _raw_failures(pipeline.bordeaux_root, tmp_path / "a") == set()
    assert _raw_failures(parquet, tmp_path / "b") == set()


def test_raw_gates_name_the_missing_column_and_the_renamed_file(pipeline: Pipeline, tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    missing.mkdir()
    _extract(pipeline).drop(columns=["nurse_sex"]).to_csv(missing / "visits.csv", index=False)
    report = run_checks(tmp_path / "a", layers=["raw"], roots={"bordeaux": missing})
    assert failing_rules(report) == {
        ("raw.bordeaux.files", "every file has every column the contract declares"),
        ("raw.bordeaux.visits.schema", "visits.csv has the columns of the contract bordeaux.visits"),
    }
    assert "missing column(s): nurse_sex" in report.failed("visits.schema")[0].detail
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    shutil.copy(pipeline.bordeaux_root / "visits.csv.gz", renamed / "urgences_2023.csv.gz")
    report = run_checks(tmp_path / "b", layers=["raw"], roots={"bordeaux": renamed})
    assert failing_rules(report) == {("raw.bordeaux.files", "every file of the source contract is in the data set's folder")}


def test_raw_gates_fail_on_levels_encoding_units_and_types(pipeline: Pipeline, tmp_path: Path) -> None:
    frame = _extract(pipeline)
    frame.loc[3, "triage_level"] = "6"
    frame.loc[4, "arrival_time"] = "12/03/2021 10:00"
    frame["temperature_c"] = [f"{float(t) * 9 / 5 + 32:.1f}" if t else "" for t in frame.temperature_c]
    folder = tmp_path / "broken"
    folder.mkdir()
    text = frame.to_csv(index=False).encode("utf-8")
    lines = text.split(b"\n")
    lines[10] = lines[10].decode("utf-8").encode("cp1252")  # a Windows latin-1 export
    (folder / "visits.csv").write_bytes(b"\n".join(lines))
    report = run_checks(tmp_path / "docs", layers=["raw"], roots={"bordeaux": folder})
    assert failing_rules(report) == {
        ("raw.bordeaux.visits.values", "triage_level is one of 1, 2, 3, 4, 5 (or empty)"),
        ("raw.bordeaux.visits.values", "arrival_time is an ISO 8601 timestamp"),
        ("raw.bordeaux.visits.values", "temperature_c within 30-44 deg C (physiological range in bordeaux's unit; "
                                       "at least 99.0% of values)"),
        ("raw.bordeaux.visits.encoding", "every row of visits.csv reads as UTF-8 CSV (rows listed here cannot be read)"),
    }
    assert "(e.g. '6')" in report.failed("visits.values", "triage_level")[0].detail
    encoding = report.failed("visits.encoding")[0].detail
    assert encoding.startswith("observed 1; first at line 11, column(s) ") and encoding.endswith(": INVALID ENCODING")
    assert "triage_note" in encoding


def test_raw_gates_check_mimic_units(pipeline: Pipeline, tmp_path: Path) -> None:
    folder = tmp_path / "mimic"
    shutil.copytree(pipeline.mimic_root, folder)
    triage = pd.read_csv(folder / "ed" / "triage.csv.gz", dtype=str, keep_default_na=False)
    triage["temperature"] = [f"{(float(t) - 32) * 5 / 9:.1f}" if t else "" for t in triage.temperature]
    with gzip.open(folder / "ed" / "triage.csv.gz", "wt") as handle:
        triage.to_csv(handle, index=False)
    report = run_checks(tmp_path / "docs", layers=["raw"], roots={"mimic": folder})
    assert failing_rules(report) == {
        ("raw.mimic.triage.values", "temperature within 86-111.2 deg F (physiological range in mimic's unit; "
                                    "at least 99.0% of values)")}


# --------------------------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------------------------
def test_check_command_exits_non_zero_on_failure_and_writes_data_docs(pipeline: Pipeline, tmp_path: Path) -> None:
    from biasmirror.cli import app

    runner = CliRunner()
    ws = pipeline.copy(tmp_path / "w")
    with ws.active():
        good = runner.invoke(app, ["check", "--docs", str(tmp_path / "good"), "--layer", "audit"])
    assert good.exit_code == 0, good.output
    assert "all gates passed" in good.output and (tmp_path / "good" / "index.html").is_file()
    mutate(ws, "update audit.paired_metrics set estimate = 2 where metric = 'pdr'")
    with ws.active():
        bad = runner.invoke(app, ["check", "--docs", str(tmp_path / "bad"), "--layer", "audit"])
    assert bad.exit_code == 1
    assert "FAILED" in bad.output and "pdr is a proportion in [0, 1]" in bad.output
    with Workspace(tmp_path / "nothing").active():
        missing = runner.invoke(app, ["check", "--docs", str(tmp_path / "none")])
    assert missing.exit_code == 1 and "No warehouse" in missing.output


# --------------------------------------------------------------------------------------------------------------
# The dbt tests that belong to the models (macros/generic_tests)
# --------------------------------------------------------------------------------------------------------------
def test_model_invariants_fail_in_dbt_on_broken_tables(pipeline: Pipeline, tmp_path: Path, capsys) -> None:
    from biasmirror.dbt_runner import DbtFailed, run_dbt

    ws = pipeline.copy(tmp_path / "w")
    mutate(ws,
           # a flowchart step that no longer adds up
           "update audit.cohort_flow set n_excluded = n_excluded + 1 where dataset = 'bordeaux' and step_order = 8",
           # a MIMIC-only reason on a Bordeaux record
           "update intermediate.int_triage_records_excluded set exclusion_reason = 'level_5' where dataset = 'bordeaux' "
           "and record_id = (select min(record_id) from intermediate.int_triage_records_excluded where dataset = 'bordeaux')",
           # a nurse sex that makes a dyad value outside nurse sex x patient sex (int_pair_strata is a view on it)
           "update audit.triage_cohort set nurse_sex = 'X' where dataset = 'bordeaux' and nurse_sex = 'F' "
           "and sex = 'F'")
    selection = ["test_name:flow_is_conserved", "test_name:exclusion_applies_to_dataset", "nurse_patient_dyad_values"]
    with ws.active(), pytest.raises(DbtFailed):
        run_dbt("test", select=selection, variables=pipeline.variables)
    out = capsys.readouterr().out
    assert "FAIL 1 flow_is_conserved_cohort_flow" in out
    assert "FAIL 1 exclusion_applies_to_dataset_int_triage_records_excluded_exclusion_reason" in out
    assert "FAIL 1 nurse_patient_dyad_values" in out
    # on the good warehouse the same tests passed: they ran in the pipeline's `dbt build`, which succeeded
