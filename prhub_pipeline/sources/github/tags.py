"""A repository's version tags dated in a range of weeks (`ReleaseTag`), over GraphQL: 1 point a
page of 100 tags, newest commits first."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from prhub_pipeline.records import VERSION_TAG, ReleaseTag, RequestStats
from prhub_pipeline.sources.github.client import GitHubClient, GitHubResponseError, add_cost

logger = logging.getLogger(__name__)

TAGS_QUERY_NAME = "RepositoryTags"
TAGS_QUERY = """
query RepositoryTags($owner: String!, $name: String!, $after: String) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) {
    refs(refPrefix: "refs/tags/", first: 100, after: $after,
         orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes {
        name
        target {
          __typename
          oid
          ... on Commit { committedDate }
          ... on Tag {
            tagger { date }
            target {
              __typename
              oid
              ... on Commit { committedDate }
              ... on Tag { target { __typename oid ... on Commit { committedDate } } }
            }
          }
        }
      }
    }
  }
}
"""
# Tags come newest commit first; one made this long after its commit (a release tagged on an
# old commit) is still found, and paging stops past it.
TAGGED_AFTER_COMMIT = timedelta(days=90)
MAX_TAG_PAGES = 20


def fetch_version_tags(
    client: GitHubClient,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    stats: RequestStats | None = None,
) -> list[ReleaseTag]:
    """The repository's version tags dated in [start, end), oldest first (see `ReleaseTag`).

    Pages run newest first and stop once a page ends with tags (by the later of their commit's
    and their own date: GitHub's order of annotated tags is not documented) older than `start`
    by TAGGED_AFTER_COMMIT, or after MAX_TAG_PAGES pages (2,000 tags), which is logged: the
    weeks' releases may lie past them."""
    owner, _, name = repo.partition("/")
    tags: list[ReleaseTag] = []
    after: str | None = None
    for page in range(MAX_TAG_PAGES + 1):
        if page == MAX_TAG_PAGES:
            logger.warning(
                "%s: read %d pages of tags without reaching %s; older releases are not named",
                repo,
                MAX_TAG_PAGES,
                start.date(),
            )
            break
        context = f"{TAGS_QUERY_NAME} ({repo} tags, page {page + 1})"
        result = client.execute(
            TAGS_QUERY, {"owner": owner, "name": name, "after": after}, context=context
        )
        if stats is not None:
            add_cost(stats, result)
        repository = result.body["data"].get("repository")
        refs = repository.get("refs") if isinstance(repository, dict) else None
        if not isinstance(refs, dict) or not isinstance(refs.get("nodes"), list):
            raise GitHubResponseError(f"GitHub answered {context} without the tags")
        oldest: datetime | None = None
        for node in refs["nodes"]:
            found = _release_tag(repo, node, context)
            if found is None:
                continue
            tag, committed = found
            latest = max(committed, tag.tagged_at)
            oldest = latest if oldest is None else min(oldest, latest)
            if start <= tag.tagged_at < end and VERSION_TAG.match(tag.name):
                tags.append(tag)
        info = refs.get("pageInfo") or {}
        if not info.get("hasNextPage") or (oldest and oldest < start - TAGGED_AFTER_COMMIT):
            break
        after = info.get("endCursor")
    return sorted(tags, key=lambda tag: (tag.tagged_at, tag.name))


def _release_tag(
    repo: str, node: dict[str, Any], context: str
) -> tuple[ReleaseTag, datetime] | None:
    """The tag and its commit's date; None for a tag of a tree or blob (no release)."""
    target = node.get("target") or {}
    tagger_date: str | None = None
    if target.get("__typename") == "Tag":
        tagger_date = (target.get("tagger") or {}).get("date")
        target = target.get("target") or {}
        if target.get("__typename") == "Tag":  # a tag of a tag, followed as git does
            target = target.get("target") or {}
    if target.get("__typename") != "Commit":
        return None
    committed_text = target.get("committedDate")
    if not isinstance(committed_text, str) or not isinstance(target.get("oid"), str):
        raise GitHubResponseError(f"GitHub answered {context} with a tag lacking its commit")
    committed = _timestamp(committed_text)
    tagged_at = _timestamp(tagger_date) if isinstance(tagger_date, str) else committed
    tag = ReleaseTag(repo=repo, name=str(node.get("name")), sha=target["oid"], tagged_at=tagged_at)
    return tag, committed


def _timestamp(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
