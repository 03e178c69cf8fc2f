"""Reading files before and after PRs from GitHub (`fetch_file_versions`).

Most tests serve answers shaped like GitHub's through MockTransport; the last ones run the
query through the fake GitHub, which executes it on GitHub's published schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from graphql import parse, validate

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import FileChange, FileVersions, PullRequest, RequestStats
from prhub_pipeline.sources.github import (
    GitHubClient,
    GitHubResponseError,
    fetch_file_versions,
)
from prhub_pipeline_tests.github_fake import (
    SCHEMA_MISSING,
    FakeFile,
    FakeGitHub,
    FakePullRequest,
    Fault,
    connect_timeout,
    github_schema,
    http_status,
    schema_available,
    secondary_rate_limit,
)

REPO = "verl-project/verl"
TOKEN = "test-token"
SHA = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
OTHER_SHA = "f60718293a4b5c6d7e8f90123456789012345678"
CONFIG = "verl/trainer/config/ppo_trainer.yaml"
OTHER = "verl/trainer/config/critic.yaml"
MERGED = datetime(2026, 5, 12, 8, 0, tzinfo=UTC)
needs_schema = pytest.mark.skipif(not schema_available(), reason=SCHEMA_MISSING)


def pr(number: int, sha: str | None = SHA) -> PullRequest:
    return PullRequest(
        repo=REPO, number=number, title="[trainer] feat: x", merged_at=MERGED, merge_commit_sha=sha
    )


def blob(text: str | None, *, binary: bool = False, truncated: bool = False) -> dict[str, Any]:
    """A `... on Blob` selection as GitHub answers it."""
    return {
        "text": text,
        "isBinary": binary,
        "isTruncated": truncated,
        "byteSize": len((text or "").encode()),
    }


class Repository:
    """Answers FileVersions queries from `objects` (expression -> Blob selection; absent:
    null), the aliases in reverse order so that answers are matched by alias, not position.
    `faults` answer the first requests; `repository` replaces the repository object when set."""

    def __init__(
        self,
        objects: Mapping[str, dict[str, Any] | None] | None = None,
        *,
        faults: list[Fault] | None = None,
        repository: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        self.objects = dict(objects or {})
        self.faults = list(faults or [])
        self.repository = repository
        self.payloads: list[dict[str, Any]] = []
        self.requests = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if self.faults:
            return self.faults.pop(0)(request)
        payload = json.loads(request.content)
        self.payloads.append(payload)
        variables = payload["variables"]
        aliases = [key for key in variables if re.fullmatch(r"e\d+", key)]
        answer = {key: self.objects.get(variables[key]) for key in reversed(aliases)}
        repository = self.repository(answer) if self.repository else answer
        rate = {"cost": 1, "remaining": 5000 - self.requests, "resetAt": "2026-05-18T00:00:00Z"}
        return httpx.Response(200, json={"data": {"rateLimit": rate, "repository": repository}})

    def expressions(self, index: int) -> list[str]:
        """The expressions request `index` asked for, in order e0, e1, ..."""
        variables = self.payloads[index]["variables"]
        aliases = sorted((key for key in variables if re.fullmatch(r"e\d+", key)), key=_number)
        return [variables[key] for key in aliases]


def _number(alias: str) -> int:
    return int(alias[1:])


def fetch(
    server: Callable[[httpx.Request], httpx.Response],
    files: list[tuple[PullRequest, FileChange]],
    **options: Any,
) -> list[FileVersions]:
    with GitHubClient(
        GitHubConfig(),
        transport=httpx.MockTransport(server),
        token=TOKEN,
        sleep=lambda _: None,
        jitter=lambda: 0.0,
    ) as client:
        return fetch_file_versions(client, REPO, files, **options).versions


def test_before_is_the_first_parent_and_after_the_merge_commit() -> None:
    server = Repository(
        {f"{SHA}^:{CONFIG}": blob("n: 1\n"), f"{SHA}:{CONFIG}": blob("n: 2\n")},
    )
    versions = fetch(server, [(pr(12), FileChange(path=CONFIG))])
    assert versions == [FileVersions(pr_number=12, path=CONFIG, before="n: 1\n", after="n: 2\n")]
    assert server.expressions(0) == [f"{SHA}^:{CONFIG}", f"{SHA}:{CONFIG}"]
    variables = server.payloads[0]["variables"]
    assert (variables["owner"], variables["name"]) == ("verl-project", "verl")


def test_a_renamed_file_is_read_at_its_previous_path_before_the_pr() -> None:
    old = "verl/trainer/config/old_trainer.yaml"
    server = Repository({f"{SHA}^:{old}": blob("n: 1\n"), f"{SHA}:{CONFIG}": blob("n: 1\n")})
    renamed = FileChange(path=CONFIG, status="renamed", previous_path=old)
    versions = fetch(server, [(pr(12), renamed)])
    assert versions == [
        FileVersions(pr_number=12, path=CONFIG, status="renamed", before="n: 1\n", after="n: 1\n")
    ]
    assert server.expressions(0) == [f"{SHA}^:{old}", f"{SHA}:{CONFIG}"]


def test_a_renamed_file_without_its_previous_path_reads_only_the_after_side() -> None:
    # GitHub's changed files name no previous path; the new one held nothing before the PR.
    server = Repository({f"{SHA}:{CONFIG}": blob("n: 1\n"), f"{SHA}:{OTHER}": blob("m: 2\n")})
    renamed = FileChange(path=CONFIG, status="renamed")
    versions = fetch(server, [(pr(12), renamed), (pr(12), FileChange(path=OTHER))])
    assert versions == [
        FileVersions(pr_number=12, path=CONFIG, status="renamed", before=None, after="n: 1\n"),
        FileVersions(pr_number=12, path=OTHER, after="m: 2\n"),
    ]
    assert server.expressions(0) == [f"{SHA}:{CONFIG}", f"{SHA}^:{OTHER}", f"{SHA}:{OTHER}"]


def test_a_path_without_a_blob_reads_as_none() -> None:
    added, removed, folder = "configs/new.yaml", "configs/gone.yaml", "configs/sub"
    server = Repository(
        {
            f"{SHA}:{added}": blob("new: 1\n"),
            f"{SHA}^:{removed}": blob("gone: 1\n"),
            f"{SHA}^:{folder}": {},  # a tree: `... on Blob` selects nothing
            f"{SHA}:{folder}": {},
        }
    )
    files = [
        (pr(12), FileChange(path=added, status="added")),
        (pr(12), FileChange(path=removed, status="removed")),
        (pr(12), FileChange(path=folder)),
    ]
    assert [(v.before, v.after) for v in fetch(server, files)] == [
        (None, "new: 1\n"),
        ("gone: 1\n", None),
        (None, None),
    ]


@pytest.mark.parametrize(
    "unusable",
    [
        blob(None, binary=True),  # GitHub's answer for a binary blob
        blob("\x89PNG", binary=True),  # binary wins even if text were sent
        blob("n: 1\nlr: 0.", truncated=True),
        {"text": None, "isBinary": None, "isTruncated": False, "byteSize": 0},
    ],
    ids=["binary", "binary-with-text", "truncated", "null-text"],
)
def test_a_binary_truncated_or_textless_blob_reads_as_none(unusable: dict[str, Any]) -> None:
    server = Repository({f"{SHA}^:{CONFIG}": unusable, f"{SHA}:{CONFIG}": blob("n: 2\n")})
    versions = fetch(server, [(pr(12), FileChange(path=CONFIG))])
    assert (versions[0].before, versions[0].after) == (None, "n: 2\n")


def test_a_pr_without_a_merge_commit_asks_nothing_and_reads_none() -> None:
    server = Repository({f"{SHA}:{CONFIG}": blob("n: 2\n")})
    assert fetch(server, [(pr(11, sha=None), FileChange(path=CONFIG))]) == [
        FileVersions(pr_number=11, path=CONFIG)
    ]
    assert server.requests == 0
    mixed = [(pr(11, sha=None), FileChange(path=CONFIG)), (pr(12), FileChange(path=CONFIG))]
    versions = fetch(server, mixed)
    assert [(v.pr_number, v.before, v.after) for v in versions] == [
        (11, None, None),
        (12, None, "n: 2\n"),
    ]
    assert server.requests == 1 and server.expressions(0) == [f"{SHA}^:{CONFIG}", f"{SHA}:{CONFIG}"]


def test_files_are_batched_per_request_and_come_back_in_input_order() -> None:
    paths = ["a.yaml", "b.yaml", "c.yaml"]
    shas = [SHA, SHA, OTHER_SHA]
    objects: dict[str, dict[str, Any] | None] = {}
    for path, sha in zip(paths, shas, strict=True):
        objects[f"{sha}^:{path}"] = blob(f"{path} before")
        objects[f"{sha}:{path}"] = blob(f"{path} after")
    server = Repository(objects)
    files = [(pr(12), FileChange(path=paths[0])), (pr(12), FileChange(path=paths[1]))]
    files.append((pr(13, sha=OTHER_SHA), FileChange(path=paths[2])))
    versions = fetch(server, files, per_request=2)
    assert server.requests == 2
    assert [len(server.expressions(i)) for i in range(2)] == [4, 2]
    assert [(v.pr_number, v.path, v.before, v.after) for v in versions] == [
        (12, "a.yaml", "a.yaml before", "a.yaml after"),
        (12, "b.yaml", "b.yaml before", "b.yaml after"),
        (13, "c.yaml", "c.yaml before", "c.yaml after"),
    ]


def test_a_batch_github_times_out_on_is_halved_and_a_file_it_times_out_on_alone_left_unread() -> (
    None
):
    paths = ["a.yaml", "b.yaml", "c.yaml"]
    objects: dict[str, dict[str, Any] | None] = {}
    for path in paths:
        objects[f"{SHA}^:{path}"] = blob(f"{path} before")
        objects[f"{SHA}:{path}"] = blob(f"{path} after")
    # The three files twice, then a.yaml alone twice; b.yaml and c.yaml then pass together.
    server = Repository(objects, faults=[http_status(504)] * 4)
    files = [(pr(12), FileChange(path=path)) for path in paths]
    stats = RequestStats()
    with GitHubClient(
        GitHubConfig(), transport=httpx.MockTransport(server), token=TOKEN, sleep=lambda _: None
    ) as client:
        versions, timed_out = fetch_file_versions(client, REPO, files, stats=stats)
    assert timed_out == ["PR #12 a.yaml"]
    assert [(v.path, v.before, v.after) for v in versions] == [
        ("a.yaml", None, None),
        ("b.yaml", "b.yaml before", "b.yaml after"),
        ("c.yaml", "c.yaml before", "c.yaml after"),
    ]
    assert server.requests == 5 and server.expressions(0) == [
        f"{SHA}^:b.yaml",
        f"{SHA}:b.yaml",
        f"{SHA}^:c.yaml",
        f"{SHA}:c.yaml",
    ]


def test_a_connection_that_times_out_is_retried_not_taken_for_a_file_too_big_to_read() -> None:
    server = Repository(
        {f"{SHA}^:{CONFIG}": blob("n: 1\n"), f"{SHA}:{CONFIG}": blob("n: 2\n")},
        faults=[connect_timeout()] * 2,
    )
    with GitHubClient(
        GitHubConfig(), transport=httpx.MockTransport(server), token=TOKEN, sleep=lambda _: None
    ) as client:
        versions, timed_out = fetch_file_versions(client, REPO, [(pr(12), FileChange(path=CONFIG))])
    assert timed_out == [] and server.requests == 3
    assert (versions[0].before, versions[0].after) == ("n: 1\n", "n: 2\n")


def test_expressions_and_the_repository_are_bound_variables_not_query_text() -> None:
    awkward = 'configs/"quoted") { x } .yaml'
    server = Repository({f"{SHA}:{awkward}": blob("n: 2\n")})
    versions = fetch(
        server, [(pr(12), FileChange(path=awkward)), (pr(12), FileChange(path=CONFIG))]
    )
    assert versions[0].after == "n: 2\n"
    query = server.payloads[0]["query"]
    for secret in (SHA, awkward, CONFIG, "verl-project", "ppo_trainer"):
        assert secret not in query
    assert re.match(r"query FileVersions\(\$owner: String!, \$name: String!, \$e0: String!", query)
    assert (
        "e3: object(expression: $e3)" in query and "rateLimit { cost remaining resetAt }" in query
    )
    other = Repository()
    fetch(other, [(pr(13, sha=OTHER_SHA), FileChange(path="x")), (pr(13), FileChange(path="y"))])
    assert other.payloads[0]["query"] == query  # the text depends on the batch's size alone


@needs_schema
def test_the_query_is_valid_against_githubs_schema() -> None:
    server = Repository()
    fetch(server, [(pr(12), FileChange(path=CONFIG)), (pr(13), FileChange(path="setup.py"))])
    assert validate(github_schema(), parse(server.payloads[0]["query"])) == []


def _without_alias(repository: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in repository.items() if key != "e3"}


@pytest.mark.parametrize(
    ("answer", "names"),
    [
        (lambda _: None, ["PR #12 a.yaml", "PR #13 b.yaml"]),
        (_without_alias, ["e3", f"{OTHER_SHA}:b.yaml", "PR #13 b.yaml"]),
        (lambda r: {**r, "e0": "n: 1"}, ["e0", f"{SHA}^:a.yaml", "PR #12 a.yaml"]),
    ],
    ids=["no-repository", "missing-alias", "object-not-an-object"],
)
def test_a_malformed_answer_names_the_repo_and_the_pr(
    answer: Callable[[dict[str, Any]], Any], names: list[str]
) -> None:
    server = Repository(repository=answer)
    files = [
        (pr(12), FileChange(path="a.yaml")),
        (pr(13, sha=OTHER_SHA), FileChange(path="b.yaml")),
    ]
    with pytest.raises(GitHubResponseError) as caught:
        fetch(server, files)
    message = str(caught.value)
    assert REPO in message and "FileVersions" in message
    for name in names:
        assert name in message


def test_stats_add_this_calls_requests_retries_waits_and_points() -> None:
    server = Repository(faults=[secondary_rate_limit(retry_after=7), http_status(502)])
    stats = RequestStats(requests=5, retries=1, points_spent=10, pages=3)
    files = [(pr(12), FileChange(path="a.yaml")), (pr(13), FileChange(path="b.yaml"))]
    fetch(server, files, stats=stats, per_request=1)
    assert server.requests == 4  # limited, answered; failed, answered
    assert stats == RequestStats(
        requests=9,
        retries=3,
        points_spent=12,
        pages=3,  # no RawPage is kept for file versions
        rate_limit_waits=1,
        rate_limit_waits_seconds=7.0,
        rate_limit_remaining=5000 - 4,
    )


def test_per_request_must_be_positive() -> None:
    with pytest.raises(ValueError, match="per_request"):
        fetch(Repository(), [(pr(12), FileChange(path=CONFIG))], per_request=0)


@needs_schema
def test_the_fake_github_serves_the_pr_files_and_null_elsewhere() -> None:
    fake_pr = FakePullRequest(
        number=12,
        title="[trainer] feat: x",
        merged_at=MERGED,
        repo=REPO,
        merge_sha=SHA,
        files=[
            FakeFile(CONFIG, before="n: 1\n", after="n: 2\n"),
            FakeFile("assets/logo.png", before=b"\x89PNG", after=b"\x89PNG!"),
            FakeFile("configs/new.yaml", change_type="ADDED", after="new: 1\n"),
        ],
    )
    fake = FakeGitHub([fake_pr], token=TOKEN)
    answers: list[dict[str, Any]] = []

    def server(request: httpx.Request) -> httpx.Response:
        response = fake.handle(request)
        answers.append(response.json())
        return response

    files = [(pr(12), FileChange(path=f.path)) for f in fake_pr.files]
    files.append((pr(12), FileChange(path="verl/trainer/config/unknown.yaml")))
    versions = fetch(server, files)
    assert fake.invalid == [] and fake.http_requests == 1
    assert answers[0]["data"]["repository"]["e2"] == blob(None, binary=True) | {"byteSize": 4}
    assert [(v.before, v.after) for v in versions] == [
        ("n: 1\n", "n: 2\n"),
        (None, None),
        (None, "new: 1\n"),
        (None, None),
    ]
    assert fake.points == 1  # blobs are not connections: one point per request


@needs_schema
def test_the_fake_github_knows_only_the_repositories_it_is_given_and_of_its_prs() -> None:
    other = FakePullRequest(number=1, title="x", merged_at=MERGED, repo="acme/widgets")
    fake = FakeGitHub([other], token=TOKEN, repos=())
    with pytest.raises(GitHubResponseError, match=f"{REPO}.*Could not resolve to a Repository"):
        fetch(fake.handle, [(pr(12), FileChange(path=CONFIG))])
