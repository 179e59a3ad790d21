"""English error classes of issue 22's round 16 (docs/counterfactuals.md, "Round 16, English"), read first on the
errors of round 15 (a development set since its one measurement), then rounds 8 to 14: a few cases per class, each
swapped both ways (the swap of ``a`` to the other sex gives ``b``, the swap of ``b`` back gives ``a``). Every
sentence is written for this test; none is copied from a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a fronted phrase of two coordinated nouns before the patient's pronoun: both name the patient
    ("F", "A grandmother and retired postwoman, she slipped on the ice.",
     "A grandfather and retired postman, he slipped on the ice."),
    ("M", "Keen cyclist and stepfather of two, he came off his bike on the bypass.",
     "Keen cyclist and stepmother of two, she came off her bike on the bypass."),
    ("F", "A widow and part-time waitress, she burnt her forearm at work.",
     "A widower and part-time waiter, he burnt his forearm at work."),
    # a sex word apposed to the note's subject after a label's colon
    ("F", "Ambulance: the rider, a young woman, was thrown over the handlebars.",
     "Ambulance: the rider, a young man, was thrown over the handlebars."),
    # a role noun heading the note with its own pronoun after it
    ("F", "The bride tripped on her dress at the reception and hurt her ankle.",
     "The groom tripped on his dress at the reception and hurt his ankle."),
    ("M", "The headmaster collapsed during assembly; he had felt unwell all morning.",
     "The headmistress collapsed during assembly; she had felt unwell all morning."),
    # a role noun in quotes as the patient's nickname
    ("F", "Called 'the Princess' by the other residents, she refuses her tablets.",
     "Called 'the Prince' by the other residents, he refuses his tablets."),
    # "the poor man": a sex word with an epithet of pity names the patient again
    ("M", "Mr ___ was on the floor for ten hours and the poor man is very cold.",
     "Ms ___ was on the floor for ten hours and the poor woman is very cold."),
    # "her" before a body noun that is also a bare verb, after a causative verb, is the object
    ("F", "The new inhaler made her cough, so she stopped it.",
     "The new inhaler made him cough, so he stopped it."),
    # an emphatic reflexive after the patient's object pronoun is the subject's; the doctor one is admitted under
    ("M", "His GP, a man he trusts, rang him himself with the result.",
     "Her GP, a man she trusts, rang her himself with the result."),
    ("F", "The surgeon, Mr ___, wants her admitted under him tonight.",
     "The surgeon, Mr ___, wants him admitted under him tonight."),
    # the object of a verb of care is the dependent the patient looks after
    ("M", "He is raising his nephew alone and worries about who would collect him from school.",
     "She is raising her nephew alone and worries about who would collect him from school."),
    ("F", "Sole carer of her elderly mother, she asks who will look after her tonight.",
     "Sole carer of his elderly mother, he asks who will look after her tonight."),
    ("F", "Only carer of a frail old lady, she slipped while helping to bathe her and now washing her is impossible.",
     "Only carer of a frail old lady, he slipped while helping to bathe her and now washing her is impossible."),
    # "lad"/"lass" as the patient named again at a clause's head
    ("M", "A young man was hit by a car; the lad cannot remember the impact.",
     "A young woman was hit by a car; the lass cannot remember the impact."),
    # a relative's verb of undergoing binds the possessive after it
    ("M", "He is anxious because his brother had his first heart attack at 50.",
     "She is anxious because her brother had his first heart attack at 50."),
    ("F", "Her aunt broke her hip last winter and she has been visiting daily.",
     "His aunt broke her hip last winter and he has been visiting daily."),
]


@pytest.mark.parametrize(("sex", "text", "copy"), CASES)
def test_round16_classes_swap_both_ways(sex: str, text: str, copy: str) -> None:
    assert_swaps_both_ways(sex, text, copy, "en")


def test_a_role_noun_heading_the_note_that_helps_the_patient_is_someone_else() -> None:
    assert swap_sex("The barmaid phoned an ambulance after she fell.", "M", "en").text == (
        "The barmaid phoned an ambulance after he fell.")


def test_a_role_noun_heading_the_note_that_acts_on_the_patient_is_someone_else() -> None:
    assert swap_sex("The policewoman brought her in; she is drunk.", "M", "en").text == (
        "The policewoman brought him in; he is drunk.")


def test_two_relatives_fronted_are_still_at_the_bedside() -> None:
    assert swap_sex("Son and daughter at bedside, she says she fell.", "M", "en").text == (
        "Son and daughter at bedside, he says he fell.")
