"""Compare every table of the mart schemas of two warehouses: two DuckDB files (a refactor must not change the
marts), or a DuckDB file and a PostgreSQL database (the cross-engine check, `make test-postgres`).

    python scripts/compare_marts.py LEFT RIGHT [--schema audit] [--tolerance 1e-9] [--intervals exact|se]

A warehouse is a DuckDB file path, or `postgres` (the database the libpq variables PGHOST, PGPORT, PGUSER,
PGPASSWORD, PGDATABASE name) or a `postgresql://` URL, or `spark:DIR`, marts a Spark build exported as Parquet
folders DIR/<schema>/<table>/ (scripts/spark_check.py), read through DuckDB.

Both sides must hold the same tables (and views) with the same columns (of the same types, between two
warehouses of one engine) and the same rows. Rows are matched on
their non-float columns (then on the floats, rounded); float columns must agree to `--tolerance` (absolute, or
relative for values above 1). Maps (DuckDB MAP, PostgreSQL jsonb) compare as sets of entries, lists as lists.

Bootstrap intervals: with `--intervals exact` the interval columns are compared like any other. With
`--intervals se` (two engines whose hash functions differ, so their bootstrap draws differ) they are not
compared value by value; instead, for every interval (a `..._ci_low` / `..._ci_high` pair of columns, or
`ci_low` / `ci_high`), the summed width over the table's rows, a proxy of the bootstrap standard error, must agree
within `--se-tolerance` (relative, default 5%; an odds ratio's interval by the width of its logarithms), and columns derived from the draws (`--draw-columns`:
is_sparse, which flags a zero-width interval; ci_excludes_zero; n_boot, the replicates in which a metric is
defined; n_boot_zero_cell and n_boot_undefined, the odds-ratio replicates with a zero cell or an empty margin; se,
the replicates' standard deviation, and what is computed from it: p_value, q_value and mde, also with a prefix
such as swap_q_value) are left out. Exit status 0 when everything agrees, 1 otherwise,
with one line per difference.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd

DEFAULT_SCHEMAS = ("audit",)
INTERVAL_COLUMN = re.compile(r"^(?:(?P<stem>.+)_)?ci_(?P<side>low|high)$")
DEFAULT_DRAW_COLUMNS = ("is_sparse", "ci_excludes_zero", "n_boot", "n_boot_zero_cell", "n_boot_undefined")
# the bootstrap standard error and the statistics computed from it (docs/metrics.md): they follow the draws
DRAW_STATISTIC_COLUMN = re.compile(r"^(?:.+_)?(?:se|p_value|q_value|mde)$")


@dataclass
class Warehouse:
    """One side of the comparison: a name to show and a query function."""

    label: str
    kind: str
    target: str
    _con: Any = field(default=None, repr=False)

    def open(self) -> None:
        if self.kind == "duckdb":
            import duckdb

            if not Path(self.target).is_file():
                raise SystemExit(f"{self.label}: no DuckDB file at {self.target}")
            self._con = duckdb.connect(self.target, read_only=True)
        elif self.kind == "spark":
            import duckdb

            self._con = duckdb.connect()
            for folder in sorted(p for p in Path(self.target).glob("*/*") if p.is_dir()):
                self._con.execute(f'create schema if not exists "{folder.parent.name}"')
                self._con.execute(f'create view "{folder.parent.name}"."{folder.name}" as '
                                  "select * from read_parquet('" + str(folder / "*.parquet").replace("'", "''") + "')")
        else:
            import psycopg2

            self._con = psycopg2.connect(self.target or "")
            self._con.set_session(readonly=True, autocommit=True)

    def close(self) -> None:
        if self._con is not None:
            self._con.close()

    def query(self, sql: str, params: tuple = ()) -> pd.DataFrame:
        if self.kind in ("duckdb", "spark"):
            return self._con.execute(sql.replace("%s", "?"), list(params)).df()
        with self._con.cursor() as cur:
            cur.execute(sql, params)
            names = [d[0] for d in cur.description]
            return pd.DataFrame.from_records(cur.fetchall(), columns=names)

    def relations(self, schema: str) -> list[str]:
        frame = self.query("select table_name from information_schema.tables where table_schema = %s "
                           "and table_catalog = current_database() order by table_name", (schema,))
        return [str(name) for name in frame["table_name"]]

    def columns(self, schema: str, table: str) -> list[tuple[str, str]]:
        frame = self.query("select column_name, data_type from information_schema.columns where table_schema = %s "
                           "and table_name = %s and table_catalog = current_database() order by ordinal_position",
                           (schema, table))
        return [(str(n), str(t).lower()) for n, t in zip(frame["column_name"], frame["data_type"])]

    def table(self, schema: str, table: str) -> pd.DataFrame:
        return self.query(f'select * from "{schema}"."{table}"')


def parse_warehouse(spec: str, side: str) -> Warehouse:
    if spec.startswith("spark:"):
        return Warehouse(f"{side} (Spark)", "spark", spec[len("spark:"):])
    if spec == "postgres":
        return Warehouse(f"{side} (PostgreSQL)", "postgres", "")
    if spec.startswith(("postgresql://", "postgres://")):
        return Warehouse(f"{side} (PostgreSQL)", "postgres", spec)
    return Warehouse(f"{side} ({spec})", "duckdb", spec)


FLOAT_TYPES = ("double", "double precision", "float", "real", "numeric", "decimal")


def is_float_type(data_type: str) -> bool:
    return any(data_type.startswith(t) for t in FLOAT_TYPES)


def normalise(value: Any) -> Any:
    """A value in a form both engines' drivers agree on (maps as sorted entries, lists as tuples, decimals as
    floats, NaN and None as None)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        if set(value) == {"key", "value"} and isinstance(value["key"], (list, tuple)):  # DuckDB MAP from pandas
            return tuple(sorted((str(k), normalise(v)) for k, v in zip(value["key"], value["value"])))
        return tuple(sorted((str(k), normalise(v)) for k, v in value.items()))
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return normalise(parsed) if isinstance(parsed, dict) else value
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return tuple(normalise(v) for v in value)
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    return value


def shown(value: Any) -> str:
    """A value as a message may show it: numbers, booleans, dates and short codes as they are; any other text
    (a note, a model input) only by its length, never quoted (patient text stays out of every log)."""
    from biasmirror.imports.tables import describe_value

    if value is None or isinstance(value, (bool, int, float)) or hasattr(value, "isoformat"):
        return repr(value)
    if isinstance(value, tuple):
        return f"a list of {len(value)} entries"
    return describe_value(str(value))


def numbers_agree(a: Any, b: Any, tolerance: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = float(a), float(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def sort_key(row: tuple, float_positions: set[int]) -> tuple:
    """Rows sort on every column: nulls last, floats rounded (so that 1e-12 apart sorts alike), lists and maps
    by their text."""
    key = []
    for i, value in enumerate(row):
        if value is None:
            key.append((1, 0))
        elif i in float_positions:
            key.append((0, float(f"{float(value):.6g}")))
        elif isinstance(value, (tuple, list)):
            key.append((0, repr(value)))
        else:
            key.append((0, value))
    return tuple(key)


def interval_width(low: Any, high: Any, log_scale: bool) -> float | None:
    """An interval's width (of its logarithms on the log scale; none where a bound is not positive there)."""
    if low is None or high is None:
        return None
    if log_scale:
        return math.log(float(high)) - math.log(float(low)) if float(low) > 0 and float(high) > 0 else None
    return float(high) - float(low)


def compare_table(schema: str, table: str, left: Warehouse, right: Warehouse, tolerance: float,
                  intervals: str, se_tolerance: float, draw_columns: set[str],
                  ignored: set[str] = frozenset()) -> list[str]:
    name = f"{schema}.{table}"
    left_columns = dict(left.columns(schema, table))
    right_columns = dict(right.columns(schema, table))
    if set(left_columns) != set(right_columns):
        return [f"{name}: columns differ: only in {left.label}: {sorted(set(left_columns) - set(right_columns))}; "
                f"only in {right.label}: {sorted(set(right_columns) - set(left_columns))}"]
    columns = list(left_columns)
    if left.kind == right.kind:
        retyped = [f"{c} ({left_columns[c]} vs {right_columns[c]})" for c in columns if left_columns[c] != right_columns[c]]
        if retyped:
            return [f"{name}: column types differ: {', '.join(retyped)}"]
    floats = {c for c in columns if is_float_type(left_columns[c]) or is_float_type(right_columns[c])}
    interval_columns = {c for c in columns if INTERVAL_COLUMN.match(c)} if intervals == "se" else set()
    draw_statistics = {c for c in columns if DRAW_STATISTIC_COLUMN.match(c)}
    skipped = (interval_columns | draw_statistics | (draw_columns & set(columns))) if intervals == "se" else set()
    compared = [c for c in columns if c not in skipped and c not in ignored]
    frames = [side.table(schema, table) for side in (left, right)]
    if len(frames[0]) != len(frames[1]):
        return [f"{name}: {len(frames[0])} rows in {left.label}, {len(frames[1])} in {right.label}"]
    positions = {i for i, c in enumerate(compared) if c in floats}
    rows = []
    for frame in frames:
        records = [tuple(normalise(v) for v in record) for record in frame[compared].itertuples(index=False, name=None)]
        extra = [tuple(normalise(v) for v in record) for record in frame[sorted(skipped)].itertuples(index=False, name=None)]
        order = sorted(range(len(records)), key=lambda i: sort_key(records[i], positions))
        rows.append(([records[i] for i in order], [extra[i] for i in order]))
    problems: list[str] = []
    mismatched = 0
    for row_number, (a, b) in enumerate(zip(rows[0][0], rows[1][0])):
        for i, column in enumerate(compared):
            same = numbers_agree(a[i], b[i], tolerance) if i in positions else a[i] == b[i]
            if not same:
                mismatched += 1
                if mismatched <= 5:
                    problems.append(f"{name}: row {row_number + 1} (sorted), column {column}: "
                                    f"{left.label} {shown(a[i])} vs {right.label} {shown(b[i])}")
    if mismatched > 5:
        problems.append(f"{name}: {mismatched - 5} more differing values")
    if intervals == "se" and not problems:
        skipped_order = sorted(skipped)
        stems = sorted({INTERVAL_COLUMN.match(c).group("stem") or "" for c in interval_columns})
        for stem in stems:
            low, high = (f"{stem}_ci_low", f"{stem}_ci_high") if stem else ("ci_low", "ci_high")
            if low not in skipped_order or high not in skipped_order:
                continue
            # a ratio's interval (an odds ratio's) is compared on the log scale, where its width tracks the
            # standard error of the log ratio; on the ratio scale the summed width is dominated by the few upper
            # bounds of sparse strata, the noisiest quantiles of the draws
            log_scale = "ratio" in stem or (not stem and "odds_ratio" in columns)
            widths = []
            for extras in (rows[0][1], rows[1][1]):
                li, hi = skipped_order.index(low), skipped_order.index(high)
                widths.append([interval_width(e[li], e[hi], log_scale) for e in extras])
            both = [(x, y) for x, y in zip(*widths) if x is not None and y is not None]
            missing = sum((x is None) != (y is None) for x, y in zip(*widths))
            if missing:
                problems.append(f"{name}: interval {low}/{high} is null on one side only in {missing} row(s)")
            total_left, total_right = sum(x for x, _ in both), sum(y for _, y in both)
            if total_left == 0 and total_right == 0:
                continue
            ratio = total_right / total_left if total_left else math.inf
            status = "ok" if abs(ratio - 1) <= se_tolerance else "DIFFERS"
            print(f"  {name} {low}/{high}: summed {'log ' if log_scale else ''}width over {len(both)} rows, {right.label} / {left.label} = "
                  f"{ratio:.4f} ({status})")
            if status != "ok":
                problems.append(f"{name}: interval widths ({low}/{high}) differ by {abs(ratio - 1):.1%} "
                                f"(allowed {se_tolerance:.0%})")
    return problems


def compare(left: Warehouse, right: Warehouse, schemas: list[str], tolerance: float, intervals: str,
            se_tolerance: float, draw_columns: set[str], ignored: set[str] = frozenset()) -> list[str]:
    problems: list[str] = []
    n_tables = 0
    for schema in schemas:
        tables_left, tables_right = left.relations(schema), right.relations(schema)
        if set(tables_left) != set(tables_right):
            problems.append(f"schema {schema}: tables differ: only in {left.label}: "
                            f"{sorted(set(tables_left) - set(tables_right))}; only in {right.label}: "
                            f"{sorted(set(tables_right) - set(tables_left))}")
        if not tables_left and not tables_right:
            problems.append(f"schema {schema}: no tables on either side")
        for table in sorted(set(tables_left) & set(tables_right)):
            found = compare_table(schema, table, left, right, tolerance, intervals, se_tolerance, draw_columns, ignored)
            n_rows = len(left.table(schema, table))
            print(f"{schema}.{table}: {n_rows} rows, {'identical' if not found else 'DIFFERENT'}")
            problems += found
            n_tables += 1
    print(f"{n_tables} table(s) compared, {len(problems)} difference(s)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("left", help="a DuckDB file, `postgres` (libpq environment) or a postgresql:// URL")
    parser.add_argument("right", help="the same")
    parser.add_argument("--schema", action="append", dest="schemas",
                        help=f"a schema to compare (repeatable; default: {', '.join(DEFAULT_SCHEMAS)})")
    parser.add_argument("--tolerance", type=float, default=1e-9)
    parser.add_argument("--intervals", choices=("exact", "se"), default="exact")
    parser.add_argument("--se-tolerance", type=float, default=0.05)
    parser.add_argument("--draw-columns", default=",".join(DEFAULT_DRAW_COLUMNS),
                        help="columns derived from the bootstrap draws, left out with --intervals se")
    parser.add_argument("--ignore-columns", default="",
                        help="comma-separated columns never compared (e.g. run_id,answered_at when the two "
                             "warehouses' inference rows come from separate runs)")
    args = parser.parse_args(argv)
    left, right = parse_warehouse(args.left, "left"), parse_warehouse(args.right, "right")
    left.open()
    right.open()
    try:
        problems = compare(left, right, args.schemas or list(DEFAULT_SCHEMAS), args.tolerance, args.intervals,
                           args.se_tolerance, {c for c in args.draw_columns.split(",") if c},
                           {c for c in args.ignore_columns.split(",") if c})
    finally:
        left.close()
        right.close()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
