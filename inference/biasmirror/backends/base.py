"""The one small interface every chat/completion backend implements.

A backend turns a batch of requests (chat messages plus decoding parameters) into generations. Backends are
stateless about caching and resuming: `biasmirror.backends.cache.CachedBackend` wraps any backend so that an
identical request (same backend, model, messages and parameters) is answered from the warehouse instead of
being sent again.
"""

from __future__ import annotations

import hashlib
import json
import re
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
    # structured-output constraint (vLLM's `structured_outputs`: one of {"choice": [...]}, {"regex": "..."},
    # {"json": schema}), as a JSON text so that the request stays hashable; None: free decoding
    constraint: str | None = None

    def constraint_params(self) -> dict | None:
        """The constraint as vLLM's structured-outputs parameters, or None."""
        return json.loads(self.constraint) if self.constraint else None


@dataclass(frozen=True)
class Failure:
    """Why a request failed for good (after the backend's own retries). Never holds the prompt, nor any part of
    an answer: an answer body may be the model's text about a patient (a truncated 200 answer), or an error page
    that echoes the request.

    reason: a short label that failures are counted by (HTTP 429, timeout, connection refused, non-JSON answer,
    malformed response, redirect to another host, backend error); http_status: the server's status code when it
    answered; error_type: the exception or error class; content_type: the answer's declared Content-Type (its
    media type only, e.g. text/html); body_chars: the length of an answer body that could not be read as a chat
    completion; attempts: how many times the request was sent."""

    reason: str
    http_status: int | None = None
    error_type: str | None = None
    content_type: str | None = None
    body_chars: int | None = None
    attempts: int = 1


def media_type(header: str | None) -> str | None:
    """The media type of a Content-Type header (`text/html; charset=...` -> `text/html`), when it looks like one."""
    if not header:
        return None
    value = header.split(";", 1)[0].strip().lower()
    return value if re.fullmatch(r"[a-z0-9.+-]{1,40}/[a-z0-9.+-]{1,60}", value) else None


@dataclass(frozen=True)
class Generation:
    text: str
    finish_reason: str | None = None  # stop | length | error
    error: str | None = None          # a readable message (never the prompt), set when the request failed
    failure: Failure | None = None    # the structured reason, when the backend gives one

    @property
    def failure_or_generic(self) -> Failure:
        """The failure of a failed generation (a generic one for backends that only give a message)."""
        return self.failure or Failure("backend error", error_type=None)


class ChatBackend(Protocol):
    """name: the backend kind (transformers, vllm, openai, simulated, ...); model: what it runs.
    is_local: True when no text leaves this machine (the patient-data guard relies on it)."""

    name: str
    model: str
    is_local: bool

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]: ...


def request_key(backend: str, model: str, request: GenerationRequest) -> str:
    """Content hash identifying a request to a model: equal keys get the cached answer."""
    fields = asdict(request)
    if fields.get("constraint") is None:  # requests without a constraint keep the keys they had before it existed
        fields.pop("constraint", None)
    payload = json.dumps({"backend": backend, "model": model, "request": fields}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
