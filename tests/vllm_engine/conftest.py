"""Tests of vLLM's engine in this process: run with the vLLM environment's Python and the source tree on the path,
`PYTHONPATH=inference .venv-vllm/bin/python -m pytest tests/vllm_engine` (make test-vllm). That environment has
vLLM, transformers, peft and pytest, not the project's other dependencies: these tests import only the modules that
build vLLM's inputs and read its outputs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.vllm)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "vllm: needs vLLM (run by make test-vllm)")


@pytest.fixture(scope="session")
def smollm2() -> Path:
    """The SmolLM2 folder `make install` converted into the project's environment (found beside this one)."""
    configured = os.environ.get("BIASMIRROR_SMOLLM2")
    root = Path(__file__).resolve().parents[2]
    folder = Path(configured) if configured else root / ".venv" / "share" / "biasmirror" / "smollm2-135m-instruct"
    if not (folder / "model.safetensors").is_file():
        pytest.fail(f"No converted SmolLM2 at {folder}: run `make install` first (or set BIASMIRROR_SMOLLM2).")
    return folder


@pytest.fixture(scope="session", autouse=True)
def _vllm_present() -> None:
    try:
        import vllm  # noqa: F401
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI runs the vLLM engine tests, but {sys.executable} has no vLLM (make vllm).")
        pytest.skip(f"{sys.executable} has no vLLM: run these with .venv-vllm/bin/python (make test-vllm).")
