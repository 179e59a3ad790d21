"""Which gendered words of an English original refer to the patient: the second opinion's own reading.

Written apart from the swapper (not its lexicon file, not agreement_en.py): surface rules of its own over the
ORIGINAL text; only the list of gendered person nouns is shared (person_nouns_en.py), so that both know the same
words. A pronoun refers to the patient unless it sits in another person's phrase ("a woman in her
30s"); "man", "woman", "male", "female" refer to the patient only where they name the patient (after an age,
as the patient's predicate, at the head of a note's fragment, before "patient"); a role noun (actress,
grandmother, widow, ...) only as the patient's predicate, after an age, or coordinated with such a noun.
"""

from __future__ import annotations

import re

from biasmirror.counterfactuals import person_nouns_en
from biasmirror.counterfactuals.second_opinion_base import Reading, Token

TOKEN = re.compile(r"(?:Mr|Mrs|Ms|Dr)\.|[yY]/[oO]|[yY]\.[oO]\.|_+|\d+(?:\.\d+)?[A-Za-z]*|[^\W\d_]+(?:['’-][^\W\d_]+)*|\S")

PRONOUNS = {"she": "F", "her": "F", "hers": "F", "herself": "F", "he": "M", "him": "M", "his": "M",
            "himself": "M"}
HONORIFICS = {"ms.": "F", "mrs.": "F", "miss": "F", "ms": "F", "mrs": "F", "mr.": "M", "mr": "M"}
# the gendered person nouns come from the one lexicon (person_nouns_en.py); which of them name the patient is
# decided here, by rules of this module's own
PERSON_WORDS = person_nouns_en.sexes("sex") | {"girl": "F", "boy": "M"} | {
    w: sex for w, sex in person_nouns_en.plurals().items() if w in ("women", "men", "ladies", "gentlemen", "females",
                                                                  "males")}
ROLES = person_nouns_en.sexes("role", "parent", "kin") | {"girl": "F", "boy": "M", "madam": "F", "sir": "M"}
KINSHIP = frozenset(person_nouns_en.sexes("parent", "kin")) - {"mom", "dad", "mum", "mommy", "daddy", "grandma",
                                                              "grandpa"}
# kinship nouns that name the patient in "mother of three", "grandmother of five", "mom" said by a child
PARENT_ROLES = frozenset(person_nouns_en.sexes("parent"))
PARTNERS = {"husband", "wife", "boyfriend", "girlfriend", "fiance", "fiancee", "fiancé", "fiancée",
            "ex-husband", "ex-wife", "ex-boyfriend", "ex-girlfriend", "husbands", "wives"}
PARTNER_SEXES = {"husband": "M", "wife": "F", "boyfriend": "M", "girlfriend": "F", "fiance": "M", "fiancee": "F",
                 "fiancé": "M", "fiancée": "F"}
OTHER_PEOPLE = {"nurse", "physician", "doctor", "driver", "friend", "coworker", "co-worker", "roommate", "boss",
                "supervisor", "neighbor", "neighbour", "officer", "interpreter", "chaperone", "resident", "attending",
                "tech", "technician", "provider", "caregiver", "housekeeper", "motorist", "cyclist", "landlord",
                "landlady", "oncologist", "urologist", "surgeon", "paramedic", "pharmacist", "medic", "aide",
                "person", "passenger", "pedestrian", "stranger", "partner"} | KINSHIP | PARTNERS
POSSESSIVES = {"her", "his", "their", "my", "your", "our"}
PATIENT_NAMES = {"pt", "patient", "she", "he", "___", "pt.", "this"}
AGE_UNITS = {"yo", "y/o", "y.o.", "year", "years", "yr", "yrs", "year-old", "years-old", "month-old"}
COPULA = {"is", "was", "'s", "as", "became", "becomes", "remains", "i'm", "i’m", "am"}
ADJECTIVE_LIKE = {"retired", "former", "single", "part-time", "full-time", "young", "elderly", "old", "older",
                  "thin", "obese", "pleasant", "anxious", "homeless", "disheveled", "stay-at-home", "widowed",
                  "divorced", "married", "unemployed", "proud", "working", "new", "first-time", "great", "very",
                  "frail", "healthy", "active", "avid", "local", "unknown", "busy", "lovely", "nice", "tearful"}
# words that cannot modify a fragment's head noun: determiners, possessives, prepositions, conjunctions, verbs
NOT_MODIFIERS = {"a", "an", "the", "her", "his", "their", "my", "your", "our", "its", "this", "that", "these", "those",
                 "some", "any", "no", "by", "with", "of", "to", "in", "for", "from", "at", "on", "and", "or", "but",
                 "per", "via", "is", "was", "are", "were", "has", "had", "says", "said", "reports", "called", "saw",
                 "seen", "found", "brought", "told", "asked", "other", "another", "one", "two", "three", "several",
                 "many", "both", "each", "every", "pt", "patient", "who", "whom", "which", "w", "lives", "living"}
# a note about a child: "mom" and "dad" there are the child's parents
CHILD_WORDS = {"infant", "baby", "newborn", "neonate", "toddler", "child", "kid", "boy", "girl", "wk", "wks", "mo"}
DECADE_PREPOSITIONS = {"in", "since", "by", "until", "into", "from"}
CLAUSE_ENDS = {".", ";", ":", "!", "?", "(", ")", "\n", "—", "–"}
# forms of address and nicknames that name whoever is called by them ("calls him 'Uncle'", "Sir ___")
TITLES = {"sir": "M", "madam": "F", "uncle": "M", "auntie": "F", "aunty": "F", "grandpa": "M", "grandma": "F",
          "granny": "F", "grandad": "M", "granddad": "M", "nana": "F", "nan": "F", "dame": "F"}
# the patient's relatives by the direction of kinship: the parent named by a child of the patient ("Her son,
# angry with his mother") is the patient, and so is the child named by a parent ("His mother, frightened for
# her son")
ASCENDANTS = {"mother", "father", "mum", "mom", "dad", "mummy", "daddy", "nan", "nana", "gran", "granny", "grandma",
              "grandpa", "grandad", "granddad", "grandmother", "grandfather", "godmother", "godfather", "stepmother",
              "stepfather", "mother-in-law", "father-in-law", "aunt", "uncle", "auntie"}
DESCENDANTS = {"son", "daughter", "sons", "daughters", "grandson", "granddaughter", "grandsons", "granddaughters",
               "godson", "goddaughter", "stepson", "stepdaughter", "daughter-in-law", "son-in-law", "nephew", "niece",
               "children", "kids", "child", "grandchildren"}
# words after an object "her" ("saw her at baseline", "visits her daily", "brought her straight back")
OBJECT_FOLLOWERS = {"at", "in", "on", "to", "from", "with", "for", "by", "daily", "straight", "up", "down",
                    "home", "yesterday", "today", "this", "that", "since", "every", "again", "off", "out", "over",
                    "and", "but", "as", "into", "onto", "once", "twice", "regularly", "weekly", "often"}
# clinicians, and what they do to or say of a patient: after ";" the pronoun carries on a clinician subject
CLINICIANS = {"dr.", "dr", "pcp", "nurse", "physician", "doctor", "oncologist", "urologist", "surgeon", "cardiologist",
              "paramedic", "paramedics", "pharmacist", "gp", "provider", "attending", "resident", "np", "pa"}
CLINICIAN_VERBS = {"reports", "reported", "says", "said", "states", "stated", "notes", "noted", "increased",
                   "decreased", "started", "stopped", "prescribed", "recommended", "advised", "documented",
                   "referred", "asked", "ordered", "gave", "administered", "called"}
QUOTED_SELF_WORDS = {"not", "the", "kind", "sort", "type", "of", "a", "an", "really", "just", "never"}
# nouns that name the person the note is about by what befell them ("The victim, a woman of 30")
# the person an incident happened to, whom a note names by that role: "the occupant, an elderly woman"
CASUALTY_NOUNS = {"victim", "casualty", "occupant", "pedestrian", "cyclist", "motorcyclist", "passenger", "rider",
                  "climber", "hiker", "swimmer", "jogger", "runner", "skier"}
QUOTES = {"'", '"', "‘", "’", "“", "”"}
# nouns ending in "man" that name no sex
NOT_MAN_COMPOUNDS = {"human", "german", "roman", "shaman", "ottoman", "talisman", "caiman", "cayman", "walkman",
                     "hetman", "superhuman", "inhuman"}


def base_form(w: str) -> str:
    """A compound's gendered part: "ex-policewoman" -> "policewoman", "mother-of-four" -> "mother",
    "co-chairman" -> "chairman"."""
    w = re.sub(r"^(?:ex|co|step|foster|former|grand)-", "", w)
    w = re.sub(r"-(?:of|to)-[a-z]+$", "", w)
    return w


def compound_sex(w: str) -> str | None:
    """The sex named by a noun built on "-woman"/"-man" that no list knows ("handywoman", "sportsman")."""
    if w.endswith(("woman", "women")) and len(w) > 5:
        return "F"
    if w.endswith("man") and len(w) > 4 and w not in NOT_MAN_COMPOUNDS and not w.endswith("woman"):
        return "M"
    return None


def _wordlike(w: str) -> bool:
    """Letters, with hyphens or apostrophes ("mother-in-law", "Parkinson's")."""
    return re.sub(r"[-'’]", "", w).isalpha()


def tokens(text: str) -> list[Token]:
    return [Token(m.group(), m.start(), m.group().lower()) for m in TOKEN.finditer(text)]


class _Reader:
    def __init__(self, toks: list[Token], sex: str) -> None:
        self.t = toks
        self.sex = sex

    def word(self, i: int) -> str:
        return self.t[i].lower if 0 <= i < len(self.t) else ""

    def clause_start(self, i: int) -> bool:
        return i < 0 or self.word(i) in CLAUSE_ENDS

    def start_of_phrase(self, i: int) -> int:
        """The index of the first word of the noun phrase ending at i (articles, ages and adjectives)."""
        j = i - 1
        while j >= 0:
            w = self.word(j)
            # an approximate age is part of the phrase too ("a 40-ish man", "a 50-something woman")
            if w in ("a", "an") or w in ADJECTIVE_LIKE or w in AGE_UNITS or w in ("old", "-", "ish", "something") \
                    or re.fullmatch(r"\d+(?:\.\d+)?", w) or (w.endswith("ed") and w not in ("used", "married")) \
                    or w in ("non-smoker", "nonsmoker"):
                j -= 1
                continue
            if w.replace("-", "").isalpha() and w.islower() and w not in COPULA and w not in (
                    "and", "or", "who", "that", "with", "of", "to", "in", "by", "for", "from"):
                # "a well-appearing girl", "the eldest son"
                article = next((k for k in range(j - 1, max(j - 3, -1), -1) if self.word(k) in ("a", "an", "the")),
                               None)
                if article is not None and all(self.word(k).replace("-", "").isalpha() for k in range(article, j)):
                    j = article - 1
                    continue
            break
        return j + 1

    def subject_noun_sex(self, i: int) -> str | None:
        """The sex of a noun that can name the note's subject after "the": a person word or a role that is not
        kinship ("The bride collapsed", "The groom-to-be fainted"; "The mother reports" is a relative's)."""
        w = self.word(i)
        w = w if w in PERSON_WORDS or w in ROLES else base_form(w)
        return PERSON_WORDS.get(w) or (ROLES.get(w) if w not in KINSHIP else None)

    def acts_alone(self, i: int) -> bool:
        """A role noun that opens a clause names its subject, and so the patient, only when a verb follows it and
        its clause has no object pronoun of its sex ("The bride collapsed"; "the bride is with her" and "The
        waitress at the restaurant called 911" are someone else)."""
        if self.word(i + 1) in OBJECT_FOLLOWERS or self.word(i + 1) in (",", "of", "opposite", "next"):
            return False
        k = i + 1
        while k < len(self.t) and self.word(k) not in CLAUSE_ENDS and self.word(k) not in (",", "when", "because"):
            if self.word(k) in ("him", "her") and PRONOUNS[self.word(k)] == self.sex and self.object_pronoun(k):
                return False
            k += 1
        return True

    def aged_opener(self, first: int, i: int) -> bool:
        """The phrase that opens the sentence is given an age right after its noun: "The child's mother, aged 26,
        fainted ...", "The waitress, 24, ...": whoever a note gives an age like this is its subject."""
        start = first - (self.word(first - 1) == "the")
        if self.word(i - 1).endswith(("'s", "’s")) and self.word(i - 2) == "the" and \
                re.sub(r"['’]s$", "", self.word(i - 1)) not in PATIENT_NAMES:
            start = i - 2                       # "The child's mother": the possessor is part of the phrase
        if not self.clause_start(start - 1) or self.word(i + 1) != ",":
            return False
        k = i + 2 + (self.word(i + 2) in ("aged", "age"))
        return bool(re.fullmatch(r"\d+", self.word(k))) and self.word(k + 1) in (",", "yo", "years", "y/o")

    def has_age(self, first: int, i: int) -> bool:
        return any(self.word(k) in AGE_UNITS or re.fullmatch(r"\d+", self.word(k)) for k in range(first, i))

    def apposed_to_other(self, first: int) -> bool:
        """"her son, a 50 year old man": the phrase starting at first follows a comma after another person."""
        if self.word(first - 1) != ",":
            return False
        k = first - 2
        w = self.word(k)
        if w in OTHER_PEOPLE and self.word(k - 1) not in ("a", "an"):
            return True
        return w in ("partner",)

    def subject_is_patient(self, verb: int) -> bool:
        """Whether the subject before the copula at verb is the patient."""
        if self.word(verb) in ("i'm", "i’m") or (self.word(verb) == "am" and self.word(verb - 1) == "i"):
            return True                         # the patient quoted: "I'm a grandmother"
        k = verb - 1
        w = self.word(k)
        if w in CASUALTY_NOUNS and self.word(k - 1) == "the":
            return True                         # "The casualty is a man of about 50"
        if w in ("she", "he", "pt", "patient", "___", "this", "who"):
            if w == "who":
                return self.subject_is_patient(k) if False else self.word(k - 1) in ("patient", "pt")
            return True
        if w in ("___",) or self.word(k - 1) in HONORIFICS:
            return True
        k0 = k
        while k0 > 0 and not self.clause_start(k0 - 1) and k - k0 < 8 and self.word(k0) not in COPULA:
            k0 -= 1
        if self.word(k0) == "the" and self.clause_start(k0 - 1) and any(
                PERSON_WORDS.get(self.word(m)) == self.sex for m in (k0 + 1, k0 + 2)):
            return True                         # "The gentleman in bay 2 is ...": the note's subject
        if w == "and":
            # a second predicate of the clause's subject: "she has four sisters and is the only daughter"
            while k >= 0 and not self.clause_start(k - 1):
                k -= 1
            return self.word(k) in ("she", "he", "pt", "patient")
        return False

    def fragment_head(self, i: int) -> bool:
        """The noun at i heads a fragment of its own: only adjectives (at most three) stand between it and a
        clause start or a comma ("Keen sportsman, ...", "pleasant, cooperative woman", "Infant boy")."""
        k = i - 1
        while k >= 0 and i - k <= 3 and not (self.clause_start(k) or self.word(k) == ","):
            w = self.word(k)
            if not re.fullmatch(r"[^\W\d_][\w/-]*", w) or w in NOT_MODIFIERS or w.endswith(("'s", "’s")):
                return False
            k -= 1
        return k < 0 or self.clause_start(k) or self.word(k) == ","

    def fronted(self, i: int) -> bool:
        """The noun phrase of i opens its clause and is followed by a comma and a pronoun: "A woman in her 60s,
        she presents ...", "Mother of the pt in bed 3, she fainted": an apposition to the subject."""
        first = self.start_of_phrase(i)
        if self.word(first - 1) == "the":
            first -= 1                          # "The landlady of the pub, she was hit ..."
        if not self.clause_start(first - 1):
            return False
        # a comma right after the noun opens an apposition that may run on to a semicolon: "A 50-something
        # woman, unkempt, found wandering ...; she ..."
        apposed = self.word(i + 1) == ","
        for j in range(i + 1, min(i + (24 if apposed else 14), len(self.t))):
            w = self.word(j)
            if w == "," or (apposed and w == ";"):
                if self.word(j + 1) in ("she", "he"):
                    return True
                if not apposed:
                    return False
                continue
            if w in CLAUSE_ENDS:
                return False
        return False

    def possessor_predicate(self, i: int) -> bool:
        """"he is his mother's only son": a kinship noun after a possessor, as the patient's predicate."""
        k = i - 1
        while k >= 0 and i - k <= 3 and not self.word(k).endswith(("'s", "’s")):
            if not self.word(k).isalpha():
                return False
            k -= 1
        if k < 0 or not self.word(k).endswith(("'s", "’s")):
            return False
        k -= 1
        if self.word(k) in ("her", "his", "their", "the"):
            k -= 1
        return self.word(k) in COPULA and self.subject_is_patient(k)

    def apposed_to_partner(self, i: int) -> bool:
        """"her partner, a man in his 40s", "Pt's boyfriend, a man": the partner's sex word."""
        first = self.start_of_phrase(i)
        return self.word(first - 1) == "," and (
            re.sub(r"['’]s$", "", self.word(first - 2)) in PARTNERS or self.word(first - 2) in ("partner", "spouse"))

    def names_patient(self, i: int) -> str | None:
        """How the person noun at i (man, woman, a role noun, "smoker") names the patient: 'predicate', 'age',
        'coordinated', 'start', 'modifier'; None when it names someone else."""
        if self.word(i) in ("female", "male") and self.word(i + 1) in ("patient", "pt", "patients"):
            return "modifier"
        if self.relation_apposed(i) or (self.word(i) == "man" and self.word(i - 1) == "best"):
            return None     # (the best man is a wedding's role, someone else)
        if self.word(i - 1) in ("this", "that") and self.word(i) in PERSON_WORDS:
            return "subject"    # "I saw this gentleman today": a referral names its patient so
        first = self.start_of_phrase(i)
        before = self.word(first - 1)
        if self.possessor_predicate(i):
            return "predicate"
        if self.word(i - 1) in ("her", "his", "their", "my", "pt's", "patient's"):
            return None
        if self.fronted(i):
            return "fronted"
        if self.definite_subject(i):
            return "subject"
        the = next((k for k in range(i - 1, max(i - 4, -1), -1) if self.word(k) == "the"), None)
        if the is not None and self.clause_start(the - 1) and all(
                self.word(k).isalpha() and self.word(k) not in NOT_MODIFIERS for k in range(the + 1, i)) \
                and self.subject_noun_sex(i) == self.sex and self.word(i + 1) not in ("of", "'s", "’s") \
                and (self.word(i) in PERSON_WORDS or self.acts_alone(i)):
            return "subject"                    # "The elderly lady was found ...": the note's subject
        if self.aged_opener(first, i):
            return "age"                        # "The child's mother, aged 26, fainted ..."
        if self.word(first) == "the" or self.word(i - 1) == "the":
            the = first if self.word(first) == "the" else i - 1
            if self.word(the - 1) in COPULA and self.subject_is_patient(the - 1):
                return "predicate"
            if self.clause_start(the - 1) and self.word(i + 1) == "," and re.fullmatch(r"\d+", self.word(i + 2)):
                return "age"                    # "The waitress, 24, burnt her hand"
            if self.clause_start(the - 1) and self.word(i + 1) in ("is", "was") and \
                    re.fullmatch(r"\d+", self.word(i + 2)) and self.word(i) in PERSON_WORDS:
                return "subject"                # "the boy is 15": the note's subject, given an age
            if self.word(the - 1) not in ("and", ","):
                return None
            first, before = the, self.word(the - 1)     # "is a lawyer and the mother of ...": coordinated
        if before == "," and (self.word(first - 2) in ("pt", "patient") or (
                self.word(first - 2) in CASUALTY_NOUNS and self.word(first - 3) not in POSSESSIVES) or (
                first == 3 and self.word(0) == "the" and self.opener_alone(first - 2)) or (
                self.word(first - 2) == "___" and self.word(first - 3) != "dr.")):
            return "apposed"                    # "Pt, a ...", "Mr. ___, a retired headmaster"
        if self.word(i) in ("female", "male") and self.word(i + 1) in OTHER_PEOPLE and not self.has_age(first, i) \
                and not (before in COPULA and self.subject_is_patient(first - 1)):
            return None                         # "a male nurse" is staff; "he is a 55 yo male nurse" is not
        if self.apposed_to_other(first):
            return None
        if before == "(" and self.word(first - 2) in OTHER_PEOPLE:
            return None
        if self.has_age(first, i):
            return "age"
        if self.quoted_self(first):
            return "predicate"
        if before in COPULA:
            if before == "as":
                return "predicate"
            return "predicate" if self.subject_is_patient(first - 1) else None
        if self.word(i) not in KINSHIP and self.word(first) not in ("a", "an") and self.fragment_head(i):
            return "start"
        if before in ("and", ","):
            # coordinated with a noun that names the patient: "a retired policewoman and a grandmother"
            k = first - 2
            if before == "," and self.word(k - 1) in POSSESSIVES:
                return None                     # "says her flatmate, a woman": apposed to another person's noun
            while k >= 0 and not (base_form(self.word(k)) in PERSON_WORDS or base_form(self.word(k)) in ROLES or
                                  self.word(k) in ("smoker", "nonsmoker", "non-smoker", "veteran", "teacher",
                                                   "nurse", "student", "schoolteacher", "historian", "user",
                                                   "housekeeper", "homemaker", "boxer", "roofer", "caregiver")):
                if self.clause_start(k) or self.word(k) in ("who", "that", "which"):
                    return None
                if before == "and" and self.word(k) in COPULA and self.subject_is_patient(k):
                    return "coordinated"        # "she is a lawyer and the mother of a newborn"
                k -= 1
            if k < 0:
                return None
            return "coordinated" if self.names_patient(k) else None
        if self.clause_start(first - 1) or (before == "," and self.clause_start(first - 2)):
            if self.word(first) in ("a", "an") and self.word(i + 1) != ",":
                return None
            return "start"
        if before in ("triage",) or (before == ":" and self.word(first - 2) == "triage"):
            return "start"
        return None

    def quoted_self(self, first: int) -> bool:
        """"I'm not the kind of man who ...", "I'm not a man to ...": the patient quoted, saying what they are."""
        k = first - 1
        while k >= 0 and first - k < 7 and self.word(k) in QUOTED_SELF_WORDS:
            k -= 1
        return self.word(k) in ("i'm", "i’m") or (self.word(k) == "am" and self.word(k - 1) == "i")

    def nickname(self, i: int) -> bool:
        """A capitalised role noun used as a name: quoted after a verb of naming ("known as 'the Duchess'",
        "call her 'Granny'") or as a title before a name that opens the sentence, in apposition ("Sister ___, a
        monk, ..."; "Sister ___ reviewed her" is a nurse, so a title needs the apposition)."""
        w = self.word(i)
        if not self.t[i].text[:1].isupper() or (ROLES.get(w) or PERSON_WORDS.get(w)) is None:
            return False
        opening = i - 1 - (self.word(i - 1) == "the")
        if self.word(opening) in QUOTES and self.word(i + 1) in QUOTES:
            return self.word(opening - 1) in ("as", "call", "calls", "called", "nicknamed", "known") or \
                self.word(opening - 2) in ("call", "calls", "called")
        return self.word(i + 1) == "___" and self.word(i + 2) == "," and self.clause_start(i - 1)

    def kin_of_kin(self, i: int) -> bool:
        """A kinship noun possessed by the relative that opens the sentence, in the other direction of kinship:
        "Her son, angry with his mother", "His mother, frightened for her son", "Mother reports her son"."""
        w = self.word(i)
        if self.word(i - 1) not in ("his", "her", "their") or not (w in ASCENDANTS or w in DESCENDANTS):
            return False
        k = i - 2
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            k -= 1
        opener = self.past_possessor(k + 1 + (self.word(k + 1) in ("his", "her", "their", "the")))
        wanted = DESCENDANTS if w in ASCENDANTS else ASCENDANTS
        return opener < i - 1 and self.word(opener) in wanted

    def past_possessor(self, k: int) -> int:
        """The position after the patient named as a possessor at k ("The patient's daughter", "Ms ___'s son"), or
        k itself."""
        if self.word(k) in ("pt's", "patient's", "pt’s", "patient’s"):
            return k + 1
        if self.word(k) in HONORIFICS and self.word(k + 1) == "___" and self.word(k + 2) in ("'", "’") \
                and self.word(k + 3) == "s":
            return k + 4
        return k

    def opener_alone(self, k: int) -> bool:
        """The noun the note opens on ("The driver, a man in his 50s, was cut out ...") is its subject unless it
        names staff or its sentence acts on someone of the patient's sex ("The nurse, a man, found him ...")."""
        if self.word(k) in CLINICIANS or self.word(k) in ("resident", "attending", "paramedic", "officer"):
            return False
        m = k
        while m < len(self.t) and self.word(m) not in (".", ";", "!", "?", "\n"):
            if self.word(m) in ("him", "her") and PRONOUNS[self.word(m)] == self.sex and self.object_pronoun(m):
                return False
            m += 1
        return True

    def apposed_to_partner_noun(self, i: int) -> bool:
        k = i - 1
        while k >= 0 and self.word(k) != ",":
            k -= 1
        return re.sub(r"['’]s$", "", self.word(k - 1)) in PARTNERS | {"partner", "spouse"}

    def fronted_list(self, i: int) -> bool:
        """The kinship noun at i is in a list of roles that opens its clause and runs to ", she"/", he" ("Grandson
        and only carer of a woman with dementia, he fainted", "A wife, mother and full-time nurse, she says")."""
        if not (self.clause_start(i - 1) or self.word(i - 1) in (",", "and") or (
                self.word(i - 1) in ("a", "an") and self.clause_start(i - 2))):
            return False    # a member of the list, not a noun inside one ("mother-in-law of the ward sister")
        k = i - 1
        while k >= 0 and not self.clause_start(k):
            if not (_wordlike(self.word(k)) or self.word(k) == ",") or self.word(k) in PRONOUNS:
                return False
            k -= 1
        for j in range(i + 1, min(i + 16, len(self.t) - 1)):
            w = self.word(j)
            if w == "," and self.word(j + 1) in ("she", "he"):
                return True
            if w in CLAUSE_ENDS or w in PRONOUNS or not (_wordlike(w) or w == ","):
                return False
        return False

    def apposed_to_others_noun(self, i: int) -> bool:
        """An emphatic "herself"/"himself" in a phrase apposed to another person's noun: "The patient's daughter,
        a doctor herself, asks ..." (the daughter herself)."""
        k = i - 1
        while k >= 0 and self.word(k) not in CLAUSE_ENDS and self.word(k) != ",":
            k -= 1
        if self.word(k) != "," or not (self.word(k + 1) in ("a", "an") or k == i - 1 or (
                self.word(k + 1) == "who" and self.word(k + 2) in COPULA)):
            return False    # ", a doctor herself", ", herself a mother", ", who is a paramedic himself"
        noun = re.sub(r"['’]s$", "", self.word(k - 1))
        return (noun in PERSON_WORDS or noun in ROLES or noun in OTHER_PEOPLE) and self.names_patient(k - 1) is None

    def relation_apposed(self, i: int) -> bool:
        """A person noun whose phrase (a relative clause on it allowed) is followed by an apposed possessed noun
        names that other person: "the man who was driving, his neighbour, is ..." (the patient's neighbour)."""
        if self.word(i + 1) not in (",", "who", "that"):
            return False
        k = i + 1
        while k < len(self.t) and k < i + 10 and self.word(k) not in CLAUSE_ENDS and self.word(k) != ",":
            k += 1
        return self.word(k) == "," and self.word(k + 1) in ("his", "her", "their") and self.word(k + 2).isalpha() \
            and self.word(k + 3) == ","

    def definite_subject(self, i: int) -> bool:
        """"Ambulance crew report the gentleman was trapped", "Has the lady in bed 9 been seen": a person word
        of the patient's sex after "the", followed by a verb or a bed, names the note's subject."""
        the = i - 1 - (self.word(i - 1) in ("little", "young", "old", "elderly"))    # "the little girl has had"
        return self.word(the) == "the" and PERSON_WORDS.get(self.word(i)) == self.sex \
            and self.word(the - 1) not in ("of", "to", "with", "by", "from", "for", "and", "at", "than", "like", "as",
                                         "near", "beside", "behind", "after", "before", "on", "about") \
            and self.word(i + 1) in ("in", "was", "is", "has", "had", "who", "says", "said", "reports")

    def someone_else_subject(self, i: int, patient: dict[int, str]) -> bool:
        """A subject pronoun that cannot be the patient's: the same clause has an object pronoun of the same sex
        ("he last saw him", "she visits her daily") - an object pronoun is never its own clause's subject - and
        the sentence names another person of that sex before it ("His nephew states that he last saw him").
        (Who a pronoun opening the next clause is, "His son found him; he had been there overnight", is left to
        the patient: subject continuity goes either way.)"""
        if self.word(i - 1) == ";" and self.word(i + 1) in CLINICIAN_VERBS and self.clinician_subject(i - 1):
            return True     # "Dr. ___ from her nursing home called ahead; she reports that she fell"
        other = self.other_person_before(i, patient)
        if other is None or other == i - 1:
            return False    # "a man he met online": a relative clause on that person
        objects = ("him",) if self.word(i) == "he" else ("her",)
        k = i + 1
        while k < len(self.t) and k < i + 6 and self.word(k) not in CLAUSE_ENDS and self.word(k) not in (
                ",", "and", "but", "who", "that", "which", "because", "when"):
            if self.word(k) in objects and self.object_pronoun(k):
                return True
            k += 1
        return False

    def possessive_of_subject(self, i: int, patient: dict[int, str]) -> bool:
        """A possessive in a clause whose subject is another person of its sex, named by a definite noun, is that
        person's: "... because the gentleman opposite had pulled out his cannula"."""
        k = i - 1
        while k >= 0 and not self.clause_start(k) and self.word(k) not in (
                ",", "because", "and", "but", "when", "while", "as", "so", "although"):
            k -= 1
        first = k + 1
        if self.word(first) != "the":
            return False
        noun = first + 1
        while noun < i and self.word(noun) not in PERSON_WORDS and self.word(noun) in ADJECTIVE_LIKE:
            noun += 1
        return noun < i and PERSON_WORDS.get(self.word(noun)) == self.sex and noun not in patient \
            and not any(self.word(m) in PRONOUNS for m in range(noun + 1, i))

    def clinician_subject(self, k: int) -> bool:
        """The clause before position k opens with a clinician ("Dr. ___", "Her PCP, Dr. ___,", "The nurse")."""
        start = k - 1
        while start >= 0 and self.word(start) not in (".", ";", "!", "?", "\n"):
            start -= 1
        first = start + 1
        while self.word(first) in ("his", "her", "their", "the", "a", "an"):
            first += 1
        return self.word(first) in CLINICIANS

    def other_person_before(self, i: int, patient: dict[int, str]) -> int | None:
        """The last person noun of the patient's sex before i in its sentence (";" does not end it) that is not the
        patient's."""
        k = i - 1
        while k >= 0 and self.word(k) not in (".", "!", "?", "\n"):
            w = re.sub(r"['’]s$", "", self.word(k))
            if k not in patient and (PERSON_WORDS.get(w) or ROLES.get(w)) == self.sex:
                return k
            if k not in patient and w in OTHER_PEOPLE:
                return k
            k -= 1
        return None

    def object_pronoun(self, k: int) -> bool:
        """"him", or "her" not before a noun it would possess ("saw her at baseline", not "her husband")."""
        if self.word(k) == "him":
            return True
        nxt = self.word(k + 1)
        return not nxt[:1].isalpha() or nxt in OBJECT_FOLLOWERS

    def decade_of_other(self, i: int, patient: dict[int, str], partner: set[int] | None = None) -> bool:
        """"in her 30s": whose decade. The nearest person word before the pronoun in its sentence decides: the
        patient's own noun ("a male in his 80s", "Lady in her 70s") or no person at all ("symptoms started in
        her 30s") make it the patient's; another person's ("her aunt died in her 60s", "a man in his 30s"
        apposed to a roommate) make it that person's."""
        k = i - 2
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            w = re.sub(r"['’]s$", "", self.word(k))
            if w in PERSON_WORDS or w in ROLES or w in OTHER_PEOPLE:
                if partner is not None and k in partner:
                    partner.add(i)              # "her partner, a man in his 40s": the partner's decade
                return k not in patient
            k -= 1
        return False

    def read(self) -> Reading:
        patient: dict[int, str] = {}
        partner: set[int] = set()
        reasons: dict[int, str] = {}
        child_note = any(t.lower in CHILD_WORDS for t in self.t)
        has_partner = any(re.sub(r"['’]s$", "", t.lower) in PARTNERS | {"partner", "spouse"} for t in self.t)
        mostly_upper = sum(t.text.isupper() for t in self.t if t.text.isalpha()) > 0.6 * max(
            1, sum(t.text.isalpha() for t in self.t))
        for i, tok in enumerate(self.t):
            w = re.sub(r"['’]s$", "", tok.lower)
            if tok.text.isupper() and len(tok.text) > 1 and not mostly_upper and tok.text not in ("MR", "MS", "MRS") \
                    and not re.fullmatch(r"\d+[FM]", tok.text):
                continue                                # HE, HER2, MS: clinical abbreviations
            if tok.text in ("MR", "MS", "MRS") and self.word(i + 1) not in ("___",) and not mostly_upper:
                continue
            if w in PRONOUNS:
                if PRONOUNS[w] != self.sex:
                    if has_partner:
                        partner.add(i)          # the partner's pronoun follows the partner
                    continue
                if self.word(i - 1) in DECADE_PREPOSITIONS and re.fullmatch(r"\d0s|\d0's|teens", self.word(i + 1)) \
                        and self.decade_of_other(i, patient, partner):
                    if i not in partner:
                        reasons[i] = "other person"  # "a woman in her 30s" said of someone else
                    continue
                if self.word(i - 1) == "and" and self.word(i + 1) in PARTNERS and self.word(i - 2) in KINSHIP:
                    reasons[i] = "other person"      # "his niece and her husband"
                    continue
                if w in ("he", "she") and self.someone_else_subject(i, patient):
                    reasons[i] = "other person"
                    continue
                if w in ("herself", "himself") and self.apposed_to_others_noun(i):
                    if self.apposed_to_partner_noun(i):
                        partner.add(i)              # "His partner, himself a paramedic, ..."
                    else:
                        reasons[i] = "other person"     # "The patient's daughter, a doctor herself, ..."
                    continue
                if (w == "his" or (w == "her" and not self.object_pronoun(i))) and self.possessive_of_subject(i, patient):
                    reasons[i] = "other person"
                    continue
                patient[i] = "pronoun"
                continue
            if w in HONORIFICS or tok.text in ("Mr.", "Ms.", "Mrs.", "Mr", "Ms", "Mrs"):
                if tok.text.islower() and w in ("miss", "ms", "ms."):
                    continue                    # "miss work", "118 ms"
                if HONORIFICS.get(w) == self.sex:
                    patient[i] = "honorific"
                continue
            glued = i > 0 and self.t[i - 1].start + len(self.t[i - 1].text) == tok.start and \
                self.t[i - 1].text[-1:].isalnum()
            if (re.fullmatch(r"\d+[fm]", w) and not glued) or (w in ("f", "m") and tok.text in ("F", "M") and (
                    self.word(i - 1) in AGE_UNITS or self.word(i - 1) in (":",)
                    or re.fullmatch(r"\d+|\d0s|\d+(?:yo|y|yr|yrs)", self.word(i - 1)))):
                if w[-1].upper() == self.sex:
                    patient[i] = "sex code"
                continue
            if w in PARTNER_SEXES and self.word(i - 1) in ("the", "a") and self.word(i - 2) in COPULA \
                    and self.word(i + 1) == "of" and self.subject_is_patient(i - 2):
                # "he is the husband of the woman in bed 2": the patient named by the partner noun, and the
                # one named after "of" the partner
                if PARTNER_SEXES[w] == self.sex:
                    patient[i] = "role noun"
                else:
                    reasons[i] = "other person"
                k = i + 2 if self.word(i + 2) in ("the", "a") else i + 1
                while k < min(i + 5, len(self.t)) and self.word(k) not in PERSON_WORDS:
                    k += 1
                if self.word(k) in PERSON_WORDS:
                    partner.add(k)
                continue
            if w in PARTNER_SEXES and self.fronted(i) and self.word(i - 1) in ("a", "an"):
                # "A wife, mother and full-time nurse, she says ...": the patient, described
                if PARTNER_SEXES[w] == self.sex:
                    patient[i] = "role noun"
                continue
            if w in PARTNERS:
                partner.add(i)
                continue
            if w in ("female", "male") and self.word(i + 1) in ("partner", "partners", "spouse"):
                partner.add(i)                  # "her female partner": the partner's sex
                continue
            if (w in TITLES and tok.text[:1].isupper() and self.word(i - 1) not in (
                    "her", "his", "their", "my", "pt's", "patient's") and (
                    self.word(i + 1) == "___" or self.word(i + 1) in QUOTES or self.word(i - 1) in QUOTES
                    or self.t[min(i + 1, len(self.t) - 1)].text[:1].isupper())) or self.nickname(i):
                # a form of address or nickname: "calls him 'Uncle'", "Sir ___", "'Grandpa ___'"
                if (TITLES.get(w) or ROLES.get(w) or PERSON_WORDS.get(w)) == self.sex:
                    patient[i] = "role noun"
                else:
                    reasons[i] = "other person"
                continue
            if self.kin_of_kin(i):
                if (PERSON_WORDS.get(w) or ROLES.get(w)) == self.sex:
                    patient[i] = "role noun"
                reasons[i - 1] = "other person"     # the possessive is the relative's
                patient.pop(i - 1, None)
                continue
            counted = "-of-" in w                   # "Mother-of-three": counted like "mother of three"
            if w not in PERSON_WORDS and w not in ROLES and "-" in w:
                w = base_form(w)                # "ex-policewoman", "mother-of-four"
            if w not in PERSON_WORDS and w not in ROLES and compound_sex(w) and tok.text.isalpha():
                if self.names_patient(i) is not None and compound_sex(w) == self.sex:
                    patient[i] = "role noun"    # "a fit sportswoman", "the building's handyman"
                else:
                    reasons[i] = "other person"
                continue
            if w in PERSON_WORDS and self.apposed_to_partner(i):
                partner.add(i)                  # changes with the partner
                continue
            if w in PERSON_WORDS or w in ROLES:
                gender = PERSON_WORDS.get(w) or ROLES.get(w)
                if (w in KINSHIP or w in ("mom", "dad", "mum", "mommy", "daddy")) and self.fronted_list(i):
                    named = True                # "Grandson and only carer of ..., he fainted": the patient, fronted
                elif w in ("mom", "dad", "mum", "mommy", "daddy") and self.word(i - 1) not in (
                        "her", "his", "their", "my", "your", "a", "the", "pt's", "patient's"):
                    named = not child_note      # "Infant boy ...; dad reports": the child's parent
                elif w in KINSHIP:
                    how = self.names_patient(i)
                    # a parent noun names the patient in "mother of three"; any kinship noun as the patient's
                    # predicate ("he is the eldest son")
                    named = how is not None and ((w in PARENT_ROLES and (how not in ("start", "fronted") or
                                                                         self.word(i + 1) == "of" or counted
                                                                         or (how == "fronted"
                                                                             and self.word(i + 1) == "and")))
                                                 or how == "predicate"
                                                 or (how == "coordinated" and self.word(i - 1) in ("and", "a", "an")))
                else:
                    named = self.names_patient(i) is not None
                if named and gender == self.sex:
                    patient[i] = "patient noun" if w in PERSON_WORDS else "role noun"
                elif not named:
                    reasons[i] = "other person"
        forms = {i: self.pronoun_forms(i) for i, kind in patient.items() if kind == "pronoun"}
        return Reading(patient, frozenset(partner), reasons, forms={i: f for i, f in forms.items() if f})

    def pronoun_forms(self, i: int) -> frozenset[str]:
        """The forms of the other sex a patient's pronoun may become: "him" only for an object "her" ("found her
        drowsy", "with her 1:1", "gave her a sling"), "he" for "she", "her" or "hers" for "his" (empty: any)."""
        w = self.word(i)
        if w == "her":
            nxt = self.word(i + 1)
            complement = self.word(i - 1) in COMPLEMENT_VERBS and nxt.endswith(ADJECTIVE_SUFFIXES) and (
                not self.word(i + 2).isalpha() or self.word(i + 2) in OBJECT_FOLLOWERS or self.word(i + 2) in (
                    "and", "next", "but"))
            punctuation = bool(nxt) and not nxt[:1].isalnum() and nxt not in QUOTES
            if punctuation or nxt in OBJECT_NEXT or complement:
                return frozenset({"him"})
            return frozenset()
        return OTHER_FORMS.get(w, frozenset())


# words after which "her" is an object, never a possessive ("took her to", "gave her a sling", "brought her in")
OBJECT_NEXT = {"a", "an", "the", "some", "any", "to", "with", "at", "in", "on", "for", "from", "up", "down", "out",
               "off", "into", "by", "over", "about", "since", "after", "before", "again", "today", "yesterday",
               "overnight", "immediately", "and", "or", "but", "that", "who"}
# a pronoun's forms of the other sex
OTHER_FORMS = {"he": frozenset({"she"}), "she": frozenset({"he"}), "him": frozenset({"her"}),
               "his": frozenset({"her", "hers"}), "hers": frozenset({"his"}), "himself": frozenset({"herself"}),
               "herself": frozenset({"himself"})}
# verbs whose object takes a predicate after it ("found her drowsy", "left him confused")
COMPLEMENT_VERBS = {"found", "find", "finds", "left", "leave", "leaves", "keep", "keeps", "kept", "made", "make",
                    "makes", "saw", "see", "sees", "seen", "felt", "feel", "feels", "got", "get", "gets", "noticed"}
ADJECTIVE_SUFFIXES = ("y", "ed", "ous", "ive", "ful", "less", "ent", "ant", "ic", "al", "ish", "ble")


def read(text: str, sex: str) -> tuple[list[Token], Reading]:
    """The tokens of an English original and which of them refer to the patient (of sex 'F' or 'M')."""
    toks = tokens(text)
    return toks, _Reader(toks, sex).read()
