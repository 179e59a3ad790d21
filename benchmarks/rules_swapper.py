"""Speed of the rule-based swapper: 20,000 English notes of about 1 KB (the size of a MIMIC HPI + PMH), with the
lexicon alone and with the English role-noun analysis, against a bare regex scan timed in the same run.
(French, with spaCy's parse: benchmarks/swap_bordeaux.py.)

Run: .venv/bin/python benchmarks/rules_swapper.py
"""

from __future__ import annotations

import random
import re
import time

from biasmirror.counterfactuals.rules import swap_many, swap_sex

SENTENCES = [
    "Ms. ___ is a 67 year old woman with HTN who presents with chest pain.",
    "She reports her husband found her on the floor and called EMS.",
    "Mr. ___ is a 54 y/o man, father of two, who states his pain started yesterday.",
    "He took aspirin 325 mg at home without relief and denies shortness of breath.",
    "Her daughter brought her in after she was noted to be confused.",
    "Labs notable for troponin 0.05, creatinine 1.4, hemoglobin 10.2, lactate 2.1.",
    "He denies fevers, chills, nausea, vomiting, diarrhea, dysuria or hematuria.",
]


def main(n_notes: int = 20_000) -> None:
    rng = random.Random(0)
    notes = []
    for _ in range(n_notes):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < 1000:
            parts.append(rng.choice(SENTENCES))
        notes.append(" ".join(parts))
    swap_sex("warm up the lexicon cache", "M")
    # baseline measured in the same run: one regex pass per note that only finds the gendered words
    finder = re.compile(r"\b(she|he|her|him|his|hers|woman|man|ms|mr|husband|wife)\b", re.IGNORECASE)
    # CPU seconds of this process: on a shared machine wall time swings with the other jobs' load
    start = time.process_time()
    found = sum(len(finder.findall(note)) for note in notes)
    baseline = time.process_time() - start
    start = time.process_time()
    changed = sum(swap_sex(note, "M", morphology=False).replacements for note in notes)
    lexicon = time.process_time() - start
    start = time.process_time()
    changed_full = sum(r.replacements for r in swap_many(notes, "M"))
    elapsed = time.process_time() - start
    print(f"{n_notes:,} notes, {sum(map(len, notes)) / n_notes:,.0f} chars each (CPU seconds): a bare regex find pass takes "
          f"{baseline:.2f} s ({found:,} matches)")
    print(f"  lexicon only (before: no role nouns): {lexicon:.2f} s ({n_notes / lexicon:,.0f} notes/s, "
          f"{changed:,} replacements), ratio {lexicon / baseline:.1f}x")
    print(f"  with the role-noun analysis (after, swap_many): {elapsed:.2f} s ({n_notes / elapsed:,.0f} notes/s, "
          f"{changed_full:,} replacements), ratio {elapsed / baseline:.1f}x")


if __name__ == "__main__":
    main()
