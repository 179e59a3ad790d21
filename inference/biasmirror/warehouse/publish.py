"""Publishing the working copy as the file readers open, and seeding a working copy from a published file.

A publish copies the (checkpointed, so self-contained) working copy to a temporary file beside the published
one, flushes it to disk, checks that DuckDB opens it, and renames it over the published file in one step
(os.replace). A reader that had the old file open keeps reading the old file until it reconnects; a reader that
connects at any moment gets either the old or the new file, whole. A crash at any point leaves the old file in
place (and at worst a temporary `.<name>.publish-<pid>.tmp` file, removed by the next publish).

On Windows a file that another program has open cannot be replaced: the publish then fails with a message
saying so, the working copy keeps the build, and the next successful build publishes it.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

TEMP_PREFIX = "."
TEMP_INFIX = ".publish-"
TEMP_SUFFIX = ".tmp"


class PublishError(RuntimeError):
    """The working copy could not be published; the published file is unchanged."""


@dataclass(frozen=True)
class Published:
    path: Path
    bytes: int
    seconds: float


def wal_path(database: Path) -> Path:
    """DuckDB's write-ahead log of a database file."""
    return database.with_name(database.name + ".wal")


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    if os.name == "nt":  # pragma: no cover - directories cannot be opened for fsync on Windows
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_path(target: Path) -> Path:
    return target.with_name(f"{TEMP_PREFIX}{target.name}{TEMP_INFIX}{os.getpid()}{TEMP_SUFFIX}")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_temporaries(target: Path) -> None:
    """Remove temporary files left beside `target` by a publish or seed that was killed."""
    pattern = f"{TEMP_PREFIX}{target.name}{TEMP_INFIX}*{TEMP_SUFFIX}"
    for path in target.parent.glob(pattern):
        pid_text = path.name[len(f"{TEMP_PREFIX}{target.name}{TEMP_INFIX}"):-len(TEMP_SUFFIX)]
        if pid_text.isdigit() and not _pid_alive(int(pid_text)):
            path.unlink(missing_ok=True)


def _check_opens(path: Path) -> None:
    """Open the copy read-only in DuckDB and read its catalog: a copy DuckDB cannot read is never published."""
    import duckdb

    try:
        with duckdb.connect(str(path), read_only=True) as con:
            con.execute("select count(*) from duckdb_tables()").fetchone()
    except duckdb.Error as error:
        raise PublishError(f"the copy {path} of the working copy does not open in DuckDB ({error}); "
                           "nothing was published") from error


def _replace(source: Path, target: Path) -> None:
    try:
        os.replace(source, target)
    except PermissionError as error:  # Windows: a reader has the published file open
        source.unlink(missing_ok=True)
        raise PublishError(
            f"cannot replace {target}: {error}. On Windows a file that another program (a BI tool, a notebook) "
            "has open cannot be replaced; close it and rerun the build. The build itself is kept in the working "
            "copy and the next successful build publishes it.") from error


def copy_atomically(source: Path, target: Path, verify: bool = True) -> int:
    """Copy `source` over `target` in one step: a temporary file beside `target`, fsync, check, rename, fsync the
    folder. Returns the bytes copied."""
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target)
    temp = _temp_path(target)
    try:
        shutil.copyfile(source, temp)
        _fsync_file(temp)
        if verify:
            _check_opens(temp)
        size = temp.stat().st_size
        _replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)
    return size


def publish(working: Path, published: Path) -> Published:
    """Publish the working copy (which the caller has checkpointed: its WAL is empty) as `published`."""
    started = time.perf_counter()
    wal = wal_path(working)
    if wal.exists() and wal.stat().st_size > 0:
        raise PublishError(f"the working copy {working} still has changes in its write-ahead log {wal} after a "
                           "checkpoint (another connection is writing it?); nothing was published")
    if not working.is_file():
        raise PublishError(f"no working copy at {working}; nothing was published")
    # A WAL beside the published file can only be left from before it was published this way (the old layout
    # wrote the published file directly); it belongs to the old file and must never be replayed onto the new one.
    wal_path(published).unlink(missing_ok=True)
    size = copy_atomically(working, published)
    return Published(path=published, bytes=size, seconds=time.perf_counter() - started)


def seed_working_copy(working: Path, published: Path) -> bool:
    """Create the working copy from the published file when only the latter exists (a warehouse made before
    the working copy existed, or a working copy that was deleted). Returns whether it seeded one. The caller
    holds the writer lock."""
    if working.exists() or not published.is_file():
        return False
    working.parent.mkdir(parents=True, exist_ok=True)
    old_wal = wal_path(published)
    if old_wal.is_file() and old_wal.stat().st_size > 0:
        # committed changes of the old layout not yet checkpointed into the file: DuckDB replays them on open
        copy_atomically(old_wal, wal_path(working), verify=False)
    else:
        wal_path(working).unlink(missing_ok=True)
    copy_atomically(published, working, verify=False)
    return True
