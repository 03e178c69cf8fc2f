"""What every weekly asset does: run a stage over the run's repositories and weeks, then turn
the stage's data-quality outcomes into asset check results."""

import os
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import dagster as dg

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.defs.partitions import (
    RANGE_END_TAG,
    RANGE_START_TAG,
    partition_key,
    weeks_by_repo,
)
from prhub_pipeline.defs.resources import PrhubSettings
from prhub_pipeline.stages.just_stored import just_stored_note, weeks_just_stored
from prhub_pipeline.warehouse import lock_waits_told_to
from prhub_pipeline.warehouse.quality import CheckOutcome
from prhub_pipeline.warehouse.writer_lock import writer_lock
from prhub_pipeline.weeks import WeekWindow


class WeekResult(Protocol):
    """What a weekly stage returns for each repository and week."""

    @property
    def repo(self) -> str: ...

    @property
    def window(self) -> WeekWindow: ...


Result = TypeVar("Result")
Week = TypeVar("Week", bound=WeekResult)
Stage = Callable[[Settings, RepoConfig, Sequence[date]], list[Result]]
Check = Callable[[Settings, RepoConfig, Sequence[date]], list[CheckOutcome]]


# When a `prhub materialize` was asked to run, on each run it starts: a week another run stored
# whole since then is skipped (`weeks_just_stored`). A run without the tag (a backfill's, the
# schedule's, one launched in the UI) counts from its creation.
ASKED_AT_TAG = "prhub/asked_at"


@dataclass(frozen=True)
class StageRun(Generic[Result]):
    """What `run_weekly_stage` did: the stage's results and check results, and the run's
    partitions it stored nothing for, with why: those before their repository's `start`, and
    those another run stored whole since this one was asked for (`just_stored`, said in the
    run's summary)."""

    results: list[Result]
    checks: list[dg.AssetCheckResult]
    not_stored: dict[tuple[str, date], str]
    just_stored: str | None = None


def asked_at(context: dg.AssetExecutionContext) -> datetime:
    """When the run was asked for: its ASKED_AT_TAG, else its creation."""
    tag = context.run.tags.get(ASKED_AT_TAG)
    if tag:
        return datetime.fromisoformat(tag)
    record = context.instance.get_run_record_by_id(context.run.run_id)
    created = record.create_timestamp if record is not None else datetime.now(UTC)
    return created if created.tzinfo is not None else created.replace(tzinfo=UTC)


@contextmanager
def failure_naming(subject: str) -> Iterator[None]:
    """Fail the step with a Failure that names `subject` and the error. Dagster wraps any
    other error in "Error occurred while executing op "raw_prs":" with its traceback, and the
    run's failure in the event log showed only that, the error itself (a git_path that is no
    directory) cut off behind "View full message". The error stays the failure's cause, with
    its traceback."""
    try:
        yield
    except Exception as exc:
        raise dg.Failure(description=f"{subject}: {type(exc).__name__}: {exc}") from exc


@contextmanager
def warehouse_writer(context: dg.AssetExecutionContext, database: Path) -> Iterator[None]:
    """Hold the warehouse's writer lock for the step (`writer_lock`: a `prhub materialize`
    holds it for the whole of its run), a wait for it or for DuckDB's own lock (another
    process writing) told as a warning in the run's event log: said on stderr only, it sat in
    the step's raw compute log, and the run showed nothing but "Started execution of step"
    for the two minutes before it failed."""
    holder = (
        f"Dagster run {context.run.run_id[:8]} ({context.asset_key.to_user_string()},"
        f" process {os.getpid()})"
    )
    tell = context.log.warning
    with lock_waits_told_to(tell), writer_lock(database, holder, tell):
        yield


def _weeks_label(weeks: Sequence[date]) -> str:
    return f"week {weeks[0]}" if len(weeks) == 1 else f"weeks {weeks[0]} to {weeks[-1]}"


def run_weekly_stage(
    context: dg.AssetExecutionContext,
    prhub: PrhubSettings,
    stage: Stage[Result],
    check: Check | None = None,
    preflight: Callable[[Settings, RepoConfig], None] | None = None,
) -> StageRun[Result]:
    """Run `stage` for every repository and week of the run (one partition or a backfill's
    range), then `check` over what it stored; `preflight` checks each repository's source
    before any of them runs. A repository's weeks before its `start` are
    skipped: the week dimension starts with the earliest repository's, so the UI shows them
    for the others too, and "materialize missing" asks for them."""
    with failure_naming("settings"):
        settings = prhub.load()
    results: list[Result] = []
    outcomes: list[CheckOutcome] = []
    runs: list[tuple[RepoConfig, list[date]]] = []
    not_stored: dict[tuple[str, date], str] = {}
    just_stored: list[str] = []
    for repo_name, asked in weeks_by_repo(_asked_partitions(context)).items():
        repo = settings.repo(repo_name)
        weeks = [week for week in asked if week >= repo.start]
        not_stored |= {
            (repo.name, week): f"the week is before {repo.name}'s start {repo.start}"
            " (repos[].start)"
            for week in asked
            if week < repo.start
        }
        if len(weeks) < len(asked):
            context.log.warning(
                f"{repo.name}: {len(asked) - len(weeks)} week(s) before its start"
                f" {repo.start} skipped, nothing stored for them"
            )
        if weeks:
            runs.append((repo, weeks))
    since = asked_at(context)
    # From deciding which weeks to store to the last write: DuckDB's lock is held for a
    # connection at a time, and a backfill's run beside a `prhub materialize` of the same
    # weeks read and analysed them again.
    with warehouse_writer(context, settings.database):
        if preflight is not None:
            # Dagster runs a selection of several repositories and fewer weeks as one run per
            # week: a repository whose source is wrong fails it before any of them is written.
            for repo, weeks in runs:
                with failure_naming(f"{repo.name} {_weeks_label(weeks)}"):
                    preflight(settings, repo)
        for repo, weeks in runs:
            with failure_naming(f"{repo.name} {_weeks_label(weeks)}"):
                stored = weeks_just_stored(settings, repo, weeks, since)
                if stored:
                    since_when = f"this run was asked for ({since:%Y-%m-%d %H:%M:%S} UTC)"
                    note = just_stored_note(stored, since_when)
                    context.log.info(f"{repo.name}: {note}")
                    just_stored.append(f"{repo.name}: {note}")
                    not_stored |= {
                        (repo.name, week): "stored whole by another run since this run was asked"
                        " for, from the same settings and source: skipped"
                        for week in stored
                    }
                to_store = [week for week in weeks if week not in stored]
                if to_store:
                    results.extend(stage(settings, repo, to_store))
                if check is not None:
                    outcomes.extend(check(settings, repo, weeks))
    checks = check_results(outcomes)
    # Every declared check reports, if only that the run had no week to check.
    reported = {result.check_name for result in checks}
    checks += [
        dg.AssetCheckResult(
            check_name=spec.name,
            passed=True,
            metadata={"detail": dg.MetadataValue.text("no week of the run to check")},
        )
        for spec in context.assets_def.check_specs
        if spec.name not in reported and check is not None
    ]
    return StageRun(
        results=results,
        checks=checks,
        not_stored=not_stored,
        just_stored="; ".join(just_stored) or None,
    )


def _asked_partitions(context: dg.AssetExecutionContext) -> Sequence[str]:
    """The run's partitions; refuses a range run that Dagster narrowed to its first partition
    (a job backfill adds `dagster/partition/<dimension>` tags beside the range tags:
    dagster-io/dagster#17404), which would otherwise succeed having stored one week."""
    keys = context.partition_keys
    start, end = context.run.tags.get(RANGE_START_TAG), context.run.tags.get(RANGE_END_TAG)
    if start and end and start != end and len(keys) == 1:
        raise dg.Failure(
            f"this run is for {start} to {end}, but Dagster gives it only {keys[0]}: a backfill"
            " from Jobs > weekly_report_job > Partitions runs a range as its first week. Launch"
            " it from the asset graph instead (select the weekly assets, Materialize)."
        )
    return keys


def check_results(outcomes: Sequence[CheckOutcome]) -> list[dg.AssetCheckResult]:
    """One result per check name, failing if any repository's outcome failed."""
    by_name: dict[str, list[CheckOutcome]] = {}
    for outcome in outcomes:
        by_name.setdefault(outcome.name, []).append(outcome)
    return [
        dg.AssetCheckResult(
            check_name=name,
            passed=all(o.passed for o in group),
            severity=dg.AssetCheckSeverity.WARN
            if all(o.severity == "warn" for o in group)
            else dg.AssetCheckSeverity.ERROR,
            metadata={
                "detail": dg.MetadataValue.text("; ".join(o.detail for o in group)),
                "offending": dg.MetadataValue.json([x for o in group for x in o.offending]),
            },
        )
        for name, group in by_name.items()
    ]


def week_metadata(
    context: dg.AssetExecutionContext,
    run: StageRun[Week],
    build: Callable[[Sequence[Week]], dict[str, dg.MetadataValue]],
) -> dict[str, dg.MetadataValue]:
    """The metadata of each partition of the run, by `build` over its own week. A backfill's
    range is one run, and Dagster puts the metadata an asset returns on every partition's
    event: a week would carry the range's totals ("60 PRs in 2 week(s)" on a week of 34),
    which the UI's partition pages and plots then show. So a run of several weeks returns the
    run's summary alone, as `run_summary` beside each week's own. A week before its
    repository's `start` stores nothing and says so: it carried the range's figures (8 PRs
    on acme/widgets' week of 2026-09-28, before its start 2026-10-05); so does a week another
    run stored whole since this one was asked for, and the run's summary names those."""
    skipped = {
        (repo, week): {**build([]), "summary": dg.MetadataValue.text(f"nothing stored: {why}")}
        for (repo, week), why in run.not_stored.items()
    }
    if len(context.partition_keys) == 1:
        return next(iter(skipped.values())) if skipped else build(run.results)
    by_week: dict[tuple[str, date], list[Week]] = defaultdict(list)
    for result in run.results:
        by_week[(result.repo, result.window.week_start)].append(result)
    own = {week: build(group) for week, group in by_week.items()}
    for (repo, week), metadata in (own | skipped).items():
        context.add_asset_metadata(metadata, partition_key=partition_key(repo, week))
    summary = build(run.results)["summary"]
    if run.just_stored:
        summary = dg.MetadataValue.text(f"{summary.value}; {run.just_stored}")
    return {"run_summary": summary}
