"""The typed records every stage shares.

Sources produce them, the warehouse stores them, modelling and reporting read them. They are
the one boundary between stages: nothing passes plain dicts from one layer to another.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FileStatus = Literal["added", "modified", "removed", "renamed", "copied"]
SourceKind = Literal["git", "github"]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _require_utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("timestamp must carry a UTC offset")
    return value.astimezone(UTC)


class FileChange(Record):
    """One file touched by a pull request. Counts are None for binary files."""

    path: str
    status: FileStatus = "modified"
    previous_path: str | None = None
    additions: int | None = Field(default=None, ge=0)
    deletions: int | None = Field(default=None, ge=0)


class PullRequest(Record):
    """A merged pull request, as any source sees it."""

    repo: str
    number: int = Field(gt=0)
    title: str
    body: str = ""
    author: str | None = None  # login (github) or display name (git); None for deleted users
    co_authors: list[str] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    created_at: datetime | None = None
    merged_at: datetime
    merged_by: str | None = None
    base_branch: str | None = None
    merge_commit_sha: str | None = None
    additions: int = Field(default=0, ge=0)
    deletions: int = Field(default=0, ge=0)
    changed_files: int = Field(default=0, ge=0)
    files: list[FileChange] = Field(default_factory=list)
    is_revert: bool = False
    reverted_sha: str | None = None  # the commit a revert undoes, when it names one
    reverted_number: int | None = None  # the PR a revert undoes, when it can be resolved
    source: SourceKind = "git"

    _utc = field_validator("merged_at", "created_at")(_require_utc)


class Review(Record):
    """A submitted review (APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED)."""

    repo: str
    pr_number: int
    review_id: str
    author: str | None = None
    author_is_bot: bool = False
    state: str
    body: str = ""
    submitted_at: datetime | None = None

    _utc = field_validator("submitted_at")(_require_utc)


class ThreadComment(Record):
    comment_id: str
    author: str | None = None
    author_is_bot: bool = False
    is_pr_author: bool = False
    body: str = ""
    created_at: datetime | None = None

    _utc = field_validator("created_at")(_require_utc)


class ReviewThread(Record):
    """An inline review thread on a file, with its comments in order."""

    repo: str
    pr_number: int
    thread_id: str
    path: str | None = None
    line: int | None = None
    is_resolved: bool = False
    is_outdated: bool = False
    resolved_by: str | None = None
    comments: list[ThreadComment] = Field(default_factory=list)


class PrComment(Record):
    """A comment in the PR's conversation (not attached to code)."""

    repo: str
    pr_number: int
    comment_id: str
    author: str | None = None
    author_is_bot: bool = False
    is_pr_author: bool = False
    body: str = ""
    created_at: datetime | None = None

    _utc = field_validator("created_at")(_require_utc)


class ReviewData(Record):
    """Everything review-related the source knows for one week's PRs."""

    available: bool  # False for sources that have no review data (git): never a fake empty
    reviews: list[Review] = Field(default_factory=list)
    threads: list[ReviewThread] = Field(default_factory=list)
    comments: list[PrComment] = Field(default_factory=list)


ModuleOrigin = Literal["title", "label", "model"]


class ModuleLabel(Record):
    repo: str
    number: int
    module: str
    origin: ModuleOrigin
    confidence: float = Field(ge=0.0, le=1.0)


class ThemeTag(Record):
    repo: str
    number: int
    theme: str


class WeekKey(Record):
    """One partition: a repository and the Monday its week starts on."""

    repo: str
    week_start: date
