"""LoRA fine-tuning of a causal LM to answer the triage prompt with the documented level.

The study's configuration: peft LoRA with rank 16, alpha 32, dropout 0.1 on the attention and MLP projections
(q, k, v, o, gate, up, down); cross-entropy on the answer tokens only; a few epochs until the loss stabilises
(3-5 in the study). The adapter is saved with `save_pretrained` (adapter_config.json +
adapter_model.safetensors), the format vLLM's `LoRARequest` and peft's `PeftModel.from_pretrained` load,
together with the tokenizer and `biasmirror_triage.json` (levels, prompt, input transform, options, losses).

The loop is a plain PyTorch loop (AdamW, linear warm-up and decay, gradient accumulation), deterministic for a
seed on CPU. `train_seeds` trains one adapter per seed so the audit can report how stable its metrics are
across training runs.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from biasmirror.triage.model_loading import check_model_dir, count_parameters, default_dtype, load_tokenizer, pick_device
from biasmirror.triage.model_metadata import ModelMetadata, save_metadata
from biasmirror.triage.neutralize import transform_inputs
from biasmirror.triage.prompt import PromptTemplate, TriagePrompt
from biasmirror.triage.prompt_prefix import after_prefix, encode_prefix, shared_prefix

TARGET_MODULES: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ALL_LINEAR = "all-linear"  # peft's shorthand: every Linear layer but the output head


@dataclass(frozen=True)
class LoraOptions:
    epochs: float = 3.0
    learning_rate: float = 2e-4
    batch_size: int = 8
    gradient_accumulation: int = 1
    seed: int = 0
    rank: int = 16
    alpha: int = 32
    dropout: float = 0.1
    target_modules: tuple[str, ...] = TARGET_MODULES
    warmup_ratio: float = 0.03
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    max_steps: int | None = None
    # batches of similar lengths (shuffled within windows of 8 batches, then the batches shuffled): less padding
    # computed per step, which on a CPU is most of the saving (the study's GPU runs batch as they come)
    group_by_length: bool = False
    # the prompt's common prefix (system turn, instruction) run once per micro-batch, not once per record
    # (prompt_prefix.py): the same loss and gradients for a third less compute on the demo's prompts; only LoRA's
    # dropout on the prefix is then drawn once per micro-batch instead of once per record
    share_prefix: bool = True

    def __post_init__(self) -> None:
        if self.epochs <= 0 or self.learning_rate <= 0 or self.batch_size < 1 or self.gradient_accumulation < 1:
            raise ValueError("epochs and learning rate must be > 0, batch size and gradient accumulation >= 1")


@dataclass
class LoraResult:
    adapter_dir: Path
    losses: list[float]
    n_examples: int
    parameter_count: int
    trainable_parameter_count: int
    seconds: float
    metadata: ModelMetadata = field(repr=False, default=None)  # type: ignore[assignment]
    model: Any = field(repr=False, default=None)  # the trained peft model, in memory (eval mode)


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def linear_module_names(model: Any) -> list[str]:
    """The distinct last name components of the model's Linear layers (what LoRA can target), sorted."""
    import torch

    kinds: tuple[type, ...] = (torch.nn.Linear,)
    try:
        from transformers.pytorch_utils import Conv1D  # GPT-2-style projections

        kinds += (Conv1D,)
    except ImportError:  # pragma: no cover - transformers without Conv1D
        pass
    return sorted({name.rsplit(".", 1)[-1] for name, module in model.named_modules() if isinstance(module, kinds)})


def parse_target_modules(text: str) -> tuple[str, ...]:
    """`q_proj,k_proj,...` (or `all-linear`) as a tuple of module names."""
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not names:
        raise ValueError(f"--target-modules needs module names separated by commas, got {text!r}")
    if ALL_LINEAR in names and len(names) > 1:
        raise ValueError(f"--target-modules {ALL_LINEAR} stands alone (it targets every Linear layer)")
    return names


def apply_lora(model: Any, options: LoraOptions) -> Any:
    """Wrap the model with LoRA adapters on `options.target_modules` (names of Linear layers, or all-linear).
    A name the model has no Linear layer for is refused with the list of the names it has: e.g. a
    mixture-of-experts model whose experts are fused weights has no gate_proj/up_proj Linear layers."""
    from peft import LoraConfig, get_peft_model

    targets: Any = list(options.target_modules)
    if tuple(options.target_modules) == (ALL_LINEAR,):
        targets = ALL_LINEAR
    else:
        linear = linear_module_names(model)
        missing = [module for module in options.target_modules if module not in linear]
        if missing:
            raise ValueError(
                f"The base model has no Linear module(s) named {', '.join(missing)} to adapt (LoRA targets: "
                f"{', '.join(options.target_modules)}). Its Linear modules are: {', '.join(linear) or 'none'}. "
                "Pass --target-modules with names from that list (for example the attention projections), or "
                f"{ALL_LINEAR}.")
    config = LoraConfig(r=options.rank, lora_alpha=options.alpha, lora_dropout=options.dropout,
                        target_modules=targets, bias="none", task_type="CAUSAL_LM")
    return get_peft_model(model, config)


def _batches(n: int, batch_size: int, generator: np.random.Generator,
             lengths: Sequence[int] | None = None) -> list[np.ndarray]:
    """An epoch's micro-batches of example indices: a random order, or with `lengths`, random windows of 8 batches
    each sorted by length (similar lengths share a batch) and the batches then shuffled."""
    order = generator.permutation(n)
    if lengths is None:
        return [order[start:start + batch_size] for start in range(0, n, batch_size)]
    window = 8 * batch_size
    sizes = np.asarray(lengths)
    grouped = np.concatenate([chunk[np.argsort(sizes[chunk], kind="stable")]
                              for chunk in (order[start:start + window] for start in range(0, n, window))])
    batches = [grouped[start:start + batch_size] for start in range(0, n, batch_size)]
    return [batches[i] for i in generator.permutation(len(batches))]


def collate(examples: Sequence[tuple[list[int], list[int]]], pad_id: int) -> dict[str, Any]:
    """Left-padded input ids, attention mask, position ids and labels (-100 on padding and on the prompt).

    Left padding puts every example's answer at the end of the batch, so the output layer only has to run over
    the last few positions (`answer_loss_of_batch`): with vocabularies of 50,000-150,000 tokens that layer is a
    fifth or more of a small model's compute."""
    import torch

    width = max(len(ids) for ids, _ in examples)
    input_ids = torch.full((len(examples), width), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), width), -100, dtype=torch.long)
    attention = torch.zeros((len(examples), width), dtype=torch.long)
    for row, (ids, target) in enumerate(examples):
        input_ids[row, width - len(ids):] = torch.tensor(ids)
        labels[row, width - len(target):] = torch.tensor(target)
        attention[row, width - len(ids):] = 1
    positions = (attention.cumsum(-1) - 1).clamp(min=0)
    return {"input_ids": input_ids, "attention_mask": attention, "position_ids": positions, "labels": labels}


def prompt_prefix_of(examples: Sequence[tuple[list[int], list[int]]]) -> list[int]:
    """The tokens every example's prompt starts with, leaving at least one prompt token of each after them
    (the position whose logits predict the first answer token)."""
    prompts = [ids[:next(i for i, label in enumerate(labels) if label != -100)] for ids, labels in examples]
    return shared_prefix(prompts)


def collate_after_prefix(examples: Sequence[tuple[list[int], list[int]]], n_prefix: int,
                         pad_id: int) -> dict[str, Any]:
    """`collate` of the examples without their first n_prefix tokens (the shared prefix)."""
    return collate([(ids[n_prefix:], labels[n_prefix:]) for ids, labels in examples], pad_id)


def answer_loss_of_batch(model: Any, batch: dict[str, Any], prefix: Sequence[int] = ()) -> tuple[Any, int]:
    """(mean cross-entropy per answer token, answer tokens) of a collated batch: the next-token loss on every
    labelled position, computed from the logits of the last positions only (where the answers are).
    With a prefix, the batch holds what follows it (`collate_after_prefix`) and the prefix runs once."""
    import torch

    labels = batch["labels"]
    labelled = (labels != -100).any(dim=0).nonzero()
    keep = labels.shape[1] - int(labelled.min()) + 1  # logits from the position before the first answer token
    context: dict[str, Any] = {"attention_mask": batch["attention_mask"], "position_ids": batch["position_ids"]}
    if prefix:
        context = after_prefix(model, encode_prefix(model, prefix), len(prefix), batch["attention_mask"],
                               batch["position_ids"])
    output = model(input_ids=batch["input_ids"], logits_to_keep=keep, **context)
    logits = output.logits[:, :-1, :].float()
    targets = labels[:, labels.shape[1] - keep + 1:]
    n_tokens = int((targets != -100).sum())
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                             ignore_index=-100)
    return loss, n_tokens


def _collated(examples: Sequence[tuple[list[int], list[int]]], prefix: Sequence[int], pad_id: int,
              device: Any) -> dict[str, Any]:
    batch = collate_after_prefix(examples, len(prefix), pad_id) if prefix else collate(examples, pad_id)
    return {k: v.to(device) for k, v in batch.items()}


def answer_loss(model: Any, examples: Sequence[tuple[list[int], list[int]]], pad_id: int, batch_size: int = 16,
                share_prefix: bool = True) -> float:
    """Mean cross-entropy per answer token (the training objective) over examples, without gradients."""
    import torch

    prefix = prompt_prefix_of(examples) if share_prefix else []
    total, count = 0.0, 0
    model.eval()
    with torch.inference_mode():
        for start in range(0, len(examples), batch_size):
            batch = _collated(examples[start:start + batch_size], prefix, pad_id, model.device)
            loss, n_tokens = answer_loss_of_batch(model, batch, prefix)
            total += float(loss) * n_tokens
            count += n_tokens
    return total / count


def train_lora(base_dir: Path, records: Sequence[str], record_levels: Sequence[int], out_dir: Path, dataset: str,
               options: LoraOptions = LoraOptions(), levels: Sequence[int] | None = None,
               input_transform: str = "none", language: str = "en", template: PromptTemplate | None = None,
               device: str | None = None, progress: Callable[[int, int, float], None] | None = None,
               training_setting: str = "full") -> LoraResult:
    """Fine-tune a LoRA adapter on (record, level) examples and save it to out_dir.

    progress(step, total_steps, loss) is called after every optimizer step."""
    import torch
    from transformers import AutoModelForCausalLM

    if len(records) != len(record_levels) or not records:
        raise ValueError("Need one level per record and at least one record to train on.")
    base_dir = check_model_dir(base_dir, "Base model")
    levels = tuple(sorted(set(int(level) for level in (levels or record_levels))))
    device = pick_device(device)
    seed_everything(options.seed)
    tokenizer = load_tokenizer(base_dir)
    prompt = TriagePrompt(tokenizer, levels, template)
    texts = transform_inputs(list(records), input_transform, language)
    examples = [prompt.training_example(text, int(level)) for text, level in zip(texts, record_levels)]

    model = AutoModelForCausalLM.from_pretrained(str(base_dir), dtype=default_dtype(device), local_files_only=True)
    model = apply_lora(model, options).to(device)
    total_parameters, trainable = count_parameters(model)

    steps_per_epoch = math.ceil(len(examples) / (options.batch_size * options.gradient_accumulation))
    total_steps = options.max_steps or max(1, math.ceil(steps_per_epoch * options.epochs))
    warmup = int(options.warmup_ratio * total_steps)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=options.learning_rate,
                                  weight_decay=options.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: (step + 1) / max(1, warmup) if step < warmup
        else max(0.0, (total_steps - step) / max(1, total_steps - warmup)))
    shuffler = np.random.default_rng(options.seed)
    pad_id = tokenizer.pad_token_id
    prefix = prompt_prefix_of(examples) if options.share_prefix else []
    losses: list[float] = []
    started = time.perf_counter()
    model.train()
    step = 0
    while step < total_steps:
        micro_batches = _batches(len(examples), options.batch_size, shuffler,
                                 [len(ids) for ids, _ in examples] if options.group_by_length else None)
        for first in range(0, len(micro_batches), options.gradient_accumulation):
            group = micro_batches[first:first + options.gradient_accumulation]
            n_tokens = sum(sum(1 for t in examples[i][1][1:] if t != -100) for b in group for i in b)
            step_loss = 0.0
            for indices in group:
                batch = _collated([examples[i] for i in indices], prefix, pad_id, device)
                batch_loss, batch_tokens = answer_loss_of_batch(model, batch, prefix)
                loss = batch_loss * (batch_tokens / n_tokens)  # mean over the step's answer tokens
                loss.backward()
                step_loss += float(loss.detach())
            torch.nn.utils.clip_grad_norm_(model.parameters(), options.max_grad_norm)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            losses.append(step_loss)
            step += 1
            if progress is not None:
                progress(step, total_steps, step_loss)
            if step >= total_steps:
                break
    seconds = time.perf_counter() - started

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    hyperparameters = {**asdict(options), "target_modules": list(options.target_modules), "n_examples": len(examples),
                       "total_steps": total_steps}
    metadata = ModelMetadata(
        kind="lora", dataset=dataset, levels=levels, input_transform=input_transform, training_setting=training_setting,
        base_model=str(Path(base_dir).resolve()), prompt_template=prompt.template.label,
        prompt_sha256=prompt.template.sha256, label_tokens={str(k): v for k, v in prompt.label_tokens.items()},
        hyperparameters=hyperparameters, parameter_count=total_parameters, trainable_parameter_count=trainable,
        train_losses=losses)
    save_metadata(out_dir, metadata)
    model.eval()
    return LoraResult(out_dir, losses, len(examples), total_parameters, trainable, seconds, metadata, model)
