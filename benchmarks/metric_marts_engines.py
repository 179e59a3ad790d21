"""Benchmark: the metric marts on PostgreSQL beside DuckDB, at the one-model scale of benchmarks/metric_marts.py.

Same data (metric_marts.generate_pairs: N pairs per setting x 3 settings, two strata columns, fixed seed), same
import (`biasmirror import-pairs`), same command (the scheduled job's `dbt build --select <metric marts>
--exclude-resource-type unit_test`, SELECTIONS["metric_marts"]), timed the same way (a subprocess, wall clock
with dbt's start-up, and run_results.json per node), once per engine, in the same run. Then every mart of the
two warehouses is compared (scripts/compare_marts.py --intervals se: point estimates to 1e-9, interval widths
within 5%).

PostgreSQL is the database the libpq variables name (PGHOST, PGPORT, PGUSER, PGDATABASE); it is emptied of the
project's schemas first. Run it against a throwaway cluster:

    eval "$(scripts/pg_throwaway.sh start /tmp/bench-pg)"; export PGHOST PGPORT PGUSER PGDATABASE
    .venv/bin/python benchmarks/metric_marts_engines.py [--pairs 150000] [--boot 1000]
    scripts/pg_throwaway.sh stop /tmp/bench-pg

Peak RSS is dbt's process only: PostgreSQL's work happens in its server processes, which are not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "scripts"))

from metric_marts import Warehouse, generate_pairs, log, machine, snapshot_project  # noqa: E402

PROJECT_SCHEMAS = ("inference", "staging", "intermediate", "audit", "reference", "dq_failures")


class PostgresWarehouse(Warehouse):
    """The same runner, with BIASMIRROR_TARGET=postgres: dbt's postgres output and the writers' PostgreSQL connection."""

    def __init__(self, folder: Path, project: Path, threads: int | None):
        super().__init__(folder, project, threads)
        self.env["BIASMIRROR_TARGET"] = "postgres"


def empty_postgres() -> None:
    import psycopg2

    from biasmirror.warehouse.postgres import connection_parameters

    params = {k: v for k, v in connection_parameters().items() if v is not None}
    with psycopg2.connect(**params) as con:
        con.autocommit = True
        with con.cursor() as cur:
            for schema in PROJECT_SCHEMAS:
                cur.execute(f"drop schema if exists {schema} cascade")


def prepare(cls: type[Warehouse], folder: Path, project: Path, pairs, threads: int | None) -> tuple[Warehouse, dict]:
    """metric_marts.prepare_warehouse for either engine: a full build of the empty project (so the models upstream
    of the selection exist), then the import; neither is measured."""
    wh = cls(folder, project, threads)
    parquet = folder / "pairs.parquet"
    pairs.to_parquet(parquet, index=False)
    setup_s, _ = wh.dbt("build", None, {"bootstrap_resamples": 10})
    import_s = wh.import_pairs(parquet)
    return wh, {"setup_build_s": setup_s, "import_s": import_s}


def check_engine(wh: Warehouse, engine: str) -> None:
    """The build ran on the engine it is said to (dbt's manifest names the adapter)."""
    adapter = json.loads((wh.target / "manifest.json").read_text())["metadata"].get("adapter_type")
    if adapter != engine:
        raise SystemExit(f"the {engine} build ran on {adapter}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=150_000, help="Pairs per setting (x 3 settings). Default 150000.")
    parser.add_argument("--boot", type=int, default=1000, help="Bootstrap resamples. Default 1000.")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    import compare_marts

    info = machine()
    log(f"machine: {info}")
    pairs = generate_pairs(args.pairs, args.seed)
    log(f"{len(pairs):,} pairs ({args.pairs:,} per setting), B = {args.boot}")
    results: dict = {"pairs_per_setting": args.pairs, "boot": args.boot, "machine": info}
    with tempfile.TemporaryDirectory(prefix="biasmirror-engines-") as tmp:
        project = snapshot_project(Path(tmp) / "project")
        empty_postgres()
        for engine, cls in (("duckdb", Warehouse), ("postgres", PostgresWarehouse)):
            started = time.perf_counter()
            wh, setup = prepare(cls, Path(tmp) / engine, project, pairs, args.threads)
            log(f"{engine}: setup build and import {time.perf_counter() - started:.0f} s [not measured]")
            build = wh.build(args.boot)
            check_engine(wh, engine)
            results[engine] = {"setup": setup, "build": build}
            log(f"{engine}: metric marts wall {build['wall_s']:.1f} s (SQL {build['sql_s']:.1f} s, dbt overhead "
                f"{build['overhead_s']:.1f} s, dbt CPU {build['cpu_s']:.1f} s), load {build['load1_before']:.1f}")
            log("  slowest: " + ", ".join(f"{k} {v:.1f} s" for k, v in list(build["nodes_s"].items())[:6]))
            if engine == "duckdb":
                duckdb_file = wh.path
        ratio = results["postgres"]["build"]["wall_s"] / results["duckdb"]["build"]["wall_s"]
        sql_ratio = results["postgres"]["build"]["sql_s"] / results["duckdb"]["build"]["sql_s"]
        results["ratio_wall_postgres_over_duckdb"] = ratio
        results["ratio_sql_postgres_over_duckdb"] = sql_ratio
        log(f"PostgreSQL / DuckDB: wall {ratio:.1f}x, SQL {sql_ratio:.1f}x")
        log("comparing the marts")
        env = {k: os.environ.get(k) for k in ("BIASMIRROR_TARGET",)}
        os.environ.pop("BIASMIRROR_TARGET", None)
        try:
            status = compare_marts.main([str(duckdb_file), "postgres", "--intervals", "se"])
        finally:
            for k, v in env.items():
                if v is not None:
                    os.environ[k] = v
        results["marts_agree"] = status == 0
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0 if results["marts_agree"] else 1


if __name__ == "__main__":
    sys.exit(main())
