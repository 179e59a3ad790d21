"""vLLM as a real part: a local vLLM server (127.0.0.1, started and stopped by the test session) on SmolLM2-135M-Instruct
with two LoRA adapters served by name (one server for the test session: conftest's vllm_server), against independent references computed with transformers and peft.

* Label probabilities through the server (token-id prompts, label tokens only, processed log-probabilities) equal
  transformers' softmax over the label tokens, for the base model and for each adapter (float32, 1e-4).
* Batches spread over two endpoints give the same probabilities as one, each batch scored once.
* The chat backend (`openai`) generates through the server what transformers' greedy decoding generates.
* `biasmirror score` scores a warehouse's inputs through the endpoint and records the engine in inference.runs;
  `--backend vllm --merge` starts a server of its own from the vLLM environment.
* The implicit study's word-association command runs against the server.

Needs the vLLM environment (`make vllm`): skipped without it, failed without it under CI (`make test-vllm`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from vllm_server import SERVED_BASE, require_vllm, smollm2_folder
from warehouse_workspace import Workspace

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

LEVELS = [1, 2, 3, 4, 5]
RECORDS = ["age: 50\nsex: female\nchief complaint: chest pain\nheart rate: 118",
           "age: 31\nsex: male\nchief complaint: ankle sprain\nheart rate: 80\npain (0-10): 3",
           "age: 77\nsex: male\nchief complaint: dyspnea\noxygen saturation (%): 89",
           "age: 24\nsex: female\nchief complaint: headache"]


@pytest.fixture(scope="module")
def smollm2() -> Path:
    return smollm2_folder()


@pytest.fixture(scope="module")
def adapters(vllm_adapters: dict[str, Path]) -> dict[str, Path]:
    return vllm_adapters


@pytest.fixture(scope="module")
def server(vllm_server):
    return vllm_server


def reference_probabilities(base: Path, adapter: Path | None) -> np.ndarray:
    """transformers (and peft for the adapter): softmax of the next-token logits over the label tokens."""
    import torch

    from biasmirror.triage.causal_lm_scoring import LabelScorer

    torch.set_num_threads(2)
    return LabelScorer.from_folders(base, adapter, levels=LEVELS, device="cpu").score(RECORDS, batch_size=4)


def endpoint_scorer(base: Path, adapter: Path | None, served: str, urls: list[str]):
    from biasmirror.serving.endpoints import Endpoint
    from biasmirror.triage.endpoint_scoring import EndpointLabelScorer

    return EndpointLabelScorer(base, adapter, served, [Endpoint.from_url(url) for url in urls], levels=LEVELS)


def test_the_server_serves_the_base_model_and_each_adapter_by_name(server) -> None:
    assert server.models() == [SERVED_BASE, "a", "b"]
    assert server.describe()["device"] in ("cpu", "gpu") and server.describe()["vllm"].startswith("vllm")


@pytest.mark.parametrize("served", [SERVED_BASE, "a", "b"])
def test_label_probabilities_equal_transformers(server, smollm2: Path, adapters: dict[str, Path], served: str) -> None:
    adapter = adapters.get(served)
    scored = endpoint_scorer(smollm2, adapter, served, [server.base_url]).score(RECORDS, batch_size=3)
    reference = reference_probabilities(smollm2, adapter)
    np.testing.assert_allclose(scored.sum(axis=1), 1.0, atol=1e-9)
    np.testing.assert_allclose(scored, reference, atol=1e-4)
    if adapter is not None:  # the adapter changes the answers: the server did apply it
        assert np.abs(reference - reference_probabilities(smollm2, None)).max() > 1e-3


def test_batches_spread_over_two_endpoints_score_each_batch_once(server, smollm2: Path) -> None:
    one = endpoint_scorer(smollm2, None, SERVED_BASE, [server.base_url])
    two = endpoint_scorer(smollm2, None, SERVED_BASE, [server.base_url, server.base_url.replace("127.0.0.1", "localhost")])
    records = RECORDS * 3
    np.testing.assert_allclose(two.score(records, batch_size=2), one.score(records, batch_size=2), atol=1e-6)
    counts = two.pool.batches_per_endpoint
    assert sum(counts.values()) == 6 and all(count > 0 for count in counts.values()), counts


def test_chat_backend_generates_what_transformers_generates(server, smollm2: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biasmirror.backends.base import ChatMessage, GenerationRequest
    from biasmirror.backends.registry import make_backend

    conversations = [[ChatMessage("user", "Name one color of the sky.")],
                     [ChatMessage("system", "Answer in one word."), ChatMessage("user", "What is two plus two?")]]
    backend = make_backend("openai", SERVED_BASE, base_url=server.base_url)
    answers = backend.generate([GenerationRequest(tuple(c), max_tokens=8, temperature=0.0) for c in conversations])
    tokenizer = AutoTokenizer.from_pretrained(str(smollm2))
    model = AutoModelForCausalLM.from_pretrained(str(smollm2), dtype=torch.float32)
    for conversation, answer in zip(conversations, answers):
        ids = tokenizer.apply_chat_template([{"role": m.role, "content": m.content} for m in conversation],
                                            add_generation_prompt=True, return_tensors="pt", return_dict=True)
        output = model.generate(**ids, max_new_tokens=8, do_sample=False)
        expected = tokenizer.decode(output[0, ids["input_ids"].shape[1]:], skip_special_tokens=True)
        assert answer.error is None and answer.text.strip() == expected.strip()


@pytest.fixture(scope="module")
def warehouse(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """A small MIMIC-shaped warehouse with model inputs (originals and rule-based copies)."""
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.dbt_runner import run_dbt
    from biasmirror.synth.mimic import write_mimic

    root = tmp_path_factory.mktemp("mimic")
    write_mimic(root / "mimic", stays=60, seed=5, female_effect=0.5)
    variables = {"mimic_root": str(root / "mimic"), "bootstrap_resamples": 100}
    with module_workspace.active():
        run_dbt("build", select=["+model_inputs"], variables=variables, extra=["--indirect-selection", "cautious"])
        generate_counterfactuals("mimic", "rules")
        run_dbt("build", select=["model_inputs"], variables=variables, extra=["--indirect-selection", "cautious"])
    return module_workspace


def test_score_command_through_the_endpoint_records_the_engine(server, warehouse: Workspace, smollm2: Path,
                                                                  adapters: dict[str, Path]) -> None:
    from biasmirror.cli import app

    with warehouse.active():
        result = CliRunner().invoke(app, [
            "score", "--dataset", "mimic", "--model", "smol-a", "--base", str(smollm2), "--adapter", str(adapters["a"]),
            "--levels", "1,2,3,4", "--backend", "openai", "--endpoint", server.base_url, "--served-model", "a",
            "--limit", "4", "--no-rescore", "--parity-sample", "0"])
    assert result.exit_code == 0, result.output
    runs = warehouse.query("select parameters, n_items, status from inference.runs where model = 'smol-a'")
    assert len(runs) == 1 and runs.status[0] == "finished" and runs.n_items[0] == 4
    parameters = json.loads(runs.parameters[0])
    assert parameters["backend"] == "openai" and parameters["served_model"] == "a"
    assert parameters["endpoints"] == [server.base_url] and parameters["patient_data_guard"]["backend_is_local"]
    predictions = warehouse.query("select p.*, i.input_text from inference.predictions p join audit.model_inputs i "
                                  "using (dataset, input_id) where p.model = 'smol-a' order by p.input_id")
    assert len(predictions) == 4
    from biasmirror.triage.causal_lm_scoring import LabelScorer

    reference = LabelScorer.from_folders(smollm2, adapters["a"], levels=[1, 2, 3, 4], device="cpu").score(
        predictions.input_text.tolist())
    np.testing.assert_allclose(predictions[[f"p_level_{k}" for k in (1, 2, 3, 4)]].to_numpy(), reference, atol=1e-4)


def test_a_remote_endpoint_is_refused_for_credentialed_data(warehouse: Workspace, smollm2: Path) -> None:
    from biasmirror.cli import app

    with warehouse.active():
        result = CliRunner().invoke(app, [
            "score", "--dataset", "mimic", "--model", "remote", "--base", str(smollm2), "--levels", "1,2,3,4",
            "--backend", "openai", "--endpoint", "http://10.255.255.1:8000/v1", "--limit", "1"])
    assert result.exit_code == 1 and "credentialed" in result.output
    assert warehouse.query("select count(*) as n from inference.predictions where model = 'remote'").n[0] == 0


def test_score_backend_vllm_starts_its_own_server_from_the_vllm_environment(
        warehouse: Workspace, smollm2: Path, adapters: dict[str, Path]) -> None:
    require_vllm()
    from biasmirror.cli import app

    with warehouse.active():
        result = CliRunner().invoke(app, [
            "score", "--dataset", "mimic", "--model", "smol-b-merged", "--base", str(smollm2), "--adapter",
            str(adapters["b"]), "--merge", "--levels", "1,2,3,4", "--backend", "vllm", "--limit", "2", "--no-rescore"])
    assert result.exit_code == 0, result.output
    parameters = json.loads(warehouse.query(
        "select parameters from inference.runs where model = 'smol-b-merged'").parameters[0])
    assert parameters["engine"] == "vllm" and parameters["merged_weights"].endswith("merged")
    assert (adapters["b"] / "merged" / "config.json").is_file()
