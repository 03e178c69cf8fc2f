"""The pipeline end to end with `source: github`, against the fake GitHub on loopback."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from prhub_pipeline.cli import main
from prhub_pipeline.records import FileChange, FileVersions, PullRequest
from prhub_pipeline.sources.github import FetchedVersions, GitHubResponseError
from prhub_pipeline.stages import ingest
from prhub_pipeline_tests.github_fake import (
    SCHEMA_MISSING,
    FakeActor,
    FakeFile,
    FakeGitHub,
    FakePullRequest,
    FakeReview,
    FakeTag,
    graphql_errors,
    http_status,
    load_fixture_week,
    schema_available,
)
from prhub_pipeline_tests.loopback import serve
from prhub_pipeline_tests.test_pipeline import stored

pytestmark = pytest.mark.skipif(not schema_available(), reason=SCHEMA_MISSING)
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
    release = FakeTag(
        "v0.8.0",
        "f" * 40,
        datetime(2026, 5, 12, 9, tzinfo=UTC),
        tagged_at=datetime(2026, 5, 14, 7, 34, tzinfo=UTC),
    )
    fake = FakeGitHub(load_fixture_week("week_2026-05-11.json"), token=TOKEN, tags=[release])
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        args = ["materialize", "--config", str(config), "--week", "2026-05-11"]
        assert main(args) == 0
        first = stored(config, COUNTS)
        # The week's release, read from GitHub's tags as the git source reads a clone's.
        assert stored(config, "SELECT name, sha FROM release_tags") == [("v0.8.0", "f" * 40)]
        prs, files, reviews, threads, comments, reports = first[0]
        assert prs == WEEK_PRS and reports == 2
        # The fixture's six PRs inside the week: 12 files, 7 reviews, 6 threads, 9 comments.
        assert (files, reviews, threads, comments) == (12, 7, 6, 9)
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
    assert "Released this week: v0.8.0 (tagged May 14 on commit fffffffff)." in str(report)
    # 6398, 6401 and 6402 approved; core-maintainer's thread on 6410; not the deleted
    # reviewer's comment on the deleted author's 6403, nor 6404 (only the token
    # owner's pending review, which is not stored).
    assert (
        "Reviews: 4 of 6 PRs reviewed by someone other than their author (3 reviewers),"
        " 3 approved; 6 review threads, 2 of them opened by bots; a median of 42.0 hours from"
        " opening to merge." in str(report)
    )
    assert "The week's most active reviewers: core-maintainer (3 PRs)." in str(report)
    # The key PRs at a glance say who reviewed each (6398, approved, is no key PR: the six
    # PRs are scored on a typical repository's scale, where it reads 5.8).
    assert "(review: none by anyone but its author)" in str(report)  # 6404
    assert "(review: reviewed by core-maintainer; 2 threads, 1 of them opened by a bot)" in str(
        report
    )  # 6410
    # The review_health model counts by the same rules, and as the risk flags do.
    [health] = stored(
        config,
        "SELECT reviewed_prs, approved_prs, reviewers, review_threads, merged_without_approval,"
        " prs_with_unresolved_threads, median_hours_to_merge FROM review_health"
        " WHERE week_start = '2026-05-11'",
    )
    [flagged] = stored(
        config,
        "SELECT count(*) FILTER (WHERE risk = 'no_approval'),"
        " count(*) FILTER (WHERE risk = 'unresolved_review') FROM pr_risks",
    )
    assert health == (4, 3, 3, 6, *flagged, 42.0) and flagged == (3, 3)
    # npu-doc-writer's reply in their own PR's thread is a review to GitHub, not to us.
    assert stored(
        config, "SELECT reviewer, reviews, approvals, threads_started FROM reviewer_activity"
    ) == [
        ("core-maintainer", 2, 2, 1),
        ("ascend-reviewer", 1, 0, 2),
        ("gemini-code-assist[bot]", 1, 0, 2),
        ("ascend-lead", 1, 1, 1),
    ]
    # #6410's author put a reviewer's point off to a follow-up PR in a resolved thread.
    [(number, evidence)] = stored(
        config, "SELECT number, evidence FROM pr_risks WHERE risk = 'known_gap'"
    )
    gap = json.loads(str(evidence))
    assert number == 6410 and gap["quotes"] == ["I'll handle it in a follow-up PR."]
    assert [a["reviewer"] for a in gap["asks"]] == ["core-maintainer"]
    assert (
        "names what it leaves open: “I'll handle it in a follow-up PR.” (answering core-maintainer"
        in str(report)
    )


def test_the_review_line_compares_the_share_approved_with_the_weeks_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten PRs the week before, nine of them approved, beside the fixture's #6390 (merged then,
    unreviewed): the fixture week's 3 of 6 reads "3 approved (50%, against 82% over the
    previous 12 weeks)", 9 of 11."""
    earlier = [
        FakePullRequest(
            number=6300 + k,
            title=f"[misc] chore: tidy {k}",
            merged_at=datetime(2026, 5, 5, 8, 0, tzinfo=UTC) + timedelta(hours=k),
            author=FakeActor("tidy-dev"),
            merge_sha=f"{6300 + k:040x}",
            files=[FakeFile(f"scripts/tidy_{k}.py")],
            reviews=(
                [FakeReview(f"PRR_{6300 + k}", FakeActor("core-maintainer"), "APPROVED")]
                if k
                else []
            ),
        )
        for k in range(10)
    ]
    fake = FakeGitHub([*earlier, *load_fixture_week("week_2026-05-11.json")], token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        args = ["materialize", "--config", str(config), "--week", "2026-05-04"]
        assert main([*args, "--through", "2026-05-11"]) == 0
    reports = {
        week: markdown
        for week, markdown in stored(
            config, "SELECT week_start::VARCHAR, markdown FROM weekly_reports WHERE lang = 'en'"
        )
    }
    assert "9 approved; " in str(reports["2026-05-04"])  # nothing before it to compare with
    assert "3 approved (50%, against 82% over the previous 12 weeks); " in str(
        reports["2026-05-11"]
    )


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
    # The last line names the step and GitHub's answer, not Dagster's wrapper around it.
    failed = next(line for line in err_and_out.splitlines() if "ingest failed" in line)
    assert failed.startswith("  ingest failed: raw_prs: GitHubAuthError: ") and "401" in failed
    assert "ghp_wrongToken" not in err_and_out and TOKEN not in err_and_out
    assert stored(config, COUNTS) == before


def test_a_follow_up_failing_after_the_search_page_keeps_the_stored_week(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A week whose search page arrived but whose further pages did not is not written: not
    its search page, nor the first 100 files of a PR with more."""
    many_files = FakePullRequest(
        number=6430,
        title="[ci] chore: move the test data",
        merged_at=datetime(2026, 5, 13, 3, 0, tzinfo=UTC),
        files=[FakeFile(f"tests/data/case_{i:03d}.json") for i in range(150)],
    )
    fake = FakeGitHub([*load_fixture_week("week_2026-05-11.json"), many_files], token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    args = ["materialize", "--week", "2026-05-11"]
    rows = (COUNTS, "SELECT seq, query_name, response::VARCHAR FROM github_pages ORDER BY seq")
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main([*args, "--config", str(config)]) == 0
    before = [stored(config, sql) for sql in rows]
    assert before[0][0][:2] == (WEEK_PRS + 1, 12 + 150)  # the files' follow-up was stored
    capsys.readouterr()

    def failing_follow_ups(request: httpx.Request) -> httpx.Response:
        if b"query PullRequestFollowUps" in request.content:  # an error GitHub does not retry
            return graphql_errors("Something unexpected happened")(request)
        return fake.handle(request)

    searches = len(fake.searches)
    with serve(failing_follow_ups) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main([*args, "--config", str(config)]) == 1
    assert len(fake.searches) == searches + 1  # the search page was answered
    err = capsys.readouterr().err
    assert "verl-project/verl, week of 2026-05-11: PullRequestFollowUps" in err
    assert [stored(config, sql) for sql in rows] == before


def test_a_github_week_stores_the_settings_a_pr_changed_and_the_report_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_path = "verl/trainer/config/ppo_trainer.yaml"
    switched = FakePullRequest(
        number=6420,
        title="[trainer] feat: use the new workers by default",
        merged_at=datetime(2026, 5, 13, 3, 0, tzinfo=UTC),
        merge_sha="a" * 40,
        files=[
            FakeFile(
                config_path,
                additions=2,
                deletions=1,
                before="trainer:\n  use_legacy_worker_impl: auto  # opt in\n",
                after="trainer:\n  use_legacy_worker_impl: disable  # opt out\n  seed: 1\n",
            ),
            # A comment-only edit changes no default.
            FakeFile(
                "verl/trainer/config/rollout/rollout.yaml",
                additions=1,
                deletions=1,
                before="n: 1  # samples\n",
                after="n: 1  # responses per prompt\n",
            ),
        ],
    )
    fake = FakeGitHub([*load_fixture_week("week_2026-05-11.json"), switched], token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    assert fake.invalid == []
    assert stored(config, "SELECT number, path, comparable FROM pr_config_files ORDER BY path") == [
        # The fixture's workflow has no text to read: it stays to the line-count rules.
        (6401, ".github/workflows/cpu_unit_tests.yml", False),
        (6420, config_path, True),
        (6420, "verl/trainer/config/rollout/rollout.yaml", True),
    ]
    assert stored(
        config, "SELECT number, key, before, after FROM pr_setting_changes ORDER BY key"
    ) == [
        (6420, "trainer.seed", None, "1"),
        (6420, "trainer.use_legacy_worker_impl", "auto", "disable"),
    ]
    flags = stored(
        config, "SELECT number, detail FROM pr_risks WHERE risk = 'config_default_change'"
    )
    assert flags == [(6420, "changes defaults: trainer.use_legacy_worker_impl auto → disable")]
    report = str(stored(config, "SELECT markdown FROM weekly_reports WHERE lang = 'en'")[0][0])
    assert (
        "[#6420](https://github.com/verl-project/verl/pull/6420) changes the defaults of"
        " trainer.use_legacy_worker_impl (auto → disable)."
    ) in report


def _garbled(*_: object, **__: object) -> FetchedVersions:
    raise GitHubResponseError("GitHub answered FileVersions without alias e1")


def _timed_out(
    client: object, repo: str, files: list[tuple[PullRequest, FileChange]], **_: object
) -> FetchedVersions:
    unread = [FileVersions(pr_number=pr.number, path=f.path, status=f.status) for pr, f in files]
    return FetchedVersions(unread, [f"PR #{pr.number} {f.path}" for pr, f in files])


@pytest.mark.parametrize(
    ("fetch_versions", "why"),
    [
        (_garbled, ": GitHub answered FileVersions without alias e1"),
        (
            _timed_out,
            ", GitHub timed out reading them: PR #6420 verl/trainer/config/ppo_trainer.yaml,"
            " PR #6401 .github/workflows/cpu_unit_tests.yml",
        ),
    ],
    ids=["garbled", "timed-out"],
)
def test_config_files_github_cannot_answer_for_leave_the_week_stored(
    fetch_versions: Callable[..., FetchedVersions],
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(ingest, "fetch_file_versions", fetch_versions)
    switched = FakePullRequest(
        number=6420,
        title="[trainer] feat: use the new workers by default",
        merged_at=datetime(2026, 5, 13, 3, 0, tzinfo=UTC),
        merge_sha="a" * 40,
        files=[FakeFile("verl/trainer/config/ppo_trainer.yaml", additions=1, deletions=1)],
    )
    fake = FakeGitHub([*load_fixture_week("week_2026-05-11.json"), switched], token=TOKEN)
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    with serve(fake.handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main(["materialize", "--config", str(config), "--week", "2026-05-11"]) == 0
    assert stored(config, "SELECT count(*) FROM prs")[0][0] == WEEK_PRS + 1
    # The fixture week's workflow edit is compared too.
    assert stored(config, "SELECT number, comparable FROM pr_config_files ORDER BY number") == [
        (6401, False),
        (6420, False),
    ]
    flags = stored(config, "SELECT detail FROM pr_risks WHERE risk = 'config_default_change'")
    assert flags == [
        (
            "changes verl/trainer/config/ppo_trainer.yaml, whose settings could not be"
            " compared: defaults may have changed or settings been removed",
        )
    ]
    assert (
        f"week 2026-05-11: settings of 2 config file(s) not compared{why}"
        in capsys.readouterr().out
    )


def test_a_stored_week_the_api_no_longer_lists_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Merged PRs stay merged: an answer without any of a stored week's PRs (another
    repository behind the URL, a token that sees less) does not replace the week."""
    monkeypatch.setenv("PRHUB_TEST_TOKEN", TOKEN)
    args = ["materialize", "--week", "2026-05-11"]
    with serve(FakeGitHub(load_fixture_week("week_2026-05-11.json"), token=TOKEN).handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main([*args, "--config", str(config)]) == 0
    first = stored(config, COUNTS)
    capsys.readouterr()
    with serve(FakeGitHub([], token=TOKEN).handle) as url:
        config = write_github_config(tmp_path, f"{url}/graphql")
        assert main([*args, "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert (
        "raw_prs: SourceCheckError: verl-project/verl: the source has none of the PRs stored"
        " for week(s) 2026-05-11 (6 stored, e.g. #"
    ) in err
    assert stored(config, COUNTS) == first
