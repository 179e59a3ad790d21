"""Reading user files (CSV or Parquet) as text columns, with errors that name the file, the column, the rule
and the rows, and never quote a free-text value.

A message may show a value only when it is a short code (a number, or an identifier-like token such as a pair
id) - never text that could be a note that landed in the wrong column. Column names are shown when they look
like column names; a header that does not (a file without a header row, whose first row is data) is described,
not quoted.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import re
from collections import Counter
from pathlib import Path
from typing import Iterable

import pandas as pd
import pyarrow.parquet as pq


class ImportValidationError(ValueError):
    """A file that cannot be imported; the message lists every problem found (nothing was written)."""


_CODE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_.:/+-]{0,31}\Z")  # pair ids, levels, ids: one short token
_NUMBER = re.compile(r"\A[+-]?(\d{1,9}(\.\d{0,6})?|\.\d{1,6})([eE][+-]?\d{1,3})?\Z")  # shown as the value it is
_COLUMN = re.compile(r"\A[A-Za-z_][A-Za-z0-9_ .-]{0,63}\Z")


def is_short_code(value: object) -> bool:
    """True for a value safe to quote in a message: a short token with no spaces (an id or a number)."""
    return isinstance(value, str) and bool(_CODE.match(value))


def describe_value(value: object) -> str:
    """How a message may show a value: quoted when it is a short code, else only described."""
    if value is None:
        return "empty"
    if is_short_code(value):
        return repr(value)
    return f"text of {len(str(value))} characters"


def describe_columns(columns: Iterable[str]) -> str:
    """The file's column names for a message, or a description when they do not look like column names."""
    names = [str(c) for c in columns]
    if all(_COLUMN.match(name) for name in names):
        return ", ".join(names)
    odd = sum(not _COLUMN.match(name) for name in names)
    return (f"{len(names)} column(s), {odd} of which do not look like column names (does the file start with a "
            "header row?)")


def integer_code(value: object) -> str | None:
    """A whole number written as 1, 1.0, 1.00 or 1e0 as '1' (how spreadsheet exports write codes); other
    values unchanged (stripped strings), None for empty."""
    if value is None:
        return None
    text = str(value).strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        return text
    if math.isfinite(number) and number == int(number) and re.fullmatch(r"[+-]?\d+(\.0*)?([eE][+-]?\d+)?", text):
        return str(int(number))
    return text


def header(path: Path) -> list[str]:
    """The column names as the file itself writes them (pandas renames a repeated CSV header `x` to `x.1`,
    so repeated names are only visible here)."""
    suffixes = "".join(path.suffixes).lower()
    if suffixes.endswith((".parquet", ".pq")):
        return [str(name) for name in pq.read_schema(path).names]
    opener = gzip.open if suffixes.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as handle:  # type: ignore[operator]
        first = next(csv.reader(io.StringIO(handle.readline()), delimiter="\t" if ".tsv" in suffixes else ","), [])
    return [name for name in first]


def repeated_columns(names: Iterable[str], normalise=str.strip) -> list[str]:
    counts = Counter(normalise(str(name)) for name in names)
    return sorted(name for name, n in counts.items() if n > 1)


def text_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """A typed frame (a Parquet file's, or one a Python caller passes) as the importers read every file: each
    value as its text (None for a missing one), on a fresh 0..n-1 index, so the same rules and messages apply."""
    frame = frame.reset_index(drop=True)
    frame = frame.astype(object).where(frame.notna(), None)
    return frame.apply(lambda column: column.map(lambda value: None if value is None else str(value)))


def read_table(path: Path) -> pd.DataFrame:
    """The file's columns as strings (nulls stay null); CSV (optionally gzipped), TSV or Parquet. A header that
    repeats a column name is refused (which of the two columns holds the data is anyone's guess)."""
    if not path.is_file():
        raise ImportValidationError(f"{path}: no such file")
    suffixes = "".join(path.suffixes).lower()
    if not suffixes.endswith((".parquet", ".pq", ".csv", ".csv.gz", ".tsv", ".tsv.gz")):
        raise ImportValidationError(f"{path}: unsupported file type {suffixes!r}; use .csv, .csv.gz, .tsv or .parquet")
    try:
        names = header(path)
        repeated = repeated_columns(names)
        if repeated:
            raise ImportValidationError(
                f"{path}: the header repeats column(s) {describe_columns(repeated)}; keep one column of each name "
                "(nothing was imported)")
        if suffixes.endswith((".parquet", ".pq")):
            return text_columns(pd.read_parquet(path))
        separator = "\t" if ".tsv" in suffixes else ","
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], sep=separator)
        return frame.astype(object).where(frame.notna(), None)
    except ImportValidationError:
        raise
    except csv.Error as error:  # a field past the csv module's limit, a NUL byte, ...
        what = (f"a field longer than {csv.field_size_limit():,} characters" if "field limit" in str(error)
                else "malformed CSV")
        raise ImportValidationError(f"{path}: cannot be read as {suffixes} ({what}; is it a table with a header "
                                    "row and one record per line?); nothing was imported") from None
    except (UnicodeDecodeError, ValueError, OSError) as error:
        raise ImportValidationError(f"{path}: cannot be read as {suffixes or 'a table'} ({type(error).__name__}; "
                                    "is it UTF-8 text with a header row, or a Parquet file?)") from error


def describe_rows(frame: pd.DataFrame, mask: pd.Series, reason: str, id_column: str | None = None, limit: int = 5,
                  values: pd.Series | None = None) -> str:
    """One error line: how many rows break a rule, and the first few (1-based data row numbers). `id_column`:
    show each row's id when it is a short code. `values`: the offending values, shown only when every one
    shown is a number (a coded column's value), else only described."""
    bad = frame.index[mask.to_numpy()]
    shown = []
    for index in bad[:limit]:
        label = f"row {index + 1}"
        if id_column and id_column in frame.columns and is_short_code(frame.at[index, id_column]):
            label += f" ({id_column}={frame.at[index, id_column]})"
        shown.append(label)
    more = f" and {len(bad) - limit} more" if len(bad) > limit else ""
    line = f"{len(bad)} row(s) {reason}: {', '.join(shown)}{more}"
    if values is not None:
        seen = list(dict.fromkeys(values[mask].dropna().astype(str).str.strip()))[:limit]
        if seen and all(_NUMBER.match(v) for v in seen):
            line += f" (value(s) {', '.join(seen)})"
        elif seen:
            line += " (not numbers)"
    return line
