"""The warehouse on PostgreSQL: a connection with the subset of DuckDB's connection API the writers use.

BIASMIRROR_TARGET=postgres selects it, for dbt (profiles.yml's `postgres` output) and for every Python writer
alike (biasmirror.warehouse.connect). The server comes from libpq's own variables (PGHOST, PGPORT, PGUSER,
PGPASSWORD, PGDATABASE), with the defaults profiles.yml uses: the local server's unix socket and the database
`biasmirror`. A server database has no working copy, writer lock or publication (those are DuckDB-file concepts):
PostgreSQL's transactions keep concurrent writers and readers consistent.

The writers speak DuckDB's dialect for their few statements (`?` parameters, `create schema if not exists`, ...):
`execute` turns `?` into psycopg2's `%s`. Bulk inserts go through `append_frame` (COPY), which
biasmirror.warehouse.writes.append_rows calls for this connection. `df()` gives the column types DuckDB's `df()`
gives (numpy integers, or pandas' nullable integers when a column holds nulls; floats for numeric; timestamps), so
that a reader (the report, the model registry) sees the same frame on both engines; `register(name, frame)` makes
a frame queryable by name as DuckDB's does, as a temporary table.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any, Sequence

import numpy as np
import pandas as pd

TARGET_ENV = "BIASMIRROR_TARGET"
POSTGRES_TARGET = "postgres"


def target() -> str:
    """The engine dbt and the writers use: 'local' (DuckDB, the default) or 'postgres'."""
    return (os.environ.get(TARGET_ENV) or "local").strip().lower()


def uses_postgres() -> bool:
    return target() == POSTGRES_TARGET


def connection_parameters() -> dict[str, Any]:
    """The connection profiles.yml's `postgres` output makes, from the same variables and defaults."""
    return {
        "host": os.environ.get("PGHOST") or "/var/run/postgresql",
        "port": int(os.environ.get("PGPORT") or 5432),
        "user": os.environ.get("PGUSER") or "postgres",
        "password": os.environ.get("PGPASSWORD") or None,
        "dbname": os.environ.get("PGDATABASE") or "biasmirror",
    }


# `?` outside quoted strings: DuckDB's parameter marker
_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|%")


def _to_pyformat(sql: str) -> str:
    """DuckDB's `?` markers as psycopg2's `%s`; every literal `%` doubled, inside quotes too (psycopg2 reads
    `%` everywhere in a statement that has parameters, e.g. `like '%-placebo'`)."""
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        return token.replace("%", "%%")

    return _QUOTED_OR_MARK.sub(replace, sql)


class PostgresConnection:
    """A psycopg2 connection that reads like a DuckDB connection to the writers: execute(sql, params) returning
    itself, fetchall/fetchone/df, begin/commit/rollback/close. Outside begin() each statement commits on its
    own (DuckDB's auto-commit)."""

    def __init__(self, **parameters: Any) -> None:
        try:
            import psycopg2
        except ImportError as error:  # pragma: no cover - the postgres extra brings it
            raise RuntimeError("BIASMIRROR_TARGET=postgres needs psycopg2: pip install 'biasmirror[postgres]'") from error
        params = {**connection_parameters(), **parameters}
        try:
            self._con = psycopg2.connect(**{k: v for k, v in params.items() if v is not None})
        except psycopg2.OperationalError as error:
            raise RuntimeError(
                f"Cannot connect to PostgreSQL (host {params['host']}, port {params['port']}, database "
                f"{params['dbname']}, user {params['user']}): {str(error).strip()}. Set PGHOST, PGPORT, PGUSER, "
                "PGPASSWORD and PGDATABASE, or unset BIASMIRROR_TARGET to use the DuckDB warehouse.") from error
        self._con.autocommit = True
        self._cursor = None

    # --- transactions ---
    def begin(self) -> None:
        self._con.autocommit = False

    def commit(self) -> None:
        self._con.commit()
        self._con.autocommit = True

    def rollback(self) -> None:
        self._con.rollback()
        self._con.autocommit = True

    def close(self) -> None:
        self._con.close()

    # --- statements ---
    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> "PostgresConnection":
        cursor = self._con.cursor()
        if parameters:
            cursor.execute(_to_pyformat(sql), [_plain(v) for v in parameters])
        else:
            cursor.execute(sql)
        self._cursor = cursor
        return self

    @property
    def rowcount(self) -> int:
        """Rows the last statement changed (a `delete`, an `update`): DuckDB answers those with a row holding the
        count, PostgreSQL with none (biasmirror.warehouse.writes.delete_rows reads either)."""
        return self._cursor.rowcount if self._cursor is not None else -1

    def fetchall(self) -> list[tuple]:
        return self._cursor.fetchall() if self._cursor is not None and self._cursor.description else []

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone() if self._cursor is not None and self._cursor.description else None

    def df(self) -> pd.DataFrame:
        """The result as DuckDB's `df()` types it (see _column)."""
        description = self._cursor.description
        rows = self._cursor.fetchall()
        values = list(zip(*rows)) if rows else [()] * len(description)
        frame = pd.DataFrame({i: _column(column, d.type_code) for i, (column, d) in enumerate(zip(values, description))})
        frame.columns = [d[0] for d in description]
        return frame

    fetchdf = df

    def register(self, name: str, frame: pd.DataFrame) -> None:
        """Make `frame` queryable as `name` until unregister(name) (DuckDB registers it as a view): a temporary
        table of this session, typed from the frame's columns and filled through COPY."""
        self.unregister(name)
        columns = {str(column): _frame_type(frame[column]) for column in frame.columns}
        ddl = ", ".join(f'"{column}" {sql_type}' for column, sql_type in columns.items())
        with self._con.cursor() as cursor:
            cursor.execute(f'create temporary table "{name}" ({ddl})')
        self._copy(f'"{name}"', columns, frame)

    def unregister(self, name: str) -> None:
        with self._con.cursor() as cursor:
            cursor.execute(f'drop table if exists pg_temp."{name}"')

    def append_frame(self, schema: str, table: str, columns: dict[str, str], frame: pd.DataFrame) -> None:
        """COPY the frame's rows into schema.table (columns named, in the contract's order), inside the current
        transaction. Values are written as text and cast by the server to the columns' types."""
        self._copy(f"{schema}.{table}", columns, frame)

    def _copy(self, relation: str, columns: dict[str, str], frame: pd.DataFrame) -> None:
        frame = frame.copy()
        for name, sql_type in columns.items():
            kind = sql_type.lower()
            if kind in ("integer", "bigint", "smallint", "tinyint"):
                frame[name] = pd.to_numeric(frame[name]).round().astype("Int64")
            elif kind == "boolean":
                frame[name] = frame[name].map(lambda v: None if v is None or v != v else ("t" if bool(v) else "f"))
        buffer = io.StringIO()
        frame.to_csv(buffer, index=False, header=False, na_rep="\\N", date_format="%Y-%m-%d %H:%M:%S.%f")
        buffer.seek(0)
        names = ", ".join(f'"{name}"' for name in columns)
        with self._con.cursor() as cursor:
            cursor.copy_expert(f"copy {relation} ({names}) from stdin with (format csv, null '\\N')", buffer)


def describe() -> str:
    """The database the connection opens, as a message names it (never the password)."""
    params = connection_parameters()
    return f"PostgreSQL database {params['dbname']} (host {params['host']}, port {params['port']}, user {params['user']})"


# PostgreSQL type oids (pg_type) and the dtype DuckDB's df() gives the matching DuckDB type
_INTEGERS = {20: ("int64", "Int64"), 23: ("int32", "Int32"), 21: ("int16", "Int16")}
_FLOATS = {701: "float64", 1700: "float64", 700: "float32"}
_BOOLEAN, _DATE, _TIMESTAMP = 16, 1082, 1114


def _column(values: Sequence[Any], type_code: int) -> Any:
    """One result column as DuckDB's df() types it: integers as numpy integers, or pandas' nullable integers when
    the column holds a null; double and numeric as floats (NaN for null); booleans likewise; dates and timestamps
    as datetime64[us]; text and the rest as pandas infers them."""
    has_null = any(v is None for v in values)
    if type_code in _INTEGERS:
        plain, nullable = _INTEGERS[type_code]
        return pd.array(values, dtype=nullable) if has_null else np.asarray(values, dtype=plain)
    if type_code in _FLOATS:
        return np.asarray([np.nan if v is None else float(v) for v in values], dtype=_FLOATS[type_code])
    if type_code == _BOOLEAN:
        return pd.array(values, dtype="boolean") if has_null else np.asarray(values, dtype=bool)
    if type_code in (_DATE, _TIMESTAMP):
        return pd.Series(pd.to_datetime(list(values)), dtype="datetime64[us]")
    return pd.Series(list(values), dtype=object).infer_objects() if values else pd.Series([], dtype=object)


def _frame_type(series: pd.Series) -> str:
    """The PostgreSQL type of a registered frame's column."""
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_integer_dtype(series):
        return "bigint"
    if pd.api.types.is_float_dtype(series):
        return "double precision"
    if pd.api.types.is_datetime64_any_dtype(series):
        return "timestamp"
    return "text"


def regex_matches(con: Any, expr: str, pattern: str) -> str:
    """SQL true where the text `expr` matches the RE2 `pattern` (both SQL expressions), on the connection's engine:
    DuckDB's regexp_matches, or PostgreSQL's `~` with RE2's word boundary \\b written \\y (the dbt macro
    regex_matches in macros/cross_db/regex.sql, for the few queries Python sends)."""
    if isinstance(con, PostgresConnection):
        return f"(({expr}) ~ replace({pattern}, '\\b', '\\y'))"
    return f"regexp_matches({expr}, {pattern})"


def postgres_type(sql_type: str) -> str:
    """A type of the inference contract (DuckDB's names) as PostgreSQL names it (the dbt macro contract_type)."""
    return {"double": "double precision", "varchar": "text"}.get(sql_type.lower(), sql_type)


def _plain(value: Any) -> Any:
    """numpy scalars as Python values (psycopg2 adapts only the latter)."""
    return value.item() if hasattr(value, "item") and not isinstance(value, (str, bytes)) else value
