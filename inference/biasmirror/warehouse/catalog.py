"""What a warehouse holds, read from its information schema: one place for the existence and column checks every
reader and writer makes before touching a table that an older or newer version may not have made yet.

Both ask only the current database (`table_catalog = current_database()`): a DuckDB connection can have other
files attached, whose tables of the same schema and name must not answer for this one. The SQL is the same on
DuckDB and PostgreSQL (biasmirror.warehouse.postgres.PostgresConnection takes the same `?` placeholders)."""

from __future__ import annotations

from typing import Any


def has_table(con: Any, schema: str, table: str) -> bool:
    """Whether the warehouse of `con` holds `schema.table` (a table or a view)."""
    return bool(con.execute("select count(*) from information_schema.tables where table_schema = ? "
                            "and table_name = ? and table_catalog = current_database()", [schema, table]).fetchone()[0])


def column_names(con: Any, schema: str, table: str) -> list[str]:
    """The columns of `schema.table` in their order ([] when there is no such table)."""
    return [str(row[0]) for row in con.execute(
        "select column_name from information_schema.columns where table_schema = ? and table_name = ? "
        "and table_catalog = current_database() order by ordinal_position", [schema, table]).fetchall()]


def table_names(con: Any, schema: str | None = None, *, base_tables_only: bool = False) -> set[str]:
    """The tables (and views, unless `base_tables_only`) of `schema`, by name; of every schema, as
    `schema.table`, when no schema is given."""
    kind = " and table_type = 'BASE TABLE'" if base_tables_only else ""
    if schema is None:
        rows = con.execute("select table_schema || '.' || table_name from information_schema.tables "
                           f"where table_catalog = current_database(){kind}").fetchall()
    else:
        rows = con.execute("select table_name from information_schema.tables where table_schema = ? "
                           f"and table_catalog = current_database(){kind}", [schema]).fetchall()
    return {str(row[0]) for row in rows}


def columns_by_table(con: Any, schema: str) -> dict[str, list[str]]:
    """Every table of `schema` with its columns in their order."""
    columns: dict[str, list[str]] = {}
    for table, column in con.execute(
            "select table_name, column_name from information_schema.columns where table_schema = ? "
            "and table_catalog = current_database() order by table_name, ordinal_position", [schema]).fetchall():
        columns.setdefault(str(table), []).append(str(column))
    return columns
