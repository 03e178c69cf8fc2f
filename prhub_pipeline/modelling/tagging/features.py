"""What the module classifier sees of a PR: the title without its tags, the changed paths
(as tokens and as prefixes at several depths), the author's prose from the description, and
who the author is.

Nothing here ever returns a title's module prefix: the labels come from that prefix, so a
model that saw it would learn to read the answer rather than the change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tagging.tags import text_without_tags
from prhub_pipeline.modelling.text.pr_summaries import URL, prose
from prhub_pipeline.modelling.text.pr_titles import parse_title
from prhub_pipeline.records import FileChange, PullRequest

PREFIX_DEPTHS = (1, 2, 3, 4)
MAX_DESCRIPTION_CHARS = 3000

# `[fsdp] fix: ...` quoted in the description; markdown links `[text](url)` stay.
_BRACKETED_TAGS = re.compile(r"[\[【][^\]】]{0,60}[\]】](?!\()")
_PATH_SPLIT = re.compile(r"[/._\-\s]+")


class PrFeatures(BaseModel):
    """One PR's classifier inputs, as plain text fields (one vectorizer each)."""

    model_config = ConfigDict(frozen=True)

    title: str
    # The kind of change the title's words say (`fix`, `feat`, `refactor`, ... `other`), as
    # `pr_titles.parse_title` reads a title without its tags and type.
    title_type: str = ""
    path_tokens: str
    path_prefixes: str
    description: str
    paths: str = ""  # the changed paths, lowercased, one a line (for the path label memory)
    author: str = ""  # the author's name, lowercased (for the author label memory)

    @property
    def title_and_type(self) -> str:
        """The title's words and, as one word more, the kind of change they say (`__fix__`)."""
        return f"{self.title} __{self.title_type}__" if self.title_type else self.title


def model_description(body: str) -> str:
    """The description as the model sees it: the author's prose (`pr_summaries.prose`: no template,
    code, quotes or tables) without URLs or bracketed tags, since a description quoting its own
    title must not leak the labels."""
    return _BRACKETED_TAGS.sub(" ", URL.sub(" ", prose(body)))[:MAX_DESCRIPTION_CHARS]


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
    title = text_without_tags(pr.title, config)
    return PrFeatures(
        title=title,
        title_type=parse_title(title).type,
        path_tokens=path_tokens(pr.files),
        path_prefixes=path_prefixes(pr.files),
        description=model_description(pr.body),
        **_remembered(pr),
    )


def memory_features(pr: PullRequest) -> PrFeatures:
    """The fields the label memories read (paths, author), the text fields empty: a PR older
    than the linear models' window is remembered, not read (see `classifier.LINEAR_WINDOW`)."""
    return PrFeatures(title="", path_tokens="", path_prefixes="", description="", **_remembered(pr))


def _remembered(pr: PullRequest) -> dict[str, str]:
    return {
        "paths": "\n".join(path.lower() for path in _paths(pr.files)),
        "author": (pr.author or "").strip().lower(),
    }
