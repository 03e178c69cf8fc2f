"""What a PR's title and description say: its type, breaking marker, cleaned text, one-line summary.

Titles follow `[BREAKING][modules] type: description` in repositories like verl; older or other
repositories write `fix(scope): ...`, `Fix ...` or nothing at all, so the type falls back to the
title's first word (the one after a scope, in `rollout: Fix ...`), then to a fix named anywhere
in the title, then to what the title names (`... Support for ...`, `Skip ... tests`).
Descriptions are mostly PR-template boilerplate (headings, instructions in blockquotes,
checklists); `clean_description` keeps what the author wrote.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.records import PrType
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
    "release": "chore",
    "upgrade": "chore",
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


def _type_named_anywhere(title: str, first_word: str) -> PrType:
    if _FIX_WORD.search(title):
        # Fixes listed after the support a title leads with go with that feature (lmdeploy
        # #4835, "Intern-S2-Mobius meta-MoE support, MoE gate v2, CP attention fixes").
        items = [item for item in _TITLE_ITEMS.split(title) if item]
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
    if _CODE_CLEANUP.search(title):
        return "refactor"
    return "feat" if _SUPPORT.search(title) else "other"


_BRACKET = re.compile(r"^\s*\[(?P<inner>[^\]]*)\]\s*")
_BREAKING = re.compile(r"^\s*breaking\s*$", re.IGNORECASE)
_BREAKING_LEAD = re.compile(r"^BREAKING(?:[\s_-]*CHANGES?)?\s*[:：!]?\s*", re.IGNORECASE)
_PART = re.compile(r"^\s*\d+\s*/\s*(?:\d+|n)\s*$", re.IGNORECASE)
# A scope in parentheses after the tags, as in a conventional commit (`[bugfix](pcp) expand
# ...`, `[Refactor](kv_pool): simplify ...`: 20 of vllm-ascend's titles); without tags, only
# before a colon (verl's `(fix): fix values ...`), since `(WIP) add ...` is no scope.
_SCOPE = re.compile(r"^\((?P<scope>[^()]{1,40})\)\s*(?P<colon>[:：])?\s*")
# `type:` or `type(scope):` or `type!:` right after the bracket prefix; or a scope in the
# type's place, which may hold digits (`MXFP8: Add ...`).
_CONVENTIONAL = re.compile(
    r"^(?P<type>[A-Za-z][A-Za-z0-9]*)\s*(?:\((?P<scope>[^)]*)\))?\s*(?P<bang>!)?\s*[:：]\s*"
    r"(?P<rest>.*)$",
    re.DOTALL,
)
# The first word, past what only says how small a change is (slime's `Super tiny refactor ...`,
# 102 of its titles) or that it is meant not to last (`Temporarily remove comm_gemm tests`).
_FIRST_WORD = re.compile(
    r"^[\W_]*(?:(?:super|very|tiny|minor|small|quick|simple|trivial|temporarily)[\s,:-]+){0,2}"
    r"(?P<word>[A-Za-z]+(?:-[A-Za-z]+)*)",
    re.IGNORECASE,
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
    rest = title.strip()
    breaking = False
    tags: list[str] = []
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
    conventional = _CONVENTIONAL.match(rest)
    if conventional and conventional.group("type").lower() in TYPE_ALIASES:
        pr_type = TYPE_ALIASES[conventional.group("type").lower()]
        breaking = breaking or conventional.group("bang") is not None
        subject = conventional.group("rest").strip() or rest
        return TitleInfo(type=pr_type, breaking=breaking, prefix_tags=tags, subject=subject)
    # `rollout: Fix ...`, `megatron：Update ...`: a scope where the type would be.
    lead = conventional.group("rest") if conventional else rest
    pr_type = first_word_type(lead) or _type_named_anywhere(rest, _first_words(lead)[0])
    if reland := _RELAND_QUOTED.match(rest):
        pr_type = parse_title(reland.group("title")).type
    if _UPKEEP.search(rest):
        pr_type = "chore"
    elif pr_type == "feat" and _ADDS_TESTS.match(lead):
        pr_type = "test"
    # verl's early `[doc] ...`, `[bugfix] ...` titles: a tag that names a type wins over the
    # first word, which is often a plain verb ("update", "add"). `[Bug fix]` is `[bugfix]`.
    tag_types = {t for t in map(tag_type, tags) if t is not None}
    if len(tag_types) == 1:
        pr_type = tag_types.pop()
    elif scope_type is not None:
        pr_type = scope_type
    elif pr_type == "other" and any(_is_upkeep_place(tag) for tag in tags):
        pr_type = "chore"
    # `[BREAKING][refact]: move ...`: the type went in a bracket and left its colon behind.
    subject = rest.lstrip(":：-–— ") if tags or breaking else rest
    return TitleInfo(type=pr_type, breaking=breaking, prefix_tags=tags, subject=subject or rest)


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
    for box in _TICKED_BOX.finditer(_normalised(body)):
        text = box.group("text").strip()
        ticked_breaking = ticked_breaking or bool(_TICKED_BREAKING.match(text))
        ticked_types.update(t for pattern, t in _TICKED_TYPES if pattern.match(text))
    pr_type = info.type
    if pr_type == "other" and len(ticked_types) == 1:
        pr_type = next(iter(ticked_types))
    return ChangeKind(type=pr_type, breaking=info.breaking or ticked_breaking)


def first_word_type(text: str) -> PrType | None:
    """The type a text's first word says outright (`Fix ...`, `added ...`, `Supported ...`),
    if any; a word that only suggests one (`Adapt ...`, `Handle ...`) says none."""
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
# (`Use`, `Change`, `Modify`, `Set`, `Skip`) do not. `[Misc]` names no such place.
_UPKEEP_PLACES = frozenset({"ci", "build", "cicd"})


def _tag_key(tag: str) -> str:
    """A bracket tag as its type or place is looked up: `[Bug fix]`, `[CI/CD]`, `[Feat.]`."""
    return re.sub(r"[\s_/-]+", "", tag.lower()).rstrip(".")


def _is_upkeep_place(tag: str) -> bool:
    return _tag_key(tag) in _UPKEEP_PLACES


def tag_type(tag: str) -> PrType | None:
    """The type a bracket tag names (`[bugfix]`, `[Bug fix]`, `[Performance]`, vllm-ascend's
    `[Feat.]`), if any; `[ci]` and `[misc]` name a place, not a type."""
    key = _tag_key(tag)
    return None if key in _VERB_ALIASES else TYPE_ALIASES.get(key)


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


# ---------------------------------------------------------------------------------------------
# Description cleaning

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[[ xX]\]")
_FENCE = re.compile(r"^\s*(```|~~~|\\`\\`\\`)")
_DROPPED_SECTIONS = re.compile(
    r"^(checklist|before submitting|who can review|checklist before (starting|submitting))",
    re.IGNORECASE,
)
_TEMPLATE_QUOTE = re.compile(
    r"^(add \*\*concise\*\* overview|add one-line overview|for changes that can not be tested"
    r"|demonstrate (how|the high-level)|list the specific changes|provide usage example"
    r"|\[!important\]|please check all the following)",
    re.IGNORECASE,
)
# A template's headings pasted as plain lines (vllm-ascend #2037 `What this PR does / why we
# need it?`, verl #6715 `What does this PR do?` under a `---`): read as the headings they are.
_PLAIN_TEMPLATE_HEADING = re.compile(
    r"^(?:what (?:does this pr do|this pr does)(?:\s*/\s*why we need it)?"
    r"|does this pr introduce _?any_? user[- ]facing changes?"
    r"|how was this (?:patch|pr|change) tested"
    r"|checklist before (?:starting|submitting)|api and usage example|design & code changes|test)"
    r"\s*[?？:]?$",
    re.IGNORECASE,
)
_THEMATIC_BREAK = re.compile(r"^(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$")
_TEMPLATE_CODE = re.compile(r"#\s*add code snippet or script demonstrating", re.IGNORECASE)
_PLACEHOLDER_LINES = re.compile(
    r"^\s*(n/?a\.?|none\.?|\.\.\.|-|tbd|[-*+]\s+\*\*[^*]+(?::\*\*|\*\*\s*:))\s*$", re.IGNORECASE
)
# Instructions of widely copied PR templates that authors leave in: GitHub's community
# template (`Please include a summary of the change and which issue is fixed. ...`, `Fixes #
# (issue)`), TransformerEngine's (`Please list the changes introduced in this PR:`, `- Change
# A`) and ms-swift's (`Write the detail information belongs to this PR.`).
_TEMPLATE_INSTRUCTIONS = re.compile(
    r"^\s*(?:please (?:include a (?:brief )?summary of the change|list the changes introduced"
    r"|delete options that are not relevant|describe the tests that you ran)"
    r"|fixes # \(issue\)\s*$|[-*+] change [ab]\s*$|write the detail information belongs to"
    r"|paste your experiment result here)",
    re.IGNORECASE,
)
# Placeholders of verl's 2025 template, left in by most authors; the first spans lines.
_TEMPLATE_PHRASES = re.compile(
    r"\[note which backend this pr will affect:[^\]]*\]|fixes issue # or discussion # if any\.?"
    # A template's quoted instruction kept in brackets (verl #6630 `[> Add **concise** overview
    # ... review.]`), and the end of a comment whose start the author deleted (vllm-ascend #9165).
    r"|\[>[^\]]*\]|^[ \t]*-->"
    # ghstack's list of the stack a PR is in (`Stacked PRs:` / `Stack from [ghstack] ...:`,
    # then `* __->__#1768` items and its `--- --- ---` rule): pytorch/torchtitan #1768's
    # summary read "Stacked PRs."
    r"|^(?:Stacked PRs|Stack from \[ghstack\](?:\([^)\s]*\))?\s*(?:\(oldest\s+at\s+bottom\))?)"
    r"[ \t]*:?[ \t]*\n(?:[ \t]*[*-][^\n]*\n?)*"
    r"(?:\s*^[ \t]*--- --- ---[ \t]*$)?",
    re.IGNORECASE | re.MULTILINE,
)


def _split_blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Lines grouped as ('code'|'quote'|'text', lines), keeping fenced code together."""
    blocks: list[tuple[str, list[str]]] = []
    in_code = False
    for line in lines:
        # The cheap `in` tests first: this runs on every line of every description.
        fence = ("`" in line or "~" in line) and _FENCE.match(line) is not None
        if in_code:
            blocks[-1][1].append(line)
            in_code = not fence
            continue
        if fence:
            blocks.append(("code", [line]))
            in_code = True
            continue
        kind = "quote" if line.lstrip().startswith(">") else "text"
        after_quote = bool(blocks) and blocks[-1][0] == "quote"
        lazy = (  # a blockquote paragraph goes on until a blank line ("lazy continuation")
            after_quote
            and kind == "text"
            and line.strip()
            and blocks[-1][1][-1].strip().lstrip(">").strip()
            and not _HEADING.match(line.strip())
        )
        if after_quote and (kind == "quote" or lazy):
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    if in_code:
        # A fence that never closes: read its lines as text rather than lose the rest.
        opened = blocks.pop()[1]
        blocks.extend(_split_blocks(opened[1:]))
    return blocks


def _normalised(body: str) -> str:
    """The description with `\n` line ends, without HTML comments or invisible characters."""
    text = _HTML_COMMENT.sub("", body.replace("\r\n", "\n").replace("\r", "\n"))
    text = _ESCAPED_PARAGRAPH_BREAK.sub("\n\n", text)
    return _INVISIBLE.sub("", text)


def clean_description(body: str) -> str:
    """The description without template boilerplate: instructions, checklists, empty sections.

    Headings stay when something the author wrote follows them.
    """
    text = _normalised(body)
    text = _TEMPLATE_PHRASES.sub("", text)
    kept: list[str] = []
    drop_level = 0  # inside a dropped section until a heading of this level or higher
    in_checkbox = False  # the lines after a dropped checklist item are its wrapped rest
    for kind, lines in _split_blocks(text.split("\n")):
        line = lines[0]
        if kind == "text" and in_checkbox and _wraps_item(line):
            continue
        in_checkbox = False
        if kind == "code":
            if drop_level or _TEMPLATE_CODE.search("\n".join(lines)):
                continue
            kept.extend(lines)
            continue
        if kind == "quote":
            joined = " ".join(line.lstrip().lstrip(">").strip() for line in lines).strip()
            if drop_level or not joined or _TEMPLATE_QUOTE.match(joined):
                continue
            kept.extend(lines)
            continue
        if _THEMATIC_BREAK.match(line.strip()):
            kept.append("")
            continue
        if _PLAIN_TEMPLATE_HEADING.match(line.strip()):
            line = f"### {line.strip()}"
        heading = _HEADING.match(line.strip())
        if heading:
            level = len(heading.group("hashes"))
            if drop_level and level > drop_level:
                continue
            drop_level = level if _DROPPED_SECTIONS.match(heading.group("text")) else 0
            if not drop_level:
                kept.append(line.strip())
            continue
        if (
            drop_level
            or _CHECKBOX.match(line)
            or _PLACEHOLDER_LINES.match(line)
            or _TEMPLATE_INSTRUCTIONS.match(line)
        ):
            in_checkbox = bool(_CHECKBOX.match(line))
            continue
        kept.append(line.rstrip())
    return _drop_empty_headings(kept)


def _wraps_item(line: str) -> bool:
    """Whether a line goes on with the list item above it: Markdown's lazy continuation, as a
    hard-wrapped squash body has it (verl #1138: `- [x] ... replace ... to http` then
    `call /v1/chat/completions`)."""
    return bool(line.strip()) and not _LIST_MARK.match(line) and not _HEADING.match(line.strip())


def _drop_empty_headings(lines: list[str]) -> str:
    result: list[str] = []
    for line in lines:
        if _HEADING.match(line):
            while result and not result[-1].strip():
                result.pop()
            if result and _HEADING.match(result[-1]):
                previous = len(_HEADING.match(result[-1]).group("hashes"))  # type: ignore[union-attr]
                if previous >= len(_HEADING.match(line).group("hashes")):  # type: ignore[union-attr]
                    result.pop()
            if result:
                result.append("")
        result.append(line)
    while result and (not result[-1].strip() or _HEADING.match(result[-1])):
        result.pop()
    text = "\n".join(result).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


# ---------------------------------------------------------------------------------------------
# One-line summary

_SUMMARY_SECTIONS = re.compile(
    r"(what does this pr do|what this pr does|overview|summary|motivation|description|problem"
    r"|background|概述|描述)",
    re.IGNORECASE,
)
# A section's name as a line of its own, no heading mark: llm-compressor's template writes
# `SUMMARY:` and `TEST PLAN:` so (#2934's summary read "SUMMARY: Fix the AutoRound ...").
_LABEL_LINE = re.compile(r"^(?P<text>[^\W\d_][\w /-]{0,30}?)\s*[:：]\s*$")
# A line in bold alone, `**Testing**` or `**Summary:**`: a heading when it names a known section.
_BOLD_HEADING = re.compile(r"^\*\*(?P<text>[^*]{1,40}?)\s*[:：]?\s*\*\*\s*[:：]?$")
_SKIP_SECTIONS = re.compile(
    r"^(test|testing|validation|test plan|api|usage|result"
    # What was measured, not what changed (torchtitan #1804's timings under "Benchmarking").
    r"|(?:benchmark(?:s|ing)?|end[- ]to[- ]end (?:verification|tests?)|accuracy|experiments?"
    r"|evaluation)\b"
    r"|how (?:was|were|is) this\b[^?]*\btested"
    # The order to read the files in (torchtitan #3642's summary read "Read trainer.py").
    r"|how to review|review(?:ing)? (?:guide|order|notes|tips)|notes? (?:for|to) reviewers?"
    r"|reviewer(?:'s|s'?)? (?:guide|notes)"
    # What the PR does not do (torchtitan #3559's summary was its first known limitation).
    r"|(?:known )?(?:limitations?|caveats?)|known issues|todos?|future work|next steps"
    r"|follow[- ]?ups?(?: work)?|out of scope|not (?:yet )?supported)",
    re.IGNORECASE,
)
# Words that say where a PR comes from: `Split from #6118`, `Follow-up work for #4639`,
# `inheriting from <url>` (torchtitan #4045), `Reland of <url>`.
_PROVENANCE_WORD = (
    r"(?:part of|comes? from|split (?:out )?from|continuation of|inherit(?:s|ed|ing)? from"
    r"|re-?land(?:s|ed)?(?: of)?|follow[- ]?up(?: work)?(?: to| of| for)?"
    r"|back-?port(?:s|ed)?(?: of| from)?|cherry[- ]pick(?:s|ed)?(?: of| from)?)"
)
# Words that point at another issue or PR: `Fixes #12`, `Related to https://...`, `Follow-up of`.
_REFERENCE_WORD = (
    r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related(?: to| issues?)?|refs?|references?|see|rfc"
    rf"|{_PROVENANCE_WORD}|details?)"
)
_REFERENCE_LINE = re.compile(
    rf"^\s*((?:{_REFERENCE_WORD}|co-authored-by|signed-off-by)\b[^.]{{0,25}}?[:\s]*"
    r"(#\d+|https?://\S+)[\s.,;]*)+$",
    re.IGNORECASE,
)
_REFERENCE = r"(?:#\d+|https?://\S+?)"
# A sentence that only says where the PR comes from (`Split from #6118.`, `Follow-up work for
# #4639, #5297.`), and why (`Reland of <url> because I did a rookie mistake of merging ghstack
# opened PRs.`, torchtitan #4162), not what it does (`Fix a bug introduced in #3285.` does).
_PROVENANCE = re.compile(
    rf"^\s*{_PROVENANCE_WORD}\b[^.]{{0,25}}?[:\s]*(?:{_REFERENCE}[\s.,;]*)+"
    r"(?:(?:because|since|as|due to)\b[^.]*[.!]?\s*)?$",
    re.IGNORECASE,
)
# What can open a paragraph before the author's first sentence: the template's question
# written as a plain line rather than a heading, bare links (`https://.../issues/287, ...`) and
# a reference sentence (`Fixes #2656 and #2899. When ...`).
_PARAGRAPH_LEAD = re.compile(
    r"^(\s*what does this pr do\s*\?|\s*https?://\S+[\s,;.]*"
    # "As title, move ...": the title says it; what follows is the summary.
    r"|\s*(?:as|see|same as)\s+(?:the\s+)?(?:pr\s+)?title\b(?:\s+and\s+comments?)?\s*[.,，:;。]?"
    rf"|\s*{_REFERENCE_WORD}\s*:?\s*{_REFERENCE}(?:\s*(?:,|and|&)\s*{_REFERENCE})*"
    r"\s*[.;:](?:\s+|$))+\s*",
    re.IGNORECASE,
)
URL = re.compile(r"https?://\S+")
_ISSUE_NUMBER = re.compile(r"#\d+")
# A paragraph that only points at other issues or PRs, as another repository's
# (`Closes nod-ai/SHARK-Turbine#290`, `Closes nod-ai/SHARK-Turbine/issues/689`, 10 of
# torch-mlir's summaries; GitHub's own `Reverts owner/name#6350`).
_ONLY_REFERENCES = re.compile(
    r"^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|reverts?|refs?|see)\s*:?\s*)?"
    r"(?:(?:[\w.-]+/[\w.-]+)?(?:#|/issues/|/pull/)\d+[\s,.;]*(?:and\s+)?)+$",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`]*`")
# HTML's code span, as bots write file lists (vllm-ascend's translation PRs: `<code>path</code>`).
_HTML_CODE = re.compile(r"<code>(?P<code>[^<`]*)</code>", re.IGNORECASE)
# A byte-order mark or zero-width space before the text hides the heading it opens (vllm-ascend
# #9801 "\ufeff### What this PR does / why we need it?").
_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060]")
# A paragraph break a tool wrote escaped, as the two characters `\n` twice between sentences
# (vllm-ascend #12605 "...and graph replay.\n\nThe decode mask..."). Code (`"\n\n".join`)
# and quoted model output (vllm-ascend #6940's JSON, "course.\n\n## Tuesday") keep theirs.
_ESCAPED_PARAGRAPH_BREAK = re.compile(r"(?<=\w[.!?])(?:\\n){2,}(?=\n?[A-Z][a-z])")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.IGNORECASE)
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<url>[^)]+)\)")
# A line of references and nothing else (`#11548` over `#12226` over the summary, vllm-ascend
# #13012).
_ONE_REFERENCE = r"(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+)"
_BARE_REFERENCES = re.compile(rf"^\s*{_ONE_REFERENCE}(?:[\s,;]+{_ONE_REFERENCE})*[\s,;]*$")
# A paragraph that is only a link of a few words (`[Workflow run](https://...)`) points
# elsewhere; a link whose text says the change (pre-commit.ci's `[mirrors-clang-format: v21.1.8
# → v22.1.0](...)`) is kept.
_BARE_LINK = re.compile(r"^\s*\[\s*(?:\S+\s+){0,2}\S+\s*\]\([^)]+\)\s*[.,;:]?\s*$")
# `**bold**` and `***bold italics***`, but not `f(**kwargs)` or `g(**a, **b)`: a closing `**`
# follows no space or opening bracket. Chinese bolds within a sentence (`这是**重要**的`).
_EMPHASIS = re.compile(
    r"(?<![A-Za-z0-9_*])(?P<stars>\*\*\*?)(?=[^\s*])(?P<text>(?:(?!\*\*).)+?)(?<=[^\s*(\[])(?P=stars)"
    r"(?![A-Za-z0-9_*])"
)
# `__bold text__`, but not a dunder name (`__init__.py`, ColossalAI #3327's summary read
# `random/init.py`): a word between underscores is code far more often than bold.
_UNDERSCORE_EMPHASIS = re.compile(
    r"(?<![\w/.])__(?P<text>[^_\s][^_\n]*?\s[^_\n]*?[^_\s])__(?![\w.])"
)
# `*every*`, but not `bs*seq_len*vocab`, `a * b * c` or a `*` inside a code span.
_SINGLE_EMPHASIS = re.compile(r"(?<![\w*`])\*(?=[^\s*])(?P<text>[^*`\n]+?)(?<=[^\s*])\*(?![\w*])")
# `--` and `•` mark items too (vllm-ascend #8959's "-- When kv cache transmit failed, ...").
_LIST_MARK = re.compile(r"^\s*(?:--?(?!\s*\|)|[*+•]|(?P<number>\d+)[.)])\s+")
# A sentence ends at `.`, `!` or `?` before a capital, or at Chinese end punctuation; and before
# the next of a numbered list run into one paragraph (`... training. 2. Add: ...`), whose
# numbers (`2.` after a sentence's end, not `on GPU 0.`) end nothing.
_SENTENCE_END = re.compile(
    r"(?<=[.!?。！？])(?<![.!?;:]\s\d\.)(?<!^\d\.)\s+(?=[A-Z\u4e00-\u9fff`\"'(])|(?<=[。！？])"
    r"|(?<=[.!?;；])\s+(?=\d{1,2}[.)]\s)"
)


_SECOND_ITEM = re.compile(r"\s\(?2[.、)）](?!\d)\s*\S")
# A line all in bold titles what follows it: its list item's text (`1. **Device function
# codegen**` over the item's sentences, tilelang #595) or, outside a list, the lines below it,
# as a heading does (`**What this PR does / why we need it?**` over the answer).
_BOLD_LINE = re.compile(r"\*\*(?P<text>[^*\n]+)\*\*\s*[:：]?")
_TITLE_END = (".", ":", ";", "!", "?", "。", "：", "；", "！", "？")


# A greeting that opens a description (`Hi Committers,`, `Hi @mshr-h @tlopex,`, `Hey team!`,
# `Dear reviewers,`): 24 of apache/tvm's summaries read 'Hi Committers.' and nothing else.
_SALUTATION = re.compile(
    r"^(?:hi|hello|hey|dear|greetings)\b"
    r"(?:\s+(?:all|there|team|folks|everyone|everybody|guys|devs|developers|friends"
    r"|comm?itt?ers?|reviewers?|maintainers?|community|@[\w-]+|(?-i:[A-Z][\w-]*))){0,4}"
    r"\s*(?:[,!:;，！：；]+|\.(?=\s|$)|$)\s*",
    re.IGNORECASE,
)


# A request or thanks that closes a paragraph (`Any suggestions would be appreciated if you are
# available.`, closing 16 of apache/tvm's descriptions; `Please review.`, `Thanks!`).
_PLEASANTRY = re.compile(
    r"^(?:any (?:suggestions?|comments?|feedback|advice|help|reviews?)\b"
    r"|(?:please|pls|kindly)\s+(?:review|take a look|have a look|help|let me know)\b"
    r"|let me know\b|looking forward\b|ptal\b"
    # `Comments are welcome.` (torchtitan #966's whole description), `Feedback appreciated!`
    r"|(?:all\s+|any\s+)?(?:comments?|feedback|suggestions?|reviews?|thoughts|inputs?)\s+"
    r"(?:(?:is|are)\s+)?(?:very\s+|much\s+|most\s+|always\s+)?(?:welcome|appreciated)\b"
    r"|(?:many\s+)?(?:thanks?|thank you)(?:\s+(?:in advance|a lot|so much|for (?:your|the)"
    r" (?:reviews?|time|help)))*\s*[!.]*$)",
    re.IGNORECASE,
)


class _Paragraph(NamedTuple):
    section: str  # the heading it is under
    text: str
    list_item: bool
    # The first paragraph after an image a lead-in announced (`... creates:`): a caption of it.
    after_image: bool = False


def _known_section(name: str) -> bool:
    return bool(_SUMMARY_SECTIONS.search(name) or _SKIP_SECTIONS.match(name))


def _names_a_section(name: str, labelled: bool, opening: bool) -> bool:
    """Whether a line such as `SUMMARY:` heads a section: the line a description opens with
    (`SUMMARY:`, `ORDER OF REVIEWS:` over llm-compressor's stacked PRs), and after it the
    summary's and the tests' names. Elsewhere `Summary:` may head test output (torch-mlir
    #2887's "Passed: 1144") and `For the fusedmoe:` a paragraph under the template's heading
    (vllm-ascend #8060)."""
    known = _known_section(name)
    if not labelled:
        # A sentence can end in a colon too (`Upgrade the following versions:`); a template's
        # own name is known or written in capitals.
        return opening and (known or name.isupper())
    return known


def _paragraphs(cleaned: str) -> list[_Paragraph]:
    """The paragraphs and list items in order, without code blocks, tables or quotes; except
    that a quote under the "What does this PR do?" heading is the author's text: verl's
    template quotes its instructions there, and authors write over them (verl #5556)."""
    result: list[_Paragraph] = []
    section = ""
    headed = False  # the section has a heading, not a line such as `SUMMARY:` (see `_LABEL_LINE`)
    labelled = False  # the description opens with such a line
    current: list[str] = []
    in_item = False
    numbered = False  # a numbered list is under way (its items may hold other lists)
    in_row = False  # a table row hard-wrapped over several lines (verl #5556)
    after_image = False

    def flush() -> None:
        nonlocal after_image
        if current:
            text = " ".join(current)
            if not result:  # a greeting opens the description, not a sentence of it
                text = _SALUTATION.sub("", text, count=1)
            told = sentences(text)
            if told and _PLEASANTRY.match(told[-1]):
                while told and _PLEASANTRY.match(told[-1]):
                    told.pop()
                text = " ".join(told)
            if not text:
                current.clear()
                return
            result.append(_Paragraph(section, text, in_item, after_image))
            introduced = len(result) > 1 and result[-2].text.rstrip().endswith((":", "："))
            after_image = introduced and _IMAGE.search(text) is not None and not _plain(text)
            current.clear()

    for kind, lines in _split_blocks(cleaned.split("\n")):
        if kind == "quote" and headed and _SUMMARY_SECTIONS.search(section):
            flush()
            quoted = " ".join(line.lstrip().lstrip(">").strip() for line in lines).strip()
            if quoted:
                result.append(_Paragraph(section, quoted, False))
            continue
        if kind != "text":
            flush()
            continue
        line = lines[0].strip()
        if in_row or line.startswith("|"):
            # A lead-in to the table, which is left out, introduces nothing (`**Scope of
            # Changes**:` over a table of files, vllm-ascend #5977).
            if not in_row and current and _is_bare_lead_in(_plain(" ".join(current))):
                current.clear()
            flush()
            in_row = bool(line) and not line.endswith("|")
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            section, headed = heading.group("text"), True
            after_image = False
            continue
        bold = _BOLD_HEADING.match(line)
        if bold and not current and _known_section(bold.group("text")):
            flush()  # `**Testing**` over a screenshot's caption (torchtitan #2084)
            section, headed = bold.group("text"), True
            after_image = False
            continue
        label = _LABEL_LINE.match(line)
        opening = not result and not section  # no text and no heading yet
        if label and not current and _names_a_section(label.group("text"), labelled, opening):
            section, headed, labelled = label.group("text"), False, True
            after_image = False
            continue
        mark = _LIST_MARK.match(line)
        # As in CommonMark, a number other than 1 starts no list within a paragraph: it is a
        # wrapped line that begins with a number (`... dimensions >=` then `65536. When ...`,
        # vllm-ascend #9780), unless a numbered list is under way or the line before
        # announces one (`Revise the KV Pool user guide:` then `4. Revise ...`).
        if (
            mark
            and mark.group("number") not in (None, "1")
            and current
            and not numbered
            and not current[-1].endswith((":", "："))
        ):
            mark = None
        if not line or mark:
            flush()
            in_item = mark is not None
            numbered = (numbered and in_item) or bool(mark and mark.group("number"))
            if in_item:  # an item is a paragraph; its wrapped lines follow
                item = _LIST_MARK.sub("", line)
                # `1. support deepspeed on ui 2. add tools` is a list on one line, not one item:
                # its mark stays for `_numbered_items`.
                one_line_list = mark is not None and mark.group("number") == "1"
                current.append(line if one_line_list and _SECOND_ITEM.search(item) else item)
            continue
        if not current:
            in_item = False
        elif (
            len(current) == 1
            and not in_item
            and (_REFERENCE_LINE.match(current[0]) or _BARE_REFERENCES.match(current[0]))
            and not current[0].endswith((".", ",", ";", ":"))
        ):
            # A reference on a line of its own, ending without punctuation, is not the start of
            # the next sentence (`Come from : https://.../issues/13220` over the summary,
            # vllm-ascend #13888); `Fix a regression from <url>,` goes on in the next line.
            flush()
        elif len(current) == 1 and (bold := _BOLD_LINE.fullmatch(current[0])):
            if in_item:
                current[0] = _item_title(current[0], bold.group("text"))
            else:
                current.clear()
                # A bold line under a test heading heads part of the testing (`**performance**:`
                # under "How was this patch tested?", vllm-ascend #2474).
                if not _SKIP_SECTIONS.match(section):
                    section, headed = bold.group("text").strip(), True
                after_image = False
        current.append(line)
    flush()
    return result


_SPACE_AFTER_CJK_PUNCTUATION = re.compile(
    r"(?<=[，。；：！？、）】」』])\s+(?=[\u3040-\u30ff\u4e00-\u9fff])"
)


def _item_title(line: str, text: str) -> str:
    """A list item's bold title, ended so that its text reads on after it."""
    if line.rstrip().endswith(_TITLE_END) or text.rstrip().endswith(_TITLE_END):
        return line
    return line.rstrip() + ("：" if _CJK_CHARACTER.search(text[-1]) else ":")


# A sentence run into the next without a space (`adapted for modelrunnerv2.When ...`,
# vllm-ascend #13192): a word, the period, then a word that opens sentences, never a name
# (`torch.Tensor`, `subprocess.Popen`), so the list is closed.
_RUN_ON_SENTENCE = re.compile(
    r"(?<![\w./])(?P<word>[a-z][a-z0-9]+)\.(?=(?:The|This|These|That|Those|There|They|It|Its|If"
    r"|In|When|We|Our|So|But|And|Also|Other|Second|Third|Finally|Therefore|However|Then|Now"
    r"|Add|Fix|Remove|Update|Currently|Previously|After|Before|Since|Because|Please|Note"
    r"|Otherwise|Thus|Hence|Besides|Meanwhile|Additionally|Furthermore|Moreover)\b)"
)


def _spaced_sentences(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(
        part if part.startswith("`") else _RUN_ON_SENTENCE.sub(r"\g<word>. ", part)
        for part in parts
    )


def _plain(text: str) -> str:
    text = _IMAGE.sub("", text)
    text = _HTML_CODE.sub(lambda m: f"`{m.group('code')}`", text)
    text = _LINK.sub(lambda m: m.group("text"), text)
    # No emphasis inside a code span (`model(**inputs, **extra)`): each is set aside meanwhile.
    spans: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        spans.append(match.group())
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE_SPAN.sub(set_aside, text)
    for emphasis in (_EMPHASIS, _UNDERSCORE_EMPHASIS, _SINGLE_EMPHASIS):
        text = emphasis.sub(lambda m: m.group("text"), text)
    text = re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], text)
    # Lines join with a space, which Chinese does not write after its full-width punctuation
    # (English written with a full-width comma keeps it).
    return _SPACE_AFTER_CJK_PUNCTUATION.sub(
        "", re.sub(r"\s+", " ", _spaced_sentences(text))
    ).strip()


def _first_sentences(text: str, limit: int) -> str:
    summary = ""
    for sentence in sentences(text):
        candidate = f"{summary} {sentence}".strip() if summary else sentence
        # A later sentence that introduces a list would end the summary on nothing, unless the
        # summary is only a few words so far and the sentence can end as one (not `Changes on:`).
        lead_in = sentence.endswith((":", "：")) and (
            len(summary) >= limit // 4 or _dangles(sentence)
        )
        if summary and (len(candidate) > limit or lead_in):
            break
        summary = candidate
        if len(summary) >= limit * 0.5:
            break
    # A first sentence a little over the limit stays whole (451 of 11,738 summaries over five
    # repositories ended in `…` within a quarter of the limit).
    return shorten(summary, limit, SLACK)


# Where a line can be cut: at a space, or next to a Chinese or Japanese character (no spaces).
_CJK = "\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef"
_CUT_POINT = re.compile(rf" |(?<=[{_CJK}])|(?=[{_CJK}])")
# Nothing a cut line should end on before its `…`: a comma, a colon, an opening bracket, a dash.
_BEFORE_ELLIPSIS = " ,.;:!?([{-–—/，。；：、！？（【"


# Words a cut line should not end on: they lead into what the cut took ("..., the…",
# "leading to…"), 86 of 565 cut summaries over eight repositories.
_DANGLING_WORD = re.compile(
    r"\s+(?:the|a|an|and|or|but|nor|to|of|in|on|at|for|with|from|by|as|into|onto|via|than"
    r"|that|which|who|whose|when|where|while|if|so|is|are|was|were|be|been|its|their|our|your"
    r"|this|these|those|has|have|had|not|no|under|over|about|after|before|between|without"
    r"|within|across|through|against|during|because)$",
    re.IGNORECASE,
)


def _cut(line: str, room: int) -> str:
    """At most `room` characters of `line`, ending between words; mid-word only when the word
    there is so long that cutting before it would leave less than a quarter of the room. Not
    on a word that only leads into the next, while half the room is still used."""
    points = [p.start() for p in _CUT_POINT.finditer(line[: room + 1]) if 0 < p.start() <= room]
    end = points[-1] if points and points[-1] >= room // 4 else room
    cut = line[:end].rstrip(_BEFORE_ELLIPSIS)
    while (dangling := _DANGLING_WORD.search(cut)) and dangling.start() >= room // 2:
        cut = cut[: dangling.start()].rstrip(_BEFORE_ELLIPSIS)
    return cut


# How far over its limit a text may run rather than be cut: cutting a word or two saves little
# and loses how the sentence ends ("reuse trainer worker group for hybrid rollout to do…",
# verl #6076's subject, 62 characters against 60).
SLACK = 1.25


def shorten(text: str, limit: int, slack: float = 1.0) -> str:
    """`text` on one line in at most `limit` characters, marked `…` where cut: between words,
    mid-word only in one enormous token, and never inside a `code span` (cut before it, or
    close it when it is most of what is left). A text at most `slack` times `limit` long is
    kept whole."""
    line = " ".join(text.split())
    if len(line) <= limit * slack:
        return line
    cut = _cut(line, limit - 1)  # one character for the `…`
    if cut.count("`") % 2:
        before = cut[: cut.rfind("`")].rstrip(_BEFORE_ELLIPSIS)
        # The `…` goes outside the span, so its closing backtick needs a character too.
        cut = before if len(before) >= limit // 4 else _cut(line, limit - 2) + "`"
    opened = _unclosed_bracket(cut)
    if opened is not None:
        # An aside cut short reads as a fragment ("kernels (torch.compile, Triton/DeepGEMM…");
        # the clause before it ends the line cleanly, when that keeps half the room.
        before = cut[:opened].rstrip(_BEFORE_ELLIPSIS)
        if len(before) >= limit // 2:
            cut = before
    return (cut or line[: limit - 1]) + "…"


_CLOSING = {"(": ")", "（": "）", "[": "]", "【": "】"}


def _unclosed_bracket(text: str) -> int | None:
    """Where the outermost bracket still open at the end of `text` opens, if one is."""
    stack: list[tuple[int, str]] = []
    for at, char in enumerate(text):
        if char in _CLOSING:
            stack.append((at, _CLOSING[char]))
        elif stack and char == stack[-1][1]:
            stack.pop()
    return stack[0][0] if stack else None


def own_references(text: str, repo: str) -> str:
    """Links to the repository's own PRs and issues as `#N` (which the report links again)."""
    pattern = (
        rf"https?://github\.com/{re.escape(repo)}/(?:pull|issues)/(\d+)(?:[/#][\w./#-]*[\w/-])?"
    )
    return re.sub(pattern, r"#\1", text, flags=re.IGNORECASE)


# Who to thank or ask (`cc @a @b`, `Collaborated with @name`): no word on the change.
_CREDIT = re.compile(
    r"^\s*(?:cc|thanks?(?:\s+to)?|collaborated\s+with|co-?authored\s+(?:with|by)|credits?\s+to)"
    r"\b[\s:,]*(?:@[\w-]+[\s,]*(?:and\s+)?)+$",
    re.IGNORECASE,
)
# `See ...`, `Please refer to ...`: a pointer, unless what follows it says what is done.
_POINTER_LEAD = re.compile(r"^(?:please\s+)?(?:see|refer\s+to)\b", re.IGNORECASE)
POINTER_MAX_WORDS = 10
# What a pointer points at: a place to read, not a subject (`See #7402, pre-commit hook will
# forbid ...` says what the hook does).
_POINTED_AT = re.compile(
    r"\b(?:above|below|(?:in-?line\s+|code\s+)?comments?|implementation|discussion|conversation"
    r"|link|issue|docs?|documentation|details?|description|design|rfc|thread)\b",
    re.IGNORECASE,
)
# `Reference: minimax paper section 6.2.4 of <url>`, `Original discussion #2225.`: a source
# cited, not the change.
_CITATION_LEAD = re.compile(
    r"^(?:references?|refs?\s*[:：]|original\s+(?:discussion|issue|pr)|related\s+(?:issues?|prs?"
    r"|discussions?))\b\s*[:：]?",
    re.IGNORECASE,
)
# `The reason is explained in ...`: where the why is, not the why.
_EXPLAINED_ELSEWHERE = re.compile(
    r"^(?:the\s+)?(?:reasons?|rationale|motivation|details?|context|background|root\s+cause"
    r"|explanation)\s+(?:is|are)\s+(?:explained|described|documented|detailed|given|discussed)"
    r"\s+(?:in|at|on|below|above|here)\b[^.]{0,50}$",
    re.IGNORECASE,
)
# A template section answered with nothing (`No API change.`, `No change for the design.`), or
# a field of verl's "Additional Info." filled in (`Training: FSDP`, `Issue Number: #1313`).
_NOTHING_HERE = re.compile(
    r"^(?:no\b[^.,;:]{0,25}\bchanges?\b[^.,;:]{0,20}|not\s+(?:related|applicable|needed|involved)"
    r"|none)$"
    # A template question answered no (vllm-ascend's "Does this PR introduce any user-facing
    # change?": `No, doc only`, `No. This is a documentation-only update.`).
    r"|^(?:no|none|n/a)\s*[,.;:，。；：]"
    # A caption over the results shown below it (`test result （mimo 7b， dapo dataset）`, verl
    # #7188, over three screenshots).
    r"|^(?:(?:test(?:ing)?|experiment(?:al)?|training|benchmark|e2e|accuracy|precision"
    r"|performance|eval(?:uation)?)\s+)?results?\s*(?:[(（][^)）]{0,80}[)）])?\s*[:：]?$"
    r"|^(?:测试|实验|训练|精度|性能)?结果\s*(?:[(（][^)）]{0,80}[)）])?\s*[:：]?$"
    # `As per title.` (six of verl's), `Same as title`, `See title`: nothing beyond the title.
    r"|^(?:as(?:\s+per)?|same\s+as|see)\s+(?:the\s+)?(?:pr\s+)?title$"
    r"|^(?:issue number|training|inference)\s*:"
    # A placeholder the author never filled in (torchtitan #1555's `[TBA] description + figure`).
    r"|^\[?(?:tba|tbd|to be added|coming soon)\b"
    # A template's instruction left in place (llm-compressor's `"please outline how the
    # changes were tested"`).
    r"|^(?:[a-z ]{3,20}:\s*)?[\"“]please\b[^\"”]*[\"”]$"
    # A bot's metadata line: vllm-ascend's `vLLM version: v0.11.2` (or `: main`,
    # `: release/v0.13.0`) ends every description.
    r"|^[\w .-]{1,24}:\s*(?:release/)?v?\d[\w.+-]*$|^vllm\s+(?:version|main)\b"
    # Trailers git and cherry-picks add to a message (vllm-ascend keeps them in the body;
    # LLaMA-Factory's migrated history ends 383 messages with `Former-commit-id: <sha>`).
    # Hyphens or spaces alike: torch-mlir's `Signed-Off By: name <email>` (11 summaries).
    r"|^(?:(?:signed[- ]off|co[- ]authored|reviewed|acked|tested|reported|suggested|assisted)"
    r"[- ]by|former-commit-id|change-id)\s*:|^\(cherry picked from commit\b",
    re.IGNORECASE,
)


# A Chinese or Japanese character, not the full-width punctuation (`：`) English text may hold.
_CJK_CHARACTER = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


def _points_elsewhere(sentence: str) -> bool:
    """A sentence that only says where the explanation is (`See the inline comments for
    rationale.`, `The reason is explained in the in-line comments.`, `Refer to the
    implementation of #1026.`) or cites a source (`Reference: minimax paper section 6.2.4`),
    not what the PR does (`See #2687: we skip the flaky tests`)."""
    words = _ISSUE_NUMBER.sub("", URL.sub("", sentence)).strip(" ,;:.。")
    if _EXPLAINED_ELSEWHERE.match(words):
        return True
    cited = _CITATION_LEAD.match(words)
    if cited is not None:
        rest = words[cited.end() :]
        return len(rest.split()) <= POINTER_MAX_WORDS and not _CHANGE_WORDS.search(rest)
    lead = _POINTER_LEAD.match(words)
    if lead is None:
        return False
    rest = words[lead.end() :]
    return (
        len(rest.split()) <= POINTER_MAX_WORDS
        and (not rest or _POINTED_AT.search(rest) is not None)
        and not _CHANGE_WORDS.search(rest)
    )


# A command line left unformatted: a flag and its value (`--additional-config '{...}'`, the
# usage under vllm-ascend #6442's lead-in) or a shell prompt.
_COMMAND_LINE = re.compile(r"^(?:--[A-Za-z]|\$\s+\S)")
# A table pasted without its leading pipes (`Step | time | log` over `-- | -- | --`,
# torchtitan #1804): its delimiter row gives it away.
_TABLE_DELIMITER = re.compile(r"(?:^|\s)\|?\s*:?-{2,}:?\s*\|\s*:?-{2,}:?")


def _says_something(paragraph: str) -> bool:
    """Not a link, reference or code span with a few words around it (`Address the first issue
    in https://...`, `Follow #2815.`, a file's path), and not the rest of a title GitHub cut
    short (`…ion when`), nor a greeting of reviewers (`cc @name`) or a template's field."""
    if (
        _ONLY_REFERENCES.match(paragraph.strip())
        or _COMMAND_LINE.match(paragraph.strip())
        or _TABLE_DELIMITER.search(paragraph)
    ):
        return False
    words = _CODE_SPAN.sub("", _ISSUE_NUMBER.sub("", URL.sub("", paragraph)))
    words = _CREDIT.sub("", words).strip(" ,;.")
    enough = 40 if URL.search(paragraph) else 12
    return (
        len(words) >= enough
        # One name alone is a list's item, not a sentence (`MiniMax-M2.md`, a model's id);
        # Chinese writes a sentence without spaces.
        and (len(words.split()) > 1 or _CJK_CHARACTER.search(words) is not None)
        and not paragraph.startswith(("…", "..."))
        and not _NOTHING_HERE.match(words)
        and not _points_elsewhere(paragraph)
    )


# Verbs a sentence about a change opens with, in any of their forms ("add", "adds", "added").
_VERBS = (
    r"(?:add|fix|remove|support|make|update|implement|introduce|use|enable|allow|refactor|move"
    r"|rename|replace|improve|optimi[sz]e|avoid|prevent|bump|upgrade|migrate|switch|skip|extend"
    r"|expose|provide|create|delete|clean|drop|correct|resolve|handle|restore|unify|simplify"
    r"|align|set|change|ensure|wire|pass|split|register|integrate|adapt|reduce|cache|defer"
    r"|upload|hardcode|revert|disable|raise|lower|pin|guard|return|keep|let|apply|install|stop"
    r"|deprecate|rewrite|rework|reorganize|speed|accelerate|validate|sync|increase|decrease"
    r"|limit)"
    r"(?:s|es|ed|d)?\b"
)
# Words by which a sentence says what is done, beside where to look (`See #2687, we skip ...`).
_CHANGE_WORDS = re.compile(
    rf"\b{_VERBS}|\bthis (?:pr|pull request|change|patch)\b|\bwe\b", re.IGNORECASE
)
# A paragraph that says what the PR does ("This PR adds ...", "In this PR, we ...", "We add
# ..."), not one that only points back at the background ("This PR fixes the above issue.").
_STATES_THE_CHANGE = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)\b|in this (?:pr|pull request|change)\b"
    rf"|we (?:now )?{_VERBS})"
    r"(?![^.]{0,40}\b(?:above|the issue|this issue|the problem|this problem)\b[^.]{0,20}(?:\.|$))",
    re.IGNORECASE,
)
# A sentence that opens by going on from the one before it.
_CONTINUES = re.compile(r"^(?:also|and)\s*,?\s+(?=[a-z`])", re.IGNORECASE)
# "This PR also fixes two adjacent bugs ...": a change beside the main one, not the main one.
_ALSO = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)|we|it)\s+also\b", re.IGNORECASE
)
# `now` before what something does (`each card now simply stores`), not before what it intends
# or suffers (`the operator team now plans to`, `training now fails`).
_NOW = re.compile(
    r"\bnow\s+(?:\w+ly\s+)?(?!(?:plan|need|want|seem|look|tend|fail|break|crash|hang)s\b)"
    r"\w+(?:s|es)\b"
)
# "The corresponding build entries ... are removed": what is done, said in the passive.
_PASSIVE_CHANGE = re.compile(rf"\b(?:is|are|was|were|has been|have been)\s+{_VERBS}", re.IGNORECASE)
# A paragraph that opens with what is done ("Adds ...", "We bring ...") is a summary already.
_AUTHOR_LEAD = re.compile(rf"^(?:{_VERBS}|we\b)", re.IGNORECASE)


# The end of a sentence that introduces a list, and the words that point at it (`such as:`).
_LIST_LEAD_END = re.compile(r"(?:,?\s+(?:such\s+as|including))?\s*[:：]\s*$")
# A lead-in that cannot end a sentence: `... canonical GRPO by:`, `... the changes are:`.
_DANGLING = re.compile(
    r"\b(?:by|with|to|for|of|in|on|at|from|as|via|like|below|following|follows|include|includes"
    r"|is|are|was|were|be|which|that|these|those|the|a|an|and|or)\s*$",
    re.IGNORECASE,
)


# A sentence that only counts what follows (`this pr accomplish two things`, vllm-ascend
# #13532; `This PR completes that path with three changes, plus the example-script wiring:`,
# verl #7297), with or without the colon.
_ANNOUNCES_A_LIST = re.compile(
    r"^(?:this|the|in this) (?:pr|pull request|change|patch)\b[^.,;]{0,30}?"
    r"\b(?:two|three|four|five|several|a few|some|multiple|the following|following|\d+)\s+"
    r"(?:main |major |key )?(?:things|changes|parts|items|modifications|fixes|points|aspects"
    r"|updates|improvements|tasks)(?:,?\s+plus\s[^.:：]{1,60})?\s*[.:：]?$",
    re.IGNORECASE,
)


def _is_bare_lead_in(paragraph: str) -> bool:
    """One sentence that introduces a list (`Main changes:`, `This PR makes X match Y by:`),
    which is no summary; unless it says what the PR does at some length and can end as a
    sentence (`This PR replaces the crash with a warning + NaN return, so training can continue
    gracefully in edge cases such as:`, verl #5899), which beats the list's first item."""
    if _ANNOUNCES_A_LIST.match(paragraph):
        return True
    lead_end = _LIST_LEAD_END.search(paragraph)
    if not lead_end or len(_SENTENCE_END.split(paragraph)) > 1:
        return False
    says_the_change = _STATES_THE_CHANGE.match(paragraph) and len(paragraph.split()) >= 10
    return not says_the_change or _dangles(paragraph)


# A few words that run on into the list below them, without a colon: `This pr adds` (torchtitan
# #1540, whose summary was just that), `This PR also`, `At the same time`, `which includes`,
# `I observed that`. Not a sentence without its stop (`support training qwen3vl with megatron`).
_OPEN_LEAD = re.compile(
    r"^(?:(?:\S+\s+){0,3}[\w`]+"
    r"|(?:\S+\s+){0,5}(?:also|adds?|includes?|including|contains?|does|following|below|that"
    r"|by|with|to|for|of|in|on|from|as|via|like|is|are|the|a|an|and|or))$",
    re.IGNORECASE,
)
# A lead-in whose last word runs on into its items without the colon: `... GRPO by:`.
_RUNS_ON = re.compile(r"\b(?:by|with|via|like|to|for|of)\s*[:：]\s*$", re.IGNORECASE)
_EXAMPLES_LEAD_END = re.compile(r"\b(?:such\s+as|including)\s*[:：]\s*$")
# A list item short enough to go into its lead-in's sentence.
_ITEM_MAX_CHARS = 120
# An item's first word that is no name, so lower-cased inside the sentence: a verb or a
# function word (`The maximum ...`, `Add ...`), or a word before a lower-case one; not `Tensor
# Parallel (TP)` or `Incorrect Division in Batch Sizes`.
_PLAIN_CAPITALISED = re.compile(
    rf"^(?-i:(?=[A-Z]))(?:{_VERBS}\w*|the|an?|this|that|these|those|each|all|any|some|its|their|our"
    r"|new|in|on|for|with|when|if)\b(?![-_.(])"
    r"|^(?-i:[A-Z][a-z]+)\b(?![-_.(])(?!\s+(?-i:[A-Z]))",
    re.IGNORECASE,
)
# A template's field as a list item: `**Training**: FSDP`, `Modified File : x.yaml`.
_FIELD_ITEM = re.compile(r"^\W*[A-Za-z][\w ]{0,24}?\W*\s*[:：]\s*\S")


def _lead_ins_with_their_items(paragraphs: list[_Paragraph], limit: int) -> list[_Paragraph]:
    """A sentence that says what the PR does and introduces a short list, with the list's
    items: "This PR unifies the token-dispatch API ... and separates:" over two items read
    "... and separates." (pytorch/torchtitan #3970), and "This PR separates:" gave way to its
    first item alone. Items go in whole, as many as fit the summary, `…` for the rest; a
    lead-in that is itself most of a summary takes all or none. A few words that run on into
    the list without a colon go with it when they say the change, else they go. A heading
    over nothing but a list (`## Supported Features`) leads it, unless a template names it
    (`## Summary`): torchtitan #1373's summary was its second item, "Activation checkpointing"."""
    joined: list[_Paragraph | None] = list(paragraphs)
    for at, paragraph in enumerate(paragraphs):
        if not paragraph.list_item:
            lead, first_item = paragraph, at + 1
        elif _opens_a_listed_section(paragraphs, at):
            heading = paragraph.section.rstrip(" :：?？")
            lead, first_item = paragraph._replace(text=f"{heading}:"), at
        else:
            continue
        items: list[str] = []
        for following in paragraphs[first_item:]:
            if not following.list_item or following.section != lead.section:
                break
            items.append(_without_leading_symbols(following.text).rstrip(" .;,。；，…"))
        open_lead = (
            bool(items)
            and not lead.list_item
            and _OPEN_LEAD.match(lead.text) is not None
            and not _CJK_CHARACTER.search(lead.text)  # Chinese writes a sentence without spaces
        )
        if open_lead and not _STATES_THE_CHANGE.match(lead.text):
            joined[at] = None  # `At the same time` over a list (torchtitan #1064): no sentence
            continue
        named_by_heading = paragraph.list_item
        if not (open_lead or _introduces_items(lead.text, 2 if named_by_heading else 3)):
            continue
        if named_by_heading and all(_FIELD_ITEM.match(item) for item in items):
            continue  # a template's fields (verl's `### Additional Info.`: `Training: FSDP`)
        text = lead.text.rstrip()
        written = 0
        for entry in items:
            if not entry or not _fits_a_sentence(entry):  # `- ...`: the author's "and so on"
                break
            marks = len(entry) - len(entry.lstrip("*_"))  # `**Incorrect division ...**`
            if _PLAIN_CAPITALISED.match(entry[marks:]):
                entry = entry[:marks] + entry[marks].lower() + entry[marks + 1 :]
            longer = f"{text}{'; ' if written else ' '}{entry}"
            if len(longer) > limit * SLACK:
                break
            text, written = longer, written + 1
        if _RUNS_ON.search(lead.text):  # `... match canonical GRPO by centering the sums.`
            text = _LIST_LEAD_END.sub("", lead.text.rstrip()) + text[len(lead.text.rstrip()) :]
        if written and written == len(items):
            joined[at] = lead._replace(text=text + ".")
        elif written and len(lead.text) < limit // 2:
            joined[at] = lead._replace(text=text + "; …")
        elif open_lead:
            joined[at] = None
    return [paragraph for paragraph in joined if paragraph is not None]


def _opens_a_listed_section(paragraphs: list[_Paragraph], at: int) -> bool:
    """Whether a list item opens a section of its own heading that holds only the list."""
    item = paragraphs[at]
    before = paragraphs[at - 1] if at else None
    rest = [p for p in paragraphs[at:] if p.section == item.section]
    return (
        bool(item.section)
        and not item.section[0].isdigit()  # `### 1. Fix Config Reference` numbers a change
        and (before is None or before.section != item.section)
        and all(p.list_item for p in rest)
        and not _known_section(item.section)
    )


def _fits_a_sentence(item: str) -> bool:
    """A list item that can go into its lead-in's sentence: short, one sentence, words rather
    than links (verl #6335's two URLs), and no lead-in of a list of its own."""
    return (
        len(item) <= _ITEM_MAX_CHARS
        and len(sentences(item)) == 1
        and not _LIST_LEAD_END.search(item)
        and not _ONLY_REFERENCES.match(item)
        and len(URL.sub("", item).strip()) >= len(item) // 2
    )


def _introduces_items(lead: str, min_words: int) -> bool:
    """One sentence that ends in a colon, says what the PR does (`This PR supports:`) or is more
    than a label (`Add missing NVIDIA GPU entries:`, `Minimal set up for dropless-enough
    cudagraphable moe:`; not `Changes:`, `Changes on:`), and does not count what follows
    (`This PR does three things:`). A sentence that says the change and then points
    at examples (`... in edge cases such as:`, verl #5899) stands without them."""
    examples = _EXAMPLES_LEAD_END.search(lead) is not None
    return (
        _LIST_LEAD_END.search(lead) is not None
        and not (examples and not _is_bare_lead_in(lead))
        and len(sentences(lead)) == 1
        and not _ANNOUNCES_A_LIST.match(lead)
        and (_STATES_THE_CHANGE.match(lead) is not None or len(lead.split()) >= min_words)
    )


def _dangles(lead_in: str) -> bool:
    """Whether a sentence that introduces a list cannot end as a sentence (`... GRPO by:`)."""
    lead_end = _LIST_LEAD_END.search(lead_in)
    return lead_end is not None and _DANGLING.search(lead_in[: lead_end.start()]) is not None


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


_STEM_ENDINGS = ("ing", "ed", "es", "s", "e")
# Words a sentence adds to its title without saying more: function words, and those that say a
# change is made rather than what it is (vllm-ascend's "Add release note for v0.11.0rc0" under
# "[Doc] Release note for v0.11.0rc0"; tilelang's "Fix WS prelude liveness ordering" under
# "[Transform] Preserve WS prelude liveness ordering").
_FUNCTION_WORDS = _words(
    "a an the this that these those it its is are was be we i our to of in on for and or with"
    " by as at from into"
)
_MAKING_WORDS = _words(
    "add fix updat support enabl implement introduc remov refactor optimiz improv"
)
_PR_NUMBER = re.compile(r"#\d+")
_COMMIT_HASH = re.compile(r"[0-9a-f]{12,40}")
# A word this close to a title word, with the same digits, is that word misspelt (`uesless`).
MISSPELT_RATIO = 0.85
MISSPELT_MIN_LENGTH = 6


def _stem(word: str) -> str:
    """A word without the ending that inflects it (`bumps`, `fixed`, `removes` -> `bump`,
    `fix`, `remov`), applied alike to both texts compared; short words stay whole."""
    for ending in _STEM_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def _misspelt(word: str, title_words: Sequence[str]) -> bool:
    if len(word) < MISSPELT_MIN_LENGTH:
        return False
    digits = re.sub(r"\D", "", word)
    return any(
        len(other) >= MISSPELT_MIN_LENGTH
        and re.sub(r"\D", "", other) == digits
        and difflib.SequenceMatcher(None, word, other).ratio() >= MISSPELT_RATIO
        for other in title_words
    )


def words_beyond(text: str, title: str) -> set[str]:
    """The words of `text` that say more than `title` does, stemmed. Not a PR number, nor a
    word's ending (Dependabot's "Bumps X from 4 to 5." under its title "Bump X from 4 to 5"),
    a function word, two title words run together (`Qwen3Next`, `from3`), a title word
    misspelt, or a commit hash; nor a word that only says a change is made (`add`, `fix`)
    under a title that says what kind of change it is: under tilelang's "[CUDA][Codegen] Keep
    RNG state in kernel scope", "Fix CUDA RNG state scope" says it is a fix."""
    title_words = re.findall(r"\w+", _PR_NUMBER.sub(" ", title.lower()))
    known = {_stem(word) for word in title_words}
    making = _MAKING_WORDS if parse_title(title).type != "other" else frozenset()
    joined = {first + second for first, second in pairwise(title_words)}
    beyond = set()
    for word in re.findall(r"\w+", _PR_NUMBER.sub(" ", text.lower())):
        stemmed = _stem(word)
        if (
            stemmed in known
            or stemmed in _FUNCTION_WORDS
            or stemmed in making
            or word in joined
            or _COMMIT_HASH.fullmatch(word)
            or _misspelt(word, title_words)
        ):
            continue
        beyond.add(stemmed)
    return beyond


def _only_the_title(sentence: str, title_words: set[str]) -> bool:
    words = _words(sentence)
    return bool(words) and words <= title_words


def _beyond_the_title(paragraphs: list[_Paragraph], title_words: set[str]) -> list[tuple[str, str]]:
    """(section, plain text) of each paragraph from its first sentence that is more than the
    title again: authors open with the title (`Add Checkpoint Engine abstraction.`, verl #4775)
    and explain after it. A list that opens with the title lists squashed commits or lesser
    changes (`* add allgather method`, `* add tests`, ...) and is left out whole."""
    result: list[tuple[str, str]] = []
    in_title_list = False
    for index, paragraph in enumerate(paragraphs):
        if _BARE_LINK.match(paragraph.text):
            continue
        text = _PARAGRAPH_LEAD.sub("", _plain(paragraph.text))
        split = sentences(text)
        beyond = split
        while beyond and _only_the_title(beyond[0], title_words):
            beyond = beyond[1:]
        first_item = paragraph.list_item and (index == 0 or not paragraphs[index - 1].list_item)
        if first_item:
            in_title_list = bool(split) and not beyond
            if in_title_list and index == 0:  # GitHub's squash message: only commit subjects
                return []
        if paragraph.list_item and in_title_list:
            continue
        rest = " ".join(beyond)
        # What trails the title is often only a pointer (`Related issue: [issue](...)`).
        if beyond == split or len(rest.split()) >= 5:
            result.append((paragraph.section, rest))
    return result


# GitHub's default squash message: the branch's commits, `* subject` paragraph by paragraph
# (a subject is plain text; an author's list item may open with `**` or a code span).
_COMMIT_ITEM = re.compile(r"^\* [^\s*`]", re.MULTILINE)


# A commit subject in the conventional form, as a squash lists it: `* fix(batch): restore ...`.
_CONVENTIONAL_COMMIT_ITEM = re.compile(r"^\* [a-z]+(?:\([^)\n]*\))?!?: \S", re.IGNORECASE)


def _blank_line_paragraphs(body: str) -> list[str]:
    """The body's blocks between blank lines, as a squash message separates its commits."""
    return [p.strip() for p in re.split(r"\n\s*\n", body.strip()) if p.strip()]


def _is_squashed_commit_list(body: str, title: str) -> bool:
    """A body that lists the branch's commits rather than describing the PR (tilelang #682
    opened with `* Refactor buffer index handling ... (#668)`, another PR's subject).

    Some squashes list the commits a line each, with no blank lines between: such a list names
    the PR's own title among its commits (aibrix #2273: `* Add brixbench benchmark module`, the
    commit of the PR its branch grew from, then `* Add Qwen3-8B 4P4D PD routing benchmark
    scenarios`, the title), which a list the author wrote does not; or whose every line is a
    conventional commit subject (aibrix #2564: `* chore(batch): log result persistence
    failures`, then three `* fix(batch): ...`), as an author's list is not written.
    """
    paragraphs = _blank_line_paragraphs(body)
    if not paragraphs or _COMMIT_ITEM.match(paragraphs[0]) is None:
        return False
    if len([p for p in paragraphs if _COMMIT_ITEM.match(p)]) >= 2:
        return True
    lines = paragraphs[0].splitlines()
    subject = commit_subject(title)
    return (
        len(lines) >= 2
        and all(_COMMIT_ITEM.match(line) for line in lines)
        and (
            any(commit_subject(line[2:]) == subject for line in lines)
            or all(_CONVENTIONAL_COMMIT_ITEM.match(line) for line in lines)
        )
    )


def _own_commit_message(body: str, title: str) -> str:
    """What a squash message says under its first commit, when that commit is the PR's own
    change (its subject is the PR's title): the branch's later commits are fixups, and the
    first one's message is the description the PR has (lmdeploy #4838: `* fix(turbomind):
    dispatch cuMemcpyBatchAsync ...`, then why CUDA 13 segfaulted). A first commit under
    another subject describes only itself (tilelang #583: `Enhanced pythonic_expr ...` under
    "align shared memory allocations"), and one naming a PR number the title does not came
    from that PR."""
    paragraphs = _blank_line_paragraphs(body)
    subject, *rest = paragraphs[0].splitlines()
    taken = re.search(r"\(#\d+\)$", subject.rstrip())
    if commit_subject(subject[2:]) != commit_subject(title) or (
        taken and taken.group() not in title
    ):
        return ""
    message = ["\n".join(rest)] if rest and not _COMMIT_ITEM.match(rest[0]) else []
    for paragraph in paragraphs[1:]:
        if _COMMIT_ITEM.match(paragraph):
            break
        message.append(paragraph)
    return "\n\n".join(message)


def opens_with_commit_item(body: str) -> bool:
    """Whether a description opens as GitHub's squash message does, with a `* subject` line."""
    return _COMMIT_ITEM.match(body.lstrip()) is not None


def commit_subject(text: str) -> str:
    """A title or commit subject without its tags, PR number and closing stop, lower-cased."""
    without_tags = _LEADING_TAGS.sub("", text.strip())
    return re.sub(r"\s*\(#\d+\)$", "", without_tags).rstrip(". ").lower()


_LEADING_TAGS = re.compile(r"^(?:\[[^\[\]\n]{1,30}\]\s*)+(?=\w)")


# A gitmoji shortcode (`:pencil2: fix typo`, ms-swift #1064).
_SHORTCODE = re.compile(r"^:[a-z0-9_+-]+:\s*")


def _without_leading_symbols(text: str) -> str:
    """Text without the emoji or shortcodes that decorate its start (`✅ Upgrade vllm ...`,
    `📝 Add docstrings ...`): the summary's line is about the change."""
    rest = _SHORTCODE.sub("", text)
    while rest and (rest[0].isspace() or unicodedata.category(rest[0]) in ("So", "Mn")):
        rest = rest[1:]
    return rest or text


_FIELD_LABEL = re.compile(
    r"^(?:reason|rationale|motivation|background|purpose|problem|symptom|summary|description"
    r"|overview|概述|描述)\s*[:：]\s*(?=\S)",
    re.IGNORECASE,
)
# `1.`, `1、`, `1)`, `(1)` before an item, but not a version (`1.5B`).
_ITEM_NUMBER = re.compile(r"(?:^|(?<=\s))\(?(?P<n>\d{1,2})[.、)）](?!\d)\s*")


def _numbered_items(text: str) -> str:
    """A list written on one line (`1.add static EPLB unit test 2.fix bug: ...`, 43 summaries
    over eight repositories) as its items: `add static EPLB unit test; fix bug: ...`; after a
    lead, as the lead and its items (7 more)."""
    marks = list(_ITEM_NUMBER.finditer(text))
    first = next((i for i, mark in enumerate(marks) if mark.group("n") == "1"), None)
    if first is None:
        return text
    numbered = [marks[first]]
    for mark in marks[first + 1 :]:
        if int(mark.group("n")) == len(numbered) + 1:
            numbered.append(mark)
    lead = text[: numbered[0].start()].strip()
    # After a lead (`Remove unnecessary attributes from X 1.prefetch_stream 2.weight_...`,
    # vllm-ascend #5204), a list needs a second item to be one: `version 1. x` is none.
    if lead and len(numbered) < 2:
        return text
    ends = [m.start() for m in numbered[1:]] + [len(text)]
    items = [text[m.end() : end].strip() for m, end in zip(numbered, ends, strict=True)]
    items = [item.rstrip(" ;,.。；") for item in items[:-1]] + items[-1:]
    chinese = _CJK_CHARACTER.search(text) is not None
    joined = ("；" if chinese else "; ").join(item for item in items if item)
    if lead and joined:
        # A lead that ends its sentence (`... CI config. (1) Add ...`) is followed, not joined.
        if lead.endswith((".", "。", "!", "！", "?", "？")):
            return f"{lead} {joined}"
        return lead.rstrip(":： ") + ("：" if chinese else ": ") + joined
    return joined or text


# "This PR fixes it by passing ...": `it` is the background the summary leaves out, and the
# title says what is fixed; what follows `by` is the change (verl #7107, vllm-ascend #6939).
_FIXES_IT_BY = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)|we)\s+"
    r"(?P<verb>fix|solve|address|resolve|mitigate|avoid|handle)(?:es|s|ed|d)?\s+"
    r"(?:it|this|that|them|(?:the|this|that|these|those)\s+"
    r"(?:issues?|problems?|bugs?|errors?|regressions?|failures?))\s+by\s+(?=\w+ing\b)",
    re.IGNORECASE,
)


def _fixed_by(match: re.Match[str]) -> str:
    verb = match.group("verb").lower()
    return f"{verb.capitalize()}{'d' if verb.endswith('e') else 'ed'} by "


# A collapsed `<details>` block: what the author folded away (Dependabot's release notes, logs)
# is not what the PR does, and its HTML can run on from the sentence before it (verl #646).
_COLLAPSED = re.compile(r"<details\b.*?</details>", re.IGNORECASE | re.DOTALL)


def summarize(title: str, body: str, limit: int = 180) -> str:
    """One line on what the PR does: the first sentences the author wrote about it.

    Prefers a "What does this PR do?" / "Summary" / "Overview" section, skips sentences that
    only say the title again, reference-only lines ("Fixes #12"), images and code, and falls
    back to the title's subject.
    """
    if _is_squashed_commit_list(body, title):
        body = _own_commit_message(body, title)
    body = _COLLAPSED.sub("\n\n", body)
    # Text under a screenshot a lead-in announced says what it shows (`When discrete=False, the
    # results fused to ...json` between two profiler views, verl #7408), not what the PR does;
    # text under one nothing announced is the author's (verl #4674's fix below the error).
    read = _lead_ins_with_their_items(
        [
            p
            for p in _paragraphs(clean_description(body))
            if not _SKIP_SECTIONS.match(p.section) and not p.after_image
        ],
        limit,
    )

    def informative(title_words: set[str]) -> list[tuple[str, str]]:
        paragraphs = _beyond_the_title(read, title_words)
        return [(section, text) for section, text in paragraphs if _says_something(text)]

    def described(paragraphs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [
            (section, text)
            for section, text in paragraphs
            if not _REFERENCE_LINE.match(text)
            and not _PROVENANCE.match(text)
            and not _is_bare_lead_in(text)
        ]

    # What the author wrote beyond the title, else the title in their words, else anything.
    everything = informative(set())
    paragraphs = described(informative(_words(title))) or described(everything) or everything
    preferred = [text for section, text in paragraphs if _SUMMARY_SECTIONS.search(section)]
    chosen = preferred[0] if preferred else (paragraphs[0][1] if paragraphs else "")
    # "Currently X breaks when Y. ... This PR makes X ...": the background leads, but the
    # paragraph that says what the PR does is the summary.
    if preferred and not _STATES_THE_CHANGE.match(chosen) and not _AUTHOR_LEAD.match(chosen):
        chosen = next(
            (
                text
                for text in preferred[1:]
                if _STATES_THE_CHANGE.match(text)
                and len(text.split()) >= 7
                and not _ALSO.match(text)
            ),
            chosen,
        )
        # "The old X relied on Y, breaking Z. The receiver now reconciles ...": in the background
        # that stays the summary, the sentence on what is done now is the change (verl #7327);
        # else a later paragraph or item that opens so (`PackedSeqParams now carries ...`, verl
        # #7297), unless the background already says what is done (`... are removed`).
        if not _STATES_THE_CHANGE.match(chosen) and not _AUTHOR_LEAD.match(chosen):
            told = sentences(chosen)
            now = next((i for i, s in enumerate(told) if i and _NOW.search(s)), None)
            if now is not None:
                chosen = " ".join(told[now:])
            elif not _PASSIVE_CHANGE.search(chosen):
                # An item deep in a list is one change of several (vllm-ascend #8289's third
                # of four, "`capture_model()` now returns ..."): the background says more.
                later_items = {p.text for q, p in pairwise(read) if p.list_item and q.list_item}
                chosen = next(
                    (
                        text
                        for text in preferred[1:]
                        if _NOW.search(sentences(text)[0]) and text not in later_items
                    ),
                    chosen,
                )
    if not chosen:
        chosen = parse_title(title).subject or title
    chosen = _without_leading_symbols(_plain(chosen))
    # "Split from #6118. This PR adds ...": where it came from opens it; what it does follows
    # (so too after "The reason is explained in the in-line comments.").
    opening = sentences(chosen)
    if len(opening) > 1 and (_PROVENANCE.match(opening[0]) or _points_elsewhere(opening[0])):
        chosen = " ".join(opening[1:])
    # A field's label before the sentence (vllm-ascend's `Reason： The functions ...`) goes, and
    # a list written on one line reads as its items.
    chosen = _numbered_items(_FIELD_LABEL.sub("", chosen, count=1))
    chosen = _FIXES_IT_BY.sub(_fixed_by, chosen, count=1)
    # A commit's subject as the description (`[CUDA] Refactor TMA atomic add layout
    # validation`, tilelang #2846) says what changed; its tags and type say it again. So does
    # a type before what is done (`Fix: handle nvidia namespace packages ...`), though not
    # before what went wrong (`Fix: pre-commit broken by #2354`), which needs the word.
    conventional = _CONVENTIONAL.match(chosen)
    if _LEADING_TAGS.match(chosen) or (
        conventional
        and conventional.group("type").lower() in TYPE_ALIASES
        and _AUTHOR_LEAD.match(conventional.group("rest"))
    ):
        chosen = parse_title(chosen).subject
    summary = _first_sentences(chosen, limit)
    # "Also allow VLM training" goes on from a sentence the summary left out (the title again,
    # verl #2390): on its own, the line says what is done.
    summary = _CONTINUES.sub("", summary, count=1)
    # "move `hf_transfer` into ..." (after "As title, ") starts its sentence with a capital;
    # an identifier ("vllm_ascend ...", "torch.compile ...") keeps its case.
    if re.match(r"[a-z]+(?=[\s,;:]|$)", summary):
        summary = summary[0].upper() + summary[1:]
    # A lead-in to the list, log or code the summary leaves out ends the line as a sentence,
    # without the words that pointed at it (`... in edge cases such as:`).
    if lead_end := _LIST_LEAD_END.search(summary):
        stop = "。" if summary.endswith("：") else "."
        summary = summary[: lead_end.start()].rstrip(" ,;") + stop
    # A list item that goes on in the next one (`1. migrates X to `verl-recipe`,`, verl #4795).
    elif summary.endswith((",", ";", "，", "；")):
        summary = summary[:-1] + ("。" if summary.endswith(("，", "；")) else ".")
    return summary


class AuthorParagraph(NamedTuple):
    """A paragraph or list item of the author's own text, as plain text, with its heading."""

    section: str
    text: str
    list_item: bool


def author_paragraphs(body: str) -> list[AuthorParagraph]:
    """The cleaned description's paragraphs and list items, without code, quotes or tables."""
    return [
        AuthorParagraph(p.section, _plain(p.text), p.list_item)
        for p in _paragraphs(clean_description(body))
    ]


def sentences(text: str) -> list[str]:
    """A paragraph's sentences (a sentence ends at `.`, `!` or `?` before a capital, or at
    Chinese end punctuation)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def prose(body: str) -> str:
    """The author's own sentences: the cleaned description without code, quotes or tables.

    Keyword signals read this rather than the raw body, so a pasted log or the template's
    instructions cannot make a PR look like it fixes a crash.
    """
    return "\n".join(p.text for p in author_paragraphs(body))


_OPEN_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[ \]\s*")


def open_checklist_items(body: str) -> list[tuple[str, str]]:
    """The description's unchecked checklist items (`- [ ] Add document`, wrapped lines
    joined), each with what leads them, in order: the heading they sit under, or a label line
    after it (`Known issues:`, `TODO:`). `clean_description` drops most checklists, since most
    are the template's; a caller that knows which leads open the author's own to-do list reads
    those items here."""
    text = _normalised(body)
    items: list[tuple[str, str]] = []
    section = lead = ""
    current: list[str] = []

    def flush() -> None:
        if current:
            items.append((lead, _plain(" ".join(current))))
            current.clear()

    for kind, lines in _split_blocks(text.split("\n")):
        line = lines[0]
        if kind == "text" and current and _wraps_item(line):
            current.append(line.strip())
            continue
        flush()
        if kind != "text":
            continue
        heading = _HEADING.match(line.strip())
        if heading:
            section = lead = heading.group("text")
        elif _OPEN_CHECKBOX.match(line):
            current.append(_OPEN_CHECKBOX.sub("", line).strip())
        elif line.strip() and not _LIST_MARK.match(line):
            label = line.strip()
            lead = label if label.endswith((":", "：")) else section
    flush()
    return items
