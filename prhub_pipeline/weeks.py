"""Calendar weeks in a time zone: Monday 00:00 to the next Monday 00:00 (exclusive)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

WEEK_KEY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class WeekWindow(BaseModel):
    """The half-open window [start, end) of one week, in a zone and in UTC."""

    model_config = ConfigDict(frozen=True)

    week_start: date
    timezone: str

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def start(self) -> datetime:
        return datetime.combine(self.week_start, time.min, tzinfo=self.zone)

    @property
    def end(self) -> datetime:
        return datetime.combine(self.week_start + timedelta(days=7), time.min, tzinfo=self.zone)

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def end_utc(self) -> datetime:
        return self.end.astimezone(UTC)

    @property
    def key(self) -> str:
        return self.week_start.isoformat()

    def contains(self, moment: datetime) -> bool:
        return self.start_utc <= moment.astimezone(UTC) < self.end_utc

    def previous(self) -> WeekWindow:
        return self.weeks_before(1)

    def weeks_before(self, weeks: int) -> WeekWindow:
        """The week `weeks` before this one: its start is a Monday's midnight in the zone, which
        `start_utc - timedelta(weeks=...)` misses by an hour across a change to summer time."""
        return WeekWindow(
            week_start=self.week_start - timedelta(weeks=weeks), timezone=self.timezone
        )

    def describe(self) -> str:
        last_day = self.week_start + timedelta(days=6)
        return f"{self.week_start.isoformat()} .. {last_day.isoformat()} ({self.timezone})"


def monday_of(day: date) -> date:
    """The Monday of `day`'s week."""
    return day - timedelta(days=day.weekday())


def parse_week(text: str) -> date:
    """A partition key `YYYY-MM-DD` that must be a Monday. Only that form: `fromisoformat`
    also reads `20260511` and `2026-W20-1`, which name no partition."""
    if not WEEK_KEY.fullmatch(text):
        raise ValueError(f"week {text!r} is not a date of the form YYYY-MM-DD")
    try:
        day = date.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"week {text!r} is not a real date ({exc})") from None
    if day.weekday() != 0:
        raise ValueError(
            f"week {text!r} is a {day:%A}; a week is named by its Monday"
            f" ({monday_of(day).isoformat()})"
        )
    return day


def week_of(moment: datetime, timezone: str) -> date:
    """The Monday of the week, in `timezone`, that contains `moment`."""
    return monday_of(moment.astimezone(ZoneInfo(timezone)).date())


def iter_weeks(first: date, last: date) -> Iterator[date]:
    """Mondays from `first` through `last`, inclusive."""
    day = first
    while day <= last:
        yield day
        day += timedelta(days=7)


def last_complete_week(now: datetime, timezone: str) -> date:
    """The Monday of the most recent week that has fully ended at `now`."""
    return week_of(now, timezone) - timedelta(days=7)
