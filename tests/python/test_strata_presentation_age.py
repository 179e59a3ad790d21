"""Presentation-group and age-band strata: the SQL assignment against an independent Python implementation of
the seed rules and against the generator's truth, and the stratified paired metrics against numpy."""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd
import pytest

from biasmirror.paths import project_dir
from pair_references import reference_paired_metrics
from demo_warehouse import demo_warehouse, mimic_root

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

GROUPS = ("chest_pain", "dyspnoea", "neurological", "sepsis_like", "abdominal_pain")


def seed_rows(name: str) -> list[dict[str, str]]:
    with open(project_dir() / "seeds" / f"{name}.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def python_presentation_group(language: str, complaint: str | None, hpi: str | None) -> str:
    """The seed's rule, written again with Python's re: chief complaint first, then the HPI without negated
    clauses; ties within a field go to the lowest priority."""
    patterns = [(int(r["priority"]), r["presentation_group"], re.compile(r["pattern"], re.IGNORECASE))
                for r in seed_rows("presentation_groups") if r["language"] == language]
    negations = [re.compile(r["pattern"], re.IGNORECASE) for r in seed_rows("negation_cues") if r["language"] == language]
    cleaned = (hpi or "").lower()
    for negation in negations:
        cleaned = negation.sub(" ", cleaned)
    for text in ((complaint or "").lower(), cleaned):
        hits = sorted((priority, group) for priority, group, pattern in patterns if pattern.search(text))
        if hits:
            return hits[0][1]
    return "other"


def python_age_band(age: float | None, edges=(18, 40, 65, 80)) -> str | None:
    if age is None or pd.isna(age):
        return None
    index = int(np.searchsorted(edges, age, side="right"))
    if index == 0:
        return f"<{edges[0]}"
    if index == len(edges):
        return f"{edges[-1]}+"
    return f"{edges[index - 1]}-{edges[index] - 1}"


@pytest.fixture(scope="module")
def cohort_strata() -> pd.DataFrame:
    workspace = demo_warehouse()
    return workspace.query(
        "select c.record_id, c.language, c.chief_complaint, c.hpi, c.age, s.presentation_group, s.age_band "
        "from audit.triage_cohort c join intermediate.int_cohort_records_stratified s using (dataset, record_id)")


def test_presentation_group_and_age_band_match_an_independent_implementation(cohort_strata: pd.DataFrame) -> None:
    expected_group = [python_presentation_group(r.language, r.chief_complaint, r.hpi) for r in cohort_strata.itertuples()]
    expected_band = [python_age_band(a) for a in cohort_strata["age"]]
    assert len(cohort_strata) > 1500
    mismatched = cohort_strata[cohort_strata["presentation_group"] != pd.Series(expected_group, index=cohort_strata.index)]
    assert mismatched.empty, mismatched[["chief_complaint", "presentation_group"]].head()
    assert list(cohort_strata["age_band"]) == expected_band
    # every group is represented in the synthetic data
    assert set(cohort_strata["presentation_group"]) == set(GROUPS) | {"other"}


def test_presentation_groups_recover_the_generators_complaint_groups(cohort_strata: pd.DataFrame) -> None:
    truth = pd.read_csv(mimic_root(demo_warehouse()) / "_truth" / "stays.csv.gz", dtype={"stay_id": str})
    merged = cohort_strata.merge(truth, left_on="record_id", right_on="stay_id")
    assert len(merged) == len(cohort_strata)
    truth_group = merged["complaint_group"].replace({"dyspnea": "dyspnoea"})
    clinical = truth_group.isin(GROUPS)
    # the five clinical groups are found from the complaint (the planted presentations)
    assert (merged.loc[clinical, "presentation_group"] == truth_group[clinical]).mean() > 0.97
    # trauma and other presentations mostly stay 'other' (a history can mention e.g. a seizure disorder)
    assert (merged.loc[~clinical, "presentation_group"] == "other").mean() > 0.75


def test_stratified_paired_metrics_match_numpy() -> None:
    workspace = demo_warehouse()
    pairs = workspace.query(
        "select p.setting, p.pair_id, p.original_sex, p.original_level, p.counterfactual_level, "
        "s.presentation_group, s.age_band from audit.pair_outcomes p "
        "join intermediate.int_cohort_records_stratified s on s.dataset = p.dataset and s.record_id = p.pair_id "
        "where p.generator = 'rules'")
    metrics = workspace.query(
        "select * from audit.paired_metrics where stratum_name in ('presentation_group', 'age_band') and generator = 'rules'")
    checked = 0
    for (setting, name), group in metrics.groupby(["setting", "stratum_name"]):
        for value, rows in group.groupby("stratum_value"):
            subset = pairs[(pairs["setting"] == setting) & (pairs[name] == value)]
            expected = reference_paired_metrics(subset["original_sex"], subset["original_level"], subset["counterfactual_level"])
            for row in rows.itertuples():
                assert row.n_pairs == len(subset)
                assert row.is_small_stratum == (len(subset) < 100)
                if np.isnan(expected[row.metric]):
                    assert pd.isna(row.estimate)
                else:
                    assert row.estimate == pytest.approx(expected[row.metric], abs=1e-12), (setting, name, value, row.metric)
                    assert row.ci_low <= row.estimate + 1e-12 and row.estimate - 1e-12 <= row.ci_high
                checked += 1
    assert checked >= 3 * (6 + 4) * 11
    # every pair of the warehouse's own records is in exactly one presentation group per setting
    counts = metrics[(metrics["stratum_name"] == "presentation_group") & (metrics["metric"] == "pdr")]
    assert counts.groupby("setting")["n_pairs"].sum().to_dict() == pairs.groupby("setting").size().to_dict()


def test_the_planted_presentations_carry_the_effect() -> None:
    """The generator plants the sex effect at full strength in chest and abdominal pain only."""
    pooled = demo_warehouse().query(
        "select stratum_value, estimate, ci_low from audit.paired_metrics where stratum_name = 'presentation_group' "
        "and setting = 'full' and metric = 'pooled_rate' and generator = 'rules'").set_index("stratum_value")
    strong = pooled.loc[["chest_pain", "abdominal_pain"], "estimate"].min()
    assert strong > pooled.loc[["neurological", "sepsis_like", "other"], "estimate"].max()
    assert (pooled.loc[["chest_pain", "abdominal_pain"], "ci_low"] > 0).all()
