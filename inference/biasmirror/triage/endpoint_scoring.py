"""Label-probability scoring through OpenAI-compatible vLLM servers: one or several endpoints, one model each.

The same scoring as `VllmLabelScorer` (offline engine) and the transformers `LabelScorer`, over HTTP:

* prompts are tokenized here, with the base model's tokenizer and the triage prompt (`TriagePrompt.prompt_ids`),
  and sent as token ids to `/v1/completions`, so the server scores exactly the prefix the model was trained on;
* one output token, greedy, restricted to the label tokens (`allowed_token_ids`, a vLLM extension), with their
  log-probabilities (`logprobs` = their number, `return_tokens_as_token_ids`). A server started with
  `--logprobs-mode processed_logprobs` (as `LocalVllmServer` starts it) returns the log-probabilities after the
  restriction, i.e. already renormalised over the levels; either way they are renormalised here;
* a LoRA adapter is asked for by the name the server serves it under (`--lora-modules name=folder`);
* batches of prompts are spread over the endpoints (`EndpointPool`): several servers score one run, each batch
  on exactly one of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from biasmirror.serving.endpoints import Endpoint, EndpointPool, post_json
from biasmirror.triage.model_metadata import load_metadata
from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.prompt import PromptTemplate, TriagePrompt, load_template
from biasmirror.triage.vllm_scoring import label_probabilities

TOKEN_ID_PREFIX = "token_id:"


def completion_payload(served_model: str, prompt_ids: Sequence[Sequence[int]],
                       label_token_ids: Sequence[int]) -> dict[str, Any]:
    """The body of one `/v1/completions` request scoring a batch of token-id prompts."""
    ids = [int(token) for token in label_token_ids]
    return {"model": served_model, "prompt": [[int(t) for t in prompt] for prompt in prompt_ids], "max_tokens": 1,
            "temperature": 0.0, "logprobs": len(ids), "allowed_token_ids": ids, "return_tokens_as_token_ids": True}


def first_token_logprobs(document: Mapping[str, Any], n_prompts: int) -> list[dict[int, float] | None]:
    """Each prompt's first-token log-probabilities (token id -> log-probability) from a completions answer."""
    choices = document.get("choices")
    if not isinstance(choices, list) or len(choices) != n_prompts:
        raise ValueError(f"The server answered {len(choices) if isinstance(choices, list) else 'no'} completions "
                         f"for {n_prompts} prompts.")
    out: list[dict[int, float] | None] = [None] * n_prompts
    for position, choice in enumerate(choices):
        index = choice.get("index", position)
        top = ((choice.get("logprobs") or {}).get("top_logprobs") or [None])[0]
        if not isinstance(index, int) or not 0 <= index < n_prompts:
            raise ValueError("The server answered a completion index outside the batch.")
        if top is None:
            continue
        parsed: dict[int, float] = {}
        for token, value in top.items():
            if not str(token).startswith(TOKEN_ID_PREFIX):
                raise ValueError("The server returned tokens as text: it must honour return_tokens_as_token_ids "
                                 "(a vLLM server does).")
            parsed[int(str(token)[len(TOKEN_ID_PREFIX):])] = float(value)
        out[index] = parsed
    return out


class EndpointLabelScorer:
    """Scores records through one or several vLLM servers that serve the model as `served_model`."""

    reports_label_mass = False

    def __init__(self, base_dir: Path, adapter_dir: Path | None, served_model: str, endpoints: Sequence[Endpoint],
                 levels: Sequence[int] | None = None, template: PromptTemplate | None = None, language: str = "en",
                 per_endpoint: int = 2, timeout: float = 600.0) -> None:
        from biasmirror.triage.model_loading import load_tokenizer

        metadata = load_metadata(adapter_dir) if adapter_dir is not None else load_metadata(base_dir)
        levels = levels or (metadata.levels if metadata else None)
        if levels is None:
            raise ValueError("The model folder has no biasmirror_triage.json: pass the levels to score.")
        if metadata is not None and metadata.prompt_sha256:
            used = template or load_template()
            if used.sha256 != metadata.prompt_sha256:
                raise ValueError(f"The model was trained with prompt {metadata.prompt_template} but would be scored "
                                 f"with {used.label}: pass the template file it was trained with (--prompt-template).")
        self.input_transform = metadata.input_transform if metadata else "none"
        self.language = language
        self.served_model = served_model
        self.prompt = TriagePrompt(load_tokenizer(base_dir, adapter_dir), levels, template)
        self.levels = self.prompt.levels
        self.label_ids = [self.prompt.label_token_ids[level] for level in self.levels]
        self.pool = EndpointPool(list(endpoints), per_endpoint=per_endpoint)
        self.is_local = self.pool.is_local
        self.timeout = float(timeout)
        self.missing_labels = 0

    def _send(self, endpoint: Endpoint, batch: list[list[int]]) -> list[dict[int, float] | None]:
        document = post_json(endpoint, "completions", completion_payload(self.served_model, batch, self.label_ids),
                             timeout=self.timeout)
        return first_token_logprobs(document, len(batch))

    def score(self, records: Sequence[str], batch_size: int = 32, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        if not records:
            return np.zeros((0, len(self.levels)))
        prompts = self.prompt.prompt_ids(transform_inputs(list(records), self.input_transform, self.language))
        batches = [prompts[start:start + batch_size] for start in range(0, len(prompts), batch_size)]

        def done(index: int, _: object) -> None:
            if progress is not None:
                progress(len(batches[index]))

        results = self.pool.map(self._send, batches, done=done)
        probabilities, missing = label_probabilities([row for batch in results for row in batch], self.label_ids)
        self.missing_labels += missing
        return probabilities
