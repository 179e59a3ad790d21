"""Loading a causal LM (optionally with a LoRA adapter, optionally merged) with transformers, offline."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# Nothing is ever downloaded: a model is a local folder.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def pick_device(device: str | None = None) -> str:
    import torch

    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def default_dtype(device: str) -> Any:
    import torch

    if device.startswith("cuda") and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float32


def check_model_dir(path: Path, what: str) -> Path:
    path = Path(path).expanduser()
    if not (path / "config.json").is_file() and not (path / "adapter_config.json").is_file():
        raise FileNotFoundError(f"{what} {path} is not a model folder (no config.json / adapter_config.json).")
    return path


def load_tokenizer(model_dir: Path, adapter_dir: Path | None = None) -> Any:
    """The adapter's tokenizer when it saved one (it is the base's), else the base model's. The pad token falls
    back to the end-of-sequence token, as in the study."""
    from transformers import AutoTokenizer

    source = adapter_dir if adapter_dir is not None and (Path(adapter_dir) / "tokenizer_config.json").is_file() else model_dir
    tokenizer = AutoTokenizer.from_pretrained(str(source), local_files_only=True)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return tokenizer


def load_causal_lm(base_dir: Path, adapter_dir: Path | None = None, merge: bool = False,
                   device: str | None = None, dtype: Any = None) -> Any:
    """The base model, with the LoRA adapter applied (merged into the weights when `merge`), in eval mode."""
    from transformers import AutoModelForCausalLM

    device = pick_device(device)
    base_dir = check_model_dir(base_dir, "Base model")
    model = AutoModelForCausalLM.from_pretrained(str(base_dir), dtype=dtype or default_dtype(device),
                                                 local_files_only=True)
    if adapter_dir is not None:
        from peft import PeftModel

        adapter_dir = check_model_dir(adapter_dir, "Adapter")
        model = PeftModel.from_pretrained(model, str(adapter_dir))
        if merge:
            model = model.merge_and_unload()
    model.to(device)
    model.eval()
    return model


def count_parameters(model: Any) -> tuple[int, int]:
    """(all parameters, trainable parameters)."""
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return int(total), int(trainable)
