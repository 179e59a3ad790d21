"""The error classes round 7 of issue 22 found (benchmarks/README.md, "Round 7 of issue 22"), one case or more per
class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the swap of ``b`` back must
give ``a``. Sentences are written for this test (none is copied from a gold or held-out set). French needs the
spaCy model the swapper uses (as the other round tests)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import (agreement_es, agreement_fr, person_nouns_es, person_nouns_fr, referents_es,
                                        referents_fr)
from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import other

# (language, sex of a, a, b)
CASES = [
    # fronted role nouns, from a male original too: a hyphenated role noun whose tail agrees with its head
    ("fr", "M", "Maître-nageur, il s'est coupé au pied.", "Maître-nageuse, elle s'est coupée au pied."),
    # Spanish: a role noun the -or stoplist held back ("tutor" is also a splint's word)
    ("es", "M", "Tutor de un menor, está agotado.", "Tutora de un menor, está agotada."),
    # a role noun apposed to the partner changes with the partner
    ("fr", "F", "Son mari, boulanger, la trouve pâle.", "Sa femme, boulangère, le trouve pâle."),
    # kinship nouns of the one list: in-laws as the patient's definite predicate
    ("es", "F", "Es la suegra del chico del box 3; se mareó.", "Es el suegro del chico del box 3; se mareó."),
    ("fr", "F", "Elle est la belle-mère du garçon du box 3 ; chute.", "Il est le beau-père du garçon du box 3 ; chute."),
    # a list of findings after a skin: the skin's, not the patient's
    ("fr", "F", "Peau moite, froide, marbrée ; elle est somnolente.", "Peau moite, froide, marbrée ; il est somnolent."),
    ("es", "F", "Piel fría, húmeda y moteada; está somnolienta.", "Piel fría, húmeda y moteada; está somnoliento."),
    # a multi-word role noun after a possessive is someone else ("sa femme de ménage", a three-word lookahead from
    # "sa"); the patient's own keeps swapping
    ("fr", "F", "Sa femme de ménage l'a trouvée au sol, confuse.", "Sa femme de ménage l'a trouvé au sol, confus."),
    ("fr", "F", "Femme de chambre à l'hôtel, elle a été trouvée par sa femme de ménage, confuse.",
     "Homme de chambre à l'hôtel, il a été trouvé par sa femme de ménage, confus."),
    # a role noun the lexicon did not hold
    ("es", "M", "Mensajero en bici, se cayó en una curva.", "Mensajera en bici, se cayó en una curva."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round7_class_swaps_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


def test_one_kinship_list_per_language_read_by_swapper_and_reading() -> None:
    assert agreement_fr.KINSHIP_PAIRS == person_nouns_fr.kinship_pairs()
    assert agreement_es.KINSHIP_PAIRS == person_nouns_es.kinship_pairs()
    assert person_nouns_fr.kinship_forms() <= referents_fr.KINSHIP
    assert person_nouns_es.kinship_forms() <= referents_es.KINSHIP
    assert referents_fr.PERSONAL_ROLE == person_nouns_fr.kinship_forms("parent")
    assert referents_es.PARENT_ROLES == person_nouns_es.kinship_forms("parent")
    # each pair is one feminine and one masculine noun, and no noun is in two pairs
    for pairs in (person_nouns_fr.kinship_pairs(), person_nouns_es.kinship_pairs()):
        assert not set(pairs) & set(pairs.values())


def test_kinship_list_read_backwards_gives_the_listed_spelling() -> None:
    backwards = {m: f for f, m in person_nouns_fr.kinship_pairs().items()}
    assert backwards["frère"] == "sœur" and backwards["beau-frère"] == "belle-sœur"
    assert person_nouns_fr.kinship_pairs()["soeur"] == "frère"


def test_spanish_reading_takes_a_definite_predicate_as_the_patients() -> None:
    from biasmirror.counterfactuals.second_opinion import judge

    original = "Es la encargada del almacén; se cortó."
    # the correct copy passes; the copy left unswapped is flagged as residual, article and noun
    assert judge(original, "Es el encargado del almacén; se cortó.", "F", "es", ("reading",)) == []
    residual = judge(original, original, "F", "es", ("reading",))
    assert {(f.kind, f.start) for f in residual} == {("residual", 3), ("residual", 6)}
    # the same noun as a relative's predicate is someone else's: changing it is a content change
    other = judge("Su hija es la encargada del almacén.", "Su hija es el encargado del almacén.", "F", "es",
                  ("reading",))
    assert {f.kind for f in other} == {"content change"}
