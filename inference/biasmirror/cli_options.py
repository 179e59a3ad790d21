"""Parsing of repeatable `--option KEY=VALUE` command-line options (backend settings)."""

from __future__ import annotations

import json
from typing import Any


def parse_key_values(pairs: list[str] | None) -> dict[str, Any]:
    """KEY=VALUE pairs as a dict; VALUE is read as JSON when it parses (numbers, booleans), else kept as text."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option expects KEY=VALUE, got {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options
