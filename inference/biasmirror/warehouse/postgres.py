"""The warehouse on PostgreSQL: a connection with the subset of DuckDB's connection API the writers use.

BIASMIRROR_TARGET=postgres selects it, for dbt (profiles.yml's `postgres` output) and for every Python writer
alike (biasmirror.warehouse.connect). The server comes from libpq's own variables (PGHOST, PGPORT, PGUSER,
PGPASSWORD, PGDATABASE), with the defaults profiles.yml uses: the local server's unix socket and the database
`biasmirror`. A server database has no working copy, writer lock or publication (those are DuckDB-file concepts):
PostgreSQL's transactions keep concurrent writers and readers consistent.

The writers speak DuckDB's dialect for their few statements (`?` parameters, `create schema if not exists`, ...):
`execute` turns `?` into psycopg2's `%s`. Bulk inserts go through `append_frame` (COPY), which
biasmirror.warehouse.writes.append_rows calls for this connection.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any, Sequence

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
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        return token

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

    def fetchall(self) -> list[tuple]:
        return self._cursor.fetchall() if self._cursor is not None and self._cursor.description else []

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone() if self._cursor is not None and self._cursor.description else None

    def df(self) -> pd.DataFrame:
        names = [d[0] for d in self._cursor.description]
        return pd.DataFrame.from_records(self._cursor.fetchall(), columns=names)

    fetchdf = df

    def append_frame(self, schema: str, table: str, columns: dict[str, str], frame: pd.DataFrame) -> None:
        """COPY the frame's rows into schema.table (columns named, in the contract's order), inside the current
        transaction. Values are written as text and cast by the server to the columns' types."""
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
            cursor.copy_expert(f"copy {schema}.{table} ({names}) from stdin with (format csv, null '\\N')", buffer)


def postgres_type(sql_type: str) -> str:
    """A type of the inference contract (DuckDB's names) as PostgreSQL names it (the dbt macro contract_type)."""
    return {"double": "double precision", "varchar": "text"}.get(sql_type.lower(), sql_type)


def _plain(value: Any) -> Any:
    """numpy scalars as Python values (psycopg2 adapts only the latter)."""
    return value.item() if hasattr(value, "item") and not isinstance(value, (str, bytes)) else value
