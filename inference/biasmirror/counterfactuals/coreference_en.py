"""English pronouns that name someone other than the patient, read from the clause (issue 22, round 14).

When a note names another person (a daughter, a neighbour, the nurse, the GP), a "she" in a woman's note may be
that person, and a "he" in a woman's note may be a doctor whose sex the note never says. Rules over the swapper's
hits decide it from the structure of the clause rather than from word lists of situations:

* binding: a subject pronoun and a plain object pronoun of the same clause never name the same person (that would
  be "herself"). When the object is the patient ("he visits her daily", "she brought her straight back", "she last
  saw her at baseline", "he increased her dose and asked her to return"), the subject is the other person, kept;
* continuity: a clause whose subject is another person acting on the patient ("Her daughter found her on the
  floor") goes on with that person as the subject of the next clause when it says what that person did for the
  patient ("... and she called 911"); a clause headed by another person who does not act on the patient goes on
  with that person as a speaker whose words have the patient as their subject ("...; he reports that she fell");
* another person's own words: a reflexive apposed to that person's noun, an emphatic reflexive closing that
  person's clause, "on her way" said of that person.

A pronoun of the sex the patient is not is never kept by these rules once a partner is named (the partner's
pronouns change with the partner). ``british_forms`` writes "mum" for "mom" in a note written the British way.
``rules.swap_sex`` drops the returned spans from its hits.
"""

from __future__ import annotations

import re

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.agreement_en import _PERSON_SEX, _PERSON_WORD

__all__ = ["british_forms", "others_own_words", "other_subjects"]

# members of staff and other people of either sex who may act on the patient; with the relatives of the patient's
# sex they are the "someone else" a subject pronoun may name
_STAFF = re.compile(r"\b(?:dr\.?\s*___|dr\.?\s+[A-Z][a-z]+|doctor|physician|pcp|gp|nurse|rn|hca|paramedic|medic|"
                    r"surgeon|consultant|registrar|attending|resident|officer|carer|caregiver|neighbou?r|friend|"
                    r"roommate|flatmate|colleague|coworker|co-worker|landlord|landlady|bystander|passer-by|"
                    r"warden|teacher|coach|manager|boss|pharmacist|therapist|aide|tech)s?\b", re.IGNORECASE)
_SUBJECT = {"F": "she", "M": "he"}
_RELATIVE_SEX = person_nouns_en.sexes("kin", "parent")
_PARTNER = re.compile(r"\b(?:husband|wife|boyfriend|girlfriend|fianc[eé]e?|partner|spouse|ex)\b", re.IGNORECASE)
_OBJECT = {"F": "her", "M": "him"}
# where the subject's clause ends: punctuation, a new subject, a subordinating word, an infinitive's own subject
_CLAUSE_END = re.compile(r"[.,;:!?\n()]|\b(?:she|he|they|we|i|you|who|whom|which|that|if|because|when|whenever|while|"
                         r"whilst|after|before|until|since|although|though|but|so|unless|whether|as|says|said|"
                         r"states|stated|reports|reported)\b", re.IGNORECASE)
_ADVERB = r"(?:(?:last|then|also|just|later|first|finally|usually|regularly|often|still|never|always|even|now|" \
          r"already|\w+ly)\s+)?"
# the subject pronoun of a finite verb (not an auxiliary or a copula: "she was seen", "she has been")
# (a perfect's auxiliary may come first: "she has discussed this with him")
_PERFECT = r"(?:(?:has|had|have)\s+(?!been\b))?"
_SUBJECT_VERB = re.compile(rf"\b(she|he)\s+{_ADVERB}{_PERFECT}(?!(?:is|was|are|were|be|been|being|has|had|have|does|did|do|"
                           r"will|would|can|could|may|might|must|shall|should|seems|seemed|appears|appeared|"
                           r"looks|looked|feels|felt|remains|remained|became|becomes)\b)[a-z]+\b", re.IGNORECASE)
_JUDGING_SUBJECT = re.compile(rf"\b(she|he)(?=\s+{_ADVERB}(?:feels|felt)\s+(?:that\s+)?(?:she|he)\b)", re.IGNORECASE)
# a feeling about someone: "she is very worried about her" (the one who worries is someone else)
_FEELS_ABOUT = re.compile(r"\s+(?:is|was|are|were|seems|seemed|feels|felt|gets|got|remains)\s+(?:(?:very|so|quite|really|"
                          r"increasingly|\w+ly)\s+)?(?:worried|concerned|anxious|upset|scared|frightened|angry|cross|"
                          r"frustrated|annoyed)\s+(?:about|for|with|by)\s+", re.IGNORECASE)
_FEELING_SUBJECT = re.compile(r"\b(she|he)(?=" + _FEELS_ABOUT.pattern + r"(?:her|him)\b)", re.IGNORECASE)
# what the person who acted on the patient does next, or says: "... and she called 911", "; he reports that ..."
_HELP_OR_SPEECH = re.compile(rf"\s+{_ADVERB}(?:called|rang|phoned|dialled|dialed|started|began|gave|administered|drove|"
                             r"brought|took|performed|stayed|alerted|contacted|carried|lifted|helped|put|placed|"
                             r"checked|tested|measured|cleaned|dressed|bandaged|splinted|covered|"
                             r"waited|tried|followed|reports|reported|says|said|states|stated|notes|noted|"
                             r"explains|explained|adds|added|tells|told)\b", re.IGNORECASE)
# from the subject pronoun to its object: the subject's verb, or a second verb after "and" (with its object)
# (or the object of "with"/"to" after a verb of telling: "she has discussed this with him", "he explained it to her")
# (an adverb may stand after the auxiliary too: "she has never seen her")
_VERB = rf"\s+{_ADVERB}{_PERFECT}{_ADVERB}(?!\w+ing\b)[a-z]+"
_TOLD_TO = re.compile(rf"\s+{_ADVERB}{_PERFECT}(?:discussed|explained|spoke|spoken|talked|described|mentioned|showed|"
                      rf"shown|handed|gave|given)(?:\s+(?:it|this|that|everything|the\s+\w+))?\s+(?:with|to)\s+",
                      re.IGNORECASE)
# a verb of judging whose content has its own subject ("he feels she has capacity", "she thinks he is safe")
_JUDGES = re.compile(rf"\s+{_ADVERB}(?:feels|felt|thinks|thought|believes|believed|considers|considered|judges|judged|"
                     r"suspects|suspected|is\s+satisfied|was\s+satisfied)(?=\s+(?:that\s+)?(?:she|he)\b)", re.IGNORECASE)
_OWN_VERB_OBJECT = re.compile(rf"{_VERB}(?:\s+(?:[a-z]+\s+){{0,3}}?and{_VERB})?\s+", re.IGNORECASE)
_SPEECH_VERBS = ("says", "said", "states", "stated", "reports", "reported", "notes", "noted", "tells", "told")
_SAID_SUBJECT = re.compile(r"\s+(?:(?:us|me|staff|triage)\s+)?(?:that\s+)?(she|he)\b", re.IGNORECASE)
_CLAUSE_OPENING = re.compile(r"(?:\A|[.;!?\n]\s*|,\s*|\s(?:and|then)\s+)\Z", re.IGNORECASE)
# (not the period of a title: "Dr. ___ called ahead")
_PREVIOUS_CLAUSE = re.compile(r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)[.;:!?\n]", re.IGNORECASE)


def other_subjects(text: str, hits: list[tuple[int, int, str]], original_sex: str) -> list[tuple[int, int]]:
    """Spans of swapped subject pronouns that name another person named before them (a person of the pronoun's
    sex who is not swapped, or a member of staff): kept. A pronoun of the other sex is left to the swap when the
    note names a partner before it with no member of staff in between (the partner's pronouns change with the
    partner)."""
    swapped = [(a, b) for a, b, _ in hits]
    objects = [(a, b) for a, b, new in hits if text[a:b].lower() == _OBJECT[original_sex]
               and new.lower() == _OBJECT["M" if original_sex == "F" else "F"]]
    out = []
    for m in _subject_pronouns(text):
        span = (m.start(1), m.end(1))
        if span not in swapped:
            continue
        sex = "F" if m.group(1).lower() == "she" else "M"
        if sex != original_sex and _partner_nearer(text, m.start()):
            continue
        if not _someone_else_before(text, m.start(), swapped, sex):
            continue
        if sex != original_sex and _says_of_patient(text, m.end(1), original_sex):
            out.append(span)  # "... referred her to the medics; he thinks she has pneumonia": two people
            continue
        if _binds_object(text, m.end(1), objects) or _continues_subject(text, m.start(1), m.end(1), objects, swapped,
                                                                        sex, original_sex):
            out.append(span)
    # (whatever its verb: "Daughter lives in Leeds and has been informed; she will travel down")
    for m in _AFTER_SEMICOLON.finditer(text):
        span, sex = (m.start(1), m.end(1)), "F" if m.group(1).lower() == "she" else "M"
        if span in swapped and span not in out and not (sex != original_sex and _partner_nearer(text, m.start())) \
                and _continues_relative(text, m.start(1), swapped, sex):
            out.append(span)
    return out


_SAYS_OR_JUDGES = re.compile(rf"\s+{_ADVERB}(?:says|said|reports|reported|states|stated|notes|noted|tells|told|"
                             r"explains|explained|thinks|thought|believes|believed|feels|felt|suspects|suspected)\b",
                             re.IGNORECASE)


def _says_of_patient(text: str, end: int, patient_sex: str) -> bool:
    """The subject pronoun ending at ``end`` says or judges something whose subject is the patient's pronoun, of the
    other sex ("he thinks she has pneumonia" in a woman's note): the speaker is someone else."""
    verb = _SAYS_OR_JUDGES.match(text, end)
    said = _SAID_SUBJECT.match(text, verb.end()) if verb else None
    return said is not None and said.group(1).lower() == _SUBJECT[patient_sex]


def _partner_nearer(text: str, end: int) -> bool:
    """A partner is named before ``end`` with no member of staff after it ("brought in by her husband ... Her PCP,
    Dr. ___, saw her; he increased ...": the doctor is the nearer antecedent)."""
    partners = list(_PARTNER.finditer(text, 0, end))
    return bool(partners) and _STAFF.search(text, partners[-1].end(), end) is None


def _subject_pronouns(text: str) -> list[re.Match[str]]:
    """Subject pronouns of a finite verb, and those of a verb of judging ("he feels she ...": "feels" is otherwise
    read as a copula, "she feels dizzy")."""
    found = {m.start(1): m for m in _SUBJECT_VERB.finditer(text)}
    for m in [*_JUDGING_SUBJECT.finditer(text), *_FEELING_SUBJECT.finditer(text)]:
        found.setdefault(m.start(1), m)
    return [found[k] for k in sorted(found)]


def _someone_else_before(text: str, end: int, swapped: list[tuple[int, int]], sex: str) -> bool:
    """A person of ``sex`` who is not swapped, or a member of staff, is named before ``end``."""
    if _STAFF.search(text, 0, end):
        return True
    return any(_PERSON_SEX[p.group().lower()] == sex and not any(a < p.end() and p.start() < b for a, b in swapped)
               for p in _PERSON_WORD.finditer(text, 0, end))


def _binds_object(text: str, start: int, objects: list[tuple[int, int]]) -> bool:
    """An object pronoun that is the patient is the object of the subject's own verb, or of a verb coordinated
    with it by "and", before any clause break ("he increased her dose and asked her to return"; not "a man he
    met assaulted her", nor "she asked the nurse to help her"), or what the subject feels about ("she is very
    worried about her")."""
    feeling = _FEELS_ABOUT.match(text, start)
    if feeling and any(a == feeling.end() for a, _ in objects):
        return True
    stop = _CLAUSE_END.search(text, start)
    limit = stop.start() if stop else len(text)
    return any(start < a < limit and (_OWN_VERB_OBJECT.fullmatch(text, start, a) or _TOLD_TO.fullmatch(text, start, a))
               for a, _ in objects)


def _continues_subject(text: str, start: int, end: int, objects: list[tuple[int, int]],
                       swapped: list[tuple[int, int]], sex: str, patient_sex: str) -> bool:
    """The pronoun opens a clause that says what the previous clause's subject, another person, did or said; that
    clause has the patient as its object, or the pronoun says something ("; she reports that she fell")."""
    opening = _CLAUSE_OPENING.search(text, max(0, start - 8), start)
    if opening is None:
        return False
    judges = _JUDGES.match(text, end)
    verb = judges or _HELP_OR_SPEECH.match(text, end)
    if verb is None:
        return False
    previous = max([b.end() for b in _PREVIOUS_CLAUSE.finditer(text, 0, opening.start())] or [0])
    subject = _clause_subject(text, previous)
    if subject is None or any(a < subject.end() and subject.start() < b for a, b in swapped):
        return False
    if subject.re is _PERSON_WORD and _PERSON_SEX[subject.group().lower()] != sex:
        return False
    # a deed needs the patient as the previous clause's object ("found her ... and she called 911"); speech needs
    # the other person alone in focus ("Dr. ___ called ahead; she reports that ...": after "drove her in; she says"
    # the patient is as likely to speak) and words whose subject is the patient ("she says her son left without
    # waking her" is the patient's own speech)
    acted_on = any(subject.end() < a < start for a, _ in objects)
    if judges:
        # a judgement on the patient is the one who assessed the patient ("The liaison nurse has seen her; he feels
        # she has capacity"), whatever came before
        said = _SAID_SUBJECT.match(text, verb.end())
        return said is not None and said.group(1).lower() == _SUBJECT[patient_sex]
    if verb.group().strip().lower().endswith(_SPEECH_VERBS):
        said = _SAID_SUBJECT.match(text, verb.end())
        return not acted_on and said is not None and said.group(1).lower() == _SUBJECT[patient_sex]
    return acted_on


_AFTER_SEMICOLON = re.compile(r";\s*(she|he)\b", re.IGNORECASE)
# a first clause that only says what the relative is to the patient ("His son-in-law is his HCP", "Her godmother,
# 74, is her only contact"): the relative is still the topic after the semicolon
_RELATIVE_IS = re.compile(r"\s*(?:(?:her|his|the|pt['’]s|patient['’]s)\s+)?(?:[\w-]+\s+)?([\w-]+)(?:\s*,[^;]*?,)?"
                          r"\s+(?:is|was)\s+(?:also\s+)?(?:her|his|the\s+(?:pt|patient)['’]s)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s*",
                          re.IGNORECASE)


def _continues_relative(text: str, start: int, swapped: list[tuple[int, int]], sex: str) -> bool:
    """The pronoun opens a clause after a semicolon whose first clause is headed by a relative of the pronoun's sex
    and says nothing of the patient ("Daughter lives in Leeds and has been informed; she will travel down") or only
    what the relative is to the patient ("His son is his next of kin; he is on his way")."""
    opening = re.search(r";\s*\Z", text[max(0, start - 4):start])
    if opening is None:
        return False
    end = start - len(opening.group())
    previous = max([b.end() for b in _PREVIOUS_CLAUSE.finditer(text, 0, end)] or [0])
    described = _RELATIVE_IS.fullmatch(text, previous, end)
    if described is not None:
        return _RELATIVE_SEX.get(described.group(1).lower()) == sex
    if any(previous <= a < end for a, _ in swapped) or re.search(r"\b(?:pt|patient)\b", text[previous:end], re.I):
        return False
    head = re.match(r"\s*(?:the\s+)?([\w-]+)\b", text[previous:end])
    return head is not None and _RELATIVE_SEX.get(head.group(1).lower()) == sex


# a possessive and at most three modifiers before the clause's subject, none of them a preposition ("Per her son, ...")
_SUBJECT_LEAD = re.compile(r"\s*(?:(?:her|his|the|pt['’]s|patient['’]s)\s+)?"
                           r"(?:(?!(?:per|by|with|for|to|from|of|in|at|on|according)\b)[\w-]+\s+){0,3}\Z", re.IGNORECASE)


def _clause_subject(text: str, start: int) -> re.Match[str] | None:
    """The person or member of staff heading the clause that starts at ``start`` ("Her daughter", "The triage
    nurse", "Dr. ___ from ..."), after at most a possessive and three modifiers."""
    window = text[start:start + 60]
    for found in (_STAFF.search(window), _PERSON_WORD.search(window)):
        if found and _SUBJECT_LEAD.match(window[:found.start()]):
            return _STAFF.match(text, start + found.start()) or _PERSON_WORD.match(text, start + found.start())
    return None


# the note's own spelling convention: a British note (its "mum", "neighbour", "haematoma", "999", "A&E", months as
# "/12") gets "mum" where the swap of "dad" would write the American "mom"; anything else keeps "mom"
# (also the other British spellings: "-our", "-ise", "-yse", "anaes-", "gynae-", "tumour", and the British names of
# things a note mentions: the GP, a carer, a care home, obs, resus, paracetamol, a fortnight)
_BRITISH = re.compile(r"\b(?:mum|mums|mummy|nan|gran|grandad|neighbour\w*|colour\w*|behaviour\w*|favour\w*|"
                      r"tumour\w*|labour\w*|odour\w*|humour\w*|honour\w*|rumour\w*|"
                      r"haem\w+|paed\w*|oedema\w*|anaem\w+|oesoph\w+|diarrhoea|anaesth\w*|gynae\w*|orthopaed\w*|"
                      r"oestr\w+|foet\w+|whilst|amongst|learnt|nappy|nappies|centre|litres?|metres?|"
                      r"(?:recogn|real|organ|mobil|immobil|stabil|apolog|hospital|final|steril|minim|summar|emphas|"
                      r"critic|normal|sympath|vocal|verbal)is(?:e|ed|es|ing|ation)|(?:analy|paraly)s(?:e|ed|ing)|"
                      r"tyre|kerb|programme|fortnight|poorly|GP|carers?|obs|resus|paracetamol|co-codamol|salbutamol|"
                      r"adrenaline|frusemide|GTN|SHO|registrar|care\s+homes?|mobile\s+phone|lorry|pavement|999|A&E|"
                      r"x?\d+/12|x?\d+/52)(?![\w&])", re.IGNORECASE)
_AMERICAN_PARENT = {"mom": "mum", "moms": "mums", "mommy": "mummy", "stepmom": "stepmum"}


def british_forms(text: str, hits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The hits with "mom" written "mum" (case kept) when the note reads British."""
    if not any(new.lower() in _AMERICAN_PARENT for _, _, new in hits) or not _BRITISH.search(text):
        return hits
    return [(a, b, _british(new)) for a, b, new in hits]


def _british(word: str) -> str:
    british = _AMERICAN_PARENT.get(word.lower())
    if british is None:
        return word
    return british.upper() if word.isupper() and len(word) > 1 else british.capitalize() if word[:1].isupper() \
        else british


# another person's own words: a reflexive apposed to that person's noun ("The paramedic, herself worried, says ...",
# "Her daughter, herself a nurse, ...", or after the copula: "Her daughter is herself a diabetic") and "on her way"
# said of that person as the clause's subject ("Her sister has been called and is on her way"), with no pronoun in
# between
_NOUN = r"(?:the|her|his|a|an|pt['’]s|patient['’]s)\s+(?:[\w-]+\s+)??(\w[\w-]*)"
# (also after a role noun in the apposition or its relative clause: "The patient's daughter, a doctor herself, asks
# ...", "by her son, who is a nurse himself")
_APPOSED_REFLEXIVE = re.compile(rf"\b{_NOUN}(?:\s*,(?:\s*(?:who\s+(?:is|was)\s+(?:also\s+)?)?(?:an?\s+)?"
                                r"(?:[\w-]+\s+){0,2}?[\w-]+\s+(?=herself|himself))?|"
                                r"\s+(?:is|was)(?:\s+also)?)\s*(herself|himself)\b", re.IGNORECASE)
# a phrase fronted before the subject pronoun describes that subject: its reflexive is the subject's ("A nurse
# herself, she ...", "Once a midwife herself, she ...")
_FRONTED_SUBJECT = re.compile(r"\s*,\s*(?:she|he|(?:the\s+)?(?:pt|patient)|m(?:r|rs|s|iss)\.?\s*___)(?!\w)",
                              re.IGNORECASE)
_FRONTED_LEAD = re.compile(r"(?:\A|[.;:\n]\s*)(?:[A-Za-z]+\s+){1,3}\Z")
# (and an emphatic reflexive closing that person's clause: "Her son ... drove her in himself")
# (not across a colon or into a quotation, where someone else speaks of another: "Her daughter said: 'Mum's not
# herself'")
_CLAUSE_REFLEXIVE = re.compile(rf"(?:\A|[.;:\n]\s*){_NOUN}\b(?:(?!\b(?:she|he)\b)[^.;:\n\"“‘]){{0,80}}?"
                               r"\b(herself|himself)"
                               r"(?=\s*[.;,!?]|\s*\Z)", re.IGNORECASE)
_ON_THE_WAY = re.compile(rf"(?:\A|[.;:\n]\s*){_NOUN}\b(?:(?!\b(?:she|he|her|him)\b)[^.;\n]){{0,60}}?\bon\s+(her|his)\s+way\b",
                         re.IGNORECASE)


# a title apposed to another person's noun: "Her boss, Mrs ___, called an ambulance", "his neighbour, Mr ___," (the
# patient's own noun is swapped, and so is its title: "The patient, Mrs ___", "her husband, Mr ___")
# (also a bare noun heading a sentence: "Neighbour, Mrs ___, has offered to sit with him")
_APPOSED_TITLE = re.compile(r"(?:\b(?:the|her|his|their|pt['’]s|patient['’]s)\s+(?:[\w-]+\s+){0,2}?|(?:\A|[.;:\n]\s*))"
                            r"(\w[\w-]*)\s*,\s*(Mrs|Ms|Miss|Mr)\b", re.IGNORECASE)


# an emphatic reflexive right after an object pronoun of its sex is the clause's subject's, never the object's
# ("The consultant ... came down to see him himself"): kept when the object is the patient
_OBJECT_EMPHATIC = re.compile(r"\b(him|her)\s+(himself|herself)\b", re.IGNORECASE)
# the doctor a patient is admitted under: "asks that she be admitted under him" - a member of staff
_ADMITTED_UNDER = re.compile(r"\b(?:admit|admits|admitted|admitting|admission)\s+under\s+(him|her)\b", re.IGNORECASE)


def _bound_elsewhere(text: str, swapped: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of pronouns that grammar gives to someone other than the patient: an emphatic reflexive after the
    patient's object pronoun, and the doctor one is admitted under."""
    out = [(m.start(2), m.end(2)) for m in _OBJECT_EMPHATIC.finditer(text)
           if (m.start(1), m.end(1)) in swapped and m.group(1).lower()[:2] == m.group(2).lower()[:2]]
    return out + [(m.start(1), m.end(1)) for m in _ADMITTED_UNDER.finditer(text)]


def others_own_words(text: str, hits: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Spans of a reflexive or an "on her way" that belong to another person's noun before them (a member of
    staff, or a person word of the pronoun's sex that is not swapped), and of a title apposed to another person's
    noun: kept."""
    swapped = [(a, b) for a, b, _ in hits]
    out = [(m.start(2), m.end(2)) for m in _APPOSED_TITLE.finditer(text)
           if (m.start(2), m.end(2)) in swapped and not any(a < m.end(1) and m.start(1) < b for a, b in swapped)
           and (_STAFF.fullmatch(m.group(1)) or _PERSON_WORD.fullmatch(m.group(1)))]
    out += _bound_elsewhere(text, swapped)
    for pattern in (_APPOSED_REFLEXIVE, _ON_THE_WAY, _CLAUSE_REFLEXIVE):
        for m in pattern.finditer(text):
            noun, sex = m.group(1).lower(), "F" if m.group(2).lower().startswith("her") else "M"
            if (m.start(2), m.end(2)) not in swapped or any(a < m.end(1) and m.start(1) < b for a, b in swapped):
                continue
            if _FRONTED_SUBJECT.match(text, m.end(2)) and _FRONTED_LEAD.search(text, 0, m.start(1)):
                continue
            if _STAFF.fullmatch(noun) or _PERSON_SEX.get(noun) == sex:
                out.append((m.start(2), m.end(2)))
    return out
