"""The Spanish error classes round 12 of issue 22 found on the development sets (docs/counterfactuals.md, "Round
12", Spanish), one case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give
``b`` and the swap of ``b`` back must give ``a``. Sentences are written for this test (none is copied from a gold
or held-out set)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways, other

# (sex of a, a, b)
CASES = [
    # an object clitic of the patient before "he", a future or "espera"/"llama"; one of the other gender, or one
    # after "se", stands for a thing
    ("F", "Pcte inquieta toda la noche. La he acompañado al baño y el fisio la verá mañana.",
     "Pcte inquieto toda la noche. Lo he acompañado al baño y el fisio lo verá mañana."),
    ("M", "Dolor lumbar tras mudanza. Su vecino lo espera en la sala; los nietos lo llaman «el abuelete».",
     "Dolor lumbar tras mudanza. Su vecino la espera en la sala; los nietos la llaman «el abuelete»."),
    ("M", "Tiene una herida en la espinilla; no se la curó hasta hoy. Está febril y decaído.",
     "Tiene una herida en la espinilla; no se la curó hasta hoy. Está febril y decaída."),
    # "madre soltera" said of the patient: after "ser" and opening the note; a relative's stays
    ("F", "Cuenta ser madre soltera de un bebé de meses; está muy cansada.",
     "Cuenta ser padre soltero de un bebé de meses; está muy cansado."),
    ("F", "Madre soltera con tres hijos a su cargo, consulta por insomnio. Su madre soltera la crio sola.",
     "Padre soltero con tres hijos a su cargo, consulta por insomnio. Su madre soltera lo crio sola."),
    # "Dr."/"Dra." opening the note with an apposed role noun of the patient is the patient's title; a doctor
    # named elsewhere is staff
    ("F", "Dolor torácico. La Dra. ___, médica ella misma, cree que es muscular; valorada por la Dra. ___.",
     "Dolor torácico. El Dr. ___, médico él mismo, cree que es muscular; valorado por la Dra. ___."),
    ("M", "El Dr. ___, de 70 años, acude por disnea. Lo ve el Dr. ___, que ingresa al paciente.",
     "La Dra. ___, de 70 años, acude por disnea. La ve el Dr. ___, que ingresa a la paciente."),
    # "alerta" is invariable: the run of the patient's adjectives goes on after it, across "pero"
    ("M", "Pte alerta pero desorientado en espacio, inquieto; su hija con él.",
     "Pte alerta pero desorientada en espacio, inquieta; su hija con ella."),
    # a role noun after "su" said of the partner follows the partner; the patient's carer otherwise keeps hers
    ("M", "Lo acompaña su mujer, que es su cuidadora desde la amputación. Su cuidadora de día no ha venido.",
     "La acompaña su marido, que es su cuidador desde la amputación. Su cuidadora de día no ha venido."),
    ("F", "Acude con su pareja ___, su cuidador desde el ictus; ella está somnolienta.",
     "Acude con su pareja ___, su cuidadora desde el ictus; él está somnoliento."),
    ("F", "Vive con su pareja, un hombre que es su tutor legal, y está tranquila.",
     "Vive con su pareja, una mujer que es su tutora legal, y está tranquilo."),
    ("M", "Lo acompaña su novia y cuidadora; vive con su pareja, que es su tutora.",
     "La acompaña su novio y cuidador; vive con su pareja, que es su tutor."),
    # a subordinate clause opened by "porque", "aunque", "mientras" has the patient as its unsaid subject
    ("F", "Llevada a urgencias por su nieto porque estaba desorientada; dejó la insulina porque se creía curada.",
     "Llevado a urgencias por su nieto porque estaba desorientado; dejó la insulina porque se creía curado."),
    ("M", "Lo trae su sobrina aunque está tranquilo.", "La trae su sobrina aunque está tranquila."),
    # the clitic in a relative clause of the patient's relative is the patient
    ("F", "Su cuñado, que la atiende desde la fractura, la vio más pálida.",
     "Su cuñado, que lo atiende desde la fractura, lo vio más pálido."),
    # "según su <relative>" before the copula names the source, not the subject
    ("M", "Vive solo; según su vecina está más delgado y según su hijo estaba muy apagado.",
     "Vive sola; según su vecina está más delgada y según su hijo estaba muy apagada."),
    # "no sabe cuánto tiempo estuvo ..." keeps the patient as the subject
    ("F", "La encontró su vecino en el pasillo. No recuerda cuánto tiempo estuvo tumbada allí.",
     "Lo encontró su vecino en el pasillo. No recuerda cuánto tiempo estuvo tumbado allí."),
    # a kinship noun with "mayor"/"menor" opening the note, coordinated with a role of "de su <relative>"; a
    # clitic joined to an infinitive is then that relative's when of its gender
    ("M", "Hijo menor y cuidador de su madre, se lesionó el hombro al incorporarla en la cama.",
     "Hija menor y cuidadora de su madre, se lesionó el hombro al incorporarla en la cama."),
    # a telegraphic participle right after the partner's noun is the partner's
    ("M", "Consciente y tranquilo; esposa informada de la situación, novia avisada también.",
     "Consciente y tranquila; esposo informado de la situación, novio avisado también."),
    # the patient named again as "la abuela" / "el chico" is the subject of the copula after it
    ("F", "Acude con su nuera. La abuela está hoy más despierta y parece contenta.",
     "Acude con su nuera. El abuelo está hoy más despierto y parece contento."),
    # the elder a relative opening the note is angry or upset with ("con su madre") is the patient
    ("F", "Su nieta, molesta con su abuela por no haber tomado la medicación, espera en la sala.",
     "Su nieta, molesta con su abuelo por no haber tomado la medicación, espera en la sala."),
    # "dependiente para ..." / "dependiente total" is the adjective of one form, not the shop assistant
    ("M", "Encamado desde el ictus, es dependiente para las ABVD y dependiente total.",
     "Encamada desde el ictus, es dependiente para las ABVD y dependiente total."),
    ("M", "Varón de 90 años, dependiente, portador de sonda.", "Mujer de 90 años, dependiente, portadora de sonda."),
    # "vive con su compañera" names the partner; "su compañera de piso" does not
    ("F", "Convive con su compañero desde hace años; la trajo su compañera de trabajo.",
     "Convive con su compañera desde hace años; lo trajo su compañera de trabajo."),
    # "ella misma"/"él mismo" apposed to a staff member or relative opening the clause is theirs
    ("F", "El celador de noche, él mismo asustado, cuenta que la paciente se cayó; está dolorida.",
     "El celador de noche, él mismo asustado, cuenta que el paciente se cayó; está dolorido."),
    # "sola"/"solo" after a reflexive verb of coping, in the first person too
    ("F", "Cuenta: «me manejo sola en casa» y se apaña sola con la compra.",
     "Cuenta: «me manejo solo en casa» y se apaña solo con la compra."),
    # a parent noun opening the note before "de los/las ..." is the patient
    ("F", "Abuela de las mellizas del box 4, se mareó mientras las vestía; está pálida.",
     "Abuelo de las mellizas del box 4, se mareó mientras las vestía; está pálido."),
    # in a longer note: a clitic before the writers' first person plural is the patient, one before a verb of
    # taking or using is the thing's, and the impersonal "se la deja" is the patient
    ("F", "Mujer de 80 años. Le pautaron una pomada; la aplicó mal. La exploramos: orientada. Se la deja en "
          "observación y la valorará el geriatra.",
     "Varón de 80 años. Le pautaron una pomada; la aplicó mal. Lo exploramos: orientado. Se lo deja en "
     "observación y lo valorará el geriatra."),
    ("F", "Herida inciso-contusa en la frente; la limpiamos y la suturamos. Está tranquila; la vigilará enfermería.",
     "Herida inciso-contusa en la frente; la limpiamos y la suturamos. Está tranquilo; lo vigilará enfermería."),
    # the participle after "alta" (the discharge) is the patient's; "fiebre alta mantenida" is not
    ("F", "Fiebre alta mantenida que cede con paracetamol. Alta a domicilio acompañada de su hermano.",
     "Fiebre alta mantenida que cede con paracetamol. Alta a domicilio acompañado de su hermano."),
    ("M", "Mejoría clínica; se le da el alta acompañado de su nuera.",
     "Mejoría clínica; se le da el alta acompañada de su nuera."),
    # the impersonal "se" with a present verb names the patient; "se la quita" (a thing on oneself) does not
    ("F", "Lleva un collarín blando; se lo quita para dormir. Se la cita en consulta y se la remite a su MAP.",
     "Lleva un collarín blando; se lo quita para dormir. Se lo cita en consulta y se lo remite a su MAP."),
    # a prepositional complement fronted in a subordinate clause hides no subject: the patient's copula
    ("F", "Cuenta que desde la caída se nota más torpe y cansada; su nuera dice que por las noches está inquieta.",
     "Cuenta que desde la caída se nota más torpe y cansado; su nuera dice que por las noches está inquieto."),
    # the copula after a relative clause between commas has the noun before it as subject: a relative's stays,
    # the partner's swaps with the partner; a body part's relative clause is the body part's
    ("F", "Su compañera de trabajo, que la vio caer, está muy nerviosa. Su novio, que venía con ella, "
          "está tranquilo. Dolor en la muñeca derecha, que está hinchada. Está dolorida.",
     "Su compañera de trabajo, que lo vio caer, está muy nerviosa. Su novia, que venía con él, "
     "está tranquila. Dolor en la muñeca derecha, que está hinchada. Está dolorido."),
    # a clitic before an imperfect of perceiving ("la notaba", "lo veía") is the patient
    ("M", "Su nieta cuenta que desde el verano lo notaba más torpe y lo veía más delgado.",
     "Su nieta cuenta que desde el verano la notaba más torpe y la veía más delgada."),
    # a time phrase ("esta mañana") inside the run keeps the clitic's predicate the patient's
    ("F", "Su yerno la vio esta tarde muy decaída y esta noche está febril.",
     "Su yerno lo vio esta tarde muy decaído y esta noche está febril."),
    # a participle apposed to a relative opening the sentence is theirs, "por" after it or not; "envía" takes
    # the patient's clitic
    ("M", "Lo envía su médico de cabecera. Su hermana, avisada por la policía, está en camino; está asustado.",
     "La envía su médico de cabecera. Su hermana, avisada por la policía, está en camino; está asustada."),
    # a clitic before a present verb and the person or service doing it ("la revisa el cirujano")
    ("F", "Dolor en FID. La revisa el cirujano de guardia y la observa Cirugía; la reevalúa su MAP. La fiebre "
          "cede.",
     "Dolor en FID. Lo revisa el cirujano de guardia y lo observa Cirugía; lo reevalúa su MAP. La fiebre "
     "cede."),
    # a run apposed to a relative opening the sentence is theirs across a degree adverb; after "con su hijo,"
    # inside the patient's run it stays the patient's
    ("F", "Su cuñada, muy preocupada, espera fuera. Ha cenado con su hijo, más tranquila.",
     "Su cuñada, muy preocupada, espera fuera. Ha cenado con su hijo, más tranquilo."),
    # "amarillo" agrees with the patient after a clitic and its verb, with a noun right before it otherwise
    ("F", "Su nieto la nota amarilla desde ayer; orina amarilla oscura.",
     "Su nieto lo nota amarillo desde ayer; orina amarilla oscura."),
    # the child a parent gives the history of ("Según su madre, la niña ...", "Su padre cuenta que el niño ...")
    ("F", "Según su padre, la niña, de 4 años, tiene fiebre. Su madre cuenta que la niña está decaída.",
     "Según su padre, el niño, de 4 años, tiene fiebre. Su madre cuenta que el niño está decaído."),
    # ages by decades in "-ón/-ona" agree with the patient
    ("M", "Cincuentón, camionero, acude por lumbalgia; está dolorido.",
     "Cincuentona, camionera, acude por lumbalgia; está dolorida."),
    # a former partner's predicate swaps with the former partner
    ("F", "Su exmarido ha sido denunciado; está muy asustada.", "Su exmujer ha sido denunciada; está muy asustado."),
    # a clitic opening its clause before a verb of describing is the symptom the patient describes; after a
    # relative as subject it is the patient
    ("F", "Cefalea de 2 días; la describe como opresiva. Su cuñado, presente, la describe muy irritable.",
     "Cefalea de 2 días; la describe como opresiva. Su cuñado, presente, lo describe muy irritable."),
    # the clitic's predicate after a place ("lo encontró en el campo desorientado"); "se lo encontró" is the
    # patient found
    ("M", "Varón de 80 años. Su vecino se lo encontró en el portal confuso.",
     "Mujer de 80 años. Su vecino se la encontró en el portal confusa."),
    # "ex-" before a hyphen keeps the word's gender inflection
    ("M", "Ex-fumador, vive con su sobrina, que lo trae porque lo ve decaído.",
     "Ex-fumadora, vive con su sobrina, que la trae porque la ve decaída."),
    # "interviene"/"opera" take the patient's clitic
    ("F", "Apendicitis aguda; Cirugía la interviene esta tarde y la opera el Dr. ___.",
     "Apendicitis aguda; Cirugía lo interviene esta tarde y lo opera el Dr. ___."),
    # "mano" is a feminine body part: "no puede moverla" is the hand
    ("F", "Se pilló la mano con la puerta; no puede cerrarla. Está asustada.",
     "Se pilló la mano con la puerta; no puede cerrarla. Está asustado."),
    # the main clause after a subordinate one ("Cuando llegó", "desde que se le pautó ...") has the patient as
    # its subject; "se ha sentido" is a copula
    ("F", "Cuando llegó estaba inquieta; desde que se le pautó tiaprida está más serena. Se ha sentido mareada.",
     "Cuando llegó estaba inquieto; desde que se le pautó tiaprida está más sereno. Se ha sentido mareado."),
    # an adverb of time before the copula hides no subject
    ("M", "Ingresa en planta. Posteriormente se encuentra más desorientado; previamente estaba tranquilo.",
     "Ingresa en planta. Posteriormente se encuentra más desorientada; previamente estaba tranquila."),
]

# one way only: a word of the other gender than the thing or relative before it is not theirs; swapped back, the
# same word has their gender and the swapper cannot tell them from the patient there
ONE_WAY = [
    ("F", "Lleva un holter desde ayer; lo ha llevado puesto sin problemas y está tranquila.",
     "Lleva un holter desde ayer; lo ha llevado puesto sin problemas y está tranquilo."),
    ("M", "Le pautaron una férula; la ha llevado puesta dos días y está más animado.",
     "Le pautaron una férula; la ha llevado puesta dos días y está más animada."),
    # after "con su hermano," a word of the other gender cannot be the brother's; swapped back, it has his gender
    ("F", "Viuda, vive con su hermano, jubilada de Correos; acude sola.",
     "Viudo, vive con su hermano, jubilado de Correos; acude solo."),
    # a subject pronoun before a clitic of the other gender is the relative named before, not the patient
    ("M", "Vive con su sobrina. Ella lo trae porque lo ve decaído.",
     "Vive con su sobrina. Ella la trae porque la ve decaída."),
    # "Mujer de 50 años" is the patient, no partner whose clitic "lo" could be
    ("F", "Mujer de 50 años con dolor lumbar. Lo nota sobre todo al andar.",
     "Varón de 50 años con dolor lumbar. Lo nota sobre todo al andar."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round12_spanish_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "es")


@pytest.mark.parametrize(("sex", "a", "b"), ONE_WAY, ids=[c[1][:45] for c in ONE_WAY])
def test_round12_spanish_word_of_the_other_gender_is_the_patients_or_kept(sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), "es").text == b
