"""A pretrained encoder fine-tuned as a triage classifier: the study's CHUBert row.

The study fine-tuned a BERT-style encoder pretrained on its hospital's notes, with a classification head (one
output per level) on top. `FineTunedEncoder` does that with any local BERT-like folder (config.json, weights and
a tokenizer, as `save_pretrained` writes them; a sentence-transformers folder works too, its first module is
such a model): `AutoModelForSequenceClassification` adds a freshly initialised head to the pretrained encoder,
and every weight is fine-tuned with cross-entropy on the documented levels. Nothing is downloaded: the folder is
read with `local_files_only`. Inputs longer than `max_length` tokens are truncated (BERT-style encoders have 512
positions at most).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback
from biasmirror.triage.sequence_classification import TokenizedClassifier, fine_tune


@dataclass(frozen=True)
class EncoderSpec:
    epochs: float = 3.0
    learning_rate: float = 2e-5
    batch_size: int = 16
    max_length: int = 512
    weight_decay: float = 0.01
    seed: int = 0

    @classmethod
    def tiny(cls, **overrides: Any) -> "EncoderSpec":
        """A configuration that fine-tunes in seconds on a CPU (tests, demos)."""
        values: dict[str, Any] = dict(epochs=2.0, learning_rate=1e-4, batch_size=16, max_length=128)
        values.update(overrides)
        return cls(**values)


def check_encoder_dir(folder: Path) -> Path:
    """The folder, when it holds a transformers encoder (config.json with a model type); else a clear error."""
    import json

    folder = Path(folder).expanduser()
    config = folder / "config.json"
    if not config.is_file():
        raise FileNotFoundError(f"Encoder folder {folder} has no config.json: pass a local BERT-like model folder "
                                "(written by save_pretrained, or a sentence-transformers folder).")
    model_type = json.loads(config.read_text(encoding="utf-8")).get("model_type")
    if not model_type:
        raise ValueError(f"{config} names no model_type; is it a transformers model folder?")
    return folder


class FineTunedEncoder(TokenizedClassifier):
    """A local pretrained encoder with a new classification head, fine-tuned on the documented levels."""

    kind = "encoder-finetuned"

    def __init__(self, encoder_dir: Path, spec: EncoderSpec = EncoderSpec(), device: str | None = None) -> None:
        from biasmirror.triage.model_loading import pick_device

        self.encoder_dir = check_encoder_dir(encoder_dir)
        self.spec = spec
        self.device = pick_device(device)
        self.tokenizer: Any = None
        self.model: Any = None
        self.levels: tuple[int, ...] = ()
        self.losses: list[float] = []
        self.pretrained_parameters = 0

    def fit(self, texts: Sequence[str], levels: Sequence[int], progress: PhaseCallback | None = None) -> "FineTunedEncoder":
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        from biasmirror.triage.lora_training import seed_everything

        seed_everything(self.spec.seed)
        self.levels = tuple(sorted(set(int(level) for level in levels)))
        targets = [self.levels.index(int(level)) for level in levels]
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.encoder_dir), local_files_only=True)
        if self.tokenizer.pad_token_id is None:
            raise ValueError(f"The tokenizer of {self.encoder_dir} has no padding token; a BERT-like encoder has one.")
        verbosity = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()  # "some weights were newly initialized": the head, as intended
        try:
            self.model = AutoModelForSequenceClassification.from_pretrained(
                str(self.encoder_dir), num_labels=len(self.levels), local_files_only=True).to(self.device)
        finally:
            hf_logging.set_verbosity(verbosity)
        head = sum(p.numel() for name, p in self.model.named_parameters() if "classifier" in name)
        self.pretrained_parameters = sum(p.numel() for p in self.model.parameters()) - head
        if progress is not None:
            progress("encoder: tokenizing", 0, 1)
        encoded = self._encode(texts)
        if progress is not None:
            progress("encoder: tokenizing", 1, 1)
        self.losses = fine_tune(self.model, encoded, targets, pad_id=self.tokenizer.pad_token_id,
                                epochs=self.spec.epochs, learning_rate=self.spec.learning_rate,
                                batch_size=self.spec.batch_size, shuffler=np.random.default_rng(self.spec.seed),
                                device=self.device, weight_decay=self.spec.weight_decay, progress=progress,
                                phase="encoder: fine-tuning")
        return self

    def parameter_counts(self) -> tuple[int, int]:
        total = sum(p.numel() for p in self.model.parameters())
        return int(total), int(sum(p.numel() for p in self.model.parameters() if p.requires_grad))

    def hyperparameters(self) -> dict[str, Any]:
        return {**asdict(self.spec), "encoder": str(self.encoder_dir.resolve()), "steps": len(self.losses),
                "first_loss": self.losses[0] if self.losses else None,
                "final_loss": self.losses[-1] if self.losses else None,
                "pretrained_parameters": self.pretrained_parameters}
