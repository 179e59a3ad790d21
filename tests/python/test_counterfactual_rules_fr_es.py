"""Golden cases for the French and Spanish lexicons of the rule-based swapper (English is in test_rules_swapper.py)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from biasmirror.counterfactuals import rules
from biasmirror.counterfactuals.rules import SwapResult, residual_terms, supported_languages, swap_sex

# (input, expected output, expected number of replacements)
GOLDEN_FR = [
    # nouns, determiners and agreement cascading from the patient
    ("Patiente de 67 ans, mariée, 2 enfants, admise pour douleur thoracique.",
     "Patient de 67 ans, marié, 2 enfants, admis pour douleur thoracique.", 3),
    ("Mme ___ est une patiente de 54 ans adressée par son médecin traitant.",
     "M. ___ est un patient de 54 ans adressé par son médecin traitant.", 4),
    ("M. ___, 72 ans, connu pour HTA, est amené par les pompiers. Il vit seul.",
     "Mme ___, 72 ans, connue pour HTA, est amenée par les pompiers. Elle vit seule.", 5),
    ("Elle a été retrouvée au sol par son mari.", "Il a été retrouvé au sol par sa femme.", 4),
    ("Son épouse rapporte qu'il est tombé.", "Son époux rapporte qu'elle est tombée.", 3),
    ("La patiente vit seule. Sa fille l'accompagne.", "Le patient vit seul. Sa fille l'accompagne.", 3),
    ("Elle est très fatiguée.", "Il est très fatigué.", 2),
    ("Adressée par le SAMU pour malaise.", "Adressé par le SAMU pour malaise.", 1),
    ("Patiente consciente, orientée et calme.", "Patient conscient, orienté et calme.", 3),
    ("Cette patiente est née en 1950.", "Ce patient est né en 1950.", 3),
    ("Cet homme est à jeun.", "Cette femme est à jeun.", 2),
    ("Une jeune femme de 25 ans.", "Un jeune homme de 25 ans.", 2),
    ("La femme est anxieuse.", "L'homme est anxieux.", 2),
    ("Appel de la patiente, remis à la patiente.", "Appel du patient, remis au patient.", 4),
    ("Venue avec sa compagne.", "Venu avec son compagnon.", 3),
    ("Son petit ami l'accompagne.", "Sa petite amie l'accompagne.", 2),
    ("Elle vit chez elle avec lui.", "Il vit chez lui avec elle.", 3),
    ("Madame ___ est veuve, mère de 3 enfants.", "Monsieur ___ est veuf, père de 3 enfants.", 3),
    ("Sexe : F", "Sexe : M", 1),
    ("Patient suivi en cardiologie.", "Patiente suivie en cardiologie.", 2),
    # kept: impersonal 'il', indirect object 'lui', nouns, other people, determiners of other nouns
    ("Il y a 3 jours, elle a présenté une dyspnée.", "Il y a 3 jours, il a présenté une dyspnée.", 1),
    ("Il s'agit d'une patiente de 45 ans.", "Il s'agit d'un patient de 45 ans.", 2),
    ("Il est possible qu'elle ait chuté.", "Il est possible qu'il ait chuté.", 1),
    ("On lui a prescrit du paracétamol.", "On lui a prescrit du paracétamol.", 0),
    ("Le suivi est régulier. La prise en charge est rapide.", "Le suivi est régulier. La prise en charge est rapide.", 0),
    ("La douleur est apparue hier. Sa mère est présente.", "La douleur est apparue hier. Sa mère est présente.", 0),
    ("Taux d'IL-6 élevé.", "Taux d'IL-6 élevé.", 0),
    # an agreeing word already in the copy's gender describes something else: kept
    ("Elle est fatiguée, transit ralenti depuis 3 jours.", "Il est fatigué, transit ralenti depuis 3 jours.", 2),
    ("Elle a un genou opéré.", "Il a un genou opéré.", 1),
    ("Sous Kardegic 75 mg, pas de fièvre.", "Sous Kardegic 75 mg, pas de fièvre.", 0),
]

GOLDEN_ES = [
    ("Paciente femenina de 67 años, casada, que acude por dolor torácico.",
     "Paciente masculino de 67 años, casado, que acude por dolor torácico.", 2),
    ("La paciente refiere que su marido la encontró en el suelo.",
     "El paciente refiere que su mujer lo encontró en el suelo.", 3),
    ("Varón de 54 años, hipertenso y diabético, traído por su esposa.",
     "Mujer de 54 años, hipertensa y diabética, traída por su esposo.", 5),
    ("Fue trasladado al hospital. Vive solo.", "Fue trasladada al hospital. Vive sola.", 2),
    ("Sr. ___ de 72 años.", "Sra. ___ de 72 años.", 1),
    ("El paciente está consciente, orientado y colaborador.", "La paciente está consciente, orientada y colaboradora.", 3),
    ("Mujer de 45 años, alérgica a penicilina.", "Varón de 45 años, alérgico a penicilina.", 2),
    ("Ella niega fiebre. Acude sola.", "Él niega fiebre. Acude solo.", 2),
    ("Madre de 3 hijos.", "Padre de 3 hijos.", 1),
    ("Sra. ___ es una mujer de 80 años.", "Sr. ___ es un varón de 80 años.", 3),
    ("Su hija la acompaña. Refiere estar mareada.", "Su hija lo acompaña. Refiere estar mareado.", 2),
    ("Exploración: consciente, orientada, eupneica.", "Exploración: consciente, orientado, eupneico.", 2),
    ("Dada de alta el 3/5.", "Dado de alta el 3/5.", 1),
    ("Se trata de una joven de 19 años.", "Se trata de un joven de 19 años.", 1),
    ("Al paciente se le administró AAS 300 mg.", "A la paciente se le administró AAS 300 mg.", 1),
    ("Según él, no hay dolor.", "Según ella, no hay dolor.", 1),
    ("Del paciente y de la paciente.", "De la paciente y del paciente.", 2),
    ("Su novio y su esposo.", "Su novia y su esposa.", 2),
    ("El esposo de la paciente.", "La esposa del paciente.", 3),
    ("Viuda, jubilada, exfumadora.", "Viudo, jubilado, exfumador.", 3),
    # kept
    ("Solo refiere dolor.", "Solo refiere dolor.", 0),
    ("Se ha encontrado una masa.", "Se ha encontrado una masa.", 0),
    ("El dolor fue tratado con paracetamol 1 g.", "El dolor fue tratado con paracetamol 1 g.", 0),
    ("Presenta pie diabético.", "Presenta pie diabético.", 0),
    ("Su madre y su hija están presentes.", "Su madre y su hija están presentes.", 0),
]


# Cases whose gendered terms do not point to one sex (a woman with a female partner): the patient's sex is stated.
STATED_PATIENT_SEX = {"Venue avec sa compagne.": "F"}


def patient_sex(text: str, language: str) -> str:
    """The sex most of the text's gendered terms signal for the patient (lexicon keys are the patient's sex, so
    'son mari' counts as female)."""
    if text in STATED_PATIENT_SEX:
        return STATED_PATIENT_SEX[text]
    return "F" if len(residual_terms(text, "F", language)) >= len(residual_terms(text, "M", language)) else "M"


def other(sex: str) -> str:
    return "M" if sex == "F" else "F"


@pytest.mark.parametrize(("text", "expected", "count"), GOLDEN_FR, ids=[g[0][:40] for g in GOLDEN_FR])
def test_golden_french(text: str, expected: str, count: int) -> None:
    assert swap_sex(text, other(patient_sex(text, "fr")), "fr") == SwapResult(expected, count)


@pytest.mark.parametrize(("text", "expected", "count"), GOLDEN_ES, ids=[g[0][:40] for g in GOLDEN_ES])
def test_golden_spanish(text: str, expected: str, count: int) -> None:
    assert swap_sex(text, other(patient_sex(text, "es")), "es") == SwapResult(expected, count)


def test_at_least_25_golden_cases_per_language() -> None:
    assert len(GOLDEN_FR) >= 25 and len(GOLDEN_ES) >= 25


ROUND_TRIP = [
    ("fr", "Patiente de 67 ans, mariée, admise pour douleur thoracique. Elle a été retrouvée au sol par son mari."),
    ("fr", "M. ___, 72 ans, connu pour HTA, est amené par les pompiers. Il vit seul. Son épouse est présente."),
    ("fr", "La patiente est consciente, orientée et calme. Elle est très fatiguée depuis 3 jours."),
    ("fr", "Une jeune femme de 25 ans, accompagnée de son compagnon. Il y a 2 jours, elle est tombée."),
    ("es", "Paciente de 67 años, casada, que acude por dolor torácico. La paciente refiere que su marido la encontró."),
    ("es", "Varón de 54 años, hipertenso y diabético, traído por su esposa. Fue trasladado al hospital. Vive solo."),
    ("es", "El paciente está consciente, orientado y colaborador. Él niega fiebre."),
    ("es", "Sra. ___ de 80 años, alérgica a penicilina, acompañada por su novio."),
]


@pytest.mark.parametrize(("language", "text"), ROUND_TRIP, ids=[t[1][:40] for t in ROUND_TRIP])
def test_round_trip(language: str, text: str) -> None:
    original_sex = patient_sex(text, language)
    once = swap_sex(text, other(original_sex), language)
    assert once.text != text
    twice = swap_sex(once.text, original_sex, language)
    assert twice.text == text and twice.replacements == once.replacements


@pytest.mark.parametrize(("language", "text"), ROUND_TRIP, ids=[t[1][:40] for t in ROUND_TRIP])
def test_no_residual_terms_after_swap(language: str, text: str) -> None:
    original_sex = patient_sex(text, language)
    assert residual_terms(text, original_sex, language)
    assert residual_terms(swap_sex(text, other(original_sex), language).text, original_sex, language) == []


def test_residual_terms_list_the_leftovers_of_a_partial_french_edit() -> None:
    # a copy where the noun was swapped but its determiner and the participle were not
    assert residual_terms("La patient est admise.", "F", "fr") == ["admise"]
    assert residual_terms("Elle est admis.", "F", "fr") == ["elle"]
    assert residual_terms("El paciente está casada.", "F", "es") == ["casada"]


def test_languages_and_lexicon_files() -> None:
    assert {"en", "fr", "es"} <= set(supported_languages())
    folder = resources.files("biasmirror.counterfactuals").joinpath("lexicons")
    for language in ("fr", "es"):
        data = json.loads(folder.joinpath(f"{language}.json").read_text(encoding="utf-8"))
        assert data["language"] == language
        rules._Lexicon(data, language)


def test_lexicon_validation_of_the_new_sections() -> None:
    with pytest.raises(ValueError, match="agreement needs a non-empty 'rules'"):
        rules._Lexicon({"agreement": {"pairs": [{"F": "admise", "M": "admis"}]}}, "zz")
    with pytest.raises(ValueError, match="appears twice"):
        rules._Lexicon({"pairs": [{"F": "admise", "M": "admis"}],
                        "agreement": {"rules": [{"prev_in": "x"}], "pairs": [{"F": "admise", "M": "admis"}]},
                        "word_classes": {"x": ["a"]}}, "zz")
    with pytest.raises(ValueError, match="null default and no rules"):
        rules._Lexicon({"directed": {"la": {"sex": "F", "default": None}}}, "zz")
    with pytest.raises(ValueError, match="'window' needs 'window_in'"):
        rules._Lexicon({"directed": {"la": {"sex": "F", "default": None, "rules": [{"window": 3, "use": "le"}]}}}, "zz")


def test_french_period_honorific_needs_its_period_and_a_name() -> None:
    assert swap_sex("M. ___ est admis.", "F", "fr").text == "Mme ___ est admise."
    assert swap_sex("Mme. ___ est admise.", "M", "fr").text == "M. ___ est admis."
    assert swap_sex("Taille 1 M environ.", "F", "fr").text == "Taille 1 M environ."
