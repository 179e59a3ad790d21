"""How the report writes numbers: intervals with as many decimals as it takes to show their width, and
p-values that never read as 0."""

from __future__ import annotations

import pandas as pd

# Decimals an interval may grow to before two different numbers still print alike (then they are shown alike).
MAX_DIGITS = 6
P_FLOOR = 0.001


def _missing(value: float | None) -> bool:
    return value is None or bool(pd.isna(value))


def interval(estimate: float | None, low: float | None = None, high: float | None = None, *, scale: float = 1.0,
             unit: str = "", digits: int = 2, signed: bool = True) -> str:
    """'+0.31 [+0.13, +0.48]' (the unit after the estimate), with `digits` decimals or more: as many as it takes
    for an interval of non-zero width to print two different bounds, and for an estimate that differs from a
    bound to print differently from it (`+0.102 [+0.100, +0.104]`, never `+0.10 [+0.10, +0.10]`)."""
    if _missing(estimate):
        return "–"
    sign = "+" if signed else ""
    values = [float(estimate) * scale]
    has_interval = not (_missing(low) or _missing(high))
    if has_interval:
        values += [float(low) * scale, float(high) * scale]  # type: ignore[arg-type]
    places = digits
    while places < MAX_DIGITS:
        texts = [f"{v:{sign}.{places}f}" for v in values]
        distinct = all(texts[i] != texts[j] for i in range(len(values)) for j in range(i + 1, len(values))
                       if values[i] != values[j])
        if distinct:
            break
        places += 1
    texts = [f"{v:{sign}.{places}f}" for v in values]
    text = f"{texts[0]}{unit}"
    if has_interval:
        text += f" [{texts[1]}, {texts[2]}]"
    return text


def p_value(p: float | None) -> str:
    """'0.042', '< 0.001' (never '0' or '1e-12'), '–' when there is none."""
    if _missing(p):
        return "–"
    if float(p) < P_FLOOR:  # type: ignore[arg-type]
        return f"< {P_FLOOR}"
    return f"{float(p):.3f}"  # type: ignore[arg-type]
