"""Raw-layer gates: the files of each configured file-based data set against its source contract.

The contract is the sources YAML (biasmirror.quality.contracts), the same one the pre-build check in dbt
(macros/validate_raw_sources.sql) applies, with the same grammar of numbers and timestamps. Each file is scanned
once in DuckDB (rows numbered from 1, the first record after the header) and every rule is evaluated there, as
the dbt macro evaluates it: required values, unique ids, accepted values (numerically for numeric columns),
numbers and timestamps that follow the grammar. Great Expectations then asserts each rule's outcome column
(null where the row keeps the rule) and the plausibility gates the build does not enforce: physiological
ranges in the file's own unit (`mostly`), at least one row. Per data set: a manifest (every contracted file
found, no declared column missing); per file: the schema, its values and its UTF-8 rows.

Free-text columns are never pulled out of DuckDB (only whether they are empty), and offending values are shown
only through biasmirror.quality.redaction.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from biasmirror.quality.contracts import RawColumn, RawTable, ValueGrammar, raw_contracts
from biasmirror.quality.redaction import describe_error, describe_header
from biasmirror.quality.suites import (Check, Skipped, between, has_columns, is_null, is_true, row_count,
                                       row_count_at_least)

ROW = "biasmirror_row"
SCAN = "biasmirror_check_scan"
REJECTS_TABLE = "biasmirror_check_rejects"
REJECTS_SCAN = "biasmirror_check_reject_scans"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _reader(path: Path, record_rejects: bool) -> str:
    """A table function reading the file with every CSV column as text (Parquet columns keep their types and
    are cast to text in the scan); it accepts `with ordinality`."""
    if path.name.endswith(".parquet"):
        return f"read_parquet({_literal(str(path))})"
    rejects = (f", store_rejects = true, rejects_table = '{REJECTS_TABLE}', rejects_scan = '{REJECTS_SCAN}'"
               if record_rejects else "")
    return (f"read_csv({_literal(str(path))}, header = true, all_varchar = true, "
            f"max_line_size = 16777216{rejects})")


# -- the rules, as SQL over the scan (the same conditions as macros/validate_raw_sources.sql) ------------------
def parsed_number(value: str, grammar: ValueGrammar) -> str:
    """A trimmed text value as a double when it follows the number grammar, else null."""
    return (f"case when regexp_matches({value}, {_literal(grammar.number)}) "
            f"then try_cast(replace({value}, ',', '.') as double) end")


def parsed_timestamp(value: str, data_type: str, grammar: ValueGrammar) -> str:
    """A trimmed text value as a timestamp (or date) when it follows the grammar and is a real date, else null."""
    return (f"case when regexp_matches({value}, {_literal(grammar.timestamp)}) "
            f"then try_cast({value} as {data_type}) end")


def column_rules(column: RawColumn, grammar: ValueGrammar) -> list[tuple[str, str, bool]]:
    """The row rules of one contract column: (rule text, SQL condition true on a row that breaks it, whether
    the offending value is shown). The column is referenced as its quoted name in the scan, already trimmed."""
    value = _quote(column.name)
    rules: list[tuple[str, str, bool]] = []
    if column.required:
        rules.append((f"{column.name} is never empty", f"{value} is null", False))
    if column.unique:
        rules.append((f"{column.name} identifies one row",
                      f"{value} is not null and count(*) over (partition by {value}) > 1", True))
    if column.accepted_values:
        codes = ", ".join(column.accepted_values)
        if column.grammar == "number":
            numbers = ", ".join(repr(float(v)) for v in column.accepted_values)
            condition = (f"{value} is not null and coalesce({parsed_number(value, grammar)} not in ({numbers}), true)")
        else:
            condition = f"{value} is not null and {value} not in ({', '.join(_literal(v) for v in column.accepted_values)})"
        rules.append((f"{column.name} is one of {codes} (or empty)", condition, True))
    if column.grammar == "number":
        rules.append((f"{column.name} is a number ({column.data_type})",
                      f"{value} is not null and {parsed_number(value, grammar)} is null", True))
    elif column.grammar == "timestamp":
        data_type = (column.data_type or "timestamp").lower()
        rules.append((f"{column.name} is an ISO 8601 {data_type}",
                      f"{value} is not null and {parsed_timestamp(value, data_type, grammar)} is null", True))
    return rules


def raw_checks(roots: dict[str, Path], from_tables: dict[str, str] | None = None) -> tuple[list[Check], list[Skipped]]:
    """Checks of every contracted file of the data sets in `roots` (data set -> folder). The data sets in
    `from_tables` (data set -> why) are read from database tables: skipped, with that reason."""
    contracts = raw_contracts()
    checks: list[Check] = []
    skipped: list[Skipped] = []
    for dataset in contracts.datasets():
        if dataset in (from_tables or {}):
            skipped.append(Skipped("raw", dataset, (from_tables or {})[dataset]))
            continue
        if dataset not in roots:
            skipped.append(Skipped("raw", dataset, "no folder configured (biasmirror build --"
                                   f"{dataset}-root, the {contracts.root_var(dataset)} var or "
                                   f"{contracts.root_env(dataset)})"))
            continue
        root = Path(roots[dataset])
        tables = contracts.for_dataset(dataset)
        with duckdb.connect() as con:
            checks.append(_manifest(con, dataset, root, tables))
            for table in tables:
                path = table.locate(root)
                if path is not None:
                    checks.extend(_file_checks(con, dataset, table, path, contracts.grammar))
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


def _file_checks(con: duckdb.DuckDBPyConnection, dataset: str, table: RawTable, path: Path,
                 grammar: ValueGrammar) -> list[Check]:
    present = {c.lower(): c for c in _present_columns(con, path)}
    schema = pd.DataFrame(columns=[describe_header(c) for c in present.values()])
    checks = [Check("raw", f"{dataset}.{table.table}.schema", str(path), schema, [
        has_columns([c.name for c in table.columns], f"{path.name} has the columns of the contract {table.label}")])]

    columns = [c for c in table.columns if c.name.lower() in present]
    scanned = []
    for column in columns:
        source = f"nullif(trim(cast({_quote(present[column.name.lower()])} as varchar)), '')"
        # free text is referenced so that every value is decoded (a wrong encoding is found), never kept
        scanned.append(f"{source} is not null as {_quote(column.name)}" if column.is_free_text
                       else f"{source} as {_quote(column.name)}")
    record = table.validate_rows and not path.name.endswith(".parquet")
    if record:
        con.execute(f"drop table if exists {REJECTS_TABLE}")
        con.execute(f"drop table if exists {REJECTS_SCAN}")
    try:
        con.execute(f"create or replace temp table {SCAN} as select ordinality as {ROW}"
                    f"{''.join(', ' + s for s in scanned)} from {_reader(path, record)} with ordinality")
    except duckdb.Error as error:
        unreadable = pd.DataFrame({"readable": [False], "error": [describe_error(error)]})
        return checks + [Check("raw", f"{dataset}.{table.table}.rows", str(path), unreadable,
                               [is_true("readable", f"{path.name} can be read as CSV/Parquet")])]

    select = [ROW]
    expectations: list = [row_count_at_least(1, f"{path.name} has at least one row")]
    kinds: dict[str, str] = {}
    if table.validate_rows:
        for column in columns:
            if column.is_free_text:
                continue
            for rule, condition, shows_value in column_rules(column, grammar):
                name = f"{column.name} [{rule.removeprefix(column.name + ' ')}]"
                shown = _quote(column.name) if shows_value else "true"
                select.append(f"case when {condition} then {shown} end as {_quote(name)}")
                expectations.append(is_null(name, rule))
                kinds[name] = column.kind if shows_value else "flag"
    for column in columns:
        if column.plausible is None or column.is_free_text:
            continue
        bounds = column.plausible
        value = column.name + "__value"
        select.append(f"{parsed_number(_quote(column.name), grammar)} as {_quote(value)}")
        kinds[value] = "number"
        expectations.append(between(
            value, bounds.low, bounds.high,
            f"{column.name} within {bounds.low:g}-{bounds.high:g} {bounds.unit} (physiological range in "
            f"{dataset}'s unit; at least {bounds.mostly:.1%} of values)", bounds.mostly))
    frame = con.execute(f"select {', '.join(select)} from {SCAN} order by {ROW}").df().set_index(ROW)
    frame.index.name = None
    con.execute(f"drop table if exists {SCAN}")
    checks.append(Check("raw", f"{dataset}.{table.table}.values", str(path), frame, expectations,
                        value_kinds=kinds, rows_are_records=True))
    if record:
        rejects = con.execute(
            f"select line, string_agg(column_name, ', ' order by column_name) as columns, min(error_type) as error_type "
            f"from {REJECTS_TABLE} group by line order by line").df()
        note = None
        if not rejects.empty:
            first = rejects.iloc[0]
            names = ", ".join(describe_header(c) for c in str(first.columns).split(", ")) if first.columns else "-"
            note = f"first at line {first.line}, column(s) {names}: {first.error_type}"
            rejects["columns"] = [", ".join(describe_header(c) for c in str(v).split(", ")) if v else v
                                  for v in rejects["columns"]]
        checks.append(Check("raw", f"{dataset}.{table.table}.encoding", str(path), rejects, [
            row_count(0, f"every row of {path.name} reads as UTF-8 CSV (rows listed here cannot be read)")],
            note=note))
    return checks
