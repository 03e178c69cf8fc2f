"""The real Dagster UI: `prhub ui` on loopback with the shipped instance settings, a backfill of
every weekly asset for a range of weeks of two repositories, and headless Chromium reading it.

One `prhub ui` serves the whole module (it takes tens of seconds to start and the backfill
minutes on a small machine): the fixtures are module-scoped, so nothing here runs twice.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import date, timedelta
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import duckdb
import pytest

from prhub_pipeline_tests.browser import requires_chromium
from prhub_pipeline_tests.dagster_ui import (
    BackfillOutcome,
    DagsterDev,
    launch_asset_backfill,
    prhub_ui,
    wait_for_backfill,
)
from prhub_pipeline_tests.gitrepo import GitRepo

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [
    requires_chromium("UI browser test"),
    pytest.mark.skipif(
        importlib.util.find_spec("playwright") is None,
        reason="the playwright package is not installed (pip install -e '.[dev]'): UI browser test",
    ),
]

WEEKS = ["2026-05-04", "2026-05-11", "2026-05-18", "2026-05-25"]
# Each repository tags its PRs with its own modules.
REPOS = {"acme/widgets": ("core", "docs"), "acme/gadgets": ("api", "ci")}
PRS_PER_WEEK = 3
GROUPS = ("ingest", "modelling", "scoring", "reporting", "sql_models")
# The weekly job's assets (one partitions definition), the way an operator selects them for a
# backfill. module_classifier (partitioned by repository) is left out on purpose: from
# partition names Dagster derives a backfill's scope by a breadth-first walk whose order
# varies between processes, and through the classifier's repository-to-every-week mapping
# module_labels, importance_scores and weekly_report then sometimes target every week of
# the repository's history instead of the chosen range.
BACKFILL_ASSETS = (
    "raw_prs",
    "review_threads",
    "module_labels",
    "importance_scores",
    "weekly_report",
)
GRAPH_ASSETS = (*BACKFILL_ASSETS, "module_classifier")


def build_history(folder: Path, modules: tuple[str, str], first_number: int) -> GitRepo:
    repo = GitRepo(folder)
    repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    number = first_number
    for week in WEEKS:
        day = date.fromisoformat(week)
        for index, hour in enumerate((9, 13, 17)[:PRS_PER_WEEK]):
            number += 1
            module = modules[index % 2]
            repo.commit(
                f"[{module}] feat: change {number} (#{number})",
                f"{day.isoformat()}T{hour:02d}:00:00+08:00",
                {f"src/{module}/m{number}.py": f"{number}\n", "tests/test_x.py": f"{number}\n"},
            )
    return repo


def write_two_repo_config(folder: Path) -> Path:
    lines = ["database: warehouse/prhub.duckdb", "timezone: Asia/Shanghai", "repos:"]
    for offset, (name, modules) in enumerate(REPOS.items()):
        repo = build_history(folder / name.replace("/", "-"), modules, 100 * (offset + 1))
        lines += [
            f"  - name: {name}",
            "    source: git",
            f"    git_path: {repo.path}",
            f"    start: {WEEKS[0]}",
        ]
    config = folder / "prhub.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config


class BackfilledUi:
    def __init__(self, server: DagsterDev, outcome: BackfillOutcome, folder: Path) -> None:
        self.server = server
        self.outcome = outcome
        self.folder = folder


@pytest.fixture(scope="module")
def backfilled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackfilledUi]:
    folder = tmp_path_factory.mktemp("ui")
    config = write_two_repo_config(folder)
    with prhub_ui(config, folder / "dagster_home", folder / "prhub_ui.log") as server:
        partitions = [f"{repo}|{week}" for repo in REPOS for week in WEEKS]
        backfill_id = launch_asset_backfill(
            server, BACKFILL_ASSETS, partitions, title="four weeks of both repositories"
        )
        outcome = wait_for_backfill(server, backfill_id, timeout=300)
        yield BackfilledUi(server, outcome, folder)


def test_backfill_of_a_range_of_weeks_for_both_repositories_succeeds(
    backfilled: BackfilledUi,
) -> None:
    outcome = backfilled.outcome
    failed = [run for run in outcome.runs if run.status != "SUCCESS"]
    assert outcome.status == "COMPLETED_SUCCESS" and not failed, (
        f"backfill {outcome.status} ({outcome.error}); runs not successful: {failed}\n"
        + backfilled.server.log_tail()
    )
    materialized = {(asset, run.partition_range) for run in outcome.runs for asset in run.assets}
    for repo in REPOS:
        weeks = (f"{repo}|{WEEKS[0]}", f"{repo}|{WEEKS[-1]}")
        for asset in BACKFILL_ASSETS:
            # Single-run backfill policy: one run per repository covers the whole range.
            assert (asset, weeks) in materialized, f"{asset} {weeks} not in {materialized}"
    # The pool `prhub_warehouse` (limit 1, granularity run) admits one run at a time.
    spans: list[tuple[float, float]] = []
    for run in outcome.runs:
        assert run.start_time is not None and run.end_time is not None, run
        spans.append((run.start_time, run.end_time))
    for (_, earlier_end), (later_start, _) in pairwise(sorted(spans)):
        assert later_start >= earlier_end, f"runs overlapped despite the pool: {spans}"


def test_warehouse_holds_every_week_of_both_repositories(backfilled: BackfilledUi) -> None:
    database = backfilled.folder / "warehouse" / "prhub.duckdb"
    with duckdb.connect(str(database), read_only=True) as con:
        prs = con.execute(
            "SELECT repo, week_start::VARCHAR, count(*) FROM prs GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        reports = con.execute(
            "SELECT repo, week_start::VARCHAR, count(*) FROM weekly_reports"
            " GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        modules = con.execute("SELECT count(DISTINCT (repo, number)) FROM pr_modules").fetchone()
    every_week = sorted((repo, week) for repo in REPOS for week in WEEKS)
    assert prs == [(repo, week, PRS_PER_WEEK) for repo, week in every_week]
    assert reports == [(repo, week, 2) for repo, week in every_week]  # zh and en
    assert modules == (len(every_week) * PRS_PER_WEEK,)


@pytest.fixture
def page(browser: Browser, backfilled: BackfilledUi) -> Iterator[Page]:
    from playwright.sync_api import expect

    context = browser.new_context(
        base_url=backfilled.server.url, viewport={"width": 1600, "height": 1000}
    )
    context.set_default_timeout(30_000)
    # Assertions wait as long as actions do: Playwright's 5 s default is short for the asset
    # graph's layout on a loaded machine (one of five suite runs failed in the graph test).
    expect.set_options(timeout=30_000)
    new_page = context.new_page()
    # The first visit to a new instance opens a "Join the Dagster community" dialog over
    # whatever page is open; dismiss it whenever it shows up.
    new_page.add_locator_handler(
        new_page.get_by_text("Join the Dagster community"),
        lambda: new_page.get_by_role("button", name="Skip").click(),
    )
    yield new_page
    context.close()


def test_asset_graph_renders_every_group_and_asset(page: Page, backfilled: BackfilledUi) -> None:
    from playwright.sync_api import Error, expect

    page.goto("/asset-groups")
    graph = page.locator("main, #root").first
    for group in GROUPS:
        expect(graph.get_by_text(group, exact=True).last).to_be_visible()
    page.screenshot(path=backfilled.folder / "asset_groups.png")
    # The graph's context menu expands every group; it answers only once the layout is done,
    # and the community dialog, when it shows up late, closes it: open and click again.
    expand = page.get_by_role("menuitem", name="Expand all groups")
    for _ in range(30):
        page.mouse.click(900, 300, button="right")
        try:
            expand.click(timeout=2_000)
            break
        except Error:
            page.keyboard.press("Escape")
    else:
        pytest.fail("the asset graph's context menu never offered 'Expand all groups'")
    # The graph draws only the nodes inside the viewport; two steps out fit all of them.
    zoom_out = page.locator("button:has([aria-label=zoom_out])")
    zoom_out.click()
    zoom_out.click()
    for asset in GRAPH_ASSETS:
        expect(page.get_by_text(asset, exact=True)).to_be_visible()
    page.screenshot(path=backfilled.folder / "asset_graph_expanded.png")


@pytest.mark.parametrize(
    ("repo", "week", "heading"),
    [
        ("acme/widgets", "2026-05-11", "acme/widgets 2026 年第 20 周周报（05-11 至 05-17）"),
        ("acme/gadgets", "2026-05-25", "acme/gadgets 2026 年第 22 周周报（05-25 至 05-31）"),
    ],
)
def test_a_partitions_report_metadata_shows_that_weeks_report(
    page: Page, backfilled: BackfilledUi, repo: str, week: str, heading: str
) -> None:
    from playwright.sync_api import expect

    page.goto(f"/assets/weekly_report?view=partitions&partition={quote(f'{repo}|{week}')}")
    expect(page.get_by_text("Latest materialization")).to_be_visible()
    page.get_by_text("[Show Markdown]").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name=heading)).to_be_visible()
    expect(dialog.get_by_role("heading", name="执行摘要")).to_be_visible()
    sunday = date.fromisoformat(week) + timedelta(days=6)
    expect(dialog.get_by_text(f"周期：{week} 至 {sunday.isoformat()}")).to_be_visible()
    page.screenshot(path=backfilled.folder / f"report_{repo.replace('/', '-')}_{week}.png")
