"""`biasmirror import-associations` and `import-allocations`: what is written, replacement, and bad files
rejected with clear messages and nothing written."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.cli import app
from biasmirror.imports.tables import ImportValidationError
from biasmirror.implicit.imports import import_allocations, import_associations
from warehouse_workspace import Workspace


def association_frame() -> pd.DataFrame:
    rows = []
    words = [("safe", "positive"), ("peace", "positive"), ("danger", "negative"), ("threat", "negative")]
    for model in ("m1", "m2"):
        for iteration in range(3):
            for word, valence in words:
                group = "transgender" if valence == "negative" else "cisgender"
                if iteration == 1 and word == "safe":
                    group = ""  # the answer gave this word no group -> partial
                if iteration == 2:
                    group = ""  # nothing assigned -> unparsed
                rows.append({"model": model, "language": "en", "iteration": iteration, "category": "risk",
                             "word": word, "valence": valence, "group": group, "template": f"t{iteration % 2}"})
    rows.append({"model": "m1", "language": "es", "iteration": 0, "category": "risk", "word": "Peligro",
                 "valence": "negative", "group": "Transgénero", "template": "t0"})
    return pd.DataFrame(rows)


def allocation_frame() -> pd.DataFrame:
    rows = []
    for pair in range(4):
        for order in (1, 2):
            chosen = "transgender" if (pair + order) % 2 else "cisgender"
            if pair == 3 and order == 2:
                chosen = ""  # a refusal
            rows.append({"model": "m1", "language": "es", "discipline": "hiv", "explanation": "false",
                         "symptoms": "TRUE", "pair_id": f"F00{pair + 1}", "order": order, "chosen": chosen})
    return pd.DataFrame(rows)


def write(path: Path, frame: pd.DataFrame) -> Path:
    frame.to_csv(path, index=False)
    return path


def count(workspace: Workspace, table: str) -> int:
    if not workspace.working.exists():  # imports write the working copy
        return 0
    with duckdb.connect(str(workspace.working), read_only=True) as con:
        exists = con.execute("select count(*) from information_schema.tables where table_schema = 'inference' "
                             "and table_name = ?", [table]).fetchone()[0]
        return con.execute(f"select count(*) from inference.{table}").fetchone()[0] if exists else 0


def test_association_import_writes_answers_and_words_with_statuses(workspace: Workspace) -> None:
    path = write(workspace.root / "assoc.csv", association_frame())
    with workspace.active():
        result = import_associations(path)
        again = import_associations(path)  # replaces, does not duplicate
    assert (result.n_rows, result.n_responses, result.models, result.languages) == (25, 7, ("m1", "m2"), ("en", "es"))
    assert again.n_responses == 7 and count(workspace, "implicit_association_responses") == 7
    assert count(workspace, "implicit_association_assignments") == 25
    responses = workspace.query("select model, language, iteration, parse_status, n_words, n_assigned, template_id, source, "
                                "prompt_set from inference.implicit_association_responses order by model, language, iteration")
    m1 = responses[(responses.model == "m1") & (responses.language == "en")]
    assert list(m1.parse_status) == ["ok", "partial", "unparsed"]
    assert list(m1.n_assigned) == [4, 3, 0] and list(m1.template_id) == ["t0", "t1", "t0"]
    assert set(responses.source) == {"imported"} and set(responses.prompt_set) == {"imported"}
    words = workspace.query("select word, word_id, assigned_group, word_status from inference.implicit_association_assignments "
                            "where model = 'm1' and language = 'es'")
    assert words.to_dict("records") == [{"word": "Peligro", "word_id": "risk_n04", "assigned_group": "transgender",
                                         "word_status": "assigned"}]


def test_allocation_import_maps_orders_and_refusals(workspace: Workspace) -> None:
    path = write(workspace.root / "alloc.csv", allocation_frame())
    with workspace.active():
        result = import_allocations(path, prompt_set="paper")
    assert result.n_rows == 8
    rows = workspace.query("select pair_id, presentation_order, chosen_group, parse_status, explanation, symptoms, prompt_set "
                           "from inference.implicit_allocation_responses order by pair_id, presentation_order")
    assert list(rows.parse_status).count("refused") == 1
    assert rows.chosen_group.isna().sum() == 1
    assert set(rows.explanation) == {False} and set(rows.symptoms) == {True} and set(rows.prompt_set) == {"paper"}
    assert list(rows.presentation_order) == [1, 2] * 4


def drop(column: str):
    return lambda f: f.drop(columns=[column])


@pytest.mark.parametrize("mutate, message", [
    (drop("valence"), "missing required column(s) valence"),
    (lambda f: f.assign(language=["fr"] + list(f.language[1:])), "1 row(s) have a language that is not en or es: row 1"),
    (lambda f: f.assign(valence=["neutral"] + list(f.valence[1:])), "have a valence that is not negative or positive: row 1"),
    (lambda f: f.assign(group=["agender"] + list(f.group[1:])), "have a group that is not cisgender, transgender or empty: row 1"),
    (lambda f: f.assign(iteration=["1.5"] + list(f.iteration[1:].astype(str))), "have an iteration that is not a whole number >= 0: row 1"),
    (lambda f: f.assign(word=["peace"] + list(f.word[1:])), "2 row(s) repeat a word within one answer"),
    (lambda f: f.assign(template=["other"] + list(f.template[1:])), "give different templates within one answer"),
    (lambda f: f.assign(model=[None] + list(f.model[1:])), "1 row(s) have no model: row 1"),
    (lambda f: f.iloc[0:0], "no rows"),
])
def test_bad_association_files_are_rejected_and_nothing_is_written(workspace: Workspace, mutate, message) -> None:
    good = write(workspace.root / "good.csv", association_frame())
    with workspace.active():
        import_associations(good)
    bad = write(workspace.root / "bad.csv", mutate(association_frame()))
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        import_associations(bad)
    assert message in str(error.value) and str(bad) in str(error.value)
    assert count(workspace, "implicit_association_responses") == 7
    assert count(workspace, "implicit_association_assignments") == 25


@pytest.mark.parametrize("mutate, message", [
    (drop("chosen"), "missing required column(s) chosen"),
    (lambda f: f.assign(discipline=["dermatology"] + list(f.discipline[1:])), "1 row(s) have a discipline that is not one of hiv, sti"),
    (lambda f: f.assign(order=[3] + list(f.order[1:])), "have a order that is not 1 or 2: row 1"),
    (lambda f: f.assign(chosen=["both"] + list(f.chosen[1:])), "have a chosen that is not cisgender, transgender or empty (a refusal): row 1"),
    (lambda f: f.assign(explanation=["maybe"] + list(f.explanation[1:])), "have a explanation that is not true or false: row 1"),
    (lambda f: f.assign(order=[2] + list(f.order[1:])), "2 row(s) repeat a (model, language, discipline, explanation, symptoms, pair_id, order): row 1 (pair_id=F001), row 2 (pair_id=F001)"),
    (lambda f: f.assign(pair_id=[None] + list(f.pair_id[1:])), "have no pair_id: row 1"),
])
def test_bad_allocation_files_are_rejected_and_nothing_is_written(workspace: Workspace, mutate, message) -> None:
    with workspace.active():
        import_allocations(write(workspace.root / "good.csv", allocation_frame()))
    bad = write(workspace.root / "bad.csv", mutate(allocation_frame()))
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        import_allocations(bad)
    assert message in str(error.value)
    assert count(workspace, "implicit_allocation_responses") == 8


@pytest.mark.slow  # a simulated study run, then imports
def test_an_import_never_overwrites_answers_generated_here(workspace: Workspace) -> None:
    from biasmirror.backends.registry import make_backend
    from biasmirror.implicit.runs import run_allocation

    with workspace.active():
        run_allocation(make_backend("simulated", "m1"), languages=["es"], disciplines=["hiv"], explanations=[False],
                       symptom_conditions=[True])
        generated = count(workspace, "implicit_allocation_responses")
        with pytest.raises(ImportValidationError, match="already has 200 answers generated here"):
            import_allocations(write(workspace.root / "a.csv", allocation_frame()), prompt_set="biasmirror-v1")
    assert generated == 200 and count(workspace, "implicit_allocation_responses") == 200


def test_cli_reports_bad_files_without_a_traceback(workspace: Workspace) -> None:
    bad = write(workspace.root / "bad.csv", association_frame().drop(columns=["word"]))
    with workspace.active():
        result = CliRunner().invoke(app, ["import-associations", str(bad)])
        missing = CliRunner().invoke(app, ["import-allocations", str(workspace.root / "none.csv")])
        ok = CliRunner().invoke(app, ["import-allocations", str(write(workspace.root / "a.csv", allocation_frame()))])
        bad_prompt_set = CliRunner().invoke(app, ["import-allocations", str(workspace.root / "a.csv"), "--prompt-set", "a b"])
    assert result.exit_code == 1 and "missing required column(s) word" in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert missing.exit_code == 1 and "no such file" in missing.output
    assert ok.exit_code == 0 and "Imported 8 allocation answers for m1 (es)" in ok.output
    assert bad_prompt_set.exit_code == 1 and "--prompt-set must be a short name" in bad_prompt_set.output
