"""The Spanish error classes round 16 of issue 22 fixed, found first on round 15's development set
(docs/counterfactuals.md, "Round 16", Spanish), a few cases per class, each swapped both ways: the swap of ``a``
to the other sex must give ``b`` and the swap of ``b`` back must give ``a``. Sentences are written for this test
(none is copied from a gold or held-out set)."""

from __future__ import annotations

import pytest

from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a list of findings goes on agreeing with its body part, lesion or symptom across commas and "y"; the
    # patient's own state after a copula still changes
    ("F", "Trae la rodilla derecha inflamada, caliente y enrojecida; está muy dolorida.",
     "Trae la rodilla derecha inflamada, caliente y enrojecida; está muy dolorido."),
    ("M", "Acude por una mancha en el hombro, irregular y pigmentada, que ha crecido.",
     "Acude por una mancha en el hombro, irregular y pigmentada, que ha crecido."),
    ("M", "Varón de 45 años con un bulto en la ingle, duro, doloroso y fijo; está nervioso.",
     "Mujer de 45 años con un bulto en la ingle, duro, doloroso y fijo; está nerviosa."),
    ("F", "Mujer de 70 años, úlcera en el talón, sucia y excoriada, pálida y febril.",
     "Varón de 70 años, úlcera en el talón, sucia y excoriada, pálido y febril."),
    # an object clitic right after the patient's own subject pronoun is a thing (a subject is its own object only
    # through "se"): the leg, the mole
    ("F", "Tiene la mano izquierda hinchada; ella la nota rígida desde ayer.",
     "Tiene la mano izquierda hinchada; él la nota rígida desde ayer."),
    ("M", "Le sangra un lunar de la espalda; él no se lo había notado.",
     "Le sangra un lunar de la espalda; ella no se lo había notado."),
    # a time phrase with "todo/toda" inside the patient's run, before its predicate
    ("F", "Ha estado toda la tarde adormilada y sin comer.", "Ha estado toda la tarde adormilado y sin comer."),
    ("M", "Está todo el día cansado, según su hija.", "Está todo el día cansada, según su hija."),
    # the adjectives after a role noun coordinated with the patient's agree with that noun
    ("M", "Exfumador desde hace años y bebedor ocasional.", "Exfumadora desde hace años y bebedora ocasional."),
    # a participle after an object clitic and a compound tense, "caída" included
    ("F", "Su nieto la ha encontrado caída junto a la cama.", "Su nieto lo ha encontrado caído junto a la cama."),
    # the patient and a woman who keeps her sex spoken of together: feminine only when the patient is a woman
    ("M", "Viene con su hermana; ambos fueron picados por avispas en el campo.",
     "Viene con su hermana; ambas fueron picadas por avispas en el campo."),
    ("F", "La trae su amiga; las dos están muy asustadas tras el accidente.",
     "Lo trae su amiga; los dos están muy asustados tras el accidente."),
    # the writer's own adjectives (apposed to "yo") keep their form
    ("F", "La encontré desorientada en el pasillo y yo, nerviosa, avisé a la supervisora.",
     "Lo encontré desorientado en el pasillo y yo, nerviosa, avisé a la supervisora."),
    # a telegraphic note opened by "Persona"/"Víctima" keeps the noun's feminine agreement after a comma
    ("M", "Persona mayor desconocida en el barrio, encontrada por un vecino en el portal; él no recuerda su nombre.",
     "Persona mayor desconocida en el barrio, encontrada por un vecino en el portal; ella no recuerda su nombre."),
    # an enclitic of the gender of another patient named in a complement is that patient's
    ("M", "Cuñado de la paciente de la cama 3, se ha mareado al verla sangrar.",
     "Cuñada de la paciente de la cama 3, se ha mareado al verla sangrar."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round16_spanish_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "es")
