"""Partitions: repository x calendar week (keyed by its Monday) in the configured zone."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date

import dagster as dg

from prhub_pipeline.config import Settings
from prhub_pipeline.weeks import parse_week

REPO_DIMENSION = "repo"
WEEK_DIMENSION = "week"
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


def week_partitions(settings: Settings) -> dg.WeeklyPartitionsDefinition:
    first = min(repo.start for repo in settings.repos)
    # day_offset=1: weeks start on Monday; only complete weeks exist as partitions.
    return dg.WeeklyPartitionsDefinition(
        start_date=first.isoformat(), timezone=settings.timezone, day_offset=1
    )


def repo_partitions(settings: Settings) -> dg.StaticPartitionsDefinition:
    return dg.StaticPartitionsDefinition([repo.name for repo in settings.repos])


def repo_week_partitions(settings: Settings) -> dg.MultiPartitionsDefinition:
    return dg.MultiPartitionsDefinition(
        {REPO_DIMENSION: repo_partitions(settings), WEEK_DIMENSION: week_partitions(settings)}
    )


def partition_key(repo: str, week: date) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({REPO_DIMENSION: repo, WEEK_DIMENSION: week.isoformat()})


def range_tags(repo: str, first: date, last: date) -> dict[str, str]:
    """The tags of one run over a repository's weeks `first` to `last` (Dagster's single-run
    backfill of a partition range)."""
    return {
        RANGE_START_TAG: str(partition_key(repo, first)),
        RANGE_END_TAG: str(partition_key(repo, last)),
    }


def weeks_by_repo(partition_keys: Iterable[str]) -> dict[str, list[date]]:
    """Group a run's partition keys (one or a backfill's range) into weeks per repository."""
    grouped: dict[str, set[date]] = defaultdict(set)
    for key in partition_keys:
        dimensions = (
            key.keys_by_dimension
            if isinstance(key, dg.MultiPartitionKey)
            else dict(zip((REPO_DIMENSION, WEEK_DIMENSION), key.split("|"), strict=True))
        )
        grouped[dimensions[REPO_DIMENSION]].add(parse_week(dimensions[WEEK_DIMENSION]))
    return {repo: sorted(weeks) for repo, weeks in sorted(grouped.items())}
