"""Label-probability scoring on vLLM's engine in this process: one output token, the label tokens' log-probabilities.

Kept thin: the request building and the reading of vLLM's answers are plain functions, unit-tested without
vllm installed; `VllmLabelScorer` only wires them to `vllm.LLM`.

* Prompts are passed as token ids (the same `TriagePrompt.prompt_ids` as the transformers path), so both paths
  score exactly the prefix the model was trained on.
* Sampling: max_tokens 1, greedy, `allowed_token_ids` = the label tokens and `logprobs` = their number. With the
  engine's `logprobs_mode="processed_logprobs"` the returned log-probabilities are those of the allowed tokens
  after masking, i.e. already renormalised over the levels; with raw log-probabilities (older engines) the
  label tokens outside the top-k come back missing and get probability 0. Either way the result is
  renormalised over the levels here.
* A LoRA adapter is applied per request (`LoRARequest`), or the merged weights are loaded as the model.
* The run orders inputs so that a record's original and counterfactual are adjacent (`order="pair"`), which
  is what prefix caching profits from.
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from biasmirror.triage.model_metadata import load_metadata
from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.prompt import PromptTemplate, TriagePrompt

LORA_NAME = "triage"


def sampling_options(label_token_ids: Sequence[int]) -> dict[str, Any]:
    """Keyword arguments of `vllm.SamplingParams` for label-probability scoring."""
    ids = [int(token) for token in label_token_ids]
    return {"max_tokens": 1, "temperature": 0.0, "logprobs": len(ids), "allowed_token_ids": ids}


def engine_options(model_dir: Path, adapter_dir: Path | None, max_lora_rank: int = 16,
                   extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Keyword arguments of `vllm.LLM`: prefix caching on, LoRA enabled when an adapter is given."""
    options: dict[str, Any] = {"model": str(model_dir), "enable_prefix_caching": True,
                               "logprobs_mode": "processed_logprobs", "seed": 0}
    if adapter_dir is not None:
        options.update(enable_lora=True, max_lora_rank=max_lora_rank, max_loras=1)
    options.update(extra or {})
    return options


def token_prompts(prompt_ids: Sequence[Sequence[int]]) -> list[dict[str, list[int]]]:
    """vLLM prompt dicts (TokensPrompt) from token ids."""
    return [{"prompt_token_ids": [int(token) for token in ids]} for ids in prompt_ids]


def _logprob_value(entry: Any) -> float:
    return float(entry.logprob if hasattr(entry, "logprob") else entry)


def label_probabilities(first_token_logprobs: Sequence[Mapping[int, Any] | None],
                        label_token_ids: Sequence[int]) -> tuple[np.ndarray, int]:
    """Probabilities over the levels (rows sum to 1) from each request's first-token logprob dict
    (token id -> Logprob or float), and the number of label tokens that were missing."""
    labels = [int(token) for token in label_token_ids]
    out = np.zeros((len(first_token_logprobs), len(labels)))
    missing = 0
    for row, logprobs in enumerate(first_token_logprobs):
        values = []
        for token in labels:
            entry = None if logprobs is None else logprobs.get(token)
            if entry is None:
                missing += 1
                values.append(-math.inf)
            else:
                values.append(_logprob_value(entry))
        values_array = np.asarray(values, dtype=float)
        if np.isneginf(values_array).all():
            raise ValueError("vLLM returned no log-probability for any label token; is logprobs_mode raw and "
                             "the model far from the task?")
        shifted = np.exp(values_array - values_array.max())
        out[row] = shifted / shifted.sum()
    return out, missing


class VllmLabelScorer:
    """Label-probability scoring with vllm.LLM (import deferred: vllm is an optional extra or its own environment)."""

    def __init__(self, base_dir: Path, adapter_dir: Path | None = None, merged: bool = False,
                 levels: Sequence[int] | None = None, template: PromptTemplate | None = None, language: str = "en",
                 engine: Mapping[str, Any] | None = None, llm: Any = None, lora_name: str = LORA_NAME) -> None:
        """llm: an engine already made (with LoRA enabled to score an adapter), e.g. shared with a chat backend."""
        try:
            from vllm import LLM
        except ImportError as error:
            raise RuntimeError("Scoring with vLLM's engine in this process needs the `vllm` package here (pip install "
                               "'biasmirror[vllm]' on a GPU machine); `biasmirror score --backend vllm` starts a local "
                               "vLLM server from `make vllm`'s environment instead.") from error
        from biasmirror.serving.environment import in_process_engine_options
        from biasmirror.triage.model_loading import load_tokenizer

        metadata = load_metadata(adapter_dir) if adapter_dir is not None else load_metadata(base_dir)
        levels = levels or (metadata.levels if metadata else None)
        if levels is None:
            raise ValueError("The model folder has no biasmirror_triage.json: pass the levels to score.")
        self.input_transform = metadata.input_transform if metadata else "none"
        self.language = language
        self.prompt = TriagePrompt(load_tokenizer(base_dir, adapter_dir), levels, template)
        self.levels = self.prompt.levels
        self.label_ids = [self.prompt.label_token_ids[level] for level in self.levels]
        use_adapter = adapter_dir if (adapter_dir is not None and not merged) else None
        options = in_process_engine_options(engine_options(base_dir, use_adapter, extra=engine))
        if llm is not None:
            self.llm = llm
        else:
            try:
                self.llm = LLM(**options)
            except TypeError:  # pragma: no cover - vLLM before logprobs_mode: raw log-probabilities, renormalised here
                options.pop("logprobs_mode", None)
                self.llm = LLM(**options)
        self.lora = None
        if use_adapter is not None:
            from vllm.lora.request import LoRARequest

            self.lora = LoRARequest(lora_name, zlib.crc32(str(Path(use_adapter).resolve()).encode()) % (2**31 - 1) + 1,
                                    str(use_adapter))
        self.missing_labels = 0

    def score(self, records: Sequence[str], batch_size: int = 256, progress: Callable[[int], None] | None = None,
              **_: Any) -> np.ndarray:
        from vllm import SamplingParams

        texts = transform_inputs(list(records), self.input_transform, self.language)
        prompts = token_prompts(self.prompt.prompt_ids(texts))
        outputs = self.llm.generate(prompts, SamplingParams(**sampling_options(self.label_ids)),
                                    lora_request=self.lora, use_tqdm=False)
        first = [output.outputs[0].logprobs[0] if output.outputs[0].logprobs else None for output in outputs]
        probabilities, missing = label_probabilities(first, self.label_ids)
        self.missing_labels += missing
        if progress is not None:
            progress(len(records))
        return probabilities
