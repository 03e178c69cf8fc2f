"""A PR's requirement changes as its author made them, and the words that tell each.

`config_diff` gives one setting change per requirement and manifest. Read one by one they can
mislead: verl #3616 moved flash-attn from requirements.txt to requirements-cuda.txt ("adds
flash-attn; removes flash-attn"), #769 handed pyproject.toml's dependencies to setup.py
("removes accelerate; removes codetiming; ... (+28 more)"), #7127 added uv.lock with 320
packages ("adds locked: accelerate ==1.10.1 ... (+319 more)"). `requirement_edits` groups them
into what was done; `describe` tells an edit with a language's `RequirementPhrases`, so the
stored risk detail and the report in either language say the same thing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from packaging.utils import canonicalize_name

from prhub_pipeline.modelling.scoring.requirements import (
    DYNAMIC,
    DYNAMIC_FIELDS,
    LOCKED,
    requirement_key,
    shown_version,
)
from prhub_pipeline.records import SettingChange


def requirement_place(change: SettingChange) -> tuple[str, str]:
    """(file, group) a requirement is declared in; the group empty for the main list."""
    key = requirement_key(change.key)
    return change.path or "", key.group if key is not None else ""


class RequirementMove(NamedTuple):
    """A project one PR took out of some manifests (or groups) and declared in others, or
    under other extras: one change, not removals and additions. verl #3616 moved flash-attn
    from requirements.txt to requirements-cuda.txt; #6354 moved transferqueue from a setup.py
    extra to two requirements files, re-pinned; #36 moved pytest into setup.py's `test` extra;
    #1385 swapped `sglang[all]` for `sglang[openai,srt]`."""

    project: str
    removed: list[SettingChange]
    added: list[SettingChange]

    @property
    def one_place(self) -> bool:
        """Whether it stays in its file and group, declared under other markers or extras
        (VeOmni #901 split one `av` line by machine)."""
        return len({requirement_place(c) for c in (*self.removed, *self.added)}) == 1

    @property
    def in_place(self) -> bool:
        """One declaration replaced by another in the same file and group."""
        return self.one_place and len(self.removed) == len(self.added) == 1

    @property
    def path(self) -> str | None:
        """The one file the move stays within (from one group to another), if it does."""
        paths = {c.path for c in (*self.removed, *self.added)}
        return paths.pop() if len(paths) == 1 else None

    @property
    def versions(self) -> tuple[str, str] | None:
        """(before, after) when the move also re-pinned it: one version on each side."""
        before = {shown_version(c.before) for c in self.removed}
        after = {shown_version(c.after) for c in self.added}
        if len(before) == len(after) == 1 and before != after:
            return before.pop(), after.pop()
        return None


class DynamicRequirements(NamedTuple):
    """A pyproject.toml that hands its requirements to the build backend (`dynamic =
    ["dependencies"]`, verl #769) or takes them back: the requirements it stops (or starts)
    listing are that one change, not removals (or additions) of each."""

    path: str
    field: str  # `dependencies` or `optional-dependencies`
    to_dynamic: bool
    requirements: list[SettingChange]


# A lock file's changes up to this many are told one by one; more are one `Relock`.
LOCK_CHANGES_TOLD_EACH = 3
RELOCK_EXAMPLES = 2


class Relock(NamedTuple):
    """A lock file's packages one PR re-locked, when they are more than a few: verl #7127
    added uv.lock with 320 packages, VeOmni #469's new extras locked 12 more. They follow from
    the manifests' edits, so they are one edit that counts them, not a list of the first
    few and a count that reads like that many requirement changes."""

    path: str
    changes: list[SettingChange]

    @property
    def repinned(self) -> list[SettingChange]:
        return [c for c in self.changes if c.before is not None and c.after is not None]

    @property
    def added(self) -> list[SettingChange]:
        return [c for c in self.changes if c.before is None]

    @property
    def removed(self) -> list[SettingChange]:
        return [c for c in self.changes if c.after is None]


RequirementEdit = SettingChange | RequirementMove | DynamicRequirements | Relock


def _dynamic_edits(
    changes: Sequence[SettingChange],
) -> dict[int, tuple[DynamicRequirements, list[int]]]:
    """The hand-offs among `changes`, by the position of their `dynamic` marker, with the
    positions of the requirements of that file (and list: main or groups) that went or came
    with it."""
    found: dict[int, tuple[DynamicRequirements, list[int]]] = {}
    for position, marker in enumerate(changes):
        if marker.key not in DYNAMIC_FIELDS or marker.path is None:
            continue
        to_dynamic = marker.after == DYNAMIC and marker.before is None
        if not to_dynamic and not (marker.before == DYNAMIC and marker.after is None):
            continue
        grouped = marker.key == "optional-dependencies"
        positions = [
            j
            for j, c in enumerate(changes)
            if c.path == marker.path
            and c.key not in DYNAMIC_FIELDS
            and (c.after is None if to_dynamic else c.before is None)
            and (key := requirement_key(c.key)) is not None
            and bool(key.group) == grouped
            and key.group != "build"
        ]
        handed = DynamicRequirements(marker.path, marker.key, to_dynamic, [])
        found[position] = (handed, positions)
    return found


def requirement_edits(changes: Sequence[SettingChange]) -> list[RequirementEdit]:
    """A PR's requirement changes as it made them, in the order they first appear: a project
    both removed and added (in other files, groups, extras or markers) as one move, a
    pyproject.toml's hand-off to the build backend as one edit, and the rest one by one, each
    said once (`torch` re-pinned in both setup.py and requirements.txt is one change), and a
    lock file's packages as one re-lock when there are more than LOCK_CHANGES_TOLD_EACH."""
    by_project: dict[str, list[int]] = defaultdict(list)
    by_lock: dict[str, list[int]] = defaultdict(list)
    for position, change in enumerate(changes):
        key = requirement_key(change.key)
        # A lock file's package (`locked: torch`), not a declared requirement.
        if key is not None and key.group == LOCKED and change.path is not None:
            by_lock[change.path].append(position)
        elif (
            key is not None
            and change.key not in DYNAMIC_FIELDS
            and change.path is not None
            and (change.before is None) != (change.after is None)
        ):
            by_project[key.project].append(position)
    grouped: dict[int, RequirementEdit] = {}  # by the position of the edit's first change
    taken: set[int] = set()
    for project, positions in by_project.items():
        removed = [changes[j] for j in positions if changes[j].after is None]
        added = [changes[j] for j in positions if changes[j].before is None]
        if removed and added:
            grouped[positions[0]] = RequirementMove(project, removed, added)
            taken.update(positions)
    for position, (handed, positions) in _dynamic_edits(changes).items():
        left = [j for j in positions if j not in taken]  # a move tells its own
        grouped[position] = handed._replace(requirements=[changes[j] for j in left])
        taken.update([position, *left])
    for path, positions in by_lock.items():
        if len(positions) > LOCK_CHANGES_TOLD_EACH:
            grouped[positions[0]] = Relock(path, [changes[j] for j in positions])
            taken.update(positions)
    edits: list[RequirementEdit] = []
    for position, change in enumerate(changes):
        if position in grouped:
            edits.append(grouped[position])
        elif position not in taken:
            twin = next(
                (
                    i
                    for i, edit in enumerate(edits)
                    if isinstance(edit, SettingChange) and _same_requirement_change(change, edit)
                ),
                None,
            )
            if twin is None:
                edits.append(change)
            elif not _group(change):
                edits[twin] = change  # told as the requirement itself, not its build copy
    return edits


def _group(change: SettingChange) -> str:
    key = requirement_key(change.key)
    return key.group if key is not None else ""


def _same_requirement_change(change: SettingChange, other: SettingChange) -> bool:
    """The same values for one requirement in whichever file or group: vllm-ascend #13901
    re-pinned torch-npu in pyproject.toml's build requirements and in requirements.txt, and
    the report read "build: torch-npu ==2.10.0.post2 → ==2.10.0.post4, ..., torch-npu
    ==2.10.0.post2 → ==2.10.0.post4"."""
    values = (change.before, change.after) == (other.before, other.after)
    return values and _ungrouped_key(change) == _ungrouped_key(other)


def _ungrouped_key(change: SettingChange) -> str:
    """The requirement's key without its group (`build: torch-npu` -> `torch-npu`)."""
    group = _group(change)
    return change.key.removeprefix(f"{group}: ") if group else change.key


@dataclass(frozen=True)
class RequirementPhrases:
    """How a language tells a requirement edit."""

    value: str  # fields key, before, after: a re-pinned requirement
    added: str  # fields key, after (empty, or a space and the version)
    removed: str  # fields key, before (likewise)
    # A project moved to other manifests or groups (`moves flash-attn from A to B`).
    moved: str  # fields project, source, targets, versions
    moved_within: str  # fields project, path, source, targets, versions: between groups
    moved_versions: str  # fields before, after
    main_list: str  # a manifest's requirements outside any group
    # Field groups: a manifest's groups (extras, dependency groups) in a move; one, several.
    groups: tuple[str, str]
    place: str  # fields path, group: a group within a manifest
    # The same project under other extras or marker, in its place.
    replaced: str  # fields before_key, before, after_key, after
    redeclared: str  # fields project, place, before, after: declaration counts
    # A pyproject.toml that leaves its requirements to the build backend, or lists them itself.
    dynamic: str  # fields path, field, n
    static: str  # fields path, field, n
    any_version: str  # an unpinned requirement's version
    list_sep: str
    last_sep: str  # before a list's last item: `to requirements.txt and requirements-npu.txt`
    # A lock file's many packages: its path and its parts, each kind of change counted.
    relock: str  # fields path, parts
    relock_repinned: tuple[str, str]  # field n; one package, several
    relock_added: tuple[str, str]
    relock_removed: tuple[str, str]
    relock_examples: str  # field examples: a few of the first kind's packages
    part_sep: str


ENGLISH = RequirementPhrases(
    value="{key} {before} → {after}",
    added="adds {key}{after}",
    removed="removes {key}{before}",
    moved="moves {project} from {source} to {targets}{versions}",
    moved_within="moves {project} in {path} from {source} to {targets}{versions}",
    moved_versions=" ({before} → {after})",
    main_list="the main list",
    groups=("the group {groups}", "the groups {groups}"),
    place="{path} ({group})",
    replaced="{before_key} {before} → {after_key} {after}",
    redeclared="re-declares {project} in {place} for other environments or extras"
    " ({before} → {after} declarations)",
    dynamic="makes the {field} of {path} dynamic (the build backend reads them),"
    " no longer listing {n} requirements there",
    # Not "again": a project may never have listed them (verl #7127).
    static="lists {n} requirements as the {field} of {path} itself, no longer dynamic",
    any_version="any version",
    list_sep=", ",
    last_sep=" and ",
    relock="{path}: {parts}",
    relock_repinned=("re-pins {n} package", "re-pins {n} packages"),
    relock_added=("adds {n} package", "adds {n} packages"),
    relock_removed=("removes {n} package", "removes {n} packages"),
    relock_examples=" ({examples})",
    part_sep=", ",
)


def describe(
    edit: RequirementEdit, phrases: RequirementPhrases, *, named_path: str | None = None
) -> str:
    """`torch ==2.7.1 → ==2.8.0`, `adds xgrammar`, `removes foo ==1.2`, `moves flash-attn
    from requirements.txt to requirements-cuda.txt`, in `phrases`' language.

    `named_path` is the one file the sentence around the edit already names: a re-lock of it,
    or a move between its groups, does not name it again ("uv.lock (adds 6 packages …)", not
    "uv.lock (uv.lock: adds …)"; "pyproject.toml (moves gradio from the group dev to the main
    list)").
    """
    if isinstance(edit, DynamicRequirements):
        template = phrases.dynamic if edit.to_dynamic else phrases.static
        return template.format(path=edit.path, field=edit.field, n=len(edit.requirements))
    if isinstance(edit, RequirementMove):
        return _describe_move(edit, phrases, name_path=edit.path != named_path)
    if isinstance(edit, Relock):
        return _describe_relock(edit, phrases, name_path=edit.path != named_path)
    # A marker goes after the version (`adds tomli >=1.1.0 (python_version < "3.11")`), not
    # between name and version behind a `;` that reads as the end of the item (torchtitan #1009).
    name, _, marker = edit.key.partition("; ")
    key = requirement_key(name)
    if key is not None and key.group and canonicalize_name(key.group) == key.project:
        # An extra named after the package it installs (torchtitan #4123's `torch-checkpointing`
        # read "adds torch-checkpointing: torch-checkpointing >=0.1.0").
        name = name.removeprefix(f"{key.group}: ")
    condition = f" ({marker})" if marker else ""
    if edit.before is None:
        version = shown_version(edit.after)
        after = f" {version}" if version else ""
        return phrases.added.format(key=name, after=after + condition)
    if edit.after is None:
        version = shown_version(edit.before)
        before = f" {version}" if version else ""
        return phrases.removed.format(key=name, before=before + condition)
    return phrases.value.format(
        key=name + condition,
        before=edit.before or phrases.any_version,
        after=edit.after or phrases.any_version,
    )


def _describe_move(move: RequirementMove, phrases: RequirementPhrases, *, name_path: bool) -> str:
    def version(spec: str | None) -> str:
        return shown_version(spec) or phrases.any_version

    def place(change: SettingChange) -> str:
        path, group = requirement_place(change)
        return phrases.place.format(path=path, group=group) if group else path

    if move.in_place:
        [old], [new] = move.removed, move.added
        return phrases.replaced.format(
            before_key=old.key,
            before=version(old.before),
            after_key=new.key,
            after=version(new.after),
        )
    if move.one_place:
        return phrases.redeclared.format(
            project=move.project,
            place=place(move.removed[0]),
            before=len(move.removed),
            after=len(move.added),
        )
    versions = ""
    if move.versions is not None:
        before, after = (v or phrases.any_version for v in move.versions)
        versions = phrases.moved_versions.format(before=before, after=after)
    if move.path is not None:
        source, targets = (
            _groups(list(dict.fromkeys(requirement_place(c)[1] for c in side)), phrases)
            for side in (move.removed, move.added)
        )
        template = phrases.moved_within if name_path else phrases.moved
        return template.format(
            project=move.project, path=move.path, source=source, targets=targets, versions=versions
        )
    source, targets = (
        _joined(list(dict.fromkeys(place(c) for c in side)), phrases)
        for side in (move.removed, move.added)
    )
    return phrases.moved.format(
        project=move.project, source=source, targets=targets, versions=versions
    )


def _groups(groups: list[str], phrases: RequirementPhrases) -> str:
    """Places in one manifest, its groups said to be groups: torchtitan #4058 moved
    `torch-checkpointing` out of its extra of that name, and read "from torch-checkpointing to
    the main list". `""` is the main list."""
    named = [g for g in groups if g]
    places = [phrases.main_list] if len(named) < len(groups) else []
    if named:
        template = phrases.groups[0] if len(named) == 1 else phrases.groups[1]
        places.append(template.format(groups=_joined(named, phrases)))
    return _joined(places, phrases)


def _joined(items: list[str], phrases: RequirementPhrases) -> str:
    """`a, b and c`: a move's places read as one list inside a list of edits (apache/tvm #19723
    read 'moves psutil from the main list to all, popen-pool, rpc, adds all: tornado')."""
    if len(items) < 2:
        return "".join(items)
    return phrases.list_sep.join(items[:-1]) + phrases.last_sep + items[-1]


def _describe_relock(relock: Relock, phrases: RequirementPhrases, *, name_path: bool) -> str:
    """`uv.lock: re-pins 5 packages (torch ==2.7.1 → ==2.8.0, triton ==3.3.1 → ==3.4.0, …),
    adds 2 packages`: each kind counted, the first with a few of its packages."""

    def package(change: SettingChange) -> str:
        key = requirement_key(change.key)
        name = key.project if key is not None else change.key
        if change.before is not None and change.after is not None:
            return phrases.value.format(key=name, before=change.before, after=change.after)
        return f"{name} {change.after if change.before is None else change.before}"

    parts: list[str] = []
    for templates, changes in (
        (phrases.relock_repinned, relock.repinned),
        (phrases.relock_added, relock.added),
        (phrases.relock_removed, relock.removed),
    ):
        if not changes:
            continue
        part = templates[0 if len(changes) == 1 else 1].format(n=len(changes))
        if not parts:
            shown = [package(c) for c in changes[:RELOCK_EXAMPLES]]
            if len(changes) > RELOCK_EXAMPLES:
                shown.append("…")
            part += phrases.relock_examples.format(examples=phrases.list_sep.join(shown))
        parts.append(part)
    told = phrases.part_sep.join(parts)
    return phrases.relock.format(path=relock.path, parts=told) if name_path else told
