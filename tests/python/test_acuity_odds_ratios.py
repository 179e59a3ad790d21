"""audit.acuity_odds_ratios on planted 2 x 2 tables: the estimate against scipy's sample odds ratio, the interval
against the Woolf (log-normal) interval, every replicate's value (zero-cell correction and empty margins
included) recomputed with numpy from the replicate cells, and the zero-cell and empty-margin cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats.contingency import odds_ratio as scipy_odds_ratio

from warehouse_workspace import Workspace
from pair_references import reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_BOOT = 1000
MIN_CHANGED = 10  # dbt_project.yml default of var min_changed_pairs

# documented level -> (a = up f_to_m, b = down f_to_m, c = up m_to_f, d = down m_to_f, unchanged pairs per sex)
PLANTED = {
    2: (120, 200, 180, 110, 1500),   # large cells, OR = 120 x 110 / (200 x 180) = 0.367 < 1
    3: (0, 15, 12, 9, 300),          # a zero cell: Haldane-Anscombe
    4: (0, 0, 5, 3, 100),            # no changed f_to_m pair: undefined
    1: (2, 3, 1, 2, 60),             # small cells: replicates with zero cells and empty margins
}


def planted_pairs() -> pd.DataFrame:
    rows = []
    for level, (a, b, c, d, unchanged) in PLANTED.items():
        # (original sex, original level, counterfactual level, count): up = the copy one level less severe
        for sex, original, copy, count in (("F", 2, 3, a), ("F", 3, 2, b), ("M", 2, 3, c), ("M", 3, 2, d),
                                           ("F", 2, 2, unchanged), ("M", 2, 2, unchanged)):
            rows += [(sex, original, copy, level)] * count
    frame = pd.DataFrame(rows, columns=["original_sex", "original_level", "counterfactual_level", "true_level"])
    frame.insert(0, "pair_id", [f"p{i:06d}" for i in range(len(frame))])
    return frame.sample(frac=1.0, random_state=3).reset_index(drop=True)


def odds_ratio_rule(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The documented rule, in numpy: (odds ratio or nan, corrected)."""
    a, b, c, d = (np.asarray(x, dtype=float) for x in (a, b, c, d))
    empty = (a + b == 0) | (c + d == 0) | (a + c == 0) | (b + d == 0)
    zero = (a == 0) | (b == 0) | (c == 0) | (d == 0)
    shift = np.where(zero, 0.5, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = ((a + shift) * (d + shift)) / ((b + shift) * (c + shift))
    return np.where(empty, np.nan, value), zero & ~empty


@pytest.fixture(scope="module")
def built(module_workspace: Workspace):
    pairs = planted_pairs()
    module_workspace.import_pairs(pairs, "planted", "m", "full")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT, "bootstrap_unit": "pair"})
    odds = module_workspace.query("select * from audit.acuity_odds_ratios where dataset = 'planted'")
    return module_workspace, pairs, odds


def level_row(odds: pd.DataFrame, level: int) -> pd.Series:
    rows = odds[(odds["stratum_name"] == "documented_level") & (odds["stratum_value"] == str(level))]
    assert len(rows) == 1
    return rows.iloc[0]


def test_estimate_and_interval_match_scipy_on_large_cells(built) -> None:
    _, pairs, odds = built
    a, b, c, d, _ = PLANTED[2]
    row = level_row(odds, 2)
    assert (row.n_up_f_to_m, row.n_down_f_to_m, row.n_up_m_to_f, row.n_down_m_to_f) == (a, b, c, d)
    reference = scipy_odds_ratio([[a, b], [c, d]], kind="sample")
    assert row.odds_ratio == pytest.approx(reference.statistic, rel=1e-12)
    assert row.odds_ratio < 1  # the planted tilt: female originals presented as male move down more often
    # the same number from the paired metrics' shares (the direction sizes cancel)
    subset = pairs[pairs["true_level"] == 2]
    shares = reference_paired_metrics(subset["original_sex"], subset["original_level"], subset["counterfactual_level"])
    assert row.odds_ratio == pytest.approx((shares["p_up_f_to_m"] / shares["p_down_f_to_m"])
                                           / (shares["p_up_m_to_f"] / shares["p_down_m_to_f"]), rel=1e-12)
    # percentile bootstrap interval against Woolf's: same centre and width on the log scale within Monte Carlo error
    woolf = reference.confidence_interval(0.95)
    assert np.log(row.ci_low) == pytest.approx(np.log(woolf.low), abs=0.06)
    assert np.log(row.ci_high) == pytest.approx(np.log(woolf.high), abs=0.06)
    width, woolf_width = np.log(row.ci_high / row.ci_low), np.log(woolf.high / woolf.low)
    assert width == pytest.approx(woolf_width, rel=0.12)
    assert not row.zero_cell_corrected and pd.isna(row.undefined_reason)
    assert row.n_boot == N_BOOT and row.n_boot_zero_cell == 0 and row.n_boot_undefined == 0
    assert row.min_cell == min(a, b, c, d) and row.n_changed == a + b + c + d
    assert not row.is_sparse and not row.is_small_stratum


def test_zero_cell_gets_the_haldane_anscombe_correction(built) -> None:
    _, _, odds = built
    a, b, c, d, _ = PLANTED[3]
    row = level_row(odds, 3)
    expected = ((a + 0.5) * (d + 0.5)) / ((b + 0.5) * (c + 0.5))  # Haldane-Anscombe, by hand
    assert row.odds_ratio == pytest.approx(expected, rel=1e-12)
    assert row.zero_cell_corrected and pd.isna(row.undefined_reason)
    assert row.is_sparse  # a corrected table is never shown as an unflagged interval
    # every replicate keeps a value (no margin can empty: b, c and d are large), most of them corrected
    assert row.n_boot == N_BOOT and row.n_boot_undefined == 0 and row.n_boot_zero_cell == N_BOOT


def test_empty_margin_is_null_with_its_reason(built) -> None:
    _, _, odds = built
    row = level_row(odds, 4)
    assert pd.isna(row.odds_ratio) and row.undefined_reason == "no changed f_to_m pair"
    assert not row.zero_cell_corrected and row.is_sparse
    assert row.n_boot == 0 and row.n_boot_undefined == N_BOOT  # counted, not silently dropped


def test_every_replicate_follows_the_rule(built) -> None:
    """Recompute each stratum's summary from the replicate cells with numpy: values, interval, counts."""
    workspace, _, odds = built
    replicates = workspace.query(
        "select stratum_name, stratum_value, replicate, up_f_to_m, down_f_to_m, up_m_to_f, down_m_to_f "
        "from intermediate.int_paired_metric_replicates where dataset = 'planted' and replicate >= 0")
    for row in odds.itertuples():
        cells = replicates[(replicates["stratum_name"] == row.stratum_name) & (replicates["stratum_value"] == row.stratum_value)]
        assert len(cells) == N_BOOT
        values, corrected = odds_ratio_rule(cells["up_f_to_m"], cells["down_f_to_m"], cells["up_m_to_f"], cells["down_m_to_f"])
        defined = values[~np.isnan(values)]
        assert row.n_boot == len(defined), row
        assert row.n_boot_zero_cell == int(corrected.sum()), row
        assert row.n_boot_undefined == N_BOOT - len(defined), row
        if len(defined):
            low, high = np.quantile(defined, [0.025, 0.975])
            assert row.ci_low == pytest.approx(low, rel=1e-9) and row.ci_high == pytest.approx(high, rel=1e-9)
        zero_width = pd.isna(row.ci_low) or row.ci_high - row.ci_low <= 0
        expected_sparse = (row.min_cell < MIN_CHANGED or zero_width or row.zero_cell_corrected
                           or row.n_boot_zero_cell > 0 or row.n_boot_undefined > 0)
        assert row.is_sparse == expected_sparse, row
    small = level_row(odds, 1)
    assert small.n_boot_zero_cell > 0 and small.n_boot_undefined > 0 and small.is_sparse


def test_overall_stratum_pools_the_levels(built) -> None:
    _, _, odds = built
    row = odds[odds["stratum_name"] == "overall"].iloc[0]
    a, b, c, d = (sum(PLANTED[level][i] for level in PLANTED) for i in range(4))
    assert row.odds_ratio == pytest.approx(scipy_odds_ratio([[a, b], [c, d]], kind="sample").statistic, rel=1e-12)
