"""The DuckDB warehouse: connections, the writer lock and publishing, the `inference` schema contract, and
transactional writes."""

from biasmirror.paths import WarehouseNameError
from biasmirror.warehouse.connection import WarehouseInUse, WarehouseMissing, connect, require_published
from biasmirror.warehouse.contract import ensure_inference_tables, inference_columns
from biasmirror.warehouse.lock import WarehouseBusy
from biasmirror.warehouse.publish import PublishError

# Errors a command reports as one clear message (never a traceback).
WAREHOUSE_ERRORS = (WarehouseBusy, WarehouseMissing, WarehouseInUse, PublishError, WarehouseNameError)

__all__ = ["WAREHOUSE_ERRORS", "PublishError", "WarehouseBusy", "WarehouseInUse", "WarehouseMissing", "connect",
           "ensure_inference_tables", "inference_columns", "require_published"]
