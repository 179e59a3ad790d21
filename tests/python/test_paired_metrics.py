"""audit.paired_metrics and audit.model_performance against independent numpy / scikit-learn computations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score, precision_recall_fscore_support

from warehouse_workspace import Workspace
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_BOOT = 200
STRATA = {"age_band": ["18-39", "40-64", "65+"], "site": ["a", "b", "c", "d"]}


@pytest.fixture(scope="module")
def audited(module_workspace: Workspace) -> tuple[Workspace, dict[tuple[str, str, str], pd.DataFrame]]:
    """Two data sets x models x settings of random pairs with strata, imported and built once."""
    rng = np.random.default_rng(20261129)
    frames = {}
    for dataset, model, setting, n, bias in [("ds1", "m1", "full", 3000, 0.2), ("ds1", "m1", "text_only", 2500, -0.1),
                                              ("ds1", "m2", "full", 1800, 0.0), ("ds2", "m1", "tabular_only", 60, 0.3)]:
        frame = random_pairs(rng, n, female_bias=bias, strata=STRATA)
        module_workspace.import_pairs(frame, dataset, model, setting, name=f"{dataset}_{model}_{setting}.parquet")
        frames[(dataset, model, setting)] = frame
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, frames


def test_every_metric_matches_numpy_in_every_stratum(audited) -> None:
    workspace, frames = audited
    results = workspace.query("select * from audit.paired_metrics")
    checked = 0
    for (dataset, model, setting), frame in frames.items():
        strata = [("overall", "all", np.ones(len(frame), bool))]
        strata += [("documented_level", str(level), frame["true_level"].to_numpy() == level) for level in range(1, 5)]
        strata += [(name, value, frame[f"stratum_{name}"].to_numpy() == value) for name, values in STRATA.items() for value in values]
        for name, value, mask in strata:
            if not mask.any():
                continue
            subset = frame[mask]
            expected = reference_paired_metrics(subset["original_sex"], subset["original_level"], subset["counterfactual_level"])
            rows = results[(results.dataset == dataset) & (results.model == model) & (results.setting == setting)
                           & (results.stratum_name == name) & (results.stratum_value == value)]
            assert set(rows.metric) == set(expected), (dataset, model, setting, name, value)
            for row in rows.itertuples():
                if np.isnan(expected[row.metric]):
                    assert pd.isna(row.estimate)
                else:
                    assert row.estimate == pytest.approx(expected[row.metric], abs=1e-12), (row.metric, name, value)
                assert row.n_pairs == mask.sum()
                checked += 1
    assert checked > 500


def test_metric_identities_hold_everywhere(audited) -> None:
    workspace, _ = audited
    wide = workspace.query(
        "pivot (select dataset, model, generator, setting, stratum_name, stratum_value, metric, estimate "
        "from audit.paired_metrics) on metric using first(estimate)")
    n_m_to_f = workspace.query(
        "select dataset, model, generator, setting, stratum_name, stratum_value, "
        "sum(case when direction = 'm_to_f' then weight else 0 end) as n_m_to_f, "
        "sum(case when direction = 'f_to_m' then weight else 0 end) as n_f_to_m "
        "from intermediate.int_pair_bootstrap_weights join intermediate.int_pair_cells using (cell_id) "
        "where replicate = -1 group by all")
    wide = wide.merge(n_m_to_f, on=["dataset", "model", "generator", "setting", "stratum_name", "stratum_value"])
    complete = wide.dropna(subset=["dts_m_to_f", "dts_f_to_m"])
    assert len(complete) > 40
    np.testing.assert_allclose(complete.nats_plus - complete.nats_minus, complete.dts_f_to_m - complete.dts_m_to_f, atol=1e-12)
    n = complete.n_m_to_f + complete.n_f_to_m
    np.testing.assert_allclose(complete.pooled_rate,
                               (complete.n_m_to_f * complete.dts_m_to_f - complete.n_f_to_m * complete.dts_f_to_m) / n, atol=1e-12)


def test_intervals_are_ordered_and_use_every_replicate(audited) -> None:
    workspace, _ = audited
    overall = workspace.query("select * from audit.paired_metrics where stratum_name = 'overall' and dataset = 'ds1'")
    assert (overall.n_boot == N_BOOT).all()
    assert (overall.ci_low <= overall.ci_high).all()
    # with a planted female bias of 0.2 over 3000 pairs, the pooled-rate interval excludes zero
    pooled = overall[(overall.model == "m1") & (overall.setting == "full") & (overall.metric == "pooled_rate")].iloc[0]
    assert pooled.ci_low > 0


def test_small_strata_are_flagged(audited) -> None:
    workspace, _ = audited
    flags = workspace.query("select distinct dataset, n_pairs, is_small_stratum from audit.paired_metrics")
    assert (flags.is_small_stratum == (flags.n_pairs < 100)).all()
    assert flags[flags.dataset == "ds2"].is_small_stratum.all()


def test_model_performance_matches_scikit_learn(audited) -> None:
    workspace, frames = audited
    results = workspace.query("select * from audit.model_performance")
    for (dataset, model, setting), frame in frames.items():
        y_true, y_pred = frame["true_level"], frame["original_level"]
        precision, recall, f1, _ = precision_recall_fscore_support(y_true, y_pred, average="macro", zero_division=0)
        expected = {
            "accuracy": accuracy_score(y_true, y_pred),
            "kappa_linear": cohen_kappa_score(y_true, y_pred, weights="linear"),
            "kappa_quadratic": cohen_kappa_score(y_true, y_pred, weights="quadratic"),
            "macro_precision": precision, "macro_recall": recall, "macro_f1": f1,
        }
        rows = results[(results.dataset == dataset) & (results.model == model) & (results.setting == setting)]
        assert len(rows) == len(expected)
        for row in rows.itertuples():
            assert row.estimate == pytest.approx(expected[row.metric], abs=1e-12), (dataset, row.metric)
            assert row.ci_low <= row.estimate + 1e-9 or row.n_records < 100
            assert row.n_records == len(frame)


def test_pair_outcomes_hold_one_row_per_pair_with_its_strata(audited) -> None:
    workspace, frames = audited
    outcomes = workspace.query(
        "select pair_id, original_sex, direction, female_level, male_level, strata['site'] as site "
        "from audit.pair_outcomes where dataset = 'ds1' and model = 'm1' and setting = 'full' order by pair_id")
    frame = frames[("ds1", "m1", "full")].sort_values("pair_id").reset_index(drop=True)
    assert len(outcomes) == len(frame)
    assert (outcomes.direction == np.where(frame.original_sex == "M", "m_to_f", "f_to_m")).all()
    assert (outcomes.female_level == np.where(frame.original_sex == "F", frame.original_level, frame.counterfactual_level)).all()
    assert (outcomes.site == frame.stratum_site).all()
