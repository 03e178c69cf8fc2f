"""The weekly schedule: on Monday morning, the previous complete week of every repository (and
earlier weeks left without a report, or lacking PRs found since); the classifier's an hour
before."""

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta

import dagster as dg

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.defs.partitions import partition_key
from prhub_pipeline.stages.report import weeks_to_run_again
from prhub_pipeline.warehouse import WarehouseError
from prhub_pipeline.weeks import last_complete_week

WEEKLY_CRON = "0 6 * * 1"  # Monday 06:00 in the configured zone
CLASSIFIER_CRON = "0 5 * * 1"  # an hour earlier: the week's labels use a fresh model


def weekly_run_requests(
    settings: Settings,
    now: datetime,
    to_run_again: Callable[[Settings, RepoConfig, Sequence[date]], list[date]] = (
        weeks_to_run_again
    ),
    log: Callable[[str], None] = lambda line: None,
) -> list[dg.RunRequest]:
    """Per repository, a run for the week that ended most recently before `now`, and one for
    each earlier week since its `start` that has no stored report or lacks PRs a git run found
    for it since: a run that failed (a fetch that timed out), ticks the daemon missed for
    weeks, or a merge pushed after its week was read leave no gap behind.

    Each tick's run keys are its own (`repo|week|tick day`), so a week whose run failed is
    asked for again by the next tick. Where the warehouse cannot be read (a long run holds it),
    only the latest week is asked for.
    """
    latest = last_complete_week(now, settings.timezone)
    requests: list[dg.RunRequest] = []
    for repo in settings.repos:
        if repo.start > latest:
            continue
        earlier = [repo.start + timedelta(weeks=n) for n in range((latest - repo.start).days // 7)]
        try:
            missing = to_run_again(settings, repo, earlier)
        except WarehouseError as exc:
            log(f"{repo.name}: earlier weeks not checked for missing reports: {exc}")
            missing = []
        if missing:
            log(f"{repo.name}: {len(missing)} earlier week(s) to run again, from {missing[0]}")
        requests.extend(
            dg.RunRequest(
                run_key=f"{repo.name}|{week.isoformat()}|{now.date().isoformat()}",
                partition_key=partition_key(repo.name, week),
            )
            for week in [*missing, latest]
        )
    return requests


def build_weekly_schedule(settings: Settings, job_name: str) -> dg.ScheduleDefinition:
    @dg.schedule(
        cron_schedule=WEEKLY_CRON,
        execution_timezone=settings.timezone,
        job_name=job_name,
        name="weekly_report_schedule",
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description=(
            "Every Monday 06:00: last week's report for every configured repository, and any"
            " earlier week since its start that has no stored report or lacks PRs found since."
        ),
    )
    def weekly_report_schedule(
        context: dg.ScheduleEvaluationContext,
    ) -> list[dg.RunRequest] | dg.SkipReason:
        now = context.scheduled_execution_time or datetime.now(UTC)
        requests = weekly_run_requests(settings, now, log=context.log.warning)
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
