"""Storing and reading the github source's landing pages and review data."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import Any

import duckdb

from prhub_pipeline.records import (
    GitHubWeek,
    PrComment,
    RawPage,
    Review,
    ReviewData,
    ReviewThread,
    SearchRange,
    ThreadComment,
)
from prhub_pipeline.warehouse.connection import read_sql
from prhub_pipeline.warehouse.partitions import TableRows

PAGE_COLUMNS = (
    "repo",
    "week_start",
    "seq",
    "query_name",
    "variables",
    "response",
    "range_start",
    "range_end",
)
REVIEW_COLUMNS = (
    "repo",
    "week_start",
    "number",
    "position",
    "review_id",
    "author",
    "author_is_bot",
    "state",
    "body",
    "submitted_at",
)
THREAD_COLUMNS = (
    "repo",
    "week_start",
    "number",
    "position",
    "thread_id",
    "path",
    "line",
    "is_resolved",
    "is_outdated",
    "resolved_by",
    "comment_count",
)
THREAD_COMMENT_COLUMNS = (
    "repo",
    "week_start",
    "number",
    "thread_id",
    "position",
    "comment_id",
    "author",
    "author_is_bot",
    "is_pr_author",
    "body",
    "created_at",
)
PR_COMMENT_COLUMNS = (
    "repo",
    "week_start",
    "number",
    "position",
    "comment_id",
    "author",
    "author_is_bot",
    "is_pr_author",
    "body",
    "created_at",
)


def github_tables(week_start: date, week: GitHubWeek) -> list[TableRows]:
    """The `github_pages` rows of one partition: every raw response, in request order."""
    return landing_tables(week_start, week.pages, repo=week.repo)


def landing_tables(
    week_start: date, pages: Sequence[RawPage], *, repo: str = ""
) -> list[TableRows]:
    """Landing rows for `pages`; with no pages, the partition's landing is emptied."""
    rows = [
        (
            repo,
            week_start,
            page.seq,
            page.query_name,
            json.dumps(page.variables, ensure_ascii=False),
            json.dumps(page.response, ensure_ascii=False),
            page.search_range.start if page.search_range else None,
            page.search_range.end if page.search_range else None,
        )
        for page in pages
    ]
    return [TableRows("github_pages", PAGE_COLUMNS, rows)]


def review_tables(week_start: date, review_data: ReviewData) -> list[TableRows]:
    """The review rows of one partition; empty tables (rows deleted) when data is unavailable."""
    positions: defaultdict[tuple[str, int], int] = defaultdict(int)

    def position(table: str, number: int) -> int:
        value = positions[(table, number)]
        positions[(table, number)] = value + 1
        return value

    reviews = [
        (
            r.repo,
            week_start,
            r.pr_number,
            position("reviews", r.pr_number),
            r.review_id,
            r.author,
            r.author_is_bot,
            r.state,
            r.body,
            r.submitted_at,
        )
        for r in review_data.reviews
    ]
    threads: list[tuple[Any, ...]] = []
    thread_comments: list[tuple[Any, ...]] = []
    for t in review_data.threads:
        threads.append(
            (
                t.repo,
                week_start,
                t.pr_number,
                position("review_threads", t.pr_number),
                t.thread_id,
                t.path,
                t.line,
                t.is_resolved,
                t.is_outdated,
                t.resolved_by,
                len(t.comments),
            )
        )
        thread_comments.extend(
            (
                t.repo,
                week_start,
                t.pr_number,
                t.thread_id,
                index,
                c.comment_id,
                c.author,
                c.author_is_bot,
                c.is_pr_author,
                c.body,
                c.created_at,
            )
            for index, c in enumerate(t.comments)
        )
    comments = [
        (
            c.repo,
            week_start,
            c.pr_number,
            position("pr_comments", c.pr_number),
            c.comment_id,
            c.author,
            c.author_is_bot,
            c.is_pr_author,
            c.body,
            c.created_at,
        )
        for c in review_data.comments
    ]
    return [
        TableRows("reviews", REVIEW_COLUMNS, reviews),
        TableRows("review_threads", THREAD_COLUMNS, threads),
        TableRows("review_thread_comments", THREAD_COMMENT_COLUMNS, thread_comments),
        TableRows("pr_comments", PR_COMMENT_COLUMNS, comments),
    ]


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def read_landing_pages(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date
) -> list[RawPage]:
    """The raw pages stored for one partition, in request order ([] when none)."""
    rows = con.execute(read_sql("select_github_pages.sql"), [repo, week_start]).fetchall()
    return [
        RawPage(
            seq=seq,
            query_name=query_name,
            variables=_json(variables),
            response=_json(response),
            search_range=SearchRange(start=start, end=end) if start is not None else None,
        )
        for seq, query_name, variables, response, start, end in rows
    ]


def github_weeks(con: duckdb.DuckDBPyConnection, repo: str) -> list[date]:
    """The weeks of a repository fetched from GitHub (with landing pages), oldest first."""
    rows = con.execute(
        "SELECT DISTINCT week_start FROM github_pages WHERE repo = ? ORDER BY 1", [repo]
    ).fetchall()
    return [row[0] for row in rows]


def has_landing_pages(con: duckdb.DuckDBPyConnection, repo: str, week_start: date) -> bool:
    row = con.execute(
        "SELECT count(*) FROM github_pages WHERE repo = ? AND week_start = ?", [repo, week_start]
    ).fetchone()
    return bool(row and row[0])


def read_review_data(con: duckdb.DuckDBPyConnection, repo: str, week_start: date) -> ReviewData:
    """A partition's reviews, threads (with comments in order) and PR comments.

    `available` is False when the partition has no github landing pages (the git source, or a
    week never fetched from GitHub): no review data is known, which is not the same as none.
    """
    if not has_landing_pages(con, repo, week_start):
        return ReviewData(available=False)
    params = [repo, week_start]
    reviews = [
        Review(
            repo=repo,
            pr_number=number,
            review_id=review_id,
            author=author,
            author_is_bot=author_is_bot,
            state=state,
            body=body,
            submitted_at=submitted_at,
        )
        for number, review_id, author, author_is_bot, state, body, submitted_at in con.execute(
            read_sql("select_reviews.sql"), params
        ).fetchall()
    ]
    comments_by_thread: defaultdict[str, list[ThreadComment]] = defaultdict(list)
    for thread_id, comment_id, author, is_bot, is_pr_author, body, created_at in con.execute(
        read_sql("select_review_thread_comments.sql"), params
    ).fetchall():
        comments_by_thread[thread_id].append(
            ThreadComment(
                comment_id=comment_id,
                author=author,
                author_is_bot=is_bot,
                is_pr_author=is_pr_author,
                body=body,
                created_at=created_at,
            )
        )
    threads = [
        ReviewThread(
            repo=repo,
            pr_number=number,
            thread_id=thread_id,
            path=path,
            line=line,
            is_resolved=is_resolved,
            is_outdated=is_outdated,
            resolved_by=resolved_by,
            comments=comments_by_thread.get(thread_id, []),
        )
        for number, thread_id, path, line, is_resolved, is_outdated, resolved_by in con.execute(
            read_sql("select_review_threads.sql"), params
        ).fetchall()
    ]
    comments = [
        PrComment(
            repo=repo,
            pr_number=number,
            comment_id=comment_id,
            author=author,
            author_is_bot=is_bot,
            is_pr_author=is_pr_author,
            body=body,
            created_at=created_at,
        )
        for number, comment_id, author, is_bot, is_pr_author, body, created_at in con.execute(
            read_sql("select_pr_comments.sql"), params
        ).fetchall()
    ]
    return ReviewData(available=True, reviews=reviews, threads=threads, comments=comments)
