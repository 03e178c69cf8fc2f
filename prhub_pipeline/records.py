"""The typed records every stage shares.

Sources produce the pull requests and reviews; modelling produces labels, scores and risk
flags; reporting produces rendered reports. The warehouse stores and reads all of them, so it
depends on this module alone, never on the stages that make them. They are the one boundary
between stages: nothing passes plain dicts from one layer to another.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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


# Control characters (C0 but tab and line breaks, DEL, C1) and bidirectional overrides: no
# prose needs them, and in a PR's text they are an attack on whoever reads it. A title with
# `ESC]52;...` wrote the clipboard of the terminal `prhub sql` printed it on; U+202E shows
# "exe.txt" as "txt.exe"; a NUL broke the summary's placeholders.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A terminal's escape sequence goes whole (`ESC[31m` of a pasted log, not `[31m`): CSI and OSC.
_ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?)")


# How much of a PR's title and description the text rules read. Their regular expressions
# take time that grows faster than the text on hostile input (a description of 65,000 `[`
# took 129 s to summarise); a real title is a line, and a summary or an impact keyword comes
# from the start of a description, not from a log pasted 20,000 characters in.
MAX_TITLE_CHARS = 1_000
MAX_DESCRIPTION_CHARS = 20_000


# Control characters that break a line (form feed, NEL, the file/group/record separators) stay
# a line break: `two\x85three` is two lines, not `twothree`.
_LINE_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85]")


def printable(value: str) -> str:
    """Text without terminal escape sequences, control characters or bidirectional overrides
    (see _UNPRINTABLE); those that break a line become `\n`."""
    return _UNPRINTABLE.sub("", _LINE_BREAKS.sub("\n", _ESCAPE_SEQUENCE.sub("", value)))


def _printable(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [printable(v) if isinstance(v, str) else v for v in value]
    return value


# A tag that names a version: `v0.9.0`, `0.8.1`, `v1.0.0rc2`, `release-1.2`, `pkg/v2.3.1`;
# not `latest` or `ascend-ci-cache`, nor a build that is no release (`nightly-2026.05.12`,
# `v0.10.0.dev0`, `1.2-snapshot`).
VERSION_TAG = re.compile(
    r"^(?!.*(?:nightly|snapshot|[._-]?dev\d*(?:[+.]|$)|[-_]dev\b))"
    r"(?:[\w.-]*?[-_/])?v?\d+\.\d+(?:[.\w+-]*)$",
    re.IGNORECASE,
)


class ReleaseTag(Record):
    """A version tag created in a week (`v0.9.0`, `VERSION_TAG`): the reports say what was
    released. Either source reads it by the tag's own date: an annotated tag's (when it was
    made), else its commit's; a release is tagged on a release branch as often as on the
    reported one (verl's v0.9.0 on `bump version to 0.9.0`, which main never merged)."""

    repo: str
    name: str
    sha: str  # the commit it tags
    tagged_at: datetime  # an annotated tag's own date, else its commit's

    _utc = field_validator("tagged_at")(_require_utc)


class FileChange(Record):
    """One file touched by a pull request. Counts are None for binary files."""

    path: str
    status: FileStatus = "modified"
    previous_path: str | None = None
    additions: int | None = Field(default=None, ge=0)
    deletions: int | None = Field(default=None, ge=0)

    @property
    def lines(self) -> int:
        """Added plus deleted lines (0 for a binary file)."""
        return (self.additions or 0) + (self.deletions or 0)

    @property
    def edits_content(self) -> bool:
        """Whether the PR leaves this file with changed content: not removed, not a pure rename."""
        if self.status == "removed":
            return False
        return self.status != "renamed" or bool(self.additions or self.deletions)


_NOREPLY_EMAIL = re.compile(r"^(?:\d+\+)?(?P<login>[^@\s]+)@users\.noreply\.github\.com$", re.I)


def author_key(login: str | None = None, email: str | None = None) -> str | None:
    """One key per person across the names they commit under: their GitHub login (given, or
    read from a GitHub noreply address), else their email, lowercased. verl's #6135 is by
    "NIE SHIYU", who had committed as "xiazhahe", both from xiazhahe's noreply address."""
    if login:
        return login.lower()
    if not email or not email.strip():
        return None
    noreply = _NOREPLY_EMAIL.match(email.strip())
    return (noreply["login"] if noreply else email.strip()).lower()


MAX_PR_NUMBER = 2**31  # the warehouse's INTEGER: a larger number is no PR's


def pr_number(digits: str) -> int | None:
    """The PR a text's `#N` names; none for `#0` or a number past any PR's (a typo or a pasted
    id), which would fail the week's write."""
    number = int(digits)
    return number if 0 < number < MAX_PR_NUMBER else None


class PushedCommit(Record):
    """A commit that landed on the branch without naming a PR (pushed straight to it): no PR
    analysis covers it, so the week's report counts and lists it apart from the PRs."""

    repo: str
    sha: str
    committed_at: datetime
    author: str | None = None
    # Who the author is, whatever name they used (`author_key`): TransformerEngine's Przemek
    # Tredak pushed 41 commits under that name, and landed PRs as Przemyslaw Tredak.
    author_key: str | None = None
    subject: str
    # The PR it undoes, when it is a revert of one (`Revert "<title>"`, `This reverts commit
    # <sha>`): OpenRLHF's maintainers reverted #524, #581 and #725 by pushing `git revert`.
    reverted_number: int | None = Field(default=None, gt=0, lt=MAX_PR_NUMBER)
    # A revert's message after its subject, as a revert PR's description is read for its
    # reason; None for a commit that is no revert (not read) and in rows stored before it.
    body: str | None = None

    _utc = field_validator("committed_at")(_require_utc)


def describe_validation_error(exc: ValidationError) -> str:
    """Every problem of a record, `field: message; ...`: pydantic's own text puts the reasons
    on lines after the first, which one-line errors drop."""
    return "; ".join(
        f"{'.'.join(str(part) for part in error['loc']) or 'record'}: {error['msg']}"
        for error in exc.errors()
    )


class PullRequest(Record):
    """A merged pull request, as any source sees it."""

    repo: str
    # Strict: `true` or "12" in a records file is no PR number; the warehouse stores INTEGER.
    number: int = Field(gt=0, lt=MAX_PR_NUMBER, strict=True)
    title: str
    body: str = ""
    author: str | None = None  # login (github) or display name (git); None for deleted users
    # Who the author is, whatever name they used: see `author_key`.
    author_key: str | None = None
    co_authors: list[str] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    created_at: datetime | None = None
    merged_at: datetime
    # Of a PR that landed in a batch long after it was written (a rebased branch): when it was
    # written, its commit's author date (`sources.git.batch_landings`). None for a PR that
    # landed alone, and with the github source, where a merged PR has a mergedAt of its own.
    batch_written_at: datetime | None = None
    merged_by: str | None = None
    base_branch: str | None = None
    merge_commit_sha: str | None = None
    additions: int = Field(default=0, ge=0)
    deletions: int = Field(default=0, ge=0)
    changed_files: int = Field(default=0, ge=0)
    files: list[FileChange] = Field(default_factory=list)
    is_revert: bool = False
    reverted_sha: str | None = None  # the commit a revert undoes, when it names one
    # The PR a revert undoes, when it can be resolved.
    reverted_number: int | None = Field(default=None, gt=0, lt=MAX_PR_NUMBER)
    source: SourceKind = "git"

    _utc = field_validator("merged_at", "created_at", "batch_written_at")(_require_utc)
    _text = field_validator(
        "title", "body", "author", "co_authors", "labels", "merged_by", mode="before"
    )(_printable)


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
    _text = field_validator("author", "body", mode="before")(_printable)


class ThreadComment(Record):
    comment_id: str
    author: str | None = None
    author_is_bot: bool = False
    is_pr_author: bool = False
    body: str = ""
    created_at: datetime | None = None

    _utc = field_validator("created_at")(_require_utc)
    _text = field_validator("author", "body", mode="before")(_printable)


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
    _text = field_validator("author", "body", mode="before")(_printable)


class FileVersions(Record):
    """A file's text before and after a PR, as the source read it from the merge commit and its
    first parent. None where the file did not exist, is binary, or could not be read; `status`
    is the file's in the PR (an added file has nothing before it)."""

    pr_number: int
    path: str
    status: FileStatus = "modified"
    before: str | None = None
    after: str | None = None


class SettingChange(Record):
    """One setting of a configuration file whose value a PR changed, added or removed.

    `key` is dotted: nested YAML keys (`actor_rollout_ref.rollout.n`), or a Python config's
    `Class.field` and module-level names. Values are shown as written (`null`, `true`, `1e-6`,
    `${oc.select:...}`); `before` is None for an added setting, `after` for a removed one.
    `path` is the file, where the change is listed apart from it (a dependency flag's
    requirements, which can come from several manifests).
    """

    key: str
    before: str | None = None
    after: str | None = None
    path: str | None = None


class ConfigFileDiff(Record):
    """The settings one PR changed in one configuration file.

    `comparable` is False when either version could not be read or parsed (binary, too large,
    invalid YAML or Python): then `changes` is empty and nothing is known about the values.
    `keeps_existing` is True when the PR left every setting the file had as it was, adding at
    most whole new entries of lists of mappings, CI jobs or steps after a job's last (a test
    registered in a workflow's matrix) or branches, paths or event types a trigger runs on, in
    a file that runs nothing (a CI list of tests) also new keys and list items, or the file is
    new.
    """

    repo: str
    pr_number: int
    path: str
    comparable: bool
    changes: list[SettingChange] = Field(default_factory=list)
    keeps_existing: bool = False


class ReviewData(Record):
    """Everything review-related the source knows for one week's PRs."""

    available: bool  # False for sources that have no review data (git): never a fake empty
    reviews: list[Review] = Field(default_factory=list)
    threads: list[ReviewThread] = Field(default_factory=list)
    comments: list[PrComment] = Field(default_factory=list)


ModuleOrigin = Literal["title", "label", "model"]

# An account that names itself a bot or CI after a separator is a machine account, though
# GitHub knows it as a user: NVIDIA-NeMo/RL's `svcnemo-autobot` and `svcnvidia-nemo-ci` were
# named among the week's new authors, vllm-ascend's `vllm-ascend-ci` (56 PRs of translated
# docs and test times) counted as one. A name merely ending in "bot" is a person's
# (vllm-ascend's `iKeybot`). Scoring, the reports and the SQL models (`bot_name()` in their
# templates) all read it here.
BOT_LOGIN = re.compile(r"(?:\[bot\]|[-_](?:auto)?bot|[-_]ci)$", re.IGNORECASE)


# ---------------------------------------------------------------------------------------------
# The github source's responses as fetched: the warehouse keeps them, so a week can be parsed
# again without asking GitHub.


class SearchRange(BaseModel):
    """A half-open merge-time range [start, end) searched as one GitHub query."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start: datetime
    end: datetime

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end

    def halves(self) -> tuple[SearchRange, SearchRange]:
        middle = self.start + timedelta(seconds=(self.end - self.start).total_seconds() // 2)
        return SearchRange(start=self.start, end=middle), SearchRange(start=middle, end=self.end)


class RawPage(BaseModel):
    """One successful GraphQL response, as sent and received (no token), in request order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int = Field(ge=0)
    query_name: str
    variables: dict[str, Any]
    response: dict[str, Any]
    search_range: SearchRange | None = None  # set when the page holds a search


class RequestStats(BaseModel):
    """What fetching a week cost, for the run's metadata."""

    model_config = ConfigDict(extra="forbid")

    requests: int = 0  # HTTP requests sent, retries included
    pages: int = 0  # successful responses, each kept as a RawPage
    search_pages: int = 0
    follow_up_items: int = 0  # connection pages fetched by follow-ups
    search_parts: int = 1  # ranges searched: more than 1 when a week held over 1,000 PRs
    page_shrinks: int = 0  # times GitHub timed out on a query and the pages were halved
    # PRs whose listed files fall short of their changed files (GitHub lists 3,000 at most).
    truncated_file_lists: int = 0
    points_spent: int = 0  # sum of rateLimit.cost
    retries: int = 0
    rate_limit_waits: int = 0
    rate_limit_waits_seconds: float = 0.0
    rate_limit_remaining: int | None = None


class GitHubWeek(BaseModel):
    """A week as fetched: the records, the raw pages they came from, and what it cost."""

    model_config = ConfigDict(extra="forbid")

    repo: str
    prs: list[PullRequest]
    review_data: ReviewData
    pages: list[RawPage]
    stats: RequestStats


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


# ---------------------------------------------------------------------------------------------
# What the analysis stages produce: stored by the warehouse, read by the report.

PrType = Literal["feat", "fix", "refactor", "perf", "chore", "doc", "test", "revert", "other"]
FixImpact = Literal[
    "crash", "oom", "hang", "wrong_result", "data_loss", "security", "regression", "ignored_setting"
]


class UnknownTag(Record):
    """A title tag outside the repository's module list: kept, never silently dropped."""

    repo: str
    number: int
    tag: str


class PrScore(Record):
    """One PR's importance with the parts that make it up."""

    number: int
    importance: float = Field(ge=0.0, le=10.0)
    raw_score: float
    parts: dict[str, float]
    is_key: bool
    pr_type: PrType
    breaking: bool = False
    fix_impacts: list[FixImpact] = Field(default_factory=list)


RiskKind = Literal[
    "revert",
    "reverted",
    "breaking_change",
    "unresolved_review",
    "core_without_tests",
    "tests_disabled",
    "no_approval",
    "large_change",
    "cross_cutting",
    "config_default_change",
    "dependency_change",
    "repeated_fix",
    "known_gap",
    "docker_change",
    "ci_change",
]
Severity = Literal["high", "medium", "low"]


class ReviewAsk(Record):
    """One unresolved review thread: who asked what, where."""

    reviewer: str
    is_bot: bool
    path: str | None = None
    line: int | None = None
    ask: str

    def where(self) -> str:
        if not self.path:
            return ""
        return f"{self.path}:{self.line}" if self.line else self.path


# The kinds of file whose lines a change's size leaves out (`importance.ChangeShape.code_lines`),
# in `importance.file_kind`'s order.
UncountedKind = Literal["doc", "vendored", "data", "lock", "generated"]


class RiskFlag(Record):
    """A risk one PR carries, with the evidence for it."""

    number: int
    risk: RiskKind
    severity: Severity
    detail: str  # English, one line: what the data shows
    related: list[int] = Field(default_factory=list)  # PRs/issues in the chain (reverts)
    # The PRs a revert of several undoes besides the first (`importance.undone_prs`).
    also_reverted: list[int] = Field(default_factory=list)
    # A `reverted` flag's revert pushed without a PR (`PushedCommit.reverted_number`): its sha.
    reverted_by_commit: str | None = None
    paths: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)  # a file risk's every file; `paths` the first
    asks: list[ReviewAsk] = Field(default_factory=list)
    lines: int | None = None
    test_lines: int | None = None  # of `lines`, those in test files (very large changes)
    # The files a very large change had that `lines` leaves out (docs, generated code, ...).
    uncounted: list[UncountedKind] = Field(default_factory=list)
    modules: list[str] = Field(default_factory=list)
    settings: list[SettingChange] = Field(default_factory=list)  # config default changes
    uncompared_paths: list[str] = Field(default_factory=list)  # config files not compared
    # Files deleted: config files (config default changes), all of them (very large changes).
    deleted_paths: list[str] = Field(default_factory=list)
    quotes: list[str] = Field(default_factory=list)  # the author's words (work left open)


class WeekCounts(Record):
    """PR counts of one week, overall and per module and theme (for week-on-week change)."""

    pr_count: int = 0
    modules: dict[str, int] = Field(default_factory=dict)
    themes: dict[str, int] = Field(default_factory=dict)
    # Of `modules`, the PRs that have the module as the classifier's guess (not stored in
    # `weekly_counts`: read from the week's labels where wanted).
    guesses: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def from_labels(
        cls, pr_count: int, modules: Sequence[ModuleLabel], themes: Sequence[ThemeTag]
    ) -> WeekCounts:
        module_prs: dict[str, set[int]] = defaultdict(set)
        guessed_prs: dict[str, set[int]] = defaultdict(set)
        theme_prs: dict[str, set[int]] = defaultdict(set)
        for label in modules:
            module_prs[label.module].add(label.number)
            if label.origin == "model":
                guessed_prs[label.module].add(label.number)
        for tag in themes:
            theme_prs[tag.theme].add(tag.number)
        return cls(
            pr_count=pr_count,
            modules={name: len(numbers) for name, numbers in module_prs.items()},
            themes={name: len(numbers) for name, numbers in theme_prs.items()},
            guesses={name: len(numbers) for name, numbers in guessed_prs.items()},
        )


Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = get_args(Lang)


NameKind = Literal["module", "theme"]


class DisplayName(Record):
    """The name a report in `lang` gives a module or theme the warehouse holds by its key, and,
    of a module, whether it names an area (`areas_of`); None for a theme."""

    kind: NameKind
    name: str
    lang: Lang
    display_name: str
    is_area: bool | None


class RenderedReport(Record):
    """One language's report in both formats."""

    lang: Lang
    markdown: str
    html: str


class ReportListing(Record):
    """One stored report, for the index page."""

    week_start: date
    lang: Lang
    pr_count: int | None = None  # None: not known (a file found on disk)
    key_pr_count: int | None = None
    risk_flags: int | None = None
    pushed_commits: int | None = None  # commits pushed without a PR in the week
    generated_at: datetime | None = None


class StoredModelPayload(Record):
    """A trained classifier as the warehouse keeps it: opaque bytes, their sha256, metrics JSON.

    Turning the bytes back into a model (and checking them) is `modelling.model_store`'s job.
    """

    repo: str
    model_version: str
    trained_at: datetime
    payload: bytes
    sha256: str
    metrics_json: str | None = None
