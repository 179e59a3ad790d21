"""Exact-match accuracy of the rule-based swapper on the hand-written gold sets, and precision/recall of the
agreement-aware validity check on labelled copies.

Gold sets: tests/data/swap_gold/<language>.jsonl (see its README). Labelled copies for the check are built
from the same gold pairs, so that their labels come from the hand-written swaps and never from the swapper:

* the correct swap itself: no word of the original sex left (a negative);
* the original sentence given as the copy (nothing swapped): every word the gold swap changes, partner
  words excepted, is left (positives);
* one copy per changed word with that one word left in its original form (a partial edit, as a careless
  rewriter makes: "Il est gênée").

A flagged word counts as a true positive when it is a labelled residual word (matched by position). The check
is given each copy's original, as the pipeline gives it (a word the copy keeps from the original counts only when
the second opinion's reading says it is the patient's).
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


SPLITS = ("gold", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
          "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
          "heldout17")
# rounds written to go both ways: each row is also measured from its swap back to its text
BOTH_WAYS = ("heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9",
             "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17")


def load_gold(language: str, split: str = "gold") -> list[dict]:
    """The gold sentences of a language: split 'gold' (<language>.jsonl, the development set the swapper was
    tuned on), 'heldout' (<language>_heldout.jsonl, written after the swapper was frozen), 'heldout2' (round
    2 of issue 22, measured once before the swapper changed), 'heldout3' (round 3, measured once at the
    end of round 2's changes, a development set since), 'heldout4' (round 4, written before round 3's errors
    were fixed, measured once at the end), 'heldout5' (round 5, written before that round's swapper changes,
    measured once at the end, a development set since), 'heldout6' (round 6, written before that round's
    swapper changes, measured once at the end, a development set since), 'heldout7' (round 7, likewise),
    'heldout8' (round 8, likewise), 'heldout9' (round 9, written blind before that round's swapper changes,
    measured once at the end), 'heldout10' (round 10, likewise), 'heldout11' (round 11, likewise),
    'heldout12' (round 12, likewise), 'heldout13' (round 13, likewise), 'heldout14' (round 14, likewise),
    'heldout15' (round 15, likewise), 'heldout16' (round 16, likewise; each file reviewed by a second linguist,
    also blind, before any measurement) or 'heldout17' (round 17, likewise)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    rows = []
    name = f"{language}.jsonl" if split == "gold" else f"{language}_{split}.jsonl"
    with open(GOLD / name, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                swaps = row["swap"] if isinstance(row["swap"], list) else [row["swap"]]
                # forward rows accept the same equal spellings as backward ones; the first stays the gold's own
                row["swaps"] = list(dict.fromkeys(e for swap in swaps for e in _equivalents(language, swap)))
                rows.append(row)
    return rows


def other(sex: str) -> str:
    return "M" if sex == "F" else "F"


def _equivalents(language: str, text: str) -> list[str]:
    """Spellings of a gold text that are equally correct (biasmirror.counterfactuals.spellings: English "Mum" or
    "Mom" and "Ms" where a row wrote "Mrs", which rounds 2-13 wrote one way and later rounds list both; Spanish
    "hombre" or "varón")."""
    from biasmirror.counterfactuals.spellings import variants

    return variants(language, text)


def directed_rows(language: str, split: str = "gold") -> list[dict]:
    """The rows of a split, plus (for the rounds written to go both ways) each row read backwards: its first
    swap as the text, of the other sex, with the original text as the swap. Backward rows get id '<id>/back'."""
    rows = load_gold(language, split)
    if split not in BOTH_WAYS:
        return rows
    back = [{"id": f"{row['id']}/back", "sex": other(row["sex"]), "text": row["swaps"][0],
             "swaps": _equivalents(language, row["text"]), "tags": row.get("tags", [])} for row in rows]
    return rows + back


def swap_accuracy(language: str, split: str = "gold") -> tuple[int, int, list[tuple[dict, str]]]:
    from biasmirror.counterfactuals.rules import swap_many

    rows = directed_rows(language, split)
    outputs = [r.text for r in swap_many([row["text"] for row in rows], [other(row["sex"]) for row in rows], language)]
    errors = [(row, out) for row, out in zip(rows, outputs) if out not in row["swaps"]]
    return len(rows) - len(errors), len(rows), errors


@dataclass
class Labelled:
    copy: str
    original_sex: str
    residual_starts: frozenset[int]
    original: str | None = None     # the text the copy was made from: the check judges the copy against it


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(), m.start()) for m in _WORD.finditer(text)]


def labelled_copies(language: str, split: str = "gold") -> list[Labelled]:
    """Correct swaps, unswapped originals and one-word partial edits, labelled from the gold pairs."""
    from biasmirror.counterfactuals.rules import _lexicon_for

    lex = _lexicon_for(language)
    out: list[Labelled] = []
    for row in directed_rows(language, split):
        original, gold = row["text"], row["swaps"][0]
        a, b = _tokens(original), _tokens(gold)
        matcher = difflib.SequenceMatcher(a=[t for t, _ in a], b=[t for t, _ in b], autojunk=False)
        blocks = [op for op in matcher.get_opcodes() if op[0] != "equal"]
        out.append(Labelled(gold, row["sex"], frozenset(), original))
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
        out.append(Labelled(original, row["sex"], labels, original))
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
                out.append(Labelled(copy, row["sex"], frozenset(a[k][1] + shift for k in range(i1, i2)), original))
    return out


def check_precision_recall(language: str, split: str = "gold") -> dict[str, float | int]:
    from biasmirror.counterfactuals.checks import residual_words_many

    items = labelled_copies(language, split)
    # judged against the originals, as the pipeline judges its copies
    flagged = residual_words_many([i.copy for i in items], [i.original_sex for i in items], language,
                                  originals=[i.original for i in items])
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


def _residual_check(originals: list[str], copies: list[str], original_sexes: list[str], language: str) -> list[bool]:
    """The check of issue 13 (checks.residual_words_many) as the pipeline runs it, given the originals: a copy is
    flagged when a word still signals the original sex and was either changed by the copy or, kept from the
    original, is the patient's by the second opinion's reading."""
    from biasmirror.counterfactuals.checks import residual_words_many

    return [bool(found) for found in residual_words_many(copies, original_sexes, language, originals=originals)]


def _second_opinion(methods: tuple[str, ...]):
    def check(originals: list[str], copies: list[str], original_sexes: list[str], language: str) -> list[bool]:
        from biasmirror.counterfactuals.second_opinion import judge_many

        return [bool(flags) for flags in judge_many(originals, copies, original_sexes, language, methods)]
    return check


CHECKS = {"residual": _residual_check,
          # the second opinion (issue 22): the original's own reading aligned with the copy, and the round trip
          "reading": _second_opinion(("reading",)), "round_trip": _second_opinion(("round_trip",)),
          "second_opinion": _second_opinion(("reading", "round_trip"))}


def swapper_copy_check(language: str, split: str, check: str = "residual") -> dict[str, object]:
    """The check judged on the swapper's own copies of a split (both directions where the split has them):
    a copy is wrong when it is none of the gold swaps. Recall: wrong copies flagged / wrong copies; false
    flags: correct copies flagged / correct copies."""
    from biasmirror.counterfactuals.rules import swap_many

    rows = directed_rows(language, split)
    originals = [row["text"] for row in rows]
    sexes = [row["sex"] for row in rows]
    copies = [r.text for r in swap_many(originals, [other(s) for s in sexes], language)]
    flags = CHECKS[check](originals, copies, sexes, language)
    wrong = [copy not in row["swaps"] for row, copy in zip(rows, copies)]
    n_wrong = sum(wrong)
    caught = sum(f and w for f, w in zip(flags, wrong))
    false_flags = sum(f and not w for f, w in zip(flags, wrong))
    return {"copies": len(rows), "exact": len(rows) - n_wrong, "wrong": n_wrong, "wrong_flagged": caught,
            "correct_flagged": false_flags,
            "recall": caught / n_wrong if n_wrong else 1.0,
            "false_flag_share": false_flags / (len(rows) - n_wrong) if len(rows) > n_wrong else 0.0,
            "missed": [row["id"] for row, f, w in zip(rows, flags, wrong) if w and not f],
            "false_flagged": [row["id"] for row, f, w in zip(rows, flags, wrong) if f and not w]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="print the gold sentences the swapper gets wrong")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--language", action="append", choices=LANGUAGES, help="only these languages")
    parser.add_argument("--split", action="append", choices=SPLITS,
                        help="only these splits (default: gold and heldout; the rounds of issue 22 are measured "
                             "once each, so they are named explicitly)")
    parser.add_argument("--check", action="append", choices=sorted(CHECKS),
                        help="also judge these checks on the swapper's own copies of each split")
    args = parser.parse_args(argv)
    results: dict[str, dict] = {}
    for split in args.split or ("gold", "heldout"):
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
            for name in args.check or ():
                judged = swapper_copy_check(language, split, name)
                results[f"{language}/{split}"][f"check_{name}"] = judged
                print(f"   check {name} on the swapper's {judged['copies']} copies: {judged['wrong_flagged']}/"
                      f"{judged['wrong']} wrong copies flagged (recall {judged['recall']:.1%}), "
                      f"{judged['correct_flagged']}/{judged['exact']} correct copies flagged "
                      f"({judged['false_flag_share']:.1%})")
            if args.errors:
                for row, out in errors:
                    print(f"   [{row['id']}] {row['text']}\n      got:  {out}\n      gold: {row['swaps'][0]}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
