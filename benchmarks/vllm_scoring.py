"""Benchmark: label-probability scoring through vLLM against transformers on the same inputs, on this machine.

Targets (issue 21): records per second through vLLM against transformers (same prompts, same model), with and
without prefix caching, and the share of prompt tokens that caching reuses; several LoRA adapters of one base in one
engine against loading each merged model in turn.

What runs, all in one process and one run (the machine is shared: ratios within the run are what to read):

1. N pairs of test inputs (original and counterfactual adjacent, as the scoring run orders them) from a warehouse
   (default: the LLM demo's, demo_data/llm/biasmirror.duckdb; `make demo-llm` first).
2. transformers: `LabelScorer` on SmolLM2-135M-Instruct (its shared-prefix cache on), batch 16.
3. vLLM server on the same model, prefix caching on: records/s after a warm-up batch, and the prefix-cache hits over
   queries (prompt tokens) read from the server's metrics; then a server with prefix caching off.
4. K random LoRA adapters (the study's shape): one server serving all K by name, scoring the inputs with each, start
   included; against K merged models served one after the other (start included each time). Steady-state rates of
   served-adapter and merged scoring are reported too (on a CPU, vLLM's LoRA kernels are much slower than the plain
   model: the merged path is the default there).

Every vLLM probability is checked against transformers' (max abs difference printed).

Usage:  .venv/bin/python benchmarks/vllm_scoring.py [--warehouse W] [--pairs 48] [--adapters 2] [--adapters-only]
Results: benchmarks/results/vllm_scoring.json and benchmarks/README.md ("vLLM scoring").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

LEVELS = [1, 2, 3, 4]


def load_inputs(warehouse: Path, pairs: int) -> list[str]:
    import duckdb

    con = duckdb.connect(str(warehouse), read_only=True)
    rows = con.execute(
        "select o.input_text, c.input_text from audit.model_inputs o join audit.model_inputs c "
        "on c.dataset = o.dataset and c.record_id = o.record_id and c.setting = o.setting and c.variant = 'counterfactual' "
        "where o.variant = 'original' and o.split = 'test' and o.setting = 'full' order by o.record_id limit ?",
        [pairs]).fetchall()
    con.close()
    if len(rows) < pairs:
        raise SystemExit(f"{warehouse} holds {len(rows)} test pairs, fewer than --pairs {pairs}: run make demo-llm.")
    return [text for pair in rows for text in pair]


def save(results: dict, out: Path) -> None:
    """Write what is measured so far (a long run stopped half-way keeps its finished parts)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2), encoding="utf-8")


def timed(function, *args, **kwargs):
    started = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - started


def plain_model_parts(base: Path, records: list[str], results: dict, out: Path, served) -> None:
    """Parts 2 and 3: transformers, then the vLLM server on the plain model with prefix caching on and off."""
    from biasmirror.serving.local_server import LocalVllmServer
    from biasmirror.triage.causal_lm_scoring import LabelScorer

    n = len(records)
    reference_scorer = LabelScorer.from_folders(base, None, levels=LEVELS, device="cpu")
    reference, seconds = timed(reference_scorer.score, records, batch_size=16)
    results["transformers"] = {"seconds": seconds, "records_per_second": n / seconds}
    print(f"transformers: {n / seconds:.2f} records/s", flush=True)
    save(results, out)

    for caching in (True, False):
        with LocalVllmServer(base, "base", enable_prefix_caching=caching, max_model_len=2048) as server:
            scorer = served(server, "base", None)
            scorer.score(records[:8], batch_size=8)  # warm-up: first-request compilation
            before = server.metrics()
            probabilities, seconds = timed(scorer.score, records, batch_size=16)
            after = server.metrics()
        queries = after.get("vllm:prefix_cache_queries_total", 0) - before.get("vllm:prefix_cache_queries_total", 0)
        hits = after.get("vllm:prefix_cache_hits_total", 0) - before.get("vllm:prefix_cache_hits_total", 0)
        key = "vllm_prefix_caching" if caching else "vllm_no_prefix_caching"
        results[key] = {"seconds": seconds, "records_per_second": n / seconds, "startup_seconds": server.startup_seconds,
                        "prefix_cache_hit_share": hits / queries if queries else None,
                        "max_abs_difference_to_transformers": float(np.abs(probabilities - reference).max())}
        print(f"{key}: {n / seconds:.2f} records/s, prefix hits {hits:.0f}/{queries:.0f}, max |dp| "
              f"{results[key]['max_abs_difference_to_transformers']:.1e}", flush=True)
        save(results, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warehouse", type=Path, default=Path("demo_data/llm/biasmirror.duckdb"))
    parser.add_argument("--pairs", type=int, default=48)
    parser.add_argument("--adapters", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "vllm_scoring.json")
    parser.add_argument("--adapters-only", action="store_true",
                        help="only part 4: the adapters in one engine against the merged models in turn")
    args = parser.parse_args()

    import torch

    from biasmirror.serving.endpoints import Endpoint
    from biasmirror.serving.local_server import LocalVllmServer
    from biasmirror.testing.smollm2 import default_folder
    from biasmirror.triage.endpoint_scoring import EndpointLabelScorer
    from biasmirror.triage.merged_weights import merged_model_dir
    from vllm_server import random_adapter

    torch.set_num_threads(os.cpu_count() or 2)
    base = default_folder()
    records = load_inputs(args.warehouse, args.pairs)
    n = len(records)
    results: dict[str, object] = {"records": n, "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                                  "load_average_at_start": os.getloadavg()}
    print(f"{n} inputs ({args.pairs} pairs), load average {os.getloadavg()[0]:.1f}", flush=True)

    def served(server: LocalVllmServer, name: str, adapter: Path | None) -> EndpointLabelScorer:
        return EndpointLabelScorer(base, adapter, name, [Endpoint.from_url(server.base_url)], levels=LEVELS)

    if not args.adapters_only:
        plain_model_parts(base, records, results, args.out, served)
    root = Path(tempfile.mkdtemp(prefix="vllm-bench-"))
    adapters = {f"a{k}": random_adapter(base, root / f"a{k}", seed=k) for k in range(args.adapters)}
    started = time.perf_counter()
    steady: list[float] = []
    with LocalVllmServer(base, "base", adapters=adapters, max_model_len=2048) as server:
        for name, folder in adapters.items():
            scorer = served(server, name, folder)
            _, seconds = timed(scorer.score, records, batch_size=16)
            steady.append(n / seconds)
    lora_total = time.perf_counter() - started
    results["lora_one_engine"] = {"adapters": args.adapters, "seconds_with_start": lora_total,
                                  "records_per_second_with_start": args.adapters * n / lora_total,
                                  "steady_records_per_second": steady}
    print(f"{args.adapters} adapters in one engine: {args.adapters * n / lora_total:.2f} records/s with the start "
          f"(steady {', '.join(f'{rate:.2f}' for rate in results['lora_one_engine']['steady_records_per_second'])})",
          flush=True)
    save(results, args.out)

    started = time.perf_counter()
    steady = []
    for folder in adapters.values():
        merged = merged_model_dir(base, folder)
        with LocalVllmServer(merged, "base", max_model_len=2048) as server:
            scorer = served(server, "base", None)
            _, seconds = timed(scorer.score, records, batch_size=16)
            steady.append(n / seconds)
    merged_total = time.perf_counter() - started
    results["merged_in_turn"] = {"adapters": args.adapters, "seconds_with_start": merged_total,
                                 "records_per_second_with_start": args.adapters * n / merged_total,
                                 "steady_records_per_second": steady}
    print(f"{args.adapters} merged models in turn: {args.adapters * n / merged_total:.2f} records/s with the starts",
          flush=True)
    results["load_average_at_end"] = os.getloadavg()
    save(results, args.out)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
