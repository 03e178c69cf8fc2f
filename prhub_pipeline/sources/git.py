"""The git source: merged PRs from the first-parent history of a local clone.

Offline and fast. It recognises squash merges (`title (#N)`) and GitHub merge commits
(`Merge pull request #N from owner/branch`); other commits are not PRs and are skipped. It has no
review data. A whole range of weeks is read with one `git log` call. Before reading, a bare
clone's branch can be updated from its `origin` remote (`update_clone`), so a scheduled run sees
the week's merges without anyone fetching by hand.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from prhub_pipeline.records import FileChange, FileStatus, PullRequest
from prhub_pipeline.reverts import read_revert, reverted_number

SQUASH_SUBJECT = re.compile(r"^(?P<title>.*\S)\s+\(#(?P<number>\d+)\)\s*$")
MERGE_SUBJECT = re.compile(r"^Merge pull request #(?P<number>\d+) from (?P<branch>\S+)")
TRAILER = re.compile(r"^(?P<key>Co-authored-by|Signed-off-by):\s*(?P<value>.*)$", re.IGNORECASE)
SEPARATOR = re.compile(r"^-{3,}$")
NAME_BEFORE_EMAIL = re.compile(r"^(?P<name>.*?)\s*<[^>]*>\s*$")

# `git log` output is split on control characters that commit messages do not contain.
RECORD = "\x1e"
FIELD = "\x1f"
LOG_FORMAT = f"{RECORD}%H{FIELD}%P{FIELD}%an{FIELD}%cI{FIELD}%B{FIELD}"
RAW_STATUS: dict[str, FileStatus] = {
    "A": "added",
    "D": "removed",
    "M": "modified",
    "T": "modified",
    "R": "renamed",
    "C": "copied",
}
# `--since` stops git's walk early; a margin keeps commits whose committer clock ran behind.
SINCE_MARGIN = timedelta(days=2)
FETCH_TIMEOUT_SECONDS = 120


class GitSourceError(Exception):
    """The clone could not be read, or a commit could not be turned into a PR record."""


@dataclass
class _Commit:
    sha: str
    parents: list[str]
    author: str
    committed_at: datetime
    message: str
    files: list[FileChange] = field(default_factory=list)


def _git(
    command: list[str], timeout: float | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(command, capture_output=True, check=False, timeout=timeout, env=env)
    except FileNotFoundError as exc:
        raise GitSourceError("git is not installed or not on PATH") from exc


def _run_git(git_path: Path, args: list[str]) -> str:
    completed = _git(["git", f"--git-dir={_git_dir(git_path)}", *args])
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip()
        raise GitSourceError(f"git {' '.join(args[:2])} failed in {git_path}: {message}")
    return completed.stdout.decode("utf-8", "replace")


def _try_git(git_dir: Path, args: list[str]) -> str | None:
    """A git command's trimmed output, or None when it fails."""
    completed = _git(["git", f"--git-dir={git_dir}", *args])
    if completed.returncode != 0:
        return None
    return completed.stdout.decode("utf-8", "replace").strip()


def _git_dir(git_path: Path) -> Path:
    dot_git = git_path / ".git"
    if dot_git.exists():
        return dot_git
    if (git_path / "HEAD").is_file() and (git_path / "objects").is_dir():
        return git_path
    raise GitSourceError(f"{git_path} is not a git clone (no .git folder, not a bare repository)")


def _parse_changes(tokens: list[str]) -> list[FileChange]:
    """Join `--raw` (status, rename source) and `--numstat` (line counts) entries by path."""
    statuses: dict[str, tuple[FileStatus, str | None]] = {}
    counts: dict[str, tuple[int | None, int | None]] = {}
    order: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index].lstrip("\n")
        index += 1
        if not token:
            continue
        if token.startswith(":"):
            letter = token.split()[-1][0]
            status = RAW_STATUS.get(letter, "modified")
            if letter in ("R", "C"):
                source, path = tokens[index], tokens[index + 1]
                index += 2
            else:
                source, path = None, tokens[index]
                index += 1
            statuses[path] = (status, source)
            order.append(path)
            continue
        added, deleted, path = token.split("\t", 2)
        if not path:  # a rename: source and destination follow as tokens of their own
            path = tokens[index + 1]
            index += 2
        counts[path] = (
            None if added == "-" else int(added),
            None if deleted == "-" else int(deleted),
        )
    changes = []
    for path in order:
        status, source = statuses[path]
        additions, deletions = counts.get(path, (None, None))
        changes.append(
            FileChange(
                path=path,
                status=status,
                previous_path=source,
                additions=additions,
                deletions=deletions,
            )
        )
    return changes


def _parse_log(output: str) -> list[_Commit]:
    commits = []
    for chunk in output.split(RECORD):
        if not chunk.strip():
            continue
        sha, parents, author, committed, rest = chunk.split(FIELD, 4)
        message, _, changes = rest.rpartition(FIELD)
        commits.append(
            _Commit(
                sha=sha,
                parents=parents.split(),
                author=author,
                committed_at=datetime.fromisoformat(committed),
                message=message,
                files=_parse_changes(changes.split("\0")),
            )
        )
    return commits


def _split_message(message: str) -> tuple[str, str, list[str]]:
    """Subject, body without its trailing trailer block, and co-author names.

    GitHub's squash message ends with `---------` and Co-authored-by / Signed-off-by trailers;
    they are not part of the PR description.
    """
    subject, _, body = message.strip("\n").partition("\n")
    lines = body.split("\n")  # not splitlines(): PR descriptions keep their \r\n
    co_authors: list[str] = []
    for line in lines:
        trailer = TRAILER.match(line.strip())
        if trailer and trailer.group("key").lower() == "co-authored-by":
            value = trailer.group("value").strip()
            named = NAME_BEFORE_EMAIL.match(value)
            name = named.group("name") if named else value
            if name and name not in co_authors:
                co_authors.append(name)
    while lines and (not lines[-1].strip() or TRAILER.match(lines[-1].strip())):
        lines.pop()
    if lines and SEPARATOR.match(lines[-1].strip()):
        lines.pop()
    return subject.strip(), "\n".join(lines).strip(), co_authors


def _to_pull_request(repo: str, commit: _Commit) -> PullRequest | None:
    subject, body, co_authors = _split_message(commit.message)
    merge = MERGE_SUBJECT.match(subject)
    if merge and len(commit.parents) > 1:
        number = int(merge.group("number"))
        title, _, body = body.partition("\n")
        title, body = title.strip() or subject, body.strip()
    else:
        squash = SQUASH_SUBJECT.match(subject)
        if not squash:
            return None
        number = int(squash.group("number"))
        title = squash.group("title")
    revert = read_revert(title, body)
    try:
        return PullRequest(
            repo=repo,
            number=number,
            title=title,
            body=body,
            author=commit.author or None,
            co_authors=co_authors,
            merged_at=commit.committed_at,
            merge_commit_sha=commit.sha,
            additions=sum(f.additions or 0 for f in commit.files),
            deletions=sum(f.deletions or 0 for f in commit.files),
            changed_files=len(commit.files),
            files=commit.files,
            is_revert=revert is not None,
            reverted_sha=revert.reverted_sha if revert else None,
            reverted_number=revert.body_number if revert else None,
            source="git",
        )
    except ValidationError as exc:
        raise GitSourceError(
            f"commit {commit.sha[:12]} (PR #{number}) is not a valid PR: {exc}"
        ) from None


def _resolve_reverted_numbers(
    git_path: Path, prs: list[PullRequest], commits: dict[str, int], titles: dict[str, int]
) -> list[PullRequest]:
    """Name the PR each revert undoes, looking up reverted commits older than the window."""
    unresolved = [pr for pr in prs if pr.is_revert and pr.reverted_number is None]
    unresolved_numbers = {pr.number for pr in unresolved}
    wanted = {pr.reverted_sha for pr in unresolved if pr.reverted_sha}
    unknown = sorted(sha for sha in wanted if not any(c.startswith(sha) for c in commits))
    if unknown:
        output = _run_git(
            git_path, ["log", "--no-walk=unsorted", "--ignore-missing", "--format=%H %s", *unknown]
        )
        for line in output.splitlines():
            sha, _, subject = line.partition(" ")
            landed = SQUASH_SUBJECT.match(subject) or MERGE_SUBJECT.match(subject)
            if landed:
                commits[sha] = int(landed.group("number"))
    resolved = []
    for pr in prs:
        revert = read_revert(pr.title, pr.body) if pr.number in unresolved_numbers else None
        if revert is not None:
            number = reverted_number(revert, titles, commits)
            if number is not None:
                pr = pr.model_copy(update={"reverted_number": number})
        resolved.append(pr)
    return resolved


def read_merged_prs(
    git_path: Path,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    branch: str | None = None,
) -> list[PullRequest]:
    """PRs merged into the branch's first-parent history in [start, end), oldest first.

    One `git log` call covers the whole window, however many weeks it spans.
    """
    if start.tzinfo is None or end.tzinfo is None:
        raise ValueError("start and end must carry a time zone")
    output = _run_git(
        git_path,
        [
            "log",
            branch or "HEAD",
            "--first-parent",
            "--diff-merges=first-parent",
            "--raw",
            "--numstat",
            "-M",
            "-z",
            "--no-color",
            f"--since={(start - SINCE_MARGIN).isoformat()}",
            f"--until={(end + SINCE_MARGIN).isoformat()}",
            f"--format={LOG_FORMAT}",
        ],
    )
    pr_commits: dict[str, int] = {}
    titles: dict[str, int] = {}
    by_number: dict[int, PullRequest] = {}
    for commit in _parse_log(output):
        pr = _to_pull_request(repo, commit)
        if pr is None:
            continue
        pr_commits[commit.sha] = pr.number
        titles.setdefault(pr.title, pr.number)
        if not start <= pr.merged_at < end:
            continue
        # The newest landing of a number wins (a PR squash-merged twice, e.g. after a force-push).
        by_number.setdefault(pr.number, pr)
    prs = sorted(by_number.values(), key=lambda pr: (pr.merged_at, pr.number))
    return _resolve_reverted_numbers(git_path, prs, pr_commits, titles)


class CloneUpdate(BaseModel):
    """What updating the clone from its `origin` remote did before it was read."""

    model_config = ConfigDict(frozen=True)

    status: Literal["updated", "skipped", "failed"]
    message: str  # one line for logs and the run's summary


def update_clone(git_path: Path, branch: str | None = None) -> CloneUpdate:
    """Fetch the branch from `origin` into a bare clone, so a scheduled run sees new merges.

    A working clone is read as it is: fetching into its checked-out branch would leave the
    files behind the branch, so updating it (`git pull`) stays with its owner. A failed or
    timed-out fetch (offline, no access) is reported rather than raised, and the clone is then
    read as it is.
    """
    git_dir = _git_dir(git_path)
    if git_dir != git_path:
        return CloneUpdate(status="skipped", message="a working clone is read as it is")
    if _try_git(git_dir, ["config", "--get", "remote.origin.url"]) is None:
        return CloneUpdate(status="skipped", message="no origin remote: the clone is read as it is")
    name = (branch or _try_git(git_dir, ["symbolic-ref", "--short", "HEAD"]) or "").removeprefix(
        "refs/heads/"
    )
    ref = f"refs/heads/{name}"
    before = _try_git(git_dir, ["rev-parse", "--verify", "--short", ref]) if name else None
    if before is None:
        return CloneUpdate(
            status="skipped", message=f"{branch or 'HEAD'} is not a local branch: read as it is"
        )
    try:
        fetched = _git(
            [
                "git",
                f"--git-dir={git_dir}",
                "fetch",
                "--no-tags",
                "--quiet",
                "origin",
                f"+{ref}:{ref}",
            ],
            timeout=FETCH_TIMEOUT_SECONDS,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},  # never wait for a password
        )
    except subprocess.TimeoutExpired:
        return CloneUpdate(
            status="failed",
            message=f"fetching {name} from origin took over {FETCH_TIMEOUT_SECONDS} s:"
            " the clone is read as it is",
        )
    if fetched.returncode != 0:
        errors = fetched.stderr.decode("utf-8", "replace").strip().splitlines()
        return CloneUpdate(
            status="failed",
            message=f"fetching {name} from origin failed ({errors[-1] if errors else 'no output'}):"
            " the clone is read as it is",
        )
    after = _try_git(git_dir, ["rev-parse", "--short", ref])
    change = f"{before} -> {after}" if after != before else f"{after}, already up to date"
    return CloneUpdate(status="updated", message=f"{name} fetched from origin: {change}")
