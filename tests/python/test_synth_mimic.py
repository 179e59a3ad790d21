"""Tests for the synthetic MIMIC-IV generator (biasmirror.synth.mimic)."""

from __future__ import annotations

import csv
import gzip
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from biasmirror.synth.mimic import DEFAULT_FEMALE_EFFECT, SynthSummary, write_mimic

STAYS = 2000
SEED = 7

# Written out here (not imported) so that a change in the module is caught.
EXPECTED_COLUMNS = {
    "ed/edstays.csv.gz": ["subject_id", "hadm_id", "stay_id", "intime", "outtime", "gender", "race",
                          "arrival_transport", "disposition"],
    "ed/triage.csv.gz": ["subject_id", "stay_id", "temperature", "heartrate", "resprate", "o2sat",
                         "sbp", "dbp", "pain", "acuity", "chiefcomplaint"],
    "hosp/patients.csv.gz": ["subject_id", "gender", "anchor_age", "anchor_year",
                             "anchor_year_group", "dod"],
    "hosp/admissions.csv.gz": ["subject_id", "hadm_id", "admittime", "dischtime", "deathtime",
                               "admission_type", "admission_location", "discharge_location",
                               "insurance", "language", "marital_status", "race", "edregtime",
                               "edouttime", "hospital_expire_flag"],
    "note/discharge.csv.gz": ["note_id", "subject_id", "hadm_id", "note_type", "note_seq",
                              "charttime", "storetime", "text"],
    "_truth/stays.csv.gz": ["stay_id", "subject_id", "sex", "age", "complaint_group",
                            "policy_acuity", "acuity", "sex_shifted", "planted_exclusion",
                            "gender_specific_field"],
}
NOTE_HEADERS = [
    "Name:", "Admission Date:", "Date of Birth:", "Service:", "Allergies:", "Attending:",
    "Chief Complaint:", "Major Surgical or Invasive Procedure:", "History of Present Illness:",
    "Past Medical History:", "Social History:", "Family History:", "Physical Exam:",
    "Pertinent Results:", "Brief Hospital Course:", "Medications on Admission:",
    "Discharge Medications:", "Discharge Disposition:", "Discharge Diagnosis:",
    "Discharge Condition:", "Discharge Instructions:", "Followup Instructions:",
]
FEMALE_STEMS = ["pregnan", "gestation", "vagin", "ovar", "uter", "hysterect", "menstru", "cervix",
                "cervical cancer", "endometri"]
MALE_STEMS = ["prostat", "testic", "scrot", "erectile", "vasectom", "penile"]
ANY_STEM = re.compile("|".join(FEMALE_STEMS + MALE_STEMS), re.IGNORECASE)
FEMALE_STEM = re.compile("|".join(FEMALE_STEMS), re.IGNORECASE)
MALE_STEM = re.compile("|".join(MALE_STEMS), re.IGNORECASE)
STRONG = ["chest_pain", "abdominal_pain"]
Run = tuple[SynthSummary, dict[str, pd.DataFrame]]  # summary and the tables it wrote


def _read(root: Path, rel: str) -> pd.DataFrame:
    return pd.read_csv(root / rel, dtype=str, keep_default_na=False)


def _section(text: str, header: str) -> str:
    match = re.search(rf"^{re.escape(header)}:\n(.*?)\n \n", text, re.DOTALL | re.MULTILINE)
    assert match is not None, f"section {header!r} not found"
    return match.group(1)


def _load(root: Path) -> dict[str, pd.DataFrame]:
    return {rel: _read(root, rel) for rel in EXPECTED_COLUMNS}


@pytest.fixture(scope="module")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    summary = write_mimic(tmp_path_factory.mktemp("default"), STAYS, SEED)
    return summary, _load(summary.out_dir)


@pytest.fixture(scope="module")
def no_effect_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    summary = write_mimic(tmp_path_factory.mktemp("no_effect"), STAYS, SEED, female_effect=0.0)
    return summary, _load(summary.out_dir)


@pytest.fixture(scope="module")
def stays(default_run: Run) -> pd.DataFrame:
    """One row per stay: truth + edstays + triage + note sections (empty when no note)."""
    _, t = default_run
    notes = t["note/discharge.csv.gz"][["hadm_id", "text"]]
    merged = (t["_truth/stays.csv.gz"]
              .merge(t["ed/edstays.csv.gz"], on=["stay_id", "subject_id"], validate="1:1")
              .merge(t["ed/triage.csv.gz"], on=["stay_id", "subject_id"], validate="1:1",
                     suffixes=("", "_triage"))
              .merge(notes, on="hadm_id", how="left", validate="m:1"))
    has_note = merged["text"].notna() & (merged["hadm_id"] != "")
    merged["has_note"] = has_note
    merged["text"] = merged["text"].where(has_note, "")
    merged["hpi"] = [_section(x, "History of Present Illness") if x else "" for x in merged["text"]]
    merged["pmh"] = [_section(x, "Past Medical History") if x else "" for x in merged["text"]]
    return merged


def _acuity_gap(truth: pd.DataFrame, groups: list[str] | None = None) -> float:
    """Mean documented acuity of women minus men (optionally within complaint groups)."""
    if groups is not None:
        truth = truth[truth["complaint_group"].isin(groups)]
    acuity = truth["acuity"].astype(int)
    return acuity[truth["sex"] == "F"].mean() - acuity[truth["sex"] == "M"].mean()


# ---------------------------------------------------------------------------------------------
def test_exact_columns_in_order(default_run: Run) -> None:
    summary, _ = default_run
    for rel, expected in EXPECTED_COLUMNS.items():
        with gzip.open(summary.out_dir / rel, "rt", encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle))
        assert header == expected, rel


def test_summary_matches_files(default_run: Run) -> None:
    summary, tables = default_run
    assert summary.stays == STAYS
    assert sorted(summary.files) == sorted(EXPECTED_COLUMNS)
    assert {rel: len(df) for rel, df in tables.items()} == summary.files


def test_same_seed_same_bytes_other_seed_differs(tmp_path: Path) -> None:
    first = write_mimic(tmp_path / "a", 300, 11)
    again = write_mimic(tmp_path / "b", 300, 11)
    other = write_mimic(tmp_path / "c", 300, 12)
    for rel in EXPECTED_COLUMNS:
        data = (first.out_dir / rel).read_bytes()
        assert data[4:8] == b"\0\0\0\0", rel  # no time stamp in the gzip header
        assert data == (again.out_dir / rel).read_bytes(), rel
        assert (first.out_dir / rel).read_bytes() != (other.out_dir / rel).read_bytes(), rel


def test_row_counts_and_links(default_run: Run) -> None:
    _, t = default_run
    ed, triage, truth = t["ed/edstays.csv.gz"], t["ed/triage.csv.gz"], t["_truth/stays.csv.gz"]
    patients, adm, notes = t["hosp/patients.csv.gz"], t["hosp/admissions.csv.gz"], t["note/discharge.csv.gz"]
    assert len(ed) == len(triage) == len(truth) == STAYS
    assert ed["stay_id"].is_unique and set(ed["stay_id"]) == set(truth["stay_id"]) == set(triage["stay_id"])
    assert patients["subject_id"].is_unique
    assert set(patients["subject_id"]) == set(ed["subject_id"])
    assert ed.groupby("subject_id").size().between(1, 3).all()
    assert ed["subject_id"].astype(int).between(10_000_000, 19_999_999).all()
    assert ed["stay_id"].astype(int).between(30_000_000, 39_999_999).all()
    admitted = ed["disposition"] == "ADMITTED"
    assert (ed["hadm_id"] != "").eq(admitted).all()
    assert ed.loc[admitted, "hadm_id"].astype(int).between(20_000_000, 29_999_999).all()
    assert adm["hadm_id"].is_unique and set(adm["hadm_id"]) <= set(ed["hadm_id"])
    assert notes["hadm_id"].is_unique and set(notes["hadm_id"]) <= set(adm["hadm_id"])
    assert notes["note_id"].is_unique
    assert (notes["note_id"] == notes["subject_id"] + "-DS-" + notes["note_seq"]).all()
    assert (notes["note_type"] == "DS").all()
    # Some admitted stays have no admission row, and some admissions have no note.
    assert len(adm) < admitted.sum() and len(notes) < len(adm)


def test_timestamps_are_mimic_like(default_run: Run) -> None:
    _, t = default_run
    stamp = re.compile(r"^2(1[1-9]\d|20\d|210)-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
    ed, adm = t["ed/edstays.csv.gz"], t["hosp/admissions.csv.gz"]
    for column in (ed["intime"], ed["outtime"], adm["admittime"], adm["dischtime"]):
        assert column.str.match(stamp).all()
    assert (ed["outtime"] > ed["intime"]).all()
    assert (adm["dischtime"] > adm["admittime"]).all()
    # anchor_age is the age in anchor_year, the year of the subject's first visit.
    truth, patients = t["_truth/stays.csv.gz"], t["hosp/patients.csv.gz"]
    stays = ed.merge(truth, on=["stay_id", "subject_id"]).merge(patients, on="subject_id")
    first_year = stays.groupby("subject_id")["intime"].transform("min").str[:4].astype(int)
    assert (first_year == stays["anchor_year"].astype(int)).all()
    expected_age = stays["anchor_age"].astype(int) + stays["intime"].str[:4].astype(int) - first_year
    assert (stays["age"].astype(int) == expected_age).all()


def test_gender_consistent_everywhere(stays: pd.DataFrame,
                                      default_run: Run) -> None:
    _, t = default_run
    patients = t["hosp/patients.csv.gz"].set_index("subject_id")["gender"]
    assert set(patients) == {"F", "M"}
    assert (stays["gender"] == stays["subject_id"].map(patients)).all()
    assert (stays["sex"] == stays["gender"]).all()
    with_note = stays[stays["has_note"]]
    note_sex = with_note["text"].str.extract(r"Sex:   ([FM])\n", expand=False)
    assert (note_sex == with_note["gender"]).all()


def test_hpi_uses_the_patients_gendered_words(stays: pd.DataFrame) -> None:
    with_note = stays[stays["has_note"]]
    female = with_note["sex"] == "F"
    male_words = re.compile(r"\b(?:he|him|his|himself|man|gentleman|male|wife)\b|\bMr\.",
                            re.IGNORECASE)
    female_words = re.compile(r"\b(?:she|her|hers|herself|woman|lady|female|husband)\b|\bMrs\.|\bMs\.",
                              re.IGNORECASE)
    assert with_note.loc[female, "hpi"].str.contains(female_words).all()
    assert with_note.loc[~female, "hpi"].str.contains(male_words).all()


# (female, male) forms of the words that refer to the patient; everything else is the same in both renderings.
PATIENT_PAIRS = {("she", "he"), ("She", "He"), ("her", "his"), ("Her", "His"), ("her", "him"), ("hers", "his"),
                 ("herself", "himself"), ("woman", "man"), ("lady", "gentleman"), ("female", "male"),
                 ("husband", "wife"), ("mother", "father"), ("Ms.", "Mr."), ("Mrs.", "Mr."), ("F", "M"),
                 ("policewoman", "policeman"), ("waitress", "waiter"), ("actress", "actor"),
                 ("grandmother", "grandfather"), ("businesswoman", "businessman"), ("headmistress", "headmaster")}
TOKEN = re.compile(r"(?:Mrs?|Ms|Dr)\.|\d+[FM]\b|[A-Za-z]+|\S")


def test_only_the_patients_words_differ_from_the_other_sex_rendering(default_run: Run) -> None:
    """The generator's own other-sex rendering (the reference of benchmarks/swap_demo_notes.py) replays the
    file's notes, differs from them (planted gender-specific content aside) only in words that refer to the
    patient, each in the patient's sex; other people (relatives, clinicians) keep their own sex in both."""
    from biasmirror.synth.mimic import renderings

    _, t = default_run
    notes = t["note/discharge.csv.gz"]
    truth = t["_truth/stays.csv.gz"].set_index("stay_id")
    rendered = list(renderings(STAYS, SEED))
    assert [r.note for r in rendered] == list(notes["text"])  # note rows are written in stay order
    others_kept = 0
    for r in rendered:
        assert truth.loc[str(r.stay_id), "sex"] == r.sex
        if truth.loc[str(r.stay_id), "gender_specific_field"]:
            continue  # planted content of the patient's sex (the cohort excludes it)
        own, other = TOKEN.findall(r.note), TOKEN.findall(r.other_note)
        assert len(own) == len(other)
        for a, b in zip(own, other):
            if a != b:
                female, male = (a, b) if r.sex == "F" else (b, a)
                codes = re.fullmatch(r"(\d+)F", female) and male == female[:-1] + "M"
                assert (female, male) in PATIENT_PAIRS or codes, (a, b)
        kept = {"he", "she"} & {a for a, b in zip(own, other) if a == b}
        others_kept += bool(kept)
    assert others_kept > 0.1 * len(rendered)  # relatives and clinicians with their own pronouns are common


def test_pain_is_text_with_non_numeric_forms(stays: pd.DataFrame) -> None:
    pain = stays["pain"]
    numeric = pain.str.fullmatch(r"\d+")
    assert numeric.mean() > 0.75
    assert pain[numeric].astype(int).between(0, 10).all()
    assert {"UA", ""} <= set(pain)
    assert pain.str.fullmatch(r"\d+-\d+").any()


def test_temperature_mostly_fahrenheit_with_some_missing(stays: pd.DataFrame) -> None:
    temperature = stays["temperature"]
    present = temperature[temperature != ""]
    assert 0.01 < (temperature == "").mean() < 0.06
    assert present.str.fullmatch(r"\d+\.\d").all()
    assert present.astype(float).between(95, 106).mean() > 0.97
    assert 97.5 < present.astype(float).median() < 99.0
    for column in ("heartrate", "resprate", "o2sat", "sbp", "dbp"):
        values = stays[column]
        assert 0.0 < (values == "").mean() < 0.06, column
        assert values[values != ""].str.fullmatch(r"\d+").all(), column


def test_note_layout(stays: pd.DataFrame) -> None:
    texts = stays.loc[stays["has_note"], "text"]
    for text in texts:
        lines = text.split("\n")
        headers = [line for line in lines if any(line.startswith(h) for h in NOTE_HEADERS)]
        assert [next(h for h in NOTE_HEADERS if line.startswith(h)) for line in headers] == NOTE_HEADERS
        for header in NOTE_HEADERS[6:]:  # sections: header alone on its line, content below
            assert f"\n \n{header}\n" in text, header
    hpis = stays.loc[stays["has_note"], "hpi"]
    assert (hpis.str.count("In the ED, initial vitals were") == 1).all()
    sizes = texts.str.len()
    assert sizes.between(1000, 4000).all() and 1500 < sizes.mean() < 3200


def test_gender_specific_stems_only_in_planted_records(stays: pd.DataFrame) -> None:
    fields = stays["chiefcomplaint"] + "\n" + stays["hpi"] + "\n" + stays["pmh"]
    planted = stays["gender_specific_field"] != ""
    has_stem = fields.str.contains(ANY_STEM)
    assert planted.any()
    assert (has_stem == planted).all()
    # The stem is in the field the truth names, and matches the patient's sex.
    column = {"chief_complaint": "chiefcomplaint", "hpi": "hpi", "pmh": "pmh"}
    for field, name in column.items():
        rows = stays[stays["gender_specific_field"] == field]
        assert rows[name].str.contains(ANY_STEM).all(), field
    female = stays["sex"] == "F"
    assert not fields[planted & female].str.contains(MALE_STEM).any()
    assert not fields[planted & ~female].str.contains(FEMALE_STEM).any()
    # Without a note, only the chief complaint can carry it.
    assert set(stays.loc[~stays["has_note"] & planted, "gender_specific_field"]) <= {"chief_complaint"}
    # Whole notes of other records are clean too; 'breast' and 'cervical' (spine) never appear.
    assert not stays.loc[~planted, "text"].str.contains(ANY_STEM).any()
    all_text = pd.concat([stays["text"], stays["chiefcomplaint"]])
    assert not all_text.str.contains("breast", case=False).any()
    assert not all_text.str.contains(r"cervical(?! cancer)", case=False).any()


def test_planted_exclusions_follow_priority(stays: pd.DataFrame) -> None:
    acuity5 = stays["acuity"] == "5"
    planted = stays["gender_specific_field"] != ""
    expected = pd.Series("none", index=stays.index)
    expected[planted] = "gender_specific"
    expected[acuity5] = "acuity_5"
    expected[~stays["has_note"]] = "no_link"
    assert (stays["planted_exclusion"] == expected).all()
    share = stays["planted_exclusion"].value_counts(normalize=True)
    assert 0.10 < share["no_link"] < 0.22
    assert 0.005 < share["acuity_5"] < 0.03
    assert 0.015 < share["gender_specific"] < 0.06
    assert 0.02 < planted.mean() < 0.065
    assert 0.01 < acuity5.mean() < 0.035


def test_acuity_marginals_are_mimic_like(stays: pd.DataFrame) -> None:
    policy = stays["policy_acuity"].astype(int).value_counts(normalize=True)
    assert 0.02 < policy.get(1, 0) < 0.10
    assert 0.25 < policy.get(2, 0) < 0.42
    assert 0.45 < policy.get(3, 0) < 0.62
    assert 0.03 < policy.get(4, 0) < 0.12
    assert policy.get(5, 0) < 0.02
    # Planted level-5 records: policy said 4.
    forced = (stays["acuity"] == "5") & (stays["policy_acuity"] != "5")
    assert forced.any() and (stays.loc[forced, "policy_acuity"] == "4").all()


def test_shift_rule(stays: pd.DataFrame) -> None:
    shifted = stays["sex_shifted"] == "1"
    policy, acuity = stays["policy_acuity"].astype(int), stays["acuity"].astype(int)
    assert shifted.any()
    assert (stays.loc[shifted, "sex"] == "F").all()
    assert policy[shifted].isin([2, 3]).all()
    assert (acuity[shifted] == (policy[shifted] + 1).clip(upper=4)).all()
    unshifted = ~shifted & (acuity != 5)
    assert (acuity[unshifted] == policy[unshifted]).all()
    # Strong groups get the full effect, the others a third of it.
    eligible = (stays["sex"] == "F") & policy.isin([2, 3])
    strong = stays["complaint_group"].isin(STRONG)
    rate_strong = shifted[eligible & strong].mean()
    rate_weak = shifted[eligible & ~strong].mean()
    assert abs(rate_strong - DEFAULT_FEMALE_EFFECT) < 0.1
    assert abs(rate_weak - DEFAULT_FEMALE_EFFECT / 3) < 0.05


def test_no_effect_means_no_sex_difference(no_effect_run: Run) -> None:
    _, t = no_effect_run
    truth = t["_truth/stays.csv.gz"]
    assert (truth["sex_shifted"] == "0").all()
    # Tolerances are about 3.5 standard errors for 2000 stays (checked over 40 seeds).
    assert abs(_acuity_gap(truth)) < 0.12
    assert abs(_acuity_gap(truth, STRONG)) < 0.2


def test_default_effect_raises_female_acuity(default_run: Run,
                                             no_effect_run: Run) -> None:
    truth = default_run[1]["_truth/stays.csv.gz"]
    baseline = no_effect_run[1]["_truth/stays.csv.gz"]
    # Expected gap about 0.26 (0.3 x share of policy 2/3); its standard error is about 0.056.
    assert _acuity_gap(truth, STRONG) > 0.1
    # Same seed: the policy is identical, so the difference is the planted shift alone.
    assert _acuity_gap(truth, STRONG) - _acuity_gap(baseline, STRONG) > 0.15
    assert (truth["policy_acuity"] == baseline["policy_acuity"]).all()


def test_female_effect_changes_only_acuity(default_run: Run,
                                           no_effect_run: Run) -> None:
    a, b = default_run[0].out_dir, no_effect_run[0].out_dir
    for rel in ("ed/edstays.csv.gz", "hosp/patients.csv.gz", "hosp/admissions.csv.gz",
                "note/discharge.csv.gz"):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    triage_a, triage_b = _read(a, "ed/triage.csv.gz"), _read(b, "ed/triage.csv.gz")
    same = [c for c in EXPECTED_COLUMNS["ed/triage.csv.gz"] if c != "acuity"]
    pd.testing.assert_frame_equal(triage_a[same], triage_b[same])
    assert (triage_a["acuity"] != triage_b["acuity"]).any()


def test_vitals_and_complaints_independent_of_sex(stays: pd.DataFrame) -> None:
    female = stays["sex"] == "F"
    # Tolerances are about 4 standard errors for 2000 stays.
    for column, tolerance in (("heartrate", 3.0), ("sbp", 4.0), ("o2sat", 0.35), ("temperature", 0.2)):
        values = pd.to_numeric(stays[column], errors="coerce")
        if column == "temperature":
            values = values.where(values > 90)  # drop the rare temperatures typed in deg C
        assert abs(values[female].mean() - values[~female].mean()) < tolerance, column
    groups = pd.crosstab(stays["sex"], stays["complaint_group"], normalize="index")
    assert (groups.loc["F"] - groups.loc["M"]).abs().max() < 0.07
    # Policy (the undocumented truth) does not depend on sex.
    assert abs(stays.loc[female, "policy_acuity"].astype(int).mean()
               - stays.loc[~female, "policy_acuity"].astype(int).mean()) < 0.12


def test_progress_reports_every_stay(tmp_path: Path) -> None:
    calls: list[int] = []
    write_mimic(tmp_path, 1234, 3, progress=calls.append)
    assert sum(calls) == 1234 and all(c > 0 for c in calls) and len(calls) > 1


@pytest.mark.parametrize("kwargs, message", [
    ({"stays": 0}, "stays"),
    ({"stays": -5}, "stays"),
    ({"stays": 2.5}, "stays"),
    ({"female_effect": -0.1}, "female_effect"),
    ({"female_effect": 1.5}, "female_effect"),
    ({"female_effect": math.nan}, "female_effect"),
    ({"seed": -1}, "seed"),
])
def test_bad_arguments_raise(tmp_path: Path, kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"out_dir": tmp_path, "stays": 10, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        write_mimic(**arguments)  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())  # nothing written before validation
