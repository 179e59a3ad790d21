"""Per-record validity checks of a counterfactual copy, shared by the LLM rewriter (which rejects a copy that
fails them) and the diagnostics (which store them for audit.counterfactual_quality)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Sequence

from biasmirror.counterfactuals.base import OTHER_SEX
from biasmirror.counterfactuals.clinical_content import changed_parts, clinical_content
from biasmirror.counterfactuals.rules import supported_languages

# A field's length may change by this factor at most (texts of at least MIN_LENGTH_CHECKED characters).
MAX_LENGTH_FACTOR = 1.4
MIN_LENGTH_CHECKED = 40


def wrong_sex_terms(text: str | None, counterfactual_sex: str, language: str, original: str | None = None,
                    placebo: bool = False) -> int | None:
    """Lexicon words of `text` (pronouns, nouns, honorifics, codes) that signal the sex the copy must NOT have
    (the original sex for a swap, the other sex for a placebo copy); None when the language has no lexicon.
    Partner nouns are not counted (the swap keeps the relationship's configuration: see docs/counterfactuals.md)
    and, where the morphology-aware analysis runs, neither are agreeing words: :func:`wrong_sex_agreement`
    counts those. With the `original`, a word the copy keeps from it counts only when it is the patient's
    (:func:`residual_words_many`)."""
    if language not in supported_languages():
        return None
    words = residual_words(text, OTHER_SEX[counterfactual_sex], language, original, placebo)
    return sum(w.reason == "lexicon term" for w in words)


def wrong_sex_agreement(text: str | None, counterfactual_sex: str, language: str, original: str | None = None,
                        placebo: bool = False) -> list[str]:
    """Reasons of the words of `text` that agree with the patient and still carry the sex the copy must not
    have ('predicative', 'apposed', 'role noun', ...); empty when none or the language has no analysis. With
    the `original`, as :func:`wrong_sex_terms`."""
    return [w.reason for w in residual_words(text, OTHER_SEX[counterfactual_sex], language, original, placebo)
            if w.reason != "lexicon term"]


def reason_summary(reasons: list[str]) -> str | None:
    """'apposed:1|predicative:2' (sorted), or None when there is no reason."""
    if not reasons:
        return None
    counts: dict[str, int] = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    return "|".join(f"{k}:{v}" for k, v in sorted(counts.items()))


@dataclass(frozen=True)
class FieldProblem:
    field: str
    problem: str


def field_problems(field: str, original: str | None, copy: str | None, counterfactual_sex: str,
                   language: str, placebo: bool = False) -> list[str]:
    """Why `copy` is not a valid counterfactual of `original` (empty when it is; ``placebo``: a same-sex copy).
    Messages never quote text."""
    if not original:
        return [] if not copy else [f"{field} must be null: the record has none"]
    if not isinstance(copy, str) or not copy.strip():
        return [f"{field} is missing or empty"]
    problems = []
    words = residual_words(copy, OTHER_SEX[counterfactual_sex], language, original, placebo)
    wrong = sum(w.reason == "lexicon term" for w in words)
    if wrong:
        problems.append(f"{wrong} word(s) in {field} still refer to a patient of sex {OTHER_SEX[counterfactual_sex]}")
    agreeing = [w.reason for w in words if w.reason != "lexicon term"]
    if agreeing:
        problems.append(f"{len(agreeing)} word(s) in {field} still agree with a patient of sex "
                        f"{OTHER_SEX[counterfactual_sex]} ({reason_summary(agreeing)})")
    for part in changed_parts(clinical_content(original, language), clinical_content(copy, language)):
        problems.append(f"{part.replace('drugs', 'drug names')} changed in {field}")
    if len(original) >= MIN_LENGTH_CHECKED:
        ratio = len(copy) / len(original)
        if not 1 / MAX_LENGTH_FACTOR <= ratio <= MAX_LENGTH_FACTOR:
            problems.append(f"{field} length changed by a factor {ratio:.2f}")
    return problems


@dataclass(frozen=True)
class ResidualWord:
    """A word of a copy that still signals the original sex: where it starts, the word, and why."""

    start: int
    text: str
    reason: str


def residual_words_many(texts: Sequence[str | None], original_sexes: Sequence[str], language: str,
                        originals: Sequence[str | None] | None = None,
                        placebo: bool | Sequence[bool] = False) -> list[list[ResidualWord]]:
    """Per copy, the words that still signal the patient's original sex, with the reason:

    * 'lexicon term': a pronoun, noun, honorific or code of the rule lexicon (residual_terms), partner nouns
      excepted: the swap keeps the relationship's configuration, so a partner's sex never flags a copy;
    * an agreement reason ('predicative', 'apposed', 'subjectless clause', 'role noun', 'object clitic', ...):
      a word that agrees with the patient and still carries the original sex ("il est gênée"), found by the
      morphology-aware analysis (agreement.py), which replaces the lexicon's agreement word lists.

    ``original_sexes``: per copy, the sex the copy must not signal (the original's sex for a swap, the other sex
    for a ``placebo`` copy, the same-sex rewrite; ``placebo`` is one flag for all copies or one per copy). With
    the ``originals`` (per copy, the text it was made from), each word is judged against the original
    (:func:`about_the_patient`): a word the copy keeps from it is left out when the original shows it is someone
    else's (another person's pronoun of the patient's original sex, which a correct copy keeps). Empty lists for
    a language without a lexicon."""
    from biasmirror.counterfactuals.agreement import residual_agreement_many
    from biasmirror.counterfactuals.rules import residual_spans, uses_morphology

    if language not in supported_languages():
        return [[] for _ in texts]
    morphology = uses_morphology(language)
    agreeing = residual_agreement_many(texts, original_sexes, language) if morphology else [[] for _ in texts]
    out = []
    for text, sex, extra in zip(texts, original_sexes, agreeing):
        words = [ResidualWord(start, token, "lexicon term")
                 for start, token in residual_spans(text, sex, language, partners=False, agreement=not morphology)]
        seen = {w.start for w in words}
        words += [ResidualWord(r.start, r.text.lower(), r.reason) for r in extra if r.start not in seen]
        out.append(sorted(words, key=lambda w: w.start))
    if originals is not None:
        if len(originals) != len(texts):
            raise ValueError(f"{len(texts)} copies but {len(originals)} originals")
        placebos = [placebo] * len(texts) if isinstance(placebo, bool) else list(placebo)
        out = about_the_patient(originals, texts, out, original_sexes, placebos, language)
    return out


def residual_words(text: str | None, original_sex: str, language: str, original: str | None = None,
                   placebo: bool = False) -> list[ResidualWord]:
    """:func:`residual_words_many` of one copy (with its original when given)."""
    return residual_words_many([text], [original_sex], language, None if original is None else [original],
                               placebo)[0]


def about_the_patient(originals: Sequence[str | None], copies: Sequence[str | None],
                      found: Sequence[list[ResidualWord]], original_sexes: Sequence[str], placebos: Sequence[bool],
                      language: str) -> list[list[ResidualWord]]:
    """The residual words of each copy that are about the patient, judged against the original.

    The copy is aligned with its original token by token (second_opinion's tokens and pairing). A word the
    copy changed, or added, into the sex it must not have is a residual (the rewrite wrote it), unless the
    second opinion's reading of the original gives it to a partner (the partner follows the patient). A word
    the copy keeps as it stands in the original is a residual unless that reading (referents_<language>.py,
    written apart from the swapper) gives it to someone or something else, or it is a subject pronoun with
    another person named before it in its sentence (:func:`_someone_elses`). In a placebo copy (same sex as the
    original) a kept word is never a residual: the original is the reference. Without a reading for the
    language (French without the Lefff), the words are returned as they are. The reading runs only on the
    originals of copies that have a word to judge."""
    from biasmirror.counterfactuals.second_opinion import aligned_pairs, languages, reader_for, tokenizer_for

    out = [list(words) for words in found]
    if language not in languages():
        return out
    read, tokenize = reader_for(language), tokenizer_for(language)
    for k, (original, copy, words) in enumerate(zip(originals, copies, found)):
        if not words or not original or not copy:
            continue
        toks, reading = (tokenize(original), None) if placebos[k] else read(original, original_sexes[k])
        copy_toks = tokenize(copy)
        paired = {j: i for i, j in aligned_pairs(toks, copy_toks) if i is not None and j is not None}
        kept = []
        for word in words:
            j = _token_at(copy_toks, word.start)
            i = paired.get(j) if j is not None else None
            if i is None or j is None or toks[i].lower != copy_toks[j].lower:
                if reading is None or i not in reading.partner:
                    kept.append(word)   # changed or added by the copy: the rewrite wrote it (a partner's word
                                        # follows the patient: "his wife ... she" -> "her husband ... he")
            elif reading is not None and not _someone_elses(original, toks, i, reading, original_sexes[k], language):
                kept.append(word)   # kept, and nothing says it is not the patient's
        out[k] = kept
    return out


def _someone_elses(original: str, toks: Sequence[Any], i: int, reading: Any, sex: str, language: str) -> bool:
    """Whether the reading of the original gives token i to someone or something other than the patient: another
    person's or a partner's word, a word agreeing with something else, or a subject pronoun with another person
    before it in its sentence that it may refer to (:func:`_other_person_before`)."""
    if reading.reasons.get(i) in EXCUSING_REASONS or i in reading.partner:
        return True
    return (reading.patient.get(i) == "pronoun" and toks[i].lower in SUBJECT_PRONOUNS.get(language, ())
            and (i == 0 or toks[i - 1].lower not in _prepositions(language))   # "avec elle", "con él": not a subject
            and _other_person_before(original, toks, i, reading, sex, language))


@functools.lru_cache(maxsize=None)
def _prepositions(language: str) -> frozenset[str]:
    """The prepositions of the second opinion's reading (French, Spanish), before which "elle", "él" and "ella"
    are not subjects."""
    if language == "fr":
        from biasmirror.counterfactuals.referents_fr import PREPOSITIONS
    elif language == "es":
        from biasmirror.counterfactuals.referents_es import PREPOSITIONS
    else:
        return frozenset()
    return frozenset(PREPOSITIONS)


SENTENCE_ENDS = {".", "!", "?"}
# the reading's reasons that give a kept word to someone or something other than the patient
EXCUSING_REASONS = {"other person", "agrees with something else"}
SUBJECT_PRONOUNS = {"en": {"he", "she"}, "fr": {"il", "elle"}, "es": {"él", "ella"}}
# staff named by a title or an abbreviation, of either sex, that the readings' noun lists do not hold
STAFF_TITLES = {"en": {"dr", "dr.", "pcp", "rn"}, "fr": {"dr", "dr.", "pr", "pr.", "ide", "idel", "ide.", "médecin"},
                "es": {"dr", "dr.", "dra", "dra."}}


@functools.lru_cache(maxsize=None)
def _person_nouns(language: str) -> tuple[dict[str, str], frozenset[str]]:
    """(person noun -> the sex it names, person nouns of either sex) of a language, partners left out: the
    second opinion's own lists (referents_<language>.py and the shared person_nouns_<language>.py)."""
    if language == "en":
        from biasmirror.counterfactuals import referents_en as r

        sexed = {w: sex for w, sex in (r.ROLES | r.PERSON_WORDS).items() if w not in r.PARTNERS}
        either = frozenset(w for w in r.OTHER_PEOPLE if w not in sexed and w not in r.PARTNERS)
    elif language == "fr":
        from biasmirror.counterfactuals import person_nouns_fr as n
        from biasmirror.counterfactuals import referents_fr as r

        kin = n.kinship_pairs()
        sexed = n.sexes() | {f: "F" for f in kin} | {m: "M" for m in kin.values()} | {
            "voisine": "F", "voisin": "M", "amie": "F", "ami": "M"}
        sexed = {w: sex for w, sex in sexed.items() if w not in r.PARTNER_NOUNS}
        either = frozenset(r.EPICENE_PERSONS) - {"adulte", "enfant", "membre", "toxicomane", "alcoolique", "tabagique"}
    else:
        from biasmirror.counterfactuals import person_nouns_es as n
        from biasmirror.counterfactuals import referents_es as r

        kin = n.kinship_pairs()
        sexed = n.sexes() | {f: "F" for f in kin} | {m: "M" for m in kin.values()} | {
            "vecina": "F", "vecino": "M", "amiga": "F", "amigo": "M"}
        sexed = {w: sex for w, sex in sexed.items() if w not in r.PARTNER_NOUNS}
        either = frozenset(r.EPICENE_PERSONS | r.STAFF) - {"paciente", "pcte", "pte"} - set(sexed)
    return sexed, either | STAFF_TITLES.get(language, set())


def _other_person_before(text: str, toks: Sequence[Any], i: int, reading: Any, sex: str, language: str) -> bool:
    """Whether, in the sentence of the original before token i (a pronoun the reading gives the patient), another
    person is named who could be what the pronoun refers to: a person noun of the pronoun's sex or of either sex
    (a relative, a clinician, a neighbour) that the reading does not give to the patient or a partner. Such a
    pronoun is ambiguous ("His son found him on the floor and he called 911": the son's "he"), and the check
    leaves it to the copy's own reading rather than flag a copy that keeps it."""
    sexed, either = _person_nouns(language)
    for m in range(i - 1, -1, -1):
        word = toks[m].lower
        if word in SENTENCE_ENDS or "\n" in text[toks[m].start + len(toks[m].text): toks[m + 1].start]:
            return False
        if m in reading.patient or m in reading.partner:
            continue
        if sexed.get(word) == sex or word in either:
            return True
    return False


def _token_at(toks: Sequence[Any], start: int) -> int | None:
    """The index of the token that holds the character at ``start``; None when no token does."""
    for j, tok in enumerate(toks):
        if tok.start <= start < tok.start + len(tok.text):
            return j
        if tok.start > start:
            break
    return None
