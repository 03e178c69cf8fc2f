"""How module classifier training time and memory grow with a repository's tagged history.

    python benchmarks/classifier_training.py RECORDS.jsonl [MORE.jsonl ...]
        [--sizes 1000 2000 4000 0] [--repeat 3]

Reads PR records (the schema of ../shared/data/verl/prs.jsonl; `pr_records_from_git.py` writes
them for any clone) as one repository's history, several files as one larger repository, and
trains the classifier, as `module_classifier` does, on its latest N PRs for each size (0: all),
with labels learned from the titles' tags. Each size trains in a process of its own, forked
once the records are read, so its peak resident memory is the history's plus its training's
(not the label fits' forked workers, which share most of their pages with it). Prints PRs,
tagged PRs, labels, the median training seconds over the repeats and peak memory.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import sys
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tagging.classifier import train_module_classifier
from prhub_pipeline.modelling.tagging.pr_records import read_pr_records
from prhub_pipeline.records import PullRequest


def _train(prs: list[PullRequest], repeat: int, sender: Connection) -> None:
    seconds = []
    tagged = labels = 0
    for _ in range(repeat):
        result = train_module_classifier(prs, ModulesConfig())
        seconds.append(result.metrics.train_seconds)
        tagged = result.metrics.training_size
        labels = len(result.model.labels) if result.model is not None else 0
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sender.send((tagged, labels, statistics.median(seconds), peak_mib))
    sender.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    history = sorted(
        (pr for path in args.records for pr in read_pr_records(path).prs),
        key=lambda pr: (pr.merged_at, pr.number),
    )
    # One repository: the files' PRs under one name, numbered apart where two files share one.
    prs = [
        pr.model_copy(update={"repo": "benchmark/history", "number": position + 1})
        for position, pr in enumerate(history)
    ]
    context = multiprocessing.get_context("fork")
    print(f"{'PRs':>7} {'tagged':>7} {'labels':>7} {'seconds':>8} {'peak MiB':>9}")
    # 0, or a size past the history, is the whole history: measured once.
    windows = sorted({size if 0 < size < len(prs) else len(prs) for size in args.sizes})
    for size in windows:
        window = prs[-size:]
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_train, args=(window, args.repeat, sender))
        process.start()
        sender.close()
        tagged, labels, seconds, peak_mib = receiver.recv()
        process.join()
        print(f"{len(window):>7} {tagged:>7} {labels:>7} {seconds:>8.2f} {peak_mib:>9.0f}")


if __name__ == "__main__":
    main()
