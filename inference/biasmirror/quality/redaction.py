"""Redaction by construction: the only way a value read from data reaches a message, the console, summary.json
or a Data Docs page.

A value may be quoted only when it comes from a coded column (kind id, code, number or timestamp in the
source contract) and is short and shaped like a code (dbt_project.yml, raw_value_grammar.quotable); numbers
held as numbers are always shown. Anything else - every value of a free-text column, a sentence found in a
coded column (swapped headers), a long value - is described by its length, never quoted. The pre-build check
in dbt (macro raw_value_display) applies the same rule with the same patterns.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable
from typing import Any

from biasmirror.quality.contracts import ValueGrammar

#: a column header that may be printed (a file without a header row has data in its first line)
HEADER_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_ .-]{0,63}")


def describe_text(text: str) -> str:
    """How a value that may not be quoted is shown."""
    return f"a text of {len(text)} character{'s' if len(text) != 1 else ''}"


def describe_value(value: Any, kind: str | None, grammar: ValueGrammar) -> str:
    """A value as it may appear in any output: quoted when coded and code-shaped, else described."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, numbers.Number):
        return _number(value)
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        return describe_value(value.item(), kind, grammar)
    text = str(value)
    if grammar.is_quotable(text, kind):
        return "'" + text + "'"
    return describe_text(text)


def _number(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def describe_values(values: Iterable[Any], kind: str | None, grammar: ValueGrammar, limit: int = 5) -> list[str]:
    """The distinct descriptions of values, in first-seen order, at most `limit`."""
    shown: list[str] = []
    for value in values:
        text = describe_value(value, kind, grammar)
        if text not in shown:
            shown.append(text)
        if len(shown) >= limit:
            break
    return shown


def describe_header(name: str) -> str:
    """A column name read from a file's header row: printed when it looks like a column name."""
    return name if HEADER_PATTERN.fullmatch(name) else describe_text(name)


def describe_rows(rows: Iterable[Any], limit: int = 5) -> str:
    """'row 4' or 'rows 4, 9, 12' (row 1 is the first record after the header), with '...' beyond limit."""
    listed = sorted({int(r) for r in rows})
    if not listed:
        return ""
    text = ", ".join(str(r) for r in listed[:limit]) + (", ..." if len(listed) > limit else "")
    return f"row{'s' if len(listed) > 1 else ''} {text}"


def describe_error(error: BaseException) -> str:
    """A reader's or engine's error without the file content it may quote: its type and first line, cut before
    any 'Original Line' and with quoted fragments replaced."""
    first = (str(error).splitlines() or [""])[0]
    first = first.split("Original Line", 1)[0]
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", first)
    return f"{type(error).__name__}: {first.strip()}"[:300]
