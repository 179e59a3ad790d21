"""The DuckDB warehouse: connections, the `inference` schema contract, and transactional writes."""

from biasmirror.warehouse.connection import connect
from biasmirror.warehouse.contract import inference_columns, ensure_inference_tables

__all__ = ["connect", "inference_columns", "ensure_inference_tables"]
