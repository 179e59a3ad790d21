"""Chat requests spread over several OpenAI-compatible servers (`--option 'base_url=[URL, URL, ...]'`).

Each server gets its own `OpenAIBackend` (its retries, its failure records); the requests of a batch go to the
servers through one shared queue (`biasmirror.serving.endpoints.EndpointPool`), so a faster server answers more of
them, and each request is sent to exactly one server. The answers come back in the requests' order.
"""

from __future__ import annotations

from typing import Any, Sequence

from biasmirror.backends.base import Generation, GenerationRequest
from biasmirror.backends.openai_backend import OpenAIBackend
from biasmirror.serving.endpoints import Endpoint, EndpointPool


class SpreadBackend:
    name = "openai"

    def __init__(self, model: str, base_urls: Sequence[str], **options: Any) -> None:
        if not base_urls:
            raise ValueError("base_url needs at least one URL")
        self.model = model
        self.backends = {url.rstrip("/"): OpenAIBackend(model, base_url=url, **options) for url in base_urls}
        concurrency = next(iter(self.backends.values())).concurrency
        self.pool = EndpointPool([Endpoint(url) for url in self.backends], per_endpoint=concurrency)
        self.is_local = all(backend.is_local for backend in self.backends.values())
        self.base_url = ", ".join(backend.shown_url for backend in self.backends.values())

    @property
    def retries(self) -> int:
        return sum(backend.retries for backend in self.backends.values())

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return self.pool.map(lambda endpoint, request: self.backends[endpoint.base_url].generate([request])[0],
                             list(requests))


def make_openai_backend(model: str, base_url: str | Sequence[str] | None = None, **options: Any) -> Any:
    """One server (`base_url` a URL) or several (a list of URLs: SpreadBackend)."""
    if isinstance(base_url, (list, tuple)):
        if len(base_url) == 1:
            return OpenAIBackend(model, base_url=base_url[0], **options)
        return SpreadBackend(model, list(base_url), **options)
    return OpenAIBackend(model, **({"base_url": base_url} if base_url else {}), **options)
