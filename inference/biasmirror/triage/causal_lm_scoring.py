"""Label-probability scoring of a causal LM with transformers (CPU or GPU).

One forward pass per prompt: the next-token logits at the end of the prompt, restricted to the label token of
each level (read from the tokenized training sequence, see `TriagePrompt`), softmaxed over the levels only
(renormalised). The same pass gives the label mass: the share of the full next-token distribution that falls
on the label tokens before that renormalisation (near 1 for a model that learned to answer with a level; a low
mass means the renormalised probabilities describe answers the model would rarely give). Prompts are sorted by
length and batched with left padding, under `torch.inference_mode()`.

`generate_levels` is the study's method (greedy generation of two tokens, then parse the integer): the parity
check compares it with the argmax of the label probabilities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.triage.model_loading import check_model_dir, count_parameters, load_causal_lm, load_tokenizer, pick_device
from biasmirror.triage.model_metadata import ModelMetadata, load_metadata
from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.prompt import PromptTemplate, TriagePrompt
from biasmirror.triage.prompt_prefix import after_prefix, encode_prefix, shared_prefix

_INTEGER = re.compile(r"\d+")


@dataclass(frozen=True)
class ParityReport:
    """Label-probability argmax against generate-and-parse on a sample: per input and in total."""

    scored_levels: tuple[int, ...]
    generated_levels: tuple[int | None, ...]
    label_mass: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.scored_levels)

    @property
    def agreeing(self) -> int:
        return sum(a == g for a, g in zip(self.scored_levels, self.generated_levels))

    @property
    def unparseable(self) -> int:
        return sum(g is None for g in self.generated_levels)

    @property
    def agreement(self) -> float:
        return self.agreeing / self.n if self.n else float("nan")


def parse_level(text: str, levels: Sequence[int]) -> int | None:
    """The first integer in a generated text when it is one of the levels, else None."""
    match = _INTEGER.search(text)
    if match is None:
        return None
    value = int(match.group(0))
    return value if value in levels else None


def length_sorted_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Indices grouped into batches of similar length (longest first), so little padding is computed."""
    order = np.argsort(-np.asarray(lengths), kind="stable")
    return [order[start:start + batch_size] for start in range(0, len(order), batch_size)]


class LabelScorer:
    """Scores records (linearized input texts) with a causal LM and the triage prompt."""

    reports_label_mass = True

    def __init__(self, model: Any, tokenizer: Any, levels: Sequence[int], template: PromptTemplate | None = None,
                 input_transform: str = "none", language: str = "en", metadata: ModelMetadata | None = None) -> None:
        import torch

        self.metadata = metadata
        self.model = model
        self.tokenizer = tokenizer
        self.prompt = TriagePrompt(tokenizer, levels, template)
        self.levels = self.prompt.levels
        self.input_transform = input_transform
        self.language = language
        self.device = next(model.parameters()).device
        self._label_ids = torch.tensor([self.prompt.label_token_ids[level] for level in self.levels],
                                       device=self.device)
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id

    @classmethod
    def from_folders(cls, base_dir: Path, adapter_dir: Path | None = None, merge: bool = False,
                     levels: Sequence[int] | None = None, device: str | None = None,
                     template: PromptTemplate | None = None, language: str = "en") -> "LabelScorer":
        """Load a base model (and adapter). Levels and input transform come from the adapter's metadata."""
        check_model_dir(base_dir, "Base model")
        if adapter_dir is not None:
            check_model_dir(adapter_dir, "Adapter")
        metadata = load_metadata(adapter_dir) if adapter_dir is not None else load_metadata(base_dir)
        if levels is None:
            if metadata is None:
                raise ValueError("The model folder has no biasmirror_triage.json: pass the levels to score.")
            levels = metadata.levels
        device = pick_device(device)
        model = load_causal_lm(base_dir, adapter_dir, merge=merge, device=device)
        tokenizer = load_tokenizer(base_dir, adapter_dir)
        transform = metadata.input_transform if metadata is not None else "none"
        if metadata is not None and metadata.prompt_sha256:
            from biasmirror.triage.prompt import load_template

            used = template or load_template()
            if used.sha256 != metadata.prompt_sha256:
                raise ValueError(f"The model was trained with prompt {metadata.prompt_template} "
                                 f"(sha256 {metadata.prompt_sha256[:12]}) but would be scored with "
                                 f"{used.label}: pass the template file it was trained with (--prompt-template).")
        return cls(model, tokenizer, levels, template, transform, language, metadata)

    def parameter_counts(self) -> tuple[int, int]:
        return count_parameters(self.model)

    # ---------------------------------------------------------------------------------------------------------
    def _inputs(self, records: Sequence[str]) -> list[str]:
        return transform_inputs(list(records), self.input_transform, self.language)

    def _padded(self, sequences: list[list[int]]) -> tuple[Any, Any, Any]:
        import torch

        width = max(len(ids) for ids in sequences)
        input_ids = torch.full((len(sequences), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(sequences), width), dtype=torch.long)
        for row, ids in enumerate(sequences):
            input_ids[row, width - len(ids):] = torch.tensor(ids, dtype=torch.long)
            attention[row, width - len(ids):] = 1
        positions = (attention.cumsum(-1) - 1).clamp(min=0)
        return input_ids.to(self.device), attention.to(self.device), positions.to(self.device)

    def score(self, records: Sequence[str], batch_size: int = 16, verify_sample: int = 8,
              progress: Callable[[int], None] | None = None, sort_by_length: bool = True,
              share_prefix: bool = True, with_label_mass: bool = False) -> Any:
        """Probabilities (n_records x n_levels, rows sum to 1) of each level's label token; with
        `with_label_mass`, (probabilities, label mass per record).

        share_prefix: the system instruction and the start of the user turn are the same tokens in every prompt;
        their key/value cache is computed once and reused by every batch, so each forward pass only runs over
        the record-specific tokens (what vLLM's prefix caching does on a GPU)."""
        import torch

        if not records:
            empty = np.zeros((0, len(self.levels)))
            return (empty, np.zeros(0)) if with_label_mass else empty
        texts = self._inputs(records)
        if verify_sample:
            self.prompt.prompt_ids(texts[:verify_sample], verify=True)
        prompts = self.prompt.prompt_ids(texts)
        if sort_by_length:
            batches = length_sorted_batches([len(p) for p in prompts], batch_size)
        else:
            batches = [np.arange(start, min(start + batch_size, len(prompts)))
                       for start in range(0, len(prompts), batch_size)]
        prefix = shared_prefix(prompts) if share_prefix else []
        out = np.zeros((len(prompts), len(self.levels)))
        mass = np.zeros(len(prompts))
        with torch.inference_mode():
            prefix_cache = self._prefix_cache(prefix) if prefix else None
            for batch in batches:
                logits = self._last_logits([prompts[i] for i in batch], prefix, prefix_cache).double()
                label_logits = logits.index_select(-1, self._label_ids)
                out[batch] = torch.softmax(label_logits, dim=-1).cpu().numpy()
                mass[batch] = torch.exp(torch.logsumexp(label_logits, -1) - torch.logsumexp(logits, -1)).cpu().numpy()
                if progress is not None:
                    progress(len(batch))
        return (out, mass) if with_label_mass else out

    def _prefix_cache(self, prefix: list[int]) -> Any:
        return encode_prefix(self.model, prefix)

    def _last_logits(self, sequences: list[list[int]], prefix: list[int], prefix_cache: Any) -> Any:
        """Next-token logits after each sequence (batch x vocab), reusing the prefix's cache when given."""
        import copy

        if prefix_cache is None:
            input_ids, attention, positions = self._padded(sequences)
            return self.model(input_ids=input_ids, attention_mask=attention, position_ids=positions,
                              logits_to_keep=1).logits[:, -1, :]
        n = len(prefix)
        input_ids, suffix_attention, suffix_positions = self._padded([ids[n:] for ids in sequences])
        context = after_prefix(self.model, copy.deepcopy(prefix_cache), n, suffix_attention, suffix_positions)
        return self.model(input_ids=input_ids, logits_to_keep=1, **context).logits[:, -1, :]

    def label_mass(self, records: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Share of the full next-token distribution that falls on the label tokens (a trained model: ~1)."""
        return self.score(records, batch_size, with_label_mass=True)[1]

    # ---------------------------------------------------------------------------------------------------------
    def generate_texts(self, records: Sequence[str], batch_size: int = 16, max_new_tokens: int = 2,
                       progress: Callable[[int], None] | None = None) -> list[str]:
        """Greedy continuation of each prompt (the study's inference), decoded."""
        import torch

        prompts = self.prompt.prompt_ids(self._inputs(records))
        texts = [""] * len(prompts)
        with torch.inference_mode():
            for batch in length_sorted_batches([len(p) for p in prompts], batch_size):
                input_ids, attention, _ = self._padded([prompts[i] for i in batch])
                generated = self.model.generate(input_ids=input_ids, attention_mask=attention, do_sample=False,
                                                max_new_tokens=max_new_tokens, pad_token_id=self.pad_id)
                new_tokens = generated[:, input_ids.shape[1]:]
                for row, index in enumerate(batch):
                    texts[index] = self.tokenizer.decode(new_tokens[row], skip_special_tokens=True)
                if progress is not None:
                    progress(len(batch))
        return texts

    def generate_levels(self, records: Sequence[str], batch_size: int = 16, max_new_tokens: int = 2,
                        progress: Callable[[int], None] | None = None) -> list[int | None]:
        return [parse_level(text, self.levels)
                for text in self.generate_texts(records, batch_size, max_new_tokens, progress)]

    def parity(self, records: Sequence[str], batch_size: int = 16,
               progress: Callable[[int], None] | None = None) -> ParityReport:
        """Agreement of the label-probability argmax with generate-two-tokens-and-parse on `records`.
        progress is advanced once per record scored and once per record generated (2 x len(records))."""
        probabilities, mass = self.score(records, batch_size, progress=progress, with_label_mass=True)
        argmax = tuple(int(self.levels[i]) for i in probabilities.argmax(axis=1))
        generated = tuple(self.generate_levels(records, batch_size, progress=progress))
        return ParityReport(argmax, generated, tuple(float(m) for m in mass))
