"""The weeks another run stored whole since a run was asked for, from the inputs this run
would read: the run skips them instead of reading and analysing them again. Two `prhub
materialize` started at once on the same weeks (or one beside a backfill of them) both did all
the work, and the later replaced the earlier's rows with the same."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date, datetime

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.sources.git import GitSourceError, branch_commit
from prhub_pipeline.stages.text import counted
from prhub_pipeline.warehouse import connect
from prhub_pipeline.warehouse.week_stages import WeekInputs, weeks_stored_since


def settings_fingerprint(settings: Settings, repo: RepoConfig) -> str:
    """A digest of the settings a week's rows are made from: the repository's entry, the zone
    its weeks are cut in, and where its report files go, in which language their index is and
    what they link to."""
    described = {
        "repo": repo.model_dump(mode="json"),
        "timezone": settings.timezone,
        "language": settings.language,
        "reports_dir": str(settings.reports_dir),
        "reports_url": settings.reports_url,
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:16]


def week_inputs(settings: Settings, repo: RepoConfig, source_commit: str | None) -> WeekInputs:
    return WeekInputs(settings=settings_fingerprint(settings, repo), source_commit=source_commit)


def source_commit_now(repo: RepoConfig) -> str | None:
    """The commit a git repository's branch is at in its clone, or None (GitHub, or a clone
    that cannot tell: whatever reads it says why)."""
    if repo.source != "git" or repo.git_path is None:
        return None
    try:
        return branch_commit(repo.git_path, repo.branch)
    except GitSourceError:
        return None


def weeks_just_stored(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date], since: datetime
) -> list[date]:
    """Of `weeks`, those stored whole since `since` from the settings and source commit this
    run would read (`weeks_stored_since`). Asked while holding the writer lock, so that no run
    stores any of them between this answer and the run's own writes."""
    if not weeks or not settings.database.exists():
        return []
    inputs = week_inputs(settings, repo, source_commit_now(repo))
    with connect(settings.database) as con:
        return weeks_stored_since(con, repo.name, weeks, since, inputs)


def just_stored_note(weeks: Sequence[date], since: str) -> str:
    """What a run says of the weeks it skips (`weeks_just_stored`)."""
    shown = ", ".join(map(str, weeks[:5])) + (", ..." if len(weeks) > 5 else "")
    return (
        f"{counted(len(weeks), 'week')} ({shown}) stored whole by another run since {since},"
        " from the same settings and source: skipped, not read or analysed again"
    )
