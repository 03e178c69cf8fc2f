"""The weekly schedule: on Monday morning, the previous complete week of every repository (and
earlier weeks left without a report, or lacking PRs or release tags found since, and the
analysis of weeks whose PRs were stored after it); the classifier's an hour before."""

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta

import dagster as dg

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.defs.partitions import partition_key, range_tags
from prhub_pipeline.defs.reanalysis import (
    analysed_again_tags,
    describe_stale,
    reanalysis_selection,
)
from prhub_pipeline.stages.report import weeks_to_analyse_again, weeks_to_run_again
from prhub_pipeline.warehouse import WarehouseError
from prhub_pipeline.warehouse.week_stages import StaleWeek
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
    to_analyse_again: Callable[[Settings, RepoConfig, Sequence[date]], list[StaleWeek]] = (
        weeks_to_analyse_again
    ),
) -> list[dg.RunRequest]:
    """Per repository, a run for the week that ended most recently before `now`, and for the
    earlier weeks since its `start` that have no stored report, lack PRs a git run found for
    them since, or have a release tag stored after their report: a run that failed (a fetch
    that timed out), ticks the daemon missed for weeks, a merge or a tag pushed after its week
    was read leave no gap behind. Consecutive weeks are one
    run over their range, as a backfill runs them: a new warehouse's history is one run, not
    one per week. Earlier weeks whose labels, scores or report predate their stored PRs (a
    GitHub range run that failed partway, a process killed between stages) get a run of the
    assets after raw_prs, tagged with why: their analysis is made again from the stored PRs.

    Each tick's run keys are its own (`repo|weeks|tick day`), so a week whose run failed is
    asked for again by the next tick. Where the warehouse cannot be read (a long run holds it),
    only the latest week is asked for. Runs are asked for oldest week first: a report reads
    the week before it.
    """
    latest = last_complete_week(now, settings.timezone)
    requests: list[dg.RunRequest] = []
    for repo in settings.repos:
        if repo.start > latest:
            continue
        earlier = [repo.start + timedelta(weeks=n) for n in range((latest - repo.start).days // 7)]
        readable = True
        try:
            missing = to_run_again(settings, repo, earlier)
        except WarehouseError as exc:
            # Not checked for stale analyses either: the lock would be waited for again.
            log(
                f"{repo.name}: earlier weeks not checked for missing reports or stale"
                f" analyses: {exc}"
            )
            missing, readable = [], False
        if len(missing) > 1 and len(missing) == len(earlier):
            log(
                f"{repo.name}: no earlier week is stored; this tick runs {missing[0]} to {latest}"
                " without a trained classifier (`prhub materialize` trains it first)"
            )
        elif missing:
            log(f"{repo.name}: {len(missing)} earlier week(s) to run again, from {missing[0]}")
        stale = (
            _stale_earlier_weeks(settings, repo, earlier, missing, to_analyse_again, log)
            if readable
            else []
        )
        runs: list[tuple[date, date, list[StaleWeek] | None]] = [
            (first, last, None) for first, last in consecutive_runs([*missing, latest])
        ]
        runs += [(first, last, weeks) for first, last, weeks in stale_runs(stale)]
        for first, last, analysed_again in sorted(runs, key=lambda run: run[0]):
            requests.append(_run_request(repo.name, first, last, now, analysed_again))
    return requests


def _stale_earlier_weeks(
    settings: Settings,
    repo: RepoConfig,
    earlier: Sequence[date],
    missing: Sequence[date],
    to_analyse_again: Callable[[Settings, RepoConfig, Sequence[date]], list[StaleWeek]],
    log: Callable[[str], None],
) -> list[StaleWeek]:
    """The earlier weeks to analyse again, but those run whole (`missing`)."""
    try:
        stale = to_analyse_again(settings, repo, earlier)
    except WarehouseError as exc:
        log(f"{repo.name}: earlier weeks not checked for analyses older than their PRs: {exc}")
        return []
    stale = [week for week in stale if week.week_start not in missing]
    if stale:
        log(
            f"{repo.name}: {len(stale)} earlier week(s) whose analysis is older than their"
            f" stored PRs, analysed again from them: {describe_stale(stale)}"
        )
    return stale


def _run_request(
    repo: str, first: date, last: date, now: datetime, analysed_again: list[StaleWeek] | None
) -> dg.RunRequest:
    """A run of every weekly asset over `first` to `last`, or of those after raw_prs where
    the weeks are `analysed_again`."""
    weeks = first.isoformat() if first == last else f"{first.isoformat()}..{last.isoformat()}"
    kind = "" if analysed_again is None else "|analysis"
    run_key = f"{repo}|{weeks}{kind}|{now.date().isoformat()}"
    tags = analysed_again_tags(analysed_again) if analysed_again else {}
    selection = reanalysis_selection() if analysed_again else None
    if first == last:
        return dg.RunRequest(
            run_key=run_key,
            partition_key=partition_key(repo, first),
            tags=tags,
            asset_selection=selection,
        )
    return dg.RunRequest(
        run_key=run_key, tags={**range_tags(repo, first, last), **tags}, asset_selection=selection
    )


def stale_runs(stale: Sequence[StaleWeek]) -> list[tuple[date, date, list[StaleWeek]]]:
    """The stale weeks as runs of consecutive weeks: (first, last, the run's weeks)."""
    return [
        (first, last, [week for week in stale if first <= week.week_start <= last])
        for first, last in consecutive_runs([week.week_start for week in stale])
    ]


def consecutive_runs(weeks: Sequence[date]) -> list[tuple[date, date]]:
    """`weeks` (ascending) as (first, last) of each run of consecutive weeks."""
    runs: list[tuple[date, date]] = []
    for week in weeks:
        if runs and week - runs[-1][1] == timedelta(weeks=1):
            runs[-1] = (runs[-1][0], week)
        else:
            runs.append((week, week))
    return runs


def build_weekly_schedule(settings: Settings, job_name: str) -> dg.ScheduleDefinition:
    @dg.schedule(
        cron_schedule=WEEKLY_CRON,
        execution_timezone=settings.timezone,
        job_name=job_name,
        name="weekly_report_schedule",
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description=(
            "Every Monday 06:00: last week's report for every configured repository, and any"
            " earlier week since its start that has no stored report, lacks PRs found since, or"
            " has a release tag stored after its report; the analysis (labels, scores, report)"
            " of an earlier week whose PRs were stored after it, from the stored PRs."
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
    ) -> list[dg.RunRequest] | dg.SkipReason:
        if not settings.database.exists():
            # A new install's first Monday: this tick comes an hour before the weekly run that
            # stores the first weeks, and its run failed on the missing file ("does not exist
            # yet: materialize a week first"), a red run in the UI each new install.
            return dg.SkipReason(
                f"no warehouse yet ({settings.database}): nothing to train on; the weekly"
                " schedule's run stores the history, and the next tick trains on it (or run"
                " module_classifier_job once it is stored)"
            )
        day = (context.scheduled_execution_time or datetime.now(UTC)).date().isoformat()
        return [
            dg.RunRequest(run_key=f"{repo.name}|{day}", partition_key=repo.name)
            for repo in settings.repos
        ]

    return module_classifier_schedule
