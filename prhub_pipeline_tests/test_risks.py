"""Each risk rule on hand-made PRs, with the evidence it must carry."""

from __future__ import annotations

from datetime import timedelta

import pytest

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import reverted_prs
from prhub_pipeline.modelling.scoring.risks import core_tests, flag_risks, one_line_ask
from prhub_pipeline.modelling.scoring.user_settings import distinct_settings
from prhub_pipeline.records import (
    ConfigFileDiff,
    FileStatus,
    PullRequest,
    PushedCommit,
    Review,
    ReviewData,
    ReviewThread,
    RiskFlag,
    SettingChange,
    ThreadComment,
)
from prhub_pipeline_tests.test_importance import MERGED, REPO, make_pr

CONFIG = ScoringConfig(core_paths=["verl/**/*.py"])
NO_REVIEWS = ReviewData(available=False)


def risks_of(
    prs: list[PullRequest],
    review_data: ReviewData = NO_REVIEWS,
    modules: dict[int, list[str]] | None = None,
    history: dict[int, PullRequest] | None = None,
    *,
    check_approvals: bool = True,
) -> list[RiskFlag]:
    return flag_risks(
        prs, modules or {}, review_data, CONFIG, history or {}, check_approvals=check_approvals
    )


def kinds(flags: list[RiskFlag]) -> set[str]:
    return {f.risk for f in flags}


def thread(
    pr: int,
    author: str,
    body: str,
    *,
    resolved: bool = False,
    path: str = "verl/a.py",
    line: int | None = 12,
) -> ReviewThread:
    return ReviewThread(
        repo=REPO,
        pr_number=pr,
        thread_id=f"t{pr}-{author}",
        path=path,
        line=line,
        is_resolved=resolved,
        comments=[
            ThreadComment(
                comment_id="c1", author=author, author_is_bot=author.endswith("[bot]"), body=body
            ),
            ThreadComment(comment_id="c2", author="alice", is_pr_author=True, body="Will do."),
        ],
    )


def approved(pr: int, author: str = "maintainer") -> Review:
    return Review(
        repo=REPO, pr_number=pr, review_id=f"r{pr}{author}", author=author, state="APPROVED"
    )


def test_core_change_without_tests() -> None:
    untested = make_pr(1, files=[("verl/workers/engine.py", 40, 3), ("examples/run.sh", 5, 0)])
    flags = [f for f in risks_of([untested]) if f.risk == "core_without_tests"]
    assert len(flags) == 1
    assert flags[0].lines == 43 and flags[0].paths == ["verl/workers/engine.py"]
    assert flags[0].detail == (
        "changes 43 lines in 1 core file (verl/workers/engine.py) and no test file"
    )

    tested = make_pr(2, files=[("verl/workers/engine.py", 40, 3), ("tests/test_engine.py", 20, 0)])
    tiny = make_pr(3, files=[("verl/workers/engine.py", 2, 1)])
    docs = make_pr(4, files=[("docs/guide.md", 400, 0)])
    assert "core_without_tests" not in kinds(risks_of([tested, tiny, docs]))


def test_core_code_taken_out_is_not_asked_for_tests() -> None:
    """Retiring a backend (verl #7374: +7/-387 core lines) leaves no new behaviour to test;
    a change that deletes much but also adds is still flagged."""
    retired = make_pr(5, files=[("verl/workers/engine/old.py", 0, 210), ("verl/cfg.py", 7, 177)])
    assert "core_without_tests" not in kinds(risks_of([retired]))
    rewritten = make_pr(6, files=[("verl/workers/engine/old.py", 30, 210)])
    assert "core_without_tests" in kinds(risks_of([rewritten]))


def test_which_core_changes_came_with_tests() -> None:
    """`core_tests` says, of the PRs the untested-core rule looks at, which changed tests: the
    report counts them against the weeks before. A False is exactly a flagged PR."""
    engine = ("verl/workers/engine.py", 40, 3)
    tested = make_pr(2, files=[engine, ("tests/test_engine.py", 20, 0)])
    untested = make_pr(1, files=[engine, ("examples/run.sh", 5, 0)])
    tiny = make_pr(3, files=[("verl/workers/engine.py", 2, 1)])
    retired = make_pr(5, files=[("verl/workers/engine/old.py", 0, 210)])
    revert = make_pr(8, 'Revert "[fsdp] fix: x"', files=[engine], is_revert=True)
    statuses = {
        pr.number: core_tests(pr, CONFIG) for pr in (tested, untested, tiny, retired, revert)
    }
    assert statuses == {2: True, 1: False, 3: None, 5: None, 8: None}
    flagged = {
        f.number
        for f in risks_of([tested, untested, tiny, retired, revert])
        if f.risk == "core_without_tests"
    }
    assert flagged == {n for n, status in statuses.items() if status is False}
    assert core_tests(untested, ScoringConfig()) is None  # no core paths: nothing is core
    # verl #5454 retired an integration: +4/-35 in the core files it kept, 2,100 lines in
    # those it deleted, and its test script went with them. Nothing new to test.
    retiring = with_statuses(
        make_pr(
            9,
            files=[("verl/workers/engine.py", 4, 35), ("verl/workers/tq/client.py", 0, 2100)],
        ),
        {"verl/workers/tq/client.py": "removed"},
    )
    assert core_tests(retiring, CONFIG) is None


def test_unresolved_review_threads_say_who_asked_what() -> None:
    pr = make_pr(7)
    data = ReviewData(
        available=True,
        threads=[
            thread(
                7,
                "gemini-code-assist[bot]",
                "![high](https://x/high.svg)\n\nThe URL points to the"
                " wrong org. Use a relative link.\n```suggestion\nx\n```",
            ),
            thread(
                7, "bob", "What specific issue does this patch fix?", path="verl/m.py", line=None
            ),
            thread(7, "carol", "Looks fine now.", resolved=True),
        ],
        reviews=[approved(7)],
    )
    flags = [f for f in risks_of([pr], data) if f.risk == "unresolved_review"]
    assert len(flags) == 1
    flag = flags[0]
    assert [(a.reviewer, a.is_bot, a.where(), a.ask) for a in flag.asks] == [
        ("gemini-code-assist[bot]", True, "verl/a.py:12", "The URL points to the wrong org."),
        ("bob", False, "verl/m.py", "What specific issue does this patch fix?"),
    ]
    assert flag.detail.startswith(
        "2 review threads unresolved at merge: gemini-code-assist[bot] on verl/a.py:12"
    )
    assert "carol" not in flag.detail
    # A thread on lines the PR changed since (outdated) is no open question at merge.
    outdated = thread(7, "dave", "Rename this?").model_copy(update={"is_outdated": True})
    only_outdated = ReviewData(available=True, threads=[outdated], reviews=[approved(7)])
    assert "unresolved_review" not in kinds(risks_of([pr], only_outdated))


def test_no_review_rules_without_review_data() -> None:
    pr = make_pr(7)
    assert not kinds(risks_of([pr])) & {"unresolved_review", "no_approval"}
    # The same PR with review data that holds no approval is flagged.
    assert "no_approval" in kinds(risks_of([pr], ReviewData(available=True, reviews=[])))


def test_merged_without_approval() -> None:
    pr = make_pr(8)
    commented = ReviewData(
        available=True,
        reviews=[
            Review(repo=REPO, pr_number=8, review_id="r1", author="bob", state="COMMENTED"),
            Review(repo=REPO, pr_number=8, review_id="r2", author="bot[bot]", state="APPROVED"),
            Review(
                repo=REPO, pr_number=8, review_id="r3", author="carol", state="CHANGES_REQUESTED"
            ),
        ],
    )
    flags = [f for f in risks_of([pr], commented) if f.risk == "no_approval"]
    assert len(flags) == 1 and "changes requested by carol" in flags[0].detail
    ok = ReviewData(available=True, reviews=[approved(8)])
    assert "no_approval" not in kinds(risks_of([pr], ok))
    assert "no_approval" not in kinds(risks_of([pr], commented, check_approvals=False))


def test_revert_chain_names_what_it_reopens() -> None:
    fix = make_pr(
        6350,
        "[fsdp] fix: emit distillation outputs in use_remove_padding=False path (#6293)",
        body="### What does this PR do?\n\nEmit the outputs.\n\nCloses #6293.",
        files=[
            ("verl/workers/engine/fsdp/transformer_impl.py", 120, 0),
            ("tests/test_x_on_cpu.py", 36, 0),
        ],
    )
    revert = make_pr(
        6360,
        'Revert "[fsdp] fix: emit distillation outputs in use_remove_padding=False path (#6293)"',
        body="Reverts verl-project/verl#6350",
        files=[
            ("verl/workers/engine/fsdp/transformer_impl.py", 0, 120),
            ("tests/test_x_on_cpu.py", 0, 36),
        ],
        merged_at=MERGED + timedelta(days=1),
    )
    flags = risks_of([fix, revert])
    chain = next(f for f in flags if f.risk == "revert")
    assert chain.number == 6360 and chain.related == [6350, 6293]
    assert chain.detail.startswith('reverts #6350 "[fsdp] fix: emit distillation')
    assert "which fixed #6293: #6293 is no longer fixed by it" in chain.detail
    reverted = next(f for f in flags if f.risk == "reverted")
    assert reverted.number == 6350 and reverted.related == [6360]
    assert flags[0].risk == "revert"  # the most serious first

    # The reverted PR merged in an earlier week: found through history_by_number.
    earlier = fix.model_copy(update={"merged_at": MERGED - timedelta(days=20)})
    alone = risks_of([revert], history={6350: earlier})
    assert [f.related for f in alone if f.risk == "revert"] == [[6350, 6293]]
    unknown = risks_of([revert])
    assert [f.detail for f in unknown if f.risk == "revert"] == [
        "reverts #6350 (not in the loaded history)"
    ]


def test_a_revert_of_several_prs_flags_each_as_reverted() -> None:
    """torchtitan #3212 "Revert precompile PRs (#3107, #3178) to fix CI": #3107 merged the same
    week and was not flagged as reverted, and the revert's flag named #3178 alone."""
    bucketing = make_pr(3107, "Enable bucketing", files=[("torchtitan/bucketing.py", 25, 0)])
    precompile = make_pr(3178, "Precompile the graph", files=[("torchtitan/precompile.py", 40, 0)])
    revert = make_pr(
        3212,
        "Revert precompile PRs (#3107, #3178) to fix CI",
        files=[("torchtitan/bucketing.py", 0, 25), ("torchtitan/precompile.py", 0, 40)],
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_number=3178,
    )
    flags = risks_of([bucketing, precompile, revert])
    [chain] = [f for f in flags if f.risk == "revert"]
    assert (chain.related, chain.also_reverted) == ([3178], [3107])
    assert chain.detail.endswith("; it also reverts #3107")
    reverted = {f.number: f.related for f in flags if f.risk == "reverted"}
    assert reverted == {3107: [3212], 3178: [3212]}
    # The first of two reverts of one PR is the one its flag names.
    again = revert.model_copy(update={"number": 3213, "merged_at": MERGED + timedelta(days=2)})
    flags = risks_of([bucketing, precompile, again, revert])
    assert {f.number: f.related for f in flags if f.risk == "reverted"} == reverted
    assert reverted_prs([revert], {3107: bucketing, 3178: precompile}) == {3212: [3178, 3107]}
    # Named only in words, in a later week: found from the history.
    by_hand = make_pr(
        3300,
        "Revert the precompile change, it broke CI (#3178)",
        files=[("torchtitan/precompile.py", 0, 40)],
        merged_at=MERGED + timedelta(days=9),
    )
    assert reverted_prs([by_hand], {3178: precompile}) == {3300: [3178]}
    assert reverted_prs([bucketing], {}) == {}


def test_a_revert_pushed_without_a_pr_flags_the_pr_it_reverts() -> None:
    """OpenRLHF's f6e1ac1, pushed the day #725 merged, reverted it: #725 carried no flag. A PR a
    revert PR undoes too (#278: pushed, then #281 landed the same revert) is flagged once."""
    fix = make_pr(725, "Fix hybrid engine when vLLM tp size is 1")
    pushed = PushedCommit(
        repo=REPO,
        sha="f6e1ac1be51a0cc899b511c3fc94c9773a73f842",
        committed_at=MERGED + timedelta(hours=1),
        subject='Revert "Fix hybrid engine when vLLM tp size is 1 (#725)"',
        reverted_number=725,
    )
    flags = flag_risks([fix], {}, NO_REVIEWS, CONFIG, {}, pushed=[pushed])
    [reverted] = [f for f in flags if f.risk == "reverted"]
    assert (reverted.number, reverted.related, reverted.reverted_by_commit) == (
        725,
        [],
        pushed.sha,
    )
    assert reverted.detail == (
        f"reverted by commit f6e1ac1be, pushed without a PR ({pushed.committed_at:%Y-%m-%d})"
    )
    assert not [f for f in flags if f.risk == "revert"]  # a push is no PR to flag
    revert = make_pr(
        726,
        'Revert "Fix hybrid engine when vLLM tp size is 1 (#725)"',
        body="Reverts verl-project/verl#725",
        merged_at=MERGED + timedelta(hours=2),
    )
    flags = flag_risks([fix, revert], {}, NO_REVIEWS, CONFIG, {}, pushed=[pushed])
    assert [(f.number, f.related, f.reverted_by_commit) for f in flags if f.risk == "reverted"] == [
        (725, [726], None)
    ]


def test_revert_in_words_alone_is_no_revert_of_a_pr() -> None:
    """tilelang #11 "[Doc] Revert repo link" set two links back by hand: no quoted title, no
    revert body, no earlier PR named. It was flagged as a revert whose PR could not be
    identified. A hand-written revert that names an earlier PR of the same files still is one."""
    by_hand = make_pr(
        11,
        "[Doc] Revert repo link",
        body="* instruction update\n\n* replace link with TileLang/tile-lang",
        files=[("README.md", 2, 2)],
    )
    assert not [f for f in risks_of([by_hand]) if f.risk == "revert"]
    earlier = make_pr(
        4138,
        "[rollout] feat: KV sharing",
        files=[("verl/workers/rollout/kv.py", 80, 0)],
        merged_at=MERGED - timedelta(days=3),
    )
    named = make_pr(
        4200,
        "Revert KV sharing (#4138)",
        files=[("verl/workers/rollout/kv.py", 0, 80)],
    )
    flags = risks_of([named], history={4138: earlier})
    assert [f.related for f in flags if f.risk == "revert"] == [[4138]]


def test_a_very_large_change_says_how_much_of_it_is_tests() -> None:
    """verl #6076-like: 1432 lines, a third of them tests, is told with its tests; vllm-ascend
    #13370 "update GLM5.1-w8a8c8 weekly cases" (3394 lines, 3346 in tests) and lmdeploy #4594
    "update anthropic endpoint test" (2822, 2398 in tests) are test changes, not very large
    ones, unless their other lines alone are."""
    tested = make_pr(1, files=[("verl/a.py", 900, 32), ("tests/test_a.py", 500, 0)])
    barely = make_pr(2, files=[("verl/a.py", 1000, 0), ("tests/test_a.py", 100, 0)])
    cases = make_pr(3, files=[("tests/e2e/cases.yaml", 3346, 0), ("ci/config.yaml", 48, 0)])
    endpoint = make_pr(
        4, files=[("autotest/utils/client.py", 400, 24), ("tests/test_anthropic.py", 2398, 0)]
    )
    suite = make_pr(5, files=[("verl/a.py", 1200, 0), ("tests/test_a.py", 9000, 0)])
    prs = [tested, barely, cases, endpoint, suite]
    flags = {f.number: f for f in risks_of(prs) if f.risk == "large_change"}
    assert flags[1].detail == "+1400/-32 lines in 2 files (1432 counted, 500 in tests)"
    assert (flags[1].lines, flags[1].test_lines) == (1432, 500)
    assert "in tests" not in flags[2].detail and flags[2].test_lines == 100
    assert 3 not in flags and 4 not in flags
    assert flags[5].detail.endswith("(10200 counted, 9000 in tests)")


def test_a_very_large_change_names_the_kinds_of_file_its_lines_leave_out() -> None:
    """VeOmni #767 "update qwen2.5omni & llama to v5" read 1872 lines "outside documentation
    and data files" of its 9,142: 7,124 were generated code, which the wording did not name.
    Only the kinds the PR has are named; a PR with none of them is told by its lines alone."""
    v5 = make_pr(
        767,
        files=[
            ("verl/models/qwen/__init__.py", 1700, 172),
            ("verl/models/qwen/generated/patched_modeling_qwen_gpu.py", 2668, 0),
            ("verl/models/qwen/generated/patched_modeling_qwen_gpu.diff", 3447, 0),
            ("docs/transformers_v5.md", 7, 0),
            ("tests/data/golden.parquet", 0, 0),  # binary: no line left out
        ],
    )
    relocked = make_pr(
        2, files=[("verl/a.py", 1200, 0), ("uv.lock", 300, 0), ("data/a/b.json", 9, 0)]
    )
    plain = make_pr(3, files=[("verl/a.py", 1200, 0)])
    flags = {f.number: f for f in risks_of([v5, relocked, plain]) if f.risk == "large_change"}
    assert {n: (f.lines, f.uncounted) for n, f in flags.items()} == {
        767: (1872, ["doc", "generated"]),
        2: (1200, ["data", "lock"]),
        3: (1200, []),
    }
    assert flags[767].detail.endswith("(1872 outside docs and generated code)")
    assert flags[2].detail.endswith("(1200 outside data files and lock files)")
    assert flags[3].detail.endswith("(1200 counted)")


def test_generated_code_is_no_very_large_change_and_no_untested_core_code() -> None:
    """VeOmni #910 "support Qwen3-Omni-MoE training on Ascend NPU": 6,905 of its 6,967 lines
    were the modeling files its patch generator rewrote, and #905 "gather input_ids along
    sequence dim for SP placeholder mask" changed 6 lines of a patch config and 20 of its
    generated files."""
    config = ("verl/models/omni/omni_npu_patch_gen_config.py", 40, 22)
    generated = [
        ("verl/models/omni/generated/patched_modeling_omni_npu.py", 4400, 5),
        ("verl/models/omni/generated/patched_modeling_omni_npu.diff", 2500, 0),
    ]
    support = make_pr(1, files=[config, *generated])
    fix = make_pr(2, files=[("verl/models/vl/vl_gpu_patch_gen_config.py", 3, 3), *generated])
    flags = risks_of([support, fix])
    assert "large_change" not in kinds(flags)
    untested = [f for f in flags if f.risk == "core_without_tests"]
    assert [(f.number, f.lines, f.paths) for f in untested] == [(1, 62, [config[0]])]


def test_vendored_code_is_no_very_large_change_and_no_untested_core_code() -> None:
    """verl #33 "support vLLM v0.6.3" copied vLLM's modules into `verl/third_party/vllm/` (2,996
    of its 3,014 lines) and was flagged very large; LLaMA-Factory #10504's untested core code
    listed the triton kernels it copied into `third_party/` first."""
    own = ("verl/workers/rollout/vllm_rollout.py", 30, 10)
    copied = [
        ("verl/third_party/vllm/vllm_v_0_6_3/llm_engine_sp.py", 1500, 0),
        ("verl/third_party/vllm/vllm_v_0_6_3/worker.py", 1200, 0),
    ]
    support = make_pr(1, files=[own, *copied])
    flags = risks_of([support])
    assert "large_change" not in kinds(flags)
    untested = [f for f in flags if f.risk == "core_without_tests"]
    assert [(f.number, f.lines, f.paths) for f in untested] == [(1, 40, [own[0]])]
    larger = make_pr(2, files=[("verl/workers/rollout/vllm_rollout.py", 1100, 10), *copied])
    [large] = [f for f in risks_of([larger]) if f.risk == "large_change"]
    assert (large.lines, large.uncounted) == (1110, ["vendored"])
    assert large.detail.endswith("(1110 outside vendored code)")


def test_large_and_cross_cutting_changes() -> None:
    large = make_pr(1, files=[("verl/a.py", 900, 200)])
    docs = make_pr(2, files=[("docs/a.md", 5000, 0), ("assets/logo.svg", 1300, 0)])
    # LLaMA-Factory #9224 checked in 45k lines of demo datasets.
    data = make_pr(5, files=[("data/dpo_en_demo.json", 7226, 0), ("data/dataset_info.py", 9, 1)])
    broad = make_pr(3)
    typed = make_pr(4)  # three areas and the type tag a repository learned as a label
    flags = risks_of(
        [large, docs, broad, typed, data],
        modules={
            3: ["fsdp", "megatron", "ckpt", "ray"],
            2: ["doc"],
            4: ["bugfix", "fsdp", "megatron", "ckpt"],
        },
    )
    assert [(f.number, f.lines) for f in flags if f.risk == "large_change"] == [(1, 1100)]
    assert next(f for f in flags if f.risk == "large_change").detail == (
        "+900/-200 lines in 1 file (1100 counted)"
    )
    cross = [f for f in flags if f.risk == "cross_cutting"]
    assert [(f.number, f.modules) for f in cross] == [(3, ["fsdp", "megatron", "ckpt", "ray"])]
    assert cross[0].detail == "spans 4 modules: fsdp, megatron, ckpt, ray"


def test_dependency_docker_ci_and_config_changes() -> None:
    pr = make_pr(
        5,
        files=[
            ("requirements-npu.txt", 1, 1),
            ("pyproject.toml", 2, 0),
            ("docker/Dockerfile.stable.vllm", 3, 3),
            (".github/workflows/e2e.yml", 10, 2),
            ("verl/trainer/config/ppo_trainer.yaml", 1, 1),
            ("verl/trainer/config/new_option.yaml", 5, 0),
            # A test's and a CI job's own settings are no defaults a user runs with.
            ("tests/e2e/nightly/configs/Qwen3-32B.yaml", 1, 1),
            (".github/workflows/configs/nightly_config.yaml", 1, 1),
            # An image's notes build nothing (LLaMA-Factory #10729).
            ("docker/docker-npu/OVERVIEW.md", 4, 4),
        ],
    )
    notes_only = make_pr(
        6, files=[("docker/README.md", 3, 1), (".github/workflows/README.md", 1, 0)]
    )
    assert kinds(risks_of([notes_only])) == set()
    by_kind = {f.risk: f for f in risks_of([pr])}
    assert by_kind["dependency_change"].paths == ["requirements-npu.txt", "pyproject.toml"]
    assert by_kind["docker_change"].paths == ["docker/Dockerfile.stable.vllm"]
    assert by_kind["ci_change"].paths == [
        ".github/workflows/e2e.yml",
        ".github/workflows/configs/nightly_config.yaml",
    ]
    # Only edited lines can change a default; a file that only gains lines adds options.
    assert by_kind["config_default_change"].paths == ["verl/trainer/config/ppo_trainer.yaml"]


def test_ci_files_that_only_gain_jobs_or_entries_are_no_ci_change() -> None:
    # slime #2067 registered its test in pr-test.yml and the template it is rendered from;
    # #2005 also changed how an existing job runs.
    workflow, template = ".github/workflows/pr-test.yml", ".github/workflows/pr-test.yml.j2"
    nightly = ".github/workflows/nightly.yml"
    registered = make_pr(2067, files=[(workflow, 1, 1), (template, 1, 0), ("tests/t.py", 9, 0)])
    reworked = make_pr(2005, files=[(workflow, 3, 1), (template, 3, 1), (nightly, 40, 0)])
    unread = make_pr(2100, files=[(workflow, 1, 1)])
    diffs = [
        ConfigFileDiff(
            repo=REPO,
            pr_number=2067,
            path=workflow,
            comparable=True,
            changes=[SettingChange(key="jobs.unit.strategy.matrix.info[7].test_file", after="t")],
            keeps_existing=True,
        ),
        compared(2005, workflow, ("jobs.unit.timeout-minutes", "30", "60")),
        ConfigFileDiff(
            repo=REPO, pr_number=2005, path=nightly, comparable=True, keeps_existing=True
        ),
    ]
    flags = flag_risks([registered, reworked, unread], {}, NO_REVIEWS, CONFIG, {}, diffs)
    ci = {f.number: f for f in flags if f.risk == "ci_change"}
    assert sorted(ci) == [2005, 2100]
    # The template goes with its rendered file; the new workflow changes nothing there was.
    assert ci[2005].files == [workflow, template]
    assert ci[2005].detail == f"changes CI workflows: {workflow}, {template}"
    # Not compared (stored before workflows were): judged by being edited.
    assert ci[2100].files == [workflow]


PPO = "verl/trainer/config/ppo_trainer.yaml"
GENERATED = "verl/trainer/config/_generated_ppo_trainer.yaml"
ROLLOUT = "verl/trainer/config/rollout/rollout.yaml"


def compared(
    number: int, path: str, *changes: tuple[str, str | None, str | None]
) -> ConfigFileDiff:
    return ConfigFileDiff(
        repo=REPO,
        pr_number=number,
        path=path,
        comparable=True,
        changes=[SettingChange(key=k, before=b, after=a) for k, b, a in changes],
    )


def test_config_defaults_name_the_settings_that_changed() -> None:
    # verl #6616 turned calculate_log_probs on: in rollout.yaml and in the generated copy.
    pr = make_pr(6616, files=[(ROLLOUT, 1, 1), (GENERATED, 1, 1), (PPO, 4, 1)])
    diffs = [
        compared(6616, ROLLOUT, ("calculate_log_probs", "false", "true")),
        compared(
            6616,
            GENERATED,
            ("actor_rollout_ref.rollout.calculate_log_probs", "false", "true"),
            ("actor_rollout_ref.rollout.new_knob", None, "3"),
        ),
        compared(6616, PPO, ("trainer.val_before_train", "true", None)),
    ]
    flags = flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)
    [flag] = [f for f in flags if f.risk == "config_default_change"]
    assert flag.detail == (
        "changes defaults: actor_rollout_ref.rollout.calculate_log_probs false → true;"
        " removes settings: trainer.val_before_train"
    )
    assert [(c.key, c.after) for c in flag.settings] == [
        ("actor_rollout_ref.rollout.calculate_log_probs", "true"),
        ("trainer.val_before_train", None),
    ]
    assert flag.paths == [ROLLOUT, GENERATED, PPO]


def test_one_key_changed_two_ways_in_two_files_names_each_file() -> None:
    # lmdeploy #4806 trimmed the quantization lists of several models' test configs: the same
    # key changed two ways read as one setting changed twice. The same way twice is one change.
    intern, glm = "configs/internlm/Intern-S1.yml", "configs/zai-org/glm-4v-9b.yml"
    qwen, qwen_moe = "configs/Qwen/Qwen3-8B.yml", "configs/Qwen/Qwen3.5-35B.yml"
    key = "a100[0].quantization.pytorch"
    pr = make_pr(4806, files=[(path, 2, 2) for path in (intern, glm, qwen, qwen_moe)])
    diffs = [
        compared(4806, intern, (key, '["kvint4", "kvint8"]', '["kvint8"]')),
        compared(4806, glm, (key, '["awq", "kvint4", "kvint8"]', '["kvint4", "kvint8"]')),
        compared(4806, qwen, ("a100[0].engine_config.tp", "1", "2")),
        compared(4806, qwen_moe, ("a100[0].engine_config.tp", "1", "2")),
    ]
    [flag] = flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert flag.detail == (
        "changes defaults: a100[0].engine_config.tp 1 → 2;"
        f' {key} in {intern} ["kvint4", "kvint8"] → ["kvint8"];'
        f' {key} in {glm} ["awq", "kvint4", "kvint8"] → ["kvint4", "kvint8"]'
    )
    assert [c.path for c in flag.settings] == [qwen, intern, glm]


def test_config_edits_that_change_no_setting_are_no_risk() -> None:
    # verl #890 reworded a comment; #5356 only added options.
    comment = make_pr(890, files=[(PPO, 1, 1)])
    added = make_pr(5356, files=[(PPO, 12, 1)])
    diffs = [compared(890, PPO), compared(5356, PPO, ("actor.torchtitan.seed", None, "1"))]
    assert kinds(flag_risks([comment, added], {}, NO_REVIEWS, CONFIG, {}, diffs)) == set()


def test_config_files_not_compared_fall_back_to_their_line_counts() -> None:
    # Unparsable on one side, or stored before settings were compared.
    unparsable = make_pr(1, files=[(PPO, 1, 1)])
    legacy = make_pr(2, files=[(PPO, 1, 1)])
    only_added = make_pr(3, files=[(PPO, 4, 0)])
    diffs = [ConfigFileDiff(repo=REPO, pr_number=1, path=PPO, comparable=False)]
    flags = flag_risks([unparsable, legacy, only_added], {}, NO_REVIEWS, CONFIG, {}, diffs)
    hedged = [f for f in flags if f.risk == "config_default_change"]
    assert [(f.number, f.settings) for f in hedged] == [(1, []), (2, [])]
    # It says the file was not compared: its changed lines may remove settings too, as a
    # deleted settings module whose text was not read does.
    assert hedged[0].detail == (
        f"changes {PPO}, whose settings could not be compared:"
        " defaults may have changed or settings been removed"
    )
    arguments = "slime/backends/fsdp_utils/arguments.py"
    unread = with_statuses(make_pr(4, files=[(arguments, 0, 120)]), {arguments: "removed"})
    diffs = [ConfigFileDiff(repo=REPO, pr_number=4, path=arguments, comparable=False)]
    [flag] = flag_risks([unread], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert (flag.uncompared_paths, flag.detail) == (
        [arguments],
        f"changes {arguments}, whose settings could not be compared:"
        " defaults may have changed or settings been removed",
    )


def test_a_setting_moved_to_another_file_is_not_removed() -> None:
    # verl #2433 moved the critic's block out of the trainer config into critic/*.yaml, which
    # Hydra composes back under `critic`; the renamed VPP option of #495 is really gone.
    critic = "verl/trainer/config/critic/megatron_critic.yaml"
    pr = make_pr(2433, files=[(PPO, 1, 40), (critic, 40, 1)])
    diffs = [
        compared(
            2433,
            PPO,
            ("critic.optim.lr", "1e-5", None),
            ("actor.megatron.num_layers_per_virtual_pipeline_stage", "null", None),
        ),
        compared(
            2433,
            critic,
            ("optim.lr", None, "1e-5"),
            ("megatron.virtual_pipeline_model_parallel_size", None, "null"),
        ),
    ]
    [flag] = flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert flag.detail == ("removes settings: actor.megatron.num_layers_per_virtual_pipeline_stage")


def test_a_setting_moved_into_its_group_file_is_not_removed() -> None:
    """verl #3456 moved the rollout settings out of the trainer config into
    `rollout/rollout.yaml`, where they have no prefix (Hydra puts the file under its folder's
    name), one of them with a new value the generated config shows: none was removed."""
    rollout = "verl/trainer/config/rollout/rollout.yaml"
    generated = "verl/trainer/config/_generated_ppo_trainer.yaml"
    pr = make_pr(3456, files=[(PPO, 1, 40), (rollout, 40, 1), (generated, 1, 1)])
    diffs = [
        compared(
            3456,
            PPO,
            ("actor_rollout_ref.rollout.enable_prefix_caching", "true", None),
            ("actor_rollout_ref.rollout.enable_chunked_prefill", "false", None),
            ("actor_rollout_ref.rollout.gone", "1", None),
        ),
        compared(
            3456,
            rollout,
            ("enable_prefix_caching", None, "true"),
            ("enable_chunked_prefill", None, "true"),
        ),
        compared(
            3456, generated, ("actor_rollout_ref.rollout.enable_chunked_prefill", "false", "true")
        ),
    ]
    [flag] = flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert flag.detail == (
        "changes defaults: actor_rollout_ref.rollout.enable_chunked_prefill false → true;"
        " removes settings: actor_rollout_ref.rollout.gone"
    )


def test_a_deleted_config_file_is_a_removed_default() -> None:
    # verl #5382 deleted sft_trainer.yaml, which users select with --config-name sft_trainer;
    # a test's own config going away is no such risk.
    sft = "verl/trainer/config/sft_trainer.yaml"
    pr = with_statuses(
        make_pr(5382, files=[(sft, 0, 80), ("tests/e2e/configs/tiny.yaml", 0, 10)]),
        {sft: "removed", "tests/e2e/configs/tiny.yaml": "removed"},
    )
    [flag] = flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, [])
    assert (flag.risk, flag.detail, flag.deleted_paths) == (
        "config_default_change",
        f"deletes configuration files: {sft}",
        [sft],
    )


def test_a_deleted_example_config_is_no_removed_default() -> None:
    # slime #1431 deleted an eval example's config, which users copy, and was flagged; NeMo RL
    # #7 deleted `examples/configs/base.yaml`, which the examples' configs extended.
    example = "examples/eval/nemo_skills/config/local_cluster.yaml"
    shared = "examples/configs/base.yaml"
    cleanup = with_statuses(make_pr(1431, files=[(example, 0, 18)]), {example: "removed"})
    base = with_statuses(make_pr(7, files=[(shared, 0, 51)]), {shared: "removed"})
    flags = flag_risks([cleanup, base], {}, NO_REVIEWS, CONFIG, {}, [])
    assert [(f.number, f.detail) for f in flags] == [(7, f"deletes configuration files: {shared}")]


def test_a_deleted_settings_module_removes_the_settings_that_did_not_move() -> None:
    # slime #1664 deleted the FSDP backend's arguments.py, and launch scripts that pass its
    # options fail; a module split in two keeps its settings (vllm-ascend #13888).
    fsdp = "slime/backends/fsdp_utils/arguments.py"
    removal = with_statuses(make_pr(1664, files=[(fsdp, 0, 120)]), {fsdp: "removed"})
    split = "vllm_ascend/ops/fused_moe/moe_runtime_args.py"
    comm = "vllm_ascend/ops/fused_moe/moe_comm_args.py"
    refactor = with_statuses(
        make_pr(13888, files=[(split, 0, 40), (comm, 40, 0)]), {split: "removed", comm: "added"}
    )
    diffs = [
        compared(1664, fsdp, ("--fsdp-cpu-offload", "False", None)),
        compared(13888, split, ("MoECommArgs.ep_size", "1", None)),
        compared(13888, comm, ("MoECommArgs.ep_size", None, "1")),
    ]
    flags = flag_risks([removal, refactor], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert [(f.number, f.detail) for f in flags] == [(1664, "removes settings: --fsdp-cpu-offload")]


def test_keys_dropped_by_a_config_that_now_includes_another_are_inherited() -> None:
    # verl #1009 gave the DAPO trainer config `defaults: [ppo_trainer, _self_]` and dropped the
    # 172 keys it repeated; #591 deleted options outright.
    dapo = "recipe/dapo/config/dapo_trainer.yaml"
    inherits = make_pr(1009, files=[(dapo, 6, 180)])
    deletes = make_pr(591, files=[(PPO, 0, 20)])
    diffs = [
        compared(
            1009,
            dapo,
            ("defaults[ppo_trainer]", None, "included"),
            ("defaults[_self_]", None, "included"),
            ("actor_rollout_ref.actor.clip_ratio", "0.2", None),
        ),
        compared(
            591, PPO, ("defaults[_self_]", None, "included"), ("actor.clip_ratio", "0.2", None)
        ),
    ]
    flags = flag_risks([inherits, deletes], {}, NO_REVIEWS, CONFIG, {}, diffs)
    assert [(f.number, f.detail) for f in flags] == [(591, "removes settings: actor.clip_ratio")]


def test_a_defaults_entry_whose_package_has_dots_includes_more() -> None:
    """verl #4211 gave the megatron trainer config `model@actor_rollout_ref.model: hf_model`
    and dropped the model settings that file now holds: read as `model]` after the package's
    last dot, the entry was none, and the flag said the PR removed `...model.path`."""
    megatron = "verl/trainer/config/ppo_megatron_trainer.yaml"
    pr = make_pr(4211, files=[(megatron, 2, 14)])
    diffs = [
        compared(
            4211,
            megatron,
            ("defaults[model@actor_rollout_ref.model]", None, "hf_model"),
            ("actor_rollout_ref.model.path", "~/models/deepseek-llm-7b-chat", None),
        )
    ]
    assert flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs) == []


def test_a_python_field_moved_to_another_class_is_not_removed() -> None:
    # LLaMA-Factory #9744 moved cutoff_len from DataArguments to a new file's TrainingArguments.
    data_args = "src/llamafactory/config/data_args.py"
    training_args = "src/llamafactory/config/training_args.py"
    pr = with_statuses(
        make_pr(9744, files=[(data_args, 0, 3), (training_args, 20, 0)]),
        {training_args: "added"},
    )
    diffs = [
        compared(9744, data_args, ("DataArguments.cutoff_len", "2048", None)),
        compared(
            9744,
            training_args,
            ("TrainingArguments.cutoff_len", None, "2048"),
            ("TrainingArguments.seed", None, "42"),
        ),
    ]
    assert kinds(flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)) == set()


def test_a_pr_that_only_syncs_a_generated_config_changes_no_default() -> None:
    """verl #5285 brought `_generated_ppo_veomni_trainer.yaml` up to date with the settings
    #5255 had removed, and #5255 was flagged for them; #5285 was flagged again."""
    veomni = "verl/trainer/config/_generated_ppo_veomni_trainer.yaml"
    sync = make_pr(5285, files=[(veomni, 33, 33)])
    diffs = [compared(5285, veomni, ("reward_model.num_workers", "8", None))]
    assert not [
        f
        for f in flag_risks([sync], {}, NO_REVIEWS, CONFIG, {}, diffs)
        if f.risk == "config_default_change"
    ]
    # Beside the config it is generated from, the change is flagged as before.
    source = make_pr(5255, files=[(veomni, 33, 33), (PPO, 0, 4)])
    diffs += [
        compared(5255, veomni, ("reward_model.num_workers", "8", None)),
        compared(5255, PPO, ("num_workers", "8", None)),
    ]
    [flag] = [
        f
        for f in flag_risks([source], {}, NO_REVIEWS, CONFIG, {}, diffs)
        if f.risk == "config_default_change"
    ]
    assert flag.detail == "removes settings: reward_model.num_workers"


def test_a_setting_renamed_in_its_section_is_told_as_renamed() -> None:
    """torchtitan #1607 renamed `Checkpoint.enable_checkpoint` to `Checkpoint.enable`: the flag
    read "removes settings: Checkpoint.enable_checkpoint". A setting of another name, section
    or default is no rename."""
    job = "torchtitan/config/job_config.py"
    pr = make_pr(1607, files=[(job, 4, 4)])
    diffs = [
        compared(
            1607,
            job,
            ("Checkpoint.enable_checkpoint", "False", None),
            ("Checkpoint.enable", None, "False"),
            ("Validation.enabled", "False", None),
            ("Validation.enable", None, "True"),
            ("Training.compile", "False", None),
            ("Compile.enable", None, "False"),
            ("Checkpoint.folder", None, "False"),
            # verl #6316 and #1701: a shared word is no rename.
            ("Engine.llm_kwargs", "{}", None),
            ("Engine.fsdp_kwargs", None, "{}"),
        ),
    ]
    [flag] = [
        f
        for f in flag_risks([pr], {}, NO_REVIEWS, CONFIG, {}, diffs)
        if f.risk == "config_default_change"
    ]
    assert flag.detail == (
        "renames settings: Checkpoint.enable_checkpoint to Checkpoint.enable;"
        " removes settings: Engine.llm_kwargs, Training.compile, Validation.enabled"
    )


def test_a_setting_repeated_in_generated_copies_is_one_change() -> None:
    changes = [
        SettingChange(key="use_mbridge", before="false", after="true"),
        SettingChange(key="McoreEngineConfig.use_mbridge", before="False", after="True"),
        SettingChange(key="critic.megatron.use_mbridge", before="false", after="true"),
        SettingChange(
            key="actor_rollout_ref.actor.megatron.use_mbridge", before="false", after="true"
        ),
        SettingChange(key="actor_rollout_ref.actor.megatron.seed", before="42", after=None),
        # Two settings that change the same way are still two settings.
        SettingChange(key="actor.optim.lr", before="1e-06", after="1e-05"),
        SettingChange(key="critic.optim.lr", before="1e-06", after="1e-05"),
    ]
    paths = ["rollout/megatron.yaml", "config/engine.py", *[GENERATED] * 5]
    assert [c.key for c in distinct_settings(list(zip(paths, changes, strict=True)))] == [
        "actor.optim.lr",
        "actor_rollout_ref.actor.megatron.use_mbridge",
        "critic.optim.lr",
        "actor_rollout_ref.actor.megatron.seed",
    ]


def with_statuses(pr: PullRequest, statuses: dict[str, FileStatus]) -> PullRequest:
    files = [
        f.model_copy(update={"status": statuses[f.path]}) if f.path in statuses else f
        for f in pr.files
    ]
    return pr.model_copy(update={"files": files})


def test_removed_files_and_pure_renames_are_no_changes_to_verify() -> None:
    # verl #4795 moved recipe folders to a submodule: a removed Dockerfile, a requirements
    # file renamed unchanged, a removed workflow and -32507 lines of removed files.
    moved_out = with_statuses(
        make_pr(
            4795,
            files=[
                ("recipe/r1_ascend/Dockerfile.vllm_ascend", 0, 82),
                ("verl/experimental/vla/requirements_vla.txt", 0, 0),
                (".github/workflows/e2e_dapo.yml", 0, 146),
                ("recipe/spin/spin_trainer.py", 0, 30000),
                ("verl/trainer/ppo/core_algos.py", 3, 1),
                ("verl/utils/old_helper.py", 0, 120),
                ("README.md", 3, 1),
            ],
        ),
        {
            "recipe/r1_ascend/Dockerfile.vllm_ascend": "removed",
            "verl/experimental/vla/requirements_vla.txt": "renamed",
            ".github/workflows/e2e_dapo.yml": "removed",
            "recipe/spin/spin_trainer.py": "removed",
            "verl/utils/old_helper.py": "removed",
        },
    )
    only_deletes = with_statuses(
        make_pr(7, files=[("verl/trainer/legacy.py", 0, 2000)]),
        {"verl/trainer/legacy.py": "removed"},
    )
    assert kinds(risks_of([moved_out, only_deletes])) == set()

    # Deletions inside kept files still count, and a renamed file with edits is edited.
    trimmed = with_statuses(
        make_pr(
            6,
            files=[
                ("verl/trainer/ppo/core_algos.py", 200, 900),
                ("recipe/old.py", 0, 5000),
                ("requirements.txt", 1, 1),
                ("tests/test_old.py", 0, 40),
            ],
        ),
        {"recipe/old.py": "removed", "requirements.txt": "renamed", "tests/test_old.py": "removed"},
    )
    by_kind = {f.risk: f for f in risks_of([trimmed])}
    assert by_kind["large_change"].lines == 1102
    assert by_kind["large_change"].paths == ["verl/trainer/ppo/core_algos.py", "requirements.txt"]
    assert by_kind["large_change"].detail.endswith("not counting 2 removed files)")
    assert by_kind["dependency_change"].paths == ["requirements.txt"]
    # Deleting a test is no test for the core change.
    assert by_kind["core_without_tests"].lines == 1100


def test_breaking_markers() -> None:
    title = make_pr(1, "[BREAKING][fsdp] refactor: rename flag")
    body = make_pr(
        2, "[fsdp] refactor: rename flag", body="Rename.\n\nBREAKING CHANGE: the flag is gone."
    )
    template = make_pr(3, body="- If this PR breaks any API, add `[BREAKING]` to the title.")
    # A "Type of change" list: only the ticked box counts.
    boxes = "- [ ] Bug fix (non-breaking change)\n- [{}] Breaking change (fix or feature ...)"
    ticked = make_pr(4, "[fsdp] rename flag", body=boxes.format("x"))
    unticked = make_pr(5, "[fsdp] rename flag", body=boxes.format(" "))
    prs = [title, body, template, ticked, unticked]
    flags = [f for f in risks_of(prs) if f.risk == "breaking_change"]
    assert [f.number for f in flags] == [1, 2, 4]
    assert flags[2].detail == "the description ticks its breaking-change box"


def test_a_quiet_pr_has_no_flags() -> None:
    pr = make_pr(9, "[fsdp] fix: x", files=[("verl/a.py", 20, 2), ("tests/test_a.py", 10, 0)])
    data = ReviewData(available=True, reviews=[approved(9)])
    assert risks_of([pr], data) == []
    assert risks_of([], data) == []


def test_one_line_ask() -> None:
    assert (
        one_line_ask("![critical](https://x.svg)\n\nSetting `x` breaks init. Also y.")
        == "Setting `x` breaks init."
    )
    assert one_line_ask("![high](h") == ""
    assert len(one_line_ask("word " * 100)) <= 140


def test_a_breaking_change_declared_in_the_description_in_any_case() -> None:
    """verl #362: "Breaking changes:\\n`min_num_params` is now moved to ..." was missed."""
    declared = [
        "Breaking changes:\n`trainer.fsdp_config.min_num_params` is now moved.",
        "## Breaking Changes\n\n### Removed\n- the old worker",
        "**Breaking change affecting ALL users**: weights are now returned.",
        "BREAKING CHANGE: the config key is renamed.",
    ]
    denied = [
        "## Breaking changes\n\nThere are no breaking changes in this PR.",
        "Breaking changes: None",
        "Breaking change in https://github.com/sgl-project/sglang/pull/14869, adapted here.",
    ]
    for number, body in enumerate([*declared, *denied], start=1):
        flags = risks_of([make_pr(number, "[trainer] feat: x", body=body)])
        said = [f.detail for f in flags if f.risk == "breaking_change"]
        assert said == (["the description declares a breaking change"] if number <= 4 else [])


@pytest.mark.parametrize(
    "title",
    [
        "[CI] temporarily skip graph mode precision e2e test",  # vllm-ascend #14688
        "[CI] Skip test_v1_spec_decode.py::test_ngram_correctness to make longterm CI pass",
        "[CI] Skip `test_mooncake_layerwise_connector.py` in `ut`",
        "[doc] chore: update Ascend 950 references and disable nightly test",  # verl #7111
        "[ci] chore: temporary disable torchtitan ci due to im-compatible torchversion",
        "[BugFix] Fix CI failures: clean /tmp on runners and skip CuTeDSL alloc_global tests",
        "[BugFix] Comment out newly added vlm e2e.",
        "[CI] Disable buggy(maybe) warp specialized kernel ci test for H20",
        "[graph_trainer] Temp Disable Numerical test to restore CI health",  # torchtitan #2854
        "[graph_trainer] Skip tests broken by upstream PyTorch nightly regressions",  # #3432
        "Skip GraphTrainer H100 EP-overlap MoE failures",  # torchtitan #4053
        "[graph_trainer] Fix CI for the cu130 nightly; quarantine upstream-blocked H100 tests",
        "[CI] Temporarily remove the unstable test case for Qwen3-235B PD separation",
        "[CI] Remove flaky test_mooncake_connector",
        "[CI] Remove the DeepSeek nightly test until the hang is fixed",
    ],
)
def test_tests_a_pr_says_it_skips_or_disables_are_flagged(title: str) -> None:
    pr = make_pr(1, title, files=[(".github/workflows/scripts/test_config.yaml", 8, 0)])
    [flag] = [f for f in risks_of([pr]) if f.risk == "tests_disabled"]
    assert flag.severity == "medium"
    assert flag.paths == [".github/workflows/scripts/test_config.yaml"]
    assert flag.detail.startswith('disables tests: "') and "test_config.yaml" in flag.detail


@pytest.mark.parametrize(
    "title",
    [
        # Skipping something else a test or CI job does is no test switched off.
        "[CI] Skip e2e log summary when the log file is missing or empty",
        "[ci] disable pip cache for ci",
        "[CI] Disable early exit to complete all tests",
        "[CI] Skip CPU test time collect",
        "Skip max_position_embeddings > sequence length check for vLLM rollouts",
        # Switching tests back on, or undoing a skip.
        "[UT] fix skipped test_utils ut test.",
        "[CI] Re-enable the sleep mode test",
        'Revert "[CI] temporarily skip graph mode precision e2e test"',
        "[CI] Add skipped testcases.",
        "[CI] Retry model downloads, skip on failure",
        # Tests taken out for good: pruned, moved or duplicated (vllm-ascend #9191, #9362,
        # verl #5259, torchtitan #3855), or what is taken out is no test.
        "[Test]Remove duplicate cases",
        "[CI][eagle3] Remove speculative decode tests in e2e",
        "[ci] chore: delete redundant npu ci",
        "[rl] Remove RL H100 CI to A10G and drop oversized sample before packing",
        "[CI] Remove the flaky retry",
        "[CI] Delete test data",
    ],
)
def test_other_skips_and_re_enabled_tests_are_not_flagged(title: str) -> None:
    pr = make_pr(1, title, files=[(".github/workflows/e2e.yml", 8, 2), ("tests/test_a.py", 3, 1)])
    assert "tests_disabled" not in kinds(risks_of([pr]))


def test_tests_a_description_says_it_disables_are_flagged() -> None:
    """verl #7357 said "disable fully_async/one_step_off_policy workflows" under the title
    "[ci] feat: add v1 separate_async workflow", deleting five e2e workflows; a conditional
    skip or a CI job skipped is no test switched off (verl #7347, vllm-ascend #10450)."""
    files = [(".github/workflows/e2e_fully_async.yml", 0, 120)]
    said = {
        "### What does this PR do?\n\n- Add v1 separate_async workflow and disable"
        " fully_async/one_step_off_policy workflows, preparing the move.": True,
        "1. skip the failed ut": True,
        # torchtitan #3588: a bold list item, its file and reason in the same paragraph.
        "**3. Skip `test_eager_self_deterministic`\n(`test_bitwise_deterministic.py`)**\n"
        "The six eager self-determinism tests hard-code hashes that drift with each nightly.": True,
        "Skip tests when their optional Megatron dependencies are unavailable.": False,
        "Skip CPU test time collection job": False,
        "The old workflow stays; nothing is disabled.": False,
    }
    for number, (body, flagged) in enumerate(said.items(), start=1):
        pr = make_pr(number, "[ci] feat: add v1 separate_async workflow", body=body, files=files)
        details = [f.detail for f in risks_of([pr]) if f.risk == "tests_disabled"]
        assert bool(details) == flagged, body
    [detail] = [
        f.detail
        for f in risks_of([make_pr(9, "[ci] feat: x", body="1. skip the failed ut", files=files)])
        if f.risk == "tests_disabled"
    ]
    assert detail == 'disables tests: "skip the failed ut" (.github/workflows/e2e_fully_async.yml)'


@pytest.mark.parametrize(
    ("title", "body", "flagged"),
    [
        # TransformerEngine: skips where the machine cannot run the test, in a title or a
        # description, switch off no test that could run (#3098, #3270, #3181, #3096, #3061,
        # #3267).
        ("[JAX] Skip score_mod tests on older cuDNN", "", False),
        ("skip test if TE is not compiled with cusolver", "", False),
        ("[Pytorch] Skip the Single Grouped Param Test if NVTE_SINGLE_PARAM=0", "", False),
        ("[Common] EP dispatch", "Skip MXFP8 EP tests on pre-Blackwell devices", False),
        ("[PyTorch] Guard grouped GEMM", "Skip FP8 tests on Hopper when cuBLAS < 13.5.", False),
        ("Single group grouped mlp", "Skip runtime-offset test with older cuDNN frontend", False),
        # A platform alone, or a known failure, still switches tests off (torchtitan #3597,
        # TransformerEngine #2829).
        ("ci: skip fsdp_symm_mem integration test on ROCm", "", True),
        ("[PyTorch][CP] Add THD", "skip tests which OOM on hopper: a known cudnn issue", True),
    ],
)
def test_a_skip_where_the_test_cannot_run_is_not_flagged(
    title: str, body: str, flagged: bool
) -> None:
    pr = make_pr(1, title, body=body, files=[("tests/test_a.py", 3, 1)])
    assert ("tests_disabled" in kinds(risks_of([pr]))) == flagged


def test_a_skip_named_in_the_title_needs_a_test_or_ci_change() -> None:
    code_only = make_pr(1, "[rollout] fix: skip the warmup test batch", files=[("verl/a.py", 4, 1)])
    assert "tests_disabled" not in kinds(risks_of([code_only]))
    # A test file taken out counts: the suite no longer runs it.
    skip = make_pr(2, "[CI] skip xlite e2e test", files=[("tests/e2e/test_xlite.py", 0, 40)])
    gone = skip.files[0].model_copy(update={"status": "removed"})
    removed = skip.model_copy(update={"files": [gone]})
    assert [f.paths for f in risks_of([removed]) if f.risk == "tests_disabled"] == [
        ["tests/e2e/test_xlite.py"]
    ]


def test_a_fix_under_a_recent_fixs_title_is_a_repeated_fix() -> None:
    """aibrix #2549 came two days after #2538 under its title, on its two files. A fix landed
    again after a revert is the revert chain's to tell, a backport to another branch is no
    second try, and a feature under a fix's title is a new change."""
    day = timedelta(days=1)
    files = [("pkg/controller/roleset/rolesyncer.go", 8, 5), ("pkg/roleset/sync_test.go", 63, 8)]
    title = "fix(zed): scale down should not get stuck when not-ready pod exists"
    first = make_pr(2538, title, files=files, merged_at=MERGED - 2 * day, base_branch="main")
    again = make_pr(2549, title, files=files[:1], merged_at=MERGED, base_branch="main")
    [flag] = [f for f in risks_of([again], history={2538: first}) if f.risk == "repeated_fix"]
    assert (flag.number, flag.related, flag.severity) == (2549, [2538], "medium")
    assert flag.paths == ["pkg/controller/roleset/rolesyncer.go"]
    assert flag.detail == (
        f"repeats the title of the fix #2538 (merged {(MERGED - 2 * day).date().isoformat()})"
        " and changes 1 of its files"
    )

    revert = make_pr(
        2540,
        f'Revert "{title}"',
        files=files,
        merged_at=MERGED - day,
        is_revert=True,
        reverted_number=2538,
    )
    relanded = risks_of([again], history={2538: first, 2540: revert})
    assert "repeated_fix" not in kinds(relanded)
    backport = again.model_copy(update={"base_branch": "release-0.5"})
    assert "repeated_fix" not in kinds(risks_of([backport], history={2538: first}))
    feature = first.model_copy(update={"title": "feat(zed): scale down when not-ready pod exists"})
    renamed = again.model_copy(update={"title": "fix(zed): scale down when not-ready pod exists"})
    assert "repeated_fix" not in kinds(risks_of([renamed], history={2538: feature}))


def test_a_core_change_that_changes_no_behaviour_needs_no_test() -> None:
    """ColossalAI's `[nfc] fix typo colossalai/zero` (#3923) was flagged as a core change
    without tests: its tag says no behaviour changed, so there is none to test."""
    engine = ("verl/workers/engine.py", 40, 30)
    nfc = make_pr(1, "[nfc] fix typo colossalai/zero", files=[engine])
    typo = make_pr(2, "[zero] fix typo", files=[engine])
    assert {pr.number: core_tests(pr, CONFIG) for pr in (nfc, typo)} == {1: None, 2: False}
    assert [f.number for f in risks_of([nfc, typo]) if f.risk == "core_without_tests"] == [2]
