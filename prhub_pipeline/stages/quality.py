"""Data-quality outcomes for the stored weeks of each stage (read-only)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.records import LANGS
from prhub_pipeline.warehouse import connect, quality
from prhub_pipeline.warehouse.quality import CheckOutcome


def check_ingest(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[CheckOutcome]:
    with connect(settings.database, read_only=True) as con:
        return quality.check_raw_prs(con, repo.name, weeks, settings.timezone)


def check_modules(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date]
) -> list[CheckOutcome]:
    with connect(settings.database, read_only=True) as con:
        return quality.check_modules(con, repo.name, weeks)


def check_scores(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[CheckOutcome]:
    with connect(settings.database, read_only=True) as con:
        return quality.check_scores(con, repo.name, weeks)


def check_reports(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date]
) -> list[CheckOutcome]:
    with connect(settings.database, read_only=True) as con:
        return quality.check_reports(con, repo.name, weeks, LANGS)
