"""Names shared across the package. The SQL side defines the settings in macros/counterfactual_settings.sql;
these constants must list the same names (a test checks it)."""

from __future__ import annotations

SETTINGS: tuple[str, ...] = ("full", "text_only", "tabular_only")
LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
SEXES: tuple[str, ...] = ("F", "M")
