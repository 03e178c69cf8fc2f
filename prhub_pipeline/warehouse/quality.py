"""Data-quality checks over stored partitions, as plain functions returning typed outcomes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Literal

import duckdb
from pydantic import BaseModel

from prhub_pipeline.warehouse.connection import read_sql
from prhub_pipeline.weeks import week_of


class CheckOutcome(BaseModel):
    """One check over one repository's weeks. The detail names the repository and each
    offending item its week: a check's status in the UI is its latest run's, whatever weeks
    that run covered, so a failure must say where to look."""

    name: str
    passed: bool
    detail: str
    offending: list[str] = []
    # "warn": later stages stay right, only less informative; "error": they would be wrong.
    severity: Literal["error", "warn"] = "error"


def check_raw_prs(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date], timezone: str
) -> list[CheckOutcome]:
    """Each merge commit stored as one PR, and each PR inside the week it is filed under."""
    first, last = min(weeks), max(weeks)
    duplicates = con.execute(read_sql("check_duplicate_prs.sql"), [repo, first, last]).fetchall()
    rows = con.execute(
        "SELECT number, merged_at, week_start FROM prs "
        "WHERE repo = ? AND week_start BETWEEN ? AND ?",
        [repo, first, last],
    ).fetchall()
    misplaced = [
        f"{repo} #{number} merged {merged_at.isoformat()} filed under {week_start.isoformat()}"
        for number, merged_at, week_start in rows
        if week_of(merged_at, timezone) != week_start
    ]
    return [
        CheckOutcome(
            name="no_duplicate_prs",
            passed=not duplicates,
            detail=f"{repo}: {len(duplicates)} merge commits stored as more than one PR",
            offending=[
                f"{repo} commit {sha[:12]}: " + ", ".join(f"#{n}" for n in numbers)
                for sha, numbers in duplicates[:20]
            ],
        ),
        CheckOutcome(
            name="prs_inside_their_week",
            passed=not misplaced,
            detail=(
                f"{repo}: {len(misplaced)} of {len(rows)} PRs merged outside their week's window"
            ),
            offending=misplaced[:20],
        ),
    ]


def _weeks_param(weeks: Sequence[date]) -> list[date]:
    return sorted(set(weeks))


def _in_weeks(weeks: Iterable[date]) -> str:
    """` (weeks 2026-05-11, 2026-05-18)`: where the offending rows are, or nothing."""
    found = sorted(set(weeks))
    if not found:
        return ""
    listed = ", ".join(week.isoformat() for week in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    return f" (week{'s' if len(found) > 1 else ''} {listed}{more})"


def check_modules(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date]
) -> list[CheckOutcome]:
    """Every PR of the weeks has at least one module."""
    rows = con.execute(
        read_sql("check_prs_without_module.sql"), [repo, _weeks_param(weeks)]
    ).fetchall()
    total = con.execute(
        "SELECT count(*) FROM prs WHERE repo = ? AND list_contains(?, week_start)",
        [repo, _weeks_param(weeks)],
    ).fetchone()
    return [
        CheckOutcome(
            name="every_pr_has_a_module",
            passed=not rows,
            detail=f"{repo}: {len(rows)} of {total[0] if total else 0} PRs have no module"
            + _in_weeks(week for week, _, _ in rows),
            offending=[
                f"{repo} {week} #{number} {title[:80]}" for week, number, title in rows[:20]
            ],
            severity="warn",
        )
    ]


def check_scores(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date]
) -> list[CheckOutcome]:
    """Scores lie in 0-10, and every stored PR has exactly one score."""
    params = [repo, _weeks_param(weeks)]
    out_of_range = con.execute(
        "SELECT week_start, number, importance FROM pr_scores"
        " WHERE repo = ? AND list_contains(?, week_start)"
        " AND NOT (importance BETWEEN 0 AND 10) ORDER BY week_start, number",
        params,
    ).fetchall()
    mismatched = con.execute(read_sql("check_score_counts.sql"), params).fetchall()
    return [
        CheckOutcome(
            name="scores_within_0_10",
            passed=not out_of_range,
            detail=f"{repo}: {len(out_of_range)} scores outside 0-10"
            + _in_weeks(week for week, _, _ in out_of_range),
            offending=[
                f"{repo} {week} #{number}: {importance}"
                for week, number, importance in out_of_range[:20]
            ],
        ),
        CheckOutcome(
            name="every_pr_scored",
            passed=not mismatched,
            detail=f"{repo}: {len(mismatched)} week(s) where PRs and scores differ in count",
            offending=[
                f"{repo} {week}: {prs} PRs, {scores} scores" for week, prs, scores in mismatched
            ],
        ),
    ]


def check_reports(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date], languages: Sequence[str]
) -> list[CheckOutcome]:
    """A report in every language for every week, each linking every PR the warehouse holds
    for its week in both formats (the appendix lists them all)."""
    params = [repo, _weeks_param(weeks)]
    stored = con.execute(
        "SELECT week_start, lang, markdown, html FROM weekly_reports"
        " WHERE repo = ? AND list_contains(?, week_start)",
        params,
    ).fetchall()
    prs_of: dict[date, list[int]] = {}
    for week, number in con.execute(
        "SELECT week_start, number FROM prs WHERE repo = ? AND list_contains(?, week_start)"
        " ORDER BY number",
        params,
    ).fetchall():
        prs_of.setdefault(week, []).append(number)
    have = {(week, lang) for week, lang, _, _ in stored}
    missing = [
        f"{repo} {week} {lang}" for week in sorted(set(weeks)) for lang in languages
        if (week, lang) not in have
    ]  # fmt: skip
    link = re.compile(rf"https://github\.com/{re.escape(repo)}/pull/(\d+)\b")
    unlinked = []
    for week, lang, markdown, html in sorted(stored):
        for fmt, text in (("md", markdown), ("html", html)):
            linked = {int(n) for n in link.findall(text)}
            absent = [n for n in prs_of.get(week, []) if n not in linked]
            if absent:
                numbers = ", ".join(f"#{n}" for n in absent[:10])
                more = f" and {len(absent) - 10} more" if len(absent) > 10 else ""
                unlinked.append(f"{repo} {week} {lang} {fmt}: no link to {numbers}{more}")
    return [
        CheckOutcome(
            name="report_in_every_language",
            passed=not missing,
            detail=f"{repo}: {len(missing)} report(s) missing",
            offending=missing[:20],
        ),
        CheckOutcome(
            name="report_covers_every_pr",
            passed=not unlinked,
            detail=f"{repo}: {len(unlinked)} report(s) not linking every PR of their week",
            offending=unlinked[:20],
        ),
    ]


class WeekSummary(BaseModel):
    week_start: date
    prs: int
    key_prs: int
    risks: int
    reports: str | None


def week_summaries(
    con: duckdb.DuckDBPyConnection, repo: str, first: date, last: date
) -> list[WeekSummary]:
    """What every stage stored for each week of a range, for progress lines."""
    rows = con.execute(read_sql("week_summaries.sql"), [repo, first, last]).fetchall()
    return [
        WeekSummary(week_start=week, prs=prs, key_prs=key, risks=risks, reports=reports)
        for week, prs, key, risks, reports in rows
    ]
