"""The LLM rewriter's prompt, strict parsing and validation, and its retry/flag flow against a local
OpenAI-compatible server (a stand-in model that answers with the rule-based swap, or with planted faults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasmirror.backends.openai_backend import OpenAIBackend
from biasmirror.counterfactuals.base import RewriteInput
from biasmirror.counterfactuals.llm_rewriter import (CANNOT_SWAP_REASON, Answer, AnswerError, LlmRewriter, PromptBuilder, PromptError,
                                                     load_examples, parse_answer, validate)
from local_openai_server import LocalChatServer, completion, is_retry, last_record, rule_swap_answer

RECORD = RewriteInput("She is a 67 year old woman with chest pain since 2 hours. Her husband found her. "
                      "She took aspirin 325 mg and denies fever.", "Hypertension, on lisinopril 10 mg.", "F", "en")


# -- prompt ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "name"), [("en", "English"), ("fr", "French"), ("es", "Spanish")])
def test_default_prompt_has_seven_examples_per_language(language: str, name: str) -> None:
    builder = PromptBuilder()
    item = RewriteInput("texte", None, "M", language)
    messages = builder.messages(item)
    assert len(messages) == 1 + 2 * 7 + 1
    assert messages[0].role == "system" and f"written in {name}" in messages[0].content
    assert "$" not in messages[0].content
    roles = [m.role for m in messages[1:]]
    assert roles == ["user", "assistant"] * 7 + ["user"]
    assert json.loads(messages[-1].content) == {"target_sex": "F", "record": {"sex": "M", "hpi": "texte", "pmh": None}}
    for user, assistant in zip(messages[1:-1:2], messages[2:-1:2]):
        asked = json.loads(user.content)
        answer = json.loads(assistant.content)
        assert asked["target_sex"] != asked["record"]["sex"]
        assert answer.get("sex", asked["target_sex"]) == asked["target_sex"] or "cannot_swap" in answer
    assert any("cannot_swap" in json.loads(m.content) for m in messages[2:-1:2])


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_every_shipped_example_passes_the_validator(language: str) -> None:
    examples, digest = load_examples(language)
    assert len(examples) == 7 and len(digest) == 64
    swaps = [e for e in examples if "cannot_swap" not in e.answer]
    assert len(swaps) == 6 and {e.record["sex"] for e in swaps} == {"F", "M"}
    for example in swaps:
        item = RewriteInput(example.record["hpi"], example.record["pmh"], example.record["sex"], language)
        assert validate(Answer(**example.answer), item, placebo=False) == []
        assert example.answer["hpi"] != example.record["hpi"]


def test_placebo_prompt_targets_the_own_sex_and_shows_identity_answers() -> None:
    messages = PromptBuilder(placebo=True, k_shots=3).messages(RECORD)
    assert len(messages) == 1 + 6 + 1
    for user, assistant in zip(messages[1:-1:2], messages[2:-1:2]):
        asked = json.loads(user.content)
        assert asked["target_sex"] == asked["record"]["sex"]
        assert json.loads(assistant.content) == asked["record"]
    assert json.loads(messages[-1].content)["target_sex"] == "F"


def test_custom_template_and_examples_change_the_manifest(tmp_path: Path) -> None:
    default = PromptBuilder()
    (tmp_path / "system.txt").write_text("Swap the sex in this $language record. Answer in JSON.", encoding="utf-8")
    examples, _ = load_examples("en")
    (tmp_path / "en.json").write_text(json.dumps({"examples": [
        {"record": examples[0].record, "answer": examples[0].answer}]}), encoding="utf-8")
    custom = PromptBuilder(k_shots=1, system_template_path=tmp_path / "system.txt", examples_dir=tmp_path)
    messages = custom.messages(RECORD)
    assert messages[0].content == "Swap the sex in this English record. Answer in JSON." and len(messages) == 4
    assert custom.template_sha256 != default.template_sha256
    default.messages(RECORD)
    assert custom.manifest()["examples_sha256"]["en"] != default.manifest()["examples_sha256"]["en"]
    assert default.manifest()["k_shots"] == 7 and len(default.manifest()["prompt_template_sha256"]) == 64
    with pytest.raises(PromptError, match="1 examples asked|the file has 1"):
        PromptBuilder(k_shots=2, examples_dir=tmp_path).messages(RECORD)
    with pytest.raises(PromptError, match="no k-shot examples for language 'de'"):
        PromptBuilder().messages(RewriteInput("x", None, "F", "de"))
    (tmp_path / "bad.txt").write_text("Use $unknown here", encoding="utf-8")
    with pytest.raises(PromptError, match="placeholder"):
        PromptBuilder(system_template_path=tmp_path / "bad.txt")


# -- parsing and validation -----------------------------------------------------------------------------------


def test_parse_answer_accepts_exactly_the_two_shapes() -> None:
    assert parse_answer('{"sex": "M", "hpi": "He", "pmh": null}') == Answer("M", "He", None)
    assert parse_answer('```json\n{"sex": "F", "hpi": "x", "pmh": "y"}\n```') == Answer("F", "x", "y")
    assert parse_answer(' {"cannot_swap": "pregnancy"} ') == Answer(cannot_swap="pregnancy")


@pytest.mark.parametrize(("text", "problem"), [
    ("", "empty"),
    ("Sure! Here it is: {}", "does not start with a JSON object"),
    ('{"sex": "M", "hpi": "x"', "not valid JSON"),
    ('{"sex": "M", "hpi": "x", "pmh": null} trailing words', "not valid JSON"),
    ("[1, 2]", "does not start with a JSON object"),
    ('{"sex": "M", "hpi": "x"}', "missing pmh"),
    ('{"sex": "M", "hpi": "x", "pmh": null, "note": "Ms Smith"}', "1 unexpected key"),
    ('{"sex": "male", "hpi": "x", "pmh": null}', 'sex must be "F" or "M"'),
    ('{"sex": "M", "hpi": 3, "pmh": null}', "hpi must be a string or null"),
    ('{"cannot_swap": ""}', "non-empty reason"),
])
def test_parse_answer_rejects_everything_else(text: str, problem: str) -> None:
    with pytest.raises(AnswerError, match=problem) as error:
        parse_answer(text)
    assert "Smith" not in str(error.value)


def test_validate_lists_each_problem_without_quoting_text() -> None:
    swapped = json.loads(rule_swap_answer({"messages": [{"role": "user", "content": json.dumps(
        {"target_sex": "M", "record": {"sex": "F", "hpi": RECORD.hpi, "pmh": RECORD.pmh}})}]}))
    good = Answer(**swapped)
    assert validate(good, RECORD, placebo=False) == []
    # as a placebo answer (target F), the swap has the wrong sex and words of the other sex (the partner noun
    # 'wife' is not one: a partner's sex never flags a copy); 'man' is read in context, as a word of the patient
    assert validate(good, RECORD, placebo=True) == ['sex must be "F"', "4 word(s) in hpi still refer to a patient of sex M",
                                                    "1 word(s) in hpi still agree with a patient of sex M (sex word:1)"]
    leftover = Answer("M", good.hpi.replace("His wife", "Her husband"), good.pmh)
    assert validate(leftover, RECORD, placebo=False) == ["1 word(s) in hpi still refer to a patient of sex F"]
    dose = Answer("M", good.hpi.replace("325 mg", "352 mg"), good.pmh)
    assert validate(dose, RECORD, placebo=False) == ["numbers changed in hpi"]
    drug = Answer("M", good.hpi, good.pmh.replace("lisinopril", "losartan"))
    assert validate(drug, RECORD, placebo=False) == ["drug names changed in pmh"]
    negation = Answer("M", good.hpi.replace("denies", "reports"), good.pmh)
    assert validate(negation, RECORD, placebo=False) == ["negations changed in hpi"]
    short = Answer("M", good.hpi[:40], good.pmh)
    assert any("length changed by a factor" in p for p in validate(short, RECORD, placebo=False))
    assert validate(Answer("M", good.hpi, None), RECORD, placebo=False) == ["pmh is missing or empty"]
    assert validate(Answer("M", good.hpi, "x"), RewriteInput(RECORD.hpi, None, "F", "en"), False) == [
        "pmh must be null: the record has none"]


# -- the rewrite flow against a local server ------------------------------------------------------------------


def test_retry_repairs_a_bad_first_answer_and_refusals_are_flagged() -> None:
    def model(body, n):
        target, record = last_record(body)
        if "pregnant" in (record["hpi"] or ""):
            return 200, completion('{"cannot_swap": "She is pregnant with abdominal pain (the note says so)"}'), 0.0
        if "junk" in (record["hpi"] or "") and not is_retry(body):
            return 200, completion("I think the patient is fine."), 0.0
        return 200, completion(rule_swap_answer(body)), 0.0

    items = [RECORD, RewriteInput("He has junk symptoms and his back hurts.", None, "M", "en"),
             RewriteInput("She is pregnant with abdominal pain.", None, "F", "en")]
    with LocalChatServer(model) as server:
        rewriter = LlmRewriter(OpenAIBackend("m", base_url=server.url), "llm-m", PromptBuilder(k_shots=2))
        ok, repaired, refused = rewriter.rewrite_batch(items)
    assert ok.status == "ok" and ok.hpi.startswith("He is a 67 year old man") and ok.n_replacements >= 6
    assert repaired.status == "ok" and repaired.hpi == "She has junk symptoms and her back hurts."
    # the model's reason is free text that can quote the note: a fixed reason is stored instead
    assert refused.status == "flagged" and refused.flag_reason == CANNOT_SWAP_REASON and refused.hpi is None
    assert "pregnant" not in refused.flag_reason
    assert rewriter.counts.requests == 4 and rewriter.counts.retries == 1 and rewriter.counts.flagged_cannot_swap == 1
    retry_body = next(b for b in server.bodies if is_retry(b))
    assert retry_body["messages"][-2] == {"role": "assistant", "content": "I think the patient is fine."}
    assert "does not start with a JSON object" in retry_body["messages"][-1]["content"]


def test_an_answer_still_invalid_after_the_retry_is_flagged_with_the_reason() -> None:
    def model(body, n):
        answer = json.loads(rule_swap_answer(body))
        answer["hpi"] = answer["hpi"].replace("325 mg", "500 mg")
        return 200, completion(json.dumps(answer)), 0.0

    with LocalChatServer(model) as server:
        rewriter = LlmRewriter(OpenAIBackend("m", base_url=server.url), "llm-m", PromptBuilder(k_shots=1))
        (result,) = rewriter.rewrite_batch([RECORD])
    assert result.status == "flagged" and result.flag_reason == "invalid output after one retry: numbers changed in hpi"
    assert len(server.bodies) == 2


def test_backend_failures_leave_the_record_pending() -> None:
    with LocalChatServer(lambda body, n: (500, {"error": "down"}, 0.0)) as server:
        rewriter = LlmRewriter(OpenAIBackend("m", base_url=server.url, max_retries=1, backoff=0.01), "llm-m",
                               PromptBuilder(k_shots=1))
        assert rewriter.rewrite_batch([RECORD]) == [None]
    assert rewriter.counts.backend_errors == 1


def test_placebo_rewrite_keeps_the_sex_and_rejects_a_swap() -> None:
    with LocalChatServer(lambda body, n: (200, completion(rule_swap_answer(body)), 0.0)) as server:
        rewriter = LlmRewriter(OpenAIBackend("m", base_url=server.url), "llm-m", PromptBuilder(k_shots=1, placebo=True))
        (result,) = rewriter.rewrite_batch([RECORD])
    assert rewriter.name == "llm-m-placebo"
    assert result.status == "ok" and result.hpi == RECORD.hpi and result.n_replacements == 0
    assert all(last_record(b)[0] == "F" for b in server.bodies)


def test_the_constrained_answer_schema_accepts_exactly_the_answers_the_parser_takes() -> None:
    import jsonschema

    from biasmirror.backends.base import GenerationRequest
    from biasmirror.counterfactuals.llm_rewriter import answer_schema

    item = RewriteInput("She has chest pain.", None, "F", "en")
    schema = answer_schema(item, placebo=False)
    valid = [{"sex": "M", "hpi": "He has chest pain.", "pmh": None}, {"cannot_swap": "pregnancy"}]
    invalid = [{"sex": "F", "hpi": "x", "pmh": None}, {"sex": "M", "hpi": None, "pmh": None},
               {"sex": "M", "hpi": "x", "pmh": "y"}, {"sex": "M", "hpi": "x", "pmh": None, "note": "z"},
               {"cannot_swap": ""}]
    for answer in valid:
        jsonschema.validate(answer, schema)
        parse_answer(json.dumps(answer))
    for answer in invalid:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(answer, schema)
    with pytest.raises(jsonschema.ValidationError):  # a same-sex rewrite is always possible
        jsonschema.validate({"cannot_swap": "pregnancy"}, answer_schema(item, placebo=True))
    jsonschema.validate({"sex": "F", "hpi": "She has chest pain.", "pmh": None}, answer_schema(item, placebo=True))

    class Plain:  # a backend without structured outputs (e.g. transformers)
        name, model, is_local = "plain", "m", True

        def generate(self, requests):
            return []

    with pytest.raises(ValueError, match="cannot constrain decoding"):
        LlmRewriter(Plain(), "llm-m", constrained=True)

    class Vllm(Plain):
        name, structured_outputs = "openai", True

    rewriter = LlmRewriter(Vllm(), "llm-m", constrained=True)
    request = rewriter._request(rewriter.prompts.messages(item), item)
    assert isinstance(request, GenerationRequest) and json.loads(request.constraint) == {"json": schema}
    assert rewriter.manifest()["constrained_decoding"] is True
