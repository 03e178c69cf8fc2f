"""`prhub ui` (that is `dagster dev`) on loopback for tests, and the GraphQL calls the UI sends."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]

LAUNCH_BACKFILL = """
mutation LaunchBackfill($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on PythonError { message stack }
    ... on Error { message }
  }
}
"""

BACKFILL_STATUS = """
query BackfillStatus($backfillId: String!) {
  partitionBackfillOrError(backfillId: $backfillId) {
    __typename
    ... on PartitionBackfill {
      status
      error { message }
      runs {
        runId status startTime endTime
        tags { key value }
        assetSelection { path }
      }
    }
    ... on PythonError { message }
    ... on BackfillNotFoundError { message }
  }
}
"""

FINISHED_BACKFILL = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}
FINISHED_RUN = {"SUCCESS", "FAILURE", "CANCELED"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class DagsterDev:
    """A running `prhub ui`: its address and the file its output goes to."""

    url: str
    log: Path

    def graphql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(
            f"{self.url}/graphql", json={"query": query, "variables": variables}, timeout=60
        )
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        assert not body.get("errors"), f"GraphQL errors: {body['errors']}"
        data: dict[str, Any] = body["data"]
        return data

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]


@contextmanager
def prhub_ui(
    config: Path, dagster_home: Path, log: Path, timeout: float = 120
) -> Iterator[DagsterDev]:
    """Start `prhub ui` in its own process group, wait until it serves, and always end the group.

    `dagster dev` starts a webserver, a daemon and a code server as children; killing the group
    ends them all.
    """
    port = free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(dagster_home),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "prhub_pipeline.cli", "ui", "--config", str(config)]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as output:
        # The code location is the package `prhub ui` runs from; it reads $PRHUB_CONFIG.
        process = subprocess.Popen(
            command,
            cwd=config.parent,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = DagsterDev(url=f"http://127.0.0.1:{port}", log=log)
    try:
        _wait_until_serving(server, process, timeout)
        yield server
    finally:
        _end_group(process)


def _wait_until_serving(
    server: DagsterDev, process: subprocess.Popen[bytes], timeout: float
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"prhub ui exited with {process.returncode}:\n{server.log_tail()}")
        try:
            if httpx.get(f"{server.url}/server_info", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(1)
    raise TimeoutError(f"prhub ui did not serve within {timeout:.0f} s:\n{server.log_tail()}")


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM lets `dagster dev` stop its children; SIGKILL then ends whatever outlived it."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=20)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


@dataclass(frozen=True)
class BackfillRun:
    run_id: str
    status: str
    assets: tuple[str, ...]
    partition_range: tuple[str, str] | None
    start_time: float | None
    end_time: float | None


@dataclass(frozen=True)
class BackfillOutcome:
    status: str
    error: str | None
    runs: tuple[BackfillRun, ...]


def launch_asset_backfill(
    server: DagsterDev, assets: Sequence[str], partition_names: Sequence[str], title: str
) -> str:
    """The mutation the UI's *Launch backfill* sends for selected assets and partitions."""
    params = {
        "assetSelection": [{"path": [asset]} for asset in assets],
        "partitionNames": list(partition_names),
        "title": title,
    }
    result = server.graphql(LAUNCH_BACKFILL, {"params": params})["launchPartitionBackfill"]
    assert result["__typename"] == "LaunchBackfillSuccess", f"backfill not launched: {result}"
    return str(result["backfillId"])


def backfill_outcome(server: DagsterDev, backfill_id: str) -> BackfillOutcome:
    data = server.graphql(BACKFILL_STATUS, {"backfillId": backfill_id})["partitionBackfillOrError"]
    assert data["__typename"] == "PartitionBackfill", f"backfill {backfill_id}: {data}"
    runs = []
    for run in data["runs"]:
        tags = {tag["key"]: tag["value"] for tag in run["tags"]}
        start = tags.get("dagster/asset_partition_range_start")
        end = tags.get("dagster/asset_partition_range_end")
        partition = tags.get("dagster/partition")
        partition_range = (
            (start, end) if start and end else (partition, partition) if partition else None
        )
        runs.append(
            BackfillRun(
                run_id=run["runId"],
                status=run["status"],
                assets=tuple("/".join(key["path"]) for key in run["assetSelection"] or []),
                partition_range=partition_range,
                start_time=run["startTime"],
                end_time=run["endTime"],
            )
        )
    error = data["error"]["message"] if data["error"] else None
    return BackfillOutcome(status=data["status"], error=error, runs=tuple(runs))


def wait_for_backfill(server: DagsterDev, backfill_id: str, timeout: float) -> BackfillOutcome:
    """Poll until the backfill and every run it launched have finished."""
    deadline = time.monotonic() + timeout
    while True:
        outcome = backfill_outcome(server, backfill_id)
        runs_done = all(run.status in FINISHED_RUN for run in outcome.runs)
        if outcome.status in FINISHED_BACKFILL and runs_done:
            return outcome
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"backfill {backfill_id} still {outcome.status} after {timeout:.0f} s:"
                f" {outcome.runs}\n{server.log_tail()}"
            )
        time.sleep(2)
