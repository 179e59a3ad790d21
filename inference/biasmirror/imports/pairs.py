"""`biasmirror import-pairs`: audit predictions made by any other system.

The file holds one row per pair: pair_id, original_sex (F or M), original_level, counterfactual_level, and
optionally setting (full | text_only | tabular_only), true_level, patient_id (the patient the pair's record belongs to:
the bootstrap then resamples patients with all their pairs) and any number of stratum_<name> columns.
Everything is validated before anything is written; importing the same dataset/model/setting again replaces
the earlier rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from biasmirror.imports.tables import (ImportValidationError, describe_columns, describe_rows, read_table,
                                      text_columns)
from biasmirror.settings import LEVELS, SETTINGS
from biasmirror.warehouse import connect
from biasmirror.warehouse.runs import recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

REQUIRED = ("pair_id", "original_sex", "original_level", "counterfactual_level")
OPTIONAL = ("setting", "true_level", "patient_id")
STRATUM_PREFIX = "stratum_"


@dataclass(frozen=True)
class PairImport:
    import_id: str
    n_pairs: int
    settings: tuple[str, ...]
    strata: tuple[str, ...]
    ignored_columns: tuple[str, ...]


def _parse_levels(frame: pd.DataFrame, column: str, required: bool, errors: list[str]) -> pd.Series:
    raw = frame[column]
    numbers = pd.to_numeric(raw, errors="coerce")
    missing = raw.isna()
    not_integer = ~missing & (numbers.isna() | (numbers != numbers.round()))
    out_of_range = ~missing & ~not_integer & ~numbers.isin(LEVELS)
    if required and missing.any():
        errors.append(describe_rows(frame, missing, f"have no {column}", "pair_id"))
    if not_integer.any():
        errors.append(describe_rows(frame, not_integer, f"have a {column} that is not an integer", "pair_id",
                                    values=raw))
    if out_of_range.any():
        errors.append(describe_rows(frame, out_of_range, f"have a {column} outside {min(LEVELS)}-{max(LEVELS)}",
                                    "pair_id", values=raw))
    return numbers  # cast to integers once every check has passed


def validate_pairs(frame: pd.DataFrame, setting: str | None, source: str) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """(pairs, long-format strata, ignored columns), or ImportValidationError listing every problem."""
    errors: list[str] = []
    columns = [str(c).strip() for c in frame.columns]
    frame = frame.set_axis(columns, axis=1)
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise ImportValidationError(f"{source}: missing required column(s) {', '.join(missing)}; found: "
                                    f"{describe_columns(columns)}")
    if frame.empty:
        raise ImportValidationError(f"{source}: no rows")
    duplicated_columns = sorted({c for c in columns if columns.count(c) > 1})
    if duplicated_columns:
        raise ImportValidationError(f"{source}: duplicated column(s) {describe_columns(duplicated_columns)}")
    frame = frame.reset_index(drop=True)

    if setting is not None and setting not in SETTINGS:
        raise ImportValidationError(f"--setting must be one of {', '.join(SETTINGS)}, got {setting!r}")
    if "setting" in columns:
        settings = frame["setting"].str.strip().str.lower()
        if setting is not None:
            conflict = settings.notna() & (settings != setting)
            if conflict.any():
                errors.append(describe_rows(frame, conflict, f"have a setting other than --setting {setting}", "pair_id"))
        settings = settings.fillna(setting or "full")
        unknown = ~settings.isin(SETTINGS)
        if unknown.any():
            errors.append(describe_rows(frame, unknown, f"have a setting not in {', '.join(SETTINGS)}", "pair_id"))
    else:
        settings = pd.Series(setting or "full", index=frame.index)

    pair_ids = frame["pair_id"].str.strip()
    if pair_ids.isna().any() or (pair_ids == "").any():
        errors.append(describe_rows(frame, pair_ids.isna() | (pair_ids == ""), "have no pair_id"))
    duplicated = pair_ids.notna() & pd.DataFrame({"s": settings, "p": pair_ids}).duplicated(keep=False)
    if duplicated.any():
        errors.append(describe_rows(frame, duplicated, "repeat a pair_id within a setting", "pair_id"))

    sexes = frame["original_sex"].str.strip().str.upper()
    bad_sex = ~sexes.isin(["F", "M"])
    if bad_sex.any():
        errors.append(describe_rows(frame, bad_sex, "have an original_sex that is not F or M", "pair_id"))

    original = _parse_levels(frame, "original_level", True, errors)
    counterfactual = _parse_levels(frame, "counterfactual_level", True, errors)
    true_level = (_parse_levels(frame, "true_level", False, errors) if "true_level" in columns
                  else pd.Series(float("nan"), index=frame.index))

    patient_ids = (frame["patient_id"].astype("string").str.strip().replace("", pd.NA) if "patient_id" in columns
                   else pd.Series(pd.NA, index=frame.index, dtype="string"))
    if "patient_id" in columns:
        # a record belongs to one patient: the same pair_id in two settings must name the same patient
        named = pd.DataFrame({"p": pair_ids, "patient": patient_ids}).dropna()
        conflicting = named.groupby("p")["patient"].nunique()
        conflicting = set(conflicting[conflicting > 1].index)
        if conflicting:
            errors.append(describe_rows(frame, pair_ids.isin(conflicting), "give one pair_id two patient_ids", "pair_id"))

    stratum_columns = [c for c in columns if c.startswith(STRATUM_PREFIX)]
    empty_names = [c for c in stratum_columns if c == STRATUM_PREFIX]
    if empty_names:
        errors.append(f"a column is named just {STRATUM_PREFIX!r}; name the stratum, e.g. stratum_age_band")
    ignored = [c for c in columns if c not in REQUIRED + OPTIONAL and c not in stratum_columns]

    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))

    pairs = pd.DataFrame({
        "setting": settings, "pair_id": pair_ids, "original_sex": sexes,
        "original_level": original.astype("Int64"), "counterfactual_level": counterfactual.astype("Int64"),
        "true_level": true_level.astype("Int64"), "patient_id": patient_ids,
    })
    strata = [
        pd.DataFrame({"setting": settings, "pair_id": pair_ids, "stratum_name": column[len(STRATUM_PREFIX):],
                      "stratum_value": frame[column]}).dropna(subset=["stratum_value"])
        for column in stratum_columns if column != STRATUM_PREFIX
    ]
    long_strata = pd.concat(strata, ignore_index=True) if strata else pd.DataFrame(
        columns=["setting", "pair_id", "stratum_name", "stratum_value"])
    return pairs, long_strata, ignored


def import_pairs(source: Path | pd.DataFrame, dataset: str, model: str, setting: str | None = None) -> PairImport:
    """Validate the pairs (a CSV/TSV/Parquet file, or a DataFrame with the same columns), then replace the pairs
    of (dataset, model, each setting in them) in one transaction."""
    for name, value in (("--dataset", dataset), ("--model", model)):
        if not isinstance(value, str) or not value.strip():
            raise ImportValidationError(f"{name} must not be empty")
    if isinstance(source, pd.DataFrame):
        label, recorded = "the DataFrame", {"file": None, "source": "DataFrame"}
        frame = text_columns(source)
    else:
        label, recorded = str(source), {"file": str(source)}
        frame = read_table(Path(source))
    pairs, strata, ignored = validate_pairs(frame, setting, label)
    settings = tuple(sorted(pairs["setting"].unique()))
    with connect() as con:
        con.begin()
        # the run row commits with the pairs, or not at all
        with recorded_run("import", {**recorded, "setting": setting}, connection=con, dataset=dataset,
                          model=model) as run:
            import_id = run.run_id
            placeholders = ", ".join("?" for _ in settings)
            for table in ("imported_pairs", "imported_pair_strata"):
                con.execute(
                    f"delete from inference.{table} where dataset = ? and model = ? and setting in ({placeholders})",
                    [dataset, model, *settings],
                )
            now = utc_now()
            append_rows(con, "imported_pairs", pairs.assign(dataset=dataset, model=model, import_id=import_id, imported_at=now))
            append_rows(con, "imported_pair_strata", strata.assign(dataset=dataset, model=model))
            run.n_items = len(pairs)
        con.commit()
    return PairImport(import_id, len(pairs), settings,
                      tuple(sorted(strata["stratum_name"].unique())) if not strata.empty else (), tuple(ignored))
