"""`biasmirror import-pairs`: audit predictions made by any other system.

The file holds one row per pair: pair_id, original_sex (F or M; female and male, in any case, are read as F and
M), original_level, counterfactual_level, and optionally setting (full | text_only | tabular_only), true_level,
patient_id (the patient the pair's record belongs to: the bootstrap then resamples patients with all their pairs)
and any number of stratum_<name> columns. Column names are matched whatever their case (Pair_ID, Stratum_Site).
Everything is validated before anything is written; importing the same dataset/model/setting again replaces
the earlier rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from biasmirror.imports.tables import (ImportValidationError, describe_columns, describe_rows, is_short_code,
                                      read_table, text_columns)
from biasmirror.settings import LEVELS, SETTINGS
from biasmirror.warehouse import connect
from biasmirror.warehouse.runs import recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

REQUIRED = ("pair_id", "original_sex", "original_level", "counterfactual_level")
OPTIONAL = ("setting", "true_level", "patient_id")
STRATUM_PREFIX = "stratum_"
# what original_sex may hold (after trimming, any case), and the code each value is stored as
SEX_CODES = {"F": "F", "M": "M", "FEMALE": "F", "MALE": "M"}
# separators a CSV exported with another convention uses (a spreadsheet in a French or German locale: ';')
OTHER_SEPARATORS = {";": "semicolons", "\t": "tabs", "|": "vertical bars"}


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


def _column_name(name: object) -> str:
    """A header as matched: trimmed; a required or optional column's name in lower case whatever its case."""
    text = str(name).strip()
    return text.lower() if text.lower() in REQUIRED + OPTIONAL else text


def _separator_hint(columns: list[str]) -> str | None:
    """When the whole header was read as one column holding another separator: say so (not 'no header row')."""
    if len(columns) != 1:
        return None
    for separator, name in OTHER_SEPARATORS.items():
        parts = [part.strip().lower() for part in columns[0].split(separator)]
        if len(parts) > 1 and any(part in REQUIRED for part in parts):
            return (f"the header was read as one column: the file separates its columns with {name}, and a .csv file "
                    "must use commas (a .tsv file tabs). Save it as comma-separated CSV (or as Parquet) and import it "
                    "again")
    return None


def validate_pairs(frame: pd.DataFrame, setting: str | None, source: str) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """(pairs, long-format strata, ignored columns), or ImportValidationError listing every problem."""
    errors: list[str] = []
    columns = [_column_name(c) for c in frame.columns]
    frame = frame.set_axis(columns, axis=1)
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise ImportValidationError(f"{source}: missing required column(s) {', '.join(missing)}; "
                                    + (_separator_hint(columns) or f"found: {describe_columns(columns)}"))
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

    sexes = frame["original_sex"].str.strip().str.upper().map(SEX_CODES)
    bad_sex = sexes.isna()
    if bad_sex.any():
        seen = [v for v in dict.fromkeys(frame.loc[bad_sex, "original_sex"].dropna().str.strip()) if is_short_code(v)]
        errors.append(describe_rows(frame, bad_sex, "have an original_sex that is not F or M (accepted, in any case: "
                                    "F, M, female, male)", "pair_id")
                      + (f"; value(s) found: {', '.join(map(repr, seen[:5]))}" if seen else ""))

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

    stratum_columns = [c for c in columns if c.lower().startswith(STRATUM_PREFIX)]
    empty_names = [c for c in stratum_columns if c.lower() == STRATUM_PREFIX]
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
        for column in stratum_columns if column.lower() != STRATUM_PREFIX
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
