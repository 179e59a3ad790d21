"""Which gendered words of a French original refer to the patient: the second opinion's own reading.

Written apart from the swapper (no spaCy parse, no agreement_fr.py): word classes and genders come from the
Lefff (lefff.py), and what a word agrees with is found by surface rules over the ORIGINAL text, which a
clinician wrote and which therefore agrees (a word of the other gender than the patient's never refers to
the patient). See second_opinion.py for how the result judges a copy.
"""

from __future__ import annotations

import re

from biasmirror.counterfactuals import person_nouns_fr
from biasmirror.counterfactuals.lefff import Lexicon, lexicon
from biasmirror.counterfactuals.second_opinion_base import (PARTNER, PATIENT, Reading, Token,
                                                              indefinite_names_other)

TOKEN = re.compile(r"(?:M|Mme|Mlle|Dr|Pr)\.(?=\s)|(?:[lLdDjJnNsScCmMtT]|[Qq]u|[Jj]usqu|[Ll]orsqu|[Pp]uisqu)['’]|[^\W\d_]+(?:-(?!(?:t-)?(?:il|elle|ils|elles|on)\b)[^\W\d_]+)*|\d+(?:[.,]\d+)?|\S")
# an inverted pronoun is a token of its own: "Est-elle" -> "Est", "-", "elle"; "A-t-il" -> "A", "-", "t", "-",
# "il" ("lui-même" stays one word)

CLAUSE_ENDS = {".", ";", ":", "!", "?", "(", ")", "—", "–", "\n", "/"}
COORDINATION = {",", "et", "mais", "ou", "puis", "voire", "ni"}
ADVERBS = {"très", "non", "pas", "plus", "moins", "peu", "bien", "mal", "trop", "assez", "si", "aussi", "encore",
           "toujours", "déjà", "un", "légèrement", "parfois", "souvent", "tout", "toute", "ne", "n'", "n’", "jamais",
           "vraiment", "plutôt", "fort", "super", "mieux"}
PREPOSITIONS = {"à", "au", "aux", "en", "de", "d'", "d’", "du", "des", "sur", "sous", "par", "pour", "avec", "dans",
                "depuis", "pendant", "vers", "contre", "chez", "sans", "selon", "après", "avant", "envers", "entre",
                "dès", "jusqu'", "jusqu’", "malgré", "parmi", "durant", "via", "hormis"}
DETERMINERS = {"le", "la", "l'", "l’", "les", "un", "une", "des", "du", "ce", "cet", "cette", "ces", "son", "sa",
               "ses", "leur", "leurs", "mon", "ma", "notre", "votre", "quelques", "plusieurs", "aucun", "aucune"}
POSSESSIVES = {"son", "sa", "ses", "leur", "leurs", "mon", "ma", "mes", "notre", "votre"}
AVOIR = {"a", "avait", "ont", "aurait", "ai", "avoir", "ayant", "eu", "ait", "aient", "avaient", "aura", "auront",
         "avons", "avez"}
COPULAS = {"est", "était", "sont", "sera", "serait", "soit", "être", "été", "reste", "restait", "semble", "semblait",
           "paraît", "parait", "paraissait", "devient", "demeure", "dit", "sent", "trouve", "montre", "déclare",
           "vit", "arrive", "rentre", "repart", "sort", "retrouve", "décrit", "note", "juge", "apparaît", "apparait",
           "apparaissait", "vivant", "restant", "demeurant"}
IMPERSONAL_AFTER_IL = {"y", "faut", "fallait", "existe", "convient", "importe", "pleut", "pleuvait", "neige",
                       "neigeait"}
IMPERSONAL_ADJECTIVES = {"possible", "nécessaire", "probable", "important", "difficile", "impossible", "urgent",
                         "conseillé", "recommandé", "prévu", "noté", "rapporté", "signalé", "indiqué", "clair",
                         "évident", "vraisemblable", "utile", "souhaitable", "préférable", "licite"}
PREPOSED = {"haut", "haute", "ancien", "ancienne", "grand", "grande", "gros", "grosse", "petit", "petite", "jeune", "vieux", "vieille",
            "bon", "bonne", "nouveau", "nouvelle", "premier", "première", "seul", "seule", "futur", "future",
            "ex", "fervent", "fervente", "véritable", "défunt", "défunte"}
PATIENT_NOUNS = {"patiente": "F", "patient": "M", "pte": "F", "pt": "M", "madame": "F", "monsieur": "M", "mme": "F", "mlle": "F",
                 "m.": "M", "mme.": "F", "mlle.": "F",
                 "femme": "F", "homme": "M", "dame": "F", "mademoiselle": "F"}
PARTNER_NOUNS = {"mari", "époux", "épouse", "compagnon", "compagne", "conjoint", "conjointe", "concubin",
                 "concubine", "fiancé", "fiancée", "copain", "copine"}
# the patient's descendants, and the nouns of their parents: "Son fils, inquiet pour sa mère" names the patient
DESCENDANTS = {"fils", "fille", "filles", "gendre", "gendres", "belle-fille", "bru", "petit-fils", "petite-fille",
               "petits-fils", "petites-filles", "petits-enfants", "enfant", "enfants", "filleul", "filleule",
               "neveu", "nièce", "neveux", "nièces"}
ASCENDANTS = {"mère", "père", "maman", "papa", "grand-mère", "grand-père", "belle-mère", "beau-père", "marraine",
              "parrain", "tante", "oncle", "mamie", "papi", "papy", "mamy"}
# people a note's first words name by what happened to them ("Le piéton a été renversé")
ROAD_USERS = {"piéton", "piétonne", "cycliste", "motard", "motarde", "conducteur", "conductrice", "passager",
              "passagère", "randonneur", "randonneuse", "nageur", "nageuse", "skieur", "skieuse", "coureur", "coureuse"}
# right and left, abbreviated after an organ ("genou D chaud")
SIDE_ABBREVIATIONS = {"d", "g", "dt", "dte", "gche", "bilat"}
# states that only a person is in, so that no noun of a thing hosts them ("colique néphrétique G, agitée")
PERSON_STATES = {f + e for f in ("agité", "conscient", "inconscient", "orienté", "désorienté", "angoissé", "rassuré",
                                 "somnolent", "ralenti", "prostré", "vacciné", "casqué", "ceinturé", "déshydraté",
                                 "fatigué", "épuisé", "hypotendu", "hypertendu", "normotendu", "coopérant",
                                 "opposant", "apaisé", "endormi", "rendormi", "réveillé", "confus", "gêné", "choqué",
                                 "essoufflé", "amaigri", "excité", "replié", "frigorifié", "halluciné", "alcoolisé",
                                 "intoxiqué", "dénutri", "affaibli", "abattu", "hébergé", "scolarisé", "marié",
                                 "divorcé", "retraité", "hospitalisé", "revenu", "venu", "amené", "adressé",
                                 "appareillé", "suivi", "accompagné", "perfusé", "scopé", "intubé", "sondé",
                                 "ventilé", "sédaté", "soigné", "prévenu", "transféré", "installé", "ramené",
                                 "transporté", "couvert", "seul")
                 for e in ("", "e")} | {"anxieux", "anxieuse", "inquiet", "inquiète", "nauséeux", "nauséeuse",
                                        "agressif", "agressive"}
TIME_NOUNS = {"matin", "soir", "midi", "nuit", "après-midi", "week-end", "jour", "lundi", "mardi", "mercredi",
              "jeudi", "vendredi", "samedi", "dimanche", "semaine", "mois"}
CLITICS_BEFORE_VERB = {"il", "elle", "ils", "elles", "je", "j'", "j’", "tu", "nous", "vous", "on", "me", "te", "se",
                      "s'", "s’", "m'", "m’", "t'", "t’", "ne", "n'", "n’"}
# what a word agrees with when both its forms are right: the noun's grammatical gender or the person's sex
EITHER = "either"
# nouns of one grammatical gender whatever the sex of the person ("La victime, un homme de 30 ans, a été percutée")
FIXED_GENDER_PERSONS = {"victime", "personne"}
NAMING_WORDS = {"appelle": None, "appellent": None, "surnomment": None, "nomment": None, "dit": "M", "dite": "F",
                "appelé": "M", "appelée": "F", "surnommé": "M", "surnommée": "F", "surnomme": None, "nomme": None,
                "appelait": None, "appelaient": None, "surnommait": None, "surnommaient": None, "nommé": "M",
                "nommée": "F"}
PARTICIPLE_ENDINGS = ("é", "ée", "és", "ées", "i", "ie", "is", "ise", "u", "ue", "it", "ite")
MARRIED = {"marié", "mariée", "pacsé", "pacsée", "remarié", "remariée"}
YOUNG = {"petit", "petite", "adolescent", "adolescente", "ado", "nourrisson", "bébé", "enfant"}
VERB_COMPLEMENTS = ("pour", "chez", "avec", "dans")
FINDING_VERBS = {"trouvé", "retrouvé", "découvert", "vu", "aperçu", "trouve", "retrouve", "découvre", "voit"}
# nouns ending in -s or -x in the singular too ("la dernière fois")
INVARIABLE_NOUNS = {"fois", "temps", "corps", "pouls", "poids", "dos", "bras", "repos", "avis", "cas", "mois", "voix",
                    "prix", "choix", "nez", "pas"}
# verbs by which someone named before a colon reports ("Transmission de l'IDE : elle signale ...")
REPORTING_VERBS = {"signale", "rapporte", "dit", "retrouve", "note", "constate", "confirme", "explique", "précise",
                   "décrit", "indique", "ne", "n'", "n’"}
ARTICLE_SEXES = {"un": "M", "le": "M", "ce": "M", "une": "F", "la": "F", "cette": "F"}
# person nouns that the Lefff has as nouns of one gender only, with the sex they name (or none: "une gendarme")
OWN_PERSONS = {"garçon": "M", "garçonnet": "M", "fillette": "F", "papi": "M", "papy": "M", "mamie": "F",
               "mamy": "F", "professeur": "M", "professeure": "F"}
# relatives (the one kinship list the swapper reads too), with neighbours and friends read the same way
KINSHIP = person_nouns_fr.kinship_forms() | {"voisine", "voisin", "amie", "ami"}
PERSONAL_ROLE = person_nouns_fr.kinship_forms("parent")
# role nouns of two genders: the lexicon the swapper reads too (person_nouns_fr.py), for the forms the Lefff lacks
# or gives no gender ("autrice", "cheffe", "docteure", "maître-nageuse", "policière")
ROLE_SEXES = person_nouns_fr.sexes()
# persons named by a present participle (the Lefff has some as nouns of one gender); "aidant" and
# "aide-soignant" are role nouns of the shared lexicon (ROLE_SEXES)
ANT_PERSONS = {"soignant", "soignante", "gérant", "gérante", "assistant", "assistante", "habitant", "habitante",
               "participant", "participante", "représentant", "représentante"}
# verbs whose object clitic takes a predicate after them ("la trouve fatiguée", "le décrivent agressif")
OBJECT_PREDICATE_VERBS = {"trouve", "trouvent", "trouvait", "trouvaient", "voit", "voient", "voyait", "décrit",
                          "décrivent", "juge", "jugent", "sent", "sentent", "retrouve", "retrouvent", "rend", "rendent"}
TITLE_WORDS = {"pr", "pr.", "dr", "dr.", "professeur", "professeure", "docteur", "docteure", "présidente",
               "président", "directrice", "directeur", "générale", "général", "colonelle", "colonel"}
JUDGING_PARTICIPLES = {"décrit", "décrite", "considéré", "considérée", "jugé", "jugée", "présenté", "présentée"}
NUMBER_WORDS = {"deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze", "quinze",
                "vingt", "plusieurs", "nombreux", "nombreuses"}
RELATIVE = {"qui", "que", "qu'", "qu’", "dont"}
SUBJECT_PRONOUNS = {"il", "elle", "ils", "elles", "on", "qui", "je", "j'", "j’", "nous", "vous", "tu"}
FUNCTION_WORDS = SUBJECT_PRONOUNS | {"se", "s'", "s’", "y", "en", "lui", "leur", "ne", "n'", "n’", "que", "qu'",
                                     "qu’", "et", "ou", "mais", "ni", "car", "donc", "puis", "me", "te", "m'", "t'"}
# person nouns of one form for both sexes (the Lefff gives some of them one gender as nouns)
EPICENE_PERSONS = {"secrétaire", "militaire", "kinésithérapeute", "kiné", "toxicomane", "alcoolique", "tabagique",
                   "cycliste", "interprète", "bénévole", "collègue", "psychologue", "pédiatre", "dentiste",
                   "journaliste", "artiste", "fleuriste", "libraire", "notaire", "vétérinaire", "ministre",
                   "élève", "adulte", "enfant", "membre", "camarade", "héroïnomane", "cadre", "guide", "médecin",
                   "interne", "externe", "responsable"}
# more of them, for the reading only (the checks read EPICENE_PERSONS too)
AGE_PERSONS = {"ide", "idel", "ioa", "iao", "idec", "iade", "ibode", "sdf", "sans-abri", "gendarme", "quadragénaire", "quinquagénaire", "sexagénaire", "septuagénaire", "octogénaire",
               "nonagénaire", "centenaire", "trentenaire"}
# unknown words (rare participles and adjectives): the gender their ending says
_ENDINGS = (("ées", "F"), ("ée", "F"), ("és", "M"), ("é", "M"), ("euse", "F"), ("eux", "M"), ("ive", "F"),
            ("if", "M"), ("ante", "F"), ("ente", "F"), ("ant", "M"), ("ent", "M"), ("ière", "F"), ("ier", "M"),
            ("trice", "F"), ("teur", "M"), ("ienne", "F"), ("ien", "M"))


def plural(adjective: str) -> bool:
    """An adjective or participle whose ending is plural ("déclenchés", "constantes", "normaux")."""
    return adjective.endswith(("ées", "és", "es", "aux", "ifs", "ives", "ants", "ents", "ites", "ues", "ies")) \
        and not adjective.endswith("ès")


def number_clash(adjective: str, noun: str) -> bool:
    """A plural noun with a singular adjective, or a plural adjective ("-es", "-és") with a singular noun."""
    noun_plural = noun.endswith(("s", "x")) and noun not in INVARIABLE_NOUNS
    return (noun_plural and not adjective.endswith(("s", "x"))) or (
        not noun_plural and adjective.endswith(("es", "és", "ées", "ifs", "aux")))


def ex_partner(w: str) -> bool:
    """A former partner: "ex-mari", "ex-femme", "ex-conjointe"."""
    return w.startswith("ex-") and (w[3:] in PARTNER_NOUNS or w[3:] in ("femme", "homme"))


def tokens(text: str) -> list[Token]:
    return [Token(m.group(), m.start(), m.group().lower()) for m in TOKEN.finditer(text)]


class _Reader:
    def __init__(self, toks: list[Token], sex: str, lex: Lexicon) -> None:
        self.t = toks
        self.sex = sex
        self.lex = lex
        self.memo: dict[int, str | None] = {}
        self.others = frozenset(i for i in range(len(toks)) if self.someone_else_pronoun(i))
        self.partner_emphatics: set[int] = set()

    # --- word classes -------------------------------------------------------------------------------------
    def word(self, i: int) -> str:
        return self.t[i].lower if 0 <= i < len(self.t) else ""

    def adverb(self, i: int) -> bool:
        w = self.word(i)
        if (w == "de" and self.word(i + 2) == "en") or (w == "en" and self.word(i - 1) == "plus") \
                and self.word(i + 1) == "plus":
            return True     # "de plus en plus triste": one adverb
        return w in ADVERBS or (len(w) > 6 and w.endswith("ment") and self.lex.gender(w) is None)

    def is_role_noun(self, w: str) -> bool:
        """A noun with a feminine and a masculine form: the shared role-noun lexicon's, or by the Lefff; a compound
        of such nouns too ("chauffeur-livreur")."""
        if "-" in w and w not in ROLE_SEXES and self.lex.get(w) is None:
            return all(self.is_role_noun(part) for part in w.split("-"))
        if w in TIME_NOUNS:
            return False    # "ce matin": the Lefff has a noun "matin/matine"
        return w in ROLE_SEXES or self.lex.is_role_noun(w) or w in OWN_PERSONS

    def gender(self, i: int, as_noun: bool = False) -> str | None:
        w = self.word(i)
        if w in PATIENT_NOUNS:
            return PATIENT_NOUNS[w]
        if w in ("il", "lui"):
            return "M"
        if w == "elle":
            return "F"
        if w in EPICENE_PERSONS or w in AGE_PERSONS:
            return None
        if w in OWN_PERSONS:
            return OWN_PERSONS[w]
        if "-" in w and self.lex.get(w) is None and w not in ROLE_SEXES:
            return self.compound_gender(w)
        if w in ANT_PERSONS:
            return "F" if w.endswith("e") else "M"
        if w in ROLE_SEXES:
            return ROLE_SEXES[w]
        entry = self.lex.get(w)
        if entry is None or not (entry.adjective or entry.noun):
            return self.unknown_gender(w)
        known = self.lex.gender(w, as_noun=as_noun)
        if known is None and entry.adjective and not entry.adjective_genders and w.endswith(("ant", "ante", "ent",
                                                                                            "ente")):
            return self.unknown_gender(w)  # "méfiant": an adjective the Lefff gives no gender
        return known

    def compound_gender(self, w: str) -> str | None:
        """A compound the Lefff lacks: "demi-assise" as "assise"; two role nouns of one sex ("chauffeuse-livreuse")
        have that sex."""
        first, _, rest = w.partition("-")
        if first == "demi":
            return self.gender_of_word(rest)
        genders = {self.gender_of_word(part) for part in w.split("-")}
        if len(genders) == 1 and all(self.is_role_noun(part) for part in w.split("-")):
            return genders.pop()
        return self.unknown_gender(w)

    def gender_of_word(self, w: str) -> str | None:
        if w in ROLE_SEXES:
            return ROLE_SEXES[w]
        return self.lex.gender(w) if self.lex.get(w) is not None else self.unknown_gender(w)

    def unknown_gender(self, w: str) -> str | None:
        if "-" in w and self.lex.get(w.split("-")[0]) is not None and self.lex.get(w.split("-")[0]).noun:
            return None
        last = w.split("-")[-1]
        if len(last) < 4 or last.endswith(("ment", "pnée", "rrhée", "phée", "nnée", "ysée")):
            return None     # nouns of symptoms: "orthopnée", "diarrhée"
        for ending, gender in _ENDINGS:
            if last.endswith(ending):
                return gender
        return None

    def is_person(self, i: int) -> bool:
        w = self.word(i)
        if len(w) < 2:
            return False    # "1 m", "J3": a unit or a code
        if w.endswith(("é", "ée")) and w not in ROLE_SEXES and self.word(i - 1) in ("l'", "l’", "la", "le") \
                and self.word(i + 1) in ("de", "d'", "d’", "des", "du"):
            return False    # "l'arrivée des secours": a participle the Lefff also has as a noun, an event here
        entry = self.lex.get(w)
        suffix_gender = "F" if w.endswith(("euse", "trice", "ière", "ienne")) else "M"
        noun_gender = self.lex.gender(w, as_noun=True) if entry is not None else suffix_gender
        if w.endswith(("euse", "eur", "trice", "teur", "ière", "ier", "ienne", "ien")) and (entry is None or entry.noun) \
                and noun_gender == suffix_gender and (
                self.lex.get(w) is None or self.word(i - 1) in PREPOSED or self.word(i - 1) in ("un", "une")
                or self.word(i - 1) in COPULAS):
            return True
        return (w in PATIENT_NOUNS or w in PARTNER_NOUNS or w in KINSHIP or w in EPICENE_PERSONS or ex_partner(w)
                or w in AGE_PERSONS
                or w in ANT_PERSONS or self.is_role_noun(w))

    def is_noun(self, i: int) -> bool:
        w = self.word(i)
        if w in PATIENT_NOUNS or w in PARTNER_NOUNS or w in KINSHIP or ex_partner(w):
            return True
        if w in PREPOSED and self.lex.get(self.word(i + 1)) and self.lex.get(self.word(i + 1)).noun \
                and not self.is_person(i + 1) and self.word(i + 1) not in COPULAS and self.word(i + 1) not in AVOIR:
            return False    # "une nouvelle douleur": an adjective before its noun
        if w.endswith("ant") and self.word(i + 1) in ("seul", "seule", "seuls", "seules", "avec", "chez", "dans", "pour"):
            return False    # "vivant seul", "habitant chez sa fille": a present participle
        if w in COPULAS or w in AVOIR or w in FUNCTION_WORDS or w in ADVERBS or w in PREPOSITIONS \
                or w in DETERMINERS:
            return False
        if self.predicative(i) and not self.is_person(i):
            return False
        if self.is_role_noun(w) and self.word(i + 1) in ("de", "d'", "d’") and (
                self.clause_start(i - 1) or self.word(i - 1) in (",", "et") or self.word(i - 1) in PREPOSED):
            return True
        entry = self.lex.get(w)
        if entry is None:
            if self.word(i - 1) in DETERMINERS or self.word(i - 1) in PREPOSED:
                return bool(re.match(r"^[^\W\d_]", w))
            return bool(re.match(r"^[^\W_]", w)) and self.unknown_gender(w) is None
        if not entry.noun:
            return False
        if not entry.adjective:
            return True
        if self.word(i - 1) in PREPOSED and self.word(i - 1) not in ("seul", "seule"):
            return True
        if (self.clause_start(i - 1) or self.word(i - 1) == ",") and self.lex.get(self.word(i + 1)) is not None \
                and self.lex.get(self.word(i + 1)).adjective and not self.lex.get(self.word(i + 1)).noun:
            return True
        return self.word(i - 1) in DETERMINERS or (self.word(i - 1) in PREPOSITIONS and i + 1 < len(self.t)
                                                   and not self.is_adjective(i + 1))

    def predicative(self, i: int) -> bool:
        """A word right after a copula (adverbs skipped): "elle est tétraplégique", "il est très algique"."""
        j = i - 1
        while j >= 0 and self.adverb(j):
            j -= 1
        if self.word(j) in ("et", ",", "mais", "ou") and self.word(i)[:1].isalpha():
            entry = self.lex.get(self.word(i))
            if entry is not None and (entry.finite_verb or entry.adjective
                                      or not self.word(i).endswith(("ique", "aire", "ible", "able", "ile"))):
                return False
            k = j - 1
            while k >= 0 and self.adverb(k):
                k -= 1
            entry = self.lex.get(self.word(k))
            return k >= 0 and (bool(entry and entry.adjective and not entry.noun) or self.predicative(k))
        return self.word(j) in COPULAS and self.word(j) not in ("vit", "arrive", "rentre", "sort", "repart")

    def is_adjective(self, i: int) -> bool:
        w = self.word(i)
        entry = self.lex.get(w)
        if w.endswith("ant") and self.word(i + 1) in ("son", "sa", "ses", "le", "la", "les", "un", "une", "l'", "l’",
                                                      "leur", "leurs") or self.verb_with_complement(i):
            return False  # "promenant son chien": a present participle with its object is a verb, invariable
        if self.word(i - 1) == "non" and w.endswith(("ant", "ante")) and entry is not None and entry.noun \
                and not entry.adjective:
            return True  # "non observant": a negated present participle the Lefff has as a noun only
        if w in COPULAS or w in AVOIR or w in FUNCTION_WORDS or w in ADVERBS or w in PREPOSITIONS \
                or w in DETERMINERS or w.endswith("ment"):
            return False
        entry = self.lex.get(w)
        if entry is not None and entry.infinitive and not entry.adjective:
            return False
        if entry is None or not (entry.adjective or entry.noun or entry.finite_verb):
            return self.unknown_gender(w) is not None or (self.predicative(i) and w.isalpha())
        return entry.adjective or (entry.noun and self.predicative(i) and not self.is_person(i))

    def verb_with_complement(self, i: int) -> bool:
        """A present participle that is no adjective, before its complement ("consultant pour entorse"; not
        "dépendant pour les soins")."""
        entry = self.lex.get(self.word(i))
        return self.word(i).endswith("ant") and self.word(i + 1) in VERB_COMPLEMENTS and not (entry and entry.adjective)

    def is_finite_verb(self, i: int) -> bool:
        w = self.word(i)
        if w in COPULAS or w in AVOIR:
            return True
        entry = self.lex.get(w)
        if entry and entry.finite_verb and self.word(i - 1) in CLITICS_BEFORE_VERB:
            return True     # "je me débrouille": after a subject or reflexive pronoun, a verb
        return bool(entry and entry.finite_verb and not (entry.adjective or entry.noun))

    def clause_start(self, i: int) -> bool:
        return i < 0 or self.word(i) in CLAUSE_ENDS

    def impersonal_il(self, i: int) -> bool:
        if self.word(i + 1) in ("n'", "n’", "ne") and self.word(i + 2) in IMPERSONAL_AFTER_IL and i + 2 < len(self.t):
            return self.word(i + 2) != "y" or self.word(i + 3) in AVOIR   # "il n'y a personne", "il ne faut pas"
        nxt = self.word(i + 1)
        if nxt in ("s'", "s’"):
            return self.word(i + 2) == "agit"
        if nxt == "y" and self.word(i + 2) in AVOIR and self.word(i + 3) != "eu" \
                and self.word(i + 3).endswith(PARTICIPLE_ENDINGS) and self.word(i + 3) not in NUMBER_WORDS:
            return False    # "il y aurait passé la nuit": he, not "il y a"
        if nxt in IMPERSONAL_AFTER_IL or (nxt in ("a", "avait") and self.word(i + 2) == "fallu"):
            return True
        if nxt in ("semble", "semblait", "paraît", "parait") and self.word(i + 2) in ("que", "qu'", "qu’"):
            return True
        return nxt in ("est", "était", "sera", "paraît", "semble") and self.word(i + 2) in IMPERSONAL_ADJECTIVES

    # --- what a noun refers to -----------------------------------------------------------------------------
    def noun_referent(self, i: int) -> str:
        w = self.word(i)
        before = self.word(i - 1)
        if ex_partner(w) and before in POSSESSIVES:
            return PARTNER      # "son ex-mari" / "son ex-femme": a former partner
        if before in ("un", "une") and self.word(i - 2) in ("à", "avec") and self.is_person(i) \
                and any(self.word(k) in MARRIED for k in range(max(0, i - 7), i - 2)):
            return PARTNER      # "Marié depuis dix ans à un ambulancier": the spouse
        if i == 0 and w in PERSONAL_ROLE and self.word(i + 1) in ("célibataire", "seule", "seul", "isolée", "isolé"):
            return PATIENT      # "Mère célibataire de deux enfants, ...": the note opens on the patient
        if w in ASCENDANTS and before in POSSESSIVES and self.gender(i, as_noun=True) == self.sex \
                and self.descendant_subject(i):
            return PATIENT      # "Son fils, inquiet pour sa mère": the mother of the patient's son is the patient
        if w in PATIENT_NOUNS and self.word(i + 1) in ("du", "de") and self.word(i + 2) in (
                "box", "lit", "chambre") and (before == "du" or self.word(i - 2) in ("de", "d'", "d’", "avec")):
            return "other"      # "Fille de la patiente du box 2", "avec la patiente du lit B": another patient
        if w in ("patient", "patiente", "monsieur", "dame", "homme", "femme") and before in ("un", "une") \
                and self.word(i - 2) not in COPULAS and self.word(i - 2) != "," and self.patient_named_before(i):
            return "other"      # "il s'est blessé en brancardant un patient": a new referent, someone else
        if (w in ("femme", "homme") or w in PARTNER_NOUNS) and self.word(i + 1) in ("de", "d'", "d’") \
                and self.word(i + 2) in POSSESSIVES | {"la", "le", "l'", "l’"} and self.is_person(i + 3):
            # "la femme de son père", "la compagne de son père": someone else's; but the note's subject when it
            # opens the note on another patient's partner ("Le mari de la dame du box 6 demande ...")
            return PATIENT if self.another_patient(i + 3) and self.first_subject(i) else "other"
        if w in PARTNER_NOUNS or (w in ("femme", "homme") and before in POSSESSIVES):
            return PARTNER if before in POSSESSIVES or w not in ("femme", "homme") else "other"
        if w in ("femme", "homme") and before in ("un", "une") and self.word(i - 2) == ",":
            # apposed: "sa compagne, une femme de 60 ans" is the partner; "La victime, un homme de 40 ans" the
            # patient (the victim the note is about)
            if self.word(i - 3) in PARTNER_NOUNS:
                return PARTNER
            if self.word(i - 3) == "victime" and self.word(i - 4) in ("la", "une") and self.word(i - 5) != "autre":
                return PATIENT
        if w in ("femme", "homme") and before in ("un", "une", "d'un", "d'une", "d’un", "d’une") and self.indefinite_other(i - 1):
            return "other"
        if w in PATIENT_NOUNS:
            # but "son voisin de chambre, M. ___" and "sa voisine du lit 7, une dame de 90 ans" are the neighbour
            first = i - 1 if before in ("un", "une") else i
            return "other" if self.word(first - 1) == "," and self.apposed_to_relative(first - 2) else PATIENT
        if self.predicate_of_partner(i):
            return PARTNER      # "son épouse, qui est son aidante principale"
        if before in POSSESSIVES or not self.is_person(i):
            return "other"
        if self.first_subject(i):
            return PATIENT
        if self.role_position(i):
            return PATIENT
        return "other"

    def first_subject(self, i: int) -> bool:
        """The person noun at i is the subject of the note's first sentence, which names no one else: "Une touriste
        allemande, perdue et déshydratée, est amenée par la police", "Seule victime de l'accident, le motard est
        arrivé conscient", "Le pédiatre de garde, pris d'un malaise, est installé en box 3" - whoever a note opens
        on is its patient. Not when the clause acts on someone ("Le médecin l'a examiné") or names the patient."""
        first = i - 1
        while first >= 0 and (self.word(first) in PREPOSED or self.word(first) in ("le", "la", "l'", "l’", "un", "une")):
            first -= 1
        if self.sentence_start(i) >= 0 or (first >= 0 and not self.fronted_segment(first)):
            return False
        k = self.past_complements(i + 1 + (set(self.word(i + 1)) == {"_"}))
        while self.word(k) == ",":
            k = next((m for m in range(k + 1, min(k + 12, len(self.t))) if self.word(m) == "," or self.clause_start(m)),
                     len(self.t)) + 1 if not self.is_finite_verb(k + 1) else k + 1
        while self.word(k) in ("s'", "s’", "se", "ne", "n'", "n’"):
            k += 1      # "Le sergent ___, ..., s'est tordu le genou"
        if not (self.is_finite_verb(k) or self.word(k) in COPULAS):
            return False
        end = k
        while end < len(self.t) and self.word(end) not in (".", ";", "!", "?", "\n"):
            end += 1
        # (the other patient of the opener's own complement does not count: "La mère de l'enfant du box 2 a ...")
        return not any((self.word(m) in PATIENT_NOUNS and not (m < k and self.another_patient(m)))
                       or self.word(m) in ("il", "elle") for m in range(i + 1, end))

    def past_complements(self, k: int) -> int:
        """From k, past the adjectives and "de" complements of a noun ("de garde", "allemande", "de l'enfant du box
        2"), to what follows them."""
        while k < len(self.t) and not self.is_finite_verb(k):
            if self.word(k) in ("de", "d'", "d’", "du", "des"):
                k += 1
                while self.word(k) in DETERMINERS or self.word(k) in ("l'", "l’"):
                    k += 1
                k += 1      # the complement's noun
            elif self.word(k).isdigit() or self.is_adjective(k):
                k += 1
            else:
                break
        return k

    def another_patient(self, m: int) -> bool:
        """A patient noun followed by its bed: "la dame du box 6" is another patient."""
        return self.word(m + 1) in ("du", "de") and self.word(m + 2) in ("box", "lit", "chambre")

    def fronted_segment(self, comma: int) -> bool:
        """The words before the comma at comma open the sentence and name no person: "Seule victime de l'accident,"."""
        if self.word(comma) != ",":
            return False
        start = self.sentence_start(comma) + 1
        return all(not self.is_finite_verb(m) and not self.names_person(m) for m in range(start, comma))

    def names_person(self, m: int) -> bool:
        """A person noun, not "victime" nor a participle the Lefff also has as a noun ("Venu", "la venue")."""
        entry = self.lex.get(self.word(m))
        return self.is_noun(m) and self.is_person(m) and self.word(m) != "victime" and not (entry and entry.adjective)

    def apposed_to_relative(self, k: int) -> bool:
        """The word at k ends a possessed person's noun phrase ("son voisin de chambre")."""
        prep = self.in_complement(k)
        if prep is not None:
            k = prep - 1
        return self.is_noun(k) and self.is_person(k) and self.word(k - 1) in POSSESSIVES \
            and self.noun_referent(k) != PATIENT

    def predicate_of_partner(self, i: int) -> bool:
        j = i - 1
        while j >= 0 and (self.word(j) in POSSESSIVES or self.word(j) in DETERMINERS or self.word(j) in PREPOSED):
            j -= 1
        return self.word(j) in COPULAS and self.is_person(i) and self.subject_of(j) == PARTNER

    def sentence_start(self, i: int) -> int:
        k = i - 1
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            k -= 1
        return k

    def descendant_subject(self, i: int) -> bool:
        """Whether the sentence before i names one of the patient's descendants ("Son fils", "Sa petite-fille")."""
        return any(self.word(k) in DESCENDANTS and (self.word(k - 1) in POSSESSIVES or (
            self.word(k - 1) in NUMBER_WORDS and self.word(k - 2) in POSSESSIVES))     # "Ses deux filles"
                   for k in range(self.sentence_start(i) + 1, i - 1))

    def patient_named_before(self, i: int) -> bool:
        """Whether the sentence has named the patient (a pronoun of the patient's sex) before i."""
        pronoun = "elle" if self.sex == "F" else "il"
        return any(self.word(k) == pronoun and not self.impersonal_il(k) for k in range(self.sentence_start(i) + 1, i))

    def opens_note(self, i: int) -> bool:
        """A person noun that opens the text (after an article or a preposed adjective at most) and is followed by
        an age, a bed or a verb names the note's subject: "Un gendarme de 29 ans", "La journaliste, 40 ans",
        "Le garçon est tombé", "Le papi du lit 4 réclame"."""
        k = i - 1
        while k >= 0 and (self.word(k) in PREPOSED or self.word(k) in ("le", "la", "l'", "l’", "un", "une")):
            k -= 1
        if k >= 0 or i == 0 and not self.word(i)[:1].isalpha():
            return False
        nxt, after = self.word(i + 1), self.word(i + 2)
        # before a verb only a noun that names no trade ("Le garçon est tombé", not "Le kiné note ...")
        return (nxt in ("de", ",") and after.isdigit()) or (nxt in ("du", "de") and after in ("lit", "box", "chambre")) \
            or (self.is_finite_verb(i + 1) and (self.word(i) in OWN_PERSONS or self.word(i) in KINSHIP
                                                or self.word(i) in ROAD_USERS))

    def young_subject(self, i: int) -> bool:
        """"la petite", "le petit", "l'adolescent" opening a clause (or after "que") as a verb's subject: the
        child the note is about ("Son père dit que la petite a avalé une pile")."""
        if self.word(i) not in YOUNG or self.word(i - 1) not in ("le", "la", "l'", "l’"):
            return False
        if not (self.clause_start(i - 2) or self.word(i - 2) in ("que", "qu'", "qu’")):
            return False
        k = i + 1
        while self.word(k) == "," and k + 2 < len(self.t):     # "l'adolescent, mutique, refuse ..."
            k += 2 if self.word(k + 2) == "," else 1
        entry = self.lex.get(self.word(k))
        return self.is_finite_verb(k) or bool(entry and entry.finite_verb)

    def indefinite_other(self, article: int) -> bool:
        return indefinite_names_other(self, article, PATIENT_NOUNS, COPULAS)

    def role_position(self, i: int) -> bool:
        """A person noun in a position that describes the patient: the predicate of a patient subject, the
        head of a clause-initial fragment, apposed to the patient, or coordinated with such a noun."""
        j = i - 1
        while j >= 0 and (self.word(j) in PREPOSED or self.word(j) in ("un", "une")):
            j -= 1
        prev = self.word(j)
        w = self.word(i)
        kin = w in KINSHIP
        if prev == "comme":
            return self.subject_of(j - 1) == PATIENT
        if self.opens_note(i) or self.young_subject(i):
            return True
        if j < i - 1 and self.word(j + 1) in ("un", "une") and self.clause_start(j):
            return False
        if prev in ("le", "la", "l'", "l’") and j == i - 1:
            before = self.word(j - 1)
            if before in ("est", "était") and self.subject_of(j - 1) == PATIENT:
                return True     # "elle est la tante de l'enfant": a definite predicate of the patient
            if before == "et":
                k = j - 2
                while k >= 0 and self.is_adjective(k) and not self.is_noun(k):
                    k -= 1      # "il est le fils cadet et le tuteur de ...": coordinated with that predicate
                if k >= 0 and self.is_noun(k) and (self.word(k) in KINSHIP or self.is_role_noun(self.word(k))) \
                        and self.word(k) not in POSSESSIVES and k != i:
                    return self.noun_referent(k) == PATIENT
        if prev in ("le", "la", "l'", "l’", "les", "des", "du", "ce", "cette") or prev in POSSESSIVES:
            return False
        if prev in PREPOSITIONS:
            return False
        if self.is_finite_verb(j):
            subject = self.subject_of(j)
            # "il est fils unique": any kinship noun right after the patient's "être" is the patient's
            return subject == PATIENT and (not kin or w in PERSONAL_ROLE or prev in ("est", "était"))
        if prev in ("et", ","):
            k = j - 1
            k = self.skip_complements(k)
            if k >= 0 and self.is_noun(k) and (self.is_role_noun(self.word(k)) or self.word(k) in KINSHIP
                                               or self.word(k) in PATIENT_NOUNS):
                return self.noun_referent(k) == PATIENT and (not kin or w in PERSONAL_ROLE or (
                    prev == "et" and self.word(k) in KINSHIP))  # "Sœur et nièce de ..., elle"
            if prev == "," and (not kin or w in PERSONAL_ROLE):
                return self.segment_is_patient(k) or (not kin and not self.segment_is_other_person(k))
            return False
        if self.clause_start(j):
            if self.fronted_before(i, ("je", "j'", "j’")):
                return False    # "Infirmier de nuit, j'ai dû le recoucher": the writer
            if kin:
                if self.word(i + 1).endswith("ant") and any(t.lower in ("il", "elle") for t in self.t[i + 2:]):
                    return True  # "Grand-père gardant ses petits-enfants, il ...": the patient's gerund phrase
                if self.word(i + 1) in ("de", "d'", "d’", "du", "des", "et") and self.fronted_before_pronoun(i):
                    return True  # "Nièce de ..., elle a ...": fronted before the patient's pronoun
                return self.word(i + 1) == "de" and (self.word(i + 2).isdigit() or self.word(i + 2) in NUMBER_WORDS) \
                    and w not in ("voisin", "voisine")
            return True
        return False

    def fronted_before(self, i: int, pronouns: tuple[str, ...]) -> bool:
        """The phrase after i runs, within its clause, to a comma followed by one of the pronouns."""
        for k in range(i + 1, min(i + 16, len(self.t) - 1)):
            if self.word(k) in (".", ";", ":", "!", "?", "\n"):
                return False
            if self.word(k) == ",":
                return self.word(k + 1) in pronouns
        return False

    def fronted_before_pronoun(self, i: int) -> bool:
        """The phrase after i runs, within its clause, to a comma followed by "il" or "elle"."""
        for k in range(i + 1, min(i + 16, len(self.t) - 1)):
            if self.word(k) in (".", ";", ":", "!", "?", "\n"):
                return False
            if self.word(k) == ",":
                return self.word(k + 1) in ("il", "elle")
        return False

    def segment_is_patient(self, k: int) -> bool:
        """Whether the comma-separated segment ending at k is about the patient: it names the patient (a
        patient noun, il/elle) or its head agrees with the patient; a segment that is only an age ("54 ans")
        passes the question to the one before it."""
        start = k
        while start >= 0 and self.word(start) not in CLAUSE_ENDS and self.word(start) != ",":
            start -= 1
        words = [self.word(x) for x in range(start + 1, k + 1)]
        if words and all(w.isdigit() or w in ("ans", "an", "mois", "jours", "kg", "cm", "h", "semaines") for w in words):
            return start >= 0 and self.word(start) == "," and self.segment_is_patient(start - 1)
        for x in range(start + 1, k + 1):
            w = self.word(x)
            if w in ("il", "elle") and not (w == "il" and self.impersonal_il(x)):
                return True
            if w in PATIENT_NOUNS and self.word(x - 1) not in POSSESSIVES:
                return True
        head = start + 1
        while head <= k and (self.word(head) in PREPOSED or self.word(head) in ADVERBS):
            head += 1
        if head > k:
            return False
        if self.is_noun(head):
            return self.noun_referent(head) == PATIENT
        if self.is_adjective(head):
            return self.controller(head) == PATIENT
        return False

    def segment_is_other_person(self, k: int) -> bool:
        """Whether the segment ending at k is headed by a person other than the patient ("Sa fille, ...")."""
        start = k
        while start >= 0 and self.word(start) not in CLAUSE_ENDS and self.word(start) != ",":
            start -= 1
        head = start + 1
        while head <= k and (self.word(head) in DETERMINERS or self.word(head) in PREPOSED):
            head += 1
        return head <= k and self.is_person(head) and self.noun_referent(head) != PATIENT

    def skip_complements(self, k: int) -> int:
        """From k leftwards, past prepositional complements ("de deux enfants", "à 39 °C", "au sol")."""
        while k >= 0:
            j = k
            while j >= 0 and j > k - 5 and self.word(j) not in PREPOSITIONS and self.word(j) not in CLAUSE_ENDS \
                    and self.word(j) not in COORDINATION and (self.is_noun(j) or self.word(j) in DETERMINERS
                                                               or not re.match(r"^[^\W\d_]", self.word(j))
                                                               or self.is_adjective(j)):
                j -= 1
            if j >= 0 and self.word(j) in PREPOSITIONS and j < k:
                k = j - 1
                continue
            return k
        return k

    # --- subjects and controllers ----------------------------------------------------------------------------
    def subject_of(self, v: int) -> str | None:
        """What the subject of the verb at v refers to (PATIENT when it is the patient or unsaid)."""
        j = v - 1
        while j >= 0 and self.word(j) in ("ne", "n'", "n’", "se", "s'", "s’", "y", "en", "est", "a", "été", "lui",
                                          "l'", "l’", "le", "la", "me", "m'", "te", "t'", "nous", "vous"):
            if self.word(j) in ("le", "la") and self.word(j - 1) in ("il", "elle", "qui"):
                pass
            j -= 1
        while j >= 0 and (self.adverb(j) or self.word(j) in ("pu", "peut", "pouvait", "doit", "devait", "veut")):
            j -= 1
        prep = self.in_complement(j) if j >= 0 and (self.is_noun(j) or self.word(j).isdigit()) else None
        if prep is not None and prep > 0 and not self.clause_start(prep - 1):
            j = prep - 1
        w = self.word(j)
        if w in ("il", "elle") and j in self.others:
            return "other"
        if w in ("il", "elle"):
            return None if w == "il" and self.impersonal_il(j) else PATIENT
        if w in ("je", "j'", "j’", "tu", "nous"):
            # "je suis restée avec lui": the writer's participle; quoted, the patient speaks ("« je suis née ... »")
            return PATIENT if self.quoted(j) else "other"
        if w in ("qui",):
            k = j - 1
            while k >= 0 and self.word(k) == ",":
                k -= 1
            while k > 0 and self.is_adjective(k) and not self.is_noun(k):
                k -= 1      # "le genou gauche, qui est gonflé": the noun before its adjectives
            return self.noun_referent(k) if k >= 0 and self.is_noun(k) else PATIENT
        if w == ",":
            apposed_to = self.segment_start(j - 1) - 1
            if self.word(apposed_to) in FIXED_GENDER_PERSONS:
                return EITHER   # "La victime, un homme de 30 ans, a été percutée / percuté": either agreement
            if self.word(apposed_to + 1) == "," and self.is_noun(apposed_to) and self.is_person(apposed_to) \
                    and self.word(apposed_to - 1) in POSSESSIVES:
                return self.noun_referent(apposed_to)   # "Son épouse, présente, est très inquiète"
        if self.clause_start(j) or w == ",":
            return PATIENT
        if j > 0 and (self.lex.get(w) or False) and self.lex.get(w).infinitive and w != "avoir":
            return self.subject_of(j)     # "dit ne plus vouloir être soigné": whoever governs the infinitive
        if j >= 0 and self.is_noun(j):
            return self.noun_referent(j)
        if j >= 0 and self.is_adjective(j):
            k = j
            while k >= 0 and (self.is_adjective(k) or self.adverb(k)) and not self.is_noun(k):
                k -= 1
            if k >= 0 and self.is_noun(k):
                return self.noun_referent(k)
        return PATIENT

    def object_clitic_before(self, v: int) -> int | None:
        j = v - 1
        while j >= 0 and self.word(j) in ("ne", "n'", "n’", "y"):
            j -= 1
        return j if self.word(j) in ("la", "le", "l'", "l’", "les") else None

    def controller(self, i: int) -> str | None:
        """What the adjective or participle at i agrees with: PATIENT, PARTNER, 'other', or None (no agreement)."""
        if i in self.memo:
            return self.memo[i]
        self.memo[i] = "other"
        result = self._controller(i)
        self.memo[i] = result
        return result

    def _controller(self, i: int) -> str | None:
        own = self.gender(i)
        if self.word(i) in PREPOSED and i + 1 < len(self.t) and self.is_noun(i + 1):
            return self.noun_referent(i + 1)
        j = i - 1
        while j >= 0 and (self.adverb(j) or set(self.word(j)) == {"_"} or self.time_adverbial(j)
                          or self.word(j) in ("lui-même", "elle-même")) and not (
                self.word(j) == "un" and self.is_noun(j + 1)):
            j -= 1      # (an emphatic pronoun too: "il est lui-même venu")
        if self.gerund(j):
            return self.gerund_subject(j)   # "en allant seul aux toilettes": the gerund's subject
        if j >= 0 and self.word(j) == "-":
            j -= 1
        w = self.word(j)
        if self.before_its_noun(i, own) and (self.clause_start(j) or w == ","):
            return "other"      # "Dernier rappel inconnu", "volumineux hématome": a preposed adjective
        subject = self.possessed_subject(j) if w == "," else None
        if subject is not None and own is not None and self.gender(subject, as_noun=True) == own:
            return self.noun_referent(subject)  # "Son associé l'a conduit aux urgences, inquiet": the associate
        entry = self.lex.get(self.word(i))
        if self.infinitive(j) and self.word(j - 1) in ("se", "s'", "s’", "de", "d'", "d’") and entry and entry.adjective \
                and not (entry.noun and j == i - 1):     # "porter plainte": an infinitive and its object
            return self.infinitive_controller(j)    # "incapable de se lever seul": the one unable
        if self.clause_start(j) or (w == "fois" and self.word(j - 1) in ("dernière", "première")):
            return PATIENT      # "Dernière fois vu asymptomatique hier": the patient, last seen
        if w in ("trouve", "trouvait", "trouvent", "juge", "jugeait", "considère", "estime") \
                and self.word(j - 1) in ("il", "elle", "ils", "elles") and self.word(j - 2) in ("qu'", "qu’", "que"):
            # "son kinésithérapeute, qu'il trouve brutal": the relative's antecedent
            k = j - 3
            while k >= 0 and self.word(k) == ",":
                k -= 1
            return self.noun_referent(k) if k >= 0 and self.is_noun(k) and self.is_person(k) else "other"
        if w in OBJECT_PREDICATE_VERBS:
            clitic = self.object_clitic_before(j)
            if clitic is not None and self.word(clitic) != "les":
                # "la trouve triste et renfermée", "le voit fatigué": the predicate of the object clitic
                return PATIENT if own is None or ARTICLE_SEXES.get(self.word(clitic), own) == own else "other"
        if w in ("il", "elle") and self.word(j - 1) == "-":
            return self.after_inverted(j, i)
        if (w == "que" and self.word(j - 1) == "bien") or w == "quoique":
            return self.subject_after_comma(i)      # "Bien que vacciné, il présente ..."
        if w == ",":
            verb = self.verb_before_incise(j)
            if verb is not None:
                # "Il a été, selon les témoins, retrouvé cyanosé": the incise is passed over
                return self.subject_of(verb - 1) if self.word(verb) == "été" else self.verb_controller(verb)
        if w == ",":
            # "Chute chez sa fille, retrouvée par son gendre": a place "chez" someone is no controller
            c = next((c for c in range(j - 1, max(j - 5, -1), -1) if self.word(c) == "chez"), None)
            if c is not None and all(not self.clause_start(k) for k in range(c, j)) and (
                    self.clause_start(c - 1) or (self.is_noun(c - 1) and not self.is_person(c - 1))):
                return PATIENT
        if w == "comme":
            # "il est décrit par sa fille comme très actif": after a passive verb of judging and its agent, the
            # word after "comme" agrees with that verb's subject
            k = j - 1
            while k >= 0 and not self.clause_start(k) and k > j - 8:
                if self.word(k) in JUDGING_PARTICIPLES and self.word(k - 1) in ("est", "était", "été", "sera", "fut"):
                    return self.subject_of(k - 1)
                k -= 1
        if w in AVOIR or (w == "été" and self.word(j - 1) in AVOIR):
            if w == "été":
                return self.subject_of(j - 1)
            clitic = self.object_clitic_before(j)
            if clitic is None:
                return self.relative_object(j)
            return PATIENT if self.word(clitic) != "les" else None
        if w in COPULAS:
            if self.word(j - 1) in ("s'", "s’", "se") and self.word(i + 1) in DETERMINERS \
                    and self.word(i + 2) not in TIME_NOUNS:
                # "elle s'est cogné la tête": no agreement, though writers often make one ("s'est scarifiée")
                if self.verb_controller(j) != PATIENT or own != self.sex:
                    return None
                return PATIENT if own == "F" else EITHER
            return self.verb_controller(j)
        if w in COORDINATION:
            return self.conjunct(j - 1, own)
        if self.is_noun(j) or w.isdigit():
            return self.noun_or_further(j, own)
        if self.is_adjective(j):
            return self.controller(j)
        if self.is_finite_verb(j):
            return self.verb_controller(j)
        return "other"

    def gerund(self, j: int) -> bool:
        return self.word(j).endswith("ant") and self.word(j - 1) == "en"

    def gerund_subject(self, j: int) -> str | None:
        """A gerund's subject is its main clause's: the nearest finite verb before it in its sentence."""
        k = j - 2
        while k >= 0 and self.word(k) not in (".", ";", "!", "?", "\n"):
            if self.is_finite_verb(k) and self.word(k) not in AVOIR:
                return self.verb_controller(k)
            if self.word(k) in AVOIR:
                return self.subject_of(k)
            k -= 1
        return PATIENT

    def subject_after_comma(self, i: int) -> str | None:
        """The subject pronoun after the next comma, for a fronted concessive clause."""
        k = i + 1
        while k < len(self.t) and self.word(k) != "," and not self.clause_start(k):
            k += 1
        w = self.word(k + 1)
        if self.word(k) != "," or w not in ("il", "elle"):
            return "other"
        return PATIENT if self.gender(k + 1) == self.sex else "other"

    def after_inverted(self, j: int, i: int) -> str | None:
        """What the word at i agrees with after an inverted subject pronoun at j: the pronoun ("Est-il couvert ?",
        "Vit-elle seule ?"), but nothing after "avoir" ("A-t-il fait son insuline ?") or a reflexive verb with an
        object ("S'est-il cogné la tête ?")."""
        k = j - 2
        if self.word(k) == "t" and self.word(k - 1) == "-":
            k -= 2
        if self.word(k) in AVOIR:      # "l'a-t-il vue ?": the object before "avoir"
            clitic = self.object_clitic_before(k)
            return PATIENT if clitic is not None and self.word(clitic) != "les" else None
        if self.word(k - 1) in ("s'", "s’", "se") and self.word(i + 1) in DETERMINERS:
            return None
        return PATIENT if self.gender(j) == self.sex else "other"

    def quoted(self, j: int) -> bool:
        """Whether position j lies inside quotation marks."""
        before = [self.word(k) for k in range(j)]
        return before.count("«") > before.count("»") or before.count('"') % 2 == 1

    def infinitive_controller(self, j: int) -> str | None:
        """What an adjective after the infinitive at j agrees with: the subject of the word that governs the
        infinitive ("incapable de se lever seule", "refuse de rentrer seul")."""
        if self.word(j) == "avoir":
            return None     # "persuadé d'avoir fait un infarctus": a participle after "avoir" does not agree
        k = j - 1
        while k >= 0 and self.word(k) in ("se", "s'", "s’", "de", "d'", "d’", "ne", "pas"):
            k -= 1
        if self.word(k) in ("avant", "sans", "pour", "après", "afin"):
            # "Il a passé la nuit au sol avant d'être découvert": the sentence's subject
            first = self.sentence_start(k) + 1
            named = self.word(first) in ("il", "elle") and first not in self.others or self.word(first) in PATIENT_NOUNS
            return PATIENT if named else "other"
        if self.is_adjective(k):
            return self.controller(k)
        if self.is_finite_verb(k):
            return self.verb_controller(k)
        return "other"

    def possessed_subject(self, j: int) -> int | None:
        """The subject noun of a sentence that opens with a relative acting on the patient ("Son associé l'a
        conduit ...", "Sa femme l'a amené ..."), when the comma at j closes that clause; else None."""
        k = self.sentence_start(j) + 1
        if self.word(k) not in POSSESSIVES or not (self.is_noun(k + 1) and self.is_person(k + 1)) \
                or self.word(k + 2) not in ("l'", "l’", "le", "la") or any(self.word(m) == "," for m in range(k, j)):
            return None
        verb = self.word(k + 4) if self.word(k + 3) in AVOIR else self.word(k + 3)
        if verb.rstrip("e") in FINDING_VERBS:
            return None     # "Sa voisine l'a retrouvée au sol, consciente": the found one's state
        return k + 1

    def time_adverbial(self, j: int) -> bool:
        """"hier", "hier soir", "ce matin": a time, passed over between a verb and its adjective."""
        w = self.word(j)
        return w in ("hier", "aujourd'hui") or (w in TIME_NOUNS and self.word(j - 1) in ("hier", "ce", "cette")) \
            or (w in ("ce", "cette") and self.word(j + 1) in TIME_NOUNS)   # "il est ce soir confus"

    def relative_object(self, j: int) -> str | None:
        """After "avoir" at j, the antecedent of a relative "que" that opens the clause ("La dame du lit 2, que sa
        voisine a vue"), which the participle agrees with; None without one."""
        k = j - 1
        while k >= 0 and k > j - 8 and not self.clause_start(k) and self.word(k) not in ("que", "qu'", "qu’", ","):
            k -= 1
        if self.word(k) not in ("que", "qu'", "qu’"):
            return None
        a = self.antecedent_before(k)
        if a is None:
            return None
        name = a
        while name > 0 and self.word(name) == "_":
            name -= 1
        if name < a and self.word(name) in PATIENT_NOUNS:
            return self.noun_referent(name)     # "je vous adresse M. ___, que j'ai trouvé amaigri"
        while a >= 0 and self.in_complement(a) is not None and self.in_complement(a) > 0:
            a = self.in_complement(a) - 1
        return self.noun_referent(a) if a >= 0 and self.is_noun(a) and self.is_person(a) else None

    def antecedent_before(self, k: int) -> int | None:
        """The word before the relative "que" at k that its antecedent ends with; a relative coordinated with an
        earlier one ("M. ___, que je suis depuis vingt ans et que j'ai trouvé ...") shares its antecedent."""
        a = k - 1
        if self.word(a) in ("et", "ou", "mais"):
            earlier = next((m for m in range(a - 1, self.sentence_start(a), -1) if self.word(m) in RELATIVE), None)
            if earlier is None:
                return None
            a = earlier - 1
        while a >= 0 and self.word(a) == ",":
            a -= 1
        return a

    def before_its_noun(self, i: int, own: str | None) -> bool:
        """The adjective at i stands before a noun (not a person) of its gender and number."""
        nxt = self.word(i + 1)
        if self.word(i).endswith(("é", "ée", "és", "ées")):
            return False    # a participle ("Agressé hier soir") does not stand before its noun
        if nxt in PREPOSITIONS or nxt in DETERMINERS or nxt in FUNCTION_WORDS or nxt in ADVERBS or nxt in COPULAS:
            return False
        entry = self.lex.get(nxt)
        return bool(entry and entry.noun and not entry.adjective and not self.is_person(i + 1) and own is not None
                    and self.lex.gender(self.word(i + 1), as_noun=True) == own
                    and not number_clash(self.word(i), self.word(i + 1)))

    def verb_before_incise(self, j: int) -> int | None:
        """j is a comma that closes an incise opened right after a copula or "été" ("Elle est, d'après ..., ",
        "Il a été, selon ..., "): the position of that verb, else None."""
        k = j - 1
        while k >= 0 and not self.clause_start(k):
            if self.word(k) == ",":
                verb = self.word(k - 1)
                return k - 1 if verb in COPULAS or (verb == "été" and self.word(k - 2) in AVOIR) else None
            k -= 1
        return None

    def in_bare_complement(self, k: int) -> int | None:
        """The preposition of a complement without determiner that k ends ("en sueur", "à 39 °C", "au sol")."""
        j = k
        while j >= 0 and j > k - 4 and (self.is_noun(j) or not re.match(r"^[^\W\d_]", self.word(j))
                                         or self.word(j) in ("sol", "moindre")):
            if self.word(j) in CLAUSE_ENDS or self.word(j) in COORDINATION:
                return None
            j -= 1
        if j >= 0 and self.word(j) in ("en", "à", "au", "aux", "sous", "sans", "par", "avec", "depuis") and j < k:
            return j
        return None

    def in_complement(self, k: int) -> int | None:
        """The preposition of any complement ("de 80 ans", "avec sa mère") that k ends, or None."""
        j = k
        noun_seen = False
        while j >= 0 and j > k - 6:
            w = self.word(j)
            if w in CLAUSE_ENDS or w in COORDINATION or w in PREPOSITIONS:
                break
            if self.is_noun(j) or w.isdigit() or not re.match(r"^[^\W_]", w):
                noun_seen = True
            elif w in DETERMINERS or w in PREPOSED:
                if not noun_seen:
                    return None
            elif not (self.is_adjective(j) and not noun_seen):
                return None
            j -= 1
        if j >= 0 and self.word(j) in PREPOSITIONS and j < k and noun_seen:
            return j
        return None

    def noun_or_further(self, k: int, own: str | None) -> str | None:
        """The word before an adjective is a noun (or a number): the noun it agrees with when their genders fit,
        else look past the complement it ends ("Grand-mère de 80 ans amenée")."""
        if self.word(k - 1).isdigit() and self.in_complement(k) is None:
            return self.before(k - 2, own)
        noun_gender = self.gender(k, as_noun=True) if not self.word(k).isdigit() else None
        if noun_gender is None and self.word(k).endswith(_EPICENE_ENDINGS) and not self.is_person(k) \
                and (self.word(k - 1) == "," or self.clause_start(k - 1)):
            return self.controller(k)   # "Patient de 41 ans, lithiasique connu": an adjective used as a noun
        fits = not self.word(k).isdigit() and not self.word(k - 1).isdigit() and (
            own is None or noun_gender is None or noun_gender == own)
        if fits and self.is_person(k):
            return self.noun_referent(k)
        if fits:
            return self.noun_referent(k)
        if self.is_adjective(k) and not self.word(k).isdigit():
            return self.controller(k)
        prep = self.in_complement(k)
        if prep is None:
            return "other"
        return self.before(prep - 1, own)

    def before(self, k: int, own: str | None) -> str | None:
        """What a word agrees with when k is the last word before it (after skipping)."""
        while k >= 0 and (self.adverb(k) or set(self.word(k)) == {"_"}):
            k -= 1
        w = self.word(k)
        if self.clause_start(k):
            return PATIENT
        if w in ("elle", "lui", "il"):
            return PATIENT if (own is None or self.gender(k) == own) and k not in self.others else "other"
        if w in COORDINATION:
            return self.conjunct(k - 1, own)
        if w in COPULAS:
            return self.verb_controller(k)
        if self.is_noun(k) or w.isdigit():
            return self.noun_or_further(k, own)
        if self.is_adjective(k):
            return self.controller(k)
        if self.is_finite_verb(k):
            return self.verb_controller(k)
        entry = self.lex.get(w)
        if entry is not None and entry.infinitive:
            return self.subject_of(k)
        return "other"

    def conjunct(self, k: int, own: str | None) -> str | None:
        """The word before a comma or a conjunction: the previous member of the list, whose controller the word
        shares; complements without determiner ("en sueur", "au sol") are passed over."""
        while k >= 0:
            while k >= 0 and self.adverb(k):
                k -= 1
            if k >= 0 and self.word(k) in COORDINATION:
                k -= 1
                continue
            prep = self.in_bare_complement(k) if k >= 0 else None
            if prep is not None:
                k = prep - 1
                continue
            prep = self.in_complement(k) if k >= 0 and (self.is_noun(k) or self.word(k).isdigit()
                                                        or self.is_adjective(k)) else None
            if prep is not None:
                while k > prep and not (self.is_noun(k) or self.word(k).isdigit()):
                    k -= 1
                noun_gender = self.gender(k, as_noun=True)
                fits = own is None or noun_gender is None or noun_gender == own
                if self.is_person(k) and fits and self.word(prep) != "par":
                    return self.noun_referent(k)
                k = prep - 1
                continue
            break
        return self.before(k, own)

    def verb_controller(self, v: int) -> str | None:
        clitic = self.object_clitic_before(v)
        if clitic is not None and self.word(v) not in ("est", "était", "a", "avait"):
            return PATIENT if self.word(clitic) != "les" else "other"
        return self.subject_of(v)

    # --- the reading ---------------------------------------------------------------------------------------
    def someone_else_pronoun(self, i: int) -> bool:
        """"il"/"elle" that is another person's: after a colon that closes the naming of that person ("Appel de sa
        sœur : elle est passée ...", "Examen par l'interne : elle ne retrouve pas ..."), or the subject of a clause
        whose object clitic is of its own gender while the sentence names another person of that gender (an
        object pronoun is never its clause's subject: "son fils dit qu'il l'a trouvé au sol")."""
        w = self.word(i)
        if w not in ("il", "elle"):
            return False
        sex = "M" if w == "il" else "F"
        start = self.sentence_start(i)
        other = any(self.is_noun(k) and self.is_person(k) and self.word(k) not in PATIENT_NOUNS
                    and self.gender(k, as_noun=True) in (sex, None) and self.word(k - 1) in POSSESSIVES | {
                        "de", "d'", "d’", "par", "l'", "l’", "le", "la"} for k in range(start + 1, i))
        if not other:
            return False
        if self.word(i - 1) == ":" and self.word(i + 1) in REPORTING_VERBS:
            return True     # "Examen par l'interne : elle ne retrouve pas ...": the one reporting
        clitics = ("le", "l'", "l’") if sex == "M" else ("la", "l'", "l’")
        k = i + 1
        while k < len(self.t) and k < i + 5 and not self.clause_start(k) and self.word(k) not in (",", "et", "qui"):
            # "elle est passée la voir", "il l'a trouvé": "l'" is the patient's only before a participle of the
            # pronoun's gender
            verb = self.word(k + 1) in AVOIR or self.is_finite_verb(k + 1) or self.infinitive(k + 1)
            if self.word(k) in clitics and verb and (self.word(k) in ("le", "la") or self.gender(k + 2) == sex):
                return True
            k += 1
        return False

    def infinitive(self, i: int) -> bool:
        entry = self.lex.get(self.word(i))
        return bool(entry and entry.infinitive)

    def sex_code(self, i: int) -> bool:
        """"H 71 ans", "F, 19 ans": a sex letter opening a sentence before an age."""
        return self.word(i) in ("h", "f", "m") and self.t[i].text.isupper() and self.clause_start(i - 1) and (
            self.word(i + 1).isdigit() or (self.word(i + 1) == "," and self.word(i + 2).isdigit()))

    def emphatic_of_partner(self, i: int) -> bool:
        """"lui-même"/"elle-même" apposed to a partner ("Sa compagne, elle-même aide-soignante") or in a relative
        clause on one ("son mari, qui est lui-même infirmier")."""
        k = i - 1
        if self.word(k) in COPULAS and self.word(k - 1) == "qui":
            k -= 2
        elif self.word(k) != ",":
            return False
        while k >= 0 and self.word(k) == ",":
            k -= 1
        return self.word(k) in PARTNER_NOUNS or ex_partner(self.word(k)) or (
            self.word(k) in ("femme", "homme") and self.word(k - 1) in POSSESSIVES)

    def apposed_after(self, i: int) -> list[int]:
        """The emphatic pronoun at i and the role nouns and adjectives after it, up to a comma or a clause end."""
        out = [i]
        k = i + 1
        while k < len(self.t) and not self.clause_start(k) and self.word(k) != "," and (
                self.is_person(k) or self.is_adjective(k) or self.adverb(k)):
            if self.gender(k) is not None:
                out.append(k)
            k += 1
        return out

    def read(self) -> Reading:
        patient: dict[int, str] = {}
        partner: set[int] = set()
        free: set[int] = set()
        reasons: dict[int, str] = {}
        for i, tok in enumerate(self.t):
            w = tok.lower
            g = self.gender(i)
            if w in ("il", "elle") and not self.apposed_emphatic(i):
                if i in self.others:
                    reasons[i] = "other person"
                elif g == self.sex and not (w == "il" and self.impersonal_il(i)):
                    patient[i] = "pronoun"
                continue
            if w in ("celle-ci", "celui-ci") and any(self.word(k) in PARTNER_NOUNS for k in range(self.sentence_start(i) + 1, i)):
                partner.add(i)      # "sa compagne et les deux enfants de celle-ci": the partner
                continue
            if w in ("lui-même", "elle-même") or self.apposed_emphatic(i):
                if self.emphatic_of_partner(i):
                    self.partner_emphatics.add(i)
                    partner.update(self.apposed_after(i))     # "Son mari, lui-même diabétique, ..."
                    continue
                if self.word(i - 1) == "," and self.segment_is_other_person(i - 2):
                    reasons[i] = "other person"     # "Son fils, lui-même urgentiste, ..."
                    continue
                if (w == "elle-même") == (self.sex == "F"):
                    patient[i] = "pronoun"
                continue
            if w in ("f", "m") and self.word(i - 1) == ":" and self.word(i - 2) in ("sexe", "genre"):
                if w.upper() == self.sex:
                    patient[i] = "sex code"
                continue
            if self.sex_code(i):
                if {"h": "M", "m": "M", "f": "F"}[w] == self.sex:
                    patient[i] = "sex code"
                continue
            if w == "fait" and self.infinitive(i + 1):
                continue    # "il s'est fait poser": "fait" before an infinitive does not agree
            if w in ("lui", "elle") and self.word(i - 1) == "est" and self.word(i - 2) in ("c'", "c’"):
                if (w == "elle") == (self.sex == "F"):
                    patient[i] = "pronoun"      # "C'est lui qui a été retrouvé"
                continue
            if w == "lui" and self.word(i - 1) in PREPOSITIONS and self.sex == "M":
                patient[i] = "pronoun"
                continue
            if w in ("la", "le") and self.word(i - 1) in ("mme", "m.", "madame", "monsieur") \
                    and self.word(i + 1) in TITLE_WORDS:
                if ARTICLE_SEXES[w] == self.sex:
                    patient[i] = "determiner"   # "Mme la Pr ___": the article of the patient's title
                continue
            if w in ("la", "le") and self.word(i - 1) in ("ne", "n'", "n’"):
                if (w == "la") == (self.sex == "F"):
                    patient[i] = "object pronoun"   # "en ne la voyant pas": after "ne", a clitic, never an article
                continue
            if w in ("la", "le") and (self.is_finite_verb(i + 1) or (self.lex.get(self.word(i + 1)) or False)
                                      and self.lex.get(self.word(i + 1)).infinitive):
                if (w == "la") == (self.sex == "F") and (self.word(i - 1) not in PREPOSITIONS or (
                        self.infinitive(i + 1) and not self.lex.get(self.word(i + 1)).noun)):   # "pour la relever"
                    patient[i] = "object pronoun"
                continue
            if w in COPULAS and self.word(i - 1) in ("est", "était", "été", "sera", "fut") and g is not None:
                # "il est décrit par sa femme comme ...": the passive participle of a verb of judging agrees
                # with the subject (and stays a copula for what follows "comme")
                if self.subject_of(i - 1) == PATIENT and g == self.sex:
                    patient[i] = "agreement"
                continue
            if self.is_noun(i) and self.is_person(i):
                referent = self.noun_referent(i)
                if referent == PARTNER:
                    partner.add(i)
                    self._determiners(i, partner, None)
                elif referent == PATIENT and self.gender(i, as_noun=True) == self.sex:
                    patient[i] = "patient noun" if w in PATIENT_NOUNS else "role noun"
                    self._determiners(i, None, patient)
                elif referent == PATIENT:
                    self._determiners(i, None, patient)
                else:
                    reasons[i] = "other person"
                continue
            if self.is_adjective(i) and g is not None and plural(w) and not self.patient_coordinated(i, patient):
                reasons[i] = "agrees with something else"   # "airbags déclenchés": a plural, not the one patient
                continue
            if self.is_adjective(i) and g is not None:
                entry = self.lex.get(w)
                if (self.word(i - 1) in SUBJECT_PRONOUNS and self.word(i - 2) != "-") or (
                        (self.clause_start(i - 1) or self.word(i - 1) in ("et", ","))
                        and self.word(i + 1) in ("un", "une", "le", "la", "les", "des", "du", "son", "sa", "ses")
                        and entry is not None and entry.finite_verb and not w.endswith(("é", "ée", "és", "ées"))):
                    continue    # "... et présente des aphtes": a verb before its object
                if (self.word(i - 1) == "," or self.clause_start(i - 1)) and self.heads_noun_phrase(i) \
                        and not self.is_person(i):
                    continue    # "moteur allumé": a noun before its adjective
                if self.predeterminer(i):
                    continue    # "toutes les deux heures"
                ctrl = self.controller(i)
                if ctrl == PARTNER:
                    partner.add(i)
                elif ctrl == EITHER:
                    free.add(i)     # either agreement is right
                elif ctrl == PATIENT and g == self.sex:
                    patient[i] = "agreement"
                elif ctrl != PATIENT:
                    reasons[i] = "agrees with something else"
        self._self_apposition(patient, reasons)
        self._lists(patient, reasons)
        self._fragments(patient, reasons)
        self._nicknames(patient, reasons)
        self._person_states(patient, reasons)
        for i in range(len(self.t) - 1):
            if self.word(i) in ("tout", "toute") and i + 1 in patient and self.gender(i) == self.sex:
                patient[i] = "agreement"    # "il parle tout seul" / "elle parle toute seule"
        return Reading(patient, frozenset(partner), reasons, frozenset(free), whole_partner=True)

    def apposed_emphatic(self, i: int) -> bool:
        """"Son mari, lui aussi médecin, ...": a stressed pronoun with "aussi", apposed as "lui-même" is."""
        return self.word(i) in ("lui", "elle") and self.word(i + 1) == "aussi" and self.word(i - 1) == ","

    def _self_apposition(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """An emphatic pronoun ("lui-même", "elle-même") of the sentence's opening noun phrase, apposed to it or
        after its verb, says that person is the note's subject: "Le Dr ___, elle-même chirurgienne, consulte",
        "Le docteur ___, généraliste, est lui-même venu" - the opening noun, its article, the roles apposed to it
        and the words agreeing after the pronoun are the patient's. When the opener is a possessed relative ("Sa
        fille ... l'a amenée elle-même"), the pronoun is the relative's."""
        for m in range(2, len(self.t)):
            if self.word(m) not in ("lui-même", "elle-même") or m in self.partner_emphatics:
                continue
            opener = self.sentence_start(m) + 1
            head = opener + (self.word(opener) in ("le", "la", "l'", "l’", "un", "une") or self.word(opener) in POSSESSIVES)
            if not (self.is_person(head) or self.word(head) in TITLE_WORDS) or head >= m:
                continue
            prev = self.word(m - 1)
            if not (prev == "," or prev in COPULAS or self.is_finite_verb(m - 1) or self.is_adjective(m - 1)):
                continue
            own_clause = not any(self.word(k) in SUBJECT_PRONOUNS or self.word(k) in ("il", "elle")
                                 for k in range(head + 1, m))
            if self.word(opener) in POSSESSIVES:
                if prev != "," and own_clause and self.noun_referent(head) == "other":
                    patient.pop(m, None)
                    reasons[m] = "other person"     # "Sa fille ... l'a amenée elle-même": the daughter herself
                continue
            if (self.word(m) == "elle-même") != (self.sex == "F") or not own_clause:
                continue
            end = m + 1
            while prev in COPULAS and end < len(self.t) and self.is_adjective(end):
                end += 1    # "est elle-même venue": the participle after the copula
            apposed = [k for k in range(head, m) if self.is_person(k) or self.word(k) in TITLE_WORDS]
            for k in apposed + list(range(m, end)):
                words_sex = self.gender(k, as_noun=k < m) if k != m else self.sex
                if k not in patient and words_sex == self.sex and reasons.get(k) in (
                        None, "other person", "agrees with something else"):
                    patient[k] = "pronoun" if k == m else ("role noun" if k < m else "agreement")
                reasons.pop(k, None)
            reasons.pop(head, None)
            self._determiners(head, None, patient)  # "Une pédiatre ..., elle-même patiente": the article

    def predeterminer(self, i: int) -> bool:
        """"tout"/"toute"/"tous"/"toutes" before a determiner opens a noun phrase ("surveillée toutes les heures")."""
        return self.word(i) in ("tout", "toute", "tous", "toutes") and self.word(i + 1) in DETERMINERS

    def short_quote(self, k: int) -> bool:
        """The quotation opened at k closes within five words."""
        return any(self.word(m) in ("»", '"') for m in range(k + 1, min(k + 7, len(self.t))))

    def patient_coordinated(self, i: int, patient: dict[int, str]) -> bool:
        """The sentence before i coordinates the patient with someone ("La pte et sa copine ont été agressées")."""
        return any(k in patient and self.word(k + 1) == "et" for k in range(self.sentence_start(i) + 1, i))

    def _person_states(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """A state only a person is in ("agitée", "inquiet", "conscient") that the reading gave to a thing is the
        patient's, when its sentence names no other person of the patient's sex (not right after a noun it may
        agree with: "transit ralenti", nor a verb: "elle s'inquiète")."""
        for i in range(len(self.t)):
            if reasons.get(i) != "agrees with something else" or self.word(i) not in PERSON_STATES \
                    or self.gender(i) != self.sex or self.may_agree_with_noun(i - 1, i) \
                    or self.word(i - 1) in CLITICS_BEFORE_VERB \
                    or self.word(i - 1) in DETERMINERS or self.word(i - 1) in AVOIR:
                continue    # "a prévenu le SAMU": a verb, not a state
            before = i - 1 - (self.word(i - 1) in ("tout", "toute"))
            if reasons.get(before) == "agrees with something else":
                continue    # "ça s'est arrêté tout seul": said of what the word before is said of
            start, end = self.sentence_start(i), i
            while end < len(self.t) and self.word(end) not in (".", ";", "!", "?", "\n"):
                end += 1
            own_complement = range(i + 1, i + 5) if self.word(i + 1) in ("de", "d'", "d’", "du", "par") else ()
            if any(k not in patient and k not in own_complement and self.is_noun(k) and self.is_person(k)
                   and self.gender(k, as_noun=True) in (self.sex, None) for k in range(start + 1, end)):
                continue
            patient[i] = "agreement"
            reasons.pop(i, None)

    def names_after(self, i: int) -> bool:
        """A verb of naming, or "comme" after "connu(e)" ("Connu de tout le quartier comme « le Doyen »")."""
        if self.word(i) == "comme":
            return any(self.word(k) in ("connu", "connue", "surnommé", "surnommée")
                       for k in range(max(0, i - 8), i))
        return self.word(i) in NAMING_WORDS

    def may_agree_with_noun(self, k: int, i: int) -> bool:
        """The word at k is a noun the adjective at i could agree with (gender and number fit): "transit ralenti"
        could, "fait ses courses seul" could not; after a complement ("Psychiatre de liaison prévenu") the head
        noun before it could."""
        if not self.is_noun(k):
            return False
        if self.word(k - 1) in ("de", "d'", "d’"):
            return True
        return self.gender(k, as_noun=True) in (self.gender(i), None) and not number_clash(self.word(i), self.word(k))

    def _nicknames(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """What the patient is called, in quotation marks after a verb of naming ("l'appellent « la Mamie du
        quatrième »", "dit « le Capitaine »", "Appelée « la Grande »"): its words of the patient's sex are the
        patient's, and so is a naming participle of that sex."""
        for i in range(len(self.t) - 1):
            if not self.names_after(i) or self.word(i + 1) not in ("«", '"') or not self.short_quote(i + 1) \
                    or self.word(i - 1) in AVOIR or self.word(i - 1) in ("lui", "leur", "me", "m'", "m’"):
                continue    # "il lui a dit « je suis épuisé »" quotes words, it names no one
            if NAMING_WORDS.get(self.word(i)) == self.sex:
                patient[i] = "agreement"
                reasons.pop(i, None)
            self._quoted_words(i + 2, patient, reasons)
        for i in range(4, len(self.t)):
            # the name quoted before "comme l'appellent ...": "« Tonton ___ », comme l'appellent les enfants"
            if self.word(i) in NAMING_WORDS and self.word(i - 1) in ("l'", "l’") and self.word(i - 2) == "comme" \
                    and self.word(i - 3) == "," and self.word(i - 4) in ("»", '"'):
                opening = next((k for k in range(i - 5, max(i - 10, -1), -1) if self.word(k) in ("«", '"')), None)
                if opening is not None:
                    self._quoted_words(opening + 1, patient, reasons)

    def _quoted_words(self, k: int, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """The words of the patient's sex in a short quoted name starting at k are the patient's."""
        for m in range(k, min(k + 4, len(self.t))):
            if self.word(m) in ("»", '"', "du", "de", "des"):
                break
            if ARTICLE_SEXES.get(self.word(m), self.gender(m)) == self.sex:
                patient[m] = "nickname"
                reasons.pop(m, None)

    def _fragments(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """A note's fragments: an adjective or participle of the patient's sex that opens a comma-separated
        segment ("Passager avant, ceinturé, ...", "chute de 3 m, consciente, ...") is detached, and a detached
        adjective is said of the sentence's subject: the patient's, when its sentence has named the patient before
        it, no other person of that sex comes between, and the segment before it cannot host it (it does not end
        with a noun of the adjective's gender and number: "douleur thoracique, constrictive" stays the pain's)."""
        for i in range(len(self.t)):
            if i in patient or reasons.get(i) not in (None, "agrees with something else"):
                continue
            j = i - 1
            while j >= 0 and self.word(j) in ("non", "pas", "très", "bien", "peu", "mal", "plus", "moins"):
                j -= 1
            if self.word(j) not in (",", "car") or self.gender(i) != self.sex or not self.is_adjective(i) \
                    or self.word(i).endswith(("ant", "ante")) or self.heads_noun_phrase(i):
                continue    # "criant": a present participle; "reprise spontanée": a noun
            start = self.sentence_start(j + 1)
            if not any(start < k < j for k in patient):
                continue
            if not self.segment_head_is_patient(j, patient) and (self.other_person_between(start, j, patient) or (
                    self.word(i) not in PERSON_STATES and self.segment_hosts(j, i))):
                continue
            patient[i] = "agreement"
            reasons.pop(i, None)

    def heads_noun_phrase(self, i: int) -> bool:
        """A word the Lefff has as a noun, before an adjective of its gender ("reprise spontanée", "moteur allumé";
        not a participle: "Greffé rénal", "Assise penchée"), or an adjective before its noun ("volumineux
        hématome")."""
        entry = self.lex.get(self.word(i))
        if self.before_its_noun(i, self.gender(i)):
            return True
        return bool(entry and entry.noun) and not self.word(i).endswith(PARTICIPLE_ENDINGS) \
            and self.is_adjective(i + 1) and self.gender(i + 1) == self.gender(i)

    def segment_head_is_patient(self, j: int, patient: dict[int, str]) -> bool:
        """The segment that the comma at j ends opens with a patient's word ("il plaisantait avec son fils, ...")."""
        seg = self.segment_start(j - 1)
        head = seg + 1
        while head < j and self.word(head) in ("non", "pas", "très", "bien", "peu", "mal"):
            head += 1
        return head in patient and self.word(seg) == ","

    def segment_start(self, k: int) -> int:
        """The comma or clause end before the segment that k is in ("8/10" is one number)."""
        seg = k
        while seg >= 0 and self.word(seg) != "," and (not self.clause_start(seg) or (
                self.word(seg) == "/" and self.word(seg - 1).isdigit())):
            seg -= 1
        return seg

    def other_person_between(self, start: int, j: int, patient: dict[int, str]) -> bool:
        """A person noun of the patient's sex between start and j that is not the patient ("Son fils, inquiet")."""
        return any(k not in patient and self.is_noun(k) and self.is_person(k)
                   and self.gender(k, as_noun=True) == self.sex for k in range(start + 1, j))

    def segment_hosts(self, j: int, i: int) -> bool:
        """Whether the segment that the comma at j ends could be what the adjective at i agrees with: it ends with
        a noun of the adjective's gender and number, adjectives after it passed over, that no preposition governs
        ("douleur thoracique, constrictive"; not "chute de 3 m, consciente" nor "FC 112, marbrée")."""
        k = j - 1
        while k >= 0 and (self.adverb(k) or (self.is_adjective(k) and not self.is_noun(k))
                          or self.word(k) in SIDE_ABBREVIATIONS) and self.word(k) not in (",", "et"):
            k -= 1
        if self.word(k) == "," and k < j - 1:
            return self.segment_hosts(k, i)     # a segment of adjectives only continues the one before it
        seg = self.segment_start(k)
        if any((self.is_finite_verb(v) and self.word(v - 1) != "y") or (
                self.word(v - 1) in SUBJECT_PRONOUNS and self.lex.get(self.word(v)) and self.lex.get(self.word(v)).finite_verb)
               for v in range(seg + 1, j)):     # a clause ("il y a un mois" is none)
            # a clause ("Elle cote la douleur à 8/10, majorée ..."): any noun of its may be the host
            return any(self.hosts(n, i) for n in range(seg + 1, j))
        if k < 0 or self.clause_start(k) or self.word(k).isdigit():
            return False
        return self.in_complement(k) is None and self.hosts(k, i)

    def hosts(self, k: int, i: int) -> bool:
        """The word at k is a noun, not a person, of the gender and number of the adjective at i."""
        return self.is_noun(k) and not self.is_person(k) and self.gender(k, as_noun=True) == self.gender(i) \
            and not number_clash(self.word(i), self.word(k))

    def _lists(self, patient: dict[int, str], reasons: dict[int, str]) -> None:
        """Every member of a list agrees as the patient's word that opens it ("Patiente agitée, désorientée, non
        coopérante", "retraitée, ancienne secrétaire", "opposante, très agitée, menaçante"): from a patient
        noun, role noun or adjective, the words after it (a comma, "et" or "ou" between; adverbs passed over)
        that are adjectives or role nouns of the patient's sex - or of no sex the Lefff knows, with the sex's
        ending - refer to the patient too. The list stops at any other word."""
        # an apposed role after a preposed adjective, opening a clause: "Patiente de 68 ans, ancienne comptable",
        # "retraitée, ancienne aide-soignante" (not after someone else's noun: "sa fille, ancienne infirmière")
        for k in range(len(self.t) - 1):
            w, noun = self.word(k), self.word(k + 1)
            if w not in PREPOSED or self.gender(k) != self.sex or not (k == 0 or self.word(k - 1) in (",", ".", ";", ":")):
                continue
            before = self.word(k - 2) if k >= 2 else ""
            if before in KINSHIP or reasons.get(k - 2) == "other person":
                continue
            entry = self.lex.get(noun)
            unknown_role = entry is None and noun.endswith(_LIST_ENDINGS[self.sex] + ("eur", "trice", "ier", "ière"))
            if not (self.is_person(k + 1) or unknown_role or noun.endswith(_EPICENE_ENDINGS + ("ante", "ant"))):
                continue
            patient[k] = "list"
            reasons.pop(k, None)
            noun_gender = None if noun.endswith(_EPICENE_ENDINGS) else self.gender(k + 1, as_noun=True)
            if (noun_gender == self.sex or unknown_role) and k + 1 not in patient:
                patient[k + 1] = "role noun"
                reasons.pop(k + 1, None)
        for start in sorted(patient):
            if patient[start] not in ("patient noun", "role noun", "agreement", "list"):
                continue
            k = start + 1
            linked = True   # right after a patient noun, an adjective is the patient's ("Patiente malvoyante")
            while k < len(self.t):
                w = self.word(k)
                if w in (",", "et", "ou") or w in ADVERBS or w in PREPOSED:
                    linked = linked or w in (",", "et", "ou")
                    if w in PREPOSED and self.gender(k) == self.sex and k not in patient:
                        patient[k] = "list"
                        reasons.pop(k, None)
                    k += 1
                    continue
                if not linked or not w[:1].isalpha() or w in FUNCTION_WORDS or w in DETERMINERS \
                        or self.predeterminer(k) \
                        or w in PREPOSITIONS or w in COPULAS or w in AVOIR or w in SUBJECT_PRONOUNS \
                        or self.heads_noun_phrase(k) or self.verb_with_complement(k):
                    # "..., halluciné, dernier verre il y a 2 jours": a noun phrase ends the list, and so does a
                    # present participle with its complement ("consultant pour entorse")
                    break
                g = None if w.endswith(_EPICENE_ENDINGS) else self.gender(k)
                entry = self.lex.get(w)
                known = entry is not None and (entry.adjective or entry.noun or entry.finite_verb or entry.infinitive)
                adjective = entry is not None and bool(entry.adjective)
                role = self.is_noun(k) and self.is_person(k)
                # a word the Lefff lacks, with an ending of adjectives or participles of the patient's sex,
                # ending the list member ("démente,", "non observante.")
                unknown = not known and w.endswith(_LIST_ENDINGS[self.sex]) and not w.endswith(_EPICENE_ENDINGS) and \
                    self.word(k + 1) in ("", ",", "et", "ou", ".", ";", ":", "!", "?", ")")
                if (g == self.sex and (adjective or role)) or unknown:
                    if k not in patient and reasons.get(k) in (None, "agrees with something else", "other person"):
                        patient[k] = "list"
                        reasons.pop(k, None)
                    if self.word(k + 1) in ("de", "d'", "d’", "du", "des", "à", "au", "aux", "par", "pour", "sans"):
                        break   # a complement ends the list ("cuisinière de métier")
                elif not (g is None and (self.is_adjective(k) or (not known and w.endswith(_EPICENE_ENDINGS)))):
                    break   # (an epicene adjective the Lefff lacks, "apyrétique", carries the list on)
                linked = False
                k += 1

    def _determiners(self, i: int, partner: set[int] | None, patient: dict[int, str] | None) -> None:
        j = i - 1
        while j >= 0 and (self.word(j) in PREPOSED or self.word(j) in ("un", "une", "le", "la", "ce", "cette")):
            if self.word(j) in ("un", "une", "le", "la", "ce", "cette") or self.gender(j) is not None:
                if partner is not None:
                    partner.add(j)
                elif patient is not None and ARTICLE_SEXES.get(self.word(j), self.gender(j)) == self.sex:
                    patient[j] = "determiner" if self.word(j) in ("un", "une", "le", "la", "ce", "cette") \
                        else "agreement"
            if self.word(j) in ("un", "une", "le", "la", "ce", "cette"):
                break
            j -= 1
        if partner is not None and self.word(i - 1) in POSSESSIVES:
            partner.add(i - 1)


# endings of adjectives of both genders ("mutique", "dyslipidémique", "stable")
_EPICENE_ENDINGS = ("ique", "ible", "able", "aire", "iste", "ile", "ide", "ome", "carde", "phe", "trope")
# endings of adjectives and participles of each sex, for words the Lefff lacks (list members only)
_LIST_ENDINGS = {"F": ("ée", "ie", "ue", "ive", "euse", "ante", "ente", "ise", "elle", "enne", "ète", "aise", "oise", "ale"),
                 "M": ("é", "i", "u", "if", "eux", "ant", "ent", "is", "el", "ien", "et", "ais", "ois", "al")}


def read(text: str, sex: str) -> tuple[list[Token], Reading]:
    """The tokens of a French original and which of them refer to the patient (of sex 'F' or 'M')."""
    toks = tokens(text)
    return toks, _Reader(toks, sex, lexicon()).read()
