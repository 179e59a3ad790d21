"""Prompt sets: the wording of every prompt of the study, per language.

The shipped set is prompts/biasmirror_v1.yaml (our own wording; its header documents the file format). Users
load another set (for example a paper's exact wording) with `--prompts FILE` (YAML or JSON). A file is
validated as a whole before anything runs, and every problem is reported with its location in the file.
Discipline instructions and explicit questions default to the seed files (seeds/implicit_disciplines.csv,
seeds/implicit_explicit_questions.csv); a prompt set may override them.

Each answer is stored with the prompt set's name and a digest of its resolved content, so results obtained
with different wording never mix, and a changed file cannot silently resume an earlier run.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from biasmirror.implicit.stimuli import GENDER_IDENTITIES, GROUPS, LANGUAGES, QUESTIONS, Stimuli, load_stimuli

BUILTIN = Path(__file__).parent / "prompts" / "biasmirror_v1.yaml"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class PromptSetError(ValueError):
    """A prompt set file that cannot be used; the message lists every problem found."""


@dataclass(frozen=True)
class AssociationTemplate:
    template_id: str
    text: str


@dataclass(frozen=True)
class LanguagePrompts:
    language: str
    groups: dict[str, str]  # cisgender / transgender -> the word shown
    word_separator: str
    association_templates: tuple[AssociationTemplate, ...]
    schema_without_explanation: str
    schema_with_explanation: str
    persona_card: str
    symptoms_line: str
    sex_labels: dict[str, str]
    identity_labels: dict[str, str]
    discipline_instructions: dict[str, str]
    explicit_questions: dict[str, str]


@dataclass(frozen=True)
class PromptSet:
    name: str
    description: str
    source: str
    digest: str
    languages: dict[str, LanguagePrompts]

    def for_language(self, language: str) -> LanguagePrompts:
        if language not in self.languages:
            raise PromptSetError(f"prompt set {self.name!r} has no prompts for language {language!r} "
                                 f"(it has: {', '.join(self.languages)})")
        return self.languages[language]


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class _Checker:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}")

    def mapping(self, value: Any, where: str, required: tuple[str, ...] = (), allowed: tuple[str, ...] | None = None) -> dict:
        if not isinstance(value, dict):
            self.fail(where, f"expected a mapping, got {type(value).__name__}")
            return {}
        for key in required:
            if key not in value:
                self.fail(where, f"missing key {key!r}")
        if allowed is not None:
            for key in value:
                if key not in allowed:
                    self.fail(where, f"unknown key {key!r} (allowed: {', '.join(allowed)})")
        return value

    def text(self, value: Any, where: str, required: set[str] = frozenset(), allowed: set[str] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(where, "expected a non-empty text")
            return ""
        try:
            names = _placeholders(value)
        except ValueError as error:
            self.fail(where, f"bad placeholder syntax ({error}); write a literal brace as {{{{ or }}}}")
            return value
        for name in sorted(required - names):
            self.fail(where, f"missing placeholder {{{name}}}")
        permitted = required | (allowed or set())
        for name in sorted(names - permitted):
            self.fail(where, f"unknown placeholder {{{name}}}" + (f" (allowed: {', '.join('{' + p + '}' for p in sorted(permitted))})" if permitted else " (this text takes none)"))
        return value

    def labels(self, value: Any, where: str, keys: tuple[str, ...]) -> dict[str, str]:
        mapping = self.mapping(value, where, required=keys, allowed=keys)
        return {k: self.text(mapping.get(k), f"{where}.{k}") for k in keys if k in mapping}


def _language(check: _Checker, language: str, raw: Any, stimuli: Stimuli) -> LanguagePrompts | None:
    where = f"languages.{language}"
    body = check.mapping(raw, where, required=("groups", "association_templates", "allocation"),
                         allowed=("groups", "word_separator", "association_templates", "allocation", "explicit_questions"))
    groups = check.labels(body.get("groups", {}), f"{where}.groups", GROUPS)
    if len(groups) == 2 and groups["cisgender"].strip().lower() == groups["transgender"].strip().lower():
        check.fail(f"{where}.groups", "the two group words must differ")
    separator = body.get("word_separator", ", ")
    if not isinstance(separator, str) or not separator:
        check.fail(f"{where}.word_separator", "expected a non-empty text")
    templates = []
    raw_templates = body.get("association_templates", [])
    if not isinstance(raw_templates, list) or not raw_templates:
        check.fail(f"{where}.association_templates", "expected a non-empty list of {id, text}")
        raw_templates = []
    for i, item in enumerate(raw_templates):
        spot = f"{where}.association_templates[{i}]"
        entry = check.mapping(item, spot, required=("id", "text"), allowed=("id", "text"))
        template_id = entry.get("id")
        if not isinstance(template_id, str) or not NAME_PATTERN.match(template_id or ""):
            check.fail(f"{spot}.id", "expected a short id (letters, digits, . _ -)")
        text = check.text(entry.get("text"), f"{spot}.text", required={"group_a", "group_b", "words"})
        templates.append(AssociationTemplate(str(template_id), text))
    ids = [t.template_id for t in templates]
    if len(set(ids)) != len(ids):
        check.fail(f"{where}.association_templates", f"template ids must be unique, got {ids}")

    allocation = check.mapping(body.get("allocation", {}), f"{where}.allocation",
                               required=("schema_without_explanation", "schema_with_explanation", "persona_card",
                                         "symptoms_line", "labels"),
                               allowed=("schema_without_explanation", "schema_with_explanation", "persona_card",
                                        "symptoms_line", "labels", "discipline_instructions"))
    spot = f"{where}.allocation"
    without = check.text(allocation.get("schema_without_explanation"), f"{spot}.schema_without_explanation", {"person_1", "person_2"})
    with_ = check.text(allocation.get("schema_with_explanation"), f"{spot}.schema_with_explanation", {"person_1", "person_2"})
    card = check.text(allocation.get("persona_card"), f"{spot}.persona_card", {"name", "gender_identity"},
                      {"age", "sex_assigned_at_birth"})
    symptoms_line = check.text(allocation.get("symptoms_line"), f"{spot}.symptoms_line", {"symptom"})
    labels = check.mapping(allocation.get("labels", {}), f"{spot}.labels", required=("sex_assigned_at_birth", "gender_identity"),
                           allowed=("sex_assigned_at_birth", "gender_identity"))
    sex_labels = check.labels(labels.get("sex_assigned_at_birth", {}), f"{spot}.labels.sex_assigned_at_birth", ("female", "male"))
    identity_labels = check.labels(labels.get("gender_identity", {}), f"{spot}.labels.gender_identity", tuple(GENDER_IDENTITIES))

    instructions = {d: v.instructions[language] for d, v in stimuli.disciplines.items() if language in v.instructions}
    overrides = check.mapping(allocation.get("discipline_instructions", {}), f"{spot}.discipline_instructions",
                              allowed=tuple(stimuli.disciplines))
    for discipline, text in overrides.items():
        if discipline in stimuli.disciplines:
            instructions[discipline] = check.text(text, f"{spot}.discipline_instructions.{discipline}")
    missing = [d for d in stimuli.disciplines if d not in instructions]
    if missing:
        check.fail(f"{spot}.discipline_instructions", f"no instruction for {', '.join(missing)} in {language} "
                   "(neither in the seed nor in the file)")

    questions = {q: stimuli.questions[(q, language)] for q in QUESTIONS if (q, language) in stimuli.questions}
    question_overrides = check.mapping(body.get("explicit_questions", {}), f"{where}.explicit_questions", allowed=QUESTIONS)
    for question_id, text in question_overrides.items():
        if question_id in QUESTIONS:
            questions[question_id] = check.text(text, f"{where}.explicit_questions.{question_id}")
    if check.errors:
        return None
    return LanguagePrompts(language, groups, separator, tuple(templates), without, with_, card, symptoms_line,
                           sex_labels, identity_labels, instructions, questions)


def parse_prompt_set(document: Any, source: str, stimuli: Stimuli | None = None) -> PromptSet:
    """A validated PromptSet from a parsed YAML/JSON document, or PromptSetError listing every problem."""
    stimuli = stimuli or load_stimuli()
    check = _Checker()
    top = check.mapping(document, "(top level)", required=("name", "languages"), allowed=("name", "description", "languages"))
    name = top.get("name")
    if "name" in top and (not isinstance(name, str) or not NAME_PATTERN.match(name)):
        check.fail("name", "expected a short name (letters, digits, . _ -; at most 64 characters)")
    description = top.get("description", "")
    if not isinstance(description, str):
        check.fail("description", "expected a text")
    languages_raw = check.mapping(top.get("languages", {}), "languages", allowed=LANGUAGES)
    if isinstance(languages_raw, dict) and not languages_raw and "languages" in top:
        check.fail("languages", f"expected at least one of {', '.join(LANGUAGES)}")
    languages: dict[str, LanguagePrompts] = {}
    for language in LANGUAGES:
        if language in languages_raw:
            parsed = _language(check, language, languages_raw[language], stimuli)
            if parsed is not None:
                languages[language] = parsed
    if check.errors:
        raise PromptSetError(f"{source}: invalid prompt set.\n  - " + "\n  - ".join(check.errors))
    resolved = {"name": name, "languages": {k: asdict(v) for k, v in languages.items()}}
    digest = hashlib.sha256(json.dumps(resolved, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]
    return PromptSet(name, description, source, digest, languages)


def load_prompt_set(path: Path | None = None, stimuli: Stimuli | None = None) -> PromptSet:
    """The shipped prompt set, or the one in `path` (.yaml, .yml or .json)."""
    target = path or BUILTIN
    if not target.is_file():
        raise PromptSetError(f"{target}: no such file")
    try:
        text = target.read_text(encoding="utf-8")
        document = json.loads(text) if target.suffix.lower() == ".json" else yaml.safe_load(text)
    except (UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as error:
        raise PromptSetError(f"{target}: cannot be read as {'JSON' if target.suffix.lower() == '.json' else 'YAML'}: {error}") from error
    return parse_prompt_set(document, str(target) if path else "builtin:biasmirror_v1.yaml", stimuli)
