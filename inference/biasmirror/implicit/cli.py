"""The implicit-bias study's commands: `biasmirror implicit associations|allocation|explicit` and the top-level
`biasmirror import-associations` and `biasmirror import-allocations` (registered in biasmirror.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from biasmirror.cli_options import console, fail, parse_key_values

implicit_app = typer.Typer(
    help="The implicit-bias study (word association, appointment allocation, explicit questions) on a chat backend.",
    no_args_is_help=True)

BACKEND_HELP = "Backend kind (e.g. openai, vllm, transformers; simulated = a simulated respondent with planted bias, not a model)."
OPTION_HELP = "Backend option KEY=VALUE (repeatable); VALUE is read as JSON when it parses, e.g. --option association_bias=0.3."
NO_CACHE_HELP = "Send every request again instead of reusing stored answers (the new answers replace them)."



def _options(pairs: Optional[list[str]]) -> dict[str, Any]:
    try:
        return parse_key_values(pairs)
    except ValueError as error:
        fail(str(error))


def _backend(kind: str, model: str, option: Optional[list[str]]):
    from biasmirror.backends.registry import make_backend

    try:
        backend = make_backend(kind, model, **_options(option))
    except (ValueError, RuntimeError, TypeError) as error:
        fail(f"cannot start the {kind} backend: {error}")
    if backend.name == "simulated":
        console.print("[bold yellow]SIMULATION:[/bold yellow] answers come from a simulated respondent with planted, "
                      "configurable bias, not from a language model (runs are recorded with simulation = true).")
    return backend


def _prompt_set(path: Optional[Path]):
    from biasmirror.implicit.prompts import PromptSetError, load_prompt_set
    from biasmirror.implicit.stimuli import StimuliError

    try:
        return load_prompt_set(path)
    except (PromptSetError, StimuliError) as error:
        fail(str(error))


def _conditions(flag: Optional[bool]) -> tuple[bool, ...]:
    return (False, True) if flag is None else (flag,)


def _report(summary) -> None:
    from biasmirror.implicit.runs import describe

    console.print(describe(summary), markup=False)
    console.print("Run `biasmirror build` (or `dbt build --select tag:implicit`) to update the audit marts.")


@implicit_app.command("associations")
def associations(
    backend: str = typer.Option(..., help=BACKEND_HELP),
    model: str = typer.Option(..., help="Model name the backend runs."),
    language: Optional[list[str]] = typer.Option(None, help="en or es (repeatable; default both)."),
    iterations: int = typer.Option(50, help="Prompts per language and category (the paper: 50)."),
    category: Optional[list[str]] = typer.Option(None, help="Only these categories (repeatable; default all 8)."),
    prompts: Optional[Path] = typer.Option(None, help="Prompt set file (YAML or JSON); default: biasmirror's own wording."),
    label: Optional[str] = typer.Option(None, help="Name to store the results under (default: --model)."),
    temperature: float = typer.Option(0.0, help="Sampling temperature (recorded)."),
    seed: int = typer.Option(0, help="Generation seed passed to the backend (recorded)."),
    design_seed: Optional[int] = typer.Option(None, help="Seed of the word/order/template draws."),
    max_tokens: int = typer.Option(400, help="Answer length limit."),
    batch_size: int = typer.Option(16, help="Prompts per backend call and per committed batch."),
    option: Optional[list[str]] = typer.Option(None, help=OPTION_HELP),
    no_cache: bool = typer.Option(False, "--no-cache", help=NO_CACHE_HELP),
) -> None:
    """Word-association test: which words does the model give to "cisgender" and which to "transgender"?"""
    from biasmirror.implicit.design import DEFAULT_DESIGN_SEED
    from biasmirror.implicit.runs import Decoding, RunConfigurationError, run_associations

    chosen = _backend(backend, model, option)
    try:
        summary = run_associations(
            chosen, label=label, prompt_set=_prompt_set(prompts), languages=language or ("en", "es"),
            categories=category, iterations=iterations, decoding=Decoding(temperature, seed, max_tokens),
            design_seed=DEFAULT_DESIGN_SEED if design_seed is None else design_seed, batch_size=batch_size,
            no_cache=no_cache)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


@implicit_app.command("allocation")
def allocation(
    backend: str = typer.Option(..., help=BACKEND_HELP),
    model: str = typer.Option(..., help="Model name the backend runs."),
    language: Optional[list[str]] = typer.Option(None, help="en or es (repeatable; default both)."),
    explanation: Optional[bool] = typer.Option(None, "--explanation/--no-explanation",
                                               help="Only with (or only without) a requested explanation; default both."),
    symptoms: Optional[bool] = typer.Option(None, "--symptoms/--no-symptoms",
                                            help="Only with (or only without) same-urgency symptoms; default both."),
    discipline: Optional[list[str]] = typer.Option(None, help="Only these disciplines (repeatable; default all 8)."),
    prompts: Optional[Path] = typer.Option(None, help="Prompt set file (YAML or JSON); default: biasmirror's own wording."),
    label: Optional[str] = typer.Option(None, help="Name to store the results under (default: --model)."),
    temperature: float = typer.Option(0.0, help="Sampling temperature (recorded)."),
    seed: int = typer.Option(0, help="Generation seed passed to the backend (recorded)."),
    design_seed: Optional[int] = typer.Option(None, help="Seed of the symptom draws."),
    max_tokens: int = typer.Option(400, help="Answer length limit."),
    batch_size: int = typer.Option(16, help="Prompts per backend call and per committed batch."),
    option: Optional[list[str]] = typer.Option(None, help=OPTION_HELP),
    no_cache: bool = typer.Option(False, "--no-cache", help=NO_CACHE_HELP),
) -> None:
    """Appointment allocation: 100 cisgender-transgender pairs per discipline, each shown in both orders."""
    from biasmirror.implicit.design import DEFAULT_DESIGN_SEED
    from biasmirror.implicit.runs import Decoding, RunConfigurationError, run_allocation

    chosen = _backend(backend, model, option)
    try:
        summary = run_allocation(
            chosen, label=label, prompt_set=_prompt_set(prompts), languages=language or ("en", "es"),
            disciplines=discipline, explanations=_conditions(explanation), symptom_conditions=_conditions(symptoms),
            decoding=Decoding(temperature, seed, max_tokens),
            design_seed=DEFAULT_DESIGN_SEED if design_seed is None else design_seed, batch_size=batch_size,
            no_cache=no_cache)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


@implicit_app.command("explicit")
def explicit(
    backend: str = typer.Option(..., help=BACKEND_HELP),
    model: str = typer.Option(..., help="Model name the backend runs."),
    language: Optional[list[str]] = typer.Option(None, help="en or es (repeatable; default both)."),
    prompts: Optional[Path] = typer.Option(None, help="Prompt set file (YAML or JSON)."),
    label: Optional[str] = typer.Option(None, help="Name to store the answers under (default: --model)."),
    temperature: float = typer.Option(0.0, help="Sampling temperature (recorded)."),
    seed: int = typer.Option(0, help="Generation seed (recorded)."),
    max_tokens: int = typer.Option(200, help="Answer length limit."),
    option: Optional[list[str]] = typer.Option(None, help=OPTION_HELP),
    no_cache: bool = typer.Option(False, "--no-cache", help=NO_CACHE_HELP),
) -> None:
    """Ask the explicit questions: would the model treat a transgender and a cisgender person differently?"""
    from biasmirror.implicit.runs import Decoding, RunConfigurationError, run_explicit

    chosen = _backend(backend, model, option)
    try:
        summary = run_explicit(chosen, label=label, prompt_set=_prompt_set(prompts), languages=language or ("en", "es"),
                               decoding=Decoding(temperature, seed, max_tokens), no_cache=no_cache)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


OWN_STIMULI_HELP = ("Accept words, categories, valences or pair ids that are not the study's stimuli (results made with "
                    "your own stimuli); the import's run records it and how many rows were outside the study's.")


def _imported(result, what: str, prompt_set: str) -> None:
    from rich.markup import escape

    # model labels come from the file: named when they look like labels, counted otherwise
    labels = (", ".join(result.models) if all(len(m) <= 48 and m.count(" ") <= 4 and m.isprintable() for m in result.models)
              else f"{len(result.models)} model label(s)")
    console.print(escape(f"Imported {what} for {labels} ({', '.join(result.languages)}) as prompt set {prompt_set}."))
    if result.outside_stimuli:
        counts = ", ".join(f"{reason.replace('_', ' ')}: {n:,} row(s)" for reason, n in result.outside_stimuli.items())
        console.print(f"[yellow]Own stimuli (--own-stimuli): rows outside the study's stimuli - {counts}.[/yellow]")
    if result.ignored_columns:
        console.print(f"[yellow]Ignored column(s): {escape(', '.join(result.ignored_columns))}[/yellow]")
    console.print("Run `biasmirror build` (or `dbt build --select tag:implicit`) to update the audit marts.")


def import_associations_command(
    path: Path = typer.Argument(..., help="CSV/Parquet with model, language, iteration, category, word, valence, group[, template]."),
    prompt_set: str = typer.Option("imported", help="Name to store the rows under (replaces an earlier import with it)."),
    own_stimuli: bool = typer.Option(False, "--own-stimuli", help=OWN_STIMULI_HELP),
) -> None:
    """Import word-association answers produced elsewhere (one row per word shown), checked against the study's
    stimuli (words, categories, valences)."""
    from biasmirror.imports.tables import ImportValidationError
    from biasmirror.implicit.imports import import_associations

    try:
        result = import_associations(path, prompt_set, own_stimuli=own_stimuli)
    except ImportValidationError as error:
        fail(str(error))
    _imported(result, f"{result.n_responses:,} answers ({result.n_rows:,} words)", prompt_set)


def import_allocations_command(
    path: Path = typer.Argument(..., help="CSV/Parquet with model, language, discipline, explanation, symptoms, pair_id, order, chosen."),
    prompt_set: str = typer.Option("imported", help="Name to store the rows under (replaces an earlier import with it)."),
    own_stimuli: bool = typer.Option(False, "--own-stimuli", help=OWN_STIMULI_HELP),
) -> None:
    """Import appointment-allocation answers produced elsewhere (order 1 = cisgender candidate listed first),
    checked against the study's persona pairs."""
    from biasmirror.imports.tables import ImportValidationError
    from biasmirror.implicit.imports import import_allocations

    try:
        result = import_allocations(path, prompt_set, own_stimuli=own_stimuli)
    except ImportValidationError as error:
        fail(str(error))
    _imported(result, f"{result.n_rows:,} allocation answers", prompt_set)
