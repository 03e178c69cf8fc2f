from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tagging.features import model_description, path_prefixes, pr_features
from prhub_pipeline.modelling.tagging.tags import (
    areas_of,
    ground_truth,
    learn_modules_config,
    parse_title_tags,
    tag_spellings,
    text_without_tags,
)
from prhub_pipeline.records import FileChange
from prhub_pipeline_tests.module_fixtures import MODULES, make_pr

LABEL_REPO = ModulesConfig(
    allowed=["core", "kernel", "frontend"],
    label_modules={"area: core": "core", "area/kernel": "kernel", "Frontend": "frontend"},
)


@pytest.mark.parametrize(
    ("title", "modules", "change_type", "breaking", "stripped"),
    [
        ("[rollout, megatron] fix: stop leak", ["rollout", "megatron"], "fix", False, "stop leak"),
        ("[BREAKING][fsdp] feat: new api", ["fsdp"], "feat", True, "new api"),
        ("[BREAKING] [ci] chore: x", ["ci"], "chore", True, "x"),
        ("[1/N][rollout] feat: part one", ["rollout"], "feat", False, "part one"),
        ("[misc]fix: no space", ["misc"], "fix", False, "no space"),
        ("[ Misc ,CI ] Fix: spacing", ["misc", "ci"], "fix", False, "spacing"),
        ("[docs] fix: alias", ["doc"], "fix", False, "alias"),
        ("[mcore] refactor: alias", ["megatron"], "refactor", False, "alias"),
        ("[fix][ci] two pipelines", ["ci"], "fix", False, "two pipelines"),
        ("[ci/doc] chore: both", ["ci", "doc"], "chore", False, "both"),
        ("fix(lora): scoped", [], "fix", False, "scoped"),
        ("Update README.md", [], None, False, "Update README.md"),
        ("feat!: breaking without brackets", [], "feat", True, "breaking without brackets"),
    ],
)
def test_title_prefixes(
    title: str, modules: list[str], change_type: str | None, breaking: bool, stripped: str
) -> None:
    tags = parse_title_tags(title, MODULES)
    assert tags.modules == modules
    assert tags.type == change_type
    assert tags.breaking is breaking
    assert tags.stripped == stripped


@pytest.mark.parametrize(
    ("title", "modules", "breaking"),
    [
        # torchtitan #2386: PyTorch's marker of a breaking change.
        ("[BC Breaking] Config System Refactor", [], True),
        ("[BC-breaking][rollout] feat: x", ["rollout"], True),
        # A PR's place in a series (slime #1373's `[1/X]` headed a section "1/X").
        ("[1/X] Refactor: x", [], False),
        ("[PR 1/3][rollout] feat: x", ["rollout"], False),
        ("[1 of 3] x", [], False),
        ("[Step 2] x", [], False),
        # The issue it answers, whom it is for, a date, the branch it targets.
        ("[#1234] x", [], False),
        ("[Issue #123][rollout] fix: x", ["rollout"], False),
        ("[@alice] x", [], False),
        ("[2025-01-03] x", [], False),
        ("[releases/v0.9.1] x", [], False),
        ("[branch-0.9] x", [], False),
        ("[Recreate of 2753][graph_trainer] x", ["graph_trainer"], False),
    ],
)
def test_tags_that_are_no_module_in_a_repository_without_a_list(
    title: str, modules: list[str], breaking: bool
) -> None:
    tags = parse_title_tags(title, ModulesConfig())
    assert (tags.modules, tags.unknown, tags.breaking) == (modules, [], breaking)


@pytest.mark.parametrize(
    "tag",
    ["Resubmit", "FOLLOWUP", "Follow-up", "redo", "Backport", "Claude", "P0", "Temp", "BE week"],
)
def test_how_a_pr_came_about_is_a_tag_but_no_area(tag: str) -> None:
    """torchtitan's `[Resubmit]`, vllm-ascend's `[FOLLOWUP]` headed report sections."""
    tags = parse_title_tags(f"[{tag}][rollout] fix: x", ModulesConfig())
    assert len(tags.modules) == 2 and areas_of(tags.modules) == ["rollout"]


def test_a_tag_one_letter_from_a_tool_that_writes_prs_is_an_area() -> None:
    """`codex` and `claude` name who wrote a PR; `[Codec]` and `[Clause]` are places."""
    tools = ["Codex", "Claude", "Copilot", "dependabot", "pre-commit.ci"]
    assert areas_of([*tools, "Codec", "Coder", "Codes", "Clause", "Copilots"]) == [
        "Codec",
        "Coder",
        "Codes",
        "Clause",
        "Copilots",
    ]


def test_unknown_tags_are_kept_not_dropped() -> None:
    tags = parse_title_tags("[rollout, Long Context][sft] feat: x", MODULES)
    assert tags.modules == ["rollout"]
    assert tags.unknown == ["long_context", "sft"]


def test_a_listed_module_written_without_separators_names_it() -> None:
    """llm-compressor lists `model_free_ptq`: #3053's `[ModelFreePTQ]` was an unknown tag of an
    unlabelled PR. Other words for a module (`[dist]` for `distributed`) stay unknown."""
    listed = ModulesConfig(allowed=["model_free_ptq", "distributed", "moe", "example"])
    assert parse_title_tags("[ModelFreePTQ] Support configs", listed).modules == ["model_free_ptq"]
    assert parse_title_tags("[model-free PTQ][Examples] x", listed).modules == [
        "model_free_ptq",
        "example",
    ]
    tags = parse_title_tags("[dist][MoE] fix context", listed)
    assert (tags.modules, tags.unknown) == (["moe"], ["dist"])
    # Two listed modules written alike: the tag names neither.
    twins = ModulesConfig(allowed=["kv_pool", "kvpool"])
    tags = parse_title_tags("[KV-Pools] x", twins)
    assert (tags.modules, tags.unknown) == ([], ["kv_pools"])


def test_a_type_with_its_scope_in_one_bracket_is_two_tags() -> None:
    """ms-swift's `[Bugfix (rlhf)]` made a module `bugfix_(rlhf)`."""
    tags = parse_title_tags("[Bugfix (rollout)] skip model reload", MODULES)
    assert tags.modules == ["rollout"] and tags.unknown == []
    assert parse_title_tags("[Bugfix (rlhf)] x", MODULES).unknown == ["rlhf"]


def test_revert_takes_the_reverted_titles_tags() -> None:
    tags = parse_title_tags('Revert "[rollout] feat: use dummy load_format"', MODULES)
    assert tags.modules == ["rollout"]
    assert tags.type == "revert"
    assert tags.stripped == 'Revert "use dummy load_format"'
    # Behind a tag of its own and with the reverted PR's number after the quote (vllm-ascend).
    tagged = parse_title_tags('[Revert] Revert "[ci] add a nightly test" (#14190)', MODULES)
    assert (tagged.modules, tagged.type) == (["ci"], "revert")


def test_a_conventional_commit_scope_says_where_when_no_tag_does() -> None:
    """ms-swift's `fix(megatron): ...`, tilelang's `fix(cuda): ...`: the scope is the author's
    tag for where the change is. Beside a tag that says where, it only narrows it; a scope the
    module list lacks is kept as unknown, like a tag."""
    assert parse_title_tags("fix(megatron): stop leak", MODULES).modules == ["megatron"]
    assert parse_title_tags("feat(docs, ci)!: both", MODULES).modules == ["doc", "ci"]
    scoped_type_tag = parse_title_tags("[BugFix] fix(rollout): x", ModulesConfig())
    assert scoped_type_tag.modules == ["bugfix", "rollout"]
    narrowed = parse_title_tags("[rollout] fix(sglang_rollout): x", MODULES)
    assert (narrowed.modules, narrowed.unknown) == (["rollout"], [])
    unlisted = parse_title_tags("fix(lora): scoped", MODULES)
    assert (unlisted.modules, unlisted.unknown, unlisted.stripped) == ([], ["lora"], "scoped")
    assert parse_title_tags("fix(lora): scoped", ModulesConfig()).modules == ["lora"]
    # AReaL's governance type has a scope as any type does.
    governance = parse_title_tags("gov(agents): add maintainer ownership", ModulesConfig())
    assert (governance.modules, governance.type) == (["agents"], "gov")
    # A scope written as a path names the area it starts with (LLaMA-Factory #10455, slime
    # #2101); one whose every part a module list names is those modules.
    path = parse_title_tags("fix(data/converter): handle None tool_calls", ModulesConfig())
    assert (path.modules, path.unknown) == (["data"], [])
    nested = parse_title_tags("feat(examples/tau-bench/agent): x", ModulesConfig())
    assert nested.modules == ["examples"]
    assert parse_title_tags("fix(rollout/sglang_rollout): x", MODULES).modules == ["rollout"]
    assert parse_title_tags("fix(ci/doc): x", MODULES).modules == ["ci", "doc"]
    # A scope after the tags, as after a type (vllm-ascend's `[bugfix](pcp) ...`, AReaL #1208).
    after_tags = parse_title_tags("[bugfix](pcp, gqa) expand max_num_tokens", ModulesConfig())
    assert (after_tags.modules, after_tags.stripped) == (
        ["bugfix", "pcp", "gqa"],
        "expand max_num_tokens",
    )
    assert parse_title_tags("[Fix](Service):fix x", ModulesConfig()).modules == ["fix", "service"]
    assert (
        parse_title_tags("[Refactor] (kv_pool): simplify", ModulesConfig()).stripped == "simplify"
    )
    assert parse_title_tags("[rollout](sglang) fix: x", MODULES).modules == ["rollout"]
    assert parse_title_tags("(WIP) add x", ModulesConfig()).modules == []
    # Only a type's scope: `Update(README): x` is no conventional commit.
    assert parse_title_tags("Update(README): x", ModulesConfig()).modules == []
    assert ground_truth(make_pr(8, "fix(ci): pin runner"), MODULES).origin == "title"


def test_without_a_module_list_every_tag_is_a_module() -> None:
    tags = parse_title_tags("[Bugfix][Kernel] fix rope", ModulesConfig())
    assert tags.modules == ["bugfix", "kernel"]
    assert tags.unknown == []


@pytest.mark.parametrize(
    "marker",
    ["[v0.9.1-dev]", "[0.10.1]", "[Release v0.9.0]", "[v0.16.0rc1]", "[main]", "[Cherry-pick]"],
)
def test_a_release_or_branch_marker_is_no_module(marker: str) -> None:
    """vllm-ascend marks backports with the release they target: no area, and never unknown."""
    tags = parse_title_tags(f"{marker}[BugFix] fix mtp on the release branch", ModulesConfig())
    assert (tags.modules, tags.unknown) == (["bugfix"], [])
    assert parse_title_tags("[v1] feat: x", ModulesConfig()).modules == ["v1"]
    # With a module list, a branch marker is dropped unless the list names it as a module.
    listed = ModulesConfig(allowed=["bugfix", "main"])
    assert parse_title_tags("[main][BugFix] x", ModulesConfig(allowed=["bugfix"])).unknown == []
    assert parse_title_tags("[main][BugFix] x", listed).modules == ["main", "bugfix"]


def test_a_status_author_or_kind_tag_is_no_unknown_module_of_a_module_list() -> None:
    """llm-compressor's materialize warned of `[WIP]`, `[RFC]`, `[Claude]` and `[Performance]`
    as unknown modules of its module list: each says how far along, who wrote it or what kind
    of change, not where; a kind of change is the title's type, as `[Bugfix]` is."""
    listed = ModulesConfig(allowed=["moe"])
    for status in ("[WIP]", "[RFC]", "[Claude]", "[Update]"):
        tags = parse_title_tags(f"{status}[MoE] Speed up tracing", listed)
        assert (tags.modules, tags.unknown, tags.type) == (["moe"], [], None)
    tags = parse_title_tags("[Performance][MoE] Speed up tracing", listed)
    assert (tags.modules, tags.unknown, tags.type) == (["moe"], [], "performance")
    # An unknown area before a kind of change stays unknown (`[Export Refactor]`).
    assert parse_title_tags("[Export Refactor] Warn on re-export", listed).unknown == [
        "export_refactor"
    ]


@pytest.mark.parametrize(
    "directive", ["[skip ci]", "[skip-ci]", "[ci skip]", "[no ci]", "[skip actions]"]
)
def test_a_ci_directive_is_no_module(directive: str) -> None:
    """apache/tvm writes `[skip ci][microTVM] ...` in 61 titles: an instruction to the CI
    runner, never a module or an unknown tag, unless a module list names it."""
    tags = parse_title_tags(f"{directive}[microTVM] Update the box version", ModulesConfig())
    assert (tags.modules, tags.unknown) == (["microtvm"], [])
    listed = ModulesConfig(allowed=["microtvm"])
    assert parse_title_tags(f"{directive}[microTVM] x", listed).unknown == []
    assert parse_title_tags("[skip ci] x", ModulesConfig(allowed=["skip_ci"])).modules == [
        "skip_ci"
    ]
    assert parse_title_tags("[ci] skip flaky test", ModulesConfig()).modules == ["ci"]


def test_type_only_tags_say_no_area() -> None:
    """tilelang's `[Cleanup]` and `[Typo]` say what kind of change, like `[BugFix]`."""
    assert areas_of(["cleanup", "typo", "bugfix", "cuda", "refactor"]) == ["cuda"]
    # However the words are spaced (ColossalAI's `[FIX BUG]` headed a trends row "FIX BUG").
    assert areas_of(["FIX BUG", "fix_bug", "Hot Fix", "bug fixes", "Do Not Merge", "fsdp"]) == [
        "fsdp"
    ]
    assert areas_of(["Enhance", "Enhancements", "Improvements", "docs"]) == ["docs"]  # mmengine
    assert areas_of(["Improve", "rl"]) == ["rl"]  # InternLM/xtuner's 32 `[Improve] ...` PRs
    assert areas_of(["add", "Update", "quant"]) == ["quant"]  # slime's `[add]add blockwise ...`
    # A verb's forms too; a word one letter from a verb is a name (a repository's updater).
    assert areas_of(["Added", "updated", "Upgrading", "Updater", "adder"]) == ["Updater", "adder"]
    # Status said in a phrase (tpu-inference's report had a module "not ready to review yet").
    status = ["not ready to review yet", "Ready for review", "Don't merge yet", "dont_review"]
    assert areas_of([*status, "almost ready", "ready", "kernel"]) == ["kernel"]
    assert areas_of(["readyz", "review", "merge"]) == ["readyz", "review", "merge"]
    # Slips of them too (vllm-omni's report had a section "Refractor"), but not areas one
    # letter from a type word that start otherwise, nor short tags (`core` is no `chore`).
    slips = ["Refractor", "bugifx", "enchance", "imporve", "refact.", "feaure", "RFC"]
    assert areas_of([*slips, "textures", "fixtures", "core", "stable"]) == [
        "textures",
        "fixtures",
        "core",
        "stable",
    ]
    # A digit is no typing slip: an area `small2` is no `[small]` change, `fixed3` no `fixed`.
    assert areas_of(["small", "smalls", "small2", "fixed3"]) == ["small2", "fixed3"]
    tags = parse_title_tags("[Cleanup][doc] tidy", ModulesConfig(allowed=["doc"]))
    assert (tags.modules, tags.unknown) == (["doc"], [])


def test_a_tag_joining_a_kind_of_change_and_an_area_is_both() -> None:
    """ColossalAI's `[Fix/Example]` made a module "Fix/Example" beside `example`."""
    learned = ModulesConfig()
    assert parse_title_tags("[Fix/Example] Fix Llama", learned).modules == ["fix", "example"]
    assert parse_title_tags("[hotfix/hybridengine] x", learned).modules == [
        "hotfix",
        "hybridengine",
    ]
    # Areas alone stay one tag without a module list: `[CI/CD]` may be one thing.
    assert parse_title_tags("[CI/CD] x", learned).modules == ["ci/cd"]


def test_status_tags_say_no_area_and_stay_tags() -> None:
    """slime's `[NFC] Add observability subfolder` headed a report section "nfc"."""
    assert areas_of(["nfc", "WIP", "draft", "minor", "new", "rollout"]) == ["rollout"]
    assert parse_title_tags("[NFC] Add observability subfolder", ModulesConfig()).modules == ["nfc"]
    # A module list names areas: a status tag is no unknown area of it (llm-compressor's
    # `[WIP]` and `[RFC]` were warned of as unknown modules).
    wip = parse_title_tags("[WIP][fsdp] x", ModulesConfig(allowed=["fsdp"]))
    assert (wip.modules, wip.unknown) == (["fsdp"], [])
    # pytorch/torchtitan's sections "Reland" and "BE": how a change came about, not where.
    assert areas_of(["Reland", "BE", "ez", "easy", "graph_trainer"]) == ["graph_trainer"]
    # aibrix's 106 `[Misc]` PRs headed its key changes with a section "Misc": they fit nowhere.
    assert areas_of(["Misc", "miscellaneous", "gateway"]) == ["gateway"]
    assert parse_title_tags("[Misc] Bump ruff", ModulesConfig()).modules == ["misc"]
    # How urgent a fix is (AReaL's `[Emergency fix]`, `[emergent fix]`, `fix(critical)`).
    for title in ("[Emergency fix] Display error", "[emergent fix] x", "fix(critical): x"):
        assert areas_of(parse_title_tags(title, ModulesConfig()).modules) == []
    # How big, in other words (OpenRLHF #718 made a module "small_change").
    for title in ("[small change] Use selective log-softmax", "[Tiny] x", "[Minor change] x"):
        assert areas_of(parse_title_tags(title, ModulesConfig()).modules) == []
    assert parse_title_tags("[GraphTrainer][Reland] x", ModulesConfig()).modules == [
        "graphtrainer",
        "reland",
    ]


def test_labels_instead_of_prefixes() -> None:
    pr = make_pr(5, "Speed up the scheduler", labels=("area: core", "Frontend", "good first issue"))
    truth = ground_truth(pr, LABEL_REPO)
    assert truth.modules == ["core", "frontend"]
    assert truth.origin == "label"


def test_title_tags_win_over_labels() -> None:
    pr = make_pr(6, "[kernel] fix: rope", labels=("area: core",))
    truth = ground_truth(pr, LABEL_REPO)
    assert (truth.modules, truth.origin) == (["kernel"], "title")


def test_untagged_pr_has_no_ground_truth() -> None:
    truth = ground_truth(make_pr(7, "Update README.md", labels=("documentation",)), LABEL_REPO)
    assert truth.modules == [] and truth.origin is None


def test_learned_label_set_keeps_tags_used_often_enough() -> None:
    prs = [make_pr(i, "[alpha] fix: x") for i in range(1, 6)] + [make_pr(9, "[beta] fix: y")]
    learned = learn_modules_config(prs, ModulesConfig(), min_count=3)
    assert learned.allowed == ["alpha"]
    assert parse_title_tags("[beta] fix: y", learned).unknown == ["beta"]


def test_learned_labels_fold_spellings_of_one_tag_into_the_most_used() -> None:
    titles = (
        ["[docs] fix: a"] * 4
        + ["[Doc] fix: b"] * 2
        + ["[kv_pool] feat: c"] * 3
        + ["[KVPool] feat: d"] * 2
        + ["[P/D] feat: e", "[pd] feat: f"]
        + ["[eagle] feat: g"] * 5
        + ["[eagle3] feat: h"] * 5
        + ["[documentation] fix: i"]
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig(aliases={"documentation": "docs"}))
    # Neither spelling of doc or kv_pool alone reaches min_label_prs=5; each label does.
    assert learned.allowed == ["docs", "eagle", "eagle3", "kv_pool"]
    assert learned.aliases == {
        "documentation": "docs",
        "doc": "docs",
        "kvpool": "kv_pool",
        "p/d": "pd",  # as many PRs spell it either way: the shorter
    }
    assert ground_truth(make_pr(90, "[doc] fix: x"), learned).modules == ["docs"]
    assert ground_truth(make_pr(91, "[kvpool][eagle3] x"), learned).modules == [
        "kv_pool",
        "eagle3",
    ]


def test_learned_labels_fold_short_and_long_words_of_one_area() -> None:
    """vllm-ascend's `[Ops]` and `[Op]`, tilelang's `[Language]` and `[Lang]`, torchtitan's
    `[cpu-offloading]` and `[cpu-offload]` headed two sections each. `[MPS]` is no plural."""
    titles = (
        ["[Ops] a"] * 4
        + ["[Op] b"]
        + ["[Language] c"] * 3
        + ["[Lang] d"] * 2
        + ["[cpu-offloading] e"] * 3
        + ["[cpu-offload] f"] * 2
        + ["[MPS] g"] * 5
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["cpu_offloading", "language", "mps", "ops"]
    assert learned.aliases == {"op": "ops", "lang": "language", "cpu_offload": "cpu_offloading"}


def test_learned_labels_fold_a_verb_and_its_nouns_of_one_area() -> None:
    """LLaMA-Factory's `[trainer]` became `[train]`, and it writes `[infer]` and `[inference]`,
    `[docs]` and `[readme]`: one label each, named as the latest PRs write it."""
    titles = (
        ["[trainer] a"] * 6
        + ["[infer] b"] * 3
        + ["[inference] c"] * 2
        + ["[readme] d"] * 2
        + ["[docs] e"] * 3
        + ["[train] f"] * 4
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["docs", "infer", "train"]
    assert learned.aliases == {"inference": "infer", "readme": "docs", "trainer": "train"}


def test_learned_labels_fold_pytorch_and_its_short_form() -> None:
    """TransformerEngine writes `[PyTorch]` and, now and then, `[PyT]` (#3020, #3056): one
    label, named as most PRs write it, even where the short form is too rare to learn."""
    titles = ["[PyTorch] a"] * 6 + ["[PyT] b"] * 2 + ["[JAX] [PyT] c"] + ["[JAX] d"] * 5
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["jax", "pytorch"]
    assert learned.aliases == {"pyt": "pytorch"}


def test_learned_labels_fold_the_words_for_one_kind_of_change() -> None:
    """aibrix tags bug fixes `[Bug]`, `[Fix]` and `[Bugfix]` by whoever writes the title: one
    label, named as most PRs write it. A feature stays apart from an enhancement."""
    titles = (
        ["[Bug] a"] * 4
        + ["[Fix] b"] * 2
        + ["[BugFix] c", "[Hotfix] d", "[bug fix] e"]
        + ["[Feature] f"] * 3
        + ["[Feat] g"] * 3
        + ["[Enhancement] h"] * 3
        + ["[Improvement] i"] * 2
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["bug", "enhancement", "feat"]
    assert learned.aliases == {
        "bug_fix": "bug",
        "bugfix": "bug",
        "fix": "bug",
        "hotfix": "bug",
        "feature": "feat",
        "improvement": "enhancement",
    }
    assert ground_truth(make_pr(90, "[Fix] x"), learned).modules == ["bug"]


def test_a_learned_tag_that_joins_learned_tags_counts_as_them() -> None:
    """vllm-ascend's `[CI/UT]` (11 PRs) beside `[CI]` and `[UT]`: CI and UT PRs, no third
    label. `[P/D]` joins no tags used on their own and stays one label."""
    titles = (
        ["[CI] a"] * 5
        + ["[UT] b"] * 4
        + ["[CI/UT] c"] * 6
        + ["[P/D] d"] * 5
        + ["[Docs&CI] e"]
        + ["[CI/CD] f"] * 2
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    # `[UT]` alone is 4 PRs, under min_label_prs=5: its 6 `[CI/UT]` PRs make it a label.
    assert learned.allowed == ["ci", "p/d", "ut"]
    assert ground_truth(make_pr(90, "[CI/UT] fix: x"), learned).modules == ["ci", "ut"]
    assert ground_truth(make_pr(91, "[P/D] fix: x"), learned).modules == ["p/d"]
    # Neither `docs` nor `cd` is a tag on its own: kept whole, as tags the labels lack.
    assert ground_truth(make_pr(92, "[Docs&CI] x"), learned).unknown == ["docs&ci"]
    assert ground_truth(make_pr(93, "[CI/CD] x"), learned).unknown == ["ci/cd"]
    # However spaced or marked as code (huggingface/trl's `[`core` / `Docker`] ...`).
    assert ground_truth(make_pr(94, "[`CI` / UT] x"), learned).modules == ["ci", "ut"]
    assert ground_truth(make_pr(95, "[CI / CD] x"), learned).unknown == ["ci/cd"]
    assert ground_truth(make_pr(96, "[`P/D`] x"), learned).modules == ["p/d"]


def test_a_learned_label_is_named_as_the_latest_prs_spell_it() -> None:
    """vllm-ascend wrote `[Feat]` 81 times and `[Feature]` 68 before 2026-03, `[Feature]`
    twice as often in its latest fifth, and four times as often after: the label is
    `feature`. A group the latest PRs do not use is named as most of all PRs spell it."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    titles = ["[feat] a"] * 10 + ["[docs] b"] * 6 + ["[doc] c"] * 4 + ["[feature] d"] * 5
    prs = [
        make_pr(number, title, merged_at=start + timedelta(days=number))
        for number, title in enumerate(titles, start=1)
    ]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["docs", "feature"]
    assert learned.aliases == {"feat": "feature", "doc": "docs"}
    # The order the PRs come in does not matter, only when they merged.
    assert learn_modules_config(prs[::-1], ModulesConfig()) == learned


def test_learned_labels_fold_a_rare_misspelling_into_the_tag_it_misses() -> None:
    """ms-swift #8335 `[megatonr]`, vllm-ascend's `[bugifx]` and `[refractor]`."""
    titles = (
        ["[megatron] fix: a"] * 20
        + ["[megatonr] fix: b", "[bugifx] c"]
        + ["[bugfix] d"] * 25
        + ["[core] e"] * 20
        + ["[chore] f", "[qwen2vl] g"]
        + ["[qwen3vl] h"] * 20
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["bugfix", "core", "megatron", "qwen3vl"]
    assert learned.aliases == {"megatonr": "megatron", "bugifx": "bugfix"}
    assert ground_truth(make_pr(90, "[megatonr] fix: x"), learned).modules == ["megatron"]
    # A change type is no slip of a module, nor a model of another version.
    assert "core" not in ground_truth(make_pr(91, "[chore] x"), learned).modules
    assert ground_truth(make_pr(92, "[qwen2vl] x"), learned).unknown == ["qwen2vl"]


def test_a_tag_ending_in_a_kind_of_change_is_an_area_and_that_kind() -> None:
    """huggingface/trl's 23 `[DistillationTrainer refactor] ...` PRs made a module of that
    name; they are DistillationTrainer PRs of the kind refactor."""
    assert ground_truth(make_pr(1, "[DistillationTrainer refactor] Drop x"), ModulesConfig()) == (
        ground_truth(make_pr(1, "[DistillationTrainer][refactor] Drop x"), ModulesConfig())
    )
    truth = ground_truth(make_pr(2, "[MoE refactor] Drop x"), ModulesConfig())
    assert (truth.modules, areas_of(truth.modules)) == (["moe", "refactor"], ["moe"])
    # Words that together say a kind stay one tag.
    assert ground_truth(make_pr(3, "[Bug fix] x"), ModulesConfig()).modules == ["bug_fix"]
    assert ground_truth(make_pr(4, "[fix bug] x"), ModulesConfig()).modules == ["fix_bug"]
    # With a module list, the area is the module and the kind the title's tag type.
    tags = parse_title_tags("[MoE refactor] x", ModulesConfig(allowed=["moe"]))
    assert (tags.modules, tags.type, tags.unknown) == (["moe"], "refactor", [])
    assert parse_title_tags("[dense refactor] x", ModulesConfig(allowed=["moe"])).unknown == [
        "dense_refactor"
    ]


def test_a_misspelling_never_names_the_label_however_recent() -> None:
    """torch-mlir tagged 67 PRs `[Torch Dialect]` in 2023-2024 and one `[TorchDialicet]` in
    2025, the only spelling among its latest PRs: the label is still `torch_dialect`."""
    start = datetime(2024, 1, 1, tzinfo=UTC)
    titles = ["[Torch Dialect] a"] * 30 + ["[onnx] b"] * 8 + ["[TorchDialicet] c"]
    prs = [
        make_pr(number, title, merged_at=start + timedelta(days=number))
        for number, title in enumerate(titles, start=1)
    ]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["onnx", "torch_dialect"]
    assert learned.aliases == {"torchdialicet": "torch_dialect"}


def test_a_tag_naming_the_repository_is_no_label() -> None:
    """torch-mlir's `[torch-mlir][sparse] ...`: the project's own name says nowhere in it."""
    titles = ["[torch-mlir][sparse] a"] * 6 + ["[TORCH-MLIR] b"] * 3 + ["[Torch_MLIR] c"]
    prs = [
        make_pr(number, title, repo="llvm/torch-mlir")
        for number, title in enumerate(titles, start=1)
    ]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["sparse"]
    truth = ground_truth(make_pr(90, "[torch-mlir][sparse] x", repo="llvm/torch-mlir"), learned)
    assert truth.modules == ["sparse"]
    assert truth.unknown == ["torch_mlir"]
    # Without any module list (the weekly labelling), it is no module either: the PR is
    # untagged, for the model to fill in, and the tag is kept as unknown.
    alone = ground_truth(
        make_pr(91, "[TORCH-MLIR] Add op", repo="llvm/torch-mlir"), ModulesConfig()
    )
    assert (alone.modules, alone.origin, alone.unknown) == ([], None, ["torch_mlir"])
    # Another repository's name is a tag like any other.
    other = [make_pr(n, "[torch-mlir] x", repo="org/compiler") for n in range(1, 6)]
    assert learn_modules_config(other, ModulesConfig()).allowed == ["torch_mlir"]


def test_learned_labels_fold_a_word_and_its_short_form() -> None:
    titles = (
        ["[Performance] feat: a"] * 3
        + ["[Perf] feat: b"] * 2
        + ["[quant] fix: c"] * 4
        + ["[Quantization] fix: d"]
        + ["[cfg] fix: e"] * 3
        + ["[config] fix: f", "[Configuration] fix: g"]
        + ["[ckpt] fix: h"] * 5
        + ["[checkpointing] fix: i"]
        + ["[Spec Decode] fix: j"] * 3
        + ["[Speculative Decoding] fix: k", "[spec-decoding] fix: l"]
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    learned = learn_modules_config(prs, ModulesConfig())
    assert learned.allowed == ["cfg", "ckpt", "performance", "quant", "spec_decode"]
    assert learned.aliases == {
        "perf": "performance",
        "quantization": "quant",
        "config": "cfg",
        "configuration": "cfg",
        "speculative_decoding": "spec_decode",
        "spec_decoding": "spec_decode",
    }
    # Only short forms fold: `checkpointing` is another word, kept as its own (rare) tag.
    assert ground_truth(make_pr(90, "[checkpointing] fix: x"), learned).unknown == ["checkpointing"]
    # A repository's own module list is never second-guessed.
    listed = ModulesConfig(allowed=["perf", "quant"])
    assert learn_modules_config(prs, listed) == listed
    assert ground_truth(make_pr(91, "[quantization] x"), listed).unknown == ["quantization"]
    # `[performance]` is no module `perf` of the list; it says the kind of change.
    assert ground_truth(make_pr(92, "[performance] x"), listed).modules == []


def test_no_tag_reaches_the_model_inputs() -> None:
    body = "### What does this PR do?\n\nFixes `[rollout] fix: leak` seen in CI.\n"
    tagged = make_pr(1, "[BREAKING][rollout, megatron] fix: leak [ci]", body=body)
    untagged = make_pr(1, "fix: leak", body=body)
    features = pr_features(tagged, MODULES)
    assert features == pr_features(untagged, MODULES)
    text = " ".join(features.model_dump().values()).lower()
    for tag in ("rollout", "megatron", "breaking", "[ci]"):
        assert tag not in text
    # A tag later in the title (a quoted reverted title) is removed too.
    assert "model" not in text_without_tags('[model] fix: Revert "[model] feat: add x"', MODULES)


def test_the_title_type_comes_from_its_words_never_its_tags_or_type() -> None:
    """The model reads the kind of change the title's words say, as one more title word; a
    type tag (`[BugFix]`, a label where a repository learns its labels) or a conventional
    type (`fix:`) is the prefix and never reaches it."""
    config = MODULES.model_copy(update={"allowed": [*(MODULES.allowed or []), "bugfix"]})
    for title in ("[BugFix][rollout] Add a sampler seed", "[rollout] fix: add a sampler seed"):
        features = pr_features(make_pr(1, title), config)
        assert (features.title_type, features.title_and_type) == (
            "feat",
            f"{features.title} __feat__",
        )
        assert "fix" not in features.title_and_type.lower()
    assert pr_features(make_pr(2, "[rollout] Seeds for the sampler"), config).title_type == "other"


def test_description_boilerplate_is_removed() -> None:
    body = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or
accomplish. Reference related GitHub issues and PRs.

Makes the sampler deterministic.

### Checklist Before Starting

- [ ] Search for similar PRs. Paste at least one query link here: ...
- [x] Format the PR title as `[{modules}] {type}: {description}` (This
will be checked by the CI)

### Test

```python
# Add code snippet or script demonstrating how to use this
```
Ran the unit tests.
"""
    assert model_description(body) == "Makes the sampler deterministic.\nRan the unit tests."


def test_path_prefixes_at_several_depths_then_file_names() -> None:
    files = [
        FileChange(path="verl/workers/rollout/vllm/sub/x.py"),
        FileChange(path="setup.py"),
        FileChange(path="docs/x.py"),
    ]
    assert path_prefixes(files).split() == [
        "verl",
        "verl/workers",
        "verl/workers/rollout",
        "verl/workers/rollout/vllm",
        "setup.py",
        "docs",
        "x.py",
    ]


def test_a_module_is_spelt_as_the_repositorys_tags_most_often_write_it() -> None:
    """Learned labels are lowercase (`new_model`); a report names them as the titles do."""
    titles = (
        ["[New Model] add a"] * 3
        + ["[new model] add b"]
        + ["[KVPool] feat: c"] * 2
        + ["[kv_pool] feat: d"] * 3
        + ["[Perf] e"] * 2
        + ["[Performance][Core] f"] * 3
        + ["[fsdp] fix: g"] * 5
        + ["[main  to main] h", "[main to main] i", "[main_to_main] j", "[main_to_main] k"]
        + ['Revert "[New Model] add a"']
    )
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    prs.append(make_pr(99, "add h", labels=("New Label",)))
    spellings = tag_spellings(prs, ModulesConfig(label_modules={"New Label": "new_model"}))
    assert spellings == {
        "new_model": "New Model",
        "kv_pool": "kv_pool",
        "performance": "Performance",
        "core": "Core",
        "fsdp": "fsdp",
        "main_to_main": "main to main",  # one spelling, however many spaces it has
    }
    # With a module list, its aliases fold the tags, and tags outside it are not modules.
    listed = ModulesConfig(allowed=["perf", "fsdp"], aliases={"performance": "perf"})
    assert tag_spellings(prs, listed) == {"perf": "Performance", "fsdp": "fsdp"}
    # A tag of several writes each (huggingface/trl's `[DistillationTrainer refactor]` named
    # its module "distillationtrainer"); code marks are no part of a name.
    joined = ["[DistillationTrainer refactor] a", "[`core` / `Docker`] b", "[`DPOTrainer`] c"]
    prs = [make_pr(number, title) for number, title in enumerate(joined, start=1)]
    assert tag_spellings(prs, ModulesConfig()) == {
        "distillationtrainer": "DistillationTrainer",
        "refactor": "refactor",
        "core/docker": "core / Docker",  # joined areas stay one tag without a module list
        "dpotrainer": "DPOTrainer",
    }


def test_a_scope_writes_its_module_as_a_tag_does_a_tag_first() -> None:
    """NVIDIA-NeMo/RL's `fix(nemo-gym): ...` headed a section "nemo_gym", a spelling no title
    wrote; vllm-ascend writes `(dsa_cp)` scopes beside its `[DSA-CP]` tags, whose capitals say
    the name (scopes are lower case by convention)."""
    titles = [
        "fix(nemo-gym): honour pad_dynamic_image_shapes",
        "feat(nemo-gym): a",
        "fix(math-env, nrl-k8s): b",
        "fix(data-plane/converter): c",
        "[Misc](dsa_cp): d",
        "[Misc](dsa_cp): e",
        "[BugFix][DSA-CP] f",
        "[fsdp] fix(ignored-scope): g",
    ]
    prs = [make_pr(number, title) for number, title in enumerate(titles, start=1)]
    assert tag_spellings(prs, ModulesConfig()) == {
        "nemo_gym": "nemo-gym",
        "math_env": "math-env",
        "nrl_k8s": "nrl-k8s",
        "data_plane": "data-plane",
        "dsa_cp": "DSA-CP",
        "misc": "Misc",
        "bugfix": "BugFix",
        "fsdp": "fsdp",
    }
