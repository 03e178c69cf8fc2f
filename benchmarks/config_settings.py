"""Time the settings comparison of configuration and CI files over a clone's whole history.

    python benchmarks/config_settings.py CLONE [--repo OWNER/NAME] [--config prhub.yaml]

Reads every merged PR with the git source, reads each file ingest compares (configuration files,
dependency manifests, YAML CI files) before and after its PR (one `git cat-file` call), compares
their settings as ingest does, and prints the time of each step, how many files could not be
compared, how many CI files only added jobs or entries, and how many PRs the config-default and
CI rules would flag. Scoring globs come from the repository's entry in `--config`
when given, else the defaults.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.config import ScoringConfig, load_settings
from prhub_pipeline.modelling.scoring.config_diff import (
    ci_workflow_files,
    compared_files,
    config_file_diffs,
)
from prhub_pipeline.modelling.scoring.risks import flag_risks
from prhub_pipeline.records import ConfigFileDiff, ReviewData
from prhub_pipeline.sources.git import read_file_versions, read_merged_prs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("--repo", default="verl-project/verl")
    parser.add_argument("--config", type=Path, help="a prhub settings file naming the repo")
    args = parser.parse_args()
    scoring = ScoringConfig()
    if args.config:
        scoring = next(r.scoring for r in load_settings(args.config).repos if r.name == args.repo)

    started = time.perf_counter()
    prs = read_merged_prs(
        args.clone, args.repo, datetime(2000, 1, 1, tzinfo=UTC), datetime.now(UTC)
    )
    read_prs = time.perf_counter()
    files = [(pr, change) for pr in prs for change in compared_files(pr, scoring)]
    versions = read_file_versions(args.clone, files)
    read_versions = time.perf_counter()
    diffs = config_file_diffs(args.repo, versions)
    compared = time.perf_counter()

    by_pr: dict[int, list[ConfigFileDiff]] = defaultdict(list)
    for diff in diffs:
        by_pr[diff.pr_number].append(diff)
    flags = flag_risks(prs, {}, ReviewData(available=False), scoring, {}, diffs)
    flagged = [flag for flag in flags if flag.risk == "config_default_change"]
    ci_paths = {(pr.number, f.path) for pr in prs for f in ci_workflow_files(pr)}
    ci_diffs = [d for d in diffs if (d.pr_number, d.path) in ci_paths]
    megabytes = sum(len(v.before or "") + len(v.after or "") for v in versions) / 1e6
    print(f"{len(prs)} PRs read in {read_prs - started:.1f} s")
    print(
        f"{len(files)} files of {len(by_pr)} PRs, {len(ci_diffs)} of them CI"
        f" ({megabytes:.1f} MB of text)"
        f" read in {read_versions - read_prs:.1f} s, compared in {compared - read_versions:.1f} s"
    )
    print(
        f"not comparable: {sum(not d.comparable for d in diffs)} files;"
        f" setting changes stored: {sum(len(d.changes) for d in diffs)}"
    )
    print(
        f"CI files: {sum(d.keeps_existing for d in ci_diffs)} only added jobs or entries;"
        f" CI flags: {sum(f.risk == 'ci_change' for f in flags)} PRs"
    )
    changes = sum("changes defaults" in f.detail for f in flagged)
    removals = sum("removes settings" in f.detail for f in flagged)
    unsure = sum(bool(f.uncompared_paths) for f in flagged)
    print(
        f"config-default flags: {len(flagged)} PRs ({changes} change a default,"
        f" {removals} remove settings, {unsure} with files not compared)"
    )


if __name__ == "__main__":
    main()
