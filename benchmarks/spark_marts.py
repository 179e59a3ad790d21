"""Benchmark: the metric marts on Apache Spark (local mode) beside DuckDB, in the same run (issue 24).

    .venv/bin/python benchmarks/spark_marts.py [--models 10] [--pairs 150000] [--boot 1000] [--json FILE]

1. DuckDB, as benchmarks/metric_marts.py's many-models configuration: a fresh warehouse, `--models` models'
   synthetic pairs (`--pairs` per setting, 3 settings, two strata columns) imported with `biasmirror import-pairs`,
   then the timed scheduled rebuild (everything downstream of the imported pairs, no unit tests) at B = `--boot`.
2. The warehouse's inference tables exported as Parquet (biasmirror.warehouse.spark_tables).
3. Spark, in this process (dbt-spark's session method): the timed `dbt build --target spark` of the project
   without unit tests. Spark's catalog is in memory, so this build makes every model, not only those downstream of
   the imports; the others read empty data sets and take seconds. Per-node times from run_results.json.
4. The physical plan of the slowest model (EXPLAIN FORMATTED in the build's session), written beside the JSON
   results, and the paired-metric point estimates of both engines compared (they must be equal).

Spark's parallelism is the engine's own: local[*] uses every core, and spark.sql.shuffle.partitions
(BIASMIRROR_SPARK_PARTITIONS, default 4 in profiles.yml) sets how many tasks each shuffle is cut into.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import metric_marts as mm  # noqa: E402  (a sibling script)


def duckdb_side(folder: Path, project: Path, args) -> tuple[mm.Warehouse, dict]:
    """The DuckDB warehouse with the imports, and its timed scheduled rebuild."""
    base = mm.generate_pairs(args.pairs, args.seed)
    wh = mm.Warehouse(folder, project, None)
    wh.dbt("build", None, {"bootstrap_resamples": 10})
    for index in range(args.models):
        path = folder / f"model{index:02d}.parquet"
        mm.model_predictions(base, index, args.seed).to_parquet(path, index=False)
        wh._run([str(mm.BIN / "biasmirror"), "import-pairs", str(path), "--dataset", mm.DATASET,
                 "--model", f"model{index:02d}"], "biasmirror import-pairs")
    mm.log(f"DuckDB: {args.models} models x 3 settings x {args.pairs} pairs imported")
    wh.parse(args.boot)
    build = wh.build(args.boot, "downstream")
    mm.log(f"DuckDB: scheduled rebuild {build['wall_s']:.1f} s wall (CPU {build['cpu_s']:.1f} s), "
           f"peak RSS {build['peak_rss_gib']:.2f} GiB")
    return wh, build


def spark_side(work: Path, project: Path, boot: int, selection: set[str]) -> dict:
    """The timed Spark build, in this process; per-node times and the slowest model's plan."""
    from dbt.cli.main import dbtRunner
    from pyspark.sql import SparkSession

    target = work / "target"
    args = ["build", "--project-dir", str(project), "--profiles-dir", str(project), "--target", "spark",
            "--target-path", str(target), "--log-path", str(work / "logs"), "--exclude-resource-type", "unit_test",
            "--vars", json.dumps({"bootstrap_resamples": boot})]
    started = time.perf_counter()
    result = dbtRunner().invoke(args)
    wall = time.perf_counter() - started
    if not result.success:
        raise SystemExit(f"Spark: the build failed (log: {work / 'logs' / 'dbt.log'})")
    run_results = json.loads((target / "run_results.json").read_text())
    nodes = sorted(((r["unique_id"].split(".")[-1], r["execution_time"]) for r in run_results["results"]
                    if r["unique_id"].startswith("model.")), key=lambda x: -x[1])
    # the nodes of DuckDB's scheduled rebuild (the models and tests downstream of the imports), run one at a time
    selection_s = sum(r["execution_time"] for r in run_results["results"] if r["unique_id"] in selection)
    session = SparkSession.builder.getOrCreate()
    slowest = nodes[0][0]
    compiled = next((target / "compiled").rglob(f"{slowest}.sql")).read_text()
    plan = session.sql("explain formatted " + compiled).collect()[0][0]
    metrics = session.table("audit.paired_metrics").select(
        "dataset", "model", "generator", "setting", "stratum_name", "stratum_value", "metric", "estimate", "ci_low",
        "ci_high").toPandas()
    return {"wall_s": wall, "selection_s": selection_s, "nodes_s": dict(nodes[:10]), "slowest": slowest, "plan": plan, "metrics": metrics,
            "shuffle_partitions": session.conf.get("spark.sql.shuffle.partitions"),
            "cores": session.sparkContext.defaultParallelism}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--pairs", type=int, default=150_000, help="pairs per setting and model")
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    json_path = args.json.resolve() if args.json else None  # before the chdir below
    from biasmirror.paths import project_dir
    from biasmirror.warehouse.spark_tables import export_inference_tables

    project = project_dir()
    with tempfile.TemporaryDirectory(prefix="biasmirror-spark-bench.") as tmp:
        work = Path(tmp)
        wh, duck = duckdb_side(work / "duckdb", project, args)
        rows = export_inference_tables(wh.path, work / "spark" / "tables")
        mm.log(f"Parquet: {sum(rows.values())} inference rows exported")
        os.environ.update(BIASMIRROR_TARGET="spark", BIASMIRROR_SPARK_TABLES=str(work / "spark" / "tables"),
                          BIASMIRROR_SPARK_WAREHOUSE=str(work / "spark" / "warehouse"),
                          DBT_SEND_ANONYMOUS_USAGE_STATS="false")
        os.chdir(work / "spark")
        selection = {r["unique_id"] for r in json.loads((wh.target / "run_results.json").read_text())["results"]}
        spark = spark_side(work / "spark", project, args.boot, selection)
        mm.log(f"Spark: build {spark['wall_s']:.1f} s wall, of which {spark['selection_s']:.1f} s in the nodes of DuckDB's "
               f"scheduled rebuild ({spark['cores']} cores, "
               f"{spark['shuffle_partitions']} shuffle partitions); slowest: "
               + ", ".join(f"{k} {v:.1f} s" for k, v in list(spark["nodes_s"].items())[:5]))
        keys = ["dataset", "model", "generator", "setting", "stratum_name", "stratum_value", "metric"]
        theirs = spark["metrics"].set_index(keys)
        ours = duckdb.connect(str(wh.path), read_only=True).execute(
            "select " + ", ".join(keys) + ", estimate, ci_low, ci_high from audit.paired_metrics").df().set_index(keys)
        joined = ours.join(theirs, how="outer", lsuffix="_duckdb", rsuffix="_spark")
        difference = float((joined["estimate_duckdb"] - joined["estimate_spark"]).abs().max())
        same = len(ours) == len(theirs) == len(joined) and difference < 1e-9
        # the draws differ (each engine's hash), so the intervals are compared by their summed widths, as the
        # Spark check does: here most cells hold thousands of pairs, the draws' large-n method
        width_ratio = float((joined["ci_high_spark"] - joined["ci_low_spark"]).sum()
                            / (joined["ci_high_duckdb"] - joined["ci_low_duckdb"]).sum())
        mm.log(f"paired_metrics: {len(joined)} estimates, largest difference {difference:.2e} "
               f"({'identical' if same else 'DIFFERENT'}); summed interval widths Spark / DuckDB {width_ratio:.4f}")
        result = {"models": args.models, "pairs_per_setting": args.pairs, "boot": args.boot,
                  "duckdb_wall_s": duck["wall_s"], "duckdb_cpu_s": duck["cpu_s"],
                  "duckdb_peak_rss_gib": duck["peak_rss_gib"], "duckdb_nodes_s": duck["nodes_s"],
                  "duckdb_sql_s": duck["sql_s"], "spark_wall_s": spark["wall_s"], "spark_selection_s": spark["selection_s"],
                  "spark_nodes_s": spark["nodes_s"], "spark_selection_over_duckdb": spark["selection_s"] / duck["wall_s"], "spark_cores": spark["cores"],
                  "shuffle_partitions": spark["shuffle_partitions"], "estimates_identical": same,
                  "largest_difference": difference, "interval_width_ratio": width_ratio, "machine": mm.machine()}
        if json_path:
            json_path.parent.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(result, indent=2))
            json_path.with_suffix(".plan.txt").write_text(f"-- {spark['slowest']}\n{spark['plan']}\n")
    return 0 if same and abs(width_ratio - 1) <= 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
