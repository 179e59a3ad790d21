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
"$python" scripts/spark_check.py --work "$work" "$@"
