"""Materialize weeks in this process, through the same definitions the UI uses."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

import dagster as dg
from pydantic import BaseModel

from prhub_pipeline.defs.definitions import WEEKLY_JOB, build_definitions
from prhub_pipeline.defs.partitions import partition_key

RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


class RunOutcome(BaseModel):
    repo: str
    weeks: list[date]
    run_id: str
    success: bool
    error: str | None = None


def _instance() -> dg.DagsterInstance:
    """The operator's instance when DAGSTER_HOME is set (runs show in the UI), else a throwaway."""
    if os.environ.get("DAGSTER_HOME"):
        return dg.DagsterInstance.get()
    return dg.DagsterInstance.ephemeral()


def materialize_weeks(
    config_path: Path,
    repo: str,
    weeks: Sequence[date],
    *,
    progress: Callable[[str], None] = lambda line: None,
) -> RunOutcome:
    """One in-process run of the weekly job over a contiguous range of one repository's weeks.

    A single run reads the source once for the whole range (the backfill policy is single-run);
    the in-process executor avoids paying for a subprocess per step.
    """
    definitions = build_definitions(config_path)
    job = definitions.resolve_job_def(WEEKLY_JOB)
    first, last = partition_key(repo, min(weeks)), partition_key(repo, max(weeks))
    tags = {RANGE_START_TAG: str(first), RANGE_END_TAG: str(last)}
    with _instance() as instance:
        result = job.execute_in_process(
            instance=instance,
            tags=tags,
            raise_on_error=False,
            run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
        )
        error = None
        if not result.success:
            failures = [
                event.step_failure_data.error.message.strip()
                for event in result.all_events
                if event.is_step_failure and event.step_failure_data.error
            ]
            error = failures[0] if failures else "the run failed"
            progress(f"  failed: {error}")
        summaries: dict[str, str] = {}
        for event in result.get_asset_materialization_events():
            materialization = event.step_materialization_data.materialization
            summary = materialization.metadata.get("summary")
            if summary is not None:
                summaries[materialization.asset_key.to_user_string()] = str(summary.value)
        for asset, summary in summaries.items():
            progress(f"  {asset}: {summary}")
    return RunOutcome(
        repo=repo,
        weeks=list(weeks),
        run_id=result.run_id,
        success=result.success,
        error=error,
    )
