"""The Spanish error classes round 17 of issue 22 fixed, found first on round 16's development set, then round
15's (docs/counterfactuals.md, "Round 17", Spanish), a few cases per class, each swapped both ways: the swap of
``a`` to the other sex must give ``b`` and the swap of ``b`` back must give ``a``. Sentences are written for this
test (none is copied from a gold or held-out set)."""

from __future__ import annotations

import pytest

from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # an adverbial phrase of several words, or an adverb in -mente, opens or continues the patient's run
    ("F", "Hipertensa; por lo demás sana y activa.", "Hipertenso; por lo demás sano y activo."),
    ("M", "En general tranquilo, aunque algo desorientado.", "En general tranquila, aunque algo desorientada."),
    ("F", "Su nieto explica que últimamente está más olvidadiza y triste.",
     "Su nieto explica que últimamente está más olvidadizo y triste."),
    # verbs of coming out of an event, and "se deja", take the patient's predicate
    ("M", "Iba de copiloto y salió despedido por la ventanilla.", "Iba de copiloto y salió despedida por la ventanilla."),
    ("F", "Tras el choque resultó ilesa, pero muy nerviosa.", "Tras el choque resultó ileso, pero muy nervioso."),
    ("F", "Se deja ingresada en observación a la espera de la analítica.",
     "Se deja ingresado en observación a la espera de la analítica."),
    # nouns that look like participles keep their form: the service or test after a telegraphic participle, "cosa"
    ("F", "Pedida analítica urgente y avisada hemodinámica; está pálida.",
     "Pedida analítica urgente y avisada hemodinámica; está pálido."),
    ("M", "No quiere comer, cosa rara en él según su mujer.", "No quiere comer, cosa rara en ella según su marido."),
    # a copula after "la madre de la paciente" is the head's, not the complement's
    ("F", "El hermano de la paciente está muy nervioso y no deja de llamar.",
     "El hermano del paciente está muy nervioso y no deja de llamar."),
    ("M", "La cuñada del Sr. ___ está tranquila; él no.", "La cuñada de la Sra. ___ está tranquila; ella no."),
    # an object clitic between the person who is the subject and a present verb, and one repeating it, is the
    # patient's
    ("F", "El celador de noche la sube a la planta en silla.", "El celador de noche lo sube a la planta en silla."),
    ("M", "Su vecina, que lo vio caer, lo acompaña en la sala.", "Su vecina, que la vio caer, la acompaña en la sala."),
    # after "La víctima es un hombre ..." the words agree with the predicate noun
    ("M", "La víctima es un chico de 19 años que está mareado.", "La víctima es una chica de 19 años que está mareada."),
    # titles and offices with an irregular feminine; a role opening the note with an apposed "paciente"
    ("M", "El concejal de deportes, de 61 años, es traído por su chófer.",
     "La concejala de deportes, de 61 años, es traída por su chófer."),
    ("F", "La directora del instituto, paciente habitual de la consulta, acude mareada.",
     "El director del instituto, paciente habitual de la consulta, acude mareado."),
    # the predicate of a role that opens the note with a complement of place ("del bar") is the patient's
    ("F", "La camarera del bar llega mareada y sudorosa.", "El camarero del bar llega mareado y sudoroso."),
    ("M", "El taxista de la parada está inquieto.", "La taxista de la parada está inquieta."),
    # a neighbour or friend coordinated with the patient's role, and list members the suffix rules missed
    ("F", "Panadera y amiga de la familia, acude sola.", "Panadero y amigo de la familia, acude solo."),
    ("M", "Antecedentes: celíaco, hipertiroideo y fumador.", "Antecedentes: celíaca, hipertiroidea y fumadora."),
    # a child noun after the relative who opens the clause is the patient
    ("F", "La abuela de la niña cuenta que se quemó con la plancha y está asustada.",
     "La abuela del niño cuenta que se quemó con la plancha y está asustado."),
    # an enclitic of a limb named before, after a verb of examining it, is the limb's
    ("M", "Tobillo izquierdo muy hinchado; se queja al explorarlo.", "Tobillo izquierdo muy hinchado; se queja al explorarlo."),
    # a definite role apposed to the noun phrase that opens the note, and a participle used as a noun with a person
    # apposed to it, name the patient
    ("F", "Una chica de 16 años, la única pasajera del coche, llega consciente.",
     "Un chico de 16 años, el único pasajero del coche, llega consciente."),
    ("M", "Varón de 60 años, el portero del edificio, encontrado en el suelo.",
     "Mujer de 60 años, la portera del edificio, encontrada en el suelo."),
    ("M", "El intoxicado, un joven de 19 años, llega somnoliento.", "La intoxicada, una joven de 19 años, llega somnolienta."),
    # a subject opened by a person's noun whose predicate is the patient's noun is the patient
    ("F", "La socorrista herida en la playa es una mujer de 30 años.",
     "El socorrista herido en la playa es un varón de 30 años."),
    # a child after "de un" and a relative's or role's noun is someone else; the kinship and role are the patient's
    ("F", "Madre y cuidadora principal de una chica de 15 años, acude sola.",
     "Padre y cuidador principal de una chica de 15 años, acude solo."),
    # a participle of placing or changing a device, after a comma, agrees with the device named before it; a
    # procedure tolerated is a thing
    ("F", "Portadora de reservorio, colocado hace un año; está tranquila.",
     "Portador de reservorio, colocado hace un año; está tranquilo."),
    ("M", "Lleva sonda nasogástrica, recambiada ayer, y está incómodo.",
     "Lleva sonda nasogástrica, recambiada ayer, y está incómoda."),
    ("F", "Se le hizo la paracentesis y la toleró sin incidencias; está cansada.",
     "Se le hizo la paracentesis y la toleró sin incidencias; está cansado."),
    # a finding of a limb named by its abbreviation, and a symptom relieved, keep their noun's gender
    ("F", "Anciana de 90 años, impotencia funcional de MID, acortado y rotado.",
     "Anciano de 90 años, impotencia funcional de MID, acortado y rotado."),
    ("M", "Dolor lumbar intenso, aliviado con paracetamol; se va tranquilo.",
     "Dolor lumbar intenso, aliviado con paracetamol; se va tranquila."),
    # "él"/"ella" after a preposition, in a clause whose subject is the patient, is the relative named before
    ("F", "Su hija ha bajado a la cafetería; la paciente pregunta por ella.",
     "Su hija ha bajado a la cafetería; el paciente pregunta por ella."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round17_spanish_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "es")
