"""benchmarks/llm_real_model.py counts the rewriter's flag reasons by kind: every problem the rewriter's own code
reports (its parser, its validation, the shared checks) gets a kind of the fixed vocabulary, and no kind ever
carries the reason's text (a `cannot swap` reason is the model's words)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from biasmirror.counterfactuals.base import RewriteInput
from biasmirror.counterfactuals.llm_rewriter import Answer, AnswerError, parse_answer, validate

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from llm_real_model import PROBLEM_KINDS, reason_kinds  # noqa: E402

VOCABULARY = {kind for kind, _ in PROBLEM_KINDS} | {"ok", "other", "cut at the token limit",
                                                    "cannot swap (the model declined)"}
RETRY = "invalid output after one retry: "


def parse_problem(text: str) -> str:
    with pytest.raises(AnswerError) as raised:
        parse_answer(text)
    return str(raised.value)


@pytest.mark.parametrize(("answer", "kind"), [
    ("", "empty answer"),
    ("Sure, here is the record", "not JSON"),
    ('{"sex": "M", "hpi": "x"', "invalid JSON"),
    ('{"sex": "M"}', "wrong keys"),
    ('{"cannot_swap": "  "}', "empty cannot_swap"),
    ('{"sex": "M", "hpi": 3, "pmh": null}', "field not a string"),
    ('{"sex": "X", "hpi": "x", "pmh": null}', "wrong sex"),
])
def test_every_parse_problem_has_its_kind(answer: str, kind: str) -> None:
    assert reason_kinds(RETRY + parse_problem(answer)) == [kind]


def test_a_cut_answer_counts_the_cut_and_the_problem() -> None:
    problem = parse_problem('{"sex": "M", "hpi": "x') + " (the answer was cut at the token limit)"
    assert sorted(reason_kinds(RETRY + problem)) == ["cut at the token limit", "invalid JSON"]


def test_validation_problems_have_their_kinds() -> None:
    original = RewriteInput(hpi="She took 5 mg of aspirin and denies fever; she reports chest pain since morning.",
                            pmh=None, original_sex="F", language="en")
    copy = Answer(sex="F", hpi="She took 50 mg of ibuprofen and has fever.", pmh="diabetes")
    problems = validate(copy, original, placebo=False)
    kinds = reason_kinds(RETRY + "; ".join(problems))
    assert len(kinds) == len(problems) and "other" not in kinds
    assert {"wrong sex", "wrong-sex words left", "numbers changed", "drug names changed", "negations changed",
            "length changed", "field should be null"} <= set(kinds)
    assert reason_kinds(RETRY + "; ".join(validate(Answer(sex="M", hpi="", pmh=None), original, False))) == [
        "field missing or empty"]


def test_kinds_never_carry_the_reason_text() -> None:
    model_words = "the patient: Jane Doe (42), pregnant"
    assert reason_kinds("cannot swap: " + model_words) == ["cannot swap (the model declined)"]
    assert reason_kinds(model_words) == ["other"]
    assert reason_kinds(RETRY + model_words) == ["other"]
    assert reason_kinds(None) == ["ok"]
    for reason in ("cannot swap: " + model_words, RETRY + model_words + "; " + model_words):
        assert set(reason_kinds(reason)) <= VOCABULARY
