from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from prhub_pipeline.records import ConfigFileDiff, FileChange, ModuleLabel, PrScore, PullRequest
from prhub_pipeline.warehouse import (
    WarehouseError,
    WarehouseLockedError,
    connect,
    connection,
    replace_partition,
)
from prhub_pipeline.warehouse.connection import _migration_files, schema_version, transaction
from prhub_pipeline.warehouse.modules import module_tables
from prhub_pipeline.warehouse.partitions import move_repository
from prhub_pipeline.warehouse.prs import config_diff_tables, pr_tables, read_config_diffs, read_prs
from prhub_pipeline.warehouse.quality import check_modules, check_raw_prs, check_scores
from prhub_pipeline.warehouse.query import run_query
from prhub_pipeline.warehouse.reports import score_tables
from prhub_pipeline.warehouse.week_stages import stage_tables, unread_weeks
from prhub_pipeline_tests.conftest import empty_warehouse

WEEK = date(2026, 5, 11)


def make_pr(number: int, title: str = "feat: x", files: int = 2) -> PullRequest:
    return PullRequest(
        repo="acme/widgets",
        number=number,
        title=title,
        merged_at=datetime(2026, 5, 12, 3, 0, tzinfo=UTC),
        additions=3 * files,
        changed_files=files,
        labels=["bug"],
        co_authors=["Ann"],
        files=[FileChange(path=f"src/f{i}.py", additions=3, deletions=0) for i in range(files)],
    )


def counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    prs = con.execute("SELECT count(*) FROM prs").fetchone()
    files = con.execute("SELECT count(*) FROM pr_files").fetchone()
    assert prs and files
    return prs[0], files[0]


def test_schema_is_created_and_versioned(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        assert schema_version(con) >= 1
        version = schema_version(con)
    with connect(tmp_path / "w.duckdb") as con:  # a second open applies nothing twice
        assert schema_version(con) == version
        applied = con.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
        assert [row[0] for row in applied] == [v for v, _, _ in _migration_files()]


def warehouse_at_schema(path: Path, last: int) -> None:
    """A warehouse file with the migrations up to `last` applied, as an older prhub left it."""
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE schema_migrations ("
            "version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
        )
        for version, name, script in _migration_files():
            if version <= last:
                con.execute(script)
                con.execute("INSERT INTO schema_migrations VALUES (?, ?, now())", [version, name])


def test_every_table_and_the_columns_a_name_does_not_explain_say_what_they_hold(
    tmp_path: Path,
) -> None:
    """A SQL user listing the warehouse found no word of what a table holds, which zone
    `week_start` is cut in, or that `created_at` is NULL for every PR the git source read; a
    warehouse an earlier prhub wrote gets the comments when it is next opened for writing."""
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 13)
    with connect(path) as con:
        tables = dict(
            con.execute(
                "SELECT table_name, table_comment FROM information_schema.tables"
            ).fetchall()
        )
        columns = {
            f"{table}.{column}": comment
            for table, column, comment in con.execute(
                "SELECT table_name, column_name, comment FROM duckdb_columns()"
            ).fetchall()
        }
    assert [name for name, comment in sorted(tables.items()) if not comment] == []
    for column in (
        "prs.week_start",
        "prs.merged_at",
        "prs.created_at",
        "prs.author",
        "prs.author_key",
        "prs.batch_written_at",
        "prs.merged_by",
        "prs.base_branch",
        "pr_files.additions",
        "pr_modules.origin",
        "pr_scores.pr_type",
        "pr_risks.risk",
        "weekly_counts.kind",
    ):
        assert columns[column], column
    assert "configured timezone" in columns["prs.week_start"]
    assert "NULL with the git source" in columns["prs.created_at"]


def test_weeks_reported_before_the_stage_rows_were_recorded_count_as_read(
    tmp_path: Path,
) -> None:
    """A week an older warehouse reported was read then, though no `ingest` stage row says so:
    a quiet week's report could otherwise not be written again."""
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 12)
    with duckdb.connect(str(path)) as con:
        con.execute(
            "INSERT INTO weekly_reports VALUES ('acme/widgets', ?, 'en', '', '', now(), 0, 0)",
            [WEEK],
        )
    later = WEEK + timedelta(weeks=1)
    with connect(path) as con:
        assert unread_weeks(con, "acme/widgets", [WEEK, later]) == [later]


def test_config_files_stored_before_keeps_existing_read_as_changed(tmp_path: Path) -> None:
    # A warehouse at schema 5 (before `keeps_existing`) with one compared workflow.
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 5)
    with duckdb.connect(str(path)) as con:
        con.execute(
            "INSERT INTO pr_config_files VALUES ('acme/widgets', 1, ?, '.github/workflows/a.yml',"
            " true)",
            [WEEK],
        )
    diff = ConfigFileDiff(
        repo="acme/widgets", pr_number=2, path="ci.yml", comparable=True, keeps_existing=True
    )
    with connect(path) as con:
        (old,) = read_config_diffs(con, "acme/widgets", WEEK)
        assert (old.comparable, old.keeps_existing) == (True, False)
        replace_partition(con, "acme/widgets", WEEK, config_diff_tables(WEEK, [diff]))
        assert read_config_diffs(con, "acme/widgets", WEEK) == [diff]


def test_reverts_scored_before_pr_reverts_existed_are_kept(tmp_path: Path) -> None:
    """A warehouse at schema 10: its scored reverts fill `pr_reverts` from what the source read
    (risk_backlog reads them there), and a revert of a week not scored yet waits for scoring."""
    path = tmp_path / "w.duckdb"
    scored = make_pr(5).model_copy(update={"is_revert": True, "reverted_number": 3})
    unscored = make_pr(6).model_copy(update={"is_revert": True, "reverted_number": 4})
    warehouse_at_schema(path, 10)
    with duckdb.connect(str(path)) as con:
        for table in [
            *pr_tables(WEEK, [make_pr(3), scored, unscored]),
            *score_tables(
                "acme/widgets",
                WEEK,
                [
                    PrScore(
                        number=5,
                        importance=5.0,
                        raw_score=1.0,
                        parts={},
                        is_key=False,
                        pr_type="revert",
                    )
                ],
            ),
        ]:
            # As schema 10 holds them: without the columns later migrations added (021's).
            kept = [i for i, column in enumerate(table.columns) if column != "batch_written_at"]
            with con.appender(table.table, columns=[table.columns[i] for i in kept]) as appender:
                appender.append_rows([tuple(row[i] for i in kept) for row in table.rows])
    with connect(path) as con:
        rows = con.execute("SELECT repo, number, week_start, reverted_number FROM pr_reverts")
        assert rows.fetchall() == [("acme/widgets", 5, WEEK, 3)]


def test_rewriting_a_partition_never_duplicates(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        for _ in range(3):
            replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1), make_pr(2)]))
        assert counts(con) == (2, 4)
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1, "feat: y", 1)]))
        assert counts(con) == (1, 1)
        assert [pr.title for pr in read_prs(con, "acme/widgets", WEEK)] == ["feat: y"]


def test_records_round_trip(tmp_path: Path) -> None:
    pr = make_pr(7)
    # A PR of a rebased branch keeps when it was written (ColossalAI's pipeline branch).
    rebased = make_pr(8).model_copy(
        update={"batch_written_at": datetime(2026, 4, 20, 2, 0, tzinfo=UTC)}
    )
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [pr, rebased]))
        assert read_prs(con, "acme/widgets", WEEK) == [pr, rebased]
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [pr]))
        assert read_prs(con, "acme/widgets", WEEK) == [pr]
        assert read_prs(con, "acme/widgets") == [pr]
        assert read_prs(con, "acme/widgets", date(2026, 5, 18)) == []


def test_a_failed_write_keeps_the_previous_partition(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1), make_pr(2)]))
        broken = pr_tables(WEEK, [make_pr(3), make_pr(3)])  # the same PR twice
        with pytest.raises(WarehouseError, match="nothing was changed"):
            replace_partition(con, "acme/widgets", WEEK, broken)
        assert counts(con) == (2, 4)


def test_other_partitions_are_untouched(tmp_path: Path) -> None:
    other = date(2026, 5, 4)
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", other, pr_tables(other, [make_pr(1)]))
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(2)]))
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, []))
        assert [pr.number for pr in read_prs(con, "acme/widgets")] == [1]


def test_a_warehouse_whose_folder_cannot_be_made_names_it(tmp_path: Path) -> None:
    """`database: prhub.yaml/w.duckdb` failed a materialize as "FileExistsError: [Errno 17]
    File exists: '.../prhub.yaml'", naming neither the warehouse nor the setting."""
    in_the_way = tmp_path / "prhub.yaml"
    in_the_way.write_text("database: prhub.yaml/w.duckdb\n", "utf-8")
    database = in_the_way / "w.duckdb"
    with pytest.raises(WarehouseError) as raised, connect(database):
        pass
    assert str(raised.value) == (
        f"cannot create warehouse {database}: its folder {in_the_way} cannot be made"
        f" (File exists: {in_the_way}); check `database`"
    )


def test_read_only_needs_an_existing_file(tmp_path: Path) -> None:
    with (
        pytest.raises(WarehouseError, match="does not exist yet"),
        connect(tmp_path / "absent.duckdb", read_only=True),
    ):
        pass


def test_one_merge_commit_stored_as_two_prs_fails_the_raw_prs_check(tmp_path: Path) -> None:
    first, second = make_pr(1), make_pr(2)
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [first, second]))
        outcomes = {o.name: o for o in check_raw_prs(con, "acme/widgets", [WEEK], "UTC")}
        assert outcomes["no_duplicate_prs"].passed
        same = [pr.model_copy(update={"merge_commit_sha": "ab" * 20}) for pr in (first, second)]
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, same))
        outcome = check_raw_prs(con, "acme/widgets", [WEEK], "UTC")[0]
    assert (outcome.name, outcome.passed) == ("no_duplicate_prs", False)
    assert outcome.offending == ["acme/widgets commit abababababab: #1, #2"]


def test_a_stored_pr_broken_by_hand_is_named_when_read(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1), make_pr(2)]))
        con.execute("UPDATE prs SET additions = -5 WHERE number = 2")
        with pytest.raises(WarehouseError, match=r"stored PR #2 of acme/widgets .*additions"):
            read_prs(con, "acme/widgets", WEEK)


def test_a_pr_filed_under_another_week_fails_the_raw_prs_check(tmp_path: Path) -> None:
    """#1 merged on 2026-05-12 belongs to the week of 2026-05-11, not to that of 2026-05-04."""
    earlier = date(2026, 5, 4)
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(2)]))
        replace_partition(con, "acme/widgets", earlier, pr_tables(earlier, [make_pr(1)]))
        outcomes = {o.name: o for o in check_raw_prs(con, "acme/widgets", [earlier, WEEK], "UTC")}
        # Shanghai's week of 2026-05-11 starts at 2026-05-10 16:00 UTC: #2 is inside it too.
        shanghai = check_raw_prs(con, "acme/widgets", [WEEK], "Asia/Shanghai")[1]
    misplaced = outcomes["prs_inside_their_week"]
    assert not misplaced.passed and misplaced.severity == "error"
    assert misplaced.detail == "acme/widgets: 1 of 2 PRs merged outside their week's window"
    assert misplaced.offending == [
        "acme/widgets #1 merged 2026-05-12T03:00:00+00:00 filed under 2026-05-04"
    ]
    assert shanghai.passed


def test_a_pr_without_a_module_fails_the_module_check_as_a_warning(tmp_path: Path) -> None:
    labelled = ModuleLabel(
        repo="acme/widgets", number=1, module="core", origin="title", confidence=1.0
    )
    with connect(tmp_path / "w.duckdb") as con:
        prs = [make_pr(1), make_pr(2, "feat: nothing names a module")]
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, prs))
        replace_partition(con, "acme/widgets", WEEK, module_tables(WEEK, [labelled], [], []))
        (outcome,) = check_modules(con, "acme/widgets", [WEEK])
        both = [labelled, labelled.model_copy(update={"number": 2})]
        replace_partition(con, "acme/widgets", WEEK, module_tables(WEEK, both, [], []))
        (fixed,) = check_modules(con, "acme/widgets", [WEEK])
    assert (outcome.name, outcome.passed, outcome.severity) == (
        "every_pr_has_a_module",
        False,
        "warn",
    )
    # A check's status is its latest run's, whatever weeks it covered: the failure says where.
    assert outcome.detail == "acme/widgets: 1 of 2 PRs have no module (week 2026-05-11)"
    assert outcome.offending == ["acme/widgets 2026-05-11 #2 feat: nothing names a module"]
    assert fixed.passed


def test_scores_out_of_range_or_missing_fail_the_score_checks(tmp_path: Path) -> None:
    def score(number: int) -> PrScore:
        return PrScore(
            number=number, importance=5.0, raw_score=4.0, parts={}, is_key=False, pr_type="feat"
        )

    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1), make_pr(2)]))
        both = score_tables("acme/widgets", WEEK, [score(1), score(2)])
        replace_partition(con, "acme/widgets", WEEK, both)
        assert all(o.passed for o in check_scores(con, "acme/widgets", [WEEK]))
        con.execute("UPDATE pr_scores SET importance = 11.5 WHERE number = 2")
        in_range, counted = check_scores(con, "acme/widgets", [WEEK])
        assert (in_range.name, in_range.passed) == ("scores_within_0_10", False)
        assert in_range.offending == ["acme/widgets 2026-05-11 #2: 11.5"] and counted.passed
        assert in_range.detail == "acme/widgets: 1 scores outside 0-10 (week 2026-05-11)"
        replace_partition(con, "acme/widgets", WEEK, score_tables("acme/widgets", WEEK, [score(1)]))
        in_range, counted = check_scores(con, "acme/widgets", [WEEK])
    assert in_range.passed
    assert (counted.name, counted.passed) == ("every_pr_scored", False)
    assert counted.offending == ["acme/widgets 2026-05-11: 2 PRs, 1 scores"]


class _FullDisk:
    """A connection whose COMMIT fails as on a full disk, after which no transaction is
    active and a ROLLBACK fails too."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def execute(self, statement: str, *_: object) -> None:
        self.statements.append(statement)
        if statement == "COMMIT":
            raise duckdb.IOException('Could not write file "prhub.duckdb.wal": No space left')
        if statement == "ROLLBACK":
            raise duckdb.TransactionException("cannot rollback - no transaction is active")


def test_a_failed_commit_is_the_error_raised_not_the_rollback_after_it() -> None:
    """A full disk read 'TransactionContext Error: cannot rollback - no transaction is
    active', the real cause only with --verbose."""
    con = _FullDisk()
    with (
        pytest.raises(duckdb.IOException, match="No space left"),
        transaction(con),  # type: ignore[arg-type]
    ):
        con.execute("DELETE FROM prs")
    assert con.statements == ["BEGIN TRANSACTION", "DELETE FROM prs", "COMMIT", "ROLLBACK"]


@pytest.fixture
def held_by_a_writer(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A warehouse another process holds open for writing, and that process's PID."""
    database = tmp_path / "held.duckdb"
    with connect(database):
        pass
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time\n"
            f"con = duckdb.connect({str(database)!r})\n"
            "print('open', flush=True)\n"
            "time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        yield database, holder.pid
    finally:
        holder.kill()
        holder.wait()


def test_a_reader_waiting_for_a_writer_says_who_holds_the_lock(
    held_by_a_writer: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`prhub sql` waited 120 s without a word, then told the reader to run writers one at a
    time, and dropped DuckDB's message that names the PID."""
    database, pid = held_by_a_writer
    monkeypatch.setattr(connection, "WAIT_NOTICE_SECONDS", 0.2)
    told: list[str] = []
    started = time.monotonic()
    with (
        pytest.raises(WarehouseLockedError) as error,
        connect(database, read_only=True, lock_timeout=1.0, on_wait=told.append),
    ):
        pass
    assert time.monotonic() - started < 10
    assert len(told) == 1
    assert told[0].startswith(f"waiting for the lock on {database} held by ")
    assert f"(PID {pid})" in told[0]
    message = str(error.value)
    assert message.startswith(f"warehouse {database} is being written by ")
    assert "read it again once that run has finished" in message
    assert f"PID {pid}" in message and "writers one at a time" not in message


def test_a_users_query_waits_seconds_not_minutes_for_a_writer(
    held_by_a_writer: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    database, pid = held_by_a_writer
    assert connection.READER_LOCK_SECONDS <= 15 < connection.WRITER_LOCK_SECONDS
    monkeypatch.setattr(connection, "READER_LOCK_SECONDS", 0.5)
    started = time.monotonic()
    with pytest.raises(WarehouseLockedError, match=f"PID {pid}"):
        run_query(database, "SELECT 1")
    assert time.monotonic() - started < 10


def test_a_writer_that_gives_up_keeps_duckdbs_message(
    held_by_a_writer: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    database, pid = held_by_a_writer
    monkeypatch.setattr(connection, "WAIT_NOTICE_SECONDS", 0.0)
    told: list[str] = []
    with (
        pytest.raises(WarehouseLockedError, match=f"one at a time .*PID {pid}"),
        connect(database, lock_timeout=0.3, on_wait=told.append),
    ):
        pass
    assert told and f"(PID {pid})" in told[0]


def test_a_warehouse_of_a_newer_prhub_is_refused(tmp_path: Path) -> None:
    database = empty_warehouse(tmp_path / "w.duckdb")
    latest = max(version for version, _, _ in _migration_files())
    with connect(database) as con:
        con.execute(
            "INSERT INTO schema_migrations VALUES (?, 'from_the_future', now())", [latest + 1]
        )
    expected = (
        f"{database} has schema version {latest + 1}; this prhub knows up to {latest}:"
        " upgrade prhub"
    )
    for read_only in (False, True):
        with (
            pytest.raises(WarehouseError, match=re.escape(expected)),
            connect(database, read_only=read_only),
        ):
            pass


def _warehouse_with_data(database: Path) -> bytes:
    """A warehouse whose last blocks hold a table's rows, written over several sessions (as
    weeks are), and its bytes."""
    with connect(database) as con:
        con.execute(
            "CREATE TABLE filler AS SELECT range AS i, md5(range::VARCHAR) AS s FROM range(200000)"
        )
    with connect(database) as con:
        con.execute("CREATE TABLE kept AS SELECT 1 AS i")
    with connect(database) as con:
        con.execute("DROP TABLE filler")
        con.execute(
            "CREATE TABLE later AS SELECT range AS i, md5(range::VARCHAR) AS s FROM range(100000)"
        )
    return database.read_bytes()


def test_a_warehouse_cut_short_is_named_damaged_at_open_or_first_query(tmp_path: Path) -> None:
    """A file cut short opened, and the first query reaching its missing blocks failed as
    `IOException: IO Error: Could not read enough bytes` (a materialize: `ingest failed:
    raw_prs: IOException`)."""
    database = tmp_path / "w.duckdb"
    data = _warehouse_with_data(database)
    for cut in (4096, len(data) // 2, len(data) - 200_000, len(data) - 1):
        database.write_bytes(data[:cut])
        for read_only in (False, True):
            with (
                pytest.raises(
                    WarehouseError, match=f"^warehouse {re.escape(str(database))} is damaged: "
                ),
                connect(database, read_only=read_only) as con,
            ):
                con.execute("SELECT * FROM later").fetchall()
            assert database.read_bytes() == data[:cut]  # left as it was, for a restore


def test_a_warehouse_overwritten_in_part_is_named_damaged(tmp_path: Path) -> None:
    database = tmp_path / "w.duckdb"
    data = bytearray(_warehouse_with_data(database))
    data[600] ^= 0xFF  # in the file's header, which DuckDB checksums
    database.write_bytes(bytes(data))
    with pytest.raises(WarehouseError, match=r"is damaged: .*Corrupt database file"):
        run_query(database, "SELECT 1")


def test_an_error_quoting_damage_words_in_data_is_no_damage(tmp_path: Path) -> None:
    """A duplicate key "src/checksum.py" was reported as a damaged warehouse."""
    database = tmp_path / "w.duckdb"
    with connect(database) as con:
        con.execute("CREATE TABLE t (path VARCHAR PRIMARY KEY)")
    with pytest.raises(duckdb.ConstraintException), connect(database) as con:
        con.execute("INSERT INTO t VALUES ('Corrupt database file checksum.py')")
        con.execute("INSERT INTO t VALUES ('Corrupt database file checksum.py')")


def test_a_file_that_is_no_warehouse_says_so(tmp_path: Path) -> None:
    database = tmp_path / "w.duckdb"
    database.write_bytes(bytes(range(256)) * 200)
    with pytest.raises(WarehouseError, match="not a valid DuckDB database file"):
        run_query(database, "SELECT 1")


def test_a_warehouse_another_run_is_creating_is_waited_for(tmp_path: Path) -> None:
    """Four runs starting on a new warehouse at once: one read the file before the other had
    written its header ("exists, but it is not a valid DuckDB database file") and its week
    failed."""
    database = tmp_path / "w.duckdb"
    database.write_bytes(b"\0" * 8)  # a header being written
    created = tmp_path / "created.duckdb"
    with connect(created):
        pass

    def finish_creating() -> None:
        time.sleep(0.3)
        created.replace(database)

    creator = threading.Thread(target=finish_creating)
    creator.start()
    try:
        with connect(database) as con:
            assert schema_version(con) == max(v for v, _, _ in _migration_files())
    finally:
        creator.join()


def test_a_short_file_written_long_ago_is_no_warehouse_being_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It is refused at once, not waited for."""
    database = tmp_path / "w.duckdb"
    database.write_bytes(b"\0" * 8)
    os.utime(database, (time.time() - 60, time.time() - 60))

    def no_wait(seconds: float) -> None:
        raise AssertionError(f"waited {seconds:.2f}s for a file no run is creating")

    monkeypatch.setattr("prhub_pipeline.warehouse.connection.time.sleep", no_wait)
    with pytest.raises(WarehouseError, match="not a valid DuckDB database file"):
        run_query(database, "SELECT 1")


def test_a_sqlite_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """DuckDB opens SQLite files through an extension it downloads: `database` naming one
    failed as "Failed to download extension sqlite_scanner" (and, with a network, would have
    had the pipeline's tables migrated into it)."""
    database = tmp_path / "prhub.duckdb"
    with sqlite3.connect(database) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    data = database.read_bytes()
    for read_only in (False, True):
        with (
            pytest.raises(
                WarehouseError,
                match=re.escape(
                    f"cannot open warehouse {database}: it is not a valid DuckDB database file"
                    " (it is a SQLite database)"
                ),
            ),
            connect(database, read_only=read_only),
        ):
            pass
    with pytest.raises(WarehouseError, match="it is a SQLite database"):
        run_query(database, "SELECT 1")
    assert database.read_bytes() == data


def test_a_week_stored_under_a_former_name_and_the_new_one_moves_nothing(
    tmp_path: Path,
) -> None:
    """Which name's rows of a week are right is for the user to say; the rest stays put."""
    database = empty_warehouse(tmp_path / "w.duckdb")
    with connect(database) as con:
        replace_partition(con, "acme/widgets", WEEK, pr_tables(WEEK, [make_pr(1)]))
        gadget = make_pr(2).model_copy(update={"repo": "acme/gadgets"})
        replace_partition(con, "acme/gadgets", WEEK, pr_tables(WEEK, [gadget]))
        with pytest.raises(
            WarehouseError,
            match=f"^acme/gadgets: week {WEEK} is stored under both acme/widgets",
        ):
            move_repository(con, "acme/widgets", "acme/gadgets")
        rows = "SELECT repo, number FROM prs ORDER BY 2"
        assert con.execute(rows).fetchall() == [("acme/widgets", 1), ("acme/gadgets", 2)]
        assert move_repository(con, "acme/nothing", "acme/gadgets") == []


def test_a_quiet_week_stored_under_both_names_moves_nothing(tmp_path: Path) -> None:
    """A quiet week, ingested under the new name and unreported, holds only its stage rows:
    the move stopped on a bare key error of week_stages instead of naming the week."""
    database = empty_warehouse(tmp_path / "w.duckdb")
    with connect(database) as con:
        replace_partition(con, "acme/widgets", WEEK, stage_tables("acme/widgets", WEEK, "ingest"))
        replace_partition(con, "acme/gadgets", WEEK, stage_tables("acme/gadgets", WEEK, "ingest"))
        with pytest.raises(
            WarehouseError, match=f"^acme/gadgets: week {WEEK} is stored under both acme/widgets"
        ):
            move_repository(con, "acme/widgets", "acme/gadgets")
