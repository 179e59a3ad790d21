"""English error classes of issue 22's round 9 (docs/counterfactuals.md, "Round 9's rules"), read on round 8's
development errors: one case or more per class, each swapped both ways (the swap of ``a`` to the other sex gives
``b``, the swap of ``b`` back gives ``a``). Every sentence is written for this test; none is copied from a gold
or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # -man/-woman occupations the one list lacked
    ("M", "He is a lineman with the phone company; fell from a pole.",
     "She is a linewoman with the phone company; fell from a pole."),
    ("F", "She works as a stuntwoman; landed badly on her L wrist.",
     "He works as a stuntman; landed badly on his L wrist."),
    ("F", "Ms ___, a retired air hostess, tripped on the kerb.", "Mr ___, a retired air steward, tripped on the kerb."),
    # a prefix glued to the role noun, an age word as a modifier
    ("M", "The pt, a 60-something ex-fireman, has a productive cough.",
     "The pt, a 60-something ex-firewoman, has a productive cough."),
    ("F", "She is vice-chairwoman of the rowing club; syncope at the regatta.",
     "He is vice-chairman of the rowing club; syncope at the regatta."),
    ("M", "He is a 30-odd man found asleep on a bench.", "She is a 30-odd woman found asleep on a bench."),
    # when the job is done, between "works" and "as"
    ("M", "He works weekends as a doorman at a club; punched in the face.",
     "She works weekends as a doorwoman at a club; punched in the face."),
    # a second role noun after a possessor, coordinated with the first
    ("F", "She is the vicar's widow and the village's postwoman; dizzy spells.",
     "He is the vicar's widower and the village's postman; dizzy spells."),
    # a sex word apposed to the patient, even after a participle phrase
    ("F", "The pt, a small elderly woman, is hard of hearing.", "The pt, a small elderly man, is hard of hearing."),
    ("M", "The male pt transferred from the rehab unit, a man in his 70s, is febrile.",
     "The female pt transferred from the rehab unit, a woman in her 70s, is febrile."),
    # ... not when another person stands between ("a taxi driver, a woman ...")
    ("F", "The pt flagged down a taxi driver, a woman in her 50s, after she fell.",
     "The pt flagged down a taxi driver, a woman in her 50s, after he fell."),
    # the patient's predicate in quotes and "I'm a ..." inside a quote
    ("F", "She jokes that she is \"the handywoman of the family\"; cut her thumb.",
     "He jokes that he is \"the handyman of the family\"; cut his thumb."),
    ("M", "He says, 'I'm a grandfather of six, I don't faint,' and then faints.",
     "She says, 'I'm a grandmother of six, I don't faint,' and then faints."),
    # ... but not in a relative's quote
    ("F", "Her niece says: \"I'm a mother myself, I know she is not right.\"",
     "His niece says: \"I'm a mother myself, I know he is not right.\""),
    # a child coordinated after "and" in the patient's predicate
    ("F", "She is a carer and a stepdaughter of the man in cubicle 4.",
     "He is a carer and a stepson of the man in cubicle 4."),
    # a knight's title before the placeholder; the form of address stays "madam"
    ("M", "Sir ___, a retired surgeon, is breathless on exertion.",
     "Dame ___, a retired surgeon, is breathless on exertion."),
    ("M", "He asks to be called 'Sir ___' by staff.", "She asks to be called 'Madam ___' by staff."),
    # a role noun after a possessor in the patient's predicate
    ("F", "She is the parish's lollipop lady and a widow; c/o chest pain.",
     "He is the parish's lollipop man and a widower; c/o chest pain."),
    # more British and compound role and kinship nouns of the one list
    ("M", "He is an ambulanceman and a keen oarsman; twisted his knee.",
     "She is an ambulancewoman and a keen oarswoman; twisted her knee."),
    ("F", "Pt is a stepmom of three and a great-aunt of twelve.", "Pt is a stepdad of three and a great-uncle of twelve."),
    # a grandparent called by name, without a possessive, is the patient
    ("F", "Grandson says granny has been off her legs since Monday.",
     "Grandson says grandad has been off his legs since Monday."),
    # "her" as an object before a state or a participle, and as a possessive after "noticed" before a finding
    ("F", "A cyclist found her collapsed by the canal.", "A cyclist found him collapsed by the canal."),
    ("F", "Her son noticed her swollen ankles last week.", "His son noticed his swollen ankles last week."),
    ("F", "Ortho wants her splinted and reviewed in clinic.", "Ortho wants him splinted and reviewed in clinic."),
    ("F", "A neighbour found her face-down in the hallway.", "A neighbour found him face-down in the hallway."),
    # ... but the possessive before a noun ("her collapsed lung", "her splinted wrist")
    ("F", "Her collapsed lung has re-expanded; her splinted wrist is numb.",
     "His collapsed lung has re-expanded; his splinted wrist is numb."),
    # another person's partner, named through that person, is kept
    ("M", "The wife of the man in bay 3 saw him fall and rang the bell.",
     "The wife of the man in bay 3 saw her fall and rang the bell."),
    ("F", "She was pushed over by the husband of her friend.", "He was pushed over by the husband of his friend."),
    # a relative's partner, for any relative of the one list
    ("F", "Her granddaughter and her husband drove her in.", "His granddaughter and her husband drove him in."),
    # a son or daughter speaking of a parent: the parent is the patient, the possessive the speaker's
    ("F", "Son states his mom has been more muddled since Friday.",
     "Son states his dad has been more muddled since Friday."),
    ("M", "Daughter reports her father has stopped eating.", "Daughter reports her mother has stopped eating."),
    ("F", "The youngest son states he found his mom on the landing.",
     "The youngest son states he found his dad on the landing."),
    ("M", "His son, who tells us he has never seen his father this pale, is a paramedic.",
     "Her son, who tells us he has never seen his mother this pale, is a paramedic."),
    # a role noun in a relative clause after another person's noun is that person's
    ("M", "He lives with his nephew, who is a fireman, and his wife.", "She lives with her nephew, who is a fireman, and her husband."),
    # a role noun apposed to the partner, or said of the partner after "who is", changes with the partner
    ("F", "Her husband, a retired postman, found her on the floor.", "His wife, a retired postwoman, found him on the floor."),
    ("M", "His girlfriend, who is a barmaid, brought him in.", "Her boyfriend, who is a barman, brought her in."),
    # the bride's groom: a partner
    ("F", "She is a bride of two days; her groom found her fitting.", "He is a groom of two days; his bride found him fitting."),
    # a kinship title used as the patient's name
    ("F", "She is known as 'Auntie Pat' on the estate; fell down the stairs.",
     "He is known as 'Uncle Pat' on the estate; fell down the stairs."),
]


def test_another_persons_partner_keeps_her_pronoun() -> None:
    # one way only: in a woman's note the patient's own "she" cannot be told from the other wife's
    assert swap_sex("The wife of the man in bay 3 rang the bell when she saw him fall.", "F", "en").text == (
        "The wife of the man in bay 3 rang the bell when she saw her fall.")


def test_a_possessive_not_of_the_speakers_sex_is_the_patients() -> None:
    # one way only: in a man's note "Son says his mother" reads as the son's mother
    assert swap_sex("Son says her mother is visiting from Leeds.", "M", "en").text == (
        "Son says his mother is visiting from Leeds.")


def test_a_doctor_as_subject_keeps_his_pronoun_in_a_womans_note() -> None:
    # one way only, as above: in a man's note "he" may be the doctor or the patient
    assert swap_sex("Dr ___ examined her at 14:00; he suspects a scaphoid fracture.", "M", "en").text == (
        "Dr ___ examined him at 14:00; he suspects a scaphoid fracture.")
    # a partner named after the doctor is still the nearest: it changes, and the pronoun with it
    assert swap_sex("Dr ___ phoned her husband; he is on his way.", "M", "en").text == (
        "Dr ___ phoned his wife; she is on her way.")


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round9_en_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "en")


def test_new_role_nouns_are_in_the_one_list() -> None:
    pairs = person_nouns_en.pairs("role")
    for female, male in (("linewoman", "lineman"), ("stuntwoman", "stuntman"), ("deliverywoman", "deliveryman"),
                         ("air hostess", "air steward")):
        assert pairs[female] == male
