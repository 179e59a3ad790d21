"""The second opinion's readings, class by class (issue 22, round 16): a correct copy passes and a wrong copy is
flagged, in both directions. Sentences written for these tests."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.second_opinion import judge
from reading_cases import READING, assert_reading_judges_both_ways, assert_reading_passes


# (language, text of a woman, the same text of a man, a wrong copy of the woman's text, a wrong copy of the man's)
CASES = [
    # English: a role noun that opens the note before its verb names the patient
    ("en", "The bride fainted during the speeches; she had not eaten.",
     "The groom fainted during the speeches; he had not eaten.",
     "The bride fainted during the speeches; he had not eaten.",
     "The groom fainted during the speeches; she had not eaten."),
    # English: a hyphenated role opening the note
    ("en", "The bride-to-be collapsed at the fitting; she is pale.",
     "The groom-to-be collapsed at the fitting; he is pale.",
     "The bride-to-be collapsed at the fitting; he is pale.",
     "The groom-to-be collapsed at the fitting; she is pale."),
    # English: an apposition to the person an incident happened to
    ("en", "Road traffic collision: the pedestrian, a young woman, was struck by a van.",
     "Road traffic collision: the pedestrian, a young man, was struck by a van.",
     "Road traffic collision: the pedestrian, a young woman, was struck by a van. He is alert.",
     "Road traffic collision: the pedestrian, a young man, was struck by a van. She is alert."),
    # English: a role coordinated with a counted one ("mother-of-two and ...")
    ("en", "A grandmother-of-five and retired headmistress, she tripped on the stairs.",
     "A grandfather-of-five and retired headmaster, he tripped on the stairs.",
     "A grandfather-of-five and retired headmistress, he tripped on the stairs.",
     "A grandmother-of-five and retired headmaster, she tripped on the stairs."),
    # English: a quoted nickname after a verb of naming
    ("en", "Known on the ward as 'the Queen', she refuses her tablets.",
     "Known on the ward as 'the King', he refuses his tablets.",
     "Known on the ward as 'the Queen', he refuses his tablets.",
     "Known on the ward as 'the King', she refuses her tablets."),
    # English: the person a note opens on, given an age after a possessor
    ("en", "The boy's mother, aged 31, felt faint while the child was being stitched. She is diabetic.",
     "The boy's father, aged 31, felt faint while the child was being stitched. He is diabetic.",
     "The boy's mother, aged 31, felt faint while the child was being stitched. He is diabetic.",
     "The boy's father, aged 31, felt faint while the child was being stitched. She is diabetic."),
    # French: someone else's partner is someone else
    ("fr", "Amenée par la compagne de son frère, elle tousse.", "Amené par la compagne de son frère, il tousse.",
     "Amené par le compagnon de son frère, il tousse.", "Amenée par le compagnon de son frère, elle tousse."),
    # French: a relative coordinated with an earlier one shares its antecedent
    ("fr", "Je vous adresse Mme ___, que je connais bien et que j'ai trouvée fatiguée.",
     "Je vous adresse M. ___, que je connais bien et que j'ai trouvé fatigué.",
     "Je vous adresse M. ___, que je connais bien et que j'ai trouvée fatiguée.",
     "Je vous adresse Mme ___, que je connais bien et que j'ai trouvé fatigué."),
    # French: the predicate of an object clitic after a verb of finding
    ("fr", "Son voisin la trouve de plus en plus pâle et amaigrie.", "Son voisin le trouve de plus en plus pâle et amaigri.",
     "Son voisin le trouve de plus en plus pâle et amaigrie.", "Son voisin la trouve de plus en plus pâle et amaigri."),
    # French: after "ne", "la"/"le" is an object clitic
    ("fr", "Sa fille s'est inquiétée en ne la voyant pas au marché.",
     "Sa fille s'est inquiétée en ne le voyant pas au marché.",
     "Sa fille s'est inquiétée en ne la voyant pas au marché. Il boite.",
     "Sa fille s'est inquiétée en ne le voyant pas au marché. Elle boite."),
    # French: a care participle is the patient's though a person is named in its own complement
    ("fr", "Elle est connue du service, toujours accompagnée de son neveu.",
     "Il est connu du service, toujours accompagné de son neveu.",
     "Il est connu du service, toujours accompagnée de son neveu.",
     "Elle est connue du service, toujours accompagné de son neveu."),
    # French: a participle after "être" after an infinitive agrees with whoever governs the infinitive
    ("fr", "Elle dit ne plus vouloir être hospitalisée.", "Il dit ne plus vouloir être hospitalisé.",
     "Il dit ne plus vouloir être hospitalisée.", "Elle dit ne plus vouloir être hospitalisé."),
    # French: "qui" after a noun and its adjective is that noun's
    ("fr", "Elle s'est tordu la cheville droite, qui est gonflée ; elle boite.",
     "Il s'est tordu la cheville droite, qui est gonflée ; il boite.",
     "Il s'est tordu la cheville droite, qui est gonflé ; il boite.",
     "Elle s'est tordu la cheville droite, qui est gonflé ; elle boite."),
    # French: a list carries on through an epicene adjective the Lefff lacks
    ("fr", "Patiente apyrétique, normotendue, eupnéique.", "Patient apyrétique, normotendu, eupnéique.",
     "Patient apyrétique, normotendue, eupnéique.", "Patiente apyrétique, normotendu, eupnéique."),
    # French: a nickname after "connu comme"
    ("fr", "Connue au marché comme « la Reine », elle vend des fleurs.",
     "Connu au marché comme « le Roi », il vend des fleurs.",
     "Connu au marché comme « la Reine », il vend des fleurs.",
     "Connue au marché comme « le Roi », elle vend des fleurs."),
    # French: a name quoted before "comme l'appellent ..."
    ("fr", "« Mamie ___ », comme l'appellent ses voisins, a été retrouvée au sol.",
     "« Papi ___ », comme l'appellent ses voisins, a été retrouvé au sol.",
     "« Mamie ___ », comme l'appellent ses voisins, a été retrouvé au sol.",
     "« Papi ___ », comme l'appellent ses voisins, a été retrouvée au sol."),
    # French: the article of a title after the patient's honorific
    ("fr", "Mme la Pr ___ est admise pour une syncope.", "M. le Pr ___ est admis pour une syncope.",
     "M. la Pr ___ est admis pour une syncope.", "Mme le Pr ___ est admise pour une syncope."),
    # Spanish: a prepositional phrase opening the clause is no subject of the copula after it
    ("es", "Tras la inhalación está menos cansada.", "Tras la inhalación está menos cansado.",
     "Tras la inhalación está menos cansada. Él tose.", "Tras la inhalación está menos cansado. Ella tose."),
    # Spanish: object clitics told by their place and the verb's form
    ("es", "Se la traslada a observación; la llevamos a rayos.", "Se lo traslada a observación; lo llevamos a rayos.",
     "Se lo traslada a observación; la llevamos a rayos.", "Se la traslada a observación; lo llevamos a rayos."),
    # Spanish: a definite person noun opening the sentence before its verb is the note's subject
    ("es", "La abuela del box 3 pregunta por su nieto.", "El abuelo del box 3 pregunta por su nieto.",
     "La abuelo del box 3 pregunta por su nieto.", "El abuela del box 3 pregunta por su nieto."),
]


@pytest.mark.parametrize("language, female, male, wrong_of_female, wrong_of_male", CASES)
def test_correct_copies_pass_and_wrong_copies_are_flagged_both_ways(language: str, female: str, male: str,
                                                                     wrong_of_female: str, wrong_of_male: str) -> None:
    assert_reading_judges_both_ways(language, female, male, wrong_of_female, wrong_of_male)


@pytest.mark.parametrize("language, original, sex, copy", [
    # a role noun opening a clause that acts on someone of its sex is someone else
    ("en", "Pt is the aunt of the bride; the bride is with her.", "F",
     "Pt is the uncle of the bride; the bride is with him."),
    # "the resident" is a doctor, not the person of an incident
    ("en", "The resident, a man, examined him.", "M", "The resident, a man, examined her."),
    # an apposition to another person's possessed noun is theirs
    ("en", "She says her flatmate, a woman in her 40s, hit her.", "F", "He says his flatmate, a woman in her 40s, hit him."),
    # a participle after "avoir" with an object is a verb, not a state
    ("fr", "Sa nièce l'a découvert confus et a prévenu le SAMU.", "M", "Sa nièce l'a découverte confuse et a prévenu le SAMU."),
    # "la patiente du box 2" opening the sentence is the patient
    ("es", "La paciente del box 2 ha pedido ver a su hermano.", "F", "El paciente del box 2 ha pedido ver a su hermano."),
    # a relative opening the sentence speaks for the patient
    ("es", "La hija dice que ella no come.", "F", "La hija dice que él no come."),
])
def test_someone_elses_words_may_stay(language: str, original: str, sex: str, copy: str) -> None:
    assert_reading_passes(language, original, sex, copy)


def test_a_possessive_follows_its_clauses_subject_of_its_sex() -> None:
    original = "The man in bed 2 called out because the gentleman opposite had taken off his mask."
    right = "The woman in bed 2 called out because the gentleman opposite had taken off his mask."
    wrong = "The woman in bed 2 called out because the gentleman opposite had taken off her mask."
    assert judge(original, right, "M", "en", READING) == []
    assert [f.reason for f in judge(original, wrong, "M", "en", READING)] == ["other person"]
    original = "The woman in bed 2 called out because the lady opposite had taken off her mask."
    right = "The man in bed 2 called out because the lady opposite had taken off her mask."
    assert judge(original, right, "F", "en", READING) == []
