"""biasmirror.warehouse.catalog: the one existence and column check, which answers for the current database only
(an attached file's table of the same schema and name must not answer for it)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from biasmirror.warehouse.catalog import column_names, columns_by_table, has_table, table_names


def _attached_other(tmp_path: Path) -> Path:
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("create schema inference")
        con.execute("create table inference.dbt_builds (invocation_id varchar, published boolean)")
        con.execute("create table inference.llm_runs (run_id varchar)")
    return other


def test_has_table_and_columns_of_the_current_database_only(tmp_path: Path) -> None:
    other = _attached_other(tmp_path)
    with duckdb.connect(str(tmp_path / "warehouse.duckdb")) as con:
        con.execute(f"attach '{other}' as other (read_only)")
        assert not has_table(con, "inference", "dbt_builds")
        assert column_names(con, "inference", "dbt_builds") == []
        con.execute("create schema inference")
        con.execute("create table inference.dbt_builds (finished_at timestamp, invocation_id varchar, vars json)")
        con.execute("create view inference.last_build as select * from inference.dbt_builds")
        assert has_table(con, "inference", "dbt_builds")
        assert has_table(con, "inference", "last_build")  # a view counts
        assert not has_table(con, "audit", "dbt_builds")
        # in the table's own order, not the attached file's columns
        assert column_names(con, "inference", "dbt_builds") == ["finished_at", "invocation_id", "vars"]


def test_table_listings_of_the_current_database_only(tmp_path: Path) -> None:
    other = _attached_other(tmp_path)
    with duckdb.connect(str(tmp_path / "warehouse.duckdb")) as con:
        con.execute(f"attach '{other}' as other (read_only)")
        assert table_names(con, "inference") == set()
        assert columns_by_table(con, "inference") == {}
        con.execute("create schema inference")
        con.execute("create schema audit")
        con.execute("create table inference.dbt_builds (finished_at timestamp, invocation_id varchar)")
        con.execute("create view inference.last_build as select * from inference.dbt_builds")
        con.execute("create table audit.pair_outcomes (pair_id varchar)")
        assert table_names(con, "inference") == {"dbt_builds", "last_build"}
        assert table_names(con, "inference", base_tables_only=True) == {"dbt_builds"}
        # every schema of this file, qualified; nothing of the attached one (its llm_runs)
        assert table_names(con) == {"inference.dbt_builds", "inference.last_build", "audit.pair_outcomes"}
        assert columns_by_table(con, "inference") == {"dbt_builds": ["finished_at", "invocation_id"],
                                                      "last_build": ["finished_at", "invocation_id"]}
