"""A vLLM server on this machine (127.0.0.1), started and stopped around a command or a test session.

`LocalVllmServer` runs vLLM's OpenAI-compatible server (`python -m vllm.entrypoints.openai.api_server`; the
`vllm serve` script is missing from the CPU packaging) from the interpreter that has vLLM
(biasmirror.serving.environment), on a free loopback port, with:

* prefix caching on, and log-probabilities after the sampler's masking (`--logprobs-mode processed_logprobs`),
  so that a request restricted to the label tokens returns their renormalised probabilities;
* LoRA adapters served by name next to the base model (`--lora-modules name=folder`): one engine scores several
  fine-tuned models of one base;
* no request logging (prompts hold patient records): vLLM logs no requests unless asked, and uvicorn's access
  log is off. The server's own output goes to a log file, never to the console.

The server is a child process in a session of its own; `stop()` (or leaving the `with` block, also on Ctrl-C)
ends it and everything it started.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Mapping, Sequence

from biasmirror.serving.environment import (cpu_engine_environment, cpu_server_arguments, is_cpu_build,
                                            installed_build, vllm_python)

LOOPBACK = "127.0.0.1"
DEFAULT_STARTUP_TIMEOUT = 900.0  # seconds: a CPU engine compiles its graphs on first start (1-3 minutes here)


class ServerFailed(RuntimeError):
    """The server exited or did not answer in time."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def loopback_opener() -> urllib.request.OpenerDirector:
    """An opener that never goes through a proxy (the server is on this machine)."""
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def server_arguments(model_dir: Path, served_name: str, port: int, *, adapters: Mapping[str, Path] | None = None,
                     max_lora_rank: int = 16, max_model_len: int | None = None, cpu: bool = True,
                     enable_prefix_caching: bool = True, seed: int = 0,
                     extra: Sequence[str] = ()) -> list[str]:
    """The server's command-line arguments (after `python -m vllm.entrypoints.openai.api_server`)."""
    arguments = ["--model", str(model_dir), "--served-model-name", served_name, "--host", LOOPBACK,
                 "--port", str(port), "--seed", str(seed), "--logprobs-mode", "processed_logprobs",
                 "--disable-uvicorn-access-log",
                 "--enable-prefix-caching" if enable_prefix_caching else "--no-enable-prefix-caching"]
    if max_model_len is not None:
        arguments += ["--max-model-len", str(int(max_model_len))]
    if adapters:
        arguments += ["--enable-lora", "--max-lora-rank", str(int(max_lora_rank)), "--max-loras", str(len(adapters)),
                      "--lora-modules", *[f"{name}={Path(folder).resolve()}" for name, folder in adapters.items()]]
    if cpu:
        arguments += cpu_server_arguments()
    return arguments + list(extra)


class LocalVllmServer:
    """vLLM's OpenAI-compatible server on 127.0.0.1 (see the module's docstring). Use it as a context manager."""

    def __init__(self, model_dir: Path, served_name: str = "base", *, adapters: Mapping[str, Path] | None = None,
                 max_lora_rank: int = 16, max_model_len: int | None = 4096, enable_prefix_caching: bool = True,
                 python: str | None = None, port: int | None = None, log_path: Path | None = None,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT, extra_arguments: Sequence[str] = ()) -> None:
        self.model_dir = Path(model_dir)
        if not (self.model_dir / "config.json").is_file():
            raise FileNotFoundError(f"{self.model_dir} is not a model folder (no config.json).")
        for name, folder in (adapters or {}).items():
            if not (Path(folder) / "adapter_config.json").is_file():
                raise FileNotFoundError(f"Adapter {name}: {folder} has no adapter_config.json.")
        self.served_name = served_name
        self.adapters = dict(adapters or {})
        self.python = python or vllm_python()
        self.cpu = is_cpu_build(self.python)
        self.port = port or free_port()
        self.startup_timeout = float(startup_timeout)
        self.log_path = Path(log_path) if log_path else Path(tempfile.mkdtemp(prefix="biasmirror-vllm-")) / "server.log"
        self.arguments = server_arguments(self.model_dir, served_name, self.port, adapters=self.adapters,
                                          max_lora_rank=max_lora_rank, max_model_len=max_model_len, cpu=self.cpu,
                                          enable_prefix_caching=enable_prefix_caching, extra=extra_arguments)
        self._process: subprocess.Popen[bytes] | None = None
        self._opener = loopback_opener()
        self.startup_seconds: float | None = None

    # ----- what clients need -----------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/v1"

    @property
    def version(self) -> str:
        name, version = installed_build(self.python)
        return f"{name} {version}"

    def describe(self) -> dict[str, object]:
        """What a run records about the engine that served it."""
        return {"engine": "vllm", "vllm": self.version, "device": "cpu" if self.cpu else "gpu",
                "served_model": self.served_name, "adapters": {k: str(Path(v).resolve()) for k, v in self.adapters.items()},
                "prefix_caching": "--enable-prefix-caching" in self.arguments, "base_model": str(self.model_dir.resolve())}

    # ----- life cycle --------------------------------------------------------------------------------------
    def start(self) -> "LocalVllmServer":
        if self._process is not None:
            return self
        env = cpu_engine_environment() if self.cpu else dict(os.environ)
        for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
            env.pop(proxy, None)  # the server reaches nothing outside; its clients are on loopback
        env.setdefault("HF_HUB_OFFLINE", "1")
        env.setdefault("VLLM_NO_USAGE_STATS", "1")
        env.setdefault("DO_NOT_TRACK", "1")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        with open(self.log_path, "ab") as log:
            self._process = subprocess.Popen(
                [self.python, "-m", "vllm.entrypoints.openai.api_server", *self.arguments], stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        try:
            self._wait_until_healthy()
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.perf_counter() - started
        return self

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            code = self._process.poll()
            if code is not None:
                raise ServerFailed(f"The vLLM server exited with status {code} while starting; its log: "
                                   f"{self.log_path}\n{self.log_tail()}")
            if self.healthy():
                return
            time.sleep(1.0)
        raise ServerFailed(f"The vLLM server did not answer within {self.startup_timeout:.0f} s; its log: "
                           f"{self.log_path}\n{self.log_tail()}")

    def healthy(self) -> bool:
        try:
            with self._opener.open(f"http://{LOOPBACK}:{self.port}/health", timeout=5) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def log_tail(self, lines: int = 15) -> str:
        """The end of the server's log (its start-up: no request is logged)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)

    def __enter__(self) -> "LocalVllmServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- measurements ------------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        """The server's Prometheus counters and gauges summed over their labels (name -> value)."""
        with self._opener.open(f"http://{LOOPBACK}:{self.port}/metrics", timeout=10) as response:
            text = response.read().decode("utf-8", errors="replace")
        values: dict[str, float] = {}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            name_part, _, value = line.rpartition(" ")
            name = name_part.split("{", 1)[0]
            try:
                values[name] = values.get(name, 0.0) + float(value)
            except ValueError:
                continue
        return values

    def models(self) -> list[str]:
        with self._opener.open(f"{self.base_url}/models", timeout=10) as response:
            return [entry["id"] for entry in json.load(response)["data"]]
