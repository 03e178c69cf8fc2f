"""Preparing a Dagster instance for the pipeline and starting `dagster dev` on it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import dagster as dg
from dagster._core.storage.tags import BACKFILL_ID_TAG, PARTITION_NAME_TAG, SCHEDULE_NAME_TAG

import prhub_pipeline
from prhub_pipeline.defs.partitions import RANGE_END_TAG, RANGE_START_TAG
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


# A run holds its pools from its start until it ends (the run queue counts it so).
POOL_HOLDING_STATUSES = [
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
]
POOL_POLL_SECONDS = 2.0
# While the wait goes on, it is told again this often (a stuck run keeps the pool for good).
POOL_WAIT_REMINDER_SECONDS = 600.0


def runs_holding_pool(
    instance: dg.DagsterInstance, pool: str = WAREHOUSE_POOL
) -> list[dg.DagsterRun]:
    """The runs in flight that hold `pool`: a UI backfill's, a schedule's, another `prhub
    materialize`'s."""
    return [
        run
        for run in instance.get_runs(filters=dg.RunsFilter(statuses=POOL_HOLDING_STATUSES))
        if run.run_op_concurrency is not None and pool in (run.run_op_concurrency.all_pools or ())
    ]


def describe_run(run: dg.DagsterRun) -> str:
    """Which run this is, as an operator finds it in the UI: its id, job, weeks and origin."""
    tags = run.tags
    partitions = (
        f"{tags[RANGE_START_TAG]} to {tags[RANGE_END_TAG]}"
        if RANGE_START_TAG in tags and RANGE_END_TAG in tags
        else tags.get(PARTITION_NAME_TAG)
    )
    if CLI_PID_TAG in tags:
        origin = f"prhub materialize, process {tags[CLI_PID_TAG]} on {tags.get(CLI_HOST_TAG, '?')}"
    elif BACKFILL_ID_TAG in tags:
        origin = f"backfill {tags[BACKFILL_ID_TAG]}"
    elif SCHEDULE_NAME_TAG in tags:
        origin = f"schedule {tags[SCHEDULE_NAME_TAG]}"
    else:
        origin = "launched in the UI"
    return f"run {run.run_id[:8]} ({', '.join(filter(None, [run.job_name, partitions, origin]))})"


def wait_for_pool(
    instance: dg.DagsterInstance,
    progress: Callable[[str], None],
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Wait until no run holds the warehouse pool, telling which runs are waited for.

    Runs started in the UI or by the schedule queue for the pool, and the queue counts a
    `prhub materialize` run as holding it; the command runs in its own process, outside the
    queue, so it waits here instead, else DuckDB's file lock fails it once its retry runs out
    under a long backfill. A run whose `prhub materialize` died is marked failed (and told),
    not waited for."""
    told: dict[str, float] = {}
    while True:
        for orphan in fail_orphaned_runs(instance):
            progress(f"  run {orphan}: its prhub materialize process ended mid-run; marked failed")
        holders = runs_holding_pool(instance)
        if not holders:
            return
        now = clock()
        for run in holders:
            last_told = told.get(run.run_id)
            if last_told is not None and now - last_told < POOL_WAIT_REMINDER_SECONDS:
                continue
            again = "" if last_told is None else "still "
            progress(
                f"  {again}waiting for {describe_run(run)} to finish: it holds the warehouse"
                f" pool {WAREHOUSE_POOL!r} (the UI's Runs page can terminate a stuck run)"
            )
            told[run.run_id] = now
        sleep(POOL_POLL_SECONDS)


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
