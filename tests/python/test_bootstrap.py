"""The SQL pair bootstrap: standard errors against analytic ones, reproducibility, independence from threads."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from warehouse_workspace import Workspace
from pair_references import random_pairs

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_PAIRS = 20000
N_BOOT = 2000


@pytest.fixture(scope="module")
def large(module_workspace: Workspace) -> tuple[Workspace, pd.DataFrame]:
    frame = random_pairs(np.random.default_rng(7), N_PAIRS, shift_probability=0.15, female_bias=0.1)
    module_workspace.import_pairs(frame, "big", "m", "full")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, frame


def analytic_standard_errors(frame: pd.DataFrame) -> dict[str, float]:
    """Large-sample standard errors of the overall metrics (independent pairs)."""
    sex = frame["original_sex"].to_numpy()
    delta = (frame["counterfactual_level"] - frame["original_level"]).to_numpy()
    female_minus_male = np.where(sex == "M", delta, -delta)
    n = len(frame)

    def proportion(p: float, size: int) -> float:
        return np.sqrt(p * (1 - p) / size)

    def direction_sd(mask: np.ndarray) -> tuple[float, float, float]:
        up, down, size = (delta[mask] > 0).mean(), (delta[mask] < 0).mean(), mask.sum()
        # var(up - down) per pair is p_up + p_down - (p_up - p_down)^2 (a three-valued outcome)
        return up, np.sqrt((up + down - (up - down) ** 2) / size), size

    p_up_mf, se_dts_mf, n_mf = direction_sd(sex == "M")
    p_up_fm, se_dts_fm, n_fm = direction_sd(sex == "F")
    return {
        "pdr": proportion((delta != 0).mean(), n),
        "nmd": female_minus_male.std(ddof=1) / np.sqrt(n),
        "pooled_rate": np.sign(female_minus_male).std(ddof=1) / np.sqrt(n),
        "p_up_m_to_f": proportion(p_up_mf, n_mf),
        "dts_m_to_f": se_dts_mf,
        "dts_f_to_m": se_dts_fm,
        "nats_plus": np.sqrt(proportion(p_up_mf, n_mf) ** 2 + proportion(p_up_fm, n_fm) ** 2),
    }


def test_bootstrap_standard_errors_match_analytic_ones_within_5_percent(large) -> None:
    workspace, frame = large
    replicates = workspace.query(
        "select * from intermediate.int_paired_metric_replicates where stratum_name = 'overall' and replicate >= 0")
    assert len(replicates) == N_BOOT
    for metric, analytic in analytic_standard_errors(frame).items():
        bootstrap = replicates[metric].std(ddof=1)
        assert bootstrap == pytest.approx(analytic, rel=0.05), metric


def test_each_stratum_is_an_exact_bootstrap_of_its_own_pairs(large) -> None:
    """Strata are resampled on their own: within each documented level, the bootstrap standard errors match the
    analytic ones of that level's pairs."""
    workspace, frame = large
    replicates = workspace.query(
        "select * from intermediate.int_paired_metric_replicates where stratum_name = 'documented_level' and replicate >= 0")
    levels = sorted(frame["true_level"].unique())
    assert sorted(replicates["stratum_value"].astype(int).unique()) == levels
    for level in levels:
        subset = frame[frame["true_level"] == level]
        rows = replicates[replicates["stratum_value"] == str(level)]
        assert len(rows) == N_BOOT
        for metric in ("pdr", "pooled_rate", "nmd"):
            analytic = analytic_standard_errors(subset)[metric]
            assert rows[metric].std(ddof=1) == pytest.approx(analytic, rel=0.07), (level, metric)


def test_percentile_interval_is_close_to_the_normal_interval(large) -> None:
    workspace, frame = large
    metrics = workspace.query("select * from audit.paired_metrics where stratum_name = 'overall'")
    for metric, analytic in analytic_standard_errors(frame).items():
        row = metrics[metrics.metric == metric].iloc[0]
        assert (row.ci_high - row.ci_low) / 2 == pytest.approx(1.96 * analytic, rel=0.1), metric


def test_resampling_weights_are_poisson_one_and_independent(large) -> None:
    """Mean and variance 1 per pair, and no correlation between replicates (the trap in docs/bootstrap.md, "Hashing pitfalls")."""
    workspace, _ = large
    per_replicate = workspace.query(
        "select replicate, sum(weight) as total from intermediate.int_pair_bootstrap_weights "
        "join intermediate.int_pair_cells using (cell_id) "
        "where replicate >= 0 and stratum_name = 'overall' group by replicate order by replicate")["total"].to_numpy()
    # total weight of N Poisson(1) draws: mean N, variance N
    assert per_replicate.mean() == pytest.approx(N_PAIRS, rel=0.002)
    assert per_replicate.var(ddof=1) == pytest.approx(N_PAIRS, rel=0.1)
    lag_one = np.corrcoef(per_replicate[:-1], per_replicate[1:])[0, 1]
    assert abs(lag_one) < 4 / np.sqrt(N_BOOT)


def test_same_seed_same_intervals_whatever_the_thread_count(large) -> None:
    workspace, _ = large
    compiled = next((workspace.root / "target" / "compiled").rglob("int_pair_bootstrap_weights.sql"))
    sql = compiled.read_text()
    # the compiled model reads the built intermediate relations; run it at 1 and 4 DuckDB threads
    results = []
    for threads in (1, 4):
        with duckdb.connect(str(workspace.warehouse), read_only=True) as con:
            con.execute(f"set threads = {threads}")
            results.append(con.execute(f"select * from ({sql}) order by cell_id, replicate").df())
    pd.testing.assert_frame_equal(results[0], results[1])
    stored = workspace.query("select * from intermediate.int_pair_bootstrap_weights order by cell_id, replicate")
    pd.testing.assert_frame_equal(stored.reset_index(drop=True), results[0].reset_index(drop=True), check_dtype=False)


def test_rebuild_is_identical_and_another_seed_changes_only_the_intervals(large) -> None:
    workspace, _ = large
    select = ["stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+"]
    first = workspace.query("select * from audit.paired_metrics order by stratum_name, stratum_value, metric")
    workspace.build(select=select, variables={"bootstrap_resamples": N_BOOT})
    again = workspace.query("select * from audit.paired_metrics order by stratum_name, stratum_value, metric")
    pd.testing.assert_frame_equal(first, again)
    workspace.build(select=select, variables={"bootstrap_resamples": N_BOOT, "bootstrap_seed": 99})
    other = workspace.query("select * from audit.paired_metrics order by stratum_name, stratum_value, metric")
    np.testing.assert_allclose(other.estimate, first.estimate)
    assert not np.allclose(other.ci_low, first.ci_low)


def test_every_cell_weight_is_an_exact_poisson_draw(large) -> None:
    """Each cell of a group and stratum gets one Poisson(n) draw per replicate (n = its pairs): pooled over the
    cells, the randomised probability integral transform of the draws is uniform, both for the small cells (the
    tabulated CDF) and the large ones (PTRS)."""
    workspace, _ = large
    weights = workspace.query(
        "select cells.cell_id, cells.n_pairs, weights.replicate, weights.weight "
        "from intermediate.int_pair_bootstrap_weights as weights join intermediate.int_pair_cells as cells using (cell_id)")
    observed = weights[weights["replicate"] == -1]
    assert (observed["weight"] == observed["n_pairs"]).all()
    draws = weights[weights["replicate"] >= 0]
    assert draws.groupby("cell_id").size().eq(N_BOOT).all()
    rng = np.random.default_rng(0)
    n, k = draws["n_pairs"].to_numpy(), draws["weight"].to_numpy()
    pit = stats.poisson.cdf(k - 1, n) + rng.random(len(k)) * stats.poisson.pmf(k, n)
    small, large_n = n < 1000, n >= 1000
    assert small.sum() > 10 * N_BOOT and large_n.sum() > 2 * N_BOOT  # both methods are exercised
    for part in (small, large_n):
        assert stats.kstest(pit[part], "uniform").pvalue > 0.001
        z = (k[part] - n[part]) / np.sqrt(n[part])
        assert abs(z.mean()) < 4 / np.sqrt(part.sum()) and z.var() == pytest.approx(1, abs=0.05)


def test_comparison_replicates_do_not_depend_on_the_thread_count(large) -> None:
    workspace, frame = large
    other = frame.copy()
    other.loc[other.index[::7], "counterfactual_level"] = other.loc[other.index[::7], "original_level"]
    workspace.import_pairs(other, "big", "m", "text_only", name="text.parquet")
    workspace.build(select=["stg_inference__imported_pairs+"], variables={"bootstrap_resamples": 200})
    compiled = next((workspace.root / "target" / "compiled").rglob("int_metric_comparison_replicates.sql")).read_text()
    results = []
    for threads in (1, 4):
        with duckdb.connect(str(workspace.warehouse), read_only=True) as con:
            con.execute(f"set threads = {threads}")
            results.append(con.execute(f"select * from ({compiled}) order by design_id, replicate").df())
    assert len(results[0]) > 200
    pd.testing.assert_frame_equal(results[0], results[1])
