"""The triage prompt, its label tokens (byte-level BPE merges), the vLLM request building and neutralization.

Only tokenizers are built here (no model): fast."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from biasmirror.counterfactuals.base import PLACEBO_SUFFIX
from biasmirror.counterfactuals.rules import swap_sex
from biasmirror.paths import project_dir
from biasmirror.triage.tiny_models import CHAT_TEMPLATE, train_byte_level_bpe, wrap_tokenizer
from biasmirror.triage.neutralize import neutralize_text, remaining_markers, transform_inputs
from biasmirror.triage.prompt import PromptError, PromptTemplate, TriagePrompt, load_template
from biasmirror.triage.prediction_runs import order_pending
from biasmirror.triage import vllm_scoring

RECORDS = [
    "age: 67\nsex: female\nchief complaint: Chest pain\nhistory of present illness: She reports 3 hours of pain.",
    "age: 45\nsex: male\nchief complaint: Ankle sprain\nhistory of present illness: He twisted his ankle.",
    "age: 30\nsex: female\nchief complaint: Fever\nhistory of present illness: Her husband says she is tired.",
]
LEVELS = (1, 2, 3, 4, 5)
# A template whose generation prompt ends with "ASSISTANT:" and one that ends with "ASSISTANT: " (a space the
# byte-level BPE merges with the digit that follows in the training text).
COLON_TEMPLATE = ("{% for m in messages %}{{ m['role'].upper() + ': ' + m['content'] + '\n' if m['role'] != 'assistant' "
                  "else 'ASSISTANT:' + m['content'] + '<|im_end|>' }}{% endfor %}"
                  "{% if add_generation_prompt %}{{ 'ASSISTANT:' }}{% endif %}")
TRAILING_SPACE_TEMPLATE = ("{% for m in messages %}{{ m['role'].upper() + ': ' + m['content'] + '\n' if m['role'] != 'assistant' "
                           "else 'ASSISTANT: ' + m['content'] + '<|im_end|>' }}{% endfor %}"
                           "{% if add_generation_prompt %}{{ 'ASSISTANT: ' }}{% endif %}")
NO_SYSTEM_TEMPLATE = ("{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}"
                      + CHAT_TEMPLATE)


@pytest.fixture(scope="module")
def bpe():
    corpus = RECORDS * 5 + ["pain 3/10 for 2 days, level 3, score 4, grade 1, 5 mg"] * 20
    return train_byte_level_bpe(corpus, vocab_size=400)


def tokenizer_with(bpe, template: str):
    return wrap_tokenizer(bpe, template)


def test_template_file_is_the_one_prompt() -> None:
    template = load_template()
    assert "{record}" in template.user and template.answer.strip() == "{level}"
    assert "PATIENT RECORD START" in template.user and "PATIENT RECORD END" in template.user
    assert re.fullmatch(r"[0-9a-f]{64}", template.sha256)


def test_label_tokens_come_from_the_training_sequence(bpe) -> None:
    tokenizer = tokenizer_with(bpe, CHAT_TEMPLATE)
    prompt = TriagePrompt(tokenizer, LEVELS)
    for level, token in prompt.label_token_ids.items():
        ids, labels = prompt.training_example(RECORDS[0], level)
        first = next(i for i, label in enumerate(labels) if label != -100)
        assert ids[first] == token == labels[first]
        assert ids[:first] == prompt.prompt_ids([RECORDS[0]])[0]
        # loss only on the answer: everything before is masked, the answer tokens are kept
        assert all(label == -100 for label in labels[:first]) and labels[first:] == ids[first:]
        assert tokenizer.decode(ids[first:]).startswith(str(level))


def test_a_space_merged_with_the_digit_is_the_label(bpe) -> None:
    """Answer ' 3' after 'ASSISTANT:': byte-level BPE makes ' 3' one token, which is the label, not '3'."""
    tokenizer = tokenizer_with(bpe, COLON_TEMPLATE)
    template = PromptTemplate("t", 1, "Triage.", "{record}", " {level}", "0" * 64)
    prompt = TriagePrompt(tokenizer, LEVELS, template)
    bare = {level: tokenizer(str(level), add_special_tokens=False)["input_ids"][0] for level in LEVELS}
    merged = {level: tokenizer(f" {level}", add_special_tokens=False)["input_ids"] for level in LEVELS}
    assert all(len(ids) == 1 for ids in merged.values()), "the tokenizer should have learned the ' 3' merges"
    assert prompt.label_token_ids == {level: ids[0] for level, ids in merged.items()}
    assert all(prompt.label_token_ids[level] != bare[level] for level in LEVELS)


def test_a_prompt_ending_in_a_space_is_cut_before_it(bpe) -> None:
    """The generation prompt ends with 'ASSISTANT: '; in training the space belongs to the ' 3' token, so the
    scoring prefix must stop before the space and the label is ' 3'."""
    tokenizer = tokenizer_with(bpe, TRAILING_SPACE_TEMPLATE)
    prompt = TriagePrompt(tokenizer, LEVELS)
    plain = tokenizer(prompt.prompt_text(RECORDS[1]), add_special_tokens=False)["input_ids"]
    (scored,) = prompt.prompt_ids([RECORDS[1]], verify=True)
    assert scored == plain[:-1]
    assert tokenizer.convert_ids_to_tokens(prompt.label_token_ids[4]) == "Ġ4"
    ids, labels = prompt.training_example(RECORDS[1], 4)
    assert ids[len(scored)] == prompt.label_token_ids[4] and labels[len(scored) - 1] == -100


def test_system_instruction_is_folded_when_the_template_rejects_it(bpe) -> None:
    tokenizer = tokenizer_with(bpe, NO_SYSTEM_TEMPLATE)
    prompt = TriagePrompt(tokenizer, LEVELS)
    messages = prompt.messages(RECORDS[0])
    assert [m["role"] for m in messages] == ["user"]
    assert messages[0]["content"].startswith(load_template().system)
    assert len(prompt.prompt_ids(RECORDS, verify=True)) == 3


def test_unusable_tokenizers_and_levels_are_refused(bpe) -> None:
    tokenizer = wrap_tokenizer(bpe, CHAT_TEMPLATE)
    tokenizer.chat_template = None
    with pytest.raises(PromptError, match="chat template"):
        TriagePrompt(tokenizer, LEVELS)
    with pytest.raises(PromptError, match="two levels"):
        TriagePrompt(tokenizer_with(bpe, CHAT_TEMPLATE), [3])
    with pytest.raises(PromptError, match="not one of"):
        TriagePrompt(tokenizer_with(bpe, CHAT_TEMPLATE), LEVELS).training_example(RECORDS[0], 7)


# ---- vLLM request building (vllm itself is not imported) ----------------------------------------------------
def test_vllm_requests_use_the_same_prompt_ids_and_label_tokens(bpe) -> None:
    prompt = TriagePrompt(tokenizer_with(bpe, CHAT_TEMPLATE), LEVELS)
    labels = [prompt.label_token_ids[level] for level in LEVELS]
    options = vllm_scoring.sampling_options(labels)
    assert options == {"max_tokens": 1, "temperature": 0.0, "logprobs": 5, "allowed_token_ids": labels}
    requests = vllm_scoring.token_prompts(prompt.prompt_ids(RECORDS))
    assert [r["prompt_token_ids"] for r in requests] == prompt.prompt_ids(RECORDS)
    engine = vllm_scoring.engine_options("/models/base", "/adapters/a")
    assert engine["enable_prefix_caching"] and engine["enable_lora"] and engine["max_lora_rank"] == 16
    assert "enable_lora" not in vllm_scoring.engine_options("/models/merged", None)


class _Logprob:
    def __init__(self, value: float) -> None:
        self.logprob = value


def test_vllm_logprobs_are_renormalised_over_the_levels() -> None:
    labels = [11, 12, 13]
    raw = [{11: _Logprob(math.log(0.2)), 12: _Logprob(math.log(0.1)), 13: _Logprob(math.log(0.1)), 99: _Logprob(-0.1)},
           {12: -0.5},  # raw mode: labels 11 and 13 fell outside the top-k
           {11: _Logprob(0.0), 12: _Logprob(-math.inf), 13: _Logprob(-math.inf)}]
    probabilities, missing = vllm_scoring.label_probabilities(raw, labels)
    np.testing.assert_allclose(probabilities[0], [0.5, 0.25, 0.25])
    np.testing.assert_allclose(probabilities[1], [0.0, 1.0, 0.0])
    np.testing.assert_allclose(probabilities[2], [1.0, 0.0, 0.0])
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    assert missing == 2
    with pytest.raises(ValueError, match="no log-probability"):
        vllm_scoring.label_probabilities([{99: -0.1}], labels)


def test_pair_order_keeps_a_records_inputs_adjacent() -> None:
    pending = pd.DataFrame({
        "input_id": ["e", "a", "d", "b", "c", "f"],
        "input_text": ["x" * n for n in (5, 1, 4, 2, 3, 6)],
        "record_id": ["r2", "r1", "r2", "r1", "r1", "r2"],
        "setting": ["full", "full", "full", "full", "text_only", "text_only"],
        "variant": ["original", "original", "counterfactual", "counterfactual", "original", "original"],
    })
    ordered = order_pending(pending, "pair")
    assert ordered.record_id.tolist() == ["r1", "r1", "r1", "r2", "r2", "r2"]
    assert ordered.input_id.tolist() == ["b", "a", "c", "d", "e", "f"]
    assert order_pending(pending, "length").input_text.str.len().tolist() == [6, 5, 4, 3, 2, 1]


# ---- neutralization ------------------------------------------------------------------------------------------
NOTES = [  # (note, sex of the patient it describes)
    ("Ms. ___ is a 67 y/o F with HTN. She reports chest pain; her husband drove her in. Mother of two.", "F"),
    ("Mr. ___ is a 54M who fell at home. He denies LOC. His wife found him on the floor.", "M"),
    ("Patient is a 45 year old woman; she has a history of asthma. Gave her 325 mg aspirin.", "F"),
]


def test_neutralized_text_keeps_no_marker_and_forgets_the_sex() -> None:
    for note, sex in NOTES:
        swapped = swap_sex(note, "M" if sex == "F" else "F").text
        female, male = (note, swapped) if sex == "F" else (swapped, note)
        record_f = f"age: 50\nsex: female\nhistory of present illness: {female}"
        record_m = f"age: 50\nsex: male\nhistory of present illness: {male}"
        neutral_f, neutral_m = neutralize_text(record_f), neutralize_text(record_m)
        assert neutral_f == neutral_m
        assert remaining_markers(neutral_f) == []
        assert "sex:" not in neutral_f and "age: 50" in neutral_f
        assert "aspirin" in neutral_f or "aspirin" not in note  # clinical words untouched
    assert neutralize_text("She is a 67 y/o F; Sex: M.") == "They is a 67 y/o X; Sex: X."


def test_nurse_line_and_other_languages() -> None:
    record = "age: 40\nsex: male\ntriage nurse sex: female\nhistory of present illness: He fell."
    assert neutralize_text(record) == "age: 40\ntriage nurse sex: female\nhistory of present illness: They fell."
    assert transform_inputs([record], "none") == [record]
    with pytest.raises(ValueError, match="implemented for en only"):
        transform_inputs(["âge: 40\nsexe: homme"], "neutralized", "fr")
    with pytest.raises(ValueError, match="Unknown input transform"):
        transform_inputs([record], "scrambled")


def test_placebo_suffix_in_sql_matches_the_generators() -> None:
    sql = (project_dir() / "models/marts/triage/noise_floor.sql").read_text()
    assert f"set placebo_suffix = '{PLACEBO_SUFFIX}'" in sql
