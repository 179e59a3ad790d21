"""biasmirror.warehouse.catalog: the one existence and column check, which answers for the current database only
(an attached file's table of the same schema and name must not answer for it)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from biasmirror.warehouse.catalog import column_names, has_table


def test_has_table_and_columns_of_the_current_database_only(tmp_path: Path) -> None:
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("create schema inference")
        con.execute("create table inference.dbt_builds (invocation_id varchar, published boolean)")
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
