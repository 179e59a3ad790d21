"""What a trained triage model carries beside its weights: `biasmirror_triage.json`.

A LoRA adapter folder (or any model folder written by this package) holds the levels it was trained on, the
prompt template it was trained with (name, version, sha256), the input transform (`none`, or `neutralized` for
the gender-neutralization baseline), the setting whose inputs it was trained on (`full`, `text_only`,
`tabular_only`), the base model and the training options. Scoring reads it, so a model is always scored with the
prompt, levels and input transform it was trained with, and by default on the inputs of its own setting.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

METADATA_FILE = "biasmirror_triage.json"
INPUT_TRANSFORMS = ("none", "neutralized")


@dataclass(frozen=True)
class ModelMetadata:
    kind: str  # lora | tfidf-rf | mlp-embeddings | roberta-scratch | encoder-finetuned
    dataset: str
    levels: tuple[int, ...]
    input_transform: str = "none"
    training_setting: str = "full"
    base_model: str | None = None
    prompt_template: str | None = None
    prompt_sha256: str | None = None
    label_tokens: dict[str, str] = field(default_factory=dict)
    hyperparameters: dict[str, Any] = field(default_factory=dict)
    parameter_count: int | None = None
    trainable_parameter_count: int | None = None
    train_losses: list[float] = field(default_factory=list)


def save_metadata(folder: Path, metadata: ModelMetadata) -> Path:
    path = Path(folder) / METADATA_FILE
    path.write_text(json.dumps(asdict(metadata), indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return path


def load_metadata(folder: Path) -> ModelMetadata | None:
    path = Path(folder) / METADATA_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    data["levels"] = tuple(int(level) for level in data["levels"])
    if data.get("input_transform", "none") not in INPUT_TRANSFORMS:
        raise ValueError(f"{path}: unknown input_transform {data['input_transform']!r}")
    return ModelMetadata(**data)
