"""Shared fixtures: an isolated warehouse (its own DuckDB file and dbt target/log folders) per test or per test
module. Helpers that tests import live in modules of their own (warehouse_workspace, pair_references)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warehouse_workspace import Workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture(scope="module")
def module_workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("warehouse"))
