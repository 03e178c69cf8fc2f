"""Write a clone's merged PRs as PR records (the schema of verl's prs.jsonl), for evaluation.

    python benchmarks/pr_records_from_git.py CLONE --repo OWNER/NAME --out FILE.jsonl
        [--since 2023-01-01] [--until 2027-01-01]

Reads the first-parent history with the git source the pipeline uses (squash merges
`title (#N)` and merge commits `Merge pull request #N`). The output feeds
`prhub classifier evaluate` and `benchmarks/classifier_eval.py`, e.g. to measure the module
classifier on a second repository whose titles follow a bracket convention.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.modelling.tagging.pr_records import write_pr_records
from prhub_pipeline.sources.git import read_merged_prs


def _day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("--repo", required=True, help="OWNER/NAME written into each record")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--since", type=_day, default=_day("2000-01-01"))
    parser.add_argument("--until", type=_day, default=datetime.now(UTC))
    args = parser.parse_args()
    started = time.perf_counter()
    prs = read_merged_prs(args.clone, args.repo, args.since, args.until)
    written = write_pr_records(args.out, prs)
    print(f"{written} PRs from {args.clone} to {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
