"""Sparse intervals are flagged (is_sparse): the rule on the changed pairs behind each metric, zero-width
intervals, and `biasmirror summary`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

from biasmirror.paths import project_dir
from warehouse_workspace import Workspace
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

# var min_changed_pairs as the project sets it (the sparse-interval rule, docs/intervals.md)
MIN_CHANGED = yaml.safe_load((project_dir() / "dbt_project.yml").read_text())["vars"]["min_changed_pairs"]


def changed_counts(frame: pd.DataFrame) -> dict[str, int]:
    delta = (frame["counterfactual_level"] - frame["original_level"]).to_numpy()
    m_to_f = (frame["original_sex"] == "M").to_numpy()
    up_m, down_m = int((m_to_f & (delta > 0)).sum()), int((m_to_f & (delta < 0)).sum())
    up_f, down_f = int((~m_to_f & (delta > 0)).sum()), int((~m_to_f & (delta < 0)).sum())
    total = up_m + down_m + up_f + down_f
    return {"pdr": total, "nmd": total, "pooled_rate": total, "p_up_m_to_f": up_m, "p_down_m_to_f": down_m,
            "p_up_f_to_m": up_f, "p_down_f_to_m": down_f, "dts_m_to_f": up_m + down_m, "dts_f_to_m": up_f + down_f,
            "nats_plus": min(up_f, up_m), "nats_minus": min(down_f, down_m)}


@pytest.fixture(scope="module")
def flagged(module_workspace: Workspace):
    rng = np.random.default_rng(4)
    frames = {
        ("tiny", "m1"): random_pairs(rng, 5, shift_probability=0.2),
        ("rare", "m1"): random_pairs(rng, 150, shift_probability=0.005),
        ("rare", "m2"): random_pairs(rng, 150, shift_probability=0.05),
        ("common", "m1"): random_pairs(rng, 2000, shift_probability=0.1, female_bias=0.1),
    }
    frames[("rare", "m2")]["pair_id"] = frames[("rare", "m1")]["pair_id"]
    frames[("rare", "m2")]["original_sex"] = frames[("rare", "m1")]["original_sex"]
    for (dataset, model), frame in frames.items():
        module_workspace.import_pairs(frame, dataset, model, "full", name=f"{dataset}_{model}.parquet")
    module_workspace.build(variables={"bootstrap_resamples": 300})
    return module_workspace, frames


def test_changed_pairs_and_the_flag_follow_the_rule(flagged) -> None:
    workspace, frames = flagged
    metrics = workspace.query("select * from audit.paired_metrics where stratum_name = 'overall'")
    for (dataset, model), frame in frames.items():
        expected = changed_counts(frame)
        rows = metrics[(metrics["dataset"] == dataset) & (metrics["model"] == model)]
        assert len(rows) == 11
        for row in rows.itertuples():
            assert row.n_changed == expected[row.metric], (dataset, row.metric)
            zero_width = pd.isna(row.ci_low) or row.ci_high - row.ci_low <= 0
            assert row.is_sparse == (row.n_changed < MIN_CHANGED or zero_width), (dataset, row.metric)
    # every zero-width interval is flagged, and there are some (DTS of the rare changes is often exactly [0, 0])
    everything = workspace.query("select * from audit.paired_metrics")
    zero = everything[everything["ci_high"] - everything["ci_low"] <= 0]
    assert len(zero) > 0 and zero["is_sparse"].all()
    common = metrics[metrics["dataset"] == "common"]
    assert not common[common["metric"].isin(["pdr", "pooled_rate", "nmd"])]["is_sparse"].any()
    assert metrics[metrics["dataset"] == "tiny"]["is_sparse"].all()


def test_comparisons_take_the_smaller_side(flagged) -> None:
    workspace, frames = flagged
    rows = workspace.query("select * from audit.metric_comparisons where dataset = 'rare' and stratum_name = 'overall'")
    a, b = changed_counts(frames[("rare", "m1")]), changed_counts(frames[("rare", "m2")])
    assert len(rows) == 11
    for row in rows.itertuples():
        assert row.n_changed == min(a[row.metric], b[row.metric])
        zero_width = pd.isna(row.ci_low) or row.ci_high - row.ci_low <= 0
        assert row.is_sparse == (row.n_changed < MIN_CHANGED or zero_width)
        expected = reference_paired_metrics(frames[("rare", "m2")]["original_sex"], frames[("rare", "m2")]["original_level"],
                                            frames[("rare", "m2")]["counterfactual_level"])[row.metric] - \
            reference_paired_metrics(frames[("rare", "m1")]["original_sex"], frames[("rare", "m1")]["original_level"],
                                     frames[("rare", "m1")]["counterfactual_level"])[row.metric]
        if not np.isnan(expected):
            assert row.difference == pytest.approx(expected, abs=1e-12)


def test_summary_marks_sparse_intervals(flagged) -> None:
    from rich.console import Console

    from biasmirror.summary import print_overall

    workspace, _ = flagged
    console = Console(record=True, width=250)
    with workspace.active():
        print_overall(console, dataset="tiny")
    text = console.export_text()
    assert "* (" in text and "changed)" in text and "sparse:" in text
    console = Console(record=True, width=250)
    with workspace.active():
        print_overall(console, dataset="common")
    lines = [line for line in console.export_text().splitlines() if line.strip("│ ").startswith(("pooled_rate", "pdr", "nmd"))]
    assert len(lines) == 3 and not any("*" in line for line in lines)
