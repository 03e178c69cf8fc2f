"""Preparing a Dagster instance for the pipeline and starting `dagster dev` on it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path

import prhub_pipeline
from prhub_pipeline.defs.resources import WAREHOUSE_POOL


def dagster_command() -> str:
    """The `dagster` script of this environment, even when its bin folder is not on PATH."""
    beside = Path(sys.executable).parent / "dagster"
    if beside.is_file():
        return str(beside)
    found = shutil.which("dagster")
    if found is None:
        raise FileNotFoundError("the `dagster` command is not installed; install prhub-pipeline")
    return found


def default_dagster_home(config_path: Path) -> Path:
    """The instance folder `prhub ui` uses without --dagster-home or $DAGSTER_HOME."""
    return config_path.resolve().parent / ".dagster_home"


def prepare_dagster_home(home: Path) -> Path:
    """Install the shipped dagster.yaml (unless the operator has one) and create the pool.

    A fresh instance does not apply `pools.default_limit` to a pool it has never seen, so the
    first backfill would run unserialised; setting the pool's limit explicitly closes that gap.
    """
    home.mkdir(parents=True, exist_ok=True)
    instance_yaml = home / "dagster.yaml"
    if not instance_yaml.exists():
        shipped = resources.files("prhub_pipeline.defs").joinpath("dagster.yaml")
        instance_yaml.write_text(shipped.read_text("utf-8"), encoding="utf-8")
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    subprocess.run(
        [dagster_command(), "instance", "concurrency", "set", WAREHOUSE_POOL, "1"],
        env=env,
        check=True,
        capture_output=True,
    )
    return instance_yaml


def exec_dagster_dev(home: Path, config_path: Path, host: str, port: int) -> None:
    """Replace this process with `dagster dev` (never returns)."""
    dagster = dagster_command()
    # The code server imports the package this command runs from, with the folder that holds
    # it as working directory: a workspace.yaml or another copy of prhub_pipeline in the
    # current folder would otherwise load instead (an old checkout beside the config).
    package_root = Path(prhub_pipeline.__file__).resolve().parent.parent
    target = ["-m", "prhub_pipeline.defs.location", "-d", str(package_root)]
    env = {**os.environ, "DAGSTER_HOME": str(home), "PRHUB_CONFIG": str(config_path)}
    # A parent that ignored SIGINT (nohup, some CI shells) would make dagster dev ignore Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.execvpe(dagster, [dagster, "dev", *target, "--host", host, "--port", str(port)], env)
