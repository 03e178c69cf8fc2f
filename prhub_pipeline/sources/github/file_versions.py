"""Files' text before and after PRs (merge commit and its first parent), so configuration
changes can be compared setting by setting; 1 point a request."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from typing import Any, NamedTuple

from prhub_pipeline.records import (
    FileChange,
    FileVersions,
    PullRequest,
    RequestStats,
)
from prhub_pipeline.sources.github.client import (
    GitHubClient,
    GitHubResponseError,
    GitHubTimeoutError,
    add_cost,
)
from prhub_pipeline.sources.github.queries import FILE_VERSIONS_QUERY_NAME

logger = logging.getLogger(__name__)

# Files (two blobs each) per FileVersions request. Blobs are not connections, so a request costs
# 1 point whatever its size; the bound keeps responses (config files of a few KB to ~100 KB)
# well inside GitHub's 10 second query timeout.
FILE_VERSIONS_PER_REQUEST = 20
# Timeouts of one batch before it is asked in halves (the first may be GitHub's load).
TIMEOUTS_BEFORE_SPLITTING = 2
BLOB_SELECTION = "... on Blob { text isBinary isTruncated byteSize }"


class FetchedVersions(NamedTuple):
    versions: list[FileVersions]  # one per file asked for, in that order
    timed_out: list[str]  # "PR #N path" of the files GitHub timed out on even alone


def fetch_file_versions(
    client: GitHubClient,
    repo: str,
    files: Sequence[tuple[PullRequest, FileChange]],
    *,
    stats: RequestStats | None = None,
    per_request: int = FILE_VERSIONS_PER_REQUEST,
) -> FetchedVersions:
    """The text of each (PR, file) in the PR's merge commit and in that commit's first parent,
    in input order, so the caller can compare a configuration file's settings across the PR.

    The before side is read at `previous_path` when the file was renamed. GitHub's
    PullRequestChangedFile never gives that path, so the before side of the GitHub source's
    renamed files is unknown: not asked for, and None. A side is None where GitHub has no blob
    there (added or removed file, or a directory) or its text is not usable whole (binary or
    truncated); both are None for a PR without a merge commit, which sends nothing. For a PR
    rebased in several commits the first parent is its own previous commit, not the base: the
    same limit as reading the commits with git.

    A batch GitHub keeps timing out on (large lock or data files) is asked again in halves; a
    file it times out on alone is left unread (both sides None) and named in `timed_out`.

    Raises a GitHubError when a request fails otherwise or its answer lacks a blob it asked for.
    """
    if per_request < 1:
        raise ValueError(f"per_request must be at least 1, not {per_request}")
    versions = [
        FileVersions(pr_number=pr.number, path=file.path, status=file.status) for pr, file in files
    ]
    timed_out: list[str] = []
    readable = [index for index, (pr, _) in enumerate(files) if pr.merge_commit_sha]
    batches = deque(
        readable[start : start + per_request] for start in range(0, len(readable), per_request)
    )
    while batches:
        batch = batches.popleft()
        try:
            answers = _fetch_blobs(client, repo, [files[index] for index in batch], stats)
        except GitHubTimeoutError as exc:
            if len(batch) > 1:
                half = len(batch) // 2
                batches.extendleft([batch[half:], batch[:half]])
                continue
            pr, file = files[batch[0]]
            logger.warning("%s; its settings are not compared", exc)
            timed_out.append(f"PR #{pr.number} {file.path}")
            continue
        for index, (before, after) in zip(batch, answers, strict=True):
            versions[index] = versions[index].model_copy(update={"before": before, "after": after})
    return FetchedVersions(versions, timed_out)


def _fetch_blobs(
    client: GitHubClient,
    repo: str,
    batch: Sequence[tuple[PullRequest, FileChange]],
    stats: RequestStats | None,
) -> list[tuple[str | None, str | None]]:
    """(before, after) of every file in `batch` from one query. Expression e(2i) is file i's
    before side (absent when its path is unknown), e(2i+1) its after side; all are bound
    variables, never query text."""
    expressions: dict[str, str] = {}
    for index, (pr, file) in enumerate(batch):
        before = _path_before(file)
        if before is not None:
            expressions[f"e{2 * index}"] = f"{pr.merge_commit_sha}^:{before}"
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
    result = client.execute(
        query,
        {"owner": owner, "name": name, **expressions},
        context=context,
        max_timeouts=TIMEOUTS_BEFORE_SPLITTING,
    )
    if stats is not None:
        add_cost(stats, result)
    repository = result.body["data"].get("repository")
    if not isinstance(repository, dict):
        raise GitHubResponseError(f"GitHub answered {context} without the repository")
    texts: dict[str, str | None] = {}
    for key, expression in expressions.items():
        blob = repository.get(key)
        if key not in repository or not isinstance(blob, dict | None):
            raise GitHubResponseError(
                f"GitHub answered {context} without object {key} {expression!r}"
            )
        texts[key] = _blob_text(blob, f"{repo} {expression}")
    return [(texts.get(f"e{2 * i}"), texts[f"e{2 * i + 1}"]) for i in range(len(batch))]


def _path_before(file: FileChange) -> str | None:
    """Where the file was before the PR; None for a renamed file whose previous path is unknown
    (the new path did not exist there, so reading it would spend a blob on a null)."""
    if file.status == "renamed" and file.previous_path is None:
        return None
    return file.previous_path or file.path


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
