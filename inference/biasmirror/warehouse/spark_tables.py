"""Tables for Apache Spark's local mode, as Parquet folders (docs/spark.md).

Spark's local mode keeps its catalog in memory for one dbt invocation, so the tables the project reads live as
Parquet files under one folder, `<root>/<schema>/<table>/`, which the on-run-start hook register_source_tables
(BIASMIRROR_SPARK_TABLES=<root>) registers with the columns each contract declares. Parquet, rather than Spark's
JDBC or a session the Python writers would share, because it needs nothing running: a DuckDB warehouse written by
the usual commands is exported table by table, and a data set loads from its files the way a loading step puts
it in a database (typed columns, empty fields as null).

Timestamps are written as UTC instants (Parquet's adjusted-to-UTC timestamps), the form Spark reads into its
`timestamp` type.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import duckdb
import yaml

from biasmirror.paths import project_dir
from biasmirror.warehouse.catalog import table_names

# the data sets read from tables on Spark (vars mimic_source / bordeaux_source: tables)
SOURCE_FILES = {"mimic": "models/staging/mimic/_mimic__sources.yml",
                "bordeaux": "models/staging/bordeaux/_bordeaux__sources.yml"}


def _timestamps_as_instants(con: duckdb.DuckDBPyConnection, relation: str) -> str:
    """A select list of `relation` with its timestamp columns as UTC instants."""
    columns = con.execute(f"describe select * from {relation}").fetchall()
    return ", ".join(f'cast("{name}" as timestamptz) as "{name}"' if kind.upper() == "TIMESTAMP" else f'"{name}"'
                     for name, kind, *_ in columns)


def _literal(path: Path) -> str:
    """A path as an SQL string literal (a quote in a folder name must not end it)."""
    return "'" + str(path).replace("'", "''") + "'"


def _write(con: duckdb.DuckDBPyConnection, select: str, folder: Path) -> int:
    """Write a query's rows as one Parquet file in `folder` (replacing what was there); the row count."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    con.execute(f"copy ({select}) to {_literal(folder / 'part-0.parquet')} (format parquet)")
    return con.execute(f"select count(*) from read_parquet({_literal(folder / 'part-0.parquet')})").fetchone()[0]


def export_inference_tables(warehouse: Path, root: Path) -> dict[str, int]:
    """Every table of a DuckDB warehouse's inference schema as <root>/inference/<table>/; rows per table."""
    written = {}
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        con.execute("set TimeZone = 'UTC'")
        for table in sorted(table_names(con, "inference", base_tables_only=True)):
            relation = f'inference."{table}"'
            written[table] = _write(con, f"select {_timestamps_as_instants(con, relation)} from {relation}",
                                    root / "inference" / table)
    finally:
        con.close()
    return written


def _source_tables(dataset: str) -> list[dict]:
    document = yaml.safe_load((project_dir() / SOURCE_FILES[dataset]).read_text(encoding="utf-8"))
    (source,) = [s for s in document["sources"] if s["name"] == dataset]
    return source["tables"]


def load_dataset_tables(dataset: str, folder: Path, root: Path, schema_prefix: str = "mimiciv_") -> dict[str, int]:
    """A data set's files (MIMIC-IV's CSV.gz modules, the Bordeaux extract) as the tables a loading step makes -
    MIMIC-IV a schema per module (mimiciv_ed.edstays, ...), the Bordeaux extract bordeaux.visits - with the
    declared columns only, typed as declared, empty fields null; written under <root>/<schema>/<table>/."""
    written = {}
    con = duckdb.connect()
    try:
        con.execute("set TimeZone = 'UTC'")
        for table in _source_tables(dataset):
            files = table["meta"]["file"]
            candidates = [files] if isinstance(files, str) else files
            file = next((f for f in candidates if (folder / f).exists()), None)
            if file is None:
                raise FileNotFoundError(f"{dataset}.{table['name']}: none of {', '.join(candidates)} in {folder}")
            module, _, file_name = file.rpartition("/")
            schema, name = (f"{schema_prefix}{module}" if module else dataset), file_name.split(".")[0]
            path = folder / file
            if path.suffix == ".parquet":
                reader = f"(select columns(*)::varchar from read_parquet({_literal(path)}))"
            else:
                opener = gzip.open if path.suffix == ".gz" else open
                with opener(path, "rt", encoding="utf-8") as handle:  # an empty file has no header to read
                    if not handle.readline():
                        raise ValueError(f"{path.name}: the file is empty")
                reader = f"read_csv({_literal(path)}, header = true, all_varchar = true, max_line_size = 16777216)"
            selected = []
            for column in table["columns"]:
                kind = str(column.get("data_type") or "varchar").lower()
                value = f"nullif(\"{column['name']}\", '')"
                cast = "timestamptz" if kind == "timestamp" else kind
                selected.append(f'cast({value} as {cast}) as "{column["name"]}"')
            written[f"{schema}.{name}"] = _write(con, f"select {', '.join(selected)} from {reader}",
                                                 root / schema / name)
    finally:
        con.close()
    return written
