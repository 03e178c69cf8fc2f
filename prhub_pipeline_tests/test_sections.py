"""The key-change sections: which section each PR is listed in (`reporting/sections.py`)."""

from __future__ import annotations

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.tagging.themes import housekeeping_themes
from prhub_pipeline.records import PrScore
from prhub_pipeline.reporting import sections
from prhub_pipeline.reporting.models import PrRef
from prhub_pipeline.reporting.wording import WORDINGS
from prhub_pipeline_tests.test_importance import make_pr
from prhub_pipeline_tests.test_report import _key_ref, _unlabelled_ref


def test_a_housekeeping_tag_beside_a_product_module_does_not_head_a_prs_group() -> None:
    """VeOmni tags the CI and docs a change touches: `[ckpt, ci, agent] fix: handle integer
    tensors in HF consolidation` is checkpoint work, and a title naming the CI in passing
    (verl's `[sglang] ... & CI tasks`) does not make it CI work. A PR tagged with housekeeping
    alone, or beside `misc`, which names no place, is listed under the theme."""

    def ref(number: int, modules: list[str], subject: str, predicted: bool = False) -> PrRef:
        return _key_ref(number, modules[0], 8.0).model_copy(
            update={"modules": modules, "subject": subject, "predicted": predicted}
        )

    refs = [
        ref(1, ["ckpt", "ci", "agent"], "handle integer tensors in HF consolidation"),
        ref(2, ["ckpt", "ci"], "drop empty param groups for DCP resume"),
        ref(3, ["dist", "docs"], "expose checkpoint early-stop setting"),
        *(ref(n, ["ci"], f"split GPU unit tests {n}") for n in (4, 5, 6)),
        ref(7, ["config", "docs"], "sync documentation with main"),
        ref(8, ["docs", "misc"], "refactor skill documentation"),
        ref(9, ["sglang"], "add sglang_async support & CI tasks"),
    ]
    themes = {n: ["CI/infrastructure"] for n in (1, 2, 4, 5, 6, 9)}
    themes |= {n: ["Docs"] for n in (3, 7, 8)}
    found = sections.groups(refs, themes, [], housekeeping_themes(None))
    filed = {r.number: group.name for group in found for r in group.members}
    assert filed == {1: "ckpt", 2: "ckpt", 3: "dist", 7: "config", 8: "Docs", 9: "sglang"} | (
        dict.fromkeys((4, 5, 6), "CI/infrastructure")
    )


def test_a_quiet_week_keeps_each_small_section() -> None:
    """Six sections, five of them with one PR: under MAX_SECTIONS, nothing is gathered (the
    first two one-PR sections were, and LLaMA-Factory's 2026-04-27 read "Other key changes")."""
    refs = [_key_ref(n, "rollout", 9.0) for n in range(3)]
    refs += [_key_ref(10 + n, f"area{n}", 8.0) for n in range(5)]
    found = sections.groups(refs, {}, [], {})
    assert [g.name for g in found] == ["rollout", *(f"area{n}" for n in range(5))]


def test_a_busy_week_gathers_its_smallest_sections_into_one() -> None:
    """Past MAX_SECTIONS, modules with one or two PRs share "Other key changes"; bigger
    groups keep their own sections, and the gathered PRs keep their module as a label."""
    big = [_key_ref(100 + n, "rollout", 9.0) for n in range(3)]
    small = [_key_ref(200 + n, f"area{n}", 8.0 + n / 100) for n in range(14)]
    found = sections.groups([*big, *small], {}, [], {})
    assert len(found) == sections.MAX_SECTIONS
    assert found[0].name == "rollout" and len(found[0].members) == 3
    more = found[-1]
    assert more.kind == "more" and len(more.members) == 14 - (sections.MAX_SECTIONS - 2)
    # The least important small groups are the ones gathered, each PR with its module.
    assert {r.number for r in more.members} == {200 + n for n in range(len(more.members))}
    assert more.label_of[200] == "area0"
    words = WORDINGS["en"]
    assert words.group_heading(more) == "Other key changes"
    assert words.group_lead(more, []).startswith(f"{len(more.members)} PRs from smaller modules")
    assert words.group_lead(more, []).endswith("all of them key.")


def test_a_small_module_with_the_weeks_most_important_pr_keeps_its_section() -> None:
    """The least important small groups are gathered, whatever their size: a module's one PR
    of 10.0 heads a section, while modules with two PRs of 8 share "Other key changes"."""
    pairs = [_key_ref(200 + n, f"area{n // 2}", 8.0 + n / 100) for n in range(22)]
    top = _key_ref(100, "kernel", 10.0)
    found = sections.groups([top, *pairs], {}, [], {})
    assert len(found) == sections.MAX_SECTIONS
    assert (found[0].kind, found[0].name) == ("label", "kernel")
    more = found[-1]
    assert more.kind == "more" and top not in more.members
    assert {more.label_of[r.number] for r in more.members} == {"area0", "area1", "area2"}


def test_a_busy_week_gives_key_prs_sections_before_groups_kept_for_their_size() -> None:
    """verl's 2026-01-05 showed six docs PRs scoring under 2 in a section of their own while
    PRs of 9.6 were gathered at the end."""
    docs = [_key_ref(100 + n, "doc", 1.0 + n / 10, is_key=False) for n in range(6)]
    key = [_key_ref(200 + n, f"area{n}", 9.0 + n / 100) for n in range(sections.MAX_SECTIONS)]
    found = sections.groups([*key, *docs], {}, [], {})
    assert [g.name for g in found] == [f"area{n}" for n in reversed(range(sections.MAX_SECTIONS))]
    # Gathered small sections stand where their most important PR ranks, not last.
    big = [_key_ref(300 + n, f"big{n // 3}", 7.0) for n in range(3 * 8)]
    small = [_key_ref(400 + n, f"small{n}", 9.5 + n / 100) for n in range(4)]
    ranked = sections.groups([*big, *small], {}, [], {})
    assert [g.kind for g in ranked][:2] == ["label", "more"]
    assert ranked[0].name == "small3" and max(r.importance for r in ranked[1].members) == 9.52


def test_a_week_without_a_key_pr_keeps_the_sections_of_its_most_important_prs() -> None:
    """torchtitan's 2026-02-02 had no PR over 5.4: its key changes listed only the unlabelled
    ones (3.0-3.7), and its three most important PRs were in no section. A week with a key PR
    keeps leaving out the small sections without one."""
    refs = [
        _key_ref(2216, "gpt_oss", 5.4, is_key=False),
        _key_ref(2310, "deepep", 5.3, is_key=False),
        _key_ref(2319, "typing", 3.8, is_key=False).model_copy(update={"modules": []}),
        *(_unlabelled_ref(n, []) for n in (2307, 2340, 2309)),
        _key_ref(2100, "docs", 2.0, is_key=False),
    ]
    themes = {2319: ["MoE"]}
    found = sections.groups(refs, themes, [], {})
    assert _filed(found) == {
        2216: ("label", "gpt_oss"),
        2310: ("label", "deepep"),
        2319: ("label", "MoE"),
        **dict.fromkeys((2307, 2340, 2309), ("other", "other")),
    }
    words = WORDINGS["en"]
    assert words.group_lead(found[0], []) == "1 gpt_oss PR this week (1 feature), not a key PR."
    assert WORDINGS["zh"].group_lead(found[0], []).endswith("非重点 PR。")
    with_key = [refs[0].model_copy(update={"importance": 7.5, "is_key": True}), *refs[1:]]
    assert {g.name for g in sections.groups(with_key, themes, [], {})} == {"gpt_oss", "other"}


def test_a_housekeeping_module_standing_for_its_left_out_theme_files_its_prs_as_the_theme() -> None:
    """vllm-ascend's `[Doc]` stands for its Docs theme, which its reports leave out: its docs
    PRs on multimodal models stayed docs work, not a Multimodal section's (2026-07-20 gave
    three of them one, past the week's 9.6 Scheduler PR). A guessed `doc` is no tag."""
    refs = [
        _key_ref(1, "attention", 8.3).model_copy(update={"modules": ["refactor"]}),
        *(_key_ref(n, "doc", 1.0, is_key=False) for n in range(2, 7)),
        _key_ref(7, "doc", 1.0, is_key=False).model_copy(update={"predicted": True}),
    ]
    themes = {n: ["Multimodal"] for n in (1, 2, 3, 7)}
    housekeeping = housekeeping_themes(None)
    left_out = sections.groups(refs, themes, [], housekeeping, stand_ins={"doc", "docs"})
    filed = _filed(left_out)
    assert (filed[2], filed[3], filed[7]) == (("label", "doc"),) * 2 + (("label", "Multimodal"),)
    filed = _filed(sections.groups(refs, themes, [], housekeeping))
    assert (filed[2], filed[3], filed[7]) == (("label", "Multimodal"),) * 3


def test_a_module_the_classifier_is_unsure_of_decides_no_section() -> None:
    """slime's week of 2026-08-10: its fixes that register their test in CI were guessed
    `ci` at 0.2-0.5 and made the week's CI section; a sure guess still files a PR."""
    unsure = [_key_ref(1, "ci", 8.7), _key_ref(2, "ci", 8.0)]
    refs = [
        *(ref.model_copy(update={"predicted": True, "unsure": ["ci"]}) for ref in unsure),
        _key_ref(3, "ci", 7.5).model_copy(update={"predicted": True}),
        _key_ref(4, "ci", 7.2).model_copy(
            update={"modules": ["ci", "rollout"], "predicted": True, "unsure": ["ci"]}
        ),
    ]
    found = sections.groups(refs, {}, [], {})
    assert _filed(found) == {
        1: ("other", "other"),
        2: ("other", "other"),
        3: ("label", "ci"),
        4: ("label", "rollout"),
    }


def test_code_leads_when_it_outweighs_the_files_housekeeping_is_about() -> None:
    scoring = ScoringConfig()
    whiten = make_pr(
        1,
        files=[
            (".github/workflows/pr-test.yml", 4, 0),
            ("slime/backends/megatron_utils/loss.py", 25, 15),
            ("tests/test_advantage_whiten_cp.py", 188, 0),
        ],
    )
    templates = make_pr(
        2, files=[(".github/ISSUE_TEMPLATE/bug_report.yml", 102, 0), ("CONTRIBUTING.md", 87, 0)]
    )
    patch = make_pr(
        3, files=[("docker/patch/latest/sglang.patch", 300, 20), ("slime/ray/actor.py", 9, 1)]
    )
    bump = make_pr(4, files=[("requirements.txt", 1, 1), ("slime/utils/flops.py", 1, 0)])
    assert sections.code_leads(whiten, scoring)
    assert not any(sections.code_leads(pr, scoring) for pr in (templates, patch, bump))


def test_a_housekeeping_label_the_pr_does_not_give_itself_yields_to_its_code() -> None:
    """slime's week of 2026-08-10: "whiten advantages over the DP group" changes 40 lines of
    `loss.py` and registers its test in a workflow; the classifier was sure it is `ci` and the
    CI theme matched the workflow, so it headed the week's CI section. A PR whose code leads
    is filed by its code when neither its title nor its labels say otherwise; a PR tagged
    `[ci]` by its author, or one that is mostly CI files, stays CI work."""

    def ref(number: int, *, predicted: bool, leads: bool = True) -> PrRef:
        return _key_ref(number, "ci", 8.0).model_copy(
            update={
                "predicted": predicted,
                "code_leads": leads,
                "places": ["slime/backends/megatron_utils/", "slime/backends/"],
            }
        )

    refs = [
        ref(1, predicted=True),
        ref(2, predicted=False),
        ref(3, predicted=True, leads=False),
        _key_ref(4, "ci", 7.0).model_copy(
            update={"modules": [], "code_leads": True, "places": ["slime/utils/", "slime/utils/"]}
        ),
        _key_ref(5, "ci", 7.0).model_copy(
            update={"modules": ["rollout", "ci"], "predicted": True, "code_leads": True}
        ),
    ]
    themes = {number: ["CI/infrastructure"] for number in range(1, 6)}
    found = sections.groups(refs, themes, [], housekeeping_themes(None))
    assert _filed(found) == {
        1: ("other", "other"),
        2: ("label", "CI/infrastructure"),
        3: ("label", "CI/infrastructure"),
        4: ("other", "other"),
        5: ("label", "rollout"),
    }


def test_a_prs_code_is_placed_in_the_folder_holding_most_of_its_lines() -> None:
    scoring = ScoringConfig()
    transform = make_pr(
        1,
        files=[
            ("src/transform/lower.cc", 90, 10),
            ("src/transform/common/attr.h", 40, 10),
            ("testing/python/test_lower.py", 300, 0),
        ],
    )
    assert sections.code_places(transform, scoring) == ["src/transform/", "src/transform/"]
    backend = make_pr(2, files=[("slime/backends/megatron_utils/actor.py", 30, 5)])
    assert sections.code_places(backend, scoring) == [
        "slime/backends/megatron_utils/",
        "slime/backends/",
    ]
    # No code (docs only), code at the top level or in a package's own folder, or code spread
    # over folders: no place.
    assert sections.code_places(make_pr(3, files=[("docs/a.md", 5, 0)]), scoring) == [None, None]
    assert sections.code_places(make_pr(4, files=[("src/a.cc", 5, 0)]), scoring) == [None, None]
    spread = make_pr(5, files=[("src/a/x.cc", 10, 0), ("src/b/y.cc", 10, 1), ("tl/c/z.py", 9, 0)])
    assert sections.code_places(spread, scoring) == [None, None]


def test_a_busy_weeks_unlabelled_prs_are_grouped_by_the_folder_they_change() -> None:
    """tilelang's `[BugFix]`-only weeks listed 31 PRs under one "Unlabelled changes"."""
    refs = [_unlabelled_ref(10 + n, ["src/transform/", "src/transform/"]) for n in range(3)]
    # Two PRs make a folder's section when one is key, as for a module.
    refs += [_unlabelled_ref(20, ["src/cuda/op/", "src/cuda/"], is_key=True)]
    refs += [_unlabelled_ref(21, ["src/cuda/op/", "src/cuda/"])]
    # Too few in the narrow folders, enough in the wider one.
    refs += [
        _unlabelled_ref(30 + n, [f"slime/backends/x{folder}/", "slime/backends/"])
        for n, folder in enumerate((0, 0, 1))
    ]
    refs += [_unlabelled_ref(40, [None, None], is_key=True)]
    refs += [_unlabelled_ref(41, ["tl/jit/", "tl/jit/"])]
    found = {
        (g.kind, g.name): [r.number for r in g.members] for g in sections.groups(refs, {}, [], {})
    }
    assert found == {
        ("place", "src/transform/"): [10, 11, 12],
        ("place", "src/cuda/op/"): [20, 21],
        ("place", "slime/backends/"): [30, 31, 32],
        ("other", sections.BESIDE_PLACES): [40, 41],
    }
    # A quiet week's few unlabelled PRs stay together.
    few = sections.groups(refs[: sections.MIN_PLACED_PRS - 1], {}, [], {})
    assert [(g.kind, len(g.members)) for g in few] == [("other", sections.MIN_PLACED_PRS - 1)]
    # A folder never pushes a module out: nine modules of three PRs leave no room.
    modules = [
        _key_ref(100 + n, f"area{n // 3}", 3.0, is_key=False)
        for n in range(3 * (sections.MAX_SECTIONS - 1))
    ]
    full = sections.groups([*modules, *refs], {}, [], {})
    assert [g.kind for g in full].count("label") == sections.MAX_SECTIONS - 1
    assert {r.number for g in full if g.kind == "other" for r in g.members} == {
        r.number for r in refs
    }
    # Modules of one or two PRs can go together to make room; the smallest folders go with
    # them, a folder's PRs under their folder.
    small = [
        _key_ref(200 + n, f"small{n // 2}", 9.5) for n in range(2 * (sections.MAX_SECTIONS - 2))
    ]
    grouped = sections.groups([*small, *refs], {}, [], {})
    assert len(grouped) == sections.MAX_SECTIONS
    (more,) = [g for g in grouped if g.kind == "more"]
    assert {g.name for g in grouped if g.kind == "place"} == {"src/transform/", "slime/backends/"}
    assert more.label_of[20] == "src/cuda/op/"
    words = WORDINGS["en"]
    score = PrScore(number=20, importance=8.0, raw_score=8.0, parts={}, is_key=True, pr_type="fix")
    assert words.labelled_item_text("src/cuda/op/", refs[3], score).startswith("src/cuda/op/ · ")


def test_a_folder_inside_another_folders_section_joins_it_unless_it_has_more_prs() -> None:
    """vllm-omni's 2025-12-22 had "Unlabelled changes in vllm_omni/entrypoints/" (5 PRs)
    beside "... in vllm_omni/entrypoints/openai/" (4), as if the first held none of the
    second's changes; they are one section now. slime's 2025-11-24 keeps its 22 PRs in
    `slime/backends/megatron_utils/` apart from the 3 others in `slime/backends/`."""
    entry, openai = "vllm_omni/entrypoints/", "vllm_omni/entrypoints/openai/"
    refs = [_unlabelled_ref(10 + n, [entry, entry], is_key=n == 0) for n in range(5)]
    refs += [_unlabelled_ref(20 + n, [openai, entry], is_key=n == 0) for n in range(4)]
    megatron, backends = "slime/backends/megatron_utils/", "slime/backends/"
    refs += [_unlabelled_ref(30 + n, [megatron, backends], is_key=n == 0) for n in range(4)]
    refs += [_unlabelled_ref(40 + n, [f"{backends}x{n}/", backends]) for n in range(3)]
    found = {
        (g.kind, g.name): [r.number for r in g.members] for g in sections.groups(refs, {}, [], {})
    }
    assert found == {
        ("place", entry): [*range(10, 15), *range(20, 24)],
        ("place", megatron): list(range(30, 34)),
        ("place", backends): list(range(40, 43)),
    }


def _filed(found: list[sections.Group]) -> dict[int, tuple[sections.GroupKind, str]]:
    """Each PR's section, as (kind, name)."""
    return {ref.number: (group.kind, group.name) for group in found for ref in group.members}


def test_a_label_spread_over_many_sections_names_those_holding_most_of_it() -> None:
    """vllm-ascend's 2026-08-03 sent NPU/Ascend's readers to eight other sections, nearly every
    one: past MAX_SEE_ALSO, the lead names the sections holding the most of the label's PRs
    (then in report order) and counts the rest."""
    own = [_key_ref(n, "wide", 9.9) for n in (1, 2, 3)]
    elsewhere = [_key_ref(n, "wide", 9.0 - n / 100) for n in (10, 11, 20, 21, 22, 23, 24)]
    themes = {10: ["theme0"], 11: ["theme0"]} | {20 + k: [f"theme{k + 1}"] for k in range(5)}
    found = sections.groups([*own, *elsewhere], themes, [], {})
    wide = next(g for g in found if g.name == "wide")
    assert wide.see_also == (("label", "theme0"), ("label", "theme1"), ("label", "theme2"))
    assert wide.see_also_unnamed == 3 and wide.label_total == 10
    assert (
        WORDINGS["en"]
        .group_lead(wide, [])
        .endswith(" See also theme0, theme1, theme2, and 3 other sections.")
    )
    assert (
        WORDINGS["zh"]
        .group_lead(wide, [])
        .endswith("另见：theme0、theme1、theme2、其他 3 个小节。")
    )
    # As many as MAX_SEE_ALSO are all named.
    found = sections.groups([*own, *elsewhere[:5]], themes, [], {})
    wide = next(g for g in found if g.name == "wide")
    assert [name for _, name in wide.see_also] == [f"theme{k}" for k in range(4)]
    assert wide.see_also_unnamed == 0
