"""The git source: merged PRs from the first-parent history of a local clone.

Offline and fast. It recognises squash merges (`title (#N)`), GitHub merge commits
(`Merge pull request #N from owner/branch`) and commits landed by ghstack or Phabricator
(`Pull Request resolved: https://github.com/owner/name/pull/N`); other commits were pushed
without a PR, and are returned apart from the PRs (`GitWindow.pushed`). It has no review data.
A whole range of weeks is read with three `git log` calls. Before reading, a bare clone's
branch can be updated from its `origin` remote (`update_clone`), so a scheduled run sees the
week's merges without anyone fetching by hand.
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
import subprocess
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from prhub_pipeline.records import (
    BOT_LOGIN,
    VERSION_TAG,
    FileChange,
    FileStatus,
    FileVersions,
    PullRequest,
    PushedCommit,
    ReleaseTag,
    author_key,
    describe_validation_error,
    pr_number,
)
from prhub_pipeline.reverts import RevertText, read_revert, reverted_number

# `title (#N)`, also without the space (tilelang: `... MI300 series(#671)`).
SQUASH_SUBJECT = re.compile(r"^(?P<title>.*\S)\s*\(#(?P<number>\d+)\)\s*$")
MERGE_SUBJECT = re.compile(r"^Merge pull request #(?P<number>\d+) from (?P<branch>\S+)")
# A PR landed by ghstack or Meta's Phabricator export names it in a trailer, not in its subject:
# 188 of pytorch/torchtitan's commits ("Pull Request resolved: https://github.com/pytorch/
# torchtitan/pull/2639") were read as pushed without a PR. A renamed repository's older
# landings name its former one (pytorch-labs/torchtrain), so another owner/name counts when the
# landing tool's own trailer is there too: all 193 of torchtitan's carry one, and a body that
# only quotes another repository's line is no landing of this one.
RESOLVED_PR = re.compile(
    r"^Pull Request resolved: https://github\.com/(?P<repo>[^/\s]+/[^/\s]+)/pull/"
    r"(?P<number>\d+)\s*$",
    re.MULTILINE,
)
LANDING_TOOL_TRAILER = re.compile(r"^(?:ghstack-source-id|Differential Revision):", re.MULTILINE)
# The landing tools' own trailers, which are no part of the description.
LANDING_TRAILER = re.compile(
    r"^(?:Pull Request resolved|ghstack-source-id|Differential Revision):.*\n?", re.MULTILINE
)
TRAILER = re.compile(r"^(?P<key>Co-authored-by|Signed-off-by):\s*(?P<value>.*)$", re.IGNORECASE)
SEPARATOR = re.compile(r"^-{3,}$")
# `Name <email>`, also with stray text after it; a bare `email` or `<email>` names its local part.
CO_AUTHOR = re.compile(r"^(?P<name>[^<]*?)\s*<?(?P<local>[^<>@\s]+)@[^>\s]*>?")
# `name[bot] <address>`: a bot among the co-authors (see `_bot_addresses`).
BOT_CO_AUTHOR = re.compile(
    r"^(?P<name>[^<]*\[bot\])\s*<(?P<address>[^<>\s]+@[^<>\s]+)>", re.IGNORECASE
)

# `git log -z` output is split on NUL, the one character git keeps out of commit messages,
# names and paths (a message may hold any other: one with \x1e and \x1f in it forged a PR).
# The commit time as a Unix timestamp: `%cI` prints the recorded UTC offset as it is, and one
# out of range (a commit written with +9959, which git accepts) failed every run. The author
# time too: a commit landed by a rebase was written then (`batch_landings`).
LOG_FIELDS = ("%H", "%P", "%an", "%ae", "%ct", "%at", "%B")
LOG_FORMAT = "%x00".join(LOG_FIELDS)
AUTHOR_FIELDS = ("%H", "%an", "%ae")
AUTHOR_FORMAT = "%x00".join(AUTHOR_FIELDS)
GRAPH_FIELDS = ("%H", "%P", "%an", "%ae")
GRAPH_FORMAT = "%x00".join(GRAPH_FIELDS)
CHANGES_FORMAT = "commit %H"
SHA = re.compile(r"[0-9a-f]{40,64}")
CHANGES_HEADER = re.compile(r"commit (?P<sha>[0-9a-f]{40,64})")
NUMSTAT = re.compile(r"(?:\d+|-)\t(?:\d+|-)\t")
RAW_STATUS: dict[str, FileStatus] = {
    "A": "added",
    "D": "removed",
    "M": "modified",
    "T": "modified",
    "R": "renamed",
    "C": "copied",
}
FETCH_TIMEOUT_SECONDS = 120
CAT_FILE_HEADER = re.compile(rb"^[0-9a-f]{40,64} (?P<type>[a-z]+) (?P<size>\d+)$")


class GitSourceError(Exception):
    """The clone could not be read, or a commit could not be turned into a PR record."""


@dataclass
class _Commit:
    sha: str
    parents: list[str]
    author: str
    author_email: str
    committed_at: datetime
    authored_at: datetime
    message: str


def _git(
    command: list[str],
    timeout: float | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            command,
            capture_output=True,
            check=False,
            timeout=timeout,
            env=env,
            input=stdin.encode() if stdin is not None else None,
        )
    except FileNotFoundError as exc:
        raise GitSourceError("git is not installed or not on PATH") from exc


# What git says when the clone lacks an object it needs (a partial clone without its remote,
# a damaged one): the fix is in the clone, not in prhub's settings.
_MISSING_OBJECT = re.compile(r"unable to read|missing blob|bad object|could not read", re.I)


def _run_git(git_path: Path, args: list[str], stdin: str | None = None) -> str:
    completed = _git(["git", f"--git-dir={_git_dir(git_path)}", *args], stdin=stdin)
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip()
        if _MISSING_OBJECT.search(message):
            message += (
                " (the clone lacks objects git needs to diff its commits: a partial clone"
                " whose remote is out of reach, or a damaged one; clone the repository in full)"
            )
        raise GitSourceError(f"git {' '.join(args[:2])} failed in {git_path}: {message}")
    return completed.stdout.decode("utf-8", "replace")


def _try_git(git_dir: Path, args: list[str]) -> str | None:
    """A git command's trimmed output, or None when it fails."""
    completed = _git(["git", f"--git-dir={git_dir}", *args])
    if completed.returncode != 0:
        return None
    return completed.stdout.decode("utf-8", "replace").strip()


def check_clone(git_path: Path, repo: str) -> None:
    """Raise GitSourceError, saying how to make it, unless `git_path` is a whole git clone: a
    shallow one ends its history at its cut, and the weeks before it would read fewer PRs (or
    none) than they had."""
    if not git_path.exists():
        raise GitSourceError(
            f"git_path: no such directory {git_path} (clone the repository there first:"
            f" git clone --bare https://github.com/{repo} {git_path})"
        )
    git_dir = _git_dir(git_path)
    if _try_git(git_dir, ["rev-parse", "--is-shallow-repository"]) == "true":
        raise GitSourceError(
            f"{git_path} is a shallow clone: the weeks before its cut would lose PRs; make it"
            f" whole first: git --git-dir={git_dir} fetch --unshallow"
        )


def branch_commit(git_path: Path, branch: str | None) -> str | None:
    """The commit `branch` (default: HEAD) is at now, or None where it names none."""
    revision = branch or "HEAD"
    return _try_git(
        _git_dir(git_path), ["rev-parse", "--verify", "--quiet", "--end-of-options", revision]
    )


def _check_branch(git_path: Path, branch: str | None) -> None:
    """Raise GitSourceError saying what is missing when `branch` (default: HEAD) names no
    commit of the clone: an empty repository, a branch it does not have, a HEAD naming a
    branch without commits."""
    git_dir = _git_dir(git_path)
    revision = branch or "HEAD"
    if _try_git(
        git_dir, ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"]
    ):
        return
    listing = _try_git(git_dir, ["for-each-ref", "--format=%(refname:short)", "refs/heads"])
    branches = (listing or "").splitlines()
    if not branches and not _try_git(git_dir, ["rev-list", "--max-count=1", "--all"]):
        raise GitSourceError(f"{git_path} has no commits (clone the repository with its history)")
    shown = ", ".join(branches[:10]) + (", ..." if len(branches) > 10 else "") or "none"
    if branch is None:
        head = _try_git(git_dir, ["symbolic-ref", "--short", "HEAD"]) or "HEAD"
        raise GitSourceError(
            f"{git_path}: its HEAD names branch `{head}`, which has no commits (its branches:"
            f" {shown}); set the repository's `branch`"
        )
    raise GitSourceError(f"branch `{branch}` does not exist in {git_path} (its branches: {shown})")


def _git_dir(git_path: Path) -> Path:
    dot_git = git_path / ".git"
    if dot_git.exists():
        return dot_git
    if (git_path / "HEAD").is_file() and (git_path / "objects").is_dir():
        return git_path
    raise GitSourceError(f"{git_path} is not a git clone (no .git folder, not a bare repository)")


def _parse_changes(tokens: list[str]) -> dict[str, list[FileChange]]:
    """Each commit's files from `git log -z --raw --numstat` output cut at NUL: a commit's
    `commit SHA` line, then its `--raw` (status, rename source) and `--numstat` (line
    counts) entries, joined by path. Paths are read where the entries put them, so a file
    named like a commit line is still a path."""
    changes: dict[str, list[FileChange]] = {}
    statuses: dict[str, tuple[FileStatus, str | None]] = {}
    counts: dict[str, tuple[int | None, int | None]] = {}
    order: list[str] = []
    sha: str | None = None

    def close() -> None:
        if sha is not None:
            changes[sha] = [
                FileChange(
                    path=path,
                    status=statuses[path][0],
                    previous_path=statuses[path][1],
                    additions=counts.get(path, (None, None))[0],
                    deletions=counts.get(path, (None, None))[1],
                )
                for path in order
            ]

    index = 0
    while index < len(tokens):
        token = tokens[index].lstrip("\n")
        index += 1
        if not token:
            continue
        if header := CHANGES_HEADER.fullmatch(token):
            close()
            sha, statuses, counts, order = header.group("sha"), {}, {}, []
        elif token.startswith(":"):
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
        elif NUMSTAT.match(token):
            added, deleted, path = token.split("\t", 2)
            if not path:  # a rename: source and destination follow as tokens of their own
                path = tokens[index + 1]
                index += 2
            counts[path] = (
                None if added == "-" else int(added),
                None if deleted == "-" else int(deleted),
            )
        else:
            raise GitSourceError(f"git log printed {token[:80]!r} where a file change belongs")
    close()
    return changes


def _records(output: str, fields: int, what: str) -> list[list[str]]:
    """`git log -z` output of a `%x00`-joined format of `fields` fields, commit by commit; a
    commit whose first field is no SHA, or that has too few fields, fails naming it."""
    tokens = output.split("\0")
    if tokens and tokens[-1].strip() == "":
        tokens.pop()  # after the last commit
    records = [tokens[i : i + fields] for i in range(0, len(tokens), fields)]
    for record in records:
        if len(record) != fields or not SHA.fullmatch(record[0].lstrip("\n")):
            raise GitSourceError(f"git log printed a {what} that is not one: {record[:2]!r}")
        record[0] = record[0].lstrip("\n")
    return records


def _parse_log(output: str) -> list[_Commit]:
    commits = []
    for sha, parents, author, author_email, committed, authored, message in _records(
        output, len(LOG_FIELDS), "commit"
    ):
        commits.append(
            _Commit(
                sha=sha,
                parents=parents.split(),
                author=author,
                author_email=author_email,
                committed_at=datetime.fromtimestamp(int(committed), UTC),
                authored_at=datetime.fromtimestamp(int(authored), UTC),
                message=message,
            )
        )
    return commits


def _read_changes(
    git_path: Path, shas: list[str], named: Mapping[str, str] | None = None
) -> dict[str, list[FileChange]]:
    """Each commit's files, diffed against its first parent, in one `git log` call.

    When the clone lacks an object a diff needs, the error names the first commit that needs
    it (`named` says what that commit is, e.g. its PR): git names only the object, and
    torchtitan's mirror lacked a blob of one 2024 PR among a year of them."""
    if not shas:
        return {}
    try:
        return _log_changes(git_path, shas)
    except GitSourceError as exc:
        if not _MISSING_OBJECT.search(str(exc)) or len(shas) == 1:
            raise
        for sha in shas:
            try:
                _log_changes(git_path, [sha])
            except GitSourceError:
                what = (named or {}).get(sha, "")
                raise GitSourceError(
                    f"commit {sha[:12]}{f' ({what})' if what else ''}: {exc}"
                ) from None
        raise


def _log_changes(git_path: Path, shas: list[str]) -> dict[str, list[FileChange]]:
    output = _run_git(
        git_path,
        [
            "log",
            "--no-walk=unsorted",
            "--stdin",
            "--diff-merges=first-parent",
            "--raw",
            "--numstat",
            "-M",
            "-z",
            "--no-color",
            f"--format={CHANGES_FORMAT}",
        ],
        stdin="\n".join(shas),
    )
    return _parse_changes(output.split("\0"))


def _read_authors(git_path: Path, shas: list[str]) -> dict[str, tuple[str, str]]:
    """Each commit's author name and email."""
    if not shas:
        return {}
    output = _run_git(
        git_path,
        ["log", "-z", "--no-walk=unsorted", "--stdin", "--no-color", f"--format={AUTHOR_FORMAT}"],
        stdin="\n".join(shas),
    )
    return {
        sha: (name, email)
        for sha, name, email in _records(output, len(AUTHOR_FIELDS), "commit's author")
    }


def _branches_commit_authors(
    git_path: Path, branches: Sequence[tuple[str, str]]
) -> dict[str, list[tuple[str, str]]]:
    """The name and address of each of merged branches' own commits (not those a branch shares
    with the mainline before its merge), newest first, by the branch's tip, with one `git log`
    call: `branches` are (tip, mainline commit before the merge), in the order they were merged.

    The log holds every commit since the first branch's base; a branch's own commits are those
    of its first-parent line that its base cannot reach, and what the bases reach grows with
    each merge, so the whole walk reads each commit once.
    """
    if not branches:
        return {}
    output = _run_git(
        git_path,
        ["log", "-z", "--no-color", f"--format={GRAPH_FORMAT}", "--stdin"],
        stdin="\n".join([*{rev for branch in branches for rev in branch}, "^" + branches[0][1]]),
    )
    parents: dict[str, list[str]] = {}
    authors: dict[str, tuple[str, str]] = {}
    for sha, parent_shas, name, email in _records(output, len(GRAPH_FIELDS), "commit"):
        parents[sha] = parent_shas.split()
        authors[sha] = (name, email)
    reached: set[str] = set()  # the commits the bases so far reach (within the log)
    commits_of: dict[str, list[tuple[str, str]]] = {}
    for tip, base in branches:
        stack = [base]
        while stack:
            sha = stack.pop()
            if sha in parents and sha not in reached:
                reached.add(sha)
                stack.extend(parents[sha])
        own: list[tuple[str, str]] = []
        sha = tip
        while sha in parents and sha not in reached:
            own.append(authors[sha])
            sha = parents[sha][0] if parents[sha] else ""
        commits_of[tip] = own
    return commits_of


def _branch_authors(git_path: Path, landings: Sequence[_Landing]) -> dict[str, tuple[str, str]]:
    """Each merged branch's author, by its tip: the author of its latest commit no bot made.

    A bot that pushes to the branch (pre-commit-ci's `auto fixes from pre-commit.com hooks`)
    did not write the PR: ColossalAI #6208 and #5850 end in such a commit. A branch of bot
    commits alone (a dependency bump merged by a merge commit) is the bot's.
    """
    merges = {
        landing.merged_branch_tip: landing.commit.parents[0]
        for landing in landings
        if landing.merged_branch_tip
    }
    authors = _read_authors(git_path, list(merges))
    bot_tips = [tip for tip in merges if tip in authors and BOT_LOGIN.search(authors[tip][0])]
    own_commits = _branches_commit_authors(git_path, [(tip, merges[tip]) for tip in bot_tips])
    for tip, commits in own_commits.items():
        person = next((c for c in commits if not BOT_LOGIN.search(c[0])), None)
        if person:
            authors[tip] = person
    return authors


def _signs_as(login: str, name: str, email: str) -> bool:
    """Whether a commit's author is the GitHub account `login`: by its noreply address, its
    name, or its address's local part (slime's kekmodel commits as "jd.kim
    <kekmodel@gmail.com>")."""
    wanted = login.lower()
    address = email.strip().lower()
    return (
        author_key(email=address) == wanted
        or name.strip().lower() == wanted
        or address.partition("@")[0] == wanted
    )


def _fork_authors(
    git_path: Path, repo: str, landings: Sequence[_Landing], wanted: Sequence[_Landing]
) -> dict[str, tuple[str, str]]:
    """The author (name, address) of each PR of `wanted` merged from a fork, by its branch's
    tip, where the fork's owner tells it apart from whoever pushed to the branch last;
    `landings` are the whole history's.

    `Merge pull request #N from owner/branch` names the fork the PR came from, and a person's
    fork is the PR author's: ColossalAI #6334 is flybird11111's, though its branch ends in a
    commit BurkeHulk pushed as "Hanks", and LLaMA-Factory's owner (hiyouga) pushed last to 57
    of its contributors' branches. The author is the branch's commit signed as the owner (see
    `_signs_as`), else the one person who wrote the branch but for the repository's owner (who
    pushes to contributors' branches, and opens PRs from the repository's own), else the
    owner's own commit in another of its branches. A branch several people wrote,
    none signing as the owner, keeps its last author (`_branch_authors`): its owner may be an
    organisation or the repository's former owner (OpenRLHF's OpenLLMAI, from which hijkzzz,
    catqaq and jianh merged 55 PRs before the repository moved). The login itself is no
    author's name here: the git source names people as they commit, and a login in place of
    the name that links a person's addresses would split them in two.
    """
    repo_owner = repo.partition("/")[0]
    forks = [
        landing
        for landing in wanted
        if landing.merged_from and landing.merged_from.lower() != repo_owner.lower()
    ]
    owners = {(landing.merged_from or "").lower() for landing in forks}
    # Every branch merged from those owners, oldest first, as (owner, tip, base).
    merged = [
        (owner, tip, landing.commit.parents[0])
        for landing in landings
        if (owner := (landing.merged_from or "").lower()) in owners
        and (tip := landing.merged_branch_tip)
    ]
    # Their persons' commits, newest first.
    branch_commits = {
        tip: [
            commit
            for commit in commits
            if not BOT_LOGIN.search(commit[0]) and not _signs_as(repo_owner, *commit)
        ]
        for tip, commits in _branches_commit_authors(
            git_path, [(tip, base) for _, tip, base in merged]
        ).items()
    }
    signed_by_owner: dict[str, tuple[str, str]] = {}  # each owner's newest own commit
    for owner, tip, _ in reversed(merged):
        own = next((c for c in branch_commits[tip] if _signs_as(owner, *c)), None)
        if own and owner not in signed_by_owner:
            signed_by_owner[owner] = own
    authors: dict[str, tuple[str, str]] = {}
    for landing in forks:
        owner = (landing.merged_from or "").lower()
        tip = landing.merged_branch_tip
        commits = branch_commits.get(tip or "", [])
        writers = {author_key(email=email) or f"name:{name}" for name, email in commits}
        author = next((commit for commit in commits if _signs_as(owner, *commit)), None)
        signed = signed_by_owner.get(owner)
        if author is None and len(writers) == 1:
            # The owner's, under another address: named as the owner signs elsewhere, so that
            # the two addresses are one person's (LLaMA-Factory's codemayq, who also commits
            # as "codingma <codingma@163.com>").
            author = (signed[0] if signed else commits[0][0], commits[0][1])
        author = author or signed
        if tip and author:
            authors[tip] = author
    return authors


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
            parsed = CO_AUTHOR.match(value)
            if parsed:
                name = parsed.group("name") or parsed.group("local")
            else:
                name = value.partition("<")[0].strip() or value
            if name and name not in co_authors:
                co_authors.append(name)
    while lines and (not lines[-1].strip() or TRAILER.match(lines[-1].strip())):
        lines.pop()
    if lines and SEPARATOR.match(lines[-1].strip()):
        lines.pop()
    return subject.strip(), "\n".join(lines).strip(), co_authors


def _bot_addresses(message: str) -> dict[str, str]:
    """The bots a message's Co-authored-by trailers name (`name[bot]`), by their address,
    lowercased. GitHub's Copilot agent commits as `Copilot <198982749+Copilot@users.noreply
    .github.com>`, a name without the `[bot]` that tells bots apart, and signs its commits
    `Co-authored-by: copilot-swe-agent[bot]` at that same address: LLaMA-Factory #10506 and four
    more PRs were counted as a person's, and "Copilot" welcomed as a new author."""
    bots: dict[str, str] = {}
    for line in message.split("\n"):
        trailer = TRAILER.match(line.strip())
        if not trailer or trailer.group("key").lower() != "co-authored-by":
            continue
        bot = BOT_CO_AUTHOR.match(trailer.group("value").strip())
        if bot:
            bots.setdefault(bot.group("address").lower(), bot.group("name").strip())
    return bots


def landing_times(history: Sequence[_Commit]) -> list[_Commit]:
    """The first-parent `history` (oldest first), each commit at the time it landed: its
    committer date, unless that date is out of the branch's order. A committer's clock or a
    rewrite of history can date a commit far from its place: tilelang's #208 says 2025-07-20
    among the PRs of March 2025, and was reported as merged in July. The most commits whose
    dates keep the order (a longest non-decreasing run) are taken as right; a commit out of it
    is moved into the span between its neighbours in that run. Ordered histories (verl,
    vllm-ascend) are unchanged."""
    dates = [commit.committed_at for commit in history]
    tails: list[datetime] = []  # the smallest last date of an ordered run of each length
    tail_at: list[int] = []
    before = [-1] * len(dates)
    for i, day in enumerate(dates):
        length = bisect.bisect_right(tails, day)
        if length == len(tails):
            tails.append(day)
            tail_at.append(i)
        else:
            tails[length] = day
            tail_at[length] = i
        before[i] = tail_at[length - 1] if length else -1
    kept: list[int] = []
    at = tail_at[-1] if tail_at else -1
    while at != -1:
        kept.append(at)
        at = before[at]
    kept.reverse()
    if len(kept) == len(history):
        return list(history)
    landed = []
    for i, commit in enumerate(history):
        place = bisect.bisect_left(kept, i)
        if place < len(kept) and kept[place] == i:
            landed.append(commit)
            continue
        day = commit.committed_at
        if place:
            day = max(day, dates[kept[place - 1]])
        if place < len(kept):
            day = min(day, dates[kept[place]])
        landed.append(replace(commit, committed_at=day))
    return landed


# A branch landed by a rebase puts its PRs' squash commits on the branch at once, each with
# the author time it was written at: ColossalAI rebased its pipeline branch onto main on
# 2023-08-15, 54 PRs written from 2023-06-20 on, all committed at 23:25:14 (+08:00), and that
# week read as 57 PRs, 41 of them key, with nothing to say why. A batch is BATCH_MIN_PRS or
# more PRs landed by consecutive first-parent commits of one committer time, the earliest
# written BATCH_MIN_AGE or more before it: a merge or squash GitHub makes is written when it
# lands, and a rebase of a day's PRs (ColossalAI's 19 of 2022-09-08) is no late landing.
BATCH_MIN_PRS = 3
BATCH_MIN_AGE = timedelta(days=7)


def batch_landings(
    history: Sequence[_Commit], landing_shas: Collection[str]
) -> dict[str, datetime]:
    """The author time of each commit of `landing_shas` (PR landings) that landed in a batch
    (see BATCH_MIN_PRS), by sha. `history` is the first-parent history, oldest first, with the
    committer times as recorded: `landing_times` gives the commits it moves their
    neighbours' times, which would make a batch of them."""
    written: dict[str, datetime] = {}
    for landed_at, run in itertools.groupby(history, key=lambda commit: commit.committed_at):
        prs = [commit for commit in run if commit.sha in landing_shas]
        if len(prs) < BATCH_MIN_PRS:
            continue
        if min(commit.authored_at for commit in prs) <= landed_at - BATCH_MIN_AGE:
            written.update((commit.sha, commit.authored_at) for commit in prs)
    return written


@dataclass(frozen=True)
class _Landing:
    """A first-parent commit that lands a PR, read from its message alone."""

    commit: _Commit
    number: int
    title: str
    body: str
    co_authors: list[str]
    merged_branch_tip: str | None  # a merge commit's second parent: the PR branch's last commit
    merged_from: str | None = None  # the owner of the repository a merged branch was in


def _landing(commit: _Commit, repo: str) -> _Landing | None:
    subject, body, co_authors = _split_message(commit.message)
    merge = MERGE_SUBJECT.match(subject)
    if merge and len(commit.parents) > 1 and (number := pr_number(merge.group("number"))):
        title, _, body = body.partition("\n")
        # A merge whose message lost the PR's title (ColossalAI #5372, "Merge pull request #5372
        # from hpcaitech/exp/mixtral" alone) is named by its branch, as GitHub names a new PR:
        # the subject would repeat the number and read as a change of its own.
        owner, slash, branch = merge.group("branch").partition("/")
        branch = branch or merge.group("branch")
        return _Landing(
            commit=commit,
            number=number,
            title=title.strip() or branch,
            body=body.strip(),
            co_authors=co_authors,
            merged_branch_tip=commit.parents[1],
            merged_from=owner if slash else None,
        )
    squash = SQUASH_SUBJECT.match(subject)
    if not squash or not (number := pr_number(squash.group("number"))):
        resolved = RESOLVED_PR.search(body)
        if not resolved or not (number := pr_number(resolved.group("number"))):
            return None
        if resolved.group("repo").lower() != repo.lower() and not LANDING_TOOL_TRAILER.search(body):
            return None
        return _Landing(
            commit=commit,
            number=number,
            title=subject,
            body=LANDING_TRAILER.sub("", body).strip(),
            co_authors=co_authors,
            merged_branch_tip=None,
        )
    return _Landing(
        commit=commit,
        number=number,
        title=squash.group("title"),
        body=body,
        co_authors=co_authors,
        merged_branch_tip=None,
    )


def _to_pull_request(
    repo: str,
    landing: _Landing,
    author: tuple[str, str],
    files: list[FileChange],
    revert: RevertText | None,
    reverted: int | None,
    batch_written_at: datetime | None,
) -> PullRequest:
    commit = landing.commit
    name, email = author
    # A bot that signs its commits with a person's kind of name is named as its trailer names it.
    name = _bot_addresses(commit.message).get(email.strip().lower(), name)
    try:
        return PullRequest(
            repo=repo,
            number=landing.number,
            title=landing.title,
            body=landing.body,
            author=name or None,
            author_key=author_key(email=email),
            co_authors=landing.co_authors,
            merged_at=commit.committed_at,
            batch_written_at=batch_written_at,
            merge_commit_sha=commit.sha,
            additions=sum(f.additions or 0 for f in files),
            deletions=sum(f.deletions or 0 for f in files),
            changed_files=len(files),
            files=files,
            is_revert=revert is not None,
            reverted_sha=revert.reverted_sha if revert else None,
            reverted_number=reverted,
            source="git",
        )
    except ValidationError as exc:
        raise GitSourceError(
            f"commit {commit.sha[:12]} (PR #{landing.number}) is not a valid PR:"
            f" {describe_validation_error(exc)}"
        ) from None


def _pushed_commit(
    repo: str, commit: _Commit, titles: Mapping[str, int], commits: Mapping[str, int]
) -> PushedCommit:
    """A commit that lands no PR, with the PR it reverts when it is a revert of one: `titles`
    are those of the PRs landed before it, `commits` every landing's commit. A revert keeps its
    message's body, where its reason is; other commits keep their subject alone."""
    subject, body, _ = _split_message(commit.message)
    revert = read_revert(subject, body)
    return PushedCommit(
        repo=repo,
        sha=commit.sha,
        committed_at=commit.committed_at,
        author=commit.author or None,
        author_key=author_key(email=commit.author_email),
        subject=commit.message.strip().partition("\n")[0],
        reverted_number=reverted_number(revert, titles, commits) if revert else None,
        body=body if revert else None,
    )


class GitWindow(BaseModel):
    """What a range of a branch's history holds: its merged PRs, and the commits that name no
    PR (pushed straight to the branch)."""

    model_config = ConfigDict(frozen=True)

    prs: list[PullRequest]
    pushed: list[PushedCommit]
    # When the branch's newest commit landed: a week after it reads as empty, rightly for a
    # quiet repository, wrongly for a clone nobody updated.
    newest_commit_at: datetime | None = None
    # Every commit of the branch's first-parent history: a stored PR whose merge commit is not
    # among them is one the clone has lost sight of (behind, or another line of history).
    branch_commits: frozenset[str] = frozenset()


def read_merged_prs(
    git_path: Path,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    branch: str | None = None,
) -> list[PullRequest]:
    """PRs merged into the branch's first-parent history in [start, end), oldest first (see
    `read_window`)."""
    return read_window(git_path, repo, start, end, branch=branch).prs


def read_window(
    git_path: Path,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    branch: str | None = None,
    also: Collection[int] = (),
) -> GitWindow:
    """PRs merged into the branch's first-parent history in [start, end), and those numbered
    `also` whenever they landed, oldest first, and the window's commits that name no PR.

    Three `git log` calls cover the whole window, however many weeks it spans: the branch's
    first-parent messages (whole history: a few MB even for busy repositories), then the files
    of the window's landings, then the authors of merged PR branches; one more reads the
    commits of the branches a bot ended (`_branch_authors`), and one more those of branches
    merged from forks (`_fork_authors`), when the window has such branches. Reading the whole
    history makes a week's PRs independent of the range it is read with, and lets reverts name
    PRs of any earlier week.

    - A merged PR's author is its branch's last commit's author (the last a person made, see
      `_branch_authors`), or for a fork's branch its owner's (`_fork_authors`); the merge
      commit's own author is whoever pressed the button.
    - A number landed twice (a direct push or cherry-pick quoting `(#N)`) belongs to its first
      landing, so a later week never claims a PR stored under an earlier one.
    - The window holds a commit by its committer date, which is when it landed on the branch.
      A PR landed in a batch long after it was written (a rebased branch, `batch_landings`)
      carries its author date as `batch_written_at`.

    Raises GitSourceError when no commit of the branch names a PR: such a history (a mirror of
    an internal repository, whose commits say `fix(scheduler): ...`) holds no PR this source
    can read, and its weeks would all read as empty.
    """
    if start.tzinfo is None or end.tzinfo is None:
        raise ValueError("start and end must carry a time zone")
    try:
        output = _run_git(
            git_path,
            [
                "log",
                "--first-parent",
                "-z",
                "--no-color",
                f"--format={LOG_FORMAT}",
                "--end-of-options",
                branch or "HEAD",
            ],
        )
    except GitSourceError:
        _check_branch(git_path, branch)  # git's own words name no cause: `ambiguous argument`
        raise
    recorded = list(reversed(_parse_log(output)))
    history = landing_times(recorded)
    landings = [landing for c in history if (landing := _landing(c, repo))]
    if history and not landings:
        raise GitSourceError(
            f"{repo}: none of the {len(history)} commits of {branch or 'HEAD'} at {git_path}"
            " names a pull request (a squash subject ending in `(#N)`, or `Merge pull request"
            " #N from ...`), so the git source finds no PRs in it; use `source: github`"
        )
    first_landings: dict[int, _Landing] = {}
    for landing in landings:
        first_landings.setdefault(landing.number, landing)
    batch_written = batch_landings(
        recorded, {landing.commit.sha for landing in first_landings.values()}
    )
    in_window = [
        landing
        for landing in first_landings.values()
        if start <= landing.commit.committed_at < end or landing.number in also
    ]
    changes = _read_changes(
        git_path,
        [landing.commit.sha for landing in in_window],
        {landing.commit.sha: f"PR #{landing.number}" for landing in in_window},
    )
    branch_authors = _branch_authors(git_path, in_window)
    branch_authors |= _fork_authors(git_path, repo, list(first_landings.values()), in_window)
    commits = {landing.commit.sha: landing.number for landing in landings}
    wanted = {landing.commit.sha for landing in in_window}
    landing_of = {landing.commit.sha: landing for landing in landings}
    titles: dict[str, int] = {}  # of the PRs landed so far: a revert quotes an earlier title
    prs = []
    pushed = []
    for commit in history:
        landing = landing_of.get(commit.sha)
        if landing is None:
            if start <= commit.committed_at < end:
                pushed.append(_pushed_commit(repo, commit, titles, commits))
            continue
        if landing.commit.sha in wanted:
            revert = read_revert(landing.title, landing.body)
            tip = landing.merged_branch_tip
            prs.append(
                _to_pull_request(
                    repo,
                    landing,
                    (
                        branch_authors.get(tip, ("", ""))
                        if tip
                        else (landing.commit.author, landing.commit.author_email)
                    ),
                    changes.get(landing.commit.sha, []),
                    revert,
                    reverted_number(revert, titles, commits) if revert else None,
                    batch_written.get(landing.commit.sha),
                )
            )
        titles[landing.title] = landing.number
    return GitWindow(
        prs=sorted(prs, key=lambda pr: (pr.merged_at, pr.number)),
        pushed=pushed,
        newest_commit_at=max((c.committed_at for c in history), default=None),
        branch_commits=frozenset(c.sha for c in history),
    )


def read_version_tags(
    git_path: Path, repo: str, start: datetime, end: datetime
) -> list[ReleaseTag]:
    """The clone's version tags (`VERSION_TAG`) of commits, dated in [start, end), oldest
    first (see `ReleaseTag`). A tag of a tree or blob is no release; an annotated tag without
    a tagger is dated by its commit; a tag of a tag is followed to its commit."""
    git_dir = _git_dir(git_path)
    output = _run_git(
        git_path,
        [
            "for-each-ref",
            "--format=%(refname:strip=2)%00%(creatordate:iso-strict)%00%(objecttype)"
            "%00%(objectname)%00%(*objecttype)%00%(*objectname)%00%(*committerdate:iso-strict)",
            "refs/tags",
        ],
    )
    tags = []
    for line in output.splitlines():
        name, dated, kind, sha, peeled_kind, peeled, committed = line.split("\0")
        if not VERSION_TAG.match(name):
            continue
        commit: str | None = sha
        if kind == "tag" and peeled_kind == "commit":
            commit, dated = peeled, dated or committed
        elif kind == "tag" and peeled_kind == "tag":  # rare: one rev-parse
            peel = f"refs/tags/{name}^{{commit}}"
            commit = _try_git(git_dir, ["rev-parse", "--verify", "-q", peel])
        elif kind != "commit":
            continue
        if not commit or not dated:
            continue
        tagged_at = datetime.fromisoformat(dated).astimezone(UTC)
        if start <= tagged_at < end:
            tags.append(ReleaseTag(repo=repo, name=name, sha=commit, tagged_at=tagged_at))
    return sorted(tags, key=lambda tag: (tag.tagged_at, tag.name))


def read_file_versions(
    git_path: Path, files: Sequence[tuple[PullRequest, FileChange]]
) -> list[FileVersions]:
    """Each file's text in the PR's landing commit and in that commit's first parent (at its
    previous path when renamed), in the order given, with one `git cat-file` call.

    A side is None where the file does not exist, is binary or is not UTF-8, and both are None
    for a PR without a landing commit.
    """
    names: list[str | None] = []
    for pr, change in files:
        sha = pr.merge_commit_sha
        for name in (
            (f"{sha}^:{change.previous_path or change.path}", f"{sha}:{change.path}")
            if sha
            else (None, None)
        ):
            # cat-file reads one object name per line: a path with a newline cannot be asked.
            names.append(name if name is not None and "\n" not in name else None)
    asked = [name for name in names if name is not None]
    texts = iter(_cat_files(git_path, asked)) if asked else iter(())
    contents = [next(texts) if name is not None else None for name in names]
    return [
        FileVersions(
            pr_number=pr.number,
            path=change.path,
            status=change.status,
            before=contents[2 * index],
            after=contents[2 * index + 1],
        )
        for index, (pr, change) in enumerate(files)
    ]


def _cat_files(git_path: Path, names: list[str]) -> list[str | None]:
    """The text of each `<rev>:<path>` blob, None when missing, not a blob, binary or not UTF-8."""
    completed = _git(
        ["git", f"--git-dir={_git_dir(git_path)}", "cat-file", "--batch"],
        stdin="\n".join(names) + "\n",
    )
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip()
        raise GitSourceError(f"git cat-file failed in {git_path}: {message}")
    output = completed.stdout
    texts: list[str | None] = []
    position = 0
    for name in names:
        header_end = output.find(b"\n", position)
        if header_end < 0:
            raise GitSourceError(f"git cat-file in {git_path} stopped before {name!r}")
        found = CAT_FILE_HEADER.match(output[position:header_end])
        position = header_end + 1
        if found is None:
            texts.append(None)  # `<name> missing`: no such file on that side
            continue
        size = int(found.group("size"))
        content = output[position : position + size]
        position += size + 1  # the content is followed by a newline
        texts.append(_text(content) if found.group("type") == b"blob" else None)
    return texts


def _text(content: bytes) -> str | None:
    if b"\0" in content:
        return None
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return None


class CloneUpdate(BaseModel):
    """What updating the clone from its `origin` remote did before it was read."""

    model_config = ConfigDict(frozen=True)

    status: Literal["updated", "skipped", "failed"]
    message: str  # one line for logs and the run's summary


def _git_error(stderr: bytes) -> str:
    """git's first error line: the cause ("'/x' does not appear to be a git repository"), not
    the advice after it ("... and the repository exists.")."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    said = [line for line in lines if line]
    for line in said:
        for prefix in ("fatal:", "error:"):
            if line.startswith(prefix):
                return line.removeprefix(prefix).strip()
    return said[-1] if said else "no output"


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
                # The releases the reports tell; a tag moved upstream moves here too.
                "+refs/tags/*:refs/tags/*",
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
        return CloneUpdate(
            status="failed",
            message=f"fetching {name} from origin failed ({_git_error(fetched.stderr)}):"
            " the clone is read as it is",
        )
    after = _try_git(git_dir, ["rev-parse", "--short", ref])
    change = f"{before} -> {after}" if after != before else f"{after}, already up to date"
    return CloneUpdate(status="updated", message=f"{name} fetched from origin: {change}")
