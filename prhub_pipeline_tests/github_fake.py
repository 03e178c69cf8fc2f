"""A fake of GitHub's GraphQL API for tests and benchmarks.

graphql-core parses, validates and executes every query against GitHub's published schema
(`<checkout>/../shared/github/schema.graphql`, or the file `PRHUB_GITHUB_SCHEMA` names) with
resolvers over in-memory pull requests, so pagination (`first`/`after`, `pageInfo`,
`totalCount`), the search cap (`issueCount` true, at most 1,000 results served), the files cap
(`changedFiles` true, at most 3,000 files listed and counted), `node(id:)`,
`rateLimit` cost and null authors behave as GitHub's do.
`repository(owner:, name:) { object(expression:) }` serves the files' texts the PRs hold (null for
any other expression, as GitHub answers). It speaks HTTP through `httpx.MockTransport` with
GitHub's rate-limit headers and can inject faults.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, cast

import httpx
from graphql import (
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    VariableNode,
    build_schema,
    execute,
    parse,
    validate,
)

SCHEMA_ENV = "PRHUB_GITHUB_SCHEMA"
DEFAULT_SCHEMA_PATH = Path(__file__).resolve().parents[2] / "shared" / "github" / "schema.graphql"


def schema_path(environ: Mapping[str, str] = os.environ) -> Path:
    """`PRHUB_GITHUB_SCHEMA` when set, else `<checkout>/../shared/github/schema.graphql`: a
    checkout elsewhere (a clone in /tmp) has no `shared/` beside it."""
    override = environ.get(SCHEMA_ENV)
    return Path(override) if override else DEFAULT_SCHEMA_PATH


SCHEMA_PATH = schema_path()
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "github"
SCHEMA_MISSING = (
    f"GitHub's GraphQL schema is not at {SCHEMA_PATH}: place it at"
    f" ../shared/github/schema.graphql beside the checkout or set {SCHEMA_ENV} to its path"
)
SEARCH_CAP = 1000
FILES_CAP = 3000  # a PR's files GitHub lists (totalCount too); changedFiles stays true
NODE_LIMIT = 500_000
RATE_LIMIT = 5000
RESET_EPOCH = 1_900_000_000  # a fixed x-ratelimit-reset, far in the future

Fault = Callable[[httpx.Request], httpx.Response]


def schema_available() -> bool:
    return SCHEMA_PATH.is_file()


# --- data -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FakeActor:
    login: str
    typename: Literal["User", "Bot"] = "User"

    def node(self) -> dict[str, Any]:
        return {"__typename": self.typename, "login": self.login}


@dataclass(frozen=True)
class FakeFile:
    """A changed file; `before`/`after` are its content at `path` in the merge commit's first
    parent (`<merge_sha>^:<path>`) and in the merge commit (`<merge_sha>:<path>`). None: no blob
    there; bytes: a binary blob."""

    path: str
    additions: int = 1
    deletions: int = 0
    change_type: str = "MODIFIED"
    before: str | bytes | None = None
    after: str | bytes | None = None


@dataclass(frozen=True)
class FakeReview:
    """A review; GitHub gives every review but a PENDING one a `submittedAt`, so the fake
    gives one without `submitted_at` its PR's merge time."""

    id: str
    author: FakeActor | None
    state: str
    body: str = ""
    submitted_at: datetime | None = None


@dataclass(frozen=True)
class FakeComment:
    id: str
    author: FakeActor | None
    body: str
    created_at: datetime


@dataclass(frozen=True)
class FakeThread:
    id: str
    path: str
    line: int | None
    comments: list[FakeComment]
    is_resolved: bool = False
    is_outdated: bool = False
    resolved_by: FakeActor | None = None


@dataclass(frozen=True)
class FakeTag:
    """A tag of a commit: annotated when it has its own `tagged_at`, else lightweight."""

    name: str
    sha: str
    committed_at: datetime
    tagged_at: datetime | None = None
    repo: str = "verl-project/verl"

    def node(self) -> dict[str, Any]:
        commit = {"__typename": "Commit", "oid": self.sha, "committedDate": _iso(self.committed_at)}
        if self.tagged_at is None:
            return {"name": self.name, "target": commit}
        tag = {
            "__typename": "Tag",
            "oid": "tag" + self.sha[3:],
            "tagger": {"date": _iso(self.tagged_at)},
            "target": commit,
        }
        return {"name": self.name, "target": tag}


@dataclass(frozen=True)
class FakePullRequest:
    number: int
    title: str
    merged_at: datetime
    repo: str = "verl-project/verl"
    body: str = ""
    author: FakeActor | None = FakeActor("octocat")
    created_at: datetime | None = None
    merged_by: FakeActor | None = None
    base_branch: str = "main"
    merge_sha: str | None = None
    labels: list[str] = field(default_factory=list)
    files: list[FakeFile] = field(default_factory=list)
    reviews: list[FakeReview] = field(default_factory=list)
    threads: list[FakeThread] = field(default_factory=list)
    comments: list[FakeComment] = field(default_factory=list)

    @property
    def node_id(self) -> str:
        return "PR_" + base64.b64encode(f"{self.repo}#{self.number}".encode()).decode()


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _actor(value: dict[str, Any] | None) -> FakeActor | None:
    return FakeActor(value["login"], value.get("type", "User")) if value else None


def load_fixture_week(name: str) -> list[FakePullRequest]:
    """Pull requests of a hand-written week under fixtures/github/ (see its `_about`)."""
    raw = json.loads((FIXTURES / name).read_text("utf-8"))

    def comment(c: dict[str, Any]) -> FakeComment:
        return FakeComment(c["id"], _actor(c.get("author")), c["body"], _time(c["created_at"]))  # type: ignore[arg-type]

    prs = []
    for pr in raw["pull_requests"]:
        prs.append(
            FakePullRequest(
                number=pr["number"],
                title=pr["title"],
                merged_at=_time(pr["merged_at"]),  # type: ignore[arg-type]
                repo=raw["repo"],
                body=pr.get("body", ""),
                author=_actor(pr.get("author")),
                created_at=_time(pr.get("created_at")),
                merged_by=_actor(pr.get("merged_by")),
                merge_sha=pr.get("merge_sha"),
                labels=pr.get("labels", []),
                files=[
                    FakeFile(
                        f["path"],
                        f["additions"],
                        f["deletions"],
                        f["change_type"],
                        f.get("before"),
                        f.get("after"),
                    )
                    for f in pr.get("files", [])
                ],
                reviews=[
                    FakeReview(
                        r["id"],
                        _actor(r.get("author")),
                        r["state"],
                        r.get("body", ""),
                        _time(r.get("submitted_at")),
                    )
                    for r in pr.get("reviews", [])
                ],
                threads=[
                    FakeThread(
                        t["id"],
                        t["path"],
                        t.get("line"),
                        [comment(c) for c in t["comments"]],
                        t.get("is_resolved", False),
                        t.get("is_outdated", False),
                        _actor(t.get("resolved_by")),
                    )
                    for t in pr.get("threads", [])
                ],
                comments=[comment(c) for c in pr.get("comments", [])],
            )
        )
    return prs


# --- schema and resolvers ---------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def _submitted_at(review: FakeReview, merged_at: datetime) -> datetime | None:
    if review.state == "PENDING":
        return None  # the token owner's review, not submitted yet
    return review.submitted_at or merged_at


def _encode_cursor(index: int) -> str:
    return base64.b64encode(f"cursor:v2:{index}".encode()).decode()


def _decode_cursor(cursor: str) -> int:
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
        return int(text.removeprefix("cursor:v2:"))
    except ValueError:
        raise GraphQLError(f"`{cursor}` does not appear to be a valid cursor.") from None


def _connection(info: Any, items: list[Any], args: dict[str, Any]) -> dict[str, Any]:
    name = info.field_name
    first, after = args.get("first"), args.get("after")
    if first is None:
        if args.get("last") is None:
            raise GraphQLError(
                f"You must provide a `first` or `last` value to properly paginate the `{name}`"
                " connection."
            )
        raise GraphQLError("the fake serves forward pagination (`first`) only")
    if not 1 <= first <= 100:
        raise GraphQLError(
            f"Requesting {first} records on the `{name}` connection exceeds the `first` limit"
            " of 100 records."
        )
    fake: FakeGitHub = info.context
    visible = items[: fake.stop_early[name]] if name in fake.stop_early else items
    start = _decode_cursor(after) + 1 if after else 0
    page = visible[start : start + first]
    cursors = [_encode_cursor(start + offset) for offset in range(len(page))]
    return {
        "totalCount": len(items),
        "pageInfo": {
            "hasNextPage": start + first < len(visible),
            "hasPreviousPage": start > 0,
            "startCursor": cursors[0] if cursors else None,
            "endCursor": cursors[-1] if cursors else None,
        },
        "nodes": page,
        "edges": [{"cursor": c, "node": n} for c, n in zip(cursors, page, strict=True)],
    }


def _connection_resolver(key: str) -> Callable[..., dict[str, Any]]:
    def resolve(obj: dict[str, Any], info: Any, **args: Any) -> dict[str, Any]:
        return _connection(info, obj[key], args)

    return resolve


SEARCH_TOKEN = re.compile(r"(?P<key>[\w-]+):(?P<value>\S+)")


def _search(_root: Any, info: Any, **args: Any) -> dict[str, Any]:
    fake: FakeGitHub = info.context
    if args["type"] != "ISSUE":
        raise GraphQLError("the fake searches issues and pull requests only")
    repo, merged, base, sort = None, None, None, None
    flags = set()
    for token in args["query"].split():
        match = SEARCH_TOKEN.fullmatch(token)
        if not match:
            raise GraphQLError(f"the fake does not understand search term {token!r}")
        key, value = match.group("key"), match.group("value")
        if key == "repo":
            repo = value
        elif key == "is":
            flags.add(value)
        elif key == "merged" and ".." in value:
            first, last = value.split("..", 1)
            merged = (_search_time(first), _search_time(last))
        elif key == "base":
            base = value
        elif key == "sort" and value == "created-asc":
            sort = value
        else:
            raise GraphQLError(f"the fake does not understand search qualifier {token!r}")
    if repo is None or merged is None or flags != {"pr", "merged"}:
        raise GraphQLError("the fake expects repo:, is:pr, is:merged and merged:START..END")
    matches = [
        node
        for node in fake.pr_nodes.values()
        if node["_repo"].lower() == repo.lower()
        and merged[0] <= node["_merged"] <= merged[1]
        and base in (None, node["baseRefName"])
    ]
    if sort is None:
        matches.sort(key=lambda node: -node["number"])  # newest first, as best match may be
    else:
        matches.sort(key=lambda node: (node["createdAt"], node["number"]))
    fake.searches.append(args["query"])
    result = _connection(info, matches[:SEARCH_CAP], args)
    result.update(issueCount=len(matches), codeCount=0, discussionCount=0)
    result.update(repositoryCount=0, userCount=0, wikiCount=0)
    return result


def _search_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise GraphQLError(f"the fake cannot read the search time {text!r}") from None
    # Without an offset GitHub reads UTC.
    return moment.replace(tzinfo=moment.tzinfo or UTC).astimezone(UTC)


def _node(_root: Any, info: Any, id: str) -> dict[str, Any] | None:
    node = info.context.nodes.get(id)
    if node is None:
        raise GraphQLError(f"Could not resolve to a node with the global id of '{id}'")
    return node


def _repository(_root: Any, info: Any, owner: str, name: str, **_: Any) -> dict[str, Any]:
    fake: FakeGitHub = info.context
    asked = f"{owner}/{name}"
    # GitHub follows a rename or transfer to the repository's new name; names ignore case.
    repo = fake.renamed.get(asked, asked)
    known = {name.lower(): name for name in fake.repos}
    known |= {node["_repo"].lower(): node["_repo"] for node in fake.pr_nodes.values()}
    if repo.lower() not in known:
        raise GraphQLError(f"Could not resolve to a Repository with the name '{asked}'.")
    return {"__typename": "Repository", "_repo": repo, "nameWithOwner": known[repo.lower()]}


def _object(
    repository: dict[str, Any], info: Any, expression: str | None = None, **_: Any
) -> dict[str, Any] | None:
    if expression is None:
        raise GraphQLError("the fake resolves git objects by `expression` only")
    fake: FakeGitHub = info.context
    content = fake.blobs.get((repository["_repo"], expression))
    if content is None:
        return None  # GitHub answers null for an expression that names no object
    data = content if isinstance(content, bytes) else content.encode()
    return {
        "__typename": "Blob",
        "text": None if isinstance(content, bytes) else content,
        "isBinary": isinstance(content, bytes),
        "isTruncated": False,
        "byteSize": len(data),
    }


def _refs(repository: dict[str, Any], info: Any, **args: Any) -> dict[str, Any]:
    """The repository's tags, newest commit first (`orderBy: TAG_COMMIT_DATE DESC`)."""
    if args.get("refPrefix") != "refs/tags/":
        raise GraphQLError("the fake serves refs under refs/tags/ only")
    order = args.get("orderBy") or {}
    if order != {"field": "TAG_COMMIT_DATE", "direction": "DESC"}:
        raise GraphQLError("the fake orders tags by TAG_COMMIT_DATE DESC only")
    fake: FakeGitHub = info.context
    tags = sorted(
        (t for t in fake.tags if t.repo == repository["_repo"]),
        key=lambda t: t.committed_at,
        reverse=True,
    )
    return _connection(info, [t.node() for t in tags], args)


def _rate_limit(_root: Any, info: Any, **_: Any) -> dict[str, Any]:
    fake: FakeGitHub = info.context
    return {
        "cost": fake.last_cost,
        "limit": RATE_LIMIT,
        "nodeCount": fake.last_nodes,
        "remaining": fake.remaining,
        "used": RATE_LIMIT - fake.remaining,
        "resetAt": _iso(datetime.fromtimestamp(RESET_EPOCH, UTC)),
    }


@functools.cache
def github_schema() -> GraphQLSchema:
    """GitHub's schema with the fake's resolvers attached (built once: it takes seconds)."""
    schema = build_schema(SCHEMA_PATH.read_text("utf-8"), assume_valid_sdl=True)
    query = cast(GraphQLObjectType, schema.type_map["Query"])
    query.fields["search"].resolve = _search
    query.fields["node"].resolve = _node
    query.fields["rateLimit"].resolve = _rate_limit
    query.fields["repository"].resolve = _repository
    repository = cast(GraphQLObjectType, schema.type_map["Repository"])
    repository.fields["object"].resolve = _object
    repository.fields["refs"].resolve = _refs
    pull_request = cast(GraphQLObjectType, schema.type_map["PullRequest"])
    for name in ("files", "labels", "reviews", "reviewThreads", "comments"):
        pull_request.fields[name].resolve = _connection_resolver("_" + name)
    thread = cast(GraphQLObjectType, schema.type_map["PullRequestReviewThread"])
    thread.fields["comments"].resolve = _connection_resolver("_comments")
    return schema


def query_cost(document: Any, variables: dict[str, Any]) -> tuple[int, int]:
    """(points, nodes) by GitHub's published formula: connection requests / 100, at least 1."""

    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    totals = {"requests": 0, "nodes": 0}

    def size(node: Any) -> int | None:
        for argument in node.arguments or []:
            if argument.name.value in ("first", "last"):
                value = argument.value
                if isinstance(value, IntValueNode):
                    return int(value.value)
                if isinstance(value, VariableNode):
                    return variables.get(value.name.value)
        return None

    def walk(selection_set: Any, multiplier: int) -> None:
        for selection in selection_set.selections if selection_set else []:
            if isinstance(selection, FieldNode):
                count = size(selection)
                if count:
                    totals["requests"] += multiplier
                    totals["nodes"] += multiplier * count
                    walk(selection.selection_set, multiplier * count)
                else:
                    walk(selection.selection_set, multiplier)
            elif isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set, multiplier)
            elif isinstance(selection, FragmentSpreadNode):
                walk(fragments[selection.name.value].selection_set, multiplier)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            walk(definition.selection_set, 1)
    return max(1, round(totals["requests"] / 100)), totals["nodes"]


# --- the server ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedQuery:
    operation: str | None
    query: str
    variables: dict[str, Any]


class FakeGitHub:
    """GitHub's GraphQL endpoint over the given pull requests, as an httpx transport."""

    def __init__(
        self,
        prs: Iterable[FakePullRequest],
        *,
        token: str = "test-token",
        remaining: int = RATE_LIMIT,
        stop_early: dict[str, int] | None = None,
        renamed: dict[str, str] | None = None,
        repos: Iterable[str] = ("verl-project/verl",),
        tags: Iterable[FakeTag] = (),
    ) -> None:
        self.token = token
        self.renamed = dict(renamed or {})  # old owner/name -> the repository's name now
        self.repos = {*repos}  # repositories that exist besides those of the PRs
        self.tags = list(tags)
        self.remaining = remaining
        self.stop_early = dict(stop_early or {})  # connection name -> items served before it stops
        self.pr_nodes: dict[int, dict[str, Any]] = {}
        self.nodes: dict[str, dict[str, Any]] = {}
        self.blobs: dict[tuple[str, str], str | bytes] = {}  # (repo, expression) -> content
        for pr in prs:
            node = self._pr_node(pr)
            self.pr_nodes[pr.number] = node
            self.nodes[node["id"]] = node
            self._add_blobs(pr)
        self.http_requests = 0  # every HTTP request, faulted ones included
        self.received: list[ReceivedQuery] = []  # every query that reached GraphQL
        self.invalid: list[str] = []  # validation errors GitHub would have answered with
        self.searches: list[str] = []
        self.points = 0
        self.last_cost = 0
        self.last_nodes = 0
        self.faults: deque[Fault] = deque()

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def fail_next(self, *faults: Fault) -> None:
        """Answer the next requests with these faults, in order, then serve normally."""
        self.faults.extend(faults)

    def _add_blobs(self, pr: FakePullRequest) -> None:
        if not pr.merge_sha:
            return
        for f in pr.files:
            sides = ((f"{pr.merge_sha}^:{f.path}", f.before), (f"{pr.merge_sha}:{f.path}", f.after))
            for expression, content in sides:
                if content is not None:
                    self.blobs[(pr.repo, expression)] = content

    def _pr_node(self, pr: FakePullRequest) -> dict[str, Any]:
        def comment(c: FakeComment) -> dict[str, Any]:
            return {
                "__typename": "IssueComment",
                "id": c.id,
                "author": c.author.node() if c.author else None,
                "body": c.body,
                "createdAt": _iso(c.created_at),
            }

        node: dict[str, Any] = {
            "__typename": "PullRequest",
            "_repo": pr.repo,
            "_merged": pr.merged_at.astimezone(UTC).replace(microsecond=0),
            "id": pr.node_id,
            "number": pr.number,
            "title": pr.title,
            "body": pr.body,
            "merged": True,
            "createdAt": _iso(pr.created_at or pr.merged_at - timedelta(days=1)),
            "mergedAt": _iso(pr.merged_at),
            "baseRefName": pr.base_branch,
            "additions": sum(f.additions for f in pr.files),
            "deletions": sum(f.deletions for f in pr.files),
            "changedFiles": len(pr.files),
            "author": pr.author.node() if pr.author else None,
            "mergedBy": pr.merged_by.node() if pr.merged_by else None,
            "mergeCommit": {"__typename": "Commit", "oid": pr.merge_sha} if pr.merge_sha else None,
            "_files": [
                {
                    "path": f.path,
                    "additions": f.additions,
                    "deletions": f.deletions,
                    "changeType": f.change_type,
                }
                for f in pr.files[:FILES_CAP]
            ],
            "_labels": [{"__typename": "Label", "name": name} for name in pr.labels],
            "_reviews": [
                {
                    "__typename": "PullRequestReview",
                    "id": r.id,
                    "author": r.author.node() if r.author else None,
                    "state": r.state,
                    "body": r.body,
                    "submittedAt": _iso(_submitted_at(r, pr.merged_at)),
                }
                for r in pr.reviews
            ],
            "_comments": [comment(c) for c in pr.comments],
        }
        node["_reviewThreads"] = []
        for t in pr.threads:
            thread = {
                "__typename": "PullRequestReviewThread",
                "id": t.id,
                "path": t.path,
                "line": t.line,
                "isResolved": t.is_resolved,
                "isOutdated": t.is_outdated,
                "resolvedBy": t.resolved_by.node() if t.resolved_by else None,
                "pullRequest": node,
                "_comments": [
                    {**comment(c), "__typename": "PullRequestReviewComment"} for c in t.comments
                ],
            }
            node["_reviewThreads"].append(thread)
            self.nodes[t.id] = thread
        return node

    def _headers(self) -> dict[str, str]:
        return {
            "content-type": "application/json; charset=utf-8",
            "x-ratelimit-limit": str(RATE_LIMIT),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-used": str(RATE_LIMIT - self.remaining),
            "x-ratelimit-reset": str(RESET_EPOCH),
            "x-ratelimit-resource": "graphql",
        }

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.http_requests += 1
        if self.faults:
            return self.faults.popleft()(request)
        if request.headers.get("authorization", "").lower() != f"bearer {self.token}".lower():
            return httpx.Response(
                401,
                json={
                    "message": "Bad credentials",
                    "documentation_url": "https://docs.github.com/graphql",
                },
            )
        payload = json.loads(request.content)
        query, variables = payload["query"], payload.get("variables") or {}
        self.received.append(ReceivedQuery(payload.get("operationName"), query, variables))
        schema = github_schema()
        document = parse(query)
        errors = validate(schema, document)
        if errors:
            self.invalid.extend(error.message for error in errors)
            body: dict[str, Any] = {"errors": [error.formatted for error in errors]}
            return httpx.Response(200, json=body, headers=self._headers())
        cost, nodes = query_cost(document, variables)
        if nodes > NODE_LIMIT:
            message = (
                f"This query requests up to {nodes:,} possible nodes which exceeds the maximum"
                f" limit of {NODE_LIMIT:,}."
            )
            body = {"errors": [{"type": "MAX_NODE_LIMIT_EXCEEDED", "message": message}]}
            return httpx.Response(200, json=body, headers=self._headers())
        if cost > self.remaining:
            self.remaining = 0
            return primary_rate_limit(RESET_EPOCH)(request)
        self.remaining -= cost
        self.points += cost
        self.last_cost, self.last_nodes = cost, nodes
        result = execute(schema, document, variable_values=variables, context_value=self)
        assert isinstance(result, ExecutionResult)
        body = {"data": result.data}
        if result.errors:
            body["errors"] = [_github_error(error) for error in result.errors]
        return httpx.Response(200, json=body, headers=self._headers())


def _github_error(error: GraphQLError) -> dict[str, Any]:
    """The error as GitHub words it: a missing object's also says its `type`, NOT_FOUND."""
    formatted = dict(error.formatted)
    if error.message.startswith("Could not resolve to"):
        formatted["type"] = "NOT_FOUND"
    return formatted


# --- faults -----------------------------------------------------------------------------------


def http_status(status: int) -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, text="<html>Unicorn!</html>")

    return fault


def graphql_timeout() -> Fault:
    """GitHub's answer (HTTP 200) when a query runs out of time on its side."""

    def fault(request: httpx.Request) -> httpx.Response:
        message = (
            "Something went wrong while executing your query. This may be the result of a"
            " timeout, or it could be a GitHub bug. Please include `C0A8:3B5E:1F2A3B4:2C3D4E5:"
            "6650A1B2` when reporting this issue."
        )
        return httpx.Response(200, json={"data": None, "errors": [{"message": message}]})

    return fault


def read_timeout() -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("The read operation timed out", request=request)

    return fault


def connect_timeout() -> Fault:
    """No connection within the timeout: the network, not the query's weight."""

    def fault(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    return fault


def pool_timeout() -> Fault:
    """No free connection in the client's pool within the timeout."""

    def fault(request: httpx.Request) -> httpx.Response:
        raise httpx.PoolTimeout("timed out", request=request)

    return fault


def secondary_rate_limit(*, status: int = 403, retry_after: int | None = None) -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        body = {
            "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes"
            " before you try again.",
        }
        return httpx.Response(status, json=body, headers=headers)

    return fault


def primary_rate_limit(reset_epoch: int) -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        body = {
            "errors": [
                {
                    "type": "RATE_LIMITED",
                    "message": "API rate limit already exceeded for user ID 1.",
                }
            ]
        }
        headers = {
            "x-ratelimit-limit": str(RATE_LIMIT),
            "x-ratelimit-remaining": "0",
            "x-ratelimit-used": str(RATE_LIMIT),
            "x-ratelimit-reset": str(reset_epoch),
            "x-ratelimit-resource": "graphql",
        }
        return httpx.Response(200, json=body, headers=headers)

    return fault


def graphql_errors(message: str) -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        body = {"data": None, "errors": [{"type": "INTERNAL", "message": message}]}
        return httpx.Response(200, json=body)

    return fault


def malformed_json() -> Fault:
    def fault(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text='{"data": {"search": {"issueCount": 4', headers={})

    return fault
