"""The OpenAI-compatible HTTP backend against a local server started by the test: payloads, retries after a
500 and a timeout, no retry on a 400, concurrency limit, loopback detection, and the registry."""

from __future__ import annotations

import threading
import time

import pytest

from biasmirror.backends.base import ChatMessage, GenerationRequest
from biasmirror.backends.openai_backend import OpenAIBackend, is_loopback_url, request_payload
from biasmirror.backends.registry import make_backend
from local_openai_server import LocalChatServer, completion


def request(text: str = "hello", **kwargs) -> GenerationRequest:
    return GenerationRequest((ChatMessage("system", "be brief"), ChatMessage("user", text)), **kwargs)


def echo(body, n):
    return 200, completion("echo: " + body["messages"][-1]["content"]), 0.0


def test_sends_the_chat_payload_and_reads_the_answer() -> None:
    with LocalChatServer(echo) as server:
        backend = OpenAIBackend("tiny-chat", base_url=server.url, api_key="secret-1", max_retries=0)
        answers = backend.generate([request("one", max_tokens=7, temperature=0.5, seed=3, stop=("\n",)),
                                    request("two")])
    assert [a.text for a in answers] == ["echo: one", "echo: two"]
    assert all(a.finish_reason == "stop" and a.error is None for a in answers)
    bodies = sorted(server.bodies, key=lambda b: b["messages"][-1]["content"])
    assert bodies[0] == {"model": "tiny-chat", "max_tokens": 7, "temperature": 0.5, "seed": 3, "stop": ["\n"],
                         "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "one"}]}
    assert "seed" not in bodies[1] and "stop" not in bodies[1]
    assert all(h.get("Authorization") == "Bearer secret-1" for h in server.headers)
    assert request_payload("m", request("x"))["messages"][-1] == {"role": "user", "content": "x"}


def test_retries_after_a_server_error_then_succeeds() -> None:
    def flaky(body, n):
        return (500, {"error": "boom"}, 0.0) if n < 2 else (200, completion("fine"), 0.0)

    with LocalChatServer(flaky) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=3, backoff=0.01)
        (answer,) = backend.generate([request()])
    assert answer.text == "fine" and answer.error is None
    assert len(server.bodies) == 3 and backend.retries == 2


def test_retries_after_a_timeout() -> None:
    def slow_first(body, n):
        return 200, completion("late" if n == 0 else "on time"), (6.0 if n == 0 else 0.0)

    with LocalChatServer(slow_first) as server:
        backend = OpenAIBackend("m", base_url=server.url, timeout=1.5, max_retries=2, backoff=0.01)
        started = time.perf_counter()
        (answer,) = backend.generate([request()])
        elapsed = time.perf_counter() - started
    assert answer.text == "on time" and backend.retries == 1
    assert len(server.bodies) == 2
    assert elapsed < 4.0  # the client gave up on the slow answer instead of waiting for it


def test_gives_up_after_max_retries_with_an_error_generation() -> None:
    with LocalChatServer(lambda body, n: (503, {"error": "busy"}, 0.0)) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=2, backoff=0.01)
        (answer,) = backend.generate([request("patient text that must not leak")])
    assert answer.finish_reason == "error" and answer.text == ""
    assert "gave up after 3 attempts" in answer.error and "HTTP 503" in answer.error
    assert "patient text" not in answer.error
    assert len(server.bodies) == 3


def test_client_errors_are_not_retried() -> None:
    with LocalChatServer(lambda body, n: (400, {"error": "bad request"}, 0.0)) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=3, backoff=0.01)
        (answer,) = backend.generate([request()])
    assert answer.error == f"HTTP 400 from {server.url}" and len(server.bodies) == 1


def test_a_malformed_body_is_retried_then_reported() -> None:
    with LocalChatServer(lambda body, n: (200, "not json", 0.0)) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=1, backoff=0.01)
        (answer,) = backend.generate([request()])
    assert "malformed response" in answer.error and len(server.bodies) == 2


def test_unreachable_server_is_an_error_not_an_exception() -> None:
    with LocalChatServer(echo) as server:
        url = server.url
    backend = OpenAIBackend("m", base_url=url, max_retries=1, backoff=0.01, timeout=2)
    (answer,) = backend.generate([request()])
    assert answer.finish_reason == "error" and "cannot reach" in answer.error


def test_concurrency_limit_is_respected_and_order_is_kept() -> None:
    active = {"now": 0, "max": 0}
    lock = threading.Lock()

    def counting(body, n):
        with lock:
            active["now"] += 1
            active["max"] = max(active["max"], active["now"])
        time.sleep(0.05)
        with lock:
            active["now"] -= 1
        return 200, completion(body["messages"][-1]["content"].upper()), 0.0

    with LocalChatServer(counting) as server:
        backend = OpenAIBackend("m", base_url=server.url, concurrency=3)
        texts = [f"r{i}" for i in range(12)]
        answers = backend.generate([request(t) for t in texts])
    assert [a.text for a in answers] == [t.upper() for t in texts]
    assert 2 <= active["max"] <= 3


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:8000/v1", True), ("http://localhost:8000/v1", True), ("http://[::1]:8000/v1", True),
    ("http://127.8.9.10/v1", True), ("https://api.example.com/v1", False), ("http://10.0.0.5:8000/v1", False),
    ("http://192.168.1.2/v1", False), ("http://localhost.example.com/v1", False),
])
def test_loopback_detection(url: str, local: bool) -> None:
    assert is_loopback_url(url) is local
    assert OpenAIBackend("m", base_url=url).is_local is local


def test_registry_builds_it_and_rejects_bad_options() -> None:
    backend = make_backend("openai", "m", base_url="http://127.0.0.1:9/v1", concurrency=2)
    assert isinstance(backend, OpenAIBackend) and backend.name == "openai" and backend.concurrency == 2
    with pytest.raises(ValueError, match="http"):
        make_backend("openai", "m", base_url="ftp://x")
    with pytest.raises(ValueError, match="model name"):
        OpenAIBackend("", base_url="http://127.0.0.1/v1")


# -- why a request failed: status, error type, the start of a non-JSON body, never the prompt ---------------------

PROMPT = "PATIENT NOTE: 67 year old woman with chest pain"
HTML_PAGE = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
             "<p>The proxy could not reach the upstream server.</p>" + "<p>padding</p>" * 40 + "</body></html>")


@pytest.mark.parametrize("respond, reason, status, error_type, attempts, body", [
    (lambda b, n: (400, {"error": {"type": "invalid_request_error", "message": "echo " + PROMPT}}, 0.0),
     "HTTP 400", 400, "HTTPError", 1, None),
    (lambda b, n: (429, {"error": {"type": "rate_limit"}}, 0.0, {"Retry-After": "0"}), "HTTP 429", 429, "HTTPError", 3, None),
    (lambda b, n: (500, {"error": "boom"}, 0.0), "HTTP 500", 500, "HTTPError", 3, None),
    (lambda b, n: (502, HTML_PAGE, 0.0, {"Content-Type": "text/html; charset=utf-8"}), "HTTP 502", 502, "HTTPError", 3,
     ("text/html", len(HTML_PAGE))),
    (lambda b, n: (200, HTML_PAGE, 0.0, {"Content-Type": "text/html"}), "non-JSON answer", 200, "JSONDecodeError", 3,
     ("text/html", len(HTML_PAGE))),
    (lambda b, n: (200, completion("late"), 3.0), "timeout", None, None, 3, None),
])
def test_a_failed_request_says_why(respond, reason, status, error_type, attempts, body) -> None:
    with LocalChatServer(respond) as server:
        backend = OpenAIBackend("m", base_url=server.url, max_retries=2, backoff=0.01, timeout=1.5)
        (answer,) = backend.generate([request(PROMPT)])
    failure = answer.failure
    assert answer.finish_reason == "error" and failure is not None
    assert failure.reason == reason and failure.http_status == status and failure.attempts == attempts
    assert failure.error_type == error_type or (error_type is None and failure.error_type in ("TimeoutError", "timeout"))
    if body is not None:  # an answer body is described (content type, length), never quoted
        assert (failure.content_type, failure.body_chars) == body
    else:
        assert failure.content_type in (None, "application/json")
    assert len(server.bodies) == attempts
    for text in (answer.error, failure.reason, failure.error_type or "", failure.content_type or ""):
        assert "PATIENT" not in text and "chest pain" not in text and "Gateway" not in text


def test_a_refused_connection_says_so() -> None:
    with LocalChatServer(echo) as server:
        url = server.url  # closed on exit: nothing listens on that port any more
    (answer,) = OpenAIBackend("m", base_url=url, max_retries=1, backoff=0.01, timeout=2).generate([request(PROMPT)])
    assert answer.failure.reason == "connection refused"
    assert answer.failure.error_type == "ConnectionRefusedError" and answer.failure.attempts == 2
    assert answer.failure.http_status is None and "PATIENT" not in answer.error


def test_credentials_in_the_url_never_reach_a_message() -> None:
    backend = OpenAIBackend("m", base_url="http://user:s3cret@127.0.0.1:9/v1", max_retries=0, timeout=2)
    (answer,) = backend.generate([request(PROMPT)])
    assert answer.failure is not None and "s3cret" not in answer.error and "user:" not in answer.error
    assert backend.shown_url == "http://127.0.0.1:9/v1"


def test_a_constrained_request_carries_vllm_structured_outputs_and_its_own_cache_key() -> None:
    import hashlib
    import json
    from dataclasses import asdict, replace

    from biasmirror.backends.base import request_key

    free = request("pick one")
    constrained = replace(free, constraint=json.dumps({"choice": ["<person>A</person>", "<person>B</person>"]}))
    assert "structured_outputs" not in request_payload("m", free)
    assert request_payload("m", constrained)["structured_outputs"] == {"choice": ["<person>A</person>", "<person>B</person>"]}
    # a request without a constraint keeps the key it had before the field existed (stored answers stay found)
    old_fields = {k: v for k, v in asdict(free).items() if k != "constraint"}
    old_key = hashlib.sha256(json.dumps({"backend": "openai", "model": "m", "request": old_fields}, sort_keys=True,
                                        ensure_ascii=False).encode("utf-8")).hexdigest()
    assert request_key("openai", "m", free) == old_key != request_key("openai", "m", constrained)
    assert OpenAIBackend("m").structured_outputs
