"""Resources: the settings file, the pipeline's handle on paths, repositories and rules."""

from __future__ import annotations

import dagster as dg

from prhub_pipeline.config import Settings, load_settings

WAREHOUSE_POOL = "prhub_warehouse"


class PrhubSettings(dg.ConfigurableResource):
    """The validated prhub.yaml, read afresh at the start of each run."""

    config_path: str

    def load(self) -> Settings:
        return load_settings(self.config_path)
