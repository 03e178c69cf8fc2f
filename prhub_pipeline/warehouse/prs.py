"""Storing and reading pull requests and their files."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import UTC, date, datetime
from typing import Any

import duckdb
from pydantic import ValidationError

from prhub_pipeline.records import (
    ConfigFileDiff,
    FileChange,
    PullRequest,
    PushedCommit,
    ReleaseTag,
    SettingChange,
)
from prhub_pipeline.warehouse.connection import WarehouseError, read_sql, table_exists
from prhub_pipeline.warehouse.partitions import TableRows

PR_COLUMNS = (
    "repo",
    "number",
    "week_start",
    "title",
    "body",
    "author",
    "co_authors",
    "labels",
    "created_at",
    "merged_at",
    "merged_by",
    "base_branch",
    "merge_commit_sha",
    "additions",
    "deletions",
    "changed_files",
    "is_revert",
    "reverted_sha",
    "reverted_number",
    "source",
    "author_key",
    "batch_written_at",
)
FILE_COLUMNS = (
    "repo",
    "number",
    "week_start",
    "path",
    "status",
    "previous_path",
    "additions",
    "deletions",
)


def pr_tables(week_start: date, prs: Sequence[PullRequest]) -> list[TableRows]:
    """The `prs` and `pr_files` rows of one partition."""
    pr_rows: list[tuple[Any, ...]] = []
    file_rows: list[tuple[Any, ...]] = []
    for pr in prs:
        pr_rows.append(
            (
                pr.repo,
                pr.number,
                week_start,
                pr.title,
                pr.body,
                pr.author,
                pr.co_authors,
                pr.labels,
                pr.created_at,
                pr.merged_at,
                pr.merged_by,
                pr.base_branch,
                pr.merge_commit_sha,
                pr.additions,
                pr.deletions,
                pr.changed_files,
                pr.is_revert,
                pr.reverted_sha,
                pr.reverted_number,
                pr.source,
                pr.author_key,
                pr.batch_written_at,
            )
        )
        file_rows.extend(
            (
                pr.repo,
                pr.number,
                week_start,
                f.path,
                f.status,
                f.previous_path,
                f.additions,
                f.deletions,
            )
            for f in pr.files
        )
    return [TableRows("prs", PR_COLUMNS, pr_rows), TableRows("pr_files", FILE_COLUMNS, file_rows)]


CONFIG_FILE_COLUMNS = ("repo", "number", "week_start", "path", "comparable", "keeps_existing")
SETTING_COLUMNS = ("repo", "number", "week_start", "path", "key", "before", "after")


PUSHED_COLUMNS = (
    "repo",
    "week_start",
    "sha",
    "committed_at",
    "author",
    "subject",
    "reverted_number",
    "author_key",
    "body",
)


def pushed_commit_tables(week_start: date, commits: Sequence[PushedCommit]) -> list[TableRows]:
    """The `pushed_commits` rows of one partition (none: the partition's are emptied)."""
    rows = [
        (
            c.repo,
            week_start,
            c.sha,
            c.committed_at,
            c.author,
            c.subject,
            c.reverted_number,
            c.author_key,
            c.body,
        )
        for c in commits
    ]
    return [TableRows("pushed_commits", PUSHED_COLUMNS, rows)]


RELEASE_COLUMNS = ("repo", "week_start", "name", "sha", "tagged_at", "noticed_at")


def release_tables(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    week_start: date,
    tags: Sequence[ReleaseTag],
    now: datetime,
    renoticed: Collection[str] = (),
) -> list[TableRows]:
    """The `release_tags` rows of one partition (none: the partition's are emptied). A tag
    stored before keeps when it was first noticed; a new one, or one in `renoticed` (moved to
    another commit), is noticed `now`."""
    noticed = dict(
        con.execute(
            "SELECT name, noticed_at FROM release_tags WHERE repo = ? AND week_start = ?",
            [repo, week_start],
        ).fetchall()
    )
    rows = [
        (
            t.repo,
            week_start,
            t.name,
            t.sha,
            t.tagged_at,
            now if t.name in renoticed else noticed.get(t.name, now),
        )
        for t in tags
    ]
    return [TableRows("release_tags", RELEASE_COLUMNS, rows)]


def release_tag_commits(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date
) -> dict[str, str]:
    """The version tags stored for one week, by name, with the commit each tags."""
    rows = con.execute(
        "SELECT name, sha FROM release_tags WHERE repo = ? AND week_start = ?", [repo, week_start]
    ).fetchall()
    return dict(rows)


def weeks_with_late_release_tags(
    con: duckdb.DuckDBPyConnection, repo: str, first: date, last: date
) -> set[date]:
    """The weeks from `first` to `last` whose report predates a release tag stored for them
    since (a tag pushed after the week was reported); none before any run made the table."""
    if not table_exists(con, "release_tags"):
        return set()
    rows = con.execute(read_sql("select_weeks_with_late_release_tags.sql"), [repo, first, last])
    return {week for (week,) in rows.fetchall()}


def read_release_tags(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date
) -> list[ReleaseTag]:
    """The version tags created in one week, oldest first."""
    rows = con.execute(
        "SELECT name, sha, tagged_at FROM release_tags WHERE repo = ? AND week_start = ?"
        " ORDER BY tagged_at, name",
        [repo, week_start],
    ).fetchall()
    return [
        ReleaseTag(repo=repo, name=name, sha=sha, tagged_at=tagged_at.astimezone(UTC))
        for name, sha, tagged_at in rows
    ]


LATE_PR_COLUMNS = ("repo", "week_start", "number", "merged_at", "noticed_at")


def late_pr_tables(
    week_start: date, prs: Sequence[PullRequest], noticed_at: datetime
) -> list[TableRows]:
    """The `late_prs` rows of one stored week (none: the week is complete)."""
    rows = [(pr.repo, week_start, pr.number, pr.merged_at, noticed_at) for pr in prs]
    return [TableRows("late_prs", LATE_PR_COLUMNS, rows)]


def clear_stored_late_prs(con: duckdb.DuckDBPyConnection, repo: str, week_start: date) -> None:
    """Forget the week's late PRs that are stored in it now."""
    con.execute(read_sql("delete_stored_late_prs.sql"), {"repo": repo, "week_start": week_start})


def weeks_with_late_prs(
    con: duckdb.DuckDBPyConnection, repo: str, first: date, last: date
) -> set[date]:
    """The weeks from `first` to `last` that lack PRs the clone has for them; none in a
    warehouse no run has migrated to the table yet (the schedule reads it before any run)."""
    if not table_exists(con, "late_prs"):
        return set()
    rows = con.execute(
        "SELECT DISTINCT week_start FROM late_prs WHERE repo = ? AND week_start BETWEEN ? AND ?",
        [repo, first, last],
    ).fetchall()
    return {week for (week,) in rows}


def read_pushed_commits(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date
) -> list[PushedCommit]:
    """The commits of one week pushed without a PR, oldest first."""
    return _read_pushed(con, repo, "week_start = ?", [week_start])


def read_pushed_reverts(con: duckdb.DuckDBPyConnection, repo: str) -> list[PushedCommit]:
    """The stored commits pushed without a PR that revert a PR, oldest first: a report looks
    for their re-lands among its week's PRs, as for the revert PRs of the weeks before."""
    return _read_pushed(con, repo, "reverted_number IS NOT NULL", [])


def _read_pushed(
    con: duckdb.DuckDBPyConnection, repo: str, condition: str, parameters: list[object]
) -> list[PushedCommit]:
    rows = con.execute(
        "SELECT sha, committed_at, author, subject, reverted_number, author_key, body"
        f" FROM pushed_commits WHERE repo = ? AND {condition} ORDER BY committed_at, sha",
        [repo, *parameters],
    ).fetchall()
    return [
        PushedCommit(
            repo=repo,
            sha=sha,
            committed_at=committed_at.astimezone(UTC),
            author=author,
            subject=subject,
            reverted_number=reverted_number,
            author_key=author_key,
            body=body,
        )
        for sha, committed_at, author, subject, reverted_number, author_key, body in rows
    ]


def config_diff_tables(week_start: date, diffs: Sequence[ConfigFileDiff]) -> list[TableRows]:
    """The `pr_config_files` and `pr_setting_changes` rows of one partition."""
    file_rows = [
        (d.repo, d.pr_number, week_start, d.path, d.comparable, d.keeps_existing) for d in diffs
    ]
    setting_rows = [
        (d.repo, d.pr_number, week_start, d.path, c.key, c.before, c.after)
        for d in diffs
        for c in d.changes
    ]
    return [
        TableRows("pr_config_files", CONFIG_FILE_COLUMNS, file_rows),
        TableRows("pr_setting_changes", SETTING_COLUMNS, setting_rows),
    ]


def read_config_diffs(
    con: duckdb.DuckDBPyConnection, repo: str, week_start: date
) -> list[ConfigFileDiff]:
    """One week's compared configuration files with their setting changes."""
    changes: dict[tuple[int, str], list[SettingChange]] = defaultdict(list)
    for number, path, key, before, after in con.execute(
        read_sql("select_setting_changes.sql"), [repo, week_start]
    ).fetchall():
        changes[number, path].append(SettingChange(key=key, before=before, after=after))
    return [
        ConfigFileDiff(
            repo=repo,
            pr_number=number,
            path=path,
            comparable=comparable,
            changes=changes.get((number, path), []),
            keeps_existing=bool(keeps_existing),
        )
        for number, path, comparable, keeps_existing in con.execute(
            read_sql("select_config_files.sql"), [repo, week_start]
        ).fetchall()
    ]


def read_setting_changes(
    con: duckdb.DuckDBPyConnection, repo: str
) -> dict[int, list[SettingChange]]:
    """Every stored PR's setting changes, by PR number, each with its file's path: what the
    scoring of a repository's history reads of its dependency manifests."""
    changes: dict[int, list[SettingChange]] = defaultdict(list)
    for number, path, key, before, after in con.execute(
        read_sql("select_repo_setting_changes.sql"), [repo]
    ).fetchall():
        changes[number].append(SettingChange(key=key, before=before, after=after, path=path))
    return dict(changes)


def week_pr_numbers(
    con: duckdb.DuckDBPyConnection, repo: str, only: Sequence[date] | None = None
) -> dict[date, list[int]]:
    """Each stored week of a repository (or of `only` those weeks) with its PRs' numbers."""
    weeks: dict[date, list[int]] = {}
    for week, number in con.execute(
        "SELECT week_start, number FROM prs WHERE repo = ?"
        " AND (?::DATE[] IS NULL OR list_contains(?::DATE[], week_start))"
        " ORDER BY week_start, number",
        [repo, only, only],
    ).fetchall():
        weeks.setdefault(week, []).append(number)
    return weeks


def week_merge_commits(
    con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date]
) -> dict[date, list[tuple[int, str | None]]]:
    """The PRs of these weeks of a repository that the git source stored, as (number, merge
    commit) by week."""
    found: dict[date, list[tuple[int, str | None]]] = {}
    for week, number, sha in con.execute(
        "SELECT week_start, number, merge_commit_sha FROM prs"
        " WHERE repo = ? AND source = 'git' AND list_contains(?::DATE[], week_start)"
        " ORDER BY week_start, number",
        [repo, list(weeks)],
    ).fetchall():
        found.setdefault(week, []).append((number, sha))
    return found


def stored_landings(
    con: duckdb.DuckDBPyConnection, repo: str, numbers: Sequence[int]
) -> dict[int, tuple[date, datetime]]:
    """(week_start, merged_at) of those of these PRs of a repository that are stored."""
    rows = con.execute(
        "SELECT number, week_start, merged_at FROM prs"
        " WHERE repo = ? AND list_contains(?::INTEGER[], number)",
        [repo, list(numbers)],
    ).fetchall()
    return {number: (week, merged_at.astimezone(UTC)) for number, week, merged_at in rows}


def prs_in_other_weeks(
    con: duckdb.DuckDBPyConnection, repo: str, timezone: str
) -> list[tuple[int, datetime, date]]:
    """(number, merged_at, week_start) of the stored PRs whose week by `timezone`'s Mondays is
    not the one they are stored in, oldest first."""
    rows = con.execute(
        "SELECT number, merged_at, week_start FROM prs WHERE repo = ?"
        " AND date_trunc('week', timezone(?, merged_at))::DATE <> week_start"
        " ORDER BY merged_at, number",
        [repo, timezone],
    ).fetchall()
    return [(int(number), merged_at, week) for number, merged_at, week in rows]


def repos_with_merge_commits(
    con: duckdb.DuckDBPyConnection, repo: str, shas: Sequence[str]
) -> dict[str, list[int]]:
    """Other repositories whose stored PRs have any of these merge commits, with the PRs."""
    found: dict[str, list[int]] = {}
    for other, number in con.execute(
        "SELECT repo, number FROM prs WHERE repo <> ? AND list_contains(?::VARCHAR[],"
        " merge_commit_sha) ORDER BY repo, number",
        [repo, list(shas)],
    ).fetchall():
        found.setdefault(other, []).append(int(number))
    return found


def read_prs(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    week_start: date | None = None,
    *,
    through: date | None = None,
) -> list[PullRequest]:
    """PRs of one repository, ordered by merge time: one week, a range of weeks, or all."""
    first = week_start or date.min
    last = through or week_start or date.max
    pr_rows = con.execute(read_sql("select_prs.sql"), [repo, first, last]).fetchall()
    file_rows = con.execute(read_sql("select_pr_files.sql"), [repo, first, last]).fetchall()
    files: dict[int, list[FileChange]] = defaultdict(list)
    columns = [c for c in PR_COLUMNS if c != "week_start"]
    prs = []
    # A row edited by hand with SQL can break a record's rules: name the PR, not a pydantic path.
    try:
        for number, path, status, previous_path, additions, deletions in file_rows:
            files[number].append(
                FileChange(
                    path=path,
                    status=status,
                    previous_path=previous_path,
                    additions=additions,
                    deletions=deletions,
                )
            )
        for row in pr_rows:
            number = row[1]
            prs.append(PullRequest(**dict(zip(columns, row, strict=True)), files=files[number]))
    except ValidationError as exc:
        raise WarehouseError(
            f"stored PR #{number} of {repo} is not a valid record ({_first_problem(exc)});"
            " re-run its week's raw_prs to store it again"
        ) from None
    return prs


def _first_problem(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]
