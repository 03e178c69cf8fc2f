"""The GitHub source against a fake GitHub that executes every query on GitHub's published schema:
query validity, pagination, the 1,000-result search cap, huge PRs, and faults mid-week."""

from __future__ import annotations

import json
import math
from datetime import UTC, date, datetime, timedelta

import httpx
import pytest
from graphql import parse, validate

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import GitHubWeek, RequestStats, SearchRange
from prhub_pipeline.sources.github import (
    FollowUp,
    GitHubClient,
    GitHubResponseError,
    PageSizes,
    SearchStep,
    compose_query,
    fetch_version_tags,
    fetch_week,
    parse_pages,
)
from prhub_pipeline.sources.github import tags as tags_module
from prhub_pipeline.weeks import WeekWindow
from prhub_pipeline_tests.github_fake import (
    SCHEMA_MISSING,
    FakeActor,
    FakeComment,
    FakeFile,
    FakeGitHub,
    FakePullRequest,
    FakeReview,
    FakeTag,
    FakeThread,
    github_schema,
    http_status,
    load_fixture_week,
    primary_rate_limit,
    read_timeout,
    schema_available,
    secondary_rate_limit,
)

pytestmark = pytest.mark.skipif(not schema_available(), reason=SCHEMA_MISSING)

REPO = "verl-project/verl"
WINDOW = WeekWindow(week_start=date(2026, 5, 11), timezone="Asia/Shanghai")
GEMINI = FakeActor("gemini-code-assist", "Bot")


def fetch(
    fake: FakeGitHub, sizes: PageSizes | None = None, repo: str = REPO, branch: str | None = None
) -> GitHubWeek:
    with GitHubClient(
        GitHubConfig(), transport=fake.transport(), token=fake.token, sleep=lambda _: None
    ) as client:
        week = fetch_week(client, repo, WINDOW, page_sizes=sizes, branch=branch)
    assert fake.invalid == []
    return week


def tiny_prs(
    count: int, first: datetime, spacing: timedelta, start: int = 1
) -> list[FakePullRequest]:
    return [
        FakePullRequest(
            number=start + i, title=f"[misc] chore: tidy {i}", merged_at=first + i * spacing
        )
        for i in range(count)
    ]


def test_every_query_the_client_can_send_is_valid_against_githubs_schema() -> None:
    window = SearchRange(start=WINDOW.start_utc, end=WINDOW.end_utc)
    kinds = ["files", "labels", "reviews", "comments", "reviewThreads", "threadComments"]
    follow_ups = [FollowUp(kind, f"id{i}", "Y3Vyc29y", 1) for i, kind in enumerate(kinds)]
    shapes = [
        (SearchStep(window, None), []),
        (SearchStep(window, "Y3Vyc29y"), follow_ups),
        (None, follow_ups),
        (None, follow_ups[:1]),
        (None, follow_ups[-1:]),
        (None, follow_ups[4:5]),
    ]
    for search, items in shapes:
        _, query, _ = compose_query(REPO, WINDOW.zone, search, items, PageSizes())
        assert validate(github_schema(), parse(query)) == [], query


def test_the_fixture_week_is_stored_completely_in_one_request() -> None:
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"))
    week = fetch(fake)
    # 6390 merged a second before the week, 6411 at the next week's first second.
    assert [pr.number for pr in week.prs] == [6398, 6401, 6402, 6403, 6404, 6410]
    assert week.stats.requests == 1 == fake.http_requests
    assert week.stats.points_spent == 14
    by_number = {pr.number: pr for pr in week.prs}
    assert by_number[6403].author is None
    assert by_number[6404].is_revert and by_number[6404].reverted_number == 6290
    assert [f.status for f in by_number[6404].files] == ["modified", "copied", "removed", "renamed"]
    assert by_number[6402].labels == ["documentation", "ascend"]
    unresolved = [t for t in week.review_data.threads if not t.is_resolved]
    assert [(t.pr_number, t.line) for t in unresolved] == [
        (6401, 58),
        (6402, None),
        (6402, 81),
        (6410, 412),
    ]
    bots = {c.author for t in week.review_data.threads for c in t.comments if c.author_is_bot}
    assert bots == {"gemini-code-assist[bot]"}
    resolved = next(t for t in week.review_data.threads if t.is_resolved)
    assert resolved.resolved_by == "npu-doc-writer"
    assert [c.is_pr_author for c in resolved.comments] == [False, True]
    assert resolved.comments[1].body == "已修改，感谢指出。"
    ghost_review = next(r for r in week.review_data.reviews if r.pr_number == 6403)
    assert ghost_review.author is None


def test_the_token_owners_pending_review_is_counted_by_github_but_not_stored() -> None:
    # One review a page: PR 6404's only review is its pending one, counted in totalCount.
    week = fetch(FakeGitHub(load_fixture_week("week_2026-05-11.json")), PageSizes(reviews=1))
    reviews = week.review_data.reviews
    assert len(reviews) == 7 and {r.pr_number for r in reviews} == {6398, 6401, 6402, 6403}
    assert all(r.state != "PENDING" and r.submitted_at is not None for r in reviews)


def test_an_empty_week_is_one_request_and_available_empty_review_data() -> None:
    fake = FakeGitHub([])
    week = fetch(fake)
    assert week.prs == [] and fake.http_requests == 1
    assert week.review_data.available
    assert week.review_data.reviews == week.review_data.threads == week.review_data.comments == []


def test_reverts_name_the_pr_by_its_merge_commit_or_the_title_merged_before_them() -> None:
    monday = WINDOW.start_utc
    hour = timedelta(hours=1)
    landed = [
        FakePullRequest(
            number=1, title="[fsdp] feat: X", merged_at=monday + hour, merge_sha="a" * 40
        ),
        FakePullRequest(number=2, title='Revert "[fsdp] feat: X"', merged_at=monday + 2 * hour),
        FakePullRequest(
            number=3, title="[fsdp] feat: X", merged_at=monday + 3 * hour, merge_sha="c" * 40
        ),
        FakePullRequest(
            number=4,
            title="Back out X again",
            body=f"This reverts commit {'c' * 12}.",
            merged_at=monday + 4 * hour,
        ),
    ]
    by_number = {pr.number: pr for pr in fetch(FakeGitHub(landed)).prs}
    assert (by_number[2].is_revert, by_number[2].reverted_number) == (True, 1)
    assert (by_number[4].is_revert, by_number[4].reverted_number) == (True, 3)


def test_a_week_over_1000_prs_is_split_until_each_part_fits_and_the_union_is_complete() -> None:
    spacing = timedelta(seconds=(WINDOW.end_utc - WINDOW.start_utc).total_seconds() / 1234)
    prs = tiny_prs(1234, WINDOW.start_utc, spacing)
    outside = tiny_prs(3, WINDOW.end_utc, timedelta(minutes=1), start=5000)
    fake = FakeGitHub(prs + outside)
    sizes = PageSizes(search=100)
    week = fetch(fake, sizes)
    assert sorted(pr.number for pr in week.prs) == list(range(1, 1235))
    assert week.stats.search_parts == 2
    middle = WINDOW.start_utc + (WINDOW.end_utc - WINDOW.start_utc) / 2
    early = sum(pr.merged_at < middle for pr in prs)
    # The probe that revealed 1,234 results, then each half paged to its end.
    expected = 1 + math.ceil(early / 100) + math.ceil((1234 - early) / 100)
    assert week.stats.requests == expected == fake.http_requests
    assert len(set(fake.searches)) == 3


def test_a_skewed_week_is_split_repeatedly_down_to_the_busy_hours() -> None:
    busy = datetime(2026, 5, 13, 8, 0, tzinfo=UTC)
    prs = tiny_prs(1100, busy, timedelta(seconds=20))  # six busy hours
    prs += tiny_prs(40, WINDOW.start_utc + timedelta(hours=1), timedelta(hours=3), start=3000)
    fake = FakeGitHub(prs)
    week = fetch(fake, PageSizes(search=100))
    assert len(week.prs) == 1140 == len({pr.number for pr in week.prs})
    assert week.stats.search_parts > 2
    assert all(pr.merged_at is not None for pr in week.prs)


def big_pull_request() -> FakePullRequest:
    when = datetime(2026, 5, 14, 3, 0, tzinfo=UTC)

    def comments(prefix: str, count: int) -> list[FakeComment]:
        return [
            FakeComment(
                f"{prefix}-{i}",
                GEMINI if i % 2 == 0 else FakeActor("big-author"),
                f"第 {i} 条评论 / comment {i}",
                when + timedelta(minutes=i),
            )
            for i in range(count)
        ]

    threads = [
        FakeThread(
            f"PRRT_big_{i}",
            f"verl/module_{i % 7}.py",
            i + 1,
            comments(f"PRRC_big_{i}", 45 if i == 0 else 25 if i == 110 else 1),
            is_resolved=i % 3 == 0,
        )
        for i in range(120)
    ]
    return FakePullRequest(
        number=6500,
        title="[megatron, fsdp] refactor: unify the checkpoint layout",
        merged_at=when + timedelta(hours=5),
        author=FakeActor("big-author"),
        labels=[f"label-{i}" for i in range(101)],
        files=[
            FakeFile(f"verl/pkg_{i // 50}/file_{i:03d}.py", i, 1, "MODIFIED") for i in range(250)
        ],
        reviews=[
            FakeReview(
                f"PRR_big_{i}",
                GEMINI if i == 0 else FakeActor(f"reviewer-{i}"),
                "COMMENTED",
                "",
                when,
            )
            for i in range(130)
        ],
        threads=threads,
        comments=comments("IC_big", 105),
    )


def test_a_pr_with_over_100_files_threads_reviews_labels_and_comments_is_paged_completely() -> None:
    fake = FakeGitHub([big_pull_request()])
    week = fetch(fake)
    (pr,) = week.prs
    assert len(pr.files) == 250 == pr.changed_files and len(pr.labels) == 101
    data = week.review_data
    assert len(data.reviews) == 130 and len(data.threads) == 120 and len(data.comments) == 105
    comment_counts = {t.thread_id: len(t.comments) for t in data.threads}
    assert comment_counts["PRRT_big_0"] == 45 and comment_counts["PRRT_big_110"] == 25
    assert sum(comment_counts.values()) == 45 + 25 + 118
    assert [c.comment_id for c in data.threads[0].comments] == [
        f"PRRC_big_0-{i}" for i in range(45)
    ]
    # Search page; then files 101-200, labels, reviews, comments, threads 51-120 and thread 0's
    # comments in one request; then files 201-250 with thread 110's comments: the files chain
    # is three pages long, so three requests is the minimum.
    assert week.stats.requests == 3 == fake.http_requests


def test_a_pr_with_more_files_than_github_lists_is_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    huge = FakePullRequest(
        number=6600,
        title="[misc] chore: regenerate the vendored protos",
        merged_at=WINDOW.start_utc + timedelta(days=1),
        files=[FakeFile(f"vendor/proto_{i:04d}.py") for i in range(3500)],
    )
    week = fetch(FakeGitHub([huge, *tiny_prs(2, WINDOW.start_utc, timedelta(hours=1))]))
    by_number = {pr.number: pr for pr in week.prs}
    assert by_number[6600].changed_files == 3500 and len(by_number[6600].files) == 3000
    assert week.stats.truncated_file_lists == 1
    assert (
        "verl-project/verl, week of 2026-05-11: PR #6600 changed 3500 files, but GitHub listed"
        " 3000; the rest are not stored" in caplog.text
    )


def test_follow_ups_of_many_prs_share_requests() -> None:
    when = WINDOW.start_utc + timedelta(days=2)
    prs = [
        FakePullRequest(
            number=100 + i,
            title=f"[ci] feat: {i}",
            merged_at=when + timedelta(minutes=i),
            files=[FakeFile(f"f{j}.py") for j in range(3)],
        )
        for i in range(30)
    ]
    fake = FakeGitHub(prs)
    sizes = PageSizes(search=25, files=2, follow_ups_per_request=20)
    week = fetch(fake, sizes)
    assert all(len(pr.files) == 3 for pr in week.prs)
    # Search page 1 (25 PRs); search page 2 (5 PRs) carries 20 of page 1's file follow-ups;
    # one more request takes the last 5 plus the 5 from page 2.
    assert week.stats.requests == 3


def test_faults_mid_week_neither_lose_nor_duplicate_anything() -> None:
    clean = fetch(FakeGitHub([big_pull_request(), *load_fixture_week("week_2026-05-11.json")]))
    fake = FakeGitHub([big_pull_request(), *load_fixture_week("week_2026-05-11.json")])
    fake.fail_next(http_status(503), read_timeout(), secondary_rate_limit(retry_after=2))
    faulty = GitHubClient(
        GitHubConfig(), transport=fake.transport(), token=fake.token, sleep=lambda _: None
    )
    with faulty:
        first_page = fetch_week(faulty, REPO, WINDOW)
    assert (first_page.prs, first_page.review_data) == (clean.prs, clean.review_data)
    assert first_page.stats.retries == 3
    fake.fail_next(primary_rate_limit(0))  # a reset already past: wait a second and go on
    with GitHubClient(
        GitHubConfig(), transport=fake.transport(), token=fake.token, sleep=lambda _: None
    ) as client:
        again = fetch_week(client, REPO, WINDOW)
    assert (again.prs, again.review_data) == (clean.prs, clean.review_data)


def test_a_query_github_keeps_timing_out_on_is_paged_again_smaller_without_loss() -> None:
    prs = [big_pull_request(), *load_fixture_week("week_2026-05-11.json")]
    clean = fetch(FakeGitHub(prs))
    fake = FakeGitHub(prs)
    fake.fail_next(http_status(504), http_status(502))
    week = fetch(fake)
    assert (week.prs, week.review_data) == (clean.prs, clean.review_data)
    assert week.stats.page_shrinks == 1
    search_sizes = [q.variables["first"] for q in fake.received if "first" in q.variables]
    assert search_sizes[0] == PageSizes().search // 2
    assert week.stats.requests == fake.http_requests


@pytest.mark.parametrize("small_prs", [0, 120], ids=["alone", "among-search-pages"])
def test_a_heavy_prs_later_follow_up_pages_are_asked_in_the_size_that_passed(
    small_prs: int,
) -> None:
    """Each follow-up page of one heavy PR timed out twice at the configured size before it
    was halved: the PR's later pages now start at the size that passed, also when the request
    that timed out carried a search page (the PR's follow-ups ride along while search goes on)."""
    after = big_pull_request().merged_at + timedelta(minutes=1)
    prs = [big_pull_request(), *tiny_prs(small_prs, after, timedelta(minutes=20))]
    clean = fetch(FakeGitHub(prs))
    fake = FakeGitHub(prs)
    heavy = fake.pr_nodes[6500]["id"]
    serve = fake.handle
    timed_out: list[int] = []

    def handle(request: httpx.Request) -> httpx.Response:
        variables = json.loads(request.content).get("variables") or {}
        if variables.get("pageSize", 0) > 50 and heavy in variables.values():
            timed_out.append(variables["pageSize"])
            return read_timeout()(request)
        return serve(request)

    fake.handle = handle  # type: ignore[method-assign]
    week = fetch(fake)
    assert (week.prs, week.review_data) == (clean.prs, clean.review_data)
    assert timed_out == [100, 100] and week.stats.page_shrinks == 1
    later = [q.variables for q in fake.received if heavy in q.variables.values()][1:]
    assert later and all(v["pageSize"] == 50 for v in later)


def test_after_timeouts_down_to_pages_of_one_the_week_goes_on_in_the_configured_sizes() -> None:
    prs = tiny_prs(60, WINDOW.start_utc + timedelta(hours=1), timedelta(minutes=30))
    clean_fake = FakeGitHub(prs)
    clean = fetch(clean_fake)
    fake = FakeGitHub(prs)
    # Six halvings take every size to 1; the last two timeouts are retried at that size.
    fake.fail_next(*[read_timeout()] * 14)
    week = fetch(fake)
    assert (week.prs, week.review_data) == (clean.prs, clean.review_data)
    assert week.stats.page_shrinks == 6
    search_sizes = [q.variables["first"] for q in fake.received]
    assert search_sizes == [1, 25, 25, 25]
    # One PR at size 1, the other 59 in pages of 25: not sixty pages of one.
    assert fake.http_requests == 14 + 1 + clean_fake.http_requests


def test_a_thread_deleted_while_the_week_is_fetched_fails_saying_to_run_it_again() -> None:
    fake = FakeGitHub([big_pull_request()])
    serve = fake.handle

    def delete_after_the_search(request: httpx.Request) -> httpx.Response:
        response = serve(request)
        fake.nodes.pop("PRRT_big_0", None)  # its further comments are a follow-up
        return response

    with (
        GitHubClient(
            GitHubConfig(),
            transport=httpx.MockTransport(delete_after_the_search),
            token=fake.token,
            sleep=lambda _: None,
        ) as client,
        pytest.raises(GitHubResponseError) as failure,
    ):
        fetch_week(client, REPO, WINDOW)
    message = str(failure.value)
    assert "Could not resolve to a node with the global id of 'PRRT_big_0'" in message
    assert message.endswith("it was deleted while the week was fetched; run the week again")


def test_a_repository_github_does_not_know_fails_naming_it() -> None:
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"))
    with pytest.raises(GitHubResponseError, match="no repository verl-project/verI that the token"):
        fetch(fake, repo="verl-project/verI")
    assert fake.http_requests == 1


def test_a_renamed_repository_fails_saying_its_new_name() -> None:
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"), renamed={"volcengine/verl": REPO})
    with pytest.raises(
        GitHubResponseError, match="set its name in the config to verl-project/verl"
    ):
        fetch(fake, repo="volcengine/verl")
    assert fetch(fake, repo="Verl-Project/VERL").prs  # GitHub's names ignore case


def test_a_configured_branch_keeps_only_the_prs_merged_into_it() -> None:
    when = WINDOW.start_utc + timedelta(days=1)
    prs = [
        FakePullRequest(number=1, title="[misc] chore: a", merged_at=when),
        FakePullRequest(
            number=2, title="[misc] chore: b", merged_at=when, base_branch="feature/spec"
        ),
    ]
    assert [pr.number for pr in fetch(FakeGitHub(prs), branch="main").prs] == [1]
    assert [pr.number for pr in fetch(FakeGitHub(prs)).prs] == [1, 2]


@pytest.mark.parametrize(
    ("connection", "message"),
    [
        ("search", "reported 60 merged PRs but its pages held 30"),
        ("files", "PR #1 files: GitHub reported 150 but its pages held 120"),
        ("comments", "review thread PRRT_1 comments: GitHub reported 30 but its pages held 25"),
    ],
)
def test_a_connection_that_stops_early_fails_the_week(connection: str, message: str) -> None:
    when = WINDOW.start_utc + timedelta(days=1)
    prs = tiny_prs(60, when, timedelta(minutes=5))
    thread_comments = [FakeComment(f"c{i}", FakeActor("r"), "?", when) for i in range(30)]
    prs[0] = FakePullRequest(
        number=1,
        title="big",
        merged_at=when,
        files=[FakeFile(f"f{i:03d}.py") for i in range(150)],
        threads=[FakeThread("PRRT_1", "f000.py", 1, thread_comments)],
    )
    fake = FakeGitHub(
        prs, stop_early={connection: {"search": 30, "files": 120, "comments": 25}[connection]}
    )
    with pytest.raises(GitHubResponseError, match=message):
        fetch(fake)


def test_landing_pages_rebuild_the_fetched_week() -> None:
    fake = FakeGitHub([big_pull_request(), *load_fixture_week("week_2026-05-11.json")])
    week = fetch(fake)
    assert parse_pages(REPO, week.pages) == (week.prs, week.review_data)


def test_version_tags_of_the_weeks_are_read_by_their_own_date() -> None:
    """verl's v0.9.0 is an annotated tag of `bump version to 0.9.0` on a release branch: read
    by the tag's date, a lightweight tag by its commit's; tags naming no version, or dated
    outside the weeks, are no releases. Paging stops once the commits are well before them."""
    day = timedelta(days=1)
    start = WINDOW.start_utc
    hour = timedelta(hours=1)
    # Older releases every 12 hours before them: the second page ends 127 days back, where
    # paging stops, and a third is never asked.
    old = [FakeTag(f"v0.0.{i}", f"{i:040x}", start - 30 * day - 12 * i * hour) for i in range(250)]
    tags = [
        FakeTag("v0.9.0", "a" * 40, start - 20 * day, tagged_at=start + 3 * day),
        FakeTag("v0.8.5", "b" * 40, start + 1 * day),
        FakeTag("nightly", "c" * 40, start + 2 * day),
        FakeTag("v1.0.0", "d" * 40, start + 8 * day),
        FakeTag("v0.8.4", "e" * 40, start - 2 * day),
        *old,
    ]
    fake = FakeGitHub([], tags=tags)
    stats = RequestStats()
    with GitHubClient(
        GitHubConfig(), transport=fake.transport(), token=fake.token, sleep=lambda _: None
    ) as client:
        found = fetch_version_tags(client, REPO, WINDOW.start_utc, WINDOW.end_utc, stats=stats)
    assert fake.invalid == []
    assert [(t.name, t.sha, t.tagged_at) for t in found] == [
        ("v0.8.5", "b" * 40, start + 1 * day),
        ("v0.9.0", "a" * 40, start + 3 * day),
    ]
    assert stats.requests == 2 and len(fake.received) == 2  # the third page is never asked


def test_tags_past_the_page_cap_are_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A repository tagging every build pushes a backfill's releases past the pages read:
    said, not dropped in silence."""
    monkeypatch.setattr(tags_module, "MAX_TAG_PAGES", 2)
    start = WINDOW.start_utc
    builds = [
        FakeTag(f"build-{i}", f"{i:040x}", start + timedelta(days=30, hours=i)) for i in range(250)
    ]
    fake = FakeGitHub([], tags=[*builds, FakeTag("v0.8.0", "a" * 40, start + timedelta(days=1))])
    with (
        caplog.at_level("WARNING"),
        GitHubClient(
            GitHubConfig(), transport=fake.transport(), token=fake.token, sleep=lambda _: None
        ) as client,
    ):
        assert fetch_version_tags(client, REPO, WINDOW.start_utc, WINDOW.end_utc) == []
    assert len(fake.received) == 2
    assert "read 2 pages of tags without reaching 2026-05-10" in caplog.text
