"""Cohort-layer gates over audit.triage_cohort, per data set.

Identifiers, sex and split domains; the documented level in the data set's domain after its exclusions; vital
signs within physiological ranges in the cohort's shared units; no record left whose texts match an exclusion
keyword of its language or whose complaint class is excluded (both flags computed in the warehouse from the reference
seeds, so note text never leaves the database); and the split's balance - the test share overall, per sex and
per documented level within 4 binomial standard errors of var test_fraction.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from biasmirror.quality.profiles import COHORT_RANGES, profile
from biasmirror.quality.suites import Check, Skipped, between, is_false, not_null, unique, values_in
from biasmirror.warehouse.catalog import table_names
from biasmirror.warehouse.postgres import regex_matches

MAX_SPLIT_Z = 4.0


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return table_names(con)


def _keyword_patterns_sql(tables: set[str]) -> str:
    """One alternation of the exclusion keyword patterns per language, from every reference.exclusion_keywords_<lang>."""
    languages = sorted(t.split(".", 1)[1].removeprefix("exclusion_keywords_") for t in tables
                       if t.startswith("reference.exclusion_keywords_"))
    if not languages:
        return "select cast(null as varchar) as language, cast(null as varchar) as alternatives where false"
    return " union all ".join(
        f"select '{lang}' as language, string_agg(pattern, '|') as alternatives from reference.exclusion_keywords_{lang}"
        for lang in languages)


def cohort_checks(con: duckdb.DuckDBPyConnection, test_fraction: float) -> tuple[list[Check], list[Skipped]]:
    tables = _tables(con)
    if "audit.triage_cohort" not in tables:
        return [], [Skipped("cohort", "cohort", "the warehouse has no audit.triage_cohort: run `biasmirror build`")]
    class_flag = "false"
    if "reference.excluded_complaint_classes" in tables:
        class_flag = ("exists (select 1 from reference.excluded_complaint_classes x "
                      "where upper(left(c.chief_complaint_class, 3)) between x.code_from and x.code_to)")
    keyword_match = regex_matches(con, "lower(concat_ws(' | ', c.chief_complaint, c.hpi, c.pmh))",
                                  "'(?i)(' || p.alternatives || ')'")
    frame = con.execute(f"""
        with patterns as ({_keyword_patterns_sql(tables)})
        select
            c.dataset, c.record_id, c.split, c.sex, c.nurse_sex, c.documented_level,
            c.age, c.temperature_c, c.heart_rate, c.resp_rate, c.o2_saturation, c.systolic_bp, c.diastolic_bp,
            c.pain_score,
            coalesce({keyword_match}, false) as has_excluded_keyword,
            {class_flag} as has_excluded_complaint_class,
            c.input_text is not null as has_input_text
        from audit.triage_cohort c
        left join patterns p on p.language = c.language
    """).df()
    checks: list[Check] = []
    skipped: list[Skipped] = []
    if frame.empty:
        return [], [Skipped("cohort", "cohort", "audit.triage_cohort is empty (no data set configured)")]
    for dataset, records in frame.groupby("dataset", sort=True):
        prof = profile(str(dataset))
        expectations = [
            not_null("record_id", "every record has an id"),
            unique("record_id", "one row per record"),
            values_in("sex", ["F", "M"], "sex is F or M"),
            not_null("sex", "sex is documented"),
            values_in("split", ["train", "test"], "split is train or test"),
            not_null("documented_level", "the documented level is known"),
            values_in("nurse_sex", ["F", "M"], "the triage nurse's sex is F or M (or unknown)"),
            is_false("has_excluded_keyword", "no text matches an exclusion keyword of its language "
                     "(seeds exclusion_keywords_<language>)"),
            is_false("has_excluded_complaint_class", "no complaint class in an excluded range "
                     "(seed excluded_complaint_classes)"),
            values_in("has_input_text", [True], "every record has its linearized input"),
        ]
        if prof is not None:
            levels = list(prof.cohort_levels)
            expectations.append(values_in("documented_level", levels,
                                          f"{dataset}'s documented levels after exclusions are {levels}"))
        for column, bounds in COHORT_RANGES.items():
            expectations.append(between(column, bounds.low, bounds.high,
                                        f"{column} within {bounds.low:g}-{bounds.high:g} {bounds.unit} "
                                        f"(at least {bounds.mostly:.1%} of values)", bounds.mostly))
        checks.append(Check("cohort", f"{dataset}.records", f"audit.triage_cohort ({dataset})",
                            records.drop(columns=["dataset"]).reset_index(drop=True), expectations,
                            # coded columns whose short values may be quoted; record ids are never shown
                            value_kinds={"sex": "code", "nurse_sex": "code", "split": "code"}))
        checks.append(_split_balance(str(dataset), records, test_fraction))
    return checks, skipped


def _split_balance(dataset: str, records: pd.DataFrame, test_fraction: float) -> Check:
    """Test share overall, per sex and per documented level, with its z score against test_fraction."""
    rows = []
    strata = [("overall", pd.Series("all", index=records.index)), ("sex", records["sex"].astype(str)),
              ("documented_level", records["documented_level"].astype("Int64").astype(str))]
    for name, values in strata:
        for value, group in records.groupby(values, sort=True):
            n = len(group)
            share = float((group["split"] == "test").mean())
            se = np.sqrt(test_fraction * (1 - test_fraction) / n) if 0 < test_fraction < 1 else 0.0
            z = (share - test_fraction) / se if se > 0 else (0.0 if share == test_fraction else np.inf)
            rows.append({"stratum_name": name, "stratum_value": str(value), "n_records": n,
                         "test_share": share, "split_z": float(z)})
    frame = pd.DataFrame(rows)
    return Check("cohort", f"{dataset}.split", f"audit.triage_cohort ({dataset}) split", frame, [
        between("split_z", -MAX_SPLIT_Z, MAX_SPLIT_Z,
                f"the test share (overall, per sex, per level) is within {MAX_SPLIT_Z:g} binomial standard "
                f"errors of test_fraction = {test_fraction:g}"),
    ])
