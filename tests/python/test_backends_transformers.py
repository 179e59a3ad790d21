"""The transformers backend and the LLM rewriter on a tiny locally built model (2 layers, byte-level BPE).

The model is random, so its answers are junk: that is the point of the rewriter test, which must reject them,
retry once and flag every record with the reason, never keep a junk copy.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from biasmirror.backends.base import ChatMessage, GenerationRequest
from biasmirror.backends.registry import make_backend
from biasmirror.backends.transformers_backend import TransformersBackend, cut_at_stop, plain_transcript
from biasmirror.counterfactuals.base import RewriteInput
from biasmirror.counterfactuals.llm_rewriter import LlmRewriter, PromptBuilder
from biasmirror.triage.tiny_models import TinyModelSpec, build_tiny_causal_lm

# slow (make test-fast leaves it out): a model generates on CPU in every test
pytestmark = pytest.mark.slow


def _corpus() -> list[str]:
    package = resources.files("biasmirror.counterfactuals")
    texts = [package.joinpath("prompts", "rewrite_system.txt").read_text(encoding="utf-8")]
    for language in ("en", "fr", "es"):
        document = json.loads(package.joinpath("examples", f"{language}.json").read_text(encoding="utf-8"))
        for example in document["examples"]:
            texts += [json.dumps(example["record"], ensure_ascii=False), json.dumps(example["answer"], ensure_ascii=False)]
    return texts


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_causal_lm(tmp_path_factory.mktemp("tiny") / "model", _corpus(),
                                TinyModelSpec(max_position_embeddings=4096, seed=1))


@pytest.fixture(scope="module")
def backend(tiny_model: Path) -> TransformersBackend:
    return make_backend("transformers", str(tiny_model), device="cpu", batch_size=4)


def chat(text: str, **kwargs) -> GenerationRequest:
    return GenerationRequest((ChatMessage("system", "Rewrite the record."), ChatMessage("user", text)), **kwargs)


def test_prompt_uses_the_chat_template(backend: TransformersBackend) -> None:
    prompt = backend.prompt(chat("Patient is a 54 year old man."))
    assert prompt.startswith("<|im_start|>system\nRewrite the record.<|im_end|>\n<|im_start|>user\n")
    assert prompt.endswith("<|im_start|>assistant\n")
    assert backend.is_local and backend.name == "transformers" and backend.device == "cpu"
    assert backend.model == str(Path(backend.model).resolve())


def test_greedy_generation_is_deterministic_and_batch_independent(backend: TransformersBackend) -> None:
    short, long = chat("She has chest pain.", max_tokens=6), chat("He reports two days of cough and fever. " * 5, max_tokens=6)
    batched = backend.generate([short, long, short])
    alone = [backend.generate([short])[0], backend.generate([long])[0]]
    assert batched[0] == batched[2] == alone[0]
    assert batched[1] == alone[1]
    assert all(isinstance(g.text, str) and g.finish_reason in ("stop", "length") and g.error is None for g in batched)


def test_token_limit_and_context_overflow(backend: TransformersBackend) -> None:
    three, six = backend.generate([chat("abc", max_tokens=3), chat("abc", max_tokens=6)])
    assert six.text.startswith(three.text) and len(six.text) > len(three.text)  # greedy: the same first tokens
    assert three.finish_reason == "length"
    huge = chat("word " * 20000, max_tokens=5)
    (overflow,) = backend.generate([huge])
    assert overflow.text == "" and overflow.finish_reason == "length"


def test_helpers() -> None:
    assert cut_at_stop("abc\nDEF", ["\n"]) == ("abc", True)
    assert cut_at_stop("abc", ["x"]) == ("abc", False)
    assert plain_transcript([{"role": "user", "content": "hi"}]) == "user: hi\nassistant:"


def test_a_folder_is_required(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="local model folder"):
        TransformersBackend(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="local model folder"):
        make_backend("transformers", "mistralai/Mistral-7B-Instruct")  # a hub name is never downloaded


def test_junk_answers_are_retried_once_then_flagged(backend: TransformersBackend) -> None:
    rewriter = LlmRewriter(backend, "llm-tiny", PromptBuilder(k_shots=1), max_tokens=8)
    items = [RewriteInput("She reports chest pain since 2 hours; took aspirin 325 mg.", "Hypertension.", "F", "en"),
             RewriteInput("He fell at home and hit his head.", None, "M", "en"),
             RewriteInput("Patiente de 70 ans, admise pour dyspnée.", "HTA.", "F", "fr")]
    results = rewriter.rewrite_batch(items)
    assert [r.status for r in results] == ["flagged"] * 3
    for result in results:
        assert result.flag_reason.startswith("invalid output after one retry: ")
        assert result.hpi is None and result.pmh is None
        assert "chest" not in result.flag_reason and "aspirin" not in result.flag_reason
    assert rewriter.counts.requests == 6 and rewriter.counts.retries == 3 and rewriter.counts.flagged_invalid == 3
