"""English notes that name two patients, one of them placed by a bay or a bed (issue 22, round 15).

"The mother of the child in cubicle 2 fainted", "She is the mother of the boy in cubicle 3", "The lady in bay 2 is
the mother of the pt in bay 5": the person placed by the bay is another patient, and the relative named through
that person is the patient of the note when the phrase is the subject opening the sentence or the predicate of the
patient. The relative's noun then changes with the patient and the placed person keeps the sex the note gives
(a partner noun excepted: "The husband of the lady in bay 6" names a couple, and both change, so that the
relationship keeps its configuration).

Left to the other rules: a note that names its own patient apart ("... when she saw our pt seize"), a relative
who acts on someone ("The son of the man in bed 6 punched him": the one punched is the patient), the same phrase
anywhere else ("she was hit by the son of the man in bed 4": two other
people), and a relative who speaks of the placed person ("The mother of the boy in bay 3 says he ...": the boy is
the one being seen).
"""

from __future__ import annotations

import re

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.agreement_en import _match_case

__all__ = ["placed_persons"]

_PARTNERS = {"husband": "wife", "boyfriend": "girlfriend", "fiance": "fiancee", "fiancé": "fiancée"}
_COUNTERPART = {**{m: f for f, m in _PARTNERS.items()}, **_PARTNERS,
                **person_nouns_en.pairs(), **person_nouns_en.male_to_female()}
_RELATIVES = person_nouns_en.sexes("kin", "parent")
_RELATIVE = "|".join(sorted(map(re.escape, [*_RELATIVES, *_PARTNERS, *_PARTNERS.values()]), key=len, reverse=True))
# the placed person: a word for a man, a woman or a child, or "pt", with up to two modifiers ("the male pt",
# "the elderly gentleman"), then where that person lies
_PLACE = (r"(?:in|on|at|from)\s+(?:the\s+)?(?:bay|bed|cubicle|cubicles|cube|resus|room|side\s*room|trolley|chair|"
          r"majors|minors|resus\s+bay)\b")
_PLACED = re.compile(rf"\b(?:the\s+)({_RELATIVE})\s+of\s+(?:the|a)\s+((?:[\w-]+\s+){{0,2}}?(?:man|woman|lady|gentleman|"
                     rf"boy|girl|child|baby|infant|pt|patient))\s+{_PLACE}", re.IGNORECASE)
_SEX_WORD = re.compile(r"\b(?:man|woman|lady|gentleman|boy|girl|male|female)\b", re.IGNORECASE)
# the phrase opens its sentence, or is the predicate of the sentence's subject ("She is the mother of ...")
_OPENS = re.compile(r"(?:\A|[.;:!?\n]\s*)\Z")
_PREDICATE = re.compile(r"(?:\A|[.;:!?\n]\s*)[^.;:!?\n]{1,60}?\b(?:is|was)\s+\Z", re.IGNORECASE)
# (an adverbial clause goes on with the same subject: "... rang the bell when she saw him fall")
_CLAUSE_STOP = re.compile(r"[.;:!?\n]|\b(?:and|but|who|which|that)\b", re.IGNORECASE)
_PREPOSITION_BEFORE = re.compile(r"\b(?:with|to|beside|near|for|from|by|at|on|about|behind|towards?)\s+\Z",
                                 re.IGNORECASE)
# the note names its own patient apart from the placed one: the phrase at the sentence's head is someone else
_OUR_PATIENT = re.compile(r"\b(?:our|this|the)\s+(?:pt|patient)\b", re.IGNORECASE)
_SPEAKS_AFTER = re.compile(r"[^.;:!?\n]{0,40}?\b(?:says|said|reports|reported|states|stated|tells|told|thinks|"
                           r"feels|explains|explained|notes|noted)\b", re.IGNORECASE)


def placed_persons(text: str, hits: list[tuple[int, int, str]]
                   ) -> tuple[list[tuple[int, int, str]], set[tuple[int, int]]]:
    """The hits with the relative named through a placed patient swapped, and the placed patient's sex words kept
    (swapped too after a partner noun); with the spans this reading swaps, which the later rules must not keep
    (they would read "the wife of the man in resus 2" as someone else's partner)."""
    forced: set[tuple[int, int]] = set()
    for m in _PLACED.finditer(text):
        relative = m.group(1).lower()
        partner = relative in _PARTNERS or relative in _PARTNERS.values()
        before = text[:m.start()]
        if not (_OPENS.search(before) or _PREDICATE.search(before)):
            continue
        if _OPENS.search(before) and (_OUR_PATIENT.search(text, m.end()) or _acts_on_someone(text, m.end(), hits)):
            continue  # "... when she saw our pt seize", "The son of the man in bed 6 punched him": someone else
        if not partner and _OPENS.search(before) and _SPEAKS_AFTER.match(text, m.end()):
            continue  # "The mother of the boy in bay 3 says he ...": the boy is the one being seen
        hits = _ensure(hits, text, m.start(1), m.end(1))
        forced.add((m.start(1), m.end(1)))
        for word in _SEX_WORD.finditer(text, m.start(2), m.end(2)):
            if partner:
                hits = _ensure(hits, text, word.start(), word.end())
                forced.add((word.start(), word.end()))
            else:
                hits = [h for h in hits if not (h[0] < word.end() and word.start() < h[1])]
    return hits, forced


def _acts_on_someone(text: str, end: int, hits: list[tuple[int, int, str]]) -> bool:
    """The clause after the phrase has an object pronoun of its verb (not of a preposition: "while sitting with
    her" is a companion): the relative acts on someone else, who is the patient."""
    stop = _CLAUSE_STOP.search(text, end)
    limit = stop.start() if stop else len(text)
    return any(end < a < limit and text[a:b].lower() in ("her", "him") and new.lower() in ("her", "him")
               and not _PREPOSITION_BEFORE.search(text, end, a) for a, b, new in hits)


def _ensure(hits: list[tuple[int, int, str]], text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """``hits`` with the word at ``start``-``end`` swapped to its counterpart (once)."""
    if any(a < end and start < b for a, b, _ in hits):
        return hits
    counterpart = _COUNTERPART.get(text[start:end].lower())
    if counterpart is None:
        return hits
    return sorted(hits + [(start, end, _match_case(text[start:end], counterpart))])
