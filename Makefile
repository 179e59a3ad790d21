# biasmirror: `make demo` runs the whole audit on synthetic data; `make test` runs the test suite.
# Both create .venv on first use. torch is pinned first: an unpinned torch would pull a multi-GB CUDA build.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install benchmark clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[models,quality,dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/biasmirror demo

test: $(STAMP)
	$(BIN)/python -m pytest

benchmark: $(STAMP)
	$(BIN)/python benchmarks/metric_marts.py

clean:
	rm -rf target logs demo_data biasmirror.duckdb
