"""GitHub weeks in the warehouse: landing pages and review tables round-trip through DuckDB."""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path

import httpx
import pytest

from prhub_pipeline.config import GitHubConfig
from prhub_pipeline.records import GitHubWeek, RequestStats, ReviewData
from prhub_pipeline.sources.github import (
    GitHubClient,
    fetch_week,
    parse_pages,
)
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.github import (
    github_tables,
    read_landing_pages,
    read_review_data,
    review_tables,
)
from prhub_pipeline.warehouse.prs import pr_tables, read_prs
from prhub_pipeline_tests.github_fake import (
    SCHEMA_MISSING,
    FakeGitHub,
    load_fixture_week,
    schema_available,
)
from prhub_pipeline_tests.test_github_client import (
    REPO,
    RESPONSES,
    SIZES,
    TOKEN,
    WINDOW,
    Scripted,
    make_client,
)

WEEK = WINDOW.week_start


def fetch_hand_written() -> GitHubWeek:
    with make_client(Scripted()) as client:
        return fetch_week(client, REPO, WINDOW, page_sizes=SIZES)


def fetch_fixture_week() -> GitHubWeek:
    if not schema_available():
        pytest.skip(SCHEMA_MISSING)
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"), token=TOKEN)
    with GitHubClient(GitHubConfig(), transport=fake.transport(), token=TOKEN) as client:
        return fetch_week(client, REPO, WINDOW)


def store(path: Path, week: GitHubWeek) -> dict[str, int]:
    """What the lead's assets do: raw_prs writes prs, pr_files and the landing pages together;
    review_threads writes the review tables from the landing pages."""
    with connect(path) as con:
        written = replace_partition(
            con, REPO, WEEK, [*pr_tables(WEEK, week.prs), *github_tables(WEEK, week)]
        )
        _, review_data = parse_pages(REPO, read_landing_pages(con, REPO, WEEK))
        written |= replace_partition(con, REPO, WEEK, review_tables(WEEK, review_data))
    return written


@pytest.mark.parametrize("source", ["hand-written", "fixture-week"])
def test_a_fetched_week_round_trips_through_duckdb(tmp_path: Path, source: str) -> None:
    week = fetch_hand_written() if source == "hand-written" else fetch_fixture_week()
    database = tmp_path / "warehouse.duckdb"
    first = store(database, week)
    assert store(database, week) == first  # a re-run replaces, never duplicates
    assert first["github_pages"] == len(week.pages)
    with connect(database) as con:
        assert read_prs(con, REPO, WEEK) == week.prs
        assert read_review_data(con, REPO, WEEK) == week.review_data
        assert parse_pages(REPO, read_landing_pages(con, REPO, WEEK)) == (
            week.prs,
            week.review_data,
        )
        counts = con.execute(
            "SELECT (SELECT count(*) FROM review_threads), (SELECT count(*) FROM reviews),"
            " (SELECT count(*) FROM review_thread_comments), (SELECT count(*) FROM pr_comments)"
        ).fetchone()
    data = week.review_data
    assert counts == (
        len(data.threads),
        len(data.reviews),
        sum(len(t.comments) for t in data.threads),
        len(data.comments),
    )
    assert TOKEN.encode() not in database.read_bytes()


def test_text_github_cut_inside_an_emoji_is_stored_with_a_replacement_character(
    tmp_path: Path,
) -> None:
    """A title, body or comment ending in half a surrogate pair (`\\ud83d`, text cut inside
    an emoji) failed the whole week as DuckDB's "cannot encode str as UTF-8", naming no PR,
    on every run."""
    responses = copy.deepcopy(RESPONSES)
    pr = responses["search"]["data"]["search"]["nodes"][1]
    pr["title"] = "[docs] fix: typo \U0001f600 cut \ud83d"
    pr["body"] = "\udc00 whole pairs stay whole: \U0001f600"
    pr["comments"]["nodes"][0]["body"] = "\ud83d"

    def escaped(request: httpx.Request) -> httpx.Response:
        # GitHub escapes what is not ASCII, as json.dumps does; httpx's json= cannot encode a
        # lone surrogate at all.
        query = json.loads(request.content)["query"]
        page = responses["search" if "SearchMergedPullRequests" in query else "follow_ups"]
        return httpx.Response(
            200, content=json.dumps(page), headers={"content-type": "application/json"}
        )

    with make_client(escaped) as client:
        week = fetch_week(client, REPO, WINDOW, page_sizes=SIZES)
    store(tmp_path / "warehouse.duckdb", week)
    with connect(tmp_path / "warehouse.duckdb") as con:
        [second] = [pr for pr in read_prs(con, REPO, WEEK) if pr.number == 7002]
        assert second.title == "[docs] fix: typo \U0001f600 cut \ufffd"
        assert second.body == "\ufffd whole pairs stay whole: \U0001f600"
        assert read_review_data(con, REPO, WEEK).comments[0].body == "\ufffd"


def test_review_tables_answer_sql_questions(tmp_path: Path) -> None:
    week = fetch_fixture_week()
    database = tmp_path / "warehouse.duckdb"
    store(database, week)
    with connect(database) as con:
        unaddressed = con.execute(
            """
            SELECT t.number, t.path, t.line
            FROM review_threads t
            WHERE NOT t.is_resolved
              AND NOT EXISTS (
                  SELECT 1 FROM review_thread_comments c
                  WHERE c.thread_id = t.thread_id AND c.is_pr_author)
            ORDER BY t.number, t.position
            """
        ).fetchall()
        landing = con.execute(
            "SELECT response->'$.data.search'->>'issueCount' FROM github_pages WHERE seq = 0"
        ).fetchone()
    assert [(number, line) for number, _, line in unaddressed] == [
        (6401, 58),
        (6402, None),
        (6402, 81),
    ]
    assert landing == ("6",)  # the landing JSON is queryable too


def test_a_partition_without_github_landing_has_no_review_data(tmp_path: Path) -> None:
    database = tmp_path / "warehouse.duckdb"
    store(database, fetch_hand_written())
    with connect(database) as con:
        assert read_review_data(con, REPO, date(2026, 5, 4)) == ReviewData(available=False)
        assert read_review_data(con, "other/repo", WEEK) == ReviewData(available=False)
        assert read_landing_pages(con, REPO, date(2026, 5, 4)) == []


def test_an_unavailable_week_writes_empty_review_tables(tmp_path: Path) -> None:
    """The git source: review_threads materializes an empty partition, replacing older rows."""
    database = tmp_path / "warehouse.duckdb"
    store(database, fetch_hand_written())
    tables = review_tables(WEEK, ReviewData(available=False))
    assert all(not table.rows for table in tables)
    with connect(database) as con:
        no_pages = GitHubWeek(
            repo=REPO,
            prs=[],
            review_data=ReviewData(available=False),
            pages=[],
            stats=RequestStats(),
        )
        replace_partition(con, REPO, WEEK, [*tables, *github_tables(WEEK, no_pages)])
        assert read_review_data(con, REPO, WEEK) == ReviewData(available=False)
        assert con.execute("SELECT count(*) FROM review_thread_comments").fetchone() == (0,)
