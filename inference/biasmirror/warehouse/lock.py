"""The writer lock: one writing process at a time on the working copy.

Every writer (a dbt build, `import-pairs`, `counterfactuals`, `score`, ...) takes an exclusive lock on
`writer.lock` beside the working copy before it opens it, and writes who it is (command, pid, host, start time)
into that file. A second writer waits up to BIASMIRROR_LOCK_TIMEOUT seconds (default 300; 0 = fail at once),
saying once what it waits for, then fails with a message naming the holder. The operating system releases the
lock when the holder exits, however it exits (kill -9 included), so a lock is never left stale.

Readers never take this lock: they open the published file, which writers never open.

The lock is re-entrant within a process (a CLI command holds it for its whole run; the connections and the dbt
build it makes inside take it again for free). POSIX uses flock(2); Windows locks one byte far past the holder
record with msvcrt.locking (not exercised by the test suite, which runs on Linux).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

LOCK_FILE = "writer.lock"
_POLL_SECONDS = 0.2
_WINDOWS_LOCK_OFFSET = 1 << 20


class WarehouseBusy(RuntimeError):
    """Another process is writing the warehouse and did not finish within the wait allowed."""


@dataclass(frozen=True)
class Holder:
    """Who holds the writer lock, as recorded in the lock file."""

    command: str
    pid: int
    host: str
    since: str

    def describe(self) -> str:
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        return f"`{self.command}` (pid {self.pid}{where}, since {self.since})"


@dataclass
class _Held:
    fd: int
    depth: int


_held: dict[str, _Held] = {}
_guard = threading.RLock()
# Inside `command_scope`: a lock, once taken, is kept until the scope ends (a CLI command holds it for its
# whole run, so another writer cannot slip in between two of its transactions).
_scope: dict[str, object] = {"active": False, "on_acquire": None}


def lock_path(working: Path) -> Path:
    """The lock file guarding a working copy (in the working copy's folder)."""
    return working.parent / LOCK_FILE


def current_command() -> str:
    """This process's command line, shortened to what names it (`biasmirror score --dataset mimic ...`)."""
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    if program in ("__main__.py", "-c", "") or program.startswith("python"):
        program = "python"
    text = " ".join([program, *sys.argv[1:]])
    return text if len(text) <= 160 else text[:157] + "..."


def read_holder(working: Path) -> Holder | None:
    """The holder recorded in the lock file, or None when none was recorded yet (a writer just starting)."""
    try:
        raw = lock_path(working).read_text(encoding="utf-8").strip()
        record = json.loads(raw) if raw else None
        return Holder(str(record["command"]), int(record["pid"]), str(record["host"]), str(record["since"])) if record else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def holds(working: Path) -> bool:
    """Whether this process holds the writer lock of this working copy."""
    with _guard:
        return str(lock_path(working)) in _held


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _try_lock(fd: int) -> bool:
    if os.name == "nt":  # pragma: no cover - exercised on Windows only
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if os.name == "nt":  # pragma: no cover
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def _record(fd: int, command: str) -> None:
    record = {"command": command, "pid": os.getpid(), "host": socket.gethostname(),
              "since": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %z")}
    data = (json.dumps(record) + "\n").encode("utf-8")
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, data)


def acquire(working: Path, command: str | None = None, timeout: float | None = None,
            notify: Callable[[str], None] = _stderr, published: Path | None = None) -> None:
    """Take the writer lock of `working` (re-entrant within this process).

    Waits up to `timeout` seconds (None: BIASMIRROR_LOCK_TIMEOUT, default 300) for another writer, calling
    `notify` once with what it waits for; raises WarehouseBusy naming the holder when the time is up."""
    from biasmirror.paths import LOCK_TIMEOUT_ENV, lock_timeout

    key = str(lock_path(working))
    with _guard:
        if key in _held:
            _held[key].depth += 1
            return
        wait = lock_timeout() if timeout is None else timeout
        working.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(key, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + wait
            told = False
            while not _try_lock(fd):
                holder = read_holder(working)
                who = holder.describe() if holder else "another biasmirror or dbt process (just starting)"
                target = published or working
                if time.monotonic() >= deadline:
                    waited = f"after waiting {wait:g} s" if wait > 0 else f"({LOCK_TIMEOUT_ENV}=0: not waiting)"
                    raise WarehouseBusy(
                        f"The warehouse {target} is being written by {who}; gave up {waited}. Only one writer runs "
                        f"at a time (readers are never in the way). Let it finish and run this again, or set "
                        f"{LOCK_TIMEOUT_ENV} (or --lock-timeout) to wait longer."
                        + (f" Lock file: {key}." if holder is None else ""))
                if not told:
                    notify(f"Waiting up to {wait:g} s for the writer of {target} to finish: {who}. "
                           f"({LOCK_TIMEOUT_ENV} or --lock-timeout sets the wait.)")
                    told = True
                time.sleep(_POLL_SECONDS)
            _record(fd, command or current_command())
            if told:
                notify("The other writer finished; continuing.")
        except BaseException:
            os.close(fd)
            raise
        _held[key] = _Held(fd=fd, depth=1)
        if _scope["active"]:
            _held[key].depth += 1  # the scope's own level, given back when the scope ends
            if callable(_scope["on_acquire"]):
                _scope["on_acquire"](working)


def release(working: Path) -> None:
    """Give back one level of the writer lock; the last level unlocks the file."""
    key = str(lock_path(working))
    with _guard:
        held = _held.get(key)
        if held is None:
            return
        held.depth -= 1
        if held.depth > 0:
            return
        del _held[key]
        try:
            os.ftruncate(held.fd, 0)
            _unlock(held.fd)
        finally:
            os.close(held.fd)


def _release_all() -> None:
    with _guard:
        for key in list(_held):
            held = _held.pop(key)
            try:
                os.ftruncate(held.fd, 0)
                _unlock(held.fd)
            finally:
                os.close(held.fd)


def in_command_scope() -> bool:
    """Whether a `command_scope` is open in this process (a CLI command, or a `with Warehouse(...)` block)."""
    with _guard:
        return bool(_scope["active"])


@contextmanager
def command_scope(on_acquire: Callable[[Path], None] | None = None) -> Iterator[None]:
    """Within the block, a writer lock taken (by `connect()`, a dbt build, ...) is kept until the block ends,
    and `on_acquire(working)` is called when it is first taken. Nothing is locked until a writer needs it, so
    `--help` or a command that fails its argument checks never waits."""
    with _guard:
        if _scope["active"]:
            raise RuntimeError("command_scope is not re-entrant")
        _scope.update(active=True, on_acquire=on_acquire)
    try:
        yield
    finally:
        with _guard:
            _scope.update(active=False, on_acquire=None)
            _release_all()


@contextmanager
def writer_lock(working: Path, command: str | None = None, timeout: float | None = None,
                notify: Callable[[str], None] = _stderr, published: Path | None = None) -> Iterator[None]:
    """Hold the writer lock of `working` for the duration of the block."""
    acquire(working, command, timeout, notify, published)
    try:
        yield
    finally:
        release(working)
