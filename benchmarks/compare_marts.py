"""Check that a refactor leaves the marts unchanged: build the same inputs with the dbt project before and after,
then compare every table of the audit schema.

What it does:

1. Builds the inputs once with the checkout's Python: the tests' demo warehouse (synthetic MIMIC-IV, rule-based
   and placebo counterfactuals, a random forest with probabilities, noise-floor repeats, a manual review, imported
   pairs with a nurse x patient dyad stratum, a simulated implicit-bias study; tests/python/demo_warehouse.py) and
   the metric-mart benchmark's imported pairs (two strata columns, three settings; benchmarks/metric_marts.py).
2. For each data set and each project (``--before``: a git revision, exported with ``git archive``; ``--after``:
   a project folder, default this checkout), copies the warehouse and runs a full ``dbt build`` on the copy.
3. Compares every table of the audit schema (``--schema`` to add others) between the two builds: same tables,
   same columns and types, same row counts; then ``EXCEPT ALL`` both ways (exact). Where the exact comparison
   finds rows, the rows are matched in sorted order and compared again with doubles equal to 1e-12 (relative
   above 1) and every other type exact - the floating-point sums of a parallel build may differ in the last bit.

Exits 1 when any table differs. ``--compare A B`` only compares two existing warehouse files.

Usage:  .venv/bin/python benchmarks/compare_marts.py --before main
        .venv/bin/python benchmarks/compare_marts.py --compare before.duckdb after.duckdb
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TOLERANCE = 1e-12
FLOAT_TYPES = ("DOUBLE", "FLOAT", "REAL")
# What a full build resamples: enough to exercise every bootstrap, small enough for two builds per data set.
BUILD_VARS = {"bootstrap_resamples": 200, "implicit_bootstrap_resamples": 200, "term_bootstrap_resamples": 200}
BENCHMARK_PAIRS = 20_000


@dataclass
class TableComparison:
    """How one table compares: `problem` says why it cannot be compared row by row (missing, other columns)."""

    name: str
    rows_a: int = 0
    rows_b: int = 0
    only_in_a: int = 0
    only_in_b: int = 0
    differing_within_tolerance: int = 0
    largest_difference: float = 0.0
    problem: str = ""

    @property
    def identical(self) -> bool:
        return not self.problem and self.rows_a == self.rows_b and self.differing_within_tolerance == 0

    def line(self) -> str:
        if self.problem:
            return f"{self.name}: DIFFERENT - {self.problem}"
        exact = "exact" if self.only_in_a == self.only_in_b == 0 else (
            f"{self.only_in_a}/{self.only_in_b} rows differ exactly (a/b), doubles by at most "
            f"{self.largest_difference:.1e} (relative above 1)")
        verdict = "identical" if self.identical else f"DIFFERENT ({self.differing_within_tolerance} rows beyond 1e-12)"
        return f"{self.name}: {self.rows_a} rows, {exact}, {verdict}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(con: duckdb.DuckDBPyConnection, catalog: str, schema: str, table: str) -> list[tuple[str, str]]:
    return con.execute(
        "select column_name, data_type from information_schema.columns "
        "where table_catalog = ? and table_schema = ? and table_name = ? order by ordinal_position",
        [catalog, schema, table]).fetchall()


def _tables(con: duckdb.DuckDBPyConnection, catalog: str, schema: str) -> set[str]:
    return {row[0] for row in con.execute(
        "select table_name from information_schema.tables where table_catalog = ? and table_schema = ?",
        [catalog, schema]).fetchall()}


def compare_table(con: duckdb.DuckDBPyConnection, schema: str, table: str) -> TableComparison:
    """Compare schema.table of the attached catalogs a and b."""
    result = TableComparison(f"{schema}.{table}")
    columns_a, columns_b = _columns(con, "a", schema, table), _columns(con, "b", schema, table)
    if columns_a != columns_b:
        result.problem = f"columns differ: {columns_a} vs {columns_b}"
        return result
    a, b = f"a.{_quote(schema)}.{_quote(table)}", f"b.{_quote(schema)}.{_quote(table)}"
    result.rows_a = con.execute(f"select count(*) from {a}").fetchone()[0]
    result.rows_b = con.execute(f"select count(*) from {b}").fetchone()[0]
    if result.rows_a != result.rows_b:
        result.problem = f"row counts differ: {result.rows_a} vs {result.rows_b}"
        return result
    result.only_in_a = con.execute(f"select count(*) from (select * from {a} except all select * from {b})").fetchone()[0]
    result.only_in_b = con.execute(f"select count(*) from (select * from {b} except all select * from {a})").fetchone()[0]
    if result.only_in_a == result.only_in_b == 0:
        return result
    # Rows matched in sorted order (every other column first, doubles last), doubles compared with a tolerance.
    floats = [name for name, kind in columns_a if kind in FLOAT_TYPES]
    others = [name for name, kind in columns_a if kind not in FLOAT_TYPES]
    order = ", ".join(f"{_quote(name)} nulls first" for name in others + floats)
    conditions = [f"x.{_quote(name)} is distinct from y.{_quote(name)}" for name in others]
    for name in floats:
        x, y = f"x.{_quote(name)}", f"y.{_quote(name)}"
        conditions.append(
            f"(case when {x} is null or {y} is null then ({x} is null) <> ({y} is null) "
            f"when isnan({x}) or isnan({y}) then isnan({x}) <> isnan({y}) "
            f"when isinf({x}) or isinf({y}) then {x} <> {y} "
            f"else abs({x} - {y}) > {TOLERANCE} * greatest(1, abs({x})) end)")
    # the largest relative difference of finite values (nan and infinities are compared exactly above)
    relative = [f"coalesce(case when isfinite(x.{_quote(name)}) and isfinite(y.{_quote(name)}) then "
                f"abs(x.{_quote(name)} - y.{_quote(name)}) / greatest(1, abs(x.{_quote(name)})) end, 0)"
                for name in floats]
    largest = f"max(greatest({', '.join(relative)}))" if relative else "0"
    differing, largest_difference = con.execute(f"""
        with x as (select *, row_number() over (order by {order}) as row_number_ from {a}),
             y as (select *, row_number() over (order by {order}) as row_number_ from {b})
        select count(*) filter (where {' or '.join(conditions) or 'false'}), {largest}
        from x inner join y using (row_number_)
    """).fetchone()
    result.differing_within_tolerance = differing
    result.largest_difference = float(largest_difference or 0.0)
    return result


def compare_warehouses(path_a: Path, path_b: Path, schemas: list[str]) -> list[TableComparison]:
    """Compare every table of `schemas` between two DuckDB files (both opened read-only)."""
    con = duckdb.connect()
    con.execute(f"attach '{path_a}' as a (read_only)")
    con.execute(f"attach '{path_b}' as b (read_only)")
    comparisons = []
    for schema in schemas:
        tables_a, tables_b = _tables(con, "a", schema), _tables(con, "b", schema)
        for table in sorted(tables_a | tables_b):
            if table not in tables_a or table not in tables_b:
                side = "first" if table in tables_a else "second"
                comparisons.append(TableComparison(f"{schema}.{table}", problem=f"only in the {side} warehouse"))
            else:
                comparisons.append(compare_table(con, schema, table))
    con.close()
    return comparisons


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


def report(title: str, comparisons: list[TableComparison]) -> bool:
    print(f"== {title}: {len(comparisons)} tables")
    for comparison in comparisons:
        print("  " + comparison.line())
    same = all(comparison.identical for comparison in comparisons)
    print(f"== {title}: {'identical' if same else 'DIFFERENT'}")
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="git revision of the project before the change (e.g. main)")
    parser.add_argument("--after", type=Path, default=REPO, help="project folder after the change (default: this checkout)")
    parser.add_argument("--schema", action="append", default=None, help="schema to compare (repeatable; default audit)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"), help="only compare two warehouse files")
    parser.add_argument("--keep", type=Path, help="keep the built warehouses in this folder")
    args = parser.parse_args(argv)
    schemas = args.schema or ["audit"]
    if args.compare:
        return 0 if report(f"{args.compare[0]} vs {args.compare[1]}", compare_warehouses(*args.compare, schemas)) else 1
    if not args.before:
        parser.error("give --before REVISION (or --compare A B)")
    tmp = Path(tempfile.mkdtemp(prefix="biasmirror-compare-"))
    try:
        before = export_revision(args.before, tmp / "before_project")
        same = True
        for name, make_inputs in (("demo", demo_inputs), ("benchmark", benchmark_inputs)):
            inputs, variables = make_inputs(tmp)
            built_before = build_with(before, inputs, tmp / name / "before", variables)
            built_after = build_with(args.after.resolve(), inputs, tmp / name / "after", variables)
            same &= report(f"{name} data ({args.before} vs {args.after})",
                           compare_warehouses(built_before, built_after, schemas))
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(built_before, args.keep / f"{name}_before.duckdb")
                shutil.copyfile(built_after, args.keep / f"{name}_after.duckdb")
        return 0 if same else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
