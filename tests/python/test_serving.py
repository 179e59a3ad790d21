"""The serving layer without a server: the vLLM server's command line and CPU settings, the completions request of
label scoring and the reading of its answer, and how work is spread over several endpoints (each item once, in order,
moved off an endpoint that fails). The same parts against a real vLLM server: test_vllm_server.py (marked vllm)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from biasmirror.serving.endpoints import Endpoint, EndpointError, EndpointPool, EndpointUnavailable, shown_url
from biasmirror.serving.environment import cpu_engine_environment
from biasmirror.serving.local_server import server_arguments
from biasmirror.triage.endpoint_scoring import completion_payload, first_token_logprobs
from biasmirror.triage.vllm_scoring import label_probabilities


def test_server_arguments_serve_adapters_by_name_with_cpu_settings(tmp_path: Path) -> None:
    arguments = server_arguments(tmp_path / "base", "base", 8123, adapters={"a": tmp_path / "a", "b": tmp_path / "b"},
                                 max_model_len=2048, cpu=True)
    text = " ".join(arguments)
    assert "--host 127.0.0.1" in text and "--port 8123" in text and "--logprobs-mode processed_logprobs" in text
    assert "--enable-lora --max-lora-rank 16 --max-loras 2 --lora-modules" in text
    assert f"a={(tmp_path / 'a').resolve()}" in arguments and f"b={(tmp_path / 'b').resolve()}" in arguments
    assert "--dtype float32" in text and "--enable-prefix-caching" in text and "--disable-uvicorn-access-log" in text
    gpu = server_arguments(tmp_path, "m", 1, cpu=False, enable_prefix_caching=False)
    assert "--dtype" not in gpu and "--enable-lora" not in gpu and "--no-enable-prefix-caching" in gpu


def test_cpu_environment_sizes_the_kv_cache_and_keeps_what_the_user_set() -> None:
    env = cpu_engine_environment({"PATH": "/bin"})
    assert env["VLLM_CPU_KVCACHE_SPACE"] == "2" and env["VLLM_ENABLE_V1_MULTIPROCESSING"] == "0"
    assert cpu_engine_environment({"VLLM_CPU_KVCACHE_SPACE": "8"})["VLLM_CPU_KVCACHE_SPACE"] == "8"


def test_completion_payload_sends_token_ids_and_asks_for_the_label_tokens_only() -> None:
    payload = completion_payload("a", [[1, 2, 3], [4, 5]], [33, 34, 35])
    assert payload == {"model": "a", "prompt": [[1, 2, 3], [4, 5]], "max_tokens": 1, "temperature": 0.0,
                       "logprobs": 3, "allowed_token_ids": [33, 34, 35], "return_tokens_as_token_ids": True}


def test_first_token_logprobs_follow_the_choice_index_and_renormalise() -> None:
    lp = np.log([0.5, 0.3, 0.2])
    document = {"choices": [
        {"index": 1, "logprobs": {"top_logprobs": [{"token_id:35": float(lp[2]), "token_id:33": float(lp[0])}]}},
        {"index": 0, "logprobs": {"top_logprobs": [{f"token_id:{33 + k}": float(lp[k]) for k in range(3)}]}}]}
    rows = first_token_logprobs(document, 2)
    assert rows[0] == pytest.approx({33: lp[0], 34: lp[1], 35: lp[2]})
    probabilities, missing = label_probabilities(rows, [33, 34, 35])
    np.testing.assert_allclose(probabilities[0], [0.5, 0.3, 0.2])
    np.testing.assert_allclose(probabilities[1], [0.5 / 0.7, 0.0, 0.2 / 0.7])  # a missing label gets 0
    assert missing == 1
    with pytest.raises(ValueError, match="completions for 3 prompts"):
        first_token_logprobs(document, 3)
    with pytest.raises(ValueError, match="return_tokens_as_token_ids"):
        first_token_logprobs({"choices": [{"index": 0, "logprobs": {"top_logprobs": [{" 3": -0.1}]}}]}, 1)


def test_endpoints_refuse_non_http_urls_and_never_show_credentials() -> None:
    with pytest.raises(ValueError, match="http"):
        Endpoint.from_url("ftp://127.0.0.1/v1")
    assert shown_url("http://user:secret@gpu-1:8000/v1?key=abc") == "http://gpu-1:8000/v1"
    assert Endpoint.from_url("http://127.0.0.1:8000/v1/").is_local
    assert not Endpoint.from_url("http://10.0.0.5:8000/v1").is_local


def test_pool_sends_every_item_once_and_keeps_their_order() -> None:
    endpoints = [Endpoint("http://127.0.0.1:1/v1"), Endpoint("http://127.0.0.1:2/v1")]
    pool = EndpointPool(endpoints, per_endpoint=2)
    seen: list[int] = []
    lock = threading.Lock()

    def send(endpoint: Endpoint, item: int) -> tuple[str, int]:
        time.sleep(0.01)
        with lock:
            seen.append(item)
        return endpoint.base_url, item * item

    results = pool.map(send, list(range(40)))
    assert [value for _, value in results] == [i * i for i in range(40)]
    assert sorted(seen) == list(range(40))  # each item sent once
    assert {url for url, _ in results} == {e.base_url for e in endpoints}  # both endpoints took work
    assert sum(pool.batches_per_endpoint.values()) == 40


def test_pool_moves_work_off_an_endpoint_that_fails() -> None:
    good, bad = Endpoint("http://127.0.0.1:1/v1"), Endpoint("http://127.0.0.1:2/v1")
    pool = EndpointPool([bad, good], per_endpoint=1)

    def send(endpoint: Endpoint, item: int) -> int:
        if endpoint is bad:
            raise EndpointUnavailable("down")
        return item

    assert pool.map(send, list(range(10))) == list(range(10))
    assert pool.batches_per_endpoint == {bad.shown: 0, good.shown: 10}


def test_pool_fails_when_no_endpoint_is_left_or_a_request_is_wrong() -> None:
    pool = EndpointPool([Endpoint("http://127.0.0.1:1/v1"), Endpoint("http://127.0.0.1:2/v1")])

    def down(endpoint: Endpoint, item: int) -> int:
        raise EndpointUnavailable("down")

    with pytest.raises(EndpointUnavailable):
        pool.map(down, [1, 2, 3])

    def wrong(endpoint: Endpoint, item: int) -> int:
        raise EndpointError("HTTP 400")

    with pytest.raises(EndpointError):
        pool.map(wrong, [1, 2, 3])


def test_chat_requests_spread_over_two_servers_each_answered_once_in_order() -> None:
    from local_openai_server import LocalChatServer, completion

    from biasmirror.backends.base import ChatMessage, GenerationRequest
    from biasmirror.backends.registry import make_backend

    def echo(body: dict, n: int) -> tuple[int, dict, float]:
        return 200, completion(body["messages"][-1]["content"].upper()), 0.01

    with LocalChatServer(echo) as first, LocalChatServer(echo) as second:
        backend = make_backend("openai", "m", base_url=[first.url, second.url], concurrency=2, timeout=5)
        requests = [GenerationRequest((ChatMessage("user", f"record {i}"),)) for i in range(30)]
        answers = backend.generate(requests)
        assert [a.text for a in answers] == [f"RECORD {i}" for i in range(30)]
        assert len(first.bodies) + len(second.bodies) == 30 and first.bodies and second.bodies
        assert backend.is_local and "127.0.0.1" in backend.base_url
    assert type(make_backend("openai", "m", base_url=[first.url])).__name__ == "OpenAIBackend"
