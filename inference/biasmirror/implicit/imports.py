"""Importing word-association and allocation results produced elsewhere (e.g. another study's released data).

`biasmirror import-associations PATH`: one row per word shown: model, language (en | es), iteration, category,
word, valence (positive | negative), group (cisgender | transgender; empty when the answer gave the word no
group), and optionally template. Rows with the same model, language, category and iteration are one answer.

`biasmirror import-allocations PATH`: one row per answer: model, language, discipline (an id of
seeds/implicit_disciplines.csv), explanation (true | false), symptoms (true | false), pair_id, order (1 = the
cisgender candidate was listed first, 2 = the transgender candidate was), chosen (cisgender | transgender, or
empty for a refusal).

Files are CSV, CSV.gz, TSV or Parquet. Every problem is reported at once with row numbers, and nothing is
written unless the whole file is valid. Rows are stored under a prompt set name (default `imported`); importing
the same model, prompt set and language again replaces the earlier rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from biasmirror.imports.tables import ImportValidationError, describe_rows, read_table
from biasmirror.implicit.parsing import GROUP_ALIASES, match_key
from biasmirror.implicit.prompts import NAME_PATTERN
from biasmirror.implicit.stimuli import LANGUAGES, VALENCES, load_stimuli
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.runs import recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

ASSOCIATION_COLUMNS = ("model", "language", "iteration", "category", "word", "valence", "group")
ALLOCATION_COLUMNS = ("model", "language", "discipline", "explanation", "symptoms", "pair_id", "order", "chosen")
TRUE, FALSE = ("true", "t", "1", "yes"), ("false", "f", "0", "no")


@dataclass(frozen=True)
class ImplicitImport:
    import_id: str
    n_rows: int
    n_responses: int
    models: tuple[str, ...]
    languages: tuple[str, ...]
    ignored_columns: tuple[str, ...]


def _frame(path: Path, required: tuple[str, ...], optional: tuple[str, ...]) -> tuple[pd.DataFrame, list[str]]:
    frame = read_table(path)
    columns = [str(c).strip().lower() for c in frame.columns]
    frame = frame.set_axis(columns, axis=1)
    missing = [c for c in required if c not in columns]
    if missing:
        raise ImportValidationError(f"{path}: missing required column(s) {', '.join(missing)}; found: {', '.join(columns)}")
    duplicated = sorted({c for c in columns if columns.count(c) > 1})
    if duplicated:
        raise ImportValidationError(f"{path}: duplicated column(s) {', '.join(duplicated)}")
    if frame.empty:
        raise ImportValidationError(f"{path}: no rows")
    stripped = frame.reset_index(drop=True).apply(lambda column: column.map(lambda v: v.strip() if isinstance(v, str) else v))
    stripped = stripped.where(stripped.ne(""), None)
    return stripped, [c for c in columns if c not in required + optional]


def _required_text(frame: pd.DataFrame, column: str, errors: list[str]) -> None:
    empty = frame[column].isna()
    if empty.any():
        errors.append(describe_rows(frame, empty, f"have no {column}"))


def _choice(frame: pd.DataFrame, column: str, allowed: dict[str, str], errors: list[str], allow_empty: bool = False,
            label: str | None = None) -> pd.Series:
    """The column mapped through `allowed` (keys are match_key forms); rows outside it are reported."""
    keys = frame[column].map(lambda v: match_key(v) if isinstance(v, str) else None)
    mapped = keys.map(lambda k: allowed.get(k) if k is not None else None)
    bad = mapped.isna() & (keys.notna() | (not allow_empty))
    if bad.any():
        errors.append(describe_rows(frame, bad, f"have a {column} that is not {label or ' or '.join(sorted(set(allowed.values())))}"))
    return mapped


def _group_choices() -> dict[str, str]:
    return {alias: group for group, aliases in GROUP_ALIASES.items() for alias in aliases}


def _replace(con, tables: tuple[str, ...], keys: pd.DataFrame, prompt_set: str) -> None:
    """Delete earlier imported rows of the same (model, prompt set, language); refuse to touch generated ones."""
    for model, language in keys.drop_duplicates().itertuples(index=False):
        generated = con.execute(
            f"select count(*) from inference.{tables[0]} where model = ? and prompt_set = ? and language = ? and source <> 'imported'",
            [model, prompt_set, language]).fetchone()[0]
        if generated:
            raise ImportValidationError(
                f"{model!r} already has {generated:,} answers generated here under prompt set {prompt_set!r} ({language}); "
                "import under another --prompt-set")
        for table in tables:
            con.execute(f"delete from inference.{table} where model = ? and prompt_set = ? and language = ?",
                        [model, prompt_set, language])


def _check_prompt_set(prompt_set: str) -> None:
    if not NAME_PATTERN.match(prompt_set or ""):
        raise ImportValidationError(f"--prompt-set must be a short name (letters, digits, . _ -), got {prompt_set!r}")


def validate_associations(frame: pd.DataFrame, source: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(responses, assignments) ready to write, or ImportValidationError listing every problem."""
    errors: list[str] = []
    for column in ("model", "category", "word"):
        _required_text(frame, column, errors)
    languages = _choice(frame, "language", {lang: lang for lang in LANGUAGES}, errors)
    valences = _choice(frame, "valence", {v: v for v in VALENCES}, errors)
    groups = _choice(frame, "group", _group_choices(), errors, allow_empty=True, label="cisgender, transgender or empty")
    iterations = pd.to_numeric(frame["iteration"], errors="coerce")
    bad_iteration = iterations.isna() | (iterations != iterations.round()) | (iterations < 0)
    if bad_iteration.any():
        errors.append(describe_rows(frame, bad_iteration, "have an iteration that is not a whole number >= 0"))
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))

    rows = pd.DataFrame({
        "model": frame["model"], "language": languages, "category": frame["category"],
        "iteration": iterations.astype("int64"), "word": frame["word"], "valence": valences, "assigned_group": groups,
        "template_id": frame["template"] if "template" in frame.columns else None,
    })
    response_keys = ["model", "language", "category", "iteration"]
    word_keys = rows["word"].map(match_key)
    repeated = pd.DataFrame({**{k: rows[k] for k in response_keys}, "w": word_keys}).duplicated(keep=False)
    if repeated.any():
        errors.append(describe_rows(frame, repeated, "repeat a word within one answer (model, language, category, iteration)"))
    if "template" in frame.columns:
        templates = rows.groupby(response_keys, dropna=False)["template_id"].transform(lambda s: s.nunique(dropna=False))
        mixed = templates > 1
        if mixed.any():
            errors.append(describe_rows(frame, mixed, "give different templates within one answer"))
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))

    stimuli = load_stimuli()
    word_ids = {(w.language, w.category, match_key(w.word)): w.word_id for w in stimuli.words}
    rows["word_id"] = [word_ids.get((lang, cat, key)) for lang, cat, key in zip(rows.language, rows.category, word_keys)]
    rows["position"] = rows.groupby(response_keys).cumcount() + 1
    rows["word_status"] = rows["assigned_group"].map(lambda g: "missing" if g is None or pd.isna(g) else "assigned")
    responses = rows.groupby(response_keys, as_index=False).agg(
        template_id=("template_id", "first"), n_words=("word", "size"),
        n_assigned=("assigned_group", lambda s: int(s.notna().sum())))
    responses["parse_status"] = [
        "ok" if assigned == words else ("partial" if assigned else "unparsed")
        for assigned, words in zip(responses.n_assigned, responses.n_words)
    ]
    return responses, rows


def import_associations(path: Path, prompt_set: str = "imported") -> ImplicitImport:
    _check_prompt_set(prompt_set)
    frame, ignored = _frame(path, ASSOCIATION_COLUMNS, ("template",))
    responses, assignments = validate_associations(frame, str(path))
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        with recorded_run("import_associations", {"file": str(path), "prompt_set": prompt_set}, connection=con,
                          dataset="implicit") as run:
            import_id = run.run_id
            _replace(con, ("implicit_association_responses", "implicit_association_assignments"),
                     responses[["model", "language"]], prompt_set)
            now = utc_now()
            append_rows(con, "implicit_association_responses", responses.assign(
                run_id=import_id, source="imported", backend="import", prompt_set=prompt_set, created_at=now))
            append_rows(con, "implicit_association_assignments", assignments.drop(columns=["template_id"]).assign(
                run_id=import_id, prompt_set=prompt_set))
            run.n_items = len(responses)
        con.commit()
    return ImplicitImport(import_id, len(assignments), len(responses), tuple(sorted(responses.model.unique())),
                          tuple(sorted(responses.language.unique())), tuple(ignored))


def validate_allocations(frame: pd.DataFrame, source: str) -> pd.DataFrame:
    errors: list[str] = []
    for column in ("model", "pair_id"):
        _required_text(frame, column, errors)
    stimuli = load_stimuli()
    languages = _choice(frame, "language", {lang: lang for lang in LANGUAGES}, errors)
    disciplines = _choice(frame, "discipline", {match_key(d): d for d in stimuli.disciplines}, errors,
                          label=f"one of {', '.join(stimuli.disciplines)}")
    booleans = {**{t: True for t in TRUE}, **{f: False for f in FALSE}}
    explanation = _choice(frame, "explanation", booleans, errors, label="true or false")
    symptoms = _choice(frame, "symptoms", booleans, errors, label="true or false")
    order = _choice(frame, "order", {"1": 1, "2": 2}, errors, label="1 or 2")
    chosen = _choice(frame, "chosen", _group_choices(), errors, allow_empty=True,
                     label="cisgender, transgender or empty (a refusal)")
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))
    rows = pd.DataFrame({
        "model": frame["model"], "language": languages, "discipline": disciplines,
        "explanation": explanation.astype(bool), "symptoms": symptoms.astype(bool), "pair_id": frame["pair_id"],
        "presentation_order": order.astype("int64"), "chosen_group": chosen,
    })
    repeated = rows.drop(columns=["chosen_group"]).duplicated(keep=False)
    if repeated.any():
        errors.append(describe_rows(frame, repeated, "repeat a (model, language, discipline, explanation, symptoms, pair_id, order)", "pair_id"))
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))
    rows["parse_status"] = rows["chosen_group"].map(lambda g: "refused" if g is None or pd.isna(g) else "ok")
    return rows


def import_allocations(path: Path, prompt_set: str = "imported") -> ImplicitImport:
    _check_prompt_set(prompt_set)
    frame, ignored = _frame(path, ALLOCATION_COLUMNS, ())
    rows = validate_allocations(frame, str(path))
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        with recorded_run("import_allocations", {"file": str(path), "prompt_set": prompt_set}, connection=con,
                          dataset="implicit") as run:
            import_id = run.run_id
            _replace(con, ("implicit_allocation_responses",), rows[["model", "language"]], prompt_set)
            append_rows(con, "implicit_allocation_responses", rows.assign(
                run_id=import_id, source="imported", backend="import", prompt_set=prompt_set, created_at=utc_now()))
            run.n_items = len(rows)
        con.commit()
    return ImplicitImport(import_id, len(rows), len(rows), tuple(sorted(rows.model.unique())),
                          tuple(sorted(rows.language.unique())), tuple(ignored))
