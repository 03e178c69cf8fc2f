"""Ad-hoc SQL for users: a read-only connection and a plain-text table."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import duckdb

from prhub_pipeline.records import printable
from prhub_pipeline.warehouse.connection import (
    WarehouseError,
    connect,
    latest_migration,
    schema_version,
)

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


def run_query(database: Path, query: str) -> tuple[list[str], list[tuple[str | None, ...]]]:
    """Run a user's query on the warehouse alone: read-only, and without DuckDB's reach into
    files, extensions or the network (`COPY ... TO` would write anywhere). Each value comes as
    DuckDB writes it (a cast to VARCHAR: `[NULL, x]`, `true`, `3 days`, `\\x1B`), None for NULL:
    Python's own text for them (`[None, 'x']`, `True`, `3 days, 0:00:00`, `b'\\x1b'`) is no SQL."""
    check_query(query)
    with connect(database, read_only=True, sandboxed=True) as con:
        try:
            result = con.sql(query)
            if result is None:
                return [], []
            # By position: a query may name two columns alike (`SELECT 1 AS a, 2 AS a`).
            as_text = ", ".join(f"CAST(#{i} AS VARCHAR)" for i in range(1, len(result.columns) + 1))
            try:
                return list(result.columns), result.project(as_text).fetchall()
            except duckdb.Error:
                # The cast runs the query inside two lines of DuckDB's own, so an error found
                # while running it named a line two below the user's ("LINE 3:" of a one-line
                # query). Run as written, it fails again naming the query's own line; should
                # it not, the first error stands.
                con.execute(query)
                raise
        except duckdb.Error as exc:
            note = _older_schema(con, database, exc)
            raise WarehouseError(f"query failed: {exc}{note}") from None


def _older_schema(con: duckdb.DuckDBPyConnection, database: Path, exc: duckdb.Error) -> str:
    """What to add to an error naming no such table or column when an earlier prhub wrote the
    warehouse: a read-only query migrates nothing, so a table or model column README describes
    (`pr_reverts`, `pr_facts.reverts`) is missing until a run writes the file, and DuckDB's
    "did you mean" pointed elsewhere (a warehouse of vllm-ascend and slime at schema version 10:
    `pr_reverts` ... Did you mean "pr_scores"?)."""
    if not isinstance(exc, duckdb.CatalogException | duckdb.BinderException):
        return ""
    version, latest = schema_version(con), latest_migration()
    if version >= latest:
        return ""
    return (
        f"\n{database} was written by an earlier prhub (schema version {version}; this one's is"
        f" {latest}): the tables, columns and SQL models added since are there once"
        " `prhub materialize` has run on it"
    )


def _char_width(char: str) -> int:
    """The columns a terminal gives the character: two for a wide one (CJK: "全昌盛"), none
    for a combining mark."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(_char_width(char) for char in text)


def _cell(value: str | None, whole: bool) -> str:
    if value is None:
        return "NULL"  # not the empty string, which shows as nothing
    # Stored text may predate the records' cleaning, and paths keep what git allows: a cell
    # shows no control character, which a terminal would obey (`ESC]52;` sets its clipboard).
    text = printable(re.sub(r"[\t\n\r]", " ", value))
    if whole or display_width(text) <= MAX_CELL:
        return text
    kept, width = [], 0
    for char in text:
        width += _char_width(char)
        if width > MAX_CELL - 1:  # room for the ellipsis
            break
        kept.append(char)
    return "".join(kept) + "…"


def format_table(
    columns: list[str], rows: Sequence[tuple[str | None, ...]], *, whole: bool = False
) -> str:
    """The rows as a table, a cell cut at MAX_CELL columns unless `whole` (`prhub sql
    --whole`): a model's description, its relation's comment, runs to hundreds of characters."""
    if not columns:
        return "(no result)"
    cells = [[_cell(value, whole) for value in row] for row in rows]
    widths = [
        max([display_width(column), *(display_width(row[i]) for row in cells)])
        for i, column in enumerate(columns)
    ]

    def line(values: list[str]) -> str:
        # The last column is not padded: lines end where their text does, as psql's do.
        padded = (c + " " * (w - display_width(c)) for c, w in zip(values, widths, strict=True))
        return " | ".join(padded).rstrip()

    lines = [line(columns), "-+-".join("-" * w for w in widths)]
    lines.extend(line(row) for row in cells)
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)
