"""PRs that come again under an earlier PR's title: a re-land, a second try at a fix, a backport.

The report tells the later one where the earlier went (`reporting.facts`), and a fix under an
earlier fix's title is a risk of its own (`risks`): the first fix may not have held.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from prhub_pipeline.modelling.scoring.importance import reverted_target
from prhub_pipeline.modelling.scoring.relands import title_words
from prhub_pipeline.records import PrType, PullRequest

# A PR of these types whose title an earlier PR had, within REPEAT_WITHIN and on some of the
# same files, is another go at that change (aibrix #2549 after #2538, two days apart; verl
# #5945 after #5904). Housekeeping titles repeat as a matter of course ("Bump actions/checkout
# from 4 to 6", "Update README.md"), and a title of fewer words than this names no one change.
REPEAT_TYPES: frozenset[PrType] = frozenset({"feat", "fix", "perf", "refactor"})
REPEAT_WITHIN = timedelta(days=30)
REPEAT_MIN_WORDS = 3
# "[2/N]", "(3/4)": a part of a series, whose parts share a title on purpose.
_SERIES_PART = re.compile(r"[\[(]\s*(\d+)\s*/\s*(?:\d+|n)\s*[\])]", re.IGNORECASE)


@dataclass(frozen=True)
class Repeat:
    """The latest earlier PR under a PR's title: how many days before it merged, the PR's files
    it changed too (all of them and no more: `same_files`), the PR that reverted it if one did,
    and the PR's own branch where it differs from the earlier one's (a backport)."""

    number: int
    days: int
    shared_paths: tuple[str, ...]
    same_files: bool
    reverted_by: int | None
    branch: str | None


def repeats(
    prs: Sequence[PullRequest], pr_types: Mapping[int, PrType], known: Mapping[int, PullRequest]
) -> dict[int, Repeat]:
    """The earlier PR each of `prs` repeats the title of, by number, for PRs of REPEAT_TYPES.

    The known PRs are read once for them all: only those merged in the window the PRs could
    repeat, grouped by their title's words (a busy repository's report builds this for every
    week of a backfill)."""
    candidates = [pr for pr in prs if pr_types.get(pr.number) in REPEAT_TYPES]
    if not candidates:
        return {}
    start = min(pr.merged_at for pr in candidates) - REPEAT_WITHIN
    end = max(pr.merged_at for pr in candidates)
    window = sorted(
        (other for other in known.values() if start <= other.merged_at <= end),
        key=lambda other: (other.merged_at, other.number),
    )
    by_words: dict[frozenset[str], list[PullRequest]] = defaultdict(list)
    for other in window:
        by_words[title_words(other.title)].append(other)
    found = {}
    for pr in candidates:
        words = title_words(pr.title)
        if len(words) >= REPEAT_MIN_WORDS:
            repeat = _repeat(pr, by_words[words], window, known)
            if repeat is not None:
                found[pr.number] = repeat
    return found


def _repeat(
    pr: PullRequest,
    same_title: Sequence[PullRequest],
    window: Sequence[PullRequest],
    known: Mapping[int, PullRequest],
) -> Repeat | None:
    """The latest of `same_title` (in merge order) before `pr`, within REPEAT_WITHIN, sharing
    a file with it and no other part of a series; a revert of it is looked for in `window`."""
    files = {f.path for f in pr.files}
    part = _SERIES_PART.findall(pr.title)
    earlier = [
        other
        for other in same_title
        if other.number != pr.number
        and timedelta(0) <= pr.merged_at - other.merged_at <= REPEAT_WITHIN
        and (other.merged_at < pr.merged_at or other.number < pr.number)
        and files & {f.path for f in other.files}
        and _SERIES_PART.findall(other.title) == part
    ]
    if not earlier:
        return None
    first = earlier[-1]
    theirs = {f.path for f in first.files}
    reverted_by = next(
        (
            other.number
            for other in window
            if first.merged_at <= other.merged_at <= pr.merged_at
            and reverted_target(other, known)[0] == first.number
        ),
        None,
    )
    return Repeat(
        number=first.number,
        days=(pr.merged_at.date() - first.merged_at.date()).days,
        shared_paths=tuple(f.path for f in pr.files if f.path in theirs),
        same_files=files == theirs,
        reverted_by=reverted_by,
        branch=pr.base_branch
        if first.base_branch and pr.base_branch != first.base_branch
        else None,
    )
