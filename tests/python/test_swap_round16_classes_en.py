"""English error classes of issue 22's round 17 (docs/counterfactuals.md, "Round 17, English"), read first on the
errors of round 16 (a development set since its one measurement), then round 15: a few cases per class, each
swapped both ways (the swap of ``a`` to the other sex gives ``b``, the swap of ``b`` back gives ``a``). Every
sentence is written for this test; none is copied from a gold or held-out set."""

from __future__ import annotations

import pytest

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
    # "her" before a state and then a place is the object; before a body noun after a verb of perceiving, the
    # possessive
    ("F", "The carer found her breathless beside the bed.", "The carer found him breathless beside the bed."),
    ("F", "Her son found her drowsy next to the radiator.", "His son found him drowsy next to the radiator."),
    ("M", "He noticed his fingers turning white in the cold.", "She noticed her fingers turning white in the cold."),
    ("F", "Her husband noticed her lips going blue.", "His wife noticed his lips going blue."),
]


@pytest.mark.parametrize(("sex", "text", "copy"), CASES)
def test_round17_classes_swap_both_ways(sex: str, text: str, copy: str) -> None:
    assert_swaps_both_ways(sex, text, copy, "en")
