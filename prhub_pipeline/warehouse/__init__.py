"""The DuckDB warehouse: connections, schema migrations and partition writes."""

from prhub_pipeline.warehouse.connection import (
    WarehouseError,
    WarehouseLockedError,
    connect,
    lock_waits_told_to,
    migrate,
)
from prhub_pipeline.warehouse.partitions import TableRows, replace_partition

__all__ = [
    "TableRows",
    "WarehouseError",
    "WarehouseLockedError",
    "connect",
    "lock_waits_told_to",
    "migrate",
    "replace_partition",
]
