"""The triage prompt: one template file, rendered with the base model's chat template, for training and scoring.

`TriagePrompt` binds the template (prompts/triage_level.yaml) to a tokenizer and a data set's levels:

* `training_example(record, level)`: the token ids of the whole conversation (system, user, assistant answer)
  and labels that are -100 everywhere except on the answer, so the loss is on the answer only;
* `prompt_ids(record)`: the token ids a model is scored on, i.e. exactly the prefix of the training sequence
  that precedes the answer;
* `label_token_ids`: for each level, the first answer token as it appears in the tokenized *training*
  sequence. Byte-level BPE tokenizers can merge the answer with the character before it (" 3" is one token),
  and some chat templates end the generation prompt with a space, so the label tokens and the scoring prefix
  are read from the training sequence itself, never from tokenizing the bare digit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import yaml

DEFAULT_TEMPLATE = "triage_level.yaml"
_PROBE_RECORD = "age: 50\nchief complaint: probe"


class PromptError(ValueError):
    """The template, the tokenizer's chat template or the levels cannot give a well-defined label token."""


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: int
    system: str
    user: str
    answer: str
    sha256: str

    def user_text(self, record: str, levels: Sequence[int]) -> str:
        return self.user.format(record=record, lowest=min(levels), highest=max(levels))

    def answer_text(self, level: int) -> str:
        return self.answer.format(level=level)

    @property
    def label(self) -> str:
        return f"{self.name}-v{self.version}-{self.sha256[:8]}"


def load_template(path: Path | None = None) -> PromptTemplate:
    """The template file shipped with the package (default) or a user's file with the same keys."""
    if path is None:
        text = resources.files("biasmirror.triage").joinpath("prompts", DEFAULT_TEMPLATE).read_text(encoding="utf-8")
        where = f"biasmirror/triage/prompts/{DEFAULT_TEMPLATE}"
    else:
        text = Path(path).read_text(encoding="utf-8")
        where = str(path)
    data = yaml.safe_load(text)
    missing = [key for key in ("name", "version", "system", "user", "answer") if key not in (data or {})]
    if missing:
        raise PromptError(f"Prompt template {where} lacks {', '.join(missing)}")
    if "{record}" not in data["user"] or "{level}" not in data["answer"]:
        raise PromptError(f"Prompt template {where}: `user` must contain {{record}} and `answer` {{level}}")
    return PromptTemplate(str(data["name"]), int(data["version"]), data["system"].strip(), data["user"].strip(),
                          str(data["answer"]), hashlib.sha256(text.encode("utf-8")).hexdigest())


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class TriagePrompt:
    """The template bound to a tokenizer (with a chat template) and the levels of a data set."""

    def __init__(self, tokenizer: Any, levels: Sequence[int], template: PromptTemplate | None = None) -> None:
        if not getattr(tokenizer, "chat_template", None):
            raise PromptError("The base model's tokenizer has no chat template; the triage prompt needs one.")
        if len(levels) < 2:
            raise PromptError(f"Need at least two levels to score, got {list(levels)}")
        self.tokenizer = tokenizer
        self.levels = tuple(sorted(int(level) for level in levels))
        self.template = template or load_template()
        self._fold_system = not self._template_accepts_system()

    # ----- rendering ---------------------------------------------------------------------------------------
    def _template_accepts_system(self) -> bool:
        try:
            self.tokenizer.apply_chat_template(
                [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}], tokenize=False,
                add_generation_prompt=True)
        except Exception:  # noqa: BLE001 - jinja raises TemplateError (e.g. Gemma: "system role not supported")
            return False
        return True

    def messages(self, record: str, level: int | None = None) -> list[dict[str, str]]:
        user = self.template.user_text(record, self.levels)
        if self._fold_system:
            turns = [{"role": "user", "content": f"{self.template.system}\n\n{user}"}]
        else:
            turns = [{"role": "system", "content": self.template.system}, {"role": "user", "content": user}]
        if level is not None:
            turns.append({"role": "assistant", "content": self.template.answer_text(level)})
        return turns

    def prompt_text(self, record: str) -> str:
        """The chat-templated prompt up to where the model answers (for generate-and-parse)."""
        return self.tokenizer.apply_chat_template(self.messages(record), tokenize=False, add_generation_prompt=True)

    def training_text(self, record: str, level: int) -> str:
        return self.tokenizer.apply_chat_template(self.messages(record, level), tokenize=False)

    def _encode(self, texts: list[str]) -> list[list[int]]:
        return self.tokenizer(texts, add_special_tokens=False)["input_ids"]

    # ----- label tokens ------------------------------------------------------------------------------------
    @cached_property
    def _answer_layout(self) -> tuple[int, dict[int, int]]:
        """(tokens to drop from the end of the tokenized prompt, level -> label token id), from a probe record."""
        prompt = self._encode([self.prompt_text(_PROBE_RECORD)])[0]
        fulls = self._encode([self.training_text(_PROBE_RECORD, level) for level in self.levels])
        cuts = {_common_prefix(prompt, full) for full in fulls}
        if len(cuts) != 1:
            raise PromptError("The levels' answers diverge from the prompt at different tokens; cannot read one "
                              "label token per level.")
        cut = cuts.pop()
        if any(len(full) <= cut for full in fulls):
            raise PromptError("The chat template renders no answer tokens after the prompt.")
        labels = {level: full[cut] for level, full in zip(self.levels, fulls)}
        if len(set(labels.values())) != len(labels):
            tokens = {level: self.tokenizer.convert_ids_to_tokens(token) for level, token in labels.items()}
            raise PromptError(f"Two levels share their first answer token ({tokens}); label probabilities would "
                              "be ambiguous.")
        return len(prompt) - cut, labels

    @property
    def label_token_ids(self) -> dict[int, int]:
        return dict(self._answer_layout[1])

    @property
    def label_tokens(self) -> dict[int, str]:
        return {level: self.tokenizer.convert_ids_to_tokens(token) for level, token in self.label_token_ids.items()}

    # ----- encoding ----------------------------------------------------------------------------------------
    def prompt_ids(self, records: Sequence[str], verify: bool = False) -> list[list[int]]:
        """Token ids each record is scored on: the training sequence's prefix before the answer.
        verify=True also tokenizes every training sequence and checks that prefix and label agree."""
        drop, labels = self._answer_layout
        prompts = self._encode([self.prompt_text(record) for record in records])
        prompts = [ids[:len(ids) - drop] if drop else ids for ids in prompts]
        if verify:
            level = self.levels[0]
            fulls = self._encode([self.training_text(record, level) for record in records])
            for ids, full in zip(prompts, fulls):
                if full[:len(ids)] != ids or len(full) <= len(ids) or full[len(ids)] != labels[level]:
                    raise PromptError("A record's tokenized prompt is not the prefix of its training sequence; "
                                      "the chat template or tokenizer merges text across the answer boundary.")
        return prompts

    def training_example(self, record: str, level: int) -> tuple[list[int], list[int]]:
        """(input_ids, labels) of one training sequence; labels are -100 except on the answer tokens."""
        if level not in self.levels:
            raise PromptError(f"Level {level} is not one of the model's levels {list(self.levels)}")
        (prompt,) = self.prompt_ids([record])
        (full,) = self._encode([self.training_text(record, level)])
        if full[:len(prompt)] != prompt or full[len(prompt)] != self.label_token_ids[level]:
            raise PromptError("A record's tokenized prompt is not the prefix of its training sequence; the chat "
                              "template or tokenizer merges text across the answer boundary.")
        return full, [-100] * len(prompt) + full[len(prompt):]
