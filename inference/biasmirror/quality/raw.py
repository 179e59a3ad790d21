"""Raw-layer gates: the files of each configured file-based data set against its source contract.

Per data set: a manifest (every contracted file found, no declared column missing); per file: the schema
(declared columns present), readable UTF-8 rows (when the contract asks for row validation; the reader's
rejected rows name line and column), identifiers present and unique, coded columns in their domain, numbers
and timestamps that parse (the contract's data_type), and values within physiological ranges in the data
set's own units (biasmirror.quality.profiles). Free-text columns are never pulled into memory.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from biasmirror.quality.contracts import NUMERIC_TYPES, TEMPORAL_TYPES, RawTable, raw_contracts
from biasmirror.quality.profiles import DatasetProfile, profile
from biasmirror.quality.suites import (Check, Skipped, between, has_columns, is_true, matches, not_null,
                                       row_count, unique, values_in)

NUMBER_REGEX = r"^-?[0-9]+(?:[.,][0-9]+)?$"
TIMESTAMP_REGEX = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[ T][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?)?$"
REJECTS_TABLE = "biasmirror_check_rejects"
REJECTS_SCAN = "biasmirror_check_reject_scans"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _reader(path: Path, record_rejects: bool) -> str:
    if path.name.endswith(".parquet"):
        return f"(select columns(*)::varchar from read_parquet({_literal(str(path))}))"
    rejects = (f", store_rejects = true, rejects_table = '{REJECTS_TABLE}', rejects_scan = '{REJECTS_SCAN}'"
               if record_rejects else "")
    return (f"read_csv({_literal(str(path))}, header = true, all_varchar = true, "
            f"max_line_size = 16777216{rejects})")


def raw_checks(roots: dict[str, Path]) -> tuple[list[Check], list[Skipped]]:
    """Checks of every contracted file of the data sets in `roots` (data set -> folder)."""
    contracts = raw_contracts()
    checks: list[Check] = []
    skipped: list[Skipped] = []
    for dataset in contracts.datasets():
        if dataset not in roots:
            skipped.append(Skipped("raw", dataset, "no folder configured (biasmirror build --"
                                   f"{dataset}-root, or the {dataset}_root var)"))
            continue
        root = Path(roots[dataset])
        tables = contracts.for_dataset(dataset)
        with duckdb.connect() as con:
            checks.append(_manifest(con, dataset, root, tables))
            for table in tables:
                path = table.locate(root)
                if path is not None:
                    checks.extend(_file_checks(con, dataset, table, path))
    return checks, skipped


def _present_columns(con: duckdb.DuckDBPyConnection, path: Path) -> list[str]:
    return [row[0] for row in con.execute(f"describe select * from {_reader(path, True)} limit 0").fetchall()]


def _manifest(con: duckdb.DuckDBPyConnection, dataset: str, root: Path, tables: list[RawTable]) -> Check:
    rows = []
    for table in tables:
        path = table.locate(root)
        missing: list[str] = []
        if path is not None:
            present = {c.lower() for c in _present_columns(con, path)}
            missing = [c.name for c in table.columns if c.name.lower() not in present]
        rows.append({"table": table.label, "file": str(path) if path else " or ".join(str(root / f) for f in table.files),
                     "file_found": path is not None, "n_missing_columns": len(missing),
                     "missing_columns": ", ".join(missing)})
    frame = pd.DataFrame(rows)
    return Check("raw", f"{dataset}.files", str(root), frame, [
        is_true("file_found", "every file of the source contract is in the data set's folder"),
        between("n_missing_columns", 0, 0, "every file has every column the contract declares"),
    ])


def _file_checks(con: duckdb.DuckDBPyConnection, dataset: str, table: RawTable, path: Path) -> list[Check]:
    prof = profile(dataset) or DatasetProfile(dataset=dataset, cohort_levels=(1, 2, 3, 4, 5))
    present = {c.lower(): c for c in _present_columns(con, path)}
    schema = pd.DataFrame(columns=list(present.values()))
    checks = [Check("raw", f"{dataset}.{table.table}.schema", str(path), schema, [
        has_columns([c.name for c in table.columns], f"{path.name} has the columns of the contract {table.label}")])]

    text = {column for (tbl, column) in prof.raw_text if tbl == table.table}
    select: list[str] = []
    expectations: list = []
    hide: set[str] = set()
    for column in table.columns:
        if column.name.lower() not in present:
            continue
        raw = f"nullif(trim({_quote(present[column.name.lower()])}), '')"
        key = (table.table, column.name)
        if column.name in text:
            if table.validate_rows:
                # referenced so that every value is decoded and a wrong encoding is found; never pulled
                select.append(f"{raw} is not null as {_quote(column.name + '__present')}")
            continue
        select.append(f"{raw} as {_quote(column.name)}")
        if key in prof.raw_ids or column.required:
            expectations.append(not_null(column.name, f"{column.name} is never empty"))
            hide.add(column.name)
        if key in prof.raw_ids:
            expectations.append(unique(column.name, f"{column.name} identifies one row"))
        codes = column.accepted_values or prof.raw_codes.get(key)
        if codes:
            expectations.append(values_in(column.name, codes, f"{column.name} is one of {', '.join(codes)} (or empty)"))
        data_type = (column.data_type or "").lower()
        if data_type in NUMERIC_TYPES:
            expectations.append(matches(column.name, NUMBER_REGEX, f"{column.name} is a number ({data_type})"))
        elif data_type in TEMPORAL_TYPES:
            expectations.append(matches(column.name, TIMESTAMP_REGEX, f"{column.name} is an ISO 8601 {data_type}"))
        if key in prof.raw_ranges:
            bounds = prof.raw_ranges[key]
            value = column.name + "__value"
            select.append(f"try_cast(replace({raw}, ',', '.') as double) as {_quote(value)}")
            expectations.append(between(
                value, bounds.low, bounds.high,
                f"{column.name} within {bounds.low:g}-{bounds.high:g} {bounds.unit} (physiological range in "
                f"{dataset}'s unit; at least {bounds.mostly:.1%} of values)", bounds.mostly))

    record = table.validate_rows and not path.name.endswith(".parquet")
    if record:
        con.execute(f"drop table if exists {REJECTS_TABLE}")
        con.execute(f"drop table if exists {REJECTS_SCAN}")
    try:
        frame = con.execute(f"select {', '.join(select) or '1 as _row'} from {_reader(path, record)}").df()
    except duckdb.Error as error:
        unreadable = pd.DataFrame({"readable": [False], "error": [str(error).splitlines()[0]]})
        return checks + [Check("raw", f"{dataset}.{table.table}.rows", str(path), unreadable,
                               [is_true("readable", f"{path.name} can be read as CSV/Parquet")])]
    checks.append(Check("raw", f"{dataset}.{table.table}.values", str(path), frame, expectations,
                        hide_values=frozenset(hide)))
    if record:
        rejects = con.execute(
            f"select line, string_agg(column_name, ', ' order by column_name) as columns, min(error_type) as error_type "
            f"from {REJECTS_TABLE} group by line order by line").df()
        note = None
        if not rejects.empty:
            first = rejects.iloc[0]
            note = f"first at line {first.line}, column(s) {first.columns}: {first.error_type}"
        checks.append(Check("raw", f"{dataset}.{table.table}.encoding", str(path), rejects, [
            row_count(0, f"every row of {path.name} reads as UTF-8 CSV (rows listed here cannot be read)")],
            note=note))
    return checks


def registered_roots(con: duckdb.DuckDBPyConnection) -> dict[str, Path]:
    """The folders registered in inference.dataset_roots (by `biasmirror build --<dataset>-root`)."""
    exists = con.execute("select count(*) from information_schema.tables where table_schema = 'inference' "
                         "and table_name = 'dataset_roots'").fetchone()[0]
    if not exists:
        return {}
    rows = con.execute("select dataset, arg_max(root, registered_at) from inference.dataset_roots "
                       "group by dataset").fetchall()
    return {dataset: Path(root) for dataset, root in rows}
