"""The warehouse as a shared service, with real processes and real files: readers of the published file never
block writers, builds publish atomically (old or new, never a mixture, even under kill -9), the published file
is portable, writers take turns with a clear message, and every command says which warehouse it used."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import numpy as np
import pytest

from biasmirror.paths import default_working_path
from warehouse_workspace import Workspace
from pair_references import random_pairs

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = [pytest.mark.slow, pytest.mark.long]  # make test-long (CI), not make test

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCHEDULED = ["--exclude-resource-type", "unit_test", "--select", "stg_inference__imported_pairs+",
             "stg_inference__imported_pair_strata+"]
RESAMPLES = {"bootstrap_resamples": 50}
# Marts every build rebuilds from the imported pairs: a reader must see them all from one build.
MARTS = ("paired_metrics", "pair_outcomes", "model_performance")


def environment(ws: Workspace, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("BIASMIRROR_")}
    env.update({"BIASMIRROR_WAREHOUSE": str(ws.warehouse), "DBT_TARGET_PATH": str(ws.root / "target"),
                "DBT_LOG_PATH": str(ws.root / "logs"), "BIASMIRROR_THREADS": "1", **extra})
    return env


def cli(ws: Workspace, *args: str, cwd: Path | None = None, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "biasmirror"), *args], cwd=cwd or ws.root, env=environment(ws, **extra),
                          capture_output=True, text=True, timeout=900)


def dbt_command(ws: Workspace, *args: str) -> list[str]:
    """The scheduled form of docs/scheduled-builds.md: dbt itself, run from the project, warehouse from BIASMIRROR_WAREHOUSE."""
    return [str(BIN / "dbt"), "build", "--project-dir", str(REPO), "--profiles-dir", str(REPO),
            "--vars", json.dumps(RESAMPLES), *args]


def dbt(ws: Workspace, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(dbt_command(ws, *args), cwd=REPO, env=environment(ws, **extra), capture_output=True,
                          text=True, timeout=900)


def import_file(ws: Workspace, dataset: str, seed: int, n: int = 400) -> Path:
    path = ws.root / f"{dataset}.parquet"
    random_pairs(np.random.default_rng(seed), n, shift_probability=0.2, strata={"site": ["a", "b"]}).to_parquet(path)
    return path


def marts_state(path: Path) -> dict[str, list[str]]:
    with duckdb.connect(str(path), read_only=True) as con:
        return {mart: sorted(row[0] for row in con.execute(f"select distinct dataset from audit.{mart}").fetchall())
                for mart in MARTS}


def ok(result: subprocess.CompletedProcess) -> str:
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "Traceback" not in output
    return output


# A reader that holds one read-only connection to the published file until its stdin closes, reading the
# data sets of the marts every 0.2 s (what a BI tool or a notebook does all day).
HOLDER = textwrap.dedent("""
    import json, sys, threading, time, duckdb
    con = duckdb.connect(sys.argv[1], read_only=True)
    marts = sys.argv[2].split(',')
    def state():
        return {m: sorted(r[0] for r in con.execute(f'select distinct dataset from audit.{m}').fetchall()) for m in marts}
    print(json.dumps({'ready': state()}), flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    seen = []
    while not done.is_set():
        seen.append(state())
        time.sleep(0.2)
    print(json.dumps({'reads': len(seen), 'states': [s for i, s in enumerate(seen) if s not in seen[:i]]}), flush=True)
""")

# A reader that connects anew every 0.5 s, reads every mart in one connection, and disconnects.
POLLER = textwrap.dedent("""
    import json, os, sys, time, duckdb
    path, marts, stop = sys.argv[1], sys.argv[2].split(','), sys.argv[3]
    while True:
        last = os.path.exists(stop)
        try:
            with duckdb.connect(path, read_only=True) as con:
                state = {m: sorted(r[0] for r in con.execute(f'select distinct dataset from audit.{m}').fetchall()) for m in marts}
            print(json.dumps({'ok': True, 'state': state}), flush=True)
        except Exception as error:
            print(json.dumps({'ok': False, 'error': str(error)}), flush=True)
        if last:
            break
        time.sleep(0.5)
""")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """A published warehouse with a MIMIC-shaped cohort and imported pairs of data set d1, built by the CLI."""
    from biasmirror.synth.mimic import write_mimic

    ws = Workspace(tmp_path_factory.mktemp("served"))
    write_mimic(ws.root / "mimic", stays=300, seed=3)
    ok(cli(ws, "import-pairs", str(import_file(ws, "d1", 1)), "--dataset", "d1", "--model", "m"))
    built = ok(cli(ws, "build", "--mimic-root", str(ws.root / "mimic"), "--resamples", "50"))
    assert f"Published: {ws.warehouse}" in built
    assert marts_state(ws.warehouse) == {mart: ["d1"] for mart in MARTS}
    return ws


def test_readers_never_block_writers_and_see_one_build_at_a_time(served: Workspace) -> None:
    ws = served
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ws.warehouse), ",".join(MARTS)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(holder.stdout.readline())["ready"] == {mart: ["d1"] for mart in MARTS}
        # every writer succeeds while the reader holds its connection
        ok(cli(ws, "counterfactuals", "--dataset", "mimic"))
        ok(cli(ws, "build", "--select", "model_inputs"))
        ok(cli(ws, "import-pairs", str(import_file(ws, "d2", 2)), "--dataset", "d2", "--model", "m"))
        # the scheduled plain `dbt build`, with a second reader connecting every 0.5 s throughout
        stop = ws.root / "stop-polling"
        poller = subprocess.Popen([sys.executable, "-c", POLLER, str(ws.warehouse), ",".join(MARTS), str(stop)],
                                  stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        scheduled = dbt(ws, *SCHEDULED)
        stop.touch()
        polls = [json.loads(line) for line in poller.communicate(timeout=60)[0].splitlines()]
        output = ok(scheduled)
        assert "biasmirror: published" in output
    finally:
        holder.stdin.close()
    held = json.loads(holder.stdout.readline())
    assert holder.wait(timeout=30) == 0
    # the held connection kept reading the build it opened, whole, the whole time
    assert held["reads"] > 10 and held["states"] == [{mart: ["d1"] for mart in MARTS}]
    # every poll connected, and saw either the old or the new build in every mart, never a mixture
    assert len(polls) >= 3 and all(poll["ok"] for poll in polls), [p for p in polls if not p["ok"]][:3]
    old, new = {mart: ["d1"] for mart in MARTS}, {mart: ["d1", "d2"] for mart in MARTS}
    assert all(poll["state"] in (old, new) for poll in polls), polls
    assert polls[0]["state"] == old and polls[-1]["state"] == new
    states = [poll["state"] == new for poll in polls]
    assert states == sorted(states)  # once the new build is visible, it stays visible
    # the counterfactuals went through the working copy into the published marts
    with duckdb.connect(str(ws.warehouse), read_only=True) as con:
        assert con.execute("select count(*) from audit.model_inputs where variant = 'counterfactual'").fetchone()[0] > 0


def every_relation_answers(con: duckdb.DuckDBPyConnection, catalog: str) -> int:
    relations = con.execute(
        "select schema_name, table_name from duckdb_tables() where database_name = ? union all "
        "select schema_name, view_name from duckdb_views() where database_name = ? and not internal",
        [catalog, catalog]).fetchall()
    for schema, name in relations:
        con.execute(f'select count(*) from "{catalog}"."{schema}"."{name}"').fetchone()
    return len(relations)


def test_copied_renamed_and_reattached_files_answer_every_view(served: Workspace, tmp_path: Path) -> None:
    with duckdb.connect(str(served.warehouse), read_only=True) as con:
        views = con.execute("select view_name, sql from duckdb_views() where not internal").fetchall()
        n_relations = every_relation_answers(con, "warehouse")
    assert len(views) >= 10
    # nothing names the catalog it was built in (the published and working files open as "warehouse")
    assert not [name for name, sql in views if '"warehouse".' in sql or "warehouse." in sql.lower()]
    copy = tmp_path / "backup.duckdb"
    shutil.copy(served.warehouse, copy)
    renamed = tmp_path / "renamed.db"
    copy.rename(renamed)
    with duckdb.connect(str(renamed), read_only=True) as con:
        assert every_relation_answers(con, "renamed") == n_relations
    with duckdb.connect() as con:
        con.execute(f"attach '{renamed}' as other (read_only)")
        assert every_relation_answers(con, "other") == n_relations
        assert con.execute("select count(*) from other.audit.paired_metrics").fetchone()[0] > 0


def hold_writer_lock(ws: Workspace, seconds: float) -> subprocess.Popen:
    """Another process that takes the writer lock (through the public API) and keeps it for `seconds`."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom biasmirror.warehouse import connect\n"
         "with connect():\n    print('holding', flush=True)\n    time.sleep(float(sys.argv[1]))\n", str(seconds)],
        env=environment(ws), stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "holding"
    return holder


def test_two_writers_take_turns_and_the_second_names_the_first(served: Workspace) -> None:
    ws = served
    pairs = str(import_file(ws, "d9", 9, n=50))
    holder = hold_writer_lock(ws, 600)
    try:
        started = time.monotonic()
        at_once = cli(ws, "--lock-timeout", "0", "import-pairs", pairs, "--dataset", "d9", "--model", "m")
        assert time.monotonic() - started < 15
        output = at_once.stdout + at_once.stderr
        assert at_once.returncode == 1 and "Traceback" not in output
        assert f"pid {holder.pid}" in output and "being written by" in output
        assert "read-only" not in output and "BI tool" not in output
        scheduled = dbt(ws, *SCHEDULED, BIASMIRROR_LOCK_TIMEOUT="1")
        output = scheduled.stdout + scheduled.stderr
        assert scheduled.returncode != 0 and "Traceback" not in output
        assert f"pid {holder.pid}" in output and "gave up after waiting 1 s" in output
        assert "read-only" not in output and "BI tool" not in output
    finally:
        holder.kill()
        holder.wait()
    # with time enough, the second writer says what it waits for, then runs
    holder = hold_writer_lock(ws, 4)
    try:
        waited = cli(ws, "import-pairs", pairs, "--dataset", "d9", "--model", "m", BIASMIRROR_LOCK_TIMEOUT="60")
    finally:
        holder.wait()
    output = ok(waited)
    assert f"Waiting up to 60 s for the writer of {ws.warehouse} to finish" in output and f"pid {holder.pid}" in output
    assert "Imported 50 pairs" in output


def test_a_failed_root_is_not_recorded_and_publishes_nothing(served: Workspace) -> None:
    ws = served
    bad = ws.root / "bad_extract"
    bad.mkdir()
    (bad / "visits.csv").write_text("visit_id,patient_id\nv1,p1\n", encoding="utf-8")  # columns missing
    before = ws.warehouse.read_bytes()
    failed = cli(ws, "build", "--bordeaux-root", str(bad))
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1 and "Traceback" not in output and "Nothing was published" in output
    assert ws.warehouse.read_bytes() == before
    with duckdb.connect(str(ws.working), read_only=True) as con:
        roots = dict(con.execute("select dataset, root from inference.dataset_roots").fetchall())
    # only the folder of the fixture's successful build is recorded: a later plain `dbt build` never reads BAD
    assert roots == {"mimic": str((ws.root / "mimic").resolve())}


def test_a_build_with_a_failing_test_publishes_nothing(served: Workspace) -> None:
    from biasmirror.warehouse import connect

    ws = served
    before = ws.warehouse.read_bytes()
    with ws.active():
        with connect() as con:  # a duplicated pair: the unique test on stg_inference__imported_pairs fails
            con.execute("insert into inference.imported_pairs select * from inference.imported_pairs "
                        "where dataset = 'd1' order by pair_id limit 1")
        try:
            failed = dbt(ws, *SCHEDULED)
        finally:
            with connect() as con:
                con.execute("create temp table one as select distinct * from inference.imported_pairs where dataset = 'd1'; "
                            "delete from inference.imported_pairs where dataset = 'd1'; "
                            "insert into inference.imported_pairs select * from one")
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0 and "unique_combination_stg_inference__imported_pairs" in output
    assert "the warehouse was NOT published" in output
    assert ws.warehouse.read_bytes() == before


def test_kill_during_publish_leaves_the_old_or_the_new_file(served: Workspace) -> None:
    ws = served
    ok(cli(ws, "import-pairs", str(import_file(ws, "d3", 3)), "--dataset", "d3", "--model", "m"))
    old = marts_state(ws.warehouse)
    with duckdb.connect(str(ws.working), read_only=True) as con:  # what the next build publishes
        imported = {row[0] for row in con.execute("select distinct dataset from inference.imported_pairs").fetchall()}
    new = {mart: sorted({*old[mart], *imported}) for mart in MARTS}
    assert new != old
    pattern = f".{ws.warehouse.name}.publish-*.tmp"
    caught = None
    for _attempt in range(3):
        build = subprocess.Popen(dbt_command(ws, *SCHEDULED), cwd=REPO, env=environment(ws),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while build.poll() is None:
            if list(ws.root.glob(pattern)):
                os.kill(build.pid, signal.SIGKILL)
                caught = build.wait()
                break
            time.sleep(0.001)
        if caught is not None:
            break
    assert caught == -signal.SIGKILL, "the build finished before its publish could be interrupted"
    state = marts_state(ws.warehouse)  # opens: a valid file, the old build or the new one
    assert state in (old, new)
    with duckdb.connect(str(ws.warehouse), read_only=True) as con:
        every_relation_answers(con, "warehouse")
    # the killed writer's lock died with it, and the next build cleans up and publishes
    output = ok(dbt(ws, *SCHEDULED, BIASMIRROR_LOCK_TIMEOUT="0"))
    assert "biasmirror: published" in output
    assert not list(ws.root.glob(pattern))
    assert marts_state(ws.warehouse) == new


def test_incremental_schedule_on_a_fresh_warehouse_says_what_to_run_first(workspace: Workspace) -> None:
    ws = workspace
    ok(cli(ws, "import-pairs", str(import_file(ws, "d1", 1)), "--dataset", "d1", "--model", "m"))
    result = dbt(ws, *SCHEDULED)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert "intermediate.int_model_pairs" in output and "Run a full build once first" in output
    assert not ws.warehouse.exists()  # nothing was published


def test_a_warehouse_named_like_a_schema_is_refused_with_a_message(tmp_path: Path) -> None:
    """audit.duckdb would open as a catalog `audit` that shadows the schema `audit`: the CLI (writers and readers)
    and a plain dbt build stop with a message naming a file name that works, and create nothing."""
    import re

    from biasmirror.paths import RESERVED_WAREHOUSE_NAMES

    macro = (REPO / "macros" / "check_warehouse_name.sql").read_text(encoding="utf-8")
    listed = re.search(r"return\(\[([^\]]*)\]\)", macro).group(1)
    assert set(re.findall(r"'([a-z_]+)'", listed)) == RESERVED_WAREHOUSE_NAMES  # one list in two languages
    ws = Workspace(tmp_path / "named")
    ws.root.mkdir()
    pairs = import_file(ws, "d1", 1)
    for name in ("audit.duckdb", "Staging.duckdb"):
        target = {"BIASMIRROR_WAREHOUSE": str(ws.root / name)}
        before = sorted(ws.root.iterdir())
        for args in (["import-pairs", str(pairs), "--dataset", "d1", "--model", "m"], ["summary"]):
            result = cli(ws, *args, **target)
            output = " ".join((result.stdout + result.stderr).split())
            assert result.returncode == 1 and "Traceback" not in output, output
            assert "would open as a database named" in output and "biasmirror_" in output, output
        assert sorted(ws.root.iterdir()) == before  # the CLI created nothing
        result = dbt(ws, "--select", "stg_inference__imported_pairs", **target)
        output = result.stdout + result.stderr
        assert result.returncode != 0 and "the name of one of its schemas" in " ".join(output.split()), output[-3000:]
        assert not (ws.root / name).exists()  # nothing published


def test_reading_commands_refuse_a_missing_warehouse_and_create_nothing(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    for args in (["summary"], ["report", "--out", str(tmp_path / "report")], ["check"]):
        result = cli(ws, *args)
        output = result.stdout + result.stderr
        assert result.returncode == 1 and "Traceback" not in output, output
        assert f"No warehouse at {ws.warehouse}" in " ".join(output.split())
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_commands_say_which_warehouse_and_summary_refuses_an_unknown_dataset(served: Workspace, tmp_path: Path) -> None:
    summary = ok(cli(served, "summary", "--dataset", "d1"))
    assert f"Warehouse: {served.warehouse} (read-only; published " in summary
    unknown = cli(served, "summary", "--dataset", "nosuch")
    output = unknown.stdout + unknown.stderr
    assert unknown.returncode == 1 and "No dataset 'nosuch'" in output and "datasets there: d1" in output
    # import-pairs from another folder: it says which file it created and wrote, and writes nothing else
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    pairs = import_file(served, "dx", 5, n=30)
    imported = subprocess.run([str(BIN / "biasmirror"), "import-pairs", str(pairs), "--dataset", "dx", "--model", "m"],
                              cwd=elsewhere, env={k: v for k, v in environment(served).items() if k != "BIASMIRROR_WAREHOUSE"},
                              capture_output=True, text=True, timeout=300)
    output = " ".join(ok(imported).split())
    assert f"Warehouse: {elsewhere / 'biasmirror.duckdb'} (none there yet: creating a new one" in output
    assert f"into {elsewhere / 'biasmirror.work' / 'biasmirror.duckdb'}, the working copy of {elsewhere / 'biasmirror.duckdb'}" in output
    # --warehouse names another file for one command
    other = tmp_path / "other" / "shared.duckdb"
    ok(cli(served, "--warehouse", str(other), "import-pairs", str(pairs), "--dataset", "dx", "--model", "m"))
    assert default_working_path(other).is_file() and not other.exists()
    with duckdb.connect(str(default_working_path(other)), read_only=True) as con:
        assert con.execute("select count(*) from inference.imported_pairs").fetchone()[0] == 30


def test_a_warehouse_from_before_the_working_copy_is_carried_over(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    with duckdb.connect(str(ws.warehouse)) as con:  # the old layout: writers wrote the one file readers open
        con.execute("create schema inference; create table inference.keep_me as select 42 as answer")
    ok(cli(ws, "import-pairs", str(import_file(ws, "d1", 1, n=30)), "--dataset", "d1", "--model", "m"))
    with duckdb.connect(str(ws.working), read_only=True) as con:
        assert con.execute("select answer from inference.keep_me").fetchone()[0] == 42
        assert con.execute("select count(*) from inference.imported_pairs").fetchone()[0] == 30
    with duckdb.connect(str(ws.warehouse), read_only=True) as con:  # unchanged until a build publishes
        assert con.execute("select count(*) from information_schema.tables where table_name = 'imported_pairs'").fetchone()[0] == 0


def test_demo_uses_its_own_warehouse_and_prints_commands_unwrapped(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "user")
    ws.root.mkdir()
    out = tmp_path / "demo out"
    result = cli(ws, "demo", "--out", str(out), "--stays", "400", cwd=tmp_path, COLUMNS="50")
    output = ok(result)
    assert (out / "biasmirror.duckdb").is_file() and not ws.warehouse.exists()  # the user's warehouse untouched
    lines = result.stdout.splitlines()
    command = lines[lines.index("Open it read-only:") + 1].strip()
    assert len(command) > 50  # one line, wider than the terminal
    ran = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120, cwd=tmp_path)  # from where the demo ran
    assert ran.returncode == 0 and "pooled_rate" in ran.stdout, ran.stderr
    assert "Warehouse:" in output
