"""Assemble the code location for one settings file."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from prhub_pipeline.config import load_settings
from prhub_pipeline.defs.analysis_assets import build_analysis_assets
from prhub_pipeline.defs.ingest_assets import build_ingest_assets
from prhub_pipeline.defs.partitions import repo_partitions, repo_week_partitions
from prhub_pipeline.defs.resources import PrhubSettings
from prhub_pipeline.defs.schedules import build_classifier_schedule, build_weekly_schedule
from prhub_pipeline.defs.sensors import build_sql_models_sensor
from prhub_pipeline.defs.sql_assets import build_sql_model_assets

WEEKLY_JOB = "weekly_report_job"
CLASSIFIER_JOB = "module_classifier_job"
SQL_MODELS_JOB = "sql_models_job"


def build_definitions(config_path: str | os.PathLike[str]) -> dg.Definitions:
    config_path = Path(config_path).resolve()
    settings = load_settings(config_path)
    repo_weeks = repo_week_partitions(settings)
    classifier, *analysis = build_analysis_assets(repo_weeks, repo_partitions(settings))
    weekly_assets = [*build_ingest_assets(repo_weeks), *analysis]
    weekly_job = dg.define_asset_job(
        WEEKLY_JOB,
        selection=dg.AssetSelection.assets(*weekly_assets),
        description="Every weekly asset of one repository and week, from ingest to report.",
    )
    classifier_job = dg.define_asset_job(
        CLASSIFIER_JOB,
        selection=dg.AssetSelection.assets(classifier),
        description="Retrain a repository's module classifier on its stored history.",
    )
    assert settings.sql_models_dir is not None  # resolved by load_settings
    model_assets = build_sql_model_assets(settings.sql_models_dir)
    models_job = dg.define_asset_job(
        SQL_MODELS_JOB,
        selection=dg.AssetSelection.assets(*model_assets),
        description="Create or refresh every SQL model in dbt_like_sql/.",
    )
    weekly_keys = [key for asset in weekly_assets for key in asset.keys]
    return dg.Definitions(
        assets=[*weekly_assets, classifier, *model_assets],
        jobs=[weekly_job, classifier_job, models_job],
        sensors=[build_sql_models_sensor(WEEKLY_JOB, weekly_keys, models_job)]
        if model_assets
        else [],
        schedules=[
            build_weekly_schedule(settings, WEEKLY_JOB),
            build_classifier_schedule(settings, CLASSIFIER_JOB),
        ],
        resources={"prhub": PrhubSettings(config_path=str(config_path))},
        # Every step writes the one DuckDB file, so steps of a run cannot usefully run side by
        # side (they would queue on its lock); in one process a run also skips the seconds of
        # imports a subprocess per step costs.
        executor=dg.in_process_executor,
    )
