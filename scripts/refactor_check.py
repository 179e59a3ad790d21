"""Check that a refactor leaves the marts unchanged: build the same inputs with the dbt project before and after,
then compare every table of the audit schema.

What it does:

1. Builds the inputs once with the checkout's Python: the tests' demo warehouse (synthetic MIMIC-IV, rule-based
   and placebo counterfactuals, a random forest with probabilities, noise-floor repeats, a manual review, imported
   pairs with a nurse x patient dyad stratum, a simulated implicit-bias study; tests/python/demo_warehouse.py) and
   the metric-mart benchmark's imported pairs (two strata columns, three settings; benchmarks/metric_marts.py).
2. For each data set and each project (``--before``: a git revision, exported with ``git archive``; ``--after``:
   a project folder, default this checkout), copies the warehouse and runs a full ``dbt build`` on the copy.
3. Compares every table of the audit schema (``--schema`` to add others) between the two builds with
   scripts/compare_marts.py: same tables, columns and types, same rows; doubles equal to 1e-12 (relative above
   1), every other type exact - the floating-point sums of a parallel build may differ in the last bit.

Exits 1 when any table differs. scripts/compare_marts.py A B alone compares two existing warehouses.

Usage:  .venv/bin/python scripts/refactor_check.py --before main
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TOLERANCE = 1e-12
# What a full build resamples: enough to exercise every bootstrap, small enough for two builds per data set.
BUILD_VARS = {"bootstrap_resamples": 200, "implicit_bootstrap_resamples": 200, "term_bootstrap_resamples": 200}
BENCHMARK_PAIRS = 20_000


def export_revision(revision: str, destination: Path) -> Path:
    """The dbt project as of a git revision, in a folder of its own."""
    destination.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(destination)], input=archive, check=True)
    return destination


def build_with(project: Path, inputs: Path, folder: Path, variables: dict) -> Path:
    """Copy the warehouse `inputs` into `folder` and run a full `dbt build` on it with the project in `project`."""
    folder.mkdir(parents=True)
    published = folder / "warehouse.duckdb"
    shutil.copyfile(inputs, published)
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(published),
           "BIASMIRROR_WORKING_COPY": str(folder / "warehouse.work" / "warehouse.duckdb"),
           "DBT_TARGET_PATH": str(folder / "target"), "DBT_LOG_PATH": str(folder / "logs")}
    command = [str(BIN / "dbt"), "build", "--project-dir", str(project), "--profiles-dir", str(project),
               "--vars", json.dumps({**BUILD_VARS, **variables})]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:])
        raise SystemExit(f"dbt build failed with the project in {project}")
    return published


def demo_inputs(tmp: Path) -> tuple[Path, dict]:
    """The tests' demo warehouse (every kind of input the marts read) and its raw MIMIC-IV folder."""
    sys.path.insert(0, str(REPO / "tests" / "python"))
    from demo_warehouse import demo_warehouse  # noqa: PLC0415 - a test helper, found on the path set above

    workspace = demo_warehouse()
    mimic = tmp / "demo_mimic"
    shutil.copytree(workspace.root.parent / "mimic", mimic)
    inputs = tmp / "demo_inputs.duckdb"
    shutil.copyfile(workspace.warehouse, inputs)
    return inputs, {"mimic_root": str(mimic)}


def benchmark_inputs(tmp: Path) -> tuple[Path, dict]:
    """The metric-mart benchmark's pairs (three settings, two strata columns), imported into a fresh warehouse."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from metric_marts import generate_pairs  # noqa: PLC0415 - the benchmark's own generator

    from biasmirror.imports.pairs import import_pairs

    folder = tmp / "benchmark_inputs"
    folder.mkdir()
    path = folder / "pairs.parquet"
    generate_pairs(BENCHMARK_PAIRS, seed=11).to_parquet(path, index=False)
    os.environ["BIASMIRROR_WAREHOUSE"] = str(folder / "warehouse.duckdb")
    os.environ["BIASMIRROR_WORKING_COPY"] = str(folder / "warehouse.work" / "warehouse.duckdb")
    import_pairs(path, "benchmark", "model-a", None)
    # the import writes the working copy; the builds start from it
    return folder / "warehouse.work" / "warehouse.duckdb", {}


def compare(title: str, before: Path, after: Path, schemas: list[str]) -> bool:
    """Every table of `schemas` in the two builds, by scripts/compare_marts.py (the one comparison of marts)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import compare_marts  # noqa: PLC0415 - the sibling script, found on the path set above

    print(f"== {title}")
    arguments = [str(before), str(after), "--tolerance", str(TOLERANCE)]
    for schema in schemas:
        arguments += ["--schema", schema]
    same = compare_marts.main(arguments) == 0
    print(f"== {title}: {'identical' if same else 'DIFFERENT'}")
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="git revision of the project before the change (e.g. main)")
    parser.add_argument("--after", type=Path, default=REPO, help="project folder after the change (default: this checkout)")
    parser.add_argument("--schema", action="append", default=None, help="schema to compare (repeatable; default audit)")
    parser.add_argument("--keep", type=Path, help="keep the built warehouses in this folder")
    args = parser.parse_args(argv)
    schemas = args.schema or ["audit"]
    if not args.before:
        parser.error("give --before REVISION (scripts/compare_marts.py A B compares two existing warehouses)")
    tmp = Path(tempfile.mkdtemp(prefix="biasmirror-compare-"))
    try:
        before = export_revision(args.before, tmp / "before_project")
        same = True
        for name, make_inputs in (("demo", demo_inputs), ("benchmark", benchmark_inputs)):
            inputs, variables = make_inputs(tmp)
            built_before = build_with(before, inputs, tmp / name / "before", variables)
            built_after = build_with(args.after.resolve(), inputs, tmp / name / "after", variables)
            same &= compare(f"{name} data ({args.before} vs {args.after})", built_before, built_after, schemas)
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(built_before, args.keep / f"{name}_before.duckdb")
                shutil.copyfile(built_after, args.keep / f"{name}_after.duckdb")
        return 0 if same else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
