"""The SQL the Python commands send runs on DuckDB and PostgreSQL alike.

The commands the cross-engine check (scripts/cross_engine_check.py) runs on PostgreSQL (counterfactuals, training
and scoring, import-pairs, the implicit-bias study, summary, report, check, forget, and the Python API) send their
SQL through the warehouse connection, on either engine. None of their SQL may call a function or use syntax only one engine has (the list
the models are held to, in test_sql_portability.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import biasmirror
from test_sql_portability import CALL, SYNTAX

PACKAGE = Path(biasmirror.__file__).parent
# the modules behind the commands the cross-engine check runs on PostgreSQL
MODULES = ("counterfactuals/generate.py", "counterfactuals/diagnostics.py", "triage/model_inputs.py",
           "triage/model_registry.py", "triage/prediction_runs.py", "triage/classifier_training.py",
           "imports/pairs.py", "imports/tables.py", "implicit/runs.py", "backends/cache.py", "backends/failures.py",
           "warehouse/runs.py", "warehouse/contract.py", "warehouse/writes.py", "summary.py", "report/data.py",
           "report/provenance.py", "forget.py", "datasets.py", "build_record.py", "quality/runner.py",
           "quality/cohort.py", "quality/inference.py", "quality/audit.py", "api.py")
SQL = re.compile(r"\b(select|insert\s+into|update|delete\s+from|create\s+table)\b")


def sql_strings(path: Path) -> list[str]:
    """The string literals of a module that hold SQL (an f-string's text with `?` for each placeholder)."""
    texts = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside_fstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                inside_fstrings.add(id(value))
                parts.append(value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else "?")
            texts.append("".join(parts))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside_fstrings:
            texts.append(node.value)
    return [text for text in texts if SQL.search(text)]


@pytest.mark.parametrize("module", MODULES)
def test_the_commands_send_sql_both_engines_run(module: str) -> None:
    path = PACKAGE / module
    statements = sql_strings(path)
    for text in statements:
        calls = CALL.findall(text)
        assert not calls, f"{module} sends SQL calling {sorted(set(calls))}, which PostgreSQL or DuckDB lacks"
        syntax = [m.group(0) for m in SYNTAX.finditer(text)]
        assert not syntax, f"{module} sends DuckDB-only SQL {sorted(set(syntax))}"


def test_the_scan_finds_sql_and_a_duckdb_only_call(tmp_path: Path) -> None:
    """The scan reads SQL out of plain and f-strings, and catches what PostgreSQL 15 lacks."""
    source = tmp_path / "example.py"
    source.write_text('table = "t"\nsql = (f"select input_id, any_value(input_text) from {table} "\n'
                      '       "group by input_id")\nother = "select count(*) from x"\nmessage = "list(a) is no SQL"\n')
    found = sql_strings(source)
    assert any("any_value(input_text)" in text for text in found)
    assert "select count(*) from x" in found and not any("list(a)" in text for text in found)
    assert CALL.findall(" ".join(found)) == ["any_value"]
