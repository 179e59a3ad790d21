"""The English reading of the second opinion (referents_en.py), class by class (issue 22, round 12): each class
of false flag fixed keeps a correct copy unflagged and still flags a wrong one, in both directions. Sentences
written for these tests."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.second_opinion import judge
from reading_cases import READING, assert_reading_judges_both_ways


# (text written of a woman, the same text of a man, a wrong copy of the woman's text, a wrong copy of the man's)
CASES = [
    # the note's subject, a definite noun at a clause start
    ("The old lady in cubicle 9 says her knee gave way.", "The old gentleman in cubicle 9 says his knee gave way.",
     "The old lady in cubicle 9 says his knee gave way.", "The old gentleman in cubicle 9 says her knee gave way."),
    # a noun with the age after it
    ("The hairdresser, 41, cut her thumb.", "The hairdresser, 41, cut his thumb.",
     "The hairdresser, 41, cut her thumb.", "The hairdresser, 41, cut his thumb."),
    # the patient quoted: "I'm a ..."
    ("She says, 'I'm a grandmother of six, not a child.'", "He says, 'I'm a grandfather of six, not a child.'",
     "He says, 'I'm a grandmother of six, not a child.'", "She says, 'I'm a grandfather of six, not a child.'"),
    # a partner noun as the patient's predicate: the patient's; the person after "of" is the partner
    ("The woman in bed 3 is the wife of the man in bed 4; she fainted.",
     "The man in bed 3 is the husband of the woman in bed 4; he fainted.",
     "The man in bed 3 is the wife of the man in bed 4; he fainted.",
     "The woman in bed 3 is the husband of the woman in bed 4; she fainted."),
    # a form of address or nickname
    ("The market calls her 'Auntie'; she fainted at her stall.", "The market calls him 'Uncle'; he fainted at his stall.",
     "The market calls him 'Auntie'; he fainted at his stall.", "The market calls her 'Uncle'; she fainted at her stall."),
    # compound role nouns: "ex-...", "-woman"/"-man"
    ("An ex-policewoman, she fell from a bike.", "An ex-policeman, he fell from a bike.",
     "An ex-policewoman, he fell from a bike.", "An ex-policeman, she fell from a bike."),
    ("She is a keen sportswoman; short of breath today.",
     "He is a keen sportsman; short of breath today.",
     "He is a keen sportswoman; short of breath today.",
     "She is a keen sportsman; short of breath today."),
]


@pytest.mark.parametrize("female, male, wrong_of_female, wrong_of_male", CASES)
def test_correct_copies_pass_and_wrong_copies_are_flagged_both_ways(female: str, male: str, wrong_of_female: str,
                                                                     wrong_of_male: str) -> None:
    assert_reading_judges_both_ways("en", female, male, wrong_of_female, wrong_of_male)


def test_codes_and_units_that_look_like_a_sex_or_a_title_are_not_the_patient() -> None:
    # a GCS code, milliseconds and "miss" as a verb stay as they are; the pronouns change
    for original, copy, sex in [("GCS 14 (E4V4M6); she is drowsy.", "GCS 14 (E4V4M6); he is drowsy.", "F"),
                                ("He has a QRS of 120 ms. He may miss his shift.",
                                 "She has a QRS of 120 ms. She may miss her shift.", "M")]:
        assert judge(original, copy, sex, "en", READING) == []
        back = "M" if sex == "F" else "F"
        assert judge(copy, original, back, "en", READING) == []
    # a sex code after a decade is the patient's
    assert judge("Pt 60s F, found on the floor.", "Pt 60s F, found on the floor.", "F", "en", READING)
    assert judge("Pt 60s F, found on the floor.", "Pt 60s M, found on the floor.", "F", "en", READING) == []
