"""The `prhub` command line: bad arguments are reported like every other error, on one line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from prhub_pipeline.cli import main
from prhub_pipeline.config import load_settings
from prhub_pipeline.modelling.tagging import evaluation
from prhub_pipeline.modelling.tagging.pr_records import write_pr_records
from prhub_pipeline.warehouse import WarehouseError
from prhub_pipeline.warehouse.connection import latest_migration
from prhub_pipeline.warehouse.query import check_query, run_query
from prhub_pipeline_tests.conftest import empty_warehouse, write_config
from prhub_pipeline_tests.module_fixtures import synthetic_history
from prhub_pipeline_tests.test_warehouse import warehouse_at_schema


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["materialize", "--week", "2026-05-12"],
            "prhub materialize: argument --week: week '2026-05-12' is a Tuesday;"
            " a week is named by its Monday (2026-05-11)",
        ),
        (
            ["report", "--week", "2026-05-11", "--lang", "fr"],
            "prhub report: argument --lang: invalid choice: 'fr'",
        ),
        (["ui", "--port", "x"], "prhub ui: argument --port: 'x' is not a port number (1-65535)"),
        # It has the form; it is no day of the calendar.
        (
            ["materialize", "--week", "2026-02-30"],
            "prhub materialize: argument --week: week '2026-02-30' is not a real date"
            " (day is out of range for month)",
        ),
        # Python reads these as dates too; no partition is named so.
        (
            ["report", "--week", "20260511"],
            "prhub report: argument --week: week '20260511' is not a date of the form YYYY-MM-DD",
        ),
        (
            ["materialize", "--week", "2026-W20-1"],
            "prhub materialize: argument --week: week '2026-W20-1' is not a date of the form"
            " YYYY-MM-DD",
        ),
        (
            ["materialize", "--week", "２０２６-05-11"],
            "prhub materialize: argument --week: week '２０２６-05-11' is not a date of the form",
        ),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_its_value(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    # The whole message, without argparse's usage lines (Python versions word choices apart).
    assert captured.err.startswith(expected) and captured.err.count("\n") == 1
    assert not captured.out


def prhub(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run the command; its exit code and its stderr, which must be a single line."""
    try:
        code = main(argv)
    except SystemExit as exit_info:  # argparse's errors
        code = int(exit_info.code or 0)
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return code, err.rstrip("\n")


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A valid settings file; $PRHUB_CONFIG is restored after the test (main sets it)."""
    (tmp_path / "clone").mkdir()
    path = write_config(tmp_path, tmp_path / "clone", start="2024-10-28")
    monkeypatch.setenv("PRHUB_CONFIG", str(path))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    return path


@pytest.fixture
def no_dagster(monkeypatch: pytest.MonkeyPatch) -> None:
    """`prhub ui` must refuse bad input before it prepares an instance or replaces the test's
    process with `dagster dev`."""

    def refuse(*args: object) -> None:
        raise AssertionError("prhub ui went on to start Dagster")

    from prhub_pipeline.defs.instance import default_dagster_home, materialize_home

    instance = types.ModuleType("prhub_pipeline.defs.instance")
    instance.prepare_dagster_home = instance.exec_dagster_dev = refuse  # type: ignore[attr-defined]
    instance.default_dagster_home = default_dagster_home  # type: ignore[attr-defined]
    instance.materialize_home = materialize_home  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "prhub_pipeline.defs.instance", instance)


@pytest.mark.parametrize(
    ("start", "message"),
    [
        (
            "2024-13-40",
            ":7: repos.0.start: '2024-13-40' is not a real date (month must be in 1..12)",
        ),
        ("20241028", ":7: repos.0.start: expected a date like 2024-10-28, got 20241028"),
    ],
)
def test_a_config_date_that_is_none_is_bad_input_naming_file_and_key(
    config: Path, start: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config.write_text(
        config.read_text(encoding="utf-8").replace("start: 2024-10-28", f"start: {start}"),
        encoding="utf-8",
    )
    assert prhub(["sql", "SELECT 1", "--config", str(config)], capsys) == (
        2,
        f"prhub: {config}{message}",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfed\x00b\x00", ": not UTF-8 text (byte 0xff at position 0, line 1)"),
        (
            b"database: [x\nlanguage: en\n",
            ": not valid YAML at line 2, column 9: expected ',' or ']', but got ':'",
        ),
        (b"database: x\ndatabase: y\n", ":2: database: key given twice, first on line 1"),
        # After a block collection, whose end is where the next key starts.
        (
            b"language: en\nrepos:\n  - name: a/b\n    start: 2024-10-28\nlanguage: zh\n",
            ":5: language: key given twice, first on line 1",
        ),
        (
            b"repos:\n  - name: a/b\n    modules:\n      allowed: [x]\n    name: c/d\n",
            ":5: repos.0.name: key given twice, first on line 2",
        ),
    ],
)
def test_a_config_that_is_not_utf8_yaml_is_one_line_naming_the_file(
    config: Path, content: bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config.write_bytes(content)
    assert prhub(["sql", "SELECT 1", "--config", str(config)], capsys) == (
        2,
        f"prhub: {config}{message}",
    )


def test_config_may_come_before_the_command(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`prhub --config F sql ...` said "argument command: invalid choice: 'F'"."""
    config.write_text("database: x\ndatabase: y\n", encoding="utf-8")  # an error naming it
    named = (2, f"prhub: {config}:2: database: key given twice, first on line 1")
    assert prhub(["--config", str(config), "sql", "SELECT 1"], capsys) == named
    assert prhub(["sql", "SELECT 1", "--config", str(config)], capsys) == named
    evaluate = ["classifier", "evaluate", "--train", "a.jsonl", "--test", "b.jsonl"]
    assert prhub(["--config", str(config), *evaluate], capsys) == (
        2,
        "prhub: --config: classifier evaluate reads no settings file; --repo-config names a"
        " repository's modules",
    )


@pytest.mark.parametrize("query", ["", "   ", "-- comment only", "/* nothing */ ;"])
def test_an_empty_query_is_bad_input(
    config: Path, query: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert prhub(["sql", query], capsys) == (
        2,
        "prhub sql: argument query: the query is empty: it holds no SQL statement",
    )


def test_a_query_of_several_statements_is_bad_input(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB printed the last statement's rows alone."""
    assert prhub(["sql", "SELECT 1; SELECT 2;"], capsys) == (
        2,
        "prhub sql: argument query: the query holds 2 statements; run them one at a time",
    )
    assert check_query("SELECT 1;  -- the one") == "SELECT 1;  -- the one"


def test_run_query_refuses_an_empty_query(tmp_path: Path) -> None:
    with pytest.raises(WarehouseError, match="the query is empty"):
        run_query(tmp_path / "prhub.duckdb", "-- comment only")


def test_an_error_found_while_running_a_query_names_the_querys_own_line(
    tmp_path: Path,
) -> None:
    """`prhub sql "SELECT * FROM weekly_module_trends WHERE week_start = 'last week'"` said
    `LINE 3:` of a one-line query: the cast to text wraps the query in DuckDB's own lines."""
    database = empty_warehouse(tmp_path / "prhub.duckdb")
    query = "SELECT x\nFROM (VALUES ('7'), ('seven')) AS t(x)\nWHERE CAST(x AS INTEGER) > 0"
    with pytest.raises(WarehouseError) as failure:
        run_query(database, query)
    message = str(failure.value)
    assert message.startswith("query failed: Conversion Error: Could not convert string 'seven'")
    assert message.splitlines()[-2:] == [
        "LINE 3: WHERE CAST(x AS INTEGER) > 0",
        "              ^^^^^^^^^^^^^^^^^^",
    ]


@pytest.mark.parametrize(
    "query", ["SELECT * FROM pr_reverts", "SELECT week_start, stage FROM week_stages"]
)
def test_a_table_missing_from_a_warehouse_an_earlier_prhub_wrote_says_so(
    tmp_path: Path, query: str
) -> None:
    """A warehouse at schema version 10 (vllm-ascend and slime, written before `pr_reverts`)
    answered `SELECT * FROM pr_reverts` with `Did you mean "pr_scores"?` alone: nothing said
    that the table README describes comes with the next materialize."""
    database = tmp_path / "prhub.duckdb"
    warehouse_at_schema(database, 10)
    with pytest.raises(WarehouseError) as failure:
        run_query(database, query)
    assert str(failure.value).splitlines()[-1] == (
        f"{database} was written by an earlier prhub (schema version 10; this one's is"
        f" {latest_migration()}): the tables, columns and SQL models added since are there once"
        " `prhub materialize` has run on it"
    )


def test_a_misspelt_table_of_a_current_warehouse_is_only_duckdbs_error(tmp_path: Path) -> None:
    database = empty_warehouse(tmp_path / "prhub.duckdb")
    with pytest.raises(WarehouseError) as failure:
        run_query(database, "SELECT * FROM pr_revert")
    assert "earlier prhub" not in str(failure.value)
    assert 'Did you mean "pr_reverts"' in str(failure.value)


@pytest.mark.parametrize(
    "query",
    [
        "COPY (SELECT 'x') TO '{folder}/written.csv'",
        "SELECT * FROM read_text('{folder}/prhub.yaml')",
        "ATTACH '{folder}/other.duckdb' AS other",
        "SELECT * FROM glob('{folder}/*')",
        "INSTALL httpfs",
        "SET enable_external_access = true",
        "DELETE FROM prs",
    ],
)
def test_a_users_query_reaches_nothing_but_the_warehouse(tmp_path: Path, query: str) -> None:
    """`prhub sql` read the warehouse only, yet COPY ... TO overwrote the config file."""
    database = empty_warehouse(tmp_path / "prhub.duckdb")
    (tmp_path / "prhub.yaml").write_text("database: prhub.duckdb\n", encoding="utf-8")
    assert run_query(database, "SELECT count(*) AS prs FROM prs") == (["prs"], [("0",)])
    with pytest.raises(WarehouseError, match="query failed"):
        run_query(database, query.format(folder=tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prhub.duckdb", "prhub.yaml"]
    assert (tmp_path / "prhub.yaml").read_text(encoding="utf-8") == "database: prhub.duckdb\n"


@pytest.mark.parametrize(
    ("out", "message"),
    [
        (".", "is a directory; name a file"),
        ("clone/notes.md/x.md", "clone/notes.md is not a directory"),
        ("warehouse/prhub.duckdb", "is the warehouse; writing there would replace it"),
        ("prhub.yaml", "is the config file; writing there would replace it"),
    ],
)
def test_report_out_that_cannot_be_written_is_refused_before_reading(
    config: Path,
    out: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(config.parent)
    (config.parent / "clone" / "notes.md").write_text("kept\n", encoding="utf-8")
    code, err = prhub(["report", "--week", "2024-10-28", "--out", out], capsys)
    assert (code, err) == (2, f"prhub: --out {out}: {message}")
    assert (config.parent / "clone" / "notes.md").read_text(encoding="utf-8") == "kept\n"


def test_materialize_through_without_week_names_the_default_week(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = prhub(["materialize", "--through", "2024-10-28"], capsys)
    assert code == 2
    assert re.fullmatch(
        r"prhub: --through 2024-10-28 is before the latest complete week \d{4}-\d\d-\d\d, where"
        r" a range without --week starts: give --week too",
        err,
    ), err


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1", "x"])
@pytest.mark.usefixtures("config", "no_dagster")
def test_ui_refuses_a_port_outside_1_to_65535(
    port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert prhub(["ui", f"--port={port}"], capsys) == (
        2,
        f"prhub ui: argument --port: {port!r} is not a port number (1-65535)",
    )


def test_ui_help_gives_the_defaults_of_host_and_port(capsys: pytest.CaptureFixture[str]) -> None:
    # README names them; a user reading `prhub ui --help` should see them too.
    with pytest.raises(SystemExit) as exit_info:
        main(["ui", "--help"])
    assert exit_info.value.code == 0
    usage = " ".join(capsys.readouterr().out.split())
    assert "--host HOST default: 127.0.0.1 (0.0.0.0 for other machines)" in usage
    assert "--port PORT default: 3000" in usage


def test_sql_help_says_how_to_list_the_tables_and_what_they_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`prhub sql --help` said "the SQL to run" and no more: a user without README at hand had
    no way to learn the names of the tables and models, nor where their descriptions are."""
    with pytest.raises(SystemExit) as exit_info:
        main(["sql", "--help"])
    assert exit_info.value.code == 0
    usage = " ".join(capsys.readouterr().out.split())
    assert "SELECT table_name, table_comment FROM information_schema.tables" in usage
    assert "SELECT column_name, data_type, comment FROM duckdb_columns()" in usage


def test_sql_whole_prints_a_long_cell_whole(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model's description, its relation's comment, runs to hundreds of characters (pr_facts'
    136, weekly_trends' about 900), and `prhub sql` cut every cell at 80 columns: no query
    could show it whole."""
    empty_warehouse(load_settings(config).database)
    query = "SELECT 'x' AS name, repeat('ab', 60) AS comment"
    assert main(["sql", query]) == 0
    assert capsys.readouterr().out.splitlines()[2] == "x    | " + "ab" * 39 + "a…"
    assert main(["sql", "--whole", query]) == 0
    assert capsys.readouterr().out.splitlines()[2] == "x    | " + "ab" * 60


@pytest.mark.usefixtures("config", "no_dagster")
def test_ui_refuses_a_dagster_home_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.write_text("not a folder\n", encoding="utf-8")
    assert prhub(["ui", "--dagster-home", str(home)], capsys) == (
        2,
        f"prhub: --dagster-home {home}: is not a directory",
    )
    assert prhub(["ui", "--dagster-home", str(home / "sub")], capsys) == (
        2,
        f"prhub: --dagster-home {home / 'sub'}: cannot create the folder: Not a directory",
    )


@pytest.mark.usefixtures("config")
def test_ui_says_how_materialize_records_its_runs_where_the_ui_sees_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`prhub ui --dagster-home DIR` and then `prhub materialize` without $DAGSTER_HOME: the
    command ran in a throwaway instance, and the UI showed its weeks as never materialized."""
    from prhub_pipeline.defs import instance

    def prepare(home: Path) -> Path:
        (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", "utf-8")
        return home / "dagster.yaml"

    monkeypatch.setattr(instance, "prepare_dagster_home", prepare)
    monkeypatch.setattr(instance, "exec_dagster_dev", lambda *args: None)
    elsewhere = tmp_path / "elsewhere"
    assert main(["ui", "--dagster-home", str(elsewhere)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"prhub materialize records its runs in this instance with DAGSTER_HOME={elsewhere};"
        " without it the UI does not see them"
    ]
    monkeypatch.setenv("DAGSTER_HOME", str(elsewhere))
    assert main(["ui", "--dagster-home", str(elsewhere)]) == 0
    monkeypatch.delenv("DAGSTER_HOME")
    assert main(["ui"]) == 0  # the folder beside the config, which materialize finds
    assert [line for line in capsys.readouterr().out.splitlines() if "DAGSTER_HOME" in line] == []


def test_ui_starts_dagster_dev_without_its_advice_to_use_dg_dev(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every `prhub ui` printed Dagster's `SupersessionWarning: Function `dev_command` is
    superseded and its usage is discouraged. Use 'dg dev' instead.`: advice for `dg` projects,
    which an operator of `prhub ui` cannot take."""
    from prhub_pipeline.defs import instance

    started: dict[str, str] = {}
    monkeypatch.setattr(instance.os, "execvpe", lambda file, args, env: started.update(env))
    monkeypatch.setattr(instance.signal, "signal", lambda *args: None)  # pytest's own stay
    monkeypatch.setenv("PYTHONWARNINGS", "default")
    instance.exec_dagster_dev(tmp_path, tmp_path / "prhub.yaml", "127.0.0.1", 3000)
    warn = (
        'import warnings; warnings.warn("Function `dev_command` is superseded and its usage is'
        " discouraged. Use 'dg dev' instead.\", FutureWarning)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", warn], env=started, capture_output=True, text=True, check=True
    )
    assert shown.stderr == ""
    assert started["PYTHONWARNINGS"].startswith("default,")  # the operator's own filters stay


def _records(tmp_path: Path) -> tuple[Path, Path]:
    history = synthetic_history(80)
    write_pr_records(tmp_path / "train.jsonl", history[:60])
    write_pr_records(tmp_path / "test.jsonl", history[60:])
    return tmp_path / "train.jsonl", tmp_path / "test.jsonl"


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        ("missing/p.jsonl", "no such directory {tmp}/missing"),
        ("test.jsonl", "is the --test file; writing there would replace it"),
        (".", "is a directory; name a file"),
    ],
)
def test_evaluate_refuses_a_predictions_path_before_training(
    tmp_path: Path,
    predictions: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_training(*args: object) -> None:
        raise AssertionError("trained before checking --predictions")

    monkeypatch.setattr(evaluation, "evaluate_files", no_training)
    train, test = _records(tmp_path)
    path = tmp_path / predictions
    argv = ["classifier", "evaluate", "--train", str(train), "--test", str(test)]
    assert prhub([*argv, "--predictions", str(path)], capsys) == (
        2,
        f"prhub: --predictions {path}: " + message.format(tmp=tmp_path),
    )
    assert test.read_text(encoding="utf-8").count("\n") == 20  # the input is intact


def test_evaluate_with_an_empty_test_file_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train, _ = _records(tmp_path)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    argv = ["classifier", "evaluate", "--train", str(train), "--test", str(empty)]
    assert prhub(argv, capsys) == (2, f"prhub: {empty}: no PR records")


def test_evaluate_names_a_missing_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, test = _records(tmp_path)
    missing = tmp_path / "missing.jsonl"
    argv = ["classifier", "evaluate", "--train", str(missing), "--test", str(test)]
    assert prhub(argv, capsys) == (
        2,
        f"prhub: {missing}: cannot read PR records: No such file or directory",
    )


def test_evaluate_names_the_file_and_line_of_a_bad_record_or_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train, test = _records(tmp_path)
    argv = ["classifier", "evaluate", "--train", str(train), "--test", str(test)]
    record = json.loads(test.read_text(encoding="utf-8").splitlines()[0])
    test.write_text(json.dumps({**record, "files": ["a.py"]}) + "\n", encoding="utf-8")
    assert prhub(argv, capsys) == (
        2,
        f"prhub: {test}:1: PR #{record['number']}: files.0: expected an object with a path,"
        " got 'a.py'",
    )
    latin1 = '{"title": "café"}\n'.encode("latin-1")
    position = test.stat().st_size + latin1.index(b"\xe9")
    with test.open("ab") as out:
        out.write(latin1)
    assert prhub(argv, capsys) == (
        2,
        f"prhub: {test}:2: not UTF-8 text (byte 0xe9 at position {position})",
    )
