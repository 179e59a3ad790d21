"""Fine-tuning and scoring a transformers sequence classifier (one output per level), shared by the encoder
trained from scratch (roberta_scratch.py) and the pretrained encoder fine-tuned as a classifier
(encoder_classifier.py).

Plain PyTorch loops: AdamW with linear decay, shuffled mini-batches from a seeded generator (deterministic for a
seed on CPU), right padding with an attention mask. Scoring sorts inputs by length so little padding is
computed, and softmaxes the logits in double precision.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback


def pad(sequences: Sequence[Sequence[int]], pad_id: int, device: Any) -> tuple[Any, Any]:
    """Right-padded input ids and attention mask on `device`."""
    import torch

    width = max(len(s) for s in sequences)
    ids = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.long)
    for row, seq in enumerate(sequences):
        ids[row, :len(seq)] = torch.tensor(list(seq), dtype=torch.long)
        mask[row, :len(seq)] = 1
    return ids.to(device), mask.to(device)


def shuffled_batches(n: int, batch_size: int, generator: np.random.Generator) -> list[np.ndarray]:
    order = generator.permutation(n)
    return [order[i:i + batch_size] for i in range(0, n, batch_size)]


def linear_schedule(optimizer: Any, total_steps: int) -> Any:
    import torch

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: max(0.0, 1 - step / max(1, total_steps)))


def adamw(parameters: Sequence[Any], learning_rate: float, weight_decay: float = 0.0) -> Any:
    """AdamW, fused into one kernel where torch offers it (several times faster on a CPU for an encoder's tens of
    millions of weights), else the plain implementation."""
    import torch

    parameters = list(parameters)
    try:
        return torch.optim.AdamW(parameters, lr=learning_rate, weight_decay=weight_decay, fused=True)
    except (RuntimeError, TypeError, ValueError):
        return torch.optim.AdamW(parameters, lr=learning_rate, weight_decay=weight_decay)


def fine_tune(classifier: Any, encoded: Sequence[Sequence[int]], targets: Sequence[int], *, pad_id: int,
              epochs: float, learning_rate: float, batch_size: int, shuffler: np.random.Generator, device: Any,
              weight_decay: float = 0.0, progress: PhaseCallback | None = None,
              phase: str = "classifier fine-tuning") -> list[float]:
    """Train every trainable parameter of `classifier` with cross-entropy on the targets (class indices);
    returns the loss of every optimizer step. The classifier is left in eval mode."""
    import torch

    steps = max(1, math.ceil(epochs * math.ceil(len(encoded) / batch_size)))
    optimizer = adamw([p for p in classifier.parameters() if p.requires_grad], learning_rate, weight_decay)
    scheduler = linear_schedule(optimizer, steps)
    labels_all = torch.tensor(list(targets), dtype=torch.long)
    losses: list[float] = []
    classifier.train()
    while len(losses) < steps:
        for batch in shuffled_batches(len(encoded), batch_size, shuffler):
            ids, attention = pad([encoded[i] for i in batch], pad_id, device)
            loss = classifier(input_ids=ids, attention_mask=attention, labels=labels_all[batch].to(device)).loss
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            losses.append(float(loss.detach()))
            if progress is not None:
                progress(phase, len(losses), steps)
            if len(losses) >= steps:
                break
    classifier.eval()
    return losses


def class_probabilities(classifier: Any, encoded: Sequence[Sequence[int]], *, pad_id: int, device: Any,
                        batch_size: int = 32, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Softmax of the classifier's logits (n x classes), batches of similar length."""
    import torch

    out = np.zeros((len(encoded), int(classifier.config.num_labels)))
    order = np.argsort([-len(e) for e in encoded], kind="stable")
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            batch = order[start:start + batch_size]
            ids, attention = pad([encoded[i] for i in batch], pad_id, device)
            logits = classifier(input_ids=ids, attention_mask=attention).logits.double()
            out[batch] = torch.softmax(logits, -1).cpu().numpy()
            if progress is not None:
                progress(len(batch))
    return out


class TokenizedClassifier:
    """What both classifiers do alike once fitted: inputs tokenized and cut at `spec.max_length`, scored by the
    sequence classifier `model` on `device` (class_probabilities), saved as a transformers folder with its
    tokenizer. Subclasses set the four attributes."""

    tokenizer: Any
    model: Any
    device: Any
    spec: Any

    def _encode(self, texts: Sequence[str]) -> list[list[int]]:
        return self.tokenizer(list(texts), truncation=True, max_length=self.spec.max_length)["input_ids"]

    def score(self, records: Sequence[str], batch_size: int = 32, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        return class_probabilities(self.model, self._encode(records), pad_id=self.tokenizer.pad_token_id,
                                   device=self.device, batch_size=batch_size, progress=progress)

    def save(self, folder: Path) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.model.save_pretrained(str(folder))
        self.tokenizer.save_pretrained(str(folder))
        return folder
