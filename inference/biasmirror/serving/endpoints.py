"""Work spread over several OpenAI-compatible endpoints (vLLM servers), each piece sent to exactly one of them.

The papers' scale (about ten models x 150,000 pairs x 3 settings x 2 variants) is beyond one engine. Scoring and
generation take several endpoints - vLLM servers on the GPUs of one machine, or on several machines - and
`EndpointPool.map` sends batches to all of them at once: every endpoint has `per_endpoint` workers that take the
next batch from one shared queue, so a faster server takes more. A batch whose endpoint cannot be reached goes back
to the queue for the others, and that endpoint takes no more work; when none is left the call fails. Results come
back in the order of the batches, so the caller writes them exactly as it would with one endpoint (and its chunked,
resumable writing is unchanged).

`post_json` is the one HTTP call: JSON in, JSON out, no proxy for a loopback endpoint (a proxy would see the patient
record), no redirects followed (a redirect would carry the credentials to another host).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

from biasmirror.backends.openai_backend import API_KEY_ENV, is_loopback_url

T = TypeVar("T")
R = TypeVar("R")


class EndpointUnavailable(RuntimeError):
    """The endpoint could not be reached or answered with a server error: try another one."""


class EndpointError(RuntimeError):
    """The endpoint answered that the request is wrong (HTTP 4xx other than 408/429): retrying elsewhere won't help."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001 - urllib's signature
        return None  # the 3xx answer comes back as an HTTPError


@dataclass(frozen=True)
class Endpoint:
    """One OpenAI-compatible server: its base URL (…/v1) and the API key to send, if any."""

    base_url: str
    api_key: str | None = None

    @classmethod
    def from_url(cls, url: str) -> "Endpoint":
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"An endpoint must be an http(s) URL such as http://127.0.0.1:8000/v1, got {shown_url(url)!r}")
        return cls(url.rstrip("/"), os.environ.get(API_KEY_ENV) or os.environ.get("OPENAI_API_KEY"))

    @property
    def is_local(self) -> bool:
        return is_loopback_url(self.base_url)

    @property
    def shown(self) -> str:
        return shown_url(self.base_url)


def shown_url(url: str) -> str:
    """The URL as messages and records may show it: no user:password@, no query string."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _opener(local: bool) -> urllib.request.OpenerDirector:
    handlers: list[Any] = [_NoRedirect()]
    if local:
        handlers.append(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener(*handlers)


def post_json(endpoint: Endpoint, path: str, payload: dict[str, Any], timeout: float = 600.0) -> dict[str, Any]:
    """POST `payload` to `<base_url>/<path>` and return the JSON answer (EndpointUnavailable / EndpointError)."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if endpoint.api_key:
        headers["Authorization"] = f"Bearer {endpoint.api_key}"
    request = urllib.request.Request(f"{endpoint.base_url}/{path}", data=json.dumps(payload).encode("utf-8"),
                                     headers=headers, method="POST")
    try:
        with _opener(endpoint.is_local).open(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as error:
        if error.code in (408, 429) or error.code >= 500:
            raise EndpointUnavailable(f"HTTP {error.code} from {endpoint.shown}") from None
        raise EndpointError(f"HTTP {error.code} from {endpoint.shown}{_error_type(error)}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise EndpointUnavailable(f"cannot reach {endpoint.shown} ({type(reason).__name__})") from None
    try:
        document = json.loads(raw)
    except ValueError:
        raise EndpointUnavailable(f"{endpoint.shown} answered something that is not JSON ({len(raw)} bytes)") from None
    if not isinstance(document, dict):
        raise EndpointUnavailable(f"{endpoint.shown} answered JSON that is not an object")
    return document


def _error_type(error: urllib.error.HTTPError) -> str:
    """The JSON error's type or code (never its message: it may echo the request)."""
    try:
        inner = json.loads(error.read() or b"{}").get("error")
    except (ValueError, AttributeError, OSError):
        return ""
    code = inner.get("type") or inner.get("code") if isinstance(inner, dict) else None
    return f" ({code})" if isinstance(code, (str, int)) and len(str(code)) <= 60 else ""


class EndpointPool:
    """Several endpoints used at once (see the module's docstring)."""

    def __init__(self, endpoints: Sequence[Endpoint], per_endpoint: int = 2) -> None:
        if not endpoints:
            raise ValueError("Need at least one endpoint.")
        if per_endpoint < 1:
            raise ValueError("per_endpoint must be >= 1")
        self.endpoints = list(endpoints)
        self.per_endpoint = int(per_endpoint)
        self.batches_per_endpoint = {endpoint.shown: 0 for endpoint in self.endpoints}
        self._stop = threading.Event()

    @property
    def is_local(self) -> bool:
        return all(endpoint.is_local for endpoint in self.endpoints)

    def stop(self) -> None:
        """Send nothing more (Ctrl-C): workers finish the request in flight and take no new batch."""
        self._stop.set()

    def map(self, send: Callable[[Endpoint, T], R], work: Sequence[T],
            done: Callable[[int, R], None] | None = None) -> list[R]:
        """send(endpoint, item) for every item, spread over the endpoints; results in the items' order.
        done(index, result) is called as each item finishes (from the calling thread)."""
        results: list[Any] = [None] * len(work)
        if not work:
            return []
        self._stop.clear()
        todo: queue.Queue[int] = queue.Queue()
        for index in range(len(work)):
            todo.put(index)
        finished: queue.Queue[tuple[int, Any, BaseException | None]] = queue.Queue()
        alive = {endpoint.shown: True for endpoint in self.endpoints}
        outstanding = [len(work)]  # items not yet finished: a worker waits while one may still come back
        lock = threading.Lock()

        def worker(endpoint: Endpoint) -> None:
            while not self._stop.is_set():
                with lock:
                    if not alive[endpoint.shown]:
                        return
                try:
                    index = todo.get(timeout=0.05)
                except queue.Empty:
                    with lock:
                        if outstanding[0] == 0:
                            return
                    continue
                try:
                    result = send(endpoint, work[index])
                except EndpointUnavailable as error:
                    with lock:
                        alive[endpoint.shown] = False
                        last_standing = not any(alive.values())
                    if last_standing:
                        self._stop.set()
                        finished.put((index, None, error))
                    else:
                        todo.put(index)
                        finished.put((-1, None, None))  # wake the caller to re-check the workers
                    return
                except BaseException as error:  # noqa: BLE001 - handed to the calling thread
                    self._stop.set()
                    finished.put((index, None, error))
                    return
                with lock:
                    self.batches_per_endpoint[endpoint.shown] += 1
                    outstanding[0] -= 1
                finished.put((index, result, None))

        threads = [threading.Thread(target=worker, args=(endpoint,), daemon=True)
                   for endpoint in self.endpoints for _ in range(self.per_endpoint)]
        for thread in threads:
            thread.start()
        remaining = len(work)
        try:
            while remaining:
                try:
                    index, result, error = finished.get(timeout=0.5)
                except queue.Empty:
                    if not any(thread.is_alive() for thread in threads):
                        raise EndpointUnavailable("No endpoint is left to send the remaining work to.") from None
                    continue
                if error is not None:
                    raise error
                if index < 0:
                    continue
                results[index] = result
                remaining -= 1
                if done is not None:
                    done(index, result)
        except BaseException:
            self._stop.set()
            raise
        return results
