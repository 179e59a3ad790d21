"""Data-quality gates: Great Expectations suites, defined in code and versioned, over every layer of the
warehouse - raw files (the file-based sources' contracts), the cohort, the inference tables and the audit marts.

GX over SQLAlchemy + duckdb fails on every expectation (docs/data-quality.md), so each gate pulls a column batch
from DuckDB into pandas and validates it in an ephemeral GX context; long note text never leaves DuckDB where a
flag computed in SQL says the same (e.g. "matches an exclusion keyword"). `biasmirror check` runs them all,
writes offline Data Docs (our rendering of the GX results) and exits non-zero when a gate fails. The division of
labour with the pre-build check and the dbt tests is in docs/data-quality.md.
"""

from biasmirror.quality.runner import CheckReport, ExpectationOutcome, run_checks
from biasmirror.quality.suites import SUITE_VERSION

__all__ = ["CheckReport", "ExpectationOutcome", "SUITE_VERSION", "run_checks"]
