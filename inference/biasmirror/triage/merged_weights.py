"""A LoRA adapter merged into its base model's weights, saved as a plain model folder any engine loads.

vLLM serves LoRA adapters next to the base model (one engine, many fine-tuned models), but on a CPU its LoRA
kernels are several times slower than the plain model (benchmarks/README.md, "vLLM scoring"): there, and for
engines without LoRA support, the adapter is merged once (W + B·A·alpha/r, peft's `merge_and_unload`) into a
folder kept beside the adapter (`<adapter>/merged/`) and reused while the adapter is unchanged. The folder gets
the tokenizer and the adapter's biasmirror_triage.json, so it scores exactly like the adapter.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

MERGED_FOLDER = "merged"
STAMP = "biasmirror_merged_from.json"


def _adapter_stamp(base_dir: Path, adapter_dir: Path) -> dict[str, str]:
    digest = hashlib.sha256()
    for name in ("adapter_config.json", "adapter_model.safetensors", "adapter_model.bin"):
        path = adapter_dir / name
        if path.is_file():
            digest.update(name.encode())
            digest.update(path.read_bytes())
    return {"base": str(Path(base_dir).resolve()), "adapter_sha256": digest.hexdigest()}


def merged_model_dir(base_dir: Path, adapter_dir: Path) -> Path:
    """The merged folder of `adapter_dir` (made on first use, remade when the adapter or base changed)."""
    from biasmirror.triage.model_loading import load_causal_lm, load_tokenizer

    adapter_dir = Path(adapter_dir)
    out = adapter_dir / MERGED_FOLDER
    stamp = _adapter_stamp(base_dir, adapter_dir)
    try:
        if json.loads((out / STAMP).read_text(encoding="utf-8")) == stamp and (out / "config.json").is_file():
            return out
    except (OSError, ValueError):
        pass
    import torch

    if out.exists():
        shutil.rmtree(out)
    model = load_causal_lm(base_dir, adapter_dir, merge=True, device="cpu", dtype=torch.float32)
    partial = out.with_name(out.name + ".partial")
    if partial.exists():
        shutil.rmtree(partial)
    model.save_pretrained(str(partial))
    load_tokenizer(base_dir, adapter_dir).save_pretrained(str(partial))
    metadata = adapter_dir / "biasmirror_triage.json"
    if metadata.is_file():
        shutil.copy2(metadata, partial / metadata.name)
    (partial / STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    partial.rename(out)
    return out
