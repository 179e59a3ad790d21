"""The one shape of the swapper's class tests: a sentence about a patient of one sex and its correct copy, each
the swap of the other (every round's class cases are written to go both ways)."""

from __future__ import annotations

from biasmirror.counterfactuals.rules import swap_sex


def other(sex: str) -> str:
    return "M" if sex == "F" else "F"


def assert_swaps_both_ways(sex: str, text: str, copy: str, language: str) -> None:
    """`text` (about a patient of `sex`) swaps to `copy`, and `copy` swaps back to `text`."""
    assert swap_sex(text, other(sex), language).text == copy
    assert swap_sex(copy, sex, language).text == text
