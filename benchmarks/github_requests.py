"""Requests the GitHub source needs per week, beside what a REST crawler would need.

Runs the GraphQL client against the fake GitHub (graphql-core over GitHub's published schema,
`../shared/github/schema.graphql`) for the hand-written fixture week, synthetic edge weeks, and,
when `../shared/data/verl/` is present, the real verl week of 2026-05-11 (43 PRs, files from
prs.jsonl, review threads from reviews_2026-05-11.json, read in place, never copied).

REST, as the issue counts it: list calls (search, 100 a page, split like GraphQL above 1,000)
plus, per PR, the pages of GET /pulls/N/files, /pulls/N/reviews and /pulls/N/comments
(100 a page, at least one call each). The PR detail call and issue comments REST would also
need are left out, so the REST figure is a lower bound.

Usage: python benchmarks/github_requests.py
"""

from __future__ import annotations

import json
import math
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from prhub_pipeline.config import GitHubConfig  # noqa: E402
from prhub_pipeline.sources.github import (  # noqa: E402
    CHANGE_TYPE_STATUS,
    GitHubClient,
    fetch_week,
)
from prhub_pipeline.weeks import WeekWindow  # noqa: E402
from prhub_pipeline_tests.github_fake import (  # noqa: E402
    SCHEMA_MISSING,
    FakeActor,
    FakeComment,
    FakeFile,
    FakeGitHub,
    FakePullRequest,
    FakeReview,
    FakeThread,
    load_fixture_week,
    schema_available,
)

REPO = "verl-project/verl"
WINDOW = WeekWindow(week_start=date(2026, 5, 11), timezone="Asia/Shanghai")
VERL = ROOT.parent / "shared" / "data" / "verl"
# The client's mapping read backwards; "modified" goes back to MODIFIED (GitHub's CHANGED, a
# type change, also reads as modified but comes first).
STATUS_CHANGE_TYPE = {status: change for change, status in CHANGE_TYPE_STATUS.items()}


def rest_requests(prs: list[FakePullRequest], search_parts: int) -> int:
    in_window = [pr for pr in prs if WINDOW.contains(pr.merged_at)]
    listing = max(search_parts, math.ceil(len(in_window) / 100))

    def pages(count: int) -> int:
        return max(1, math.ceil(count / 100))

    per_pr = sum(
        pages(len(pr.files))
        + pages(len(pr.reviews))
        + pages(sum(len(t.comments) for t in pr.threads))
        for pr in in_window
    )
    return listing + per_pr


def actor(login: str | None) -> FakeActor | None:
    if not login:
        return None
    if login.endswith("[bot]"):
        return FakeActor(login.removesuffix("[bot]"), "Bot")
    return FakeActor(login)


def verl_week() -> list[FakePullRequest] | None:
    prs_path, reviews_path = VERL / "prs.jsonl", VERL / "reviews_2026-05-11.json"
    if not (prs_path.is_file() and reviews_path.is_file()):
        return None
    reviews = {r["number"]: r for r in json.loads(reviews_path.read_text("utf-8"))}
    week = []
    with prs_path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            merged_at = datetime.fromisoformat(record["merged_at"])
            if record["number"] is None or not WINDOW.contains(merged_at):
                continue
            review = reviews.get(record["number"], {})
            number = record["number"]

            def comment(c: dict, key: str, merged_at: datetime = merged_at) -> FakeComment:
                # The excerpts carry dates only, sometimes none: noon UTC, else the merge.
                day = c.get("created_at")
                when = datetime.fromisoformat(f"{day}T12:00:00+00:00") if day else merged_at
                return FakeComment(key, actor(c["author"]), c["body"], when)

            threads = [
                FakeThread(
                    f"PRRT_{number}_{i}",
                    t["path"],
                    t["line"],
                    [comment(c, f"PRRC_{number}_{i}_{j}") for j, c in enumerate(t["comments"])],
                )
                for i, t in enumerate(review.get("review_threads", []))
            ]
            reviewers = {t.comments[0].author for t in threads if t.comments}
            week.append(
                FakePullRequest(
                    number=number,
                    title=record["title"],
                    merged_at=merged_at,
                    body=record["body"],
                    author=actor(review.get("author_login")),
                    merge_sha=record["merge_commit_sha"],
                    files=[
                        FakeFile(
                            f["path"],
                            f["additions"] or 0,
                            f["deletions"] or 0,
                            STATUS_CHANGE_TYPE[f["status"]],
                        )
                        for f in record["files"]
                    ],
                    reviews=[
                        FakeReview(f"PRR_{number}_{i}", who, "COMMENTED", "", merged_at)
                        for i, who in enumerate(sorted(reviewers, key=str))
                    ],
                    threads=threads,
                    comments=[
                        comment(c, f"IC_{number}_{i}")
                        for i, c in enumerate(review.get("comments", []))
                    ],
                )
            )
    return week


def big_pr_week() -> list[FakePullRequest]:
    when = WINDOW.start_utc + timedelta(days=2)
    gemini = FakeActor("gemini-code-assist", "Bot")
    comments = [FakeComment(f"c{i}", gemini, "nit", when) for i in range(25)]
    return [
        FakePullRequest(
            number=1,
            title="[megatron] refactor: huge",
            merged_at=when,
            files=[FakeFile(f"f{i:03d}.py") for i in range(250)],
            labels=[f"l{i}" for i in range(101)],
            reviews=[FakeReview(f"r{i}", gemini, "COMMENTED") for i in range(130)],
            threads=[FakeThread(f"t{i}", "f000.py", i, comments) for i in range(120)],
            comments=[FakeComment(f"ic{i}", gemini, "summary", when) for i in range(125)],
        ),
        *tiny_week(40, start=10),
    ]


def tiny_week(count: int, start: int = 1) -> list[FakePullRequest]:
    spacing = (WINDOW.end_utc - WINDOW.start_utc) / (count + 1)
    return [
        FakePullRequest(
            number=start + i,
            title=f"[misc] chore: {i}",
            merged_at=WINDOW.start_utc + (i + 1) * spacing,
            files=[FakeFile("README.md")],
        )
        for i in range(count)
    ]


def main() -> None:
    if not schema_available():
        print(f"skipped: {SCHEMA_MISSING}")
        return
    weeks: list[tuple[str, list[FakePullRequest]]] = [
        ("fixture week_2026-05-11.json", load_fixture_week("week_2026-05-11.json")),
        ("empty week", []),
        ("PR with 250 files/120 threads + 40 PRs", big_pr_week()),
        ("1,234 PRs (search split)", tiny_week(1234)),
    ]
    real = verl_week()
    if real is not None:
        weeks.insert(0, ("verl 2026-05-11 (real files/threads)", real))
    else:
        print(f"(real verl week skipped: {VERL} not found)")
    header = f"{'week':40} {'PRs':>5} {'GraphQL':>8} {'points':>7} {'REST':>6}"
    print(header)
    print("-" * len(header))
    for name, prs in weeks:
        fake = FakeGitHub(prs)
        with GitHubClient(GitHubConfig(), transport=fake.transport(), token=fake.token) as client:
            week = fetch_week(client, REPO, WINDOW)
        assert fake.invalid == [], fake.invalid
        stats = week.stats
        rest = rest_requests(prs, stats.search_parts)
        print(f"{name:40} {len(week.prs):>5} {stats.requests:>8} {stats.points_spent:>7} {rest:>6}")


if __name__ == "__main__":
    main()
