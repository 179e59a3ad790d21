"""`biasmirror import-pairs`: validation messages, nothing half-written, replacement instead of duplication."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.cli import app
from biasmirror.imports.pairs import import_pairs
from biasmirror.imports.tables import ImportValidationError
from warehouse_workspace import Workspace
from pair_references import random_pairs


def write_csv(path: Path, frame: pd.DataFrame) -> Path:
    frame.to_csv(path, index=False)
    return path


def imported_count(workspace: Workspace) -> int:
    if not workspace.working.exists():  # imports write the working copy
        return 0
    with duckdb.connect(str(workspace.working), read_only=True) as con:
        tables = con.execute("select count(*) from information_schema.tables where table_name = 'imported_pairs'").fetchone()[0]
        return con.execute("select count(*) from inference.imported_pairs").fetchone()[0] if tables else 0


@pytest.fixture
def good(workspace: Workspace) -> pd.DataFrame:
    return random_pairs(np.random.default_rng(1), 50, strata={"age": ["young", "old"]})


@pytest.mark.parametrize("mutate, message", [
    (lambda f: f.drop(columns=["original_level"]), "missing required column(s) original_level"),
    (lambda f: f.assign(original_sex=["X"] + list(f.original_sex[1:])), "1 row(s) have an original_sex that is not F or M (accepted, in any case: F, M, female, male): row 1 (pair_id=p000000)"),
    (lambda f: f.assign(counterfactual_level=[9] + list(f.counterfactual_level[1:])), "have a counterfactual_level outside 1-5: row 1"),
    (lambda f: f.assign(original_level=["2.5"] + list(f.original_level[1:].astype(str))), "have a original_level that is not an integer: row 1"),
    (lambda f: f.assign(original_level=[None] + list(f.original_level[1:])), "have no original_level: row 1"),
    (lambda f: f.assign(pair_id=["p000001"] + list(f.pair_id[1:])), "2 row(s) repeat a pair_id within a setting: row 1 (pair_id=p000001), row 2 (pair_id=p000001)"),
    (lambda f: f.assign(setting="both"), "50 row(s) have a setting not in full, text_only, tabular_only"),
    (lambda f: f.iloc[0:0], "no rows"),
])
def test_bad_files_name_rows_and_reasons_and_write_nothing(workspace: Workspace, good: pd.DataFrame, mutate, message) -> None:
    workspace.import_pairs(good, "ds", "m")  # an earlier, valid import must survive a failed one
    path = write_csv(workspace.root / "bad.csv", mutate(good.copy()))
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        import_pairs(path, "ds", "m")
    assert message in str(error.value)
    assert str(path) in str(error.value)
    assert imported_count(workspace) == len(good)


def test_every_problem_is_reported_at_once(workspace: Workspace, good: pd.DataFrame) -> None:
    bad = good.assign(original_sex="?", true_level=0)
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        import_pairs(write_csv(workspace.root / "bad.csv", bad), "ds", "m")
    assert "original_sex that is not F or M" in str(error.value)
    assert "true_level outside 1-5" in str(error.value)


def test_unreadable_and_unsupported_files(workspace: Workspace) -> None:
    with workspace.active():
        with pytest.raises(ImportValidationError, match="no such file"):
            import_pairs(workspace.root / "missing.csv", "ds", "m")
        (workspace.root / "pairs.xlsx").write_text("x")
        with pytest.raises(ImportValidationError, match="unsupported file type"):
            import_pairs(workspace.root / "pairs.xlsx", "ds", "m")
        (workspace.root / "latin1.csv").write_bytes("pair_id,original_sex,original_level,counterfactual_level\nd\xe9j\xe0,F,1,2\n".encode("latin-1"))
        with pytest.raises(ImportValidationError, match="cannot be read"):
            import_pairs(workspace.root / "latin1.csv", "ds", "m")


def test_conflicting_setting_option(workspace: Workspace, good: pd.DataFrame) -> None:
    path = write_csv(workspace.root / "pairs.csv", good.assign(setting="text_only"))
    with workspace.active(), pytest.raises(ImportValidationError, match="setting other than --setting full"):
        import_pairs(path, "ds", "m", "full")


def test_reimport_replaces_and_other_settings_stay(workspace: Workspace, good: pd.DataFrame) -> None:
    workspace.import_pairs(good, "ds", "m", "full")
    workspace.import_pairs(good.iloc[:20], "ds", "m", "text_only")
    result = workspace.import_pairs(good.iloc[:30], "ds", "m", "full")
    assert result.n_pairs == 30 and result.strata == ("age",)
    counts = workspace.query("select setting, count(*) as n from inference.imported_pairs group by setting order by setting")
    assert counts.to_dict("records") == [{"setting": "full", "n": 30}, {"setting": "text_only", "n": 20}]
    strata = workspace.query("select count(*) as n from inference.imported_pair_strata where setting = 'full'")
    assert strata.n[0] == 30
    runs = workspace.query("select kind, status, n_items from inference.runs order by started_at")
    assert list(runs.kind) == ["import"] * 3 and list(runs.status) == ["finished"] * 3


def test_csv_with_lowercase_sex_and_extra_columns_through_the_cli(workspace: Workspace, good: pd.DataFrame) -> None:
    path = write_csv(workspace.root / "pairs.csv", good.assign(original_sex=good.original_sex.str.lower(), note="x"))
    with workspace.active():
        result = CliRunner().invoke(app, ["import-pairs", str(path), "--dataset", "ds", "--model", "m"])
    assert result.exit_code == 0, result.output
    assert "Imported 50 pairs" in result.output and "Ignored column(s): note" in result.output
    assert set(workspace.query("select distinct original_sex from inference.imported_pairs").original_sex) <= {"F", "M"}


def test_cli_error_exits_non_zero_with_the_reason(workspace: Workspace, good: pd.DataFrame) -> None:
    path = write_csv(workspace.root / "pairs.csv", good.drop(columns=["pair_id"]))
    with workspace.active():
        result = CliRunner().invoke(app, ["import-pairs", str(path), "--dataset", "ds", "--model", "m"])
    assert result.exit_code == 1
    assert "missing required column(s) pair_id" in result.output
