"""audit.placebo_adjusted_effects on the demo warehouse (rule-based swaps and their placebo, same-sex rewrites of
the same records): the effect beyond the placebo against numpy, its paired standard error against the
cluster-robust SE of the per-pair differences, and `biasmirror summary` showing it beside the raw effect (and the
copies its check left out)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from demo_warehouse import demo_warehouse
from pair_references import reference_paired_metrics

# slow (make test-fast leaves it out): the demo warehouse is built with dbt
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def effects() -> tuple[object, pd.DataFrame, pd.DataFrame]:
    workspace = demo_warehouse()
    mart = workspace.query("select * from audit.placebo_adjusted_effects where stratum_name = 'overall'")
    pairs = workspace.query("select model, generator, setting, pair_id, patient_id, original_sex, original_level, "
                            "counterfactual_level from intermediate.int_pairs_unioned where dataset = 'mimic'")
    return workspace, mart, pairs


def test_effect_beyond_the_placebo_is_swap_minus_placebo(effects) -> None:
    _, mart, pairs = effects
    assert set(mart["generator"]) == {"rules"} and set(mart["placebo_generator"]) == {"rules-placebo"}
    checked = 0
    for (model, setting), rows in mart.groupby(["model", "setting"]):
        sides = {}
        for generator in ("rules", "rules-placebo"):
            p = pairs[(pairs.model == model) & (pairs.setting == setting) & (pairs.generator == generator)]
            sides[generator] = reference_paired_metrics(p.original_sex, p.original_level, p.counterfactual_level)
        for row in rows.itertuples():
            swap, placebo = sides["rules"][row.metric], sides["rules-placebo"][row.metric]
            assert row.swap_estimate == pytest.approx(swap, abs=1e-12)
            assert row.placebo_estimate == pytest.approx(placebo, abs=1e-12)
            assert row.adjusted_effect == pytest.approx(swap - placebo, abs=1e-12)
            if not pd.isna(row.ci_low):
                assert row.ci_low <= row.adjusted_effect <= row.ci_high or bool(row.is_sparse)
            checked += 1
    assert checked >= 11 * 3


def test_interval_is_paired_over_the_same_patients(effects) -> None:
    """The bootstrap SE of the adjusted pooled rate against the cluster-robust SE of the difference of the two
    means of signed moves (patients as clusters, each patient's swap and placebo pairs in one cluster): the swap
    and its placebo are resampled together. A copy flagged in one generator leaves its pair in that one only, so
    the two means are over nearly, not exactly, the same pairs."""
    _, mart, pairs = effects
    row = mart[(mart.setting == "full") & (mart.metric == "pooled_rate")].iloc[0]
    p = pairs[(pairs.model == row.model) & (pairs.setting == "full")]

    def signed(generator: str) -> tuple[pd.Series, pd.Series]:
        side = p[p.generator == generator].set_index("pair_id")
        delta = side.counterfactual_level - side.original_level
        moves = pd.Series(np.sign(np.where(side.original_sex == "M", delta, -delta)).astype(float), index=side.index)
        return moves, side.patient_id.fillna(pd.Series(side.index, index=side.index))

    (swap, swap_patients), (placebo, placebo_patients) = signed("rules"), signed("rules-placebo")
    common = swap.index.intersection(placebo.index)
    assert 0.9 * max(len(swap), len(placebo)) <= len(common) <= min(len(swap), len(placebo))
    assert row.adjusted_effect == pytest.approx(swap.mean() - placebo.mean(), abs=1e-12)
    # each pair's influence on the difference of means, summed per patient (the resampling unit)
    influence = pd.concat([(swap - swap.mean()) / len(swap), -(placebo - placebo.mean()) / len(placebo)])
    clusters = pd.concat([swap_patients, placebo_patients]).to_numpy()
    robust_se = np.sqrt((influence.groupby(clusters).sum() ** 2).sum())
    assert row.se == pytest.approx(robust_se, rel=0.2)


def test_summary_shows_the_effect_beyond_the_placebo(effects) -> None:
    from rich.console import Console

    from biasmirror.summary import print_overall

    workspace, mart, _ = effects
    console = Console(record=True, width=300)
    with workspace.active():
        print_overall(console, dataset="mimic")
    text = console.export_text()
    assert "beyond the placebo (rules - rules-placebo)" in text
    assert "a claim of sex bias rests on the effect beyond the placebo" in text
    assert "q=" in text
    # why n is below the number of copies: the flagged copies, counted from the raw table
    copies = workspace.query("select status from inference.counterfactuals where dataset = 'mimic' "
                             "and generator = 'rules'")
    flagged = int((copies.status == "flagged").sum())
    line = f"{flagged:,} of {len(copies):,} copies ({flagged / len(copies):.1%}) were flagged and left out"
    if flagged:
        assert line in " ".join(text.split())
    else:  # the swapper and its check may leave nothing flagged: then the summary says nothing of it
        assert "were flagged and left out" not in text


def test_flagged_line_counts_the_copies_left_out() -> None:
    import pandas as pd

    from biasmirror.summary import flagged_line

    marts = pd.DataFrame({"dataset": ["mimic", "mimic", "bordeaux"], "generator": ["rules", "llm", "rules"],
                          "n_copies": [8632, 500, 40], "n_flagged": [1225, 0, 3]})
    assert "1,225 of 8,632 copies (14.2%) were flagged and left out" in flagged_line(marts, "mimic", "rules")
    assert "3 of 40 copies (7.5%)" in flagged_line(marts, "bordeaux", "rules")
    assert flagged_line(marts, "mimic", "llm") is None  # nothing flagged
    assert flagged_line(marts, "bordeaux", "llm") is None  # no row: imported pairs


def test_report_shows_the_effect_beyond_the_placebo_and_the_q_values(effects, tmp_path) -> None:
    from biasmirror.report.render import write_report

    workspace, _, _ = effects
    with workspace.active():
        result = write_report(tmp_path / "report")
    page = result.path.read_text()
    assert "beyond the placebo: pooled_rate" in page
    assert "a claim of sex bias rests on these rows" in page
    assert " q=" in page
