"""The study's manual review of counterfactual copies: a stratified sample for a clinician, and their verdicts.

* :func:`export_sample` writes a random sample of copies (status ok) stratified by language and generator, with
  the original and copied texts side by side, as a CSV file that opens in a spreadsheet (UTF-8 with a byte-order
  mark, which Excel needs to read accents; one row per copy; record ids only, no other identifier). The same
  seed and the same copies give the same sample.
* :func:`import_reviews` validates the filled file strictly and loads the verdicts into
  inference.counterfactual_reviews; audit.counterfactual_review gives the invalid share with an exact
  (Clopper-Pearson) interval per language and generator.

Cells that start with =, +, - or @ are written with a leading apostrophe, so that a spreadsheet shows them as
text instead of running them as formulas. Error messages name lines and columns, never a cell's text.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biasmirror.counterfactuals.base import PLACEBO_SUFFIX
from biasmirror.warehouse import connect, ensure_inference_tables
from biasmirror.warehouse.catalog import has_table, table_names
from biasmirror.warehouse.runs import recorded_run
from biasmirror.warehouse.writes import append_rows, utc_now

__all__ = ["ReviewError", "ExportResult", "ImportResult", "export_sample", "import_reviews", "EXPORT_COLUMNS"]

KEY_COLUMNS = ("dataset", "record_id", "generator")
EXPORT_COLUMNS = ("review_id", "dataset", "record_id", "generator", "language", "original_sex", "counterfactual_sex",
                  "original_hpi", "copy_hpi", "original_pmh", "copy_pmh", "judgement", "reason", "reviewer")
REQUIRED_COLUMNS = ("dataset", "record_id", "generator", "judgement", "reason")
JUDGEMENTS = ("valid", "invalid")
MAX_LISTED = 20
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class ReviewError(ValueError):
    """A review file that cannot be exported or imported; the message names the lines and columns at fault."""


@dataclass(frozen=True)
class ExportResult:
    path: Path
    rows: int
    strata: dict[tuple[str, str], int]  # (language, generator) -> copies sampled
    available: dict[tuple[str, str], int]  # (language, generator) -> copies to sample from


@dataclass(frozen=True)
class ImportResult:
    rows: int
    invalid: int
    replaced: int
    skipped_blank: int
    run_id: str


def _safe_cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def allocate(sizes: dict[tuple[str, str], int], n: int) -> dict[tuple[str, str], int]:
    """Equal allocation of ``n`` over strata, capped by each stratum's size; what a small stratum cannot take goes
    to the others (largest remainder first, ties by stratum key)."""
    allocation = {key: 0 for key in sizes}
    left = min(n, sum(sizes.values()))
    open_strata = sorted(key for key, size in sizes.items() if size > 0)
    while left > 0 and open_strata:
        share, extra = divmod(left, len(open_strata))
        for i, key in enumerate(open_strata):
            take = min(share + (1 if i < extra else 0), sizes[key] - allocation[key])
            allocation[key] += take
            left -= take
        open_strata = [key for key in open_strata if allocation[key] < sizes[key]]
    return allocation


def export_sample(dataset: str, out: Path, n: int = 200, generator: str | None = None, seed: int = 0,
                  language: str | None = None) -> ExportResult:
    """Write a stratified random sample of ``n`` copies (status ok) of ``dataset`` to ``out`` (see the module
    docstring). Placebo generators are left out unless ``generator`` names one."""
    if n < 1:
        raise ReviewError("--n must be at least 1")
    with connect(read_only=True, working=True) as con:
        tables = table_names(con)
        if "inference.counterfactuals" not in tables or "audit.triage_cohort" not in tables:
            raise ReviewError("no counterfactual copies yet: run `biasmirror counterfactuals` (after `biasmirror build`)")
        params: list[Any] = [dataset]
        where = "c.dataset = ? and c.status = 'ok'"
        if generator:
            where += " and c.generator = ?"
            params.append(generator)
        else:
            where += f" and c.generator not like '%{PLACEBO_SUFFIX}'"
        if language:
            where += " and t.language = ?"
            params.append(language)
        frame = con.execute(f"""
            select c.dataset, c.record_id, c.generator, t.language, c.original_sex, c.counterfactual_sex,
                   t.hpi as original_hpi, c.hpi as copy_hpi, t.pmh as original_pmh, c.pmh as copy_pmh
            from inference.counterfactuals c
            join audit.triage_cohort t on t.dataset = c.dataset and t.record_id = c.record_id
            where {where}
            order by t.language, c.generator, c.record_id""", params).df()
    if frame.empty:
        what = f"generator {generator!r}" if generator else "any generator"
        raise ReviewError(f"no copies with status ok for data set {dataset!r} and {what}")
    frame["language"] = frame["language"].fillna("")
    sizes = {key: len(group) for key, group in frame.groupby(["language", "generator"], sort=True)}
    allocation = allocate(sizes, n)
    rng = np.random.default_rng(seed)
    picked = []
    for key in sorted(sizes):
        group = frame[(frame["language"] == key[0]) & (frame["generator"] == key[1])]
        take = allocation[key]
        if take:
            index = np.sort(rng.choice(len(group), size=take, replace=False))
            picked.append(group.iloc[index])
        else:
            rng.random()  # keep the draws of later strata independent of this one's size
    sample = pd.concat(picked, ignore_index=True)
    order = rng.permutation(len(sample))  # shuffled, so that the reviewer does not see strata in blocks
    sample = sample.iloc[order].reset_index(drop=True)
    sample.insert(0, "review_id", range(1, len(sample) + 1))
    for column in ("judgement", "reason", "reviewer"):
        sample[column] = ""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in sample[list(EXPORT_COLUMNS)].itertuples(index=False):
        writer.writerow([_safe_cell(v) for v in row])
    out.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    with connect() as con:
        ensure_inference_tables(con)
        with recorded_run("review_export", {"n": n, "seed": seed, "generator": generator, "language": language,
                                            "file": out.name,
                                            "strata": {f"{k[0]}/{k[1]}": v for k, v in allocation.items()}},
                          connection=con, dataset=dataset, generator=generator) as run:
            run.n_items = len(sample)
    return ExportResult(out, len(sample), {k: v for k, v in allocation.items() if v}, sizes)


def _read_rows(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise ReviewError(f"no such review file: {path}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReviewError(f"{path}: not UTF-8 text (byte {error.start}); save the sheet as 'CSV UTF-8'") from None
    dialect: Any = csv.excel
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        pass
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        header = next(reader)
    except StopIteration:
        raise ReviewError(f"{path}: the file is empty") from None
    header = [h.strip().lower() for h in header]
    rows = []
    for values in reader:
        if not any(v.strip() for v in values):
            continue
        rows.append((reader.line_num, dict(zip(header, values))))
    return header, rows


def import_reviews(path: Path, reviewer: str | None = None, allow_blank: bool = False) -> ImportResult:
    """Validate a filled review file and load its verdicts into inference.counterfactual_reviews.

    Every row needs the copy's dataset, record_id and generator (an existing copy, once per file), a judgement
    'valid' or 'invalid' (any case) and, for 'invalid', a reason. Rows without a judgement are an error, or are
    skipped with ``allow_blank``. Nothing is written when any row is wrong. A verdict replaces an earlier one of
    the same reviewer for the same copy."""
    path = Path(path)
    header, rows = _read_rows(path)
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise ReviewError(f"{path.name}: missing column(s) {', '.join(missing)} (the exported header is "
                          f"{', '.join(EXPORT_COLUMNS)})")
    if len(set(header)) != len(header):
        raise ReviewError(f"{path.name}: a column name appears twice in the header")
    problems: list[str] = []
    records: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], int] = {}
    skipped = 0
    for line, row in rows:
        key = tuple((row.get(c) or "").strip() for c in KEY_COLUMNS)
        empty = [c for c, v in zip(KEY_COLUMNS, key) if not v]
        if empty:
            problems.append(f"line {line}: {', '.join(empty)} is empty")
            continue
        judgement = (row.get("judgement") or "").strip().lower()
        reason = (row.get("reason") or "").strip()
        if not judgement:
            if allow_blank:
                skipped += 1
                continue
            problems.append(f"line {line}: judgement is empty (expected valid or invalid; --allow-blank skips such rows)")
            continue
        if judgement not in JUDGEMENTS:
            problems.append(f"line {line}: judgement must be valid or invalid")
            continue
        if judgement == "invalid" and not reason:
            problems.append(f"line {line}: an invalid copy needs a reason")
            continue
        if key in seen:
            problems.append(f"line {line}: the same copy as line {seen[key]} (dataset, record_id, generator)")
            continue
        seen[key] = line
        who = reviewer if reviewer is not None else (row.get("reviewer") or "").strip()
        records.append({"dataset": key[0], "record_id": key[1], "generator": key[2], "judgement": judgement,
                        "reason": reason or None, "reviewer": who or None, "line": line})
    if not problems and not records:
        problems.append("no judged row in the file")
    with connect() as con:
        ensure_inference_tables(con)
        if records:
            keys = pd.DataFrame([{k: r[k] for k in (*KEY_COLUMNS, "line")} for r in records])
            con.register("_review_keys", keys)
            try:
                known = con.execute("""
                    select k.line, t.language from _review_keys k
                    left join inference.counterfactuals c
                      on c.dataset = k.dataset and c.record_id = k.record_id and c.generator = k.generator
                    left join audit.triage_cohort t on t.dataset = k.dataset and t.record_id = k.record_id
                    where c.record_id is not null""").fetchall() if has_table(con, "audit", "triage_cohort") else \
                    con.execute("""
                    select k.line, null from _review_keys k join inference.counterfactuals c
                      on c.dataset = k.dataset and c.record_id = k.record_id and c.generator = k.generator""").fetchall()
            finally:
                con.unregister("_review_keys")
            languages = {line: language for line, language in known}
            for r in records:
                if r["line"] not in languages:
                    problems.append(f"line {r['line']}: no such copy in inference.counterfactuals "
                                    "(dataset, record_id and generator must be those of the exported file)")
                r["language"] = languages.get(r["line"])
        if problems:
            listed = problems[:MAX_LISTED]
            more = f" (and {len(problems) - MAX_LISTED} more)" if len(problems) > MAX_LISTED else ""
            raise ReviewError(f"{path.name}: {len(problems)} problem(s){more}; nothing imported:\n  " + "\n  ".join(listed))
        con.begin()
        # the run row commits with the verdicts, or not at all
        with recorded_run("review_import", {"file": path.name, "rows": len(records), "reviewer": reviewer,
                                            "allow_blank": allow_blank, "skipped_blank": skipped},
                          connection=con) as run:
            frame = pd.DataFrame([{**{k: r[k] for k in (*KEY_COLUMNS, "language", "judgement", "reason", "reviewer")},
                                   "source_file": path.name, "run_id": run.run_id, "imported_at": utc_now()}
                                  for r in records])
            con.register("_review_rows", frame[list(KEY_COLUMNS) + ["reviewer"]])
            replaced = con.execute("""
                select count(*) from inference.counterfactual_reviews r join _review_rows n
                  on r.dataset = n.dataset and r.record_id = n.record_id and r.generator = n.generator
                 and r.reviewer is not distinct from n.reviewer""").fetchone()[0]
            con.execute("""
                delete from inference.counterfactual_reviews r using _review_rows n
                where r.dataset = n.dataset and r.record_id = n.record_id and r.generator = n.generator
                  and r.reviewer is not distinct from n.reviewer""")
            con.unregister("_review_rows")
            append_rows(con, "counterfactual_reviews", frame)
            run.n_items = len(frame)
        con.commit()
        run_id = run.run_id
    return ImportResult(len(frame), int((frame["judgement"] == "invalid").sum()), int(replaced), skipped, run_id)
