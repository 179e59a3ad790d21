"""What a newcomer reads first: the README's quickstart stays short and keeps the two commands, its copy-paste
query is the one the demo prints (with an ORDER BY), its links lead to files, the shipped sample imports cleanly,
and the licence and citation files say what pyproject.toml and the docs say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from biasmirror.cli import DEMO_QUERY, demo_open_command
from biasmirror.cli_warehouse import shell_command
from biasmirror.imports.pairs import validate_pairs
from biasmirror.imports.tables import read_table

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_quickstart_is_short_and_keeps_the_two_commands() -> None:
    assert "make demo" in README and "make test" in README
    assert len(README.split()) <= 1400, len(README.split())  # about five minutes of reading
    for heading in ("## Quickstart", "## Your own predictions", "## What the numbers mean", "## Limitations"):
        assert heading in README, heading


def test_the_readme_query_is_the_one_the_demo_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert re.search(r"\border by\b", DEMO_QUERY, re.IGNORECASE)
    monkeypatch.chdir(tmp_path)  # a checkout after `make demo`: .venv/bin/duckdb, demo_data/biasmirror.duckdb
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "duckdb").write_text("")
    printed = shell_command(demo_open_command(tmp_path / "demo_data" / "biasmirror.duckdb",
                                              tmp_path / ".venv" / "bin" / "duckdb"))
    assert printed == '.venv/bin/duckdb -readonly demo_data/biasmirror.duckdb "' + DEMO_QUERY + '"'
    assert f"\n{printed}\n" in README
    # outside the checkout's folder the paths stay absolute, and without the CLI it is `duckdb` from PATH
    elsewhere = demo_open_command(Path("/srv/demo/biasmirror.duckdb"), tmp_path / "missing")
    assert elsewhere[:3] == ["duckdb", "-readonly", "/srv/demo/biasmirror.duckdb"]


def test_every_link_of_the_readme_and_the_docs_leads_to_a_file() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            resolved = (page.parent / target).resolve()
            assert resolved.exists(), (page.name, target)


def test_the_shipped_sample_is_valid_pairs() -> None:
    pairs, strata, ignored = validate_pairs(read_table(ROOT / "examples" / "sample_pairs.csv"), None, "the sample")
    assert len(pairs) == 705 and pairs["patient_id"].nunique() == 450 and not ignored
    assert set(strata["stratum_name"]) == {"site", "age_band"}
    assert "examples/sample_pairs.csv" in README


def test_licence_and_citation() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "Apache-2.0"
    titles = {reference["title"] for reference in citation["references"]}
    assert titles == {"Auditing Sex/Gender Disparities in Emergency Triage with LLM-based Paired Comparisons",
                      "Implicit Bias in LLMs for Transgender Populations"}
    for title in titles:
        assert title in " ".join(README.split())  # lines wrap
