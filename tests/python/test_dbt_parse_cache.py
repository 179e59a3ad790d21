"""The parsed project kept in the process (biasmirror.dbt_parse_cache): a parse is reused only when nothing it
reads has changed, and a build on a reused parse builds what a build that parsed builds."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from biasmirror import dbt_parse_cache as parse_cache
from biasmirror.paths import scoped_env
from warehouse_workspace import Workspace


def _project(root: Path) -> Path:
    (root / "models" / "marts").mkdir(parents=True)
    (root / "macros").mkdir()
    (root / "dbt_project.yml").write_text("name: p\n")
    (root / "models" / "marts" / "a.sql").write_text("select 1 as x\n")
    (root / "macros" / "m.sql").write_text("{% macro m() %}1{% endmacro %}\n")
    return root


def test_the_key_changes_with_what_a_parse_reads_and_not_with_where_files_are(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    base = {"min_term_pairs": 5, "bootstrap_resamples": 10}
    with scoped_env({"BIASMIRROR_TARGET": None, "BIASMIRROR_WAREHOUSE": "/a/w.duckdb"}):
        key = parse_cache.parse_key(project, base, "w")
        assert parse_cache.parse_key(project, dict(base), "w") == key
        # where the warehouse files, the artifacts and the raw extracts are, and the vars only running nodes read
        with scoped_env({"BIASMIRROR_WAREHOUSE": "/b/w.duckdb", "BIASMIRROR_WORKING_COPY": "/b/w.work/w.duckdb",
                         "DBT_TARGET_PATH": "/b/target", "BIASMIRROR_MIMIC_ROOT": "/data/mimic"}):
            assert parse_cache.parse_key(project, base, "w") == key
        assert parse_cache.parse_key(project, {**base, "bootstrap_resamples": 11, "mimic_root": "/data"}, "w") == key
        # any other var, the database name (written into every node), the engine, a changed or added file
        changed = {
            "other var": parse_cache.parse_key(project, {**base, "min_term_pairs": 6}, "w"),
            "new var": parse_cache.parse_key(project, {**base, "gate_max_pdr": 0.05}, "w"),
            "database": parse_cache.parse_key(project, base, "other"),
        }
        with scoped_env({"BIASMIRROR_TARGET": "postgres"}):
            changed["engine"] = parse_cache.parse_key(project, base, "w")
        model = project / "models" / "marts" / "a.sql"
        model.write_text("select 2 as x\n")
        os.utime(model, ns=(time.time_ns(), time.time_ns() + 10**9))
        changed["edited model"] = parse_cache.parse_key(project, base, "w")
        (project / "macros" / "n.sql").write_text("{% macro n() %}2{% endmacro %}\n")
        changed["added macro"] = parse_cache.parse_key(project, base, "w")
    assert len({key, *changed.values()}) == len(changed) + 1, changed


# A value other than the default for every var of RUN_TIME_VARS (of the right type: a parse renders them).
OTHER_VALUES = {
    "mimic_root": "/elsewhere/mimic", "bordeaux_root": "/elsewhere/bordeaux", "remember_dataset_roots": ["mimic"],
    "split_seed": 77, "test_fraction": 0.3, "bootstrap_resamples": 37, "bootstrap_seed": 99,
    "bootstrap_unit": "patient", "term_bootstrap_resamples": 17, "implicit_bootstrap_resamples": 19,
    "ci_level": 0.9, "p_adjust_method": "bonferroni", "mde_power": 0.9, "min_stratum_pairs": 7,
    "min_changed_pairs": 3, "max_raw_row_drop": 0.5, "allow_raw_shrink": True, "publish_compact": True,
    "publish_warehouse": False,
}


def _parsed_nodes(tmp_path: Path, variables: dict) -> dict:
    """Every node, disabled ones included, of a fresh parse of the project with `variables`, as dbt writes it
    (the parse's own timestamps left out)."""
    from dbt.cli.main import dbtRunner

    from biasmirror.paths import project_dir

    project = str(project_dir())
    result = dbtRunner().invoke(["parse", "--project-dir", project, "--profiles-dir", project, "--quiet",
                                 "--no-partial-parse", "--target-path", str(tmp_path / "target"),
                                 "--log-path", str(tmp_path / "logs"), "--vars", json.dumps(variables)])
    assert result.success, result.exception
    manifest = result.result

    def plain(node) -> dict:
        document = node.to_dict()
        document.pop("created_at", None)
        return document

    nodes = {uid: plain(node) for uid, node in manifest.nodes.items()}
    nodes.update({f"disabled:{uid}": [plain(node) for node in found] for uid, found in manifest.disabled.items()})
    return nodes


@pytest.mark.slow
def test_the_run_time_vars_do_not_change_the_parse(tmp_path: Path) -> None:
    """The project parsed with every var of RUN_TIME_VARS changed is the project parsed with their defaults (so
    a kept parse serves another value of them); a var outside the set, such as a gate's threshold, does change
    it (so the comparison can fail)."""
    assert set(OTHER_VALUES) == parse_cache.RUN_TIME_VARS
    with scoped_env({"BIASMIRROR_WAREHOUSE": str(tmp_path / "w.duckdb")}):
        default = _parsed_nodes(tmp_path / "default", {})
        changed = _parsed_nodes(tmp_path / "changed", OTHER_VALUES)
        gated = _parsed_nodes(tmp_path / "gated", {"gate_max_pdr": 0.05})
    assert len(default) > 300
    differing = sorted(uid for uid in default.keys() | changed.keys() if default.get(uid) != changed.get(uid))
    assert not differing, differing
    assert default != gated


def test_a_kept_parse_is_lent_to_one_invocation_at_a_time_and_the_oldest_is_dropped() -> None:
    parse_cache.clear()
    parse_cache.keep("k", "manifest")
    assert parse_cache.take("k") == "manifest"
    assert parse_cache.take("k") is None  # in use: a second, concurrent invocation parses for itself
    for index in range(6):
        parse_cache.keep(f"k{index}", index)
    assert parse_cache.take("k0") is None and parse_cache.take("k1") is None and parse_cache.take("k5") == 5
    parse_cache.clear()


@pytest.mark.slow
def test_a_second_warehouse_reuses_the_parse_with_its_own_vars(tmp_path: Path) -> None:
    """Three empty warehouses built in one process: the second, with another B, is not parsed again (its dbt log
    has no parse) yet runs with its own B, and holds the tables and rows of the first; the third, with another
    value of a var the parse reads, is parsed again."""
    parse_cache.clear()
    first, second, third = (Workspace(tmp_path / name) for name in ("first", "second", "third"))
    for workspace in (first, second, third):
        workspace.root.mkdir()
    first.build(variables={"bootstrap_resamples": 20})
    second.build(variables={"bootstrap_resamples": 30})
    third.build(variables={"bootstrap_resamples": 20, "min_term_pairs": 7})

    def log(workspace: Workspace) -> str:
        return (workspace.root / "logs" / "dbt.log").read_text()

    def recorded_vars(workspace: Workspace) -> dict:
        return json.loads(workspace.query_published("select vars from inference.dbt_builds").vars[0])

    assert "Starting full parse" in log(first)
    assert "Starting full parse" not in log(second) and "partial parsing" not in log(second).lower()
    assert "Starting full parse" in log(third)
    assert recorded_vars(first)["bootstrap_resamples"] == 20 and recorded_vars(second)["bootstrap_resamples"] == 30
    tables = "select table_schema, table_name from information_schema.tables order by all"
    assert first.query_published(tables).equals(second.query_published(tables))
    assert len(first.query_published(tables)) > 80
    for schema, table in first.query_published(tables).itertuples(index=False):
        if (schema, table) == ("inference", "dbt_builds"):
            continue  # each build records its own invocation
        count = f'select count(*) as n from "{schema}"."{table}"'
        assert first.query_published(count).equals(second.query_published(count)), (schema, table)


@pytest.mark.slow
def test_an_error_in_the_project_stops_at_the_parse_said_once(tmp_path: Path) -> None:
    """A model that does not compile (a fork of the project): the build fails with dbt's error naming the model,
    the command itself never runs (one dbt invocation: the parse), and nothing is published."""
    import shutil

    from biasmirror.dbt_runner import DbtFailed, run_dbt
    from biasmirror.paths import project_dir

    fork = tmp_path / "project"
    source = project_dir()
    fork.mkdir()
    for name in ("dbt_project.yml", "profiles.yml"):
        shutil.copy(source / name, fork / name)
    for folder in ("models", "macros", "seeds", "analyses", "tests/dbt"):
        shutil.copytree(source / folder, fork / folder)
    (fork / "models" / "marts" / "zz_broken.sql").write_text("select {{ broken( }}\n")
    workspace = Workspace(tmp_path / "w")
    workspace.root.mkdir()
    parse_cache.clear()
    with workspace.active(BIASMIRROR_PROJECT_DIR=str(fork)), pytest.raises(DbtFailed, match="zz_broken"):
        run_dbt("build", extra=["--quiet"])
    log = (workspace.root / "logs" / "dbt.log").read_text()
    assert log.count("Running with dbt") == 1 and "zz_broken" in log
    assert not workspace.warehouse.exists()
