"""No patient text in any message, log or Data Docs page (redaction by construction), and Data Docs that work
offline.

Every free-text column of both contracts is swapped with a coded column (the common export mistake of swapped
headers), then `biasmirror build` and `biasmirror check --layer raw` run on the extract: both must fail and say
why, and no sentence of the free text may appear in the console, logs/, target/, summary.json or the Data Docs.
Short, code-shaped values of coded columns may be quoted (e.g. '7'); anything else is described by its length.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.quality import run_checks
from biasmirror.quality.contracts import raw_contracts
from biasmirror.synth.bordeaux import write_bordeaux
from biasmirror.synth.mimic import write_mimic
from warehouse_workspace import Workspace
from report_browser import BrowserUnavailable, Chromium

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

# (data set, table, free-text column, the coded column it is swapped with)
SWAPS = (
    ("bordeaux", "visits", "triage_note", "triage_level"),
    ("bordeaux", "visits", "history", "patient_sex"),
    ("bordeaux", "visits", "complaint_label", "nurse_sex"),
    ("mimic", "triage", "chiefcomplaint", "acuity"),
    ("mimic", "triage", "pain", "heartrate"),
    ("mimic", "discharge", "text", "charttime"),
)
FILES = {("mimic", "triage"): "ed/triage.csv.gz", ("mimic", "discharge"): "note/discharge.csv.gz",
         ("bordeaux", "visits"): "visits.csv.gz"}
# MIMIC-IV's pain column is free text; the synthetic files hold numbers only, so some rows get sentences
PAIN_PHRASES = ("pt states pain is sharp and radiating to the left arm", "unable to rate, grimacing on palpation",
                "reports burning pain since this morning after lunch")


def test_every_free_text_column_of_both_contracts_is_swapped() -> None:
    free_text = {(t.dataset, t.table, c.name) for t in raw_contracts().tables for c in t.columns if c.is_free_text}
    assert free_text == {(dataset, table, column) for dataset, table, column, _ in SWAPS}
    for dataset, table, _, coded in SWAPS:
        contract = [t for t in raw_contracts().for_dataset(dataset) if t.table == table][0]
        assert contract.column(coded).kind != "free_text" and contract.validate_rows


def _project_text() -> str:
    """The dbt project's own text (models, docs, unit-test fixtures, seeds): synthetic notes are made of the same
    vocabulary, and a phrase found there is the project's, not the patient's (target/manifest.json holds it)."""
    from biasmirror.paths import project_dir

    root = project_dir()
    files = [root / "dbt_project.yml"] + [p for folder in ("models", "macros", "seeds", "analyses")
                                          for p in (root / folder).rglob("*") if p.is_file()]
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)


def _probes(values: pd.Series) -> set[str]:
    """Pieces of the free text that must not appear anywhere: every phrase (a value with a space) in full when
    shorter than 40 characters, else three 24-character windows (a third, the middle and two thirds into the
    text); pieces the project's own files hold are left out."""
    probes: set[str] = set()
    for value in values.dropna().astype(str).str.strip():
        if " " not in value or len(value) < 8:
            continue
        if len(value) < 40:
            probes.add(value)
        else:
            for start in (len(value) // 3, len(value) // 2 - 12, 2 * len(value) // 3):
                probes.add(value[start:start + 24])
    project = _project_text()
    return {probe for probe in probes if probe not in project}


def _swap(source: Path, target: Path, dataset: str, table: str, free: str, coded: str) -> set[str]:
    """A copy of the data set's folder with the two headers of one file swapped; returns the text probes."""
    shutil.copytree(source, target)
    path = target / FILES[(dataset, table)]
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if free == "pain":
        frame.loc[frame.index % 2 == 0, "pain"] = [PAIN_PHRASES[i % 3] for i in range(len(frame.index[::2]))]
    probes = _probes(frame[free])
    assert len(probes) >= 3, (free, probes)
    frame = frame.rename(columns={free: coded, coded: free})
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        frame.to_csv(handle, index=False)
    return probes


def _haystack(*folders: Path) -> dict[str, str]:
    texts = {}
    for folder in folders:
        if folder.exists():
            for path in folder.rglob("*"):
                if path.is_file() and path.suffix in {".html", ".json", ".log", ".sql", ".txt", ""}:
                    texts[str(path)] = path.read_text(encoding="utf-8", errors="replace")
    return texts


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("sources")
    write_bordeaux(base / "bordeaux", visits=80, seed=31)
    write_mimic(base / "mimic", stays=80, seed=31)
    return {"bordeaux": base / "bordeaux", "mimic": base / "mimic"}


@pytest.mark.parametrize("dataset", ["bordeaux", "mimic"])
def test_swapped_headers_fail_without_quoting_any_free_text(dataset: str, sources: dict[str, Path],
                                                            tmp_path: Path, capsys) -> None:
    from biasmirror.cli import app

    runner = CliRunner()
    ws = Workspace(tmp_path / "w")
    for dataset_, table, free, coded in SWAPS:
        if dataset_ != dataset:
            continue
        folder = tmp_path / f"{free}_{coded}"
        probes = _swap(sources[dataset], folder, dataset, table, free, coded)
        docs = tmp_path / f"docs_{free}"
        with ws.active():
            built = runner.invoke(app, ["build", f"--{dataset}-root", str(folder), "--select", f"stg_{dataset}__*"])
            checked = runner.invoke(app, ["check", "--layer", "raw", f"--{dataset}-root", str(folder),
                                          "--docs", str(docs)])
        console = built.output + checked.output + capsys.readouterr().out
        # both refuse the file and name the broken rule of the coded column, describing what they found
        assert built.exit_code == 1 and checked.exit_code == 1, console
        assert f"column {coded}, rule " in console and "a text of " in console, console
        assert f"{coded} [" in checked.output, checked.output
        texts = {"console": console, **_haystack(ws.root / "logs", ws.root / "target", docs)}
        assert (docs / "summary.json").is_file() and (docs / "index.html").is_file()
        assert any(name.endswith("dbt.log") for name in texts)
        leaks = sorted({(probe, name) for probe in probes for name, text in texts.items() if probe in text})
        assert not leaks, (free, coded, leaks[:5])


# --------------------------------------------------------------------------------------------------------------
# Data Docs offline
# --------------------------------------------------------------------------------------------------------------
PAGE_JS = """({
  scripts: document.querySelectorAll('script').length,
  csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || '',
  rows: Array.from(document.querySelectorAll('#validations tbody tr')).map(r => r.className),
  links: Array.from(document.querySelectorAll('#validations a')).map(a => a.getAttribute('href')),
  header: getComputedStyle(document.querySelector('header')).backgroundColor,
  failedCell: (document.querySelector('tr.failed td') ? getComputedStyle(document.querySelector('tr.failed td')).backgroundColor : ''),
  width: document.querySelector('#validations').getBoundingClientRect().width,
})"""
SUITE_JS = """({
  rows: Array.from(document.querySelectorAll('#expectations tbody tr')).map(r => [r.className, r.cells[1].textContent, r.cells[4].textContent]),
  header: getComputedStyle(document.querySelector('header')).backgroundColor,
})"""


def test_data_docs_render_offline_in_chromium(sources: dict[str, Path], tmp_path: Path) -> None:
    frame = pd.read_csv(sources["bordeaux"] / "visits.csv.gz", dtype=str, keep_default_na=False)
    frame.loc[3, "triage_level"] = "7"
    frame.loc[5, "visit_id"] = frame.loc[1, "visit_id"]
    folder = tmp_path / "extract"
    folder.mkdir()
    frame.to_csv(folder / "visits.csv", index=False)
    report = run_checks(tmp_path / "docs", layers=["raw"], roots={"bordeaux": folder})
    assert not report.success
    index = report.docs_dir / "index.html"
    pages = list((report.docs_dir / "validations").glob("*.html"))
    for page in [index, *pages]:
        html = page.read_text(encoding="utf-8")
        assert "http://" not in html and "https://" not in html and "<script" not in html, page
    try:
        browser = Chromium().__enter__()
    except BrowserUnavailable as error:
        pytest.fail(f"headless Chromium is needed for the Data Docs check and could not be started: {error}")
    try:
        browser.send("Network.enable", session=True)
        browser.send("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1,
                                                          "uploadThroughput": -1}, session=True)
        load = browser.load(index)
        assert load.errors() == [] and [u for u in load.requests if not u.startswith("file://")] == []
        page = browser.evaluate(PAGE_JS)
        groups = {(o.suite, o.subject) for o in report.outcomes}
        assert page["scripts"] == 0 and "default-src 'none'" in page["csp"]
        validated = [r for r in page["rows"] if r != "skipped"]
        assert len(validated) == len(groups) and validated.count("failed") == 1
        assert page["rows"].count("skipped") == len(report.skipped) == 1  # mimic: no folder
        assert page["header"] == "rgb(29, 35, 48)" and page["failedCell"] == "rgb(253, 236, 236)"  # styles applied
        assert page["width"] > 600
        assert sorted(page["links"]) == sorted(f"validations/{p.name}" for p in pages)
        values = [p for p in pages if ".visits.values-" in p.name][0]
        load = browser.load(values)
        assert load.errors() == [] and [u for u in load.requests if not u.startswith("file://")] == []
        suite = browser.evaluate(SUITE_JS)
        assert suite["header"] == "rgb(29, 35, 48)"
        failed = {rule: detail for status, rule, detail in suite["rows"] if status == "failed"}
        assert failed == {
            "visit_id identifies one row": f"2 of 80 value(s) break it (e.g. '{frame.visit_id[1]}') at rows 2, 6",
            "triage_level is one of 1, 2, 3, 4, 5 (or empty)": "1 of 80 value(s) break it (e.g. '7') at row 4",
        }
    finally:
        browser.__exit__(None, None, None)
