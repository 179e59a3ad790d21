"""Audit-layer gates over audit.paired_metrics: the metric identities of docs/metrics.md hold in every
group (data set, model, generator, setting, stratum), proportions are proportions, intervals are ordered. And
over audit.scoring_parity: every scoring run with a parity sample agrees with generate-and-parse at least as
often as the threshold (`--min-parity-agreement`, default 95%).

Identities (with n_m_to_f and n_f_to_m counted independently from audit.pair_outcomes and the pair strata):
  dts_m_to_f = p_up_m_to_f - p_down_m_to_f,  dts_f_to_m = p_up_f_to_m - p_down_f_to_m,
  nats_plus = p_up_f_to_m - p_up_m_to_f,     nats_minus = p_down_f_to_m - p_down_m_to_f,
  nats_plus - nats_minus = dts_f_to_m - dts_m_to_f,
  pooled_rate = (n_m_to_f dts_m_to_f - n_f_to_m dts_f_to_m) / N,
  pdr = (n_m_to_f (p_up_m_to_f + p_down_m_to_f) + n_f_to_m (p_up_f_to_m + p_down_f_to_m)) / N,
  n_pairs = n_m_to_f + n_f_to_m.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from biasmirror.quality.suites import Check, Skipped, a_at_least_b, between
from biasmirror.warehouse.catalog import has_table

TOLERANCE = 1e-9
GROUP = ["dataset", "model", "generator", "setting", "stratum_name", "stratum_value"]
PROPORTIONS = ("pdr", "p_up_m_to_f", "p_down_m_to_f", "p_up_f_to_m", "p_down_f_to_m")
SIGNED = ("dts_m_to_f", "dts_f_to_m", "nats_plus", "nats_minus", "pooled_rate")


def identity_gaps(metrics: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """One row per group: each identity's left side minus its right side (0 when it holds)."""
    wide = metrics.pivot_table(index=GROUP, columns="metric", values="estimate", aggfunc="first", dropna=False)
    n_pairs = metrics.groupby(GROUP)["n_pairs"].first()
    frame = wide.join(n_pairs).join(counts.set_index(GROUP), how="left").reset_index()
    for column in (*PROPORTIONS, *SIGNED, "nmd", "n_m_to_f", "n_f_to_m"):
        if column not in frame:
            frame[column] = np.nan
    n_mf = frame["n_m_to_f"].fillna(0)
    n_fm = frame["n_f_to_m"].fillna(0)
    total = n_mf + n_fm

    def weighted(n: pd.Series, value: pd.Series) -> pd.Series:
        return np.where(n > 0, n * value, 0.0)

    gaps = pd.DataFrame({column: frame[column] for column in GROUP})
    gaps["n_pairs"] = frame["n_pairs"]
    gaps["gap_dts_m_to_f"] = frame["dts_m_to_f"] - (frame["p_up_m_to_f"] - frame["p_down_m_to_f"])
    gaps["gap_dts_f_to_m"] = frame["dts_f_to_m"] - (frame["p_up_f_to_m"] - frame["p_down_f_to_m"])
    gaps["gap_nats_plus"] = frame["nats_plus"] - (frame["p_up_f_to_m"] - frame["p_up_m_to_f"])
    gaps["gap_nats_minus"] = frame["nats_minus"] - (frame["p_down_f_to_m"] - frame["p_down_m_to_f"])
    gaps["gap_nats_dts"] = (frame["nats_plus"] - frame["nats_minus"]) - (frame["dts_f_to_m"] - frame["dts_m_to_f"])
    gaps["gap_pooled_rate"] = frame["pooled_rate"] - (
        weighted(n_mf, frame["dts_m_to_f"]) - weighted(n_fm, frame["dts_f_to_m"])) / total.where(total > 0)
    gaps["gap_pdr"] = frame["pdr"] - (
        weighted(n_mf, frame["p_up_m_to_f"] + frame["p_down_m_to_f"])
        + weighted(n_fm, frame["p_up_f_to_m"] + frame["p_down_f_to_m"])) / total.where(total > 0)
    gaps["gap_n_pairs"] = frame["n_pairs"] - total
    for column in (*PROPORTIONS, *SIGNED, "nmd"):
        gaps[column] = frame[column]
    return gaps


def audit_checks(con: duckdb.DuckDBPyConnection) -> tuple[list[Check], list[Skipped]]:
    if not (has_table(con, "audit", "paired_metrics") and has_table(con, "audit", "pair_outcomes")
            and has_table(con, "intermediate", "int_pair_strata")):
        return [], [Skipped("audit", "paired_metrics", "the warehouse has no audit.paired_metrics: run `biasmirror build`")]
    metrics = con.execute(f"select {', '.join(GROUP)}, metric, estimate, ci_low, ci_high, n_pairs "
                          "from audit.paired_metrics").df()
    if metrics.empty:
        return [], [Skipped("audit", "paired_metrics", "audit.paired_metrics has no pairs yet")]
    counts = con.execute("""
        select s.dataset, s.model, s.generator, s.setting, s.stratum_name, s.stratum_value,
               sum(case when p.direction = 'm_to_f' then 1 else 0 end) as n_m_to_f,
               sum(case when p.direction = 'f_to_m' then 1 else 0 end) as n_f_to_m
        from intermediate.int_pair_strata s
        inner join audit.pair_outcomes p using (dataset, model, generator, setting, pair_id)
        group by s.dataset, s.model, s.generator, s.setting, s.stratum_name, s.stratum_value
    """).df()
    gaps = identity_gaps(metrics, counts)
    identities = [between(column, -TOLERANCE, TOLERANCE, rule) for column, rule in (
        ("gap_dts_m_to_f", "dts_m_to_f = p_up_m_to_f - p_down_m_to_f"),
        ("gap_dts_f_to_m", "dts_f_to_m = p_up_f_to_m - p_down_f_to_m"),
        ("gap_nats_plus", "nats_plus = p_up_f_to_m - p_up_m_to_f"),
        ("gap_nats_minus", "nats_minus = p_down_f_to_m - p_down_m_to_f"),
        ("gap_nats_dts", "nats_plus - nats_minus = dts_f_to_m - dts_m_to_f"),
        ("gap_pooled_rate", "pooled_rate = (n_m_to_f dts_m_to_f - n_f_to_m dts_f_to_m) / N"),
        ("gap_pdr", "pdr = share of pairs that moved, from the per-direction up and down shares"),
        ("gap_n_pairs", "n_pairs = pairs counted in audit.pair_outcomes for the group"),
    )]
    ranges = [between(column, 0, 1, f"{column} is a proportion in [0, 1]") for column in PROPORTIONS]
    ranges += [between(column, -1, 1, f"{column} is in [-1, 1]") for column in SIGNED]
    ranges.append(between("nmd", -4, 4, "nmd is a difference of levels 1-5, within [-4, 4]"))
    intervals = metrics[[*GROUP, "metric", "estimate", "ci_low", "ci_high"]]
    return [
        Check("audit", "paired_metrics.identities", "audit.paired_metrics", gaps, identities + ranges),
        Check("audit", "paired_metrics.intervals", "audit.paired_metrics", intervals,
              [a_at_least_b("ci_high", "ci_low", "every confidence interval has ci_low <= ci_high")]),
    ], []


DEFAULT_MIN_PARITY_AGREEMENT = 0.95


def scoring_parity_checks(con: duckdb.DuckDBPyConnection,
                          min_agreement: float = DEFAULT_MIN_PARITY_AGREEMENT) -> tuple[list[Check], list[Skipped]]:
    """Label-probability scoring agrees with the study's generate-and-parse in every checked run. A warehouse with
    no parity sample (classifiers only, or LMs scored on vLLM) has nothing to gate."""
    checked = has_table(con, "inference", "scoring_parity_checks") and bool(
        con.execute("select count(*) from inference.scoring_parity_checks").fetchone()[0])
    if not checked:
        return [], []
    if not has_table(con, "audit", "scoring_parity"):
        return [], [Skipped("audit", "scoring_parity", "the warehouse has no audit.scoring_parity: run `biasmirror build`")]
    frame = con.execute("select dataset, model, run_id, n_checked, agreement, unparseable_share, mean_label_mass "
                        "from audit.scoring_parity where n_checked > 0 order by dataset, model, run_id").df()
    if frame.empty:
        return [], [Skipped("audit", "scoring_parity", "audit.scoring_parity is older than the parity checks: run "
                            "`biasmirror build`")]
    return [Check("audit", "scoring_parity", "audit.scoring_parity", frame, [
        between("agreement", min_agreement, 1, f"label-probability argmax agrees with generate-and-parse on at "
                f"least {min_agreement:.0%} of each run's parity sample"),
    ])], []
