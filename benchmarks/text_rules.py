"""What the text rules make of PR records: types and one-line summaries, per records file.

    python benchmarks/text_rules.py RECORDS.jsonl ... [--save OUT.json] [--compare OLD.json]
        [--show 20]

Records come from `pr_records_from_git.py` (or are verl's prs.jsonl). Prints, per file: PRs,
how many the title types "other", how many a ticked "Type of change" box types, how many
summaries say nothing beyond the title, and how many are cut at the limit. `--save` writes each
PR's type and summary; `--compare` lists the PRs whose type or summary differs from a saved run,
which is how a change to the rules in `pr_titles`, `pr_descriptions` or `pr_summaries` is read
before it lands.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.modelling.tagging.pr_records import read_pr_records
from prhub_pipeline.modelling.text.pr_summaries import summarize
from prhub_pipeline.modelling.text.pr_titles import change_kind, parse_title
from prhub_pipeline.reporting.facts import adds_to_title


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("--save", type=Path, help="write each PR's type and summary here")
    parser.add_argument("--compare", type=Path, help="list the PRs that differ from this run")
    parser.add_argument("--show", type=int, default=20, help="differences to print")
    args = parser.parse_args()

    print(f"{'records':<28} {'PRs':>6} {'other':>6} {'ticked':>6} {'title only':>10} {'cut':>5}")
    results: dict[str, dict[str, str]] = {}
    for path in args.records:
        counts: Counter[str] = Counter()
        prs = read_pr_records(path).prs
        for pr in prs:
            kind = change_kind(pr.title, pr.body)
            summary = summarize(pr.title, pr.body)
            counts["other"] += kind.type == "other"
            counts["ticked"] += kind.type != parse_title(pr.title).type
            counts["title only"] += not adds_to_title(summary, pr.title)
            counts["cut"] += summary.endswith("…")
            results[f"{path.stem}#{pr.number}"] = {
                "title": pr.title,
                "type": kind.type,
                "summary": summary,
            }
        print(
            f"{path.name:<28} {len(prs):>6} {counts['other']:>6} {counts['ticked']:>6}"
            f" {counts['title only']:>10} {counts['cut']:>5}"
        )
    if args.save:
        args.save.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.compare:
        _compare(json.loads(args.compare.read_text(encoding="utf-8")), results, args.show)


def _compare(old: dict[str, dict[str, str]], new: dict[str, dict[str, str]], show: int) -> None:
    changed = [key for key in new if key in old and old[key] != new[key]]
    moves = Counter((old[key]["type"], new[key]["type"]) for key in changed)
    print(f"\n{len(changed)} of {len(new)} PRs differ from the saved run")
    for (before, after), n in moves.most_common():
        if before != after:
            print(f"  type {before} -> {after}: {n}")
    for key in changed[:show]:
        print(f"{key} {new[key]['title']}")
        for field in ("type", "summary"):
            if old[key][field] != new[key][field]:
                print(f"  - {old[key][field]}\n  + {new[key][field]}")


if __name__ == "__main__":
    main()
