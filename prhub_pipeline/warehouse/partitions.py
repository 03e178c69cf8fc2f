"""Partition writes: delete one (repo, week) partition's rows and bulk insert the new ones,
for several tables at once, in a single transaction; and moving a renamed repository's rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import duckdb

from prhub_pipeline.warehouse.connection import WarehouseError, pipeline_tables, transaction


@dataclass(frozen=True)
class TableRows:
    """New rows for one table of a partition; each row's values follow `columns`. `scope`
    narrows the rows replaced to those with these column values (one stage's of `week_stages`);
    `whole_repo` widens them to the repository's of every week (a table without `week_start`,
    written with a week's partition so that the two are stored together or not at all)."""

    table: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]] = field(default_factory=list)
    scope: Mapping[str, Any] = field(default_factory=dict)
    whole_repo: bool = False


def replace_partition(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date, tables: Sequence[TableRows]
) -> dict[str, int]:
    """Replace a partition in every table given, all or nothing. Returns rows written per table.

    Every table must have a `repo` column, and a `week_start` one unless its rows are
    `whole_repo`; table and column names come from code, never from input, and all values are
    bound through DuckDB's appender.
    """
    written: dict[str, int] = {}
    try:
        with transaction(con):
            for batch in tables:
                scope = "".join(f" AND {column} = ?" for column in batch.scope)
                week = [] if batch.whole_repo else [week_start]
                con.execute(
                    f"DELETE FROM {batch.table} WHERE repo = ?"
                    f"{'' if batch.whole_repo else ' AND week_start = ?'}{scope}",
                    [repo, *week, *batch.scope.values()],
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


def move_repository(con: duckdb.DuckDBPyConnection, old: str, new: str) -> list[date]:
    """Move every row the pipeline stored under `old` to `new`, all or nothing, and return the
    weeks moved (none when nothing is stored under `old`). Raises WarehouseError when a week
    or a PR is stored under both names: which of the two to keep is for the user to say."""
    weeks_sql = (
        "SELECT week_start FROM prs WHERE repo = ?"
        " UNION SELECT week_start FROM weekly_reports WHERE repo = ?"
        # A quiet week stores no PR and, unreported, only its stage rows.
        " UNION SELECT week_start FROM week_stages WHERE repo = ?"
    )
    moved = [week for (week,) in con.execute(f"{weeks_sql} ORDER BY 1", [old] * 3).fetchall()]
    [(models,)] = con.execute("SELECT count(*) FROM module_models WHERE repo = ?", [old]).fetchall()
    if not moved and not models:
        return []
    both = con.execute(
        f"SELECT min(week_start) FROM (({weeks_sql}) INTERSECT ({weeks_sql}))",
        [old] * 3 + [new] * 3,
    ).fetchall()[0][0]
    [(twice,)] = con.execute(
        "SELECT min(number) FROM prs WHERE repo = ? AND number IN"
        " (SELECT number FROM prs WHERE repo = ?)",
        [old, new],
    ).fetchall()
    if both is not None or twice is not None:
        what = f"week {both}" if both is not None else f"PR #{twice}"
        raise WarehouseError(
            f"{new}: {what} is stored under both {old} (a former name) and {new}, so nothing"
            " was moved; delete that week's rows under one of the names in DuckDB, no run"
            " holding the file, and run again"
        )
    tables = [
        table
        for (table,) in con.execute(
            "SELECT table_name FROM information_schema.columns"
            " WHERE table_schema = 'main' AND column_name = 'repo' ORDER BY 1"
        ).fetchall()
        if table in pipeline_tables()
    ]
    try:
        with transaction(con):
            for table in tables:  # names from the migrations, never from input
                con.execute(f"UPDATE {table} SET repo = ? WHERE repo = ?", [new, old])
    except duckdb.Error as exc:
        raise WarehouseError(
            f"moving the rows stored under {old} to {new} failed, nothing was changed: {exc}"
        ) from exc
    return moved
