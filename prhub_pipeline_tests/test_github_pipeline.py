"""The pipeline end to end with `source: github`, against the fake GitHub on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from prhub_pipeline.cli import main
from prhub_pipeline_tests.github_fake import (
    FakeGitHub,
    http_status,
    load_fixture_week,
    schema_available,
)
from prhub_pipeline_tests.loopback import serve
from prhub_pipeline_tests.test_pipeline import stored

pytestmark = pytest.mark.skipif(
    not schema_available(),
    reason="GitHub's schema (../shared/github/schema.graphql) is absent: the fake cannot run",
)
TOKEN = "ghp_endToEndSecret0123456789abcdef"
WEEK_PRS = 6  # the fixture week's PRs inside 2026-05-11 .. 2026-05-17 in Asia/Shanghai


def write_github_config(folder: Path, api_url: str) -> Path:
    path = folder / "prhub.yaml"
    path.write_text(
        "database: warehouse/prhub.duckdb\n"
        "timezone: Asia/Shanghai\n"
        "repos:\n"
        "  - name: verl-project/verl\n"
        "    source: github\n"
        "    start: 2026-05-04\n"
        "    github:\n"
        f"      api_url: {api_url}\n"
        "      token_env: PRHUB_TEST_TOKEN\n",
        encoding="utf-8",
    )
    return path


COUNTS = (
    "SELECT (SELECT count(*) FROM prs), (SELECT count(*) FROM pr_files),"
    " (SELECT count(*) FROM reviews), (SELECT count(*) FROM review_threads),"
    " (SELECT count(*) FROM review_thread_comments), (SELECT count(*) FROM weekly_reports)"
)


def test_a_github_week_lands_whole_and_survives_faults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"), token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        args = ["materialize", "--config", str(config), "--week", "2026-05-11"]
        assert main(args) == 0
        first = stored(config, COUNTS)
        prs, files, reviews, threads, comments, reports = first[0]
        assert prs == WEEK_PRS and reports == 2
        assert files > 0 and reviews > 0 and threads > 0 and comments >= threads
        requests_first = fake.http_requests

        fake.fail_next(http_status(502))  # a transient fault: retried, then the same rows
        assert main(args) == 0
        assert stored(config, COUNTS) == first
        assert fake.http_requests == 2 * requests_first + 1
    out = capsys.readouterr().out
    assert "review_threads:" in out and "unresolved at merge" in out
    assert fake.invalid == []
    database = tmp_path / "warehouse" / "prhub.duckdb"
    assert TOKEN.encode() not in database.read_bytes()
    report = stored(config, "SELECT markdown FROM weekly_reports WHERE lang = 'en'")[0][0]
    assert "no review data" not in str(report).lower()


def test_a_failing_week_keeps_what_was_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"), token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        args = ["materialize", "--config", str(config), "--week", "2026-05-11"]
        assert main(args) == 0
        before = stored(config, COUNTS)
        monkeypatch.setenv("PRHUB_TEST_TOKEN", "ghp_wrongToken")  # GitHub answers 401
        assert main(args) == 1
    err_and_out = "".join(capsys.readouterr())
    assert "ingest failed" in err_and_out
    assert "ghp_wrongToken" not in err_and_out and TOKEN not in err_and_out
    assert stored(config, COUNTS) == before
