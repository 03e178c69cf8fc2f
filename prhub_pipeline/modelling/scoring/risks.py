"""Risk flags: rules over a week's PRs, each flag carrying the evidence that raised it.

Every flag has an English `detail` (stored, queryable) and the structured facts behind it
(`related`, `paths`, `asks`, `lines`, `modules`), from which the report writes its own sentences
in each language. A rule only says what the data shows: a revert "re-opens" an issue only
when the reverted PR said it fixed that issue.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack, get_args

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import (
    DELETED_USER,
    REMOVAL_DELETIONS_PER_ADDITION,
    ChangeShape,
    PrReview,
    change_shape,
    declares_no_functional_change,
    is_bot,
    resolve_revert,
    reviews_by_pr,
    uncounted_kinds,
    undone_prs,
)
from prhub_pipeline.modelling.scoring.known_gaps import MAX_GAPS, deferrals, stated_gaps
from prhub_pipeline.modelling.scoring.repeats import Repeat, repeats
from prhub_pipeline.modelling.scoring.requirement_edits import ENGLISH, describe, requirement_edits
from prhub_pipeline.modelling.scoring.user_settings import setting_edits, settings_outcome
from prhub_pipeline.modelling.tagging.tags import areas_of
from prhub_pipeline.modelling.text.pr_descriptions import clean_description
from prhub_pipeline.modelling.text.pr_summaries import prose, shorten
from prhub_pipeline.modelling.text.pr_titles import change_kind, closing_references, parse_title
from prhub_pipeline.paths import (
    CI_FILES,
    DEPENDENCY_FILES,
    DOCKER_FILES,
    GENERATED_FILES,
    VENDORED_FILES,
    matches_any,
    rendered_path,
)
from prhub_pipeline.records import (
    ConfigFileDiff,
    FileChange,
    PrComment,
    PullRequest,
    PushedCommit,
    ReviewAsk,
    ReviewData,
    ReviewThread,
    RiskFlag,
    RiskKind,
    SettingChange,
    Severity,
    UncountedKind,
)

RISK_ORDER: tuple[RiskKind, ...] = get_args(RiskKind)  # most serious first
SEVERITY: dict[RiskKind, Severity] = {
    "revert": "high",
    "reverted": "high",
    "breaking_change": "high",
    "unresolved_review": "high",
    "core_without_tests": "medium",
    "tests_disabled": "medium",
    "no_approval": "medium",
    "large_change": "medium",
    "cross_cutting": "medium",
    "config_default_change": "medium",
    "dependency_change": "medium",
    "repeated_fix": "medium",
    "known_gap": "low",
    "docker_change": "low",
    "ci_change": "low",
}

# A line that opens with "Breaking change(s)" as a heading, a label or a sentence
# (`## Breaking Changes`, `**Breaking Changes:**`, `Breaking changes: X is now ...`, verl #362),
# with what follows it; unless what follows says there is none or points at another project.
_BREAKING_BODY = re.compile(
    r"^[ \t]*(?:[#>*-]+[ \t]*)?(?:\*\*)?breaking[ -]changes?\b(?P<what>[^\n]*(?:\n\s*[^\n]*)?)",
    re.MULTILINE | re.IGNORECASE,
)
_NO_BREAKING = re.compile(
    r"^[\W_]*(?:none|no|n/?a|nothing)\b|there (?:are|is) no\b|\bno breaking\b|\bnot\b"
    r"|^\W*in https?://",
    re.IGNORECASE,
)
_MAX_PATHS = 3
MAX_SETTINGS = 3  # setting changes a sentence names
SHOWN_VALUE_CHARS = 40  # longer values are cut to the part that changed
_VALUE_CONTEXT = 8  # characters kept around that part
_MAX_ASKS = 3
_NO_LINES = ChangeShape(0, 0, 0, 0, docs_only=False)


def flag_risks(
    prs: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    review_data: ReviewData,
    config: ScoringConfig,
    history_by_number: Mapping[int, PullRequest] | None = None,
    config_diffs: Sequence[ConfigFileDiff] = (),
    *,
    check_approvals: bool = True,
    pushed: Sequence[PushedCommit] = (),
) -> list[RiskFlag]:
    """All risk flags of one week's PRs, most serious first.

    `config_diffs` are the settings the PRs changed in their configuration files, as ingest
    compared them; a configuration file without one (stored before settings were compared)
    is judged by its line counts alone. `pushed` are the week's commits pushed without a PR:
    one that reverts a PR of the week flags it as reverted, as a revert PR would.
    `check_approvals=False` skips "merged without approval" for review data that has threads
    but not review states (hand-collected excerpts).
    """
    known: dict[int, PullRequest] = dict(history_by_number or {})
    known.update({pr.number: pr for pr in prs})
    prepared = [resolve_revert(pr, known) for pr in prs]
    undone = undone_prs(prepared, known)
    reverters: dict[int, PullRequest] = {}
    for pr in sorted(prepared, key=lambda pr: pr.merged_at):
        for number in undone.get(pr.number, ()):
            reverters.setdefault(number, pr)
    # A PR reverted by a PR too is flagged once, by that PR, whose revert flag tells the chain:
    # OpenRLHF pushed the revert of #278 a minute before #281 landed it again, empty.
    pushed_reverters: dict[int, PushedCommit] = {}
    for commit in sorted(pushed, key=lambda commit: commit.committed_at):
        target = commit.reverted_number
        if target is not None and target not in reverters:
            pushed_reverters.setdefault(target, commit)
    reviews = reviews_by_pr(review_data)
    comments = defaultdict(list)
    for comment in review_data.comments:
        comments[comment.pr_number].append(comment)
    diffs = {(d.pr_number, d.path): d for d in config_diffs}
    pr_types = {pr.number: change_kind(pr.title, pr.body).type for pr in prepared}
    repeated = repeats([pr for pr in prepared if pr_types[pr.number] == "fix"], pr_types, known)
    flags: list[RiskFlag] = []
    for pr in prepared:
        pr_modules = list(dict.fromkeys(areas_of(modules.get(pr.number, ()))))
        review = reviews.get(pr.number, PrReview())
        flags.extend(
            _revert_flags(pr, known, reverters, pushed_reverters, undone.get(pr.number, [])[1:])
        )
        flags.extend(_breaking_flags(pr))
        if review_data.available:
            flags.extend(_unresolved_flags(pr, review))
            if check_approvals:
                flags.extend(_approval_flags(pr, review))
        flags.extend(_path_flags(pr, pr_modules, config, diffs))
        flags.extend(_disabled_test_flags(pr, config))
        flags.extend(_gap_flags(pr, review, comments.get(pr.number, [])))
        flags.extend(_repeated_fix_flags(pr, repeated.get(pr.number), known))
    flags.sort(key=lambda f: (RISK_ORDER.index(f.risk), f.number))
    return flags


class _FlagEvidence(TypedDict, total=False):
    """RiskFlag's evidence fields, for `_flag`'s keywords to be type-checked as RiskFlag's."""

    related: list[int]
    also_reverted: list[int]
    reverted_by_commit: str
    paths: list[str]
    files: list[str]
    asks: list[ReviewAsk]
    lines: int | None
    test_lines: int | None
    uncounted: list[UncountedKind]
    modules: list[str]
    settings: list[SettingChange]
    uncompared_paths: list[str]
    deleted_paths: list[str]
    quotes: list[str]


def _flag(
    pr: PullRequest, risk: RiskKind, detail: str, **evidence: Unpack[_FlagEvidence]
) -> RiskFlag:
    return RiskFlag(number=pr.number, risk=risk, severity=SEVERITY[risk], detail=detail, **evidence)


def _revert_flags(
    pr: PullRequest,
    known: Mapping[int, PullRequest],
    reverters: Mapping[int, PullRequest],
    pushed_reverters: Mapping[int, PushedCommit],
    also: Sequence[int],
) -> list[RiskFlag]:
    flags = []
    if pr.is_revert:
        target = known.get(pr.reverted_number) if pr.reverted_number else None
        if pr.reverted_number is None:
            detail = (
                "reverts a change whose PR could not be identified from the title or description"
            )
            related: list[int] = []
        elif target is None:
            detail = f"reverts #{pr.reverted_number} (not in the loaded history)"
            related = [pr.reverted_number]
        else:
            reopened = [n for n in closing_references(target.title, target.body) if n != pr.number]
            detail = (
                f'reverts #{target.number} "{shorten(target.title, 90)}"'
                f" (merged {target.merged_at:%Y-%m-%d})"
            )
            if reopened:
                refs = ", ".join(f"#{n}" for n in reopened)
                detail += f", which fixed {refs}: {refs} is no longer fixed by it"
            related = [target.number, *reopened]
        if also:
            detail += f"; it also reverts {', '.join(f'#{n}' for n in also)}"
        flags.append(
            _flag(
                pr,
                "revert",
                detail,
                related=related,
                also_reverted=list(also),
                paths=_top_paths(pr.files),
            )
        )
    reverter = reverters.get(pr.number)
    if reverter is not None:
        flags.append(
            _flag(
                pr,
                "reverted",
                f"reverted by #{reverter.number} (merged {reverter.merged_at:%Y-%m-%d})",
                related=[reverter.number],
            )
        )
    pushed_reverter = pushed_reverters.get(pr.number)
    if pushed_reverter is not None:
        flags.append(
            _flag(
                pr,
                "reverted",
                f"reverted by commit {pushed_reverter.sha[:9]}, pushed without a PR"
                f" ({pushed_reverter.committed_at:%Y-%m-%d})",
                reverted_by_commit=pushed_reverter.sha,
            )
        )
    return flags


def _breaking_flags(pr: PullRequest) -> list[RiskFlag]:
    if parse_title(pr.title).breaking:
        return [_flag(pr, "breaking_change", "the title carries a breaking-change marker")]
    if change_kind(pr.title, pr.body).breaking:
        return [_flag(pr, "breaking_change", "the description ticks its breaking-change box")]
    for declared in _BREAKING_BODY.finditer(clean_description(pr.body)):
        if not _NO_BREAKING.search(declared.group("what")[:160]):
            return [_flag(pr, "breaking_change", "the description declares a breaking change")]
    return []


# A title that says the PR skips or disables tests, CI jobs or test cases: the verb opens the
# title or a clause of it, and its object ends in such a word or a test file before anything
# else is said (`temporarily skip graph mode precision e2e test`, `Skip test_x.py::test_y to
# make CI pass`, `... and disable nightly test`). Skipping other things a test or CI does is
# not (`Skip e2e log summary when ...`, `disable pip cache for ci`, `Disable early exit to
# complete all tests`), nor is undoing a skip (`Re-enable ...`, `fix skipped ut`). The object
# also ends where a parenthesis, a sentence or a clause on why begins (torchtitan #3588's
# "Skip `test_eager_self_deterministic` (`test_bitwise_deterministic.py`) The six ...",
# #3432's "Skip tests broken by upstream PyTorch nightly regressions"), and failures are
# tests (#4048 "Skip GraphTrainer H100 FSDP toposort failure", but not `skip on failure`);
# "Temp" opens one too (#2854 "Temp Disable Numerical test ..."), and quarantining is
# disabling (#3588).
_DISABLES = re.compile(
    r"(?:^|[,;:]\s*|\band\s+)(?P<temporary>temp(?:orar(?:il)?y)?\s+)?"
    r"(?:skip(?:s|ping)?|disabl(?:e|es|ing)|comment(?:s|ing)?\s+out|turn(?:s|ing)?\s+off|xfail"
    r"|quarantin(?:e|es|ing)|(?P<removal>remov(?:e|es|ing)|delet(?:e|es|ing)))"
    r"\s+(?!(?:on|upon|after|when|if)\b)(?P<what>.+?)\s*"
    r"(?=\b(?:to|for|when|if|because|due|as|so|since|until|on|in|with|from|temporar(?:il)?y"
    r"|and|but|that|which|(?:broken|blocked|failing)\s+(?:by|on|in|with|since))\b"
    r"|[,;:]|(?<=\s)\(|[.!?](?:\s|$)|$)",
    re.IGNORECASE,
)
_DISABLED_THING = re.compile(
    r"(?:\b(?:tests?|testcases?|cases?|uts?|e2e|ci|nightly|jobs?|workflows?|benchmarks?"
    r"|failures?)|\btest_\w+(?:\.py)?|\w+_test(?:\.py)?)`?$",
    re.IGNORECASE,
)
# Taking tests out is mostly pruning for good (torchtitan #3855 moved its RL CI to other
# runners, verl #5259 "delete redundant npu ci", vllm-ascend #9362 dropped spec-decode e2e
# cases to save two CI hours): it disables tests only while they fail or for a while
# (vllm-ascend #11329 "Temporarily remove the unstable test case ...").
_BROKEN = re.compile(r"\b(?:flaky|unstable|broken|failing|failed|hang(?:s|ing)?)\b", re.IGNORECASE)
_FOR_A_WHILE = re.compile(r"\s*(?:temporar(?:il)?y|for\s+now|until)\b", re.IGNORECASE)


_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# In a description, a skip on a condition (`Skip tests when their optional dependencies are
# unavailable`, verl #7347) or of a CI job (`Skip CPU test time collection job`, `Skip
# build-image job when ...`, vllm-ascend #10450, #10239) switches off no test that ran.
_ON_A_CONDITION = re.compile(r"\s*(?:when|if|unless)\b", re.IGNORECASE)
_A_JOB = re.compile(r"\bjobs?`?$", re.IGNORECASE)
# In a title too, a skip where the machine cannot run the test switches off none that could run:
# an older library or GPU (TransformerEngine #3098 "Skip score_mod tests on older cuDNN",
# #3270 "... on pre-Blackwell devices", #3181 "... on Hopper when cuBLAS < 13.5"), a build or
# setting without the feature (#3096 "skip test if TE is not compiled with cusolver", #3061
# "... if NVTE_GROUPED_LINEAR_SINGLE_PARAM=0"). A platform alone still is one (torchtitan #3597
# "skip fsdp_symm_mem integration test on ROCm").
_WHERE_IT_CANNOT_RUN = re.compile(
    r"\s*(?:(?:on|with)\s+(?:(?:older|old|earlier)\b|pre-)"
    r"|(?:on\s+\S+\s+)?(?:if|when|unless)\b[^.;]{0,80}?"
    r"(?:\bnot\s+(?:compiled|built|installed|available|supported)\b|\b(?:older|unavailable"
    r"|unsupported|missing)\b|<\s*v?\d|=\s*0\b))",
    re.IGNORECASE,
)


def _disables_tests(match: re.Match[str], in_title: bool) -> bool:
    what = match.group("what")
    if not _DISABLED_THING.search(what):
        return False
    if match.group("removal") and not (
        match.group("temporary")
        or _BROKEN.search(what)
        or _FOR_A_WHILE.match(match.string, match.end())
    ):
        return False
    if _WHERE_IT_CANNOT_RUN.match(match.string, match.end()):
        return False
    return in_title or not (_A_JOB.search(what) or _ON_A_CONDITION.match(match.string, match.end()))


def _disabled_test_flags(pr: PullRequest, config: ScoringConfig) -> list[RiskFlag]:
    """Tests the PR switches off, by its title's or its description's own words (see
    `_DISABLES`; a line of prose or a list item of its own: verl #7357 said "disable
    fully_async/one_step_off_policy workflows" under another title), where it changes tests
    or CI: what the suite no longer checks until someone switches it back on. A revert of such
    a PR switches them back on."""
    title = parse_title(pr.title)
    if title.type == "revert":
        return []
    described = (_LIST_MARK.sub("", line) for line in prose(pr.body).splitlines())
    said = next(
        (
            line
            for line in (title.subject, *described)
            if any(_disables_tests(m, line is title.subject) for m in _DISABLES.finditer(line))
        ),
        None,
    )
    if said is None:
        return []
    patterns = [*config.test_paths, *CI_FILES]
    touched = [f for f in pr.files if matches_any(f.path, patterns)]
    if not touched:
        return []
    paths = _top_paths(touched)
    return [
        _flag(
            pr,
            "tests_disabled",
            f'disables tests: "{shorten(said, 120)}" ({_listed(paths, len(touched))})',
            paths=paths,
        )
    ]


def _repeated_fix_flags(
    pr: PullRequest, repeat: Repeat | None, known: Mapping[int, PullRequest]
) -> list[RiskFlag]:
    """A fix under the title of a fix merged shortly before it, on some of its files (aibrix
    #2549 two days after #2538; `repeat`, found for the week's fixes): the first one may not
    have held. A fix landed again after its revert is the revert chain's to tell, and one for
    another branch is a backport."""
    if repeat is None or repeat.reverted_by is not None or repeat.branch is not None:
        return []
    earlier = known[repeat.number]
    if change_kind(earlier.title, earlier.body).type != "fix":
        return []
    files = "the same files" if repeat.same_files else f"{len(repeat.shared_paths)} of its files"
    return [
        _flag(
            pr,
            "repeated_fix",
            f"repeats the title of the fix #{earlier.number}"
            f" (merged {earlier.merged_at.date().isoformat()}) and changes {files}",
            related=[earlier.number],
            paths=list(repeat.shared_paths[:_MAX_PATHS]),
        )
    ]


def _gap_flags(pr: PullRequest, review: PrReview, comments: Sequence[PrComment]) -> list[RiskFlag]:
    """Work the author says this PR leaves open: in the description, or in a reply that puts a
    reviewer's point off to a later PR (the reviewer's comment is the flag's ask)."""
    quotes = stated_gaps(pr.body)
    asks: list[ReviewAsk] = []
    for thread in review.threads:
        replies = [
            sentence
            for comment in thread.comments
            if _by_author(comment.is_pr_author, comment.author, pr.author)
            for sentence in deferrals(comment.body)
        ]
        if replies:
            quotes.append(replies[0])
            if (ask := _ask(thread, pr.author)) is not None:
                asks.append(ask)
    for comment in comments:
        if _by_author(comment.is_pr_author, comment.author, pr.author):
            quotes.extend(deferrals(comment.body)[:1])
    quotes = list(dict.fromkeys(quotes))
    if not quotes:
        return []
    more = f" (+{len(quotes) - 1} more)" if len(quotes) > 1 else ""
    detail = f'the author leaves work for later: "{quotes[0]}"{more}'
    return [_flag(pr, "known_gap", detail, quotes=quotes[:MAX_GAPS], asks=asks[:_MAX_ASKS])]


def _by_author(is_pr_author: bool, author: str | None, pr_author: str | None) -> bool:
    return is_pr_author or (pr_author is not None and author == pr_author)


_SUGGESTION_BLOCK = re.compile(r"```.*?(```|\Z)", re.DOTALL)
# Images (also one cut off mid-link, as in truncated excerpts), HTML tags.
_IMAGE = re.compile(r"!\[[^\]]*\](?:\([^)]*\)|\(\S*$)|<img\b[^>]*>|<[^>]+>", re.IGNORECASE)
_FIRST_SENTENCE = re.compile(r"^(.+?[.?!。？！])(?:\s|$)")


def one_line_ask(body: str, limit: int = 140) -> str:
    """The first sentence of a review comment, without images, code or markup."""
    text = _IMAGE.sub(" ", _SUGGESTION_BLOCK.sub(" ", body))
    text = " ".join(text.split())
    match = _FIRST_SENTENCE.match(text)
    return shorten(match.group(1) if match else text, limit)


def _ask(thread: ReviewThread, pr_author: str | None) -> ReviewAsk | None:
    for comment in thread.comments:
        if comment.is_pr_author or (pr_author and comment.author == pr_author):
            continue
        ask = one_line_ask(comment.body)
        return ReviewAsk(
            reviewer=comment.author or DELETED_USER,
            is_bot=is_bot(comment.author, comment.author_is_bot),
            path=thread.path,
            line=thread.line,
            ask=ask or "(comment text not captured)",
        )
    return None


def _unresolved_flags(pr: PullRequest, review: PrReview) -> list[RiskFlag]:
    asks = [a for a in (_ask(t, pr.author) for t in review.unresolved) if a is not None]
    if not asks:
        return []
    shown = asks[:_MAX_ASKS]
    listed = "; ".join(
        f"{a.reviewer}{' on ' + a.where() if a.where() else ''}: {a.ask}" for a in shown
    )
    more = f" (+{len(asks) - len(shown)} more)" if len(asks) > len(shown) else ""
    detail = f"{_counted(len(asks), 'review thread')} unresolved at merge: {listed}{more}"
    return [_flag(pr, "unresolved_review", detail, asks=shown)]


def _approval_flags(pr: PullRequest, review: PrReview) -> list[RiskFlag]:
    approvers = [a for a in review.authors_with_state("APPROVED") if a != pr.author]
    if approvers:
        return []
    requested = review.authors_with_state("CHANGES_REQUESTED")
    detail = "merged without an approving review"
    if requested:
        detail += f"; changes requested by {', '.join(requested)}"
    return [_flag(pr, "no_approval", detail)]


def _top_paths(files: Sequence[FileChange], patterns: Sequence[str] | None = None) -> list[str]:
    files = [f for f in files if patterns is None or matches_any(f.path, patterns)]
    files.sort(key=lambda f: (-f.lines, f.path))
    return [f.path for f in files[:_MAX_PATHS]]


def _listed(paths: list[str], total: int) -> str:
    more = f" and {total - len(paths)} more" if total > len(paths) else ""
    return ", ".join(paths) + more


def _removes_code(code: _EditedCode) -> bool:
    """Whether the core edits take code out rather than change it (at least ten lines deleted
    per line added, counting the core files the PR deleted): there is no new behaviour to
    test. verl #4422 retired a rollout mode (+3/-1461 core lines), #7374 a backend engine
    (+7/-387), #5454 the TransferQueue integration (+4/-35 in edited files, and 2,100 lines
    of deleted ones)."""
    added = sum(f.additions or 0 for f in code.core_files)
    deleted = sum(f.deletions or 0 for f in code.core_files) + code.removed_core_lines
    return deleted > 0 and added * REMOVAL_DELETIONS_PER_ADDITION <= deleted


# A very large change says how much of it is tests when they are at least this share of its
# lines: lmdeploy #4594 "update anthropic endpoint test" changed 2822 lines, 2398 in tests.
TEST_SHARE_NOTED = 0.25


# A change whose lines outside tests are under this share of it (and under the very large
# threshold) is a test change, not a very large one: vllm-ascend #13370 "update GLM5.1-w8a8c8
# weekly cases" changed 3394 lines, 3346 of them in tests, and ships no code to regress.
MOSTLY_TESTS_REST_SHARE = 0.2


# How a very large change's detail names the files its lines leave out.
_UNCOUNTED_WORDS: dict[UncountedKind, str] = {
    "doc": "docs",
    "vendored": "vendored code",
    "data": "data files",
    "lock": "lock files",
    "generated": "generated code",
}


def _large(shape: ChangeShape, threshold: int) -> bool:
    """Whether a change is very large: `threshold` lines outside documentation, vendored code,
    data, lock files and generated code, less one that is nearly all tests."""
    if shape.code_lines < threshold:
        return False
    rest = shape.code_lines - shape.test_lines
    return rest >= threshold or rest >= MOSTLY_TESTS_REST_SHARE * shape.code_lines


def tests_noted(test_lines: int | None, lines: int | None) -> bool:
    """Whether a change's size is told with how much of it is tests."""
    if not test_lines or not lines:
        return False
    return test_lines >= TEST_SHARE_NOTED * lines


@dataclass(frozen=True)
class _EditedCode:
    """What a PR's edits amount to: deleted files and pure renames leave no code to test,
    build or watch for regressions (verl #4795 moved whole recipe folders out, -32507 lines,
    and renamed a requirements file)."""

    edited: list[FileChange]
    shape: ChangeShape
    core_files: list[FileChange]
    removed_core_lines: int = 0  # in core files the PR deleted

    @classmethod
    def of(cls, pr: PullRequest, config: ScoringConfig) -> _EditedCode:
        edited = [f for f in pr.files if f.edits_content]
        # Without a file list the PR's totals are all there is (change_shape falls back to them).
        if edited or not pr.files:
            shape = change_shape(pr.model_copy(update={"files": edited}), config)
        else:
            shape = _NO_LINES
        not_code = [
            *config.doc_paths,
            *config.test_paths,
            *config.data_paths,
            *GENERATED_FILES,
            *VENDORED_FILES,
        ]

        def core(f: FileChange) -> bool:
            return matches_any(f.path, config.core_paths) and not matches_any(f.path, not_code)

        removed = sum(f.deletions or 0 for f in pr.files if f.status == "removed" and core(f))
        return cls(edited, shape, [f for f in edited if core(f)], removed)


def core_tests(pr: PullRequest, config: ScoringConfig) -> bool | None:
    """Whether a PR that changes core code (`untested_core_min_lines` core lines or more) adds
    or changes a test file still in the tree; None for a PR that is no such change: a revert,
    one whose title says it changes no behaviour (`[NFC]`, a linter's fixes, docs), a smaller
    one, one that takes code out, or any PR where no core paths are configured. A False is what
    flags `core_without_tests`."""
    return _core_tests(pr, _EditedCode.of(pr, config), config)


def _core_tests(pr: PullRequest, code: _EditedCode, config: ScoringConfig) -> bool | None:
    if (
        pr.is_revert
        # A change its author declares changes no behaviour has none for a test to check:
        # ColossalAI's `[nfc] fix typo colossalai/zero` (#3923) and 23 more [NFC] PRs were
        # flagged.
        or declares_no_functional_change(pr.title)
        or code.shape.core_lines < config.untested_core_min_lines
        or _removes_code(code)
    ):
        return None
    return any(matches_any(f.path, config.test_paths) for f in code.edited)


def _path_flags(
    pr: PullRequest,
    modules: list[str],
    config: ScoringConfig,
    config_diffs: Mapping[tuple[int, str], ConfigFileDiff],
) -> list[RiskFlag]:
    flags = []
    code = _EditedCode.of(pr, config)
    edited, shape, core_files = code.edited, code.shape, code.core_files
    removed = [f for f in pr.files if f.status == "removed"]
    if _core_tests(pr, code, config) is False:
        paths = _top_paths(core_files)
        flags.append(
            _flag(
                pr,
                "core_without_tests",
                f"changes {_counted(shape.core_lines, 'line')} in"
                f" {_counted(len(core_files), 'core file')}"
                f" ({_listed(paths, len(core_files))}) and no test file",
                paths=paths,
                lines=shape.core_lines,
            )
        )
    if _large(shape, config.large_change_lines):
        # Named as the PR has them: VeOmni #767's 1872 lines "outside documentation and data
        # files" of its 9,142 left out 7,124 lines of generated code, and no data file.
        uncounted = uncounted_kinds(edited, config)
        named = [_UNCOUNTED_WORDS[kind] for kind in uncounted]
        listed = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
        outside = f"outside {listed}" if listed else "counted"
        not_counted = f", not counting {_counted(len(removed), 'removed file')}" if removed else ""
        in_tests = (
            f", {shape.test_lines} in tests"
            if tests_noted(shape.test_lines, shape.code_lines)
            else ""
        )
        flags.append(
            _flag(
                pr,
                "large_change",
                f"+{pr.additions}/-{pr.deletions} lines in"
                f" {_counted(pr.changed_files or len(pr.files), 'file')}"
                f" ({shape.code_lines} {outside}{in_tests}{not_counted})",
                lines=shape.code_lines,
                test_lines=shape.test_lines,
                uncounted=uncounted,
                paths=_top_paths(edited),
                deleted_paths=[f.path for f in removed],
            )
        )
    if len(modules) >= config.cross_cutting_modules:
        flags.append(
            _flag(
                pr,
                "cross_cutting",
                f"spans {len(modules)} modules: {', '.join(modules)}",
                modules=modules,
            )
        )
    flags.extend(_config_flags(pr, config, config_diffs))
    flags.extend(_dependency_flags(pr, edited, config_diffs))
    for risk, (_, what) in _FILE_RISKS.items():
        matched = risk_files(pr, risk, config, config_diffs)
        if matched:
            paths = matched[:_MAX_PATHS]
            flags.append(
                _flag(
                    pr,
                    risk,
                    f"changes {what}: {_listed(paths, len(matched))}",
                    paths=paths,
                    files=matched,
                )
            )
    return flags


# The risks a kind of file carries: the files' globs and their name in the flag's detail.
_FILE_RISKS: dict[RiskKind, tuple[tuple[str, ...], str]] = {
    "docker_change": (DOCKER_FILES, "Docker files"),
    "ci_change": (CI_FILES, "CI workflows"),
}


def risk_files(
    pr: PullRequest,
    kind: RiskKind,
    config: ScoringConfig,
    config_diffs: Mapping[tuple[int, str], ConfigFileDiff] | None = None,
) -> list[str]:
    """Every file of `pr` a file risk (`docker_change`, `ci_change`) is about: the files it
    edits of that kind, less their notes (docker/docker-npu/OVERVIEW.md, LLaMA-Factory
    #10729), which build and run nothing, and less the CI files whose compared settings
    (`config_diffs`) it left as they were, adding at most jobs, list entries or steps after a
    job's last (`ConfigFileDiff.keeps_existing`): slime's fixes register their test in the
    workflow's matrix, and a new nightly job leaves the pipelines there were running as before
    (of their CI flags, slime's were 84 and are 38, verl's 516 and 428, vllm-ascend's 1112
    and 985: lists of tests gaining some), or whose triggers only run on more branches, paths
    or event types (verl 428 -> 417, vllm-ascend 1011 -> 1003, slime 38 -> 36), unless the PR
    removes CI files (slime #441 replaced its workflow with a new one). A template goes with
    the file rendered from it (slime's `pr-test.yml.j2`). A flag keeps the first few files;
    this is all of them."""
    patterns, _ = _FILE_RISKS[kind]
    diffs = config_diffs or {}

    def kept_as_was(path: str) -> bool:
        diff = diffs.get((pr.number, path))
        return diff is not None and diff.comparable and diff.keeps_existing

    files = [
        f.path
        for f in pr.files
        if f.edits_content
        and matches_any(f.path, patterns)
        and not matches_any(f.path, config.doc_paths)
    ]
    # A PR that removes CI files replaces what they ran: its new ones are no additions.
    removes_ci = any(f.status == "removed" and matches_any(f.path, patterns) for f in pr.files)
    if kind != "ci_change" or removes_ci:
        return files
    present = set(files)

    def goes_with_its_rendered_file(path: str) -> bool:
        rendered = rendered_path(path)
        return rendered is not None and rendered in present and kept_as_was(rendered)

    return [p for p in files if not kept_as_was(p) and not goes_with_its_rendered_file(p)]


def _dependency_flags(
    pr: PullRequest,
    edited: Sequence[FileChange],
    diffs: Mapping[tuple[int, str], ConfigFileDiff],
) -> list[RiskFlag]:
    """Requirements the PR added, removed or re-pinned in its dependency manifests; a
    dependency file whose requirements were not compared (a lock file, or a week stored before
    manifests were compared) counts by being edited. A manifest edit that leaves every
    requirement as it was (`[tool.ruff]` in pyproject.toml, build logic in setup.py) is none."""
    matched = [f.path for f in edited if matches_any(f.path, DEPENDENCY_FILES)]
    changes: list[SettingChange] = []
    paths: list[str] = []
    uncompared: list[str] = []
    for path in matched:
        diff = diffs.get((pr.number, path))
        if diff is None or not diff.comparable:
            uncompared.append(path)
        elif diff.changes:
            paths.append(path)
            changes.extend(c.model_copy(update={"path": path}) for c in diff.changes)
    if not changes and not uncompared:
        return []
    parts = []
    if changes:
        distinct = requirement_edits(changes)
        shown = "; ".join(describe(c, ENGLISH) for c in distinct[:MAX_SETTINGS])
        parts.append(f"changes requirements: {shown}{_more(len(distinct), MAX_SETTINGS)}")
    if uncompared:
        parts.append(f"changes dependency files: {_listed(uncompared, len(uncompared))}")
    listed = [*paths, *uncompared][:_MAX_PATHS]
    return [
        _flag(
            pr,
            "dependency_change",
            "; ".join(parts),
            paths=listed,
            settings=changes,
            uncompared_paths=uncompared[:_MAX_PATHS],
        )
    ]


def _config_flags(
    pr: PullRequest, config: ScoringConfig, diffs: Mapping[tuple[int, str], ConfigFileDiff]
) -> list[RiskFlag]:
    """Settings whose default value changed or that were removed, from the compared files, and
    configuration files the PR deleted (`setting_edits`). A file that could not be compared
    (unparsable, unread, or stored before comparing existed) is judged by its line counts, and
    the flag says it was not compared: its changed lines may remove settings as well."""
    compared = {
        f.path: diff.changes
        for f in pr.files
        if (diff := diffs.get((pr.number, f.path))) is not None and diff.comparable
    }
    edits = setting_edits(pr, config, compared)
    if edits is None:
        return []
    settings, uncertain, deleted = edits.settings, edits.uncertain, edits.deleted
    paths = edits.touched[:_MAX_PATHS]
    parts = []
    # The reports word the flag from its stored settings through the same outcome.
    values, renames, removed = settings_outcome(settings)
    if values:
        files = setting_files(values)
        shown = "; ".join(
            describe_setting(c, path)
            for c, path in zip(values[:MAX_SETTINGS], files[:MAX_SETTINGS], strict=True)
        )
        parts.append(f"changes defaults: {shown}{_more(len(values), MAX_SETTINGS)}")
    if renames:
        shown = ", ".join(f"{old.key} to {new.key}" for old, new in renames[:MAX_SETTINGS])
        parts.append(f"renames settings: {shown}{_more(len(renames), MAX_SETTINGS)}")
    if removed:
        shown = ", ".join(c.key for c in removed[:MAX_SETTINGS])
        parts.append(f"removes settings: {shown}{_more(len(removed), MAX_SETTINGS)}")
    if deleted:
        parts.append(f"deletes configuration files: {_listed(deleted[:_MAX_PATHS], len(deleted))}")
    if uncertain:
        parts.append(
            f"changes {_listed(uncertain[:_MAX_PATHS], len(uncertain))}, whose settings could"
            " not be compared: defaults may have changed or settings been removed"
        )
    return [
        _flag(
            pr,
            "config_default_change",
            "; ".join(parts),
            paths=paths,
            settings=settings,
            uncompared_paths=uncertain,
            deleted_paths=deleted,
        )
    ]


def shown_values(change: SettingChange) -> tuple[str, str]:
    """The old and new value as a sentence shows them: whole when short, else the part that
    differs with a little context (`…_FILES', '0')` → `…_FILES', '1')`)."""
    before, after = change.before or "", change.after or ""
    if max(len(before), len(after)) <= SHOWN_VALUE_CHARS:
        return before, after
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while (
        end < min(len(before), len(after)) - start
        and before[len(before) - 1 - end] == after[len(after) - 1 - end]
    ):
        end += 1
    start, end = max(0, start - _VALUE_CONTEXT), max(0, end - _VALUE_CONTEXT)

    def trimmed(value: str) -> str:
        middle = value[start : len(value) - end]
        text = ("…" if start else "") + middle + ("…" if end else "")
        return shorten(text, SHOWN_VALUE_CHARS)

    return trimmed(before), trimmed(after)


def setting_files(changes: Sequence[SettingChange]) -> list[str | None]:
    """The file to name beside each change's key: its own, where the same key changed another
    way in another file (lmdeploy #4806 set `a100[0].quantization.pytorch` to `["kvint8"]` in
    one model's test config and to `["kvint4", "kvint8"]` in another's, which read as one
    setting changed twice), else None."""
    ways: dict[str, set[tuple[str | None, str | None]]] = defaultdict(set)
    for change in changes:
        ways[change.key].add((change.before, change.after))
    return [c.path if len(ways[c.key]) > 1 else None for c in changes]


def describe_setting(change: SettingChange, path: str | None = None) -> str:
    """`key before → after` (`key in path ...` given its file), long values cut to where they
    differ."""
    before, after = shown_values(change)
    key = f"{change.key} in {path}" if path else change.key
    return f"{key} {before} → {after}"


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _more(total: int, shown: int) -> str:
    return f" (+{total - shown} more)" if total > shown else ""
