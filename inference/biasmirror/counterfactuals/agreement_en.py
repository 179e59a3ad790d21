"""English gendered role nouns and occupations used of the patient ("she works as a waitress").

A role noun of ``ROLE_PAIRS`` describes the patient - and is swapped - only in these contexts:

* after "works/worked/working as (a|an)", "employed as", "job as";
* as the predicate of the patient: "(she|he|pt|patient|who|___) (is|was|has been) (a|an|the)" with up to two
  modifiers ("is a retired policeman");
* after an age: "72 yo grandmother", "a 28 year old waitress";
* in apposition to the patient: "Pt, a retired fireman,", "Mr. ___, a retired postman";
* at the start of a clause or after a label, with modifiers only: "Retired fisherman, lives with wife.",
  "Occupation: waitress", "Social history: retired policeman".

Anywhere else a role noun describes someone else ("brought in by a policeman", "her brother is a
policeman", "the waitress called 911") and is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.patterns import trie

__all__ = ["ROLE_PAIRS", "SEX_WORD_PAIRS", "analyse", "other_persons_decades", "other_persons_words"]

# the words for a woman or a man (female -> male): the patient's only where a licensor says so (issue 22: "her
# son, a 50 year old man", "a male nurse", "the driver, a woman" describe someone else); the triage neutralizer
# removes them everywhere
SEX_WORD_PAIRS = person_nouns_en.pairs("sex")
# female -> male: the sex words, occupations and roles, parents (person_nouns_en.py is the one list)
ROLE_PAIRS = person_nouns_en.pairs("sex", "role", "parent")
# a child, a sibling, an aunt or a niece is the patient only as the patient's predicate ("she is the eldest
# daughter", "he is the nephew of ...") or coordinated with a noun that names the patient; anywhere else ("her
# son", "a 16 yo son") another person
CHILD_PAIRS = person_nouns_en.pairs("kin")
_MALE = person_nouns_en.male_to_female("sex", "role", "parent")
_MALE_CHILD = person_nouns_en.male_to_female("kin")
_KIN = frozenset(person_nouns_en.sexes("parent"))
# kinship nouns the lexicon's patient_kinship section swaps before "of" ("mother of two")
_KIN_OF = frozenset({"grandmother", "grandfather", "grandma", "grandpa", "mother", "father", "mom", "dad"})
_SEX_WORDS = frozenset(SEX_WORD_PAIRS) | frozenset(SEX_WORD_PAIRS.values())
# someone else's noun right before an apposition ("her son, a 50 year old man", "the driver, a woman") or a
# bracket ("interpreter (male)")
_OTHER_APPOSITION = re.compile(r"(?:\b(?:her|his|their|my|your|the|pt's|patient's|a|an)\s+(?:[\w-]+\s+){0,2}[\w-]+"
                               r"\s*,\s*(?:an?\s+)?(?:[\w/.-]+\s+){0,5}|\w\s*\(\s*)\Z", re.IGNORECASE)
# "female physician", "male nurse": the sex of a member of staff or a companion, never the patient's
_HELPERS = (r"nurse|physician|doctor|provider|chaperone|interpreter|officer|friend|tech|technician|resident|attending|"
            r"coworker|co-worker|relative|caregiver|companion|paramedic|medic|cop|staff|roommate|neighbou?r")
_STAFF_AFTER = re.compile(rf"\s+(?:{_HELPERS}|driver|passenger)s?\b", re.IGNORECASE)
# "her female partner": the partner's sex, swapped like a partner noun so that the couple keeps its configuration
_PARTNER_AFTER = re.compile(r"\s+(?:partner|spouse)s?\b", re.IGNORECASE)
_PATIENT_AFTER = re.compile(r"\s+(?:patient|pt)s?\b", re.IGNORECASE)
# (an age may be one: "a 40-something man", "a 50-ish woman")
_MODIFIER = r"(?:[A-Za-z0-9][\w-]*\s+){0,2}"
def _role_pattern() -> str:
    return rf"\b(?:{trie(sorted(set(ROLE_PAIRS) | set(_MALE) | set(CHILD_PAIRS) | set(_MALE_CHILD)))})\b"


# scanned on the lower-cased text, like the lexicon (a case-insensitive alternation is several times slower)
_ROLE = re.compile(_role_pattern())
_ROLE_CI = re.compile(_role_pattern(), re.IGNORECASE)
# "___" is the patient's placeholder name, but not a doctor's ("her PCP, Dr. ___, is a woman she trusts")
_NAME = r"(?<!dr\.\s)(?<!dr\s)(?<!dr\.)___"
# (a noun of one grammatical gender that names the patient of an injury: "the victim", "the casualty")
_VICTIM = r"the\s+(?:victim|casualty)"
_RELATIVE_OR_PARTNER = "(?:" + "|".join(sorted(map(re.escape, list(person_nouns_en.sexes("kin", "parent")) + [
    "husband", "wife", "boyfriend", "girlfriend", "partner", "spouse"]), key=len, reverse=True)) + ")"
_SUBJECT = rf"(?:she|he|pt|patient|who|{_VICTIM}|{_NAME}|mr\.?\s*___|ms\.?\s*___|mrs\.?\s*___|miss\s*___)"
# "works nights as a policewoman": when the job is done, between the verb and "as"
_WHEN = r"(?:nights|days|evenings|mornings|weekends|shifts|nightshifts|part[- ]time|full[- ]time|locum|abroad|overseas)"
# a title before the de-identified name
_BEFORE_NAME = re.compile(r"\s*___")
# an emphatic reflexive before the predicate noun: "Mr ___, himself a retired policeman, ...", "she is herself a nurse"
_EMPHATIC = r"(?:(?:herself|himself)\s+)?"
_LICENSORS = [
    # (also a career's start or end: "retired as a headmistress", "trained as a midwife", "volunteers as a ...")
    re.compile(rf"\b(?:works?|worked|working|employed|job|career|jobs?|retired|retiring|qualified|trained|training|"
               rf"served|serving|volunteers?|volunteered|volunteering)\s+(?:{_WHEN}\s+)?as\s+(?:an?\s+|the\s+)?"
               rf"{_MODIFIER}\Z", re.IGNORECASE),
    re.compile(rf"\b{_SUBJECT}\s+(?:is|was|has\s+been|had\s+been|is\s+also|was\s+also)\s+{_EMPHATIC}[\"'“‘]?(?:an?\s+|the\s+)?"
               rf"{_MODIFIER}\Z", re.IGNORECASE),
    # (the age may be hyphenated to its unit: "a 71-year-old man", "83-yr-old female")
    re.compile(rf"\b\d+(?:\s*|-)(?:yo|y/o|y\.o\.|years?[- ]old|yrs?[- ]old)\s+{_MODIFIER}\Z", re.IGNORECASE),
    # (or any noun but a relative's opening the note: "The cyclist, who is a woman in her 30s, was clipped by ...")
    # (not a member of staff or a helper: "The nurse, a woman in her 20s, found her ...")
    # (also after a label's colon: "Crew: the driver, a man in his 50s, ...")
    re.compile(rf"(?:\b(?:pt|patient|{_VICTIM}|{_NAME})|(?:\A|\n|\A[\w ]{{1,30}}:)\s*the\s+(?!(?:{_RELATIVE_OR_PARTNER}|{_HELPERS}|gp|carer|"
               rf"consultant|registrar|witness|bystander|passer-by)\b)[\w-]+)\s*,\s*"
               rf"(?:who\s+(?:is|was)\s+)?{_EMPHATIC}(?:an?\s+)?{_MODIFIER}\Z", re.IGNORECASE),
    re.compile(r"(?:\A|[.;:\n(]\s*|,\s+)(?:(?:retired|former|ex-|part-time|full-time|unemployed|single|young|elderly|professional|pleasant|"
               r"thin|obese|frail|anxious|tearful|homeless|disheveled|intoxicated|well-appearing|ill-appearing|"
               r"older|middle-aged|healthy|elderly|agitated|confused)\s*)*\Z", re.IGNORECASE),
]
# coordinated with the patient's predicate noun: "she is a retired policewoman and a grandmother", "he is a 40
# year old man, a veteran and a father of two"
_LICENSORS.append(re.compile(rf"(?:\b{_SUBJECT}\s+(?:is|was)|\bworks?\s+as)\s+(?:an?|the)\s+[^.;:()]*?(?:\band|,)\s+(?:an?\s+)?"
                             rf"{_MODIFIER}\Z", re.IGNORECASE))
# kinship nouns describe the patient only after an age or as "is a ... mother of"; never clause-initially
# the patient speaking of herself in a quote the patient is said to speak: 'Pt states: "I'm a grandmother, I
# know what a stroke looks like"', "she told the doctor, 'I'm a grandma'" (not 'Her daughter says: "I'm a mother"')
_SAYS = (r"(?:states|stated|says|said|told|tells|telling|reports|reported|insists|insisted|insisting|explains|"
         r"explained|jokes|joked|shouts|shouted|shouting|repeats|repeated|repeating|saying)")
_LICENSORS.append(re.compile(rf"\b(?:pt|patient|she|he)\s+(?:\w+\s+)?{_SAYS}\b[^.;\n]{{0,40}}?\bI(?:['’]m|\s+am|\s+was)\s+(?:an?\s+|the\s+)?"
                             rf"{_MODIFIER}\Z", re.IGNORECASE))
# in apposition to the patient after a participle phrase without another person in it: "The male pt brought
# in by ambulance from the prison, a man in his 40s" (not "the pt's son, a man ...", "pt seen with her son, a man")
_OTHER_PERSON_NOUNS = "|".join(sorted(map(re.escape, list(person_nouns_en.sexes("kin", "parent")) + [
    "husband", "wife", "boyfriend", "girlfriend", "partner", "spouse", "friend", "neighbour", "neighbor", "driver",
    "passenger", "stranger", "bystander", "passer-by", "colleague", "coworker", "co-worker", "carer", "caregiver",
    "nurse", "doctor", "paramedic", "officer", "man", "woman", "lady", "gentleman", "guy", "person"]),
    key=len, reverse=True))
_LICENSORS.append(re.compile(rf"\b(?:pt|patient)(?![’'])\b(?:(?!\s(?:her|his|their|by\s+(?:her|his|a|an)|"
                             rf"{_OTHER_PERSON_NOUNS})\b)[^,.;:()\n]){{0,60}}?\s*,\s*(?:an?\s+)?{_MODIFIER}\Z",
                             re.IGNORECASE))
# the patient's own description of the patient: "describes herself as a 'keen horsewoman'", and a quote the
# patient speaks with "I am (not) the kind of man ...": 'In her own words, "I'm not the sort of woman who ..."'
_QUOTE = "[\"'“‘]"
_LICENSORS.append(re.compile(rf"\b(?:(?:describes|described|describing|sees|saw|considers|considered|thinks\s+of|"
                             rf"thought\s+of)\s+(?:herself|himself)\s+as|(?:calls|called|calling)\s+(?:herself|himself))"
                             rf"\s+{_QUOTE}?(?:an?\s+|the\s+)?{_QUOTE}?"
                             rf"{_MODIFIER}\Z", re.IGNORECASE))
_LICENSORS.append(re.compile(rf"(?:\bin\s+(?:her|his)\s+own\s+words|\b(?:pt|patient|she|he)\s+(?:\w+\s+)?{_SAYS}\b)"
                             rf"[^.;\n]{{0,40}}?\bI(?:['’]m|\s+am|\s+was)\s+"
                             rf"(?:not\s+|just\s+|still\s+)?(?:an?\s+|the\s+)?(?:(?:kind|sort|type)\s+of\s+(?:an?\s+)?)?"
                             rf"{_MODIFIER}\Z", re.IGNORECASE))
# the same quote before its speaker: "'I'm a grandmother, I don't take drugs,' she insisted", '"I'm not the kind of
# man who makes a fuss," he says'
_QUOTE_OPENS_SELF = re.compile(rf"(?:\A|[.;:\n]\s*){_QUOTE}I(?:['’]m|\s+am|\s+was)\s+(?:not\s+|just\s+|still\s+)?"
                               rf"(?:an?\s+|the\s+)?(?:(?:kind|sort|type)\s+of\s+(?:an?\s+)?)?{_MODIFIER}\Z", re.IGNORECASE)
_QUOTE_SPEAKER_AFTER = re.compile(rf"[^\n]{{0,80}}?[,.!?][\"'”’]\s*(?:she|he|pt|the\s+(?:pt|patient))\s+(?:\w+\s+)?"
                                  rf"{_SAYS}\b", re.IGNORECASE)
# another patient, not ours: "the other patient from the crash, a woman in her 20s", "the pt in the next bed, a man"
# (also a patient named with "a", not our "the pt": "she hurt her back lifting a pt, a lady in her 90s")
_OTHER_PATIENT = re.compile(rf"(?:\b(?:other|another|second|third|fellow|next|neighbouring|neighboring)\s+(?:pt|patient)s?\b"
                            rf"|(?<!\bis\s)(?<!\bwas\s)\ba\s+(?:pt|patient)\b"
                            rf"|\b(?:pt|patient)\s+(?:in|from)\s+the\s+(?:next|neighbouring|neighboring|adjacent|"
                            rf"opposite)\s+\w+)[^,.;:()\n]{{0,60}}?\s*,\s*(?:an?\s+)?{_MODIFIER}\Z", re.IGNORECASE)
_KIN_LICENSORS = _LICENSORS[1:3] + [_LICENSORS[3], _LICENSORS[5], _LICENSORS[6]]
# a son or daughter: the patient's predicate only ("pt is an elderly woman, daughter at bedside"), also after
# "and" ("he is an only child and a stepson of ...") but never after a bare comma
_CHILD_LICENSORS = [_LICENSORS[1], re.compile(
    rf"\b{_SUBJECT}\s+(?:is|was)\s+(?:an?|the)\s+[^.;:(),]*?\band\s+(?:an?\s+|the\s+)?{_MODIFIER}\Z", re.IGNORECASE)]
# "who is" after another person's noun: the relative clause is that person's ("his grandson, who is a policeman",
# "her friend, who was a nurse")
_OTHER_WHO = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, list(person_nouns_en.sexes("kin", "parent"))
                                    + ["husband", "wife", "boyfriend", "girlfriend", "partner", "spouse", "friend",
                                       "neighbour", "neighbor", "flatmate", "roommate", "carer", "caregiver"]),
                                key=len, reverse=True))
    + r")\s*,?\s*who\s+(?:is|was|has\s+been|had\s+been|is\s+also|was\s+also)\s+(?:an?\s+|the\s+)?"
    + _MODIFIER + r"\Z", re.IGNORECASE)
# a prefix glued to the noun: "ex-policeman", "co-chairwoman", "vice-chairman"
_PREFIX = re.compile(r"\b(?:ex|co|vice|former|step)-\Z", re.IGNORECASE)
# an age inside another person's phrase: "her 72 yo mother" is the mother's age, not the patient's
# (not across a verb of saying: in "Her daughter says mum has been falling" the "mum" is the daughter's word for
# the patient; nor across a sentence's end: "radiates to his back. He is a grandfather")
_POSSESSED_PHRASE = re.compile(r"\b(?:her|his|their|my|your|our|pt's|patient's|whose)\s+(?:(?!(?:says|said|reports|"
                               r"reported|states|stated|tells|told|thinks|feels|notes|noted|explains|explained)\b)"
                               r"(?:[\w/-]|\.(?=\S))+(?:\.(?=\s+(?-i:[a-z0-9])))?\s+){0,4}\Z", re.IGNORECASE)
# "mom"/"dad" said without a possessive are the patient ("daughter reports that mom fell")
_PARENT_CALLS = frozenset({"mom", "mum", "dad", "grandma", "grandpa", "granny", "grandad"})
_POSSESSED = re.compile(r"\b(?:her|his|their|my|your|our|a|an|the|pt's|patient's|whose)\s+\Z", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"\s*(?:'s|’s)\b")
# "'s" that is "is" or "has" ("Mum's not herself", "Dad's been falling"): the word is the clause's subject
_CONTRACTED_VERB = re.compile(r"\s*(?:'s|’s)\s+(?:not|never|always|still|just|really|very|so|too|been|got|gone|had|"
                              r"fallen|become|in|at|on|off|back|home|\w+ing)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Agreeing:
    start: int
    end: int
    text: str
    gender: str
    replacement: str
    controller: str
    reason: str


def _match_case(source: str, replacement: str) -> str:
    if source.isupper() and len(source) > 1:
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


# a fragment's head noun after any adjectives at the start of a clause or of a list item: "Pleasant, cooperative
# woman, NAD", "Keen sportsman, runs marathons", "Rt-handed woman, alert". A determiner, a possessive, a
# preposition or a verb before the noun makes it someone else's phrase ("seen by a woman", "her sister").
_NOT_ADJECTIVE = (r"(?:a|an|the|her|his|their|my|your|our|its|this|that|these|those|some|any|no|by|with|of|to|in|"
                  r"for|from|at|on|and|or|but|per|via|is|was|are|were|has|had|says|said|reports|called|saw|seen|"
                  r"found|brought|told|asked|other|another|one|two|three|four|five|six|seven|eight|nine|ten|"
                  r"several|many|both|each|every|pt|patient|who|whom|which|[\w-]+['’]s)")
_FRAGMENT_HEAD = re.compile(rf"(?:\A|[.;:\n(]\s*|,\s+)(?:(?!{_NOT_ADJECTIVE}\b)[A-Za-z][\w/-]*,?\s+){{0,3}}\Z",
                            re.IGNORECASE)
# a noun phrase fronted before the patient's pronoun, its apposition: "Mother of the pt in bed 3, she fainted",
# "A woman in her 60s, he ..." - the noun names the subject, the patient
# (an age may be a modifier: "A 40-ish man, he walked in"); with a comma right after the noun, the pronoun may
# follow more apposed words and a semicolon ("A 50-something woman, unkempt, found wandering ...; she")
# (the noun may be the second of two coordinated nouns: "Self-employed roofer and father-in-law of ..., he",
# "A mother-of-three and part-time barmaid, she")
_FRONTED_BEFORE = re.compile(r"(?:\A|[.;\n]\s*)(?:an?\s+|the\s+)?(?:\w[\w-]*\s+){0,2}"
                             r"(?:(?:and|or)\s+(?:an?\s+)?(?:\w[\w-]*\s+){0,2})?\Z", re.IGNORECASE)
_FRONTED_LIST = re.compile(r"(?:\A|[.;\n]\s*)an?\s+(?:[\w-]+\s+)?[\w-]+\s*,\s*(?:(?:[\w-]+\s+)?[\w-]+\s*,\s*){0,2}\Z",
                           re.IGNORECASE)
_FRONTED_AFTER = re.compile(r"(?:[^,.;:\n]{0,60},|\s*,[^.:\n]{0,80}?[,;])\s*(?:she|he)\b", re.IGNORECASE)
# the patient's predicate with a possessor: "he is his mother's only son", "she is the family's eldest daughter"
_POSSESSOR_PREDICATE = re.compile(rf"\b{_SUBJECT}\s+(?:is|was)\s+(?:(?:her|his|their|the|pt's|patient's)\s+)?"
                                  rf"[\w-]+['’]s\s+{_MODIFIER}\Z", re.IGNORECASE)
# a second predicate of the clause's subject: "She has four sisters and is the only daughter"
_SECOND_PREDICATE = re.compile(rf"(?:\A|[.;\n]\s*)(?:she|he|pt|patient|the\s+(?:pt|patient))\s+[^.;:\n]*?\band\s+"
                               rf"(?:is|was)\s+(?:an?\s+|the\s+)?{_MODIFIER}\Z", re.IGNORECASE)
# coordinated with the noun just before, which names the patient: "Retired stewardess and widow", "the nephew and
# sole caregiver", "stepfather of two teens and a new grandfather" (an "of" complement may stand between)
# (a possessor may stand before the second noun: "the landlord's daughter-in-law and the building's handyman")
_COORDINATED = re.compile(rf"\A(?:\s+of\s+[^,.;:()\n]{{1,40}}?)?(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+)"
                          rf"(?:an?\s+|the\s+)?(?:[\w-]+['’]s\s+)?{_MODIFIER}\Z", re.IGNORECASE)
# a sex word in apposition to the partner: "her partner, a man in his 40s" is the partner's and changes with
# the partner, so that the couple keeps its configuration
# an emphatic reflexive after a fronted relative makes it the subject's own, like a complement: "A father himself,
# he ..."
_EMPHATIC_AFTER = re.compile(r"\s+(?:herself|himself)\s*,", re.IGNORECASE)
# a kinship noun's complement, maybe after a noun coordinated with it: "mother of two", "uncle and godfather to ..."
_KIN_COMPLEMENT = re.compile(r"(?:\s+(?:and|or)\s+(?:[\w-]+\s+){0,2}?[\w-]+)?\s+(?:of|to)\b", re.IGNORECASE)
# or a role noun coordinated with it that closes the fronted phrase: "A mother and part-time barmaid, she ..." (a
# second relative does not: "Son and daughter at bedside, she says")
_KIN_AND_ROLE = re.compile(r"\s+(?:and|or)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?([\w-]+)\s*,", re.IGNORECASE)
# the rest of a list that "and" closes: ", mother and full-time nurse" after "A wife"
_LIST_CLOSES = re.compile(r"(?:\s*,\s*(?:[\w-]+\s+){0,2}?[\w-]+)*\s*,?\s+(?:and|or)\s+(?:an?\s+)?[\w-]+",
                          re.IGNORECASE)
_PARTNER_APPOSITION = re.compile(r"\b(?:partner|spouse|husband|wife|boyfriend|girlfriend|fianc[eé]e?)\s*,\s*"
                                 rf"(?:an?\s+)?{_MODIFIER}\Z", re.IGNORECASE)
# a role noun apposed to the patient's partner or in a relative clause about the partner is the partner's and
# changes with the partner: "her husband, a retired fireman, ..." -> "his wife, a retired firewoman, ..." (also as
# the partner's predicate: "her husband is a fireman") (a relative's partner, "her son and his wife, a nurse", is
# kept with the partner)
_PARTNER_ROLE = re.compile(r"(?<!\band\s)\b(?:her|his|pt['’]s|patient['’]s)\s+(?:partner|spouse|husband|wife|boyfriend|"
                           r"girlfriend|fianc[eé]e?)(?:\s+of\s+(?:\w+\s+){1,2}?(?:years?|months?|yrs?))?"
                           r"(?:\s*,\s*|\s*,?\s*who\s+(?:is|was|has\s+been)\s+|\s+(?:is|was|has\s+been)\s+(?:also\s+)?)"
                           rf"(?:an?\s+)?{_MODIFIER}\Z", re.IGNORECASE)
# a note about a child: "dad" and "mom" there are the child's parents, not the patient (an age in days, "3/7",
# only before a sex code: "SOB x3/7" is an adult's)
_CHILD_NOTE = re.compile(r"\b(?:infant|baby|newborn|neonate|toddler|child|kid|boy|girl|\d+\s*(?:wk|wks|mo|mos)\b|"
                         r"\d+/(?:12|52)\b|\d+/7\s*[MF]\b)",
                         re.IGNORECASE)


# a son or daughter speaking of a parent: the parent is the patient ("Daughter says her mother has not been
# herself", "Pt's son, a nurse, reports his dad fell"); the possessive is the speaker's and is kept
# (other_persons_words)
# (several children speak as one: "His daughters, worried about their dad, say ...")
_CHILD_NOUNS = r"(?:step|grand|god)?(?:daughter|son)s?(?:-in-law)?"
_SPEECH = (r"(?:says|say|said|reports|report|reported|states|state|stated|notes|noted|thinks|think|feels|feel|"
           r"explains|explained|adds|added|worries|is\s+worried|are\s+worried|"
           # a wish about the parent is said of the patient the same way ("asks that her father not be resuscitated")
           r"asks|asked|ask|requests|requested|request|wants|wanted|want|insists|insisted|confirms|confirmed|"
           r"mentions|mentioned|describes|described|believes|believed|"
           r"(?:tells|told)\s+(?:us|me|staff|triage|the\s+\w+)|"
           # a feeling about the parent, in apposition: "Her son, worried that his mother ...", "furious with his
           # father for ..."
           r"(?:(?:is|was|are|were)\s+)?(?:worried|concerned|anxious|angry|furious|upset|cross|annoyed|frustrated|"
           r"frightened|scared|afraid|fed\s+up)(?:\s+(?:with|about|at|for|by))?)")
# the patient named by a title, as the speaker's owner ("Ms ___'s son ... says his mother ...")
_TITLED = r"(?:mrs|mr|ms|miss|mx)\.?\s*___"


# (after a first deed of the speaker's: "Mr ___'s son rang ahead and says his dad ...")
_FIRST_DEED = r"(?:\s+(?!(?:she|he)\b)[a-z]+(?:\s+(?!(?:she|he)\b)[\w-]+){0,7}?\s+and)?"
# (also in a relative clause, with the speaker's own pronoun: "Her daughter, who says she has never seen her
# mother ...")
def _speaks_of(speakers: str) -> re.Pattern[str]:
    # (the speaker may come with the patient: "Accompanied by her godson, who says his godfather ...")
    return re.compile(rf"(?:\A|[.;:\n]\s*)(?:(?:accompanied|brought\s+in|brought|seen)\s+(?:by|with)\s+)?"
                      rf"(?:(?:the\s+)?(?:pt['’]s|patient['’]s|her|his)\s+|{_TITLED}['’]s\s+|the\s+)?"
                      rf"(?:(?:eldest|youngest|oldest|elder|younger|only|adult|adopted)\s+)?{speakers}"
                      rf"(?:\s+(?:at|by)\s+(?:the\s+)?(?:bedside|side))?"
                      rf"(?:\s*,[^,.;:\n]{{1,50}},)?(?:\s*,?\s*who)?{_FIRST_DEED}\s*,?\s+{_SPEECH}\s+(?:that\s+)?"
                      rf"(?:(she|he)\s+[^,.;:\n]{{0,40}}?\s+)?(her|his|their)\s+\Z", re.IGNORECASE)


_CHILD_SPEAKS = _speaks_of(_CHILD_NOUNS)
# a nephew or niece speaking of an aunt or uncle, the same way ("Her nephew, anxious that his aunt ...")
_NIBLING_SPEAKS = _speaks_of(r"(?:great-)?(?:nephew|niece)")
_AUNTS = frozenset({"aunt", "great-aunt", "uncle", "great-uncle"})
# a parent speaking of a child, the same way: the child is the patient ("His mother, frightened for her son, says
# he ...", "Mother reports her son has had a barking cough")
_PARENT_SPEAKERS = r"(?:mother|father|mum|mom|dad|parents?)"
_PARENT_SPEAKS = _speaks_of(_PARENT_SPEAKERS)
_CHILDREN = frozenset({"son", "daughter"})
# and a brother or sister speaking of a sibling ("Sister says her brother has been low since ...")
_SIBLING_NOUNS = r"(?:half-|step)?(?:brother|sister)s?"
_SIBLING_SPEAKS = _speaks_of(_SIBLING_NOUNS)
_SIBLINGS = frozenset({"brother", "sister", "half-brother", "half-sister", "stepbrother", "stepsister"})
_SPEAKER = re.compile(rf"{_CHILD_NOUNS}|(?:great-)?(?:nephew|niece)|{_PARENT_SPEAKERS}|{_SIBLING_NOUNS}", re.IGNORECASE)


def _speech_of(word: str) -> re.Pattern[str] | None:
    """Who may speak of the relative ``word`` as of the patient: the patient's child of a parent, a nephew or niece
    of an aunt or uncle, a parent of a son or daughter."""
    if word in _AUNTS:
        return _NIBLING_SPEAKS
    if word in _CHILDREN:
        return _PARENT_SPEAKS
    if word in _SIBLINGS:
        return _SIBLING_SPEAKS
    return _CHILD_SPEAKS if word in _KIN else None


def _speaker_owns(said: re.Match[str]) -> bool:
    """The possessive after the speech verb is the speaker's: its sex is the speaker's ("Son says his ...");
    "their" is the speakers' ("His daughters ... their dad")."""
    speaker = _SPEAKER.search(said.group())
    if speaker is None:
        return False
    if said.group(2).lower() == "their":
        return True
    return (said.group(2).lower() == "her") == any(w in speaker.group().lower() for w in ("daughter", "niece",
                                                                                          "mother", "mum", "mom",
                                                                                          "sister"))


# the bride's groom and the groom's bride are partners: "her groom says ..." changes with the patient
_PARTNER_ROLES = frozenset({"bride", "groom"})
_POSSESSIVE_BEFORE = re.compile(r"\b(?:her|his|pt['’]s|patient['’]s)\s+(?:new\s+)?\Z", re.IGNORECASE)
# a kinship title used as the patient's own name: "goes by 'Auntie Jo'", "known as Uncle ___"
# (or what others call the patient, in quotes: "everyone calls her 'Nana'", "the kids call him 'Grandad ___'",
# "Called 'the Duchess' by the regulars")
_NICKNAME = re.compile(r"\b(?:goes|go|went|going)\s+by\s+[\"'“‘]?|\bknown\s+(?:to\s+[\w\s]{1,30}?\s+|on\s+[\w\s]{1,30}?\s+)?as\s+[\"'“‘]?|\bcalls\s+(?:herself|himself)\s+"
                       r"[\"'“‘]?|\b(?:call|calls|called|calling|nicknamed|dubbed)\s+(?:her|him)\s+[\"'“‘]|"
                       r"\b(?:know|knows|knew)\s+(?:her|him)\s+as\s+[\"'“‘]?|"
                       r"\b(?:called|nicknamed|dubbed)\s+[\"'“‘]",
                       re.IGNORECASE)
_NICKNAME_TITLES = {"auntie": ("F", "uncle"), "aunty": ("F", "uncle"), "aunt": ("F", "uncle"), "uncle": ("M", "auntie"),
                    "granny": ("F", "grandad"), "grandad": ("M", "granny"), "grandma": ("F", "grandpa"),
                    "grandpa": ("M", "grandma"), "nanna": ("F", "grandad"), "nana": ("F", "grandad"), "nan": ("F", "grandad")}
_NICKNAME_TITLE = re.compile(r"(" + "|".join(_NICKNAME_TITLES) + r")(?=\s+(?:[A-Z][a-z]|___)|[\"'”’])", re.IGNORECASE)


# (or a role noun of two forms in quotes: "known to the regulars as 'the Duchess'")
_NICKNAME_ROLE = re.compile(r"(?:the\s+)?([A-Za-z][\w-]*)(?=[\"'”’])", re.IGNORECASE)


def _nicknames(text: str) -> list[Agreeing]:
    out = []
    for m in _NICKNAME.finditer(text):
        t = _NICKNAME_TITLE.match(text, m.end())
        if t:
            gender, new = _NICKNAME_TITLES[t.group(1).lower()]
            out.append(Agreeing(t.start(), t.end(), t.group(1), gender, _match_case(t.group(1), new), "patient",
                                "role noun"))
            continue
        r = _NICKNAME_ROLE.match(text, m.end())
        word = r.group(1).lower() if r else ""
        if word in ROLE_PAIRS or word in _MALE:
            new = ROLE_PAIRS[word] if word in ROLE_PAIRS else _MALE[word]
            out.append(Agreeing(r.start(1), r.end(1), r.group(1), "F" if word in ROLE_PAIRS else "M",
                                _match_case(r.group(1), new), "patient", "role noun"))
    return out


# a sex word said to be the patient's partner: "the man who hit her was her ex-husband" - changes with the partner
_IS_PARTNER_AFTER = re.compile(r"(?:\s+(?:who|that)\b[^.;:()\n]{1,60}?)?\s+(?:is|was|turned\s+out\s+to\s+be)\s+"
                               r"(?:her|his|the\s+(?:pt|patient)['’]s)\s+(?:own\s+|new\s+|current\s+)?(?:ex-)?"
                               r"(?:husband|wife|boyfriend|girlfriend|fianc[eé]e?)\b", re.IGNORECASE)
# the sex word of a person who acts on the patient: "The man who brought him in says ...", "the woman who found
# her" - someone else
_ACTS = (r"(?:found|brought|drove|driven|hit|attacked|pushed|stabbed|punched|kicked|assaulted|helped|called|rang|"
         r"accompanied|carried|picked|saw|witnessed|robbed|bit|struck|knocked|dropped|escorted)")
_WHO_ACTS_ON = re.compile(rf"\s+(?:who|that)\s+(?:had\s+|has\s+)?{_ACTS}\s+(?:her|him)\b(?=\s+(?:in|to|up|out|down|been|is|was|has|had|fled|ran|left|"
                          r"at|from|off|over|home|here|there|and|on|with|after|before|when|while)\b|\s*[.,;:]|\s*\Z)",
                          re.IGNORECASE)
# the same deed said of a person of the other sex in the clause: "A man in his 40s hit her with a bottle"
_ACTS_ON = re.compile(rf"[^.;\n]{{0,60}}?\b{_ACTS}\s+(her|him)\b", re.IGNORECASE)
_THE_BEFORE = re.compile(r"\bthe\s+\Z", re.IGNORECASE)
# the note's subject named by a sex word and a participle at the head of a sentence: "The man brought in by police
# from the station, who ..., is refusing obs" (not "the man in bed 2")
_HEAD_THE = re.compile(r"(?:\A|[.;\n]\s*)the\s+\Z", re.IGNORECASE)
# "The lady in bed 12 ...", "The elderly gentleman was found ...": a sex word heading a sentence or a clause
# after a semicolon or a label's colon ("Seen by the stroke team: the lady has ...") is the note's subject, the
# patient named again by a noun after the first mention
# (also "this", a question's auxiliary before it - "Has the gentleman in bed 9 been seen?" -, after what the crew or
# the police report - "Ambulance crew report the gentleman was trapped" - and in a referral: "see this lady")
_HEAD_THE_SEX = re.compile(r"(?:(?:\A|[.;:\n]\s*)(?:(?:has|have|had|did|does|can|could|should|will|would|is|was)\s+)?"
                           r"(?:the|this)|\b(?:crew|paramedics?|police|officers?|staff|nurses?|ambulance|doctors?|gp|"
                           r"security|carers)\s+"
                           r"(?:report|reports|reported|say|says|said|state|states|stated)\s+(?:that\s+)?the|"
                           r"\b(?:see|seeing|saw|seen|review|reviewing|reviewed|assess|assessing|assessed|examine|examined|"
                           r"refer|referring|referred|admit|admitted)\s+this)"
                           r"\s+(?:(?:very\s+)?(?:young|elderly|old|older|frail|pleasant|lovely|delightful|charming)\s+)?\Z",
                           re.IGNORECASE)
# "A woman in her 70s with ...", "A man of 30, ...": a sex word with an age opening the note, a line or a labelled
# field ("Handover: a man of 30 ..."); later in a note "A man in his 30s has been arrested" is someone else
_HEAD_A = re.compile(r"(?:\A|\n|\A[\w ]{1,30}:)\s*an?\s+(?:(?:young|elderly|old|older|frail|pleasant|tall|thin|obese)\s+)?"
                     r"\Z", re.IGNORECASE)
# a passive of what befell the note's subject: "A young man was hit by a car", "A woman has been found collapsed"
_HARMED_AFTER = re.compile(r"\s+(?:was|is|has\s+been|had\s+been)\s+(?:\w+ly\s+)?(?:hit|found|brought|struck|knocked|"
                           r"assaulted|stabbed|attacked|thrown|injured|hurt|pulled|rescued|involved|bitten|punched|"
                           r"kicked|run\s+over)\b", re.IGNORECASE)
_AGE_AFTER = re.compile(r"\s*(?:,\s*)?(?:in\s+(?:her|his)\s+(?:(?:early|mid|late)[\s-]*)?\d0['’]?s|(?:of|aged)\s+(?:about\s+|around\s+)?"
                        r"\d+\b|\d{1,3}\s*(?:,|yo\b|y/o|years?\b))", re.IGNORECASE)
# (not when the clause says whose relative the person is: "The man in the next bay is her brother")
_RELATIVE_PREDICATE_AFTER = re.compile(r"[^.;\n]{0,40}?\b(?:is|was)\s+(?:her|his|their|pt's|pt’s|patient's|patient’s|"
                                       r"the\s+(?:pt|patient)(?:'s|’s))\s", re.IGNORECASE)
# (or in apposition, after a relative clause or none: "the man who was driving, his neighbour, ...", "The lady,
# her carer's sister, ..."): another person the patient knows, not the patient named again
_KNOWN_PERSON = (r"(?:neighbou?r|friend|carer|caregiver|colleague|co-?worker|boss|manager|employer|landlord|landlady|"
                 r"lodger|tenant|flatmate|housemate|roommate|cousin|relative|" +
                 "|".join(sorted(map(re.escape, person_nouns_en.sexes("kin", "parent")), key=len, reverse=True)) + ")")
_RELATIVE_APPOSITION_AFTER = re.compile(r"(?:\s+(?:who|that)\b[^,.;:\n]{1,50})?\s*,\s*(?:her|his|their|pt['’]s|"
                                        rf"the\s+(?:pt|patient)['’]s)\s+(?:[\w-]+\s+)?{_KNOWN_PERSON}s?\s*[,;.]",
                                        re.IGNORECASE)
# "The actress, 36, fainted ...", "The chairman of the parish council, 63, ...": a role noun heading the note's
# sentence with the age in apposition is the patient
_AGE_APPOSITION_AFTER = re.compile(r"(?:\s+of\s+[^,.;:()\n]{1,40}?)?\s*,\s*\d{1,3}\s*(?:,|yo\b|y/o|y\.o\.|years?\b)",
                                   re.IGNORECASE)
_PARTICIPLE_AFTER = re.compile(r"\s+(?:brought|found|seen|admitted|transferred|referred|conveyed|escorted|picked|"
                               r"pulled|rescued|sent|triaged|booked|accompanied)\s+(?:in|by|from|to|up|out|with|at|"
                               r"over|into|off|after|today|this|last|earlier|overnight)\b(?!\s+(?:her|him|the\s+(?:pt|patient)"
                               r")\b)", re.IGNORECASE)


# the patient's children and then "their" parent, in one sentence
_THEIR_PARENTS = frozenset({"mother", "father", "mum", "mom", "dad", "mummy", "daddy"})
_THEIR_PARENT = re.compile(r"\b(?:her|his|pt['’]s|patient['’]s)\s+(?:\w+\s+)?(?:step)?(?:daughters|sons|children|kids)\b"
                           r"[^.;:!?\n]{0,80}?\btheir\s+\Z", re.IGNORECASE)


def _brought_by(text: str, word: str) -> bool:
    """The note says the parent ``word`` brought or accompanies the patient ("brought in by mum", "BIB dad",
    "with mum"): that parent is someone else wherever the note names it."""
    return re.search(rf"\b(?:by|bib|with|w/)\s+{re.escape(word)}\b", text, re.IGNORECASE) is not None


def _other_sex_form(start: int, end: int, token: str, word: str, controller: str) -> Agreeing:
    """The role noun ``word`` (a female or male form of ROLE_PAIRS) with its other-sex form."""
    gender = "F" if word in ROLE_PAIRS else "M"
    new = ROLE_PAIRS[word] if gender == "F" else _MALE[word]
    return Agreeing(start, end, token, gender, _match_case(token, new), controller, "role noun")


def _acts_on_other_sex(text: str, end: int, word: str) -> bool:
    """The clause of the sex word ``word`` says its person acted on a person of the other sex (the patient)."""
    acts = _ACTS_ON.match(text, end)
    return acts is not None and (acts.group(1).lower() == "her") == (word in _MALE)


# "the poor man", "the poor old lady": a sex word with an epithet of pity names the patient again
_EPITHET_BEFORE = re.compile(r"\bthe\s+poor\s+(?:old\s+|young\s+)?\Z", re.IGNORECASE)
# a role noun heading the note with its article, at most two modifiers before it ("The bride-to-be fainted")
_HEAD_ROLE = re.compile(r"\A\s*the\s+(?:[\w-]+\s+){0,2}\Z", re.IGNORECASE)
_HELPER_DEED = re.compile(rf"\b(?:{_ACTS}|phoned|alerted|noticed|reported)\b", re.IGNORECASE)
_THIRD_PRONOUN = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
_PREPOSITION_BEFORE = re.compile(r"\b(?:at|in|on|with|from|of|to|after|during|for|about|by|into)\s+\Z", re.IGNORECASE)


def _own_pronoun_follows(text: str, end: int, gender: str) -> bool:
    """The first pronoun after the role noun in its sentence is the noun's own, as subject or possessive: a noun
    that acts on someone ("The policewoman brought her in") is not the note's subject."""
    sentence = re.match(r"[^.\n]*", text[end:]).group()
    p = _THIRD_PRONOUN.search(sentence)
    if p is None or _HELPER_DEED.search(sentence[:p.start()]):
        return False  # "The waitress ... called 911 when she collapsed": the noun helped the patient
    word = p.group().lower()
    if (word in ("she", "her", "hers", "herself")) != (gender == "F"):
        return False
    if word in ("him", "her"):
        return word == "her" and (_PREPOSITION_BEFORE.search(sentence[:p.start()]) is not None
                                  or re.match(r"\s+own\b", sentence[p.end():]) is not None)
    return True


def _closes_with_role(text: str, end: int) -> bool:
    """The relative ending at ``end`` is coordinated with a role noun (not another relative) that closes the
    fronted phrase."""
    closes = _KIN_AND_ROLE.match(text, end)
    if closes is None:
        return False
    other = closes.group(1).lower()
    return (other in ROLE_PAIRS or other in _MALE) and other not in _KIN and other not in CHILD_PAIRS \
        and other not in _MALE_CHILD


def analyse(text: str) -> list[Agreeing]:
    """Role nouns of ``text`` that describe the patient, with their counterpart."""
    found: list[Agreeing] = []
    low = text.lower()
    matches = _ROLE.finditer(low) if len(low) == len(text) else _ROLE_CI.finditer(text)
    nicknames = _nicknames(text)
    for m in matches:
        if any(n.start <= m.start() < n.end for n in nicknames):
            continue
        word = m.group().lower()
        token = text[m.start():m.end()]
        contracted = word in _PARENT_CALLS and _CONTRACTED_VERB.match(text, m.end()) is not None
        if _NOT_BEFORE.match(text, m.end()) and not contracted:
            continue  # "the waitress's ...": a possessor, someone else
        lead = m.start()
        prefix = _PREFIX.search(text, max(0, lead - 8), lead)
        if prefix:
            lead = prefix.start()  # "a 40-something ex-policeman": the licensor is read before the prefix
        before = text[max(0, lead - 80): lead]
        child = word in CHILD_PAIRS or word in _MALE_CHILD
        licensors = _CHILD_LICENSORS if child else _KIN_LICENSORS if word in _KIN else _LICENSORS
        previous = found[-1].end if found else -1
        between = text[previous:lead] if previous >= 0 else ""
        # a relative after a bare comma is at the bedside ("an elderly man, son at bedside"): kin need "and"/"or"
        # (or inside a list that "and" closes: "A wife, mother and full-time nurse, she ...")
        coordinated = previous >= 0 and _COORDINATED.match(between) is not None and (
            not (child or word in _KIN) or re.search(r"\b(?:and|or)\b", between) is not None
            or _LIST_CLOSES.match(text, m.end()) is not None)
        # a relative fronted without a complement is at the bedside, not the patient ("Son at bedside, he says"); the
        # complement may follow a noun coordinated with it ("Grandfather and guardian of two children, he ...")
        # (or stands in a list that an indefinite article opens: "A wife, mother and full-time nurse, she ...")
        fronted = (_FRONTED_BEFORE.search(before) is not None or _FRONTED_LIST.search(before) is not None) and \
            _FRONTED_AFTER.match(text, m.end()) is not None and (
                not (child or word in _KIN) or _KIN_COMPLEMENT.match(text, m.end()) is not None
                or _FRONTED_LIST.search(before) is not None or _closes_with_role(text, m.end())
                or _EMPHATIC_AFTER.match(text, m.end()) is not None)
        # (any role noun: "she is the village's postwoman", "he is his mother's only son")
        possessor_predicate = _POSSESSOR_PREDICATE.search(before) is not None
        speech = _speech_of(word)
        said = speech.search(text, max(0, lead - 160), lead) if speech else None
        if said and _speaker_owns(said):
            possessor_predicate = True  # "Daughter says her mother ...": the speaker's parent, the patient
        if not child and word not in _KIN and word not in _SEX_WORDS and _PARTNER_ROLE.search(before):
            gender = "F" if word in ROLE_PAIRS else "M"
            new = ROLE_PAIRS[word] if gender == "F" else _MALE[word]
            found.append(Agreeing(m.start(), m.end(), token, gender, _match_case(token, new), "partner", "role noun"))
            continue
        if word in _THEIR_PARENTS and _THEIR_PARENT.search(before):
            # "His daughters are taking turns to stay with their dad": the children's parent is the patient, or the
            # patient's partner; either changes
            found.append(_other_sex_form(m.start(), m.end(), token, word, "partner"))
            continue
        if word in _PARENT_CALLS and not _POSSESSED.search(before) and any(
                f.text.lower() in _PARENT_CALLS and f.gender != _PERSON_SEX.get(word) for f in found):
            # "Mum hasn't been herself since Dad died": once the child's one parent is the patient, the other parent
            # is the patient's partner, and changes with the patient
            found.append(_other_sex_form(m.start(), m.end(), token, word, "partner"))
            continue
        if word in _PARTNER_ROLES and _POSSESSIVE_BEFORE.search(before):
            found.append(Agreeing(m.start(), m.end(), token, "F" if word == "bride" else "M",
                                  _match_case(token, "groom" if word == "bride" else "bride"), "partner", "role noun"))
            continue
        if word in _KIN_OF and re.match(r"\s+of\b", text[m.end():]) and not (
                _LICENSORS[1].search(before) or _LICENSORS[5].search(before) or coordinated or fronted):
            continue  # "mother of two": the lexicon's patient_kinship rule decides ("is the mother of a child": here)
        if (child or word in _KIN) and _POSSESSED_PHRASE.search(before) and not possessor_predicate:
            continue  # "her 72 yo mother", "his eldest son": someone else
        if _OTHER_WHO.search(before) and not (coordinated or possessor_predicate):
            continue  # "his grandson, who is a policeman": the relative's
        if word in _SEX_WORDS and _THE_BEFORE.search(before) and _IS_PARTNER_AFTER.match(text, m.end()):
            found.append(Agreeing(m.start(), m.end(), token, "F" if word in SEX_WORD_PAIRS else "M",
                                  _match_case(token, SEX_WORD_PAIRS[word] if word in SEX_WORD_PAIRS else
                                              _MALE[word]), "partner", "sex word"))
            continue
        if word in _SEX_WORDS and _WHO_ACTS_ON.match(text, m.end()):
            continue  # "The man who brought him in": someone else
        if _OTHER_PATIENT.search(before) and not coordinated:
            continue  # "the other patient, a woman in her 20s": someone else
        if _QUOTE_OPENS_SELF.search(before) and _QUOTE_SPEAKER_AFTER.match(text, m.end()):
            possessor_predicate = True  # the patient's own words about the patient, quoted before the speaker
        if coordinated or fronted or possessor_predicate:
            pass      # coordinated with the patient's noun, fronted before the patient's pronoun, a predicate
        elif word in _SEX_WORDS and _HEAD_THE.search(before) and _PARTICIPLE_AFTER.match(text, m.end()):
            pass      # "The woman brought in by police ...": the note's subject
        elif word in _SEX_WORDS and _HEAD_A.search(before) and _AGE_AFTER.match(text, m.end()) and not \
                _acts_on_other_sex(text, m.end(), word):
            pass      # "A woman in her 70s with a history of falls": the note's subject, aged
        elif word in _SEX_WORDS and _HEAD_A.search(before) and _HARMED_AFTER.match(text, m.end()):
            pass      # "A young man was hit by a car": the note's subject, what befell the patient
        elif word in _SEX_WORDS and _RELATIVE_APPOSITION_AFTER.match(text, m.end()):
            continue  # "the man who was driving, his neighbour, ...": a person the patient knows
        elif word in ("lady", "gentleman", "woman", "man", "lass", "lad") and _HEAD_THE_SEX.search(before) and not \
                _RELATIVE_PREDICATE_AFTER.match(text, m.end()):
            pass      # "The gentleman in bed 12 has pulled out his cannula": the patient named again
        elif not child and word not in _KIN and _HEAD_THE_SEX.search(before) and \
                _AGE_APPOSITION_AFTER.match(text, m.end()):
            pass      # "The waiter, 24, burnt his hand": the patient, aged in apposition
        elif word in ("female", "male") and _PATIENT_AFTER.match(text, m.end()):
            pass      # "the female patient"
        elif word in _SEX_WORDS and (_PARTNER_AFTER.match(text, m.end()) or _PARTNER_APPOSITION.search(before)):
            pass      # "her female partner", "her partner, a man in his 40s"
        elif word in _SEX_WORDS and _STAFF_AFTER.match(text, m.end()) and (
                _LICENSORS[1].search(before) or _LICENSORS[2].search(before)):
            pass      # "he is a 55 yo male nurse": the patient's own job
        elif word in _SEX_WORDS and (_STAFF_AFTER.match(text, m.end()) or _OTHER_APPOSITION.search(before)) and not (
                _LICENSORS[3].search(before) or _LICENSORS[7].search(before)):
            continue  # someone else's apposition, but not the patient's ("The pt, a tall thin man, ...")
        elif word in _PARENT_CALLS and not _POSSESSED.search(before) and (contracted or not re.match(
                r"\s*(?:of|'s|’s)\b", text[m.end():])):
            if (_CHILD_NOTE.search(text) or _brought_by(text, word)) and not _LICENSORS[1].search(before):
                continue  # "Infant boy ...; dad reports", "brought in by mum": the patient's parent
        elif word in _SEX_WORDS and _EPITHET_BEFORE.search(before):
            pass      # "and the poor man is very distressed": the patient named again with pity
        elif not child and word not in _KIN and word not in _SEX_WORDS and _HEAD_ROLE.search(before) and \
                _own_pronoun_follows(text, m.end(), "F" if word in ROLE_PAIRS else "M"):
            pass      # "The groom collapsed at his own wedding": a role noun heading the note, the patient
        elif _SECOND_PREDICATE.search(before):
            pass      # "She was a nurse in her youth and is now a housewife": the patient's second predicate
        elif not any(p.search(before) for p in licensors) and not (
                not child and word not in _KIN and _FRAGMENT_HEAD.search(before)):
            continue
        gender = "F" if word in ROLE_PAIRS or word in CHILD_PAIRS else "M"
        pairs, male = (CHILD_PAIRS, _MALE_CHILD) if child else (ROLE_PAIRS, _MALE)
        new = pairs[word] if gender == "F" else male[word]
        if word == "lady" and _BEFORE_NAME.match(text, m.end()):
            new = "lord"  # "Lady ___": a peer's title, whose man is a lord
        reason = "sex word" if word in _SEX_WORDS else "role noun"
        found.append(Agreeing(m.start(), m.end(), token, gender, _match_case(token, new), "patient", reason))
    return sorted(found + nicknames, key=lambda a: a.start)


# "a man in his 20s", "her mother had cancer in her 40s": an age by decade said of the nearest person named
# before it in the sentence. The pronoun is that person's, kept, when that person is someone else (a word the
# swap leaves as it is) of the pronoun's sex; after the patient's own noun ("a male in his 80s") or with no
# other person before it ("symptoms since her 30s") it is the patient's.
_DECADE_PRONOUN = re.compile(r"\b(?:in|since|by|until|into|from)\s+(his|her)\s+(?:(?:early|mid|mid-|late)\s*)?"
                             r"(?:\d0s|\d0's|teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
                             re.IGNORECASE)
_PERSON_SEX = {
    **{w: "F" for w in ("woman", "female", "lady", "girl", "mother", "sister", "daughter", "aunt", "niece",
                        "grandmother", "granddaughter", "stepmother", "stepdaughter", "stepsister", "mom", "grandma",
                        "mother-in-law", "sister-in-law", "daughter-in-law", "wife", "girlfriend", "godmother")},
    **{w: "M" for w in ("man", "male", "gentleman", "guy", "boy", "father", "brother", "son", "uncle", "nephew",
                        "grandfather", "grandson", "stepfather", "stepson", "stepbrother", "dad", "grandpa",
                        "father-in-law", "brother-in-law", "son-in-law", "husband", "boyfriend", "godfather")},
    # every other relative of the one list ("her godson ... at his party": the godson's)
    # (a "mum" that names the patient is swapped, and passed over as the patient's own)
    **person_nouns_en.sexes("kin", "parent"),
}
_PERSON_WORD = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _PERSON_SEX), key=len, reverse=True)) + r")\b",
                          re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.;:!?\n]\s")


_A_PATIENT_BEFORE = re.compile(r"(?<!\bis\s)(?<!\bwas\s)\b(?:a|another|the\s+other)\s+(?:pt|patient)\s+\Z", re.IGNORECASE)


def other_persons_decades(text: str, swapped: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of "his"/"her" in "in his 20s" that belong to another person named before them in the sentence
    (a person word of the pronoun's sex that is not among the ``swapped`` spans): they are kept."""
    out = []
    for m in _DECADE_PRONOUN.finditer(text):
        if _A_PATIENT_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            out.append((m.start(1), m.end(1)))  # "a needle from a pt in his 70s": another patient's decade
            continue
        start = max([b.end() for b in _SENTENCE_BREAK.finditer(text, 0, m.start())] or [0])
        persons = list(_PERSON_WORD.finditer(text, start, m.start(1)))
        if not persons:
            continue
        person = persons[-1]
        if any(a < person.end() and person.start() < b for a, b in swapped):
            continue  # the patient's own noun ("a male in his 80s") or the partner's (swapped too)
        if _PERSON_SEX[person.group().lower()] == ("F" if m.group(1).lower() == "her" else "M"):
            out.append((m.start(1), m.end(1)))
    return out


# plural words for women or men, girls or boys: never the one patient. After a number or a quantifier ("two men
# and a woman", "mother of two boys", "several women") they count other people and are kept; the lexicon still
# swaps them elsewhere ("has sex with men" keeps the relationship's configuration, like a partner noun).
_COUNTED_PLURAL = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|"
                             r"many|few|some|other|both|multiple|numerous|all)\s+(?:[a-z][\w-]*\s+)?"
                             r"(women|men|ladies|gentlemen|females|males|girls|boys)\b", re.IGNORECASE)
# a relative's partner: "her daughter and her boyfriend", "his niece and her husband" - the relative's, kept
# (any relative of the one list: "her stepson and his wife", "his goddaughter and her husband")
_RELATIVE_NOUNS = person_nouns_en.sexes("kin", "parent")
_RELATIVES_PARTNER = re.compile(
    r"\b(?:her|his|their|pt's|pt’s|patient's|patient’s)\s+("
    + "|".join(sorted(map(re.escape, _RELATIVE_NOUNS), key=len, reverse=True))
    + r")\s+and\s+(her|his)\s+(husband|wife|boyfriend|girlfriend|partner|fiance|fiancee)\b", re.IGNORECASE)
# another person's partner named by that person: "the wife of the man in bed 2", "the husband of a woman on the
# ward" - hers or his, kept (the patient's own partner is "his wife", "the pt's wife")
_PARTNER_OF_OTHER = re.compile(
    r"\b(husband|wife|boyfriend|girlfriend|fianc[eé]e?)\s+of\s+(?:the|a|an|another|this|that|her|his|their)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:man|woman|gentleman|lady|guy|girl|boy|person|resident|neighbou?r|driver|passenger|friend|"
    r"colleague|coworker|co-worker|boss|flatmate|roommate|lodger|landlord|landlady|"
    + "|".join(sorted(map(re.escape, person_nouns_en.sexes("kin", "parent")), key=len, reverse=True)) + r")\b",
    re.IGNORECASE)
# a relative's partner named through the relative's possessive: "son's wife at bedside", "her daughter's
# husband" - the relative's, kept (the patient's own partner is never possessed by a relative)
_RELATIVES_POSSESSED_PARTNER = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, person_nouns_en.sexes("kin", "parent")), key=len, reverse=True)) +
    r")['’]s\s+(husband|wife|boyfriend|girlfriend|fianc[eé]e?|partner)\b", re.IGNORECASE)
_CHILD_NOUN = re.compile(r"\b(?:son|daughter|(?:half-|step)?(?:brother|sister))\b", re.IGNORECASE)
_AUNT_NOUN = re.compile(r"\b(?:great-aunt|great-uncle|aunt|uncle)\b", re.IGNORECASE)
_PARENT_NOUN = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, person_nouns_en.sexes("parent")), key=len,
                                                        reverse=True)) + r")\b", re.IGNORECASE)
# a member of staff as the subject of a clause, the nearest antecedent of a pronoun of the sex the patient is not
# (with its modifiers or its owner: "The mental health liaison nurse has seen her; he ...", "and his commanding
# officer is with him; she ...", "the home's nurse says ...")
_STAFF_NOUNS = (r"(?:dr\.?\s*___|dr\.?\s+[A-Z][a-z]+|(?:the|her|his|their|our|the\s+\w+['’]s)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:doctor|surgeon|consultant|registrar|gp|paramedic|officer|attending|resident|nurse|rn|midwife|physio|"
                r"physiotherapist|therapist|social\s+worker|pharmacist|medic))\b")
_STAFF_SUBJECT = re.compile(rf"(?:\A|[.;:\n]\s*|\band\s+){_STAFF_NOUNS}", re.IGNORECASE)
# (or the agent the patient was seen or sent by: "She was seen by the on-call registrar ...; he has booked it")
_STAFF_AGENT = re.compile(r"\b(?:seen|reviewed|assessed|examined|referred|sent|admitted|discharged|treated|triaged|"
                          rf"visited)\s+by\s+{_STAFF_NOUNS}", re.IGNORECASE)
_OTHER_SEX_PRONOUN = {"F": re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE),
                      "M": re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)}


# the patient's own child named without a sex ("her youngest", "his baby", "her little one"): a pronoun of the sex
# the patient is not after it is the child's
_OWN_CHILD = re.compile(r"\b(?:her|his)\s+(?:(?:little|new|newborn|baby|sick|only)\s+)?(?:youngest|eldest|oldest|"
                        r"baby|child|toddler|infant|newborn|little\s+one|middle\s+one|youngest\s+one)\b(?!\s+(?:sister|"
                        r"brother|son|daughter|boy|girl|grandson|granddaughter)\b)", re.IGNORECASE)


def _last_own_child(text: str, end: int, swapped: set[tuple[int, int]]) -> int | None:
    """Where the last child the patient owns, of no stated sex, is named before ``end`` (its possessive swapped)."""
    starts = [m.start() for m in _OWN_CHILD.finditer(text, 0, end) if any(a == m.start() for a, _ in swapped)]
    return starts[-1] if starts else None


def other_persons_words(text: str, swapped: list[tuple[int, int]], original_sex: str) -> list[tuple[int, int]]:
    """Spans among ``swapped`` that belong to someone else and are kept:

    * a plural person word counted by a number or a quantifier ("two men");
    * a relative's partner ("his niece and her husband", "son's wife");
    * a pronoun of the sex the patient is not ("he" in a woman's note) whose nearest person word before it in
      the text is of that sex and not swapped: a relative's ("her father has dementia and he wanders"). After
      a swapped one (the partner: "her husband ... he") or with no person before it, it follows the true swap.
    """
    spans = set(swapped)
    out = [(m.start(1), m.end(1)) for m in _COUNTED_PLURAL.finditer(text) if (m.start(1), m.end(1)) in spans]
    for m in _RELATIVES_PARTNER.finditer(text):
        if _RELATIVE_NOUNS.get(m.group(1).lower()) == ("F" if m.group(2).lower() == "her" else "M"):
            out += [(m.start(2), m.end(2)), (m.start(3), m.end(3))]  # "his niece and her husband": hers
    out += [(m.start(1), m.end(1)) for m in _RELATIVES_POSSESSED_PARTNER.finditer(text)]
    # "Daughter says her mother ...": the speaker's possessive
    # (and "Mother reports her son ...": the parent's)
    for m in list(_PARENT_NOUN.finditer(text)) + list(_AUNT_NOUN.finditer(text)) + list(_CHILD_NOUN.finditer(text)):
        speaks = _speech_of(m.group().lower()) or _CHILD_SPEAKS
        said = speaks.search(text, max(0, m.start() - 160), m.start())
        if said and not _speaker_owns(said):
            continue  # "Son says her mother ...": the patient's mother
        for g in (1, 2):
            # the speaker's own pronoun is of the speaker's sex ("Her daughter, who says she ..."); "His daughter
            # says he has been calling her by her mother's name": "he" is the patient
            if g == 1 and said and said.group(1) and (said.group(1).lower() == "she") != (said.group(2).lower() == "her"):
                continue
            if said and said.group(g) and (said.start(g), said.end(g)) in spans:
                out.append((said.start(g), said.end(g)))
    # (unless the phrase names the patient: "Pt, the wife of the pt in bay 2", "she is the wife of the man ...")
    out += [(m.start(1), m.end(1)) for m in _PARTNER_OF_OTHER.finditer(text)
            if not (_LICENSORS[1].search(text, 0, m.start()) or _LICENSORS[3].search(text, 0, m.start()))]
    pronoun_sex = "M" if original_sex == "F" else "F"
    kept = set(out)
    for m in _OTHER_SEX_PRONOUN[original_sex].finditer(text):
        if (m.start(), m.end()) not in spans:
            continue
        persons = [p for p in _PERSON_WORD.finditer(text, 0, m.start())
                   if _PERSON_SEX[p.group().lower()] == pronoun_sex]
        staff = list(_STAFF_SUBJECT.finditer(text, 0, m.start())) or list(_STAFF_AGENT.finditer(text, 0, m.start()))
        if staff and (not persons or staff[-1].start() > persons[-1].start()):
            out.append((m.start(), m.end()))  # "Dr. ___ saw her in triage; he wants ...": the doctor
            continue
        child = _last_own_child(text, m.start(), spans)
        if child is not None and (not persons or child > persons[-1].start()):
            out.append((m.start(), m.end()))  # "she brought her youngest in ... no one to mind him": the child's
            continue
        if not persons:
            continue
        person = persons[-1]
        if any(a < person.end() and person.start() < b for a, b in swapped if (a, b) not in kept):
            continue  # (a person word kept above is someone else's: "the wife of the man in bed 2 ... she")
        out.append((m.start(), m.end()))
    return out


# the patient's own clause: "she fainted while watching her being cannulated", "he felt a pop in his back while
# lifting him", "She is godmother to her niece and was holding her", "she became dizzy while sitting with her" (a
# companion). The subject of the gerund is the clause's subject, the patient; an object pronoun there is not the
# patient (that would be "herself"), but someone else of the patient's sex named before it (the woman in bay 6, his
# father, her niece).
# (the gerund may follow the injury it caused: "he hurt his back lifting him")
_OWN_CLAUSE_OBJECT = re.compile(r"\b(?:while|whilst|when|after|before|without|since|and\s+(?:was|is|has\s+been|had\s+been)"
                                r"|(?:hurt|injured|strained|pulled|twisted|sprained|jarred|cut|burnt|burned|broke)\s+"
                                r"(?:her|his)\s+(?:[\w-]+\s+)?[\w-]+"
                                r")\s+(?:\w+ly\s+)?\w+ing\s+(?:(?:with|beside|next\s+to|to)\s+)?(her|him)\b",
                                re.IGNORECASE)
# (or of a second verb of the patient's, after "and": "He is a carer for his son and lives alone with him", "and
# shares a flat with her")
_AND_VERB_OBJECT = re.compile(r"\band\s+(?:\w+ly\s+)?(?!(?:her|his|the|a|an|their|my|our|she|he|they|i|we|you|then|now|"
                              r"also|was|is|has|had|been|being|not|so|with|to|for)\b)\w+(?:\s+(?:alone|together|up|in|"
                              r"out|back|round|around|home|(?:a|an|the|some)\s+[\w-]+))?"
                              r"\s+(?:(?:with|beside|next\s+to|to|for|after)\s+)?(her|him)\b",
                              re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[.;:!?\n(]|\s[—–]\s")
# words that open another clause, or another subject, between the patient's pronoun and the gerund
_NEW_SUBJECT = re.compile(r"\b(?:she|he|they|who|which|that|i|we|you|says|said|reports|reported|states|stated|thinks|"
                          r"thought|tells|told|notes|noted|explains|explained|adds|added|believes|believed|knows|knew|"
                          r"feels|felt\s+that|asks|asked|wants|wanted|if|because|as|so|but|until)\b", re.IGNORECASE)
_OBJECT_ENDS = re.compile(r"\s*,|\s+(?:and|at|in|on|for|from|into|around|across|home)\b", re.IGNORECASE)
_AFTER_PREPOSITION = re.compile(r"\b(?:to|of|for|with|from|by|at|in|on|about|after|over|beside|near)\s+(?:(?:her|his|the|a|an|their)\s+)?"
                                r"(?:[\w-]+\s+){0,2}\Z", re.IGNORECASE)


def own_clause_objects(text: str, hits: list[tuple[int, int, str]], original_sex: str) -> list[tuple[int, int]]:
    """Spans of an object "her"/"him" (the patient's sex, swapped as an object) inside the patient's own clause
    after a gerund, when a person of that sex who is not swapped is named before it: that person's, kept."""
    pronoun, subject = ("her", "she") if original_sex == "F" else ("him", "he")
    swapped = [(a, b) for a, b, _ in hits]
    objects = {(a, b) for a, b, new in hits if new.lower() in ("him", "her")}
    out = []
    for m in sorted([*_OWN_CLAUSE_OBJECT.finditer(text), *_AND_VERB_OBJECT.finditer(text)], key=lambda m: m.start(1)):
        span = (m.start(1), m.end(1))
        if m.group(1).lower() != pronoun or span not in objects:
            continue
        start = max([b.end() for b in _CLAUSE_BREAK.finditer(text, 0, m.start())] or [0])
        middle = _patient_head(text, start, m.start(), subject, swapped)
        if middle is None:
            continue
        if _NEW_SUBJECT.search(text, middle, m.start()):
            continue  # "she says her son left without telling her": the son's clause
        if m.re is _AND_VERB_OBJECT and _someone_before(text, start, swapped, original_sex):
            continue  # "Dr. ___ saw her; she increased her dose and asked her to return": the head is the doctor
        # another person in between only as a preposition's object ("godmother to her niece"); the patient's own
        # noun may stand there ("she is godmother")
        # or as an object the clause goes on from ("had been minding her niece and fell while ..."), not one that
        # is the subject of a verb of its own ("she watched her son leave without ...", "asked her son to ...")
        if any(not (_AFTER_PREPOSITION.search(text, middle, p.start()) or _OBJECT_ENDS.match(text, p.end()))
               for p in _PERSON_WORD.finditer(text, middle, m.start())
               if not any(a < p.end() and p.start() < b for a, b in swapped)):
            continue
        others = [p for p in _PERSON_WORD.finditer(text, 0, m.start(1))
                  if _PERSON_SEX[p.group().lower()] == original_sex
                  and not any(a < p.end() and p.start() < b for a, b in swapped)]
        if others:
            out.append(span)
    # the subject of a verb whose object is the patient ("when she saw our pt seize", "he helped the pt up") is
    # someone else: kept when a person of that sex who is not swapped is named before it
    for m in _SUBJECT_OF_PATIENT.finditer(text):
        span = (m.start(1), m.end(1))
        if m.group(1).lower() != subject or span not in set(swapped):
            continue
        if any(_PERSON_SEX[p.group().lower()] == original_sex and not any(a < p.end() and p.start() < b
                                                                          for a, b in swapped)
               for p in _PERSON_WORD.finditer(text, 0, m.start(1))):
            out.append(span)
    return out + _noun_subject_objects(text, hits, original_sex) + _dependents_objects(text, hits, original_sex) + \
        _relatives_own_bodies(text, hits)


# a person the patient looks after ("raising his grandson", "sole carer of a disabled adult son") is the one the
# note worries will need looking after: the object of a verb of care after it ("who will look after him", "no one
# to watch him", "pick him up from school") is that dependent when of the patient's sex, not the patient
_CARES_FOR = re.compile(r"\b(?:raising|raises|raised|caring\s+for|cares\s+for|looks\s+after|looking\s+after|minding|"
                        r"(?:carer|caregiver|guardian)\s+(?:of|for|to))\s+(?:(?:a|an|her|his|the|their)\s+)?"
                        r"(?:[\w-]+\s+){0,2}?$", re.IGNORECASE)
_PATIENT_SUBJECT_BEFORE = re.compile(r"\b(she|he)\s+(?:(?:now|also|still|usually|mainly)\s+)?\Z", re.IGNORECASE)
# (and the verbs of hands-on care: "fainted while lifting her out of the bath")
_CARE_OBJECT = re.compile(r"\b(?:watch|watching|mind|minding|collect|collecting|feed|feeding|(?:look|looking|looks)\s+"
                          r"after|(?:care|caring|cares)\s+for|pick|picking|lift|lifting|lifted|bathe|bathing|wash|"
                          r"washing|dress|dressing|turn|turning|transfer|transferring|carry|carrying)\s+(her|him)\b",
                          re.IGNORECASE)


# a relative's own body or illness: in "her father had his first MI at 45", "his sister broke her hip" the
# possessive after the relative's verb of undergoing is the relative's (the clause's subject binds it)
_UNDERGONE = (r"(?:first|second|third|last|mi|stemi|nstemi|stroke|tia|heart\s+attack|cancer|diagnosis|bypass|operation|"
              r"surgery|transplant|fall|hip|knee|leg|arm|wrist|ankle|shoulder|back|neck|head|heart|chest|foot|hand|eye|"
              r"breast|lung|bowel|prostate|kidney|liver|"
              # (the devices, operations and treatments a relative undergoes: "his father had his pacemaker fitted")
              r"pacemaker|defibrillator|icd|stents?|valve|hysterectomy|mastectomy|appendix|appendicectomy|"
              r"appendectomy|gallbladder|cholecystectomy|hernia|tonsils|cataracts?|chemo|chemotherapy|radiotherapy|"
              r"dialysis|amputation|seizure|fit|baby|pregnancy|miscarriage|thyroid|womb|ovaries|colon|spleen)")
_RELATIVE_UNDERGOES = re.compile(r"\b(?:her|his|their|pt['’]s|patient['’]s)\s+(?:[\w-]+\s+)?(\w[\w-]*)\s+"
                                 r"(?:(?:also|recently|just|once|only|then)\s+)?(?:had|has|broke|fractured|hurt|injured|lost|"
                                 r"underwent|suffered|died\s+(?:of|from|after)|passed\s+away\s+(?:of|from|after))\s+"
                                 rf"(her|his)\s+(?:[\w-]+\s+){{0,2}}?{_UNDERGONE}\b", re.IGNORECASE)


def _relatives_own_bodies(text: str, hits: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Spans of a possessive that a relative's verb of undergoing binds to that relative (kept)."""
    swapped = {(a, b) for a, b, _ in hits}
    out = []
    for m in _RELATIVE_UNDERGOES.finditer(text):
        sex = _PERSON_SEX.get(m.group(1).lower())
        if sex is None or (m.start(1), m.end(1)) in swapped or (m.start(2), m.end(2)) not in swapped:
            continue
        if (m.group(2).lower() == "her") == (sex == "F"):
            out.append((m.start(2), m.end(2)))
    return out


def _dependents_objects(text: str, hits: list[tuple[int, int, str]], original_sex: str) -> list[tuple[int, int]]:
    """Spans of the patient's object pronoun after a verb of care, when the patient looks after a person of the
    patient's sex named before it (kept: the dependent's)."""
    swapped = {(a, b) for a, b, _ in hits}
    out = []
    for m in _CARE_OBJECT.finditer(text):
        span = (m.start(1), m.end(1))
        if span not in swapped or (m.group(1).lower() == "her") != (original_sex == "F"):
            continue
        # (or the patient's own clause cares for the person: "she now cares for her" - not herself)
        # (only when that subject pronoun is the patient's, swapped: otherwise the pronoun may be the carer)
        head = _PATIENT_SUBJECT_BEFORE.search(text, max(0, m.start() - 30), m.start())
        own = head is not None and (head.start(1), head.end(1)) in swapped
        if any(_PERSON_SEX[p.group().lower()] == original_sex and (p.start(), p.end()) not in swapped
               and (own or _CARES_FOR.search(text[max(0, p.start() - 60):p.start()]))
               for p in _PERSON_WORD.finditer(text, 0, m.start())):
            out.append(span)
        elif _last_own_child(text, m.start(), swapped) is not None:
            out.append(span)  # "he brought his youngest in ... no one to mind him": the child, of either sex
    return out


# binding with a noun subject: the patient named by a noun at the head of a clause ("his dad is more confused and has
# been calling him", "his grandfather has become too unsteady for him to manage") is not the plain object pronoun
# of that clause; the object is another person of the patient's sex named before (the son, the grandson)
_NOUN_AS_OBJECT = re.compile(r"\b(?:to|of|for|with|from|by|at|in|on|about|after|over|beside|near|and|or|called|call|"
                             r"calls|calling)\s+(?:(?:her|his|the|their|our|a|an)\s+)?(?:[\w-]+\s+)?\Z", re.IGNORECASE)
# (another pronoun opens a clause of its own: "Mum ... won't let us help her")
_CLAUSE_STOP = re.compile(r"[,.;:!?\n()\"“”]|\b(?:she|he|they|we|i|you|us|me|them|who|which|that|if|because|when|"
                          r"whenever|while|whilst|after|before|until|since|although|though|but|so|unless|whether|as|"
                          r"says|said|states|stated|reports|reported|thinks|feels)\b", re.IGNORECASE)


def _noun_subject_objects(text: str, hits: list[tuple[int, int, str]], original_sex: str) -> list[tuple[int, int]]:
    """Spans of an object "her"/"him" (swapped as an object) in the clause of a person word the swap changes (the
    patient named by a noun), with no other person in between, when a person of the patient's sex who is not
    swapped is named before it: that person's, kept."""
    pronoun = "her" if original_sex == "F" else "him"
    swapped = [(a, b) for a, b, _ in hits]
    objects = [(a, b) for a, b, new in hits if text[a:b].lower() == pronoun and new.lower() in ("him", "her")]
    out = []
    for a, b, _ in hits:
        if _PERSON_SEX.get(text[a:b].lower()) != original_sex or _NOUN_AS_OBJECT.search(text, max(0, a - 40), a) \
                or _NOT_BEFORE.match(text, b) and not _CONTRACTED_VERB.match(text, b):
            continue
        stop = _CLAUSE_STOP.search(text, b)
        limit = stop.start() if stop else len(text)
        for start, end in objects:
            if not b < start < limit or _PERSON_WORD.search(text, b, start):
                continue
            if any(_PERSON_SEX[p.group().lower()] == original_sex and not any(x < p.end() and p.start() < y
                                                                              for x, y in swapped)
                   for p in _PERSON_WORD.finditer(text, 0, start)):
                out.append((start, end))
    return out


def _someone_before(text: str, end: int, swapped: list[tuple[int, int]], sex: str) -> bool:
    """A member of staff, or a person of ``sex`` whom the swap leaves, is named before ``end`` (so a pronoun of
    that sex heading a clause may be that person)."""
    from biasmirror.counterfactuals.coreference_en import _STAFF  # (coreference_en imports this module)

    return _STAFF.search(text, 0, end) is not None or any(
        _PERSON_SEX[p.group().lower()] == sex and not any(a < p.end() and p.start() < b for a, b in swapped)
        for p in _PERSON_WORD.finditer(text, 0, end))


# the patient's noun heading the clause, after an article or a possessive ("The daughter of the lady in bay 2 became
# dizzy while sitting with her", the daughter being swapped)
_NOUN_HEAD = re.compile(r"\s*(?:and\s+|then\s+)?(?:(?:the|this|our|her|his|pt['’]s|patient['’]s)\s+)?"
                        r"(?:[\w-]+\s+){0,2}?", re.IGNORECASE)


def _patient_head(text: str, start: int, end: int, subject: str, swapped: list[tuple[int, int]]) -> int | None:
    """Where the patient heading the clause at ``start`` ends: the subject pronoun, or a person word the swap
    changes (the patient named by a noun); None when the clause is headed by anything else."""
    head = re.match(r"\s*(?:and\s+|then\s+)?(\w+)\b", text[start:end])
    if head is not None and head.group(1).lower() == subject:
        return start + head.end()
    lead = _NOUN_HEAD.match(text, start, end)
    noun = _PERSON_WORD.match(text, lead.end()) if lead else None
    if noun is not None and noun.end() <= end and any(a < noun.end() and noun.start() < b for a, b in swapped):
        return noun.end()
    return None


_SUBJECT_OF_PATIENT = re.compile(r"\b(she|he)\s+(?:(?:had|has|then|also|just)\s+)?(?!(?:is|was|'s|became|remains|"
                                 r"seemed|looked)\b)[a-z]+(?:ed|s)?\s+(?:our|the|this)\s+(?:pt|patient)\b(?!['’])",
                                 re.IGNORECASE)

