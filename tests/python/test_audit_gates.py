"""Audit gates of scheduled builds: a model that crosses a gate makes `dbt build` warn (gate_severity warn) or
fail (error) and the failed gate is in audit.gate_results of the published warehouse; a model that stays inside
passes; gates are off while their threshold is null; the gate vars are validated."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from typer.testing import CliRunner

from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

N_BOOT = 200


def planted(n_per_sex: int, moves: dict[tuple[str, str], int]) -> pd.DataFrame:
    """n_per_sex originals of each sex; moves[(sex, 'up' | 'down')] of them move one level."""
    rows = []
    for sex in ("F", "M"):
        up, down = moves[(sex, "up")], moves[(sex, "down")]
        rows += [(sex, 2, 3)] * up + [(sex, 3, 2)] * down + [(sex, 2, 2)] * (n_per_sex - up - down)
    frame = pd.DataFrame(rows, columns=["original_sex", "original_level", "counterfactual_level"])
    frame.insert(0, "pair_id", [f"p{i:05d}" for i in range(len(frame))])
    return frame


# flippy: PDR 0.14 and the female presentation clearly less severe (pooled rate +0.10); steady: PDR 0.02, no tilt
FLIPPY = planted(1000, {("F", "up"): 20, ("F", "down"): 120, ("M", "up"): 120, ("M", "down"): 20})
STEADY = planted(1000, {("F", "up"): 10, ("F", "down"): 10, ("M", "up"): 10, ("M", "down"): 10})
GATES = {"gate_max_pdr": 0.05, "gate_pooled_rate_margin": 0.0}


def run_results(workspace: Workspace) -> dict[str, str]:
    """Status of every test of the last dbt invocation, by test name."""
    results = json.loads((workspace.root / "target" / "run_results.json").read_text())["results"]
    return {r["unique_id"].split(".")[2]: r["status"] for r in results if r["unique_id"].startswith("test.")}


def gate_results(workspace: Workspace, published: bool = False) -> pd.DataFrame:
    query = workspace.query_published if published else workspace.query
    return query("select gate, model, state, severity, threshold, estimate, ci_low, ci_high from audit.gate_results "
                 "order by gate, model")


@pytest.fixture(scope="module")
def gated(module_workspace: Workspace) -> Workspace:
    module_workspace.import_pairs(FLIPPY, "gates", "flippy", "full", name="flippy.parquet")
    module_workspace.import_pairs(STEADY, "gates", "steady", "full", name="steady.parquet")
    # warn (the default severity): the build succeeds, warns, and publishes
    module_workspace.build(variables={"bootstrap_resamples": N_BOOT, **GATES})
    return module_workspace


def test_warn_severity_warns_and_lists_the_failed_gates(gated: Workspace) -> None:
    statuses = run_results(gated)
    assert statuses["gate_max_pdr"] == "warn" and statuses["gate_pooled_rate_margin"] == "warn"
    gates = gate_results(gated, published=True)
    assert len(gates) == 4
    flippy, steady = gates[gates["model"] == "flippy"], gates[gates["model"] == "steady"]
    assert (flippy["state"] == "failed").all() and (steady["state"] == "passed").all()
    assert (gates["severity"] == "warn").all()
    pdr = gates[gates["gate"] == "max_pdr"].set_index("model")["estimate"]
    assert pdr["flippy"] == pytest.approx(0.14) and pdr["steady"] == pytest.approx(0.02)
    pooled = gates[(gates["gate"] == "pooled_rate_margin")].set_index("model")
    assert pooled.at["flippy", "ci_low"] > 0 and pooled.at["steady", "ci_low"] < 0 < pooled.at["steady", "ci_high"]


def test_error_severity_fails_the_build_and_still_publishes_the_gates(gated: Workspace) -> None:
    from biasmirror.cli import app

    builds_before = len(gated.query_published("select * from inference.dbt_builds"))
    with gated.active():
        result = CliRunner().invoke(app, ["build", "--select", "gate_results", "--vars",
                                          json.dumps({"bootstrap_resamples": N_BOOT, "gate_severity": "error", **GATES})])
    assert result.exit_code == 1, result.output
    assert "audit gate" in result.output and "gate_max_pdr" in result.output
    statuses = run_results(gated)
    assert statuses["gate_max_pdr"] == "fail" and statuses["gate_pooled_rate_margin"] == "fail"
    # the marts are sound, so the build was published and recorded: the report shows the failed gates
    gates = gate_results(gated, published=True)
    assert (gates["severity"] == "error").all()
    assert set(gates.loc[gates["state"] == "failed", "model"]) == {"flippy"}
    assert len(gated.query_published("select * from inference.dbt_builds")) == builds_before + 1
    # the report lists the gates, the failed ones first, with their state
    from biasmirror.report.render import write_report

    page = write_report(gated.root / "report", gated.warehouse).path.read_text(encoding="utf-8")
    section = page[page.index('<div class="bm-table" id="tbl-audit-gates"'):]
    section = section[:section.index("</table>")]
    rows = re.findall(r"<tr><td>(max_pdr|pooled_rate_margin)</td>.*?</tr>", section)
    assert len(rows) == 4
    body = section[section.index("<tbody>"):]
    first_two = body.split("</tr>")[:2]
    assert all("flippy" in row and "FAILED (error)" in row for row in first_two), first_two
    assert body.count("FAILED (error)") == 2 and body.count(">passed<") == 2
    assert "2 of 4 checks failed" in page


def test_a_clean_model_passes_with_error_severity(gated: Workspace) -> None:
    from biasmirror.dbt_runner import run_dbt

    with gated.active():
        run_dbt("build", select=["gate_results"], variables={
            "bootstrap_resamples": N_BOOT, "gate_severity": "error", "gate_max_pdr": 0.2, "gate_pooled_rate_margin": 0.2})
    statuses = run_results(gated)
    assert statuses["gate_max_pdr"] == "pass" and statuses["gate_pooled_rate_margin"] == "pass"
    assert (gate_results(gated, published=True)["state"] == "passed").all()


def test_an_error_gate_fails_only_the_model_that_crosses_it(gated: Workspace) -> None:
    """A line between the two models: flippy fails, steady passes, and the build fails with severity error."""
    from biasmirror.dbt_runner import AuditGateFailed, run_dbt

    with gated.active(), pytest.raises(AuditGateFailed) as failure:
        run_dbt("build", select=["gate_results"], variables={
            "bootstrap_resamples": N_BOOT, "gate_severity": "error", "gate_max_pdr": 0.1})
    assert failure.value.gates == ["gate_max_pdr"]
    assert "gate_pooled_rate_margin" not in run_results(gated)  # off: its threshold is null
    gates = gate_results(gated, published=True)
    assert dict(zip(gates.loc[gates["gate"] == "max_pdr", "model"], gates.loc[gates["gate"] == "max_pdr", "state"])) \
        == {"flippy": "failed", "steady": "passed"}
    assert (gates.loc[gates["gate"] == "pooled_rate_margin", "state"] == "disabled").all()


def test_gates_are_off_by_default(gated: Workspace) -> None:
    from biasmirror.dbt_runner import run_dbt

    with gated.active():
        run_dbt("build", select=["gate_results"], variables={"bootstrap_resamples": N_BOOT})
    assert not {"gate_max_pdr", "gate_pooled_rate_margin"} & set(run_results(gated))
    gates = gate_results(gated, published=True)
    assert (gates["state"] == "disabled").all() and gates["threshold"].isna().all()


@pytest.mark.parametrize("variables, message", [
    ({"gate_severity": "fatal"}, "var gate_severity = \"fatal\": allowed is one of warn, error"),
    ({"gate_max_pdr": 1.5}, "var gate_max_pdr = 1.5: allowed is a number from 0 to 1"),
    ({"gate_pooled_rate_margin": "wide"}, "var gate_pooled_rate_margin = \"wide\": allowed is a number from 0 to 1"),
])
def test_gate_vars_are_validated(gated: Workspace, variables: dict, message: str, capsys) -> None:
    from biasmirror.dbt_runner import DbtFailed, run_dbt

    with gated.active(), pytest.raises(DbtFailed) as failure:
        run_dbt("build", select=["gate_results"], variables={"bootstrap_resamples": N_BOOT, **variables})
    assert message in str(failure.value) + capsys.readouterr().out
