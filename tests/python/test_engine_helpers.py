"""The Python side of the engines' differences, on DuckDB and without a server: DuckDB's `?` parameters as
psycopg2 reads them, the keyword match `biasmirror check` computes, the count of deleted rows `forget` reports,
and the Python API made with BIASMIRROR_TARGET=postgres. The cross-engine check (`make test-postgres`) runs the
same code against a PostgreSQL server."""

from __future__ import annotations

import os

import duckdb
import pytest

from biasmirror import Warehouse
from biasmirror.warehouse.postgres import PostgresConnection, _to_pyformat, regex_matches
from biasmirror.warehouse.writes import delete_rows


def test_parameters_become_pyformat_and_every_percent_sign_is_doubled() -> None:
    sql = "select '?%', \"a%\" from t where x = ? and g like '%-placebo' and y = ?"
    assert _to_pyformat(sql) == "select '?%%', \"a%%\" from t where x = %s and g like '%%-placebo' and y = %s"


def test_keyword_match_reads_re2_word_boundaries() -> None:
    con = duckdb.connect()
    pattern = r"'(?i)(\bpregnan|\bG[0-9]+ ?P[0-9]+)'"
    matches = [con.execute(f"select {regex_matches(con, text, pattern)}").fetchone()[0]
               for text in ("'She is Pregnant'", "'g2p1 noted'", "'nonpregnant'", "'g2 only'")]
    assert matches == [True, True, False, False]
    # PostgreSQL: the same pattern with \b written \y (a server runs it in the cross-engine check)
    postgres = PostgresConnection.__new__(PostgresConnection)
    assert regex_matches(postgres, "x", "p") == r"((x) ~ replace(p, '\b', '\y'))"


def test_delete_rows_returns_the_count_deleted() -> None:
    con = duckdb.connect()
    con.execute("create schema inference")
    con.execute("create table inference.items as select range as n from range(10)")
    assert delete_rows(con, "items", "n >= ?", [7]) == 3
    assert delete_rows(con, "items", "n >= ?", [7]) == 0
    assert con.execute("select count(*) from inference.items").fetchone()[0] == 7


def test_the_api_on_postgres_takes_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIASMIRROR_TARGET", "postgres")
    monkeypatch.setenv("PGDATABASE", "audit_db")
    with pytest.raises(ValueError, match="not a file"):
        Warehouse("biasmirror.duckdb")
    wh = Warehouse()  # connects on first use only
    assert wh.engine == "postgres" and "PostgreSQL database audit_db" in repr(wh)
    with pytest.raises(ValueError, match="no working copy"):
        _ = wh.working_path
    monkeypatch.delenv("BIASMIRROR_TARGET")
    # the engine is fixed when the object is made, and every call runs with it
    assert wh.engine == "postgres" and Warehouse("biasmirror.duckdb").engine == "duckdb"
    with wh._env():
        assert os.environ.get("BIASMIRROR_TARGET") == "postgres"
