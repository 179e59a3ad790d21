"""What `biasmirror build` (and `Warehouse.build()`) builds when asked for no particular selection: everything,
or, after pair imports alone, only the graph the imported pairs feed.

A full build runs every node of the project (cohorts, the empty MIMIC-IV and Bordeaux models, every mart). After
a full build, when the only writes since the last successful build are finished `import-pairs` runs, the marts
that can have changed are exactly the descendants of the two staging models of imported pairs; the rest of the
working copy is as the last build left it. The fast path builds those descendants (with their tests), with the
vars of the last full build, so that every mart keeps the same B, seed and confidence level. Anything else
written since (scoring, counterfactuals, `forget`, the implicit study), a warehouse never fully built, an
explicit selection or vars, or `full=True` gives the full build. Raw files changed on disk are not tracked:
rebuild with `--full` after replacing an extract.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import duckdb

from biasmirror.build_record import project_var_default
from biasmirror.warehouse.catalog import has_table

# The staging models of inference.imported_pairs and inference.imported_pair_strata: an import changes nothing else.
PAIR_IMPORT_SELECTION: tuple[str, ...] = ("stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+")
# What the records alone feed (the cohort and its flow, record strata, term frequencies, the model inputs of the
# originals): the first build of a new data set, before any counterfactual or prediction exists (`demo`).
RECORDS_SELECTION: tuple[str, ...] = ("+model_inputs", "+cohort_flow", "+int_cohort_records_stratified",
                                      "+term_frequencies")
# Models only a full build builds: a build that built them ran over the whole project.
_FULL_BUILD_MARKERS = ("triage_cohort", "paired_metrics", "model_inputs")
# The kind of run `import-pairs` records in inference.runs (biasmirror.imports.pairs).
PAIR_IMPORT_KIND = "import"


@dataclass(frozen=True)
class BuildPlan:
    """The selection a build runs (None: every node), the vars it adds, and why, in one sentence."""

    select: tuple[str, ...] | None
    variables: dict[str, Any] = field(default_factory=dict)
    reason: str = "a full build"

    @property
    def fast(self) -> bool:
        return self.select == PAIR_IMPORT_SELECTION


def plan_build(con: duckdb.DuckDBPyConnection | None) -> BuildPlan:
    """The plan of a build given no selection and no vars, from the working copy `con` (read-only; None when
    there is none yet)."""
    full = BuildPlan(None)
    if con is None or not has_table(con, "inference", "dbt_builds") or not has_table(con, "inference", "runs"):
        return BuildPlan(None, reason="a full build (the warehouse has never been built)")
    builds = con.execute("select models, vars, finished_at from inference.dbt_builds order by finished_at desc").fetchall()
    if not builds:
        return BuildPlan(None, reason="a full build (the warehouse has never been built)")
    last_finished = builds[0][2]
    last_full = next((row for row in builds if set(_FULL_BUILD_MARKERS) <= set(json.loads(row[0] or "[]"))), None)
    if last_full is None:
        return BuildPlan(None, reason="a full build (no full build yet)")
    pending = con.execute("select kind, status from inference.runs where started_at >= ? order by started_at",
                          [last_finished]).fetchall()
    if not pending:
        return BuildPlan(None, reason="a full build (nothing was written since the last build)")
    if any(kind != PAIR_IMPORT_KIND or status != "finished" for kind, status in pending):
        return full
    return BuildPlan(PAIR_IMPORT_SELECTION, _changed_vars(json.loads(last_full[1] or "{}")),
                     reason=f"only what {len(pending)} pair import(s) since the last build feed "
                            "(the rest is unchanged; full=True / --full rebuilds everything)")


def _changed_vars(recorded: dict[str, Any]) -> dict[str, Any]:
    """The vars of a recorded build that differ from dbt_project.yml's defaults (passing only those keeps dbt's
    parse cache valid across builds with the default vars)."""
    changed = {}
    for name, value in recorded.items():
        if name.endswith("_root"):  # a data set folder: the pairs' graph reads no raw file
            continue
        try:
            default = project_var_default(name)
        except KeyError:
            continue
        if value != default:
            changed[name] = value
    return changed
