#!/usr/bin/env bash
# `make test-spark`: the Spark check (scripts/spark_check.py) in a temporary folder that holds the synthetic data,
# the DuckDB warehouse, Spark's Parquet tables, its warehouse folder and its scratch files (metastore, derby.log,
# spark-warehouse); removed on exit, whether the check passes or not. Extra arguments go to the check.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
work=$(mktemp -d /tmp/biasmirror-spark.XXXXXX)
trap 'rm -rf "$work"' EXIT
unset BIASMIRROR_TARGET
# With the spark extra installed, Great Expectations must still import in a process whose main module is not a
# file (pyproject.toml's spark extra says why): a silent exit 0 here would print nothing.
"$python" -c "import great_expectations; print('great_expectations imports beside pyspark')" 2>/dev/null \
  | grep -q "imports beside pyspark" || { echo "Great Expectations exits on import beside pyspark (pyproject.toml, spark extra)"; exit 1; }
"$python" scripts/spark_check.py --work "$work" "$@"
