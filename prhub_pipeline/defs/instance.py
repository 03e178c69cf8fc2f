"""Preparing a Dagster instance for the pipeline and starting `dagster dev` on it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from importlib import resources
from pathlib import Path

import dagster as dg

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


def materialize_home(config_path: Path) -> Path | None:
    """The instance folder `prhub materialize` records its runs in, so that the UI knows what it
    materialized: $DAGSTER_HOME, else the one `prhub ui` prepared beside the config; None (a
    throwaway instance) where neither is."""
    if os.environ.get("DAGSTER_HOME"):
        return Path(os.environ["DAGSTER_HOME"]).expanduser().resolve()
    home = default_dagster_home(config_path)
    return home if (home / "dagster.yaml").is_file() else None


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
    with dg.DagsterInstance.from_config(str(home)) as instance:
        fail_orphaned_runs(instance)
    return instance_yaml


# Tags of a run `prhub materialize` started: where and in which process it runs.
CLI_HOST_TAG = "prhub/cli_host"
CLI_PID_TAG = "prhub/cli_pid"


def cli_run_tags() -> dict[str, str]:
    return {CLI_HOST_TAG: socket.gethostname(), CLI_PID_TAG: str(os.getpid())}


def fail_orphaned_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed the runs a `prhub materialize` of this machine started and never finished
    (its process is gone: killed): such a run stays STARTED, and the warehouse pool it holds
    keeps every UI and scheduled run queued. Returns their run ids."""
    host = socket.gethostname()
    started = instance.get_runs(
        filters=dg.RunsFilter(
            statuses=[dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED],
            tags={CLI_HOST_TAG: host},
        )
    )
    orphaned = []
    for run in started:
        pid = int(run.tags.get(CLI_PID_TAG, "0") or 0)
        if not _alive(pid):
            instance.report_run_failed(
                run, message=f"the prhub materialize process {pid} on {host} ended mid-run"
            )
            orphaned.append(run.run_id)
    return orphaned


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


DEV_WARNING = "ignore:Function `dev_command` is superseded:FutureWarning"


def exec_dagster_dev(home: Path, config_path: Path, host: str, port: int) -> None:
    """Replace this process with `dagster dev` (never returns)."""
    dagster = dagster_command()
    # The code server imports the package this command runs from, with the folder that holds
    # it as working directory: a workspace.yaml or another copy of prhub_pipeline in the
    # current folder would otherwise load instead (an old checkout beside the config).
    package_root = Path(prhub_pipeline.__file__).resolve().parent.parent
    target = ["-m", "prhub_pipeline.defs.location", "-d", str(package_root)]
    env = {**os.environ, "DAGSTER_HOME": str(home), "PRHUB_CONFIG": str(config_path)}
    # Dagster 1.13 warns at every start that `dagster dev` is superseded by `dg dev`, which
    # needs a `dg` project: advice an operator of `prhub ui` cannot take.
    env["PYTHONWARNINGS"] = ",".join(filter(None, [os.environ.get("PYTHONWARNINGS"), DEV_WARNING]))
    # A parent that ignored SIGINT (nohup, some CI shells) would make dagster dev ignore Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.execvpe(dagster, [dagster, "dev", *target, "--host", host, "--port", str(port)], env)
