"""The Spark check (`make test-spark`): the demo audit built on Apache Spark (local mode, in this process) must give
the marts the same audit gives on DuckDB.

    python scripts/spark_check.py --work DIR [--stays 1500] [--visits 800] [--resamples 1000]

1. Synthetic MIMIC-IV files and a synthetic Bordeaux extract under DIR (as scripts/cross_engine_check.py).
2. DuckDB, as a user runs it (cross_engine_check.build_duckdb): the cohorts from the files, the Python commands
   (rule-based counterfactuals and placebo, a TF-IDF + random-forest model trained and scored, pairs imported with
   a stratum, a simulated implicit-bias study), then the whole project.
3. The tables Spark reads, as Parquet folders under DIR/spark/tables (biasmirror.warehouse.spark_tables): both
   data sets loaded from their files as a loading step would (mimiciv_ed.edstays, ..., bordeaux.visits), and the
   inference tables the Python commands wrote on DuckDB.
4. Spark: one `dbt build --target spark` of the whole project (unit tests and data tests included), with the data
   sets read from those tables (vars mimic_source, bordeaux_source: tables) and the tables registered by the
   on-run-start hook (BIASMIRROR_SPARK_TABLES). Spark's catalog lives in memory for the invocation: the marts are
   read from the same session afterwards and written as Parquet under DIR/spark/marts.
5. Every compiled model of the Spark build parses with sqlglot's spark dialect.
6. scripts/compare_marts.py compares every table of the audit schema: point estimates to 1e-9, intervals by
   their widths within 5% (Spark's hash function differs, so do its bootstrap draws: docs/engines.md); the run
   ids and answer times are left out.

Exit status 0 when every step passes. Needs Java 17 and the `spark` extra (`make test-spark` installs both).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cross_engine_check  # noqa: E402  (a sibling script)

log = cross_engine_check.log
MART_SCHEMAS = ("audit",)


def spark_env(work: Path) -> dict[str, str | None]:
    folder = work / "spark"
    folder.mkdir(parents=True, exist_ok=True)
    return {"BIASMIRROR_TARGET": "spark", "BIASMIRROR_SPARK_TABLES": str(folder / "tables"),
            "BIASMIRROR_SPARK_WAREHOUSE": str(folder / "warehouse"), "BIASMIRROR_MIMIC_ROOT": None,
            "BIASMIRROR_WAREHOUSE": str(folder / "unused.duckdb"), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}


def export_tables(work: Path, duckdb_file: Path) -> None:
    from biasmirror.warehouse.spark_tables import export_inference_tables, load_dataset_tables

    root = work / "spark" / "tables"
    for dataset in ("mimic", "bordeaux"):
        for table, rows in load_dataset_tables(dataset, work / dataset, root).items():
            log(f"Parquet: {table} ({rows} rows)")
    written = export_inference_tables(duckdb_file, root)
    log(f"Parquet: {len(written)} inference tables ({sum(written.values())} rows) from the DuckDB warehouse")


def build_spark(work: Path, variables: dict) -> None:
    """`dbt build --target spark` of the whole project, in this process (the session outlives it)."""
    from biasmirror.paths import project_dir
    from dbt.cli.main import dbtRunner

    project = str(project_dir())
    target = work / "spark" / "target"
    args = ["build", "--project-dir", project, "--profiles-dir", project, "--target", "spark",
            "--target-path", str(target), "--log-path", str(work / "spark" / "logs"),
            "--vars", json.dumps({**variables, "mimic_source": "tables", "bordeaux_source": "tables"})]
    started = time.monotonic()
    result = dbtRunner().invoke(args)
    log(f"Spark: dbt build {'succeeded' if result.success else 'FAILED'} in {time.monotonic() - started:.0f} s")
    if not result.success:
        raise SystemExit("Spark: the build failed (its log: " + str(work / "spark" / "logs" / "dbt.log") + ")")


def export_marts(work: Path) -> Path:
    """Every table and view of the mart schemas, read from the build's Spark session, as Parquet folders."""
    from pyspark.sql import SparkSession

    session = SparkSession.builder.getOrCreate()
    out = work / "spark" / "marts"
    for schema in MART_SCHEMAS:
        names = [row.tableName for row in session.sql(f"show tables in {schema}").collect() if not row.isTemporary]
        for name in names:
            session.table(f"{schema}.{name}").write.mode("overwrite").parquet(str(out / schema / name))
        log(f"Spark: {len(names)} tables and views of {schema} exported to {out / schema}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cross_engine_check.add_data_arguments(parser)
    args = parser.parse_args(argv)
    work = cross_engine_check.write_check_data(args)
    variables = cross_engine_check.check_variables(args.resamples)
    duckdb_file = cross_engine_check.build_duckdb(work, variables)
    export_tables(work, duckdb_file)
    with cross_engine_check.environment(**spark_env(work)):
        os.chdir(work / "spark")  # Spark writes its scratch files (spark-warehouse, derby.log) here, not in the repository
        build_spark(work, variables)
        marts = export_marts(work)
    n = cross_engine_check.parse_compiled(work / "spark" / "target", "spark")
    log(f"sqlglot: {n} compiled models of the Spark build parse as spark")
    import compare_marts

    log("comparing every mart")
    return compare_marts.main([str(duckdb_file), f"spark:{marts}", "--intervals", "se",
                               "--ignore-columns", cross_engine_check.MART_RUN_COLUMNS])


if __name__ == "__main__":
    sys.exit(main())
