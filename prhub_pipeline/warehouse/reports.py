"""Storing and reading importance scores, risk flags and weekly reports."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime

import duckdb

from prhub_pipeline.records import (
    DisplayName,
    PrScore,
    RenderedReport,
    ReportListing,
    ReviewAsk,
    RiskFlag,
    UncountedKind,
    WeekCounts,
)
from prhub_pipeline.warehouse.connection import read_sql
from prhub_pipeline.warehouse.partitions import TableRows

SCORE_COLUMNS = (
    "repo",
    "number",
    "week_start",
    "importance",
    "raw_score",
    "is_key",
    "pr_type",
    "breaking",
    "fix_impacts",
    "parts",
)
RISK_COLUMNS = ("repo", "number", "week_start", "risk", "severity", "detail", "evidence")
REVERT_COLUMNS = ("repo", "number", "week_start", "reverted_number")
REPORT_COLUMNS = (
    "repo",
    "week_start",
    "lang",
    "markdown",
    "html",
    "generated_at",
    "pr_count",
    "key_pr_count",
)
COUNT_COLUMNS = ("repo", "week_start", "kind", "name", "pr_count")
DISPLAY_NAME_COLUMNS = ("repo", "kind", "name", "lang", "display_name", "is_area")


class StoredReport(RenderedReport):
    """A report as stored: both formats of one language, with when and how much."""

    repo: str
    week_start: date
    generated_at: datetime
    pr_count: int
    key_pr_count: int


# ---------------------------------------------------------------------------------------------
# Rows for replace_partition


def score_tables(repo: str, week_start: date, scores: Sequence[PrScore]) -> list[TableRows]:
    """The `pr_scores` rows of one partition."""
    rows = [
        (
            repo,
            s.number,
            week_start,
            s.importance,
            s.raw_score,
            s.is_key,
            s.pr_type,
            s.breaking,
            list(s.fix_impacts),
            json.dumps(s.parts, sort_keys=True),
        )
        for s in scores
    ]
    return [TableRows("pr_scores", SCORE_COLUMNS, rows)]


def risk_tables(repo: str, week_start: date, risks: Sequence[RiskFlag]) -> list[TableRows]:
    """The `pr_risks` rows of one partition."""
    rows = [
        (
            repo,
            r.number,
            week_start,
            r.risk,
            r.severity,
            r.detail,
            json.dumps(
                r.model_dump(
                    include={
                        "related",
                        "also_reverted",
                        "reverted_by_commit",
                        "paths",
                        "asks",
                        "lines",
                        "test_lines",
                        "uncounted",
                        "modules",
                        "settings",
                        "uncompared_paths",
                        "deleted_paths",
                        "quotes",
                    }
                ),
                ensure_ascii=False,
            ),
        )
        for r in risks
    ]
    return [TableRows("pr_risks", RISK_COLUMNS, rows)]


def revert_tables(
    repo: str, week_start: date, reverted: Mapping[int, Sequence[int]]
) -> list[TableRows]:
    """The `pr_reverts` rows of one partition: each revert's number and the PRs it undoes."""
    rows = [
        (repo, revert, week_start, number)
        for revert, numbers in sorted(reverted.items())
        for number in dict.fromkeys(numbers)
    ]
    return [TableRows("pr_reverts", REVERT_COLUMNS, rows)]


def report_tables(
    repo: str,
    week_start: date,
    reports: Sequence[RenderedReport],
    counts: WeekCounts,
    *,
    key_pr_count: int,
    generated_at: datetime | None = None,
) -> list[TableRows]:
    """The `weekly_reports` rows (one per language) and `weekly_counts` rows of one partition."""
    langs = [r.lang for r in reports]
    if len(set(langs)) != len(langs):
        raise ValueError(f"two reports in the same language for {repo} {week_start}: {langs}")
    when = generated_at or datetime.now(UTC)
    report_rows = [
        (repo, week_start, r.lang, r.markdown, r.html, when, counts.pr_count, key_pr_count)
        for r in reports
    ]
    count_rows = [(repo, week_start, "all", "", counts.pr_count)]
    count_rows += [(repo, week_start, "module", n, c) for n, c in sorted(counts.modules.items())]
    count_rows += [(repo, week_start, "theme", n, c) for n, c in sorted(counts.themes.items())]
    return [
        TableRows("weekly_reports", REPORT_COLUMNS, report_rows),
        TableRows("weekly_counts", COUNT_COLUMNS, count_rows),
    ]


def display_name_tables(repo: str, names: Sequence[DisplayName]) -> list[TableRows]:
    """The repository's `display_names` rows, all of them: they replace its earlier ones
    whatever the week, so a name taken out of `modules.display_names` goes too."""
    rows = [(repo, n.kind, n.name, n.lang, n.display_name, n.is_area) for n in names]
    return [TableRows("display_names", DISPLAY_NAME_COLUMNS, rows, whole_repo=True)]


# ---------------------------------------------------------------------------------------------
# Readers


def read_scores(con: duckdb.DuckDBPyConnection, repo: str, week_start: date) -> list[PrScore]:
    """One week's scores, highest first."""
    rows = con.execute(
        "SELECT number, importance, raw_score, is_key, pr_type, breaking, fix_impacts, parts"
        " FROM pr_scores WHERE repo = ? AND week_start = ?"
        " ORDER BY raw_score DESC, number",
        [repo, week_start],
    ).fetchall()
    return [
        PrScore(
            number=number,
            importance=importance,
            raw_score=raw,
            is_key=is_key,
            pr_type=pr_type,
            breaking=breaking,
            fix_impacts=impacts,
            parts=json.loads(parts),
        )
        for number, importance, raw, is_key, pr_type, breaking, impacts, parts in rows
    ]


# What a very large change's lines left out when its flag was stored before the flag named the
# kinds it had (`RiskFlag.uncounted`): the rule's documentation and data files (lock files among
# them), as its detail says. Read as none, verl 2026-04-27's report rendered again from such
# flags said #6126 (+9719/-16589) "changes 8563 lines", its stored detail "(8563 outside
# documentation and data ...)".
UNCOUNTED_BEFORE_RECORDED: tuple[UncountedKind, ...] = ("doc", "data")


def read_risks(con: duckdb.DuckDBPyConnection, repo: str, week_start: date) -> list[RiskFlag]:
    """One week's risk flags, in the order they were stored."""
    rows = con.execute(
        "SELECT number, risk, severity, detail, evidence FROM pr_risks"
        " WHERE repo = ? AND week_start = ? ORDER BY rowid",
        [repo, week_start],
    ).fetchall()
    flags = []
    for number, risk, severity, detail, evidence in rows:
        facts = json.loads(evidence)
        facts["asks"] = [ReviewAsk(**a) for a in facts.get("asks", [])]
        if risk == "large_change" and "uncounted" not in facts:
            facts["uncounted"] = list(UNCOUNTED_BEFORE_RECORDED)
        flags.append(RiskFlag(number=number, risk=risk, severity=severity, detail=detail, **facts))
    return flags


def read_report(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date, lang: str = "zh"
) -> StoredReport | None:
    """A stored report, or None when that week has not been reported in that language."""
    row = con.execute(
        "SELECT lang, markdown, html, generated_at, pr_count, key_pr_count FROM weekly_reports"
        " WHERE repo = ? AND week_start = ? AND lang = ?",
        [repo, week_start, lang],
    ).fetchone()
    if row is None:
        return None
    lang_, markdown, html, generated_at, pr_count, key_pr_count = row
    return StoredReport(
        repo=repo,
        week_start=week_start,
        lang=lang_,
        markdown=markdown,
        html=html,
        generated_at=generated_at,
        pr_count=pr_count,
        key_pr_count=key_pr_count,
    )


def list_reports(con: duckdb.DuckDBPyConnection, repo: str) -> list[ReportListing]:
    """Every stored report of a repository, newest week first."""
    rows = con.execute(read_sql("select_report_listing.sql"), [repo]).fetchall()
    return [
        ReportListing(
            week_start=week,
            lang=lang,
            pr_count=pr_count,
            key_pr_count=key_pr_count,
            risk_flags=risk_flags,
            pushed_commits=pushed_commits,
            generated_at=generated_at,
        )
        for week, lang, pr_count, key_pr_count, risk_flags, pushed_commits, generated_at in rows
    ]


def reported_weeks(con: duckdb.DuckDBPyConnection, repo: str, first: date, last: date) -> set[date]:
    """The weeks from `first` to `last` that have a stored report."""
    rows = con.execute(
        "SELECT DISTINCT week_start FROM weekly_reports"
        " WHERE repo = ? AND week_start BETWEEN ? AND ?",
        [repo, first, last],
    ).fetchall()
    return {week for (week,) in rows}
