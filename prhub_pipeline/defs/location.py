"""The code location: definitions for the config file named by $PRHUB_CONFIG or ./prhub.yaml."""

from prhub_pipeline.config import find_config_path
from prhub_pipeline.defs.definitions import build_definitions

defs = build_definitions(find_config_path())
