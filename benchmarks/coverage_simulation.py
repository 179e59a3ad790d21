"""Coverage simulation: how often the audit's published intervals contain the true value.

Many data sets are drawn from a known model of pairs, imported with the real `import-pairs` code into one fresh
warehouse and audited by the real `dbt build` (the same SQL bootstrap, B = 1000 by default). For every interval
of audit.paired_metrics (each model's metrics) and audit.metric_comparisons (the paired difference between two
models of the same pairs), the script checks whether it contains the value the data-generating model implies,
and reports coverage with its Monte Carlo standard error, overall and among the intervals the audit does NOT
flag (is_sparse), and the share flagged. The nominal level is 95%; the issue asks >= 0.93 wherever an interval
is shown unflagged.

Design (see docs/intervals.md for the results):
- Configurations: n pairs per data set in {150, 1000, 3000} x change rate in {0.005, 0.05}; each data set holds
  two models scoring the same pairs, so that their difference is a paired comparison. Sexes are random (half
  male originals); original levels 2-4 and moves of one level, so no level is ever clipped.
  model a: a pair's copy changes level with probability p; a male original's (female) copy moves to the less
  severe level with probability 0.65, a female original's copy with probability 0.35.
  model b: agrees with model a on a pair with probability 0.7, else draws its own change (probability p, no sex
  effect), so b is strongly correlated with a and differs from it by a known amount.
- Clustered configurations (patients, not visits): n in {1000, 3000}, p = 0.05; each patient has 1 + Poisson(2)
  visits (pairs), and a patient-level propensity g ~ Gamma(shape 0.3, mean 1) multiplies the change probability
  of all their pairs (min(1, p g)): changes cluster within patients. They are audited twice, resampling patients
  (var bootstrap_unit = 'patient', the default when a patient_id column is imported) and resampling pairs
  (bootstrap_unit = 'pair'), to show why the cluster bootstrap is the default.
- Patients without correlation (control): the same patients and visits, but g = 1 for everyone, so visits are
  independent although patients are known; also audited both ways, to show what the cluster bootstrap costs when
  it is not needed.
- Each simulated data set is one value of an imported stratum column (stratum_sim), which the audit resamples on
  its own, exactly as it would a separate data set; a configuration is one imported data set of 200 such strata.
  This keeps the import to a few files; the rows of stratum 'overall' (all data sets together) are ignored.

Usage:  .venv/bin/python benchmarks/coverage_simulation.py                 # 200 data sets per configuration
        .venv/bin/python benchmarks/coverage_simulation.py --datasets 40   # quicker, wider Monte Carlo error
        .venv/bin/python benchmarks/coverage_simulation.py --json out.json --rule-grid 0,5,10,15,20,30
        .venv/bin/python benchmarks/coverage_simulation.py --configs pat_n1000_p005,pat_n3000_p005   # some only
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd
from scipy import stats
from biasmirror.paths import scoped_env

METRICS = ("pdr", "p_up_m_to_f", "p_down_m_to_f", "p_up_f_to_m", "p_down_f_to_m", "dts_m_to_f", "dts_f_to_m",
           "nats_plus", "nats_minus", "nmd", "pooled_rate")
UP_M, UP_F = 0.65, 0.35      # model a: P(copy moves to the less severe level | it moves), by original sex
AGREE = 0.7                   # model b: P(same state as model a)
FRAILTY_SHAPE = 0.3           # clustered configurations: patient propensity g ~ Gamma(0.3, scale 1/0.3)


@dataclass(frozen=True)
class Config:
    n: int
    p: float
    clustered: bool = False
    correlated: bool = True  # clustered only: whether a patient propensity makes their visits change together

    @property
    def name(self) -> str:
        kind = ('clu' if self.correlated else 'pat') if self.clustered else 'ind'
        return f"{kind}_n{self.n}_p{str(self.p).replace('.', '')}"


def change_probability(config: Config) -> float:
    """P(a pair's copy changes level) in model a: p, or E[min(1, p g)] when changes cluster within patients."""
    if not config.clustered or not config.correlated:
        return config.p
    g = stats.gamma(FRAILTY_SHAPE, scale=1 / FRAILTY_SHAPE)
    cap = 1 / config.p
    # E[min(p g, 1)] = p E[g; g < 1/p] + P(g >= 1/p)
    partial_mean = stats.gamma(FRAILTY_SHAPE + 1, scale=1 / FRAILTY_SHAPE).cdf(cap)  # E[g 1(g<c)] / E[g], E[g] = 1
    return config.p * partial_mean + g.sf(cap)


def true_values(config: Config) -> dict[str, dict[str, float]]:
    """The population value of every metric for model a, model b and the difference b - a."""
    q = change_probability(config)
    # P(up), P(down) of male originals, then of female originals
    rates = {"a": (UP_M * q, (1 - UP_M) * q, UP_F * q, (1 - UP_F) * q)}
    # model b: model a's state with probability AGREE, else its own change (probability q) up or down evenly
    rates["b"] = tuple(AGREE * x + (1 - AGREE) * 0.5 * q for x in rates["a"])
    values = {}
    for model, (u_m, d_m, u_f, d_f) in rates.items():
        values[model] = {
            "pdr": 0.5 * (u_m + d_m) + 0.5 * (u_f + d_f),
            "p_up_m_to_f": u_m, "p_down_m_to_f": d_m, "p_up_f_to_m": u_f, "p_down_f_to_m": d_f,
            "dts_m_to_f": u_m - d_m, "dts_f_to_m": u_f - d_f, "nats_plus": u_f - u_m, "nats_minus": d_f - d_m,
            "nmd": 0.5 * (u_m - d_m) - 0.5 * (u_f - d_f),
        }
        values[model]["pooled_rate"] = values[model]["nmd"]  # every move is one level
    values["difference"] = {m: values["b"][m] - values["a"][m] for m in METRICS}
    return values


def simulate(config: Config, datasets: int, rng: np.random.Generator) -> dict[str, pd.DataFrame]:
    """The pairs of both models, one row per pair, stratum_sim = the simulated data set."""
    n_total = config.n * datasets
    sim = np.repeat(np.arange(datasets), config.n)
    if config.clustered:
        # patients of 1 + Poisson(2) visits, filled data set by data set
        patient = np.empty(n_total, dtype=np.int64)
        next_id = 0
        for d in range(datasets):
            sizes = 1 + rng.poisson(2, size=config.n)
            ids = np.repeat(np.arange(next_id, next_id + config.n), sizes)[: config.n]
            patient[d * config.n:(d + 1) * config.n] = ids
            next_id += config.n
        n_patients = next_id
        frailty = (rng.gamma(FRAILTY_SHAPE, 1 / FRAILTY_SHAPE, size=n_patients) if config.correlated
                   else np.ones(n_patients))[patient]
        patient_sex = rng.choice(np.array(["F", "M"]), n_patients)
        sex = patient_sex[patient]
        p_change = np.minimum(1.0, config.p * frailty)
    else:
        patient = None
        sex = rng.choice(np.array(["F", "M"]), n_total)
        p_change = np.full(n_total, config.p)
    original = rng.integers(2, 5, n_total)
    up_probability = np.where(sex == "M", UP_M, UP_F)
    moves_a = np.where(rng.random(n_total) < p_change, np.where(rng.random(n_total) < up_probability, 1, -1), 0)
    own_b = np.where(rng.random(n_total) < p_change, np.where(rng.random(n_total) < 0.5, 1, -1), 0)
    moves_b = np.where(rng.random(n_total) < AGREE, moves_a, own_b)
    frames = {}
    for model, moves in (("a", moves_a), ("b", moves_b)):
        frame = pd.DataFrame({
            "pair_id": [f"s{s:03d}-{i:05d}" for s, i in zip(sim, np.tile(np.arange(config.n), datasets))],
            "original_sex": sex, "original_level": original, "counterfactual_level": original + moves,
            "stratum_sim": [f"{s:03d}" for s in sim],
        })
        if patient is not None:
            frame["patient_id"] = [f"pt{x}" for x in patient]
        frames[model] = frame
    return frames


@contextmanager
def warehouse(folder: Path, project: Path) -> Iterator[None]:
    """A fresh warehouse in `folder`, audited by the dbt project at `project` (a snapshot of the checkout, so that
    edits made while the simulation runs do not change what it measures)."""
    env = {"BIASMIRROR_WAREHOUSE": str(folder / "warehouse.duckdb"), "DBT_TARGET_PATH": str(folder / "target"),
           "DBT_LOG_PATH": str(folder / "logs"), "BIASMIRROR_MIMIC_ROOT": "", "BIASMIRROR_BORDEAUX_ROOT": "",
           "BIASMIRROR_PROJECT_DIR": str(project)}
    with scoped_env(env):
        yield


def covered(frame: pd.DataFrame) -> pd.Series:
    return (frame["ci_low"] <= frame["truth"] + 1e-12) & (frame["truth"] <= frame["ci_high"] + 1e-12)


def coverage_table(rows: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Coverage (all intervals and unflagged ones) with Monte Carlo SEs and the share flagged."""
    def summarise(group: pd.DataFrame) -> pd.Series:
        hit = covered(group)
        shown = ~group["is_sparse"]
        n_shown = int(shown.sum())
        c_all = hit.mean()
        c_shown = hit[shown].mean() if n_shown else np.nan
        return pd.Series({
            "intervals": len(group),
            "coverage_all": c_all, "se_all": np.sqrt(c_all * (1 - c_all) / len(group)),
            "share_flagged": 1 - n_shown / len(group),
            "coverage_unflagged": c_shown,
            "se_unflagged": np.sqrt(c_shown * (1 - c_shown) / n_shown) if n_shown else np.nan,
            "zero_width_unflagged": int(((group["ci_high"] - group["ci_low"] <= 0) & shown).sum()),
        })
    return rows.groupby(by, sort=False).apply(summarise, include_groups=False).reset_index()


def rule_grid(rows: pd.DataFrame, grid: list[int], count: str = "n_changed") -> pd.DataFrame:
    """What a minimum-changes rule with minimum k on the column `count` would show, for each k, over the default
    resampling (patients where known): the lowest coverage of a configuration and kind (all its metrics pooled)
    among the shown intervals, the (configuration, kind, metric) cells whose coverage is more than two Monte Carlo
    SEs below 0.93, and the share flagged."""
    rows = rows[rows["bootstrap_unit"] == "patient"]
    out = []
    for k in grid:
        shown = rows[(rows[count] >= k) & (rows["ci_high"] - rows["ci_low"] > 0)].assign(hit=lambda f: covered(f))
        pooled = shown.groupby(["config", "kind"])["hit"].agg(["mean", "size"])
        pooled = pooled[pooled["size"] >= 50]
        cells = shown.groupby(["config", "kind", "metric"])["hit"].agg(["mean", "size"])
        cells = cells[cells["size"] >= 20]
        below = cells[cells["mean"] + 2 * np.sqrt(cells["mean"] * (1 - cells["mean"]) / cells["size"]) < 0.93]
        worst = pooled["mean"].idxmin() if len(pooled) else None
        out.append({"rule": count, "min_changed_pairs": k, "share_flagged": 1 - len(shown) / len(rows),
                    "lowest_pooled_coverage": float(pooled["mean"].min()) if len(pooled) else np.nan,
                    "lowest_pooled_at": " / ".join(map(str, worst)) if worst is not None else "",
                    "cells_significantly_below_0.93": len(below),
                    "those_cells": "; ".join(f"{c} {kd} {m} {v:.3f} (n={n})" for (c, kd, m), (v, n) in below.iterrows())})
    return pd.DataFrame(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=int, default=200, help="Simulated data sets per configuration (200).")
    parser.add_argument("--boot", type=int, default=1000, help="Bootstrap resamples B (1000).")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--no-clustered", action="store_true", help="Skip the patient-clustered configurations.")
    parser.add_argument("--configs", default=None,
                        help="Comma-separated configuration names to run (e.g. ind_n150_p0005,pat_n1000_p005); default all.")
    parser.add_argument("--rule-grid", default="0,5,10,15,20,30,40,60", help="Minimums of changed pairs to evaluate.")
    parser.add_argument("--json", type=Path, default=None, help="Also write every table as JSON.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary warehouse.")
    parser.add_argument("--rows", type=Path, default=None, help="Also write every interval checked (Parquet).")
    args = parser.parse_args(argv)

    from biasmirror.dbt_runner import run_dbt
    from biasmirror.imports.pairs import import_pairs

    configs = [Config(n, p) for n in (150, 1000, 3000) for p in (0.005, 0.05)]
    if not args.no_clustered:
        configs += [Config(n, 0.05, clustered=True) for n in (1000, 3000)]
        configs += [Config(n, 0.05, clustered=True, correlated=False) for n in (1000, 3000)]
    if args.configs:
        wanted = args.configs.split(",")
        unknown = sorted(set(wanted) - {c.name for c in configs})
        if unknown:
            parser.error(f"--configs: unknown configuration(s) {unknown}; known: {[c.name for c in configs]}")
        configs = [c for c in configs if c.name in wanted]
    rng = np.random.default_rng(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="biasmirror-coverage-"))
    started = time.perf_counter()
    print(f"{len(configs)} configurations x {args.datasets} data sets x 2 models, B = {args.boot}; work folder {folder}",
          flush=True)
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from metric_marts import snapshot_project

        with warehouse(folder, snapshot_project(folder / "project")):
            run_dbt("build", variables={"bootstrap_resamples": 10}, extra=["--quiet"])  # the empty project
            for config in configs:
                for model, frame in simulate(config, args.datasets, rng).items():
                    path = folder / f"{config.name}_{model}.parquet"
                    frame.to_parquet(path, index=False)
                    import_pairs(path, config.name, model, "full")
            print(f"imported {len(configs) * 2} files in {time.perf_counter() - started:.0f} s", flush=True)
            results = []
            units = ["patient", "pair"] if any(c.clustered for c in configs) else ["patient"]
            for unit in units:
                t = time.perf_counter()
                run_dbt("build", select=["stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+"],
                        variables={"bootstrap_resamples": args.boot, "bootstrap_unit": unit},
                        extra=["--quiet", "--exclude-resource-type", "unit_test"])
                print(f"dbt build (bootstrap_unit = {unit}) in {time.perf_counter() - t:.0f} s", flush=True)
                import duckdb
                with duckdb.connect(str(folder / "warehouse.duckdb"), read_only=True) as con:
                    marginal = con.execute(
                        "select dataset as config, model, stratum_value as sim, metric, estimate, ci_low, ci_high, "
                        "n_changed, is_sparse from audit.paired_metrics where stratum_name = 'sim'").df()
                    differences = con.execute(
                        "select dataset as config, stratum_value as sim, metric, difference as estimate, ci_low, "
                        "ci_high, n_changed, is_sparse from audit.metric_comparisons "
                        "where stratum_name = 'sim' and comparison = 'model' and model_a = 'a' and model_b = 'b'").df()
                marginal["kind"] = "model " + marginal.pop("model")
                differences["kind"] = "difference b - a"
                rows = pd.concat([marginal, differences], ignore_index=True)
                rows["bootstrap_unit"] = unit
                results.append(rows)
        rows = pd.concat(results, ignore_index=True)
        by_name = {c.name: c for c in configs}
        # the pair-resampling build only matters for the clustered configurations
        rows = rows[(rows["bootstrap_unit"] == "patient") | rows["config"].map(lambda c: by_name[c].clustered)]
        truth = {name: true_values(config) for name, config in by_name.items()}
        rows["truth"] = [truth[c]["difference" if k.startswith("difference") else k.split()[-1]][m]
                         for c, k, m in zip(rows["config"], rows["kind"], rows["metric"])]
        rows["is_sparse"] = rows["is_sparse"].astype(bool)
        rows = rows.dropna(subset=["ci_low", "ci_high"]).assign(
            n=lambda f: f["config"].map(lambda c: by_name[c].n), p=lambda f: f["config"].map(lambda c: by_name[c].p))

        if args.rows:
            rows.to_parquet(args.rows, index=False)
        pd.set_option("display.width", 250, "display.max_rows", 500, "display.max_columns", 20,
                      "display.max_colwidth", 200)
        order = ["config", "bootstrap_unit", "kind"]
        summary = coverage_table(rows, order)
        per_metric = coverage_table(rows, order + ["metric"])
        # the same rule on the count behind each metric (n_changed, the audit's rule) and on all changed pairs of
        # the group (or, for a difference, of the side with fewer), which the estimate of a metric depends on less
        totals = rows[rows["metric"] == "pdr"][["config", "bootstrap_unit", "kind", "sim", "n_changed"]]
        rows = rows.merge(totals.rename(columns={"n_changed": "n_changed_total"}),
                          on=["config", "bootstrap_unit", "kind", "sim"], how="left")
        minimums = [int(k) for k in args.rule_grid.split(",")]
        grid = pd.concat([rule_grid(rows, minimums), rule_grid(rows, minimums, "n_changed_total")], ignore_index=True)
        print("\nCoverage by configuration (all metrics together):")
        print(summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        print("\nCoverage by configuration and metric:")
        print(per_metric.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        print("\nA minimum-changes rule with other minimums (cells with >= 20 shown intervals):")
        print(grid.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        shown = rows[~rows["is_sparse"]]
        worst = per_metric[per_metric["coverage_unflagged"].notna()].sort_values("coverage_unflagged").head(1)
        print(f"\nunflagged intervals: {len(shown)} of {len(rows)}; zero-width unflagged: "
              f"{int((shown['ci_high'] - shown['ci_low'] <= 0).sum())}; lowest unflagged coverage: "
              f"{worst[['config', 'bootstrap_unit', 'kind', 'metric', 'coverage_unflagged', 'se_unflagged']].to_dict('records')}")
        print(f"total {time.perf_counter() - started:.0f} s")
        if args.json:
            args.json.write_text(json.dumps({
                "config": vars(args) | {"json": str(args.json)},
                "summary": summary.to_dict("records"), "per_metric": per_metric.to_dict("records"),
                "rule_grid": grid.to_dict("records")}, indent=2, default=str))
            print(f"wrote {args.json}")
        return 0
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
