"""The warehouse (a DuckDB file, or PostgreSQL with BIASMIRROR_TARGET=postgres): connections, the writer lock and
publishing, the `inference` schema contract, and transactional writes."""

from biasmirror.paths import WarehouseNameError, WarehouseSettingError
from biasmirror.warehouse.connection import (WarehouseInUse, WarehouseMissing, connect, reader_label,
                                             require_published)
from biasmirror.warehouse.contract import ensure_inference_tables, inference_columns
from biasmirror.warehouse.lock import WarehouseBusy
from biasmirror.warehouse.publish import PublishError

# Errors a command reports as one clear message (never a traceback).
WAREHOUSE_ERRORS = (WarehouseBusy, WarehouseMissing, WarehouseInUse, PublishError, WarehouseNameError,
                    WarehouseSettingError)

__all__ = ["WAREHOUSE_ERRORS", "PublishError", "WarehouseBusy", "WarehouseInUse", "WarehouseMissing", "connect",
           "ensure_inference_tables", "inference_columns", "reader_label", "require_published"]
