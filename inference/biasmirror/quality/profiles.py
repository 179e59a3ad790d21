"""What "good data" means per data set after staging: the cohort's shared units and physiological ranges, and
the documented levels the cohort keeps after the data set's exclusions. Everything about the raw files - their
columns, kinds, ids, codes, free-text columns and plausible ranges in the files' own units - is the sources'
contract (the sources YAML, read by biasmirror.quality.contracts), not this module.
"""

from __future__ import annotations

from dataclasses import dataclass


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


PROFILES: dict[str, DatasetProfile] = {
    "mimic": DatasetProfile(dataset="mimic", cohort_levels=(1, 2, 3, 4)),
    "bordeaux": DatasetProfile(dataset="bordeaux", cohort_levels=(2, 3, 4, 5)),
}


def profile(dataset: str) -> DatasetProfile | None:
    return PROFILES.get(dataset)
