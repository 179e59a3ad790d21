"""The one small interface every chat/completion backend implements.

A backend turns a batch of requests (chat messages plus decoding parameters) into generations. Backends are
stateless about caching and resuming: `biasmirror.backends.cache.CachedBackend` wraps any backend so that an
identical request (same backend, model, messages and parameters) is answered from the warehouse instead of
being sent again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Protocol, Sequence


@dataclass(frozen=True)
class ChatMessage:
    role: str  # system | user | assistant
    content: str


@dataclass(frozen=True)
class GenerationRequest:
    messages: tuple[ChatMessage, ...]
    max_tokens: int = 256
    temperature: float = 0.0
    seed: int | None = None
    stop: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Generation:
    text: str
    finish_reason: str | None = None  # stop | length | error
    error: str | None = None


class ChatBackend(Protocol):
    """name: the backend kind (transformers, vllm, openai, simulated, ...); model: what it runs.
    is_local: True when no text leaves this machine (the patient-data guard relies on it)."""

    name: str
    model: str
    is_local: bool

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]: ...


def request_key(backend: str, model: str, request: GenerationRequest) -> str:
    """Content hash identifying a request to a model: equal keys get the cached answer."""
    payload = json.dumps({"backend": backend, "model": model, "request": asdict(request)}, sort_keys=True,
                         ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
