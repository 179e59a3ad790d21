"""Shared fixtures: an isolated warehouse (its own DuckDB file and dbt target/log folders) per test module."""

from __future__ import annotations

import filecmp
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import duckdb
import numpy as np
import pandas as pd
import pytest


@dataclass
class Workspace:
    """A warehouse in a temporary folder, with helpers to build it with dbt and query it."""

    root: Path

    @property
    def warehouse(self) -> Path:
        """The published file: what a successful build publishes and analysts open."""
        return self.root / "warehouse.duckdb"

    @property
    def working(self) -> Path:
        """The working copy writers write (published by the next successful build)."""
        return self.root / "warehouse.work" / "warehouse.duckdb"

    @contextmanager
    def active(self, **extra: str) -> Iterator[None]:
        env = {"BIASMIRROR_WAREHOUSE": str(self.warehouse), "BIASMIRROR_WORKING_COPY": str(self.working),
               "DBT_TARGET_PATH": str(self.root / "target"), "DBT_LOG_PATH": str(self.root / "logs"), **extra}
        saved = {key: os.environ.get(key) for key in env}
        os.environ.update(env)
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def build(self, select: list[str] | None = None, variables: dict[str, Any] | None = None, **env: str) -> None:
        """Run `dbt build`; once it succeeds, the published file must be an exact copy of the working copy (so
        what `query` reads after a build is what analysts read)."""
        from biasmirror.dbt_runner import run_dbt

        with self.active(**env):
            run_dbt("build", select=select, variables=variables)
        if (variables or {}).get("publish_warehouse", True) is not False:
            assert filecmp.cmp(self.working, self.warehouse, shallow=False), "the build did not publish the working copy"

    def query(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        """Query the warehouse as it stands: the working copy, which holds what writers (imports, counterfactuals,
        scoring) wrote since the last build and, right after a build, equals the published file byte for byte
        (`build` checks it); the published file when no writer has created a working copy."""
        path = self.working if self.working.exists() else self.warehouse
        with duckdb.connect(str(path), read_only=True) as con:
            return con.execute(sql, params or []).df()

    def query_published(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        """Query the published file, as an analyst or a BI tool does (the last successful build)."""
        with duckdb.connect(str(self.warehouse), read_only=True) as con:
            return con.execute(sql, params or []).df()

    def import_pairs(self, frame: pd.DataFrame, dataset: str, model: str, setting: str | None = None, name: str = "pairs.parquet"):
        from biasmirror.imports.pairs import import_pairs

        path = self.root / name
        frame.to_parquet(path, index=False)
        with self.active():
            return import_pairs(path, dataset, model, setting)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture(scope="module")
def module_workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("warehouse"))


def random_pairs(rng: np.random.Generator, n: int, shift_probability: float = 0.12, female_bias: float = 0.0,
                 levels: tuple[int, int] = (1, 4), strata: dict[str, list[str]] | None = None) -> pd.DataFrame:
    """Random pairs; with female_bias > 0 the female presentation tends to get the less severe level."""
    sex = rng.choice(["F", "M"], n)
    original = rng.integers(levels[0], levels[1] + 1, n)
    moved = rng.random(n) < shift_probability
    # direction of the move of the *female* presentation relative to the male one
    female_up = rng.random(n) < 0.5 + female_bias
    step = np.where(female_up, 1, -1) * np.where(sex == "M", 1, -1)
    counterfactual = np.clip(np.where(moved, original + step, original), levels[0], levels[1])
    frame = pd.DataFrame({
        "pair_id": [f"p{i:06d}" for i in range(n)], "original_sex": sex, "original_level": original,
        "counterfactual_level": counterfactual, "true_level": rng.integers(levels[0], levels[1] + 1, n),
    })
    for name, values in (strata or {}).items():
        frame[f"stratum_{name}"] = rng.choice(values, n)
    return frame


def reference_paired_metrics(sex: np.ndarray, original: np.ndarray, counterfactual: np.ndarray) -> dict[str, float]:
    """The paired metrics of docs/metrics.md, computed directly from the pairs with numpy (independent of the SQL)."""
    sex = np.asarray(sex)
    original = np.asarray(original, dtype=float)
    counterfactual = np.asarray(counterfactual, dtype=float)
    delta = counterfactual - original
    m_to_f, f_to_m = sex == "M", sex == "F"
    female = np.where(sex == "F", original, counterfactual)
    male = np.where(sex == "M", original, counterfactual)

    def share(mask: np.ndarray, condition: np.ndarray) -> float:
        return float(condition[mask].mean()) if mask.any() else float("nan")

    values = {
        "pdr": float((delta != 0).mean()),
        "p_up_m_to_f": share(m_to_f, delta > 0),
        "p_down_m_to_f": share(m_to_f, delta < 0),
        "p_up_f_to_m": share(f_to_m, delta > 0),
        "p_down_f_to_m": share(f_to_m, delta < 0),
        "nmd": float((female - male).mean()),
        "pooled_rate": float(np.sign(female - male).mean()),
    }
    values["dts_m_to_f"] = values["p_up_m_to_f"] - values["p_down_m_to_f"]
    values["dts_f_to_m"] = values["p_up_f_to_m"] - values["p_down_f_to_m"]
    values["nats_plus"] = values["p_up_f_to_m"] - values["p_up_m_to_f"]
    values["nats_minus"] = values["p_down_f_to_m"] - values["p_down_m_to_f"]
    return values
