"""benchmarks/swap_demo_notes.py: the reference (the generators' own other-sex rendering) and the measure.

The English records are checked against a built warehouse: the benchmark's sections are the cohort's hpi and pmh,
its copies are the rule generator's stored copies, and the warehouse holds the originals, never the reference."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import swap_demo_notes as bench  # noqa: E402  (benchmarks/swap_demo_notes.py)


def test_sections_follow_the_seed_rules() -> None:
    note = ("Sex:   F\n \nChief Complaint:\nchest pain\n \nHistory of Present Illness:\nMs. ___ is a 60 year old "
            "woman with chest pain.\nShe denies fever.  In the ED, initial vitals were HR 88.\n \nPast Medical "
            "History:\n- HTN\n- HLD\n \nBrief Hospital Course:\nShe was admitted.\n")
    assert bench.mimic_sections(note) == ("Ms. ___ is a 60 year old woman with chest pain. She denies fever.",
                                          "- HTN - HLD")
    assert bench.mimic_sections("Chief Complaint:\nCP\n") == (None, None)


def test_same_counts_ms_and_mrs_as_one_and_nothing_else() -> None:
    assert bench.same("Ms. ___ is a 60 year old woman.", "Mrs. ___ is a 60 year old woman.")
    assert not bench.same("Ms. ___ is a 60 year old woman.", "Mr. ___ is a 60 year old woman.")
    assert not bench.same("She is here.", "He is here.") and bench.same(None, None) and not bench.same("", None)


def test_french_reference_renders_the_same_draws_in_the_other_sex() -> None:
    from biasmirror.synth import bordeaux as b

    records = bench.french_records(200, 3)
    assert records and all(r.texts != r.reference for r in records)  # every note names the patient
    rendered = {r.visit_id: r for r in b.renderings(200, 3)}
    for record in records:
        r = rendered[record.record_id]
        assert r.exclusion == "none" and record.sex == r.sex
        assert record.texts == (b.join_note(r.note), b.join_history(r.history))
        assert [f for f, _, _ in record.parts] == [f for f, _ in r.note + r.history]
        assert set(f for f, _, _ in record.parts) <= set(b.FAMILIES) - {"planted"}
    # relatives and staff keep their own gender: their pronoun is the same in both renderings
    named = [(t, o) for r in records for f, t, o in r.parts if f in ("relative", "staff")]
    kept = [t for t, o in named if any(a == b and a in ("il", "elle") for a, b in zip(t.split(), o.split()))]
    assert kept and all(len(t.split()) == len(o.split()) for t, o in named)


@pytest.mark.slow
def test_english_records_are_the_warehouse_cohort_and_its_copies() -> None:
    from demo_warehouse import SEED, STAYS, demo_warehouse

    workspace = demo_warehouse()
    cohort = workspace.query("select record_id, sex, hpi, pmh from audit.triage_cohort where dataset = 'mimic' "
                             "and split = 'test' order by record_id")
    copies = workspace.query("select record_id, hpi, pmh, status from inference.counterfactuals where dataset = "
                             "'mimic' and generator = 'rules' order by record_id")
    records = {r.record_id: r for r in bench.english_records(STAYS, SEED)}
    assert set(cohort.record_id) <= set(records) and len(cohort) > 500
    chosen = [records[i] for i in cohort.record_id]
    # the benchmark sees what the swapper saw: the cohort's sections, never the reference
    assert [r.texts for r in chosen] == [(h, p) for h, p in zip(cohort.hpi, cohort.pmh)]
    assert [r.sex for r in chosen] == list(cohort.sex)
    assert not any(r.reference[0] in set(cohort.hpi) for r in chosen)
    # its copies are the generator's stored copies, and its share is what they give against the reference
    made = bench.swap(chosen, "en")
    assert list(copies.record_id) == list(cohort.record_id)
    assert [(c.hpi, c.pmh, c.status) for c in made] == list(zip(copies.hpi, copies.pmh, copies.status))
    measured = bench.measure(chosen, "en", by_family=False)
    exact = sum(bench.same(h, r.reference[0]) and bench.same(p, r.reference[1])
                for h, p, r in zip(copies.hpi, copies.pmh, chosen))
    assert measured["records"] == len(chosen) and measured["exact"] == exact
    # (since round 15 of issue 22 every copy of this cohort is exact: the share may reach 1)
    assert 0 < exact <= len(chosen)
