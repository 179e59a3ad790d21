"""Registering where a file-based data set (MIMIC-IV, Bordeaux) lives, so a plain `dbt build` re-reads it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now

# Files each data set's folder must hold; a tuple entry lists alternatives (any one of them will do).
EXPECTED_FILES: dict[str, tuple[str | tuple[str, ...], ...]] = {
    "mimic": ("ed/edstays.csv.gz", "ed/triage.csv.gz", "hosp/patients.csv.gz", "hosp/admissions.csv.gz",
              "note/discharge.csv.gz"),
    "bordeaux": (("visits.parquet", "visits.csv.gz", "visits.csv"),),
}


def check_root(dataset: str, root: Path) -> Path:
    """The folder, resolved, once checked to hold the data set's files (one of each set of alternatives).
    `biasmirror build --mimic-root/--bordeaux-root` records it only when the build succeeds (the on-run-end
    hook, var remember_dataset_roots)."""
    if dataset not in EXPECTED_FILES:
        raise ValueError(f"Unknown data set {dataset!r}; known: {', '.join(EXPECTED_FILES)}")
    root = root.expanduser().resolve()
    missing = [name if isinstance(name, str) else " or ".join(name) for name in EXPECTED_FILES[dataset]
               if not any((root / option).is_file() for option in ((name,) if isinstance(name, str) else name))]
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
