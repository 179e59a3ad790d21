"""The Spanish error classes round 10 of issue 22 found on the development sets (docs/counterfactuals.md, "Round
10", Spanish), one case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give
``b`` and the swap of ``b`` back must give ``a``. Sentences are written for this test (none is copied from a gold
or held-out set)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a sex noun right after a staff noun is the staff member's
    ("F", "Prefiere ser sondada por una enfermera y no por un enfermero varón; está nerviosa.",
     "Prefiere ser sondado por una enfermera y no por un enfermero varón; está nervioso."),
    ("M", "Lo acompaña una agente mujer; está tranquilo.", "La acompaña una agente mujer; está tranquila."),
    # a verb of wanting before "ser" keeps the patient's passive
    ("M", "Pide ser atendido por un médico varón.", "Pide ser atendida por un médico varón."),
    # "la mujer de su <relative>" is the relative's wife
    ("M", "La mujer de su primo lo trajo; está mareado.", "La mujer de su primo la trajo; está mareada."),
    # "solo/sola" after "estar", a reflexive infinitive, or a negated verb of walking
    ("F", "Prefiere estar sola y no puede ducharse sola.", "Prefiere estar solo y no puede ducharse solo."),
    ("M", "Desde la fractura ya no camina solo.", "Desde la fractura ya no camina sola."),
    # an object clitic before the writer's first-person verb of perceiving
    ("F", "La veo más pálida que ayer.", "Lo veo más pálido que ayer."),
    # the relative of "un/una paciente", and the predicate right after a verb of finding
    ("M", "Es un paciente al que su hijo encontró tirado en el baño.",
     "Es una paciente a la que su hijo encontró tirada en el baño."),
    # "ir" and "marcharse" are pseudo-copulas
    ("F", "Alta a domicilio; se va acompañada y tranquila.", "Alta a domicilio; se va acompañado y tranquilo."),
    # "trabajando como" opens a role noun; a relative's "trabaja de" is the relative's
    ("M", "Sigue trabajando como carpintero.", "Sigue trabajando como carpintera."),
    ("F", "Su cuñado trabaja de cocinero; ella está mareada.", "Su cuñado trabaja de cocinero; él está mareado."),
    # verbs in -ica and nouns in -z are not adjectives
    ("F", "La Sra. ___ indica que vomitó (arroz cocido) y está cansada.",
     "El Sr. ___ indica que vomitó (arroz cocido) y está cansado."),
    # a kinship noun opening the sentence before "de su <relative>" or "y ... de su" is the patient's
    ("F", "Tía de su sobrino, se cayó al bajar del bus.", "Tío de su sobrino, se cayó al bajar del bus."),
    ("M", "Hijo y único cuidador de su madre, refiere lumbalgia.", "Hija y único cuidador de su madre, refiere lumbalgia."),
    # an adverb of time before the patient's copula
    ("M", "Ayer estaba confuso; hoy está orientado.", "Ayer estaba confusa; hoy está orientada."),
    # the partner's relative pronoun changes with the partner
    ("F", "Avisamos a su marido, con el que vive.", "Avisamos a su mujer, con la que vive."),
    # "lleva días/semanas" and the state after it
    ("M", "Lleva tres días encamado y apático.", "Lleva tres días encamada y apática."),
    # "donde/cuando" before the patient's copula
    ("F", "Su yerno vive en la casa donde fue encontrada.", "Su yerno vive en la casa donde fue encontrado."),
    # "la otra víctima" and a noun apposed to it are someone else
    ("M", "La otra víctima, una niña pequeña, está bien; él está ileso.",
     "La otra víctima, una niña pequeña, está bien; ella está ilesa."),
    # a participle that also is a noun ("herida", "mordida") before its agent with "por" and a determiner
    ("F", "Conductora de 30 años, herida por el airbag; dolor torácico.",
     "Conductor de 30 años, herido por el airbag; dolor torácico."),
    ("M", "Mordido en el tobillo por su gato; está tranquilo.", "Mordida en el tobillo por su gato; está tranquila."),
    # an epicene role noun opening the clause keeps the patient's run going
    ("F", "Policía nacional lesionada en una persecución.", "Policía nacional lesionado en una persecución."),
    # a role noun after a comma ends a body part's list: what follows is the patient's
    ("M", "Rodilla derecha hinchada, usuario de muletas, dolorido.",
     "Rodilla derecha hinchada, usuaria de muletas, dolorida."),
    # the pronoun apposed to the partner, and the role noun after it, are the partner's
    ("F", "Su marido, él mismo enfermero, la trajo; está mareada.",
     "Su mujer, ella misma enfermera, lo trajo; está mareado."),
    # "mala/buena" before an epicene role noun opening the sentence
    ("M", "Buen informante; refiere dolor lumbar.", "Buena informante; refiere dolor lumbar."),
    # a sentence opened by "Su hijo/nieta ..." that names the relative's elder after "por su" / "a su": the elder is
    # the patient (with their relative pronoun and adjectives); the opening relative's own adjective is kept
    ("F", "Su hijo, asustado por su madre, a la que nota muy pálida, la trae.",
     "Su hijo, asustado por su padre, al que nota muy pálido, lo trae."),
    ("M", "Sus nietos encuentran a su abuelo desorientado y sucio.", "Sus nietos encuentran a su abuela desorientada y sucia."),
    # the person after a carer's or relative's noun and "de un/una" is someone else
    ("M", "Es sobrino y cuidador de un hombre ciego; está cansado.", "Es sobrina y cuidadora de un hombre ciego; está cansada."),
    # "solo/sola" after "yo" and first-person verbs of quoted speech
    ("F", "Cuenta: «vivo sola y me caí yo sola».", "Cuenta: «vivo solo y me caí yo solo»."),
    # the partner's relative clauses ("que ... y que es ...") and the copula after them are the partner's
    ("F", "Su marido, que es celador, está preocupado; ella está mareada.",
     "Su mujer, que es celadora, está preocupada; él está mareado."),
    ("M", "Según su esposa, que lo cuida y que es maestra, está más lento.",
     "Según su esposo, que la cuida y que es maestro, está más lenta."),
    ("F", "Su hija, que es enfermera, está tranquila; ella está mareada.",
     "Su hija, que es enfermera, está tranquila; él está mareado."),
    # "demasiado" before an adjective is a degree adverb
    ("F", "Su nieto, asustado por su abuela, a la que ve demasiado pálida, llama.",
     "Su nieto, asustado por su abuelo, al que ve demasiado pálido, llama."),
    # "solo/sola" after a reflexive verb of self-care; after a transitive one it is the helper's
    ("F", "Tras el mareo se levantó sola del suelo.", "Tras el mareo se levantó solo del suelo."),
    ("M", "Su nuera lo encontró y lo levantó sola.", "Su nuera la encontró y la levantó sola."),
    # "herida por" after a comma is the participle even without a determiner
    ("M", "Vigilante de 40 años, herido por arma blanca, consciente.", "Vigilante de 40 años, herida por arma blanca, consciente."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round10_spanish_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "es")


def test_solo_before_an_amount_stays_only() -> None:
    # without a negation, "camina solo 10 metros" is "only"
    text = "Camina solo 10 metros con andador; está cansado."
    assert swap_sex(text, "F", "es").text == "Camina solo 10 metros con andador; está cansada."
