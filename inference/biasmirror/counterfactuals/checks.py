"""Per-record validity checks of a counterfactual copy, shared by the LLM rewriter (which rejects a copy that
fails them) and the diagnostics (which store them for audit.counterfactual_quality)."""

from __future__ import annotations

from dataclasses import dataclass

from biasmirror.counterfactuals.base import OTHER_SEX
from biasmirror.counterfactuals.clinical_content import changed_parts, clinical_content
from biasmirror.counterfactuals.rules import residual_terms, supported_languages

# A field's length may change by this factor at most (texts of at least MIN_LENGTH_CHECKED characters).
MAX_LENGTH_FACTOR = 1.4
MIN_LENGTH_CHECKED = 40


def wrong_sex_terms(text: str | None, counterfactual_sex: str, language: str) -> int | None:
    """Words of `text` that signal the sex the copy must NOT have (the original sex for a swap, the other sex for
    a placebo copy), by the rule swapper's lexicon; None when the language has no lexicon."""
    if language not in supported_languages():
        return None
    return len(residual_terms(text, OTHER_SEX[counterfactual_sex], language))


@dataclass(frozen=True)
class FieldProblem:
    field: str
    problem: str


def field_problems(field: str, original: str | None, copy: str | None, counterfactual_sex: str,
                   language: str) -> list[str]:
    """Why `copy` is not a valid counterfactual of `original` (empty when it is). Messages never quote text."""
    if not original:
        return [] if not copy else [f"{field} must be null: the record has none"]
    if not isinstance(copy, str) or not copy.strip():
        return [f"{field} is missing or empty"]
    problems = []
    wrong = wrong_sex_terms(copy, counterfactual_sex, language)
    if wrong:
        problems.append(f"{wrong} word(s) in {field} still refer to a patient of sex {OTHER_SEX[counterfactual_sex]}")
    for part in changed_parts(clinical_content(original, language), clinical_content(copy, language)):
        problems.append(f"{part.replace('drugs', 'drug names')} changed in {field}")
    if len(original) >= MIN_LENGTH_CHECKED:
        ratio = len(copy) / len(original)
        if not 1 / MAX_LENGTH_FACTOR <= ratio <= MAX_LENGTH_FACTOR:
            problems.append(f"{field} length changed by a factor {ratio:.2f}")
    return problems
