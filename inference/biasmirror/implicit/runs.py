"""Running the study on a chat backend and writing the answers into the warehouse.

Every run is recorded in inference.runs (with its backend, prompt set, temperature, seeds and whether the
backend is the simulated respondent). Requests go through CachedBackend, so an identical prompt is never sent
twice. Runs are resumable and idempotent: the design is rebuilt from its seed and the trials that already have
an answer for (model label, prompt set, ...) are skipped; each batch of answers is committed in one
transaction, so an interrupted run keeps what it finished. Answers whose generation failed are not written
(a later run asks again); why each failed (status code, error type, the start of a non-JSON body, never the
prompt) is stored per trial in inference.llm_failures and counted by reason in the run's parameters, and a run
where every request failed is marked failed and raises `BackendFailed` with the reasons. Refusals and
unparseable answers are written with their parse status. `no_cache` sends every request again instead of
reading the answer cache (the new answers replace the cached ones).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

import duckdb
import pandas as pd

from biasmirror.backends.base import ChatBackend, ChatMessage, GenerationRequest, request_key
from biasmirror.backends.cache import CachedBackend
from biasmirror.backends.failures import FailureTally
from biasmirror.implicit.constraints import allocation_constraint, association_constraint
from biasmirror.implicit.design import (DEFAULT_DESIGN_SEED, DEFAULT_ITERATIONS, AllocationTrial, AssociationTrial,
                                        ExplicitTrial, allocation_trials, association_trials, explicit_trials,
                                        stable_int)
from biasmirror.implicit.parsing import parse_allocation, parse_association, parse_stance
from biasmirror.implicit.prompts import PromptSet, load_prompt_set
from biasmirror.implicit.stimuli import LANGUAGES, Stimuli, load_stimuli
from biasmirror.progress import progress_bar, rate_text
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.runs import FAILED, RunRecord, interruption_held, recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

T = TypeVar("T")


class RunConfigurationError(ValueError):
    """Options that cannot run (unknown category, a changed prompt set resuming an earlier run, ...)."""


class BackendFailed(RuntimeError):
    """Every request of a run failed (nothing was written; the run is marked failed). The message says why."""

    def __init__(self, message: str, summary: "RunSummary") -> None:
        super().__init__(message)
        self.summary = summary


@dataclass(frozen=True)
class Decoding:
    """How answers are decoded. temperature 0 is greedy (the default). With temperature > 0 each trial is sampled
    with its own seed, derived from `seed` and the trial (trial_seed): different trials get independent draws, and
    a rerun draws the same answer again. constrained: vLLM's structured outputs hold the answer to the prompt's
    format (biasmirror.implicit.constraints)."""

    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 400
    constrained: bool = False

    @property
    def sampling(self) -> bool:
        return self.temperature > 0


def trial_seed(seed: int | None, trial_key: str) -> int | None:
    """The seed of one sampled trial: a 31-bit integer from the run's seed and the trial's key."""
    if seed is None:
        return None
    return stable_int(f"{seed}|{trial_key}") & 0x7FFFFFFF


@dataclass
class RunSummary:
    run_id: str
    model: str
    planned: int = 0
    written: int = 0
    skipped_existing: int = 0
    failed: int = 0
    cache_hits: int = 0
    left_by_limit: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: FailureTally = field(default_factory=FailureTally)


def _request(prompt: str, decoding: Decoding, trial_key: str, constraint: str | None = None) -> GenerationRequest:
    """Greedy requests carry the run's seed (as before sampling existed, so their cache keys are unchanged);
    sampled ones the trial's own seed."""
    seed = trial_seed(decoding.seed, trial_key) if decoding.sampling else decoding.seed
    return GenerationRequest(messages=(ChatMessage("user", prompt),), max_tokens=decoding.max_tokens,
                             temperature=decoding.temperature, seed=seed,
                             constraint=constraint if decoding.constrained else None)


def _check_constrainable(backend: ChatBackend, decoding: Decoding) -> None:
    if decoding.constrained and not getattr(backend, "structured_outputs", False):
        raise RunConfigurationError(
            f"the {backend.name} backend cannot constrain decoding; --constrained needs vLLM (the vllm backend, or "
            "the openai backend against a vLLM server)")


def _existing(con: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], model: str, prompt_set: str) -> set[tuple]:
    rows = con.execute(f"select {', '.join(columns)} from inference.{table} where model = ? and prompt_set = ?",
                       [model, prompt_set]).fetchall()
    return {tuple(row) for row in rows}


def _check_resumable(con: duckdb.DuckDBPyConnection, table: str, model: str, prompt_set: PromptSet,
                     design_seed: int | None, constrained: bool | None = None) -> None:
    source = "source" if table != "implicit_explicit_answers" else "'generated'"
    rows = con.execute(
        f"select distinct {source}, prompt_set_digest{', design_seed' if design_seed is not None else ''} "
        f"from inference.{table} where model = ? and prompt_set = ?", [model, prompt_set.name]).fetchall()
    for row in rows:
        if row[0] == "imported":
            raise RunConfigurationError(
                f"{model!r} already has imported results under prompt set {prompt_set.name!r}; run under another "
                "--label or prompt set name")
        if row[1] != prompt_set.digest:
            raise RunConfigurationError(
                f"{model!r} already has answers for prompt set {prompt_set.name!r} with different wording (digest "
                f"{row[1]} vs {prompt_set.digest}); give the changed prompt set a new name, or use another --label")
        if design_seed is not None and row[2] != design_seed:
            raise RunConfigurationError(
                f"{model!r} already has answers for prompt set {prompt_set.name!r} made with design seed {row[2]}; "
                f"resume with --design-seed {row[2]}, or use another --label")
    if constrained is not None:
        modes = {bool(row[0]) for row in con.execute(
            f"select distinct coalesce(constrained, false) from inference.{table} "
            "where model = ? and prompt_set = ? and source = 'generated'", [model, prompt_set.name]).fetchall()}
        if modes and constrained not in modes:
            said = "with" if not constrained else "without"
            raise RunConfigurationError(
                f"{model!r} already has answers for prompt set {prompt_set.name!r} decoded {said} --constrained; "
                "store the other decoding under another --label")


def _run_batches(con: duckdb.DuckDBPyConnection, backend: ChatBackend, run: RunRecord, summary: RunSummary,
                 trials: list[T], decoding: Decoding, description: str, batch_size: int,
                 rows_for: Callable[[list[tuple[T, Any]]], dict[str, list[dict]]], item_id: Callable[[T], str],
                 no_cache: bool = False, constraint_for: Callable[[T], str] | None = None) -> None:
    """Ask every trial in batches; write each batch's rows, and why requests failed, in one transaction."""
    cached = CachedBackend(backend, con, run.run_id, refresh=no_cache)
    started = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task(description, total=len(trials), rate="")
        for start in range(0, len(trials), batch_size):
            batch = trials[start:start + batch_size]
            requests = [_request(trial.prompt, decoding, item_id(trial), constraint_for(trial) if constraint_for else None)
                        for trial in batch]
            generations = cached.generate(requests)
            answered = []
            for trial, request, generation in zip(batch, requests, generations):
                if generation.error is not None:
                    summary.failed += 1
                    summary.failures.add(run_id=run.run_id, backend=backend,
                                         key=request_key(backend.name, backend.model, request), generation=generation,
                                         dataset="implicit", item_id=item_id(trial))
                    continue
                answered.append((trial, (request, generation)))
            tables = rows_for(answered)
            with interruption_held():  # the batch and its count go in together
                con.begin()
                try:
                    for table, rows in tables.items():
                        append_rows(con, table, pd.DataFrame(rows))
                    summary.failures.write(con)
                    con.commit()
                except BaseException:
                    con.rollback()
                    raise
                summary.written += len(answered)
                run.n_items = summary.written
            bar.update(task, advance=len(batch), rate=rate_text(start + len(batch), time.perf_counter() - started, "prompts"))
    summary.cache_hits = cached.hits


@contextmanager
def _recorded(con: duckdb.DuckDBPyConnection, kind: str, backend: ChatBackend, model: str, prompt_set: PromptSet,
              decoding: Decoding, extra: dict[str, Any]) -> Iterator[RunRecord]:
    """The study's run in inference.runs; failed when every request failed (nothing to resume from)."""
    parameters = {
        "backend": backend.name, "backend_model": backend.model, "label": model,
        "simulation": backend.name == "simulated",
        "prompt_set": prompt_set.name, "prompt_set_digest": prompt_set.digest, "prompt_set_source": prompt_set.source,
        "temperature": decoding.temperature, "seed": decoding.seed, "max_tokens": decoding.max_tokens,
        "seeds": "per trial (trial_seed)" if decoding.sampling else "the run's seed",
        "constrained_decoding": decoding.constrained, **extra,
    }
    with recorded_run(kind, parameters, connection=con, dataset="implicit", model=model) as run:
        yield run


def _close(run: RunRecord, summary: RunSummary) -> None:
    run.n_items = summary.written
    if summary.failures.total:
        run.details["failures"] = summary.failures.as_parameters()
    if summary.failed and not summary.written:
        run.status = FAILED


def _raise_if_all_failed(summary: RunSummary, backend: ChatBackend) -> RunSummary:
    """The summary, or BackendFailed when every request of the run failed (after the run was recorded)."""
    if summary.failed and not summary.written:
        raise BackendFailed(
            f"Nothing was written for {summary.model}: every request failed (run {summary.run_id} is marked "
            f"failed).\n{summary.failures.explain(backend.name, 'request(s)', summary.run_id)}\nCheck the server, "
            "then rerun the same command (answers already written are skipped).", summary)
    return summary


def _check_languages(languages: Sequence[str], prompt_set: PromptSet) -> list[str]:
    chosen = list(dict.fromkeys(languages))
    unknown = [lang for lang in chosen if lang not in LANGUAGES]
    if unknown:
        raise RunConfigurationError(f"unknown language(s) {', '.join(unknown)}; choose from {', '.join(LANGUAGES)}")
    missing = [lang for lang in chosen if lang not in prompt_set.languages]
    if missing:
        raise RunConfigurationError(f"prompt set {prompt_set.name!r} has no prompts for {', '.join(missing)}")
    return chosen


def _chosen(requested: Sequence[str] | None, known: Sequence[str], what: str) -> list[str]:
    """The categories or disciplines a run covers: those requested (once each, in order), or all it knows."""
    chosen = list(dict.fromkeys(requested or known))
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise RunConfigurationError(f"unknown {what} {', '.join(unknown)}; known: {', '.join(known)}")
    return chosen


def run_associations(backend: ChatBackend, *, label: str | None = None, prompt_set: PromptSet | None = None,
                     languages: Sequence[str] = LANGUAGES, categories: Sequence[str] | None = None,
                     iterations: int = DEFAULT_ITERATIONS, decoding: Decoding = Decoding(),
                     design_seed: int = DEFAULT_DESIGN_SEED, batch_size: int = 16, stimuli: Stimuli | None = None,
                     no_cache: bool = False) -> RunSummary:
    """The word-association test: `iterations` prompts per language and category."""
    stimuli = stimuli or load_stimuli()
    prompt_set = prompt_set or load_prompt_set(stimuli=stimuli)
    model = label or backend.model
    languages = _check_languages(languages, prompt_set)
    categories = _chosen(categories, stimuli.categories, "categor(ies)")
    if iterations < 1:
        raise RunConfigurationError("--iterations must be at least 1")
    _check_constrainable(backend, decoding)
    trials = association_trials(stimuli, prompt_set, languages, categories, iterations, design_seed)
    with connect() as con:
        ensure_inference_tables(con)
        _check_resumable(con, "implicit_association_responses", model, prompt_set, design_seed, decoding.constrained)
        done = _existing(con, "implicit_association_responses", ("language", "category", "iteration"), model, prompt_set.name)
        pending = [t for t in trials if (t.language, t.category, t.iteration) not in done]
        with _recorded(con, "implicit_associations", backend, model, prompt_set, decoding,
                        {"languages": languages, "categories": categories, "iterations": iterations,
                         "design_seed": design_seed, "no_cache": no_cache}) as run:
            run_id = run.run_id
            summary = RunSummary(run_id, model, planned=len(trials), skipped_existing=len(trials) - len(pending))

            def rows_for(answered: list[tuple[AssociationTrial, Any]]) -> dict[str, list[dict]]:
                responses, assignments = [], []
                now = utc_now()
                for trial, (request, generation) in answered:
                    groups = prompt_set.for_language(trial.language).groups
                    parsed = parse_association(generation.text, [w.word for w in trial.words], groups)
                    summary.statuses[parsed.status] += 1
                    responses.append({
                        "run_id": run_id, "source": "generated", "backend": backend.name, "model": model,
                        "prompt_set": prompt_set.name, "prompt_set_digest": prompt_set.digest, "design_seed": design_seed,
                        "language": trial.language, "category": trial.category, "iteration": trial.iteration,
                        "template_id": trial.template_id, "group_order": ",".join(trial.group_order), "prompt": trial.prompt,
                        "temperature": decoding.temperature, "seed": request.seed, "constrained": decoding.constrained,
                        "request_key": request_key(backend.name, backend.model, request),
                        "response_text": generation.text, "finish_reason": generation.finish_reason,
                        "parse_status": parsed.status, "n_words": len(trial.words), "n_assigned": parsed.n_assigned,
                        "created_at": now,
                    })
                    for position, word in enumerate(trial.words, start=1):
                        assignments.append({
                            "run_id": run_id, "model": model, "prompt_set": prompt_set.name, "language": trial.language,
                            "category": trial.category, "iteration": trial.iteration, "position": position,
                            "word_id": word.word_id, "word": word.word, "valence": word.valence,
                            "assigned_group": parsed.assignments[word.word], "word_status": parsed.word_status[word.word],
                        })
                return {"implicit_association_responses": responses, "implicit_association_assignments": assignments}

            def constraint_for(trial: AssociationTrial) -> str:
                groups = prompt_set.for_language(trial.language).groups
                return association_constraint([w.word for w in trial.words], [groups[g] for g in trial.group_order])

            _run_batches(con, backend, run, summary, pending, decoding, f"word association ({model})", batch_size, rows_for,
                         lambda t: f"associations/{t.language}/{t.category}/{t.iteration}", no_cache, constraint_for)
            _close(run, summary)
        return _raise_if_all_failed(summary, backend)


def run_allocation(backend: ChatBackend, *, label: str | None = None, prompt_set: PromptSet | None = None,
                   languages: Sequence[str] = LANGUAGES, disciplines: Sequence[str] | None = None,
                   explanations: Sequence[bool] = (False, True), symptom_conditions: Sequence[bool] = (False, True),
                   decoding: Decoding = Decoding(), design_seed: int = DEFAULT_DESIGN_SEED, batch_size: int = 16,
                   stimuli: Stimuli | None = None, no_cache: bool = False, limit: int | None = None) -> RunSummary:
    """The appointment-allocation task: every pair of every discipline in both orders, per condition.
    `limit`: at most this many of the pending prompts, in the design's order (language, discipline, explanation,
    symptoms, pair), whole pairs only (both orders of a pair together; at least one pair)."""
    stimuli = stimuli or load_stimuli()
    prompt_set = prompt_set or load_prompt_set(stimuli=stimuli)
    model = label or backend.model
    languages = _check_languages(languages, prompt_set)
    disciplines = _chosen(disciplines, stimuli.disciplines, "discipline(s)")
    if limit is not None and limit < 1:
        raise RunConfigurationError("--limit must be at least 1")
    _check_constrainable(backend, decoding)
    trials = allocation_trials(stimuli, prompt_set, languages, disciplines, explanations, symptom_conditions, design_seed)
    key_columns = ("language", "discipline", "explanation", "symptoms", "pair_id", "presentation_order")
    names = {pid: p.names for pid, p in stimuli.personas.items()}
    with connect() as con:
        ensure_inference_tables(con)
        _check_resumable(con, "implicit_allocation_responses", model, prompt_set, design_seed, decoding.constrained)
        done = _existing(con, "implicit_allocation_responses", key_columns, model, prompt_set.name)
        pending = [t for t in trials if (t.language, t.discipline, t.explanation, t.symptoms, t.pair_id,
                                         t.presentation_order) not in done]
        limited = _whole_pairs(pending, limit) if limit is not None else pending
        with _recorded(con, "implicit_allocation", backend, model, prompt_set, decoding,
                        {"languages": languages, "disciplines": disciplines, "explanations": list(explanations),
                         "symptoms": list(symptom_conditions), "design_seed": design_seed, "no_cache": no_cache,
                         "limit": limit}) as run:
            run_id = run.run_id
            summary = RunSummary(run_id, model, planned=len(trials), skipped_existing=len(trials) - len(pending),
                                 left_by_limit=len(pending) - len(limited))

            def rows_for(answered: list[tuple[AllocationTrial, Any]]) -> dict[str, list[dict]]:
                rows = []
                now = utc_now()
                for trial, (request, generation) in answered:
                    candidates = [(pid, names[pid][trial.language]) for pid in trial.candidates]
                    parsed = parse_allocation(generation.text, candidates)
                    summary.statuses[parsed.status] += 1
                    chosen_group = None
                    if parsed.chosen is not None:
                        chosen_group = "cisgender" if parsed.chosen == trial.cis_persona_id else "transgender"
                    rows.append({
                        "run_id": run_id, "source": "generated", "backend": backend.name, "model": model,
                        "prompt_set": prompt_set.name, "prompt_set_digest": prompt_set.digest, "design_seed": design_seed,
                        "language": trial.language, "discipline": trial.discipline, "explanation": trial.explanation,
                        "symptoms": trial.symptoms, "pair_id": trial.pair_id, "presentation_order": trial.presentation_order,
                        "cis_persona_id": trial.cis_persona_id, "trans_persona_id": trial.trans_persona_id,
                        "urgency": trial.urgency, "cis_symptom_id": trial.cis_symptom_id, "trans_symptom_id": trial.trans_symptom_id,
                        "prompt": trial.prompt, "temperature": decoding.temperature, "seed": request.seed,
                        "request_key": request_key(backend.name, backend.model, request), "response_text": generation.text,
                        "finish_reason": generation.finish_reason, "reasoning": parsed.reasoning,
                        "chosen_persona_id": parsed.chosen, "chosen_group": chosen_group, "parse_status": parsed.status,
                        "created_at": now, "constrained": decoding.constrained,
                    })
                return {"implicit_allocation_responses": rows}

            def constraint_for(trial: AllocationTrial) -> str:
                return allocation_constraint([names[pid][trial.language] for pid in trial.candidates], trial.explanation,
                                             decoding.max_tokens)

            _run_batches(con, backend, run, summary, limited, decoding, f"allocation ({model})", batch_size, rows_for,
                         lambda t: (f"allocation/{t.language}/{t.discipline}/explanation={t.explanation}/"
                                    f"symptoms={t.symptoms}/{t.pair_id}/order={t.presentation_order}"), no_cache,
                         constraint_for)
            _close(run, summary)
        return _raise_if_all_failed(summary, backend)


def run_explicit(backend: ChatBackend, *, label: str | None = None, prompt_set: PromptSet | None = None,
                 languages: Sequence[str] = LANGUAGES, decoding: Decoding = Decoding(), stimuli: Stimuli | None = None,
                 no_cache: bool = False) -> RunSummary:
    """The explicit questions: would the model treat the two groups differently?"""
    stimuli = stimuli or load_stimuli()
    prompt_set = prompt_set or load_prompt_set(stimuli=stimuli)
    model = label or backend.model
    languages = _check_languages(languages, prompt_set)
    trials = explicit_trials(prompt_set, languages)
    with connect() as con:
        ensure_inference_tables(con)
        _check_resumable(con, "implicit_explicit_answers", model, prompt_set, None)
        done = _existing(con, "implicit_explicit_answers", ("language", "question_id"), model, prompt_set.name)
        pending = [t for t in trials if (t.language, t.question_id) not in done]
        with _recorded(con, "implicit_explicit", backend, model, prompt_set, decoding, {"languages": languages, "no_cache": no_cache}) as run:
            run_id = run.run_id
            summary = RunSummary(run_id, model, planned=len(trials), skipped_existing=len(trials) - len(pending))

            def rows_for(answered: list[tuple[ExplicitTrial, Any]]) -> dict[str, list[dict]]:
                rows = []
                for trial, (request, generation) in answered:
                    stance = parse_stance(generation.text)
                    summary.statuses[stance] += 1
                    rows.append({
                        "run_id": run_id, "backend": backend.name, "model": model, "prompt_set": prompt_set.name,
                        "prompt_set_digest": prompt_set.digest, "language": trial.language, "question_id": trial.question_id,
                        "question": trial.prompt, "temperature": decoding.temperature, "seed": request.seed,
                        "request_key": request_key(backend.name, backend.model, request), "response_text": generation.text,
                        "finish_reason": generation.finish_reason, "stance": stance, "created_at": utc_now(),
                    })
                return {"implicit_explicit_answers": rows}

            _run_batches(con, backend, run, summary, pending, decoding, f"explicit questions ({model})", 8, rows_for,
                         lambda t: f"explicit/{t.language}/{t.question_id}", no_cache)
            _close(run, summary)
        return _raise_if_all_failed(summary, backend)


def _whole_pairs(pending: list[AllocationTrial], limit: int) -> list[AllocationTrial]:
    """The first pending prompts, at most `limit` of them (at least one pair), never half a pair."""
    groups: dict[tuple, list[AllocationTrial]] = {}
    for trial in pending:
        groups.setdefault((trial.language, trial.discipline, trial.explanation, trial.symptoms, trial.pair_id), []).append(trial)
    chosen: list[AllocationTrial] = []
    for group in groups.values():
        if chosen and len(chosen) + len(group) > limit:
            break
        chosen += group
    return chosen


def describe(summary: RunSummary) -> str:
    statuses = ", ".join(f"{k} {v:,}" for k, v in sorted(summary.statuses.items())) or "none"
    failures = f" Failed requests by reason: {summary.failures.summary()}." if summary.failures.total else ""
    left = f", {summary.left_by_limit:,} left by --limit" if summary.left_by_limit else ""
    return (f"{summary.written:,} answers written for {summary.model} ({summary.skipped_existing:,} already present{left}, "
            f"{summary.failed:,} failed and left for a later run, {summary.cache_hits:,} from the cache); "
            f"parse status: {statuses}; run {summary.run_id}.{failures}")
