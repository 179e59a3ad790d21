"""The holes an attacker found (issue 25) that need real dbt builds: `forget` then `build` leaves no byte of the
forgotten rows in the published file; a build is recorded as successful only when it published; only `build`
publishes; the working copy can never be the published file. Each test failed before the fix."""

from __future__ import annotations

import filecmp
import shutil

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.cli import app
from biasmirror.warehouse.connection import connect
from biasmirror.warehouse.contract import ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now
from pair_references import random_pairs
from warehouse_workspace import Workspace

pytestmark = pytest.mark.slow

# a sentence planted in one patient's note: it must not survive `forget` in any byte a reader can open
PLANTED = "Zanzibar-Quillfeather overdose disclosed by the patient's employer at 03:17 on the night shift"
BUILD = ["stg_inference__counterfactuals", "stg_inference__imported_pairs"]  # small: what matters is the publish


def plant_notes(workspace: Workspace, dataset: str, n: int = 40, planted: bool = True) -> None:
    """Counterfactual copies of `n` records of `dataset` as the rewriter writes them (inference.counterfactuals),
    the first one's history of present illness holding the planted sentence (with `planted`)."""
    rows = [{"dataset": dataset, "record_id": f"{dataset}-{i:04d}", "generator": "rules", "original_sex": "F",
             "counterfactual_sex": "M", "hpi": (PLANTED if i == 0 and planted else f"Record {i}: abdominal pain for two days."),
             "pmh": "hypertension", "status": "ok", "flag_reason": None, "n_replacements": 2, "run_id": "r",
             "created_at": utc_now()} for i in range(n)]
    with workspace.active(), connect() as con:
        ensure_inference_tables(con)
        append_rows(con, "counterfactuals", pd.DataFrame(rows))


def holds_planted(path) -> bool:
    """`grep -a`: whether the file's bytes hold the planted sentence (or a long piece of it) anywhere."""
    data = path.read_bytes()
    return PLANTED.encode() in data or PLANTED[:40].encode() in data


def test_forget_then_build_leaves_no_byte_of_the_forgotten_rows_in_the_published_file(workspace: Workspace) -> None:
    plant_notes(workspace, "victims")
    plant_notes(workspace, "kept", planted=False)
    workspace.build(select=BUILD)
    assert holds_planted(workspace.warehouse), "the planted note was never published: the test proves nothing"
    with workspace.active():
        result = CliRunner().invoke(app, ["forget", "--dataset", "victims", "--yes"])
    assert result.exit_code == 0, result.output
    workspace.build(select=BUILD)
    assert workspace.query_published("select count(*) as n from inference.counterfactuals "
                                     "where dataset = 'victims'").n[0] == 0
    assert workspace.query_published("select count(*) as n from inference.counterfactuals "
                                     "where dataset = 'kept'").n[0] == 40
    assert not holds_planted(workspace.warehouse), "the published file still holds the forgotten note's bytes"
    # the next build, with nothing forgotten since, is a plain byte copy again
    workspace.build(select=BUILD)
    assert filecmp.cmp(workspace.working, workspace.warehouse, shallow=False)


@pytest.mark.parametrize("erase", [["--compact"], ["--vars", "{allow_raw_shrink: true}"]], ids=["compact", "shrink"])
def test_a_visit_removed_from_the_extract_leaves_no_byte_in_a_compacted_publish(workspace: Workspace,
                                                                                 erase: list[str]) -> None:
    """Rows also leave without `forget`: a hospital removes a patient from its extract (an objection, a
    correction) and rebuilds. The replaced table's blocks still hold the note; `build --compact` (or a build that
    lets the raw file shrink on purpose) publishes a fresh file of live rows only, which holds none of its bytes."""
    from biasmirror.synth.bordeaux import VISITS_PARQUET, write_bordeaux

    root = workspace.root / "bordeaux"
    write_bordeaux(root, visits=300, seed=11, fmt="parquet")
    visits = pd.read_parquet(root / VISITS_PARQUET)
    # a note of a few kB is stored as it is (short strings are compressed, which `grep -a` does not see through)
    visits.loc[0, "triage_note"] = PLANTED + ". " + "Patiente calme, pas de fievre, douleur stable. " * 90
    visits.to_parquet(root / VISITS_PARQUET, index=False)
    command = ["build", "--select", "stg_bordeaux__visits", "--bordeaux-root", str(root)]
    with workspace.active():
        first = CliRunner().invoke(app, command)
        assert first.exit_code == 0, first.output
        assert holds_planted(workspace.warehouse), "the planted note was never published: the test proves nothing"
        visits.iloc[1:].to_parquet(root / VISITS_PARQUET, index=False)
        second = CliRunner().invoke(app, command + erase)
    assert second.exit_code == 0, second.output
    assert workspace.query_published("select count(*) as n from staging.stg_bordeaux__visits").n[0] == 299
    assert not holds_planted(workspace.warehouse), "the published file holds the bytes of a removed visit's note"


def test_a_build_whose_publish_failed_is_not_recorded_as_successful(workspace: Workspace) -> None:
    from biasmirror.build_record import last_build_vars
    from biasmirror.dbt_runner import DbtFailed

    workspace.warehouse.mkdir()  # the rename over the published file fails (as a full disk or a kill would stop it)
    (workspace.warehouse / "in-the-way").write_text("x")
    with pytest.raises(DbtFailed):
        workspace.build(select=BUILD, variables={"bootstrap_seed": 111})
    shutil.rmtree(workspace.warehouse)
    workspace.build(select=BUILD, variables={"bootstrap_seed": 222})
    builds = workspace.query_published("select invocation_id, published from inference.dbt_builds order by finished_at")
    assert len(builds) == 2
    assert builds.published.tolist() == [False, True], "the build that never published is recorded as successful"
    with workspace.active(), connect(read_only=True) as con:
        variables, _ = last_build_vars(con)
    assert variables["bootstrap_seed"] == 222


def test_only_build_publishes(workspace: Workspace) -> None:
    workspace.build(select=BUILD)
    before = workspace.warehouse.read_bytes()
    workspace.import_pairs(random_pairs(np.random.default_rng(3), 50, shift_probability=0.3), "late", "m1")
    from biasmirror.dbt_runner import run_dbt

    with workspace.active():
        run_dbt("test", select=["stg_inference__imported_pairs"])
        run_dbt("run", select=["stg_inference__imported_pairs"])
    assert workspace.warehouse.read_bytes() == before, "`dbt test` or `dbt run` published the working copy"
    assert workspace.query_published("select count(*) as n from inference.imported_pairs").n[0] == 0
    workspace.build(select=BUILD)
    assert workspace.query_published("select count(*) as n from inference.imported_pairs").n[0] == 50


def test_the_working_copy_may_not_be_the_published_file(workspace: Workspace, tmp_path) -> None:
    frame = random_pairs(np.random.default_rng(4), 20, shift_probability=0.3)
    path = tmp_path / "pairs.csv"
    frame.to_csv(path, index=False)
    with workspace.active(BIASMIRROR_WORKING_COPY=str(workspace.warehouse)):
        result = CliRunner().invoke(app, ["import-pairs", str(path), "--dataset", "d", "--model", "m"])
    assert result.exit_code == 1, result.output
    assert "is the published warehouse itself" in " ".join(result.output.split())
    assert "Traceback" not in result.output and not workspace.warehouse.exists()


# a model name an attacker chose: clears the screen, sets the terminal title, reverses what follows, forges a line
EVIL = "m\x1b[2J\x1b]0;pwned\x07\u202eledom\nFORGED: pooled_rate +0.00%"


def test_control_and_bidi_characters_in_names_never_reach_the_terminal_or_the_report(workspace: Workspace,
                                                                                      tmp_path) -> None:
    workspace.import_pairs(random_pairs(np.random.default_rng(5), 300, shift_probability=0.3,
                                        strata={"site": ["a", "b"]}), "d\u202e", EVIL)
    workspace.build(variables={"bootstrap_resamples": 50})
    with workspace.active():
        summary = CliRunner().invoke(app, ["summary"])
        report = CliRunner().invoke(app, ["report", "--out", str(tmp_path / "report")])
    assert summary.exit_code == 0, summary.output
    assert report.exit_code == 0, report.output
    for output in (summary.output, report.output):
        assert "\x1b" not in output and "\u202e" not in output and "\x07" not in output
        assert not any(line.lstrip(" │|").startswith("FORGED") for line in output.splitlines())
    assert "\\x1b[2J" in summary.output and "\\u202e" in summary.output  # shown, recognisably
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "\u202e" not in page and "\x1b" not in page and "\x07" not in page
    assert "\\u202eledom" in page


def test_ctrl_c_of_a_build_is_one_line_and_exit_130(workspace: Workspace) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(workspace.warehouse),
           "BIASMIRROR_WORKING_COPY": str(workspace.working), "DBT_TARGET_PATH": str(workspace.root / "target"),
           "DBT_LOG_PATH": str(workspace.root / "logs")}
    command = [sys.executable, "-c", "from biasmirror.cli import main; main()", "build"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(15)  # past dbt's parse, into the models
    assert process.poll() is None, "the build ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 130, output[-3000:]
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output[-3000:]
    assert output.rstrip().splitlines()[-1].startswith("interrupted")
    assert not workspace.warehouse.exists()  # nothing was published
