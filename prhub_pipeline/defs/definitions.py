"""Assemble the code location for one settings file."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from prhub_pipeline.config import load_settings
from prhub_pipeline.defs.ingest_assets import build_ingest_assets
from prhub_pipeline.defs.partitions import repo_week_partitions
from prhub_pipeline.defs.resources import PrhubSettings
from prhub_pipeline.defs.schedules import build_weekly_schedule

WEEKLY_JOB = "weekly_report_job"


def build_definitions(config_path: str | os.PathLike[str]) -> dg.Definitions:
    config_path = Path(config_path).resolve()
    settings = load_settings(config_path)
    repo_weeks = repo_week_partitions(settings)
    weekly_assets = build_ingest_assets(repo_weeks)
    weekly_job = dg.define_asset_job(
        WEEKLY_JOB,
        selection=dg.AssetSelection.assets(*weekly_assets),
        description="Every weekly asset of one repository and week, from ingest to report.",
    )
    return dg.Definitions(
        assets=weekly_assets,
        jobs=[weekly_job],
        schedules=[build_weekly_schedule(settings, WEEKLY_JOB)],
        resources={"prhub": PrhubSettings(config_path=str(config_path))},
    )
