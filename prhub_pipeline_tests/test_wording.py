"""The report's words: punctuation, count agreement, theme names in Chinese; the report files."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from datetime import date

import pytest

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import (
    ScoreCalibration,
    fit_calibration,
    score_week,
)
from prhub_pipeline.modelling.scoring.risks import flag_risks
from prhub_pipeline.modelling.tagging.themes import DEFAULT_THEME_RULES
from prhub_pipeline.records import (
    ConfigFileDiff,
    Lang,
    ModuleLabel,
    PrScore,
    PullRequest,
    ReviewData,
    SettingChange,
    ThemeTag,
    WeekCounts,
)
from prhub_pipeline.reporting import facts
from prhub_pipeline.reporting.context import build_report_context
from prhub_pipeline.reporting.facts import FlaggedPr, RevertChain, RiskGroup
from prhub_pipeline.reporting.models import ReportContext
from prhub_pipeline.reporting.render import render_report
from prhub_pipeline.reporting.wording import EN, ZH, Wording, module_display_names
from prhub_pipeline.weeks import WeekWindow
from prhub_pipeline_tests.test_importance import REPO, history, make_pr

CONFIG = ScoringConfig(core_paths=["verl/**/*.py"])
CALIBRATION = fit_calibration(history(), {}, CONFIG)
WINDOW = WeekWindow(week_start=date(2026, 5, 11), timezone="Asia/Shanghai")
NO_REVIEWS = ReviewData(available=False)


def context_for(
    prs: Sequence[PullRequest],
    lang: Lang,
    modules: Mapping[int, list[str]],
    themes: Mapping[int, list[str]] | None = None,
    guessed: Collection[int] = (),
    confidence: float = 0.7,
) -> ReportContext:
    """The report context of `prs` with their `modules`: from their titles, or for the PRs
    `guessed` from the classifier (at `confidence`)."""
    module_labels = [
        ModuleLabel(repo=REPO, number=n, module=m, origin="title", confidence=1.0)
        if n not in guessed
        else ModuleLabel(repo=REPO, number=n, module=m, origin="model", confidence=confidence)
        for n, names in modules.items()
        for m in names
    ]
    theme_tags = [
        ThemeTag(repo=REPO, number=n, theme=t) for n, names in (themes or {}).items() for t in names
    ]
    return build_report_context(
        REPO,
        WINDOW,
        prs,
        module_labels,
        theme_tags,
        score_week(prs, modules, NO_REVIEWS, CONFIG, CALIBRATION),
        flag_risks(prs, modules, NO_REVIEWS, CONFIG, {}, check_approvals=False),
        NO_REVIEWS,
        None,
        lang,
        calibration=CALIBRATION,
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_subject_that_ends_its_sentence_gets_no_second_stop(lang: Lang) -> None:
    """verl's week of 2025-04-07: "…to support DPSK v3 training.." and "bash sft.。"."""
    prs = [make_pr(923, "[fsdp] feat: enable vLLM 0.8.2 to support DPSK v3 training.")]
    summary = " ".join(context_for(prs, lang, {923: ["fsdp"]}).summary)
    # The sentence's own stop ends it, in its language.
    assert ("DPSK v3 training." if lang == "en" else "DPSK v3 training。") in summary
    assert not re.search(r"training\.[.。]", summary)


def test_an_ellipsis_the_author_wrote_stays_in_the_subject() -> None:
    """tpu-inference #1158 "Support sub-channel quantization: FP4, FP8, INT8, ..." read
    "FP4, FP8, INT8, (importance 9.4)"."""
    prs = [make_pr(1158, "[FusedMoE] Support sub-channel quantization: FP4, FP8, INT8, ...")]
    summary = " ".join(context_for(prs, "en", {1158: ["fusedmoe"]}).summary)
    assert "Support sub-channel quantization: FP4, FP8, INT8, …" in summary
    assert facts.title_subject("fix: the retry...", 60) == "the retry…"


def test_a_subject_a_little_over_its_limit_is_not_cut() -> None:
    """verl's 2026-05-11 named "#6076 (feature, 9.7) reuse trainer worker group for hybrid
    rollout to do…": two characters over the 60 a summary gives a subject."""
    title = "[fully_async] feat: reuse trainer worker group for hybrid rollout to do validation"
    longer = "[fsdp] feat: " + "shard the optimizer state across every rank of the group " * 2
    summary = context_for([make_pr(1, title), make_pr(2, longer)], "en", {1: [], 2: []}).summary
    [top] = [p for p in summary if p.startswith("The most important")]
    assert "reuse trainer worker group for hybrid rollout to do validation" in top
    assert "shard the optimizer state across every rank of the group…" in top


@pytest.mark.parametrize(
    ("title", "ending"),
    [
        ("[ci] fix: why does CI hang?", "CI hang?"),
        ("[ci] fix: stop the flaky job!", "flaky job!"),
        ('[ci] fix: the "retry on 502."', 'on 502."'),
    ],
)
def test_other_terminal_punctuation_is_not_doubled(title: str, ending: str) -> None:
    summary = context_for([make_pr(1, title)], "en", {1: ["ci"]}).summary
    top = next(p for p in summary if p.startswith("The most important"))
    assert top.endswith(ending)


@pytest.mark.parametrize(
    ("lang", "busiest", "focus"),
    [
        (
            "en",
            "The busiest modules were CI (4, all of them guessed by the classifier) and FSDP (2).",
            "Of the week's 6 fixes, 4 concern CI (all of them guessed by the classifier).",
        ),
        ("zh", "CI（4 个，均为分类器预测）、FSDP（2 个）", "4 个涉及 CI（均为分类器预测）。"),
    ],
)
def test_a_busiest_module_made_of_guesses_says_so(lang: Lang, busiest: str, focus: str) -> None:
    """slime's 2026-08-10 read "The busiest modules were CI (10)" and "Of the week's 20 fixes,
    8 concern CI": the classifier's guesses for fixes that register their test in CI, which its
    sections file by their code. The summary says so, as the largest changes do."""
    prs = [make_pr(n, f"fix: whiten advantages {n}") for n in range(1, 5)]
    prs += [make_pr(n, f"[fsdp] fix: a loader crash {n}") for n in (5, 6)]
    modules = {n: ["ci"] for n in range(1, 5)} | {5: ["fsdp"], 6: ["fsdp"]}
    summary = " ".join(context_for(prs, lang, modules, guessed=range(1, 5)).summary)
    assert busiest in summary and focus in summary
    # Busiest modules that are all guesses say it once.
    every = " ".join(context_for(prs, lang, modules, guessed=range(1, 7)).summary)
    assert {
        "en": "The busiest modules were CI (4) and FSDP (2), all of them guessed by the"
        " classifier.",
        "zh": "变更最集中的模块是 CI（4 个）、FSDP（2 个），均为分类器预测。",
    }[lang] in every
    # Tags the repository wrote itself read as before.
    told = " ".join(context_for(prs, "en", modules).summary)
    assert "The busiest modules were CI (4) and FSDP (2)." in told
    assert "4 concern CI." in told


def test_fixes_do_not_concentrate_on_a_module_the_classifier_is_unsure_of() -> None:
    """slime's 2026-08-10 said "Of the week's 20 fixes, 8 concern CI" and "The busiest modules
    were CI (10, all of them guessed by the classifier)" of fixes guessed `ci` at 0.12-0.51 for
    registering their test in CI; a guess under even odds decides no section, nor where the
    fixes concentrate, nor which module was busiest. The trends table still counts it."""
    prs = [make_pr(n, f"fix: whiten advantages {n}") for n in range(1, 5)]
    prs += [make_pr(n, f"[fsdp] fix: a loader crash {n}") for n in (5, 6, 7)]
    modules = {n: ["ci"] for n in range(1, 5)} | {n: ["fsdp"] for n in (5, 6, 7)}
    context = context_for(prs, "en", modules, guessed=range(1, 5), confidence=0.3)
    summary = " ".join(context.summary)
    assert "concern CI" not in summary
    assert "Of the week's 7 fixes, 3 concern FSDP." in summary
    # CI's 4 PRs in the table outnumber FSDP's 3, so the summary says why CI is not named.
    assert (
        "Not counting the classifier's unsure guesses, the busiest module was FSDP (3)." in summary
    )
    assert "CI (" not in summary
    assert next(r for r in context.trends if r.name == "ci").count == 4
    # At even odds or better the guesses count, and say they are guesses.
    sure = " ".join(context_for(prs, "en", modules, guessed=range(1, 5), confidence=0.7).summary)
    assert (
        "The busiest modules were CI (4, all of them guessed by the classifier) and FSDP (3)"
        in sure
    )
    # A module busy without its unsure guesses is told with all its PRs, as the table counts.
    tagged = [make_pr(n, f"[ci] fix: a flaky job {n}") for n in (8, 9)]
    more = {**modules, 8: ["ci"], 9: ["ci"]}
    both = context_for([*prs, *tagged], "en", more, guessed=range(1, 5), confidence=0.3)
    told = " ".join(both.summary)
    assert (
        "The busiest modules were CI (6, 4 of them guessed by the classifier) and FSDP (3)" in told
    )
    assert next(r for r in both.trends if r.name == "ci").count == 6


def test_a_modules_key_changes_leave_out_the_classifiers_unsure_guesses() -> None:
    """huggingface/trl's trends row "CI" named "Add DiffusionGemma block-diffusion SFT example"
    among its key changes, a guess of `ci` at 0.34: counted in the row, named nowhere as CI's."""
    large = [("verl/workers/a.py", 2000, 0), ("verl/b/c.py", 900, 0)]
    prs = [make_pr(n, f"Add a large example {n}", files=large) for n in (1, 2)]
    modules = {1: ["ci"], 2: ["ci"]}
    for confidence, named in ((0.3, []), (0.7, [1, 2])):
        context = context_for(prs, "en", modules, guessed=[1, 2], confidence=confidence)
        row = next(r for r in context.trends if r.name == "ci")
        assert row.count == 2 and all(r.is_key for r in context.prs)
        assert [r.number for r in row.key_changes] == named


def test_one_busiest_module_and_one_top_change_read_in_the_singular() -> None:
    """ "The busiest modules were CI (2)" in verl's first weeks. A module of one PR is none of
    the busiest: hiyouga/EasyR1's 2026-07-27, one PR, read "The busiest module was checkpoint
    (1)"."""
    one = context_for([make_pr(1, "[ci] fix: retry downloads")], "en", {1: ["ci"]}).summary
    assert not any("busiest" in p for p in one)
    assert any(p.startswith("The most important change: #1 ") for p in one)
    prs = [make_pr(1, "[ci] fix: retry downloads"), make_pr(2, "[ci] fix: a cache key")]
    three = [*prs, make_pr(3, "[fsdp] fix: a loader crash")]
    two = context_for(three, "en", {1: ["ci"], 2: ["ci"], 3: ["fsdp"]}).summary
    assert "The busiest module was CI (2)." in two
    assert any(p.startswith("The most important changes: #") for p in two)


def test_one_stored_pr_reads_in_the_singular() -> None:
    """The count is of the stored history, which begins at the configured start: torchtitan's
    first stored week read "only 14 PRs of this repository merged by this week"."""
    one = ScoreCalibration(method="fixed", history_size=1)
    assert "only 1 PR of this repository stored up to this week, importance" in EN.how_generated(
        None, one, False
    )
    few = ScoreCalibration(method="fixed", history_size=3)
    assert "only 3 PRs of this repository stored up to this week" in EN.how_generated(
        None, few, False
    )
    assert "本仓库截至本周仅存储了 3 个 PR" in ZH.how_generated(None, few, False)


def test_a_short_historys_header_names_the_scale_its_scores_are_on() -> None:
    """Scores of a history too short to calibrate on are read off a typical repository's scale
    (llm-compressor's first stored weeks): the header says so, not just what they are not."""
    few = ScoreCalibration(method="fixed", history_size=8)
    assert (
        "only 8 PRs of this repository stored up to this week, importance not calibrated on its"
        " history but on a typical repository's (7.0 scores above 70% of its PRs)"
    ) in EN.how_generated(None, few, False)
    assert "重要性未按本仓库历史校准，而按一般仓库的 PR 分布换算（7.0 即高于其中 70%）" in (
        ZH.how_generated(None, few, False)
    )


def test_prs_without_a_module_of_their_own_are_all_counted() -> None:
    """tilelang's type-only tags (`[Bugfix]`) left 15 of a week's 33 PRs without a module of
    their own; the note counted the 5 the classifier gave one, and the other 10 went unsaid."""
    assert EN.predicted_note(15, 33, 5) == [
        "15 of the week's 33 PRs name no module in their titles or labels: the modules of 5 of"
        " them are the classifier's predictions (marked * in the appendix), counted in the"
        " table like the rest, and the other 10 have none."
    ]
    # LLaMA-Factory's 2026-04-27: 3 without a module of their own, 2 of them guessed.
    assert EN.predicted_note(3, 13, 2)[0].endswith(
        "counted in the table like the rest, and the other one has none."
    )
    assert ZH.predicted_note(3, 13, 2)[0].endswith("其余 1 个没有模块。")
    assert EN.predicted_note(15, 33, 15) == EN.predicted_note(15, 33)
    assert EN.predicted_note(1, 33, 0) == [
        "1 of the week's 33 PRs names no module in its title or labels, and none was predicted"
        " for it."
    ]
    assert ZH.predicted_note(15, 33, 5)[0].endswith("其余 10 个没有模块。")
    # Not "and the other 1 have none" (verl's 2026-08-10).
    assert EN.predicted_note(2, 34, 1)[0].endswith(", and the other one has none.")
    assert EN.predicted_note(0, 33, 0) == []
    # In a report: a type-only tag is no module of the PR's own (and the note says which tag).
    typed = make_pr(1, "[BugFix] Fix the loader", files=[("src/loader.py", 5, 1)])
    tagged = make_pr(2, "[fsdp] fix: shard", files=[("verl/fsdp.py", 5, 1)])
    context = context_for([typed, tagged], "en", {1: ["bugfix"], 2: ["fsdp"]})
    assert (
        "1 of the week's 2 PRs names no module in its title or labels ([bugfix] counts as none),"
        " and none was predicted for it." in context.trends_lead
    )


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        (
            "en",
            "2 of the week's 3 PRs name no module in their titles or labels ([misc] counts as"
            " none), and none was predicted for them.",
        ),
        (
            "zh",
            "本周 3 个 PR 中有 2 个的标题和标签未标注模块（[misc] 不算模块），也没有预测出模块。",
        ),
    ],
)
def test_the_note_on_prs_without_a_module_names_the_tags_their_titles_show(
    lang: Lang, note: str
) -> None:
    """verl's 2026-03-09 said "1 of the week's 29 PRs names no module in its title or labels" of
    `[misc] feat: support dynamic bsz using group size`: its title shows a tag, one verl's
    module list allows, which the report counts as no module. The note now says so."""
    misc = make_pr(1, "[misc] fix: warn on a failed import", files=[("verl/a.py", 5, 1)])
    bump = make_pr(2, "[misc] chore: bump the version", files=[("verl/version.py", 1, 1)])
    tagged = make_pr(3, "[fsdp] fix: shard", files=[("verl/fsdp.py", 5, 1)])
    context = context_for([misc, bump, tagged], lang, {1: ["misc"], 2: ["misc"], 3: ["fsdp"]})
    assert note in context.trends_lead
    markdown = render_report(context, lang, "md")
    assert note.replace("[misc]", "\\[misc\\]").replace("*", "\\*") in markdown


def test_the_calibration_names_the_prs_up_to_the_week() -> None:
    """A week's calibration is fitted on the latest PRs up to it, none later."""
    fitted = ScoreCalibration(
        method="history", history_size=2475, raw_points=[1.0], percentiles=[50.0]
    )
    assert "calibrated on this repository's latest 2475 PRs up to this week" in EN.how_generated(
        None, fitted, False
    )
    assert "本仓库截至本周最近的 2475 个 PR" in ZH.how_generated(None, fitted, False)


def test_every_built_in_theme_has_a_chinese_name() -> None:
    assert {rule.name for rule in DEFAULT_THEME_RULES} <= set(ZH.theme_names)
    assert EN.display_name("Multimodal") == "Multimodal"
    # A theme a repository defines itself keeps its name; modules keep their spelling.
    assert ZH.display_name("Speculative decoding") == "Speculative decoding"
    assert ZH.display_name("fsdp") == "FSDP" and ZH.display_name("doc") == "doc"
    assert EN.display_name("pytorch") == "PyTorch" and EN.display_name("webui") == "WebUI"
    assert EN.display_name("rl") == "RL"  # torchtitan's `[rl]`
    assert (
        EN.display_name("c/pytorch") == "c/PyTorch"
        and EN.display_name("NPU/Ascend") == "NPU/Ascend"
    )


def test_a_chinese_report_names_the_built_in_themes_in_chinese() -> None:
    """The zh report said "## Multimodal", "## Agent/tools" and "Docs 相关 PR 13 个"."""
    prs = [
        make_pr(1, "feat: video inputs for the VLM rollout", files=[("verl/vl/a.py", 400, 20)]),
        make_pr(2, "fix: audio batches on multimodal data", files=[("verl/vl/b.py", 300, 20)]),
        make_pr(3, "feat: image processor for vision models", files=[("verl/vl/c.py", 200, 9)]),
        make_pr(4, "[trainer] chore: install guide", files=[("docs/install.md", 90, 3)]),
        make_pr(5, "chore: faq", files=[("docs/faq.md", 40, 3)]),
    ]
    modules = {1: [], 2: [], 3: [], 4: ["trainer"], 5: ["trainer"]}
    themes = {1: ["Multimodal"], 2: ["Multimodal"], 3: ["Multimodal"], 4: ["Docs"], 5: ["Docs"]}
    context = context_for(prs, "zh", modules, themes)
    text = "\n".join(
        [*context.summary, *(g.heading for g in context.groups), *(g.lead for g in context.groups)]
    )
    assert "多模态" in [g.heading for g in context.groups]
    assert "；主题上多模态相关 PR 3 个、文档相关 PR 2 个。" in text
    assert "Multimodal" not in text and "Docs" not in text
    english = context_for(prs, "en", modules, themes)
    assert "Multimodal" in [g.heading for g in english.groups]
    # A theme named like a module of the week says "related" once (tpu-inference's MoE).
    moe_themes = {**themes, 1: ["MoE"], 2: ["MoE"], 3: ["MoE"]}
    busy = {1: ["fsdp", "vllm"], 2: ["fsdp", "vllm"], 3: ["rollout"], 4: ["rollout"], 5: ["moe"]}
    told_apart = context_for(prs, "zh", busy, moe_themes)
    assert "主题上 MoE 相关 PR 3 个、文档相关 PR 2 个。" in "\n".join(told_apart.summary)
    assert "MoE 相关" in [g.heading for g in told_apart.groups]


@pytest.mark.parametrize(
    ("first", "themes", "busiest"),
    [
        # The Docs theme beside the doc module: one name, said once (verl's 2026-05-11).
        (
            "doc",
            {1: ["Docs"], 2: ["Docs"], 3: ["Docs", "MoE"], 4: ["Docs"], 5: ["MoE"]},
            "The busiest modules were doc (3) and FSDP (2); among themes, MoE (2 PRs).",
        ),
        # CI/infrastructure beside CI (verl's 2026-08-10: "CI (9) ... CI/infrastructure (9 PRs)").
        (
            "ci",
            {1: ["CI/infrastructure"], 2: ["CI/infrastructure"], 3: ["MoE"], 4: ["MoE"]},
            "The busiest modules were CI (3) and FSDP (2); among themes, MoE (2 PRs).",
        ),
        # ... unless it holds half again as many PRs, three or more beyond the module's.
        (
            "ci",
            {n: ["CI/infrastructure"] for n in (1, 2, 3, 6, 7, 8)},
            "The busiest modules were CI (3) and FSDP (2); among themes, CI/infrastructure"
            " (6 PRs).",
        ),
        # A theme with a name of its own stays, whatever PRs it holds.
        (
            "ray",
            {1: ["Dependencies"], 2: ["Dependencies"], 3: ["Dependencies"]},
            "The busiest modules were Ray (3) and FSDP (2); among themes, Dependencies (3 PRs).",
        ),
    ],
)
def test_a_theme_that_repeats_a_busiest_module_is_not_named_again(
    first: str, themes: dict[int, list[str]], busiest: str
) -> None:
    prs = [make_pr(n, f"chore: change {n}") for n in range(1, 9)]
    modules = {1: [first], 2: [first], 3: [first], 4: ["fsdp"], 5: ["fsdp"]}
    summary = context_for(prs, "en", modules, themes).summary
    assert busiest in summary


def test_counted_types_read_as_english() -> None:
    """Reports said "By type: 3 chores, 1 docs, 1 test"."""
    phrase = EN.count_phrase([("chore", 3), ("doc", 1), ("test", 1), ("other", 2)])
    assert phrase == "3 chores, 1 docs change, 1 test change, 2 other changes"
    assert EN.count_phrase([("doc", 2), ("feat", 1)]) == "2 docs changes, 1 feature"
    assert ZH.count_phrase([("doc", 2)]) == ZH.type_count.format(n=2, name=ZH.type_names["doc"])


def test_a_chinese_theme_in_the_largest_changes_has_no_space_before_it() -> None:
    """ "变化最大的是 异步与全异步训练（0 → 7）" had a space between two Chinese words."""
    counts = WeekCounts(pr_count=7, modules={}, themes={"Async/fully-async": 7})
    previous = WeekCounts(pr_count=3, modules={}, themes={})
    lines = ZH.trends_lead(counts, previous, {"Async/fully-async": {1, 2, 3, 4, 5, 6, 7}})
    assert lines[-1] == f"变化最大的是{ZH.display_name('Async/fully-async')}（0 → 7）。"


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (EN, "The largest changes: CI (0 → 10, all of them guessed by the classifier), rollout"),
        (ZH, "变化最大的是 CI（0 → 10，均为分类器预测）、rollout"),
    ],
)
def test_a_largest_change_made_of_guesses_says_so(words: Wording, expected: str) -> None:
    """slime's week of 2026-08-10 led with "CI (0 → 10)": ten guesses of the classifier's for
    fixes that register their test in a workflow. A module most of whose PRs have it from the
    repository itself reads as before, as does a theme of the same name."""
    counts = WeekCounts(pr_count=29, modules={"CI": 10, "rollout": 6, "vllm": 1}, themes={})
    previous = WeekCounts(pr_count=6, modules={"rollout": 1, "vllm": 5}, themes={})
    prs_of = {"CI": set(range(10)), "rollout": set(range(10, 16)), "vllm": {16}}
    lines = words.trends_lead(counts, previous, prs_of, {"CI": 10, "rollout": 2, "vllm": 1})
    assert lines[-1].startswith(expected)
    # A rise mostly from the repository's own tags, and a fall, read as before.
    assert {"(1 → 6)", "(5 → 1)"} <= set(re.findall(r"\(\d+ → \d+\)", lines[-1])) or {
        "（1 → 6）",
        "（5 → 1）",
    } <= set(re.findall(r"（\d+ → \d+）", lines[-1]))
    some = words.trends_lead(counts, previous, prs_of, {"CI": 6})[-1]
    assert ("6 of them" in some) or ("其中 6 个" in some)
    themed = WeekCounts(pr_count=29, modules={"CI": 10}, themes={"CI": 10})
    assert "guess" not in EN.trends_lead(themed, previous, prs_of, {"CI": 10})[-1]


def test_a_fall_from_last_weeks_guesses_says_so() -> None:
    """torchtitan's 2025-02-10 led with "TorchComms (2 → 0)": last week's two were guesses
    at 0.16 and 0.20, for a module first tagged months later."""
    counts = WeekCounts(pr_count=12, modules={"rollout": 6}, themes={})
    previous = WeekCounts(
        pr_count=10, modules={"torchcomms": 2, "rollout": 5}, guesses={"torchcomms": 2}
    )
    prs_of = {"rollout": set(range(6))}
    lead = EN.trends_lead(counts, previous, prs_of)[-1]
    assert "torchcomms (2 → 0; all of last week's guessed by the classifier)" in lead
    assert "上周的均为分类器预测" in ZH.trends_lead(counts, previous, prs_of)[-1]
    # A fall of the repository's own tags reads as before.
    own = previous.model_copy(update={"guesses": {"torchcomms": 0}})
    assert "torchcomms (2 → 0)" in EN.trends_lead(counts, own, prs_of)[-1]


def test_a_section_lead_names_its_label_or_says_it_has_none() -> None:
    """ "## data" led with "1 PR this week", which read as the whole week's count."""
    prs = [
        make_pr(1, "[data] feat: audio inputs", files=[("verl/utils/dataset/a.py", 400, 20)]),
        make_pr(2, "fix: training crashes on resume", files=[("verl/trainer/r.py", 600, 90)]),
    ]
    leads_by_lang: list[tuple[Lang, str, str]] = [
        (
            "en",
            "1 data PR this week (1 feature)",
            "1 PR this week in no module's or theme's section",
        ),
        ("zh", "本周 data 共 1 个 PR（新功能）", "本周未归入任何模块或主题小节的 PR 1 个"),
    ]
    for lang, data_lead, unlabelled_lead in leads_by_lang:
        context = context_for(prs, lang, {1: ["data"], 2: []}, {1: [], 2: []})
        leads = {g.heading: g.lead for g in context.groups}
        assert leads["data"].startswith(data_lead)
        assert [lead for lead in leads.values() if lead.startswith(unlabelled_lead)]


def test_themes_alone_make_a_sentence_with_a_verb() -> None:
    """tilelang's 2025-06-30 said "Among themes, Docs (1 PR)." when no module led."""
    prs = [
        make_pr(n, f"Update the install guide {n}", files=[("docs/install.md", 40, 2)])
        for n in (1, 2)
    ]
    summary = context_for(prs, "en", {1: [], 2: []}, {1: ["Docs"], 2: ["Docs"]}).summary
    assert "The busiest theme was Docs (2 PRs)." in summary
    pins = [
        make_pr(n, f"Pin the tokenizer {n}", files=[("requirements.txt", 1, 1)]) for n in (3, 4)
    ]
    both = context_for(
        [*prs, *pins],
        "en",
        {1: ["doc"], 2: ["doc"], 3: [], 4: []},
        {1: ["Docs"], 2: ["Docs"], 3: ["Dependencies"], 4: ["Dependencies"]},
    )
    assert "The busiest module was doc (2); among themes, Dependencies (2 PRs)." in both.summary


def test_a_label_with_one_pr_of_a_busy_week_is_none_of_the_busiest() -> None:
    """tilelang's 2026-07-13, 29 PRs: "among themes, CI/infrastructure (1 PR) and Dependencies
    (1 PR)". Nor in a small week: one PR is no concentration."""
    prs = [make_pr(n, f"[fsdp] fix: case {n}") for n in range(1, 13)]
    modules = {**{n: ["fsdp"] for n in range(1, 11)}, 11: ["ci"], 12: ["doc"]}
    summary = " ".join(context_for(prs, "en", modules, {12: ["Docs"]}).summary)
    assert "The busiest module was FSDP (10)." in summary
    assert "CI (1)" not in summary and "Docs (1 PR)" not in summary
    small = " ".join(context_for(prs[:3], "en", {1: ["fsdp"]}, {2: ["Docs"]}).summary)
    assert "busiest" not in small and "FSDP (1)" not in small and "Docs (1 PR)" not in small


def test_a_section_whose_prs_are_all_key_says_so_and_subjects_carry_no_stop() -> None:
    """ "2 trainer PRs this week (...), 2 of them key" and "engine worker.; #5423"."""
    prs = [
        make_pr(1, "[trainer] fix: crash on resume.", files=[("verl/trainer/a.py", 700, 90)]),
        make_pr(2, "[trainer] fix: hang on save", files=[("verl/trainer/b.py", 650, 80)]),
    ]
    saids: list[tuple[Lang, str]] = [("en", "both of them key"), ("zh", "均为重点 PR")]
    for lang, said in saids:
        context = context_for(prs, lang, {1: ["trainer"], 2: ["trainer"]}, {1: [], 2: []})
        (group,) = context.groups
        assert group.lead.endswith(f"{said}." if lang == "en" else f"{said}。")
        assert sorted(r.subject for r in context.prs) == ["crash on resume", "hang on save"]
        # Nor does a key PR's line, where the importance follows the subject (verl #7362).
        (crash,) = [item.text for item in group.items if item.pr.number == 1]
        assert "resume (" in crash or "resume（" in crash
        assert "resume. (" not in crash and "resume.（" not in crash


def config_group(*flagged: FlaggedPr) -> RiskGroup:
    return RiskGroup(
        kind="config_default_change",
        numbers=[f.number for f in flagged],
        listed=list(flagged),
        unlisted=0,
        reverts=[],
    )


def flagged(
    number: int,
    settings: list[SettingChange],
    paths: list[str],
    uncompared: Sequence[str] = (),
    deleted: Sequence[str] = (),
) -> FlaggedPr:
    return FlaggedPr(
        number=number,
        subject="x",
        lines=None,
        paths=paths,
        modules=[],
        asks=[],
        settings=settings,
        uncompared_paths=list(uncompared),
        deleted_paths=list(deleted),
    )


def test_the_prs_a_risk_leaves_unlisted_are_counted_apart_from_the_last_ones_clauses() -> None:
    """vllm-ascend's 2026-08-03 report: "#12982 changes 1324 lines ..., 419 of them in tests
    and 4 more" read as 423 lines."""
    large = replace(flagged(12982, [], []), lines=1324, test_lines=419, uncounted=["doc"])
    group = RiskGroup(kind="large_change", numbers=[12982], listed=[large], unlisted=4, reverts=[])
    assert EN.risk_text(group) == (
        "#12982 changes 1324 lines outside docs, 419 of them in tests;"
        " and 4 more PRs, which makes review and regression checks harder."
    )
    assert ZH.risk_text(group) == (
        "#12982 改动 1324 行（不含文档），其中测试 419 行；另有 4 个 PR，评审与回归验证的难度更高。"
    )
    assert EN.risk_text(replace(group, unlisted=1)).endswith(
        "; and 1 more PR, which makes review and regression checks harder."
    )


def test_a_very_large_change_names_the_files_its_lines_leave_out_that_it_has() -> None:
    """VeOmni #767 read "changes 1872 lines outside documentation and data files" of its
    9,142: 7,124 were generated code, which it did not name, and it had no data file."""
    v5 = replace(flagged(767, [], []), lines=1872, uncounted=["doc", "generated"])
    plain = replace(flagged(2, [], []), lines=1200)
    group = RiskGroup(
        kind="large_change", numbers=[767, 2], listed=[v5, plain], unlisted=0, reverts=[]
    )
    assert EN.risk_text(group) == (
        "#767 changes 1872 lines outside docs and generated code; #2 changes 1200 lines,"
        " which makes review and regression checks harder."
    )
    assert ZH.risk_text(group) == (
        "#767 改动 1872 行（不含文档、生成代码）；#2 改动 1200 行，评审与回归验证的难度更高。"
    )


def test_config_default_changes_name_their_settings_and_values() -> None:
    env_var = "Environment.TILELANG_CLEANUP_TEMP_FILES"
    switched = flagged(
        5951,
        [
            SettingChange(key="algorithm.use_legacy_worker_impl", before="auto", after="disable"),
            # tilelang #2254: a long value is cut to the part that changed.
            SettingChange(
                key=env_var,
                before="EnvVar('TILELANG_CLEANUP_TEMP_FILES', '0')",
                after="EnvVar('TILELANG_CLEANUP_TEMP_FILES', '1')",
            ),
            SettingChange(key="data.max_prompt_length", before="512", after=None),
        ],
        ["verl/trainer/config/ppo_trainer.yaml", "verl/trainer/config/legacy.yaml"],
        uncompared=["verl/trainer/config/legacy.yaml"],
    )
    renamed = flagged(
        1607,
        [
            SettingChange(key="Checkpoint.enable_checkpoint", before="False", after=None),
            SettingChange(key="Checkpoint.enable", before=None, after="False"),
        ],
        ["torchtitan/config/job_config.py"],
    )
    assert EN.risk_text(config_group(renamed)) == (
        "#1607 renames the setting Checkpoint.enable_checkpoint to Checkpoint.enable."
    )
    assert ZH.risk_text(config_group(renamed)) == (
        "#1607 重命名了配置项 Checkpoint.enable_checkpoint → Checkpoint.enable。"
    )
    # verl #1668 removed `format` with `chatml` from the trainer configs and `qwen` from the
    # examples: "removes the settings ...multi_turn.format, ...multi_turn.format".
    twice = flagged(
        1668,
        [
            SettingChange(key="multi_turn.format", before="chatml", after=None),
            SettingChange(key="multi_turn.format", before="qwen", after=None),
        ],
        ["verl/trainer/config/ppo_trainer.yaml"],
    )
    assert EN.risk_text(config_group(twice)) == "#1668 removes the setting multi_turn.format."
    # lmdeploy #4806: one key changed two ways in two files says which file is which.
    intern, glm = "configs/Intern-S1.yml", "configs/glm-4v.yml"
    two_ways = flagged(
        4806,
        [
            SettingChange(key="quant", before="[a, b]", after="[b]", path=intern),
            SettingChange(key="quant", before="[a, b, c]", after="[b, c]", path=glm),
            SettingChange(key="tp", before="1", after="2", path=intern),
        ],
        [intern, glm],
    )
    assert EN.risk_text(config_group(two_ways)) == (
        f"#4806 changes the defaults of quant in {intern} ([a, b] → [b]),"
        f" quant in {glm} ([a, b, c] → [b, c]), tp (1 → 2)."
    )
    assert ZH.risk_text(config_group(two_ways)).startswith(
        f"#4806 改变了默认值：{intern} 中的 quant（[a, b] → [b]）"
    )
    unknown = flagged(7, [], ["conf/a.yaml", "conf/b.yaml"])
    sft = "verl/trainer/config/sft_trainer.yaml"
    assert EN.risk_text(config_group(flagged(5382, [], [sft], deleted=[sft]))) == (
        f"#5382 deletes the configuration file {sft}."
    )
    assert ZH.risk_text(config_group(flagged(5382, [], [sft], deleted=[sft]))) == (
        f"#5382 删除了配置文件 {sft}。"
    )
    group = config_group(switched, unknown)
    assert EN.risk_text(group) == (
        "#5951 changes the defaults of algorithm.use_legacy_worker_impl (auto → disable),"
        f" {env_var} (…ILES', '0') → …ILES', '1')), and removes the setting"
        " data.max_prompt_length, and changes verl/trainer/config/legacy.yaml, whose settings"
        " could not be compared, so defaults may have changed or settings been removed;"
        " #7 changes conf/a.yaml, conf/b.yaml, whose settings could not be compared, so defaults"
        " may have changed or settings been removed."
    )
    assert ZH.risk_text(group) == (
        "#5951 改变了默认值：algorithm.use_legacy_worker_impl（auto → disable）、"
        f"{env_var}（…ILES', '0') → …ILES', '1')），并删除了配置项 data.max_prompt_length，"
        "并修改了 verl/trainer/config/legacy.yaml，其配置项未能比较，"
        "默认值可能已改变或配置项已被删除；"
        "#7 修改了 conf/a.yaml、conf/b.yaml，其配置项未能比较，默认值可能已改变或配置项已被删除。"
    )


def test_the_report_says_what_the_stored_flag_says_of_a_moved_setting() -> None:
    """A key removed from one file and changed in another moved there with a new value: the
    flag's detail (what `risk_backlog` shows) says so, and the report's sentence, built from
    the flag's stored settings, must not add that the setting was removed."""
    trainer, sft = "verl/trainer/config/ppo_trainer.yaml", "examples/config/sft.yaml"
    pr = make_pr(1, files=[(trainer, 1, 1), (sft, 1, 1)])
    diffs = [
        ConfigFileDiff(
            repo=REPO,
            pr_number=1,
            path=trainer,
            comparable=True,
            changes=[SettingChange(key="data.format", before="chatml", after=None)],
        ),
        ConfigFileDiff(
            repo=REPO,
            pr_number=1,
            path=sft,
            comparable=True,
            changes=[SettingChange(key="data.format", before="chatml", after="qwen")],
        ),
    ]
    [flag] = flag_risks([pr], {}, ReviewData(available=False), ScoringConfig(), {}, diffs)
    assert flag.detail == "changes defaults: data.format chatml → qwen"
    stored = flagged(1, flag.settings, flag.paths)
    assert EN.risk_text(config_group(stored)) == (
        "#1 changes the defaults of data.format (chatml → qwen)."
    )
    assert ZH.risk_text(config_group(stored)) == "#1 改变了默认值：data.format（chatml → qwen）。"


def test_reverts_whose_target_is_unknown_share_one_sentence() -> None:
    chains = [
        RevertChain(number=11562, target=9865, title="Estimate ACL graph memory", reopened=[]),
        RevertChain(number=11580, target=None, title=None, reopened=[]),
        RevertChain(number=11845, target=None, title=None, reopened=[]),
    ]
    assert EN.revert_sentences(chains) == [
        '#11562 reverted #9865 ("Estimate ACL graph memory").',
        "#11580 and #11845 are reverts whose reverted PRs could not be identified.",
    ]
    assert EN.revert_sentences(chains[1:2]) == [
        "#11580 is a revert, but the reverted PR could not be identified."
    ]
    assert ZH.revert_sentences(chains[1:])[0].startswith("#11580、#11845 是回退")


def _fsdpturbo_pr(**extra: object) -> PullRequest:
    """Modelled on verl #7362: a title-only description over an engine file, example scripts,
    tests, docs and a CI workflow."""
    pr = make_pr(
        7362,
        "[ci, trainer] feat: add fsdpturbo backend engine support.",
        body="### What does this PR do?\n\nadd fsdpturbo backend engine support.",
        files=[
            (".github/workflows/e2e_ppo_trainer_fsdp_turbo_vllm.yml", 156, 0),
            ("docs/advance/fsdp_turbo_backend.rst", 236, 0),
            ("examples/grpo_trainer/run_qwen3_5_27b_fsdp_turbo.sh", 211, 0),
            ("examples/grpo_trainer/run_qwen3_5_35b_fsdp_turbo.sh", 221, 0),
            ("tests/special_e2e/run_ppo_trainer_fsdp_turbo.sh", 153, 0),
            ("verl/trainer/config/engine/fsdp.yaml", 16, 1),
            ("verl/workers/engine/fsdp/__init__.py", 2, 1),
            ("verl/workers/engine/fsdp/fsdp_turbo_impl.py", 151, 0),
        ],
    )
    files = [
        f.model_copy(update={"status": "added"}) if f.path.endswith("_impl.py") else f
        for f in pr.files
    ]
    return pr.model_copy(update={"files": files, **extra})


def test_an_outline_names_generated_code_beside_the_code_not_as_its_place() -> None:
    """VeOmni #767's outline led with `qwen2_5_omni/generated/` (2 files, 6115 lines), the
    modeling files its patch generator rewrote, over the code changed by hand."""
    pr = make_pr(
        767,
        "[model] feat: update qwen2.5omni to v5",
        files=[
            ("verl/models/omni/generated/patched_modeling_omni_gpu.py", 5000, 15),
            ("verl/models/omni/generated/patched_modeling_omni_gpu.diff", 1100, 0),
            ("verl/models/omni/modeling_omni.py", 1300, 90),
        ],
    )
    outline = facts.change_outline(pr, CONFIG)
    assert outline is not None
    assert [p.path for p in outline.places] == ["verl/models/omni/modeling_omni.py"]
    assert outline.support == ["generated"]
    assert EN.change_outline(outline, 300).endswith(
        "it changes verl/models/omni/modeling_omni.py (1390 lines),"
        " and 2 files of generated code (6115 lines)."
    )
    assert ZH.change_outline(outline, 300).endswith(
        "改动了 verl/models/omni/modeling_omni.py（1390 行），另有生成代码 2 个文件（6115 行）。"
    )


def test_an_outline_names_vendored_code_beside_the_code_not_as_its_place() -> None:
    """LLaMA-Factory #10504 "Patch GDN for NPU" copied 3,148 lines of triton kernels into
    `third_party/triton/`, which its outline named as where it changed things."""
    pr = make_pr(
        10504,
        "[model] Patch GDN for NPU",
        files=[
            ("verl/third_party/triton/chunk_o.py", 617, 0),
            ("verl/third_party/triton/chunk_delta_h.py", 594, 0),
            ("verl/models/patcher.py", 60, 3),
        ],
    )
    outline = facts.change_outline(pr, CONFIG)
    assert outline is not None
    assert [p.path for p in outline.places] == ["verl/models/patcher.py"]
    assert outline.support == ["vendored"]
    assert EN.change_outline(outline, 300).endswith(
        "it changes verl/models/patcher.py (63 lines), and 2 files of vendored code (1211 lines)."
    )
    assert ZH.change_outline(outline, 300).endswith(
        "改动了 verl/models/patcher.py（63 行），另有第三方代码 2 个文件（1211 行）。"
    )


def test_an_outline_names_the_largest_core_place_first_then_the_largest_other() -> None:
    outline = facts.change_outline(_fsdpturbo_pr(), CONFIG)
    assert outline is not None
    assert (outline.files, outline.lines, outline.place_count) == (8, 1148, 3)
    # The engine folder (153 lines, core) before the examples' (432 lines, not core).
    assert [(p.path, p.files, p.lines, p.core) for p in outline.places] == [
        ("verl/workers/engine/fsdp/", 2, 154, True),
        ("examples/grpo_trainer/", 2, 432, False),
    ]
    assert outline.support == ["test", "doc", "ci"]
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; "
        "it changes 8 files (1148 lines) in 3 folders, "
        "including verl/workers/engine/fsdp/ (2 files, 154 lines) and examples/grpo_trainer/ "
        "(2 files, 432 lines), besides tests, docs, and CI."
    )
    assert ZH.change_outline(outline, 300) == (
        "提交信息只有标题；改动了 8 个文件（1148 行），分布在 3 个目录，包括 "
        "verl/workers/engine/fsdp/（2 个文件，154 行）、"
        "examples/grpo_trainer/（2 个文件，432 行），另有测试、文档、CI 改动。"
    )
    # Past the limit, it names one place fewer rather than being cut.
    short = EN.change_outline(outline, 160)
    assert "examples/grpo_trainer/" not in short and short.endswith("besides tests, docs, and CI.")
    # A message with more than the title, though no summary (verl #7242: a link and a block of
    # metrics), is not said to have nothing beyond it.
    linked = _fsdpturbo_pr(
        body="### What does this PR do?\n\nVeOmni counterpart PR https://github.com/x/y/pull/962"
        "\n\n```\ntraining/kl:0.005\n```\n\nNext PRs:"
    )
    described = facts.change_outline(linked, CONFIG)
    assert described is not None and described.described
    assert EN.change_outline(described, 300).startswith(
        "The commit message does not summarise the change; it changes 8 files"
    )
    assert ZH.change_outline(described, 300).startswith("提交信息未概述改动内容；改动了 8 个文件")


def test_an_outline_naming_every_place_gives_no_totals_before_them() -> None:
    # tpu-inference #2313 read "it changes 2 files (28 lines) in vllm_model_wrapper.py (16
    # lines) and compilation_manager.py (12 lines)": two files "in" two files.
    pr = make_pr(
        2313,
        "Fix multimodal in torchax path",
        files=[("verl/models/wrapper.py", 10, 6), ("verl/runner/compile.py", 8, 4)],
    )
    outline = facts.change_outline(pr, CONFIG)
    assert outline is not None and outline.place_count == 2
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; "
        "it changes verl/models/wrapper.py (16 lines) and "
        "verl/runner/compile.py (12 lines)."
    )
    assert ZH.change_outline(outline, 300) == (
        "提交信息只有标题；改动了 verl/models/wrapper.py（16 行）、"
        "verl/runner/compile.py（12 行）。"
    )
    # Past the limit, the totals come back with the one place there is room for.
    assert EN.change_outline(outline, 100) == (
        "The commit message says nothing beyond the title; "
        "it changes 2 files (28 lines) in 2 folders, "
        "including verl/models/wrapper.py (16 lines)."
    )


def test_an_outline_of_every_code_place_counts_the_other_files_apart() -> None:
    # verl #1372: one code file beside tests, docs and CI read "it changes 4 files (91 lines)
    # in verl/single_controller/base/worker.py (15 lines)", four files in one.
    pr = make_pr(
        1372,
        "[ray] fix: enable part of ray test to be run on CPU machine",
        files=[
            ("verl/single_controller/base/worker.py", 10, 5),
            ("tests/ray/test_worker.py", 40, 6),
            ("tests/ray/conftest.py", 10, 0),
            ("docs/start/install.rst", 8, 2),
            (".github/workflows/ray_cpu_test.yml", 10, 0),
        ],
    )
    outline = facts.change_outline(pr, CONFIG)
    assert outline is not None and outline.place_count == 1
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; "
        "it changes verl/single_controller/base/worker.py "
        "(15 lines), and 4 files of tests, docs, and CI (76 lines)."
    )
    assert ZH.change_outline(outline, 300) == (
        "提交信息只有标题；改动了 verl/single_controller/base/worker.py（15 行），"
        "另有测试、文档、CI 4 个文件（76 行）。"
    )
    # Latin after Chinese keeps its space (ColossalAI #5893 read "另有CI 3 个文件").
    ci_only = make_pr(
        5893,
        "support torch2.3",
        files=[("verl/worker.py", 2, 0), (".github/workflows/build.yml", 9, 1)],
    )
    ci_outline = facts.change_outline(ci_only, CONFIG)
    assert ci_outline is not None
    assert ZH.change_outline(ci_outline, 300).endswith("另有 CI 1 个文件（10 行）。")
    # A re-lock is no place of the code (AReaL #1056 read "including the repository root (2
    # files, 2261 lines)": pyproject.toml and uv.lock).
    relocked = make_pr(
        1056,
        "feat: megatron bridge adaptation",
        files=[("areal/engine/megatron_engine.py", 142, 0), ("uv.lock", 2000, 245)],
    )
    lock_outline = facts.change_outline(relocked, CONFIG)
    assert lock_outline is not None
    assert EN.change_outline(lock_outline, 300).endswith(
        "it changes areal/engine/megatron_engine.py (142 lines), and 1 file of lock files"
        " (2245 lines)."
    )
    assert ZH.change_outline(lock_outline, 300).endswith("另有依赖锁文件 1 个文件（2245 行）。")


def test_an_outline_says_where_nothing_beyond_the_title_was_found() -> None:
    """The git source reads the merge commit's message: slime #2262's commit had no body, its
    PR a long description, which the report said it lacked."""
    committed = make_pr(1, "[doc] chore: news", files=[("README.md", 1, 0)])
    fetched = committed.model_copy(update={"source": "github"})
    texts = {
        (pr.source, words.lang): words.change_outline(outline, 300)
        for pr in (committed, fetched)
        if (outline := facts.change_outline(pr, CONFIG)) is not None
        for words in (EN, ZH)
    }
    assert texts == {
        ("git", "en"): "The commit message says nothing beyond the title; it changes README.md"
        " (1 line).",
        ("git", "zh"): "提交信息只有标题；改动了 README.md（1 行）。",
        ("github", "en"): "No description beyond the title; it changes README.md (1 line).",
        ("github", "zh"): "描述没有标题以外的信息；改动了 README.md（1 行）。",
    }


def test_an_outline_of_one_file_says_if_it_is_new_and_counts_lines_right() -> None:
    only = make_pr(1, "[doc] chore: news", files=[("README.md", 1, 0)])
    outline = facts.change_outline(only, CONFIG)
    assert outline is not None
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; it changes README.md (1 line)."
    )
    assert ZH.change_outline(outline, 300) == "提交信息只有标题；改动了 README.md（1 行）。"
    added = only.model_copy(
        update={"files": [only.files[0].model_copy(update={"status": "added", "additions": 40})]}
    )
    outline = facts.change_outline(added, CONFIG)
    assert outline is not None and "README.md (new, 40 lines)" in EN.change_outline(outline, 300)


def test_an_outline_counts_no_lines_for_files_without_them() -> None:
    # ColossalAI #3286 read "applications/Chat/assets/ (11 files, 0 lines)": images.
    images = make_pr(
        3286,
        "[chat] add example",
        files=[("chat/assets/a.png", 0, 0), ("chat/assets/b.png", 0, 0), ("chat/x.py", 70, 0)],
    )
    outline = facts.change_outline(images, CONFIG)
    assert outline is not None
    assert "chat/assets/ (2 files)" in EN.change_outline(outline, 300)
    assert "chat/assets/（2 个文件）" in ZH.change_outline(outline, 300)
    logo = make_pr(3287, "[doc] add logo", files=[("chat/assets/a.png", 0, 0)])
    added = logo.files[0].model_copy(update={"status": "added"})
    outline = facts.change_outline(logo.model_copy(update={"files": [added]}), CONFIG)
    assert outline is not None
    assert EN.change_outline(outline, 300).endswith("it changes chat/assets/a.png (new).")
    assert ZH.change_outline(outline, 300).endswith("改动了 chat/assets/a.png（新增）。")


def test_an_outline_without_code_places_the_supporting_files_themselves() -> None:
    docs = make_pr(2, "[doc] feat: npu docs", files=[("docs/a.md", 30, 0), ("docs/b.md", 20, 0)])
    outline = facts.change_outline(docs, CONFIG)
    assert outline is not None and outline.support == []
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; it changes 2 files (50 lines) in docs/."
    )


def test_an_outline_of_a_partial_file_list_says_the_folders_are_a_floor() -> None:
    # GitHub lists a PR's first 100 files; the PR's own counts say how many there are.
    partial = _fsdpturbo_pr(changed_files=240, additions=9000, deletions=10)
    outline = facts.change_outline(partial, CONFIG)
    assert outline is not None and not outline.complete
    text = EN.change_outline(outline, 300)
    assert text.startswith(
        "The commit message says nothing beyond the title; it changes 240 files (9010 lines)"
    )
    assert " in 3 or more folders, including " in text
    assert "分布在至少 3 个目录" in ZH.change_outline(outline, 300)
    assert facts.change_outline(partial.model_copy(update={"files": []}), CONFIG) is None


def test_an_outline_of_one_folder_gives_its_counts_once_and_names_the_repository_root() -> None:
    engine = make_pr(3, "Adding slice", files=[("te/jax/a.py", 20, 0), ("te/jax/b.py", 4, 0)])
    outline = facts.change_outline(engine, CONFIG)
    assert outline is not None
    assert EN.change_outline(outline, 300) == (
        "The commit message says nothing beyond the title; "
        "it changes 2 files (24 lines) in te/jax/."
    )
    assert ZH.change_outline(outline, 300).endswith("改动了 2 个文件（24 行），均在 te/jax/。")
    readmes = make_pr(4, "Add ci badge", files=[("README.md", 1, 0), ("README_zh.md", 1, 1)])
    outline = facts.change_outline(readmes, CONFIG)
    assert outline is not None
    assert EN.change_outline(outline, 300).endswith("(3 lines) in the repository root.")
    assert (
        ZH.change_outline(outline, 300) == "提交信息只有标题；改动了 2 个文件（3 行），均在根目录。"
    )


def _predicted_context(lang: Lang, guessed: Sequence[int]) -> ReportContext:
    prs = [make_pr(1, "[fsdp] feat: shard"), make_pr(2, "tidy"), make_pr(3, "tidy more")]
    modules = {1: ["fsdp"], 2: ["ci"], 3: ["ci"]}
    labels = [
        ModuleLabel(
            repo=REPO,
            number=n,
            module=m,
            origin="model" if n in guessed else "title",
            confidence=0.4 if n in guessed else 1.0,
        )
        for n, names in modules.items()
        for m in names
    ]
    return build_report_context(
        REPO,
        WINDOW,
        prs,
        labels,
        [],
        score_week(prs, modules, NO_REVIEWS, CONFIG, CALIBRATION),
        [],
        NO_REVIEWS,
        None,
        lang,
        calibration=CALIBRATION,
    )


def test_modules_only_the_classifier_gave_are_counted_and_marked() -> None:
    # slime's week of 2026-08-10: all 10 of its `ci` PRs were predictions.
    en = _predicted_context("en", guessed=[2, 3])
    assert {ref.number for ref in en.prs if ref.predicted} == {2, 3}
    assert en.trends_lead[-1] == (
        "2 of the week's 3 PRs name no module in their titles or labels: their modules are the"
        " classifier's predictions (marked * in the appendix), counted in the table like the rest."
    )
    rows = {line.split(" | ")[0]: line for line in render_report(en, "en", "md").splitlines()}
    assert rows["| [#2](<https://github.com/verl-project/verl/pull/2>)"].count("| ci \\* |") == 1
    assert "\\*" not in rows["| [#1](<https://github.com/verl-project/verl/pull/1>)"]
    assert "<td>ci *</td>" in render_report(en, "en", "html")
    zh = _predicted_context("zh", guessed=[2])
    assert zh.trends_lead[-1].startswith("本周 3 个 PR 中有 1 个的标题和标签未标注模块")
    singular = _predicted_context("en", guessed=[2]).trends_lead[-1]
    assert singular.startswith("1 of the week's 3 PRs names no module in its title or labels: its")
    # Every PR guessed: not "3 of the week's 3 PRs".
    every = _predicted_context("en", guessed=[1, 2, 3]).trends_lead[-1]
    assert every.startswith("None of the week's 3 PRs names a module in its title or labels:")
    every_zh = _predicted_context("zh", guessed=[1, 2, 3]).trends_lead[-1]
    assert every_zh.startswith("本周 3 个 PR 的标题和标签均未标注模块")
    assert not any("classifier" in line for line in _predicted_context("en", []).trends_lead)


def test_a_report_names_modules_as_configured_else_built_in_else_as_the_repository_writes() -> None:
    """vllm-omni's trend table read `new_model`; its titles write `[New model]`."""
    spellings = {
        "new_model": "New Model",
        "fsdp": "Fsdp",
        "misc": "misc",
        "kv_pool": "KVPool",
        "pre_commit.ci": "pre-commit.ci",  # tilelang's bot PRs
        "examples": "example",  # another spelling the label folds in, not the label's own
        "ci/cd": "CI/CD",  # production-stack's trend table read `CI/cd`
        "pytorch/jax": "Pytorch/JAX",
    }
    names = module_display_names({"kv_pool": "KV pool"}, spellings)
    assert names == {
        "new_model": "New Model",
        "pre_commit.ci": "pre-commit.ci",
        "kv_pool": "KV pool",
        "ci/cd": "CI/CD",
    }
    words = replace(EN, module_names=names)
    shown = [words.display_name(m) for m in ("new_model", "fsdp", "misc", "kv_pool")]
    assert shown == ["New Model", "FSDP", "misc", "KV pool"]


def test_the_raw_score_is_shown_as_the_sum_of_its_parts() -> None:
    """The importance beside a PR is its raw score's rank in the history (#6268: 10.0 from a
    raw 8.3), so the parts read as adding up to the raw score, not to the importance."""
    parts = {"size": 2.7, "core": 2.44, "type": 1.8, "fix_impact": 1.4, "breadth": 0.3}
    score = PrScore(
        number=6268,
        importance=10.0,
        raw_score=sum(parts.values()),
        parts={**parts, "review": 0.0},
        is_key=True,
        pr_type="fix",
    )
    assert (
        EN.basis(score) == "8.6 = size 2.7 + core paths 2.4 + type 1.8 + fix impact 1.4 + other 0.3"
    )
    assert ZH.basis(score) == "8.6 = 规模 2.7 + 核心路径 2.4 + 类型 1.8 + 修复后果 1.4 + 其他 0.3"
    four = score.model_copy(update={"parts": {"type": 1.0, "size": 2.0}, "raw_score": 3.0})
    assert EN.basis(four) == "3.0 = size 2.0 + type 1.0"
    nothing = score.model_copy(update={"parts": {"type": 0.0}, "raw_score": 0.0})
    assert EN.basis(nothing) == "0.0"
    # Rounded one by one these read 1.8 + 1.6 + 1.6 + 1.1 + 0.7 = 6.8 beside a raw 6.9 (verl
    # #6334): rounded to their total, they add up.
    uneven = {"type": 1.8, "size": 1.64, "core": 1.64, "fix_impact": 1.14, "breadth": 0.66}
    rounded = score.model_copy(update={"parts": uneven, "raw_score": sum(uneven.values())})
    assert EN.basis(rounded) == (
        "6.9 = type 1.8 + size 1.7 + core paths 1.6 + fix impact 1.1 + other 0.7"
    )


def test_sentences_of_names_and_words_put_no_space_between_chinese_words() -> None:
    """A space the templates leave before a name stays where the name ends in Chinese:
    vllm-ascend's 2026-08-03 read "NPU/昇腾 不作为主题统计", its 2026-07-06 "最终回到原来的
    任意版本" and slime's 2026-06-29 "确认依赖、镜像 变更在各环境与流水线中正常工作"."""
    between_chinese = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")
    [subject] = ZH.subject_themes_note({"NPU/Ascend": 0.8}, 1086)
    assert subject.startswith("NPU/昇腾不作为主题统计")
    back = facts.RequirementChain(
        "docs/requirements-docs.txt",
        "openai",
        [facts.RequirementStep(11252, "", None), facts.RequirementStep(11605, None, "")],
    )
    chain = ZH.risk_text(RiskGroup("dependency_change", [11252, 11605], [], 0, [], [back]))
    assert "openai 最终回到原来的任意版本（#11252 移除" in chain
    checks = facts.FollowUp(
        "works_everywhere",
        [2262, 2199],
        facts.MAX_LISTED,
        parts=(("dependency_change", (2262,)), ("docker_change", (2199,))),
    )
    [follow_up] = ZH.suggestions([checks])
    assert follow_up.startswith(
        "确认依赖、镜像变更在各环境与流水线中正常工作：依赖 #2262；镜像 #2199"
    )
    assert not any(between_chinese.search(text) for text in (subject, chain, follow_up))
    # A name that ends in Latin letters keeps its space: "确认依赖、CI 变更".
    ci = replace(checks, parts=(("dependency_change", (2262,)), ("ci_change", (2199,))))
    assert ZH.suggestions([ci])[0].startswith("确认依赖、CI 变更")


def test_a_shortened_list_of_prs_says_what_it_counts() -> None:
    """vllm-ascend's 2026-07-13 asked "确认 #11953、… 等 10 个 对配置项的改动": a count of PRs
    the sentence goes on from, without its noun. Other shortened lists keep theirs."""
    numbers = list(range(11951, 11961))
    assert ZH.refs(numbers, 6).endswith("#11956 等 10 个 PR")
    assert EN.refs(numbers, 6).endswith("#11956 and 4 more")
    settings = facts.FollowUp("config_default_change", numbers, 6)
    assert ZH.suggestions([settings]) == [
        "确认 #11951、#11952、#11953、#11954、#11955、#11956 等 10 个 PR 对配置项的改动"
        "（默认值变化、配置项重命名或删除），并在发布说明中注明。"
    ]
    assert ZH.refs(numbers[:3], 6) == "#11951、#11952、#11953"


def _phrases(value: object) -> list[str]:
    """Every string in a wording's fields, however nested (pairs, dicts, named tuples)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        value = list(value.values())
    elif is_dataclass(value) and not isinstance(value, type):
        value = [getattr(value, f.name) for f in fields(value)]
    if isinstance(value, tuple | list | frozenset):
        return [p for v in value for p in _phrases(v)]
    return []


def test_the_chinese_report_calls_a_review_one_thing() -> None:
    """Every sentence says 评审 (评审意见, 评审人, 评审数据); the no-approval follow-up alone
    asked "请维护者补充审阅"."""
    assert not [p for p in _phrases(ZH) if "审阅" in p]
    no_approval = facts.FollowUp("no_approval", [6398], facts.MAX_LISTED)
    assert ZH.suggestions([no_approval]) == ["请维护者补充评审 #6398。"]


def test_a_theme_left_out_as_the_repositorys_subject_is_said_in_chinese_words() -> None:
    """vllm-ascend's 2026-08-03 read "不只是文档、CI 等日常维护的有 1086 个，其中 80% 带有它，它说明
    的是仓库本身": the English sentence word for word, its "it" twice."""
    assert ZH.subject_themes_note({"NPU/Ascend": 0.8}, 1086) == [
        "NPU/昇腾不作为主题统计：本仓库已存的 PR 中，除文档、CI 等日常维护外共有 1086 个，其中"
        " 80% 带有该主题，可见它体现的是仓库本身的定位，而非本周的变化。"
    ]
    assert ZH.subject_themes_note({"NPU/Ascend": 0.8, "MoE": 0.6}, 1086) == [
        "NPU/昇腾、MoE 不作为主题统计：本仓库已存的 PR 中，除文档、CI 等日常维护外共有 1086 个，"
        "这些主题各出现在其中至少 60% 的 PR 中，可见它们体现的是仓库本身的定位，而非本周的变化。"
    ]


def test_a_count_of_prs_all_of_one_type_is_not_said_twice() -> None:
    """slime's 2026-08-10 read "本周 glm5 共 1 个 PR（新功能 1 个）" and "另有 3 个 PR（修复 3
    个）": the count again beside the one type. Several types, or a count not said before,
    keep theirs; English keeps its count ("1 feature")."""
    assert ZH.count_phrase([("fix", 3)], 3) == "全部为修复"
    assert ZH.count_phrase([("feat", 1)], 1) == "新功能"
    assert ZH.count_phrase([("fix", 3)]) == "修复 3 个"
    assert ZH.count_phrase([("fix", 2), ("doc", 1)], 3) == "修复 2 个、文档 1 个"
    assert EN.count_phrase([("fix", 3)], 3) == EN.count_phrase([("fix", 3)]) == "3 fixes"
    assert EN.count_phrase([("feat", 1)], 1) == "1 feature"
