"""The report's key-change sections: which PRs each section holds and in what order.

A PR is listed in one section: the revert chain, the most populous of its themes or modules, a
folder its code mostly changes (for a busy week's PRs without a module), or the unlabelled.
Small sections of a busy week share a closing one. Nothing here is worded: `wording`
writes each section's heading and lead.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import file_kind
from prhub_pipeline.modelling.tagging.tags import areas_of, normalise_tag
from prhub_pipeline.paths import DEPENDENCY_FILES, DOCKER_FILES, matches_any
from prhub_pipeline.records import PullRequest, RiskFlag
from prhub_pipeline.reporting.models import PrRef

MAX_GROUP_ITEMS = 5
# Sections of a busy week's key changes: past this many, the module and theme groups of at most
# SMALL_GROUP_PRS PRs share one closing section (vllm-ascend's weeks had up to 25 sections). A
# group holds only the PRs grouped under its label: the label may have more in other groups.
MAX_SECTIONS = 10
SMALL_GROUP_PRS = 2
# A label's other PRs in more sections than this: its lead names one fewer, those holding the
# most of them, and counts the rest. vllm-ascend's 2026-08-03 sent its NPU/Ascend readers to
# eight sections, nearly every other one, before NPU/Ascend was its subject.
MAX_SEE_ALSO = 4
# A theme that more than this share of a week's PRs carry heads no section (weeks of at least
# DOMINANT_THEME_MIN_PRS PRs): in vllm-ascend every PR is NPU work.
DOMINANT_THEME_SHARE = 0.5
DOMINANT_THEME_MIN_PRS = 10
# A week without a key PR keeps a section for each group holding one of its NO_KEY_TOP most
# important PRs, those "Key PRs at a glance" lists: torchtitan's 2026-02-02 (no PR over 5.4)
# had only its unlabelled changes (3.0-3.7), and its three most important PRs in no section.
NO_KEY_TOP = 3
GroupKind = Literal["revert", "label", "place", "other", "more"]
# The name of the unlabelled group beside folders' sections: the report must say that these
# are the unlabelled PRs the folders did not take (vllm-ascend's 2026-08-10 read "10 PRs this
# week not filed under a module or theme" above three more in "Unlabelled changes in
# vllm_ascend/worker/").
BESIDE_PLACES = "beside places"


# The folders a PR's code is placed in, narrowest first: `src/transform/`, or
# `slime/backends/megatron_utils/` within `slime/backends/`. A place has two parts at least:
# `src/` or a package's own folder says nothing.
PLACE_DEPTHS = (3, 2)
# A week's unlabelled PRs are sorted into the folders they change once there are this many:
# tilelang's `[BugFix]`-only weeks had 31 in one section.
MIN_PLACED_PRS = 6


def code_places(pr: PullRequest, scoring: ScoringConfig) -> list[str | None]:
    """At each of PLACE_DEPTHS, the folder that holds at least half of the lines of a PR's
    changed code, if one does; none when it changes no code (tests, docs, CI only)."""
    code = [change for change in pr.files if file_kind(change.path, scoring) is None]
    total = sum(max(change.lines, 1) for change in code)
    places: list[str | None] = []
    for depth in PLACE_DEPTHS:
        lines: Counter[str] = Counter()
        for change in code:
            parts = change.path.split("/")
            kept = min(depth, len(parts) - 1)  # a file's folder, at most `depth` deep
            if kept >= 2:
                lines["/".join(parts[:kept]) + "/"] += max(change.lines, 1)
        folder, held = max(lines.items(), key=lambda item: (item[1], item[0]), default=("", 0))
        places.append(folder if held and 2 * held >= total else None)
    return places


HOUSEKEEPING_FILES = (".github/**", *DOCKER_FILES, *DEPENDENCY_FILES)


def code_leads(pr: PullRequest, scoring: ScoringConfig) -> bool:
    """Whether more of a PR's changed lines are code than the files housekeeping is about:
    docs, data, the repository's own setup (`.github/`: workflows, issue templates), image
    builds and all under `docker/` (slime's patches to SGLang), dependency manifests and
    vendored libraries. Tests and generated code are neither: they come with either kind of
    change."""
    code = around = 0
    for change in pr.files:
        kind = file_kind(change.path, scoring)
        if kind is None and not matches_any(change.path, HOUSEKEEPING_FILES):
            code += max(change.lines, 1)
        elif kind not in ("test", "generated"):
            around += max(change.lines, 1)
    return code > around


@dataclass(frozen=True)
class Group:
    """A group of the week's changes: the revert chain, a theme or module, the unlabelled
    changes of a folder (`place`), the other unlabelled, or ("more") the small modules and
    themes of a busy week together."""

    kind: GroupKind
    # The theme, module or folder; the kind for the other three, but BESIDE_PLACES for the
    # unlabelled PRs that no folder's section took.
    name: str
    members: list[PrRef]
    shown: list[PrRef]  # the items; the rest are mentioned briefly
    rest: list[PrRef]
    # Each PR sits in one group, so a theme or module can have more PRs than its group:
    # `label_total` is the label's count this week (the trend table's), `see_also` the other
    # groups holding its PRs, in report order (at most MAX_SEE_ALSO: `see_also_unnamed` counts
    # those past it), and `in_appendix_only` how many no group shows.
    label_total: int = 0
    see_also: tuple[tuple[GroupKind, str], ...] = ()
    see_also_unnamed: int = 0
    in_appendix_only: int = 0
    # The "more" group's PRs: the module or theme each would have headed.
    label_of: Mapping[int, str] = field(default_factory=dict)

    @property
    def key_count(self) -> int:
        return sum(1 for r in self.members if r.is_key)


def dominant_themes(ordered: Sequence[PrRef], themes: Mapping[int, Sequence[str]]) -> set[str]:
    """Themes that more than DOMINANT_THEME_SHARE of the week's PRs carry (weeks of at least
    DOMINANT_THEME_MIN_PRS PRs): they say nothing about any one PR."""
    if len(ordered) < DOMINANT_THEME_MIN_PRS:
        return set()
    counts = Counter(t for r in ordered for t in set(themes.get(r.number, ())))
    return {t for t, n in counts.items() if n > DOMINANT_THEME_SHARE * len(ordered)}


def groups(
    ordered: Sequence[PrRef],
    themes: Mapping[int, list[str]],
    risks: Sequence[RiskFlag],
    housekeeping: Mapping[str, Sequence[str]],
    stand_ins: Collection[str] = (),
) -> list[Group]:
    """Each PR in one group; groups without a key PR and under three PRs are left out, but for
    those of a week without a key PR that hold one of its NO_KEY_TOP most important.
    `stand_ins` are the housekeeping modules that stand for a theme the report leaves out
    (`themes.themes_named_modules_stand_for`), as tags."""
    reverts = {f.number for f in risks if f.risk in ("revert", "reverted")}
    top = set() if any(r.is_key for r in ordered) else {r.number for r in ordered[:NO_KEY_TOP]}
    sizes: Counter[str] = Counter()
    for ref in ordered:
        sizes.update(set(ref.modules) | set(themes.get(ref.number, [])))
    dominant = dominant_themes(ordered, themes)
    members: dict[tuple[GroupKind, str], list[PrRef]] = defaultdict(list)
    group_of: dict[int, tuple[GroupKind, str]] = {}
    for ref in ordered:
        group_of[ref.number] = _group_of(
            ref, themes, reverts, sizes, housekeeping, dominant, stand_ins
        )
        members[group_of[ref.number]].append(ref)
    found = [
        _group(kind, name, refs)
        for (kind, name), refs in members.items()
        if _keeps_a_section(kind, refs, top)
    ]
    found = _without_keyless(found)
    unlabelled = members.get(("other", "other"), [])
    if len(unlabelled) >= MIN_PLACED_PRS:
        found = _with_places(found, unlabelled, group_of, top)
    found = sorted(_gather_small(found, group_of), key=_section_order)
    order = {(g.kind, g.name): position for position, g in enumerate(found)}
    return [_with_label_spread(g, ordered, themes, group_of, order) for g in found]


def _keeps_a_section(kind: GroupKind, refs: Sequence[PrRef], top: Collection[int]) -> bool:
    """The revert chain always; another group with three PRs, or with a key PR or one of the
    `top` PRs of a week without a key PR."""
    return kind == "revert" or len(refs) >= 3 or any(r.is_key or r.number in top for r in refs)


def _group(kind: GroupKind, name: str, refs: list[PrRef]) -> Group:
    """A section: the revert chain shows every PR, another its key PRs (else its first three)."""
    key_refs = [r for r in refs if r.is_key]
    shown = refs if kind == "revert" else (key_refs or refs[:3])[:MAX_GROUP_ITEMS]
    return Group(kind, name, refs, shown, [r for r in refs if r not in shown])


def _with_places(
    found: list[Group],
    unlabelled: Sequence[PrRef],
    group_of: dict[int, tuple[GroupKind, str]],
    top: Collection[int],
) -> list[Group]:
    """The groups with the unlabelled PRs that share a folder (`PrRef.places`) in a section
    of their own, in the room the modules and themes leave: the sections MAX_SECTIONS has
    beyond theirs, counting those of one or two PRs as the one they can be gathered into. So
    a folder never pushes a module out; the PRs of a folder without room stay unlabelled."""
    fixed = [g for g in found if g.kind != "label" or len(g.members) > SMALL_GROUP_PRS]
    room = MAX_SECTIONS - len(fixed) - (1 if len(found) > len(fixed) else 0)
    placed = _placed(unlabelled, room, top)
    if not placed:
        return found
    group_of.update(placed)
    by_folder: dict[str, list[PrRef]] = defaultdict(list)
    for ref in unlabelled:
        if ref.number in placed:
            by_folder[placed[ref.number][1]].append(ref)
    rest = [r for r in unlabelled if r.number not in placed]
    group_of.update({r.number: ("other", BESIDE_PLACES) for r in rest})
    kept = [g for g in found if g.kind != "other"]
    if _keeps_a_section("other", rest, top):
        kept.append(_group("other", BESIDE_PLACES, rest))
    return kept + [_group("place", folder, refs) for folder, refs in by_folder.items()]


def _nested_folders_joined(
    found: list[tuple[str, list[PrRef]]], unlabelled: Sequence[PrRef]
) -> list[tuple[str, list[PrRef]]]:
    """Each folder's PRs, with those of a folder inside it that has no more PRs of its own
    (in the week's order). A larger inner folder keeps its section: slime's 22 PRs in
    `slime/backends/megatron_utils/` say more than `slime/backends/` would."""
    own: dict[str, set[int]] = defaultdict(set)  # a folder both passes found is one folder
    for folder, refs in found:
        own[folder].update(r.number for r in refs)
    folders = sorted(own, key=len)  # the widest first
    outer = {
        folder: next(w for w in folders if folder.startswith(w) and len(own[folder]) <= len(own[w]))
        for folder in folders
    }
    numbers: dict[str, set[int]] = defaultdict(set)
    for folder in folders:
        numbers[outer[folder]] |= own[folder]
    return [
        (folder, [r for r in unlabelled if r.number in held]) for folder, held in numbers.items()
    ]


def _placed(
    unlabelled: Sequence[PrRef], room: int, top: Collection[int]
) -> dict[int, tuple[GroupKind, str]]:
    """The unlabelled PRs that share a folder, by folder: the narrowest first, then the wider
    ones for the PRs left. A folder needs two PRs that would keep a section as a module's
    would; of more than `room` such folders, those with the most PRs, then the most key PRs,
    get one. A narrow folder inside a wider one with as many PRs joins it: a section of
    `vllm_omni/entrypoints/` (5 PRs) beside one of `vllm_omni/entrypoints/openai/` (4) reads
    as if the first held none of the second's changes."""
    found: list[tuple[str, list[PrRef]]] = []
    placed: set[int] = set()
    for position in range(len(PLACE_DEPTHS)):
        by_folder: dict[str, list[PrRef]] = defaultdict(list)
        for ref in unlabelled:
            folder = ref.places[position] if position < len(ref.places) else None
            if ref.number not in placed and folder is not None:
                by_folder[folder].append(ref)
        for folder, refs in by_folder.items():
            if len(refs) >= 2 and _keeps_a_section("place", refs, top):
                found.append((folder, refs))
                placed.update(r.number for r in refs)
    found = _nested_folders_joined(found, unlabelled)
    found.sort(key=lambda item: (-len(item[1]), -sum(r.is_key for r in item[1]), item[0]))
    return {r.number: ("place", folder) for folder, refs in found[: max(room, 0)] for r in refs}


def _section_order(group: Group) -> tuple[bool, float]:
    """The revert chain first, then by the most important PR a section shows."""
    return group.kind != "revert", -max(r.importance for r in group.shown)


def _without_keyless(found: list[Group]) -> list[Group]:
    """Past MAX_SECTIONS, the groups kept only for their size (no key PR) give way, least
    important first: the appendix lists their PRs, and key PRs keep sections of their own
    (verl's 2026-01-05 showed six docs PRs scoring under 2 while PRs of 9.6 were gathered)."""
    excess = len(found) - MAX_SECTIONS
    keyless = [g for g in found if g.kind == "label" and not any(r.is_key for r in g.members)]
    if excess <= 0 or not keyless:
        return found
    keyless.sort(key=lambda g: max(r.importance for r in g.members))
    dropped = {id(g) for g in keyless[:excess]}
    return [g for g in found if id(g) not in dropped]


def _gather_small(found: list[Group], group_of: dict[int, tuple[GroupKind, str]]) -> list[Group]:
    """At most MAX_SECTIONS groups: past it, the small module, theme and folder groups (one
    or two PRs), least important first, become one "more" group; `group_of` follows them.
    By importance before size: a module whose one PR is the week's most important keeps its
    section (vllm-ascend's 2026-07-27 gathered its 10.0 kernel PR into "Other key changes")."""
    small = sorted(
        (g for g in found if g.kind in ("label", "place") and len(g.members) <= SMALL_GROUP_PRS),
        key=lambda g: (max(r.importance for r in g.members), len(g.members)),
    )
    # A quiet week keeps every section: `small[:negative]` would still gather its first groups.
    excess = len(found) - (MAX_SECTIONS - 1)
    gathered = small[:excess] if len(found) > MAX_SECTIONS else []
    if len(gathered) < 2:
        return found
    refs = sorted((r for g in gathered for r in g.members), key=lambda r: -r.importance)
    for ref in refs:
        group_of[ref.number] = ("more", "more")
    shown = ([r for r in refs if r.is_key] or refs[:3])[:MAX_GROUP_ITEMS]
    more = Group(
        kind="more",
        name="more",
        members=refs,
        shown=shown,
        rest=[r for r in refs if r not in shown],
        label_of={r.number: g.name for g in gathered for r in g.members},
    )
    gathered_ids = {id(g) for g in gathered}
    return [g for g in found if id(g) not in gathered_ids] + [more]


def _with_label_spread(
    group: Group,
    ordered: Sequence[PrRef],
    themes: Mapping[int, list[str]],
    group_of: Mapping[int, tuple[GroupKind, str]],
    order: Mapping[tuple[GroupKind, str], int],
) -> Group:
    """The group with where the rest of its label's PRs went (see `Group.label_total`)."""
    if group.kind != "label":
        return replace(group, label_total=len(group.members))
    elsewhere = [
        group_of[r.number]
        for r in ordered
        if group.name in (*r.modules, *themes.get(r.number, []))
        and group_of[r.number] != (group.kind, group.name)
    ]
    held = Counter(g for g in elsewhere if g in order)
    named = sorted(held, key=lambda g: (-held[g], order[g]))
    if len(named) > MAX_SEE_ALSO:
        named = named[: MAX_SEE_ALSO - 1]
    return replace(
        group,
        label_total=len(group.members) + len(elsewhere),
        see_also=tuple(sorted(named, key=order.__getitem__)),
        see_also_unnamed=len(held) - len(named),
        in_appendix_only=sum(1 for g in elsewhere if g not in order),
    )


def _group_of(
    ref: PrRef,
    themes: Mapping[int, list[str]],
    reverts: set[int],
    sizes: Mapping[str, int],
    housekeeping: Mapping[str, Sequence[str]],
    dominant: Collection[str] = (),
    stand_ins: Collection[str] = (),
) -> tuple[GroupKind, str]:
    """A PR's one group: the revert chain, else its most populous theme, else its most
    populous module this week (so `[model, fsdp]` joins a busy FSDP group), else the
    unlabelled: a type-only tag is no area (`[BugFix][CUDA]` joins cuda, `[BugFix]` alone joins
    the unlabelled, where tilelang's `[BugFix]`, `[Fix]` and `[Feature]` made three sections).

    A housekeeping theme (Docs, CI, ...) counts as a theme only when the PR is about it: its
    own modules are the theme's and other housekeeping only (`[doc]` with Docs; `misc` names
    no place either). VeOmni tags the CI and docs a change touches: `[ckpt, ci, agent] fix:
    handle integer tensors in HF consolidation` is checkpoint work. Otherwise the theme, like
    a housekeeping module itself, and like one the PR has from its paths alone (a feature that
    adds a dependency), comes after the PR's other modules. A `dominant` theme, one most of the
    week's PRs carry (NPU in an Ascend-only repository), says nothing about the PR: it comes
    last. A module the classifier is unsure of (`PrRef.unsure`) decides nothing: slime's fixes
    that register their test in CI were guessed `ci` at 0.2-0.5 and shown as the week's CI
    work. Nor does a housekeeping theme, or a housekeeping module the classifier guessed, for a
    PR without a module of its own whose code, mostly in one folder, outweighs its docs, CI,
    image and dependency files (`code_leads`): slime's "whiten advantages over the DP group"
    changes 40 lines of `loss.py` and registers its test in a workflow, and was guessed `ci`
    at 0.52; its folder files it. A housekeeping module of the PR's own that stands for its
    theme (`stand_ins`: the theme is left out) files it as the theme would: vllm-ascend's
    `[Doc]` PRs on multimodal models are docs work, not a Multimodal section's."""
    if ref.number in reverts:
        return "revert", "revert"
    chore_modules = {normalise_tag(m) for names in housekeeping.values() for m in names}
    sure = [m for m in ref.modules if m not in ref.unsure]
    theirs = themes.get(ref.number, [])
    if ref.code_leads and any(ref.places) and (ref.predicted or not sure):
        sure = [m for m in sure if not ref.predicted or normalise_tag(m) not in chore_modules]
        theirs = [t for t in theirs if sure or t not in housekeeping]
    own = [t for t in theirs if t not in dominant]
    modules = {normalise_tag(m) for m in sure}
    areas = areas_of(sure)
    product = [m for m in areas if normalise_tag(m) not in chore_modules]
    tagged = [
        t
        for t in own
        if t not in housekeeping
        or (not product and modules & {normalise_tag(m) for m in housekeeping[t]})
    ]
    if not product and not ref.predicted:
        tagged += [m for m in areas if normalise_tag(m) in stand_ins]
    for labels in (tagged, product, areas, own, theirs):
        if labels:
            return "label", max(labels, key=lambda name: (sizes.get(name, 0), -labels.index(name)))
    return "other", "other"
