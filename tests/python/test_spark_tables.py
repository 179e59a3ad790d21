"""The Parquet tables Spark's local mode reads (biasmirror.warehouse.spark_tables), and compare_marts reading a
Spark build's exported marts (`spark:DIR`). Neither needs Spark: the files are checked with DuckDB, against the
data sets' own files and contracts. The Spark build itself is `make test-spark` (scripts/spark_check.py)."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest
import yaml

from biasmirror.paths import project_dir
from biasmirror.synth.mimic import write_mimic
from biasmirror.warehouse.spark_tables import export_inference_tables, load_dataset_tables

sys.path.insert(0, str(project_dir() / "scripts"))
import compare_marts  # noqa: E402


def parquet(folder: Path) -> pd.DataFrame:
    return duckdb.sql(f"select * from read_parquet('{folder}/*.parquet')").df()


def parquet_types(folder: Path) -> dict[str, str]:
    return {name: kind for name, kind, *_ in duckdb.sql(f"describe select * from read_parquet('{folder}/*.parquet')").fetchall()}


def test_mimic_files_load_as_typed_tables(tmp_path: Path) -> None:
    write_mimic(tmp_path / "mimic", stays=40, seed=3)
    written = load_dataset_tables("mimic", tmp_path / "mimic", tmp_path / "tables")
    contract = yaml.safe_load((project_dir() / "models/staging/mimic/_mimic__sources.yml").read_text())
    (source,) = contract["sources"]
    assert set(written) == {"mimiciv_ed.edstays", "mimiciv_ed.triage", "mimiciv_hosp.patients",
                            "mimiciv_hosp.admissions", "mimiciv_note.discharge"}
    for table in source["tables"]:
        module, _, name = table["meta"]["file"].rpartition("/")
        folder = tmp_path / "tables" / f"mimiciv_{module}" / name.split(".")[0]
        with gzip.open(tmp_path / "mimic" / table["meta"]["file"], "rt", encoding="utf-8") as handle:
            raw = pd.read_csv(handle, dtype=str, keep_default_na=False)
        loaded = parquet(folder)
        declared = [c["name"] for c in table["columns"]]
        assert list(loaded.columns) == declared and len(loaded) == len(raw) == written[folder.parent.name + "." + folder.name]
        types = parquet_types(folder)
        for column in table["columns"]:
            kind = column["data_type"].upper()
            expected = {"TIMESTAMP": "TIMESTAMP WITH TIME ZONE"}.get(kind, kind)
            assert types[column["name"]] == expected, (table["name"], column["name"])
            # empty fields are nulls, and nothing else is
            assert int(loaded[column["name"]].isna().sum()) == int((raw[column["name"]] == "").sum())


def test_inference_tables_export_with_timestamps_as_instants(tmp_path: Path) -> None:
    warehouse = tmp_path / "w.duckdb"
    con = duckdb.connect(str(warehouse))
    con.execute("create schema inference")
    con.execute("create table inference.runs (run_id varchar, n_items bigint, started_at timestamp, ok boolean)")
    con.execute("insert into inference.runs values ('r1', 3, timestamp '2026-01-02 03:04:05', true), "
                "('r2', null, null, false)")
    con.close()
    written = export_inference_tables(warehouse, tmp_path / "tables")
    assert written == {"runs": 2}
    folder = tmp_path / "tables" / "inference" / "runs"
    assert parquet_types(folder) == {"run_id": "VARCHAR", "n_items": "BIGINT",
                                     "started_at": "TIMESTAMP WITH TIME ZONE", "ok": "BOOLEAN"}
    instant = duckdb.sql(f"set TimeZone = 'UTC'; select started_at from read_parquet('{folder}/*.parquet') "
                         "where run_id = 'r1'").fetchone()[0]
    assert instant.strftime("%Y-%m-%d %H:%M:%S %z") == "2026-01-02 03:04:05 +0000"


def test_compare_marts_reads_a_spark_export(tmp_path: Path) -> None:
    frame = pd.DataFrame({"metric": ["pdr", "nmd"], "estimate": [0.25, -0.125], "n_pairs": [10, 10]})
    warehouse = tmp_path / "duck.duckdb"
    con = duckdb.connect(str(warehouse))
    con.execute("create schema audit")
    con.execute("create table audit.paired_metrics as select * from frame")
    con.close()
    export = tmp_path / "spark"
    (export / "audit" / "paired_metrics").mkdir(parents=True)
    frame.to_parquet(export / "audit" / "paired_metrics" / "part-0.parquet", index=False)
    assert compare_marts.main([str(warehouse), f"spark:{export}"]) == 0
    frame.loc[1, "estimate"] = -0.126
    frame.to_parquet(export / "audit" / "paired_metrics" / "part-0.parquet", index=False)
    assert compare_marts.main([str(warehouse), f"spark:{export}"]) == 1


def test_bordeaux_extract_loads_as_one_table(tmp_path: Path) -> None:
    from biasmirror.synth.bordeaux import write_bordeaux

    write_bordeaux(tmp_path / "bordeaux", visits=30, seed=2)
    written = load_dataset_tables("bordeaux", tmp_path / "bordeaux", tmp_path / "tables")
    assert written == {"bordeaux.visits": 30}


def test_a_missing_file_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    write_mimic(tmp_path / "mimic", stays=10, seed=3)
    (tmp_path / "mimic" / "ed" / "triage.csv.gz").unlink()

    with pytest.raises(FileNotFoundError, match="mimic.triage: none of ed/triage.csv.gz"):
        load_dataset_tables("mimic", tmp_path / "mimic", tmp_path / "it's tables")
    # the folder's apostrophe is quoted in the SQL: the table before the missing file was written there
    assert not (tmp_path / "it's tables" / "mimiciv_ed" / "triage").exists()
    assert (tmp_path / "it's tables" / "mimiciv_ed" / "edstays" / "part-0.parquet").exists()
