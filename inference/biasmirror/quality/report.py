"""Printing a check report: one line per suite (passed / failed expectations), why each skipped gate was
skipped, the settings the run resolved, then every failure with its rule and what broke it. Details were written
through biasmirror.quality.redaction (no free text is quoted); every dynamic string is escaped so that it is
printed, never read as console markup."""

from __future__ import annotations

from collections import OrderedDict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from biasmirror.quality.runner import CheckReport


def print_report(console: Console, report: CheckReport) -> None:
    suites: OrderedDict[tuple[str, str, str], list[bool]] = OrderedDict()
    for outcome in report.outcomes:
        suites.setdefault((outcome.layer, outcome.suite, outcome.subject), []).append(outcome.success)
    table = Table(title=f"Data-quality gates (suites v{report.suite_version})")
    table.add_column("layer")
    table.add_column("suite")
    table.add_column("batch", overflow="fold")
    table.add_column("passed", justify="right")
    table.add_column("failed", justify="right")
    for (layer, suite, subject), results in suites.items():
        failed = results.count(False)
        table.add_row(escape(layer), escape(suite), escape(subject), str(results.count(True)),
                      f"[bold red]{failed}[/bold red]" if failed else "0")
    for skipped in report.skipped:
        table.add_row(escape(skipped.layer), escape(skipped.suite), "[dim]skipped (below)[/dim]", "-", "-")
    console.print(table)
    # each skipped gate's reason on a line of its own (never wrapped into a table cell)
    for skipped in report.skipped:
        console.print(f"skipped {escape(skipped.layer)} {escape(skipped.suite)}: {escape(skipped.reason)}",
                      soft_wrap=True)
    for key, value in report.settings.items():
        console.print(f"{escape(key)}: {escape(value)}", soft_wrap=True)
    for failure in report.failures:
        column = f" column {escape(failure.column)}:" if failure.column else ""
        console.print(f"[bold red]FAILED[/bold red] {escape(failure.suite)} ({escape(failure.subject)}):{column} "
                      f"{escape(failure.rule)}: {escape(failure.detail)}", soft_wrap=True)
    n = len(report.outcomes)
    verdict = "[bold green]all gates passed[/bold green]" if report.success else \
        f"[bold red]{len(report.failures)} of {n} expectation(s) failed[/bold red]"
    console.print(f"{verdict}. Data Docs: {escape(str(report.docs_dir / 'index.html'))}")
