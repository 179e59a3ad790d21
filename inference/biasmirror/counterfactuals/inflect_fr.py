"""Gender inflection of French adjectives, past participles and role nouns (singular forms only).

``to_feminine("inquiet") == "inquiète"``, ``to_masculine("conductrice") == "conducteur"``; ``None`` when the
word has no gender inflection ("calme", "algique", "médecin") or is not a singular form this module knows how
to inflect. Regular suffix rules, then an exceptions list (morphology/fr_inflection.json), then, where a suffix is
ambiguous (-euse: anxieux or fumeur?), the adjective and noun exception tables of spaCy's French lemmatizer
when the pipeline is installed.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["to_feminine", "to_masculine", "gender_of", "is_adjective"]

# Masculine -> feminine suffix rules, longest suffix first (checked in this order).
_M_TO_F: tuple[tuple[str, str], ...] = (
    ("teur", "trice"), ("eur", "euse"), ("eux", "euse"), ("ier", "ière"), ("er", "ère"), ("et", "ète"),
    ("el", "elle"), ("eil", "eille"), ("ien", "ienne"), ("éen", "éenne"), ("on", "onne"), ("if", "ive"), ("euf", "euve"),
    ("é", "ée"), ("i", "ie"), ("u", "ue"), ("is", "ise"), ("ais", "aise"), ("ois", "oise"), ("us", "use"),
    ("it", "ite"), ("at", "ate"), ("ot", "ote"), ("ut", "ute"), ("ant", "ante"), ("ent", "ente"), ("int", "inte"),
    ("ert", "erte"), ("ort", "orte"), ("ain", "aine"), ("in", "ine"), ("an", "ane"), ("al", "ale"),
    ("ul", "ule"), ("and", "ande"), ("ond", "onde"), ("ourd", "ourde"), ("aud", "aude"), ("oid", "oide"),
    ("ard", "arde"), ("c", "que"), ("g", "gue"),
)
# Endings of words that are the same in both genders (after the exceptions list).
_EPICENE_ENDINGS = ("e",)


@functools.lru_cache(maxsize=1)
def _exceptions() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    raw = resources.files("biasmirror.counterfactuals").joinpath("morphology", "fr_inflection.json").read_text("utf-8")
    data = json.loads(raw)
    m_to_f = {m: f for m, f in data["pairs"]}
    f_to_m = {f: m for m, f in data["pairs"]}
    return m_to_f, f_to_m, frozenset(data["invariable"])


@functools.lru_cache(maxsize=None)
def _tables() -> tuple[dict, dict] | None:
    from biasmirror.counterfactuals.nlp import french_lemma_tables

    return french_lemma_tables()


def to_feminine(word: str) -> str | None:
    """The feminine singular of a masculine singular ``word`` (lower case), or None."""
    m_to_f, f_to_m, invariable = _exceptions()
    if word in m_to_f:
        return m_to_f[word]
    if word.startswith("ex-") and len(word) > 3:
        rest = to_feminine(word[3:])  # "ex-vendeur" -> "ex-vendeuse": the prefix stays
        return "ex-" + rest if rest else None
    if word in invariable or word in f_to_m or len(word) < 2 or not word.isalpha() and "-" not in word:
        return None
    if word.endswith(_EPICENE_ENDINGS):
        return None
    if word.endswith("teur"):
        return word[:-4] + "trice"
    for suffix, feminine in _M_TO_F:
        if word.endswith(suffix):
            return word[: len(word) - len(suffix)] + feminine
    if word.endswith("s") or word.endswith("x"):
        return None  # a plural, or a masculine this module does not know
    return None


def to_masculine(word: str) -> str | None:
    """The masculine singular of a feminine singular ``word`` (lower case), or None."""
    m_to_f, f_to_m, invariable = _exceptions()
    if word in f_to_m:
        return f_to_m[word]
    if word.startswith("ex-") and len(word) > 3:
        rest = to_masculine(word[3:])
        return "ex-" + rest if rest else None
    if word in invariable or word in m_to_f or len(word) < 3 or not word.endswith("e"):
        return None
    candidates: list[str] = []
    if word.endswith("trice"):
        candidates.append(word[:-5] + "teur")
    elif word.endswith("euse"):
        stem = word[:-4]
        tables = _tables()
        eur, eux = stem + "eur", stem + "eux"
        if tables is not None:
            adj, noun = tables
            known = set(adj.get(word, ())) | set(noun.get(word, ()))
            if eur in known and eux not in known:
                return eur
            if eux in known:
                return eux
        return eux
    elif word.endswith("ière"):
        candidates.append(word[:-4] + "ier")
    elif word.endswith("ère"):
        candidates.append(word[:-3] + "er")
    elif word.endswith("ète"):
        candidates.append(word[:-3] + "et")
    elif word.endswith(("elle", "eille", "enne", "onne", "ette")):
        candidates.append(word[:-2])
    elif word.endswith("ive"):
        candidates.append(word[:-3] + "if")
    elif word.endswith("euve"):
        candidates.append(word[:-4] + "euf")
    elif word.endswith(("ée", "ie", "ue", "ise", "aise", "oise", "use", "ite", "ate", "ote", "ute", "ante", "ente",
                        "inte", "erte", "orte", "aine", "ine", "ane", "ale", "ule", "ande", "onde", "ourde", "aude",
                        "oide", "arde", "que", "gue")):
        if word.endswith(("ique", "aque", "ogue", "ague")):
            return None
        if word.endswith("que"):
            return None
        if word.endswith("gue"):
            candidates.append(word[:-2])
        else:
            candidates.append(word[:-1])
    else:
        return None
    masculine = candidates[0]
    # the masculine must come back to the same feminine (guards against epicene words and odd stems)
    return masculine if to_feminine(masculine) == word else None


@functools.lru_cache(maxsize=1)
def _adjectives() -> frozenset[str]:
    data = json.loads(resources.files("biasmirror.counterfactuals").joinpath("morphology", "fr_inflection.json")
                      .read_text("utf-8"))
    words = set(data.get("adjectives", [])) | {m for m, _ in data["pairs"]}
    from biasmirror.counterfactuals.nlp import french_adjective_forms

    return frozenset(words | french_adjective_forms())


def is_adjective(word: str) -> bool:
    """Whether ``word`` (or its masculine) is a known adjective or participle: the exceptions and adjectives of
    fr_inflection.json and, when installed, the adjective tables of spaCy's French lemmatizer."""
    known = _adjectives()
    if word in known:
        return True
    masculine = to_masculine(word)
    return masculine is not None and masculine in known


def gender_of(word: str) -> str | None:
    """'F' for a feminine form with a distinct masculine, 'M' for a masculine with a distinct feminine, else None."""
    if to_masculine(word) is not None:
        return "F"
    if to_feminine(word) is not None:
        return "M"
    return None
