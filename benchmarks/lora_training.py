"""Benchmark: LoRA fine-tuning of SmolLM2-135M-Instruct on CPU, with and without the shared prompt prefix.

Training runs the prompt's common prefix (system turn and instruction) once per micro-batch instead of once per
record (`triage/prompt_prefix.py`); `tests/python/test_triage_lora.py` shows the loss and gradients are those of the
whole sequences. This script measures what it saves on the demo's real-length records: the same examples, the
same seed and steps, trained with `share_prefix` on and off in turn (`--repeats` rounds, alternating; the best
time of each kept, since the machine is shared). Results in benchmarks/README.md, "LoRA fine-tuning on CPU".

Usage: .venv/bin/python benchmarks/lora_training.py --warehouse demo_data/llm/biasmirror.duckdb
       (a warehouse with audit.model_inputs, e.g. the one `make demo-llm` builds)
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "inference"))


def training_records(warehouse: Path, n: int) -> tuple[list[str], list[int]]:
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute(
            "select input_text, documented_level from audit.model_inputs where setting = 'full' "
            "and variant = 'original' and split = 'train' order by hash(record_id) limit ?", [n]).fetchall()
    if not rows:
        raise SystemExit(f"{warehouse} has no training records in audit.model_inputs (run `make demo-llm` first)")
    return [row[0] for row in rows], [int(row[1]) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, default=REPO / "demo_data" / "llm" / "biasmirror.duckdb")
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--json", type=Path, default=REPO / "benchmarks" / "results" / "lora_training.json")
    args = parser.parse_args()

    import torch

    from biasmirror.testing.smollm2 import default_folder
    from biasmirror.triage.lora_training import LoraOptions, prompt_prefix_of, train_lora
    from biasmirror.triage.model_loading import load_tokenizer
    from biasmirror.triage.prompt import TriagePrompt

    base = default_folder()
    records, levels = training_records(args.warehouse, args.steps * args.batch_size)
    prompt = TriagePrompt(load_tokenizer(base), sorted(set(levels)))
    examples = [prompt.training_example(record, level) for record, level in zip(records, levels)]
    tokens = sum(len(ids) for ids, _ in examples)
    prefix = len(prompt_prefix_of(examples))
    best: dict[bool, float] = {}
    losses: dict[bool, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.repeats):
            for shared in (False, True):
                options = LoraOptions(learning_rate=1e-3, batch_size=args.batch_size, max_steps=args.steps,
                                      group_by_length=True, share_prefix=shared, seed=0)
                result = train_lora(base, records, levels, Path(tmp) / f"adapter-{shared}", "mimic", options)
                best[shared] = min(best.get(shared, float("inf")), result.seconds)
                losses[shared] = result.losses
                print(f"round {round_ + 1}: share_prefix={shared}: {result.seconds:.1f} s", flush=True)
    figures = {
        "steps": args.steps, "batch_size": args.batch_size, "examples": len(examples),
        "tokens": tokens, "mean_tokens_per_example": tokens / len(examples), "shared_prefix_tokens": prefix,
        "seconds_whole_sequences": best[False], "seconds_shared_prefix": best[True],
        "speedup": best[False] / best[True],
        "examples_per_second_whole": len(examples) / best[False],
        "examples_per_second_shared": len(examples) / best[True],
        "first_step_loss_whole": losses[False][0], "first_step_loss_shared": losses[True][0],
        "threads": torch.get_num_threads(), "machine": platform.processor() or platform.machine(),
    }
    print(json.dumps(figures, indent=2))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
