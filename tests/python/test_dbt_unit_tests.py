"""Every dbt unit test of the project (the `unit_tests:` of models/**/_*__models.yml), run once in a build of a
fresh warehouse and passing. The other tests' builds leave unit tests out (conftest.py): they check the SQL against
fixtures, whatever data a test builds, so once per test run is enough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): a whole dbt build
pytestmark = pytest.mark.slow

MODELS = Path(__file__).resolve().parents[2] / "models"


def declared_unit_tests() -> set[str]:
    """The unit tests the project's YAML files declare, by name (read here, not from dbt's manifest)."""
    names = set()
    for path in MODELS.rglob("*.yml"):
        for test in (yaml.safe_load(path.read_text()) or {}).get("unit_tests", []) or []:
            names.add(test["name"])
    return names


def test_every_unit_test_runs_and_passes(workspace: Workspace) -> None:
    declared = declared_unit_tests()
    assert len(declared) >= 20, sorted(declared)  # the project has a few dozen; none may go missing silently
    workspace.build(unit_tests=True)
    results = json.loads((workspace.root / "target" / "run_results.json").read_text())["results"]
    unit = {r["unique_id"].split(".")[-1]: r["status"] for r in results if r["unique_id"].startswith("unit_test.")}
    assert set(unit) == declared, (sorted(declared - set(unit)), sorted(set(unit) - declared))
    assert all(status == "pass" for status in unit.values()), {n: s for n, s in unit.items() if s != "pass"}

