"""Where the dbt project and the warehouse live.

The repository root is the dbt project. The warehouse is one DuckDB file, `./biasmirror.duckdb` by default;
BIASMIRROR_WAREHOUSE overrides it, and profiles.yml reads the same variable so dbt and Python agree.
"""

from __future__ import annotations

import os
from pathlib import Path

WAREHOUSE_ENV = "BIASMIRROR_WAREHOUSE"
PROJECT_ENV = "BIASMIRROR_PROJECT_DIR"
DEFAULT_WAREHOUSE = "biasmirror.duckdb"


def project_dir() -> Path:
    """The dbt project folder: BIASMIRROR_PROJECT_DIR, else the checkout this package was installed from."""
    configured = os.environ.get(PROJECT_ENV)
    if configured:
        path = Path(configured).expanduser().resolve()
        if not (path / "dbt_project.yml").is_file():
            raise FileNotFoundError(f"{PROJECT_ENV}={configured} does not hold a dbt_project.yml")
        return path
    for parent in Path(__file__).resolve().parents:
        if (parent / "dbt_project.yml").is_file():
            return parent
    raise FileNotFoundError(
        "Cannot find the biasmirror dbt project (dbt_project.yml). Install the package from a checkout "
        f"(pip install -e .) or set {PROJECT_ENV}."
    )


def warehouse_path() -> Path:
    """The warehouse file: BIASMIRROR_WAREHOUSE, else ./biasmirror.duckdb (relative to the working directory)."""
    return Path(os.environ.get(WAREHOUSE_ENV, DEFAULT_WAREHOUSE)).expanduser().resolve()
