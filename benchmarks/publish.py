"""Benchmark: what publishing a build costs (the working copy replaced atomically over the file readers open).

At the scale of benchmarks/metric_marts.py (150,000 pairs x 3 settings, two strata columns, B = 1000):

1. Generates the same pairs (metric_marts.generate_pairs, same seed), runs a full `dbt build` of the empty
   project in a fresh warehouse (not timed), imports the pairs with `biasmirror import-pairs`, and runs one full
   build so the warehouse holds every mart at this scale (timed once, for reference).
2. Times the scheduled command of docs/scheduled-builds.md after an import (the incremental selection, unit tests excluded) as a
   subprocess, `--repeats` times: wall clock, and from dbt's own output the on-run-end hook (checkpoint + publish)
   and the publish itself (copy to a temporary file beside the published one, fsync, open check, rename).
   Baseline, interleaved in the same run: the same build with var publish_warehouse false (no checkpoint, no
   copy; DuckDB then checkpoints when dbt closes the connection, as it always did).
3. Times `biasmirror.warehouse.publish.publish()` on the built working copy directly, 5 times, against the
   baseline of a bare `shutil.copyfile` of the same file in the same run (what any copy must cost), and splits
   the publish into copy + fsync, the DuckDB open check, and the rename.
4. The compacted publish (what a build after `forget` runs: ATTACH a new file, `COPY FROM DATABASE`, DETACH,
   then publish it), on the same file, against the byte-copy publish in the same run: its time, its size, and
   whether it keeps every table, view and comment.

Usage:  .venv/bin/python benchmarks/publish.py [--json benchmarks/results/publish.json]
        .venv/bin/python benchmarks/publish.py --quick      # N = 20,000, B = 200
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import metric_marts as mm  # noqa: E402  (the data generator and warehouse helpers of the metric benchmark)

SCHEDULED = ["stg_inference__imported_pairs+", "stg_inference__imported_pair_strata+"]
STATEMENT = r"\n\s*{}\s*\n(?:.*\n)*?.*SQL status: OK in ([0-9.]+) seconds"
HOOK = re.compile(r"OK hook: biasmirror\.on-run-end\.0 .*?in ([0-9.]+)s")
PUBLISHED = re.compile(r"biasmirror: published (.+?) \(([0-9.,]+) MB (?:copied|compacted) in ([0-9.]+) s\)")


def scheduled_build(wh: mm.Warehouse, boot: int, publish: bool) -> dict:
    """The scheduled command of docs/scheduled-builds.md; with publish=False the same build with var publish_warehouse false (the
    baseline: everything but the publish). Each mode has its own target path, so neither re-parses the project
    because the other changed a var."""
    variables = {"bootstrap_resamples": boot, "publish_warehouse": publish}
    args = [str(mm.BIN / "dbt"), "build", "--project-dir", str(wh.project), "--profiles-dir", str(wh.project),
            "--target-path", str(wh.folder / f"target-publish-{publish}"), "--log-path", str(wh.logs), "--no-use-colors",
            "--select", *SCHEDULED, "--vars", json.dumps(variables), "--exclude-resource-type", "unit_test"]
    wall, stdout = wh._run(args, "dbt build")
    hook, published = HOOK.search(stdout), PUBLISHED.search(stdout)
    if not hook or bool(published) != publish:
        raise SystemExit("the build did not report its on-run-end hook as expected; its output:\n" + stdout[-5000:])
    result = {"publish": publish, "wall_s": wall, "hook_s": float(hook.group(1)),
              "publish_s": float(published.group(3)) if published else 0.0,
              "published_mb": float(published.group(2).replace(",", "")) if published else 0.0}
    if publish:
        # the hook's two statements, as dbt's debug log times them (the log accumulates: take the last ones)
        text = (wh.logs / "dbt.log").read_text(errors="replace")
        for key, statement in (("checkpoint_s", "checkpoint"), ("publish_query_s", r"select biasmirror_publish\([^)]*\)")):
            found = re.findall(STATEMENT.format(statement), text)
            result[key] = float(found[-1]) if found else None
    return result


def direct_publish(working: Path, target: Path, repeats: int) -> dict:
    from biasmirror.warehouse import publish as pub

    bare, total, copy_sync, check, rename = [], [], [], [], []
    for _ in range(repeats):
        scratch = target.with_name("bare-copy.duckdb")
        start = time.perf_counter()
        shutil.copyfile(working, scratch)
        bare.append(time.perf_counter() - start)
        scratch.unlink()
        total.append(pub.publish(working, target).seconds)
        # the same steps, timed one by one
        temp = target.with_name("split.duckdb")
        start = time.perf_counter()
        shutil.copyfile(working, temp)
        pub._fsync_file(temp)
        copy_sync.append(time.perf_counter() - start)
        start = time.perf_counter()
        pub._check_opens(temp)
        check.append(time.perf_counter() - start)
        start = time.perf_counter()
        os.replace(temp, target)
        pub._fsync_dir(target.parent)
        rename.append(time.perf_counter() - start)
    median = statistics.median
    return {"repeats": repeats, "bytes": working.stat().st_size, "bare_copy_s": median(bare), "publish_s": median(total),
            "copy_fsync_s": median(copy_sync), "open_check_s": median(check), "rename_fsync_dir_s": median(rename),
            "publish_over_bare_copy": median(total) / median(bare), "all_publish_s": total, "all_bare_copy_s": bare}


def inventory(con, catalog: str) -> dict:
    return {
        "tables": con.execute("select count(*) from duckdb_tables() where database_name = ?", [catalog]).fetchone()[0],
        "views": con.execute("select count(*) from duckdb_views() where database_name = ? and not internal", [catalog]).fetchone()[0],
        "table_comments": con.execute("select count(*) from duckdb_tables() where database_name = ? and comment is not null",
                                      [catalog]).fetchone()[0],
        "column_comments": con.execute("select count(*) from duckdb_columns() where database_name = ? and comment is not null",
                                       [catalog]).fetchone()[0],
    }


def copy_from_database(working: Path, folder: Path, repeats: int) -> dict:
    """The compacted publish as a build after a `forget` runs it (macro duckdb__publish_working_copy): ATTACH the
    file `compaction_target` names, COPY FROM DATABASE, DETACH, then `publish(..., compacted=...)` (fsync, open
    check, rename). Timed whole, against the byte-copy publish of the same file in the same run."""
    import duckdb

    from biasmirror.warehouse import publish as pub

    target = folder / "compacted" / working.name
    target.parent.mkdir(exist_ok=True)
    times, byte_copy, result = [], [], {}
    for _ in range(repeats):
        start = time.perf_counter()
        pub.publish(working, target)
        byte_copy.append(time.perf_counter() - start)
        copied_bytes = target.stat().st_size
        start = time.perf_counter()
        temp = pub.compaction_target(target)
        catalog = working.name.rsplit(".", 1)[0]  # the catalog a build sees the working copy as
        with duckdb.connect() as con:
            con.execute(f"attach '{working}' as \"{catalog}\" (read_only)")
            con.execute(f"attach '{temp}' as biasmirror_compacted")
            con.execute(f'copy from database "{catalog}" to biasmirror_compacted')
            con.execute("detach biasmirror_compacted")
        pub.publish(working, target, compacted=temp)
        times.append(time.perf_counter() - start)
        with duckdb.connect() as con:
            con.execute(f"attach '{working}' as \"{catalog}\" (read_only)")
            con.execute(f"attach '{target}' as dst (read_only)")
            result = {"source": inventory(con, catalog), "copy": inventory(con, "dst")}
    return {"repeats": repeats, "seconds": statistics.median(times), "all_s": times,
            "byte_copy_publish_s": statistics.median(byte_copy), "byte_copy_bytes": copied_bytes,
            "compacted_over_byte_copy": statistics.median(times) / statistics.median(byte_copy),
            "bytes": target.stat().st_size, **result, "keeps_everything": result["source"] == result["copy"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=150_000, help="Pairs per setting (x 3 settings). Default 150000.")
    parser.add_argument("--boot", type=int, default=1000, help="Bootstrap resamples. Default 1000.")
    parser.add_argument("--repeats", type=int, default=3, help="Scheduled builds timed (median reported). Default 3.")
    parser.add_argument("--seed", type=int, default=20261129, help="numpy seed of the data (metric_marts' default).")
    parser.add_argument("--quick", action="store_true", help="Smoke run: N = 20,000 per setting, B = 200, 1 build.")
    parser.add_argument("--publish-only", action="store_true",
                        help="Skip the timed scheduled builds (step 2): only the direct and compacted publishes.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument("--json", type=Path, default=None, help="Also write the results as JSON to this path.")
    args = parser.parse_args(argv)
    if args.quick:
        args.pairs, args.boot, args.repeats = 20_000, 200, 1

    info = mm.machine()
    mm.log(f"machine: {info['nproc']} CPUs, {info['mem_gb']} GiB; duckdb {info['duckdb']}, dbt-core {info['dbt_core']}; "
           f"load {info['loadavg_start']}")
    folder = Path(tempfile.mkdtemp(prefix="biasmirror-publish-bench-"))
    try:
        project = mm.snapshot_project(folder / "project")
        pairs = mm.generate_pairs(args.pairs, args.seed)
        mm.log(f"{len(pairs):,} pairs; setting up a warehouse (full build of the empty project, import)")
        wh, setup = mm.prepare_warehouse(folder / "wh", project, pairs, threads=None)
        full_s, _ = wh.dbt("build", None, {"bootstrap_resamples": args.boot}, ["--exclude-resource-type", "unit_test"])
        mm.log(f"full build at this scale: {full_s:.1f} s; the published file is {wh.path.stat().st_size / 1e6:.1f} MB")
        builds = []
        for i in range(0 if args.publish_only else args.repeats + 1):  # round 0 absorbs each mode's parse
            for publish in (False, True):
                result = scheduled_build(wh, args.boot, publish)
                mm.log(f"round {i}, {'publishing' if publish else 'baseline, not publishing'}: {result['wall_s']:.2f} s "
                       f"wall; on-run-end hook {result['hook_s']:.2f} s"
                       + (f" (checkpoint {result['checkpoint_s']} s, publish query {result['publish_query_s']} s, of "
                          f"which the publish itself {result['publish_s']:.2f} s; {result['published_mb']:.1f} MB)"
                          if publish else ""))
                builds.append({"round": i, **result})
        timed = [b for b in builds if b["round"] > 0 and b["publish"]]
        baseline = [b for b in builds if b["round"] > 0 and not b["publish"]]
        working = wh.folder / "warehouse.work" / "warehouse.duckdb"
        direct = direct_publish(working, wh.path, repeats=5)
        mm.log(f"publish() directly: median {direct['publish_s']:.3f} s for {direct['bytes'] / 1e6:.1f} MB (bare copy "
               f"{direct['bare_copy_s']:.3f} s; copy+fsync {direct['copy_fsync_s']:.3f} s, open check "
               f"{direct['open_check_s']:.3f} s, rename {direct['rename_fsync_dir_s']:.4f} s)")
        alternative = copy_from_database(working, folder, repeats=3)
        mm.log(f"compacted publish (COPY FROM DATABASE): median {alternative['seconds']:.2f} s, "
               f"{alternative['bytes'] / 1e6:.1f} MB, against the byte-copy publish {alternative['byte_copy_publish_s']:.2f} s, "
               f"{alternative['byte_copy_bytes'] / 1e6:.1f} MB ({alternative['compacted_over_byte_copy']:.1f}x); keeps every "
               f"table, view and comment: {alternative['keeps_everything']} ({alternative['source']} -> {alternative['copy']})")
        median = statistics.median
        if args.publish_only:
            summary = {"machine": info, "pairs_per_setting": args.pairs, "boot": args.boot, "setup": setup,
                       "full_build_s": full_s, "direct_publish": direct, "copy_from_database": alternative}
            if args.json:
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.write_text(json.dumps(summary, indent=2, default=str) + "\n")
            return 0
        summary = {
            "machine": info, "pairs_per_setting": args.pairs, "boot": args.boot, "setup": setup, "full_build_s": full_s,
            "scheduled_builds": builds, "scheduled_wall_median_s": median(b["wall_s"] for b in timed),
            "baseline_wall_median_s": median(b["wall_s"] for b in baseline),
            "baseline_hook_median_s": median(b["hook_s"] for b in baseline),
            "added_wall_median_s": median(b["wall_s"] for b in timed) - median(b["wall_s"] for b in baseline),
            "hook_median_s": median(b["hook_s"] for b in timed), "publish_median_s": median(b["publish_s"] for b in timed),
            "checkpoint_median_s": median(b["checkpoint_s"] for b in timed if b["checkpoint_s"] is not None),
            "publish_query_median_s": median(b["publish_query_s"] for b in timed if b["publish_query_s"] is not None),
            "publish_share_of_scheduled_build": median(b["publish_s"] / b["wall_s"] for b in timed),
            "hook_share_of_scheduled_build": median(b["hook_s"] / b["wall_s"] for b in timed),
            "direct_publish": direct, "copy_from_database": alternative,
        }
        mm.log(f"\nbaseline (same build, not published) median {summary['baseline_wall_median_s']:.2f} s, its on-run-end "
               f"hook {summary['baseline_hook_median_s']:.2f} s; publishing adds {summary['added_wall_median_s']:+.2f} s wall")
        mm.log(f"scheduled build median {summary['scheduled_wall_median_s']:.2f} s; publish {summary['publish_median_s']:.2f} s "
               f"({summary['publish_share_of_scheduled_build']:.1%} of it), whole on-run-end hook {summary['hook_median_s']:.2f} s "
               f"({summary['hook_share_of_scheduled_build']:.1%})")
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(summary, indent=2, default=str) + "\n")
    finally:
        if args.keep:
            mm.log(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
