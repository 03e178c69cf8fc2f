"""When each stage last stored a week, and the weeks whose stored analysis no longer tells
their stored PRs: ingested again after their labels, scores or report (a GitHub range run
failing partway, a process killed between stages), or analysed from other PRs."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Literal

import duckdb
from pydantic import BaseModel

from prhub_pipeline.warehouse.connection import read_sql, table_exists
from prhub_pipeline.warehouse.partitions import TableRows

WeekStage = Literal["ingest", "reviews", "modules", "scores", "report"]
STAGE_ORDER: tuple[WeekStage, ...] = ("ingest", "reviews", "modules", "scores", "report")
# What each stage reads of the week, directly or through another: a week's report tells its
# PRs only where every stage is at least as recent as each one it reads. Reviews and module
# labels read only the PRs, and Dagster runs them in either order.
READS: dict[WeekStage, tuple[WeekStage, ...]] = {
    "ingest": (),
    "reviews": ("ingest",),
    "modules": ("ingest",),
    "scores": ("ingest", "reviews", "modules"),
    "report": ("ingest", "reviews", "modules", "scores"),
}
STAGE_WORDS: dict[WeekStage, str] = {
    "ingest": "PRs",
    "reviews": "reviews",
    "modules": "module labels",
    "scores": "scores",
    "report": "report",
}
STAGE_COLUMNS = ("repo", "week_start", "stage", "stored_at", "inputs")


class StaleWeek(BaseModel):
    """A week whose labels, scores or report do not tell the PRs it stores, and why."""

    week_start: date
    reason: str


def stage_tables(
    repo: str, week_start: date, stage: WeekStage, inputs: str | None = None
) -> list[TableRows]:
    """The `week_stages` row saying that `stage` stored the week now, from `inputs` (see
    `weeks_stored_since`), for the transaction that stores what it says."""
    row = (repo, week_start, stage, datetime.now(UTC), inputs)
    return [TableRows("week_stages", STAGE_COLUMNS, [row], scope={"stage": stage})]


def _prs(count: int) -> str:
    return f"{count} PR" if count == 1 else f"{count} PRs"


def _out_of_order(stamps: dict[WeekStage, datetime]) -> str | None:
    """Why a week's stage times say its analysis predates what it read, or None: the first
    stage stored after one that reads it (or with none since), told against the last such one
    (the PRs against the report, where everything after them is older)."""
    for stage in STAGE_ORDER:
        stored_at = stamps.get(stage)
        if stored_at is None:
            continue
        behind = [
            later
            for later in STAGE_ORDER
            if stage in READS[later] and (stamps.get(later) is None or stamps[later] < stored_at)
        ]
        if not behind:
            continue
        later = behind[-1]
        after = stamps.get(later)
        since = (
            f"its {STAGE_WORDS[later]} not made since"
            if after is None
            else f"after its {STAGE_WORDS[later]} ({after.astimezone(UTC):%Y-%m-%d %H:%M} UTC)"
        )
        return (
            f"{STAGE_WORDS[stage]} stored {stored_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC, {since}"
        )
    return None


def stale_weeks(
    con: duckdb.DuckDBPyConnection, repo: str, first: date, last: date
) -> list[StaleWeek]:
    """The weeks from `first` to `last` whose stored analysis does not tell their stored PRs,
    oldest first: a stage stored after a later one (`week_stages`), or, for any week, scores or
    a report of other PRs than are stored (which finds those stored before the stage times
    were); none on a warehouse no run has migrated yet (the schedule reads it before any)."""
    if not table_exists(con, "weekly_reports"):
        return []
    reasons: dict[date, str] = {}
    if table_exists(con, "week_stages"):
        stamps: dict[date, dict[WeekStage, datetime]] = {}
        rows = con.execute(
            "SELECT week_start, stage, stored_at FROM week_stages"
            " WHERE repo = ? AND week_start BETWEEN ? AND ?",
            [repo, first, last],
        ).fetchall()
        for week, stage, stored_at in rows:
            stamps.setdefault(week, {})[stage] = stored_at
        for week, stages in stamps.items():
            reason = _out_of_order(stages)
            if reason is not None:
                reasons[week] = reason
    compared = con.execute(read_sql("select_analysed_from_other_prs.sql"), [repo, first, last])
    for week, prs, scored, scored_elsewhere, reported in compared.fetchall():
        if week in reasons:
            continue
        if scored < prs:
            reasons[week] = f"{prs - scored} of its {_prs(prs)} stored not scored"
        elif scored_elsewhere:
            reasons[week] = f"scores of {_prs(scored_elsewhere)} it no longer stores"
        else:
            reasons[week] = f"its report counts {_prs(reported)}, {prs} stored"
    return [StaleWeek(week_start=week, reason=reasons[week]) for week in sorted(reasons)]


def unread_weeks(con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date]) -> list[date]:
    """The weeks ingest never read: no PR stored, no `ingest` stage row, and no report (a week
    reported before the stage rows were recorded was read when it was reported). A quiet week
    holds no PR either, and only the stage row tells it from a week nobody read."""
    asked = sorted(set(weeks))
    read = {
        week
        for (week,) in con.execute(
            "SELECT week_start FROM week_stages"
            " WHERE repo = $repo AND stage = 'ingest' AND list_contains($weeks::DATE[], week_start)"
            " UNION SELECT week_start FROM prs"
            " WHERE repo = $repo AND list_contains($weeks::DATE[], week_start)"
            " UNION SELECT week_start FROM weekly_reports"
            " WHERE repo = $repo AND list_contains($weeks::DATE[], week_start)",
            {"repo": repo, "weeks": asked},
        ).fetchall()
    }
    return [week for week in asked if week not in read]


class UnreadWeeksError(Exception):
    """Weeks asked to be analysed that ingest never read."""


def refuse_unread_weeks(con: duckdb.DuckDBPyConnection, repo: str, weeks: Sequence[date]) -> None:
    """Raise UnreadWeeksError, naming them, for the weeks ingest never read (`unread_weeks`).
    Each analysis stage asks before it stores anything: a week nobody read holds no PR, as a
    quiet week does, so its labels, scores and report said that none was merged (verl's week
    of 2026-06-08, 33 PRs, reported alone from the Dagster UI), and the schedule, seeing a
    report, never read it."""
    unread = unread_weeks(con, repo, weeks)
    if unread:
        raise UnreadWeeksError(
            f"{repo}: week(s) {', '.join(map(str, unread))} never ingested, and their report"
            " would say that no PR was merged: materialize raw_prs for them first (the weekly"
            " assets from raw_prs on, or prhub materialize)"
        )


class WeekInputs(BaseModel):
    """What a week's rows are made from besides the warehouse: a fingerprint of the
    repository's settings, and for the git source the commit its branch is at (None for
    GitHub, whose answers cannot be compared without asking for them again)."""

    settings: str
    source_commit: str | None

    @property
    def of_ingest(self) -> str:
        return f"settings {self.settings}; source {self.source_commit or 'github'}"

    @property
    def of_report(self) -> str:
        return f"settings {self.settings}"


def weeks_stored_since(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    weeks: Sequence[date],
    since: datetime,
    inputs: WeekInputs,
) -> list[date]:
    """Of `weeks`, those stored whole since `since` from `inputs`, which a run asked for at
    `since` would only store again: every stage's row there, the report stored since `since`
    and after each stage it reads (`stale_weeks` finds none), the PRs and the report made from
    these inputs, and, where the source cannot be compared (GitHub), the PRs read since
    `since` too. Two `prhub materialize` started at once on the same weeks both ingested and
    analysed them, and the later replaced the earlier's rows."""
    asked = sorted(set(weeks))
    if not asked or not table_exists(con, "week_stages"):
        return []
    stamps: dict[date, dict[str, tuple[datetime, str | None]]] = {}
    for week, stage, stored_at, made_from in con.execute(
        "SELECT week_start, stage, stored_at, inputs FROM week_stages"
        " WHERE repo = $repo AND list_contains($weeks::DATE[], week_start)",
        {"repo": repo, "weeks": asked},
    ).fetchall():
        stamps.setdefault(week, {})[stage] = (stored_at, made_from)
    stale = {week.week_start for week in stale_weeks(con, repo, asked[0], asked[-1])}
    stored = []
    for week in asked:
        stages = stamps.get(week, {})
        if week in stale or set(stages) != set(STAGE_ORDER):
            continue
        (read_at, read_from), (reported_at, reported_from) = stages["ingest"], stages["report"]
        read_since = inputs.source_commit is not None or read_at >= since
        if (
            reported_at >= since
            and read_since
            and read_from == inputs.of_ingest
            and reported_from == inputs.of_report
        ):
            stored.append(week)
    return stored
