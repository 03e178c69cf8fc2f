"""What a PR's title says: its type, breaking marker, bracket tags and what it closes.

Titles follow `[BREAKING][modules] type: description` in repositories like verl; older or other
repositories write `fix(scope): ...`, `Fix ...` or nothing at all, so the type falls back to the
title's first word (the one after a scope, in `rollout: Fix ...`), then to a fix named anywhere
in the title, then to what the title names (`... Support for ...`, `Skip ... tests`). A
template's ticked "Type of change" box in the description counts too (`change_kind`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.modelling.text.pr_descriptions import clean_description, normalised
from prhub_pipeline.records import MAX_TITLE_CHARS, PrType
from prhub_pipeline.reverts import REVERT_TITLE, TRAILING_PR_NUMBER

TYPE_ALIASES: dict[str, PrType] = {
    "feat": "feat",
    "feature": "feat",
    "features": "feat",
    "enhance": "feat",
    "enhancement": "feat",
    "enhancements": "feat",
    "improvement": "feat",
    "add": "feat",
    "support": "feat",
    "implement": "feat",
    "fix": "fix",
    "fixes": "fix",
    "fixed": "fix",
    "bugfix": "fix",
    "bugfixes": "fix",
    "fixbug": "fix",
    "bug": "fix",
    "hotfix": "fix",
    "hotfixes": "fix",
    "refactor": "refactor",
    "refactoring": "refactor",
    "refact": "refactor",
    "perf": "perf",
    "performance": "perf",
    "optimization": "perf",
    "optimisation": "perf",
    "chore": "chore",
    "ci": "chore",
    "build": "chore",
    "style": "chore",
    "misc": "chore",
    "bump": "chore",
    "update": "chore",
    "lint": "chore",
    # torchtitan's `[Typing]` PRs annotate types or fix what the type checker reports.
    "typing": "chore",
    "release": "chore",
    "upgrade": "chore",
    # inclusionAI/AReaL's own type for governance and maintainer changes (`gov: add
    # maintainer`, #1227; `gov: enforce 2-approval merge policy on main`, #1307, whose
    # CODEOWNERS and ruleset read as a 6.4 feature): upkeep of the project.
    "gov": "chore",
    "governance": "chore",
    "pin": "chore",
    "cleanup": "refactor",
    "clean": "refactor",
    "doc": "doc",
    "docs": "doc",
    "documentation": "doc",
    "typo": "doc",
    "readme": "doc",
    "test": "test",
    "tests": "test",
    "testing": "test",
    "revert": "revert",
}

# Words that name a type only as a title's first word, never as a bracket tag (`[ci]` is a module).
_VERB_ALIASES = frozenset({"add", "support", "implement", "update", "bump", "ci", "build", "misc"})
# Verbs that say the type only as a title's first word (`Allow users to ...`, `remove ...`).
_FIRST_WORD_TYPES: dict[str, PrType] = {
    **dict.fromkeys(
        ["added", "adds", "introduce", "introduces", "allow", "allows", "enable", "enables"],
        "feat",
    ),
    **dict.fromkeys(["provide", "provides", "create", "creates", "new", "expose"], "feat"),
    **dict.fromkeys(["improve", "improves", "enhances"], "feat"),
    # apache/tvm's past tenses and gerunds (`[TIR] Improved error message in ...`).
    **dict.fromkeys(["improved", "improving", "implemented", "implements", "implementing"], "feat"),
    **dict.fromkeys(["introduced", "introducing"], "feat"),
    **dict.fromkeys(["updated", "updates", "updating"], "chore"),  # as `update` is
    # First words whose type tagged titles agree on (apache/tvm's `Phase out ...`: 50 of 51
    # tagged refactor; `Reject ...`: 17 of 17 fix; `Translated ...`: 31 of 31 docs).
    **dict.fromkeys(["phase", "phaseout", "establish"], "refactor"),
    **dict.fromkeys(["reject", "rejects"], "fix"),
    **dict.fromkeys(["translated", "clarify", "clarifies"], "doc"),  # not `Translate X to Y`
    **dict.fromkeys(["fixup", "fixing", "correct", "resolve", "resolves"], "fix"),
    **dict.fromkeys(["prevent", "prevents", "avoid", "avoids"], "fix"),
    **dict.fromkeys(["remove", "removes", "delete", "deletes", "rename", "renames"], "refactor"),
    **dict.fromkeys(["move", "moves", "simplify", "replace", "replaces", "relocate"], "refactor"),
    # tilelang's `[CUDA] Split backend-specific builtin ops`, vllm-ascend's `Drop ...`.
    **dict.fromkeys(["split", "separate", "extract", "decouple", "unify", "trim"], "refactor"),
    **dict.fromkeys(["drop", "drops", "migrate", "consolidate", "reorganize"], "refactor"),
    **dict.fromkeys(["restore", "restores", "recover", "repair", "repairs"], "fix"),
    **dict.fromkeys(["optimize", "optimise", "speed", "accelerate"], "perf"),
    # ms-swift's `compat transformers 4.52` (57 titles): made to work with a new version.
    **dict.fromkeys(["compat", "compatible", "compatibility"], "fix"),
    **dict.fromkeys(["autoupdate", "nominate"], "chore"),
    # torchtitan's `Deduplicate experiment configs ...`, `[SAC] Centralize selective AC policy
    # ...`, `Unbreak CI`, `Upgrades torchtitan-ubuntu docker image ...`; verl's and
    # vllm-ascend's tagged `standardize` titles are refactors.
    **dict.fromkeys(["deduplicate", "deduplicates", "dedup", "dedupe"], "refactor"),
    **dict.fromkeys(["centralize", "centralise", "standardize", "standardise"], "refactor"),
    **dict.fromkeys(["unbreak", "unbreaks"], "fix"),
    **dict.fromkeys(["upgrades"], "chore"),
    # hpcaitech/ColossalAI's and apache/tvm's past tenses (`[fp16] refactored fp16 optimizer`,
    # `[model] supported ERNIE4.5 Text Models`), typed as the verbs above are.
    **dict.fromkeys(["supported", "enhanced"], "feat"),
    **dict.fromkeys(["refactored", "renamed", "replaced", "simplified", "unified"], "refactor"),
    **dict.fromkeys(["moved", "moving", "removing", "cleaned"], "refactor"),
    **dict.fromkeys(["optimized", "optimised"], "perf"),
    **dict.fromkeys(["bumped", "upgraded"], "chore"),
}
# First words that say a type less surely than a fix named later in the title (`Adding slice
# to fix failure ...`, `Install wget to fix image build`). TransformerEngine writes most titles
# as a bare verb phrase: 716 of its 2010 said no type the words above know.
_WEAK_FIRST_WORD_TYPES: dict[str, PrType] = {
    **dict.fromkeys(["adding", "enabling", "integrate", "integrates", "initial"], "feat"),
    **dict.fromkeys(["extend", "extends", "expand", "expands", "improvements"], "feat"),
    **dict.fromkeys(["handle", "handles", "guard", "guards", "ensure", "ensures"], "fix"),
    **dict.fromkeys(["preserve", "preserves", "catch", "stabilize", "don", "dont"], "fix"),
    # `Harden KTransformers MoE LoRA SFT integration`, `[JAX] Adapt to Flax 0.7.1`.
    **dict.fromkeys(["harden", "hardens", "adapt", "adapts"], "fix"),
    **dict.fromkeys(["check", "checks", "correctly"], "fix"),  # 15 of 16 tagged fix
    # Of the titles a conventional type names, 14 of 17 opening `pass` (`pass correct fsdp
    # mesh`), 9 of 11 opening `only` and 7 of 9 opening `align` say fix.
    **dict.fromkeys(["pass", "passes", "only", "align", "aligns"], "fix"),
    **dict.fromkeys(["fuse", "fuses"], "perf"),
    **dict.fromkeys(["removed", "rm", "deprecate", "deprecates"], "refactor"),
    **dict.fromkeys(["speedup", "optimizations"], "perf"),
    **dict.fromkeys(["cherrypick", "cherry", "install", "installs"], "chore"),
    **dict.fromkeys(["document", "documents"], "doc"),
    # Past tenses as weak as their verbs above (`[autoparallel] handled illegal strategy`).
    **dict.fromkeys(["integrated"], "feat"),
    **dict.fromkeys(["handled", "adapted"], "fix"),
    # `[fx] patched torch.full for huggingface opt`: 11 of 12 titles typed otherwise say fix.
    **dict.fromkeys(["patch", "patches", "patched"], "fix"),
    # A bot's (`Automated submodule synchronization`, 68 of ColossalAI's titles).
    **dict.fromkeys(["automated"], "chore"),
}
# A fix named anywhere in a title that says no type up front (`nccl bucket size fix`).
_FIX_WORD = re.compile(
    r"\b(?:fix|fixes|fixed|fixing|bugfix|bugfixes|hotfix|hotfixes)\b", re.IGNORECASE
)
# What a title without a type word up front is, by what it names: `FP8 Support for MCore MoE`,
# `[Diffusion] Qwen image support` and `qwen3_moe/qwen25 support torchair graph` are features,
# `Skip MXFP8 MFSDP tests on hopper` a test change. Support as a change's purpose (`Use cos and
# sin cache to support NPU`) says nothing of the change itself.
_SUPPORT = re.compile(r"(?<!\bto )(?<!\bfully )\bsupports?\b", re.IGNORECASE)
_TESTS = re.compile(r"\btests?\b", re.IGNORECASE)
_TEST_SWITCHES = frozenset({"skip", "disable", "reenable", "relax", "tighten"})
# A style-only change, however its verb reads (ColossalAI's 231 `[NFC] polish <file> code style`).
_CODE_STYLE = re.compile(r"\bcode ?style\b|\bcode formatting\b", re.IGNORECASE)
# Code tidied, however the title opens (slime's `Super tiny code cleanup`, `[Misc] Code clean
# up`, torchtitan's `Code deduplication between llama3 and deepseek_v3`): a refactor. Not a
# clean-up the code does (`terminate parent process before children in RemoteOpenAIServer
# cleanup`).
_CODE_CLEANUP = re.compile(
    r"(?:^|\b(?:and|code|some|small|minor)\s+)clean(?:[\s-]?ups?|ing)\b"
    r"|\bcode\s+(?:dedup\w*|deduplication)\b",
    re.IGNORECASE,
)
# A refactor named as the title's subject (torchtitan's `Config System Refactor: TOML to ...`,
# `[rl] Trainer refactor`): not one done without (slime's `async gather tp weights without
# refactor`).
_REFACTOR_NOUN = re.compile(
    r"(?<!\bwithout )(?<!\bno )\brefactor(?:ing)?\s*(?:[:：]|(?:\(#\d+\))?\s*$)", re.IGNORECASE
)
# vllm-ascend's `main2main` PRs (`[CI] main2main vllm 0814 cdc4824`, 25 titles) keep the plugin
# working on vLLM's latest main: following a dependency, as a version bump does.
_FOLLOWS_UPSTREAM = re.compile(r"\bmain2main\b", re.IGNORECASE)


# A dependency moved to a commit, however the verb reads (llvm/torch-mlir's weekly
# `Integrate LLVM at 10dbfc4863c9...`, 24 of them): a chore, not a feature.
_TO_A_COMMIT = re.compile(r"\b(?:at|to)\s+(?:[\w.-]+/[\w.-]+@)?(?=[a-f]*\d)[0-9a-f]{7,40}\b")
# A pin set back to an earlier version or commit (`Revert vLLM LKG to fa4321de3d`, `revert
# fastvideo kernel version to 0.2.6`): a dependency moved, like a bump, not a PR undone.
_PIN_SET_BACK = re.compile(
    r"^revert\s+(?!\")\S.*?\bto\s+(?:v?\d+(?:\.\d+)*\b|(?=[a-f]*\d)[0-9a-f]{7,40}\b)",
    re.IGNORECASE,
)
# A title whose object is tests (`Add test for pallas_torchax.py`, `[CI] Add qwen2.5-vl test`,
# `Add e2e test related to weight updates`): a test change, though "add" reads as a feature.
# Not a feature with its tests (`Add FP8 support and tests`) or `test-time` anything.
_ADDS_TESTS = re.compile(
    r"^(?:add(?:s|ed|ing)?|implement(?:s|ed|ing)?|introduc(?:e|es|ed|ing)|creat(?:e|es|ed|ing)"
    r"|write)\s+(?:(?!(?:and|with|support|for)\b)[\w.()/-]+\s+){0,3}?tests?(?:\s?cases?)?\b(?!_|-\w)",
    re.IGNORECASE,
)
# `📝 Add docstrings to `mxfp4``: documentation in the code (tilelang's CodeRabbit bot opened
# five such PRs, four of them key features), not a feature.
# The docstrings are the whole object: "Add docstrings checker" or "Add docstrings and a
# fused kernel" add more than documentation.
# Refined or corrected docstrings are documentation too (AReaL #376 "doc: refine docstrings of
# controller API", TransformerEngine #1549 "Fix incorrect docstrings in ...").
_ADDS_DOCSTRINGS = re.compile(
    r"^\W*(?:add|improv|updat|generat|writ|refin|polish|clarif|correct|fix)\w*\s+"
    r"(?:[\w.-]+\s+){0,2}?docstrings?"
    r"(?:\s+(?:to|for|in|of|on|across|throughout)\s+(?:(?!\b(?:and|with|plus)\b)[^&+,;])*)?"
    r"[\s.!]*$",
    re.IGNORECASE,
)
# `Reapply "[Refactor] Unify full-graph parameter update logic (#6041)"`: the change that comes
# back, whose title says its type.
_RELAND_QUOTED = re.compile(r"^re-?(?:apply|land)\b\W*?\"(?P<title>.+)\"", re.IGNORECASE)
# Who owns or maintains the code (`Add @name to code owners`, `Change codeowners`) and under
# which licence (`Remove incorrect ASF license headers from src files`, `Add LICENSE for
# flashinfer`): upkeep of the project, whatever the verb. tilelang's #3051 was a 7.5 key PR as
# a refactor of 21 source files whose comments it changed.
_UPKEEP = re.compile(
    r"\bcode[ _-]?owner(?:s|ship)?\b|\bmaintainership\b|\blicen[cs]es?\b|\bcopyrights?\b"
    r"|\bspdx\b",
    re.IGNORECASE,
)


# The items of a title that lists several changes: `X support, MoE gate v2, CP attention fixes`.
_TITLE_ITEMS = re.compile(r"\s*(?:[,;+&]|\band\b)\s*", re.IGNORECASE)


def title_items(title: str) -> list[str]:
    """The changes a title lists, in its order (one item for a title that lists none)."""
    return [item for item in _TITLE_ITEMS.split(title) if item]


def _type_named_anywhere(title: str, first_word: str) -> PrType:
    if _FIX_WORD.search(title):
        # Fixes listed after the support a title leads with go with that feature (lmdeploy
        # #4835, "Intern-S2-Mobius meta-MoE support, MoE gate v2, CP attention fixes").
        items = title_items(title)
        leading = items[0] if len(items) >= 2 else ""
        return "feat" if _SUPPORT.search(leading) and not _FIX_WORD.search(leading) else "fix"
    if _TO_A_COMMIT.search(title):
        return "chore"
    if first_word in _WEAK_FIRST_WORD_TYPES:
        return _WEAK_FIRST_WORD_TYPES[first_word]
    if _FOLLOWS_UPSTREAM.search(title):
        return "chore"
    if first_word in _TEST_SWITCHES and _TESTS.search(title):
        return "test"
    if _CODE_STYLE.search(title):
        return "chore"
    if _CODE_CLEANUP.search(title) or _REFACTOR_NOUN.search(title):
        return "refactor"
    return "feat" if _SUPPORT.search(title) else "other"


_BRACKET = re.compile(r"^\s*\[(?P<inner>[^\]]*)\]\s*")
# `[BREAKING]`, `[Breaking Change]`, and PyTorch's `[BC Breaking]` / `[BC-breaking]`.
_BREAKING = re.compile(r"^\s*(?:bc[\s_-]*)?breaking(?:[\s_-]*changes?)?\s*$", re.IGNORECASE)
_BREAKING_LEAD = re.compile(r"^BREAKING(?:[\s_-]*CHANGES?)?\s*[:：!]?\s*", re.IGNORECASE)
_PART = re.compile(
    r"^\s*(?:(?:part|pr|step|patch)\s*)?\d+\s*(?:/|of)\s*(?:\d+|n|x|m)\s*$", re.IGNORECASE
)
# A scope in parentheses after the tags, as in a conventional commit (`[bugfix](pcp) expand
# ...`, `[Refactor](kv_pool): simplify ...`: 20 of vllm-ascend's titles); without tags, only
# before a colon (verl's `(fix): fix values ...`), since `(WIP) add ...` is no scope.
_SCOPE = re.compile(r"^\((?P<scope>[^()]{1,40})\)\s*(?P<colon>[:：])?\s*")
# `type:` or `type(scope):` or `type!:` right after the bracket prefix; or a scope in the
# type's place, which may hold digits (`MXFP8: Add ...`).
CONVENTIONAL = re.compile(
    r"^(?P<type>[A-Za-z][A-Za-z0-9]*)\s*(?:\((?P<scope>[^)]*)\))?\s*(?P<bang>!)?\s*[:：]\s*"
    r"(?P<rest>.*)$",
    re.DOTALL,
)
# The first word, past what only says how small a change is (slime's `Super tiny refactor ...`,
# 102 of its titles) or that it is meant not to last (`Temporarily remove comm_gemm tests`), or
# how far it goes (AReaL #230 `Slightly refactor inference engine IO ...`, `[Flux] Further
# optimize FSDP performance`).
_FIRST_WORD = re.compile(
    r"^[\W_]*(?:(?:super|very|tiny|minor|small|quick|simple|trivial|temporarily|slightly"
    r"|further)[\s,:-]+){0,2}"
    r"(?P<word>[A-Za-z]+(?:-[A-Za-z]+)*)",
    re.IGNORECASE,
)


# A subject that opens with a preposition goes on from its last tag, part of the sentence:
# llm-compressor #2340 "[DDP] for sequential pipeline" read "for sequential pipeline" (1 title
# of 21,500 over 13 repositories). Not `to`: "[CI] to solve cache_csrc mismatch" (vllm-ascend
# #10692) says its purpose without the tag.
_GOES_ON_FROM_THE_TAG = re.compile(
    r"^(?:for|in|on|with|of|from|at|by|into|onto|via|across|without|under|over|between)\s"
)


class TitleInfo(BaseModel):
    """The parts of a PR title."""

    model_config = ConfigDict(frozen=True)

    type: PrType
    breaking: bool
    prefix_tags: list[str]  # bracket tags other than [BREAKING] and [1/N], lower-cased
    subject: str  # the title without its prefixes and type


# A bracket tag that puts a scope beside its type, as a conventional commit would (ms-swift's
# `[Bugfix (rlhf)]`, vllm-ascend's `[bugfix (pcp)]`): two tags, the type and the scope.
_SCOPED_TAG = re.compile(r"^(?P<type>[A-Za-z][A-Za-z -]{0,20}?)\s*\((?P<scope>[^()]{1,30})\)$")


def bracket_tags(inner: str, separators: re.Pattern[str] = re.compile(",")) -> list[str]:
    """The tags one bracket group holds (`fsdp, megatron`), a scoped type split in two."""
    tags: list[str] = []
    for raw in separators.split(inner):
        raw = raw.strip()
        scoped = _SCOPED_TAG.match(raw)
        if scoped and tag_type(scoped.group("type")) is not None:
            tags.extend([scoped.group("type").strip(), scoped.group("scope").strip()])
        elif raw:
            tags.append(raw)
    return tags


def parse_title(title: str) -> TitleInfo:
    """Type, `[BREAKING]` marker and bracket tags of a title.

    >>> parse_title("[BREAKING][fsdp, megatron] feat: dynamic batching").type
    'feat'
    """
    rest = title[:MAX_TITLE_CHARS].strip()
    breaking = False
    tags: list[str] = []
    inner = ""
    while match := _BRACKET.match(rest):
        inner = match.group("inner")
        if _BREAKING.match(inner):
            breaking = True
        elif not _PART.match(inner):
            tags.extend(t.lower() for t in bracket_tags(inner))
        rest = rest[match.end() :]
    scope = _SCOPE.match(rest)
    scope_type: PrType | None = None
    if scope and (tags or scope.group("colon")) and rest[scope.end() :]:
        rest = rest[scope.end() :]
        # slime's `(fix):not have encoder_only attr ...`: the type in the scope's place.
        scope_type = TYPE_ALIASES.get(scope.group("scope").strip().lower())
    if REVERT_TITLE.match(rest) or rest.lower().startswith("revert "):
        pr_type: PrType = "chore" if _PIN_SET_BACK.match(rest) else "revert"
        return TitleInfo(type=pr_type, breaking=breaking, prefix_tags=tags, subject=rest)
    # `BREAKING: move ...`, `breaking change: ...`: the marker is no part of the subject.
    marker = _BREAKING_LEAD.match(rest)
    if marker:
        breaking = True
        rest = rest[marker.end() :] or rest
    conventional = CONVENTIONAL.match(rest)
    if conventional and conventional.group("type").lower() in TYPE_ALIASES:
        pr_type = TYPE_ALIASES[conventional.group("type").lower()]
        breaking = breaking or conventional.group("bang") is not None
        subject = conventional.group("rest").strip() or rest
        return TitleInfo(
            type=_type_of_what_it_changes(pr_type, subject),
            breaking=breaking,
            prefix_tags=tags,
            subject=subject,
        )
    # `rollout: Fix ...`, `megatron：Update ...`: a scope where the type would be.
    lead = conventional.group("rest") if conventional else rest
    pr_type = first_word_type(lead) or _type_named_anywhere(rest, _first_words(lead)[0])
    if reland := _RELAND_QUOTED.match(rest):
        pr_type = parse_title(reland.group("title")).type
    if _UPKEEP.search(rest):
        pr_type = "chore"
    elif pr_type == "feat" and _ADDS_TESTS.match(lead):
        pr_type = "test"
    elif pr_type in ("feat", "chore", "other") and _ADDS_DOCSTRINGS.match(lead):
        pr_type = "doc"
    # verl's early `[doc] ...`, `[bugfix] ...` titles: a tag that names a type wins over the
    # first word, which is often a plain verb ("update", "add"). `[Bug fix]` is `[bugfix]`.
    tag_types = {t for t in map(tag_type, tags) if t is not None}
    if "revert" in tag_types:
        # vllm-ascend #12228 "[Revert][Refactor][Attention] Restore paged attention fallback
        # (reverts #11899)": the reverted PR's tags come after the one that says what it is.
        pr_type = "revert"
    elif len(tag_types) == 1:
        pr_type = tag_types.pop()
    elif scope_type is not None:
        pr_type = scope_type
    elif pr_type == "other" and any(_is_upkeep(tag) for tag in tags):
        pr_type = "chore"
    # `[BREAKING][refact]: move ...`: the type went in a bracket and left its colon behind.
    subject = rest.lstrip(":：-–— ") if tags or breaking else rest
    if tags and _GOES_ON_FROM_THE_TAG.match(subject) and "," not in inner:
        subject = f"{inner.strip()} {subject}"
    return TitleInfo(
        type=_type_of_what_it_changes(pr_type, subject or rest),
        breaking=breaking,
        prefix_tags=tags,
        subject=subject or rest,
    )


def documents_code_only(title: str) -> bool:
    """Whether a title says the PR only documents the code: docstrings are its whole object
    (`_ADDS_DOCSTRINGS`), whatever its type says."""
    return _ADDS_DOCSTRINGS.match(parse_title(title).subject) is not None


# What a further change a docs title lists works on when it is still documentation (`docs:
# add a guide and fix broken links`, `[doc] add booster docstring and fix autodoc`).
_DOCS_WORDS = re.compile(
    r"doc|readme|guide|tutorial|comment|typo|example|link|notes?\b|instruction|faq|citation",
    re.IGNORECASE,
)


def declares_documentation(title: str) -> bool:
    """Whether a title types the PR as documentation, with no tag of an area of the code or of
    another type, and lists no further change but to docs (`[doc] polish shardformer doc`,
    `docs: ...`, `Documentation fixes`): the docs are what its author says it changes, in
    whichever files. An area's tag says that area's code changes too (vllm-ascend #9690
    "[Worker][Doc] Add A5 server disaggregated PD endpoint configuration" added a worker
    function), as a further change does (NVIDIA-NeMo/RL #526 "docs: Fixing some Megatron types
    and small cleanup", 341 lines of code), and a type other than docs says what changed
    (verl #4105 "[doc] fix: improve docs clarity, fix IS gradient flow, ...")."""
    info = parse_title(title)
    if info.type != "doc" or any(tag_type(tag) != "doc" for tag in info.prefix_tags):
        return False
    _, *further = title_items(info.subject)
    return not any(
        first_word_type(item) is not None and not _DOCS_WORDS.search(item) for item in further
    )


# `feat: remove the chat scheduler`, `[Feature] Remove ...`: taking something out is no new
# feature (verl #7374 read "new feature: remove mindspeedllm backend engine support").
_REMOVES = re.compile(
    r"^(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|drop(?:s|ped|ping)?)"
    r"(?![\w-])",
    re.IGNORECASE,
)


# What a linter, type checker or formatter reports, fixed or silenced, and nothing else:
# upkeep, whatever the verb (torchtitan #3133 "Fix linter", 63 lines mostly `# pyrefly:
# ignore`, was a 7.6 key fix; verl's "[ci] fix: fix precommit"; vllm-ascend's "[CI] Fix run ruff
# check error caused by ..."). A type check or formatting only unqualified: "Fix the output
# format" is a fix, and an annotation can be read at run time (verl #5223 "fix: type annotation
# for Lora target_modules" fixed a config that failed to load).
_CHECKER = (
    r"(?:lint(?:er|ers|ing|s)?|pyrefly|mypy|pyright|flake8|ruff|pylint|pre-?commit|codespell)"
)
_BARE_CHECK = (
    r"(?:type[- ]?check(?:s|ing|er)?|(?:code\s+)?formatting|format(?:[- ]?checks?|\.sh)"
    r"|format(?=[\s.!]*$))"
)
_CHECKS_ONLY = re.compile(
    r"^(?:(?:super|very|tiny|minor|small|quick)\s+)*"
    r"(?:(?:fix(?:es|ed|ing)?|resolve[sd]?|address(?:es|ed)?|silence[sd]?|suppress(?:es|ed)?"
    r"|remove\s+unused|appl(?:y|ies|ied)|run|ran)\s+)?"
    r"(?:(?:the|some|all|remaining|main|minor|small|ci|existing|new|more|a|few)\s+)*"
    rf"(?:(?:[\w.`-]+\s+)?{_CHECKER}|{_BARE_CHECK})"
    rf"(?:\s*(?:[/,&+]|\band\b)\s*(?:{_CHECKER}|{_BARE_CHECK}))*"
    # Possessive: the words could split between the optional word and the noun in many ways,
    # which backtracked exponentially on a long run of them (a title is a contributor's text).
    r"(?:\s+(?:[\w-]+\s+)?(?:errors?|issues?|warnings?|failures?|ignores?|complaints?|checks?"
    r"|ci|hooks?|rules?|broken))*+"
    # Where the checks complained, up to an "and" that adds another change ("Fix lint errors
    # in worker.py and a deadlock in the scheduler" fixes a deadlock too); "and b.py" is a
    # place more.
    r"(?:\s+(?:in|for|of|on|from|across|after|by|caused\s+by|to\s+make)\s+"
    r"(?:(?!\band\s+(?![\w`-]*[./`]))[^,;&+])*?)?"
    r"[\s.!]*$",
    re.IGNORECASE,
)


# A title whose object is documentation (torchtitan #2162 "Add docs to explain COMM_MODE",
# TransformerEngine #1816 "Add docs for missing FP8 recipes.", `[Doc][Feature] Add ...
# tutorial`): a docs change, though "add" reads as a feature and a few code lines (a script
# the docs run, docstrings) come with it. Not when the docs word names something else (`[CI]
# Add doc linkcheck`, AReaL #54 "add doc ci", `Add docs/yaml sync validation`) or the docs are
# one of several changes (`Add Ascend npu doc and dependency`, `... example docs and 8xH100
# training script`).
_WRITES_DOCS = re.compile(
    r"^\W*(?:(?:add|creat|writ|improv|introduc|provid|complet)\w*\s+)?"
    r"(?:(?!(?:and|with|support|for|to|of|in|on)\b)[\w.`'-]+\s+){0,3}?"
    r"(?:docs?|documentations?|documents?|readme(?:\.md)?|tutorials?|guides?)"
    r"(?:\s+(?:for|to|of|on|about|in|explaining|describing|covering)\s+"
    r"(?:(?!\b(?:and|with|plus)\b)[^&+,;])*?)?"
    r"[\s.!]*(?:\(#\d+\))?[\s.!]*$",
    re.IGNORECASE,
)


def only_checks(title: str) -> bool:
    """Whether a title says the PR only satisfies a linter, type checker or formatter
    (`Fix linter`, ColossalAI's bot `[format] applied code formatting on changed files`)."""
    return _CHECKS_ONLY.match(parse_title(title).subject.strip()) is not None


# A rewrite of type hints to a newer Python's syntax and nothing else (`Optional[X]` to `X | None`,
# `List` to `list`): llm-compressor #2291 "feat: modernize pipelines module to Python 3.10+
# syntax" (+73/-76 in core files: `Set` to `set`, an if/elif to a `match`) ranked first of its
# week on its size and core lines. Only where type hints or the new syntax are all the title
# names: "modernized typehints, allow for n_grid/duo_scaling parameters" (#2003) and
# "Modernize datasets: type hints and data splits handling" (#1959) change more, and
# "Modernize structural pattern matching" (#1951) rewrites control flow.
_HINT = r"(?:type[- ]?hint(?:s|ing)?|typing|type\s+annotations?)"
_MODERNISES_HINTS = re.compile(
    r"^moderni[sz](?:e[sd]?|ing|ation\s+of)\s+"
    # What it modernises, a module or file named in up to four words: "pipelines module to".
    r"(?:[\w./`-]+\s+){0,4}?"
    rf"(?:(?:with|to|using)\s+)?(?:python\s*3\.\d+\+?\s+)?(?:syntax|{_HINT})"
    rf"(?:\s+and\s+(?:generic\s+types|{_HINT}))?"
    # Where, or which hints: "in utils/ module", "- dataclass arguments and recipe metadata".
    r"(?:\s+(?:in|for|of|across|-|:)\s+"
    r"(?:(?!\band\s+(?:add|fix|remov|allow|support|updat|chang|enabl|implement|drop|replac))"
    r"[^,;&+])*?)?"
    r"(?:\s*\(part\s+of\s+#\d+\))?[\s.!]*$",
    re.IGNORECASE,
)


def only_modernises_syntax(title: str) -> bool:
    """Whether a title says the PR only rewrites type hints or syntax to a newer Python's
    (`refactor: modernize core/ module with Python 3.10+ type hints`, llm-compressor #2834)."""
    return _MODERNISES_HINTS.match(parse_title(title).subject.strip()) is not None


def _type_of_what_it_changes(pr_type: PrType, subject: str) -> PrType:
    if pr_type == "feat" and _REMOVES.match(subject.strip()):
        return "refactor"
    if pr_type == "feat" and _WRITES_DOCS.match(subject.strip()):
        return "doc"
    if pr_type in ("fix", "refactor", "other") and _CHECKS_ONLY.match(subject.strip()):
        return "chore"
    return pr_type


# The boxes of a template's "Type of change" list that an author ticks (TransformerEngine's and
# GitHub's community template: `- [x] Bug fix (non-breaking change which fixes an issue)`;
# ms-swift's `- [x] New Feature`).
_TICKED_BOX = re.compile(r"^\s*[-*+]\s+\[[xX]\]\s*(?P<text>[^\n]+)", re.MULTILINE)
_TICKED_TYPES: tuple[tuple[re.Pattern[str], PrType], ...] = (
    (re.compile(r"^bug\s*fix\b", re.IGNORECASE), "fix"),
    (re.compile(r"^(?:new feature|more models or datasets support)\b", re.IGNORECASE), "feat"),
    (re.compile(r"^(?:documentation change|document updates)\b", re.IGNORECASE), "doc"),
    (re.compile(r"^code refactor(?:ing)?\b", re.IGNORECASE), "refactor"),
    (re.compile(r"^(?:infra\s*/\s*build change|build change)\b", re.IGNORECASE), "chore"),
    (re.compile(r"^performance (?:improvement|change)\b", re.IGNORECASE), "perf"),
)
_TICKED_BREAKING = re.compile(r"^breaking change\b", re.IGNORECASE)


class ChangeKind(NamedTuple):
    """A PR's type and whether it breaks something, from its title and description."""

    type: PrType
    breaking: bool


def change_kind(title: str, body: str) -> ChangeKind:
    """The title's type and breaking marker; where the title names no type, the one type the
    author ticked in the description's "Type of change" list, and a ticked "Breaking change"
    box marks the PR breaking as `[BREAKING]` would."""
    info = parse_title(title)
    ticked_types: set[PrType] = set()
    ticked_breaking = False
    for box in _TICKED_BOX.finditer(normalised(body)):
        text = box.group("text").strip()
        ticked_breaking = ticked_breaking or bool(_TICKED_BREAKING.match(text))
        ticked_types.update(t for pattern, t in _TICKED_TYPES if pattern.match(text))
    pr_type = info.type
    if pr_type == "other" and len(ticked_types) == 1:
        pr_type = next(iter(ticked_types))
    return ChangeKind(type=pr_type, breaking=info.breaking or ticked_breaking)


# `Build` says a build-system change when what it builds is the build's own (`Build Image for
# v0.16.0rc1`, `Build scripts for pip wheels`, `Build Fix: ...`, `build job cleanup`); building
# a thing of the code says none: llm-compressor #2718 "build SmoothQuant mapping dynamically
# ..." (8.0, a key change) read as a chore, as did torchtitan #3814 "Build flex masks ...",
# TE #3268 "Build the attention padding mask ..." and ColossalAI #1405, #4161.
_BUILDS_ITS_OWN = re.compile(
    r"^\W*build\s+(?:\S+\s+){0,2}?(?:images?|docker\w*|wheels?|packages?|containers?|system"
    r"|scripts?|docs?|fix(?:es)?|jobs?|ci|support|pytorch|torch|ops|extensions?|binar(?:y|ies)"
    r"|artifacts?|artefacts?|from\s+source|errors?|failures?|warnings?)\b",
    re.IGNORECASE,
)


def first_word_type(text: str) -> PrType | None:
    """The type a text's first word says outright (`Fix ...`, `added ...`, `Supported ...`),
    if any; a word that only suggests one (`Adapt ...`, `Handle ...`) says none."""
    if _first_words(text)[0] == "build" and not _BUILDS_ITS_OWN.match(text):
        return None
    return next(
        (
            t
            for w in _first_words(text)
            for known in (TYPE_ALIASES, _FIRST_WORD_TYPES)
            if (t := known.get(w))
        ),
        None,
    )


def _first_words(text: str) -> tuple[str, str]:
    """A text's first word, lowercased, as its type is read: a hyphenated word says its type
    whole (`Auto-update ...`, `Bug-fix ...`) or by its first part (`Fix-up ...`)."""
    first = _FIRST_WORD.match(text)
    word = first.group("word").lower() if first else ""
    return word.replace("-", ""), word.partition("-")[0]


# The places whose work is upkeep: `[CI] Change A2 runner` and `[Build] Prefer libs from local
# build dir` say no type, but `ci: change A2 runner` would be a chore. Of 10,666 distinct titles
# over five histories 161 were `other` with a `[CI]` tag; of the typed ones with it, most are
# fixes, features or chores because their first word says so, which these titles' words
# (`Use`, `Change`, `Modify`, `Set`, `Skip`) do not. `[Misc]` names no such place. PyTorch's
# `[BE]` ("better engineering") names upkeep work wherever it is: torchtitan's `[BE] Apply
# pep585 and turn on flake8 rule ...` (#2411, a key PR of its week), `[BE week] Disable CPU
# wheel builds in nightly CI`.
_UPKEEP_TAGS = frozenset({"ci", "build", "cicd", "be", "beweek"})


def _tag_key(tag: str) -> str:
    """A bracket tag as its type or place is looked up: `[Bug fix]`, `[CI/CD]`, `[Feat.]`."""
    return re.sub(r"[\s_/-]+", "", tag.lower()).rstrip(".")


def _is_upkeep(tag: str) -> bool:
    return _tag_key(tag) in _UPKEEP_TAGS


# The kinds of change a tag may name after an area, as the module tags read it (`tags`'
# `_area_and_kind`): `[MoE refactor]`, huggingface/trl's `[DistillationTrainer refactor]`,
# AReaL's `[Emergency fix]` (#359 was typed other, its module tags read a fix).
_KIND_AFTER_AREA = frozenset(
    {"feat", "feature", "features", "enhancement", "enhancements", "improvement", "fix"}
    | {"fixes", "bugfix", "bugfixes", "bug", "hotfix", "hotfixes", "fixbug", "refactor"}
    | {"refact", "refactoring", "cleanup", "chore", "style", "typo"}
)
_LAST_TAG_WORD = re.compile(r"[\s_-]+(?=[^\s_-]+$)")
_JOINED_TAGS = re.compile(r"[&/+,]")


def whole_tag_type(tag: str) -> PrType | None:
    """The type a bracket tag names as a whole (`[bugfix]`, `[Performance]`), if any; not after
    an area (`[Export Refactor]`)."""
    key = _tag_key(tag)
    return None if key in _VERB_ALIASES else TYPE_ALIASES.get(key)


def tag_type(tag: str) -> PrType | None:
    """The type a bracket tag names (`[bugfix]`, `[Bug fix]`, `[Performance]`, vllm-ascend's
    `[Feat.]`, or after an area, `[MoE refactor]`), if any; `[ci]` and `[misc]` name a place,
    not a type."""
    named = whole_tag_type(tag)
    if named is not None or _tag_key(tag) in _VERB_ALIASES:
        return named
    if _JOINED_TAGS.search(tag):  # `[Doc & Fix]`: several tags, whose types may disagree
        return None
    area, kind = ([*_LAST_TAG_WORD.split(tag.strip().lower(), maxsplit=1), ""])[:2]
    return TYPE_ALIASES[_tag_key(kind)] if area and _tag_key(kind) in _KIND_AFTER_AREA else None


# Closing references: "Fixes #12", "Fixes: #12", "closes owner/name#12", "resolve https://github.com/o/n/issues/12".
_CLOSING_REF = re.compile(
    r"\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b\s*:?\s*"
    r"(?:(?:[\w.-]+/[\w.-]+)?#(?P<number>\d+)"
    r"|https?://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/(?P<url_number>\d+))",
    re.IGNORECASE,
)


def closing_references(title: str, body: str) -> list[int]:
    """Issue or PR numbers a PR says it fixes, closes or resolves, in order of appearance.

    A fix title that ends in `(#N)` (verl's `fix: ... (#6293)`) also names what it fixes.
    """
    numbers: list[int] = []
    for match in _CLOSING_REF.finditer(clean_description(body)):
        number = int(match.group("number") or match.group("url_number"))
        if number not in numbers:
            numbers.append(number)
    info = parse_title(title)
    trailing = TRAILING_PR_NUMBER.search(title)
    if info.type == "fix" and trailing:
        number = int(trailing.group("number"))
        if number not in numbers:
            numbers.append(number)
    return numbers
