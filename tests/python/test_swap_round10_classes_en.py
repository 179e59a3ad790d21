"""English error classes of issue 22's round 11 (docs/counterfactuals.md, "Round 11's rules, English"), read on
round 10's development errors: one case or more per class, each swapped both ways (the swap of ``a`` to the other
sex gives ``b``, the swap of ``b`` back gives ``a``). Every sentence is written for this test; none is copied from
a gold or held-out set."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals.rules import swap_sex
from swap_cases import assert_swaps_both_ways

# (sex of a, a, b)
CASES = [
    # the patient named again by a sex word heading a sentence or a clause
    ("M", "The gentleman on trolley 7 has removed his oxygen mask again and says he feels fine.",
     "The lady on trolley 7 has removed her oxygen mask again and says she feels fine."),
    ("F", "Ms ___ has had a cough for a week. The elderly lady is short of breath and her GP is away.",
     "Mr ___ has had a cough for a week. The elderly gentleman is short of breath and his GP is away."),
    ("F", "BP 90/60; the young woman is pale and says she has bled heavily since Monday.",
     "BP 90/60; the young man is pale and says he has bled heavily since Monday."),
    # a sex code after an age by decade
    ("M", "Pt 60s M, found on a park bench; he says he has had no food since Friday.",
     "Pt 60s F, found on a park bench; she says she has had no food since Friday."),
    ("F", "Patient 70s F from sheltered housing; she is dizzy on standing.",
     "Patient 70s M from sheltered housing; he is dizzy on standing."),
    # a role noun heading the sentence with the age in apposition
    ("F", "The stewardess, 29, collapsed on the flight; her colleague came with her.",
     "The steward, 29, collapsed on the flight; his colleague came with him."),
    ("M", "The headmaster of the village school, 58, slipped on ice and hurt his wrist.",
     "The headmistress of the village school, 58, slipped on ice and hurt her wrist."),
    # "her" before "talking" and a preposition is the object of a verb of finding
    ("F", "Her brother found her talking to herself in the garden.",
     "His brother found him talking to himself in the garden."),
]


@pytest.mark.parametrize(("sex", "a", "b"), CASES, ids=[c[1][:45] for c in CASES])
def test_round11_en_class_swaps_both_ways(sex: str, a: str, b: str) -> None:
    assert_swaps_both_ways(sex, a, b, "en")


def test_a_sex_word_named_as_the_patients_relative_is_kept() -> None:
    assert swap_sex("The woman in the next cubicle is his sister; both were in the car.", "F", "en").text == (
        "The woman in the next cubicle is her sister; both were in the car.")


def test_the_patients_own_mum_in_a_note_that_names_her_kids() -> None:
    # one way only: "dad" goes back to "mom", the first entry of the lexicon
    assert swap_sex("She tells us she is a single mum and her kids are with a neighbour.", "M", "en").text == (
        "He tells us he is a single dad and his kids are with a neighbour.")
