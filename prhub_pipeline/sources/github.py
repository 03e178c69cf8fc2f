"""The GitHub source: one week's merged pull requests, reviews and review threads over GraphQL.

A week is fetched with as few sequential requests as the page sizes allow:

1. Search `repo:OWNER/NAME is:pr is:merged merged:START..END` (the window in the configured zone,
   explicit offsets, END one second before the window's exclusive end). Each search page carries
   the full first page of every PR's files, labels, reviews, review threads (with their first
   comments) and conversation comments. Search serves at most 1,000 results while `issueCount`
   tells the truth, so a window holding more is split in halves by time until every part fits.
2. Only connections whose `pageInfo.hasNextPage` is true are paged further, with `node(id:)`
   follow-ups aliased into one request (several PRs' connections per request) and piggybacked on
   the next search page when there is one.
3. Every response is kept as a `RawPage`; `parse_pages` rebuilds the records from those pages
   alone and proves completeness (search union == `issueCount`, every connection == its
   `totalCount`), so later stages never re-fetch and a short page fails loudly.

Cost (GitHub's formula: connection requests / 100, nodes capped at 500,000 per query) with the
default `PageSizes`: a search page asks for 25 PRs x (files 100, labels 100, reviews 100,
comments 100, threads 50 x comments 20) = 1 + 25 x 5 + 25 x 50 = 1,376 connection requests, about
14 points, and 25 x 400 + 25 x 50 + 25 x 50 x 20 = 36,250 nodes. A week of 1,000 PRs costs about
560 points of the 5,000 an hour a token gets; the response of one page stays small enough for
GitHub's 10 second query timeout. A follow-up request carries up to 50 connection pages of 100
(1 to 51 points; at most 50 x 100 x 20 = 100,000 nodes when all are review-thread pages).
Measured request counts per week: benchmarks/github_requests.py.

`fetch_file_versions` reads files' text before and after PRs (merge commit and its first parent)
so configuration changes can be compared setting by setting; it costs 1 point a request.

The token lives only in the HTTP client's headers: never in a message, log, page or record.
"""

from __future__ import annotations

import logging
import os
import random
import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from email.utils import parsedate_to_datetime
from importlib import resources
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import (
    FileChange,
    FileStatus,
    FileVersions,
    GitHubWeek,
    PrComment,
    PullRequest,
    RawPage,
    RequestStats,
    Review,
    ReviewData,
    ReviewThread,
    SearchRange,
    ThreadComment,
)
from prhub_pipeline.reverts import merge_commits, read_revert, reverted_number, titles_before
from prhub_pipeline.weeks import WeekWindow

logger = logging.getLogger(__name__)

SEARCH_RESULT_CAP = 1000
RETRYABLE_STATUS = frozenset({500, 502, 503, 504})
# GraphQL's error when a query ran out of time on GitHub's side (sent with HTTP 200): transient.
GRAPHQL_TIMEOUT_MESSAGE = "Something went wrong while executing your query"
BACKOFF_BASE_SECONDS = 1.0
BACKOFF_CAP_SECONDS = 60.0
# GitHub: without Retry-After or an exhausted budget, wait at least a minute, longer each time.
SECONDARY_LIMIT_WAIT_SECONDS = 60.0
GHOST_LOGIN = "ghost"  # what GitHub shows for deleted accounts
SEARCH_QUERY_NAME = "SearchMergedPullRequests"
FOLLOW_UP_QUERY_NAME = "PullRequestFollowUps"
FILE_VERSIONS_QUERY_NAME = "FileVersions"
# Files (two blobs each) per FileVersions request. Blobs are not connections, so a request costs
# 1 point whatever its size; the bound keeps responses (config files of a few KB to ~100 KB)
# well inside GitHub's 10 second query timeout.
FILE_VERSIONS_PER_REQUEST = 20
CHANGE_TYPE_STATUS: dict[str, FileStatus] = {
    "ADDED": "added",
    "CHANGED": "modified",  # the file's type changed (git status T)
    "COPIED": "copied",
    "DELETED": "removed",
    "MODIFIED": "modified",
    "RENAMED": "renamed",
}


class GitHubError(Exception):
    """The GitHub source could not fetch a week. Nothing of that week was stored."""


class GitHubAuthError(GitHubError):
    """No token, or GitHub refused it."""


class GitHubRateLimitError(GitHubError):
    """A rate limit needs a longer wait than configured; `retry_at` says when to try again."""

    def __init__(self, message: str, *, retry_at: datetime) -> None:
        super().__init__(message)
        self.retry_at = retry_at


class _QueryTimedOut(Exception):
    """A 200 whose only errors say the query ran out of time inside GitHub ("Something went
    wrong while executing your query. This may be the result of a timeout ..."): retried."""


class GitHubUnavailableError(GitHubError):
    """GitHub kept failing (5xx, timeouts, connection errors) after every configured retry."""


class GitHubResponseError(GitHubError):
    """GitHub answered with errors, malformed JSON, or pages that do not add up."""


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


@dataclass(frozen=True)
class _Result:
    body: dict[str, Any]
    requests: int
    retries: int
    waits: int
    waited_seconds: float


class GitHubClient:
    """Sends GraphQL queries to GitHub one at a time, retrying what GitHub says to retry."""

    def __init__(
        self,
        config: GitHubConfig,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        token: str | None = None,
        clock: Callable[[], float] = time.time,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        token = token if token is not None else os.environ.get(config.token_env)
        if not token or not token.strip():
            raise GitHubAuthError(
                f"no GitHub token: set the environment variable {config.token_env}"
                " (a token with read access to the repository's pull requests)"
            )
        self.config = config
        self._sleep = sleep
        self._clock = clock
        self._jitter = jitter
        self._redact = _redactor(token.strip())
        self._http = httpx.Client(
            transport=transport,
            timeout=config.timeout_seconds,
            headers={
                "Authorization": f"bearer {token.strip()}",
                "Accept": "application/json",
                "User-Agent": "prhub-pipeline",
            },
        )

    def __repr__(self) -> str:
        return f"GitHubClient(api_url={self.config.api_url!r})"

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def execute(self, query: str, variables: dict[str, Any], *, context: str) -> _Result:
        """POST one query; `context` names it in errors (query, PRs, cursors)."""
        requests = retries = waits = 0
        waited = 0.0
        secondary_strikes = 0
        while True:
            requests += 1
            failure: str
            try:
                response = self._http.post(
                    self.config.api_url, json={"query": query, "variables": variables}
                )
            except httpx.TimeoutException:
                failure = f"timed out after {self.config.timeout_seconds:g}s"
            except httpx.TransportError as exc:
                failure = f"{type(exc).__name__}: {self._redact(str(exc))}"
            else:
                wait = self._rate_limit_wait(response, secondary_strikes, context)
                if wait is not None:
                    too_long = wait > self.config.max_rate_limit_wait_seconds
                    if too_long or retries >= self.config.max_retries:
                        raise self._rate_limit_error(context, wait, retries)
                    logger.warning(
                        "GitHub rate limit on %s; waiting %.0fs (retry %d of %d)",
                        context,
                        wait,
                        retries + 1,
                        self.config.max_retries,
                    )
                    self._sleep(wait)
                    retries += 1
                    waits += 1
                    waited += wait
                    if response.status_code in (403, 429):
                        secondary_strikes += 1
                    continue
                if response.status_code == 200:
                    try:
                        body = self._body(response, context)
                    except _QueryTimedOut:
                        failure = "a query timeout inside GitHub"
                    else:
                        return _Result(body, requests, retries, waits, waited)
                elif response.status_code in RETRYABLE_STATUS:
                    failure = f"HTTP {response.status_code}"
                else:
                    raise self._status_error(response, context)
            if retries >= self.config.max_retries:
                raise GitHubUnavailableError(
                    f"GitHub failed {context}: {failure}, still failing after"
                    f" {retries} retries (max_retries={self.config.max_retries})"
                )
            delay = min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2**retries)
            delay = delay / 2 + self._jitter() * delay / 2
            logger.warning(
                "GitHub %s on %s; retrying in %.1fs (retry %d of %d)",
                failure,
                context,
                delay,
                retries + 1,
                self.config.max_retries,
            )
            self._sleep(delay)
            retries += 1

    def _rate_limit_wait(
        self, response: httpx.Response, secondary_strikes: int, context: str
    ) -> float | None:
        """Seconds to wait when the response is a rate limit, else None.

        Primary limit: GraphQL answers 200 with a RATE_LIMITED error (or 403/429) and
        `x-ratelimit-remaining: 0`; wait until `x-ratelimit-reset`. Secondary limit (403/429):
        `Retry-After` if given, else the reset time if the budget is spent, else at least a
        minute, doubling each time, as GitHub documents.
        """
        status = response.status_code
        exhausted = response.headers.get("x-ratelimit-remaining") == "0"
        if status == 200:
            if not (exhausted or b"RATE_LIMITED" in response.content):
                return None
            try:
                errors = response.json().get("errors") or []
            except (ValueError, AttributeError):
                return None
            limited = any(
                isinstance(e, dict)
                and (e.get("type") == "RATE_LIMITED" or "rate limit" in str(e.get("message")))
                for e in errors
            )
            if not limited:
                return None
        elif status == 429:
            pass
        elif status == 403:
            text = response.text.lower()
            if not (
                exhausted
                or "retry-after" in response.headers
                or "rate limit" in text
                or "abuse" in text
            ):
                return None
        else:
            return None
        retry_after = _retry_after_seconds(response.headers.get("retry-after"), self._clock())
        if retry_after is not None:
            return retry_after
        reset = response.headers.get("x-ratelimit-reset")
        if exhausted and reset and reset.isdigit():
            return max(1.0, int(reset) - self._clock() + 1)
        return SECONDARY_LIMIT_WAIT_SECONDS * 2**secondary_strikes

    def _rate_limit_error(self, context: str, wait: float, retries: int) -> GitHubRateLimitError:
        retry_at = datetime.fromtimestamp(self._clock() + wait, UTC).replace(microsecond=0)
        if wait > self.config.max_rate_limit_wait_seconds:
            reason = (
                f"needs a {wait:.0f}s wait, over max_rate_limit_wait_seconds="
                f"{self.config.max_rate_limit_wait_seconds:g}"
            )
        else:
            reason = (
                f"still limited after {retries} retries (max_retries={self.config.max_retries})"
            )
        return GitHubRateLimitError(
            f"GitHub rate limit hit {context}: {reason}; retry after {retry_at.isoformat()}",
            retry_at=retry_at,
        )

    def _status_error(self, response: httpx.Response, context: str) -> GitHubError:
        message = self._redact(_error_message(response))
        status = response.status_code
        if status in (401, 403):
            return GitHubAuthError(
                f"GitHub refused {context} (HTTP {status}: {message}); check the token in"
                f" {self.config.token_env} and its access to the repository"
            )
        return GitHubResponseError(f"GitHub answered {context} with HTTP {status}: {message}")

    def _body(self, response: httpx.Response, context: str) -> dict[str, Any]:
        try:
            body = response.json()
        except ValueError:
            snippet = self._redact(response.text[:200])
            raise GitHubResponseError(
                f"GitHub answered {context} with malformed JSON: {snippet!r}"
            ) from None
        if not isinstance(body, dict):
            raise GitHubResponseError(
                f"GitHub answered {context} with a JSON {type(body).__name__}"
            )
        errors = body.get("errors")
        if errors and all(
            isinstance(e, dict) and GRAPHQL_TIMEOUT_MESSAGE in str(e.get("message", ""))
            for e in errors
        ):
            raise _QueryTimedOut
        if errors:
            messages = "; ".join(
                self._redact(str(e.get("message", e)) if isinstance(e, dict) else str(e))
                for e in errors
            )
            raise GitHubResponseError(f"GitHub answered {context} with errors: {messages}")
        if not isinstance(body.get("data"), dict):
            raise GitHubResponseError(f"GitHub answered {context} without data")
        return body


def _redactor(token: str) -> Callable[[str], str]:
    def redact(text: str) -> str:
        return text.replace(token, "[token]")

    return redact


def _retry_after_seconds(value: str | None, now: float) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return max(1.0, float(value))
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(1.0, moment.timestamp() - now)


def _error_message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict) and body.get("message"):
        return str(body["message"])
    return response.text[:200]


# --- queries ---------------------------------------------------------------------------------

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
    "$query: String!, $first: Int!, $after: String, $files: Int!, $labels: Int!,"
    " $reviews: Int!, $threads: Int!, $threadComments: Int!, $comments: Int!"
)
SEARCH_SELECTION = """  search(type: ISSUE, query: $query, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ...MergedPullRequest }
  }"""


def _load_fragments() -> dict[str, str]:
    text = resources.files("prhub_pipeline.sources").joinpath("github_queries", "fragments.graphql")
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
) -> tuple[str, str, dict[str, Any]]:
    """(query name, query text, variables) for a search page and/or aliased follow-ups."""
    declarations: list[str] = []
    selections = ["  rateLimit { cost remaining resetAt }"]
    variables: dict[str, Any] = {}
    if search is not None:
        declarations.append(SEARCH_VARIABLES)
        selections.append(SEARCH_SELECTION)
        variables.update(
            query=search.range.query(repo, zone),
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


# --- fetching --------------------------------------------------------------------------------


def fetch_week(
    client: GitHubClient, repo: str, window: WeekWindow, *, page_sizes: PageSizes | None = None
) -> GitHubWeek:
    """Fetch every PR merged in `window`, with files, labels, reviews, threads and comments.

    Raises a GitHubError before returning anything when any page fails or does not add up.
    """
    fetcher = _WeekFetcher(client, repo, window, page_sizes or PageSizes())
    pages = fetcher.run()
    prs, review_data = parse_pages(repo, pages)
    fetcher.stats.pages = len(pages)
    return GitHubWeek(repo=repo, prs=prs, review_data=review_data, pages=pages, stats=fetcher.stats)


class _WeekFetcher:
    def __init__(
        self, client: GitHubClient, repo: str, window: WeekWindow, sizes: PageSizes
    ) -> None:
        self.client = client
        self.repo = repo
        self.window = window
        self.sizes = sizes
        self.stats = RequestStats()
        self.searches: deque[SearchStep] = deque(
            [SearchStep(SearchRange(start=window.start_utc, end=window.end_utc), None)]
        )
        self.follow_ups: deque[FollowUp] = deque()
        self.seen: set[int] = set()
        self.pages: list[RawPage] = []

    def run(self) -> list[RawPage]:
        while self.searches or self.follow_ups:
            search = self.searches.popleft() if self.searches else None
            batch = [
                self.follow_ups.popleft()
                for _ in range(min(len(self.follow_ups), self.sizes.follow_ups_per_request))
            ]
            name, query, variables = compose_query(
                self.repo, self.window.zone, search, batch, self.sizes
            )
            context = _describe_request(name, variables, search, batch)
            result = self.client.execute(query, variables, context=context)
            self._count(result, search is not None, len(batch))
            data = result.body["data"]
            self.pages.append(
                RawPage(
                    seq=len(self.pages),
                    query_name=name,
                    variables=variables,
                    response=result.body,
                    search_range=search.range if search else None,
                )
            )
            if search is not None:
                self._take_search(search, data.get("search"), context)
            for index, item in enumerate(batch):
                self._take_follow_up(item, data.get(f"f{index}"), context)
        return self.pages

    def _count(self, result: _Result, is_search: bool, items: int) -> None:
        _add_cost(self.stats, result)
        self.stats.search_pages += int(is_search)
        self.stats.follow_up_items += items

    def _take_search(self, step: SearchStep, search: Any, context: str) -> None:
        if not isinstance(search, dict) or not isinstance(search.get("nodes"), list):
            raise GitHubResponseError(f"GitHub answered {context} without search results")
        count = int(search.get("issueCount") or 0)
        if step.cursor is None and count > SEARCH_RESULT_CAP:
            if step.range.end - step.range.start <= timedelta(seconds=1):
                raise GitHubResponseError(
                    f"{count} PRs merged within one second at {step.range.start.isoformat()}:"
                    f" GitHub search cannot list more than {SEARCH_RESULT_CAP}"
                )
            early, late = step.range.halves()
            self.searches.extendleft([SearchStep(late, None), SearchStep(early, None)])
            self.stats.search_parts += 1
            logger.info(
                "search for %s holds %d PRs (over %d): splitting it in halves",
                step.range.query(self.repo, self.window.zone),
                count,
                SEARCH_RESULT_CAP,
            )
        else:
            cursor = _next_cursor(search, step.cursor, context, "search results")
            if cursor is not None:
                self.searches.appendleft(SearchStep(step.range, cursor))
        for node in search["nodes"]:
            if isinstance(node, dict) and isinstance(node.get("number"), int):
                self._take_pull_request(node, context)

    def _take_pull_request(self, node: dict[str, Any], context: str) -> None:
        number = node["number"]
        if number in self.seen:
            return
        self.seen.add(number)
        merged_at = _timestamp(node.get("mergedAt"), f"PR #{number} mergedAt")
        if merged_at is None or not self.window.contains(merged_at):
            return  # parse_pages drops it too; no point paging its connections
        node_id = _require_id(node, f"PR #{number}")
        for kind in PR_CONNECTIONS:
            connection = node.get(kind)
            if not isinstance(connection, dict):
                raise GitHubResponseError(f"GitHub answered {context} without PR #{number} {kind}")
            self._queue(kind, node_id, number, connection, None, context)
        for thread in node["reviewThreads"].get("nodes") or []:
            self._take_thread(thread, number, context)

    def _take_thread(self, thread: dict[str, Any], number: int, context: str) -> None:
        comments = thread.get("comments")
        if not isinstance(comments, dict):
            raise GitHubResponseError(f"GitHub answered {context} without PR #{number} comments")
        thread_id = _require_id(thread, f"PR #{number} review thread")
        self._queue(THREAD_COMMENTS, thread_id, number, comments, None, context)

    def _queue(
        self,
        kind: str,
        node_id: str,
        number: int,
        connection: dict[str, Any],
        after: str | None,
        context: str,
    ) -> None:
        what = f"PR #{number} {kind}"
        cursor = _next_cursor(connection, after, context, what)
        if cursor is not None:
            self.follow_ups.append(FollowUp(kind, node_id, cursor, number))

    def _take_follow_up(self, item: FollowUp, node: Any, context: str) -> None:
        field = "comments" if item.kind == THREAD_COMMENTS else item.kind
        if not isinstance(node, dict) or not isinstance(node.get(field), dict):
            raise GitHubResponseError(
                f"GitHub answered {context} without {item.describe()} (node {item.node_id!r})"
            )
        connection = node[field]
        self._queue(item.kind, item.node_id, item.pr_number, connection, item.cursor, context)
        if item.kind == "reviewThreads":
            for thread in connection.get("nodes") or []:
                self._take_thread(thread, item.pr_number, context)


def _add_cost(stats: RequestStats, result: _Result) -> None:
    """Add one executed query's requests, retries, waits and points to `stats`."""
    stats.requests += result.requests
    stats.retries += result.retries
    stats.rate_limit_waits += result.waits
    stats.rate_limit_waits_seconds += result.waited_seconds
    rate = result.body["data"].get("rateLimit") or {}
    stats.points_spent += int(rate.get("cost") or 0)
    if rate.get("remaining") is not None:
        stats.rate_limit_remaining = int(rate["remaining"])


def _next_cursor(
    connection: dict[str, Any], after: str | None, context: str, what: str
) -> str | None:
    """The cursor of the next page, or None at the end; a page that cannot go on fails."""
    info = connection.get("pageInfo")
    if not isinstance(info, dict) or not isinstance(info.get("hasNextPage"), bool):
        raise GitHubResponseError(f"GitHub answered {context} without pageInfo for {what}")
    if not info["hasNextPage"]:
        return None
    cursor = info.get("endCursor")
    if not cursor or not isinstance(cursor, str):
        raise GitHubResponseError(
            f"GitHub answered {context}: {what} has a next page but no endCursor"
        )
    if cursor == after or not connection.get("nodes"):
        raise GitHubResponseError(
            f"GitHub answered {context}: {what} page after cursor {after!r} is empty or did not"
            " advance, yet claims a next page"
        )
    return cursor


def _describe_request(
    name: str, variables: dict[str, Any], search: SearchStep | None, batch: Sequence[FollowUp]
) -> str:
    parts = []
    if search is not None:
        after = f" after cursor {search.cursor!r}" if search.cursor else ""
        parts.append(f"search {variables['query']!r}{after}")
    if batch:
        shown = ", ".join(item.describe() for item in batch[:3])
        more = f" and {len(batch) - 3} more" if len(batch) > 3 else ""
        parts.append(f"follow-ups for {shown}{more}")
    return f"{name} ({'; '.join(parts)})"


def _require_id(node: dict[str, Any], what: str) -> str:
    node_id = node.get("id")
    if not isinstance(node_id, str) or not node_id:
        raise GitHubResponseError(f"GitHub returned {what} without a node id")
    return node_id


def _timestamp(value: Any, what: str) -> datetime | None:
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


# --- file versions ---------------------------------------------------------------------------

BLOB_SELECTION = "... on Blob { text isBinary isTruncated byteSize }"


def fetch_file_versions(
    client: GitHubClient,
    repo: str,
    files: Sequence[tuple[PullRequest, FileChange]],
    *,
    stats: RequestStats | None = None,
    per_request: int = FILE_VERSIONS_PER_REQUEST,
) -> list[FileVersions]:
    """The text of each (PR, file) in the PR's merge commit and in that commit's first parent,
    in input order, so the caller can compare a configuration file's settings across the PR.

    The before side is read at `previous_path` when the file was renamed. A side is None where
    GitHub has no blob there (added or removed file, or a directory) or its text is not usable
    whole (binary or truncated); both are None for a PR without a merge commit, which sends
    nothing. For a PR rebased in several commits the first parent is its own previous commit, not
    the base: the same limit as reading the commits with git.

    Raises a GitHubError when a request fails or its answer lacks a blob it asked for.
    """
    if per_request < 1:
        raise ValueError(f"per_request must be at least 1, not {per_request}")
    versions = [
        FileVersions(pr_number=pr.number, path=file.path, status=file.status) for pr, file in files
    ]
    readable = [index for index, (pr, _) in enumerate(files) if pr.merge_commit_sha]
    for start in range(0, len(readable), per_request):
        batch = readable[start : start + per_request]
        answers = _fetch_blobs(client, repo, [files[index] for index in batch], stats)
        for index, (before, after) in zip(batch, answers, strict=True):
            versions[index] = versions[index].model_copy(update={"before": before, "after": after})
    return versions


def _fetch_blobs(
    client: GitHubClient,
    repo: str,
    batch: Sequence[tuple[PullRequest, FileChange]],
    stats: RequestStats | None,
) -> list[tuple[str | None, str | None]]:
    """(before, after) of every file in `batch` from one query. Expression e(2i) is file i's
    before side, e(2i+1) its after side; all are bound variables, never query text."""
    expressions: dict[str, str] = {}
    for index, (pr, file) in enumerate(batch):
        expressions[f"e{2 * index}"] = f"{pr.merge_commit_sha}^:{file.previous_path or file.path}"
        expressions[f"e{2 * index + 1}"] = f"{pr.merge_commit_sha}:{file.path}"
    owner, _, name = repo.partition("/")
    declarations = "".join(f", ${key}: String!" for key in expressions)
    objects = "".join(
        f"    {key}: object(expression: ${key}) {{ {BLOB_SELECTION} }}\n" for key in expressions
    )
    query = (
        f"query {FILE_VERSIONS_QUERY_NAME}($owner: String!, $name: String!{declarations}) {{\n"
        "  rateLimit { cost remaining resetAt }\n"
        f"  repository(owner: $owner, name: $name) {{\n{objects}  }}\n}}\n"
    )
    shown = ", ".join(f"PR #{pr.number} {file.path}" for pr, file in batch)
    context = f"{FILE_VERSIONS_QUERY_NAME} ({repo}: {shown})"
    result = client.execute(query, {"owner": owner, "name": name, **expressions}, context=context)
    if stats is not None:
        _add_cost(stats, result)
    repository = result.body["data"].get("repository")
    if not isinstance(repository, dict):
        raise GitHubResponseError(f"GitHub answered {context} without the repository")
    texts: list[str | None] = []
    for key, expression in expressions.items():
        blob = repository.get(key)
        if key not in repository or not isinstance(blob, dict | None):
            raise GitHubResponseError(
                f"GitHub answered {context} without object {key} {expression!r}"
            )
        texts.append(_blob_text(blob, f"{repo} {expression}"))
    return list(zip(texts[0::2], texts[1::2], strict=True))


def _blob_text(blob: dict[str, Any] | None, what: str) -> str | None:
    """The blob's whole text; None for no blob (or a tree), a binary or a truncated one."""
    text = blob.get("text") if blob is not None else None
    if blob is None or blob.get("isBinary") or not isinstance(text, str):
        return None
    if blob.get("isTruncated"):
        logger.info(
            "%s: GitHub truncated its %s bytes; taken as unreadable", what, blob.get("byteSize")
        )
        return None
    return text


# --- parsing ---------------------------------------------------------------------------------


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
            raise GitHubResponseError(
                f"{what}: GitHub reported {self.total} but its pages held {len(self.items)}"
                f" (pages stopped early after cursor {self.cursor_at_end!r})"
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


def parse_pages(repo: str, pages: Sequence[RawPage]) -> tuple[list[PullRequest], ReviewData]:
    """Rebuild a week's records from its raw pages alone, proving that nothing is missing."""
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
        raise GitHubResponseError(f"no search page among the {len(ordered)} pages of {repo}")
    _check_search(repo, root_count, parts)
    records = []
    for number, parts_of_pr in prs.items():
        merged_at = _timestamp(parts_of_pr.node.get("mergedAt"), f"PR #{number} mergedAt")
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


def _check_search(repo: str, root_count: int, parts: dict[str, _SearchPart]) -> None:
    for part in parts.values():
        if part.count <= SEARCH_RESULT_CAP and len(part.numbers) != part.count:
            raise GitHubResponseError(
                f"search {part.query!r} reported {part.count} merged PRs but its pages held"
                f" {len(part.numbers)}: the result pages stopped early"
            )
    union = set().union(*(part.numbers for part in parts.values()))
    if len(union) != root_count:
        raise GitHubResponseError(
            f"{repo}: search reported {root_count} merged PRs for the week but its parts held"
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
    merged_at = _timestamp(node.get("mergedAt"), f"{what} mergedAt")
    if merged_at is None:
        raise GitHubResponseError(f"{what} in {repo} is not merged (mergedAt is null)")
    try:
        files = sorted(
            (
                FileChange(
                    path=f["path"],
                    status=CHANGE_TYPE_STATUS[f["changeType"]],
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
            labels=[label["name"] for label in parts.connections["labels"].items.values()],
            created_at=_timestamp(node.get("createdAt"), f"{what} createdAt"),
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
                submitted_at=_timestamp(r.get("submittedAt"), f"{what} review submittedAt"),
            )
            for r in parts.connections["reviews"].items.values()
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
    except (KeyError, TypeError, ValidationError) as exc:
        raise GitHubResponseError(f"{what} in {repo} is not a valid record: {exc}") from None
    return pull_request, reviews, threads, comments


def _comment_fields(node: dict[str, Any], pr_author: str | None, what: str) -> dict[str, Any]:
    login, is_bot = _actor(node.get("author"))
    return {
        "comment_id": node["id"],
        "author": login,
        "author_is_bot": is_bot,
        "is_pr_author": login is not None and login == pr_author,
        "body": node.get("body") or "",
        "created_at": _timestamp(node.get("createdAt"), f"{what} comment createdAt"),
    }
