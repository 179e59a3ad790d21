"""A RoBERTa encoder trained from scratch on the cohort's text, then fine-tuned to classify the level.

The study's recipe (to see how much pre-existing bias a pretrained model brings):
1. a byte-level BPE tokenizer trained on the train split's text (vocabulary 52,000, minimum frequency 2) with
   RoBERTa's special tokens;
2. a randomly initialised `RobertaForMaskedLM` (12 layers, 12 heads, hidden 768, up to 1,024 positions,
   type_vocab_size 1, dropout 0.1) pretrained with masked-language modelling on the same texts;
3. a softmax classification head on the pretrained encoder (`RobertaForSequenceClassification`, one output per
   level), fine-tuned on the documented levels.

`RobertaSpec.study()` is that configuration; `RobertaSpec.tiny()` trains in seconds for tests. Nothing is
downloaded; the plain PyTorch loops are deterministic for a seed on CPU.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np

from biasmirror.progress import PhaseCallback
from biasmirror.triage.sequence_classification import (TokenizedClassifier, fine_tune, linear_schedule, pad,
                                                        shuffled_batches)

SPECIAL_TOKENS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")


@dataclass(frozen=True)
class RobertaSpec:
    vocab_size: int = 52_000
    min_frequency: int = 2
    hidden_size: int = 768
    num_layers: int = 12
    num_heads: int = 12
    intermediate_size: int = 3072
    max_length: int = 1024
    dropout: float = 0.1
    mlm_probability: float = 0.15
    mlm_epochs: float = 3.0
    mlm_learning_rate: float = 5e-5
    classifier_epochs: float = 3.0
    classifier_learning_rate: float = 2e-5
    batch_size: int = 16
    seed: int = 0

    @classmethod
    def study(cls, **overrides: Any) -> "RobertaSpec":
        return cls(**overrides)

    @classmethod
    def tiny(cls, **overrides: Any) -> "RobertaSpec":
        values = dict(vocab_size=600, hidden_size=32, num_layers=2, num_heads=2, intermediate_size=64,
                      max_length=256, mlm_epochs=1.0, mlm_learning_rate=1e-3, classifier_epochs=6.0,
                      classifier_learning_rate=1e-2, batch_size=16)
        values.update(overrides)
        return cls(**values)


def train_roberta_tokenizer(texts: Sequence[str], spec: RobertaSpec) -> Any:
    """A byte-level BPE tokenizer with RoBERTa's special tokens and post-processing, as a fast HF tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=spec.vocab_size, min_frequency=spec.min_frequency,
                                  special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tokenizer.train_from_iterator(list(texts), trainer=trainer)
    tokenizer.post_processor = processors.RobertaProcessing(
        ("</s>", tokenizer.token_to_id("</s>")), ("<s>", tokenizer.token_to_id("<s>")), trim_offsets=False)
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", sep_token="</s>",
                                   cls_token="<s>", pad_token="<pad>", unk_token="<unk>", mask_token="<mask>",
                                   model_max_length=spec.max_length, padding_side="right")


def _config(tokenizer: Any, spec: RobertaSpec, num_labels: int | None = None) -> Any:
    from transformers import RobertaConfig

    extra = {"num_labels": num_labels} if num_labels else {}
    return RobertaConfig(
        vocab_size=len(tokenizer), hidden_size=spec.hidden_size, num_hidden_layers=spec.num_layers,
        num_attention_heads=spec.num_heads, intermediate_size=spec.intermediate_size,
        max_position_embeddings=spec.max_length + 2, type_vocab_size=1, hidden_dropout_prob=spec.dropout,
        attention_probs_dropout_prob=spec.dropout, pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id, **extra)


class ScratchRoberta(TokenizedClassifier):
    """Tokenizer, MLM pretraining and classification fine-tuning, from nothing but the training texts."""

    kind = "roberta-scratch"

    def __init__(self, spec: RobertaSpec | None = None, device: str | None = None) -> None:
        from biasmirror.triage.model_loading import pick_device

        self.spec = spec or RobertaSpec.study()
        self.device = pick_device(device)
        self.tokenizer: Any = None
        self.model: Any = None
        self.levels: tuple[int, ...] = ()
        self.mlm_losses: list[float] = []
        self.classifier_losses: list[float] = []

    def _pad(self, sequences: list[list[int]]) -> tuple[Any, Any]:
        return pad(sequences, self.tokenizer.pad_token_id, self.device)

    def _mask_tokens(self, ids: Any, attention: Any, generator: Any) -> tuple[Any, Any]:
        """BERT masking: 15% of real, non-special tokens are predicted; of those 80% -> <mask>, 10% random, 10% kept."""
        import torch

        labels = ids.clone()
        special = (ids == self.tokenizer.bos_token_id) | (ids == self.tokenizer.eos_token_id) | (attention == 0)
        chosen = (torch.rand(ids.shape, generator=generator, device=ids.device) < self.spec.mlm_probability) & ~special
        labels[~chosen] = -100
        masked = ids.clone()
        roll = torch.rand(ids.shape, generator=generator, device=ids.device)
        masked[chosen & (roll < 0.8)] = self.tokenizer.mask_token_id
        random_tokens = torch.randint(len(self.tokenizer), ids.shape, generator=generator, device=ids.device)
        swap = chosen & (roll >= 0.8) & (roll < 0.9)
        masked[swap] = random_tokens[swap]
        return masked, labels

    def fit(self, texts: Sequence[str], levels: Sequence[int], progress: PhaseCallback | None = None) -> "ScratchRoberta":
        import torch
        from transformers import RobertaForMaskedLM, RobertaForSequenceClassification

        from biasmirror.triage.lora_training import seed_everything

        spec = self.spec
        seed_everything(spec.seed)
        self.levels = tuple(sorted(set(int(level) for level in levels)))
        targets = [self.levels.index(int(level)) for level in levels]
        self.tokenizer = train_roberta_tokenizer(texts, spec)
        encoded = self._encode(texts)
        shuffler = np.random.default_rng(spec.seed)
        generator = torch.Generator(device=self.device).manual_seed(spec.seed)

        mlm = RobertaForMaskedLM(_config(self.tokenizer, spec)).to(self.device)
        steps = max(1, math.ceil(spec.mlm_epochs * math.ceil(len(encoded) / spec.batch_size)))
        optimizer = torch.optim.AdamW(mlm.parameters(), lr=spec.mlm_learning_rate)
        scheduler = linear_schedule(optimizer, steps)
        mlm.train()
        step = 0
        while step < steps:
            for batch in shuffled_batches(len(encoded), spec.batch_size, shuffler):
                ids, attention = self._pad([encoded[i] for i in batch])
                inputs, labels = self._mask_tokens(ids, attention, generator)
                if int((labels != -100).sum()) == 0:
                    continue
                loss = mlm(input_ids=inputs, attention_mask=attention, labels=labels).loss
                loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                self.mlm_losses.append(float(loss.detach()))
                step += 1
                if progress is not None:
                    progress("RoBERTa: masked-LM pretraining", step, steps)
                if step >= steps:
                    break

        classifier = RobertaForSequenceClassification(_config(self.tokenizer, spec, num_labels=len(self.levels)))
        missing, _ = classifier.roberta.load_state_dict(mlm.roberta.state_dict(), strict=False)
        if [name for name in missing if not name.startswith("pooler")]:
            raise RuntimeError(f"Pretrained encoder weights did not fit the classifier: {missing}")
        classifier.to(self.device)
        del mlm
        self.classifier_losses = fine_tune(
            classifier, encoded, targets, pad_id=self.tokenizer.pad_token_id, epochs=spec.classifier_epochs,
            learning_rate=spec.classifier_learning_rate, batch_size=spec.batch_size, shuffler=shuffler,
            device=self.device, progress=progress, phase="RoBERTa: classification fine-tuning")
        self.model = classifier
        return self

    def parameter_counts(self) -> tuple[int, int]:
        total = sum(p.numel() for p in self.model.parameters())
        return int(total), int(total)

    def hyperparameters(self) -> dict[str, Any]:
        return {**asdict(self.spec), "mlm_steps": len(self.mlm_losses),
                "classifier_steps": len(self.classifier_losses),
                "final_mlm_loss": self.mlm_losses[-1] if self.mlm_losses else None,
                "final_classifier_loss": self.classifier_losses[-1] if self.classifier_losses else None}
