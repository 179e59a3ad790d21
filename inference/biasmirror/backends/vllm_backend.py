"""Offline vLLM (`vllm.LLM`) with prefix caching, in this process: the fast path on a GPU (`biasmirror[vllm]`); on a
CPU build the engine gets CPU settings (biasmirror.serving.environment.in_process_engine_options).

The module imports without vLLM; `VllmBackend` imports it when built. Everything that turns our requests into
vLLM's inputs is a plain function here (`engine_kwargs`, `sampling_kwargs`, `chat_messages`,
`generation_from_output`) so that it is unit-tested on machines without a GPU. A batch goes to `LLM.chat` in one
call with one `SamplingParams` per request; prefix caching makes the shared k-shot prefix of a batch cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from biasmirror.backends.base import Generation, GenerationRequest


def engine_kwargs(model: str, tensor_parallel_size: int = 1, gpu_memory_utilization: float = 0.9,
                  max_model_len: int | None = None, enable_prefix_caching: bool = True, dtype: str = "auto",
                  seed: int = 0, **extra: Any) -> dict[str, Any]:
    """Arguments of `vllm.LLM(...)`."""
    if tensor_parallel_size < 1 or not 0 < gpu_memory_utilization <= 1:
        raise ValueError("tensor_parallel_size must be >= 1 and gpu_memory_utilization in (0, 1]")
    kwargs: dict[str, Any] = {"model": model, "tensor_parallel_size": tensor_parallel_size,
                              "gpu_memory_utilization": gpu_memory_utilization,
                              "enable_prefix_caching": enable_prefix_caching, "dtype": dtype, "seed": seed}
    if max_model_len is not None:
        kwargs["max_model_len"] = int(max_model_len)
    kwargs.update(extra)
    return kwargs


def sampling_kwargs(request: GenerationRequest) -> dict[str, Any]:
    """Arguments of `vllm.SamplingParams(...)` for one request (temperature 0 is greedy in vLLM)."""
    kwargs: dict[str, Any] = {"max_tokens": request.max_tokens, "temperature": request.temperature}
    if request.seed is not None:
        kwargs["seed"] = request.seed
    if request.stop:
        kwargs["stop"] = list(request.stop)
    if request.constraint:  # made a vllm.sampling_params.StructuredOutputsParams by the backend
        kwargs["structured_outputs"] = request.constraint_params()
    return kwargs


def chat_messages(request: GenerationRequest) -> list[dict[str, str]]:
    """One conversation in the OpenAI message format that `LLM.chat` takes."""
    return [{"role": m.role, "content": m.content} for m in request.messages]


def generation_from_output(output: Any) -> Generation:
    """A `Generation` from a `vllm.RequestOutput` (its first completion)."""
    completions = getattr(output, "outputs", None) or []
    if not completions:
        return Generation("", "error", "vLLM returned no completion")
    completion = completions[0]
    return Generation(completion.text, getattr(completion, "finish_reason", None))


class VllmBackend:
    name = "vllm"
    is_local = True
    structured_outputs = True

    def __init__(self, model: str, llm: Any = None, **options: Any) -> None:
        """model: a local model folder; llm: an engine already made (e.g. shared with a label scorer)."""
        try:
            import vllm
        except ImportError as error:
            raise RuntimeError("the vllm backend runs vLLM's engine in this process and needs vLLM here: pip install "
                               "'biasmirror[vllm]' on a GPU machine, or use the openai backend against a vLLM server "
                               f"(`make vllm` installs one for this machine's CPU) ({error})") from error
        from biasmirror.serving.environment import in_process_engine_options

        self.model = model
        self._sampling_params = vllm.SamplingParams
        self._llm = llm if llm is not None else vllm.LLM(**in_process_engine_options(engine_kwargs(model, **options)))

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        if not requests:
            return []
        params = []
        for request in requests:
            kwargs = sampling_kwargs(request)
            if "structured_outputs" in kwargs:  # recent vLLM (older releases called it guided decoding)
                from vllm.sampling_params import StructuredOutputsParams

                kwargs["structured_outputs"] = StructuredOutputsParams(**kwargs["structured_outputs"])
            params.append(self._sampling_params(**kwargs))
        outputs = self._llm.chat([chat_messages(r) for r in requests], sampling_params=params, use_tqdm=False)
        return [generation_from_output(o) for o in outputs]


class VllmServerBackend:
    """The `vllm` backend where this Python has no vLLM: a local vLLM server started from the vLLM environment
    (`make vllm`) for this process, answered through the OpenAI-compatible chat API. The server stops when the
    backend is closed, or when the process exits."""

    name = "vllm"
    is_local = True
    structured_outputs = True

    def __init__(self, model: str, **options: Any) -> None:
        import atexit

        from biasmirror.backends.openai_backend import OpenAIBackend
        from biasmirror.progress import console
        from biasmirror.serving.local_server import LocalVllmServer

        server_options = {key: options.pop(key) for key in ("max_model_len", "startup_timeout") if key in options}
        self.model = model
        self.server = LocalVllmServer(Path(model), "model", **server_options)
        with console.status(f"starting a vLLM server ({self.server.version}) for {Path(model).name}; its log: "
                            f"{self.server.log_path}"):
            self.server.start()
        atexit.register(self.close)
        self._client = OpenAIBackend("model", base_url=self.server.base_url, **options)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return self._client.generate(requests)

    def close(self) -> None:
        self.server.stop()


def make_vllm_backend(model: str, **options: Any) -> Any:
    """vLLM's engine in this process when this Python has vLLM, else a local vLLM server (VllmServerBackend)."""
    try:
        import vllm  # noqa: F401
    except ImportError:
        return VllmServerBackend(model, **options)
    return VllmBackend(model, **options)
