"""Writing counterfactual copies of the cohort's test records into inference.counterfactuals.

A generator rewrites a record's texts as if the patient were of the other sex (the tabular sex field is
flipped in SQL, where the three settings are built). Runs are resumable and idempotent: records that already
have a row for (dataset, generator) are skipped, and each batch is committed in one transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from biasmirror.counterfactuals.rules import residual_terms, swap_sex
from biasmirror.progress import progress_bar, rate_text
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, finish_run, start_run, utc_now

OTHER_SEX = {"F": "M", "M": "F"}


@dataclass(frozen=True)
class Rewrite:
    hpi: str | None
    pmh: str | None
    status: str  # ok | flagged
    flag_reason: str | None
    n_replacements: int


class Rewriter(Protocol):
    name: str

    def rewrite(self, hpi: str | None, pmh: str | None, original_sex: str, language: str) -> Rewrite: ...


class RuleRewriter:
    """The deterministic lexicon swapper; flags a record when words of the original sex survive the swap."""

    name = "rules"

    def rewrite(self, hpi: str | None, pmh: str | None, original_sex: str, language: str) -> Rewrite:
        target = OTHER_SEX[original_sex]
        new_hpi = swap_sex(hpi, target, language)
        new_pmh = swap_sex(pmh, target, language)
        leftovers = residual_terms(new_hpi.text, original_sex, language) + residual_terms(new_pmh.text, original_sex, language)
        if leftovers:
            return Rewrite(new_hpi.text, new_pmh.text, "flagged",
                           f"{len(leftovers)} word(s) of the original sex left", new_hpi.replacements + new_pmh.replacements)
        return Rewrite(new_hpi.text, new_pmh.text, "ok", None, new_hpi.replacements + new_pmh.replacements)


GENERATORS: dict[str, type[RuleRewriter]] = {"rules": RuleRewriter}


@dataclass(frozen=True)
class CounterfactualRun:
    run_id: str
    generator: str
    written: int
    flagged: int
    skipped_existing: int


def pending_records(dataset: str, generator: str) -> tuple[pd.DataFrame, int]:
    """Test records of the cohort that have no counterfactual from this generator yet, and how many do."""
    with connect(read_only=True) as con:
        tables = {row[0] for row in con.execute(
            "select table_schema || '.' || table_name from information_schema.tables").fetchall()}
        if "audit.triage_cohort" not in tables:
            raise RuntimeError("The warehouse has no audit.triage_cohort: run `biasmirror build` first.")
        existing = 0
        if "inference.counterfactuals" in tables:
            existing = con.execute(
                "select count(*) from inference.counterfactuals where dataset = ? and generator = ?",
                [dataset, generator]).fetchone()[0]
            anti_join = ("and not exists (select 1 from inference.counterfactuals c where c.dataset = t.dataset "
                         "and c.record_id = t.record_id and c.generator = ?)")
            params = [dataset, generator]
        else:
            anti_join, params = "", [dataset]
        frame = con.execute(
            f"select dataset, record_id, language, sex, hpi, pmh from audit.triage_cohort t "
            f"where dataset = ? and split = 'test' {anti_join} order by record_id", params).df()
    return frame, existing


def generate_counterfactuals(dataset: str, generator: str = "rules", batch_size: int = 2000) -> CounterfactualRun:
    if generator not in GENERATORS:
        raise ValueError(f"Unknown generator {generator!r}; available: {', '.join(GENERATORS)}")
    rewriter = GENERATORS[generator]()
    records, existing = pending_records(dataset, generator)
    written = flagged = 0
    with connect() as con:
        ensure_inference_tables(con)
        run_id = start_run(con, "counterfactuals", {"generator": generator, "batch_size": batch_size},
                           dataset=dataset, generator=generator)
        started = time.perf_counter()
        with progress_bar() as bar:
            task = bar.add_task(f"counterfactuals ({generator})", total=len(records), rate="")
            for start in range(0, len(records), batch_size):
                batch = records.iloc[start:start + batch_size]
                rows = []
                for record in batch.itertuples(index=False):
                    result = rewriter.rewrite(record.hpi, record.pmh, record.sex, record.language)
                    rows.append({
                        "dataset": record.dataset, "record_id": record.record_id, "generator": generator,
                        "original_sex": record.sex, "counterfactual_sex": OTHER_SEX[record.sex],
                        "hpi": result.hpi, "pmh": result.pmh, "status": result.status,
                        "flag_reason": result.flag_reason, "n_replacements": result.n_replacements,
                        "run_id": run_id, "created_at": utc_now(),
                    })
                    flagged += result.status != "ok"
                con.begin()
                append_rows(con, "counterfactuals", pd.DataFrame(rows))
                con.commit()
                written += len(rows)
                bar.update(task, advance=len(rows),
                           rate=rate_text(written, time.perf_counter() - started, "records"))
        finish_run(con, run_id, written)
    return CounterfactualRun(run_id, generator, written, flagged, existing)
