"""The Python API (biasmirror.Warehouse) on a real DuckDB file and a real dbt build: DataFrames in, DataFrames
out, the numbers checked against numpy and scikit-learn on planted data, the importer's own errors, readers on
the published file only, and the writer lock taken per call (or per `with` block) and given back."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score
from typer.testing import CliRunner

from biasmirror import Warehouse
from biasmirror.cli import app
from biasmirror.imports.pairs import import_pairs as import_pairs_file
from biasmirror.imports.tables import ImportValidationError
from biasmirror.summary import UnknownSelection
from biasmirror.warehouse import WarehouseMissing
from pair_references import random_pairs, reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

DATASET = "api"
N_BOOT = 120
BIASMIRROR = Path(sys.executable).parent / "biasmirror"


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, dict[str, pd.DataFrame]]:
    """Two models' pairs (different planted effects, a stratum) imported as DataFrames and built once."""
    root = tmp_path_factory.mktemp("api")
    wh = Warehouse(root / "biasmirror.duckdb", lock_timeout=30)
    rng = np.random.default_rng(41)
    frames = {
        "m1": random_pairs(rng, 700, shift_probability=0.3, female_bias=0.35, strata={"site": ["north", "south", "east"]}),
        "m2": random_pairs(rng, 500, shift_probability=0.15, female_bias=-0.2, strata={"site": ["north", "south"]}),
    }
    with pytest.raises(WarehouseMissing):  # nothing published yet: a reader never creates a warehouse
        wh.paired_metrics(dataset=DATASET)
    for model, frame in frames.items():
        result = wh.import_pairs(frame, dataset=DATASET, model=model)
        assert result.n_pairs == len(frame) and result.settings == ("full",)
    assert not wh.path.exists() and wh.working_path.is_file()  # writers write the working copy
    wh.build(resamples=N_BOOT, quiet=True)
    assert wh.path.is_file()
    yield wh, frames
    wh.close()


def test_paired_metrics_match_numpy_overall_and_per_stratum(audited) -> None:
    wh, frames = audited
    overall = wh.paired_metrics(dataset=DATASET, stratum="overall")
    assert isinstance(overall, pd.DataFrame)
    assert set(overall.model) == set(frames) and set(overall.generator) == {"imported"}
    for model, frame in frames.items():
        expected = reference_paired_metrics(frame.original_sex, frame.original_level, frame.counterfactual_level)
        rows = overall[overall.model == model].set_index("metric")
        assert set(rows.index) == set(expected)
        for metric, value in expected.items():
            assert rows.loc[metric, "estimate"] == pytest.approx(value, abs=1e-12), (model, metric)
        assert (rows.n_pairs == len(frame)).all() and (rows.n_boot == N_BOOT).all()
        assert (rows.ci_low <= rows.ci_high).all()
        # the planted effects: m1's female presentation gets the less urgent level more often, m2's the opposite
        assert np.sign(rows.loc["pooled_rate", "estimate"]) == (1 if model == "m1" else -1)

        by_site = wh.paired_metrics(dataset=DATASET, model=model, stratum="site", metric=["pdr", "nmd"])
        assert set(by_site.metric) == {"pdr", "nmd"}
        for site, subset in frame.groupby("stratum_site"):
            reference = reference_paired_metrics(subset.original_sex, subset.original_level, subset.counterfactual_level)
            rows = by_site[by_site.stratum_value == site].set_index("metric")
            for metric in ("pdr", "nmd"):
                assert rows.loc[metric, "estimate"] == pytest.approx(reference[metric], abs=1e-12), (model, site, metric)
                assert rows.loc[metric, "n_pairs"] == len(subset)


def test_summary_is_the_overall_rows_the_command_prints(audited) -> None:
    wh, frames = audited
    summary = wh.summary(dataset=DATASET)
    overall = wh.paired_metrics(dataset=DATASET, stratum="overall")
    assert {"dataset", "model", "generator", "setting", "metric", "estimate", "ci_low", "ci_high",
            "n_pairs"} <= set(summary.columns) <= set(overall.columns)
    merged = summary.merge(overall, on=["model", "setting", "metric"], suffixes=("", "_mart"))
    assert len(merged) == len(summary) == len(overall)
    assert np.allclose(merged.estimate, merged.estimate_mart)
    result = CliRunner().invoke(app, ["--warehouse", str(wh.path), "summary", "--dataset", DATASET, "--model", "m2"])
    assert result.exit_code == 0, result.output
    assert f"n={len(frames['m2']):,}" in result.output


def test_model_performance_matches_scikit_learn(audited) -> None:
    wh, frames = audited
    performance = wh.model_performance(dataset=DATASET, metric=["accuracy", "kappa_quadratic"])
    for model, frame in frames.items():
        rows = performance[performance.model == model].set_index("metric")
        assert rows.loc["accuracy", "estimate"] == pytest.approx(
            accuracy_score(frame.true_level, frame.original_level), abs=1e-12)
        assert rows.loc["kappa_quadratic", "estimate"] == pytest.approx(
            cohen_kappa_score(frame.true_level, frame.original_level, weights="quadratic"), abs=1e-12)


def test_pair_outcomes_and_an_ibis_table_hold_the_pairs(audited) -> None:
    wh, frames = audited
    outcomes = wh.pair_outcomes(dataset=DATASET, model="m2")
    frame = frames["m2"].sort_values("pair_id").reset_index(drop=True)
    outcomes = outcomes.sort_values("pair_id").reset_index(drop=True)
    assert list(outcomes.pair_id) == list(frame.pair_id)
    female = np.where(frame.original_sex == "F", frame.original_level, frame.counterfactual_level)
    assert (outcomes.female_level.to_numpy() == female).all()

    table = wh.table("pair_outcomes")
    ours = table.filter(table.dataset == DATASET)
    counts = ours.group_by("model").aggregate(pairs=ours.count()).to_pandas().set_index("model")["pairs"]
    assert counts.to_dict() == {model: len(f) for model, f in frames.items()}
    assert "paired_metrics" in set(wh.marts().name)
    sql = wh.sql("select count(*) as n from audit.pair_outcomes where dataset = ? and model = ?", [DATASET, "m1"])
    assert int(sql.n.iloc[0]) == len(frames["m1"])


def test_an_unknown_selection_names_what_the_warehouse_holds(audited) -> None:
    wh, _ = audited
    with pytest.raises(UnknownSelection, match=r"No dataset 'nope'.*'api'"):
        wh.paired_metrics(dataset="nope")
    with pytest.raises(UnknownSelection, match=r"No model 'm9'.*'m1', 'm2'"):
        wh.paired_metrics(dataset=DATASET, model=["m1", "m9"])
    with pytest.raises(UnknownSelection, match="no audit.no_such_mart"):
        wh.mart("no_such_mart")
    with pytest.raises(UnknownSelection, match="No model 'm9'"):
        wh.summary(model="m9")


def test_bad_pairs_raise_the_importers_own_errors_and_write_nothing(audited, tmp_path: Path) -> None:
    wh, frames = audited
    bad = frames["m1"].head(40).copy()
    bad.loc[0, "original_sex"] = "X"
    bad.loc[3, "counterfactual_level"] = 9
    before = _working_count(wh, "select count(*) from inference.imported_pairs")
    with pytest.raises(ImportValidationError) as from_frame:
        wh.import_pairs(bad, dataset=DATASET, model="m3")
    # the same rules and messages as `biasmirror import-pairs` on a file with the same rows
    path = tmp_path / "bad.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(ImportValidationError) as from_file:
        wh.import_pairs(path, dataset=DATASET, model="m3")
    assert str(from_frame.value) == str(from_file.value).replace(str(path), "the DataFrame")
    assert "row 1 (pair_id=p000000)" in str(from_frame.value) and "row 4" in str(from_frame.value)
    with pytest.raises(ImportValidationError, match="--model must not be empty"):
        wh.import_pairs(frames["m1"], dataset=DATASET, model=" ")
    assert _working_count(wh, "select count(*) from inference.imported_pairs") == before
    assert import_pairs_file.__module__ == "biasmirror.imports.pairs"  # the one importer both paths use


def test_readers_see_a_new_import_only_after_a_build_and_forget_undoes_it(audited) -> None:
    wh, frames = audited
    extra = frames["m2"].head(60)
    wh.import_pairs(extra, dataset=DATASET, model="m3")
    with pytest.raises(UnknownSelection, match="No model 'm3'"):  # the published file is the last build
        wh.paired_metrics(dataset=DATASET, model="m3")
    planned = wh.forget(dataset=DATASET, model="m3", dry_run=True)
    counts = dict(zip(planned.table, planned.rows))
    assert counts["inference.imported_pairs"] == len(extra) and counts["inference.runs"] == 1
    assert planned.attrs["run_id"] is None
    removed = wh.forget(dataset=DATASET, model="m3")
    assert dict(zip(removed.table, removed.rows)) == counts and removed.attrs["run_id"]
    assert _working_count(wh, "select count(*) from inference.imported_pairs where model = 'm3'") == 0
    assert _working_count(wh, "select count(*) from inference.runs where kind = 'forget' and model = 'm3'") == 1


def test_the_writer_lock_is_given_back_after_each_call_and_held_in_a_with_block(audited) -> None:
    wh, _ = audited

    def other_writer() -> subprocess.CompletedProcess:
        # another process that writes (forget takes the writer lock) and does not wait
        return subprocess.run([str(BIASMIRROR), "--warehouse", str(wh.path), "--lock-timeout", "0", "forget",
                               "--dataset", DATASET, "--model", "nobody", "--yes"],
                              capture_output=True, text=True, timeout=300)

    wh.forget(dataset=DATASET, model="m1", dry_run=True)  # a call that took the lock and returned
    free = other_writer()
    assert free.returncode == 1 and "Nothing to forget" in free.stdout + free.stderr, free.stdout + free.stderr
    with wh:
        wh.forget(dataset=DATASET, model="m1", dry_run=True)
        busy = other_writer()
    assert busy.returncode == 1 and "is being written by" in busy.stdout + busy.stderr, busy.stdout + busy.stderr
    assert "Nothing to forget" in (after := other_writer()).stdout + after.stderr


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"biasmirror {importlib.metadata.version('biasmirror')}"
    import biasmirror

    assert biasmirror.__version__ == importlib.metadata.version("biasmirror")


def _working_count(wh: Warehouse, sql: str) -> int:
    with duckdb.connect(str(wh.working_path), read_only=True) as con:
        return con.execute(sql).fetchone()[0]
