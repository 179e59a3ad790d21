"""Engine-specific SQL lives only in the adapter.dispatch macros of macros/cross_db/.

Every compiled model must parse with sqlglot, and no model or other macro may call an engine-specific
function (hashing, random numbers, series, quantiles, file readers) directly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from biasmirror.paths import project_dir
from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

ENGINE_SPECIFIC = ("hash", "md5", "random", "setseed", "uuid", "range", "generate_series", "unnest",
                   "quantile", "quantile_cont", "quantile_disc", "approx_quantile", "percentile_cont",
                   "percentile_disc", "median", "xor", "read_csv", "read_csv_auto", "read_parquet",
                   "regexp_escape", "glob", "try_cast", "any_value", "year", "list", "list_sort", "map_from_entries",
                   "string_split", "regexp_matches", "regexp_extract", "hashtextextended", "array_agg", "lgamma",
                   "arg_max", "arg_min", "max_by", "min_by", "strpos", "regexp_replace", "element_at", "sequence",
                   "explode", "collect_list", "xxhash64", "percentile")
CALL = re.compile(r"\b(" + "|".join(ENGINE_SPECIFIC) + r")\s*\(", re.IGNORECASE)
# DuckDB-only syntax and type names (PostgreSQL has none of them)
SYNTAX = re.compile(r"\bgroup\s+by\s+all\b|\bqualify\b|\*\s*exclude\b|\bunion\s+all\s+by\s+name\b|\bas\s+(double|tinyint|ubigint|hugeint)\b",
                    re.IGNORECASE)
# what Spark lacks, in the dbt SQL (the Python commands' SQL runs on DuckDB and PostgreSQL only): a varchar without
# its length, the materialized CTE hint, an ordered string_agg
SPARK_SYNTAX = re.compile(r"\bas\s+varchar\b(?!\s*\()|\bas\s+materialized\b|\bstring_agg\s*\([^()]*\border\s+by\b",
                          re.IGNORECASE)
JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.DOTALL)
SQL_COMMENT = re.compile(r"--[^\n]*")


def sql_files_outside_cross_db() -> list[Path]:
    root = project_dir()
    files = list((root / "models").rglob("*.sql")) + list((root / "analyses").rglob("*.sql"))
    files += [p for p in (root / "macros").rglob("*.sql") if "cross_db" not in p.parts]
    return sorted(files)


@pytest.mark.parametrize("path", sql_files_outside_cross_db(), ids=lambda p: str(p.relative_to(project_dir())))
def test_no_engine_specific_call_outside_the_dispatch_macros(path: Path) -> None:
    text = SQL_COMMENT.sub("", JINJA.sub(" ", path.read_text()))
    calls = CALL.findall(text)
    assert not calls, f"{path.name} calls {sorted(set(calls))}: use the dispatch macros in macros/cross_db/"
    syntax = [m.group(0) for m in SYNTAX.finditer(text)] + [m.group(0) for m in SPARK_SYNTAX.finditer(text)]
    assert not syntax, f"{path.name} uses DuckDB-only SQL {sorted(set(syntax))}: use the dispatch macros in macros/cross_db/"


@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_dispatch_macros_have_an_implementation_for(engine: str) -> None:
    """Every dispatch macro has an implementation for the engine (spark__ also serves dbt-databricks), or a
    default__ one."""
    for path in (project_dir() / "macros" / "cross_db").glob("*.sql"):
        text = path.read_text()
        for name in re.findall(r"adapter\.dispatch\('(\w+)'", text):
            assert f"macro {engine}__{name}(" in text or f"macro default__{name}(" in text, \
                f"{name} in {path.name} has no {engine}__ or default__ implementation"


def test_no_dispatch_outside_cross_db() -> None:
    """adapter.dispatch appears only in macros/cross_db/ (where the engines' differences are listed)."""
    for path in sql_files_outside_cross_db():
        assert "adapter.dispatch(" not in path.read_text(), f"{path.name} dispatches outside macros/cross_db/"


def test_dispatch_macros_have_a_postgres_implementation() -> None:
    """Every dispatch macro has a postgres__ implementation, or a default__ one that serves every other engine."""
    names = []
    for path in (project_dir() / "macros" / "cross_db").glob("*.sql"):
        text = path.read_text()
        for name in re.findall(r"adapter\.dispatch\('(\w+)'", text):
            names.append(name)
            assert f"macro postgres__{name}(" in text or f"macro default__{name}(" in text, \
                f"{name} in {path.name} has no postgres__ (or default__) implementation"
    assert len(names) >= 30


def test_every_compiled_model_parses_with_sqlglot(workspace: Workspace) -> None:
    from biasmirror.dbt_runner import run_dbt

    with workspace.active():
        run_dbt("compile")
    compiled = sorted((workspace.root / "target" / "compiled" / "biasmirror" / "models").rglob("*.sql"))
    models = [p for p in compiled if not p.parent.name.endswith(".yml")]
    assert len(models) >= 20
    for path in models:
        tree = sqlglot.parse_one(path.read_text(), read="duckdb")
        assert isinstance(tree, exp.Expression), path
