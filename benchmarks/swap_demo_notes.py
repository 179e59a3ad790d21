"""The rule-based swap on the demo's synthetic notes (French Bordeaux, English MIMIC-IV), against the generators'
own other-sex rendering: the exact-match share of the copies, overall and by template family.

The synthetic generators draw every word of a note whatever the patient's sex and render the words that refer to
the patient ("[[masculine|feminine]]" in French, pronouns, nouns and role nouns in English) in the patient's sex;
relatives, staff and other people keep their own sex, words agreeing with an organ or a disease keep theirs.
The same draws rendered in the other sex (`synth.bordeaux.renderings`, `synth.mimic.renderings`) are therefore
what a perfect swap gives. The copies are made by the rule generator the demo runs (`RuleRewriter`, the
`biasmirror counterfactuals --generator rules` path: the triage note / HPI and the history / PMH swapped
separately); a copy is exact when both fields equal the reference ("Ms." and "Mrs." counted as one). The reference is computed here, from the
seed, and never stored in a warehouse: the swapper only ever sees the original texts.

English texts are cut into the sections the cohort keeps exactly as `int_mimic__discharge_notes_sectioned` does
(rules from `seeds/note_section_rules.csv`: the History of Present Illness up to "In the ED", the Past Medical
History, lines joined, whitespace collapsed); tests/python/test_swap_demo_notes.py checks that on a built
warehouse.

By family: each (family, sentence) part of a note is swapped on its own and compared with its other-sex
rendering (families: synth.bordeaux.FAMILIES; English intro, symptoms, people, descriptions, negations,
kinship, and the PMH as a whole). Only the cohort's records are measured (no planted exclusion).

Run: .venv/bin/python benchmarks/swap_demo_notes.py [--language fr --language en] [--visits 2000] [--stays 20000]
     [--seed 42] [--json FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION_RULES = ROOT / "seeds" / "note_section_rules.csv"
_HEADER = re.compile(r"^[ \t]*([^:]+):")
_MRS = re.compile(r"\bMrs\.")


def same(copy: str | None, reference: str | None) -> bool:
    """A copy equals the reference; "Ms." and "Mrs." count as one (the synthetic notes write "Mrs." for a third
    of the women, the swap of "Mr." writes "Ms.": nothing in the text says which a man's copy should get)."""
    if copy is None or reference is None:
        return copy == reference
    return _MRS.sub("Ms.", copy) == _MRS.sub("Ms.", reference)


@dataclass(frozen=True)
class Record:
    """One cohort record: its fields as the swapper sees them, the reference (the same draws in the other
    sex), and its (family, text, other-sex text) parts."""

    record_id: str
    sex: str
    texts: tuple[str | None, str | None]
    reference: tuple[str | None, str | None]
    parts: tuple[tuple[str, str, str], ...]


def french_records(visits: int, seed: int) -> list[Record]:
    """The Bordeaux cohort's records (exclusion 'none') of `write_bordeaux(visits, seed)`."""
    from biasmirror.synth import bordeaux as b

    out = []
    for r in b.renderings(visits, seed):
        if r.exclusion != "none":
            continue
        parts = tuple((f, t, o) for (f, t), (_, o) in zip(r.note + r.history, r.other_note + r.other_history))
        out.append(Record(r.visit_id, r.sex, (b.join_note(r.note), b.join_history(r.history)),
                          (b.join_note(r.other_note), b.join_history(r.other_history)), parts))
    return out


def _section_rules() -> tuple[dict[str, tuple[str, bool]], dict[str, list[str]]]:
    headers: dict[str, tuple[str, bool]] = {}
    markers: dict[str, list[str]] = defaultdict(list)
    with open(SECTION_RULES, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["rule_type"] == "section":
                headers[row["pattern"]] = (row["output_field"], row["known_at_triage"] == "true")
            elif row["rule_type"] == "truncate_marker":
                markers[row["output_field"]].append(row["pattern"])
    return headers, markers


def mimic_sections(note: str) -> tuple[str | None, str | None]:
    """(hpi, pmh) of a discharge note as the cohort keeps them (see the module docstring)."""
    headers, markers = _section_rules()
    sections: list[tuple[str, bool, list[str]]] = []
    for line in note.split("\n"):
        match = _HEADER.match(line)
        if match and match.group(1).strip() in headers:
            field, known = headers[match.group(1).strip()]
            sections.append((field, known, [line[line.index(":") + 1:].strip()]))
        elif sections:
            sections[-1][2].append(line)
    out: dict[str, str | None] = {}
    for field, known, lines in sections:
        if not known or not field or field in out:
            continue
        text = " ".join(lines)
        cuts = [text.find(m) for m in markers.get(field, []) if text.find(m) >= 0]
        if cuts:
            text = text[:min(cuts)]
        out[field] = re.sub(r"\s+", " ", text).strip() or None
    return out.get("hpi"), out.get("pmh")


def english_records(stays: int, seed: int) -> list[Record]:
    """The MIMIC-IV cohort's records with a note (exclusion 'none') of `write_mimic(stays, seed)`."""
    from biasmirror.synth import mimic as m

    out = []
    for r in m.renderings(stays, seed):
        if r.exclusion != "none":
            continue
        texts, reference = mimic_sections(r.note), mimic_sections(r.other_note)
        parts = tuple((f, t, o) for (f, t), (_, o) in zip(r.hpi_parts, r.other_hpi_parts))
        parts += (("pmh", texts[1] or "", reference[1] or ""),) if texts[1] else ()
        out.append(Record(str(r.stay_id), r.sex, texts, reference, parts))
    return out


def swap(records: list[Record], language: str) -> list:
    """The rule generator's copies of the records (`RuleRewriter`, as `biasmirror counterfactuals` makes them)."""
    from biasmirror.counterfactuals.base import RewriteInput
    from biasmirror.counterfactuals.rule_rewriter import RuleRewriter

    items = [RewriteInput(r.texts[0], r.texts[1], r.sex, language) for r in records]
    return RuleRewriter().rewrite_batch(items)


def _joined(hpi: str | None, pmh: str | None) -> str:
    return "\n".join(t for t in (hpi, pmh) if t)


def measure(records: list[Record], language: str, by_family: bool = True, check: bool = True) -> dict[str, object]:
    """Exact-match share of the rule generator's copies against the reference, overall, by field, among the
    copies it does not flag, and (by_family) by template family; (check) how the second opinion's reading, which
    audit.counterfactual_quality reports, flags the exact and the wrong copies."""
    from biasmirror.counterfactuals.rules import swap_many

    started = time.process_time()
    copies = swap(records, language)
    cpu = time.process_time() - started
    exact = [same(c.hpi, r.reference[0]) and same(c.pmh, r.reference[1]) for c, r in zip(copies, records)]
    ok = [c.status == "ok" for c in copies]
    n = len(records)
    result: dict[str, object] = {
        "language": language, "records": n, "exact": sum(exact), "exact_share": sum(exact) / n,
        "hpi_exact_share": sum(same(c.hpi, r.reference[0]) for c, r in zip(copies, records)) / n,
        "pmh_exact_share": sum(same(c.pmh, r.reference[1]) for c, r in zip(copies, records)) / n,
        "flagged_share": 1 - sum(ok) / n,
        "exact_share_of_unflagged": sum(e for e, o in zip(exact, ok) if o) / max(1, sum(ok)),
        "flagged_share_of_exact": sum(not o for e, o in zip(exact, ok) if e) / max(1, sum(exact)),
        "records_per_cpu_second": n / cpu if cpu else None,
        # a flagged copy leaves the pairs: a flag rate that differs by direction is a bias of its own
        "flagged_share_by_original_sex": {
            sex: sum(not o for o, r in zip(ok, records) if r.sex == sex) / max(1, sum(r.sex == sex for r in records))
            for sex in ("F", "M")},
        "exact_share_by_original_sex": {
            sex: sum(e for e, r in zip(exact, records) if r.sex == sex) / max(1, sum(r.sex == sex for r in records))
            for sex in ("F", "M")},
    }
    if check:
        from biasmirror.counterfactuals.second_opinion import judge_many

        flags = judge_many([_joined(*r.texts) for r in records], [_joined(c.hpi, c.pmh) for c in copies],
                           [r.sex for r in records], language, methods=("reading",))
        flagged = [bool(f) for f in flags]
        wrong = n - sum(exact)
        result["reading_flags_exact"] = sum(f for f, e in zip(flagged, exact) if e)
        result["reading_flags_exact_share"] = result["reading_flags_exact"] / max(1, sum(exact))  # type: ignore[operator]
        result["reading_flags_wrong"] = sum(f for f, e in zip(flagged, exact) if not e)
        result["reading_flags_wrong_share"] = result["reading_flags_wrong"] / max(1, wrong)  # type: ignore[operator]
    if by_family:
        parts = [(f, t, o, r.sex) for r in records for f, t, o in r.parts if t]
        swapped = swap_many([t for _, t, _, _ in parts], ["M" if s == "F" else "F" for *_, s in parts], language)
        families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        distinct: dict[str, set[str]] = defaultdict(set)
        for (family, text, other, _), copy in zip(parts, swapped):
            families[family][0] += 1
            families[family][1] += same(copy.text, other)
            distinct[family].add(text)
        result["families"] = {f: {"parts": k, "exact": e, "exact_share": e / k, "distinct": len(distinct[f])}
                              for f, (k, e) in sorted(families.items())}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", action="append", choices=("fr", "en"),
                        help="fr (synthetic Bordeaux) and/or en (synthetic MIMIC-IV); both by default")
    parser.add_argument("--visits", type=int, default=2000, help="synthetic Bordeaux visits (the cohort is ~90%%)")
    parser.add_argument("--stays", type=int, default=20000, help="synthetic MIMIC-IV stays (the demo's 20,000)")
    parser.add_argument("--seed", type=int, default=42, help="seed of both generators (the demo's 42)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = {}
    for language in args.language or ["fr", "en"]:
        records = (french_records(args.visits, args.seed) if language == "fr"
                   else english_records(args.stays, args.seed))
        r = measure(records, language)
        results[language] = r
        print(f"{language}: {r['records']:,} cohort records; exact copies {r['exact']:,} = {r['exact_share']:.1%} "
              f"(note/HPI {r['hpi_exact_share']:.1%}, history/PMH {r['pmh_exact_share']:.1%}); flagged by the "
              f"generator {r['flagged_share']:.1%}; exact among the unflagged {r['exact_share_of_unflagged']:.1%}; "
              f"exact copies flagged {r['flagged_share_of_exact']:.1%}")
        by_sex = r["flagged_share_by_original_sex"], r["exact_share_by_original_sex"]
        print(f"  by original sex: exact F->M {by_sex[1]['F']:.1%}, M->F {by_sex[1]['M']:.1%}; "  # type: ignore[index]
              f"flagged F->M {by_sex[0]['F']:.1%}, M->F {by_sex[0]['M']:.1%}")  # type: ignore[index]
        if "reading_flags_exact" in r:
            print(f"  second opinion (reading): flags {r['reading_flags_wrong_share']:.1%} of the wrong copies and "
                  f"{r['reading_flags_exact_share']:.1%} of the exact ones")
        for family, f in r["families"].items():  # type: ignore[union-attr]
            print(f"  {family:<14} {f['exact']:>7,} / {f['parts']:<7,} = {f['exact_share']:6.1%} "
                  f"({f['distinct']:,} distinct)")
    if args.json:
        args.json.write_text(json.dumps({"visits": args.visits, "stays": args.stays, "seed": args.seed,
                                         **results}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
