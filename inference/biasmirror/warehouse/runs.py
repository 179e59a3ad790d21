"""The run manifest (inference.runs): one recorded-run context manager for every Python run.

Every command that writes into the warehouse (counterfactuals, training, scoring, imports, the implicit-bias
study) records itself with `recorded_run`. The run ends as

- `finished` when the block completes (or whatever final status the block set, e.g. `failed` when every request
  to a backend failed),
- `interrupted` on Ctrl-C or SIGTERM (what the committed batches wrote is kept, and a rerun resumes),
- `failed` on any other error (its exception type is stored, never its message: messages can quote data).

A run killed outright (kill -9, a machine crash) cannot record anything, so each new run first sweeps the runs
of this host whose process is gone and marks them `interrupted`.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import duckdb
import pandas as pd

from biasmirror.url_secrets import scrub
from biasmirror.warehouse.contract import SCHEMA, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now

FINISHED, FAILED, INTERRUPTED, RUNNING = "finished", "failed", "interrupted", "running"


@dataclass
class RunRecord:
    """A run in progress. The block updates `n_items` as it writes, may merge `details` into the run's
    parameters (counts, a parity check's result), and may set `status` to end the run as `failed`."""

    run_id: str
    kind: str
    n_items: int = 0
    details: dict[str, Any] = field(default_factory=dict)
    status: str = FINISHED


# Runs interrupted in this process, for the command line's closing message.
interrupted_runs: list[RunRecord] = []


@contextmanager
def recorded_run(kind: str, parameters: dict[str, Any], *, connection: duckdb.DuckDBPyConnection | None = None,
                 **keys: str | None) -> Iterator[RunRecord]:
    """Record a run in inference.runs around the block, and its final status after it.

    connection: an open writing connection to record the run through, e.g. inside the caller's transaction so
    that the run row commits (or rolls back) with the rows it describes. Without one, a short connection is
    opened at the start and at the end, so the block can open its own connections in between.
    keys: dataset, model, generator.
    """
    run = RunRecord(run_id=f"{kind}-{utc_now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}", kind=kind)
    with _connection(connection) as con:
        sweep_stale_runs(con)
        append_rows(con, "runs", pd.DataFrame([{
            "run_id": run.run_id, "kind": kind, "parameters": _parameters_json(parameters),
            "started_at": utc_now(), "status": RUNNING, "host": socket.gethostname(), "pid": os.getpid(), **keys,
        }]))
    try:
        with _sigterm_as_interrupt():
            yield run
    except KeyboardInterrupt:
        _interrupted(connection, run)
        raise
    except (duckdb.Error, RuntimeError) as error:
        if not is_duckdb_interruption(error):
            run.status = FAILED
            _finish_quietly(connection, run, type(error).__name__)
            raise
        # DuckDB stops a query on Ctrl-C and raises its own error: still an interruption
        _interrupted(connection, run)
        raise KeyboardInterrupt from error
    except BaseException as error:
        run.status = FAILED
        _finish_quietly(connection, run, type(error).__name__)
        raise
    with _connection(connection) as con:
        _finish(con, run, None)


def is_duckdb_interruption(error: BaseException) -> bool:
    """Whether `error` is DuckDB reporting a Ctrl-C: inside its own error, at the start ("KeyboardInterrupt: ...")
    or after what it was doing ("Failed to create view ...: KeyboardInterrupt" when it came while pandas fed a
    view), or "Query interrupted" when it came while a query ran - as its InterruptException, or as a plain
    RuntimeError from some of its Python client's paths (a fetch)."""
    if isinstance(error, duckdb.InterruptException):
        return True
    if not isinstance(error, (duckdb.Error, RuntimeError)):
        return False
    text = str(error)
    return "KeyboardInterrupt" in text or text.strip().endswith("Query interrupted")


def sweep_stale_runs(con: duckdb.DuckDBPyConnection) -> int:
    """Mark `interrupted` the running runs of this host whose process no longer exists; return how many."""
    ensure_inference_tables(con)
    rows = con.execute(
        f"select run_id, pid from {SCHEMA}.runs where status = ? and host = ? and pid is not null",
        [RUNNING, socket.gethostname()],
    ).fetchall()
    stale = [run_id for run_id, pid in rows if not _process_alive(int(pid))]
    for run_id in stale:
        con.execute(f"update {SCHEMA}.runs set status = ?, error = ? where run_id = ?",
                    [INTERRUPTED, "process ended without recording an end (killed)", run_id])
    return len(stale)


def update_run_details(con: duckdb.DuckDBPyConnection, run_id: str, details: dict[str, Any]) -> None:
    """Merge `details` into a run's parameters JSON."""
    (current,) = con.execute(f"select parameters from {SCHEMA}.runs where run_id = ?", [run_id]).fetchone()
    merged = {**json.loads(current or "{}"), **details}
    con.execute(f"update {SCHEMA}.runs set parameters = ? where run_id = ?", [_parameters_json(merged), run_id])


def _parameters_json(parameters: dict[str, Any]) -> str:
    """A run's parameters as stored: JSON, with every URL in it stripped of credentials and key-like query
    parameters (the published warehouse is open to every reader)."""
    return json.dumps(scrub(parameters), sort_keys=True, default=lambda value: scrub(str(value)))


def _interrupted(connection: duckdb.DuckDBPyConnection | None, run: RunRecord) -> None:
    run.status = INTERRUPTED
    interrupted_runs.append(run)
    _finish_quietly(connection, run, "Ctrl-C or SIGTERM")


def _finish(con: duckdb.DuckDBPyConnection, run: RunRecord, error: str | None) -> None:
    if run.details:
        update_run_details(con, run.run_id, run.details)
    con.execute(f"update {SCHEMA}.runs set finished_at = ?, status = ?, n_items = ?, error = ? where run_id = ?",
                [utc_now(), run.status, run.n_items, error, run.run_id])


def _finish_quietly(connection: duckdb.DuckDBPyConnection | None, run: RunRecord, error: str | None) -> None:
    """Record the end of a run that raised, without hiding the original exception."""
    try:
        if connection is not None:
            try:
                connection.rollback()  # the block's open transaction, if any, is abandoned
            except duckdb.Error:
                pass
        with _connection(connection) as con:
            _finish(con, run, error)
    except Exception:  # the warehouse itself is gone: the next run's sweep marks this one interrupted
        pass


@contextmanager
def _connection(connection: duckdb.DuckDBPyConnection | None) -> Iterator[duckdb.DuckDBPyConnection]:
    if connection is not None:
        yield connection
        return
    from biasmirror.warehouse.connection import connect

    with connect() as con:
        yield con


@contextmanager
def interruption_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block ends, then raise KeyboardInterrupt if either came.

    Wrap a batch's commit together with the run's count of it (`run.n_items`), so that an interruption never
    falls between them: the count recorded for an interrupted run is then exactly what the warehouse kept."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        received.append(signum)

    previous = {signum: signal.signal(signum, hold) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if received:
        raise KeyboardInterrupt(f"signal {received[0]}")


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (what a scheduler or `kill` sends) ends the run like Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    received: list[int] = []

    def interrupt(signum: int, frame: Any) -> None:
        if received:  # a second SIGTERM while the first is being handled: already stopping
            return
        received.append(signum)
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True
