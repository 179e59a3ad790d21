"""Running the gates: collect the checks of the requested layers, validate each batch with its suite in an
ephemeral Great Expectations context, write offline Data Docs (biasmirror.quality.docs) and summary.json, and
return a report of every expectation's outcome. Every offending value shown anywhere goes through
biasmirror.quality.redaction."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biasmirror.quality.gx_context import ephemeral_context
from biasmirror.quality.audit import DEFAULT_MIN_PARITY_AGREEMENT
from biasmirror.quality.inference import DEFAULT_MIN_PARSE_RATE
from biasmirror.quality.redaction import describe_rows, describe_values
from biasmirror.quality.suites import LAYERS, SUITE_VERSION, Check, Skipped

if TYPE_CHECKING:
    import pandas as pd

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
    #: what the run resolved: data set folders (with where each came from) and the expected test share
    settings: dict[str, str] = field(default_factory=dict)
    run_name: str = ""

    @property
    def success(self) -> bool:
        return all(o.success for o in self.outcomes)

    @property
    def failures(self) -> list[ExpectationOutcome]:
        return [o for o in self.outcomes if not o.success]

    def frame(self) -> pd.DataFrame:
        """Every expectation's outcome as a DataFrame (layer, suite, subject, expectation, column, rule,
        success, detail); the skipped gates are in `skipped`."""
        import pandas as pd

        return pd.DataFrame([asdict(o) for o in self.outcomes],
                            columns=[f.name for f in fields(ExpectationOutcome)])

    def failed(self, suite_part: str, rule_part: str = "") -> list[ExpectationOutcome]:
        """Failures whose suite contains suite_part and whose rule contains rule_part (for tests and scripts)."""
        return [o for o in self.failures if suite_part in o.suite and rule_part in o.rule]


def _detail(result: Any, check: Check, column: str | None) -> str:
    """What broke an expectation, in words: counts, rows and examples shown only as redaction allows."""
    from biasmirror.quality.contracts import raw_contracts

    if result.exception_info and result.exception_info.get("raised_exception"):
        message = str(result.exception_info.get("exception_message") or "").splitlines()
        return f"error: {message[0][:200] if message else 'unknown'}"
    values = result.result or {}
    details = values.get("details") or {}
    if "mismatched" in details:
        missing = (details["mismatched"] or {}).get("missing") or []
        return f"missing column(s): {', '.join(missing)}" if missing else "columns differ"
    if values.get("unexpected_count") is not None:
        count, total = values["unexpected_count"], values.get("element_count")
        text = f"{count:,} of {total:,} value(s) break it" if total is not None else f"{count:,} value(s) break it"
        kind = check.value_kinds.get(column or "")
        examples = values.get("partial_unexpected_list") or []
        if examples and count and kind != "flag":
            shown = describe_values(examples, kind, raw_contracts().grammar, MAX_EXAMPLES)
            text += f" (e.g. {', '.join(shown)})"
        rows = values.get("partial_unexpected_index_list") or []
        if check.rows_are_records and rows and count:
            text += f" at {describe_rows(rows, MAX_EXAMPLES)}"
        return text
    if "observed_value" in values:
        observed = values["observed_value"]
        if isinstance(observed, (int, float)) and not isinstance(observed, bool):
            return f"observed {observed!r}"
        return "observed value differs"
    return ""


def _collect(layers: Sequence[str], roots: Mapping[str, Path] | None, test_fraction: float | None,
             variables: Mapping[str, Any] | None, min_parse_rate: float,
             settings: dict[str, str], min_parity_agreement: float = DEFAULT_MIN_PARITY_AGREEMENT
             ) -> tuple[list[Check], list[Skipped]]:
    from biasmirror.datasets import resolve_roots
    from biasmirror.paths import warehouse_path
    from biasmirror.warehouse import connect
    from biasmirror.warehouse.postgres import uses_postgres

    checks: list[Check] = []
    skipped: list[Skipped] = []
    explicit = {k: Path(v) for k, v in (roots or {}).items() if v is not None}
    if not uses_postgres() and not warehouse_path().exists():
        # only raw files can be checked without a warehouse, and only from folders given or in the environment
        resolved = resolve_roots(explicit, variables) if set(layers) == {"raw"} else {}
        if not resolved:
            raise FileNotFoundError(f"No warehouse at {warehouse_path()}: run `biasmirror build` (or `make demo`) "
                                    "first, or give the raw files' folder (--mimic-root, --bordeaux-root).")
        from biasmirror.quality.raw import raw_checks

        settings.update({f"{d} folder": f"{r.root} ({r.origin})" for d, r in resolved.items()})
        return raw_checks({d: r.root for d, r in resolved.items()})
    with connect(read_only=True) as con:
        if "raw" in layers:
            from biasmirror.quality.raw import raw_checks

            from_tables = read_from_tables(explicit, variables, con)
            resolved = {d: r for d, r in resolve_roots(explicit, variables, con).items() if d not in from_tables}
            settings.update({f"{d} folder": f"{r.root} ({r.origin})" for d, r in resolved.items()})
            found, skip = raw_checks({d: r.root for d, r in resolved.items()}, from_tables)
            checks += found
            skipped += skip
        if "cohort" in layers:
            from biasmirror.build_record import resolve_var
            from biasmirror.quality.cohort import cohort_checks

            value, origin = resolve_var("test_fraction", test_fraction, variables, con, built_model="triage_cohort")
            fraction = float(value)
            settings["test_fraction"] = f"{fraction:g} ({origin})"
            found, skip = cohort_checks(con, fraction)
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


def read_from_tables(explicit: Mapping[str, Path], variables: Mapping[str, Any] | None, con: Any) -> dict[str, str]:
    """The file-based data sets read from database tables (their tables var, e.g. mimic_source, is 'tables' in
    `variables`, else in the last successful build of the cohort), each with the reason the raw layer skips it:
    there is no file to check. A folder given explicitly (--mimic-root) is checked all the same."""
    from biasmirror.build_record import resolve_var
    from biasmirror.quality.contracts import raw_contracts

    contracts = raw_contracts()
    found: dict[str, str] = {}
    for dataset in contracts.datasets():
        name = contracts.tables_var(dataset)
        if not name or dataset in explicit:
            continue
        value, origin = resolve_var(name, None, variables, con, built_model="triage_cohort")
        if str(value).strip().lower() == "tables":
            found[dataset] = (f"{dataset} is read from the database's tables (var {name}: tables, {origin}), not "
                              "from files: no raw file to check (the loading database enforces the column types; "
                              "dbt's tests check the staged rows)")
    return found


def check_test_fraction(value: object, origin: str) -> None:
    """The rule of var test_fraction (macros/validate_vars.sql): a number strictly between 0 and 1."""
    try:
        number = float(value) if not isinstance(value, bool) else None  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = None
    if number is None or not 0 < number < 1:
        raise ValueError(f"{origin} = {value!r}: allowed is a number strictly between 0 and 1 "
                         "(the share of records in the test split)")


def reads_warehouse(layers: Sequence[str], roots: Mapping[str, Path] | None) -> bool:
    """Whether a check of these layers reads the published warehouse: every layer but raw does, and so does
    the raw layer when no data set folder is given (the registered folders are read from the warehouse)."""
    return set(layers) != {"raw"} or not roots


def run_checks(docs_dir: Path, layers: Sequence[str] = LAYERS, roots: Mapping[str, Path] | None = None,
               test_fraction: float | None = None, min_parse_rate: float = DEFAULT_MIN_PARSE_RATE,
               progress: Callable[[str], None] | None = None,
               variables: Mapping[str, Any] | None = None,
               min_parity_agreement: float = DEFAULT_MIN_PARITY_AGREEMENT) -> CheckReport:
    """Run the gates of `layers` and write Data Docs under docs_dir.

    roots: data set -> folder of raw files, first in the order of biasmirror.datasets.resolve_roots (then the
    `variables`' root vars, the environment, the folders registered in the warehouse). With only the raw layer
    and folders given (or in the environment), no warehouse is needed. test_fraction: the split's expected test share; None takes
    `variables`, else the value the last successful build of audit.triage_cohort used, else the project's default.
    """
    unknown = [layer for layer in layers if layer not in LAYERS]
    if unknown:
        raise ValueError(f"Unknown layer(s) {', '.join(unknown)}; known: {', '.join(LAYERS)}")
    settings: dict[str, str] = {}
    checks, skipped = _collect(list(layers), roots, test_fraction, variables, min_parse_rate, settings,
                               min_parity_agreement)
    docs_dir = Path(docs_dir).expanduser().resolve()
    docs_dir.mkdir(parents=True, exist_ok=True)
    started = datetime.now(timezone.utc)
    report = CheckReport(suite_version=SUITE_VERSION, docs_dir=docs_dir, skipped=skipped, settings=settings,
                         run_name=f"biasmirror-check-{started:%Y%m%dT%H%M%SZ}")
    if not checks:
        _publish(report)
        return report

    import great_expectations as gx
    from great_expectations.core.run_identifier import RunIdentifier

    context = ephemeral_context()
    source = context.data_sources.add_pandas("biasmirror")
    run_id = RunIdentifier(run_name=report.run_name)
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
            detail = _detail(expectation_result, check, column)
            if not success and check.note:
                detail = f"{detail}; {check.note}" if detail else check.note
            report.outcomes.append(ExpectationOutcome(
                layer=check.layer, suite=check.suite_name, subject=check.subject, expectation=config.type,
                column=column, rule=(config.meta or {}).get("rule", config.type), success=success, detail=detail))
    _publish(report)
    return report


def _publish(report: CheckReport) -> None:
    """summary.json and the offline Data Docs (index.html, validations/*.html) under the docs folder."""
    from biasmirror.quality.docs import write_data_docs

    _write_summary(report)
    write_data_docs(report)


def _write_summary(report: CheckReport) -> None:
    """summary.json beside the Data Docs: every outcome and skipped gate, for scripts and CI."""
    document = {
        "suite_version": report.suite_version,
        "run_name": report.run_name,
        "settings": report.settings,
        "success": report.success,
        "outcomes": [asdict(o) for o in report.outcomes],
        "skipped": [asdict(s) for s in report.skipped],
    }
    (report.docs_dir / "summary.json").write_text(json.dumps(document, indent=2, default=str), encoding="utf-8")
