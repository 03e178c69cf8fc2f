"""Which settings a PR changed in its configuration files, from the files' text before and after.

A risk report that says "defaults may have changed" whenever a config file was edited cries wolf:
most edits are comments, type hints, new options or reformatting. Comparing the parsed settings
says exactly which values changed (`algorithm.use_legacy_worker_impl: auto -> disable`) and which
settings went away, and says nothing when none did.

YAML files are compared key by key after parsing: nested keys dotted, a Hydra `defaults` list
entry by entry, a list of mappings entry by entry (by the field that names its entries, else by
position, its entries matched by content across the two versions), other lists and empty
mappings as one value. Python config files (dataclasses, settings classes, module constants,
argparse options) are compared by the default each field, name or `--option` is given: a
rewritten type hint or docstring is no change.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.requirements import is_read_manifest, requirement_settings
from prhub_pipeline.paths import CI_FILES, DEPENDENCY_FILES, matches_any
from prhub_pipeline.records import (
    ConfigFileDiff,
    FileChange,
    FileVersions,
    PullRequest,
    SettingChange,
)

# libyaml's loader when PyYAML was built with it: ten times faster on large Hydra configs.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _WorkflowLoader(_YAML_LOADER):  # type: ignore[misc,valid-type]
    """YAML as CI services read it (1.2's booleans): GitHub Actions' `on:` is the key of a
    workflow's triggers, where YAML 1.1 reads the boolean true (`True.pull_request`)."""


_WorkflowLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _YAML_LOADER.yaml_implicit_resolvers.items()
}
_WorkflowLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# Larger files are generated data, not settings someone edits by hand.
MAX_CONFIG_BYTES = 2_000_000
MAX_CONFIG_NODES = 200_000
_ENUM_BASE = re.compile(r"\b(?:Str|Int)?(?:Enum|Flag)$")
_MODULE_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
_VERSION_CONSTANT = re.compile(r"(?:^|_)VERSION$")
_EMPTY_BUILT_INS = {"list": "[]", "dict": "{}", "set": "set()", "tuple": "()"}
# YAML 1.1 reads `1e-5` as a string and `1.0e-5` as a number; Hydra reads both as numbers.
_EXPONENT_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+")
_YAML_SUFFIXES = (".yaml", ".yml")
# One OmegaConf interpolation as a whole value: `${a.b}`, `${.b}`, `${oc.select:a.b, default}`.
_INTERPOLATION = re.compile(r"\$\{(?:oc\.select:)?\s*(?P<path>\.*[A-Za-z_][\w.]*)\s*(?:,.*)?\}")
# An example's or a recipe's own configuration, which users copy and run from their copy: its
# deletion takes no setting from them. slime #1431 "cleanup redundant example and scripts"
# deleted `examples/eval/nemo_skills/config/local_cluster.yaml` and scored as breaking; so did
# verl #6126 its old multi-turn examples' configs, #4795 the recipes it moved to their own
# repository, and 11 of NeMo RL's PRs a recipe of `examples/configs/recipes/`. A config right
# in `examples/configs/` is what the examples share: NeMo RL's recipes extend
# `examples/configs/grpo_math_1B.yaml`, as verl's configs extend `verl/trainer/config/`.
_EXAMPLE_CONFIGS = ("**/examples/**", "**/example/**", "**/recipe/**", "**/recipes/**")
_SHARED_EXAMPLE_CONFIGS = (
    "**/examples/config/*",
    "**/examples/configs/*",
    "**/example/config/*",
    "**/example/configs/*",
)
# Fields that name an entry of a list of mappings, the most stable first: verl's tools and
# interactions gained a `name` beside their `class_name` (#2184), so the class names them.
ENTRY_NAME_FIELDS = ("_target_", "class_name", "name", "id", "key")


def config_files(pr: PullRequest, config: ScoringConfig) -> list[FileChange]:
    """The PR's configuration files whose settings users run with, edited or new, and the
    Python ones it deleted.

    A new file changes no existing default, but shows where a removed setting moved to. A
    deleted Python module is compared with nothing: users set its settings by name (a command
    line's `--option`, a dataclass field), which are gone unless they moved to another file.
    slime #1664 deleted `fsdp_utils/arguments.py` with its 34 options, and was not flagged;
    vllm-ascend #13888 split `moe_runtime_args.py`, which held none. An example's deleted
    module takes none (`is_example_config`): torchtitan #3582 deleted its RL example's
    `examples/sum_digits/env.py`.
    """
    return [
        f
        for f in pr.files
        if (
            (f.status in ("modified", "renamed", "added") and f.edits_content)
            or (f.status == "removed" and f.path.endswith(".py") and not is_example_config(f.path))
        )
        and is_user_config(f.path, config)
    ]


def manifest_files(pr: PullRequest) -> list[FileChange]:
    """The PR's dependency manifests whose requirements can be compared, edited or new."""
    return [
        f
        for f in pr.files
        if f.status in ("modified", "renamed", "added")
        and f.edits_content
        and matches_any(f.path, DEPENDENCY_FILES)
        and is_read_manifest(f.path)
    ]


def ci_workflow_files(pr: PullRequest) -> list[FileChange]:
    """The PR's CI files that are YAML (GitHub Actions workflows and the lists they read),
    edited or new: whether an edit changed what was there or only added jobs and entries."""
    return [
        f
        for f in pr.files
        if f.status in ("modified", "renamed", "added")
        and f.edits_content
        and matches_any(f.path, CI_FILES)
        and f.path.lower().endswith(_YAML_SUFFIXES)
    ]


def compared_files(pr: PullRequest, config: ScoringConfig) -> list[FileChange]:
    """The files ingest reads before and after the PR: configuration files, manifests and CI
    workflows."""
    manifests = [f for f in manifest_files(pr) if not is_user_config(f.path, config)]
    files = [*config_files(pr, config), *manifests, *ci_workflow_files(pr)]
    return list({f.path: f for f in files}.values())  # a file of two kinds is read once


def deleted_config_files(pr: PullRequest, config: ScoringConfig) -> list[str]:
    """The YAML configuration files a PR deletes: whoever selected one by name (verl #5382
    deleted `sft_trainer.yaml`, run as `--config-name sft_trainer`) has nothing to run with. A
    Python module is imported by the code, not chosen by users: what a deleted one takes away
    is the settings that did not move (`config_files`). An example's or a recipe's config is
    no such file (`is_example_config`)."""
    return [
        f.path
        for f in pr.files
        if f.status == "removed"
        and f.path.lower().endswith(_YAML_SUFFIXES)
        and is_user_config(f.path, config)
        and not is_example_config(f.path)
    ]


def is_example_config(path: str) -> bool:
    """A configuration file of one example or recipe, which users copy rather than select:
    deleting it takes no setting from anyone (`_EXAMPLE_CONFIGS`)."""
    return matches_any(path, _EXAMPLE_CONFIGS) and not matches_any(path, _SHARED_EXAMPLE_CONFIGS)


def is_user_config(path: str, config: ScoringConfig) -> bool:
    """A configuration file users run with: a test's or a CI job's own sets no such default."""
    return matches_any(path, config.config_paths) and not matches_any(
        path, [*config.test_paths, *CI_FILES]
    )


def compare_config(path: str, before: str | None, after: str | None) -> list[SettingChange] | None:
    """The settings that differ between two versions of one file, by key; None when either
    version is missing or cannot be parsed as the file's kind (YAML, or Python for `.py`)."""
    comparison = _SettingsReader().compare(path, before, after)
    return None if comparison is None else comparison.changes


def config_file_diffs(repo: str, versions: Iterable[FileVersions]) -> list[ConfigFileDiff]:
    """One ConfigFileDiff per file version pair, in the order given."""
    reader = _SettingsReader()
    diffs = []
    for version in versions:
        # A new file is compared with an empty one: all its settings are added; a deleted one
        # likewise, all its settings removed.
        before = "" if version.status == "added" and version.before is None else version.before
        after = "" if version.status == "removed" and version.after is None else version.after
        comparison = reader.compare(version.path, before, after)
        # A file the PR changed with the same text on both sides was read across the wrong
        # commits: the merge commit of a PR rebased in several commits is its last one, whose
        # parent is the PR's own previous commit. "No setting changed" would be a guess.
        if version.status == "modified" and before is not None and before == version.after:
            comparison = None
        diffs.append(
            ConfigFileDiff(
                repo=repo,
                pr_number=version.pr_number,
                path=version.path,
                comparable=comparison is not None,
                changes=comparison.changes if comparison else [],
                keeps_existing=comparison is not None and comparison.keeps_existing,
            )
        )
    return diffs


@dataclass(frozen=True)
class _Comparison:
    changes: list[SettingChange]
    keeps_existing: bool  # see ConfigFileDiff.keeps_existing


class _SettingsReader:
    """Parses each distinct text once: one PR's new version of a file is often the next PR's
    old one, and parsing large YAML files is most of the cost."""

    def __init__(self) -> None:
        self._parsed: dict[tuple[str, str], _Parsed | None] = {}

    def compare(self, path: str, before: str | None, after: str | None) -> _Comparison | None:
        if before is None or after is None:
            return None
        old, new = self._settings(path, before, after)
        if old is None or new is None:
            return None
        # A value that became a mapping (`extra_configs: {}` gaining keys, `qat: null` becoming
        # a section) is not a removed setting: its new keys say what it holds now.
        parents = _key_prefixes(new)
        changes = [
            SettingChange(key=key, before=old.get(key), after=new.get(key))
            for key in sorted(old.keys() | new.keys())
            if not _same_value(old.get(key), new.get(key))
            # A reference whose text is unchanged follows its target, reported on its own.
            and not _same_value(_resolved(old, key), _resolved(new, key))
            and not (key not in new and key in parents)
        ]
        return _Comparison(changes, _keeps_existing(changes, old, new))

    def _settings(
        self, path: str, before: str, after: str
    ) -> tuple[dict[str, str] | None, dict[str, str] | None]:
        """Both versions' settings; YAML lists of unnamed mappings with their entries matched
        across the versions (`_matched_entries`)."""
        old, new = self._parse(path, before), self._parse(path, after)
        if isinstance(old, _YamlDocuments) and isinstance(new, _YamlDocuments):
            old_documents, new_documents = _matched_documents(old.documents, new.documents)
            return _yaml_settings(old_documents), _yaml_settings(new_documents)
        return (
            old if isinstance(old, dict) else None,
            new if isinstance(new, dict) else None,
        )

    def _parse(self, path: str, text: str) -> _Parsed | None:
        name = path.lower()
        if is_read_manifest(path):
            kind = "requirements"
        elif name.endswith(".py"):
            kind = "python"
        elif name.endswith(_YAML_SUFFIXES):
            kind = "workflow" if matches_any(path, CI_FILES) else "yaml"
        else:
            return None
        key = (kind, text)
        if key not in self._parsed:
            self._parsed[key] = _parse(kind, path, text)
        return self._parsed[key]


def _key_prefixes(settings: Iterable[str]) -> set[str]:
    """Every key's parents: its text up to each `.` or `[` in it (`jobs.test.steps`)."""
    return {key[:at] for key in settings for at, char in enumerate(key) if char in ".["}


# A GitHub Actions job (`jobs.<id>`, ids have no dots): a workflow's jobs run apart, so a new
# one leaves the others as they were.
_NEW_JOB = re.compile(r"(?:\[\d+\]\.)?jobs\.[^.\[]+")


def _keeps_existing(
    changes: Sequence[SettingChange], old: Mapping[str, str], new: Mapping[str, str]
) -> bool:
    """Whether `changes` leave every setting the file had as it was: each one is part of a
    whole new entry of a list of mappings (a test in a workflow's matrix) or a new job under
    `jobs`, widens a trigger (`_widens_trigger`), or the file had no settings; in a file that
    runs nothing (`_RUNS`), new keys and items appended to lists too. A key added to an entry
    that was there already changes it: a step given `if:` or `continue-on-error:` runs
    differently. So do entries put in another order (tilelang #1456 moved clang-tidy after the
    install), and a step put before a job's last one (verl #2831 prepared a dataset before the
    tests ran, #4560 pointed apt at a cache); one after them all, such as a new test, leaves
    them as they ran."""
    if not old:
        return True
    # The cheap tests first: most edits of a config change or remove a value.
    if not all(_adds_to(change.before, change.after) for change in changes):
        return False
    runs = any(_RUNS.search(key) for key in old)
    if runs and any(
        change.before is not None and not _widens_trigger(change) for change in changes
    ):
        return False
    old_orders, new_orders = _entry_orders(old), _entry_orders(new)
    for listed, labels in old_orders.items():
        kept = set(labels)
        if [label for label in new_orders.get(listed, []) if label in kept] != labels:
            return False
    if not runs:
        # CI data, such as vllm-ascend's lists of tests and the sources that trigger them: a
        # new key or a longer list adds to it.
        return True
    existing = _key_prefixes(old) | set(old)
    for change in changes:
        if _widens_trigger(change):
            continue
        key = change.key
        job = _NEW_JOB.match(key)
        entries = (key[: at + 1] for at, char in enumerate(key) if char == "]")
        parts = [*([job.group()] if job else []), *entries]
        if not any(_new_part(part, existing, old_orders, new_orders) for part in parts):
            return False
    return True


# A setting of a file that runs something: a workflow's jobs and triggers, a step, a script.
_RUNS = re.compile(r"(?:^|[.\]])(?:on|jobs|steps|script|run)(?:[.\[]|$)")
# A workflow trigger's filter list: `on.push.branches`, `on.pull_request.paths`, `.types`.
_TRIGGER_FILTER = re.compile(r"on\.[\w-]+\.(?:branches|tags|paths|types)")


def _widens_trigger(change: SettingChange) -> bool:
    """Whether a change only lets a workflow run on more events, every run it had kept: a
    trigger's existing list of branches, tags, paths or event types gained items
    (vllm-ascend #124 ran its linters on `*-dev` branches too, verl #327 its tests on
    `v0.2.x`). A new filter narrows what ran on everything, and a `!pattern` excludes."""
    before, after = change.before, change.after
    if before is None or after is None or not _TRIGGER_FILTER.fullmatch(change.key):
        return False
    old, new = _sequence(before), _sequence(after)
    if old is None or new is None or not _keeps_in_order(old, new):
        return False
    return not any(
        isinstance(item, str) and item.startswith("!") for item in new if item not in old
    )


def extends_constant(path: str, change: SettingChange) -> bool:
    """Whether a change only appends items to a Python constant's list or tuple: an UPPER_CASE
    name is the code's, not a setting users run with, and one that lists what the code supports
    grows with it (vllm-ascend #13819 added `dflash` to
    `DynamicSpecConfig.SUPPORTED_METHODS`, #2162 `kimi_k2` to `TORCHAIR_MODEL_LIST`). A
    setting's list that grew changes what users get: verl #1451 made the SFT trainer's
    `trainer.logger` `["console", "wandb"]`."""
    name = change.key.rsplit(".", 1)[-1]
    return (
        path.endswith(".py")
        and change.before is not None
        and bool(_MODULE_CONSTANT.fullmatch(name))
        and _adds_to(change.before, change.after)
    )


# Longer values are not read as sequences: ast.literal_eval's cost grows with them.
MAX_SEQUENCE_CHARS = 100_000


def _adds_to(before: str | None, after: str | None) -> bool:
    """Whether a setting is new, or a list (JSON as YAML values are shown, or a Python list or
    tuple) that kept every item it had, in order, and gained more (`tests: [a]` -> `[a, b]`,
    `('dspark',)` -> `('dspark', 'dflash')`)."""
    if before is None:
        return True
    if after is None:
        return False
    old, new = _sequence(before), _sequence(after)
    return old is not None and new is not None and _keeps_in_order(old, new)


def _keeps_in_order(old: list[Any], new: list[Any]) -> bool:
    """Whether `new` holds every item of `old`, in its order."""
    remaining = iter(new)
    return all(any(item == candidate for candidate in remaining) for item in old)


def _sequence(value: str) -> list[Any] | None:
    """A value's items when it is a JSON list or a Python list or tuple literal."""
    try:
        parsed = json.loads(value)
    except ValueError:
        if len(value) > MAX_SEQUENCE_CHARS:
            return None
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        return list(parsed) if isinstance(parsed, list | tuple) else None
    return parsed if isinstance(parsed, list) else None


def _entry_orders(settings: Iterable[str]) -> dict[str, list[str]]:
    """The labels of each list's entries (`steps` -> `0`, `1`, `Run tests`), in the order the
    flattened settings hold them, which is the file's."""
    orders: dict[str, list[str]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    for key in settings:
        for at, char in enumerate(key):
            if char == "]" and "[" in key[:at]:
                listed, label = key[:at].rsplit("[", 1)
                if (listed, label) not in seen:
                    seen.add((listed, label))
                    orders[listed].append(label)
    return orders


def _new_part(
    part: str,
    existing: Collection[str],
    old_orders: Mapping[str, list[str]],
    new_orders: Mapping[str, list[str]],
) -> bool:
    """Whether `part` (a job, or an entry of a list) is new and leaves the rest as it was; a
    job's steps run in turn, so a new one must come after every step the job had."""
    if part in existing:
        return False
    if not part.endswith("]"):
        return True  # a new job
    listed, label = part[:-1].rsplit("[", 1)
    if not listed.endswith(".steps"):
        return True
    had = set(old_orders.get(listed, []))
    order = new_orders.get(listed, [])
    return label in order and not any(step in had for step in order[order.index(label) :])


def _resolved(settings: dict[str, str], key: str) -> str | None:
    """The setting's value, with a Hydra interpolation that names another setting of the same
    file (`${actor_rollout_ref.actor.strategy}`, `${oc.select:async_training.x, True}`,
    `${..seed}`) replaced by that setting's value, so a default spelled as a reference to
    the same value is no change (verl #5184). A reference to a mapping, or to a setting the
    file does not hold (it may come from another file of the composition), stays as written."""
    value = settings.get(key)
    seen = {key}
    while value is not None and (match := _INTERPOLATION.fullmatch(value.strip())):
        target = _interpolated_key(key, match.group("path"))
        if target is None or target in seen or target not in settings:
            break
        seen.add(target)
        key, value = target, settings[target]
    return value


def _interpolated_key(key: str, path: str) -> str | None:
    """The absolute key an interpolation's path names from the setting `key`: OmegaConf reads
    `.x` as a sibling, `..x` as the parent's sibling, and a path without dots as absolute."""
    dots = len(path) - len(path.lstrip("."))
    if not dots:
        return path
    parents = key.split(".")[:-1]
    if dots - 1 > len(parents):
        return None
    kept = parents[: len(parents) - (dots - 1)]
    return ".".join([*kept, path[dots:]])


def _same_value(before: str | None, after: str | None) -> bool:
    """Equal, or the same number spelled two ways (`1` and `1.0`; `0` and `False`, which
    vllm-ascend #5296 exchanged for a flag read through `bool()`)."""
    if before == after:
        return True
    if before is None or after is None:
        return False
    try:
        return _number(before) == _number(after)
    except ValueError:
        return False


def _number(value: str) -> float:
    truth = {"true": 1.0, "false": 0.0}.get(value.lower())
    return truth if truth is not None else float(value)


class _YamlDocuments:
    """A YAML file's parsed documents, flattened only once compared with the other version."""

    def __init__(self, documents: list[Any]) -> None:
        self.documents = documents


_Parsed = dict[str, str] | _YamlDocuments


def _parse(kind: str, path: str, text: str) -> _Parsed | None:
    if len(text.encode("utf-8", "replace")) > MAX_CONFIG_BYTES:
        return None
    if kind == "requirements":
        return requirement_settings(path, text)
    if kind == "python":
        return _python_settings(text)
    documents = _yaml_documents(text, _WorkflowLoader if kind == "workflow" else _YAML_LOADER)
    return None if documents is None else _YamlDocuments(documents)


# --- YAML ------------------------------------------------------------------------------------


def _yaml_documents(text: str, loader: type[yaml.SafeLoader]) -> list[Any] | None:
    try:
        documents = [d for d in yaml.load_all(text, Loader=loader) if d is not None]
    except (yaml.YAMLError, RecursionError):
        return None
    return documents if _within_node_limit(documents) else None


def _yaml_settings(documents: Sequence[Any]) -> dict[str, str]:
    settings: dict[str, str] = {}
    for index, document in enumerate(documents):
        # Several documents in one file are told apart by their position.
        _flatten(document, f"[{index}]" if len(documents) > 1 else "", settings)
    return settings


class _Entries(dict[str, Any]):
    """A list of unnamed mappings as its entries by label (`_matched_entries`)."""


def _matched_documents(before: list[Any], after: list[Any]) -> tuple[list[Any], list[Any]]:
    pairs = [_matched(old, new) for old, new in zip(before, after, strict=False)]
    n = len(pairs)
    return [old for old, _ in pairs] + before[n:], [new for _, new in pairs] + after[n:]


def _matched(before: Any, after: Any, key: str = "") -> tuple[Any, Any]:
    """The two versions of a value with the entries of each list of unnamed mappings in them
    labelled alike where they match (`_matched_entries`)."""
    if isinstance(before, dict) and isinstance(after, dict):
        pairs = {k: _matched(before[k], after[k], str(k)) for k in before.keys() & after.keys()}
        return (
            {k: pairs[k][0] if k in pairs else value for k, value in before.items()},
            {k: pairs[k][1] if k in pairs else value for k, value in after.items()},
        )
    if _list_of_mappings(before, key) and _list_of_mappings(after, key):
        named = (_entry_names(before) is not None, _entry_names(after) is not None)
        if named == (False, False):
            return _matched_entries(before, after)
        if named == (True, True):
            return _matched_names(before, after)
    return before, after


def _list_of_mappings(value: Any, key: str) -> bool:
    """A list of mappings, flattened entry by entry (Hydra's defaults list is not one)."""
    return (
        not _is_defaults_list(value, key)
        and isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) for item in value)
    )


def _matched_names(before: list[Any], after: list[Any]) -> tuple[_Entries, _Entries]:
    """Both versions of a list of named mappings by name, the entries of one name matched
    within (envoy's routes inside its named virtual hosts)."""
    old = dict(zip(_entry_names(before) or [], before, strict=True))
    new = dict(zip(_entry_names(after) or [], after, strict=True))
    for name in old.keys() & new.keys():
        old[name], new[name] = _matched(old[name], new[name])
    return _Entries(old), _Entries(new)


def _matched_entries(before: list[Any], after: list[Any]) -> tuple[_Entries, _Entries]:
    """Both versions of a list of mappings without names, each entry labelled by its position
    in the new version where it is there, an entry only the old version has by its old one
    (`was 3` where the new version uses that number). Entries are matched by content, so one
    inserted or removed in the middle is that entry alone, not a change to every entry after
    it: aibrix #2312 added a route to envoy.yaml's routes and read as changing the defaults of
    the next twenty settings."""
    matcher = difflib.SequenceMatcher(
        None, [_canonical(e) for e in before], [_canonical(e) for e in after], autojunk=False
    )
    old: dict[str, Any] = {}
    new: dict[str, Any] = {str(j): entry for j, entry in enumerate(after)}
    removed: list[int] = []
    for _, i1, i2, j1, j2 in matcher.get_opcodes():
        pairs = (
            list(zip(range(i1, i2), range(j1, j2), strict=True))
            if i2 - i1 == j2 - j1  # kept, or edited in place
            else _most_alike(before, range(i1, i2), after, range(j1, j2))
        )
        for i, j in pairs:
            old[str(j)], new[str(j)] = _matched(before[i], after[j])
        paired = {i for i, _ in pairs}
        removed.extend(i for i in range(i1, i2) if i not in paired)
    for i in removed:
        old[str(i) if str(i) not in new else f"was {i}"] = before[i]
    return _Entries(old), _Entries(new)


# Entries that share at least this share of their settings are one entry changed; below it, one
# entry removed and another added. Blocks of more entries than this pair by position.
SAME_ENTRY_SHARE = 0.5
MAX_ENTRIES_PAIRED_BY_LIKENESS = 50


def _most_alike(
    before: list[Any], old: range, after: list[Any], new: range
) -> list[tuple[int, int]]:
    """Old and new entries of a stretch that gained or lost entries, paired in order: the
    pairing that keeps the most settings the same, each pair sharing SAME_ENTRY_SHARE of them
    (an entry changed beside one inserted is that entry changed, not the inserted one)."""
    if max(len(old), len(new)) > MAX_ENTRIES_PAIRED_BY_LIKENESS:
        return list(zip(old, new, strict=False))
    flat_old = [_flat(before[i]) for i in old]
    flat_new = [_flat(after[j]) for j in new]
    share = [[_shared(a, b) for b in flat_new] for a in flat_old]
    # best[a][b]: the most shared settings pairing the first a old and first b new entries.
    best = [[0.0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for a in range(1, len(old) + 1):
        for b in range(1, len(new) + 1):
            paired = share[a - 1][b - 1]
            best[a][b] = max(
                best[a - 1][b],
                best[a][b - 1],
                best[a - 1][b - 1] + paired if paired >= SAME_ENTRY_SHARE else 0.0,
            )
    pairs: list[tuple[int, int]] = []
    a, b = len(old), len(new)
    while a and b:
        paired = share[a - 1][b - 1]
        if paired >= SAME_ENTRY_SHARE and best[a][b] == best[a - 1][b - 1] + paired:
            pairs.append((old[a - 1], new[b - 1]))
            a, b = a - 1, b - 1
        elif best[a][b] == best[a - 1][b]:
            a -= 1
        else:
            b -= 1
    return pairs[::-1]


def _flat(entry: Any) -> dict[str, str]:
    settings: dict[str, str] = {}
    _flatten(entry, "", settings)
    return settings


def _shared(a: dict[str, str], b: dict[str, str]) -> float:
    """The share of two entries' settings that are the same setting with the same value."""
    total = len(a.keys() | b.keys())
    return sum(1 for key, value in a.items() if b.get(key) == value) / total if total else 1.0


def _canonical(entry: Any) -> str:
    return json.dumps(entry, sort_keys=True, default=str)


def _within_node_limit(value: Any, limit: int = MAX_CONFIG_NODES) -> bool:
    """Whether the parsed value has at most `limit` nodes, counted without expanding further.

    YAML aliases can nest a small file into billions of nodes (the "billion laughs"); a file a
    PR changed must not be able to stall the ingest."""
    pending, seen = [value], 0
    while pending:
        item = pending.pop()
        seen += 1
        if seen > limit:
            return False
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def _flatten(value: Any, key: str, settings: dict[str, str]) -> None:
    if isinstance(value, _Entries):
        for label, item in value.items():
            _flatten(item, f"{key}[{label}]", settings)
    elif isinstance(value, dict) and value:
        for name, item in value.items():
            _flatten(item, f"{key}.{name}" if key else str(name), settings)
    elif _is_defaults_list(value, key):
        # Hydra's `defaults` picks one option per config group: each entry is its own setting
        # (`defaults[critic@critic]: dp_critic`), so adding a group changes no other default.
        for item in value:
            name, option = next(iter(item.items())) if isinstance(item, dict) else (item, None)
            settings[f"{key}[{name}]"] = "included" if option is None else _show(option)
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        # A list of mappings (verl's tool and interaction lists) entry by entry: a field added
        # to one entry changes none of its other settings (verl #2184). Entries are told apart
        # by the field that names them where there is one, so an entry inserted or removed in
        # the middle is that entry alone, not a change to every entry after it.
        names = _entry_names(value)
        for position, item in enumerate(value):
            _flatten(item, f"{key}[{names[position] if names else position}]", settings)
    else:
        settings[key] = _show(value)


def _entry_names(entries: Sequence[dict[Any, Any]]) -> list[str] | None:
    """Each entry's name, by the first of ENTRY_NAME_FIELDS that every entry gives as a
    distinct scalar; None when no field does (the entries are then told by position). A dotted
    class path is named by its last part while those stay distinct (`Gsm8kInteraction`)."""
    for field in ENTRY_NAME_FIELDS:
        values = [entry.get(field) for entry in entries]
        if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in values):
            continue
        names = [str(v) for v in values]
        short = [name.rsplit(".", 1)[-1] for name in names]
        for candidate in (short, names):
            if len(set(candidate)) == len(candidate):
                return candidate
    return None


def _is_defaults_list(value: Any, key: str) -> bool:
    """Hydra's defaults list: under the key `defaults`, distinct names (`_self_`) and
    `group: option` entries. Elsewhere a list of one-key mappings is data (`tools: [{name: x}]`)."""
    if not isinstance(value, list) or not value or key.rsplit(".", 1)[-1] != "defaults":
        return False
    names = []
    for item in value:
        if isinstance(item, dict) and len(item) == 1:
            name, option = next(iter(item.items()))
            # `group: [a, b]` selects several options of one group.
            if isinstance(option, dict) or (
                isinstance(option, list) and any(isinstance(o, dict | list) for o in option)
            ):
                return False
            names.append(str(name))
        elif isinstance(item, str):
            names.append(item)
        else:
            return False
    return len(set(names)) == len(names)


def _show(value: Any) -> str:
    """A value as a YAML reader sees it: `null`, `true`, `1e-6`, `[a, b]`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return str(float(value)) if _EXPONENT_NUMBER.fullmatch(value) else value
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))


# --- Python ----------------------------------------------------------------------------------


def _python_settings(text: str) -> dict[str, str] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    settings: dict[str, str] = {}
    _python_scope(tree.body, "", settings)
    _command_line_options(tree, settings)
    return settings


def _python_scope(body: Sequence[ast.stmt], prefix: str, settings: dict[str, str]) -> None:
    """Class fields with their defaults (dataclasses, pydantic models), attributes its methods
    read from a mapping with a fallback, and the module's constants: UPPER_CASE names and
    mappings such as vllm-ascend's `env_variables`."""
    for node in body:
        if isinstance(node, ast.ClassDef):
            # An enum's members are the values a setting can take, not settings.
            if not any(_ENUM_BASE.search(ast.unparse(base)) for base in node.bases):
                _python_scope(node.body, f"{prefix}{node.name}.", settings)
            continue
        if isinstance(node, ast.FunctionDef) and prefix:
            _method_settings(node, prefix, settings)
            continue
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets: list[ast.expr] = [node.target]
            value = node.value
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                _python_setting(prefix, target.id, value, settings)


# An option's default that code computes when the parser is built (`default=ServerArgs.port`):
# what it is cannot be read from the text, only that the option has one.
COMPUTED_DEFAULT = "computed"
# What argparse gives an option declared without a default.
_IMPLIED_DEFAULTS = {"store_true": "False", "store_false": "True"}
# Nodes of a value written out in the text, arithmetic included (slime's `1024**3` bytes).
_LITERAL_NODES = (
    ast.Constant,
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.Dict,
    ast.UnaryOp,
    ast.BinOp,
    ast.unaryop,
    ast.operator,
    ast.expr_context,
)


# The keywords of `add_argument`: a helper given an option's name with them declares it too.
_ARGUMENT_KEYWORDS = {"default", "type", "action", "help", "required", "choices", "nargs"}


def _command_line_options(tree: ast.Module, settings: dict[str, str]) -> None:
    """A command line's options, `--name` by the first long name each `add_argument` call
    gives (of a parser, a group, any receiver), with their defaults: launch scripts pass them,
    so one removed makes them fail (slime #2249 removed `--train-memory-margin-bytes` from
    slime/utils/arguments.py). A helper called with a long name and add_argument's keywords
    declares one as well: slime #1205 moved `--padded-vocab-size` into its
    `reset_arg(parser, "--padded-vocab-size", type=int, default=None)`, which removed nothing.
    An option declared twice (a pre-parser's copy) keeps the first default in the text."""
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            _called_name(node.func) == "add_argument"
            or any(keyword.arg in _ARGUMENT_KEYWORDS for keyword in node.keywords)
        )
    ]
    for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
        names = [_text(arg) for arg in call.args]
        option = next((name for name in names if name and name.startswith("--")), None)
        if option is not None:
            settings.setdefault(option, _option_default(call))


def _option_default(call: ast.Call) -> str:
    """The default an `add_argument` call gives its option: a value written out, the fallback
    of an environment variable it reads, or COMPUTED_DEFAULT; without one, `required` for an
    option that must be given, else what argparse implies (`None`, `False` for `store_true`)."""
    keywords = {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg}
    default = keywords.get("default")
    if default is not None:
        if all(isinstance(node, _LITERAL_NODES) for node in ast.walk(default)):
            return ast.unparse(default)
        read = _environment_default(default)
        return read[1] if read else COMPUTED_DEFAULT
    required = keywords.get("required")
    if isinstance(required, ast.Constant) and required.value is True:
        return "required"
    action = _text(keywords.get("action"))
    return _IMPLIED_DEFAULTS.get(action or "", "None")


def _method_settings(method: ast.FunctionDef, prefix: str, settings: dict[str, str]) -> None:
    """`self.x = config.get("x", D)` (vllm-ascend's AscendConfig) or `os.getenv("X", D)`: the
    attribute's default is D. A value read into a local name first is the setting the user
    writes (`path = config.get("dump_config", None)`, vllm-ascend #5296). Any method counts,
    since `__init__` hands parts of its reading to helpers (#6442). Other assignments are
    state, not settings."""
    for node in ast.walk(method):
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        read = _environment_default(node.value)
        if read is None:
            continue
        name, default = read
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and not target.attr.startswith("_")
            ):
                settings.setdefault(prefix + target.attr, default)
            elif isinstance(target, ast.Name):
                settings.setdefault(prefix + name, default)


def _python_setting(prefix: str, name: str, value: ast.expr, settings: dict[str, str]) -> None:
    # Private names and dunders (`_mutable_fields`, `__all__`) are the module's plumbing; Hydra's
    # `_target_` is a setting (it picks the class that is built).
    if name.startswith("_") and not (name.endswith("_") and not name.startswith("__")):
        return
    if _text_keys(value):
        _python_mapping(prefix + name, value, settings)
        return
    if not prefix and (not _MODULE_CONSTANT.fullmatch(name) or isinstance(value, ast.Call)):
        return  # `logger = get_logger(...)`, type aliases, computed paths: no settings
    if not prefix and _VERSION_CONSTANT.search(name):
        return  # a release's number (LLaMA-Factory's env.py `VERSION`) is nobody's setting
    if not prefix and _multi_line_text(value):
        # A document kept in the code: vllm-ascend's profiling_config.py holds its profiler's
        # symbol list as `SERVICE_PROFILING_SYMBOLS_YAML = """..."""`, which #12774 grew to 375
        # lines and the report told as a default changed.
        return
    settings[prefix + name] = _python_default(value)


def _multi_line_text(value: ast.expr) -> bool:
    """Whether a value is a string or f-string literal written over more than one line of the
    file: `SEP = "\\n"` and `PROMPT = "Q: {q}\\nA:"` are one-line settings."""
    is_text = isinstance(value, ast.JoinedStr) or (
        isinstance(value, ast.Constant) and isinstance(value.value, str)
    )
    return is_text and value.end_lineno is not None and value.end_lineno > value.lineno


def _python_mapping(key: str, value: ast.expr, settings: dict[str, str]) -> None:
    """One setting per key of a literal mapping, nested ones too: adding `VLLM_ASCEND_X` to
    `env_variables` changes no other default."""
    keys = _text_keys(value)
    if keys is None:
        settings[key] = _python_default(value)
        return
    assert isinstance(value, ast.Dict)  # _text_keys
    for name, item in zip(keys, value.values, strict=True):
        _python_mapping(f"{key}[{name}]", item, settings)


def _text_keys(value: ast.expr) -> list[str] | None:
    """The keys of a non-empty dict literal whose keys are all strings."""
    if not isinstance(value, ast.Dict) or not value.keys:
        return None
    keys = [_text(key) for key in value.keys]
    return None if None in keys else [key for key in keys if key is not None]


def _text(node: ast.expr | None) -> str | None:
    """A string literal's value."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _python_default(value: ast.expr) -> str:
    """What a user gets: `field(default=X)` and `Field(X, ...)` are X, a `default_factory` is
    what it builds, and `lambda: os.getenv("NAME", "0")` is `'0'`."""
    if isinstance(value, ast.Call) and _called_name(value.func) in ("field", "Field"):
        for keyword in value.keywords:
            if keyword.arg == "default":
                return ast.unparse(keyword.value)
            if keyword.arg == "default_factory":
                return _factory_value(keyword.value)
        if value.args and not (
            isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis
        ):
            return ast.unparse(value.args[0])
        return "no default"  # a required field: its metadata is no setting
    if isinstance(value, ast.Lambda):
        read = _environment_default(value.body)
        return read[1] if read else ast.unparse(value.body)
    return ast.unparse(value)


def _factory_value(factory: ast.expr) -> str:
    if isinstance(factory, ast.Lambda):
        return ast.unparse(factory.body)
    if isinstance(factory, ast.Name) and factory.id in _EMPTY_BUILT_INS:
        return _EMPTY_BUILT_INS[factory.id]
    return f"{ast.unparse(factory)}()"


def _environment_default(expression: ast.expr) -> tuple[str, str] | None:
    """The name read and the fallback of the first `getenv(NAME, D)` / `mapping.get("name", D)`
    in an expression."""
    for node in ast.walk(expression):
        if (
            isinstance(node, ast.Call)
            and _called_name(node.func) in ("getenv", "get")
            and len(node.args) >= 2
        ):
            name = _text(node.args[0])
            if name is not None:
                return name, ast.unparse(node.args[1])
    return None


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None
