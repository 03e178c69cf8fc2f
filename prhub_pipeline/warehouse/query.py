"""Ad-hoc SQL for users: a read-only connection and a plain-text table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb

from prhub_pipeline.records import printable
from prhub_pipeline.warehouse.connection import WarehouseError, connect

MAX_CELL = 80


def check_query(query: str) -> str:
    """The query, unless it holds no SQL statement (DuckDB runs that as nothing at all and
    returns no cursor) or more than one (DuckDB returns the last one's rows alone, and the
    others' would go unseen). A query DuckDB cannot parse passes: running it shows where it
    fails."""
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error:
        return query
    if not statements:
        raise WarehouseError("the query is empty: it holds no SQL statement")
    if len(statements) > 1:
        raise WarehouseError(
            f"the query holds {len(statements)} statements; run them one at a time"
        )
    return query


def run_query(database: Path, query: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run a user's query on the warehouse alone: read-only, and without DuckDB's reach into
    files, extensions or the network (`COPY ... TO` would write anywhere)."""
    check_query(query)
    with connect(database, read_only=True, sandboxed=True) as con:
        try:
            cursor = con.execute(query)
        except duckdb.Error as exc:
            raise WarehouseError(f"query failed: {exc}") from None
        if cursor.description is None:
            return [], []
        columns = [column[0] for column in cursor.description]
        return columns, cursor.fetchall()


def _cell(value: Any) -> str:
    # Stored text may predate the records' cleaning, and paths keep what git allows: a cell
    # shows no control character, which a terminal would obey (`ESC]52;` sets its clipboard).
    text = "" if value is None else printable(re.sub(r"[\t\n\r]", " ", str(value)))
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def format_table(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    if not columns:
        return "(no result)"
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [
        max([len(column), *(len(row[i]) for row in cells)]) for i, column in enumerate(columns)
    ]

    def line(values: list[str]) -> str:
        # The last column is not padded: lines end where their text does, as psql's do.
        return " | ".join(c.ljust(w) for c, w in zip(values, widths, strict=True)).rstrip()

    lines = [line(columns), "-+-".join("-" * w for w in widths)]
    lines.extend(line(row) for row in cells)
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)
