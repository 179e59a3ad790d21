"""vLLM's offline engine (`vllm.LLM`) in this process, through the project's own `VllmLabelScorer` and `VllmBackend`,
against transformers and peft: one engine (LoRA enabled) for the whole module.

* On the CPU build the engine gets CPU settings: float32, VLLM_CPU_KVCACHE_SPACE set, no share of device memory.
* Label probabilities of the base model and of a LoRA adapter equal transformers' (peft's) softmax over the label
  tokens (1e-4): the adapter is applied per request.
* The chat backend's greedy answers equal transformers' greedy decoding."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

LEVELS = [1, 2, 3, 4, 5]
RECORDS = ["age: 50\nsex: female\nchief complaint: chest pain\nheart rate: 118",
           "age: 31\nsex: male\nchief complaint: ankle sprain\npain (0-10): 3",
           "age: 77\nsex: male\nchief complaint: dyspnea\noxygen saturation (%): 89"]


@pytest.fixture(scope="module")
def adapter(smollm2: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(3)
    model = AutoModelForCausalLM.from_pretrained(str(smollm2), dtype=torch.float32)
    model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, init_lora_weights=False, target_modules=[
        "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]))
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if "lora_B" in name:
                parameter.mul_(0.05)
    out = tmp_path_factory.mktemp("adapter") / "a"
    model.save_pretrained(str(out))
    return out


@pytest.fixture(scope="module")
def engine(smollm2: Path):
    from vllm import LLM

    from biasmirror.serving.environment import in_process_engine_options, this_python_has_cpu_build
    from biasmirror.triage.vllm_scoring import engine_options

    options = in_process_engine_options(engine_options(smollm2, None, extra={
        "enable_lora": True, "max_lora_rank": 16, "max_loras": 2, "max_model_len": 1024}))
    if this_python_has_cpu_build():
        assert options["dtype"] == "float32" and "gpu_memory_utilization" not in options
        assert float(os.environ["VLLM_CPU_KVCACHE_SPACE"]) > 0
    return LLM(**options)


def reference(smollm2: Path, adapter: Path | None) -> np.ndarray:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biasmirror.triage.prompt import TriagePrompt

    tokenizer = AutoTokenizer.from_pretrained(str(smollm2))
    model = AutoModelForCausalLM.from_pretrained(str(smollm2), dtype=torch.float32)
    if adapter is not None:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, str(adapter))
    prompt = TriagePrompt(tokenizer, LEVELS)
    labels = [prompt.label_token_ids[level] for level in LEVELS]
    rows = []
    with torch.inference_mode():
        for ids in prompt.prompt_ids(RECORDS):
            logits = model(input_ids=torch.tensor([ids])).logits[0, -1].double()
            rows.append(torch.softmax(logits[labels], dim=-1).numpy())
    return np.array(rows)


@pytest.mark.parametrize("with_adapter", [False, True])
def test_label_probabilities_equal_transformers(engine, smollm2: Path, adapter: Path, with_adapter: bool) -> None:
    from biasmirror.triage.vllm_scoring import VllmLabelScorer

    used = adapter if with_adapter else None
    scorer = VllmLabelScorer(smollm2, used, levels=LEVELS, llm=engine)
    np.testing.assert_allclose(scorer.score(RECORDS), reference(smollm2, used), atol=1e-4)
    assert scorer.missing_labels == 0


def test_chat_backend_generates_what_transformers_generates(engine, smollm2: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biasmirror.backends.base import ChatMessage, GenerationRequest
    from biasmirror.backends.vllm_backend import VllmBackend

    backend = VllmBackend(str(smollm2), llm=engine)
    conversation = [ChatMessage("user", "Name one color of the sky.")]
    (answer,) = backend.generate([GenerationRequest(tuple(conversation), max_tokens=8, temperature=0.0)])
    tokenizer = AutoTokenizer.from_pretrained(str(smollm2))
    model = AutoModelForCausalLM.from_pretrained(str(smollm2), dtype=torch.float32)
    ids = tokenizer.apply_chat_template([{"role": "user", "content": conversation[0].content}],
                                        add_generation_prompt=True, return_tensors="pt", return_dict=True)
    output = model.generate(**ids, max_new_tokens=8, do_sample=False)
    assert answer.text.strip() == tokenizer.decode(output[0, ids["input_ids"].shape[1]:], skip_special_tokens=True).strip()
