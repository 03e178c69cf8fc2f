"""Two writers of the same weeks at once: two `prhub materialize` processes, or one beside a
Dagster run of the weeks. The second waits for the first and skips what it stored whole from
the same settings and source, instead of reading, analysing and replacing it all again."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from datetime import UTC, date, datetime
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from prhub_pipeline.cli import main
from prhub_pipeline.config import load_settings
from prhub_pipeline.defs import build_definitions
from prhub_pipeline.defs.definitions import SQL_MODELS_JOB, WEEKLY_JOB
from prhub_pipeline.defs.partitions import range_tags
from prhub_pipeline.defs.runner import materialize_weeks
from prhub_pipeline.stages.just_stored import weeks_just_stored
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.week_stages import (
    WeekInputs,
    stage_tables,
    stale_weeks,
    weeks_stored_since,
)
from prhub_pipeline.warehouse.writer_lock import writer_lock_path
from prhub_pipeline_tests.conftest import empty_warehouse, write_config
from prhub_pipeline_tests.gitrepo import GitRepo

REPO_ROOT = Path(__file__).resolve().parents[1]
WEEKS = ["2026-05-04", "2026-05-11"]
REPO = "acme/widgets"
SKIPPED = "stored whole by another run since"


@pytest.fixture
def two_weeks(git_repo: GitRepo) -> GitRepo:
    """One PR in each of two weeks."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    for number, day in ((101, "2026-05-05"), (102, "2026-05-12")):
        git_repo.commit(
            f"[core] fix: change {number} (#{number})",
            f"{day}T10:00:00+08:00",
            {f"src/m{number}.py": f"{number}\n"},
        )
    return git_repo


def materialize_process(config: Path, out: Path) -> subprocess.Popen[bytes]:
    """`prhub materialize` of WEEKS in a process of its own, its output in `out`; without
    DAGSTER_HOME, so that no Dagster instance (nor its pool) is shared with another process."""
    env = {key: value for key, value in os.environ.items() if key != "DAGSTER_HOME"}
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["PYTHONUNBUFFERED"] = "1"  # each line in `out` when it is said
    weeks = ["--week", WEEKS[0], "--through", WEEKS[-1]]
    command = [sys.executable, "-m", "prhub_pipeline.cli", "materialize", "--config", str(config)]
    with out.open("wb") as sink:
        return subprocess.Popen(
            [*command, *weeks],
            cwd=REPO_ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )


def stage_rows(config: Path) -> list[tuple[object, ...]]:
    with connect(load_settings(config).database, read_only=True) as con:
        return con.execute(
            "SELECT week_start, stage, stored_at FROM week_stages ORDER BY 1, 2"
        ).fetchall()


def assert_stored_whole(config: Path) -> None:
    """Both weeks stored once each, every stage after what it reads."""
    first, last = (date.fromisoformat(week) for week in WEEKS)
    with connect(load_settings(config).database, read_only=True) as con:
        assert stale_weeks(con, REPO, first, last) == []
        counts = con.execute(
            "SELECT (SELECT count(*) FROM prs), (SELECT count(*) FROM pr_scores),"
            " (SELECT count(*) FROM weekly_reports), (SELECT count(*) FROM week_stages)"
        ).fetchall()
    assert counts == [(2, 2, 4, 10)]  # 2 weeks x (1 PR, 1 score, 2 languages, 5 stages)


def test_two_materialize_processes_at_once_do_the_weeks_once(
    two_weeks: GitRepo, tmp_path: Path
) -> None:
    """Started at once, both read, labelled, scored and reported both weeks, the later
    replacing the earlier's rows: now one does, and the other waits for it and says so."""
    config = write_config(tmp_path, two_weeks.path)
    outs = [tmp_path / "first.txt", tmp_path / "second.txt"]
    # Nothing is stored until both have started (each says its weeks once it has): a
    # command asked for weeks after another stored them would do them again, on purpose.
    holding = duckdb.connect(str(empty_warehouse(load_settings(config).database)))
    processes = [materialize_process(config, out) for out in outs]
    try:
        while not all(f"{REPO}: 2 week(s)" in out.read_text("utf-8") for out in outs):
            assert all(process.poll() is None for process in processes)
            time.sleep(0.05)
    finally:
        holding.close()
    assert [process.wait(timeout=600) for process in processes] == [0, 0]
    said = [out.read_text("utf-8") for out in outs]
    worked = [text for text in said if "raw_prs:" in text]
    skipped = [text for text in said if SKIPPED in text]
    assert len(worked) == 1, said
    assert len(skipped) == 1, said
    assert "module_labels:" not in skipped[0] and "weekly_report:" not in skipped[0]
    assert (
        f"2 weeks ({WEEKS[0]}, {WEEKS[1]}) stored whole by another run since this command"
        " started, from the same settings and source: skipped" in skipped[0]
    )
    assert f"week {WEEKS[1]}: 1 PR, " in skipped[0]  # what is stored, as after a run
    assert_stored_whole(config)


def test_a_dagster_run_of_weeks_a_materialize_stores_meanwhile_skips_them(
    two_weeks: GitRepo, tmp_path: Path
) -> None:
    """A backfill's run launched while `prhub materialize` is storing the same weeks: it
    read and analysed them again after the command. Now its steps wait for the command's
    writer lock and store nothing, each week saying why."""
    config = write_config(tmp_path, two_weeks.path)
    database = load_settings(config).database
    job = build_definitions(config).resolve_job_def(WEEKLY_JOB)
    first, last = (date.fromisoformat(week) for week in WEEKS)
    # The command stores nothing until the run has been launched: it holds the writer lock,
    # and waits for DuckDB's, which the test holds.
    holding = duckdb.connect(str(empty_warehouse(database)))
    command = materialize_process(config, tmp_path / "materialize.txt")
    (tmp_path / "dagster").mkdir()
    try:
        while "prhub materialize" not in read_lock_file(database):
            assert command.poll() is None
            time.sleep(0.05)
        with dg.DagsterInstance.local_temp(str(tmp_path / "dagster")) as instance:

            def let_go_once_launched() -> None:
                while not instance.get_runs() and not finished.is_set():
                    time.sleep(0.05)
                holding.close()

            finished = threading.Event()
            letting_go = threading.Thread(target=let_go_once_launched)
            letting_go.start()
            try:
                result = job.execute_in_process(
                    instance=instance, tags=range_tags(REPO, first, last)
                )
            finally:
                finished.set()
                letting_go.join()
    finally:
        holding.close()
        assert command.wait(timeout=600) == 0
    assert result.success
    summaries = {}
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        summaries[(materialization.asset_key.to_user_string(), materialization.partition)] = str(
            materialization.metadata["summary"].value
        )
    assert len(summaries) == 10  # 5 assets x 2 weeks
    assert all(
        summary.startswith(f"nothing stored: {SKIPPED} this run was asked for")
        for summary in summaries.values()
    ), summaries
    assert_stored_whole(config)


def read_lock_file(database: Path) -> str:
    try:
        return writer_lock_path(database).read_text("utf-8")
    except FileNotFoundError:
        return ""


def test_weeks_stored_whole_since_are_skipped_only_from_the_same_inputs(
    two_weeks: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A week is skipped when stored whole after the run was asked for, from the same settings
    and clone commit; a week whose source or settings changed since, whose analysis is older
    than its PRs, or stored before the run was asked for (run again on purpose) is redone."""
    config = write_config(tmp_path, two_weeks.path)
    settings = load_settings(config)
    repo = settings.repo(REPO)
    weeks = [date.fromisoformat(week) for week in WEEKS]
    asked = datetime.now(UTC)
    args = ["materialize", "--config", str(config), "--week", WEEKS[0], "--through", WEEKS[1]]
    assert main(args) == 0
    assert weeks_just_stored(settings, repo, weeks, asked) == weeks
    assert weeks_just_stored(settings, repo, weeks, datetime.now(UTC)) == []  # asked again

    # A command asked for the weeks before they were stored does nothing more.
    before = stage_rows(config)
    capsys.readouterr()
    outcome = materialize_weeks(config, REPO, weeks, progress=print, asked_at=asked)
    assert outcome.success and outcome.run_ids == []
    assert stage_rows(config) == before
    assert f"2 weeks ({WEEKS[0]}, {WEEKS[1]}) {SKIPPED}" in capsys.readouterr().out

    # Other settings of the same warehouse: the reports link elsewhere.
    other = tmp_path / "other.yaml"
    other.write_text(f"reports_url: https://example.org/r\n{config.read_text('utf-8')}", "utf-8")
    other_settings = load_settings(other)
    assert weeks_just_stored(other_settings, other_settings.repo(REPO), weeks, asked) == []

    # A week whose PRs were stored again after its report is no week stored whole.
    with connect(settings.database) as con:
        replace_partition(con, REPO, weeks[0], stage_tables(REPO, weeks[0], "ingest"))
    assert weeks_just_stored(settings, repo, weeks, asked) == [weeks[1]]

    # The clone moved on: a PR merged in the second week since it was read.
    two_weeks.commit(
        "[core] fix: change 103 (#103)", "2026-05-13T10:00:00+08:00", {"src/m103.py": "103\n"}
    )
    assert weeks_just_stored(settings, repo, weeks, asked) == []
    capsys.readouterr()
    outcome = materialize_weeks(config, REPO, weeks, progress=print, asked_at=asked)
    assert outcome.success
    out = capsys.readouterr().out
    assert SKIPPED not in out
    assert "raw_prs: 3 PRs in 2 week(s)" in out
    assert f"week {WEEKS[1]}: 2 PRs, " in out


def test_a_github_week_is_skipped_only_when_its_prs_were_read_since_too(tmp_path: Path) -> None:
    """GitHub's answers cannot be compared without asking again: a week whose PRs were read
    before the run was asked for, and analysed since, is read again (a PR merged meanwhile)."""
    database = empty_warehouse(tmp_path / "prhub.duckdb")
    week = date.fromisoformat(WEEKS[0])
    inputs = WeekInputs(settings="f00d", source_commit=None)
    with connect(database) as con:
        replace_partition(con, REPO, week, stage_tables(REPO, week, "ingest", inputs.of_ingest))
        asked = datetime.now(UTC)
        for stage in ("reviews", "modules", "scores"):
            replace_partition(con, REPO, week, stage_tables(REPO, week, stage))
        replace_partition(con, REPO, week, stage_tables(REPO, week, "report", inputs.of_report))
        assert weeks_stored_since(con, REPO, [week], asked, inputs) == []
        earlier = datetime(2026, 1, 1, tzinfo=UTC)
        assert weeks_stored_since(con, REPO, [week], earlier, inputs) == [week]
        # The same rows from a git clone at a commit read before: the commit tells.
        from_git = WeekInputs(settings="f00d", source_commit="abc123")
        assert weeks_stored_since(con, REPO, [week], earlier, from_git) == []


def test_a_sql_models_run_waits_for_the_writer_lock_and_says_for_whom(
    two_weeks: GitRepo, tmp_path: Path
) -> None:
    """`prhub materialize` no longer waits for the pool between its steps (a run started
    there would wait for its lock, and it for the run): a run of the assets that are no
    weeks', the SQL models here, waits for its writer lock instead of writing beside it."""
    config = write_config(tmp_path, two_weeks.path)
    database = load_settings(config).database
    job = build_definitions(config).resolve_job_def(SQL_MODELS_JOB)
    release = tmp_path / "release"
    holding = (
        "import time; from pathlib import Path;"
        " from prhub_pipeline.warehouse.writer_lock import writer_lock\n"
        f"with writer_lock(Path({str(database)!r}), 'the test holder', print):\n"
        "    print('held', flush=True)\n"
        f"    while not Path({str(release)!r}).exists(): time.sleep(0.05)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    holder = subprocess.Popen(
        [sys.executable, "-c", holding], env=env, stdout=subprocess.PIPE, text=True
    )
    (tmp_path / "dagster").mkdir()
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with dg.DagsterInstance.local_temp(str(tmp_path / "dagster")) as instance:

            def waits() -> list[str]:
                return [
                    entry.user_message
                    for run in instance.get_runs()
                    for entry in instance.all_logs(run.run_id)
                    if "to finish writing" in entry.user_message
                ]

            def let_go_once_told() -> None:
                while not waits() and not finished.is_set():
                    time.sleep(0.1)
                release.touch()

            finished = threading.Event()
            letting_go = threading.Thread(target=let_go_once_told)
            letting_go.start()
            try:
                result = job.execute_in_process(instance=instance, raise_on_error=False)
            finally:
                finished.set()
                letting_go.join()
            told = waits()
    finally:
        release.touch()  # the holder ends whatever happened
        holder.wait(timeout=60)
    assert holder.returncode == 0
    assert result.success
    assert told
    assert all(f"waiting for the test holder to finish writing {database}" in m for m in told)
