"""Benchmark: building the metric marts (paired metrics and model performance, SQL Poisson bootstrap) in dbt.

Target (issue): 150,000 pairs x 3 settings, two strata columns, B = 1000 -> building the metric marts takes at
most 10 s wall on a 2-core machine and is at least 20x faster than a straightforward pandas loop over
resamples computing the same metrics, measured in the same run; B = 10,000 in at most 60 s.

What this script does (see benchmarks/README.md for the results):

1. Generates N pairs per setting x 3 settings (fixed numpy seed) with two strata columns (stratum_age_band,
   5 values; stratum_complaint, 6 values) and a true_level, writes one Parquet file and imports it with
   `biasmirror import-pairs` into a fresh warehouse in a temporary folder.
2. Times the scheduled-job command `dbt build --select <metric marts> --exclude-resource-type unit_test` as a
   subprocess, wall clock including dbt's start-up and parsing, and reads target/run_results.json for the time of
   each node. <metric marts> is every model and test downstream of the imported pairs and upstream of
   audit.paired_metrics, audit.model_performance or audit.metric_comparisons (SELECTIONS). The same build with the
   unit tests, and the wider selection of everything downstream of the imports, are timed once each for reference.
3. Baseline: a straightforward pandas loop over resamples (draw N pairs with replacement per setting, compute
   the 11 paired metrics overall and per stratum value with groupby), timed over a few replicates and
   extrapolated linearly to B. Second reference: a vectorised numpy multinomial bootstrap on cell counts.
4. Scaling: build times over a grid of N and B, with a least-squares fit of the growth.
5. Checks that the SQL point estimates equal the pandas ones on the full data (to 1e-12).

The dbt project is copied (snapshot) into the temporary folder first, so that edits to the checkout during
the run do not change what is measured and the checkout's target/ is left alone (--no-snapshot runs on the
checkout itself, with a separate target path).

Usage:  .venv/bin/python benchmarks/metric_marts.py            # the target configuration (~10 minutes)
        .venv/bin/python benchmarks/metric_marts.py --quick    # smoke run: N = 20,000, B = 200
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SETTINGS = ("full", "text_only", "tabular_only")
AGE_BANDS = ("18-34", "35-49", "50-64", "65-79", "80+")
AGE_P = (0.24, 0.22, 0.24, 0.19, 0.11)
COMPLAINTS = ("chest_pain", "abdominal_pain", "dyspnea", "trauma", "neuro", "other")
COMPLAINT_P = (0.15, 0.18, 0.12, 0.2, 0.1, 0.25)
LEVEL_P = (0.05, 0.2, 0.45, 0.24, 0.06)
IMPORTS = ("stg_inference__imported_pairs", "stg_inference__imported_pair_strata")
METRIC_MARTS = ("paired_metrics", "model_performance", "metric_comparisons")
# What a build after an import rebuilds. "metric_marts": the metric marts and every model and test between them
# and the imported pairs (dbt's intersection operator: downstream of an import AND upstream of a metric mart),
# the target of the issue. "downstream": everything downstream of the imports, also the per-pair listing
# audit.pair_outcomes and the marts that stay empty without the warehouse's own predictions.
SELECTIONS = {
    "metric_marts": [f"{source}+,+{mart}" for source in IMPORTS for mart in METRIC_MARTS],
    "downstream": [f"{source}+" for source in IMPORTS],
}
EXPECTED_NODES = {
    "metric_marts": ("int_pairs_unioned", "int_pair_record_strata", "int_pair_members", "int_pair_cells",
                     "int_pair_bootstrap_weights", "int_paired_metric_replicates", "paired_metrics",
                     "int_pair_universe", "int_pair_exceptions", "int_pair_comparisons", "int_comparison_joint_cells",
                     "int_metric_comparison_replicates", "metric_comparisons",
                     "int_performance_records", "int_performance_bootstrap_weights", "model_performance"),
}
EXPECTED_NODES["downstream"] = EXPECTED_NODES["metric_marts"] + ("int_pair_strata", "pair_outcomes")
HEAVY_NODES = ("int_pair_members", "int_paired_metric_replicates", "metric_comparisons", "model_performance")
METRICS = ("pdr", "p_up_m_to_f", "p_down_m_to_f", "p_up_f_to_m", "p_down_f_to_m", "dts_m_to_f", "dts_f_to_m",
           "nats_plus", "nats_minus", "nmd", "pooled_rate")
# Sufficient statistics of the paired metrics (macros/metrics/paired_metrics.sql), as per-pair columns.
STATS = ("n", "n_mf", "n_fm", "up_mf", "down_mf", "up_fm", "down_fm", "fmm")
# Strata as audit.paired_metrics names them: (stratum_name, column of the pandas frame or None for overall).
STRATA = (("overall", None), ("documented_level", "documented_level"), ("age_band", "age_band"),
          ("complaint", "complaint"))
DATASET, MODEL = "bench", "synthetic"


def log(message: str) -> None:
    print(message, flush=True)


# --------------------------------------------------------------------------------------------------------
# Synthetic pairs
# --------------------------------------------------------------------------------------------------------

def generate_pairs(n: int, seed: int) -> pd.DataFrame:
    """n pairs per setting x 3 settings; the same records (pair ids, sex, strata, true level) in each setting,
    with setting-specific predictions and a small planted sex effect on the counterfactual."""
    rng = np.random.default_rng(seed)
    sex = rng.choice(np.array(["F", "M"]), n)
    age = rng.choice(np.array(AGE_BANDS), n, p=AGE_P)
    complaint = rng.choice(np.array(COMPLAINTS), n, p=COMPLAINT_P)
    true_level = rng.choice(np.arange(1, 6), n, p=LEVEL_P)
    pair_id = np.char.add("P", np.char.zfill(np.arange(n).astype(str), 7))
    frames = []
    for setting, p_change in zip(SETTINGS, (0.085, 0.07, 0.04)):
        original = np.clip(true_level + rng.choice([-1, 0, 1], n, p=[0.15, 0.7, 0.15]), 1, 5)
        change = rng.random(n) < p_change
        p_up = np.where(sex == "M", 0.56, 0.45)  # M->F copies drift toward less severe, F->M toward more
        step = np.where(rng.random(n) < p_up, 1, -1)
        counterfactual = np.clip(original + np.where(change, step, 0), 1, 5)
        frames.append(pd.DataFrame({
            "pair_id": pair_id, "setting": setting, "original_sex": sex,
            "original_level": original.astype("int64"), "counterfactual_level": counterfactual.astype("int64"),
            "true_level": true_level.astype("int64"), "stratum_age_band": age, "stratum_complaint": complaint,
        }))
    return pd.concat(frames, ignore_index=True)


def analysis_frame(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per-pair indicator columns of the sufficient statistics, plus the strata as the marts name them."""
    m2f = (pairs["original_sex"] == "M").astype("int64")
    f2m = 1 - m2f
    up = (pairs["counterfactual_level"] > pairs["original_level"]).astype("int64")
    down = (pairs["counterfactual_level"] < pairs["original_level"]).astype("int64")
    delta = pairs["counterfactual_level"] - pairs["original_level"]
    return pd.DataFrame({
        "setting": pairs["setting"], "documented_level": pairs["true_level"].astype(str),
        "age_band": pairs["stratum_age_band"], "complaint": pairs["stratum_complaint"],
        "n": np.ones(len(pairs), dtype="int64"), "n_mf": m2f, "n_fm": f2m,
        "up_mf": m2f * up, "down_mf": m2f * down, "up_fm": f2m * up, "down_fm": f2m * down,
        "fmm": np.where(m2f == 1, delta, -delta).astype("int64"),
    })


def metrics_from_sums(s: pd.DataFrame) -> pd.DataFrame:
    """The 11 paired metrics of docs/metrics.md from the sums, with the SQL's operation order."""
    def ratio(a, b):
        b = b.astype("float64")
        return (a / b.where(b != 0)).astype("float64")

    n = s["n"].astype("float64").where(s["n"] != 0)
    p_up_mf, p_down_mf = ratio(s["up_mf"], s["n_mf"]), ratio(s["down_mf"], s["n_mf"])
    p_up_fm, p_down_fm = ratio(s["up_fm"], s["n_fm"]), ratio(s["down_fm"], s["n_fm"])
    return pd.DataFrame({
        "pdr": (s["up_mf"] + s["down_mf"] + s["up_fm"] + s["down_fm"]) / n,
        "p_up_m_to_f": p_up_mf, "p_down_m_to_f": p_down_mf, "p_up_f_to_m": p_up_fm, "p_down_f_to_m": p_down_fm,
        "dts_m_to_f": p_up_mf - p_down_mf, "dts_f_to_m": p_up_fm - p_down_fm,
        "nats_plus": p_up_fm - p_up_mf, "nats_minus": p_down_fm - p_down_mf,
        "nmd": s["fmm"] / n,
        "pooled_rate": ((s["up_mf"] - s["down_mf"]) - (s["up_fm"] - s["down_fm"])) / n,
    }, index=s.index)


def stratum_sums(frame: pd.DataFrame) -> pd.DataFrame:
    """Sums of the statistics per (setting, stratum_name, stratum_value): the pandas groupby computation."""
    parts = []
    for name, column in STRATA:
        if column is None:
            sums = frame.groupby("setting")[list(STATS)].sum()
            sums = sums.set_index(pd.Index(["all"] * len(sums), name="stratum_value"), append=True)
        else:
            sums = frame.groupby(["setting", column])[list(STATS)].sum()
            sums.index = sums.index.set_names(["setting", "stratum_value"])
        parts.append(pd.concat({name: sums}, names=["stratum_name"]))
    return pd.concat(parts).reorder_levels(["setting", "stratum_name", "stratum_value"])


def pandas_point_estimates(frame: pd.DataFrame) -> pd.DataFrame:
    sums = stratum_sums(frame)
    metrics = metrics_from_sums(sums)
    long = metrics.stack(future_stack=True).rename("estimate").reset_index()
    long.columns = ["setting", "stratum_name", "stratum_value", "metric", "estimate"]
    n_pairs = sums["n"].rename("n_pairs").reset_index()
    return long.merge(n_pairs, on=["setting", "stratum_name", "stratum_value"])


def pandas_loop_bootstrap(frame: pd.DataFrame, replicates: int, seed: int) -> tuple[float, float, pd.DataFrame]:
    """The straightforward baseline: for each replicate, resample the pairs of each setting with replacement
    (DataFrame.sample) and recompute every metric overall and per stratum value with groupby; then percentile
    intervals. Returns (wall seconds, CPU seconds, summary)."""
    rng = np.random.default_rng(seed)
    by_setting = {setting: group for setting, group in frame.groupby("setting")}
    start, cpu_start = time.perf_counter(), time.process_time()
    results = []
    for b in range(replicates):
        for group in by_setting.values():
            sample = group.sample(n=len(group), replace=True, random_state=rng)
            metrics = metrics_from_sums(stratum_sums(sample))
            metrics["replicate"] = b
            results.append(metrics)
    replicated = pd.concat(results).set_index("replicate", append=True)
    groups = replicated.groupby(level=["setting", "stratum_name", "stratum_value"])
    summary = pd.concat({"ci_low": groups.quantile(0.025), "ci_high": groups.quantile(0.975)}, axis=1)
    return time.perf_counter() - start, time.process_time() - cpu_start, summary


# --------------------------------------------------------------------------------------------------------
# Vectorised numpy reference: multinomial resampling of cell counts
# --------------------------------------------------------------------------------------------------------

def numpy_multinomial_bootstrap(frame: pd.DataFrame, boot: int, seed: int, chunk: int = 1000) -> tuple[float, pd.DataFrame]:
    """Per setting: map pairs to cells (direction x both levels x every stratum), draw B multinomial(N, counts/N)
    cell-count vectors (exactly "N pairs with replacement"), and get every stratum's sums as one matrix product.
    Returns (seconds, long frame with ci_low / ci_high per setting, stratum and metric)."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    out = []
    for setting, group in frame.groupby("setting"):
        codes = {c: pd.factorize(group[c], sort=True) for c in ("documented_level", "age_band", "complaint")}
        stats_cols = ["n_mf", "up_mf", "down_mf", "up_fm", "down_fm", "fmm"]
        key = group[stats_cols].astype("int64").copy()
        for c, (code, _) in codes.items():
            key[c] = code
        cells, inverse = np.unique(key.to_numpy(), axis=0, return_inverse=True)
        counts = np.bincount(inverse.ravel(), minlength=len(cells))
        n_mf, up_mf, down_mf, up_fm, down_fm, fmm = (cells[:, i] for i in range(6))
        per_cell = np.stack([np.ones(len(cells)), n_mf, 1 - n_mf, up_mf, down_mf, up_fm, down_fm, fmm], axis=1)
        labels, masks = [], []
        for name, column in STRATA:
            if column is None:
                labels.append((name, "all"))
                masks.append(np.ones(len(cells), dtype=bool))
                continue
            code_col = 6 + ("documented_level", "age_band", "complaint").index(column)
            for value_code, value in enumerate(codes[column][1]):
                labels.append((name, value))
                masks.append(cells[:, code_col] == value_code)
        design = np.concatenate([per_cell * m[:, None] for m in masks], axis=1)  # K x (G * 8)
        n_total = int(counts.sum())
        p = counts / n_total
        sums = np.concatenate([rng.multinomial(n_total, p, size=min(chunk, boot - i)) @ design
                               for i in range(0, boot, chunk)])  # B x (G * 8)
        sums = sums.reshape(boot, len(labels), len(STATS))
        with np.errstate(invalid="ignore", divide="ignore"):
            frame_sums = pd.DataFrame(sums.reshape(-1, len(STATS)), columns=list(STATS))
            metrics = metrics_from_sums(frame_sums).to_numpy().reshape(boot, len(labels), len(METRICS))
        low, high = np.nanquantile(metrics, [0.025, 0.975], axis=0)
        for g, (name, value) in enumerate(labels):
            for m, metric in enumerate(METRICS):
                out.append((setting, name, value, metric, low[g, m], high[g, m]))
    seconds = time.perf_counter() - start
    return seconds, pd.DataFrame(out, columns=["setting", "stratum_name", "stratum_value", "metric", "ci_low", "ci_high"])


# --------------------------------------------------------------------------------------------------------
# Many models, many data sets (issue 12): data and the numpy floor
# --------------------------------------------------------------------------------------------------------

def model_predictions(base: pd.DataFrame, model_index: int, seed: int) -> pd.DataFrame:
    """Another model's predictions for the pairs of `base` (the same records, sexes, strata and documented levels in
    every setting): its own original levels and changes, drawn independently, so models disagree pair by pair."""
    if model_index == 0:
        return base
    rng = np.random.default_rng([seed, model_index])
    frame = base.copy()
    n = len(frame)
    original = np.clip(frame["true_level"].to_numpy() + rng.choice([-1, 0, 1], n, p=[0.15, 0.7, 0.15]), 1, 5)
    p_change = frame["setting"].map({"full": 0.085, "text_only": 0.07, "tabular_only": 0.04}).to_numpy()
    change = rng.random(n) < p_change
    step = np.where(rng.random(n) < np.where(frame["original_sex"] == "M", 0.56, 0.45), 1, -1)
    frame["original_level"] = original.astype("int64")
    frame["counterfactual_level"] = np.clip(original + np.where(change, step, 0), 1, 5).astype("int64")
    return frame


def _metrics_np(sums: np.ndarray) -> np.ndarray:
    """The 11 paired metrics from sums (..., 8) ordered as STATS, as an array (..., 11) in METRICS order."""
    n, n_mf, n_fm, up_mf, down_mf, up_fm, down_fm, fmm = np.moveaxis(sums.astype("float64"), -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_up_mf, p_down_mf = up_mf / n_mf, down_mf / n_mf
        p_up_fm, p_down_fm = up_fm / n_fm, down_fm / n_fm
        return np.stack([(up_mf + down_mf + up_fm + down_fm) / n, p_up_mf, p_down_mf, p_up_fm, p_down_fm,
                         p_up_mf - p_down_mf, p_up_fm - p_down_fm, p_up_fm - p_up_mf, p_down_fm - p_down_mf,
                         fmm / n, ((up_mf - down_mf) - (up_fm - down_fm)) / n], axis=-1)


# the sufficient statistics (STATS order) of a pair in state (direction code, delta): one row per state code
_STATE_STATS = np.array([[1, d, 1 - d, d * (x > 0), d * (x < 0), (1 - d) * (x > 0), (1 - d) * (x < 0), x if d else -x]
                         for d in (0, 1) for x in range(-4, 5)], dtype="int64")


def numpy_designs_bootstrap(groups: dict[tuple, np.ndarray], direction: np.ndarray, strata: dict[str, np.ndarray],
                            comparisons: list[tuple[tuple, tuple]], boot: int, seed: int) -> tuple[float, int]:
    """The floor: what the metric marts compute, as vectorised numpy on cell counts. groups: group -> the level
    change (delta) of every pair (the same pairs in every group of the data set); direction: 1 for m_to_f pairs;
    strata: name -> value of every pair ('all' for overall). For every group and stratum value, B multinomial draws
    of the cell counts (exactly "n pairs with replacement") give the 11 metrics and their percentile intervals; for
    every comparison and stratum value, B multinomial draws of the joint (direction, delta a, delta b) counts give
    both sides and the intervals of the differences. Returns (seconds, designs)."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    designs = 0
    masks = [(name, value, values == value) for name, values in strata.items() for value in np.unique(values)]
    codes = {g: direction * 9 + (delta + 4) for g, delta in groups.items()}
    for _, _, mask in masks:
        d = direction[mask]
        for code in codes.values():
            counts = np.bincount(code[mask], minlength=18)
            n = int(counts.sum())
            draws = rng.multinomial(n, counts / n, size=boot)
            metrics = _metrics_np(draws @ _STATE_STATS)
            np.nanquantile(metrics, [0.025, 0.975], axis=0)
            designs += 1
        for a, b in comparisons:
            joint = np.bincount(codes[a][mask] * 18 + codes[b][mask], minlength=18 * 18)
            cells = np.flatnonzero(joint)
            n = int(joint.sum())
            draws = rng.multinomial(n, joint[cells] / n, size=boot)
            side_a = draws @ _STATE_STATS[cells // 18]
            side_b = draws @ _STATE_STATS[cells % 18]
            np.nanquantile(_metrics_np(side_b) - _metrics_np(side_a), [0.025, 0.975], axis=0)
            designs += 1
        del d
    return time.perf_counter() - start, designs


def benchmark_comparisons(settings: list[str], models: list[str], reference: str | None = None) -> list[tuple[tuple, tuple]]:
    """The comparisons audit.metric_comparisons makes with one generator: settings within a model, models within a
    setting (every two models, or each model with `reference`, as var comparison_reference_model does)."""
    out = [((m, settings[i]), (m, settings[j])) for m in models for i in range(len(settings)) for j in range(i + 1, len(settings))]
    if reference is None:
        out += [((models[i], s), (models[j], s)) for s in settings for i in range(len(models)) for j in range(i + 1, len(models))]
    else:
        out += [((reference, s), (m, s)) for s in settings for m in models if m != reference]
    return out


def fit_in(points: list[dict], x_key: str, y_key: str, quadratic: bool = False) -> dict:
    """Least squares y = a + b x (+ c x^2): coefficients and the largest relative residual."""
    x = np.array([p[x_key] for p in points], dtype=float)
    y = np.array([p[y_key] for p in points], dtype=float)
    design = np.stack([np.ones_like(x), x] + ([x ** 2] if quadratic else []), axis=1)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    fitted = design @ coef
    return {"a": float(coef[0]), "b": float(coef[1]), **({"c": float(coef[2])} if quadratic else {}),
            "max_rel_residual": float(np.max(np.abs(fitted - y) / y))}


def run_models_grid(tmp: Path, project: Path, args, log_results: dict) -> dict:
    """10 models x 3 settings x N pairs (two strata columns): the scheduled rebuild of docs/scheduled-builds.md after the imports
    (everything downstream of the imported pairs, no unit tests) at 1, 2, 4, ... models, with the numpy floor."""
    grid = [int(m) for m in args.models_grid.split(",")]
    base = generate_pairs(args.models_pairs, args.seed)
    reference = "model00" if args.reference_model else None
    wh = Warehouse(tmp / "models", project, args.threads,
                   {"comparison_reference_model": reference} if reference else None)
    wh.dbt("build", None, {"bootstrap_resamples": 10})
    imported: list[str] = []
    points = []
    direction = (base[base["setting"] == SETTINGS[0]]["original_sex"] == "M").to_numpy().astype("int64")
    first = base[base["setting"] == SETTINGS[0]]
    strata = {"overall": np.array(["all"] * len(first)), "documented_level": first["true_level"].astype(str).to_numpy(),
              "age_band": first["stratum_age_band"].to_numpy(), "complaint": first["stratum_complaint"].to_numpy()}
    deltas: dict[tuple, np.ndarray] = {}
    for m in grid:
        t = time.perf_counter()
        while len(imported) < m:
            index = len(imported)
            frame = model_predictions(base, index, args.seed)
            for setting in SETTINGS:
                part = frame[frame["setting"] == setting]
                deltas[(f"model{index:02d}", setting)] = (part["counterfactual_level"] - part["original_level"]).to_numpy()
            path = wh.folder / f"model{index:02d}.parquet"
            frame.to_parquet(path, index=False)
            wh._run([str(BIN / "biasmirror"), "import-pairs", str(path), "--dataset", DATASET, "--model", f"model{index:02d}"],
                    "biasmirror import-pairs")
            imported.append(f"model{index:02d}")
        import_s = time.perf_counter() - t
        wh.parse(args.boot)  # absorb the full re-parse that the change of vars forces; not timed
        build = wh.build(args.boot, "downstream")
        groups = {k: v for k, v in deltas.items() if k[0] in imported}
        comparisons = benchmark_comparisons(list(SETTINGS), imported, reference)
        np_s, designs = numpy_designs_bootstrap(groups, direction, strata, comparisons, args.boot, args.seed + m)
        point = {"models": m, "pairs": m * len(base), "groups": len(groups), "comparisons": len(comparisons),
                 "designs": designs, "import_s": import_s, "wall_s": build["wall_s"], "cpu_s": build["cpu_s"],
                 "sql_s": build["sql_s"], "overhead_s": build["overhead_s"], "peak_rss_gib": build["peak_rss_gib"],
                 "temp_disk_gib": build["temp_disk_gib"], "numpy_s": np_s, "ratio_dbt_over_numpy": build["wall_s"] / np_s,
                 "load1_before": build["load1_before"], "nodes_s": dict(list(build["nodes_s"].items())[:8])}
        points.append(point)
        log(f"models {m:>2}: {len(groups)} groups, {len(comparisons)} comparisons, {designs} designs (groups or "
            f"comparisons x strata values); scheduled rebuild wall {build['wall_s']:.1f} s (CPU {build['cpu_s']:.1f} s, "
            f"SQL {build['sql_s']:.1f} s), peak RSS {build['peak_rss_gib']:.2f} GiB, temp {build['temp_disk_gib']:.2f} GiB; "
            f"numpy floor {np_s:.1f} s ({build['wall_s'] / np_s:.1f}x); load {build['load1_before']:.1f}")
        log("  slowest: " + ", ".join(f"{k} {v:.1f} s" for k, v in list(build["nodes_s"].items())[:6]))
    fits = {}
    if len(points) >= 3:
        for key in ("wall_s", "cpu_s", "sql_s", "numpy_s"):
            fits[key] = {"linear": fit_in(points, "models", key), "quadratic": fit_in(points, "models", key, True),
                         "per_design": fit_in(points, "designs", key)}
    return {"points": points, "fits": fits}


def run_datasets_config(tmp: Path, project: Path, args) -> dict:
    """Many data sets: `datasets` imports of `dataset_pairs` pairs (one model, setting full, documented level), then
    the scheduled rebuild; with the numpy floor on the same designs."""
    from biasmirror.imports.pairs import import_pairs

    wh = Warehouse(tmp / "datasets", project, args.threads)
    wh.dbt("build", None, {"bootstrap_resamples": 10})
    rng = np.random.default_rng(args.seed + 7)
    from biasmirror.paths import scoped_env

    t = time.perf_counter()
    deltas, directions, levels = [], [], []
    with scoped_env({"BIASMIRROR_WAREHOUSE": str(wh.path), "BIASMIRROR_PROJECT_DIR": str(project)}):
        for d in range(args.datasets):
            n = args.dataset_pairs
            sex = rng.choice(np.array(["F", "M"]), n)
            true_level = rng.choice(np.arange(1, 6), n, p=LEVEL_P)
            original = np.clip(true_level + rng.choice([-1, 0, 1], n, p=[0.15, 0.7, 0.15]), 1, 5)
            change = rng.random(n) < 0.06
            step = np.where(rng.random(n) < np.where(sex == "M", 0.56, 0.45), 1, -1)
            counterfactual = np.clip(original + np.where(change, step, 0), 1, 5)
            frame = pd.DataFrame({"pair_id": [f"P{i:05d}" for i in range(n)], "original_sex": sex,
                                  "original_level": original, "counterfactual_level": counterfactual, "true_level": true_level})
            path = wh.folder / "dataset.parquet"
            frame.to_parquet(path, index=False)
            import_pairs(path, f"sim{d:03d}", MODEL, "full")
            deltas.append(counterfactual - original)
            directions.append((sex == "M").astype("int64"))
            levels.append(true_level.astype(str))
    import_s = time.perf_counter() - t
    wh.parse(args.boot)
    build = wh.build(args.boot, "downstream")
    np_total, designs = 0.0, 0
    for d in range(args.datasets):
        seconds, k = numpy_designs_bootstrap({(MODEL, "full"): deltas[d]}, directions[d],
                                             {"overall": np.array(["all"] * args.dataset_pairs), "documented_level": levels[d]},
                                             [], args.boot, args.seed + d)
        np_total += seconds
        designs += k
    log(f"{args.datasets} data sets x {args.dataset_pairs:,} pairs: import {import_s:.0f} s [not measured]; scheduled rebuild "
        f"wall {build['wall_s']:.1f} s (CPU {build['cpu_s']:.1f} s, SQL {build['sql_s']:.1f} s), peak RSS "
        f"{build['peak_rss_gib']:.2f} GiB, temp {build['temp_disk_gib']:.2f} GiB; numpy floor {np_total:.1f} s on {designs} "
        f"designs; load {build['load1_before']:.1f}")
    log("  slowest: " + ", ".join(f"{k} {v:.1f} s" for k, v in list(build["nodes_s"].items())[:6]))
    return {"datasets": args.datasets, "pairs_per_dataset": args.dataset_pairs, "import_s": import_s, "build": build,
            "numpy_s": np_total, "designs": designs, "ratio_dbt_over_numpy": build["wall_s"] / np_total}


# --------------------------------------------------------------------------------------------------------
# Warehouse and dbt
# --------------------------------------------------------------------------------------------------------

class Warehouse:
    """A fresh DuckDB warehouse in `folder`, with its own dbt target and log paths."""

    def __init__(self, folder: Path, project: Path, threads: int | None, variables: dict | None = None):
        self.folder = folder
        self.variables = dict(variables or {})  # vars every dbt command of this warehouse gets
        self.project = project
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "warehouse.duckdb"
        self.target = folder / "target"
        self.logs = folder / "logs"
        self.env = dict(os.environ, BIASMIRROR_WAREHOUSE=str(self.path), BIASMIRROR_PROJECT_DIR=str(project),
                        BIASMIRROR_MIMIC_ROOT="", DBT_SEND_ANONYMOUS_USAGE_STATS="false")
        if threads is not None:
            self.env["BIASMIRROR_THREADS"] = str(threads)

    def _run(self, args: list[str], what: str) -> tuple[float, str]:
        """Run a command to completion; records its CPU seconds, the peak resident memory of the process (its
        VmHWM, polled every 0.1 s) and the largest size DuckDB's temporary directory reached meanwhile."""
        start, cpu_start = time.perf_counter(), _children_cpu()
        temp_dir = Path(str(self.path) + ".tmp")
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            process = subprocess.Popen(args, env=self.env, cwd=self.project, stdout=out, stderr=err, text=True)
            peak_kib, temp_bytes = 0, 0
            while process.poll() is None:
                peak_kib = max(peak_kib, _peak_rss_kib(process.pid))
                temp_bytes = max(temp_bytes, _folder_bytes(temp_dir))
                time.sleep(0.1)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        seconds = time.perf_counter() - start
        self.last_cpu_s = _children_cpu() - cpu_start
        self.last_peak_rss_gib = peak_kib / 2**20
        self.last_temp_gib = temp_bytes / 2**30
        if process.returncode != 0:
            sys.stderr.write(stdout[-20000:] + stderr[-5000:])
            raise SystemExit(f"{what} failed (exit {process.returncode}); its output is above")
        return seconds, stdout

    def dbt(self, command: str, select: list[str] | None, variables: dict, extra: list[str] | None = None) -> tuple[float, str]:
        args = [str(BIN / "dbt"), command, "--project-dir", str(self.project), "--profiles-dir", str(self.project),
                "--target-path", str(self.target), "--log-path", str(self.logs), "--no-use-colors"]
        if select:
            args += ["--select", *select]
        variables = {**self.variables, **variables}
        if variables:
            args += ["--vars", json.dumps(variables)]
        return self._run(args + (extra or []), f"dbt {command}")

    def parse(self, boot: int) -> float:
        """`dbt parse` with the vars of a build at B: the full re-parse that a change of vars forces happens here, so
        that the next build with the same vars parses partially, as a scheduled job with fixed vars does, without
        running the whole build once more to get there."""
        seconds, _ = self.dbt("parse", None, {"bootstrap_resamples": boot})
        return seconds

    def import_pairs(self, parquet: Path) -> float:
        seconds, _ = self._run([str(BIN / "biasmirror"), "import-pairs", str(parquet), "--dataset", DATASET,
                                "--model", MODEL], "biasmirror import-pairs")
        return seconds

    def build(self, boot: int, scope: str = "metric_marts", unit_tests: bool = False) -> dict:
        """Timed `dbt build` of a selection (SELECTIONS); wall clock plus per-node times from run_results.json.
        unit_tests=False is the scheduled-job command: dbt recommends running unit tests (fixtures, not the
        warehouse's data) in development and CI only, with --exclude-resource-type unit_test elsewhere."""
        load_before = os.getloadavg()[0]
        extra = [] if unit_tests else ["--exclude-resource-type", "unit_test"]
        wall, stdout = self.dbt("build", SELECTIONS[scope], {"bootstrap_resamples": boot}, extra)
        results = json.loads((self.target / "run_results.json").read_text())
        stamps = [(pd.Timestamp(t["started_at"]), pd.Timestamp(t["completed_at"]))
                  for r in results["results"] for t in r.get("timing", []) if t.get("started_at") and t.get("completed_at")]
        span = (max(c for _, c in stamps) - min(s for s, _ in stamps)).total_seconds()
        nodes = {}
        for r in results["results"]:
            uid = r["unique_id"]
            nodes[uid] = {"status": r["status"], "seconds": r["execution_time"],
                          "execute": _phase_seconds(r, "execute")}
        failed = {uid: n["status"] for uid, n in nodes.items() if n["status"] not in ("success", "pass", "no-op")}
        if failed:
            raise SystemExit(f"dbt build reported {failed}")
        models = {uid.split(".")[-1]: n for uid, n in nodes.items() if uid.startswith("model.")}
        missing = [m for m in EXPECTED_NODES[scope] if m not in models]
        if missing:
            raise SystemExit(f"the selection did not build {missing}")
        tests = [n for uid, n in nodes.items() if uid.startswith(("test.", "unit_test."))]
        sql_models = sum(n["seconds"] for n in models.values())
        sql_tests = sum(n["seconds"] for n in tests)
        return {
            "boot": boot, "scope": scope, "unit_tests": unit_tests, "wall_s": wall, "cpu_s": self.last_cpu_s, "dbt_elapsed_s": results.get("elapsed_time"),
            "peak_rss_gib": self.last_peak_rss_gib, "temp_disk_gib": self.last_temp_gib,
            # sql_s: from the first node's start to the last node's end (the SQL part of the wall time, with
            # dbt's threads overlapping nodes); sql_sum_s: the nodes' times added up (more than sql_s when
            # nodes ran in parallel); overhead_s: dbt start-up, parsing and bookkeeping (wall - sql_s).
            "sql_s": span, "sql_sum_s": sql_models + sql_tests, "overhead_s": wall - span,
            "sql_models_sum_s": sql_models, "sql_tests_sum_s": sql_tests,
            "full_parse": "Starting full parse" in stdout or "Unable to do partial parsing" in stdout, "load1_before": load_before,
            "n_models": len(models), "n_tests": len(tests),
            "nodes_s": {name: n["seconds"] for name, n in sorted(models.items(), key=lambda kv: -kv[1]["seconds"])},
            "slowest_tests_s": dict(sorted(((uid.split(".")[-1], n["seconds"]) for uid, n in nodes.items()
                                            if uid.startswith(("test.", "unit_test."))), key=lambda kv: -kv[1])[:3]),
        }

    def query(self, sql: str) -> pd.DataFrame:
        import duckdb
        with duckdb.connect(str(self.path), read_only=True) as con:
            return con.execute(sql).df()


def _peak_rss_kib(pid: int) -> int:
    """The process's peak resident set size so far (VmHWM, in KiB), 0 if it has exited."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _folder_bytes(folder: Path) -> int:
    try:
        return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    except OSError:
        return 0


def _children_cpu() -> float:
    """CPU seconds (user + system) used so far by finished child processes (dbt is one)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _phase_seconds(result: dict, phase: str) -> float | None:
    for t in result.get("timing", []):
        if t.get("name") == phase and t.get("started_at") and t.get("completed_at"):
            return (pd.Timestamp(t["completed_at"]) - pd.Timestamp(t["started_at"])).total_seconds()
    return None


def snapshot_project(destination: Path) -> Path:
    """Copy the dbt project (not the venv, git data, build outputs or warehouses) so the run is isolated."""
    ignore = shutil.ignore_patterns(".venv", ".git", "target", "logs", "*.duckdb", "*.duckdb.wal", "demo_data",
                                    "report", "__pycache__", "*.egg-info", ".pytest_cache", "benchmarks", "build")
    shutil.copytree(REPO, destination, ignore=ignore)
    return destination


def prepare_warehouse(folder: Path, project: Path, pairs: pd.DataFrame, threads: int | None) -> tuple[Warehouse, dict]:
    """Fresh warehouse: a full `dbt build` of the (empty) project so the models upstream of the selection exist,
    then the import. Neither is part of the measured time."""
    wh = Warehouse(folder, project, threads)
    parquet = folder / "pairs.parquet"
    pairs.to_parquet(parquet, index=False)
    setup_s, _ = wh.dbt("build", None, {"bootstrap_resamples": 10})
    import_s = wh.import_pairs(parquet)
    return wh, {"setup_build_s": setup_s, "import_s": import_s, "parquet_mb": parquet.stat().st_size / 2**20}


def compare_point_estimates(wh: Warehouse, expected: pd.DataFrame, boot: int) -> dict:
    sql = wh.query(f"""
        select setting, stratum_name, stratum_value, metric, estimate, n_pairs, n_boot, ci_low, ci_high
        from audit.paired_metrics where dataset = '{DATASET}' and model = '{MODEL}'""")
    keys = ["setting", "stratum_name", "stratum_value", "metric"]
    merged = expected.merge(sql, on=keys, how="outer", suffixes=("_pandas", "_sql"), indicator=True)
    unmatched = int((merged["_merge"] != "both").sum())
    both = merged[merged["_merge"] == "both"]
    diff = (both["estimate_pandas"] - both["estimate_sql"]).abs()
    null_mismatch = int((both["estimate_pandas"].isna() != both["estimate_sql"].isna()).sum())
    max_diff = float(diff.max()) if diff.notna().any() else 0.0
    n_mismatch = int((both["n_pairs_pandas"] != both["n_pairs_sql"]).sum())
    n_boot_ok = bool((both["n_boot"] == boot).all())
    ok = unmatched == 0 and null_mismatch == 0 and max_diff <= 1e-12 and n_mismatch == 0
    return {"rows": int(len(both)), "unmatched_rows": unmatched, "max_abs_diff": max_diff,
            "null_mismatches": null_mismatch, "n_pairs_mismatches": n_mismatch, "n_boot_all_equal_B": n_boot_ok,
            "ok": ok, "sql": sql}


def compare_intervals(sql: pd.DataFrame, reference: pd.DataFrame) -> dict:
    """SQL Poisson-bootstrap intervals vs the numpy multinomial ones: both valid, differing by Monte Carlo
    noise; reported as |difference of a bound| / interval width."""
    keys = ["setting", "stratum_name", "stratum_value", "metric"]
    merged = sql.merge(reference, on=keys, suffixes=("_sql", "_np"))
    width = (merged["ci_high_np"] - merged["ci_low_np"]).where(lambda w: w > 0)
    rel = pd.concat([(merged["ci_low_sql"] - merged["ci_low_np"]).abs() / width,
                     (merged["ci_high_sql"] - merged["ci_high_np"]).abs() / width]).dropna()
    return {"rows": int(len(merged)), "median_rel_bound_diff": float(rel.median()),
            "p95_rel_bound_diff": float(rel.quantile(0.95)), "max_rel_bound_diff": float(rel.max())}


def fit_growth(points: list[dict], key: str) -> dict:
    """Least squares  t = a + b * pairs + c * B + d * (pairs x B)  over the grid (pairs = all settings together).
    b is the per-pair work (cells, strata), c the per-replicate work (draws and sums over cells), d what would
    grow with pairs x B (a bootstrap that touches every pair in every replicate)."""
    x = np.array([[1.0, p["pairs"], p["boot"], p["pairs"] * p["boot"]] for p in points])
    y = np.array([p[key] for p in points])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = x @ coef
    return {"a_s": float(coef[0]), "us_per_pair": float(coef[1] * 1e6), "ms_per_replicate": float(coef[2] * 1e3),
            "ns_per_pair_replicate": float(coef[3] * 1e9), "max_rel_residual": float(np.max(np.abs(fitted - y) / y))}


# --------------------------------------------------------------------------------------------------------

def machine() -> dict:
    mem_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gb = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import duckdb
    import dbt.version
    def git(*cmd: str) -> str:
        try:
            return subprocess.run(["git", *cmd], cwd=REPO, capture_output=True, text=True).stdout.rstrip()
        except OSError:
            return ""
    changed = [line[3:] for line in git("status", "--porcelain", "--", "models", "macros", "dbt_project.yml").splitlines()]
    return {"git_head": git("rev-parse", "--short", "HEAD").strip(), "uncommitted_dbt_files": changed,
            "nproc": os.cpu_count(), "sched_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
            "mem_gb": mem_gb, "cpu": cpu, "python": platform.python_version(), "duckdb": duckdb.__version__,
            "dbt_core": dbt.version.__version__, "pandas": pd.__version__, "numpy": np.__version__,
            "loadavg_start": os.getloadavg()}


def run_single(tmp: Path, project: Path, args, info: dict, results: dict, verdicts: dict) -> bool:
    """The one-model configuration: N pairs x 3 settings, the builds at B and at the large B, the pandas loop,
    the numpy multinomial reference, the scaling grid in N and B. Returns whether the point estimates matched."""
    target_wall, target_ratio, target_large = 10.0, 20.0, 60.0
    # 1. data and warehouse ----------------------------------------------------------------------------
    t = time.perf_counter()
    pairs = generate_pairs(args.pairs, args.seed)
    log(f"generated {len(pairs):,} pairs ({args.pairs:,} per setting x {len(SETTINGS)}) in {time.perf_counter() - t:.1f} s")
    wh, prep = prepare_warehouse(tmp / f"n{args.pairs}", project, pairs, args.threads)
    log(f"setup: full dbt build of the empty project {prep['setup_build_s']:.1f} s, import-pairs "
        f"{prep['import_s']:.1f} s ({prep['parquet_mb']:.1f} MiB Parquet) [not part of the measurement]")
    results["setup"] = prep
    frame = analysis_frame(pairs)

    # 2. dbt build of the metric marts at B -------------------------------------------------------------
    # The setup build used other vars, so the next build re-parses the whole project (as the first build after
    # any change of --vars does); a scheduled job with fixed vars parses partially. Warm up once, report it.
    warm_up = wh.build(args.boot)
    results["warm_up_build"] = warm_up
    log(f"warm-up build B={args.boot} ({'full' if warm_up['full_parse'] else 'partial'} parse, not in the median): "
        f"wall {warm_up['wall_s']:.2f} s")
    builds = []
    for i in range(args.repeats):
        b = wh.build(args.boot)
        builds.append(b)
        log(f"dbt build B={args.boot} run {i + 1}/{args.repeats}: wall {b['wall_s']:.2f} s, CPU {b['cpu_s']:.1f} s, dbt elapsed "
            f"{b['dbt_elapsed_s']:.2f} s, SQL {b['sql_s']:.2f} s (node times added up: models {b['sql_models_sum_s']:.2f} + "
            f"{b['n_tests']} tests {b['sql_tests_sum_s']:.2f}), start-up/parse {b['overhead_s']:.2f} s "
            f"({'full' if b['full_parse'] else 'partial'} parse); metric_comparisons "
            f"{b['nodes_s']['metric_comparisons']:.2f} s; peak RSS {b['peak_rss_gib']:.2f} GiB, temp {b['temp_disk_gib']:.2f} GiB")
    main_build = sorted(builds, key=lambda b: b["wall_s"])[len(builds) // 2]  # the median run
    results["builds_main"] = builds

    # 5. point estimates: SQL vs pandas on the full data (before anything rebuilds the marts) -------------
    expected = pandas_point_estimates(frame)
    check = compare_point_estimates(wh, expected, args.boot)
    sql_marts = check.pop("sql")
    results["point_estimate_check"] = check
    log(f"point estimates SQL vs pandas: {check['rows']} rows, max |diff| {check['max_abs_diff']:.3g}, "
        f"unmatched {check['unmatched_rows']}, n_pairs mismatches {check['n_pairs_mismatches']}, "
        f"n_boot = B everywhere: {check['n_boot_all_equal_B']} -> {'OK' if check['ok'] else 'MISMATCH'}")

    # 3. baselines ------------------------------------------------------------------------------------
    loop_s, loop_cpu_s, _ = pandas_loop_bootstrap(frame, args.baseline_replicates, args.seed + 1)
    per_rep = loop_s / args.baseline_replicates
    loop_extrapolated = per_rep * args.boot
    loop_cpu_extrapolated = loop_cpu_s / args.baseline_replicates * args.boot
    results["pandas_loop"] = {"replicates_run": args.baseline_replicates, "seconds": loop_s, "cpu_s": loop_cpu_s,
                              "seconds_per_replicate": per_rep, "extrapolated_to_B_s": loop_extrapolated,
                              "extrapolated_to_B_cpu_s": loop_cpu_extrapolated}
    log(f"pandas loop: {args.baseline_replicates} replicates in {loop_s:.2f} s wall, {loop_cpu_s:.2f} s CPU "
        f"({per_rep * 1e3:.0f} ms each) -> extrapolated linearly to B={args.boot}: {loop_extrapolated:.0f} s wall, "
        f"{loop_cpu_extrapolated:.0f} s CPU")
    np_s, np_ci = numpy_multinomial_bootstrap(frame, args.boot, args.seed + 2)
    ci_check = compare_intervals(sql_marts, np_ci)
    results["numpy_multinomial"] = {"boot": args.boot, "seconds": np_s, "interval_check": ci_check}
    log(f"numpy multinomial on cell counts, B={args.boot}: {np_s:.2f} s; SQL vs numpy interval bounds differ by "
        f"median {ci_check['median_rel_bound_diff']:.1%} (p95 {ci_check['p95_rel_bound_diff']:.1%}) of the width "
        "(Monte Carlo noise between two valid bootstraps)")
    # A build right after the baselines, so the ratio compares measurements taken back to back.
    adjacent = wh.build(args.boot)
    builds.append(adjacent)
    log(f"dbt build B={args.boot} (after the baselines): wall {adjacent['wall_s']:.2f} s, CPU {adjacent['cpu_s']:.1f} s, "
        f"SQL {adjacent['sql_s']:.2f} s")
    # The same build with the unit tests, and the wider selection, once each (not part of the target)
    variants = {}
    for label, scope, unit_tests in (("metric marts, with the unit tests", "metric_marts", True),
                                     ("everything downstream of the imports", "downstream", False),
                                     ("everything downstream of the imports, with the unit tests", "downstream", True)):
        variant = wh.build(args.boot, scope, unit_tests)
        variants[label] = variant
        log(f"dbt build B={args.boot}, {label}: wall {variant['wall_s']:.2f} s, CPU {variant['cpu_s']:.1f} s, "
            f"{variant['n_models']} models, {variant['n_tests']} tests")
    results["variants"] = variants
    walls = sorted(b["wall_s"] for b in builds)
    median_wall = float(np.median(walls))
    median_sql = float(np.median([b["sql_s"] for b in builds]))
    median_cpu = float(np.median([b["cpu_s"] for b in builds]))
    results["main"] = {"pairs_per_setting": args.pairs, "boot": args.boot, "wall_s_runs": walls,
                       "wall_s_median": median_wall, "sql_s_median": median_sql,
                       "ratio_pandas_loop_over_dbt_wall": loop_extrapolated / median_wall,
                       "ratio_pandas_loop_over_sql": loop_extrapolated / median_sql,
                       "ratio_numpy_over_dbt_wall": np_s / median_wall,
                       "cpu_s_median": median_cpu, "cpu_s_runs": [b["cpu_s"] for b in builds],
                       "ratio_pandas_loop_over_dbt_cpu": loop_cpu_extrapolated / median_cpu,
                       "load1_before_runs": [b["load1_before"] for b in builds],
                       "nodes_s_median_run": main_build["nodes_s"]}

    # B large ---------------------------------------------------------------------------------------
    grid = {(args.pairs, args.boot): main_build}
    if args.boot_large:
        # the first build at a new B re-parses the project (vars changed): time the second, report both
        big_first = wh.build(args.boot_large)
        big = wh.build(args.boot_large)
        big["first_build_wall_s"] = big_first["wall_s"]
        grid[(args.pairs, args.boot_large)] = big
        np_big_s, _ = numpy_multinomial_bootstrap(frame, args.boot_large, args.seed + 3)
        results["large"] = {"build": big, "numpy_multinomial_s": np_big_s,
                            "pandas_loop_extrapolated_s": per_rep * args.boot_large}
        log(f"dbt build B={args.boot_large}: wall {big['wall_s']:.2f} s (first build after the change of B, with the "
            f"full re-parse: {big_first['wall_s']:.2f} s), CPU {big['cpu_s']:.1f} s, SQL {big['sql_s']:.2f} s; "
            f"metric_comparisons {big['nodes_s']['metric_comparisons']:.2f} s; numpy multinomial "
            f"{np_big_s:.2f} s; pandas loop (extrapolated) {per_rep * args.boot_large:.0f} s")

    # 4. scaling --------------------------------------------------------------------------------------
    if not args.no_scaling:
        scaling_pairs = [int(v) for v in args.scaling_pairs.split(",")]
        scaling_boot = [int(v) for v in args.scaling_boot.split(",")]
        for n in scaling_pairs:
            if n == args.pairs:
                target_wh = wh
            else:
                target_wh, _ = prepare_warehouse(tmp / f"n{n}", project, generate_pairs(n, args.seed), args.threads)
            for boot in scaling_boot:
                if (n, boot) in grid:
                    continue
                target_wh.build(boot)  # re-parse after the change of vars; not timed
                grid[(n, boot)] = target_wh.build(boot)
                g = grid[(n, boot)]
                log(f"scaling N={n:,}/setting B={boot}: wall {g['wall_s']:.2f} s, SQL {g['sql_s']:.2f} s, "
                    f"metric_comparisons {g['nodes_s']['metric_comparisons']:.2f} s")
    points = [{"pairs_per_setting": n, "pairs": n * len(SETTINGS), "boot": boot, "wall_s": g["wall_s"],
               "cpu_s": g["cpu_s"], "sql_s": g["sql_s"], "overhead_s": g["overhead_s"], **{f"{k}_s": g["nodes_s"][k] for k in HEAVY_NODES}}
              for (n, boot), g in sorted(grid.items())]
    results["scaling"] = points
    if len({p["pairs"] for p in points}) > 1 and len({p["boot"] for p in points}) > 2:
        results["growth_fit"] = {k: fit_growth(points, k) for k in
                                 ("wall_s", "cpu_s", "sql_s", "int_pair_members_s", "metric_comparisons_s")}

    # report ----------------------------------------------------------------------------------------
    log("\n=== Results ===")
    m = results["main"]
    log(f"code measured: git {info['git_head']}" + (f" plus uncommitted changes to {len(info['uncommitted_dbt_files'])} "
        "dbt file(s)" if info["uncommitted_dbt_files"] else ""))
    log(f"{args.pairs:,} pairs x {len(SETTINGS)} settings, strata: overall, documented_level, age_band (5), complaint (6)")
    log(f"dbt build of the metric marts (scheduled-job command, no unit tests), B={args.boot}: wall "
        f"{', '.join(f'{w:.2f}' for w in walls)} s (median {median_wall:.2f} s; SQL alone, first node start to last "
        f"node end, median {median_sql:.2f} s; the rest is dbt start-up and parsing)")
    for label, variant in variants.items():
        log(f"  {label}: wall {variant['wall_s']:.2f} s (one build)")
    log("  slowest models (median run): " + ", ".join(f"{k} {v:.2f} s" for k, v in list(m["nodes_s_median_run"].items())[:5]))
    log(f"pandas loop over resamples: {per_rep * 1e3:.0f} ms/replicate, measured over {args.baseline_replicates} "
        f"replicates, EXTRAPOLATED linearly to B={args.boot}: {loop_extrapolated:.0f} s")
    log(f"speed-up of the dbt build over the pandas loop: {m['ratio_pandas_loop_over_dbt_wall']:.1f}x (wall) / "
        f"{m['ratio_pandas_loop_over_sql']:.1f}x (SQL alone) / {m['ratio_pandas_loop_over_dbt_cpu']:.1f}x (CPU seconds: "
        f"dbt {median_cpu:.1f} s vs pandas {loop_cpu_extrapolated:.0f} s; less sensitive to other load on the machine)")
    log(f"1-minute load average before each B={args.boot} build: "
        + ", ".join(f"{x:.1f}" for x in m["load1_before_runs"]) + f" (on {info['nproc']} CPUs)")
    log(f"vectorised numpy multinomial reference, B={args.boot}: {np_s:.2f} s "
        f"({median_wall / np_s:.1f}x faster than the dbt build)")
    verdicts.update({
        f"one model: wall <= {target_wall:g} s at B={args.boot}": median_wall <= target_wall,
        f"one model: >= {target_ratio:g}x faster than the pandas loop": m["ratio_pandas_loop_over_dbt_wall"] >= target_ratio,
        "one model: point estimates equal pandas to 1e-12": check["ok"],
    })
    if "large" in results:
        big = results["large"]["build"]
        log(f"B={args.boot_large}: dbt build wall {big['wall_s']:.2f} s (SQL {big['sql_s']:.2f} s; the first build after "
            f"changing B, with the full re-parse: {big['first_build_wall_s']:.2f} s); numpy multinomial "
            f"{results['large']['numpy_multinomial_s']:.2f} s")
        # judged on the slower of the two builds
        verdicts[f"one model: wall <= {target_large:g} s at B={args.boot_large}"] = max(big["wall_s"], big["first_build_wall_s"]) <= target_large
    log("\nscaling (seconds)")
    header = f"{'N/setting':>10} {'B':>6} {'wall':>7} {'CPU':>7} {'SQL':>7} {'startup':>7} " + " ".join(f"{k[:24]:>24}" for k in HEAVY_NODES)
    log(header)
    for p in points:
        log(f"{p['pairs_per_setting']:>10,} {p['boot']:>6} {p['wall_s']:>7.2f} {p['cpu_s']:>7.1f} {p['sql_s']:>7.2f} {p['overhead_s']:>7.2f} "
            + " ".join(f"{p[f'{k}_s']:>24.2f}" for k in HEAVY_NODES))
    if "growth_fit" in results:
        log("fit t = a + b*pairs + c*B + d*pairs*B  (pairs = all settings):")
        for k, f in results["growth_fit"].items():
            log(f"  {k:<38} a = {f['a_s']:6.2f} s, b = {f['us_per_pair']:6.2f} us per pair, c = {f['ms_per_replicate']:6.3f} ms "
                f"per replicate, d = {f['ns_per_pair_replicate']:7.4f} ns per pair-replicate "
                f"(max rel. residual {f['max_rel_residual']:.0%})")
    return bool(check["ok"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=150_000, help="Pairs per setting (x 3 settings). Default 150000.")
    parser.add_argument("--boot", type=int, default=1000, help="Bootstrap resamples of the main measurement. Default 1000.")
    parser.add_argument("--boot-large", type=int, default=10_000, help="Large-B measurement (0: skip). Default 10000.")
    parser.add_argument("--repeats", type=int, default=3, help="Builds at the main configuration (median reported). Default 3.")
    parser.add_argument("--baseline-replicates", type=int, default=50,
                        help="Replicates the pandas loop actually runs; its time is extrapolated linearly to B. Default 50.")
    parser.add_argument("--scaling-pairs", default="50000,150000", help="Comma-separated pairs per setting for the scaling grid.")
    parser.add_argument("--scaling-boot", default="250,1000,4000", help="Comma-separated B for the scaling grid.")
    parser.add_argument("--no-scaling", action="store_true", help="Skip the scaling grid.")
    parser.add_argument("--seed", type=int, default=20261129, help="numpy seed of the data and the baselines.")
    parser.add_argument("--threads", type=int, default=None, help="dbt threads (BIASMIRROR_THREADS; profile default 2).")
    parser.add_argument("--quick", action="store_true",
                        help="Smoke run: N = 20,000 per setting, B = 200 (large B 1000, small scaling grid).")
    parser.add_argument("--no-snapshot", action="store_true", help="Run dbt on the checkout instead of a copy of it.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder (warehouses, run_results).")
    parser.add_argument("--json", type=Path, default=None, help="Also write the results as JSON to this path.")
    parser.add_argument("--models-grid", default="1,2,4,10",
                        help="Numbers of models for the many-models configuration (cumulative imports). Default 1,2,4,10.")
    parser.add_argument("--reference-model", action="store_true",
                        help="Many models: compare each model with model00 only (var comparison_reference_model) instead "
                             "of every two models.")
    parser.add_argument("--models-pairs", type=int, default=150_000, help="Pairs per setting and model there. Default 150000.")
    parser.add_argument("--datasets", type=int, default=200, help="Data sets of the many-data-sets configuration. Default 200.")
    parser.add_argument("--dataset-pairs", type=int, default=3000, help="Pairs per data set there. Default 3000.")
    parser.add_argument("--only", choices=["single", "models", "datasets"], default=None,
                        help="Run one configuration only (default: all three).")
    args = parser.parse_args(argv)
    if args.quick:  # smaller defaults; options given explicitly still win
        quick = {"pairs": 20_000, "boot": 200, "boot_large": 1000, "repeats": 1, "baseline_replicates": 10,
                 "scaling_pairs": "5000,20000", "scaling_boot": "100,200,800", "models_grid": "1,2,3",
                 "models_pairs": 10_000, "datasets": 20, "dataset_pairs": 1000}
        for name, value in quick.items():
            if getattr(args, name) == parser.get_default(name):
                setattr(args, name, value)

    info = machine()
    log(f"machine: {info['nproc']} CPUs ({info['cpu']}), {info['mem_gb']} GiB RAM; duckdb {info['duckdb']}, "
        f"dbt-core {info['dbt_core']}, pandas {info['pandas']}, numpy {info['numpy']}; load {info['loadavg_start']}")
    results: dict = {"config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}, "machine": info}
    tmp = Path(tempfile.mkdtemp(prefix="biasmirror-bench-"))
    try:
        project = REPO if args.no_snapshot else snapshot_project(tmp / "project")
        log(f"work folder: {tmp}; dbt project: {project}")

        verdicts: dict = {}
        ok = True
        if args.only in (None, "single"):
            ok = run_single(tmp, project, args, info, results, verdicts)
        if args.only in (None, "models"):
            log("\n=== Many models: the scheduled rebuild after the imports ===")
            results["models"] = grid = run_models_grid(tmp, project, args, results)
            last = grid["points"][-1]
            verdicts[f"{last['models']} models: scheduled rebuild <= 60 s wall"] = last["wall_s"] <= 60
            verdicts[f"{last['models']} models: peak RSS of the dbt process <= 4 GiB"] = last["peak_rss_gib"] <= 4
            verdicts[f"{last['models']} models: temporary disk <= 2 GiB"] = last["temp_disk_gib"] <= 2
            if grid["fits"]:
                for key, fit in grid["fits"].items():
                    lin, quad = fit["linear"], fit["quadratic"]
                    log(f"fit {key}: linear a = {lin['a']:.2f} + b = {lin['b']:.2f} per model (max rel. residual "
                        f"{lin['max_rel_residual']:.0%}); quadratic c = {quad['c']:.3f} per model^2; per design "
                        f"{fit['per_design']['b'] * 1e3:.2f} ms (residual {fit['per_design']['max_rel_residual']:.0%})")
        if args.only in (None, "datasets"):
            log("\n=== Many data sets ===")
            results["datasets"] = many = run_datasets_config(tmp, project, args)
            verdicts[f"{args.datasets} data sets x {args.dataset_pairs} pairs: <= 30 s wall"] = many["build"]["wall_s"] <= 30
        is_target_config = (args.pairs, args.boot, args.boot_large) == (150_000, 1000, 10_000)
        log("\ntargets:" + ("" if is_target_config else " (NOT the target configuration: indicative only)"))
        for name, passed in verdicts.items():
            log(f"  [{'MET' if passed else 'MISSED'}] {name}")
        results["verdicts"] = verdicts
        info["loadavg_end"] = os.getloadavg()
        if args.json:
            args.json.write_text(json.dumps(results, indent=2, default=str))
            log(f"wrote {args.json}")
        return 0 if ok else 1
    finally:
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
