"""Imports checked against the study's design: unknown words, categories and pair ids and contradicting
valences refused with the rows named (or accepted under --own-stimuli, recorded with the import); a header that
repeats a column refused for all three importers; numeric codes written as 1.0 read as 1 by all three; and no
free-text value ever quoted in a message."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.cli import app
from biasmirror.imports.pairs import import_pairs
from biasmirror.imports.tables import ImportValidationError
from biasmirror.implicit.imports import import_allocations, import_associations
from warehouse_workspace import Workspace
from pair_references import random_pairs
from test_implicit_imports import allocation_frame, association_frame, count

NOTE = "Madame ___, 102 ans, venue pour douleurs abdominales depuis trois jours"


def write(path: Path, frame: pd.DataFrame) -> Path:
    frame.to_csv(path, index=False)
    return path


def run_parameters(workspace: Workspace, kind: str) -> dict:
    rows = workspace.query("select parameters from inference.runs where kind = ? order by started_at desc", [kind])
    return json.loads(rows.parameters.iloc[0])


def refused(workspace: Workspace, importer, frame: pd.DataFrame, **options) -> str:
    path = write(workspace.root / "bad.csv", frame)
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        importer(path, **options)
    return str(error.value)


# -- words, categories and valences against seeds/implicit_association_words.csv ---------------------------------

@pytest.mark.parametrize("mutate, message", [
    (lambda f: f.assign(word=["recklessly"] + list(f.word[1:])),
     "1 row(s) have a word that is not one of its category's stimuli in that language: row 1"),
    (lambda f: f.assign(category=["sports"] + list(f.category[1:])),
     "1 row(s) have a category that is not one of the study's (emotions, morality, risk"),
    (lambda f: f.assign(valence=["positive"] + list(f.valence[1:])),  # row 1 is "safe": positive already
     None),
    (lambda f: f.assign(valence=["negative"] + list(f.valence[1:])),
     "1 row(s) give a word the valence the stimuli do not (it would flip the sign of the bias): row 1"),
    (lambda f: f.assign(word=f.word.where(f.language != "es", "danger")),  # an English word in a Spanish answer
     "have a word that is not one of its category's stimuli in that language: row 25"),
])
def test_association_rows_outside_the_stimuli_are_refused(workspace: Workspace, mutate, message) -> None:
    frame = mutate(association_frame())
    if message is None:  # the unchanged valence is accepted
        with workspace.active():
            import_associations(write(workspace.root / "ok.csv", frame))
        return
    text = refused(workspace, import_associations, frame)
    assert message in text and "--own-stimuli" in text
    assert count(workspace, "implicit_association_responses") == 0


def test_category_names_are_matched_without_case_and_stored_as_the_study_writes_them(workspace: Workspace) -> None:
    frame = association_frame().assign(category="Risk")
    with workspace.active():
        import_associations(write(workspace.root / "ok.csv", frame))
    stored = workspace.query("select distinct category from inference.implicit_association_assignments")
    assert stored.category.tolist() == ["risk"]


def test_own_stimuli_are_accepted_only_when_asked_and_recorded_with_the_import(workspace: Workspace) -> None:
    frame = association_frame()
    frame.loc[0, "word"] = "recklessly"
    frame.loc[1, "category"] = "sports"
    frame.loc[2, "valence"] = "positive"  # "danger" is negative in the stimuli
    with workspace.active():
        result = import_associations(write(workspace.root / "own.csv", frame), own_stimuli=True)
    assert result.outside_stimuli == {"unknown_category": 1, "unknown_word": 1, "valence_differs_from_stimuli": 1}
    parameters = run_parameters(workspace, "import_associations")
    assert parameters["own_stimuli"] is True and parameters["rows_outside_stimuli"] == result.outside_stimuli
    words = workspace.query("select word, category, word_id from inference.implicit_association_assignments "
                            "where word in ('recklessly', 'peace') and model = 'm1' and iteration = 0 order by word")
    assert words.to_dict("records") == [{"word": "peace", "category": "sports", "word_id": None},
                                        {"word": "recklessly", "category": "risk", "word_id": None}]
    with workspace.active():
        strict = CliRunner().invoke(app, ["import-associations", str(workspace.root / "own.csv")])
        cli = CliRunner().invoke(app, ["import-associations", str(workspace.root / "own.csv"), "--own-stimuli"])
    assert strict.exit_code == 1 and "nothing was imported" in strict.output and "--own-stimuli" in strict.output
    assert cli.exit_code == 0 and "Own stimuli (--own-stimuli)" in cli.output and "unknown word: 1 row(s)" in cli.output


# -- pair ids against seeds/implicit_persona_pairs.csv ----------------------------------------------------------

@pytest.mark.parametrize("mutate, message", [
    (lambda f: f.assign(pair_id=["p0"] + list(f.pair_id[1:])),
     "1 row(s) have a pair_id that is not in seeds/implicit_persona_pairs.csv: row 1 (pair_id=p0)"),
    (lambda f: f.assign(discipline="gynecology"),  # F001-F004 are women's pairs: gynecology shows them ...
     None),
    (lambda f: f.assign(discipline="prostate"),  # ... prostate studies do not
     "8 row(s) have a pair the study does not show for that discipline"),
    (lambda f: f.assign(pair_id=["F096"] + list(f.pair_id[1:])),  # round 4: not among HIV care's pairs
     "1 row(s) have a pair the study does not show for that discipline"),
])
def test_allocation_pair_ids_outside_the_design_are_refused(workspace: Workspace, mutate, message) -> None:
    frame = mutate(allocation_frame())
    if message is None:
        with workspace.active():
            import_allocations(write(workspace.root / "ok.csv", frame))
        return
    text = refused(workspace, import_allocations, frame)
    assert message in text and "--own-stimuli" in text
    with workspace.active():
        result = import_allocations(write(workspace.root / "own.csv", frame), own_stimuli=True)
    assert sum(result.outside_stimuli.values()) >= 1
    assert run_parameters(workspace, "import_allocations")["rows_outside_stimuli"] == result.outside_stimuli


def test_pair_ids_are_matched_without_case(workspace: Workspace) -> None:
    with workspace.active():
        import_allocations(write(workspace.root / "ok.csv", allocation_frame().assign(
            pair_id=lambda f: f.pair_id.str.lower())))
    assert set(workspace.query("select pair_id from inference.implicit_allocation_responses").pair_id) == {
        "F001", "F002", "F003", "F004"}


# -- headers that repeat a column ------------------------------------------------------------------------------

def _repeat_column(frame: pd.DataFrame, column: str, rename: str | None = None) -> str:
    """CSV text whose header names `column` twice (pandas would read the second as `<column>.1`)."""
    text = frame.assign(**{column + "_copy": frame[column]}).to_csv(index=False)
    header, body = text.split("\n", 1)
    return header.replace(column + "_copy", rename or column) + "\n" + body


@pytest.mark.parametrize("importer, frame, column, rename", [
    ("pairs", lambda: random_pairs(np.random.default_rng(1), 20), "original_level", None),
    ("associations", association_frame, "valence", None),
    ("associations", association_frame, "valence", "Valence"),  # the same name once case is ignored
    ("allocations", allocation_frame, "order", None),
])
def test_a_header_that_repeats_a_column_is_refused(workspace: Workspace, importer, frame, column, rename) -> None:
    path = workspace.root / "repeated.csv"
    path.write_text(_repeat_column(frame(), column, rename), encoding="utf-8")
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        if importer == "pairs":
            import_pairs(path, "ds", "m")
        elif importer == "associations":
            import_associations(path)
        else:
            import_allocations(path)
    assert "repeats column(s)" in str(error.value) and column in str(error.value).lower()


def test_a_parquet_file_that_repeats_a_column_is_refused(workspace: Workspace) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = random_pairs(np.random.default_rng(2), 10)
    arrays = [pa.array(frame[c].astype(str)) for c in frame.columns] + [pa.array(frame["original_level"].astype(str))]
    path = workspace.root / "repeated.parquet"
    pq.write_table(pa.Table.from_arrays(arrays, names=[*frame.columns, "original_level"]), path)
    with workspace.active(), pytest.raises(ImportValidationError, match="repeats column"):
        import_pairs(path, "ds", "m")


# -- numeric codes written as 1.0 ------------------------------------------------------------------------------

def test_codes_written_as_decimals_are_read_like_whole_numbers_by_all_three_importers(workspace: Workspace) -> None:
    pairs = random_pairs(np.random.default_rng(3), 30)
    decimal_pairs = pairs.assign(**{c: pairs[c].map(lambda v: f"{v}.0") for c in
                                    ("original_level", "counterfactual_level", "true_level")})
    allocations = allocation_frame().assign(explanation="0.0", symptoms="1.0")
    decimal_allocations = allocations.assign(order=allocations.order.map(lambda v: f"{v}.0"))
    associations = association_frame()
    decimal_associations = associations.assign(iteration=associations.iteration.map(lambda v: f"{v}.00"))
    stored = {}
    for label, (p, al, asc) in {"int": (pairs, allocations.assign(explanation="0", symptoms="1"), associations),
                                "decimal": (decimal_pairs, decimal_allocations, decimal_associations)}.items():
        with workspace.active():
            import_pairs(write(workspace.root / "p.csv", p), "ds", "m")
            import_allocations(write(workspace.root / "al.csv", al))
            import_associations(write(workspace.root / "as.csv", asc))
        stored[label] = (
            workspace.query("select pair_id, original_level, counterfactual_level, true_level from "
                            "inference.imported_pairs order by pair_id"),
            workspace.query("select pair_id, presentation_order, explanation, symptoms, chosen_group from "
                            "inference.implicit_allocation_responses order by pair_id, presentation_order"),
            workspace.query("select model, language, iteration, word, assigned_group from "
                            "inference.implicit_association_assignments order by model, language, iteration, word"))
    for integer, decimal in zip(stored["int"], stored["decimal"]):
        pd.testing.assert_frame_equal(integer, decimal)
    assert set(stored["decimal"][1].explanation) == {False} and set(stored["decimal"][1].symptoms) == {True}
    assert sorted(set(stored["decimal"][1].presentation_order)) == [1, 2]
    # a real fraction is still refused, and shown (a number is a code, not free text)
    text = refused(workspace, import_allocations, allocations.assign(order=["1.5"] + ["1"] * 7))
    assert "have a order that is not 1 or 2: row 1 (value(s) 1.5)" in text


# -- no free text in any message ---------------------------------------------------------------------------------

@pytest.mark.parametrize("importer, frame, column", [
    ("allocations", allocation_frame, "order"),
    ("allocations", allocation_frame, "pair_id"),
    ("allocations", allocation_frame, "discipline"),
    ("associations", association_frame, "word"),
    ("associations", association_frame, "iteration"),
    ("associations", association_frame, "category"),
    ("pairs", lambda: random_pairs(np.random.default_rng(4), 20), "original_level"),
    ("pairs", lambda: random_pairs(np.random.default_rng(4), 20), "pair_id"),
    ("pairs", lambda: random_pairs(np.random.default_rng(4), 20), "original_sex"),
])
def test_a_note_in_a_coded_column_is_never_quoted(workspace: Workspace, importer, frame, column) -> None:
    bad = frame()
    bad[column] = bad[column].astype(object)
    bad.loc[0, column] = NOTE
    bad.loc[1, column] = NOTE  # twice: a repeated pair id must not be quoted either
    path = write(workspace.root / "bad.csv", bad)
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        if importer == "pairs":
            import_pairs(path, "ds", "m")
        elif importer == "associations":
            import_associations(path)
        else:
            import_allocations(path)
    message = str(error.value)
    assert "row 1" in message
    for fragment in ("Madame", "douleurs", "102 ans"):
        assert fragment not in message, message


def test_a_file_without_a_header_row_is_described_not_quoted(workspace: Workspace) -> None:
    body = allocation_frame().assign(model=NOTE).to_csv(index=False, header=False)
    path = workspace.root / "headless.csv"
    path.write_text(body, encoding="utf-8")
    with workspace.active(), pytest.raises(ImportValidationError) as error:
        import_allocations(path)
    message = str(error.value)
    assert "missing required column(s)" in message and "does the file start with a header row?" in message
    assert "Madame" not in message
