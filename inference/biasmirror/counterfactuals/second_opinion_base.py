"""Shared types of the second-opinion check: tokens of an original and its reading (which words refer to the
patient)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Protocol

PATIENT = "patient"
PARTNER = "partner"


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    lower: str


@dataclass(frozen=True)
class Reading:
    """Of the tokens of an original: the ones that refer to the patient and carry the patient's sex, with their
    kind ('pronoun', 'patient noun', 'role noun', 'agreement', 'determiner', ...), so a correct copy changes
    them; and the ones that refer to a partner (or agree with one), which a copy may change or keep (the
    relationship keeps its configuration). Every other token must stay as it is."""

    patient: dict[int, str]
    partner: frozenset[int]
    reasons: dict[int, str] = field(default_factory=dict)   # why another gendered word must stay
    # words right in either form ("La victime, un homme, a été percutée / percuté"): a copy may change or keep them
    free: frozenset[int] = frozenset()
    # whether the partner's words are read closely enough that a copy must change all of them or none
    whole_partner: bool = False
    # of a patient's word, the forms a copy may change it to when only some are right ("found her drowsy": "him",
    # not "his"); a word not listed may change to any form
    forms: dict[int, frozenset[str]] = field(default_factory=dict)


class WordReader(Protocol):
    """What the French and Spanish readings share: the lower-cased word at a position and whether a clause starts
    there."""

    def word(self, i: int) -> str: ...

    def clause_start(self, i: int) -> bool: ...


ELIDED_INDEFINITES = ("d'un", "d'une", "d’un", "d’une")


def indefinite_names_other(reader: WordReader, article: int, patient_nouns: Collection[str],
                           copulas: Collection[str]) -> bool:
    """"un hombre"/"une femme" after an indefinite article names someone else unless the word before the article
    makes it the patient: a copula, "de", the patient's noun or placeholder, or a clause start. After a comma it
    is apposed to the noun before ("su cardiólogo, un hombre"; "Paciente, una mujer de 40 años" is the patient)."""
    k = article - 1
    w = "de" if reader.word(article) in ELIDED_INDEFINITES else reader.word(k)
    if w == ",":
        return (reader.word(k - 1) not in patient_nouns and reader.word(k - 1) != "___"
                and not reader.clause_start(k - 1))
    if aged(reader, article + 1):
        return False    # "Appel du SAMU pour un homme de 50 ans": given an age, the person the note is about
    return not (reader.clause_start(k) or w in copulas or w in ("de", "d'", "d’", "___", "agit", "agissait")
                or w in patient_nouns)


AGE_WORDS = ("ans", "an", "años", "año", "mois", "meses")


def aged(reader: WordReader, noun: int) -> bool:
    """The noun at noun is given an age right after it: "un homme de 50 ans", "una mujer de 40 años"."""
    return reader.word(noun + 1) in ("de", "d'", "d’") and reader.word(noun + 2).isdigit() \
        and reader.word(noun + 3) in AGE_WORDS
