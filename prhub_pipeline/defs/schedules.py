"""The weekly schedule: on Monday morning, the previous complete week of every repository."""

from datetime import UTC, datetime

import dagster as dg

from prhub_pipeline.config import Settings
from prhub_pipeline.defs.partitions import partition_key
from prhub_pipeline.weeks import last_complete_week

WEEKLY_CRON = "0 6 * * 1"  # Monday 06:00 in the configured zone
CLASSIFIER_CRON = "0 5 * * 1"  # an hour earlier: the week's labels use a fresh model


def weekly_run_requests(settings: Settings, now: datetime) -> list[dg.RunRequest]:
    """One run per repository for the week that ended most recently before `now`."""
    week = last_complete_week(now, settings.timezone)
    return [
        dg.RunRequest(
            run_key=f"{repo.name}|{week.isoformat()}",
            partition_key=partition_key(repo.name, week),
        )
        for repo in settings.repos
        if repo.start <= week
    ]


def build_weekly_schedule(settings: Settings, job_name: str) -> dg.ScheduleDefinition:
    @dg.schedule(
        cron_schedule=WEEKLY_CRON,
        execution_timezone=settings.timezone,
        job_name=job_name,
        name="weekly_report_schedule",
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description="Every Monday 06:00: last week's report for every configured repository.",
    )
    def weekly_report_schedule(
        context: dg.ScheduleEvaluationContext,
    ) -> list[dg.RunRequest] | dg.SkipReason:
        now = context.scheduled_execution_time or datetime.now(UTC)
        requests = weekly_run_requests(settings, now)
        return requests or dg.SkipReason("no repository has started by last week")

    return weekly_report_schedule


def build_classifier_schedule(settings: Settings, job_name: str) -> dg.ScheduleDefinition:
    @dg.schedule(
        cron_schedule=CLASSIFIER_CRON,
        execution_timezone=settings.timezone,
        job_name=job_name,
        name="module_classifier_schedule",
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description="Every Monday 05:00: retrain each repository's module classifier.",
    )
    def module_classifier_schedule(
        context: dg.ScheduleEvaluationContext,
    ) -> list[dg.RunRequest]:
        day = (context.scheduled_execution_time or datetime.now(UTC)).date().isoformat()
        return [
            dg.RunRequest(run_key=f"{repo.name}|{day}", partition_key=repo.name)
            for repo in settings.repos
        ]

    return module_classifier_schedule
