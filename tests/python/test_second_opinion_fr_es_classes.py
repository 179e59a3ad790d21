"""The French and Spanish readings of the second opinion (referents_fr.py, referents_es.py), class by class
(issue 22, round 12): a correct copy passes and a wrong copy is flagged, in both directions. Sentences written
for these tests."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.second_opinion import judge
from reading_cases import READING, assert_reading_judges_both_ways


# (language, text of a woman, the same text of a man, a wrong copy of the woman's text, a wrong copy of the man's)
CASES = [
    # French: an inverted pronoun ("Est-elle", "A-t-il")
    ("fr", "Est-elle allergique ? Elle ne sait pas.", "Est-il allergique ? Il ne sait pas.",
     "Est-elle allergique ? Il ne sait pas.", "Est-il allergique ? Elle ne sait pas."),
    # French: a participle opening a note's fragment agrees with the patient
    ("fr", "Passagère arrière, ceinturée, consciente.", "Passager arrière, ceinturé, conscient.",
     "Passager arrière, ceinturée, conscient.", "Passagère arrière, ceinturé, consciente."),
    # French: a plural noun ("50 ans") does not control a singular participle
    ("fr", "Patiente de 50 ans, toux depuis trois jours, amaigrie de 5 kg.",
     "Patient de 50 ans, toux depuis trois jours, amaigri de 5 kg.",
     "Patient de 50 ans, toux depuis trois jours, amaigrie de 5 kg.",
     "Patiente de 50 ans, toux depuis trois jours, amaigri de 5 kg."),
    # French: "une femme" apposed to "La victime" is the patient; apposed to the partner, the partner
    ("fr", "La victime, une femme de 30 ans, est consciente.", "La victime, un homme de 30 ans, est conscient.",
     "La victime, une femme de 30 ans, est conscient.", "La victime, un homme de 30 ans, est consciente."),
    ("fr", "Elle vit avec sa compagne, une femme de 50 ans.", "Il vit avec son compagnon, un homme de 50 ans.",
     "Elle vit avec sa compagne, un homme de 50 ans.", "Il vit avec son compagnon, une femme de 50 ans."),
    # French: "lui-même" after someone else's noun is that person's
    ("fr", "Son frère, lui-même pompier, l'a trouvée au sol.", "Son frère, lui-même pompier, l'a trouvé au sol.",
     "Son frère, elle-même pompier, l'a trouvé au sol.", "Son frère, elle-même pompier, l'a trouvée au sol."),
    # Spanish: an object clitic after another person's noun
    ("es", "Su vecino la acompaña.", "Su vecino lo acompaña.", "Su vecino la acompaña.", "Su vecino lo acompaña."),
    # Spanish: "ella misma" and the noun phrase it apposes
    ("es", "Una enfermera del turno, ella misma paciente hoy, se cortó.",
     "Un enfermero del turno, él mismo paciente hoy, se cortó.",
     "Una enfermera del turno, él mismo paciente hoy, se cortó.",
     "Un enfermero del turno, ella misma paciente hoy, se cortó."),
    # Spanish: "no lo sabe" is neuter; "y la llevaron" is the patient's clitic
    ("es", "No lo sabe; su vecino y la llevaron al box.", "No lo sabe; su vecino y lo llevaron al box.",
     "No la sabe; su vecino y la llevaron al box.", "No la sabe; su vecino y lo llevaron al box."),
    # Spanish: another patient ("la paciente del box 4") and an adjective with one form for both sexes
    ("es", "Hermana de la paciente del box 4, ella es dependiente.",
     "Hermano de la paciente del box 4, él es dependiente.",
     "Hermana de la paciente del box 4, él es dependiente.", "Hermana de la paciente del box 4, ella es dependienta."),
    # Spanish: the titles "Dña." and "D."
    ("es", "Dña. ___ está mareada.", "D. ___ está mareado.", "Dña. ___ está mareado.", "D. ___ está mareada."),
]


@pytest.mark.parametrize("language, female, male, wrong_of_female, wrong_of_male", CASES)
def test_correct_copies_pass_and_wrong_copies_are_flagged_both_ways(language: str, female: str, male: str,
                                                                     wrong_of_female: str, wrong_of_male: str) -> None:
    assert_reading_judges_both_ways(language, female, male, wrong_of_female, wrong_of_male)


def test_a_change_of_function_words_alone_is_judged() -> None:
    # "del" -> "de la" before another patient's noun: someone else's, so a content change
    original = "Es el tutor legal del paciente de la cama 3."
    assert judge(original, "Es la tutora legal de la paciente de la cama 3.", "M", "es", READING)
    # after the patient's own word, French keeps "le" of the next noun: only an elision may change
    assert judge("Il a fait lui-même le pansement.", "Elle a fait elle-même la pansement.", "M", "fr", READING)
    assert judge("Il a fait lui-même le pansement.", "Elle a fait elle-même le pansement.", "M", "fr", READING) == []
