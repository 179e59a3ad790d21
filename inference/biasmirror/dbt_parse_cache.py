"""The parsed dbt project, kept for the life of the process.

Before every invocation dbt parses the project (about 90 models, 800 macros, 250 tests): 7 to 20 seconds on two
cores, as long as building a small warehouse. dbt's own partial parsing reuses a parse only within one target
folder and only while the profile, which names the warehouse file, and the command-line vars stay the same: every
other warehouse, and every change of vars, parses again from scratch. A notebook or a service that builds several
warehouses, or one warehouse with other vars, paid that each time.

Here the parse (dbt's Manifest) is kept, keyed on everything a parse reads: the project's files (path, size and
modification time), the dbt version, the engine, the database name, the environment variables the profile and the
macros read (not the paths of the warehouse files, which only the execution uses), and the values of the vars a
parse reads. A parse renders models without executing them and keeps only their references and configurations,
so a var changes the parse only where it is read into the manifest: YAML (a test's argument, a source), a
`config()` call, a `ref()` or `source()` argument, a `generate_*` naming macro. The project is scanned for those
(`parse_vars`); every other var (the data set folders, B, the seed...) is read when the nodes run, from the
invocation's own vars, and does not change the key. `run_dbt` hands a kept parse to dbt (`dbtRunner(manifest=...)`,
dbt's documented way to reuse a parse); an edited model, another parse var or another engine give another key and
a fresh parse. A parse in use is taken out of the cache, so two threads never run one Manifest at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

# Commands that run nodes from a parse and write nothing that depends on it into target/ (docs generate writes
# the manifest the docs site reads, parse is the parse itself): only these reuse a kept parse.
CACHED_COMMANDS = frozenset({"build", "run", "test", "seed", "compile"})
# Environment variables that only say where files are, read when nodes execute, never by the parse.
_LOCATION_VARIABLES = frozenset({"BIASMIRROR_WAREHOUSE", "BIASMIRROR_WORKING_COPY", "BIASMIRROR_TEMP_DIRECTORY",
                                 "BIASMIRROR_LOCK_TIMEOUT", "DBT_TARGET_PATH", "DBT_LOG_PATH"})
_ENVIRONMENT_PREFIXES = ("BIASMIRROR_", "DBT_", "PG")
# The project's folders of parsed files (dbt_project.yml's *-paths) and its top-level files.
_PROJECT_FOLDERS = ("models", "macros", "seeds", "analyses", "tests/dbt", "snapshots")
_PROJECT_FILES = ("dbt_project.yml", "profiles.yml", "packages.yml", "dependencies.yml", "selectors.yml")
# A Manifest holds a few tens of MB: a handful of distinct keys covers a test run or a notebook.
_KEPT = 4

# var('name') or var("name"); the places where a var read changes the manifest (see the module's docstring)
_VAR_READ = re.compile(r"""\bvar\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]""")
_MANIFEST_CALLS = re.compile(r"""\b(?:config|ref|source)\((?:[^()]|\([^()]*\))*\)""", re.DOTALL)
_VARS_BLOCK = re.compile(r"^vars:\n(?:[ \t#].*\n|\n)*", re.MULTILINE)

_lock = threading.Lock()
_kept: OrderedDict[str, Any] = OrderedDict()


def parse_key(project: Path, variables: dict[str, Any] | None, database: str) -> str:
    """What a parse of `project` depends on, as one digest (`database`: the warehouse file's name, DuckDB's
    catalog name, which the parse writes into every node; `variables`: the invocation's vars, of which only
    those a parse reads count)."""
    from dbt.version import __version__ as dbt_version

    files = _project_files(project)
    read = parse_vars(project, files)
    digest = hashlib.sha256()
    digest.update(json.dumps([str(project.resolve()), dbt_version, database,
                              {name: value for name, value in (variables or {}).items() if name in read}],
                             sort_keys=True, default=str).encode())
    environment = sorted((name, value) for name, value in os.environ.items()
                         if name.startswith(_ENVIRONMENT_PREFIXES) and name not in _LOCATION_VARIABLES
                         and not name.endswith("_ROOT"))
    digest.update(json.dumps(environment).encode())
    for path in files:
        status = path.stat()
        digest.update(f"{path.relative_to(project)}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def parse_vars(project: Path, files: list[Path] | None = None) -> frozenset[str]:
    """The vars whose values a parse of `project` writes into the manifest: those read in its YAML files
    (dbt_project.yml's own `vars:` block, their defaults, aside), in `config()`, `ref()` and `source()` calls of
    its SQL, and in its `generate_*` macros (schema, alias and database names)."""
    names: set[str] = set()
    for path in files if files is not None else _project_files(project):
        if path.suffix not in (".yml", ".yaml", ".sql"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.name == "dbt_project.yml":
            text = _VARS_BLOCK.sub("", text)
        if path.suffix == ".sql" and not re.search(r"macro\s+generate_", text):
            text = "\n".join(_MANIFEST_CALLS.findall(text))
        names.update(_VAR_READ.findall(text))
    return frozenset(names)


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
