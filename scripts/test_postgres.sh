#!/usr/bin/env bash
# `make test-postgres`: the cross-engine check (scripts/cross_engine_check.py) against a throwaway PostgreSQL
# cluster in a temporary folder, listening on a unix socket only; the cluster is stopped and every temporary
# file removed on exit, whether the check passes or not. Extra arguments go to the check (e.g. --stays 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
cluster=$(mktemp -d /tmp/biasmirror-pg.XXXXXX)
work=$(mktemp -d /tmp/biasmirror-xe.XXXXXX)
cleanup() {
  scripts/pg_throwaway.sh stop "$cluster" || true
  rm -rf "$cluster" "$work"
}
trap cleanup EXIT
eval "$(scripts/pg_throwaway.sh start "$cluster")"
export PGHOST PGPORT PGUSER PGDATABASE
unset BIASMIRROR_TARGET PGPASSWORD
"$python" scripts/cross_engine_check.py --work "$work" "$@"
