"""Benchmark: the interactive loop of a notebook (issue 25) - import 4,000 pairs and read `paired_metrics`
through the Python API - against a numpy pair bootstrap of the same pairs, in the same process.

1. A fresh warehouse: 4,000 pairs of one setting (benchmarks/metric_marts.generate_pairs: two strata columns,
   documented levels) imported as dataset `bench`, model `mine`, and the first `Warehouse.build()` (a full
   build: every node but the unit tests), timed once for reference.
2. `--repeats` times: new predictions for the same 4,000 pairs (another seed), `wh.import_pairs(...)`,
   `wh.build(quiet=True)` (the fast path: only what the imported pairs feed) and
   `wh.paired_metrics(dataset="bench", model="mine")`, timed together as one wall-clock figure. Each read's
   point estimates are checked against pandas sums of the same pairs.
3. Baselines on the same pairs, in the same process, right after each loop: a numpy pair bootstrap (B = 1000
   replicates of 4,000 pair indices drawn with replacement; the 11 paired metrics and their 95% percentile
   intervals overall and per value of each stratum the mart has: documented level, age band, complaint) and
   the vectorised multinomial floor of metric_marts.py.

Usage:  .venv/bin/python benchmarks/interactive_loop.py [--repeats 3] [--json benchmarks/results/interactive_loop.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import metric_marts as mm  # noqa: E402  (the data generator, the metric formulas and the numpy floor)

N_PAIRS = 4000
BOOT = 1000
DATASET, MODEL = "bench", "mine"


def pairs_for(seed: int) -> pd.DataFrame:
    """4,000 pairs of the `full` setting: the same records for every seed would not hold (the generator draws the
    records too), so each loop imports a new set of the same size and shape."""
    return mm.generate_pairs(N_PAIRS, seed).query("setting == 'full'").reset_index(drop=True)


def numpy_pair_bootstrap(pairs: pd.DataFrame, boot: int, seed: int) -> float:
    """B replicates of the pairs drawn with replacement (indices), every stratum value's sums by bincount, the
    metrics and their percentile intervals. Returns seconds."""
    frame = mm.analysis_frame(pairs)
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    stats = frame[list(mm.STATS)].to_numpy(dtype="float64")
    groups = [np.zeros(len(frame), dtype="int64")]  # overall
    for column in ("documented_level", "age_band", "complaint"):
        groups.append(pd.factorize(frame[column], sort=True)[0])
    sizes = [int(g.max()) + 1 for g in groups]
    replicates = []
    for _ in range(boot):
        index = rng.integers(0, len(frame), len(frame))
        sample = stats[index]
        sums = np.concatenate([np.stack([np.bincount(g[index], weights=sample[:, k], minlength=size)
                                         for k in range(sample.shape[1])], axis=1) for g, size in zip(groups, sizes)])
        replicates.append(sums)
    sums = pd.DataFrame(np.concatenate(replicates), columns=list(mm.STATS))
    with np.errstate(invalid="ignore", divide="ignore"):
        metrics = mm.metrics_from_sums(sums).to_numpy().reshape(boot, -1, len(mm.METRICS))
    np.nanquantile(metrics, [0.025, 0.975], axis=0)
    return time.perf_counter() - start


def check_estimates(read: pd.DataFrame, pairs: pd.DataFrame) -> float:
    """The largest difference between the mart's point estimates and pandas sums of the same pairs."""
    expected = mm.pandas_point_estimates(mm.analysis_frame(pairs.assign(setting="full")))
    merged = read.merge(expected, on=["setting", "stratum_name", "stratum_value", "metric"], suffixes=("", "_ref"))
    if len(merged) != len(expected):
        raise SystemExit(f"the mart has {len(merged)} of the {len(expected)} expected estimates")
    return float((merged["estimate"] - merged["estimate_ref"]).abs().max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from biasmirror import Warehouse

    with tempfile.TemporaryDirectory(prefix="bm-interactive-") as tmp:
        os.environ.pop("BIASMIRROR_WORKING_COPY", None)
        wh = Warehouse(Path(tmp) / "biasmirror.duckdb")
        start = time.perf_counter()
        wh.import_pairs(pairs_for(0), dataset=DATASET, model=MODEL)
        first = wh.build(quiet=True)
        wh.paired_metrics(dataset=DATASET, model=MODEL)
        first_s = time.perf_counter() - start
        mm.log(f"first import + full build + read: {first_s:.1f} s ({len(first.nodes)} nodes)")
        loops = []
        for repeat in range(1, args.repeats + 1):
            pairs = pairs_for(repeat)
            start, cpu = time.perf_counter(), time.process_time()
            wh.import_pairs(pairs, dataset=DATASET, model=MODEL)
            summary = wh.build(quiet=True)
            read = wh.paired_metrics(dataset=DATASET, model=MODEL)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            if summary.selection is None:
                raise SystemExit("the build after an import was not the fast path: " + summary.reason)
            error = check_estimates(read, pairs)
            pair_s = numpy_pair_bootstrap(pairs, BOOT, repeat)
            floor_s, _ = mm.numpy_multinomial_bootstrap(mm.analysis_frame(pairs.assign(setting="full")), BOOT, repeat)
            loops.append({"wall_s": wall, "process_cpu_s": cpu, "build_s": summary.seconds,
                          "nodes": summary.counts(), "max_abs_estimate_error": error,
                          "numpy_pair_bootstrap_s": pair_s, "numpy_multinomial_floor_s": floor_s,
                          "ratio_to_pair_bootstrap": wall / pair_s})
            mm.log(f"loop {repeat}: {wall:.1f} s wall (build {summary.seconds:.1f} s, {summary.counts()}); numpy pair "
                   f"bootstrap {pair_s:.2f} s ({wall / pair_s:.1f}x); multinomial floor {floor_s:.3f} s; "
                   f"largest estimate error {error:.1e}")
        wh.close()
    result = {
        "pairs": N_PAIRS, "boot": BOOT, "first_build_s": first_s, "loops": loops,
        "median_wall_s": statistics.median(loop["wall_s"] for loop in loops),
        "median_ratio_to_pair_bootstrap": statistics.median(loop["ratio_to_pair_bootstrap"] for loop in loops),
        "load_average_at_end": os.getloadavg(), "cpus": os.cpu_count(), "python": platform.python_version(),
    }
    mm.log(f"median loop {result['median_wall_s']:.1f} s, {result['median_ratio_to_pair_bootstrap']:.1f}x the numpy "
           f"pair bootstrap; load {result['load_average_at_end']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
