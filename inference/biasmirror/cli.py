"""The `biasmirror` command line."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from biasmirror.paths import warehouse_path

app = typer.Typer(help="Audit clinical triage decisions for sex/gender bias with paired comparisons.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
synth_app = typer.Typer(help="Write synthetic data sets shaped like the real ones.", no_args_is_help=True)
app.add_typer(synth_app, name="synth")
# Wide enough for the metrics table when the output goes to a file or a pipe (CI logs, `make demo | tee`).
console = Console(width=None if Console().is_terminal else 130)


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/bold red] {message}")
    raise typer.Exit(code=1)


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
        _fail(str(error))
    for name, rows in summary.files.items():
        console.print(f"  {out / name}: {rows:,} rows")


@app.command()
def build(
    mimic_root: Optional[Path] = typer.Option(None, help="MIMIC-IV folder (ed/, hosp/, note/); remembered in the warehouse."),
    select: Optional[list[str]] = typer.Option(None, help="dbt selection (default: everything)."),
    resamples: Optional[int] = typer.Option(None, help="Bootstrap resamples (dbt var bootstrap_resamples, default 1000)."),
    seed: Optional[int] = typer.Option(None, help="Bootstrap seed (dbt var bootstrap_seed)."),
) -> None:
    """Run `dbt build`: cohorts, model inputs and every audit mart, with their tests."""
    from biasmirror.datasets import register_root
    from biasmirror.dbt_runner import DbtFailed, run_dbt

    try:
        if mimic_root is not None:
            root = register_root("mimic", mimic_root)
            console.print(f"MIMIC-IV files: {root}")
        variables = {k: v for k, v in {"bootstrap_resamples": resamples, "bootstrap_seed": seed}.items() if v is not None}
        run_dbt("build", select=select, variables=variables)
    except (FileNotFoundError, ValueError, DbtFailed) as error:
        _fail(str(error))
    console.print(f"Warehouse: {warehouse_path()}")


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
        _fail(str(error))
    console.print(f"Imported {result.n_pairs:,} pairs ({', '.join(result.settings)}) as {dataset}/{model}; "
                  f"strata: {', '.join(result.strata) or 'none'}.")
    if result.ignored_columns:
        console.print(f"[yellow]Ignored column(s): {', '.join(result.ignored_columns)}[/yellow]")
    console.print("Run `biasmirror build` (or `dbt build`) to update the audit marts.")


@app.command()
def counterfactuals(
    dataset: str = typer.Option("mimic", help="Data set whose test records to copy."),
    generator: str = typer.Option("rules", help="Counterfactual generator."),
) -> None:
    """Write a sex-swapped copy of every test record (resumable: done records are skipped)."""
    from biasmirror.counterfactuals.generate import generate_counterfactuals

    try:
        run = generate_counterfactuals(dataset, generator)
    except (RuntimeError, ValueError) as error:
        _fail(str(error))
    console.print(f"{run.written:,} counterfactuals written ({run.flagged:,} flagged and left out of the pairs), "
                  f"{run.skipped_existing:,} already present; run {run.run_id}.")


@app.command()
def baseline(
    dataset: str = typer.Option("mimic", help="Data set to train and score on."),
    model: str = typer.Option("tfidf-rf", help="Name to store the predictions under."),
    seed: int = typer.Option(0, help="Random-forest seed."),
    trees: int = typer.Option(300, help="Number of trees."),
) -> None:
    """Train the TF-IDF + random-forest baseline on the train split and score every test input."""
    from biasmirror.triage.baseline import train_and_score

    try:
        run = train_and_score(dataset, model, seed=seed, n_estimators=trees)
    except RuntimeError as error:
        _fail(str(error))
    console.print(f"Trained {run.model} on {run.n_train:,} records in {run.train_seconds:.1f} s; "
                  f"scored {run.n_scored:,} new inputs (run {run.run_id}).")


@app.command()
def summary(
    dataset: Optional[str] = typer.Option(None, help="Only this data set."),
    model: Optional[str] = typer.Option(None, help="Only this model."),
) -> None:
    """Print the overall paired metrics per setting with their confidence intervals."""
    from biasmirror.summary import print_overall

    try:
        print_overall(console, dataset, model)
    except FileNotFoundError as error:
        _fail(str(error))


@app.command()
def demo(
    out: Path = typer.Option(Path("demo_data"), help="Where to write the synthetic MIMIC-IV files."),
    stays: int = typer.Option(20000, help="Synthetic ED stays."),
    seed: int = typer.Option(42, help="Seed of the synthetic data."),
) -> None:
    """The whole audit on synthetic MIMIC-IV-shaped data: data, cohort, counterfactuals, baseline, metrics."""
    started = time.perf_counter()
    steps = [
        ("1/6 synthetic MIMIC-IV data", lambda: synth_mimic(out=out / "mimic", stays=stays, seed=seed, female_effect=None)),
        ("2/6 cohort (dbt build)", lambda: build(mimic_root=out / "mimic", select=None, resamples=None, seed=None)),
        ("3/6 rule-based counterfactuals", lambda: counterfactuals(dataset="mimic", generator="rules")),
        ("4/6 model inputs (dbt build)", lambda: build(mimic_root=None, select=["model_inputs"], resamples=None, seed=None)),
        ("5/6 TF-IDF + random-forest triage model", lambda: baseline(dataset="mimic", model="tfidf-rf", seed=0, trees=300)),
        ("6/6 audit marts (dbt build)", lambda: build(mimic_root=None, select=["source:inference+"], resamples=None, seed=None)),
    ]
    for title, step in steps:
        console.rule(f"[bold]{title}")
        step()
    console.rule("[bold]results")
    summary(dataset="mimic", model=None)
    console.print(f"\nDone in {time.perf_counter() - started:.0f} s. Warehouse: {warehouse_path()}")
    console.print(f"Open it read-only: duckdb -readonly {warehouse_path()} "
                  "\"select * from audit.paired_metrics where stratum_name = 'overall'\"")


if __name__ == "__main__":
    app()
