"""Shared fixtures: an isolated warehouse (its own DuckDB file and dbt target/log folders) per test or per test
module. Helpers that tests import live in modules of their own (warehouse_workspace, pair_references)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from warehouse_workspace import Workspace

# dbt's unit tests check SQL against fixtures, whatever a test's warehouse holds: test_dbt_unit_tests.py runs every
# one of them once, and the builds of other tests (`biasmirror build`, the API, subprocesses) leave them out, as
# outside CI (a test that checks this default sets the variable itself).
os.environ.setdefault("BIASMIRROR_UNIT_TESTS", "0")


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture(scope="module")
def module_workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("warehouse"))
