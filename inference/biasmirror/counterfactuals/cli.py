"""Command-line commands of the counterfactual copies: `swap` (preview the rule swapper on lines of text) and
`review export` / `review import` (the study's manual review).

Registered on the main `biasmirror` app by `register(app)` (inference/biasmirror/cli.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Iterable, Iterator, Optional

import typer

# every message goes to standard error: `swap` writes its result on standard output
from biasmirror.cli_options import error_console as console
from biasmirror.cli_options import fail

review_app = typer.Typer(help="The study's manual review of counterfactual copies (export a sample, import verdicts).",
                         no_args_is_help=True)
BATCH = 512


def _batches(lines: Iterable[str], interactive: bool) -> Iterator[list[str]]:
    """Lines without their line break, one at a time from a terminal, in batches from a pipe or file."""
    batch: list[str] = []
    for line in lines:
        batch.append(line[:-1] if line.endswith("\n") else line)
        if interactive or len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def verdict(words: list) -> str:
    """'ok', or 'residual: N' followed by each word still signalling the original sex and why."""
    if not words:
        return "ok"
    return f"residual: {len(words)} (" + "; ".join(f"{w.text} [{w.reason}]" for w in words) + ")"


def swap_command(
    to: Annotated[str, typer.Option("--to", help="Sex of the copy: F or M (each line describes a patient of the other sex).")],
    language: Annotated[str, typer.Option(help="Language of the lines: en, fr or es.")] = "en",
    check: Annotated[bool, typer.Option("--check", help="Append a tab and the validity verdict of each swapped line.")] = False,
) -> None:
    """Swap the sex of each line read on standard input and write it on standard output (one line out per line
    in): a preview of what the rule generator does before an audit."""
    from biasmirror.counterfactuals.checks import residual_words_many
    from biasmirror.counterfactuals.rules import supported_languages, swap_many

    target = to.strip().upper()
    if target not in ("F", "M"):
        fail(f"--to must be F or M, got {to!r}", stderr=True)
    if language not in supported_languages():
        fail(f"unsupported language {language!r}; supported languages: {', '.join(supported_languages())}", stderr=True)
    original = "M" if target == "F" else "F"
    out = sys.stdout
    for batch in _batches(sys.stdin, sys.stdin.isatty()):
        swapped = [r.text for r in swap_many(batch, target, language)]
        if check:
            residual = residual_words_many(swapped, [original] * len(swapped), language, originals=batch)
            lines = [f"{text}\t{verdict(words)}" for text, words in zip(swapped, residual)]
        else:
            lines = [text or "" for text in swapped]
        out.write("\n".join(lines) + "\n")
        out.flush()


@review_app.command("export")
def review_export(
    dataset: Annotated[str, typer.Option(help="Data set whose copies to sample.")],
    out: Annotated[Path, typer.Option(help="CSV file to write (UTF-8 with BOM: opens in a spreadsheet).")],
    n: Annotated[int, typer.Option("--n", help="Copies to sample, spread equally over languages and generators.")] = 200,
    generator: Annotated[Optional[str], typer.Option(help="Only this generator (default: every sex-swap generator, no placebo).")] = None,
    language: Annotated[Optional[str], typer.Option(help="Only records in this language.")] = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed and copies give the same sample.")] = 0,
) -> None:
    """Write a stratified random sample of copies with their originals for a clinician to judge."""
    from biasmirror.counterfactuals.review import ReviewError, export_sample

    try:
        result = export_sample(dataset, out, n=n, generator=generator, seed=seed, language=language)
    except (ReviewError, FileNotFoundError, RuntimeError) as error:
        fail(str(error), stderr=True)
    console.print(f"{result.rows} copies written to {result.path} (seed {seed}):")
    for (lang, gen), count in sorted(result.strata.items()):
        console.print(f"  {lang or '?'} / {gen}: {count} of {result.available[(lang, gen)]:,}", markup=False)
    console.print("Fill in judgement (valid or invalid) and, for invalid copies, reason; then "
                  "`biasmirror review import FILE`.")


@review_app.command("import")
def review_import(
    path: Annotated[Path, typer.Argument(help="The filled review file (CSV, as exported).")],
    reviewer: Annotated[Optional[str], typer.Option(help="Reviewer name for every row (default: the file's reviewer column).")] = None,
    allow_blank: Annotated[bool, typer.Option("--allow-blank", help="Skip rows without a judgement instead of failing.")] = False,
) -> None:
    """Validate a filled review file and load its verdicts (nothing is loaded when a row is wrong)."""
    from biasmirror.counterfactuals.review import ReviewError, import_reviews

    try:
        result = import_reviews(path, reviewer=reviewer, allow_blank=allow_blank)
    except (ReviewError, FileNotFoundError, RuntimeError) as error:
        fail(str(error), stderr=True)
    console.print(f"{result.rows} verdicts imported ({result.invalid} invalid; {result.replaced} replaced an earlier "
                  f"verdict; {result.skipped_blank} blank rows skipped); run {result.run_id}. "
                  "`biasmirror build` updates audit.counterfactual_review.")


def register(app: typer.Typer) -> None:
    """Add `swap` and `review` to the main app."""
    app.command("swap")(swap_command)
    app.add_typer(review_app, name="review")
