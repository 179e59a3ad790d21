"""The French swapper on the demo's synthetic Bordeaux notes: correctness against the generator's own
other-sex rendering, residual agreement by the validity check, and records per second, before (the lexicon's
word-window agreement rules) and after (the morphology-aware path, spaCy fr_core_news_sm).

The synthetic notes are drawn once and rendered in the patient's sex ("[[masculine|feminine]]" forms), so the
same draws rendered in the other sex are the exact counterfactual of each record: a swap is correct when it
equals that rendering (triage note and history both). benchmarks/swap_demo_notes.py measures the generator's
copies against it in French and English, by template family. The residual-agreement share is the share of copies in which the check
(checks.residual_words_many, given the originals) still finds a word of the original sex; it is what `biasmirror counterfactuals`
stores in inference.counterfactual_checks and audit.counterfactual_quality reports.

Run: .venv/bin/python benchmarks/swap_bordeaux.py [--visits 2000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np


def cohort_pairs(visits: int, seed: int) -> list[tuple[str, tuple[str, str], tuple[str, str]]]:
    """(sex, (note, history), (note, history) rendered in the other sex) of the cohort's records (exclusion
    'none'), from the generator's own draws."""
    from biasmirror.synth import bordeaux as b
    from biasmirror.synth.draws import Draws

    rng = np.random.default_rng(seed)
    v = b._draw_visits(rng, visits, b.DEFAULT_FF_EFFECT)
    out = []
    for start in range(0, visits, b._CHUNK):
        stop = min(start + b._CHUNK, visits)
        block = rng.random((stop - start, b._TEXT_DRAWS)).tolist()
        for i in range(start, stop):
            if b._EXCLUSIONS[v.exclusion[i]] != "none":
                continue
            sex = "F" if v.female[i] else "M"
            other = "M" if sex == "F" else "F"
            args = (int(v.age[i]), b.GROUPS[v.group[i]], "none", "history", int(v.vitals["pain_score"][i]),
                    float(v.vitals["temperature_c"][i]))
            note, history, _ = b._texts(Draws(list(block[i - start])), sex, *args)
            note2, history2, _ = b._texts(Draws(list(block[i - start])), other, *args)
            out.append((sex, (note, history), (note2, history2)))
    return out


def run(records, morphology: bool) -> dict[str, float | int]:
    from biasmirror.counterfactuals.checks import residual_words_many
    from biasmirror.counterfactuals.rules import swap_many

    from biasmirror.counterfactuals.agreement_fr import _sentences, clear_cache

    sexes = [s for s, _, _ in records]
    targets = ["M" if s == "F" else "F" for s in sexes]
    clear_cache()  # every distinct sentence is parsed once in this run
    distinct = len({s for r in records for text in r[1] for _, s in _sentences(text)})
    started, cpu_started = time.perf_counter(), time.process_time()
    notes = swap_many([r[1][0] for r in records], targets, "fr", morphology=morphology)
    histories = swap_many([r[1][1] for r in records], targets, "fr", morphology=morphology)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    exact = sum(n.text == r[2][0] and h.text == r[2][1] for n, h, r in zip(notes, histories, records))
    joined = [f"{n.text}\n{h.text}" for n, h in zip(notes, histories)]
    check_started = time.perf_counter()
    texts = [f"{r[1][0]}\n{r[1][1]}" for r in records]
    # judged against the originals, as the pipeline judges them (a word kept from the original counts only when
    # the second opinion's reading says it is the patient's)
    residual = residual_words_many(joined, sexes, "fr", originals=texts)
    check_seconds = time.perf_counter() - check_started
    gold = [f"{r[2][0]}\n{r[2][1]}" for r in records]
    gold_residual = residual_words_many(gold, sexes, "fr", originals=texts)
    originals = residual_words_many(texts, sexes, "fr", originals=texts)
    return {"records": len(records), "distinct_sentences": distinct, "seconds": seconds,
            "records_per_second": len(records) / seconds, "cpu_seconds": cpu,
            "records_per_cpu_second": len(records) / cpu,
            "distinct_sentences_per_cpu_second": distinct / cpu if morphology else None,
            "exact": exact, "exact_share": exact / len(records),
            "residual_share": sum(bool(x) for x in residual) / len(records),
            "check_seconds": check_seconds, "check_records_per_second": len(records) / check_seconds,
            "gold_flagged_share": sum(bool(x) for x in gold_residual) / len(records),
            "originals_flagged_share": sum(bool(x) for x in originals) / len(records)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=2000, help="synthetic visits to draw (the cohort is ~90%%)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    records = cohort_pairs(args.visits, args.seed)
    from biasmirror.counterfactuals.nlp import french

    load_started = time.perf_counter()
    french()
    load_seconds = time.perf_counter() - load_started
    # floor: one regex pass that only finds the gendered words
    finder = re.compile(r"\b(il|elle|patiente?|madame|monsieur|mari|femme)\b", re.IGNORECASE)
    started = time.perf_counter()
    for _, (note, history), _ in records:
        finder.findall(note)
        finder.findall(history)
    floor = time.perf_counter() - started
    before = run(records, morphology=False)
    after = run(records, morphology=True)
    results = {"records": len(records), "model_load_seconds": load_seconds, "regex_floor_seconds": floor,
               "lexicon_only": before, "morphology": after}
    for name, r in (("before (lexicon word windows)", before), ("after (morphology-aware)", after)):
        print(f"{name}: {r['records']:,} records in {r['seconds']:.2f} s wall = {r['records_per_second']:,.0f} records/s "
              f"({r['cpu_seconds']:.2f} s CPU = {r['records_per_cpu_second']:,.0f} records per CPU second); "
              f"exact counterfactual {r['exact']:,} ({r['exact_share']:.1%}); residual agreement by the check "
              f"{r['residual_share']:.1%} of copies")
    print(f"morphology path: {after['distinct_sentences']:,} distinct sentences at "
          f"{after['distinct_sentences_per_cpu_second']:,.0f} per CPU second (the cost for notes that share no sentence)")
    print(f"check: {after['check_records_per_second']:,.0f} records/s; flags {after['originals_flagged_share']:.1%} "
          f"of unswapped originals and {after['gold_flagged_share']:.1%} of the exact counterfactuals; "
          f"model load {load_seconds:.1f} s; bare regex pass {floor:.3f} s")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
