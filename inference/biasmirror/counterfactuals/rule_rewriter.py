"""The rule-based generator: the lexicon swapper of rules.py as a counterfactual generator.

A swap is flagged when words of the original sex survive it (rules.residual_terms). The placebo copy is the
same-sex rewrite through the same generator: swapped to the other sex and back, so that it carries whatever
the swapper does not restore exactly ("Mrs." -> "Mr." -> "Ms.", an ambiguous "her" read the other way); it is
flagged when words of the other sex are left in it.
"""

from __future__ import annotations

from typing import Sequence

from biasmirror.counterfactuals.base import OTHER_SEX, PLACEBO_SUFFIX, Rewrite, RewriteInput, changed_words, target_sex
from biasmirror.counterfactuals.checks import wrong_sex_terms
from biasmirror.counterfactuals.rules import supported_languages, swap_sex


class RuleRewriter:
    def __init__(self, placebo: bool = False) -> None:
        self.placebo = placebo
        self.name = "rules" + (PLACEBO_SUFFIX if placebo else "")

    def manifest(self) -> dict[str, object]:
        return {"generator": self.name, "placebo": self.placebo, "languages": supported_languages()}

    def rewrite_batch(self, items: Sequence[RewriteInput]) -> list[Rewrite | None]:
        return [self.rewrite(item) for item in items]

    def rewrite(self, item: RewriteInput) -> Rewrite:
        language = item.language
        if language not in supported_languages():
            return Rewrite(None, None, "flagged", f"no rule lexicon for language {language!r}", 0)
        other = OTHER_SEX[item.original_sex]
        texts, count = [], 0
        for text in (item.hpi, item.pmh):
            swapped = swap_sex(text, other, language)
            if self.placebo:
                back = swap_sex(swapped.text, item.original_sex, language).text
                texts.append(back)
                count += changed_words(text, back)
            else:
                texts.append(swapped.text)
                count += swapped.replacements
        sex = target_sex(item.original_sex, self.placebo)
        wrong = sum(wrong_sex_terms(t, sex, language) or 0 for t in texts)
        if wrong:
            whose = "the other sex" if self.placebo else "the original sex"
            return Rewrite(texts[0], texts[1], "flagged", f"{wrong} word(s) of {whose} left", count)
        return Rewrite(texts[0], texts[1], "ok", None, count)
