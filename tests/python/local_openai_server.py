"""A small OpenAI-compatible chat server on 127.0.0.1 for tests of the openai backend and the LLM rewriter.

It runs in a thread of the test process (http.server), records every request body, and answers each request
with what a test-supplied `respond(body, n)` returns: (HTTP status, JSON payload or text, delay in seconds), or
the same with a fourth item, a dict of extra headers (e.g. a Content-Type of text/html for a proxy's error page),
where n counts the requests received so far (from 0). `rule_swap_answer` is a stand-in model that answers the
rewriter's prompts correctly, with the rule-based swapper.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from biasmirror.counterfactuals.rules import swap_sex

Respond = Callable[[dict[str, Any], int], tuple[int, Any, float]]


def completion(text: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion", "model": "local",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}]}


class LocalChatServer:
    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.answered = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    n = len(server.bodies)
                    server.bodies.append(body)
                    server.headers.append(dict(self.headers))
                status, payload, delay, *extra = server.respond(body, n)
                headers = {"Content-Type": "application/json", **(extra[0] if extra else {})}
                if delay:
                    time.sleep(delay)
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    return
                with server._lock:
                    server.answered += 1

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "LocalChatServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


def last_record(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(target sex, record) of the rewriter prompt in a request body (the last user turn that holds one)."""
    for message in reversed(body["messages"]):
        if message["role"] != "user":
            continue
        try:
            value = json.loads(message["content"])
        except ValueError:
            continue
        return value["target_sex"], value["record"]
    raise AssertionError("no rewriter record in the request")


def is_retry(body: dict[str, Any]) -> bool:
    """True for the rewriter's second attempt (its last user turn is the retry message, not a record)."""
    try:
        json.loads(body["messages"][-1]["content"])
        return False
    except ValueError:
        return True


def rule_swap_is_valid(hpi: str | None, pmh: str | None, sex: str) -> bool:
    """Whether the rule swap of an English record passes the rewriter's checks (checks.field_problems). The synthetic
    notes name relatives and clinicians with their own pronouns, which the rule swap sometimes swaps too: a stub that
    answers with the rule swap then gets those records flagged, after the one retry."""
    from biasmirror.counterfactuals.base import OTHER_SEX
    from biasmirror.counterfactuals.checks import field_problems

    target = OTHER_SEX[sex]
    return not any(field_problems(name, text, swap_sex(text, target).text, target, "en")
                   for name, text in (("hpi", hpi), ("pmh", pmh)))


def rule_swap_answer(body: dict[str, Any], language: str = "en") -> str:
    """A correct rewriter answer: the record itself for a placebo target, else the rule-based swap."""
    target, record = last_record(body)
    if target == record["sex"]:
        return json.dumps({"sex": target, "hpi": record["hpi"], "pmh": record["pmh"]})
    return json.dumps({"sex": target, **{f: swap_sex(record[f], target, language).text for f in ("hpi", "pmh")}})
