"""Shared types of the second-opinion check: tokens of an original and its reading (which words refer to the
patient)."""

from __future__ import annotations

from dataclasses import dataclass, field

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
