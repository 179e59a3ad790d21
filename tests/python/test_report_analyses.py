"""analyses/*.sql: every analysis compiles and runs on the demo warehouse, and its numbers agree with the marts
and with independent computations."""

from __future__ import annotations


import duckdb
import numpy as np
import pandas as pd
import pytest

from biasmirror.paths import project_dir
from demo_warehouse import VARIABLES, demo_warehouse, mimic_root

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def analyses() -> dict[str, pd.DataFrame]:
    from biasmirror.dbt_runner import run_dbt

    workspace = demo_warehouse()
    with workspace.active():
        run_dbt("compile", select=["path:analyses"], variables={**VARIABLES, "mimic_root": str(mimic_root(workspace))})
    compiled = workspace.root / "target" / "compiled" / "biasmirror" / "analyses"
    results = {}
    with duckdb.connect(str(workspace.warehouse), read_only=True) as con:
        for path in sorted(compiled.glob("*.sql")):
            results[path.stem] = con.execute(path.read_text()).df()
    return results


def test_every_analysis_compiles_and_returns_rows(analyses: dict[str, pd.DataFrame]) -> None:
    expected = {p.stem for p in (project_dir() / "analyses").glob("*.sql")}
    assert set(analyses) == expected
    empty = [name for name, frame in analyses.items() if frame.empty]
    assert empty == []


def test_table_2_is_the_paired_metrics_mart(analyses) -> None:
    table = analyses["table_2_paired_metrics"]
    mart = demo_warehouse().query("select * from audit.paired_metrics where stratum_name = 'overall'")
    merged = mart.merge(table, on=["dataset", "model", "generator", "metric"])
    for setting in ("full", "text_only", "tabular_only"):
        rows = merged[merged["setting"] == setting]
        np.testing.assert_allclose(rows["estimate"], rows[setting], equal_nan=True)
        np.testing.assert_allclose(rows["ci_low"], rows[f"{setting}_ci_low"], equal_nan=True)
    assert len(merged) == len(mart)


def test_national_projection_is_labelled_illustrative(analyses) -> None:
    projection = analyses["national_projection_illustrative"]
    pooled = demo_warehouse().query("select dataset, model, generator, estimate, ci_low, ci_high from audit.paired_metrics "
                                    "where stratum_name = 'overall' and setting = 'full' and metric = 'pooled_rate'")
    merged = projection.merge(pooled, on=["dataset", "model", "generator"])
    assert len(merged) == len(pooled)
    np.testing.assert_allclose(merged["illustrative_additional_lower_severity_assignments"], 20.9e6 * 0.48 * merged["estimate"])
    np.testing.assert_allclose(merged["illustrative_range_low"], 20.9e6 * 0.48 * merged["ci_low"])
    assert merged["caveat"].str.contains("not a count of harmed patients").all()
    # the study's own numbers: 1.09% [0.89, 1.29] -> about 110,000 [90,000, 130,000]
    assert round(20.9e6 * 0.48 * 0.0109, -4) == 110000 and round(20.9e6 * 0.48 * 0.0089, -4) == 90000
    assert merged["caveat"].str.startswith("Illustration only").all()
    text = (project_dir() / "analyses" / "national_projection_illustrative.sql").read_text()
    assert "ILLUSTRATIVE ONLY" in text


def test_pooled_rate_breakdown_adds_up(analyses) -> None:
    table = analyses["supplementary_table_12_pooled_rate"]
    np.testing.assert_allclose(table["contribution_m_to_f"] + table["contribution_f_to_m"], table["pooled_rate"], atol=1e-12)
    pairs = demo_warehouse().query("select dataset, model, generator, setting, direction from audit.pair_outcomes")
    counts = pairs.groupby(["dataset", "model", "generator", "setting", "direction"]).size().unstack(fill_value=0).reset_index()
    merged = table.merge(counts, on=["dataset", "model", "generator", "setting"])
    assert (merged["n_m_to_f"] == merged["m_to_f"]).all() and (merged["n_f_to_m"] == merged["f_to_m"]).all()


def test_acuity_odds_ratios_match_numpy(analyses) -> None:
    table = analyses["supplementary_tables_3_6_acuity_strata"]
    pairs = demo_warehouse().query(
        "select setting, direction, delta, true_level from audit.pair_outcomes where generator = 'rules'")
    checked = 0
    for row in table[table["generator"] == "rules"].itertuples():
        subset = pairs[(pairs["setting"] == row.setting) & (pairs["true_level"] == int(row.documented_level))]
        def share(direction: str, up: bool, subset=subset) -> int:
            return ((subset["direction"] == direction) & ((subset["delta"] > 0) if up else (subset["delta"] < 0))).sum()

        up_fm, down_fm, up_mf, down_mf = share("f_to_m", True), share("f_to_m", False), share("m_to_f", True), share("m_to_f", False)
        assert row.n_pairs == len(subset)
        # undefined when a margin of the 2 x 2 table is empty; 0.5 added to every cell when one is zero
        cells = np.array([up_fm, down_fm, up_mf, down_mf], dtype=float)
        if up_fm + down_fm == 0 or up_mf + down_mf == 0 or up_fm + up_mf == 0 or down_fm + down_mf == 0:
            assert pd.isna(row.or_up_f_to_m_vs_m_to_f) and isinstance(row.or_undefined_reason, str)
        else:
            a, b, c, d = cells + (0.5 if (cells == 0).any() else 0.0)
            expected = (a / b) / (c / d)  # the direction sizes cancel
            assert row.or_up_f_to_m_vs_m_to_f == pytest.approx(expected, rel=1e-12, abs=1e-15)
            assert bool(row.or_zero_cell_corrected) == bool((cells == 0).any())
            assert row.or_ci_low <= row.or_up_f_to_m_vs_m_to_f + 1e-12 and row.or_up_f_to_m_vs_m_to_f <= row.or_ci_high + 1e-12
        checked += 1
    assert checked == len(table[table["generator"] == "rules"]) >= 9  # 3 settings x at least 3 levels
    assert table["or_up_f_to_m_vs_m_to_f"].notna().any()


def test_level_distribution_and_dyads(analyses) -> None:
    levels = analyses["table_4_triage_levels_by_sex"]
    cohort = demo_warehouse().query("select dataset, sex, documented_level from audit.triage_cohort")
    assert levels.groupby("dataset")["share"].sum().round(12).eq(1).all()
    assert levels["n_female"].sum() == (cohort["sex"] == "F").sum()
    assert levels["n_records"].sum() == len(cohort)
    dyads = analyses["figure_6_nurse_patient_dyads"]
    assert set(dyads["dyad"]) == {"F_nurse_F_patient", "F_nurse_M_patient", "M_nurse_F_patient", "M_nurse_M_patient"}
    # male-patient dyads hold only m_to_f pairs, so their f_to_m skew is undefined (and the reverse)
    assert dyads.loc[dyads["dyad"].str.endswith("M_patient"), "dts_f_to_m"].isna().all()
    assert dyads.loc[dyads["dyad"].str.endswith("F_patient"), "dts_m_to_f"].isna().all()
    ranked = analyses["term_associations_ranked"]
    first = ranked[ranked["rank_by_pooled_rate"] == 1]
    for row in first.itertuples():
        group = ranked[(ranked["model"] == row.model) & (ranked["generator"] == row.generator) & (ranked["setting"] == row.setting)]
        assert abs(row.pooled_rate) == pytest.approx(group["pooled_rate"].abs().max())
