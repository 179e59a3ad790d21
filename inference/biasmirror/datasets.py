"""Where a file-based data set (MIMIC-IV, Bordeaux) lives: registering a folder, and the one resolver of a data
set's folder that every command follows, in the same order as dbt (macro dataset_root in macros/raw_source.sql):

1. an explicit folder: a command's --<dataset>-root option, or the dbt var named by the source's root_var
   (mimic_root, bordeaux_root) given with --vars;
2. the environment variable named by the source's root_env (BIASMIRROR_MIMIC_ROOT, BIASMIRROR_BORDEAUX_ROOT);
3. the folder registered in the warehouse (inference.dataset_roots) by `biasmirror build --<dataset>-root`.

Which files a folder must hold comes from the sources YAML (biasmirror.quality.contracts), never from here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from biasmirror.quality.contracts import raw_contracts
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.catalog import has_table
from biasmirror.warehouse.writes import append_rows, utc_now


def known_datasets() -> list[str]:
    """The file-based data sets of the project (those with a raw source contract)."""
    return raw_contracts().datasets()


def expected_files(dataset: str) -> list[tuple[str, ...]]:
    """The files a data set's folder must hold: one tuple of alternatives per contracted table."""
    contracts = raw_contracts()
    if dataset not in contracts.datasets():
        raise ValueError(f"Unknown data set {dataset!r}; known: {', '.join(contracts.datasets())}")
    return [table.files for table in contracts.for_dataset(dataset)]


def missing_files(dataset: str, root: Path) -> list[str]:
    """The contracted files (each as 'a or b or c') that the folder lacks."""
    return [" or ".join(options) for options in expected_files(dataset)
            if not any((root / option).is_file() for option in options)]


def check_root(dataset: str, root: Path) -> Path:
    """The folder, resolved, once checked to hold the data set's contracted files (one of each set of
    alternatives). `biasmirror build --mimic-root/--bordeaux-root` records it only when the build succeeds (the
    on-run-end hook, var remember_dataset_roots)."""
    root = root.expanduser().resolve()
    missing = missing_files(dataset, root)
    if missing:
        raise FileNotFoundError(f"{root} is not a {dataset} folder: missing {', '.join(missing)}")
    return root


def register_root(dataset: str, root: Path) -> Path:
    """Check the folder (`check_root`) and record it in inference.dataset_roots of the working copy at once,
    without a build (for scripts and tests; the CLI records a folder only after a successful build)."""
    root = check_root(dataset, root)
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        con.execute("delete from inference.dataset_roots where dataset = ?", [dataset])
        append_rows(con, "dataset_roots", pd.DataFrame([{"dataset": dataset, "root": str(root), "registered_at": utc_now()}]))
        con.commit()
    return root


def registered_roots(con: duckdb.DuckDBPyConnection) -> dict[str, Path]:
    """The folders registered in inference.dataset_roots (by `biasmirror build --<dataset>-root`)."""
    if not has_table(con, "inference", "dataset_roots"):
        return {}
    # the latest folder of each data set (the SQL both engines run: PostgreSQL has no arg_max)
    rows = con.execute("select r.dataset, r.root from inference.dataset_roots r where r.registered_at = "
                       "(select max(l.registered_at) from inference.dataset_roots l where l.dataset = r.dataset) "
                       "order by r.dataset, r.root").fetchall()
    return {dataset: Path(root) for dataset, root in rows}


@dataclass(frozen=True)
class ResolvedRoot:
    dataset: str
    root: Path
    #: where the folder came from: 'option', 'var <name>', 'env <NAME>' or 'registered'
    origin: str


def resolve_roots(explicit: Mapping[str, Path | None] | None = None, variables: Mapping[str, Any] | None = None,
                  con: duckdb.DuckDBPyConnection | None = None) -> dict[str, ResolvedRoot]:
    """Each file-based data set's folder, by the order above; data sets with no folder are left out.

    explicit: data set -> folder from a command's options; variables: dbt vars (as given to --vars);
    con: an open warehouse connection for the registered folders (None: none are consulted)."""
    contracts = raw_contracts()
    registered = registered_roots(con) if con is not None else {}
    resolved: dict[str, ResolvedRoot] = {}
    for dataset in contracts.datasets():
        var, env = contracts.root_var(dataset), contracts.root_env(dataset)
        candidates = [
            ((explicit or {}).get(dataset), "option"),
            ((variables or {}).get(var), f"var {var}"),
            (os.environ.get(env) if env else None, f"env {env}"),
            (registered.get(dataset), "registered"),
        ]
        for value, origin in candidates:
            if value is not None and str(value).strip() != "":
                resolved[dataset] = ResolvedRoot(dataset, Path(str(value).strip()).expanduser(), origin)
                break
    return resolved
