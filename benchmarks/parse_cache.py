"""Benchmark: the parsed project kept in the process (biasmirror.dbt_parse_cache) against parsing before every
build, in the same run.

What a notebook, a service or the test suite does: build one warehouse, then build other warehouses (new folders)
or the same project with other run-time vars (B, the seed, the data set folders). Without the cache each such
build parses the project from scratch, since dbt's partial parsing is kept per target folder and dropped when the
vars change. One process, `--rounds` rounds; each round builds two fresh empty warehouses (every node but the unit
tests, with another B each time), once with the cache emptied before each build (the baseline: a parse per build)
and once with the cache kept, in alternating order. Reported: the median wall time of a build either way and their
ratio.

Usage:  .venv/bin/python benchmarks/parse_cache.py [--rounds 3] [--json benchmarks/results/parse_cache.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from biasmirror import dbt_parse_cache
from biasmirror.dbt_runner import run_dbt
from biasmirror.paths import scoped_env


def build_once(folder: Path, resamples: int) -> tuple[float, bool]:
    """One full build (unit tests left out) of a new empty warehouse in `folder`; returns seconds and whether
    dbt parsed the project (its log of that warehouse says so)."""
    folder.mkdir(parents=True)
    environment = {"BIASMIRROR_WAREHOUSE": str(folder / "warehouse.duckdb"), "BIASMIRROR_WORKING_COPY": None,
                   "DBT_TARGET_PATH": None, "DBT_LOG_PATH": None}
    start = time.perf_counter()
    with scoped_env(environment):
        run_dbt("build", variables={"bootstrap_resamples": resamples},
                extra=["--quiet", "--exclude-resource-type", "unit_test"])
    seconds = time.perf_counter() - start
    log = (folder / "warehouse.work" / "dbt" / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
    return seconds, "Starting full parse" in log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="Rounds of two builds each way. Default 3.")
    parser.add_argument("--json", type=Path, help="Write the figures to this file.")
    args = parser.parse_args(argv)

    timings: dict[str, list[float]] = {"parse every build": [], "parse kept": []}
    with tempfile.TemporaryDirectory(prefix="parse-cache-") as scratch:
        root = Path(scratch)
        build_once(root / "warm", 10)  # imports dbt and the adapter once, outside the figures
        resamples = 11
        for round_index in range(args.rounds):
            order = ["parse every build", "parse kept"]
            if round_index % 2:
                order.reverse()
            for way in order:
                dbt_parse_cache.clear()
                for build_index in range(2):
                    if way == "parse every build":
                        dbt_parse_cache.clear()
                    resamples += 1
                    seconds, parsed = build_once(root / f"{round_index}-{way.replace(' ', '-')}-{build_index}",
                                                 resamples)
                    measured = build_index == 1 or way == "parse every build"  # with the cache, a round's first parses
                    if measured:
                        if parsed != (way == "parse every build"):
                            raise SystemExit(f"round {round_index + 1}, {way}, build {build_index + 1}: the build "
                                             f"{'parsed' if parsed else 'did not parse'}, against the design")
                        timings[way].append(seconds)
                    print(f"round {round_index + 1}, {way}, build {build_index + 1}: {seconds:.1f} s "
                          f"({'parsed' if parsed else 'parse kept'})", flush=True)
    medians = {way: statistics.median(values) for way, values in timings.items()}
    result = {"median_build_s": medians, "builds_s": timings,
              "ratio_parse_every_build_over_kept": medians["parse every build"] / medians["parse kept"],
              "rounds": args.rounds, "cpus": os.cpu_count(), "python": platform.python_version(),
              "load_average": os.getloadavg()}
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
