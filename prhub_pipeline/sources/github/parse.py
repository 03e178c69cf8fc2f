"""Rebuilding a week's records from its raw pages alone, proving that nothing is missing."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from pydantic import ValidationError

from prhub_pipeline.records import (
    FileChange,
    FileStatus,
    PrComment,
    PullRequest,
    RawPage,
    Review,
    ReviewData,
    ReviewThread,
    SearchRange,
    ThreadComment,
    author_key,
)
from prhub_pipeline.reverts import merge_commits, read_revert, reverted_number, titles_before
from prhub_pipeline.sources.github.client import GitHubResponseError
from prhub_pipeline.sources.github.queries import PR_CONNECTIONS

logger = logging.getLogger(__name__)

SEARCH_RESULT_CAP = 1000
GHOST_LOGIN = "ghost"  # what GitHub shows for deleted accounts
CHANGE_TYPE_STATUS: dict[str, FileStatus] = {
    "ADDED": "added",
    "CHANGED": "modified",  # the file's type changed (git status T)
    "COPIED": "copied",
    "DELETED": "removed",
    "MODIFIED": "modified",
    "RENAMED": "renamed",
}


def parse_timestamp(value: Any, what: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise GitHubResponseError(f"{what} is not a timestamp: {value!r}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise GitHubResponseError(f"{what} is not a timestamp: {value!r}") from None
    if moment.tzinfo is None:
        raise GitHubResponseError(f"{what} has no UTC offset: {value!r}")
    return moment.astimezone(UTC)


@dataclass
class _Connection:
    """A connection's items gathered over its pages, deduplicated by key."""

    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    total: int | None = None
    cursor_at_end: str | None = None

    def add(self, page: dict[str, Any], key: Callable[[dict[str, Any]], str]) -> None:
        for node in page.get("nodes") or []:
            if isinstance(node, dict):
                self.items.setdefault(key(node), node)
        if isinstance(page.get("totalCount"), int):
            self.total = page["totalCount"]
        info = page.get("pageInfo") or {}
        self.cursor_at_end = info.get("endCursor")

    def check(self, what: str) -> None:
        if self.total is not None and len(self.items) != self.total:
            where = f" after cursor {self.cursor_at_end!r}" if self.cursor_at_end else ""
            raise GitHubResponseError(
                f"{what}: GitHub reported {self.total} but its pages held {len(self.items)}"
                f" (its last page{where} said there were no more)"
            )


def _by_id(node: dict[str, Any]) -> str:
    return str(node.get("id"))


def _by_path(node: dict[str, Any]) -> str:
    return str(node.get("path"))


def _by_name(node: dict[str, Any]) -> str:
    return str(node.get("name"))


CONNECTION_KEYS: dict[str, Callable[[dict[str, Any]], str]] = {
    "files": _by_path,
    "labels": _by_name,
    "reviews": _by_id,
    "comments": _by_id,
    "reviewThreads": _by_id,
}


@dataclass
class _PullRequestParts:
    node: dict[str, Any]
    connections: dict[str, _Connection] = field(default_factory=dict)
    thread_comments: dict[str, _Connection] = field(default_factory=dict)

    def add_threads(self, page: dict[str, Any]) -> None:
        self.connections["reviewThreads"].add(page, _by_id)
        for thread in page.get("nodes") or []:
            if isinstance(thread, dict) and isinstance(thread.get("comments"), dict):
                comments = self.thread_comments.setdefault(str(thread.get("id")), _Connection())
                if not comments.items:
                    comments.add(thread["comments"], _by_id)


@dataclass
class _SearchPart:
    query: str
    count: int
    numbers: set[int] = field(default_factory=set)


def parse_pages(
    repo: str, pages: Sequence[RawPage], week: date | None = None
) -> tuple[list[PullRequest], ReviewData]:
    """Rebuild a week's records from its raw pages alone, proving that nothing is missing.

    Errors name the repository and, when given, the week the pages are of.
    """
    try:
        return _parse_pages(repo, pages)
    except GitHubResponseError as exc:
        of_week = f", week of {week}" if week else ""
        raise GitHubResponseError(f"{repo}{of_week}: {exc}") from None


def _parse_pages(repo: str, pages: Sequence[RawPage]) -> tuple[list[PullRequest], ReviewData]:
    ordered = sorted(pages, key=lambda page: page.seq)
    window: SearchRange | None = None
    root_count = 0
    parts: dict[str, _SearchPart] = {}
    prs: dict[int, _PullRequestParts] = {}
    thread_owner: dict[str, int] = {}
    for page in ordered:
        data = page.response.get("data")
        if not isinstance(data, dict):
            raise GitHubResponseError(f"page {page.seq} ({page.query_name}) holds no data")
        search = data.get("search")
        if page.search_range is not None and isinstance(search, dict):
            query = str(page.variables.get("query"))
            count = int(search.get("issueCount") or 0)
            if window is None:
                window, root_count = page.search_range, count
            part = parts.setdefault(query, _SearchPart(query, count))
            part.count = count
            for node in search.get("nodes") or []:
                if not isinstance(node, dict) or not isinstance(node.get("number"), int):
                    continue
                part.numbers.add(node["number"])
                if node["number"] not in prs:
                    prs[node["number"]] = _start_parts(node, thread_owner)
        for alias, node in data.items():
            if not re.fullmatch(r"f\d+", alias):
                continue
            _add_follow_up(page, alias, node, prs, thread_owner)
    if window is None:
        raise GitHubResponseError(f"no search page among the {len(ordered)} pages")
    _check_search(root_count, parts)
    records = []
    for number, parts_of_pr in prs.items():
        merged_at = parse_timestamp(parts_of_pr.node.get("mergedAt"), f"PR #{number} mergedAt")
        if merged_at is None or not window.contains(merged_at):
            continue
        records.append(_pull_request_records(repo, parts_of_pr))
    records.sort(key=lambda r: (r[0].merged_at, r[0].number))
    by_number = sorted(records, key=lambda r: r[0].number)
    return _resolve_reverts([r[0] for r in records]), ReviewData(
        available=True,
        reviews=[review for r in by_number for review in r[1]],
        threads=[thread for r in by_number for thread in r[2]],
        comments=[comment for r in by_number for comment in r[3]],
    )


def _resolve_reverts(prs: list[PullRequest]) -> list[PullRequest]:
    """Reverts whose body names no PR: the reverted merge commit or the quoted title among the
    window's PRs merged before the revert."""
    commits = merge_commits(prs)
    resolved = []
    for pr in prs:
        revert = read_revert(pr.title, pr.body) if pr.is_revert else None
        if revert is not None and pr.reverted_number is None:
            number = reverted_number(revert, titles_before(prs, pr), commits)
            pr = pr.model_copy(update={"reverted_number": number})
        resolved.append(pr)
    return resolved


def _start_parts(node: dict[str, Any], thread_owner: dict[str, int]) -> _PullRequestParts:
    parts = _PullRequestParts(node=node)
    number = node["number"]
    for kind in PR_CONNECTIONS:
        parts.connections[kind] = _Connection()
        page = node.get(kind)
        if not isinstance(page, dict):
            raise GitHubResponseError(f"PR #{number} has no {kind} connection in its search page")
        if kind == "reviewThreads":
            parts.add_threads(page)
        else:
            parts.connections[kind].add(page, CONNECTION_KEYS[kind])
    for thread_id in parts.thread_comments:
        thread_owner[thread_id] = number
    return parts


def _add_follow_up(
    page: RawPage,
    alias: str,
    node: Any,
    prs: dict[int, _PullRequestParts],
    thread_owner: dict[str, int],
) -> None:
    where = f"page {page.seq} ({page.query_name}) {alias}"
    if not isinstance(node, dict):
        raise GitHubResponseError(f"{where}: node {page.variables.get('id' + alias[1:])!r} is null")
    if isinstance(node.get("number"), int):
        parts = prs.get(node["number"])
        if parts is None:
            raise GitHubResponseError(f"{where}: PR #{node['number']} was never found by search")
        for kind in PR_CONNECTIONS:
            if isinstance(node.get(kind), dict):
                if kind == "reviewThreads":
                    parts.add_threads(node[kind])
                    for thread_id in parts.thread_comments:
                        thread_owner.setdefault(thread_id, node["number"])
                else:
                    parts.connections[kind].add(node[kind], CONNECTION_KEYS[kind])
        return
    thread_id = str(node.get("id"))
    number = thread_owner.get(thread_id)
    if number is None or not isinstance(node.get("comments"), dict):
        raise GitHubResponseError(f"{where}: review thread {thread_id!r} belongs to no known PR")
    prs[number].thread_comments[thread_id].add(node["comments"], _by_id)


def _check_search(root_count: int, parts: dict[str, _SearchPart]) -> None:
    for part in parts.values():
        if part.count <= SEARCH_RESULT_CAP and len(part.numbers) != part.count:
            raise GitHubResponseError(
                f"search {part.query!r} reported {part.count} merged PRs but its pages held"
                f" {len(part.numbers)}: the result pages stopped early, or PRs merged into the"
                " range while it was paged: run it again"
            )
    union = set().union(*(part.numbers for part in parts.values()))
    if len(union) != root_count:
        raise GitHubResponseError(
            f"search reported {root_count} merged PRs for the week but its parts held"
            f" {len(union)} distinct PRs; the week changed while it was fetched or the split"
            " missed some: run it again"
        )


def _actor(value: Any) -> tuple[str | None, bool]:
    """(login, is_bot); None for deleted accounts (null author or GitHub's "ghost")."""
    if not isinstance(value, dict) or not value.get("login"):
        return None, False
    login = str(value["login"])
    if login == GHOST_LOGIN:
        return None, False
    is_bot = value.get("__typename") == "Bot" or login.endswith("[bot]")
    # GraphQL names bots without the "[bot]" suffix that github.com and REST show.
    if is_bot and not login.endswith("[bot]"):
        login = f"{login}[bot]"
    return login, is_bot


def _pull_request_records(
    repo: str, parts: _PullRequestParts
) -> tuple[PullRequest, list[Review], list[ReviewThread], list[PrComment]]:
    node = parts.node
    number = node["number"]
    what = f"PR #{number}"
    for kind, connection in parts.connections.items():
        connection.check(f"{what} {kind}")
    for thread_id, thread_comments in parts.thread_comments.items():
        thread_comments.check(f"{what} review thread {thread_id} comments")
    author, _ = _actor(node.get("author"))
    merged_by, _ = _actor(node.get("mergedBy"))
    title = str(node.get("title") or "")
    body = str(node.get("body") or "")
    revert = read_revert(title, body)
    merged_at = parse_timestamp(node.get("mergedAt"), f"{what} mergedAt")
    if merged_at is None:
        raise GitHubResponseError(f"{what} is not merged (mergedAt is null)")
    try:
        files = sorted(
            (
                FileChange(
                    path=f["path"],
                    status=_file_status(f["changeType"], f"{what} {f['path']}"),
                    additions=f.get("additions"),
                    deletions=f.get("deletions"),
                )
                for f in parts.connections["files"].items.values()
            ),
            key=lambda f: f.path,
        )
        pull_request = PullRequest(
            repo=repo,
            number=number,
            title=title,
            body=body,
            author=author,
            author_key=author_key(login=author),
            labels=[label["name"] for label in parts.connections["labels"].items.values()],
            created_at=parse_timestamp(node.get("createdAt"), f"{what} createdAt"),
            merged_at=merged_at,
            merged_by=merged_by,
            base_branch=node.get("baseRefName"),
            merge_commit_sha=(node.get("mergeCommit") or {}).get("oid"),
            additions=node.get("additions") or 0,
            deletions=node.get("deletions") or 0,
            changed_files=node.get("changedFiles") or 0,
            files=files,
            is_revert=revert is not None,
            reverted_sha=revert.reverted_sha if revert else None,
            reverted_number=revert.body_number if revert else None,
            source="github",
        )
        reviews = [
            Review(
                repo=repo,
                pr_number=number,
                review_id=r["id"],
                author=_actor(r.get("author"))[0],
                author_is_bot=_actor(r.get("author"))[1],
                state=r["state"],
                body=r.get("body") or "",
                submitted_at=parse_timestamp(r.get("submittedAt"), f"{what} review submittedAt"),
            )
            for r in parts.connections["reviews"].items.values()
            if _submitted(r)
        ]
        threads = [
            ReviewThread(
                repo=repo,
                pr_number=number,
                thread_id=t["id"],
                path=t.get("path"),
                line=t.get("line"),
                is_resolved=bool(t.get("isResolved")),
                is_outdated=bool(t.get("isOutdated")),
                resolved_by=_actor(t.get("resolvedBy"))[0],
                comments=[
                    ThreadComment(**_comment_fields(c, author, what))
                    for c in parts.thread_comments[t["id"]].items.values()
                ],
            )
            for t in parts.connections["reviewThreads"].items.values()
        ]
        comments = [
            PrComment(repo=repo, pr_number=number, **_comment_fields(c, author, what))
            for c in parts.connections["comments"].items.values()
        ]
    except KeyError as exc:
        raise GitHubResponseError(
            f"{what} is not a valid record: GitHub's answer lacks the field {exc}"
        ) from None
    except (TypeError, ValidationError) as exc:
        raise GitHubResponseError(f"{what} is not a valid record: {exc}") from None
    return pull_request, reviews, threads, comments


def _submitted(review: dict[str, Any]) -> bool:
    """Whether a review was submitted: GitHub also lists (and counts in `totalCount`) the token
    owner's own pending review, which nobody else sees and which may never be submitted."""
    return review.get("state") != "PENDING" and review.get("submittedAt") is not None


def _file_status(change_type: Any, what: str) -> FileStatus:
    """A file's status from GitHub's `changeType`; a kind GitHub added since counts as a
    modification rather than failing the week."""
    status = CHANGE_TYPE_STATUS.get(change_type) if isinstance(change_type, str) else None
    if status is None:
        logger.warning("%s: unknown changeType %r, taken as modified", what, change_type)
        return "modified"
    return status


def _comment_fields(node: dict[str, Any], pr_author: str | None, what: str) -> dict[str, Any]:
    login, is_bot = _actor(node.get("author"))
    return {
        "comment_id": node["id"],
        "author": login,
        "author_is_bot": is_bot,
        "is_pr_author": login is not None and login == pr_author,
        "body": node.get("body") or "",
        "created_at": parse_timestamp(node.get("createdAt"), f"{what} comment createdAt"),
    }
