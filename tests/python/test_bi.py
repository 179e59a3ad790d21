"""The warehouse as BI tools and notebooks see it: SQLAlchemy (duckdb-engine, the `bi` extra) reflects every mart
with its column comments, every column of every mart has a comment, the strata of pair_outcomes have a
long-format view for tools that cannot read a MAP, and `Warehouse` readers notice a newer published build."""

from __future__ import annotations

import warnings
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from biasmirror import Warehouse
from biasmirror.api import StaleBuildWarning
from pair_references import reference_paired_metrics

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_pairs.csv"
DATASET, MODEL = "bi", "example"


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory):
    warehouse = Warehouse(tmp_path_factory.mktemp("bi") / "biasmirror.duckdb", lock_timeout=30)
    warehouse.import_pairs(SAMPLE, dataset=DATASET, model=MODEL)
    warehouse.build(resamples=50, quiet=True, unit_tests=False)
    yield warehouse
    warehouse.close()


def test_every_column_of_every_mart_has_a_comment(wh: Warehouse) -> None:
    with duckdb.connect(str(wh.path), read_only=True) as con:
        columns = con.execute(
            "select table_name, column_name, comment from duckdb_columns() where schema_name = 'audit' "
            "and database_name = current_database()").df()
    assert columns.table_name.nunique() >= 23 and {"triage_cohort", "pair_outcome_strata"} <= set(columns.table_name)
    missing = columns[columns.comment.isna() | (columns.comment.str.strip() == "")]
    assert missing.empty, missing.groupby("table_name").column_name.agg(list).to_dict()
    # shared columns carry one definition, not copies that drift apart
    for column in ("dataset", "model"):
        comments = set(columns.loc[columns.column_name == column, "comment"])
        assert len(comments) == 1, (column, comments)


def test_sqlalchemy_reflects_the_marts_and_their_comments(wh: Warehouse) -> None:
    import sqlalchemy as sa

    assert sa.__version__.startswith("2.0."), sa.__version__  # 2.1 breaks duckdb-engine 0.17's column reflection
    engine = sa.create_engine(f"duckdb:///{wh.path}", connect_args={"read_only": True})
    try:
        inspector = sa.inspect(engine)
        tables = set(inspector.get_table_names(schema="audit")) | set(inspector.get_view_names(schema="audit"))
        assert {"paired_metrics", "pair_outcomes", "pair_outcome_strata", "triage_cohort"} <= tables
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # duckdb-engine: no reflection of indexes (there are none)
            paired = sa.Table("paired_metrics", sa.MetaData(), schema="audit", autoload_with=engine)
        assert all(column.comment for column in paired.columns), [c.name for c in paired.columns if not c.comment]
        assert "pairs" in paired.c.n_pairs.comment.lower()
        assert inspector.get_table_comment("paired_metrics", schema="audit")["text"]
        query = sa.select(paired.c.estimate).where(paired.c.dataset == DATASET, paired.c.model == MODEL,
                                                   paired.c.stratum_name == "overall", paired.c.metric == "pooled_rate")
        with engine.connect() as connection:
            estimate = connection.execute(query).scalar_one()
    finally:
        engine.dispose()
    pairs = pd.read_csv(SAMPLE)
    expected = reference_paired_metrics(pairs.original_sex, pairs.original_level, pairs.counterfactual_level)
    assert estimate == pytest.approx(expected["pooled_rate"], abs=1e-12)


def test_the_strata_view_holds_the_entries_of_the_map(wh: Warehouse) -> None:
    long = wh.mart("pair_outcome_strata", dataset=DATASET)
    outcomes = wh.sql("select pair_id, strata from audit.pair_outcomes where dataset = ?", [DATASET])
    from_map = {(row.pair_id, key, value) for row in outcomes.itertuples() for key, value in dict(row.strata).items()}
    assert set(zip(long.pair_id, long.stratum_name, long.stratum_value)) == from_map
    assert len(long) == len(from_map)
    pairs = pd.read_csv(SAMPLE).set_index("pair_id")
    sites = long[long.stratum_name == "site"].set_index("pair_id").stratum_value
    assert (sites == pairs.loc[sites.index, "stratum_site"]).all() and len(sites) == len(pairs)
    assert {"site", "age_band", "documented_level"} == set(long.stratum_name)


def test_readers_notice_a_newer_build(wh: Warehouse) -> None:
    outcomes = wh.table("pair_outcomes")  # an open ibis connection: alone it would pin the process to this build
    assert outcomes.count().to_pandas() == 705
    pairs = pd.read_csv(SAMPLE)
    pairs["counterfactual_level"] = pairs["original_level"]  # no pair changes any more: every metric 0
    pairs.loc[:99, "counterfactual_level"] = np.clip(pairs.loc[:99, "original_level"] + 1, 1, 5)
    expected = reference_paired_metrics(pairs.original_sex, pairs.original_level, pairs.counterfactual_level)

    def pdr() -> float:
        return wh.paired_metrics(dataset=DATASET, model=MODEL, stratum="overall", metric="pdr").estimate.iloc[0]

    before = pdr()
    wh.import_pairs(pairs, dataset=DATASET, model=MODEL)
    wh.build(quiet=True)
    assert pdr() == pytest.approx(expected["pdr"], abs=1e-12) and pdr() != pytest.approx(before)
    # a connection the notebook opened itself and left open keeps the process on the old build: a warning says so
    held = duckdb.connect(str(wh.path), read_only=True)
    try:
        wh.import_pairs(pd.read_csv(SAMPLE), dataset=DATASET, model=MODEL)
        wh.build(quiet=True)
        with pytest.warns(StaleBuildWarning, match="Close it"):
            stale = pdr()
        assert stale == pytest.approx(expected["pdr"], abs=1e-12)  # still the build the held connection opened
    finally:
        held.close()
    assert pdr() == pytest.approx(before, abs=1e-12)  # closed: the newest build
