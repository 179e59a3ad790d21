"""An ephemeral Great Expectations context: in-memory stores, no analytics, no progress bars, and one Data
Docs site written to a local folder. Nothing is sent anywhere."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class QualityUnavailable(RuntimeError):
    """great-expectations is not installed."""


def import_gx() -> Any:
    """The great_expectations module, with its usage analytics switched off before it is imported."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    try:
        import great_expectations as gx
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise QualityUnavailable(
            "biasmirror check needs Great Expectations: pip install 'biasmirror[quality]'") from error
    return gx


SITE = "biasmirror"


def ephemeral_context(docs_dir: Path) -> Any:
    gx = import_gx()
    from great_expectations.data_context.types.base import (DataContextConfig, InMemoryStoreBackendDefaults,
                                                            ProgressBarsConfig)

    site = {
        "class_name": "SiteBuilder",
        "store_backend": {"class_name": "TupleFilesystemStoreBackend", "base_directory": str(docs_dir)},
        "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
    }
    config = DataContextConfig(store_backend_defaults=InMemoryStoreBackendDefaults(), analytics_enabled=False,
                               progress_bars=ProgressBarsConfig(globally=False, metric_calculations=False),
                               data_docs_sites={SITE: site})
    return gx.get_context(mode="ephemeral", project_config=config)
