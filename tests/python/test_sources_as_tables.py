"""MIMIC-IV and the Bordeaux extract read from database tables (vars mimic_source / bordeaux_source: tables)
give the same staged rows as the same data read from files.

The tables are what a user's loading step makes: MIMIC-IV in the mimic-code schemas (mimiciv_ed, mimiciv_hosp,
mimiciv_note), the Bordeaux extract as bordeaux.visits, each column typed as the source contract declares it.
Here they live in the DuckDB warehouse itself (mimic-code has DuckDB scripts too); the cross-engine check
(`make test-postgres`) does the same on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import yaml

from biasmirror.paths import project_dir
from biasmirror.synth.bordeaux import write_bordeaux
from biasmirror.synth.mimic import write_mimic
from warehouse_workspace import Workspace

pytestmark = pytest.mark.slow  # two dbt builds of the staging models

STAGING = ["stg_mimic__ed_stays", "stg_mimic__triage", "stg_mimic__patients", "stg_mimic__admissions",
           "stg_mimic__discharge_notes", "stg_bordeaux__visits"]
SOURCES = {"mimic": "models/staging/mimic/_mimic__sources.yml",
           "bordeaux": "models/staging/bordeaux/_bordeaux__sources.yml"}


def _declared_tables(source: str) -> list[dict]:
    document = yaml.safe_load((project_dir() / SOURCES[source]).read_text(encoding="utf-8"))
    (declared,) = [s for s in document["sources"] if s["name"] == source]
    return declared["tables"]


def _load_as_tables(warehouse: Path, mimic: Path, bordeaux: Path) -> dict[str, int]:
    """Each declared table of each source, read from its file as text and cast to its declared type, in the
    schema a tables-mode build reads (an undeclared extra column rides along, as in a real load)."""
    loaded = {}
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(warehouse)) as con:
        for source, folder in (("mimic", mimic), ("bordeaux", bordeaux)):
            for table in _declared_tables(source):
                files = table["meta"]["file"]
                file = next(name for name in ([files] if isinstance(files, str) else files) if (folder / name).exists())
                module, _, name = file.rpartition("/")
                schema, relation = (f"mimiciv_{module}" if module else "bordeaux"), name.split(".")[0]
                columns = ", ".join(f'try_cast("{c["name"]}" as {c["data_type"]}) as "{c["name"]}"'
                                    for c in table["columns"])
                path = str(folder / file).replace("'", "''")
                con.execute(f"create schema if not exists {schema}")
                con.execute(f"create table {schema}.{relation} as select {columns}, 'extra' as loaded_by "
                            f"from read_csv('{path}', all_varchar = true)")
                loaded[f"{schema}.{relation}"] = con.execute(f"select count(*) from {schema}.{relation}").fetchone()[0]
    return loaded


def _staged(ws: Workspace, model: str):
    frame = ws.query(f"select * from staging.{model}")
    return frame.sort_values(list(frame.columns)[:2], kind="stable").reset_index(drop=True)


def test_sources_read_from_tables_stage_as_from_files(tmp_path: Path) -> None:
    mimic, bordeaux = tmp_path / "mimic", tmp_path / "bordeaux"
    write_mimic(mimic, stays=300, seed=11)
    write_bordeaux(bordeaux, visits=300, seed=12)
    from_files = Workspace(tmp_path / "files")
    from_files.build(select=STAGING, variables={"mimic_root": str(mimic), "bordeaux_root": str(bordeaux)})

    from_tables = Workspace(tmp_path / "tables")
    loaded = _load_as_tables(from_tables.working, mimic, bordeaux)
    assert loaded["bordeaux.visits"] == 300 and loaded["mimiciv_ed.edstays"] >= 300
    # no folder anywhere: only the tables can feed these builds
    from_tables.build(select=STAGING, variables={"mimic_source": "tables", "bordeaux_source": "tables"},
                      BIASMIRROR_MIMIC_ROOT="", BIASMIRROR_BORDEAUX_ROOT="")
    for model in STAGING:
        expected, actual = _staged(from_files, model), _staged(from_tables, model)
        assert len(expected) > 0, model
        assert list(actual.columns) == list(expected.columns), model
        differing = [c for c in expected.columns if not actual[c].equals(expected[c])]
        assert not differing, (model, differing)

    # `biasmirror check`: no raw file to check for a data set read from tables (said, not failed), unless a folder
    # is given explicitly
    from biasmirror.quality.runner import run_checks

    tables = {"mimic_source": "tables", "bordeaux_source": "tables"}
    with from_tables.active(BIASMIRROR_MIMIC_ROOT="", BIASMIRROR_BORDEAUX_ROOT=""):
        report = run_checks(tmp_path / "docs", layers=["raw"], variables=tables)
        assert report.success and not report.outcomes
        reasons = {skipped.suite: skipped.reason for skipped in report.skipped}
        assert set(reasons) == {"mimic", "bordeaux"}
        for dataset, reason in reasons.items():
            assert f"{dataset} is read from the database's tables (var {dataset}_source: tables, --vars)" in reason
        given = run_checks(tmp_path / "docs", layers=["raw"], variables=tables, roots={"bordeaux": bordeaux})
    assert {o.subject for o in given.outcomes if o.layer == "raw"} and given.success
    assert [skipped.suite for skipped in given.skipped] == ["mimic"]


def test_another_schema_and_a_missing_table_are_named(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """var bordeaux_schema picks the schema; a schema without the table fails with the database's own error, which
    names the table (no file fallback that would silently build an empty cohort)."""
    from biasmirror.dbt_runner import DbtFailed

    bordeaux = tmp_path / "bordeaux"
    write_bordeaux(bordeaux, visits=120, seed=3)
    ws = Workspace(tmp_path / "ws")
    ws.working.parent.mkdir(parents=True)
    with duckdb.connect(str(ws.working)) as con:
        con.execute("create schema site_b")
        path = str(bordeaux / "visits.csv.gz").replace("'", "''")
        con.execute(f"create table site_b.visits as select * from read_csv('{path}', all_varchar = true)")
    tables = {"bordeaux_source": "tables", "bordeaux_schema": "site_b"}
    ws.build(select=["stg_bordeaux__visits"], variables=tables, BIASMIRROR_BORDEAUX_ROOT="")
    assert ws.query("select count(*) as n from staging.stg_bordeaux__visits").n[0] == 120
    with pytest.raises(DbtFailed) as failure, ws.active(BIASMIRROR_BORDEAUX_ROOT=""):
        from biasmirror.dbt_runner import run_dbt

        run_dbt("build", select=["stg_bordeaux__visits"], variables={**tables, "bordeaux_schema": "site_c"})
    assert "Nothing was published" in str(failure.value)
    assert "site_c" in capfd.readouterr().out  # dbt's output names the schema it could not read
