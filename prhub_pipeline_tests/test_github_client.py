"""The GitHub client over hand-written GraphQL responses: parsing, faults, the token's secrecy.

These tests need no schema: they serve responses shaped like GitHub's through MockTransport.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import GitHubWeek
from prhub_pipeline.sources.github import (
    GitHubAuthError,
    GitHubClient,
    GitHubError,
    GitHubRateLimitError,
    GitHubResponseError,
    GitHubUnavailableError,
    PageSizes,
    fetch_week,
    parse_pages,
)
from prhub_pipeline.weeks import WeekWindow
from prhub_pipeline_tests.github_fake import (
    DEFAULT_SCHEMA_PATH,
    FIXTURES,
    Fault,
    connect_timeout,
    graphql_errors,
    graphql_timeout,
    http_status,
    malformed_json,
    pool_timeout,
    primary_rate_limit,
    read_timeout,
    schema_path,
    secondary_rate_limit,
)

REPO = "verl-project/verl"
WINDOW = WeekWindow(week_start=date(2026, 5, 11), timezone="Asia/Shanghai")
SIZES = PageSizes(files=1, thread_comments=1)
TOKEN = "ghp_pRhUbTeStToKeN0123456789abcdefSECRET"
# Printable ASCII that a repr or JSON string escapes: redaction must find it escaped too.
QUOTED_TOKEN = "ghp_qUoTeD\\back'slash\"0123456789SECRET"
NOW = 1_800_000_000.0
RESPONSES: dict[str, Any] = json.loads((FIXTURES / "responses_two_prs.json").read_text("utf-8"))


class Scripted:
    """Serves the hand-written pages by operation name; `faults` answer the first requests
    (None lets that request through)."""

    def __init__(
        self, faults: list[Fault | None] | None = None, responses: dict[str, Any] | None = None
    ) -> None:
        self.faults: deque[Fault | None] = deque(faults or [])
        self.responses = responses or RESPONSES
        self.requests: list[httpx.Request] = []
        self.payloads: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        fault = self.faults.popleft() if self.faults else None
        if fault is not None:
            return fault(request)
        payload = json.loads(request.content)
        self.payloads.append(payload)
        match = re.match(r"query (\w+)", payload["query"])
        assert match, payload["query"]
        key = "search" if match.group(1) == "SearchMergedPullRequests" else "follow_ups"
        headers = {"x-ratelimit-remaining": "4986", "x-ratelimit-reset": str(int(NOW) + 3000)}
        return httpx.Response(200, json=self.responses[key], headers=headers)


def make_client(
    handler: Callable[[httpx.Request], httpx.Response],
    sleeps: list[float] | None = None,
    token: str = TOKEN,
    **config: Any,
) -> GitHubClient:
    settings = {"max_retries": 3, "max_rate_limit_wait_seconds": 900.0, **config}
    return GitHubClient(
        GitHubConfig(**settings),
        transport=httpx.MockTransport(handler),
        sleep=(sleeps if sleeps is not None else []).append,
        token=token,
        clock=lambda: NOW,
        jitter=lambda: 0.5,
    )


def fetch(
    faults: list[Fault | None] | None = None,
    responses: dict[str, Any] | None = None,
    sleeps: list[float] | None = None,
    token: str = TOKEN,
    **config: Any,
) -> tuple[GitHubWeek, Scripted]:
    server = Scripted(faults, responses)
    with make_client(server, sleeps, token, **config) as client:
        return fetch_week(client, REPO, WINDOW, page_sizes=SIZES), server


def test_fetches_a_week_with_follow_ups_for_what_did_not_fit() -> None:
    week, server = fetch()
    assert [pr.number for pr in week.prs] == [7001, 7002]
    first, second = week.prs
    assert first.source == "github"
    assert first.merged_at == datetime(2026, 5, 13, 8, 15, 42, tzinfo=UTC)
    assert first.author == "alice-dev" and first.merged_by == "core-maintainer"
    assert first.author_key == "alice-dev"  # a login is the author's key
    assert first.labels == ["rollout"] and first.base_branch == "main"
    assert first.merge_commit_sha == "0123456789abcdef0123456789abcdef01234567"
    assert [(f.path, f.status) for f in first.files] == [
        ("tests/workers/rollout/test_sglang_stop_tokens.py", "added"),
        ("verl/workers/rollout/sglang_rollout/sglang_rollout.py", "modified"),
    ]
    assert (first.additions, first.deletions, first.changed_files) == (25, 4, 2)
    assert second.author is None  # deleted account
    (thread,) = week.review_data.threads
    assert (thread.path, thread.line, thread.is_resolved) == (
        "verl/workers/rollout/sglang_rollout/sglang_rollout.py",
        233,
        False,
    )
    assert [(c.author, c.author_is_bot, c.is_pr_author) for c in thread.comments] == [
        ("gemini-code-assist[bot]", True, False),
        ("alice-dev", False, True),
    ]
    (review,) = week.review_data.reviews
    assert (review.author, review.author_is_bot, review.state) == (
        "gemini-code-assist[bot]",
        True,
        "COMMENTED",
    )
    (comment,) = week.review_data.comments
    assert (comment.pr_number, comment.author, comment.body) == (7002, None, "谢谢！")
    # One search page, then one request carrying both follow-ups as aliases.
    assert len(server.requests) == 2
    follow_up = server.payloads[1]["variables"]
    assert follow_up == {
        "pageSize": 100,
        "id0": "PR_kwDOLzHX5c6A7001",
        "after0": "Y3Vyc29yOnYyOjA=",
        "id1": "PRRT_kwDOLzHX5c5Thread1",
        "after1": "Y3Vyc29yOnYyOpHOAAAB",
    }
    assert server.payloads[0]["variables"]["query"] == (
        "repo:verl-project/verl is:pr is:merged"
        " merged:2026-05-11T00:00:00+08:00..2026-05-17T23:59:59+08:00 sort:created-asc"
    )
    stats = week.stats
    assert (stats.requests, stats.pages, stats.points_spent, stats.retries) == (2, 2, 15, 0)
    assert stats.rate_limit_remaining == 4985
    assert server.requests[0].headers["authorization"] == f"bearer {TOKEN}"


def test_parse_pages_rebuilds_the_same_records_from_the_pages_alone() -> None:
    week, _ = fetch()
    assert parse_pages(REPO, week.pages) == (week.prs, week.review_data)
    reloaded = [type(page).model_validate_json(page.model_dump_json()) for page in week.pages]
    assert parse_pages(REPO, reloaded) == (week.prs, week.review_data)


def test_a_pr_merged_outside_the_window_is_dropped() -> None:
    responses = copy.deepcopy(RESPONSES)
    # 2026-05-17T16:00:00Z is next Monday 00:00 in Shanghai: the next week's first second.
    responses["search"]["data"]["search"]["nodes"][1]["mergedAt"] = "2026-05-17T16:00:00Z"
    week, _ = fetch(responses=responses)
    assert [pr.number for pr in week.prs] == [7001]
    assert all(c.pr_number == 7001 for c in week.review_data.comments)


@pytest.mark.parametrize(
    "fault",
    [
        http_status(500),
        http_status(502),
        http_status(503),
        http_status(504),
        read_timeout(),
        graphql_timeout(),
    ],
    ids=["500", "502", "503", "504", "timeout", "graphql-timeout"],
)
def test_transient_faults_are_retried_with_backoff(fault: Fault) -> None:
    sleeps: list[float] = []
    week, server = fetch([fault, None, fault], sleeps=sleeps)
    assert [pr.number for pr in week.prs] == [7001, 7002]
    assert week.stats.retries == 2 and week.stats.requests == 4 == len(server.requests)
    assert sleeps == [0.75, 0.75]  # 1s base, jitter 0.5 of the upper half


def test_backoff_grows_exponentially_and_gives_up_after_max_retries() -> None:
    sleeps: list[float] = []
    with pytest.raises(GitHubUnavailableError) as failure:
        fetch([http_status(503)] * 4, sleeps=sleeps)
    assert sleeps == [0.75, 1.5, 3.0]
    message = str(failure.value)
    assert "SearchMergedPullRequests" in message and "HTTP 503" in message
    assert "after 3 retries" in message


def test_a_query_github_times_out_on_twice_is_asked_again_in_halved_pages() -> None:
    sleeps: list[float] = []
    week, server = fetch([http_status(502), graphql_timeout()], sleeps=sleeps)
    assert [pr.number for pr in week.prs] == [7001, 7002]
    assert sleeps == [0.75]  # one retry, then smaller pages at once
    first, *_ = server.payloads
    assert (first["variables"]["first"], first["variables"]["threads"]) == (12, 25)
    assert week.stats.page_shrinks == 1
    assert (week.stats.requests, week.stats.retries) == (4, 1)


@pytest.mark.parametrize("fault", [connect_timeout(), pool_timeout()], ids=["connect", "pool"])
def test_a_connection_that_times_out_is_retried_in_the_same_pages(fault: Fault) -> None:
    # No connection says nothing of the query's weight: the network is down for a moment.
    week, server = fetch([fault, fault, fault])
    assert [pr.number for pr in week.prs] == [7001, 7002]
    assert server.payloads[0]["variables"]["first"] == SIZES.search
    assert (week.stats.page_shrinks, week.stats.retries) == (0, 3)


def test_timeouts_at_the_smallest_pages_are_retried_then_fail_naming_the_query() -> None:
    with pytest.raises(GitHubUnavailableError) as failure:
        fetch([read_timeout()] * 30)
    message = str(failure.value)
    assert "SearchMergedPullRequests" in message and "timed out after" in message
    assert "after 3 retries" in message


@pytest.mark.parametrize(
    ("faults", "waits"),
    [
        ([secondary_rate_limit(retry_after=7)], [7.0]),
        ([secondary_rate_limit(status=429, retry_after=3)], [3.0]),
        ([secondary_rate_limit(status=429)], [60.0]),
        ([secondary_rate_limit(), secondary_rate_limit(status=429)], [60.0, 120.0]),
    ],
    ids=["403-retry-after", "429-retry-after", "429-bare", "403-then-429-doubles"],
)
def test_secondary_rate_limit_waits_as_github_documents(
    faults: list[Fault | None], waits: list[float]
) -> None:
    sleeps: list[float] = []
    week, _ = fetch(faults, sleeps=sleeps)
    assert sleeps == waits
    assert week.stats.rate_limit_waits == len(waits)
    assert week.stats.rate_limit_waits_seconds == sum(waits)
    assert len(week.prs) == 2


def test_a_403_with_an_exhausted_budget_waits_until_the_reset() -> None:
    def exhausted(request: httpx.Request) -> httpx.Response:
        headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 42)}
        return httpx.Response(403, json={"message": "API rate limit exceeded"}, headers=headers)

    sleeps: list[float] = []
    fetch([exhausted], sleeps=sleeps)
    assert sleeps == [43.0]


def test_primary_rate_limit_waits_until_reset_within_the_configured_maximum() -> None:
    sleeps: list[float] = []
    week, server = fetch([None, primary_rate_limit(int(NOW) + 30)], sleeps=sleeps)
    assert sleeps == [31.0]
    assert week.stats.rate_limit_waits == 1 and len(server.requests) == 3
    assert len(week.prs) == 2


def test_primary_rate_limit_beyond_the_maximum_wait_fails_saying_when_to_retry() -> None:
    sleeps: list[float] = []
    with pytest.raises(GitHubRateLimitError) as failure:
        fetch([primary_rate_limit(int(NOW) + 3600)], sleeps=sleeps)
    assert sleeps == []
    retry_at = datetime.fromtimestamp(int(NOW) + 3601, UTC)
    assert failure.value.retry_at == retry_at
    assert retry_at.isoformat() in str(failure.value)
    assert "max_rate_limit_wait_seconds=900" in str(failure.value)


def test_secondary_retry_after_beyond_the_maximum_wait_fails() -> None:
    with pytest.raises(GitHubRateLimitError) as failure:
        fetch([secondary_rate_limit(retry_after=1200)])
    assert failure.value.retry_at == datetime.fromtimestamp(NOW + 1200, UTC)


def test_errors_in_a_200_response_fail_naming_the_week_query_pr_and_cursor() -> None:
    with pytest.raises(GitHubResponseError) as failure:
        fetch([None, graphql_errors("Could not resolve to a node with the global id of 'x'")])
    message = str(failure.value)
    assert "verl-project/verl, week of 2026-05-11: PullRequestFollowUps (follow-ups" in message
    assert "PR #7001 files after cursor 'Y3Vyc29yOnYyOjA='" in message
    assert "Could not resolve to a node" in message


def test_malformed_json_fails_the_week() -> None:
    with pytest.raises(GitHubResponseError, match="malformed JSON"):
        fetch([malformed_json()])


def test_a_connection_that_stops_early_fails_the_week() -> None:
    responses = copy.deepcopy(RESPONSES)
    files = responses["follow_ups"]["data"]["f0"]["files"]
    files["nodes"] = []
    with pytest.raises(GitHubResponseError) as failure:
        fetch(responses=responses)
    assert str(failure.value) == (
        "verl-project/verl, week of 2026-05-11: PR #7001 files: GitHub reported 2 but its pages"
        " held 1 (its last page after cursor 'Y3Vyc29yOnYyOjE=' said there were no more)"
    )


def test_fewer_files_than_github_counts_changed_are_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The files connection agrees with itself (2 of totalCount 2), not with changedFiles: the
    # PR is stored with the files GitHub lists and counted, as one cut at 3,000 is; failing
    # would leave the week unreadable for good.
    responses = copy.deepcopy(RESPONSES)
    responses["search"]["data"]["search"]["nodes"][0]["changedFiles"] = 3
    with caplog.at_level("WARNING"):
        week, _ = fetch(responses=responses)
    assert week.stats.truncated_file_lists == 1
    assert "PR #7001 changed 3 files, but GitHub listed 2" in caplog.text


def test_a_file_kind_github_added_since_counts_as_modified(
    caplog: pytest.LogCaptureFixture,
) -> None:
    responses = copy.deepcopy(RESPONSES)
    files = responses["follow_ups"]["data"]["f0"]["files"]
    files["nodes"][0]["changeType"] = "MOVED_AND_PATCHED"
    week, _ = fetch(responses=responses)
    path = files["nodes"][0]["path"]
    (changed,) = [f for pr in week.prs for f in pr.files if f.path == path]
    assert changed.status == "modified"
    assert f"PR #7001 {path}: unknown changeType 'MOVED_AND_PATCHED'" in caplog.text


def test_a_record_without_a_field_it_needs_fails_naming_the_pr_and_the_field() -> None:
    responses = copy.deepcopy(RESPONSES)
    del responses["follow_ups"]["data"]["f0"]["files"]["nodes"][0]["path"]
    with pytest.raises(GitHubResponseError) as failure:
        fetch(responses=responses)
    assert str(failure.value) == (
        "verl-project/verl, week of 2026-05-11: PR #7001 is not a valid record: GitHub's answer"
        " lacks the field 'path'"
    )


def test_an_endpoint_that_is_not_graphql_is_named_in_the_error() -> None:
    def not_found(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"message": "Not Found"})

    with pytest.raises(GitHubResponseError, match=r"HTTP 404: Not Found \(is api_url https://"):
        fetch([not_found])


def test_search_pages_that_stop_before_issue_count_fail_the_week() -> None:
    responses = copy.deepcopy(RESPONSES)
    responses["search"]["data"]["search"]["issueCount"] = 3
    with pytest.raises(GitHubResponseError, match="reported 3 merged PRs but its pages held 2"):
        fetch(responses=responses)


def test_a_next_page_without_a_cursor_fails_the_week() -> None:
    responses = copy.deepcopy(RESPONSES)
    responses["search"]["data"]["search"]["pageInfo"] = {"hasNextPage": True, "endCursor": None}
    with pytest.raises(GitHubResponseError, match="has a next page but no endCursor"):
        fetch(responses=responses)


def test_rejected_credentials_fail_naming_the_variable() -> None:
    def unauthorized(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"message": "Bad credentials"})

    with pytest.raises(GitHubAuthError, match=r"HTTP 401: Bad credentials.*GITHUB_TOKEN"):
        fetch([unauthorized])


def test_a_403_that_is_not_a_rate_limit_is_not_retried() -> None:
    def forbidden(request: httpx.Request) -> httpx.Response:
        return httpx.Response(403, json={"message": "Resource not accessible by integration"})

    sleeps: list[float] = []
    with pytest.raises(GitHubAuthError, match="Resource not accessible"):
        fetch([forbidden], sleeps=sleeps)
    assert sleeps == []


@pytest.mark.parametrize("token_env", ["GITHUB_TOKEN", "PRHUB_GH_TOKEN"])
def test_no_token_fails_before_any_request_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, token_env: str
) -> None:
    monkeypatch.delenv(token_env, raising=False)
    server = Scripted()
    with pytest.raises(GitHubAuthError, match=token_env):
        GitHubClient(GitHubConfig(token_env=token_env), transport=httpx.MockTransport(server))
    assert server.requests == []


def test_the_token_comes_from_the_configured_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRHUB_GH_TOKEN", TOKEN)
    server = Scripted()
    config = GitHubConfig(token_env="PRHUB_GH_TOKEN", api_url="https://ghe.example.com/api/graphql")
    with GitHubClient(config, transport=httpx.MockTransport(server)) as client:
        fetch_week(client, REPO, WINDOW, page_sizes=SIZES)
    assert server.requests[0].headers["authorization"] == f"bearer {TOKEN}"
    assert str(server.requests[0].url) == "https://ghe.example.com/api/graphql"


def _echoing(status: int) -> Fault:
    """A hostile server that puts the request's Authorization header into its answer."""

    def fault(request: httpx.Request) -> httpx.Response:
        echoed = request.headers["authorization"]
        if status == 200:
            return httpx.Response(200, json={"errors": [{"message": f"bad header {echoed}"}]})
        return httpx.Response(status, text=f"not json: {echoed}")

    return fault


def _connect_error(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError(f"connection refused for {request.headers['authorization']}")


def _quoting_error(request: httpx.Request) -> httpx.Response:
    """An error that quotes the header as a repr does (h11's "Illegal header value b'...'")."""
    raise httpx.LocalProtocolError(
        f"Illegal header value {request.headers['authorization'].encode()!r}"
    )


def _exception_chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend([current.__cause__, current.__context__])


@pytest.mark.parametrize("token", [TOKEN, QUOTED_TOKEN], ids=["plain", "quotes-backslash"])
@pytest.mark.parametrize(
    ("faults", "echoes"),
    [
        ([_echoing(200)], True),
        ([_echoing(401)], True),
        ([_echoing(400)], True),
        ([_echoing(403)], True),
        ([_connect_error] * 4, True),
        ([_quoting_error] * 4, True),
        ([read_timeout()] * 30, False),
        ([malformed_json()], False),
        ([primary_rate_limit(int(NOW) + 5000)], False),
    ],
    ids=["errors", "401", "400", "403", "connect", "repr", "timeouts", "malformed", "rate-limit"],
)
def test_the_token_never_appears_in_errors_or_logs(
    faults: list[Fault | None], echoes: bool, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(GitHubError) as failure:
        fetch(faults, token=token)
    produced = "\n".join(traceback.format_exception(failure.value)) + caplog.text
    for error in _exception_chain(failure.value):
        # No httpx exception is chained: its request would carry the Authorization header.
        assert not isinstance(error, httpx.HTTPError)
        produced += repr(error) + str(error) + repr(error.args)
    # Nor escaped, as a repr or JSON string quotes it; its secret part alone neither.
    for form in (token, repr(token)[1:-1], repr(token.encode())[2:-1], json.dumps(token)[1:-1]):
        assert form not in produced
    assert token.removeprefix("ghp_")[:12] not in produced
    # What the server echoed back is shown, with the token masked.
    assert ("bearer [token]" in str(failure.value)) == echoes


@pytest.mark.parametrize(
    "token",
    [f"{TOKEN[:8]} {TOKEN[8:]}", f"{TOKEN[:8]}\t{TOKEN[8:]}", f"{TOKEN}\x1b", f"{TOKEN}\u00e9"],
    ids=["space", "tab", "escape", "non-ascii"],
)
def test_a_token_no_github_token_looks_like_fails_before_any_request_without_showing_it(
    monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    monkeypatch.setenv("PRHUB_GH_TOKEN", token)
    server = Scripted()
    with pytest.raises(GitHubAuthError, match="PRHUB_GH_TOKEN") as failure:
        GitHubClient(
            GitHubConfig(token_env="PRHUB_GH_TOKEN"), transport=httpx.MockTransport(server)
        )
    assert server.requests == []
    shown = "\n".join(traceback.format_exception(failure.value))
    assert TOKEN[4:16] not in shown
    assert failure.value.__context__ is None


def test_whitespace_around_the_token_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRHUB_GH_TOKEN", f" {TOKEN}\n")
    server = Scripted()
    with GitHubClient(
        GitHubConfig(token_env="PRHUB_GH_TOKEN"), transport=httpx.MockTransport(server)
    ) as client:
        fetch_week(client, REPO, WINDOW, page_sizes=SIZES)
    assert server.requests[0].headers["authorization"] == f"bearer {TOKEN}"


def test_the_token_never_appears_in_pages_stats_records_or_the_client() -> None:
    sleeps: list[float] = []
    server = Scripted([http_status(502), secondary_rate_limit(retry_after=1)])
    with make_client(server, sleeps) as client:
        week = fetch_week(client, REPO, WINDOW, page_sizes=SIZES)
        produced = week.model_dump_json() + repr(week) + repr(client) + str(vars(client))
    assert TOKEN not in produced
    assert all(TOKEN not in repr(request) + repr(request.headers) for request in server.requests)


def test_page_sizes_follow_githubs_limits() -> None:
    with pytest.raises(ValueError, match="less than or equal to 100"):
        PageSizes(files=101)


def test_the_schema_path_can_be_set_for_a_checkout_without_shared_beside_it(
    tmp_path: Path,
) -> None:
    schema = tmp_path / "schema.graphql"
    assert schema_path({"PRHUB_GITHUB_SCHEMA": str(schema)}) == schema
    assert schema_path({}) == DEFAULT_SCHEMA_PATH
