"""The building blocks of the gates: a Check (one GX suite run on one pandas batch) and the expectations the
suites use, each carrying the human rule it enforces (shown in the summary and the Data Docs).

Suites are defined in code (biasmirror.quality.raw, .cohort, .inference, .audit) and versioned with
SUITE_VERSION: bump it when an expectation or a threshold changes, so that Data Docs of different runs say
which definition they applied. Suite names are "biasmirror.<layer>.<subject>".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import pandas as pd

SUITE_VERSION = "1.1.0"
LAYERS: tuple[str, ...] = ("raw", "cohort", "inference", "audit")


@dataclass
class Check:
    """One suite run on one batch; `subject` names what the batch is (a file, a table and data set).

    Offending values are shown only through biasmirror.quality.redaction: numbers always, text only from the
    columns listed in `value_kinds` with a coded kind (id, code, number, timestamp) and only when short and
    code-shaped. Text of any other column (identifiers of the cohort, anything not declared) is described by its
    length. The frame's index is what failures cite as row numbers when `rows_are_records` is set (raw files:
    row 1 is the first record after the header)."""

    layer: str
    suite: str
    subject: str
    frame: pd.DataFrame
    expectations: list[Any]
    value_kinds: dict[str, str] = field(default_factory=dict)
    rows_are_records: bool = False
    #: added to the detail of this check's failures (e.g. where in a file the first unreadable row is)
    note: str | None = None

    @property
    def suite_name(self) -> str:
        return f"biasmirror.{self.layer}.{self.suite}"


@dataclass(frozen=True)
class Skipped:
    """A gate that does not apply (yet): no data set configured, no inference rows, no audit tables."""

    layer: str
    suite: str
    reason: str


def _gx():
    from biasmirror.quality.gx_context import import_gx

    return import_gx()


def _with_rule(expectation: Any, rule: str) -> Any:
    expectation.meta = {**(expectation.meta or {}), "rule": rule}
    return expectation


def values_in(column: str, values: Sequence[Any], rule: str, mostly: float = 1.0) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToBeInSet(column=column, value_set=list(values), mostly=mostly), rule)


def between(column: str, low: float | None, high: float | None, rule: str, mostly: float = 1.0) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToBeBetween(
        column=column, min_value=low, max_value=high, mostly=mostly), rule)


def not_null(column: str, rule: str, mostly: float = 1.0) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToNotBeNull(column=column, mostly=mostly), rule)


def unique(column: str, rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToBeUnique(column=column), rule)


def is_null(column: str, rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToBeNull(column=column), rule)


def is_true(column: str, rule: str) -> Any:
    return values_in(column, [True], rule)


def is_false(column: str, rule: str) -> Any:
    return values_in(column, [False], rule)


def matches(column: str, regex: str, rule: str, mostly: float = 1.0) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnValuesToMatchRegex(column=column, regex=regex, mostly=mostly), rule)


def has_columns(columns: Sequence[str], rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectTableColumnsToMatchSet(column_set=list(columns), exact_match=False), rule)


def row_count_at_least(value: int, rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectTableRowCountToBeBetween(min_value=value), rule)


def row_count(value: int, rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectTableRowCountToEqual(value=value), rule)


def a_at_least_b(column_a: str, column_b: str, rule: str) -> Any:
    gx = _gx()
    return _with_rule(gx.expectations.ExpectColumnPairValuesAToBeGreaterThanB(
        column_A=column_a, column_B=column_b, or_equal=True, ignore_row_if="either_value_is_missing"), rule)
