"""What "good data" means per data set: units and physiological ranges of the raw columns, identifiers, coded
columns, free-text columns (never pulled into memory), and the documented levels the cohort keeps after the
data set's exclusions. The column names and types of the raw files are the sources' contracts
(biasmirror.quality.contracts); this module adds what the contract does not say.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Range:
    """A plausible range in a given unit; `mostly` is the share of non-null values that must fall inside it
    (real extracts hold a few typos, a wrong unit moves nearly every value out)."""

    low: float
    high: float
    unit: str
    mostly: float = 0.99


# The cohort's shared units (int_triage_records_unioned): every data set converts to these in staging.
COHORT_RANGES: dict[str, Range] = {
    "age": Range(0, 120, "years", 1.0),
    "temperature_c": Range(30, 44, "deg C"),
    "heart_rate": Range(20, 250, "beats/min"),
    "resp_rate": Range(4, 70, "breaths/min"),
    "o2_saturation": Range(50, 100, "%"),
    "systolic_bp": Range(50, 280, "mmHg"),
    "diastolic_bp": Range(20, 180, "mmHg"),
    "pain_score": Range(0, 10, "0-10 scale", 1.0),
}


@dataclass(frozen=True)
class DatasetProfile:
    dataset: str
    #: documented levels left after the data set's exclusions (MIMIC drops ESI 5, Bordeaux CIMU level 1)
    cohort_levels: tuple[int, ...]
    #: (table, column) -> range in the raw file's unit
    raw_ranges: dict[tuple[str, str], Range] = field(default_factory=dict)
    #: (table, column) -> accepted codes, for coded columns the contract does not list (empty values allowed)
    raw_codes: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    #: (table, column) that must be unique and present
    raw_ids: tuple[tuple[str, str], ...] = ()
    #: free-text columns: checked for encoding (when the contract asks for row validation), never pulled
    raw_text: tuple[tuple[str, str], ...] = ()


PROFILES: dict[str, DatasetProfile] = {
    "mimic": DatasetProfile(
        dataset="mimic",
        cohort_levels=(1, 2, 3, 4),
        raw_ranges={
            # MIMIC-IV records deg F; a few values are typed in deg C, which `mostly` tolerates.
            ("triage", "temperature"): Range(86, 111.2, "deg F"),
            ("triage", "heartrate"): Range(20, 250, "beats/min"),
            ("triage", "resprate"): Range(4, 70, "breaths/min"),
            ("triage", "o2sat"): Range(50, 100, "%"),
            ("triage", "sbp"): Range(50, 280, "mmHg"),
            ("triage", "dbp"): Range(20, 180, "mmHg"),
            ("triage", "acuity"): Range(1, 5, "ESI level", 1.0),
            ("patients", "anchor_age"): Range(0, 120, "years", 1.0),
        },
        raw_codes={("edstays", "gender"): ("F", "M"), ("patients", "gender"): ("F", "M")},
        raw_ids=(("edstays", "stay_id"), ("triage", "stay_id"), ("patients", "subject_id"),
                 ("admissions", "hadm_id"), ("discharge", "note_id")),
        raw_text=(("triage", "chiefcomplaint"), ("discharge", "text")),
    ),
    "bordeaux": DatasetProfile(
        dataset="bordeaux",
        cohort_levels=(2, 3, 4, 5),
        raw_ranges={
            ("visits", "temperature_c"): Range(30, 44, "deg C"),
            ("visits", "heart_rate"): Range(20, 250, "beats/min"),
            ("visits", "resp_rate"): Range(4, 70, "breaths/min"),
            ("visits", "spo2"): Range(50, 100, "%"),
            ("visits", "systolic_bp"): Range(50, 280, "mmHg"),
            ("visits", "diastolic_bp"): Range(20, 180, "mmHg"),
            ("visits", "pain_score"): Range(0, 10, "0-10 scale", 1.0),
            ("visits", "patient_age"): Range(0, 120, "years", 1.0),
        },
        raw_ids=(("visits", "visit_id"),),
        raw_text=(("visits", "triage_note"), ("visits", "history"), ("visits", "complaint_label")),
    ),
}


def profile(dataset: str) -> DatasetProfile | None:
    return PROFILES.get(dataset)
