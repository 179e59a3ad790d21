"""The study's classical triage model: TF-IDF features of the linearized record and a random forest.

The study chose the forest's hyperparameters by 3-fold cross-validation on a sub-partition of the train split.
`TfidfForest` does that when its grid has more than one configuration: a stratified `search_fraction` of the
train split is searched with `GridSearchCV` (3 stratified folds, scored by linearly weighted Cohen's kappa, the
study's headline metric), then the best configuration is refitted on the whole train split. With a grid of one
configuration (`TfidfForest.fixed`, the demo's fast path) the search is skipped. Single-character tokens are
kept so that a tabular value such as the sex is a feature. Its "parameter count" is the number of tree nodes.

Progress: each search fit is reported as it ends, and the final forest is grown in chunks of trees with
scikit-learn's `warm_start`, which draws each tree's seed exactly as a one-shot fit does, so the forest is the
same as `RandomForestClassifier(n_estimators=N).fit` (a test checks it).
"""

from __future__ import annotations

import os

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback

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
TREES_PER_CHUNK = 10


def full_probabilities(classes: Sequence[int], levels: Sequence[int], probabilities: np.ndarray) -> np.ndarray:
    """Probabilities with one column per level (a level the classifier never saw gets 0)."""
    out = np.zeros((probabilities.shape[0], len(levels)))
    for column, level in enumerate(classes):
        out[:, list(levels).index(int(level))] = probabilities[:, column]
    return out


def grid_size(grid: dict[str, list[Any]]) -> int:
    return int(np.prod([len(values) for values in grid.values()])) if grid else 1


@dataclass
class TfidfForest:
    """TF-IDF features + random forest; hyperparameters chosen by k-fold CV on part of the train split when the
    grid offers a choice."""

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

    @classmethod
    def fixed(cls, n_estimators: int = 300, min_samples_leaf: int = 2, seed: int = 0, n_jobs: int = -1) -> "TfidfForest":
        """Fixed, documented hyperparameters and no search (fast and reproducible: the demo's model)."""
        return cls(grid={"forest__n_estimators": [n_estimators], "forest__min_samples_leaf": [min_samples_leaf]},
                   seed=seed, n_jobs=n_jobs)

    @property
    def searches(self) -> bool:
        return grid_size(self.grid) > 1

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

    def search(self, texts: np.ndarray, y: np.ndarray, progress: PhaseCallback | None = None) -> None:
        """GridSearchCV over the grid; progress is reported after every fit (configurations x folds)."""
        from sklearn.metrics import cohen_kappa_score
        from sklearn.model_selection import GridSearchCV, StratifiedKFold

        total = grid_size(self.grid) * self.folds
        done = {"n": 0}

        def kappa(estimator: Any, x: Any, y_true: Any) -> float:  # what make_scorer(cohen_kappa_score) computes
            score = cohen_kappa_score(y_true, estimator.predict(x), weights="linear")
            done["n"] += 1
            if progress is not None:
                progress("forest: CV search fits", done["n"], total)
            return float(score)

        subset = self.search_subset(y)
        search = GridSearchCV(
            self.make_pipeline(), self.grid,
            cv=StratifiedKFold(n_splits=self.folds, shuffle=True, random_state=self.seed),
            scoring=kappa, n_jobs=1, refit=False)
        if progress is not None:
            progress("forest: CV search fits", 0, total)
        search.fit(texts[subset], y[subset])
        self.best_params = dict(search.best_params_)
        self.cv_score = float(search.best_score_)

    def fit(self, texts: Sequence[str], levels: Sequence[int], progress: PhaseCallback | None = None) -> "TfidfForest":
        texts_array = np.asarray(list(texts), dtype=object)
        y = np.asarray(levels, dtype=int)
        if self.searches:
            self.search(texts_array, y, progress)
        else:
            self.best_params = {name: values[0] for name, values in self.grid.items()}
            self.cv_score = None
        self.pipeline = self.make_pipeline().set_params(**self.best_params)
        self._grow(texts_array, y, progress)
        self.levels = tuple(int(c) for c in self.pipeline.classes_)
        return self

    def _grow(self, texts: np.ndarray, y: np.ndarray, progress: PhaseCallback | None) -> None:
        """Fit the TF-IDF step, then grow the forest TREES_PER_CHUNK trees at a time (warm start)."""
        tfidf, forest = self.pipeline.named_steps["tfidf"], self.pipeline.named_steps["forest"]
        if progress is not None:
            progress("forest: TF-IDF features", 0, 1)
        features = tfidf.fit_transform(texts)
        if progress is not None:
            progress("forest: TF-IDF features", 1, 1)
        n_trees = forest.n_estimators
        forest.set_params(warm_start=True)
        for grown in list(range(TREES_PER_CHUNK, n_trees, TREES_PER_CHUNK)) + [n_trees]:
            forest.set_params(n_estimators=grown).fit(features, y)
            if progress is not None:
                progress("forest: trees", grown, n_trees)
        forest.set_params(warm_start=False)

    def score(self, records: Sequence[str], batch_size: int = 5000, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        out = np.zeros((len(records), len(self.levels)))
        for start in range(0, len(records), batch_size):
            batch = list(records[start:start + batch_size])
            out[start:start + len(batch)] = full_probabilities(
                self.pipeline.classes_, self.levels, self._probabilities(batch))
            if progress is not None:
                progress(len(batch))
        return out

    def _probabilities(self, texts: list[str]) -> np.ndarray:
        """The forest's probabilities, the same in every run. sklearn's predict_proba adds the trees' votes in the
        order its threads finish, so the last bits vary from run to run, and where two levels tie (often, with
        votes in multiples of 1/trees) so does the predicted level. The trees run in threads here too, but their
        votes are added in tree order."""
        from concurrent.futures import ThreadPoolExecutor

        from scipy import sparse

        forest = self.pipeline.named_steps["forest"]
        features = sparse.csr_matrix(self.pipeline.named_steps["tfidf"].transform(texts), dtype=np.float32)
        features.sort_indices()
        workers = (os.cpu_count() or 1) if self.n_jobs in (None, -1) else max(1, self.n_jobs)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            votes = list(pool.map(lambda tree: tree.predict_proba(features, check_input=False), forest.estimators_))
        total = votes[0].astype(np.float64)
        for vote in votes[1:]:
            total += vote
        return total / len(votes)

    def parameter_counts(self) -> tuple[int, int]:
        nodes = sum(int(tree.tree_.node_count) for tree in self.pipeline.named_steps["forest"].estimators_)
        return nodes, nodes

    def hyperparameters(self) -> dict[str, Any]:
        return {"grid": self.grid, "search": self.searches, "folds": self.folds,
                "search_fraction": self.search_fraction, "seed": self.seed, "best_params": self.best_params,
                "cv_kappa_linear": self.cv_score}

