"""Tests for the rule-based sex swapper (biasmirror.counterfactuals.rules)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from biasmirror.counterfactuals import rules
from biasmirror.counterfactuals.rules import SwapResult, residual_terms, supported_languages, swap_sex

EXAMPLE_F = (
    "Ms. ___ is a 67 year old woman with HTN who presents with chest pain. "
    "She reports her husband found her on the floor."
)
EXAMPLE_M = (
    "Mr. ___ is a 54 y/o man, father of two, who states his pain started yesterday. "
    "He took aspirin 325 mg."
)
EXAMPLE_45F = "Pt is a 45F with hx of asthma. Her daughter brought her in."


# ---------------------------------------------------------------------------
# Golden cases: (input, expected output, expected number of replacements)
# ---------------------------------------------------------------------------

GOLDEN = [
    # the three reference sentences
    (
        EXAMPLE_F,
        "Mr. ___ is a 67 year old man with HTN who presents with chest pain. "
        "He reports his wife found him on the floor.",
        6,
    ),
    (
        EXAMPLE_M,
        "Ms. ___ is a 54 y/o woman, mother of two, who states her pain started yesterday. "
        "She took aspirin 325 mg.",
        5,
    ),
    (EXAMPLE_45F, "Pt is a 45M with hx of asthma. His daughter brought him in.", 3),
    # pronouns, both directions (a true swap keeps co-reference consistent)
    ("She has chest pain.", "He has chest pain.", 1),
    ("He has chest pain.", "She has chest pain.", 1),
    ("Her husband says he found her down.", "His wife says she found him down.", 4),
    ("She hurt herself; he blamed himself.", "He hurt himself; she blamed herself.", 4),
    ("She's fine; he'd left.", "He's fine; she'd left.", 2),
    # case preservation
    ("SHE REPORTS PAIN.", "HE REPORTS PAIN.", 1),
    ("Her Husband", "His Wife", 2),
    ("MRS. ___ IS A 67 YO F. HER HUSBAND IS HERE.", "MR. ___ IS A 67 YO M. HIS WIFE IS HERE.", 4),
    # 'her': possessive determiner -> his
    ("Her chest hurts.", "His chest hurts.", 1),
    ("She drove her own car.", "He drove his own car.", 2),
    ("Pain in her 60s.", "Pain in his 60s.", 1),
    ("Pain in her (L) knee.", "Pain in his (L) knee.", 1),
    ("Her in-laws are here.", "His in-laws are here.", 1),
    ("She fell at her home.", "He fell at his home.", 2),
    ("She has had her back pain for 3 days.", "He has had his back pain for 3 days.", 2),
    ("She takes her home medications.", "He takes his home medications.", 2),
    ("Her last period was in May.", "His last period was in May.", 1),
    ("EMS gave her husband the keys.", "EMS gave his wife the keys.", 2),
    # 'her': object -> him
    ("EMS found her.", "EMS found him.", 1),
    ("Her daughter brought her in.", "His daughter brought him in.", 2),
    ("They told her that it was benign.", "They told him that it was benign.", 1),
    ("EMS took her home yesterday.", "EMS took him home yesterday.", 1),
    ("EMS brought her back to the ED.", "EMS brought him back to the ED.", 1),
    ("EMS gave her 324 mg aspirin.", "EMS gave him 324 mg aspirin.", 1),
    ("EMS gave her aspirin.", "EMS gave him aspirin.", 1),
    ("I saw her last week.", "I saw him last week.", 1),
    ("It made her feel dizzy.", "It made him feel dizzy.", 1),
    ("EMS brought her (by ambulance).", "EMS brought him (by ambulance).", 1),
    ("Husband woke her up and called 911.", "Wife woke him up and called 911.", 2),
    ("She reports her\nhusband found her\n\nPlan:", "He reports his\nwife found him\n\nPlan:", 4),
    # 'his' -> her / hers, 'hers' -> his, 'him' -> her
    ("His wife is here.", "Her husband is here.", 2),
    ("The decision was his.", "The decision was hers.", 1),
    ("The bag is hers.", "The bag is his.", 1),
    ("We told him.", "We told her.", 1),
    # honorifics
    ("Mrs. ___ is here.", "Mr. ___ is here.", 1),
    ("Miss ___ is here.", "Mr ___ is here.", 1),
    ("Ms ___ is here.", "Mr ___ is here.", 1),
    ("Mr ___ is here.", "Ms ___ is here.", 1),
    ("Seen by Ms.", "Seen by Mr.", 1),
    ("MS. ___ presents.", "MR. ___ presents.", 1),
    ("Miss doses occasionally.", "Miss doses occasionally.", 0),
    ("History of MS and severe MR.", "History of MS and severe MR.", 0),
    # nouns
    # "woman"/"man" describe the patient only where a licensor says so (issue 22); plurals stay lexicon pairs,
    # except after a number or a quantifier, which counts other people (round 4)
    ("Two women and a woman.", "Two women and a woman.", 0),
    ("He has sex with women.", "She has sex with men.", 2),
    ("A female patient.", "A male patient.", 1),
    ("Males and females.", "Females and males.", 2),
    ("gentleman, lady, ladies, gentlemen", "lady, gentleman, gentlemen, ladies", 4),
    ("boy, girl, boys, girls", "girl, boy, girls, boys", 4),
    ("Yes ma'am, said the sir.", "Yes sir, said the madam.", 2),
    ("Her husbands and wives.", "His wives and husbands.", 3),
    ("Her boyfriend and girlfriends.", "His girlfriend and boyfriends.", 3),
    ("Her fiance; his fiancée.", "His fiancee; her fiancé.", 4),
    ("She is a widow.", "He is a widower.", 2),
    # kinship: other people are kept, the patient's own role is swapped
    ("Her mother and father are ill.", "His mother and father are ill.", 1),
    ("Her son, daughter, sister and brother.", "His son, daughter, sister and brother.", 1),
    ("G2P2, mother of 2.", "G2P2, father of 2.", 1),
    ("She is a mother of three.", "He is a father of three.", 2),
    ("Grandmother of five.", "Grandfather of five.", 1),
    ("Mom of twins.", "Dad of twins.", 1),
    ("The patient's mother of 3 called.", "The patient's mother of 3 called.", 0),
    # sex codes
    ("67 y/o F with CP", "67 y/o M with CP", 1),
    ("67yo M with CP", "67yo F with CP", 1),
    ("a 67-year-old F", "a 67-year-old M", 1),
    ("45F with asthma", "45M with asthma", 1),
    ("54M with asthma", "54F with asthma", 1),
    ("Age/sex: 45/F", "Age/sex: 45/M", 1),
    ("Sex: F", "Sex: M", 1),
    ("Sex:   M", "Sex:   F", 1),
    ("Tmax 101F at home.", "Tmax 101F at home.", 0),
    ("Temp 99 F.", "Temp 99 F.", 0),
    ("16F Foley placed.", "16F Foley placed.", 0),
    ("14 F NG tube.", "14 F NG tube.", 0),
    # whole words only, abbreviations kept
    (
        "the there sheet shelf hemoglobin MRSA themselves heme herb hers3",
        "the there sheet shelf hemoglobin MRSA themselves heme herb hers3",
        0,
    ),
    ("Hx of HE, HER-2 positive.", "Hx of HE, HER-2 positive.", 0),
    ("Hx of HE; she is confused.", "Hx of HE; he is confused.", 1),
]


@pytest.mark.parametrize(("text", "expected", "count"), GOLDEN, ids=[g[0][:40] for g in GOLDEN])
def test_golden(text: str, expected: str, count: int) -> None:
    result = swap_sex(text, "M")
    assert result == SwapResult(expected, count)


def test_at_least_25_golden_cases() -> None:
    assert len(GOLDEN) >= 25


@pytest.mark.parametrize(("text", "expected", "count"), [g for g in GOLDEN[:12] if g[0] != EXAMPLE_45F])
def test_output_does_not_depend_on_target_sex(text: str, expected: str, count: int) -> None:
    assert swap_sex(text, "F") == swap_sex(text, "M")


def test_output_depends_on_target_sex_for_a_relatives_pronoun() -> None:
    # a pronoun of the sex the patient is not, after a relative of that sex, is the relative's: which pronouns
    # those are depends on the patient's sex, so on the direction of the swap
    assert swap_sex(EXAMPLE_45F, "M").text == "Pt is a 45M with hx of asthma. His daughter brought him in."
    assert swap_sex(EXAMPLE_45F, "F").text == "Pt is a 45M with hx of asthma. His daughter brought her in."


# ---------------------------------------------------------------------------
# Round trip
# ---------------------------------------------------------------------------

# Round trip is guaranteed only when every token has a unique counterpart that
# maps back: NOT for Mrs./Miss (-> Mr. -> Ms.), standalone 'his and ...'
# (-> 'hers and' -> 'his and' works, but 'his and her' does not), or ambiguous
# 'her' readings ('gave her medication' after a non-listed verb).
ROUND_TRIP = [
    (EXAMPLE_F, "F"),
    (EXAMPLE_M, "M"),
    (EXAMPLE_45F, "F"),
    ("She reports that her husband drove her to the ED after she fainted at home.", "F"),
    ("He states his chest pain began while he was walking his dog; his wife called EMS.", "M"),
    ("Pt is a 72 y/o M with CAD s/p CABG who was found down by his daughter. EMS gave him 324 mg ASA.", "M"),
    ("She was in her usual state of health until 3 days ago when she noted her left leg was swollen.", "F"),
    ("Her boyfriend states she took 20 tabs of her mother's oxycodone. She denies SI.", "F"),
    ("He is a 34 y/o man who was brought in by his girlfriend; she says he fell at his home.", "M"),
    ("Mr. ___ is a 81 yo gentleman with dementia. His wife reports he has not been eating.", "M"),
    ("Sex: F\nAge: 54\nHPI: 54F with her first episode of syncope; husband witnessed it.", "F"),
    ("She is a mother of two and lives with her fiance.", "F"),
    ("He told the nurse the phone was his. Staff brought him back to bed.", "M"),
]


@pytest.mark.parametrize(("text", "sex"), ROUND_TRIP, ids=[t[0][:40] for t in ROUND_TRIP])
def test_round_trip(text: str, sex: str) -> None:
    target = "M" if sex == "F" else "F"
    once = swap_sex(text, target)  # type: ignore[arg-type]
    assert once.text != text
    twice = swap_sex(once.text, sex)  # type: ignore[arg-type]
    assert twice.text == text
    assert twice.replacements == once.replacements


def test_round_trip_not_guaranteed_for_a_relatives_pronoun_of_the_copys_sex() -> None:
    # the son's "he" is kept; in the copy it is of the patient's new sex, so the swap back takes it for the
    # patient's
    once = swap_sex("Per her son, she has been confused and he is worried.", "M").text
    assert once == "Per his son, he has been confused and he is worried."
    assert swap_sex(once, "F").text == "Per her son, she has been confused and she is worried."


def test_round_trip_of_a_relatives_pronoun_bound_by_the_patient_as_its_object() -> None:
    # "he found him": a subject and an object of one clause are two people, so the copy's "he" is the son's again
    # (coreference_en.py, round 14)
    once = swap_sex("Per her son, she has been confused and he found her on the floor.", "M").text
    assert once == "Per his son, he has been confused and he found him on the floor."
    assert swap_sex(once, "F").text == "Per her son, she has been confused and he found her on the floor."


def test_round_trip_not_guaranteed_for_mrs_and_miss() -> None:
    once = swap_sex("Mrs. ___ and Miss ___", "M").text
    assert once == "Mr. ___ and Mr ___"
    assert swap_sex(once, "F").text == "Ms. ___ and Ms ___"


# ---------------------------------------------------------------------------
# residual_terms
# ---------------------------------------------------------------------------


def test_residual_terms_lists_original_sex_terms_in_order() -> None:
    # "woman"/"man" are no longer lexicon terms: the English analysis decides them (agreement_en.py)
    assert residual_terms(EXAMPLE_F, "F") == ["ms", "she", "her", "husband", "her"]
    assert residual_terms(EXAMPLE_45F, "F") == ["f", "her", "her"]
    assert residual_terms(EXAMPLE_M, "M") == ["mr", "father", "his", "he"]
    # 'wife' signals a male patient; other people's kinship nouns are not terms
    assert residual_terms("His wife and her daughter", "M") == ["his", "wife"]


def test_residual_terms_finds_leftovers_of_a_partial_edit() -> None:
    partially = "He reports her husband found him on the floor."
    assert residual_terms(partially, "F") == ["her", "husband"]


# Typical HPI text whose pronouns all refer to the patient (see the limitation below).
TYPICAL_HPI = [
    (EXAMPLE_F, "F"),
    (EXAMPLE_M, "M"),
    (EXAMPLE_45F, "F"),
    ("She reports that her husband drove her to the ED after she fainted at home.", "F"),
    ("He states his chest pain began while he was walking his dog; his wife called EMS.", "M"),
    ("Pt is a 72 y/o M with CAD s/p CABG who was found down by his daughter. EMS gave him 324 mg ASA.", "M"),
    ("She was in her usual state of health until 3 days ago when she noted her left leg was swollen.", "F"),
    ("Mr. ___ is a 81 yo gentleman with dementia. His wife reports poor oral intake.", "M"),
    ("Sex: F\nAge: 54\nHPI: 54F with her first episode of syncope; husband witnessed it.", "F"),
    ("Mrs. ___ is a 59 year old lady, grandmother of 4, who presents with her boyfriend.", "F"),
]


@pytest.mark.parametrize(("text", "original_sex"), TYPICAL_HPI, ids=[t[0][:40] for t in TYPICAL_HPI])
def test_residual_terms_empty_after_swap(text: str, original_sex: str) -> None:
    assert residual_terms(text, original_sex)
    target = "F" if original_sex == "M" else "M"
    assert residual_terms(swap_sex(text, target).text, original_sex) == []  # type: ignore[arg-type]


def test_pronoun_of_a_relative_of_the_other_sex_is_kept() -> None:
    # 'he' refers to the son, the nearest man named before it, who is kept: so is his pronoun (round 4)
    swapped = swap_sex("Per her son, she is confused and he found her on the floor.", "M").text
    assert swapped == "Per his son, he is confused and he found him on the floor."
    assert residual_terms(swapped, "F") == []
    # after the partner, who is swapped, the pronoun follows the partner
    assert swap_sex("Her husband says he found her.", "M").text == "His wife says she found him."


def test_residual_terms_ignores_abbreviations_and_substrings() -> None:
    assert residual_terms("Hx of HE and MS; the sheet; hemoglobin; 16F Foley.", "F") == []
    assert residual_terms("Hx of HE and MS; the sheet; hemoglobin; 16F Foley.", "M") == []


# ---------------------------------------------------------------------------
# Edge cases, errors, languages
# ---------------------------------------------------------------------------


def test_none_and_empty() -> None:
    assert swap_sex(None, "M") == SwapResult(None, 0)
    assert swap_sex("", "F") == SwapResult("", 0)
    assert residual_terms(None, "F") == []
    assert residual_terms("", "M") == []


def test_text_without_terms_is_returned_unchanged() -> None:
    text = "Pt presents with CP x 2 days, troponin 0.03."
    result = swap_sex(text, "F")
    assert result == SwapResult(text, 0)


def test_unicode_whose_lower_case_changes_length() -> None:
    # 'İ'.lower() has two code points: the scanner falls back to a case-insensitive pass.
    result = swap_sex("İstanbul trip: she went home with her husband.", "M")
    assert result == SwapResult("İstanbul trip: he went home with his wife.", 3)


def test_unknown_language_names_supported_languages() -> None:
    with pytest.raises(ValueError, match=r"supported languages: en"):
        swap_sex("She has pain.", "M", language="xx")
    with pytest.raises(ValueError, match=r"supported languages: en"):
        residual_terms("She has pain.", "F", language="../en")


def test_invalid_sex_and_text_type() -> None:
    with pytest.raises(ValueError, match="target_sex"):
        swap_sex("She has pain.", "X")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="original_sex"):
        residual_terms("She has pain.", "female")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        swap_sex(3.5, "M")  # type: ignore[arg-type]


def test_supported_languages() -> None:
    langs = supported_languages()
    assert "en" in langs
    assert langs == sorted(langs)
    assert swap_sex("She", "M", language="EN").text == "He"


def test_lexicon_files_are_valid() -> None:
    folder = resources.files("biasmirror.counterfactuals").joinpath("lexicons")
    for language in supported_languages():
        data = json.loads(folder.joinpath(f"{language}.json").read_text(encoding="utf-8"))
        assert data["language"] == language
        rules._Lexicon(data, language)  # compiles and validates


def test_lexicon_validation_rejects_bad_data() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        rules._Lexicon({"pairs": [{"F": "she", "M": "he"}, {"F": "she", "M": "it"}]}, "zz")
    with pytest.raises(ValueError, match="unknown word class"):
        rules._Lexicon(
            {"directed": {"her": {"sex": "F", "default": "his", "rules": [{"next_in": "nope", "use": "him"}]}}}, "zz"
        )
    with pytest.raises(ValueError, match="unknown rule keys"):
        rules._Lexicon({"directed": {"her": {"sex": "F", "default": "his", "rules": [{"nxt": 1, "use": "him"}]}}}, "zz")


# ---------------------------------------------------------------------------
# Performance
# ---------------------------------------------------------------------------
