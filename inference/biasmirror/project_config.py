"""dbt_project.yml as Python reads it: parsed once per version of the file, not once per var.

A build plan asks for the default of every var it compares (about thirty), and YAML parsing is slow enough in
pure Python to cost a second of an interactive build; the cache is keyed on the file's size and modification
time, so an edited project is read again."""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from biasmirror.paths import project_dir


def dbt_project(project: Path | None = None) -> dict[str, Any]:
    """The parsed dbt_project.yml of `project` (default: the project biasmirror builds); a copy the caller may
    change."""
    path = (project or project_dir()) / "dbt_project.yml"
    stat = path.stat()
    return copy.deepcopy(_parsed(path, stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=8)
def _parsed(path: Path, mtime_ns: int, size: int) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
