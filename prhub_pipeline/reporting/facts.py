"""What the weekly report says, chosen once for every language.

Which PRs a section names, in what order and how they are counted, and which follow-ups come
from which risk flags are all decided here, as small typed facts (`sections.py` sorts the PRs
into the key-change sections). Nothing here is worded: `wording` turns each fact into a
sentence in one language.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import pairwise
from typing import Literal, TypeVar, cast

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import (
    FileKind,
    file_kind,
    is_bot,
    ranked_fix_impacts,
    reverted_target,
)
from prhub_pipeline.modelling.scoring.known_gaps import followed_up_by
from prhub_pipeline.modelling.scoring.relands import relanding
from prhub_pipeline.modelling.scoring.risks import RISK_ORDER, tests_noted
from prhub_pipeline.modelling.tagging.tags import areas_of, normalise_tag, spelling_key
from prhub_pipeline.modelling.text.pr_summaries import (
    SLACK,
    own_references,
    prose,
    shorten,
    summarize,
    words_beyond,
)
from prhub_pipeline.modelling.text.pr_titles import closing_references, parse_title
from prhub_pipeline.paths import matches_any
from prhub_pipeline.records import (
    FileChange,
    FixImpact,
    PrScore,
    PrType,
    PullRequest,
    PushedCommit,
    Review,
    ReviewAsk,
    ReviewData,
    ReviewThread,
    RiskFlag,
    RiskKind,
    SettingChange,
    UncountedKind,
    WeekCounts,
)
from prhub_pipeline.reporting.models import PrRef
from prhub_pipeline.reporting.sections import dominant_themes
from prhub_pipeline.weeks import WeekWindow

MAX_LISTED = 6
MAX_LISTED_PER_IMPACT = 4
# Requirements several PRs changed in turn that a dependency observation tells taken together
# (a week that moves every requirement to another manifest would otherwise list them all).
MAX_REQUIREMENT_CHAINS = 3
# How many PRs a follow-up names before "and N more", where it differs from MAX_LISTED.
FOLLOW_UP_LIMITS: dict[RiskKind, int] = {"core_without_tests": 5}
# A module or theme is where the week's fixes concentrate when it carries at least this many
# of them and this share of all fixes; the summary names at most two such areas.
FIX_FOCUS_MIN_PRS = 3
FIX_FOCUS_MIN_SHARE = 0.4

T = TypeVar("T")
Ranked = list[tuple[str, int]]  # (name, count), most first
# A follow-up per risk kind; a revert's is "refix" when the reverted PR had fixed issues, else
# "revert_explained" when the revert says why (the risks quote it: asking why again would
# contradict them).
FollowUpKind = RiskKind | Literal["refix", "revert_explained", "works_everywhere"]
FOLLOW_UP_KINDS: tuple[FollowUpKind, ...] = (
    "refix",
    "revert_explained",
    *(k for k in RISK_ORDER if k != "reverted"),
    "works_everywhere",
)
# The risks whose follow-up is the same check, that the changes work in every environment
# and pipeline: a week with several of them asks it once, naming each kind's PRs (verl's
# 2026-08-17 asked it three times, for #7127's dependencies, its image and the CI).
WORKS_EVERYWHERE: tuple[RiskKind, ...] = ("dependency_change", "docker_change", "ci_change")


def title_subject(title: str, limit: int) -> str:
    """A title without bracket tags and type prefix, shortened, without a closing stop: the
    sentence it goes in has its own (verl #7362 read "support. (importance 8.1)."). A subject
    a little over `limit` is kept whole (`pr_summaries.SLACK`). An ellipsis the author wrote stays,
    as `…` (tpu-inference #1158 "FP4, FP8, INT8, ..." read "FP4, FP8, INT8, (importance 9.4)")."""
    text = shorten(parse_title(title).subject or title, limit, SLACK)
    if text.endswith("..."):
        return text[:-3] + "…"
    return text.rstrip(" .。")


def subject(ref: PrRef, limit: int = 60) -> str:
    """The PR's subject as sentences name it."""
    return title_subject(ref.title, limit)


def adds_to_title(summary: str, title: str) -> bool:
    """False when a summary says nothing the title does not (`pr_summaries.words_beyond`): the
    title again, its subject, or a part of it (tilelang #2665's body is its title with one tag
    fewer, verl #1602's says "Fix sglang megatron support" under "Fix megatron support in
    sglang and add ..."), also with a PR number (tilelang #2856's body is its title and
    `(#2722)`, the PR it ports), a word's other ending, or words that only say a change is
    made (vllm-ascend #3224's "Add release note for v0.11.0rc0" under "[Doc] Release note for
    v0.11.0rc0")."""
    # A description that is the title again as a conventional commit (tilelang #2752's
    # `fix(transform): preserve explicit loop steps` under `[BugFix] Preserve explicit loop
    # steps when ...`) is compared without its type and scope.
    return bool(words_beyond(parse_title(summary).subject, title))


# What a revert's description says only to point at what it reverts: `This reverts commit
# 352f76f5.`, `Reverts owner/name#6350`, `Revert PR 5253`, and its words for reverting.
_REVERT_POINTER = re.compile(
    r"\bthis reverts commit [0-9a-f]{7,40}\b|\b(?:[\w.-]+/[\w.-]+)?#\d+|\bpr\s*\d+"
    r"|\b(?:revert(?:s|ed|ing)?|this|commit|pr|pull|request|the|a|it|of|for|to|from|onto|into"
    r"|merged|main)\b",
    re.IGNORECASE,
)
# `This reverts commit 352f76f5.` before the reason, or `..., which breaks ...` after it.
_LEADING_REVERT_COMMIT = re.compile(
    r"^this reverts commit [0-9a-f]{7,40}(?:[\s.;]+|,\s*(?=which\b))", re.IGNORECASE
)
MIN_REASON_WORDS = 3
REASON_LIMIT = 160  # characters of a revert's reason where the risk observations quote it


def revert_reason(revert: PullRequest | PushedCommit, reverted: PullRequest | None) -> str | None:
    """What a revert's description (a pushed revert's commit message) says beyond pointing at
    the reverted PR, which is most often why (verl #7488: "#7205 will cause hccl error when
    update weights for npu"; vllm-ascend #7237: "Reverts #7050, which breaks kimi-k2.5 and
    qwen-omin."); None when it only points (`Reverts verl-project/verl#6350`) or says the
    reverted title again, or quotes the reverted PR's own description (vllm-ascend #11994
    pasted #10824's under its pointer)."""
    title, body = (
        (revert.title, revert.body)
        if isinstance(revert, PullRequest)
        else (revert.subject, revert.body or "")
    )
    said = _reason_said(title, body, revert.repo, reverted)
    pointer = _LEADING_REVERT_COMMIT.match(body.lstrip())
    if said is None and pointer is not None:
        # `git revert` writes its pointer as a paragraph of its own and the reason after it,
        # which a summary of the first paragraph leaves out (OpenRLHF's pushed reverts;
        # vllm-ascend #4981 "This break deepseek3.2 in PD case.").
        said = _reason_said(title, body.lstrip()[pointer.end() :], revert.repo, reverted)
    return said


def _reason_said(title: str, body: str, repo: str, reverted: PullRequest | None) -> str | None:
    summary = own_references(summarize(title, body), repo)
    if reverted is not None and summary == own_references(
        summarize(reverted.title, reverted.body), reverted.repo
    ):
        return None
    said = set(re.findall(r"\w+", _REVERT_POINTER.sub(" ", summary).lower()))
    said -= set(re.findall(r"\w+", (reverted.title if reverted else "").lower()))
    if len(said) < MIN_REASON_WORDS:
        return None
    return _LEADING_REVERT_COMMIT.sub("", summary).strip() or None


# The kinds of supporting files an outline names beside the code, in its order.
SUPPORT_KINDS: tuple[FileKind, ...] = (
    "test",
    "doc",
    "ci",
    "docker",
    "lock",
    "generated",
    "vendored",
    "data",
)
MAX_OUTLINE_PLACES = 2


@dataclass(frozen=True)
class ChangePlace:
    """A folder of changed files, or the one changed file a folder holds."""

    path: str  # a folder ends in "/"
    files: int
    lines: int
    status: Literal["added", "removed"] | None = None  # of a single file, when not an edit
    core: bool = False  # holds a core path (`ScoringConfig.core_paths`)


@dataclass(frozen=True)
class ChangeOutline:
    """Where a PR changed what, for a key PR whose description adds nothing to its title (15%
    of verl's key PRs, e.g. #7362 "add fsdpturbo backend engine support."): a reader still
    learns where it lands (the FSDP engine folder and the example scripts' folder) and what
    comes beside (tests, docs, CI)."""

    files: int
    lines: int
    # Where the code changed: its largest core place, then the largest other (all files' when
    # no code changed). verl #7374 names the engine folder it removes before the folder of its
    # example scripts, which has more lines.
    places: list[ChangePlace]
    place_count: int  # how many places there are in all
    support: list[FileKind]  # other kinds of files beside the code
    complete: bool = True  # False when the source listed only some files (GitHub's first 100)
    # The git source reads the merge commit's message, not the PR's description: a commit that
    # says nothing beyond its title says nothing of the description (slime's commits mostly).
    from_commit: bool = False
    # The description's prose says more than the title, though no summary: a link and what
    # comes next (verl #7242, beside a block of metrics), which "nothing beyond the title"
    # would deny.
    described: bool = False


def change_outline(pr: PullRequest, scoring: ScoringConfig) -> ChangeOutline | None:
    """The outline of a PR's changed files; None when the source listed none."""
    if not pr.files:
        return None
    kinds = {change.path: file_kind(change.path, scoring) for change in pr.files}
    code = [change for change in pr.files if kinds[change.path] is None]
    folders: dict[str, list[FileChange]] = defaultdict(list)
    for change in code or pr.files:
        folder, slash, _ = change.path.rpartition("/")
        folders[folder + slash].append(change)
    places = []
    for folder, changes in folders.items():
        lines = sum(c.lines for c in changes)
        core = any(matches_any(c.path, scoring.core_paths) for c in changes)
        if len(changes) == 1:
            status = changes[0].status
            ends: Literal["added", "removed"] | None = None
            if status == "added" or status == "removed":
                ends = status
            places.append(ChangePlace(changes[0].path, 1, lines, ends, core))
        else:
            places.append(ChangePlace(folder, len(changes), lines, core=core))
    places.sort(key=lambda p: (-p.lines, -p.files, p.path))
    first = min(places, key=lambda p: not p.core)  # the largest core one, else the largest
    shown = [first, *[p for p in places if p is not first][: MAX_OUTLINE_PLACES - 1]]
    present = {kinds[change.path] for change in pr.files}
    return ChangeOutline(
        files=max(pr.changed_files, len(pr.files)),
        lines=max(pr.additions + pr.deletions, sum(c.lines for c in pr.files)),
        places=shown,
        place_count=len(places),
        support=[kind for kind in SUPPORT_KINDS if code and kind in present],
        complete=len(pr.files) >= pr.changed_files,
        from_commit=pr.source == "git",
        described=adds_to_title(prose(pr.body), pr.title) if pr.body.strip() else False,
    )


def delta(count: int, previous: int | None) -> str:
    if previous is None:
        return "—"
    change = count - previous
    return f"+{change}" if change > 0 else ("±0" if change == 0 else f"−{-change}")


def ranked(counts: Mapping[str, int]) -> Ranked:
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


# The words of a theme's name (`CI/infrastructure`, `Agent/tools`, `Docker image`).
_THEME_WORD_SPLIT = re.compile(r"[\s/&,+-]+")
# A label with one PR is none of a week's busiest, however small the week: hiyouga/EasyR1's
# 2026-07-27, one PR, read "The busiest module was checkpoint (1)", and tilelang's 2026-07-13
# (29 PRs) "among themes, CI/infrastructure (1 PR) and Dependencies (1 PR)".
BUSY_MIN_PRS = 2
# Nor, in a larger week, one with fewer than one PR in this many: vllm-ascend's 2026-08-03
# (111 PRs) named "among themes, MoE-related (11 PRs) and Multimodal (2 PRs)".
BUSY_SHARE_OF_PRS = 20


def busiest(counts: Mapping[str, int], week_prs: int) -> Ranked:
    """`counts` ranked, less the labels too small to be among a week's busiest: none with
    fewer than BUSY_MIN_PRS, nor under one in BUSY_SHARE_OF_PRS."""
    least = max(BUSY_MIN_PRS, week_prs // BUSY_SHARE_OF_PRS)
    return ranked({k: n for k, n in counts.items() if n >= least})


def name_key(name: str) -> str:
    """A module's or theme's name with case, separators and spelling set aside: the `doc`
    module, the `docs` tag and the Docs theme share one."""
    return spelling_key(normalise_tag(name))


def leaders(ranking: Ranked, limit: int) -> Ranked:
    """The first `limit` of a ranking, less a tie the limit would cut: naming one of several
    labels with the same count as if it alone came next would be alphabetical chance."""
    return first_without_cut_ties(ranking, limit, lambda item: item[1])


def first_without_cut_ties(items: Sequence[T], limit: int, size: Callable[[T], float]) -> list[T]:
    """The first `limit` of items sorted by `size` (largest first), less those tied with the
    first item left out."""
    if len(items) <= limit:
        return list(items)
    cut = size(items[limit])
    return [item for item in items[:limit] if size(item) > cut]


def type_counts(refs: Sequence[PrRef]) -> list[tuple[PrType, int]]:
    counts = Counter(r.pr_type for r in refs)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class Period:
    year: int  # ISO year: week 1 of 2025 starts on 2024-12-30
    week: int  # ISO week number
    start: date
    end: date

    @classmethod
    def of(cls, window: WeekWindow) -> Period:
        start = window.week_start
        iso = start.isocalendar()
        return cls(year=iso.year, week=iso.week, start=start, end=start + timedelta(days=6))


@dataclass(frozen=True)
class RevertChain:
    """A revert, the PR it reverted (None: not identified) with its title when known, the
    issues the reverted PR had said it fixed (no longer fixed by it), and the PR that landed
    the reverted change again under the same title, if one is known. A revert pushed without a
    PR (`pushed_revert_chain`) has no number but its commit."""

    number: int | None
    target: int | None
    title: str | None
    reopened: list[int]
    relanded: int | None = None
    # What the reverted fix had fixed (`ranked_fix_impacts`), now unfixed again: the issues
    # say what broke, the revert itself does not.
    impacts: list[FixImpact] = field(default_factory=list)
    also: list[int] = field(default_factory=list)  # other PRs it reverted (the flag's)
    reason: str | None = None  # what the revert's description says beyond pointing at it
    reason_from_commit: bool = False  # the "description" is a git-source commit message
    # The day the re-land merged, when that was after the report's week: a report written
    # once later weeks are stored knows of it, one written at the week's end did not.
    relanded_later_on: date | None = None
    commit: str | None = None  # a revert pushed without a PR: its abbreviated sha


def revert_chain(
    flag: RiskFlag, known: Mapping[int, PullRequest], window: WeekWindow
) -> RevertChain:
    if not flag.related:
        return RevertChain(number=flag.number, target=None, title=None, reopened=[])
    target = flag.related[0]
    title = shorten(known[target].title, 80) if target in known else None
    revert = known.get(flag.number)
    reason = revert_reason(revert, known.get(target)) if revert is not None else None
    relanded = relanding(flag.number, target, known)
    reopened = flag.related[1:]
    return RevertChain(
        number=flag.number,
        target=target,
        title=title,
        reopened=reopened,
        relanded=relanded,
        impacts=ranked_fix_impacts(known[target]) if reopened and target in known else [],
        also=list(flag.also_reverted),
        reason=shorten(reason, REASON_LIMIT) if reason else None,
        reason_from_commit=revert is not None and revert.source == "git",
        relanded_later_on=_relanded_later_on(relanded, known, window),
    )


def _relanded_later_on(
    relanded: int | None, known: Mapping[int, PullRequest], window: WeekWindow
) -> date | None:
    """The day the re-land merged, when that was after the report's week."""
    if relanded is None or known[relanded].merged_at < window.end_utc:
        return None
    return known[relanded].merged_at.astimezone(window.zone).date()


def pushed_revert_chain(
    commit: PushedCommit, known: Mapping[int, PullRequest], window: WeekWindow
) -> RevertChain | None:
    """The chain of a commit pushed without a PR that reverts a PR (OpenRLHF's f6e1ac1 reverted
    #725), with its message's reason and the PR that landed the change again, as a revert PR's
    (`revert_chain`); None for one that reverts none."""
    target = commit.reverted_number
    if target is None:
        return None
    reverted = known.get(target)
    reopened = [] if reverted is None else closing_references(reverted.title, reverted.body)
    reason = revert_reason(commit, reverted)
    relanded = relanding(commit, target, known)
    return RevertChain(
        number=None,
        target=target,
        title=shorten(reverted.title, 80) if reverted is not None else None,
        reopened=reopened,
        relanded=relanded,
        impacts=ranked_fix_impacts(reverted) if reopened and reverted is not None else [],
        reason=shorten(reason, REASON_LIMIT) if reason else None,
        reason_from_commit=True,
        relanded_later_on=_relanded_later_on(relanded, known, window),
        commit=commit.sha[:9],
    )


@dataclass(frozen=True)
class Reland:
    """A PR of the week that lands a reverted change again (`relanding`): the PR whose change it
    is, the revert that undid it (a PR, or a commit pushed without one: `commit`, its
    abbreviated sha), and the day of that revert in the report's time zone."""

    target: int
    revert: int | None
    reverted_on: date
    commit: str | None = None


# How far back a revert's change is looked for among the week's PRs: verl #7327 landed #5599
# again two weeks after #7173 reverted it.
RELAND_LOOKBACK = timedelta(days=90)


def relands(
    prs: Sequence[PullRequest],
    known: Mapping[int, PullRequest],
    window: WeekWindow,
    pushed_reverts: Sequence[PushedCommit] = (),
) -> dict[int, Reland]:
    """The week's PRs that land again a change a revert of an earlier week undid, by number:
    the week of the revert says so ("#7327 landed the change again on Aug 10"), and the week of
    the re-land did not (verl #7327, 2026-08-10, read as a fix of its own). A revert of the
    week itself tells its re-land in its chain. `pushed_reverts` are reverts pushed without a
    PR (`PushedCommit.reverted_number`), whose re-lands are looked for as well."""
    numbers = {pr.number for pr in prs}
    since = window.start_utc - RELAND_LOOKBACK
    # Each revert before the week: when, the revert (a PR's number or a pushed commit), and
    # the PR it undid.
    earlier: list[tuple[datetime, int | PushedCommit, int | None]] = [
        (pr.merged_at, pr.number, reverted_target(pr, known)[0])
        for pr in known.values()
        if since <= pr.merged_at < window.start_utc
    ]
    earlier.extend(
        (commit.committed_at, commit, commit.reverted_number)
        for commit in pushed_reverts
        if since <= commit.committed_at < window.start_utc
    )
    found: dict[int, Reland] = {}
    for reverted_at, revert, target in sorted(earlier, key=_revert_order):
        if target is None:
            continue
        again = relanding(revert, target, known, among=numbers)
        if again is not None and again not in found:
            found[again] = Reland(
                target=target,
                revert=revert if isinstance(revert, int) else None,
                reverted_on=reverted_at.astimezone(window.zone).date(),
                commit=revert.sha[:9] if isinstance(revert, PushedCommit) else None,
            )
    return found


def _revert_order(revert: tuple[datetime, int | PushedCommit, int | None]) -> tuple[datetime, str]:
    """Reverts by time; of one moment, PRs by number, then pushed commits by sha."""
    at, undoing, _ = revert
    return at, f"0{undoing:012d}" if isinstance(undoing, int) else f"1{undoing.sha}"


def taken_up(risks: Sequence[RiskFlag], known: Mapping[int, PullRequest]) -> dict[int, int]:
    """For each PR flagged with work left open, the later known PR that says it follows
    that PR up (`Follow-up to #6921`, `building on #5564`, `Depends on #13672`) or is the next
    part of its series (`[2/N]` after `[1/N]`), where there is one."""
    found = {}
    for flag in risks:
        if flag.risk == "known_gap" and flag.number in known:
            later = followed_up_by(known[flag.number], known.values())
            if later is not None:
                found[flag.number] = later
    return found


@dataclass(frozen=True)
class Release:
    """A version tag of the week (`ReleaseTag`), on its day in the report's time zone."""

    name: str
    day: date
    sha: str


@dataclass(frozen=True)
class BatchLanding:
    """PRs of the week that landed together long after they were written (a rebased branch:
    `PullRequest.batch_written_at`), their days in the report's time zone."""

    count: int
    written_from: date
    written_to: date
    landed: date
    # Of them, those whose importance reaches the key threshold, and of those the key PRs
    # (`importance.BATCH_KEY_LIMIT`).
    above_threshold: int
    key: int


def batch_landings(
    prs: Sequence[PullRequest],
    score_of: Mapping[int, PrScore],
    window: WeekWindow,
    key_threshold: float,
) -> list[BatchLanding]:
    """The week's batches of PRs landed long after they were written, each its PRs of one
    landing time, earliest first."""
    written_at: dict[datetime, list[datetime]] = defaultdict(list)
    numbers: dict[datetime, list[int]] = defaultdict(list)
    for pr in prs:
        if pr.batch_written_at is not None:
            written_at[pr.merged_at].append(pr.batch_written_at)
            numbers[pr.merged_at].append(pr.number)
    return [
        BatchLanding(
            count=len(numbers[landed_at]),
            written_from=min(written).astimezone(window.zone).date(),
            written_to=max(written).astimezone(window.zone).date(),
            landed=landed_at.astimezone(window.zone).date(),
            above_threshold=sum(
                1 for n in numbers[landed_at] if score_of[n].importance >= key_threshold
            ),
            key=sum(1 for n in numbers[landed_at] if score_of[n].is_key),
        )
        for landed_at, written in sorted(written_at.items())
    ]


@dataclass(frozen=True)
class Summary:
    period: Period
    pr_count: int
    key_count: int
    types: list[tuple[PrType, int]]
    top_modules: Ranked
    top_themes: Ranked
    top: list[PrRef]  # the most important changes
    fix_count: int  # fixes whose text says what the bug caused
    fixes_by_impact: list[tuple[FixImpact, list[int]]]
    fix_total: int  # PRs of type fix
    fix_focus: Ranked  # modules or themes that most of the fixes carry
    reverts: list[RevertChain]
    risk_tally: list[tuple[RiskKind, int]]  # every kind, most serious first
    review_available: bool
    reviews: ReviewCoverage | None = None  # None without review data
    releases: list[Release] = field(default_factory=list)
    pushed: int = 0  # commits pushed to the branch without a PR
    batches: list[BatchLanding] = field(default_factory=list)
    # Of the PRs (the fixes) each module counts, how many have it as the classifier's guess.
    module_guesses: dict[str, int] = field(default_factory=dict)
    fix_guesses: dict[str, int] = field(default_factory=dict)
    # The week's other PRs under the title of a top change, which the list does not repeat.
    same_title: dict[int, list[int]] = field(default_factory=dict)
    # Of a top theme (not one of housekeeping), the kind of change most of its PRs are, where
    # that is the story: verl's 17 NPU PRs of 2026-05-11 were 8 docs changes.
    theme_leads: dict[str, tuple[PrType, int]] = field(default_factory=dict)
    # The classifier's unsure guesses left out of `top_modules` a module the table counts as
    # many PRs for, or more: the summary says they are not counted, or it contradicts the table.
    top_modules_less_unsure: bool = False


TOP_CHANGES = 3
# A top theme's leading kind of change is told when it has this many PRs and this share.
THEME_LEAD_MIN_PRS = 3
THEME_LEAD_MIN_SHARE = 0.4


def top_changes(ranked: Sequence[PrRef]) -> tuple[list[PrRef], dict[int, list[int]]]:
    """The first TOP_CHANGES of `ranked` with one entry per title: a PR under the title of one
    already listed (aibrix #2538 and #2549, two tries at one fix) is named beside it."""
    top: list[PrRef] = []
    same_title: dict[int, list[int]] = defaultdict(list)
    for ref in ranked:
        twin = next(
            (t for t in top if ref.repeat_of == t.number or t.repeat_of == ref.number), None
        )
        if twin is not None:
            same_title[twin.number].append(ref.number)
        elif len(top) < TOP_CHANGES:
            top.append(ref)
        else:
            break
    return top, dict(same_title)


def summary(
    period: Period,
    ordered: Sequence[PrRef],
    score_of: Mapping[int, PrScore],
    counts: WeekCounts,
    reverts: list[RevertChain],
    risks: Sequence[RiskFlag],
    review_available: bool,
    theme_names: Mapping[int, Sequence[str]],
    reviews: ReviewCoverage | None = None,
    housekeeping: Collection[str] = (),
    releases: Sequence[Release] = (),
    pushed: int = 0,
    batches: Sequence[BatchLanding] = (),
) -> Summary:
    key = [r for r in ordered if r.is_key]
    all_fixes = [r for r in ordered if r.pr_type == "fix"]
    by_impact: dict[FixImpact, list[int]] = defaultdict(list)
    # A fix reverted (and not landed again) fixes nothing any more: the revert chain tells it.
    undone = {c.target for c in reverts if c.target is not None and c.relanded is None}
    fixes = [r for r in ordered if score_of[r.number].fix_impacts and r.number not in undone]
    for ref in fixes:
        by_impact[score_of[ref.number].fix_impacts[0]].append(ref.number)
    tally = Counter(f.risk for f in risks)
    # Chosen by their PRs less the unsure guesses, told with all of them, as the table counts.
    chosen = leaders(busiest(sure_module_counts(counts, ordered), len(ordered)), 3)
    top_modules = ranked({m: counts.modules[m] for m, _ in chosen})
    listed = dict(top_modules)
    passed_over = [
        m
        for m, n in counts.modules.items()
        if areas_of([m]) and m not in listed and n >= min(listed.values(), default=n + 1)
    ]
    themes = {t: n for t, n in counts.themes.items() if not _repeats_a_module(t, n, top_modules)}
    top, same_title = top_changes(key or list(ordered))
    top_themes = leaders(busiest(themes, len(ordered)), 2)
    return Summary(
        period=period,
        pr_count=len(ordered),
        pushed=pushed,
        batches=list(batches),
        key_count=len(key),
        types=type_counts(ordered),
        top_modules=top_modules,
        top_themes=top_themes,
        theme_leads={
            theme: lead
            for theme, _ in top_themes
            if theme not in housekeeping
            and (lead := theme_lead(ordered, theme_names, theme)) is not None
        },
        top=top,
        same_title=same_title,
        top_modules_less_unsure=bool(passed_over),
        fix_count=len(fixes),
        fixes_by_impact=list(by_impact.items()),
        fix_total=len(all_fixes),
        fix_focus=fix_focus(all_fixes, theme_names, dominant_themes(ordered, theme_names)),
        module_guesses=guesses(ordered),
        fix_guesses=guesses(all_fixes, sure_only=True),
        reverts=reverts,
        risk_tally=sorted(tally.items(), key=lambda kv: RISK_ORDER.index(kv[0])),
        review_available=review_available,
        reviews=reviews,
        releases=list(releases),
    )


def theme_lead(
    ordered: Sequence[PrRef], theme_names: Mapping[int, Sequence[str]], theme: str
) -> tuple[PrType, int] | None:
    """The kind of change most of a theme's PRs are, with their number, when it is at least
    THEME_LEAD_MIN_PRS of them and THEME_LEAD_MIN_SHARE, but not all (a theme of fixes alone
    says so in its own row)."""
    members = [r for r in ordered if theme in theme_names.get(r.number, ())]
    if not members:
        return None
    pr_type, n = type_counts(members)[0]
    if n < THEME_LEAD_MIN_PRS or n < THEME_LEAD_MIN_SHARE * len(members) or n == len(members):
        return None
    return pr_type, n


def _repeats_a_module(theme: str, count: int, modules: Ranked) -> bool:
    """Whether a theme with `count` PRs names one of the busiest `modules` again, whole or as
    one of its words, and holds about as many PRs: the Docs theme beside the doc module
    (verl's 2026-05-11 read "doc (12), FSDP (11); among themes, NPU/Ascend (17 PRs) and Docs
    (13 PRs)"), CI/infrastructure beside CI. A theme half again as large, by three PRs or more,
    tells of more than the module does (vllm-ascend's 2025-12-29: CI 6, CI/infrastructure 11)."""
    keys = {name_key(theme), *(name_key(word) for word in _THEME_WORD_SPLIT.split(theme) if word)}
    return any(
        name_key(module) in keys and (count < 1.5 * n or count - n < 3) for module, n in modules
    )


def sure_module_counts(counts: WeekCounts, refs: Sequence[PrRef]) -> dict[str, int]:
    """The week's count of each area less its PRs (of `refs`) that have it only as the
    classifier's guess under even odds: such a guess decides no section, so it does not make a
    module the week's busiest either. slime's week of 2026-08-10 opened "The busiest modules
    were CI (10, all of them the classifier's guesses)" for fixes guessed `ci` at 0.12-0.51
    because they register their test in a workflow."""
    unsure = Counter(m for r in refs for m in r.areas if m in r.unsure)
    sure = {m: n - unsure[m] for m, n in counts.modules.items() if areas_of([m])}
    return {m: n for m, n in sure.items() if n > 0}


def guesses(refs: Sequence[PrRef], sure_only: bool = False) -> dict[str, int]:
    """How many of `refs` have each module as the classifier's guess (with `sure_only`, at
    even odds or better, as `fix_focus` counts): slime's fixes that register their test in CI
    were guessed `ci`, ten in its week of 2026-08-10, and made CI the largest change of its
    trends."""
    return dict(
        Counter(m for r in refs if r.predicted for m in (r.sure_areas if sure_only else r.areas))
    )


def fix_focus(
    fixes: Sequence[PrRef], theme_names: Mapping[int, Sequence[str]], dominant: Collection[str] = ()
) -> Ranked:
    """The modules or themes the week's fixes concentrate on, most fixes first (at most two).

    A repository that tags fixes `[BugFix]` has a "bugfix" module; that every fix carries it
    says nothing, so tags naming a change type are no area. Nor is a `dominant` theme, one most
    of the week's PRs carry (NPU in an Ascend-only repository). A module and a theme holding
    the same fixes (perf and Performance) are named once, as are a module and a theme one of
    which holds all the other's fixes (verl's 2026-04-20: 9 fixes of Async/fully-async, 8 of
    them the fully_async module's). Nor is a module the classifier is
    unsure of (`PrRef.unsure`), which decides no section either: slime's fixes that register
    their test in CI were guessed `ci` at 0.12-0.51, and "8 of the week's 20 fixes concern CI"
    said what their CI registry lines were, not what they fixed.
    """
    fixes_of: dict[str, set[int]] = defaultdict(set)
    for r in fixes:
        for name in [*r.sure_areas, *theme_names.get(r.number, ())]:
            if name not in dominant:
                fixes_of[name].add(r.number)
    themes = {t for names in theme_names.values() for t in names}
    focus: Ranked = []
    for name, n in ranked({name: len(f) for name, f in fixes_of.items()}):
        if n < FIX_FOCUS_MIN_PRS or n < FIX_FOCUS_MIN_SHARE * len(fixes):
            break
        if not any(
            fixes_of[name] == fixes_of[kept]
            or (fixes_of[name] <= fixes_of[kept] and (name in themes) != (kept in themes))
            for kept, _ in focus
        ):
            focus.append((name, n))
    return focus[:2]


# A label one PR up or down has not changed enough to be named among the largest changes:
# hiyouga/EasyR1's week of 2026-07-27 (one PR, one the week before) read "The largest changes:
# Docs-related (1 → 0) and checkpoint (0 → 1)".
MIN_LARGEST_CHANGE = 2


def biggest_changes(
    counts: WeekCounts, previous: WeekCounts, prs_of: Mapping[str, Collection[int]]
) -> list[tuple[str, int, int]]:
    """The three modules or themes whose PR count moved most, by MIN_LARGEST_CHANGE or more:
    (name, now, before), given the week's PRs of each (`prs_of`). Tags that only say what
    kind of change a PR is (`bugfix`) are no module here, and a module and a theme that moved
    the same way, one holding the other's PRs this week, are one change, not two (Docs and
    doc, 1 → 8; verl's CI 4 → 9 within CI/infrastructure 5 → 9): the larger move names it."""
    changes = []
    modules = areas_of([*set(counts.modules) | set(previous.modules)])
    themes = set(counts.themes) | set(previous.themes)
    for table, prev, names in (
        (counts.modules, previous.modules, modules),
        (counts.themes, previous.themes, themes),
    ):
        for name in names:
            now, before = table.get(name, 0), prev.get(name, 0)
            if abs(now - before) >= MIN_LARGEST_CHANGE:
                changes.append((name, now, before))
    changes.sort(key=lambda c: (-abs(c[1] - c[2]), c[0]))
    kinds = {name: "module" for name in modules} | {name: "theme" for name in themes}
    distinct: list[tuple[str, int, int]] = []
    for change in changes:
        if not any(_same_move(change, kept, kinds, prs_of) for kept in distinct):
            distinct.append(change)
    return first_without_cut_ties(distinct, 3, lambda c: abs(c[1] - c[2]))


def _same_move(
    change: tuple[str, int, int],
    kept: tuple[str, int, int],
    kinds: Mapping[str, str],
    prs_of: Mapping[str, Collection[int]],
) -> bool:
    """Whether `change` repeats `kept`: the same PRs and start, or a module and a theme that
    moved the same way with one's PRs among the other's. A label that fell to zero has no PRs
    to compare by: it repeats only a module or theme of its name that moved alike (tilelang's
    "Docs (5 → 0), and docs (5 → 0)"), or one spelt the same."""
    if change[0].casefold() == kept[0].casefold():
        # A module and a theme spelt alike (slime's Docker) read as one whatever their moves:
        # "Docker (4 → 1), Docker (3 → 0)" named it twice.
        return True
    if name_key(change[0]) == name_key(kept[0]) and change[1:] == kept[1:]:
        return True
    mine, theirs = set(prs_of.get(change[0], ())), set(prs_of.get(kept[0], ()))
    if not mine or not theirs:
        return False
    if mine == theirs and change[2] == kept[2]:
        return True
    same_way = (change[1] > change[2]) == (kept[1] > kept[2])
    nested = mine <= theirs or theirs <= mine
    return kinds[change[0]] != kinds[kept[0]] and same_way and nested


# The weeks before a week that say what is usual for it (a file's PRs, the share of core
# changes with tests); a stored history that does not reach this far back says nothing of the
# usual, nor who is new.
USUAL_WEEKS = 12
# A code file is busy in a week when at least this many PRs, and this share of the week's,
# changed it, and so many that a week at its usual rate (its PRs a week over the
# USUAL_WEEKS before, at least one PR in all of them) would reach that count less often
# than BUSY_FILE_CHANCE (a Poisson tail). Three PRs alone are no news: verl's ray_trainer.py
# had three or more in 30 of 80 weeks; and twice the usual was, for files changed about once
# a week, within chance: it named files in 58 of tilelang's 73 weeks with a history, this rule
# in 36 (verl: 46 and 31 of 68).
BUSY_FILE_MIN_PRS = 3
BUSY_FILE_SHARE = 0.1
BUSY_FILE_CHANCE = 0.02
MAX_BUSY_FILES = 3


@dataclass(frozen=True)
class BusyFile:
    path: str
    numbers: list[int]  # the week's PRs that changed it, in the order given
    usual: float  # PRs a week that changed it, on average over the USUAL_WEEKS before


def busy_files(
    prs: Sequence[PullRequest],
    history: Collection[PullRequest],
    window: WeekWindow,
    scoring: ScoringConfig,
) -> list[BusyFile]:
    """The code files (core code, where `scoring.core_paths` says what that is) more of the
    week's PRs changed than their usual rate explains, most PRs first: where work piled up
    (verl's engine_workers.py, 7 PRs in its week of 2026-03-30 against 2.4 a week before).
    Nothing when the stored history does not reach USUAL_WEEKS back, since then the usual
    is unknown."""
    since = window.weeks_before(USUAL_WEEKS).start_utc
    if not prs or not any(pr.merged_at < since for pr in history):
        return []

    recent = {pr.number: pr for pr in history if since <= pr.merged_at < window.end_utc}
    recent.update({pr.number: pr for pr in prs})
    name_of = _names_at_end(recent.values())

    def files_of(pr: PullRequest) -> set[str]:
        return {name for c in pr.files if (name := name_of[pr.number, c.path]) is not None}

    changed_by: dict[str, list[int]] = defaultdict(list)
    for pr in prs:
        for path in sorted(files_of(pr)):
            changed_by[path].append(pr.number)
    least = max(BUSY_FILE_MIN_PRS, math.ceil(BUSY_FILE_SHARE * len(prs)))
    crowded = {
        path: numbers
        for path, numbers in changed_by.items()
        if len(numbers) >= least
        and file_kind(path, scoring) is None
        and (not scoring.core_paths or matches_any(path, scoring.core_paths))
    }
    if not crowded:
        return []
    before: Counter[str] = Counter()
    for pr in recent.values():
        if pr.merged_at < window.start_utc:
            before.update(files_of(pr) & crowded.keys())
    busy = [
        BusyFile(path, numbers, before[path] / USUAL_WEEKS)
        for path, numbers in crowded.items()
        if _chance_of_at_least(len(numbers), max(before[path], 1) / USUAL_WEEKS) < BUSY_FILE_CHANCE
    ]
    busy.sort(key=lambda f: (-len(f.numbers), f.path))
    return busy[:MAX_BUSY_FILES]


def _names_at_end(prs: Iterable[PullRequest]) -> dict[tuple[int, str], str | None]:
    """The name each file a PR changed has after the last of `prs`, renames followed: torchtitan
    #3451 renamed grpo.py to trainer.py, and grpo.py's 14 PRs in the 12 weeks before were
    trainer.py's, not none. None for a file whose name a later rename gave to another: the name
    was free then, so that file had gone."""
    later: dict[str, str | None] = {}
    names: dict[tuple[int, str], str | None] = {}
    for pr in sorted(prs, key=lambda p: (p.merged_at, p.number), reverse=True):
        for change in pr.files:
            names[pr.number, change.path] = later.get(change.path, change.path)
        renames = [
            (c.previous_path, c.path)
            for c in pr.files
            if c.previous_path and c.previous_path != c.path
        ]
        for _, path in renames:
            later[path] = None
        for previous, path in renames:
            later[previous] = names[pr.number, path]
    return names


def _chance_of_at_least(count: int, rate: float) -> float:
    """P(X >= count) for a Poisson X of mean `rate`: how often a week that busy comes by chance."""
    return 1.0 - sum(math.exp(-rate) * rate**k / math.factorial(k) for k in range(count))


@dataclass(frozen=True)
class Contributors:
    """How many people wrote the week's PRs, and those whose first stored PR this is, by the
    name they used this week, with their PRs (None when the stored history does not reach
    USUAL_WEEKS back: anyone could look new)."""

    authors: int
    newcomers: list[tuple[str, list[int]]] | None


def contributors(
    prs: Sequence[PullRequest], history: Collection[PullRequest], window: WeekWindow
) -> Contributors | None:
    """Who wrote the week's PRs (bots left out), and who among them had no stored PR before
    under any of their names, as the `author_identities` SQL model tells people apart."""
    person_of = people([*history, *prs])
    by_person: dict[str, tuple[str, list[int]]] = {}
    for pr in prs:
        if pr.author and not is_bot(pr.author):
            by_person.setdefault(person_of[pr.author], (pr.author, []))[1].append(pr.number)
    if not by_person:
        return None
    since = window.weeks_before(USUAL_WEEKS).start_utc
    if not any(pr.merged_at < since for pr in history):
        return Contributors(len(by_person), None)
    earlier = {
        person_of[pr.author] for pr in history if pr.author and pr.merged_at < window.start_utc
    }
    newcomers = [named for person, named in by_person.items() if person not in earlier]
    return Contributors(len(by_person), newcomers)


def people(prs: Collection[PullRequest]) -> dict[str, str]:
    """Each author name's person: names that share an `author_key` (a login, or an email with
    the git source), directly or through other names, are one (verl's "H", "HL", "Haibin Lin"
    and "H (on leave)"). The person is named by one of its nodes; only sameness matters."""
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for pr in prs:
        if pr.author:
            name = f"n:{pr.author}"
            key = f"k:{pr.author_key or 'name:' + pr.author}"
            parent[root(name)] = root(key)
    return {node[2:]: root(node) for node in list(parent) if node.startswith("n:")}


@dataclass(frozen=True)
class PrReviewing:
    """One PR's review by the source's review data. A review counts when someone other than
    the PR's author submitted it or commented in one of its review threads (an author's
    replies in a thread are reviews of GitHub's too); bots review nothing here, but the
    threads they open are counted apart."""

    reviewers: list[str | None]  # in order of their first review; None for a deleted account
    approvers: list[str | None]
    change_requesters: list[str | None]
    threads: int
    bot_threads: int  # of them, those a bot opened
    # The data holds submitted reviews: GitHub's whole record, not thread excerpts alone, so
    # no approval (or no review) means none was given.
    reviews_known: bool = True


def reviewing_by_pr(
    prs: Sequence[PullRequest], review_data: ReviewData
) -> dict[int, PrReviewing] | None:
    """Each of `prs`' review; None when the source has no review data."""
    if not review_data.available:
        return None
    reviews = defaultdict(list)
    for review in review_data.reviews:
        reviews[review.pr_number].append(review)
    threads = defaultdict(list)
    for thread in review_data.threads:
        threads[thread.pr_number].append(thread)
    # No submitted review and no thread either: none was given (GitHub has no thread without a
    # review); threads without reviews are excerpts, which tell who took part, not who approved.
    known = bool(review_data.reviews) or not review_data.threads
    return {pr.number: _reviewing(pr, reviews[pr.number], threads[pr.number], known) for pr in prs}


def _reviewing(
    pr: PullRequest, reviews: Sequence[Review], threads: Sequence[ReviewThread], known: bool
) -> PrReviewing:
    people = [r for r in reviews if not is_bot(r.author, r.author_is_bot) and r.author != pr.author]
    commenters = [
        c.author
        for t in threads
        for c in t.comments
        if not (c.is_pr_author or c.author == pr.author or is_bot(c.author, c.author_is_bot))
    ]

    def stating(state: str) -> list[str | None]:
        return list(dict.fromkeys(r.author for r in people if r.state.upper() == state))

    return PrReviewing(
        reviewers=list(dict.fromkeys([*(r.author for r in people), *commenters])),
        approvers=stating("APPROVED"),
        change_requesters=stating("CHANGES_REQUESTED"),
        threads=len(threads),
        bot_threads=sum(
            1
            for t in threads
            if t.comments and is_bot(t.comments[0].author, t.comments[0].author_is_bot)
        ),
        reviews_known=known,
    )


@dataclass(frozen=True)
class ReviewCoverage:
    """Who reviewed the week's PRs (`PrReviewing`, summed up)."""

    prs: int
    reviewed: int  # PRs with a person's review
    approved: int | None  # PRs a person approved; None when the data holds no reviews at all
    reviewers: int  # the people who reviewed them
    threads: int  # review threads on the week's PRs
    bot_threads: int  # of them, those a bot opened
    median_hours_to_merge: float | None = None  # from opening, where the source tells it
    # The stored PRs of the USUAL_WEEKS before with review data, and how many a person
    # approved, once there are MIN_EARLIER_REVIEWED_PRS of them.
    earlier_prs: int | None = None
    earlier_approved: int | None = None


# How many PRs with review data the weeks before need for their share approved to compare with.
MIN_EARLIER_REVIEWED_PRS = 10


def review_coverage(
    reviewing: Mapping[int, PrReviewing] | None,
    prs: Sequence[PullRequest] = (),
    earlier: Sequence[PrReviewing] = (),
) -> ReviewCoverage | None:
    """The week's review coverage from its PRs' `reviewing_by_pr`; None without review data or
    PRs. `prs` give the time from opening to merge (`review_health`'s median); `earlier` is
    the review of the PRs before (`reviewing_before`)."""
    if not reviewing:
        return None
    reviewings = list(reviewing.values())
    known = all(r.reviews_known for r in reviewings)
    hours = [
        (pr.merged_at - pr.created_at).total_seconds() / 3600
        for pr in prs
        if pr.number in reviewing and pr.created_at is not None
    ]
    compared = (
        known and len(earlier) >= MIN_EARLIER_REVIEWED_PRS and all(r.reviews_known for r in earlier)
    )
    return ReviewCoverage(
        prs=len(reviewings),
        reviewed=sum(1 for r in reviewings if r.reviewers),
        approved=sum(1 for r in reviewings if r.approvers) if known else None,
        reviewers=len({login for r in reviewings for login in r.reviewers if login}),
        threads=sum(r.threads for r in reviewings),
        bot_threads=sum(r.bot_threads for r in reviewings),
        median_hours_to_merge=round(statistics.median(hours), 1) if hours else None,
        earlier_prs=len(earlier) if compared else None,
        earlier_approved=sum(1 for r in earlier if r.approvers) if compared else None,
    )


# The reviewers the trends name: at most this many, who reviewed at least this many of the
# week's PRs.
MAX_BUSIEST_REVIEWERS = 3
MIN_NAMED_REVIEWER_PRS = 2


def busiest_reviewers(reviewing: Mapping[int, PrReviewing] | None) -> list[tuple[str, int]]:
    """The people who reviewed the most of the week's PRs, with how many, most first (ties by
    login), from MIN_NAMED_REVIEWER_PRS PRs; at most MAX_BUSIEST_REVIEWERS."""
    counts: Counter[str] = Counter(
        login for r in (reviewing or {}).values() for login in r.reviewers if login
    )
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    named = [(login, n) for login, n in ranked if n >= MIN_NAMED_REVIEWER_PRS]
    return named[:MAX_BUSIEST_REVIEWERS]


def reviewing_before(
    reviewed: Mapping[int, PrReviewing], history: Collection[PullRequest], window: WeekWindow
) -> list[PrReviewing]:
    """The review (`reviewed`: of stored PRs with review data) of the PRs merged in the
    USUAL_WEEKS before the week."""
    since = window.weeks_before(USUAL_WEEKS).start_utc
    return [
        reviewed[pr.number]
        for pr in history
        if since <= pr.merged_at < window.start_utc and pr.number in reviewed
    ]


# How many changes of core code a week, and the weeks before it, need for a share of them
# with tests to mean something.
MIN_CORE_CHANGES = 3
MIN_EARLIER_CORE_CHANGES = 10


@dataclass(frozen=True)
class CoreTesting:
    """Of the PRs that change core code (`risks.core_tests`), how many also changed tests:
    this week's, and over the USUAL_WEEKS before when the stored history covers them."""

    min_lines: int  # the core lines a change needs to count (`untested_core_min_lines`)
    changes: int
    tested: int
    earlier_changes: int | None = None
    earlier_tested: int | None = None


def core_testing(
    prs: Sequence[PullRequest],
    tested: Callable[[PullRequest], bool | None],
    history: Collection[PullRequest],
    window: WeekWindow,
    min_lines: int,
) -> CoreTesting | None:
    """This week's changes of core code and how many came with tests, against the weeks
    before (`tested`: a PR's `risks.core_tests`, None for no such change)."""
    week = [t for t in map(tested, prs) if t is not None]
    if len(week) < MIN_CORE_CHANGES:
        return None
    since = window.weeks_before(USUAL_WEEKS).start_utc
    earlier = [
        t
        for t in (tested(pr) for pr in history if since <= pr.merged_at < window.start_utc)
        if t is not None
    ]
    covered = any(pr.merged_at < since for pr in history)
    if not covered or len(earlier) < MIN_EARLIER_CORE_CHANGES:
        return CoreTesting(min_lines, len(week), week.count(True))
    return CoreTesting(min_lines, len(week), week.count(True), len(earlier), earlier.count(True))


@dataclass(frozen=True)
class FlaggedPr:
    """One flagged PR as a risk observation lists it."""

    number: int
    subject: str
    lines: int | None
    paths: list[str]
    modules: list[str]
    asks: list[ReviewAsk]
    settings: list[SettingChange]
    uncompared_paths: list[str]
    deleted_paths: list[str]
    quotes: list[str] = field(default_factory=list)  # the author's words on work left open
    taken_up_by: int | None = None  # a later PR that says it follows this one up
    test_lines: int | None = None  # of `lines`, those in tests, where worth saying
    related: list[int] = field(default_factory=list)  # e.g. the earlier fix a fix repeats
    uncounted: list[UncountedKind] = field(default_factory=list)  # files `lines` leaves out


@dataclass(frozen=True)
class RequirementStep:
    number: int
    before: str | None  # None: not required before this PR
    after: str | None  # None: no longer required after it


@dataclass(frozen=True)
class RequirementChain:
    """One requirement of one manifest that several of the week's PRs changed, one after
    another, in merge order: what the week did to it taken together."""

    path: str
    key: str
    steps: list[RequirementStep]

    @property
    def before(self) -> str | None:
        return self.steps[0].before

    @property
    def after(self) -> str | None:
        return self.steps[-1].after


@dataclass(frozen=True)
class RiskGroup:
    """The flags of one risk kind: every flagged PR, those the text goes through one by one
    (none for kinds named as a plain list of PRs), and how many of those it leaves out."""

    kind: RiskKind
    numbers: list[int]
    listed: list[FlaggedPr]
    unlisted: int
    reverts: list[RevertChain]  # the revert kind's chains; the reverted kind's pushed ones
    # The dependency kind's requirements that several PRs changed in turn.
    requirement_chains: list[RequirementChain] = field(default_factory=list)
    # The CI and image kinds' files that several PRs changed, with how many (`shared_files`).
    shared_files: list[tuple[str, int]] = field(default_factory=list)


def requirement_chains(
    flags: Sequence[RiskFlag], merged_at: Mapping[int, datetime]
) -> list[RequirementChain]:
    """Requirements that two or more of the week's dependency flags changed in the same
    manifest, each PR's change taking up where the one merged before it left off (`torch`
    ==2.7 -> ==2.8, then ==2.8 -> ==2.9). A sequence that does not join up is left out: it
    would be a history the data does not show. The longest MAX_REQUIREMENT_CHAINS of them."""
    steps: dict[tuple[str, str], list[tuple[datetime, RequirementStep]]] = defaultdict(list)
    for flag in flags:
        if flag.risk != "dependency_change" or flag.number not in merged_at:
            continue
        for change in flag.settings:
            if change.path is not None:
                step = RequirementStep(flag.number, change.before, change.after)
                steps[change.path, change.key].append((merged_at[flag.number], step))
    chains = []
    for (path, key), dated in steps.items():
        ordered = [step for _, step in sorted(dated, key=lambda item: (item[0], item[1].number))]
        numbers = {step.number for step in ordered}
        joined = all(a.after == b.before for a, b in pairwise(ordered))
        if len(numbers) == len(ordered) > 1 and joined:
            chains.append(RequirementChain(path, key, ordered))
    chains.sort(key=lambda chain: (-len(chain.steps), chain.path, chain.key))
    return chains[:MAX_REQUIREMENT_CHAINS]


# Files several of a CI or image risk's PRs changed, named when the list of PRs is cut short:
# vllm-ascend's 2026-08-03 listed 6 of 28 CI workflow changes, and did not say that 9 of the
# 28 edited one file, its list of tests to run.
MAX_SHARED_FILES = 3


def shared_files(flags: Sequence[RiskFlag]) -> list[tuple[str, int]]:
    """The files two or more of `flags` are about, with how many, most often changed first
    (every file of a flag, where it has them: one stored before it did keeps a few)."""
    counts = Counter(path for flag in flags for path in set(flag.files or flag.paths))
    shared = sorted(((p, n) for p, n in counts.items() if n >= 2), key=lambda pn: (-pn[1], pn[0]))
    return shared[:MAX_SHARED_FILES]


def risk_groups(
    risks: Sequence[RiskFlag],
    refs: Mapping[int, PrRef],
    chains: Mapping[int, RevertChain],
    taken_up: Mapping[int, int] | None = None,
    merged_at: Mapping[int, datetime] | None = None,
    pushed_reverts: Sequence[RevertChain] = (),
) -> list[RiskGroup]:
    """The week's risks by kind; `chains` are the week's revert chains by revert number,
    `taken_up` the later PR that followed up each PR with work left open, where known,
    `merged_at` when each PR merged (for requirements several PRs changed in turn), and
    `pushed_reverts` the chains of the week's reverts pushed without a PR."""
    found = []
    if pushed_reverts:
        # No revert PR carries these, so the reverted PRs are the risk: OpenRLHF's #725 was
        # reverted by a pushed commit the day it merged, and no report said so.
        found.append(
            RiskGroup(
                kind="reverted",
                numbers=list(dict.fromkeys(c.target for c in pushed_reverts if c.target)),
                listed=[],
                unlisted=0,
                reverts=list(pushed_reverts),
            )
        )
    for kind, flags in by_kind(risks):
        if kind == "reverted":
            # A reverted PR's revert merged the same week (that is how it is flagged), and
            # the revert's chain already tells it: saying it twice reads as two problems.
            continue
        # The largest changes, else the most important PRs, one by one; "and N more" after
        # MAX_LISTED (a busy week has thirty CI workflow changes).
        listed = []
        if kind == "large_change":
            listed = sorted(flags, key=lambda f: -(f.lines or 0))[:MAX_LISTED]
        elif kind not in ("revert", "no_approval"):
            listed = sorted(flags, key=lambda f: -refs[f.number].importance)[:MAX_LISTED]
        found.append(
            RiskGroup(
                kind=kind,
                numbers=[f.number for f in flags],
                listed=[_flagged(f, refs, (taken_up or {}).get(f.number)) for f in listed],
                unlisted=len(flags) - len(listed) if listed else 0,
                reverts=[chains[f.number] for f in flags] if kind == "revert" else [],
                requirement_chains=requirement_chains(flags, merged_at or {})
                if kind == "dependency_change"
                else [],
                shared_files=shared_files(flags)
                if kind in ("ci_change", "docker_change") and len(flags) > len(listed)
                else [],
            )
        )
    return sorted(found, key=lambda group: RISK_ORDER.index(group.kind))


def _flagged(flag: RiskFlag, refs: Mapping[int, PrRef], taken_up_by: int | None) -> FlaggedPr:
    return FlaggedPr(
        number=flag.number,
        subject=subject(refs[flag.number]),
        lines=flag.lines,
        paths=flag.paths,
        modules=flag.modules,
        asks=flag.asks,
        settings=flag.settings,
        uncompared_paths=flag.uncompared_paths,
        deleted_paths=flag.deleted_paths,
        quotes=flag.quotes,
        taken_up_by=taken_up_by,
        test_lines=flag.test_lines if tests_noted(flag.test_lines, flag.lines) else None,
        related=flag.related,
        uncounted=flag.uncounted,
    )


def by_kind(risks: Sequence[RiskFlag]) -> list[tuple[RiskKind, list[RiskFlag]]]:
    grouped: dict[RiskKind, list[RiskFlag]] = defaultdict(list)
    for flag in risks:
        grouped[flag.risk].append(flag)
    return sorted(grouped.items(), key=lambda kv: RISK_ORDER.index(kv[0]))


@dataclass(frozen=True)
class FollowUp:
    kind: FollowUpKind
    numbers: list[int]  # the PRs to follow up, most important first
    limit: int  # how many of them to name
    revert: RevertChain | None = None
    # `works_everywhere`: each risk kind it joins, with its PRs (most important first).
    parts: tuple[tuple[RiskKind, tuple[int, ...]], ...] = ()


def follow_ups(
    risks: Sequence[RiskFlag],
    refs: Mapping[int, PrRef],
    chains: Mapping[int, RevertChain],
    taken_up: Mapping[int, int] | None = None,
    large_change_lines: int = 0,
    pushed_reverts: Sequence[RevertChain] = (),
) -> list[FollowUp]:
    """One follow-up per risk kind (per revert, `pushed_reverts` too, after the revert PRs'),
    most serious first; a revert whose target is unknown or landed again, a reverted PR (its
    revert carries the follow-up), work left open that a later PR has taken up and a change
    very large only with its tests (a noted share of them, and under `large_change_lines`
    without them) have none. Nor does a reverted PR under any other kind: its change is no
    longer in the tree (verl's 2025-03-31 asked for tests and a regression watch for #706,
    reverted by #883 that week)."""
    reverted = {f.number for f in risks if f.risk == "reverted"}
    found: list[FollowUp] = []
    for kind, flags in by_kind(risks):
        if kind not in ("revert", "reverted"):
            flags = [f for f in flags if f.number not in reverted]
            if not flags:
                continue
        if kind == "known_gap":
            flags = [f for f in flags if f.number not in (taken_up or {})]
            if not flags:
                continue
        if kind == "large_change":
            # Regressions come from the code a change touches, not from its tests: lmdeploy
            # #4594's 2822 lines, 2398 of them tests, needs no watch after merging.
            flags = [
                f
                for f in flags
                if not tests_noted(f.test_lines, f.lines)
                or (f.lines or 0) - (f.test_lines or 0) >= large_change_lines
            ]
            if not flags:
                continue
        if kind == "revert":
            found.extend(
                follow_up
                for flag in flags
                if (follow_up := _revert_follow_up(chains[flag.number], flag.number)) is not None
            )
        elif kind != "reverted":
            numbers = sorted(
                dict.fromkeys(f.number for f in flags), key=lambda n: (-refs[n].importance, n)
            )
            found.append(FollowUp(kind, numbers, FOLLOW_UP_LIMITS.get(kind, MAX_LISTED)))
    # A revert pushed without a PR asks what a revert PR asks: OpenRLHF's reverts of #581 and
    # #725 asked nothing. The revert kind, first of all, ends where the first other kind starts.
    pushed = [
        follow_up
        for chain in pushed_reverts
        if chain.target is not None
        and (follow_up := _revert_follow_up(chain, chain.target)) is not None
    ]
    reverts_end = sum(1 for follow_up in found if follow_up.revert is not None)
    found[reverts_end:reverts_end] = pushed
    return _checks_joined(found)


def _revert_follow_up(chain: RevertChain, number: int) -> FollowUp | None:
    """What a revert asks of the week (`number`: the revert PR, or a pushed revert's PR)."""
    if chain.relanded is not None:
        return None  # the change is back: nothing to re-fix or re-check
    if chain.reopened:
        return FollowUp("refix", [number], MAX_LISTED, chain)
    if chain.target:
        kind: FollowUpKind = "revert_explained" if chain.reason else "revert"
        return FollowUp(kind, [number], MAX_LISTED, chain)
    return None


def _checks_joined(found: list[FollowUp]) -> list[FollowUp]:
    """The follow-ups with those of WORKS_EVERYWHERE as one, where the first of them was."""
    checks = [f for f in found if f.kind in WORKS_EVERYWHERE]
    if len(checks) < 2:
        return found
    joined = FollowUp(
        "works_everywhere",
        list(dict.fromkeys(n for f in checks for n in f.numbers)),
        MAX_LISTED,
        parts=tuple((cast(RiskKind, f.kind), tuple(f.numbers)) for f in checks),
    )
    position = found.index(checks[0])
    rest = [f for f in found if f.kind not in WORKS_EVERYWHERE]
    return [*rest[:position], joined, *rest[position:]]
