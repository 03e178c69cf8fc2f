"""Module classifier quality and training time on time splits of verl's PR history.

    python benchmarks/classifier_eval.py [PRS_JSONL] [--repo-config benchmarks/verl_modules.yaml]
        [--learned-only] [--split 2026-01-01[:2026-03-01] ...]

Each split trains on the PRs merged before a date and tests on those merged after it (or in
the window up to a second date): later PRs always test, never a random split. Prints
micro/macro/samples F1, exact match and training seconds per split, with and without the
repository's module list (`--learned-only`: the label set learned from the training PRs'
title tags alone, for a repository without a module list). `--split` replaces the default
splits (verl's); records of another repository come from `pr_records_from_git.py`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import date, datetime
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from prhub_pipeline.config import ModulesConfig  # noqa: E402
from prhub_pipeline.modelling.evaluation import evaluate_files, load_modules_config  # noqa: E402

DEFAULT_PRS = REPO_ROOT / ".." / "shared" / "data" / "verl" / "prs.jsonl"
DEFAULT_CONFIG = REPO_ROOT / "benchmarks" / "verl_modules.yaml"
SPLITS = (
    ("2026-01-01", None),
    ("2026-03-01", None),
    ("2026-05-01", None),
    ("2026-01-01", "2026-03-01"),
    ("2026-03-01", "2026-05-01"),
)


def _merged(line: str) -> datetime:
    return datetime.fromisoformat(json.loads(line)["merged_at"].replace("Z", "+00:00"))


def _split(text: str) -> tuple[str, str | None]:
    start, _, end = text.partition(":")
    for day in (start, end):
        if day:
            date.fromisoformat(day)  # ValueError: argparse reports the bad --split
    return start, end or None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prs", nargs="?", type=Path, default=DEFAULT_PRS)
    parser.add_argument("--repo-config", type=Path, default=DEFAULT_CONFIG)
    parser.add_argument("--learned-only", action="store_true")
    parser.add_argument(
        "--split",
        action="append",
        type=_split,
        help="START[:END]: train before START, test from START (to END); repeatable",
    )
    args = parser.parse_args()
    if not args.prs.is_file():
        sys.exit(f"no PR records at {args.prs}: pass the path to verl's prs.jsonl")
    lines = [line for line in args.prs.read_text(encoding="utf-8").splitlines() if line.strip()]
    configs: dict[str, ModulesConfig | None] = {"learned": None}
    if not args.learned_only:
        configs = {"repo-config": load_modules_config(args.repo_config), **configs}

    print(
        f"{'labels':12s} {'train < ':10s} {'test to':10s} {'train':>5s} {'test':>5s}"
        f" {'micro':>6s} {'macro':>6s} {'sample':>6s} {'exact':>6s} {'secs':>5s}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for start, end in args.split or SPLITS:
            cut = datetime.fromisoformat(f"{start}T00:00:00+00:00")
            stop = datetime.fromisoformat(f"{end}T00:00:00+00:00") if end else None
            train = Path(scratch, "train.jsonl")
            test = Path(scratch, "test.jsonl")
            train.write_text("\n".join(x for x in lines if _merged(x) < cut) + "\n", "utf-8")
            test.write_text(
                "\n".join(
                    x for x in lines if cut <= _merged(x) and (stop is None or _merged(x) < stop)
                )
                + "\n",
                "utf-8",
            )
            for name, config in configs.items():
                report = evaluate_files(train, test, config, None)
                scores = (
                    report.micro_f1,
                    report.macro_f1,
                    report.samples_f1,
                    report.exact_match,
                )
                figures = " ".join(f"{x or 0:6.3f}" for x in scores)
                print(
                    f"{name:12s} {start:10s} {end or 'end':10s} {report.train_tagged:5d}"
                    f" {report.test_tagged:5d} {figures} {report.train_seconds:5.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
