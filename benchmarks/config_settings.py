"""Time the settings comparison of configuration files over a clone's whole history.

    python benchmarks/config_settings.py CLONE [--repo OWNER/NAME] [--config prhub.yaml]

Reads every merged PR with the git source, reads each edited or new configuration file before
and after its PR (one `git cat-file` call), compares their settings as ingest does, and prints
the time of each step, how many files could not be compared, and how many PRs the
config-default rule would flag. Scoring globs come from the repository's entry in `--config`
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
from prhub_pipeline.modelling.config_diff import config_file_diffs, config_files
from prhub_pipeline.modelling.risks import flag_risks
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
    files = [(pr, change) for pr in prs for change in config_files(pr, scoring)]
    versions = read_file_versions(args.clone, files)
    read_versions = time.perf_counter()
    diffs = config_file_diffs(args.repo, versions)
    compared = time.perf_counter()

    by_pr: dict[int, list[ConfigFileDiff]] = defaultdict(list)
    for diff in diffs:
        by_pr[diff.pr_number].append(diff)
    flagged = [
        flag
        for flag in flag_risks(prs, {}, ReviewData(available=False), scoring, {}, diffs)
        if flag.risk == "config_default_change"
    ]
    megabytes = sum(len(v.before or "") + len(v.after or "") for v in versions) / 1e6
    print(f"{len(prs)} PRs read in {read_prs - started:.1f} s")
    print(
        f"{len(files)} config files of {len(by_pr)} PRs ({megabytes:.1f} MB of text)"
        f" read in {read_versions - read_prs:.1f} s, compared in {compared - read_versions:.1f} s"
    )
    print(
        f"not comparable: {sum(not d.comparable for d in diffs)} files;"
        f" setting changes stored: {sum(len(d.changes) for d in diffs)}"
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
