"""Where a report comes from: the package version, the git commit of the code when it runs from a checkout, the
bootstrap settings (B, seed, confidence level) and time of the build that made the marts it shows (recorded by
the dbt on-run-end hook in inference.dbt_builds), and the warehouse (its file, or the PostgreSQL database)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, html, join

# The marts whose build settings the footer reports (the paired metrics carry the intervals most readers use).
MAIN_MART = "paired_metrics"
IMPLICIT_MART = "word_association_bias"


@dataclass(frozen=True)
class Provenance:
    version: str
    git_sha: str | None
    warehouse: str  # the file, or the PostgreSQL database (biasmirror.warehouse.reader_label)
    generated_at: datetime
    built_at: datetime | None = None
    bootstrap_resamples: int | None = None
    bootstrap_seed: int | None = None
    ci_level: float | None = None
    implicit_bootstrap_resamples: int | None = None
    dbt_version: str | None = None
    recorded: bool = False  # False: the marts were built before builds were recorded

    def items(self) -> list[tuple[str, str]]:
        unknown = "not recorded (marts built before builds were recorded; rebuild to record it)"
        level = f"{self.ci_level:.0%}" if self.ci_level is not None else unknown
        return [
            ("biasmirror", self.version),
            ("git commit", self.git_sha or "unknown (not run from a git checkout)"),
            ("bootstrap", (f"B = {self.bootstrap_resamples:,} resamples, seed {self.bootstrap_seed}, "
                           f"{level} percentile intervals" if self.recorded else
                           (f"B = {self.bootstrap_resamples:,} (from audit.paired_metrics.n_boot); seed and level "
                            + unknown if self.bootstrap_resamples else unknown))),
            ("implicit study bootstrap", f"B = {self.implicit_bootstrap_resamples:,} resamples"
             if self.implicit_bootstrap_resamples else "–"),
            ("marts built", (self.built_at.strftime("%Y-%m-%d %H:%M UTC") + (f" (dbt {self.dbt_version})"
                                                                           if self.dbt_version else ""))
             if self.built_at else unknown),
            ("warehouse", self.warehouse),
            ("report generated", self.generated_at.strftime("%Y-%m-%d %H:%M UTC")),
        ]

    def footer(self) -> Markup:
        rows = join([html("<dt>{}</dt><dd>{}</dd>", key, value) for key, value in self.items()])
        return html("<b>Provenance.</b> Rebuilding the same warehouse with the same settings gives the same "
                    "intervals.<dl>{}</dl>", rows)


def package_version() -> str:
    """The package's version (its installed metadata: pyproject.toml's version)."""
    from biasmirror import __version__

    return __version__


def git_sha(folder: Path | None = None) -> str | None:
    """The commit of the checkout the package runs from (with "+ local changes" when it has any), or None
    when the project folder is not the top of a git checkout, or without git."""
    if folder is None:
        from biasmirror.paths import project_dir

        folder = project_dir()
    try:
        top = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=10, check=True).stdout.strip()
        if not top or Path(top).resolve() != Path(folder).resolve():
            return None  # the package sits inside some other repository (e.g. a venv in a checkout)
        sha = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                             text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=20, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not sha:
        return None
    return sha + (" + local changes" if dirty else "")


def _latest_build(builds: pd.DataFrame, mart: str) -> dict | None:
    """The vars and time of the last published build that built `mart` (models and vars are JSON)."""
    if builds.empty or "models" not in builds.columns:
        return None
    if "published" in builds.columns:  # a build whose publish never completed is not a build readers see
        builds = builds[builds["published"].map(lambda value: value is None or pd.isna(value) or bool(value))]
    hits = builds[builds["models"].fillna("[]").map(lambda models: mart in json.loads(models))]
    if hits.empty:
        return None
    latest = hits.sort_values("finished_at").iloc[-1]
    return {"finished_at": latest["finished_at"], "dbt_version": latest.get("dbt_version"),
            **json.loads(latest["vars"] or "{}")}


def collect(marts: Marts, warehouse: Path | str, generated_at: datetime | None = None) -> Provenance:
    """The provenance of the marts in `warehouse` (a file, or a label naming the database) as the report reads
    them."""
    generated_at = generated_at or datetime.now(timezone.utc)
    builds = marts.frame("dbt_builds", schema="inference")
    main = _latest_build(builds, MAIN_MART)
    implicit = _latest_build(builds, IMPLICIT_MART)
    common = dict(version=package_version(), git_sha=git_sha(), warehouse=str(warehouse), generated_at=generated_at,
                  implicit_bootstrap_resamples=(int(implicit["implicit_bootstrap_resamples"])
                                                if implicit is not None else None))
    if main is not None:
        return Provenance(**common, built_at=pd.Timestamp(main["finished_at"]).to_pydatetime(),
                          bootstrap_resamples=int(main["bootstrap_resamples"]),
                          bootstrap_seed=int(main["bootstrap_seed"]), ci_level=float(main["ci_level"]),
                          dbt_version=str(main["dbt_version"]) if main["dbt_version"] else None, recorded=True)
    n_boot = marts.frame("paired_metrics", stratum_name="overall")
    observed = int(n_boot["n_boot"].max()) if not n_boot.empty and n_boot["n_boot"].notna().any() else None
    return Provenance(**common, bootstrap_resamples=observed)
