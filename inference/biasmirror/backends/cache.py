"""Answering identical requests from the warehouse (inference.llm_responses) instead of sending them again.

The cache key is the request's content hash (backend, model, messages, decoding parameters). Responses are
committed in batches, so an interrupted run keeps what it already received. Only the response text is stored
with its key; prompts, which may hold patient text, are not duplicated here. Failed requests are never cached.

`refresh = True` (the commands' --no-cache, and --retry-flagged for the records it retries) sends every request
again instead of reading the cache, and stores the new answers in place of the old ones.
"""

from __future__ import annotations

from typing import Sequence

import duckdb
import pandas as pd

from biasmirror.backends.base import ChatBackend, Generation, GenerationRequest, request_key
from biasmirror.warehouse import ensure_inference_tables
from biasmirror.warehouse.writes import append_rows, utc_now


class CachedBackend:
    def __init__(self, backend: ChatBackend, con: duckdb.DuckDBPyConnection, run_id: str | None = None,
                 refresh: bool = False) -> None:
        self.backend = backend
        self.name = backend.name
        self.model = backend.model
        self.is_local = backend.is_local
        self._con = con
        self._run_id = run_id
        self.refresh = refresh
        self.hits = 0
        self.misses = 0
        self.refreshed = 0  # requests sent again although an answer was cached
        ensure_inference_tables(con)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        keys = self.keys(requests)
        cached = self._lookup(sorted(set(keys)))
        if self.refresh:
            self.refreshed += len(set(cached))
            cached = {}
        missing = [i for i, key in enumerate(keys) if key not in cached]
        # identical requests within one batch are sent once
        unique_missing: dict[str, int] = {}
        for i in missing:
            unique_missing.setdefault(keys[i], i)
        fresh = self.backend.generate([requests[i] for i in unique_missing.values()]) if unique_missing else []
        answers = dict(zip(unique_missing.keys(), fresh))
        self._store({key: answer for key, answer in answers.items() if answer.error is None})
        self.hits += len(requests) - len(missing)
        self.misses += len(unique_missing)
        return [cached.get(key) or answers[key] for key in keys]

    def keys(self, requests: Sequence[GenerationRequest]) -> list[str]:
        """The cache keys of requests to this backend."""
        return [request_key(self.backend.name, self.backend.model, r) for r in requests]

    def _lookup(self, keys: list[str]) -> dict[str, Generation]:
        if not keys:
            return {}
        frame = pd.DataFrame({"request_key": keys})
        self._con.register("_biasmirror_keys", frame)
        try:
            rows = self._con.execute(
                "select r.request_key, r.response_text, r.finish_reason from inference.llm_responses r "
                "join _biasmirror_keys k using (request_key)").fetchall()
        finally:
            self._con.unregister("_biasmirror_keys")
        return {key: Generation(text, finish) for key, text, finish in rows}

    def _store(self, answers: dict[str, Generation]) -> None:
        if not answers:
            return
        frame = pd.DataFrame([
            {"request_key": key, "backend": self.backend.name, "model": self.backend.model,
             "response_text": answer.text, "finish_reason": answer.finish_reason, "run_id": self._run_id,
             "created_at": utc_now()}
            for key, answer in answers.items()
        ])
        self._con.begin()
        if self.refresh:  # the new answer replaces the cached one
            self._con.register("_biasmirror_keys", frame[["request_key"]])
            try:
                self._con.execute("delete from inference.llm_responses where request_key in "
                                  "(select request_key from _biasmirror_keys)")
            finally:
                self._con.unregister("_biasmirror_keys")
        append_rows(self._con, "llm_responses", frame)
        self._con.commit()
