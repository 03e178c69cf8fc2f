"""How long the text rules take on hostile PR text: a description of one character or pair
repeated to GitHub's 65,536-character limit, and a title of one repeated 100,000 times (a git
commit's subject has no limit).

    python benchmarks/hostile_text.py [--top 8]

Prints the slowest inputs, each with the seconds to summarise the description, read its fix
impacts and its revert evidence, and to parse the title. The rules read at most
MAX_DESCRIPTION_CHARS and MAX_TITLE_CHARS (records.py); a regular expression that backtracks
over what it read shows here first.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.scoring.importance import fix_impacts
from prhub_pipeline.modelling.tagging.tags import parse_title_tags
from prhub_pipeline.modelling.text.pr_summaries import summarize
from prhub_pipeline.modelling.text.pr_titles import parse_title
from prhub_pipeline.reverts import read_revert

PIECES = (
    "[", "]", "(", ")", " ", "\n", "\t", "`", "*", "_", "-", "#", "<", ">", "|", "!", '"',
    "![", "](", "> ", "1. ", "- [ ] ", "\n ", " \n", "**", "<!--", "```\n", "# \n", "a. ",
    "Fix: ", "[x]", "(#1)", "Revert \"",
)  # fmt: skip
DESCRIPTION_CHARS = 65_536
TITLE_CHARS = 100_000


def read_description(body: str) -> None:
    summarize("fix: x", body)
    fix_impacts("fix: x", body)
    read_revert("x", body)


def read_title(title: str, modules: ModulesConfig) -> None:
    parse_title(title)
    parse_title_tags(title, modules)
    read_revert(title, "")


def seconds(started: float) -> float:
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    modules = ModulesConfig()
    rows = []
    for piece in PIECES:
        body = piece * (DESCRIPTION_CHARS // len(piece))
        title = piece * (TITLE_CHARS // len(piece))
        started = time.perf_counter()
        read_description(body)
        description = seconds(started)
        started = time.perf_counter()
        read_title(title, modules)
        heading = seconds(started)
        rows.append((description + heading, piece, description, heading))
    rows.sort(reverse=True)
    print(f"{'repeated':>10} {'description s':>14} {'title s':>8}")
    for _, piece, description, heading in rows[: args.top]:
        print(f"{piece!r:>10} {description:>14.2f} {heading:>8.2f}")


if __name__ == "__main__":
    main()
