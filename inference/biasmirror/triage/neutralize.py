"""Gender neutralization of model inputs, for the study's neutralization baseline.

A neutralized input has every sex/gender marker removed: the tabular sex line is dropped and every gendered word
of the rule-based swapper's lexicon (counterfactuals/lexicons/<language>.json, read-only) is replaced by one
neutral form that is the same for both sexes ("she" and "he" -> "they"; "her", "his", "him", "hers" -> "their";
"woman", "man" -> "person"; Mr/Ms/Mrs -> Mx; "67 y/o F" -> "67 y/o X"). Because the female and the male form of a
pair map to the same word, the neutralized texts of a record and of its sex-swapped copy are (nearly) identical,
which is the point: a model trained and scored on them cannot see sex. Grammar suffers a little ("they is") and
does not matter for the purpose.

English only (MIMIC-IV), like the study, which ran this baseline on MIMIC-IV only: French and Spanish need
neutral forms for determiners and agreement that a word list cannot give, so they are refused with a message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from biasmirror.counterfactuals.agreement_en import SEX_WORD_PAIRS
from biasmirror.counterfactuals.rules import residual_terms

# Labels of the sex line written by macros/linearize_record.sql (linearization_labels: 'sex' in each language).
SEX_LINE_LABELS = ("sex", "sexe")
_SEX_LINE = re.compile(r"^(?:" + "|".join(SEX_LINE_LABELS) + r"): [^\n]*(?:\n|$)", re.MULTILINE | re.IGNORECASE)
# The triage nurse's sex (Bordeaux, label 'nurse_sex') is context about the nurse, not a marker of the patient's
# sex: its line is kept as it is.
NURSE_LINE_LABELS = ("triage nurse sex", "sexe de l'IOA")

# Neutral forms by the lexicon's first (female) form of a pair; a pair not listed gets the fallback.
NEUTRAL_FORMS = {
    "she": "they", "herself": "themself", "woman": "person", "women": "people", "lady": "person",
    "ladies": "people", "female": "person", "females": "people", "girl": "child", "girls": "children",
    "madam": "", "husband": "spouse", "husbands": "spouses", "boyfriend": "partner", "boyfriends": "partners",
    "fiance": "partner", "fiancé": "partner", "widow": "widowed person", "widows": "widowed people",
    "mother": "parent", "mom": "parent", "grandmother": "grandparent", "grandma": "grandparent",
}
PRONOUN_FORM = "their"  # her, his, him, hers: one form, whatever the context, so both sexes look the same
HONORIFIC_FORM = "Mx"
SEX_CODE_FORM = "X"
FALLBACK_FORM = "person"


@dataclass(frozen=True)
class _Neutralizer:
    words: re.Pattern[str]
    replacements: dict[str, str]
    honorifics: re.Pattern[str]
    sex_codes: re.Pattern[str]
    labelled_codes: re.Pattern[str]


def _forms(value: object) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


NEUTRALIZABLE_LANGUAGES = ("en",)


@lru_cache(maxsize=None)
def _neutralizer(language: str) -> _Neutralizer:
    if language not in NEUTRALIZABLE_LANGUAGES:
        raise ValueError(f"Gender neutralization is implemented for {', '.join(NEUTRALIZABLE_LANGUAGES)} only, "
                         f"not {language!r} (the study ran this baseline on MIMIC-IV only).")
    path = resources.files("biasmirror.counterfactuals").joinpath("lexicons", f"{language}.json")
    if not path.is_file():
        raise ValueError(f"No lexicon for language {language!r} to neutralize with")
    lexicon = json.loads(path.read_text(encoding="utf-8"))
    replacements: dict[str, str] = {}
    pairs = list(lexicon.get("pairs", [])) + list(lexicon.get("patient_kinship", {}).get("pairs", []))
    if language == "en":
        # woman/man, lady/gentleman, female/male: the swapper reads them in context (a role noun of the patient or
        # someone else's); the neutralizer removes them everywhere, like every other marker
        pairs += [{"F": female, "M": male} for female, male in SEX_WORD_PAIRS.items()]
    for pair in pairs:
        female, male = _forms(pair.get("F")), _forms(pair.get("M"))
        if not female or not male:
            continue
        neutral = NEUTRAL_FORMS.get(female[0].lower(), FALLBACK_FORM)
        for form in female + male:
            replacements[form.lower()] = neutral
    for form, spec in lexicon.get("directed", {}).items():
        if not form.startswith("_") and isinstance(spec, dict):
            replacements[form.lower()] = PRONOUN_FORM
    # Kinship nouns (mother, father) describe other people except in "mother of two": neutralizing them always
    # removes more than needed but never leaves a marker; kinship of relatives carries no sex of the patient.
    words = sorted(replacements, key=len, reverse=True)
    word_pattern = re.compile(r"(?<![\w'’-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w'’-])",
                              re.IGNORECASE)
    honorific_forms = [form for pair in lexicon.get("honorifics", {}).get("pairs", [])
                       for side in ("F", "M") for form in _forms(pair.get(side))]
    honorifics = re.compile(r"\b(" + "|".join(re.escape(h) for h in sorted(honorific_forms, key=len, reverse=True))
                            + r")\b")
    codes = lexicon.get("sex_codes", {})
    units = sorted(codes.get("age_units", []), key=len, reverse=True)
    unit_pattern = "|".join(re.escape(u) for u in units) or "y/o"
    # an age, optionally a unit, then a lone F/M: "67 y/o F", "45F", "54 M", "45/F"
    sex_codes = re.compile(r"(\b\d{1,3}\s*(?:-?\s*(?:" + unit_pattern + r"))?\s*)([FfMm])\b")
    labels = "|".join(re.escape(label) for label in codes.get("field_labels", ["sex", "gender"]))
    labelled = re.compile(r"(\b(?:" + labels + r")\s*:\s*)([FfMm])\b", re.IGNORECASE)
    return _Neutralizer(word_pattern, replacements, honorifics, sex_codes, labelled)


def _match_case(source: str, replacement: str) -> str:
    if not replacement:
        return replacement
    if source.isupper() and len(source) > 1:
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def neutralize_text(text: str | None, language: str = "en") -> str | None:
    """The text with the sex line removed and every gendered word replaced by its neutral form."""
    if text is None or text == "":
        return text
    rules = _neutralizer(language)
    lines = _SEX_LINE.sub("", text).split("\n")
    return "\n".join(line if line.lower().startswith(tuple(f"{label.lower()}: " for label in NURSE_LINE_LABELS))
                     else _neutralize_line(line, rules) for line in lines)


def _neutralize_line(line: str, rules: _Neutralizer) -> str:
    out = rules.labelled_codes.sub(lambda m: m.group(1) + SEX_CODE_FORM, line)
    out = rules.sex_codes.sub(lambda m: m.group(1) + SEX_CODE_FORM, out)
    out = rules.honorifics.sub(HONORIFIC_FORM, out)
    return rules.words.sub(lambda m: _match_case(m.group(0), rules.replacements[m.group(0).lower()]), out)


def remaining_markers(text: str | None, language: str = "en") -> list[str]:
    """Gendered terms the swapper's own detector still finds (both sexes): empty for a neutralized text."""
    return residual_terms(text, "F", language) + residual_terms(text, "M", language)


def transform_inputs(texts: list[str], transform: str, language: str = "en") -> list[str]:
    """Apply a model's input transform (`none` or `neutralized`) to its input texts."""
    if transform == "none":
        return list(texts)
    if transform == "neutralized":
        return [neutralize_text(text, language) or "" for text in texts]
    raise ValueError(f"Unknown input transform {transform!r}")
