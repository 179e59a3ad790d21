"""Synthetic, MIMIC-IV-shaped emergency-department data with a planted, documented sex effect.

The generator writes the five MIMIC-IV tables the triage study reads (``ed/edstays``,
``ed/triage``, ``hosp/patients``, ``hosp/admissions``, ``note/discharge``; same column names and
order as the real files) plus ``_truth/stays.csv.gz``, its own ground truth, which is not part of
MIMIC and exists only so that tests can check the pipeline against known answers.

How the data are built:

* A triage *policy* assigns ``policy_acuity`` (1-5, 1 = most urgent) from the complaint group, the
  vital signs, age and noise. Nothing in the policy looks at sex.
* The *documented* ``acuity`` equals the policy, except for the planted sex effect: for female
  patients in ``chest_pain``/``abdominal_pain`` with probability ``female_effect`` (in the other
  groups ``female_effect / 3``), a policy level 2 or 3 is documented one level less severe
  (capped at 4). ``truth.sex_shifted`` marks these stays. Male acuity always equals the policy.
* Text and vitals come from the same templates and distributions for both sexes; only the gendered
  words differ. So the planted shift is the only sex signal in the data. The notes vary as real ones do
  (intros, abbreviations, lists, the patient's role nouns, relatives, clinicians and other people of their
  own sex, drawn apart from the patient's), so the same draws rendered in the other sex
  (:func:`renderings`) are the exact counterfactual a perfect swap gives: benchmarks/swap_demo_notes.py
  measures the rule-based swap against it. Partners follow the patient ("her husband" / "his wife"), as
  the swap treats them (docs/counterfactuals.md).
* Records that a cohort must exclude are planted and recorded in ``truth.planted_exclusion``
  (priority ``no_link`` > ``acuity_5`` > ``gender_specific`` > ``none``).

All randomness comes from one ``numpy.random.default_rng(seed)``; the same arguments give
byte-identical files. The uniforms that decide the sex shift are drawn whatever ``female_effect``
is, so two runs that differ only in ``female_effect`` differ only in ``acuity`` and ``sex_shifted``.
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from biasmirror.synth.draws import Draws

DEFAULT_FEMALE_EFFECT: float = 0.30

# --------------------------------------------------------------------------------------------
# Output layout: relative path -> columns, exactly as in MIMIC-IV (truth file is ours).
# --------------------------------------------------------------------------------------------
EDSTAYS = "ed/edstays.csv.gz"
TRIAGE = "ed/triage.csv.gz"
PATIENTS = "hosp/patients.csv.gz"
ADMISSIONS = "hosp/admissions.csv.gz"
DISCHARGE = "note/discharge.csv.gz"
TRUTH = "_truth/stays.csv.gz"

COLUMNS: dict[str, tuple[str, ...]] = {
    EDSTAYS: ("subject_id", "hadm_id", "stay_id", "intime", "outtime", "gender", "race",
              "arrival_transport", "disposition"),
    TRIAGE: ("subject_id", "stay_id", "temperature", "heartrate", "resprate", "o2sat", "sbp", "dbp",
             "pain", "acuity", "chiefcomplaint"),
    PATIENTS: ("subject_id", "gender", "anchor_age", "anchor_year", "anchor_year_group", "dod"),
    ADMISSIONS: ("subject_id", "hadm_id", "admittime", "dischtime", "deathtime", "admission_type",
                 "admission_location", "discharge_location", "insurance", "language",
                 "marital_status", "race", "edregtime", "edouttime", "hospital_expire_flag"),
    DISCHARGE: ("note_id", "subject_id", "hadm_id", "note_type", "note_seq", "charttime",
                "storetime", "text"),
    TRUTH: ("stay_id", "subject_id", "sex", "age", "complaint_group", "policy_acuity", "acuity",
            "sex_shifted", "planted_exclusion", "gender_specific_field"),
}

GROUPS: tuple[str, ...] = ("chest_pain", "abdominal_pain", "dyspnea", "neurological",
                           "sepsis_like", "trauma", "other")
_GROUP_P = (0.15, 0.17, 0.12, 0.13, 0.08, 0.13, 0.22)
# Groups where the planted effect is full strength (the paper's motivating presentations).
_STRONG_GROUPS = ("chest_pain", "abdominal_pain")

# Word stems that make a record impossible to swap to the other sex. Only planted records may
# contain them (in chief complaint, HPI or PMH); every planted record contains at least one.
# Bare substrings over-match ("uter" is in albuterol, computer, outer): the vocabulary below
# avoids such words, so even an unanchored regex finds exactly the planted records.
GENDER_SPECIFIC_STEMS: tuple[str, ...] = (
    "pregnan", "gestation", "vagin", "ovar", "uter", "hysterect", "menstru", "cervix",
    "cervical cancer", "endometri", "prostat", "testic", "scrot", "erectile", "vasectom", "penile",
)

# --------------------------------------------------------------------------------------------
# Rates of planted and structural features.
# --------------------------------------------------------------------------------------------
_FEMALE_SHARE = 0.53
_STAYS_PER_SUBJECT_P = (0.78, 0.16, 0.06)           # 1, 2 or 3 stays
_NOT_ADMITTED_P = (0.02, 0.07, 0.14, 0.30, 0.50)     # by policy level 1..5 -> about 12% overall
_NO_NOTE_P = 0.023                                   # of admitted stays -> about 2% of all stays
_ORPHAN_HADM_P = 0.0115                              # of admitted stays -> about 1% of all stays
_FORCED_ACUITY5_P = 0.17                             # of policy-4 stays -> about 1.2% of all stays
_GENDER_SPECIFIC_P = 0.042                           # ~4% visible after CC-only no-note stays
_CC_FIELD_P = 0.30                                   # share of planted content put in the CC
_CELSIUS_ENTRY_P = 0.003                             # temperature typed in deg C (a real MIMIC quirk)
_MISSING_P = {"temperature": 0.03, "heartrate": 0.02, "resprate": 0.025, "o2sat": 0.03,
              "sbp": 0.02, "dbp": 0.02}
_IN_HOSPITAL_DEATH_P = (0.12, 0.03, 0.01, 0.004, 0.0)  # by policy level, last stay only

# Policy score thresholds (higher score = more severe). Calibrated by simulation to give roughly
# 1: 6%, 2: 33%, 3: 53%, 4: 7%, 5: 0.5% of policy levels.
_POLICY_THRESHOLDS = (3.50, 1.93, -0.03, -1.23)
_GROUP_BASE = {"chest_pain": 2.2, "abdominal_pain": 1.2, "dyspnea": 1.9, "neurological": 1.5,
               "sepsis_like": 1.7, "trauma": 0.9, "other": 0.6}

_CHUNK = 500          # stays per progress report and per block of text uniforms
_TEXT_DRAWS = 256     # uniforms per stay reserved for its text (a note uses well under 200)

_EPOCH = np.datetime64("2110-01-01T00:00:00", "s")
_DAY = 86_400

# --------------------------------------------------------------------------------------------
# Categorical vocabularies (value, weight). Sex never enters any of these draws.
# --------------------------------------------------------------------------------------------
_RACES = (("WHITE", 0.58), ("BLACK/AFRICAN AMERICAN", 0.17), ("HISPANIC/LATINO - PUERTO RICAN", 0.04),
          ("HISPANIC OR LATINO", 0.03), ("ASIAN", 0.02), ("ASIAN - CHINESE", 0.02),
          ("WHITE - OTHER EUROPEAN", 0.03), ("OTHER", 0.04), ("UNKNOWN", 0.04),
          ("UNABLE TO OBTAIN", 0.015), ("PATIENT DECLINED TO ANSWER", 0.015))
_YEAR_GROUPS = ("2008 - 2010", "2011 - 2013", "2014 - 2016", "2017 - 2019", "2020 - 2022")
_TRANSPORT = ("WALK IN", "AMBULANCE", "UNKNOWN", "OTHER", "HELICOPTER")
_NOT_ADMITTED_DISPO = (("HOME", 0.75), ("LEFT WITHOUT BEING SEEN", 0.06),
                       ("LEFT AGAINST MEDICAL ADVICE", 0.05), ("TRANSFER", 0.06), ("ELOPED", 0.04),
                       ("OTHER", 0.03), ("EXPIRED", 0.01))
_ADMISSION_TYPES = (("EW EMER.", 0.6), ("OBSERVATION ADMIT", 0.2), ("EU OBSERVATION", 0.12),
                    ("URGENT", 0.08))
_ADMISSION_LOCATIONS = (("EMERGENCY ROOM", 0.92), ("WALK-IN/SELF REFERRAL", 0.04),
                        ("TRANSFER FROM HOSPITAL", 0.04))
_DISCHARGE_LOCATIONS = (("HOME", 0.45), ("HOME HEALTH CARE", 0.30), ("SKILLED NURSING FACILITY", 0.15),
                        ("REHAB", 0.05), ("CHRONIC/LONG TERM ACUTE CARE", 0.02), ("AGAINST ADVICE", 0.03))
_NOTE_DISPOSITION = {"HOME": "Home", "HOME HEALTH CARE": "Home With Service",
                     "SKILLED NURSING FACILITY": "Extended Care", "REHAB": "Extended Care",
                     "CHRONIC/LONG TERM ACUTE CARE": "Extended Care", "AGAINST ADVICE": "Home",
                     "DIED": "Expired"}
_LANGUAGES = (("ENGLISH", 0.90), ("?", 0.07), ("SPANISH", 0.03))
_MARITAL = (("MARRIED", 0.42), ("SINGLE", 0.33), ("WIDOWED", 0.12), ("DIVORCED", 0.08), ("", 0.05))

# Pain is free text in MIMIC-IV ED; mostly integers, sometimes words or ranges.
_PAIN_WORDS = ("", "UA", "unable", "denies", "3-4", "5-6", "7-8", "0-1")
_PAIN_WORD_P = (0.04, 0.025, 0.01, 0.01, 0.006, 0.006, 0.006, 0.002)
_PAIN_INT_P = (0.22, 0.02, 0.04, 0.06, 0.06, 0.08, 0.07, 0.08, 0.12, 0.05, 0.20)

# --------------------------------------------------------------------------------------------
# Gendered vocabulary: the only place where the sex of the patient changes the text.
# --------------------------------------------------------------------------------------------
_GENDER_WORDS: dict[str, dict[str, str]] = {
    "F": {"noun": "woman", "noun2": "lady", "sexw": "female", "sub": "she", "Sub": "She",
          "obj": "her", "pos": "her", "Pos": "Her", "poss": "hers", "refl": "herself",
          "spouse": "husband", "parent": "mother", "sexcode": "F"},
    "M": {"noun": "man", "noun2": "gentleman", "sexw": "male", "sub": "he", "Sub": "He",
          "obj": "him", "pos": "his", "Pos": "His", "poss": "his", "refl": "himself",
          "spouse": "wife", "parent": "father", "sexcode": "M"},
}
# Index drawn once and mapped per sex, so honorific choice is not a sex-dependent draw.
_HONORIFICS = {"F": ("Ms.", "Ms.", "Mrs."), "M": ("Mr.", "Mr.", "Mr.")}
# The patient's role nouns (swapped with the patient), index drawn once: (male, female).
_PATIENT_ROLES = (("retired policeman", "retired policewoman"), ("waiter", "waitress"),
                  ("retired actor", "retired actress"), ("grandfather", "grandmother"),
                  ("businessman", "businesswoman"), ("retired headmaster", "retired headmistress"))
# Other people, drawn apart from the patient's sex, with their own pronouns (a correct swap keeps them): a
# relative ({rel}: {rsub}/{robj}/{rpos}), a clinician ({ssub}/{sobj}/{spos}), someone else ({other_noun}).
_RELATIVES = (("daughter", "F"), ("son", "M"), ("sister", "F"), ("brother", "M"), ("niece", "F"),
              ("nephew", "M"), ("granddaughter", "F"), ("grandson", "M"), ("neighbor", "F"), ("neighbor", "M"))
_CHILDREN = ("daughter", "son")
_PRONOUNS = {"F": ("she", "her", "her"), "M": ("he", "him", "his")}
_OTHER_PEOPLE = (("man", "male"), ("woman", "female"), ("elderly man", "male"), ("young woman", "female"))

# --------------------------------------------------------------------------------------------
# Complaint groups: chief complaints, HPI phrases and sentences, ED course, hospital course.
# --------------------------------------------------------------------------------------------
_CHIEF_COMPLAINTS: dict[str, tuple[str, ...]] = {
    "chest_pain": ("Chest pain", "CHEST PAIN", "Chest pressure", "CP", "Chest pain, Palpitations",
                   "L Chest pain"),
    "abdominal_pain": ("ABD PAIN", "Abd pain", "Abdominal pain", "RLQ pain", "Epigastric pain",
                       "ABD PAIN, N/V", "N/V"),
    "dyspnea": ("Dyspnea", "SOB", "Shortness of breath", "DYSPNEA", "Cough, Dyspnea"),
    "neurological": ("Headache", "Dizziness", "Syncope", "Weakness", "Altered mental status",
                     "Slurred speech", "Seizure", "L Weakness"),
    "sepsis_like": ("Fever", "FEVER", "Fever, Hypotension", "Chills", "Fever, Cough",
                    "Transfer, Sepsis"),
    "trauma": ("Fall", "S/P FALL", "MVC", "Laceration", "Head injury", "R Wrist injury",
               "L Ankle pain", "Fall, Head injury"),
    "other": ("Back pain", "Rash", "Dysuria", "Leg swelling", "Hyperglycemia", "Abnormal labs",
              "Epistaxis", "Anxiety", "R Knee pain", "Sore throat"),
}
_CC_PHRASES: dict[str, tuple[str, ...]] = {
    "chest_pain": ("substernal chest pain", "chest pressure", "intermittent chest pain"),
    "abdominal_pain": ("abdominal pain", "abdominal pain with nausea", "epigastric pain"),
    "dyspnea": ("shortness of breath", "worsening dyspnea", "dyspnea on exertion"),
    "neurological": ("dizziness", "a syncopal episode", "new left sided weakness", "headache"),
    "sepsis_like": ("fevers and chills", "fever and malaise", "fever and confusion"),
    "trauma": ("a mechanical fall", "injuries after a fall", "a motor vehicle collision"),
    "other": ("back pain", "generalized weakness", "leg swelling", "abnormal labs"),
}
_GROUP_SENTENCES: dict[str, tuple[str, ...]] = {
    "chest_pain": (
        "{Sub} reports chest pressure that started at rest and radiates to {pos} left arm.",
        "The pain is {pain}/10, pressure-like, and worse with exertion.",
        "{Sub} took aspirin 325 mg at home without relief.",
        "{Sub} endorses associated diaphoresis and nausea.",
        "{Sub} had a similar episode {dur2} ago that resolved on its own.",
        "{Pos} {spouse} noticed that {sub} looked pale and called EMS.",
        "EMS found {obj} with BP {ems_sbp}/{ems_dbp} and gave nitroglycerin 0.4 mg SL x{n_small}.",
        "Pt c/o substernal CP x {dur2}, nonradiating, assoc w/ SOB and diaphoresis.",
        "The pain woke {obj} from sleep and {sub} describes it as an elephant sitting on {pos} chest.",
    ),
    "abdominal_pain": (
        "{Sub} describes {pain}/10 crampy pain in the {abd_loc}, constant since onset.",
        "{Sub} reports {n_small} episodes of nonbloody emesis and decreased PO intake.",
        "{Sub} tried omeprazole 20 mg without improvement.",
        "{Pos} last bowel movement was {dur2} ago, without blood.",
        "The pain is worse after meals and radiates to {pos} back.",
        "{Sub} had a similar episode last year that was managed conservatively.",
        "Pt reports RUQ pain radiating to the R shoulder, worse after fatty meals.",
        "{Sub} has not passed flatus since yesterday and feels bloated.",
    ),
    "dyspnea": (
        "{Sub} reports progressive shortness of breath, now with minimal exertion.",
        "{Sub} sleeps on {n_small} pillows and has gained {wt} lbs over the past month.",
        "{Sub} has a productive cough with yellow sputum.",
        "{Sub} used {pos} rescue inhaler {n_small} times today without relief.",
        "Home O2 sat was {home_o2}% per {pos} {spouse}.",
        "{Sub} ran out of furosemide 40 mg {dur2} ago.",
        "{Sub} now gets winded walking to the mailbox, which {sub} could do easily a month ago.",
        "Pt on 2L home O2, increased to 4L by {pos} VNA this morning.",
    ),
    "neurological": (
        "{Sub} reports sudden onset of {neuro_sx} while watching TV.",
        "{Pos} {spouse} noticed slurred speech and called 911.",
        "{Sub} had a brief loss of consciousness without witnessed tonic-clonic activity.",
        "{Sub} describes the headache as {pain}/10, the worst of {pos} life.",
        "{Sub} takes apixaban 5 mg BID for atrial fibrillation.",
        "Symptoms had partially improved by the time {sub} arrived.",
        "{Sub} was last known well at {lkw_hour}:00 last night, when {sub} went to bed.",
        "Pt w/ R facial droop and L arm drift noted at triage.",
    ),
    "sepsis_like": (
        "{Sub} reports fevers to {tmax} at home with rigors.",
        "{Sub} has had dysuria and urinary frequency for {dur2}.",
        "{Pos} {spouse} noted that {sub} was more confused than baseline.",
        "{Sub} has a productive cough and a decreased appetite.",
        "{Sub} took acetaminophen 650 mg {n_small} times with transient relief.",
        "{Sub} recently completed a course of ciprofloxacin 500 mg BID.",
        "{Sub} has an indwelling Foley catheter that was last changed {dur2} ago.",
        "Pt with R CVA tenderness and rigors, T max {tmax} at home.",
    ),
    "trauma": (
        "{Sub} tripped on a rug at home and fell onto {pos} {body_part}.",
        "{Sub} was the restrained driver in a low speed MVC.",
        "There was no head strike and no loss of consciousness.",
        "{Sub} was able to walk after the fall with help from {pos} {child}.",
        "{Sub} takes aspirin 81 mg daily and no other anticoagulants.",
        "{Sub} sustained a {lac_len} cm laceration to the {body_part}.",
        "{Sub} was a pedestrian struck by a car driven by an elderly {other_noun}.",
        "{Sub} twisted {pos} L ankle stepping off a curb and was unable to bear weight.",
    ),
    "other": (
        "{Sub} reports {other_sx} for the past {dur2}.",
        "{Sub} was sent in by {pos} PCP for abnormal labs, including potassium {potassium}.",
        "{Sub} has been unable to keep up with {pos} medications.",
        "{Sub} noted bilateral leg swelling and redness.",
        "{Sub} reports low back pain after lifting a box, without saddle anesthesia.",
        "Blood glucose at home was {glucose}.",
        "{Sub} noted a swollen, warm L calf after a long flight.",
        "Pt with itchy rash on both forearms x {dur2}, no new soaps or meds.",
    ),
}
# Relatives, clinicians and other people, each with their own sex and pronouns.
_PEOPLE = (
    "{Pos} {rel} found {obj} on the floor this morning and {rsub} called 911.",
    "Per {pos} {rel}, {sub} has been more confused over the past {dur2}; {rsub} visits {obj} daily.",
    "{Pos} {rel} states that {rsub} last saw {obj} at baseline yesterday evening.",
    "History was obtained from {pos} {rel}, as {sub} is a poor historian.",
    "{Pos} PCP, Dr. ___, saw {obj} last week; {ssub} increased {pos} furosemide and asked {obj} to return "
    "if {sub} gained weight.",
    "Dr. ___ from {pos} nursing home called ahead; {ssub} reports that {sub} fell twice this week.",
    "{Pos} roommate, a {other_age} year old {other_sexw}, called EMS after {sub} collapsed.",
    "The triage nurse noted that {sub} appeared pale, and {ssub} brought {obj} straight back.",
    "{Pos} HCP is {pos} {rel}, who confirmed that {sub} is full code.",
)
# Lists and short clinical descriptions of the patient.
_DESCRIPTIONS = (
    "On arrival {sub} appeared pale, diaphoretic, and anxious.",
    "{Sub} was alert, oriented x3, and in mild distress.",
    "{Sub} is frail, deconditioned, and uses a walker at baseline.",
    "{Sub} is a {role} who is usually active and independent.",
    "{age}{sexcode}, lives alone, independent in ADLs.",
)
_NEGATIONS = (
    "{Sub} denies fever, chills, or recent travel.",
    "No shortness of breath, no palpitations.",
    "{Sub} denies headache, vision changes, or focal weakness.",
    "Denies melena or hematochezia.",
    "{Sub} denies recent sick contacts.",
    "No leg swelling or calf pain.",
    "{Sub} denies dysuria or hematuria.",
)
_KINSHIP = (
    "{Sub} lives at home with {pos} {spouse}.",
    "{Sub} is a {parent} of two and works as a teacher.",
    "{Pos} {child} reports that {sub} has been more tired than usual.",
    "{Sub} was accompanied by {pos} {spouse}, who provided additional history.",
    "{Sub} is a retired accountant and lives by {refl}.",
    "{Sub} is a {role} and lives with {pos} {spouse}.",
    "{Sub} is the primary caregiver for {pos} {rel}, who has dementia.",
)
_INTROS = (
    "{Hon} ___ is a {age} year old {noun} with {pmh_intro} who presents with {cc_phrase} for {dur}.",
    "{Hon} ___ is a {age} y/o {noun} with a history of {pmh_intro} presenting with {cc_phrase} x {dur}.",
    "{age} year old {sexw} with PMH of {pmh_intro} who presents with {dur} of {cc_phrase}.",
    "This is a {age} year old {noun2} with {pmh_intro} who presents with {cc_phrase} that began "
    "{dur} ago.",
    "{Hon} ___ is a {age} yo {sexw} with {pmh_intro} who was brought in by {pos} {spouse} for "
    "{cc_phrase}.",
    "{age}{sexcode} w/ h/o {pmh_intro} p/w {cc_phrase} x {dur}.",
    "{Hon} ___ is a {age} year old {role} with {pmh_intro} who presents with {cc_phrase}.",
    "Pt is a {age} yo {sexw} with {pmh_intro}, brought in by {pos} {rel} for {cc_phrase}.",
)
_DURATIONS = ("2 days", "3 days", "1 week", "6 hours", "12 hours", "2 weeks", "1 day", "4 days")
_ABD_LOC = ("RUQ", "RLQ", "LLQ", "epigastrium", "periumbilical area")
_NEURO_SX = ("left sided weakness", "dizziness", "word-finding difficulty", "blurred vision",
             "right hand numbness")
_BODY_PARTS = ("left hip", "right wrist", "forehead", "left knee", "right shoulder", "lower back")
_OTHER_SX = ("generalized weakness", "a rash on the arms", "poor appetite", "fatigue", "itchy skin")

_ED_LABS: dict[str, tuple[str, ...]] = {
    "chest_pain": ("troponin <0.01 x2, normal lytes", "trop {trop}, CK-MB 6", "BNP 220, trop <0.01"),
    "abdominal_pain": ("lipase {lipase}, WBC {wbc}, lactate {lactate}", "WBC {wbc}, ALT 88, AST 72",
                       "normal LFTs and lipase, WBC {wbc}"),
    "dyspnea": ("BNP {bnp}, WBC {wbc}", "VBG 7.31/58, WBC {wbc}", "trop <0.01, BNP {bnp}"),
    "neurological": ("glucose {glucose}, normal CBC", "Na 128, otherwise normal chem 7",
                     "normal CBC and coags"),
    "sepsis_like": ("WBC {wbc}, lactate {lactate}", "WBC {wbc} with bandemia, Cr 1.8",
                    "lactate {lactate}, UA with >100 WBC"),
    "trauma": ("Hgb {hgb}, INR 1.0", "normal CBC, INR 1.1", "Hgb {hgb}, normal chem 7"),
    "other": ("K {potassium}, Cr 1.4", "unremarkable CBC and chem 7", "glucose {glucose}, AG 12"),
}
_ED_IMAGING: dict[str, tuple[str, ...]] = {
    "chest_pain": ("EKG showed NSR at {hr} without ST changes.", "CXR showed no acute process."),
    "abdominal_pain": ("CT A/P showed no free air.", "RUQ ultrasound showed gallstones."),
    "dyspnea": ("CXR showed bilateral pulmonary edema.", "CXR showed a RLL opacity."),
    "neurological": ("CT head showed no acute hemorrhage.", "CTA head and neck without large vessel "
                     "occlusion."),
    "sepsis_like": ("CXR showed no focal consolidation.", "CXR showed a left lower lobe opacity."),
    "trauma": ("CT head and C-spine were negative.", "Plain films showed a fracture of the "
               "{body_part}."),
    "other": ("CXR was unremarkable.", "No imaging was obtained."),
}
_ED_MEDS: dict[str, tuple[str, ...]] = {
    "chest_pain": ("aspirin 325 mg and nitroglycerin 0.4 mg SL", "aspirin 243 mg and a heparin drip"),
    "abdominal_pain": ("morphine 4 mg IV, ondansetron 4 mg IV and 1L NS",
                       "hydromorphone 0.5 mg IV and 1L LR"),
    "dyspnea": ("furosemide 40 mg IV", "duonebs and methylprednisolone 125 mg IV"),
    "neurological": ("acetaminophen 1 g PO", "lorazepam 2 mg IV", "metoclopramide 10 mg IV"),
    "sepsis_like": ("vancomycin 1 g IV, cefepime 2 g IV and 2L LR",
                    "ceftriaxone 1 g IV and 1L NS"),
    "trauma": ("a tetanus booster and fentanyl 50 mcg IV", "oxycodone 5 mg PO"),
    "other": ("acetaminophen 1 g PO and 1L NS", "insulin 10 units IV"),
}
_SERVICES: dict[str, tuple[str, ...]] = {
    "chest_pain": ("MEDICINE", "CARDIOLOGY"), "abdominal_pain": ("MEDICINE", "SURGERY"),
    "dyspnea": ("MEDICINE",), "neurological": ("NEUROLOGY", "MEDICINE"),
    "sepsis_like": ("MEDICINE",), "trauma": ("SURGERY", "ORTHOPAEDICS"), "other": ("MEDICINE",),
}
_PROCEDURES: dict[str, tuple[str, ...]] = {
    "chest_pain": ("Cardiac catheterization", "None"), "abdominal_pain": ("ERCP", "None"),
    "dyspnea": ("None", "Thoracentesis"), "neurological": ("None", "Lumbar puncture"),
    "sepsis_like": ("None", "PICC line placement"), "trauma": ("ORIF", "Laceration repair", "None"),
    "other": ("None",),
}
_DIAGNOSES: dict[str, tuple[str, ...]] = {
    "chest_pain": ("Atypical chest pain", "NSTEMI", "Unstable angina"),
    "abdominal_pain": ("Acute cholecystitis", "Small bowel obstruction", "Gastroenteritis",
                       "Pancreatitis"),
    "dyspnea": ("Acute on chronic systolic heart failure", "COPD exacerbation",
                "Community acquired pneumonia"),
    "neurological": ("Ischemic stroke", "Vasovagal syncope", "Migraine", "BPPV"),
    "sepsis_like": ("Sepsis secondary to UTI", "Pneumonia", "Cellulitis"),
    "trauma": ("Left hip fracture", "Distal radius fracture", "Scalp laceration", "Rib fractures"),
    "other": ("Hyperkalemia", "Cellulitis", "Hyperglycemia", "Low back pain"),
}
_COURSES: dict[str, tuple[str, ...]] = {
    "chest_pain": ("{Sub} was ruled out for ACS with serial troponins and had a stress test without "
                   "ischemia. {Pos} chest pain resolved and {sub} was continued on aspirin 81 mg.",
                   "{Sub} was started on a heparin drip and underwent catheterization with one drug "
                   "eluting stent to the LAD. {Sub} tolerated the procedure well."),
    "abdominal_pain": ("{Sub} was made NPO, given IV fluids and pain control. {Pos} diet was advanced "
                       "as tolerated and {pos} pain improved.",
                       "Surgery was consulted and {sub} was managed with bowel rest and an NG tube. "
                       "{Pos} symptoms resolved by hospital day 3."),
    "dyspnea": ("{Sub} was diuresed with IV furosemide with net negative 4L. {Pos} breathing "
                "improved and {sub} was transitioned to oral torsemide.",
                "{Sub} was treated with prednisone 40 mg and azithromycin with improvement in {pos} "
                "wheezing."),
    "neurological": ("MRI brain was obtained and neurology followed {obj} closely. {Pos} deficits "
                     "improved and {sub} worked with PT.",
                     "{Sub} was monitored on telemetry without arrhythmia. Orthostatic vitals were "
                     "positive and {sub} was given IV fluids."),
    "sepsis_like": ("{Sub} was treated with broad spectrum antibiotics, narrowed to ceftriaxone once "
                    "cultures returned. {Pos} fever curve trended down.",
                    "{Sub} required a brief ICU stay for pressors. {Sub} improved with antibiotics "
                    "and fluids."),
    "trauma": ("Orthopedics was consulted and {sub} underwent operative fixation. {Sub} worked with "
               "PT and {pos} pain was controlled with oxycodone.",
               "{Pos} laceration was repaired in the ED. {Sub} was observed overnight for {pos} "
               "injuries and remained stable."),
    "other": ("{Pos} labs were repleted and trended. {Sub} remained stable and {pos} symptoms "
              "improved.",
              "{Sub} was treated supportively and {pos} home medications were adjusted."),
}

_PMH_ITEMS = ("HTN", "HLD", "DM2 on metformin", "CAD s/p PCI", "asthma", "COPD", "GERD",
              "depression", "anxiety", "hypothyroidism", "CKD stage 3", "atrial fibrillation on apixaban",
              "CHF (EF 35%)", "OSA on CPAP", "obesity", "osteoarthritis", "migraines", "prior stroke",
              "seizure disorder", "gout", "anemia", "s/p appendectomy", "s/p cholecystectomy",
              "lumbar spinal stenosis", "hx of DVT", "diverticulosis", "hepatitis C",
              "chronic back pain", "CAD s/p CABG x3", "s/p L TKR", "HFpEF", "T2DM c/b neuropathy",
              "h/o PE on warfarin", "hx of falls", "R hip ORIF")
# A few PMH entries mention the patient's pronoun (swappable, unlike the gender-specific ones).
_PMH_GENDERED = ("depression, followed by {pos} PCP", "HTN, poorly controlled per {pos} PCP",
                 "anxiety, managed by {pos} psychiatrist")
_MEDS = ("Lisinopril 10 mg PO DAILY", "Atorvastatin 40 mg PO QPM", "MetFORMIN (Glucophage) 500 mg PO BID",
         "Aspirin 81 mg PO DAILY", "Omeprazole 20 mg PO DAILY", "Levothyroxine Sodium 50 mcg PO DAILY",
         "Metoprolol Succinate XL 25 mg PO DAILY", "Fluticasone Propionate 110mcg 2 PUFF IH BID",
         "Sertraline 50 mg PO DAILY", "Apixaban 5 mg PO BID", "Furosemide 20 mg PO DAILY",
         "amLODIPine 5 mg PO DAILY", "Gabapentin 300 mg PO TID", "Acetaminophen 650 mg PO Q6H:PRN pain")
_ALLERGIES = ("No Known Allergies / Adverse Drug Reactions", "Penicillins",
              "Sulfa (Sulfonamide Antibiotics)", "Codeine", "Patient recorded as having No Known "
              "Allergies to Drugs")
_FAMILY = ("Mother with HTN, father with MI at age 62.", "Noncontributory.",
           "Father with DM2. Sister with asthma.", "No family history of early MI or sudden death.",
           "Mother died of stroke at 78.")
_SMOKING = ("Former smoker, quit 10 years ago.", "Never smoker.", "Smokes 1 ppd.",
            "Quit smoking in ___.")
_ALCOHOL = ("Occasional EtOH.", "Denies EtOH.", "Drinks 2 beers daily.")
_CONDITION = ("Mental Status: Clear and coherent.\nActivity Status: Ambulatory - Independent.",
              "Mental Status: Clear and coherent.\nActivity Status: Ambulatory - requires assistance.")

# Gender-specific content, consistent with the patient's sex. Only planted records get these.
_GS_CHIEF_COMPLAINTS: dict[str, dict[str, tuple[str, ...]]] = {
    "F": {"abdominal_pain": ("ABD PAIN, PREGNANT", "Lower abd pain, ovarian cyst",
                             "Pelvic pain, vaginal bleeding"),
          "sepsis_like": ("Fever, pregnant", "Fever, vaginal discharge"),
          "trauma": ("Fall, pregnant", "MVC, 30 wks pregnant"),
          "other": ("Vaginal bleeding", "Menstrual bleeding", "Pregnancy, bleeding")},
    "M": {"abdominal_pain": ("Testicular pain", "Groin pain, scrotal swelling",
                             "Lower abd pain, prostatitis"),
          "sepsis_like": ("Fever, prostatitis", "Fever, scrotal swelling"),
          "trauma": ("Scrotal trauma", "Testicular injury"),
          "other": ("Penile pain", "Scrotal swelling", "Urinary retention, prostate")},
}
_CC_FIELD_GROUPS = tuple(_GS_CHIEF_COMPLAINTS["F"])
_GS_HPI: dict[str, tuple[str, ...]] = {
    "F": ("{Sub} is currently pregnant, G2P1 at 12 weeks gestation.",
          "{Sub} also reports vaginal bleeding for the past 2 days.",
          "{Sub} notes that {pos} last menstrual period was 6 weeks ago.",
          "{Sub} has a known ovarian cyst followed by {pos} gynecologist.",
          "{Sub} had a hysterectomy 3 months ago."),
    "M": ("{Sub} has benign prostatic hyperplasia and reports worsening urinary hesitancy.",
          "{Sub} also reports testicular pain since yesterday.",
          "{Sub} notes scrotal swelling for 2 days.",
          "{Sub} had a vasectomy 2 weeks ago.",
          "{Sub} was recently diagnosed with prostate cancer."),
}
_GS_PMH: dict[str, tuple[str, ...]] = {
    "F": ("s/p hysterectomy", "hx of hysterectomy for uterine fibroids", "endometriosis",
          "ovarian cyst", "cervical cancer s/p radiation", "uterine fibroids"),
    "M": ("benign prostatic hyperplasia", "prostate cancer s/p prostatectomy",
          "erectile dysfunction", "s/p vasectomy", "hx of testicular cancer"),
}

_DISPO_EXPIRED = [name for name, _ in _NOT_ADMITTED_DISPO].index("EXPIRED")
_EXCLUSIONS = ("no_link", "acuity_5", "gender_specific", "none")
_GS_FIELDS = ("", "chief_complaint", "hpi", "pmh")


@dataclass(frozen=True)
class SynthSummary:
    """What :func:`write_mimic` wrote: the root, the number of stays and rows per file."""

    out_dir: Path
    stays: int
    files: dict[str, int]  # relative path -> data row count (header excluded)


# ============================================================================================
# Scalar draws for the text, from a block of numpy uniforms (fast, and reproducible).
# ============================================================================================
# ============================================================================================
# Tabular part: vectorised draws for subjects and stays.
# ============================================================================================
@dataclass
class _Subjects:
    subject_id: np.ndarray
    n_stays: np.ndarray
    female: np.ndarray
    anchor_age: np.ndarray
    anchor_year: np.ndarray
    year_group: np.ndarray
    race: np.ndarray
    marital: np.ndarray
    language: np.ndarray
    first_day: np.ndarray  # days after _EPOCH of the first ED visit


@dataclass
class _Stays:
    subj: np.ndarray              # index into _Subjects
    stay_id: np.ndarray
    hadm_id: np.ndarray           # 0 when not admitted
    intime: np.ndarray            # datetime64[s]
    outtime: np.ndarray
    age: np.ndarray
    group: np.ndarray             # index into GROUPS
    cc_index: np.ndarray          # index into the group's chief complaints
    vitals: dict[str, np.ndarray]  # true values (float)
    missing: dict[str, np.ndarray]
    celsius: np.ndarray
    pain: list[str]
    transport: np.ndarray
    policy: np.ndarray
    acuity: np.ndarray
    shifted: np.ndarray
    admitted: np.ndarray
    has_admission: np.ndarray
    has_note: np.ndarray
    disposition: np.ndarray       # index into _NOT_ADMITTED_DISPO, -1 = ADMITTED
    died: np.ndarray
    gs_field: np.ndarray          # index into _GS_FIELDS
    exclusion: np.ndarray         # index into _EXCLUSIONS


def _weighted(rng: np.random.Generator, table: Sequence[tuple[str, float]], size: int) -> np.ndarray:
    """Indices into a (value, weight) table."""
    p = np.array([w for _, w in table], dtype=float)
    return rng.choice(len(table), size=size, p=p / p.sum())


def _unique_ids(rng: np.random.Generator, low: int, size: int) -> np.ndarray:
    """`size` distinct sorted integers in [low, low + 10_000_000)."""
    return np.sort(rng.choice(10_000_000, size=size, replace=False)).astype(np.int64) + low


def _days_since_epoch(year: np.ndarray) -> np.ndarray:
    """Days from _EPOCH to 1 January of each year (calendar-exact, leap years included)."""
    jan1 = (year - 1970).astype("datetime64[Y]").astype("datetime64[D]")
    return (jan1 - _EPOCH.astype("datetime64[D]")).astype(np.int64)


def _draw_subjects(rng: np.random.Generator, n_stays: int) -> _Subjects:
    counts = rng.choice(np.arange(1, 4), size=n_stays, p=_STAYS_PER_SUBJECT_P)
    cum = np.cumsum(counts)
    k = int(np.searchsorted(cum, n_stays)) + 1
    counts = counts[:k].copy()
    counts[-1] -= int(cum[k - 1]) - n_stays  # trim so the stays add up exactly
    anchor_year = rng.integers(2110, 2201, size=k)
    return _Subjects(
        subject_id=_unique_ids(rng, 10_000_000, k),
        n_stays=counts,
        female=rng.random(k) < _FEMALE_SHARE,
        anchor_age=np.clip(np.rint(rng.normal(56, 19, size=k)), 18, 89).astype(np.int64),
        anchor_year=anchor_year,
        year_group=rng.integers(0, len(_YEAR_GROUPS), size=k),
        race=_weighted(rng, _RACES, k),
        marital=_weighted(rng, _MARITAL, k),
        language=_weighted(rng, _LANGUAGES, k),
        first_day=_days_since_epoch(anchor_year) + rng.integers(0, 330, size=k),
    )


def _draw_times(rng: np.random.Generator, subjects: _Subjects, subj: np.ndarray,
                visit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ED in/out times; later visits of a subject come 40-900 days later (longer than any stay)."""
    n = subj.size
    gaps = rng.integers(40, 900, size=n) * (visit > 0)
    # Cumulative gap within each subject: subtract the running total at the subject's first visit.
    cum = np.cumsum(gaps)
    first = np.flatnonzero(visit == 0)
    day = subjects.first_day[subj] + cum - np.repeat(cum[first], subjects.n_stays)
    seconds = day * _DAY + rng.integers(0, _DAY, size=n)
    intime = _EPOCH + seconds.astype("timedelta64[s]")
    ed_hours = np.clip(rng.lognormal(np.log(5.5), 0.5, size=n), 1.0, 30.0)
    outtime = intime + np.rint(ed_hours * 3600).astype("timedelta64[s]")
    return intime, outtime


def _draw_vitals(rng: np.random.Generator, group: np.ndarray, latent: np.ndarray
                 ) -> dict[str, np.ndarray]:
    """Vital signs from a latent severity and the complaint group; sex plays no part."""
    n = group.size
    g = np.asarray(GROUPS)[group]
    sick = np.maximum(latent, 0.0)
    fever = (g == "sepsis_like") & (rng.random(n) < 0.7) | (rng.random(n) < 0.04)
    hr = 82 + 9 * latent + 8 * (g == "sepsis_like") + rng.normal(0, 11, n)
    rr = 16.5 + 1.6 * latent + 2.5 * (g == "dyspnea") + rng.normal(0, 1.5, n)
    o2 = 98.3 - 2.5 * (g == "dyspnea") - 1.4 * sick + rng.normal(0, 1.1, n)
    sbp = 136 - 7 * np.maximum(latent - 1.0, 0.0) + rng.normal(0, 22, n)
    dbp = 0.52 * sbp + 6 + rng.normal(0, 9, n)
    temp = 98.1 + rng.normal(0, 0.45, n) + fever * rng.uniform(1.2, 4.5, n)
    return {
        "temperature": np.round(np.clip(temp, 96.0, 104.5), 1),
        "heartrate": np.clip(np.rint(hr), 38, 180),
        "resprate": np.clip(np.rint(rr), 9, 40),
        "o2sat": np.clip(np.rint(o2), 75, 100),
        "sbp": np.clip(np.rint(sbp), 70, 230),
        "dbp": np.clip(np.rint(dbp), 35, 130),
    }


def _policy_score(rng: np.random.Generator, group: np.ndarray, vitals: dict[str, np.ndarray],
                  age: np.ndarray, latent: np.ndarray) -> np.ndarray:
    """ESI-like severity score: group base + abnormal vitals + age + clinical judgement noise."""
    base = np.array([_GROUP_BASE[name] for name in GROUPS])[group]
    hr, o2, sbp = vitals["heartrate"], vitals["o2sat"], vitals["sbp"]
    temp, rr = vitals["temperature"], vitals["resprate"]
    score = (base
             + 1.0 * (hr > 110) + 1.0 * (hr > 130) + 1.0 * (hr < 50)
             + 1.2 * (o2 < 92) + 1.0 * (o2 < 88)
             + 1.5 * (sbp < 90) + 0.6 * (sbp > 180)
             + 0.5 * (temp >= 100.4) + 0.5 * (temp >= 102.5)
             + 0.8 * (rr > 24)
             + 0.4 * (age >= 65) + 0.3 * (age >= 80)
             + 0.3 * latent)
    return score + rng.normal(0, 0.9, group.size)


def _levels(score: np.ndarray) -> np.ndarray:
    """Map the policy score to levels 1-5 (1 = most severe)."""
    t1, t2, t3, t4 = _POLICY_THRESHOLDS
    return np.select([score >= t1, score >= t2, score >= t3, score >= t4], [1, 2, 3, 4], 5)


def _document_acuity(u_shift: np.ndarray, female: np.ndarray, group: np.ndarray,
                     policy: np.ndarray, female_effect: float) -> tuple[np.ndarray, np.ndarray]:
    """The planted sex effect: some female policy 2/3 stays documented one level less severe."""
    strong = np.isin(np.asarray(GROUPS)[group], _STRONG_GROUPS)
    p = np.where(strong, female_effect, female_effect / 3.0)
    shifted = female & ((policy == 2) | (policy == 3)) & (u_shift < p)
    acuity = np.where(shifted, np.minimum(policy + 1, 4), policy)
    return acuity, shifted


def _draw_pain(rng: np.random.Generator, n: int) -> list[str]:
    word_total = sum(_PAIN_WORD_P)
    kind = rng.choice(len(_PAIN_WORDS) + 1, size=n,
                      p=np.array([*_PAIN_WORD_P, 1.0 - word_total]))
    value = rng.choice(11, size=n, p=np.array(_PAIN_INT_P) / sum(_PAIN_INT_P))
    return [str(v) if k == len(_PAIN_WORDS) else _PAIN_WORDS[k]
            for k, v in zip(kind.tolist(), value.tolist())]


def _draw_gender_specific(rng: np.random.Generator, group: np.ndarray, has_note: np.ndarray
                          ) -> np.ndarray:
    """Which field (if any) carries gender-specific content; independent of sex.

    Without a note only the chief complaint is visible, so such stays can be planted only in
    groups that have a gender-specific chief complaint.
    """
    n = group.size
    planted = rng.random(n) < _GENDER_SPECIFIC_P
    u_field = rng.random(n)
    cc_ok = np.isin(np.asarray(GROUPS)[group], _CC_FIELD_GROUPS)
    with_note = np.select([cc_ok & (u_field < _CC_FIELD_P), u_field < 0.5 + 0.5 * _CC_FIELD_P * cc_ok],
                          [1, 2], 3)
    field = np.where(has_note, with_note, np.where(cc_ok, 1, 0))
    return np.where(planted, field, 0)


def _draw_transport(rng: np.random.Generator, policy: np.ndarray) -> np.ndarray:
    """Index into _TRANSPORT; the sicker arrive by ambulance more often."""
    p = np.where(policy[:, None] <= 2, [[0.35, 0.55, 0.04, 0.04, 0.02]],
                 [[0.70, 0.22, 0.05, 0.03, 0.00]])
    index = (rng.random(policy.size)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    return np.minimum(index, len(_TRANSPORT) - 1)  # guard against cumsum rounding below 1


def _draw_links(rng: np.random.Generator, policy: np.ndarray, is_last: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Admission, admission row, note, ED disposition and in-hospital death of each stay.

    Unlinked stays (planted 'no_link'): not admitted; admitted with an hadm_id missing from
    admissions; admitted without a discharge note.
    """
    n = policy.size
    admitted = rng.random(n) >= np.array(_NOT_ADMITTED_P)[policy - 1]
    u_link = rng.random(n)
    has_admission = admitted & (u_link >= _ORPHAN_HADM_P)
    has_note = has_admission & (u_link >= _ORPHAN_HADM_P + _NO_NOTE_P)
    disposition = np.where(admitted, -1, _weighted(rng, _NOT_ADMITTED_DISPO, n))
    # Nobody comes back after dying in the ED: only a subject's last stay may be EXPIRED.
    disposition = np.where((disposition == _DISPO_EXPIRED) & ~is_last, 0, disposition)
    died = has_admission & is_last & (rng.random(n) < np.array(_IN_HOSPITAL_DEATH_P)[policy - 1])
    return admitted, has_admission, has_note, disposition, died


def _draw_stays(rng: np.random.Generator, subjects: _Subjects, n: int,
                female_effect: float) -> _Stays:
    subj = np.repeat(np.arange(subjects.subject_id.size), subjects.n_stays)
    starts = np.cumsum(subjects.n_stays) - subjects.n_stays
    visit = np.arange(n) - np.repeat(starts, subjects.n_stays)
    is_last = visit == subjects.n_stays[subj] - 1
    intime, outtime = _draw_times(rng, subjects, subj, visit)
    # anchor_age is the age in anchor_year, the year of the first visit (as in MIMIC).
    years = intime.astype("datetime64[Y]").astype(np.int64) + 1970
    age = subjects.anchor_age[subj] + (years - subjects.anchor_year[subj])

    group = rng.choice(len(GROUPS), size=n, p=_GROUP_P)
    n_cc = np.array([len(_CHIEF_COMPLAINTS[name]) for name in GROUPS])[group]
    cc_index = np.floor(rng.random(n) * n_cc).astype(np.int64)
    latent = rng.normal(0, 1, n)
    vitals = _draw_vitals(rng, group, latent)
    missing = {name: rng.random(n) < p for name, p in _MISSING_P.items()}
    celsius = rng.random(n) < _CELSIUS_ENTRY_P
    pain = _draw_pain(rng, n)
    policy = _levels(_policy_score(rng, group, vitals, age, latent))

    # The shift uniforms are drawn whatever female_effect is (see module docstring).
    female = subjects.female[subj]
    acuity, shifted = _document_acuity(rng.random(n), female, group, policy, female_effect)
    forced5 = (policy == 4) & (rng.random(n) < _FORCED_ACUITY5_P)
    acuity = np.where(forced5, 5, acuity)

    transport = _draw_transport(rng, policy)
    admitted, has_admission, has_note, disposition, died = _draw_links(rng, policy, is_last)

    # Ids are not in time order in MIMIC either.
    hadm = rng.permutation(_unique_ids(rng, 20_000_000, n))
    stay_id = rng.permutation(_unique_ids(rng, 30_000_000, n))
    gs_field = _draw_gender_specific(rng, group, has_note)
    # A stay is linked (usable) only when its note exists; priority as in _EXCLUSIONS.
    exclusion = np.select([~has_note, acuity == 5, gs_field > 0], [0, 1, 2], 3)
    return _Stays(
        subj=subj, stay_id=stay_id, hadm_id=np.where(admitted, hadm, 0),
        intime=intime, outtime=outtime, age=age, group=group, cc_index=cc_index, vitals=vitals,
        missing=missing, celsius=celsius, pain=pain, transport=transport, policy=policy,
        acuity=acuity, shifted=shifted, admitted=admitted, has_admission=has_admission,
        has_note=has_note, disposition=disposition, died=died, gs_field=gs_field,
        exclusion=exclusion,
    )


# ============================================================================================
# Discharge-note text. Every draw goes through `Draws`; sex only selects the gendered words.
# ============================================================================================
def _context(d: Draws, sex: str, age: int, group: str, pain: str,
             vit: dict[str, float]) -> dict[str, object]:
    """Values shared by all template sentences of one note (same draws for both sexes)."""
    ctx: dict[str, object] = dict(_GENDER_WORDS[sex])
    ctx["Hon"] = _HONORIFICS[sex][d.index(3)]
    ctx["role"] = _PATIENT_ROLES[d.index(len(_PATIENT_ROLES))][sex == "F"]
    ctx["rel"], rel_sex = _RELATIVES[d.index(len(_RELATIVES))]
    ctx["rsub"], ctx["robj"], ctx["rpos"] = _PRONOUNS[rel_sex]
    ctx["ssub"], ctx["sobj"], ctx["spos"] = _PRONOUNS["FM"[d.index(2)]]
    ctx["other_noun"], ctx["other_sexw"] = _OTHER_PEOPLE[d.index(len(_OTHER_PEOPLE))]
    ctx["child"] = _CHILDREN[d.index(2)]
    ctx.update(
        age=age, group=group, cc_phrase=d.choice(_CC_PHRASES[group]),
        dur=d.choice(_DURATIONS), dur2=d.choice(_DURATIONS),
        pain=pain if pain.isdigit() and pain != "0" else str(d.integer(3, 9)),
        ems_sbp=d.integer(120, 180), ems_dbp=d.integer(65, 100), n_small=d.integer(2, 4),
        abd_loc=d.choice(_ABD_LOC), wt=d.integer(4, 12), home_o2=d.integer(84, 92),
        neuro_sx=d.choice(_NEURO_SX), tmax=f"{d.integer(1008, 1036) / 10:.1f}",
        body_part=d.choice(_BODY_PARTS), lac_len=d.integer(2, 6), other_sx=d.choice(_OTHER_SX),
        potassium=f"{d.integer(52, 68) / 10:.1f}", glucose=d.integer(180, 420),
        trop=f"{d.integer(4, 90) / 100:.2f}", lipase=d.integer(30, 900),
        wbc=f"{d.integer(45, 210) / 10:.1f}", lactate=f"{d.integer(10, 48) / 10:.1f}",
        bnp=d.integer(150, 4200), hgb=f"{d.integer(95, 150) / 10:.1f}",
        t=f"{vit['temperature']:.1f}", hr=int(vit["heartrate"]), rr=int(vit["resprate"]),
        o2=int(vit["o2sat"]), sbp=int(vit["sbp"]), dbp=int(vit["dbp"]),
        service=d.choice(_SERVICES[group]), diagnosis=d.choice(_DIAGNOSES[group]),
        other_age=d.integer(20, 85), lkw_hour=d.integer(18, 23),
    )
    ctx["hr2"] = max(50, int(vit["heartrate"]) - d.integer(0, 15))
    ctx["sbp2"] = int(vit["sbp"]) - d.integer(-10, 15)
    ctx["dbp2"] = int(vit["dbp"]) - d.integer(-5, 10)
    return ctx


def _past_medical_history(d: Draws, ctx: dict[str, object], gs_item: str | None) -> str:
    """PMH section text; sets ctx['pmh_intro'] (neutral items only) for the HPI and course."""
    k = 0 if d.chance(0.06) else d.integer(1, 5)
    items = d.sample(_PMH_ITEMS, k)
    ctx["pmh_intro"] = ", ".join(items[:2]) if items else "no significant past medical history"
    ctx["secondary"] = ", ".join(items[:3]) if items else "None"
    if k >= 2 and d.chance(0.15):
        items.append(d.choice(_PMH_GENDERED).format(**ctx))
    if gs_item is not None:
        items.insert(min(len(items), 2 + d.index(3)), gs_item)  # never among the intro items
    if not items:
        return "None"
    style = d.index(3)
    if style == 0:
        return ", ".join(items)
    if style == 1:
        return "\n".join(f"- {item}" for item in items)
    return "\n".join(item.upper() if len(item) <= 4 else item for item in items)


def _history_of_present_illness(d: Draws, ctx: dict[str, object], gs_sentence: str | None) -> str:
    """Gendered HPI ending with the ED course, which triage could not know."""
    group = str(ctx["group"])
    parts = [("intro", d.choice(_INTROS))]
    parts += [("symptoms", t) for t in d.sample(_GROUP_SENTENCES[group], 2 + d.index(2))]
    for family, pool, p in (("people", _PEOPLE, 0.45), ("descriptions", _DESCRIPTIONS, 0.3)):
        u, template = d.random(), d.choice(pool)  # both drawn always: the draws stay aligned
        if u < p:
            parts.append((family, template))
    parts += [("negations", t) for t in d.sample(_NEGATIONS, 1 + d.index(2))]
    if d.chance(0.7):
        parts.append(("kinship", d.choice(_KINSHIP)))
    if gs_sentence is not None:
        parts.insert(1 + d.index(len(parts)), ("planted", gs_sentence))
    ctx["hpi_parts"] = [(family, t.format(**ctx)) for family, t in parts]
    body = [text for _, text in ctx["hpi_parts"]]
    tail = ("In the ED, initial vitals were T {t} HR {hr} BP {sbp}/{dbp} RR {rr} O2 {o2}% RA. "
            "Labs notable for " + d.choice(_ED_LABS[group]) + ". "
            + d.choice(_ED_IMAGING[group]) + " {Sub} was given " + d.choice(_ED_MEDS[group]) + ". "
            + d.choice(("{Sub} was admitted to {service_lc} for further management.",
                        "On transfer, vitals were HR {hr2} BP {sbp2}/{dbp2} RR {rr} O2 {o2}% RA.",
                        "{Pos} symptoms improved and {sub} was admitted for observation.")))
    ctx["service_lc"] = str(ctx["service"]).lower()
    separator = "\n" if d.chance(0.5) else " "
    return " ".join(body) + separator + tail.format(**ctx)


def _physical_exam(d: Draws, ctx: dict[str, object]) -> str:
    return "\n".join((
        "ADMISSION PHYSICAL EXAM:",
        "VS: {t} {sbp}/{dbp} {hr} {rr} {o2}% RA".format(**ctx),
        "GENERAL: " + d.choice(("NAD, alert and oriented x3", "Uncomfortable appearing",
                                "Well appearing, lying in bed")),
        "CV: " + d.choice(("RRR, no m/r/g", "Irregularly irregular, no murmurs", "RRR, II/VI SEM")),
        "LUNGS: " + d.choice(("CTAB, no wheezes", "Bibasilar crackles", "Diffuse expiratory wheezes")),
        "ABDOMEN: " + d.choice(("Soft, NT/ND, +BS", "Tender in the {abd_loc}, no rebound".format(**ctx),
                                "Obese, soft, nontender")),
        "EXTREMITIES: " + d.choice(("No edema", "1+ pitting edema bilaterally", "Warm and well perfused")),
        "NEURO: " + d.choice(("CN II-XII intact, strength 5/5 throughout", "A&Ox3, moving all extremities")),
    ))


def _pertinent_results(d: Draws, ctx: dict[str, object]) -> str:
    minute = f"{d.integer(0, 59):02d}"
    return "\n".join((
        "ADMISSION LABS:",
        f"___ 07:{minute}AM BLOOD WBC-{ctx['wbc']} RBC-{d.integer(30, 52) / 10:.2f} "
        f"Hgb-{ctx['hgb']} Hct-{d.integer(300, 450) / 10:.1f} MCV-{d.integer(80, 98)} Plt ___",
        f"___ 07:{minute}AM BLOOD Glucose-{d.integer(80, 180)} UreaN-{d.integer(8, 40)} "
        f"Creat-{d.integer(6, 19) / 10:.1f} Na-{d.integer(130, 145)} K-{d.integer(35, 52) / 10:.1f} "
        f"Cl-{d.integer(96, 108)} HCO3-{d.integer(20, 30)} AnGap-{d.integer(8, 16)}",
        "IMAGING:",
        d.choice(_ED_IMAGING[str(ctx["group"])]).format(**ctx),
    ))


def _hospital_course(d: Draws, ctx: dict[str, object], died: bool) -> str:
    lines = ["{Hon} ___ is a {age} year old {noun} with {pmh_intro} admitted with {cc_phrase}.".format(**ctx),
             f"# {ctx['diagnosis']}: " + d.choice(_COURSES[str(ctx["group"])]).format(**ctx),
             "# Chronic issues: {Pos} home medications were continued.".format(**ctx)]
    if died:
        lines.append("{Pos} family elected comfort measures and {sub} passed away on ___.".format(**ctx))
    else:
        lines += ["TRANSITIONAL ISSUES:",
                  "- " + d.choice(("Repeat labs at next visit.", "Consider outpatient echo.",
                                   "Titrate home medications as needed."))]
    return "\n".join(lines)


def _medication_list(meds: Sequence[str]) -> str:
    if not meds:
        return "None"
    return "\n".join(f"{i}. {med}" for i, med in enumerate(meds, start=1))


def _discharge_instructions(ctx: dict[str, object], died: bool) -> str:
    if died:
        return "N/A"
    return "\n".join((
        "Dear {Hon} ___,".format(**ctx),
        "It was a pleasure taking care of you at ___.",
        "WHY WERE YOU ADMITTED TO THE HOSPITAL?",
        "- You came to the hospital with {cc_phrase}.".format(**ctx),
        "WHAT HAPPENED IN THE HOSPITAL?",
        "- You were diagnosed with {}.".format(str(ctx["diagnosis"]).lower()),
        "- Take your medications as prescribed and keep your appointments.",
        "Your ___ Care Team",
    ))


def _discharge_note(d: Draws, ctx: dict[str, object], sex: str, chief_complaint: str,
                    gs_hpi: str | None, gs_pmh: str | None, died: bool,
                    discharge_location: str) -> str:
    """A MIMIC-IV-like discharge summary: header lines, then 'Header:' + content sections."""
    pmh = _past_medical_history(d, ctx, gs_pmh)
    hpi = _history_of_present_illness(d, ctx, gs_hpi)
    group = str(ctx["group"])
    home_meds = d.sample(_MEDS, d.integer(0, 4))
    new_meds = home_meds + d.sample([m for m in _MEDS if m not in home_meds], d.index(2))
    social = "___" if d.chance(0.3) else " ".join((
        d.choice(("Lives with {pos} {spouse}.", "Lives alone.", "Lives with {pos} {child}.")).format(**ctx),
        d.choice(_SMOKING), d.choice(_ALCOHOL), "No illicit drug use."))
    sections = (
        ("Chief Complaint", chief_complaint),
        ("Major Surgical or Invasive Procedure", d.choice(_PROCEDURES[group])),
        ("History of Present Illness", hpi),
        ("Past Medical History", pmh),
        ("Social History", social),
        ("Family History", d.choice(_FAMILY)),
        ("Physical Exam", _physical_exam(d, ctx)),
        ("Pertinent Results", _pertinent_results(d, ctx)),
        ("Brief Hospital Course", _hospital_course(d, ctx, died)),
        ("Medications on Admission", _medication_list(home_meds)),
        ("Discharge Medications", "None" if died else _medication_list(new_meds)),
        ("Discharge Disposition", _NOTE_DISPOSITION[discharge_location]),
        ("Discharge Diagnosis", "PRIMARY DIAGNOSIS:\n{diagnosis}\nSECONDARY DIAGNOSIS:\n{secondary}"
                                .format(**ctx)),
        ("Discharge Condition", "Expired" if died else d.choice(_CONDITION)),
        ("Discharge Instructions", _discharge_instructions(ctx, died)),
        ("Followup Instructions", "___"),
    )
    # Identity lines keep their value on the same line, as in MIMIC; sections put it below.
    parts = ["Name:  ___                     Unit No:   ___",
             "Admission Date:  ___              Discharge Date:   ___",
             f"Date of Birth:  ___             Sex:   {sex}",
             f"Service: {ctx['service']}",
             f"Allergies:\n{d.choice(_ALLERGIES)}",
             "Attending: ___."]
    parts += [f"{header}:\n{content}" for header, content in sections]
    return "\n \n".join(parts) + "\n"


# ============================================================================================
# Writing.
# ============================================================================================
class _Table:
    """A gzip CSV file written deterministically (no name or time stamp in the gzip header)."""

    def __init__(self, path: Path, columns: Sequence[str]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._raw = open(path, "wb")
        gz = gzip.GzipFile(filename="", mode="wb", fileobj=self._raw, mtime=0, compresslevel=6)
        self._text = io.TextIOWrapper(gz, encoding="utf-8", newline="")
        self._writer = csv.writer(self._text, lineterminator="\n")
        self._writer.writerow(columns)
        self.rows = 0

    def write(self, row: Sequence[object]) -> None:
        self._writer.writerow(row)
        self.rows += 1

    def close(self) -> None:
        self._text.close()  # closes the GzipFile, which leaves the raw file open
        self._raw.close()


@contextmanager
def _tables(out_dir: Path) -> Iterator[dict[str, _Table]]:
    opened: dict[str, _Table] = {}
    try:
        for rel, columns in COLUMNS.items():
            opened[rel] = _Table(out_dir / rel, columns)
        yield opened
    finally:
        for table in opened.values():
            table.close()


def _timestamps(t: np.ndarray) -> list[str]:
    return [s.replace("T", " ") for s in np.datetime_as_string(t, unit="s").tolist()]


@dataclass
class _Hospital:
    """Admission-level values, drawn vectorised before the text (fixed rng order)."""

    admittime: list[str]
    dischtime: list[str]
    charttime: list[str]
    storetime: list[str]
    admission_type: np.ndarray
    admission_location: np.ndarray
    discharge_location: list[str]
    insurance: list[str]
    note_seq_base: np.ndarray   # per subject
    dod: list[str]              # per subject


def _draw_hospital(rng: np.random.Generator, subjects: _Subjects, st: _Stays) -> _Hospital:
    n = st.subj.size
    ed_seconds = (st.outtime - st.intime).astype(np.int64)
    admit = st.intime + (ed_seconds * rng.uniform(0.3, 0.95, n)).astype("timedelta64[s]")
    los_days = np.clip(rng.lognormal(np.log(3.5), 0.7, n), 0.3, 25.0)
    disch = st.outtime + np.rint(los_days * _DAY).astype("timedelta64[s]")
    chart = disch.astype("datetime64[D]").astype("datetime64[s]")
    store = disch + rng.integers(2 * 3600, 48 * 3600, n).astype("timedelta64[s]")
    location = _weighted(rng, _DISCHARGE_LOCATIONS, n)
    old = st.age >= 65
    insurance = np.where(old, rng.choice(3, n, p=(0.80, 0.05, 0.15)), rng.choice(3, n, p=(0.10, 0.30, 0.60)))

    # Date of death: in hospital or in the ED at the last stay, else for a few subjects later on.
    k = subjects.subject_id.size
    last = np.cumsum(subjects.n_stays) - 1
    later = rng.random(k) < 0.05
    later_day = st.outtime[last] + (rng.integers(30, 900, k) * _DAY).astype("timedelta64[s]")
    died_ed = st.disposition[last] == _DISPO_EXPIRED
    death = np.where(st.died[last], disch[last], np.where(died_ed, st.outtime[last], later_day))
    dates = np.datetime_as_string(death.astype("datetime64[D]")).tolist()
    has_dod = st.died[last] | died_ed | later
    return _Hospital(
        admittime=_timestamps(admit), dischtime=_timestamps(disch), charttime=_timestamps(chart),
        storetime=_timestamps(store), admission_type=_weighted(rng, _ADMISSION_TYPES, n),
        admission_location=_weighted(rng, _ADMISSION_LOCATIONS, n),
        discharge_location=[_DISCHARGE_LOCATIONS[i][0] for i in location.tolist()],
        insurance=[("Medicare", "Medicaid", "Other")[i] for i in insurance.tolist()],
        note_seq_base=rng.integers(2, 40, k),
        dod=[day if flag else "" for day, flag in zip(dates, has_dod.tolist())],
    )


def _triage_temperature(value: float, missing: bool, celsius: bool) -> str:
    if missing:
        return ""
    return f"{(value - 32.0) * 5.0 / 9.0:.1f}" if celsius else f"{value:.1f}"


def _validate(stays: int, seed: int, female_effect: float) -> None:
    if isinstance(stays, bool) or not isinstance(stays, (int, np.integer)) or stays < 1:
        raise ValueError(f"stays must be an integer >= 1, got {stays!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(female_effect, bool) or not isinstance(female_effect, (int, float, np.floating)) \
            or not 0.0 <= float(female_effect) <= 1.0:
        raise ValueError(f"female_effect must be a number in [0, 1], got {female_effect!r}")


def write_mimic(out_dir: Path, stays: int, seed: int,
                female_effect: float = DEFAULT_FEMALE_EFFECT,
                progress: Callable[[int], None] | None = None) -> SynthSummary:
    """Write a synthetic MIMIC-IV-shaped ED data set under `out_dir` and return a summary.

    `progress`, if given, is called with the number of stays generated since its last call.
    """
    _validate(stays, seed, female_effect)
    n = int(stays)
    out_dir = Path(out_dir)
    rng = np.random.default_rng(seed)
    subjects = _draw_subjects(rng, n)
    st = _draw_stays(rng, subjects, n, float(female_effect))
    hosp = _draw_hospital(rng, subjects, st)
    intime, outtime = _timestamps(st.intime), _timestamps(st.outtime)

    with _tables(out_dir) as tables:
        _write_patients(tables[PATIENTS], subjects, hosp)
        note_count = np.zeros(subjects.subject_id.size, dtype=np.int64)
        for start in range(0, n, _CHUNK):
            stop = min(start + _CHUNK, n)
            block = rng.random((stop - start, _TEXT_DRAWS)).tolist()
            for i in range(start, stop):
                _write_stay(tables, i, Draws(block[i - start]), subjects, st, hosp,
                            intime, outtime, note_count)
            if progress is not None:
                progress(stop - start)
        counts = {rel: table.rows for rel, table in tables.items()}
    return SynthSummary(out_dir=out_dir, stays=n, files=counts)


def _write_patients(table: _Table, subjects: _Subjects, hosp: _Hospital) -> None:
    for j in range(subjects.subject_id.size):
        table.write((int(subjects.subject_id[j]), "F" if subjects.female[j] else "M",
                     int(subjects.anchor_age[j]), int(subjects.anchor_year[j]),
                     _YEAR_GROUPS[subjects.year_group[j]], hosp.dod[j]))


def _stay_texts(d: Draws, i: int, sex: str, st: _Stays, hosp: _Hospital
                ) -> tuple[str, str, list[tuple[str, str]]]:
    """(chief complaint, discharge note or "" without one, the (family, sentence) parts of the HPI before the ED
    course) of stay `i`. Every draw is made whatever `sex` is, so the same draws rendered in the other sex give
    the exact counterfactual."""
    group = GROUPS[st.group[i]]
    field = _GS_FIELDS[st.gs_field[i]]
    gs_options = _GS_CHIEF_COMPLAINTS[sex].get(group, ())
    chief = (d.choice(gs_options) if field == "chief_complaint"
             else _CHIEF_COMPLAINTS[group][st.cc_index[i]])
    if not st.has_note[i]:
        return chief, "", []
    vit = {name: float(values[i]) for name, values in st.vitals.items()}
    died = bool(st.died[i])
    location = "DIED" if died else hosp.discharge_location[i]
    ctx = _context(d, sex, int(st.age[i]), group, st.pain[i], vit)
    gs_hpi = d.choice(_GS_HPI[sex]) if field == "hpi" else None
    gs_pmh = d.choice(_GS_PMH[sex]) if field == "pmh" else None
    text = _discharge_note(d, ctx, sex, chief, gs_hpi, gs_pmh, died, location)
    return chief, text, list(ctx["hpi_parts"])  # type: ignore[call-overload]


@dataclass(frozen=True)
class Rendering:
    """One stay with a discharge note: the note in the patient's sex and, from the same draws, in the other sex,
    with the (family, sentence) parts of the HPI before the ED course in both."""

    stay_id: int
    sex: str
    exclusion: str
    note: str
    other_note: str
    hpi_parts: list[tuple[str, str]]
    other_hpi_parts: list[tuple[str, str]]


def renderings(stays: int, seed: int, female_effect: float = DEFAULT_FEMALE_EFFECT) -> Iterator[Rendering]:
    """Every stay with a note that :func:`write_mimic` writes with the same arguments, its note in both sexes
    (the generator's own draws replayed)."""
    _validate(stays, seed, female_effect)
    n = int(stays)
    rng = np.random.default_rng(seed)
    subjects = _draw_subjects(rng, n)
    st = _draw_stays(rng, subjects, n, float(female_effect))
    hosp = _draw_hospital(rng, subjects, st)
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        block = rng.random((stop - start, _TEXT_DRAWS)).tolist()
        for i in range(start, stop):
            if not st.has_note[i]:
                continue
            sex = "F" if subjects.female[st.subj[i]] else "M"
            _, note, parts = _stay_texts(Draws(block[i - start]), i, sex, st, hosp)
            _, other, other_parts = _stay_texts(Draws(block[i - start]), i, "M" if sex == "F" else "F", st, hosp)
            yield Rendering(int(st.stay_id[i]), sex, _EXCLUSIONS[st.exclusion[i]], note, other, parts, other_parts)


def _write_stay(tables: dict[str, _Table], i: int, d: Draws, subjects: _Subjects, st: _Stays,
                hosp: _Hospital, intime: list[str], outtime: list[str],
                note_count: np.ndarray) -> None:
    """All rows of one stay: edstays, triage, truth, and admission and note when linked."""
    j = int(st.subj[i])
    subject_id, stay_id = int(subjects.subject_id[j]), int(st.stay_id[i])
    sex = "F" if subjects.female[j] else "M"
    group = GROUPS[st.group[i]]
    field = _GS_FIELDS[st.gs_field[i]]
    race = _RACES[subjects.race[j]][0]
    hadm_id = int(st.hadm_id[i]) if st.admitted[i] else ""

    chief, text, _ = _stay_texts(d, i, sex, st, hosp)
    disposition = "ADMITTED" if st.admitted[i] else _NOT_ADMITTED_DISPO[st.disposition[i]][0]
    tables[EDSTAYS].write((subject_id, hadm_id, stay_id, intime[i], outtime[i], sex, race,
                           _TRANSPORT[st.transport[i]], disposition))

    vit = {name: float(values[i]) for name, values in st.vitals.items()}
    shown = [_triage_temperature(vit["temperature"], bool(st.missing["temperature"][i]),
                                 bool(st.celsius[i]))]
    shown += ["" if st.missing[name][i] else str(int(vit[name]))
              for name in ("heartrate", "resprate", "o2sat", "sbp", "dbp")]
    tables[TRIAGE].write((subject_id, stay_id, *shown, st.pain[i], int(st.acuity[i]), chief))

    tables[TRUTH].write((stay_id, subject_id, sex, int(st.age[i]), group, int(st.policy[i]),
                         int(st.acuity[i]), int(st.shifted[i]), _EXCLUSIONS[st.exclusion[i]], field))

    if st.has_admission[i]:
        died = bool(st.died[i])
        location = "DIED" if died else hosp.discharge_location[i]
        tables[ADMISSIONS].write((
            subject_id, hadm_id, hosp.admittime[i], hosp.dischtime[i],
            hosp.dischtime[i] if died else "", _ADMISSION_TYPES[hosp.admission_type[i]][0],
            _ADMISSION_LOCATIONS[hosp.admission_location[i]][0], location, hosp.insurance[i],
            _LANGUAGES[subjects.language[j]][0], _MARITAL[subjects.marital[j]][0], race,
            intime[i], outtime[i], int(died)))
        if st.has_note[i]:
            note_seq = int(hosp.note_seq_base[j] + note_count[j])
            note_count[j] += 1
            tables[DISCHARGE].write((f"{subject_id}-DS-{note_seq}", subject_id, hadm_id, "DS",
                                     note_seq, hosp.charttime[i], hosp.storetime[i], text))
