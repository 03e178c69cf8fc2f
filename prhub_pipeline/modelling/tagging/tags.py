"""A repository's own module tags: title prefixes such as `[fsdp, megatron] fix: ...`, or
GitHub labels for repositories that tag with labels instead.

Tags a repository's configuration does not know are kept as *unknown*, never dropped, so a
report or an operator can see them (a new module, a typo, an old convention).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prhub_pipeline.config import ModulesConfig, normalise_tag
from prhub_pipeline.modelling.text.pr_titles import bracket_tags, whole_tag_type
from prhub_pipeline.records import MAX_TITLE_CHARS, ModuleLabel, PullRequest
from prhub_pipeline.reverts import REVERT_TITLE

# Tags that only ever say what kind of change a PR is. A repository without a module list
# that titles PRs `[BugFix][CUDA] ...` learns "bugfix" as a label (its own convention, which
# evaluation must score), but where a change happened is "cuda": reports group and rank by
# the areas.
TYPE_ONLY_TAGS = frozenset(
    {
        "feat",
        "feature",
        "features",
        "enhance",
        "enhancement",
        "enhancements",
        "improve",
        "improvement",
        "improvements",
        "fix",
        "fixes",
        "bugfix",
        "bugfixes",
        "bug_fix",
        "bug",
        "hotfix",
        "hotfixes",
        "refactor",
        "refact",
        "refactoring",
        "chore",
        "style",
        "revert",
        "quickfix",
        "fixbug",
        "cleanup",
        "clean_up",
        "typo",
        "typos",
    }
)
# Tags that say how far along or how big a PR is, or that it changes no behaviour (slime's
# `[NFC] Add observability subfolder`, `[WIP]`, `[Minor]`, torch-mlir's `[RFC]`), or how it came
# about (the PyTorch projects' `[Reland]`, `[BE]` for "better engineering" and `[ez]`, 43 of
# pytorch/torchtitan's PRs, whose report had sections "Reland" and "BE"), or that it fits
# nowhere (`[Misc]`: aibrix's busiest tag, 106 PRs, headed its reports' key changes with a
# section "Misc"): no area either, though kept as tags.
STATUS_TAGS = frozenset(
    {"nfc", "wip", "draft", "minor", "nit", "trivial", "dnm", "do_not_merge", "rfc"}
    | {"reland", "be", "ez", "easy", "misc", "miscellaneous"}
    # How it came about again or elsewhere (torchtitan's `[Resubmit]`, vllm-ascend's
    # `[FOLLOWUP]` and `[redo]`), who or what wrote it (`[Claude]`, `[pre-commit.ci]`), how
    # urgent it is: none says where the change is.
    | {"resubmit", "redo", "reapply", "follow_up", "followup", "backport", "temp", "tmp"}
    | {"hack", "urgent", "p0", "p1", "p2", "p3", "be_week"}
    # AReaL's `[Emergency fix]` (#359), `[emergent fix]` (#383) and `fix(critical): ...` (#858)
    # made modules "emergency", "emergent" and "critical": how urgent, not where.
    | {"emergency", "emergent", "critical"}
    # vllm-ascend's `[Feature][main][new]` (#9385, #9533): new work, no area (a module "new").
    | {"new"}
    # How big, in other words than `[Minor]`: OpenRLHF #718 `[small change] Use selective
    # log-softmax ...` made a module "small_change", a row of its week's trends.
    | {"small", "tiny", "small_change", "small_changes", "tiny_change", "minor_change"}
)
# A verb of the title put in brackets (slime's `[add]add blockwise quant ...`), in any of its
# forms (`[Added]`): no area, but no conventional type either (`Update(README): ...` is no
# scoped change).
VERB_TAGS = frozenset(
    verb + ending
    for verb, endings in (
        ("add", ("", "s", "ed", "ing")),
        ("update", ("", "s", "d")),
        ("upgrade", ("", "s", "d")),
    )
    for ending in endings
) | {"updating", "upgrading"}
# Tools and bots that write PRs: no area when named exactly, but one letter off they are words
# of their own (`[Codec]`, `[Coder]` beside `codex`), never slips; nor are the verbs'
# neighbours (`[Updater]` is a component).
AUTHOR_TAGS = frozenset({"bot", "dependabot", "pre_commit.ci", "claude", "codex", "copilot"})
# Words that say what kind of change a PR is, not where: `[misc] fix: ...`, `[fix][ci] ...`.
# Beside the type-only tags, ones that name an area in some repositories (verl's `[ci]`), and
# AReaL's `gov` (governance), whose scope says where as any type's does (`gov(agents): ...`).
CHANGE_TYPES = TYPE_ONLY_TAGS | {"test", "perf", "docs", "doc", "build", "ci", "gov"}
# PyTorch's projects write `[BC Breaking]` (torchtitan #2386 changed its config system so).
BREAKING_MARKERS = frozenset(
    {"breaking", "breaking_change", "breaking_changes", "bc_breaking", "bc_break"}
)
# `[main]`, `[Cherry-pick]`: the branch a PR targets or how it got there, not where it changed
# (vllm-ascend tags 119 PRs `[main]` beside their real tags; `[dev]` is tooling work in verl and
# tilelang). A module list may still name one.
BRANCH_MARKERS = frozenset({"main", "master", "cherry_pick", "cherrypick"})
# `[skip ci]`, `[ci skip]`, `[no ci]`, `[skip actions]`: an instruction to the CI runner,
# which GitHub reads from the title, not where a change happened (apache/tvm tags 61 PRs so,
# vllm-project/tpu-inference's bot 8). A module list may still name one.
_CI_DIRECTIVE = re.compile(r"^(?:(?:skip|no)_?(?:ci|actions|checks)|(?:ci|actions)_?skip)$")
# `[1/N]`, `[1/X]`, `[2/5]`, `[part 3]`, `[PR 1/3]`, `[1 of 3]`, `[Step 1]`: a PR's place in
# a series, not a module (slime #1373's `[1/X]` headed a report section "1/X").
_PART_MARKER = re.compile(r"^(?:(?:part|pr|step|patch)_?)?\d+(?:_?(?:/|of)_?(?:\d+|n|x|m))?$")
# `[#1234]`, `[Issue #123]`, `[Fix #123]`, `[@alice]`: the issue a PR answers or whom it is
# for. `[2025-01-03]`: a date. `[releases/v0.9.1]`, `[branch-0.9]`: the branch it targets.
_REFERENCE_MARKER = re.compile(
    r"^(?:(?:issue|fix|fixes|closes|pr)_?)?#\d+$|^@"
    # The PR it comes back as (torchtitan's `[Recreate of 2753]`).
    r"|^(?:recreate|reland|redo|resubmit|reapply|revert|follow_?up)(?:_(?:of|to))?_#?\d+$"
    r"|^\d{4}[_./]\d{1,2}[_./]\d{1,2}$"
    r"|^(?:releases?|branch)[_/]v?\d+(?:\.\d+)*(?:[._]?(?:x|dev|rc|post)\d*)?$"
)
# `[v0.9.1-dev]`, `[0.10.1]`, `[Release v0.9.0]`: the branch or release a PR targets.
_VERSION_MARKER = re.compile(
    r"^(?:release_?)?v?\d+(?:\.\d+)+(?:[._]?(?:dev|rc|post|alpha|beta)\d*)?$"
)
_BRACKET_GROUP = re.compile(r"\s*[\[【]([^\]】]*)[\]】]")
_TAG_SEPARATORS = re.compile(r"[,;|，、]")
_TYPE_WITH_SCOPE = re.compile(
    r"^\s*([A-Za-z][A-Za-z_ -]{0,20}?)\s*(?:\(([^)]{0,40})\))?\s*(!)?\s*:\s*"
)
_SCOPE_AFTER_TAGS = re.compile(r"^\s*\((?P<scope>[^()]{1,40})\)\s*(?:[:：]\s*)?")
_ANY_BRACKET_GROUP = re.compile(r"[\[【][^\]】]{0,60}[\]】]")
_SPELLING_SEPARATORS = re.compile(r"[_\-./\s]")
# A word and its usual short form are one spelling of a tag: vllm-ascend tags 65 PRs
# `[Performance]` and 51 `[Perf]`, 21 `[Quantization]` and 11 `[Quant]`. So are the words for
# one kind of change: aibrix tags 73 bug fixes `[Bug]`, 24 `[Fix]` and 4 `[Bugfix]`, lmdeploy 38
# `[Fix]`, 5 `[Bugfix]`, 2 `[Bug]` and 2 `[Hotfix]`; which word a PR's author picked says
# nothing of the change. Written as words; looked up as `spelling_key` leaves them (no
# separators, no plural `s`).
_SHORT_FORMS_WRITTEN = {
    "performance": "perf",
    "quantization": "quant",
    "quantisation": "quant",
    "feature": "feat",
    "testing": "test",
    "documentation": "doc",
    "configuration": "config",
    "cfg": "config",
    "checkpoint": "ckpt",
    "algorithm": "algo",
    "environment": "env",
    "distributed": "dist",
    "refactoring": "refactor",
    "refact": "refactor",
    "attention": "attn",
    "benchmark": "bench",
    "dependency": "dep",
    "dependencies": "dep",
    "infrastructure": "infra",
    "miscellaneous": "misc",
    "speculative decoding": "spec decode",
    "spec decoding": "spec decode",
    "utility": "util",
    "utilities": "util",
    "evaluation": "eval",
    "deployment": "deploy",
    "communication": "comm",
    "hardware": "hw",
    "bug": "fix",
    "bugfix": "fix",
    "bugfixes": "fix",
    "fixes": "fix",
    "fixbug": "fix",
    "hotfix": "fix",
    "hotfixes": "fix",
    "quickfix": "fix",
    "enhancement": "enhance",
    "improve": "enhance",
    "improvement": "enhance",
    # vllm-ascend tags 80 PRs `[Ops]` and 4 `[Op]` (a plural `s` goes only after three
    # letters, or `mps` would be `mp`), tilelang `[Language]` and `[Lang]`, torchtitan
    # `[cpu-offloading]` and `[cpu-offload]`.
    "ops": "op",
    "language": "lang",
    "offloading": "offload",
    "cpu offloading": "cpu offload",
    # LLaMA-Factory titled its training code `[trainer]` (16 PRs, mostly 2025), then `[train]`
    # (11, 2026), and its inference `[infer]` (7) and `[inference]` (3): one area each, two
    # rows in weeks that had both (2025-04-21: train 1, trainer 2). Its 6 `[readme]` PRs are
    # documentation, as its `[docs]` ones.
    "trainer": "train",
    "training": "train",
    "inference": "infer",
    "readme": "doc",
    # TransformerEngine tags 483 PRs `[PyTorch]` and 11 `[PyT]` (#3020 "[PyT] Reduce test sizes
    # in fused attn fp8 vs fp16 to avoid OOM"): its reports had a module "PyT" beside PyTorch.
    "pytorch": "pyt",
}


class TitleTags(BaseModel):
    """What a title's prefix says. `stripped` is the title with the whole prefix removed."""

    model_config = ConfigDict(frozen=True)

    modules: list[str] = Field(default_factory=list)  # valid, normalised, in title order
    unknown: list[str] = Field(default_factory=list)  # normalised tags the config does not know
    type: str | None = None  # feat, fix, refactor ... when the title states one
    breaking: bool = False
    stripped: str


class GroundTruth(BaseModel):
    """A PR's modules as the repository itself tagged them (empty when it did not)."""

    model_config = ConfigDict(frozen=True)

    modules: list[str] = Field(default_factory=list)
    origin: Literal["title", "label"] | None = None
    unknown: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class _Vocabulary:
    """A ModulesConfig's module names and aliases, normalised once (and hashable)."""

    allowed: frozenset[str] | None
    aliases: tuple[tuple[str, str], ...]
    # Each listed module as written without separators or a plural `s`, where no other listed
    # module is written so.
    spelled: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, config: ModulesConfig) -> _Vocabulary:
        allowed = None if config.allowed is None else tuple(config.allowed)
        return _normalised_vocabulary(allowed, tuple(config.aliases.items()))

    def resolve(self, tag: str) -> str | None:
        """The module a normalised tag names, or None when it names none. A listed module
        written without its separators or with a plural `s` names it too (llm-compressor lists
        `model_free_ptq`: #3053's `[ModelFreePTQ]` was an unknown tag of an unlabelled PR); a
        word for it in other words (`performance` for a listed `perf`) does not."""
        module = dict(self.aliases).get(tag, tag)
        if self.allowed is None or module in self.allowed:
            return module
        return dict(self.spelled).get(_compact(module))


@lru_cache(maxsize=64)
def _normalised_vocabulary(
    allowed: tuple[str, ...] | None, aliases: tuple[tuple[str, str], ...]
) -> _Vocabulary:
    # Cached: titles are parsed thousands of times per training run against one config.
    listed = None if allowed is None else frozenset(map(normalise_tag, allowed))
    keys = Counter(_compact(module) for module in listed or ())
    return _Vocabulary(
        listed,
        tuple(sorted((normalise_tag(k), normalise_tag(v)) for k, v in aliases)),
        tuple(sorted((key, m) for m in listed or () if keys[key := _compact(m)] == 1)),
    )


def _classify_tag(
    tag: str, vocabulary: _Vocabulary
) -> tuple[list[str], str | None, bool, list[str]]:
    """(modules, type, breaking, unknown) for one normalised tag from a bracket group."""
    if tag in BREAKING_MARKERS:
        return [], None, True, []
    if (
        not tag
        or _PART_MARKER.match(tag)
        or _VERSION_MARKER.match(tag)
        or _REFERENCE_MARKER.match(tag)
    ):
        return [], None, False, []
    if (tag in BRANCH_MARKERS or _CI_DIRECTIVE.match(tag)) and (
        vocabulary.allowed is None or vocabulary.resolve(tag) is None
    ):
        return [], None, False, []
    parts = composite_parts(tag)
    kind_after_area = False
    if len(parts) == 1:  # `[MoE refactor]`: an area, then the kind of change
        parts = _area_and_kind(tag)
        kind_after_area = len(parts) == 2
    if vocabulary.allowed is None and len(parts) > 1 and areas_of(parts) != parts:
        # `[Fix/Example]`, `[hotfix/hybridengine]`: a kind of change and an area, as
        # `[Fix][Example]` would be (ColossalAI's reports had a module "Fix/Example").
        return [m for p in parts if (m := vocabulary.resolve(p))], None, False, []
    module = vocabulary.resolve(tag)
    if module is not None:
        return [module], None, False, []
    if vocabulary.allowed is not None:
        # `[ci/cd]`, `[doc&ci]`: several modules in one tag, when every part is one.
        resolved = [vocabulary.resolve(p) for p in parts]
        if len(parts) > 1 and all(r is not None for r in resolved):
            return [r for r in resolved if r is not None], None, False, []
        if kind_after_area and resolved[0] is not None:
            return [resolved[0]], parts[1], False, []
        # A kind of change in other words (`[Performance]`, `[Documentation]`) is a type, and a
        # status, an author or a verb (`[WIP]`, `[RFC]`, `[Claude]`, `[Update]`) no tag of any
        # module list: llm-compressor's materialize warned of them as unknown modules.
        if tag in CHANGE_TYPES or whole_tag_type(tag) is not None:
            return [], tag, False, []
        if _says_no_area(_spelling_free(tag)):
            return [], None, False, []
    return [], None, False, [tag]


def _area_and_kind(tag: str) -> list[str]:
    """A tag whose last word says the kind of change after an area, as its two tags:
    huggingface/trl's 23 `[DistillationTrainer refactor]` PRs, vllm-ascend's `[MoE refactor]`,
    slime's `[doc typo]`. A tag whose words together say a kind (`bug_fix`, `fix_bug`) stays
    whole, as does every other tag."""
    area, _, kind = tag.rpartition("_")
    if area and kind in TYPE_ONLY_TAGS and not _says_no_area(_spelling_free(tag)):
        return [area, kind]
    return [tag]


_COMPOSITE_SEPARATORS = re.compile(r"[/&+]")


def composite_parts(tag: str) -> list[str]:
    """The normalised parts of a tag that may name several modules (`ci/ut`, `doc&ci`)."""
    return [normalise_tag(part) for part in _COMPOSITE_SEPARATORS.split(tag) if part.strip()]


def split_joined_labels(
    modules: Sequence[str], labels: Collection[str], aliases: Mapping[str, str]
) -> list[str]:
    """Modules with a tag that joins learned labels (`[Llama4/Test]`) as those labels, as
    learning counted it: a repository without a module list takes every tag as written, and
    tpu-inference's report had a module "Llama4/Test" beside Llama4 and Test."""
    split: list[str] = []
    for module in modules:
        parts = [aliases.get(part, part) for part in composite_parts(module)]
        found = parts if len(parts) > 1 and all(part in labels for part in parts) else [module]
        split.extend(m for m in found if m not in split)
    return split


def _split_prefix(title: str) -> tuple[list[str], str]:
    """The bracket groups at the start of a title, and the rest of it."""
    groups = []
    rest = title
    while True:
        match = _BRACKET_GROUP.match(rest)
        if not match:
            break
        groups.append(match.group(1))
        rest = rest[match.end() :]
    return groups, rest


def parse_title_tags(title: str, config: ModulesConfig) -> TitleTags:
    """Parse `[BREAKING][1/N][fsdp, megatron] fix: ...`, `[misc]fix: ...`, `Revert "[x] ..."`
    (the title's first MAX_TITLE_CHARS)."""
    return _parse(title[:MAX_TITLE_CHARS], _Vocabulary.of(config))


@lru_cache(maxsize=16384)
def _parse(title: str, vocabulary: _Vocabulary) -> TitleTags:
    revert = REVERT_TITLE.match(title)
    if revert:
        inner = _parse(revert.group("quoted"), vocabulary)
        return inner.model_copy(update={"stripped": f'Revert "{inner.stripped}"', "type": "revert"})

    groups, rest = _split_prefix(title)
    modules: list[str] = []
    unknown: list[str] = []
    change_type: str | None = None
    breaking = False
    for group in groups:
        for raw in bracket_tags(group, _TAG_SEPARATORS):
            found, tag_type, tag_breaking, tag_unknown = _classify_tag(
                normalise_tag(raw), vocabulary
            )
            modules.extend(m for m in found if m not in modules)
            unknown.extend(u for u in tag_unknown if u not in unknown)
            change_type = change_type or tag_type
            breaking = breaking or tag_breaking

    scope, type_match, rest = _conventional_prefix(rest, bool(groups))
    if type_match:
        change_type = normalise_tag(type_match.group(1))
        breaking = breaking or type_match.group(3) == "!"
    # A conventional commit's scope (`fix(megatron): ...`) says where, as a tag would; beside
    # tags that already say where, it only narrows them (`[trainer] fix(sft): ...`).
    if scope and not areas_of(modules):
        for raw in _TAG_SEPARATORS.split(scope):
            found, _, _, tag_unknown = _classify_tag(
                _scope_area(normalise_tag(raw), vocabulary), vocabulary
            )
            modules.extend(m for m in found if m not in modules)
            unknown.extend(u for u in tag_unknown if u not in unknown)
    return TitleTags(
        modules=modules,
        unknown=unknown,
        type=change_type,
        breaking=breaking,
        stripped=rest.strip(),
    )


def _conventional_prefix(rest: str, tagged: bool) -> tuple[str | None, re.Match[str] | None, str]:
    """The scope a title (its bracket tags, if `tagged`, already taken off) writes, the match of
    its conventional type, and the title after them."""
    scope = None
    # A scope after the tags, as a conventional commit puts it after its type: vllm-ascend's
    # `[bugfix](pcp) expand ...`, `[Feat](Mooncake) Supports ...` (20 titles), AReaL #1208
    # `[Fix](Service):fix ...`, whose scopes were no module.
    tag_scope = _SCOPE_AFTER_TAGS.match(rest) if tagged else None
    if tag_scope and rest[tag_scope.end() :].strip():
        scope, rest = tag_scope.group("scope"), rest[tag_scope.end() :]
    type_match = _TYPE_WITH_SCOPE.match(rest)
    if type_match and normalise_tag(type_match.group(1)) in CHANGE_TYPES | {"misc", "docs"}:
        return scope or type_match.group(2), type_match, rest[type_match.end() :]
    return scope, None, rest


def _scope_area(scope: str, vocabulary: _Vocabulary) -> str:
    """The area a normalised scope names. A scope written as a path narrows the area it starts
    with to a folder or file of it (LLaMA-Factory #10455 `fix(data/converter): ...`, slime
    #2101 `fix(examples/tau-bench): ...` made modules "data/converter" and
    "examples/tau-bench"), so it names that first part; a module list that names every part
    (`ci/ut`) keeps them all, as it does in a bracket tag."""
    parts = scope.split("/")
    if len(parts) == 1 or not parts[0]:
        return scope
    if vocabulary.allowed is not None and all(vocabulary.resolve(p) for p in parts):
        return scope
    return parts[0]


def text_without_tags(title: str, config: ModulesConfig) -> str:
    """The title as a model may see it: prefix, type and any bracketed tag removed.

    Bracket groups later in the title go too (`[model] fix: Revert "[model] feat: ..."`), so
    no tag reaches the classifier's inputs by any route.
    """
    stripped = parse_title_tags(title, config).stripped
    return re.sub(r"\s+", " ", _ANY_BRACKET_GROUP.sub(" ", stripped)).strip()


def areas_of(modules: Sequence[str]) -> list[str]:
    """The modules that say where a change happened: without type-only tags (`bugfix`) and
    status tags (`wip`), nor slips of them."""
    return [m for m in modules if not _says_no_area(_spelling_free(m))]


@lru_cache(maxsize=4096)
def _says_no_area(key: str) -> bool:
    """Whether a tag is a type-only or status tag, or one typing slip away from one with the
    same first letter (`[Refractor]`, `[bugifx]`, `[enchance]`, `[imporve]`: 24 PRs over six
    of twelve repositories, one of vllm-omni's report sections "Refractor"). Short tags are
    never slips (`core` is not `chore`), nor is a tag with other digits: a digit is no typing
    slip (an area `small2` is no `[small]` change, as `qwen2vl` is no slip of `qwenvl`)."""
    if key in _NO_AREA_KEYS or key in _EXACT_NO_AREA_KEYS or _NOT_READY.match(key):
        return True
    return len(key) >= 5 and any(
        word[0] == key[0]
        and len(word) >= 5
        and _NON_DIGITS.sub("", key) == _NON_DIGITS.sub("", word)
        and _edit_distance(key, word, 1) <= 1
        for word in _NO_AREA_KEYS
    )


_NON_DIGITS = re.compile(r"\D")


def _spelling_free(tag: str) -> str:
    """A tag without its word separators: `[FIX BUG]`, `[Hot Fix]` and `[fixbug]` are one."""
    return normalise_tag(tag).replace("_", "")


_NO_AREA_KEYS = frozenset(map(_spelling_free, TYPE_ONLY_TAGS | STATUS_TAGS))
_EXACT_NO_AREA_KEYS = frozenset(map(_spelling_free, AUTHOR_TAGS | VERB_TAGS))
# Status written as a phrase, spelling-free: `[not ready to review yet]`, `[Ready for review]`,
# `[Don't merge yet]`, `[do not review]` (tpu-inference's report had a module "not ready to
# review yet"; one or two such tags in each of four repositories).
_NOT_READY = re.compile(
    r"^(?:(?:not|almost)?ready(?:(?:to|for)(?:review|merge))?|(?:donot|don'?t)(?:review|merge))(?:yet)?$"
)


def modules_from_labels(labels: Iterable[str], config: ModulesConfig) -> list[str]:
    """Modules named by GitHub labels, through `config.label_modules` (label -> module)."""
    mapping = {normalise_tag(k): normalise_tag(v) for k, v in config.label_modules.items()}
    modules: list[str] = []
    for label in labels:
        module = mapping.get(normalise_tag(label))
        if module is not None and module not in modules:
            modules.append(module)
    return modules


def ground_truth(pr: PullRequest, config: ModulesConfig) -> GroundTruth:
    """The title's valid module tags when it has any, else the modules its labels map to.

    Without a module list, a tag naming the repository itself (torch-mlir's 52
    `[torch-mlir][sparse] ...`, apache/tvm's 28 `[TVM] ...`, an LLVM habit) says nowhere in
    it: an unknown tag, not a module. A module list may still name it.
    """
    tags = parse_title_tags(pr.title, config)
    modules, unknown = tags.modules, tags.unknown
    if config.allowed is None:
        named = [m for m in modules if spelling_key(m) == _project_key(pr.repo)]
        if named:
            modules = [m for m in modules if m not in named]
            unknown = [*unknown, *named]
    if modules:
        return GroundTruth(modules=modules, origin="title", unknown=unknown)
    from_labels = modules_from_labels(pr.labels, config)
    if from_labels:
        return GroundTruth(modules=from_labels, origin="label", unknown=unknown)
    return GroundTruth(unknown=unknown)


@lru_cache(maxsize=64)
def _project_key(repo: str) -> str:
    """The spelling key of a repository's name without its owner (`llvm/torch-mlir`)."""
    return spelling_key(normalise_tag(repo.rpartition("/")[2]))


def spelling_key(tag: str) -> str:
    """What a normalised tag is once spelling is set aside: separators and a plural `s` go, and
    a word becomes its usual short form, so `docs`, `doc` and `doc.`, or `kv_pool` and
    `kvpool`, or `p/d` and `pd`, or `performance` and `perf` share a key; so do the words for
    one kind of change (`bug`, `bugfix`, `hotfix` and `fix`).

    Only spelling: `eagle` and `eagle3`, `model` and `model_runner_v2` stay apart.
    """
    compact = _compact(tag)
    return _SHORT_FORMS.get(compact, compact)


def _compact(tag: str) -> str:
    """A tag as written, without separators or a plural `s`."""
    return _singular(_SPELLING_SEPARATORS.sub("", tag))


def _singular(compact: str) -> str:
    return compact[:-1] if len(compact) > 3 and compact.endswith("s") else compact


_SHORT_FORMS = {_compact(word): _compact(short) for word, short in _SHORT_FORMS_WRITTEN.items()}


# A learned label is named as this latest share of the tagged PRs spell it.
RECENT_SHARE = 0.2
# A tag used this rarely, one typing slip away from one used MISSPELLING_RATIO times as often
# (and MISSPELLING_MIN_COMMON times at least), is that tag misspelt: `[megatonr]`, `[bugifx]`,
# `[refractor]`, `[langauge]` over four repositories' histories, 13 tags in all.
MISSPELLING_MAX_USES = 2
MISSPELLING_MIN_COMMON = 20
MISSPELLING_RATIO = 10


def _misspelt(key: str, spellings: dict[str, list[str]], totals: dict[str, int]) -> str | None:
    """The spelling key `key` is a slip of, if any: a tag written one edit away from a tag of
    the other key (two from eight letters on), with the same digits (`qwen2vl` is no slip of
    `qwen3vl`); a change type is never one (`chore` is not `core`). Tags are compared as
    written, not as their short forms: `[bugifx]` is a slip of `[bugfix]`, whose key is `fix`."""
    if totals.get(key, 0) > MISSPELLING_MAX_USES or key in CHANGE_TYPES:
        return None
    written = [form for form in map(_compact, spellings[key]) if len(form) >= 5]
    for other, total in sorted(totals.items(), key=lambda kv: -kv[1]):
        if other == key or total < max(MISSPELLING_MIN_COMMON, MISSPELLING_RATIO * totals[key]):
            continue
        for form in written:
            reach = 1 if len(form) < 8 else 2
            digits = sorted(c for c in form if c.isdigit())
            if any(
                sorted(c for c in common if c.isdigit()) == digits
                and _edit_distance(form, common, reach) <= reach
                for common in map(_compact, spellings[other])
            ):
                return other
    return None


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions and swaps of
    neighbours), or `limit + 1` once it is past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        earlier, previous, row = before, row, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], earlier[j - 2] + 1)
        before = previous
    return row[-1]


def learn_modules_config(
    prs: Sequence[PullRequest], config: ModulesConfig, min_count: int | None = None
) -> ModulesConfig:
    """`config` with `allowed` set to the tags used at least `min_count` times in `prs`.

    For repositories without a module list: the label set is what the history itself uses
    often enough to learn. Spellings of one tag (`doc`/`docs`, `kv_pool`/`kvpool`,
    `perf`/`performance`) are one label, named as most of the latest RECENT_SHARE of the
    tagged PRs spell it (then as most of all do), and the other spellings become aliases of
    it: spellings drift (vllm-ascend wrote `[Feat]` 81 times and `[Feature]` 68 before
    2026-03, but `[Feature]` twice as often in the months before and four times as often
    after). A rare slip of a common tag folds into it. A config that already lists its
    modules is returned unchanged.
    """
    if config.allowed is not None:
        return config
    threshold = config.min_label_prs if min_count is None else min_count
    counts: Counter[str] = Counter()
    tagged: list[tuple[datetime, int, list[str]]] = []
    for pr in prs:
        modules = ground_truth(pr, config).modules
        counts.update(modules)
        if modules:
            tagged.append((pr.merged_at, pr.number, modules))
    recent: Counter[str] = Counter()
    for _, _, modules in sorted(tagged)[len(tagged) - round(len(tagged) * RECENT_SHARE) :]:
        recent.update(modules)
    _split_composites(counts, recent)
    spellings: dict[str, list[str]] = {}
    for tag in sorted(counts):
        spellings.setdefault(spelling_key(tag), []).append(tag)
    totals = {key: sum(counts[tag] for tag in tags) for key, tags in spellings.items()}
    misspellings: set[str] = set()
    for key in sorted(totals, key=lambda k: totals[k]):
        common = _misspelt(key, spellings, totals)
        if common is not None:
            misspellings.update(spellings[key])
            spellings[common].extend(spellings.pop(key))
    aliases = dict(config.aliases)  # the counted tags are already through these
    allowed = []
    for tags in spellings.values():
        # A slip never names the label, however recent: torch-mlir's one `[TorchDialicet]`
        # (2025) would have named the 67 `[Torch Dialect]` PRs of 2023-2024.
        label = min(
            tags,
            key=lambda tag: (tag in misspellings, -recent[tag], -counts[tag], len(tag), tag),
        )
        aliases.update({tag: label for tag in tags if tag != label})
        if sum(counts[tag] for tag in tags) >= threshold:
            allowed.append(label)
    return config.model_copy(update={"allowed": sorted(allowed), "aliases": aliases})


def _split_composites(counts: Counter[str], recent: Counter[str]) -> None:
    """Count a tag that joins tags the history also uses on their own as those tags:
    vllm-ascend's 11 `[CI/UT]` PRs are CI and UT PRs, not a label beside both (`module_labels`
    splits such a tag once `allowed`, or the model's labels, hold its parts). `[P/D]` stays:
    neither part is a tag."""
    totals: Counter[str] = Counter()
    for tag, count in counts.items():
        if len(composite_parts(tag)) == 1:
            totals[spelling_key(tag)] += count
    joined = {tag: parts for tag in counts if len(parts := composite_parts(tag)) > 1}
    for tag, parts in joined.items():
        if all(totals[spelling_key(part)] for part in parts):
            for counter in (counts, recent):
                uses = counter.pop(tag, 0)
                for part in dict.fromkeys(parts):
                    counter[part] += uses


def tag_spellings(prs: Sequence[PullRequest], config: ModulesConfig) -> dict[str, str]:
    """Each module as the PRs' title tags most often write it, capitals kept: vllm-omni's
    `new_model` is `New model`, vllm-ascend's `kv_pool` is `KV Pool` (ties go to the spelling
    seen first). Without a module list, the tags fold as `module_labels` folds them (the
    spellings `learn_modules_config` learns from `prs`: `[Perf]` is `performance`). GitHub
    labels are not counted: a label's name is not a tag."""
    if config.allowed is None:
        config = config.model_copy(update={"aliases": learn_modules_config(prs, config).aliases})
    vocabulary = _Vocabulary.of(config)
    written: dict[str, Counter[str]] = {}
    scoped: dict[str, Counter[str]] = {}

    def count(part: str, tag: str, into: dict[str, Counter[str]]) -> None:
        one, _, _, _ = _classify_tag(tag, vocabulary)
        if len(one) == 1:
            spelling = " ".join(part.replace("`", "").split())
            into.setdefault(one[0], Counter())[spelling] += 1

    for pr in prs:
        groups, rest = _split_prefix(pr.title)
        tagged: list[str] = []
        for group in groups:
            for raw in bracket_tags(group, _TAG_SEPARATORS):
                found, _, _, _ = _classify_tag(normalise_tag(raw), vocabulary)
                tagged.extend(found)
                # A tag of several (`[CI/UT]`, `[DistillationTrainer refactor]`) writes each.
                for part in _written_parts(raw) if len(found) > 1 else [raw]:
                    count(part, normalise_tag(part), written)
        # A scope writes its module too: NVIDIA-NeMo/RL's `fix(nemo-gym): ...` and
        # `fix(math-env): ...` headed sections "nemo_gym" and "math_env", spellings of no
        # title. Scopes are lower case by convention, so a bracket tag's spelling comes first
        # (vllm-ascend writes `[DSA-CP]` and `(dsa_cp)`).
        scope = _conventional_prefix(rest, bool(groups))[0]
        if scope and not areas_of(tagged):  # as `_parse` reads a scope
            for raw in _TAG_SEPARATORS.split(scope):
                area = _scope_area(normalise_tag(raw), vocabulary)
                part = raw if area == normalise_tag(raw) else raw.strip().split("/")[0]
                count(part, area, scoped)
    # A module some bracket tag writes takes that tag's spellings alone.
    return {module: counts.most_common(1)[0][0] for module, counts in {**scoped, **written}.items()}


_LAST_WORD = re.compile(r"[\s_-]+(?=[^\s_-]+$)")


def _written_parts(raw: str) -> list[str]:
    """The parts of a tag as written: joined by `/`, `&` or `+`, else its area and last word."""
    parts = [part.strip() for part in _COMPOSITE_SEPARATORS.split(raw) if part.strip()]
    return parts if len(parts) > 1 else _LAST_WORD.split(raw.strip())


# Below this confidence a predicted module is more likely wrong than right (slime's guesses
# under it named a module the PR's tags agreed with in 12-24% of cases; verl's 23-60%): the
# reports list such a PR as unlabelled, and scoring counts no such module.
UNSURE_CONFIDENCE = 0.5


def is_sure(label: ModuleLabel) -> bool:
    """A PR's own tag, or a prediction at UNSURE_CONFIDENCE or more."""
    return label.origin != "model" or label.confidence >= UNSURE_CONFIDENCE
