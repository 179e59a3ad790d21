"""The vLLM backend is GPU-only and not installed here: test how it builds vLLM's inputs (engine arguments,
sampling parameters, conversations) and reads its outputs, and that it fails clearly without vLLM."""

from __future__ import annotations

import importlib.util
import sys
from types import SimpleNamespace

import pytest

from biasmirror.backends import vllm_backend
from biasmirror.backends.base import ChatMessage, GenerationRequest
from biasmirror.backends.registry import KINDS, make_backend


def test_importing_the_module_does_not_import_vllm() -> None:
    assert "vllm" not in sys.modules or importlib.util.find_spec("vllm") is not None
    assert KINDS["vllm"] == ("biasmirror.backends.vllm_backend", "make_vllm_backend")


def test_engine_kwargs_enable_prefix_caching() -> None:
    kwargs = vllm_backend.engine_kwargs("/models/mistral-small", tensor_parallel_size=2, max_model_len=8192)
    assert kwargs == {"model": "/models/mistral-small", "tensor_parallel_size": 2, "gpu_memory_utilization": 0.9,
                      "enable_prefix_caching": True, "dtype": "auto", "seed": 0, "max_model_len": 8192}
    assert vllm_backend.engine_kwargs("m", enforce_eager=True)["enforce_eager"] is True
    with pytest.raises(ValueError):
        vllm_backend.engine_kwargs("m", gpu_memory_utilization=1.5)


def test_sampling_kwargs_and_messages_follow_the_request() -> None:
    request = GenerationRequest((ChatMessage("system", "s"), ChatMessage("user", "u"), ChatMessage("assistant", "a"),
                                 ChatMessage("user", "again")), max_tokens=300, temperature=0.0, seed=7, stop=("}\n",))
    assert vllm_backend.sampling_kwargs(request) == {"max_tokens": 300, "temperature": 0.0, "seed": 7, "stop": ["}\n"]}
    assert vllm_backend.sampling_kwargs(GenerationRequest((ChatMessage("user", "u"),))) == {"max_tokens": 256, "temperature": 0.0}
    assert vllm_backend.chat_messages(request) == [
        {"role": "system", "content": "s"}, {"role": "user", "content": "u"},
        {"role": "assistant", "content": "a"}, {"role": "user", "content": "again"}]


def test_generation_from_output_reads_the_first_completion() -> None:
    output = SimpleNamespace(outputs=[SimpleNamespace(text='{"sex": "M"}', finish_reason="stop"),
                                      SimpleNamespace(text="other", finish_reason="length")])
    generation = vllm_backend.generation_from_output(output)
    assert generation.text == '{"sex": "M"}' and generation.finish_reason == "stop" and generation.error is None
    empty = vllm_backend.generation_from_output(SimpleNamespace(outputs=[]))
    assert empty.finish_reason == "error" and empty.error


def test_without_vllm_anywhere_the_error_says_how_to_install_it(monkeypatch, tmp_path) -> None:
    """No vLLM in this Python and no vLLM environment: the backend says to run `make vllm`."""
    monkeypatch.setitem(sys.modules, "vllm", None)  # makes `import vllm` fail, installed or not
    monkeypatch.setenv("BIASMIRROR_VLLM_PYTHON", str(tmp_path / "no-such-python"))
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(RuntimeError, match=r"make vllm"):
        make_backend("vllm", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="not a model folder"):
        make_backend("vllm", str(tmp_path / "missing"))


def test_a_constraint_becomes_the_engines_structured_outputs() -> None:
    request = GenerationRequest((ChatMessage("user", "u"),), constraint='{"regex": "a|b"}')
    assert vllm_backend.sampling_kwargs(request)["structured_outputs"] == {"regex": "a|b"}
    assert vllm_backend.VllmBackend.structured_outputs and vllm_backend.VllmServerBackend.structured_outputs
