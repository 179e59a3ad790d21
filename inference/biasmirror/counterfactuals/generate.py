"""Writing counterfactual copies of the cohort's test records into inference.counterfactuals.

A generator rewrites a record's texts as if the patient were of the other sex: `rules` (the lexicon swapper) or
`llm` (a chat model through a backend, see llm_rewriter.py). The tabular sex field is flipped in SQL, where
the three settings (full, text_only, tabular_only) are derived from this one copy per record
(models/marts/cohort/model_inputs.sql with macros/counterfactual_settings.sql): no per-setting rows are
written here. A placebo run (`placebo=True`) writes same-sex rewrites through the same generator under the
name '<generator>-placebo' with counterfactual_sex = original_sex; their pairs measure how much a rewrite alone
moves predictions.

Runs are resumable and idempotent: records that already have a row for (dataset, record, generator) are skipped,
each batch is committed in one transaction, and LLM answers are cached in inference.llm_responses as they
arrive, so an identical prompt is never sent twice. The run manifest (inference.runs) holds the backend, model,
prompt template hash, parameters, and, when the run ends, its counts. No note text is logged.

A request that fails for good leaves its record pending; why it failed (status code, error type, the start of a
non-JSON body, never the prompt) is stored per record in inference.llm_failures and counted by reason in the
run's parameters; a run where every request failed is marked failed and raises `BackendFailed` with the
reasons. `retry_flagged` asks again, bypassing the answer cache, for the records an earlier run flagged (their
flagged copies are replaced); `no_cache` bypasses the cache for every request.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from biasmirror.counterfactuals.base import (OTHER_SEX, PLACEBO_SUFFIX, Rewrite, Rewriter, RewriteInput,
                                             target_sex)
from biasmirror.counterfactuals.rule_rewriter import RuleRewriter
from biasmirror.progress import progress_bar, rate_text
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.catalog import table_names
from biasmirror.warehouse.runs import FAILED, interruption_held, recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

__all__ = ["GENERATORS", "OTHER_SEX", "Rewrite", "RuleRewriter", "LlmSpec", "CounterfactualRun", "BackendFailed",
           "generate_counterfactuals", "pending_records", "llm_generator_name"]

GENERATORS = ("rules", "llm")
DEFAULT_BATCH = {"rules": 2000, "llm": 16}
@dataclass(frozen=True)
class LlmSpec:
    """How to run the LLM rewriter: a backend kind and model, backend options, and prompt settings."""

    backend: str
    model: str
    options: dict[str, Any] = field(default_factory=dict)
    k_shots: int = 7
    max_tokens: int | None = None
    temperature: float = 0.0
    seed: int | None = None
    prompt_template: Path | None = None
    examples_dir: Path | None = None
    name: str | None = None  # generator name; default llm-<model>
    constrained: bool = False  # vLLM structured outputs hold the answer to its JSON shape


class BackendFailed(RuntimeError):
    """Every request of a run failed: nothing was written. The message gives the reasons."""


@dataclass(frozen=True)
class CounterfactualRun:
    run_id: str
    generator: str
    written: int
    flagged: int
    skipped_existing: int
    pending: int = 0  # records left for a later run (backend failures)
    checks_written: int = 0
    similarity_written: int = 0
    counts: dict[str, Any] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # backend failures by reason
    failure_message: str = ""                               # the reasons, for the closing message
    retried_flagged: int = 0                                # flagged copies asked again (retry_flagged)


def llm_generator_name(model: str) -> str:
    """'llm-<model>' from a model name or the folder name of a local model (lower case, safe characters)."""
    base = Path(model.rstrip("/")).name or model
    return "llm-" + (re.sub(r"[^a-z0-9._-]+", "-", base.lower()).strip("-") or "model")


def pending_records(dataset: str, generator: str, language: str | None = None,
                    limit: int | None = None) -> tuple[pd.DataFrame, int]:
    """Test records of the cohort that have no counterfactual from this generator yet, and how many do."""
    with connect(read_only=True, working=True) as con:
        tables = table_names(con)
        if "audit.triage_cohort" not in tables:
            raise RuntimeError("The warehouse has no audit.triage_cohort: run `biasmirror build` first.")
        existing = 0
        params: list[Any] = [dataset]
        anti_join = ""
        if "inference.counterfactuals" in tables:
            existing = con.execute(
                "select count(*) from inference.counterfactuals where dataset = ? and generator = ?",
                [dataset, generator]).fetchone()[0]
            anti_join = ("and not exists (select 1 from inference.counterfactuals c where c.dataset = t.dataset "
                         "and c.record_id = t.record_id and c.generator = ?)")
            params.append(generator)
        language_filter = ""
        if language:
            language_filter = "and t.language = ?"
            params.append(language)
        frame = con.execute(
            f"select dataset, record_id, language, sex, hpi, pmh from audit.triage_cohort t "
            f"where dataset = ? and split = 'test' and sex in ('F', 'M') {anti_join} {language_filter} "
            f"order by record_id" + (f" limit {int(limit)}" if limit is not None else ""), params).df()
    return frame, existing


def _public(options: dict[str, Any]) -> dict[str, Any]:
    """Backend options as recorded in the manifest: secrets are replaced by '***' (biasmirror.url_secrets)."""
    from biasmirror.url_secrets import public_options

    return public_options(options)


def _build_rewriter(dataset: str, generator: str, llm: LlmSpec | None, placebo: bool,
                    allow_remote: bool) -> tuple[Rewriter, Any, dict[str, Any]]:
    """The rewriter, the raw backend (None for rules) and the run parameters that describe them."""
    if generator not in GENERATORS:
        raise ValueError(f"Unknown generator {generator!r}; available: {', '.join(GENERATORS)}")
    if generator == "rules":
        if llm is not None:
            raise ValueError("--backend/--model apply to --generator llm, not to the rule-based generator")
        return RuleRewriter(placebo=placebo), None, {"backend": "rules"}
    if llm is None or not llm.backend or not llm.model:
        raise ValueError("--generator llm needs --backend (transformers, vllm or openai) and --model")
    from biasmirror.backends.guard import check_patient_data_guard
    from biasmirror.backends.registry import make_backend

    try:
        backend = make_backend(llm.backend, llm.model, **llm.options)
    except TypeError as error:
        raise ValueError(f"bad option for the {llm.backend} backend: {error}") from None
    if llm.constrained and not getattr(backend, "structured_outputs", False):
        raise ValueError(f"the {backend.name} backend cannot constrain decoding; --constrained needs vLLM (the vllm "
                         "backend, or the openai backend against a vLLM server)")
    decision = check_patient_data_guard(dataset, backend, allow_remote)
    parameters = {"backend": backend.name, "model": backend.model, "backend_options": _public(llm.options),
                  "backend_is_local": backend.is_local, "allow_remote": allow_remote,
                  "patient_data_guard": decision.as_parameters()}
    return None, backend, parameters  # the LLM rewriter is built once the run (and its cache) exists


def generate_counterfactuals(dataset: str, generator: str = "rules", batch_size: int | None = None, *,
                             llm: LlmSpec | None = None, placebo: bool = False, language: str | None = None,
                             allow_remote: bool = False, limit: int | None = None, diagnostics: bool = True,
                             similarity: bool = False, retry_flagged: bool = False,
                             no_cache: bool = False) -> CounterfactualRun:
    """Write one counterfactual per pending test record, then the per-record diagnostics (and, with
    `similarity`, the embedding similarities) of every copy of this generator that has none yet.
    retry_flagged: ask again for the records flagged earlier (LLM generator), bypassing the answer cache for them;
    no_cache: bypass the answer cache for every request."""
    if (retry_flagged or no_cache) and generator != "llm":
        raise ValueError("--retry-flagged and --no-cache apply to --generator llm (the rule-based swapper is "
                         "deterministic and caches nothing)")
    rewriter, backend, parameters = _build_rewriter(dataset, generator, llm, placebo, allow_remote)
    if rewriter is None:
        from biasmirror.counterfactuals.llm_rewriter import PromptBuilder

        assert llm is not None
        prompts = PromptBuilder(k_shots=llm.k_shots, placebo=placebo, system_template_path=llm.prompt_template,
                                examples_dir=llm.examples_dir)
        name = (llm.name or llm_generator_name(llm.model)) + (PLACEBO_SUFFIX if placebo else "")
    else:
        name = rewriter.name
    batch = batch_size or DEFAULT_BATCH[generator]
    if batch < 1:
        raise ValueError("batch_size must be at least 1")
    if retry_flagged:
        retried = _forget_flagged(dataset, name, language)
    else:
        retried = set()
    records, existing = pending_records(dataset, name, language, limit)
    # records asked again come first, in batches of their own (their requests bypass the cache)
    records = pd.concat([records[records.record_id.isin(retried)], records[~records.record_id.isin(retried)]],
                        ignore_index=True)
    n_retry = int(records.record_id.isin(retried).sum())
    if rewriter is None:
        for lang in sorted(set(records.language)):
            prompts.examples(lang)  # fail now, not mid-run, when a language has no examples
    written = flagged = pending = 0
    if rewriter is None:
        manifest = {"max_tokens": llm.max_tokens, "temperature": llm.temperature, "seed": llm.seed,
                    "constrained_decoding": llm.constrained, **prompts.manifest()}
    else:
        manifest = rewriter.manifest()
    with connect() as con:
        ensure_inference_tables(con)
        run_parameters = {**parameters, **manifest, "generator": name, "batch_size": batch, "language": language,
                          "limit": limit, "placebo": placebo, "n_pending": len(records),
                          "n_existing": existing, "retry_flagged": retry_flagged, "n_flagged_retried": len(retried),
                          "no_cache": no_cache}
        with recorded_run("counterfactuals", run_parameters, connection=con, dataset=dataset,
                          generator=name) as run:
            run_id = run.run_id
            if rewriter is None:
                from biasmirror.backends.cache import CachedBackend
                from biasmirror.counterfactuals.llm_rewriter import LlmRewriter

                # answers are stored as they arrive, with the run that received them
                rewriter = LlmRewriter(CachedBackend(backend, con, run_id, refresh=no_cache), name, prompts,
                                       max_tokens=llm.max_tokens, temperature=llm.temperature, seed=llm.seed,
                                       constrained=llm.constrained)
            from biasmirror.backends.failures import FailureTally

            tally = FailureTally()
            started = time.perf_counter()
            starts = [*range(0, n_retry, batch), *range(n_retry, len(records), batch)]
            processed = 0
            with progress_bar() as bar:
                task = bar.add_task(f"counterfactuals ({name})", total=len(records), rate="")
                for start in starts:
                    end = n_retry if start < n_retry else len(records)
                    chunk = records.iloc[start:min(start + batch, end)]
                    items = [RewriteInput(r.hpi, r.pmh, r.sex, r.language) for r in chunk.itertuples(index=False)]
                    if backend is not None:
                        rewriter.backend.refresh = no_cache or start < n_retry
                    results = rewriter.rewrite_batch(items)
                    for index, (generation, key, attempt) in getattr(rewriter, "last_failures", {}).items():
                        tally.add(run_id=run_id, backend=backend, key=key, generation=generation, dataset=dataset,
                                  item_id=str(chunk.iloc[index].record_id), attempt=attempt)
                    rows = []
                    for record, result in zip(chunk.itertuples(index=False), results):
                        if result is None:
                            pending += 1
                            continue
                        rows.append({
                            "dataset": record.dataset, "record_id": record.record_id, "generator": name,
                            "original_sex": record.sex, "counterfactual_sex": target_sex(record.sex, placebo),
                            "hpi": result.hpi, "pmh": result.pmh, "status": result.status,
                            "flag_reason": result.flag_reason, "n_replacements": result.n_replacements,
                            "run_id": run_id, "created_at": utc_now(),
                        })
                        flagged += result.status != "ok"
                    with interruption_held():  # the chunk and its count go in together
                        con.begin()
                        append_rows(con, "counterfactuals", pd.DataFrame(rows))
                        tally.write(con)
                        con.commit()
                        written += len(rows)
                        run.n_items = written
                    processed += len(chunk)
                    bar.update(task, advance=len(chunk),
                               rate=rate_text(processed, time.perf_counter() - started, "records"))
            run.details["counts"] = _counts(rewriter, written, flagged, pending)
            if tally.total:
                run.details["failures"] = tally.as_parameters()
            if pending and written == 0:
                run.status = FAILED  # every request failed: nothing to resume from
        checks = similar = 0
        if diagnostics:
            from biasmirror.counterfactuals.diagnostics import write_checks

            checks = write_checks(con, dataset, name, run_id)
        if similarity:
            from biasmirror.counterfactuals.diagnostics import write_similarity

            similar = write_similarity(con, dataset, name, run_id)
    message = tally.explain(str(parameters.get("backend")), "record(s)", run_id) if tally.total else ""
    if pending and written == 0 and len(records) > 0:
        raise BackendFailed(f"Nothing was written: every request failed (run {run_id} is marked failed).\n{message}\n"
                            "Check the server, then rerun the same command (records already done are skipped).")
    return CounterfactualRun(run_id, name, written, flagged, existing, pending, checks, similar, run.details["counts"],
                             tally.as_parameters(), message, len(retried))


def _forget_flagged(dataset: str, generator: str, language: str | None) -> set[str]:
    """Delete this generator's flagged copies (and their diagnostics), so that they are asked for again; return
    their record ids. Committed at once: a later run without --retry-flagged also asks for them again."""
    with connect() as con:
        ensure_inference_tables(con)
        params: list[Any] = [dataset, generator]
        where = "dataset = ? and generator = ? and status = 'flagged'"
        if language:
            where += (" and record_id in (select record_id from audit.triage_cohort where dataset = ? and "
                      "language = ?)")
            params += [dataset, language]
        ids = [row[0] for row in con.execute(f"select record_id from inference.counterfactuals where {where}",
                                             params).fetchall()]
        if ids:
            con.begin()
            frame = pd.DataFrame({"record_id": ids})
            con.register("_biasmirror_retry", frame)
            try:
                for table in ("counterfactuals", "counterfactual_checks", "counterfactual_similarity"):
                    con.execute(f"delete from inference.{table} where dataset = ? and generator = ? and record_id in "
                                "(select record_id from _biasmirror_retry)", [dataset, generator])
            finally:
                con.unregister("_biasmirror_retry")
            con.commit()
    return set(ids)


def _counts(rewriter: Any, written: int, flagged: int, pending: int) -> dict[str, Any]:
    counts: dict[str, Any] = {"written": written, "ok": written - flagged, "flagged": flagged,
                              "left_pending": pending}
    if hasattr(rewriter, "counts"):
        counts.update(vars(rewriter.counts))
        cache = rewriter.backend
        counts.update(cache_hits=cache.hits, cache_misses=cache.misses,
                      http_retries=getattr(cache.backend, "retries", None))
    return counts
