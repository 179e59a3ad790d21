"""Reading user files (CSV or Parquet) as text columns, with errors that name the file."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


class ImportValidationError(ValueError):
    """A file that cannot be imported; the message lists every problem found (nothing was written)."""


def read_table(path: Path) -> pd.DataFrame:
    """The file's columns as strings (nulls stay null); CSV (optionally gzipped) or Parquet."""
    if not path.is_file():
        raise ImportValidationError(f"{path}: no such file")
    suffixes = "".join(path.suffixes).lower()
    try:
        if suffixes.endswith(".parquet") or suffixes.endswith(".pq"):
            frame = pd.read_parquet(path)
            frame = frame.astype(object).where(frame.notna(), None)
            return frame.apply(lambda column: column.map(lambda value: None if value is None else str(value)))
        if suffixes.endswith(".csv") or suffixes.endswith(".csv.gz") or suffixes.endswith(".tsv"):
            separator = "\t" if ".tsv" in suffixes else ","
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], sep=separator)
            return frame.astype(object).where(frame.notna(), None)
    except (UnicodeDecodeError, ValueError, OSError) as error:
        raise ImportValidationError(f"{path}: cannot be read as {suffixes or 'a table'}: {error}") from error
    raise ImportValidationError(f"{path}: unsupported file type {suffixes!r}; use .csv, .csv.gz, .tsv or .parquet")


def describe_rows(frame: pd.DataFrame, mask: pd.Series, reason: str, id_column: str | None = None, limit: int = 5) -> str:
    """One error line: how many rows break a rule, and the first few (1-based data row numbers)."""
    bad = frame.index[mask.to_numpy()]
    shown = []
    for index in bad[:limit]:
        label = f"row {index + 1}"
        if id_column and id_column in frame.columns and frame.at[index, id_column] is not None:
            label += f" ({id_column}={frame.at[index, id_column]})"
        shown.append(label)
    more = f" and {len(bad) - limit} more" if len(bad) > limit else ""
    return f"{len(bad)} row(s) {reason}: {', '.join(shown)}{more}"
