"""Time a full-history backfill from a git clone, and a one-week re-run on the warehouse it
leaves (the scheduled run's cost), with when each stage finished and the peak memory.

Usage: python benchmarks/backfill_history.py GIT_PATH [--config prhub.yaml]
           [--repo OWNER/NAME] [--start YYYY-MM-DD] [--through YYYY-MM-DD]
Defaults fit verl-project/verl (`fetch` or `git clone --bare` it first). With `--config`, the
repository's entry of that settings file (modules, scoring, themes) is used, as the README's
first command does; its clone is GIT_PATH, never fetched. It writes to a temporary warehouse
and runs `prhub materialize` (the same Dagster code path as the UI): the whole range twice
(the second changes nothing), then its last week again.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb
import yaml


def repo_settings(config: Path | None, repo: str, git_path: Path, start: str) -> dict[str, Any]:
    """The repository's settings: its entry in `config` if given, else the bare minimum."""
    entry: dict[str, Any] = {"name": repo, "source": "git", "start": start}
    if config is not None:
        settings = yaml.safe_load(config.read_text(encoding="utf-8"))
        matches = [r for r in settings.get("repos", []) if r.get("name") == repo]
        if not matches:
            raise SystemExit(f"{config}: no repository {repo}")
        entry = dict(matches[0])
    entry.update(source="git", git_path=str(git_path.resolve()), git_fetch=False, start=start)
    return entry


def timed_run(command: list[str]) -> tuple[float, list[tuple[float, str]]]:
    """Wall seconds, and each stage line of the output with the second it arrived (labels,
    scores and the report are one Dagster run: their lines come together at its end)."""
    started = time.perf_counter()
    stages = []
    unbuffered = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each line as it is printed
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=unbuffered) as process:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("  ") and not line.startswith("  week "):
                stage = line.strip().split(":", 1)[0]
                stages.append((time.perf_counter() - started, stage))
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return time.perf_counter() - started, stages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_path", type=Path)
    parser.add_argument("--config", type=Path, help="take the repository's settings from here")
    parser.add_argument("--repo", default="verl-project/verl")
    parser.add_argument("--start", default="2024-10-28")
    parser.add_argument("--through", default="2026-08-17")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "prhub.yaml"
        settings = {
            "database": "prhub.duckdb",
            "timezone": "Asia/Shanghai",
            "repos": [repo_settings(args.config, args.repo, args.git_path, args.start)],
        }
        config.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
        materialize = [sys.executable, "-m", "prhub_pipeline.cli", "materialize"]
        materialize += ["--config", str(config)]
        runs = [
            ("first run", ["--week", args.start, "--through", args.through]),
            ("second run (idempotent)", ["--week", args.start, "--through", args.through]),
            (f"one week ({args.through}) again", ["--week", args.through]),
        ]
        for name, weeks in runs:
            elapsed, stages = timed_run(materialize + weeks)
            with duckdb.connect(str(Path(folder) / "prhub.duckdb"), read_only=True) as con:
                row = con.execute("SELECT count(*), count(DISTINCT week_start) FROM prs").fetchone()
            assert row is not None
            print(f"{name}: {elapsed:.1f} s, {row[0]} PRs in {row[1]} non-empty weeks stored")
            print("  stages done at: " + ", ".join(f"{stage} {at:.1f} s" for at, stage in stages))
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"peak resident memory of a materialize process: {peak_kib / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
