"""biasmirror: SQL-first audits of clinical decisions for sex/gender bias with paired comparisons.

The Python API is `biasmirror.Warehouse` (see `biasmirror.api`); the command line is `biasmirror`.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version as _distribution_version
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time: the command line does not need pandas or DuckDB to start
    from biasmirror.api import Warehouse

__all__ = ["Warehouse", "__version__"]


def _version() -> str:
    """The installed distribution's version (pyproject.toml's, written into the package metadata by the
    build); from a source tree that was never installed, pyproject.toml's version itself."""
    try:
        return _distribution_version("biasmirror")
    except PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            text = pyproject.read_text(encoding="utf-8")
        except OSError:
            return "0+unknown"
        match = re.search(r'(?m)^version\s*=\s*"([^"]+)"', text)
        return match.group(1) if match else "0+unknown"


__version__ = _version()


def __getattr__(name: str) -> Any:
    if name == "Warehouse":
        from biasmirror.api import Warehouse

        return Warehouse
    raise AttributeError(f"module 'biasmirror' has no attribute {name!r}")
