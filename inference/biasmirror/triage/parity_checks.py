"""The parity check of a scoring run, stored in the warehouse (inference.scoring_parity_checks).

Label-probability scoring reads one forward pass; the study read a level from greedy generation. On a sample of
the inputs a run scores, both are computed and stored per input (the argmax level, the parsed level or null
when the generation did not parse, the label mass), so audit.scoring_parity can report per model and run the
agreement, the unparseable share and the probability mass on the label tokens, and `biasmirror check` can fail
a run whose agreement is too low. The generated text itself is not stored.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from biasmirror.progress import progress_bar
from biasmirror.triage.causal_lm_scoring import LabelScorer, ParityReport
from biasmirror.warehouse.runs import update_run_details
from biasmirror.warehouse.connection import connect
from biasmirror.warehouse.contract import ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now


def parity_sample(pending: pd.DataFrame, n: int, seed: int = 0) -> pd.DataFrame:
    """A reproducible random sample of at most n of a run's pending inputs (input_id, input_text)."""
    if n <= 0 or pending.empty:
        return pending.head(0)
    return pending.sample(n=min(n, len(pending)), random_state=seed).sort_values("input_id")


def check_parity(scorer: LabelScorer, sample: pd.DataFrame, dataset: str, model: str, run_id: str,
                 batch_size: int = 16) -> ParityReport:
    """Run both inferences on the sample, store one row per input and the totals in the run's parameters."""
    with progress_bar() as bar:
        task = bar.add_task(f"parity check ({model})", total=2 * len(sample), rate="")
        report = scorer.parity(sample["input_text"].tolist(), batch_size=batch_size,
                               progress=lambda n: bar.update(task, advance=n))
    rows = pd.DataFrame({
        "dataset": dataset, "model": model, "run_id": run_id, "input_id": sample["input_id"].tolist(),
        "scored_level": list(report.scored_levels),
        "generated_level": pd.array(list(report.generated_levels), dtype="Int64"),
        "label_mass": list(report.label_mass), "checked_at": utc_now(),
    })
    summary: dict[str, Any] = {"n": report.n, "agreeing": report.agreeing, "unparseable": report.unparseable}
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        try:
            con.execute("delete from inference.scoring_parity_checks where dataset = ? and model = ? and run_id = ?",
                        [dataset, model, run_id])
            append_rows(con, "scoring_parity_checks", rows)
            update_run_details(con, run_id, {"parity": summary})
        except BaseException:
            con.rollback()
            raise
        con.commit()
    return report
