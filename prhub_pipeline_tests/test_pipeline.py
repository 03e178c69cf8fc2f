"""The spine end to end: Dagster definitions, the CLI, the schedule, parallel partition runs."""

from __future__ import annotations

import errno
import logging
import os
import re
import socket
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import dagster as dg
import duckdb
import pytest
from dagster._core.storage.dagster_run import RunOpConcurrency
from dagster._utils.error import SerializableErrorInfo

from prhub_pipeline.cli import main
from prhub_pipeline.config import load_settings
from prhub_pipeline.defs import analysis_assets, build_definitions
from prhub_pipeline.defs.analysis_assets import _classifier_metadata, _modules_metadata
from prhub_pipeline.defs.definitions import WEEKLY_JOB
from prhub_pipeline.defs.ingest_assets import _ingest_metadata
from prhub_pipeline.defs.instance import (
    CLI_HOST_TAG,
    CLI_PID_TAG,
    default_dagster_home,
    fail_orphaned_runs,
    prepare_dagster_home,
    wait_for_pool,
)
from prhub_pipeline.defs.partitions import RANGE_END_TAG, RANGE_START_TAG, range_tags
from prhub_pipeline.defs.runner import _failure
from prhub_pipeline.defs.schedules import weekly_run_requests
from prhub_pipeline.modelling.tagging.classifier import TrainingMetrics
from prhub_pipeline.records import LANGS, RequestStats
from prhub_pipeline.reporting.render import WeekLinks, with_week_links
from prhub_pipeline.sources.git import CloneUpdate
from prhub_pipeline.stages import ingest as ingest_stage
from prhub_pipeline.stages import report as report_stage
from prhub_pipeline.stages.ingest import (
    SourceCheckError,
    WeekIngest,
    ingest_summary,
    refuse_losing,
)
from prhub_pipeline.stages.modules import ClassifierSummary, WeekModules, tally_modules
from prhub_pipeline.warehouse import WarehouseError, connect, connection, replace_partition
from prhub_pipeline.warehouse.connection import WarehouseLockedError
from prhub_pipeline.warehouse.prs import pr_tables
from prhub_pipeline.warehouse.query import format_table, run_query
from prhub_pipeline.warehouse.week_stages import StaleWeek, stale_weeks
from prhub_pipeline.weeks import WeekWindow
from prhub_pipeline_tests.conftest import empty_warehouse, write_config
from prhub_pipeline_tests.gitrepo import GitRepo
from prhub_pipeline_tests.test_importance import make_pr

REPO_ROOT = Path(__file__).resolve().parents[1]
WEEKS = ["2026-05-04", "2026-05-11", "2026-05-18", "2026-05-25"]


@pytest.fixture
def history(git_repo: GitRepo) -> GitRepo:
    """Three PRs in each of four weeks, and one week (2026-06-01) with none."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    number = 100
    for week in WEEKS:
        day = date.fromisoformat(week)
        for hour in (9, 13, 17):
            number += 1
            git_repo.commit(
                # One title spells its tag in lowercase: the reports name the module as most do.
                f"[{'core' if number == 101 else 'Core'}] feat: change {number} (#{number})",
                f"{day.isoformat()}T{hour:02d}:00:00+08:00",
                {f"src/m{number}.py": f"{number}\n", "tests/test_x.py": f"{number}\n"},
            )
    return git_repo


def add_git_repo(config: Path, name: str, git_path: Path, start: str) -> None:
    """Another git repository in a settings file `write_config` wrote."""
    entry = f"  - name: {name}\n    source: git\n    git_path: {git_path}\n    start: {start}\n"
    config.write_text(config.read_text(encoding="utf-8") + entry, "utf-8")


def commit_core_fixes(git_repo: GitRepo, merged: list[tuple[int, str, str | None]]) -> None:
    """An initial commit, then a `[core] fix` squash merge per (number, day, author) at 10:00
    Shanghai time; an author of None is the repository's default one."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    for number, day, author in merged:
        git_repo.commit(
            f"[core] fix: change {number} (#{number})",
            f"{day}T10:00:00+08:00",
            {f"src/m{number}.py": f"{number}\n"},
            author,
            f"{number}@example.com" if author else None,
        )


def first_weeks_range_tags() -> dict[str, str]:
    """The tags of a range run over acme/widgets' first two weeks, as a backfill launches it."""
    first, last = (date.fromisoformat(week) for week in WEEKS[:2])
    return range_tags("acme/widgets", first, last)


def stored(config: Path, sql: str) -> list[tuple[object, ...]]:
    settings = load_settings(config)
    with duckdb.connect(str(settings.database), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_materialize_a_range_then_again_changes_nothing(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, history.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", "2026-06-01"]
    assert main(args) == 0
    per_week = "SELECT week_start::VARCHAR, count(*) FROM prs GROUP BY 1 ORDER BY 1"
    first = stored(config, per_week)
    assert first == [(week, 3) for week in WEEKS]
    files = stored(config, "SELECT count(*) FROM pr_files")
    assert main(args) == 0
    assert stored(config, per_week) == first
    assert stored(config, "SELECT count(*) FROM pr_files") == files
    out = capsys.readouterr().out
    assert "acme/widgets: 5 week(s) 2026-05-04 .. 2026-06-01" in out
    assert "raw_prs: 12 PRs in 5 week(s)" in out
    for stage in ("review_threads", "module_classifier", "module_labels", "importance_scores"):
        assert f"  {stage}: " in out
    assert "weekly_report: 5 report(s) in zh and en" in out
    assert "week 2026-05-11: 3 PRs," in out and "report en,zh" in out
    assert "week 2026-06-01: 0 PRs, 0 key, 0 risk flags, report en,zh" in out


def test_every_stage_lands_and_reports_are_readable(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, history.path)
    assert (
        main(["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[-1]])
        == 0
    )
    counts = stored(
        config,
        "SELECT (SELECT count(DISTINCT number) FROM pr_modules),"
        " (SELECT count(*) FROM pr_scores),"
        " (SELECT count(*) FROM weekly_reports),"
        " (SELECT count(*) FROM pr_facts),"
        " (SELECT sum(prs) FROM weekly_module_trends WHERE module = 'core')",
    )
    assert counts == [(12, 12, 8, 12, 12)]  # 4 weeks x 2 languages of reports
    reports = tmp_path / "reports" / "acme" / "widgets"
    assert (reports / "2026-05-11.zh.md").is_file() and (reports / "2026-05-11.en.html").is_file()
    assert (reports / "index.html").is_file()
    capsys.readouterr()
    assert main(["report", "--config", str(config), "--week", "2026-05-11", "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    assert "# acme/widgets" in markdown and "#106" in markdown
    assert "| Core | module | 3 | 3 |" in markdown
    out = tmp_path / "week.html"
    args = ["report", "--config", str(config), "--week", "2026-05-11", "--format", "html"]
    assert main([*args, "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert main(["report", "--config", str(config), "--week", "2026-06-01"]) == 2
    error = capsys.readouterr().err
    assert "no zh report is stored" in error and "run: prhub materialize" in error
    # Where materialize would make nothing, the error says why rather than suggesting it.
    assert main(["report", "--config", str(config), "--week", "2020-01-06"]) == 2
    assert "its history starts" in capsys.readouterr().err
    assert main(["report", "--config", str(config), "--week", "2999-01-07"]) == 2
    assert "the week has not ended yet" in capsys.readouterr().err
    # A repository taken out of the config keeps its stored reports readable.
    config.write_text(
        config.read_text(encoding="utf-8").replace("acme/widgets", "acme/gadgets"), "utf-8"
    )
    args = ["report", "--config", str(config), "--repo", "acme/widgets", "--week", "2026-05-11"]
    assert main(args) == 0
    assert "# acme/widgets" in capsys.readouterr().out
    assert main([*args[:-1], "2026-06-01"]) == 2
    assert (
        "no zh report is stored for acme/widgets week 2026-06-01, and 'acme/widgets' is not"
        " configured (configured: acme/gadgets)"
    ) in capsys.readouterr().err


def test_the_reports_names_of_modules_are_queryable(history: GitRepo, tmp_path: Path) -> None:
    """The tables and models held the modules' keys (vllm-ascend's `kv_pool`, verl's `ckpt`),
    the reports the repository's names for them (`KV Pool`, Checkpointing/检查点): a SQL user
    could not tell which row of the report a row of `weekly_module_trends` was. The names
    follow an edit of `modules.display_names` at the next run, of any week."""
    config = write_config(tmp_path, history.path)
    names = "{core: {en: Core engine, zh: 核心}}"
    with config.open("a", encoding="utf-8") as file:
        file.write(f"    modules:\n      display_names: {names}\n")
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]]
    assert main(args) == 0
    core_names = (
        "SELECT lang, display_name FROM display_names"
        " WHERE kind = 'module' AND name = 'core' ORDER BY lang"
    )
    assert stored(config, core_names) == [("en", "Core engine"), ("zh", "核心")]
    trends = stored(
        config,
        "SELECT display_name_en, display_name_zh, prs, previous_prs FROM weekly_module_trends"
        f" WHERE week_start = '{WEEKS[1]}'",
    )
    assert trends == [("Core engine", "核心", 3, 3)]
    english = (tmp_path / "reports" / "acme" / "widgets" / f"{WEEKS[1]}.en.md").read_text("utf-8")
    assert "| Core engine | module | 3 | 3 |" in english
    assert stored(
        config, "SELECT module_names_en, module_names_zh FROM pr_facts WHERE number = 104"
    ) == [(["Core engine"], ["核心"])]

    config.write_text(config.read_text(encoding="utf-8").replace(names, "{core: Kernel}"), "utf-8")
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    assert stored(config, core_names) == [("en", "Kernel"), ("zh", "Kernel")]


def test_the_models_modules_that_name_an_area_are_the_reports(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """AReaL titles PRs `[Feature] ...` (#53) and `[Fix] ...` (#63): the warehouse keeps the
    tags as modules, the reports leave them out of their trend tables, and its
    `weekly_module_trends` led with `feature` and `fix`, with nothing to tell a SQL user so.
    The modules the models say name an area are the report's table's."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    titles = ["[Feature] add widgets", "[Core] fix: a crash", "[Fix][Core] a leak"]
    number = 100
    for week in WEEKS[:2]:
        for hour, title in zip((9, 13, 17), titles, strict=True):
            number += 1
            git_repo.commit(
                f"{title} {number} (#{number})",
                f"{week}T{hour:02d}:00:00+08:00",
                {f"src/m{number}.py": f"{number}\n"},
            )
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]]
    assert main(args) == 0
    modules = stored(
        config,
        "SELECT module, display_name_en, is_area, prs, previous_prs FROM weekly_module_trends"
        f" WHERE week_start = '{WEEKS[1]}'",
    )
    assert modules == [
        ("core", "Core", True, 2, 2),
        ("feature", "Feature", False, 1, 1),
        ("fix", "Fix", False, 1, 1),
    ]
    english = (tmp_path / "reports" / "acme" / "widgets" / f"{WEEKS[1]}.en.md").read_text("utf-8")
    table_modules = re.findall(r"^\| (.+?) \| module \| (\d+) \| (\d+) \|", english, re.M)
    assert table_modules == [
        (name, str(prs), str(previous)) for _, name, area, prs, previous in modules if area
    ]
    assert stored(
        config, "SELECT number, modules, areas FROM pr_facts WHERE number > 103 ORDER BY number"
    ) == [(104, ["feature"], []), (105, ["core"], ["core"]), (106, ["core", "fix"], ["core"])]


def test_an_author_under_a_new_name_is_no_new_author(git_repo: GitRepo, tmp_path: Path) -> None:
    """verl's "NIE SHIYU" (#6135) had committed as "xiazhahe" from the same noreply address:
    `weekly_contributors` counted them as a new author and `author_activity` as two. Names
    that share an author_key are one person (`author_identities`)."""
    noreply = "86939755+xiazhahe@users.noreply.github.com"
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    for number, day, name, email in (
        # Who is new is known once the history reaches 12 weeks back, as in the report.
        (10, "2026-01-07", "Carol", "carol@example.com"),
        (1, "2026-05-05", "xiazhahe", noreply),
        (2, "2026-05-06", "Alice", "alice@example.com"),
        (3, "2026-05-12", "NIE SHIYU", noreply),
        (4, "2026-05-13", "Bob", "bob@example.com"),
        (5, "2026-05-14", "Alice", "alice@example.com"),
    ):
        git_repo.commit(
            f"[core] fix: change {number} (#{number})",
            f"{day}T10:00:00+08:00",
            {f"src/m{number}.py": f"{number}\n"},
            name,
            email,
        )
    config = write_config(tmp_path, git_repo.path, start="2026-01-05")
    args = ["materialize", "--config", str(config), "--week", "2026-01-05", "--through", WEEKS[1]]
    assert main(args) == 0
    rows = stored(
        config,
        "SELECT week_start::VARCHAR, authors, new_authors, new_author_names"
        f" FROM weekly_contributors WHERE week_start >= '{WEEKS[0]}' ORDER BY 1",
    )
    # A new author is named as they signed that week (as the report names them).
    assert rows == [("2026-05-04", 2, 2, ["Alice", "xiazhahe"]), ("2026-05-11", 3, 1, ["Bob"])]
    activity = stored(config, "SELECT author, prs FROM author_activity ORDER BY prs DESC, author")
    # The repository's first commit, pushed without a PR, is its author's: a row of no PRs.
    assert activity == [
        ("Alice", 2),
        ("NIE SHIYU", 2),
        ("Bob", 1),
        ("Carol", 1),
        ("Test Author", 0),
    ]
    keys = stored(config, "SELECT number, author_key FROM prs ORDER BY 1")
    assert keys == [
        (1, "xiazhahe"),
        (2, "alice@example.com"),
        (3, "xiazhahe"),
        (4, "bob@example.com"),
        (5, "alice@example.com"),
        (10, "carol@example.com"),
    ]
    # Before that, anyone could look new: the count is unknown.
    early = stored(config, "SELECT new_authors FROM weekly_contributors ORDER BY week_start")
    assert early[0] == (None,)


def test_every_pr_a_revert_of_several_undoes_is_stored_and_in_the_backlog(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A hand-written revert of two PRs: the git source reads no PR from its title, scoring
    finds both (`pr_reverts`), and `risk_backlog` says each was reverted."""
    commit_core_fixes(git_repo, [(101, "2026-05-11", None), (102, "2026-05-12", None)])
    git_repo.commit(
        "Revert the precompile PRs (#101, #102) to fix CI (#103)",
        "2026-05-13T10:00:00+08:00",
        {"src/m101.py": "", "src/m102.py": ""},
    )
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    assert stored(config, "SELECT count(*) FROM prs WHERE reverted_number IS NOT NULL") == [(0,)]
    assert stored(config, "SELECT number, reverted_number FROM pr_reverts ORDER BY 2") == [
        (103, 101),
        (103, 102),
    ]
    backlog = "SELECT DISTINCT number, reverted_by FROM risk_backlog WHERE number < 103 ORDER BY 1"
    assert stored(config, backlog) == [(101, 103), (102, 103)]
    facts = "SELECT number, reverts, reverted_by FROM pr_facts ORDER BY number"
    assert stored(config, facts) == [(101, [], 103), (102, [], 103), (103, [101, 102], None)]


def test_each_report_links_to_itself_where_the_reports_are_published(
    history: GitRepo, tmp_path: Path
) -> None:
    config = write_config(tmp_path, history.path, reports_url="https://reports.example.org/prhub/")
    assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    reports = tmp_path / "reports" / "acme" / "widgets"
    zh = (reports / "2026-05-11.zh.md").read_text(encoding="utf-8")
    en = (reports / "2026-05-11.en.html").read_text(encoding="utf-8")
    assert "原文链接：[https://reports.example.org/prhub/acme/widgets/2026-05-11.zh.html]" in zh
    assert 'href="https://reports.example.org/prhub/acme/widgets/2026-05-11.en.html"' in en


def test_a_run_sees_what_was_merged_since_the_bare_clone_was_made(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "widgets.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(history.path), str(bare)], check=True)
    history.commit("[core] fix: late (#200)", "2026-06-02T09:00:00+08:00", {"src/late.py": "1\n"})
    history.commit("hotfix straight on main", "2026-06-03T09:00:00+08:00", {"src/hot.py": "1\n"})
    config = write_config(tmp_path, bare)
    assert main(["materialize", "--config", str(config), "--week", "2026-06-01"]) == 0
    assert stored(config, "SELECT number FROM prs") == [(200,)]
    out = capsys.readouterr().out
    assert "raw_prs: 1 PR in 1 week(s); main fetched from origin: " in out
    assert "; 1 commit pushed without a PR, listed apart\n" in out
    assert "  module_labels: 1 PR: 1 by title, 0 without a module\n" in out
    assert stored(config, "SELECT week_start::VARCHAR, subject, author FROM pushed_commits") == [
        ("2026-06-01", "hotfix straight on main", "Test Author")
    ]
    report = stored(config, "SELECT markdown FROM weekly_reports WHERE lang = 'en'")[0][0]
    assert "; 1 commit pushed without a PR is listed at the end, not analysed" in str(report)
    assert "1 commit was pushed straight to the branch without a PR" in str(report)
    assert "| 2026-06-03 | Test Author | hotfix straight on main |" in str(report)
    zh = stored(config, "SELECT markdown FROM weekly_reports WHERE lang = 'zh'")[0][0]
    assert "另有 1 个未经 PR 直接推送的提交，列于文末，未作分析" in str(zh)
    index = (tmp_path / "reports" / "acme" / "widgets" / "index.html").read_text(encoding="utf-8")
    assert "未经 PR 推送的提交" in index
    assert "week 2026-06-01: 1 PR, 0 key, " in out


def test_a_history_without_prs_fails_the_ingest_and_says_why(
    git_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo.commit("fix(scheduler): defensive allocation", "2026-05-12T10:00:00+08:00")
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", "2026-05-11"]
    assert main(args) == 1
    out, err = capsys.readouterr()
    failure = "ingest failed: raw_prs: GitSourceError: acme/widgets: none of the 1 commits"
    assert f"  {failure}" in out
    # stderr is the error in one line, not Dagster's log repeating the traceback twice.
    [line] = err.splitlines()
    assert line.startswith(f"prhub: acme/widgets: {failure}")
    assert line.endswith("(--verbose shows Dagster's log and the traceback)")
    assert main([*args, "--verbose"]) == 1
    err = capsys.readouterr().err
    assert "STEP_FAILURE" in err and "Stack Trace" in err and "GitSourceError" in err


def test_an_empty_week_is_a_valid_partition(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), "--week", "2026-06-01"]) == 0
    assert stored(config, "SELECT count(*) FROM prs") == [(0,)]
    out = capsys.readouterr().out
    assert "  module_labels: 0 PRs: 0 without a module\n" in out
    # A working clone is not fetched: a week after its newest commit may be the clone's gap.
    assert (
        f"; the newest commit of HEAD in {history.path} is from 2026-05-25 09:00 UTC, before"
        " week(s) 2026-06-01: if the clone is out of date, update it and run them again\n"
    ) in out


@pytest.mark.parametrize(
    ("cut", "lost"),
    [
        # A `branch` of another line of history, here one cut before the stored weeks.
        ("HEAD~6", "2026-05-18 (3 of 3 stored, e.g. #107), 2026-05-25 (3 of 3 stored, e.g. #110)"),
        # A clone behind by a day: the week read in part (verl's 2026-05-11 went 43 -> 16 PRs).
        ("HEAD~1", "2026-05-25 (1 of 3 stored, e.g. #112)"),
    ],
)
def test_a_source_without_a_stored_weeks_prs_replaces_nothing(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    cut: str,
    lost: str,
) -> None:
    """A clone that lacks stored PRs of a week, whose merge commits are not on its branch:
    storing what it has would delete them and publish a report of part of the week or none."""
    config = write_config(tmp_path, history.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[2], "--through", WEEKS[3]]
    assert main(args) == 0
    before = stored(config, "SELECT week_start::VARCHAR, number FROM prs ORDER BY 2")
    reports = stored(config, "SELECT week_start::VARCHAR, markdown FROM weekly_reports")
    history.git("branch", "releases", cut)
    config.write_text(config.read_text(encoding="utf-8") + "    branch: releases\n", "utf-8")
    capsys.readouterr()
    assert main(args) == 1
    err = capsys.readouterr().err
    assert (
        f"SourceCheckError: acme/widgets: the clone lacks PRs stored for week(s) {lost}: their"
        f" merge commits are not on releases in {history.path}; refusing to replace them."
        " Update the clone (git fetch), or check the repository's `branch`, `git_path` or"
        " `name`. If the branch's history lost them upstream, delete the week's stored PRs"
        " (DELETE FROM prs WHERE repo = 'acme/widgets' AND week_start = '<week>') and run it"
        " again."
    ) in err
    assert stored(config, "SELECT week_start::VARCHAR, number FROM prs ORDER BY 2") == before
    assert stored(config, "SELECT week_start::VARCHAR, markdown FROM weekly_reports") == reports


def test_prs_the_github_source_stored_off_the_branch_do_not_hold_a_git_week(
    tmp_path: Path,
) -> None:
    """The github source searches every branch unless `branch` is set: its release-branch PRs
    are never on the clone's first-parent history, and refusing them would block the week for
    good. Only the git source's own PRs are held to the branch."""
    week = date(2026, 5, 11)
    on_branch = make_pr(1, merged_at=datetime(2026, 5, 12, tzinfo=UTC)).model_copy(
        update={"merge_commit_sha": "a" * 40, "repo": "acme/widgets"}
    )
    release = make_pr(2, merged_at=datetime(2026, 5, 13, tzinfo=UTC)).model_copy(
        update={"merge_commit_sha": "b" * 40, "source": "github", "repo": "acme/widgets"}
    )
    repo = load_settings(write_config(tmp_path, tmp_path)).repo("acme/widgets")
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", week, pr_tables(week, [on_branch, release]))
        refuse_losing(con, repo, {week: [on_branch]}, {"a" * 40})
        with pytest.raises(SourceCheckError, match=r"2026-05-11 \(1 of 1 stored, e.g. #1\)"):
            refuse_losing(con, repo, {week: []}, set())


def test_a_shallow_clone_is_refused_before_anything_is_read(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shallow clone's history ends at its cut: the weeks before it read fewer PRs or none."""
    shallow = tmp_path / "shallow.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", "--depth", "3", f"file://{history.path}", str(shallow)],
        check=True,
    )
    config = write_config(tmp_path, shallow)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[3]]) == 1
    assert (
        f"{shallow} is a shallow clone: the weeks before its cut would lose PRs; make it whole"
        f" first: git --git-dir={shallow} fetch --unshallow"
    ) in capsys.readouterr().err
    assert not (tmp_path / "warehouse" / "prhub.duckdb").exists()


def test_a_missing_clone_stops_only_its_own_repository(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second repository's clone not made yet failed loading the settings: every command,
    `prhub sql` included, and the Dagster code location for every repository."""
    config = write_config(tmp_path, history.path)
    missing = tmp_path / "data" / "other.git"
    add_git_repo(config, "acme/other", missing, "2026-05-04")
    assert {job.name for job in build_definitions(config).resolve_all_job_defs()} >= {WEEKLY_JOB}
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 1
    err = capsys.readouterr().err
    assert (
        f"acme/other: ingest failed: raw_prs: GitSourceError: git_path: no such directory {missing}"
        f" (clone the repository there first: git clone --bare https://github.com/acme/other"
        f" {missing})"
    ) in err
    assert stored(config, "SELECT repo, count(*) FROM prs GROUP BY 1") == [("acme/widgets", 3)]
    assert main(["sql", "--config", str(config), "SELECT count(*) AS n FROM weekly_reports"]) == 0


def test_ctrl_c_stops_the_whole_command_in_one_line(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during a repository's reports said `weekly_report: dagster._core.errors.
    DagsterExecutionInterruptedError`, then went on with the next repository, rc 1."""
    config = write_config(tmp_path, history.path)
    other = GitRepo(tmp_path / "other")
    commit_core_fixes(other, [(7, "2026-05-05", None)])
    add_git_repo(config, "acme/other", other.path, "2026-05-04")

    def ctrl_c(*_: object) -> list[object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis_assets, "report_weeks", ctrl_c)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 130
    out, err = capsys.readouterr()
    assert err == (
        "prhub: acme/widgets: interrupted during analysis (weekly_report); weeks it had not"
        " finished keep what was stored before: run the command again; not started:"
        " acme/other\n"
    )
    assert "acme/other:" not in out
    assert stored(config, "SELECT DISTINCT repo FROM prs") == [("acme/widgets",)]


def test_ctrl_c_outside_a_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write_config(tmp_path, tmp_path)

    def ctrl_c(*_: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("prhub_pipeline.cli.last_complete_week_now", ctrl_c)
    try:
        code = main(["materialize", "--config", str(config)])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C left main() as a traceback")
    assert code == 130
    assert capsys.readouterr().err == "prhub: interrupted\n"


def test_a_run_of_several_repositories_checks_every_clone_before_writing_any(
    history: GitRepo, tmp_path: Path
) -> None:
    """The UI runs a selection of three repositories and one week as one run: a wrong clone of
    the last one failed it after the first ones' weeks were replaced, leaving them unscored."""
    config = write_config(tmp_path, history.path)
    add_git_repo(config, "zeta/broken", tmp_path, "2026-05-04")
    job = build_definitions(config).resolve_job_def("weekly_report_job")
    first, last = (
        dg.MultiPartitionKey({"repo": repo, "week": WEEKS[1]})
        for repo in ("acme/widgets", "zeta/broken")
    )
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags={RANGE_START_TAG: str(first), RANGE_END_TAG: str(last)},
        raise_on_error=False,
    )
    assert not result.success
    (failure,) = [e for e in result.all_events if e.is_step_failure]
    assert f"{tmp_path} is not a git clone" in str(failure.step_failure_data.error)
    assert not (tmp_path / "warehouse" / "prhub.duckdb").exists()  # nothing was written


def test_a_run_waiting_for_the_warehouse_lock_says_so_in_its_event_log(
    history: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step waiting for another process's lock on the warehouse told only its stderr, which
    the UI keeps in the step's raw compute log: the run's event log showed "Started execution
    of step raw_prs" and nothing else for the 120 s before the step failed."""
    config = write_config(tmp_path, history.path)
    database = empty_warehouse(load_settings(config).database)
    monkeypatch.setattr(connection, "WAIT_NOTICE_SECONDS", 0.0)
    monkeypatch.setattr(connection, "WRITER_LOCK_SECONDS", 0.5)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import duckdb, time\ncon = duckdb.connect({str(database)!r})\n"
            "print('open', flush=True)\ntime.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    instance = dg.DagsterInstance.ephemeral()
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
        result = job.execute_in_process(
            instance=instance, tags=first_weeks_range_tags(), raise_on_error=False
        )
    finally:
        holder.kill()
        holder.wait()
    assert not result.success
    warnings = [
        entry.user_message
        for entry in instance.all_logs(result.run_id)
        if entry.dagster_event is None and entry.level == logging.WARNING
    ]
    waits = [message for message in warnings if message.startswith("waiting for the lock")]
    assert waits, warnings
    assert waits[0].startswith(f"waiting for the lock on {database} held by ")
    assert waits[0].endswith(f"(PID {holder.pid})")


def test_a_failed_run_names_the_repository_and_the_error_in_the_event_log(
    history: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git_path that is no directory failed the UI's run with Dagster's wrapper as its error,
    `Error occurred while executing op "raw_prs":` and a traceback: the GitSourceError was a
    cause below it, which the run's failure in the event log cut off behind "View full
    message"."""
    missing = tmp_path / "missing.git"
    config = write_config(tmp_path, missing)
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    result = job.execute_in_process(
        partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": WEEKS[1]}),
        instance=dg.DagsterInstance.ephemeral(),
        raise_on_error=False,
    )
    failed = [event for event in result.all_events if event.is_failure]
    errors = [
        event.step_failure_data.error if event.is_step_failure else event.job_failure_data.error
        for event in failed
    ]
    assert [event.event_type_value for event in failed] == ["STEP_FAILURE", "PIPELINE_FAILURE"]
    for error in errors:
        assert error is not None
        assert error.message.startswith(
            f"dagster._core.definitions.events.Failure: acme/widgets week {WEEKS[1]}:"
            f" GitSourceError: git_path: no such directory {missing} (clone the repository"
            " there first"
        )
    # A stage's error names the weeks of the run too.
    config = write_config(tmp_path, history.path)

    def locked(*_: object) -> list[object]:
        raise WarehouseLockedError("warehouse prhub.duckdb stayed locked by another process")

    monkeypatch.setattr(analysis_assets, "score_weeks", locked)
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(), tags=first_weeks_range_tags(), raise_on_error=False
    )
    (step,) = [event for event in result.all_events if event.is_step_failure]
    assert step.step_key == "importance_scores"
    assert step.step_failure_data.user_failure_data is not None
    assert step.step_failure_data.user_failure_data.description == (
        f"acme/widgets weeks {WEEKS[0]} to {WEEKS[1]}: WarehouseLockedError: warehouse"
        " prhub.duckdb stayed locked by another process"
    )
    # `prhub materialize` names the repository itself: it tells the error, not the Failure.
    assert _failure(result) == (
        "importance_scores: WarehouseLockedError: warehouse prhub.duckdb stayed locked by"
        " another process"
    )
    # A SQL model's error names the model.
    models = tmp_path / "models"
    models.mkdir()
    (models / "pr_typo.sql").write_text("SELECT numbr FROM {{ source('prs') }}", "utf-8")
    config = write_config(tmp_path, history.path, sql_models_dir="models")
    job = build_definitions(config).resolve_job_def("sql_models_job")
    result = job.execute_in_process(instance=dg.DagsterInstance.ephemeral(), raise_on_error=False)
    (step,) = [event for event in result.all_events if event.is_step_failure]
    assert step.step_failure_data.user_failure_data is not None
    description = step.step_failure_data.user_failure_data.description or ""
    assert description.startswith("SQL model pr_typo: SqlModelError: pr_typo.sql: ")
    assert "numbr" in description
    # So does the settings file, edited into an error after the UI loaded it.
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    config.write_text(config.read_text("utf-8") + "languag: en\n", "utf-8")
    result = job.execute_in_process(
        partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": WEEKS[1]}),
        instance=dg.DagsterInstance.ephemeral(),
        raise_on_error=False,
    )
    (step,) = [event for event in result.all_events if event.is_step_failure]
    assert step.step_failure_data.user_failure_data is not None
    description = step.step_failure_data.user_failure_data.description or ""
    assert description.startswith(f"settings: ConfigError: {config}:")
    assert "languag: unknown key" in description


def test_a_report_of_a_week_never_ingested_is_refused(history: GitRepo, tmp_path: Path) -> None:
    """weekly_report alone, from its asset page, for a week nobody ingested wrote a report
    saying that no PR was merged (verl's week of 2026-06-08), and the schedule, seeing a report,
    never read the week. A quiet week that was ingested is reported as before."""
    config = write_config(tmp_path, history.path)
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)

    def materialize(week: str, asset: str) -> dg.ExecuteInProcessResult:
        return job.execute_in_process(
            partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": week}),
            instance=dg.DagsterInstance.ephemeral(),
            asset_selection=[dg.AssetKey(asset)],
            raise_on_error=False,
        )

    refused = materialize(WEEKS[1], "weekly_report")
    (step,) = [event for event in refused.all_events if event.is_step_failure]
    assert step.step_failure_data.user_failure_data is not None
    assert step.step_failure_data.user_failure_data.description == (
        f"acme/widgets week {WEEKS[1]}: UnreadWeeksError: acme/widgets: week(s) {WEEKS[1]} never"
        " ingested, and their report would say that no PR was merged: materialize raw_prs for"
        " them first (the weekly assets from raw_prs on, or prhub materialize)"
    )
    assert stored(config, "SELECT count(*) FROM weekly_reports") == [(0,)]
    assert not list((tmp_path / "reports").rglob("*.md"))
    # The stages before it refuse the week too, storing nothing (they stored empty labels and
    # scores, dated as if the week were analysed).
    for asset in ("module_labels", "importance_scores"):
        assert not materialize(WEEKS[1], asset).success
    assert stored(config, "SELECT count(*) FROM week_stages") == [(0,)]
    # 2026-06-01 has no PR: ingested, it is a quiet week to report.
    assert materialize("2026-06-01", "raw_prs").success
    assert materialize("2026-06-01", "weekly_report").success
    assert stored(config, "SELECT week_start::VARCHAR, pr_count FROM weekly_reports") == [
        ("2026-06-01", 0),
        ("2026-06-01", 0),
    ]


def test_a_range_run_dagster_narrowed_to_its_first_week_fails_instead_of_storing_one(
    history: GitRepo, tmp_path: Path
) -> None:
    """A backfill from Jobs > weekly_report_job > Partitions tags each range run with its first
    partition as well (dagster-io/dagster#17404), and Dagster then gives the run that partition
    alone: it stored the first week, skipped the others and succeeded."""
    config = write_config(tmp_path, history.path)
    job = build_definitions(config).resolve_job_def("weekly_report_job")
    tags = first_weeks_range_tags()
    first, last = tags[RANGE_START_TAG], tags[RANGE_END_TAG]
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags={
            **tags,
            "dagster/partition/repo": "acme/widgets",
            "dagster/partition/week": WEEKS[0],
        },
        raise_on_error=False,
    )
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert f"this run is for {first} to {last}, but Dagster gives it only {first}" in str(
        failure.step_failure_data.user_failure_data or failure.step_failure_data.error
    )
    assert not result.get_asset_materialization_events()


def refused_after_editing(
    config: Path, weeks: list[str], old: str, new: str, capsys: pytest.CaptureFixture[str]
) -> str:
    """Materialize the weeks, replace `old` by `new` in the config and run them again: that
    run fails and changes no stored PR. Returns its stderr."""
    args = ["materialize", "--config", str(config), *weeks]
    assert main(args) == 0
    before = stored(config, "SELECT repo, week_start::VARCHAR, number FROM prs ORDER BY 3")
    config.write_text(config.read_text(encoding="utf-8").replace(old, new), "utf-8")
    capsys.readouterr()
    assert main(args) == 1
    assert stored(config, "SELECT repo, week_start::VARCHAR, number FROM prs ORDER BY 3") == before
    return capsys.readouterr().err


def test_weeks_stored_under_another_timezone_are_not_rekeyed(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each week's PRs merged Monday 09:00 in Shanghai, Sunday evening in Los Angeles: after
    the `timezone` changed, a run lost the PRs that moved to another week (rc 0), or failed
    on a duplicate key."""
    config = write_config(tmp_path, history.path)
    weeks = ["--week", WEEKS[1], "--through", WEEKS[2]]
    err = refused_after_editing(config, weeks, "Asia/Shanghai", "America/Los_Angeles", capsys)
    assert (
        "SourceCheckError: acme/widgets: 4 stored PRs are in other weeks by America/Los_Angeles's"
        " Mondays than the weeks they were stored in (#104, merged 2026-05-11 01:00 UTC, is in"
        " the week of 2026-05-11): the weeks were stored with another `timezone`."
    ) in err


def test_a_repository_renamed_in_the_config_is_not_stored_twice(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """verl renamed in the config stored its 86 PRs under each name, rc 0."""
    config = write_config(tmp_path, history.path)
    err = refused_after_editing(
        config, ["--week", WEEKS[1]], "acme/widgets", "acme/gadgets", capsys
    )
    assert (
        "SourceCheckError: acme/gadgets: 3 of its PRs (e.g. #104) are stored under acme/widgets"
        " already, with the same merge commits: the same repository under another name."
    ) in err


def test_a_renamed_repository_moves_its_weeks_to_its_new_name(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub searches a renamed repository under its new name only (verl: volcengine/verl, now
    verl-project/verl), and the new name was refused while weeks were stored under the old one
    ("Keep the name acme/widgets"): a repository GitHub renamed could be run under neither."""
    config = write_config(tmp_path, history.path)
    assert (
        main(["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]])
        == 0
    )
    count_rows = (
        "SELECT repo, (SELECT count(*) FROM prs p WHERE p.repo = r.repo),"
        " (SELECT count(*) FROM pr_scores s WHERE s.repo = r.repo),"
        " (SELECT count(*) FROM weekly_reports w WHERE w.repo = r.repo)"
        " FROM (SELECT DISTINCT repo FROM prs) r"
    )
    assert stored(config, count_rows) == [("acme/widgets", 6, 6, 4)]
    renamed = config.read_text("utf-8").replace("name: acme/widgets", "name: acme/gadgets")
    config.write_text(renamed, "utf-8")
    capsys.readouterr()
    assert main(["materialize", "--config", str(config), "--week", WEEKS[2]]) == 1
    assert (
        "If acme/widgets was renamed acme/gadgets, add `former_names: [acme/widgets]` to"
        " acme/gadgets's entry: its weeks move to the new name."
    ) in capsys.readouterr().err
    config.write_text(
        renamed.replace(
            "name: acme/gadgets\n", "name: acme/gadgets\n    former_names: [acme/widgets]\n"
        ),
        "utf-8",
    )
    assert main(["materialize", "--config", str(config), "--week", WEEKS[2]]) == 0
    assert (
        f"2 weeks stored under acme/widgets ({WEEKS[0]} .. {WEEKS[1]}) moved to acme/gadgets"
    ) in capsys.readouterr().out
    assert stored(config, count_rows) == [("acme/gadgets", 9, 9, 6)]
    with duckdb.connect(str(load_settings(config).database), read_only=True) as con:
        tables = con.execute(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'repo'"
        ).fetchall()
        for (table,) in tables:
            assert con.execute(
                f"SELECT count(*) FROM {table} WHERE repo = 'acme/widgets'"
            ).fetchall() == [(0,)], table
    assert main(["materialize", "--config", str(config), "--week", WEEKS[2]]) == 0  # moved once


def test_a_week_after_a_clone_that_failed_to_update_is_refused(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fetch before the run failed, so a week after the clone's newest commit may hold
    merges the clone lacks: its report would say that no PR was merged."""
    bare = tmp_path / "widgets.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(history.path), str(bare)], check=True)
    config = write_config(tmp_path, bare)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[-1]]) == 0
    gone = tmp_path / "gone"
    subprocess.run(
        ["git", f"--git-dir={bare}", "remote", "set-url", "origin", str(gone)], check=True
    )
    capsys.readouterr()
    assert main(["materialize", "--config", str(config), "--week", "2026-06-01"]) == 1
    err = capsys.readouterr().err
    assert (
        f"SourceCheckError: acme/widgets: the newest commit of HEAD in {bare} is from"
        " 2026-05-25 09:00 UTC, before week(s) 2026-06-01, and fetching main from origin failed"
    ) in err
    assert "run again once it can" in err
    assert stored(config, "SELECT DISTINCT week_start::VARCHAR FROM prs") == [(WEEKS[-1],)]
    assert stored(config, "SELECT DISTINCT week_start::VARCHAR FROM weekly_reports") == [
        (WEEKS[-1],)
    ]


def test_definitions_load_and_checks_pass(history: GitRepo, tmp_path: Path) -> None:
    config = write_config(tmp_path, history.path)
    definitions = build_definitions(config)
    # Every check says in the UI what it checks and what its failing does.
    specs = [
        spec
        for assets in definitions.assets or []
        if isinstance(assets, dg.AssetsDefinition)
        for spec in assets.check_specs
    ]
    assert len(specs) == 9 and all(spec.description for spec in specs)
    job = definitions.resolve_job_def("weekly_report_job")
    key = dg.MultiPartitionKey({"repo": "acme/widgets", "week": "2026-05-11"})
    result = job.execute_in_process(partition_key=key, instance=dg.DagsterInstance.ephemeral())
    assert result.success
    evaluations = result.get_asset_check_evaluations()
    assert {e.check_name for e in evaluations} >= {"no_duplicate_prs", "prs_inside_their_week"}
    assert all(e.passed for e in evaluations)
    materialization = result.asset_materializations_for_node("raw_prs")[0]
    assert materialization.metadata["pr_count"].value == 3
    assert materialization.metadata["pushed_commits"].value == 0
    assert "2026-05-11T00:00:00+08:00" in str(materialization.metadata["window_local"].value)
    assert "2026-05-10T16:00:00+00:00" in str(materialization.metadata["window_utc"].value)
    [report] = result.asset_materializations_for_node("weekly_report")
    assert report.metadata["pr_count"].value == 3
    assert {"report", "key_pr_count", "risk_flags"} <= set(report.metadata)
    html = report.metadata["file_en_html"].value
    assert str(html).endswith("acme/widgets/2026-05-11.en.html") and Path(str(html)).is_file()
    assert {"file_zh_md", "file_zh_html", "file_en_md", "file_index"} <= set(report.metadata)
    assert "file_html" not in report.metadata


def test_the_sql_models_are_refreshed_after_each_weekly_run(
    history: GitRepo, tmp_path: Path
) -> None:
    """The schedule's runs never refreshed the SQL models: `weekly_contributors` left out every
    author first seen since the last `prhub materialize`."""
    definitions = build_definitions(write_config(tmp_path, history.path))
    sensor = definitions.resolve_sensor_def("sql_models_after_weekly_runs")
    instance = dg.DagsterInstance.ephemeral()
    weekly = definitions.resolve_job_def("weekly_report_job").execute_in_process(
        partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": "2026-05-11"}),
        instance=instance,
    )
    models = definitions.resolve_job_def("sql_models_job").execute_in_process(instance=instance)
    assert weekly.success and models.success

    def evaluate(result: dg.ExecuteInProcessResult) -> object:
        context = dg.build_run_status_sensor_context(
            sensor_name=sensor.name,
            dagster_event=result.get_run_success_event(),
            dagster_instance=instance,
            dagster_run=result.dagster_run,
            repository_def=definitions.get_repository_def(),
        )
        return sensor(context)

    request = evaluate(weekly)
    assert isinstance(request, dg.RunRequest) and request.run_key == weekly.run_id
    assert isinstance(evaluate(models), dg.SkipReason)  # its own runs start none
    # `prhub materialize` refreshes the models at its end: its runs start none either.
    by_cli = definitions.resolve_job_def("weekly_report_job").execute_in_process(
        partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": "2026-05-11"}),
        instance=instance,
        tags={CLI_PID_TAG: "4242"},
    )
    assert isinstance(evaluate(by_cli), dg.SkipReason)
    # A refresh not started yet reads this run's data too: a backfill queues one, not one a run.
    instance.add_run(dg.DagsterRun(job_name="sql_models_job", run_id="waiting-refresh"))
    skipped = evaluate(weekly)
    assert isinstance(skipped, dg.SkipReason)
    assert "run waiting-refresh of sql_models_job has not started yet" in str(skipped.skip_message)


def test_a_week_before_a_repositorys_start_stores_nothing(history: GitRepo, tmp_path: Path) -> None:
    """The week dimension starts with the earliest repository's `start`; a run of another
    repository's earlier week stored its PRs and wrote a report `prhub materialize` refuses."""
    config = write_config(tmp_path, history.path)
    add_git_repo(config, "acme/later", history.path, "2026-05-18")
    args = ["materialize", "--config", str(config), "--repo", "acme/widgets", "--week", WEEKS[1]]
    assert main(args) == 0
    job = build_definitions(config).resolve_job_def("weekly_report_job")
    key = dg.MultiPartitionKey({"repo": "acme/later", "week": WEEKS[1]})
    result = job.execute_in_process(partition_key=key, instance=dg.DagsterInstance.ephemeral())
    assert result.success
    assert stored(config, "SELECT DISTINCT repo FROM prs") == [("acme/widgets",)]
    assert stored(config, "SELECT DISTINCT repo FROM weekly_reports") == [("acme/widgets",)]
    assert not (tmp_path / "reports" / "acme" / "later").exists()


def test_schedule_targets_the_previous_complete_week(history: GitRepo, tmp_path: Path) -> None:
    config = write_config(tmp_path, history.path)
    settings = load_settings(config)
    # Monday 06:00 in Shanghai is Sunday 22:00 UTC: the week that just ended is 05-11.
    monday_morning = datetime(2026, 5, 17, 22, 0, tzinfo=UTC)
    requests = weekly_run_requests(settings, monday_morning, lambda *_: [])
    assert [r.partition_key for r in requests] == ["acme/widgets|2026-05-11"]
    assert [r.run_key for r in requests] == ["acme/widgets|2026-05-11|2026-05-17"]
    definitions = build_definitions(config)
    schedule = definitions.resolve_schedule_def("weekly_report_schedule")
    assert schedule.cron_schedule == "0 6 * * 1"
    assert schedule.execution_timezone == "Asia/Shanghai"
    context = dg.build_schedule_context(
        scheduled_execution_time=monday_morning,
        repository_def=definitions.get_repository_def(),
    )
    data = schedule.evaluate_tick(context)
    # No warehouse yet: the week before, since the repository's start, has no report either.
    assert requested(data.run_requests or []) == ["acme/widgets|2026-05-04..2026-05-11"]


def test_the_classifier_schedule_waits_for_a_warehouse(history: GitRepo, tmp_path: Path) -> None:
    """On a new install the classifier's Monday tick, an hour before the weekly run that stores
    the first weeks, launched a run that failed: the warehouse did not exist yet."""
    config = write_config(tmp_path, history.path)
    definitions = build_definitions(config)
    schedule = definitions.resolve_schedule_def("module_classifier_schedule")
    assert schedule.cron_schedule == "0 5 * * 1"
    context = dg.build_schedule_context(
        scheduled_execution_time=datetime(2026, 5, 17, 21, 0, tzinfo=UTC),
        repository_def=definitions.get_repository_def(),
    )
    first = schedule.evaluate_tick(context)
    assert not first.run_requests
    assert first.skip_message is not None
    assert first.skip_message.startswith(f"no warehouse yet ({tmp_path / 'warehouse'}")
    empty_warehouse(load_settings(config).database)
    (request,) = schedule.evaluate_tick(context).run_requests or []
    assert request.partition_key == "acme/widgets"


def requested(requests: Sequence[dg.RunRequest]) -> list[str]:
    """Each request's partition, or its range of weeks: `repo|first..last`."""
    return [
        r.partition_key or f"{r.tags[RANGE_START_TAG]}..{r.tags[RANGE_END_TAG].partition('|')[2]}"
        for r in requests
    ]


def test_the_schedule_asks_again_for_recent_weeks_left_without_a_report(
    history: GitRepo, tmp_path: Path
) -> None:
    """A run that failed (a fetch that timed out) or a tick the daemon missed left a week
    without its report: the next tick asks for it, however long ago since the start."""
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    settings = load_settings(config)
    monday_morning = datetime(2026, 5, 31, 22, 0, tzinfo=UTC)  # after the week of 05-25
    requests = weekly_run_requests(settings, monday_morning)
    # The weeks after the stored one are one run, as a backfill of them.
    assert requested(requests) == [
        "acme/widgets|2026-05-04",
        "acme/widgets|2026-05-18..2026-05-25",
    ]
    # Five weeks later the daemon is back: still every week since the start.
    july = datetime(2026, 7, 5, 22, 0, tzinfo=UTC)  # after the week of 06-29
    assert requested(weekly_run_requests(settings, july)) == [
        "acme/widgets|2026-05-04",
        "acme/widgets|2026-05-18..2026-06-29",
    ]
    # A warehouse of an older version, before any run migrated it: no late weeks to read.
    with connect(settings.database) as con:
        con.execute("DROP TABLE late_prs")
    assert len(weekly_run_requests(settings, july)) == 2
    # The warehouse held by a long run: only the latest week, and the log says why.
    said: list[str] = []

    def locked(*_: object) -> list[date]:
        raise WarehouseLockedError("warehouse stayed locked")

    def unasked(*_: object) -> list[StaleWeek]:
        raise AssertionError("the lock waited for a second time")

    requests = weekly_run_requests(settings, monday_morning, locked, said.append, unasked)
    assert [r.partition_key for r in requests] == ["acme/widgets|2026-05-25"]
    assert said == [
        "acme/widgets: earlier weeks not checked for missing reports or stale analyses:"
        " warehouse stayed locked"
    ]


def test_a_pr_pushed_after_its_week_was_read_gets_the_week_run_again(
    git_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A maintainer's merge committed on Sunday night and pushed on Monday, after the week
    was read, was in no report ever: the next run of a later week notices the PR the stored
    week lacks, and the schedule runs that week again."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None), (102, "2026-05-06", None)])
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    git_repo.commit("[core] fix: late (#200)", "2026-05-10T23:50:00+08:00", {"src/late.py": "1\n"})
    git_repo.commit("[core] fix: next (#104)", "2026-05-12T10:00:00+08:00", {"src/n.py": "1\n"})
    capsys.readouterr()
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    said = capsys.readouterr().out
    assert "acme/widgets: the clone has PRs that stored weeks lack" in said
    assert "2026-05-04 lacks #200" in said
    settings = load_settings(config)
    with connect(settings.database, read_only=True) as con:
        rows = con.execute("SELECT week_start, number FROM late_prs").fetchall()
    assert rows == [(date(2026, 5, 4), 200)]
    monday_morning = datetime(2026, 5, 17, 22, 0, tzinfo=UTC)  # after the week of 05-11
    requests = weekly_run_requests(settings, monday_morning)
    assert requested(requests) == ["acme/widgets|2026-05-04..2026-05-11"]
    # Ingested alone, the week's stored report still lacks the PR: it stays late.
    ingest_only = build_definitions(config).resolve_job_def("weekly_report_job")
    assert ingest_only.execute_in_process(
        partition_key=dg.MultiPartitionKey({"repo": "acme/widgets", "week": WEEKS[0]}),
        instance=dg.DagsterInstance.ephemeral(),
        asset_selection=[dg.AssetKey("raw_prs")],
    ).success
    assert stored(config, "SELECT week_start, number FROM late_prs") == rows
    # Run again, the week has its PR and nothing is late any more.
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    with connect(settings.database, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM late_prs").fetchone() == (0,)
        numbers = con.execute("SELECT number FROM prs WHERE week_start = ?", [date(2026, 5, 4)])
        assert 200 in {n for (n,) in numbers.fetchall()}
    requests = weekly_run_requests(settings, monday_morning)
    assert [r.partition_key for r in requests] == ["acme/widgets|2026-05-11"]


def test_weeks_a_range_ingest_failing_partway_left_unanalysed_are_analysed_again_by_the_schedule(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A range run that stored its first weeks' PRs and failed at a later one (a GitHub fetch
    timing out) left those weeks' scores and reports telling the PRs stored before: 2026-05-11
    stored #102 and #104, scored and reported #102 alone, and the schedule asked for nothing
    (it has a report), so it stayed so until someone ran that week by hand."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None), (102, "2026-05-12", None)])
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config)]
    assert main([*args, "--week", WEEKS[0], "--through", WEEKS[1]]) == 0
    git_repo.commit("[core] fix: late (#104)", "2026-05-13T10:00:00+08:00", {"src/l.py": "1\n"})
    git_repo.commit("[core] fix: next (#103)", "2026-05-19T10:00:00+08:00", {"src/n.py": "1\n"})
    store = ingest_stage.replace_partition

    def fails_at_the_third_week(
        con: duckdb.DuckDBPyConnection, repo: str, week: date, tables: Any
    ) -> dict[str, int]:
        if week == date.fromisoformat(WEEKS[2]):
            raise WarehouseError("the source failed at the third week")
        return store(con, repo, week, tables)

    monkeypatch.setattr(ingest_stage, "replace_partition", fails_at_the_third_week)
    assert main([*args, "--week", WEEKS[0], "--through", WEEKS[2]]) == 1
    monkeypatch.undo()
    week = "week_start = '2026-05-11'"
    counts = (
        f"SELECT (SELECT count(*) FROM prs WHERE {week}), (SELECT count(*) FROM pr_scores WHERE"
        f" {week}), (SELECT max(pr_count) FROM weekly_reports WHERE {week})"
    )
    assert stored(config, counts) == [(2, 1, 1)]
    settings = load_settings(config)
    repo = settings.repo("acme/widgets")
    stale = report_stage.weeks_to_analyse_again(
        settings, repo, [date(2026, 5, 4), date(2026, 5, 11)]
    )
    assert [w.week_start for w in stale] == [date(2026, 5, 4), date(2026, 5, 11)]
    assert all(", after its report (" in w.reason for w in stale), stale
    assert stale[0].reason.startswith("PRs stored ")
    # The schedule analyses both again from the stored PRs (no source read), before the week
    # without a report is run whole.
    monday_morning = datetime(2026, 5, 24, 22, 0, tzinfo=UTC)  # after the week of 05-18
    said: list[str] = []
    requests = weekly_run_requests(settings, monday_morning, log=said.append)
    assert requested(requests) == ["acme/widgets|2026-05-04..2026-05-11", "acme/widgets|2026-05-18"]
    again, latest = requests
    assert again.asset_selection == [
        dg.AssetKey(name)
        for name in ("review_threads", "module_labels", "importance_scores", "weekly_report")
    ]
    assert again.run_key == "acme/widgets|2026-05-04..2026-05-11|analysis|2026-05-24"
    assert latest.asset_selection is None
    assert said == [
        "acme/widgets: 2 earlier week(s) whose analysis is older than their stored PRs, analysed"
        f" again from them: 2026-05-04 ({stale[0].reason}); 2026-05-11 ({stale[1].reason})"
    ]
    # Launched as the daemon launches the tick's requests, the warehouse agrees again.
    definitions = build_definitions(config)
    tick = definitions.resolve_schedule_def("weekly_report_schedule").evaluate_tick(
        dg.build_schedule_context(
            scheduled_execution_time=monday_morning,
            repository_def=definitions.get_repository_def(),
        )
    )
    job = definitions.resolve_job_def(WEEKLY_JOB)
    instance = dg.DagsterInstance.ephemeral()
    summaries = []
    for request in tick.run_requests or []:
        result = job.execute_in_process(
            instance=instance,
            partition_key=request.partition_key,
            tags=request.tags,
            asset_selection=request.asset_selection,
        )
        assert result.success
        summaries.append(str(result.asset_materializations_for_node("weekly_report")[0].metadata))
    assert "analysed again from the stored PRs: 2026-05-04 (PRs stored " in summaries[0]
    assert "analysed again" not in summaries[1]
    assert stored(config, counts) == [(2, 2, 2)]
    everything = [date.fromisoformat(week) for week in WEEKS[:3]]
    assert report_stage.weeks_to_analyse_again(settings, repo, everything) == []
    assert requested(weekly_run_requests(settings, monday_morning)) == ["acme/widgets|2026-05-18"]


def test_a_week_whose_analysis_was_killed_is_analysed_again_by_the_next_materialize(
    git_repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A materialize stopped between a week's ingest and its scores left #104 stored and in
    no score or report; materializing the next week kept it so, and its report compared
    itself with the week's stale counts."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None), (102, "2026-05-12", None)])
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config)]
    assert main([*args, "--week", WEEKS[0], "--through", WEEKS[1]]) == 0
    git_repo.commit("[core] fix: late (#104)", "2026-05-13T10:00:00+08:00", {"src/l.py": "1\n"})
    git_repo.commit("[core] fix: next (#103)", "2026-05-19T10:00:00+08:00", {"src/n.py": "1\n"})

    def killed(*_: object) -> list[object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis_assets, "score_weeks", killed)
    assert main([*args, "--week", WEEKS[1]]) == 130
    monkeypatch.undo()
    settings = load_settings(config)
    repo = settings.repo("acme/widgets")
    [stale] = report_stage.weeks_to_analyse_again(settings, repo, [date(2026, 5, 11)])
    assert stale.reason.startswith("PRs stored ") and ", after its report (" in stale.reason
    # A week stored before the stage times were kept is found by its PRs: #104 has no score.
    with connect(settings.database) as con:
        con.execute("CREATE TEMP TABLE kept AS SELECT * FROM week_stages")
        con.execute("DELETE FROM week_stages")
        [unstamped] = stale_weeks(con, "acme/widgets", date(2026, 5, 4), date(2026, 5, 11))
        assert unstamped.reason == "1 of its 2 PRs stored not scored"
        con.execute("INSERT INTO week_stages SELECT * FROM kept")
    capsys.readouterr()
    assert main([*args, "--week", WEEKS[2]]) == 0
    out = capsys.readouterr().out
    assert (
        "  1 earlier week whose analysis is older than their stored PRs, analysed again from"
        f" them: 2026-05-11 ({stale.reason})"
    ) in out
    assert "analysed again from the stored PRs: 2026-05-11 (" in out
    week = "week_start = '2026-05-11'"
    assert stored(
        config,
        f"SELECT (SELECT count(*) FROM pr_scores WHERE {week}),"
        f" (SELECT max(pr_count) FROM weekly_reports WHERE {week})",
    ) == [(2, 2)]
    report = stored(config, f"SELECT markdown FROM weekly_reports WHERE {week} AND lang = 'en'")
    assert "#104" in str(report[0][0])
    assert report_stage.weeks_to_analyse_again(settings, repo, [date(2026, 5, 11)]) == []
    # Nothing left to analyse again: the next run says nothing of it.
    assert main([*args, "--week", WEEKS[2]]) == 0
    assert "analysed again" not in capsys.readouterr().out


def test_a_stored_pr_the_clone_dates_otherwise_now_keeps_its_week(
    git_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A merge committed with an older date than the one before it made `landing_times` date
    the stored #102 back into the week before: that week's late PRs named #102, and running
    the week again failed on a duplicate key (#102 is stored in 2026-05-11)."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None), (102, "2026-05-12", None)])
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config)]
    assert main([*args, "--week", WEEKS[0], "--through", WEEKS[1]]) == 0
    git_repo.commit("[core] fix: old date (#103)", "2026-05-08T10:00:00+08:00", {"s/c.py": "1\n"})
    git_repo.commit("[core] fix: next (#104)", "2026-05-19T10:00:00+08:00", {"s/d.py": "1\n"})
    capsys.readouterr()
    assert main([*args, "--week", WEEKS[2]]) == 0
    assert "2026-05-04 lacks #103;" in capsys.readouterr().out
    assert main([*args, "--week", WEEKS[0]]) == 0
    weeks = "SELECT number, week_start::VARCHAR FROM prs ORDER BY number"
    expected = [(101, WEEKS[0]), (102, WEEKS[1]), (103, WEEKS[0]), (104, WEEKS[2])]
    assert stored(config, weeks) == expected
    assert stored(config, "SELECT count(*) FROM late_prs") == [(0,)]


def test_a_week_run_again_keeps_a_stored_pr_the_clone_dates_far_from_it(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Two later merges dated back to March made `landing_times` date the stored #102 there,
    outside what a run of its week reads: the run replaced the week without it, rc 0."""
    commit_core_fixes(git_repo, [(101, "2026-03-02", None), (102, "2026-05-12", None)])
    config = write_config(tmp_path, git_repo.path, start="2026-03-02")
    args = ["materialize", "--config", str(config), "--week", WEEKS[1]]
    assert main(args) == 0
    for number, day in ((103, "03"), (104, "04")):
        git_repo.commit(
            f"[core] fix: dated back (#{number})",
            f"2026-03-{day}T10:00:00+08:00",
            {f"s/{number}.py": "1\n"},
        )
    assert main(args) == 0
    assert stored(config, "SELECT number, merged_at FROM prs WHERE number = 102") == [
        (102, datetime(2026, 5, 12, 2, 0, tzinfo=UTC))
    ]


def test_a_weeks_report_tells_the_repositorys_subject_as_of_the_weeks_end(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """vllm-ascend's first week's report named NPU/Ascend its subject on the 1,153 PRs stored
    since: a report must read the same whenever it is written."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    for number in range(101, 221):
        first = number <= 120
        npu = number % 4 != 0 if first else number % 10 != 0
        day = date(2026, 5, 5) if first else date(2026, 5, 12)
        minute = number % 60
        git_repo.commit(
            f"[core] feat: {'npu ' if npu else ''}kernel {number} (#{number})",
            f"{day.isoformat()}T1{number % 10}:{minute:02d}:00+08:00",
            {f"src/k{number}.py": f"{number}\n"},
        )
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]]
    assert main(args) == 0
    reports = tmp_path / "reports" / "acme" / "widgets"
    first_week = (reports / f"{WEEKS[0]}.en.md").read_text(encoding="utf-8")
    second_week = (reports / f"{WEEKS[1]}.en.md").read_text(encoding="utf-8")
    assert "is not counted as a theme" not in first_week  # 20 PRs: too few to tell
    assert "| NPU/Ascend | theme |" in first_week
    assert "NPU/Ascend is not counted as a theme" in second_week


def test_last_weeks_count_is_of_its_stored_prs_though_its_report_left_the_theme_out(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """verl's 2025-01-27 left Performance out, its `perf` tag then on 5 of its 6 PRs, and
    2025-02-03, where it was no longer left out, read "Performance | 1 | 0" of a week that had
    1 Performance PR: last week is counted from its stored PRs, as this week is, and agrees
    with weekly_trends. A week reported again reads the same."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    titles = {
        101: ("2026-05-05", "[perf] feat: cache the block table"),  # the tag on both: left out
        102: ("2026-05-06", "[perf] fix: reuse the send buffers"),
        103: ("2026-05-12", "[core] feat: faster weight loading"),  # 2 tagged of 5: a theme
        104: ("2026-05-13", "[core] feat: speed up the sampler"),
        105: ("2026-05-14", "[core] fix: lower the rollout latency"),
    }
    for number, (day, title) in titles.items():
        git_repo.commit(
            f"{title} (#{number})", f"{day}T10:00:00+08:00", {f"src/m{number}.py": f"{number}\n"}
        )
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]]
    assert main(args) == 0
    # The first report left the theme out, as its `perf` module tells it.
    themes = "SELECT week_start::VARCHAR, name FROM weekly_counts WHERE kind = 'theme'"
    assert stored(config, themes) == [(WEEKS[1], "Performance")]
    report = tmp_path / "reports" / "acme" / "widgets" / f"{WEEKS[1]}.en.md"
    first = report.read_text(encoding="utf-8")
    assert "| Performance | theme | 3 | 2 | \\+1 |" in first
    assert stored(
        config,
        "SELECT prs, previous_prs, change FROM weekly_theme_trends"
        f" WHERE week_start = '{WEEKS[1]}' AND theme = 'Performance'",
    ) == [(3, 2, 1)]
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    assert report.read_text(encoding="utf-8") == first


def test_partitions_run_in_parallel_processes(history: GitRepo, tmp_path: Path) -> None:
    """Four processes write four partitions of one DuckDB file at once; every row lands."""
    config = write_config(tmp_path, history.path)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("DAGSTER_HOME", None)
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "prhub_pipeline.cli",
                "materialize",
                "--config",
                str(config),
                "--week",
                week,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for week in WEEKS
    ]
    outputs = [process.communicate(timeout=300) for process in processes]
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, out + err
    rows = stored(config, "SELECT week_start::VARCHAR, count(*) FROM prs GROUP BY 1 ORDER BY 1")
    assert rows == [(week, 3) for week in WEEKS]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--repo", "acme/nope", "--week", "2026-05-11"],
            "repository 'acme/nope' is not configured",
        ),
        (["--week", "2026-05-11", "--through", "2026-05-04"], "is before --week"),
        (["--week", "2999-01-07"], "has not ended yet"),
    ],
)
def test_materialize_errors_are_one_line(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_sql_prints_a_table(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    capsys.readouterr()
    assert main(["sql", "--config", str(config), "SELECT number FROM prs ORDER BY 1"]) == 0
    out = capsys.readouterr().out
    assert "104" in out and "106" in out and "(3 rows)" in out
    assert main(["sql", "--config", str(config), "SELECT * FROM nope"]) == 2
    assert "query failed" in capsys.readouterr().err


def test_a_failed_step_is_told_by_the_first_error_that_is_not_dagsters() -> None:
    """The innermost cause dropped our context: "ConstraintException: Duplicate key ..."
    without "writing partition ... failed, nothing was changed"."""
    duckdb_error = SerializableErrorInfo(
        "_duckdb.ConstraintException: Constraint Error: Duplicate key\n", [], "ConstraintException"
    )
    ours = SerializableErrorInfo(
        "prhub_pipeline.warehouse.connection.WarehouseError: writing partition acme/widgets"
        " 2026-05-11 failed, nothing was changed: Constraint Error: Duplicate key\n",
        [],
        "WarehouseError",
        cause=duckdb_error,
    )
    wrapper = SerializableErrorInfo(
        "dagster._core.errors.DagsterExecutionStepExecutionError: Error occurred while"
        ' executing op "raw_prs":\n',
        [],
        "DagsterExecutionStepExecutionError",
        cause=ours,
    )
    failed = SimpleNamespace(
        is_step_failure=True,
        step_key="raw_prs",
        step_failure_data=SimpleNamespace(error=wrapper),
    )
    assert _failure(SimpleNamespace(all_events=[failed])) == (  # type: ignore[arg-type]
        "raw_prs: WarehouseError: writing partition acme/widgets 2026-05-11 failed, nothing was"
        " changed: Constraint Error: Duplicate key"
    )


def test_output_piped_into_head_is_no_failure(tmp_path: Path) -> None:
    """`prhub sql ... | head -1` printed "prhub: BrokenPipeError" and exited 1."""
    config = write_config(tmp_path, tmp_path)
    empty_warehouse(load_settings(config).database)
    query = "SELECT range AS n FROM range(300000)"
    reader = subprocess.Popen(
        [sys.executable, "-m", "prhub_pipeline.cli", "sql", "--config", str(config), query],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO_ROOT,
    )
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.readline()  # the header, as `head -1` reads
    reader.stdout.close()
    assert reader.wait(timeout=120) == 0
    assert reader.stderr.read() == b""


def test_sql_cells_show_no_control_characters() -> None:
    """A terminal obeys what it prints: `ESC]52;...BEL` in a path set its clipboard."""
    table = format_table(["path"], [("a\x1b]52;c;cm0gLXJmIH4=\x07.py\r\tb",)])
    assert table.splitlines()[2] == "a.py  b"


def test_sql_table_lines_end_where_their_text_does() -> None:
    table = format_table(["module", "change"], [("fully_async", "2"), ("ci", "")])
    assert table.splitlines() == [
        "module      | change",
        "------------+-------",
        "fully_async | 2",
        "ci          |",
        "(2 rows)",
    ]


def test_sql_columns_line_up_under_wide_characters() -> None:
    """verl's "Changsheng Quan (全昌盛)": len() counts a CJK character once, a terminal shows it
    two columns wide, so every `|` after it stood three columns right of the others'."""
    table = format_table(
        ["author", "prs"], [("Changsheng Quan (全昌盛)", "3"), ("Chi Zhang", "169")]
    )
    assert table.splitlines()[:4] == [
        "author                   | prs",
        "-------------------------+----",
        "Changsheng Quan (全昌盛) | 3",
        "Chi Zhang                | 169",
    ]
    # A cell is cut at 80 columns, not 80 characters: 39 wide ones and the ellipsis.
    cut = format_table(["title"], [("修" * 100,)]).splitlines()[2]
    assert cut == "修" * 39 + "…"


def test_sql_prints_values_as_duckdb_writes_them(tmp_path: Path) -> None:
    """Values were printed as Python shows them (`[None, 'x']`, `True`, `3 days, 0:00:00`,
    `b'\\x1b'`, and NULL as nothing, like the empty string); they print as DuckDB writes them."""
    database = empty_warehouse(tmp_path / "prhub.duckdb")
    columns, rows = run_query(
        database,
        "SELECT [NULL, 'x'] AS l, true AS t, NULL AS n, '' AS e, INTERVAL 3 DAY AS i,"
        " '\\x1Bab'::BLOB AS b, {'a': 1, 'b': NULL} AS s, 2 AS s",
    )
    assert format_table(columns, rows).splitlines()[2] == (
        "[NULL, x] | true | NULL |   | 3 days | \\x1Bab | {'a': 1, 'b': NULL} | 2"
    )


def test_the_classifier_summary_says_where_validation_stands() -> None:
    metrics = TrainingMetrics(
        training_size=1952,
        validation_size=390,
        label_counts={"fsdp": 100},
        validation_micro_f1=0.5991,
        validation_macro_f1=0.5059,
        train_seconds=3.4,
    )
    summary = ClassifierSummary(
        repo="acme/widgets",
        status="trained",
        message="trained on 1952 tagged PRs, 31 modules",
        metrics=metrics,
        min_micro_f1=0.6,
    )
    assert summary.describe() == (
        "trained: trained on 1952 tagged PRs, 31 modules; validation micro-F1 0.599,"
        " macro-F1 0.506 (below the 0.60 threshold)"
    )
    passing = summary.model_copy(update={"min_micro_f1": 0.55})
    assert passing.describe().endswith("(at or above the 0.55 threshold)")
    untrained = summary.model_copy(
        update={"status": "insufficient_training_data", "message": "12 tagged PRs"}
    )
    assert untrained.describe() == "insufficient_training_data: 12 tagged PRs"


def test_the_classifier_check_warns_without_a_good_enough_model(
    history: GitRepo, tmp_path: Path
) -> None:
    """Every PR is tagged `[core]`: one module is nothing to train, so the check fails as a
    warning (labels still come from the tags) and the asset says why."""
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    job = build_definitions(config).resolve_job_def("module_classifier_job")
    result = job.execute_in_process(
        partition_key="acme/widgets", instance=dg.DagsterInstance.ephemeral()
    )
    assert result.success
    [evaluation] = result.get_asset_check_evaluations()
    assert evaluation.check_name == "validation_micro_f1_above_threshold"
    assert not evaluation.passed and evaluation.severity == dg.AssetCheckSeverity.WARN
    metadata = result.asset_materializations_for_node("module_classifier")[0].metadata
    assert str(metadata["summary"].value).startswith("insufficient_training_data: ")
    assert {"training_size", "label_counts", "train_seconds", "model_version"} <= set(metadata)
    assert evaluation.metadata["threshold"].value == 0.6
    # No model, no F1: a 0.0 would plot in the UI beside the trained models' scores.
    assert "validation_micro_f1" not in evaluation.metadata
    assert str(evaluation.metadata["status"].value).startswith("insufficient_training_data")
    # The check is not partitioned: its detail says whose classifier its latest run trained.
    assert str(evaluation.metadata["detail"].value).startswith(
        "acme/widgets: insufficient_training_data: "
    )


def test_a_trained_classifier_shows_what_validation_chose() -> None:
    metrics = TrainingMetrics(
        training_size=200,
        validation_size=40,
        label_counts={"fsdp": 120, "rollout": 80},
        validation_micro_f1=0.81,
        train_seconds=1.2,
        chosen_params={"C": 0.25, "half_life_days": None, "author_weight": 0.1},
    )
    summary = ClassifierSummary(
        repo="acme/widgets", status="trained", message="ok", metrics=metrics, min_micro_f1=0.6
    )
    metadata = _classifier_metadata(summary)
    assert metadata["chosen_params"].value == {
        "C": 0.25,
        "half_life_days": None,
        "author_weight": 0.1,
    }
    assert metadata["validation_micro_f1"].value == 0.81


def test_the_settings_a_pr_changed_are_stored_and_flagged(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    config_file = "widgets/config/trainer.yaml"
    git_repo.commit(
        "init", "2026-05-01T10:00:00+08:00", {config_file: "trainer:\n  epochs: 1\n  seed: 7\n"}
    )
    git_repo.commit(
        "[cfg] feat: train longer by default (#1)",
        "2026-05-12T10:00:00+08:00",
        {config_file: "trainer:\n  epochs: 3\n  seed: 7  # reproducible\n"},
    )
    git_repo.commit(
        "[cfg] chore: document the seed (#2)",
        "2026-05-13T10:00:00+08:00",
        {config_file: "trainer:\n  epochs: 3\n  seed: 7  # fixed for reproducibility\n"},
    )
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", "2026-05-11"]
    assert main(args) == 0
    changes = "SELECT number, path, key, before, after FROM pr_setting_changes ORDER BY number"
    assert stored(config, changes) == [(1, config_file, "trainer.epochs", "1", "3")]
    assert stored(config, "SELECT number, comparable FROM pr_config_files ORDER BY 1") == [
        (1, True),
        (2, True),
    ]
    flags = "SELECT number, detail FROM pr_risks WHERE risk = 'config_default_change'"
    assert stored(config, flags) == [(1, "changes defaults: trainer.epochs 1 → 3")]
    assert main(args) == 0  # a re-run replaces the week's comparisons, never adds to them
    assert stored(config, changes) == [(1, config_file, "trainer.epochs", "1", "3")]


def test_a_toolchain_upgrade_is_scored_from_the_requirements_it_repins(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The scoring reads the stored requirement changes (vllm-ascend #13901 re-pinned torch-npu
    with its images: a toolchain upgrade); an image edit alone is none."""
    git_repo.commit(
        "init",
        "2026-05-01T10:00:00+08:00",
        {"requirements.txt": "torch==2.7.1\n", "Dockerfile": "FROM base:1.0\n"},
    )
    git_repo.commit(
        "[misc] chore: upgrade torch and the base image (#1)",
        "2026-05-12T10:00:00+08:00",
        {"requirements.txt": "torch==2.8.0\n", "Dockerfile": "FROM base:2.0\n"},
    )
    git_repo.commit(
        "[misc] chore: bump the base image (#2)",
        "2026-05-13T10:00:00+08:00",
        {"Dockerfile": "FROM base:2.1\n"},
    )
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    toolchain = "SELECT number, parts->>'toolchain' FROM pr_scores ORDER BY number"
    assert stored(config, toolchain) == [(1, "2.5"), (2, "0.0")]


def test_a_setting_removed_from_a_config_is_scored_breaking(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The scoring reads the stored setting changes of the configuration files too: a PR that
    removes a setting users set (verl #7374, untitled `[BREAKING]`) scores the breaking part;
    one that only adds a setting scores none."""
    config_file = "widgets/config/trainer.yaml"
    git_repo.commit(
        "init", "2026-05-01T10:00:00+08:00", {config_file: "trainer:\n  epochs: 1\n  seed: 7\n"}
    )
    git_repo.commit(
        "[cfg] feat: drop the seed option (#1)",
        "2026-05-12T10:00:00+08:00",
        {config_file: "trainer:\n  epochs: 1\n"},
    )
    git_repo.commit(
        "[cfg] feat: add a warmup option (#2)",
        "2026-05-13T10:00:00+08:00",
        {config_file: "trainer:\n  epochs: 1\n  warmup: 0\n"},
    )
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    breaking = "SELECT number, parts->>'breaking', breaking FROM pr_scores ORDER BY number"
    assert stored(config, breaking) == [(1, "1.0", False), (2, "0.0", False)]


def test_a_reports_dir_that_cannot_hold_reports_stores_nothing(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder is checked before ingest replaces a week: a read-only reports_dir failed
    only at the report stage, leaving the stored reports telling the old scores."""
    (tmp_path / "taken").write_text("a file where the reports folder should be\n", "utf-8")
    config = write_config(tmp_path, history.path, reports_dir="taken")
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 1
    err = capsys.readouterr().err
    assert "ingest failed: raw_prs: ReportDirError: reports_dir " in err
    assert f"cannot create {tmp_path / 'taken' / 'acme' / 'widgets'}: Not a directory" in err
    assert not (tmp_path / "warehouse" / "prhub.duckdb").exists()  # nothing stored at all


def test_report_files_a_run_could_not_write_name_the_week_and_are_tidied_next_run(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full disk after the week's report row was stored said only 'No space left on
    device'; a killed run's half-written temporary files stayed for good."""
    config = write_config(tmp_path, history.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0]]
    folder = tmp_path / "reports" / "acme" / "widgets"
    folder.mkdir(parents=True)
    left = folder / ".2026-05-04.en.md.0123456789abcdef.tmp"
    left.write_text("half a report", "utf-8")
    mine = folder / "notes.tmp"
    mine.write_text("not prhub's", "utf-8")

    def full_disk(*_: object, **__: object) -> list[Path]:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report_stage, "write_report_files", full_disk)
    assert main(args) == 1
    assert (
        "weekly_report: ReportDirError: week 2026-05-04: its report is stored, but its files in"
        f" {folder} could not all be written (No space left on device), so some may be an"
        " earlier run's: run the week again"
    ) in capsys.readouterr().err
    assert not left.exists() and mine.exists()
    monkeypatch.undo()
    assert main(args) == 0
    assert (folder / "2026-05-04.en.md").is_file()


def test_report_files_a_range_could_not_write_name_every_week_left_to_run(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A disk that filled up at the second week of four said "run the week again": the two
    weeks after it were never reported, and running that week alone left them so."""
    config = write_config(tmp_path, history.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[-1]]
    write_files = report_stage.write_report_files
    calls: list[date] = []

    def full_at_the_second_week(*args: Any, **kwargs: Any) -> list[Path]:
        calls.append(args[2])
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_files(*args, **kwargs)

    monkeypatch.setattr(report_stage, "write_report_files", full_at_the_second_week)
    assert main(args) == 1
    assert (
        f"week {WEEKS[1]}: its report is stored, but its files in"
        f" {tmp_path / 'reports' / 'acme' / 'widgets'} could not all be written (No space left"
        f" on device), so some may be an earlier run's, and weeks {WEEKS[2]} to {WEEKS[3]} were"
        f" not reported: run weeks {WEEKS[1]} to {WEEKS[3]} again"
    ) in capsys.readouterr().err
    assert stored(config, "SELECT DISTINCT week_start::VARCHAR FROM weekly_reports ORDER BY 1") == [
        (WEEKS[0],),
        (WEEKS[1],),
    ]


def test_report_files_a_killed_run_did_not_write_are_written_back_from_the_warehouse(
    git_repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run killed between a week's report row and its files left the files of the run
    before (without #103), or none, for good: later runs wrote only their own weeks, and the
    index linked only those."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None)])
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config)]
    assert main([*args, "--week", WEEKS[0]]) == 0
    git_repo.commit("[core] fix: more (#103)", "2026-05-07T10:00:00+08:00", {"src/m.py": "1\n"})
    git_repo.commit("[core] fix: next (#102)", "2026-05-12T10:00:00+08:00", {"src/n.py": "1\n"})

    def killed(*_: object, **__: object) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr(report_stage, "write_report_files", killed)
    assert main([*args, "--week", WEEKS[0]]) == 130
    monkeypatch.undo()
    folder = tmp_path / "reports" / "acme" / "widgets"
    (folder / "2026-05-04.en.md").unlink()
    assert "#103" not in (folder / "2026-05-04.zh.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main([*args, "--week", WEEKS[1]]) == 0
    assert (
        "4 files of stored reports, missing from the folder or an earlier run's, written back"
        " from the warehouse (weeks 2026-05-04)"
    ) in capsys.readouterr().out
    rows = stored(
        config, "SELECT lang, markdown, html FROM weekly_reports WHERE week_start = '2026-05-04'"
    )
    # The files hold their rows' text, with the link to the week reported since.
    after = WeekLinks(next=date.fromisoformat(WEEKS[1]))
    for lang, markdown, html in rows:
        assert lang in LANGS and isinstance(markdown, str) and isinstance(html, str)
        assert (folder / f"2026-05-04.{lang}.md").read_text(encoding="utf-8") == with_week_links(
            markdown, lang, "md", after
        )
        assert (folder / f"2026-05-04.{lang}.html").read_text(encoding="utf-8") == with_week_links(
            html, lang, "html", after
        )
        assert "#103" in markdown
    assert 'href="2026-05-04.zh.html"' in (folder / "index.html").read_text(encoding="utf-8")
    # Files that hold their rows' text are left as they are.
    assert main([*args, "--week", WEEKS[1]]) == 0
    assert "written back" not in capsys.readouterr().out


def test_each_week_whose_report_files_are_written_back_is_told_on_its_own(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The files a run wrote back were told on its last week alone: a range's last week's
    page in the UI claimed them, the restored week's page said nothing, and the command
    named five weeks and "N more"."""
    config = write_config(tmp_path, history.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    folder = tmp_path / "reports" / "acme" / "widgets"
    lost = [folder / "2026-05-04.en.md", folder / "2026-05-04.zh.html"]

    def lose() -> None:
        for path in lost:
            path.unlink()

    lose()
    capsys.readouterr()
    args = ["materialize", "--config", str(config), "--week", WEEKS[1], "--through", WEEKS[2]]
    assert main(args) == 0
    out = capsys.readouterr().out
    told = (
        "weekly_report week 2026-05-04: 2 files of this week's stored report, missing from the"
        " folder or an earlier run's, written back from the warehouse"
    )
    assert f"    {told}\n" in out
    assert "files of stored reports" in out  # and the run's summary counts them
    assert all(path.is_file() for path in lost)
    # In the UI: on the restored week's partition, and not on the last week the run reported.
    lose()
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags=range_tags("acme/widgets", date.fromisoformat(WEEKS[1]), date.fromisoformat(WEEKS[2])),
    )
    [event] = result.get_asset_observation_events()
    observation = event.asset_observation_data.asset_observation
    assert observation.partition == str(
        dg.MultiPartitionKey({"repo": "acme/widgets", "week": WEEKS[0]})
    )
    assert str(observation.metadata["summary"].value) == told.partition(": ")[2]
    assert {str(observation.metadata[f"file_{name}"].value) for name in ("en_md", "zh_html")} == {
        str(path) for path in lost
    }
    for report in result.asset_materializations_for_node("weekly_report"):
        assert "written back" not in str(report.metadata["summary"].value)
        assert "written back" in str(report.metadata["run_summary"].value)


def test_report_files_link_the_stored_weeks_beside_them_and_a_new_week_relinks_the_last(
    history: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A weekly report had no way to the week before or after it but the index. A week
    reported later gives the week before it its "next" link: that week's files are written
    again from its row, its report is not rendered again, and its row (the report proper)
    does not change. A run killed before that is made good by the next run."""
    config = write_config(tmp_path, history.path)
    args = ["materialize", "--config", str(config)]
    folder = tmp_path / "reports" / "acme" / "widgets"

    def text(week: str, lang: str, suffix: str) -> str:
        return (folder / f"{week}.{lang}.{suffix}").read_text(encoding="utf-8")

    assert main([*args, "--week", WEEKS[0], "--through", WEEKS[1]]) == 0
    first, second = text(WEEKS[0], "en", "md"), text(WEEKS[1], "en", "html")
    assert f"[Next week ({WEEKS[1]}) →](<{WEEKS[1]}.en.md>)" in first
    assert "Previous week" not in first
    assert f'<a href="{WEEKS[0]}.en.html" rel="prev">← Previous week ({WEEKS[0]})</a>' in second
    assert 'rel="next"' not in second
    assert f"[下一周（{WEEKS[1]}）→](<{WEEKS[1]}.zh.md>)" in text(WEEKS[0], "zh", "md")
    for markdown, html in stored(config, "SELECT markdown, html FROM weekly_reports"):
        assert "→](<" not in str(markdown) and 'rel="prev"' not in str(html)
    row_before = stored(config, f"SELECT html FROM weekly_reports WHERE week_start = '{WEEKS[1]}'")

    rendered: list[date] = []
    render = report_stage.render_report

    def counted(context: Any, *rest: Any) -> str:
        rendered.append(date.fromisoformat(context.header.week_start))
        return render(context, *rest)

    monkeypatch.setattr(report_stage, "render_report", counted)
    assert main([*args, "--week", WEEKS[2]]) == 0
    assert set(rendered) == {date.fromisoformat(WEEKS[2])}
    assert f'href="{WEEKS[2]}.en.html" rel="next"' in text(WEEKS[1], "en", "html")
    assert f'href="{WEEKS[0]}.en.html" rel="prev"' in text(WEEKS[1], "en", "html")
    assert stored(config, f"SELECT html FROM weekly_reports WHERE week_start = '{WEEKS[1]}'") == (
        row_before
    )

    def killed(*_: object, **__: object) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr(report_stage, "relink_report_files", killed)
    assert main([*args, "--week", WEEKS[3]]) == 130
    monkeypatch.undo()
    assert f"{WEEKS[3]}.en.md" not in text(WEEKS[2], "en", "md")
    capsys.readouterr()
    assert main([*args, "--week", WEEKS[0]]) == 0
    assert f"written back from the warehouse (weeks {WEEKS[2]})" in capsys.readouterr().out
    assert f"[Next week ({WEEKS[3]}) →](<{WEEKS[3]}.en.md>)" in text(WEEKS[2], "en", "md")
    # Deterministic: the same stored weeks, the same files.
    files = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert main([*args, "--week", WEEKS[1]]) == 0
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == files


def test_a_run_whose_materialize_process_died_is_marked_failed() -> None:
    """A killed `prhub materialize` left its run STARTED, holding the warehouse pool: every
    UI and scheduled run stayed queued until someone cancelled it by hand."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    here = socket.gethostname()
    with dg.DagsterInstance.ephemeral() as instance:
        for run_id, host, pid in (
            ("a" * 36, here, dead.pid),  # killed
            ("b" * 36, here, os.getpid()),  # still running
            ("c" * 36, "another-host", dead.pid),  # not this machine's to judge
        ):
            instance.add_run(
                dg.DagsterRun(
                    job_name=WEEKLY_JOB,
                    run_id=run_id,
                    status=dg.DagsterRunStatus.STARTED,
                    tags={CLI_HOST_TAG: host, CLI_PID_TAG: str(pid)},
                )
            )
        assert fail_orphaned_runs(instance) == ["a" * 36]
        statuses = [instance.get_run_by_id(i * 36).status for i in "abc"]  # type: ignore[union-attr]
    assert statuses == [
        dg.DagsterRunStatus.FAILURE,
        dg.DagsterRunStatus.STARTED,
        dg.DagsterRunStatus.STARTED,
    ]


def _run_in_flight(
    instance: dg.DagsterInstance,
    run_id: str,
    status: dg.DagsterRunStatus,
    pools: set[str],
    tags: dict[str, str],
) -> None:
    """A run as the run queue sees it: the pools its steps use, recorded when it was made."""
    instance.add_run(
        dg.DagsterRun(
            job_name=WEEKLY_JOB,
            run_id=run_id,
            status=status,
            tags=tags,
            run_op_concurrency=RunOpConcurrency(
                root_key_counts=dict.fromkeys(pools, 1),
                has_unconstrained_root_nodes=False,
                all_pools=pools,
            ),
        )
    )


def test_materialize_waits_for_a_ui_run_that_holds_the_warehouse_pool() -> None:
    """`prhub materialize` runs outside Dagster's run queue: it started while a UI backfill
    held the warehouse, and failed on DuckDB's lock once its 120 s retry ran out. It now waits
    for the runs holding the pool, telling which (a killed materialize's run is failed, not
    waited for), and not for runs yet to start or runs of other pools."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    here = socket.gethostname()
    backfill = {**range_tags("acme/widgets", date(2026, 5, 4), date(2026, 5, 11))}
    backfill["dagster/backfill"] = "xyzzy"
    with dg.DagsterInstance.ephemeral() as instance:
        for run_id, status, pools, tags in (
            ("a" * 36, dg.DagsterRunStatus.STARTED, {"prhub_warehouse"}, backfill),
            ("b" * 36, dg.DagsterRunStatus.NOT_STARTED, {"prhub_warehouse"}, {}),
            ("c" * 36, dg.DagsterRunStatus.STARTED, {"another_pool"}, {}),
            (
                "d" * 36,
                dg.DagsterRunStatus.STARTED,
                {"prhub_warehouse"},
                {CLI_HOST_TAG: here, CLI_PID_TAG: str(dead.pid)},
            ),
        ):
            _run_in_flight(instance, run_id, status, pools, tags)
        told: list[str] = []
        clock = iter(range(0, 10_000, 300))
        naps = 0

        def sleep(_: float) -> None:
            nonlocal naps
            naps += 1
            if naps == 3:  # the backfill ends
                instance.report_run_failed(instance.get_run_by_id("a" * 36))  # type: ignore[arg-type]

        wait_for_pool(instance, told.append, sleep=sleep, clock=lambda: float(next(clock)))
    assert naps == 3
    waiting = (
        "waiting for run aaaaaaaa (weekly_report_job, acme/widgets|2026-05-04 to"
        " acme/widgets|2026-05-11, backfill xyzzy) to finish: it holds the warehouse pool"
        " 'prhub_warehouse' (the UI's Runs page can terminate a stuck run)"
    )
    assert told == [
        f"  run {'d' * 36}: its prhub materialize process ended mid-run; marked failed",
        f"  {waiting}",
        f"  still {waiting}",  # told again after ten minutes (the fake clock steps 5 minutes)
    ]


def test_the_module_labels_summary_names_the_unknown_tags() -> None:
    """Tags outside a repository's module list are kept, not dropped: the run says which."""
    window = WeekWindow(week_start=date(2026, 5, 11), timezone="UTC")

    def week(unknown: dict[str, int]) -> WeekModules:
        return WeekModules(
            repo="acme/widgets",
            window=window,
            pr_count=3,
            origins={"title": 3},
            areas_from_model=0,
            unlabelled=[],
            unknown_tags=unknown,
            modules={"core": 3},
            themes={},
            model_version=None,
        )

    tally = tally_modules([week({"fsdp2": 2, "trainr": 1}), week({"fsdp2": 1})])
    assert tally.summary == (
        "6 PRs: 6 by title, 0 without a module, unknown tags [fsdp2] 3, [trainr] 1"
    )
    assert tally.modules == {"core": 6}
    assert "unknown" not in tally_modules([week({})]).summary
    kinds = week({}).model_copy(update={"kind_only": [7, 9]})
    assert tally_modules([kinds]).summary == (
        "3 PRs: 3 by title, 0 without a module, 2 with only a kind of change (`[fix]`), no area"
    )
    stale = week({}).model_copy(update={"model_not_applied": "trained under other settings"})
    assert tally_modules([stale]).summary.endswith(", no model: trained under other settings")
    # The asset shows them in the Dagster UI.
    metadata = _modules_metadata([week({"fsdp2": 2, "trainr": 1}), week({"fsdp2": 1})])
    assert metadata["summary"].value == tally.summary
    assert "| fsdp2 | 3 |" in str(metadata["unknown_tags"].value)


def test_weekly_models_count_people_as_the_report_does_and_keep_empty_weeks(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A bot is no author (verl's 2025-03-24 week: the model said 28 authors, the report 27);
    a tie for the most active author goes the same way on every query; a week without PRs is
    a row of zeros in every weekly model, where a module's drop to zero shows."""
    commit_core_fixes(
        git_repo,
        [
            (1, "2026-05-26", "Yuhan Yang"),
            (2, "2026-05-27", "lxb007981"),
            (3, "2026-05-28", "dependabot[bot]"),
        ],
    )
    config = write_config(tmp_path, git_repo.path)
    args = ["materialize", "--config", str(config), "--week", WEEKS[-1], "--through", "2026-06-01"]
    assert main(args) == 0
    assert stored(
        config,
        "SELECT week_start::VARCHAR, authors, new_authors, new_author_names, prs,"
        " most_active_author FROM weekly_contributors ORDER BY 1",
    ) == [  # a history too short to tell who is new
        (WEEKS[-1], 2, None, None, 3, "lxb007981"),
        ("2026-06-01", 0, None, None, 0, None),
    ]
    assert stored(config, "SELECT author, is_bot, prs FROM author_activity WHERE is_bot") == [
        ("dependabot[bot]", True, 1)
    ]
    assert stored(
        config,
        "SELECT prs, previous_prs, change FROM weekly_module_trends"
        " WHERE week_start = '2026-06-01' AND module = 'core'",
    ) == [(0, 3, -3)]
    # The week before the first stored one is unknown, as the report takes it: no change.
    assert stored(
        config,
        "SELECT prs, previous_prs, change FROM weekly_module_trends"
        f" WHERE week_start = '{WEEKS[-1]}' AND module = 'core'",
    ) == [(3, None, None)]
    assert stored(
        config,
        "SELECT prs, review_data_available FROM review_health WHERE week_start = '2026-06-01'",
    ) == [(0, None)]
    # A week whose PRs are stored but whose report is not (its report stage never ran) is
    # unknown too: the next report shows no change against it.
    with duckdb.connect(str(load_settings(config).database)) as con:
        con.execute("DELETE FROM weekly_counts WHERE week_start = ?", [WEEKS[-1]])
    assert stored(
        config,
        "SELECT prs, previous_prs, change FROM weekly_module_trends"
        " WHERE week_start = '2026-06-01' AND module = 'core'",
    ) == [(0, None, None)]


def test_a_version_tagged_in_the_week_is_stored_and_named_in_the_summary(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """verl's report of 2026-08-10 never said v0.9.0 was released that week."""
    commit_core_fixes(git_repo, [(1, "2026-05-26", None), (2, "2026-05-27", None)])
    git_repo.git("tag", "-a", "v1.2.0", "-m", "v1.2.0", date="2026-05-28T09:00:00+08:00")
    sha = git_repo.git("rev-parse", "HEAD")
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[-1]]) == 0
    assert stored(config, "SELECT week_start::VARCHAR, name, sha FROM release_tags") == [
        (WEEKS[-1], "v1.2.0", sha)
    ]
    reports = {
        str(lang): str(markdown)
        for lang, markdown in stored(config, "SELECT lang, markdown FROM weekly_reports")
    }
    assert f"Released this week: v1.2.0 (tagged May 28 on commit {sha[:9]})." in reports["en"]
    assert f"本周发布：v1.2.0（05-28 打标签，提交 {sha[:9]}）。" in reports["zh"]


def test_a_tag_pushed_after_its_week_was_reported_gets_the_week_run_again(
    git_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """verl tags its releases lightweight, so a tag carries its commit's date: v0.9.0 is dated
    Friday 2026-08-14 and may be pushed after the schedule reported that week on Monday, which
    then never said it. The next run notices it, and the schedule runs the week again."""
    commit_core_fixes(git_repo, [(101, "2026-05-05", None), (102, "2026-05-08", None)])
    release = git_repo.git("rev-parse", "HEAD")
    config = write_config(tmp_path, git_repo.path)
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    git_repo.git("tag", "v1.0.0", release)  # pushed after the week was reported
    git_repo.commit("[core] fix: next (#104)", "2026-05-12T10:00:00+08:00", {"src/n.py": "1\n"})
    capsys.readouterr()
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    assert "version tags not in their weeks' reports: 2026-05-04 gains v1.0.0" in (
        capsys.readouterr().out
    )
    settings = load_settings(config)
    monday_morning = datetime(2026, 5, 17, 22, 0, tzinfo=UTC)  # after the week of 05-11
    assert requested(weekly_run_requests(settings, monday_morning)) == [
        "acme/widgets|2026-05-04..2026-05-11"
    ]
    assert main(["materialize", "--config", str(config), "--week", WEEKS[0]]) == 0
    report = stored(
        config,
        "SELECT markdown FROM weekly_reports WHERE week_start = '2026-05-04' AND lang = 'en'",
    )[0][0]
    assert f"Released this week: v1.0.0 (tagged May 8 on commit {release[:9]})." in str(report)
    # Reported with it, the week is not run again; a later run keeps when it was noticed.
    assert [r.partition_key for r in weekly_run_requests(settings, monday_morning)] == [
        "acme/widgets|2026-05-11"
    ]
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    assert "gains" not in capsys.readouterr().out
    # A tag moved to another commit of the week is noticed again.
    git_repo.git("tag", "-f", "v1.0.0", "HEAD~2")
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    assert "2026-05-04 gains v1.0.0" in capsys.readouterr().out
    assert requested(weekly_run_requests(settings, monday_morning)) == [
        "acme/widgets|2026-05-04..2026-05-11"
    ]


def test_each_week_of_a_range_run_carries_its_own_metadata(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A backfill runs its weeks in one run: each partition's event tells its own week (two PRs
    and one), not the range's three, or the UI's partition pages and plots would show them."""
    commit_core_fixes(
        git_repo, [(1, "2026-05-05", None), (2, "2026-05-06", None), (3, "2026-05-12", None)]
    )
    config = write_config(tmp_path, git_repo.path)
    job = build_definitions(config).resolve_job_def("weekly_report_job")
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags=first_weeks_range_tags(),
        asset_selection=[dg.AssetKey("raw_prs"), dg.AssetKey("module_labels")],
    )
    assert result.success
    for node, counted_key, summary, run_summary in (
        ("raw_prs", "pr_count", "{n} PR{s} in 1 week(s)", "3 PRs in 2 week(s)"),
        ("module_labels", None, "{n} PR{s}: {n} by title", "3 PRs: 3 by title"),
    ):
        events = {
            str(m.partition): m.metadata for m in result.asset_materializations_for_node(node)
        }
        for week, n in ((WEEKS[0], 2), (WEEKS[1], 1)):
            metadata = events[f"acme/widgets|{week}"]
            expected = summary.format(n=n, s="" if n == 1 else "s")
            assert str(metadata["summary"].value).startswith(expected), (node, week)
            if counted_key:
                assert metadata[counted_key].value == n
            assert str(metadata["run_summary"].value).startswith(run_summary)


def test_a_week_before_its_repositorys_start_says_so_and_carries_no_figures(
    history: GitRepo, tmp_path: Path
) -> None:
    """The week dimension starts with the earliest repository's, so a range of a later one can
    reach before its start: those weeks store nothing, and their events carried the range's
    figures ("8 PRs in 2 week(s)", pr_count 8) for the UI's partition pages and plots."""
    config = write_config(tmp_path, history.path)
    other = GitRepo(tmp_path / "other")
    commit_core_fixes(other, [(7, WEEKS[2], None), (8, WEEKS[3], None), (9, WEEKS[3], None)])
    add_git_repo(config, "acme/other", other.path, WEEKS[2])
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    first, last = (date.fromisoformat(week) for week in (WEEKS[0], WEEKS[3]))
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags=range_tags("acme/other", first, last),
        # module_labels reads what raw_prs stored: the run orders them (an analysis stage
        # refuses a week ingest never read).
        asset_selection=[dg.AssetKey("raw_prs"), dg.AssetKey("module_labels")],
    )
    assert result.success
    before = f"nothing stored: the week is before acme/other's start {WEEKS[2]} (repos[].start)"
    events = {
        str(m.partition): m.metadata for m in result.asset_materializations_for_node("raw_prs")
    }
    for week, summary, prs in (
        (WEEKS[0], before, 0),
        (WEEKS[1], before, 0),
        (WEEKS[2], "1 PR in 1 week(s)", 1),
        (WEEKS[3], "2 PRs in 1 week(s)", 2),
    ):
        metadata = events[f"acme/other|{week}"]
        assert str(metadata["summary"].value).startswith(summary), week
        assert metadata["pr_count"].value == prs, week
        assert str(metadata["run_summary"].value).startswith("3 PRs in 2 week(s)")
    labels = {
        str(m.partition): m.metadata
        for m in result.asset_materializations_for_node("module_labels")
    }
    assert labels[f"acme/other|{WEEKS[0]}"]["summary"].value == before
    # A week before the start run alone says so too.
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        partition_key=dg.MultiPartitionKey({"repo": "acme/other", "week": WEEKS[1]}),
        asset_selection=[dg.AssetKey("raw_prs")],
    )
    [materialization] = result.asset_materializations_for_node("raw_prs")
    assert materialization.metadata["summary"].value == before


def test_materialize_records_its_runs_in_the_instance_prhub_ui_shows(
    history: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of `prhub materialize` in a throwaway instance left the UI showing no week
    materialized, so "Materialize missing" would redo them all: once `prhub ui` has prepared
    its instance beside the config, the command records its runs there."""
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    config = write_config(tmp_path, history.path)
    home = prepare_dagster_home(default_dagster_home(config)).parent
    assert main(["materialize", "--config", str(config), "--week", WEEKS[1]]) == 0
    with dg.DagsterInstance.from_config(str(home)) as instance:
        materialized = instance.get_materialized_partitions(dg.AssetKey("weekly_report"))
        assert materialized == {f"acme/widgets|{WEEKS[1]}"}
        assert len(instance.get_run_records()) == 4  # ingest, classifier, analysis, SQL models


def test_a_week_after_the_clones_newest_commit_warns_on_the_checks_tab(
    history: GitRepo, tmp_path: Path
) -> None:
    """A working clone is not fetched: its week after the newest commit is stored (a quiet
    repository's would be), and a WARN check says the clone may be behind."""
    config = write_config(tmp_path, history.path)
    job = build_definitions(config).resolve_job_def("weekly_report_job")
    key = dg.MultiPartitionKey({"repo": "acme/widgets", "week": "2026-06-01"})
    result = job.execute_in_process(
        partition_key=key,
        instance=dg.DagsterInstance.ephemeral(),
        asset_selection=[dg.AssetKey("raw_prs")],
    )
    assert result.success
    (check,) = [
        e for e in result.get_asset_check_evaluations() if e.check_name == "clone_reaches_the_week"
    ]
    assert not check.passed and check.severity == dg.AssetCheckSeverity.WARN
    assert check.metadata["offending"].value == ["acme/widgets 2026-06-01"]
    assert str(check.metadata["detail"].value).startswith("acme/widgets: the newest commit")
    assert "before week(s) 2026-06-01" in str(check.metadata["detail"].value)


def test_a_clone_behind_in_a_run_of_several_repositories_is_named_on_the_checks_tab(
    history: GitRepo, tmp_path: Path
) -> None:
    """A run of two repositories over one week, one of whose clones ends weeks before it, said
    only the clone's path and `["2026-05-25"]`: not which repository's week it was, as every
    other check's detail and offending items do."""
    config = write_config(tmp_path, history.path)
    other = GitRepo(tmp_path / "other")
    commit_core_fixes(other, [(7, "2026-05-05", None)])
    add_git_repo(config, "acme/other", other.path, WEEKS[0])
    first, last = (
        dg.MultiPartitionKey({"repo": repo, "week": WEEKS[3]})
        for repo in ("acme/widgets", "acme/other")  # in the config's order
    )
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    result = job.execute_in_process(
        instance=dg.DagsterInstance.ephemeral(),
        tags={RANGE_START_TAG: str(first), RANGE_END_TAG: str(last)},
        asset_selection=[dg.AssetKey("raw_prs")],
    )
    (check,) = [
        e for e in result.get_asset_check_evaluations() if e.check_name == "clone_reaches_the_week"
    ]
    assert not check.passed and check.severity == dg.AssetCheckSeverity.WARN
    assert check.metadata["offending"].value == [f"acme/other {WEEKS[3]}"]
    assert check.metadata["detail"].value == (
        f"acme/other: the newest commit of HEAD in {other.path} is from 2026-05-05 02:00 UTC,"
        f" before week(s) {WEEKS[3]}: if the clone is out of date, update it and run them"
        " again; acme/widgets: every week is covered"
    )


def test_a_run_of_several_repositories_says_whose_clone_fetch_each_was() -> None:
    """A run across repositories told only the first one's fetch, unnamed, and tagged every
    partition with its `clone_update`: a failed fetch of another went unsaid."""

    def ingest(repo: str, status: str, message: str) -> WeekIngest:
        return WeekIngest(
            repo=repo,
            window=WeekWindow(week_start=date(2026, 5, 11), timezone="UTC"),
            pr_count=0,
            file_count=0,
            additions=0,
            deletions=0,
            config_files=0,
            setting_changes=0,
            preview=[],
            clone=CloneUpdate(status=status, message=message),  # type: ignore[arg-type]
        )

    runs = [
        ingest("a/one", "updated", "main fetched from origin"),
        ingest("b/two", "failed", "fetching main from origin failed"),
    ]
    summary = ingest_summary(runs)
    several = _ingest_metadata(runs)
    assert several["summary"].value == summary
    assert "a/one: main fetched from origin" in summary
    assert "b/two: fetching main from origin failed" in summary
    assert "clone_update" not in several
    one = _ingest_metadata([ingest("a/one", "updated", "main fetched from origin")])
    assert one["clone_update"].value == "updated"
    assert "a/one:" not in str(one["summary"].value)
    # A PR cut at GitHub's 3,000 listed files is said in the run's summary.
    cut = ingest("c/big", "updated", "x").model_copy(
        update={"clone": None, "github": RequestStats(truncated_file_lists=2)}
    )
    assert "2 PRs with more files than GitHub lists, stored in part" in ingest_summary([cut])


def test_the_models_job_drops_the_model_of_a_removed_file(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A model removed from the models folder stayed in the warehouse for good (a table model
    looked current); the next models run drops it, and says so."""
    models = tmp_path / "models"
    models.mkdir()
    (models / "pr_numbers.sql").write_text("SELECT number FROM {{ source('prs') }}", "utf-8")
    (models / "pr_total.sql").write_text(
        "-- materialized: table\nSELECT count(*) AS n FROM {{ source('prs') }}", "utf-8"
    )
    config = write_config(tmp_path, git_repo.path, sql_models_dir="models")
    instance = dg.DagsterInstance.ephemeral()
    first = build_definitions(config).resolve_job_def("sql_models_job")
    assert first.execute_in_process(instance=instance).success
    (models / "pr_total.sql").unlink()
    again = build_definitions(config).resolve_job_def("sql_models_job")
    result = again.execute_in_process(instance=instance)
    assert result.success
    [event] = result.get_asset_materialization_events()
    summary = event.materialization.metadata["summary"]
    assert summary == dg.TextMetadataValue("0 rows; dropped stale pr_total")
    names = stored(config, "SELECT table_name FROM information_schema.tables")
    assert ("pr_numbers",) in names and ("pr_total",) not in names and ("prs",) in names


def test_one_pr_stored_under_another_timezone_is_told_as_one(
    history: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In UTC-2 only the PR merged Monday 09:00 in Shanghai falls on Sunday."""
    config = write_config(tmp_path, history.path)
    err = refused_after_editing(
        config, ["--week", WEEKS[1]], "Asia/Shanghai", "America/Noronha", capsys
    )
    assert "acme/widgets: 1 stored PR is in other weeks by America/Noronha's Mondays" in err
