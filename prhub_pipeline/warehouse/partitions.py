"""Partition writes: delete one (repo, week) partition's rows and bulk insert the new ones,
for several tables at once, in a single transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import duckdb

from prhub_pipeline.warehouse.connection import WarehouseError, transaction


@dataclass(frozen=True)
class TableRows:
    """New rows for one table of a partition; each row's values follow `columns`."""

    table: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]] = field(default_factory=list)


def replace_partition(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date, tables: Sequence[TableRows]
) -> dict[str, int]:
    """Replace a partition in every table given, all or nothing. Returns rows written per table.

    Every table must have `repo` and `week_start` columns; table and column names come from
    code, never from input, and all values are bound through DuckDB's appender.
    """
    written: dict[str, int] = {}
    try:
        with transaction(con):
            for batch in tables:
                con.execute(
                    f"DELETE FROM {batch.table} WHERE repo = ? AND week_start = ?",
                    [repo, week_start],
                )
                if batch.rows:
                    with con.appender(batch.table, columns=list(batch.columns)) as appender:
                        appender.append_rows(batch.rows)
                written[batch.table] = len(batch.rows)
    except duckdb.Error as exc:
        raise WarehouseError(
            f"writing partition {repo} {week_start.isoformat()} failed, nothing was changed: {exc}"
        ) from exc
    return written
