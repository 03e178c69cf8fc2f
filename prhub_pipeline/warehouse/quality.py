"""Data-quality checks over stored partitions, as plain functions returning typed outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from importlib import resources

import duckdb
from pydantic import BaseModel

from prhub_pipeline.weeks import week_of


class CheckOutcome(BaseModel):
    name: str
    passed: bool
    detail: str
    offending: list[str] = []


def _sql(name: str) -> str:
    return resources.files("prhub_pipeline.warehouse").joinpath("sql", name).read_text("utf-8")


def check_raw_prs(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date], timezone: str
) -> list[CheckOutcome]:
    """Each PR stored once per repository and commit, and inside the week it is filed under."""
    first, last = min(weeks), max(weeks)
    duplicates = con.execute(_sql("check_duplicate_prs.sql"), [repo, first, last]).fetchall()
    rows = con.execute(
        "SELECT number, merged_at, week_start FROM prs "
        "WHERE repo = ? AND week_start BETWEEN ? AND ?",
        [repo, first, last],
    ).fetchall()
    misplaced = [
        f"#{number} merged {merged_at.isoformat()} filed under {week_start.isoformat()}"
        for number, merged_at, week_start in rows
        if week_of(merged_at, timezone) != week_start
    ]
    return [
        CheckOutcome(
            name="no_duplicate_prs",
            passed=not duplicates,
            detail=f"{len(duplicates)} PR numbers or merge commits stored more than once",
            offending=[f"{kind} {value} x{count}" for kind, value, count in duplicates[:20]],
        ),
        CheckOutcome(
            name="prs_inside_their_week",
            passed=not misplaced,
            detail=f"{len(misplaced)} of {len(rows)} PRs merged outside their week's window",
            offending=misplaced[:20],
        ),
    ]
