"""Importance scores and risk flags for each week, calibrated on the repository's history."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import date, datetime

import duckdb
from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.modelling.scoring.importance import (
    CALIBRATION_WEEKS,
    PrReview,
    RawHistory,
    ScoreCalibration,
    calibration_since,
    raw_history,
    reverted_prs,
    reviews_by_pr,
    score_week,
)
from prhub_pipeline.modelling.scoring.risks import flag_risks
from prhub_pipeline.modelling.tagging.tags import is_sure
from prhub_pipeline.records import PullRequest, SettingChange
from prhub_pipeline.stages.ingest import windows_for
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.github import github_weeks, read_review_data
from prhub_pipeline.warehouse.modules import read_module_labels
from prhub_pipeline.warehouse.prs import (
    read_config_diffs,
    read_prs,
    read_pushed_commits,
    read_setting_changes,
    week_pr_numbers,
)
from prhub_pipeline.warehouse.reports import revert_tables, risk_tables, score_tables
from prhub_pipeline.warehouse.week_stages import refuse_unread_weeks, stage_tables
from prhub_pipeline.weeks import WeekWindow


class WeekScores(BaseModel):
    repo: str
    window: WeekWindow
    pr_count: int
    key_prs: list[int]
    top: list[tuple[int, float]]  # (number, importance), highest first
    risks: dict[str, int]
    calibration: ScoreCalibration


class RepositoryHistory(BaseModel):
    """What scoring a week needs to know about the rest of the repository."""

    by_number: dict[int, PullRequest]
    modules: dict[int, list[str]]
    # Every stored PR's compared setting changes: the requirements the toolchain part reads, the
    # settings removed or renamed the breaking part reads.
    setting_changes: dict[int, list[SettingChange]]
    raw: RawHistory  # every stored PR's raw score, for each week's calibration


def calibration_span(window: WeekWindow) -> tuple[datetime, datetime]:
    """The year a week's scores are calibrated on: the CALIBRATION_WEEKS weeks up to and
    including it (see `importance.calibration_slice`)."""
    return window.weeks_before(CALIBRATION_WEEKS - 1).start_utc, window.end_utc


def load_history(
    con: duckdb.DuckDBPyConnection, repo: RepoConfig, windows: Sequence[WeekWindow]
) -> RepositoryHistory:
    """Every stored PR and its modules, and the raw scores (with reviews, where a week has
    review data) of the PRs that `windows` are calibrated on: a scheduled run of one week
    scores a year of history, not all of it."""
    history = read_prs(con, repo.name)
    modules: dict[int, list[str]] = defaultdict(list)
    # An unsure guess counts for no module: TransformerEngine #3009 ("Bitmap topk") went from
    # 5.3 to 7.5, key, on the breadth of a `jax` guessed at 0.30 beside its own `[PyTorch]`,
    # when one more tagged PR was trained on.
    for label in read_module_labels(con, repo.name):
        if is_sure(label):
            modules[label.number].append(label.module)
    since = calibration_since(
        sorted(pr.merged_at for pr in history), map(calibration_span, windows)
    )
    calibrated = {pr.number for pr in history if since is not None and pr.merged_at >= since}
    stored_weeks = week_pr_numbers(con, repo.name)
    reviews: dict[int, PrReview] = {}
    for week in github_weeks(con, repo.name):
        numbers = stored_weeks.get(week, [])
        if calibrated.isdisjoint(numbers):
            continue
        review_data = read_review_data(con, repo.name, week)
        if review_data.available:
            found = reviews_by_pr(review_data)
            reviews.update({number: found.get(number, PrReview()) for number in numbers})
    setting_changes = read_setting_changes(con, repo.name)
    return RepositoryHistory(
        by_number={pr.number: pr for pr in history},
        modules=dict(modules),
        setting_changes=setting_changes,
        raw=RawHistory([], [])  # no week of the run has a PR to calibrate on
        if since is None
        else raw_history(
            history,
            modules,
            repo.scoring,
            reviews,
            since=since,
            requirement_changes=setting_changes,
            weeks=stored_weeks.values(),
        ),
    )


def score_weeks(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[WeekScores]:
    results = []
    with connect(settings.database) as con:
        refuse_unread_weeks(con, repo.name, weeks)
        windows = windows_for(settings, weeks)
        history = load_history(con, repo, windows)
        for window in windows:
            prs = read_prs(con, repo.name, window.week_start)
            review_data = read_review_data(con, repo.name, window.week_start)
            calibration = history.raw.calibration(*calibration_span(window))
            scores = score_week(
                prs,
                history.modules,
                review_data,
                repo.scoring,
                calibration,
                history.by_number,
                history.setting_changes,
            )
            risks = flag_risks(
                prs,
                history.modules,
                review_data,
                repo.scoring,
                history.by_number,
                read_config_diffs(con, repo.name, window.week_start),
                pushed=read_pushed_commits(con, repo.name, window.week_start),
            )
            replace_partition(
                con,
                repo.name,
                window.week_start,
                [
                    *score_tables(repo.name, window.week_start, scores),
                    *risk_tables(repo.name, window.week_start, risks),
                    *revert_tables(
                        repo.name, window.week_start, reverted_prs(prs, history.by_number)
                    ),
                    *stage_tables(repo.name, window.week_start, "scores"),
                ],
            )
            results.append(
                WeekScores(
                    repo=repo.name,
                    window=window,
                    pr_count=len(prs),
                    key_prs=[s.number for s in scores if s.is_key],
                    top=[(s.number, s.importance) for s in scores[:10]],
                    risks=dict(Counter(r.risk for r in risks)),
                    calibration=calibration,
                )
            )
    return results
