"""Which French words agree in gender with the patient (or the patient's partner), from a spaCy parse.

For every adjective, past participle or role noun with a gender inflection (inflect_fr), the analysis finds
what it agrees with - its *controller* - and keeps the words whose controller is the patient or the partner:

* adjacency: an adjective right after a noun agrees with that noun ("transit ralenti", "douleur localisée",
  but "conductrice ceinturée", "Patiente agitée": person nouns);
* a participle conjugated with *avoir* does not agree with the subject ("elle a mangé"), only with an object
  clitic before it ("son fils l'a retrouvée"); a reflexive participle followed by its direct object does not
  agree ("elle s'est tordu la cheville"); "s'est fait" + infinitive is invariable;
* otherwise the parse decides: the word's own subject (predicates: "elle est inquiète", passives: "il a été
  vu"), the noun it modifies (amod/acl: "la patiente, inquiète"), the first conjunct ("inquiète et
  essoufflée"), the object clitic of the verb it completes ("son mari la trouve fatiguée"), else the subject
  of the clause it belongs to ("elle a pu marcher, aidée par un voisin"); a clause with no subject is about
  the patient ("Retrouvée allongée par son mari.").

Controllers: the pronouns il/elle and object clitics (the patient), patient/patiente, femme/homme,
Madame/Monsieur/Mme/M., role nouns used without a determiner ("conductrice ceinturée", "infirmière de
profession", "il est boulanger") and the partner nouns (mari, épouse, compagnon, ...). Relatives, carers and
staff ("sa voisine", "une infirmière") and things ("la cheville") are other controllers: their words are kept.

Also returned: object clitics la/le that refer to the patient ("son mari la trouve") and the determiners of a
role noun that describes the patient ("la piétonne").
"""

from __future__ import annotations

import functools
import json
import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Iterable

from biasmirror.counterfactuals import person_nouns_fr
from biasmirror.counterfactuals.inflect_fr import gender_of, is_adjective, to_feminine, to_masculine

__all__ = ["Agreeing", "analyse", "analyse_texts", "inflect"]

PATIENT_PRONOUNS = frozenset({"il", "elle", "lui", "elle-même", "lui-même"})
OBJECT_CLITICS = frozenset({"l'", "l’", "la", "le"})
PATIENT_NOUNS = frozenset({
    "patient", "patiente", "pt", "pte", "femme", "homme", "monsieur", "madame", "mademoiselle", "m.", "mme", "mme.", "mlle", "mlle.", "mr", "mr.", "___",
    "diabétique", "cycliste", "tabagique", "asthmatique", "épileptique", "alcoolique", "personne", "dame",
    "victime", "blessé", "blessée", "malade", "jeune", "sujet", "toxicomane", "héroïnomane",
})
PARTNER_NOUNS = frozenset({
    "mari", "époux", "épouse", "compagnon", "compagne", "conjoint", "conjointe", "concubin", "concubine",
    "copain", "copine", "ami", "amie", "fiancé", "fiancée",
})
# role nouns of two genders, "ex-" forms included: the one lexicon the reading shares (person_nouns_fr.py)
ROLE_NOUNS = person_nouns_fr.forms()
OTHER_PEOPLE = person_nouns_fr.kinship_forms() | frozenset({
    "voisin", "voisine", "enfant", "enfants", "médecin", "pompiers", "famille", "entourage", "ami", "amie",
})
AGE_NOUNS = frozenset({"ans", "an", "mois", "semaines", "jours"})
AVOIR = frozenset({"a", "ai", "as", "avait", "avaient", "avons", "avez", "ont", "aura", "aurait", "auraient",
                   "avoir", "ayant", "eu", "aurai", "avais", "ait", "aient", "aies", "eût", "aurions"})
ETRE = frozenset({"est", "était", "sont", "étaient", "sera", "serait", "fut", "soit", "être", "été", "étant",
                  "suis", "es", "serai"})
ADVERBS = frozenset({"pas", "bien", "déjà", "jamais", "plus", "très", "beaucoup", "rien", "tout", "aussi",
                     "toujours", "souvent", "mal", "vite", "encore", "alors", "ensuite", "probablement",
                     "finalement", "également", "ne", "n'", "n’", "y", "en", "peut-être", "brutalement"})
TIME_NOUNS = frozenset({"nuit", "veille", "matin", "soir", "journée", "semaine", "matinée", "soirée", "lendemain",
                        "jour", "fois", "an", "année", "mois", "après-midi", "week-end", "hier"})
DETERMINERS = frozenset({"le", "la", "l'", "l’", "les", "un", "une", "des", "du", "de", "d'", "d’", "ce", "cet",
                         "cette", "ces", "son", "sa", "ses", "mon", "ma", "mes", "leur", "leurs", "au", "aux",
                         "quelque", "chaque", "aucun", "aucune"})
POSSESSIVES = frozenset({"son", "sa", "ses", "leur", "leurs", "mon", "ma", "mes", "ton", "ta"})
DET_SWAP = {"le": "la", "la": "le", "un": "une", "une": "un", "ce": "cette", "cet": "cette", "cette": "ce",
            "son": "sa", "sa": "son", "mon": "ma", "ma": "mon", "du": "de la", "au": "à la"}
SUBJECT_DEPS = ("nsubj", "nsubj:pass", "expl:subj")
_IMPLICIT = "implicit"


@dataclass(frozen=True)
class Agreeing:
    """A word that agrees with the patient or partner: character span, form, the gender it carries, the new
    form for the other gender, what it agrees with ('patient' or 'partner') and why (a short category)."""

    start: int
    end: int
    text: str
    gender: str  # F or M
    replacement: str
    controller: str  # patient | partner
    reason: str


def _lower(token: Any) -> str:
    return token.text.lower().replace("’", "'")


def _is_plural(token: Any) -> bool:
    """Plural by the parse, and by its form: a French plural ends in -s, -x or -z, so a "Plur" tag on
    "handicapé" is a tagging error."""
    low = token.text.lower()
    if not ("Plur" in token.morph.get("Number") and low.endswith(("s", "x", "z"))):
        return False
    if (low.endswith("s") and to_feminine(low) == low + "e") or (low.endswith("x") and to_feminine(low) == low[:-1] + "se"):
        # "assis", "confus", "anxieux": a masculine singular in -s or -x; plural only after a plural word
        prev = token.nbor(-1) if token.i > token.sent.start else None
        return prev is not None and (_lower(prev) in ("les", "des", "ses", "leurs", "mes", "ces", "aux", "nos")
                                     or ("Plur" in prev.morph.get("Number") and _lower(prev).endswith(("s", "x"))))
    return True


# the role-noun lexicon's own pairs, and the parts of its hyphenated ones ("sapeuse-pompière": sapeuse/sapeur,
# pompière/pompier), read before the suffix rules (round 9: "-euse" -> "-eur", nouns the rules leave alone)
_ROLE_PAIRS = {f: m for f, m in person_nouns_fr.ROLE_NOUNS} | {m: f for f, m in person_nouns_fr.ROLE_NOUNS}
_ROLE_PART_PAIRS = {a: (b, sex) for f, m in person_nouns_fr.ROLE_NOUNS if f.count("-") == m.count("-") > 0
                    for x, y in zip(f.split("-"), m.split("-")) if x != y
                    for a, b, sex in ((x, y, "F"), (y, x, "M"))}
_ROLE_SEXES = person_nouns_fr.sexes()


def inflect(word: str, gender: str) -> str | None:
    """The other-gender form of ``word`` (lower case) that carries ``gender``."""
    if word in _ROLE_PAIRS and _ROLE_SEXES.get(word) == gender:
        return _ROLE_PAIRS[word]
    if word in _ROLE_PART_PAIRS and _ROLE_PART_PAIRS[word][1] == gender:
        return _ROLE_PART_PAIRS[word][0]
    return to_masculine(word) if gender == "F" else to_feminine(word)


def _match_case(source: str, replacement: str) -> str:
    if source.isupper() and len(source) > 1:
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


_NOT_AGREEING_POS = frozenset({"PRON", "DET", "ADP", "CCONJ", "SCONJ", "AUX", "NUM", "PUNCT", "SYM", "ADV", "PART", "INTJ"})


def _abbreviation(token: Any) -> bool:
    """A short word in capitals ("FC", "BU", "FR") is an abbreviation of the notes, not an adjective ("fc" would
    give "fque", "bu" "bue")."""
    text = token.text
    return text.isalpha() and text.isupper() and len(text) <= 3


# articles that open a direct object (not "de"/"du": "non observante du traitement" takes a complement)
_OBJECT_ARTICLES = frozenset({"le", "la", "l'", "l’", "les", "un", "une"}) | POSSESSIVES


def _participle_with_object(token: Any) -> bool:
    """Round 17: a present participle followed by its direct object is a verb, which does not inflect ("frappant le
    personnel", "insultant les soignants")."""
    doc = token.doc
    return _lower(token).endswith("ant") and token.i + 1 < len(doc) and _lower(doc[token.i + 1]) in _OBJECT_ARTICLES


def _candidate(token: Any) -> str | None:
    """The gender of an adjective / participle / role noun that can agree with a person, else None."""
    word = _lower(token)
    if word in ("et", "ou", "mais", "est"):
        return None
    if word.endswith("er") and _is_verb(word) and not is_adjective(word):
        return None  # an infinitive ("l'a entendue crier"), not a masculine in -er
    plural = _is_plural(token) and not (word.endswith("eux") and gender_of(word) == "M")  # "anxieux": singular too
    if not word[:1].isalpha() or plural or word in PATIENT_PRONOUNS or word.endswith("ment") or _abbreviation(token):
        return None
    gender = gender_of(word) or _ROLE_SEXES.get(word)
    compound = _compound(token)
    if gender is None and compound in ROLE_NOUNS and word in _ROLE_PART_PAIRS:
        gender = _ROLE_PART_PAIRS[word][1]  # "sapeuse-pompière": the tail of a role noun of the lexicon
    if gender is None:
        return None
    if word.endswith("ant") and token.i > 0 and _lower(token.nbor(-1)) == "en":
        return None  # a gerund, also when it is a role noun's form ("en aidant un patient")
    if word in ROLE_NOUNS:
        return gender
    if _is_noun_only(word):
        return None
    if _unknown_other_form(word, gender):
        return None  # "moite" (*moit), "vit" (*vite): the suffix rule made a word that does not exist
    pos = token.pos_
    prev = token.nbor(-1) if token.i > token.sent.start else None
    prev_word = _lower(prev) if prev is not None else ""
    nxt = token.doc[token.i + 1] if token.i + 1 < token.sent.end else None
    if prev_word in DETERMINERS and nxt is not None and (nxt.pos_ == "NOUN" or _is_noun_only(_lower(nxt))) \
            and _lower(nxt) not in ROLE_NOUNS and word not in _PRENOMINAL:
        return None  # "du second degré": an adjective between an article and its noun agrees with the noun
    if prev_word == "en" and word.endswith("ant"):
        return None  # a gerund ("en tombant")
    if _fixed_word(token, word, prev_word, nxt):
        return None
    if word in ("tout", "toute") and nxt is not None and _lower(nxt) in ("seul", "seule"):
        return gender  # "tombée toute seule" (tagged as a determiner): agrees as "seule" does
    if prev_word in ("sous", "sans") and word in _noun_forms():
        return None  # "hospitalisé sous contrainte": a noun after a bare preposition
    if _compound(token) in ROLE_NOUNS:
        return gender
    if word.endswith(("ant", "ante")) and (not _listed_participle(token) or _participle_with_object(token)):
        return None
    if prev_word in ("il", "elle", "on", "ils", "elles") and _is_verb(word):
        return None  # "elle décrit une douleur": right after its subject, a verb form is finite
    if pos == "VERB":
        forms = token.morph.get("VerbForm")
        if "Inf" in forms:
            return None
        if "Part" in forms and "Pres" in token.morph.get("Tense") and not is_adjective(word) \
                and not _listed_participle(token):
            return None
        if "Fin" in forms and not (_auxiliary(token) is not None or (is_adjective(word) and word.endswith(("é", "ée")))
                                   or (is_adjective(word) and not _is_verb(word))):
            return None
        return gender
    if prev_word in ("il", "elle", "on") and _is_verb(word) and not word.endswith(("é", "ée", "i", "ie", "u", "ue", "is", "ise")):
        return None  # "elle décrit une douleur": a finite verb tagged as an adjective
    if pos == "ADJ":
        return gender
    if prev_word in ETRE and prev.i > token.sent.start and _lower(prev.nbor(-1)) in ("s'", "s’", "se") \
            and is_adjective(word):
        return gender  # round 17: after a reflexive auxiliary, a participle whatever its tag ("s'est endormi")
    if pos in _NOT_AGREEING_POS - {"PRON", "ADV", "INTJ", "SYM"} or word in ("elle", "il", "lui", "le", "la"):
        return None
    # a noun, proper noun, pronoun or adverb tag on a known adjective or participle: a tagging error
    copula = [c.i for c in token.children if c.dep_ == "cop" and c.i < token.i]
    if prev_word in DETERMINERS or any(child.dep_ == "det" and _lower(child) in DETERMINERS
                                       and not any(child.i < c for c in copula) for child in token.children):
        return None  # (a copula between them is a parse slip: "la petite est geignarde" is no noun phrase)
    if prev is not None and prev.pos_ == "ADP" and pos == "NOUN":
        return None
    if is_adjective(word) or word.endswith("ée") or (word.endswith(("ant", "ante")) and _listed_participle(token)):
        return gender  # "non observante du traitement" tagged as a noun
    return None


# "tout" as a pronoun or in a fixed phrase ("fatigué de tout", "tout de suite", "tout à fait") has no gender
_TOUT_PRONOUN_BEFORE = frozenset({"de", "du", "en", "malgré", "avant", "après", "pour", "sur", "à"})


def _fixed_word(token: Any, word: str, prev_word: str, nxt: Any | None) -> bool:
    """Round 9: forms that look like a person's agreeing word but are not one - a verb of saying before its
    clause ("son ami dit qu'elle ..."), the noun object right after its verb ("porter plainte") or after
    "toute" ("toute prise de toxiques"), "tout(e)" before a noun, "tout" as a pronoun or in a fixed phrase."""
    after = _lower(nxt) if nxt is not None else ""
    if word == "dit" and (after in ("que", "qu'", ":") or after.startswith("-")):  # "dit-elle"
        return True
    if word == "dit" and nxt is not None and (after in ("ne", "n'", "n’", "se", "s'", "s’", "y", "en", "l'", "l’")
                                              or "Inf" in nxt.morph.get("VerbForm") or after in ("avoir", "être")):
        return True  # the verb before an infinitive: "Dit avoir pris 20 comprimés", "dit ne pas avoir vu"
    if token.pos_ == "NOUN" and token.dep_ == "obj" and token.head.i == token.i - 1 and token.head.pos_ == "VERB" \
            and word in _noun_forms():
        return True
    if prev_word in ("tout", "toute") and token.pos_ == "NOUN" and word in _noun_forms():
        return True
    if word == "nouveau" and prev_word in ("de", "à"):
        return True  # the adverbs "de nouveau", "à nouveau"
    if word in ("tout", "toute"):
        if nxt is not None and nxt.pos_ == "NOUN" and after in _noun_forms() and not is_adjective(after):
            return True
        if prev_word in _TOUT_PRONOUN_BEFORE and after not in ("seul", "seule"):
            return True
        doc = token.doc
        later = _lower(doc[token.i + 2]) if token.i + 2 < len(doc) else ""
        if (after, later) in (("de", "suite"), ("à", "fait"), ("à", "coup"), ("le", "temps"), ("de", "même")):
            return True
    return False


def _unknown_other_form(word: str, gender: str) -> bool:
    """Whether the other-gender form of ``word`` is no known French word (adjective, verb form or noun) while
    ``word`` is one: then ``word`` has no gender inflection. Needs spaCy's lemma tables (else False)."""
    from biasmirror.counterfactuals.nlp import french_lemma_tables

    if french_lemma_tables() is None:
        return False
    other = inflect(word, gender)
    if other is None or is_adjective(other) or other in _noun_forms() or _is_verb(other) or word.endswith("ant"):
        return False  # (a present participle's feminine in -ante is regular, though the tables lack it)
    return is_adjective(word) or _is_verb(word) or word in _noun_forms()


def _compound(token: Any) -> str:
    """'aide-soignante' when spaCy split it into 'aide', '-', 'soignante' (the token is the last part)."""
    doc, i = token.doc, token.i
    if i >= 2 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_ and not doc[i - 2].whitespace_:
        return f"{_lower(doc[i - 2])}-{_lower(token)}"
    return _lower(token)


def _noun_forms() -> frozenset[str]:
    from biasmirror.counterfactuals.nlp import french_noun_forms

    return french_noun_forms()


def _is_noun_only(word: str) -> bool:
    """A known noun that is not also a known adjective ('dyspnée', 'toux', 'hypochondre', 'anxiété')."""
    from biasmirror.counterfactuals.nlp import french_noun_forms

    return (word in french_noun_forms() and not is_adjective(word) and word not in ROLE_NOUNS and not _is_verb(word)
            and word not in ADVERBS and word not in ("non", "plus", "moins", "pas", "très", "trop", "si"))


def _is_verb(word: str) -> bool:
    from biasmirror.counterfactuals.nlp import is_french_verb_form

    return is_french_verb_form(word)


def _lexical_clitic(token: Any) -> Any | None:
    """The object clitic of the verb right before ``token`` when the parse missed it: 'son mari la trouve
    fatiguée' (a verb tagged as a noun), 'l'a retrouvé confus'."""
    doc, i = token.doc, token.i - 1
    while i > token.sent.start and _lower(doc[i]) in ADVERBS:
        i -= 1
    if i <= token.sent.start:
        return None
    verb = _lower(doc[i])
    if not _is_verb(verb) and gender_of(verb) is None:
        return None
    j = i - 1
    while j > token.sent.start and _lower(doc[j]) in AVOIR | ETRE | ADVERBS:
        j -= 1
    if j >= token.sent.start and _lower(doc[j]) in OBJECT_CLITICS and (j == token.sent.start or doc[j - 1].pos_ != "ADP"):
        return doc[j]
    return None


# Participles that describe a symptom in notes ("une oppression thoracique, apparue au repos", "douleur ...,
# irradiant dans le bras"): after a comma they agree with the symptom noun of their clause when one of their
# gender precedes, not with the patient.
SYMPTOM_PARTICIPLES = frozenset({"apparu", "survenu", "irradiant", "majoré", "aggravé", "déclenché", "calmé", "cédé",
                                 "localisé", "associé", "rythmé", "résolutif", "persistant", "intermittent",
                                 "permanent", "diffus", "améliorée", "amélioré", "aggravée", "majorée", "apparue",
                                 "survenue", "localisée", "associée", "rythmée", "calmée", "déclenchée"})


# participles said of a person, never of a symptom or a fall: after "Chute chez sa fille," they are the patient's
PERSON_PARTICIPLES = frozenset({"retrouvé", "amené", "ramené", "adressé", "transporté", "conduit", "accompagné",
                                "hospitalisé", "transféré", "admis", "relevé", "découvert", "secouru", "réveillé"})


def _symptom_noun(token: Any) -> Any | None:
    word = _lower(token)
    masculine = to_masculine(word) or word
    if word not in SYMPTOM_PARTICIPLES and masculine not in SYMPTOM_PARTICIPLES:
        return None
    gender = token.morph.get("Gender") or (["Fem"] if gender_of(word) == "F" else ["Masc"])
    for i in range(token.i - 1, token.sent.start - 1, -1):
        other = token.doc[i]
        if other.pos_ == "NOUN" and _person_kind(other) is None and not _is_plural(other) \
                and other.morph.get("Gender") == gender:
            return other
    return None


def _listed_participle(token: Any) -> bool:
    """A present participle used as an adjective of a person: coordinated with another adjective ('fiévreux et
    frissonnant', 'calme, coopérant'), after a person noun or a copula ('il est souriant'). Elsewhere it is a
    verb ('douleur ..., irradiant dans le bras')."""
    doc, i = token.doc, token.i - 1
    if i >= token.sent.start and _lower(doc[i]) == "non":
        return True       # "non observant", "non communicante": a negated participle is an adjective
    while i > token.sent.start and (_lower(doc[i]) in ADVERBS or _lower(doc[i]) in _LIST_ADVERBS):
        i -= 1            # "il est toujours très toussant", "non observant"
    if i < token.sent.start:
        return False
    prev = doc[i]
    word = _lower(prev)
    if word in ETRE or word in PATIENT_NOUNS or word in ROLE_NOUNS or word in ("reste", "semble", "paraît", "sent", "dit") \
            or _epicene_patient(prev):
        return True  # (also after an epicene noun that names the patient: "Photographe indépendant, il ...")
    if word in ("et", "mais", "ou", ","):
        before = doc[i - 1] if i - 1 >= token.sent.start else None
        if before is not None and _lower(before) in ROLE_NOUNS:
            return True   # "gros fumeur, peu observant"
        return before is not None and before.pos_ != "NOUN" and (before.pos_ == "ADJ" or is_adjective(_lower(before))) \
            and not _is_noun_only(_lower(before))
    return False


# Round 16: what happens to a patient in the emergency department (masculine participles): a role noun that is the
# subject of one of them is the patient, whatever their trade ("Le pédiatre de garde, pris d'un malaise, est installé
# en box 3", "la docteure ___, anesthésiste, est examinée", "Une touriste allemande ... est amenée par la police")
_PATIENT_EVENTS = frozenset({"admis", "installé", "examiné", "amené", "ramené", "hospitalisé", "brancardé", "intubé", "perfusé", "réanimé", "désincarcéré", "évacué", "hélitreuillé",
                             "transporté", "conduit", "suturé", "plâtré", "opéré", "sondé"})
_ROLE_SUBJECT_DETS = frozenset({"le", "la", "l'", "un", "une"})


def _skip_subject_tail(doc: Any, k: int) -> int:
    """Past what may follow a subject noun before its verb: the name placeholder, a complement without article
    ("de garde"), an adjective, and incises between commas ("___, anesthésiste,", ", perdue et déshydratée,")."""
    while k < len(doc):
        word = _lower(doc[k])
        if word in ("___", "_") or doc[k].pos_ == "ADJ" or (word == "de" and k + 1 < len(doc) and doc[k + 1].pos_ == "NOUN"):
            k += 2 if word == "de" else 1
        elif word == ",":
            j = k + 1
            while j < len(doc) and doc[j].text != "," and doc[j].text not in _CLAUSE_BREAKS:
                j += 1
            if j >= len(doc) or doc[j].text != ",":
                return k
            k = j + 1
        else:
            return k
    return k


def _subject_of_patient_event(token: Any) -> bool:
    """The role noun, after an article, is the subject of "est admis", "est installé", "a été amené", "est arrivé
    conscient" (a person's state after the arrival): the patient of the note."""
    doc, i = token.doc, token.i
    if i == 0 or _lower(doc[i - 1]) not in _ROLE_SUBJECT_DETS or (i >= 2 and _lower(doc[i - 2]) in ("par", "avec", "à")):
        return False
    k = _skip_subject_tail(doc, i + 1)
    while k < len(doc) and _lower(doc[k]) in ETRE | AVOIR | {"ne", "n'", "pas", "elle-même", "lui-même"} | ADVERBS:
        k += 1
    if k >= len(doc):
        return False
    participle = to_masculine(_lower(doc[k])) or _lower(doc[k])
    after = _lower(doc[k + 1]) if k + 1 < len(doc) else ""
    if participle in _PATIENT_EVENTS or (participle == "venu" and after in ("pour", "consulter")):
        return _lower(doc[k - 1]) in ETRE | {"été", "elle-même", "lui-même"}  # ("est lui-même venu pour ...")
    return participle == "arrivé" and (to_masculine(after) or after) in PERSON_STATES


def _role_is_patient(token: Any) -> bool:
    """A role noun describes the patient when bare ('conductrice ceinturée', 'infirmière de profession') or a
    definite, sentence-initial subject without complement ('Le piéton a été renversé')."""
    doc = token.doc
    if _subject_of_patient_event(token):
        return True
    first = token
    if token.i >= 2 and doc[token.i - 1].text == "-" and not doc[token.i - 1].whitespace_ \
            and not doc[token.i - 2].whitespace_:
        first = doc[token.i - 2]  # "aide-soignante" split into "aide", "-", "soignante": the first part's article
    after = token.i + 1
    if after + 1 < token.sent.end and _lower(doc[after]) in OBJECT_CLITICS and (
            _is_verb(_lower(doc[after + 1])) or _lower(doc[after + 1]) in _JUDGING_VERBS | AVOIR):
        return False  # "L'aide-soignante la trouve pâle": the subject acting on the patient, someone else
    dets = [c for c in token.children if c.dep_ == "det"] + ([c for c in first.children if c.dep_ == "det"]
                                                              if first is not token else [])
    if not dets and first is not token and first.i > token.sent.start and _lower(doc[first.i - 1]) in DETERMINERS:
        dets = [doc[first.i - 1]]
    if not dets:
        prev = first.nbor(-1) if first.i > token.sent.start else None
        if _speaker_label(token) or _apposed_to_other(first) or _writer_role(token):
            return False
        return prev is None or _lower(prev) not in DETERMINERS | {"par", "avec"}
    det = _lower(dets[0])
    if det in ("le", "la", "l'") and (dets[0].i == token.sent.start or _aged_apposition(token)) and first is token:
        return not any(c.dep_ == "nmod" for c in token.children)
    return False


def _aged_apposition(token: Any) -> bool:
    """A role noun followed by the person's age between commas is the patient's description ("Seule personne
    présente dans le véhicule, le conducteur, âgé de 60 ans, a été désincarcéré"; "la cycliste, 30 ans, ...")."""
    doc, i = token.doc, token.i
    if i + 3 >= len(doc) or doc[i + 1].text != ",":
        return False
    word = _lower(doc[i + 2])
    if (to_masculine(word) or word) == "âgé":
        return _lower(doc[i + 3]) == "de" and i + 4 < len(doc) and doc[i + 4].like_num
    return doc[i + 2].like_num and _lower(doc[i + 3]) in AGE_NOUNS


def _writer_role(token: Any) -> bool:
    """A role noun opening the sentence whose clause, after the comma, is in the first person names the nurse who
    writes, not the patient: "Infirmier de nuit, j'ai dû le recoucher trois fois"."""
    doc = token.doc
    for k in range(token.i + 1, min(token.i + 8, len(doc) - 1)):
        if doc[k].text == ",":
            return _lower(doc[k + 1]) in ("je", "j'", "j’")
        if doc[k].pos_ in ("VERB", "AUX") or doc[k].text in _CLAUSE_BREAKS:
            return False
    return False


def _speaker_label(token: Any) -> bool:
    """'Aide-soignante de l'EHPAD : patiente retrouvée ...': a role noun opening a label (a colon follows before
    any verb) names who speaks, not the patient."""
    doc = token.doc
    for k in range(token.i + 1, min(token.i + 8, token.sent.end)):
        if doc[k].text == ":":
            return token.i <= token.sent.start + 2
        if doc[k].pos_ in ("VERB", "AUX") or doc[k].text in (",", "."):
            return False
    return False


def _apposed_to_other(token: Any) -> bool:
    """'sa fille, infirmière, ...': a bare role noun after a comma that follows someone else's noun."""
    doc, k = token.doc, token.i - 1
    if k <= token.sent.start or doc[k].text != ",":
        return False
    before = doc[k - 1]
    word = _lower(before)
    if k - 2 >= token.sent.start and _lower(doc[k - 2]) in ("sans", "aucun", "aucune", "pas"):
        return False  # "sans enfant, étudiante en droit": nobody is named
    if _is_plural(before) and not _is_plural(token):
        return False  # round 17: "père de trois enfants, sportif": a singular noun is no plural noun's apposition
    if word in OTHER_PEOPLE or word in _KIN:
        return True
    return before.pos_ == "NOUN" and word not in PATIENT_NOUNS and word not in PARTNER_NOUNS \
        and any(c.dep_ == "det" and _lower(c) in POSSESSIVES for c in before.children) \
        and word not in ROLE_NOUNS


# staff titles with one form for both sexes (the gendered ones are role nouns): "l'interne", "l'IDE", "le Dr ___"
_STAFF_TITLES = frozenset({"interne", "externe", "ide", "dr", "docteur", "sage-femme", "urgentiste", "régulateur",
                           "régulatrice"})
_FEMININE_DETS = frozenset({"la", "une", "sa", "cette", "ma"})
_MASCULINE_DETS = frozenset({"le", "un", "ce", "cet", "mon"})


def _other_person_gender(token: Any) -> str | None:
    """'F'/'M' (or '?' when the words do not say) for a relative's or staff member's noun, else None."""
    word = _compound(token) if _compound(token) in OTHER_PEOPLE | ROLE_NOUNS else _lower(token)
    if word not in OTHER_PEOPLE | ROLE_NOUNS | _STAFF_TITLES:
        return None
    if word in KINSHIP_PAIRS:
        return "F"
    if word in _KIN:
        return "M"
    sexes = person_nouns_fr.sexes()
    if word in sexes:
        return sexes[word]
    if gender_of(word) is not None:
        return gender_of(word)
    det = _lower(token.doc[token.i - 1]) if token.i > 0 else ""
    after = _lower(token.doc[token.i + 1]) if token.i + 1 < len(token.doc) else ""
    return "F" if det in _FEMININE_DETS or gender_of(after) == "F" else \
        "M" if det in _MASCULINE_DETS or gender_of(after) == "M" else "?"


def _after_staff_title(token: Any) -> bool:
    """Whether a placeholder token ('___', or one of its '_') follows a staff title ("le Dr ___")."""
    k = token.i - 1
    while k >= 0 and _lower(token.doc[k]).strip("_") == "":
        k -= 1
    return k >= 0 and _lower(token.doc[k]) in _STAFF_TITLES


def _speaker_after_colon(token: Any) -> bool:
    """Whether 'il'/'elle' opening the clause after a colon takes up the relative or staff member the clause
    before it names, with nothing in that clause about the patient (round 12: "Appel de sa sœur : elle est
    passée la voir", "L'interne a appelé : il signale une chute")."""
    doc, i = token.doc, token.i  # (the doc is one sentence: spaCy may start another after the colon)
    word = _lower(token)
    if word not in ("il", "elle") or i < 2 or doc[i - 1].text != ":":
        return False
    before = doc[: i - 1]
    if any(t.text in (":", ".", ";") for t in before):
        return False
    people = set()
    for t in before:
        low = _lower(t)
        if low in PATIENT_PRONOUNS or low in PATIENT_NOUNS or (low in OBJECT_CLITICS and t.pos_ == "PRON"):
            return False  # the patient is in the clause: the pronoun may be the patient's
        if low.strip("_") == "" and not _after_staff_title(t):
            return False  # a name placeholder that is not a doctor's
        gender = _other_person_gender(t)
        if gender is not None:
            people.add(gender)
    pronoun = "F" if word == "elle" else "M"
    return len(people) == 1 and people <= {pronoun, "?"} and _reports_on_patient(token)


# what a caller or an examiner does after "Appel de ... :", "Examen par ... :" (besides the speech verbs)
_FINDING_VERBS = frozenset({"signale", "note", "constate", "retrouve", "trouve", "décrit", "précise"})


def _reports_on_patient(pronoun: Any) -> bool:
    """Whether the clause 'il'/'elle' opens reports on the patient (a reporting or finding verb: "elle signale
    ...", "il ne retrouve pas ...") or acts on the patient (an object pronoun: "elle est passée la voir"), so the
    pronoun is not the patient's ("Appel de l'aide-soignante : elle a été retrouvée au sol" is)."""
    doc = pronoun.doc
    for t in doc[pronoun.i + 1:]:
        if t.text in (",", ";", ".", ":"):
            return False
        if _lower(t) in _SPEECH_VERBS | _FINDING_VERBS or (_lower(t) in OBJECT_CLITICS and _is_object_clitic(t)):
            return True
    return False


def _person_kind(token: Any) -> str | None:
    """'patient', 'partner' or None (another person or a thing) for a controller token."""
    word = _lower(token)
    if _speaker_after_colon(token):
        return None
    if word == "il" and token.i + 2 < len(token.doc) and _lower(token.nbor(1)) in ("lui", "leur") \
            and _lower(token.nbor(2)) in AVOIR | ETRE:
        return None  # the impersonal "il lui a été conseillé de ...", "il leur est demandé de ..."
    if _impersonal_il(token):
        return None  # "il y a": nobody
    if word == "il" and token.i + 2 < len(token.doc) and _lower(token.nbor(1)) in ETRE \
            and _lower(token.nbor(2)) in _impersonal_complements():
        return None  # "il est prévu de la revoir": the lexicon's impersonal "il", whose participle does not agree
    if word in PATIENT_PRONOUNS or (word in OBJECT_CLITICS and (token.pos_ == "PRON" or (
            token.i + 1 < len(token.doc) and _lower(token.nbor(1)) in AVOIR and word in ("l'", "l’")))):
        return "patient"  # (also "l'" tagged as an article before its auxiliary: "et l'a amenée")
    if word in ("-il", "-elle") or (word.endswith(("-il", "-elle")) and (
            token.pos_ == "PRON" or word.split("-")[0] in ETRE | AVOIR)):
        return "patient"  # an inverted subject: "a-t-il été vacciné", "Est-elle capable ...", "Est-il resté seul"
    if word in _FIRST_PERSON and _patient_quote(token):
        return "patient"  # "« je suis tombée toute seule », dit-elle": the patient speaks
    if _other_patient(token):
        return None  # "agressée par un patient agité": another patient's words keep their form
    if word in PARTNER_NOUNS | {"femme", "homme"} and any(
            token in _other_patient(t) for t in token.doc[token.i + 2: token.i + 4]):
        return None  # "l'époux de la dame du lit 4 est venu": another patient's partner
    prev = token.nbor(-1) if token.i > token.sent.start else None
    after_possessive = prev is not None and _lower(prev) in POSSESSIVES
    if word == "femme" and after_possessive:
        return "partner"
    if word in PARTNER_NOUNS and (after_possessive or word not in ("ami", "amie")):
        if word in ("ami", "amie") and not (prev is not None and _lower(prev) in ("petit", "petite")):
            return None
        return "partner"
    if word in ("ami", "amie") and prev is not None and _lower(prev) in ("petit", "petite"):
        return "partner"
    if word in PATIENT_NOUNS and not after_possessive:
        return "patient"
    if (word in _FAMILIAR and prev is not None and _lower(prev) in ("le", "la")) or _child_patient(token) \
            or _epicene_patient(token) or _little_one(token):
        return "patient"  # "la mamie du lit 4 est agitée", "le garçon est tombé"
    if word in _KIN and prev is not None and _lower(prev) in ("sa", "son", "leur") \
            and _named_by_child(token.doc, token.i, word):
        return "patient"  # "Son fils, persuadé que sa mère a été mal soignée"
    if word in _KIN and token.i == token.sent.start and token.i + 2 < len(token.doc) \
            and _lower(token.doc[token.i + 1]) == "de" and token.doc[token.i + 2].like_num:
        return "patient"  # "Grand-mère de 80 ans amenée par ...": the patient named by a kinship noun
    if word in ("ans", "_") and not after_possessive:
        return "patient"  # "Mme ___, 72 ans, connue pour HTA": the age (or the name placeholder) stands for her
    if word in ROLE_NOUNS and _role_is_patient(token):
        return "patient"
    if word in _TITLES and _title_is_patient(token):
        return "patient"  # "Le Dr ___ ... est admis": the titled patient's predicates
    if gender_of(word) is not None and is_adjective(word) and token.pos_ in ("PROPN", "ADJ", "VERB") \
            and token.i == token.sent.start:
        return "patient"  # a subjectless opening participle read as a name ("Retrouvée allongée ...")
    return None


@functools.lru_cache(maxsize=1)
def _impersonal_complements() -> frozenset[str]:
    """The lexicon's complements after which "il est" is impersonal ("il est prévu de", "il est possible que")."""
    from importlib import resources

    path = resources.files("biasmirror.counterfactuals").joinpath("lexicons", "fr.json")
    words = json.loads(path.read_text(encoding="utf-8"))["word_classes"]["impersonal_complements"]
    return frozenset(w.lower() for w in words)


# infinitives that are also nouns after "le"/"la": "a pris le dîner", "au lever"
_INFINITIVE_NOUNS = frozenset({"dîner", "déjeuner", "souper", "goûter", "coucher", "lever", "devoir", "pouvoir",
                               "savoir", "rire", "sourire", "être", "avoir", "vouloir", "boire", "manger", "toucher",
                               "loisir", "plaisir", "cuir", "soir", "espoir", "miroir", "trottoir", "couloir",
                               "mouchoir", "tiroir", "dortoir", "rasoir", "arrosoir", "peignoir", "comptoir", "noir",
                               "père", "frère", "mère", "air", "fer", "hiver", "cancer", "ulcère", "lumière"})
_INVERTED = frozenset({"-il", "-elle", "-t", "-t-il", "-t-elle"})
_FIRST_PERSON = frozenset({"je", "j'", "moi", "moi-même", "m'", "me"})
_SPEECH_VERBS = frozenset({"dit", "disait", "répète", "répétait", "affirme", "affirmait", "explique", "expliquait",
                           "raconte", "racontait", "déclare", "rapporte", "ajoute", "précise", "confie", "lance",
                           "crie", "hurle", "murmure", "insiste", "répond", "répondait", "assure", "se plaint"})
_QUOTES = {"«": "»", "“": "”", '"': '"'}


def _patient_quote(token: Any) -> bool:
    """Whether ``token`` is inside a quotation that the patient (a patient pronoun or noun, the subject of a verb
    of saying outside the quotation: "dit-elle", "Il dit : « ... »") speaks: then "je" is the patient (round 9).
    Only inside quotation marks: "je" elsewhere is the note's writer."""
    doc = token.doc
    start = None
    for k in range(token.i - 1, -1, -1):
        text = doc[k].text
        if text in _QUOTES.values() and text != '"':
            return False
        if text in _QUOTES:
            start = k
            break
    if start is None:
        return False
    close = _QUOTES[doc[start].text]
    end = next((k for k in range(token.i + 1, len(doc)) if doc[k].text == close), len(doc))
    for t in list(doc[:start]) + list(doc[end + 1:]):
        word = _lower(t)
        if (word in ("il", "elle") or word in PATIENT_NOUNS) and t.dep_.startswith("nsubj") \
                and _lower(t.head) in _SPEECH_VERBS:
            return True
        if word in ("-il", "-elle") and any(_lower(v) in _SPEECH_VERBS for v in doc[max(0, t.i - 2): t.i]):
            return True  # "dit-elle", "raconte-t-il"
    # before the quotation, whatever the parse: the patient's pronoun right before a verb of saying ("Il répète
    # « ... »"), or "selon lui" / "d'après elle"
    for t in doc[:start]:
        word, nxt = _lower(t), _lower(doc[t.i + 1])
        if word in ("il", "elle") and nxt in _SPEECH_VERBS | {"demande", "demandait"}:
            return True
        if word in ("selon", "après") and nxt in ("lui", "elle"):
            return True
    return False


def _is_infinitive(token: Any) -> bool:
    """An infinitive by the parse or by the lemmatizer's verb index ("voir" tagged as a noun)."""
    from biasmirror.counterfactuals.nlp import _verb_tables

    if "Inf" in token.morph.get("VerbForm") or token.dep_ == "xcomp" or _is_verb(_lower(token)):
        return True
    tables = _verb_tables()
    return tables is not None and _lower(token) in tables[2]


_INFINITIVE_PREPOSITIONS = frozenset({"de", "d'", "d’", "pour", "sans", "à", "avant", "afin"})
_INFINITIVE_ENDINGS = ("er", "ir", "re", "oir")


def _is_object_clitic(token: Any) -> bool:
    """'la'/'le' as the object pronoun of the next word (a verb), not a determiner."""
    doc = token.doc
    after = doc[token.i + 1]
    if token.pos_ == "PRON" and token.dep_ in ("obj", "iobj", "expl:comp") and after.pos_ in ("VERB", "AUX"):
        return True
    before = doc[token.i - 1] if token.i > token.sent.start else None
    if before is not None and _lower(before) in _INFINITIVE_PREPOSITIONS and _lower(after).endswith(_INFINITIVE_ENDINGS) \
            and ("Inf" in after.morph.get("VerbForm") or (_lower(after) not in _noun_forms() and after.pos_ != "ADJ"
                                                           and after.text.islower())) \
            and _lower(after) not in _INFINITIVE_NOUNS:
        return True  # before an infinitive after a preposition: "il est prévu de la revoir", "pour le joindre"
    if before is None or before.pos_ == "ADP" or _lower(before) in DETERMINERS | {"de", "à", "par", "pour", "sur", "dans", "en"}:
        return False
    nxt = _lower(after)
    if before.pos_ in ("VERB", "AUX") and nxt.endswith(("er", "ir", "re", "oir")) and _is_infinitive(after) \
            and nxt not in _INFINITIVE_NOUNS and after.pos_ != "ADJ":
        return True  # before an infinitive that completes a verb: "je suis allé la chercher"
    if nxt in TIME_NOUNS and before.pos_ == "NOUN" and _lower(before) not in OTHER_PEOPLE | ROLE_NOUNS | PATIENT_NOUNS:
        return False  # "une chute la veille": the time noun after a thing, not "veiller"
    if token.pos_ == "DET" and token.dep_ == "det" and token.head is after and after.pos_ == "NOUN" \
            and _lower(after) in _noun_forms():
        return False  # the article of a noun that is also a verb form: "il relit la lettre", "elle cherche la clé"
    return _is_verb(_lower(after)) and after.pos_ not in ("ADJ",) and before.pos_ in ("NOUN", "PROPN", "PRON")


def _clinical_abbreviation(token: Any) -> bool:
    """An upper-case abbreviation of a thing (FEVG, HTA) after a preposition or a determiner ("à FEVG altérée",
    "une HTA traitée"); not right after the patient's noun ("Dame BPCO connue": said of her)."""
    text = token.text
    if not (len(text) >= 2 and text.isalpha() and text.isupper()) or _lower(token) in PATIENT_NOUNS:
        return False
    before = _lower(token.doc[token.i - 1]) if token.i > 0 else ""
    return before in DETERMINERS | {"à", "avec", "sans", "sous", "par", "sur"}


def _previous_word(token: Any) -> Any | None:
    if token.i > token.sent.start:
        return token.nbor(-1)
    # a sentence the parse starts without punctuation before it is a parse slip ("à FEVG altérée" cut before
    # "altérée"): the word before still counts
    if token.i > 0 and not token.doc[token.i - 1].is_punct and "\n" not in token.doc[token.i - 1].whitespace_:
        return token.nbor(-1)
    return None


def _place_incise(token: Any) -> bool:
    """Round 17: "Mme ___, box 2, est agitée": a bed or room with its number between commas is an incise after the
    subject, not the subject."""
    doc, i = token.doc, token.i
    return _lower(token) in _PLACE_NOUNS and 0 < i < len(doc) - 2 and doc[i - 1].text == "," \
        and doc[i + 1].like_num and doc[i + 2].text == ","


def _colon_between(subject: Any, token: Any) -> bool:
    """Round 17: "Refus de l'hospitalisation : elle repart ..., prévenue": a noun before a colon is no subject of a
    word after it (the parse's slip); the clause after the colon has its own."""
    return subject.i < token.i and any(t.text == ":" for t in subject.doc[subject.i + 1: token.i])


def _subject_of(token: Any) -> Any | None:
    # (a comma the parse takes for a subject, "Mme ___, 33 ans, connue ...", is none)
    subjects = [c for c in token.children if c.dep_ in SUBJECT_DEPS and not c.is_punct and not _place_incise(c)
                and not _colon_between(c, token)]
    if not subjects:
        return None
    before = [c for c in subjects if c.i < token.i]
    pronouns = [c for c in before if _lower(c) in PATIENT_PRONOUNS]
    child = (pronouns or before or subjects)[-1]
    if child.i == child.sent.start and child.i + 1 < len(child.doc) and child.pos_ in ("NOUN", "PROPN") \
            and child.nbor(1).pos_ in ("ADP", "ADV") and _lower(child).endswith(_PARTICIPLE_ENDINGS) \
            and gender_of(_lower(child)) is not None and not _is_noun_only(_lower(child)):
        # a fronted participle the parse takes for the subject ("Venue sur son temps de garde, la docteure ___ ...
        # est examinée"): the subject is the person named after its comma
        named = _word_after_fronted(child.doc, child.i)
        if named is not None and (_person_kind(named) is not None or _lower(named) in ROLE_NOUNS | _TITLES):
            child = named
    if _lower(child) in ("qui", "qu'"):
        antecedent = _person_before_qui(child)
        if antecedent is not None:
            return antecedent
        return token.head if token.head is not token else None
    return child


def _person_before_qui(qui: Any) -> Any | None:
    """A relative's or staff member's noun right before 'qui' (a comma between allowed): the antecedent, whatever
    the parse attaches the relative clause to ("Accompagnée par son fils, qui est inquiet")."""
    k = qui.i - 1
    if k >= 0 and qui.doc[k].text == ",":
        k -= 1
    if k < 0:
        return None
    noun = qui.doc[k]
    return noun if _other_person_gender(noun) is not None else None


def _object_clitic(token: Any) -> Any | None:
    for child in token.children:
        if child.dep_ in ("obj", "iobj") and child.pos_ == "PRON" and _lower(child) in OBJECT_CLITICS and child.i < token.i:
            return child
    # the clitic right before the verb (or before its auxiliary)
    i = token.i - 1
    while i >= token.sent.start and _lower(token.doc[i]) in AVOIR | ETRE | ADVERBS:
        i -= 1
    if i >= token.sent.start and _lower(token.doc[i]) in OBJECT_CLITICS and token.doc[i].pos_ in ("PRON", "DET") \
            and i + 1 < len(token.doc) and token.doc[i + 1].pos_ in ("VERB", "AUX"):
        return token.doc[i]
    if i >= token.sent.start and _lower(token.doc[i]) in ("m'", "me") and _lower(token.doc[i + 1]) in AVOIR \
            and _patient_quote(token.doc[i]):
        return token.doc[i]  # "« personne ne m'a poussée », dit-elle"
    return None


_AUXILIARY_ADVERBS = frozenset({"enfin", "peu", "assez", "trop", "aussitôt", "vite", "souvent", "parfois", "longtemps", "presque", "même",
                                "vraiment", "toujours", "ensuite", "alors", "pourtant", "cependant", "donc"})


def _auxiliary(token: Any) -> str | None:
    """'avoir' or 'être' when the word is a participle right after (adverbs between) a form of that verb."""
    i = token.i - 1
    while i >= token.sent.start and (_lower(token.doc[i]) in ADVERBS | _AUXILIARY_ADVERBS or _lower(token.doc[i]) in _INVERTED
                                     or (_lower(token.doc[i]).endswith("ment") and token.doc[i].pos_ == "ADV")):
        i -= 1  # (adverbs between the auxiliary and its participle: "a enfin accepté", "a rapidement perdu")
    if i < token.sent.start:
        return None
    word = _lower(token.doc[i])
    if word.endswith(("-il", "-elle")):
        word = word.split("-")[0]  # "Est-il resté seul ?" read as one token
    if word in AVOIR:
        return "avoir"
    if word in ETRE:
        return "être"
    return None


def _reflexive_with_object(token: Any) -> bool:
    """'s'est tordu la cheville': a reflexive participle followed by its direct object does not agree."""
    doc = token.doc
    i = token.i - 1
    while i >= token.sent.start and (_lower(doc[i]) in ADVERBS or _lower(doc[i]) in _INVERTED):
        i -= 1  # (an inverted subject: "s'est-il cogné la tête ?")
    if i < token.sent.start + 1 or _lower(doc[i]) not in ETRE or _lower(doc[i - 1]) not in ("s'", "se"):
        return False
    j = token.i + 1
    if j < len(doc) and _lower(doc[j]) in ("le", "la", "l'", "les", "un", "une", "sa", "son", "ses", "des") \
            and j + 1 < len(doc) and _lower(doc[j + 1]) not in TIME_NOUNS and doc[j + 1].pos_ in ("NOUN", "ADJ", "PROPN"):
        return True
    return any(c.dep_ == "obj" and c.pos_ == "NOUN" and _lower(c) not in TIME_NOUNS and c.i > token.i for c in token.children)


def _clause_controller(token: Any, depth: int = 0) -> Any | str | None:
    """The subject of the clause ``token`` belongs to, climbing through verbs; _IMPLICIT when none."""
    current = token
    for _ in range(8):
        subject = _subject_of(current)
        if subject is not None:
            return subject
        if current.dep_ == "ROOT" or current.head is current:
            return _IMPLICIT
        if current.dep_ in ("acl:relcl",):
            return current.head
        if current.dep_ == "xcomp":
            clitic = _object_clitic(current.head)
            if clitic is not None:
                return clitic
        current = current.head
    return _IMPLICIT


_FEMININE_PARTNERS = frozenset({"femme", "épouse", "compagne", "conjointe", "concubine", "copine", "amie", "fiancée"})


def _apposed_partner(token: Any) -> Any | None:
    """The partner's noun right before a comma when the word after it has the partner's gender ("son mari,
    handicapé depuis un AVC", "Son compagnon, présent, ..."): the word is apposed to the partner."""
    prev = _previous_word(token)
    if prev is None or prev.text != "," or prev.i - 1 < token.sent.start:
        return None
    partner = token.doc[prev.i - 1]
    if _person_kind(partner) != "partner":
        return None
    gender = "F" if _lower(partner) in _FEMININE_PARTNERS else "M"
    return partner if gender_of(_lower(token)) == gender else None


_EMPHATICS = frozenset({"elle-même", "lui-même"})


def _apposed_emphatic(token: Any) -> Any | None:
    """Round 17: the noun that "elle-même" / "lui-même" is apposed to ("son fils, lui-même très inquiet", "sa femme,
    elle-même aide-soignante", "Mme ___, elle-même infirmière"), for the emphatic pronoun or a word right after it
    (adverbs between): the pronoun and what it introduces are that person's."""
    doc, k = token.doc, token.i
    if _lower(token) not in _EMPHATICS:
        k -= 3 if k >= 2 and doc[k - 1].text == "-" and not doc[k - 2].whitespace_ else 1  # "aide-soignante"
        while k > 0 and _lower(doc[k]) in _LIST_ADVERBS:
            k -= 1
        if k > 0 and doc[k].text == ",":  # a further member: "son neveu, lui-même infirmier, très inquiet"
            k = next((e for e in range(k - 1, max(k - 5, 0), -1) if _lower(doc[e]) in _EMPHATICS
                      or doc[e].is_punct), k)
        if k < 0 or _lower(doc[k]) not in _EMPHATICS:
            return None
    if k < 2 or doc[k - 1].text != ",":
        return None
    noun = doc[k - 2]
    while noun.i > 0 and noun.text.strip("_") == "":
        noun = noun.nbor(-1)  # "Mme ___, elle-même ...": the title before the name's placeholder
    if _lower(noun) in _TITLES:
        return None  # ("Le Dr ___, elle-même chirurgienne, consulte": the clause tells who the doctor is)
    return noun if noun.pos_ in ("NOUN", "PROPN") else None


# body parts and wounds whose findings are listed after them: "Cheville droite déformée, œdémateuse", "Genou
# gauche gonflé, chaud", "Plaie du cuir chevelu, suturée aux urgences"
BODY_PARTS = frozenset({"cheville", "genou", "pied", "main", "poignet", "coude", "épaule", "bras", "avant-bras",
                        "jambe", "cuisse", "mollet", "hanche", "abdomen", "ventre", "thorax", "cou", "tête", "doigt",
                        "pouce", "orteil", "œil", "oeil", "dos", "plaie", "brûlure", "fracture", "lésion", "ulcère",
                        "escarre", "entorse", "hématome", "mâchoire", "talon", "lèvre", "langue", "peau", "visage"})


def _body_part_list(token: Any) -> Any | None:
    """The body part or wound opening the sentence, when ``token`` follows a comma and only its findings come
    between (no pronoun, finite verb or person): what the word agrees with."""
    prev = _previous_word(token)
    if prev is None or prev.text != ",":
        return None
    doc, start = token.doc, token.i - 1
    while start > 0 and doc[start - 1].text not in (".", ";", ":", "!", "?"):
        start -= 1  # the parse may cut the sentence at a comma: from the last full stop
    first = doc[start]
    if _compound(doc[start + 2]) in BODY_PARTS if start + 2 < token.i and doc[start + 1].text == "-" else False:
        first = doc[start + 2]
    elif _lower(first) not in BODY_PARTS:
        return None
    for t in doc[first.i + 1: token.i]:
        word = _lower(t)
        if t.pos_ in ("PRON", "AUX") or "Fin" in t.morph.get("VerbForm") or word in PATIENT_PRONOUNS \
                or word in PATIENT_NOUNS or word in PARTNER_NOUNS or word in OTHER_PEOPLE or word in ROLE_NOUNS:
            return None
    return first


_SIDES = frozenset({"droit", "droite", "gauche", "bilatéral", "bilatérale"})
_RELATIONAL_ENDINGS = ("al", "ale", "aire", "ique", "eux", "euse")


def _thing_list(token: Any) -> Any | None:
    """Round 17: after a thing noun and an adjective of the word's gender, a comma member goes on describing the
    thing ("une tumeur du sein opérée, traitée par radiothérapie", "une jambe droite rouge, chaude et gonflée");
    the noun it describes, else None. A member after "et"/"ou" follows the member before the link."""
    doc, gender = token.doc, gender_of(_lower(token))
    prev = _previous_word(token)
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if gender is None or prev is None or (after is not None and not after.is_punct
                                          and _lower(after) not in ("et", "ou", "par")):
        return None  # (a participle with a complement other than its agent opens a history item: round 14)
    if _lower(prev) in ("et", "ou") and prev.i > token.sent.start and gender_of(_lower(prev.nbor(-1))) == gender:
        return _thing_list(prev.nbor(-1))
    if prev.text != ",":
        return None
    k, words = prev.i - 1, []
    while k > token.sent.start and (doc[k].pos_ in ("ADJ", "PROPN") or is_adjective(_lower(doc[k]))) \
            and not _is_noun_only(_lower(doc[k])) and _lower(doc[k]) not in PATIENT_NOUNS | ROLE_NOUNS | BODY_PARTS:
        words.append(_lower(doc[k]))  # (an adjective the parse tags as a name: "une cheville gauche bleue")
        k -= 1
    noun = doc[k]
    if (noun.pos_ != "NOUN" and _lower(noun) not in BODY_PARTS) or _person_kind(noun) is not None or _other_person_gender(noun) is not None \
            or _lower(noun) in PATIENT_NOUNS | PARTNER_NOUNS | AGE_NOUNS:
        return None
    # what the thing underwent, of the word's gender ("opérée"; not a person's state: "salle d'attente couchée"),
    # or a body part with a finding ("jambe droite rouge"; not a bare side or a relational adjective: "de la jambe
    # droite, appareillée", "de l'aorte abdominale, surveillée")
    undergone = any(gender_of(w) == gender and w.endswith(("é", "ée", "i", "ie", "u", "ue", "is", "ise"))
                    and (to_masculine(w) or w) not in PERSON_STATES | _FINDING_PARTICIPLES for w in words)
    finding = _lower(noun) in BODY_PARTS and any(gender_of(w) == gender for w in words) and any(
        w not in _SIDES and not w.endswith(_RELATIONAL_ENDINGS) for w in words)
    return noun if undergone or finding else None


def _relative_object(token: Any) -> Any | None:
    """"son voisin, qu'elle trouve bizarre": the predicate of a verb of judging whose object is the relative
    "que" agrees with the relative's antecedent, not with the verb's subject."""
    if token.dep_ != "xcomp" or _lower(token.head) not in _JUDGING_VERBS | _PREDICATE_VERBS:
        return None
    doc, verb = token.doc, token.head
    k = verb.i - 1
    while k > token.sent.start and (_lower(doc[k]) in PATIENT_PRONOUNS | {"on"} or _lower(doc[k]) in ADVERBS):
        k -= 1
    if _lower(doc[k]) not in ("que", "qu'"):
        return None
    k -= 1
    if k >= 0 and doc[k].text == ",":
        k -= 1
    return doc[k] if k >= 0 and doc[k].pos_ in ("NOUN", "PROPN") else None


_RELATIVE_QUE = frozenset({"que", "qu'", "qu’"})


def _relative_que_object(verb: Any) -> Any | None:
    """The antecedent of a relative "que" that is the object of ``verb``, a participle after *avoir*: the participle
    agrees with it, as with an object clitic ("Le patient, que les ambulanciers avaient installé assis"). Only the
    subject's noun phrase may stand between "que" and the auxiliary."""
    doc, start = verb.doc, verb.sent.start
    i = verb.i - 1
    while i > start and _lower(doc[i]) in ADVERBS:
        i -= 1
    if _lower(doc[i]) not in AVOIR:
        return None
    k = i - 1
    while k > start and i - k <= 6 and _lower(doc[k]) not in _RELATIVE_QUE:
        if doc[k].is_punct or doc[k].pos_ in ("VERB", "AUX") or (k == i - 1 and _lower(doc[k]) in OBJECT_CLITICS):
            return None  # (a clitic right before the auxiliary is the object: _object_clitic's)
        k -= 1
    if _lower(doc[k]) not in _RELATIVE_QUE or k - 1 < start:
        return None
    before = doc[k - 2] if doc[k - 1].text == "," and k - 2 >= start else doc[k - 1]
    if before.pos_ not in ("NOUN", "PROPN"):
        return None  # "il rapporte qu'elle a pris ...": a conjunction after a verb
    if verb.dep_ in ("acl", "acl:relcl") and verb.head.i < k and verb.head.pos_ in ("NOUN", "PROPN"):
        return verb.head  # past a complement of the antecedent: "La dame du lit 2, que ..."
    return before


def _noun_tagged_verb(token: Any) -> bool:
    """A noun the parse tags as a verb right after a preposition ("en hypochondre droit"): a finite verb does not
    follow a preposition, and a noun form that is not a participle is the noun."""
    prev = _previous_word(token)
    return prev is not None and prev.pos_ == "ADP" and _lower(token) in _noun_forms() \
        and "Part" not in token.morph.get("VerbForm") and not _lower(token).endswith(("ant", "é", "ée", "és", "ées"))


def _relative_subject_after(head: Any, token: Any) -> bool:
    """Whether the subject of ``head`` is a relative "qui" after ``token``: a fronted participle the parse hangs on
    a relative clause does not agree with that clause's antecedent."""
    subjects = [c for c in head.children if c.dep_ in SUBJECT_DEPS]
    return bool(subjects) and all(_lower(c) in ("qui", "qu'") and c.i > token.i for c in subjects)


def _inverted_subject(token: Any) -> Any | None:
    """The subject pronoun inverted after a copula in a question ("est-il toujours inconscient ?"): the predicate
    agrees with it, whatever the parse attaches the question to."""
    doc, k = token.doc, token.i - 1
    while k > 0 and _lower(doc[k]) in ADVERBS:
        k -= 1
    word = _lower(doc[k]) if k >= 0 else ""
    verb = k - 1 if word in ("-il", "-elle") else k
    if not (word.endswith(("-il", "-elle")) and verb >= 0 and _lower(doc[verb]).split("-")[0] in ETRE):
        return None
    if verb > 0 and _lower(doc[verb - 1]) in ("s'", "s’", "se"):
        return None  # a reflexive ("S'est-elle cogné la tête ?"): the usual rules decide
    return doc[k]


def _seul_after_verb(token: Any) -> Any | None:
    """"seul(e)" after a verb or after the verb's plural object, before no noun, is said of the verb's subject, not
    of the noun the parse hangs it on: "en allant seul aux toilettes", "elle fait ses courses seule"."""
    if _lower(token) not in ("seul", "seule") or token.i == 0:
        return None
    doc = token.doc
    nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if nxt is not None and nxt.pos_ in ("NOUN", "DET"):
        return None  # "seul patient", "la seule personne"
    prev = doc[token.i - 1]
    forms = prev.morph.get("VerbForm")
    verb = prev.pos_ == "VERB" and ("Inf" in forms or "Fin" in forms or "Pres" in prev.morph.get("Tense"))
    plural = _is_plural(prev) or any(c.dep_ == "det" and _lower(c) in ("ses", "les", "des", "leurs", "mes")
                                     for c in prev.children)
    if not (verb or (prev.pos_ == "NOUN" and plural and _lower(prev) not in OTHER_PEOPLE)):
        return None
    controller = _clause_controller(prev)
    return controller if controller == _IMPLICIT or _person_kind(controller) is not None else None


def _substantive_subject(token: Any) -> Any | None:
    """The subject of "est le seul à ...", "était la première à ...": "seul", "premier", "dernier" used as a noun
    after the copula agree with the copula's subject pronoun (a guillemet may open the predicate)."""
    doc, i = token.doc, token.i
    if _lower(token) not in _SUBSTANTIVE_ADJECTIVES or i < 3 or i + 1 >= len(doc) or _lower(doc[i + 1]) not in ("à", "qui"):
        return None
    k = i - 2 if _lower(doc[i - 1]) in ("le", "la") else None
    if k is not None and doc[k].text in _QUOTES:
        k -= 1
    if k is None or k < 1 or _lower(doc[k]) not in ETRE or _lower(doc[k - 1]) not in ("il", "elle"):
        return None
    return doc[k - 1]


def _controller(token: Any, depth: int = 0) -> Any | str | None:
    if depth > 6:
        return None
    antecedent = _relative_object(token) or _inverted_subject(token) or _seul_after_verb(token) \
        or _substantive_subject(token)
    if antecedent is not None:
        return antecedent
    partner = _apposed_partner(token) or _apposed_emphatic(token)
    if partner is not None:
        return partner  # (or the relative or the patient an emphatic pronoun before the word is apposed to)
    part = _body_part_list(token) or _thing_list(token)
    if part is not None:
        return part
    prev = _previous_word(token)
    if prev is not None and _clinical_abbreviation(prev):
        return prev  # "à FEVG altérée", "HTA traitée": the participle agrees with the abbreviated thing
    if prev is not None and _adjective_opening_member(prev) and gender_of(_lower(prev)) is None:
        return _clause_controller(prev)  # "Drépanocytaire connue, elle ...": a person's epicene adjective
    while prev is not None and prev.pos_ == "ADJ" and gender_of(_lower(prev)) is None and prev.i > prev.sent.start \
            and _lower(prev) not in PATIENT_NOUNS:
        prev = prev.nbor(-1)  # "cardiopathie ischémique stentée": past an epicene adjective to its noun
    if prev is not None and ((prev.pos_ in ("NOUN", "PROPN") and (_lower(prev) in ROLE_NOUNS or _candidate(prev) is None))
                             or _is_noun_only(_lower(prev))):
        word = _lower(prev)
        if word == "fois":
            return _IMPLICIT  # "Dernière fois vue à 22h": the patient last seen
        subject = _subject_of(prev)
        if subject is None and prev.i > 0 and _lower(prev.nbor(-1)) in ("il", "elle") and _is_verb(word):
            subject = prev.nbor(-1)  # (round 17: the pronoun itself read as a determiner: "Elle ressort accompagnée")
        if subject is not None and subject.i == prev.i - 1 and subject.pos_ == "PRON" \
                and not any(c.dep_ == "cop" for c in prev.children):
            return subject  # a verb tagged as a noun, with its subject: "Elle dort assise"
        if word in AGE_NOUNS and prev.i > prev.sent.start and _lower(prev.nbor(-1)) in DETERMINERS:
            return prev  # "l'an dernier", "le mois dernier": the time noun, not an age
        if word in AGE_NOUNS:
            return _controller(prev, depth + 1) if prev.head is not prev else _IMPLICIT
        if word.endswith(("plégique", "parétique")) and gender_of(word) is None:
            return _controller(prev, depth + 1)  # "hémiplégique droit" tagged as a noun: the patient's side
        if word not in ("___",):
            return prev
    clitic = _lexical_clitic(token)
    if clitic is not None and _auxiliary(token) is None:
        return clitic
    word = _lower(token)
    if word in ("fait", "faite") and token.i + 1 < len(token.doc) and "Inf" in token.doc[token.i + 1].morph.get("VerbForm"):
        return None
    auxiliary = _auxiliary(token)
    if auxiliary == "avoir":
        return _object_clitic(token) or _relative_que_object(token)
    if auxiliary == "être" and _reflexive_with_object(token):
        return None
    subject = _subject_of(token)
    if subject is not None:
        return subject
    dep, head = token.dep_, token.head
    if head is token:
        return _IMPLICIT
    if dep == "advcl" and head.i > token.i and _relative_subject_after(head, token):
        return _IMPLICIT  # "Accompagné par sa petite-fille, qui est inquiète": the relative clause is not its host
    if head.pos_ in ("VERB", "AUX") and head.i < token.i and dep != "conj":
        clitic = _object_clitic(head)
        if clitic is not None:
            return clitic  # "son mari la trouve fatiguée", "l'a retrouvé confus"
    if dep == "conj" and head.i < token.i:
        if _auxiliary(head) == "être" and _reflexive_with_object(head):
            return _clause_controller(head)  # round 17: "s'est lavé les mains, s'est rhabillée": the object is its own
        if _candidate(head) is not None or head.pos_ in ("ADJ", "VERB"):
            return _controller(head, depth + 1)
        return _clause_controller(head)
    symptom = _symptom_noun(token)
    if symptom is not None:
        return symptom
    if dep == "amod" and head.i == token.i - 1 and (head.pos_ not in ("VERB", "AUX") or _noun_tagged_verb(head)) \
            and _candidate(head) is None and _person_kind(head) is None:
        if head.pos_ in ("ADJ", "NOUN") and gender_of(_lower(head)) is None and is_adjective(_lower(head)) \
                and _lower(head) not in BODY_PARTS:
            return _controller(head, depth + 1)  # "tétraplégique complète": what the epicene adjective agrees with
        return head  # right after the word it modifies, whatever its tag ("en hypochondre droit")
    if dep in ("amod", "acl", "flat:name", "appos", "nmod") and head.pos_ in ("NOUN", "PROPN", "PRON"):
        if _lower(head) in AGE_NOUNS:
            return _controller(head, depth + 1) if head.head is not head else _IMPLICIT
        if _lower(head) in ROLE_NOUNS or _person_kind(head) is not None:
            return head
        if _candidate(head) is not None:
            return _controller(head, depth + 1)
        if head.i > token.i:
            return head  # a prenominal adjective: "la première fois", "toute la matinée"
        subject = _subject_of(head)
        if subject is not None and subject.i == head.i - 1 and _lower(subject) in PATIENT_PRONOUNS:
            return subject  # a verb tagged as a noun after its subject: "Il dort assis depuis hier, essoufflé"
        between = token.doc[head.i + 1: token.i]
        if any(t.is_punct for t in between):
            after = _lower(token.doc[token.i + 1]) if token.i + 1 < len(token.doc) else ""
            if head.morph.get("Gender") == token.morph.get("Gender") and not _is_plural(head) and token.morph.get("Gender") \
                    and after not in ("de", "d'", "du", "des") and (to_masculine(_lower(token)) or _lower(token)) \
                    not in PERSON_PARTICIPLES:
                return head  # "Dyspnée d'aggravation ..., majorée à l'effort"
            return _clause_controller(head)  # apposed after a comma: "Elle est en sueurs, marbrée."
        return head
    if dep == "xcomp":
        # (right after the participle: "que son fils avait laissé seul", not "qu'elle avait appelé à l'aide, assis")
        clitic = _object_clitic(head) or (_relative_que_object(head) if not any(
            t.is_punct for t in token.doc[head.i: token.i]) else None)
        if clitic is not None:
            return clitic
    return _clause_controller(head)


def _kind(controller: Any | str | None) -> str | None:
    if controller is None:
        return None
    if controller == _IMPLICIT:
        return "patient"
    if _lower(controller) in _EPICENE_FEMININE:
        return None  # "la victime ... a été extraite": the word agrees with the noun, whatever the patient's sex
    i = controller.i
    if _lower(controller) in ("femme", "homme") and i >= 3 and controller.doc[i - 2].text == "," \
            and _lower(controller.doc[i - 3]) in _EPICENE_FEMININE:
        return None  # "la victime, un homme de 30 ans, renversée": read with the noun it is apposed to
    return _person_kind(controller)


def _reason(token: Any, controller: Any | str) -> str:
    word = _lower(token)
    if word in ROLE_NOUNS:
        return "role noun"
    if controller == _IMPLICIT:
        return "subjectless clause"
    if _auxiliary(token) == "avoir":
        return "participle after an object clitic"
    if _subject_of(token) is not None or token.dep_ in ("xcomp", "conj"):
        return "predicative"
    return "apposed"


# verbs the small model sometimes tags as nouns, after which a word agrees with the object ("la trouve fatiguée")
_PREDICATE_VERBS = frozenset({"trouve", "trouvé", "trouvée", "retrouve", "retrouvé", "retrouvée", "juge", "jugé",
                              "voit", "vu", "sent", "laisse", "laissé", "découvre", "découvert", "ramène", "ramené",
                              "amène", "amené", "décrit", "dit", "rend", "rendu"})
_LIST_LINKS = frozenset({",", "et", "mais", "ou", "puis"})
_LIST_ADVERBS = frozenset({"non", "très", "peu", "plus", "bien", "mal", "un", "assez", "trop", "si", "moins",
                           "légèrement", "encore", "toujours", "déjà"})
_BARE_PREPOSITIONS = frozenset({"en", "à", "au", "aux", "sous", "sans", "contre", "depuis", "par", "pour", "avec"})
# a place complement, with its article, between two members of the patient's list: "assise dans la cuisine,
# désorientée", "allongé sur le sol, conscient"
_PLACE_PREPOSITIONS = frozenset({"dans", "sur", "sous", "devant", "derrière", "chez", "près", "au", "aux"})


def _adjective_opening_member(token: Any) -> bool:
    """An adjective the parse tags as a noun that opens a comma member ("Homme de 45 ans, migraineux connu", "Pt
    36 ans, drépanocytaire connu"): a person's adjective, not a thing noun that a word after it could agree with."""
    word, doc = _lower(token), token.doc
    before = doc[token.i - 1].text if token.i > 0 else ","
    if before not in (",", ";", ":") or not is_adjective(word) or word in BODY_PARTS:
        return False
    if gender_of(word) is not None:
        return True
    # an epicene one only in "<...> connu(e)", a history's idiom for the person: "drépanocytaire connue"
    after = _lower(doc[token.i + 1]) if token.i + 1 < len(doc) else ""
    return (to_masculine(after) or after) == "connu"


def _agrees_with_noun_before(token: Any, gender: str) -> bool:
    """The word follows, without punctuation, a noun of its gender that is not a person ("hernie inguinale
    droite", "cardiopathie ischémique stentée"): it agrees with that noun, whatever the parse says."""
    if _seul_after_verb(token) is not None:
        return False  # "elle fait ses courses seule": said of the subject
    k = token.i - 1
    steps = 0
    while k >= 0 and steps < 3:
        prev = token.doc[k]
        word = _lower(prev)
        if (prev.pos_ in ("NOUN", "PROPN") and not _is_verb(word) and word not in _PREDICATE_VERBS) or word in BODY_PARTS:
            if word in PATIENT_NOUNS or _adjective_opening_member(prev) \
                    or word in PARTNER_NOUNS or word in ROLE_NOUNS or word in OTHER_PEOPLE \
                    or word in AGE_NOUNS or word in TIME_NOUNS or word.strip("_") == "" or _epicene_patient(prev) \
                    or _compound(prev) in ROLE_NOUNS:  # (the tail of a role noun: "Sapeur-pompier blessé")
                return False  # (a person, an adjective of one - "migraineux connu" - or a name's placeholder)
            genders = prev.morph.get("Gender")
            return bool(genders) and genders[0][0] == gender[0].upper()
        if prev.pos_ == "ADJ" or (prev.pos_ == "VERB" and prev.tag_ != "AUX" and gender_of(word) is not None):
            k -= 1
            steps += 1
            continue
        return False
    return False


_CLAUSE_BREAKS = frozenset({".", ";", ":", "!", "?", "(", ")", "—", "–", "/"})


def _segments_back(token: Any) -> list[list[Any]]:
    """The comma-separated segments of the verbless clause ``token`` ends, from the one holding it backwards
    (the segment's tokens up to ``token``); stops at a clause break, a line break or the start of the text."""
    doc, segments, current = token.doc, [], []
    k = token.i
    while k >= 0:
        t = doc[k]
        if t.text in _CLAUSE_BREAKS or t.is_space or (k < token.i and "\n" in t.whitespace_):
            break
        if t.text == ",":
            segments.append(current[::-1])
            current = []
        else:
            current.append(t)
        k -= 1
    segments.append(current[::-1])
    return segments


def _thing_head(segment: list[Any], gender: str) -> bool:
    """A segment opened by a noun that is not a person, with an adjective of ``gender`` right after it (past
    epicene ones): "plaie frontale ...", "épilepsie connue", "insuffisance cardiaque traitée"."""
    if len(segment) < 2:
        return False
    noun, word = segment[0], _lower(segment[0])
    if noun.pos_ == "DET" and len(segment) > 2:
        noun, word, segment = segment[1], _lower(segment[1]), segment[1:]
    if not (_is_noun_only(word) or word in BODY_PARTS) or word in PATIENT_NOUNS or _person_kind(noun) is not None \
            or word in ROLE_NOUNS or word in OTHER_PEOPLE or word in AGE_NOUNS or _is_plural(noun):
        return False
    for t in segment[1:]:
        g = gender_of(_lower(t))
        if g is not None and (is_adjective(_lower(t)) or t.pos_ in ("ADJ", "VERB")):
            return g == gender
        if not (t.pos_ == "ADJ" or is_adjective(_lower(t))):
            break
    # a body part is a thing with or without an adjective that shows its gender: then the parse's gender decides
    # ("genou gauche prothésé il y a deux ans, chaud")
    genders = noun.morph.get("Gender") if word in BODY_PARTS and noun.pos_ == "NOUN" else []
    return bool(genders) and genders[0][0] == gender


def _impersonal_il(token: Any) -> bool:
    """"il" of "il y a" ("opéré il y a deux ans"), which names nobody."""
    doc, i = token.doc, token.i
    if _lower(token) != "il" or i + 1 >= len(doc):
        return False
    nxt = _lower(doc[i + 1])
    return nxt == "y" or (nxt in ("n'", "n’") and i + 2 < len(doc) and _lower(doc[i + 2]) == "y")


def _describes_thing(token: Any, gender: str) -> bool:
    """A word of a verbless clause opened by a thing noun agrees with that noun, not with the patient: in the noun's
    own segment ("paralysie faciale droite") or as a later member of its comma list whose earlier members are
    adjectives ("Plaie frontale de 2 cm, propre, non suturée", "épilepsie connue, traitée par ..."). Words of a
    person ("retrouvée", "amenée") are the patient's whatever precedes them."""
    word = _lower(token)
    if (to_masculine(word) or word) in PERSON_PARTICIPLES | PERSON_STATES:
        return False
    segments = _segments_back(token)

    def of_patient(segment: list[Any]) -> bool:
        return any((_lower(t) in PATIENT_PRONOUNS and not _impersonal_il(t)) or _lower(t) in PATIENT_NOUNS
                   for t in segment)

    # "Elle n'a pas uriné, globe vésical, sondée": a clause of the patient between the thing and the word, or in
    # the thing's own segment; the patient's noun opening the line before the thing ("Patient de 40 ans, coude
    # droit opéré il y a un an, gonflé") does not count
    if of_patient(segments[0]):
        return False
    own = segments[0]
    if own and own[0] is not token and _thing_head(own, gender) and all(
            t.pos_ == "ADJ" or is_adjective(_lower(t)) for t in own[1:]):
        return True
    # the token opens its segment (after adverbs) and ends it, or has only an agent after it ("traitée par ..."; not
    # "opérée d'une hernie", "suivie en cardiologie": the patient's); earlier segments are bare adjectives back to
    # the thing noun's segment
    if not _bare_member(own, token):
        return False
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is not None and not (after.is_punct or _lower(after) in ("par", "et", "ou", "depuis")):
        return False
    for segment in segments[1:]:
        if not segment or of_patient(segment):
            return False
        if _thing_head(segment, gender):
            return True
        members = [t for t in segment if _lower(t) not in _LIST_ADVERBS and _lower(t) not in ADVERBS]
        if len(members) != 1 or not _bare_member(segment, members[0]) \
                or gender_of(_lower(members[0])) not in (None, gender):
            return False
    return False


_ITEM_PREPOSITIONS = frozenset({"en", "pour", "de", "d'", "d’", "du", "des", "à", "au", "aux", "sous", "depuis", "dans"})


def _opens_history_item(token: Any, noun: Any, gender: str) -> bool:
    """A participle that opens a comma segment of a verbless list and takes a complement other than an agent
    starts a new item said of the patient, whatever thing noun the parse hangs it on, when it cannot agree with
    that noun (another gender) or a whole item stands between them: "fracture du col opérée en 2020, suivi en
    cardiologie", "épilepsie connue, traitée par ..., opérée d'une hernie". Right after a noun of its gender it
    stays the noun's ("plaie du cuir chevelu, suturée aux urgences"); nor a symptom's participle ("douleur
    thoracique, irradiée au bras") nor a person's word ("sa sœur, opérée du même cancer") changes."""
    doc, i = token.doc, token.i
    word = _lower(token)
    if i == 0 or doc[i - 1].text != "," or i + 1 >= len(doc) or _lower(doc[i + 1]) not in _ITEM_PREPOSITIONS:
        return False
    if token.pos_ not in ("VERB", "ADJ") or (to_masculine(word) or word) in SYMPTOM_PARTICIPLES:
        return False
    noun_word = _lower(noun)
    if not (noun.pos_ in ("NOUN", "PROPN") or noun.text.isupper()) or noun.i > i or noun_word in OTHER_PEOPLE or noun_word in ROLE_NOUNS \
            or noun_word in _KIN or noun_word in _EPICENE_FEMININE or noun_word in ("homme", "femme", "dame"):
        return False
    segments = _segments_back(token)
    previous = [t for t in segments[1] if t.pos_ != "DET"] if len(segments) > 1 else []
    if previous:  # the noun that opens the item just before: "plaie du cuir chevelu, suturée ..."
        head = previous[0]
        head_gender = head.morph.get("Gender") if head.pos_ == "NOUN" else None  # (a PROPN tag's gender is a guess)
        if (head_gender[0][0] if head_gender else gender_of(_lower(head))) == gender:
            return False
    # a verbless list: no pronoun, auxiliary or finite verb before it in its sentence
    return not any(_lower(t) in PATIENT_PRONOUNS or t.pos_ == "AUX" or ("Fin" in t.morph.get("VerbForm")
                                                                      and not t.text.isupper())  # (not "FEVG")
                   for t in doc[token.sent.start: i])


def _bare_member(segment: list[Any], word: Any) -> bool:
    """``word`` is an adjective that only adverbs precede in its comma segment ("non suturée", "propre")."""
    before = segment[:segment.index(word)] if word in segment else None
    if before and _lower(before[-1]) in ("et", "ou"):
        # a coordinated adjective: "gonflé et chaud", whose first conjunct is a bare member too
        before = [t for t in before if not (t.pos_ in ("ADJ", "VERB") or is_adjective(_lower(t)))]
    return before is not None and all(_lower(t) in _LIST_ADVERBS or _lower(t) in ADVERBS or _lower(t) in ("et", "ou")
                                      for t in before) and (word.pos_ in ("ADJ", "VERB") or is_adjective(_lower(word)))


_TIME_OPENERS = frozenset({"ce", "cet", "cette", "hier", "le", "la", "chaque", "toute", "tout"})
_CLOCK = frozenset({"h", "heures", "heure", "min"})


def _after_time_phrase(doc: Any, k: int) -> int:
    """The index after the time adverbials that start at ``k`` ("ce soir", "hier soir", "cette nuit", "à 6 h",
    "vers 4 h 30"), which stand between a verb and its predicate without taking part in the agreement."""
    while k < len(doc):
        word = _lower(doc[k])
        if word in _TIME_OPENERS | {"hier"} and k + 1 < len(doc) and _lower(doc[k + 1]) in TIME_NOUNS:
            k += 2
        elif word in ("à", "vers") and k + 2 < len(doc) and doc[k + 1].like_num and _lower(doc[k + 2]) in _CLOCK:
            k += 3
            if k + 1 < len(doc) and doc[k].like_num and _lower(doc[k + 1]) in _CLOCK | {"min"}:
                k += 1  # "vers 4 h 30"
            if k < len(doc) and doc[k].like_num:
                k += 1
        elif word == "hier" or (word in TIME_NOUNS - {"fois", "an", "année", "mois", "jour"} and k > 0
                                and _lower(doc[k - 1]) == "hier"):
            k += 1
        else:
            return k
    return k


# verbs whose predicate agrees with their subject (and the participles that continue them: "est devenu ...")
_COPULAS = ETRE - {"être", "étant", "soit"} | frozenset({
    "reste", "restait", "resté", "restée", "demeure", "demeurait", "apparaît", "apparaissait", "semble",
    "semblait", "paraît", "paraissait", "devient", "devenait", "devenu", "devenue", "redevenu", "redevenue"})
_SUBJECT_SKIP = AVOIR | frozenset({"ne", "n'", "n’", "y"})


def _patient_subject_before(doc: Any, i: int) -> bool:
    """Whether the copula at ``i`` has the patient for subject: the patient's pronoun or noun right before it (past
    an auxiliary or a negation), or before an incise between commas ("Le patient, après trois heures d'attente,
    est devenu ...")."""
    k = i - 1  # (not from the parse's sentence start: it may cut "Mme ___" in pieces)
    while k >= 0 and _lower(doc[k]) in _SUBJECT_SKIP:
        k -= 1
    if k >= 0 and doc[k].text == ",":
        k -= 1
        while k >= 0 and doc[k].text != "," and doc[k].text not in _CLAUSE_BREAKS:
            k -= 1
        k -= 1
    return k >= 0 and doc[k].text not in _CLAUSE_BREAKS and not (_lower(doc[k]) in OBJECT_CLITICS and doc[k].pos_ == "PRON") \
        and _lower(doc[k]) not in _EPICENE_FEMININE and _person_kind(doc[k]) == "patient"


def _predicate_after(doc: Any, i: int) -> int | None:
    """The index of the predicate after the copula at ``i``, past an incise between commas ("a été, selon sa fille,
    longtemps choquée"), a time adverbial ("est ce soir confus") and adverbs; None when no adjective comes."""
    k = i + 1
    if k < len(doc) and doc[k].text == ",":
        k += 1
        while k < len(doc) and doc[k].text != "," and doc[k].text not in _CLAUSE_BREAKS:
            k += 1
        if k >= len(doc) or doc[k].text != ",":
            return None
        k += 1
    k = _after_time_phrase(doc, k)
    while k < len(doc) and (_lower(doc[k]) in ADVERBS | _LIST_ADVERBS | {"moins", "longtemps", "surtout"}
                            or (_lower(doc[k]).endswith("ment") and doc[k].pos_ == "ADV")):
        k += 1
    if k >= len(doc) or (k == i + 1 and _lower(doc[k]) not in _COPULAS):
        return None  # (right after the copula, the parse's reading stands; "est devenu ..." goes on)
    k = _past_epicene_members(doc, k)
    if k >= len(doc):
        return None
    word = _lower(doc[k])
    if word.endswith("ment") or gender_of(word) is None or _is_noun_only(word) or word in ROLE_NOUNS or _is_plural(doc[k]) \
            or not (is_adjective(word) or doc[k].pos_ in ("ADJ", "VERB")):
        return None
    return k


def _past_epicene_members(doc: Any, k: int) -> int:
    """From the predicate at ``k``, past the adjectives of both genders that open its list ("plus calme, reposé",
    "algique et agitée") to its first member that shows the gender."""
    while k < len(doc) and gender_of(_lower(doc[k])) is None and is_adjective(_lower(doc[k])) \
            and not _is_noun_only(_lower(doc[k])):
        j = k + 1
        if j >= len(doc) or _lower(doc[j]) not in _LIST_LINKS:
            return k
        j += 1
        while j < len(doc) and (_lower(doc[j]) in _LIST_ADVERBS or _lower(doc[j]) in _LIST_LINKS):
            j += 1
        k = j
    return k


def _distant_predicates(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """The predicate of a copula whose subject is the patient agrees with the patient also when an incise or a time
    adverbial separates them, whatever noun of the incise the parse hangs it on: "Mme ___ demeure, en dépit des
    antalgiques ..., très douloureuse", "Il a été, d'après l'équipe du SMUR ..., désincarcéré", "M. ___ est ce
    soir confus"; from a predicate that is itself a copula ("est devenu franchement menaçant") it goes on."""
    starts = {a.start for a in found}
    extra = []
    for token in doc:
        if _lower(token) not in _COPULAS or not _patient_subject_before(doc, token.i) \
                or (token.i > 0 and _lower(doc[token.i - 1]) in ("s'", "s’", "se")):
            continue  # (not a reflexive: "elle s'est, en tombant, cassé le poignet")
        i = token.i
        while (k := _predicate_after(doc, i)) is not None:
            predicate = doc[k]
            gender = gender_of(_lower(predicate))
            new = inflect(_lower(predicate), gender)
            if predicate.idx not in starts and new is not None and not _unknown_other_form(_lower(predicate), gender):
                extra.append(Agreeing(predicate.idx, predicate.idx + len(predicate.text), predicate.text, gender,
                                      _match_case(predicate.text, new), "patient", "predicative"))
                starts.add(predicate.idx)
            if _lower(predicate) not in _COPULAS:
                break
            i = k
    return found + extra


_FINDING_PARTICIPLES = PERSON_PARTICIPLES | {"laissé", "trouvé", "vu", "revu", "gardé", "installé", "couché", "placé"}


def _participle_predicates(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """The adjective right after a participle of finding or bringing a person that agrees with the patient says
    how the patient was found, and agrees too: "retrouvée endormie", "l'a retrouvé errant", "laissée seule"."""
    starts = {a.start for a in found}
    extra = []
    for item in found:
        if item.controller != "patient" or (to_masculine(item.text.lower()) or item.text.lower()) not in _FINDING_PARTICIPLES:
            continue
        after = [t.i for t in doc if t.idx >= item.end][:1]
        if not after or _after_time_phrase(doc, after[0]) >= len(doc):
            continue
        nxt = [doc[_after_time_phrase(doc, after[0])]]  # (past a time adverbial: "l'a découvert hier soir allongé")
        word = _lower(nxt[0])
        if nxt[0].idx in starts or gender_of(word) != item.gender or _is_noun_only(word) or _is_plural(nxt[0]) \
                or not (is_adjective(word) or nxt[0].pos_ in ("ADJ", "VERB")) or word in ROLE_NOUNS \
                or word.endswith(("ant", "er", "ir", "re")) or "Inf" in nxt[0].morph.get("VerbForm"):
            continue  # (not an infinitive, "l'a vue tomber", nor "pendant")
        new = inflect(word, item.gender)
        if new is not None and not _unknown_other_form(word, item.gender):
            extra.append(Agreeing(nxt[0].idx, nxt[0].idx + len(nxt[0].text), nxt[0].text, item.gender,
                                  _match_case(nxt[0].text, new), "patient", "predicative"))
            starts.add(nxt[0].idx)
    return found + extra


# Round 15: adjectives and participles that only describe a person (mood, alertness, behaviour, what the person
# feels, what was done to the person), never a wound, an organ or a symptom (masculine forms; epicene words such as
# "fébrile" need no entry). Written for the comma lists of triage notes, where the parse often hangs them on the
# thing noun before them ("céphalée ... survenue au réveil, nauséeuse"). Words a body part or a symptom can carry
# ("douloureux", "tendu", "gonflé", "marbré", "calmé", "soulagé", "souillé") stay out.
PERSON_STATES = frozenset({
    "agité", "anxieux", "angoissé", "inquiet", "stressé", "paniqué", "apeuré", "effrayé", "choqué", "sonné",
    "confus", "désorienté", "orienté", "somnolent", "endormi", "réveillé", "conscient", "inconscient", "obnubilé",
    "prostré", "abattu", "fatigué", "épuisé", "affaibli", "nauséeux", "frissonnant", "fiévreux", "gêné", "essoufflé",
    "oppressé", "cyanosé", "couvert", "trempé", "déshydraté", "dénutri", "amaigri", "normotendu", "hypertendu",
    "hypotendu", "coopérant", "collaborant", "agressif", "menaçant", "opposant", "méfiant", "halluciné", "alcoolisé",
    "intoxiqué", "dément", "migraineux", "sevré", "âgé", "dépendant", "alité", "assis", "couché", "allongé",
    "installé", "scopé", "perfusé", "sondé", "intubé", "ventilé", "sédaté", "casqué", "ceinturé", "menotté",
    "vacciné", "rassuré", "geignard", "grognon", "tremblant", "transpirant", "réactif", "vigilant", "déprimé",
    "désinhibé", "excité", "énervé", "souriant", "détendu", "habillé", "déshabillé", "coiffé", "seul",
    "rendormi", "assoupi", "recouché",
    # round 16: how the person walks and which hand the person uses
    "boiteux", "claudicant", "droitier", "gaucher",
})


def _person_state_member(token: Any) -> bool:
    """A word of PERSON_STATES that is a bare member of a comma list: only adverbs between it and the comma or
    "et" before it, and no noun right after it."""
    word = _lower(token)
    if (to_masculine(word) or word) not in PERSON_STATES or _is_plural(token):
        return False
    doc, k = token.doc, token.i - 1
    while k > token.sent.start and (_lower(doc[k]) in _LIST_ADVERBS or _lower(doc[k]) in ADVERBS):
        k -= 1
    if k < 0 or doc[k].text not in (",", "et"):
        return False
    if doc[k].text == "et" and k > 0 and (to_masculine(_lower(doc[k - 1])) or _lower(doc[k - 1])) not in PERSON_STATES \
            and gender_of(_lower(doc[k - 1])) == gender_of(word) and is_adjective(_lower(doc[k - 1])):
        return False  # coordinated with a thing's adjective: "une main froide et cyanosée"
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return after is None or after.pos_ not in ("NOUN", "PROPN", "DET")


def _person_states(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """A person's state in a comma list agrees with the patient when the parse gives it no person (a thing noun
    before it, or no controller at all, or a tag that hid the word): "Patiente de 45 ans, céphalée ..., nauséeuse",
    "Pt 74 ans, rétention aiguë d'urine, globe vésical palpable, agité". A relative, a staff member, the partner
    or a speaker ("je") keep the word."""
    starts = {a.start for a in found}
    extra = []
    for token in doc:
        gender = gender_of(_lower(token))
        if token.idx in starts or gender is None or not _person_state_member(token):
            continue
        controller = _controller(token) if _candidate(token) is not None else None
        if isinstance(controller, str) or (controller is not None and (
                controller.pos_ == "PRON" or _person_kind(controller) is not None
                or _other_person_gender(controller) is not None or _lower(controller) in _EPICENE_FEMININE)):
            continue  # the patient's already, or someone else's
        new = inflect(_lower(token), gender)
        if new is not None:
            extra.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender,
                                  _match_case(token.text, new), "patient", "person's state"))
    return found + extra


# Round 16: the comma list of a verbless note opened by the patient's noun ("Homme de 40 ans, plaie ..., anxieux,
# droitier", "Pt endormi, réveillable, ..., surveillé /1 h"): a member that opens its segment with an adjective or a
# participle is said of the patient, unless the segment before names a thing of the same gender that it may describe.
_ABBREVIATED_PATIENTS = {"pt": "M", "pte": "F"}


def _opening_patient_gender(segment: list[Any]) -> str | None:
    """The gender of the patient's noun among the first words of the segment that opens a verbless note ("Homme",
    "Jeune femme", "Patiente", "Pte"); None when the segment opens otherwise."""
    for t in segment[:3]:
        word = _lower(t)
        if word in _ABBREVIATED_PATIENTS:
            return _ABBREVIATED_PATIENTS[word]
        if _person_kind(t) == "patient" and t.pos_ in ("NOUN", "PROPN") and word not in ("ans", "_", "___") \
                and word not in _EPICENE_FEMININE:  # ("personne", "victime": the noun's gender, not the patient's)
            return gender_of(word) or (t.morph.get("Gender") or ["?"])[0][0]
        if not (t.pos_ == "ADJ" or word == "jeune"):
            return None
    return None


def _thing_before(segment: list[Any], gender: str) -> bool:
    """The segment opens with a noun of a thing of ``gender`` ("douleur thoracique", "plaie du cuir chevelu")."""
    words = [t for t in segment if t.pos_ != "DET"]
    if not words:
        return False
    head, word = words[0], _lower(words[0])
    if _person_kind(head) is not None or word in ROLE_NOUNS or word in OTHER_PEOPLE or _is_plural(head) or not (
            head.pos_ in ("NOUN", "PROPN") or _is_noun_only(word)):
        return False  # (a plural thing, "frissons", cannot take a singular word)
    genders = head.morph.get("Gender") if head.pos_ == "NOUN" else []
    return (genders[0][0] if genders else gender_of(word)) == gender


def _list_member_of_patient(token: Any, gender: str) -> bool:
    segments = _segments_back(token)
    own = segments[0]
    if len(segments) == 1:  # right after the noun itself: "Pt endormi, ..."
        return 2 <= len(own) <= 3 and own[-1].i == token.i and _opening_patient_gender(own[:-1]) == gender \
            and _opening_patient_gender(own[-2:-1]) == gender
    if not segments[-1] or _opening_patient_gender(segments[-1]) != gender:
        return False
    if not own or any(_lower(t) not in _LIST_ADVERBS and _lower(t) not in ADVERBS for t in own[:-1]):
        return False  # the word opens its segment, past adverbs ("très douloureuse")
    doc = token.doc
    if any(_lower(t) in PATIENT_PRONOUNS or t.pos_ == "AUX" or ("Fin" in t.morph.get("VerbForm") and not t.text.isupper())
           for t in doc[segments[-1][-1].i + 1: token.i]):  # (after the opening noun and age: "Pte 46 a, ...")
        return False  # a clause with its own verb: not a verbless list
    word = to_masculine(_lower(token)) or _lower(token)
    person_word = word in PERSON_STATES | PERSON_PARTICIPLES | _COPULAS
    return person_word or not (_thing_before(segments[1], gender) or _describes_thing(token, gender))


def _patient_list_members(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """The adjectives and participles that open a member of a verbless list opened by the patient's noun agree with
    the patient (see above); a later "et" member follows through ``_extend_lists``."""
    starts = {a.start for a in found}
    extra = []
    for token in doc:
        word = _lower(token)
        gender = gender_of(word)
        if token.idx in starts or gender is None or token.i == 0 or _is_noun_only(word) or word in ROLE_NOUNS \
                or _is_plural(token) or not (is_adjective(word) or token.pos_ in ("ADJ", "VERB")) \
                or "Inf" in token.morph.get("VerbForm") or word.endswith("ant") or _abbreviation(token):
            continue
        after = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if after is not None and (after.pos_ == "NOUN" or _is_noun_only(_lower(after)) or _lower(after) in _RELATIVE_QUE):
            continue  # before its noun ("dernière cure"), or a verb of saying ("dit que ...")
        if word.endswith("ment") or not _list_member_of_patient(token, gender):
            continue
        new = inflect(word, gender)
        if new is not None and not _unknown_other_form(word, gender):
            extra.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender,
                                  _match_case(token.text, new), "patient", "member of the patient's list"))
    return found + extra


# Round 16: past participles of the patient's history, whatever the dictionary knows of them ("stenté", "ménopausé")
_PARTICIPLE_ENDINGS = ("é", "ée", "i", "ie", "u", "ue", "is", "ise", "it", "ite")


def _word_after_fronted(doc: Any, i: int) -> Any | None:
    """The word (past its article) right after the comma that ends the phrase opened at ``i``, if any."""
    for k in range(i + 1, min(i + 16, len(doc) - 1)):
        if doc[k].text in _CLAUSE_BREAKS:
            return None
        if doc[k].text == ",":
            nxt = k + 1
            while nxt < len(doc) - 1 and _lower(doc[nxt]) in _LIST_ADVERBS:
                nxt += 1
            member = _lower(doc[nxt])
            bare = nxt + 1 < len(doc) and doc[nxt + 1].text == ","
            if bare and is_adjective(member) and not _is_noun_only(member) and member not in ROLE_NOUNS \
                    and not (member in PATIENT_NOUNS and gender_of(member) is not None):
                continue  # another fronted member, a bare adjective: "Malentendant, non appareillé, il ..."
            if _lower(doc[k + 1]) in DETERMINERS and k + 2 < len(doc):
                return doc[k + 2]
            return doc[k + 1]
    return None


def _fronted_subject(doc: Any, i: int) -> str | None:
    """The gender of the patient named right after the comma that ends the phrase opened at ``i``: "il"/"elle", or
    the patient's noun or title ("Madame ___", "la docteure ___"); None when someone else or nothing follows."""
    subject = _word_after_fronted(doc, i)
    if subject is None:
        return None
    if _lower(subject) in ("il", "elle"):
        return "M" if _lower(subject) == "il" else "F"
    if _person_kind(subject) != "patient" or _lower(subject) in _EPICENE_FEMININE:
        return None
    return gender_of(_lower(subject)) or (subject.morph.get("Gender") or ["?"])[0][0]


def _fronted_participles(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """A participle that opens a sentence before ", il/elle ..." agrees with that pronoun, the patient, whatever tag
    the parse gives it (a name, a noun): "Stenté sur l'IVA en 2019, il revient ...", "Ménopausée depuis dix ans,
    elle consulte ..."; so does an adjective (round 17: "Malentendant, non appareillé, il ...")."""
    starts = {a.start for a in found}
    extra = []
    for sent in doc.sents:
        token = sent[0]
        word = _lower(token)
        gender = gender_of(word)
        if token.idx in starts or gender is None or _is_noun_only(word) or (token.i > 0 and not doc[token.i - 1].is_punct) \
                or not (word.endswith(_PARTICIPLE_ENDINGS) or is_adjective(word)) \
                or word in ROLE_NOUNS or _person_kind(token) is not None and token.pos_ not in ("ADJ", "VERB", "PROPN") \
                or token.i + 1 >= len(doc) or doc[token.i + 1].pos_ not in ("ADP", "ADV", "PUNCT"):
            continue  # (a participle takes a complement or an adverb: "Stenté sur", "Ménopausée depuis")
        subject = _fronted_subject(doc, token.i)
        new = inflect(word, gender)
        if subject == gender and new is not None and not _unknown_other_form(word, gender):
            extra.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender,
                                  _match_case(token.text, new), "patient", "fronted participle"))
    return found + extra


def _passive_infinitives(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """Round 17: the participle of a passive infinitive right after a word of the patient ("trop vieille pour être
    opérée", "assez stable pour être transféré") is the patient's too."""
    starts = {a.start for a in found}
    by_start = {a.start: a for a in found}
    extra = []
    for token in doc[3:]:
        before = by_start.get(doc[token.i - 3].idx)
        if before is None or before.controller != "patient" or token.idx in starts or _lower(doc[token.i - 1]) != "être" \
                or _lower(doc[token.i - 2]) not in _INFINITIVE_PREPOSITIONS or gender_of(_lower(token)) != before.gender:
            continue
        new = inflect(_lower(token), before.gender)
        if new is not None:
            extra.append(Agreeing(token.idx, token.idx + len(token.text), token.text, before.gender,
                                  _match_case(token.text, new), "patient", "passive infinitive"))
    return found + extra


_SUBSTANTIVE_ADJECTIVES = frozenset({"seul", "seule", "premier", "première", "dernier", "dernière"})


def _substantive_articles(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """The article of "seul(e)", "premier/première", "dernier/dernière" used as a noun of the patient changes with
    it: "elle est « la seule à s'occuper de sa mère »" -> "il est « le seul à ...»"."""
    starts = {a.start for a in found}
    extra = []
    for item in found:
        if item.controller != "patient" or item.text.lower() not in _SUBSTANTIVE_ADJECTIVES:
            continue
        token = next((t for t in doc if t.idx == item.start), None)
        if token is None or token.i == 0 or token.i + 1 >= len(doc) or _lower(doc[token.i + 1]) not in ("à", "qui"):
            continue
        article = doc[token.i - 1]
        if _lower(article) in ("la", "le") and article.idx not in starts:
            extra.append(_item(doc, article.i, article.i, item.gender, "le" if _lower(article) == "la" else "la",
                               "determiner of a role noun"))
    return found + extra


def _extend_lists(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """Every member of a list agrees as its first member does: "anxieux, pâle, en sueur et agité", "agitée,
    désorientée, non coopérante". From each word agreeing with the patient, the words after a comma or a
    conjunction (adverbs and complements without determiner passed over: "en sueur", "à 39 °C", "au sol")
    that carry the same gender agree with the patient too."""
    starts = {a.start for a in found}
    by_start = {a.start: a for a in found}
    extra: list[Agreeing] = []
    for token in doc:
        first = by_start.get(token.idx)
        if first is None or first.controller != "patient" or first.reason in ("object clitic", "determiner of a role noun"):
            continue
        k = token.i + 1
        while k < len(doc):
            if _lower(doc[k]) in _PLACE_PREPOSITIONS:
                j = k + 1
                while j < len(doc) and (_lower(doc[j]) in DETERMINERS or _lower(doc[j]) in ("de", "d'")
                                        or (doc[j].pos_ in ("NOUN", "PROPN", "ADJ") and _candidate(doc[j]) is None)):
                    j += 1
                if j > k + 1 and j < len(doc) and doc[j].text == ",":
                    k = j
            # a complement without determiner before the link: "fébrile à 39 °C et"
            if _lower(doc[k]) in _BARE_PREPOSITIONS:
                j = k + 1
                while j < len(doc) and _lower(doc[j]) not in _LIST_LINKS and _lower(doc[j]) not in DETERMINERS \
                        and doc[j].pos_ in ("NOUN", "NUM", "SYM", "PROPN", "ADJ", "X", "PUNCT") and doc[j].text not in ".;:":
                    j += 1
                if j < len(doc) and _lower(doc[j]) in _LIST_LINKS:
                    k = j
                else:
                    break
            if _lower(doc[k]) not in _LIST_LINKS:
                break
            j = k + 1
            while j < len(doc) and (_lower(doc[j]) in _LIST_ADVERBS or _lower(doc[j]).endswith("ment")
                                    or _lower(doc[j]) in _LIST_LINKS):  # ", et", ", mais"
                j += 1
            if j >= len(doc):
                break
            nxt = doc[j]
            word = _lower(nxt)
            gender = gender_of(word)
            if word in _BARE_PREPOSITIONS:
                k = j
                continue
            if gender is None:
                if is_adjective(word) or nxt.pos_ == "ADJ":
                    k = j + 1          # an adjective of both genders ("pâle"): the list goes on
                    continue
                break
            after = _lower(doc[j + 1]) if j + 1 < len(doc) else ""
            if gender != first.gender or _is_noun_only(word) or word in ROLE_NOUNS or _abbreviation(nxt) \
                    or (_is_verb(word) and after in ("que", "qu'", "qu’")) or _participle_with_object(nxt):
                break  # (nor an abbreviation, "FC 112", nor a verb before its clause, "disent qu'il ...")
            if _fixed_word(nxt, word, _lower(doc[j - 1]), doc[j + 1] if j + 1 < len(doc) else None):
                break       # "..., dit-il": a verb of saying
            if nxt.pos_ in ("VERB", "AUX", "NOUN") and "Part" not in nxt.morph.get("VerbForm") \
                    and not is_adjective(word):
                break           # "vit seul", "demande un avis": a verb, not a member of the list
            if nxt.idx not in starts:
                new = inflect(word, gender)
                if new is None:
                    break
                item = Agreeing(nxt.idx, nxt.idx + len(nxt.text), nxt.text, gender, _match_case(nxt.text, new),
                                "patient", "coordinated")
                extra.append(item)
                starts.add(nxt.idx)
                by_start[nxt.idx] = item
            k = j + 1
    return found + extra


# kinship nouns said of the patient (feminine -> masculine): "Il est oncle de trois neveux et parrain de ...",
# "Grand-père gardant ses petits-enfants, il ...", "Elle est fille unique"; the one list the reading shares
KINSHIP_PAIRS = person_nouns_fr.kinship_pairs()
_KIN = {**KINSHIP_PAIRS, **{m: f for f, m in KINSHIP_PAIRS.items()}}
# adjectives written before a role noun: "ancienne secrétaire", "grosse fumeuse", "grand sportif"
_PRENOMINAL = frozenset({"ancien", "ancienne", "grand", "grande", "gros", "grosse"})
_EPICENE_PERSON_SUFFIXES = ("iste", "logue", "thérapeute", "aire", "mane", "ique", "ète", "iatre", "pathe", "crate",
                            "naute", "graphe", "pompier", "cadre", "comptable")
_JUDGING_VERBS = frozenset({"trouve", "trouvait", "retrouve", "retrouvait", "juge", "jugeait", "décrit", "décrivait",
                            "voit", "voyait", "sent", "sentait", "considère", "estime", "dit", "disait", "laisse",
                            "découvre", "ramène", "amène", "rend", "rendait"})


def _word_at(doc: Any, i: int) -> tuple[int, str]:
    """(last token, word) of the word starting at token i, joining hyphenated parts spaCy split ('aide', '-',
    'soignante')."""
    j, word = i, _lower(doc[i])
    while j + 2 < len(doc) and doc[j + 1].text == "-" and not doc[j].whitespace_ and not doc[j + 1].whitespace_:
        word += "-" + _lower(doc[j + 2])
        j += 2
    return j, word


# a relative of the patient (child, grandchild, child-in-law, godchild, nephew or niece) and the kinship nouns by
# which that relative names the patient
_CHILD_PARENTS = {
    **dict.fromkeys(("fils", "fille", "filles", "enfant", "enfants"), ("mère", "père", "maman", "papa")),
    **dict.fromkeys(("petit-fils", "petite-fille", "petits-fils", "petites-filles", "petit-enfant", "petits-enfants"),
                    ("grand-mère", "grand-père")),
    **dict.fromkeys(("gendre", "gendres", "belle-fille", "belles-filles", "bru"), ("belle-mère", "beau-père")),
    **dict.fromkeys(("filleul", "filleule", "filleuls", "filleules"), ("marraine", "parrain")),
    **dict.fromkeys(("neveu", "nièce", "neveux", "nièces"), ("tante", "oncle")),
}
# what links a relative to the kinship noun it says of the patient: a preposition of its adjective ("inquiet pour",
# "fâché contre", "attachées à") or the conjunction of its reported speech ("dit que")
_CHILD_LINKS = frozenset({"pour", "contre", "à", "de", "avec", "chez", "que", "qu'", "qu’", "envers", "auprès"})


def _named_by_child(doc: Any, i: int, kin: str) -> bool:
    """Whether the kinship noun at token i (after "sa/son/leur") names the patient through a relative of the
    patient earlier in the sentence whose parent it is: "Son fils, inquiet pour sa mère" (the patient's son
    speaks of his mother, the patient), "Ses petits-fils trouvent leur grand-père changé", "Sa filleule a trouvé
    sa marraine somnolente". The noun must depend on a verb, an adjective or "que" after the relative, not be
    coordinated with it ("sa fille et sa mère": two relatives)."""
    link = _lower(doc[i - 2]) if i >= 2 else ""
    if not (link in _CHILD_LINKS or doc[i - 2].pos_ in ("VERB", "AUX")) or i < 2:
        return False
    for k in range(i - 2):
        if _lower(doc[k]) not in ("son", "sa", "ses"):
            continue
        n = k + 1
        while n < i and (doc[n].like_num or _lower(doc[n]) in ("deux", "trois", "quatre", "cinq")):
            n += 1  # "ses deux petits-fils"
        _, relative = _word_at(doc, n)
        if kin in _CHILD_PARENTS.get(relative, ()):
            return True
    return False


def _item(doc: Any, i: int, j: int, gender: str, new: str, reason: str) -> Agreeing:
    start, end = doc[i].idx, doc[j].idx + len(doc[j].text)
    text = doc.text[start:end]
    return Agreeing(start, end, text, gender, _match_case(text, new), "patient", reason)


def _after_patient(doc: Any, k: int, patient: set[int]) -> bool:
    """Whether the phrase starting after token k is said of the patient: at the start of a sentence, after the
    patient's copula ("elle est (une) ..."), or apposed (after a comma) to a word of the patient's, or to anything
    but someone else's noun."""
    sent = doc[k + 1].sent
    if k >= sent.start and _lower(doc[k]) in ("un", "une"):
        k -= 1
    if k < sent.start:
        return True
    word = _lower(doc[k])
    if word in ETRE:
        if k - 1 < sent.start:
            return False
        subject = doc[k - 1]
        return _lower(subject) in PATIENT_PRONOUNS or _lower(subject) in PATIENT_NOUNS or subject.idx in patient
    if word != ",":
        return False
    if k - 1 < sent.start:
        return True
    before = doc[k - 1]
    low = _lower(before)
    if before.idx in patient or low in PATIENT_NOUNS or low in AGE_NOUNS or low == "___":
        return True
    if low in OTHER_PEOPLE or low in _KIN:
        return False
    return not (before.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "det" for c in before.children))


def _fronted_before_pronoun(doc: Any, j: int) -> bool:
    """Whether the phrase after token j runs, within its clause, to a comma followed by "il" or "elle"."""
    for k in range(j + 1, min(j + 16, len(doc) - 1)):
        word = _lower(doc[k])
        if word in (".", ";", ":", "!", "?"):
            return False
        if word == ",":
            return _lower(doc[k + 1]) in ("il", "elle")
    return False


_JUDGING_PLURALS = frozenset({"trouvent", "trouvaient", "jugent", "disent", "voient", "décrivent", "sentent",
                              "estiment", "considèrent"})


def _relative_clause_predicate(doc: Any, k: int, adjective_at: Any, gender: str, add: Any) -> None:
    """The predicate of a kinship noun of the patient in the relative clause after it, whose subject is the
    relative who judges: "pour sa mère, qu'il trouve de plus en plus amaigrie", "qu'elles disent épuisée"."""
    end = len(doc)
    if k < end and doc[k].text == ",":
        k += 1
    if not (k + 2 < end and _lower(doc[k]) in ("qu'", "qu’", "que") and _lower(doc[k + 1]) in ("il", "elle", "ils", "elles")
            and _lower(doc[k + 2]) in _JUDGING_VERBS | _JUDGING_PLURALS):
        return
    k += 3
    while k < end and (_lower(doc[k]) in ADVERBS or _lower(doc[k]) in _LIST_ADVERBS or _lower(doc[k]) in ("en", "de")):
        k += 1  # "de plus en plus"
    if adjective_at(k):
        add(_item(doc, k, k, gender, inflect(_lower(doc[k]), gender) or "", "predicative"))


def _kin_predicate_run(doc: Any, j: int, gender: str, add: Any) -> None:
    """What agrees with a kinship noun of the patient ending at token j: its adjective ("le frère aîné") and a
    role noun coordinated with it, with its article and adjective ("et le tuteur légal de l'enfant")."""
    end = doc[j].sent.end

    def adjective_at(k: int) -> bool:
        word = _lower(doc[k])
        return k < end and gender_of(word) == gender and is_adjective(word) and not _is_noun_only(word) \
            and not _is_plural(doc[k]) and inflect(word, gender) is not None

    k = j + 1
    if adjective_at(k):
        add(_item(doc, k, k, gender, inflect(_lower(doc[k]), gender) or "", "role noun"))
        k += 1
    _relative_clause_predicate(doc, k, adjective_at, gender, add)
    if k + 2 < end and _lower(doc[k]) == "et" and _lower(doc[k + 1]) == ("la" if gender == "F" else "le"):
        n, noun = _word_at(doc, k + 2)
        other = inflect(noun, gender) if gender_of(noun) == gender else None
        if other is not None and noun not in _KIN and (noun in ROLE_NOUNS or other in _noun_forms()):
            add(_item(doc, k + 1, k + 1, gender, "le" if gender == "F" else "la", "determiner of a role noun"))
            add(_item(doc, k + 2, n, gender, other, "role noun"))
            if n + 1 < end and adjective_at(n + 1):
                add(_item(doc, n + 1, n + 1, gender, inflect(_lower(doc[n + 1]), gender) or "", "role noun"))


def _patient_nouns(doc: Any, found: list[Agreeing]) -> list[Agreeing]:
    """Words said of the patient that the parse misses (issue 22, round 3): role nouns after an adjective
    ("ancienne secrétaire", "un ancien ouvrier", "ancienne kinésithérapeute"), kinship nouns of the patient
    ("Il est oncle ... et parrain ...") and the adjective after an object clitic and a verb of judging ("qui la
    trouve ralentie", "Son fils, pompier, la trouve très affaiblie")."""
    taken = {a.start for a in found}
    patient = {a.start for a in found if a.controller == "patient"}
    extra: list[Agreeing] = []

    def add(item: Agreeing) -> None:
        if item.start not in taken and item.text != item.replacement:
            extra.append(item)
            taken.add(item.start)
            patient.add(item.start)

    kin_in_sentence: dict[int, bool] = {}
    for token in doc:
        i, word, sent = token.i, _lower(token), token.sent
        if i > sent.start and doc[i - 1].text == "-" and not doc[i - 1].whitespace_:
            continue  # the tail of a hyphenated word
        # an adjective before a role noun
        if word in _PRENOMINAL and i + 1 < sent.end and doc[i + 1].text != "-":
            gender = gender_of(word)
            j, noun = _word_at(doc, i + 1)
            noun_gender = gender_of(noun)
            # a person noun: a role noun, a noun whose other-gender form is a noun or adjective too (ouvrier /
            # ouvrière, not cicatrice / *cicateur), or an epicene noun with a suffix of persons (kinésithérapeute)
            other = inflect(noun, gender) if noun_gender == gender else None
            person = noun in ROLE_NOUNS or (other is not None and (other in _noun_forms() or is_adjective(other))) \
                or (noun_gender is None and noun.endswith(_EPICENE_PERSON_SUFFIXES))
            if gender and person and noun not in PARTNER_NOUNS | OTHER_PEOPLE and noun not in _KIN \
                    and not _is_plural(doc[j]) and noun_gender in (None, gender) \
                    and (i in patient or doc[i + 1].idx in patient or _after_patient(doc, i - 1, patient)):
                add(_item(doc, i, i, gender, inflect(word, gender) or word, "role noun"))
                if noun_gender == gender and inflect(noun, gender):
                    add(_item(doc, i + 1, j, gender, inflect(noun, gender), "role noun"))
                after = doc[j + 1] if j + 1 < sent.end else None
                if after is not None and gender_of(_lower(after)) == gender and is_adjective(_lower(after)) \
                        and not _is_plural(after) and inflect(_lower(after), gender):
                    # "ancienne secrétaire médicale": the role noun's adjective
                    add(_item(doc, after.i, after.i, gender, inflect(_lower(after), gender), "role noun"))
                det = doc[i - 1] if i > sent.start else None
                if det is not None and _lower(det) in ("un", "une") and i - 2 >= sent.start and _lower(doc[i - 2]) in ETRE:
                    add(_item(doc, det.i, det.i, gender, "une" if _lower(det) == "un" else "un", "determiner of a role noun"))
            continue
        # a kinship noun of the patient
        j, kin = _word_at(doc, i)
        if kin in _KIN:
            prev = _lower(doc[i - 1]) if i > sent.start else ""
            if not prev:
                nxt = _lower(doc[j + 1]) if j + 1 < sent.end else ""
                later = {_lower(t) for t in doc[j + 1:]}  # the parse may end the sentence at a comma
                mine = nxt.endswith("ant") and bool(later & {"il", "elle"})
                # "Mère de deux enfants et grand-mère": the lexicon swaps the first, the coordinated ones here
                mine = mine or (nxt == "de" and j + 2 < sent.end and doc[j + 2].like_num)
                # a kinship noun with a complement fronted before the patient's pronoun: "Fille et petite-fille de
                # diabétiques, elle ...", "Fils d'un patient du box 3, il ..." (a relative alone is at the bedside)
                mine = mine or (nxt in ("de", "d'", "d’", "du", "des", "et") and _fronted_before_pronoun(doc, j))
            elif prev in ETRE:
                mine = i - 2 >= sent.start and _lower(doc[i - 2]) in PATIENT_PRONOUNS
            elif prev in ("le", "la", "l'", "l’") and i - 3 >= sent.start and _lower(doc[i - 2]) in ETRE \
                    and _lower(doc[i - 3]) in PATIENT_PRONOUNS:
                # "elle est la mère de l'enfant du box 4", "il est l'oncle de ...": a definite kinship predicate,
                # its article with it (elided before a vowel: "la tante" -> "l'oncle")
                mine = True
                gender = "F" if kin in KINSHIP_PAIRS else "M"
                new = _KIN[kin]
                article = "l'" if new[:1] in "aeiouyéèêh" else ("le " if gender == "F" else "la ")
                add(_item(doc, i - 1, j, gender, article + new, "role noun"))
            elif prev in ("et", ","):
                # after a kinship noun of the patient, or after the patient's role noun in a list fronted before the
                # patient's pronoun ("Veuve, mère et grand-mère, elle ...")
                before = doc[i - 2] if i - 2 >= sent.start else None
                mine = kin_in_sentence.get(sent.start, False) or (
                    before is not None and before.idx in patient and _fronted_before_pronoun(doc, j))
            elif prev in ("sa", "son", "leur") and _named_by_child(doc, i, kin):
                # "Son fils, inquiet pour sa mère": the possessive changes with the noun ("leur" has one form)
                mine = True
                if prev != "leur":
                    add(_item(doc, i - 1, i - 1, "F" if prev == "sa" else "M", "son" if prev == "sa" else "sa",
                              "determiner of a role noun"))
            else:
                mine = False
            if mine:
                kin_in_sentence[sent.start] = True
                gender = "F" if kin in KINSHIP_PAIRS else "M"
                # ("Fille de 6 ans" opening the note is a child, whose other sex is "Garçon", not "Fils")
                aged = j + 2 < len(doc) and _lower(doc[j + 1]) == "de" and doc[j + 2].like_num
                new = _CHILD_NOUNS[kin][1] if kin in _CHILD_NOUNS and aged and _child_patient(doc[i]) else _KIN[kin]
                add(_item(doc, i, j, gender, new, "role noun"))
                _kin_predicate_run(doc, j, gender, add)
            continue
        # a definite role predicate of the patient, its article with it: "elle est la cheffe de rayon"
        if kin in ROLE_NOUNS and gender_of(kin) and inflect(kin, gender_of(kin)) and i - 3 >= sent.start \
                and _lower(doc[i - 1]) in ("le", "la") and _lower(doc[i - 2]) in ETRE \
                and _lower(doc[i - 3]) in PATIENT_PRONOUNS:
            gender = gender_of(kin)
            new = inflect(kin, gender)
            article = "l'" if new[:1] in "aeiouyéèêh" else ("le " if gender == "F" else "la ")
            add(_item(doc, i - 1, j, gender, article + new, "role noun"))
            continue
        # the adjective after "la/le trouve"
        if word in ("la", "le") and i + 2 < sent.end and _lower(doc[i + 1]) in _JUDGING_VERBS \
                and (i == sent.start or doc[i - 1].pos_ != "ADP" and _lower(doc[i - 1]) not in DETERMINERS):
            gender = "F" if word == "la" else "M"
            add(_item(doc, i, i, gender, "le" if word == "la" else "la", "object clitic"))
            k = i + 2
            while k < sent.end and (_lower(doc[k]) in ADVERBS or _lower(doc[k]) in _LIST_ADVERBS):
                k += 1
            # past adjectives of both genders and their links: "la trouve pâle et couverte de sueurs"
            while k + 1 < sent.end and gender_of(_lower(doc[k])) is None and is_adjective(_lower(doc[k])) \
                    and _lower(doc[k + 1]) in _LIST_LINKS:
                k += 2
                while k < sent.end and (_lower(doc[k]) in ADVERBS or _lower(doc[k]) in _LIST_ADVERBS):
                    k += 1
            if k < sent.end:
                adjective = _lower(doc[k])
                if gender_of(adjective) == gender and not _is_noun_only(adjective) and inflect(adjective, gender):
                    add(_item(doc, k, k, gender, inflect(adjective, gender), "predicative"))
    return found + extra


def analyse(doc: Any) -> list[Agreeing]:
    """Words of a parsed French text that agree with the patient or partner (see the module docstring), and the
    words the lexicon would swap that name someone else (reason "kept": the swapper leaves them)."""
    found = _analyse(doc)
    for step in (_patient_nouns, _person_states, _distant_predicates, _patient_list_members, _fronted_participles,
                 _extend_lists, _participle_predicates, _substantive_articles, _passive_infinitives):
        found = step(doc, found)  # each pass adds what the ones before it make visible
    taken = {a.start for a in found}
    extra = [a for a in _apposed_sex_nouns(doc) + _apposed_to_victim(doc) + _sex_letters(doc) + _nicknames(doc)
             + _partner_roles(doc) + _partner_phrases(doc) + _little_ones(doc)
             + _familiar_titles(doc) + _patient_titles(doc) + _child_nouns(doc) + _epicene_articles(doc) if a.start not in taken]
    return found + extra + _kept_words(doc)


# nicknames of a person (feminine -> masculine) beside the kinship and role nouns
_NICKNAME_PAIRS = {"mamie": "papi", "mamy": "papy", "mémé": "pépé", "mémère": "pépère", "tata": "tonton",
                   "doyenne": "doyen", "reine": "roi", "princesse": "prince", "patronne": "patron"}
_NICKNAMES = {**_NICKNAME_PAIRS, **{m: f for f, m in _NICKNAME_PAIRS.items()}, **_KIN, **_ROLE_PAIRS}
_NICKNAME_SEX = {**{f: "F" for f in _NICKNAME_PAIRS}, **{m: "M" for m in _NICKNAME_PAIRS.values()},
                 **{f: "F" for f in KINSHIP_PAIRS}, **{m: "M" for m in KINSHIP_PAIRS.values()}, **_ROLE_SEXES}
# a verb of naming whose object is the patient (after "l'"/"la"/"le"), or a participle said of the patient
_NAMING_VERBS = frozenset({"appelle", "appellent", "appelait", "appelaient", "surnomme", "surnomment", "nomme",
                           "nomment", "surnommait", "surnommaient"})
_NAMING_PARTICIPLES = frozenset({"surnommé", "surnommée", "dit", "dite", "appelé", "appelée"})


_EPICENE_OPENERS = frozenset({"enfant", "gendarme", "journaliste", "photographe", "militaire", "secrétaire", "artiste",
                              "pilote", "adjointe", "adjoint", "architecte", "guide", "interprète", "libraire",
                              "sans-abri", "sdf", "sans-domicile"})


def _epicene_patient(token: Any) -> bool:
    """A noun of a person with one form for both sexes ("enfant", "gendarme", "journaliste") that opens the
    sentence, after an article at most, and is followed by the age ("Une enfant de 4 ans, adressée ...", "La
    journaliste, 40 ans, ...") or by an adjective and the patient's pronoun ("Photographe indépendant, il ...")
    names the patient: its article and its words follow the patient's sex."""
    word, doc, i = _lower(token), token.doc, token.i
    if not (word in _EPICENE_OPENERS or (gender_of(word) is None and word.endswith(_EPICENE_PERSON_SUFFIXES)
                                         and word in _noun_forms())):
        return False
    if _subject_of_patient_event(token):
        return True  # "La pédiatre de garde, prise d'un malaise, est installée en box 3"
    before = doc[token.sent.start: i]
    if len(before) > 1 or (before and _lower(before[0]) not in ("un", "une", "le", "la", "l'", "l’")):
        return False
    after = [_lower(t) for t in doc[i + 1: i + 4]]
    aged = len(after) >= 2 and ((after[0] == "de" and doc[i + 2].like_num) or (after[0] == "," and doc[i + 2].like_num))
    # (an adjective of the role, not a participle of what happened to someone: "Cadre prévenue, elle ...")
    described = len(after) >= 3 and is_adjective(after[0]) and gender_of(after[0]) is not None \
        and not _is_verb(after[0]) and after[1] == "," and after[2] in ("il", "elle")
    return aged or described or _described_with_complement(token)


def _described_with_complement(token: Any) -> bool:
    """An epicene person noun opening the sentence, then a participle with its complement, then, after a comma, the
    patient's pronoun as the subject: "Sans-abri connu du SAMU social, il est amené", "SDF connue du quartier,
    surnommée ..., elle ..."."""
    doc, i = token.doc, token.i
    if i + 3 >= len(doc) or gender_of(_lower(doc[i + 1])) is None or _lower(doc[i + 2]) not in ("de", "du", "des", "d'", "pour"):
        return False
    k = i + 3
    while k < len(doc) and doc[k].text not in _CLAUSE_BREAKS:
        if doc[k].text == "," and k + 1 < len(doc) and _lower(doc[k + 1]) in ("il", "elle"):
            return True
        k += 1
    return False


def _epicene_articles(doc: Any) -> list[Agreeing]:
    """The article of an epicene noun naming the patient (_epicene_patient) follows the patient's sex."""
    out = []
    for token in doc:
        if token.i > token.sent.start and _lower(token.nbor(-1)) in ("un", "une", "le", "la") and _epicene_patient(token):
            article = token.nbor(-1)
            sex = "F" if _lower(article) in ("une", "la") else "M"
            out.append(_item(doc, article.i, article.i, sex, DET_SWAP[_lower(article)], "determiner of a role noun"))
    return out


_CHILD_NOUNS = {"garçon": ("M", "fille"), "fille": ("F", "garçon")}
_CHILD_WORDS_BEFORE = {"le": "la", "la": "le", "un": "une", "une": "un", "petit": "petite", "petite": "petit",
                       "jeune": "jeune"}


def _child_patient(token: Any) -> bool:
    """"garçon" / "fille" opening its sentence, after an article or "petit(e)" only, names the child patient ("Le
    garçon est tombé", "Petite fille de 3 ans amenée par ..."); "fille" must not be followed by a complement other
    than an age ("la fille de la patiente", "fille aînée": a daughter)."""
    word = _lower(token)
    if word not in _CHILD_NOUNS or any(_lower(t) not in _CHILD_WORDS_BEFORE for t in token.doc[token.sent.start: token.i]):
        return False
    doc, i = token.doc, token.i
    nxt = _lower(doc[i + 1]) if i + 1 < len(doc) else ""
    if word == "fille" and (nxt in ("aînée", "unique", "cadette", "du", "des", "d'", "d’") or (
            nxt == "de" and not (i + 2 < len(doc) and doc[i + 2].like_num))):
        return False
    return True


def _child_nouns(doc: Any) -> list[Agreeing]:
    """The child patient's "garçon" / "fille" and the words before it (_child_patient) swap to the other sex."""
    out = []
    for token in doc:
        if not _child_patient(token):
            continue
        sex, new = _CHILD_NOUNS[_lower(token)]
        out.append(_item(doc, token.i, token.i, sex, new, "role noun"))
        for t in doc[token.sent.start: token.i]:
            if _CHILD_WORDS_BEFORE[_lower(t)] != _lower(t):
                out.append(_item(doc, t.i, t.i, sex, _CHILD_WORDS_BEFORE[_lower(t)], "determiner of a role noun"))
    return out


def _little_one(token: Any) -> bool:
    """"le petit" / "la petite" as a noun (a verb, a comma or "qui" after it, no noun) names the child patient, as
    "le garçon" does: "la petite est geignarde", "Son père dit que le petit a avalé une pile"; not after "de" or a
    possessive ("la mère du petit", "sa petite") nor before a name ("le petit ___", another child)."""
    doc, i = token.doc, token.i
    if _lower(token) not in ("petit", "petite") or i == 0 or i + 1 >= len(doc):
        return False
    article = _lower(doc[i - 1])
    if article != ("le" if _lower(token) == "petit" else "la"):
        return False
    if i >= 2 and _lower(doc[i - 2]) in ("de", "du", "à", "au", "avec", "pour", "chez"):
        return False
    nxt = doc[i + 1]
    return nxt.text == "," or _lower(nxt) in ("qui", "ne", "n'", "n’", "se", "s'", "s’", "l'", "l’", "lui", "y", "en") \
        or (nxt.pos_ in ("VERB", "AUX") and not nxt.text.startswith("_"))


def _little_ones(doc: Any) -> list[Agreeing]:
    """The child patient named "le petit" / "la petite" (_little_one) swaps with its article."""
    out = []
    for token in doc:
        if _little_one(token):
            sex = "M" if _lower(token) == "petit" else "F"
            out.append(_item(doc, token.i - 1, token.i - 1, sex, "la" if sex == "M" else "le", "determiner of a role noun"))
            out.append(_item(doc, token.i, token.i, sex, "petite" if sex == "M" else "petit", "role noun"))
    return out


def _partner_roles(doc: Any) -> list[Agreeing]:
    """A role noun after "son/sa" apposed or predicated to the partner's noun is the partner's, and changes with
    the partner: "son épouse, qui est son aidante principale" -> "son époux, qui est son aidant principal",
    "sa compagne ___, son aidante depuis ..." (its possessive and its adjective with it)."""
    out = []
    for token in doc:
        word = _lower(token)
        if word not in ROLE_NOUNS or token.i < 3 or _lower(token.nbor(-1)) not in ("son", "sa"):
            continue
        k = token.i - 2
        while k > 0 and (_lower(doc[k]) in ("qui", "est", "était", ",", "devenu", "devenue") or doc[k].text.strip("_") == ""):
            k -= 1
        if not (doc[k].i < token.i - 2 and _person_kind(doc[k]) == "partner"):
            continue
        gender = _ROLE_SEXES.get(word)
        new = inflect(word, gender) if gender else None
        if new is None:
            continue
        out.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender, _match_case(token.text, new),
                            "partner", "role noun"))
        possessive = token.nbor(-1)
        mine = "sa" if gender == "M" and new[:1] not in "aeiouyéèêh" else "son"
        if _lower(possessive) != mine:
            out.append(Agreeing(possessive.idx, possessive.idx + len(possessive.text), possessive.text, gender,
                                _match_case(possessive.text, mine), "partner", "determiner of a role noun"))
        after = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if after is not None and gender_of(_lower(after)) == gender and is_adjective(_lower(after)) \
                and inflect(_lower(after), gender):
            out.append(Agreeing(after.idx, after.idx + len(after.text), after.text, gender,
                                _match_case(after.text, inflect(_lower(after), gender) or ""), "partner", "role noun"))
    return out


# Round 15: the partner named with an adjective between the possessive and the noun ("son défunt mari", "sa
# nouvelle compagne"), or as the person the patient is married to ("Marié depuis 2015 à un homme", "mariée à un
# ambulancier"): the partner changes with the patient, with the words that agree with the partner.
_PARTNER_ADJECTIVE_PAIRS = {"défunte": "défunt", "ancienne": "ancien", "nouvelle": "nouveau", "actuelle": "actuel",
                            "première": "premier", "seconde": "second", "regrettée": "regretté", "future": "futur"}
_PARTNER_ADJECTIVES = {**_PARTNER_ADJECTIVE_PAIRS, **{m: f for f, m in _PARTNER_ADJECTIVE_PAIRS.items()},
                       "nouvel": "nouvelle"}
_MARRIED = frozenset({"marié", "remarié", "pacsé", "fiancé"})
_SEX_NOUNS = {"femme": ("F", "homme"), "homme": ("M", "femme")}


def _swap_item(token: Any, new: str, gender: str, reason: str) -> Agreeing:
    return Agreeing(token.idx, token.idx + len(token.text), token.text, gender, _match_case(token.text, new),
                    "partner", reason)


def _partner_with_adjective(doc: Any, i: int) -> list[Agreeing]:
    """"son défunt mari" -> "sa défunte femme", "sa défunte femme" -> "son défunt mari": the possessive and the
    adjective follow the partner; "femme" there is the wife (the lexicon would read a woman), so "mari"."""
    noun, word = doc[i], _lower(doc[i])
    if i < 2 or _lower(doc[i - 1]) not in _PARTNER_ADJECTIVES or _lower(doc[i - 2]) not in ("son", "sa"):
        return []
    if word not in PARTNER_NOUNS | {"femme"} or word in ("ami", "amie"):
        return []  # ("son nouvel ami": a friend as well as a partner)
    gender = "F" if word in _FEMININE_PARTNERS else "M"
    new_gender = "M" if gender == "F" else "F"
    adjective = _PARTNER_ADJECTIVES[_lower(doc[i - 1])]
    new_noun = {"femme": "mari", "mari": "femme"}.get(word) or inflect(word, gender) or word
    if adjective == "nouveau" and new_noun[:1] in "aeiouéèêh":
        adjective = "nouvel"
    possessive = "sa" if new_gender == "F" and adjective[:1] not in "aeiouéèêh" else "son"
    out = [_swap_item(doc[i - 2], possessive, gender, "determiner of a role noun"),
           _swap_item(doc[i - 1], adjective, gender, "apposed")]
    if word == "femme":  # (kept from the lexicon's "homme", then swapped to the partner's noun)
        out += [Agreeing(noun.idx, noun.idx + len(noun.text), noun.text, "F", noun.text, "other", "kept"),
                _swap_item(noun, new_noun, gender, "role noun")]
    return out


def _married_to(doc: Any, i: int) -> list[Agreeing]:
    """"Marié depuis dix ans à un ambulancier" -> "Mariée depuis dix ans à une ambulancière": the person after "à"
    or "avec" and an indefinite article, the object of a participle of marrying, is the partner."""
    article = doc[i - 1] if i >= 1 else None
    if article is None or _lower(article) not in ("un", "une") or i < 3 or _lower(doc[i - 2]) not in ("à", "avec"):
        return []
    k = i - 3
    while k >= 0 and i - k <= 8 and not doc[k].is_punct and (to_masculine(_lower(doc[k])) or _lower(doc[k])) not in _MARRIED:
        k -= 1
    if k < 0 or doc[k].is_punct or (to_masculine(_lower(doc[k])) or _lower(doc[k])) not in _MARRIED:
        return []
    word = _lower(doc[i])
    gender, new = _SEX_NOUNS.get(word, (_ROLE_SEXES.get(word), _ROLE_PAIRS.get(word)))
    if gender is None or new is None:
        return []
    return [_swap_item(article, "une" if _lower(article) == "un" else "un", gender, "determiner of a role noun"),
            _swap_item(doc[i], new, gender, "role noun")]


def _partner_phrases(doc: Any) -> list[Agreeing]:
    return [item for token in doc for item in _partner_with_adjective(doc, token.i) + _married_to(doc, token.i)]


_FAMILIAR = frozenset({"mamie", "mamy", "mémé", "papi", "papy", "pépé"})


def _familiar_titles(doc: Any) -> list[Agreeing]:
    """"la mamie" / "le papi" with a definite article names the patient, as "la dame" does (round 11), and swaps
    with its article ("La mamie du lit 4 réclame sa fille"); with a possessive it is a grandparent, and is kept."""
    out = []
    for token in doc:
        word = _lower(token)
        if word not in _FAMILIAR or token.i == 0:
            continue
        article = token.nbor(-1)
        sex = _NICKNAME_SEX[word]
        if _lower(article) != ("la" if sex == "F" else "le") or (article.i > 0 and article.nbor(-1).text in _QUOTES):
            continue  # (a nickname in quotes is _nicknames')
        out.append(_item(doc, article.i, article.i, sex, "le" if sex == "F" else "la", "sex word"))
        out.append(_item(doc, token.i, token.i, sex, _NICKNAMES[word], "sex word"))
    return out


# Round 17: a doctor's or professor's title before the name's placeholder ("le Dr ___", "la Pr ___"); its article
# says the person's sex, and the person may be the patient ("Le Dr ___, chef de service, est admis ...")
_TITLES = frozenset({"dr", "dr.", "pr", "pr.", "docteur", "docteure", "professeur", "professeure"})
_TITLE_PAIRS = {"docteur": "docteure", "docteure": "docteur", "professeur": "professeure", "professeure": "professeur"}
_HONORIFICS = frozenset({"mme", "m.", "madame", "monsieur", "mlle"})


def _title_article(token: Any) -> Any | None:
    """The article of a title followed by the name's placeholder ("le Dr ___", "Mme la Pr ___"), else None."""
    doc, i = token.doc, token.i
    if _lower(token) not in _TITLES or i == 0 or i + 1 >= len(doc) or not doc[i + 1].text.startswith("_"):
        return None
    return doc[i - 1] if _lower(doc[i - 1]) in ("le", "la") else None


def _title_is_patient(token: Any) -> bool:
    """The titled person is the patient after an honorific, which the lexicon always swaps ("Mme la Pr ___" <->
    "M. le Pr ___"), or as the subject of what happens to a patient ("le Dr ___, chef de service, est admis")."""
    article = _title_article(token)
    if article is None:
        return False
    return (article.i > 0 and _lower(article.nbor(-1)) in _HONORIFICS) or _subject_of_patient_event(token)


def _patient_titles(doc: Any) -> list[Agreeing]:
    """The article of the patient's title, and the title itself where it has two forms ("le docteur ___" <-> "la
    docteure ___"; "Dr" and "Pr" have one)."""
    out = []
    for token in doc:
        if not _title_is_patient(token):
            continue
        article = token.nbor(-1)
        sex = "F" if _lower(article) == "la" else "M"
        out.append(_item(doc, article.i, article.i, sex, "le" if sex == "F" else "la", "determiner of a title"))
        if _lower(token) in _TITLE_PAIRS:
            out.append(_item(doc, token.i, token.i, sex, _TITLE_PAIRS[_lower(token)], "title"))
    return out


def _nicknames(doc: Any) -> list[Agreeing]:
    """A nickname in quotes by which others name the patient follows the patient's sex, its article with it:
    "l'appellent « Mamie Lou »" -> « Papi Lou », "surnommée « la Grand-mère »" -> "surnommé « le Grand-père »",
    "dit « le Capitaine »" -> "dite « la Capitaine »" (a noun of one form keeps its form). "il appelle « maman »",
    with no object pronoun, is the patient calling someone else, and is kept."""
    out = []
    for token in doc:
        if token.text not in ("«", "“", '"') or token.i == 0:
            continue
        i = token.i
        verb = _lower(doc[i - 1])
        known = [t for t in doc[max(0, i - 8): i - 1] if (to_masculine(_lower(t)) or _lower(t)) in ("connu", "surnommé")]
        if verb == "comme" and known:  # "connue de tous comme « la Doyenne »"
            participle = known[-1]
        elif verb in _NAMING_PARTICIPLES and not (i >= 2 and doc[i - 2].pos_ == "PRON"):  # (not "elle dit « ... »")
            participle = doc[i - 1]
        elif verb in _NAMING_VERBS and i >= 2 and _lower(doc[i - 2]) in ("l'", "l’", "la", "le"):
            participle = None
        else:
            continue
        k = i + 1
        article = doc[k] if k < len(doc) and _lower(doc[k]) in ("la", "le") else None
        if article is not None:
            k += 1
        if k >= len(doc):
            continue
        j, noun = _word_at(doc, k)
        if not doc[k].text[:1].isupper():
            continue  # a nickname is written with a capital
        sex = _NICKNAME_SEX.get(noun) or (("F" if _lower(article) == "la" else "M") if article is not None else None)
        if sex is None:
            continue
        # a nickname of the lexicons, or a noun or adjective of the nickname's gender ("la Doyenne", "le Grand")
        new = _NICKNAMES.get(noun) or (inflect(noun, sex) if j == k and gender_of(noun) == sex
                                       and not _unknown_other_form(noun, sex) else None)
        if new:
            out.append(_item(doc, k, j, sex, _match_case(doc[k].text, new), "sex word"))
        if article is not None:
            out.append(_item(doc, article.i, article.i, sex, _match_case(article.text, "le" if sex == "F" else "la"),
                             "sex word"))
        if participle is not None and gender_of(_lower(participle)) == sex and inflect(_lower(participle), sex):
            out.append(_item(doc, participle.i, participle.i, sex, _match_case(
                participle.text, inflect(_lower(participle), sex) or ""), "sex word"))
    return out


_SEX_LETTERS = {"H": ("M", "F"), "F": ("F", "H")}


def _sex_letters(doc: Any) -> list[Agreeing]:
    """The sex letter that opens a triage line before the age ("H 71 ans, ...", "F, 19 ans"): French notes write
    H (homme) and F (femme) there; the letter swaps both ways. Elsewhere a lone letter is no sex ("16 F" is a
    catheter gauge, "Sexe : M" is the lexicon's)."""
    out = []
    for token in doc:
        if token.text not in _SEX_LETTERS:
            continue
        i = token.i
        if i > 0 and not (doc[i - 1].is_space or doc[i - 1].text in (".", ";", ":", "\n")):
            continue
        k = i + 1 if i + 1 < len(doc) and doc[i + 1].text == "," else i
        if k + 2 < len(doc) and doc[k + 1].like_num and _lower(doc[k + 2]) in ("ans", "an", "a"):
            gender, new = _SEX_LETTERS[token.text]
            out.append(Agreeing(token.idx, token.idx + 1, token.text, gender, new, "patient", "sex word"))
    return out


# feminine nouns that name the patient while their words keep the noun's gender ("la victime, ..., renversée")
_EPICENE_FEMININE = frozenset({"victime", "personne"})


def _apposed_sex_nouns(doc: Any) -> list[Agreeing]:
    """"une femme" / "un homme" apposed, after a comma, to the partner's noun ("sa compagne, une femme d'une
    trentaine d'années": the partner's, who changes sex with the patient) or to "la victime" (the patient)."""
    out = []
    for token in doc:
        i = token.i  # (the parse may end a sentence at the comma: the bounds are the text's)
        word = _lower(token)
        if word not in ("femme", "homme") or i < 3 or doc[i - 2].text != ",":
            continue
        article = _lower(doc[i - 1])
        if (article, word) not in (("une", "femme"), ("un", "homme")):
            continue
        host = doc[i - 3]
        kind = _person_kind(host)
        if kind != "partner" and not (_lower(host) in _EPICENE_FEMININE and i >= 4
                                      and _lower(doc[i - 4]) in ("la", "une")):
            continue
        gender = "F" if word == "femme" else "M"
        controller = "partner" if kind == "partner" else "patient"
        for t, new in ((doc[i - 1], "un" if gender == "F" else "une"), (token, "homme" if gender == "F" else "femme")):
            out.append(Agreeing(t.idx, t.idx + len(t.text), t.text, gender, _match_case(t.text, new), controller,
                                "sex word"))
    return out


def _apposed_to_victim(doc: Any) -> list[Agreeing]:
    """A person noun with an indefinite article apposed to "la victime" / "la personne" names the patient: its
    article (and its form, for a role noun) follows the patient's sex ("La victime, un cycliste de 60 ans" -> "une
    cycliste", "La victime, une sexagénaire" -> "un sexagénaire"); "une femme" / "un homme" are _apposed_sex_nouns'."""
    out = []
    for token in doc:
        i = token.i
        if _lower(token) not in ("un", "une") or i < 3 or doc[i - 1].text != "," or i + 1 >= len(doc):
            continue
        if _lower(doc[i - 2]) not in _EPICENE_FEMININE or _lower(doc[i - 3]) not in ("la", "une"):
            continue
        j, noun = _word_at(doc, i + 1)
        if noun in ("femme", "homme"):
            continue
        sex = "F" if _lower(token) == "une" else "M"
        role = noun in ROLE_NOUNS and _ROLE_SEXES.get(noun) == sex
        if not (role or (gender_of(noun) is None and noun.endswith(_EPICENE_PERSON_SUFFIXES + ("génaire",)))):
            continue
        out.append(_item(doc, i, i, sex, "un" if sex == "F" else "une", "sex word"))
        if role and inflect(noun, sex):
            out.append(_item(doc, i + 1, j, sex, inflect(noun, sex) or noun, "sex word"))
    return out


_PATIENT_TITLES = frozenset({"patient", "patiente", "pt", "pte", "monsieur", "madame", "dame", "mademoiselle"})
# a bed or room after a patient noun names which patient: "le fils du patient du box 3"
_PLACE_NOUNS = frozenset({"box", "lit", "chambre", "brancard", "fauteuil", "salle"})


def _word_ending_at(doc: Any, k: int) -> tuple[int, str]:
    """(first token, word) of the word ending at token k, joining hyphenated parts ('belle', '-', 'mère')."""
    i, word = k, _lower(doc[k])
    while i - 2 >= 0 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_ and not doc[i - 2].whitespace_:
        word = _lower(doc[i - 2]) + "-" + word
        i -= 2
    return i, word


def _other_patient(token: Any) -> list[Any]:
    """The tokens to keep when a patient noun names another patient (round 9), else []: the complement of a
    relative's, a partner's or a neighbour's noun with its bed or room ("le fils du patient du box 3", "Gendre de
    la patiente du box 4", "le mari de la dame du lit 5": the host noun too when it is a partner's), or the agent
    of a passive said of the patient ("elle a été agressée par un patient agité", "il a été blessé par le patient
    qu'il transportait")."""
    doc, i, sent = token.doc, token.i, token.sent
    if _lower(token) not in _PATIENT_TITLES or i == sent.start:
        return []
    prev = _lower(doc[i - 1])
    dets = [doc[i - 1]]
    if prev == "la" and i - 2 >= sent.start and _lower(doc[i - 2]) == "de":
        dets = [doc[i - 2], doc[i - 1]]
    elif prev not in ("du", "le", "la", "l'", "un", "une", "de", "d'"):
        return []
    k = dets[0].i - 1
    nxt = [_lower(t) for t in doc[i + 1: min(i + 4, sent.end)]]
    placed = len(nxt) >= 2 and nxt[0] in ("du", "de", "en", "au") and (nxt[1] in _PLACE_NOUNS or (
        nxt[1] == "la" and len(nxt) > 2 and nxt[2] in _PLACE_NOUNS))
    if k >= sent.start and _lower(dets[0]) in ("du", "de") and placed:
        first, host = _word_ending_at(doc, k)
        if host in _KIN or host in OTHER_PEOPLE or host in ROLE_NOUNS:
            return [token, *dets]
        if host in PARTNER_NOUNS or host in ("femme", "homme"):
            keep = [token, *dets, *doc[first: k + 1]]
            if first > sent.start and _lower(doc[first - 1]) in DETERMINERS:
                keep.append(doc[first - 1])
            return keep
    if prev in ("un", "une") and _lower(token) in ("patient", "patiente") and k >= sent.start \
            and _lower(doc[k]) not in ETRE | {"de", "d'", "d’", "c'est", "c’est"} \
            and any(_lower(t) in PATIENT_PRONOUNS for t in doc[sent.start: k]):
        # "elle s'est blessée en soulevant un patient": after the patient's pronoun, a new patient is someone else
        return [token, *dets]
    if k >= sent.start and _lower(doc[k]) == "par" and prev in ("le", "la", "l'", "un", "une"):
        before = {_lower(t) for t in doc[sent.start: k]}
        if prev in ("un", "une") or before & {"il", "elle"}:
            return [token, *dets]
    # round 16: once the patient is named in the sentence (its pronoun, or the noun that opens it), a patient noun shared a room with ("avec la patiente du
    # lit B", "avec un monsieur agité") or placed beside ("la dame d'à côté", "le patient du box 2") is a neighbour
    beside = placed or nxt[:3] == ["d'", "à", "côté"] or (k >= sent.start and _lower(doc[k]) == "avec")
    if beside and prev in ("le", "la", "l'", "un", "une", "du") and any(
            _lower(t) in PATIENT_PRONOUNS or (_lower(t) in _PATIENT_TITLES and t.i <= sent.start + 1)
            for t in doc[sent.start: dets[0].i]):
        return [token, *dets]
    j = next((t.i for t in doc[i + 1: min(i + 6, len(doc))] if t.text == ","), i)  # (the parse may cut there)
    if placed and prev in ("le", "la", "l'", "un", "une") and j + 2 < len(doc) and doc[j].text == "," \
            and _lower(doc[j + 1]) in POSSESSIVES and _lower(doc[j + 2]) in OTHER_PEOPLE | set(_KIN):
        return [token, *dets]  # round 17: "le patient du box 3, son voisin de palier": someone's relation
    return []


def _neuter_alone(token: Any) -> bool:
    """Whether "seul(e)" (or the "tout(e)" before it) is said of "ça"/"cela", the subject of its clause: it stays
    masculine ("ça s'est arrêté tout seul")."""
    doc = token.doc
    k = token.i + 1 if _lower(token) in ("tout", "toute") else token.i
    if _lower(token) not in ("seul", "seule", "tout", "toute") or k >= len(doc) or _lower(doc[k]) not in ("seul", "seule"):
        return False
    for t in reversed(doc[:token.i]):
        if t.is_punct or _lower(t) in ("que", "qu'", "qu’", "et", "mais"):
            return False
        if _lower(t) in ("ça", "cela", "ceci"):
            return True
    return False


def _relative_speaks(token: Any) -> bool:
    """The subject pronoun of a relative clause whose object is the patient named by a relative ("pour sa mère,
    qu'il trouve amaigrie"): the one who finds is the relative, who keeps their pronoun."""
    doc, i = token.doc, token.i
    if _lower(token) not in ("il", "elle", "ils", "elles") or i < 3 or _lower(doc[i - 1]) not in ("qu'", "qu’", "que"):
        return False
    k = i - 2 if doc[i - 2].text != "," else i - 3
    if k < 1 or _lower(doc[k - 1]) not in ("sa", "son", "leur"):
        return False
    start, kin = _word_ending_at(doc, k)
    return kin in _KIN and start == k and _named_by_child(doc, k, kin)


_CLAUSE_OPENERS = frozenset({"que", "qu'", "qu’", "qui", "quand", "lorsque", "car", "mais", "si", "comme", "dont"})


def _emphatic_of_relative(token: Any) -> bool:
    """"elle-même" / "lui-même" in a clause whose subject is a relative named with a possessive, with no pronoun of
    the patient as a subject between them, is the relative's: "Sa fille ... l'a amenée elle-même", "Son fils l'a
    conduit lui-même aux urgences"."""
    if _lower(token) not in ("elle-même", "lui-même") or token.dep_ == "appos":
        return False
    doc = token.doc
    for k in range(token.i - 1, token.sent.start - 1, -1):
        t = doc[k]
        if (_lower(t) in ("il", "elle") and t.pos_ == "PRON") or _lower(t) in _CLAUSE_OPENERS:
            return False  # (another subject, or another clause: "dit que son grand-père n'est plus lui-même")
        if t.pos_ in ("NOUN", "PROPN") and k > 0 and _lower(doc[k - 1]) in POSSESSIVES and k - 1 == token.sent.start:
            return _lower(t) in OTHER_PEOPLE or _lower(t) in _KIN
    return False


def _emphatic_of_other(token: Any) -> bool:
    """"son fils, lui-même très inquiet": an emphatic pronoun apposed to a relative's or staff member's noun."""
    if _lower(token) not in _EMPHATICS:
        return False
    noun = _apposed_emphatic(token)
    return noun is not None and _kind(noun) is None and _other_person_gender(noun) is not None


def _others_partner(token: Any) -> list[Any]:
    """Round 17: a partner noun with its article and a relative as complement names that relative's partner, kept
    with its article: "la compagne de son père", "le mari de sa sœur"; else []."""
    doc, i = token.doc, token.i
    if _lower(token) not in PARTNER_NOUNS | {"femme"} or i == 0 or i + 3 >= len(doc) \
            or _lower(doc[i - 1]) not in ("le", "la", "l'", "l’", "un", "une") or _lower(doc[i + 1]) != "de":
        return []
    owner = _lower(doc[i + 3])
    if _lower(doc[i + 2]) in POSSESSIVES and (owner in _KIN or owner in OTHER_PEOPLE):
        return [doc[i - 1], token]
    return []


def _kept_words(doc: Any) -> list[Agreeing]:
    out = []
    for token in doc:
        if _speaker_after_colon(token) or _neuter_alone(token) or _relative_speaks(token) or _emphatic_of_relative(token) \
                or _emphatic_of_other(token):
            out.append(Agreeing(token.idx, token.idx + len(token.text), token.text, "F", token.text, "other", "kept"))
        for t in _other_patient(token) + _others_partner(token):
            out.append(Agreeing(t.idx, t.idx + len(t.text), t.text, "F", t.text, "other", "kept"))
    return out


def _analyse(doc: Any) -> list[Agreeing]:
    found: list[Agreeing] = []
    role_tokens = []
    for token in doc:
        word = _lower(token)
        gender = _candidate(token)
        is_role = word in ROLE_NOUNS or _compound(token) in ROLE_NOUNS
        if gender is not None and not is_role and _agrees_with_noun_before(token, gender):
            continue  # ("maître-nageur": the tail of a role noun agrees with its head, and is the role noun)
        if gender is not None:
            if is_role and word not in ("ancien", "ancienne"):
                # "Son mari, boulanger, ...": a role noun apposed to the partner changes with the partner
                controller: Any = _apposed_partner(token) or _apposed_emphatic(token) \
                    or (_IMPLICIT if _role_is_patient(token) else None)
                kind = _kind(controller)
                if kind:
                    role_tokens.append(token)
            else:
                controller = _controller(token)
                if controller is not None and not isinstance(controller, str) and _impersonal_il(controller):
                    controller = _IMPLICIT  # "il y a 2 h, conscient": the verbless clause around "il y a"
                if controller == _IMPLICIT and _describes_thing(token, gender):
                    controller = None
                elif controller is not None and not isinstance(controller, str) and _kind(controller) is None \
                        and _opens_history_item(token, controller, gender):
                    controller = _IMPLICIT
                kind = _kind(controller)
            if kind is not None:
                new = inflect(word, gender)
                if new is not None:
                    found.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender,
                                          _match_case(token.text, new), kind, _reason(token, controller)))
                head = doc[token.i - 2] if is_role and word != _compound(token) else None
                if new is not None and head is not None and _ROLE_PART_PAIRS.get(_lower(head), ("", ""))[1] == gender:
                    # "sapeur-pompier" -> "sapeuse-pompière": the head of a role compound changes with its tail
                    found.append(Agreeing(head.idx, head.idx + len(head.text), head.text, gender,
                                          _match_case(head.text, _ROLE_PART_PAIRS[_lower(head)][0]), kind, "role noun"))
        elif word in ("la", "le") and token.i + 1 < len(doc) and _is_object_clitic(token):
            gender = "F" if word == "la" else "M"
            found.append(Agreeing(token.idx, token.idx + len(token.text), token.text, gender,
                                  _match_case(token.text, "le" if word == "la" else "la"), "patient", "object clitic"))
    for role in role_tokens:
        for child in role.children:
            det = _lower(child)
            if child.dep_ == "det" and det in DET_SWAP and child.i < role.i:
                new = DET_SWAP[det]
                if new == "ce" and role.text[:1].lower() in "aeiouéèêh":
                    new = "cet"
                found.append(Agreeing(child.idx, child.idx + len(child.text), child.text,
                                      "F" if det in ("la", "une", "cette", "sa", "ma") else "M",
                                      _match_case(child.text, new), "patient", "determiner of a role noun"))
    return found


_SENTENCE_END = re.compile(r"(?<=[.!?;])[^\S\n]+(?=\S)|\n+")
_CACHE: "OrderedDict[str, tuple[Agreeing, ...]]" = OrderedDict()
CACHE_SIZE = 200_000


def _sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pieces of a text: split after . ! ? ; and at line breaks, but not inside a quotation in
    guillemets, which stays with the words that say whose it is ("Elle demande : « ... ce soir ? je suis inquiète »")."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if "\n" not in m.group() and text.count("«", 0, m.start()) > text.count("»", 0, m.start()):
            continue
        if m.start() > start:
            out.append((start, text[start:m.start()]))
        start = m.end()
    if start < len(text):
        out.append((start, text[start:]))
    return out


_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
_SEX_LINE = re.compile(r"\s*[HF],?\s+\d{1,3}\s*(?:ans|an|a)\b")  # "H 71 ans, ..." (see _sex_letters)


def _needs_parse(sentence: str) -> bool:
    """Whether a sentence holds a word that could agree with a person (a gendered adjective, participle or
    role noun that is not only a noun) or an object clitic; sentences without one are not parsed."""
    if _SEX_LINE.match(sentence) or "«" in sentence or "“" in sentence:
        return True  # a sex letter, or a quote that may hold a nickname (_nicknames)
    for word in _WORD.findall(sentence.lower()):
        if word in ("la", "le", "l'", "l’") or word in ROLE_NOUNS or word in _KIN or word in _CHILD_NOUNS \
                or word in _FAMILIAR:
            return True
        if gender_of(word) is not None and not _is_noun_only(word):
            return True
    return False


def analyse_texts(texts: Iterable[str]) -> list[list[Agreeing]]:
    """:func:`analyse` of many texts. Texts are cut into sentences; each distinct sentence is parsed once, in
    batches (spaCy's nlp.pipe), and its analysis is kept in a bounded cache (clinical notes repeat many
    sentences), so a study's notes cost one parse per distinct sentence."""
    from biasmirror.counterfactuals.nlp import parse

    pieces = [_sentences(text) for text in texts]
    missing = list(dict.fromkeys(sentence for text in pieces for _, sentence in text if sentence not in _CACHE))
    for sentence in [m for m in missing if not _needs_parse(m)]:
        _CACHE[sentence] = ()
    missing = [m for m in missing if _CACHE.get(m) != ()]
    for sentence, doc in zip(missing, parse(missing)):
        _CACHE[sentence] = tuple(analyse(doc))
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    out = []
    for text in pieces:
        found: list[Agreeing] = []
        for offset, sentence in text:
            items = _CACHE.get(sentence)
            if items is None:  # evicted in this very batch (more distinct sentences than the cache holds)
                items = tuple(analyse(parse([sentence])[0]))
            found.extend(replace(a, start=a.start + offset, end=a.end + offset) for a in items)
        out.append(found)
    return out


def clear_cache() -> None:
    """Forget the cached sentence analyses (benchmarks measure the cost of parsing)."""
    _CACHE.clear()
