"""Reading PR records from JSON lines in the schema of `../shared/data/verl/prs.jsonl`.

One object a line: repo, number (null for direct commits), title, body, author, co_authors,
merged_at (UTC `...Z`), merge_commit_sha, additions, deletions, changed_files and files
[{path, additions, deletions, status, previous_path}]; `labels` and `created_at` when a source
has them. Labels and people may also be GitHub's objects (`{"name": "bug"}`, `{"login": ...}`).
Keys the record type does not know (merged_at_local) are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from prhub_pipeline.config import NotUtf8Error, read_utf8_text
from prhub_pipeline.records import FileChange, PullRequest, describe_validation_error

# Keys of a record that PullRequest and FileChange take; others (merged_at_local ...) are ignored.
_PR_KEYS = tuple(key for key in PullRequest.model_fields if key != "files")
_FILE_KEYS = tuple(FileChange.model_fields)


class PrRecordError(ValueError):
    """A line of a PR records file is not a valid record; the message names file and line."""


class PrRecords(BaseModel):
    """The PRs of a file, and how many lines had no PR number (direct commits, skipped)."""

    model_config = ConfigDict(frozen=True)

    prs: list[PullRequest]
    skipped_without_number: int = 0


def pr_from_json(record: dict[str, Any]) -> PullRequest | None:
    """One record as a PullRequest, or None for a commit without a PR number.

    Raises pydantic's ValidationError on a malformed record, TypeError on a record or file
    entry that is not an object.
    """
    if not isinstance(record, dict):
        raise TypeError(f"expected a JSON object, got {type(record).__name__}")
    if record.get("number") is None:
        return None
    fields = {key: record[key] for key in _PR_KEYS if record.get(key) is not None}
    if "labels" in fields:
        fields["labels"] = _label_names(fields["labels"])
    if "author" in fields:
        fields["author"] = _person(fields["author"])
    if isinstance(fields.get("co_authors"), list):
        fields["co_authors"] = [_person(person) for person in fields["co_authors"]]
    files = record.get("files") or []
    if not isinstance(files, list):
        raise TypeError(f"files: expected a list, got {files!r}")
    for index, change in enumerate(files):
        if not isinstance(change, dict):
            raise TypeError(f"files.{index}: expected an object with a path, got {change!r}")
    # Validated as part of the PR, so that an error names the entry (`files.0.path`).
    fields["files"] = [
        {key: change[key] for key in _FILE_KEYS if change.get(key) is not None} for change in files
    ]
    return PullRequest.model_validate(fields)


def _label_names(labels: Any) -> Any:
    """Label names from the shapes GitHub writes them in: names, REST's label objects
    (`[{"name": "bug", ...}]`) or GraphQL's connection (`{"nodes": [{"name": "bug"}]}`).
    Anything else is left for validation to name."""
    if isinstance(labels, dict) and isinstance(labels.get("nodes"), list):
        labels = labels["nodes"]
    if not isinstance(labels, list):
        return labels
    return [
        label["name"] if isinstance(label, dict) and isinstance(label.get("name"), str) else label
        for label in labels
    ]


def _person(person: Any) -> Any:
    """A person's name as GitHub's objects give it (`{"login": "octocat"}`, or a commit
    author's `{"name": ...}`); anything else is left for validation to name."""
    if isinstance(person, dict):
        for key in ("login", "name"):
            if isinstance(person.get(key), str):
                return person[key]
    return person


def pr_to_json(pr: PullRequest) -> dict[str, Any]:
    """A PullRequest as one record of this schema (the inverse of `pr_from_json`)."""
    record = pr.model_dump(mode="json", exclude_none=True, exclude={"files"})
    record["merged_at"] = pr.merged_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    record["files"] = [change.model_dump(mode="json", exclude_none=True) for change in pr.files]
    return record


def write_pr_records(path: Path, prs: Iterable[PullRequest]) -> int:
    """Write PRs as JSON lines (oldest merge first); returns how many were written."""
    ordered = sorted(prs, key=lambda pr: (pr.merged_at, pr.number))
    lines = [json.dumps(pr_to_json(pr), ensure_ascii=False) for pr in ordered]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


def read_pr_records(path: Path) -> PrRecords:
    """Every PR of a JSON-lines file, in file order. Blank lines are allowed."""
    try:
        text = read_utf8_text(path)
    except OSError as exc:
        raise PrRecordError(f"{path}: cannot read PR records: {exc.strerror or exc}") from exc
    except NotUtf8Error as exc:
        raise PrRecordError(
            f"{path}:{exc.line}: not UTF-8 text (byte 0x{exc.byte:02x} at position {exc.position})"
        ) from None
    # A byte-order mark is no part of the first record (editors on Windows write one).
    text = text.removeprefix("\ufeff")
    # JSON lines end at "\n" alone: `splitlines()` also splits at U+2028, U+0085 and form
    # feeds, which JSON strings may hold raw (a pytorch/ao description does).
    lines = text.split("\n")
    prs: list[PullRequest] = []
    skipped = 0
    for line_number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PrRecordError(f"{path}:{line_number}: not valid JSON: {exc.msg}") from None
        number = record.get("number") if isinstance(record, dict) else None
        which = f"PR #{number}" if type(number) is int else "invalid PR record"
        try:
            pr = pr_from_json(record)
        except ValidationError as exc:
            problems = describe_validation_error(exc)
            raise PrRecordError(f"{path}:{line_number}: {which}: {problems}") from None
        except TypeError as exc:
            raise PrRecordError(f"{path}:{line_number}: {which}: {exc}") from None
        if pr is None:
            skipped += 1
        else:
            prs.append(pr)
    return PrRecords(prs=prs, skipped_without_number=skipped)
