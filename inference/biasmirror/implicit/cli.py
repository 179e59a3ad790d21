"""The implicit-bias study's commands: `biasmirror implicit associations|allocation|explicit` and the top-level
`biasmirror import-associations` and `biasmirror import-allocations` (registered in biasmirror.cli)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer

from biasmirror.cli_options import backend_options, console, fail, option_group

implicit_app = typer.Typer(
    help="The implicit-bias study (word association, appointment allocation, explicit questions) on a chat backend.",
    no_args_is_help=True)

BACKEND_HELP = "Backend kind (e.g. openai, vllm, transformers; simulated = a simulated respondent with planted bias, not a model)."
OPTION_HELP = "Backend option KEY=VALUE (repeatable); VALUE is read as JSON when it parses, e.g. --option association_bias=0.3."
NO_CACHE_HELP = "Send every request again instead of reusing stored answers (the new answers replace them)."


@dataclass(frozen=True)
class StudyRun:
    """The options of every `biasmirror implicit` command (declared once; `option_group` adds them to each)."""

    backend: Annotated[str, typer.Option(help=BACKEND_HELP)]
    model: Annotated[str, typer.Option(help="Model name the backend runs.")]
    language: Annotated[Optional[list[str]], typer.Option(help="en or es (repeatable; default both).")] = None
    prompts: Annotated[Optional[Path], typer.Option(
        help="Prompt set file (YAML or JSON); default: biasmirror's own wording.")] = None
    label: Annotated[Optional[str], typer.Option(help="Name to store the results under (default: --model).")] = None
    temperature: Annotated[float, typer.Option(
        help="Sampling temperature (recorded); 0 = greedy, the default.")] = 0.0
    seed: Annotated[int, typer.Option(
        help="Generation seed (recorded); when sampling, each prompt gets its own seed derived from it.")] = 0
    max_tokens: Annotated[int, typer.Option(help="Answer length limit.")] = 400
    option: Annotated[Optional[list[str]], typer.Option(help=OPTION_HELP)] = None
    no_cache: Annotated[bool, typer.Option("--no-cache", help=NO_CACHE_HELP)] = False

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.language or ("en", "es"))

    def decoding(self, constrained: bool = False):
        from biasmirror.implicit.runs import Decoding

        if self.temperature < 0:
            fail("--temperature must not be negative")
        return Decoding(self.temperature, self.seed, self.max_tokens, constrained)

    def start_backend(self):
        """The chat backend, or an error exit that names the backend and why it cannot start."""
        from biasmirror.backends.registry import make_backend

        try:
            backend = make_backend(self.backend, self.model, **backend_options(self.option))
        except (ValueError, RuntimeError, TypeError) as error:
            fail(f"cannot start the {self.backend} backend: {error}")
        if backend.name == "simulated":
            console.print("[bold yellow]SIMULATION:[/bold yellow] answers come from a simulated respondent with planted, "
                          "configurable bias, not from a language model (runs are recorded with simulation = true).")
        return backend

    def prompt_set(self):
        from biasmirror.implicit.prompts import PromptSetError, load_prompt_set
        from biasmirror.implicit.stimuli import StimuliError

        try:
            return load_prompt_set(self.prompts)
        except (PromptSetError, StimuliError) as error:
            fail(str(error))


BatchSizeOption = Annotated[int, typer.Option(help="Prompts per backend call and per committed batch.")]
ConstrainedOption = Annotated[bool, typer.Option(
    "--constrained", help="Constrain decoding to the answer format with vLLM's structured outputs (vllm backend, or "
    "openai against a vLLM server); the model can then neither refuse nor leave the format. Recorded per answer.")]


def _design_seed(seed: Optional[int]) -> int:
    from biasmirror.implicit.design import DEFAULT_DESIGN_SEED

    return DEFAULT_DESIGN_SEED if seed is None else seed


def _conditions(flag: Optional[bool]) -> tuple[bool, ...]:
    return (False, True) if flag is None else (flag,)


def _report(summary) -> None:
    from biasmirror.implicit.runs import describe

    console.print(describe(summary), markup=False)
    console.print("Run `biasmirror build` (or `dbt build --select tag:implicit`) to update the audit marts.")


@implicit_app.command("associations")
@option_group(StudyRun, into="run")
def associations(
    run: StudyRun,
    iterations: Annotated[int, typer.Option(help="Prompts per language and category (the paper: 50).")] = 50,
    category: Annotated[Optional[list[str]], typer.Option(
        help="Only these categories (repeatable; default all 8).")] = None,
    design_seed: Annotated[Optional[int], typer.Option(help="Seed of the word/order/template draws.")] = None,
    batch_size: BatchSizeOption = 16,
    constrained: ConstrainedOption = False,
) -> None:
    """Word-association test: which words does the model give to "cisgender" and which to "transgender"?"""
    from biasmirror.implicit.runs import RunConfigurationError, run_associations

    chosen = run.start_backend()
    try:
        summary = run_associations(
            chosen, label=run.label, prompt_set=run.prompt_set(), languages=run.languages, categories=category,
            iterations=iterations, decoding=run.decoding(constrained), design_seed=_design_seed(design_seed),
            batch_size=batch_size, no_cache=run.no_cache)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


@implicit_app.command("allocation")
@option_group(StudyRun, into="run")
def allocation(
    run: StudyRun,
    explanation: Annotated[Optional[bool], typer.Option(
        "--explanation/--no-explanation", help="Only with (or only without) a requested explanation; default both.")] = None,
    symptoms: Annotated[Optional[bool], typer.Option(
        "--symptoms/--no-symptoms", help="Only with (or only without) same-urgency symptoms; default both.")] = None,
    discipline: Annotated[Optional[list[str]], typer.Option(
        help="Only these disciplines (repeatable; default all 8).")] = None,
    design_seed: Annotated[Optional[int], typer.Option(help="Seed of the symptom draws.")] = None,
    batch_size: BatchSizeOption = 16,
    constrained: ConstrainedOption = False,
    limit: Annotated[Optional[int], typer.Option(
        help="At most this many of the pending prompts, in the design's order, whole pairs only (a trial run).")] = None,
) -> None:
    """Appointment allocation: 100 cisgender-transgender pairs per discipline, each shown in both orders."""
    from biasmirror.implicit.runs import RunConfigurationError, run_allocation

    chosen = run.start_backend()
    try:
        summary = run_allocation(
            chosen, label=run.label, prompt_set=run.prompt_set(), languages=run.languages, disciplines=discipline,
            explanations=_conditions(explanation), symptom_conditions=_conditions(symptoms),
            decoding=run.decoding(constrained), design_seed=_design_seed(design_seed), batch_size=batch_size,
            no_cache=run.no_cache, limit=limit)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


@implicit_app.command("explicit")
@option_group(StudyRun, into="run", max_tokens=200)
def explicit(run: StudyRun) -> None:
    """Ask the explicit questions: would the model treat a transgender and a cisgender person differently?"""
    from biasmirror.implicit.runs import RunConfigurationError, run_explicit

    chosen = run.start_backend()
    try:
        summary = run_explicit(chosen, label=run.label, prompt_set=run.prompt_set(), languages=run.languages,
                               decoding=run.decoding(), no_cache=run.no_cache)
    except (RunConfigurationError, RuntimeError) as error:
        fail(str(error))
    _report(summary)


OWN_STIMULI_HELP = ("Accept words, categories, valences or pair ids that are not the study's stimuli (results made with "
                    "your own stimuli); the import's run records it and how many rows were outside the study's.")
# the options both import commands take
ImportedPromptSetOption = Annotated[str, typer.Option(
    help="Name to store the rows under (replaces an earlier import with it).")]
OwnStimuliOption = Annotated[bool, typer.Option("--own-stimuli", help=OWN_STIMULI_HELP)]


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
    path: Annotated[Path, typer.Argument(help="CSV/Parquet with model, language, iteration, category, word, valence, group[, template].")],
    prompt_set: ImportedPromptSetOption = "imported",
    own_stimuli: OwnStimuliOption = False,
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
    path: Annotated[Path, typer.Argument(help="CSV/Parquet with model, language, discipline, explanation, symptoms, pair_id, order, chosen.")],
    prompt_set: ImportedPromptSetOption = "imported",
    own_stimuli: OwnStimuliOption = False,
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
