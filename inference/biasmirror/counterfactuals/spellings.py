"""Words with two equally correct forms in a swapped copy, so that comparing two copies does not count a spelling.

English: "Mum" (British) and "Mom" (American), either case, singular or plural; a woman's title "Ms" wherever
"Mrs" stands ("Mr" swaps to "Ms", which assumes no marriage, so "Mrs" swapped twice comes back as "Ms").
Spanish: a man is "hombre" or "varón". French: none.

`variants` lists the spellings of a text that are as correct as the text (the gold sets' judge, benchmarks/
swap_gold.py); `canonical` maps every variant to one form (the round trip of second_opinion.py compares
canonical forms, so "Mrs" -> "Mr" -> "Ms" is no difference).
"""

from __future__ import annotations

import re

_EN_MOTHER = re.compile(r"\b([Mm])(?:um|om)(s?)\b")
_EN_MRS = re.compile(r"\bMrs\b")
_ES_MAN = (("Hombre", "Varón"), ("hombre", "varón"))


def variants(language: str, text: str) -> list[str]:
    """`text` first, then its other equally correct spellings ("Ms" only for "Mrs", never the reverse)."""
    if language == "en":
        mothers = [text, _EN_MOTHER.sub(r"\1um\2", text), _EN_MOTHER.sub(r"\1om\2", text)]
        return list(dict.fromkeys(mothers + [_EN_MRS.sub("Ms", spelling) for spelling in mothers]))
    if language == "es":
        swapped = [re.sub(rf"\b{a}\b", b, text) for pair in _ES_MAN for a, b in (pair, pair[::-1])]
        return list(dict.fromkeys([text, *swapped]))
    return [text]


def canonical(language: str, text: str) -> str:
    """One form for all the equally correct spellings of `text`."""
    if language == "en":
        return _EN_MRS.sub("Ms", _EN_MOTHER.sub(r"\1um\2", text))
    if language == "es":
        for man, other_form in _ES_MAN:
            text = re.sub(rf"\b{other_form}\b", man, text)
    return text
