"""The second opinion's readings, class by class (issue 22, round 15): a correct copy passes and a wrong copy is
flagged, in both directions. Sentences written for these tests."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.second_opinion import judge
from reading_cases import READING, assert_reading_judges_both_ways


# (language, text of a woman, the same text of a man, a wrong copy of the woman's text, a wrong copy of the man's)
CASES = [
    # French: a detached adjective after a segment that cannot host it (a complement, a number) is the patient's
    ("fr", "Patiente de 70 ans, chute d'une chaise de 1 m, consciente, plaie du front.",
     "Patient de 70 ans, chute d'une chaise de 1 m, conscient, plaie du front.",
     "Patient de 70 ans, chute d'une chaise de 1 m, consciente, plaie du front.",
     "Patiente de 70 ans, chute d'une chaise de 1 m, conscient, plaie du front."),
    # ... but a segment ending with a noun of its gender hosts it
    ("fr", "Elle décrit une douleur thoracique, constrictive, depuis ce matin.",
     "Il décrit une douleur thoracique, constrictive, depuis ce matin.",
     "Il décrit une douleur thoracique, constrictif, depuis ce matin.",
     "Elle décrit une douleur thoracique, constrictif, depuis ce matin."),
    # French: an incise after a copula is passed over
    ("fr", "Elle est, d'après son voisin qui l'a trouvée, restée longtemps au sol.",
     "Il est, d'après son voisin qui l'a trouvé, resté longtemps au sol.",
     "Il est, d'après son voisin qui l'a trouvé, restée longtemps au sol.",
     "Elle est, d'après son voisin qui l'a trouvée, resté longtemps au sol."),
    # French: the parent named by the patient's child is the patient
    ("fr", "Sa petite-fille, inquiète pour sa grand-mère, l'a amenée.",
     "Sa petite-fille, inquiète pour son grand-père, l'a amené.",
     "Sa petite-fille, inquiète pour sa grand-mère, l'a amené.",
     "Sa petite-fille, inquiète pour son grand-père, l'a amenée."),
    # French: the note's opening person noun, given an age
    ("fr", "Une cycliste de 25 ans, renversée par un bus.", "Un cycliste de 25 ans, renversé par un bus.",
     "Une cycliste de 25 ans, renversé par un bus.", "Un cycliste de 25 ans, renversée par un bus."),
    # French: a sex letter opening a note
    ("fr", "F 58 ans, dyspnée depuis hier.", "H 58 ans, dyspnée depuis hier.",
     "F 58 ans, dyspnée depuis hier. Il tousse.", "H 58 ans, dyspnée depuis hier. Elle tousse."),
    # French: the writer's own participle ("je suis restée") is not the patient's
    ("fr", "Je suis restée près d'elle toute la nuit.", "Je suis restée près de lui toute la nuit.",
     "Je suis resté près de lui toute la nuit.", "Je suis resté près d'elle toute la nuit."),
    # French: "se faire" + infinitive: "fait" does not agree
    ("fr", "Elle s'est fait retirer une dent hier.", "Il s'est fait retirer une dent hier.",
     "Il s'est faite retirer une dent hier.", "Elle s'est faite retirer une dent hier."),
    # French: a nickname in quotation marks after a verb of naming
    ("fr", "Ses voisins l'appellent « la Doyenne » ; elle a 99 ans.",
     "Ses voisins l'appellent « le Doyen » ; il a 99 ans.",
     "Ses voisins l'appellent « la Doyenne » ; il a 99 ans.",
     "Ses voisins l'appellent « le Doyen » ; elle a 99 ans."),
    # French: a partner's words change together or not at all
    ("fr", "Elle pleure son défunt mari depuis un an.", "Il pleure sa défunte épouse depuis un an.",
     "Il pleure son défunt épouse depuis un an.", "Elle pleure sa défunte mari depuis un an."),
    # French: a participle after avoir agrees with the relative "que" before it
    ("fr", "La dame du box 4, que son fils a retrouvée chez elle, est calme.",
     "Le monsieur du box 4, que son fils a retrouvé chez lui, est calme.",
     "Le monsieur du box 4, que son fils a retrouvée chez lui, est calme.",
     "La dame du box 4, que son fils a retrouvé chez elle, est calme."),
    # French: "un patient" named after the patient is someone else
    ("fr", "Infirmière, elle s'est coupée en soignant un patient.", "Infirmier, il s'est coupé en soignant un patient.",
     "Infirmier, il s'est coupé en soignant une patiente.", "Infirmière, elle s'est coupée en soignant une patiente."),
    # French: a state only a person is in, after a thing's noun, is the patient's
    ("fr", "Elle attend depuis trois heures aux urgences, très angoissée.",
     "Il attend depuis trois heures aux urgences, très angoissé.",
     "Il attend depuis trois heures aux urgences, très angoissée.",
     "Elle attend depuis trois heures aux urgences, très angoissé."),
    # French: a plural participle is not the one patient's ("airbags déclenchés")
    ("fr", "AVP, conductrice ceinturée, airbags déclenchés ; elle a mal au cou.",
     "AVP, conducteur ceinturé, airbags déclenchés ; il a mal au cou.",
     "AVP, conducteur ceinturé, airbags déclenchées ; il a mal au cou.",
     "AVP, conductrice ceinturée, airbags déclenchée ; elle a mal au cou."),
    # French: another patient, "du box", named by a relative of the patient
    ("fr", "Sœur de la patiente du box 4, elle a fait un malaise.", "Frère de la patiente du box 4, il a fait un malaise.",
     "Frère du patient du box 4, il a fait un malaise.", "Sœur du patient du box 4, elle a fait un malaise."),
    # French: "C'est elle qui ..."
    ("fr", "C'est elle qui a appelé les secours.", "C'est lui qui a appelé les secours.",
     "C'est lui qui a appelée les secours. Elle", "C'est elle qui a appelé les secours. Il"),
    # French: a detached adjective closing a relative's clause is the relative's
    ("fr", "Son voisin l'a conduite aux urgences, inquiet.", "Son voisin l'a conduit aux urgences, inquiet.",
     "Son voisin l'a conduit aux urgences, inquiète.", "Son voisin l'a conduite aux urgences, inquiète."),
    # French: a pronoun reporting after a colon, or whose clause has an object clitic of its gender, is the person
    # named before it
    ("fr", "L'IDE de nuit a appelé : elle signale une chute. Sa sœur est passée la voir.",
     "L'IDE de nuit a appelé : elle signale une chute. Sa sœur est passée le voir.",
     "L'IDE de nuit a appelé : il signale une chute. Sa sœur est passée le voir.",
     "L'IDE de nuit a appelé : il signale une chute. Sa sœur est passée la voir."),
    ("fr", "Son frère dit qu'il l'a trouvée au sol.", "Son frère dit qu'il l'a trouvé au sol.",
     "Son frère dit qu'elle l'a trouvé au sol.", "Son frère dit qu'elle l'a trouvée au sol."),
    # French: an adjective after an infinitive agrees with the subject of what governs it
    ("fr", "Elle est incapable de se lever seule.", "Il est incapable de se lever seul.",
     "Il est incapable de se lever seule.", "Elle est incapable de se lever seul."),
    # Spanish: a state only a person is in is the patient's
    ("es", "Alta a domicilio acompañada de su pareja.", "Alta a domicilio acompañado de su pareja.",
     "Alta a domicilio acompañada de su pareja.", "Alta a domicilio acompañado de su pareja."),
    # Spanish: nouns by their endings ("erosión", "cervicalgia") are no adjectives of the patient
    ("es", "Mujer de 40 años, cervicalgia, erosión frontal.", "Hombre de 40 años, cervicalgia, erosión frontal.",
     "Mujer de 40 años, cervicalgia, erosión frontal. Él llora.", "Hombre de 40 años, cervicalgia, erosión frontal. Ella llora."),
    # English: the victim named by an apposition
    ("en", "The victim, a woman in her 50s, was hit by a bus.", "The victim, a man in his 50s, was hit by a bus.",
     "The victim, a woman in his 50s, was hit by a bus.", "The victim, a man in her 50s, was hit by a bus."),
    # English: a relative's relative in the other direction of kinship
    ("en", "Her son, upset with his mother for waiting, is outside.",
     "His son, upset with his father for waiting, is outside.",
     "His son, upset with his mother for waiting, is outside.",
     "Her son, upset with his father for waiting, is outside."),
    # English: a counted parent noun and a sex letter after an age
    ("en", "Mother-of-two, 40yo F, fell off a ladder.", "Father-of-two, 40yo M, fell off a ladder.",
     "Mother-of-two, 40yo M, fell off a ladder.", "Father-of-two, 40yo F, fell off a ladder."),
    # English: a subject pronoun whose clause has the patient as object is someone else's ("he last saw him")
    ("en", "Her neighbour says he last saw her on Monday.", "His neighbour says he last saw him on Monday.",
     "His neighbour says she last saw him on Monday.", "Her neighbour says she last saw her on Monday."),
    # English: after ";", a pronoun with a clinician's verb carries on the clinician that opened the clause before
    ("en", "Her GP, Dr ___, saw her on Monday; she increased her diuretic.",
     "His GP, Dr ___, saw him on Monday; she increased his diuretic.",
     "His GP, Dr ___, saw him on Monday; he increased his diuretic.",
     "Her GP, Dr ___, saw her on Monday; he increased her diuretic."),
    # English: the patient quoted, saying what they are
    ("en", "She says: \"I'm not the kind of woman who complains.\"",
     "He says: \"I'm not the kind of man who complains.\"",
     "He says: \"I'm not the kind of woman who complains.\"",
     "She says: \"I'm not the kind of man who complains.\""),
]


@pytest.mark.parametrize("language, female, male, wrong_of_female, wrong_of_male", CASES)
def test_correct_copies_pass_and_wrong_copies_are_flagged_both_ways(language: str, female: str, male: str,
                                                                     wrong_of_female: str, wrong_of_male: str) -> None:
    assert_reading_judges_both_ways(language, female, male, wrong_of_female, wrong_of_male)


def test_a_partner_split_is_flagged_as_a_content_change() -> None:
    flags = judge("Il pleure sa défunte épouse.", "Elle pleure sa défunte époux.", "M", "fr", READING)
    assert [f.reason for f in flags] == ["partner agreement"]


def test_words_right_in_either_agreement_may_change_or_stay() -> None:
    original = "La victime, une femme de 30 ans, a été percutée par une voiture."
    assert judge(original, "La victime, un homme de 30 ans, a été percutée par une voiture.", "F", "fr", READING) == []
    assert judge(original, "La victime, un homme de 30 ans, a été percuté par une voiture.", "F", "fr", READING) == []
