"""Tiny causal language models built locally (`biasmirror tiny-model`, tests and benchmarks; no hub download).

`build_tiny_causal_lm` trains a byte-level BPE tokenizer with the `tokenizers` library on the given texts,
wraps it in a `PreTrainedTokenizerFast` with a ChatML-style chat template, builds a randomly initialised
Llama- or Mistral-config model with 2 layers and a hidden size of 32-64, and saves both to a folder that
`AutoTokenizer.from_pretrained` / `AutoModelForCausalLM.from_pretrained` (and vLLM) read like any model
directory. The result is deterministic for a given seed and corpus.

Byte-level BPE merges a space with the digit after it (" 3" is one token once the merge is learned), which is
what real Llama/Mistral/Qwen tokenizers do too; code that reads label tokens must cope with it.
"""

from __future__ import annotations

import gzip
import csv
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Literal, Sequence

# ChatML-style template: system, user and assistant turns between <|im_start|>role\n ... <|im_end|>\n.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
BOS, EOS, PAD, UNK = "<|bos|>", "<|im_end|>", "<|pad|>", "<|unk|>"
SPECIAL_TOKENS = (PAD, BOS, EOS, "<|im_start|>", UNK)
# Extra texts so the tokenizer also learns the chat roles and the words of the triage prompt.
_SEED_TEXTS = (
    "system user assistant triage level emergency department record answer with the level only",
    "level 1 level 2 level 3 level 4 level 5 levels 1 2 3 4 5",
)


def _prompt_texts(repeat: int = 20) -> list[str]:
    """The triage prompt's own wording (system and user turns), repeated so that its words become tokens."""
    try:
        from biasmirror.triage.prompt import load_template
    except ImportError:  # pragma: no cover - the triage package is part of biasmirror
        return []
    template = load_template()
    return [template.system, template.user] * repeat

Architecture = Literal["llama", "mistral"]


@dataclass(frozen=True)
class TinyModelSpec:
    architecture: Architecture = "llama"
    hidden_size: int = 48
    num_layers: int = 2
    num_heads: int = 4
    num_kv_heads: int = 2
    intermediate_size: int = 96
    # 1024 keeps the model learnable through LoRA in a few dozen steps; larger vocabularies give shorter prompts.
    vocab_size: int = 1024
    max_position_embeddings: int = 2048
    # Large enough that a random output layer can express confident predictions (0.02, the usual value, caps
    # every logit near 1 after the final norm, so nothing could be learned through LoRA alone).
    initializer_range: float = 0.2
    seed: int = 0


def train_byte_level_bpe(texts: Iterable[str], vocab_size: int = 1024, min_frequency: int = 2,
                         special_tokens: Sequence[str] = SPECIAL_TOKENS):
    """A byte-level BPE `tokenizers.Tokenizer` trained on `texts` (the GPT-2/Llama-3 style of tokenizer)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=min_frequency,
                                  special_tokens=list(special_tokens),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tokenizer.train_from_iterator(list(texts) + list(_SEED_TEXTS) + _prompt_texts(), trainer=trainer)
    return tokenizer


def wrap_tokenizer(tokenizer, chat_template: str = CHAT_TEMPLATE):
    """A `PreTrainedTokenizerFast` around a trained `tokenizers.Tokenizer`, with chat template and pad token."""
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token=BOS, eos_token=EOS, pad_token=PAD,
                                   unk_token=UNK, additional_special_tokens=["<|im_start|>"],
                                   chat_template=chat_template, padding_side="left")


def build_tiny_causal_lm(out_dir: Path, texts: Iterable[str], spec: TinyModelSpec = TinyModelSpec(),
                         chat_template: str = CHAT_TEMPLATE) -> Path:
    """Train a tokenizer on `texts`, build a random tiny Llama/Mistral model and save both to `out_dir`."""
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig, MistralConfig

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer = wrap_tokenizer(train_byte_level_bpe(texts, vocab_size=spec.vocab_size), chat_template)
    config_class = {"llama": LlamaConfig, "mistral": MistralConfig}[spec.architecture]
    config = config_class(
        vocab_size=len(tokenizer), hidden_size=spec.hidden_size, intermediate_size=spec.intermediate_size,
        num_hidden_layers=spec.num_layers, num_attention_heads=spec.num_heads,
        num_key_value_heads=spec.num_kv_heads, max_position_embeddings=spec.max_position_embeddings,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False,
        initializer_range=spec.initializer_range,
    )
    torch.manual_seed(spec.seed)
    model = AutoModelForCausalLM.from_config(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def synthetic_texts(stays: int = 300, seed: int = 0) -> list[str]:
    """Texts of a small synthetic MIMIC-IV data set (discharge notes and chief complaints) to train on."""
    from biasmirror.synth.mimic import write_mimic

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write_mimic(root, stays=stays, seed=seed)
        texts: list[str] = []
        with gzip.open(root / "note/discharge.csv.gz", "rt", encoding="utf-8", newline="") as handle:
            texts += [row["text"] for row in csv.DictReader(handle)]
        with gzip.open(root / "ed/triage.csv.gz", "rt", encoding="utf-8", newline="") as handle:
            texts += [row["chiefcomplaint"] for row in csv.DictReader(handle) if row["chiefcomplaint"]]
    return texts
