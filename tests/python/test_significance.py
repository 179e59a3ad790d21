"""p-values, q-values and minimum detectable effects of audit.paired_metrics and audit.metric_comparisons: the
p-values against scipy's normal tail, the q-values against statsmodels' multipletests over each documented
family, the standard errors against the analytic SE of each site's pooled rate, and planted sites - 40 without an
effect and 2 with one, 800 pairs each, imported with `biasmirror import-pairs` and a stratum column - whose
q-values must single out the two real ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests
from typer.testing import CliRunner

from biasmirror.cli import app

from warehouse_workspace import Workspace
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): the module builds a warehouse with dbt
pytestmark = pytest.mark.slow

N_SITES_NULL = 40
REAL_SITES = ("site40", "site41")
PAIRS_PER_SITE = 800
N_BOOT = 1000
TESTED = ["dts_m_to_f", "dts_f_to_m", "nats_plus", "nats_minus", "nmd", "pooled_rate"]
PAIRED_FAMILY = ["dataset", "model", "generator", "setting", "stratum_name"]
COMPARISON_FAMILY = ["comparison", "dataset", "model_a", "generator_a", "setting_a", "model_b", "generator_b",
                     "setting_b", "stratum_name"]


def planted_sites(rng: np.random.Generator) -> pd.DataFrame:
    """42 sites of 800 pairs: sites 0-39 with no sex effect, sites 40 and 41 where the female presentation moves
    to the less severe level in 75% of the changed pairs."""
    frames = []
    for site in range(N_SITES_NULL + len(REAL_SITES)):
        bias = 0.25 if f"site{site:02d}" in REAL_SITES else 0.0
        frame = random_pairs(rng, PAIRS_PER_SITE, shift_probability=0.2, female_bias=bias)
        frame["pair_id"] = f"s{site:02d}-" + frame["pair_id"]
        frame["stratum_site"] = f"site{site:02d}"
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def import_with_cli(workspace: Workspace, frame: pd.DataFrame, dataset: str, model: str, setting: str) -> None:
    path = workspace.root / f"{dataset}_{model}_{setting}.csv"
    frame.to_csv(path, index=False)
    with workspace.active():
        result = CliRunner().invoke(app, ["import-pairs", str(path), "--dataset", dataset, "--model", model,
                                          "--setting", setting])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def sites(module_workspace: Workspace) -> tuple[Workspace, pd.DataFrame]:
    """The planted sites as setting full, and the same pairs as setting text_only with 30% of the copies reset to
    the original's level (so that audit.metric_comparisons compares the two settings site by site)."""
    rng = np.random.default_rng(20261201)
    full = planted_sites(rng)
    text = full.copy()
    reset = rng.random(len(text)) < 0.3
    text.loc[reset, "counterfactual_level"] = text.loc[reset, "original_level"]
    import_with_cli(module_workspace, full, "planted", "m1", "full")
    import_with_cli(module_workspace, text, "planted", "m1", "text_only")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, full


def adjusted(frame: pd.DataFrame, family: list[str], method: str) -> pd.Series:
    """statsmodels' adjustment of the non-null p-values of each family."""
    expected = pd.Series(np.nan, index=frame.index)
    for _, rows in frame[frame["p_value"].notna()].groupby(family):
        expected[rows.index] = multipletests(rows["p_value"].to_numpy(), method=method)[1]
    return expected


def test_p_values_are_the_normal_tail_of_estimate_over_se(sites) -> None:
    workspace, _ = sites
    rows = workspace.query("select * from audit.paired_metrics")
    tested = rows[rows["metric"].isin(TESTED) & (rows["se"] > 0)]
    assert len(tested) > 500
    expected = 2 * norm.sf(tested["estimate"].abs() / tested["se"])
    np.testing.assert_allclose(tested["p_value"], np.minimum(expected, 1.0), rtol=1e-6, atol=1e-300)
    assert tested["p_value"].min() < 1e-6 and tested["p_value"].max() > 0.5  # the tails and the middle are checked
    untested = rows[~rows["metric"].isin(TESTED)]
    assert untested[["p_value", "q_value", "mde"]].isna().all().all()


def test_standard_errors_match_the_analytic_se_of_each_site(sites) -> None:
    """The bootstrap SE of a site's pooled rate, against sd(sign) / sqrt(n) of its pairs (pairs resampled)."""
    workspace, full = sites
    rows = workspace.query("select stratum_value, estimate, se from audit.paired_metrics where setting = 'full' "
                           "and stratum_name = 'site' and metric = 'pooled_rate'").set_index("stratum_value")
    assert len(rows) == N_SITES_NULL + len(REAL_SITES)
    for site, pairs in full.groupby("stratum_site"):
        delta = (pairs["counterfactual_level"] - pairs["original_level"]).to_numpy()
        sign = np.sign(np.where(pairs["original_sex"] == "M", delta, -delta))
        expected = reference_paired_metrics(pairs["original_sex"], pairs["original_level"], pairs["counterfactual_level"])
        assert rows.loc[site, "estimate"] == pytest.approx(expected["pooled_rate"], abs=1e-12)
        assert rows.loc[site, "se"] == pytest.approx(sign.std() / np.sqrt(len(sign)), rel=0.12), site


@pytest.mark.parametrize("mart, family", [("paired_metrics", PAIRED_FAMILY), ("metric_comparisons", COMPARISON_FAMILY)])
def test_q_values_are_benjamini_hochberg_over_each_family(sites, mart: str, family: list[str]) -> None:
    workspace, _ = sites
    rows = workspace.query(f"select * from audit.{mart}")
    expected = adjusted(rows, family, "fdr_bh")
    tested = rows["p_value"].notna()
    assert tested.sum() > 200
    np.testing.assert_allclose(rows.loc[tested, "q_value"], expected[tested], rtol=1e-9)
    assert rows.loc[~tested, "q_value"].isna().all()
    sizes = rows[tested].groupby(family)["p_value"].transform("count")
    assert (rows.loc[tested, "n_tests"] == sizes).all()
    # one family per stratum variable: the site family holds the 42 sites' tested metrics
    site_rows = rows[tested & (rows["stratum_name"] == "site")]
    assert site_rows["n_tests"].max() == (N_SITES_NULL + len(REAL_SITES)) * (len(TESTED) if mart == "paired_metrics" else 11)


def test_mde_is_the_80_percent_power_multiple_of_the_se(sites) -> None:
    workspace, _ = sites
    for mart in ("paired_metrics", "metric_comparisons"):
        rows = workspace.query(f"select se, mde from audit.{mart} where p_value is not null")
        np.testing.assert_allclose(rows["mde"], (norm.ppf(0.975) + norm.ppf(0.8)) * rows["se"], rtol=1e-7)


def test_q_values_single_out_the_two_real_sites(sites) -> None:
    """At a 5% false-discovery rate the pooled rate is discovered in the two planted sites and in none of the 40
    null ones, and every real site's q-value is below every null site's."""
    workspace, _ = sites
    rows = workspace.query("select stratum_value as site, p_value, q_value, ci_low, ci_high from audit.paired_metrics "
                           "where setting = 'full' and stratum_name = 'site' and metric = 'pooled_rate'").set_index("site")
    real, null = rows.loc[list(REAL_SITES)], rows.drop(list(REAL_SITES))
    assert len(null) == N_SITES_NULL
    assert (real["q_value"] < 1e-3).all()
    assert (null["q_value"] >= 0.05).all()
    assert real["q_value"].max() < null["q_value"].min()
    assert ((real["ci_low"] > 0) | (real["ci_high"] < 0)).all()


def test_holm_and_other_levels_on_request(sites) -> None:
    """var p_adjust_method holm: Holm-Bonferroni as statsmodels computes it; mde_power 0.9 changes the mde's
    multiplier to z_0.975 + z_0.9. (Rebuilds the two marts: the last test of the module.)"""
    workspace, _ = sites
    workspace.build(select=["paired_metrics", "metric_comparisons"],
                    variables={"bootstrap_resamples": N_BOOT, "p_adjust_method": "holm", "mde_power": 0.9})
    for mart, family in [("paired_metrics", PAIRED_FAMILY), ("metric_comparisons", COMPARISON_FAMILY)]:
        rows = workspace.query(f"select * from audit.{mart}")
        tested = rows["p_value"].notna()
        np.testing.assert_allclose(rows.loc[tested, "q_value"], adjusted(rows, family, "holm")[tested], rtol=1e-9)
        np.testing.assert_allclose(rows.loc[tested, "mde"], (norm.ppf(0.975) + norm.ppf(0.9)) * rows.loc[tested, "se"], rtol=1e-7)
