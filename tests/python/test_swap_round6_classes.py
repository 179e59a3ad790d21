"""The error classes round 6 of issue 22 found (benchmarks/README.md, "Round 6 of issue 22"), one case or more per
class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the swap of ``b`` back must
give ``a``. Sentences are written for this test (none is copied from the held-out sets). French needs the spaCy
model the swapper uses (as the other round tests)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import inflect_fr
from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import other

# (language, sex of a, a, b)
CASES = [
    # English: "her" before a finding or a laterality is the possessive, even after a verb of seeing
    ("en", "F", "Her son noticed her R-sided droop at dinner.", "His son noticed his R-sided droop at dinner."),
    ("en", "F", "Her husband noticed her left-sided weakness.", "His wife noticed his left-sided weakness."),
    # English: "her" before a bare verb after "witnessed" is the object
    ("en", "F", "A bystander witnessed her collapse in the street.", "A bystander witnessed him collapse in the street."),
    # English: "her" before a manner adverb or a reporting verb is the object
    ("en", "F", "She says the aide moved her gently to the chair.", "He says the aide moved him gently to the chair."),
    ("en", "F", "The friend with her states she fainted.", "The friend with him states he fainted."),
    # English: a sex noun fronted before the patient's pronoun with an age as its modifier, or with more apposed
    # words and a semicolon before the pronoun
    ("en", "M", "A 60-ish man, he came in by taxi.", "A 60-ish woman, she came in by taxi."),
    ("en", "F", "A thirty-something woman, tearful, seen in the lobby; she is calm now.",
     "A thirty-something man, tearful, seen in the lobby; he is calm now."),
    # English: paired role nouns the lexicon did not hold
    ("en", "F", "She is the matriarch of the clan.", "He is the patriarch of the clan."),
    # French: role nouns of the patient fronted before the pronoun (irregular feminines, compounds, "ex-")
    ("fr", "F", "Autrice de polars, elle vit seule.", "Auteur de polars, il vit seul."),
    ("fr", "F", "Cheffe de cuisine, elle s'est brûlée à la main.", "Chef de cuisine, il s'est brûlé à la main."),
    ("fr", "F", "Brancardière depuis dix ans, elle a mal au dos.", "Brancardier depuis dix ans, il a mal au dos."),
    ("fr", "F", "Ancienne maître-nageuse, elle reste sportive.", "Ancien maître-nageur, il reste sportif."),
    ("fr", "F", "Ex-coiffeuse, elle est sans emploi.", "Ex-coiffeur, il est sans emploi."),
    ("fr", "F", "Elle est docteure en chimie, retraitée.", "Il est docteur en chimie, retraité."),
    # French: "sage-femme" is a job of either sex, kept
    ("fr", "F", "Elle est sage-femme ; entorse de cheville.", "Il est sage-femme ; entorse de cheville."),
    # Spanish: role nouns with an irregular feminine
    ("es", "F", "Es jefa de sección; se cayó en la oficina.", "Es jefe de sección; se cayó en la oficina."),
    ("es", "F", "Es alcaldesa de un pueblo; la trae su hijo.", "Es alcalde de un pueblo; lo trae su hijo."),
    ("es", "F", "Actriz de cine, se mareó en el rodaje.", "Actor de cine, se mareó en el rodaje."),
    ("es", "F", "Es jueza, divorciada, vive sola.", "Es juez, divorciado, vive solo."),
    ("es", "M", "Antiguo supervisor de obra, está jubilado.", "Antigua supervisora de obra, está jubilada."),
    # French and Spanish: a definite role or kinship predicate of the patient, its article with it
    ("fr", "F", "Elle est la directrice de la crèche ; chute.", "Il est le directeur de la crèche ; chute."),
    ("es", "F", "Es la encargada del almacén; se cortó.", "Es el encargado del almacén; se cortó."),
    ("es", "F", "Es la abuela de la niña del box 2; se mareó.", "Es el abuelo de la niña del box 2; se mareó."),
    # French and Spanish: a former partner
    ("fr", "M", "Son ex-femme l'accompagne ; il est calme.", "Son ex-mari l'accompagne ; elle est calme."),
    ("es", "M", "Su exmujer lo acompaña.", "Su exmarido la acompaña."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round6_class_swaps_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


# someone else's words stay (the classes' other side)
KEPT = [
    ("en", "F", "A woman found her on the floor; she was confused.", "A woman found him on the floor; he was confused."),
    ("en", "F", "Her son saw her fall.", "His son saw him fall."),
    ("fr", "F", "Le chef de service l'a vue ce matin.", "Le chef de service l'a vu ce matin."),
    ("es", "F", "La jefa de servicio la valoró.", "La jefa de servicio lo valoró."),
    # a role noun apposed to a step- or in-law relative is the relative's
    ("fr", "F", "Son beau-frère, infirmier, la trouve pâle.", "Son beau-frère, infirmier, le trouve pâle."),
    ("es", "F", "Su hermanastro, celador, la nota pálida.", "Su hermanastro, celador, lo nota pálido."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), KEPT, ids=[c[2][:45] for c in KEPT])
def test_round6_other_peoples_words_kept(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


def test_french_ex_prefix_inflects_its_noun() -> None:
    assert inflect_fr.to_feminine("ex-vendeur") == "ex-vendeuse"
    assert inflect_fr.to_masculine("ex-vendeuse") == "ex-vendeur"
    assert inflect_fr.to_masculine("ex-") is None
    assert inflect_fr.to_feminine("chef") == "cheffe" and inflect_fr.to_masculine("autrice") == "auteur"
