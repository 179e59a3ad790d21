"""The report section on the audit gates of scheduled builds (audit.gate_results, docs/metrics.md "Audit gates"):
each gate, its threshold and severity, and its state for every data set, model, generator and setting.

Built with the report's own helpers (`table`, `note`, `no_data`: cell text is escaped there); gate, model, data
set, generator and setting names come from the warehouse and are never written into HTML here."""

from __future__ import annotations

import pandas as pd

from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, Section, html, no_data, note, table

STATE_ORDER = {"failed": 0, "not_evaluated": 1, "passed": 2, "disabled": 3}
GATE_VARS = Markup("<code>gate_max_pdr</code> (e.g. 0.05) and <code>gate_pooled_rate_margin</code> (e.g. 0), with "
                   "<code>gate_severity</code> warn or error")


def _value(value: object, percent: bool = True) -> str:
    if value is None or pd.isna(value):
        return "–"
    return f"{float(value) * 100:+.2f}%" if percent else f"{float(value):g}"


def _state(state: str, severity: str) -> str:
    if state == "failed":
        return f"FAILED ({severity})"
    return {"passed": "passed", "not_evaluated": "not evaluated (no estimate or interval)",
            "disabled": "off (threshold not set)"}.get(state, state)


def audit_gates(marts: Marts) -> Section:
    section = Section("gates", "Audit gates",
                      Markup("Pre-registered lines a model must not cross, checked by every <code>dbt build</code> "
                             "(docs/metrics.md, \"Audit gates\"): a failed gate makes the build warn or fail, "
                             "depending on <code>gate_severity</code>, and is listed here."))
    frame = marts.frame("gate_results")
    if frame.empty:
        section.blocks.append(no_data("gates-no-data", "audit.gate_results is missing or empty (it needs paired "
                                      "metrics).", Markup("run <code>biasmirror build</code>; set ") + GATE_VARS
                                      + Markup(" with <code>--vars</code> to turn gates on.")))
        return section
    enabled = frame[frame["state"] != "disabled"]
    if enabled.empty:
        gates = ", ".join(sorted(set(frame["gate"].astype(str))))
        section.blocks.append(note(html("No gate is set in the build that made these marts (gates: {}). Turn them "
                                        "on with {}.", gates, GATE_VARS)))
        return section
    enabled = enabled.assign(order=enabled["state"].map(STATE_ORDER).fillna(9)).sort_values(
        ["order", "gate", "dataset", "model", "generator", "setting"])
    out = pd.DataFrame({
        "gate": enabled["gate"], "rule": enabled["rule"],
        "threshold": [_value(v) for v in enabled["threshold"]],
        "data set": enabled["dataset"], "model": enabled["model"], "generator": enabled["generator"],
        "setting": enabled["setting"], "metric": enabled["metric"],
        "estimate [95% CI]": [f"{_value(e)} [{_value(lo)}, {_value(hi)}]" for e, lo, hi in
                              zip(enabled["estimate"], enabled["ci_low"], enabled["ci_high"])],
        "sparse": ["yes" if bool(s) else "" for s in enabled["is_sparse"]],
        "state": [_state(str(s), str(v)) for s, v in zip(enabled["state"], enabled["severity"])],
    })
    failed = int((enabled["state"] == "failed").sum())
    section.blocks.append(table(
        "tbl-audit-gates", out,
        html("<b>Audit gates</b> (audit.gate_results): {} of {} checks failed. <b>max_pdr</b> fails when PDR "
             "exceeds the threshold; <b>pooled_rate_margin</b> when the pooled-rate interval excludes zero by more "
             "than the margin (either sign: &gt; 0 - the female presentation gets the less severe level more "
             "often). FAILED (error) made the build fail; FAILED (warn) made it warn. \"sparse\": the interval "
             "rests on too few changed pairs to be read as 95%, so the gate can pass or fail by chance.",
             failed, len(enabled)),
        numeric=("threshold", "estimate [95% CI]")))
    return section
