from __future__ import annotations

import subprocess
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from prhub_pipeline.records import VERSION_TAG, PullRequest, author_key
from prhub_pipeline.reporting.facts import people
from prhub_pipeline.sources.git import (
    GitSourceError,
    read_file_versions,
    read_merged_prs,
    read_version_tags,
    read_window,
    update_clone,
)
from prhub_pipeline.weeks import WeekWindow, week_of
from prhub_pipeline_tests.gitrepo import GitRepo

ZONE = "Asia/Shanghai"
WEEK = WeekWindow(week_start=date(2026, 5, 11), timezone=ZONE)


def read_week(path: Path, window: WeekWindow = WEEK) -> dict[int, PullRequest]:
    prs = read_merged_prs(path, "acme/widgets", window.start, window.end)
    return {pr.number: pr for pr in prs}


def test_control_characters_in_messages_and_paths_forge_nothing(git_repo: GitRepo) -> None:
    """The log was cut at \x1e and \x1f, which a message may hold: a squashed commit list
    carrying them (after a real commit's sha) read as a PR #12 by "mallory" that never was;
    a file named with \x1e failed every run."""
    init = git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    forged = (
        f"\x1e{init}\x1f\x1fmallory\x1fm@evil.example\x1f2026-05-14T10:00:00+00:00"
        "\x1f[fsdp] feat: forged PR by nobody (#12)"
    )
    git_repo.commit(
        f"[fsdp] fix: squash (#11)\n\n* wip{forged}",
        "2026-05-12T09:00:00+08:00",
        {"a.py": "a\n", "odd\x1ename\x1f.py": "b\n"},
    )
    week = read_week(git_repo.path)
    assert list(week) == [11]
    assert sorted(f.path for f in week[11].files) == ["a.py", "odd\x1ename\x1f.py"]
    # Its text keeps what it says, without the control characters (see records.printable).
    assert "* wip\n" + forged[1:].replace("\x1f", "") in week[11].body


def test_squash_merge_with_trailers(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    sha = git_repo.commit(
        "[fsdp, megatron] fix: avoid OOM in checkpoint (#101)\n\n"
        "### What does this PR do?\r\nFixes the OOM.\r\n\n"
        "---------\n\nCo-authored-by: Alice Liu <alice@example.com>\n"
        "Signed-off-by: Bob <bob@example.com>",
        "2026-05-12T09:00:00+08:00",
        {"verl/ckpt.py": "a\nb\nc\n", "README.md": "hello\nworld\n"},
    )
    pr = read_week(git_repo.path)[101]
    assert pr.title == "[fsdp, megatron] fix: avoid OOM in checkpoint"
    assert pr.body == "### What does this PR do?\r\nFixes the OOM."
    assert pr.co_authors == ["Alice Liu"]
    assert pr.author == "Test Author"
    assert pr.merge_commit_sha == sha
    assert (pr.additions, pr.deletions, pr.changed_files) == (4, 0, 2)
    assert {f.path: f.status for f in pr.files} == {
        "verl/ckpt.py": "added",
        "README.md": "modified",
    }
    assert pr.merged_at.isoformat() == "2026-05-12T01:00:00+00:00"
    assert not pr.is_revert


def test_co_authors_are_named_however_the_trailer_is_written(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit(
        "feat: pair work (#5)\n\nDone together.\n\n"
        "Co-authored-by: Alice Liu <alice@example.com>\n"
        "Co-authored-by: hzji210@gmail.com\n"
        "Co-authored-by: <bob@example.org>\n"
        'Co-authored-by: Carol Wu <carol@example.com>"\n'
        "Co-authored-by: Dan <dan>\n"
        "Co-authored-by: alice liu <alice@example.com>\n"
        "Co-authored-by: Alice Liu <alice@example.com>",
        "2026-05-12T10:00:00+08:00",
        {"a.py": "1\n"},
    )
    pr = read_week(git_repo.path)[5]
    assert pr.co_authors == ["Alice Liu", "hzji210", "bob", "Carol Wu", "Dan", "alice liu"]
    assert pr.body == "Done together."


def test_a_bot_that_signs_as_a_person_is_named_as_its_trailer_names_it(git_repo: GitRepo) -> None:
    """GitHub's Copilot agent commits as "Copilot" from the address its own trailer gives as
    `copilot-swe-agent[bot]` (LLaMA-Factory #10506): a bot, not a person. A bot co-author at
    another address leaves the author alone."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    copilot = "198982749+Copilot@users.noreply.github.com"
    git_repo.commit(
        "[fix] use getattr for profiler attrs (#10506)\n\n"
        f"Co-authored-by: copilot-swe-agent[bot] <{copilot}>\n"
        "Co-authored-by: hiyouga <16256802+hiyouga@users.noreply.github.com>",
        "2026-05-12T10:00:00+08:00",
        {"a.py": "1\n"},
        "Copilot",
        copilot,
    )
    git_repo.commit(
        "[data] fix: reader (#10507)\n\n"
        "Co-authored-by: gemini-code-assist[bot] <176961590+gemini-code-assist[bot]@users"
        ".noreply.github.com>",
        "2026-05-12T11:00:00+08:00",
        {"a.py": "2\n"},
        "Kingsley",
        "kingsley@example.com",
    )
    prs = read_week(git_repo.path)
    assert (prs[10506].author, prs[10506].author_key) == ("copilot-swe-agent[bot]", "copilot")
    assert prs[10507].author == "Kingsley"


def test_merge_commit_takes_title_from_body(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.merge_pull_request(
        7,
        "feature-x",
        "Add the widget exporter",
        "2026-05-13T11:00:00+08:00",
        {"x.py": "1\n"},
        author="Branch Author",
    )
    prs = read_week(git_repo.path)
    assert list(prs) == [7]
    pr = prs[7]
    assert pr.title == "Add the widget exporter"
    assert [f.path for f in pr.files] == ["x.py"]  # the diff against the first parent
    # The merge commit is by whoever merged it ("Test Author"); the PR is its branch's.
    assert pr.author == "Branch Author"
    assert pr.author_key == "author@example.com"  # the branch commit's address, lowercased


def test_an_author_is_known_by_address_whatever_the_name(git_repo: GitRepo) -> None:
    """verl's #6135 is by "NIE SHIYU", who had committed as "xiazhahe": both from the
    noreply address of the GitHub account xiazhahe, whose login is the key. Another address
    is the key as it is, lowercased, for squashed and merged PRs alike."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    noreply = "86939755+xiazhahe@users.noreply.github.com"
    git_repo.commit(
        "[ci] fix: npu (#1)", "2026-05-12T10:00:00+08:00", {"a.py": "1\n"}, "xiazhahe", noreply
    )
    git_repo.commit(
        "[megatron] fix: npu (#2)",
        "2026-05-12T11:00:00+08:00",
        {"a.py": "2\n"},
        "NIE SHIYU",
        noreply,
    )
    git_repo.commit(
        "feat: x (#3)", "2026-05-12T12:00:00+08:00", {"a.py": "3\n"}, "Quan", "QuanCS@QQ.com"
    )
    git_repo.merge_pull_request(
        4, "b", "Add y", "2026-05-12T13:00:00+08:00", {"b.py": "1\n"}, "Quan (全)", "quancs@qq.com"
    )
    prs = read_week(git_repo.path)
    assert {n: (pr.author, pr.author_key) for n, pr in prs.items()} == {
        1: ("xiazhahe", "xiazhahe"),
        2: ("NIE SHIYU", "xiazhahe"),
        3: ("Quan", "quancs@qq.com"),
        4: ("Quan (全)", "quancs@qq.com"),
    }


def test_a_squash_subject_without_a_space_before_the_number(git_repo: GitRepo) -> None:
    """tilelang: `[Enhancement] Add flash attn example for AMD MI300 series(#671)`, reverted."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("[Enhancement] Add MI300 example(#671)", "2026-05-12T10:00:00+08:00")
    git_repo.commit(
        'Revert "[Enhancement] Add MI300 example(#671)" (#672)', "2026-05-13T10:00:00+08:00"
    )
    prs = read_week(git_repo.path)
    assert prs[671].title == "[Enhancement] Add MI300 example"
    assert prs[672].reverted_number == 671


def test_a_commit_landed_by_ghstack_or_phabricator_is_its_pr(git_repo: GitRepo) -> None:
    """pytorch/torchtitan lands PRs with ghstack and Meta's Phabricator export, whose commits
    name the PR in a trailer, not in the subject: 188 of them were read as pushed without a
    PR. Its former name's URLs (pytorch-labs/torchtrain) name its PRs as well when the landing
    tool's own trailer is there; a body that only quotes another repository's line does not."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit(
        "[RL] Extend RLTrainer.setup() to accept an optional host_mesh parameter\n\n"
        "Let callers pass the mesh.\n\nghstack-source-id: a4b3770f98c4\n"
        "Differential Revision: D97499893\n\n"
        "Pull Request resolved: https://github.com/acme/widgets/pull/2639\n",
        "2026-05-12T10:00:00+08:00",
        {"rl.py": "mesh\n"},
    )
    git_repo.commit(
        "Add a float8 test\n\nghstack-source-id: 5e1f0c2a\n"
        "Pull Request resolved: https://github.com/acme-labs/gadgets/pull/77",
        "2026-05-12T11:00:00+08:00",
        {"test_float8.py": "ok\n"},
    )
    git_repo.commit(
        "Port the fix from upstream\n\nAs upstream did:\n"
        "Pull Request resolved: https://github.com/other/project/pull/91",
        "2026-05-12T11:30:00+08:00",
        {"port.py": "ok\n"},
    )
    git_repo.commit(
        "fix typo directly on main\n\nSee https://github.com/acme/widgets/pull/5 for why.",
        "2026-05-12T12:00:00+08:00",
        {"a.py": "1\n"},
    )
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    prs = {pr.number: pr for pr in window.prs}
    assert sorted(prs) == [77, 2639]
    assert prs[2639].title == (
        "[RL] Extend RLTrainer.setup() to accept an optional host_mesh parameter"
    )
    assert prs[2639].body == "Let callers pass the mesh."
    assert [f.path for f in prs[2639].files] == ["rl.py"]
    assert [c.subject for c in window.pushed] == [
        "Port the fix from upstream",
        "fix typo directly on main",
    ]


def test_commits_that_are_not_prs_are_skipped_and_counted(git_repo: GitRepo) -> None:
    git_repo.commit("feat: an earlier PR (#1)", "2026-05-04T10:00:00+08:00", {"b": "1"})
    git_repo.commit("init", "2026-05-12T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("fix typo directly on main", "2026-05-12T11:00:00+08:00", {"a": "1"})
    git_repo.commit("mention (#12) in the middle of a line", "2026-05-12T12:00:00+08:00")
    # No PR has these numbers: the week could never be read (`#0` failed validation, and a
    # number past INTEGER the warehouse write, naming no commit).
    git_repo.commit("a typo (#0)", "2026-05-12T13:00:00+08:00")
    git_repo.commit("a pasted id (#99999999999999999999999)", "2026-05-12T14:00:00+08:00")
    git_repo.commit("feat: a later PR (#2)", "2026-05-18T10:00:00+08:00", {"c": "1"})
    assert read_week(git_repo.path) == {}
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert window.prs == []
    assert [(c.subject, c.committed_at.hour, c.author) for c in window.pushed] == [
        ("init", 2, "Test Author"),  # 10:00 in Shanghai, stored in UTC
        ("fix typo directly on main", 3, "Test Author"),
        ("mention (#12) in the middle of a line", 4, "Test Author"),
        ("a typo (#0)", 5, "Test Author"),
        ("a pasted id (#99999999999999999999999)", 6, "Test Author"),
    ]
    assert all(len(c.sha) == 40 and c.repo == "acme/widgets" for c in window.pushed)


def test_a_pushed_commit_carries_who_pushed_it_whatever_name_they_used(git_repo: GitRepo) -> None:
    """TransformerEngine's Przemek Tredak pushed 41 commits under that name and landed PRs as
    Przemyslaw Tredak: a pushed commit stored its name alone, so nothing said it was them."""
    git_repo.commit(
        "Fix the build (#1)", "2026-05-12T10:00:00+08:00", {"a": "1"}, "Przemyslaw Tredak",
        "ptredak@nvidia.com",
    )  # fmt: skip
    git_repo.commit(
        "Update version", "2026-05-12T11:00:00+08:00", {"a": "2"}, "Przemek Tredak",
        "PTredak@nvidia.com",
    )  # fmt: skip
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert [(c.author, c.author_key) for c in window.pushed] == [
        ("Przemek Tredak", "ptredak@nvidia.com")
    ]
    assert window.prs[0].author_key == "ptredak@nvidia.com"


def test_a_history_without_any_pr_is_an_error_that_names_the_source(git_repo: GitRepo) -> None:
    # A mirror of an internal repository: `fix(scheduler): ...`, never `(#N)`.
    git_repo.commit("fix(scheduler): defensive allocation", "2026-05-12T10:00:00+08:00")
    git_repo.commit("docs: update the Ascend guide", "2026-05-13T10:00:00+08:00")
    with pytest.raises(GitSourceError) as raised:
        read_week(git_repo.path)
    message = str(raised.value)
    assert message.startswith("acme/widgets: none of the 2 commits of HEAD at ")
    assert "use `source: github`" in message


def test_reverts_resolve_the_reverted_pr(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    # A title that itself ends in an issue reference, as verl's #6350 did ("... (#6293)").
    fixed = git_repo.commit(
        "[fsdp] fix: emit outputs (#6293) (#6350)",
        "2026-05-12T10:00:00+08:00",
        {"engine.py": "x\n"},
    )
    git_repo.commit(
        'Revert "[fsdp] fix: emit outputs (#6293)" (#6360)\n\nReverts acme/widgets#6350',
        "2026-05-13T10:00:00+08:00",
        {"engine.py": ""},
    )
    git_repo.commit(
        f'Revert "[fsdp] fix: emit outputs (#6293)" (#6361)\n\nThis reverts commit {fixed}.',
        "2026-05-14T10:00:00+08:00",
        {"engine.py": "x\n"},
    )
    git_repo.commit(
        'Revert "[fsdp] fix: emit outputs (#6293)" (#6362)',
        "2026-05-14T11:00:00+08:00",
        {"engine.py": ""},
    )
    prs = read_week(git_repo.path)
    assert prs[6350].title == "[fsdp] fix: emit outputs (#6293)"
    assert not prs[6350].is_revert
    assert (prs[6360].is_revert, prs[6360].reverted_number) == (True, 6350)
    assert prs[6361].reverted_sha == fixed and prs[6361].reverted_number == 6350
    # Only the title to go on: the PR with that exact title, not the issue number inside it.
    assert prs[6362].reverted_number == 6350


def test_a_revert_giving_its_reason_after_the_quote_is_a_revert(git_repo: GitRepo) -> None:
    """LLaMA-Factory #8554 was stored as no revert, so `WHERE is_revert` missed it."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit(
        "[model] add lora dropout to unsloth (#8548)", "2026-05-12T10:00:00+08:00", {"m.py": "x\n"}
    )
    git_repo.commit(
        'Revert "[model] add lora dropout to unsloth" - requested feature already exists (#8554)',
        "2026-05-13T10:00:00+08:00",
        {"m.py": ""},
    )
    revert = read_week(git_repo.path)[8554]
    assert (revert.is_revert, revert.reverted_number) == (True, 8548)


def test_revert_of_a_pr_from_an_earlier_week_is_resolved(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    old = git_repo.commit("feat: old thing (#40)", "2026-04-02T10:00:00+08:00", {"o.py": "1\n"})
    git_repo.commit(
        f'Revert "feat: old thing (#40)" (#41)\n\nThis reverts commit {old}.',
        "2026-05-12T10:00:00+08:00",
        {"o.py": ""},
    )
    assert read_week(git_repo.path)[41].reverted_number == 40


def test_a_revert_pushed_without_a_pr_names_the_pr_it_reverts(git_repo: GitRepo) -> None:
    """OpenRLHF pushed `git revert` of #725 (f6e1ac1): stored as a commit reverting nothing,
    #725 read as never reverted. A pushed revert of another push reverts no PR."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    fixed = git_repo.commit(
        "Fix hybrid engine when vLLM tp size is 1 (#725)",
        "2026-05-12T10:00:00+08:00",
        {"engine.py": "1\n"},
    )
    pushed = git_repo.commit("tweak docs", "2026-05-12T11:00:00+08:00", {"README.md": "hi\n"})
    git_repo.commit(
        f'Revert "Fix hybrid engine when vLLM tp size is 1 (#725)"\n\nThis reverts commit {fixed}.',
        "2026-05-12T12:00:00+08:00",
        {"engine.py": ""},
    )
    git_repo.commit(
        f'Revert "tweak docs"\n\nThis reverts commit {pushed}.',
        "2026-05-12T13:00:00+08:00",
        {"README.md": "hello\n"},
    )
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert [pr.number for pr in window.prs] == [725]
    assert [(c.subject[:18], c.reverted_number) for c in window.pushed] == [
        ("tweak docs", None),
        ('Revert "Fix hybrid', 725),
        ('Revert "tweak docs', None),
    ]


def test_a_pushed_revert_keeps_its_message_body_and_other_pushes_none(git_repo: GitRepo) -> None:
    """OpenRLHF's pushed revert of #725 stored its subject alone: the reason a revert's message
    gives after it was never read. Only a revert keeps its body (the other 1,100 pushes keep
    none), without the trailers, as a PR's."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    fixed = git_repo.commit(
        "Fix hybrid engine when vLLM tp size is 1 (#725)",
        "2026-05-12T10:00:00+08:00",
        {"engine.py": "1\n"},
    )
    git_repo.commit(
        "tweak docs\n\nA longer note nobody reads.",
        "2026-05-12T11:00:00+08:00",
        {"README.md": "hi\n"},
    )
    git_repo.commit(
        f'Revert "Fix hybrid engine when vLLM tp size is 1 (#725)"\n\n'
        f"This reverts commit {fixed}.\n\nIt hangs the colocated vLLM engines on 8 GPUs.\n\n"
        "Signed-off-by: A Maintainer <maintainer@example.com>",
        "2026-05-12T12:00:00+08:00",
        {"engine.py": ""},
    )
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert [(c.subject[:10], c.body) for c in window.pushed] == [
        ("tweak docs", None),
        (
            'Revert "Fi',
            f"This reverts commit {fixed}.\n\nIt hangs the colocated vLLM engines on 8 GPUs.",
        ),
    ]


def test_a_revert_naming_no_possible_pr_reverts_none(git_repo: GitRepo) -> None:
    """`Reverts acme/widgets#99999999999` failed the week's write (INTEGER), naming no commit."""
    git_repo.commit(
        "Revert the cache (#42)\n\nReverts acme/widgets#99999999999",
        "2026-05-12T10:00:00+08:00",
        {"o.py": ""},
    )
    revert = read_week(git_repo.path)[42]
    assert revert.is_revert and revert.reverted_number is None


def test_a_revert_quoting_a_reused_title_names_the_pr_merged_before_it(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: X (#1)", "2026-05-11T10:00:00+08:00", {"x.py": "1\n"})
    git_repo.commit('Revert "feat: X" (#2)', "2026-05-12T10:00:00+08:00", {"x.py": ""})
    git_repo.commit("feat: X (#3)", "2026-05-13T10:00:00+08:00", {"x.py": "1\n"})
    assert read_week(git_repo.path)[2].reverted_number == 1


def test_a_revert_inside_a_squashed_branch_does_not_make_the_pr_a_revert(
    git_repo: GitRepo,
) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    # GitHub's squash message lists the branch's commits, one of which reverted another.
    git_repo.commit(
        "[tokenizer] feat: support tokenizers without a pad token (#36)\n\n"
        "* [tokenizer] feat: support tokenizers without a pad token\n\n"
        '* Revert "try a default pad token"\n\n'
        "This reverts commit b924f79a79c1e5e0d3a4f2b6c7d8e9f0a1b2c3d4.\n\n"
        "* add a test",
        "2026-05-12T10:00:00+08:00",
        {"tok.py": "1\n"},
    )
    pr = read_week(git_repo.path)[36]
    assert (pr.is_revert, pr.reverted_sha) == (False, None)


def test_a_number_landed_twice_belongs_to_its_first_landing(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    first = git_repo.commit(
        "[init] Migrate the codebase (#10)", "2026-05-05T10:00:00+08:00", {"a": "1"}
    )
    git_repo.commit("instruction update (#10)", "2026-05-12T10:00:00+08:00", {"a": "2"})
    earlier = WeekWindow(week_start=date(2026, 5, 4), timezone=ZONE)
    assert read_week(git_repo.path) == {}  # the later week alone does not claim #10
    both = read_merged_prs(git_repo.path, "acme/widgets", earlier.start, WEEK.end)
    assert [(pr.number, pr.merge_commit_sha) for pr in both] == [(10, first)]


def test_a_week_holds_the_same_prs_whatever_range_it_is_read_with(git_repo: GitRepo) -> None:
    git_repo.commit("init", "2026-03-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: early (#1)", "2026-03-02T10:00:00+08:00", {"a": "1"})
    # Rewritten history (tilelang's #208): landed in March on the branch, between #1 and #3,
    # with a committer date in the week of 05-11. It is March's, read with any range.
    git_repo.commit("chore: relicense (#2)", "2026-05-12T10:00:00+08:00", {"b": "1"})
    git_repo.commit("feat: middle (#3)", "2026-03-03T10:00:00+08:00", {"c": "1"})
    git_repo.commit("feat: late (#4)", "2026-05-20T10:00:00+08:00", {"d": "1"})
    march = WeekWindow(week_start=date(2026, 3, 2), timezone=ZONE)
    wide = read_merged_prs(git_repo.path, "acme/widgets", march.start, WEEK.end)
    assert [pr.number for pr in wide] == [1, 2, 3]
    alone = read_merged_prs(git_repo.path, "acme/widgets", march.start, march.end)
    assert [pr.number for pr in alone] == [1, 2, 3]
    assert alone[1].merged_at == alone[2].merged_at  # at the latest when #3 landed after it
    assert list(read_week(git_repo.path)) == []
    # A committer's clock a year behind: the commit is moved up to the one before it.
    git_repo.commit("fix: behind (#5)", "2025-05-12T10:00:00+08:00", {"e": "1"})
    git_repo.commit("fix: after (#6)", "2026-05-21T10:00:00+08:00", {"f": "1"})
    late = read_merged_prs(git_repo.path, "acme/widgets", WEEK.end, WEEK.end + timedelta(days=7))
    assert [pr.number for pr in late] == [4, 5, 6]
    assert late[1].merged_at == late[0].merged_at


def test_prs_landed_together_long_after_they_were_written_are_a_batch(git_repo: GitRepo) -> None:
    """ColossalAI rebased its pipeline branch onto main on 2023-08-15: 54 squash commits of
    PRs written from 2023-06-20 on, all committed at one time."""
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    rebased = "2026-05-12T23:25:14+08:00"
    written = [
        "2026-04-20T10:00:00+08:00",
        "2026-04-28T11:00:00+08:00",
        "2026-05-11T09:00:00+08:00",
    ]
    for number, day in enumerate(written, start=1):
        git_repo.commit(f"[pipeline] step {number} (#{number})", day, {"p": day}, landed=rebased)
    # Commits of the branch that name no PR land with it, and are no PRs of the batch.
    git_repo.commit(
        "[pipeline] fix import", "2026-05-11T10:00:00+08:00", {"q": "1"}, landed=rebased
    )
    # A day's PRs rebased together (ColossalAI's 19 of 2022-09-08) are no late landing, nor is
    # a PR landed alone long after its commit was written.
    same_day = "2026-05-13T20:00:00+08:00"
    for number in (4, 5, 6):
        git_repo.commit(
            f"fix: small {number} (#{number})",
            "2026-05-13T09:00:00+08:00",
            {"s": str(number)},
            landed=same_day,
        )
    git_repo.commit(
        "feat: old (#7)",
        "2026-04-01T09:00:00+08:00",
        {"o": "1"},
        landed="2026-05-14T09:00:00+08:00",
    )
    prs = read_week(git_repo.path)
    assert {n: pr.batch_written_at for n, pr in prs.items() if pr.batch_written_at} == {
        n: datetime.fromisoformat(day).astimezone(UTC) for n, day in enumerate(written, start=1)
    }
    assert {pr.merged_at for n, pr in prs.items() if n <= 3} == {
        datetime.fromisoformat(rebased).astimezone(UTC)
    }


def test_commits_moved_to_their_neighbours_time_are_no_batch(git_repo: GitRepo) -> None:
    """A commit whose date is out of the branch's order takes its neighbour's (tilelang's
    #208): two such after a third do not make PRs landed together."""
    git_repo.commit("init", "2026-03-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: first (#1)", "2026-05-11T12:00:00+08:00", {"a": "1"})
    git_repo.commit("feat: second (#2)", "2026-05-12T10:00:00+08:00", {"b": "1"})
    git_repo.commit("chore: behind (#3)", "2025-05-12T10:00:00+08:00", {"c": "1"})
    git_repo.commit("chore: behind too (#4)", "2025-05-13T10:00:00+08:00", {"d": "1"})
    git_repo.commit("feat: after (#5)", "2026-05-13T10:00:00+08:00", {"e": "1"})
    prs = read_week(git_repo.path)
    assert prs[2].merged_at == prs[3].merged_at == prs[4].merged_at
    assert [pr.batch_written_at for pr in prs.values()] == [None] * 5


def test_renames_and_binary_files(git_repo: GitRepo) -> None:
    body = "".join(f"line {i}\n" for i in range(40))
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"old/name.py": body})
    git_repo.git("rm", "-q", "old/name.py")
    git_repo.commit(
        "refactor: move module (#5)",
        "2026-05-12T10:00:00+08:00",
        {"new/name.py": body + "one more\n", "logo.png": b"\x89PNG\r\n\x1a\n\x00\x01\x02"},
    )
    files = {f.path: f for f in read_week(git_repo.path)[5].files}
    assert files["new/name.py"].status == "renamed"
    assert files["new/name.py"].previous_path == "old/name.py"
    assert (files["new/name.py"].additions, files["new/name.py"].deletions) == (1, 0)
    assert files["logo.png"].additions is None and files["logo.png"].deletions is None
    assert files["logo.png"].status == "added"


@pytest.mark.parametrize(
    ("when", "expected_week"),
    [
        ("2026-05-17T23:59:00+08:00", date(2026, 5, 11)),  # Sunday 23:59 in Shanghai
        ("2026-05-17T08:59:00-07:00", date(2026, 5, 11)),  # the same instant from California
        ("2026-05-17T15:59:00+00:00", date(2026, 5, 11)),
        ("2026-05-18T00:00:00+08:00", date(2026, 5, 18)),  # Monday 00:00 in Shanghai
        ("2026-05-17T08:00:00-08:00", date(2026, 5, 18)),  # the same instant, -08:00
        ("2026-05-17T16:00:00+00:00", date(2026, 5, 18)),
    ],
)
def test_week_boundaries_hold_whatever_the_offset(
    git_repo: GitRepo, when: str, expected_week: date
) -> None:
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: boundary (#9)", when, {"b.py": "1\n"})
    this_week = read_week(git_repo.path)
    next_week = read_week(git_repo.path, WeekWindow(week_start=date(2026, 5, 18), timezone=ZONE))
    found_in = [week for week, prs in ((WEEK, this_week), (None, next_week)) if 9 in prs]
    assert len(found_in) == 1, "a PR belongs to exactly one week"
    pr = (this_week | next_week)[9]
    assert week_of(pr.merged_at, ZONE) == expected_week
    assert (9 in this_week) == (expected_week == WEEK.week_start)


def bare_clone_with_one_pr(origin: GitRepo, tmp_path: Path) -> Path:
    """A bare clone of `origin` once it holds PR #1 (merged in the week of 2026-05-11)."""
    origin.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    origin.commit("feat: a (#1)", "2026-05-12T10:00:00+08:00", {"a.py": "1\n"})
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(origin.path), str(bare)], check=True)
    return bare


def test_bare_clone_reads_the_same(git_repo: GitRepo, tmp_path: Path) -> None:
    assert list(read_week(bare_clone_with_one_pr(git_repo, tmp_path))) == [1]


def test_empty_week_is_empty(git_repo: GitRepo) -> None:
    git_repo.commit("init (#1)", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    assert read_week(git_repo.path) == {}


def test_not_a_clone_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(GitSourceError, match="is not a git clone"):
        read_week(tmp_path)


def test_a_clone_missing_objects_is_a_clear_error(git_repo: GitRepo) -> None:
    """A mirror without its largest files (vllm-project/aibrix's) failed with git's bare
    "fatal: unable to read 7f36b11..."."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: weights (#7)", "2026-05-12T10:00:00+08:00", {"w.bin": "large\n"})
    git_repo.commit("fix: loader (#8)", "2026-05-13T10:00:00+08:00", {"README.md": "hi\n"})
    blob = git_repo.git("rev-parse", "HEAD~1:w.bin")
    weights = git_repo.git("rev-parse", "HEAD~1")
    (git_repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    # git names the object; the error also names the PR whose diff needs it.
    with pytest.raises(
        GitSourceError, match=rf"commit {weights[:12]} \(PR #7\): .*unable to read {blob}.*lacks"
    ):
        read_week(git_repo.path)


def test_a_range_of_weeks_costs_as_many_git_calls_as_one_week(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    for index, day in enumerate(["2026-04-07", "2026-04-15", "2026-04-22", "2026-05-12"]):
        git_repo.commit(f"feat: n{index} (#{index + 1})", f"{day}T10:00:00+08:00", {"f": day})
    git_repo.merge_pull_request(5, "topic", "Add a topic", "2026-05-13T10:00:00+08:00", {"t": "1"})
    calls: list[list[str]] = []
    real_run = subprocess.run

    def counting_run(
        command: list[str], *args: Any, **kwargs: Any
    ) -> subprocess.CompletedProcess[Any]:
        calls.append(command)
        return real_run(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", counting_run)
    assert list(read_week(git_repo.path)) == [4, 5]
    one_week = len(calls)
    calls.clear()
    first = WeekWindow(week_start=date(2026, 4, 6), timezone=ZONE)
    prs = read_merged_prs(git_repo.path, "acme/widgets", first.start, WEEK.end)
    assert [pr.number for pr in prs] == [1, 2, 3, 4, 5]
    # The fourth reads the branch merged from a fork (`from someone/topic`).
    assert len(calls) == one_week == 4


def test_a_bare_clone_is_updated_from_its_origin_before_reading(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    bare = bare_clone_with_one_pr(git_repo, tmp_path)
    git_repo.commit("fix: b (#2)", "2026-05-13T10:00:00+08:00", {"b.py": "2\n"})
    git_repo.git("tag", "-a", "v1.0.0", "-m", "v1.0.0", date="2026-05-14T10:00:00+08:00")
    assert list(read_week(bare)) == [1]  # merged on GitHub after the clone was made

    update = update_clone(bare)
    assert update.status == "updated" and update.message.startswith("main fetched from origin")
    assert list(read_week(bare)) == [1, 2]
    # The release tagged upstream since is fetched too: the week's report names it.
    assert [t.name for t in read_version_tags(bare, "acme/widgets", WEEK.start, WEEK.end)] == [
        "v1.0.0"
    ]
    assert update_clone(bare).message.endswith("already up to date")


def test_an_update_that_cannot_fetch_is_reported_and_the_clone_read_as_it_is(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    bare = bare_clone_with_one_pr(git_repo, tmp_path)
    subprocess.run(
        ["git", f"--git-dir={bare}", "remote", "set-url", "origin", str(tmp_path / "gone")],
        check=True,
    )
    update = update_clone(bare)
    assert update.status == "failed"
    # git's cause, not its closing advice ("... and the repository exists.").
    assert update.message == (
        f"fetching main from origin failed ('{tmp_path / 'gone'}' does not appear to be a git"
        " repository): the clone is read as it is"
    )
    assert list(read_week(bare)) == [1]


def test_clones_that_are_not_updated(git_repo: GitRepo, tmp_path: Path) -> None:
    bare = bare_clone_with_one_pr(git_repo, tmp_path)
    assert update_clone(git_repo.path).status == "skipped"  # a working clone is its owner's
    assert update_clone(bare, branch="no-such-branch").message == (
        "no-such-branch is not a local branch: read as it is"
    )
    subprocess.run(["git", f"--git-dir={bare}", "remote", "remove", "origin"], check=True)
    assert update_clone(bare).message == "no origin remote: the clone is read as it is"


OLD_YAML = "".join(f"key_{n}: {n}\n" for n in range(20)) + "y: 1\n"


def test_file_versions_are_read_from_the_landing_commit_and_its_first_parent(
    git_repo: GitRepo,
) -> None:
    git_repo.commit(
        "init",
        "2026-05-01T10:00:00+08:00",
        {"conf/a.yaml": "x: 1\n", "conf/old.yaml": OLD_YAML, "conf/logo.bin": b"\0\1"},
    )
    git_repo.commit(
        "[cfg] feat: defaults (#1)",
        "2026-05-11T10:00:00+08:00",
        {"conf/a.yaml": "x: 2\n", "conf/new.yaml": "z: 1\n", "conf/logo.bin": b"\0\2"},
    )
    git_repo.git("mv", "conf/old.yaml", "conf/renamed.yaml")
    git_repo.write("conf/renamed.yaml", OLD_YAML.replace("y: 1", "y: 2"))
    git_repo.commit("[cfg] refactor: rename (#2)", "2026-05-12T10:00:00+08:00")
    # A merge commit's first parent is the branch it landed on, not the topic branch.
    git_repo.merge_pull_request(
        3, "tune", "Tune x", "2026-05-13T10:00:00+08:00", {"conf/a.yaml": "x: 3\n"}
    )
    prs = read_week(git_repo.path)
    wanted = [(prs[n], f) for n in (1, 2, 3) for f in prs[n].files]
    no_sha = prs[1].model_copy(update={"merge_commit_sha": None})
    wanted.append((no_sha, prs[1].files[0]))
    versions = read_file_versions(git_repo.path, wanted)
    assert [(v.pr_number, v.path, v.before, v.after) for v in versions] == [
        (1, "conf/a.yaml", "x: 1\n", "x: 2\n"),
        (1, "conf/logo.bin", None, None),  # binary
        (1, "conf/new.yaml", None, "z: 1\n"),  # added
        # A renamed file is read at its previous path on the old side.
        (2, "conf/renamed.yaml", OLD_YAML, OLD_YAML.replace("y: 1", "y: 2")),
        (3, "conf/a.yaml", "x: 2\n", "x: 3\n"),
        (1, "conf/a.yaml", None, None),  # no landing commit
    ]
    assert read_file_versions(git_repo.path, []) == []


@pytest.mark.parametrize(
    ("login", "email", "key"),
    [
        ("Alice-Dev", "alice@work.example", "alice-dev"),  # a login wins, lowercased
        (None, "xiazhahe@users.noreply.github.com", "xiazhahe"),  # older noreply addresses
        (None, " Bob@Example.COM ", "bob@example.com"),
        (None, "", None),
        (None, None, None),
    ],
)
def test_author_keys(login: str | None, email: str | None, key: str | None) -> None:
    assert author_key(login, email) == key


def test_a_commit_with_an_impossible_utc_offset_is_read_at_its_instant(git_repo: GitRepo) -> None:
    """git accepts a committer line with `+9959`, which `%cI` prints as `+99:59`, and one such
    commit failed every run of the repository ("offset must be a timedelta ...")."""
    git_repo.commit("init", "2026-05-12T10:00:00+08:00", {"README.md": "hello\n"})
    tree, head = git_repo.git("rev-parse", "HEAD^{tree}"), git_repo.git("rev-parse", "HEAD")
    raw = (
        f"tree {tree}\nparent {head}\nauthor A <a@example.com> 1778900000 +0800\n"
        "committer A <a@example.com> 1778900000 +9959\n\n[core] fix: odd clock (#7)\n"
    )
    written = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin"],
        cwd=git_repo.path,
        input=raw,
        capture_output=True,
        text=True,
        check=True,
    )
    git_repo.git("update-ref", "refs/heads/main", written.stdout.strip())
    (pr,) = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end).prs
    assert pr.number == 7
    assert pr.merged_at == datetime(2026, 5, 16, 2, 53, 20, tzinfo=UTC)


def test_the_weeks_before_a_week_start_at_their_own_mondays_midnight() -> None:
    """The twelve weeks the reports compare with began an hour early after a change to summer
    time (`start_utc - timedelta(weeks=12)`), counting the last hour of a Sunday."""
    window = WeekWindow(week_start=date(2021, 3, 15), timezone="America/New_York")  # EDT
    before = window.weeks_before(12)
    assert before.week_start == date(2020, 12, 21)
    assert before.start_utc == datetime(2020, 12, 21, 5, 0, tzinfo=UTC)  # midnight EST
    assert window.start_utc - timedelta(weeks=12) == before.start_utc - timedelta(hours=1)
    assert window.previous() == window.weeks_before(1)


def test_a_week_window_holds_its_monday_midnight_and_not_the_next() -> None:
    """The GitHub source files a PR by `contains`: a merge at the next Monday's midnight is
    the next week's, or it would be stored in two weeks."""
    monday = datetime(2026, 5, 11, 0, 0, tzinfo=ZoneInfo(ZONE))
    assert WEEK.contains(monday)
    assert WEEK.contains(monday + timedelta(days=7) - timedelta(microseconds=1))
    assert not WEEK.contains(monday + timedelta(days=7))
    assert not WEEK.contains(monday - timedelta(microseconds=1))
    assert WEEK.contains(monday.astimezone(UTC))  # the same instant in another zone


def test_a_merge_subject_on_a_commit_with_one_parent_is_no_merged_pr(git_repo: GitRepo) -> None:
    """A rebased or cherry-picked commit that kept `Merge pull request #N from ...` has no
    second parent to read the PR's branch from: it is a commit pushed without a PR."""
    git_repo.commit("init", "2026-05-12T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.commit("feat: a PR (#1)", "2026-05-12T11:00:00+08:00", {"a": "1"})
    git_repo.commit(
        "Merge pull request #5 from someone/branch\n\nAdd b",
        "2026-05-12T12:00:00+08:00",
        {"b": "1"},
    )
    window = read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert [pr.number for pr in window.prs] == [1]
    assert [c.subject for c in window.pushed] == [
        "init",
        "Merge pull request #5 from someone/branch",
    ]


def test_version_tags_of_the_week_are_read_by_their_own_date(git_repo: GitRepo) -> None:
    """verl's v0.9.0 tags `bump version to 0.9.0` on a release branch main never merged: the
    tag, not the branch, tells the release. An annotated tag counts from when it was made, a
    lightweight one from its commit; tags that name no version are no releases."""
    old = git_repo.commit("feat: an earlier PR (#1)", "2026-05-04T10:00:00+08:00")
    git_repo.git("tag", "v0.8.0", old)  # lightweight: its commit's date, the week before
    git_repo.git("checkout", "-q", "-b", "release/v0.9.0")
    bump = git_repo.commit("chore: bump version to 0.9.0 (#2)", "2026-05-12T09:00:00+08:00")
    git_repo.git("tag", "-a", "v0.9.0", "-m", "v0.9.0", date="2026-05-14T15:34:50+08:00")
    git_repo.git("tag", "nightly", bump)
    git_repo.git("checkout", "-q", "main")
    git_repo.git("tag", "-a", "v0.9.1", old, "-m", "late", date="2026-05-18T10:00:00+08:00")
    # A tag of a tag is its commit's; a tag of a tree names no commit, so no release.
    git_repo.git("tag", "-a", "v0.9.0-final", "v0.9.0", "-m", "x", date="2026-05-15T09:00:00+08:00")
    tree = git_repo.git("rev-parse", f"{bump}^{{tree}}")
    git_repo.git("tag", "-a", "v0.9.0-tree", tree, "-m", "x", date="2026-05-15T10:00:00+08:00")
    tags = read_version_tags(git_repo.path, "acme/widgets", WEEK.start, WEEK.end)
    assert [(t.name, t.sha, t.tagged_at.isoformat()) for t in tags] == [
        ("v0.9.0", bump, "2026-05-14T07:34:50+00:00"),
        ("v0.9.0-final", bump, "2026-05-15T01:00:00+00:00"),
    ]
    assert all(t.repo == "acme/widgets" for t in tags)


def test_an_empty_clone_says_it_has_no_commits(git_repo: GitRepo) -> None:
    """git said `fatal: ambiguous argument 'HEAD': unknown revision or path ...`."""
    with pytest.raises(GitSourceError) as error:
        read_week(git_repo.path)
    assert (
        str(error.value)
        == f"{git_repo.path} has no commits (clone the repository with its history)"
    )


def test_a_branch_the_clone_lacks_is_named_with_its_branches(git_repo: GitRepo) -> None:
    """git said `fatal: ambiguous argument 'nosuch': unknown revision or path ...`."""
    git_repo.commit("feat: a (#1)", "2026-05-12T10:00:00+08:00", {"a.py": "a\n"})
    git_repo.git("branch", "release/v1")
    with pytest.raises(GitSourceError) as error:
        read_window(git_repo.path, "acme/widgets", WEEK.start, WEEK.end, branch="nosuch")
    assert str(error.value) == (
        f"branch `nosuch` does not exist in {git_repo.path} (its branches: main, release/v1)"
    )
    # HEAD naming a branch without commits, where others have some.
    git_repo.git("symbolic-ref", "HEAD", "refs/heads/gone")
    with pytest.raises(
        GitSourceError,
        match=r"its HEAD names branch `gone`, which has no commits \(its branches: main,"
        r" release/v1\); set the repository's `branch`",
    ):
        read_week(git_repo.path)
    git_repo.git("symbolic-ref", "HEAD", "refs/heads/main")
    assert list(read_week(git_repo.path)) == [1]


@pytest.mark.parametrize(
    ("name", "is_release"),
    [
        ("v0.9.0", True),
        ("0.8.1", True),
        ("v1.0.0rc2", True),
        ("v0.2.0.post1", True),
        ("release-1.2", True),
        ("pkg/v2.3.1", True),
        ("nightly-2026.05.12", False),
        ("v0.10.0.dev0", False),
        ("v1.0.0-dev1", False),
        ("v0.10.0dev0", False),
        ("v1.0.0.dev0+cu121", False),
        ("v1.0.0_dev", False),
        ("1.2-snapshot", False),
        ("latest", False),
    ],
)
def test_a_version_tag_names_a_release(name: str, is_release: bool) -> None:
    assert bool(VERSION_TAG.match(name)) == is_release


def test_a_merged_branch_ending_in_a_bot_commit_is_its_last_persons(git_repo: GitRepo) -> None:
    """ColossalAI #6208's branch ends in pre-commit-ci's `auto fixes from pre-commit.com
    hooks`: the PR is YeAnbang's, whose commit is before it. A branch of bot commits alone is
    the bot's."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.git("checkout", "-q", "-b", "grpo")
    git_repo.commit("fix rebatching", "2026-05-12T09:00:00+08:00", {"a.py": "1\n"}, "YeAnbang")
    bot = ("pre-commit-ci[bot]", "66853113+pre-commit-ci[bot]@users.noreply.github.com")
    git_repo.commit(
        "[pre-commit.ci] auto fixes", "2026-05-12T09:30:00+08:00", {"a.py": "2\n"}, *bot
    )
    git_repo.git("checkout", "-q", "main")
    git_repo.commit("[doc] x (#1)", "2026-05-12T09:40:00+08:00", {"d.md": "1\n"}, "Someone")
    git_repo.git(
        "merge",
        "-q",
        "--no-ff",
        "grpo",
        "-m",
        "Merge pull request #2 from o/grpo",
        "-m",
        "[Chat] fix colossalchat bugs",
        date="2026-05-12T10:00:00+08:00",
    )
    git_repo.git("checkout", "-q", "-b", "bump")
    git_repo.commit("bump x", "2026-05-13T09:00:00+08:00", {"r.txt": "x==2\n"}, *bot)
    git_repo.git("checkout", "-q", "main")
    git_repo.git(
        "merge",
        "-q",
        "--no-ff",
        "bump",
        "-m",
        "Merge pull request #3 from o/bump",
        "-m",
        "Bump x",
        date="2026-05-13T10:00:00+08:00",
    )
    prs = read_week(git_repo.path)
    assert {n: pr.author for n, pr in prs.items()} == {
        1: "Someone",
        2: "YeAnbang",
        3: "pre-commit-ci[bot]",
    }


def test_a_merge_without_the_prs_title_is_named_by_its_branch(git_repo: GitRepo) -> None:
    """ColossalAI #5372's merge commit says "Merge pull request #5372 from
    hpcaitech/exp/mixtral" and nothing else: its report read "#5372 feature: Merge pull request
    #5372 from hpcaitech/exp/mixtral"."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    git_repo.git("checkout", "-q", "-b", "mixtral")
    git_repo.commit("[moe] fix tests", "2026-05-12T09:00:00+08:00", {"a.py": "1\n"}, "ver217")
    git_repo.git("checkout", "-q", "main")
    git_repo.git(
        "merge",
        "-q",
        "--no-ff",
        "mixtral",
        "-m",
        "Merge pull request #5372 from hpcaitech/exp/mixtral",
        date="2026-05-12T10:00:00+08:00",
    )
    pr = read_week(git_repo.path)[5372]
    assert (pr.title, pr.body, pr.author) == ("exp/mixtral", "", "ver217")


def merge_branch(
    git_repo: GitRepo,
    number: int,
    source: str,
    commits: list[tuple[str, str]],
    date: str,
    start: str = "main",
) -> None:
    """Merge, as GitHub does, a branch started at `start` with a commit by each (name,
    address) of `commits`, oldest first, from `source` (`owner/branch`)."""
    branch = f"pr{number}"
    git_repo.git("checkout", "-q", "-b", branch, start)
    for index, (name, email) in enumerate(commits):
        git_repo.commit(f"{branch} {index}", date, {f"{branch}.py": f"{index}\n"}, name, email)
    git_repo.git("checkout", "-q", "main")
    git_repo.git(
        "merge",
        "-q",
        "--no-ff",
        branch,
        "-m",
        f"Merge pull request #{number} from {source}",
        "-m",
        f"Change {number}",
        date=date,
    )


def test_a_forks_pr_is_its_owners_whoever_pushed_to_it_last(git_repo: GitRepo) -> None:
    """ColossalAI #6334 came from flybird11111's fork, whose branch ends in commits BurkeHulk
    pushed as "Hanks": it was credited to Hanks. LLaMA-Factory's owner hiyouga pushed last to
    57 of its contributors' branches (#5880's is Valerio Mariani's). A branch of the
    repository's own keeps its last author."""
    git_repo.commit("init", "2026-05-01T10:00:00+08:00", {"README.md": "hello\n"})
    hanks = ("Hanks", "hangxu0304@gmail.com")
    flybird = ("flybird11111", "1829166702@qq.com")
    merge_branch(git_repo, 6334, "flybird11111/main", [hanks, flybird, hanks], "2026-05-12T10:00")
    valerio = ("Valerio Mariani", "valeriomariani52@gmail.com")
    owner = ("hoshi-acme", "acme@buaa.edu.cn")  # the repository's owner, by its address
    merge_branch(git_repo, 5880, "sd3ntato/main", [valerio, owner], "2026-05-12T11:00")
    merge_branch(git_repo, 7, "acme/feature", [flybird, hanks], "2026-05-12T12:00")
    prs = read_week(git_repo.path)
    assert {n: (pr.author, pr.author_key) for n, pr in prs.items()} == {
        6334: ("flybird11111", "1829166702@qq.com"),
        5880: ("Valerio Mariani", "valeriomariani52@gmail.com"),
        7: ("Hanks", "hangxu0304@gmail.com"),
    }


def test_a_forks_branch_its_owner_did_not_sign_is_told_by_the_owners_other_branches(
    git_repo: GitRepo,
) -> None:
    """LLaMA-Factory's codemayq commits as "codemayq" and as "codingma": a branch of theirs
    that another person finished is theirs by their own commit in an earlier branch, merged
    weeks before. A branch several people wrote, none as its fork's owner, keeps its last
    author: OpenRLHF's PRs from "OpenLLMAI", its former owner, are hijkzzz's, catqaq's and
    jianh's. A branch started from an earlier PR's commits is only its own commits."""
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    merge_branch(
        git_repo, 1, "codemayq/a", [("codemayq", "codingma@pku.edu.cn")], "2026-04-10T10:00"
    )
    started = git_repo.git("rev-parse", "pr1")
    codingma = ("codingma", "codingma@163.com")
    merge_branch(git_repo, 2, "codemayq/b", [codingma, ("Zed", "zed@x.org")], "2026-05-12T10:00")
    hijkzzz, catqaq = ("hijkzzz", "janhu9527@gmail.com"), ("catqaq", "jjgxw@outlook.com")
    merge_branch(git_repo, 3, "OpenLLMAI/x", [hijkzzz, catqaq], "2026-05-12T11:00")
    owner = ("hoshi-acme", "acme@buaa.edu.cn")
    merge_branch(
        git_repo, 4, "erin/y", [("E. Liu", "el@x.org"), owner], "2026-05-12T12:00", started
    )
    prs = read_week(git_repo.path)
    assert {n: (pr.author, pr.author_key) for n, pr in prs.items()} == {
        2: ("codemayq", "codingma@pku.edu.cn"),
        3: ("catqaq", "jjgxw@outlook.com"),
        4: ("E. Liu", "el@x.org"),
    }


def test_a_forks_owner_under_another_address_is_one_person(git_repo: GitRepo) -> None:
    """LLaMA-Factory's codemayq commits as "codemayq <codingma@pku.edu.cn>" and as "codingma
    <codingma@163.com>": a branch of their fork that only "codingma" wrote is named as they
    sign as the owner, with that branch's address, so the author figures count one person
    where they counted "codemayq" and "codingma" (eight of its PRs)."""
    git_repo.commit("init", "2026-04-01T10:00:00+08:00", {"README.md": "hello\n"})
    merge_branch(
        git_repo, 1, "codemayq/a", [("codemayq", "codingma@pku.edu.cn")], "2026-04-10T10:00"
    )
    codingma = ("codingma", "codingma@163.com")
    merge_branch(git_repo, 2, "codemayq/b", [codingma], "2026-05-12T10:00")
    git_repo.commit("fix: c (#3)", "2026-05-12T11:00:00+08:00", {"c.py": "1\n"}, *codingma)
    first = WeekWindow(week_start=date(2026, 4, 6), timezone=ZONE)
    prs = read_merged_prs(git_repo.path, "acme/widgets", first.start, WEEK.end)
    assert [(pr.number, pr.author, pr.author_key) for pr in prs] == [
        (1, "codemayq", "codingma@pku.edu.cn"),
        (2, "codemayq", "codingma@163.com"),
        (3, "codingma", "codingma@163.com"),
    ]
    assert len(set(people(prs).values())) == 1
