"""The prompt prefix every record shares, run through the model once per batch instead of once per record.

Every triage prompt starts with the same tokens (the system turn and the instruction: about a third of a demo
prompt). Scoring and training both run that prefix once, keep its key/value cache, repeat the cache over the batch
and run each record's own tokens after it: the same attention, positions and logits as the whole sequences (what
vLLM's prefix caching does on a GPU). In training the prefix is recomputed with gradients every micro-batch, so
the LoRA weights of the prefix receive the gradient of every record in the batch.
"""

from __future__ import annotations

import inspect
from typing import Any, Sequence


def shared_prefix(sequences: Sequence[Sequence[int]]) -> list[int]:
    """The longest common prefix of all sequences, leaving at least one token of each sequence after it."""
    first = list(sequences[0])
    n = min(len(s) for s in sequences) - 1
    for seq in sequences[1:]:
        k = 0
        while k < n and seq[k] == first[k]:
            k += 1
        n = k
    return first[:max(n, 0)]


def cache_argument(model: Any) -> str:
    """The key/value cache argument and output field: `cache` (transformers >= 5.x) or `past_key_values`."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    return "cache" if "cache" in inspect.signature(base.forward).parameters else "past_key_values"


def encode_prefix(model: Any, prefix: Sequence[int]) -> Any:
    """The key/value cache of the prefix alone (batch of one); with gradients when they are enabled."""
    import torch

    ids = torch.tensor([list(prefix)], dtype=torch.long, device=model.device)
    return model(input_ids=ids, use_cache=True, logits_to_keep=1)[cache_argument(model)]


def after_prefix(model: Any, cache: Any, n_prefix: int, attention: Any, positions: Any) -> dict[str, Any]:
    """Keyword arguments that run a left-padded batch of suffixes after the prefix's cache: the cache repeated
    over the batch (in place), the attention mask widened by the prefix and the positions shifted past it."""
    import torch

    rows = attention.shape[0]
    cache.batch_repeat_interleave(rows)
    ones = torch.ones((rows, n_prefix), dtype=attention.dtype, device=attention.device)
    return {"attention_mask": torch.cat([ones, attention], dim=1), "position_ids": positions + n_prefix,
            "use_cache": True, cache_argument(model): cache}
