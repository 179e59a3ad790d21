"""English error classes of issue 22's round 15 (docs/counterfactuals.md, "Round 15's rules, English"), read first on
the errors of round 14 (a development set since its one measurement), then rounds 8 to 13: a few cases per class,
each swapped both ways (the swap of ``a`` to the other sex gives ``b``, the swap of ``b`` back gives ``a``). Every
sentence is written for this test; none is copied from a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # a sex code glued to the age, with a temperature or a device word in another list item; an age in days
    ("F", "Pt 81F, ?UTI, T 38.4, HR 102, confused since last night.",
     "Pt 81M, ?UTI, T 38.4, HR 102, confused since last night."),
    ("M", "54M, SOB, Temp 37.9, sats 91% on air.", "54F, SOB, Temp 37.9, sats 91% on air."),
    ("F", "Pt 5/7 F, BIB parents, sleepy and not waking for feeds.",
     "Pt 5/7 M, BIB parents, sleepy and not waking for feeds."),
    # two patients, one placed by a bay: the relative named through the placed one is the patient
    ("F", "She is the daughter of the gentleman in bed 7 and cut her hand on a broken jug.",
     "He is the son of the gentleman in bed 7 and cut his hand on a broken jug."),
    ("M", "The grandson of the lady in cubicle 9 collapsed in the corridor; he is now being assessed himself.",
     "The granddaughter of the lady in cubicle 9 collapsed in the corridor; she is now being assessed herself."),
    ("M", "The man in bed 3 is the father of the girl in bay 1; he was the driver.",
     "The woman in bed 3 is the mother of the girl in bay 1; she was the driver."),
    # (a couple changes together)
    ("F", "The wife of the man in bay 11 wants to know when her scan is.",
     "The husband of the woman in bay 11 wants to know when his scan is."),
    # a companion after a gerund's preposition is someone else of the patient's sex
    ("F", "The niece of the lady in bed 4 felt faint while chatting with her and is now on a trolley herself.",
     "The nephew of the lady in bed 4 felt faint while chatting with her and is now on a trolley himself."),
    # a kinship noun fronted before the pronoun, its complement after a coordinated noun, or in a list after "a"
    ("M", "Uncle and legal guardian of three teenagers, he cannot stay overnight.",
     "Aunt and legal guardian of three teenagers, she cannot stay overnight."),
    ("F", "A widow, grandmother and keen swimmer, she tore her shoulder in the pool.",
     "A widower, grandfather and keen swimmer, he tore his shoulder in the pool."),
    # the subject of a verb of judging after a clause where another person assessed the patient
    ("F", "The crisis team nurse spoke to her at length; she feels she is no longer at risk.",
     "The crisis team nurse spoke to him at length; she feels he is no longer at risk."),
    # a role noun after a career verb with "as", or as the patient's second predicate after "and is"
    ("F", "She retired as a headmistress last year and fell while gardening.",
     "He retired as a headmaster last year and fell while gardening."),
    ("M", "He drove lorries for years and is now a househusband.",
     "She drove lorries for years and is now a housewife."),
    # a role noun said of the partner changes with the partner, as in apposition
    ("F", "Her husband is a postman and was on his round when she fell.",
     "His wife is a postwoman and was on her round when he fell."),
    # "the lady"/"the gentleman" after a label's colon is the patient named again
    ("M", "Handover from the night team: the gentleman is more alert and his son has been updated.",
     "Handover from the night team: the lady is more alert and her son has been updated."),
    # ... and after the copula heading a question
    ("F", "Is the lady in cubicle 6 still waiting for her X-ray?",
     "Is the gentleman in cubicle 6 still waiting for his X-ray?"),
    # a child's word for the patient: "Mum's" as "Mum is", a bare "mum" after "Her son says", the other parent
    ("F", "Her son rang the ward: 'Mom's been very muddled, she thinks it is 1980.'",
     "His son rang the ward: 'Dad's been very muddled, he thinks it is 1980.'"),
    ("F", "Her son says mom has not eaten since Tuesday.", "His son says dad has not eaten since Tuesday."),
    ("M", "Per his daughter: \"Dad has stopped going out since Mum passed.\"",
     "Per her daughter: \"Mum has stopped going out since Dad passed.\""),
    # a reflexive after the copula of another person's noun is that person's
    ("M", "His brother is himself on dialysis and cannot look after him.",
     "Her brother is himself on dialysis and cannot look after her."),
    # a title apposed to a bare noun heading a sentence
    ("M", "He lives alone. Neighbour, Mrs ___, checks on him daily.",
     "She lives alone. Neighbour, Mrs ___, checks on her daily."),
    # a pronoun after a semicolon goes on from a relative heading a clause that says nothing of the patient
    ("M", "Pt tearful. Son works offshore and has been told; he will fly back tonight.",
     "Pt tearful. Son works offshore and has been told; he will fly back tonight."),
    # "their" parent after the patient's children: the patient, or the partner
    ("M", "His sons have been sleeping over to keep an eye on their father since the fall.",
     "Her sons have been sleeping over to keep an eye on their mother since the fall."),
    # a title apposed to another person's noun is that person's
    ("F", "Her landlady, Mrs ___, heard her fall and let the crew in.",
     "His landlady, Mrs ___, heard him fall and let the crew in."),
    # a parent who brought the patient in is the patient's parent wherever the note names it
    ("F", "Pt 23F, fainted at work, BIB mum; mum says she has not eaten today.",
     "Pt 23M, fainted at work, BIB mum; mum says he has not eaten today."),
    # a pronoun of the other sex whose nearest antecedent is a member of staff named after the partner
    ("F", "She came in with her husband. Her cardiologist, Dr. ___, saw her in May; he stopped her bisoprolol and "
          "asked her to come back.",
     "He came in with his wife. His cardiologist, Dr. ___, saw him in May; he stopped his bisoprolol and asked him "
     "to come back."),
    # another person's phrase does not run across a sentence's end
    ("M", "The pain goes through to his back. He is a grandfather who still works full time.",
     "The pain goes through to her back. She is a grandmother who still works full time."),
    # binding: an adverb after the auxiliary, a gerund after the injury it caused, a noun subject
    ("M", "His brother says he has already seen him twice this week and that he has never seen him this breathless.",
     "Her brother says he has already seen her twice this week and that he has never seen her this breathless."),
    ("F", "She cares for her mother and pulled her shoulder turning her in bed.",
     "He cares for his mother and pulled his shoulder turning her in bed."),
    ("F", "She looks after her disabled sister and shares a flat with her.",
     "He looks after his disabled sister and shares a flat with her."),
    ("F", "Her niece does her shopping; she is increasingly concerned about her.",
     "His niece does his shopping; she is increasingly concerned about him."),
    ("M", "His son says his dad has been shouting at him since the new tablets.",
     "Her son says his mom has been shouting at him since the new tablets."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round15_en_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "en")


def test_a_pronoun_of_the_other_sex_after_staff_with_modifiers_or_an_owner_is_theirs() -> None:
    # one way: in a note where the patient and that person share a sex, the pronoun cannot be told apart
    assert swap_sex("The on-call psychiatry registrar has assessed her; he is happy for her to go home.", "M",
                    "en").text == "The on-call psychiatry registrar has assessed him; he is happy for him to go home."
    assert swap_sex("He tripped on parade and his platoon officer, Lt ___, came with him; she knows his next of kin.",
                    "F", "en").text == (
        "She tripped on parade and her platoon officer, Lt ___, came with her; she knows her next of kin.")


def test_a_second_verbs_object_after_a_doctor_heading_the_clause_is_the_patient() -> None:
    assert swap_sex("Her GP, Dr. ___, saw her on Friday; she doubled her ramipril and told her to rest.", "M",
                    "en").text == "His GP, Dr. ___, saw him on Friday; she doubled his ramipril and told him to rest."


def test_a_pronoun_of_the_other_sex_saying_something_of_the_patient_is_someone_else() -> None:
    assert swap_sex("She was sent in by her GP, who examined her; he thinks she needs a CT.", "M", "en").text == (
        "He was sent in by his GP, who examined him; he thinks he needs a CT.")


def test_a_blocker_in_the_same_item_still_blocks_the_code() -> None:
    assert swap_sex("Tmax 101F overnight, pt 72 M.", "F", "en").text == "Tmax 101F overnight, pt 72 F."
    assert swap_sex("16F Foley inserted, 61M.", "F", "en").text == "16F Foley inserted, 61F."


def test_an_adult_note_with_days_is_not_a_childs_note() -> None:
    # "x3/7" counts days of symptoms, not a baby's age: "dad" there is still the patient
    assert swap_sex("Cough x3/7. He is a single dad of two.", "F", "en").text == (
        "Cough x3/7. She is a single mom of two.")


def test_the_placed_phrase_elsewhere_names_two_other_people() -> None:
    assert swap_sex("She was pushed over by the son of the man in bed 4.", "M", "en").text == (
        "He was pushed over by the son of the man in bed 4.")


def test_a_relative_at_the_head_who_acts_on_someone_is_not_the_patient() -> None:
    assert swap_sex("The daughter of the lady in bay 8 slapped her during the visit.", "M", "en").text == (
        "The daughter of the lady in bay 8 slapped him during the visit.")


def test_a_couple_at_the_head_stays_when_the_note_names_its_own_patient() -> None:
    assert swap_sex("The husband of the woman in bay 2 caught our pt as she fell.", "M", "en").text == (
        "The husband of the woman in bay 2 caught our pt as he fell.")


def test_a_relative_who_speaks_of_the_placed_child_leaves_the_child_the_patient() -> None:
    assert swap_sex("The mother of the boy in cubicle 5 says he swallowed a coin.", "F", "en").text == (
        "The mother of the girl in cubicle 5 says she swallowed a coin.")


def test_a_possessive_mum_is_still_someone_elses() -> None:
    assert swap_sex("Her daughter says Mum's flat is very cold.", "M", "en").text == (
        "His daughter says Mum's flat is very cold.")
