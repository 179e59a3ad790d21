"""The clinical content of a text that a sex swap must not change: numbers with their units, drug names and
negation cues (lists in clinical_terms.json;
a language without a cue list is checked on numbers and drugs only).

Each is extracted as a sorted multiset and written as a signature ('|'-joined), so that "preserved" means the
original and the copy have equal signatures. The LLM rewriter rejects copies that change one; the diagnostics
store the signatures per record and audit.counterfactual_quality compares them in SQL.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["ClinicalContent", "clinical_content", "changed_parts", "signature"]


@dataclass(frozen=True)
class ClinicalContent:
    numbers: tuple[str, ...]  # "325 mg", "94 %", "2" (sorted)
    drugs: tuple[str, ...]  # lower-cased names (sorted)
    negations: tuple[str, ...]  # normalized cues (sorted)


def signature(items: tuple[str, ...]) -> str:
    return "|".join(items)


def clinical_content(text: str | None, language: str = "en") -> ClinicalContent:
    """Numbers (with units), drug names and negation cues of ``text`` (None/'' gives empty tuples)."""
    terms = _terms(language)
    if not text:
        return ClinicalContent((), (), ())
    numbers = []
    for m in terms.number.finditer(text):
        value = m.group("value")
        unit = m.group("unit")
        numbers.append(f"{value} {unit.lower()}" if unit else value)
    drugs = []
    for m in _WORD.finditer(text):
        word = m.group().lower()
        if word in terms.drug_names or (word.endswith(terms.suffixes) and _has_drug_ending(word, terms.suffixes)):
            drugs.append(word)
    negations = [terms.normalize.get(c.lower(), c.lower()) for c in terms.negation.findall(text)]
    return ClinicalContent(tuple(sorted(numbers)), tuple(sorted(drugs)), tuple(sorted(negations)))


def _has_drug_ending(word: str, suffixes: tuple[str, ...]) -> bool:
    """At least 3 letters before one of the drug endings (so 'April' is not a 'pril' drug)."""
    return any(word.endswith(x) and len(word) >= len(x) + 3 for x in suffixes)


def changed_parts(original: ClinicalContent, copy: ClinicalContent) -> list[str]:
    """Names of the parts that differ: any of 'numbers', 'drugs', 'negations'."""
    return [name for name in ("numbers", "drugs", "negations") if getattr(original, name) != getattr(copy, name)]


# -- compiled term lists ---------------------------------------------------------------------------------------


# A whole word of letters (a drug name is looked up in a set, or recognised by its ending).
_WORD = re.compile(r"(?<![\w-])[^\W\d_]+(?![\w-])")


@dataclass(frozen=True)
class _Terms:
    number: re.Pattern[str]
    drug_names: frozenset[str]
    suffixes: tuple[str, ...]
    negation: re.Pattern[str]
    normalize: dict[str, str]


@functools.lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    raw = resources.files(__package__ or "biasmirror.counterfactuals").joinpath("clinical_terms.json").read_text(encoding="utf-8")
    return json.loads(raw)


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


@functools.lru_cache(maxsize=None)
def _terms(language: str) -> _Terms:
    data = _data()
    negations = data["negations"]
    units = _alternation([u.lower() for u in data["units"]])
    # A number not glued to a word (so 'G2P1', 'B12', 'HbA1c' are not numbers), with an optional unit after it.
    number = re.compile(rf"(?<![\w.,])(?P<value>\d+(?:[.,]\d+)?)(?:[^\S\n]?(?P<unit>{units})(?![\w/]))?",
                        re.IGNORECASE)
    drug_names = frozenset(d.lower() for d in data["drugs"])
    suffixes = tuple(sorted({x.lower() for x in data["drug_suffixes"]}))
    spec = negations.get(language, {"cues": []})  # a language without cue list: numbers and drugs only
    cues = [c.lower() for c in spec["cues"]]
    elided = [c for c in cues if c.endswith(("'", "’"))]
    words = [c for c in cues if c not in elided]
    parts = [rf"(?<![\w'’])(?:{_alternation(words)})(?![\w'’])"] if words else []
    if elided:
        parts.append(rf"(?<![\w'’])(?:{_alternation(elided)})(?=\w)")
    negation = re.compile("|".join(parts) if parts else r"(?!x)x", re.IGNORECASE)
    return _Terms(number, drug_names, suffixes, negation,
                  {k.lower(): v.lower() for k, v in spec.get("normalize", {}).items()})
