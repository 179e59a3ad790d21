"""Data Docs that work offline: the Great Expectations results of a `biasmirror check` run, rendered as static
HTML pages with their styles inline - no script, nothing fetched from the network (a Content-Security-Policy
forbids both), so they open from disk on a machine with no connection.

GX's own Data Docs site is not built: its pages load jQuery, Bootstrap and Vega from CDNs (offline, the index is
unstyled and lists nothing) and print the offending values GX collected. These pages show only each
expectation's outcome as the runner described it (biasmirror.quality.runner._detail, through
biasmirror.quality.redaction), and every string is escaped.

Layout: DOCS/index.html (every suite with its counts, the settings the run resolved, skipped gates) and
DOCS/validations/<suite>.html (one page per suite and batch: every expectation with its rule and detail).
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from biasmirror.quality.runner import CheckReport, ExpectationOutcome

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
STYLE = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; color: #1d2330;
       background: #f5f6f8; }
header { background: #1d2330; color: #fff; padding: 18px 32px; }
header h1 { margin: 0; font-size: 22px; font-weight: 600; }
header p { margin: 4px 0 0; color: #c9cfdb; }
main { padding: 20px 32px 40px; max-width: 1280px; }
h2 { font-size: 18px; margin: 26px 0 10px; }
table { border-collapse: collapse; width: 100%; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
th { background: #eef0f4; font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: .03em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #fdecec; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.badge.passed { background: #dff3e4; color: #17642c; }
.badge.failed { background: #f9d4d4; color: #9b1c1c; }
.badge.skipped { background: #eceef2; color: #555d6b; }
.verdict { font-size: 17px; font-weight: 600; margin: 0 0 6px; }
.verdict.passed { color: #17642c; } .verdict.failed { color: #9b1c1c; }
dl { display: grid; grid-template-columns: max-content auto; gap: 4px 16px; margin: 0; }
dt { font-weight: 600; } dd { margin: 0; word-break: break-all; }
code, .mono { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: 13px; }
a { color: #1f4fb5; }
.note { color: #555d6b; font-size: 13px; margin-top: 18px; }
"""
PRIVACY = ("Offending values are quoted only when they come from a coded column (levels, sexes, codes, ids, "
           "numbers, timestamps) and are short; anything else is described by its row and length. Keep these "
           "pages on the machine that holds the data.")


def _page(title: str, subtitle: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header>\n<main>\n{body}\n"
        f"<p class=\"note\">{escape(PRIVACY)}</p>\n</main>\n</body>\n</html>\n")


def page_name(suite: str, subject: str) -> str:
    """A file name for a suite's page: safe characters only, unique per suite and batch."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", suite).strip("-.")[:80] or "suite"
    digest = hashlib.sha256(f"{suite}\0{subject}".encode()).hexdigest()[:8]
    return f"{slug}-{digest}.html"


def _badge(success: bool) -> str:
    return '<span class="badge passed">passed</span>' if success else '<span class="badge failed">failed</span>'


def write_data_docs(report: "CheckReport") -> Path:
    """Write index.html and validations/*.html under report.docs_dir; returns the index."""
    docs = report.docs_dir
    validations = docs / "validations"
    validations.mkdir(parents=True, exist_ok=True)
    for old in validations.glob("*.html"):
        old.unlink()
    groups: OrderedDict[tuple[str, str, str], list[ExpectationOutcome]] = OrderedDict()
    for outcome in report.outcomes:
        groups.setdefault((outcome.layer, outcome.suite, outcome.subject), []).append(outcome)

    subtitle = f"run {report.run_name} \u00b7 suites v{report.suite_version}"
    rows = []
    for (layer, suite, subject), outcomes in groups.items():
        name = page_name(suite, subject)
        failed = sum(not o.success for o in outcomes)
        rows.append(
            f"<tr class=\"{'failed' if failed else 'passed'}\"><td>{escape(layer)}</td>"
            f"<td><a href=\"validations/{escape(name)}\">{escape(suite)}</a></td>"
            f"<td class=\"mono\">{escape(subject)}</td><td class=\"num\">{len(outcomes) - failed}</td>"
            f"<td class=\"num\">{failed}</td><td>{_badge(not failed)}</td></tr>")
        (validations / name).write_text(_suite_page(report, layer, suite, subject, outcomes), encoding="utf-8")
    for skipped in report.skipped:
        rows.append(f"<tr class=\"skipped\"><td>{escape(skipped.layer)}</td><td>{escape(skipped.suite)}</td>"
                    f"<td>{escape(skipped.reason)}</td><td class=\"num\">-</td><td class=\"num\">-</td>"
                    "<td><span class=\"badge skipped\">skipped</span></td></tr>")
    n = len(report.outcomes)
    verdict = ("all gates passed" if report.success else f"{len(report.failures)} of {n} expectation(s) failed")
    settings = "".join(f"<dt>{escape(key)}</dt><dd class=\"mono\">{escape(value)}</dd>"
                       for key, value in report.settings.items())
    body = (
        f"<p class=\"verdict {'passed' if report.success else 'failed'}\">{escape(verdict)}</p>"
        f"<p>{len(groups)} suite(s) validated, {len(report.skipped)} skipped.</p>"
        + (f"<h2>Settings of this run</h2><dl>{settings}</dl>" if settings else "")
        + "<h2>Validations</h2><table id=\"validations\"><thead><tr><th>layer</th><th>suite</th><th>batch</th>"
        "<th>passed</th><th>failed</th><th>status</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    index = docs / "index.html"
    index.write_text(_page("biasmirror data-quality gates", subtitle, body), encoding="utf-8")
    return index


def _suite_page(report: "CheckReport", layer: str, suite: str, subject: str,
                outcomes: list["ExpectationOutcome"]) -> str:
    rows = "".join(
        f"<tr class=\"{'passed' if o.success else 'failed'}\"><td>{_badge(o.success)}</td><td>{escape(o.rule)}</td>"
        f"<td class=\"mono\">{escape(o.column or '')}</td><td class=\"mono\">{escape(o.expectation)}</td>"
        f"<td>{escape(o.detail)}</td></tr>" for o in outcomes)
    failed = sum(not o.success for o in outcomes)
    body = (
        "<p><a href=\"../index.html\">&larr; all validations</a></p>"
        f"<dl><dt>suite</dt><dd class=\"mono\">{escape(suite)}</dd><dt>layer</dt><dd>{escape(layer)}</dd>"
        f"<dt>batch</dt><dd class=\"mono\">{escape(subject)}</dd>"
        f"<dt>outcome</dt><dd>{len(outcomes) - failed} passed, {failed} failed</dd></dl>"
        "<h2>Expectations</h2><table id=\"expectations\"><thead><tr><th>status</th><th>rule</th><th>column</th>"
        "<th>expectation</th><th>detail</th></tr></thead><tbody>" + rows + "</tbody></table>")
    return _page(suite, f"run {report.run_name} \u00b7 suites v{report.suite_version}", body)
