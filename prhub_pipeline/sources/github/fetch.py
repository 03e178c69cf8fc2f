"""Fetching a week: search pages and follow-ups until every connection is complete."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from prhub_pipeline.records import (
    GitHubWeek,
    PullRequest,
    RawPage,
    RequestStats,
    SearchRange,
)
from prhub_pipeline.sources.github.client import (
    GitHubClient,
    GitHubResponseError,
    GitHubTimeoutError,
    QueryResult,
    add_cost,
)
from prhub_pipeline.sources.github.parse import SEARCH_RESULT_CAP, parse_pages, parse_timestamp
from prhub_pipeline.sources.github.queries import (
    PR_CONNECTIONS,
    THREAD_COMMENTS,
    FollowUp,
    PageSizes,
    SearchStep,
    compose_query,
    search_query,
)
from prhub_pipeline.weeks import WeekWindow

logger = logging.getLogger(__name__)

# A query's timeouts (HTTP 502/504 or GitHub's own) before it is asked in smaller pages: one
# may be GitHub's load, a second says the query is too heavy.
TIMEOUTS_BEFORE_SHRINKING = 2


def fetch_week(
    client: GitHubClient,
    repo: str,
    window: WeekWindow,
    *,
    page_sizes: PageSizes | None = None,
    branch: str | None = None,
) -> GitHubWeek:
    """Fetch every PR merged in `window` (into `branch`, when given), with files, labels,
    reviews, threads and comments.

    Raises a GitHubError before returning anything when any page fails or does not add up; a
    query GitHub keeps timing out on is asked again in smaller pages first.
    """
    fetcher = _WeekFetcher(client, repo, window, page_sizes or PageSizes(), branch)
    pages = fetcher.run()
    prs, review_data = parse_pages(repo, pages, window.week_start)
    fetcher.stats.pages = len(pages)
    fetcher.stats.truncated_file_lists = _count_truncated_file_lists(repo, window, prs)
    return GitHubWeek(repo=repo, prs=prs, review_data=review_data, pages=pages, stats=fetcher.stats)


def _count_truncated_file_lists(repo: str, window: WeekWindow, prs: Sequence[PullRequest]) -> int:
    """The PRs whose listed files fall short of `changedFiles` (GitHub lists at most 3,000),
    each logged: nothing else shows them (their `changed_files` keeps the true count, their
    `files` those listed)."""
    truncated = [pr for pr in prs if pr.changed_files > len(pr.files)]
    for pr in truncated:
        logger.warning(
            "%s, week of %s: PR #%d changed %d files, but GitHub listed %d;"
            " the rest are not stored",
            repo,
            window.week_start,
            pr.number,
            pr.changed_files,
            len(pr.files),
        )
    return len(truncated)


class _WeekFetcher:
    def __init__(
        self,
        client: GitHubClient,
        repo: str,
        window: WeekWindow,
        sizes: PageSizes,
        branch: str | None,
    ) -> None:
        self.client = client
        self.repo = repo
        self.window = window
        self.sizes = sizes
        # Smaller sizes for the retry of the request GitHub timed out on; None: the configured.
        self.shrunk: PageSizes | None = None
        # The sizes a PR's follow-up pages passed in after a timeout: its later pages are as
        # heavy (a PR with long review threads), so they are asked so at once, not after two
        # more timeouts each.
        self.follow_up_sizes: dict[int, PageSizes] = {}
        self.branch = branch
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
            sizes, batch = self._next_batch()
            name, query, variables = compose_query(
                self.repo, self.window.zone, search, batch, sizes, self.branch
            )
            # A follow-up's own words name only PRs: say whose week it is, as parse errors do.
            where = f"{self.repo}, week of {self.window.week_start}: "
            context = where + _describe_request(name, variables, search, batch)
            smaller = sizes.halved()
            try:
                result = self.client.execute(
                    query,
                    variables,
                    context=context,
                    max_timeouts=TIMEOUTS_BEFORE_SHRINKING if smaller else None,
                )
            except GitHubTimeoutError as exc:
                assert smaller is not None
                self._ask_again(search, batch, smaller, exc)
                continue
            except GitHubResponseError as exc:
                if search is not None and exc.not_found("repository"):
                    raise GitHubResponseError(
                        f"GitHub has no repository {self.repo} that the token can read: check"
                        " the repository's name in the config and the token's access to it"
                    ) from None
                if any(exc.not_found(f"f{index}") for index in range(len(batch))):
                    # A review thread or comment deleted between its first page and the next.
                    raise GitHubResponseError(
                        f"{exc}: it was deleted while the week was fetched; run the week again"
                    ) from None
                raise
            # Only the query that was too heavy is asked smaller: the next is another, and a
            # short outage must not leave the rest of the week in pages of one.
            if self.shrunk is not None:
                self.follow_up_sizes.update((item.pr_number, sizes) for item in batch)
            self.shrunk = None
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
                self._check_repository(data.get("repository"), context)
                self._take_search(search, data.get("search"), context)
            for index, item in enumerate(batch):
                self._take_follow_up(item, data.get(f"f{index}"), context)
        return self.pages

    def _next_batch(self) -> tuple[PageSizes, list[FollowUp]]:
        """The sizes of the next request and the follow-ups it takes: the retry's smaller
        sizes, else the smallest any of its PRs' pages needed before, else the configured."""
        sizes = self.shrunk or self.sizes
        batch = [
            self.follow_ups.popleft()
            for _ in range(min(len(self.follow_ups), sizes.follow_ups_per_request))
        ]
        remembered = [
            self.follow_up_sizes[item.pr_number]
            for item in batch
            if item.pr_number in self.follow_up_sizes
        ]
        if self.shrunk is None and remembered:
            sizes = min(remembered, key=lambda known: known.follow_up)
            self.follow_ups.extendleft(reversed(batch[sizes.follow_ups_per_request :]))
            batch = batch[: sizes.follow_ups_per_request]
        return sizes, batch

    def _ask_again(
        self,
        search: SearchStep | None,
        batch: list[FollowUp],
        smaller: PageSizes,
        timeout: GitHubTimeoutError,
    ) -> None:
        """Queue the request that timed out again, first, to be sent in smaller pages."""
        if search is not None:
            self.searches.appendleft(search)
        self.follow_ups.extendleft(reversed(batch))
        self.shrunk = smaller
        self.stats.page_shrinks += 1
        self.stats.requests += timeout.requests
        self.stats.retries += timeout.retries
        logger.warning("%s; asking again in smaller pages (%s)", timeout, smaller)

    def _check_repository(self, repository: Any, context: str) -> None:
        name = repository.get("nameWithOwner") if isinstance(repository, dict) else None
        if not isinstance(name, str):
            raise GitHubResponseError(f"GitHub answered {context} without the repository's name")
        if name.lower() != self.repo.lower():
            # Search does not follow a rename; the stored weeks are under the configured name,
            # and `former_names` moves them to the new one.
            raise GitHubResponseError(
                f"GitHub calls the repository {self.repo} {name} now (renamed or transferred):"
                f" set its name in the config to {name}, with `former_names: [{self.repo}]` to"
                " keep the weeks stored under the old name"
            )

    def _count(self, result: QueryResult, is_search: bool, items: int) -> None:
        add_cost(self.stats, result)
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
                search_query(step.range, self.repo, self.window.zone, self.branch),
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
        merged_at = parse_timestamp(node.get("mergedAt"), f"PR #{number} mergedAt")
        if merged_at is None or not self.window.contains(merged_at):
            return  # parse_pages drops it too; no point paging its connections
        node_id = _require_id(node, f"PR #{number}", context)
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
        thread_id = _require_id(thread, f"PR #{number} review thread", context)
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


def _require_id(node: dict[str, Any], what: str, context: str) -> str:
    node_id = node.get("id")
    if not isinstance(node_id, str) or not node_id:
        raise GitHubResponseError(f"GitHub answered {context} with {what} without a node id")
    return node_id
