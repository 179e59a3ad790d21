"""The run manifest: every run ends finished, failed or interrupted, killed runs are swept, old tables migrate."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from biasmirror.warehouse.runs import interrupted_runs, interruption_held, recorded_run


def _runs(warehouse: Path):
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute("select run_id, status, n_items, error, host, pid, finished_at from inference.runs "
                           "order by started_at nulls first").df()


def test_a_run_ends_finished_failed_or_interrupted(workspace) -> None:
    with workspace.active():
        with recorded_run("trial", {"x": 1}, dataset="d") as finished:
            finished.n_items = 7
            finished.details["counts"] = {"ok": 7}
        with pytest.raises(ValueError):
            with recorded_run("trial", {}, dataset="d") as failed:
                failed.n_items = 2
                raise ValueError("a message that may quote data")
        with pytest.raises(KeyboardInterrupt):
            with recorded_run("trial", {}, dataset="d") as interrupted:
                interrupted.n_items = 3
                raise KeyboardInterrupt
        with recorded_run("trial", {}, dataset="d") as declared:
            declared.status = "failed"  # e.g. every request to a backend failed
    runs = _runs(workspace.working).set_index("run_id")
    assert runs.loc[finished.run_id, ["status", "n_items"]].tolist() == ["finished", 7]
    assert runs.loc[failed.run_id, ["status", "n_items", "error"]].tolist() == ["failed", 2, "ValueError"]
    assert runs.loc[interrupted.run_id, ["status", "n_items", "error"]].tolist() == ["interrupted", 3, "Ctrl-C or SIGTERM"]
    assert runs.loc[declared.run_id, "status"] == "failed"
    assert runs.finished_at.notna().all() and (runs.pid == os.getpid()).all()
    assert interrupted in interrupted_runs and finished not in interrupted_runs
    with duckdb.connect(str(workspace.working), read_only=True) as con:
        (parameters,) = con.execute("select parameters from inference.runs where run_id = ?", [finished.run_id]).fetchone()
    assert '"counts": {"ok": 7}' in parameters and '"x": 1' in parameters


def test_a_run_inside_a_transaction_commits_or_rolls_back_with_its_rows(workspace) -> None:
    from biasmirror.warehouse import connect, ensure_inference_tables

    with workspace.active(), connect() as con:
        ensure_inference_tables(con)
        con.begin()
        with pytest.raises(RuntimeError):
            with recorded_run("import", {}, connection=con, dataset="d"):
                raise RuntimeError("validation failed half-way")
        assert con.execute("select count(*) from inference.runs").fetchone() == (0,)
        con.begin()
        with recorded_run("import", {}, connection=con, dataset="d") as run:
            run.n_items = 1
        con.commit()
    assert _runs(workspace.working).status.tolist() == ["finished"]


def test_a_killed_run_is_marked_interrupted_by_the_next_run(workspace) -> None:
    script = ("from biasmirror.warehouse.runs import recorded_run\n"
              "import sys, time\n"
              "with recorded_run('doomed', {}, dataset='d'):\n"
              "    print('started', flush=True)\n"
              "    time.sleep(600)\n")
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(workspace.warehouse)}
    child = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "started"
        child.kill()  # SIGKILL: the run cannot record its end
        child.wait(timeout=30)
        assert _runs(workspace.working).status.tolist() == ["running"]
        with workspace.active(), recorded_run("next", {}, dataset="d"):
            pass
    finally:
        if child.poll() is None:
            child.kill()
    runs = _runs(workspace.working)
    assert runs.status.tolist() == ["interrupted", "finished"]
    assert "killed" in runs.error[0]


@pytest.mark.slow  # a real `biasmirror` process run twice
def test_ctrl_c_marks_the_run_interrupted_keeps_its_batches_and_says_so(workspace) -> None:
    """A real `biasmirror` process interrupted mid-run (SIGINT, as Ctrl-C sends) exits 130 with a message, and a
    rerun resumes from what was kept."""
    command = [str(Path(sys.executable).with_name("biasmirror")), "implicit", "associations", "--backend", "simulated",
               "--model", "sim", "--iterations", "400", "--language", "en", "--batch-size", "16"]
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(workspace.warehouse), "COLUMNS": "200"}
    child = subprocess.Popen(command, env=env, cwd=workspace.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    deadline = time.monotonic() + 120
    while not workspace.working.exists() and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.2)
    time.sleep(3)  # let a few batches commit (the whole run takes about 15 s)
    child.send_signal(signal.SIGINT)
    output, _ = child.communicate(timeout=120)
    assert child.returncode == 130, output
    runs = _runs(workspace.working)
    assert runs.status.tolist() == ["interrupted"]
    with duckdb.connect(str(workspace.working), read_only=True) as con:
        (kept,) = con.execute("select count(*) from inference.implicit_association_responses").fetchone()
    assert runs.n_items[0] == kept
    assert "interrupted" in output and runs.run_id[0] in output and f"{kept:,} item(s)" in output
    assert "Traceback" not in output
    resumed = subprocess.run(command, env=env, cwd=workspace.root, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"({kept:,} already present" in resumed.stdout.replace("\n", " ")
    assert _runs(workspace.working).status.tolist() == ["interrupted", "finished"]


def test_an_interruption_waits_for_the_batch_and_its_count(workspace, interruptible) -> None:
    """Ctrl-C or SIGTERM that comes between a batch's commit and the run's count of it is held until both are
    done: the interrupted run's n_items is then exactly what the warehouse kept."""
    if not interruptible:  # it ran, and passed, in a fresh interpreter
        return
    with workspace.active(), duckdb.connect(str(workspace.root / "held.duckdb")) as con:
        con.execute("create table kept (i integer)")
        for signum in (signal.SIGINT, signal.SIGTERM):
            with pytest.raises(KeyboardInterrupt):
                with recorded_run("trial", {}, dataset="d") as run:
                    for batch in range(3):
                        with interruption_held():
                            con.execute("insert into kept values (?)", [batch])
                            if batch == 1:
                                os.kill(os.getpid(), signum)  # delivered here, raised only after the count
                                time.sleep(0.05)
                            run.n_items += 1
            (kept,) = con.execute("select count(*) from kept").fetchone()
            assert run.status == "interrupted" and run.n_items == kept == 2
            con.execute("delete from kept")
        # the handlers are restored: Ctrl-C outside a held block interrupts at once
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    runs = _runs(workspace.working)
    assert runs.status.tolist()[-2:] == ["interrupted", "interrupted"] and runs.n_items.tolist()[-2:] == [2, 2]


@pytest.mark.slow  # a dbt build of the inference tables
def test_tables_of_an_older_contract_gain_the_new_columns(workspace) -> None:
    """A warehouse made before a column was added to the contract is migrated, by Python and by dbt."""
    from biasmirror.warehouse import connect, ensure_inference_tables

    for migrate in ("python", "dbt"):
        for path in (workspace.warehouse, workspace.working):
            path.unlink(missing_ok=True)
        workspace.working.parent.mkdir(parents=True, exist_ok=True)
        with duckdb.connect(str(workspace.working)) as con:
            con.execute("create schema inference")
            con.execute("create table inference.runs (run_id varchar, kind varchar, dataset varchar, model varchar, "
                        "generator varchar, parameters varchar, started_at timestamp, finished_at timestamp, "
                        "status varchar, n_items bigint)")
            con.execute("insert into inference.runs (run_id, kind, status) values ('old', 'import', 'finished')")
        if migrate == "python":
            with workspace.active(), connect() as con:
                ensure_inference_tables(con)
        else:
            workspace.build(select=["stg_inference__triage_models"])
        with workspace.active(), recorded_run("new", {}, dataset="d"):
            pass
        runs = _runs(workspace.working)
        assert runs.run_id.tolist() == ["old", runs.run_id[1]] and runs.status.tolist() == ["finished", "finished"]
        assert runs.host.isna()[0] and runs.host.notna()[1], migrate


def test_duckdb_interruptions_are_told_from_errors() -> None:
    """Ctrl-C during a query reaches Python as DuckDB's error (its InterruptException, or a RuntimeError
    'Query interrupted' from some paths of its client, or an error that quotes the KeyboardInterrupt): each is
    an interruption; any other error is not."""
    from biasmirror.warehouse.runs import is_duckdb_interruption

    assert is_duckdb_interruption(duckdb.InterruptException("Query interrupted"))
    assert is_duckdb_interruption(RuntimeError("Query interrupted"))
    assert is_duckdb_interruption(duckdb.InvalidInputException("Failed to create view x: KeyboardInterrupt"))
    assert not is_duckdb_interruption(RuntimeError("the backend failed"))
    assert not is_duckdb_interruption(duckdb.CatalogException("Table with name x does not exist"))
    assert not is_duckdb_interruption(ValueError("Query interrupted"))
