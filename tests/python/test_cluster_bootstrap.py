"""Patients, not visits: the cluster bootstrap (var bootstrap_unit), and the comparison joint cells against a
brute-force pairing of every pair of both groups (absent pairs, groups that disagree on a pair's sex, patients)."""

from __future__ import annotations

import collections

import numpy as np
import pandas as pd
import pytest

from warehouse_workspace import Workspace
from pair_references import random_pairs

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_BOOT = 1000
SELECT = ["stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+"]


def clustered_pairs(rng: np.random.Generator, n_patients: int) -> pd.DataFrame:
    """Patients with 1-6 visits whose copies change level together: a patient-level propensity drives every
    visit's change, and its direction favours the female presentation for some patients only."""
    visits = rng.integers(1, 7, n_patients)
    patient = np.repeat(np.arange(n_patients), visits)
    n = len(patient)
    propensity = rng.beta(0.4, 1.2, n_patients)[patient]
    female_up = (rng.random(n_patients) < 0.6)[patient]
    sex = rng.choice(["F", "M"], n_patients)[patient]
    original = rng.integers(2, 5, n)
    moved = rng.random(n) < propensity
    # the female presentation's level moves up (less severe) for the "female_up" patients, down for the others
    female_step = np.where(female_up, 1, -1)
    step = np.where(sex == "M", female_step, -female_step)
    frame = pd.DataFrame({
        "pair_id": [f"v{i:05d}" for i in range(n)], "patient_id": [f"p{p:04d}" for p in patient],
        "original_sex": sex, "original_level": original, "counterfactual_level": original + np.where(moved, step, 0),
    })
    return frame


def female_minus_male_sign(frame: pd.DataFrame) -> np.ndarray:
    delta = (frame["counterfactual_level"] - frame["original_level"]).to_numpy()
    return np.sign(np.where(frame["original_sex"] == "M", delta, -delta))


def cluster_se(values: np.ndarray, clusters: np.ndarray) -> float:
    """Standard error of a mean over pairs when patients (not pairs) are the independent units."""
    residual = values - values.mean()
    per_cluster = pd.Series(residual).groupby(clusters).sum().to_numpy()
    return float(np.sqrt((per_cluster ** 2).sum()) / len(values))


@pytest.fixture(scope="module")
def clustered(module_workspace: Workspace):
    rng = np.random.default_rng(3)
    a = clustered_pairs(rng, 700)
    # model b: the same pairs; 40% of the patients get b's own (unbiased) changes instead of a's
    b = a.copy()
    redraw = (rng.random(700) < 0.4)[a["patient_id"].str[1:].astype(int).to_numpy()]
    own = rng.random(len(a)) < 0.1
    b.loc[redraw, "counterfactual_level"] = b.loc[redraw, "original_level"] + np.where(
        own[redraw], rng.choice([-1, 1], redraw.sum()), 0)
    module_workspace.import_pairs(a, "clu", "ma", "full", name="clu_a.parquet")
    module_workspace.import_pairs(b, "clu", "mb", "full", name="clu_b.parquet")
    # an irregular data set: model m2 lacks some pairs and disagrees with m1 on the sex of others; half the pairs
    # name a patient
    base = random_pairs(rng, 900, shift_probability=0.25, female_bias=0.2, strata={"site": ["x", "y"]})
    base["patient_id"] = np.where(np.arange(900) % 2 == 0, [f"q{i // 6}" for i in range(900)], None)
    other = base.iloc[:700].copy()
    flip = rng.random(len(other)) < 0.05
    other.loc[flip, "original_sex"] = np.where(other.loc[flip, "original_sex"] == "M", "F", "M")
    moved = rng.random(len(other)) < 0.2
    other.loc[moved, "counterfactual_level"] = np.clip(other.loc[moved, "original_level"] + rng.choice([-1, 1], moved.sum()), 1, 4)
    text = base.copy()
    text.loc[rng.random(900) < 0.3, "counterfactual_level"] = text["original_level"]
    module_workspace.import_pairs(base, "irr", "m1", "full", name="irr_1.parquet")
    module_workspace.import_pairs(text, "irr", "m1", "text_only", name="irr_1t.parquet")
    module_workspace.import_pairs(other, "irr", "m2", "full", name="irr_2.parquet")
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT})
    return module_workspace, a, b


def test_patients_are_resampled_with_all_their_pairs(clustered) -> None:
    """With the default var bootstrap_unit = 'patient', the bootstrap SE of the pooled rate matches the
    cluster-robust SE (patients independent), which is much larger than the SE that treats visits as independent."""
    workspace, a, _ = clustered
    sign = female_minus_male_sign(a)
    patients = a["patient_id"].to_numpy()
    clustered_se, naive_se = cluster_se(sign, patients), float(np.std(sign, ddof=1) / np.sqrt(len(sign)))
    assert clustered_se > 1.5 * naive_se  # the planted within-patient correlation
    replicates = workspace.query("select pooled_rate from intermediate.int_paired_metric_replicates "
                                 "where dataset = 'clu' and model = 'ma' and stratum_name = 'overall' and replicate >= 0")
    assert len(replicates) == N_BOOT
    assert replicates["pooled_rate"].std(ddof=1) == pytest.approx(clustered_se, rel=0.1)


def test_a_paired_comparison_resamples_patients_on_both_sides(clustered) -> None:
    workspace, a, b = clustered
    difference = female_minus_male_sign(b) - female_minus_male_sign(a)
    expected = cluster_se(difference, a["patient_id"].to_numpy())
    replicates = workspace.query(
        "select pooled_rate from intermediate.int_metric_comparison_replicates where dataset = 'clu' "
        "and comparison = 'model' and stratum_name = 'overall' and replicate >= 0")
    assert len(replicates) == N_BOOT
    assert replicates["pooled_rate"].std(ddof=1) == pytest.approx(expected, rel=0.1)


def test_pairs_are_resampled_alone_with_bootstrap_unit_pair(clustered, tmp_path) -> None:
    import shutil

    workspace, a, b = clustered
    copy = Workspace(tmp_path)
    shutil.copy(workspace.warehouse, copy.warehouse)
    copy.build(select=SELECT, variables={"bootstrap_resamples": N_BOOT, "bootstrap_unit": "pair"})
    sign = female_minus_male_sign(a)
    naive_se = float(np.std(sign, ddof=1) / np.sqrt(len(sign)))
    replicates = copy.query("select pooled_rate from intermediate.int_paired_metric_replicates "
                            "where dataset = 'clu' and model = 'ma' and stratum_name = 'overall' and replicate >= 0")
    assert replicates["pooled_rate"].std(ddof=1) == pytest.approx(naive_se, rel=0.1)
    # the point estimates do not depend on the resampling unit
    by_patient = workspace.query("select * from audit.paired_metrics order by all")
    by_pair = copy.query("select * from audit.paired_metrics order by all")
    np.testing.assert_allclose(by_pair["estimate"].astype(float), by_patient["estimate"].astype(float))
    assert copy.query("select bool_and(unit_is_pair) as p from intermediate.int_pairs_unioned").p[0]


def test_comparison_joint_cells_equal_a_brute_force_pairing(clustered) -> None:
    """For every comparison and stratum: pair every pair of the stratum's data set in both groups (absent = state
    0), group each resampling unit's joint states into a multiset, and count units per per-unit statistics; the
    SQL's joint cells (counted from the departures only) must give the same counts."""
    workspace, _, _ = clustered
    members = workspace.query("select * from intermediate.int_pair_members")
    comparisons = workspace.query("select * from intermediate.int_pair_comparisons")
    cells = workspace.query("select * from intermediate.int_comparison_joint_cells")
    stats = ["n_pairs_w", "n_m_to_f", "n_f_to_m", "up_m_to_f", "down_m_to_f", "up_f_to_m", "down_f_to_m",
             "sum_female_minus_male"]

    def state_statistics(state: int) -> np.ndarray:
        if state == 0:
            return np.zeros(8)
        m_to_f, delta = int(state >= 10), (state - 1) % 9 - 4
        return np.array([1, m_to_f, 1 - m_to_f, m_to_f * (delta > 0), m_to_f * (delta < 0), (1 - m_to_f) * (delta > 0),
                         (1 - m_to_f) * (delta < 0), delta if m_to_f else -delta])

    present = set(zip(members["group_id"], members["stratum_id"]))
    checked = 0
    for comparison in comparisons.itertuples():
        in_dataset = members[members["dataset"] == comparison.dataset]
        for stratum in in_dataset["stratum_id"].unique():
            if (comparison.group_a, stratum) not in present or (comparison.group_b, stratum) not in present:
                continue
            rows = in_dataset[in_dataset["stratum_id"] == stratum]
            units = rows.groupby("pair_key")["unit_key"].min()
            states = {g: dict(zip(part["pair_key"], 1 + 9 * part["direction_code"] + part["delta"] + 4))
                      for g, part in rows[rows["group_id"].isin([comparison.group_a, comparison.group_b])].groupby("group_id")}
            signatures = collections.defaultdict(list)
            for pair, unit in units.items():
                signatures[unit].append((states[comparison.group_a].get(pair, 0), states[comparison.group_b].get(pair, 0)))
            expected = collections.Counter()
            for joint in signatures.values():
                vector = sum(np.concatenate([state_statistics(x), state_statistics(y)]) for x, y in joint)
                expected[tuple(float(v) for v in vector)] += 1
            got = collections.Counter()
            for row in cells[(cells["comparison_id"] == comparison.comparison_id) & (cells["stratum_id"] == stratum)].itertuples():
                got[tuple(float(getattr(row, f"{name}_{side}")) for side in "ab" for name in stats)] += int(row.n_units)
            assert got == expected, (comparison.comparison, comparison.dataset, stratum)
            checked += 1
    assert checked >= 10
    # the irregular data set exercised every kind of departure: absent pairs, other sexes, patients and lone pairs
    exceptions = workspace.query("select state, unit_is_pair from intermediate.int_pair_exceptions where dataset = 'irr'")
    assert (exceptions["state"] == 0).any() and exceptions["unit_is_pair"].any() and (~exceptions["unit_is_pair"]).any()


def test_a_pair_belongs_to_one_patient(workspace: Workspace) -> None:
    """Two imports that give one pair two patients fail the build's data test (determined_by)."""
    from biasmirror.dbt_runner import DbtFailed

    frame = random_pairs(np.random.default_rng(1), 50)
    frame["patient_id"] = [f"p{i // 2}" for i in range(50)]
    workspace.import_pairs(frame, "d", "m1", "full", name="a.parquet")
    frame["patient_id"] = [f"p{i // 5}" for i in range(50)]
    workspace.import_pairs(frame, "d", "m2", "full", name="b.parquet")
    with pytest.raises(DbtFailed):
        workspace.build(select=["+int_pairs_unioned"], variables={"bootstrap_resamples": 10})
