"""An ephemeral Great Expectations context: in-memory stores, no analytics, no progress bars and no Data Docs
site of its own (GX's pages load their styles and scripts from CDNs and quote offending values; the results are
rendered offline by biasmirror.quality.docs instead). Nothing is written or sent anywhere."""

from __future__ import annotations

import os
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


def ephemeral_context() -> Any:
    gx = import_gx()
    from great_expectations.data_context.types.base import (DataContextConfig, InMemoryStoreBackendDefaults,
                                                            ProgressBarsConfig)

    config = DataContextConfig(store_backend_defaults=InMemoryStoreBackendDefaults(), analytics_enabled=False,
                               progress_bars=ProgressBarsConfig(globally=False, metric_calculations=False),
                               data_docs_sites={})
    return gx.get_context(mode="ephemeral", project_config=config)
