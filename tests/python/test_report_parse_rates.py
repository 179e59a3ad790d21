"""The report's parse-rate table of the implicit study (audit.implicit_parse_rates): one row per cell, the shares
and counts formatted from the mart, conditions only for allocation, model labels escaped."""

from __future__ import annotations

import pandas as pd

from biasmirror.report.implicit import _parse_rate_blocks


def test_parse_rate_table_shows_each_cell_with_its_interval_and_escapes_labels() -> None:
    frame = pd.DataFrame([
        {"model": "smol<script>", "prompt_set": "biasmirror-v1", "language": "en", "task": "associations",
         "explanation": None, "symptoms": None, "decoding": "free", "n_answers": 16, "n_parsed": 6,
         "parsed_share": 6 / 16, "ci_low": 0.152, "ci_high": 0.646, "n_ok": 2, "n_lenient": 4, "n_refused": 1,
         "n_unparsed": 9, "n_truncated": 3},
        {"model": "smol<script>", "prompt_set": "biasmirror-v1", "language": "en", "task": "allocation",
         "explanation": True, "symptoms": False, "decoding": "constrained", "n_answers": 32, "n_parsed": 32,
         "parsed_share": 1.0, "ci_low": 0.891, "ci_high": 1.0, "n_ok": 32, "n_lenient": 0, "n_refused": 0,
         "n_unparsed": 0, "n_truncated": 0},
    ])
    blocks = _parse_rate_blocks(frame, simulated={"smol<script>"})
    page = "".join(str(b) for b in blocks)
    assert "<script>" not in page and "smol&lt;script&gt; (simulated respondent)" in page
    rows = page.split("<tr>")[2:]
    assert len(rows) == 2
    allocation = next(r for r in rows if "allocation" in r)
    words = next(r for r in rows if "associations" in r)
    assert "explanation, no symptoms" in allocation and "100.0% [89.1, 100.0]" in allocation
    assert "37.5% [15.2, 64.6]" in words and "2 / 4" in words and "1 / 9" in words and ">3<" in words
    assert _parse_rate_blocks(pd.DataFrame(), set()) == []
