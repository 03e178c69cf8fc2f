from __future__ import annotations

import re
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import get_args

import duckdb
import pytest

from prhub_pipeline.defs.sql_assets import TABLE_PRODUCERS
from prhub_pipeline.modelling.scoring.risks import SEVERITY
from prhub_pipeline.records import (
    FixImpact,
    ModuleLabel,
    PrType,
    PullRequest,
    PushedCommit,
    Review,
    ReviewData,
    ReviewThread,
    RiskFlag,
    RiskKind,
    ThemeTag,
    ThreadComment,
)
from prhub_pipeline.stages.report import display_names
from prhub_pipeline.warehouse import WarehouseError, connect, migrate, replace_partition, sql_models
from prhub_pipeline.warehouse.github import review_tables
from prhub_pipeline.warehouse.modules import module_tables
from prhub_pipeline.warehouse.prs import (
    pr_tables,
    pushed_commit_tables,
    read_pushed_commits,
    read_pushed_reverts,
)
from prhub_pipeline.warehouse.query import run_query
from prhub_pipeline.warehouse.reports import display_name_tables, revert_tables, risk_tables
from prhub_pipeline.warehouse.sql_models import (
    SqlModelError,
    drop_stale_models,
    load_models,
    materialize,
    model_names,
)
from prhub_pipeline_tests.test_warehouse import warehouse_at_schema

SOURCES = ["prs", "pr_files"]
DBT_LIKE_SQL = Path(__file__).resolve().parents[1] / "dbt_like_sql"


def write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.sql").write_text(text, encoding="utf-8")


def migrated() -> duckdb.DuckDBPyConnection:
    """An in-memory warehouse with the pipeline's tables, and the registry the models write."""
    con = duckdb.connect()
    migrate(con)
    return con


def store_prs(con: duckdb.DuckDBPyConnection, numbers: list[int]) -> None:
    week = date(2026, 5, 11)
    merged = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)
    prs = [PullRequest(repo="acme/widgets", number=n, title="t", merged_at=merged) for n in numbers]
    replace_partition(con, "acme/widgets", week, pr_tables(week, prs))


def test_graph_comes_from_refs_and_header_sets_materialization(tmp_path: Path) -> None:
    models = tmp_path / "models"
    write(models, "b_totals", "-- materialized: table\n-- description: totals\n"
          "SELECT sum(n) AS total FROM {{ ref('a_counts') }}")  # fmt: skip
    write(models, "a_counts", "SELECT number AS n FROM {{ source('prs') }}")
    ordered = load_models(models, SOURCES)
    assert [m.name for m in ordered] == ["a_counts", "b_totals"]
    totals = ordered[1]
    assert (totals.materialized, totals.description, totals.refs) == (
        "table",
        "totals",
        ["a_counts"],
    )
    assert ordered[0].sources == ["prs"] and ordered[0].materialized == "view"

    con = migrated()
    store_prs(con, [1, 2])
    assert [materialize(con, model) for model in ordered] == [2, 1]
    assert con.execute("SELECT total FROM b_totals").fetchone() == (3,)
    kinds = dict(
        con.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall()
    )
    assert kinds["a_counts"] == "VIEW" and kinds["b_totals"] == "BASE TABLE"
    assert materialize(con, ordered[1]) == 1  # re-materializing replaces


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a": "SELECT * FROM {{ ref('missing') }}"}, r"a\.sql: ref\('missing'\) names no model"),
        (
            {"a": "SELECT * FROM {{ ref('b') }}", "b": "SELECT * FROM {{ ref('a') }}"},
            r"a\.sql: ref cycle a -> b -> a",
        ),
        (
            {"a": "SELECT * FROM {{ source('nope') }}"},
            r"a\.sql: source\('nope'\) is not a warehouse",
        ),
        ({"a": "-- materialized: cube\nSELECT 1"}, r"a\.sql: materialized must be view or table"),
        ({"a": "SELECT {{ ref('b' }}"}, r"a\.sql: template error"),
        ({"prs": "SELECT 1"}, r"prs\.sql: prs is a pipeline table"),
        # No source, but the warehouse's own: a model would replace them.
        ({"sql_models": "SELECT 1"}, r"sql_models\.sql: sql_models is a pipeline table"),
        (
            {"schema_migrations": "SELECT 1"},
            r"schema_migrations\.sql: schema_migrations is a pipeline table",
        ),
        ({"Bad-Name": "SELECT 1"}, r"Bad-Name\.sql: a model name must be lower_snake_case"),
    ],
)
def test_bad_models_fail_naming_the_file(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        write(tmp_path / "models", name, text)
    with pytest.raises(SqlModelError, match=message):
        load_models(tmp_path / "models", SOURCES)


def test_a_failing_model_keeps_the_previous_relation(tmp_path: Path) -> None:
    write(tmp_path / "models", "a", "SELECT 1 AS x")
    [model] = load_models(tmp_path / "models", SOURCES)
    con = migrated()
    materialize(con, model)
    broken = model.model_copy(update={"sql": "SELECT no_such_column FROM prs"})
    with pytest.raises(SqlModelError, match=r"a\.sql"):
        materialize(con, broken)
    assert con.execute("SELECT x FROM a").fetchone() == (1,)


def test_risk_backlog_has_one_row_per_flag_when_a_pr_is_reverted_twice(tmp_path: Path) -> None:
    """vllm-ascend #5519 was reverted by #5902 and #5903: its flag was listed twice. A PR a
    revert of several undoes (#5520, which `prs.reverted_number` does not hold) is reverted
    too."""
    merged = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)

    def pr(number: int, minutes: int, **extra: object) -> PullRequest:
        return PullRequest(
            repo="acme/widgets",
            number=number,
            title=f"change {number}",
            merged_at=merged + timedelta(minutes=minutes),
            **extra,  # type: ignore[arg-type]
        )

    prs = [
        pr(5519, 0),
        pr(5520, 1),
        pr(5903, 20, is_revert=True, reverted_number=5519),
        pr(5902, 10, is_revert=True, reverted_number=5519),
    ]
    flags = [
        RiskFlag(number=number, risk="reverted", severity="high", detail="reverted by #5902")
        for number in (5519, 5520)
    ]
    week = date(2026, 5, 11)
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(
            con,
            "acme/widgets",
            week,
            [
                *pr_tables(week, prs),
                *risk_tables("acme/widgets", week, flags),
                *revert_tables("acme/widgets", week, {5902: [5519, 5520], 5903: [5519]}),
            ],
        )
        [backlog] = [
            m for m in load_models(DBT_LIKE_SQL, TABLE_PRODUCERS) if m.name == "risk_backlog"
        ]
        materialize(con, backlog)
        rows = con.execute("SELECT number, reverted_by FROM risk_backlog").fetchall()
    assert rows == [(5519, 5902), (5520, 5902)]


def test_a_pr_reverted_by_a_pushed_commit_reads_as_reverted(tmp_path: Path) -> None:
    """OpenRLHF pushed the revert of #725 (f6e1ac1): no pr_reverts row, so pr_facts and
    risk_backlog said nothing reverted it. The push is no PR: `reverted_by` stays NULL, and
    `reverts` and the PR count do not count it."""
    week = date(2026, 5, 11)
    merged = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)
    prs = [PullRequest(repo="acme/widgets", number=725, title="fix", merged_at=merged)]
    pushed = [
        PushedCommit(
            repo="acme/widgets",
            sha=sha,
            committed_at=merged + timedelta(hours=hours),
            subject='Revert "fix (#725)"',
            reverted_number=725,
        )
        for sha, hours in (("f6e1ac1be5", 1), ("0b0e1ac1be", 2))
    ]
    flag = RiskFlag(
        number=725,
        risk="reverted",
        severity="high",
        detail="reverted by commit f6e1ac1be, pushed without a PR (2026-05-12)",
        reverted_by_commit="f6e1ac1be5",
    )
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(
            con,
            "acme/widgets",
            week,
            [
                *pr_tables(week, prs),
                *pushed_commit_tables(week, pushed),
                *risk_tables("acme/widgets", week, [flag]),
            ],
        )
        materialize_shipped_models(con)
        facts = con.execute(
            "SELECT number, reverts, reverted_by, reverted_by_commit FROM pr_facts"
        ).fetchall()
        backlog = con.execute(
            "SELECT number, reverted_by, reverted_by_commit, evidence FROM risk_backlog"
            " JOIN pr_risks USING (repo, number, risk)"
        ).fetchall()
        prs_counted = con.execute("SELECT prs FROM weekly_contributors").fetchall()
    assert facts == [(725, [], None, "f6e1ac1be5")]  # the first of the two
    [(number, reverted_by, by_commit, evidence)] = backlog
    assert (number, reverted_by, by_commit) == (725, None, "f6e1ac1be5")
    assert '"reverted_by_commit": "f6e1ac1be5"' in evidence
    assert prs_counted == [(1,)]


def test_a_pushed_revert_keeps_its_message_in_the_warehouse(tmp_path: Path) -> None:
    """OpenRLHF's pushed revert of #725 was stored with its subject alone: the report could tell
    no reason for it. Its body is stored and read back; a commit that is no revert has none."""
    week = date(2025, 2, 3)
    pushed = [
        PushedCommit(
            repo="acme/widgets",
            sha="f6e1ac1be5",
            committed_at=datetime(2025, 2, 8, 14, 23, tzinfo=UTC),
            subject='Revert "fix (#725)"',
            reverted_number=725,
            body="This reverts commit 97f590cabd.\n\nIt hangs the colocated engines.",
        ),
        PushedCommit(
            repo="acme/widgets",
            sha="0b0e1ac1be",
            committed_at=datetime(2025, 2, 8, 15, 0, tzinfo=UTC),
            subject="update README",
        ),
    ]
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", week, pushed_commit_tables(week, pushed))
        assert read_pushed_commits(con, "acme/widgets", week) == pushed
        assert read_pushed_reverts(con, "acme/widgets") == pushed[:1]
        stored = con.execute("SELECT sha, body FROM pushed_commits ORDER BY committed_at")
        assert stored.fetchall() == [(c.sha, c.body) for c in pushed]


def materialize_shipped_models(con: duckdb.DuckDBPyConnection) -> None:
    for model in load_models(DBT_LIKE_SQL, TABLE_PRODUCERS):
        materialize(con, model)


def test_author_figures_count_prs_stored_since_the_last_model_refresh(tmp_path: Path) -> None:
    """`author_identities` is a table, refreshed with the models: a PR stored after the last
    refresh (a Dagster run with the sql_models_after_weekly_runs sensor off) by an author it
    did not know was left out of `weekly_contributors` and `author_activity` (the reviewer's
    verl warehouse: author_activity summed 2883 PRs, `prs` held 2884). A new name whose key
    another name has is that person, no new author."""

    def pr(number: int, merged: datetime, author: str, key: str) -> PullRequest:
        return PullRequest(
            repo="acme/widgets",
            number=number,
            title=f"change {number}",
            merged_at=merged,
            author=author,
            author_key=key,
        )

    january, first, second = date(2026, 1, 5), date(2026, 5, 4), date(2026, 5, 11)
    at = datetime(2026, 5, 4, 3, 0, tzinfo=UTC)
    with connect(tmp_path / "w.duckdb") as con:
        # The history reaches 12 weeks back, so who is new is known.
        january_prs = [pr(1, datetime(2026, 1, 6, tzinfo=UTC), "Carol", "carol")]
        replace_partition(con, "acme/widgets", january, pr_tables(january, january_prs))
        first_prs = [pr(2, at, "Alice", "alice"), pr(3, at, "xiazhahe", "xiazhahe")]
        replace_partition(con, "acme/widgets", first, pr_tables(first, first_prs))
        materialize_shipped_models(con)
        later = at + timedelta(days=7)
        second_prs = [
            pr(4, later, "Alice", "alice"),
            pr(5, later + timedelta(hours=1), "NIE SHIYU", "xiazhahe"),
            pr(6, later, "Dana", "dana"),
        ]
        replace_partition(con, "acme/widgets", second, pr_tables(second, second_prs))
        week = con.execute(
            "SELECT authors, new_authors, new_author_names, prs FROM weekly_contributors"
            " WHERE week_start = ?",
            [second],
        ).fetchall()
        activity = con.execute(
            "SELECT author, prs, first_week, last_week FROM author_activity ORDER BY author"
        ).fetchall()
    assert week == [(3, 1, ["Dana"], 3)]
    assert activity == [
        ("Alice", 2, first, second),
        ("Carol", 1, january, january),
        ("Dana", 1, second, second),
        ("NIE SHIYU", 2, first, second),  # named as they last signed
    ]


def test_the_author_figures_count_commits_pushed_without_a_pr_apart(tmp_path: Path) -> None:
    """OpenRLHF's xiaoxigua999 pushed 510 commits and opened 29 PRs: weekly_contributors and
    author_activity counted PR authors alone, so its most active committer barely showed. The
    pushes are counted apart, each person's under all their names (a push signed otherwise,
    from the same address, is theirs), and the PR figures are what they were."""
    week = date(2026, 5, 11)
    at = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)

    def pushed(sha: str, author: str, key: str, hours: int = 0) -> PushedCommit:
        return PushedCommit(
            repo="acme/widgets",
            sha=sha,
            committed_at=at + timedelta(hours=hours),
            author=author,
            author_key=key,
            subject=f"change {sha}",
        )

    prs = [
        PullRequest(
            repo="acme/widgets",
            number=1,
            title="change 1",
            merged_at=at,
            author="xiaoxigua",
            author_key="xiaoxigua999@icloud.com",
        )
    ]
    commits = [
        pushed("a1", "xiaoxigua999", "xiaoxigua999@icloud.com", 1),
        pushed("a2", "xiaoxigua999", "xiaoxigua999@icloud.com", 2),
        pushed("a3", "xiaoxigua", "xiaoxigua999@icloud.com", 3),
        pushed("b1", "Xianyu2", "xianyuai@openllmai.top"),
        pushed("c1", "pre-commit-ci[bot]", "bot@example.com"),
    ]
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(
            con,
            "acme/widgets",
            week,
            [*pr_tables(week, prs), *pushed_commit_tables(week, commits)],
        )
        materialize_shipped_models(con)
        weekly = con.execute(
            "SELECT authors, prs, most_active_author, pushed_commits, pushers, most_active_pusher"
            " FROM weekly_contributors"
        ).fetchall()
        activity = con.execute(
            "SELECT author, is_bot, prs, first_week, pushed_commits, pushed_weeks"
            " FROM author_activity ORDER BY prs DESC, author"
        ).fetchall()
    # The PR figures as before; five pushes, by two people (the bot's left out).
    assert weekly == [(1, 1, "xiaoxigua", 5, 2, "xiaoxigua999")]
    assert activity == [
        ("xiaoxigua", False, 1, week, 3, 1),  # named as they last signed a PR
        ("Xianyu2", False, 0, None, 1, 1),
        ("pre-commit-ci[bot]", True, 0, None, 1, 1),
    ]


def test_machine_accounts_are_no_authors_in_the_author_figures(tmp_path: Path) -> None:
    """As the report counts authors: NVIDIA-NeMo/RL's `svcnemo-autobot` and
    `svcnvidia-nemo-ci` are machine accounts, vllm-ascend's `iKeybot` a person."""
    week = date(2026, 5, 4)
    at = datetime(2026, 5, 4, 3, 0, tzinfo=UTC)
    names = ["svcnemo-autobot", "svcnvidia-nemo-ci", "dependabot[bot]", "iKeybot"]
    prs = [
        PullRequest(
            repo="acme/widgets",
            number=number,
            title=f"change {number}",
            merged_at=at,
            author=name,
            author_key=name,
        )
        for number, name in enumerate(names, start=1)
    ]
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, "acme/widgets", week, pr_tables(week, prs))
        materialize_shipped_models(con)
        authors = con.execute(
            "SELECT authors, prs FROM weekly_contributors WHERE week_start = ?", [week]
        ).fetchall()
        bots = con.execute(
            "SELECT author FROM author_activity WHERE is_bot ORDER BY author"
        ).fetchall()
    assert authors == [(1, 4)]
    assert bots == [("dependabot[bot]",), ("svcnemo-autobot",), ("svcnvidia-nemo-ci",)]


def test_a_model_whose_file_is_gone_is_dropped_and_nothing_else(tmp_path: Path) -> None:
    """Materializing only created or replaced: a model removed or renamed in dbt_like_sql/
    stayed in the warehouse for good, and a stale `table` model looked current."""
    models = tmp_path / "models"
    write(
        models, "pr_totals", "-- materialized: table\nSELECT count(*) AS n FROM {{ source('prs') }}"
    )
    write(models, "pr_numbers", "SELECT number FROM {{ source('prs') }}")
    con = migrated()
    store_prs(con, [1, 2])
    for model in load_models(models, SOURCES):
        materialize(con, model)
    con.execute("CREATE VIEW my_own AS SELECT 1 AS x")  # a user's view: no model's
    (models / "pr_totals.sql").rename(models / "pr_count.sql")
    (models / "pr_numbers.sql").unlink()
    for model in load_models(models, SOURCES):
        materialize(con, model)
    con.execute("DROP VIEW pr_numbers")  # dropped by hand: forgetting it is enough

    assert drop_stale_models(con, model_names(models)) == ["pr_numbers", "pr_totals"]
    relations = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    names = {name for (name,) in relations}
    assert {"pr_count", "my_own", "prs", "sql_models", "schema_migrations"} <= names
    assert not names & {"pr_totals", "pr_numbers"}
    assert con.execute("SELECT name, materialized FROM sql_models").fetchall() == [
        ("pr_count", "table")
    ]
    # A pipeline table named in the registry (by hand) is never dropped.
    con.execute(
        "INSERT INTO sql_models (name, materialized, stored_at) VALUES ('prs', 'table', now())"
    )
    assert drop_stale_models(con, model_names(models)) == []
    assert con.execute("SELECT count(*) FROM prs").fetchone() == (2,)


def test_the_models_a_warehouse_had_before_the_registry_are_known(tmp_path: Path) -> None:
    """Migration 012 names the shipped models' relations a warehouse already holds, so one whose
    file is gone by the first run after the upgrade goes too."""
    with connect(tmp_path / "w.duckdb") as con:
        materialize_shipped_models(con)
        con.execute("DELETE FROM sql_models")  # as before migration 012
        # A warehouse of then had none of the migrations from 012 on either.
        con.execute("DELETE FROM schema_migrations WHERE version >= 12")
        con.execute("DROP TABLE sql_models")
        con.execute("DROP TABLE week_stages")
        con.execute("DROP TABLE display_names")
        # Nor the columns added since (an index holds a table's columns as they are).
        con.execute("DROP INDEX pushed_commits_partition")
        con.execute("ALTER TABLE pushed_commits DROP COLUMN reverted_number")
        con.execute("ALTER TABLE pushed_commits DROP COLUMN author_key")
        con.execute("ALTER TABLE pushed_commits DROP COLUMN body")
        con.execute("CREATE INDEX pushed_commits_partition ON pushed_commits (repo, week_start)")
        con.execute("DROP INDEX prs_partition")
        con.execute("ALTER TABLE prs DROP COLUMN batch_written_at")
        con.execute("CREATE INDEX prs_partition ON prs (repo, week_start)")
    with connect(tmp_path / "w.duckdb") as con:
        known = {name for (name,) in con.execute("SELECT name FROM sql_models").fetchall()}
        shipped = model_names(DBT_LIKE_SQL)
        # A model shipped since 012 had no relation in a warehouse of then.
        assert known == shipped - {"weekly_reviewer_activity", "pushed_authors"}
        assert drop_stale_models(con, shipped - {"weekly_theme_trends"}) == ["weekly_theme_trends"]


@pytest.mark.parametrize(
    ("model", "order"),
    [
        ("weekly_trends", "repo, week_start, kind, name"),
        ("weekly_module_trends", "repo, week_start, module"),
        ("weekly_theme_trends", "repo, week_start, theme"),
        ("weekly_contributors", "repo, week_start"),
        ("review_health", "repo, week_start"),
        ("stored_weeks", "repo, week_start"),
        ("pr_facts", "repo, week_start, number"),
        ("pr_authors", "repo, week_start, number"),
    ],
)
def test_the_weekly_models_list_their_rows_in_order(
    weekly_warehouse: duckdb.DuckDBPyConnection, model: str, order: str
) -> None:
    """The weekly models came back in whatever order DuckDB's joins left them: `prhub sql
    "SELECT * FROM weekly_trends LIMIT 4"` showed four rows of a week in the middle."""
    rows = weekly_warehouse.execute(f"SELECT {order} FROM {model}").fetchall()
    assert len(rows) > 1 and rows == sorted(rows)


@pytest.fixture(scope="module")
def weekly_warehouse() -> duckdb.DuckDBPyConnection:
    """Two repositories, four weeks each, stored latest first, each week's PRs in descending
    number with three modules and two themes: an order the models must not follow."""
    con = migrated()
    for repo in ("zeta/widgets", "acme/widgets"):
        for offset in (3, 2, 1, 0):
            week = date(2026, 5, 4) + timedelta(weeks=offset)
            numbers = [100 * offset + n for n in (9, 5, 1)]
            merged = datetime.combine(week, datetime.min.time(), UTC) + timedelta(days=1)
            prs = [
                PullRequest(
                    repo=repo, number=n, title=f"change {n}", merged_at=merged, author=f"dev{n}"
                )
                for n in numbers
            ]
            labels = [
                ModuleLabel(repo=repo, number=n, module=m, origin="title", confidence=1.0)
                for n, m in zip(numbers, ("zz", "mm", "aa"), strict=True)
            ]
            themes = [ThemeTag(repo=repo, number=n, theme=t) for n in numbers for t in ("Z", "A")]
            replace_partition(
                con, repo, week, [*pr_tables(week, prs), *module_tables(week, labels, themes, [])]
            )
    materialize_shipped_models(con)
    return con


def test_the_trends_name_their_counts_as_the_other_weekly_models_do(
    weekly_warehouse: duckdb.DuckDBPyConnection,
) -> None:
    """weekly_trends' `previous_week` held a PR count, not a week, and its `pr_count` was
    `prs` in weekly_contributors and review_health."""

    def columns(model: str) -> list[str]:
        return [row[0] for row in weekly_warehouse.execute(f"DESCRIBE {model}").fetchall()]

    counts = ["prs", "previous_prs", "change"]
    names = ["display_name_en", "display_name_zh"]
    module_columns = ["repo", "week_start", "module", *names, "is_area", *counts]
    assert columns("weekly_trends") == [
        "repo",
        "week_start",
        "kind",
        "name",
        *names,
        "is_area",
        *counts,
    ]
    assert columns("weekly_module_trends") == module_columns
    assert columns("weekly_theme_trends") == ["repo", "week_start", "theme", *names, *counts]
    assert "prs" in columns("weekly_contributors") and "prs" in columns("review_health")
    # Three PRs a week, each with both themes; no week has a report, so the one before is unknown.
    week = date(2026, 5, 11)
    rows = weekly_warehouse.execute(
        "SELECT name, display_name_en, prs, previous_prs, change FROM weekly_trends"
        " WHERE repo = 'acme/widgets' AND week_start = ? AND kind = 'theme'",
        [week],
    ).fetchall()
    # No report run stored the names the reports give them: unknown, not the keys.
    assert rows == [("A", None, 3, None, None), ("Z", None, 3, None, None)]


def test_the_models_say_which_modules_the_reports_take_for_areas(tmp_path: Path) -> None:
    """`pr_modules` keeps a repository's title tags that only say a kind of change or a status
    (AReaL's `[Feature]` #53 and `[Fix]` #63), which the reports leave out of their module
    sections and trend tables; the models listed them as modules with no way to tell, and
    AReaL's `weekly_module_trends` led with `feature` (44 PRs) and `fix` (41). They say it now,
    as the report run stored it; a name stored by an older prhub is unknown until the next."""
    repo, week = "acme/widgets", date(2026, 5, 11)
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 16)
    with duckdb.connect(str(path)) as con:
        for lang in ("en", "zh"):
            con.execute(
                "INSERT INTO display_names VALUES (?, 'module', 'core', ?, 'Core')", [repo, lang]
            )
    merged = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)
    prs = [PullRequest(repo=repo, number=n, title="t", merged_at=merged) for n in (1, 2, 3, 4)]
    tags = {1: ["fix", "core"], 2: ["feature"], 3: ["core"]}
    labels = [
        ModuleLabel(repo=repo, number=n, module=m, origin="title", confidence=1.0)
        for n, modules in tags.items()
        for m in modules
    ]
    themes = [ThemeTag(repo=repo, number=3, theme="Docs")]

    def trends(con: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
        return con.execute(
            "SELECT kind, name, is_area FROM weekly_trends WHERE week_start = ?", [week]
        ).fetchall()

    def areas(con: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
        return con.execute("SELECT number, modules, areas FROM pr_facts").fetchall()

    with connect(path) as con:
        replace_partition(
            con, repo, week, [*pr_tables(week, prs), *module_tables(week, labels, themes, [])]
        )
        materialize_shipped_models(con)
        assert trends(con) == [
            ("module", "core", None),  # stored before the column
            ("module", "feature", None),
            ("module", "fix", None),
            ("theme", "Docs", None),
        ]
        assert areas(con) == [
            (1, ["core", "fix"], None),
            (2, ["feature"], None),
            (3, ["core"], None),
            (4, [], []),
        ]
        names = display_names({"en": {}, "zh": {}}, ["core", "feature", "fix"], ["Docs"])
        replace_partition(con, repo, week, display_name_tables(repo, names))
        assert trends(con) == [
            ("module", "core", True),
            ("module", "feature", False),
            ("module", "fix", False),
            ("theme", "Docs", None),
        ]
        assert con.execute(
            "SELECT module, is_area FROM weekly_module_trends WHERE week_start = ?", [week]
        ).fetchall() == [("core", True), ("feature", False), ("fix", False)]
        assert areas(con) == [
            (1, ["core", "fix"], ["core"]),
            (2, ["feature"], []),
            (3, ["core"], ["core"]),
            (4, [], []),
        ]


def test_the_bookkeeping_tables_are_no_source_of_a_model(tmp_path: Path) -> None:
    """A model reading `source('sql_models')` passed the check and then failed the Dagster
    code location's load with a bare KeyError."""
    for table in ("sql_models", "schema_migrations"):
        write(tmp_path, "a", f"SELECT * FROM {{{{ source('{table}') }}}}")
        with pytest.raises(SqlModelError, match=rf"source\('{table}'\) is not a warehouse table"):
            load_models(tmp_path, SOURCES)


def test_a_users_own_schema_with_a_models_name_is_left_alone(tmp_path: Path) -> None:
    """A view `scratch.pr_facts` made migration 012 fail on a duplicate key, and the warehouse
    could no longer be opened."""
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 11)
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE VIEW pr_facts AS SELECT 1 AS x")
        con.execute("CREATE SCHEMA scratch")
        con.execute("CREATE VIEW scratch.pr_facts AS SELECT 2 AS x")
    with connect(path) as con:
        assert con.execute("SELECT name FROM sql_models").fetchall() == [("pr_facts",)]
        assert drop_stale_models(con, []) == ["pr_facts"]
        assert con.execute("SELECT x FROM scratch.pr_facts").fetchall() == [(2,)]


def test_a_models_description_is_its_relations_comment(tmp_path: Path) -> None:
    """A model's description was shown in the Dagster UI alone: a SQL user listing the
    warehouse's relations found every model without a word of what its rows are."""
    write(tmp_path, "pr_totals", "-- materialized: table\n-- description: the PRs' count, 'all'\n"
          "SELECT count(*) AS n FROM {{ source('prs') }}")  # fmt: skip
    write(tmp_path, "pr_numbers", "SELECT number FROM {{ source('prs') }}")
    con = migrated()
    for model in load_models(tmp_path, SOURCES):
        materialize(con, model)
    for model in load_models(DBT_LIKE_SQL, TABLE_PRODUCERS):
        materialize(con, model)
    comments = dict(
        con.execute("SELECT table_name, table_comment FROM information_schema.tables").fetchall()
    )
    assert comments["pr_totals"] == "the PRs' count, 'all'"
    assert comments["pr_numbers"] is None  # no description, no comment
    for model in load_models(DBT_LIKE_SQL, TABLE_PRODUCERS):
        assert model.description and comments[model.name] == model.description


def test_readme_names_every_value_a_coded_column_holds() -> None:
    """`pr_risks.risk`, `pr_scores.pr_type` and `pr_scores.fix_impacts` hold codes
    (`core_without_tests`, `feat`, `wrong_result`) that README's Tables section never named: a
    SQL user had to list them with a query first and guess what `known_gap` flags."""
    readme = (DBT_LIKE_SQL.parent / "README.md").read_text(encoding="utf-8")
    tables = readme.split("\n## Tables\n", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("|")[1].strip(): line for line in tables.splitlines() if line.startswith("| `")
    }
    for column, values in (
        ("`pr_risks`", get_args(RiskKind)),
        ("`pr_scores`", get_args(PrType) + get_args(FixImpact)),
    ):
        missing = [value for value in values if f"`{value}`" not in rows[column]]
        assert missing == [], f"{column}'s row names none of {missing}"
    # Listed most serious first, as the severity follows the kind.
    risks = rows["`pr_risks`"]
    assert sorted(get_args(RiskKind), key=lambda kind: risks.index(f"`{kind}`")) == list(
        get_args(RiskKind)
    )
    for kind, severity in SEVERITY.items():
        told = re.search(r": (high|medium|low)\b", risks[risks.index(f"`{kind}`") :])
        assert told and told.group(1) == severity, kind


def test_the_trends_have_a_row_for_every_week_from_a_names_first(tmp_path: Path) -> None:
    """weekly_trends had a row where a module had PRs and in the week after, none in the quiet
    weeks after that: verl's ckpt in 2026 averaged 1.5 PRs a week over its 14 rows, where the
    19 stored weeks hold 21 of its PRs (1.1)."""
    repo = "acme/widgets"
    weeks = [date(2026, 5, 4) + timedelta(weeks=n) for n in range(5)]
    with connect(tmp_path / "w.duckdb") as con:
        for offset, (week, modules) in enumerate(
            zip(weeks, (["core"], [], [], ["core", "docs"], []), strict=True)
        ):
            merged = datetime.combine(week, datetime.min.time(), UTC) + timedelta(days=1)
            prs = [
                PullRequest(repo=repo, number=10 * offset + n, title="t", merged_at=merged)
                for n in (1, 2)
            ]
            labels = [
                ModuleLabel(
                    repo=repo, number=10 * offset + 1, module=m, origin="title", confidence=1.0
                )
                for m in modules
            ]
            replace_partition(
                con, repo, week, [*pr_tables(week, prs), *module_tables(week, labels, [], [])]
            )
        materialize_shipped_models(con)
        rows = con.execute(
            "SELECT week_start, module, prs, previous_prs FROM weekly_module_trends"
        ).fetchall()
        average = con.execute(
            "SELECT avg(prs) FROM weekly_module_trends WHERE module = 'core'"
        ).fetchone()
    # No week has a report, so the week before each is unknown.
    assert rows == [
        (weeks[0], "core", 1, None),
        (weeks[1], "core", 0, None),
        (weeks[2], "core", 0, None),
        (weeks[3], "core", 1, None),
        (weeks[3], "docs", 1, None),
        (weeks[4], "core", 0, None),
        (weeks[4], "docs", 0, None),
    ]
    assert average == (2 / 5,)


def test_reviewer_activity_has_its_weeks(tmp_path: Path) -> None:
    """reviewer_activity counted a reviewer's whole history and had no week, so "who reviewed
    most this quarter" meant joining reviews to prs by hand. A review's week is its PR's, as
    the other weekly models count; an author's review of their own PR is none."""
    repo = "acme/widgets"
    first, second = date(2026, 5, 4), date(2026, 5, 11)

    def review(number: int, author: str, state: str) -> Review:
        return Review(
            repo=repo, pr_number=number, review_id=f"{number}-{author}", author=author, state=state
        )

    def thread(number: int, author: str) -> ReviewThread:
        comment = ThreadComment(comment_id=f"c{number}", author=author)
        return ReviewThread(repo=repo, pr_number=number, thread_id=f"t{number}", comments=[comment])

    weeks = {
        first: ([1], [review(1, "ann", "APPROVED"), review(1, "bob", "COMMENTED")], []),
        second: (
            [2, 3],
            [
                review(2, "ann", "CHANGES_REQUESTED"),
                review(2, "ann", "APPROVED"),
                review(3, "ann", "APPROVED"),
                review(3, "dev", "COMMENTED"),  # the author's own
            ],
            [thread(2, "bob")],
        ),
    }
    with connect(tmp_path / "w.duckdb") as con:
        for week, (numbers, reviews, threads) in weeks.items():
            merged = datetime.combine(week, datetime.min.time(), UTC) + timedelta(days=1)
            prs = [
                PullRequest(repo=repo, number=n, title="t", merged_at=merged, author="dev")
                for n in numbers
            ]
            data = ReviewData(available=True, reviews=reviews, threads=threads)
            replace_partition(con, repo, week, [*pr_tables(week, prs), *review_tables(week, data)])
        materialize_shipped_models(con)
        weekly = con.execute(
            "SELECT week_start, reviewer, reviews, approvals, change_requests, prs_reviewed,"
            " threads_started FROM weekly_reviewer_activity"
        ).fetchall()
        overall = con.execute(
            "SELECT reviewer, reviews, approvals, change_requests, prs_reviewed, threads_started,"
            " is_bot FROM reviewer_activity"
        ).fetchall()
    assert weekly == [
        (first, "ann", 1, 1, 0, 1, 0),
        (first, "bob", 1, 0, 0, 1, 0),
        (second, "ann", 3, 2, 1, 2, 0),
        (second, "bob", 0, 0, 0, 0, 1),
    ]
    assert overall == [("ann", 4, 3, 1, 3, 0, False), ("bob", 1, 0, 0, 1, 1, False)]


def test_models_made_from_other_definitions_are_told_of(tmp_path: Path) -> None:
    """A model changed in a newer prhub stayed the older one's until something refreshed it,
    and `prhub sql` answered from it without a word: verl's weekly_trends, refreshed by a prhub
    of before its every-week rows, had 2078 rows where the shipped file makes 2765. The digest
    of the file that made each relation is recorded, and a query is told which models differ
    from the files this prhub would use."""
    folder = tmp_path / "models"
    shutil.copytree(DBT_LIKE_SQL, folder)
    path = tmp_path / "w.duckdb"
    with connect(path) as con:
        store_prs(con, [1, 2])
        for model in load_models(folder, TABLE_PRODUCERS):
            materialize(con, model)
    notes: list[str] = []
    query = "SELECT count(*) FROM weekly_trends"
    assert run_query(path, query, models_dir=folder, on_note=notes.append)[1] == [("0",)]
    assert notes == []

    trends = folder / "weekly_trends.sql"
    trends.write_text(trends.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    # A model not made yet is no stale one: a query of it fails naming it.
    write(folder, "pr_numbers", "SELECT number FROM {{ source('prs') }}")
    assert run_query(path, query, models_dir=folder, on_note=notes.append)[1] == [("0",)]
    [note] = notes
    assert note.startswith("SQL model(s) weekly_trends of ")
    assert "`prhub materialize` (of any week)" in note
    # A column the stale model lacks is no typo of the user's.
    with pytest.raises(WarehouseError, match=r"(?s)display_name_fr.*SQL model\(s\) weekly_trends"):
        run_query(path, "SELECT display_name_fr FROM weekly_trends", models_dir=folder)
    with connect(path) as con:
        for model in load_models(folder, TABLE_PRODUCERS):
            materialize(con, model)
    notes.clear()
    run_query(path, query, models_dir=folder, on_note=notes.append)
    assert notes == []


def test_a_model_made_with_another_machine_account_rule_is_told_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model's `{{ bot_name(...) }}` is records.BOT_LOGIN's pattern, which a newer prhub
    changes in no model file (9bd59a7 made vllm-ascend's vllm-ascend-ci a machine account):
    the digest of the file's text alone said weekly_contributors was current while it still
    counted the old rule's authors. The digest is of the SQL as rendered."""
    folder = tmp_path / "models"
    people = "SELECT number FROM {{ source('prs') }} WHERE NOT {{ bot_name('author') }}"
    write(folder, "people", people)
    path = tmp_path / "w.duckdb"
    with connect(path) as con:
        store_prs(con, [1])
        for model in load_models(folder, TABLE_PRODUCERS):
            materialize(con, model)
    notes: list[str] = []
    run_query(path, "SELECT * FROM people", models_dir=folder, on_note=notes.append)
    assert notes == []
    monkeypatch.setattr(sql_models, "BOT_LOGIN", re.compile(r"\[bot\]$|-ci$"))
    run_query(path, "SELECT * FROM people", models_dir=folder, on_note=notes.append)
    [note] = notes
    assert note.startswith("SQL model(s) people of ")


def test_models_of_a_warehouse_an_earlier_prhub_wrote_are_told_of(tmp_path: Path) -> None:
    """Its models were made by that prhub, whatever they were: a read-only query migrates and
    refreshes nothing."""
    path = tmp_path / "w.duckdb"
    warehouse_at_schema(path, 14)
    notes: list[str] = []
    run_query(path, "SELECT count(*) FROM prs", models_dir=DBT_LIKE_SQL, on_note=notes.append)
    [note] = notes
    assert "was written by an earlier prhub (schema version 14;" in note
    assert "the tables, columns and SQL models added since are there once" in note
