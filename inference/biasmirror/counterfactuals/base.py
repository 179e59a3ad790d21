"""What every counterfactual generator takes and returns."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Protocol, Sequence

OTHER_SEX = {"F": "M", "M": "F"}
PLACEBO_SUFFIX = "-placebo"


@dataclass(frozen=True)
class RewriteInput:
    hpi: str | None
    pmh: str | None
    original_sex: str  # F or M
    language: str


@dataclass(frozen=True)
class Rewrite:
    hpi: str | None
    pmh: str | None
    status: str  # ok | flagged
    flag_reason: str | None
    n_replacements: int


class Rewriter(Protocol):
    """name: the generator name stored with the copies. placebo: the copies keep the original sex (a same-sex
    rewrite through the same generator). rewrite_batch returns None for a record the generator could not
    process this time (a backend failure): it is not written and the next run retries it."""

    name: str
    placebo: bool

    def rewrite_batch(self, items: Sequence[RewriteInput]) -> list[Rewrite | None]: ...


def target_sex(original_sex: str, placebo: bool) -> str:
    return original_sex if placebo else OTHER_SEX[original_sex]


_WORDS = re.compile(r"\S+")


def changed_words(original: str | None, copy: str | None) -> int:
    """Words of `copy` that differ from `original` (replaced or inserted), from a word-level diff."""
    a, b = _WORDS.findall(original or ""), _WORDS.findall(copy or "")
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    return sum(max(j2 - j1, i2 - i1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")
