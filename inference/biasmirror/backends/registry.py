"""Backends by name, imported lazily so that optional dependencies (torch, vllm, httpx) are only needed by
the backend a user picks. Each backend module registers itself in KINDS below (module path, class name)."""

from __future__ import annotations

import importlib
from typing import Any

from biasmirror.backends.base import ChatBackend

# kind -> (module, class). A backend class takes `model` plus keyword options.
KINDS: dict[str, tuple[str, str]] = {}


def register(kind: str, module: str, class_name: str) -> None:
    KINDS[kind] = (module, class_name)


def make_backend(kind: str, model: str, **options: Any) -> ChatBackend:
    if kind not in KINDS:
        raise ValueError(f"Unknown backend {kind!r}; available: {', '.join(sorted(KINDS)) or 'none'}")
    module_name, class_name = KINDS[kind]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise RuntimeError(f"The {kind} backend needs an optional dependency that is not installed: {error}") from error
    return getattr(module, class_name)(model=model, **options)


# The implicit-bias study's simulated respondent: a simulation with planted bias, not a model.
register("simulated", "biasmirror.implicit.simulated", "SimulatedRespondent")

# Model backends (issue 4): a local transformers folder, offline vLLM (GPU, optional extra), and any
# OpenAI-compatible HTTP endpoint (standard library only).
register("transformers", "biasmirror.backends.transformers_backend", "TransformersBackend")
register("vllm", "biasmirror.backends.vllm_backend", "make_vllm_backend")
register("openai", "biasmirror.backends.spread", "make_openai_backend")
