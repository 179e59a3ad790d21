"""The `biasmirror` command line."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from biasmirror.cli_options import backend_options, console, fail
from biasmirror.demo_llm import DemoLlmPlan
from biasmirror.display import shown
from biasmirror.cli_warehouse import (WarehouseAwareGroup, announce_reader, command_session, own_warehouse,
                                      print_command)
from biasmirror.paths import warehouse_path, working_path
from biasmirror.warehouse.connection import DEMO_WAREHOUSE
from biasmirror.warehouse.postgres import uses_postgres
from biasmirror.report.command import report as report_command
from biasmirror.implicit.cli import implicit_app, import_allocations_command, import_associations_command
from biasmirror.triage.cli import baseline, register as register_triage_commands
from biasmirror.counterfactuals.cli import register as register_counterfactual_commands

DEMO_LLM = DemoLlmPlan()  # the LLM demo's defaults, one place

app = typer.Typer(help="Audit clinical triage decisions for sex/gender bias with paired comparisons.",
                  no_args_is_help=True, pretty_exceptions_enable=False, cls=WarehouseAwareGroup)
synth_app = typer.Typer(help="Write synthetic data sets shaped like the real ones.", no_args_is_help=True)
app.add_typer(synth_app, name="synth")


def _print_version(requested: bool) -> None:
    """`--version`: the installed package's version (pyproject.toml's), then exit."""
    if requested:
        from biasmirror import __version__

        console.print(f"biasmirror {__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def global_options(
    ctx: typer.Context,
    warehouse: Annotated[Optional[Path], typer.Option(
        "--warehouse", metavar="PATH",
        help="The published warehouse file (default: $BIASMIRROR_WAREHOUSE, else ./biasmirror.duckdb). Writers work "
             "on its working copy, <folder>/<stem>.work/<name> (or $BIASMIRROR_WORKING_COPY).")] = None,
    lock_timeout: Annotated[Optional[float], typer.Option(
        "--lock-timeout", metavar="SECONDS",
        help="How long a writer waits for another writer to finish (default: $BIASMIRROR_LOCK_TIMEOUT, else 300; "
             "0 fails at once, naming the writer).")] = None,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print the version of biasmirror and exit.")] = False,
) -> None:
    """Audit clinical triage decisions for sex/gender bias with paired comparisons."""
    ctx.with_resource(command_session(warehouse, lock_timeout))


@synth_app.command("mimic")
def synth_mimic(
    out: Path = typer.Option(..., help="Folder to write ed/, hosp/, note/ (and _truth/) into."),
    stays: int = typer.Option(20000, help="Number of ED stays."),
    seed: int = typer.Option(42, help="Random seed: the same seed writes the same bytes."),
    female_effect: Optional[float] = typer.Option(None, help="Probability that a female chest/abdominal-pain "
                                                  "presentation is documented one level less severe (default 0.30)."),
) -> None:
    """Synthetic MIMIC-IV-shaped ED data with a planted, documented sex effect."""
    from biasmirror.progress import progress_bar
    from biasmirror.synth.mimic import DEFAULT_FEMALE_EFFECT, write_mimic

    effect = DEFAULT_FEMALE_EFFECT if female_effect is None else female_effect
    try:
        with progress_bar() as bar:
            task = bar.add_task("synthetic stays", total=stays, rate="")
            summary = write_mimic(out, stays=stays, seed=seed, female_effect=effect,
                                  progress=lambda n: bar.update(task, advance=n))
    except ValueError as error:
        fail(str(error))
    for name, rows in summary.files.items():
        console.print(f"  {out / name}: {rows:,} rows")


@synth_app.command("bordeaux")
def synth_bordeaux(
    out: Path = typer.Option(..., help="Folder to write visits.csv.gz (or visits.parquet) and _truth/ into."),
    visits: int = typer.Option(20000, help="Number of ED visits."),
    seed: int = typer.Option(42, help="Random seed: the same seed writes the same bytes."),
    ff_effect: Optional[float] = typer.Option(None, help="Probability that a female nurse documents a female "
                                              "patient one level less severe (policy levels 2-4; default 0.30)."),
    parquet: bool = typer.Option(False, "--parquet", help="Write visits.parquet instead of visits.csv.gz."),
) -> None:
    """Synthetic Bordeaux-shaped (French) ED extract with a planted nurse-sex x patient-sex interaction."""
    from biasmirror.progress import progress_bar
    from biasmirror.synth.bordeaux import DEFAULT_FF_EFFECT, write_bordeaux

    effect = DEFAULT_FF_EFFECT if ff_effect is None else ff_effect
    try:
        with progress_bar() as bar:
            task = bar.add_task("synthetic visits", total=visits, rate="")
            result = write_bordeaux(out, visits=visits, seed=seed, ff_effect=effect,
                                    fmt="parquet" if parquet else "csv",
                                    progress=lambda n: bar.update(task, advance=n))
    except ValueError as error:
        fail(str(error))
    for name, rows in result.files.items():
        console.print(f"  {out / name}: {rows:,} rows")


@app.command()
def build(
    mimic_root: Optional[Path] = typer.Option(None, help="MIMIC-IV folder (ed/, hosp/, note/); remembered in the warehouse."),
    select: Optional[list[str]] = typer.Option(None, help="dbt selection (default: everything)."),
    resamples: Optional[int] = typer.Option(None, help="Bootstrap resamples (dbt var bootstrap_resamples, default 1000)."),
    seed: Optional[int] = typer.Option(None, help="Bootstrap seed (dbt var bootstrap_seed)."),
    bordeaux_root: Annotated[Optional[Path], typer.Option(
        help="Folder of the Bordeaux extract (visits.parquet, visits.csv.gz or visits.csv); remembered in the warehouse.")] = None,
    mimic_tables: Annotated[bool, typer.Option(
        "--mimic-tables", help="Read MIMIC-IV from the mimic-code tables (mimiciv_ed, mimiciv_hosp, mimiciv_note) of the "
        "warehouse's database instead of files (dbt var mimic_source: tables; docs/postgresql.md).")] = False,
    bordeaux_tables: Annotated[bool, typer.Option(
        "--bordeaux-tables", help="Read the Bordeaux extract from the table bordeaux.visits of the warehouse's database "
        "instead of a file (dbt vars bordeaux_source: tables, bordeaux_schema).")] = False,
    dbt_vars: Annotated[Optional[str], typer.Option("--vars", help="More dbt vars as YAML, as given to `dbt build --vars`, e.g. the audit gates: '{gate_max_pdr: 0.05, gate_severity: error}'.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Build every node, even when only pairs were imported since the last build.")] = False,
    unit_tests: Annotated[Optional[bool], typer.Option("--unit-tests/--no-unit-tests", help="Run dbt's unit tests of the macros (default: BIASMIRROR_UNIT_TESTS, else only when CI is set).")] = None,
    dbt_log: Annotated[bool, typer.Option("--dbt-log", help="Show dbt's node log here instead of one progress line (it always goes to dbt.log).")] = False,
    compact: Annotated[bool, typer.Option("--compact", help="Publish a fresh file of live rows only (slower), not a byte copy whose free blocks can hold removed rows: after removing patients from an extract.")] = False,
) -> None:
    """Run `dbt build` on the working copy: cohorts, model inputs and every audit mart, with their tests; after
    imports of pairs alone, only what they feed (--full: everything). When every node succeeds, the build is
    published as the warehouse file readers open; otherwise nothing is (a failed audit gate alone still
    publishes, and exits with status 1). Prints what it built."""
    from biasmirror.dbt_runner import DbtFailed, build as build_warehouse

    def announce(dataset: str, folder: Path) -> None:
        console.print(f"{'MIMIC-IV files' if dataset == 'mimic' else 'Bordeaux extract'}: {folder}")

    for tables, root, name in ((mimic_tables, mimic_root, "mimic"), (bordeaux_tables, bordeaux_root, "bordeaux")):
        if tables and root is not None:
            fail(f"--{name}-tables reads the data set from the database: leave out --{name}-root.")
    try:
        variables: dict[str, object] = dict(_parse_vars(dbt_vars))
        if mimic_tables:
            variables["mimic_source"] = "tables"
        if bordeaux_tables:
            variables["bordeaux_source"] = "tables"
        result = build_warehouse(select=select, mimic_root=mimic_root, bordeaux_root=bordeaux_root,
                                 resamples=resamples, seed=seed, variables=variables, announce=announce, full=full,
                                 unit_tests=unit_tests, dbt_log=dbt_log, compact=compact)
    except (FileNotFoundError, ValueError, DbtFailed) as error:
        summary = getattr(error, "summary", None)
        if summary is not None and summary.log_file is not None:
            console.print(f"dbt's log: {summary.log_file}", soft_wrap=True, markup=False)
        fail(str(error))
    console.print(str(result), soft_wrap=True, markup=False)
    if uses_postgres():
        console.print("Built in the PostgreSQL database (BIASMIRROR_TARGET=postgres).")
        return
    console.print(f"Working copy: {working_path()}", soft_wrap=True, markup=False)


@app.command("import-pairs")
def import_pairs_command(
    path: Path = typer.Argument(..., help="CSV or Parquet file with pair_id, original_sex, original_level, counterfactual_level."),
    dataset: str = typer.Option(..., help="Data set name."),
    model: str = typer.Option(..., help="Name of the model that made the predictions."),
    setting: Optional[str] = typer.Option(None, help="full, text_only or tabular_only (default: the file's `setting` column, else full)."),
) -> None:
    """Import pairs of predictions made elsewhere (replaces an earlier import of the same dataset/model/setting)."""
    from biasmirror.imports.pairs import import_pairs
    from biasmirror.imports.tables import ImportValidationError

    try:
        result = import_pairs(path, dataset, model, setting)
    except ImportValidationError as error:
        fail(str(error))
    console.print(f"Imported {result.n_pairs:,} pairs ({', '.join(result.settings)}) as {shown(dataset)}/{shown(model)} "
                  f"into {working_path()}, the working copy of {warehouse_path()}; "
                  f"strata: {', '.join(shown(s) for s in result.strata) or 'none'}.", soft_wrap=True, markup=False)
    if result.ignored_columns:
        console.print(f"Ignored column(s): {', '.join(shown(c) for c in result.ignored_columns)}", style="yellow",
                      markup=False)
    console.print("Readers see them after the next successful build: `biasmirror build` (or the scheduled "
                  "`dbt build`) updates the audit marts and publishes the warehouse.", soft_wrap=True)


@app.command()
def counterfactuals(
    dataset: Annotated[str, typer.Option(help="Data set whose test records to copy.")] = "mimic",
    generator: Annotated[str, typer.Option(help="rules (lexicon swapper, en/fr/es) or llm (k-shot rewriting by a chat model).")] = "rules",
    backend: Annotated[Optional[str], typer.Option(help="LLM backend: transformers (local folder), vllm (GPU) or openai (OpenAI-compatible HTTP).")] = None,
    model: Annotated[Optional[str], typer.Option(help="LLM: model folder (transformers), model path/name (vllm) or the server's model name (openai).")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help="Backend option KEY=VALUE (repeatable; VALUE read as JSON when it parses), e.g. base_url=http://127.0.0.1:8000/v1, device=cuda, concurrency=8.")] = None,
    language: Annotated[Optional[str], typer.Option(help="Only records in this language (en, fr, es); default all, each in its own language.")] = None,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Allow sending credentialed records (mimic, bordeaux) to a non-local endpoint; recorded in the run.")] = False,
    placebo: Annotated[bool, typer.Option("--placebo", help="Write same-sex rewrites through the same generator (generator <name>-placebo): a control for the rewrite itself.")] = False,
    k_shots: Annotated[int, typer.Option(help="LLM: examples in the prompt.")] = 7,
    max_tokens: Annotated[Optional[int], typer.Option(help="LLM: token limit of an answer (default: from the record's length).")] = None,
    name: Annotated[Optional[str], typer.Option(help="LLM: generator name to store the copies under (default llm-<model>).")] = None,
    prompt_template: Annotated[Optional[Path], typer.Option(help="LLM: system prompt template file ($language placeholder) instead of the shipped one.")] = None,
    examples_dir: Annotated[Optional[Path], typer.Option(help="LLM: folder of <language>.json k-shot example files instead of the shipped ones.")] = None,
    batch_size: Annotated[Optional[int], typer.Option(help="Records per committed batch (default 2000 rules, 16 llm).")] = None,
    limit: Annotated[Optional[int], typer.Option(help="At most this many pending records (for a trial run).")] = None,
    similarity: Annotated[bool, typer.Option("--similarity", help="Also compute the semantic similarity of each copy (sentence embeddings; slow on CPU).")] = False,
    retry_flagged: Annotated[bool, typer.Option("--retry-flagged", help="LLM: ask again for the records an earlier run flagged, bypassing the answer cache for them (their flagged copies are replaced).")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="LLM: send every request again instead of reusing stored answers (new answers replace them).")] = False,
    constrained: Annotated[bool, typer.Option("--constrained", help="LLM: hold answers to their JSON shape with vLLM's structured outputs (vllm backend, or openai against a vLLM server); the checks still judge the content.")] = False,
) -> None:
    """Write a sex-swapped copy of every test record, then its validity checks (resumable: done records are
    skipped). The settings full, text_only and tabular_only are derived from this one copy in SQL."""
    from biasmirror.counterfactuals.generate import LlmSpec, generate_counterfactuals
    from biasmirror.counterfactuals.llm_rewriter import PromptError

    llm = None
    if generator == "llm" or backend or model:
        if generator != "llm":
            fail("--backend and --model apply to --generator llm")
        if not backend or not model:
            fail("--generator llm needs --backend (transformers, vllm or openai) and --model")
        llm = LlmSpec(backend=backend, model=model, options=backend_options(option), k_shots=k_shots,
                      max_tokens=max_tokens, prompt_template=prompt_template, examples_dir=examples_dir, name=name,
                      constrained=constrained)
    try:
        run = generate_counterfactuals(dataset, generator, batch_size, llm=llm, placebo=placebo, language=language,
                                       allow_remote=allow_remote, limit=limit, similarity=similarity,
                                       retry_flagged=retry_flagged, no_cache=no_cache)
    except (RuntimeError, ValueError, FileNotFoundError, PromptError) as error:
        fail(str(error))
    console.print(f"{run.generator}: {run.written:,} counterfactuals written ({run.flagged:,} flagged and left out "
                  f"of the pairs), {run.skipped_existing:,} already present"
                  + (f", {run.retried_flagged:,} flagged earlier asked again" if run.retried_flagged else "")
                  + f"; run {run.run_id}.", markup=False)
    if run.pending:
        console.print(f"{run.pending:,} record(s) left for a later run: the backend failed for them (rerun the same "
                      "command to retry).", style="yellow", markup=False)
        if run.failure_message:
            console.print(run.failure_message, style="yellow", markup=False, highlight=False)
    if run.checks_written or run.similarity_written:
        console.print(f"Diagnostics: {run.checks_written:,} copies checked, {run.similarity_written:,} similarities; "
                      "`biasmirror build` updates audit.counterfactual_quality.")


@app.command()
def forget(
    dataset: Annotated[str, typer.Option(help="Data set to forget (all of it, unless --model or --generator narrows it).")],
    model: Annotated[Optional[str], typer.Option(help="Only this model's rows of the data set (predictions, imported pairs, ...).")] = None,
    generator: Annotated[Optional[str], typer.Option(help="Only this counterfactual generator's rows of the data set (copies, checks, reviews).")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Remove a data set, or one model or generator of it, from the warehouse's inference tables (the working
    copy), recorded as a run; the next `biasmirror build` rebuilds the marts without them and publishes the result."""
    from rich.table import Table
    from rich.text import Text

    from biasmirror.forget import ForgetError, NothingToForget, Selection, forget as forget_rows, plan
    from biasmirror.warehouse import reader_label

    def counts(result, title: str) -> None:
        table = Table(title=Text(title))  # names come from the user: never read as markup
        table.add_column("table")
        table.add_column("rows", justify="right")
        for name, rows in result.frame().itertuples(index=False):
            table.add_row(name, f"{rows:,}")
        console.print(table)

    # what the rows are removed from: the working copy, or the PostgreSQL database (no working copy there)
    written = reader_label() if uses_postgres() else str(working_path())
    try:
        selection = Selection(dataset, model, generator)
        if not yes:  # the writer lock is held from this count to the removal: what is removed is what was shown
            planned = plan(selection)
            counts(planned, f"Rows of {selection.describe()} in {written}")
            if not typer.confirm(f"Remove these {planned.total:,} rows?", default=False):
                console.print("Nothing was removed.")
                raise typer.Exit(code=1)
        result = forget_rows(selection)
    except (ForgetError, NothingToForget) as error:
        fail(str(error))
    counts(result, f"Removed from {written} (run {result.run_id})")
    if uses_postgres():
        console.print(f"Removed {result.total:,} rows of {selection.describe()} from {written}, recorded as run "
                      f"{result.run_id}. The marts still show them until the next successful full build: "
                      "`biasmirror build` (or the scheduled `dbt build`) rebuilds the marts without them.",
                      markup=False, soft_wrap=True)
        return
    console.print(f"Removed {result.total:,} rows of {selection.describe()}, recorded as run {result.run_id}. The "
                  f"published warehouse {warehouse_path()} still shows them until the next successful full build: "
                  "`biasmirror build` (or the scheduled `dbt build`) rebuilds the marts without them and publishes "
                  "the result.", markup=False)


@app.command()
def summary(
    dataset: Optional[str] = typer.Option(None, help="Only this data set."),
    model: Optional[str] = typer.Option(None, help="Only this model."),
) -> None:
    """Print the overall paired metrics per setting with their confidence intervals (from the published warehouse)."""
    from biasmirror.summary import UnknownSelection, print_overall

    try:
        announce_reader()
        print_overall(console, dataset, model)
    except (FileNotFoundError, UnknownSelection) as error:
        fail(str(error))


@app.command()
def check(
    docs: Annotated[Path, typer.Option(help="Folder for the Data Docs (offline HTML: index.html, validations/) and summary.json.")] = Path("data_docs"),
    layer: Annotated[Optional[list[str]], typer.Option(help="Only these layers: raw, cohort, inference, audit (repeatable; default all).")] = None,
    mimic_root: Annotated[Optional[Path], typer.Option(help="MIMIC-IV folder to check (default: var mimic_root, BIASMIRROR_MIMIC_ROOT, else the one registered by build).")] = None,
    bordeaux_root: Annotated[Optional[Path], typer.Option(help="Bordeaux folder to check (default: var bordeaux_root, BIASMIRROR_BORDEAUX_ROOT, else the one registered by build).")] = None,
    min_parse_rate: Annotated[float, typer.Option(help="Least share of predictions with a level (predicted_level not null).")] = 0.95,
    test_fraction: Annotated[Optional[float], typer.Option(help="Expected test share of the split (default: --vars, else the value the last successful build of the cohort used, else dbt_project.yml).")] = None,
    dbt_vars: Annotated[Optional[str], typer.Option("--vars", help="dbt vars as YAML, as given to `dbt build --vars` (test_fraction, mimic_root, bordeaux_root are used).")] = None,
    min_parity_agreement: Annotated[float, typer.Option(help="Least agreement of label-probability scoring with generate-and-parse in each scoring run's parity sample (audit.scoring_parity).")] = 0.95,
) -> None:
    """Data-quality gates (Great Expectations) over raw files, cohort, inference and audit tables; exits 1 on failure."""
    from biasmirror.quality.gx_context import QualityUnavailable
    from biasmirror.quality.report import print_report
    from biasmirror.quality.runner import check_test_fraction, reads_warehouse, run_checks
    from biasmirror.quality.suites import LAYERS

    roots = {name: path for name, path in (("mimic", mimic_root), ("bordeaux", bordeaux_root)) if path is not None}
    try:
        variables = _parse_vars(dbt_vars)
        for value, origin in ((test_fraction, "--test-fraction"), (variables.get("test_fraction"), "--vars test_fraction")):
            if value is not None:
                check_test_fraction(value, origin)
        if reads_warehouse(layer or LAYERS, roots):
            announce_reader()  # every layer but raw (with explicit folders) reads the published warehouse
        with console.status("running data-quality gates") as status:
            report = run_checks(docs, layers=layer or LAYERS, roots=roots or None, test_fraction=test_fraction,
                                min_parse_rate=min_parse_rate, variables=variables,
                                progress=lambda name: status.update(f"checking {name}"),
                                min_parity_agreement=min_parity_agreement)
    except (FileNotFoundError, ValueError, RuntimeError, QualityUnavailable) as error:
        fail(str(error))
    print_report(console, report)
    if not report.success:
        raise typer.Exit(code=1)


def _parse_vars(text: Optional[str]) -> dict:
    """--vars as dbt reads it: a YAML (or JSON) mapping."""
    import yaml

    if not text:
        return {}
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(f"--vars is not YAML: {error}") from error
    if not isinstance(value, dict):
        raise ValueError("--vars must be a mapping, e.g. --vars '{test_fraction: 0.3}'")
    return value


# The query the demo ends with, for copy-paste (README.md shows the same command; a test checks it).
DEMO_QUERY = ("select setting, metric, estimate, ci_low, ci_high from audit.paired_metrics "
              "where stratum_name = 'overall' order by setting, metric_order")


def demo_open_command(warehouse: Path, duckdb_cli: Path) -> list[str]:
    """The command that opens the demo's warehouse read-only with DEMO_QUERY; paths under the current folder
    relative to it (as the README writes them)."""
    def shown(path: Path) -> str:
        try:
            return os.path.relpath(os.path.abspath(path)) if Path(os.path.abspath(path)).is_relative_to(Path.cwd()) \
                else str(path)
        except ValueError:  # another drive (Windows)
            return str(path)

    return [shown(duckdb_cli) if duckdb_cli.is_file() else "duckdb", "-readonly", shown(warehouse), DEMO_QUERY]


@app.command()
def demo(
    out: Path = typer.Option(Path(DEMO_WAREHOUSE).parent, help="Folder for the synthetic MIMIC-IV files, the demo's own "
                             "warehouse (OUT/biasmirror.duckdb), its log (OUT/demo.log), Data Docs and report."),
    stays: int = typer.Option(20000, help="Synthetic ED stays."),
    seed: int = typer.Option(42, help="Seed of the synthetic data."),
) -> None:
    """The whole audit on synthetic MIMIC-IV-shaped data: data, cohort, counterfactuals, baseline, metrics,
    checks, report; one line per step (every step's own output, dbt's node log included, goes to OUT/demo.log).
    It works in its own warehouse, OUT/biasmirror.duckdb (whatever --warehouse or BIASMIRROR_WAREHOUSE say), so
    your other warehouses can neither break it nor be changed by it."""
    from biasmirror.build_plan import RECORDS_SELECTION
    from biasmirror.dbt_runner import DbtFailed, build as build_warehouse
    from biasmirror.step_log import StepLog, default_screen

    started = time.perf_counter()
    screen = default_screen()
    with own_warehouse(out / "biasmirror.duckdb") as demo_warehouse:
        steps = StepLog(out / "demo.log", screen)
        screen.print(f"The demo's own warehouse: {demo_warehouse}; every step's output: {steps.path}",
                     soft_wrap=True, markup=False)

        def dbt_build(select: list[str], mimic_root: Path | None = None) -> str:
            try:
                return build_warehouse(select=select, mimic_root=mimic_root, quiet=True).counts_text()
            except DbtFailed as error:
                fail(str(error))

        def data_quality() -> str:
            check(docs=out / "data_docs", layer=None, mimic_root=None, bordeaux_root=None, min_parse_rate=0.95,
                  test_fraction=None, dbt_vars=None, min_parity_agreement=0.95)
            return f"Data Docs in {out / 'data_docs'}"

        def audit_report() -> str:
            report_command(out=out / "report")
            return str(out / "report" / "index.html")

        for title, step in (
            ("1/8 synthetic MIMIC-IV data", lambda: synth_mimic(out=out / "mimic", stays=stays, seed=seed, female_effect=None)),
            ("2/8 cohort and model inputs of the originals (dbt build)",
             lambda: dbt_build(list(RECORDS_SELECTION), mimic_root=out / "mimic")),
            ("3/8 rule-based counterfactuals", lambda: counterfactuals(dataset="mimic", generator="rules")),
            ("4/8 model inputs of the copies (dbt build)", lambda: dbt_build(["model_inputs"])),
            ("5/8 TF-IDF + random-forest triage model", lambda: baseline(dataset="mimic", model="tfidf-rf", seed=0, trees=300)),
            ("6/8 audit marts (dbt build)", lambda: dbt_build(["source:inference+"])),
            ("7/8 data-quality gates (biasmirror check)", data_quality),
            ("8/8 audit report", audit_report),
        ):
            steps.run(title, step)
        console.rule("[bold]results")
        summary(dataset="mimic", model=None)
        console.print(f"\nDone in {time.perf_counter() - started:.0f} s. Warehouse: {demo_warehouse}", soft_wrap=True)
        # the duckdb CLI comes with the dev extra, next to this Python
        print_command(console, "Open it read-only:",
                      demo_open_command(demo_warehouse, Path(sys.executable).with_name("duckdb")))


@app.command("demo-llm")
def demo_llm(
    out: Path = typer.Option(Path("demo_data/llm"), help="Folder for the synthetic data, the adapter and the demo's own "
                             "warehouse (OUT/biasmirror.duckdb) and report."),
    stays: int = typer.Option(DEMO_LLM.stays, help="Synthetic ED stays."),
    train_records: int = typer.Option(DEMO_LLM.train_records, help="Train-split records the LoRA adapter is fine-tuned "
                                      "on, at most."),
    epochs: float = typer.Option(DEMO_LLM.epochs, help="Fine-tuning epochs."),
    learning_rate: float = typer.Option(DEMO_LLM.learning_rate, help="Peak learning rate."),
    batch_size: int = typer.Option(DEMO_LLM.batch_size, help="Records per optimizer step."),
    score_records: int = typer.Option(DEMO_LLM.score_records, help="Test records the LLM scores (x 3 settings x "
                                      "original and copy)."),
    base: Optional[Path] = typer.Option(None, help="Base model folder (default: the SmolLM2 `make install` converted)."),
) -> None:
    """The triage audit of a real LLM on CPU: SmolLM2-135M-Instruct fine-tuned with LoRA, scored through a local vLLM
    server, beside a TF-IDF + random forest, in its own warehouse OUT/biasmirror.duckdb (needs `make vllm`)."""
    from biasmirror.dbt_runner import DbtFailed
    from biasmirror.demo_llm import run_demo_llm
    from biasmirror.serving.environment import VllmNotInstalled

    try:
        plan = DemoLlmPlan(stays=stays, train_records=train_records, epochs=epochs, learning_rate=learning_rate,
                           batch_size=batch_size, score_records=score_records)
    except ValueError as error:
        fail(str(error))
    try:
        run_demo_llm(out, plan, base)
    except (FileNotFoundError, VllmNotInstalled, DbtFailed) as error:
        fail(str(error))


# The implicit-bias study (biasmirror.implicit.cli).
app.add_typer(implicit_app, name="implicit")
app.command("import-associations")(import_associations_command)
app.command("import-allocations")(import_allocations_command)

# Triage models: train, score, baseline, baselines, tiny-model (biasmirror.triage.cli).
register_triage_commands(app)

# Counterfactual copies: `swap` preview and the manual `review` (biasmirror.counterfactuals.cli).
register_counterfactual_commands(app)

# The static HTML audit report (biasmirror.report.command).
app.command("report")(report_command)


def main() -> None:
    """The console script: the app, with Ctrl-C (or SIGTERM) ending in a message that says what was kept."""
    import signal

    stopping: list[int] = []

    def terminate(signum: int, frame: object) -> None:
        if stopping:  # a second signal (its Python handler can run late, after the first one's): already stopping
            return
        stopping.append(signum)
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    try:
        # not standalone: typer would end a Ctrl-C with a bare exit code 130 and no word
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        # already stopping: a second Ctrl-C or SIGTERM must neither break the closing message with a traceback nor
        # kill the process during its exit (Python restores the default handlers then): held until it exits
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stopping.append(signal.SIGINT)
        code = 130
    except typer.Abort:
        code = 1
    except typer.TyperException as error:  # usage errors: click's own message and exit code (2)
        error.show()
        code = error.exit_code
    if code == 130:
        _report_interrupted()
        # end now: during a normal exit Python restores the default signal handlers, and a second signal arriving
        # then would kill the process (status -15, not 130). Every connection and lock is already released.
        _run_multiprocessing_exit()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def _run_multiprocessing_exit() -> None:
    """What multiprocessing does at a normal exit and os._exit skips: dbt's locks are named semaphores, which its
    resource tracker would otherwise report as leaked, after our last line."""
    util = sys.modules.get("multiprocessing.util")
    if util is not None:
        util._exit_function()


def _report_interrupted() -> None:
    from biasmirror.warehouse.runs import interrupted_runs

    console.print("[bold yellow]interrupted.[/bold yellow]")
    for run in interrupted_runs:
        console.print(f"  run {run.run_id} ({run.kind}) is marked interrupted in inference.runs; "
                      f"{run.n_items:,} item(s) written in committed batches are kept.")
    if interrupted_runs:
        console.print("  Rerun the same command to resume: finished work is skipped.")


if __name__ == "__main__":
    main()
