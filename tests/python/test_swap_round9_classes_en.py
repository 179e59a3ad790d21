"""English error classes of issue 22's round 10 (docs/counterfactuals.md, "Round 10's rules, English"), read on
round 9's development errors: one case or more per class, each swapped both ways (the swap of ``a`` to the other
sex gives ``b``, the swap of ``b`` back gives ``a``). Every sentence is written for this test; none is copied from
a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a kinship title others call the patient, in quotes; "her" before the quote is an object
    ("F", "The neighbours call her 'Granny'; she lives alone and has not eaten for 3 days.",
     "The neighbours call him 'Grandad'; he lives alone and has not eaten for 3 days."),
    ("M", "Everyone on the estate calls him \"Uncle\"; he was found on the stairwell floor.",
     "Everyone on the estate calls her \"Auntie\"; she was found on the stairwell floor."),
    # ... while "call her GP" keeps the possessive
    ("F", "She will call her GP in the morning.", "He will call his GP in the morning."),
    ("M", "Staff at the bakery know him as 'Uncle ___'; he burnt his forearm on a tray.",
     "Staff at the bakery know her as 'Auntie ___'; she burnt her forearm on a tray."),
    # the patient's own description, in quotes, and a quote the patient speaks
    ("F", "She calls herself a 'real countrywoman' and was kicked by a cow.",
     "He calls himself a 'real countryman' and was kicked by a cow."),
    ("M", "He describes himself as a 'keen horseman' and was thrown at a canter.",
     "She describes herself as a 'keen horsewoman' and was thrown at a canter."),
    ("F", "In her own words, 'I'm not the sort of woman who makes a fuss,' yet she is grey and sweaty.",
     "In his own words, 'I'm not the sort of man who makes a fuss,' yet he is grey and sweaty."),
    # a sex word apposed to another patient
    ("M", "The other pt from the fire, a man in his 40s, went to theatre; he inhaled smoke too.",
     "The other pt from the fire, a man in his 40s, went to theatre; she inhaled smoke too."),
    ("F", "The patient in the adjacent cubicle, a man in his 60s, pressed the bell for her.",
     "The patient in the adjacent cubicle, a man in his 60s, pressed the bell for him."),
    # a son's or daughter's feeling about a parent: the parent is the patient, the possessive the child's
    ("F", "Her daughter, anxious that her mother is losing weight, brought her to the walk-in centre.",
     "His daughter, anxious that her father is losing weight, brought him to the walk-in centre."),
    ("F", "Son at bedside, worried that his mom is not drinking, asks for a drip.",
     "Son at bedside, worried that his dad is not drinking, asks for a drip."),
    # ... and a nephew's or niece's about an aunt or uncle
    ("F", "Her nephew, worried that his aunt is not coping at home, asked for a social work referral.",
     "His nephew, worried that his uncle is not coping at home, asked for a social work referral."),
    ("M", "His niece says her uncle has had three falls this month.",
     "Her niece says her aunt has had three falls this month."),
    ("M", "His son, angry with his father for hiding the pain, booked him in.",
     "Her son, angry with his mother for hiding the pain, booked her in."),
    # an object pronoun after a gerund in the patient's own clause is someone else of the patient's sex
    ("F", "Her sister is in the next cubicle; she collapsed while visiting her this morning.",
     "His sister is in the next cubicle; he collapsed while visiting her this morning."),
    ("M", "He looks after his grandfather and was turning him in bed when his back went.",
     "She looks after her grandfather and was turning him in bed when her back went."),
    ("F", "She had been feeding her granddaughter at home and tripped while carrying her to the car.",
     "He had been feeding his granddaughter at home and tripped while carrying her to the car."),
    ("F", "She looks after her mum and hurt her wrist while helping her out of the bath.",
     "He looks after his mum and hurt his wrist while helping her out of the bath."),
    # ... but not after a verb of saying, nor for a possessive
    ("F", "Her aunt visited; she says her son left without waking her.",
     "His aunt visited; he says his son left without waking him."),
    # a sex word said to be the partner changes with the partner
    ("F", "She says the man who pushed her down the stairs was her boyfriend.",
     "He says the woman who pushed him down the stairs was his girlfriend."),
    # the note's subject named by a sex word and a participle at the head of the sentence
    ("M", "The man found by the canal, who the paramedics think is a rough sleeper, is hypothermic.",
     "The woman found by the canal, who the paramedics think is a rough sleeper, is hypothermic."),
    # the sex word of a person who acts on the patient is someone else's
    ("F", "The man who found her at the foot of the stairs called 999.",
     "The man who found him at the foot of the stairs called 999."),
    # ... not when the participle is said with the patient ("the man seen with her")
    ("F", "The man seen with her at the bus stop is her ex-partner.",
     "The man seen with him at the bus stop is his ex-partner."),
    # "her" after a verb of injury or feeling, before a body part, is a possessive ("hurt her back while ...")
    ("F", "She was pushing the trolley when she felt her back give way.",
     "He was pushing the trolley when he felt his back give way."),
    ("F", "She hurt her back while moving a wardrobe; no saddle anaesthesia.",
     "He hurt his back while moving a wardrobe; no saddle anaesthesia."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round10_en_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "en")


def test_every_relative_of_the_list_takes_an_other_sex_pronoun() -> None:
    # one way only: in the other direction the relative and the patient share the pronoun
    assert swap_sex("Her godson drove her in after she fainted at his wedding.", "M", "en").text == (
        "His godson drove him in after he fainted at his wedding.")
    assert swap_sex("His great-niece, 9, was with him when he fell from her trampoline.", "F", "en").text == (
        "Her great-niece, 9, was with her when she fell from her trampoline.")


def test_a_childs_mum_takes_the_other_sex_pronoun() -> None:
    # one way only: in a girl's note the mother's "she" and the girl's cannot be told apart
    assert swap_sex("Toddler boy brought in by mum; she says he has had a rash since lunch.", "F", "en").text == (
        "Toddler girl brought in by mum; she says she has had a rash since lunch.")


def test_the_subject_of_a_verb_on_the_patient_is_someone_else() -> None:
    # one way only: in a man's note the aunt's "he" could not be told from the patient's
    assert swap_sex("Her aunt rang 999 when she saw the pt slump in the garden.", "M", "en").text == (
        "His aunt rang 999 when she saw the pt slump in the garden.")
    # with no other woman named, "she" is the patient
    assert swap_sex("She told the patient in the next bed she felt faint.", "M", "en").text == (
        "He told the patient in the next bed he felt faint.")


def test_a_childs_speech_keeps_only_a_pronoun_of_the_childs_sex() -> None:
    # one way only: in a woman's note the daughter's "she" and the patient's cannot be told apart
    assert swap_sex("His daughter says he keeps calling her by her aunt's name.", "F", "en").text == (
        "Her daughter says she keeps calling her by her aunt's name.")
