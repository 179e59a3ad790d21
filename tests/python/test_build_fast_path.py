"""The interactive build: after pair imports alone, `build` runs only what the imported pairs feed (with the vars
of the last full build) and returns what it built; anything else written since, or `full=True`, builds
everything. The shipped sample (examples/sample_pairs.csv) is the data, its metrics checked against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror import Warehouse
from biasmirror.build_plan import PAIR_IMPORT_SELECTION
from biasmirror.cli import app
from biasmirror.dbt_runner import UNIT_TESTS_ENV, planned_build, unit_tests_default
from biasmirror.paths import dbt_artifact_dirs, working_path
from pair_references import reference_paired_metrics

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_pairs.csv"
N_BOOT = 100
DATASET = "sample"


def check_against_numpy(wh: Warehouse, model: str, pairs: pd.DataFrame) -> pd.DataFrame:
    rows = wh.paired_metrics(dataset=DATASET, model=model)
    overall = rows[rows.stratum_name == "overall"].set_index("metric")
    for metric, value in reference_paired_metrics(pairs.original_sex, pairs.original_level,
                                                  pairs.counterfactual_level).items():
        assert overall.loc[metric, "estimate"] == pytest.approx(value, abs=1e-12), metric
    for site, subset in pairs.groupby("stratum_site"):
        expected = reference_paired_metrics(subset.original_sex, subset.original_level, subset.counterfactual_level)
        got = rows[(rows.stratum_name == "site") & (rows.stratum_value == site)].set_index("metric")
        assert got.loc["pooled_rate", "estimate"] == pytest.approx(expected["pooled_rate"], abs=1e-12)
    return rows


def _json_artifacts(wh: Warehouse) -> set[str]:
    target = dbt_artifact_dirs(working_path(wh.path))["target"]
    return {name for name in ("manifest.json", "run_results.json") if (target / name).is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    wh = Warehouse(tmp_path_factory.mktemp("fast") / "biasmirror.duckdb", lock_timeout=30)
    result = wh.import_pairs(SAMPLE, dataset=DATASET, model="example")
    assert result.strata == ("age_band", "site") and result.n_pairs == 705
    first = wh.build(resamples=N_BOOT, quiet=True, unit_tests=False)
    assert _json_artifacts(wh) == {"manifest.json", "run_results.json"}  # a full build writes dbt's artifacts
    yield wh, first
    wh.close()


def test_the_sample_imports_and_its_planted_effect_shows(built) -> None:
    wh, first = built
    assert first.selection is None and {"triage_cohort", "paired_metrics"} <= set(first.models())
    assert "unit_test" not in first.counts() and first.published == wh.path
    assert first.log_file is not None and first.log_file.is_file()
    rows = check_against_numpy(wh, "example", pd.read_csv(SAMPLE))
    pooled = rows[(rows.stratum_name == "overall") & (rows.metric == "pooled_rate")].iloc[0]
    assert pooled.ci_low > 0  # the sample's planted effect: the female presentation gets the less urgent level
    assert {"overall", "site", "age_band", "documented_level"} <= set(rows.stratum_name)


def test_a_build_after_an_import_builds_only_what_the_pairs_feed(built) -> None:
    wh, _ = built
    rng = np.random.default_rng(3)
    pairs = pd.read_csv(SAMPLE)
    moved = rng.random(len(pairs)) < 0.3
    pairs["counterfactual_level"] = np.where(moved, np.clip(pairs.original_level + rng.choice([-1, 1], len(pairs)), 1, 5),
                                             pairs.original_level)
    wh.import_pairs(pairs, dataset=DATASET, model="example")
    summary = wh.build(quiet=True)
    assert summary.selection == PAIR_IMPORT_SELECTION
    assert _json_artifacts(wh) == set()  # the fast path writes none, and leaves none of the full build's behind
    assert summary.variables == {"bootstrap_resamples": N_BOOT}  # the last full build's B, not the default
    assert "paired_metrics" in summary.models() and "triage_cohort" not in summary.models()
    assert summary.counts()["test"] > 0 and summary.published == wh.path
    assert set(summary.frame().status) <= {"success", "pass"}
    rows = check_against_numpy(wh, "example", pairs)
    assert (rows.n_boot == N_BOOT).all()
    text = str(summary)
    assert "pair import" in text and f"Published: {wh.path}" in text


def test_anything_else_written_since_gives_a_full_build(built) -> None:
    wh, _ = built
    wh.import_pairs(pd.read_csv(SAMPLE), dataset=DATASET, model="other")
    with wh._env():
        assert planned_build().select == PAIR_IMPORT_SELECTION
    wh.forget(dataset=DATASET, model="other")
    with wh._env():
        plan = planned_build()
    assert plan.select is None and plan.variables == {}


def test_the_command_prints_what_it_built_and_unit_tests_run_on_request(built, monkeypatch) -> None:
    wh, _ = built
    # a build's default for unit tests follows CI and BIASMIRROR_UNIT_TESTS: neither set here, whatever runs the tests
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(UNIT_TESTS_ENV, raising=False)
    wh.build(quiet=True, full=True, resamples=N_BOOT)  # after the forget above: a full build again
    wh.import_pairs(pd.read_csv(SAMPLE), dataset=DATASET, model="example")
    result = CliRunner().invoke(app, ["--warehouse", str(wh.path), "build"])
    assert result.exit_code == 0, result.output
    assert "only what 1 pair import(s) since the last build feed" in result.output
    assert "unit tests not run" in result.output and "dbt's log:" in result.output
    with_unit_tests = wh.build(select=["paired_metrics"], unit_tests=True, quiet=True)
    assert with_unit_tests.counts().get("unit_test", 0) > 0
    for value, expected in (("1", True), ("0", False)):
        monkeypatch.setenv(UNIT_TESTS_ENV, value)
        assert unit_tests_default() is expected
    monkeypatch.delenv(UNIT_TESTS_ENV)
    monkeypatch.setenv("CI", "true")
    assert unit_tests_default() is True
    monkeypatch.delenv("CI")
    assert unit_tests_default() is False
