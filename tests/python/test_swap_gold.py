"""The swapper against the hand-written gold sets (tests/data/swap_gold), the agreement check's precision and
recall on copies labelled from those gold pairs, and the `biasmirror swap` preview command.

Floors: the issue's targets (>= 95% exact match for French and English, >= 90% for Spanish) on the gold sets,
and a little below the measured figures on the held-out sets written after the swapper was frozen (40
sentences each: one error moves them by 2.5 points). benchmarks/swap_gold.py prints every figure.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import swap_gold  # noqa: E402  (benchmarks/swap_gold.py)

from biasmirror.counterfactuals.checks import residual_words  # noqa: E402
from biasmirror.counterfactuals.rules import swap_sex  # noqa: E402

GOLD_FLOOR = {"fr": 0.95, "en": 0.95, "es": 0.90}
HELDOUT_FLOOR = {"fr": 0.90, "en": 0.90, "es": 0.90}
CHECK_FLOOR = {"precision": 0.93, "recall": 0.90}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_gold_sets_are_big_and_go_both_ways(language: str) -> None:
    rows = swap_gold.load_gold(language)
    assert len(rows) >= 150
    sexes = [r["sex"] for r in rows]
    assert min(sexes.count("F"), sexes.count("M")) >= 50
    assert len({r["text"] for r in rows}) == len(rows)
    for row in rows:
        assert row["sex"] in ("F", "M") and row["swaps"] and all(isinstance(s, str) and s for s in row["swaps"])
    held = swap_gold.load_gold(language, "heldout")
    assert len(held) >= 40 and not {r["text"] for r in held} & {r["text"] for r in rows}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_exact_match_floors(language: str) -> None:
    correct, total, _ = swap_gold.swap_accuracy(language)
    assert correct / total >= GOLD_FLOOR[language]
    correct, total, _ = swap_gold.swap_accuracy(language, "heldout")
    assert correct / total >= HELDOUT_FLOOR[language]


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_agreement_check_precision_and_recall(language: str) -> None:
    figures = swap_gold.check_precision_recall(language)
    assert figures["residual_words"] >= 250
    assert figures["precision"] >= CHECK_FLOOR["precision"] and figures["recall"] >= CHECK_FLOOR["recall"]
    # most correct swaps pass the check (a flagged valid copy is dropped from the pairs)
    assert figures["clean_copies_flagged"] / figures["clean_copies"] <= 0.05


def test_labelled_copies_come_from_the_gold_pairs() -> None:
    items = swap_gold.labelled_copies("fr")
    by_copy = {i.copy: i for i in items}
    # the correct swap is clean; the original is a copy with every changed word left (partner nouns excepted)
    clean = by_copy["Il est inquiet et se dit essoufflé à l'effort."]
    assert clean.original_sex == "F" and not clean.residual_starts
    # each copy carries its original: the check judges a copy against it, as the pipeline does
    assert clean.original == "Elle est inquiète et se dit essoufflée à l'effort."
    full = by_copy["Elle est inquiète et se dit essoufflée à l'effort."]
    assert {full.copy[s:].split()[0] for s in full.residual_starts} == {"Elle", "inquiète", "essoufflée"}
    partial = by_copy["Il est inquiète et se dit essoufflé à l'effort."]
    assert [partial.copy[s:].split()[0] for s in partial.residual_starts] == ["inquiète"]


ISSUE_CASES = [
    # (language, text, target sex, expected copy): the examples of the issue
    ("fr", "Accident de la voie publique, conductrice ceinturée.", "M", "Accident de la voie publique, conducteur ceinturé."),
    ("fr", "Il a pu marcher après la chute, aidé par un voisin.", "F", "Elle a pu marcher après la chute, aidée par un voisin."),
    ("fr", "Patient calme, coopérant.", "F", "Patiente calme, coopérante."),
    ("fr", "Il est gêné à la marche.", "F", "Elle est gênée à la marche."),
    ("fr", "Il est inquiet et se dit essoufflé à l'effort.", "F", "Elle est inquiète et se dit essoufflée à l'effort."),
    ("fr", "Vertiges rotatoires, il est resté allongé toute la matinée.", "F",
     "Vertiges rotatoires, elle est restée allongée toute la matinée."),
    ("fr", "Elle s'est tordu la cheville.", "M", "Il s'est tordu la cheville."),
    ("fr", "Il s'est tordu la cheville.", "F", "Elle s'est tordu la cheville."),
    ("fr", "Elle a pu marcher, aidée par sa voisine.", "M", "Il a pu marcher, aidé par sa voisine."),
    ("en", "She works as a waitress.", "M", "He works as a waiter."),
    ("en", "He is a retired policeman.", "F", "She is a retired policewoman."),
    ("en", "Her PCP told her she needed surgery.", "M", "His PCP told him he needed surgery."),
    ("en", "Her girlfriend is at bedside.", "M", "His boyfriend is at bedside."),
    ("en", "He was brought in by a policeman.", "F", "She was brought in by a policeman."),
]


@pytest.mark.parametrize(("language", "text", "target", "expected"), ISSUE_CASES, ids=[c[1][:40] for c in ISSUE_CASES])
def test_issue_examples(language: str, text: str, target: str, expected: str) -> None:
    copy = swap_sex(text, target, language).text
    assert copy == expected
    assert residual_words(copy, "M" if target == "F" else "F", language) == []


@pytest.mark.parametrize(("language", "copy", "original", "words"), [
    ("fr", "Il est gênée.", "F", ["gênée"]),
    ("fr", "Elle est inquiet et se dit essoufflé.", "M", ["inquiet", "essoufflé"]),
    ("fr", "Elle est resté allongée.", "M", ["resté"]),
    ("fr", "Accident, conducteur ceinturée.", "F", ["ceinturée"]),
    ("fr", "Son mari est inquiet.", "F", []),  # the partner's agreement never flags a copy
    ("en", "He works as a waitress.", "F", ["waitress"]),
    ("en", "His boyfriend is at bedside.", "F", []),  # a partner noun never flags a copy
    ("es", "Está consciente y orientada.", "F", ["orientada"]),
])
def test_the_check_names_the_residual_agreement(language: str, copy: str, original: str, words: list[str]) -> None:
    found = residual_words(copy, original, language)
    assert [w.text for w in found] == words
    assert all(w.reason != "lexicon term" for w in found)


@pytest.mark.slow  # real `biasmirror swap` processes
def test_swap_command_one_line_out_per_line_in() -> None:
    lines = ["Elle est inquiète et se dit essoufflée.", "", "Patiente calme, coopérante.", "Elle est gênée, tab\there."]
    result = subprocess.run([sys.executable, "-m", "biasmirror.cli", "swap", "--to", "M", "--language", "fr", "--check"],
                            input="\n".join(lines) + "\n", capture_output=True, text=True, check=True, cwd=ROOT)
    out = result.stdout.split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines)
    assert out[0] == "Il est inquiet et se dit essoufflé.\tok"
    assert out[1] == "\tok"
    assert out[2] == "Patient calme, coopérant.\tok"
    plain = subprocess.run([sys.executable, "-m", "biasmirror.cli", "swap", "--to", "F"], input="He is here.\nHis wife too.",
                           capture_output=True, text=True, check=True, cwd=ROOT)
    assert plain.stdout == "She is here.\nHer husband too.\n"
    bad = subprocess.run([sys.executable, "-m", "biasmirror.cli", "swap", "--to", "X"], input="x\n",
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1 and "--to must be F or M" in bad.stderr


def test_gold_files_are_valid_json_lines() -> None:
    for path in sorted((ROOT / "tests" / "data" / "swap_gold").glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            assert set(row) == {"id", "sex", "text", "swap", "tags"}, f"{path.name}:{n}"



def test_gold_rows_accept_the_equally_correct_spellings() -> None:
    """The gold loader takes its equal spellings from the package (tests/python/test_spellings.py)."""
    from biasmirror.counterfactuals.spellings import variants

    for language in ("en", "es"):
        for row in swap_gold.load_gold(language, "heldout14"):
            swaps = row["swap"] if isinstance(row["swap"], list) else [row["swap"]]
            for swap in swaps:
                assert set(variants(language, swap)) <= set(row["swaps"])
