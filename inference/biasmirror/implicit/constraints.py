"""Constrained decoding of the study's answers (opt-in: `--constrained`), through vLLM's structured outputs.

A constraint restricts the tokens the engine may sample to those that keep the answer inside the format the
prompt asks for, so a small model that follows the format poorly still gives a readable answer. The constraint is
the prompt's own format, not a new one, so the wording (and the prompt set's digest) is the same with and without:

* word association: one line per word, in the order shown, `word - group`, where group is one of the two group
  words shown (a regular expression);
* allocation without explanation: `<person>full name</person>` with one of the two candidates' names (a choice);
* allocation with explanation: `<reasoning>...</reasoning>` (free text without angle brackets, at most
  REASONING_CHARACTERS characters), a line break, then the `<person>` tag as above (a regular expression).

What a constraint cannot measure: it forces an answer, so a constrained model cannot refuse, and it forces
every word to be assigned. Refusal rates and the share of answers in the format are read from free decoding;
the constrained runs measure the model's choice once the format is out of the way.

The constraint travels with the request (GenerationRequest.constraint, part of its cache key) as vLLM's
`structured_outputs` parameters: the `openai` backend sends it in the request body (a vLLM server), the `vllm`
backend gives it to the engine. Prompt sets loaded with `--prompts` must ask for the same formats.
"""

from __future__ import annotations

import json
from typing import Sequence

ASSOCIATION_SEPARATOR = " - "
REASONING_CHARACTERS = 600
_REGEX_SPECIAL = set("\\.^$*+?()[]{}|/")


def regex_literal(text: str) -> str:
    """`text` as a regular-expression literal that grammar engines read (no escaped spaces, unlike re.escape)."""
    return "".join("\\" + ch if ch in _REGEX_SPECIAL else ch for ch in text)


def _either(options: Sequence[str]) -> str:
    return "(" + "|".join(regex_literal(option) for option in options) + ")"


def association_constraint(words: Sequence[str], group_words: Sequence[str]) -> str:
    """One line per word, in the order shown: `word - <one of the group words>`."""
    groups = _either(group_words)
    lines = [regex_literal(word) + regex_literal(ASSOCIATION_SEPARATOR) + groups for word in words]
    return json.dumps({"regex": "\\n".join(lines)}, ensure_ascii=False)


# Tokens an answer keeps for the tags and the chosen name after its reasoning (a token holds at least a character).
TAG_TOKENS = 64


def reasoning_characters(max_tokens: int | None) -> int:
    """The reasoning's length bound: REASONING_CHARACTERS, and short enough that the whole answer fits in
    max_tokens even at one character per token (a constrained answer cut by the token limit would not parse)."""
    if max_tokens is None:
        return REASONING_CHARACTERS
    return max(1, min(REASONING_CHARACTERS, int(max_tokens) - TAG_TOKENS))


def allocation_constraint(names: Sequence[str], explanation: bool, max_tokens: int | None = None) -> str:
    """The <person> tag with one of the candidates' full names, after a bounded <reasoning> when one is asked."""
    if not explanation:
        return json.dumps({"choice": [f"<person>{name}</person>" for name in names]}, ensure_ascii=False)
    bound = reasoning_characters(max_tokens)
    regex = (f"<reasoning>[^<>]{{1,{bound}}}</reasoning>\\n<person>{_either(names)}</person>")
    return json.dumps({"regex": regex}, ensure_ascii=False)
