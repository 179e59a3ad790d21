"""The Spanish error classes round 9 of issue 22 found on the development sets (docs/counterfactuals.md, "Round 9",
Spanish), one case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give ``b``
and the swap of ``b`` back must give ``a``. Sentences are written for this test (none is copied from a gold or
held-out set)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # the titles D. and Dña., their period with them
    ("F", "Dña. ___ refiere mareo; está pálida.", "D. ___ refiere mareo; está pálido."),
    ("M", "Acude D. ___, tranquilo, por tos.", "Acude Dña. ___, tranquila, por tos."),
    # a question or an exclamation opens a clause without a subject: the patient's
    ("F", "¿Está operada de la cadera? Su nieto no lo recuerda.", "¿Está operado de la cadera? Su nieto no lo recuerda."),
    ("M", "Tose mucho; ahora está agotado.", "Tose mucho; ahora está agotada."),
    # adjectives of a state that no ending tells
    ("M", "Llega ebrio, sucio y desnudo de cintura para arriba.", "Llega ebria, sucia y desnuda de cintura para arriba."),
    ("F", "Está violenta, hambrienta y exhausta; la herida está limpia.",
     "Está violento, hambriento y exhausto; la herida está limpia."),
    # "medio" before an adjective is a degree adverb
    ("F", "Vive sola, medio sorda y despistada.", "Vive solo, medio sordo y despistado."),
    # role nouns in -ista are epicene after "antiguo"/"antigua"
    ("M", "Prejubilado, antiguo maquinista de Renfe.", "Prejubilada, antigua maquinista de Renfe."),
    # hyphenated and 'ex' role nouns, and a role noun coordinated across its complement
    ("F", "Pintora-escultora, refiere mareo.", "Pintor-escultor, refiere mareo."),
    ("M", "Escritor de novelas y exprofesor, está confuso.", "Escritora de novelas y exprofesora, está confusa."),
    # object clitics before a past verb no list holds, and joined to an infinitive
    ("F", "La exploré a las 4 h y la acosté; sigue inquieta.", "Lo exploré a las 4 h y lo acosté; sigue inquieto."),
    ("M", "Sus vecinos, que lo socorrieron, fueron a avisarlo.", "Sus vecinos, que la socorrieron, fueron a avisarla."),
    # an imperfect after "no"/"ya" ("no la veían"); elsewhere the clitic of an imperfect may be someone else's
    ("F", "Sus vecinos no la veían desde el domingo.", "Sus vecinos no lo veían desde el domingo."),
    # the neuter "lo" of saying and knowing, and a limb's clitic, are kept
    ("F", "Ella no lo recuerda; lo contó su hijo.", "Él no lo recuerda; lo contó su hijo."),
    ("F", "Muñeca deformada; ella no puede moverla.", "Muñeca deformada; él no puede moverla."),
    # the patient's own words in quotes, in the first person
    ("F", "Cuenta: «me noté mareada y estaba sudada», y luego se durmió.", "Cuenta: «me noté mareado y estaba sudado», y luego se durmió."),
    ("M", 'Dice que "soy muy nervioso" y pide un calmante.', 'Dice que "soy muy nerviosa" y pide un calmante.'),
    # a participle after "haber" does not agree; one after "haber sido" does
    ("M", "Refiere haberse clavado un anzuelo; está asustado.", "Refiere haberse clavado un anzuelo; está asustada."),
    ("F", "Su hija, que dice haber sido avisada tarde, llora.", "Su hija, que dice haber sido avisada tarde, llora."),
    ("M", "El paciente, que dice haber sido empujado, llora.", "La paciente, que dice haber sido empujada, llora."),
    # "mejor", "cada vez" and "solo" after an infinitive of self-care
    ("F", "Dice estar mejor y contenta; la ven cada vez más animada.", "Dice estar mejor y contento; lo ven cada vez más animado."),
    ("M", "¿Puede vestirse solo? Su nuera cree que no.", "¿Puede vestirse sola? Su nuera cree que no."),
    # participles in -ído and adjectives in -ario
    ("F", "Su hermano la nota distraída y apagada.", "Su hermano lo nota distraído y apagado."),
    ("M", "Viudo, arrendatario de un piso, está tranquilo.", "Viuda, arrendataria de un piso, está tranquila."),
    # kinship and role nouns coordinated with the patient's: definite predicates, apposed with a count
    ("F", "Es la nieta y la cuidadora de su abuelo.", "Es el nieto y el cuidador de su abuelo."),
    ("F", "Viuda, madre de tres hijos y abuela desde mayo.", "Viudo, padre de tres hijos y abuelo desde mayo."),
    ("M", "Padre de dos niñas y conductor de autobús, se mareó.", "Madre de dos niñas y conductora de autobús, se mareó."),
    ("F", "Hermana y tía de asmáticos, tose desde ayer.", "Hermano y tío de asmáticos, tose desde ayer."),
    ("M", "Padre viudo de tres niños, está agotado.", "Madre viuda de tres niños, está agotada."),
    ("F", "Panadera de oficio y abuela de gemelos, se desmayó.", "Panadero de oficio y abuelo de gemelos, se desmayó."),
    # "trabaja de" before a role noun, as "trabaja como"
    ("F", "Trabaja de cocinera en un hotel.", "Trabaja de cocinero en un hotel."),
    # "técnica" and "médica" as role nouns; "sangrado" is the bleeding, and its adjective is its own
    ("F", "Técnica de laboratorio; sangrado contenido, está pálida.", "Técnico de laboratorio; sangrado contenido, está pálido."),
    ("M", "Médico rural jubilado, vive solo.", "Médica rural jubilada, vive sola."),
    # "nunca", a verb of denying before "estar", the future and "verse" keep or open the patient's predicate
    ("F", "Nunca ha estado operada; niega estar anticoagulada.", "Nunca ha estado operado; niega estar anticoagulado."),
    ("M", "Será revisado mañana; se ha visto obligado a dejar el trabajo.",
     "Será revisada mañana; se ha visto obligada a dejar el trabajo."),
    # a clause opened by a prepositional complement has no subject: the patient's
    ("F", "Tos seca; al ingreso estaba desorientada.", "Tos seca; al ingreso estaba desorientado."),
    ("M", "Tras la nebulización se encuentra más aliviado.", "Tras la nebulización se encuentra más aliviada."),
    ("F", "Tras la caída su nieta está nerviosa.", "Tras la caída su nieta está nerviosa."),
    # "la víctima" / "una persona": its apposed sex noun is the patient's, its adjectives stay feminine
    ("F", "La víctima, una mujer joven, fue rescatada del agua.", "La víctima, un varón joven, fue rescatada del agua."),
    ("M", "Es una persona mayor, muy desorientada; vive solo.", "Es una persona mayor, muy desorientada; vive sola."),
    # the relative pronoun of "el/la paciente", and its clause's predicate after a degree adverb
    ("M", "El paciente, al que su vecino vio muy pálido, ha mejorado.",
     "La paciente, a la que su vecino vio muy pálida, ha mejorado."),
    ("F", "La paciente de la que te hablé sigue en el box 4.", "El paciente del que te hablé sigue en el box 4."),
    # a person noun in a complement is someone else: what follows it agrees with them
    ("F", "Es la tía del niño operado ayer; está nerviosa.", "Es el tío del niño operado ayer; está nervioso."),
    # a superlative predicate takes its article with it
    ("M", "De los tres heridos, él es el más grave: está intubado.", "De los tres heridos, ella es la más grave: está intubada."),
    ("F", "Es la más afectada de la familia.", "Es el más afectado de la familia."),
    # a clitic before a present plural ("que la vigilan"); a nickname in quotes takes its article with it
    ("F", "Dice que la vigilan por la ventana; está asustada.", "Dice que lo vigilan por la ventana; está asustado."),
    ("F", "Conocida como «la Tía» en el barrio, vive sola.", "Conocido como «el Tío» en el barrio, vive solo."),
    # "vestido con" is the participle, not the dress
    ("M", "Llega descalzo, vestido con un pijama.", "Llega descalza, vestida con un pijama."),
    # a participle coordinated across a complement with the patient's adjective, not only a participle
    ("M", "Llega agresivo con su hermano y sujetado por dos celadores.",
     "Llega agresiva con su hermano y sujetada por dos celadores."),
    # a relative of another patient opening the sentence is the patient; the other patient is kept
    ("M", "Nieto de la paciente del box 5, se sintió mareado en la sala.",
     "Nieta de la paciente del box 5, se sintió mareada en la sala."),
    ("F", "Cuñada del paciente de la cama 2, sufre una crisis de ansiedad.",
     "Cuñado del paciente de la cama 2, sufre una crisis de ansiedad."),
    # "solo"/"sola" between commas or before the end of a clause is "alone"
    ("F", "Acude en taxi, sola, con dolor lumbar.", "Acude en taxi, solo, con dolor lumbar."),
    # "una señora" / "un señor" after an indefinite article is someone else, unless a copula makes them the patient
    ("M", "Lo atendió su vecina, una señora mayor, en la escalera.", "La atendió su vecina, una señora mayor, en la escalera."),
    ("F", "Es una señora de 80 años, muy lúcida.", "Es un señor de 80 años, muy lúcido."),
    # "por un paciente": another patient, the agent, and what agrees with them
    ("F", "Celadora, fue empujada por un paciente nervioso.", "Celador, fue empujado por un paciente nervioso."),
    # "él mismo" / "ella misma" right after a relative's noun is the relative's
    ("F", "Su nieto, él mismo enfermero, la encontró caída.", "Su nieto, él mismo enfermero, lo encontró caído."),
    # the one the patient is married to is the partner, swapped with the patient
    ("F", "Casada con un hombre de 60 años, sin hijos.", "Casado con una mujer de 60 años, sin hijos."),
    ("M", "Está casado con un abogado; vive en Madrid.", "Está casada con una abogada; vive en Madrid."),
    # the sex noun apposed to the partner changes with the partner
    ("F", "Vive con su pareja, un hombre de 70 años, que la cuida.", "Vive con su pareja, una mujer de 70 años, que lo cuida."),
    # "es ella la que ...": the relative's article; "a sí misma como ..."; "totalmente dependiente" an adjective
    ("F", "Fue ella la que avisó; se ve a sí misma como culpable y está angustiada.",
     "Fue él el que avisó; se ve a sí mismo como culpable y está angustiado."),
    ("M", "Encamado, totalmente dependiente, cirujano jubilado.", "Encamada, totalmente dependiente, cirujana jubilada."),
    # "su nieto, del que es tutora": the relative clause's copula is the patient's; "su hija, que es enfermera" not
    ("F", "Su nieto, del que es cuidadora, la acompaña.", "Su nieto, del que es cuidador, lo acompaña."),
    ("F", "Su hija, que es enfermera, la acompaña.", "Su hija, que es enfermera, lo acompaña."),
    # an adjective in -ero/-era right after the patient's role noun; the partner's "difunto" with the partner
    ("M", "Pasajero delantero de un turismo; refiere cervicalgia.", "Pasajera delantera de un turismo; refiere cervicalgia."),
    ("F", "Vive con el hijo de su difunto marido.", "Vive con el hijo de su difunta mujer."),
    # "y" and a degree adverb go back to the patient's copula across a complement
    ("F", "Está en dieta absoluta desde ayer y muy cansada.", "Está en dieta absoluta desde ayer y muy cansado."),
    # trades and sports the role-noun list lacked
    ("F", "Montañera experimentada, rescatada en una ladera.", "Montañero experimentado, rescatado en una ladera."),
    ("F", "Bailarina profesional, refiere dolor en el tobillo.", "Bailarín profesional, refiere dolor en el tobillo."),
    # a role noun with its article is someone else's subject
    ("F", "Ciclista arrollada; el conductor está ileso.", "Ciclista arrollado; el conductor está ileso."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round9_spanish_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "es")


def test_a_letter_after_a_word_is_no_title() -> None:
    # "vitamina D." ends a noun phrase; only '___' after it would make it a title
    text = "Déficit de vitamina D. Refiere cansancio."
    assert swap_sex(text, "M", "es").text == text


def test_an_adjective_that_cannot_agree_with_the_noun_before_it_is_the_patients() -> None:
    # one way only: after "con cefalea y" a feminine adjective could be the headache's, a masculine one cannot
    text = "Llega intoxicado por humo, con cefalea y mareado."
    assert swap_sex(text, "F", "es").text == "Llega intoxicada por humo, con cefalea y mareada."
    text = "Llega intoxicada por humo, con vértigo y mareada."
    assert swap_sex(text, "M", "es").text == "Llega intoxicado por humo, con vértigo y mareado."
