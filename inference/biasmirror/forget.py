"""Forgetting a data set, a model or a counterfactual generator: `biasmirror forget` and `Warehouse.forget`.

What is removed, from the `inference` tables of the working copy, in one transaction recorded as a `forget` run:

- `--dataset D`: every row of D: its predictions, repeated predictions, parity checks and triage models, its
  imported pairs and their strata, its counterfactual copies with their checks, similarities and reviews, its
  registered raw-data folder and the raw row counts remembered for it, its audit history, its runs, and the LLM
  failures and cached LLM answers of those runs. The implicit-bias study's runs are recorded under data set `implicit`:
  forgetting `implicit` removes that study's answers too;
- `--dataset D --model M`: what model M wrote for D (the tables keyed by model: predictions, repeated
  predictions, parity checks, the triage model's record, imported pairs and strata) and its audit history, M's
  runs on D with their LLM failures and cached answers; for `implicit`, model M's answers to the implicit-bias study;
- `--dataset D --generator G`: generator G's copies of D's records (with their checks, similarities and
  reviews) and its audit history, G's runs on D, and those runs' LLM failures and cached answers. A placebo
  generator is its own generator (`G-placebo`).

Model and generator select different tables (predictions are not kept per generator), so they are not combined.
The marts are derived data: the next full build (`biasmirror build`, or a plain `dbt build`) rebuilds them
without the forgotten rows and publishes the result. `forget` runs (the record of what was removed) are kept.
`inference.dbt_builds` (a log of builds) holds no data set's rows and is not touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb
import pandas as pd

from biasmirror.warehouse import connect
from biasmirror.warehouse.catalog import table_names
from biasmirror.warehouse.contract import SCHEMA, ensure_inference_tables
from biasmirror.warehouse.runs import recorded_run
from biasmirror.warehouse.writes import delete_rows

# The study whose runs are recorded under this data set name (biasmirror.implicit).
IMPLICIT_DATASET = "implicit"
# Tables keyed by (dataset, model): what a triage model (trained here, or whose pairs were imported) wrote.
MODEL_TABLES = ("predictions", "prediction_repeats", "scoring_parity_checks", "triage_models", "imported_pairs",
                "imported_pair_strata")
# Tables keyed by (dataset, generator): counterfactual copies and what was measured or judged about them.
GENERATOR_TABLES = ("counterfactuals", "counterfactual_checks", "counterfactual_similarity", "counterfactual_reviews")
# Tables keyed by dataset alone: the registered raw-data folder and the raw row counts of earlier builds.
DATASET_TABLES = ("dataset_roots", "raw_source_counts")
# The implicit-bias study's answers, keyed by model (their runs carry the data set name `implicit`).
IMPLICIT_TABLES = ("implicit_association_responses", "implicit_association_assignments",
                   "implicit_allocation_responses", "implicit_explicit_answers")
# The audit across builds (appended by each build's on-run-end hook), keyed by data set, model and generator.
HISTORY_TABLES = ("audit_history",)
# Tables reached through the forgotten runs: the run manifest itself, failed LLM requests, cached LLM answers.
RUN_TABLES = ("runs", "llm_failures", "llm_responses")
# Left alone, with the reason.
KEPT_TABLES = {"dbt_builds": "a log of builds (vars, models, times), not rows of any data set"}
KIND = "forget"


class ForgetError(ValueError):
    """A forget request that cannot be carried out as given (empty names, model and generator together)."""


class NothingToForget(LookupError):
    """The warehouse holds no row of the selection; the message lists what it holds."""


@dataclass(frozen=True)
class Selection:
    """What to forget: a data set, optionally narrowed to one model or one generator."""

    dataset: str
    model: str | None = None
    generator: str | None = None

    def __post_init__(self) -> None:
        for name, value in (("dataset", self.dataset), ("model", self.model), ("generator", self.generator)):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ForgetError(f"--{name} must not be empty")
        if self.dataset is None:
            raise ForgetError("--dataset is required")
        if self.model is not None and self.generator is not None:
            raise ForgetError("--model and --generator select different tables (a model's predictions are not kept "
                              "per generator): forget the model and the generator in two commands")

    def describe(self) -> str:
        parts = [f"data set {self.dataset!r}"]
        if self.model is not None:
            parts.append(f"model {self.model!r}")
        if self.generator is not None:
            parts.append(f"generator {self.generator!r}")
        return ", ".join(parts)


@dataclass(frozen=True)
class ForgetResult:
    """Rows per inference table that were removed (or, for a dry run, would be), and the forget run's id."""

    selection: Selection
    removed: dict[str, int]
    run_id: str | None

    @property
    def total(self) -> int:
        return sum(self.removed.values())

    def frame(self) -> pd.DataFrame:
        """One row per table with rows to remove: `table`, `rows`."""
        return pd.DataFrame([{"table": f"{SCHEMA}.{name}", "rows": n} for name, n in self.removed.items() if n],
                            columns=["table", "rows"])


def _predicates(selection: Selection) -> dict[str, tuple[str, list[Any]]]:
    """table -> (where clause, parameters) of the rows to forget, for every table the selection reaches (in the
    order they are deleted: the runs-dependent tables before the runs themselves)."""
    d, m, g = selection.dataset, selection.model, selection.generator
    where: dict[str, tuple[str, list[Any]]] = {}
    if m is not None:
        runs = ("dataset = ? and model = ? and kind <> ?", [d, m, KIND])
        for table in (*MODEL_TABLES, *HISTORY_TABLES):
            where[table] = ("dataset = ? and model = ?", [d, m])
        if d == IMPLICIT_DATASET:
            for table in IMPLICIT_TABLES:
                where[table] = ("model = ?", [m])
    elif g is not None:
        runs = ("dataset = ? and generator = ? and kind <> ?", [d, g, KIND])
        for table in (*GENERATOR_TABLES, *HISTORY_TABLES):
            where[table] = ("dataset = ? and generator = ?", [d, g])
    else:
        runs = ("dataset = ? and kind <> ?", [d, KIND])
        for table in (*MODEL_TABLES, *GENERATOR_TABLES, *DATASET_TABLES, *HISTORY_TABLES):
            where[table] = ("dataset = ?", [d])
        if d == IMPLICIT_DATASET:
            for table in IMPLICIT_TABLES:
                where[table] = ("true", [])
    run_ids = (f"run_id in (select run_id from {SCHEMA}.runs where {runs[0]})", runs[1])
    # failed LLM requests of the forgotten runs (the rewriter's, the implicit study's), and, for a whole data set,
    # every failure recorded for one of its items
    where["llm_failures"] = (f"dataset = ? or {run_ids[0]}", [d, *run_ids[1]]) if m is None and g is None else run_ids
    where["llm_responses"] = run_ids
    where["runs"] = runs
    return where


def _existing_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return table_names(con, SCHEMA)


def _count(con: duckdb.DuckDBPyConnection, selection: Selection) -> dict[str, int]:
    existing = _existing_tables(con)
    return {table: (con.execute(f"select count(*) from {SCHEMA}.{table} where {clause}", params).fetchone()[0]
                    if table in existing else 0)
            for table, (clause, params) in _predicates(selection).items()}


def _held(con: duckdb.DuckDBPyConnection, selection: Selection) -> str:
    """What the inference tables hold, to list beside a selection that matched nothing."""
    existing = _existing_tables(con)

    def distinct(column: str, tables: tuple[str, ...], dataset: str | None = None) -> list[str]:
        # the forget runs themselves name what was forgotten: they are not rows the warehouse holds
        parts = [f"select {column} as v from {SCHEMA}.{t} where "
                 + ("kind <> 'forget'" if t == "runs" else "true") + (" and dataset = ?" if dataset is not None else "")
                 for t in tables if t in existing]
        if not parts:
            return []
        params = [dataset] * len(parts) if dataset is not None else []
        return [row[0] for row in con.execute(
            f"select distinct v from ({' union all '.join(parts)}) as held where v is not null order by v",
            params).fetchall()]

    datasets = distinct("dataset", (*MODEL_TABLES, *GENERATOR_TABLES, *DATASET_TABLES, "runs"))
    if selection.dataset not in datasets:
        return f"data sets there: {', '.join(map(repr, datasets)) or 'none'}"
    if selection.model is not None:
        models = distinct("model", MODEL_TABLES + ("runs",), selection.dataset)
        return f"models of {selection.dataset!r} there: {', '.join(map(repr, models)) or 'none'}"
    generators = distinct("generator", GENERATOR_TABLES + ("runs",), selection.dataset)
    return f"generators of {selection.dataset!r} there: {', '.join(map(repr, generators)) or 'none'}"


def plan(selection: Selection) -> ForgetResult:
    """The rows `forget` would remove (nothing is changed). Reads the working copy under the writer lock (the
    state writers see: everything imported or scored since the last build too). Raises NothingToForget."""
    with connect(read_only=True, working=True) as con:
        counts = _count(con, selection)
        if not sum(counts.values()):
            raise NothingToForget(f"Nothing to forget: the warehouse holds no rows of {selection.describe()}; "
                                  f"{_held(con, selection)}.")
    return ForgetResult(selection, counts, None)


def forget(selection: Selection) -> ForgetResult:
    """Remove the selection's rows from the inference tables of the working copy, in one transaction recorded
    as a `forget` run (its parameters list the rows removed per table). Raises NothingToForget."""
    with connect() as con:
        ensure_inference_tables(con)
        counts = _count(con, selection)
        if not sum(counts.values()):
            raise NothingToForget(f"Nothing to forget: the warehouse holds no rows of {selection.describe()}; "
                                  f"{_held(con, selection)}.")
        con.begin()
        # the run row commits with the deletions, or not at all
        with recorded_run(KIND, {"model": selection.model, "generator": selection.generator}, connection=con,
                          dataset=selection.dataset, model=selection.model, generator=selection.generator) as run:
            removed = {}
            for table, (clause, params) in _predicates(selection).items():
                if counts[table]:
                    removed[table] = delete_rows(con, table, clause, params)
                else:
                    removed[table] = 0
            run.n_items = sum(removed.values())
            run.details = {"removed": {table: n for table, n in removed.items() if n}}
        con.commit()
    return ForgetResult(selection, removed, run.run_id)
