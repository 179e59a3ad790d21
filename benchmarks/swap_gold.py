"""Exact-match accuracy of the rule-based swapper on the hand-written gold sets, and precision/recall of the
agreement-aware validity check on labelled copies.

Gold sets: tests/data/swap_gold/<language>.jsonl (see its README). Labelled copies for the check are built
from the same gold pairs, so that their labels come from the hand-written swaps and never from the swapper:

* the correct swap itself: no word of the original sex left (a negative);
* the original sentence given as the copy (nothing swapped): every word the gold swap changes, partner
  words excepted, is left (positives);
* one copy per changed word with that one word left in its original form (a partial edit, as a careless
  rewriter makes: "Il est gênée").

A flagged word counts as a true positive when it is a labelled residual word (matched by position).
Precision and recall are over words; copy-level figures are printed too.

Two sets per language: the gold set (the development set, >= 150 sentences, that the swapper was tuned on)
and a held-out set written after the swapper was frozen, which gives the unbiased figure.

Run: .venv/bin/python benchmarks/swap_gold.py [--errors] [--json FILE]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "swap_gold"
LANGUAGES = ("en", "fr", "es")
_WORD = re.compile(r"[\w’'-]+|[^\w\s]")


def load_gold(language: str, split: str = "gold") -> list[dict]:
    """The gold sentences of a language: split 'gold' (<language>.jsonl, the development set the swapper was
    tuned on) or 'heldout' (<language>_heldout.jsonl, written after the swapper was frozen)."""
    rows = []
    name = f"{language}.jsonl" if split == "gold" else f"{language}_heldout.jsonl"
    with open(GOLD / name, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                row["swaps"] = row["swap"] if isinstance(row["swap"], list) else [row["swap"]]
                rows.append(row)
    return rows


def other(sex: str) -> str:
    return "M" if sex == "F" else "F"


def swap_accuracy(language: str, split: str = "gold") -> tuple[int, int, list[tuple[dict, str]]]:
    from biasmirror.counterfactuals.rules import swap_many

    rows = load_gold(language, split)
    outputs = [r.text for r in swap_many([row["text"] for row in rows], [other(row["sex"]) for row in rows], language)]
    errors = [(row, out) for row, out in zip(rows, outputs) if out not in row["swaps"]]
    return len(rows) - len(errors), len(rows), errors


@dataclass
class Labelled:
    copy: str
    original_sex: str
    residual_starts: frozenset[int]


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(), m.start()) for m in _WORD.finditer(text)]


def labelled_copies(language: str, split: str = "gold") -> list[Labelled]:
    """Correct swaps, unswapped originals and one-word partial edits, labelled from the gold pairs."""
    from biasmirror.counterfactuals.rules import _lexicon_for

    lex = _lexicon_for(language)
    out: list[Labelled] = []
    for row in load_gold(language, split):
        original, gold = row["text"], row["swaps"][0]
        a, b = _tokens(original), _tokens(gold)
        matcher = difflib.SequenceMatcher(a=[t for t, _ in a], b=[t for t, _ in b], autojunk=False)
        blocks = [op for op in matcher.get_opcodes() if op[0] != "equal"]
        out.append(Labelled(gold, row["sex"], frozenset()))
        # the unswapped original and one copy per changed block left in its original form
        residual_blocks = []
        for _tag, i1, i2, j1, j2 in blocks:
            words = [a[k][0].lower() for k in range(i1, i2)]
            starts_in_original = [a[k][1] for k in range(i1, i2)]
            partner = any(lex.is_partner(original, s, w) or w in lex.partner_forms for w, s in zip(words, starts_in_original))
            residual_blocks.append((i1, i2, j1, j2, partner))
        if not blocks:
            continue
        labels = frozenset(a[k][1] for i1, i2, _, _, partner in residual_blocks if not partner for k in range(i1, i2))
        out.append(Labelled(original, row["sex"], labels))
        if len(blocks) > 1:
            for i1, i2, j1, j2, partner in residual_blocks:
                if partner or i2 == i1:
                    continue
                # the gold copy with this one block put back to the original words
                start_copy = b[j1][1] if j1 < len(b) else len(gold)
                end_copy = (b[j2 - 1][1] + len(b[j2 - 1][0])) if j2 > j1 else start_copy
                original_piece = original[a[i1][1]: a[i2 - 1][1] + len(a[i2 - 1][0])]
                copy = gold[:start_copy] + original_piece + gold[end_copy:]
                shift = start_copy - a[i1][1]
                out.append(Labelled(copy, row["sex"], frozenset(a[k][1] + shift for k in range(i1, i2))))
    return out


def check_precision_recall(language: str, split: str = "gold") -> dict[str, float | int]:
    from biasmirror.counterfactuals.checks import residual_words_many

    items = labelled_copies(language, split)
    flagged = residual_words_many([i.copy for i in items], [i.original_sex for i in items], language)
    tp = fp = fn = 0
    copy_tp = copy_fp = copy_fn = copy_tn = 0
    for item, found in zip(items, flagged):
        starts = {w.start for w in found}
        hit = starts & item.residual_starts
        tp += len(hit)
        fp += len(starts - hit)
        fn += len(item.residual_starts - starts)
        if item.residual_starts:
            copy_tp += bool(starts)
            copy_fn += not starts
        else:
            copy_fp += bool(starts)
            copy_tn += not starts
    return {"copies": len(items), "residual_words": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / (tp + fn) if tp + fn else 1.0,
            "copy_precision": copy_tp / (copy_tp + copy_fp) if copy_tp + copy_fp else 1.0,
            "copy_recall": copy_tp / (copy_tp + copy_fn) if copy_tp + copy_fn else 1.0,
            "clean_copies_flagged": copy_fp, "clean_copies": copy_fp + copy_tn}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="print the gold sentences the swapper gets wrong")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--language", action="append", choices=LANGUAGES, help="only these languages")
    args = parser.parse_args(argv)
    results: dict[str, dict] = {}
    for split in ("gold", "heldout"):
        for language in args.language or LANGUAGES:
            started = time.perf_counter()
            correct, total, errors = swap_accuracy(language, split)
            check = check_precision_recall(language, split)
            results[f"{language}/{split}"] = {"exact": correct, "sentences": total, "accuracy": correct / total,
                                              **check, "seconds": time.perf_counter() - started}
            print(f"{language} {split:7}: swap exact match {correct}/{total} = {correct / total:.1%}; check on "
                  f"{check['copies']} labelled copies ({check['residual_words']} residual words): precision "
                  f"{check['precision']:.3f}, recall {check['recall']:.3f} (copies: precision "
                  f"{check['copy_precision']:.3f}, recall {check['copy_recall']:.3f}; "
                  f"{check['clean_copies_flagged']}/{check['clean_copies']} correct swaps flagged)")
            if args.errors:
                for row, out in errors:
                    print(f"   [{row['id']}] {row['text']}\n      got:  {out}\n      gold: {row['swaps'][0]}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
