"""The cross-engine check (`make test-postgres`): the same audit built on DuckDB and on PostgreSQL from the same
demo data must give the same marts.

    python scripts/cross_engine_check.py --work DIR [--stays 1500] [--resamples 1000] [--duckdb-only]

1. Synthetic MIMIC-IV files (biasmirror.synth.mimic) under DIR/mimic, a synthetic Bordeaux extract
   (biasmirror.synth.bordeaux) under DIR/bordeaux.
2. DuckDB (DIR/duckdb/warehouse.duckdb), as a user runs it: both cohorts from the files; then the Python commands
   (run_python_commands): rule-based counterfactuals (both data sets) and MIMIC's same-sex placebo; a small TF-IDF + random-forest
   model trained and scored; pairs scored elsewhere imported with `import-pairs` (with a stratum); a simulated
   implicit-bias study; then the audit marts, and `biasmirror summary` and `biasmirror report`.
3. PostgreSQL (the database the libpq variables name; BIASMIRROR_TARGET=postgres): the same MIMIC-IV files loaded
   as tables in the mimic-code schemas (mimiciv_ed, mimiciv_hosp, mimiciv_note) and read with
   `--vars '{mimic_source: tables}'`, the Bordeaux extract loaded as the table bordeaux.visits and read with
   `bordeaux_source: tables`; the cohorts built; the same Python commands run against PostgreSQL; the
   whole project built; `biasmirror summary` and `biasmirror report` (written from the PostgreSQL database).
   Nothing is copied from DuckDB: every inference row is written by the commands on PostgreSQL.
4. Every compiled model of the PostgreSQL build parses with sqlglot's postgres dialect (and the DuckDB build's
   with the duckdb dialect).
5. The rows the Python commands wrote (every inference table but the runs and builds bookkeeping) are the same on
   both engines: counterfactual texts and checks, predictions (to 1e-9), the model registry, the imported pairs,
   the implicit study's prompts and answers. Left out: the columns that record when and by which run a row was
   written (run_id, import_id, the timestamps) and the training time inside triage_models.hyperparameters.
6. scripts/compare_marts.py compares every table of the audit schema: point estimates to 1e-9, intervals by
   their widths (the engines' hash functions differ, so do the bootstrap draws: docs/engines.md); the run ids and
   answer times that audit.explicit_answers and audit.scoring_parity show are left out (each engine's runs have
   their own). The two reports have the same figures, tables and no-data panels.
7. The Python API (biasmirror.Warehouse) on both engines: `marts()`, `paired_metrics(...)`, `mart(...)` and a
   lazy ibis `table(...)` filtered and counted in the database give the same frames (intervals aside).
8. `biasmirror check` (Great Expectations) on both engines: the same verdict for every expectation of the cohort,
   inference and audit layers; DuckDB checks the raw files, PostgreSQL says that both data sets are read from
   tables and skips their raw layer.
9. `biasmirror forget` of the imported model on both engines removes the same rows; after a full build on each,
   the model is gone from the inference tables and the marts of both, and steps 5 and 6 pass again.

With --duckdb-only, only step 2 runs (with the project in BIASMIRROR_PROJECT_DIR, if set): two such warehouses,
built before and after a refactor, are compared with `compare_marts.py A B` (intervals exact).
Exit status 0 when every step passes.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SOURCES = {"mimic": "models/staging/mimic/_mimic__sources.yml",
           "bordeaux": "models/staging/bordeaux/_bordeaux__sources.yml"}
# inference tables of bookkeeping (runs, builds), each engine's own: not compared
BOOKKEEPING = {"runs", "dbt_builds", "raw_source_counts", "dataset_roots", "audit_history"}
# columns saying which run wrote a row (each engine's runs have their own ids; the timestamps are left out too),
# and the training time the model registry keeps in its hyperparameters: not compared
RUN_COLUMNS = {"run_id", "import_id", "hyperparameters"}
# the same in the audit marts: audit.explicit_answers (run_id, answered_at), audit.scoring_parity (run_id)
MART_RUN_COLUMNS = "run_id,answered_at"
# what `biasmirror report` prints: "(12 figures, 14 tables, 3 figures or tables left out for want of data)"
REPORT_LINE = re.compile(r"\((\d+) figures, (\d+) tables(?:, (\d+) figures or tables left out for want of data)?\)")


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def environment(**values: str | None):
    """Environment variables for the duration of a block (biasmirror.paths.scoped_env)."""
    from biasmirror.paths import scoped_env

    return scoped_env(values)


def duckdb_variables(work: Path, variables: dict) -> dict:
    """The vars of the DuckDB builds: both data sets from their files."""
    return {**variables, "mimic_root": str(work / "mimic"), "bordeaux_root": str(work / "bordeaux")}


def postgres_variables(variables: dict) -> dict:
    """The vars of the PostgreSQL builds: both data sets from their tables."""
    return {**variables, "mimic_source": "tables", "bordeaux_source": "tables"}


def duckdb_env(work: Path) -> dict[str, str | None]:
    folder = work / "duckdb"
    folder.mkdir(parents=True, exist_ok=True)
    return {"BIASMIRROR_TARGET": None, "BIASMIRROR_WAREHOUSE": str(folder / "warehouse.duckdb"),
            "BIASMIRROR_WORKING_COPY": str(folder / "warehouse.work" / "warehouse.duckdb"),
            "BIASMIRROR_MIMIC_ROOT": None, "DBT_TARGET_PATH": str(folder / "target"), "DBT_LOG_PATH": str(folder / "logs")}


def postgres_env(work: Path) -> dict[str, str | None]:
    folder = work / "postgres"
    folder.mkdir(parents=True, exist_ok=True)
    return {"BIASMIRROR_TARGET": "postgres", "BIASMIRROR_MIMIC_ROOT": None,
            "BIASMIRROR_WAREHOUSE": str(folder / "unused.duckdb"),
            "DBT_TARGET_PATH": str(folder / "target"), "DBT_LOG_PATH": str(folder / "logs")}


def imported_pairs(n: int = 1500) -> pd.DataFrame:
    """Pairs scored elsewhere, with a stratum (the nurse x patient sex dyad), and a patient for some."""
    rng = np.random.default_rng(8)
    sex = rng.choice(["F", "M"], n)
    original = rng.integers(1, 5, n)
    moved = rng.random(n) < 0.2
    step = np.where(rng.random(n) < 0.6, 1, -1) * np.where(sex == "M", 1, -1)
    frame = pd.DataFrame({
        "pair_id": [f"p{i:06d}" for i in range(n)], "original_sex": sex, "original_level": original,
        "counterfactual_level": np.clip(np.where(moved, original + step, original), 1, 4),
        "true_level": rng.integers(1, 5, n),
        "patient_id": [f"pt{i // 3:05d}" if i % 4 else None for i in range(n)],
    })
    frame["stratum_nurse_patient_dyad"] = rng.choice(["F", "M"], n) + "_nurse_" + sex + "_patient"
    return frame


def build_duckdb(work: Path, variables: dict) -> Path:
    env = duckdb_env(work)
    with environment(**env):
        build_audit(work, "DuckDB", "the files", duckdb_variables(work, variables))
    return Path(env["BIASMIRROR_WAREHOUSE"])


def build_audit(work: Path, engine: str, sources: str, variables: dict) -> None:
    """The same steps on either engine (the environment names it): the cohorts, the Python commands, the whole
    project."""
    from biasmirror.dbt_runner import run_dbt

    log(f"{engine}: the cohorts from {sources}")
    run_dbt("build", select=["+model_inputs", "+cohort_flow", "+int_cohort_records_stratified", "+int_record_terms"],
            variables=variables)
    run_python_commands(work, engine, variables)
    log(f"{engine}: the whole project")
    run_dbt("build", variables=variables)


def run_python_commands(work: Path, engine: str, variables: dict) -> None:
    """The Python commands, the same on both engines (on the warehouse the environment names)."""
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.dbt_runner import run_dbt
    from biasmirror.imports.pairs import import_pairs
    from biasmirror.triage.classifier_training import fit_and_score
    from biasmirror.triage.forest import TfidfForest

    log(f"{engine}: rule-based counterfactuals (both data sets) and placebo")
    generate_counterfactuals("mimic", "rules")
    generate_counterfactuals("mimic", "rules", placebo=True)
    generate_counterfactuals("bordeaux", "rules")
    run_dbt("build", select=["model_inputs"], variables=variables)
    log(f"{engine}: TF-IDF + random forest")
    fit_and_score("mimic", "rf-small", TfidfForest.fixed(n_estimators=40, seed=1))
    log(f"{engine}: import-pairs")
    import_pairs(work / "pairs.parquet", "dyads", "imported-model", "full")
    log(f"{engine}: simulated implicit-bias study")
    run_implicit_study()


def biasmirror(engine: str, *arguments: str, allowed: tuple[int, ...] = (0,)) -> str:
    """Run the `biasmirror` command line (on the warehouse the environment names); its output (stdout, then
    stderr), on one line. An exit status outside `allowed` stops the check."""
    result = subprocess.run([sys.executable, "-m", "biasmirror.cli", *arguments], capture_output=True, text=True)
    if result.returncode not in allowed:
        raise SystemExit(f"{engine}: `biasmirror {' '.join(arguments)}` failed (exit {result.returncode}):\n"
                         f"{result.stdout}{result.stderr}")
    return " ".join((result.stdout + " " + result.stderr).split())


def run_readers(work: Path, engine: str, folder: str) -> tuple[str, str, str]:
    """`biasmirror summary`, and `biasmirror report --out DIR/<folder>/report`; the report's numbers of figures,
    tables and figures or tables left out for want of data."""
    summary = biasmirror(engine, "summary")
    if "rf-small" not in summary or "imported-model" not in summary:
        raise SystemExit(f"{engine}: `biasmirror summary` does not show both models (rf-small, imported-model)")
    out = work / folder / "report"
    found = REPORT_LINE.search(biasmirror(engine, "report", "--out", str(out)))
    if found is None:
        raise SystemExit(f"{engine}: `biasmirror report` did not say what it wrote")
    counts = (found.group(1), found.group(2), found.group(3) or "0")
    log(f"{engine}: `biasmirror summary` ok; `biasmirror report`: {out / 'index.html'} ({counts[0]} figures, "
        f"{counts[1]} tables, {counts[2]} left out for want of data)")
    return counts


def run_implicit_study() -> None:
    from biasmirror.backends.registry import make_backend
    from biasmirror.implicit.runs import run_allocation, run_associations, run_explicit

    backend = make_backend("simulated", "sim-respondent", association_bias={"risk": 0.5, "emotions": -0.3}, seed=4)
    run_associations(backend, languages=["en"], categories=["risk", "emotions"], iterations=12)
    run_allocation(backend, languages=["en"], disciplines=["hiv", "gynecology"], explanations=[False])
    run_explicit(backend, languages=["en"])


def load_source_tables(source_name: str, folder: Path) -> None:
    """A data set's synthetic files as a loading step puts them in a database: MIMIC-IV as mimic-code loads it (a
    schema per module, a table per file), the Bordeaux extract as bordeaux.visits; typed columns, empty fields as
    null. Only the columns the project declares are loaded."""
    from biasmirror.paths import project_dir
    from biasmirror.warehouse.postgres import PostgresConnection, postgres_type

    document = yaml.safe_load((project_dir() / SOURCES[source_name]).read_text(encoding="utf-8"))
    (source,) = [s for s in document["sources"] if s["name"] == source_name]
    con = PostgresConnection()
    try:
        for table in source["tables"]:
            files = table["meta"]["file"]
            file = next(f for f in ([files] if isinstance(files, str) else files) if (folder / f).exists())
            module, _, file_name = file.rpartition("/")
            schema, name = (f"mimiciv_{module}" if module else source_name), file_name.split(".")[0]
            columns = {c["name"]: postgres_type(c["data_type"]) for c in table["columns"]}
            path = folder / file
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", encoding="utf-8", newline="") as handle:
                frame = pd.read_csv(handle, dtype=str, keep_default_na=False)
            buffer = io.StringIO()
            frame[list(columns)].to_csv(buffer, index=False, header=False, quoting=csv.QUOTE_MINIMAL)
            buffer.seek(0)
            con.execute(f"create schema if not exists {schema}")
            con.execute(f"drop table if exists {schema}.{name}")
            con.execute(f"create table {schema}.{name} (" + ", ".join(f'"{c}" {t}' for c, t in columns.items()) + ")")
            with con._con.cursor() as cursor:
                cursor.copy_expert(f"copy {schema}.{name} from stdin with (format csv, null '')", buffer)
            log(f"PostgreSQL: loaded {schema}.{name} ({len(frame)} rows)")
    finally:
        con.close()


def build_postgres(work: Path, variables: dict) -> None:
    with environment(**postgres_env(work)):
        load_source_tables("mimic", work / "mimic")
        load_source_tables("bordeaux", work / "bordeaux")
        build_audit(work, "PostgreSQL", "the mimic-code tables and bordeaux.visits", postgres_variables(variables))


def compare_written_rows(duckdb_file: Path) -> list[str]:
    """The inference rows the Python commands wrote on each engine, compared (step 5 of the docstring)."""
    import compare_marts

    from biasmirror.warehouse.contract import _tables

    left, right = compare_marts.parse_warehouse(str(duckdb_file), "DuckDB"), compare_marts.parse_warehouse("postgres", "PostgreSQL")
    left.open()
    right.open()
    problems: list[str] = []
    try:
        for table, columns in _tables().items():
            if table in BOOKKEEPING:
                continue
            ignored = RUN_COLUMNS | {c for c, t in columns.items() if t.lower().startswith("timestamp")}
            found = compare_marts.compare_table("inference", table, left, right, 1e-9, "exact", 0.0, set(), ignored)
            print(f"inference.{table}: {len(left.table('inference', table))} rows, "
                  f"{'identical' if not found else 'DIFFERENT'}")
            problems += found
    finally:
        left.close()
        right.close()
    return problems


# columns of the marts that depend on the bootstrap draws (the engines' draws differ: docs/engines.md)
DRAW_COLUMNS = {"ci_low", "ci_high", "n_boot", "is_sparse", "ci_excludes_zero"}


def differences(name: str, left: pd.DataFrame, right: pd.DataFrame, ignored: set[str] = frozenset()) -> list[str]:
    """Two frames the same engine-independent API call gave on DuckDB (left) and PostgreSQL (right): the same
    columns, and the same rows (sorted; floats to 1e-9) outside the `ignored` columns."""
    if list(left.columns) != list(right.columns):
        return [f"{name}: columns differ: DuckDB {list(left.columns)}, PostgreSQL {list(right.columns)}"]
    import compare_marts

    # the bootstrap SE and what is computed from it (p, q, mde) follow the draws, like the intervals
    columns = [c for c in left.columns if c not in ignored and not compare_marts.DRAW_STATISTIC_COLUMN.match(c)]
    a = left[columns].sort_values(columns, ignore_index=True)
    b = right[columns].sort_values(columns, ignore_index=True)
    if len(a) != len(b):
        return [f"{name}: {len(a)} rows on DuckDB, {len(b)} on PostgreSQL"]
    problems = []
    for column in columns:
        x, y = a[column], b[column]
        if pd.api.types.is_numeric_dtype(x) and pd.api.types.is_numeric_dtype(y) and not pd.api.types.is_bool_dtype(x):
            same = np.allclose(x.astype(float), y.astype(float), rtol=1e-9, atol=1e-9, equal_nan=True)
        else:
            same = [None if pd.isna(v) else v for v in x] == [None if pd.isna(v) else v for v in y]
        if not same:
            problems.append(f"{name}: column {column} differs between the engines")
    return problems


def api_results() -> dict[str, pd.DataFrame]:
    """A few calls of the Python API on the warehouse the environment names (BIASMIRROR_TARGET picks the engine)."""
    from ibis import _

    from biasmirror import Warehouse

    with Warehouse() as wh:
        counted = (wh.table("paired_metrics").filter(_.stratum_name == "overall")
                   .group_by(["dataset", "model"]).aggregate(n=_.count(), estimates=_.estimate.sum()).to_pandas())
        return {
            "marts()": wh.marts(),
            "paired_metrics(dataset='dyads', stratum='overall')": wh.paired_metrics(dataset="dyads", stratum="overall"),
            "mart('cohort_flow')": wh.mart("cohort_flow"),
            "mart('triage_models', schema='inference', model='rf-small')[a few columns]":
                wh.mart("triage_models", schema="inference", model="rf-small")[
                ["dataset", "model", "kind", "parameter_count", "training_setting", "scored_settings"]],
            "table('paired_metrics') overall rows per data set and model (ibis)": counted,
        }


def compare_api(work: Path) -> list[str]:
    """Step 7: the Python API's answers on both engines."""
    from biasmirror.warehouse.postgres import describe

    with environment(**duckdb_env(work)):
        left = api_results()
    with environment(**postgres_env(work)):
        right = api_results()
        from biasmirror import Warehouse

        if repr(Warehouse()) != f"Warehouse({describe()})":
            return [f"Warehouse() with BIASMIRROR_TARGET=postgres is {Warehouse()!r}, not the PostgreSQL database"]
    problems = []
    for name, frame in left.items():
        found = differences(name, frame, right[name], DRAW_COLUMNS)
        if not frame.empty and not found:
            print(f"Warehouse.{name}: {len(frame)} rows, identical")
        elif frame.empty:
            found.append(f"Warehouse.{name}: no rows on DuckDB (nothing compared)")
        problems += found
    return problems


CHECKED_LAYERS = ("cohort", "inference", "audit")


def run_check(work: Path, engine: str, folder: str, *options: str) -> dict:
    """`biasmirror check` with its Data Docs under DIR/<folder>/data_docs: its summary.json, and its output."""
    import json

    docs = work / folder / "data_docs"
    (docs / "summary.json").unlink(missing_ok=True)
    output = biasmirror(engine, "check", "--docs", str(docs), *options, allowed=(0, 1))  # 1: a gate failed
    if not (docs / "summary.json").is_file():
        raise SystemExit(f"{engine}: `biasmirror check` wrote no summary.json:\n{output}")
    summary = json.loads((docs / "summary.json").read_text(encoding="utf-8"))
    summary["output"] = output
    return summary


def verdicts(summary: dict, layers: tuple[str, ...]) -> dict[tuple[str, str, str, str], str]:
    """(suite, batch, column, rule) -> 'passed', or 'failed: ' and what broke it, for the expectations of these
    layers."""
    return {(o["suite"], o["subject"], o["column"] or "", o["rule"]):
            "passed" if o["success"] else f"failed: {o['detail']}"
            for o in summary["outcomes"] if o["layer"] in layers}


def compare_checks(work: Path) -> list[str]:
    """Step 8: `biasmirror check` on both engines."""
    with environment(**duckdb_env(work)):
        left = run_check(work, "DuckDB", "duckdb", "--mimic-root", str(work / "mimic"),
                         "--bordeaux-root", str(work / "bordeaux"))
    with environment(**postgres_env(work)):
        right = run_check(work, "PostgreSQL", "postgres")
    problems = []
    a, b = verdicts(left, CHECKED_LAYERS), verdicts(right, CHECKED_LAYERS)
    if not a:
        problems.append("`biasmirror check` on DuckDB checked no expectation of the cohort, inference and audit layers")
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            problems.append(f"`biasmirror check`: {key[0]} ({key[1]}) {key[3]}: DuckDB {a.get(key, 'absent')}, "
                            f"PostgreSQL {b.get(key, 'absent')}")
    if not verdicts(left, ("raw",)):
        problems.append("`biasmirror check` on DuckDB checked no raw file")
    if verdicts(right, ("raw",)):
        problems.append("`biasmirror check` on PostgreSQL checked raw files, though both data sets are read from tables")
    for dataset in ("mimic", "bordeaux"):
        line = f"{dataset} is read from the database's tables"
        if not any(s["layer"] == "raw" and line in s["reason"] for s in right["skipped"]) or line not in right["output"]:
            problems.append(f"`biasmirror check` on PostgreSQL does not say that {dataset} is read from tables")
    for engine, summary in (("DuckDB", left), ("PostgreSQL", right)):
        for layer in ("raw", *CHECKED_LAYERS):
            outcomes = [o for o in summary["outcomes"] if o["layer"] == layer]
            skipped = [s for s in summary["skipped"] if s["layer"] == layer]
            failed = sum(not o["success"] for o in outcomes)
            log(f"{engine}: `biasmirror check` {layer}: {len(outcomes)} expectations, {failed} failed"
                + (f", {len(skipped)} skipped" if skipped else ""))
    if a == b and a:
        log(f"`biasmirror check`: the same verdict on both engines for the {len(a)} expectations of the cohort, "
            f"inference and audit layers ({sum(v == 'passed' for v in a.values())} passed, "
            f"{sum(v != 'passed' for v in a.values())} failed in the same way)")
    return problems


FORGOTTEN = ("dyads", "imported-model")
REMOVED_LINE = re.compile(r"Removed ([\d,]+) rows of")


def held(con, dataset: str, model: str) -> dict[str, int]:
    """Rows of a data set's model in the inference tables and marts that `forget` and a build must empty."""
    return {relation: con.execute(f"select count(*) from {relation} where dataset = ? and model = ?",
                                  [dataset, model]).fetchone()[0]
            for relation in ("inference.imported_pairs", "inference.imported_pair_strata", "audit.paired_metrics",
                             "audit.pair_outcomes")}


def forget_and_rebuild(work: Path, variables: dict, duckdb_file: Path) -> list[str]:
    """Step 9: `biasmirror forget` of the imported model on both engines, a full build on each, and the model gone
    from both."""
    from biasmirror.dbt_runner import run_dbt
    from biasmirror.warehouse import connect

    dataset, model = FORGOTTEN
    removed, problems = {}, []
    for engine, env, build_vars in (("DuckDB", duckdb_env(work), duckdb_variables(work, variables)),
                                    ("PostgreSQL", postgres_env(work), postgres_variables(variables))):
        with environment(**env):
            with connect(read_only=True) as con:
                if not held(con, dataset, model)["audit.paired_metrics"]:
                    raise SystemExit(f"{engine}: audit.paired_metrics holds no rows of {dataset}/{model} to forget")
            output = biasmirror(engine, "forget", "--dataset", dataset, "--model", model, "--yes")
            found = REMOVED_LINE.search(output)
            if found is None:
                raise SystemExit(f"{engine}: `biasmirror forget` did not say what it removed:\n{output}")
            removed[engine] = int(found.group(1).replace(",", ""))
            if engine == "PostgreSQL" and "PostgreSQL database" not in output:
                problems.append("`biasmirror forget` on PostgreSQL does not name the database it removed rows from")
            log(f"{engine}: `biasmirror forget --dataset {dataset} --model {model}` removed {removed[engine]:,} rows; "
                "the whole project again")
            run_dbt("build", variables=build_vars)
            with connect(read_only=True) as con:
                for relation, left in held(con, dataset, model).items():
                    if left:
                        problems.append(f"{engine}: {relation} still holds {left} rows of {dataset}/{model} after "
                                        "forget and a full build")
    if removed["DuckDB"] != removed["PostgreSQL"] or not removed["DuckDB"]:
        problems.append(f"`biasmirror forget` removed {removed['DuckDB']} rows on DuckDB, {removed['PostgreSQL']} "
                        "on PostgreSQL")
    return problems


def parse_compiled(target_path: Path, dialect: str) -> int:
    import sqlglot

    compiled = sorted((target_path / "compiled" / "biasmirror" / "models").rglob("*.sql"))
    models = [p for p in compiled if not p.parent.name.endswith(".yml")]
    for path in models:
        sqlglot.parse_one(path.read_text(), read=dialect)
    return len(models)


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every cross-engine check (this one and scripts/spark_check.py): its folder and data size."""
    parser.add_argument("--work", type=Path, required=True, help="an empty folder for the data and warehouses")
    parser.add_argument("--stays", type=int, default=1500)
    parser.add_argument("--visits", type=int, default=800, help="visits of the synthetic Bordeaux extract")
    parser.add_argument("--resamples", type=int, default=1000)


def write_check_data(args: argparse.Namespace) -> Path:
    """The synthetic data of a check in args.work (created): MIMIC-IV files, a Bordeaux extract, imported pairs."""
    from biasmirror.synth.bordeaux import write_bordeaux
    from biasmirror.synth.mimic import write_mimic

    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    log(f"synthetic MIMIC-IV: {args.stays} stays")
    write_mimic(work / "mimic", stays=args.stays, seed=5, female_effect=0.9)
    log(f"synthetic Bordeaux extract: {args.visits} visits")
    write_bordeaux(work / "bordeaux", visits=args.visits, seed=6)
    imported_pairs().to_parquet(work / "pairs.parquet", index=False)
    return work


def check_variables(resamples: int) -> dict:
    """The vars of every build of a cross-engine check (this one and scripts/spark_check.py)."""
    # the implicit-bias study has few units (12 answers per category): its intervals need the project's B = 2000
    # for their widths to be compared within 5% (at B = 400 they differ by up to 15% from Monte Carlo noise alone)
    return {"bootstrap_resamples": resamples, "implicit_bootstrap_resamples": max(resamples, 2000),
            "term_bootstrap_resamples": resamples, "min_term_pairs": 20}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_arguments(parser)
    parser.add_argument("--duckdb-only", action="store_true")
    args = parser.parse_args(argv)
    work = write_check_data(args)
    variables = check_variables(args.resamples)
    duckdb_file = build_duckdb(work, variables)
    n = parse_compiled(work / "duckdb" / "target", "duckdb")
    log(f"sqlglot: {n} compiled models of the DuckDB build parse as duckdb")
    if args.duckdb_only:
        log(f"DuckDB warehouse: {duckdb_file}")
        return 0
    with environment(**duckdb_env(work)):
        duckdb_report = run_readers(work, "DuckDB", "duckdb")
    build_postgres(work, variables)
    n = parse_compiled(work / "postgres" / "target", "postgres")
    log(f"sqlglot: {n} compiled models of the PostgreSQL build parse as postgres")
    with environment(**postgres_env(work)):
        postgres_report = run_readers(work, "PostgreSQL", "postgres")
    problems = []
    if postgres_report != duckdb_report:
        problems.append(f"the reports differ: DuckDB's has {duckdb_report} figures, tables and no-data panels, "
                        f"PostgreSQL's {postgres_report}")
    if "PostgreSQL database" not in (work / "postgres" / "report" / "index.html").read_text(encoding="utf-8"):
        problems.append("the PostgreSQL report does not name the PostgreSQL database as its warehouse")
    log("comparing the rows the Python commands wrote")
    problems += compare_written_rows(duckdb_file)
    import compare_marts

    log("comparing every mart")
    marts = [str(duckdb_file), "postgres", "--intervals", "se", "--ignore-columns", MART_RUN_COLUMNS]
    status = compare_marts.main(marts)
    log("the Python API (biasmirror.Warehouse) on both engines")
    problems += compare_api(work)
    log("`biasmirror check` on both engines")
    problems += compare_checks(work)
    log("`biasmirror forget` on both engines, then a full build on each")
    problems += forget_and_rebuild(work, variables, duckdb_file)
    log("comparing the rows the Python commands wrote, after forget")
    problems += compare_written_rows(duckdb_file)
    log("comparing every mart, after forget")
    status = compare_marts.main(marts) or status
    for problem in problems:
        print(problem)
    return 1 if status or problems else 0

if __name__ == "__main__":
    sys.exit(main())
