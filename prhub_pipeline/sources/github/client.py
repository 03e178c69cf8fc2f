"""The GraphQL client: one query at a time, retrying what GitHub says to retry (5xx,
timeouts, rate limits), with errors that name the request and never the token."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import RequestStats

logger = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({500, 502, 503, 504})
# Status codes GitHub sends when a query ran past its ten-second limit: a smaller query may pass.
TIMEOUT_STATUS = frozenset({502, 504})
# GraphQL's errors when a query ran out of time on GitHub's side (sent with HTTP 200).
GRAPHQL_TIMEOUT_MESSAGES = (
    "Something went wrong while executing your query",
    "We couldn't respond to your request in time",
)
# JSON's escape of half a UTF-16 surrogate pair (`\ud83d`); json.loads joins a whole pair into
# one character and leaves a lone half in the string.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# A token is printable ASCII without spaces (GitHub's are `ghp_` and base62).
TOKEN_PATTERN = re.compile(r"[\x21-\x7e]+")
BACKOFF_BASE_SECONDS = 1.0
BACKOFF_CAP_SECONDS = 60.0
# GitHub: without Retry-After or an exhausted budget, wait at least a minute, longer each time.
SECONDARY_LIMIT_WAIT_SECONDS = 60.0


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


class GitHubTimeoutError(GitHubUnavailableError):
    """GitHub kept running out of time on a query (HTTP 502/504, its own query timeout, or no
    answer within `timeout_seconds` once sent): the same query in smaller pages may pass."""

    def __init__(self, message: str, *, requests: int, retries: int) -> None:
        super().__init__(message)
        self.requests = requests  # what the query cost before it was given up on
        self.retries = retries


class GitHubResponseError(GitHubError):
    """GitHub answered with errors, malformed JSON, or pages that do not add up."""

    def __init__(self, message: str, *, errors: Sequence[dict[str, Any]] = ()) -> None:
        super().__init__(message)
        self.errors = list(errors)  # GitHub's GraphQL errors, when that is what it answered

    def not_found(self, *path: str) -> bool:
        """Whether GitHub said the object at `path` (e.g. "repository") does not exist."""
        return any(
            e.get("type") == "NOT_FOUND" and e.get("path") == list(path) for e in self.errors
        )


@dataclass(frozen=True)
class QueryResult:
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
        token = _checked_token(
            token if token is not None else os.environ.get(config.token_env), config.token_env
        )
        self.config = config
        self._sleep = sleep
        self._clock = clock
        self._jitter = jitter
        self._redact = _redactor(token)
        self._http = httpx.Client(
            transport=transport,
            timeout=config.timeout_seconds,
            headers={
                "Authorization": f"bearer {token}",
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

    def execute(
        self,
        query: str,
        variables: dict[str, Any],
        *,
        context: str,
        max_timeouts: int | None = None,
    ) -> QueryResult:
        """POST one query; `context` names it in errors (query, PRs, cursors).

        With `max_timeouts`, the query's `max_timeouts`-th timeout raises GitHubTimeoutError
        at once, for a caller that can ask again in smaller pages; otherwise timeouts are
        retried like any other transient failure.
        """
        requests = retries = waits = timeouts = 0
        waited = 0.0
        secondary_strikes = 0
        while True:
            requests += 1
            failure: str
            timed_out = False
            try:
                response = self._http.post(
                    self.config.api_url, json={"query": query, "variables": variables}
                )
            except httpx.ReadTimeout:
                failure = f"timed out after {self.config.timeout_seconds:g}s"
                timed_out = True
            except httpx.TimeoutException as exc:
                # Connecting, waiting for a connection or sending: the network, not the query's
                # weight, so retried like any transient failure and never asked smaller.
                failure = f"{type(exc).__name__} after {self.config.timeout_seconds:g}s"
            except httpx.TransportError as exc:
                failure = f"{type(exc).__name__}: {self._redact(str(exc))}"
            else:
                wait = self._rate_limit_wait(response, secondary_strikes)
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
                        timed_out = True
                    else:
                        return QueryResult(body, requests, retries, waits, waited)
                elif response.status_code in RETRYABLE_STATUS:
                    failure = f"HTTP {response.status_code}"
                    timed_out = response.status_code in TIMEOUT_STATUS
                else:
                    raise self._status_error(response, context)
            timeouts += timed_out
            if timed_out and max_timeouts is not None and timeouts >= max_timeouts:
                raise GitHubTimeoutError(
                    f"GitHub ran out of time on {context}: {failure}, {timeouts} time(s)",
                    requests=requests,
                    retries=retries,
                )
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

    def _rate_limit_wait(self, response: httpx.Response, secondary_strikes: int) -> float | None:
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
        if status == 404:
            message += f" (is api_url {self.config.api_url} a GraphQL endpoint?)"
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
        if SURROGATE_ESCAPE.search(response.text):
            body = _without_lone_surrogates(body)
        errors = body.get("errors")
        if errors and all(
            isinstance(e, dict)
            and any(timeout in str(e.get("message", "")) for timeout in GRAPHQL_TIMEOUT_MESSAGES)
            for e in errors
        ):
            raise _QueryTimedOut
        if errors:
            errors = errors if isinstance(errors, list) else [errors]
            messages = "; ".join(
                self._redact(str(e.get("message", e)) if isinstance(e, dict) else str(e))
                for e in errors
            )
            raise GitHubResponseError(
                f"GitHub answered {context} with errors: {messages}",
                errors=[e for e in errors if isinstance(e, dict)],
            )
        if not isinstance(body.get("data"), dict):
            raise GitHubResponseError(f"GitHub answered {context} without data")
        return body


def _without_lone_surrogates(value: Any) -> Any:
    """`value` with each lone surrogate in its strings replaced by U+FFFD. GitHub passes on
    text cut inside an emoji (a title or body written through the API): no UTF-8 holds a lone
    half, so DuckDB refused the whole week ("cannot encode str as UTF-8, surrogate '\\ud83d'"),
    naming no PR, on every run."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_lone_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {key: _without_lone_surrogates(item) for key, item in value.items()}
    return value


def _checked_token(token: str | None, token_env: str) -> str:
    """The token without surrounding whitespace; one with any character no GitHub token has
    fails here, naming the variable only: httpx would put it, escaped where redaction cannot
    find it, into an exception (a header it cannot encode or send)."""
    token = (token or "").strip()
    if not token:
        raise GitHubAuthError(
            f"no GitHub token: set the environment variable {token_env}"
            " (a token with read access to the repository's pull requests)"
        )
    if not TOKEN_PATTERN.fullmatch(token):
        raise GitHubAuthError(
            f"the GitHub token in {token_env} holds whitespace, control or non-ASCII"
            " characters, which no GitHub token has: set it again"
        )
    return token


def _redactor(token: str) -> Callable[[str], str]:
    # The token as an error may quote it: itself, and escaped in a repr or JSON string (a
    # backslash or quote in it doubles); the longest first, so none leaves a part behind.
    forms = sorted(
        {token, repr(token)[1:-1], repr(token.encode())[2:-1], json.dumps(token)[1:-1]},
        key=len,
        reverse=True,
    )

    def redact(text: str) -> str:
        for form in forms:
            text = text.replace(form, "[token]")
        return text

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


def add_cost(stats: RequestStats, result: QueryResult) -> None:
    """Add one executed query's requests, retries, waits and points to `stats`."""
    stats.requests += result.requests
    stats.retries += result.retries
    stats.rate_limit_waits += result.waits
    stats.rate_limit_waits_seconds += result.waited_seconds
    rate = result.body["data"].get("rateLimit") or {}
    stats.points_spent += int(rate.get("cost") or 0)
    if rate.get("remaining") is not None:
        stats.rate_limit_remaining = int(rate["remaining"])
