"""Ingest: read a repository's merged PRs for a range of weeks and store each week."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date

from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.records import PullRequest
from prhub_pipeline.sources.git import read_merged_prs
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.prs import pr_tables
from prhub_pipeline.warehouse.quality import CheckOutcome, check_raw_prs
from prhub_pipeline.weeks import WeekWindow, week_of


class WeekIngest(BaseModel):
    """What one week's ingest stored."""

    repo: str
    window: WeekWindow
    pr_count: int
    file_count: int
    additions: int
    deletions: int
    preview: list[PullRequest]


def windows_for(settings: Settings, weeks: Sequence[date]) -> list[WeekWindow]:
    return [WeekWindow(week_start=week, timezone=settings.timezone) for week in sorted(weeks)]


def read_source(
    settings: Settings, repo: RepoConfig, windows: Sequence[WeekWindow]
) -> dict[date, list[PullRequest]]:
    """The PRs of each window, read from the repository's source in one pass."""
    if not windows:
        return {}
    if repo.source != "git" or repo.git_path is None:
        raise ValueError(f"{repo.name}: source {repo.source!r} is not readable by the git reader")
    prs = read_merged_prs(
        repo.git_path, repo.name, windows[0].start, windows[-1].end, branch=repo.branch
    )
    by_week: dict[date, list[PullRequest]] = defaultdict(list)
    for pr in prs:
        by_week[week_of(pr.merged_at, settings.timezone)].append(pr)
    return {window.week_start: by_week.get(window.week_start, []) for window in windows}


def ingest_weeks(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[WeekIngest]:
    """Read the weeks from the source, then replace each week's partition in one transaction."""
    windows = windows_for(settings, weeks)
    prs_by_week = read_source(settings, repo, windows)
    results = []
    with connect(settings.database) as con:
        for window in windows:
            prs = prs_by_week[window.week_start]
            replace_partition(con, repo.name, window.week_start, pr_tables(window.week_start, prs))
            results.append(
                WeekIngest(
                    repo=repo.name,
                    window=window,
                    pr_count=len(prs),
                    file_count=sum(len(pr.files) for pr in prs),
                    additions=sum(pr.additions for pr in prs),
                    deletions=sum(pr.deletions for pr in prs),
                    preview=prs[:20],
                )
            )
    return results


def verify_ingest(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date]
) -> list[CheckOutcome]:
    """The stored weeks' data-quality outcomes (duplicates, PRs outside their window)."""
    with connect(settings.database, read_only=True) as con:
        return check_raw_prs(con, repo.name, weeks, settings.timezone)
