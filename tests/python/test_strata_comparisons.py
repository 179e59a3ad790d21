"""audit.metric_comparisons: differences between models and settings against numpy, and paired bootstrap
intervals against the analytic standard error of a paired difference."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from warehouse_workspace import Workspace
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_PAIRS = 3000
N_BOOT = 1000
STRATA = {"site": ["a", "b"]}


@pytest.fixture(scope="module")
def compared(module_workspace: Workspace) -> tuple[Workspace, dict[tuple[str, str], pd.DataFrame]]:
    """Model m1 (two settings) and model m2, which agrees with m1 on 85% of the same pairs and has no sex effect
    where it differs: strongly correlated, so a paired interval is much narrower than an unpaired one."""
    rng = np.random.default_rng(11)
    m1_full = random_pairs(rng, N_PAIRS, shift_probability=0.2, female_bias=0.25, strata=STRATA)
    m1_text = m1_full.copy()
    redraw = rng.random(N_PAIRS) < 0.3
    m1_text.loc[redraw, "counterfactual_level"] = m1_text.loc[redraw, "original_level"]
    m2_full = m1_full.copy()
    changed = rng.random(N_PAIRS) < 0.15
    other = random_pairs(rng, N_PAIRS, shift_probability=0.2, female_bias=0.0)
    m2_full.loc[changed, "counterfactual_level"] = np.clip(
        m2_full.loc[changed, "original_level"] + (other.loc[changed, "counterfactual_level"] - other.loc[changed, "original_level"]), 1, 4)
    frames = {("m1", "full"): m1_full, ("m1", "text_only"): m1_text, ("m2", "full"): m2_full}
    for (model, setting), frame in frames.items():
        module_workspace.import_pairs(frame, "ds", model, setting, name=f"{model}_{setting}.parquet")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, frames


def female_minus_male_sign(frame: pd.DataFrame) -> np.ndarray:
    delta = (frame["counterfactual_level"] - frame["original_level"]).to_numpy()
    return np.sign(np.where(frame["original_sex"] == "M", delta, -delta))


def test_differences_equal_numpy_differences(compared) -> None:
    workspace, frames = compared
    comparisons = workspace.query("select * from audit.metric_comparisons")
    cases = [("model", ("m1", "full"), ("m2", "full")), ("setting", ("m1", "full"), ("m1", "text_only"))]
    checked = 0
    for kind, a, b in cases:
        for name, value in [("overall", "all"), ("site", "a"), ("site", "b")]:
            frame_a, frame_b = frames[a], frames[b]
            if name != "overall":
                frame_a, frame_b = frame_a[frame_a["stratum_site"] == value], frame_b[frame_b["stratum_site"] == value]
            expected_a = reference_paired_metrics(frame_a["original_sex"], frame_a["original_level"], frame_a["counterfactual_level"])
            expected_b = reference_paired_metrics(frame_b["original_sex"], frame_b["original_level"], frame_b["counterfactual_level"])
            rows = comparisons[(comparisons["comparison"] == kind) & (comparisons["model_a"] == a[0])
                               & (comparisons["setting_a"] == a[1]) & (comparisons["model_b"] == b[0])
                               & (comparisons["setting_b"] == b[1]) & (comparisons["stratum_name"] == name)
                               & (comparisons["stratum_value"] == value)]
            assert set(rows["metric"]) == set(expected_a), (kind, name, value)
            for row in rows.itertuples():
                assert row.difference == pytest.approx(expected_b[row.metric] - expected_a[row.metric], abs=1e-12)
                assert row.estimate_a == pytest.approx(expected_a[row.metric], abs=1e-12)
                assert row.n_pairs_a == len(frame_a) and row.n_pairs_b == len(frame_b)
                assert row.ci_low <= row.difference + 1e-12 <= row.ci_high + 2e-12
                checked += 1
    assert checked == 2 * 3 * 11
    # sides are ordered: settings in the study's order, models by name; never a comparison with itself
    assert not ((comparisons["model_a"] == comparisons["model_b"]) & (comparisons["setting_a"] == comparisons["setting_b"])
                & (comparisons["generator_a"] == comparisons["generator_b"])).any()
    settings = comparisons[comparisons["comparison"] == "setting"]
    assert set(zip(settings["setting_a"], settings["setting_b"])) == {("full", "text_only")}


def test_paired_interval_matches_the_paired_standard_error(compared) -> None:
    workspace, frames = compared
    sign_a, sign_b = female_minus_male_sign(frames[("m1", "full")]), female_minus_male_sign(frames[("m2", "full")])
    paired_se = np.std(sign_b - sign_a, ddof=1) / np.sqrt(N_PAIRS)
    unpaired_se = np.sqrt(np.var(sign_a, ddof=1) + np.var(sign_b, ddof=1)) / np.sqrt(N_PAIRS)
    row = workspace.query(
        "select * from audit.metric_comparisons where comparison = 'model' and stratum_name = 'overall' "
        "and metric = 'pooled_rate'").iloc[0]
    half_width = (row.ci_high - row.ci_low) / 2
    assert half_width == pytest.approx(1.96 * paired_se, rel=0.12)
    # the pairing matters here: an interval that ignored it would be several times wider
    assert 1.96 * unpaired_se > 2.5 * half_width
    replicates = workspace.query(
        "select replicate, pooled_rate as difference from intermediate.int_metric_comparison_replicates "
        "where comparison = 'model' and model_a = 'm1' and model_b = 'm2' and setting_a = 'full' "
        "and stratum_name = 'overall' and replicate >= 0")
    assert len(replicates) == N_BOOT
    assert replicates["difference"].std(ddof=1) == pytest.approx(paired_se, rel=0.08)


def test_each_stratum_is_resampled_as_paired(compared) -> None:
    """Within a comparison and stratum, a pair keeps its multiplicity on both sides: the replicates of the
    difference in one site have the paired standard error of that site's pairs."""
    workspace, frames = compared
    in_site = (frames[("m1", "full")]["stratum_site"] == "a").to_numpy()
    sign_a = female_minus_male_sign(frames[("m1", "full")])[in_site]
    sign_b = female_minus_male_sign(frames[("m2", "full")])[in_site]
    paired_se = np.std(sign_b - sign_a, ddof=1) / np.sqrt(in_site.sum())
    replicates = workspace.query(
        "select pooled_rate as difference from intermediate.int_metric_comparison_replicates "
        "where comparison = 'model' and model_a = 'm1' and model_b = 'm2' and setting_a = 'full' "
        "and stratum_name = 'site' and stratum_value = 'a' and replicate >= 0")
    assert len(replicates) == N_BOOT
    assert replicates["difference"].std(ddof=1) == pytest.approx(paired_se, rel=0.1)


def test_interval_flags(compared) -> None:
    workspace, _ = compared
    comparisons = workspace.query("select * from audit.metric_comparisons")
    assert (comparisons["ci_excludes_zero"] == ((comparisons["ci_low"] > 0) | (comparisons["ci_high"] < 0))).all()
    assert (comparisons["is_small_stratum"] == (comparisons[["n_pairs_a", "n_pairs_b"]].min(axis=1) < 100)).all()
    # m2 removed part of the planted effect: its pooled rate is lower, and the paired interval shows it
    row = comparisons[(comparisons["comparison"] == "model") & (comparisons["stratum_name"] == "overall")
                      & (comparisons["metric"] == "pooled_rate")].iloc[0]
    assert row.difference < 0 and row.ci_high < 0


def test_a_reference_model_limits_the_model_comparisons(workspace: Workspace) -> None:
    """With var comparison_reference_model, each other model is compared with the reference only (side a), so
    the comparisons grow linearly with the models; without it, every two models are compared."""
    rng = np.random.default_rng(5)
    for model in ("base", "m2", "m3", "m4"):
        workspace.import_pairs(random_pairs(rng, 60, shift_probability=0.2), "ds", model, "full", name=f"{model}.parquet")
    query = "select model_a, model_b from intermediate.int_pair_comparisons where comparison = 'model' order by model_a, model_b"
    workspace.build(select=["+int_pair_comparisons", "+exclusion_steps"])
    every_two = workspace.query(query)
    assert list(zip(every_two.model_a, every_two.model_b)) == [
        (a, b) for a in ("base", "m2", "m3", "m4") for b in ("base", "m2", "m3", "m4") if a < b]
    workspace.build(select=["+int_pair_comparisons", "+exclusion_steps"], variables={"comparison_reference_model": "m3"})
    against_reference = workspace.query(query)
    assert list(zip(against_reference.model_a, against_reference.model_b)) == [("m3", "base"), ("m3", "m2"), ("m3", "m4")]
