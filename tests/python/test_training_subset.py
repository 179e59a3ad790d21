"""The training subset of `biasmirror train --max-train N [--balance-levels]`: a random draw of N records, or the same
number of records per documented level (all of a rarer level), filled up to N from the rest; never a record twice."""

from __future__ import annotations

import numpy as np
import pandas as pd

from biasmirror.triage.model_inputs import training_subset


def frame(counts: dict[int, int]) -> pd.DataFrame:
    levels = [level for level, count in counts.items() for _ in range(count)]
    order = np.random.default_rng(0).permutation(len(levels))
    return pd.DataFrame({"record_id": [f"r{i:04d}" for i in range(len(levels))],
                         "documented_level": np.asarray(levels)[order]})


def test_balanced_subset_takes_the_same_number_per_level_where_it_can() -> None:
    data = frame({1: 40, 2: 300, 3: 500, 4: 60})
    subset = training_subset(data, 160, seed=3, balance_levels=True)
    assert subset.documented_level.value_counts().to_dict() == {1: 40, 2: 40, 3: 40, 4: 40}
    assert subset.record_id.is_unique and subset.record_id.is_monotonic_increasing
    assert set(subset.record_id) <= set(data.record_id)


def test_a_rare_level_gives_all_it_has_and_the_rest_is_filled_without_repeats() -> None:
    data = frame({1: 10, 2: 300, 3: 500, 4: 60})
    subset = training_subset(data, 200, seed=1, balance_levels=True)
    counts = subset.documented_level.value_counts()
    assert len(subset) == 200 and subset.record_id.is_unique
    assert counts[1] == 10 and counts[4] >= 50 and counts[2] >= 50 and counts[3] >= 50


def test_plain_subset_follows_the_data_and_a_large_n_keeps_everything() -> None:
    data = frame({1: 40, 2: 300, 3: 500, 4: 60})
    subset = training_subset(data, 450, seed=2)
    assert len(subset) == 450 and subset.record_id.is_unique
    assert subset.documented_level.value_counts()[3] > 200  # the common level stays common
    assert len(training_subset(data, 5000, seed=2, balance_levels=True)) == len(data)


def test_batches_grouped_by_length_hold_every_example_once_with_less_padding() -> None:
    from biasmirror.triage.lora_training import _batches

    lengths = np.random.default_rng(5).integers(50, 400, size=203)

    def padding(batches: list[np.ndarray]) -> int:
        return int(sum(lengths[b].max() * len(b) - lengths[b].sum() for b in batches))

    grouped = _batches(203, 8, np.random.default_rng(1), lengths)
    plain = _batches(203, 8, np.random.default_rng(1))
    assert sorted(np.concatenate(grouped).tolist()) == list(range(203))
    assert padding(grouped) < padding(plain) / 3
