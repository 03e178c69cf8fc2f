"""What a PR did to the settings users run with: the defaults it changed, the settings it
renamed and those it removed, from its compared configuration files (`config_diff`).

The config flag (`risks`) says it, the reports word it, and importance scores a removal or a
rename as breaking: one reading of the compared files for all three.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import NamedTuple

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.config_diff import (
    config_files,
    deleted_config_files,
    extends_constant,
)
from prhub_pipeline.records import PullRequest, SettingChange

# A config generated from the others (verl's `_generated_ppo_trainer.yaml`, the composed
# trainer config checked in for reference), which a PR brings up to date with its sources.
_GENERATED_CONFIG = re.compile(r"(?:^|/)_?generated[_.-][^/]*$", re.IGNORECASE)
# An entry of a Hydra `defaults` list, as compared (`defaults[critic@critic]`).
_DEFAULTS_ENTRY = re.compile(r"(?:^|\.)defaults\[(?P<entry>.*)\]$")


@dataclass(frozen=True)
class SettingEdits:
    """The settings a PR changed in the configuration files users run with (`settings`: one
    per setting, with the new names of those renamed), and the files: those whose settings
    changed, could not be compared (`uncertain`) or were deleted, in that order (`touched`)."""

    settings: list[SettingChange]
    touched: list[str]
    uncertain: list[str]
    deleted: list[str]


def setting_edits(
    pr: PullRequest, config: ScoringConfig, compared: Mapping[str, Sequence[SettingChange]]
) -> SettingEdits | None:
    """What a PR did to its configuration files' settings, from `compared`: the setting
    changes of each file that could be compared, by path. A configuration file not in it is
    judged by its line counts: lines it changed or deleted may have changed a default or
    removed a setting. None when the PR touched no such file, or only generated ones.

    A Python constant's list that only gained items changes none (`extends_constant`).

    A PR that only brings a generated config up to date changes no default of its own: verl
    #5285 synced `_generated_ppo_veomni_trainer.yaml` with the two settings #5255 had removed
    (and was flagged for). Beside the configs it is generated from, its keys, which are the
    full ones a command line overrides, are the ones shown.
    """
    changes: list[tuple[str, SettingChange]] = []
    uncertain: list[str] = []
    for change in config_files(pr, config):
        if change.path in compared:
            found = compared[change.path]
            # A file that now includes more configs (verl #1009 gave the DAPO trainer config
            # `defaults: [ppo_trainer, _self_]`) inherits the keys it dropped.
            inherits = any(_includes_more(c) for c in found)
            changes.extend(
                (change.path, c)
                for c in found
                if not (inherits and c.after is None) and not extends_constant(change.path, c)
            )
        elif (change.deletions or 0) > 0 and change.status != "added":
            uncertain.append(change.path)
    added = [(path, c) for path, c in changes if c.before is None]
    changed = [
        (path, c)
        for path, c in changes
        if c.before is not None and (c.after is not None or not _moved(path, c, added))
    ]
    deleted = deleted_config_files(pr, config)
    touched = [*(path for path, _ in changed), *uncertain, *deleted]
    if all(_GENERATED_CONFIG.search(path) for path in touched):  # none at all, too
        return None
    settings = distinct_settings(changed)
    kept = {c.key for c in settings}
    paired = [(old, new) for old, new in renamed_settings([*changed, *added]) if old.key in kept]
    settings = [*settings, *(new for _, new in paired)]
    return SettingEdits(settings, list(dict.fromkeys(touched)), uncertain, deleted)


class SettingsOutcome(NamedTuple):
    """What a PR did to the settings of its config flag: the defaults it changed, the settings it
    renamed and those it removed. The flag's detail and the reports' sentence both say this."""

    values: list[SettingChange]
    renames: list[tuple[SettingChange, SettingChange]]
    removed: list[SettingChange]


def settings_outcome(settings: Sequence[SettingChange]) -> SettingsOutcome:
    """The outcome of a config flag's settings (`RiskFlag.settings`): renames are paired again
    from them, as `renamed_settings` paired them from the compared files.

    One key removed with other values from several files (verl #1668's `format`: `chatml` in
    the trainer configs, `qwen` in the examples) is one setting removed. A key whose value
    changed in another file of the PR moved there with a new value: the generated config shows
    verl #3456's `...rollout.enable_chunked_prefill` false -> true.
    """
    renames = renamed_settings([(None, c) for c in settings])
    renamed = {c.key for pair in renames for c in pair}
    values = [
        c for c in settings if c.before is not None and c.after is not None and c.key not in renamed
    ]
    changed_keys = {c.key for c in values}
    removed = {
        c.key: c
        for c in settings
        if c.after is None and c.key not in renamed and c.key not in changed_keys
    }
    return SettingsOutcome(values, renames, list(removed.values()))


def renamed_settings(
    changes: Sequence[tuple[str | None, SettingChange]],
) -> list[tuple[SettingChange, SettingChange]]:
    """(removed, added) pairs among `changes` that are one setting renamed: in one file (where
    known) and one section, with the same default, and one name's words within the other's
    (torchtitan #1607: `Checkpoint.enable_checkpoint` became `Checkpoint.enable`, which read as
    removing the setting; a config that sets the old name breaks all the same, so it stays
    flagged). Each setting is in one pair at most."""
    pairs: list[tuple[SettingChange, SettingChange]] = []
    taken: set[str] = set()
    for path, old in changes:
        if old.after is not None or old.before is None or old.key in taken:
            continue
        section, _, name = old.key.rpartition(".")
        for new_path, new in changes:
            new_section, _, new_name = new.key.rpartition(".")
            if (
                new.before is None
                and new.after == old.before
                and new.key not in taken
                and (path is None or new_path is None or path == new_path)
                and new_section == section
                and _one_name_holds_the_other(name, new_name)
            ):
                pairs.append((old, new))
                taken.update((old.key, new.key))
                break
    return pairs


def _one_name_holds_the_other(name: str, other: str) -> bool:
    """`enable_checkpoint` and `enable`, `resume_path` and `resume_from_path`, `enabled` and
    `enable`: one name's words are all in the other's. Not `llm_kwargs` and `fsdp_kwargs`, nor
    `min_lr_ratio` and `lr_decay_steps` (verl #6316 and #1701 read as renames by a shared word)."""

    def words(text: str) -> set[str]:
        return {w[:-1] if len(w) > 3 and w[-1] in "sd" else w for w in text.lower().split("_")}

    mine, theirs = words(name), words(other)
    return mine <= theirs or theirs <= mine


def _includes_more(change: SettingChange) -> bool:
    """Whether a change adds a config to a Hydra `defaults` list (`_self_` adds none). The entry
    is read whole: verl #4211's `model@actor_rollout_ref.model: hf_model` names its package with
    dots, and the megatron trainer's `actor_rollout_ref.model.path` it now inherits read as
    removed."""
    entry = _DEFAULTS_ENTRY.search(change.key)
    return change.before is None and entry is not None and entry["entry"] != "_self_"


def _moved(path: str, removed: SettingChange, added: Sequence[tuple[str, SettingChange]]) -> bool:
    """Whether a removed setting reappears with its value in a file of the same PR.

    A YAML key must keep its last two parts: verl #2433 moved `critic.optim.lr` of the trainer
    config into the critic's own file as `optim.lr`, which Hydra composes back to the same place.
    A Python field must keep its name: LLaMA-Factory #9744 moved `cutoff_len` from one argument
    class to another, #7204 into a base class.
    """
    parts = 1 if path.endswith(".py") else 2
    return any(
        change.after == removed.before
        and (
            _key_tail(change.key, 1 if other.endswith(".py") else parts)
            == _key_tail(removed.key, parts)
            or _in_its_group(removed.key, other, change.key)
        )
        for other, change in added
    )


def _in_its_group(key: str, path: str, new_key: str) -> bool:
    """Whether `new_key` of the Hydra group file `path` composes back to `key`: a group's file
    (`rollout/rollout.yaml`) is placed under its folder's name, so its `enable_chunked_prefill`
    is the trainer's `actor_rollout_ref.rollout.enable_chunked_prefill`, which verl #3456 moved
    there, and was reported as removed."""
    parents, name = key.split(".")[:-1], key.rsplit(".", 1)[-1]
    folder = PurePosixPath(path).parent.name
    if path.endswith(".py") or folder not in parents:
        return False
    group = len(parents) - 1 - parents[::-1].index(folder)
    return ".".join([*parents[group + 1 :], name]) == new_key


def _key_tail(key: str, parts: int) -> str:
    return ".".join(key.split(".")[-parts:])


def distinct_settings(changes: Sequence[tuple[str, SettingChange]]) -> list[SettingChange]:
    """One entry per setting a user would see, value changes first.

    Copies of a config repeat one change under several keys: verl's `_generated_*.yaml` under
    the full key (`actor_rollout_ref.rollout.calculate_log_probs` for `calculate_log_probs` in
    rollout.yaml), a dataclass mirroring a YAML file under `Class.field`. Two keys are one
    setting when they change the same way and one key ends the other, or one of them is a
    Python field of the same name; the longest key (what a command-line override uses) is
    shown. `actor.optim.lr` and `critic.optim.lr` stay two settings. Each keeps its file
    (`path`), which names it where one key changed two ways (see `setting_files`).
    """
    chosen: list[tuple[str, SettingChange]] = []
    for path, change in changes:
        same = next(
            (i for i, (p, c) in enumerate(chosen) if _same_setting(path, change, p, c)), None
        )
        if same is None:
            chosen.append((path, change))
        elif len(change.key) > len(chosen[same][1].key):
            chosen[same] = (path, change)
    located = (c.model_copy(update={"path": path}) for path, c in chosen)
    return sorted(located, key=lambda c: (c.after is None, c.key, c.path or ""))


def _same_setting(path: str, change: SettingChange, other_path: str, other: SettingChange) -> bool:
    def value(text: str | None) -> str | None:
        return text.strip("'\"").lower() if text is not None else None

    if (value(change.before), value(change.after)) != (value(other.before), value(other.after)):
        return False
    if change.key.rsplit(".", 1)[-1] != other.key.rsplit(".", 1)[-1]:
        return False
    short, long = sorted((change.key, other.key), key=len)
    return (
        long == short
        or long.endswith("." + short)
        or path.endswith(".py")
        or other_path.endswith(".py")
    )


def dropped_settings(
    pr: PullRequest, config: ScoringConfig, setting_changes: Sequence[SettingChange]
) -> list[str]:
    """The settings users set that a PR removed or renamed, by their old keys, and the
    configuration files it deleted, by path, as its config flag says them (`setting_edits`,
    `settings_outcome`), from its stored setting changes, each with its file's path (what
    scoring reads of every stored PR). A deleted file takes every setting in it: verl #5382
    deleted `sft_trainer.yaml`, which users run with `--config-name sft_trainer`. The stored
    changes do not tell a file compared without changes from one that could not be compared,
    so each of the PR's configuration files counts as compared: a PR whose only settings
    removed are a generated config's is then one that removes none, as it is when its other
    files could be compared. A file that could not be compared is not guessed at (its flag
    says so): of the compared edits of configuration files that deleted lines, 24-33% removed
    or renamed a setting (verl, vllm-ascend, slime, torchtitan), and about 60% of those that
    deleted more lines than they added."""
    # Renaming or removing a setting takes it out somewhere; scoring asks of every PR.
    if not any(c.after is None for c in setting_changes) and not deleted_config_files(pr, config):
        return []
    by_path: dict[str, list[SettingChange]] = {}
    for change in setting_changes:
        if change.path is not None:
            by_path.setdefault(change.path, []).append(change)
    compared = {f.path: by_path.get(f.path, []) for f in config_files(pr, config)}
    edits = setting_edits(pr, config, compared)
    if edits is None:
        return []
    _, renames, removed = settings_outcome(edits.settings)
    return [*(old.key for old, _ in renames), *(c.key for c in removed), *edits.deleted]
