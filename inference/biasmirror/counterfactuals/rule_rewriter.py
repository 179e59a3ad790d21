"""The rule-based generator: the lexicon swapper of rules.py as a counterfactual generator.

A swap is flagged when words of the original sex survive it: lexicon terms (rules.residual_terms, partner nouns
excepted) or words that still agree with the original sex (checks.residual_words_many), judged against the
original: a word the copy keeps as the original has it counts only when the second opinion's reading says it is
the patient's (a relative's pronoun of the patient's sex stays), a word the copy changed into that sex always
counts. The placebo copy is the
same-sex rewrite through the same generator: swapped to the other sex and back, so that it carries whatever
the swapper does not restore exactly ("Mrs." -> "Mr." -> "Ms.", an ambiguous "her" read the other way); it is
flagged when words of the other sex are in it that the original does not have there.
"""

from __future__ import annotations

from typing import Sequence

from biasmirror.counterfactuals.base import OTHER_SEX, PLACEBO_SUFFIX, Rewrite, RewriteInput, changed_words, target_sex
from biasmirror.counterfactuals.checks import reason_summary, residual_words_many
from biasmirror.counterfactuals.rules import supported_languages, swap_many


class RuleRewriter:
    def __init__(self, placebo: bool = False) -> None:
        self.placebo = placebo
        self.name = "rules" + (PLACEBO_SUFFIX if placebo else "")

    def manifest(self) -> dict[str, object]:
        return {"generator": self.name, "placebo": self.placebo, "languages": supported_languages()}

    def rewrite_batch(self, items: Sequence[RewriteInput]) -> list[Rewrite | None]:
        """Rewrite a batch: texts of one language are swapped together (one batched parse for French) and
        checked together."""
        out: list[Rewrite | None] = [None] * len(items)
        languages: dict[str, list[int]] = {}
        for i, item in enumerate(items):
            languages.setdefault(item.language, []).append(i)
        for language, index in languages.items():
            if language not in supported_languages():
                for i in index:
                    out[i] = Rewrite(None, None, "flagged", f"no rule lexicon for language {language!r}", 0)
                continue
            for i, rewrite in zip(index, self._rewrite_language([items[i] for i in index], language)):
                out[i] = rewrite
        return out

    def rewrite(self, item: RewriteInput) -> Rewrite:
        result = self.rewrite_batch([item])[0]
        assert result is not None
        return result

    def _rewrite_language(self, items: list[RewriteInput], language: str) -> list[Rewrite]:
        others = [OTHER_SEX[item.original_sex] for item in items]
        swapped = {field: swap_many([getattr(item, field) for item in items], others, language)
                   for field in ("hpi", "pmh")}
        texts: dict[str, list[str | None]] = {}
        counts = [0] * len(items)
        for field in ("hpi", "pmh"):
            if self.placebo:
                back = swap_many([r.text for r in swapped[field]], [item.original_sex for item in items], language)
                texts[field] = [r.text for r in back]
                for i, item in enumerate(items):
                    counts[i] += changed_words(getattr(item, field), texts[field][i])
            else:
                texts[field] = [r.text for r in swapped[field]]
                for i, r in enumerate(swapped[field]):
                    counts[i] += r.replacements
        sexes = [target_sex(item.original_sex, self.placebo) for item in items]
        wrong_sexes = [OTHER_SEX[sex] for sex in sexes]
        # a word kept from the original counts only when it is the patient's (another person's pronoun stays)
        residual = {field: residual_words_many(texts[field], wrong_sexes, language,
                                               originals=[getattr(item, field) for item in items],
                                               placebo=self.placebo)
                    for field in ("hpi", "pmh")}
        whose = "the other sex" if self.placebo else "the original sex"
        out = []
        for i in range(len(items)):
            words = residual["hpi"][i] + residual["pmh"][i]
            hpi, pmh = texts["hpi"][i], texts["pmh"][i]
            if words:
                terms = sum(w.reason == "lexicon term" for w in words)
                agreeing = [w.reason for w in words if w.reason != "lexicon term"]
                parts = []
                if terms:
                    parts.append(f"{terms} word(s) of {whose} left")
                if agreeing:
                    parts.append(f"{len(agreeing)} word(s) still agreeing with {whose} ({reason_summary(agreeing)})")
                out.append(Rewrite(hpi, pmh, "flagged", "; ".join(parts), counts[i]))
            else:
                out.append(Rewrite(hpi, pmh, "ok", None, counts[i]))
        return out
