"""The report: context from data, both languages and formats, escaping, storage and files."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from prhub_pipeline.config import ScoringConfig, Settings
from prhub_pipeline.modelling.scoring.importance import fit_calibration, fix_impacts, score_week
from prhub_pipeline.modelling.scoring.repeats import Repeat, repeats
from prhub_pipeline.modelling.scoring.risks import core_tests, flag_risks
from prhub_pipeline.modelling.tagging.themes import SubjectThemes
from prhub_pipeline.modelling.text.pr_summaries import shorten
from prhub_pipeline.modelling.text.pr_titles import parse_title
from prhub_pipeline.records import (
    LANGS,
    MAX_DESCRIPTION_CHARS,
    MAX_TITLE_CHARS,
    DisplayName,
    FileChange,
    Lang,
    ModuleLabel,
    PrScore,
    PrType,
    PullRequest,
    PushedCommit,
    RenderedReport,
    ReportListing,
    Review,
    ReviewData,
    ReviewThread,
    RiskFlag,
    ThemeTag,
    ThreadComment,
    WeekCounts,
)
from prhub_pipeline.reporting import facts, sections
from prhub_pipeline.reporting.context import (
    MAX_QUICK_VIEW,
    LandedBefore,
    ReportBackground,
    build_report_context,
    subject_landings,
)
from prhub_pipeline.reporting.facts import Period, Summary, relanding
from prhub_pipeline.reporting.files import (
    files_behind,
    report_dir,
    restore_report_files,
    write_report_files,
)
from prhub_pipeline.reporting.models import PrRef, ReportContext, TrendRow
from prhub_pipeline.reporting.render import (
    FORMATS,
    LABELS,
    MAX_CHART_BARS,
    RefScope,
    WeekLinks,
    html_refs,
    md_escape,
    md_refs,
    render_index,
    render_report,
    with_week_links,
)
from prhub_pipeline.reporting.wording import WORDINGS
from prhub_pipeline.reverts import also_reverted, read_revert
from prhub_pipeline.stages.report import display_names, restore_missing_files
from prhub_pipeline.warehouse.connection import connect
from prhub_pipeline.warehouse.partitions import replace_partition
from prhub_pipeline.warehouse.prs import pr_tables
from prhub_pipeline.warehouse.quality import check_reports
from prhub_pipeline.warehouse.reports import (
    list_reports,
    read_report,
    read_risks,
    read_scores,
    report_tables,
    risk_tables,
    score_tables,
)
from prhub_pipeline.weeks import WeekWindow
from prhub_pipeline_tests.test_importance import MERGED, REPO, history, make_pr

CONFIG = ScoringConfig(core_paths=["verl/**/*.py"])
WINDOW = WeekWindow(week_start=date(2026, 5, 11), timezone="Asia/Shanghai")
HOSTILE_TITLE = "[fsdp] fix: <script>alert(1)</script> | pipe\nnew line **bold** 🚀"
CALIBRATION = fit_calibration(history(), {}, CONFIG)

SECTIONS = {
    "zh": ["执行摘要", "本周重点变化", "模块与主题趋势", "风险观察", "重点 PR 速览", "后续建议"],
    "en": [
        "Executive summary",
        "Key changes this week",
        "Module and theme trends",
        "Risk observations",
        "Key PRs at a glance",
        "Follow-up suggestions",
    ],
}


def week_prs() -> list[PullRequest]:
    return [
        make_pr(
            6350,
            "[fsdp] fix: emit distillation outputs in use_remove_padding=False path (#6293)",
            body="### What does this PR do?\n\nEmit distillation outputs in the False branch."
            "\n\nCloses #6293.",
            files=[
                ("verl/workers/engine/fsdp/transformer_impl.py", 120, 0),
                ("tests/test_d_on_cpu.py", 36, 0),
            ],
        ),
        make_pr(
            6360,
            'Revert "[fsdp] fix: emit distillation outputs'
            ' in use_remove_padding=False path (#6293)"',
            body="Reverts verl-project/verl#6350",
            files=[
                ("verl/workers/engine/fsdp/transformer_impl.py", 0, 120),
                ("tests/test_d_on_cpu.py", 0, 36),
            ],
            merged_at=MERGED + timedelta(days=1),
        ),
        make_pr(
            6268,
            "[model, fsdp] fix: honor SP-rolled labels in fused kernels",
            body="### What does this PR do?\n\n"
            "Labels were rolled per shard, giving wrong loss values.",
            files=[("verl/models/fused.py", 300, 20), ("tests/test_fused.py", 150, 0)],
        ),
        make_pr(
            6076,
            "[fully_async] feat: reuse trainer worker group for validation",
            body="### Overview\n\nAdds elastic replicas so validation can run on trainer GPUs.",
            files=[("verl/experimental/fully_async.py", 900, 500)],
        ),
        make_pr(
            6330,
            "[doc] chore: NPU model migration guidance",
            files=[("docs/npu/migrate.md", 297, 0)],
        ),
        make_pr(6331, HOSTILE_TITLE, files=[("verl/utils/x.py", 30, 1)]),
    ]


MODULES = {
    6350: ["fsdp"],
    6360: [],
    6268: ["model", "fsdp"],
    6076: ["fully_async"],
    6330: ["doc"],
    6331: ["fsdp"],
}
THEMES = {6350: ["distillation"], 6360: ["distillation"], 6330: ["NPU"]}
REVIEWS = ReviewData(
    available=True,
    threads=[
        ReviewThread(
            repo=REPO,
            pr_number=6076,
            thread_id="t1",
            path="verl/experimental/fully_async.py",
            line=541,
            comments=[
                ThreadComment(
                    comment_id="c",
                    author="chenjiaoAngel",
                    body="ray.get blocks the event loop here. Please fix.",
                )
            ],
        )
    ],
)


def labels(prs: list[PullRequest]) -> tuple[list[ModuleLabel], list[ThemeTag]]:
    numbers = {pr.number for pr in prs}
    modules = [
        ModuleLabel(repo=REPO, number=n, module=m, origin="title", confidence=1.0)
        for n, ms in MODULES.items()
        if n in numbers
        for m in ms
    ]
    themes = [
        ThemeTag(repo=REPO, number=n, theme=t)
        for n, ts in THEMES.items()
        if n in numbers
        for t in ts
    ]
    return modules, themes


def context_for(
    prs: list[PullRequest],
    lang: Lang = "zh",
    review_data: ReviewData = REVIEWS,
    previous: WeekCounts | None = None,
    subject_themes: dict[str, float] | None = None,
    display_names: dict[str, str] | None = None,
    module_named: set[str] | None = None,
    scoring: ScoringConfig | None = None,
    history: list[PullRequest] | None = None,
    risks: list[RiskFlag] | None = None,
) -> ReportContext:
    modules, themes = labels(prs)
    by_pr = {n: ms for n, ms in MODULES.items()}
    scores = score_week(prs, by_pr, review_data, CONFIG, CALIBRATION)
    if risks is None:
        risks = flag_risks(prs, by_pr, review_data, CONFIG, {}, check_approvals=False)
    return build_report_context(
        REPO,
        WINDOW,
        prs,
        modules,
        themes,
        scores,
        risks,
        review_data,
        previous,
        lang,
        report_url="https://example.org/r",
        calibration=CALIBRATION,
        display_names=display_names,
        background=ReportBackground(
            scoring=scoring or ScoringConfig(),
            subjects=SubjectThemes(shares=subject_themes or {}, measured_prs=4639),
            module_named=module_named or set(),
            history={pr.number: pr for pr in history or []},
        ),
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_both_languages_and_formats_carry_every_section(lang: Lang) -> None:
    context = context_for(week_prs(), lang)
    assert context.header.pr_count == 6 and context.header.iso_week == 20
    assert {pr.number for pr in context.prs} == {pr.number for pr in week_prs()}
    markdown = render_report(context, lang, "md")
    html = render_report(context, lang, "html")
    for heading in SECTIONS[lang]:
        assert f"# {heading}" in markdown
        assert f">{heading}</h2>" in html
    for number in (6350, 6360, 6268, 6076, 6330, 6331):
        assert f"#{number}" in markdown and f"#{number}" in html
    assert "https://example.org/r" in markdown
    assert "<svg" in html and "<link" not in html and "<script" not in html


@pytest.mark.parametrize(
    ("lang", "in_markdown", "in_html"),
    [
        (
            "en",
            " (importance {}; addresses crashes or errors). ",
            " (addresses crashes or errors). ",
        ),
        ("zh", "（重要性 {}，涉及崩溃或报错）。", "（涉及崩溃或报错）。"),
    ],
)
def test_the_html_leaves_a_key_changes_importance_to_its_badge(
    lang: Lang, in_markdown: str, in_html: str
) -> None:
    """The HTML's items read "9.6 fix: ... (importance 9.6; ...)" beside the score badge."""
    crashing = week_prs()
    crashing[2] = crashing[2].model_copy(update={"body": "Training crashes with a KeyError."})
    context = context_for(crashing, lang)
    (item,) = [i for g in context.groups for i in g.items if i.pr.number == 6268]
    importance = f"{item.pr.importance:.1f}"
    assert in_markdown.format(importance) in item.text
    assert in_html in item.badged_text and importance not in item.badged_text
    assert item.badged_text == item.text.replace(in_markdown.format(importance), in_html)
    markdown = render_report(context, lang, "md")
    html = render_report(context, lang, "html")
    assert in_markdown.format(importance) in markdown
    assert in_markdown.format(importance) not in html
    assert f'<span aria-hidden="true">{importance}</span>' in html
    assert f"</span></span> {item.badged_text[:30]}" in html


@pytest.mark.parametrize(("lang", "summary"), [("zh", "6 个 PR"), ("en", "6 PRs")])
def test_the_html_appendix_counts_its_prs_in_the_reports_language(lang: Lang, summary: str) -> None:
    html = render_report(context_for(week_prs(), lang), lang, "html")
    assert f"<summary>{summary}</summary>" in html


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "zh",
            "本周 14 个 PR 中有 12 个写于 2025-12-20 至 05-01，于 05-12 随所在分支的变基（rebase）"
            "一并合入：多为此前数周的工作。其中重要性达到阈值的 12 个只取最高的 10 个作为重点 PR，"
            "排序照常。",
        ),
        (
            "en",
            "12 of this week's 14 pull requests were written between Dec 20, 2025 and May 1 and"
            " landed together on May 12, by a rebase of their branch: mostly the work of earlier"
            " weeks. Of the 12 of them that reach the key threshold, the 10 most important count"
            " as key PRs; all are ranked as usual.",
        ),
    ],
)
def test_prs_landed_together_long_after_they_were_written_are_told_as_a_batch(
    lang: Lang, said: str
) -> None:
    """ColossalAI's 2023-08-14 read "57 PRs, 41 of them key" with nothing to say that 54 were
    its pipeline branch, written over the eight weeks before and rebased onto main at once."""
    batch = [
        make_pr(
            n,
            "[fsdp] fix: wrong gradients",
            files=[("verl/x.py", 300 + n, 40), ("tests/t.py", 80, 0)],
            merged_at=MERGED,
            # In the report's time zone: 18:00 UTC is the next day in Shanghai.
            batch_written_at=datetime(2026, 4, 30, 18, tzinfo=UTC) - timedelta(days=12 * n - 12),
        )
        for n in range(1, 13)
    ]
    alone = [
        make_pr(20, "[doc] chore: typo", files=[("docs/a.md", 1, 1)]),
        make_pr(21, "[fsdp] fix: small", files=[("verl/y.py", 3, 1)]),
    ]
    context = context_for([*batch, *alone], lang, ReviewData(available=False))
    assert context.summary[1] == said  # after the week's PR count
    assert context.header.key_pr_count == 10
    one_batch = context_for(batch[:3], lang, ReviewData(available=False))
    assert ("本周的 3 个 PR 都写于" if lang == "zh" else "All 3 of this week's") in (
        one_batch.summary[1]
    )
    assert "重点 PR，排序照常" not in one_batch.summary[1]
    assert "key PRs; all" not in one_batch.summary[1]
    assert not any("rebase" in p for p in context_for(alone, lang).summary)


def test_a_reverted_fix_is_no_live_fix_unless_it_landed_again() -> None:
    """verl's #5942 reverted #5904, and #5945 landed it again under the same title that week."""
    crashing = week_prs()
    crashing[0] = crashing[0].model_copy(update={"body": "Training crashes with a KeyError."})

    def impacts(context: ReportContext) -> str:
        return next(line for line in context.summary if "what the bug caused" in line)

    reverted = context_for(crashing, "en")
    assert "#6350" not in impacts(reverted)
    assert any("#6293: the fix #6350 was reverted" in line for line in reverted.suggestions)
    reland = crashing[0].model_copy(
        update={"number": 6370, "merged_at": MERGED + timedelta(days=2)}
    )
    relands: list[tuple[Lang, str]] = [
        ("en", "; #6370 landed the change again"),
        ("zh", "；#6370 随后重新合入了这项改动"),
    ]
    for lang, said in relands:
        context = context_for([*crashing, reland], lang)
        assert any(said in line for line in context.summary)
        assert not any("#6293" in line for line in context.suggestions)
    assert "#6350" in impacts(context_for([*crashing, reland], "en"))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "; #6370 landed the change again on May 19, after this week."),
        ("zh", "；#6370 在本周之后（05-19）重新合入了这项改动。"),
    ],
)
def test_a_reland_after_the_week_says_when(lang: Lang, said: str) -> None:
    """verl's #6386 landed #6350 again on 2026-05-18, a week the 2026-05-11 report (written
    once later weeks were stored) does not cover: "随后" alone read as within the week."""
    prs = week_prs()
    later = prs[0].model_copy(
        update={"number": 6370, "merged_at": MERGED + timedelta(days=7, hours=1)}
    )
    context = context_for(prs, lang, history=[*prs, later])
    assert any(said in line for line in context.summary)
    assert not any("#6293" in line for line in context.suggestions)


def test_a_change_landed_again_under_a_reworded_title_is_a_reland() -> None:
    """tilelang #672 reverted #671; #682 re-added its example under a reworded title. A later
    PR on the same files under another title is a new change, not the old one back."""
    added = make_pr(
        671,
        "[Enhancement] Add flash attn example for AMD MI300 series",
        files=[("examples/amd/example_amd_flash_attn_fwd.py", 270, 0)],
        merged_at=MERGED,
    )
    revert = make_pr(
        672,
        'Revert "[Enhancement] Add flash attn example for AMD MI300 series(#671)"',
        files=[("examples/amd/example_amd_flash_attn_fwd.py", 0, 270)],
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_number=671,
    )
    reworded = make_pr(
        682,
        "Add Flash Attn example on amd mi300 series",
        files=[
            ("examples/amd/example_amd_flash_attn_fwd.py", 237, 0),
            ("src/tl_templates/hip/reduce.h", 2, 2),
        ],
        merged_at=MERGED + timedelta(days=3),
    )
    other = reworded.model_copy(
        update={"number": 690, "title": "[AMD] feat: tune the MI300 attention example"}
    )
    known = {pr.number: pr for pr in (added, revert, reworded, other)}
    assert relanding(672, 671, known) == 682
    # Merged before the revert, the same change is no re-land of it.
    known[682] = reworded.model_copy(update={"merged_at": MERGED + timedelta(hours=12)})
    assert relanding(672, 671, known) is None
    del known[682]
    assert relanding(672, 671, known) is None


def test_a_reland_of_a_change_a_pushed_commit_reverted() -> None:
    """OpenRLHF's 83d381b, pushed without a PR, reverted #524, and #536 ("Relanding of PR
    .../pull/524") landed it again three days later: the re-land was looked for only after a
    revert PR. A PR that reverts the pushed commit lands the change again too."""
    files = [("openrlhf/trainer/ray/launcher.py", 23, 2), ("openrlhf/utils/utils.py", 21, 0)]
    title = "Add support when RAY_EXPERIMENTAL_NOSET_*_VISIBLE_DEVICES is set"
    target = make_pr(524, title, files=files, merged_at=MERGED)
    pushed = PushedCommit(
        repo=REPO,
        sha="83d381b77c9d53ed67272464d9acc885ceabe0b8",
        committed_at=MERGED + timedelta(hours=4),
        subject=f'Revert "{title} (#524)"',
        reverted_number=524,
    )
    again = make_pr(
        536,
        title,
        body=f"Relanding of PR https://github.com/{REPO}/pull/524",
        files=files,
        merged_at=MERGED + timedelta(days=3),
    )
    assert relanding(pushed, 524, {pr.number: pr for pr in (target, again)}) == 536
    early = again.model_copy(update={"merged_at": MERGED + timedelta(hours=1)})
    assert relanding(pushed, 524, {pr.number: pr for pr in (target, early)}) is None
    undo = make_pr(
        540,
        f'Revert "Revert "{title} (#524)""',
        files=files[:1],
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_sha="83d381b77c9d",
    )
    assert relanding(pushed, 524, {pr.number: pr for pr in (target, undo)}) == 540


def test_a_reland_is_told_by_its_title_its_revert_or_its_files() -> None:
    """vllm-ascend: #4580 reverted #4498 "drop ascend scheduler", #4582 dropped only its test
    and #4623 landed it again under its title; #6231 reverted the revert #6227; #3512 is
    `Reapply "..."`; #4810 re-added #4194's files under a new title two days later."""
    day = timedelta(days=1)
    files = [(f"vllm_ascend/ops/moe/{name}.py", 40, 4) for name in ("a", "b", "c", "d")]

    def known(*prs: PullRequest) -> dict[int, PullRequest]:
        target = make_pr(100, "[Core] drop ascend scheduler", files=files, merged_at=MERGED)
        revert = make_pr(
            101,
            'Revert "[Core] drop ascend scheduler"',
            files=files,
            merged_at=MERGED + day,
            is_revert=True,
            reverted_number=100,
        )
        return {pr.number: pr for pr in (target, revert, *prs)}

    test_only = make_pr(
        102, "[CI] drop ascend scheduler test", files=files[:2], merged_at=MERGED + 2 * day
    )
    again = make_pr(103, "Drop ascend scheduler", files=files, merged_at=MERGED + 5 * day)
    assert relanding(101, 100, known(test_only, again)) == 103
    assert relanding(101, 100, known(test_only)) == 102  # similar title, half the files

    undo = make_pr(
        104,
        'Revert "Revert "[Core] drop ascend scheduler""',
        files=files,
        merged_at=MERGED + 3 * day,
        is_revert=True,
        reverted_number=101,
    )
    assert relanding(101, 100, known(undo)) == 104
    reapply = make_pr(
        105,
        'Reapply "[Core] drop the ascend scheduler (#100)"',
        files=files[:2],
        merged_at=MERGED + 3 * day,
    )
    assert relanding(101, 100, known(reapply)) == 105
    renamed = make_pr(106, "Add moe normal ops", files=files, merged_at=MERGED + 2 * day)
    assert relanding(101, 100, known(renamed)) == 106
    late = renamed.model_copy(update={"merged_at": MERGED + 30 * day})
    assert relanding(101, 100, known(late)) is None
    wider = renamed.model_copy(
        update={
            "files": [
                *renamed.files,
                *make_pr(9, files=[(f"x{i}.py", 1, 0) for i in range(9)]).files,
            ]
        }
    )
    assert relanding(101, 100, known(wider)) is None  # mostly other files: a new change
    # Its description says so, under another title and files (verl #7327: "Reland of #5599").
    for body in (
        "Reland of #100, with the receiver fixed.",
        f"Re-lands {REPO}#100",
        f"Relanding https://github.com/{REPO}/pull/100 again.",
        # Under the repository's former owner (verl #2434, "Reapply .../volcengine/verl/...").
        "Reapply https://github.com/volcengine/verl/pull/100",
    ):
        told = make_pr(107, "[vllm] fix: resolve base_layer", body=body, merged_at=MERGED + 9 * day)
        assert relanding(101, 100, known(told, renamed)) == 107, body
    for body in ("Relanded #1000 last week.", "Reland of vllm-project/vllm#100 upstream."):
        unrelated = make_pr(108, "fix: x", body=body, merged_at=MERGED + 2 * day)
        assert relanding(101, 100, known(unrelated)) is None, body
    # Asked about a week's PRs (`among`), as a report asks: the re-land when it is one of them,
    # not one of them that only has weaker evidence than the re-land (#102 beside #103).
    both = known(test_only, again)
    assert relanding(101, 100, both, among={103, 9}) == 103
    assert relanding(101, 100, both, among={102}) is None
    assert relanding(101, 100, both, among={100, 101}) is None
    assert relanding(101, 100, known(test_only), among={102}) == 102


def test_a_pr_under_an_earlier_prs_title_names_it() -> None:
    """aibrix #2549 repeated #2538's title and files two days later; a revert between them, a
    backport to another branch and the parts of a series are told apart, and titles that
    repeat as a matter of course (a bot's bumps) or share no file are no repeat."""
    day = timedelta(days=1)
    files = [("pkg/controller/roleset/rolesyncer.go", 8, 5), ("pkg/roleset/sync_test.go", 63, 8)]
    title = "fix(zed): scale down should not get stuck when not-ready pod exists"
    first = make_pr(2538, f"{title} (#2538)", files=files, merged_at=MERGED, base_branch="main")
    again = make_pr(2549, title, files=files, merged_at=MERGED + 2 * day, base_branch="main")

    def known(*prs: PullRequest) -> dict[int, PullRequest]:
        return {pr.number: pr for pr in (first, *prs)}

    def repeat_of(
        pr: PullRequest, pr_type: PrType, history: dict[int, PullRequest]
    ) -> Repeat | None:
        return repeats([pr], {pr.number: pr_type}, history).get(pr.number)

    shared = tuple(path for path, _, _ in files)
    assert repeat_of(again, "fix", known(again)) == Repeat(
        number=2538, days=2, shared_paths=shared, same_files=True, reverted_by=None, branch=None
    )
    assert repeat_of(first, "fix", known(again)) is None  # the earlier one names none
    revert = make_pr(
        2540,
        f'Revert "{title}"',
        files=files,
        merged_at=MERGED + day,
        is_revert=True,
        reverted_number=2538,
    )
    reverted = repeat_of(again, "fix", known(revert, again))
    assert reverted is not None and reverted.reverted_by == 2540
    backport = again.model_copy(update={"base_branch": "release-0.5", "files": again.files[:1]})
    ported = repeat_of(backport, "fix", known(backport))
    assert ported is not None and ported.branch == "release-0.5"
    assert (ported.shared_paths, ported.same_files) == (shared[:1], False)

    assert repeat_of(again, "chore", known(again)) is None
    late = again.model_copy(update={"merged_at": MERGED + 31 * day})
    assert repeat_of(late, "fix", known(late)) is None
    elsewhere = again.model_copy(update={"files": make_pr(1, files=[("docs/a.md", 1, 0)]).files})
    assert repeat_of(elsewhere, "fix", known(elsewhere)) is None
    part_one = make_pr(2204, "[1/N][Refactor] torchair model runner refactor", files=files)
    part_two = part_one.model_copy(
        update={"number": 2207, "title": "[2/N][Refactor] torchair model runner refactor"}
    )
    assert repeat_of(part_two, "refactor", known(part_one, part_two)) is None
    # The week's PRs at once, each against the history and the week.
    week = repeats(
        [first, again, part_two],
        {2538: "fix", 2549: "fix", 2207: "refactor"},
        known(again, part_one, part_two),
    )
    assert list(week) == [2549]


@pytest.mark.parametrize(
    ("lang", "said", "listed"),
    [
        (
            "en",
            "Same title as #6268, merged the same day, which changed the same files.",
            "in fused kernels (and #6290 under the same title); #",
        ),
        (
            "zh",
            "与 #6268 标题相同（同日合入，改动了相同的文件）。",
            "in fused kernels（另有同名的 #6290）；#",
        ),
    ],
)
def test_the_report_says_which_earlier_pr_had_a_prs_title(
    lang: Lang, said: str, listed: str
) -> None:
    prs = week_prs()
    fused = next(pr for pr in prs if pr.number == 6268)
    again = fused.model_copy(update={"number": 6290, "merged_at": MERGED + timedelta(hours=2)})
    context = context_for([*prs, again], lang)
    item = next(i for g in context.groups for i in g.items if i.pr.number == 6290)
    assert item.pr.summary.endswith(said)
    assert said in item.text
    first = next(i for g in context.groups for i in g.items if i.pr.number == 6268)
    assert "#6290" not in first.text and "6268" not in first.pr.summary
    # A fix under a recent fix's title is a risk, with a follow-up.
    observation = next(o for o in context.risks if o.risk == "repeated_fix")
    assert observation.numbers == [6290]
    assert ("#6290 after #6268" if lang == "en" else "#6290（此前为 #6268）") in observation.text
    assert any("#6290" in line for line in context.suggestions)
    # The summary's most important changes name the two as one, and two more changes beside.
    top = next(line for line in context.summary if "#6268" in line and "#6290" in line)
    assert (
        listed in top
        and top.count("#6290") == 1
        and top.count("；#" if lang == "zh" else "; #") == 2
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Lands #5599 again, which #7173 reverted on Apr 28."),
        ("zh", "重新合入了 #5599 的改动（04-28 被 #7173 回退）。"),
    ],
)
def test_a_pr_landing_a_change_reverted_in_an_earlier_week_says_so(lang: Lang, said: str) -> None:
    """verl #7327 ("Reland of #5599", under a title of its own) landed again what #7173 had
    reverted two weeks before; its week's report read it as a fix of its own."""
    day = timedelta(days=1)
    files = [("verl/utils/vllm/utils.py", 120, 10), ("verl/workers/rollout/vllm.py", 40, 5)]
    landed = make_pr(
        5599, "[megatron] fix: Qwen3.5 LoRA support", files=files, merged_at=MERGED - 21 * day
    )
    revert = make_pr(
        7173,
        'Revert "[megatron] fix: Qwen3.5 LoRA support (#5599)"',
        files=files,
        merged_at=MERGED - 14 * day,
        is_revert=True,
        reverted_number=5599,
    )
    again = make_pr(
        7327,
        "[vllm] fix: resolve .base_layer on the vLLM receiver",
        body="Reland of #5599\n\nThe receiver now reconciles each incoming name.",
        files=files,
    )
    context = context_for([*week_prs(), again], lang, history=[landed, revert])
    ref = next(r for r in context.prs if r.number == 7327)
    assert ref.summary.endswith(said)
    # A re-land under the reverted PR's title names it once, by its repeat note.
    same_title = again.model_copy(update={"title": landed.title, "body": ""})
    context = context_for([*week_prs(), same_title], lang, history=[landed, revert])
    ref = next(r for r in context.prs if r.number == 7327)
    assert said not in ref.summary and ref.summary.count("#5599") == 1
    # Nor when its summary names the change it lands again (vllm-ascend #11429).
    said_so = again.model_copy(update={"body": "This PR reapplies #5599 after #7173 reverted it."})
    context = context_for([*week_prs(), said_so], lang, history=[landed, revert])
    ref = next(r for r in context.prs if r.number == 7327)
    assert ref.summary == "This PR reapplies #5599 after #7173 reverted it."
    # Without the revert in the history nothing is told.
    context = context_for([*week_prs(), again], lang, history=[landed])
    assert "7173" not in next(r for r in context.prs if r.number == 7327).summary


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Lands #5599 again, which commit 83d381b77 reverted on Apr 28."),
        ("zh", "重新合入了 #5599 的改动（04-28 被提交 83d381b77 回退）。"),
    ],
)
def test_a_pr_landing_a_change_a_pushed_commit_reverted_in_an_earlier_week_says_so(
    lang: Lang, said: str
) -> None:
    """OpenRLHF pushed the reverts of #200, #524, #581 and #725 without a PR: a PR of a later
    week that lands such a change again was read as a change of its own, as verl #7327 was
    before the revert PRs of earlier weeks were looked at."""
    day = timedelta(days=1)
    files = [("verl/utils/vllm/utils.py", 120, 10), ("verl/workers/rollout/vllm.py", 40, 5)]
    landed = make_pr(
        5599, "[megatron] fix: Qwen3.5 LoRA support", files=files, merged_at=MERGED - 21 * day
    )
    pushed = PushedCommit(
        repo=REPO,
        sha="83d381b77c9d53ed67272464d9acc885ceabe0b8",
        committed_at=MERGED - 14 * day,
        subject='Revert "[megatron] fix: Qwen3.5 LoRA support (#5599)"',
        reverted_number=5599,
    )
    again = make_pr(
        7327,
        "[vllm] fix: resolve .base_layer on the vLLM receiver",
        body="Reland of #5599\n\nThe receiver now reconciles each incoming name.",
        files=files,
    )
    prs = [*week_prs(), again]
    by_pr = {n: ms for n, ms in MODULES.items()}
    modules, themes = labels(prs)

    def summary_of_7327(pushed_reverts: list[PushedCommit]) -> str:
        context = build_report_context(
            REPO,
            WINDOW,
            prs,
            modules,
            themes,
            score_week(prs, by_pr, REVIEWS, CONFIG, CALIBRATION),
            flag_risks(prs, by_pr, REVIEWS, CONFIG, {}, check_approvals=False),
            REVIEWS,
            None,
            lang,
            calibration=CALIBRATION,
            background=ReportBackground(history={5599: landed}, pushed_reverts=pushed_reverts),
        )
        return next(r for r in context.prs if r.number == 7327).summary

    assert summary_of_7327([pushed]).endswith(said)
    assert "83d381b77" not in summary_of_7327([])


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        # tilelang #2545's description is one line without a stop.
        (
            "Preserve lexical scope for decoupled casts",
            "Preserve lexical scope for decoupled casts.",
        ),
        (
            "Remove `T.reads` annotations for `T.tma_gather4`",
            "Remove `T.reads` annotations for `T.tma_gather4`.",
        ),
        ("修复 310P 上的精度问题", "修复 310P 上的精度问题。"),
        ("Will `num_cpus=1` limit the scheduler?", "Will `num_cpus=1` limit the scheduler?"),
        ("Adds lexical scopes for casts.", "Adds lexical scopes for casts."),
    ],
)
def test_a_summary_ends_as_a_sentence(body: str, shown: str) -> None:
    pr = make_pr(6402, "[fsdp] fix: decoupled cast buffer scope", body=body)
    ref = next(r for r in context_for([*week_prs(), pr], "en").prs if r.number == 6402)
    assert ref.summary == shown


def test_work_left_for_later_is_quoted_until_a_later_pr_takes_it_up(tmp_path: Path) -> None:
    """verl #6091 left peak memory "to a future PR"; once a stored later PR says it follows
    #6091 up, the report says so and stops asking for someone to take it up."""
    gap = make_pr(
        6091,
        "[rollout] feat: split large weight into chunks",
        body="Splits weights. While peak memory is still bounded by `max_weight_size`,"
        " we will address it in future PR.",
    )
    prs = [*week_prs(), gap]
    by_pr = {**MODULES, 6091: ["rollout"]}
    scores = score_week(prs, by_pr, REVIEWS, CONFIG, CALIBRATION)
    risks = flag_risks(prs, by_pr, REVIEWS, CONFIG, {}, check_approvals=False)
    quote = (
        "While peak memory is still bounded by `max_weight_size`, we will address it in future PR."
    )
    later = make_pr(
        6400, body="Follow-up to #6091: bound peak memory.", merged_at=MERGED + timedelta(days=9)
    )

    def context(lang: Lang, history: list[PullRequest]) -> ReportContext:
        modules, themes = labels(prs)
        return build_report_context(
            REPO,
            WINDOW,
            prs,
            modules,
            themes,
            scores,
            risks,
            REVIEWS,
            None,
            lang,
            calibration=CALIBRATION,
            background=ReportBackground(history={p.number: p for p in history}),
        )

    gaps: list[tuple[Lang, str, str, str]] = [
        (
            "en",
            f"#6091's author names what it leaves open: “{quote}”",
            " (#6400 has since followed it up).",
            "Track what #6091",
        ),
        ("zh", f"#6091 的作者写明：“{quote}”", "（#6400 随后跟进）。", "跟踪 #6091"),
    ]
    for lang, said, taken, asked in gaps:
        [open_gap] = [r for r in context(lang, []).risks if r.risk == "known_gap"]
        # vllm-ascend's 2026-05-11 read "尚未解决的部分：#9155 的作者写明尚未解决的部分：…".
        assert open_gap.heading not in open_gap.text
        assert open_gap.text.startswith(said) and open_gap.text.endswith("PR.”")
        assert any(s.startswith(asked) for s in context(lang, []).suggestions)
        [taken_up] = [r for r in context(lang, [later]).risks if r.risk == "known_gap"]
        assert taken_up.text.startswith(said) and taken_up.text.endswith(taken)
        assert not any(s.startswith(asked) for s in context(lang, [later]).suggestions)
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, REPO, WINDOW.week_start, risk_tables(REPO, WINDOW.week_start, risks))
        [stored] = [r for r in read_risks(con, REPO, WINDOW.week_start) if r.risk == "known_gap"]
    assert stored.quotes == [quote]


def test_the_revert_chain_and_review_asks_reach_the_report() -> None:
    zh = render_report(context_for(week_prs(), "zh"), "zh", "md")
    assert re.search(r"#6360\]\([^)]*\) 回退了 \[#6350\]", zh)
    assert "曾声明修复 [#6293]" in zh
    # The ask's own stop ends the observation; none follows the quote.
    assert (
        "chenjiaoAngel 在 verl/experimental/fully_async.py:541"
        " 提出“ray.get blocks the event loop here.”\n" in zh
    )
    en = render_report(context_for(week_prs(), "en"), "en", "md")
    assert "the event loop here.”\n" in en
    assert (
        "said it fixed [#6293](https://github.com/verl-project/verl/pull/6293): with the fix"
        " reverted, that problem is unfixed again." in en
    )
    # What the reverted fix had fixed says what is broken again (verl #6350's KeyError).
    crashing = [
        pr.model_copy(update={"body": "Without it the loss raises `KeyError` on the outputs."})
        if pr.number == 6350
        else pr
        for pr in week_prs()
    ]
    impacts: list[tuple[Lang, str]] = [
        ("en", "that problem (crashes or errors) is unfixed again"),
        ("zh", "回退后该问题（崩溃或报错）重新"),
    ]
    for lang, said in impacts:
        assert said in render_report(context_for(crashing, lang), lang, "md")
    # Two issues and two impacts: the impacts are listed apart ("crashes or errors and
    # out-of-memory" read as one thing).
    two = [
        pr.model_copy(
            update={"body": pr.body + "\n\nAlso fixes #6294: the loss raises `KeyError`, then OOM."}
        )
        if pr.number == 6350
        else pr
        for pr in week_prs()
    ]
    en_two = render_report(context_for(two, "en"), "en", "md")
    assert "those problems (out-of-memory, crashes or errors) are unfixed again" in en_two
    assert "回退后这些问题（" in render_report(context_for(two, "zh"), "zh", "md")
    # The summary and the risk name the reverted title; the chain's section, whose items give
    # both titles right below, does not repeat it.
    section = en.split("## Revert chain", 1)[1].split("\n- ", 1)[0]
    assert "reverted [#6350]" in section and "distillation" not in section
    assert en.count("emit distillation outputs") > 3


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "reverted [#3178](https://github.com/verl-project/verl/pull/3178); it also reverted"
            " [#3107](https://github.com/verl-project/verl/pull/3107)",
        ),
        (
            "zh",
            "回退了 [#3178](https://github.com/verl-project/verl/pull/3178)，同时回退了"
            " [#3107](https://github.com/verl-project/verl/pull/3107)",
        ),
    ],
)
def test_a_revert_of_several_prs_names_them_all(lang: Lang, said: str) -> None:
    """torchtitan #3212 "Revert precompile PRs (#3107, #3178) to fix CI" was told as a revert
    of #3178 alone; a PR its title names that changed none of its files is none it reverts."""
    precompile = [("torchtitan/precompile.py", 40, 0), ("torchtitan/bucketing.py", 25, 0)]
    earlier = [
        make_pr(3107, "Enable bucketing pass in precompile path", files=precompile[1:]),
        make_pr(3178, "Precompile the joint graph", files=precompile[:1]),
        make_pr(3150, "Unrelated docs fix", files=[("docs/a.md", 3, 1)]),
    ]
    revert = make_pr(
        3212,
        "Revert precompile PRs (#3107, #3178, #3150) to fix CI",
        files=[(path, 0, added) for path, added, _ in precompile],
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_number=3178,
    )
    chain = next(
        line
        for line in render_report(context_for([*earlier, revert], lang), lang, "md").splitlines()
        if said in line
    )
    assert "pull/3150" not in chain


def test_a_revert_gives_its_reason_after_the_pointer_git_revert_writes() -> None:
    """`git revert` writes `This reverts commit <sha>.` as a paragraph of its own and the
    author's reason after it: vllm-ascend #4981's "This break deepseek3.2 in PD case." and
    #11366's image build failure were read as no reason, the summary reading the first
    paragraph alone. A reason in the pointer's own paragraph (#5902) stays as it was."""
    original = make_pr(4890, "[Feat] Support DSA in PD disaggregation")
    revert = make_pr(
        4981,
        'Revert "[Feat] Support DSA in PD disaggregation (#4890)"',
        body="This reverts commit 3cf4d3a6a8b2c5a4e1f0.\n\nThis break deepseek3.2 in PD case.",
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_number=4890,
    )
    assert facts.revert_reason(revert, original) == "This break deepseek3.2 in PD case."
    same_paragraph = revert.model_copy(
        update={"body": "This reverts commit 3cf4d3a6a8b2c5a4e1f0. it breaks mtp on A3\n\n- x"}
    )
    assert facts.revert_reason(same_paragraph, original) == "it breaks mtp on A3"
    pointer_only = revert.model_copy(update={"body": "This reverts commit 3cf4d3a6a8b2c5a4e1f0."})
    assert facts.revert_reason(pointer_only, original) is None


def test_a_revert_says_why_when_its_description_does() -> None:
    """verl #7488's description gives its reason ("#7205 will cause hccl error ..."); #6360's
    only points at what it reverts, so its item names that PR's title instead."""
    prs = week_prs()
    reason = make_pr(
        6366,
        "[fsdp] fix: hccl error when updating weights",
        body="This reverts commit 352f76f59ff014c6b4.\n\n"
        "### What does this PR do?\n#6350 causes an hccl error when weights are updated on NPU",
        files=[("verl/workers/engine/fsdp/transformer_impl.py", 0, 120)],
        merged_at=MERGED + timedelta(days=2),
        is_revert=True,
        reverted_number=6350,
    ).model_copy(update={"source": "github"})
    # A description that is the title again says nothing: no outline stands in as a reason.
    again = make_pr(
        6367,
        'Revert "[fsdp] feat: add a trainer option"',
        body='Revert "[fsdp] feat: add a trainer option (#6368)"',
        files=[("verl/trainer/a.py", 0, 30), ("verl/trainer/b.py", 0, 12)],
        merged_at=MERGED + timedelta(days=3),
        is_revert=True,
        reverted_number=6368,
    )
    original = make_pr(
        6368, "[fsdp] feat: add a trainer option", files=[("verl/trainer/a.py", 30, 0)]
    )
    refs = {ref.number: ref for ref in context_for([*prs, reason, again, original], "en").prs}
    # A title that quotes the reverted one gives it; the line does not repeat it.
    assert refs[6367].summary == "Reverts #6368."
    assert refs[6366].summary == (
        "Reverts #6350 ([fsdp] fix: emit distillation outputs in use_remove_padding=False path"
        " (#6293)): #6350 causes an hccl error when weights are updated on NPU."
    )
    assert refs[6360].summary == "Reverts #6350."
    zh = {ref.number: ref for ref in context_for([*prs, reason], "zh").prs}
    assert zh[6366].summary.startswith("回退 #6350（[fsdp] fix: emit distillation")
    assert zh[6360].summary == "回退 #6350。"
    assert zh[6366].summary.endswith(
        "）：#6350 causes an hccl error when weights are updated on NPU."
    )
    # A revert that pastes the reverted PR's description under its pointer gives no reason
    # (vllm-ascend #11994 quoted #10824's "This PR unifies ...").
    unified = make_pr(
        6369,
        "[fsdp] fix: padded sequence lengths",
        body="### What does this PR do?\n\nThis PR unifies how sequence lengths are computed"
        " across eager, capture and replay.",
    )
    pasted = again.model_copy(
        update={
            "body": "Revert of PR #6369 (merged onto `main`).\n\nOriginal PR: #6369\n\n---\n"
            + unified.body,
            "reverted_number": 6369,
        }
    )
    assert facts.revert_reason(pasted, unified) is None
    assert facts.revert_reason(pasted, None) is not None
    # The risk observation quotes it; the summary's revert sentences do not.
    context = context_for([*prs, reason], "en")
    observation = next(o for o in context.risks if o.risk == "revert")
    said = "its description says: “#6350 causes an hccl error when weights are updated on NPU”"
    assert observation.text.count(said) == 1 and observation.text.count("its description") == 1
    assert not any("its description" in line for line in context.summary)
    # From the git source, it is the revert's commit message that says so.
    committed = reason.model_copy(update={"source": "git"})
    context = context_for([*prs, committed], "en")
    observation = next(o for o in context.risks if o.risk == "revert")
    assert said.replace("description", "commit message") in observation.text
    zh_context = context_for([*prs, committed], "zh")
    observation = next(o for o in zh_context.risks if o.risk == "revert")
    assert "回退提交信息：“#6350 causes" in observation.text
    # A reason that ends in its own stop is not given a second one after the quote.
    stopped = again.model_copy(update={"body": "The option broke checkpoint loading on NPU."})
    context = context_for([*prs, stopped, original], "en")
    observation = next(o for o in context.risks if o.risk == "revert")
    assert "loading on NPU.”" in observation.text and ".”." not in observation.text
    # The follow-up asks to fix that cause, not to find out why (verl 2026-08-17 asked why
    # #7488 reverted #7205 below the risk quoting its reason); a revert without one asks why.
    assert any(
        s.startswith("Fix the cause #6367 gives for reverting #6368") for s in context.suggestions
    )
    assert not any("Find out why #6367" in s for s in context.suggestions)
    unexplained = context_for([*prs, again, original], "en").suggestions
    assert any(s.startswith("Find out why #6367 reverted #6368") for s in unexplained)
    zh_suggestions = context_for([*prs, stopped, original], "zh").suggestions
    assert any(
        s.startswith("按 #6367 给出的回退原因（见风险观察）修正 #6368") for s in zh_suggestions
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_revert_is_one_risk_observation(lang: Lang) -> None:
    """The revert chain tells that #6350 was reverted; a second item saying so would read as
    a second problem. The PR itself still carries the flag."""
    context = context_for(week_prs(), lang)
    kinds = [observation.risk for observation in context.risks]
    assert kinds.count("revert") == 1 and "reverted" not in kinds
    markdown = render_report(context, lang, "md")
    observations = markdown.split("# " + SECTIONS[lang][3])[1].split("\n# ")[0]
    items = [line for line in observations.splitlines() if re.match(r"\d+\. ", line)]
    assert len([item for item in items if "[#6350]" in item]) == 1
    reverted = {"zh": "被回退的变更", "en": "(risks: reverted change)"}[lang]
    quick_view = markdown.split("# " + SECTIONS[lang][4])[1].split("\n# ")[0]
    line_6350 = next(line for line in quick_view.splitlines() if line.startswith("- **[#6350]"))
    assert reverted in line_6350


def test_very_large_changes_are_listed_largest_first() -> None:
    larger = make_pr(6400, "[fsdp] feat: a larger change", files=[("verl/workers/big.py", 2500, 0)])
    markdown = render_report(context_for([*week_prs(), larger], "en"), "en", "md")
    item = next(line for line in markdown.splitlines() if "**Very large changes**" in line)
    assert item.index("[#6400]") < item.index("[#6076]")
    assert "changes 2500 lines" in item and "changes 1400 lines" in item


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "changes 2000 lines, besides deleting 2 files"),
        ("zh", "改动 2000 行，另删除 2 个文件"),
    ],
)
def test_a_very_large_change_says_what_it_deletes_beside_its_lines(lang: Lang, said: str) -> None:
    """slime #2251 deleted 78 files (9219 lines) beside its 2352 lines: the report told the
    lines alone."""
    internalized = make_pr(
        6404,
        "[megatron] refactor: internalize the bridge",
        files=[
            ("verl/bridge/core.py", 2000, 0),
            ("verl/old/a.py", 0, 900),
            ("verl/old/b.py", 0, 99),
        ],
    )
    removed = [
        change.model_copy(update={"status": "removed"})
        if change.path.startswith("verl/old/")
        else change
        for change in internalized.files
    ]
    context = context_for([*week_prs(), internalized.model_copy(update={"files": removed})], lang)
    observation = next(o for o in context.risks if o.risk == "large_change")
    assert said in observation.text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "#6405 changes 1872 lines outside docs and generated code; #6076 changes 1400 lines,",
        ),
        ("zh", "#6405 改动 1872 行（不含文档、生成代码）；#6076 改动 1400 行，"),
    ],
)
def test_a_very_large_change_names_the_files_its_lines_leave_out(
    lang: Lang, said: str, tmp_path: Path
) -> None:
    """VeOmni #767 read "changes 1872 lines outside documentation and data files" of its
    9,142: 7,124 were its patch generator's generated code, which it did not name. #6076,
    with no such file, is told by its lines alone."""
    v5 = make_pr(
        6405,
        "[model] feat: update the omni model to v5",
        files=[
            ("verl/models/omni/__init__.py", 1700, 172),
            ("verl/models/omni/generated/patched_modeling_omni_gpu.py", 2668, 0),
            ("verl/models/omni/generated/patched_modeling_omni_gpu.diff", 3447, 0),
            ("docs/transformers_v5.md", 7, 0),
        ],
    )
    prs = [*week_prs(), v5]
    risks = flag_risks(prs, dict(MODULES), REVIEWS, CONFIG, {}, check_approvals=False)
    week = WINDOW.week_start
    with connect(tmp_path / "w.duckdb") as con:  # the kinds are stored with the flag
        replace_partition(con, REPO, week, risk_tables(REPO, week, risks))
        assert read_risks(con, REPO, week) == risks
    assert [f.uncounted for f in risks if f.number == 6405 and f.risk == "large_change"] == [
        ["doc", "generated"]
    ]
    observation = next(o for o in context_for(prs, lang).risks if o.risk == "large_change")
    assert said in observation.text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "#6405 changes 1872 lines outside docs and data files;"),
        ("zh", "#6405 改动 1872 行（不含文档、数据）；"),
    ],
)
def test_a_very_large_change_stored_before_its_kinds_says_what_its_lines_then_left_out(
    lang: Lang, said: str, tmp_path: Path
) -> None:
    """A flag stored by a prhub that did not record the kinds a very large change's lines leave
    out (RiskFlag.uncounted) counted lines outside documentation and data files, as its detail
    says: a week's report rendered again from it (verl 2026-04-27 upgraded) said #6126
    "changes 8563 lines", as if they were all its lines."""
    v5 = make_pr(
        6405,
        "[model] feat: update the omni model to v5",
        files=[("verl/models/omni/__init__.py", 1872, 0), ("docs/omni.md", 300, 0)],
    )
    prs = [*week_prs(), v5]
    risks = flag_risks(prs, dict(MODULES), REVIEWS, CONFIG, {}, check_approvals=False)
    week = WINDOW.week_start
    with connect(tmp_path / "w.duckdb") as con:
        replace_partition(con, REPO, week, risk_tables(REPO, week, risks))
        # As the prhub before RiskFlag.uncounted stored them: no such key in the evidence.
        for rowid, evidence in con.execute("SELECT rowid, evidence FROM pr_risks").fetchall():
            facts = json.loads(evidence)
            del facts["uncounted"]
            con.execute(
                "UPDATE pr_risks SET evidence = ? WHERE rowid = ?", [json.dumps(facts), rowid]
            )
        stored = read_risks(con, REPO, week)
    observation = next(
        o for o in context_for(prs, lang, risks=stored).risks if o.risk == "large_change"
    )
    assert said in observation.text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "changes 2524 lines, 1800 of them in tests"),
        ("zh", "改动 2524 行，其中测试 1800 行"),
    ],
)
def test_a_change_very_large_with_its_tests_is_told_so_and_needs_no_watch(
    lang: Lang, said: str
) -> None:
    """A change large with its tests (lmdeploy #4594-like, with more code beside them than
    that one's fifth) is told with its tests, and the follow-up to watch for regressions names
    only changes large in their code."""
    tested = make_pr(
        6403,
        "[ci] test: update the endpoint tests",
        files=[("verl/utils/client.py", 700, 24), ("tests/test_endpoint.py", 1800, 0)],
    )
    context = context_for([*week_prs(), tested], lang)
    observation = next(o for o in context.risks if o.risk == "large_change")
    assert said in observation.text
    watch = next(s for s in context.suggestions if "#6076" in s)
    assert "#6403" not in watch


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Several of them changed the same files: .github/workflows/tests.yaml (8 PRs)."),
        ("zh", "其中多个 PR 改动了同一文件：.github/workflows/tests.yaml（8 个 PR）。"),
    ],
)
def test_many_ci_changes_name_the_files_they_share(lang: Lang, said: str) -> None:
    """vllm-ascend's 2026-08-03 listed 6 of its 28 CI workflow changes; 9 of the 28 edited its
    list of tests. The count takes every CI file of a PR, not the few its flag names."""
    registry = ".github/workflows/tests.yaml"
    many = [
        make_pr(6500 + i, "[ci] test: register a test", files=[(registry, 2, 0)]) for i in range(7)
    ]
    others = [(f".github/workflows/e2e_{i}.yml", 1, 0) for i in range(3)]
    wide = make_pr(6510, "[ci] chore: bump runners", files=[*others, (registry, 1, 1)])
    context = context_for([*week_prs(), *many, wide], lang)
    observation = next(o for o in context.risks if o.risk == "ci_change")
    assert observation.text.endswith(said)
    # While every PR is listed, its files are there to read.
    few = context_for([*week_prs(), *many[:2]], lang)
    assert said[:8] not in next(o for o in few.risks if o.risk == "ci_change").text


@pytest.mark.parametrize(
    ("lang", "asked"),
    [
        (
            "en",
            "Confirm that the dependency, image, and CI changes work across environments and"
            " pipelines: dependency changes in #6501; image changes in #6501; CI changes in"
            " #6501, #6502.",
        ),
        (
            "zh",
            "确认依赖、镜像、CI 变更在各环境与流水线中正常工作："
            "依赖 #6501；镜像 #6501；CI #6501、#6502。",
        ),
    ],
)
def test_changes_to_check_everywhere_are_one_follow_up(lang: Lang, asked: str) -> None:
    """verl's 2026-08-17 asked three times that #7127's changes work everywhere: for its
    dependencies, its image and its CI files."""
    uv = make_pr(
        6501,
        "[misc] feat: uv integration",
        files=[
            ("requirements.txt", 5, 2),
            ("docker/Dockerfile.uv", 40, 0),
            (".github/workflows/cpu_unit_tests.yml", 3, 3),
        ],
    )
    image = make_pr(
        6502, "[ci] chore: update ci image", files=[(".github/workflows/e2e.yml", 1, 1)]
    )
    context = context_for([*week_prs(), uv, image], lang)
    plain = [re.sub(r"\[(#\d+)\]\([^)]*\)", r"\1", s) for s in context.suggestions]
    assert asked in plain
    assert sum("#6502" in s for s in plain) == 1
    # One such change alone keeps its own wording.
    alone = context_for([*week_prs(), image], lang)
    assert not any("#6501" in s for s in alone.suggestions)
    assert sum("#6502" in s for s in alone.suggestions) == 1


def test_shared_files_are_those_two_flags_or_more_name() -> None:
    flags = [
        RiskFlag(number=n, risk="ci_change", severity="low", detail="", paths=paths)
        for n, paths in ((1, ["a.yml", "b.yml"]), (2, ["a.yml"]), (3, ["c.yml"]))
    ]
    assert facts.shared_files(flags) == [("a.yml", 2)]
    # Every file of a flag counts where it has them, not only the few it names.
    flags[2] = flags[2].model_copy(update={"files": ["c.yml", "b.yml"]})
    assert facts.shared_files(flags) == [("a.yml", 2), ("b.yml", 2)]


def test_risk_names_inside_an_english_sentence_keep_proper_names() -> None:
    images = make_pr(
        6401,
        "[ci] chore: new image",
        files=[("docker/Dockerfile.stable", 5, 1), (".github/workflows/e2e.yml", 3, 1)],
    )
    summary = " ".join(context_for([*week_prs(), images], "en").summary)
    assert "very large changes (1)" in summary
    assert "Docker image changes (1)" in summary and "CI workflow changes (1)" in summary


def test_the_summary_says_where_the_fixes_concentrate() -> None:
    en = context_for(week_prs(), "en").summary
    assert "All 3 of the week's fixes concern FSDP." in en
    assert "本周 3 个修复全部涉及 FSDP。" in context_for(week_prs(), "zh").summary
    spread = [
        *week_prs(),
        *(
            make_pr(6500 + i, f"[ci] fix: flaky job {i}", files=[(".github/workflows/a.yml", 2, 1)])
            for i in range(3)
        ),
    ]
    MODULES.update({6500 + i: ["ci"] for i in range(3)})
    try:
        en = context_for(spread, "en").summary
        zh = context_for(spread, "zh").summary
    finally:
        for i in range(3):
            del MODULES[6500 + i]
    # 3 of 6 fixes each: both areas reach the 40% share
    assert "Of the week's 6 fixes, 3 concern CI and 3 concern FSDP." in en
    assert "本周 6 个修复中，3 个涉及 CI、3 个涉及 FSDP。" in zh
    one_fix = [week_prs()[2]]
    assert not any("fixes" in line for line in context_for(one_fix, "en").summary[1:])


GROUP_LEADS = {
    "en": {
        "FSDP": "2 of the week's 3 FSDP PRs (2 fixes), 1 of them key. See also Revert chain.",
        "fully_async": "1 fully_async PR this week (1 feature), a key PR.",
        "doc": "1 of the week's 2 doc PRs (1 fix), a key PR. See also the appendix.",
    },
    "zh": {
        "FSDP": "本周 FSDP 共 3 个 PR，此处 2 个（全部为修复），其中重点 1 个。另见：回退链。",
        "fully_async": "本周 fully_async 共 1 个 PR（新功能），为重点 PR。",
        "doc": "本周 doc 共 2 个 PR，此处 1 个（修复），为重点 PR。另见：附录。",
    },
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_group_counts_its_whole_label_and_says_where_the_rest_are(lang: Lang) -> None:
    """Each PR is listed in one group, so a group can hold fewer of its label's PRs than the
    trend table counts: FSDP's third PR is the reverted #6350, and the second doc PR (#6330)
    sits in the NPU group, which has no key PR and is left out of the section."""
    doc_fix = make_pr(
        6340,
        "[doc] fix: correct the loss formula in the guide",
        body="### What does this PR do?\n\nThe documented loss gave wrong results.",
        files=[("verl/models/loss.py", 300, 20), ("docs/loss.md", 40, 3)],
    )
    MODULES[6340] = ["doc"]
    try:
        context = context_for([*week_prs(), doc_fix], lang)
    finally:
        del MODULES[6340]
    leads = {group.heading: group.lead for group in context.groups}
    assert {name: leads.get(name) for name in GROUP_LEADS[lang]} == GROUP_LEADS[lang]


def test_a_housekeeping_theme_from_paths_alone_does_not_head_a_prs_group() -> None:
    """Features that add a dependency are listed under their module, not Dependencies;
    `[doc]` PRs with the Docs theme are listed under Docs, their theme, as before."""
    prs = [
        make_pr(
            6800 + n,
            f"[v1] feat: sampler {n}",
            body="### What does this PR do?\n\nAdds a sampler to the command line.",
            files=[(f"verl/trainer/sampler_{n}.py", 600, 0), ("requirements.txt", 1, 0)],
        )
        for n in range(2)
    ]
    prs += [
        make_pr(6802 + n, f"[doc] chore: guide {n}", files=[("docs/g.md", 90, 0)]) for n in range(3)
    ]
    modules = {6800: ["v1"], 6801: ["v1"], 6802: ["doc"], 6803: ["doc"], 6804: ["doc"]}
    themes = {n: ["Dependencies"] for n in (6800, 6801)} | {n: ["Docs"] for n in range(6802, 6805)}
    MODULES.update(modules)
    THEMES.update(themes)
    try:
        context = context_for(prs, "en")
    finally:
        for number in modules:
            del MODULES[number]
            del THEMES[number]
    grouped = {item.pr.number: group.name for group in context.groups for item in group.items}
    assert grouped == {6800: "v1", 6801: "v1", 6802: "Docs", 6803: "Docs", 6804: "Docs"}


def test_a_theme_most_of_the_week_carries_heads_no_section() -> None:
    """vllm-ascend: every PR is NPU work, so NPU says nothing about a PR; its modules do.
    PRs with nothing but the theme are still listed under it."""
    prs = [
        make_pr(
            6900 + n, f"[ops] {('fix', 'feat')[n % 2]}: kernel {n}", files=[(f"k{n}.cpp", 900, 0)]
        )
        for n in range(6)
    ] + [
        make_pr(6906 + n, f"[ci] chore: job {n}", files=[(".github/workflows/j.yml", 9, 1)])
        for n in range(3)
    ]
    prs += [make_pr(6909 + n, f"NPU graph mode {n}", files=[("g.py", 90, 0)]) for n in range(3)]
    modules = {n: ["ops"] for n in range(6900, 6906)} | {n: ["ci"] for n in range(6906, 6909)}
    themes = {n: ["NPU"] for n in range(6900, 6912) if n not in (6906, 6907)}
    MODULES.update(modules | {n: [] for n in range(6909, 6912)})
    THEMES.update(themes)
    try:
        context = context_for(prs, "en")
    finally:
        for number in range(6900, 6912):
            del MODULES[number]
            THEMES.pop(number, None)
    leads = {group.name: group.lead for group in context.groups}
    items = {group.name: [item.pr.number for item in group.items] for group in context.groups}
    assert leads["ops"].startswith("6 ops PRs this week")
    assert sorted(items["NPU"]) == [6909, 6910, 6911]
    assert "NPU" in [row.name for row in context.trends]  # still counted
    assert "All 3 of the week's fixes concern ops." in context.summary  # not "ops and NPU"


def test_type_only_tags_are_no_area() -> None:
    """tilelang tags `[BugFix][CUDA]`: its learned "bugfix" label is no area to rank, group
    or focus on ("all fixes concern bugfix" would say nothing)."""
    fixes = [
        make_pr(6700 + i, f"[BugFix] Fix kernel {i}", files=[("src/a.cc", 900, 1)])
        for i in range(6)
    ]
    MODULES.update({6700 + i: ["bugfix", "cuda"] for i in range(3)})
    MODULES.update({6700 + i: ["bugfix"] for i in range(3, 6)})
    last_week = WeekCounts(pr_count=12, modules={"bugfix": 11, "cuda": 1})
    try:
        context = context_for(fixes, "en", previous=last_week)
    finally:
        for i in range(6):
            del MODULES[6700 + i]
    assert not any("concern bugfix" in line for line in context.summary)
    # The trend table's composition column already counts the fixes.
    assert [row.name for row in context.trends] == ["cuda"]
    # No change of "bugfix" is told; the note on PRs without a module names it as no module.
    lead = " ".join(context.trends_lead)
    assert "bugfix" not in lead.replace("([bugfix] counts as none)", "")
    assert "CUDA (1 → 3)" in lead
    assert any(re.search(r"The busiest modules? (was|were) CUDA \(3\)", s) for s in context.summary)
    grouped = {item.pr.number: group.name for group in context.groups for item in group.items}
    assert [grouped.get(6700 + i) for i in range(3)] == ["cuda"] * 3
    # Nothing but the type: unlabelled, not a "bugfix" section beside a "fix" one.
    assert [grouped.get(6700 + i) for i in range(3, 6)] == ["other"] * 3
    leads = {group.name: group.lead for group in context.groups}
    assert leads["other"].startswith("3 PRs this week in no module's or theme's section (3 fixes)")


def test_a_theme_holding_the_very_prs_of_a_module_is_named_once() -> None:
    """VeOmni's perf PRs are all Performance: "3 concern Performance and 3 concern perf" and
    "Performance (1 → 4), perf (1 → 4)" said one thing twice."""
    prs = [
        make_pr(6600 + i, f"[perf] fix: speed {i}", files=[("src/a.py", 90, 1)]) for i in range(4)
    ]
    prs += [make_pr(6604 + i, f"[data] fix: loader {i}", files=[("d.py", 9, 1)]) for i in range(2)]
    MODULES.update({6600 + i: ["perf"] for i in range(4)} | {6604: ["data"], 6605: ["data"]})
    THEMES.update({6600 + i: ["Performance"] for i in range(4)})
    last_week = WeekCounts(pr_count=3, modules={"perf": 1}, themes={"Performance": 1})
    try:
        context = context_for(prs, "en", previous=last_week)
        THEMES[6604] = ["Performance"]  # a loader fix that is also about speed
        wider = context_for(prs, "en", previous=last_week)
    finally:
        for number in range(6600, 6606):
            del MODULES[number]
            THEMES.pop(number, None)
    assert "Of the week's 6 fixes, 4 concern Performance." in context.summary
    assert "The largest changes: Performance (1 → 4) and data (0 → 2)." in context.trends_lead
    # Once Performance holds more than perf, the fixes' sentence and the largest changes
    # still name the larger alone, perf's PRs being among it.
    assert "Of the week's 6 fixes, 5 concern Performance." in wider.summary
    assert "The largest changes: Performance (1 → 5) and data (0 → 2)." in wider.trends_lead


def test_a_theme_named_as_a_module_of_the_week_says_it_is_the_theme() -> None:
    """verl's reports listed a Docker module (its `docker` tag, 1 PR) and a Docker theme (4 PRs)
    by one name; in Chinese the theme is Docker 镜像, which no module is named. The module's
    PR is among the theme's, whose row counts it: no row of the module beside it."""
    MODULES[6330], THEMES[6330], THEMES[6331] = ["docker"], ["Docker"], ["Docker"]
    try:
        en = render_report(context_for(week_prs(), "en"), "en", "md")
        zh = render_report(context_for(week_prs(), "zh"), "zh", "md")
        MODULES[6330] = ["doc"]
        alone = render_report(context_for(week_prs(), "en"), "en", "md")
    finally:
        MODULES[6330], THEMES[6330] = ["doc"], ["NPU"]
        del THEMES[6331]
    assert "| Docker | module |" not in en and "| Docker-related work | theme | 2 |" in en
    assert "| docker |" in en[en.index("| [#6330]") :].splitlines()[0]  # still the PR's module
    assert "| Docker 镜像 | 主题 | 2 |" in zh and "相关 |" not in zh
    assert "| Docker | theme | 2 |" in alone and "-related" not in alone


def test_a_theme_sharing_a_modules_row_is_named_as_the_module() -> None:
    """ColossalAI's 2023-10-30 filed its one `[moe]` PR, which the MoE theme took too, under
    "MoE-related work", above a table whose one row for both was "MoE | module": a reader
    found no row of the section's name (in Chinese, the Docker theme is "Docker 镜像"). Counting
    the very same PRs, the two are one subject, named as the row names it."""
    MODULES[6076], THEMES[6076] = ["docker"], ["Docker"]
    try:
        contexts = [context_for(week_prs(), lang) for lang in ("en", "zh")]
        THEMES[6331] = ["Docker"]  # a second PR the theme takes: two subjects again
        wider = context_for(week_prs(), "en")
    finally:
        MODULES[6076] = ["fully_async"]
        del THEMES[6076], THEMES[6331]
    for context in contexts:
        rows = [(row.kind, row.display) for row in context.trends if "docker" in row.name.lower()]
        assert rows == [("module", "Docker")]
        assert "Docker" in [g.heading for g in context.groups]
    assert "Docker-related work" in [g.heading for g in wider.groups]


@pytest.mark.parametrize(
    ("lang", "theme_row", "gone"),
    [
        ("en", "| Docker | theme | 2 | 3 | −1 |", "Docker (3 → 0)"),
        ("zh", "| Docker 镜像 | 主题 | 2 | 3 | −1 |", "Docker（3 → 0）"),
    ],
)
def test_a_module_without_prs_beside_a_theme_of_its_name_is_told_by_the_theme(
    lang: Lang, theme_row: str, gone: str
) -> None:
    """verl's 2026-06-22 read "The largest changes: ... Docker (3 → 0)" of its `docker` tag
    above a table whose one Docker row was "Docker-related work | theme | 2 | 3": the module
    had no PR, its row of zeros was left out, yet the lead named its fall and the theme was
    renamed for it. One subject, one row: the theme's, under its own name, in both formats."""
    THEMES[6330], THEMES[6331] = ["Docker"], ["Docker"]
    last_week = WeekCounts(pr_count=6, modules={"docker": 3, "fsdp": 1}, themes={"Docker": 3})
    fell_too = WeekCounts(pr_count=6, modules={"docker": 4}, themes={"Docker": 3})
    try:
        context = context_for(week_prs(), lang, previous=last_week)
    finally:
        THEMES[6330] = ["NPU"]
        del THEMES[6331]
    quiet = context_for(week_prs(), lang, previous=fell_too)
    markdown = render_report(context, lang, "md")
    html = render_report(context, lang, "html")
    assert [(row.kind, row.name) for row in context.trends if row.name.lower() == "docker"] == [
        ("theme", "Docker")
    ]
    assert theme_row in markdown
    for text in (markdown, html):
        assert gone not in text and "Docker-related" not in text and "Docker 相关" not in text
    name, kind = theme_row.split(" | ")[:2]
    assert f'<td class="words">{name[2:]}</td><td class="words">{kind}</td>' in html
    # Both gone to zero: the theme's row tells the fall, not a module row of zeros beside it.
    assert [(row.kind, row.count) for row in quiet.trends if row.name.lower() == "docker"] == [
        ("theme", 0)
    ]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_theme_a_module_of_its_name_stands_for_is_told_by_the_module_alone(lang: Lang) -> None:
    """vllm-ascend's 2026-08-10 had a "Performance | module" row beside a "Performance-related
    work | theme" row, and 2026-08-03 a section of each name: it tags 57 of its 71 Performance
    PRs `[Performance]` (`themes_named_modules_stand_for`). The module tells the subject; the
    PR the theme's words alone found (#6076) goes by its module."""
    MODULES[6331], THEMES[6331], THEMES[6076] = ["performance"], ["Performance"], ["Performance"]
    try:
        context = context_for(week_prs(), lang, module_named={"Performance"})
        plain = context_for(week_prs(), lang)
    finally:
        MODULES[6331] = ["fsdp"]
        del THEMES[6331], THEMES[6076]
    rows = {(r.kind, r.name): r for r in context.trends}
    assert (
        rows[("module", "performance")].count == 1
        and rows[("module", "performance")].previous is None
    )
    assert not any(r.kind == "theme" and r.name == "Performance" for r in context.trends)
    assert "Performance" not in context.counts.themes
    assert all(g.name != "Performance" for g in context.groups)
    theme = {"en": "Performance-related", "zh": "性能优化"}[lang]
    assert not any(theme in line for line in context.summary)
    assert (
        next(g.name for g in context.groups if 6076 in [i.pr.number for i in g.items])
        == "fully_async"
    )
    # Without it, the theme's row counts both PRs and the module's PR has no row of its own.
    rows = {(r.kind, r.name): r for r in plain.trends}
    assert rows[("theme", "Performance")].count == 2 and ("module", "performance") not in rows


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_theme_made_of_a_module_with_the_same_prs_shares_its_trend_row(lang: Lang) -> None:
    """verl's week of 2026-05-11 had a doc row and a Docs row, both 13 PRs against 4 with the
    same composition: one row says it. A theme with other PRs, or other PRs last week, or one
    the module's PRs are in by chance (#6330 is doc and NPU), keeps its own row; one that holds
    the module's PRs counts them (`test_a_module_a_theme_takes_is_counted_by_the_themes_row`)."""
    THEMES[6330] = ["NPU", "Docs"]
    try:
        same = context_for(week_prs(), lang, previous=WeekCounts(pr_count=3))
        more = context_for(week_prs(), lang, previous=WeekCounts(pr_count=3, themes={"Docs": 1}))
    finally:
        THEMES[6330] = ["NPU"]
    docs = {"zh": "文档", "en": "Docs"}[lang]
    rows = {(r.kind, r.name): r for r in same.trends}
    assert rows[("module", "doc")].shared_theme == docs and ("theme", "Docs") not in rows
    assert rows[("theme", "NPU")].count == 1  # NPU is made of no module
    shown = {"zh": "doc（即主题“文档”）", "en": "doc (also the Docs theme)"}[lang]
    assert f"| {shown} | " in render_report(same, lang, "md")
    html = render_report(same, lang, "html")
    chart = html[html.index("<svg") : html.index("</svg>")]
    # The bar: the module's name.
    assert f'<td class="words">{shown}</td>' in html and ">doc</text>" in chart
    # Last week the theme had a PR the module had not: no shared row. This week's PR is the
    # theme's, whose row counts it, as a module of the theme's name would be counted.
    rows = {(r.kind, r.name): r for r in more.trends}
    assert ("module", "doc") not in rows and rows[("theme", "Docs")].previous == 1


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_module_a_theme_takes_is_counted_by_the_themes_row(lang: Lang) -> None:
    """slime's 2026-05-25 read "doc | module | 5" above "Docs | theme | 6", and 2026-06-15
    "doc | module | 0 | 3" above "Docs | theme | 5 | 4": the Docs rule takes the `doc` tag,
    whose PRs were all the theme's, though too few of the theme's to stand for it. As for a
    module of the theme's name, the theme's row tells them."""
    THEMES[6330], THEMES[6331] = ["NPU", "Docs"], ["Docs"]
    try:
        held = context_for(week_prs(), lang, previous=WeekCounts(pr_count=3))
        MODULES[6330] = ["fsdp"]
        gone = context_for(
            week_prs(),
            lang,
            previous=WeekCounts(pr_count=6, modules={"doc": 3}, themes={"Docs": 4}),
        )
    finally:
        MODULES[6330], THEMES[6330] = ["doc"], ["NPU"]
        del THEMES[6331]
    rows = {(r.kind, r.name): r for r in held.trends}
    assert ("module", "doc") not in rows and rows[("theme", "Docs")].count == 2
    rows = {(r.kind, r.name): r for r in gone.trends}
    assert ("module", "doc") not in rows and rows[("theme", "Docs")].previous == 4
    lead = " ".join(gone.trends_lead)
    assert "doc (3 → 0)" not in lead and "doc（3 → 0）" not in lead  # nor the lead names it


def test_a_theme_that_is_not_housekeeping_shares_the_row_of_the_module_it_is_made_of() -> None:
    """verl's week of 2026-08-17 had a perf row and a Performance row, both #7408 alone: the
    built-in Performance rule takes the perf module's PRs, as Docs takes doc's."""
    MODULES[6331], THEMES[6331] = ["perf"], ["Performance"]
    try:
        context = context_for(week_prs(), "en", previous=WeekCounts(pr_count=3))
    finally:
        MODULES[6331] = ["fsdp"]
        del THEMES[6331]
    rows = {(r.kind, r.name): r for r in context.trends}
    assert rows[("module", "perf")].shared_theme == "Performance"
    assert ("theme", "Performance") not in rows


def test_a_pr_without_description_is_outlined_not_summarised_by_its_own_title() -> None:
    bare = make_pr(
        6600, "[fsdp] feat: support megatron-bridge training", files=[("verl/a.py", 900, 0)]
    )
    described = make_pr(
        6601,
        "[fsdp] feat: shard the optimizer",
        body="### What does this PR do?\n\nSplits optimizer state across ranks.",
        files=[("verl/b.py", 900, 0)],
    )
    MODULES.update({6600: ["fsdp"], 6601: ["fsdp"]})
    try:
        context = context_for([bare, described], "en")
    finally:
        del MODULES[6600], MODULES[6601]
    items = {item.pr.number: item.text for group in context.groups for item in group.items}
    assert items[6600].lower().count("support megatron-bridge training") == 1
    assert items[6600].endswith(").")
    assert items[6601].endswith("Splits optimizer state across ranks.")
    quick = {item.pr.number: item.summary + item.risks for item in context.quick_view}
    assert "support megatron-bridge" not in quick[6600]
    assert quick[6600] == (
        "The commit message says nothing beyond the title; it changes verl/a.py (900 lines)."
        " (risks: core-path change without tests)"
    )
    assert quick[6601].startswith("Splits optimizer state across ranks. (risks: ")
    # Every entry reads "importance N", then the summary if any, the risks and the parts.
    lines = render_report(context, "en", "md").splitlines()
    (bare_line,) = [line for line in lines if line.startswith("- **[#6600]")]
    assert (
        ": importance " in bare_line
        and "(900 lines). (risks: core-path change without tests) (raw score: " in bare_line
    )
    assert "Risks:" not in bare_line


def test_a_week_of_titles_alone_says_so_once_not_before_every_outline() -> None:
    """NVIDIA-NeMo/RL's squash commits carry only sign-offs (1345 of its 1346): every key PR's
    line opened "The commit message says nothing beyond the title", 20 to 40 times a report."""
    prs = [
        make_pr(
            6600, "[fsdp] feat: support megatron-bridge training", files=[("verl/a.py", 900, 0)]
        ),
        make_pr(6601, "[fsdp] feat: shard the optimizer", files=[("verl/b.py", 900, 0)]),
    ]
    MODULES.update({6600: ["fsdp"], 6601: ["fsdp"]})
    try:
        contexts = {lang: context_for(prs, lang) for lang in ("en", "zh")}
    finally:
        del MODULES[6600], MODULES[6601]
    en, zh = contexts["en"], contexts["zh"]
    assert en.header.generated.endswith("; no PR's commit message says more than its title")
    assert zh.header.generated.endswith("各 PR 的提交信息均只有标题")
    quick = {item.pr.number: item.summary for item in en.quick_view}
    assert quick[6600] == "It changes verl/a.py (900 lines)."
    assert {item.pr.number: item.summary for item in zh.quick_view}[6600] == (
        "改动了 verl/a.py（900 行）。"
    )
    rendered = render_report(en, "en", "md")
    assert "nothing beyond the title" not in rendered
    # One PR that says more keeps every lead: the clause tells the others apart from it.
    described = make_pr(6602, "[fsdp] fix: x", body="Splits optimizer state across ranks.")
    MODULES.update({6600: ["fsdp"], 6601: ["fsdp"], 6602: ["fsdp"]})
    try:
        mixed = context_for([*prs, described], "en")
    finally:
        del MODULES[6600], MODULES[6601], MODULES[6602]
    assert "says more than its title" not in mixed.header.generated
    assert {item.pr.number: item.summary for item in mixed.quick_view}[6600].startswith(
        "The commit message says nothing beyond the title; it changes"
    )


def test_a_description_that_is_another_prs_title_is_outlined() -> None:
    """aibrix #2298's squash message opened with the commit its branch took from #2165, whose
    title it is: its summary read "Add brixbench benchmark module"."""
    base = make_pr(6602, "[fsdp] feat: add brixbench benchmark module", files=[("b/a.go", 900, 0)])
    stacked = make_pr(
        6603,
        "[fsdp] feat: improve brixbench runner cleanup",
        body="* Add brixbench benchmark module\n* Address review feedback",
        files=[("b/runner.go", 700, 0)],
    )
    # Prose saying what another PR's title says still describes (verl #165).
    said = stacked.model_copy(update={"body": "Add brixbench benchmark module"})
    MODULES.update({6602: ["fsdp"], 6603: ["fsdp"]})
    try:
        squashed, prose = (context_for([base, pr], "en") for pr in (stacked, said))
    finally:
        del MODULES[6602], MODULES[6603]
    quick = {item.pr.number: item.summary for item in squashed.quick_view}
    assert quick[6603] == (
        "The commit message does not summarise the change; it changes b/runner.go (700 lines)."
    )
    quick = {item.pr.number: item.summary for item in prose.quick_view}
    assert quick[6603].startswith("Add brixbench benchmark module")
    # Summarised from its commits, the squash still opens with #6602's.
    commits = stacked.model_copy(
        update={"body": "* Add brixbench benchmark module\n\n* Retry brixbench runs that time out"}
    )
    MODULES.update({6602: ["fsdp"], 6603: ["fsdp"]})
    try:
        listed = context_for([base, commits], "en")
    finally:
        del MODULES[6602], MODULES[6603]
    quick = {item.pr.number: item.summary for item in listed.quick_view}
    assert quick[6603].startswith("The commit message does not summarise the change")


def test_a_squash_summary_leaves_out_commits_an_earlier_pr_landed() -> None:
    """ColossalAI #822 changed one file; its squash message lists the commits of #818 and #821
    its branch carried, and its summary named them ("Set cpu memory capacity; ...")."""
    carried = "* Set cpu memory capacity\n\n* Collect local throughput in the trainer"
    grown = make_pr(
        6604,
        "[gemini] add a new tensor structure",
        body=f"{carried}\n\n* Add a new tensor structure and override linear for it",
        merged_at=MERGED - timedelta(days=9),
    )
    # #821 landed #818's list again, and #822 took it from #821 (the last to land it).
    again = make_pr(
        6605,
        "[tensor] apply the tensor on torch functions",
        body=f"{grown.body}\n\n* Rename and reorganise the tensor directory structure",
        merged_at=MERGED - timedelta(days=8),
    )
    week = make_pr(
        6606,
        "[tensor] update the torch function of the tensor",
        body=f"{again.body}\n\n* Wrap the functions the tensor did not handle yet",
        files=[("colossalai/tensor/colo_tensor.py", 10, 3)],
    )
    MODULES.update({6606: ["fsdp"]})
    try:
        context = context_for([week], "en", history=[grown, again])
    finally:
        del MODULES[6606]
    quick = {item.pr.number: item.summary for item in context.quick_view}
    assert quick[6606] == "Wrap the functions the tensor did not handle yet."
    landings = subject_landings([grown, again, week])
    assert LandedBefore(landings, week)("set cpu memory capacity") == 6605
    assert LandedBefore(landings, grown)("set cpu memory capacity") is None


def test_a_description_that_only_restates_part_of_the_title_adds_nothing() -> None:
    # tilelang #2665's body is its title with one tag fewer; verl #1602's names part of it.
    title = "[TIR][Transform] Fix flat Bind modeling in parallel race checks"
    assert not facts.adds_to_title("[TIR] Fix flat Bind modeling in parallel race checks", title)
    assert not facts.adds_to_title(
        "Fix sglang megatron support",
        "[sglang] Fix megatron support in sglang and add sglang_async support & CI tasks",
    )
    assert not facts.adds_to_title("", title)
    assert not facts.adds_to_title(f"{title} (#2722)", title)
    assert facts.adds_to_title("Binds now alias their buffers, so checks see the race.", title)
    # Dependabot's body says its title in the third person (tilelang #2773, vllm-ascend #7069).
    bump = "[CI]: Bump actions/setup-python from 6 to 7"
    assert not facts.adds_to_title("Bumps actions/setup-python from 6 to 7.", bump)
    assert not facts.adds_to_title(
        "Removed redundant `data.to()` codes.", "Remove redundant data.to() code"
    )
    assert facts.adds_to_title("Bumps actions/setup-python from 6 to 8.", bump)
    # The title again as a conventional commit (tilelang #2752, aibrix #2508).
    assert not facts.adds_to_title(
        "fix(transform): preserve explicit loop steps",
        "[BugFix] Preserve explicit loop steps when transforms rebuild For nodes",
    )
    assert not facts.adds_to_title(
        "fix(console): refresh batch job progress", "[Bug] Refresh batch job progress"
    )
    assert facts.adds_to_title("fix(console): refresh progress every 5s", "[Bug] Refresh progress")


def test_a_description_that_adds_only_words_saying_nothing_restates_the_title() -> None:
    # vllm-ascend #3224, #5395, #7298 and #13044, tilelang #2233, verl #1771.
    assert not facts.adds_to_title(
        "Add release note for v0.11.0rc0", "[Doc] Release note for v0.11.0rc0"
    )
    assert not facts.adds_to_title("Add Qwen3Next CI", "[CI] Add qwen3 next ci")
    assert not facts.adds_to_title(
        "Bumps actions/setup-pythonfrom 5 to 6.", "[CI] Bump actions/setup-python from 5 to 6"
    )
    assert not facts.adds_to_title(
        "We modify weekly cases: dsv4, GLM5.yaml", "[CI] modify weekly cases:dsv4,GLM5.yaml"
    )
    assert not facts.adds_to_title(
        "Fix WS prelude liveness ordering", "[Transform] Preserve WS prelude liveness ordering"
    )
    assert not facts.adds_to_title(
        "Add an example for DeepSeek 671B GRPO", "Add DeepSeek 671B GRPO example"
    )
    assert not facts.adds_to_title(  # a misspelt title word, and a commit hash
        "Add UT for weight prefetch (8be6432bdaf6275664d857b1e5e9bf8ed1ce299e)",
        "[Test] Spplement UT for weight prefetch",
    )
    # A word that says something stays: what is added, a version, or that a change of no
    # stated kind is a fix.
    assert facts.adds_to_title(
        "Add qwen3_vl_embedding & reranker user guide", "[Doc] add qwen3_vl_embedding user guide"
    )
    assert facts.adds_to_title("Support DeepSeekV3", "[Model] Support DeepSeekV2")
    assert facts.adds_to_title(
        "Fix CUDA RNG state scope", "[CUDA][Codegen] Keep RNG state in kernel scope"
    )


def test_links_to_the_repositorys_own_prs_read_as_numbers() -> None:
    linked = make_pr(
        6602,
        "[fsdp] fix: 3d position ids",
        body="Fixes the 3d position ids introduced in https://github.com/verl-project/verl/pull/5689."
        " Compare https://github.com/vllm-project/vllm/pull/1 too.",
        files=[("verl/b.py", 900, 0)],
    )
    MODULES[6602] = ["fsdp"]
    try:
        markdown = render_report(context_for([linked], "en"), "en", "md")
    finally:
        del MODULES[6602]
    assert "introduced in [#5689](https://github.com/verl-project/verl/pull/5689)." in markdown
    assert "https://github.com/vllm-project/vllm/pull/1" in markdown


def test_only_the_repositorys_own_numbers_become_links() -> None:
    """vllm-ascend #13026 cites vLLM's `RFC #48203`; verl PRs cite `VeOmni PR #12`: links to
    this repository's PR of that number would be wrong."""
    text = (
        "Implements RFC #48203, after vLLM PR #39949, VeOmni PR #12 and"
        " openyuanrong-datasystem PR #1412; see #6550, the accuracy issue #6100, verl PR #6101"
        " and verl-project/verl#6102."
    )
    scope = RefScope("verl-project/verl", highest=7400)
    linked = {
        "md": re.findall(
            r"\[#(\d+)\]\(https://github.com/verl-project/verl/pull/", md_refs(text, scope)
        ),
        "html": re.findall(
            r'<a href="https://github.com/verl-project/verl/pull/(\d+)"', html_refs(text, scope)
        ),
    }
    assert linked == {"md": ["6550", "6100", "6101"], "html": ["6550", "6100", "6101"]}
    assert "RFC #48203" in md_refs(text, scope) and "VeOmni PR #12" in html_refs(text, scope)
    # The bound leaves room for issues opened after the week's newest PR.
    assert md_refs("see #9249", scope).startswith("see [#9249](")
    assert md_refs("see #9251", scope) == "see #9251"
    assert md_refs("SGLang PR #5", scope) == "SGLang PR #5"
    assert md_refs("see #48203", RefScope("verl-project/verl", None)).startswith("see [#48203](")


def test_code_spans_of_descriptions_stay_code_in_both_formats() -> None:
    """verl #7297's summary names `PackedSeqParams`: the Markdown report showed the backticks
    escaped (literal) while the HTML report set them as code."""
    scope = RefScope("verl-project/verl", highest=7400)
    text = "`PackedSeqParams` now carries `cp_partition_mode`, after #7001 and `#7002`"
    assert md_refs(text, scope) == (
        "`PackedSeqParams` now carries `cp_partition_mode`, after"
        " [#7001](https://github.com/verl-project/verl/pull/7001) and `#7002`"
    )
    assert html_refs(text, scope) == (
        "<code>PackedSeqParams</code> now carries <code>cp_partition_mode</code>, after"
        ' <a href="https://github.com/verl-project/verl/pull/7001">#7001</a> and <code>#7002</code>'
    )
    # A span's text is code, not markup; a lone backtick (a cut summary) stays literal text.
    assert md_refs("set `a|b <x>` and *c*", scope) == "set `a|b <x>` and \\*c\\*"
    assert html_refs("set `a <x>`", scope) == "set <code>a &lt;x&gt;</code>"
    assert md_refs("consulting `hf_to_vllm_mapper and…", scope) == (
        "consulting \\`hf_to_vllm_mapper and…"
    )


def test_breaking_changes_are_counted_and_listed_in_both_languages() -> None:
    breaking = [
        make_pr(6401, "[BREAKING][fsdp] feat: drop the v0 engine", files=[("docs/a.md", 5, 0)]),
        make_pr(6402, "[trainer] refactor!: rename the config keys", files=[("docs/b.md", 5, 0)]),
    ]
    MODULES.update({6401: ["fsdp"], 6402: ["trainer"]})
    try:
        en = render_report(context_for([*week_prs(), *breaking], "en"), "en", "md")
        zh = render_report(context_for([*week_prs(), *breaking], "zh"), "zh", "md")
        one_en = render_report(context_for([*week_prs(), breaking[0]], "en"), "en", "md")
    finally:
        del MODULES[6401], MODULES[6402]
    assert re.search(r"2 PRs carry breaking-change markers: \[#6401\]\([^)]*\) drop the v0", en)
    assert re.search(r"; \[#6402\]\([^)]*\) rename the config keys\.", en)
    assert re.search(r"2 个 PR 带有不兼容变更标记：\[#6401\]", zh)
    assert "1 PR carries a breaking-change marker: [#6401]" in one_en


def test_hostile_titles_render_as_text() -> None:
    long_title = "[fsdp] fix: " + "x|<img src=x onerror=alert(2)>" * 350  # 10 kB
    prs = [*week_prs(), make_pr(6400, long_title, files=[("verl/y.py", 5, 0)])]
    MODULES[6400] = ["fsdp"]
    try:
        for lang in LANGS:
            context = context_for(prs, lang)
            html = render_report(context, lang, "html")
            markdown = render_report(context, lang, "md")
            assert "<script>alert(1)</script>" not in html and "<img" not in html
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
            assert "🚀" in html and "🚀" in markdown
            assert "<script>" not in markdown and "\\<script\\>" in markdown
            assert "\\*\\*bold\\*\\*" in markdown and "new line" in markdown
            assert len(markdown) < 60_000 and len(html) < 120_000  # the 10 kB title is shortened
            for table in re.findall(r"(?:^\|.*\|\n)+", markdown, flags=re.MULTILINE):
                rows = table.strip("\n").split("\n")
                cells = [len(re.findall(r"(?<!\\)\|", row)) for row in rows]
                assert len(set(cells)) == 1, rows  # no escaped pipe splits a row
    finally:
        del MODULES[6400]


def test_an_empty_week() -> None:
    for lang in LANGS:
        context = context_for([], lang, ReviewData(available=False))
        assert context.header.pr_count == 0 and context.header.key_pr_count == 0
        assert context.prs == [] and context.groups == [] and context.risks == []
        markdown = render_report(context, lang, "md")
        html = render_report(context, lang, "html")
        assert ("没有合并的 PR" if lang == "zh" else "No pull requests were merged") in markdown
        assert '<section id="risks">' in html
        # No PRs: nothing calls for a follow-up.
        assert context.suggestions == [WORDINGS[lang].no_follow_up]
    # A source without reviews is told in the header, summary and risks, not as a weekly ask
    # to switch sources (verl's git-source weeks ended on "regenerate from github").
    context = context_for(week_prs(), "en", ReviewData(available=False))
    assert not any("github" in s.lower() for s in context.suggestions)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_commits_pushed_without_a_pr_are_counted_in_the_summary_and_listed(lang: Lang) -> None:
    # OpenRLHF pushes most of its work straight to main: its week of 2026-03-23 had no PR and
    # 10 such commits, and its report said only "No pull requests were merged this week".
    pushed = [
        PushedCommit(
            repo=REPO,
            sha="ea4ac8484580207cf8486aab35f62e009ce8e622",
            committed_at=datetime(2026, 5, 17, 17, 0, tzinfo=UTC),  # Monday in Shanghai
            author="xiaoxigua999",
            subject="support oai server for multi-turn agentic rl",
        ),
        PushedCommit(
            repo=REPO,
            sha="ac28c5d4622d9929be312ff08d10394f023b1818",
            committed_at=datetime(2026, 5, 12, 3, 0, tzinfo=UTC),
            author=None,
            subject="bump vllm | pin ray",
        ),
    ]
    for prs in ([], week_prs()):
        context = build_report_context(
            REPO,
            WINDOW,
            prs,
            *labels(prs),
            score_week(prs, {}, REVIEWS, CONFIG, CALIBRATION),
            [],
            REVIEWS,
            None,
            lang,
            calibration=CALIBRATION,
            pushed=pushed,
        )
        told = "另有 2 个提交未经 PR 直接推送到分支" if lang == "zh" else "2 commits were pushed"
        assert told in context.summary[1]  # after the week's PR count
        assert [(c.sha, c.day, c.author) for c in context.pushed] == [
            ("ea4ac8484", "2026-05-18", "xiaoxigua999"),
            ("ac28c5d46", "2026-05-12", None),
        ]
        markdown = render_report(context, lang, "md")
        appendix = markdown.split(f"# {LABELS[lang]['pushed_appendix']}\n", 1)[1]
        assert (
            f"| [ea4ac8484](<https://github.com/{REPO}/commit/"
            "ea4ac8484580207cf8486aab35f62e009ce8e622>) | 2026-05-18 | xiaoxigua999 |"
        ) in appendix
        assert "| 2026-05-12 | — | bump vllm \\| pin ray |" in appendix
        html = render_report(context, lang, "html")
        assert '<section id="pushed">' in html and "<code>ac28c5d46</code>" in html
    quiet = context_for([], lang, ReviewData(available=False))
    assert quiet.pushed == [] and len(quiet.summary) == 1
    assert LABELS[lang]["pushed_appendix"] not in render_report(quiet, lang, "md")


def test_a_revert_pushed_without_a_pr_is_told_as_a_revert_pr_is() -> None:
    """OpenRLHF's maintainers pushed the reverts of #524, #581 and #725: their weeks' reports
    listed the commits and never said a PR of the week was undone. Told once, in the summary
    and the risks, with the PR's revert section; a revert PR of it too tells it alone."""
    fix, revert, other, *_ = week_prs()
    prs = [fix, other]
    pushed = PushedCommit(
        repo=REPO,
        sha="f6e1ac1be51a0cc899b511c3fc94c9773a73f842",
        committed_at=MERGED + timedelta(hours=2),
        author="xiaoxigua999",
        subject=f'Revert "{fix.title}"',
        reverted_number=fix.number,
    )
    by_pr = {n: ms for n, ms in MODULES.items()}
    modules, themes = labels(prs)
    scores = score_week([fix, revert, other], by_pr, REVIEWS, CONFIG, CALIBRATION)

    def context(
        prs: list[PullRequest], pushed: list[PushedCommit], history: list[PullRequest]
    ) -> ReportContext:
        risks = flag_risks(prs, by_pr, REVIEWS, CONFIG, {}, check_approvals=False, pushed=pushed)
        return build_report_context(
            REPO,
            WINDOW,
            prs,
            modules,
            themes,
            [s for s in scores if s.number in {pr.number for pr in prs}],
            risks,
            REVIEWS,
            None,
            "en",
            calibration=CALIBRATION,
            pushed=pushed,
            background=ReportBackground(history={pr.number: pr for pr in history}),
        )

    told = "Commit f6e1ac1be, pushed without a PR, reverted #6350"
    same_week = context(prs, [pushed], [])
    assert sum(line.count(told) for line in same_week.summary) == 1
    [observation] = [r for r in same_week.risks if r.risk == "reverted"]
    assert observation.text.startswith(told) and observation.numbers == [6350]
    assert [g.heading for g in same_week.groups if any(i.pr.number == 6350 for i in g.items)] == [
        WORDINGS["en"].revert_chain
    ]
    markdown = render_report(same_week, "en", "md")
    linked = f"{told[:-5]}[#6350](https://github.com/{REPO}/pull/6350)"
    assert markdown.count(linked) == 3  # summary, the revert section's lead, risks
    # The PR merged in an earlier week: this week's summary and risks tell it.
    later = context([other], [pushed], [fix])
    assert any(told in line for line in later.summary)
    assert [r.risk for r in later.risks if told in r.text] == ["reverted"]
    # A revert PR of the same PR tells it: the push is not told again.
    both = context([fix, revert, other], [pushed], [])
    assert not any(told in line for line in both.summary)
    assert "reverted" not in {r.risk for r in both.risks}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_revert_pushed_without_a_pr_tells_its_reason_and_its_re_land(lang: Lang) -> None:
    """OpenRLHF's pushed reverts of #200, #524, #581 and #725 were told without the reason a
    revert PR's chain quotes, nor the PR that landed the change again: their messages were not
    stored. Now their commit message's reason is quoted in the risks, and a later PR that says
    it re-lands the change closes the chain, in the summary too."""
    fix, _, other, *_ = week_prs()
    reason = "It hangs the colocated engines on 8 NPUs."
    pushed = PushedCommit(
        repo=REPO,
        sha="f6e1ac1be51a0cc899b511c3fc94c9773a73f842",
        committed_at=MERGED + timedelta(hours=2),
        subject=f'Revert "{fix.title}"',
        reverted_number=fix.number,
        body=f"This reverts commit 97f590cabd76668ea4b0ea0c0af601aa6600084a.\n\n{reason}",
    )
    reland = make_pr(
        6400,
        "[fsdp] fix: keep distillation outputs on NPU",
        body="Reland of #6350 with the NPU engines kept apart.",
        files=[("verl/workers/engine/fsdp/transformer_impl.py", 80, 0)],
        merged_at=MERGED + timedelta(days=2),
    )
    words = WORDINGS[lang]

    def context(prs: list[PullRequest]) -> ReportContext:
        by_pr = {n: ms for n, ms in MODULES.items()}
        modules, themes = labels(prs)
        risks = flag_risks(prs, by_pr, REVIEWS, CONFIG, {}, check_approvals=False, pushed=[pushed])
        return build_report_context(
            REPO,
            WINDOW,
            prs,
            modules,
            themes,
            score_week(prs, by_pr, REVIEWS, CONFIG, CALIBRATION),
            risks,
            REVIEWS,
            None,
            lang,
            calibration=CALIBRATION,
            pushed=[pushed],
        )

    kept = context([fix, other])
    [observation] = [r for r in kept.risks if r.risk == "reverted"]
    assert words.revert_reason_commit.format(reason=reason) in observation.text
    relanded = words.revert_relanded.format(target=6350, relanded=6400, when="")
    assert relanded not in observation.text
    # As a revert PR's, it asks the fix that #6350 had made (of #6293) to be made again.
    asked = words.follow_ups["refix"].format(
        reopened="#6293", target=6350, reverter=words.pushed_reverter.format(commit="f6e1ac1be")
    )
    assert kept.suggestions[0] == asked.replace("已被 提交", "已被提交")
    landed_again = context([fix, other, reland])
    [observation] = [r for r in landed_again.risks if r.risk == "reverted"]
    assert relanded in observation.text.replace(words.revert_relanded_soon, "")
    assert any(
        relanded in line.replace(words.revert_relanded_soon, "") for line in landed_again.summary
    )
    assert not any("f6e1ac1be" in line for line in landed_again.suggestions)


def test_a_docs_only_week() -> None:
    docs = [
        make_pr(n, f"[doc] chore: page {n}", files=[(f"docs/p{n}.md", 300, 20)]) for n in (1, 2, 3)
    ]
    context = context_for(docs, "en", ReviewData(available=False))
    assert context.header.key_pr_count == 0
    assert all(pr.importance < CONFIG.key_threshold for pr in context.prs)
    markdown = render_report(context, "en", "md")
    # They change documentation alone: docs changes, whatever the titles' verb (`chore`) says.
    assert "By type: 3 docs changes." in markdown
    assert "core paths without touching" not in markdown
    assert "None of the week's 3 PRs reached importance 7.0." in markdown
    # The threshold named is the repository's own, the one its PRs were scored against.
    stricter = context_for(
        docs,
        "en",
        ReviewData(available=False),
        scoring=CONFIG.model_copy(update={"key_threshold": 8.5}),
    )
    assert "reached importance 8.5." in render_report(stricter, "en", "md")


def test_the_quick_view_says_when_it_shows_only_the_top_key_prs() -> None:
    """The quick view lists at most MAX_QUICK_VIEW key PRs; a reader counting them against
    the header's key-PR count is told the rest are in the appendix."""
    fixes = [
        make_pr(
            7000 + n,
            f"[fsdp] fix: wrong loss values in shard {n}",
            body="### What does this PR do?\n\nLabels were rolled per shard, giving wrong loss.",
            files=[(f"verl/workers/shard_{n}.py", 400, 30)],
        )
        for n in range(MAX_QUICK_VIEW + 2)
    ]
    contexts = {lang: context_for(fixes, lang) for lang in ("en", "zh")}
    key = contexts["en"].header.key_pr_count
    assert key > MAX_QUICK_VIEW and len(contexts["en"].quick_view) == MAX_QUICK_VIEW
    assert contexts["en"].quick_view_lead == (
        f"The {MAX_QUICK_VIEW} most important of the week's {key} key PRs;"
        " the appendix lists every PR."
    )
    assert contexts["zh"].quick_view_lead == (
        f"本周 {key} 个重点 PR 中重要性最高的 {MAX_QUICK_VIEW} 个；全部 PR 见附录。"
    )
    assert contexts["zh"].quick_view_lead in render_report(contexts["zh"], "zh", "html")
    assert context_for(week_prs(), "en").quick_view_lead is None  # every key PR is listed


def test_without_review_data_the_report_says_so() -> None:
    zh = context_for(week_prs(), "zh", ReviewData(available=False))
    assert any("评审数据不可用" in note for note in zh.risk_notes)
    assert "无评审数据" in zh.header.generated
    assert "unresolved_review" not in {r.risk for r in zh.risks}
    en = render_report(context_for(week_prs(), "en", ReviewData(available=False)), "en", "md")
    assert "Review data is not available" in en


def test_without_core_paths_the_report_says_core_changes_were_not_checked() -> None:
    """A repository added without `scoring.core_paths` gets no core-path risk at all; its
    report says which rule did not run, as it does for the review rules."""
    configured = context_for(week_prs(), "en", scoring=CONFIG)
    assert not any("core paths" in note for note in configured.risk_notes)
    en = context_for(week_prs(), "en", scoring=ScoringConfig())
    assert (
        "No core paths are configured for this repository (scoring.core_paths): core changes"
        " without tests were not checked." in render_report(en, "en", "md")
    )
    zh = context_for(week_prs(), "zh", scoring=ScoringConfig())
    assert "本仓库未配置核心路径（scoring.core_paths）" in render_report(zh, "zh", "md")


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        (
            "en",
            "NPU is not counted as a theme: 59% of this repository's 4639 stored PRs that do"
            " more than housekeeping (docs, CI and the like) carry it, so it says what the"
            " repository is about, not what changed this week.",
        ),
        ("zh", "NPU 不作为主题统计：本仓库已存的 PR 中，除文档、CI 等日常维护外共有 4639 个"),
    ],
)
def test_a_theme_most_of_the_repository_carries_is_left_out_and_said_so(
    lang: Lang, note: str
) -> None:
    """vllm-ascend: 59% of its history is NPU/Ascend, which names the repository itself."""
    plain = context_for(week_prs(), lang)
    assert "NPU" in [row.name for row in plain.trends]
    previous = WeekCounts(pr_count=4, modules={"fsdp": 1}, themes={"NPU": 3})  # stored before
    context = context_for(week_prs(), lang, previous=previous, subject_themes={"NPU": 0.59})
    assert "NPU" not in [row.name for row in context.trends]
    assert "NPU" not in [group.name for group in context.groups]
    assert "NPU" not in context.counts.themes
    assert any(line.startswith(note) for line in context.trends_lead)
    assert not any("NPU" in line for line in context.summary)


def test_week_on_week_change() -> None:
    previous = WeekCounts(pr_count=4, modules={"fsdp": 1, "ray": 2}, themes={"NPU": 1})
    context = context_for(week_prs(), "en", previous=previous)
    rows = {(r.kind, r.name): r for r in context.trends}
    assert (rows[("module", "fsdp")].count, rows[("module", "fsdp")].delta) == (3, "+2")
    assert rows[("theme", "NPU")].delta == "±0"
    assert "6 PRs this week against 4 the week before (+2)." in context.trends_lead
    unknown = context_for(week_prs(), "en", previous=None)
    assert all(r.delta == "—" for r in unknown.trends)


def test_every_pr_needs_a_score() -> None:
    prs = week_prs()
    modules, themes = labels(prs)
    with pytest.raises(ValueError, match="#6331"):
        build_report_context(REPO, WINDOW, prs, modules, themes, [], [], REVIEWS, None, "zh")
    with pytest.raises(ValueError, match="not 'en'"):
        render_report(context_for(prs, "zh"), "en", "md")


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("a|b", "a\\|b"),
        ("line\nbreak", "line break"),
        ("<img src=x>", "\\<img src=x\\>"),
        ("[x](javascript:1)", "\\[x\\](javascript:1)"),
        ("# heading", "\\# heading"),
        # A line may lead with spaces before its heading or list mark.
        ("\n   # heading", " \\# heading"),
        (" - item", " \\- item"),
        ("1. item", "1\\. item"),
        (" 2) item", " 2\\) item"),
        ("9.4", "9.4"),
        ("use_remove_padding", "use_remove_padding"),
        ("_emph_", "\\_emph\\_"),
        ("&lt;", "\\&lt;"),
    ],
)
def test_md_escape(text: str, escaped: str) -> None:
    assert md_escape(text) == escaped


@pytest.mark.parametrize(
    ("text", "shortened"),
    [
        (
            "reuse trainer worker group for hybrid rollout to do validation",
            "reuse trainer worker group for hybrid rollout to do…",
        ),
        ("short\ntitle", "short title"),
        ("a" * 70, "a" * 59 + "…"),  # no space to cut at
        # Chinese: the only space is early, so the cut is mid-text.
        ("为 NPU" + "新增模型迁移指南" * 10, "为 NPU" + ("新增模型迁移指南" * 7)[:54] + "…"),
    ],
)
def test_shorten_cuts_at_a_word(text: str, shortened: str) -> None:
    assert shorten(text, 60) == shortened


def test_storage_round_trip_and_rerun(tmp_path: Path) -> None:
    prs = week_prs()
    by_pr = dict(MODULES)
    scores = score_week(prs, by_pr, REVIEWS, CONFIG, CALIBRATION)
    risks = flag_risks(prs, by_pr, REVIEWS, CONFIG, {}, check_approvals=False)
    contexts = {lang: context_for(prs, lang) for lang in LANGS}
    rendered = [
        RenderedReport(
            lang=lang, markdown=render_report(c, lang, "md"), html=render_report(c, lang, "html")
        )
        for lang, c in contexts.items()
    ]
    week = WINDOW.week_start
    with connect(tmp_path / "w.duckdb") as con:
        for _ in range(2):  # a re-run replaces the partition
            replace_partition(
                con,
                REPO,
                week,
                [
                    *score_tables(REPO, week, scores),
                    *risk_tables(REPO, week, risks),
                    *report_tables(
                        REPO,
                        week,
                        rendered,
                        contexts["zh"].counts,
                        key_pr_count=contexts["zh"].header.key_pr_count,
                    ),
                ],
            )
        assert read_scores(con, REPO, week) == scores
        assert read_risks(con, REPO, week) == risks
        stored = read_report(con, REPO, week, "en")
        assert (
            stored is not None and stored.markdown == rendered[1].markdown and stored.pr_count == 6
        )
        assert read_report(con, REPO, week + timedelta(days=7), "zh") is None
        counts = contexts["zh"].counts
        stored_counts = "SELECT kind, name, pr_count FROM weekly_counts WHERE week_start = ?"
        assert sorted(con.execute(stored_counts, [week]).fetchall()) == sorted(
            [
                ("all", "", counts.pr_count),
                *(("module", name, n) for name, n in counts.modules.items()),
                *(("theme", name, n) for name, n in counts.themes.items()),
            ]
        )
        assert not con.execute(stored_counts, [week - timedelta(days=7)]).fetchall()
        listing = list_reports(con, REPO)
        assert [(e.week_start, e.lang) for e in listing] == [(week, "en"), (week, "zh")]
        assert {e.risk_flags for e in listing} == {len(risks)} and risks
        parts = con.execute(
            "SELECT parts->>'core' FROM pr_scores WHERE repo = ? AND number = 6268", [REPO]
        ).fetchone()
        assert parts is not None and float(parts[0]) > 0

    paths = write_report_files(tmp_path / "reports", REPO, week, rendered, listing)
    folder = tmp_path / "reports" / "verl-project" / "verl"
    assert sorted(p.name for p in paths) == sorted(
        [
            "2026-05-11.zh.md",
            "2026-05-11.zh.html",
            "2026-05-11.en.md",
            "2026-05-11.en.html",
            "index.html",
        ]
    )
    assert (folder / "2026-05-11.zh.md").read_text(encoding="utf-8") == rendered[0].markdown
    assert not list(folder.glob(".*.tmp"))
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert 'href="2026-05-11.zh.html"' in index and 'href="2026-05-11.en.md"' in index
    # The week's row: its PRs, key PRs and risk flags.
    assert f'<td class="num">{len(risks)}</td><td><a href="2026-05-11.zh.html">' in index


def test_the_index_links_only_the_stored_weeks_whose_files_are_in_the_folder(
    tmp_path: Path,
) -> None:
    """Weeks stored while `reports_dir` named another folder are not in this one: 376 of an
    index's 388 links led nowhere."""
    rendered = [RenderedReport(lang="zh", markdown="# a\n", html="<p>a</p>")]
    stored = [
        ReportListing(week_start=date(2026, 5, 4), lang="zh", pr_count=3),
        ReportListing(week_start=date(2026, 5, 11), lang="zh", pr_count=5),
    ]
    write_report_files(tmp_path, REPO, date(2026, 5, 11), rendered, stored)
    index = (tmp_path / "verl-project" / "verl" / "index.html").read_text(encoding="utf-8")
    assert 'href="2026-05-11.zh.html"' in index and "2026-05-04" not in index


def test_a_prs_text_reaches_no_report_with_control_characters_or_bidi_overrides() -> None:
    """`ESC]52;...` in a title wrote the clipboard of a terminal the report was shown on, and
    U+202E showed `txt.exe` as `exe.txt`; a NUL in a description (the summary's placeholder)
    failed the whole week's report."""
    hostile = make_pr(
        6600,
        "[fsdp] fix: loader \x1b]52;c;cm0gLXJmIH4=\x07 \u202etxt.exe\u202c crash",
        body="Fix crash: \x0099\x00 here, when `x` is None, and the loader stops.",
        files=[("verl/workers/\x1b[31mred.py", 40, 2)],
    )
    assert hostile.title == "[fsdp] fix: loader  txt.exe crash"
    assert "\x00" not in hostile.body
    # Labels (which `label_modules` turns into modules) and co-authors too; NEL breaks a line.
    labelled = PullRequest.model_validate(
        {
            **hostile.model_dump(),
            "labels": ["area/\u202emodel", "ok"],
            "co_authors": ["Eve\x1b[31m"],
            "body": "one\x85two",
        }
    )
    assert labelled.labels == ["area/model", "ok"] and labelled.co_authors == ["Eve"]
    assert labelled.body == "one\ntwo"
    for lang in LANGS:
        context = context_for([*week_prs(), hostile], lang)
        for fmt in FORMATS:
            text = render_report(context, lang, fmt)
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text), fmt


def test_the_text_rules_read_a_description_and_a_title_up_to_their_limits() -> None:
    """Their regular expressions take time that grows faster than the text on hostile input
    (65,000 `[` took 129 s): what lies past the limits is not read (benchmarks/
    hostile_text.py measures what is)."""
    filler = "x" * MAX_DESCRIPTION_CHARS
    assert read_revert("chore: x", "Reverts #12\n" + filler) is not None
    assert read_revert("chore: x", filler + "\nReverts #12") is None
    assert fix_impacts("fix: loader", filler + " It crashes on start.") == {}
    assert fix_impacts("fix: loader", "It crashes on start. " + filler) == {"crash": 0.75}
    assert parse_title(" " * MAX_TITLE_CHARS + "[fsdp] fix: x").type == "other"


def test_report_files_older_than_their_row_are_rewritten_only_where_their_text_differs(
    tmp_path: Path,
) -> None:
    """A file written before its row's `generated_at` is an earlier run's only if its text
    differs: a file system that keeps whole seconds dates a file written just after its row
    before it, which must not be rewritten on every run."""
    week = date(2026, 5, 11)
    rendered = RenderedReport(lang="en", markdown="# a\n", html="<p>a</p>")
    [md, html, _] = write_report_files(tmp_path, REPO, week, [rendered])
    row_time = datetime.fromtimestamp(md.stat().st_mtime, UTC) + timedelta(seconds=1)
    assert files_behind(tmp_path, REPO, week, "en", row_time)
    assert restore_report_files(tmp_path, REPO, week, rendered) == []
    # Copied with an old time: dated now once its text is found its own, so the next run
    # reads neither it nor its row again.
    copied_at = time.time() - 60
    for path in (md, html):
        os.utime(path, (copied_at, copied_at))
    row_time = datetime.fromtimestamp(copied_at + 30, UTC)
    assert restore_report_files(tmp_path, REPO, week, rendered) == []
    assert not files_behind(tmp_path, REPO, week, "en", row_time)
    html.write_text("<p>an earlier run's</p>", encoding="utf-8")
    md.unlink()
    assert restore_report_files(tmp_path, REPO, week, rendered) == [md, html]
    assert html.read_text(encoding="utf-8") == "<p>a</p>" and md.is_file()
    assert not files_behind(tmp_path, REPO, week, "en", row_time - timedelta(seconds=5))


@pytest.mark.parametrize(
    ("lang", "previous", "following"),
    [
        ("en", "← Previous week (2026-04-27)", "Next week (2026-05-18) →"),
        ("zh", "← 上一周（2026-04-27）", "下一周（2026-05-18）→"),
    ],
)
def test_a_reports_files_link_the_stored_weeks_beside_it(
    lang: Lang, previous: str, following: str
) -> None:
    """A report had no way to the week before or after it but the index. The nearest stored
    weeks (2026-05-04 was quiet and not stored) are linked in both formats; the first and the
    last week link one way; a week alone is left as it was rendered."""
    weeks = [date(2026, 4, 20), date(2026, 4, 27), date(2026, 5, 11), date(2026, 5, 18)]
    links = WeekLinks.among(weeks, date(2026, 5, 11))
    assert links == WeekLinks(previous=date(2026, 4, 27), next=date(2026, 5, 18))
    assert WeekLinks.among(weeks, date(2026, 4, 20)) == WeekLinks(next=date(2026, 4, 27))
    assert WeekLinks.among(weeks, date(2026, 5, 18)) == WeekLinks(previous=date(2026, 5, 11))
    context = context_for(week_prs(), lang)
    markdown, html = render_report(context, lang, "md"), render_report(context, lang, "html")
    linked_md = with_week_links(markdown, lang, "md", links)
    title, rest = markdown.split("\n\n", 1)
    assert linked_md == (
        f"{title}\n\n[{previous}](<2026-04-27.{lang}.md>) · [{following}](<2026-05-18.{lang}.md>)"
        f"\n\n{rest}"
    )
    linked_html = with_week_links(html, lang, "html", links)
    nav = re.search(r'<nav class="nav">.*?</nav>', linked_html)
    assert nav is not None and nav.group().endswith(
        f' · <a href="2026-04-27.{lang}.html" rel="prev">{previous}</a>'
        f' · <a href="2026-05-18.{lang}.html" rel="next">{following}</a></nav>'
    )
    assert linked_html.replace(nav.group(), "") == re.sub(r'<nav class="nav">.*?</nav>', "", html)
    last = with_week_links(html, lang, "html", WeekLinks(previous=date(2026, 5, 4)))
    assert 'rel="prev"' in last and 'rel="next"' not in last
    assert with_week_links(markdown, lang, "md", WeekLinks()) == markdown


def test_index_from_files_on_disk_shows_no_made_up_counts(tmp_path: Path) -> None:
    rendered = [RenderedReport(lang="zh", markdown="# a\n", html="<p>a</p>")]
    write_report_files(tmp_path, REPO, date(2026, 5, 4), rendered)
    write_report_files(tmp_path, REPO, date(2026, 5, 11), rendered)
    index = (tmp_path / "verl-project" / "verl" / "index.html").read_text(encoding="utf-8")
    assert index.index("2026-05-11") < index.index("2026-05-04")
    assert "—" in index
    assert "还没有生成任何周报" in render_index(REPO, [])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_quick_view_item_without_text_has_no_empty_sentence(lang: Lang) -> None:
    """A key PR with no description and no risks still reads as one sentence."""
    context = context_for(week_prs(), lang)
    first = context.quick_view[0].model_copy(update={"summary": "", "risks": ""})
    context = context.model_copy(update={"quick_view": [first, *context.quick_view[1:]]})
    markdown = render_report(context, lang, "md")
    line = next(line for line in markdown.splitlines() if line.startswith("- **[#"))
    importance = f"{first.pr.importance:.1f}"
    opening = {"zh": f"{importance}（", "en": f"{importance} ("}[lang]
    assert opening in line and "  " not in line
    html = render_report(context, lang, "html")
    assert "<br><br>" not in html


@pytest.mark.parametrize(
    ("pr_count", "key_count", "en", "zh"),
    [
        (
            1,
            0,
            "1 pull request was merged this week (week 20, May 11 to May 17); it is not a key PR.",
            "共合并 1 个 PR，没有重点 PR。",
        ),
        (1, 1, "; it is a key PR.", "共合并 1 个 PR，为重点 PR。"),
        (4, 0, "; none of them is a key PR.", "共合并 4 个 PR，没有重点 PR。"),
        (4, 1, "; one of them is a key PR.", "共合并 4 个 PR，其中 1 个为重点 PR。"),
        (4, 3, "; 3 of them are key PRs.", "共合并 4 个 PR，其中 3 个为重点 PR。"),
    ],
)
def test_the_overview_counts_key_prs_in_words(
    pr_count: int, key_count: int, en: str, zh: str
) -> None:
    summary = Summary(
        period=Period.of(WINDOW),
        pr_count=pr_count,
        key_count=key_count,
        types=[("fix", pr_count)],
        top_modules=[],
        top_themes=[],
        top=[],
        fix_count=0,
        fixes_by_impact=[],
        fix_total=pr_count,
        fix_focus=[],
        reverts=[],
        risk_tally=[],
        review_available=True,
    )
    assert en in WORDINGS["en"].summary(summary)[0]
    assert zh in WORDINGS["zh"].summary(summary)[0]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_long_risk_list_names_the_most_important_and_counts_the_rest(lang: Lang) -> None:
    """vllm-ascend merges thirty CI workflow changes a week: six are named, the rest counted."""
    prs = [
        make_pr(
            7000 + n,
            f"[ci] chore: job {n}",
            files=[(".github/workflows/j.yml", 9, 1), ("verl/a.py", 100 * (n + 1), 0)],
        )
        for n in range(8)
    ]
    MODULES.update({7000 + n: ["ci"] for n in range(8)})
    try:
        context = context_for(prs, lang)
    finally:
        for n in range(8):
            del MODULES[7000 + n]
    [ci] = [o for o in context.risks if o.risk == "ci_change"]
    named = re.findall(r"#(\d+)", ci.text)
    assert len(named) == 6 and named[0] == "7007"  # the largest change is the most important
    assert {"zh": "；另有 2 个 PR。", "en": "; and 2 more PRs."}[lang] in ci.text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_list_ending_in_a_shortened_subject_ends_with_its_ellipsis(lang: Lang) -> None:
    long_title = "[fsdp] feat: " + " ".join(["shard the optimizer state"] * 6)
    prs = [
        make_pr(7100 + n, long_title, files=[(f"verl/x{n}.py", 900 - 100 * n, 0)]) for n in range(5)
    ]
    prs[0] = make_pr(7100, f"[BREAKING]{long_title}", files=[("verl/x0.py", 900, 0)])
    MODULES.update({7100 + n: ["fsdp"] for n in range(5)})
    try:
        markdown = render_report(context_for(prs, lang), lang, "md")
    finally:
        for n in range(5):
            del MODULES[7100 + n]
    assert "…" in markdown and "…." not in markdown and "…。" not in markdown


def _key_ref(number: int, module: str, importance: float, is_key: bool = True) -> PrRef:
    return PrRef(
        number=number,
        url=f"https://example.org/{number}",
        title=f"[{module}] feat: change {number}",
        subject=f"change {number}",
        pr_type="feat",
        type_name="feature",
        modules=[module],
        importance=importance,
        is_key=is_key,
        summary="",
    )


def faded_note(context: ReportContext) -> str:
    """The trends' sentence naming the labels that fell from one or two PRs to none."""
    return next(
        line for line in context.trends_lead if "未列入表中" in line or "Not in the" in line
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_label_that_fell_to_zero_keeps_its_trend_row(lang: Lang) -> None:
    """The lead names "Ray (2 → 0)" among the largest changes: the table has its row. Docs,
    one PR last week and none now, is only named; so are themes, and modules with fewer than
    three PRs last week; three or more keep their row."""
    previous = WeekCounts(
        pr_count=3, modules={"fsdp": 1, "ray": 2, "bugfix": 1}, themes={"Docs": 1}
    )
    context = context_for(week_prs(), lang, previous=previous)
    rows = {(r.kind, r.name): r for r in context.trends}
    ray = rows[("module", "ray")]
    assert (ray.count, ray.previous, ray.delta, ray.key_changes) == (0, 2, "−2", [])
    assert ("theme", "Docs") not in rows
    fell = context_for(week_prs(), lang, previous=WeekCounts(pr_count=9, modules={"ckpt": 3}))
    assert {(r.name, r.delta) for r in fell.trends if not r.count} == {("ckpt", "−3")}
    docs = "文档" if lang == "zh" else "Docs"
    note = (
        f"以下模块与主题上周有一两个 PR、本周没有，未列入表中：{docs}。"
        if lang == "zh"
        else f"Not in the table: {docs}, with one or two PRs last week and none this week."
    )
    assert faded_note(context) == note  # `bugfix` is no area: neither row nor name
    # A module and a theme of one name are named once, as the theme writes it (VeOmni's
    # 2026-08-10 read "data, dist, lora, and LoRA").
    both = WeekCounts(pr_count=3, modules={"lora": 1}, themes={"LoRA": 1})
    lead = faded_note(context_for(week_prs(), lang, previous=both))
    assert "LoRA" in lead and "lora" not in lead
    # Spellings aside too, as tilelang's `docs` module beside a Doc theme would be.
    spelt = WeekCounts(pr_count=3, modules={"benchmark": 1}, themes={"Benchmarks": 1})
    lead = faded_note(context_for(week_prs(), lang, previous=spelt))
    assert "Benchmarks" in lead and "benchmark" not in lead
    markdown = render_report(context, lang, "md")
    theme = "主题" if lang == "zh" else "theme"
    assert "| Ray | " in markdown and f"| {docs} | {theme} | " not in markdown
    # Without the previous week nothing fell, and a week without PRs has no rows to show.
    assert all(r.count for r in context_for(week_prs(), lang).trends)
    assert context_for([], lang, previous=previous).trends == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_trend_tables_key_changes_are_key_prs_only(lang: Lang) -> None:
    context = context_for(week_prs(), lang)
    rows = {(r.kind, r.name): r for r in context.trends}
    assert all(pr.is_key for row in context.trends for pr in row.key_changes)
    assert [pr.number for pr in rows[("module", "fsdp")].key_changes] == [6268, 6350]
    assert rows[("module", "doc")].key_changes == []  # #6330 (importance 0.3) is not key
    markdown = render_report(context, lang, "md")
    [doc_row] = [line for line in markdown.splitlines() if line.startswith("| doc |")]
    assert "#6330" not in doc_row and doc_row.endswith("| — |")


@pytest.mark.parametrize(("lang", "between"), [("zh", "；[#6350]"), ("en", "; [#6350]")])
def test_a_trend_rows_key_changes_are_separated_in_the_reports_language(
    lang: Lang, between: str
) -> None:
    """vllm-ascend's 2026-05-11 zh table read "…moe bug on 310; #9155 Main2main 0514": an
    English semicolon between Chinese-report cells' entries, where every other list has "；"."""
    markdown = render_report(context_for(week_prs(), lang), lang, "md")
    [fsdp_row] = [line for line in markdown.splitlines() if line.startswith("| FSDP |")]
    assert between in fsdp_row
    assert lang == "en" or "; " not in fsdp_row


def test_the_closing_section_does_not_claim_its_labels_have_one_or_two_prs() -> None:
    """A label's group holds only the PRs grouped under it: reward had five PRs in a week whose
    "Other key changes" held two of them, so the lead must not say reward has one or two."""
    more = sections.Group(kind="more", name="more", members=[], shown=[], rest=[])
    assert WORDINGS["en"].group_lead(more, []) == (
        "0 PRs from smaller modules, themes and folders (one or two each here), none of them key."
    )
    assert WORDINGS["zh"].group_lead(more, []) == (
        "其余模块、主题与目录的 0 个 PR（此处各一两个），均非重点。"
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_shows_the_largest_labels_of_either_kind(lang: Lang) -> None:
    """The table lists modules first; the chart's bars are the largest labels of both kinds,
    and its title says when it leaves some out."""
    context = context_for(week_prs(), lang)
    row = context.trends[0]
    modules = [
        row.model_copy(
            update={"kind": "module", "name": f"m{n}", "display": f"m{n}", "count": 3 - n // 10}
        )
        for n in range(MAX_CHART_BARS + 4)
    ]
    theme = row.model_copy(update={"kind": "theme", "name": "NPU", "display": "NPU", "count": 17})
    gone = row.model_copy(update={"name": "worker", "display": "worker", "count": 0, "previous": 3})

    def chart_of(trends: list[TrendRow]) -> str:
        html = render_report(
            context.model_copy(update={"trends": trends}),
            lang,
            "html",
        )
        return html[html.index("<svg") : html.index("</svg>")]

    chart = chart_of([*modules, theme, gone])
    # NPU and the ten modules of 3 PRs; the ten of 2 would not all fit, so none is shown.
    assert ">NPU</text>" in chart and len(re.findall(r">m\d+</text>", chart)) == 10
    assert ">worker</text>" not in chart  # fell to zero: a table row, not a bar of this week
    total = len(modules) + 1
    title = {
        "zh": f"本周 PR 数最多的 11 个模块与主题（共 {total} 个，全部见下表）",
        "en": f"The 11 modules and themes with the most PRs this week"
        f" (of {total}; the table lists all)",
    }[lang]
    assert f'aria-label="{title}"' in chart
    # A tie that would leave the chart less than half full is cut, as the title says.
    tied = [m.model_copy(update={"count": 2}) for m in modules]
    assert len(re.findall(r">m\d+</text>", chart_of([*tied, theme]))) == MAX_CHART_BARS - 1
    # A chart with room for every label keeps the plain title.
    assert LABELS[lang]["chart_title"] in render_report(context, lang, "html")


def test_the_busiest_labels_leave_out_a_tie_the_limit_would_cut() -> None:
    """doc 12, FSDP 11 and four modules with 3: naming one of the four as the third busiest
    would be alphabetical chance."""
    counts = WeekCounts(
        pr_count=43,
        modules={"doc": 12, "fsdp": 11, "ci": 3, "fully_async": 3, "megatron": 3, "model": 3},
        themes={"NPU/Ascend": 17, "Docs": 13, "Multimodal": 4, "Docker": 4, "Async": 3},
    )
    summary = facts.summary(Period.of(WINDOW), [], {}, counts, [], [], True, {})
    assert summary.top_modules == [("doc", 12), ("fsdp", 11)]
    # Docs repeats the doc module; Multimodal and Docker tie for the place left.
    assert summary.top_themes == [("NPU/Ascend", 17)]
    counts = counts.model_copy(update={"themes": {"NPU/Ascend": 17, "Async": 4, "Docker": 4}})
    assert facts.summary(Period.of(WINDOW), [], {}, counts, [], [], True, {}).top_themes == [
        ("NPU/Ascend", 17)
    ]
    tied = WeekCounts(pr_count=4, modules={"a": 1, "b": 1, "c": 1, "d": 1}, themes={"NPU": 2})
    summary = facts.summary(Period.of(WINDOW), [], {}, tied, [], [], True, {})
    assert summary.top_modules == [] and summary.top_themes == [("NPU", 2)]
    summary = dataclasses.replace(summary, pr_count=4)  # the PRs themselves play no part
    # Ties inside the limit are all named.
    even = WeekCounts(pr_count=3, modules={"a": 2, "b": 2, "c": 2})
    assert facts.summary(Period.of(WINDOW), [], {}, even, [], [], True, {}).top_modules == [
        ("a", 2),
        ("b", 2),
        ("c", 2),
    ]
    # With no module named, the themes open the sentence: it starts with a capital.
    [themes] = [p for p in WORDINGS["en"].summary(summary) if "NPU" in p]
    assert themes[0].isupper()


def test_the_busiest_labels_are_a_share_of_the_week() -> None:
    """vllm-ascend's 2026-08-03 (111 PRs) named Multimodal's 2 PRs among the busiest themes;
    a label with one PR is none of the busiest, even in a small week."""
    themes = {"MoE": 11, "Multimodal": 2, "Docker": 1}
    assert facts.busiest(themes, 111) == [("MoE", 11)]
    assert facts.busiest(themes, 43) == [("MoE", 11), ("Multimodal", 2)]
    assert facts.busiest(themes, 6) == [("MoE", 11), ("Multimodal", 2)]
    assert facts.busiest({"Docker": 1}, 1) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_section_of_an_empty_week_says_there_is_nothing(lang: Lang) -> None:
    context = context_for([], lang, ReviewData(available=False))
    markdown = render_report(context, lang, "md")
    sections = re.split(r"^# .*$", markdown, flags=re.MULTILINE)[1:]
    assert len(sections) == 8 and all(body.strip() for body in sections)
    no_prs = LABELS[lang]["no_prs"]
    assert markdown.count(no_prs) == 4  # key changes, trends, quick view, appendix
    html = render_report(context, lang, "html")
    for section in re.findall(r"<section id=.*?</section>", html, flags=re.DOTALL):
        body = re.sub(r"<h2>.*?</h2>", "", section.split(">", 1)[1].rsplit("<", 1)[0])
        assert re.search(r"<p[ >]|<li", body), section
    assert html.count(no_prs) == 4 and "<ul>\n</ul>" not in html


def test_the_report_check_fails_when_a_pr_is_not_linked(tmp_path: Path) -> None:
    """`report_covers_every_pr` reads the stored reports: a PR of the week that a report does
    not link (here one missing from the English Markdown) fails it."""
    prs = week_prs()
    contexts = {lang: context_for(prs, lang) for lang in LANGS}
    rendered = {
        lang: RenderedReport(
            lang=lang,
            markdown=render_report(c, lang, "md"),
            html=render_report(c, lang, "html"),
        )
        for lang, c in contexts.items()
    }
    week = WINDOW.week_start

    def outcome(reports: list[RenderedReport]) -> dict[str, tuple[bool, list[str]]]:
        with connect(tmp_path / "w.duckdb") as con:
            replace_partition(
                con,
                REPO,
                week,
                [
                    *pr_tables(week, prs),
                    *report_tables(REPO, week, reports, contexts["zh"].counts, key_pr_count=0),
                ],
            )
            found = check_reports(con, REPO, [week], ["zh", "en"])
        return {o.name: (o.passed, o.offending) for o in found}

    assert outcome(list(rendered.values()))["report_covers_every_pr"] == (True, [])
    missing = re.sub(r"^.*/pull/6331\b.*$", "", rendered["en"].markdown, flags=re.MULTILINE)
    broken = rendered["en"].model_copy(update={"markdown": missing})
    assert outcome([rendered["zh"], broken])["report_covers_every_pr"] == (
        False,
        [f"{REPO} {week} en md: no link to #6331"],
    )
    assert outcome([rendered["zh"]])["report_in_every_language"] == (
        False,
        [f"{REPO} {week} en"],
    )


@pytest.fixture
def umask() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.usefixtures("umask")
def test_report_files_get_the_mode_a_plain_write_would(tmp_path: Path) -> None:
    """mkstemp made every report 0600, which a web server serving the HTML cannot read."""
    report = RenderedReport(lang="en", markdown="# r\n", html="<p>r</p>\n")
    written = write_report_files(tmp_path, REPO, date(2026, 5, 11), [report])
    assert len(written) == 3
    assert {stat.S_IMODE(path.stat().st_mode) for path in written} == {0o644}
    os.umask(0o027)
    rewritten = write_report_files(tmp_path, REPO, date(2026, 5, 11), [report])
    assert {stat.S_IMODE(path.stat().st_mode) for path in rewritten} == {0o640}
    # Written atomically: nothing but the reports and the index is left in the folder.
    assert sorted(p.name for p in rewritten[0].parent.iterdir()) == sorted(
        p.name for p in rewritten
    )


def test_the_largest_changes_leave_out_a_tie_the_limit_would_cut() -> None:
    """verl 2026-01-05 named LoRA (+4) but not misc (0 → 4) or Multimodal (2 → 6)."""
    counts = WeekCounts(
        pr_count=20, modules={"ckpt": 8, "misc": 4, "model": 5}, themes={"LoRA": 4, "MM": 6}
    )
    previous = WeekCounts(pr_count=9, modules={"ckpt": 1, "model": 1}, themes={"MM": 2})
    prs_of = {name: {i} for i, name in enumerate(["ckpt", "misc", "model", "LoRA", "MM"])}
    assert facts.biggest_changes(counts, previous, prs_of) == [("ckpt", 8, 1)]


def test_a_move_of_one_pr_is_none_of_the_largest_changes() -> None:
    """hiyouga/EasyR1's 2026-07-27, one PR against one, read "The largest changes: Docs-related
    (1 → 0) and checkpoint (0 → 1)", and kept Docs-related's row of zeros for it."""
    counts = WeekCounts(pr_count=1, modules={"checkpoint": 1})
    previous = WeekCounts(pr_count=1, modules={"docs": 1}, themes={"Docs-related": 1})
    prs_of = {"checkpoint": {11007}}
    assert facts.biggest_changes(counts, previous, prs_of) == []
    lead = WORDINGS["en"].trends_lead(counts, previous, prs_of)
    assert lead == ["1 PR this week against 1 the week before (±0)."]
    grown = counts.model_copy(update={"pr_count": 3, "modules": {"checkpoint": 2, "docs": 1}})
    assert facts.biggest_changes(grown, previous, prs_of) == [("checkpoint", 2, 0)]


def test_a_module_and_a_theme_that_hold_each_others_prs_are_one_change() -> None:
    """verl 2026-08-10 named "CI (4 → 9), CI/infrastructure (5 → 9), and Megatron (6 → 10)";
    ms-swift 2026-03-09 "Docs (11 → 17), NPU/Ascend (0 → 6), and docs (8 → 13)"."""
    counts = WeekCounts(
        pr_count=34,
        modules={"ci": 9, "megatron": 10, "doc": 5},
        themes={"CI/infrastructure": 9, "Docs": 2},
    )
    previous = WeekCounts(
        pr_count=27,
        modules={"ci": 4, "megatron": 6, "doc": 1},
        themes={"CI/infrastructure": 5, "Docs": 5},
    )
    ci = set(range(9))
    prs_of = {
        "ci": ci,
        "CI/infrastructure": ci,
        "megatron": set(range(10, 20)),
        "doc": set(range(20, 25)),
        "Docs": {20, 21},  # among doc's PRs, but it went the other way: its own change
    }
    assert facts.biggest_changes(counts, previous, prs_of) == [
        ("ci", 9, 4),
        ("doc", 5, 1),
        ("megatron", 10, 6),
    ]
    prs_of["CI/infrastructure"] = ci | {30}
    assert ("CI/infrastructure", 9, 5) not in facts.biggest_changes(counts, previous, prs_of)


def test_a_module_and_a_theme_of_one_name_that_fell_alike_are_one_change() -> None:
    """tilelang 2026-08-10: "AMD/ROCm (6 → 1), Docs (5 → 0), and docs (5 → 0)". Gone to zero,
    they have no PRs to compare by; their name says they are one. slime 2025-09-29 read
    "Docker (4 → 1), Docker (3 → 0)": a module and a theme spelt alike are one change, whatever
    their moves. Of two names for one thing, one that moved otherwise is its own change."""
    counts = WeekCounts(pr_count=25, modules={"cuda": 4}, themes={"AMD/ROCm": 1})
    previous = WeekCounts(
        pr_count=41, modules={"docs": 5, "cuda": 4, "perf": 3}, themes={"AMD/ROCm": 6, "Docs": 5}
    )
    prs_of = {"cuda": {1, 2, 3, 4}, "AMD/ROCm": {5}}
    assert facts.biggest_changes(counts, previous, prs_of) == [
        ("AMD/ROCm", 1, 6),
        ("Docs", 0, 5),
        ("perf", 0, 3),
    ]
    docker = WeekCounts(pr_count=9, modules={"Docker": 1, "fsdp": 2}, themes={"Docker": 1})
    before = WeekCounts(pr_count=9, modules={"Docker": 4}, themes={"Docker": 3})
    both = {"Docker": {1}, "fsdp": {2, 3}}
    assert facts.biggest_changes(docker, before, both) == [("Docker", 1, 4), ("fsdp", 2, 0)]
    apart = WeekCounts(pr_count=9, modules={"perf": 3}, themes={"Performance": 2})
    assert facts.biggest_changes(WeekCounts(pr_count=1), apart, {}) == [
        ("perf", 0, 3),
        ("Performance", 0, 2),
    ]


def test_a_title_is_shown_without_its_closing_stop() -> None:
    """mmengine #609's quick view read "... the deprecated function.**: importance 9.5"; verl
    #294 ("Fix wrongs args desc .") kept the space before its stop: "desc  |" in the appendix."""
    pr = make_pr(6801, "[fsdp] feat: mark deprecated functions.", files=[("verl/a.py", 500, 0)])
    dotted = make_pr(6802, "[fsdp] feat: and so on...", files=[("verl/b.py", 500, 0)])
    spaced = make_pr(6805, "[fsdp] fix: wrong args desc .", files=[("verl/c.py", 500, 0)])
    MODULES.update({6801: ["fsdp"], 6802: ["fsdp"], 6805: ["fsdp"]})
    try:
        context = context_for([pr, dotted, spaced], "en")
    finally:
        del MODULES[6801], MODULES[6802], MODULES[6805]
    titles = {item.pr.number: item.pr.title for item in context.quick_view}
    assert titles == {
        6801: "[fsdp] feat: mark deprecated functions",
        6802: "[fsdp] feat: and so on...",
        6805: "[fsdp] fix: wrong args desc",
    }


def test_a_title_is_shown_without_its_own_number() -> None:
    """pytorch/torchtitan #4106 landed as "Add Muse Glimmer (30B) model and integration tests
    (#4106) (#4106)": its title read "... tests (#4106)" beside its own link. Another
    number at the end stays: it names what the PR fixes."""
    own = make_pr(6803, "[fsdp] feat: add a model (#6803)", files=[("verl/a.py", 500, 0)])
    other = make_pr(6804, "[fsdp] fix: the crash (#6790)", files=[("verl/b.py", 500, 0)])
    MODULES.update({6803: ["fsdp"], 6804: ["fsdp"]})
    try:
        context = context_for([own, other], "en")
    finally:
        del MODULES[6803], MODULES[6804]
    shown = {item.pr.number: (item.pr.title, item.pr.subject) for item in context.quick_view}
    assert shown == {
        6803: ("[fsdp] feat: add a model", "add a model"),
        6804: ("[fsdp] fix: the crash (#6790)", "the crash (#6790)"),
    }


def test_the_appendix_lists_modules_not_type_tags() -> None:
    """tilelang's appendix said "#2725 | feature | feature" beside "24 PRs without a module"."""
    pr = make_pr(6800, "[Feature] Add lower-trace support", files=[("tools/t.py", 30, 1)])
    MODULES[6800] = ["feature"]
    try:
        markdown = render_report(context_for([*week_prs(), pr], "en"), "en", "md")
    finally:
        del MODULES[6800]
    (row,) = [line for line in markdown.splitlines() if line.startswith("| [#6800]")]
    assert row.split(" | ")[3] == "—"


@pytest.mark.parametrize(
    ("lang", "cell"), [("en", "310p, performance"), ("zh", "310p、performance")]
)
def test_the_appendix_lists_a_prs_modules_as_the_reports_language_lists(
    lang: Lang, cell: str
) -> None:
    """vllm-ascend's 2026-05-11 zh appendix listed "310p, performance" with the English ", ",
    where every other list of the report has "、". The tags stay as stored (a7f6941)."""
    pr = make_pr(6801, "[Performance][310P] Optimize M-RoPE", files=[("verl/rope.py", 30, 1)])
    MODULES[6801] = ["310p", "performance"]
    try:
        context = context_for([*week_prs(), pr], lang)
    finally:
        del MODULES[6801]
    markdown = render_report(context, lang, "md").splitlines()
    (row,) = [line for line in markdown if line.startswith("| [#6801]")]
    assert row.split(" | ")[3] == cell
    html = render_report(context, lang, "html").splitlines()
    (row,) = [line for line in html if line.startswith("<tr>") and ">#6801</a>" in line]
    assert f"<td>{cell}</td>" in row


def test_a_gathered_prs_label_is_left_out_when_it_only_names_its_type() -> None:
    # vllm-ascend 2026-08-10: "performance · performance: Optimized Kernel ...".
    score = PrScore(number=1, importance=8.4, raw_score=8.4, parts={}, is_key=True, pr_type="perf")
    tuned = _key_ref(1, "performance", 8.4).model_copy(
        update={"pr_type": "perf", "type_name": "performance"}
    )
    for lang in ("en", "zh"):
        words = WORDINGS[lang]
        for label in ("performance", "Performance", "perf"):
            assert words.labelled_item_text(label, tuned, score) == words.item_text(tuned, score)
        # A place keeps its label: `ci` and `misc` are where, not what kind.
        for label in ("ci", "misc", "rollout"):
            assert words.labelled_item_text(label, tuned, score).startswith(
                words.display_name(label) + " · "
            )


@pytest.mark.parametrize(
    ("title", "pr_type", "type_name", "en", "zh"),
    [
        # ColossalAI #3238 read "fix: Fix pre-commit workflow".
        ("[CI] Fix pre-commit workflow", "fix", "fix", "Fix pre-commit", "修复：Fix pre-commit"),
        ("[cli] refactored the launch CLI", "refactor", "refactor", "Refactored the", "重构："),
        ("[fsdp] fix: hotfix the seed", "fix", "fix", "Hotfix the seed", "修复：hotfix"),
        # The first word says another type, or none: the type stays.
        ("[doc] fix typo in README", "doc", "docs", "docs: fix typo", "文档：fix typo"),
        ("[fsdp] feat: shard the optimizer", "feat", "feature", "feature: shard", "功能：shard"),
        # A verb that only suggests the type (ColossalAI #3261).
        ("[autoparallel] adapt to the analyzer", "fix", "fix", "fix: adapt", "修复：adapt"),
        # No known type says nothing, in either language (trl #6349 read "other: Environment-
        # owned dataset: ...", torch-mlir's "emit ..." titles "其他：emit ...").
        ("[fsdp] emit aten.celu", "other", "other", "emit aten.celu (", "emit aten.celu（"),
    ],
)
def test_an_item_leaves_out_its_type_when_its_subject_says_it(
    title: str, pr_type: PrType, type_name: str, en: str, zh: str
) -> None:
    score = PrScore(number=1, importance=8.0, raw_score=8.0, parts={}, is_key=True, pr_type=pr_type)
    ref = _key_ref(1, "fsdp", 8.0).model_copy(
        update={"title": title, "pr_type": pr_type, "type_name": type_name}
    )
    assert WORDINGS["en"].item_text(ref, score).startswith(en)
    zh_ref = ref.model_copy(update={"type_name": zh.partition("：")[0]})
    assert WORDINGS["zh"].item_text(zh_ref, score).startswith(zh)


@pytest.mark.parametrize(("lang", "type_name"), [("en", "revert"), ("zh", "回退")])
def test_a_revert_item_is_not_typed_again(lang: Lang, type_name: str) -> None:
    """verl #6360 read "回退：Revert "[fsdp] fix: ..."（重要性 8.8）。回退 #6350。"."""
    score = PrScore(
        number=1, importance=8.8, raw_score=8.8, parts={}, is_key=True, pr_type="revert"
    )
    title = 'Revert "[fsdp] fix: emit distillation outputs (#6293)"'
    ref = _key_ref(1, "fsdp", 8.8).model_copy(
        update={"title": title, "pr_type": "revert", "type_name": type_name}
    )
    text = WORDINGS[lang].item_text(ref, score)
    assert text.startswith('Revert "[fsdp] fix: emit distillation outputs')
    assert type_name not in text.partition('"')[0]


@pytest.mark.parametrize(("lang", "names"), [("zh", {"doc": "文档"}), ("en", {"doc": "Docs"})])
def test_a_module_is_named_as_the_repository_names_it(lang: Lang, names: dict[str, str]) -> None:
    plain = render_report(context_for(week_prs(), lang), lang, "md")
    context = context_for(week_prs(), lang, display_names=names)
    named = render_report(context, lang, "md")
    trend = {row.name: row.display for row in context.trends}
    assert trend["doc"] == names["doc"] and trend["fsdp"] == "FSDP"
    # The trend table's row names it; the appendix lists the PR's tags as stored.
    assert plain.count("| doc |") == named.count("| doc |") + 1
    assert f"| {names['doc']} |" in named


def _unlabelled_ref(number: int, places: list[str | None], is_key: bool = False) -> PrRef:
    return _key_ref(number, "bugfix", 8.0 if is_key else 3.0, is_key).model_copy(
        update={"modules": ["bugfix"], "places": places}
    )


@pytest.mark.parametrize(
    ("lang", "heading", "lead"),
    [
        (
            "en",
            "Unlabelled changes in src/transform/",
            "3 PRs this week in no module's or theme's section that change code mostly in"
            " src/transform/ (3 features), none of them key.",
        ),
        (
            "zh",
            "src/transform/ 下的未归类变更",
            "本周未归入任何模块或主题小节、代码改动主要在 src/transform/ 的 PR 3 个"
            "（全部为新功能），均非重点。",
        ),
    ],
)
def test_a_folders_section_names_the_folder(lang: Lang, heading: str, lead: str) -> None:
    refs = [_unlabelled_ref(n, ["src/transform/", "src/transform/"]) for n in range(3)]
    group = sections.Group(kind="place", name="src/transform/", members=refs, shown=refs, rest=[])
    words = WORDINGS[lang]
    assert words.group_heading(group) == heading
    assert words.group_lead(group, []) == lead


@pytest.mark.parametrize(
    ("lang", "heading", "lead"),
    [
        (
            "en",
            "Other unlabelled changes",
            "2 more PRs this week in no module's, theme's or folder's section (2 features), 1 of"
            " them key.",
        ),
        (
            "zh",
            "其他未归类变更",
            "本周其余未归入任何模块、主题或目录小节的 PR 2 个（全部为新功能），其中重点 1 个。",
        ),
    ],
)
def test_the_unlabelled_prs_beside_folders_sections_say_they_are_the_rest(
    lang: Lang, heading: str, lead: str
) -> None:
    """vllm-ascend's 2026-08-10 read "10 PRs this week not filed under a module or theme"
    above "Unlabelled changes in vllm_ascend/worker/" with three more."""
    folder = "src/transform/"
    refs = [_unlabelled_ref(n, [folder, folder]) for n in range(sections.MIN_PLACED_PRS - 2)]
    refs += [_unlabelled_ref(10, [None, None], is_key=True), _unlabelled_ref(11, [None, None])]
    found = {(g.kind, g.name): g for g in sections.groups(refs, {}, [], {})}
    assert set(found) == {("place", folder), ("other", sections.BESIDE_PLACES)}
    words = WORDINGS[lang]
    rest = found["other", sections.BESIDE_PLACES]
    assert words.group_heading(rest) == heading
    assert words.group_lead(rest, []) == lead
    # Without folders' sections the unlabelled are all there is.
    alone = sections.groups(refs[-2:], {}, [], {})
    assert [words.group_heading(g) for g in alone] == [words.unlabelled]


@pytest.mark.parametrize(
    ("lang", "observation", "suggestion"),
    [
        (
            "en",
            "1 PR skipped or disabled tests: #6500 temporarily skip graph mode precision e2e test"
            " (.github/workflows/scripts/test_config.yaml). Until they are switched back on,"
            " nothing checks what they covered.",
            "Re-enable the tests #6500 skipped or disabled once their cause is fixed",
        ),
        (
            "zh",
            "1 个 PR 跳过或停用了测试：#6500 temporarily skip graph mode precision e2e test"
            "（.github/workflows/scripts/test_config.yaml）。重新启用之前，这些测试原本覆盖的"
            "内容无人检查。",
            "问题修复后重新启用 #6500 跳过或停用的测试",
        ),
    ],
)
def test_skipped_tests_are_a_risk_with_a_follow_up(
    lang: Lang, observation: str, suggestion: str
) -> None:
    skip = make_pr(
        6500,
        "[ci] test: temporarily skip graph mode precision e2e test",
        files=[(".github/workflows/scripts/test_config.yaml", 8, 0)],
    )
    MODULES[6500] = ["ci"]
    try:
        context = context_for([*week_prs(), skip], lang)
    finally:
        del MODULES[6500]
    [disabled] = [r for r in context.risks if r.risk == "tests_disabled"]
    assert re.sub(r"\[(#\d+)\]\([^)]*\)", r"\1", disabled.text) == observation
    assert any(s.startswith(suggestion) for s in context.suggestions)


@contextmanager
def labelled(modules: dict[int, list[str]]) -> Iterator[None]:
    """The test PRs' modules added to MODULES for the block, and taken out after it."""
    MODULES.update(modules)
    try:
        yield
    finally:
        for number in modules:
            del MODULES[number]


# ---------------------------------------------------------------------------------------------
# Busy files

ENGINE = "verl/workers/engine_workers.py"
TRAINER = "verl/trainer/ray_trainer.py"


def busy_week() -> tuple[list[PullRequest], list[PullRequest]]:
    """A week whose PRs crowd code files, some about as much as usual and two far more, and
    the stored history before it (which reaches more than twelve weeks back)."""
    support = [("docs/engine.md", 4, 1), ("tests/test_engine.py", 20, 0), ("examples/run.sh", 2, 0)]
    week = [
        make_pr(n, f"[fsdp] fix: engine {n}", files=[(ENGINE, 10, 2), (TRAINER, 3, 1), *support])
        for n in (7001, 7002, 7003, 7004)
    ]
    week += [
        make_pr(n, f"[fsdp] feat: new {n}", files=[("verl/new.py", 30, 0)])
        for n in (7005, 7006, 7007)
    ]
    week += [
        make_pr(n, f"[fsdp] fix: two {n}", files=[("verl/two.py", 3, 0), ("verl/often.py", 2, 1)])
        for n in (7008, 7009)
    ]
    week.append(make_pr(7010, "[fsdp] fix: often", files=[("verl/often.py", 2, 1)]))
    history = [
        make_pr(
            6000 + k,
            "[fsdp] fix: earlier",
            files=[(TRAINER, 5, 1)],
            merged_at=MERGED - timedelta(days=3 + 2 * k),
        )
        for k in range(36)
    ]
    history += [
        make_pr(
            6100 + k,
            "[fsdp] fix: engine",
            files=[(ENGINE, 5, 1)],
            merged_at=MERGED - timedelta(weeks=1 + k),
        )
        for k in range(6)
    ]
    history += [
        make_pr(
            6200 + k,
            "[fsdp] fix: often",
            files=[("verl/often.py", 1, 1)],
            merged_at=MERGED - timedelta(days=4 + 5 * k),
        )
        for k in range(15)
    ]
    history.append(make_pr(5000, "[fsdp] feat: first", merged_at=MERGED - timedelta(weeks=30)))
    return week, history


def test_busy_files_are_code_files_more_prs_changed_than_usual() -> None:
    """verl's engine_workers.py had 7 PRs in its week of 2026-03-30 against 2.4 a week over the
    twelve before. Docs, tests and code outside the core paths are no busy files; a file as
    busy as usual (ray_trainer.py: 4 PRs against 3 a week) is none either, nor one below the
    week's minimum (two PRs), nor one whose three PRs are more than twice its usual 1.25 a week
    but come that often by chance (one week in eight)."""
    week, history = busy_week()
    busy = facts.busy_files(week, history, WINDOW, CONFIG)
    assert [(f.path, f.numbers, round(f.usual, 2)) for f in busy] == [
        (ENGINE, [7001, 7002, 7003, 7004], 0.5),
        ("verl/new.py", [7005, 7006, 7007], 0.0),
    ]
    # Without core paths every code file counts, examples too; docs and tests still do not.
    anywhere = facts.busy_files(week, history, WINDOW, ScoringConfig())
    assert [f.path for f in anywhere] == ["examples/run.sh", ENGINE, "verl/new.py"]
    # A week of 40 PRs needs 4 of them on a file.
    crowd = [
        make_pr(7100 + n, "[fsdp] fix: elsewhere", files=[(f"verl/x{n}.py", 1, 0)])
        for n in range(40 - len(week))
    ]
    assert [f.path for f in facts.busy_files(week + crowd, history, WINDOW, CONFIG)] == [ENGINE]
    # A history that does not reach twelve weeks back cannot say what is usual.
    recent = [pr for pr in history if pr.number != 5000]
    assert facts.busy_files(week, recent, WINDOW, CONFIG) == []
    assert facts.busy_files([], history, WINDOW, CONFIG) == []


def test_a_busy_file_renamed_this_week_is_compared_with_its_prs_under_its_old_name() -> None:
    """torchtitan #3451 renamed grpo.py to trainer.py, and its week read "trainer.py, 7 PRs
    ... and none in the previous 12 weeks": grpo.py had 14. A file gone before the rename
    took its name was another file."""
    renamed = make_pr(7002, "[rl] refactor: grpo.py into trainer.py").model_copy(
        update={
            "files": [
                FileChange(
                    path="verl/trainer.py",
                    previous_path="verl/grpo.py",
                    status="renamed",
                    additions=20,
                    deletions=30,
                )
            ],
            "merged_at": MERGED + timedelta(hours=1),
        }
    )
    week = [
        make_pr(7001, "[rl] fix: before the rename", files=[("verl/grpo.py", 3, 1)]),
        renamed,
        *(
            make_pr(
                n,
                f"[rl] fix: after {n}",
                files=[("verl/trainer.py", 3, 1)],
                merged_at=MERGED + timedelta(hours=2),
            )
            for n in (7003, 7004)
        ),
    ]
    weeks_ago = [MERGED - timedelta(weeks=k) for k in range(1, 12)]
    history = [
        make_pr(6000 + k, "[rl] fix: grpo", files=[("verl/grpo.py", 2, 1)], merged_at=when)
        for k, when in enumerate(weeks_ago[:6])
    ]
    history += [
        make_pr(6100 + k, "[rl] fix: old", files=[("verl/trainer.py", 2, 1)], merged_at=when)
        for k, when in enumerate(weeks_ago[8:])
    ]
    history.append(make_pr(5000, "[rl] feat: first", merged_at=MERGED - timedelta(weeks=30)))
    busy = facts.busy_files(week, history + week, WINDOW, CONFIG)
    assert [(f.path, f.numbers, f.usual) for f in busy] == [
        ("verl/trainer.py", [7001, 7002, 7003, 7004], 0.5)
    ]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_trends_name_the_busy_files_with_their_prs(lang: Lang) -> None:
    week, history = busy_week()
    with labelled({pr.number: ["fsdp"] for pr in week}):
        context = context_for(
            week, lang, previous=WeekCounts(pr_count=5), scoring=CONFIG, history=history
        )
        markdown = render_report(context, lang, "md")
        html = render_report(context, lang, "html")
    expected = {
        "zh": (
            f"本周改动以下代码文件的 PR 明显多于平时：{ENGINE}（#7001、#7002、#7003 等 4 个 PR；"
            "此前 12 周平均每周 0.5 个）；verl/new.py（#7005、#7006、#7007；"
            "此前 12 周没有 PR 改动过）。"
        ),
        "en": (
            f"Code files changed by more PRs than usual: {ENGINE}, 4 PRs (#7001, #7002, #7003 and 1"
            " more) against 0.5 a week over the previous 12 weeks; verl/new.py, 3 PRs (#7005,"
            " #7006, #7007) and none in the previous 12 weeks."
        ),
    }[lang]
    assert expected in context.trends_lead
    link = "[#7001](https://github.com/verl-project/verl/pull/7001)"
    assert f"{ENGINE}{'（' if lang == 'zh' else ', 4 PRs ('}{link}" in markdown
    assert '<a href="https://github.com/verl-project/verl/pull/7005">#7005</a>' in html
    # Without the history the usual is unknown, and nothing is said.
    assert not any("12" in line for line in context_for(week, lang).trends_lead)


# ---------------------------------------------------------------------------------------------
# Changes of core code with tests


def core_change(number: int, tested: bool, merged_at: datetime = MERGED) -> PullRequest:
    files = [("verl/workers/engine.py", 30, 4)]
    if tested:
        files.append(("tests/test_engine.py", 12, 0))
    return make_pr(number, f"[fsdp] fix: core {number}", files=files, merged_at=merged_at)


def test_core_testing_counts_the_weeks_core_changes_with_tests_against_the_weeks_before() -> None:
    week = [core_change(n, tested=n % 2 == 0) for n in range(7201, 7205)]  # 2 of 4 tested
    earlier = [
        core_change(7300 + k, tested=k % 4 == 0, merged_at=MERGED - timedelta(days=3 + 5 * k))
        for k in range(12)
    ]  # 3 of 12 tested, all within twelve weeks
    old = core_change(7000, tested=True, merged_at=MERGED - timedelta(weeks=20))

    def tested(pr: PullRequest) -> bool | None:
        return core_tests(pr, CONFIG)

    testing = facts.core_testing(week, tested, [*earlier, old], WINDOW, 10)
    assert testing == facts.CoreTesting(10, 4, 2, 12, 3)
    # Too few earlier changes, or a history that does not reach back: this week's alone.
    alone = facts.CoreTesting(10, 4, 2)
    assert facts.core_testing(week, tested, [*earlier[:9], old], WINDOW, 10) == alone
    assert facts.core_testing(week, tested, earlier, WINDOW, 10) == alone
    # Under three changes of core code a share says little: nothing.
    assert facts.core_testing(week[:2], tested, [*earlier, old], WINDOW, 10) is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_risk_observations_say_how_many_core_changes_came_with_tests(lang: Lang) -> None:
    week = [core_change(n, tested=n % 2 == 0) for n in range(7201, 7205)]
    earlier = [
        core_change(7300 + k, tested=k % 4 == 0, merged_at=MERGED - timedelta(days=3 + 5 * k))
        for k in range(12)
    ]
    history = [*earlier, core_change(7000, tested=True, merged_at=MERGED - timedelta(weeks=20))]
    with labelled({pr.number: ["fsdp"] for pr in week}):
        context = context_for(week, lang, scoring=CONFIG, history=history)
        alone = context_for(week, lang, scoring=CONFIG)
        unconfigured = context_for(week, lang)
    note = {
        "zh": (
            "本周改动核心代码 10 行以上的 4 个 PR 中，2 个同时新增或修改了测试（50%），"
            "此前 12 周为 25%（12 个中 3 个）。"
        ),
        "en": (
            "2 of the week's 4 PRs that changed 10 or more lines of core code also added or"
            " changed tests (50%), against 25% over the previous 12 weeks (3 of 12)."
        ),
    }[lang]
    assert context.risk_notes[0] == note
    assert alone.risk_notes[0] == note.split("，此前")[0].split(", against")[0] + (
        "。" if lang == "zh" else "."
    )
    assert note in render_report(context, lang, "md")
    # Without core paths nothing is core: the note says the check was not made instead.
    assert WORDINGS[lang].note_without_core_paths in unconfigured.risk_notes
    assert not any("%" in n for n in unconfigured.risk_notes)


# ---------------------------------------------------------------------------------------------
# Review coverage


def review(number: int, author: str | None, state: str, bot: bool = False) -> Review:
    return Review(
        repo=REPO,
        pr_number=number,
        review_id=f"r{number}-{author}-{state}",
        author=author,
        author_is_bot=bot,
        state=state,
    )


def thread(number: int, *comments: tuple[str | None, bool, bool]) -> ReviewThread:
    """A review thread of (author, is a bot, is the PR's author) comments, in order."""
    return ReviewThread(
        repo=REPO,
        pr_number=number,
        thread_id=f"t{number}-{len(comments)}-{comments[0][0]}",
        comments=[
            ThreadComment(comment_id=f"c{i}", author=a, author_is_bot=b, is_pr_author=own)
            for i, (a, b, own) in enumerate(comments)
        ],
    )


def reviewed_week() -> tuple[list[PullRequest], ReviewData]:
    week = [
        make_pr(
            n,
            f"[fsdp] fix: change {n}",
            author="alice",
            created_at=None if n == 7504 else MERGED - timedelta(hours=10 * (n - 7500)),
        )
        for n in range(7501, 7506)
    ]  # open 10, 20, 30 and 50 hours (7504: unknown)
    data = ReviewData(
        available=True,
        reviews=[
            review(7501, "bob", "APPROVED"),
            review(7502, "gemini-code-assist[bot]", "COMMENTED"),
            review(7502, "carol", "CHANGES_REQUESTED"),
            review(7503, "alice", "COMMENTED"),  # the author's replies in a thread
            review(7504, "approver", "APPROVED", bot=True),
            review(7999, "dave", "APPROVED"),  # another week's PR
        ],
        threads=[
            thread(7502, ("gemini-code-assist[bot]", True, False), ("alice", False, True)),
            thread(7502, ("carol", False, False)),
            thread(7503, ("alice", False, True)),
            thread(7505, ("bob", False, False), ("alice", False, True)),
            thread(7999, ("dave", False, False)),
        ],
    )
    return week, data


def test_review_coverage_counts_the_reviews_of_people_other_than_the_author() -> None:
    week, data = reviewed_week()
    # 7501 (bob approved), 7502 (carol), 7505 (bob in a thread); not 7503 (its author alone)
    # nor 7504 (a bot's approval); 7999 is not the week's.
    reviewing = facts.reviewing_by_pr(week, data)
    assert reviewing is not None
    assert facts.review_coverage(reviewing) == facts.ReviewCoverage(
        prs=5, reviewed=3, approved=1, reviewers=2, threads=4, bot_threads=1
    )
    assert facts.review_coverage(reviewing, week) == facts.ReviewCoverage(
        prs=5,
        reviewed=3,
        approved=1,
        reviewers=2,
        threads=4,
        bot_threads=1,
        median_hours_to_merge=25.0,
    )
    assert reviewing[7502] == facts.PrReviewing(
        reviewers=["carol"], approvers=[], change_requesters=["carol"], threads=2, bot_threads=1
    )
    assert reviewing[7503] == facts.PrReviewing([], [], [], threads=1, bot_threads=0)
    # Thread excerpts without any submitted review say nothing of approvals.
    excerpts = facts.reviewing_by_pr(week, data.model_copy(update={"reviews": []}))
    assert excerpts is not None and not excerpts[7501].reviews_known
    assert facts.review_coverage(excerpts) == facts.ReviewCoverage(
        prs=5, reviewed=2, approved=None, reviewers=2, threads=4, bot_threads=1
    )
    assert facts.reviewing_by_pr(week, ReviewData(available=False)) is None
    assert facts.review_coverage(facts.reviewing_by_pr([], data)) is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_summary_says_who_reviewed_the_weeks_prs(lang: Lang) -> None:
    week, data = reviewed_week()
    with labelled({pr.number: ["fsdp"] for pr in week}):
        summary = context_for(week, lang, review_data=data).summary
        without = context_for(week, lang, review_data=ReviewData(available=False)).summary
    line = {
        "zh": (
            "评审：5 个 PR 中 3 个经作者以外的人评审（评审人 2 位），1 个获得批准；"
            "评审讨论 4 条，其中 1 条由机器人发起；从创建到合并的中位时长 25.0 小时。"
        ),
        "en": (
            "Reviews: 3 of 5 PRs reviewed by someone other than their author (2 reviewers),"
            " 1 approved; 4 review threads, 1 of them opened by a bot; a median of 25.0 hours"
            " from opening to merge."
        ),
    }[lang]
    assert summary[-1] == line
    assert summary[-1] != without[-1] == WORDINGS[lang].summary_without_reviews
    words = WORDINGS[lang]
    bots_only = facts.ReviewCoverage(
        prs=1, reviewed=0, approved=0, reviewers=0, threads=1, bot_threads=1
    )
    assert (
        words.review_coverage_sentence(bots_only)
        == {
            "zh": (
                "评审：1 个 PR 中 0 个经作者以外的人评审，0 个获得批准；"
                "评审讨论 1 条，由机器人发起。"
            ),
            "en": (
                "Reviews: 0 of 1 PRs reviewed by someone other than their author, 0 approved;"
                " 1 review thread, opened by a bot."
            ),
        }[lang]
    )
    quiet = facts.ReviewCoverage(
        prs=2, reviewed=1, approved=None, reviewers=1, threads=0, bot_threads=0
    )
    assert (
        words.review_coverage_sentence(quiet)
        == {
            # Threads without submitted reviews tell who took part, not who reviewed.
            "zh": (
                "评审（数据只含评审讨论，不含提交的评审）：2 个 PR 中 1 个有作者以外的人参与讨论"
                "（参与者 1 位）。"
            ),
            "en": (
                "Reviews (the data holds review threads, not submitted reviews): 1 of 2 PRs"
                " discussed by someone other than their author (1 participant)."
            ),
        }[lang]
    )


def test_the_share_approved_compares_with_the_prs_of_the_weeks_before() -> None:
    week, data = reviewed_week()
    reviewing = facts.reviewing_by_pr(week, data)
    approved = facts.PrReviewing(["bob"], ["bob"], [], threads=0, bot_threads=0)
    unreviewed = facts.PrReviewing([], [], [], threads=0, bot_threads=0)
    earlier = [
        make_pr(7400 + k, merged_at=MERGED - timedelta(days=3 + 7 * k)) for k in range(14)
    ]  # the last two merged more than twelve weeks before
    reviewed = {pr.number: approved if pr.number % 4 else unreviewed for pr in earlier}
    before = facts.reviewing_before(reviewed, [*earlier, *week], WINDOW)
    assert len(before) == 12  # neither the week's own PRs nor those older than twelve weeks
    coverage = facts.review_coverage(reviewing, week, before)
    assert coverage is not None and (coverage.earlier_prs, coverage.earlier_approved) == (12, 9)
    # Under ten earlier PRs with review data, or thread excerpts only: nothing to compare.
    few = facts.review_coverage(reviewing, week, before[:9])
    assert few is not None and few.earlier_prs is None and few.earlier_approved is None
    excerpts = [dataclasses.replace(r, reviews_known=False) for r in before]
    unknown = facts.review_coverage(reviewing, week, excerpts)
    assert unknown is not None and unknown.earlier_prs is None
    line = {
        "zh": "1 个获得批准（20%，此前 12 周为 75%）；",
        "en": ", 1 approved (20%, against 75% over the previous 12 weeks); ",
    }
    for lang, words in WORDINGS.items():
        assert line[lang] in words.review_coverage_sentence(coverage)


def test_the_trends_name_the_weeks_most_active_reviewers() -> None:
    def reviewed_by(*logins: str | None) -> facts.PrReviewing:
        return facts.PrReviewing(list(logins), [], [], threads=0, bot_threads=0)

    reviewing = {
        1: reviewed_by("bob", "carol", None),
        2: reviewed_by("carol", "bob"),
        3: reviewed_by("carol", "dave", None),
        4: reviewed_by("erin"),
        5: reviewed_by("dave", "frank"),
        6: reviewed_by("frank", "gina"),
        7: reviewed_by("gina", "hank"),
        8: reviewed_by("hank", "ivan"),
        9: reviewed_by("ivan"),
    }
    # From two PRs each, most first, ties by login, at most three; deleted accounts and
    # one-PR reviewers are not named.
    assert facts.busiest_reviewers(reviewing) == [("carol", 3), ("bob", 2), ("dave", 2)]
    assert facts.busiest_reviewers({4: reviewed_by("erin")}) == []
    assert facts.busiest_reviewers(None) == []
    busiest = [("carol", 3), ("bob", 2)]
    assert WORDINGS["en"].reviewers_note(busiest) == [
        "The week's most active reviewers: carol (3 PRs) and bob (2 PRs)."
    ]
    assert WORDINGS["zh"].reviewers_note(busiest) == [
        "本周评审 PR 最多的是 carol（3 个 PR）、bob（2 个 PR）。"
    ]
    assert WORDINGS["en"].reviewers_note([]) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_key_prs_at_a_glance_say_who_reviewed_each(lang: Lang) -> None:
    week, data = reviewed_week()
    with labelled({pr.number: ["fsdp"] for pr in week}):
        quick = context_for(week, lang, review_data=data).quick_view
        without = context_for(week, lang, review_data=ReviewData(available=False)).quick_view
    assert all(item.review for item in quick) and not any(item.review for item in without)
    words = WORDINGS[lang]
    cases = {
        "7502": facts.PrReviewing(["carol"], [], ["carol"], threads=2, bot_threads=1),
        "many": facts.PrReviewing(["a", "b", "c", "d", None], ["a", "b", "c", "d"], [], 3, 0),
        "7505": facts.PrReviewing(["bob"], [], [], threads=1, bot_threads=0),
        "7503": facts.PrReviewing([], [], [], threads=2, bot_threads=2),
        "6334": facts.PrReviewing([], [], [], threads=1, bot_threads=1),
    }
    notes = {name: words.quick_review_note(reviewing) for name, reviewing in cases.items()}
    assert (
        notes
        == {
            "zh": {
                "7502": "（评审：carol 要求修改；讨论 2 条，其中 1 条由机器人发起）",
                "many": "（评审：a、b、c 等 4 位批准；讨论 3 条）",
                "7505": "（评审：bob 评审；讨论 1 条）",
                "7503": "（评审：无作者以外的评审；讨论 2 条，均由机器人发起）",
                "6334": "（评审：无作者以外的评审；讨论 1 条，由机器人发起）",
            },
            "en": {
                "7502": (
                    " (review: changes requested by carol; 2 threads, 1 of them opened by a bot)"
                ),
                "many": " (review: approved by a, b, c and 1 more; 3 threads)",
                "7505": " (review: reviewed by bob; 1 thread)",
                "7503": (
                    " (review: none by anyone but its author; 2 threads, all of them opened"
                    " by bots)"
                ),
                "6334": " (review: none by anyone but its author; 1 thread, opened by a bot)",
            },
        }[lang]
    )
    assert words.quick_review_note(None) == ""
    # Thread excerpts (no submitted reviews at all) leave a PR without threads unspoken for.
    unknown = facts.PrReviewing([], [], [], threads=0, bot_threads=0, reviews_known=False)
    assert words.quick_review_note(unknown) == ""


# ---------------------------------------------------------------------------------------------
# Contributors


def authored(
    number: int, author: str, key: str | None, merged_at: datetime = MERGED
) -> PullRequest:
    pr = make_pr(number, f"[fsdp] fix: by {author}", merged_at=merged_at)
    return pr.model_copy(update={"author": author, "author_key": key})


def contributors_week() -> tuple[list[PullRequest], list[PullRequest]]:
    week = [
        authored(7401, "NIE SHIYU", "xiazhahe"),  # committed as "xiazhahe" before
        authored(7402, "Bob", "bob@example.com"),
        authored(7403, "Carol", "carol@example.com"),
        authored(7404, "Bob", "bob@example.com"),
        authored(7405, "alice", "alice@example.com"),
        authored(7406, "dependabot[bot]", None),
    ]
    history = [
        authored(7001, "xiazhahe", "xiazhahe", MERGED - timedelta(weeks=3)),
        authored(7002, "alice", "alice@old.example", MERGED - timedelta(weeks=20)),
    ]
    return week, history


def test_contributors_are_new_under_no_name_or_address_they_used_before() -> None:
    week, history = contributors_week()
    found = facts.contributors(week, history, WINDOW)
    assert found == facts.Contributors(4, [("Bob", [7402, 7404]), ("Carol", [7403])])
    # A history that does not reach twelve weeks back cannot tell who is new.
    recent = [pr for pr in history if pr.number != 7002]
    assert facts.contributors(week, recent, WINDOW) == facts.Contributors(4, None)
    assert facts.contributors(week[-1:], history, WINDOW) is None  # bots only


def test_machine_accounts_are_no_authors_though_github_knows_them_as_users() -> None:
    """NVIDIA-NeMo/RL's `svcnemo-autobot` and `svcnvidia-nemo-ci` were named among the week's
    new authors; vllm-ascend's `iKeybot` is a person."""
    week, history = contributors_week()
    machines = [
        authored(7407, "svcnemo-autobot", "svcnemo-autobot@nvidia.com"),
        authored(7408, "svcnvidia-nemo-ci", "svcnvidia-nemo-ci@nvidia.com"),
        authored(7409, "release_bot", None),
        authored(7410, "iKeybot", "ikeybot-code"),
    ]
    found = facts.contributors([*week, *machines], history, WINDOW)
    assert found == facts.Contributors(
        5, [("Bob", [7402, 7404]), ("Carol", [7403]), ("iKeybot", [7410])]
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_trends_count_the_weeks_authors_and_name_the_new_ones(lang: Lang) -> None:
    week, history = contributors_week()
    with labelled({pr.number: ["fsdp"] for pr in week}):
        context = context_for(week, lang, previous=WeekCounts(pr_count=5), history=history)
        markdown = render_report(context, lang, "md")
    line = {
        "zh": (
            "本周有 4 位作者的 PR 被合并，其中 2 位是新作者（此前收录的 PR 中未出现过）："
            "Bob（#7402、#7404）、Carol（#7403）。"
        ),
        "en": (
            "4 authors merged PRs this week, 2 of them for the first time in the stored history:"
            " Bob (#7402, #7404), Carol (#7403)."
        ),
    }[lang]
    assert line in context.trends_lead
    assert (
        "Bob" in markdown and "[#7403](https://github.com/verl-project/verl/pull/7403)" in markdown
    )


def test_more_than_six_new_authors_are_counted_as_people() -> None:
    many = facts.Contributors(9, [(f"dev{n}", [7500 + n]) for n in range(8)])
    one = facts.Contributors(3, [("dev0", [7500])])
    assert WORDINGS["zh"].contributors_note(one) == [
        "本周有 3 位作者的 PR 被合并，其中 1 位是新作者（此前收录的 PR 中未出现过）："
        "dev0（#7500）。"
    ]
    assert WORDINGS["zh"].contributors_note(many)[0].endswith("dev5（#7505） 等 8 位。")
    assert WORDINGS["en"].contributors_note(many)[0].endswith("dev5 (#7505) and 2 more.")


def test_names_that_share_an_address_through_other_names_are_one_person() -> None:
    """verl's Haibin Lin signed as "H", "HL", "Haibin Lin" and "H (on leave)" from two
    addresses; `author_identities` tells people apart the same way."""
    prs = [
        authored(7601, "H", "linhaibin@gmail.com"),
        authored(7602, "HL", "linhaibin@gmail.com"),
        authored(7603, "Haibin Lin", "haibin@work.example"),
        authored(7604, "Haibin Lin", "linhaibin@gmail.com"),
        authored(7605, "H (on leave)", "haibin@work.example"),
        authored(7606, "Bob", None),  # stored before keys were: the name alone
        authored(7607, "Carol", "carol@example.com"),
    ]
    person = facts.people(prs)
    assert len({person[n] for n in ("H", "HL", "Haibin Lin", "H (on leave)")}) == 1
    assert len(set(person.values())) == 3


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "Also 9 more PRs: 5 docs changes (#1 change 1; #2 change 2; #3 change 3 and 2 more),"
            " 3 fixes (#6 change 6; #7 change 7 and 1 more), and 1 feature (#9 change 9).",
        ),
        (
            "zh",
            "另有 9 个 PR：文档 5 个（#1 change 1；#2 change 2；#3 change 3 等 5 个）、"
            "修复 3 个（#6 change 6；#7 change 7 等 3 个）、新功能 1 个（#9 change 9）。",
        ),
    ],
)
def test_a_sections_further_prs_are_named_by_type_when_many(lang: Lang, expected: str) -> None:
    """verl's NPU section of 2026-05-11 named 6 of its 15 further PRs, none of them among its 8
    docs changes: named by type, each kind of work shows, the larger ones with more names."""
    kinds = [("doc", "docs change")] * 5 + [("fix", "fix")] * 3 + [("feat", "feature")]
    refs = [
        _key_ref(n, "npu", 5.0 - n / 10, is_key=False).model_copy(
            update={"pr_type": pr_type, "type_name": name}
        )
        for n, (pr_type, name) in enumerate(kinds, start=1)
    ]
    assert WORDINGS[lang].others_text(refs) == expected
    # Six or fewer, or all of one type, are named in one list.
    assert WORDINGS[lang].others_text(refs[:6]).count("#") == 6
    assert (
        WORDINGS[lang]
        .others_text(refs[:5])
        .startswith({"en": "Also 5 more PRs (5 docs", "zh": "另有 5 个 PR（全部为文档）"}[lang])
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "among themes, NPU/Ascend (4 PRs, 3 docs changes among them)"),
        ("zh", "主题上 NPU/昇腾相关 PR 4 个（其中文档 3 个）"),
    ],
)
def test_a_top_themes_leading_kind_of_change_is_told(lang: Lang, said: str) -> None:
    """verl's 17 NPU PRs of 2026-05-11 were 8 docs changes, the week's NPU story; the
    summary said only "NPU/Ascend (17 PRs)". A housekeeping theme (Docs) and a theme of one
    kind alone say nothing more."""
    guides = [
        make_pr(7600 + n, f"[doc] chore: npu guide {n}", files=[(f"docs/npu/g{n}.md", 40, 0)])
        for n in range(3)
    ]
    fix = make_pr(7610, "[fsdp] fix: npu crash", files=[("verl/workers/npu.py", 30, 2)])
    week = [*guides, fix]
    themes = {pr.number: ["NPU/Ascend"] for pr in week}
    themes.update({pr.number: ["NPU/Ascend", "Docs"] for pr in guides})
    THEMES.update(themes)
    try:
        with labelled({pr.number: ["fsdp"] for pr in week}):
            summary = context_for(week, lang).summary
    finally:
        for number in themes:
            del THEMES[number]
    line = next(p for p in summary if "NPU" in p)
    assert said in line
    assert ("Docs (3 PRs)" if lang == "en" else "文档相关 PR 3 个") in line
    assert line.count("among them)" if lang == "en" else "（其中") == 1
    ordered = context_for(guides, "en").prs
    assert (
        facts.theme_lead(ordered, {r.number: ["NPU/Ascend"] for r in ordered}, "NPU/Ascend") is None
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_header_the_summary_and_the_index_count_the_same_risk_flags(lang: Lang) -> None:
    """verl's 2026-05-11 showed 18 risk flags in the index (every `pr_risks` row), 16 in the
    summary's tally (all but the revert's) and 5 on the HTML's card (the observations)."""
    prs = week_prs()
    context = context_for(prs, lang)
    flags = flag_risks(prs, MODULES, REVIEWS, CONFIG, {}, check_approvals=False)
    assert {"revert", "reverted"} <= {f.risk for f in flags}
    assert context.header.risk_flag_count == len(flags)
    (tally,) = [p for p in context.summary if p.startswith(("Risk flags:", "风险标记："))]
    told = re.findall(r"\((\d+)\)" if lang == "en" else r"(\d+) 项", tally)
    assert sum(map(int, told)) == len(flags)
    html = render_report(context, lang, "html")
    name = {"zh": "风险标记", "en": "Risk flags"}[lang]
    assert f'<div class="card"><b>{len(flags)}</b><span>{name}</span></div>' in html


def test_the_chinese_risk_tally_lists_its_kinds_as_other_lists_do() -> None:
    """vllm-ascend's 2026-05-11 read "风险标记：核心路径变更未附测试 9 项，超大变更 3 项，…" beside
    "按类型分：新功能 15 个、修复 13 个、…": a list of counted names takes "、", as the types do."""
    (tally,) = [p for p in context_for(week_prs(), "zh").summary if p.startswith("风险标记：")]
    assert re.fullmatch(r"风险标记：([^，、]+ \d+ 项、)+[^，、]+ \d+ 项（详见风险观察）。", tally)


def test_the_index_counts_the_commits_pushed_without_a_pr_where_there_were_any() -> None:
    """OpenRLHF's week of 2026-03-23 (10 commits pushed to main, no PR) read as an empty week."""
    listed = [
        ReportListing(week_start=date(2026, 3, 30), lang="en", pr_count=3, pushed_commits=0),
        ReportListing(week_start=date(2026, 3, 23), lang="en", pr_count=0, pushed_commits=10),
    ]
    index = render_index(REPO, listed, "en")
    assert '<th class="num">Pushed without a PR</th>' in index
    # risk flags unknown, 10 pushed
    assert '<td class="num">—</td><td class="num">10</td><td>' in index
    assert "未经 PR 推送的提交" in render_index(REPO, listed, "zh")
    none_pushed = [listed[0], listed[1].model_copy(update={"pushed_commits": 0})]
    assert "Pushed without a PR" not in render_index(REPO, none_pushed, "en")


def test_the_index_and_the_titles_name_the_iso_year() -> None:
    """Every year has a week 1, and 2024-12-30 starts week 1 of 2025: the index read "W1" for
    2024-12-30 and 2025-12-29 alike, and the titles gave no year."""
    listed = [
        ReportListing(week_start=date(2024, 12, 30), lang="en", pr_count=3),
        ReportListing(week_start=date(2025, 12, 29), lang="en", pr_count=5),
    ]
    index = render_index(REPO, listed, "en")
    assert "<td>2025-W01</td><td>2024-12-30 to 2025-01-05</td>" in index
    assert "<td>2026-W01</td><td>2025-12-29 to 2026-01-04</td>" in index
    new_year = WeekWindow(week_start=date(2024, 12, 30), timezone="America/New_York")
    titles = {
        lang: build_report_context(
            REPO, new_year, [], [], [], [], [], REVIEWS, None, lang, calibration=CALIBRATION
        ).header
        for lang in LANGS
    }
    assert titles["zh"].title == f"{REPO} 2025 年第 1 周周报（12-30 至 01-05）"
    assert titles["en"].title == f"{REPO} weekly report, week 1 of 2025 (Dec 30 to Jan 5)"
    markdown = render_report(
        build_report_context(
            REPO, new_year, [], [], [], [], [], REVIEWS, None, "en", calibration=CALIBRATION
        ),
        "en",
    )
    assert "- Period: 2024-12-30 to 2025-01-05 (America/New_York)" in markdown


def test_a_week_without_key_prs_says_so_where_the_key_changes_would_be() -> None:
    """The week's lone line "No key changes could be grouped by theme this week" read as if
    there were some. The sections of its most important PRs follow the line (torchtitan's
    2026-02-02 showed none of them)."""
    small = [make_pr(1, "[misc] chore: bump version", files=[("VERSION", 1, 1)])]
    nothing_key: list[tuple[Lang, str, str]] = [
        ("en", "No PR reached importance 7.0 this week.", "Unlabelled changes"),
        ("zh", "本周没有重要性达到 7.0 的 PR。", "未归类变更"),
    ]
    for lang, said, heading in nothing_key:
        context = context_for(small, lang)
        assert context.header.key_pr_count == 0
        assert [g.heading for g in context.groups] == [heading]
        markdown = render_report(context, lang)
        assert markdown.index(said) < markdown.index(f"## {heading}")
        html = render_report(context, lang, "html")
        assert html.index(f"<p>{said}</p>") < html.index(f"<h3>{heading}</h3>")
    assert context_for(small, "en").quick_view_lead == (
        "The week's only PR did not reach importance 7.0."
    )


def test_zh_sets_no_space_between_a_closing_parenthesis_and_chinese() -> None:
    """The tail of a list after a parenthesis: "Memento mori.（#6317） 等 10 位"."""
    context = context_for(week_prs(), "zh")
    context = context.model_copy(update={"summary": ["新作者：甲（#1）、乙（#2） 等 10 位。"]})
    for fmt in FORMATS:
        rendered = render_report(context, "zh", fmt)
        assert "）等 10 位" in rendered and "） 等" not in rendered


def test_a_pr_reverted_in_its_week_gets_no_other_follow_up() -> None:
    """verl's 2025-03-31 asked for tests and a regression watch for #706, which #883 had
    reverted that week: its change is no longer in the tree."""
    engine = ("verl/workers/fsdp_workers.py", 300, 10)
    undone = make_pr(7001, "[fsdp] fix: loader stalls", files=[engine], merged_at=MERGED)
    revert = make_pr(
        7002,
        'Revert "[fsdp] fix: loader stalls"',
        files=[("verl/workers/fsdp_workers.py", 10, 300)],
        merged_at=MERGED + timedelta(days=1),
        is_revert=True,
        reverted_number=7001,
    )
    kept = make_pr(7003, "[fsdp] fix: sharding", files=[engine], merged_at=MERGED)
    context = context_for([undone, revert, kept], "en")
    tests = [s for s in context.suggestions if s.startswith("Add tests")]
    assert len(tests) == 1 and "#7003" in tests[0] and "#7001" not in tests[0]
    assert any("#7001" in s and "#7002" in s for s in context.suggestions)  # the revert's own


def test_a_revert_button_or_a_pasted_traceback_names_no_other_reverted_pr() -> None:
    """verl #883 ("Reverts volcengine/verl#706") pasted a traceback whose "frame #3" named
    verl #3, which shares a file with it."""
    shared = [("verl/utils/megatron_utils.py", 10, 0)]
    earlier = [make_pr(3, "init", files=shared), make_pr(706, "Use Mcore GPTModel", files=shared)]
    body = "Reverts volcengine/verl#706\n\n```\nframe #3: c10d::ProcessGroup\n```"
    button = make_pr(883, 'Revert "Use Mcore GPTModel"', body=body, files=shared, merged_at=MERGED)
    assert also_reverted(button, 706, earlier) == []
    pasted = button.model_copy(update={"body": body.split("\n", 1)[1]})
    assert also_reverted(pasted, 706, earlier) == []


def test_a_week_of_github_data_without_reviews_or_threads_had_none() -> None:
    week = [make_pr(1, "x"), make_pr(2, "y")]
    coverage = facts.review_coverage(facts.reviewing_by_pr(week, ReviewData(available=True)))
    assert coverage is not None and coverage.approved == 0


def test_a_report_stored_before_its_header_had_a_navigation_is_written_back_unlinked(
    tmp_path: Path,
) -> None:
    """Rows stored before the HTML header's navigation (a warehouse of vllm-ascend and slime
    built earlier the same day: none of its 88 rows had one) raised ValueError when a newer week
    beside them had their files written again: the run failed after storing its week, and every
    later run in `restore_missing_files`, before reporting any week."""
    settings = Settings.model_validate(
        {
            "database": tmp_path / "w.duckdb",
            "reports_dir": tmp_path / "reports",
            "repos": [{"name": REPO, "source": "github", "start": date(2026, 5, 4)}],
        }
    )
    older = RenderedReport(lang="en", markdown="# Week 18\n\nbody\n", html="<h1>Week 18</h1>\n")
    newer = RenderedReport(
        lang="en", markdown="# Week 19\n\nbody\n", html='<nav class="nav"></nav><h1>19</h1>\n'
    )
    counts = WeekCounts(pr_count=0, modules={}, themes={})
    with connect(settings.database) as con:
        for week, report, when in (
            (date(2026, 5, 4), older, datetime(2026, 5, 11, tzinfo=UTC)),
            (date(2026, 5, 11), newer, datetime(2026, 5, 18, tzinfo=UTC)),
        ):
            tables = report_tables(REPO, week, [report], counts, key_pr_count=0, generated_at=when)
            replace_partition(con, REPO, week, tables)
        restored = restore_missing_files(con, settings, REPO, skip=[])
    assert [(r.week_start, len(r.files)) for r in restored] == [
        (date(2026, 5, 11), 2),
        (date(2026, 5, 4), 2),
    ]
    folder = report_dir(settings.reports_dir, REPO)
    assert (folder / "2026-05-04.en.html").read_text(encoding="utf-8") == older.html
    assert "Next week (2026-05-11)" in (folder / "2026-05-04.en.md").read_text(encoding="utf-8")
    assert 'rel="prev"' in (folder / "2026-05-11.en.html").read_text(encoding="utf-8")


def test_the_stored_names_are_the_reports_in_each_language() -> None:
    """What `display_names` holds for SQL users: the repository's names for its modules
    (verl's `ckpt` Checkpointing/检查点; vllm-ascend's `kv_pool` as its titles write it), a
    module's usual spelling (`fsdp` as FSDP), a built-in theme's name in the language."""
    configured: dict[Lang, dict[str, str]] = {
        "en": {"ckpt": "Checkpointing", "kv_pool": "KV Pool"},
        "zh": {"ckpt": "检查点", "kv_pool": "KV Pool"},
    }
    names = display_names(configured, {"fsdp", "ckpt", "kv_pool"}, {"NPU/Ascend"})
    zh: Lang = "zh"
    en: Lang = "en"
    area = True
    assert names == [
        DisplayName(kind="module", name="ckpt", lang=zh, display_name="检查点", is_area=area),
        DisplayName(kind="module", name="fsdp", lang=zh, display_name="FSDP", is_area=area),
        DisplayName(kind="module", name="kv_pool", lang=zh, display_name="KV Pool", is_area=area),
        DisplayName(
            kind="theme", name="NPU/Ascend", lang=zh, display_name="NPU/昇腾", is_area=None
        ),
        DisplayName(
            kind="module", name="ckpt", lang=en, display_name="Checkpointing", is_area=area
        ),
        DisplayName(kind="module", name="fsdp", lang=en, display_name="FSDP", is_area=area),
        DisplayName(kind="module", name="kv_pool", lang=en, display_name="KV Pool", is_area=area),
        DisplayName(
            kind="theme", name="NPU/Ascend", lang=en, display_name="NPU/Ascend", is_area=None
        ),
    ]


def test_the_stored_names_say_which_modules_the_reports_take_for_areas() -> None:
    """The warehouse keeps a repository's title tags that only say a kind of change or a
    status as modules (AReaL's `[Feature]` #53, `[Fix]` #63, `[Bug Fix]`; verl's `[misc]`;
    `[WIP]`), and the reports leave them out of their module sections and trend tables, but a
    SQL user could not: AReaL's `weekly_module_trends` led with `feature` (44 PRs) and `fix`
    (41). `display_names` says which modules name an area, as the reports decide."""
    modules = {"feature", "fix", "bug_fix", "misc", "wip", "archon", "fsdp", "core"}
    names = display_names({"en": {}, "zh": {}}, modules, {"Docs"})
    areas = {(n.kind, n.name, n.lang): n.is_area for n in names}
    for lang in LANGS:
        assert {name for name in modules if areas["module", name, lang]} == {
            "archon",
            "fsdp",
            "core",
        }
        assert areas["theme", "Docs", lang] is None  # a theme is no tag
