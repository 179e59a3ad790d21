"""The MIMIC-IV cohort built by dbt from synthetic files whose exclusions are known (the generator's truth)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pandas as pd
import pytest

from biasmirror.datasets import register_root
from biasmirror.dbt_runner import DbtFailed
from biasmirror.synth.mimic import write_mimic
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

STAYS = 3000


@pytest.fixture(scope="module")
def mimic_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mimic")
    write_mimic(root, stays=STAYS, seed=11)
    return root


@pytest.fixture(scope="module")
def cohort(module_workspace: Workspace, mimic_files: Path) -> tuple[Workspace, pd.DataFrame]:
    module_workspace.build(variables={"mimic_root": str(mimic_files)})
    truth = pd.read_csv(mimic_files / "_truth" / "stays.csv.gz", dtype={"stay_id": str})
    return module_workspace, truth


def test_cohort_is_exactly_the_records_the_generator_did_not_plant_for_exclusion(cohort) -> None:
    workspace, truth = cohort
    kept = set(workspace.query("select record_id from audit.triage_cohort")["record_id"])
    expected = set(truth.loc[truth.planted_exclusion == "none", "stay_id"])
    assert kept == expected


def test_every_planted_gender_specific_record_is_excluded_for_its_content(cohort) -> None:
    workspace, truth = cohort
    reasons = workspace.query("select record_id, exclusion_reason, matched_keyword from intermediate.int_triage_records_excluded")
    merged = truth.merge(reasons, left_on="stay_id", right_on="record_id")
    planted = merged[merged.planted_exclusion == "gender_specific"]
    assert len(planted) > 30
    assert (planted.exclusion_reason == "gender_specific_content").all()
    assert planted.matched_keyword.notna().all()
    assert (merged.loc[merged.planted_exclusion == "acuity_5", "exclusion_reason"] == "level_5").all()
    assert merged.loc[merged.planted_exclusion == "no_link", "exclusion_reason"].str.startswith("no_link").all()


def test_flowchart_adds_up(cohort) -> None:
    workspace, _ = cohort
    flow = workspace.query("select * from audit.cohort_flow where dataset = 'mimic' order by step_order")
    assert flow.n_remaining.iloc[0] == STAYS
    steps = flow[(flow.step_order > 0) & (flow.step_order < 100)]
    assert (steps.n_remaining.diff().dropna() == -steps.n_excluded.iloc[1:].to_numpy()).all()
    n_cohort = workspace.query("select count(*) as n from audit.triage_cohort").n[0]
    assert steps.n_remaining.iloc[-1] == n_cohort
    assert flow[flow.step_order > 100].n_remaining.sum() == n_cohort


def test_split_is_half_and_half_and_stable(cohort, module_workspace: Workspace, mimic_files: Path) -> None:
    workspace, _ = cohort
    split = workspace.query("select record_id, split from audit.triage_cohort order by record_id")
    assert 0.45 < (split.split == "test").mean() < 0.55
    module_workspace.build(select=["triage_cohort"], variables={"mimic_root": str(mimic_files)})
    again = workspace.query("select record_id, split from audit.triage_cohort order by record_id")
    pd.testing.assert_frame_equal(split, again)
    module_workspace.build(select=["triage_cohort"], variables={"mimic_root": str(mimic_files), "split_seed": 3})
    other = workspace.query("select record_id, split from audit.triage_cohort order by record_id")
    assert (other.split != split.split).mean() > 0.3


def test_texts_hold_only_what_was_known_at_triage(cohort) -> None:
    workspace, _ = cohort
    texts = workspace.query("select hpi, pmh, input_text from audit.triage_cohort")
    assert texts.hpi.notna().all()
    assert not texts.hpi.str.contains("In the ED").any()
    assert not texts.input_text.str.contains("Brief Hospital Course|Discharge", regex=True).any()
    assert texts.input_text.str.startswith("age: ").all()


def test_registered_root_lets_a_plain_build_reread_the_files(workspace: Workspace, mimic_files: Path) -> None:
    with workspace.active():
        register_root("mimic", mimic_files)
    workspace.build()
    assert workspace.query("select count(*) as n from audit.triage_cohort").n[0] > 0


def test_no_mimic_configured_builds_an_empty_cohort(workspace: Workspace) -> None:
    workspace.build()
    assert workspace.query("select count(*) as n from audit.triage_cohort").n[0] == 0
    assert workspace.query("select count(*) as n from audit.paired_metrics").n[0] == 0


def test_missing_file_is_named(workspace: Workspace, mimic_files: Path, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "mimic"
    shutil.copytree(mimic_files, broken)
    (broken / "hosp" / "patients.csv.gz").unlink()
    with pytest.raises(DbtFailed):
        workspace.build(variables={"mimic_root": str(broken)})
    assert f"file not found: {broken}/hosp/patients.csv.gz" in capsys.readouterr().out


def test_missing_column_is_named(workspace: Workspace, mimic_files: Path, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "mimic"
    shutil.copytree(mimic_files, broken)
    triage = pd.read_csv(broken / "ed" / "triage.csv.gz").rename(columns={"acuity": "esi"})
    with gzip.open(broken / "ed" / "triage.csv.gz", "wt") as handle:
        triage.to_csv(handle, index=False)
    with pytest.raises(DbtFailed):
        workspace.build(variables={"mimic_root": str(broken)})
    out = capsys.readouterr().out
    assert "triage.csv.gz lacks column(s) acuity" in out
    assert not workspace.warehouse.exists() or workspace.query(
        "select count(*) as n from information_schema.tables where table_name = 'triage_cohort'").n[0] == 0
