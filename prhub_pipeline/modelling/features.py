"""What the module classifier sees of a PR: the title without its tags, the changed paths
(as tokens and as prefixes at several depths) and the description without its template.

Nothing here ever returns a title's module prefix: the labels come from that prefix, so a
model that saw it would learn to read the answer rather than the change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tags import text_without_tags
from prhub_pipeline.records import FileChange, PullRequest

PREFIX_DEPTHS = (1, 2, 3, 4)
MAX_DESCRIPTION_CHARS = 3000

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(?P<text>.*)$")
_CHECKLIST_ITEM = re.compile(r"^\s*[-*]\s*\[[ xX]?\]")
_LIST_OR_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|>|```)")
_CODE_FENCE = re.compile(r"^\s*```")
_URL = re.compile(r"https?://\S+")
# `[fsdp] fix: ...` quoted in the description; markdown links `[text](url)` stay.
_BRACKETED_TAGS = re.compile(r"[\[【][^\]】]{0,60}[\]】](?!\()")
# Sections that hold only the template's instructions and checkboxes.
_BOILERPLATE_SECTION = re.compile(
    r"checklist|before (?:submitting|starting)|pr title|contribut", re.IGNORECASE
)
# Placeholder lines templates leave behind when the author fills nothing in.
_PLACEHOLDER = re.compile(
    r"^\s*(?:#\s*add code snippet.*|as title\.?|n/?a\.?|none\.?|\.\.\.|/>)\s*$", re.IGNORECASE
)
_PATH_SPLIT = re.compile(r"[/._\-\s]+")


class PrFeatures(BaseModel):
    """One PR's classifier inputs, as plain text fields (one vectorizer each)."""

    model_config = ConfigDict(frozen=True)

    title: str
    path_tokens: str
    path_prefixes: str
    description: str
    paths: str = ""  # the changed paths, lowercased, one a line (for the path label memory)


def clean_description(body: str) -> str:
    """The description an author wrote, without the PR template around it.

    Drops HTML comments, headings, `>` instruction quotes and checklist items (with the lines
    they wrap onto), whole checklist sections, empty code-fence placeholders, URLs and
    bracketed tags (a description quoting its own title must not leak the labels).
    """
    kept: list[str] = []
    in_boilerplate_section = False
    in_wrapped_block = False  # a checklist item or `>` quote, whose lines wrap on unmarked
    for line in _HTML_COMMENT.sub("\n", body).splitlines():
        heading = _HEADING.match(line)
        if heading:
            in_boilerplate_section = bool(_BOILERPLATE_SECTION.search(heading.group("text")))
            in_wrapped_block = False
            continue
        if in_boilerplate_section:
            continue
        stripped = line.strip()
        if _CHECKLIST_ITEM.match(line) or stripped.startswith(">"):
            in_wrapped_block = True
            continue
        if in_wrapped_block:
            if stripped and not _LIST_OR_BLOCK_START.match(line):
                continue
            in_wrapped_block = False
        if not stripped or _CODE_FENCE.match(line) or _PLACEHOLDER.match(stripped):
            continue
        kept.append(_BRACKETED_TAGS.sub(" ", _URL.sub(" ", stripped)))
    return "\n".join(kept)[:MAX_DESCRIPTION_CHARS]


def _paths(files: Sequence[FileChange]) -> list[str]:
    paths: list[str] = []
    for change in files:
        paths.append(change.path)
        if change.previous_path and change.previous_path != change.path:
            paths.append(change.previous_path)
    return paths


def path_tokens(files: Sequence[FileChange]) -> str:
    """Every word of every changed path: `verl/workers/fsdp_workers.py` -> verl workers fsdp ..."""
    return " ".join(
        token.lower() for path in _paths(files) for token in _PATH_SPLIT.split(path) if token
    )


def path_prefixes(files: Sequence[FileChange], depths: Sequence[int] = PREFIX_DEPTHS) -> str:
    """Directory prefixes of the changed paths at each depth, then the file names, one token
    each, deduplicated.

    `verl/workers/rollout/x.py` gives `verl`, `verl/workers`, `verl/workers/rollout` and `x.py`;
    a file at the top level gives its own name, so `setup.py` and `README.md` still say
    something. A file name alone (`fsdp_workers.py`, `Dockerfile`) is often the most telling
    part of a path, and it still matches when the file moves to another directory.
    """
    prefixes: list[str] = []
    seen: set[str] = set()

    def add(token: str) -> None:
        if token not in seen:
            seen.add(token)
            prefixes.append(token)

    paths = [path.lower().split("/") for path in _paths(files)]
    for parts in paths:
        directories = parts[:-1] or parts
        for depth in depths:
            if depth > len(directories):
                break
            add("/".join(directories[:depth]))
    for parts in paths:
        add(parts[-1])
    return " ".join(prefixes)


def pr_features(pr: PullRequest, config: ModulesConfig) -> PrFeatures:
    return PrFeatures(
        title=text_without_tags(pr.title, config),
        path_tokens=path_tokens(pr.files),
        path_prefixes=path_prefixes(pr.files),
        description=clean_description(pr.body),
        paths="\n".join(path.lower() for path in _paths(pr.files)),
    )
