"""Dagster definitions: partitions, resources, thin assets, checks, jobs and schedules.

The only package that imports Dagster. `prhub_pipeline.defs.location` is the code location
`dagster dev` loads; `build_definitions` builds the same objects for any settings file.
"""

import warnings

import dagster as dg

# Backfill policies and pools are marked beta in this Dagster release; they are what the
# pipeline relies on, so the warning says nothing an operator can act on.
warnings.filterwarnings("ignore", category=dg.BetaWarning)
warnings.filterwarnings("ignore", category=dg.PreviewWarning)
# Dagster tags a multi-partition run `dagster/partition/repo` and `.../week`, and then warns
# that its own keys are deprecated (1.13): nothing the pipeline's tags or an operator can change.
warnings.filterwarnings(
    "ignore", r"Non-compliant tag keys like \['dagster/partition/", category=DeprecationWarning
)

from prhub_pipeline.defs.definitions import build_definitions  # noqa: E402

__all__ = ["build_definitions"]
