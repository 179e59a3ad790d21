"""Per-record diagnostics: clinical content (numbers with units, drug names, negations) against independent
regular expressions and planted edits, residual words of the wrong sex for swaps and placebo copies, and the
rule generator's placebo."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from biasmirror.counterfactuals.base import RewriteInput, changed_words
from biasmirror.counterfactuals.checks import field_problems
from biasmirror.counterfactuals.clinical_content import ClinicalContent, changed_parts, clinical_content
from biasmirror.counterfactuals.diagnostics import joined_text, record_checks
from biasmirror.counterfactuals.rule_rewriter import RuleRewriter
from biasmirror.counterfactuals.rules import swap_sex

NOTES = [
    ("en", "67 y/o F with CP since 2 hours, BP 150/90, HR 110, SpO2 94% on 2 L. Took aspirin 325 mg and "
           "metoprolol 25mg. Denies fever, no chills. G2P1, B12 normal, T 38.5 °C."),
    ("fr", "Patiente de 72 ans sous Kardegic 75 mg et furosémide 40 mg. Pas de fièvre, n'a aucune douleur, "
           "absence de dyspnée. TA 14/8, EVA 7/10 depuis 3 jours."),
    ("es", "Mujer de 64 años con enalapril 20 mg y AAS 100 mg. Niega fiebre, sin disnea, ninguna alergia. "
           "Glucemia 350 mg/dl hace 2 días."),
]


@pytest.mark.parametrize(("language", "text"), NOTES, ids=[n[0] for n in NOTES])
def test_numbers_match_an_independent_count(language: str, text: str) -> None:
    content = clinical_content(text, language)
    values = Counter(n.split(" ")[0] for n in content.numbers)
    # independent: every digit run (with a decimal part) that is not glued to a letter before it
    expected = Counter(m.group(1) for m in re.finditer(r"(?<![A-Za-z\d.,])(\d+(?:[.,]\d+)?)", text))
    assert values == expected


def test_units_drugs_and_negations_by_language() -> None:
    en = clinical_content(NOTES[0][1], "en")
    assert {"325 mg", "25 mg", "94 %", "2 l", "38.5 °c", "67 y/o", "2 hours"} <= set(en.numbers)
    assert en.drugs == ("aspirin", "metoprolol") and en.negations == ("denies", "no")
    fr = clinical_content(NOTES[1][1], "fr")
    assert fr.drugs == ("furosémide", "kardegic") and fr.negations == ("absence", "aucun", "n'", "pas")
    es = clinical_content(NOTES[2][1], "es")
    assert es.drugs == ("aas", "enalapril") and es.negations == ("niega", "ningún", "sin")
    assert clinical_content(None, "en") == clinical_content("", "de") == ClinicalContent((), (), ())


@pytest.mark.slow  # loads spaCy and a sentence encoder
@pytest.mark.parametrize(("language", "text"), NOTES, ids=[n[0] for n in NOTES])
def test_a_sex_swap_preserves_clinical_content(language: str, text: str) -> None:
    swapped = swap_sex(text, "M", language).text
    assert swapped != text
    assert changed_parts(clinical_content(text, language), clinical_content(swapped, language)) == []


@pytest.mark.parametrize(("edit", "parts"), [
    (lambda t: t.replace("325 mg", "325 mcg"), ["numbers"]),
    (lambda t: t.replace("150/90", "150/95"), ["numbers"]),
    (lambda t: t.replace("metoprolol", "atenolol"), ["drugs"]),
    (lambda t: t.replace("Denies fever", "Reports fever"), ["negations"]),
    (lambda t: t.replace("no chills", "chills") + " Also 4 mg lisinopril.", ["numbers", "drugs", "negations"]),
])
def test_planted_edits_are_detected(edit, parts: list[str]) -> None:
    text = NOTES[0][1]
    assert changed_parts(clinical_content(text, "en"), clinical_content(edit(text), "en")) == parts


def test_agreement_of_a_negation_cue_is_not_a_change() -> None:
    assert clinical_content("aucune douleur", "fr").negations == clinical_content("aucun douleur", "fr").negations
    assert clinical_content("ninguna alergia", "es").negations == clinical_content("ningún alergia", "es").negations


def test_record_checks_for_a_swap_and_a_placebo_copy() -> None:
    hpi, pmh = "She took aspirin 81 mg. Her husband is here.", "No allergies."
    swapped = swap_sex(hpi, "M").text
    good = record_checks(hpi, pmh, swapped, pmh, "M", "en")
    assert good["wrong_sex_terms"] == 0 and good["original_numbers"] == good["copy_numbers"] == "81 mg"
    assert good["original_drugs"] == good["copy_drugs"] == "aspirin" and good["copy_negations"] == "no"
    assert good["wrong_sex_agreement"] == 0 and good["agreement_reasons"] is None
    # 'Her' is left; 'husband' names the partner, whose sex never flags a copy (the swap keeps the relationship)
    half = record_checks(hpi, pmh, swapped.replace("His wife", "Her husband"), pmh, "M", "en")
    assert half["wrong_sex_terms"] == 1
    placebo = record_checks(hpi, pmh, hpi, pmh, "F", "en", placebo=True)  # same sex: words of the other sex are wrong
    assert placebo["wrong_sex_terms"] == 0
    # a placebo copy that changed the sex: 'He', 'his' were written by the rewrite ('wife': partner)
    assert record_checks(hpi, pmh, swapped, pmh, "F", "en", placebo=True)["wrong_sex_terms"] == 2
    missing = record_checks(hpi, None, "x", None, "M", "de")
    assert missing["wrong_sex_terms"] is None and missing["wrong_sex_agreement"] is None
    assert joined_text("a", None) == "a" and joined_text(None, None) == ""


def test_rule_placebo_is_the_swap_swapped_back() -> None:
    rewriter = RuleRewriter(placebo=True)
    assert rewriter.name == "rules-placebo"
    text = "Mrs. ___ says her husband found her. She took 2 tabs."
    (copy,) = rewriter.rewrite_batch([RewriteInput(text, None, "F", "en")])
    assert copy.status == "ok" and copy.hpi == "Ms. ___ says her husband found her. She took 2 tabs."
    assert copy.n_replacements == changed_words(text, copy.hpi) == 1
    (same,) = rewriter.rewrite_batch([RewriteInput("Patiente de 70 ans, admise.", None, "F", "fr")])
    assert same.hpi == "Patiente de 70 ans, admise." and same.n_replacements == 0
    (unknown,) = RuleRewriter().rewrite_batch([RewriteInput("Patientin", None, "F", "de")])
    assert unknown.status == "flagged" and "no rule lexicon" in unknown.flag_reason


def test_changed_words_counts_a_word_level_diff() -> None:
    assert changed_words("a b c d", "a x c d") == 1
    assert changed_words("a b c", "a b c d e") == 2
    assert changed_words(None, None) == 0


def test_record_checks_count_words_still_agreeing_with_the_original_sex() -> None:
    original = "Elle est inquiète et se dit essoufflée. Patiente calme, coopérante."
    bad = "Il est inquiet et se dit essoufflée. Patient calme, coopérante."  # two agreements left
    checks = record_checks(original, None, bad, None, "M", "fr")
    assert checks["wrong_sex_terms"] == 0
    assert checks["wrong_sex_agreement"] == 2 and checks["agreement_reasons"] == "apposed:1|predicative:1"
    good = record_checks(original, None, swap_sex(original, "M", "fr").text, None, "M", "fr")
    assert good["wrong_sex_agreement"] == 0 and good["wrong_sex_terms"] == 0
    (copy,) = RuleRewriter().rewrite_batch([RewriteInput("Elle est gênée à la marche.", None, "F", "fr")])
    assert copy.status == "ok" and copy.hpi == "Il est gêné à la marche."
    # the LLM rewriter's check (field_problems) rejects such a copy and says why without quoting it
    problems = field_problems("hpi", original, bad, "M", "fr")
    assert problems == ["2 word(s) in hpi still agree with a patient of sex F (apposed:1|predicative:1)"]
    assert field_problems("hpi", original, swap_sex(original, "M", "fr").text, "M", "fr") == []
