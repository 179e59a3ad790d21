"""Any OpenAI-compatible chat endpoint over HTTP: a `vllm serve` server, a hospital gateway, a public API.

Only the standard library is used (urllib), so the backend needs no optional dependency. Each request is a
POST to `<base_url>/chat/completions`; requests of a batch run concurrently on at most `concurrency` threads.
A request that times out, cannot connect, or gets HTTP 408/409/429/5xx is retried up to `max_retries` times
with exponential backoff (`backoff` * 2**attempt seconds, or the server's Retry-After when it is given and
shorter than a minute). Other HTTP errors are not retried. A request that still fails comes back as a
`Generation` with `finish_reason="error"`, a readable reason in `error` and a structured `Failure` (status code,
error type, content type and length of a body that is not a chat completion, attempts), never the prompt nor any
part of the answer, so that the caller can record why and leave its record for a later run instead of failing
the whole batch.

`is_local` is True only when the base URL's host is a loopback address (localhost, 127.0.0.0/8, ::1): the
patient-data guard (biasmirror.backends.guard) refuses any other host for credentialed data sets unless the
user allows it explicitly. What the guard judged local stays local: a local endpoint is reached directly, never
through a proxy named in the environment (http_proxy, https_proxy, all_proxy). No endpoint's redirect to another
host (scheme, host or port) is followed: the request would carry the Authorization header and the patient's
record there; it fails as "redirect to another host".

Ctrl-C (or SIGTERM, which runs turn into the same interruption) stops a batch at once: no request is sent and
no retry is made after it; answers still in flight are abandoned.
"""

from __future__ import annotations

import ipaddress
import json
import os
import queue
import re
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import replace
from typing import Any, Sequence

from biasmirror.backends.base import Failure, Generation, GenerationRequest, media_type
from biasmirror.url_secrets import public_url

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
API_KEY_ENV = "BIASMIRROR_API_KEY"


def is_loopback_url(url: str) -> bool:
    """True when the URL's host is this machine (localhost or a loopback IP). Host names other than
    'localhost' are not resolved: a name that happens to point at 127.0.0.1 still counts as remote."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def request_payload(model: str, request: GenerationRequest) -> dict[str, Any]:
    """The JSON body of one chat-completions call."""
    payload: dict[str, Any] = {
        "model": model,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    }
    if request.seed is not None:
        payload["seed"] = request.seed
    if request.stop:
        payload["stop"] = list(request.stop)
    if request.constraint:  # vLLM's structured outputs (other servers may ignore or refuse the field)
        payload["structured_outputs"] = request.constraint_params()
    return payload


class OpenAIBackend:
    """Chat completions from an OpenAI-compatible server."""

    name = "openai"
    structured_outputs = True  # constrained requests carry vLLM's `structured_outputs` field

    def __init__(self, model: str, base_url: str = DEFAULT_BASE_URL, api_key: str | None = None,
                 api_key_env: str = API_KEY_ENV, timeout: float = 120.0, max_retries: int = 3,
                 backoff: float = 1.0, concurrency: int = 8, extra_body: dict[str, Any] | None = None) -> None:
        if not model:
            raise ValueError("the openai backend needs a model name (as the server knows it)")
        scheme = urllib.parse.urlsplit(base_url).scheme
        if scheme not in ("http", "https"):
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        if timeout <= 0 or max_retries < 0 or backoff < 0 or concurrency < 1:
            raise ValueError("timeout and concurrency must be positive; max_retries and backoff not negative")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get(api_key_env) or os.environ.get("OPENAI_API_KEY")
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.concurrency = int(concurrency)
        self.extra_body = dict(extra_body or {})
        self.is_local = is_loopback_url(self.base_url)
        self.shown_url = public_url(self.base_url)  # what messages and failure records name
        self.retries = 0  # retried attempts over the backend's life (for run manifests)
        self._lock = threading.Lock()
        # a local endpoint never goes through a proxy; no endpoint's redirect to another host is followed
        proxies = urllib.request.ProxyHandler({}) if self.is_local else urllib.request.ProxyHandler()
        self._opener = urllib.request.build_opener(proxies, _SameOriginRedirects())

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        if not requests:
            return []
        stop = threading.Event()
        if len(requests) == 1 or self.concurrency == 1:
            return [self._one(r, stop) for r in requests]  # in this thread: Ctrl-C interrupts it directly
        return self._concurrently(requests, stop)

    def _concurrently(self, requests: Sequence[GenerationRequest], stop: threading.Event) -> list[Generation]:
        """The requests on at most `concurrency` daemon threads. An interruption of the waiting thread (Ctrl-C,
        SIGTERM as a run turns it into KeyboardInterrupt) sets `stop`: no thread takes another request or makes
        another attempt, and a request in flight is abandoned (a daemon thread does not hold the process)."""
        results: list[Generation | None] = [None] * len(requests)
        errors: list[BaseException] = []
        todo: queue.SimpleQueue[int] = queue.SimpleQueue()
        for index in range(len(requests)):
            todo.put(index)

        def work() -> None:
            while not stop.is_set():
                try:
                    index = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    results[index] = self._one(requests[index], stop)
                except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                    errors.append(error)
                    stop.set()
                    return

        threads = [threading.Thread(target=work, name=f"biasmirror-openai-{i}", daemon=True)
                   for i in range(min(self.concurrency, len(requests)))]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.1)
        except BaseException:
            stop.set()
            raise
        if errors:
            raise errors[0]
        return [result for result in results if result is not None]

    # -- one request, with retries ----------------------------------------------------------------------

    def _one(self, request: GenerationRequest, stop: threading.Event) -> Generation:
        body = json.dumps({**request_payload(self.model, request), **self.extra_body}).encode("utf-8")
        last: _Failed | None = None
        for attempt in range(self.max_retries + 1):
            if stop.is_set():
                raise KeyboardInterrupt("the batch was interrupted")
            if attempt:
                with self._lock:
                    self.retries += 1
            try:
                return self._post(body)
            except _Failed as error:
                last = error
                if not error.retryable:
                    return error.generation(attempt + 1)
                if attempt < self.max_retries:
                    # an interruptible pause: Event.wait returns as soon as the batch is stopped
                    stop.wait(error.retry_after if error.retry_after is not None else self.backoff * 2 ** attempt)
        assert last is not None
        return last.generation(self.max_retries + 1, gave_up=True)

    def _post(self, body: bytes) -> Generation:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        http_request = urllib.request.Request(self.endpoint, data=body, headers=headers, method="POST")
        try:
            with self._opener.open(http_request, timeout=self.timeout) as response:
                raw = response.read()
                status = response.status
                content_type = media_type(response.headers.get("Content-Type"))
        except _CrossHostRedirect as error:
            raise _Failed(f"{self.shown_url} redirected the request to another host ({error.target}); refused: a "
                          "request and its credentials only ever go to the configured endpoint. Give the final "
                          "address as base_url", Failure("redirect to another host", error.code, "CrossHostRedirect"),
                          retryable=False) from None
        except urllib.error.HTTPError as error:
            raise _http_failure(error, self.shown_url) from None
        except (TimeoutError, socket.timeout) as error:
            raise _Failed(f"timed out after {self.timeout:g} s ({type(error).__name__})",
                          Failure("timeout", error_type=type(error).__name__)) from None
        except urllib.error.URLError as error:
            cause = error.reason
            if isinstance(cause, (TimeoutError, socket.timeout)):
                raise _Failed(f"timed out after {self.timeout:g} s",
                              Failure("timeout", error_type=type(cause).__name__)) from None
            kind = type(cause).__name__ if isinstance(cause, BaseException) else "URLError"
            label = {"ConnectionRefusedError": "connection refused", "gaierror": "unknown host"}.get(kind, "cannot connect")
            raise _Failed(f"cannot reach {self.shown_url}: {cause}", Failure(label, error_type=kind)) from None
        except (ConnectionError, OSError) as error:  # reset or closed mid-response
            raise _Failed(f"connection error with {self.shown_url}: {type(error).__name__}",
                          Failure("connection error", error_type=type(error).__name__)) from None
        try:
            document = json.loads(raw)
        except ValueError:
            # never quoted: a truncated completion is the model's text about a patient
            raise _Failed(f"malformed response from {self.shown_url} (not JSON: {_described(content_type, raw)})",
                          Failure("non-JSON answer", status, "JSONDecodeError", content_type, len(raw))) from None
        try:
            choice = document["choices"][0]
            text = choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise _Failed(f"malformed response from {self.shown_url} (not a chat completion)",
                          Failure("malformed response", status, "NotAChatCompletion", content_type,
                                  len(raw))) from None
        if text is None:
            text = ""
        if not isinstance(text, str):
            raise _Failed(f"malformed response from {self.shown_url}: message content is not text",
                          Failure("malformed response", status, "ContentNotText"), retryable=False)
        return Generation(text, choice.get("finish_reason"))


class _Failed(Exception):
    """One failed attempt: a readable message and its structured Failure; `retryable` says whether to try again."""

    def __init__(self, message: str, failure: Failure, retryable: bool = True, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.failure = failure
        self.retryable = retryable
        self.retry_after = retry_after

    def generation(self, attempts: int, gave_up: bool = False) -> Generation:
        message = f"gave up after {attempts} attempts: {self.message}" if gave_up else self.message
        return Generation("", "error", message, replace(self.failure, attempts=attempts))


class _CrossHostRedirect(urllib.error.URLError):
    """A redirect to another scheme, host or port, refused before it is followed."""

    def __init__(self, code: int, target: str) -> None:
        super().__init__(f"redirect to another host ({target})")
        self.code = code
        self.target = target


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only within the endpoint's own scheme, host and port; any other raises
    _CrossHostRedirect (urllib would otherwise resend the Authorization header to the new host)."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        old, new = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, newurl))
        if _origin(old) != _origin(new):
            raise _CrossHostRedirect(code, f"{new.scheme}://{new.hostname or ''}" + (f":{new.port}" if new.port else ""))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _origin(parts: urllib.parse.SplitResult) -> tuple[str, str, int | None]:
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port or default


def _described(content_type: str | None, raw: bytes) -> str:
    """An answer body as messages name it: its content type and length, never its content."""
    return f"{content_type or 'no content type'}, {len(raw):,} bytes"


def _http_failure(error: urllib.error.HTTPError, base_url: str) -> _Failed:
    """An HTTP error status as a failure: the status, the JSON error's type or code when the body is a JSON
    error (its message is not kept: it may echo the request), else the body's content type and length."""
    try:
        raw = error.read()
    except (OSError, ValueError):
        raw = b""
    detail = ""
    content_type = media_type(error.headers.get("Content-Type")) if error.headers else None
    try:
        document = json.loads(raw) if raw else None
    except ValueError:
        detail = f" ({_described(content_type, raw)})"
    else:
        inner = document.get("error") if isinstance(document, dict) else None
        code = inner.get("type") or inner.get("code") if isinstance(inner, dict) else None
        if isinstance(code, (str, int)) and len(str(code)) <= 60 and re.fullmatch(r"[\w.:-]+", str(code)):
            detail = f" ({code})"
    message = f"HTTP {error.code} from {base_url}{detail}"
    failure = Failure(f"HTTP {error.code}", error.code, "HTTPError", content_type, len(raw) if raw else None)
    return _Failed(message, failure, retryable=error.code in RETRY_STATUS,
                   retry_after=_retry_after(error.headers.get("Retry-After") if error.headers else None))


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 0 <= seconds <= 60 else None
