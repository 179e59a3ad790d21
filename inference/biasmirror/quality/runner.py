"""Running the gates: collect the checks of the requested layers, validate each batch with its suite in an
ephemeral Great Expectations context, build Data Docs, and return a report of every expectation's outcome."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from biasmirror.quality.gx_context import SITE, ephemeral_context
from biasmirror.quality.audit import DEFAULT_MIN_PARITY_AGREEMENT
from biasmirror.quality.inference import DEFAULT_MIN_PARSE_RATE
from biasmirror.quality.suites import LAYERS, SUITE_VERSION, Check, Skipped

MAX_EXAMPLES = 5


@dataclass(frozen=True)
class ExpectationOutcome:
    layer: str
    suite: str
    subject: str
    expectation: str
    column: str | None
    rule: str
    success: bool
    detail: str


@dataclass
class CheckReport:
    suite_version: str
    docs_dir: Path
    outcomes: list[ExpectationOutcome] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def success(self) -> bool:
        return all(o.success for o in self.outcomes)

    @property
    def failures(self) -> list[ExpectationOutcome]:
        return [o for o in self.outcomes if not o.success]

    def failed(self, suite_part: str, rule_part: str = "") -> list[ExpectationOutcome]:
        """Failures whose suite contains suite_part and whose rule contains rule_part (for tests and scripts)."""
        return [o for o in self.failures if suite_part in o.suite and rule_part in o.rule]


def _detail(result: Any, hidden: bool) -> str:
    if result.exception_info and result.exception_info.get("raised_exception"):
        return f"error: {result.exception_info.get('exception_message')}"
    values = result.result or {}
    details = values.get("details") or {}
    if "mismatched" in details:
        missing = (details["mismatched"] or {}).get("missing") or []
        return f"missing column(s): {', '.join(missing)}" if missing else "columns differ"
    if values.get("unexpected_count") is not None:
        count, total = values["unexpected_count"], values.get("element_count")
        text = f"{count:,} of {total:,} value(s) break it" if total is not None else f"{count:,} value(s) break it"
        examples = values.get("partial_unexpected_list") or []
        if examples and not hidden and count:
            shown = ", ".join(repr(_plain(v)) for v in examples[:MAX_EXAMPLES])
            text += f" (e.g. {shown})"
        return text
    if "observed_value" in values:
        return f"observed {values['observed_value']!r}"
    return ""


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def _collect(layers: Sequence[str], roots: dict[str, Path] | None, test_fraction: float,
             min_parse_rate: float, min_parity_agreement: float = DEFAULT_MIN_PARITY_AGREEMENT
             ) -> tuple[list[Check], list[Skipped]]:
    from biasmirror.paths import warehouse_path
    from biasmirror.warehouse import connect

    checks: list[Check] = []
    skipped: list[Skipped] = []
    needs_warehouse = any(layer != "raw" for layer in layers) or roots is None
    if not needs_warehouse:
        from biasmirror.quality.raw import raw_checks

        return raw_checks(roots or {})
    if not warehouse_path().exists():
        raise FileNotFoundError(f"No warehouse at {warehouse_path()}: run `biasmirror build` (or `make demo`) first.")
    with connect(read_only=True) as con:
        if "raw" in layers:
            from biasmirror.quality.raw import raw_checks, registered_roots

            found, skip = raw_checks({**registered_roots(con), **(roots or {})})
            checks += found
            skipped += skip
        if "cohort" in layers:
            from biasmirror.quality.cohort import cohort_checks

            found, skip = cohort_checks(con, test_fraction)
            checks += found
            skipped += skip
        if "inference" in layers:
            from biasmirror.quality.inference import inference_checks

            found, skip = inference_checks(con, min_parse_rate)
            checks += found
            skipped += skip
        if "audit" in layers:
            from biasmirror.quality.audit import audit_checks, scoring_parity_checks

            found, skip = audit_checks(con)
            checks += found
            skipped += skip
            found, skip = scoring_parity_checks(con, min_parity_agreement)
            checks += found
            skipped += skip
    return checks, skipped


def run_checks(docs_dir: Path, layers: Sequence[str] = LAYERS, roots: dict[str, Path] | None = None,
               test_fraction: float = 0.5, min_parse_rate: float = DEFAULT_MIN_PARSE_RATE,
               progress: Callable[[str], None] | None = None,
               min_parity_agreement: float = DEFAULT_MIN_PARITY_AGREEMENT) -> CheckReport:
    """Run the gates of `layers` and write Data Docs under docs_dir.

    roots: data set -> folder of raw files, overriding the folders registered in the warehouse. With only the
    raw layer and explicit roots, no warehouse is needed.
    """
    unknown = [layer for layer in layers if layer not in LAYERS]
    if unknown:
        raise ValueError(f"Unknown layer(s) {', '.join(unknown)}; known: {', '.join(LAYERS)}")
    checks, skipped = _collect(list(layers), roots, test_fraction, min_parse_rate, min_parity_agreement)
    docs_dir = Path(docs_dir).expanduser().resolve()
    docs_dir.mkdir(parents=True, exist_ok=True)
    report = CheckReport(suite_version=SUITE_VERSION, docs_dir=docs_dir, skipped=skipped)
    if not checks:
        _write_summary(report)
        return report

    import great_expectations as gx
    from great_expectations.core.run_identifier import RunIdentifier

    context = ephemeral_context(docs_dir)
    source = context.data_sources.add_pandas("biasmirror")
    run_id = RunIdentifier(run_name=f"biasmirror-check-{datetime.now(timezone.utc):%Y%m%dT%H%M%SZ}")
    for check in checks:
        if progress is not None:
            progress(check.suite_name)
        asset = source.add_dataframe_asset(check.suite_name)
        batch = asset.add_batch_definition_whole_dataframe(check.subject[:200] or "batch")
        suite = context.suites.add(gx.ExpectationSuite(
            name=check.suite_name, meta={"biasmirror_suite_version": SUITE_VERSION, "layer": check.layer}))
        for expectation in check.expectations:
            suite.add_expectation(expectation)
        definition = context.validation_definitions.add(
            gx.ValidationDefinition(name=check.suite_name, data=batch, suite=suite))
        result = definition.run(batch_parameters={"dataframe": check.frame}, result_format="SUMMARY", run_id=run_id)
        for expectation_result in result.results:
            config = expectation_result.expectation_config
            column = config.kwargs.get("column")
            success = bool(expectation_result.success)
            detail = _detail(expectation_result, hidden=column in check.hide_values)
            if not success and check.note:
                detail = f"{detail}; {check.note}" if detail else check.note
            report.outcomes.append(ExpectationOutcome(
                layer=check.layer, suite=check.suite_name, subject=check.subject, expectation=config.type,
                column=column, rule=(config.meta or {}).get("rule", config.type), success=success, detail=detail))
    context.build_data_docs(site_names=[SITE])
    _write_summary(report)
    return report


def _write_summary(report: CheckReport) -> None:
    """summary.json beside the Data Docs: every outcome and skipped gate, for scripts and CI."""
    document = {
        "suite_version": report.suite_version,
        "success": report.success,
        "outcomes": [asdict(o) for o in report.outcomes],
        "skipped": [asdict(s) for s in report.skipped],
    }
    (report.docs_dir / "summary.json").write_text(json.dumps(document, indent=2, default=str), encoding="utf-8")
