"""Module classifier quality and training time on time splits of verl's PR history.

    python benchmarks/classifier_eval.py [PRS_JSONL] [--repo-config benchmarks/verl_modules.yaml]
        [--learned-only] [--baseline] [--split 2026-01-01[:2026-03-01] ... | --test LATER_JSONL]

Each split trains on the PRs merged before a date and tests on those merged after it (or in
the window up to a second date): later PRs always test, never a random split. Prints
micro/macro/samples F1, exact match and training seconds per split, with and without the
repository's module list (`--learned-only`: the label set learned from the training PRs'
title tags alone, for a repository without a module list). `--split` replaces the default
splits (verl's); `--test` trains on all of PRS_JSONL and tests on a file of later PRs instead;
records of another repository come from `pr_records_from_git.py`.
`--baseline` adds a row per split for a plain model on the same labels, scored the same way:
TF-IDF of the title (without its tags) and the changed paths, one logistic regression per
module, each PR's modules those scored positive and at least its best one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import time  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402

from prhub_pipeline.config import ModulesConfig  # noqa: E402
from prhub_pipeline.modelling.tagging.evaluation import (  # noqa: E402
    EvaluationReport,
    PredictionScores,
    evaluate_files,
    load_modules_config,
    score_predictions,
    scored_modules,
)
from prhub_pipeline.modelling.tagging.pr_records import read_pr_records  # noqa: E402
from prhub_pipeline.modelling.tagging.tags import (  # noqa: E402
    ground_truth,
    learn_modules_config,
    text_without_tags,
)
from prhub_pipeline.records import PullRequest  # noqa: E402

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


def _baseline_text(pr: PullRequest, config: ModulesConfig) -> str:
    paths = " ".join(change.path.replace("/", " ") for change in pr.files)
    return f"{text_without_tags(pr.title, config)} {paths}"


def baseline(
    train: Path, test: Path, repo_config: ModulesConfig | None
) -> tuple[PredictionScores, float]:
    """The plain model's scores on `test` after training on `train`, and its training seconds."""
    train_prs, test_prs = read_pr_records(train).prs, read_pr_records(test).prs
    config = learn_modules_config(train_prs, repo_config or ModulesConfig())
    train_truth = [ground_truth(pr, config).modules for pr in train_prs]
    started = time.perf_counter()
    tagged = [i for i, modules in enumerate(train_truth) if modules]
    labels = sorted({m for i in tagged for m in train_truth[i]})
    y = np.array([[m in train_truth[i] for m in labels] for i in tagged], dtype=int)
    vectorizer = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2))
    x = vectorizer.fit_transform([_baseline_text(train_prs[i], config) for i in tagged])
    model = OneVsRestClassifier(LogisticRegression(C=10.0, max_iter=1000)).fit(x, y)
    seconds = time.perf_counter() - started
    scores = model.decision_function(
        vectorizer.transform([_baseline_text(pr, config) for pr in test_prs])
    )
    chosen = (scores > 0) | (scores == scores.max(axis=1, keepdims=True))
    predicted = [[labels[j] for j in np.flatnonzero(row)] for row in chosen]
    # Scored against the test tags as `prhub classifier evaluate` scores the model.
    test_truth = [scored_modules(pr, config, repo_config, labels).modules for pr in test_prs]
    return score_predictions(train_truth, test_truth, predicted, labels), seconds


def _evaluations(
    args: argparse.Namespace, lines: list[str], scratch: Path
) -> Iterator[tuple[str, str | None, Path, Path]]:
    """(start, end, train file, test file) per split: the time splits of one file, or all of
    it against --test."""
    if args.test is not None:
        yield "all", "--test", args.prs, args.test
        return
    for start, end in args.split or SPLITS:
        cut = datetime.fromisoformat(f"{start}T00:00:00+00:00")
        stop = datetime.fromisoformat(f"{end}T00:00:00+00:00") if end else None
        before = [x for x in lines if _merged(x) < cut]
        after = [x for x in lines if cut <= _merged(x) and (stop is None or _merged(x) < stop)]
        if not before or not after:
            side = "before" if not before else "from"
            sys.exit(f"--split {start}: {args.prs} has no PRs merged {side} {start}")
        train, test = scratch / "train.jsonl", scratch / "test.jsonl"
        train.write_text("\n".join(before) + "\n", "utf-8")
        test.write_text("\n".join(after) + "\n", "utf-8")
        yield start, end, train, test


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prs", nargs="?", type=Path, default=DEFAULT_PRS)
    parser.add_argument("--repo-config", type=Path, default=DEFAULT_CONFIG)
    parser.add_argument("--learned-only", action="store_true")
    parser.add_argument("--baseline", action="store_true", help="also score the plain model")
    parser.add_argument(
        "--split",
        action="append",
        type=_split,
        help="START[:END]: train before START, test from START (to END); repeatable",
    )
    parser.add_argument(
        "--test",
        type=Path,
        help="train on all of PRS and test on this file (later PRs) instead of time splits",
    )
    args = parser.parse_args()
    for path in (args.prs, args.test):
        if path is not None and not path.is_file():
            sys.exit(f"no PR records at {path}")
    # Lines end at "\n" alone: JSON strings may hold U+2028 raw, where `splitlines()` splits.
    text = args.prs.read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if line.strip()]
    configs: dict[str, ModulesConfig | None] = {"learned": None}
    if not args.learned_only:
        configs = {"repo-config": load_modules_config(args.repo_config), **configs}

    print(
        f"{'labels':12s} {'model':8s} {'train < ':10s} {'test to':10s} {'train':>5s} {'test':>5s}"
        f" {'micro':>6s} {'macro':>6s} {'sample':>6s} {'exact':>6s} {'secs':>5s}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for start, end, train, test in _evaluations(args, lines, Path(scratch)):
            for name, config in configs.items():
                report = evaluate_files(train, test, config, None)
                rows: list[tuple[str, EvaluationReport | PredictionScores, float]] = [
                    ("ours", report, report.train_seconds)
                ]
                if args.baseline:
                    plain, seconds = baseline(train, test, config)
                    rows.append(("baseline", plain, seconds))
                for model, scores, seconds in rows:
                    figures = " ".join(
                        f"{x or 0:6.3f}"
                        for x in (
                            scores.micro_f1,
                            scores.macro_f1,
                            scores.samples_f1,
                            scores.exact_match,
                        )
                    )
                    print(
                        f"{name:12s} {model:8s} {start:10s} {end or 'end':10s}"
                        f" {report.train_tagged:5d} {report.test_tagged:5d} {figures}"
                        f" {seconds:5.2f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
