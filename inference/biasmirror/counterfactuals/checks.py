"""Per-record validity checks of a counterfactual copy, shared by the LLM rewriter (which rejects a copy that
fails them) and the diagnostics (which store them for audit.counterfactual_quality)."""

from __future__ import annotations

from dataclasses import dataclass

from biasmirror.counterfactuals.base import OTHER_SEX
from biasmirror.counterfactuals.clinical_content import changed_parts, clinical_content
from biasmirror.counterfactuals.rules import supported_languages

# A field's length may change by this factor at most (texts of at least MIN_LENGTH_CHECKED characters).
MAX_LENGTH_FACTOR = 1.4
MIN_LENGTH_CHECKED = 40


def wrong_sex_terms(text: str | None, counterfactual_sex: str, language: str) -> int | None:
    """Lexicon words of `text` (pronouns, nouns, honorifics, codes) that signal the sex the copy must NOT have
    (the original sex for a swap, the other sex for a placebo copy); None when the language has no lexicon.
    Partner nouns are not counted (the swap keeps the relationship's configuration: see docs/counterfactuals.md)
    and, where the morphology-aware analysis runs, neither are agreeing words: :func:`wrong_sex_agreement`
    counts those."""
    if language not in supported_languages():
        return None
    from biasmirror.counterfactuals.rules import residual_spans, uses_morphology

    return len(residual_spans(text, OTHER_SEX[counterfactual_sex], language, partners=False,
                              agreement=not uses_morphology(language)))


def wrong_sex_agreement(text: str | None, counterfactual_sex: str, language: str) -> list[str]:
    """Reasons of the words of `text` that agree with the patient and still carry the sex the copy must not
    have ('predicative', 'apposed', 'role noun', ...); empty when none or the language has no analysis."""
    return [w.reason for w in residual_words(text, OTHER_SEX[counterfactual_sex], language) if w.reason != "lexicon term"]


def reason_summary(reasons: list[str]) -> str | None:
    """'apposed:1|predicative:2' (sorted), or None when there is no reason."""
    if not reasons:
        return None
    counts: dict[str, int] = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    return "|".join(f"{k}:{v}" for k, v in sorted(counts.items()))


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
    agreeing = wrong_sex_agreement(copy, counterfactual_sex, language)
    if agreeing:
        problems.append(f"{len(agreeing)} word(s) in {field} still agree with a patient of sex "
                        f"{OTHER_SEX[counterfactual_sex]} ({reason_summary(agreeing)})")
    for part in changed_parts(clinical_content(original, language), clinical_content(copy, language)):
        problems.append(f"{part.replace('drugs', 'drug names')} changed in {field}")
    if len(original) >= MIN_LENGTH_CHECKED:
        ratio = len(copy) / len(original)
        if not 1 / MAX_LENGTH_FACTOR <= ratio <= MAX_LENGTH_FACTOR:
            problems.append(f"{field} length changed by a factor {ratio:.2f}")
    return problems


@dataclass(frozen=True)
class ResidualWord:
    """A word of a copy that still signals the original sex: where it starts, the word, and why."""

    start: int
    text: str
    reason: str


def residual_words_many(texts: list[str | None], original_sexes: list[str], language: str) -> list[list[ResidualWord]]:
    """Per copy, the words that still signal the patient's original sex, with the reason:

    * 'lexicon term': a pronoun, noun, honorific or code of the rule lexicon (residual_terms), partner nouns
      excepted: the swap keeps the relationship's configuration, so a partner's sex never flags a copy;
    * an agreement reason ('predicative', 'apposed', 'subjectless clause', 'role noun', 'object clitic', ...):
      a word that agrees with the patient and still carries the original sex ("il est gênée"), found by the
      morphology-aware analysis (agreement.py), which replaces the lexicon's agreement word lists.

    Empty lists for a language without a lexicon."""
    from biasmirror.counterfactuals.agreement import residual_agreement_many
    from biasmirror.counterfactuals.rules import residual_spans, uses_morphology

    if language not in supported_languages():
        return [[] for _ in texts]
    morphology = uses_morphology(language)
    agreeing = residual_agreement_many(texts, original_sexes, language) if morphology else [[] for _ in texts]
    out = []
    for text, sex, extra in zip(texts, original_sexes, agreeing):
        words = [ResidualWord(start, token, "lexicon term")
                 for start, token in residual_spans(text, sex, language, partners=False, agreement=not morphology)]
        seen = {w.start for w in words}
        words += [ResidualWord(r.start, r.text.lower(), r.reason) for r in extra if r.start not in seen]
        out.append(sorted(words, key=lambda w: w.start))
    return out


def residual_words(text: str | None, original_sex: str, language: str) -> list[ResidualWord]:
    """:func:`residual_words_many` of one copy."""
    return residual_words_many([text], [original_sex], language)[0]
