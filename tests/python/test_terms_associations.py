"""audit.term_associations against an independent tokenisation of the notes and numpy metrics; bootstrap spread
against analytic standard errors; the support threshold, stopwords and the settings var."""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from biasmirror.paths import project_dir
from pair_references import reference_paired_metrics
from demo_warehouse import N_BOOT, demo_warehouse

# var min_changed_pairs as the project sets it (the sparse-interval rule, docs/intervals.md)
MIN_CHANGED = yaml.safe_load((project_dir() / "dbt_project.yml").read_text())["vars"]["min_changed_pairs"]
# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

MIN_TERM_PAIRS = 50   # dbt_project.yml default
MIN_TERM_LENGTH = 3
TERM_BOOT = 1000      # var term_bootstrap_resamples default (capped by bootstrap_resamples)


def stopwords(language: str) -> set[str]:
    with open(project_dir() / "seeds" / "term_stopwords.csv", newline="", encoding="utf-8") as handle:
        return {row["term"] for row in csv.DictReader(handle) if row["language"] == language}


def python_terms(language: str, *texts: str | None) -> set[str]:
    """Runs of letters, lower case, at least MIN_TERM_LENGTH long, stopwords removed."""
    words = re.findall(r"[^\W\d_]+", " ".join(t for t in texts if t).lower())
    return {w for w in words if len(w) >= MIN_TERM_LENGTH} - stopwords(language)


@pytest.fixture(scope="module")
def data() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, set[str]]]:
    workspace = demo_warehouse()
    cohort = workspace.query("select record_id, language, chief_complaint, hpi, pmh from audit.triage_cohort where split = 'test'")
    terms = {r.record_id: python_terms(r.language, r.chief_complaint, r.hpi, r.pmh) for r in cohort.itertuples()}
    pairs = workspace.query("select setting, pair_id, original_sex, original_level, counterfactual_level "
                            "from audit.pair_outcomes where generator = 'rules'")
    associations = workspace.query("select * from audit.term_associations where generator = 'rules'")
    return pairs, associations, terms


def test_record_terms_match_an_independent_tokenisation(data) -> None:
    _, _, terms = data
    sql_terms = demo_warehouse().query("select record_id, term from intermediate.int_record_terms")
    grouped = sql_terms.groupby("record_id")["term"].apply(set).to_dict()
    assert set(grouped) == {record for record, found in terms.items() if found}
    for record, found in terms.items():
        assert grouped.get(record, set()) == found, record
    assert not (set(sql_terms["term"]) & stopwords("en"))


def test_term_metrics_match_numpy(data) -> None:
    pairs, associations, terms = data
    full = pairs[pairs["setting"] == "full"].reset_index(drop=True)
    support: dict[str, list[int]] = {}
    for index, pair_id in enumerate(full["pair_id"]):
        for term in terms[pair_id]:
            support.setdefault(term, []).append(index)
    expected_terms = {term for term, rows in support.items() if len(rows) >= MIN_TERM_PAIRS}
    assert set(associations["setting"]) == {"full"}  # var term_settings default
    assert set(associations["term"]) == expected_terms
    assert len(expected_terms) > 50
    for term, rows in associations.groupby("term"):
        subset = full.iloc[support[term]]
        expected = reference_paired_metrics(subset["original_sex"], subset["original_level"], subset["counterfactual_level"])
        assert set(rows["metric"]) == {"pdr", "dts_m_to_f", "dts_f_to_m", "pooled_rate"}
        for row in rows.itertuples():
            assert row.n_pairs == len(subset)
            assert row.n_m_to_f == (subset["original_sex"] == "M").sum()
            if np.isnan(expected[row.metric]):
                assert pd.isna(row.estimate)
            else:
                assert row.estimate == pytest.approx(expected[row.metric], abs=1e-12), (term, row.metric)
            assert row.n_boot <= TERM_BOOT
            delta = (subset["counterfactual_level"] - subset["original_level"]).to_numpy()
            m_to_f = (subset["original_sex"] == "M").to_numpy()
            changed = {"pdr": (delta != 0).sum(), "pooled_rate": (delta != 0).sum(),
                       "dts_m_to_f": (m_to_f & (delta != 0)).sum(), "dts_f_to_m": (~m_to_f & (delta != 0)).sum()}
            assert row.n_changed == changed[row.metric], (term, row.metric)
            zero_width = pd.isna(row.ci_low) or row.ci_high - row.ci_low <= 0
            assert row.is_sparse == (row.n_changed < MIN_CHANGED or zero_width), (term, row.metric)


def test_term_bootstrap_spread_matches_analytic_standard_errors(data) -> None:
    """For the best-supported terms: bootstrap SD of PDR and of the pooled rate against the large-sample SE."""
    pairs, associations, terms = data
    full = pairs[pairs["setting"] == "full"]
    replicates = demo_warehouse().query(
        "select term, replicate, pdr, pooled_rate from intermediate.int_term_metric_replicates "
        "where replicate >= 0 and generator = 'rules'")
    assert replicates["replicate"].nunique() == min(TERM_BOOT, N_BOOT)
    top = associations[associations["metric"] == "pdr"].nlargest(6, "n_pairs")
    ratios = []
    for term in top["term"]:
        subset = full[full["pair_id"].map(lambda p, term=term: term in terms[p])]
        delta = (subset["counterfactual_level"] - subset["original_level"]).to_numpy()
        female_minus_male = np.where(subset["original_sex"] == "M", delta, -delta)
        n = len(subset)
        pdr = (delta != 0).mean()
        analytic = {"pdr": np.sqrt(pdr * (1 - pdr) / n), "pooled_rate": np.sign(female_minus_male).std(ddof=1) / np.sqrt(n)}
        spread = replicates[replicates["term"] == term]
        for metric, se in analytic.items():
            ratios.append(spread[metric].std(ddof=1) / se)
    # B = 200 replicates: an SD is within about 10% of the truth; allow 20% per term, 8% on average
    assert all(0.8 < r < 1.2 for r in ratios), ratios
    assert abs(np.mean(ratios) - 1) < 0.08, ratios


def test_min_term_pairs_and_settings_are_vars(tmp_path) -> None:
    """Raising the support threshold drops terms; adding settings adds their rows (on a copy of the warehouse)."""
    import shutil

    from warehouse_workspace import Workspace

    demo = demo_warehouse()
    copy = Workspace(tmp_path)
    shutil.copy(demo.warehouse, copy.warehouse)
    variables = {"bootstrap_resamples": 50, "min_term_pairs": 200, "term_settings": ["full", "text_only"],
                 "mimic_root": str(demo.root.parent / "mimic")}
    copy.build(select=["int_term_pair_cells+"], variables=variables)
    rebuilt = copy.query("select setting, term, metric, n_pairs, n_boot from audit.term_associations where generator = 'rules'")
    assert set(rebuilt["setting"]) == {"full", "text_only"}
    assert rebuilt["n_pairs"].min() >= 200
    assert rebuilt["term"].nunique() < demo.query(
        "select count(distinct term) as n from audit.term_associations where generator = 'rules'").n[0]
    assert (rebuilt["n_boot"] <= 50).all()


def test_term_frequencies_by_sex_match_pandas() -> None:
    """audit.term_frequencies against pandas counts over an independent tokenisation of the test notes."""
    workspace = demo_warehouse()
    cohort = workspace.query("select dataset, record_id, sex, language, chief_complaint, hpi, pmh "
                             "from audit.triage_cohort where split = 'test'")
    incidences = pd.DataFrame(
        [(r.dataset, r.record_id, r.sex, term) for r in cohort.itertuples()
         for term in python_terms(r.language, r.chief_complaint, r.hpi, r.pmh)],
        columns=["dataset", "record_id", "sex", "term"])
    counts = incidences.pivot_table(index=["dataset", "term"], columns="sex", values="record_id", aggfunc="nunique",
                                    fill_value=0).reset_index()
    counts = counts[counts["F"] + counts["M"] >= MIN_TERM_PAIRS]
    totals = cohort.groupby(["dataset", "sex"]).size().unstack()
    expected = counts.assign(
        share_female=counts["F"] / counts["dataset"].map(totals["F"]),
        share_male=counts["M"] / counts["dataset"].map(totals["M"]))
    frequencies = workspace.query("select * from audit.term_frequencies")
    merged = expected.merge(frequencies, on=["dataset", "term"], how="outer", indicator=True)
    assert (merged["_merge"] == "both").all(), merged.loc[merged["_merge"] != "both", "_merge"].value_counts()
    assert len(merged) > 50
    assert (merged["n_notes_female"] == merged["F"]).all() and (merged["n_notes_male"] == merged["M"]).all()
    np.testing.assert_allclose(merged["share_female_x"], merged["share_female_y"], rtol=1e-12)
    np.testing.assert_allclose(merged["share_male_x"], merged["share_male_y"], rtol=1e-12)
    np.testing.assert_allclose(merged["share_difference"], merged["share_female_x"] - merged["share_male_x"], atol=1e-12)
    assert (merged["n_records_female"] == merged["dataset"].map(totals["F"])).all()
    # ranks: 1 = the most frequent term in the female (male) notes, ties broken by the term
    for column, rank in (("F", "rank_female"), ("M", "rank_male")):
        order = merged.sort_values([column, "term"], ascending=[False, True])
        assert list(order[rank]) == list(range(1, len(order) + 1))
    # every term with associations has its frequencies, for the word clouds beside the skews
    associated = workspace.query("select distinct dataset, term from audit.term_associations")
    assert set(map(tuple, associated.to_numpy())) <= set(zip(frequencies["dataset"], frequencies["term"]))
