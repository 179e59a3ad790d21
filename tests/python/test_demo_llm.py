"""`biasmirror demo-llm` end to end, at a small size: synthetic data, LoRA fine-tuning of SmolLM2, the adapter merged
and scored through a local vLLM server, the marts and the report, in the demo's own warehouse.

Marked `vllm` (it needs the vLLM environment of `make vllm`): CI runs it in `make test-vllm`. The full-size demo
(about 1,000 training records, 200 test records) is what `make demo-llm` runs; its figures are in
benchmarks/README.md, "The LLM demo"."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from vllm_server import require_vllm, smollm2_folder


SCORED = 4  # test records: x 3 settings x original and copy


@pytest.mark.vllm
@pytest.mark.slow
def test_demo_llm_audits_a_fine_tuned_smollm2_scored_through_vllm(tmp_path: Path) -> None:
    require_vllm()
    smollm2_folder()
    from biasmirror.cli import app
    from biasmirror.demo_llm import FOREST_NAME, LLM_NAME, DemoLlmPlan
    from biasmirror.triage.model_metadata import load_metadata

    out = tmp_path / "llm"
    result = CliRunner().invoke(app, ["demo-llm", "--out", str(out), "--stays", "300", "--train-records", "12",
                                      "--batch-size", "4", "--score-records", str(SCORED)])
    assert result.exit_code == 0, result.output
    assert (out / "report" / "index.html").is_file()
    with duckdb.connect(str(out / "biasmirror.duckdb"), read_only=True) as con:
        runs = {kind: (run_id, json.loads(parameters), n) for run_id, kind, parameters, n in con.execute(
            "select run_id, kind, parameters, n_items from inference.runs where model = ? and status = 'finished'",
            [LLM_NAME]).fetchall()}
        assert set(runs) == {"training", "predictions"}
        training_id, training, n_train = runs["training"]
        _, scoring, n_scored = runs["predictions"]
        assert n_train == 12 and n_scored == SCORED * 6
        # scored by vLLM, from the merged weights of the adapter this training run wrote
        assert scoring["engine"] == "vllm" and scoring["training_run_id"] == training_id
        assert Path(scoring["merged_weights"]).resolve() == (out / "adapters" / LLM_NAME / "merged").resolve()
        assert training["training_setting"] == "full" and training["max_train"] == 12
        performance = con.execute(
            "select model, setting, n_records from audit.model_performance where metric = 'kappa_quadratic' "
            "and model in (?, ?) order by all", [LLM_NAME, FOREST_NAME]).fetchall()
        assert {(model, setting) for model, setting, _ in performance} >= {
            (LLM_NAME, setting) for setting in ("full", "text_only", "tabular_only")} | {(FOREST_NAME, "full")}
        assert all(n == SCORED for model, _, n in performance if model == LLM_NAME)
        pairs = con.execute("select count(*) from audit.paired_metrics where model = ?", [LLM_NAME]).fetchone()[0]
        assert pairs > 0
    assert "Triage performance on the test split" in result.output
    metadata = load_metadata(out / "adapters" / LLM_NAME)  # what the adapter was trained with: the demo's recipe
    plan = DemoLlmPlan()
    assert metadata.hyperparameters["learning_rate"] == plan.learning_rate
    assert metadata.hyperparameters["batch_size"] == 4 and metadata.hyperparameters["n_examples"] == 12
    assert metadata.hyperparameters["share_prefix"] is True


@pytest.mark.parametrize("option,value", [("--batch-size", "0"), ("--learning-rate", "nan"), ("--epochs", "-1"),
                                          ("--train-records", "0")])
def test_demo_llm_refuses_a_bad_recipe_before_any_step(tmp_path: Path, option: str, value: str) -> None:
    from biasmirror.cli import app

    result = CliRunner().invoke(app, ["demo-llm", "--out", str(tmp_path / "llm"), option, value])
    assert result.exit_code == 1 and "needs positive values" in result.output, result.output
    assert not (tmp_path / "llm").exists()  # nothing written
