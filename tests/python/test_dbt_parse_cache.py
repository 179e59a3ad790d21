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
    """A small project: a YAML test argument reads var threshold, a model's config var materialization and its
    SQL body var resamples (read when it runs); dbt_project.yml declares defaults for all three."""
    (root / "models" / "marts").mkdir(parents=True)
    (root / "macros").mkdir()
    (root / "dbt_project.yml").write_text("name: p\nvars:\n  threshold: 1\n  resamples: 10\n"
                                          "  materialization: table\nmodel-paths: [models]\n")
    (root / "models" / "marts" / "a.sql").write_text(
        "{{ config(materialized=var('materialization', 'table')) }}\nselect {{ var('resamples') }} as x\n")
    (root / "models" / "marts" / "_marts__models.yml").write_text(
        "models:\n  - name: a\n    data_tests:\n      - dbt_utils.expression_is_true:\n"
        "          arguments: {expression: \"x >= {{ var('threshold') }}\"}\n")
    (root / "macros" / "m.sql").write_text("{% macro m() %}{{ var('resamples') }}{% endmacro %}\n")
    return root


def test_the_vars_a_parse_reads_are_those_of_yaml_configs_and_references() -> None:
    from biasmirror.paths import project_dir

    read = parse_cache.parse_vars(project_dir())
    assert "min_term_pairs" in read  # a data test's argument in YAML
    # read only when nodes run: the data set folders, the bootstrap, the publish switches
    assert not read & {"mimic_root", "bordeaux_root", "bootstrap_resamples", "bootstrap_seed", "publish_compact",
                       "remember_dataset_roots", "allow_raw_shrink"}


def test_the_key_changes_with_what_a_parse_reads_and_not_with_where_files_are(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    assert parse_cache.parse_vars(project) == {"threshold", "materialization"}
    base = {"threshold": 1, "resamples": 10}
    with scoped_env({"BIASMIRROR_TARGET": None, "BIASMIRROR_WAREHOUSE": "/a/w.duckdb"}):
        key = parse_cache.parse_key(project, base, "w")
        assert parse_cache.parse_key(project, dict(base), "w") == key
        # where the warehouse files, the artifacts and the raw extracts are, and the vars read only when nodes
        # run: not read by the parse
        with scoped_env({"BIASMIRROR_WAREHOUSE": "/b/w.duckdb", "BIASMIRROR_WORKING_COPY": "/b/w.work/w.duckdb",
                         "DBT_TARGET_PATH": "/b/target", "BIASMIRROR_MIMIC_ROOT": "/data/mimic"}):
            assert parse_cache.parse_key(project, base, "w") == key
        assert parse_cache.parse_key(project, {**base, "resamples": 11, "mimic_root": "/data"}, "w") == key
        # a var the parse reads, the database name (written into every node), the engine, a changed or added file
        changed = {
            "yaml var": parse_cache.parse_key(project, {**base, "threshold": 2}, "w"),
            "config var": parse_cache.parse_key(project, {**base, "materialization": "view"}, "w"),
            "database": parse_cache.parse_key(project, base, "other"),
        }
        with scoped_env({"BIASMIRROR_TARGET": "postgres"}):
            changed["engine"] = parse_cache.parse_key(project, base, "w")
        model = project / "models" / "marts" / "a.sql"
        model.write_text(model.read_text() + "-- edited\n")
        os.utime(model, ns=(time.time_ns(), time.time_ns() + 10**9))
        changed["edited model"] = parse_cache.parse_key(project, base, "w")
        (project / "macros" / "n.sql").write_text("{% macro n() %}2{% endmacro %}\n")
        changed["added macro"] = parse_cache.parse_key(project, base, "w")
    assert len({key, *changed.values()}) == len(changed) + 1, changed


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
