"""LLM failures that say why, against the local OpenAI-compatible server: HTTP 400, 429 and 500, a timeout, an
HTML error page and a refused connection are each stored per record (inference.llm_failures: status, error type,
the start of a non-JSON body, never the prompt) and counted by reason in the run's parameters and its closing
message; a run where every request failed is marked failed and the command exits non-zero with the reasons, for
the counterfactuals and the implicit-bias study; --retry-flagged asks again for flagged records past the cache,
and --no-cache for every request."""

from __future__ import annotations

import hashlib
import json

import pytest
from typer.testing import CliRunner

from biasmirror.cli import app
from warehouse_workspace import Workspace
from local_openai_server import LocalChatServer, completion, last_record, rule_swap_answer, rule_swap_is_valid
from test_counterfactual_pipeline import build

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

HTML_PAGE = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
             "<p>nginx</p>" + "<p>.</p>" * 60 + "</body></html>")
OUTCOMES = ("HTTP 400", "HTTP 429", "HTTP 500", "HTTP 502", "non-JSON answer", "timeout", "ok")


def outcome_of(hpi: str | None) -> str:
    """Each record's planted outcome, from a hash of its text (stable across requests and retries)."""
    digest = int(hashlib.md5((hpi or "").encode()).hexdigest(), 16)
    return OUTCOMES[digest % len(OUTCOMES)]


def faulty_server(body, n):
    _, record = last_record(body)
    outcome = outcome_of(record["hpi"])
    if outcome == "HTTP 400":
        return 400, {"error": {"type": "invalid_request_error", "message": "cannot read " + (record["hpi"] or "")}}, 0.0
    if outcome == "HTTP 429":
        return 429, {"error": {"type": "rate_limit_exceeded"}}, 0.0, {"Retry-After": "0"}
    if outcome == "HTTP 500":
        return 500, {"error": "internal"}, 0.0
    if outcome == "HTTP 502":
        return 502, HTML_PAGE, 0.0, {"Content-Type": "text/html"}
    if outcome == "non-JSON answer":
        return 200, HTML_PAGE, 0.0, {"Content-Type": "text/html"}
    if outcome == "timeout":
        return 200, completion(rule_swap_answer(body)), 5.0
    return 200, completion(rule_swap_answer(body)), 0.0


@pytest.fixture(scope="module")
def cohort(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    from biasmirror.synth.mimic import write_mimic

    root = tmp_path_factory.mktemp("mimic")
    write_mimic(root, stays=150, seed=23)
    build(module_workspace, ["+triage_cohort"], {"mimic_root": str(root)})
    return module_workspace


# The client waits 2.5 s, the planted timeout answers after 5 s: margins wide enough that a quick answer never
# times out on a loaded two-core machine (with 0.5 s, a 400 answer once timed out and was retried).
def counterfactuals(server_url: str, name: str, *extra: str) -> list[str]:
    return ["counterfactuals", "--dataset", "mimic", "--generator", "llm", "--backend", "openai", "--model", "stub",
            "--option", f"base_url={server_url}", "--option", "max_retries=1", "--option", "backoff=0.01",
            "--option", "timeout=2.5", "--k-shots", "1", "--batch-size", "8", "--name", name, *extra]


def test_each_failed_record_says_why_and_the_run_counts_the_reasons(cohort: Workspace) -> None:
    test = cohort.query("select record_id, hpi, pmh from audit.triage_cohort where split = 'test' order by record_id")
    expected = {record_id: outcome_of(hpi) for record_id, hpi in zip(test.record_id, test.hpi)}
    assert set(expected.values()) == set(OUTCOMES)  # every kind of failure is exercised
    with LocalChatServer(faulty_server) as server, cohort.active():
        result = CliRunner().invoke(app, counterfactuals(server.url, "llm-faulty"))
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())  # the console wraps long lines
    failed = {r: o for r, o in expected.items() if o != "ok"}
    assert f"{len(failed):,} record(s) left for a later run" in output
    rows = cohort.query("select * from inference.llm_failures where item_id is not null and run_id = "
                        "(select run_id from inference.runs where generator = 'llm-faulty')")
    assert dict(zip(rows.item_id, rows.reason)) == failed  # one row per failed record, with its own reason
    by_reason = rows.set_index("reason")
    assert set(rows[rows.reason.str.startswith("HTTP")].http_status) == {400, 429, 500, 502}
    assert (rows[rows.reason == "HTTP 400"].attempts == 1).all()  # a client error is not retried
    assert (rows[rows.reason.isin(["HTTP 429", "HTTP 500", "timeout"])].attempts == 2).all()
    # an answer body is described by its content type and length, never quoted (it may be a patient's note)
    assert "body_excerpt" not in rows.columns
    assert set(by_reason.loc[["HTTP 502"], "content_type"]) == {"text/html"}
    assert set(by_reason.loc[["HTTP 502", "non-JSON answer"], "body_chars"]) == {len(HTML_PAGE)}
    assert set(by_reason.loc[["timeout"], "error_type"]) == {"TimeoutError"}
    assert rows[rows.reason == "timeout"].body_chars.isna().all()
    # never the prompt: no failure column holds any of the records' text (the 400 body echoed it back)
    texts = [t for t in list(test.hpi) + list(test.pmh) if t and len(t) > 20]
    stored = " ".join(str(v) for v in rows.drop(columns=["created_at"]).to_numpy().ravel())
    assert not any(t[:40] in stored for t in texts)
    run = cohort.query("select status, parameters from inference.runs where generator = 'llm-faulty'")
    counts = json.loads(run.parameters[0])["failures"]
    assert run.status[0] == "finished"
    assert counts == {reason: list(failed.values()).count(reason) for reason in set(failed.values())}
    for reason, n in counts.items():
        assert f"{reason} x {n:,}" in output
    # the error page is described (content type, length), never quoted
    assert f"the answer was text/html, {len(HTML_PAGE):,} bytes" in output and "DOCTYPE" not in output
    written = cohort.query("select count(*) as n from inference.counterfactuals where generator = 'llm-faulty'").n[0]
    assert written == len(expected) - len(failed)


def test_a_run_where_every_request_fails_is_failed_and_exits_non_zero(cohort: Workspace) -> None:
    with LocalChatServer(lambda b, n: (200, completion("x"), 0.0)) as server:
        url = server.url  # closed: the connection is refused
    with cohort.active():
        result = CliRunner().invoke(app, counterfactuals(url, "llm-refused", "--limit", "5"))
    assert result.exit_code == 1, result.output
    output = " ".join(result.output.split())
    assert "every request failed" in output and "connection refused x 5" in output
    run = cohort.query("select run_id, status, parameters from inference.runs where generator = 'llm-refused'")
    assert run.status[0] == "failed" and json.loads(run.parameters[0])["failures"] == {"connection refused": 5}
    rows = cohort.query("select reason, error_type, http_status from inference.llm_failures where run_id = ?",
                        [run.run_id[0]])
    assert len(rows) == 5 and set(rows.error_type) == {"ConnectionRefusedError"} and rows.http_status.isna().all()


def test_retry_flagged_asks_again_past_the_cache_and_no_cache_asks_everything(cohort: Workspace) -> None:
    state = {"refuse": True}

    def moody(body, n):
        _, record = last_record(body)
        if state["refuse"] and "pain" in (record["hpi"] or "").lower():
            return 200, completion('{"cannot_swap": "not today"}'), 0.0
        return 200, completion(rule_swap_answer(body)), 0.0

    # a record whose rule swap fails the rewriter's checks is asked twice (the retry) and stays flagged
    test = cohort.query("select record_id, sex, hpi, pmh from audit.triage_cohort where split = 'test'")
    invalid = {r for r, h, p, x in zip(test.record_id, test.hpi, test.pmh, test.sex) if not rule_swap_is_valid(h, p, x)}
    with LocalChatServer(moody) as server, cohort.active():
        first = CliRunner().invoke(app, counterfactuals(server.url, "llm-moody"))
        assert first.exit_code == 0, first.output
        flagged = cohort.query("select record_id from inference.counterfactuals where generator = 'llm-moody' "
                               "and status = 'flagged'").record_id
        assert len(flagged) > len(invalid & set(flagged))
        state["refuse"] = False
        sent = len(server.bodies)
        again = CliRunner().invoke(app, counterfactuals(server.url, "llm-moody"))
        assert again.exit_code == 0 and len(server.bodies) == sent  # done records are not asked again
        retried = CliRunner().invoke(app, counterfactuals(server.url, "llm-moody", "--retry-flagged"))
        assert retried.exit_code == 0, retried.output
        # exactly the flagged ones, past the cache (and the retry of those whose rule swap is invalid)
        assert len(server.bodies) - sent == len(flagged) + len(invalid & set(flagged))
        assert f"{len(flagged):,} flagged earlier asked again" in retried.output
        status = cohort.query("select status, count(*) as n from inference.counterfactuals where generator = "
                              "'llm-moody' group by status")
        expected = {"ok": len(test) - len(invalid), "flagged": len(invalid)}
        assert dict(zip(status.status, status.n)) == {k: v for k, v in expected.items() if v}
        # the new answers replaced the cached refusals: a cached replay now gives ok copies
        with_cache = len(server.bodies)
        from biasmirror.warehouse import connect

        with connect() as con:
            con.execute("delete from inference.counterfactuals where generator = 'llm-moody'")
        CliRunner().invoke(app, counterfactuals(server.url, "llm-moody"))
        assert len(server.bodies) == with_cache
        with connect() as con:
            con.execute("delete from inference.counterfactuals where generator = 'llm-moody'")
        CliRunner().invoke(app, counterfactuals(server.url, "llm-moody", "--no-cache"))
        assert len(server.bodies) - with_cache == len(test) + len(invalid)
    run = cohort.query("select parameters from inference.runs where generator = 'llm-moody' order by started_at")
    parameters = [json.loads(p) for p in run.parameters]
    assert [p["retry_flagged"] for p in parameters] == [False, False, True, False, False]
    assert parameters[2]["n_flagged_retried"] == len(flagged) and parameters[-1]["no_cache"] is True


def test_the_implicit_study_records_failures_and_exits_non_zero_when_all_fail(cohort: Workspace) -> None:
    options = ["--option", "max_retries=0", "--option", "backoff=0.01"]
    with LocalChatServer(lambda b, n: (500, "<html><body>upstream down</body></html>", 0.0,
                                       {"Content-Type": "text/html"})) as server, cohort.active():
        result = CliRunner().invoke(app, ["implicit", "explicit", "--backend", "openai", "--model", "stub",
                                          "--option", f"base_url={server.url}", *options, "--label", "down"])
    assert result.exit_code == 1, result.output
    output = " ".join(result.output.split())
    assert "every request failed" in output and "HTTP 500 x 4" in output
    assert "upstream down" not in output and "text/html, 39 bytes" in output  # described, never quoted
    run = cohort.query("select run_id, status, parameters from inference.runs where kind = 'implicit_explicit' "
                       "and model = 'down'")
    assert run.status[0] == "failed" and json.loads(run.parameters[0])["failures"] == {"HTTP 500": 4}
    rows = cohort.query("select item_id, dataset, reason, content_type, body_chars from inference.llm_failures where run_id = ?",
                        [run.run_id[0]])
    assert sorted(rows.item_id) == ["explicit/en/allocation", "explicit/en/association", "explicit/es/allocation",
                                    "explicit/es/association"]
    assert set(rows.dataset) == {"implicit"} and set(zip(rows.content_type, rows.body_chars)) == {("text/html", 39)}
    # no cache: every question asked again, even those answered
    with LocalChatServer(lambda b, n: (200, completion("No."), 0.0)) as server, cohort.active():
        base = ["implicit", "explicit", "--backend", "openai", "--model", "stub", "--option", f"base_url={server.url}",
                *options, "--label", "up"]
        assert CliRunner().invoke(app, base).exit_code == 0
        from biasmirror.warehouse import connect

        with connect() as con:
            con.execute("delete from inference.implicit_explicit_answers where model = 'up'")
        assert CliRunner().invoke(app, base).exit_code == 0 and len(server.bodies) == 4  # from the cache
        with connect() as con:
            con.execute("delete from inference.implicit_explicit_answers where model = 'up'")
        assert CliRunner().invoke(app, [*base, "--no-cache"]).exit_code == 0 and len(server.bodies) == 8
