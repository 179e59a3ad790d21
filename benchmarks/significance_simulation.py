"""Multiplicity simulation: the false-discovery rate of the audit's q-values under the null, and their power with
planted effects.

Each replication is one imported data set of `--sites` sites (an imported stratum_site column) of `--pairs` pairs,
audited by the real `dbt build` (the SQL bootstrap, p-values and q-values of audit.paired_metrics). A replication's
site stratum is one family of the adjustment: sites x 6 tested metrics (docs/metrics.md, "p-values, q-values and
the minimum detectable effect").

- null: no site has an effect (a changed pair moves the female presentation up or down with probability 1/2);
- planted: `--planted` sites where the female presentation moves to the less severe level in `0.5 + --bias` of
  the changed pairs, the others as under the null; every tested metric of a planted site has a true effect.

For each scenario the script reports, over the replications, at level 0.05: the family-wise error (a replication
with at least one false discovery) and the false-discovery rate (mean of false / max(discoveries, 1)) of the
unadjusted reading (an interval excluding zero; p < 0.05), of Benjamini-Hochberg (q_value, var p_adjust_method
fdr_bh) and of Holm (a second build of audit.paired_metrics with p_adjust_method holm); and the power (the share
of true effects discovered), per tested metric and for the pooled rate alone. Pairs are independent (no patient
column): the resampling unit is the pair.

Usage:  .venv/bin/python benchmarks/significance_simulation.py                       # 40 replications each
        .venv/bin/python benchmarks/significance_simulation.py --replications 100 --json out.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd


TESTED = ("dts_m_to_f", "dts_f_to_m", "nats_plus", "nats_minus", "nmd", "pooled_rate")
LEVEL = 0.05


def simulate_sites(rng: np.random.Generator, sites: int, pairs: int, planted: int, bias: float,
                   change: float) -> pd.DataFrame:
    """`sites` x `pairs` pairs, levels 2-4 and moves of one level (never clipped); the first `planted` sites carry
    the effect."""
    frames = []
    for site in range(sites):
        sex = rng.choice(np.array(["F", "M"]), pairs)
        original = rng.integers(2, 5, pairs)
        moved = rng.random(pairs) < change
        female_up = rng.random(pairs) < 0.5 + (bias if site < planted else 0.0)
        step = np.where(female_up, 1, -1) * np.where(sex == "M", 1, -1)  # the copy of a male original is female
        frames.append(pd.DataFrame({
            "pair_id": [f"s{site:02d}p{i:05d}" for i in range(pairs)], "original_sex": sex,
            "original_level": original, "counterfactual_level": np.where(moved, original + step, original),
            "stratum_site": f"site{site:02d}", "planted": site < planted,
        }))
    return pd.concat(frames, ignore_index=True)


def error_rates(rows: pd.DataFrame, discovered: str) -> dict[str, float]:
    """Family-wise error, false-discovery rate and power over the replications, for one reading."""
    per_rep = rows.groupby("dataset").apply(lambda f: pd.Series({
        "discoveries": f[discovered].sum(), "false": (f[discovered] & ~f["planted"]).sum(),
        "true_effects": f["planted"].sum(), "found": (f[discovered] & f["planted"]).sum()}), include_groups=False)
    fdp = per_rep["false"] / per_rep["discoveries"].clip(lower=1)
    return {
        "fwer": float((per_rep["false"] > 0).mean()),
        "fdr": float(fdp.mean()),
        "fdr_se": float(fdp.std(ddof=1) / np.sqrt(len(fdp))) if len(fdp) > 1 else float("nan"),
        "false_per_replication": float(per_rep["false"].mean()),
        "power": float(per_rep["found"].sum() / per_rep["true_effects"].sum()) if per_rep["true_effects"].sum() else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replications", type=int, default=40, help="Replications (data sets) per scenario (40).")
    parser.add_argument("--sites", type=int, default=20, help="Sites per replication (20).")
    parser.add_argument("--pairs", type=int, default=400, help="Pairs per site (400).")
    parser.add_argument("--planted", type=int, default=3, help="Sites with an effect in the planted scenario (3).")
    parser.add_argument("--bias", type=float, default=0.2, help="The effect: P(female less severe | change) - 0.5 (0.2).")
    parser.add_argument("--change", type=float, default=0.2, help="P(a pair changes level) (0.2).")
    parser.add_argument("--boot", type=int, default=1000, help="Bootstrap resamples B (1000).")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--json", type=Path, default=None, help="Also write the results as JSON.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary warehouse.")
    args = parser.parse_args(argv)

    from biasmirror.dbt_runner import run_dbt
    from biasmirror.imports.pairs import import_pairs

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from coverage_simulation import warehouse
    from metric_marts import snapshot_project

    rng = np.random.default_rng(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="biasmirror-significance-"))
    started = time.perf_counter()
    scenarios = {"null": 0, "planted": args.planted}
    print(f"{len(scenarios)} scenarios x {args.replications} replications x {args.sites} sites x {args.pairs} pairs, "
          f"B = {args.boot}; work folder {folder}", flush=True)
    try:
        with warehouse(folder, snapshot_project(folder / "project")):
            run_dbt("build", variables={"bootstrap_resamples": 10}, extra=["--quiet"])  # the empty project
            truth = []
            for scenario, planted in scenarios.items():
                for r in range(args.replications):
                    frame = simulate_sites(rng, args.sites, args.pairs, planted, args.bias, args.change)
                    dataset = f"{scenario}{r:03d}"
                    path = folder / "replication.parquet"
                    frame.drop(columns="planted").to_parquet(path, index=False)
                    import_pairs(path, dataset, "m", "full")
                    truth.append(frame.groupby("stratum_site")["planted"].first().rename_axis("site").reset_index()
                                 .assign(dataset=dataset, scenario=scenario))
            print(f"imported {len(truth)} data sets in {time.perf_counter() - started:.0f} s", flush=True)
            results = {}
            for method in ("fdr_bh", "holm"):
                t = time.perf_counter()
                select = (["stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+"] if method == "fdr_bh"
                          else ["paired_metrics"])
                run_dbt("build", select=select, variables={"bootstrap_resamples": args.boot, "p_adjust_method": method},
                        extra=["--quiet", "--exclude-resource-type", "unit_test"])
                print(f"dbt build ({method}) in {time.perf_counter() - t:.0f} s", flush=True)
                with duckdb.connect(str(folder / "warehouse.duckdb"), read_only=True) as con:
                    results[method] = con.execute(
                        "select dataset, stratum_value as site, metric, estimate, ci_low, ci_high, p_value, q_value, "
                        "mde, is_sparse from audit.paired_metrics where stratum_name = 'site' and metric in ("
                        + ", ".join(f"'{m}'" for m in TESTED) + ")").df()
        rows = results["fdr_bh"].merge(results["holm"][["dataset", "site", "metric", "q_value"]].rename(
            columns={"q_value": "q_holm"}), on=["dataset", "site", "metric"])
        rows = rows.merge(pd.concat(truth, ignore_index=True), on=["dataset", "site"])
        rows["unadjusted_ci"] = (rows["ci_low"] > 0) | (rows["ci_high"] < 0)
        rows["unadjusted_p"] = rows["p_value"] < LEVEL
        rows["bh"] = rows["q_value"] < LEVEL
        rows["holm"] = rows["q_holm"] < LEVEL

        readings = ["unadjusted_ci", "unadjusted_p", "bh", "holm"]
        table = []
        for scenario in scenarios:
            for subset, metrics in [("all 6 tested metrics", TESTED), ("pooled_rate", ("pooled_rate",))]:
                chosen = rows[(rows["scenario"] == scenario) & rows["metric"].isin(metrics)]
                for reading in readings:
                    table.append({"scenario": scenario, "metrics": subset, "reading": reading,
                                  **error_rates(chosen, reading)})
        table = pd.DataFrame(table)
        planted_mde = rows[(rows["scenario"] == "planted") & rows["planted"] & (rows["metric"] == "pooled_rate")]
        pd.set_option("display.width", 200, "display.max_columns", 20)
        print(f"\nLevel {LEVEL}; {args.replications} replications per scenario; tests per family "
              f"{args.sites * len(TESTED)}:")
        print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        print(f"\npooled_rate of the planted sites: mean estimate {planted_mde['estimate'].mean():.4f}, "
              f"mean mde {planted_mde['mde'].mean():.4f}; total {time.perf_counter() - started:.0f} s")
        if args.json:
            args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                             "table": table.to_dict(orient="records"),
                                             "planted_pooled_rate": float(planted_mde["estimate"].mean()),
                                             "planted_mde": float(planted_mde["mde"].mean()),
                                             "seconds": time.perf_counter() - started}, indent=2))
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
