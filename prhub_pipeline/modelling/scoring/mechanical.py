"""Mechanical rewrites: a formatter, linter, license-header, typo or import-sorting sweep.

Such a PR rewrites many files a little, by a tool or by rote, and changes nothing a user runs:
its length says how many files the tool touched, not how much the change matters. verl #1280
"[Lint] fix: linting errors in all files" (4,130 lines in 179 files) was a key PR of its week
on its size. `importance.score_parts` lets the size of a sweep count for little.

A PR is a sweep when its title says so in every clause and its edits have a sweep's shape
(`is_sweep`). A title that also does something else (slime #1520 "Add response.aclose()
and fix lint", LLaMA-Factory #6814 "update license year & fix llama pro") is no sweep: which of
its lines are the sweep's cannot be told.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from prhub_pipeline.modelling.text.pr_summaries import CHANGE_VERBS
from prhub_pipeline.modelling.text.pr_titles import only_modernises_syntax, parse_title
from prhub_pipeline.records import FileChange

if TYPE_CHECKING:  # importance scores sweeps, so it imports this module
    from prhub_pipeline.modelling.scoring.importance import FileKind

# What names mechanical work: the tools (formatters, linters, spell and type checkers, the
# hooks that run them), the rules they enforce and what a sweep by hand fixes. "format" alone is
# often data or output (`Formatting output types related to FuseMoE`, vllm-ascend #5481), and
# "style" an adjective (`OpenAI-style messages`): both count only as a code's formatting.
_MECHANICAL_WORDS = re.compile(
    r"\b(?:lint(?:s|ed|ing|er|ers)?|pre-?commit|ruff|yapf|isort|black|flake8|pylint|pyflakes"
    r"|autopep8|autoflake|pyupgrade|codespell|clang-format|prettier|markdownlint|shellcheck"
    r"|mypy|pyright|pyrefly|pep ?\d+"
    r"|code\s+quality|re-?format\w*|formatter\w*|(?:code|file)s?\s+format\w*"
    r"|format(?:ting)?\s+(?:of\s+|the\s+|all\s+)*(?:code|files?|issues?|errors?|fix\w*|check\w*)"
    r"|fix\w*\s+(?:the\s+|code\s+)*format(?:ting)?"
    r"|code[- ]style|coding[- ]style|style\s+(?:fix|check|issue|error)\w*"
    r"|typos?|spelling|misspell\w*|grammar"
    r"|licen[cs]es?|copyright|spdx"
    r"|whitespaces?|trailing\s+spaces?|line[- ]length|long\s+lines"
    r"|(?:sort|order)\w*\s+(?:the\s+)?imports?|imports?\s+(?:sort|order)\w*|unused\s+imports?)\b",
    re.IGNORECASE,
)
# Where a title's clauses part: `X and Y`, `X & Y`, `X; Y`, `X + Y`, `X, fix Y` (a comma before
# a verb).
_CLAUSE_SPLIT = re.compile(rf"\s*;\s*|\s+[&+]\s+|,?\s+and\s+|,\s*(?={CHANGE_VERBS})", re.IGNORECASE)
# A later clause that names a change of its own is something else the PR does: verl #2675
# "main pre-commit and API change", LLaMA-Factory #10632 "update license check, update
# transformers". One without is more of the same (`fix typos in comments and help text`).
_NAMES_A_CHANGE = re.compile(rf"\b{CHANGE_VERBS}", re.IGNORECASE)
# A list of code spans is one thing, whatever joins them: "Convert `root`, `benchmarks`, `tools`
# and `docs` to `ruff format`" (vllm-ascend #5843).
_CODE_SPAN_LIST = re.compile(r"`[^`]*`(?:\s*,\s*`[^`]*`)*,?\s+(?:and|&)\s+`[^`]*`", re.IGNORECASE)


def names_mechanical_rewrite(title: str) -> bool:
    """Whether a title's subject (tags and type aside) names mechanical work and nothing else:
    its first clause names it, and every later clause names it too or names no change of its
    own. `fix: linting errors in all files`, `reduce ruff line-length from 300 to 120`, `fix
    typos in comments and help text`; not `Add response.aclose() and fix lint` (slime #1520),
    `num_preempted metrics fix and typo correction` (verl #4976). A rewrite of type hints to a
    newer Python's syntax is one too (`only_modernises_syntax`): llm-compressor #2704 "refactor:
    modernize modifiers module with Python 3.10+ type hints" (+127/-131 in 17 files, `Optional[X]`
    to `X | None`) was a 7.5 key PR on its size."""
    if only_modernises_syntax(title):
        return True
    subject = _CODE_SPAN_LIST.sub("`names`", parse_title(title).subject)
    first, *later = [clause for clause in _CLAUSE_SPLIT.split(subject) if clause.strip()] or [""]
    return bool(_MECHANICAL_WORDS.search(first)) and all(
        _MECHANICAL_WORDS.search(clause) or not _NAMES_A_CHANGE.search(clause) for clause in later
    )


# A sweep rewrites at least this many files of code, tests or docs in place (a license sweep
# gives the docs' conf.py its header too, verl #110). Not CI files: their edits are small
# because workflows are (vllm-ascend #5762 "[CI] Avoid lint and ut for PR push").
SWEEP_MIN_FILES = 3
_SWEPT_KINDS: frozenset[FileKind | None] = frozenset({None, "test", "doc"})
# Each a little (the median of their changed lines), as a linter's fixes or a license header
# do: verl #1280 changed a median 12 lines per file, #110 added 13-line license headers.
SWEEP_FILE_LINES = 20
# Or all of them evenly, as a formatter moving a file to its style rewrites it line for line:
# vllm-ascend #5977 "Convert `vllm-ascend/` to ruff format" (+924/-1049 in 11 files, a median
# 77 lines each).
SWEEP_BALANCE = 1.5
# A sweep moves no code or docs: it adds, deletes or renames at most one such file for this
# many it edits, as the checker a lint PR adds (verl #110's tests/sanity/check_license.py).
# vllm-ascend #7511 "Add lint hooks for clang-format, shellcheck, ..." adds three checkers and
# deletes one beside its 18 edits: new tooling, not a sweep.
SWEEP_FILES_PER_MOVED = 5


def is_sweep(files: Sequence[FileChange], kinds: Sequence[FileKind | None]) -> bool:
    """Whether a PR's edits have a sweep's shape: at least SWEEP_MIN_FILES files edited in
    place, hardly any added, deleted or renamed, and each edited file changed a little or all
    of them evenly. `kinds` are the files' `importance.file_kind`s."""
    edited = [
        change
        for change, kind in zip(files, kinds, strict=True)
        if change.status == "modified" and kind in _SWEPT_KINDS
    ]
    moved = sum(
        change.status != "modified" and kind in _SWEPT_KINDS
        for change, kind in zip(files, kinds, strict=True)
    )
    if len(edited) < SWEEP_MIN_FILES or moved * SWEEP_FILES_PER_MOVED > len(edited):
        return False
    thin = statistics.median(change.lines for change in edited) <= SWEEP_FILE_LINES
    added = sum(change.additions or 0 for change in edited)
    deleted = sum(change.deletions or 0 for change in edited)
    even = max(added, deleted) <= SWEEP_BALANCE * min(added, deleted)
    return thin or even
