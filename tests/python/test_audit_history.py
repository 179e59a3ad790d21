"""The audit across builds: every successful build that rebuilds the paired metrics appends its headline rows to
inference.audit_history; history.audit_trend numbers them in build order and says whether the pairs or the
model's runs changed; `forget` removes them; the report plots them. The fingerprints are checked against a
Python computation of the same digest."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from biasmirror import Warehouse
from biasmirror.report.render import write_report

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_pairs.csv"
DATASET, MODEL = "history", "example"
N_BOOT = 60


def set_digest(texts: list[str]) -> str:
    """The reference of macro set_digest: md5 of the count and of the sum of each text's first 52 md5 bits."""
    total = sum(int(hashlib.md5(text.encode()).hexdigest()[:13], 16) for text in texts)
    return hashlib.md5(f"{len(texts)}:{total}".encode()).hexdigest()


def trend(wh: Warehouse) -> pd.DataFrame:
    with duckdb.connect(str(wh.path), read_only=True) as con:
        return con.execute("select * from history.audit_trend order by setting, metric, build_number").df()


@pytest.fixture(scope="module")
def three_builds(tmp_path_factory: pytest.TempPathFactory):
    """Build 1 on the sample; build 2 after a re-import that moves some copies' levels (new pairs, a new import
    run); a build of a selection without the fingerprints (no point); build 3 after importing the same pairs
    again (the same pairs, a new import run). Builds 2 and 3 take the fast path after an import."""
    wh = Warehouse(tmp_path_factory.mktemp("history") / "biasmirror.duckdb", lock_timeout=30)
    pairs = pd.read_csv(SAMPLE)
    wh.import_pairs(pairs, dataset=DATASET, model=MODEL)
    wh.build(resamples=N_BOOT, quiet=True, unit_tests=False)
    snapshots = [wh.paired_metrics(dataset=DATASET, model=MODEL)]
    rng = np.random.default_rng(5)
    moved = rng.random(len(pairs)) < 0.2
    changed = pairs.assign(counterfactual_level=np.where(
        moved, np.clip(pairs.original_level + rng.choice([-1, 1], len(pairs)), 1, 5), pairs.counterfactual_level))
    wh.import_pairs(changed, dataset=DATASET, model=MODEL)
    wh.build(quiet=True, unit_tests=False)
    snapshots.append(wh.paired_metrics(dataset=DATASET, model=MODEL))
    wh.build(select=["paired_metrics"], quiet=True, unit_tests=False)
    wh.import_pairs(changed, dataset=DATASET, model=MODEL)
    wh.build(quiet=True, unit_tests=False)
    snapshots.append(wh.paired_metrics(dataset=DATASET, model=MODEL))
    yield wh, changed, snapshots
    wh.close()


def test_three_builds_give_three_points_with_their_own_numbers(three_builds) -> None:
    wh, _, snapshots = three_builds
    rows = trend(wh)
    assert set(rows.build_number) == {1, 2, 3}
    assert all(sorted(numbers) == [1, 2, 3] for _, numbers in rows.groupby(["setting", "metric"]).build_number)
    assert rows.invocation_id.nunique() == 3 and rows.published.all()
    assert rows.groupby("build_number").built_at.nunique().eq(1).all()
    assert rows.sort_values("build_number").groupby("build_number").built_at.first().is_monotonic_increasing
    for number, snapshot in enumerate(snapshots, start=1):
        overall = snapshot[snapshot.stratum_name == "overall"].set_index(["setting", "metric"])
        point = rows[rows.build_number == number].set_index(["setting", "metric"])
        assert set(point.index) == set(overall.index)
        for column in ("estimate", "ci_low", "ci_high", "q_value", "n_pairs", "n_boot"):
            expected = overall.loc[point.index, column].to_numpy(dtype=float)
            assert np.allclose(point[column].to_numpy(dtype=float), expected, equal_nan=True), (number, column)
    # the change from the previous build, and what changed: the first re-import moved pairs (new data, a new
    # import run); the second brought the same pairs again (a new import run only)
    pooled = rows[rows.metric == "pooled_rate"].set_index("build_number")
    assert np.isnan(pooled.loc[1, "change_from_previous"])
    assert pooled.loc[2, "change_from_previous"] == pytest.approx(pooled.loc[2, "estimate"] - pooled.loc[1, "estimate"])
    assert list(pooled.data_changed) == [False, True, False] and list(pooled.model_changed) == [False, True, True]
    assert pooled.loc[3, "change_from_previous"] == pytest.approx(0.0, abs=1e-12)  # same pairs, same draws


def test_the_fingerprints_are_digests_of_the_pairs_and_runs(three_builds) -> None:
    wh, changed, _ = three_builds
    with duckdb.connect(str(wh.path), read_only=True) as con:
        stored = con.execute("select data_fingerprint, model_fingerprint from history.audit_trend "
                             "where build_number = 3 and metric = 'pooled_rate'").fetchone()
        import_ids = [row[0] for row in con.execute(
            "select distinct import_id from inference.imported_pairs where dataset = ? and model = ?",
            [DATASET, MODEL]).fetchall()]
    texts = [f"{row.pair_id}|{row.original_level}|{row.counterfactual_level}|"
             + ("" if pd.isna(row.true_level) else str(int(row.true_level))) for row in changed.itertuples()]
    assert stored == (set_digest(texts), set_digest(import_ids))
    assert set_digest(texts[::-1]) == set_digest(texts) != set_digest(texts[1:])


def test_the_report_plots_the_trend(three_builds, tmp_path: Path) -> None:
    wh, _, _ = three_builds
    page = write_report(tmp_path / "report", wh.path).path.read_text(encoding="utf-8")
    start = page.index('id="fig-history-history-example-imported"')
    caption = page[start:page.index("</figure>", start)]
    assert "at each of 3 builds" in caption and "2 build(s) with changed pairs or model runs" in caption
    assert 'href="#history"' in page


def test_forget_removes_the_history_of_a_data_set_only(three_builds) -> None:
    wh, _, _ = three_builds
    wh.import_pairs(pd.read_csv(SAMPLE), dataset="kept", model=MODEL)
    wh.build(quiet=True, unit_tests=False)  # a fourth point for DATASET, the first for 'kept'
    rows = trend(wh)
    held = rows.query("dataset == @DATASET")
    assert set(held.build_number) == {1, 2, 3, 4} and set(rows.query("dataset == 'kept'").build_number) == {1}
    removed = wh.forget(dataset=DATASET).set_index("table")["rows"]
    assert removed["inference.audit_history"] == len(held)
    with duckdb.connect(str(wh.working_path), read_only=True) as con:
        left = con.execute("select dataset, count(*) from inference.audit_history group by dataset").fetchall()
    assert left == [("kept", len(rows.query("dataset == 'kept'")))]
