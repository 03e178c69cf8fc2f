"""Reading reverts: which PR a revert undoes, from the evidence its title and body give.

Shared by the sources and by scoring so that every stage resolves a revert the same way. The
evidence, strongest first: GitHub's revert button writes `Reverts owner/name#N` as the body;
`git revert` writes `This reverts commit <sha>`; both quote the reverted title in
`Revert "<title>"`. A quoted title may itself end in `(#N)` naming an issue rather than the PR
(verl's #6360 reverts #6350, titled "... (#6293)"), so a title is only trusted when it matches a
known PR's title exactly.

Authors who revert by hand write less regular text: `Revert [KV-Sharing] Support ... (#4138)`,
`Revert pr4214 ...`, `This PR reverts #9865 / commit 9099b7f`, a link to the reverted PR. Once
the history is known (`reverted_by_mention`), such a mention counts when it names an earlier PR
that changed some of the same files: an issue number or an unrelated PR named for context
shares none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.records import (
    MAX_DESCRIPTION_CHARS,
    MAX_TITLE_CHARS,
    PullRequest,
    pr_number,
)

# `Revert "<title>"`, also behind tags and with the reverted PR's number after the quote, as
# vllm-ascend writes them: `[Revert] Revert "[CI] add a5 nightly test" (#14190)`, and with a
# reason after a dash or colon (LLaMA-Factory #8554: `Revert "[model] add lora dropout to
# unsloth" - requested feature already exists`, which the warehouse stored as no revert).
REVERT_TITLE = re.compile(
    r'^(?:\s*[\[【][^\]】]*[\]】])*\s*Revert\s*:?\s*"(?P<quoted>.*)"(?P<number>\s*\(#\d+\))?'
    r'(?:\s*[-–—:]\s[^"]*)?\s*$',
    re.DOTALL | re.IGNORECASE,
)
# The same with the quoted title cut short, as GitHub cuts a long one:
# `Revert "Update multihost disagg sh to prepare integrate with buildkit…` (tpu-inference #1297).
CUT_REVERT_TITLE = re.compile(
    r'^(?:\s*[\[【][^\]】]*[\]】])*\s*Revert\s*:?\s*"(?P<quoted>[^"]*?(?:…|\.\.\.))\s*$',
    re.DOTALL | re.IGNORECASE,
)
# A cut title names a PR only when this much of it is left and one title starts so.
MIN_CUT_TITLE = 20
REVERTS_PR_BODY = re.compile(
    # `[ \t]*`, not `\s*`: from every line start, `\s*` ran over all the blank lines after it.
    # Authors who revert by hand say so as the button does (vllm-ascend #12228 "Manually
    # reverts #11899 from `main`.", #11021 "This PR reverts #10077.").
    r"^[ \t]*(?:(?:this\s+pr\s+|manually\s+)?reverts|Revert of PR)\s+"
    r"(?:[\w.-]+/[\w.-]+)?#(?P<number>\d+)\b",
    re.MULTILINE | re.IGNORECASE,
)
REVERTS_COMMIT = re.compile(r"This reverts commit (?P<sha>[0-9a-f]{7,40})")
# A title that says it reverts, behind any tags: `Revert ...`, `[CI] Revert "..."`, `revert: ...`,
# or in a tag of its own (vllm-ascend #12228 "[Revert][Refactor][Attention] Restore paged
# attention fallback (reverts #11899)").
_REVERT_LEAD = (
    r"^(?:\s*[\[【][^\]】]*[\]】])*?\s*(?:revert\b|[\[【]\s*revert\s*[\]】](?:\s*revert\b)?)"
)
REVERT_WORD_TITLE = re.compile(_REVERT_LEAD, re.IGNORECASE)
TRAILING_PR_NUMBER = re.compile(r"\s*\(#(?P<number>\d+)\)\s*$")
# What follows the word in a title that says it reverts, an unclosed or missing quote allowed:
# `Revert "[Feature] Cache the code start compilation` (vllm-ascend #9899).
_REVERTED_SUBJECT = re.compile(
    _REVERT_LEAD + r'\s*:?\s*"?(?P<subject>.+?)"?\s*$', re.DOTALL | re.IGNORECASE
)
_QUOTED_SUBJECT = re.compile(r'(?P<title>[^"]+)"')
# `#4138`, `pr4214`, `PR #3295`, `.../pull/10301`: a PR number, as people write one.
_MENTIONED_PR = re.compile(r"(?:#|\bpr\s?#?\s?|/pull/)(?P<number>\d+)\b", re.IGNORECASE)
# A commit hash: at least seven hex digits, one of them a letter (not a date or a number).
_MENTIONED_SHA = re.compile(r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


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
    title, body = title[:MAX_TITLE_CHARS], body[:MAX_DESCRIPTION_CHARS]
    quoted = REVERT_TITLE.match(title) or CUT_REVERT_TITLE.match(title)
    by_body = REVERTS_PR_BODY.search(body)
    by_commit = REVERTS_COMMIT.search(body)
    if by_commit and not (REVERT_WORD_TITLE.match(title) or REVERTS_COMMIT.match(body.lstrip())):
        by_commit = None
    if not (quoted or by_body or by_commit):
        return None
    # A number after the quote names the reverted PR as a squash commit's `(#N)` would.
    quoted_title = (
        f"{quoted.group('quoted').strip()}{quoted.groupdict().get('number') or ''}".strip()
        if quoted
        else None
    )
    return RevertText(
        quoted_title=quoted_title,
        body_number=pr_number(by_body.group("number")) if by_body else None,
        reverted_sha=by_commit.group("sha") if by_commit else None,
    )


def match_quoted_title(quoted: str, titles: Mapping[str, int]) -> int | None:
    """The PR whose title the revert quotes: the title as quoted, or (for a reverted squash
    commit's subject `title (#N)`) the title without that suffix when PR N has it, or (for a
    title cut short with an ellipsis) the one title that starts as it does."""
    if quoted in titles:
        return titles[quoted]
    if quoted.endswith(("…", "...")):
        start = quoted.rstrip(".…").rstrip()
        if len(start) < MIN_CUT_TITLE:
            return None
        numbers = {number for title, number in titles.items() if title.startswith(start)}
        return numbers.pop() if len(numbers) == 1 else None
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


def reverted_by_mention(revert: PullRequest, earlier: Iterable[PullRequest]) -> int | None:
    """The PR a hand-written revert undoes, for a title that says it reverts but names its
    target in none of the formats `read_revert` reads; None when nothing identifies it.

    `earlier` are the PRs merged before the revert. The evidence, in order: the title after
    "Revert" is an earlier PR's title (unquoted, or with an unclosed quote); else a PR the
    title, then the body, names by number, link or merge commit that changed a file the revert
    changes (of several, the one whose title shares most words with the revert's).
    """
    if not REVERT_WORD_TITLE.match(revert.title):
        return None
    candidates = sorted(
        (pr for pr in earlier if pr.number != revert.number and pr.merged_at <= revert.merged_at),
        key=lambda pr: (pr.merged_at, pr.number),
    )
    subject = _REVERTED_SUBJECT.match(revert.title)
    if subject:
        titles = {pr.title.strip(): pr.number for pr in candidates}
        # The whole subject, or the quoted title a reason follows (LLaMA-Factory #8554:
        # `Revert "[model] add lora dropout to unsloth" - requested feature already exists`).
        quoted = _QUOTED_SUBJECT.match(subject.group("subject"))
        for text in (subject.group("subject"), quoted.group("title") if quoted else ""):
            by_title = match_quoted_title(text.strip(), titles) if text.strip() else None
            if by_title is not None:
                return by_title
    by_number = {pr.number: pr for pr in candidates}
    commits = merge_commits(candidates)
    subject_words = _words(subject.group("subject")) if subject else set()
    for text in (revert.title, revert.body):
        sharing = _named_sharing_files(text, revert, by_number, commits)
        if sharing:
            # One revert of several PRs (vllm-ascend #6891 lists four commits): the one its
            # title describes, else the first named.
            return max(sharing, key=lambda pr: len(subject_words & _words(pr.title))).number
    return None


_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


def also_reverted(revert: PullRequest, target: int, earlier: Iterable[PullRequest]) -> list[int]:
    """The PRs besides `target` that a revert of several undoes: those its title or body names
    (by number, link or merge commit) that changed a file it changes. torchtitan #3212 "Revert
    precompile PRs (#3107, #3178) to fix CI" was told as a revert of #3178 alone."""
    if not REVERT_WORD_TITLE.match(revert.title):
        return []
    text = read_revert(revert.title, revert.body)
    if text is not None and text.body_number is not None:
        return []  # GitHub's revert button undoes one PR
    # Only the body's lines that speak of reverting, outside code: a pasted traceback's
    # "frame #3" named verl #3 beside #883's revert of #706.
    body = "\n".join(
        line
        for line in _CODE_BLOCK.sub("", revert.body).splitlines()
        if re.search(r"revert", line, re.IGNORECASE)
    )
    candidates = {
        pr.number: pr
        for pr in earlier
        if pr.number not in (revert.number, target) and pr.merged_at <= revert.merged_at
    }
    commits = merge_commits(candidates.values())
    title = TRAILING_PR_NUMBER.sub("", revert.title)
    found = [
        pr.number
        for said in (title, body)
        for pr in _named_sharing_files(said, revert, candidates, commits)
    ]
    return list(dict.fromkeys(found))


def _named_sharing_files(
    text: str, revert: PullRequest, by_number: Mapping[int, PullRequest], commits: Mapping[str, int]
) -> list[PullRequest]:
    """The known PRs `text` names (`_mentions`) that changed a file the revert changes."""
    touched = _paths(revert)
    return [pr for pr in _mentions(text, by_number, commits) if touched & _paths(pr)]


def _mentions(
    text: str, by_number: Mapping[int, PullRequest], commits: Mapping[str, int]
) -> list[PullRequest]:
    """The known PRs a text names by number or merge commit, in the order it names them."""
    found: list[tuple[int, PullRequest]] = []
    for match in _MENTIONED_PR.finditer(text):
        pr = by_number.get(int(match.group("number")))
        if pr is not None:
            found.append((match.start(), pr))
    for match in _MENTIONED_SHA.finditer(text):
        sha = match.group(0)
        number = next((n for full, n in commits.items() if full.startswith(sha)), None)
        if number is not None and number in by_number:
            found.append((match.start(), by_number[number]))
    return [pr for _, pr in sorted(found, key=lambda item: item[0])]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]{2,}", text.lower()))


def _paths(pr: PullRequest) -> set[str]:
    return {path for f in pr.files for path in (f.path, f.previous_path) if path}
