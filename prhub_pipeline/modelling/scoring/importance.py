"""Importance: an explainable 0-10 score per PR, calibrated on the repository's own history.

A PR's raw score is the sum of named parts (type, breaking, size, core share, breadth, what a
fix fixes, review, revert, toolchain upgrade), each a plain function of the PR. The raw score
means little on its own: a repository with big PRs would score everything high. A calibration
therefore records the distribution of raw scores over the repository's history, and
`importance` is the raw score's place in it: 7.0 means "scores above 70% of this repository's
PRs of the year up to this week" (`RawHistory.calibration`), in any week and any repository.
The mapping is monotonic, so every part that grows can only raise the importance.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.mechanical import is_sweep, names_mechanical_rewrite
from prhub_pipeline.modelling.scoring.relands import relanding
from prhub_pipeline.modelling.scoring.requirements import runtime_repins
from prhub_pipeline.modelling.scoring.user_settings import dropped_settings
from prhub_pipeline.modelling.tagging.tags import areas_of
from prhub_pipeline.modelling.text.pr_summaries import prose
from prhub_pipeline.modelling.text.pr_titles import (
    change_kind,
    declares_documentation,
    documents_code_only,
    only_checks,
    only_modernises_syntax,
    parse_title,
    tag_type,
)
from prhub_pipeline.paths import (
    CI_FILES,
    DOCKERFILES,
    GENERATED_FILES,
    LOCK_FILES,
    VENDORED_FILES,
    matches_any,
)
from prhub_pipeline.records import (
    BOT_LOGIN,
    FileChange,
    FixImpact,
    PrScore,
    PrType,
    PullRequest,
    Review,
    ReviewData,
    ReviewThread,
    SettingChange,
    UncountedKind,
)
from prhub_pipeline.reverts import (
    also_reverted,
    merge_commits,
    read_revert,
    reverted_by_mention,
    reverted_number,
    titles_before,
)

# ---------------------------------------------------------------------------------------------
# Paths


# How a deleted account (GitHub's "ghost", a null author) is named where a login would be.
DELETED_USER = "(deleted user)"


def is_bot(login: str | None, flagged: bool = False) -> bool:
    return flagged or bool(BOT_LOGIN.search(login or ""))


@dataclass
class PrReview:
    """What review data says about one PR."""

    threads: list[ReviewThread] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)

    @property
    def unresolved(self) -> list[ReviewThread]:
        return [t for t in self.threads if not t.is_resolved and not t.is_outdated]

    @property
    def human_threads(self) -> list[ReviewThread]:
        return [t for t in self.threads if not _thread_by_bot(t)]

    def authors_with_state(self, state: str) -> list[str]:
        names = []
        for review in self.reviews:
            if review.state.upper() == state and not is_bot(review.author, review.author_is_bot):
                name = review.author or DELETED_USER
                if name not in names:
                    names.append(name)
        return names


def _thread_by_bot(thread: ReviewThread) -> bool:
    if not thread.comments:
        return False
    first = thread.comments[0]
    return is_bot(first.author, first.author_is_bot)


def reviews_by_pr(review_data: ReviewData) -> dict[int, PrReview]:
    """Threads and reviews grouped by PR number; empty when review data is unavailable."""
    grouped: dict[int, PrReview] = defaultdict(PrReview)
    if not review_data.available:
        return {}
    for thread in review_data.threads:
        grouped[thread.pr_number].threads.append(thread)
    for review in review_data.reviews:
        grouped[review.pr_number].reviews.append(review)
    return dict(grouped)


# ---------------------------------------------------------------------------------------------
# What a fix fixes


# Weight per impact: what a maintainer would lose sleep over. Wrong results and data loss are
# silent, so they outrank a crash that at least announces itself.
FIX_IMPACT_WEIGHTS: dict[FixImpact, float] = {
    "wrong_result": 1.5,
    "data_loss": 1.4,
    "security": 1.5,
    "oom": 1.2,
    "hang": 1.2,
    "crash": 1.0,
    # A setting that silently did nothing (`FSDP2 silently drops forward_prefetch`): users
    # believe they run what they configured.
    "ignored_setting": 1.0,
    "regression": 0.8,
}
# Corrupted values (`corrupts log-probabilities`, `silent label corruption`) are wrong results;
# corrupted checkpoints or files are data loss.
_STORED_NOUNS = (
    "checkpoints",
    "checkpoint",
    "ckpts",
    "ckpt",
    "files",
    "file",
    "datasets",
    "dataset",
)
_STORED_NOUN = "(?:" + "|".join(_STORED_NOUNS) + ")"
_STORED_OBJECT = rf"\s+(?:(?:the|a|an|saved|on-disk)\s+)*{_STORED_NOUN}\b"
_NOT_AFTER_STORED_NOUN = "".join(f"(?<!{noun} )" for noun in _STORED_NOUNS)
# Something silently happening is a wrong result only when it happens to values: `silently
# overwritten`, `silently receive base weights`, `silently does nothing`; not `silently exits`
# or `silently drops a config` (verl: 6 of 17 fixes that only this word marked were right).
_SILENT_RESULT = (
    r"\bsilently\s+(?:[\w`.-]+\s+){0,3}?"
    r"(?:overwrit\w*|discard\w*|becom\w*|receiv\w*|does\s+nothing|produc\w*|wrong|incorrect\w*)"
)
# `wrong sgl-kernel version`, `incorrect import`: a wrong thing in the code, not a wrong result.
_NOT_A_RESULT = (
    r"\s+(?:[\w`.-]+\s+){0,2}(?:versions?|urls?|links?|imports?|imported|paths?|docstrings?"
    r"|comments?|descriptions?|display|names?|spelling|typos?|methods?|arguments?|args"
    r"|parameters?|params|scripts?|usage)\b"
)
# NaN as a symptom (`loss becomes NaN`), not as the value a fix now returns in place of a crash
# (verl #5899 `return NaN for empty tensors`, `a warning + NaN return`, `NaN fallback`).
_NAN_SYMPTOM = r"(?<!\breturn )(?<!\breturns )(?<!\breturning )\bNaN\b(?!\s+(?:return|fallback))"
# Numerics as a symptom (`numerical error`, `numerically unstable`), not as what a test checks or
# a change keeps (`numerical results match torch.tan`, `numerically equivalent`, tilelang #2894).
_NUMERICAL_SYMPTOM = (
    r"\bnumerical(?:ly)?\s+(?:[\w-]+\s+)?(?:errors?|issues?|instabilit\w*|unstable|problems?"
    r"|bugs?|differen\w*|discrepanc\w*|mismatch\w*|drift\w*|wrong|incorrect\w*|overflow\w*)\b"
)
# Precision as a number format (`mixed precision`, `low-precision`, `Single Precision math
# functions`), not as accuracy (`fix precision issue in GQA decode`).
_PRECISION_FORMAT = "".join(
    f"(?<!{kind}{sep})"
    for kind in ("mixed", "mix", "low", "half", "single", "double", "full", "reduced")
    for sep in (" ", "-")
)
# A mismatch of structure (`position_ids shape mismatch`, `device mismatch between fsdp2
# offload and weights`, `Fix type interface mismatch`) stops a run with an error; a mismatch of
# values (`logprob mismatch`, `rollout-training mismatch`) is a wrong result.
_STRUCTURE_NOUNS = (
    "shape",
    "dim",
    "dimension",
    "dtype",
    "type",
    "device",
    "size",
    "placement",
    "interface",
    "signature",
    "version",
    "port",
    "parameter",
    "argument",
    "key",
    # What a build or an environment mismatches (verl #7334: "flash-attn built against a
    # mismatched CUDA runtime" gets a warning; no result was wrong).
    "cuda",
    "runtime",
    "driver",
    "toolkit",
    "abi",
    "library",
)
_STRUCTURE_NOUN = "(?:" + "|".join(_STRUCTURE_NOUNS) + ")s?"
_STRUCTURE_MISMATCH = (
    "".join(
        f"(?<!{noun}{plural}{sep})"
        for noun in _STRUCTURE_NOUNS
        for plural in ("", "s")
        for sep in (" ", "-", "_")
    )
    + rf"\bmismatch(?!(?:ed|es|ing)?\s+{_STRUCTURE_NOUN}\b)"
)
_FIX_IMPACT_PATTERNS: dict[FixImpact, re.Pattern[str]] = {
    "crash": re.compile(
        r"\bcrash(?:es|ed|ing)?\b|\bsegfault|segmentation fault|core dump|\btraceback\b"
        r"|\b[A-Z][a-zA-Z]*(?:Error|Exception)\b|\bfail(?:s|ed)? to"
        r" (?:start|launch|load|import|run|save|initiali[sz]e|compile|build)"
        r"|\bcannot (?:start|load|import)\b|崩溃|报错|异常退出",
    ),
    "oom": re.compile(
        # Not "a MoE residual-memory leak fix" (verl #7328): another change, named by a
        # compound; "This PR is a memory leak fix" is this one.
        r"\bOOM(?:s|ed|[- ]?kill\w*)?\b|out of memory|(?<!-)memory leak"
        r"|-memory leak(?!s?\s+fix(?:es)?\b)"
        r"|显存不足|内存泄漏|内存溢出|显存溢出",
        re.IGNORECASE,
    ),
    "hang": re.compile(
        r"\bhang(?:s|ing)?\b|\bhung\b|deadlock|\bstuck\b|\bfreez(?:e|es|ing)\b|卡死|卡住|死锁|挂起",
        re.IGNORECASE,
    ),
    "wrong_result": re.compile(
        rf"\b(?:wrong|incorrect(?:ly)?)\b(?!{_NOT_A_RESULT})|\binaccura|\baccuracy\b"
        rf"|{_STRUCTURE_MISMATCH}"
        rf"|{_PRECISION_FORMAT}\bprecision\b"
        rf"|\binconsistent|{_SILENT_RESULT}|{_NAN_SYMPTOM}|{_NUMERICAL_SYMPTOM}|\babnormal(?:ly)?\b"
        r"|\bdivergen|错误结果|结果错误|精度|不一致|不正确|数值"
        rf"|{_NOT_AFTER_STORED_NOUN}\bcorrupt(?:s|ed|ion|ing)?\b(?!{_STORED_OBJECT})",
        re.IGNORECASE,
    ),
    "data_loss": re.compile(
        r"data loss|\blos(?:e|es|t|ing) (?:data|samples|checkpoints?|weights|keys)"
        rf"|\bcorrupt(?:s|ed|ion|ing)?{_STORED_OBJECT}|\b{_STORED_NOUN}\s+corruption\b"
        r"|数据丢失|丢失|损坏",
        re.IGNORECASE,
    ),
    "security": re.compile(
        # An injection of what an attacker controls; a compiler's "pipeline injection" is none.
        r"\bsecurity\b|vulnerab|\bCVE-\d+|\b(?:sql|command|code|shell|prompt|template|path)"
        r"[ -]injection\b|\bXSS\b|(?:secret|token|credential)s? leak"
        # What an attacker could do (AReaL #1323: "Any attacker reachable on the network could
        # authenticate to admin endpoints").
        r"|\battackers?\b|\bunauthori[sz]ed\s+access|\bprivilege\s+escalation"
        r"|\bremote\s+code\s+execution\b|\barbitrary\s+(?:code|command)\s+execution"
        r"|安全漏洞|漏洞",
        re.IGNORECASE,
    ),
    "ignored_setting": re.compile(
        r"\bsilently\s+(?:[\w`.-]+\s+){0,2}?(?:drop|ignor|overrid)\w*"
        # Not "has no effect on performance / on the vllm-ascend logic / on prompt_logprobs"
        # (vllm-ascend #13785, #5223, verl #6867): what the change leaves alone, or why.
        r"|\b(?:has|had|have|takes?|took)\s+no\s+effect\b(?!\s+on\b)"
        r"|\b(?:is|are|was|were|being)\s+(?:silently\s+)?ignored\b"
        r"|\bnot\s+(?:take|taking|took)\s+effect\b|不生效|未生效|没有生效",
        re.IGNORECASE,
    ),
    "regression": re.compile(
        # Not a regression test (`regression tests`, `regression testing`); see also _ADDED_TEST.
        # Nor "non-regression cases" (verl #7413).
        r"(?<!non-)(?<!non )\bregress(?:ion|ed|es)?\b(?!s?\s+(?:test|coverage|suite|check))"
        r"|\bno longer works?\b"
        r"|回归(?!测试)",
        re.IGNORECASE,
    ),
}
# A test the PR adds, named after what it guards: `Add an SM100 regression for packed float32
# reductions`, `Add regressions for atomic target reads` (tilelang) is no regression it fixes.
_ADDED_TEST = re.compile(
    r"\badd(?:s|ed|ing)?\s+(?:an?\s+|the\s+|new\s+)?(?:[\w.-]+\s+){0,2}regressions?\b",
    re.IGNORECASE,
)
_DESCRIPTION_FACTOR = 0.75  # a word in the description counts less than the same word in the title
# A clause ends at a sentence's end, a semicolon, a colon, a dash or a line break.
_CLAUSE_END = re.compile(r"[.!?](?=\s)|[;:\n—。；！？：]")
# A keyword up to three words after a negation in its clause is denied, not reported: `does not
# crash`, `no crash is raised`, `without errors, deadlocks or OOM`, `不会崩溃` (verl #6313, #6348).
# What the fix ends says the bug had it: `no longer crashes`, `without the fix, it crashes`;
# and so do `avoid OOM`, `instead of crashing`, which are no negations here.
_NEGATED = re.compile(
    r"(?:\b(?:not|no|never|without|nor|neither)\s+|n['’]t\s+)"
    r"(?!longer\b)(?!(?:the\s+|this\s+|that\s+)?(?:fix|patch|change|pr)\b)"
    r"(?:\S+\s+){0,3}(?:[\w-]+\s*[/&]\s*)*[^\s\w]*$"  # `no behavioral/numerical impact`
    r"|(?:不会|没有|没|未|无)$",
    re.IGNORECASE,
)
_NOT_ANYMORE = re.compile(r"\s+any\s?more\b", re.IGNORECASE)  # `doesn't crash anymore`
# `Don't crash when the tool returns None`: an order to the code, which is what the fix does.
_IMPERATIVE = re.compile(r"^\s*(?:do\s+not|don['’]t)\b", re.IGNORECASE)
# An error the fix makes the code raise is what it does, not what went wrong: `now raises
# RuntimeError when ...` (AReaL #1323), `Added an explicit check to raise a RuntimeError`.
_RAISED_BY_THE_FIX = re.compile(
    r"\b(?:now|adds?|added)\b(?:\s+\S+){0,4}?\s+(?:raises?|throws?)\s+(?:an?\s+|the\s+)?`?$"
    # What the fix turns away on purpose (verl #7243: "EP export is explicitly rejected with
    # `NotImplementedError` instead of silently producing ..."), not what the bug did
    # ("requests were rejected with `RuntimeError`").
    r"|\b(?:(?:is|are)\s+(?:now\s+|explicitly\s+|clearly\s+)*(?:rejected|refused)|now\s+"
    r"(?:rejects?|refuses?|fails?\s+fast)|(?:rejects?|refuses?|fails?\s+fast))"
    r"\s+with\s+(?:an?\s+|the\s+)?`?$",
    re.IGNORECASE,
)
# An error the bug failed to raise, which the fix raises (verl #885: "the NotImplementedError
# is not raised"): the error is the fix's, not the bug's.
_NOT_RAISED = re.compile(
    r"`?\s+(?:(?:is|was|are|were)\s+(?:not|never)|isn't|wasn't|aren't|weren't)\s+"
    r"(?:raised|thrown)\b",
    re.IGNORECASE,
)


def _affirms(pattern: re.Pattern[str], text: str) -> bool:
    """Whether a description names the pattern's impact other than to deny it."""
    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 80) : match.start()]
        clause = before[max((end.end() for end in _CLAUSE_END.finditer(before)), default=0) :]
        if _RAISED_BY_THE_FIX.search(clause) or _NOT_RAISED.match(text, match.end()):
            continue
        if (
            not _NEGATED.search(clause)
            or _IMPERATIVE.match(clause)
            or _NOT_ANYMORE.match(text, match.end())
        ):
            return True
    return False


# The tag of a change that declares no behaviour changed (LLVM's convention, ColossalAI's and
# slime's): whatever it fixes, no user saw the bug.
_NO_FUNCTIONAL_CHANGE = "nfc"
# A description that says so in words: "Logging-only change; no behavioral/numerical impact."
# (torchtitan #3733, a warning's missing f-prefix, was a key "wrong results" fix by its
# "resharding mismatch" the warning helps to debug). Not "no behavior change for the default
# path", which leaves other paths changed.
_NO_BEHAVIOUR_CHANGED = re.compile(
    r"\b(?:no|without)\s+(?:(?:any|other)\s+)?(?:[\w-]+\s*[/,]\s*|[\w-]+\s+(?:or|and)\s+)*"
    r"(?:functional|functionality|behaviou?ral|behaviou?r|numerical|numeric|semantic|logic)\s+"
    r"(?:changes?|impact|differences?|effects?)(?=\s*(?:[.;,)]|$))"
    r"|\b(?:logging|log|message|comment|docstring|typo|cosmetic)[- ]only\b",
    re.IGNORECASE,
)


def declares_no_functional_change(title: str) -> bool:
    """Whether a title says the PR changes no behaviour: its tags (`[NFC]`), or all it does is
    satisfy a linter, type checker or formatter (ColossalAI's bot PRs `[format] applied code
    formatting on changed files in pull request 4441`, 80 lines of a core file, were key), or
    document (`declares_documentation`). ColossalAI #4669 "[doc] Update booster user
    documents." rewrote 97 lines of docstrings in booster.py (18 more of type hints and an
    import) and was an 8.3 key PR flagged as a core change without tests. Of the 86 PRs of
    eleven histories so typed that change core files, 48 change there only docstrings, comments
    and blank lines or 5 lines more, 16 more docstring lines than others, and 7 of the rest add
    type hints (slime's `[Doc] Include type annotation ...`); a few slip a fix in (verl #1781
    "[docs] ppo: add a page for PPO algorithm" added the `k1`-`k3` names of KL penalties), as an
    `[NFC]` PR may."""
    return (
        _NO_FUNCTIONAL_CHANGE in parse_title(title).prefix_tags
        or only_checks(title)
        or only_modernises_syntax(title)
        or declares_documentation(title)
    )


def ranked_fix_impacts(pr: PullRequest) -> list[FixImpact]:
    """The impacts a fix names (`fix_impacts`), the weightiest first."""
    found = fix_impacts(pr.title, pr.body)
    return sorted(found, key=lambda k: (-FIX_IMPACT_WEIGHTS[k] * found[k], k))


def fix_impacts(title: str, body: str) -> dict[FixImpact, float]:
    """Impacts a fix names: 1.0 when the title says it, 0.75 when only the description does.

    A title says what the fix does, so `fix: do not crash on ...` names a crash; a description
    also tells what did not happen (`the rollout does not crash`), which names nothing.
    """
    found: dict[FixImpact, float] = {}
    if declares_no_functional_change(title):
        return found  # `[NFC] Fix format for mixed precision` (ColossalAI #4253) says so itself
    text = prose(body)
    if _NO_BEHAVIOUR_CHANGED.search(text):
        text = ""  # what the description tells is no impact any user saw; the title's still is
    for impact, pattern in _FIX_IMPACT_PATTERNS.items():
        said, told = title, text
        if impact == "regression":
            said, told = _ADDED_TEST.sub(" ", title), _ADDED_TEST.sub(" ", text)
        if pattern.search(said):
            found[impact] = 1.0
        elif _affirms(pattern, told):
            found[impact] = _DESCRIPTION_FACTOR
    return found


# ---------------------------------------------------------------------------------------------
# Parts

TYPE_WEIGHTS: dict[PrType, float] = {
    "feat": 2.0,
    "fix": 1.8,
    "perf": 1.6,
    "revert": 1.5,
    "refactor": 1.2,
    "other": 0.8,
    "chore": 0.6,
    "test": 0.6,
    "doc": 0.3,
}
BREAKING_WEIGHT = 1.5
# A PR that removes or renames settings users set breaks their configs, said or not: verl #7374
# removed the MindSpeed-LLM backend and its settings, and scored 6.6 as a feature; vllm-ascend
# #12306 removed `enable_async_exponential` (5.3). Two thirds of the marker's weight: of 28 such
# PRs read (verl, vllm-ascend, slime, torchtitan), 22 changed what users must act on; the others
# dropped fields no code read (verl #6505) or options their PR called unneeded (vllm-ascend #9668).
SETTINGS_DROPPED_WEIGHT = 1.0
SIZE_WEIGHT = 1.0  # per decade of changed lines
# Lines beyond this many add nothing: past it a change's size says more about how mechanical
# it is than how much it matters (verl #1010's move to ruff, 19,875 lines, led its week at 9.8;
# #5707 deleted 5,672 lines). The very-large-change risk flag still tells them.
SIZE_FULL_LINES = 1000
# A mechanical sweep's size counts as a change of this many lines at most (`mechanical`): verl
# #1280 "[Lint] fix: linting errors in all files" (4,130 lines, 179 files) scored 8.0 on size
# 3.0; a maintainer reads it as one line, "reformatted 179 files".
SWEEP_SIZE_LINES = 10
DOC_LINE_WEIGHT = 0.2  # a documentation line counts as a fifth of a code line
# A test's data, which a test reads or compares against (expected outputs, tokenizer assets):
# it weighs like data, though it is the tests' support. llm-compressor #453 regenerated two
# JSON files of expected results (2,574 lines) and led its week as a 7.3 key PR.
_TEST_DATA_FILES = ("**/*.json", "**/*.jsonl", "**/*.csv", "**/*.tsv", "**/*.parquet")
REMOVAL_DELETIONS_PER_ADDITION = 10  # code edits this lopsided take code out
# Fewer deleted lines are an edit, not code taken out: vllm-ascend #14248 fixed a precision bug
# by deleting two lines.
REMOVAL_MIN_LINES = 20
# A PR whose title says no type but which adds at least this many lines of code, this many
# per line it deletes, is new work: a feature. LLaMA-Factory's "[model] gemma4" (+442/-6),
# "[v1] kernel plugin", verl's "[Recipe] SPIN: spin algorithm implementation" and "Activation
# Offloading" weighed as "other" changes; gemma4, its week's second largest PR, was in no
# section of its report. 19 of the 139 untyped titles of verl's and LLaMA-Factory's histories.
NEW_WORK_MIN_LINES = 100
NEW_WORK_ADDITIONS_PER_DELETION = 4
CORE_WEIGHT = 2.5
CORE_FULL_LINES = 100  # core changes this large get the full core weight
BREADTH_WEIGHT = 0.7  # per doubling of the number of modules
FIX_IMPACT_EXTRA = 0.25  # for each impact beyond the heaviest
FIX_IMPACT_CAP = 2.0
REVIEW_THREAD_WEIGHT = 0.25
REVIEW_UNRESOLVED_WEIGHT = 0.25
REVIEW_CHANGES_REQUESTED_WEIGHT = 0.5
REVIEW_CAP = 1.5
# On top of the revert type: something merged did not hold, and a revert of a fix re-opens
# what it fixed; unless the change landed again within the revert's week, which then keeps
# both (vllm-ascend #12619 reverted #12515 and led its week at 9.9; #12650 re-landed it 14
# hours later). A re-land of a later week is unknown to the report written at the week's end.
REVERT_WEIGHT = 1.0
REVERT_OF_FIX_WEIGHT = 0.5
# A new toolchain reaches every run, as a change of all the core code does: vllm-ascend #13901
# moved every image to CANN 9.1.0 and re-pinned torch-npu and triton-ascend, and scored 4.2 as a
# chore of CI and image files.
TOOLCHAIN_WEIGHT = CORE_WEIGHT

PART_NAMES = (
    "type",
    "breaking",
    "size",
    "core",
    "breadth",
    "fix_impact",
    "review",
    "revert",
    "toolchain",
)


FileKind = Literal["doc", "vendored", "test", "data", "lock", "generated", "ci", "docker"]


def file_kind(path: str, config: ScoringConfig) -> FileKind | None:
    """What a changed file supports, in this order of precedence, or None for code."""
    table: tuple[tuple[FileKind, Sequence[str]], ...] = (
        ("doc", config.doc_paths),
        # A vendored library's tests and data are the library's too.
        ("vendored", VENDORED_FILES),
        ("test", config.test_paths),
        ("data", config.data_paths),
        ("lock", LOCK_FILES),
        ("generated", GENERATED_FILES),
        ("ci", CI_FILES),
        ("docker", DOCKERFILES),
    )
    return next((kind for kind, patterns in table if matches_any(path, patterns)), None)


def uncounted_kinds(files: Sequence[FileChange], config: ScoringConfig) -> list[UncountedKind]:
    """The kinds of file among `files` with lines that `ChangeShape.code_lines` leaves out."""
    kinds = {file_kind(f.path, config) for f in files if f.lines}
    return [kind for kind in get_args(UncountedKind) if kind in kinds]


@dataclass(frozen=True)
class ChangeShape:
    """Where a PR's changed lines are: each file counts as documentation, test, data (vendored
    code, lock files and generated code too), core or other, in that order of precedence."""

    total_lines: int
    doc_lines: int
    test_lines: int
    core_lines: int
    docs_only: bool
    data_lines: int = 0
    # Only what supports the code changed (tests, CI, image builds; docs beside them).
    support_only: bool = False
    # Lines of code, CI or image files the PR deletes outright, which weigh like docs in size,
    # as a reviewer reads them: slime #1943 deleted an unused 535-line file and scored 7.7.
    # Deleted core files still count as core lines, unless the PR takes code out (below).
    # Deleted tests weigh in full, unless they are taken out: the tests a revert takes out
    # with its change (verl #6360) are part of what it undoes.
    removed_lines: int = 0
    # Where that part of the PR takes code out (`_takes_out`): the other lines deleted from the
    # code outside tests, and those deleted from the tests; and every line deleted from core
    # files, whole deleted ones too. `score_parts` weighs them like docs, in size and in how
    # much core a change is.
    taken_out_lines: int = 0
    taken_out_core_lines: int = 0
    tests_only: bool = False  # only tests changed (docs beside them)
    # Lines added to and deleted from the code itself: not tests, CI or image builds, whose new
    # files are no feature (vllm-ascend #1623 "Record vLLM commit in PR description" added a
    # 63-line workflow beside its 52-line script).
    code_added: int = 0
    code_deleted: int = 0
    # A mechanical sweep: its title names one and its edits have a sweep's shape (`mechanical`).
    sweep: bool = False

    @property
    def code_lines(self) -> int:
        """Lines outside documentation and data files (tests and files deleted included)."""
        return self.total_lines - self.doc_lines - self.data_lines

    @property
    def core_share(self) -> float:
        """Core lines as a share of the non-test code lines: tests that come with a core
        change do not dilute it."""
        denominator = self.code_lines - self.test_lines
        return self.core_lines / denominator if denominator > 0 else 0.0


def change_shape(pr: PullRequest, config: ScoringConfig) -> ChangeShape:
    if not pr.files:
        return ChangeShape(pr.additions + pr.deletions, 0, 0, 0, docs_only=False)
    total = doc = test = data = core = removed = core_deleted = 0
    added = {"test": 0, "code": 0, "own": 0}
    deleted = {"test": 0, "code": 0, "own": 0}
    kinds = [file_kind(change.path, config) for change in pr.files]
    if documents_code_only(pr.title):
        # Docstrings are documentation in whichever file they are: AReaL #370 "doc: Add
        # docstrings for engine API" (439 lines of them in areal/api) was a 7.6 key PR flagged
        # for changing core code without tests.
        kinds = ["doc" if kind is None else kind for kind in kinds]
    for change, kind in zip(pr.files, kinds, strict=True):
        total += change.lines
        if kind == "doc":
            doc += change.lines
            continue
        if kind in ("vendored", "data", "lock", "generated") or (
            kind == "test" and matches_any(change.path, _TEST_DATA_FILES)
        ):  # like data: no measure of the work
            data += change.lines
            continue
        part = "test" if kind == "test" else "code"
        added[part] += change.additions or 0
        deleted[part] += change.deletions or 0
        if kind is None:
            added["own"] += change.additions or 0
            deleted["own"] += change.deletions or 0
        if kind == "test":
            test += change.lines
            continue
        if change.status == "removed":
            removed += change.lines
        if matches_any(change.path, config.core_paths):
            core += change.lines
            core_deleted += change.deletions or 0
    docs_only = all(kind == "doc" for kind in kinds)
    support_only = not docs_only and all(kind in ("doc", "test", "ci", "docker") for kind in kinds)
    tests_only = not docs_only and all(kind in ("doc", "test") for kind in kinds)
    code_taken_out = _takes_out(added["code"], deleted["code"])
    taken_out = deleted["code"] - removed if code_taken_out else 0
    if _takes_out(added["test"], deleted["test"]):
        taken_out += deleted["test"]
    sweep = names_mechanical_rewrite(pr.title) and is_sweep(pr.files, kinds)
    return ChangeShape(
        total,
        doc,
        test,
        core,
        docs_only,
        data,
        support_only,
        removed,
        taken_out,
        core_deleted if code_taken_out else 0,
        tests_only,
        added["own"],
        deleted["own"],
        sweep,
    )


def _takes_out(added: int, deleted: int) -> bool:
    """Whether lines deleted and added take code out rather than change it: at least
    REMOVAL_MIN_LINES deleted, and REMOVAL_DELETIONS_PER_ADDITION per line added. verl #6307
    (+11/-94) rewrote a quantization with one fused call, which is no removal."""
    return deleted >= REMOVAL_MIN_LINES and added * REMOVAL_DELETIONS_PER_ADDITION <= deleted


def _code_places(pr: PullRequest, config: ScoringConfig) -> set[str]:
    """The folders two levels deep (or top-level files) of the code a PR changes: not its
    documentation, tests, CI, image builds, data or lock files."""
    places = set()
    for change in pr.files:
        if file_kind(change.path, config) is None:
            parts = change.path.split("/")
            places.add("/".join(parts[:2]) if len(parts) > 2 else parts[0])
    return places


# The kinds of change a PR that changes no behaviour can be.
_NO_BEHAVIOUR_TYPES: frozenset[PrType] = frozenset({"refactor", "chore", "doc", "test"})


def pr_type(pr: PullRequest, shape: ChangeShape) -> PrType:
    """The kind of change a PR is: a revert; documentation when it changes documentation
    alone, whatever its title's verb says (verl's `[doc] chore: NPU model migration guidance`,
    `[doc] refactor: ascend doc refactor ...`: a week's NPU PRs read "8 chores, 6 refactors",
    mostly docs); else the type its title says. A title that says none is a test change when
    the PR changes only tests, upkeep when only tests, CI and image builds: 22 of torchtitan's
    242 untyped PRs (#2855 "Skip GPU CI workflows for draft PRs ...", #3157 "Use
    CrossEntropyLoss for torchcomms 3D compile tests"); upkeep too when it names mechanical work
    alone (`names_mechanical_rewrite`). One that adds much new code and takes little out is a
    feature (`NEW_WORK_MIN_LINES`). A PR whose title says it changes no behaviour
    (`declares_no_functional_change`) is upkeep unless its title calls it a refactor, docs or
    tests."""
    if pr.is_revert:
        return "revert"
    if shape.docs_only:
        return "doc"
    said = change_kind(pr.title, pr.body).type
    if declares_no_functional_change(pr.title) and said not in _NO_BEHAVIOUR_TYPES:
        # No feature, fix or speed-up changes no behaviour: ColossalAI's `[NFC] polish doc
        # style for ColoTensor` (#1457, 270 new lines) was a key feature, `[nfc] fix typo
        # colossalai/pipeline tensor nn` (#3899) a key fix; 164 of its 213 [NFC] PRs say
        # "polish ... style".
        return "chore"
    if said == "other" and names_mechanical_rewrite(pr.title):
        # AReaL #559 "format: ruff format examples directory" and slime #1021 "pre-commit run
        # --all-files" read as "other changes".
        return "chore"
    if said == "other" and shape.support_only:
        return "test" if shape.tests_only else "chore"
    if said == "other" and _new_work(shape) and _may_be_a_feature(pr.title):
        return "feat"
    return said


def _may_be_a_feature(title: str) -> bool:
    """Whether a title's tags name no type, or a feature among the types that, disagreeing,
    left it untyped: new code of a fix and a refactor is no feature (vllm-ascend #10102
    "[BugFix][Refactor] Reduce Mooncake KV cache register regions for sparse C8", +289/-38);
    #11431 "[Feature][Refactor] DSv4 DSpark" is one."""
    said = {tag_type(tag) for tag in parse_title(title).prefix_tags} - {None}
    return not said or "feat" in said


def _new_work(shape: ChangeShape) -> bool:
    added, deleted = shape.code_added, shape.code_deleted
    return added >= NEW_WORK_MIN_LINES and added >= NEW_WORK_ADDITIONS_PER_DELETION * deleted


def score_parts(
    pr: PullRequest,
    modules: Sequence[str],
    config: ScoringConfig,
    *,
    review: PrReview | None = None,
    reverted_pr: PullRequest | None = None,
    shape: ChangeShape | None = None,
    requirement_changes: Sequence[SettingChange] = (),
    relanded: bool = False,
) -> dict[str, float]:
    """The raw score's parts for one PR, in raw units (they sum to the raw score). `shape` is
    the PR's `change_shape`, where the caller has it already; `requirement_changes` its
    compared setting changes (`config_diff`'s, each with its path), of which the requirements
    of dependency manifests and the settings its configuration files remove or rename count;
    `relanded`, for a revert, that the change it undid landed again by the end of its week
    (`score_week`)."""
    info = change_kind(pr.title, pr.body)
    shape = change_shape(pr, config) if shape is None else shape
    kind = pr_type(pr, shape)
    parts = dict.fromkeys(PART_NAMES, 0.0)

    parts["type"] = TYPE_WEIGHTS[kind]
    if shape.docs_only:  # a revert of documentation too
        parts["type"] = TYPE_WEIGHTS["doc"]
    elif shape.support_only:
        # A new E2E suite or CI job is not a feature of the code (vllm-ascend's "[CI] Add
        # weekly accuracy tests for ..." scored as key features: 114 of its key PRs), nor is
        # taking one out again a revert of the code (the revert part still counts).
        parts["type"] = min(TYPE_WEIGHTS[kind], TYPE_WEIGHTS["test"])
    if info.breaking:
        parts["breaking"] = BREAKING_WEIGHT
    elif dropped_settings(pr, config, requirement_changes):  # as its config flag says them
        parts["breaking"] = SETTINGS_DROPPED_WEIGHT
    # Code taken out is read, and reviewed, like docs: the lines weigh like docs in size and in
    # how much core a change is. vllm-ascend #12440 (+3/-450) took out an obsolete patch with
    # its test and scored 8.8, 9th of its week's 104 PRs, on the deleted lines. Not a revert's:
    # what it takes out is what it undoes (verl #6360). A removal users meet is breaking, and
    # that part still counts.
    undoes = kind == "revert"
    # So is a change its title says changes no behaviour (`[NFC]`, a linter's fixes, docs):
    # ColossalAI's `[NFC] polish colossalai/nn/layer/parallel_sequence/layers.py code style`
    # (#1280, 79 lines of one core file) stayed a key PR on its lines once it was no fix.
    unchanged = declares_no_functional_change(pr.title)
    light_lines = (
        shape.code_lines
        if unchanged
        else shape.removed_lines + (0 if undoes else shape.taken_out_lines)
    )
    effective_lines = (
        shape.code_lines
        - light_lines
        + DOC_LINE_WEIGHT * (shape.doc_lines + shape.data_lines + light_lines)
    )
    full_lines = SWEEP_SIZE_LINES if shape.sweep else SIZE_FULL_LINES
    parts["size"] = SIZE_WEIGHT * math.log10(1 + min(effective_lines, full_lines))
    if shape.core_lines:
        # The share says where the change is; the damping how much of the core it changes.
        share = shape.core_share
        core_lines: float = shape.core_lines
        if unchanged:
            core_lines *= DOC_LINE_WEIGHT
        elif not undoes:
            core_lines -= (1 - DOC_LINE_WEIGHT) * shape.taken_out_core_lines
        damping = min(1.0, math.log10(1 + core_lines) / math.log10(1 + CORE_FULL_LINES))
        parts["core"] = CORE_WEIGHT * share * damping
    # As many areas as both its modules and its code say: `[BugFix][CUDA]` spans one area, and
    # verl #5548's `[perf, trainer, training_utils]` changed one file.
    breadth = min(len(set(areas_of(modules))), len(_code_places(pr, config)))
    parts["breadth"] = BREADTH_WEIGHT * math.log2(breadth) if breadth > 1 else 0.0

    if kind == "fix":
        impacts = fix_impacts(pr.title, pr.body)
        if impacts:
            weighted = sorted((FIX_IMPACT_WEIGHTS[k] * f for k, f in impacts.items()), reverse=True)
            parts["fix_impact"] = min(
                FIX_IMPACT_CAP, weighted[0] + FIX_IMPACT_EXTRA * (len(weighted) - 1)
            )

    if review is not None:
        human = len(review.human_threads)
        bots = len(review.threads) - human
        review_part = REVIEW_THREAD_WEIGHT * (human + 0.5 * bots)
        review_part += REVIEW_UNRESOLVED_WEIGHT * min(2, len(review.unresolved))
        if review.authors_with_state("CHANGES_REQUESTED"):
            review_part += REVIEW_CHANGES_REQUESTED_WEIGHT
        parts["review"] = min(REVIEW_CAP, review_part)

    if pr.is_revert and not relanded:
        parts["revert"] = REVERT_WEIGHT
        if (
            reverted_pr is not None
            and change_kind(reverted_pr.title, reverted_pr.body).type == "fix"
        ):
            parts["revert"] += REVERT_OF_FIX_WEIGHT
    if upgrades_toolchain(pr, requirement_changes):
        parts["toolchain"] = TOOLCHAIN_WEIGHT
    return {name: round(value, 4) for name, value in parts.items()}


def upgrades_toolchain(pr: PullRequest, requirement_changes: Sequence[SettingChange]) -> bool:
    """Whether a PR moves what the project runs on: it re-pins a requirement of the project's
    own install (`runtime_repins`) and edits the images it is built into (Dockerfiles). A pin
    alone moves one library (verl #65 re-pinned ray beside a fix), and an image alone what one
    image holds (verl #6269 bumped a CI image)."""
    if not runtime_repins(requirement_changes):
        return False
    return any(
        change.edits_content and matches_any(change.path, DOCKERFILES) for change in pr.files
    )


def reverted_target(
    pr: PullRequest, known: Mapping[int, PullRequest]
) -> tuple[int | None, PullRequest | None]:
    """The number of the PR a revert undoes and, when known, that PR."""
    revert = read_revert(pr.title, pr.body)
    if not pr.is_revert and revert is None and parse_title(pr.title).type != "revert":
        return None, None
    number = pr.reverted_number
    if number is None and revert is not None:
        number = reverted_number(
            revert, titles_before(known.values(), pr), merge_commits(known.values())
        )
    if number is None:
        number = reverted_by_mention(pr, known.values())
    return number, (known.get(number) if number is not None else None)


def resolve_revert(pr: PullRequest, known: Mapping[int, PullRequest]) -> PullRequest:
    """The PR with `is_revert`/`reverted_number` filled in from its text when the source did not.

    A title that only says "Revert" in words, with no quoted title, no revert body and no
    earlier PR it names, sets something back by hand: tilelang #11 "[Doc] Revert repo link"
    edits two links, and was flagged as a revert whose PR could not be identified (10 such PRs
    in tilelang and slime, none a revert of a PR)."""
    number, _ = reverted_target(pr, known)
    if number is None and not pr.is_revert and read_revert(pr.title, pr.body) is None:
        return pr
    return pr.model_copy(update={"is_revert": True, "reverted_number": number})


# ---------------------------------------------------------------------------------------------
# Calibration


class ScoreCalibration(BaseModel):
    """Maps a raw score to 0-10 by its percentile in the repository's history.

    `raw_points` are distinct raw scores in increasing order and `percentiles` the mid-rank
    percentile (0-100) of each in the history; between points the map is linear, below the
    first 0 and above the last 10. With too short a history ("fixed"), a raw score's percentile
    is read off a typical repository's history instead (`TYPICAL_RAW_POINTS`), and the report
    says the scores are not calibrated on this repository's.
    """

    model_config = ConfigDict(frozen=True)

    method: Literal["history", "fixed"]
    history_size: int = Field(ge=0)
    raw_points: list[float] = Field(default_factory=list)
    percentiles: list[float] = Field(default_factory=list)

    def importance(self, raw: float) -> float:
        """0-10 with one decimal; non-decreasing in `raw`."""
        if self.method == "fixed" or not self.raw_points:
            return _importance_at(raw, TYPICAL_RAW_POINTS, TYPICAL_PERCENTILES)
        return _importance_at(raw, self.raw_points, self.percentiles)


def _importance_at(raw: float, points: Sequence[float], percentiles: Sequence[float]) -> float:
    if raw <= points[0]:
        value = percentiles[0] / 10.0 if raw == points[0] else 0.0
    elif raw >= points[-1]:
        value = percentiles[-1] / 10.0 if raw == points[-1] else 10.0
    else:
        i = bisect.bisect_right(points, raw)
        x0, x1 = points[i - 1], points[i]
        y0, y1 = percentiles[i - 1], percentiles[i]
        value = (y0 + (y1 - y0) * (raw - x0) / (x1 - x0)) / 10.0
    return round(min(10.0, max(0.0, value)), 1)


# A typical repository's raw scores at these percentiles: the median, percentile by percentile,
# of ten repositories' last year of PRs (verl, llm-compressor, slime, torchtitan, vllm-ascend,
# LLaMA-Factory, TransformerEngine, VeOmni, AReaL, NeMo RL). The former fixed scale (raw 12 is
# 10.0) made a PR key from raw 8.4, which at most 0.3% of any of them reach: llm-compressor's
# first three stored weeks (from 2026-01-26) read 0 key PRs of 25, and 6 once a year of
# history is stored. On this scale their years' key shares are 16-54% (calibrated: 30%).
TYPICAL_PERCENTILES = (0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0)
TYPICAL_RAW_POINTS = (0.38, 1.3, 2.05, 2.47, 2.88, 3.32, 3.7, 4.08, 4.49, 4.97, 6.2)


MIN_CALIBRATION_HISTORY = 30
_CALIBRATION_POINTS = 200  # enough for one decimal; keeps the JSON small
# A week is calibrated on the PRs merged in the CALIBRATION_WEEKS weeks up to and including it,
# and at least the CALIBRATION_MIN_PRS latest by its end (a quiet repository's year holds too
# few). Not on the whole stored history: what a repository's PRs look like drifts (verl's
# title convention, enforced from mid-2025, raised the type and core parts, and the share of
# key PRs rose from 18% a quarter to 46% against one all-history scale), a backfill and the
# weekly runs that kept a warehouse up to date scored a week differently (2025-06-02: 11 and 16
# key PRs), and a week's scores moved as later weeks were stored. Over the year up to it, a
# week scores the same whenever it is run; verl's key share stays within 30-41% a quarter.
CALIBRATION_WEEKS = 52
CALIBRATION_MIN_PRS = 200


def calibration_slice(merged_at: Sequence[datetime], start: datetime, end: datetime) -> slice:
    """Which PRs of a history in merge order (`merged_at` sorted) a week's calibration is fitted
    on: those merged in [start, end), and at least the CALIBRATION_MIN_PRS latest before end."""
    last = bisect.bisect_left(merged_at, end)
    first = bisect.bisect_left(merged_at, start)
    return slice(min(first, max(0, last - CALIBRATION_MIN_PRS)), last)


@dataclass(frozen=True)
class RawHistory:
    """Stored PRs' raw scores in merge order, worked out once for a run's calibrations."""

    merged_at: list[datetime]
    raw_scores: list[float]

    def calibration(self, start: datetime, end: datetime) -> ScoreCalibration:
        """The calibration of a week whose year runs from `start` to `end` (its own end)."""
        return _fit(self.raw_scores[calibration_slice(self.merged_at, start, end)])


def raw_history(
    history: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    config: ScoringConfig,
    reviews: Mapping[int, PrReview] | None = None,
    since: datetime | None = None,
    requirement_changes: Mapping[int, Sequence[SettingChange]] | None = None,
    weeks: Iterable[Collection[int]] = (),
) -> RawHistory:
    """The raw scores of a repository's stored PRs, with their review parts where `reviews`
    has the PR (a PR of a week with review data; see `reviews_by_pr`): the weeks scored with
    review data are then placed on a scale that has it too. Left out, every PR reviewed at
    all rose above the scale's PRs of equal worth (up to 1.5 raw).

    Only the PRs merged at or after `since` are scored, when given (`calibration_since`: the
    earliest a run's weeks are calibrated on); the others still resolve their reverts.
    `requirement_changes` are the PRs' compared setting changes, by number (see `score_parts`).
    `weeks` are the stored weeks' PRs, by number: a revert whose change landed again within
    its week is scored as its week scores it (`relanded_in_weeks`)."""
    known = {pr.number: pr for pr in history}
    ordered = sorted(
        (pr for pr in history if since is None or pr.merged_at >= since),
        key=lambda pr: (pr.merged_at, pr.number),
    )
    return RawHistory(
        merged_at=[pr.merged_at for pr in ordered],
        raw_scores=_history_raw_scores(
            ordered, modules, config, reviews or {}, known, requirement_changes or {}, weeks
        ),
    )


def calibration_since(
    merged_at: Sequence[datetime], spans: Iterable[tuple[datetime, datetime]]
) -> datetime | None:
    """The earliest merge time any of the weeks whose years are `spans` is calibrated on, in a
    history of `merged_at` (sorted); None when none of them has a PR to calibrate on. Later
    weeks' slices never start earlier, so a `raw_history` since then calibrates them all."""
    starts = [
        merged_at[chosen.start]
        for chosen in (calibration_slice(merged_at, start, end) for start, end in spans)
        if chosen.start < chosen.stop
    ]
    return min(starts, default=None)


def fit_calibration(
    history: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    config: ScoringConfig,
) -> ScoreCalibration:
    """Fit the raw-to-importance map on all of `history`, as if it were one week's year: for a
    history already cut to what a week is calibrated on (the pipeline and its benchmark cut
    it with `RawHistory.calibration`)."""
    return _fit(_history_raw_scores(history, modules, config))


def _fit(raw_scores: Sequence[float]) -> ScoreCalibration:
    raws = sorted(raw_scores)
    if len(raws) < MIN_CALIBRATION_HISTORY:
        return calibration_outline(len(raws))
    n = len(raws)
    points: list[float] = []
    percentiles: list[float] = []
    start = 0
    while start < n:
        end = bisect.bisect_right(raws, raws[start])
        points.append(raws[start])
        percentiles.append(100.0 * (start + end) / 2.0 / n)  # mid-rank of the ties
        start = end
    if len(points) > _CALIBRATION_POINTS:
        keep = sorted(
            {
                round(i * (len(points) - 1) / (_CALIBRATION_POINTS - 1))
                for i in range(_CALIBRATION_POINTS)
            }
        )
        points = [points[i] for i in keep]
        percentiles = [percentiles[i] for i in keep]
    return ScoreCalibration(
        method="history",
        history_size=n,
        raw_points=[round(p, 4) for p in points],
        percentiles=[round(p, 3) for p in percentiles],
    )


def calibration_outline(history_size: int) -> ScoreCalibration:
    """The calibration `fit_calibration` gives a history of `history_size` PRs, without its
    points: whether scores are calibrated and on how many PRs, which is all a report says of
    the scale, at none of the cost of scoring every stored PR."""
    if history_size < MIN_CALIBRATION_HISTORY:
        return ScoreCalibration(method="fixed", history_size=history_size)
    return ScoreCalibration(method="history", history_size=history_size)


def _history_raw_scores(
    history: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    config: ScoringConfig,
    reviews: Mapping[int, PrReview] | None = None,
    known: Mapping[int, PullRequest] | None = None,
    requirement_changes: Mapping[int, Sequence[SettingChange]] | None = None,
    weeks: Iterable[Collection[int]] = (),
) -> list[float]:
    known = {pr.number: pr for pr in history} if known is None else known
    prepared = [resolve_revert(pr, known) for pr in history]
    relanded = relanded_in_weeks(prepared, known, weeks)
    return [
        sum(
            score_parts(
                pr,
                modules.get(pr.number, ()),
                config,
                review=(reviews or {}).get(pr.number),
                reverted_pr=known.get(pr.reverted_number) if pr.reverted_number else None,
                requirement_changes=(requirement_changes or {}).get(pr.number, ()),
                relanded=pr.number in relanded,
            ).values()
        )
        for pr in prepared
    ]


def reverted_prs(
    prs: Sequence[PullRequest], known: Mapping[int, PullRequest]
) -> dict[int, list[int]]:
    """`undone_prs` of `prs`, their reverts resolved (`resolve_revert`) against `known` and
    each other."""
    known = {**known, **{pr.number: pr for pr in prs}}
    return undone_prs([resolve_revert(pr, known) for pr in prs], known)


def undone_prs(
    prepared: Sequence[PullRequest], known: Mapping[int, PullRequest]
) -> dict[int, list[int]]:
    """For each revert among the resolved `prepared` whose reverted PR is identified, the PRs
    it undoes: the one its text names first, then the others a revert of several names
    (`also_reverted`: torchtitan #3212 "Revert precompile PRs (#3107, #3178) to fix CI")."""
    return {
        pr.number: [pr.reverted_number, *also_reverted(pr, pr.reverted_number, known.values())]
        for pr in prepared
        if pr.is_revert and pr.reverted_number is not None
    }


# ---------------------------------------------------------------------------------------------
# Scoring a week


def relanded_in_week(week: Sequence[PullRequest], known: Mapping[int, PullRequest]) -> set[int]:
    """The reverts of `week` (resolved: `resolve_revert`) each of whose reverted PRs a later PR
    of the same week landed again (`relanding`; torchtitan #3212 reverted #3107 and #3178, and
    #3213 and #3214 re-landed them). Only the week's own PRs count, so a week scores the same
    whenever its report is written."""
    candidates = {pr.number: pr for pr in week}
    return {
        revert
        for revert, undone in undone_prs(week, known).items()
        if undone[0] in known
        and all(
            relanding(revert, number, {**candidates, number: known[number]}) is not None
            for number in undone
        )
    }


def relanded_in_weeks(
    prepared: Sequence[PullRequest],
    known: Mapping[int, PullRequest],
    weeks: Iterable[Collection[int]],
) -> set[int]:
    """`relanded_in_week` of each of `weeks` (its PRs' numbers), among the resolved `prepared`:
    the calibration's history scores a revert as its week scored it. Scored as kept, verl's 6
    reverts re-landed within their week sat on the scale 1.0 to 1.5 raw above the score their
    weeks gave them (#5525 at 6.7 against 5.7: #5528 landed #5149 again 3 hours later); a
    re-land of a later week (#7327, two weeks after #7173) leaves its revert's week as it
    was, and the scale too."""
    by_number = {pr.number: pr for pr in prepared}
    relanded: set[int] = set()
    for numbers in weeks:
        week = [by_number[n] for n in numbers if n in by_number]
        if any(pr.is_revert for pr in week):
            relanded |= relanded_in_week(week, known)
    return relanded


# A batch of PRs landed together long after they were written (a rebased branch,
# `PullRequest.batch_written_at`) is scored PR by PR, but its key PRs are at most the
# BATCH_KEY_LIMIT highest: ColossalAI's pipeline branch (2023-08-15) made 40 of its 54 PRs
# key and its week 41 key of 57, a list that picks nothing out; its other weeks with PRs had
# 11 key PRs or fewer in 9 of 10 (median 4).
BATCH_KEY_LIMIT = 10


def _limit_batch_keys(scores: Sequence[PrScore], prs: Sequence[PullRequest]) -> list[PrScore]:
    """`scores` (highest first) with the key PRs of each batch (its PRs of one landing time)
    past its BATCH_KEY_LIMIT highest not key."""
    batch_of = {pr.number: pr.merged_at for pr in prs if pr.batch_written_at is not None}
    keys_kept: Counter[datetime] = Counter()
    limited = []
    for score in scores:
        landed_at = batch_of.get(score.number)
        if score.is_key and landed_at is not None:
            keys_kept[landed_at] += 1
            if keys_kept[landed_at] > BATCH_KEY_LIMIT:
                score = score.model_copy(update={"is_key": False})
        limited.append(score)
    return limited


def score_week(
    prs: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    review_data: ReviewData,
    config: ScoringConfig,
    calibration: ScoreCalibration,
    history_by_number: Mapping[int, PullRequest] | None = None,
    requirement_changes: Mapping[int, Sequence[SettingChange]] | None = None,
) -> list[PrScore]:
    """Scores for one week's PRs, highest first (ties by PR number); `requirement_changes` are
    their compared setting changes, by number (see `score_parts`). A PR is key from the key
    threshold up, but for those of a batch past its BATCH_KEY_LIMIT highest."""
    known: dict[int, PullRequest] = dict(history_by_number or {})
    known.update({pr.number: pr for pr in prs})
    prepared = [resolve_revert(pr, known) for pr in prs]
    relanded = relanded_in_week(prepared, known)
    reviews = reviews_by_pr(review_data)
    scores = []
    for pr in prepared:
        review = reviews.get(pr.number, PrReview()) if review_data.available else None
        reverted_pr = known.get(pr.reverted_number) if pr.reverted_number else None
        shape = change_shape(pr, config)
        parts = score_parts(
            pr,
            modules.get(pr.number, ()),
            config,
            review=review,
            reverted_pr=reverted_pr,
            shape=shape,
            requirement_changes=(requirement_changes or {}).get(pr.number, ()),
            relanded=pr.number in relanded,
        )
        raw = round(sum(parts.values()), 4)
        importance = calibration.importance(raw)
        info = change_kind(pr.title, pr.body)
        impacts = ranked_fix_impacts(pr) if parts["fix_impact"] else []
        scores.append(
            PrScore(
                number=pr.number,
                importance=importance,
                raw_score=raw,
                parts=parts,
                is_key=importance >= config.key_threshold,
                pr_type=pr_type(pr, shape),
                breaking=info.breaking,
                fix_impacts=impacts,
            )
        )
    scores.sort(key=lambda s: (-s.raw_score, s.number))
    return _limit_batch_keys(scores, prs)
