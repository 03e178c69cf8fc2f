"""Reading reverts: which PR a revert undoes, from the evidence its title and body give.

Shared by the sources and by scoring so that every stage resolves a revert the same way. The
evidence, strongest first: GitHub's revert button writes `Reverts owner/name#N` as the body;
`git revert` writes `This reverts commit <sha>`; both quote the reverted title in
`Revert "<title>"`. A quoted title may itself end in `(#N)` naming an issue rather than the PR
(verl's #6360 reverts #6350, titled "... (#6293)"), so a title is only trusted when it matches a
known PR's title exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.records import PullRequest

# `Revert "<title>"`, also behind tags and with the reverted PR's number after the quote, as
# vllm-ascend writes them: `[Revert] Revert "[CI] add a5 nightly test" (#14190)`.
REVERT_TITLE = re.compile(
    r'^(?:\s*[\[【][^\]】]*[\]】])*\s*Revert\s*:?\s*"(?P<quoted>.*)"(?P<number>\s*\(#\d+\))?\s*$',
    re.DOTALL | re.IGNORECASE,
)
REVERTS_PR_BODY = re.compile(
    r"^\s*(?:Reverts|Revert of PR)\s+(?:[\w.-]+/[\w.-]+)?#(?P<number>\d+)\b",
    re.MULTILINE | re.IGNORECASE,
)
REVERTS_COMMIT = re.compile(r"This reverts commit (?P<sha>[0-9a-f]{7,40})")
# A title that says it reverts, behind any tags: `Revert ...`, `[CI] Revert "..."`, `revert: ...`.
REVERT_WORD_TITLE = re.compile(r"^(?:\s*[\[【][^\]】]*[\]】])*\s*revert\b", re.IGNORECASE)
TRAILING_PR_NUMBER = re.compile(r"\s*\(#(?P<number>\d+)\)\s*$")


class RevertText(BaseModel):
    """What a revert's own text says about the PR it undoes."""

    model_config = ConfigDict(frozen=True)

    quoted_title: str | None = None  # from `Revert "<title>"`
    body_number: int | None = None  # from `Reverts owner/name#N`
    reverted_sha: str | None = None  # from `This reverts commit <sha>`


def read_revert(title: str, body: str) -> RevertText | None:
    """The revert evidence in a PR's title and body; None when it is not a revert.

    `This reverts commit <sha>` counts when the title says revert or the body opens with it,
    as `git revert` writes it. Elsewhere it is a squash body's list of the branch's commits,
    one of which reverted another commit of the branch: not a revert of anything merged.
    """
    quoted = REVERT_TITLE.match(title)
    by_body = REVERTS_PR_BODY.search(body)
    by_commit = REVERTS_COMMIT.search(body)
    if by_commit and not (REVERT_WORD_TITLE.match(title) or REVERTS_COMMIT.match(body.lstrip())):
        by_commit = None
    if not (quoted or by_body or by_commit):
        return None
    # A number after the quote names the reverted PR as a squash commit's `(#N)` would.
    quoted_title = (
        f"{quoted.group('quoted').strip()}{quoted.group('number') or ''}".strip()
        if quoted
        else None
    )
    return RevertText(
        quoted_title=quoted_title,
        body_number=int(by_body.group("number")) if by_body else None,
        reverted_sha=by_commit.group("sha") if by_commit else None,
    )


def match_quoted_title(quoted: str, titles: Mapping[str, int]) -> int | None:
    """The PR whose title the revert quotes: the title as quoted, or (for a reverted squash
    commit's subject `title (#N)`) the title without that suffix when PR N has it."""
    if quoted in titles:
        return titles[quoted]
    suffix = TRAILING_PR_NUMBER.search(quoted)
    if suffix:
        number = titles.get(quoted[: suffix.start()].strip())
        if number == int(suffix.group("number")):
            return number
    return None


def reverted_number(
    revert: RevertText,
    titles: Mapping[str, int],
    commits: Mapping[str, int] | None = None,
) -> int | None:
    """The reverted PR by the strongest evidence available; None when nothing identifies it.

    `titles` maps known PR titles to numbers; `commits` maps merge commits (full shas) to
    numbers for `This reverts commit <sha>`, which may be abbreviated.
    """
    if revert.body_number is not None:
        return revert.body_number
    if revert.reverted_sha and commits:
        for sha, number in commits.items():
            if sha.startswith(revert.reverted_sha):
                return number
    if revert.quoted_title:
        return match_quoted_title(revert.quoted_title, titles)
    return None


def titles_before(prs: Iterable[PullRequest], revert: PullRequest) -> dict[str, int]:
    """The titles of the PRs merged before `revert`, for matching the title it quotes. A title
    used more than once (a PR re-landed after its revert) names the latest PR merged before."""
    earlier = sorted(
        (pr for pr in prs if pr.merged_at <= revert.merged_at and pr.number != revert.number),
        key=lambda pr: (pr.merged_at, pr.number),
    )
    return {pr.title.strip(): pr.number for pr in earlier}


def merge_commits(prs: Iterable[PullRequest]) -> dict[str, int]:
    """Merge commit sha -> PR number, for `This reverts commit <sha>`."""
    return {pr.merge_commit_sha: pr.number for pr in prs if pr.merge_commit_sha}
