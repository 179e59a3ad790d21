"""Regular-expression helpers shared by the rule swapper (rules.py) and the English role-noun analysis
(agreement_en.py), kept apart so that neither imports the other."""

from __future__ import annotations

import re
from typing import Any


def trie(forms: list[str]) -> str:
    """Regex alternation of ``forms`` factored as a character trie (faster to scan)."""
    root: dict[str, Any] = {}
    for form in forms:
        node = root
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)
