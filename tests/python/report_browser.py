"""Headless Chromium for the report tests, driven through the DevTools protocol over a pipe.

Chromium is started with --remote-debugging-pipe: it reads protocol commands from fd 3 and writes replies and
events to fd 4 (JSON messages ended by a NUL byte), so no port, websocket or extra package is needed. The page is
loaded from disk; console messages, uncaught exceptions, log entries and network requests are collected, and
JavaScript evaluates what was rendered (figure sizes, element counts).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BINARY = "chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe")


def _above_nine(fd: int) -> int:
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class BrowserUnavailable(RuntimeError):
    """Chromium could not be found or started."""


@dataclass
class PageLoad:
    console: list[dict[str, Any]] = field(default_factory=list)     # Runtime.consoleAPICalled params
    exceptions: list[dict[str, Any]] = field(default_factory=list)  # Runtime.exceptionThrown params
    log_entries: list[dict[str, Any]] = field(default_factory=list) # Log.entryAdded entries
    requests: list[str] = field(default_factory=list)               # URLs the page requested
    blocked: dict[str, str] = field(default_factory=dict)           # URL -> why the browser blocked it (csp, ...)

    def errors(self) -> list[str]:
        found = [" ".join(str(a.get("value", a.get("description", ""))) for a in m.get("args", []))
                 for m in self.console if m.get("type") in ("error", "assert")]
        found += [e.get("exceptionDetails", {}).get("text", "exception") for e in self.exceptions]
        found += [f"{e.get('source')}: {e.get('text')}" for e in self.log_entries if e.get("level") == "error"]
        return found


class Chromium:
    """One headless Chromium with a fresh profile; use as a context manager."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []

    def __enter__(self) -> "Chromium":
        binary = shutil.which(BINARY)
        if binary is None:
            raise BrowserUnavailable(
                f"the `{BINARY}` binary is not on PATH: install Debian's chromium package "
                "(apt-get update && apt-get install -y chromium) to run the report's browser checks")
        self._profile = tempfile.mkdtemp(prefix="biasmirror-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        # move the child's ends above fd 9, so that placing them at 3 and 4 cannot clobber one another
        commands_read, replies_write = (_above_nine(commands_read), _above_nine(replies_write))
        self._stderr = tempfile.TemporaryFile()
        arguments = " ".join([binary, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"])
        # bash puts the pipe ends at fd 3 (commands) and fd 4 (replies), where --remote-debugging-pipe expects them
        self._process = subprocess.Popen(
            ["bash", "-c", f"exec {arguments} 3<&{commands_read} 4>&{replies_write} {commands_read}<&- {replies_write}>&-"],
            pass_fds=(commands_read, replies_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self._stderr)
        os.close(commands_read)
        os.close(replies_write)
        try:
            target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        except Exception as error:
            self.__exit__(None, None, None)
            raise BrowserUnavailable(f"`{BINARY}` did not start: {error}") from error
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self._process.poll() is None:
                try:
                    self.send("Browser.close", timeout=5)
                except Exception:
                    pass
                try:
                    self._process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
        finally:
            for fd in (self._commands, self._replies):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._stderr.close()
            shutil.rmtree(self._profile, ignore_errors=True)

    # -- protocol ----------------------------------------------------------------------------------------------

    def send(self, method: str, params: dict[str, Any] | None = None, session: bool = False,
             timeout: float | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no reply from Chromium in time")
            ready, _, _ = select.select([self._replies], [], [], remaining)
            if ready:
                chunk = os.read(self._replies, 1 << 20)
                if not chunk:
                    self._stderr.seek(0)
                    tail = self._stderr.read().decode(errors="replace")[-2000:]
                    raise BrowserUnavailable(f"`{BINARY}` closed the pipe; its stderr ends with:\n{tail}")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _wait_event(self, method: str, deadline: float) -> dict[str, Any]:
        for index, event in enumerate(self._events):
            if event.get("method") == method:
                return self._events.pop(index)
        while True:
            event = self._read(deadline)
            if event.get("method") == method:
                return event
            self._events.append(event)

    # -- pages -------------------------------------------------------------------------------------------------

    def load(self, path: Path, width: int = 1280, height: int = 900) -> PageLoad:
        """Open a local file and wait for its load event (plus a short settle time for late messages)."""
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.send(domain, session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)
        self._events.clear()
        self.send("Page.navigate", {"url": path.resolve().as_uri()}, session=True)
        self._wait_event("Page.loadEventFired", time.monotonic() + self.timeout)
        settle = time.monotonic() + 0.5
        while time.monotonic() < settle:
            try:
                self._events.append(self._read(settle))
            except TimeoutError:
                break
        result = PageLoad()
        urls: dict[str, str] = {}
        for event in self._events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                result.console.append(params)
            elif method == "Runtime.exceptionThrown":
                result.exceptions.append(params)
            elif method == "Log.entryAdded":
                result.log_entries.append(params.get("entry", {}))
            elif method == "Network.requestWillBeSent":
                result.requests.append(params.get("request", {}).get("url", ""))
                urls[params.get("requestId", "")] = result.requests[-1]
            elif method == "Network.loadingFailed" and params.get("blockedReason"):
                result.blocked[urls.get(params.get("requestId", ""), "?")] = params["blockedReason"]
        self._events.clear()
        return result

    def emulate_print(self, enabled: bool = True) -> None:
        """Lay the loaded page out with its print style sheet (CSS @media print), or back with the screen's."""
        self.send("Emulation.setEmulatedMedia", {"media": "print" if enabled else ""}, session=True)

    def evaluate(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"script failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path, width: int = 1280) -> None:
        """A PNG of the whole page at the given width."""
        import base64

        height = int(self.evaluate("document.documentElement.scrollHeight"))
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                         session=True)["data"]
        path.write_bytes(base64.b64decode(data))
