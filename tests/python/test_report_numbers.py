"""How the report writes numbers: an interval of non-zero width never prints two equal bounds, every printed
number is the value rounded to the decimals shown, and a p-value below 0.001 reads `< 0.001`, never `0`."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import binomtest

from biasmirror.report.numbers import interval, p_value


def parse(text: str) -> tuple[list[float], int]:
    found = re.findall(r"[-+]?\d+\.(\d+)", text)
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", text)], len(found[0])


def test_narrow_intervals_get_the_digits_that_show_their_width() -> None:
    assert interval(0.1012, 0.1001, 0.1023) == "+0.101 [+0.100, +0.102]"
    assert interval(0.1, 0.1, 0.1) == "+0.10 [+0.10, +0.10]"  # a zero-width interval stays as it is
    assert interval(0.0552, 0.0315, 0.0774, scale=100, unit="%") == "+5.52% [+3.15, +7.74]"
    assert interval(float("nan"), 0.1, 0.2) == "–" and interval(0.2, float("nan"), 0.3) == "+0.20"
    rng = np.random.default_rng(7)
    for _ in range(2000):
        centre = rng.uniform(-1, 1)
        low, high = sorted(centre + rng.exponential(10.0 ** rng.uniform(-7, -1), 2) * [-1, 1])
        text = interval(centre, low, high, signed=bool(rng.integers(2)))
        shown, digits = parse(text)
        assert shown == pytest.approx([centre, low, high], abs=0.5 * 10 ** -digits + 1e-12), text
        if high - low > 2e-6:
            assert shown[1] != shown[2], text


def test_p_values_never_read_as_zero() -> None:
    tiny = binomtest(990, 1000, 0.5).pvalue
    assert 0 <= tiny < 1e-100
    assert p_value(tiny) == "< 0.001" and p_value(0.0) == "< 0.001"
    assert p_value(binomtest(540, 1000, 0.5).pvalue) == f"{binomtest(540, 1000, 0.5).pvalue:.3f}"
    assert p_value(0.0423) == "0.042" and p_value(1.0) == "1.000" and p_value(None) == "–"
