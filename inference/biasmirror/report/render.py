"""Writing the report: every section, one self-contained HTML file, written atomically."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

from biasmirror.report.data import Marts, open_marts
from biasmirror.report.html import Markup, Section, html, page
from biasmirror.report.provenance import collect
from biasmirror.report.sections import SECTIONS

REPORT_FILE = "index.html"


@dataclass(frozen=True)
class ReportResult:
    path: Path
    n_figures: int
    n_tables: int
    no_data: tuple[str, ...]   # ids of the figures and tables left out (or, with no pairs at all, shown) for want of data


def build_sections(marts: Marts, builders: Sequence[Callable[[Marts], Section]] = SECTIONS,
                   progress: Callable[[str], None] | None = None) -> list[Section]:
    sections = []
    for builder in builders:
        sections.append(builder(marts))
        if progress:
            progress(builder.__name__)
    return sections


def write_report(out: Path, warehouse: Path | None = None,
                 progress: Callable[[str], None] | None = None) -> ReportResult:
    """Render the report of `warehouse` (a DuckDB file; by default the warehouse readers use: the published file,
    or the PostgreSQL database with BIASMIRROR_TARGET=postgres) into out/index.html (replacing an earlier one
    only once complete)."""
    from biasmirror.warehouse import reader_label

    generated = datetime.now(timezone.utc)
    label = reader_label(warehouse)
    with open_marts(warehouse) as marts:
        sections = build_sections(marts, progress=progress)
        provenance = collect(marts, label, generated)
    document = page("biasmirror audit report", [
        html("Warehouse: <code>{}</code> · generated {} · provenance at the end of the page", label,
             generated.strftime("%Y-%m-%d %H:%M UTC")),
        Markup("Documentation-level audit of model-predicted triage levels under sex/gender-swapped copies of the "
               "same records. Hypothesis-generating: it does not observe bedside decisions."),
    ], sections, footer=provenance.footer())
    out.mkdir(parents=True, exist_ok=True)
    target = out / REPORT_FILE
    handle, temporary = tempfile.mkstemp(prefix=".report-", suffix=".html", dir=out)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(document)
        os.chmod(temporary, 0o644)  # mkstemp creates the file private; a report is meant to be shared
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return ReportResult(
        path=target,
        n_figures=document.count('<figure class="bm-figure"'),
        n_tables=document.count('<div class="bm-table"'),
        no_data=tuple(re.findall(r'<div class="no-data" id="([^"]+)"', document))
        + tuple(panel for section in sections for panel in section.omitted()),
    )
