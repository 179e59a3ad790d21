"""The parsed dbt project, kept for the life of the process.

Before every invocation dbt parses the project (about 90 models, 800 macros, 250 tests): 7 to 20 seconds on two
cores, as long as building a small warehouse. dbt's own partial parsing reuses a parse only within one target
folder and only while the profile, which names the warehouse file, and the command-line vars stay the same: every
other warehouse, and every change of vars, parses again from scratch. A notebook or a service that builds several
warehouses, or one warehouse with other vars, paid that each time.

Here the parse (dbt's Manifest) is kept, keyed on everything a parse reads: the project's files (path, size and
modification time), the dbt version, the engine, the database name, the environment variables the profile and the
macros read (not the paths of the warehouse files, which only the execution uses), and the vars. A parse renders
models without executing them and keeps their references and configurations, so most vars do not change it: the
data set folders, B, the seeds, the interval settings and the publish switches are read only when nodes run, from
the invocation's own vars (RUN_TIME_VARS; tests/python/test_dbt_parse_cache.py parses the project with each of
them changed and requires the same manifest). Any other var (a gate threshold enables its test, a test argument
in YAML) is part of the key. `run_dbt` hands a kept parse to dbt (`dbtRunner(manifest=...)`, dbt's documented way
to reuse a parse); an edited model, another engine or another value of a var outside RUN_TIME_VARS give another
key and a fresh parse. A parse in use is taken out of the cache, so two threads never run one Manifest at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

# Commands that run nodes from a parse and write nothing that depends on it into target/ (docs generate writes
# the manifest the docs site reads, parse is the parse itself): only these reuse a kept parse.
CACHED_COMMANDS = frozenset({"build", "run", "test", "seed", "compile"})
# Environment variables that only say where files are (the warehouse, dbt's artifacts, the data set folders the
# raw-source macro reads when nodes run) or how long to wait for the lock: never read by the parse.
_LOCATION_VARIABLES = frozenset({"BIASMIRROR_WAREHOUSE", "BIASMIRROR_WORKING_COPY", "BIASMIRROR_TEMP_DIRECTORY",
                                 "BIASMIRROR_LOCK_TIMEOUT", "DBT_TARGET_PATH", "DBT_LOG_PATH",
                                 "BIASMIRROR_MIMIC_ROOT", "BIASMIRROR_BORDEAUX_ROOT"})
_ENVIRONMENT_PREFIXES = ("BIASMIRROR_", "DBT_", "PG")
# The project's folders of parsed files (dbt_project.yml's *-paths) and its top-level files.
_PROJECT_FOLDERS = ("models", "macros", "seeds", "analyses", "tests/dbt", "snapshots")
_PROJECT_FILES = ("dbt_project.yml", "profiles.yml", "packages.yml", "dependencies.yml", "selectors.yml")
# A Manifest holds a few tens of MB: a handful of distinct keys covers a test run or a notebook.
_KEPT = 4

# Vars that only running nodes read (never a config, a reference or YAML): a parse does not depend on them.
RUN_TIME_VARS = frozenset({
    "mimic_root", "bordeaux_root", "remember_dataset_roots", "split_seed", "test_fraction",
    "bootstrap_resamples", "bootstrap_seed", "bootstrap_unit", "term_bootstrap_resamples",
    "implicit_bootstrap_resamples", "ci_level", "p_adjust_method", "mde_power", "min_stratum_pairs",
    "min_changed_pairs", "max_raw_row_drop", "allow_raw_shrink", "publish_compact", "publish_warehouse",
})

_lock = threading.Lock()
_kept: OrderedDict[str, Any] = OrderedDict()


def parse_key(project: Path, variables: dict[str, Any] | None, database: str) -> str:
    """What a parse of `project` depends on, as one digest (`database`: the warehouse file's name, DuckDB's
    catalog name, which the parse writes into every node; `variables`: the invocation's vars, of which those in
    RUN_TIME_VARS do not count)."""
    from dbt.version import __version__ as dbt_version

    digest = hashlib.sha256()
    digest.update(json.dumps([str(project.resolve()), dbt_version, database,
                              {name: value for name, value in (variables or {}).items() if name not in RUN_TIME_VARS}],
                             sort_keys=True, default=str).encode())
    environment = sorted((name, value) for name, value in os.environ.items()
                         if name.startswith(_ENVIRONMENT_PREFIXES) and name not in _LOCATION_VARIABLES)
    digest.update(json.dumps(environment).encode())
    for path in _project_files(project):
        status = path.stat()
        digest.update(f"{path.relative_to(project)}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _project_files(project: Path) -> list[Path]:
    files = [project / name for name in _PROJECT_FILES if (project / name).is_file()]
    for folder in _PROJECT_FOLDERS:
        if (project / folder).is_dir():
            files += sorted(path for path in (project / folder).rglob("*") if path.is_file())
    return files


def take(key: str) -> Any | None:
    """The kept parse for `key`, removed from the cache while its invocation runs (None when there is none)."""
    with _lock:
        return _kept.pop(key, None)


def keep(key: str, manifest: Any) -> None:
    """Keep a parse for later invocations (the oldest is dropped past a few)."""
    with _lock:
        _kept[key] = manifest
        _kept.move_to_end(key)
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)


def clear() -> None:
    """Forget every kept parse (the next invocation parses again)."""
    with _lock:
        _kept.clear()
