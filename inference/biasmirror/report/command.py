"""`biasmirror report --out DIR`: the static HTML audit report."""

from __future__ import annotations

from pathlib import Path

import typer

from biasmirror.cli_options import console, fail


def report(out: Path = typer.Option(Path("report"), help="Folder to write index.html into.")) -> None:
    """Write the static HTML audit report (opens from disk: no server, no network) from the audit marts."""
    from biasmirror.progress import progress_bar

    try:
        import matplotlib  # noqa: F401  (the figures' only extra dependency)
    except ImportError:
        fail("the report draws its figures with matplotlib: pip install 'biasmirror[report]' (or matplotlib).")
    from biasmirror.report.render import write_report
    from biasmirror.report.sections import SECTIONS

    from biasmirror.cli_warehouse import announce_reader

    try:
        announce_reader()  # the published warehouse (refused when missing: a report never creates one), or PostgreSQL
        with progress_bar() as bar:
            task = bar.add_task("report sections", total=len(SECTIONS), rate="")
            result = write_report(out, progress=lambda _name: bar.advance(task))
    except (OSError, RuntimeError) as error:  # no warehouse, a locked one, an unwritable folder
        fail(str(error))
    console.print(f"Report: {result.path} ({result.n_figures} figures, {result.n_tables} tables"
                  + (f", {len(result.no_data)} figures or tables left out for want of data" if result.no_data else "") + ").")
