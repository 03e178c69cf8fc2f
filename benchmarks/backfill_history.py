"""Time a full-history backfill from a git clone and report peak memory.

Usage: python benchmarks/backfill_history.py GIT_PATH [--repo OWNER/NAME] [--start YYYY-MM-DD]
                                              [--through YYYY-MM-DD]
Defaults fit verl-project/verl (`fetch` or `git clone --bare` it first). It writes to a
temporary warehouse, materializes every week twice through `prhub materialize` (the same
Dagster code path as the UI), and prints wall time, PRs stored and the peak resident memory.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_path", type=Path)
    parser.add_argument("--repo", default="verl-project/verl")
    parser.add_argument("--start", default="2024-10-28")
    parser.add_argument("--through", default="2026-08-17")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "prhub.yaml"
        config.write_text(
            f"database: prhub.duckdb\ntimezone: Asia/Shanghai\nrepos:\n"
            f"  - name: {args.repo}\n    source: git\n    git_path: {args.git_path.resolve()}\n"
            f"    start: {args.start}\n",
            encoding="utf-8",
        )
        command = [
            sys.executable, "-m", "prhub_pipeline.cli", "materialize", "--config", str(config),
            "--week", args.start, "--through", args.through,
        ]  # fmt: skip
        for attempt in ("first run", "second run (idempotent)"):
            started = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            elapsed = time.perf_counter() - started
            with duckdb.connect(str(Path(folder) / "prhub.duckdb"), read_only=True) as con:
                row = con.execute("SELECT count(*), count(DISTINCT week_start) FROM prs").fetchone()
            assert row is not None
            print(f"{attempt}: {elapsed:.1f} s, {row[0]} PRs in {row[1]} non-empty weeks")
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"peak resident memory of the materialize process: {peak_kib / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
