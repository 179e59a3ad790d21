"""Synthetic Bordeaux-shaped (French) emergency-department extract with planted, documented effects.

Writes the one file of the Bordeaux source contract (``visits.csv.gz``, or ``visits.parquet``; columns in
``models/staging/bordeaux/_bordeaux__sources.yml``) plus ``_truth/visits.csv.gz``, the generator's own
ground truth, which is not part of the contract and exists so that tests can check the pipeline.

How the data are built:

* A triage *policy* assigns ``policy_level`` (1-5, CIMU/FRENCH, 1 = most urgent) from the complaint group,
  vital signs, age, arrival mode and noise. Nothing in the policy looks at the patient's or nurse's sex.
* The *documented* ``triage_level`` equals the policy, except for the planted nurse-sex x patient-sex
  interaction: when a **female nurse** triages a **female patient** whose policy level is 2, 3 or 4, the
  level is documented one step less severe with probability ``ff_effect`` (``truth.dyad_shifted``). The other
  three dyads (female nurse/male patient, male nurse/either patient) are documented as the policy says. A
  model trained on the documented levels that sees the nurse's sex therefore learns "female patient -> less
  severe" only with female nurses (the direction of the study's Figure 6).
* Notes are French and agree in grammatical gender with the patient: the same template and the same draws
  give "Patiente de 67 ans, agitée ... Elle est tombée" or "Patient de 67 ans, agité ... Il est tombé".
  Only these gendered forms differ between the sexes. The notes vary as real ones do (openings, symptoms,
  anatomy and diseases agreeing with an organ, relatives and staff of their own gender, lists of adjectives
  agreeing with the patient, abbreviations), so the same draws rendered in the other sex
  (:func:`renderings`) are the exact counterfactual a perfect swap gives: benchmarks/swap_demo_notes.py
  measures the rule-based swap against it.
* Records the cohort must exclude are planted and recorded in ``truth.planted_exclusion``, in the order of the
  cohort's exclusion steps: ``sex_missing`` (empty patient_sex), ``level_missing`` (empty level), ``level_1``
  (policy level 1), ``complaint_class`` (a chief-complaint class of a sex-specific condition, e.g. N94.8 or
  N50.8, matching the patient's sex), ``keyword`` (a sex-specific phrase in the note or history, e.g.
  "enceinte de 12 SA", "adénome de prostate"), else ``none``. The ordinary vocabulary contains none of the
  French exclusion keywords, so the cohort is exactly the ``none`` records.

All randomness comes from one ``numpy.random.default_rng(seed)``; the same arguments give byte-identical files.
The uniforms that decide the dyad shift are drawn whatever ``ff_effect`` is.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from biasmirror.synth.draws import Draws

DEFAULT_FF_EFFECT: float = 0.30

VISITS_CSV = "visits.csv.gz"
VISITS_PARQUET = "visits.parquet"
TRUTH = "_truth/visits.csv.gz"

COLUMNS: tuple[str, ...] = (
    "visit_id", "patient_id", "arrival_time", "patient_sex", "patient_age", "arrival_mode", "nurse_id",
    "nurse_sex", "temperature_c", "heart_rate", "systolic_bp", "diastolic_bp", "spo2", "resp_rate",
    "pain_score", "complaint_code", "complaint_label", "icd10_chapter", "triage_note", "history", "triage_level",
)
TRUTH_COLUMNS: tuple[str, ...] = (
    "visit_id", "patient_id", "patient_sex", "age", "nurse_id", "nurse_sex", "dyad", "complaint_group",
    "complaint_code", "policy_level", "triage_level", "dyad_shifted", "planted_exclusion", "gender_specific_field",
)

GROUPS: tuple[str, ...] = ("chest_pain", "abdominal_pain", "dyspnea", "neurological", "sepsis_like",
                           "trauma", "other")
_GROUP_P = (0.12, 0.16, 0.10, 0.13, 0.08, 0.20, 0.21)
_GROUP_BASE = {"chest_pain": 1.6, "abdominal_pain": 0.5, "dyspnea": 1.2, "neurological": 0.9,
               "sepsis_like": 1.0, "trauma": -0.2, "other": -0.6}
# Policy score thresholds (higher = more severe), calibrated by simulation to give roughly
# 1: 3%, 2: 17%, 3: 40%, 4: 28%, 5: 12% of policy levels.
_POLICY_THRESHOLDS = (3.27, 1.89, 0.40, -0.83)

_FEMALE_SHARE = 0.48            # French ED attendance is slightly male-majority
_FEMALE_NURSE_SHARE = 0.75
_VISITS_PER_NURSE = 150
_SEX_MISSING_P = 0.003
_LEVEL_MISSING_P = 0.004
_COMPLAINT_CLASS_P = 0.03
_KEYWORD_P = 0.035
_KEYWORD_IN_NOTE_P = 0.5
_MISSING_P = {"temperature_c": 0.03, "heart_rate": 0.015, "systolic_bp": 0.02, "diastolic_bp": 0.02,
              "spo2": 0.02, "resp_rate": 0.04, "pain_score": 0.05}

_CHUNK = 500
_TEXT_DRAWS = 96
_EPOCH = np.datetime64("2019-01-01T00:00:00", "s")
_SPAN_SECONDS = 4 * 365 * 86_400

_ARRIVAL = (("Moyens personnels", 0.58, 0.0), ("Ambulance privée", 0.14, 0.3), ("Pompiers (VSAV)", 0.18, 0.5),
            ("SMUR", 0.03, 1.6), ("Police / gendarmerie", 0.03, 0.0), ("Transfert inter-hospitalier", 0.04, 0.6))

# Chief-complaint classes: (ICD-10 code, French label, ICD-10 chapter). N39.0 sits in chapter XIV but outside
# the excluded ranges: it must stay in the cohort.
_CLASSES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "chest_pain": (("R07.4", "Douleur thoracique, sans précision", "XVIII"),
                   ("R07.3", "Autres douleurs thoraciques", "XVIII"),
                   ("I20.9", "Angine de poitrine, sans précision", "IX"),
                   ("R00.2", "Palpitations", "XVIII")),
    "abdominal_pain": (("R10.4", "Douleurs abdominales, autres et non précisées", "XVIII"),
                       ("R10.1", "Douleur localisée à la partie supérieure de l'abdomen", "XVIII"),
                       ("R11", "Nausées et vomissements", "XVIII"),
                       ("K59.0", "Constipation", "XI")),
    "dyspnea": (("R06.0", "Dyspnée", "XVIII"), ("R05", "Toux", "XVIII"),
                ("J45.9", "Asthme, sans précision", "X"),
                ("J44.1", "Maladie pulmonaire obstructive chronique avec épisodes aigus", "X")),
    "neurological": (("R51", "Céphalée", "XVIII"), ("R42", "Étourdissements et éblouissements", "XVIII"),
                     ("R55", "Syncope et collapsus", "XVIII"), ("R47.0", "Dysphasie et aphasie", "XVIII"),
                     ("G40.9", "Épilepsie, sans précision", "VI")),
    "sepsis_like": (("R50.9", "Fièvre, sans précision", "XVIII"),
                    ("N39.0", "Infection des voies urinaires, siège non précisé", "XIV"),
                    ("J18.9", "Pneumopathie, sans précision", "X"), ("A41.9", "Sepsis, sans précision", "I")),
    "trauma": (("W19", "Chute, sans précision", "XX"), ("S06.0", "Commotion cérébrale", "XIX"),
               ("S93.4", "Entorse et foulure de la cheville", "XIX"),
               ("S61.9", "Plaie ouverte du poignet et de la main", "XIX"),
               ("V89.2", "Accident de véhicule à moteur", "XX")),
    "other": (("M54.5", "Lombalgie basse", "XIII"), ("R21", "Rash et autres éruptions cutanées", "XVIII"),
              ("R04.0", "Épistaxis", "XVIII"), ("F41.9", "Trouble anxieux, sans précision", "V"),
              ("L03.1", "Phlegmon d'autres parties d'un membre", "XII"), ("R60.0", "Œdème localisé", "XVIII")),
}
# Classes of sex-specific conditions (seed excluded_complaint_classes), by the patient's sex.
EXCLUDED_CLASSES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "F": (("N94.8", "Autres affections précisées des organes génitaux de la femme et du cycle menstruel", "XIV"),
          ("N93.9", "Saignement anormal de l'utérus et du vagin, sans précision", "XIV"),
          ("O26.9", "Affection liée à la grossesse, sans précision", "XV"),
          ("N83.2", "Kystes de l'ovaire, autres et sans précision", "XIV")),
    "M": (("N50.8", "Autres affections précisées des organes génitaux de l'homme", "XIV"),
          ("N45.9", "Orchite et épididymite sans abcès", "XIV"),
          ("N41.0", "Prostatite aiguë", "XIV"),
          ("N48.3", "Priapisme", "XIV")),
}
# Sex-specific phrases (each matches the seed exclusion_keywords_fr), by sex and field.
KEYWORD_PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "F": {"triage_note": ("Enceinte de {n} SA.", "Grossesse en cours, {n} semaines.", "DDR il y a {n} semaines.",
                          "Métrorragies depuis ce matin."),
          "history": ("hystérectomie en 2015", "endométriose", "G2P1", "ménopausée depuis {n} ans")},
    "M": {"triage_note": ("Douleur testiculaire droite depuis la veille.", "Douleur des bourses depuis ce matin.",
                          "Rétention urinaire sur adénome de prostate."),
          "history": ("adénome de prostate", "prostatectomie en 2018", "dysfonction érectile traitée", "vasectomie")},
}

# ------------------------------------------------------------------------------------------------------------
# French templates, written in the style of triage notes (IOA) and histories. "[[masculine|feminine]]" is
# rendered in the patient's grammatical gender: the words that agree with the patient, and the partner nouns
# (a partner is swapped so that the relationship keeps its configuration, docs/counterfactuals.md).
# "<<masculine|feminine>>" is rendered in the gender of the other person the sentence names (a relative or a
# member of staff, drawn apart from the patient's sex): a correct swap leaves it as it is. Words agreeing with
# an organ, a disease or an object ("hypochondre droit", "cardiopathie ischémique stentée") are written plain.
# "{name}" comes from the context. Each pool is a template *family* (benchmarks/swap_demo_notes.py reports the
# swap's exact-match share by family).
# ------------------------------------------------------------------------------------------------------------
_GENDER = re.compile(r"\[\[([^|\]]*)\|([^\]]*)\]\]")
_OTHER_GENDER = re.compile(r"<<([^|>]*)\|([^>]*)>>")

_OPENINGS = (
    "[[Patient|Patiente]] de {age} ans, [[amené|amenée]] par {transport}, pour {motif}.",
    "[[Patient|Patiente]] de {age} ans [[adressé|adressée]] par son médecin traitant pour {motif}.",
    "[[Monsieur|Madame]] ___, {age} ans, [[venu|venue]] pour {motif}.",
    "[[Patient|Patiente]] de {age} ans qui consulte pour {motif}.",
    "{age} ans, [[amené|amenée]] par {transport} pour {motif}.",
    "[[Homme|Femme]] de {age} ans [[adressé|adressée]] par SOS Médecins pour {motif}.",
    "[[M.|Mme]] ___, {age} ans, [[connu|connue]] du service, [[revenu|revenue]] ce jour pour {motif}.",
    "Motif de venue : {motif}. [[Patient|Patiente]] de {age} ans, autonome à domicile.",
    "[[Patient|Patiente]] de {age} ans, [[résident|résidente]] en EHPAD, [[adressé|adressée]] par l'IDE de nuit "
    "pour {motif}.",
    "[[Amené|Amenée]] par {transport} à {hour}h : [[patient|patiente]] de {age} ans, {motif}.",
    "[[Patient|Patiente]] de {age} ans [[venu de lui-même|venue d'elle-même]] pour {motif} évoluant depuis {dur}.",
)
_MOTIFS = {
    "chest_pain": ("douleur thoracique", "oppression thoracique", "palpitations"),
    "abdominal_pain": ("douleurs abdominales", "vomissements", "douleur épigastrique"),
    "dyspnea": ("dyspnée", "gêne respiratoire", "toux"),
    "neurological": ("céphalées", "malaise", "vertiges", "troubles de la parole"),
    "sepsis_like": ("fièvre", "frissons", "altération de l'état général"),
    "trauma": ("chute", "traumatisme de la cheville", "plaie de la main", "accident de la route"),
    "other": ("lombalgie", "éruption cutanée", "épistaxis", "anxiété", "œdème du membre inférieur"),
}
_TRANSPORT = ("les pompiers", "une ambulance", "sa famille", "le SAMU", "sa fille", "son fils", "un ami",
              "une voisine")
_SENTENCES = {
    "chest_pain": (
        "Douleur thoracique constrictive depuis {dur}, irradiant dans le bras gauche.",
        "[[Il|Elle]] décrit une oppression thoracique à {pain}/10, apparue au repos.",
        "[[Le patient|La patiente]] a pris de l'aspirine à domicile sans amélioration.",
        "Sueurs et nausées associées.",
        "[[Retrouvé|Retrouvée]] [[allongé|allongée]] par [[sa femme|son mari]], qui a appelé le 15.",
        "[[Il|Elle]] est [[inquiet|inquiète]] et se dit [[essoufflé|essoufflée]] à l'effort.",
        "Douleur rétrosternale en étau, non modifiée par la respiration ni par la position.",
        "[[Réveillé|Réveillée]] la nuit par la douleur, [[il|elle]] s'est [[levé|levée]] puis a fait un malaise.",
        "Palpitations depuis {dur}, [[il|elle]] se dit [[angoissé|angoissée]] et [[oppressé|oppressée]].",
    ),
    "abdominal_pain": (
        "Douleurs abdominales en {abd} depuis {dur}, à type de crampes, EN {pain}/10.",
        "{n} épisodes de vomissements alimentaires, sans sang.",
        "[[Il|Elle]] est [[fatigué|fatiguée]], transit ralenti depuis {dur}.",
        "Pas de fièvre rapportée.",
        "[[Le patient|La patiente]] est [[algique|algique]], [[couché|couchée]] en chien de fusil.",
        "[[Il|Elle]] n'a rien pu manger depuis {dur} et se sent [[ballonné|ballonnée]].",
        "[[Opéré|Opérée]] de la vésicule il y a {n} ans, [[il|elle]] décrit une douleur identique.",
    ),
    "dyspnea": (
        "Dyspnée d'aggravation progressive depuis {dur}, majorée à l'effort.",
        "[[Il|Elle]] est [[essoufflé|essoufflée]] à la parole.",
        "Toux productive, expectorations jaunâtres.",
        "Orthopnée à {n} oreillers, œdèmes des chevilles.",
        "[[Il|Elle]] a utilisé son inhalateur {n} fois sans amélioration.",
        "[[Il|Elle]] dort [[assis|assise]] depuis {dur}, [[essoufflé|essoufflée]] au moindre effort.",
        "[[Connu|Connue]] pour un asthme, [[il|elle]] n'a plus de traitement de fond depuis {dur}.",
    ),
    "neurological": (
        "Céphalées brutales ce matin, EN {pain}/10.",
        "[[Il|Elle]] est [[tombé|tombée]] après un malaise avec perte de connaissance brève.",
        "[[Confus|Confuse]] selon [[sa femme|son mari]], troubles de la parole depuis {dur}.",
        "Vertiges rotatoires, [[il|elle]] est [[resté|restée]] [[allongé|allongée]] toute la matinée.",
        "[[Le patient|La patiente]] est sous anticoagulant pour une FA.",
        "[[Il|Elle]] est [[ralenti|ralentie]], [[désorienté|désorientée]] dans le temps, sans déficit moteur.",
        "Dernière fois [[vu|vue]] asymptomatique hier à 22h.",
    ),
    "sepsis_like": (
        "Fièvre à {tmax} °C depuis {dur} avec frissons.",
        "Brûlures mictionnelles et pollakiurie depuis {dur}.",
        "[[Il|Elle]] est [[ralenti|ralentie]] et [[déshydraté|déshydratée]].",
        "Toux fébrile, asthénie marquée.",
        "[[Le patient|La patiente]] a pris du paracétamol {n} fois avec un soulagement transitoire.",
        "Frissons intenses, [[il|elle]] est [[marbré|marbrée]] aux genoux.",
        "[[Il|Elle]] est [[resté|restée]] [[alité|alitée]] depuis {dur}, [[fiévreux|fiévreuse]] et [[confus|confuse]].",
    ),
    "trauma": (
        "Chute de sa hauteur à domicile, [[il|elle]] est [[tombé|tombée]] sur {body}.",
        "Pas de perte de connaissance, pas de traumatisme crânien.",
        "[[Le patient|La patiente]] est [[agité|agitée]] et [[algique|algique]].",
        "Plaie de {lac} cm de la main, saignement contrôlé.",
        "Accident de la voie publique, [[conducteur|conductrice]] [[ceinturé|ceinturée]].",
        "[[Il|Elle]] a pu marcher après la chute, [[aidé|aidée]] par un voisin.",
        "[[Il|Elle]] s'est tordu la cheville droite en descendant du trottoir.",
        "[[Piéton|Piétonne]] [[renversé|renversée]] par une voiture à faible vitesse, [[projeté|projetée]] au sol.",
    ),
    "other": (
        "Lombalgie depuis {dur} après un effort de soulèvement, sans déficit.",
        "Éruption cutanée prurigineuse depuis {dur}.",
        "[[Adressé|Adressée]] par son médecin traitant pour avis.",
        "Épistaxis antérieure ayant cédé à la compression.",
        "[[Il|Elle]] se sent [[anxieux|anxieuse]] depuis plusieurs jours.",
        "Œdème du membre inférieur droit, [[il|elle]] est [[gêné|gênée]] à la marche.",
        "Éruption des deux avant-bras, [[il|elle]] est [[gêné|gênée]] pour dormir.",
    ),
}
# Anatomy, diseases and objects: words that agree with a noun other than the patient (a swap keeps them).
_ANATOMY = {
    "chest_pain": ("Douleur thoracique gauche reproduite à la palpation.",
                   "Douleur latérothoracique droite, majorée à l'inspiration profonde."),
    "abdominal_pain": ("Douleur de l'hypochondre droit irradiant vers l'épaule droite, majorée après le repas.",
                       "Abdomen souple, sensible en fosse iliaque droite, défense localisée.",
                       "Fosse lombaire gauche douloureuse, hématurie macroscopique rapportée."),
    "dyspnea": ("Crépitants aux deux bases, murmure vésiculaire diminué à droite.",
                "BPCO connue, sous oxygène à domicile, exacerbation récente traitée."),
    "neurological": ("Faiblesse du membre supérieur droit depuis {hour}h, paralysie faciale droite.",
                     "Pupilles isocores et réactives, nuque souple."),
    "sepsis_like": ("Fosse lombaire droite douloureuse à la percussion.",
                    "Sonde urinaire à demeure, urines troubles et malodorantes."),
    "trauma": ("Réception sur le poignet gauche, déformation en dos de fourchette.",
               "Plaie frontale gauche de {lac} cm, propre, non suturée.",
               "Épaule droite douloureuse, mobilité active limitée, pouls radial perçu."),
    "other": ("Genou droit gonflé et chaud depuis {dur}.",
              "Mollet gauche induré et douloureux, jambe gauche augmentée de volume."),
}
# A relative ({rel}, {Rel}; "<<m|f>>" agrees with the relative), or the patient's partner.
_RELATIVE_SENTENCES = (
    "[[Accompagné|Accompagnée]] par {rel}, qui est <<inquiet|inquiète>> de l'aggravation.",
    "{Rel} l'a [[trouvé|trouvée]] [[confus|confuse]] ce matin et a appelé le 15.",
    "Selon {rel}, [[il|elle]] est plus [[fatigué|fatiguée]] depuis {dur}.",
    "{Rel}, <<présent|présente>> aux urgences, rapporte une chute la veille.",
    "[[Il|Elle]] vit avec {rel}, qui s'occupe des courses et des médicaments.",
    "Appel de {rel} : <<il|elle>> est <<passé|passée>> [[le|la]] voir et l'a [[trouvé|trouvée]] au sol.",
    "[[Sa femme|Son mari]] signale des troubles de la mémoire récents.",
    "[[Il|Elle]] vit avec [[sa compagne|son compagnon]], joignable par téléphone.",
)
_RELATIVES = (("sa fille", "F"), ("son fils", "M"), ("sa voisine", "F"), ("son voisin", "M"), ("sa sœur", "F"),
              ("son frère", "M"), ("sa belle-fille", "F"), ("son gendre", "M"), ("sa petite-fille", "F"),
              ("son petit-fils", "M"))
# A member of staff ({staff}, {Staff}; "<<m|f>>" agrees with them).
_STAFF_SENTENCES = (
    "[[Adressé|Adressée]] par {staff}, qui [[le|la]] trouve plus [[ralenti|ralentie]] depuis {dur}.",
    "{Staff} a appelé la régulation : <<il|elle>> signale une chute sans témoin.",
    "Examen par {staff} à {hour}h : <<il|elle>> ne retrouve pas de signe de gravité.",
    "{Staff}, <<joint|jointe>> par téléphone, confirme le traitement habituel.",
    "Transmission de {staff} : [[patient|patiente]] [[agité|agitée]] la nuit dernière.",
)
_STAFF = (("l'infirmière de l'EHPAD", "F"), ("l'infirmier de l'EHPAD", "M"), ("l'IDE libérale", "F"),
          ("l'IDE libéral", "M"), ("le Dr ___", "M"), ("la Dr ___", "F"), ("l'interne de garde", "F"),
          ("l'interne de garde", "M"))
# Coordinated adjectives and participles, every one agreeing with the patient.
_LIST_SENTENCES = (
    "[[Il|Elle]] est [[anxieux|anxieuse]], pâle, en sueur et [[agité|agitée]].",
    "[[Patient|Patiente]] [[conscient|consciente]], [[orienté|orientée]], algique mais [[coopérant|coopérante]].",
    "[[Patient non communicant|Patiente non communicante]], grabataire, [[dénutri|dénutrie]].",
    "[[Retrouvé|Retrouvée]] [[allongé|allongée]] dans la cuisine, [[conscient|consciente]] mais "
    "[[désorienté|désorientée]].",
    "Ce jour, [[il|elle]] paraît [[fatigué|fatiguée]], [[amaigri|amaigrie]] et [[déshydraté|déshydratée]].",
    "[[Agité|Agitée]], [[opposant|opposante]], [[menaçant|menaçante]] envers l'équipe.",
    "[[Il|Elle]] se dit [[épuisé|épuisée]], [[découragé|découragée]], incapable de se lever seul[[|e]].",
)
# Abbreviations and figures, as triage nurses write them.
_ABBREVIATION_SENTENCES = (
    "TA {sbp}/{dbp}, FC {hr}, SpO2 {spo2} % en AA, EVA {pain}/10.",
    "ECG fait à l'IOA : RSR, pas de trouble de la repolarisation.",
    "Pas de PC, pas de TC, pas de DT.",
    "AEG depuis {dur}, perte de {kg} kg.",
    "Ttt habituel : Kardégic 75, bisoprolol 2,5 mg.",
    "Dextro à {gly} g/L à l'arrivée, HGT de contrôle demandé.",
    "[[Il|Elle]] est sous AVK, INR à {inr} ce matin chez son MT.",
    "Glasgow 15, pupilles isocores et réactives.",
)
_CLASS_SENTENCES = (
    "Douleur pelvienne depuis {dur}, EN {pain}/10.",
    "[[Il|Elle]] est [[gêné|gênée]] et [[inquiet|inquiète]], consulte pour la première fois.",
)
_CLOSINGS = (
    "[[Il|Elle]] est [[conscient|consciente]] et [[orienté|orientée]].",
    "[[Patient agité|Patiente agitée]], difficile à examiner.",
    "[[Patient calme|Patiente calme]], [[coopérant|coopérante]].",
    "[[Il|Elle]] est [[seul|seule]] aux urgences.",
    "",
)
_HISTORY_ITEMS = (
    "HTA", "diabète de type 2", "dyslipidémie", "asthme", "BPCO", "FA sous anticoagulant",
    "insuffisance rénale chronique", "hypothyroïdie", "dépression",
    "appendicectomie", "cholécystectomie", "tabagisme actif", "allergie à la pénicilline",
    "[[ancien fumeur|ancienne fumeuse]]", "[[opéré|opérée]] d'une hernie inguinale", "[[veuf|veuve]], vit [[seul|seule]]",
    "[[ancien fumeur|ancienne fumeuse]] (30 PA)", "[[suivi|suivie]] en cardiologie pour une FA",
    "[[hospitalisé|hospitalisée]] en 2021 pour une pneumopathie", "[[marié|mariée]], 3 enfants",
    "[[retraité|retraitée]] de la fonction publique", "[[ancien boulanger|ancienne boulangère]]",
    "[[ancien agriculteur|ancienne agricultrice]]", "vit avec sa fille", "autonome pour les AVQ",
    "[[appareillé|appareillée]] pour une surdité",
)
# History items whose agreement is with an organ or a disease, never with the patient.
_HISTORY_ORGAN = (
    "cardiopathie ischémique stentée", "fracture du col du fémur droit opérée en 2020",
    "cancer du côlon opéré en 2017", "valve aortique mécanique", "PTH gauche",
    "insuffisance cardiaque à FEVG altérée", "hernie inguinale droite opérée", "sténose carotidienne gauche serrée",
    "AVC ischémique sans séquelle", "lithiase vésiculaire connue", "épilepsie connue, traitée par lévétiracétam",
)
_ABDOMEN = ("fosse iliaque droite", "région épigastrique", "hypochondre droit", "région péri-ombilicale")
_BODY = ("le poignet droit", "la hanche gauche", "l'épaule droite", "le genou", "la tête")
_DURATION = ("2 heures", "6 heures", "la veille", "2 jours", "3 jours", "une semaine")

_EXCLUSIONS = ("none", "sex_missing", "level_missing", "level_1", "complaint_class", "keyword")
# Template families, in the order a note uses them (the history's families come last).
FAMILIES: tuple[str, ...] = ("opening", "symptoms", "anatomy", "relative", "staff", "list", "abbreviations",
                             "planted", "closing", "history", "history_organ")


def render(template: str, sex: str, other_sex: str = "M", **context: object) -> str:
    """A template in the patient's grammatical gender: [[masculine|feminine]] picks one form, <<masculine|feminine>>
    one by `other_sex` (the relative or member of staff the sentence names), then format()."""
    text = _GENDER.sub(lambda m: m.group(2) if sex == "F" else m.group(1), template)
    text = _OTHER_GENDER.sub(lambda m: m.group(2) if other_sex == "F" else m.group(1), text)
    return text.format(**context) if context else text


@dataclass
class SynthSummary:
    """What :func:`write_bordeaux` wrote: the folder, the number of visits and the rows per file."""

    out_dir: Path
    visits: int
    files: dict[str, int]


@dataclass
class _Visits:
    """Tabular values of every visit, drawn vectorised in a fixed order before any text."""

    patient: np.ndarray
    female: np.ndarray
    age: np.ndarray
    nurse: np.ndarray
    nurse_female: np.ndarray
    arrival: np.ndarray
    arrival_time: list[str]
    group: np.ndarray
    class_index: np.ndarray
    vitals: dict[str, np.ndarray]
    missing: dict[str, np.ndarray]
    policy: np.ndarray
    level: np.ndarray
    shifted: np.ndarray
    exclusion: np.ndarray
    keyword_in_note: np.ndarray


def _validate(visits: int, seed: int, ff_effect: float, fmt: str) -> None:
    if isinstance(visits, bool) or not isinstance(visits, (int, np.integer)) or visits < 1:
        raise ValueError(f"visits must be an integer >= 1, got {visits!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(ff_effect, bool) or not isinstance(ff_effect, (int, float, np.floating)) \
            or not 0.0 <= float(ff_effect) <= 1.0:
        raise ValueError(f"ff_effect must be a number in [0, 1], got {ff_effect!r}")
    if fmt not in ("csv", "parquet"):
        raise ValueError(f"fmt must be csv or parquet, got {fmt!r}")


def _draw_visits(rng: np.random.Generator, n: int, ff_effect: float) -> _Visits:
    n_patients = max(1, int(round(n / 1.25)))
    patient = np.sort(rng.integers(0, n_patients, n))
    patient_female = rng.random(n_patients) < _FEMALE_SHARE
    patient_age = np.clip(np.rint(rng.gamma(2.2, 14.0, n_patients) + 18), 18, 102).astype(int)
    female = patient_female[patient]
    age = patient_age[patient]

    n_nurses = max(4, n // _VISITS_PER_NURSE)
    nurse_female_pool = rng.random(n_nurses) < _FEMALE_NURSE_SHARE
    nurse_female_pool[:2] = (True, False)  # both nurse sexes always exist
    nurse = rng.integers(0, n_nurses, n)
    nurse_female = nurse_female_pool[nurse]

    arrival_p = np.array([p for _, p, _ in _ARRIVAL])
    arrival = rng.choice(len(_ARRIVAL), size=n, p=arrival_p / arrival_p.sum())
    seconds = np.sort(rng.integers(0, _SPAN_SECONDS, n))
    times = _EPOCH + seconds.astype("timedelta64[s]")
    order = rng.permutation(n)  # visits of a patient are spread over the period
    arrival_time = [s.replace("T", " ") for s in np.datetime_as_string(times[order], unit="s").tolist()]

    group = rng.choice(len(GROUPS), size=n, p=np.array(_GROUP_P) / sum(_GROUP_P))
    class_index = rng.integers(0, 1 << 30, n)
    g = np.array(GROUPS)[group]
    vitals = {
        "temperature_c": np.round(np.where(g == "sepsis_like", rng.normal(38.6, 0.7, n), rng.normal(36.9, 0.4, n)), 1),
        "heart_rate": np.rint(rng.normal(82, 14, n) + np.where(g == "sepsis_like", 18, 0) + np.where(g == "chest_pain", 5, 0)),
        "systolic_bp": np.rint(rng.normal(135, 20, n)),
        "diastolic_bp": np.rint(rng.normal(78, 12, n)),
        "spo2": np.minimum(100, np.rint(np.where(g == "dyspnea", rng.normal(93, 3, n), rng.normal(97.5, 1.5, n)))),
        "resp_rate": np.rint(np.where(g == "dyspnea", rng.normal(24, 5, n), rng.normal(16, 3, n))),
        "pain_score": np.clip(np.rint(rng.normal(np.where(np.isin(g, ["chest_pain", "abdominal_pain", "trauma"]), 6, 3), 2.2, n)), 0, 10),
    }
    vitals["temperature_c"] = np.clip(vitals["temperature_c"], 34.5, 41.5)
    vitals["heart_rate"] = np.clip(vitals["heart_rate"], 35, 190)
    vitals["systolic_bp"] = np.clip(vitals["systolic_bp"], 70, 230)
    vitals["diastolic_bp"] = np.clip(np.minimum(vitals["diastolic_bp"], vitals["systolic_bp"] - 20), 35, 140)
    vitals["spo2"] = np.clip(vitals["spo2"], 75, 100)
    vitals["resp_rate"] = np.clip(vitals["resp_rate"], 8, 45)
    missing = {name: rng.random(n) < p for name, p in _MISSING_P.items()}

    base = np.array([_GROUP_BASE[x] for x in GROUPS])[group]
    score = (base + np.array([w for _, _, w in _ARRIVAL])[arrival]
             + 0.05 * np.maximum(vitals["heart_rate"] - 100, 0) + 0.12 * np.maximum(94 - vitals["spo2"], 0)
             + 0.6 * (vitals["temperature_c"] >= 39.0) + 0.05 * np.maximum(vitals["resp_rate"] - 22, 0)
             + 0.012 * (age - 50) + 0.08 * (vitals["pain_score"] - 4) + rng.normal(0, 0.9, n))
    policy = 1 + (score[:, None] < np.array(_POLICY_THRESHOLDS)[None, :]).sum(axis=1)

    shift_u = rng.random(n)  # drawn whatever ff_effect is
    dyad_ff = nurse_female & female
    shifted = dyad_ff & np.isin(policy, (2, 3, 4)) & (shift_u < ff_effect)
    level = policy + shifted.astype(int)

    exclusion_u = rng.random((n, 4))
    exclusion = np.zeros(n, dtype=int)
    keyword = exclusion_u[:, 3] < _KEYWORD_P
    exclusion[keyword] = 5
    exclusion[exclusion_u[:, 2] < _COMPLAINT_CLASS_P] = 4
    exclusion[policy == 1] = 3
    exclusion[exclusion_u[:, 1] < _LEVEL_MISSING_P] = 2
    exclusion[exclusion_u[:, 0] < _SEX_MISSING_P] = 1
    keyword_in_note = rng.random(n) < _KEYWORD_IN_NOTE_P
    return _Visits(patient=patient, female=female, age=age, nurse=nurse, nurse_female=nurse_female,
                   arrival=arrival, arrival_time=arrival_time, group=group, class_index=class_index,
                   vitals=vitals, missing=missing, policy=policy, level=level, shifted=shifted,
                   exclusion=exclusion, keyword_in_note=keyword_in_note)


def _texts(d: Draws, sex: str, age: int, group: str, exclusion: str, keyword_field: str,
           pain: int, temperature: float) -> tuple[str, str, str]:
    """(triage note, history, planted phrase) of one visit, in the patient's grammatical gender."""
    note, history, planted = _parts(d, sex, age, group, exclusion, keyword_field, pain, temperature)
    items = [text for _, text in history]
    joined = ", ".join(items) if items else "Pas d'antécédent notable"
    return " ".join(text for _, text in note), joined[0].upper() + joined[1:], planted


Parts = list[tuple[str, str]]


def _parts(d: Draws, sex: str, age: int, group: str, exclusion: str, keyword_field: str,
           pain: int, temperature: float) -> tuple[Parts, Parts, str]:
    """The (family, text) parts of one visit's triage note and history, and its planted phrase. Every draw is
    made whatever `sex` is, so the same draws rendered in the other sex give the exact counterfactual."""
    context = {"age": age, "transport": d.choice(_TRANSPORT), "motif": d.choice(_MOTIFS[group]),
               "dur": d.choice(_DURATION), "pain": pain, "n": d.integer(2, 5), "abd": d.choice(_ABDOMEN),
               "body": d.choice(_BODY), "lac": d.integer(1, 6), "tmax": f"{max(temperature, 38.2):.1f}".replace(".", ","),
               "hour": d.integer(0, 23), "sbp": d.integer(95, 175), "dbp": d.integer(55, 100), "hr": d.integer(55, 125),
               "spo2": d.integer(90, 100), "kg": d.integer(2, 8), "gly": f"{d.integer(6, 35) / 10:.1f}".replace(".", ","),
               "inr": f"{d.integer(15, 45) / 10:.1f}".replace(".", ",")}

    def part(family: str, template: str) -> tuple[str, str]:
        other = {"relative": _RELATIVES, "staff": _STAFF}.get(family)
        other_sex = "M"
        if other is not None:  # the relative or member of staff this sentence names, drawn apart from the patient
            phrase, other_sex = other[d.index(len(other))]
            key = "rel" if family == "relative" else "staff"
            context[key], context[key.capitalize()] = phrase, phrase[0].upper() + phrase[1:]
        return family, render(template, sex, other_sex, **context)

    note = [part("opening", d.choice(_OPENINGS))]
    sentences = _CLASS_SENTENCES if exclusion == "complaint_class" else _SENTENCES[group]
    note += [part("symptoms", s) for s in d.sample(sentences, min(len(sentences), d.integer(2, 3)))]
    for family, pool, p in (("anatomy", _ANATOMY[group], 0.5), ("relative", _RELATIVE_SENTENCES, 0.35),
                            ("staff", _STAFF_SENTENCES, 0.2), ("list", _LIST_SENTENCES, 0.35),
                            ("abbreviations", _ABBREVIATION_SENTENCES, 0.4)):
        u, template = d.random(), d.choice(pool)  # both drawn always: the draws stay aligned
        if u < p and exclusion != "complaint_class":
            note.append(part(family, template))
    closing = render(d.choice(_CLOSINGS), sex)
    planted = ""
    if exclusion == "keyword":
        planted = render(d.choice(KEYWORD_PHRASES[sex][keyword_field]), sex, n=d.integer(6, 20))
    if planted and keyword_field == "triage_note":
        note.append(("planted", planted))
    if closing:
        note.append(("closing", closing))
    k = d.integer(0, 4)
    history = [part("history_organ" if item in _HISTORY_ORGAN else "history", item)
               for item in d.sample(_HISTORY_ITEMS + _HISTORY_ORGAN, k)]
    if planted and keyword_field == "history":
        history.insert(d.index(len(history) + 1), ("planted", planted))
    return note, history, planted


@dataclass(frozen=True)
class Rendering:
    """One visit's texts in the patient's sex and, from the same draws, in the other sex: each a list of
    (family, text) parts of the triage note and of the history (joined as the extract writes them by
    :func:`join_note` and :func:`join_history`)."""

    visit_id: str
    sex: str
    exclusion: str
    note: Parts
    history: Parts
    other_note: Parts
    other_history: Parts


def join_note(parts: Parts) -> str:
    """The triage note as the extract writes it."""
    return " ".join(text for _, text in parts)


def join_history(parts: Parts) -> str:
    """The history as the extract writes it."""
    joined = ", ".join(text for _, text in parts) if parts else "Pas d'antécédent notable"
    return joined[0].upper() + joined[1:]


def renderings(visits: int, seed: int, ff_effect: float = DEFAULT_FF_EFFECT) -> Iterator[Rendering]:
    """Every visit of :func:`write_bordeaux` with the same arguments, its texts in both sexes (the generator's
    own draws replayed; a visit whose sex is missing is rendered in the sex it was drawn with)."""
    _validate(visits, seed, ff_effect, "csv")
    n = int(visits)
    rng = np.random.default_rng(seed)
    v = _draw_visits(rng, n, float(ff_effect))
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        block = rng.random((stop - start, _TEXT_DRAWS)).tolist()
        for i in range(start, stop):
            sex = "F" if v.female[i] else "M"
            exclusion = _EXCLUSIONS[v.exclusion[i]]
            args = (int(v.age[i]), GROUPS[v.group[i]], exclusion,
                    "triage_note" if v.keyword_in_note[i] else "history", int(v.vitals["pain_score"][i]),
                    float(v.vitals["temperature_c"][i]))
            note, history, _ = _parts(Draws(block[i - start]), sex, *args)
            other_note, other_history, _ = _parts(Draws(block[i - start]), "M" if sex == "F" else "F", *args)
            yield Rendering(f"V{i + 1:08d}", sex, exclusion, note, history, other_note, other_history)


def _value(x: float, missing: bool, decimals: int = 0) -> str:
    if missing:
        return ""
    return f"{x + 0.0:.{decimals}f}"  # + 0.0: a score drawn as -0.0 is written 0, as a nurse writes it


def write_bordeaux(out_dir: Path, visits: int, seed: int, ff_effect: float = DEFAULT_FF_EFFECT,
                   fmt: str = "csv", progress: Callable[[int], None] | None = None) -> SynthSummary:
    """Write a synthetic Bordeaux extract (and its _truth sidecar) under `out_dir` and return a summary.

    `fmt` is csv (visits.csv.gz) or parquet (visits.parquet). `progress`, if given, is called with the number
    of visits generated since its last call.
    """
    _validate(visits, seed, ff_effect, fmt)
    n = int(visits)
    out_dir = Path(out_dir)
    rng = np.random.default_rng(seed)
    v = _draw_visits(rng, n, float(ff_effect))

    rows: list[tuple[str, ...]] = []
    truth: list[tuple[object, ...]] = []
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        block = rng.random((stop - start, _TEXT_DRAWS)).tolist()
        for i in range(start, stop):
            row, truth_row = _visit(i, Draws(block[i - start]), v)
            rows.append(row)
            truth.append(truth_row)
        if progress is not None:
            progress(stop - start)

    files = {TRUTH: _write_csv_gz(out_dir / TRUTH, TRUTH_COLUMNS, truth)}
    if fmt == "csv":
        files[VISITS_CSV] = _write_csv_gz(out_dir / VISITS_CSV, COLUMNS, rows)
    else:
        files[VISITS_PARQUET] = _write_parquet(out_dir / VISITS_PARQUET, rows)
    return SynthSummary(out_dir=out_dir, visits=n, files=files)


def _visit(i: int, d: Draws, v: _Visits) -> tuple[tuple[str, ...], tuple[object, ...]]:
    sex = "F" if v.female[i] else "M"
    nurse_sex = "F" if v.nurse_female[i] else "M"
    group = GROUPS[v.group[i]]
    exclusion = _EXCLUSIONS[v.exclusion[i]]
    keyword_field = "triage_note" if v.keyword_in_note[i] else "history"
    if exclusion == "complaint_class":
        options = EXCLUDED_CLASSES[sex]
    else:
        options = _CLASSES[group]
    code, label, chapter = options[int(v.class_index[i]) % len(options)]
    pain = int(v.vitals["pain_score"][i])
    note, history, _ = _texts(d, sex, int(v.age[i]), group, exclusion, keyword_field, pain,
                              float(v.vitals["temperature_c"][i]))
    vit = {name: float(values[i]) for name, values in v.vitals.items()}
    miss = {name: bool(values[i]) for name, values in v.missing.items()}
    visit_id = f"V{i + 1:08d}"
    patient_id = f"P{int(v.patient[i]) + 1:07d}"
    nurse_id = f"IOA{int(v.nurse[i]) + 1:03d}"
    row = (
        visit_id, patient_id, v.arrival_time[i], "" if exclusion == "sex_missing" else sex, str(int(v.age[i])),
        _ARRIVAL[v.arrival[i]][0], nurse_id, nurse_sex,
        _value(vit["temperature_c"], miss["temperature_c"], 1), _value(vit["heart_rate"], miss["heart_rate"]),
        _value(vit["systolic_bp"], miss["systolic_bp"]), _value(vit["diastolic_bp"], miss["diastolic_bp"]),
        _value(vit["spo2"], miss["spo2"]), _value(vit["resp_rate"], miss["resp_rate"]),
        _value(vit["pain_score"], miss["pain_score"]), code, label, chapter, note, history,
        "" if exclusion == "level_missing" else str(int(v.level[i])),
    )
    truth_row = (visit_id, patient_id, sex, int(v.age[i]), nurse_id, nurse_sex, f"{nurse_sex}_nurse_{sex}_patient",
                 group, code, int(v.policy[i]), int(v.level[i]), int(v.shifted[i]), exclusion,
                 keyword_field if exclusion == "keyword" else "")
    return row, truth_row


def _write_csv_gz(path: Path, columns: Sequence[str], rows: list[tuple[object, ...]]) -> int:
    """A gzip CSV written deterministically (no file name or time stamp in the gzip header)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6) as gz:
            with io.TextIOWrapper(gz, encoding="utf-8", newline="") as text:
                writer = csv.writer(text, lineterminator="\n")
                writer.writerow(columns)
                writer.writerows(rows)
    return len(rows)


def _write_parquet(path: Path, rows: list[tuple[str, ...]]) -> int:
    """The extract as Parquet with every column as a string (the contract reads every column as text)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    columns = list(zip(*rows)) if rows else [() for _ in COLUMNS]
    table = pa.table({name: pa.array([value or None for value in values], type=pa.string())
                      for name, values in zip(COLUMNS, columns)})
    pq.write_table(table, path, compression="zstd")
    return len(rows)
