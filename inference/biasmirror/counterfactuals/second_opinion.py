"""A second opinion on a counterfactual copy, which does not reuse the swapper's decisions.

Two methods, each reported on its own (a copy's flags say which method found what):

* ``reading`` - the original is read on its own terms (referents_<language>.py: for French the Lefff's word
  classes and genders, never the spaCy parse the swapper uses; for English and Spanish word lists and
  surface rules written apart from the swapper's) to find the words that refer to the patient and carry the
  patient's sex. The copy is then aligned with the original token by token:

  - a patient word left as it was is a **residual** ("Il est anxieux, pâle et agitée");
  - any other changed word is a **content change**, with its reason: ``other person`` (a relative's, a
    carer's or a clinician's word: "her son, a 50 year old woman"), ``agrees with something else`` (an
    adjective agreeing with an organ or a disease: "hypochondre droite", "cardiopathie stenté") or
    ``other word`` (a word with no sex at all: a misspelt or reworded word); a patient's pronoun changed to a
    form of the wrong case is ``wrong form`` ("found her drowsy" / "found his drowsy"). Partner nouns, and words agreeing
    with a partner, may change (the relationship keeps its configuration: docs/counterfactuals.md).

  English (round 12): a definite noun that opens a clause ("The elderly lady was found ...") or a copula's
  subject so named, a noun followed by an age ("The waitress, 24, ..."), the patient quoted ("I'm a widow"),
  forms of address and nicknames ("calls him 'Uncle'", "Sir ___") and compound role nouns ("ex-policewoman",
  "-man"/"-woman" nouns) are read as the patient's; codes glued to other letters ("E4V4M6"), lower-case "ms"
  and "miss" are not. French: inverted pronouns are tokens of their own ("Est-elle"), and a fragment's opening
  adjective or participle of the patient's sex is the patient's when nothing else in its sentence could control
  it. Spanish: object clitics after another person's noun, "él mismo"/"ella misma" and the phrase they appose,
  the titles "D."/"Dña.", neuter "lo" ("no lo sabe"), "la paciente del box 2" as another patient, "-ente"/
  "-ante" adjectives as epicene. A replacement of function words alone ("del" / "de la") is judged as a change;
  a function word may change only with the patient's or partner's word after it (or a partner's word before).

  The reading looks at the original only, whatever its sex, so a flag never depends on the swap's direction.
* ``round_trip`` - the copy swapped back to the original sex by the rule swapper must give the original, up to
  equally correct spellings (spellings.py: "Mrs" swaps to "Mr" and back to "Ms"). It reuses the swapper, so it catches only what the swapper does not undo (an over-swap it cannot reverse, a
  word a generator mangled).

Messages and reasons are categories; a flag carries the position of the word in the copy, never its text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from biasmirror.counterfactuals.second_opinion_base import Reading, Token

METHODS = ("reading", "round_trip")
RESIDUAL = "residual"
CONTENT_CHANGE = "content change"
ROUND_TRIP = "round trip"


@dataclass(frozen=True)
class Flag:
    """One finding on a copy: the method that found it, its kind (residual, content change, round trip), the
    position in the copy of the word concerned (-1 for the whole copy) and the reason (a category)."""

    method: str
    kind: str
    start: int
    reason: str


def languages() -> tuple[str, ...]:
    """The languages with a reading (French needs the Lefff: lefff.available())."""
    from biasmirror.counterfactuals import lefff

    return ("en", "es", "fr") if lefff.available() else ("en", "es")


def reader_for(language: str) -> Callable[[str, str], tuple[list[Token], Reading]]:
    if language == "fr":
        from biasmirror.counterfactuals.referents_fr import read
    elif language == "en":
        from biasmirror.counterfactuals.referents_en import read
    elif language == "es":
        from biasmirror.counterfactuals.referents_es import read
    else:
        raise ValueError(f"no second-opinion reading for language {language!r}: one of {', '.join(languages())}")
    return read


def tokenizer_for(language: str) -> Callable[[str], list[Token]]:
    if language == "fr":
        from biasmirror.counterfactuals.referents_fr import tokens
    elif language == "en":
        from biasmirror.counterfactuals.referents_en import tokens
    else:
        from biasmirror.counterfactuals.referents_es import tokens
    return tokens


POSSESSIVE_PAIRS = {"son", "sa", "mon", "ma", "ton", "ta"}
# possessives that need not change with a partner's noun ("son épouse", "su marido" / "su esposa", "her husband")
POSSESSIVE_WORDS = POSSESSIVE_PAIRS | {"ses", "leur", "leurs", "mes", "tes", "su", "sus", "his", "her", "their", "l'",
                                      "l’"}


def _elision_pair(a: str, b: str) -> bool:
    """French function words that change with the next word's gender or first letter (d'/de, l'/le/la)."""
    forms = {"de", "d'", "d’", "le", "la", "l'", "l’", "du", "au", "à", "ce", "cet", "cette", "un", "une", "qu'",
             "que", "qu’", "lo", "el", "del", "al", "a", "si", "s'", "s’"}
    if a in POSSESSIVE_PAIRS and b in POSSESSIVE_PAIRS:
        return True     # a possessive agrees with the noun after it: "sa mère" / "son père"
    return a in forms and b in forms


FUNCTION_WORDS = {"de", "d'", "d’", "le", "la", "l'", "l’", "du", "au", "à", "aux", "des", "les", "un", "une",
                  "el", "lo", "al", "del", "a", "an", "the"}


def aligned_pairs(original: list[Token], copy: list[Token]) -> list[tuple[int | None, int | None]]:
    """(original index, copy index) for every token: equal and one-to-one replaced tokens are paired; in a
    replacement of unequal length ("de la patiente" / "du patient"), function words are left out and the
    rest paired in order; what is left over is paired with None."""
    a = [t.lower for t in original]
    b = [t.lower for t in copy]
    if len(a) == len(b) and a and sum(x == y for x, y in zip(a, b)) >= len(a) / 2:
        return [(k, k) for k in range(len(a))]      # same length, mostly the same words: word for word
    out: list[tuple[int | None, int | None]] = []
    for _tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        left, right = list(range(i1, i2)), list(range(j1, j2))
        if len(left) != len(right):
            left = [i for i in left if a[i] not in FUNCTION_WORDS]
            right = [j for j in right if b[j] not in FUNCTION_WORDS]
            if not left and not right and i2 > i1 and j2 > j1:
                left, right = [i1], [j1]    # only function words changed ("del" -> "de la"): judged as one
        for k in range(max(len(left), len(right))):
            out.append((left[k] if k < len(left) else None, right[k] if k < len(right) else None))
    return out


def compare(original: list[Token], copy: list[Token], reading: Reading, reasons: dict[int, str]) -> list[Flag]:
    """The reading's flags of a copy: residual patient words and content changes."""
    flags: list[Flag] = []
    pairs = aligned_pairs(original, copy)
    patient_or_partner = set(reading.patient) | set(reading.partner)
    for i, j in pairs:
        where = copy[j].start if j is not None else (copy[-1].start + len(copy[-1].text) if copy else 0)
        if i is None:
            if j is not None and re.match(r"^[^\W_]", copy[j].lower):
                flags.append(Flag("reading", CONTENT_CHANGE, where, "inserted word"))
            continue
        same = j is not None and copy[j].lower == original[i].lower
        if i in reading.patient:
            if same:
                flags.append(Flag("reading", RESIDUAL, where, reading.patient[i]))
            elif j is not None and i in reading.forms and copy[j].lower not in reading.forms[i]:
                flags.append(Flag("reading", CONTENT_CHANGE, where, "wrong form"))  # "found his drowsy"
            continue
        if same or i in reading.partner or i in reading.free:
            continue
        if j is not None and _elision_pair(original[i].lower, copy[j].lower) and (
                i + 1 in patient_or_partner or i - 1 in reading.partner):
            # a function word that changes with the word after it (not with the patient's word before it:
            # "elle-même le point" must keep its "le")
            continue
        if not re.match(r"^[^\W_]", original[i].lower) and (j is None or not re.match(r"^[^\W_]", copy[j].lower)):
            if j is None or original[i].lower.strip() == copy[j].lower.strip():
                continue
        flags.append(Flag("reading", CONTENT_CHANGE, where, reasons.get(i, "other word")))
    return flags + (_partner_split(original, copy, pairs, reading) if reading.whole_partner else [])


def _partner_split(original: list[Token], copy: list[Token], pairs: list[tuple[int | None, int | None]],
                   reading: Reading) -> list[Flag]:
    """A partner's words change together or not at all: a copy that changes some ("son époux" -> "son épouse")
    and keeps others that agree with them ("son défunt épouse") is flagged at the words it kept."""
    words = [(i, j) for i, j in pairs if i is not None and j is not None and i in reading.partner
             and original[i].lower not in POSSESSIVE_WORDS and re.match(r"^[^\W\d_]", original[i].lower)]
    kept = [j for i, j in words if copy[j].lower == original[i].lower]
    if not kept or len(kept) == len(words):
        return []
    return [Flag("reading", CONTENT_CHANGE, copy[j].start, "partner agreement") for j in kept]


def judge_many(originals: Sequence[str | None], copies: Sequence[str | None], original_sexes: Sequence[str],
               language: str, methods: Sequence[str] = METHODS) -> list[list[Flag]]:
    """Per copy, the second opinion's flags (empty when every method passes it). A copy or original that is
    missing gets no flag."""
    unknown = set(methods) - set(METHODS)
    if unknown:
        raise ValueError(f"unknown method(s) {sorted(unknown)}: one of {', '.join(METHODS)}")
    out: list[list[Flag]] = [[] for _ in copies]
    if language not in languages():
        return out
    if "reading" in methods:
        read = reader_for(language)
        tokenize = tokenizer_for(language)
        for k, (original, copy, sex) in enumerate(zip(originals, copies, original_sexes)):
            if not original or copy is None:
                continue
            toks, reading = read(original, sex)
            out[k].extend(compare(toks, tokenize(copy), reading, getattr(reading, "reasons", {}) or {}))
    if "round_trip" in methods:
        from biasmirror.counterfactuals.rules import swap_many
        from biasmirror.counterfactuals.spellings import canonical

        def same(a: str, b: str) -> bool:  # spacing and equally correct spellings ("Mrs" -> "Mr" -> "Ms") aside
            return canonical(language, " ".join(a.split())) == canonical(language, " ".join(b.split()))

        index = [k for k, (o, c) in enumerate(zip(originals, copies)) if o and c]
        back = swap_many([copies[k] for k in index], [original_sexes[k] for k in index], language)
        for k, result in zip(index, back):
            if not same(result.text, str(originals[k])):
                out[k].append(Flag("round_trip", ROUND_TRIP, -1, "the copy swapped back differs from the original"))
    return out


def judge(original: str | None, copy: str | None, original_sex: str, language: str,
          methods: Sequence[str] = METHODS) -> list[Flag]:
    """:func:`judge_many` of one copy."""
    return judge_many([original], [copy], [original_sex], language, methods)[0]
