"""Where the dbt project and the warehouse live.

The dbt project is the repository root in a checkout (and an editable install); an installed wheel carries a copy
of it as package data, `biasmirror/_project/` (pyproject.toml: package data). The warehouse has two files:

- the *published* file, `./biasmirror.duckdb` by default (BIASMIRROR_WAREHOUSE overrides it): what analysts,
  notebooks and BI tools open, read-only. Only a successful build replaces it, atomically;
- the *working copy* that every writer (dbt builds, imports, counterfactuals, scoring) works on:
  `<folder>/<stem>.work/<name>` beside the published file (`./biasmirror.work/biasmirror.duckdb` by default),
  or BIASMIRROR_WORKING_COPY. The writer lock and the working copy's WAL live in the same folder.

profiles.yml computes the same two paths from the same variables, so dbt and Python always agree.
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

WAREHOUSE_ENV = "BIASMIRROR_WAREHOUSE"
WORKING_COPY_ENV = "BIASMIRROR_WORKING_COPY"
LOCK_TIMEOUT_ENV = "BIASMIRROR_LOCK_TIMEOUT"
PROJECT_ENV = "BIASMIRROR_PROJECT_DIR"
DEFAULT_WAREHOUSE = "biasmirror.duckdb"
# The dbt project inside an installed package (package data of `biasmirror._project`, pyproject.toml).
PACKAGED_PROJECT = "_project"
# How long a second writer waits for the first by default (seconds); 0 fails at once.
DEFAULT_LOCK_TIMEOUT = 300.0
# DuckDB opens a file as a catalog named after it (audit.duckdb -> catalog `audit`): named like one of the
# warehouse's schemas, `audit.paired_metrics` would name the catalog, not the schema, and queries would fail.
# DuckDB reserves the last three catalog names itself. macros/check_warehouse_name.sql holds the same list for dbt.
RESERVED_WAREHOUSE_NAMES = frozenset({"audit", "staging", "intermediate", "inference", "reference", "dq_failures",
                                      "main", "memory", "system", "temp"})


class WarehouseNameError(ValueError):
    """The warehouse file's name would clash with one of its schemas (see RESERVED_WAREHOUSE_NAMES)."""


def project_dir() -> Path:
    """The dbt project folder: BIASMIRROR_PROJECT_DIR, else the checkout this module runs from (a source tree or
    an editable install: `<root>/inference/biasmirror/`), else the copy an installed wheel carries
    (`biasmirror/_project/` beside this module)."""
    configured = os.environ.get(PROJECT_ENV)
    if configured:
        path = Path(configured).expanduser().resolve()
        if not (path / "dbt_project.yml").is_file():
            raise FileNotFoundError(f"{PROJECT_ENV}={configured} does not hold a dbt_project.yml")
        return path
    package = Path(__file__).resolve().parent
    checkout = package.parents[1]
    if package == checkout / "inference" / "biasmirror" and (checkout / "dbt_project.yml").is_file():
        return checkout
    packaged = package / PACKAGED_PROJECT
    if (packaged / "dbt_project.yml").is_file():
        return packaged
    raise FileNotFoundError(
        f"Cannot find the biasmirror dbt project: neither a checkout ({checkout}) nor the copy an installed wheel "
        f"carries ({packaged}) holds a dbt_project.yml. Reinstall the package (pip install biasmirror, or "
        f"pip install -e . in a checkout), or set {PROJECT_ENV} to a folder holding the project.")


def dbt_artifact_dirs(working: Path) -> dict[str, Path]:
    """Where `biasmirror build` lets dbt write its target/ and logs/: DBT_TARGET_PATH and DBT_LOG_PATH when set
    (dbt's own variables), else `dbt/target` and `dbt/logs` in the working copy's folder
    (`<folder>/<stem>.work/dbt/`). That folder belongs to the writers of one warehouse and is written under its
    writer lock, so the project itself (read-only in an installed package) is never written, and two warehouses
    never share dbt's parse cache."""
    base = working.parent / "dbt"
    return {
        name: Path(os.environ[variable]).expanduser().resolve() if os.environ.get(variable) else base / name
        for name, variable in (("target", "DBT_TARGET_PATH"), ("logs", "DBT_LOG_PATH"))
    }


def warehouse_path() -> Path:
    """The published warehouse file: BIASMIRROR_WAREHOUSE, else ./biasmirror.duckdb (relative to the working
    directory). This is the file readers open; writers work on `working_path()`."""
    return checked_warehouse_name(Path(os.environ.get(WAREHOUSE_ENV) or DEFAULT_WAREHOUSE).expanduser().resolve())


def checked_warehouse_name(path: Path) -> Path:
    """`path`, unless its name would open as a catalog named like one of the warehouse's schemas."""
    catalog = path.name.rsplit(".", 1)[0].lower()  # DuckDB's catalog name: the file name without its extension
    if catalog in RESERVED_WAREHOUSE_NAMES:
        raise WarehouseNameError(
            f"the warehouse file {path} would open as a database named '{catalog}', the name of one of its schemas "
            f"(or one DuckDB reserves): choose another file name, e.g. {path.with_name('biasmirror_' + path.name)}")
    return path


def default_working_path(published: Path) -> Path:
    """`<folder>/<stem>.work/<name>` for a published file `<folder>/<name>` (the rule profiles.yml also applies).
    The working copy keeps the published file's name, so both open under the same DuckDB catalog name."""
    stem = published.name.rsplit(".", 1)[0]
    return published.parent / f"{stem}.work" / published.name


class WarehouseSettingError(ValueError):
    """An environment variable that places or paces the warehouse holds a value biasmirror cannot use."""


class WorkingCopyIsPublished(WarehouseSettingError):
    """BIASMIRROR_WORKING_COPY names the published file itself: writers would change what readers have open."""


def working_path(published: Path | None = None) -> Path:
    """The working copy writers use: BIASMIRROR_WORKING_COPY, else `default_working_path(published)`. The one
    check that the working copy is not the published file (every writer, dbt's plugin included, gets its path
    here): WorkingCopyIsPublished otherwise."""
    published = published or warehouse_path()
    configured = os.environ.get(WORKING_COPY_ENV)
    if not configured:
        return default_working_path(published)
    working = checked_warehouse_name(Path(configured).expanduser().resolve())
    if working == published.expanduser().resolve():
        raise WorkingCopyIsPublished(
            f"{WORKING_COPY_ENV}={configured} is the published warehouse itself ({published}): writers must work on a "
            f"separate file that a successful build publishes. Unset {WORKING_COPY_ENV} (the default is "
            f"{default_working_path(published)}) or point it at another file.")
    return working


def lock_timeout() -> float:
    """Seconds a writer waits for another writer (BIASMIRROR_LOCK_TIMEOUT, default 300; 0 = fail at once)."""
    raw = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_LOCK_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        shown = raw if len(raw) <= 40 and raw.isprintable() else f"a text of {len(raw)} characters"
        raise WarehouseSettingError(f"{LOCK_TIMEOUT_ENV}={shown} is not a number of seconds: use a finite number >= 0 (e.g. 300; "
                         "0 fails at once if another writer holds the lock)")
    return value


@contextmanager
def scoped_env(values: dict[str, str | None]) -> Iterator[None]:
    """Set (or, for None, unset) environment variables for the duration of the block, then restore them."""
    saved = {key: os.environ.get(key) for key in values}
    try:
        for key, value in values.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
