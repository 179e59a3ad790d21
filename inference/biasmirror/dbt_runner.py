"""Running dbt in-process on the project, against the same warehouse files as the Python side.

dbt writes the working copy under the writer lock (held here for the whole invocation); the project's
on-run-end hook publishes it when every node succeeded (macros/publish_warehouse.sql). dbt's target/ and logs/
go beside the working copy (`biasmirror.paths.dbt_artifact_dirs`), never into the project, which an installed
package may not be able to write."""

from __future__ import annotations

import json
import os
import signal
import threading
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Callable, Iterator

from biasmirror import dbt_parse_cache as parse_cache
from biasmirror.build_plan import BuildPlan, plan_build
from biasmirror.build_summary import BuildSummary, NodeEvents
from biasmirror.paths import (WAREHOUSE_ENV, WORKING_COPY_ENV, dbt_artifact_dirs, project_dir, scoped_env,
                              warehouse_path, working_path)
from biasmirror.warehouse.lock import writer_lock
from biasmirror.warehouse.postgres import uses_postgres


class DbtFailed(RuntimeError):
    """dbt reported an error; its own output above says which model or test failed and why. A failed
    `build` sets `summary` (biasmirror.build_summary.BuildSummary): the nodes that ran, and dbt's log file."""

    summary: BuildSummary | None = None


# dbt's anonymous usage statistics: off unless the user turns them on (DBT_SEND_ANONYMOUS_USAGE_STATS=true). They
# would send events over the network and write a cookie (.user.yml) into the profiles folder, the project itself.
USAGE_STATS_ENV = "DBT_SEND_ANONYMOUS_USAGE_STATS"


class AuditGateFailed(DbtFailed):
    """Only audit gates (tests tagged audit_gate, severity error) failed: a model crossed a pre-registered line.
    The build itself succeeded and was published, so audit.gate_results and the report show the failed gates."""

    def __init__(self, message: str, gates: list[str]) -> None:
        super().__init__(message)
        self.gates = gates


def run_dbt(command: str, select: list[str] | None = None, variables: dict[str, Any] | None = None,
            extra: list[str] | None = None, callbacks: list[Callable[[Any], None]] | None = None) -> None:
    """Invoke `dbt <command>` (build, run, test, seed, docs generate) on the project. `callbacks` receive every
    dbt event (biasmirror.build_summary.NodeEvents)."""
    project = str(project_dir())
    # dbt resolves the warehouse through profiles.yml; pin it to the absolute paths the Python side uses.
    published = warehouse_path()
    working = working_path(published)
    artifacts = dbt_artifact_dirs(working)
    # the flags of the project, its artifacts and its vars, which a parse needs too; then the command's own
    common = ["--project-dir", project, "--profiles-dir", project, "--target-path", str(artifacts["target"]),
              "--log-path", str(artifacts["logs"])]
    if variables:
        common += ["--vars", json.dumps(variables)]
    own = ["--select", *select] if select else []
    own += extra or []
    environment: dict[str, str | None] = {WAREHOUSE_ENV: str(published), WORKING_COPY_ENV: str(working)}
    if not os.environ.get(USAGE_STATS_ENV):
        environment[USAGE_STATS_ENV] = "false"
    # BIASMIRROR_TARGET=postgres: profiles.yml's postgres output, a server database with no file to lock
    lock = nullcontext() if uses_postgres() else writer_lock(working, published=published)
    with lock, scoped_env(environment), _interruptible():
        try:
            result = _invoke(command, common, own, variables, working.name, callbacks or [])
        finally:
            _release_warehouse()
    if isinstance(result.exception, KeyboardInterrupt):
        # Ctrl-C or SIGTERM during the build: an interruption (exit 130), not a failed build; nothing was published
        raise KeyboardInterrupt(f"dbt {command} interrupted") from result.exception
    if not result.success:
        gates = _failed_audit_gates(result)
        if gates is not None:
            raise AuditGateFailed(f"dbt {command}: {len(gates)} audit gate test(s) failed ({', '.join(gates)}); a model "
                                  "crossed a pre-registered line (var gate_severity: error). The build was published: "
                                  "see audit.gate_results or the report.", gates)
        detail = f": {result.exception}" if result.exception else " (see the dbt output above)"
        raise DbtFailed(f"dbt {command} failed{detail}. Nothing was published: readers of {published} keep the "
                        "last successful build.")


def _invoke(command: str, common: list[str], own: list[str], variables: dict[str, Any] | None, database: str,
            callbacks: list[Callable[[Any], None]]) -> Any:
    """One dbt invocation (`common`: flags a parse takes too; `own`: the command's own), on the project as parsed
    earlier in this process when nothing the parse reads has changed (biasmirror.dbt_parse_cache); otherwise
    parsed first, and the parse kept for the next invocations."""
    from dbt.cli.main import dbtRunner  # imported late: dbt's import is slow and not every command needs it

    args = [command, *common, *own]
    if command not in parse_cache.CACHED_COMMANDS:
        return dbtRunner(callbacks=callbacks).invoke(args)
    key = parse_cache.parse_key(project_dir(), variables, database)
    manifest = parse_cache.take(key)
    if manifest is None:
        quiet = [flag for flag in own if flag in ("--quiet", "-q")]
        parsed = dbtRunner().invoke(["parse", *common, *quiet])
        if not parsed.success or parsed.result is None:
            # an error in the project (dbt has printed it once) or Ctrl-C during the parse: the command does not run
            return parsed
        manifest = parsed.result
    result = dbtRunner(manifest=manifest, callbacks=callbacks).invoke(args)
    if result.exception is None:
        parse_cache.keep(key, manifest)
    return result


# Set to 1 or 0: whether `biasmirror build` runs dbt's unit tests (default: only in CI, where CI is set).
UNIT_TESTS_ENV = "BIASMIRROR_UNIT_TESTS"


def unit_tests_default() -> bool:
    """Whether a build runs the unit tests when not told: BIASMIRROR_UNIT_TESTS (1/0), else whether CI is set."""
    explicit = os.environ.get(UNIT_TESTS_ENV, "").strip().lower()
    if explicit:
        return explicit not in ("0", "false", "no")
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def build(*, select: list[str] | None = None, mimic_root: Path | None = None, bordeaux_root: Path | None = None,
          resamples: int | None = None, seed: int | None = None, variables: dict[str, Any] | None = None,
          quiet: bool = False, announce: Any = None, full: bool = False, unit_tests: bool | None = None,
          dbt_log: bool = False, compact: bool = False) -> BuildSummary:
    """`biasmirror build` (the command line and the Python API): `dbt build` of the working copy, published when
    every node succeeds; returns what it built (BuildSummary).

    With no selection, vars or folders, after pair imports alone and a full build before them, only the graph the
    imported pairs feed is built (biasmirror.build_plan); `full=True` builds everything. dbt's unit tests run when
    `unit_tests` (default: BIASMIRROR_UNIT_TESTS, else in CI). The console shows one progress line (none when
    `quiet`) and dbt's errors; dbt's node log goes to its log file, or to the console too with `dbt_log`.

    `compact` publishes a compacted copy (a fresh file of live rows only, var publish_compact) instead of a byte
    copy, which would carry the bytes of removed rows in the working copy's free blocks: after removing patients
    from an extract. It is slower (docs/warehouse.md), and makes the build a full one unless `select` is given.

    A data set folder given here is checked to hold its files first, and recorded in the warehouse by the
    build's on-run-end hook only when the build succeeds. `variables` are further dbt vars; `resamples` and
    `seed` set `bootstrap_resamples` and `bootstrap_seed`. `announce(dataset, folder)` is called for each folder
    given. Raises FileNotFoundError (a folder without its files), ValueError, DbtFailed (with the summary of
    what ran as its `summary`)."""
    from biasmirror.datasets import check_root
    from biasmirror.progress import step_line

    merged: dict[str, Any] = dict(variables or {})
    remembered = []
    for dataset, root in (("mimic", mimic_root), ("bordeaux", bordeaux_root)):
        if root is not None:
            folder = check_root(dataset, Path(root))
            if announce is not None:
                announce(dataset, folder)
            merged[f"{dataset}_root"] = str(folder)
            remembered.append(dataset)
    if remembered:
        # recorded in inference.dataset_roots by the on-run-end hook, only if the build succeeds
        merged["remember_dataset_roots"] = remembered
    if compact:
        merged["publish_compact"] = True
    merged.update({k: v for k, v in {"bootstrap_resamples": resamples, "bootstrap_seed": seed}.items() if v is not None})
    if select:
        plan = BuildPlan(tuple(select), reason="the selection " + " ".join(select))
    elif full or merged or uses_postgres():
        plan = BuildPlan(None, reason="a full build")
    else:
        plan = planned_build()
        merged.update(plan.variables)
    with_unit_tests = unit_tests_default() if unit_tests is None else unit_tests
    extra = [] if dbt_log else ["--quiet"]
    if not with_unit_tests:
        extra += ["--exclude-resource-type", "unit_test"]
    if plan.fast:
        # the interactive loop: dbt's JSON artifacts (manifest.json is about a tenth of this build) are not
        # written; the returned summary is the record, and no earlier run's results are left to be read as these
        extra.append("--no-write-json")
        _remove_json_artifacts()
    published = None if uses_postgres() else warehouse_path()
    before = _stamp(published)
    events = NodeEvents()

    def summary() -> BuildSummary:
        now = _stamp(published)
        logs = dbt_artifact_dirs(working_path(published))["logs"] if published is not None else None
        return BuildSummary(plan.select, plan.reason, tuple(events.nodes), events.elapsed(), with_unit_tests,
                            published if now is not None and now != before else None,
                            logs / "dbt.log" if logs is not None else None, dict(merged))

    line = nullcontext(None) if quiet or dbt_log else step_line("dbt build")
    try:
        with line as on_step:
            events.on_step = on_step
            run_dbt("build", select=list(plan.select) if plan.select else None, variables=merged or None,
                    extra=extra, callbacks=[events])
    except DbtFailed as error:
        error.summary = summary()
        raise
    return summary()


def _remove_json_artifacts() -> None:
    target = dbt_artifact_dirs(working_path(warehouse_path()))["target"]
    for name in ("run_results.json", "manifest.json"):
        (target / name).unlink(missing_ok=True)


def planned_build() -> BuildPlan:
    """What a build given no selection or vars would build now: plan_build on the working copy, read under the
    writer lock (which a build then keeps)."""
    from biasmirror.warehouse import connect

    working = working_path(warehouse_path())
    if not working.exists():
        return plan_build(None)
    with connect(read_only=True, working=True) as con:
        return plan_build(con)


def _stamp(path: Path | None) -> tuple[int, int] | None:
    """The identity of a file's current version (inode, mtime), None when missing: a publish changes it."""
    if path is None or not path.exists():
        return None
    status = path.stat()
    return status.st_ino, status.st_mtime_ns


# dbt's console events for an exception that ended the invocation: "Encountered an error" and its stack trace.
_CRASH_EVENTS = frozenset({"MainEncounteredError", "MainStackTrace"})


def _hide_crash_report() -> None:
    """Stop dbt's console (not dbt.log) from printing the error and stack trace of the invocation's end: after
    Ctrl-C or SIGTERM the command line says "interrupted" in one line instead of 45 lines of traceback."""
    try:
        from dbt_common.events.event_manager_client import get_event_manager
    except ImportError:  # pragma: no cover - dbt-common comes with dbt-core
        return
    for logger in list(getattr(get_event_manager(), "loggers", [])):
        if getattr(logger, "name", "") != "stdout_log" or getattr(logger, "_biasmirror_quiet", False):
            continue
        shown = logger.filter
        logger.filter = lambda msg, shown=shown: shown(msg) and msg.info.name not in _CRASH_EVENTS
        logger._biasmirror_quiet = True


@contextmanager
def _interruptible() -> Iterator[None]:
    """During a dbt invocation, Ctrl-C and SIGTERM stop dbt as a KeyboardInterrupt (dbt saves what it ran and
    closes its connections), without dbt's traceback on the console; a second signal while it stops is ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def interrupt(signum: int, frame: Any) -> None:
        if received:
            return
        received.append(signum)
        _hide_crash_report()
        raise KeyboardInterrupt(f"signal {signum}")

    previous = {signum: signal.signal(signum, interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _failed_audit_gates(result: Any) -> list[str] | None:
    """The names of the failed audit-gate tests when they are the run's only failures; None otherwise (an error,
    another failed test, a skipped node, or no per-node results)."""
    results = getattr(getattr(result, "result", None), "results", None)
    if result.exception is not None or not results:
        return None
    gates, other = [], []
    for node_result in results:
        status = str(getattr(node_result.status, "value", node_result.status)).lower()
        if status in ("error", "fail", "runtime error", "skipped", "partial success"):
            node = node_result.node
            is_gate = node.resource_type == "test" and "audit_gate" in (node.tags or []) and status == "fail"
            (gates if is_gate else other).append(node.name)
    return sorted(gates) if gates and not other else None


def _release_warehouse() -> None:
    """dbt-duckdb keeps its DuckDB connection open for the life of the process; close it, so that the same
    process can reopen the file (read-only, or from another library) right after a build."""
    try:
        from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    except ImportError:  # pragma: no cover - dbt-duckdb is a core dependency
        return
    environment = DuckDBConnectionManager._ENV
    if environment is not None:
        environment.close()
    DuckDBConnectionManager.close_all_connections()
