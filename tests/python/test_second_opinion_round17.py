"""The second opinion's readings, class by class (issue 22, round 17): a correct copy passes and a wrong copy is
flagged, in both directions. Sentences written for these tests (other words and orders than the notes the classes
were found on)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.second_opinion import judge
from reading_cases import READING, assert_reading_judges_both_ways, assert_reading_passes


# (language, text of a woman, the same text of a man, a wrong copy of the woman's text, a wrong copy of the man's)
CASES = [
    # English: the patient named as a possessor; the relative's parent noun is the patient, its possessive the
    # relative's
    ("en", "Mrs ___'s daughter, who lives nearby, says her mother has stopped eating.",
     "Mr ___'s daughter, who lives nearby, says her father has stopped eating.",
     "Mr ___'s daughter, who lives nearby, says her mother has stopped eating.",
     "Mrs ___'s daughter, who lives nearby, says her father has stopped eating."),
    ("en", "The patient's son thinks his mother fell at night.", "The patient's son thinks his father fell at night.",
     "The patient's son thinks her father fell at night.", "The patient's son thinks her mother fell at night."),
    # English: an emphatic pronoun in a phrase apposed to a relative is the relative's
    ("en", "The patient's son, a paramedic himself, wants his mother admitted.",
     "The patient's son, a paramedic himself, wants his father admitted.",
     "The patient's son, a paramedic herself, wants his father admitted.",
     "The patient's son, a paramedic herself, wants his mother admitted."),
    # English: a person whose phrase is followed by an apposed possessed relation is that relation
    ("en", "Ms ___ was the passenger; the woman who was driving, her sister, is in resus.",
     "Mr ___ was the passenger; the woman who was driving, his sister, is in resus.",
     "Mr ___ was the passenger; the man who was driving, his sister, is in resus.",
     "Ms ___ was the passenger; the man who was driving, her sister, is in resus."),
    # English: a patient's pronoun changed to the wrong case
    ("en", "Her neighbour found her confused on the landing.", "His neighbour found him confused on the landing.",
     "His neighbour found his confused on the landing.", "Her neighbour found she confused on the landing."),
    ("en", "The nurse gave her a sling and she went home.", "The nurse gave him a sling and he went home.",
     "The nurse gave his a sling and he went home.", "The nurse gave her a sling and her went home."),
    # English: a kinship noun in the list of roles fronted before the patient's pronoun is the patient's
    ("en", "Granddaughter and sole carer of a man with Parkinson's, she slipped in the shower.",
     "Grandson and sole carer of a man with Parkinson's, he slipped in the shower.",
     "Granddaughter and sole carer of a man with Parkinson's, he slipped in the shower.",
     "Grandson and sole carer of a man with Parkinson's, she slipped in the shower."),
    # English: a referral's "this lady" / "this gentleman" is its patient
    ("en", "The GP letter reads: 'Please see this lady, who has had a cough for six weeks.'",
     "The GP letter reads: 'Please see this gentleman, who has had a cough for six weeks.'",
     "The GP letter reads: 'Please see this lady, who has had a cough for six weeks.' He is a smoker.",
     "The GP letter reads: 'Please see this gentleman, who has had a cough for six weeks.' She is a smoker."),
    # French: an indefinite person given an age is the person the note is about
    ("fr", "Appel pour une femme de 62 ans retrouvée au sol. Elle est confuse.",
     "Appel pour un homme de 62 ans retrouvé au sol. Il est confus.",
     "Appel pour une femme de 62 ans retrouvé au sol. Il est confus.",
     "Appel pour un homme de 62 ans retrouvée au sol. Elle est confuse."),
    # French: the relative of another patient that a note opens on is its patient
    ("fr", "La grand-mère du petit du lit 4 a fait un malaise vagal ; elle est pâle.",
     "Le grand-père du petit du lit 4 a fait un malaise vagal ; il est pâle.",
     "La grand-mère du petit du lit 4 a fait un malaise vagal ; il est pâle.",
     "Le grand-père du petit du lit 4 a fait un malaise vagal ; elle est pâle."),
    # French: an emphatic pronoun of the sentence's opening noun phrase makes it the patient's
    ("fr", "La docteure ___, elle-même cardiologue, consulte pour des palpitations.",
     "Le docteur ___, lui-même cardiologue, consulte pour des palpitations.",
     "La docteure ___, lui-même cardiologue, consulte pour des palpitations.",
     "Le docteur ___, elle-même cardiologue, consulte pour des palpitations."),
    ("fr", "La pharmacienne ___ est elle-même venue pour une entorse.",
     "Le pharmacien ___ est lui-même venu pour une entorse.",
     "La pharmacienne ___ est lui-même venu pour une entorse.",
     "Le pharmacien ___ est elle-même venue pour une entorse."),
    # French: an adjective after a gerund is its main clause subject's
    ("fr", "Elle a glissé en marchant seule dans le couloir.", "Il a glissé en marchant seul dans le couloir.",
     "Il a glissé en marchant seule dans le couloir.", "Elle a glissé en marchant seul dans le couloir."),
    # French: a time between the copula and its adjective is passed over
    ("fr", "Elle est cette nuit très agitée.", "Il est cette nuit très agité.", "Il est cette nuit très agitée.",
     "Elle est cette nuit très agité."),
    # French: a preposed adjective before a verb is a noun, the note's subject
    ("fr", "Amenée par sa mère ; la petite est fébrile.", "Amené par sa mère ; le petit est fébrile.",
     "Amené par sa mère ; la petite est fébrile.", "Amenée par sa mère ; le petit est fébrile."),
    # Spanish: a first person after an object clitic is a verb, and the adjective after it the clitic's
    ("es", "La veo más cansada que ayer.", "Lo veo más cansado que ayer.", "Lo veo más cansada que ayer.",
     "La veo más cansado que ayer."),
    # Spanish: the article of a relative agrees with its antecedent
    ("es", "La paciente, a la que su vecino encontró en el suelo, está confusa.",
     "El paciente, al que su vecino encontró en el suelo, está confuso.",
     "El paciente, a la que su vecino encontró en el suelo, está confuso.",
     "La paciente, al que su vecino encontró en el suelo, está confusa."),
    # Spanish: a quoted nickname after a verb of naming
    ("es", "Sus vecinos la llaman «la Jefa»; hoy viene mareada.",
     "Sus vecinos lo llaman «el Jefe»; hoy viene mareado.",
     "Sus vecinos lo llaman «la Jefa»; hoy viene mareado.",
     "Sus vecinos la llaman «el Jefe»; hoy viene mareada."),
    # Spanish: a clitic glued to a verb done to a person
    ("es", "Me costó despertarla; está somnolienta.", "Me costó despertarlo; está somnoliento.",
     "Me costó despertarla; está somnoliento.", "Me costó despertarlo; está somnolienta."),
    # Spanish: a classifier and its number belong to the word before them
    ("es", "Diabética tipo 1 desde niña, mal controlada.", "Diabético tipo 1 desde niño, mal controlado.",
     "Diabético tipo 1 desde niño, mal controlada.", "Diabética tipo 1 desde niña, mal controlado."),
    # Spanish: a quoted nickname after "conocido ... como"
    ("es", "Conocida en el barrio como «la Profe», viene mareada.", "Conocido en el barrio como «el Profe», viene mareado.",
     "Conocido en el barrio como «la Profe», viene mareado.", "Conocida en el barrio como «el Profe», viene mareada."),
    # Spanish: the article of an epicene patient noun carries the sex
    ("es", "La nuera de la paciente dice que ella está sedada.", "La nuera del paciente dice que él está sedado.",
     "La nuera de la paciente dice que él está sedado.", "La nuera del paciente dice que ella está sedada."),
]


@pytest.mark.parametrize("language, female, male, wrong_of_female, wrong_of_male", CASES)
def test_correct_copies_pass_and_wrong_copies_are_flagged_both_ways(language: str, female: str, male: str,
                                                                     wrong_of_female: str, wrong_of_male: str) -> None:
    assert_reading_judges_both_ways(language, female, male, wrong_of_female, wrong_of_male)


@pytest.mark.parametrize("language, original, sex, copy", [
    # English: an emphatic pronoun right after another person's noun is theirs, after a partner's the partner's
    ("en", "The triage nurse, herself a mother of three, thinks he is dehydrated.", "M",
     "The triage nurse, herself a mother of three, thinks she is dehydrated."),
    ("en", "Her wife, herself a midwife, drove her in.", "F", "His husband, himself a midwife, drove him in."),
    # English: the note opening on "The X, a man in his 40s," names its patient; not staff acting on someone
    ("en", "The cyclist's passenger, a man in his 40s, was thrown onto the road.", "M",
     "The cyclist's passenger, a woman in her 40s, was thrown onto the road."),
    ("en", "The porter, a man in his 30s, wheeled him to X-ray.", "M", "The porter, a man in his 30s, wheeled her to X-ray."),
    # English: the best man is a wedding's role, someone else
    ("en", "The bride fainted at the altar; the best man caught her.", "F",
     "The groom fainted at the altar; the best man caught him."),
    # French: "toutes les ..." opens a noun phrase and ends a list
    ("fr", "Elle est sondée, surveillée toutes les nuits.", "F", "Il est sondé, surveillé toutes les nuits."),
    # French: "il n'y a" is impersonal
    ("fr", "On l'a retrouvée au sol ; il n'y a aucun témoin.", "F", "On l'a retrouvé au sol ; il n'y a aucun témoin."),
    # French: a participle the Lefff has as a noun names no one
    ("fr", "Elle est somnolente à l'arrivée du SAMU, intoxiquée aux opiacés.", "F",
     "Il est somnolent à l'arrivée du SAMU, intoxiqué aux opiacés."),
    # French: the emphatic pronoun of a possessed relative opening the sentence is the relative's
    ("fr", "Sa sœur l'a trouvé confus et l'a conduit elle-même aux urgences.", "M",
     "Sa sœur l'a trouvée confuse et l'a conduite elle-même aux urgences."),
    # French: a patient named after the verb is the patient, not the relative the sentence opens on
    ("fr", "La fille de la dame du box 7 a vu le patient du box 8 tomber ; il est confus.", "M",
     "La fille de la dame du box 7 a vu la patiente du box 8 tomber ; elle est confuse."),
    # French: any patient noun "du box 5" is another patient
    ("fr", "Elle est assise près du fils du monsieur du box 5.", "F", "Il est assis près du fils du monsieur du box 5."),
    # French: "lui aussi" apposed to the partner is the partner's
    ("fr", "Son mari, lui aussi kiné, l'a amenée.", "F", "Sa femme, elle aussi kiné, l'a amené."),
    # Spanish: codes end like gendered words but have none
    ("es", "TA 90/60, FC 110; paciente pálida y sudorosa.", "F", "TA 90/60, FC 110; paciente pálido y sudoroso."),
    # Spanish: a perfect's participle never agrees
    ("es", "Su hija lo ha acompañado en el taxi.", "M", "Su hija la ha acompañado en el taxi."),
    # Spanish: adverbs that end in -o/-a
    ("es", "Como siempre, ahora viene sola y está tranquila.", "F", "Como siempre, ahora viene solo y está tranquilo."),
    # Spanish: a bare word after a verb that takes no predicate is its object
    ("es", "Se administra morfina; está más tranquila.", "F", "Se administra morfina; está más tranquilo."),
    ("es", "Tiene diabetes tipo 2 y está mareado.", "M", "Tiene diabetes tipo 2 y está mareada."),
    # Spanish: "lo" before a participle or a relative stands for a fact
    ("es", "No recuerda lo sucedido; está confuso.", "M", "No recuerda lo sucedido; está confusa."),
    ("es", "Según lo que cuenta su vecino, fue encontrado en el suelo.", "M",
     "Según lo que cuenta su vecino, fue encontrada en el suelo."),
    # Spanish: a verb before its question ("pregunta si") or, after "no", before its object
    ("es", "Inquieta, pregunta si podrá irse hoy.", "F", "Inquieto, pregunta si podrá irse hoy."),
    ("es", "Está muy dolorida y no tolera la dieta.", "F", "Está muy dolorido y no tolera la dieta."),
    # Spanish: an ex-partner is a partner
    ("es", "La acompaña su exmarido, con quien se lleva bien.", "F", "Lo acompaña su exmujer, con quien se lleva bien."),
])
def test_what_does_not_refer_to_the_patient_stays(language: str, original: str, sex: str, copy: str) -> None:
    assert_reading_passes(language, original, sex, copy)


def test_a_wrong_case_is_named_as_such() -> None:
    flags = judge("Her neighbour found her confused on the landing.",
                  "His neighbour found his confused on the landing.", "F", "en", READING)
    assert [(f.kind, f.reason) for f in flags] == [("content change", "wrong form")]
