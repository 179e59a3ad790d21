"""scripts/compare_marts.py: identical warehouses pass; a changed estimate, a missing row or table, or intervals
of another width fail; with --intervals se, interval values may differ but their widths may not."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import duckdb
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_marts.py"


def load_script():
    spec = importlib.util.spec_from_file_location("compare_marts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def warehouse(path: Path, estimate: float = 0.25, ci: tuple[float, float] = (0.1, 0.4), rows: int = 3,
              extra_table: bool = False) -> str:
    with duckdb.connect(str(path)) as con:
        con.execute("create schema audit")
        con.execute("create table audit.paired_metrics (model varchar, metric varchar, estimate double, "
                    "ci_low double, ci_high double, n_pairs bigint, strata map(varchar, varchar), is_sparse boolean)")
        for i in range(rows):
            con.execute("insert into audit.paired_metrics values (?, 'pdr', ?, ?, ?, 100, map(['sex'], ['F']), false)",
                        [f"m{i}", estimate + i, ci[0] + i, ci[1] + i])
        if extra_table:
            con.execute("create table audit.other (x integer)")
    return str(path)


@pytest.fixture(scope="module")
def compare_marts():
    return load_script()


def test_identical_warehouses_pass(tmp_path: Path, compare_marts) -> None:
    a = warehouse(tmp_path / "a.duckdb")
    b = warehouse(tmp_path / "b.duckdb")
    assert compare_marts.main([a, b]) == 0


@pytest.mark.parametrize("change", [
    {"estimate": 0.25 + 2e-9},        # beyond 1e-9
    {"rows": 2},                      # a row missing
    {"extra_table": True},            # a table only on one side
    {"ci": (0.1, 0.41)},              # an interval bound, compared exactly by default
])
def test_differences_fail(tmp_path: Path, compare_marts, change) -> None:
    a = warehouse(tmp_path / "a.duckdb")
    b = warehouse(tmp_path / "b.duckdb", **change)
    assert compare_marts.main([a, b]) == 1


def test_rounding_noise_below_the_tolerance_passes(tmp_path: Path, compare_marts) -> None:
    a = warehouse(tmp_path / "a.duckdb")
    b = warehouse(tmp_path / "b.duckdb", estimate=0.25 + 1e-12)
    assert compare_marts.main([a, b]) == 0


def test_intervals_by_width(tmp_path: Path, compare_marts) -> None:
    a = warehouse(tmp_path / "a.duckdb")
    shifted = warehouse(tmp_path / "shifted.duckdb", ci=(0.11, 0.41))   # same width, other values
    wider = warehouse(tmp_path / "wider.duckdb", ci=(0.1, 0.46))        # 20% wider
    assert compare_marts.main([a, shifted, "--intervals", "se"]) == 0
    assert compare_marts.main([a, wider, "--intervals", "se"]) == 1
    # the estimate is still compared exactly in that mode
    moved = warehouse(tmp_path / "moved.duckdb", estimate=0.3, ci=(0.11, 0.41))
    assert compare_marts.main([a, moved, "--intervals", "se"]) == 1


def test_free_text_is_never_quoted(tmp_path: Path, compare_marts, capsys) -> None:
    """A differing note or model input is described by its length, not printed."""
    note_a, note_b = "Patient reports chest pain since this morning", "Patient reports chest pain since last night"
    for path, note in ((tmp_path / "a.duckdb", note_a), (tmp_path / "b.duckdb", note_b)):
        with duckdb.connect(str(path)) as con:
            con.execute("create schema audit")
            con.execute("create table audit.model_inputs (input_id varchar, input_text varchar)")
            con.execute("insert into audit.model_inputs values ('i1', ?)", [note])
    assert compare_marts.main([str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")]) == 1
    out = capsys.readouterr().out
    assert "chest pain" not in out and "text of" in out
