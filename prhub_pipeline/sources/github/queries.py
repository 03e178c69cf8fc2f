"""The GraphQL queries: a search page of merged PRs and the aliased follow-ups that page
further connections, composed from `fragments.graphql`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta, tzinfo
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from prhub_pipeline.records import SearchRange

SEARCH_QUERY_NAME = "SearchMergedPullRequests"
FOLLOW_UP_QUERY_NAME = "PullRequestFollowUps"
FILE_VERSIONS_QUERY_NAME = "FileVersions"


class PageSizes(BaseModel):
    """How many items each request asks for; GitHub allows 1..100 per connection."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    search: int = Field(default=25, ge=1, le=100)
    files: int = Field(default=100, ge=1, le=100)
    labels: int = Field(default=100, ge=1, le=100)
    reviews: int = Field(default=100, ge=1, le=100)
    comments: int = Field(default=100, ge=1, le=100)
    threads: int = Field(default=50, ge=1, le=100)
    thread_comments: int = Field(default=20, ge=1, le=100)
    follow_up: int = Field(default=100, ge=1, le=100)  # page size of every follow-up page
    follow_ups_per_request: int = Field(default=50, ge=1, le=100)

    def halved(self) -> PageSizes | None:
        """Every size halved (at least 1), or None when every size is 1 already."""
        sizes = self.model_dump()
        if all(size == 1 for size in sizes.values()):
            return None
        return PageSizes(**{name: max(1, size // 2) for name, size in sizes.items()})


# PullRequest connection -> the fragment of one of its pages; "threadComments" pages a thread.
PR_CONNECTIONS: dict[str, str] = {
    "files": "FilePage",
    "labels": "LabelPage",
    "reviews": "ReviewPage",
    "comments": "IssueCommentPage",
    "reviewThreads": "ThreadPage",
}
THREAD_COMMENTS = "threadComments"
SEARCH_VARIABLES = (
    "$owner: String!, $name: String!, $query: String!, $first: Int!, $after: String,"
    " $files: Int!, $labels: Int!, $reviews: Int!, $threads: Int!, $threadComments: Int!,"
    " $comments: Int!"
)

SEARCH_SELECTION = """  repository(owner: $owner, name: $name) { nameWithOwner }
  search(type: ISSUE, query: $query, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ...MergedPullRequest }
  }"""


def _load_fragments() -> dict[str, str]:
    text = resources.files("prhub_pipeline.sources.github").joinpath("fragments.graphql")
    lines = [
        line for line in text.read_text("utf-8").splitlines() if not line.lstrip().startswith("#")
    ]
    fragments: dict[str, str] = {}
    for chunk in re.split(r"\n(?=fragment )", "\n".join(lines)):
        match = re.match(r"fragment (\w+) on ", chunk.strip())
        if match:
            fragments[match.group(1)] = chunk.strip()
    return fragments


FRAGMENTS = _load_fragments()


def _with_fragments(operation: str) -> str:
    """The operation plus exactly the fragments it uses (GraphQL rejects unused ones)."""
    needed: list[str] = []
    pending = re.findall(r"\.\.\.(\w+)", operation)
    while pending:
        name = pending.pop()
        if name in needed:
            continue
        needed.append(name)
        pending.extend(re.findall(r"\.\.\.(\w+)", FRAGMENTS[name]))
    return "\n\n".join([operation, *(FRAGMENTS[name] for name in sorted(needed))]) + "\n"


def search_query(
    search_range: SearchRange, repo: str, zone: tzinfo, branch: str | None = None
) -> str:
    """GitHub's search for the PRs merged in `search_range` (into `branch`, when given), its
    ends written in `zone`."""
    # GitHub's range is inclusive: the last second before `end` keeps boundaries exclusive.
    first = search_range.start.astimezone(zone).isoformat(timespec="seconds")
    last = (search_range.end - timedelta(seconds=1)).astimezone(zone).isoformat(timespec="seconds")
    base = f" base:{branch}" if branch else ""
    # Without a sort GitHub orders by best match, which can repeat and skip PRs across pages;
    # a PR's creation time never changes.
    return f"repo:{repo} is:pr is:merged{base} merged:{first}..{last} sort:created-asc"


@dataclass(frozen=True)
class FollowUp:
    """The next page of one connection: a PR's files/labels/..., or one thread's comments."""

    kind: str  # a PR_CONNECTIONS key, or THREAD_COMMENTS
    node_id: str
    cursor: str
    pr_number: int

    def describe(self) -> str:
        what = "review thread comments" if self.kind == THREAD_COMMENTS else self.kind
        return f"PR #{self.pr_number} {what} after cursor {self.cursor!r}"


@dataclass(frozen=True)
class SearchStep:
    range: SearchRange
    cursor: str | None


def compose_query(
    repo: str,
    zone: tzinfo,
    search: SearchStep | None,
    follow_ups: Sequence[FollowUp],
    sizes: PageSizes,
    branch: str | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """(query name, query text, variables) for a search page and/or aliased follow-ups.

    A search page also asks for the repository's name, so that a repository GitHub does not
    know (or that the token cannot see) fails instead of searching to nothing.
    """
    declarations: list[str] = []
    selections = ["  rateLimit { cost remaining resetAt }"]
    variables: dict[str, Any] = {}
    if search is not None:
        declarations.append(SEARCH_VARIABLES)
        selections.append(SEARCH_SELECTION)
        owner, name = repo.split("/", 1)
        variables.update(
            owner=owner,
            name=name,
            query=search_query(search.range, repo, zone, branch),
            first=sizes.search,
            after=search.cursor,
            files=sizes.files,
            labels=sizes.labels,
            reviews=sizes.reviews,
            threads=sizes.threads,
            threadComments=sizes.thread_comments,
            comments=sizes.comments,
        )
    if follow_ups:
        declarations.append("$pageSize: Int!")
        variables["pageSize"] = sizes.follow_up
    if search is None and any(item.kind == "reviewThreads" for item in follow_ups):
        declarations.append("$threadComments: Int!")
        variables["threadComments"] = sizes.thread_comments
    for index, item in enumerate(follow_ups):
        declarations.append(f"$id{index}: ID!, $after{index}: String!")
        variables[f"id{index}"] = item.node_id
        variables[f"after{index}"] = item.cursor
        page = f"(first: $pageSize, after: $after{index})"
        if item.kind == THREAD_COMMENTS:
            body = (
                f"... on PullRequestReviewThread {{ id pullRequest {{ number }}"
                f" comments{page} {{ ...ThreadCommentPage }} }}"
            )
        else:
            fragment = PR_CONNECTIONS[item.kind]
            body = f"... on PullRequest {{ id number {item.kind}{page} {{ ...{fragment} }} }}"
        selections.append(f"  f{index}: node(id: $id{index}) {{ {body} }}")
    name = SEARCH_QUERY_NAME if search is not None else FOLLOW_UP_QUERY_NAME
    operation = f"query {name}({', '.join(declarations)}) {{\n" + "\n".join(selections) + "\n}"
    return name, _with_fragments(operation), variables
