"""One contract per raw source, read by both the pre-build check (dbt on-run-start) and `biasmirror check` (GX):
the same grammar of numbers and timestamps in both and in staging, unique ids with their rows, the row-count
guard of scheduled builds, validated vars, and one resolver of data set folders.

Real files and real dbt builds on small synthetic extracts; folders are passed through the environment
(BIASMIRROR_BORDEAUX_ROOT, BIASMIRROR_MIMIC_ROOT) where possible, which is one of the resolver's sources and
keeps dbt's partial parsing (a change of --vars re-parses the project).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from biasmirror.dbt_runner import DbtFailed
from biasmirror.paths import project_dir
from biasmirror.quality import run_checks
from biasmirror.quality.contracts import CODED_KINDS, ContractError, raw_contracts
from biasmirror.synth.bordeaux import write_bordeaux
from biasmirror.synth.mimic import write_mimic
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

VISITS = 60
FREE_TEXT = {("bordeaux", "visits", "complaint_label"), ("bordeaux", "visits", "triage_note"),
             ("bordeaux", "visits", "history"), ("mimic", "triage", "pain"), ("mimic", "triage", "chiefcomplaint"),
             ("mimic", "discharge", "text")}


# --------------------------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bordeaux_extract(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    root = tmp_path_factory.mktemp("bordeaux_source")
    write_bordeaux(root, visits=VISITS, seed=21)
    return pd.read_csv(root / "visits.csv.gz", dtype=str, keep_default_na=False)


def write_extract(frame: pd.DataFrame, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / "visits.csv", index=False)
    return folder


def failed_message(capsys) -> str:
    return capsys.readouterr().out


# --------------------------------------------------------------------------------------------------------------
# The contract itself
# --------------------------------------------------------------------------------------------------------------
def test_every_raw_column_declares_its_kind_and_the_python_side_reads_the_yaml() -> None:
    declared: dict[tuple[str, str, str], dict] = {}
    for path in (project_dir() / "models" / "staging").glob("*/_*__sources.yml"):
        for source in yaml.safe_load(path.read_text())["sources"]:
            if not (source.get("meta") or {}).get("root_var"):
                continue
            for table in source["tables"]:
                for column in table["columns"]:
                    declared[(source["meta"]["dataset"], table["name"], column["name"])] = column.get("meta") or {}
    assert all("kind" in meta for meta in declared.values()), [k for k, m in declared.items() if "kind" not in m]
    assert {key for key, meta in declared.items() if meta["kind"] == "free_text"} == FREE_TEXT
    contracts = raw_contracts()
    read = {(t.dataset, t.table, c.name): c for t in contracts.tables for c in t.columns}
    assert set(read) == set(declared)
    for key, meta in declared.items():
        column = read[key]
        assert column.kind == meta["kind"] and column.unique == bool(meta.get("unique"))
        assert column.accepted_values == (tuple(map(str, meta["accepted_values"])) if meta.get("accepted_values") else None)
    # MIMIC's codes and ids live in the YAML like Bordeaux's (no Python copy of them)
    assert read[("mimic", "edstays", "gender")].accepted_values == ("F", "M")
    assert read[("mimic", "triage", "acuity")].accepted_values == ("1", "2", "3", "4", "5")
    assert {k for k, c in read.items() if c.unique} == {
        ("bordeaux", "visits", "visit_id"), ("mimic", "edstays", "stay_id"), ("mimic", "triage", "stay_id"),
        ("mimic", "patients", "subject_id"), ("mimic", "admissions", "hadm_id"), ("mimic", "discharge", "note_id")}
    assert read[("mimic", "triage", "temperature")].plausible.unit == "deg F"
    # the synthetic generators write files that hold every contracted column
    from biasmirror.synth import bordeaux as synth_bordeaux, mimic as synth_mimic

    assert list(synth_bordeaux.COLUMNS) == [c.name for c in contracts.for_dataset("bordeaux")[0].columns]
    for table in contracts.for_dataset("mimic"):
        written = [columns for name, columns in synth_mimic.COLUMNS.items() if name == table.files[0]]
        assert written and {c.name for c in table.columns} <= set(written[0]), table.label
    import biasmirror.quality.profiles as profiles

    assert not [name for name in vars(profiles.DatasetProfile)["__dataclass_fields__"] if name.startswith("raw")]


def test_the_folder_a_data_set_needs_comes_from_the_contract(tmp_path: Path) -> None:
    from biasmirror.datasets import expected_files, missing_files

    for dataset in ("mimic", "bordeaux"):
        assert expected_files(dataset) == [t.files for t in raw_contracts().for_dataset(dataset)]
    assert expected_files("bordeaux") == [("visits.parquet", "visits.csv.gz", "visits.csv")]
    assert missing_files("mimic", tmp_path) == ["ed/edstays.csv.gz", "ed/triage.csv.gz", "hosp/patients.csv.gz",
                                                "hosp/admissions.csv.gz", "note/discharge.csv.gz"]
    with pytest.raises(ValueError, match="Unknown data set 'nosuch'; known: bordeaux, mimic"):
        expected_files("nosuch")


def test_a_column_without_a_kind_is_refused(tmp_path: Path) -> None:
    from biasmirror.quality.contracts import _load

    project = tmp_path / "project"
    (project / "models" / "staging" / "x").mkdir(parents=True)
    shutil.copy(project_dir() / "dbt_project.yml", project / "dbt_project.yml")
    (project / "models" / "staging" / "x" / "_x__sources.yml").write_text(yaml.safe_dump({"version": 2, "sources": [{
        "name": "x", "meta": {"root_var": "x_root", "dataset": "x"},
        "tables": [{"name": "t", "meta": {"file": "t.csv"}, "columns": [{"name": "note", "data_type": "varchar"}]}]}]}))
    with pytest.raises(ContractError, match=r"x.t column 'note': meta.kind must be one of .*mark free-text columns"):
        _load(project)


def test_redaction_quotes_only_short_coded_values() -> None:
    from biasmirror.quality.redaction import describe_error, describe_header, describe_rows, describe_value

    grammar = raw_contracts().grammar
    note = "Patiente de 67 ans, agitée, elle est tombée dans l'escalier"
    assert describe_value("7", "code", grammar) == "'7'"
    assert describe_value("V00012", "id", grammar) == "'V00012'"
    assert describe_value("12/03/2021 10:00", "timestamp", grammar) == "'12/03/2021 10:00'"
    assert describe_value(note, "code", grammar) == f"a text of {len(note)} characters"
    assert describe_value("F", "free_text", grammar) == "a text of 1 character"
    assert describe_value("HTA diabète", "code", grammar) == "a text of 11 characters"  # a space: not a code
    assert describe_value("x" * 21, "code", grammar) == "a text of 21 characters"
    assert describe_value(98.6, None, grammar) == "98.6" and describe_value(3, None, grammar) == "3"
    assert describe_value("F", None, grammar) == "a text of 1 character"  # undeclared columns quote nothing
    assert describe_header("triage_level") == "triage_level" and describe_header(note) == f"a text of {len(note)} characters"
    assert describe_rows([9, 3, 4, 5, 6, 7, 8]) == "rows 3, 4, 5, 6, 7, ..." and describe_rows([2]) == "row 2"
    error = duckdb.InvalidInputException(f"CSV Error on Line: 3\nOriginal Line: 1,'{note}'")
    assert note not in describe_error(error) and "CSV Error on Line: 3" in describe_error(error)
    assert set(grammar.quotable) == CODED_KINDS


# --------------------------------------------------------------------------------------------------------------
# One grammar: the pre-build check, the GX gates and staging agree value by value
# --------------------------------------------------------------------------------------------------------------
VALID_NUMBERS = {"37": 37.0, "37.5": 37.5, "37,5": 37.5, "+38": 38.0, "-1": -1.0, ".5": 0.5, "1e3": 1000.0,
                 "3.75E1": 37.5, " 39 ": 39.0}
INVALID_NUMBERS = ["1_000", "inf", "nan", "0x10", "37.", "1.2.3", "37 C", "--1", "1e", "38°"]
VALID_TIMESTAMPS = {"2021-03-12": "2021-03-12 00:00:00", "2021-03-12 10:00": "2021-03-12 10:00:00",
                    "2021-03-12T10:00:30": "2021-03-12 10:00:30", "2021-03-12 10:00:00.5": "2021-03-12 10:00:00.5"}
INVALID_TIMESTAMPS = ["2021-02-30", "12/03/2021 10:00", "2021-3-1", "2021-03-12 10:00:00+01", "2021-03-12 25:00"]


def _rows_of(message: str, column: str, rule: str) -> list[int]:
    found = re.search(rf"column {column}, rule {re.escape(rule)}: (\d+) row\(s\) break it.*? at rows? ([0-9, .]+)", message)
    assert found, (column, rule, message)
    return [int(r) for r in found.group(2).replace(".", "").split(",") if r.strip()]


def test_dbt_gx_and_staging_read_numbers_and_timestamps_with_one_grammar(
        bordeaux_extract: pd.DataFrame, tmp_path: Path, capsys) -> None:
    frame = bordeaux_extract.copy()
    stamps = list(VALID_TIMESTAMPS) + INVALID_TIMESTAMPS
    frame.loc[:len(VALID_NUMBERS) - 1, "heart_rate"] = list(VALID_NUMBERS)
    # the invalid forms spread over three columns, so that each column's dbt message lists all its rows (<= 5)
    targets = ["heart_rate", "systolic_bp", "diastolic_bp"]
    invalid: dict[str, list[int]] = {column: [] for column in targets}
    for offset, value in enumerate(INVALID_NUMBERS):
        row = len(VALID_NUMBERS) + offset
        frame.loc[row, targets[offset % 3]] = value
        invalid[targets[offset % 3]].append(row + 1)  # rows are numbered from 1
    for index, value in enumerate(stamps):
        frame.loc[index, "arrival_time"] = value
    invalid_stamps = [len(VALID_TIMESTAMPS) + i + 1 for i in range(len(INVALID_TIMESTAMPS))]
    broken = write_extract(frame, tmp_path / "broken")

    ws = Workspace(tmp_path / "w")
    with pytest.raises(DbtFailed):
        ws.build(select=["stg_bordeaux__visits"], BIASMIRROR_BORDEAUX_ROOT=str(broken))
    message = failed_message(capsys)
    dbt_rows = {column: _rows_of(message, column, "a number (double)") for column, rows in invalid.items() if rows}
    dbt_rows["arrival_time"] = _rows_of(message, "arrival_time", "a timestamp (ISO 8601)")
    assert dbt_rows == {**{c: r for c, r in invalid.items() if r}, "arrival_time": invalid_stamps}

    report = run_checks(tmp_path / "docs", layers=["raw"], roots={"bordeaux": broken})
    gx_rows = {}
    for outcome in report.failed("visits.values"):
        column = outcome.column.split(" [")[0]
        if "is a number" in outcome.rule or "ISO 8601" in outcome.rule:
            gx_rows[column] = [int(r) for r in re.search(r" at rows? ([0-9, ]+)", outcome.detail).group(1).split(",")]
    assert gx_rows == dbt_rows

    # the valid forms pass both and staging reads them as the grammar says
    frame.loc[len(VALID_NUMBERS):, ["heart_rate", "systolic_bp", "diastolic_bp"]] = \
        bordeaux_extract.loc[len(VALID_NUMBERS):, ["heart_rate", "systolic_bp", "diastolic_bp"]].to_numpy()
    frame.loc[len(VALID_TIMESTAMPS):, "arrival_time"] = bordeaux_extract.loc[len(VALID_TIMESTAMPS):, "arrival_time"].to_numpy()
    good = write_extract(frame, tmp_path / "good")
    ws.build(select=["stg_bordeaux__visits"], BIASMIRROR_BORDEAUX_ROOT=str(good))
    report = run_checks(tmp_path / "docs2", layers=["raw"], roots={"bordeaux": good})
    assert not [o for o in report.failures if "is a number" in o.rule or "ISO 8601" in o.rule], report.failures
    staged = ws.query("select visit_id, heart_rate, cast(arrived_at as varchar) as arrived_at "
                      "from staging.stg_bordeaux__visits").set_index("visit_id")
    ids = frame.visit_id
    assert [staged.heart_rate[ids[i]] for i in range(len(VALID_NUMBERS))] == list(VALID_NUMBERS.values())
    assert [staged.arrived_at[ids[i]] for i in range(len(VALID_TIMESTAMPS))] == list(VALID_TIMESTAMPS.values())


# --------------------------------------------------------------------------------------------------------------
# Ids, row counts and the build record
# --------------------------------------------------------------------------------------------------------------
def test_duplicate_ids_stop_the_build_naming_their_rows(bordeaux_extract: pd.DataFrame, tmp_path: Path, capsys) -> None:
    frame = bordeaux_extract.copy()
    frame.loc[6, "visit_id"] = frame.loc[2, "visit_id"]
    bordeaux = write_extract(frame, tmp_path / "bordeaux")
    mimic = tmp_path / "mimic"
    write_mimic(mimic, stays=80, seed=4)
    triage = pd.read_csv(mimic / "ed" / "triage.csv.gz", dtype=str, keep_default_na=False)
    triage.loc[9, "stay_id"] = triage.loc[0, "stay_id"]
    with gzip.open(mimic / "ed" / "triage.csv.gz", "wt") as handle:
        triage.to_csv(handle, index=False)
    patients = pd.read_csv(mimic / "hosp" / "patients.csv.gz", dtype=str, keep_default_na=False)
    patients = pd.concat([patients, patients.iloc[[4]]], ignore_index=True)
    with gzip.open(mimic / "hosp" / "patients.csv.gz", "wt") as handle:
        patients.to_csv(handle, index=False)
    ws = Workspace(tmp_path / "w")
    with pytest.raises(DbtFailed):
        ws.build(BIASMIRROR_BORDEAUX_ROOT=str(bordeaux), BIASMIRROR_MIMIC_ROOT=str(mimic))
    out = failed_message(capsys)
    assert (f"column visit_id, rule unique (no two rows share a value): 2 row(s) break it "
            f"(e.g. '{frame.visit_id[2]}') at rows 3, 7") in out
    assert (f"column stay_id, rule unique (no two rows share a value): 2 row(s) break it "
            f"(e.g. '{triage.stay_id[0]}') at rows 1, 10") in out
    assert (f"column subject_id, rule unique (no two rows share a value): 2 row(s) break it "
            f"(e.g. '{patients.subject_id[4]}') at rows 5, {len(patients)}") in out
    # every broken source is listed in the one message, and nothing was built
    assert "Source bordeaux.visits" in out and "Source mimic.triage" in out and "Source mimic.patients" in out
    assert ws.query("select count(*) as n from information_schema.tables where table_schema = 'staging'").n[0] == 0


def test_an_empty_or_shrunken_extract_stops_the_build_and_a_deliberate_shrink_passes(
        bordeaux_extract: pd.DataFrame, tmp_path: Path, capsys) -> None:
    ws = Workspace(tmp_path / "w")
    folder = tmp_path / "extract"

    def build(frame: pd.DataFrame, variables: dict | None = None) -> None:
        write_extract(frame, folder)
        ws.build(select=["stg_bordeaux__visits"], variables=variables, BIASMIRROR_BORDEAUX_ROOT=str(folder))

    def staged() -> int:
        return int(ws.query("select count(*) as n from staging.stg_bordeaux__visits").n[0])

    build(bordeaux_extract)
    assert staged() == VISITS
    # a nightly export that wrote only the header
    with pytest.raises(DbtFailed):
        build(bordeaux_extract.iloc[:0])
    out = failed_message(capsys)
    assert "rule at least one row: the file has no rows (only a header?); building on it would empty the bordeaux cohort." in out
    assert "--vars '{allow_raw_shrink: true}'" in out
    assert staged() == VISITS
    # a fall of 60% against the last successful build
    with pytest.raises(DbtFailed):
        build(bordeaux_extract.iloc[:24])
    out = failed_message(capsys)
    assert f"rule row count: 24 row(s), 60.0% fewer than the {VISITS} read by the last successful build (" in out
    assert "a fall of more than 50.0% (var max_raw_row_drop) stops the build" in out
    assert staged() == VISITS
    # a fall of 40% is within the default share; 60% passes with a larger share or the explicit override
    build(bordeaux_extract.iloc[:36])
    assert staged() == 36
    build(bordeaux_extract.iloc[:12], {"max_raw_row_drop": 0.7})
    assert staged() == 12
    build(bordeaux_extract.iloc[:0], {"allow_raw_shrink": True})
    assert staged() == 0
    counts = ws.query("select c.n_rows from inference.raw_source_counts c join inference.dbt_builds b "
                      "using (invocation_id) order by b.finished_at")
    assert list(counts.n_rows) == [VISITS, 36, 12, 0]
    # the counts of refused builds were never kept
    assert ws.query("select count(*) as n from inference.raw_source_counts").n[0] == 4


def test_a_build_that_fails_after_the_check_records_nothing(bordeaux_extract: pd.DataFrame, tmp_path: Path) -> None:
    folder = write_extract(bordeaux_extract, tmp_path / "extract")
    ws = Workspace(tmp_path / "w")
    ws.build(select=["stg_bordeaux__visits", "stg_inference__imported_pairs"], BIASMIRROR_BORDEAUX_ROOT=str(folder))
    with duckdb.connect(str(ws.working)) as con:  # a row that breaks a dbt test of the imported pairs
        con.execute("insert into inference.imported_pairs (dataset, model, setting, pair_id, original_sex, "
                    "original_level, counterfactual_level) values ('d', 'm', 'bogus', 'p1', 'F', 2, 3)")
    with pytest.raises(DbtFailed):
        ws.build(select=["stg_bordeaux__visits", "stg_inference__imported_pairs"], BIASMIRROR_BORDEAUX_ROOT=str(folder))
    builds = ws.query("select invocation_id, command, vars, models from inference.dbt_builds")
    assert len(builds) == 1 and builds.command[0] == "build"
    assert json.loads(builds.models[0]) == ["stg_bordeaux__visits", "stg_inference__imported_pairs"]
    assert json.loads(builds.vars[0])["test_fraction"] == 0.5
    counts = ws.query("select invocation_id from inference.raw_source_counts")
    assert list(counts.invocation_id) == list(builds.invocation_id)


# --------------------------------------------------------------------------------------------------------------
# Vars
# --------------------------------------------------------------------------------------------------------------
def test_every_bad_var_is_named_with_its_value_and_what_is_allowed(tmp_path: Path, capsys) -> None:
    ws = Workspace(tmp_path / "w")
    bad = {"test_fraction": 2, "bootstrap_resamples": "abc", "ci_level": 1, "min_stratum_pairs": -1,
           "age_band_edges": [40, 18], "term_settings": [], "implicit_bootstrap_resamples": 2.5,
           "split_seed": True, "allow_raw_shrink": "maybe", "max_raw_row_drop": 1.5, "bordeaux_root": 3,
           "test_fracton": 0.3}
    with pytest.raises(DbtFailed):
        ws.build(select=["stg_bordeaux__visits"], variables=bad)
    out = failed_message(capsys)
    expected = [
        'var test_fraction = 2: allowed is a number strictly between 0 and 1 (the share of records in the test split)',
        'var bootstrap_resamples = "abc": allowed is an integer from 1 to 100000',
        'var ci_level = 1: allowed is a number strictly between 0 and 1',
        'var min_stratum_pairs = -1: allowed is an integer at least 0',
        'var age_band_edges = [40, 18]: allowed is a non-empty list of integers from 0 to 150, strictly increasing',
        'var term_settings = []: allowed is a non-empty list of values among full, text_only, tabular_only',
        'var implicit_bootstrap_resamples = 2.5: allowed is an integer from 1 to 100000',
        'var split_seed = true: allowed is an integer',
        'var allow_raw_shrink = "maybe": allowed is true or false',
        'var max_raw_row_drop = 1.5: allowed is a number from 0 to 1',
        'var bordeaux_root = 3: allowed is a text',
        'var test_fracton is not a var of this project; the vars are: age_band_edges, allow_raw_shrink,',
    ]
    for line in expected:
        assert line in out, (line, out)
    assert "Invalid var(s), nothing was built" in out
    assert not ws.warehouse.exists() or ws.query(
        "select count(*) as n from information_schema.tables where table_schema = 'staging'").n[0] == 0
    # the negative fraction and a text that reads as a valid value
    with pytest.raises(DbtFailed):
        ws.build(select=["stg_bordeaux__visits"], variables={"test_fraction": -0.5})
    assert "var test_fraction = -0.5: allowed is a number strictly between 0 and 1" in failed_message(capsys)
    ws.build(select=["stg_bordeaux__visits"], variables={"bootstrap_resamples": "200", "test_fraction": "0.3"})


# --------------------------------------------------------------------------------------------------------------
# One resolver of data set folders, and `check` following the build
# --------------------------------------------------------------------------------------------------------------
def test_folders_resolve_in_one_order_for_every_command(tmp_path: Path, monkeypatch) -> None:
    from biasmirror.datasets import register_root, resolve_roots

    folders = {}
    for name in ("registered", "env", "var", "option"):
        folders[name] = tmp_path / name
        write_bordeaux(folders[name], visits=10, seed=1)
    ws = Workspace(tmp_path / "w")
    with ws.active():
        register_root("bordeaux", folders["registered"])
        with duckdb.connect(str(ws.working), read_only=True) as con:
            monkeypatch.delenv("BIASMIRROR_BORDEAUX_ROOT", raising=False)
            assert resolve_roots(con=con)["bordeaux"].origin == "registered"
            monkeypatch.setenv("BIASMIRROR_BORDEAUX_ROOT", str(folders["env"]))
            assert resolve_roots(con=con)["bordeaux"].root == folders["env"]
            resolved = resolve_roots(variables={"bordeaux_root": str(folders["var"])}, con=con)["bordeaux"]
            assert (resolved.root, resolved.origin) == (folders["var"], "var bordeaux_root")
            resolved = resolve_roots({"bordeaux": folders["option"]}, {"bordeaux_root": str(folders["var"])}, con)
            assert resolved["bordeaux"].origin == "option"
            assert "mimic" not in resolved


def test_check_follows_the_environment_and_the_vars_the_build_used(tmp_path: Path, monkeypatch) -> None:
    """`check` reads raw files from BIASMIRROR_MIMIC_ROOT like dbt does, and expects the test share the cohort
    was built with (--vars test_fraction: 0.3), not dbt_project.yml's 0.5."""
    from biasmirror.cli import app

    mimic = tmp_path / "mimic"
    write_mimic(mimic, stays=300, seed=8)
    ws = Workspace(tmp_path / "w")
    ws.build(select=["+triage_cohort", "exclusion_steps"], variables={"test_fraction": 0.3}, BIASMIRROR_MIMIC_ROOT=str(mimic))
    share = ws.query("select avg(case when split = 'test' then 1.0 else 0 end) as s from audit.triage_cohort").s[0]
    assert 0.2 < share < 0.4
    runner = CliRunner()
    monkeypatch.setenv("BIASMIRROR_MIMIC_ROOT", str(mimic))
    with ws.active():
        result = runner.invoke(app, ["check", "--docs", str(tmp_path / "docs"), "--layer", "raw", "--layer", "cohort"])
    assert result.exit_code == 0, result.output
    assert f"mimic folder: {mimic} (env BIASMIRROR_MIMIC_ROOT)" in result.output
    assert re.search(r"test_fraction: 0\.3 \(the build of \d{4}-\d{2}-\d{2} ", result.output), result.output
    assert "biasmirror.raw.mimic.triage.values" in result.output
    with ws.active():
        told = runner.invoke(app, ["check", "--docs", str(tmp_path / "d2"), "--layer", "cohort",
                                   "--vars", "{test_fraction: 0.5}"])
    assert told.exit_code == 1 and "test_fraction: 0.5 (--vars)" in told.output
    assert "of test_fraction = 0.5" in told.output
    with ws.active():
        bad = runner.invoke(app, ["check", "--docs", str(tmp_path / "d3"), "--vars", "{test_fraction: 2}"])
    assert bad.exit_code == 1
    assert "--vars test_fraction = 2: allowed is a number strictly between 0 and 1" in bad.output
