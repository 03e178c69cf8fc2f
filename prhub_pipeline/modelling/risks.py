"""Risk flags: rules over a week's PRs, each flag carrying the evidence that raised it.

Every flag has an English `detail` (stored, queryable) and the structured facts behind it
(`related`, `paths`, `asks`, `lines`, `modules`), from which the report writes its own sentences
in each language. A rule only says what the data shows: a revert "re-opens" an issue only
when the reverted PR said it fixed that issue.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import get_args

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.importance import (
    ChangeShape,
    PrReview,
    change_shape,
    is_bot,
    resolve_revert,
    reviews_by_pr,
)
from prhub_pipeline.modelling.pr_text import (
    clean_description,
    closing_references,
    parse_title,
    shorten,
)
from prhub_pipeline.modelling.tags import areas_of
from prhub_pipeline.paths import CI_FILES, matches_any
from prhub_pipeline.records import (
    FileChange,
    PullRequest,
    ReviewAsk,
    ReviewData,
    ReviewThread,
    RiskFlag,
    RiskKind,
    Severity,
)

RISK_ORDER: tuple[RiskKind, ...] = get_args(RiskKind)  # most serious first
SEVERITY: dict[RiskKind, Severity] = {
    "revert": "high",
    "reverted": "high",
    "breaking_change": "high",
    "unresolved_review": "high",
    "core_without_tests": "medium",
    "no_approval": "medium",
    "large_change": "medium",
    "cross_cutting": "medium",
    "config_default_change": "medium",
    "dependency_change": "medium",
    "docker_change": "low",
    "ci_change": "low",
}

DEPENDENCY_FILES = (
    "requirements*.txt",
    "requirements/**",
    "constraints*.txt",
    "setup.py",
    "setup.cfg",
    "pyproject.toml",
    "Pipfile",
    "Pipfile.lock",
    "poetry.lock",
    "uv.lock",
    "environment*.yml",
    "environment*.yaml",
    "package.json",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "go.mod",
    "go.sum",
    "Cargo.toml",
    "Cargo.lock",
)
DOCKER_FILES = ("Dockerfile*", "*.Dockerfile", "*.dockerfile", "docker/**", "docker-compose*.y*ml")
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
_MAX_ASKS = 3
_NO_LINES = ChangeShape(0, 0, 0, 0, docs_only=False)


def flag_risks(
    prs: Sequence[PullRequest],
    modules: Mapping[int, Sequence[str]],
    review_data: ReviewData,
    config: ScoringConfig,
    history_by_number: Mapping[int, PullRequest] | None = None,
    *,
    check_approvals: bool = True,
) -> list[RiskFlag]:
    """All risk flags of one week's PRs, most serious first.

    `check_approvals=False` skips "merged without approval" for review data that has threads
    but not review states (hand-collected excerpts).
    """
    known: dict[int, PullRequest] = dict(history_by_number or {})
    known.update({pr.number: pr for pr in prs})
    prepared = [resolve_revert(pr, known) for pr in prs]
    reverters = {pr.reverted_number: pr for pr in prepared if pr.is_revert and pr.reverted_number}
    reviews = reviews_by_pr(review_data)
    flags: list[RiskFlag] = []
    for pr in prepared:
        pr_modules = list(dict.fromkeys(areas_of(modules.get(pr.number, ()))))
        flags.extend(_revert_flags(pr, known, reverters))
        flags.extend(_breaking_flags(pr))
        if review_data.available:
            review = reviews.get(pr.number, PrReview())
            flags.extend(_unresolved_flags(pr, review))
            if check_approvals:
                flags.extend(_approval_flags(pr, review))
        flags.extend(_path_flags(pr, pr_modules, config))
    flags.sort(key=lambda f: (RISK_ORDER.index(f.risk), f.number))
    return flags


def _flag(pr: PullRequest, risk: RiskKind, detail: str, **facts: object) -> RiskFlag:
    return RiskFlag(number=pr.number, risk=risk, severity=SEVERITY[risk], detail=detail, **facts)  # type: ignore[arg-type]


def _revert_flags(
    pr: PullRequest, known: Mapping[int, PullRequest], reverters: Mapping[int, PullRequest]
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
        flags.append(_flag(pr, "revert", detail, related=related, paths=_top_paths(pr.files)))
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
    return flags


def _breaking_flags(pr: PullRequest) -> list[RiskFlag]:
    if parse_title(pr.title).breaking:
        return [_flag(pr, "breaking_change", "the title carries a breaking-change marker")]
    for declared in _BREAKING_BODY.finditer(clean_description(pr.body)):
        if not _NO_BREAKING.search(declared.group("what")[:160]):
            return [_flag(pr, "breaking_change", "the description declares a breaking change")]
    return []


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
            reviewer=comment.author or "(deleted user)",
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
    noun = "thread" if len(asks) == 1 else "threads"
    detail = f"{len(asks)} review {noun} unresolved at merge: {listed}{more}"
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
    files.sort(key=lambda f: (-((f.additions or 0) + (f.deletions or 0)), f.path))
    return [f.path for f in files[:_MAX_PATHS]]


def _listed(paths: list[str], total: int) -> str:
    more = f" and {total - len(paths)} more" if total > len(paths) else ""
    return ", ".join(paths) + more


def _path_flags(pr: PullRequest, modules: list[str], config: ScoringConfig) -> list[RiskFlag]:
    flags = []
    # Deleted files and pure renames leave no code to test, build or watch for regressions:
    # verl #4795 moved whole recipe folders out (-32507 lines) and renamed a requirements file.
    edited = [f for f in pr.files if f.edits_content]
    removed = [f for f in pr.files if f.status == "removed"]
    # Without a file list the PR's totals are all there is (change_shape falls back to them).
    if edited or not pr.files:
        shape = change_shape(pr.model_copy(update={"files": edited}), config)
    else:
        shape = _NO_LINES
    core_files = [
        f
        for f in edited
        if matches_any(f.path, config.core_paths)
        and not matches_any(f.path, config.doc_paths)
        and not matches_any(f.path, config.test_paths)
    ]
    touches_tests = any(matches_any(f.path, config.test_paths) for f in edited)
    if (
        not pr.is_revert
        and shape.core_lines >= config.untested_core_min_lines
        and not touches_tests
    ):
        paths = _top_paths(edited, config.core_paths)
        flags.append(
            _flag(
                pr,
                "core_without_tests",
                f"changes {shape.core_lines} lines in {len(core_files)} core files"
                f" ({_listed(paths, len(core_files))}) and no test file",
                paths=paths,
                lines=shape.core_lines,
            )
        )
    if shape.code_lines >= config.large_change_lines:
        not_counted = f", not counting {len(removed)} removed files" if removed else ""
        flags.append(
            _flag(
                pr,
                "large_change",
                f"+{pr.additions}/-{pr.deletions} lines in"
                f" {pr.changed_files or len(pr.files)} files"
                f" ({shape.code_lines} outside documentation{not_counted})",
                lines=shape.code_lines,
                paths=_top_paths(edited),
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
    # A test's or a CI job's own configuration sets no default a user runs with.
    config_files = [
        f
        for f in pr.files
        if matches_any(f.path, config.config_paths)
        and not matches_any(f.path, [*config.test_paths, *CI_FILES])
        and f.status in ("modified", "renamed")
        and (f.deletions or 0) > 0
    ]
    if config_files:
        paths = [f.path for f in config_files[:_MAX_PATHS]]
        flags.append(
            _flag(
                pr,
                "config_default_change",
                f"edits existing lines of configuration files"
                f" ({_listed(paths, len(config_files))}):"
                " defaults may have changed",
                paths=paths,
            )
        )
    for risk, patterns, what in (
        ("dependency_change", DEPENDENCY_FILES, "dependency files"),
        ("docker_change", DOCKER_FILES, "Docker files"),
        ("ci_change", CI_FILES, "CI workflows"),
    ):
        matched = [f.path for f in edited if matches_any(f.path, patterns)]
        if matched:
            paths = matched[:_MAX_PATHS]
            flags.append(
                _flag(pr, risk, f"changes {what}: {_listed(paths, len(matched))}", paths=paths)  # type: ignore[arg-type]
            )
    return flags
