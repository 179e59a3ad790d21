"""Shared fixtures: an isolated warehouse (its own DuckDB file and dbt target/log folders) per test or per test
module. Helpers that tests import live in modules of their own (warehouse_workspace, pair_references)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from warehouse_workspace import Workspace

# dbt's unit tests check SQL against fixtures, whatever a test's warehouse holds: test_dbt_unit_tests.py runs every
# one of them once, and the builds of other tests (`biasmirror build`, the API, subprocesses) leave them out, as
# outside CI (a test that checks this default sets the variable itself).
os.environ.setdefault("BIASMIRROR_UNIT_TESTS", "0")


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture(scope="module")
def module_workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("warehouse"))


@pytest.fixture(scope="session")
def vllm_adapters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two LoRA adapters of SmolLM2 with random weights (vllm_server.random_adapter), served by vllm_server."""
    from vllm_server import random_adapter, smollm2_folder

    root = tmp_path_factory.mktemp("adapters")
    return {name: random_adapter(smollm2_folder(), root / name, seed=seed) for name, seed in (("a", 1), ("b", 2))}


@pytest.fixture(scope="session")
def vllm_server(vllm_adapters: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):
    """The one vLLM server of a test session (tests marked vllm): SmolLM2 served as `smollm2`, and the two
    adapters as `a` and `b`, on 127.0.0.1; stopped when the session ends."""
    from vllm_server import SERVED_BASE, require_vllm, smollm2_folder

    require_vllm()
    from biasmirror.serving.local_server import LocalVllmServer

    log = tmp_path_factory.mktemp("vllm") / "server.log"
    with LocalVllmServer(smollm2_folder(), SERVED_BASE, adapters=vllm_adapters, max_model_len=2048,
                         log_path=log) as running:
        yield running


# The modules that take longest on two cores (seconds in a CI run of 2026-12-02), run first: pytest-xdist hands
# whole modules (--dist loadfile) to whichever worker is free, in collection order (--no-loadscope-reorder), so a
# long module collected last would leave one worker alone for its whole length at the end of the run. Only the
# order of modules changes; a module missing here keeps its place after these.
RUN_FIRST = ("test_smollm2", "test_warehouse_service", "test_attacker_builds", "test_cohort", "test_build_fast_path",
             "test_forget", "test_audit_history", "test_audit_gates", "test_raw_contracts", "test_bootstrap",
             "test_end_to_end", "test_redaction", "test_package_install", "test_triage_pipeline",
             "test_placebo_adjusted", "test_report_html")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: index for index, name in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))  # stable: tests keep their order within


def pytest_configure(config: pytest.Config) -> None:
    """A suite started as a background job of a script (`make test &`, nohup, a runner without job control) inherits
    SIGINT ignored, and so does every interpreter it starts: the tests of Ctrl-C would then never see one. The suite
    takes back Python's own Ctrl-C handling, so that it, its workers and the processes they start are interruptible
    as from a terminal (a handled signal is reset to its default in a started program; an ignored one stays ignored)."""
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def signal_handlers_restored():
    """Every test leaves Ctrl-C and SIGTERM as it found them: code that installs a handler (a held batch, a dbt run,
    a command's interruption) must restore it, or a later test in the same worker stops being interruptible."""
    import signal

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    yield
    after = {signum: signal.getsignal(signum) for signum in before}
    leaked = [signal.Signals(signum).name for signum in before if after[signum] is not before[signum]]
    for signum in before:  # restore, so one leak fails one test, not every later one
        signal.signal(signum, before[signum])
    assert not leaked, f"the test left a handler of {', '.join(leaked)} installed: {[after[s] for s in before]}"


@pytest.fixture
def interruptible(request: pytest.FixtureRequest):
    """Tests that signal their own process run in a fresh interpreter, as a command does, apart from the long-lived
    test worker and whatever its earlier tests left in it. Outside that fresh interpreter this fixture runs the one
    test there, requires it to pass, and yields False (the test then returns at once); inside, True. (Such tests
    failed when the suite ran as a background job, with SIGINT ignored: pytest_configure above restores it.)"""
    import subprocess
    import sys

    if os.environ.get("BIASMIRROR_ISOLATED_TEST") == request.node.nodeid:
        yield True
        return
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:randomly",
                             "-p", "no:cacheprovider", request.node.nodeid], cwd=root, capture_output=True, text=True,
                            env={**os.environ, "BIASMIRROR_ISOLATED_TEST": request.node.nodeid}, timeout=300)
    assert result.returncode == 0 and " passed" in result.stdout, result.stdout[-4000:] + result.stderr[-2000:]
    yield False
