"""The LLM rewriter: k-shot prompting of a chat model, JSON in and out, strict parsing and validation.

Prompt: the system template (prompts/rewrite_system.txt, our wording) for the record's language, then k
examples (examples/<language>.json, default 7) as user/assistant turns, then the record. Every user turn is
`{"target_sex": "M", "record": {"sex": "F", "hpi": "...", "pmh": "..."}}`; every answer is
`{"sex": "M", "hpi": "...", "pmh": "..."}` or `{"cannot_swap": "<reason>"}`.

An answer is used only if it parses as exactly that JSON object (a markdown code fence around it is tolerated)
and passes the validity checks (checks.field_problems: the target sex, no word of the wrong sex left, numbers
with units, drug names and negations identical, length within a factor 1.4). Otherwise the model is asked once
more, with its answer and the problem in two extra turns (a different request, so the response cache does not
return the same answer); if that fails too, the record is flagged with the reason and left out of the pairs. A
`cannot_swap` answer flags the record at once. A backend failure (network, server error) leaves the record for
the next run.

Constrained decoding (`constrained=True`, vLLM only): the answer is held to the answer's JSON shape by vLLM's
structured outputs (`answer_schema`: the target sex, a string for each field the record has and null for the
others, or cannot_swap); the checks still judge the content.

Placebo: the same prompt with the record's own sex as target, and the examples shown with their own sex as
target and themselves as answer; the copies measure what the rewriting alone changes.

Problems and reasons never quote the record's text, so they can be logged and stored.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from biasmirror.backends.base import ChatBackend, ChatMessage, Generation, GenerationRequest, request_key
from biasmirror.counterfactuals.base import PLACEBO_SUFFIX, Rewrite, RewriteInput, changed_words, target_sex
from biasmirror.counterfactuals.checks import field_problems

LANGUAGE_NAMES = {"en": "English", "fr": "French", "es": "Spanish"}
DEFAULT_K = 7
SYSTEM_TEMPLATE = "rewrite_system.txt"
RETRY_TEMPLATE = "retry.txt"
FIELDS = ("hpi", "pmh")


class PromptError(ValueError):
    """A prompt template or an examples file is missing or malformed."""


class AnswerError(ValueError):
    """A model answer that cannot be used; the message says why without quoting it."""


# -- prompt material ------------------------------------------------------------------------------------------


def _package_file(folder: str, name: str) -> str:
    return resources.files(__package__ or "biasmirror.counterfactuals").joinpath(folder, name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Example:
    record: dict[str, Any]
    answer: dict[str, Any]


def load_examples(language: str, examples_dir: Path | None = None) -> tuple[list[Example], str]:
    """The k-shot examples of a language and the sha256 of their file."""
    try:
        if examples_dir is None:
            raw = _package_file("examples", f"{language}.json")
        else:
            raw = (Path(examples_dir) / f"{language}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        where = examples_dir or "the package's counterfactuals/examples"
        raise PromptError(f"no k-shot examples for language {language!r} in {where} (expected {language}.json)") from None
    try:
        document = json.loads(raw)
        examples = [Example(dict(e["record"]), dict(e["answer"])) for e in document["examples"]]
    except (ValueError, KeyError, TypeError) as error:
        raise PromptError(f"examples file for {language!r} is malformed: {error}") from None
    for i, example in enumerate(examples):
        if example.record.get("sex") not in ("F", "M") or not set(FIELDS) <= set(example.record):
            raise PromptError(f"example {i} for {language!r}: record needs sex F/M, hpi and pmh")
        if set(example.answer) != {"cannot_swap"} and set(example.answer) != {"sex", *FIELDS}:
            raise PromptError(f"example {i} for {language!r}: answer needs sex, hpi and pmh, or only cannot_swap")
    return examples, hashlib.sha256(raw.encode("utf-8")).hexdigest()


@dataclass
class PromptBuilder:
    """Builds the messages of a rewrite request; holds what the run manifest records about the prompt."""

    k_shots: int = DEFAULT_K
    placebo: bool = False
    system_template_path: Path | None = None
    examples_dir: Path | None = None
    _examples: dict[str, tuple[list[Example], str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.k_shots < 0:
            raise PromptError("k_shots must not be negative")
        try:
            self.system_template = (Path(self.system_template_path).read_text(encoding="utf-8")
                                    if self.system_template_path else _package_file("prompts", SYSTEM_TEMPLATE))
        except OSError as error:
            raise PromptError(f"cannot read the prompt template {self.system_template_path}: {error}") from None
        self.retry_template = _package_file("prompts", RETRY_TEMPLATE)
        for template, name in ((self.system_template, "prompt template"), (self.retry_template, RETRY_TEMPLATE)):
            try:
                string.Template(template).substitute(language="x", problem="x")
            except (KeyError, ValueError) as error:
                raise PromptError(f"the {name} has an unknown or malformed $placeholder: {error}") from None

    @property
    def template_sha256(self) -> str:
        return hashlib.sha256((self.system_template + "\0" + self.retry_template).encode("utf-8")).hexdigest()

    def examples(self, language: str) -> list[Example]:
        if language not in self._examples:
            self._examples[language] = load_examples(language, self.examples_dir)
        examples = self._examples[language][0]
        if self.k_shots > len(examples):
            raise PromptError(f"{self.k_shots} examples asked for {language!r}, the file has {len(examples)}")
        return examples[: self.k_shots]

    def manifest(self) -> dict[str, Any]:
        return {
            "prompt_template": str(self.system_template_path) if self.system_template_path else f"counterfactuals/prompts/{SYSTEM_TEMPLATE}",
            "prompt_template_sha256": self.template_sha256,
            "examples_dir": str(self.examples_dir) if self.examples_dir else "counterfactuals/examples",
            "examples_sha256": {language: sha for language, (_, sha) in sorted(self._examples.items())},
            "k_shots": self.k_shots,
        }

    def messages(self, item: RewriteInput) -> list[ChatMessage]:
        language_name = LANGUAGE_NAMES.get(item.language, item.language)
        messages = [ChatMessage("system", string.Template(self.system_template).substitute(language=language_name, problem=""))]
        for example in self.examples(item.language):
            record = {"sex": example.record["sex"], **{f: example.record[f] for f in FIELDS}}
            if self.placebo:
                answer: dict[str, Any] = dict(record)
                target = record["sex"]
            else:
                answer = example.answer
                target = example.answer.get("sex") or {"F": "M", "M": "F"}[record["sex"]]
            messages.append(ChatMessage("user", _dumps({"target_sex": target, "record": record})))
            messages.append(ChatMessage("assistant", _dumps(answer)))
        record = {"sex": item.original_sex, "hpi": item.hpi or None, "pmh": item.pmh or None}
        target = target_sex(item.original_sex, self.placebo)
        messages.append(ChatMessage("user", _dumps({"target_sex": target, "record": record})))
        return messages

    def retry_messages(self, first: list[ChatMessage], answer: str, problem: str) -> list[ChatMessage]:
        retry = string.Template(self.retry_template).substitute(problem=problem, language="")
        return [*first, ChatMessage("assistant", answer), ChatMessage("user", retry.strip())]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- answers --------------------------------------------------------------------------------------------------

_FENCE = re.compile(r"\A```(?:json)?[^\S\n]*\n(?P<body>.*?)\n?```\Z", re.DOTALL)


# inference.counterfactuals.flag_reason of a record the model declined to rewrite (a fixed text: never its words)
CANNOT_SWAP_REASON = "cannot swap: the model declined (its reason is not stored)"


@dataclass(frozen=True)
class Answer:
    sex: str | None = None
    hpi: str | None = None
    pmh: str | None = None
    cannot_swap: str | None = None


def parse_answer(text: str) -> Answer:
    """The answer as an `Answer`, or AnswerError: exactly one JSON object with keys sex, hpi and pmh (strings or
    null), or only cannot_swap (a non-empty string); a markdown code fence around it is tolerated."""
    body = (text or "").strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    if not body:
        raise AnswerError("the answer is empty")
    if not body.startswith("{"):
        raise AnswerError("the answer does not start with a JSON object")
    try:
        value = json.loads(body)
    except json.JSONDecodeError as error:
        raise AnswerError(f"the answer is not valid JSON ({error.msg} at character {error.pos})") from None
    if not isinstance(value, dict):
        raise AnswerError("the answer is not a JSON object")
    keys = set(value)
    if keys == {"cannot_swap"}:
        reason = value["cannot_swap"]
        if not isinstance(reason, str) or not reason.strip():
            raise AnswerError("cannot_swap must be a non-empty reason")
        return Answer(cannot_swap=" ".join(reason.split())[:300])
    if keys != {"sex", *FIELDS}:
        extra, missing = len(keys - {"sex", *FIELDS}), sorted({"sex", *FIELDS} - keys)
        detail = ", ".join(filter(None, [f"missing {', '.join(missing)}" if missing else "",
                                         f"{extra} unexpected key(s)" if extra else ""]))
        raise AnswerError(f"the JSON object must have exactly the keys sex, hpi and pmh ({detail})")
    for name in FIELDS:
        if value[name] is not None and not isinstance(value[name], str):
            raise AnswerError(f"{name} must be a string or null")
    if value["sex"] not in ("F", "M"):
        raise AnswerError('sex must be "F" or "M"')
    return Answer(sex=value["sex"], hpi=value["hpi"], pmh=value["pmh"])


def validate(answer: Answer, item: RewriteInput, placebo: bool) -> list[str]:
    """Problems of a parsed (non-refusal) answer for this record; empty when it can be used."""
    target = target_sex(item.original_sex, placebo)
    problems = [] if answer.sex == target else [f'sex must be "{target}"']
    for name in FIELDS:
        problems += field_problems(name, getattr(item, name), getattr(answer, name), target, item.language, placebo)
    return problems


# -- the rewriter ---------------------------------------------------------------------------------------------


@dataclass
class RewriterCounts:
    requests: int = 0
    retries: int = 0
    flagged_invalid: int = 0
    flagged_cannot_swap: int = 0
    backend_errors: int = 0


def answer_schema(item: RewriteInput, placebo: bool) -> dict[str, Any]:
    """The JSON schema of a usable answer for this record (constrained decoding): the target sex, a string for each
    field the record has and null for the others; or, unless placebo, only cannot_swap with a reason."""
    rewrite = {
        "type": "object",
        "properties": {"sex": {"enum": [target_sex(item.original_sex, placebo)]},
                       **{name: {"type": "string"} if getattr(item, name) else {"type": "null"} for name in FIELDS}},
        "required": ["sex", *FIELDS], "additionalProperties": False,
    }
    if placebo:
        return rewrite
    refusal = {"type": "object", "properties": {"cannot_swap": {"type": "string", "minLength": 1}},
               "required": ["cannot_swap"], "additionalProperties": False}
    return {"anyOf": [rewrite, refusal]}


class LlmRewriter:
    """Rewrites records with a chat backend (wrap it in CachedBackend to reuse stored answers)."""

    def __init__(self, backend: ChatBackend, name: str, prompts: PromptBuilder | None = None,
                 max_tokens: int | None = None, temperature: float = 0.0, seed: int | None = None,
                 constrained: bool = False) -> None:
        if constrained and not getattr(getattr(backend, "backend", backend), "structured_outputs", False):
            raise ValueError(f"the {backend.name} backend cannot constrain decoding; constrained rewriting needs vLLM "
                             "(the vllm backend, or the openai backend against a vLLM server)")
        self.constrained = constrained
        self.backend = backend
        self.prompts = prompts or PromptBuilder()
        self.placebo = self.prompts.placebo
        self.name = name + (PLACEBO_SUFFIX if self.placebo and not name.endswith(PLACEBO_SUFFIX) else "")
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        self.counts = RewriterCounts()
        # the backend's failures in the last batch: record index -> (failed generation, request key, attempt)
        self.last_failures: dict[int, tuple[Generation, str, str]] = {}

    def manifest(self) -> dict[str, Any]:
        return {"generator": self.name, "placebo": self.placebo, "max_tokens": self.max_tokens,
                "temperature": self.temperature, "seed": self.seed, "constrained_decoding": self.constrained,
                **self.prompts.manifest()}

    def _request(self, messages: list[ChatMessage], item: RewriteInput) -> GenerationRequest:
        if self.max_tokens is not None:
            budget = self.max_tokens
        else:  # room for the rewritten fields as JSON: about a token per 2 characters, plus slack
            budget = min(8192, 64 + (len(item.hpi or "") + len(item.pmh or "")) // 2)
        constraint = json.dumps({"json": answer_schema(item, self.placebo)}) if self.constrained else None
        return GenerationRequest(tuple(messages), max_tokens=budget, temperature=self.temperature, seed=self.seed,
                                 constraint=constraint)

    def rewrite_batch(self, items: Sequence[RewriteInput]) -> list[Rewrite | None]:
        prompts = [self.prompts.messages(item) for item in items]
        self.last_failures = {}
        requests = [self._request(p, item) for p, item in zip(prompts, items)]
        first = self._generate(requests)
        results: list[Rewrite | None] = [None] * len(items)
        retry: dict[int, tuple[str, str]] = {}
        for i, (item, generation) in enumerate(zip(items, first)):
            if generation.error is not None:
                self.counts.backend_errors += 1
                self._failed(i, requests[i], generation, "first")
                continue
            outcome = self._judge(item, generation)
            if isinstance(outcome, Rewrite):
                results[i] = outcome
            else:
                retry[i] = (generation.text, outcome)
        if retry:
            self.counts.retries += len(retry)
            order = list(retry)
            requests = [self._request(self.prompts.retry_messages(prompts[i], *retry[i]), items[i]) for i in order]
            for i, request, generation in zip(order, requests, self._generate(requests)):
                if generation.error is not None:
                    self.counts.backend_errors += 1
                    self._failed(i, request, generation, "retry")
                    continue
                outcome = self._judge(items[i], generation)
                if isinstance(outcome, Rewrite):
                    results[i] = outcome
                else:
                    self.counts.flagged_invalid += 1
                    results[i] = Rewrite(None, None, "flagged", f"invalid output after one retry: {outcome}", 0)
        return results

    def _failed(self, index: int, request: GenerationRequest, generation: Generation, attempt: str) -> None:
        key = request_key(self.backend.name, self.backend.model, request)  # CachedBackend mirrors both names
        self.last_failures[index] = (generation, key, attempt)

    def _generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        self.counts.requests += len(requests)
        answers = self.backend.generate(requests)
        if len(answers) != len(requests):
            raise RuntimeError(f"the {self.backend.name} backend returned {len(answers)} answers for {len(requests)} requests")
        return answers

    def _judge(self, item: RewriteInput, generation: Generation) -> Rewrite | str:
        """A usable Rewrite (ok, or flagged for cannot_swap), or the problem to send back."""
        try:
            answer = parse_answer(generation.text)
        except AnswerError as error:
            problem = str(error)
            if generation.finish_reason == "length":
                problem += " (the answer was cut at the token limit)"
            return problem
        if answer.cannot_swap is not None:
            if self.placebo:
                return "a same-sex rewrite is always possible: return the record with its own sex"
            self.counts.flagged_cannot_swap += 1
            # the model's own reason is not stored: it is free text that can quote the note (flag_reason is published)
            return Rewrite(None, None, "flagged", CANNOT_SWAP_REASON, 0)
        problems = validate(answer, item, self.placebo)
        if problems:
            return "; ".join(problems)
        hpi = answer.hpi if item.hpi else None
        pmh = answer.pmh if item.pmh else None
        return Rewrite(hpi, pmh, "ok", None, changed_words(item.hpi, hpi) + changed_words(item.pmh, pmh))
