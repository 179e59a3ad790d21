"""LoRA fine-tuning and label-probability scoring on a tiny, locally built Llama model and a learnable task.

The task: the level is a function of the chief complaint (plus noise fields the model must ignore). A random
tiny model cannot do it; after a few LoRA steps it should, which is what these tests check, together with the
adapter's format, save/load/merge equivalence, the probabilities and the parity with generate-and-parse.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from biasmirror.triage.tiny_models import TinyModelSpec, build_tiny_causal_lm, synthetic_texts
from biasmirror.triage.model_metadata import load_metadata
from biasmirror.triage.model_loading import load_causal_lm, load_tokenizer
from biasmirror.triage.causal_lm_scoring import LabelScorer, parse_level
from biasmirror.triage.prompt_prefix import shared_prefix
from biasmirror.triage.lora_training import TARGET_MODULES, LoraOptions, answer_loss, train_lora
from biasmirror.triage.prompt import TriagePrompt
from toy_triage import COMPLAINTS, single_torch_thread, toy_triage_task  # noqa: F401 (fixture)


pytestmark = pytest.mark.usefixtures("single_torch_thread")



@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("lora")
    train_records, train_levels = toy_triage_task(120, seed=1, heart_rate=True)
    base = build_tiny_causal_lm(root / "base", synthetic_texts(80, seed=0), TinyModelSpec(hidden_size=48, seed=0))
    options = LoraOptions(epochs=2, learning_rate=1e-2, batch_size=8, seed=3)
    result = train_lora(base, train_records, train_levels, root / "adapter", "toy", options)
    return base, result


def test_lora_lowers_the_loss_and_learns_the_task(trained) -> None:
    base, result = trained
    held_out, levels = toy_triage_task(40, seed=2, heart_rate=True)
    tokenizer = load_tokenizer(base)
    prompt = TriagePrompt(tokenizer, sorted(COMPLAINTS.values()))
    examples = [prompt.training_example(record, level) for record, level in zip(held_out, levels)]
    before = answer_loss(load_causal_lm(base), examples, tokenizer.pad_token_id)
    after = answer_loss(result.model, examples, tokenizer.pad_token_id)
    assert after < before / 3, (before, after)
    assert np.mean(result.losses[-5:]) < np.mean(result.losses[:5]) / 3
    scorer = LabelScorer(result.model, tokenizer, prompt.levels)
    predicted = np.asarray(scorer.levels)[scorer.score(held_out).argmax(axis=1)]
    assert (predicted == np.asarray(levels)).mean() >= 0.8  # chance is 0.2


def test_adapter_is_saved_in_the_peft_format_vllm_loads(trained) -> None:
    _, result = trained
    folder = result.adapter_dir
    config = json.loads((folder / "adapter_config.json").read_text())
    assert (folder / "adapter_model.safetensors").is_file()
    assert config["r"] == 16 and config["lora_alpha"] == 32 and config["lora_dropout"] == pytest.approx(0.1)
    assert set(config["target_modules"]) == set(TARGET_MODULES)
    assert config["task_type"] == "CAUSAL_LM"
    metadata = load_metadata(folder)
    assert metadata.levels == (1, 2, 3, 4, 5) and metadata.kind == "lora"
    assert metadata.label_tokens == {str(level): str(level) for level in range(1, 6)}
    # r * (in + out) per adapted projection: q, o (48 -> 48), k, v (48 -> 24), gate, up (48 -> 96), down (96 -> 48)
    per_layer = 16 * ((48 + 48) * 2 + (48 + 24) * 2 + (48 + 96) * 3)
    assert result.trainable_parameter_count == 2 * per_layer


def test_save_load_and_merge_give_the_same_logits(trained) -> None:
    import torch

    base, result = trained
    records, _ = toy_triage_task(6, seed=4, heart_rate=True)
    tokenizer = load_tokenizer(base)
    ids = TriagePrompt(tokenizer, [1, 2, 3, 4, 5]).prompt_ids(records)
    width = max(map(len, ids))
    input_ids = torch.tensor([[tokenizer.pad_token_id] * (width - len(i)) + i for i in ids])
    attention = (input_ids != tokenizer.pad_token_id).long()

    def logits(model):
        with torch.inference_mode():
            return model(input_ids=input_ids, attention_mask=attention).logits[:, -1, :]

    in_memory = logits(result.model)
    loaded = logits(load_causal_lm(base, result.adapter_dir))
    merged = logits(load_causal_lm(base, result.adapter_dir, merge=True))
    plain_base = logits(load_causal_lm(base))
    torch.testing.assert_close(loaded, in_memory, rtol=0, atol=1e-5)
    torch.testing.assert_close(merged, in_memory, rtol=0, atol=1e-4)
    assert (plain_base - in_memory).abs().max() > 0.1  # the adapter changes something


def test_probabilities_sum_to_one_and_do_not_depend_on_the_batching(trained) -> None:
    base, result = trained
    records, _ = toy_triage_task(12, seed=5, heart_rate=True)
    scorer = LabelScorer.from_folders(base, result.adapter_dir)
    reference = scorer.score(records, batch_size=12, share_prefix=False)
    assert reference.shape == (12, 5) and (reference >= 0).all()
    np.testing.assert_allclose(reference.sum(axis=1), 1.0, atol=1e-12)
    for batch_size, sort, share in ((1, False, True), (5, True, True), (4, False, False)):
        again = scorer.score(records, batch_size=batch_size, sort_by_length=sort, share_prefix=share)
        np.testing.assert_allclose(again, reference, atol=1e-5)
    prompts = scorer.prompt.prompt_ids(records)
    prefix = shared_prefix(prompts)
    assert len(prefix) > 20 and all(p[:len(prefix)] == prefix for p in prompts)


def test_argmax_matches_generate_two_tokens_and_parse(trained) -> None:
    base, result = trained
    records, _ = toy_triage_task(24, seed=6, heart_rate=True)
    scorer = LabelScorer.from_folders(base, result.adapter_dir, merge=True)
    argmax = np.asarray(scorer.levels)[scorer.score(records).argmax(axis=1)]
    generated = scorer.generate_levels(records, batch_size=8)
    assert None not in generated
    assert list(argmax) == generated
    report = scorer.parity(records[:10], batch_size=5)
    assert (report.n, report.agreeing, report.unparseable) == (10, 10, 0)
    # training moved next-token mass onto the label tokens (a random model puts about 5/1024 there)
    untrained = LabelScorer(load_causal_lm(base), scorer.tokenizer, scorer.levels)
    assert scorer.label_mass(records[:6]).mean() > 20 * untrained.label_mass(records[:6]).mean()


def test_parse_level() -> None:
    assert parse_level(" 3", (1, 2, 3, 4, 5)) == 3
    assert parse_level("Level 4\n", (1, 2, 3, 4, 5)) == 4
    assert parse_level("7", (1, 2, 3, 4, 5)) is None
    assert parse_level("n/a", (1, 2, 3, 4, 5)) is None


def test_seeds_give_different_adapters_and_bad_options_are_refused(trained, tmp_path: Path) -> None:
    base, result = trained
    records, levels = toy_triage_task(8, seed=7, heart_rate=True)
    options = LoraOptions(learning_rate=1e-2, batch_size=4, seed=4, max_steps=2)
    other = train_lora(base, records, levels, tmp_path / "other", "toy", options)
    again = train_lora(base, records, levels, tmp_path / "again", "toy", options)
    third = train_lora(base, records, levels, tmp_path / "third", "toy",
                       LoraOptions(learning_rate=1e-2, batch_size=4, seed=5, max_steps=2))
    assert other.losses == again.losses  # deterministic for a seed
    assert other.losses != third.losses
    with pytest.raises(ValueError):
        LoraOptions(batch_size=0)
    with pytest.raises(ValueError, match="no Linear module"):
        train_lora(base, records, levels, tmp_path / "bad", "toy", LoraOptions(target_modules=("c_attn",), max_steps=1))


def tiny_mixture_of_experts(folder: Path) -> Path:
    """A random GPT-OSS-style mixture-of-experts model (experts are fused weights, not Linear layers) with the
    tiny models' tokenizer and chat template."""
    import torch
    from transformers import AutoModelForCausalLM, GptOssConfig

    from biasmirror.triage.tiny_models import train_byte_level_bpe, wrap_tokenizer

    tokenizer = wrap_tokenizer(train_byte_level_bpe(synthetic_texts(40, seed=0), vocab_size=512))
    config = GptOssConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=32, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=2, head_dim=8, num_local_experts=4,
                          num_experts_per_tok=2, layer_types=["full_attention", "sliding_attention"],
                          sliding_window=64, pad_token_id=tokenizer.pad_token_id,
                          eos_token_id=tokenizer.eos_token_id, bos_token_id=tokenizer.bos_token_id)
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_target_modules_of_a_mixture_of_experts_model(tmp_path: Path) -> None:
    """gpt-oss-style experts have no gate_proj/up_proj Linear layers: the study's targets are refused with the
    names the model has, and the attention projections (or all-linear) train."""
    from biasmirror.triage.lora_training import linear_module_names, parse_target_modules

    base = tiny_mixture_of_experts(tmp_path / "moe")
    records, levels = toy_triage_task(8, seed=8)
    with pytest.raises(ValueError) as refused:
        train_lora(base, records, levels, tmp_path / "bad", "toy", LoraOptions(max_steps=1, batch_size=4))
    message = str(refused.value)
    assert "gate_proj, up_proj, down_proj" in message
    assert "Its Linear modules are: k_proj, lm_head, o_proj, q_proj, v_proj" in message
    attention = parse_target_modules("q_proj, k_proj,v_proj,o_proj")
    result = train_lora(base, records, levels, tmp_path / "attention", "toy",
                        LoraOptions(max_steps=2, batch_size=4, target_modules=attention))
    config = json.loads((result.adapter_dir / "adapter_config.json").read_text())
    assert sorted(config["target_modules"]) == ["k_proj", "o_proj", "q_proj", "v_proj"]
    # r (in + out) per projection: q (32 -> 32), k, v (32 -> 16), o (32 -> 32), two layers
    assert result.trainable_parameter_count == 2 * 16 * ((32 + 32) * 2 + (32 + 16) * 2)
    everything = train_lora(base, records, levels, tmp_path / "all", "toy",
                            LoraOptions(max_steps=1, batch_size=4, target_modules=parse_target_modules("all-linear")))
    adapted = {name.split(".lora_A")[0].rsplit(".", 1)[-1] for name in everything.model.state_dict() if ".lora_A" in name}
    assert adapted == {"q_proj", "k_proj", "v_proj", "o_proj"}  # every Linear layer but the output head
    assert "lm_head" in linear_module_names(everything.model.get_base_model())
    with pytest.raises(ValueError, match="stands alone"):
        parse_target_modules("all-linear,q_proj")


def test_answer_loss_from_the_last_logits_is_the_models_own_loss(trained) -> None:
    """The training objective, computed on left-padded batches from the last positions' logits only, equals the
    model's own causal-LM loss of each example alone (no padding), averaged over answer tokens."""
    import torch

    from biasmirror.triage.lora_training import answer_loss_of_batch, collate

    base, result = trained
    records, levels = toy_triage_task(6, seed=9, heart_rate=True)
    records[0] += "\nnote: " + "long " * 30  # uneven lengths: real padding
    tokenizer = load_tokenizer(base)
    prompt = TriagePrompt(tokenizer, [1, 2, 3, 4, 5])
    examples = [prompt.training_example(record, level) for record, level in zip(records, levels)]
    model = result.model
    with torch.inference_mode():
        batched, n_tokens = answer_loss_of_batch(model, collate(examples, tokenizer.pad_token_id))
        total, count = 0.0, 0
        for ids, labels in examples:
            alone = model(input_ids=torch.tensor([ids]), labels=torch.tensor([labels]))
            tokens = sum(1 for t in labels[1:] if t != -100)
            total += float(alone.loss) * tokens
            count += tokens
    assert n_tokens == count
    assert float(batched) == pytest.approx(total / count, rel=1e-4)


def test_the_shared_prefix_gives_the_loss_and_gradients_of_whole_sequences(trained) -> None:
    """Training runs the prompt's common prefix once per micro-batch: its loss and the gradient of every LoRA
    weight must be those of the whole left-padded sequences (dropout off, so both see the same network)."""
    import torch

    from biasmirror.triage.lora_training import answer_loss_of_batch, collate, collate_after_prefix, prompt_prefix_of

    base, result = trained
    records, levels = toy_triage_task(6, seed=11, heart_rate=True)
    records[2] += "\nnote: " + "long " * 25
    tokenizer = load_tokenizer(base)
    prompt = TriagePrompt(tokenizer, [1, 2, 3, 4, 5])
    examples = [prompt.training_example(record, level) for record, level in zip(records, levels)]
    prefix = prompt_prefix_of(examples)
    assert len(prefix) >= 10  # the system turn and the instruction
    model = result.model
    model.eval()
    weights = [p for p in model.parameters() if p.requires_grad]

    def loss_and_gradients(shared: bool) -> tuple[float, list]:
        model.zero_grad(set_to_none=True)
        if shared:
            loss, _ = answer_loss_of_batch(model, collate_after_prefix(examples, len(prefix), tokenizer.pad_token_id),
                                           prefix)
        else:
            loss, _ = answer_loss_of_batch(model, collate(examples, tokenizer.pad_token_id))
        loss.backward()
        return float(loss.detach()), [p.grad.detach().clone() for p in weights]

    whole_loss, whole = loss_and_gradients(False)
    shared_loss, shared = loss_and_gradients(True)
    model.zero_grad(set_to_none=True)
    assert shared_loss == pytest.approx(whole_loss, rel=1e-5)
    assert max(float(g.abs().max()) for g in whole) > 1e-6  # gradients that could differ
    for a, b in zip(whole, shared):
        torch.testing.assert_close(b, a, rtol=1e-4, atol=1e-7)
