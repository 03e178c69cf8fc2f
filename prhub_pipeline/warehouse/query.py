"""Ad-hoc SQL for users: a read-only connection and a plain-text table."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb

from prhub_pipeline.records import printable
from prhub_pipeline.warehouse.connection import (
    WarehouseError,
    connect,
    latest_migration,
    schema_version,
)
from prhub_pipeline.warehouse.sql_models import model_definitions, unlike_their_files

MAX_CELL = 80
# What DuckDB raises for a table or column it does not know.
MISSING_NAME_ERRORS = (duckdb.CatalogException, duckdb.BinderException)


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


def _tell_stderr(message: str) -> None:
    print(f"prhub: {message}", file=sys.stderr, flush=True)


def run_query(
    database: Path,
    query: str,
    *,
    models_dir: Path | None = None,
    on_note: Callable[[str], None] = _tell_stderr,
) -> tuple[list[str], list[tuple[str | None, ...]]]:
    """Run a user's query on the warehouse alone: read-only, and without DuckDB's reach into
    files, extensions or the network (`COPY ... TO` would write anywhere). Each value comes as
    DuckDB writes it (a cast to VARCHAR: `[NULL, x]`, `true`, `3 days`, `\\x1B`), None for NULL:
    Python's own text for them (`[None, 'x']`, `True`, `3 days, 0:00:00`, `b'\\x1b'`) is no SQL.
    `on_note` is told when an earlier prhub wrote the warehouse, or, given `models_dir` (the SQL
    models this prhub would make), when the warehouse's models are not those
    (`stale_models_note`); an error naming no such table or column says so too."""
    check_query(query)
    with connect(database, read_only=True, sandboxed=True) as con:
        note = stale_models_note(con, database, models_dir)
        try:
            result = con.sql(query)
            if result is None:
                return [], []
            # By position: a query may name two columns alike (`SELECT 1 AS a, 2 AS a`).
            as_text = ", ".join(f"CAST(#{i} AS VARCHAR)" for i in range(1, len(result.columns) + 1))
            try:
                rows = result.project(as_text).fetchall()
                if note:
                    on_note(note)
                return list(result.columns), rows
            except duckdb.Error:
                # The cast runs the query inside two lines of DuckDB's own, so an error found
                # while running it named a line two below the user's ("LINE 3:" of a one-line
                # query). Run as written, it fails again naming the query's own line; should
                # it not, the first error stands.
                con.execute(query)
                raise
        except duckdb.Error as exc:
            # A table or column an earlier prhub's warehouse or a stale model lacks
            # (`pr_reverts`, weekly_trends.display_name_en) is no typo, whatever DuckDB's "did
            # you mean" says.
            missing = f"\n{note}" if note and isinstance(exc, MISSING_NAME_ERRORS) else ""
            raise WarehouseError(f"query failed: {exc}{missing}") from None


def stale_models_note(
    con: duckdb.DuckDBPyConnection, database: Path, models_dir: Path | None = None
) -> str | None:
    """What to tell a user whose warehouse an earlier prhub wrote, or whose SQL models are not
    made from `models_dir`'s files as they are now, else None. A read-only query migrates and
    refreshes nothing: a table or model column README describes (`pr_reverts`) was missing with
    DuckDB's "did you mean" pointing elsewhere (a vllm-ascend and slime warehouse at schema
    version 10: Did you mean "pr_scores"?), and a model changed in a newer prhub answered as
    the older one had made it, saying nothing (verl's weekly_trends, refreshed by a prhub of
    before its every-week rows: 2078 rows, 2765 from the shipped file)."""
    version, latest = schema_version(con), latest_migration()
    if version < latest:
        return (
            f"{database} was written by an earlier prhub (schema version {version}; this one's"
            f" is {latest}): the tables, columns and SQL models added since are there once"
            " `prhub materialize` has run on it"
        )
    unlike = unlike_their_files(con, model_definitions(models_dir)) if models_dir else []
    if not unlike:
        return None
    return (
        f"SQL model(s) {', '.join(unlike)} of {database} are not made from the files in"
        f" {models_dir} as they are now (another prhub's, or files edited since):"
        " they answer as made until `prhub materialize` (of any week) or the UI's sql_models_job"
        " refreshes the models"
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
