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

Rows are checked against the study's design: a word must be one of its category's stimuli
(seeds/implicit_association_words.csv) with the valence the stimuli give it (a contradicting valence would flip
the sign of the bias), a category one of the study's, and a pair id one of seeds/implicit_persona_pairs.csv that
the discipline shows. Results made with a user's own stimuli are accepted only with `own_stimuli=True`
(`--own-stimuli`), which the import's run records with the counts of rows outside the study's stimuli.
Numeric codes are read the same way everywhere: 1, 1.0 and 1e0 are the code 1 (order, explanation, symptoms,
iteration). Messages name rows, never quote free text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from biasmirror.imports.tables import (ImportValidationError, describe_columns, describe_rows, integer_code,
                                       read_table, repeated_columns)
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
    outside_stimuli: dict[str, int] = field(default_factory=dict)  # rows accepted under own_stimuli, by reason


def _frame(path: Path, required: tuple[str, ...], optional: tuple[str, ...]) -> tuple[pd.DataFrame, list[str]]:
    frame = read_table(path)  # refuses a header that repeats a name exactly
    columns = [str(c).strip().lower() for c in frame.columns]
    duplicated = repeated_columns(columns)
    if duplicated:  # the same name in another case: still two candidates for one column
        raise ImportValidationError(f"{path}: the header repeats column(s) {describe_columns(duplicated)} (names are "
                                    "read without case); keep one column of each name (nothing was imported)")
    frame = frame.set_axis(columns, axis=1)
    missing = [c for c in required if c not in columns]
    if missing:
        raise ImportValidationError(f"{path}: missing required column(s) {', '.join(missing)}; found: "
                                    f"{describe_columns(columns)}")
    if frame.empty:
        raise ImportValidationError(f"{path}: no rows")
    stripped = frame.reset_index(drop=True).apply(lambda column: column.map(lambda v: v.strip() if isinstance(v, str) else v))
    stripped = stripped.where(stripped.ne(""), None)
    return stripped, [c for c in columns if c not in required + optional]


def _required_text(frame: pd.DataFrame, column: str, errors: list[str]) -> None:
    empty = frame[column].isna()
    if empty.any():
        errors.append(describe_rows(frame, empty, f"have no {column}"))


def _choice(frame: pd.DataFrame, column: str, allowed: dict[str, object], errors: list[str], allow_empty: bool = False,
            label: str | None = None, numeric: bool = False) -> pd.Series:
    """The column mapped through `allowed` (keys are match_key forms; with `numeric`, whole numbers written as
    1.0 or 1e0 are read as 1); rows outside it are reported (numeric values shown, text only described)."""
    raw = frame[column].map(integer_code) if numeric else frame[column]
    keys = raw.map(lambda v: match_key(v) if isinstance(v, str) else None)
    mapped = keys.map(lambda k: allowed.get(k) if k is not None else None)
    bad = mapped.isna() & (keys.notna() | (not allow_empty))
    if bad.any():
        reason = f"have a {column} that is not {label or ' or '.join(sorted({str(v) for v in allowed.values()}))}"
        errors.append(describe_rows(frame, bad, reason, values=frame[column] if numeric else None))
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


OWN_STIMULI_HINT = ("; if these results come from your own stimuli, import them with --own-stimuli (recorded with "
                     "the import)")


def _against_stimuli(frame: pd.DataFrame, mask: pd.Series, reason: str, own_stimuli: bool, errors: list[str],
                     outside: dict[str, int], key: str, id_column: str | None = None) -> None:
    """Rows outside the study's design: an error, or (own_stimuli) counted for the import's run record."""
    if not mask.any():
        return
    if own_stimuli:
        outside[key] = int(mask.sum())
    else:
        errors.append(describe_rows(frame, mask, reason, id_column) + OWN_STIMULI_HINT)


def validate_associations(frame: pd.DataFrame, source: str,
                          own_stimuli: bool = False) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, int]]:
    """(responses, assignments, rows outside the stimuli by reason) ready to write, or ImportValidationError
    listing every problem. Words, categories and valences are checked against the study's stimuli unless
    `own_stimuli`."""
    errors: list[str] = []
    for column in ("model", "category", "word"):
        _required_text(frame, column, errors)
    languages = _choice(frame, "language", {lang: lang for lang in LANGUAGES}, errors)
    valences = _choice(frame, "valence", {v: v for v in VALENCES}, errors)
    groups = _choice(frame, "group", _group_choices(), errors, allow_empty=True, label="cisgender, transgender or empty")
    iterations = pd.to_numeric(frame["iteration"].map(integer_code), errors="coerce")
    bad_iteration = iterations.isna() | (iterations != iterations.round()) | (iterations < 0)
    if bad_iteration.any():
        errors.append(describe_rows(frame, bad_iteration, "have an iteration that is not a whole number >= 0",
                                    values=frame["iteration"]))
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))

    stimuli = load_stimuli()
    outside: dict[str, int] = {}
    known_categories = {match_key(c): c for c in stimuli.categories}
    category_keys = frame["category"].map(match_key)
    categories = category_keys.map(known_categories)
    unknown_category = categories.isna()
    _against_stimuli(frame, unknown_category, f"have a category that is not one of the study's "
                     f"({', '.join(stimuli.categories)})", own_stimuli, errors, outside, "unknown_category")
    categories = categories.where(~unknown_category, frame["category"])
    stimulus = {(w.language, w.category, match_key(w.word)): w for w in stimuli.words}
    word_keys = frame["word"].map(match_key)
    found = [stimulus.get((lang, cat, key)) for lang, cat, key in zip(languages, categories, word_keys)]
    unknown_word = pd.Series([w is None for w in found], index=frame.index) & ~unknown_category
    _against_stimuli(frame, unknown_word, "have a word that is not one of its category's stimuli in that language",
                     own_stimuli, errors, outside, "unknown_word")
    contradicts = pd.Series([w is not None and w.valence != v for w, v in zip(found, valences)], index=frame.index)
    _against_stimuli(frame, contradicts, "give a word the valence the stimuli do not (it would flip the sign of the "
                     "bias)", own_stimuli, errors, outside, "valence_differs_from_stimuli")
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))

    rows = pd.DataFrame({
        "model": frame["model"], "language": languages, "category": categories,
        "iteration": iterations.astype("int64"), "word": frame["word"], "valence": valences, "assigned_group": groups,
        "template_id": frame["template"] if "template" in frame.columns else None,
    })
    response_keys = ["model", "language", "category", "iteration"]
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

    rows["word_id"] = [w.word_id if w is not None else None for w in found]
    rows["position"] = rows.groupby(response_keys).cumcount() + 1
    rows["word_status"] = rows["assigned_group"].map(lambda g: "missing" if g is None or pd.isna(g) else "assigned")
    responses = rows.groupby(response_keys, as_index=False).agg(
        template_id=("template_id", "first"), n_words=("word", "size"),
        n_assigned=("assigned_group", lambda s: int(s.notna().sum())))
    responses["parse_status"] = [
        "ok" if assigned == words else ("partial" if assigned else "unparsed")
        for assigned, words in zip(responses.n_assigned, responses.n_words)
    ]
    return responses, rows, outside


def import_associations(path: Path, prompt_set: str = "imported", own_stimuli: bool = False) -> ImplicitImport:
    """Validate the file, then replace the rows of (model, prompt set, language) in one transaction."""
    _check_prompt_set(prompt_set)
    frame, ignored = _frame(path, ASSOCIATION_COLUMNS, ("template",))
    responses, assignments, outside = validate_associations(frame, str(path), own_stimuli)
    parameters = {"file": str(path), "prompt_set": prompt_set, "own_stimuli": own_stimuli,
                  "rows_outside_stimuli": outside}
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        with recorded_run("import_associations", parameters, connection=con, dataset="implicit") as run:
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
                          tuple(sorted(responses.language.unique())), tuple(ignored), outside)


def validate_allocations(frame: pd.DataFrame, source: str,
                         own_stimuli: bool = False) -> tuple[pd.DataFrame, dict[str, int]]:
    """(rows ready to write, rows outside the study's pairs by reason), or ImportValidationError listing every
    problem. Pair ids are checked against seeds/implicit_persona_pairs.csv and the discipline's pairs unless
    `own_stimuli`."""
    errors: list[str] = []
    for column in ("model", "pair_id"):
        _required_text(frame, column, errors)
    stimuli = load_stimuli()
    languages = _choice(frame, "language", {lang: lang for lang in LANGUAGES}, errors)
    disciplines = _choice(frame, "discipline", {match_key(d): d for d in stimuli.disciplines}, errors,
                          label=f"one of {', '.join(stimuli.disciplines)}")
    booleans = {**{t: True for t in TRUE}, **{f: False for f in FALSE}}
    explanation = _choice(frame, "explanation", booleans, errors, label="true or false", numeric=True)
    symptoms = _choice(frame, "symptoms", booleans, errors, label="true or false", numeric=True)
    order = _choice(frame, "order", {"1": 1, "2": 2}, errors, label="1 or 2", numeric=True)
    chosen = _choice(frame, "chosen", _group_choices(), errors, allow_empty=True,
                     label="cisgender, transgender or empty (a refusal)")
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))
    outside: dict[str, int] = {}
    known = {p.pair_id.lower(): p.pair_id for p in stimuli.pairs}
    pair_ids = frame["pair_id"].map(lambda v: known.get(str(v).lower()))
    unknown = pair_ids.isna()
    _against_stimuli(frame, unknown, "have a pair_id that is not in seeds/implicit_persona_pairs.csv", own_stimuli,
                     errors, outside, "unknown_pair_id", "pair_id")
    shown = {d: {p.pair_id for p in stimuli.pairs_for(d)} for d in stimuli.disciplines}
    not_shown = pd.Series([pid is not None and not pd.isna(pid) and pid not in shown[d]
                           for pid, d in zip(pair_ids, disciplines)], index=frame.index)
    _against_stimuli(frame, not_shown, "have a pair the study does not show for that discipline (its candidates' "
                     "sex assigned at birth does not fit it)", own_stimuli, errors, outside, "pair_not_in_discipline",
                     "pair_id")
    if errors:
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))
    rows = pd.DataFrame({
        "model": frame["model"], "language": languages, "discipline": disciplines,
        "explanation": explanation.astype(bool), "symptoms": symptoms.astype(bool),
        "pair_id": pair_ids.where(pair_ids.notna(), frame["pair_id"]),
        "presentation_order": order.astype("int64"), "chosen_group": chosen,
    })
    repeated = rows.drop(columns=["chosen_group"]).duplicated(keep=False)
    if repeated.any():
        errors.append(describe_rows(frame, repeated, "repeat a (model, language, discipline, explanation, symptoms, pair_id, order)", "pair_id"))
        raise ImportValidationError(f"{source}: nothing was imported.\n  - " + "\n  - ".join(errors))
    rows["parse_status"] = rows["chosen_group"].map(lambda g: "refused" if g is None or pd.isna(g) else "ok")
    return rows, outside


def import_allocations(path: Path, prompt_set: str = "imported", own_stimuli: bool = False) -> ImplicitImport:
    """Validate the file, then replace the rows of (model, prompt set, language) in one transaction."""
    _check_prompt_set(prompt_set)
    frame, ignored = _frame(path, ALLOCATION_COLUMNS, ())
    rows, outside = validate_allocations(frame, str(path), own_stimuli)
    parameters = {"file": str(path), "prompt_set": prompt_set, "own_stimuli": own_stimuli,
                  "rows_outside_stimuli": outside}
    with connect() as con:
        ensure_inference_tables(con)
        con.begin()
        with recorded_run("import_allocations", parameters, connection=con, dataset="implicit") as run:
            import_id = run.run_id
            _replace(con, ("implicit_allocation_responses",), rows[["model", "language"]], prompt_set)
            append_rows(con, "implicit_allocation_responses", rows.assign(
                run_id=import_id, source="imported", backend="import", prompt_set=prompt_set, created_at=utc_now()))
            run.n_items = len(rows)
        con.commit()
    return ImplicitImport(import_id, len(rows), len(rows), tuple(sorted(rows.model.unique())),
                          tuple(sorted(rows.language.unique())), tuple(ignored), outside)
