"""The SQL models follow the weekly assets: refreshed after every successful run of them."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import dagster as dg

from prhub_pipeline.defs.instance import CLI_PID_TAG

if TYPE_CHECKING:  # what define_asset_job returns; Dagster does not export its name
    from dagster._core.definitions.unresolved_asset_job_definition import (
        UnresolvedAssetJobDefinition,
    )


WAITING = [dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.QUEUED]


def build_sql_models_sensor(
    weekly_job: str, weekly_keys: Collection[dg.AssetKey], models_job: UnresolvedAssetJobDefinition
) -> dg.SensorDefinition:
    """A sensor that runs `models_job` after each successful run of `weekly_job` or of a
    selection with any of `weekly_keys`: the schedule's weekly runs and UI backfills alike.
    Without it the models kept what the last `prhub materialize` wrote: `author_identities` is
    a table, and `pr_authors` can only guess the person of a name first seen since (its
    author_key's, else one of its own)."""
    weekly = frozenset(weekly_keys)

    @dg.run_status_sensor(
        run_status=dg.DagsterRunStatus.SUCCESS,
        name="sql_models_after_weekly_runs",
        request_job=models_job,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Refresh the SQL models after every successful run of the weekly assets.",
    )
    def sql_models_after_weekly_runs(
        context: dg.RunStatusSensorContext,
    ) -> dg.RunRequest | dg.SkipReason:
        run = context.dagster_run
        if CLI_PID_TAG in run.tags:  # `prhub materialize` refreshes them at its end itself
            return dg.SkipReason(f"run {run.run_id} is prhub materialize's")
        if not run.asset_selection:  # a job's own run (None or empty), of all its assets
            wrote_weekly = run.job_name == weekly_job
        else:
            wrote_weekly = bool(run.asset_selection & weekly)
        if not wrote_weekly:
            return dg.SkipReason(f"run {run.run_id} wrote none of the weekly assets")
        # A backfill's runs each succeed in turn: one refresh still waiting for the pool reads
        # all they wrote, where one each would queue as many runs behind the backfill's own.
        waiting = context.instance.get_runs(
            filters=dg.RunsFilter(job_name=models_job.name, statuses=WAITING), limit=1
        )
        if waiting:
            return dg.SkipReason(
                f"run {waiting[0].run_id} of {models_job.name} has not started yet: it reads"
                f" what run {run.run_id} wrote"
            )
        return dg.RunRequest(run_key=run.run_id)

    return sql_models_after_weekly_runs
