"""biasmirror.project_config: dbt_project.yml parsed once per version of the file, re-read when it changes,
and handed out as a copy no caller can corrupt for the next."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from biasmirror.build_record import project_var_default
from biasmirror.paths import project_dir
from biasmirror.project_config import _parsed, dbt_project


def test_the_project_file_is_what_yaml_reads() -> None:
    path = project_dir() / "dbt_project.yml"
    assert dbt_project() == yaml.safe_load(path.read_text(encoding="utf-8"))
    assert project_var_default("bootstrap_resamples") == dbt_project()["vars"]["bootstrap_resamples"]


def test_parsed_once_reread_when_edited_and_copies_handed_out(tmp_path: Path) -> None:
    (tmp_path / "dbt_project.yml").write_text("name: one\nvars:\n  n: 1\n", encoding="utf-8")
    _parsed.cache_clear()
    first = dbt_project(tmp_path)
    first["vars"]["n"] = 99  # a caller changing its copy changes nothing for the next
    assert dbt_project(tmp_path)["vars"]["n"] == 1
    assert _parsed.cache_info().misses == 1 and _parsed.cache_info().hits == 1
    (tmp_path / "dbt_project.yml").write_text("name: two\nvars:\n  n: 22\n", encoding="utf-8")
    stat = (tmp_path / "dbt_project.yml").stat()
    os.utime(tmp_path / "dbt_project.yml", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert dbt_project(tmp_path) == {"name": "two", "vars": {"n": 22}}
