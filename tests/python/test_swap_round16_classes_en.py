"""English error classes of issue 22's round 17 (docs/counterfactuals.md, "Round 17, English"), read first on the
errors of round 16 (a development set since its one measurement), then round 15: a few cases per class, each
swapped both ways (the swap of ``a`` to the other sex gives ``b``, the swap of ``b`` back gives ``a``). Every
sentence is written for this test; none is copied from a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a child's wish about a parent names the patient, also when the patient owns the child by a title; the
    # possessive is the child's and is kept
    ("F", "Ms ___'s daughter, who flew in this morning, requests that her mother be kept comfortable.",
     "Mr ___'s daughter, who flew in this morning, requests that her father be kept comfortable."),
    ("M", "The pt's son insists that his father never drinks.",
     "The pt's son insists that his mother never drinks."),
    ("F", "Ms ___'s grandson wants his grandma to come home with him tonight.",
     "Mr ___'s grandson wants his grandpa to come home with him tonight."),
    ("F", "Her son brought her in from the care home and says his mum has stopped eating.",
     "His son brought him in from the care home and says his dad has stopped eating."),
    # an emphatic reflexive after a role noun in an apposition is that person's ...
    ("M", "His son, a paramedic himself, asks that his father be seen soon.",
     "Her son, a paramedic himself, asks that his mother be seen soon."),
    ("F", "Her niece, a pharmacist herself, has brought in all her tablets.",
     "His niece, a pharmacist herself, has brought in all his tablets."),
    # ... but in a phrase fronted before the subject pronoun it is the subject's
    ("F", "A keen runner herself, she collapsed two miles from the finish.",
     "A keen runner himself, he collapsed two miles from the finish."),
    ("M", "BIBA from work. Once a paramedic himself, he refused to be carried.",
     "BIBA from work. Once a paramedic herself, she refused to be carried."),
    ("F", "A physio herself, the patient knows which exercises to do.",
     "A physio himself, the patient knows which exercises to do."),
    ("M", "He was brought in by his son, who is a doctor himself.",
     "She was brought in by her son, who is a doctor himself."),
    ("F", "Her mum, who was a nurse herself, rang for the ambulance.",
     "His mum, who was a nurse herself, rang for the ambulance."),
    # an emphatic reflexive before or after a noun apposed or fronted to the patient leaves it the patient's
    ("M", "Mr ___, himself a retired fireman, inhaled smoke at a house fire.",
     "Ms ___, herself a retired firewoman, inhaled smoke at a house fire."),
    ("F", "A grandmother herself, she knew the rash was not normal.",
     "A grandfather himself, he knew the rash was not normal."),
    # the member of staff the patient was seen by is the antecedent of a pronoun of the other sex after it
    ("F", "She was reviewed by the surgical registrar; he wants her kept nil by mouth.",
     "He was reviewed by the surgical registrar; he wants him kept nil by mouth."),
    # a relative's device, operation or treatment is the relative's ("undergoing" binds the possessive)
    ("M", "His father had his pacemaker fitted at 60 and he fears the same.",
     "Her father had his pacemaker fitted at 60 and she fears the same."),
    ("F", "Her sister had her gallbladder out last year; she now has the same pain.",
     "His sister had her gallbladder out last year; he now has the same pain."),
    # a title before the de-identified name keeps its own pair
    ("F", "Lady ___ was thrown from her horse at the point-to-point.",
     "Lord ___ was thrown from his horse at the point-to-point."),
    # the British "... lady" jobs pair with "... man"
    ("F", "She works as a tea lady on the wards and slipped on a wet floor.",
     "He works as a tea man on the wards and slipped on a wet floor."),
    ("M", "He is a dustman and felt his back go while lifting a bin.",
     "She is a dustwoman and felt her back go while lifting a bin."),
    # "her" before a state and then a place is the object; before a body noun after a verb of perceiving, the
    # possessive
    ("F", "The carer found her breathless beside the bed.", "The carer found him breathless beside the bed."),
    ("F", "Her son found her drowsy next to the radiator.", "His son found him drowsy next to the radiator."),
    ("M", "He noticed his fingers turning white in the cold.", "She noticed her fingers turning white in the cold."),
    ("F", "Her husband noticed her lips going blue.", "His wife noticed his lips going blue."),
    ("F", "The consultant wants her monitored overnight and kept nil by mouth.",
     "The consultant wants him monitored overnight and kept nil by mouth."),
    # the patient's own child named without a sex: a pronoun after it of the sex the patient is not, and the object
    # of a verb of care of the patient's sex, are the child's
    ("F", "She came in with her baby because there was nobody to feed him at home.",
     "He came in with his baby because there was nobody to feed him at home."),
    ("M", "He has brought his youngest along; there is no one to collect her from nursery.",
     "She has brought her youngest along; there is no one to collect her from nursery."),
    # a sex word in apposition with a person the patient knows is that person
    ("M", "Mr ___ was knocked off his bike; the man who stopped to help, his colleague, rang for an ambulance.",
     "Ms ___ was knocked off her bike; the man who stopped to help, her colleague, rang for an ambulance."),
    ("F", "She was found by a woman, her lodger, who rang 999.",
     "He was found by a woman, his lodger, who rang 999."),
    # a pronoun after a semicolon goes on from a relative whose clause only says what the relative is to the patient
    ("M", "His brother is his next of kin; he has been phoned and is coming in.",
     "Her brother is her next of kin; he has been phoned and is coming in."),
    ("F", "Her niece, a student, is her only contact; she has been called.",
     "His niece, a student, is his only contact; she has been called."),
]


def test_a_pronoun_of_the_other_sex_after_the_patients_child_is_the_childs() -> None:
    assert swap_sex("She brought her eldest with her; he is waiting outside.", "M", "en").text == (
        "He brought his eldest with him; he is waiting outside.")


def test_a_boys_title_becomes_a_girls() -> None:
    # (one way: "Miss ___" is also a woman's title, and goes back to "Mr ___")
    assert swap_sex("Master ___, 9, trapped his finger in a car door.", "F", "en").text == (
        "Miss ___, 9, trapped her finger in a car door.")


def test_master_elsewhere_is_kept() -> None:
    assert swap_sex("He is studying for a master's degree.", "F", "en").text == (
        "She is studying for a master's degree.")


def test_a_sex_word_with_its_own_body_in_apposition_is_still_the_patient() -> None:
    assert swap_sex("Mrs ___ fell at home. The lady, her face bloodied, was helped up by her son.", "M",
                    "en").text == "Mr ___ fell at home. The gentleman, his face bloodied, was helped up by his son."


@pytest.mark.parametrize(("sex", "text", "copy"), CASES)
def test_round17_classes_swap_both_ways(sex: str, text: str, copy: str) -> None:
    assert_swaps_both_ways(sex, text, copy, "en")
