"""Materialize weeks in this process, through the same definitions the UI uses."""

import os
import re
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import dagster as dg
from dagster._core.execution.plan.objects import ErrorSource
from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings, load_settings
from prhub_pipeline.defs.definitions import (
    CLASSIFIER_JOB,
    SQL_MODELS_JOB,
    WEEKLY_JOB,
    build_definitions,
)
from prhub_pipeline.defs.instance import cli_run_tags, materialize_home, wait_for_pool
from prhub_pipeline.defs.partitions import range_tags, weeks_by_repo
from prhub_pipeline.defs.reanalysis import (
    REANALYSIS_ASSETS,
    analysed_again_tags,
    describe_stale,
)
from prhub_pipeline.defs.schedules import stale_runs
from prhub_pipeline.defs.stage_runs import ASKED_AT_TAG
from prhub_pipeline.stages.just_stored import just_stored_note, weeks_just_stored
from prhub_pipeline.stages.report import weeks_to_analyse_again
from prhub_pipeline.stages.text import counted
from prhub_pipeline.warehouse import WarehouseError, connect
from prhub_pipeline.warehouse.quality import week_summaries
from prhub_pipeline.warehouse.week_stages import StaleWeek
from prhub_pipeline.warehouse.writer_lock import writer_lock
from prhub_pipeline.weeks import iter_weeks

INGEST_ASSETS = ("raw_prs", "review_threads")
ANALYSIS_ASSETS = ("module_labels", "importance_scores", "weekly_report")


class RunOutcome(BaseModel):
    repo: str
    weeks: list[date]
    run_ids: list[str]
    success: bool
    error: str | None = None
    # Stopped by Ctrl-C: the caller stops too, rather than going on with other repositories.
    interrupted: bool = False


def _instance(config_path: Path) -> dg.DagsterInstance:
    """The instance `prhub ui` shows, so that the UI knows what the command materialized
    (else "Materialize missing" would redo every week): `materialize_home`'s."""
    if os.environ.get("DAGSTER_HOME"):
        return dg.DagsterInstance.get()
    home = materialize_home(config_path)
    if home is None:
        return dg.DagsterInstance.ephemeral()
    return dg.DagsterInstance.from_config(str(home))


def _failure(result: dg.ExecuteInProcessResult) -> str:
    """The step that failed and the error that failed it: the first of its causes that is not
    Dagster's wrapper ("Error occurred while executing op "raw_prs":" said nothing of a clone
    missing objects) nor the Failure an asset raises from it (`failure_naming`: the command
    names the repository itself), whose message carries ours ("writing partition ... failed,
    nothing was changed: ..." rather than DuckDB's bare constraint error)."""
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data.error:
            error = event.step_failure_data.error
            while error.cause is not None and _wraps(error.cls_name or ""):
                error = error.cause
            message = _QUALIFIED_ERROR.sub("", error.message.strip().splitlines()[0])
            return f"{event.step_key}: {message}"
    return "the run failed"


def _wraps(error_class: str) -> bool:
    return error_class.startswith("Dagster") or error_class == dg.Failure.__name__


def _interrupted_step(result: dg.ExecuteInProcessResult) -> str | None:
    """The step a Ctrl-C stopped, or None: Dagster catches the interrupt in the step and ends
    the run as failed, so the command went on with the next repository and said only
    `weekly_report: dagster._core.errors.DagsterExecutionInterruptedError`."""
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data.error_source == ErrorSource.INTERRUPT:
            return event.step_key
    return None


# `prhub_pipeline.sources.git.GitSourceError: ...` -> `GitSourceError: ...`
_QUALIFIED_ERROR = re.compile(r"^(?:[A-Za-z_][\w]*\.)+(?=[A-Za-z_]\w*: )")


def _console_log(dagster_log: bool) -> dict[str, Any]:
    """Dagster's console log, off unless asked for: a failed step's traceback fills it twice
    over (about a hundred lines for a clone that is not one), where `_failure` says what failed
    in a line."""
    level = "WARNING" if dagster_log else "CRITICAL"
    return {"loggers": {"console": {"config": {"log_level": level}}}}


def _summaries(result: dg.ExecuteInProcessResult) -> dict[str, str]:
    summaries: dict[str, str] = {}
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        # A run of several weeks says the run's in `run_summary`, each week's own in `summary`.
        metadata = materialization.metadata
        summary = metadata.get("run_summary", metadata.get("summary"))
        if summary is not None:
            summaries[materialization.asset_key.to_user_string()] = str(summary.value)
    return summaries


def _observed_weeks(result: dg.ExecuteInProcessResult) -> list[str]:
    """What a run says of weeks besides its own, one line each: the weeks whose stored report's
    files `weekly_report` wrote back (the run's summary names five)."""
    lines = []
    for event in result.get_asset_observation_events():
        observation = event.asset_observation_data.asset_observation
        summary = observation.metadata.get("summary")
        if summary is None or observation.partition is None:
            continue
        for weeks in weeks_by_repo([observation.partition]).values():
            asset = observation.asset_key.to_user_string()
            lines += [f"{asset} week {week}: {summary.value}" for week in weeks]
    return lines


class _Step(NamedTuple):
    stage: str  # as the error names it: `analysis failed: ...`
    job_name: str
    tags: dict[str, str]
    partition: str | None
    assets: Sequence[str] | None


def _stale_earlier_weeks(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date], progress: Callable[[str], None]
) -> list[StaleWeek]:
    """The weeks before the range whose analysis predates their stored PRs; none, said, where
    the warehouse cannot be read now."""
    earlier = list(iter_weeks(repo.start, min(weeks) - timedelta(weeks=1)))
    try:
        return weeks_to_analyse_again(settings, repo, earlier)
    except WarehouseError as exc:
        progress(f"  earlier weeks not checked for analyses older than their PRs: {exc}")
        return []


def _reanalysis_steps(repo: str, stale: Sequence[StaleWeek]) -> list[_Step]:
    """A run of the assets after raw_prs over each run of consecutive `stale` weeks."""
    steps = []
    for first, last, named in stale_runs(stale):
        tags = {**range_tags(repo, first, last), **analysed_again_tags(named)}
        steps.append(_Step("analysis of earlier weeks", WEEKLY_JOB, tags, None, REANALYSIS_ASSETS))
    return steps


def materialize_weeks(
    config_path: Path,
    repo: str,
    weeks: Sequence[date],
    *,
    progress: Callable[[str], None] = lambda line: None,
    dagster_log: bool = False,
    asked_at: datetime | None = None,
) -> RunOutcome:
    """Every asset for a contiguous range of one repository's weeks, in stage order.

    Runs in this process (no subprocess per step): ingest the range in one run (the source is
    read once), retrain the module classifier on the history now stored, label, score and
    report the range in one run, then refresh the SQL models. Before the range's analysis,
    earlier weeks whose analysis predates their stored PRs (a run failing or killed between
    stages) are analysed again from them, oldest first, as the range's reports read the
    weeks before; a failure there is told, and fails the outcome, after the range is done.
    `dagster_log` lets Dagster's own console log (warnings, a failed step's traceback)
    through to stderr.

    The whole of it holds the warehouse's writer lock, taken once no run holds the pool:
    weeks another run stored whole since `asked_at` (default: now), from the same settings and
    source, are skipped, and when that is all of them, nothing runs. Two commands started at
    once on the same weeks both read and analysed them before.
    """
    definitions = build_definitions(config_path)
    settings = load_settings(config_path)
    since = asked_at or datetime.now(UTC)
    weeks_range = range_tags(repo, min(weeks), max(weeks))
    before = [
        _Step("ingest", WEEKLY_JOB, weeks_range, None, INGEST_ASSETS),
        _Step("classifier", CLASSIFIER_JOB, {}, repo, None),
    ]
    after = [
        _Step("analysis", WEEKLY_JOB, weeks_range, None, ANALYSIS_ASSETS),
        _Step("sql models", SQL_MODELS_JOB, {}, None, None),
    ]
    run_ids: list[str] = []
    earlier_failed: str | None = None
    with _instance(config_path) as instance:

        def run(step: _Step) -> RunOutcome | None:
            """Run a step; the outcome of a failed one, else None."""
            job = definitions.resolve_job_def(step.job_name)
            if not job.asset_layer.executable_asset_keys:
                return None
            result = job.execute_in_process(
                instance=instance,
                tags={**step.tags, **cli_run_tags(), ASKED_AT_TAG: since.isoformat()},
                partition_key=step.partition,
                asset_selection=[dg.AssetKey(name) for name in step.assets]
                if step.assets
                else None,
                raise_on_error=False,
                run_config=_console_log(dagster_log),
            )
            run_ids.append(result.run_id)
            for asset, summary in _summaries(result).items():
                progress(f"  {asset}: {summary}")
            for line in _observed_weeks(result):
                progress(f"    {line}")
            if result.success:
                return None
            stopped = _interrupted_step(result)
            error = (
                f"interrupted during {step.stage} ({stopped})"
                if stopped
                else f"{step.stage} failed: {_failure(result)}"
            )
            progress(f"  {error}")
            return RunOutcome(
                repo=repo,
                weeks=list(weeks),
                run_ids=run_ids,
                success=False,
                error=error,
                interrupted=stopped is not None,
            )

        # Waited for once, not before each step: a run that starts between the steps waits
        # for the writer lock this command holds, and waiting for it here would wait forever.
        wait_for_pool(instance, progress)
        holder = f"prhub materialize of {repo} (process {os.getpid()})"
        with writer_lock(settings.database, holder, lambda line: progress(f"  {line}")):
            stored = weeks_just_stored(settings, settings.repo(repo), weeks, since)
            if stored:
                progress(f"  {just_stored_note(stored, 'this command started')}")
            if len(stored) < len(weeks):
                for step in before:
                    if (failed := run(step)) is not None:
                        return failed
                stale = _stale_earlier_weeks(settings, settings.repo(repo), weeks, progress)
                if stale:
                    progress(
                        f"  {counted(len(stale), 'earlier week')} whose analysis is older than"
                        f" their stored PRs, analysed again from them: {describe_stale(stale)}"
                    )
                for step in _reanalysis_steps(repo, stale):
                    if (failed := run(step)) is not None:
                        if failed.interrupted:
                            return failed
                        # The weeks asked for go on: a week that fails to analyse again (the
                        # schedule and the next run try it again) must not hold every later
                        # week back.
                        earlier_failed = earlier_failed or failed.error
                for step in after:
                    if (failed := run(step)) is not None:
                        return failed
    with connect(settings.database, read_only=True) as con:
        for week in week_summaries(con, repo, min(weeks), max(weeks)):
            progress(
                f"  week {week.week_start}: {counted(week.prs, 'PR')}, {week.key_prs} key,"
                f" {counted(week.risks, 'risk flag')}, report {week.reports or 'missing'}"
            )
    return RunOutcome(
        repo=repo,
        weeks=list(weeks),
        run_ids=run_ids,
        success=earlier_failed is None,
        error=earlier_failed,
    )
