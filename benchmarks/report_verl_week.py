"""Score, flag and report one real verl week; compare the ranking with the reference report.

    python benchmarks/report_verl_week.py [PRS_JSONL] [--week 2026-05-11]
        [--reviews FILE] [--out DIR] [--top N]

Modules come from the titles' tags, with the module list, display names and scoring settings
(core paths, key threshold) of the shipped `prhub.yaml`; themes from the built-in theme rules,
revert links as the scoring resolves them; the scores are calibrated as the pipeline calibrates
a week's, on the PRs of the 52 weeks up to and including it. The themes left out as verl's
subject, or for a module of their name, are worked out as the pipeline does, on the PRs up to
the week's end. The PR file holds no file contents, so no requirement is compared and no PR
scores the toolchain-upgrade part here (the reference week has none: no PR of it re-pins a
requirement).
Review data, when the week's excerpt file is given, becomes a ReviewData: threads whose
comments were captured, resolved when the excerpt says the reviewer's point looks addressed or
the suggestion was applied, and not when the flagged code was merged unchanged. The excerpts
carry no review states, so "merged without approval" is not checked here, and being partial
they undercount the summary's reviewed PRs and threads.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import (
    PrReview,
    raw_history,
    resolve_revert,
    reviews_by_pr,
    score_week,
)
from prhub_pipeline.modelling.scoring.risks import core_tests, flag_risks
from prhub_pipeline.modelling.tagging.evaluation import load_modules_config
from prhub_pipeline.modelling.tagging.pr_records import read_pr_records
from prhub_pipeline.modelling.tagging.tags import ground_truth
from prhub_pipeline.modelling.tagging.themes import (
    housekeeping_themes,
    subject_themes,
    tag_themes,
    themes_named_modules_stand_for,
)
from prhub_pipeline.records import (
    ModuleLabel,
    PullRequest,
    RenderedReport,
    ReviewData,
    ReviewThread,
    ThreadComment,
    WeekCounts,
)
from prhub_pipeline.reporting.context import ReportBackground, build_report_context
from prhub_pipeline.reporting.files import write_report_files
from prhub_pipeline.reporting.render import render_report
from prhub_pipeline.stages.scoring import calibration_span
from prhub_pipeline.weeks import WeekWindow, week_of

REPO = "verl-project/verl"
REFERENCE = {6076: 9.4, 6276: 8.9, 6268: 8.8, 6345: 7.9, 6360: 7.2, 6334: 7.2}
SHIPPED_SETTINGS = Path(__file__).resolve().parents[1] / "prhub.yaml"
MODULES = load_modules_config(SHIPPED_SETTINGS)
SCORING = ScoringConfig.model_validate(
    yaml.safe_load(SHIPPED_SETTINGS.read_text(encoding="utf-8"))["repos"][0].get("scoring", {})
)


def load_prs(path: Path) -> list[PullRequest]:
    """The file's PRs, each revert linked to the PR it undoes (as the git source links them)."""
    prs = read_pr_records(path).prs
    known = {pr.number: pr for pr in prs}
    return [resolve_revert(pr, known) for pr in prs]


def module_labels(prs: list[PullRequest]) -> list[ModuleLabel]:
    return [
        ModuleLabel(repo=REPO, number=pr.number, module=m, origin="title", confidence=1.0)
        for pr in prs
        for m in ground_truth(pr, MODULES).modules
    ]


def load_reviews(path: Path) -> ReviewData:
    threads = []
    for item in json.loads(path.read_text(encoding="utf-8")):
        for index, thread in enumerate(item["review_threads"]):
            if not thread["comments"]:  # nothing captured: who asked what is unknown
                continue
            comments = [
                ThreadComment(
                    comment_id=f"{item['number']}-{index}-{j}",
                    author=c["author"],
                    author_is_bot=c["author"].endswith("[bot]"),
                    is_pr_author=bool(c["is_pr_author"]),
                    body=c["body"],
                )
                for j, c in enumerate(thread["comments"])
            ]
            threads.append(
                ReviewThread(
                    repo=REPO,
                    pr_number=item["number"],
                    thread_id=f"{item['number']}-{index}",
                    path=thread["path"],
                    line=thread["line"],
                    # Code merged as flagged leaves the point open, whatever else the excerpt
                    # says; a thread cut before its outcome counts as open too.
                    is_resolved=thread["merged_code"] != "flagged_code_unchanged"
                    and (
                        bool(thread["looks_addressed"])
                        or thread["merged_code"] == "suggestion_applied"
                    ),
                    comments=comments,
                )
            )
    return ReviewData(available=True, threads=threads)


def main() -> None:
    default_data = (
        Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "verl" / "prs.jsonl"
    )
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prs", nargs="?", type=Path, default=default_data)
    parser.add_argument("--week", default="2026-05-11")
    parser.add_argument("--reviews", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    if not args.prs.exists():
        sys.exit(f"no PR data at {args.prs}")
    reviews_path = args.reviews or args.prs.parent / f"reviews_{args.week}.json"

    window = WeekWindow(week_start=date.fromisoformat(args.week), timezone="Asia/Shanghai")
    started = time.perf_counter()
    prs = load_prs(args.prs)
    loaded = time.perf_counter()
    history = [pr for pr in prs if pr.merged_at < window.start_utc]
    week = [pr for pr in prs if window.contains(pr.merged_at)]
    previous = [pr for pr in prs if window.previous().contains(pr.merged_at)]
    modules = {pr.number: ground_truth(pr, MODULES).modules for pr in prs}
    review_data = (
        load_reviews(reviews_path) if reviews_path.exists() else ReviewData(available=False)
    )
    # The week's PRs are scored with their reviews, and so placed on the scale, as the pipeline
    # places a week with review data.
    found = reviews_by_pr(review_data)
    reviews = {pr.number: found.get(pr.number, PrReview()) for pr in week} if found else None
    upto = [pr for pr in prs if pr.merged_at < window.end_utc]
    weeks: dict[date, list[int]] = defaultdict(list)
    for pr in upto:
        weeks[week_of(pr.merged_at, window.timezone)].append(pr.number)
    calibration = raw_history(upto, modules, SCORING, reviews, weeks=weeks.values()).calibration(
        *calibration_span(window)
    )
    fitted = time.perf_counter()
    by_number = {pr.number: pr for pr in history}
    scores = score_week(week, modules, review_data, SCORING, calibration, by_number)
    risks = flag_risks(week, modules, review_data, SCORING, by_number, check_approvals=False)
    scored = time.perf_counter()

    titles = {pr.number: pr.title for pr in week}
    print(f"week {window.describe()}: {len(week)} PRs, history {len(history)} PRs")
    print(f"{'rank':>4} {'PR':>6} {'imp':>5} {'raw':>6} {'ref':>4}  title")
    for rank, score in enumerate(scores, 1):
        if rank > args.top and score.number not in REFERENCE:
            continue
        ref = f"{REFERENCE[score.number]:.1f}" if score.number in REFERENCE else ""
        parts = ", ".join(f"{k}={v:.2f}" for k, v in score.parts.items() if v)
        print(
            f"{rank:>4} #{score.number:<5} {score.importance:>5.1f}"
            f" {score.raw_score:>6.2f} {ref:>4}  "
            f"{titles[score.number][:70]}\n{'':>24}{parts}"
        )
    ranks = {s.number: i for i, s in enumerate(scores, 1)}
    print("reference PRs' ranks:", ", ".join(f"#{n}: {ranks[n]}" for n in REFERENCE))
    print(f"key PRs (>= {SCORING.key_threshold}): {sum(s.is_key for s in scores)}")
    print(f"risks: {len(risks)}")
    for risk in risks:
        print(f"  #{risk.number} {risk.risk}: {risk.detail[:160]}")

    stored_labels = module_labels(upto)
    stored_themes = tag_themes(upto, None, stored_labels, MODULES)
    subjects = subject_themes(stored_themes, [pr.number for pr in upto], housekeeping_themes(None))
    module_named = themes_named_modules_stand_for(stored_themes, stored_labels)
    print(
        f"subject themes (of {subjects.measured_prs} PRs beyond housekeeping):",
        ", ".join(f"{t} {share:.0%}" for t, share in subjects.shares.items()) or "none",
    )
    print("themes a module of their name stands for:", ", ".join(sorted(module_named)) or "none")
    labels = module_labels(week)
    themes = tag_themes(week, None, labels, MODULES)
    previous_labels = module_labels(previous)
    previous_counts = WeekCounts.from_labels(
        pr_count=len(previous),
        modules=previous_labels,
        themes=tag_themes(previous, None, previous_labels, MODULES),
    )
    core_tested = {pr.number: core_tests(pr, SCORING) for pr in [*history, *week]}
    out = args.out or Path(tempfile.mkdtemp(prefix="prhub-report-"))
    rendered = []
    render_started = time.perf_counter()
    for lang in ("zh", "en"):
        context = build_report_context(
            REPO,
            window,
            week,
            labels,
            themes,
            scores,
            risks,
            review_data,
            previous_counts,
            lang,
            calibration=calibration,
            display_names=MODULES.display_names_in(lang),
            background=ReportBackground(
                scoring=SCORING,
                source="git",
                subjects=subjects,
                module_named=module_named,
                history=by_number,
                core_tested=core_tested,
            ),
        )
        rendered.append(
            RenderedReport(
                lang=lang,
                markdown=render_report(context, lang, "md"),
                html=render_report(context, lang, "html"),
            )
        )
    rendered_at = time.perf_counter()
    paths = write_report_files(out, REPO, window.week_start, rendered)
    print("wrote:", *[str(p) for p in paths], sep="\n  ")
    print(
        f"timing: load {loaded - started:.2f}s, calibrate on {calibration.history_size}"
        f" of {len(upto)} PRs {fitted - loaded:.2f}s,"
        f" score+risks {scored - fitted:.3f}s, build+render 2 langs x 2 formats"
        f" {rendered_at - render_started:.3f}s"
    )


if __name__ == "__main__":
    main()
