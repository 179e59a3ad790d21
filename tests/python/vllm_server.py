"""Helpers of the tests marked `vllm`; their server (conftest's `vllm_server`) is one per test session, on
127.0.0.1, on SmolLM2.

Where the vLLM environment (`make vllm`) is absent the tests are skipped with the reason, except under CI (CI=true),
where its absence fails them: CI must run them (`make test-vllm`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


# The name the session's server serves SmolLM2 under (its adapters: `a` and `b`).
SERVED_BASE = "smollm2"


def smollm2_folder() -> Path:
    """SmolLM2-135M-Instruct as `make install` converted it, or fail saying so."""
    from biasmirror.testing.smollm2 import default_folder, is_converted

    if not is_converted(default_folder()):
        pytest.fail("SmolLM2 is not converted in this environment: run `make install`.")
    return default_folder()


def require_vllm() -> str:
    """The Python that has vLLM, or skip (fail under CI) saying why there is none."""
    from biasmirror.serving.environment import VllmNotInstalled, vllm_python

    try:
        return vllm_python()
    except VllmNotInstalled as error:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI runs the vLLM tests, but: {error}")
        pytest.skip(str(error))


def random_adapter(base: Path, out: Path, seed: int) -> Path:
    """A LoRA adapter of the study's shape (r 16, alpha 32, the seven projections) with random, non-zero weights:
    an adapter that changes the model's answers, without the minutes of training."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from biasmirror.triage.lora_training import TARGET_MODULES

    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_pretrained(str(base), dtype=torch.float32, local_files_only=True)
    config = LoraConfig(r=16, lora_alpha=32, target_modules=list(TARGET_MODULES), init_lora_weights=False)
    model = get_peft_model(model, config)
    with torch.no_grad():  # peft's random init of B is large for a 30-layer model: keep answers sensible
        for name, parameter in model.named_parameters():
            if "lora_B" in name:
                parameter.mul_(0.05)
    model.save_pretrained(str(out))
    return out
