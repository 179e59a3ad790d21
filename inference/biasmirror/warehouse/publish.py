"""Publishing the working copy as the file readers open, and seeding a working copy from a published file.

A publish copies the (checkpointed, so self-contained) working copy to a temporary file beside the published
one, flushes it to disk, checks that DuckDB opens it, and renames it over the published file in one step
(os.replace). A byte copy carries the working copy's free blocks, which still hold the bytes of deleted rows; so
after a `forget` (and when free blocks make up much of the file) the build writes a compacted copy instead, a
fresh file written by DuckDB's COPY FROM DATABASE with live rows only (macro publish_compacts), which is checked
and renamed the same way. A reader that had the old file open keeps reading the old file until it reconnects; a reader that
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
    compacted: bool = False


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
    _fsync_file(folder)  # a folder is opened and synced as a file is (POSIX)


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


def compaction_target(published: Path) -> Path:
    """Where a compacted copy of the working copy is written before it is published: the temporary file beside
    `published` that `publish(..., compacted=...)` then renames over it. Stale temporaries are removed, and so is
    a leftover of this process (a compaction that failed half way), so that the caller ATTACHes an empty file."""
    published.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(published)
    target = _temp_path(published)
    target.unlink(missing_ok=True)
    wal_path(target).unlink(missing_ok=True)
    return target


def publish_compacted(compacted: Path, published: Path) -> int:
    """Publish a compacted copy that the caller wrote at `compaction_target(published)` (COPY FROM DATABASE into a
    fresh file, detached): fsync, DuckDB open check, rename over `published`, fsync the folder. Returns its bytes."""
    if compacted != _temp_path(published) or not compacted.is_file():
        raise PublishError(f"no compacted copy at {compacted}; nothing was published")
    try:
        if wal_path(compacted).exists():
            raise PublishError(f"the compacted copy {compacted} was not closed (its write-ahead log is there); "
                               "nothing was published")
        _fsync_file(compacted)
        _check_opens(compacted)
        size = compacted.stat().st_size
        _replace(compacted, published)
    except BaseException:
        compacted.unlink(missing_ok=True)
        raise
    _fsync_dir(published.parent)
    return size


def publish(working: Path, published: Path, compacted: Path | None = None) -> Published:
    """Publish the working copy (which the caller has checkpointed: its WAL is empty) as `published`: a byte copy,
    or, with `compacted`, the compacted copy of it the caller wrote there (`compaction_target`)."""
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
    size = publish_compacted(compacted, published) if compacted is not None else copy_atomically(working, published)
    return Published(path=published, bytes=size, seconds=time.perf_counter() - started, compacted=compacted is not None)


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
