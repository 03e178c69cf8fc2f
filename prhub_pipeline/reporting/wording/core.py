"""`Wording`: every phrase a report uses and, in its methods, how a fact becomes a sentence,
written once for both languages (`zh.py` and `en.py` fill in the phrases).

A template whose words depend on a count may be a pair: (when the count is 1, otherwise).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple, get_args

from prhub_pipeline.config import normalise_tag
from prhub_pipeline.modelling.scoring.importance import DELETED_USER, FileKind, ScoreCalibration
from prhub_pipeline.modelling.scoring.repeats import Repeat
from prhub_pipeline.modelling.scoring.requirement_edits import (
    RequirementPhrases,
    describe,
    requirement_edits,
)
from prhub_pipeline.modelling.scoring.requirements import shown_version
from prhub_pipeline.modelling.scoring.risks import (
    MAX_SETTINGS,
    RISK_ORDER,
    setting_files,
    shown_values,
)
from prhub_pipeline.modelling.scoring.user_settings import settings_outcome
from prhub_pipeline.modelling.text.pr_titles import first_word_type, tag_type
from prhub_pipeline.records import FixImpact, Lang, PrScore, PrType, ReviewAsk, RiskKind, WeekCounts
from prhub_pipeline.reporting.facts import (
    FOLLOW_UP_KINDS,
    MAX_LISTED,
    MAX_LISTED_PER_IMPACT,
    USUAL_WEEKS,
    WORKS_EVERYWHERE,
    BatchLanding,
    BusyFile,
    ChangeOutline,
    ChangePlace,
    Contributors,
    CoreTesting,
    FlaggedPr,
    FollowUp,
    FollowUpKind,
    Period,
    PrReviewing,
    Reland,
    RequirementChain,
    RevertChain,
    ReviewCoverage,
    RiskGroup,
    Summary,
    biggest_changes,
    delta,
    name_key,
    subject,
    type_counts,
)
from prhub_pipeline.reporting.models import PrRef
from prhub_pipeline.reporting.sections import BESIDE_PLACES, Group, GroupKind

Counted = str | tuple[str, str]  # a template, or (when the count is 1, otherwise)

# The usual spelling of names and acronyms that repositories tag in lower case (`[pytorch]`,
# `[webui]`, `[eplb]`); a repository's own names come from `ModulesConfig.display_names`.
NAME_DISPLAY = {
    "fsdp": "FSDP",
    "megatron": "Megatron",
    "veomni": "VeOmni",
    "sglang": "SGLang",
    "vllm": "vLLM",
    "trtllm": "TRT-LLM",
    "ci": "CI",
    "npu": "NPU",
    "moe": "MoE",
    "ray": "Ray",
    "docker": "Docker",
    "deepspeed": "DeepSpeed",
    "pytorch": "PyTorch",
    "jax": "JAX",
    "paddle": "Paddle",
    "tensorflow": "TensorFlow",
    "triton": "Triton",
    "cuda": "CUDA",
    "rocm": "ROCm",
    "hip": "HIP",
    "amd": "AMD",
    "cpu": "CPU",
    "gpu": "GPU",
    "nccl": "NCCL",
    "hccl": "HCCL",
    "310p": "310P",
    "api": "API",
    "cli": "CLI",
    "ui": "UI",
    "webui": "WebUI",
    "web_ui": "WebUI",
    "jit": "JIT",
    "ffi": "FFI",
    "tir": "TIR",
    "tma": "TMA",
    "cmake": "CMake",
    "lora": "LoRA",
    "vlm": "VLM",
    "llm": "LLM",
    "rl": "RL",
    "rlhf": "RLHF",
    "sft": "SFT",
    "dpo": "DPO",
    "ppo": "PPO",
    "grpo": "GRPO",
    "kto": "KTO",
    "eplb": "EPLB",
    "mla": "MLA",
    "mtp": "MTP",
    "gqa": "GQA",
    "fp8": "FP8",
    "nvfp4": "NVFP4",
    "mxfp4": "MXFP4",
    "qa": "QA",
}


def display_name(name: str) -> str:
    """The usual spelling of a name, part by part in a composite tag (`pytorch/jax` ->
    `PyTorch/JAX`, as TransformerEngine tags work on two frameworks); a folder (`src/cuda/`)
    as it is."""
    if name.endswith("/"):
        return name
    if name.lower() in NAME_DISPLAY:
        return NAME_DISPLAY[name.lower()]
    return "/".join(NAME_DISPLAY.get(part.lower(), part) for part in name.split("/"))


def module_display_names(
    configured: Mapping[str, str], spellings: Mapping[str, str]
) -> dict[str, str]:
    """The names a report gives modules: the repository's configured names; else, for a name
    without a built-in spelling (`fsdp` -> `FSDP`), the repository's own, when its tags write
    capitals or the separators the label lost (`tag_spellings`: vllm-ascend's `specdecode` is
    `SpecDecode`, tilelang's `pre_commit.ci` is `pre-commit.ci`; verl's `misc` stays). A tag
    joining names takes each part's built-in spelling, else the repository's: production-stack's
    `[CI/CD]` is `CI/CD`, not `CI/cd`."""
    names: dict[str, str] = {}
    for module, spelling in spellings.items():
        if spelling == spelling.lower() and not normalise_tag(spelling) == module != spelling:
            continue
        if display_name(module) == module:
            names[module] = spelling
            continue
        parts, written = module.split("/"), spelling.split("/")
        if len(parts) > 1 and len(parts) == len(written):
            joined = "/".join(
                NAME_DISPLAY.get(part.lower(), own)
                for part, own in zip(parts, written, strict=True)
            )
            if joined != display_name(module):
                names[module] = joined
    return names | dict(configured)


class RiskText(NamedTuple):
    """A risk observation: `lead` (fields n, refs), then `item` per listed PR, then `end`."""

    lead: Counted
    item: str
    end: Counted


# How a place's one file changed, as `_place` names it: ChangePlace.status, or an edit.
PLACE_STATUSES = ("modified", "added", "removed")
MAX_ITEM_REFS = 3  # of a busy file's or a new author's PRs, the ones named before "and N more"
BASIS_PARTS = 4  # of a raw score's parts, those named before the rest summed as one
MAX_NAMED_REVIEWERS = 3  # of a quick-view entry's approvers (say), those named before "and N more"


@dataclass(frozen=True, kw_only=True)
class Wording:
    """One language's words, and the one way each fact becomes a sentence.

    Templates name their fields (`{n}`, `{refs}`, `{number}`...); see ZH and EN below."""

    lang: Lang
    # Separators: lists of names, "a and b", the last of three or more, clauses, sentences.
    list_sep: str
    pair_sep: str
    last_sep: str
    clause_sep: str
    sentence_sep: str
    stop: str
    more: str  # after a shortened list; fields total, rest
    # The same after a shortened list of PRs (`refs`), which a sentence may go on from: "确认
    # #11956、… 等 10 个 对配置项的改动" (vllm-ascend's 2026-07-13) left the count without its noun.
    more_prs: str
    # Names.
    type_names: dict[PrType, str]
    type_counted: dict[PrType, str]  # after a count of one: `1 docs change`
    type_plurals: dict[PrType, str]
    type_count: str
    # The types of a count already said, when all are of one: "另有 3 个 PR（全部为修复）", where
    # "另有 3 个 PR（修复 3 个）" and "共 1 个 PR（新功能 1 个）" said the count twice.
    type_count_alone: Counted
    impact_names: dict[FixImpact, str]
    risk_headings: dict[RiskKind, str]
    risk_names: dict[RiskKind, str]  # inside a sentence
    pr_risk_names: dict[RiskKind, str]  # one PR's: `(risks: very large change)`
    part_labels: dict[str, str]
    other_parts: str  # the raw score's parts after the BASIS_PARTS largest, summed
    # The built-in themes' names in this language (a theme not listed keeps its own name).
    theme_names: dict[str, str]
    # A theme that shares its name with a module of the week (field name): `Docker-related`.
    theme_told_apart: str
    # A repository's names for its modules in this language (`ModulesConfig.display_names`).
    module_names: Mapping[str, str] = field(default_factory=dict)
    # Header.
    title: str
    span: str
    generated: str
    source: str
    calibrated: str
    uncalibrated: Counted
    with_reviews: str
    without_reviews: str
    pushed_listed: Counted  # field n: commits pushed without a PR, listed apart, not analysed
    # No PR of the week has a description (git source: commit message) beyond its title, said
    # once here rather than before every outline of changed files.
    titles_only: str
    titles_only_commit: str
    reverts_pr: str
    reverts_pr_titled: str
    reverts_pr_because: str
    reverts_pr_which: str
    reverted_titled: str
    revert_reason: str
    revert_reason_commit: str  # the same, said of a git-source commit message
    # An earlier PR under the same title (facts.Repeat).
    repeat: str
    repeat_when: Counted  # {n} days before; n = 0 has its own
    repeat_same_day: str
    repeat_same_files: str
    repeat_some_files: Counted
    repeat_reverted: str
    repeat_branch: str
    # A PR that lands a change reverted in an earlier week again (facts.Reland).
    reland: str  # fields target, revert (`#N`, or `pushed_reverter`), day
    # A PR's changed files, when its description adds nothing to its title (ChangeOutline).
    outline_one: str  # fields lead, place
    outline_many: str  # fields lead, files, lines, where, besides
    # The outline's lead: nothing beyond the title in the description, or in the commit message.
    # Before a key PR's outline of changed files: (no description, one that is no summary),
    # of a PR's description or (git source) of its commit message.
    outline_lead: tuple[str, str]
    outline_lead_commit: tuple[str, str]
    outline_in: str  # fields places: all there are
    outline_among: str  # fields n (the folders in all), places (some of them)
    outline_among_listed: str  # as outline_among, when the source listed only some files
    outline_besides: str  # fields kinds
    # Every place shown, and the other kinds of files beside them counted apart: "21 files in
    # worker.py (15 lines), besides tests" put 21 files in one.
    outline_places_and_support: str  # fields places, files (counted), lines, kinds
    file_count: Counted
    outline_kinds: dict[FileKind, str]
    place_folder: str  # fields path, files, lines
    place_file: dict[str, str]  # by status ("modified" for an edit); fields path, lines
    # Places whose files count no lines (images, renames): "assets/ (11 files, 0 lines)" read
    # as if nothing changed.
    place_folder_unsized: str  # fields path, files
    place_file_unsized: dict[str, str]  # by status; fields path
    line_count: Counted  # fields n
    top_folder: str  # the repository's top level, as a place
    # Summary.
    no_prs: str
    overview: Counted
    released: str  # field list: the week's version tags (`release`)
    pushed_summary: Counted  # field n: the week's commits pushed without a PR
    # A batch of PRs landed long after they were written (`facts.BatchLanding`): fields n,
    # total (the week's PRs), start, end (when they were written), landed (`batch_day`).
    batch_landed: str
    batch_landed_all: str  # the same, when the batch is all the week's PRs
    batch_keys_limited: str  # fields above (PRs at the key threshold), key (of them, key)
    batch_day: str  # field day
    batch_day_other_year: str  # field day: a day of another year than the landing's
    release: str  # fields name, day, sha
    # How many PRs are key: of one PR (not key, key), of several (none, one, {key}).
    overview_key: tuple[str, str, str, str, str]
    busiest_modules: Counted
    # When leaving out the classifier's unsure guesses passed over a module the table counts
    # as many PRs for (`Summary.top_modules_less_unsure`).
    busiest_modules_sure: Counted
    module_count: str
    # A busiest module mostly of the classifier's guesses: some, all, or the one PR; after the
    # list, when every busiest module is all guesses.
    module_count_guessed: tuple[str, str, str]
    modules_all_guessed: str
    busiest_themes: str
    busiest_themes_alone: Counted
    theme_count: Counted  # fields name, n, lead (a `theme_lead` or nothing)
    theme_lead: str  # after a theme's count: its leading kind of change (`facts.theme_lead`)
    top_changes: Counted
    top_change_same_title: str
    top_change: str
    fix_impacts: Counted
    fix_impact: str
    fix_focus: str
    fix_focus_area: str  # fields n, name, guessed (empty, or a `fix_focus_guessed`)
    fix_focus_all: str  # fields total, name, guessed
    fix_focus_guessed: tuple[str, str]  # some, all of the fixes the classifier's guesses
    risk_tally: str
    risk_tally_item: str
    risk_tally_sep: str
    summary_without_reviews: str
    # Fields prs, reviewed, reviewers (empty or `review_coverage_reviewers`), approved (empty or
    # `review_coverage_approved`), threads (empty or `review_coverage_threads`, whose field bots
    # is empty, `review_coverage_bots` or `review_coverage_all_bots`), hours (empty or
    # `review_coverage_hours`).
    review_coverage: str
    # The same but approved, where the data holds review threads and no submitted reviews.
    review_coverage_threads_only: str
    review_coverage_approved: str  # fields n, earlier (empty or `review_coverage_earlier`)
    review_coverage_earlier: str  # fields share, earlier (the share before), weeks
    review_coverage_reviewers: Counted  # field n
    review_coverage_participants: Counted  # field n: the same, from review threads alone
    review_coverage_threads: Counted  # fields n, bots
    review_coverage_bots: Counted  # field n: the threads a bot opened, when not all of them
    review_coverage_all_bots: Counted  # (one thread, several)
    review_coverage_hours: str  # field hours: the median time from opening to merge
    revert_unknown: Counted  # fields refs
    revert: str
    revert_pushed: str  # fields commit (a revert pushed without a PR: its sha), target
    # A revert pushed without a PR where a follow-up names the revert (field commit: its sha).
    pushed_reverter: str
    revert_title: str
    revert_also: str  # field refs: the other PRs a revert of several undid
    revert_reopened: Counted  # fields target, refs, impacts (empty or `revert_impacts`)
    revert_impacts: str  # field names: what the reverted fix had fixed
    revert_relanded: str  # fields target, relanded, when
    revert_relanded_soon: str  # when: within the report's week
    revert_relanded_later: str  # when: a day after the week's end
    # Key changes.
    revert_chain: str
    unlabelled: str
    unlabelled_beside_places: str  # the unlabelled PRs that no folder's section took
    place_heading: str  # fields place: the folder the unlabelled PRs of a section change
    more_heading: str  # the closing section of modules and themes grouping one or two PRs
    more_lead: str
    item_label: str
    # An item without its type: one of no known type ("other" says nothing), or one of
    # `types_subject_says` whose subject's first word already says it (`Fix ...`).
    item_untyped: str
    # The types an English subject's first word says in this language: all of them in English;
    # in Chinese only a revert's `Revert "..."`, a quoted title whose summary names what it
    # undid ("回退：Revert ..." said it twice), where `修复：Fix ...` keeps the Chinese type.
    types_subject_says: frozenset[PrType]
    group_intro: Counted
    group_intro_unlabelled: Counted
    group_intro_beside_places: Counted
    group_intro_place: str  # fields n, place, types, key
    group_intro_part: str
    # None key; the one PR key; {key} of several; all of several; both of two; the one PR not
    # key (a week without a key PR keeps sections for its most important: `sections.NO_KEY_TOP`).
    group_key: tuple[str, str, str, str, str, str]
    group_see_also: str
    see_also_unnamed: str  # {n}: the sections past those a lead names (`Group.see_also_unnamed`)
    appendix: str
    item: str
    # An item's notes, joined by `item_note_sep` into `item_notes`: its importance, except where
    # the view shows it beside the item (the HTML's score badge), what the fix addresses, and
    # whether it breaks compatibility.
    item_notes: str
    item_note_sep: str
    item_importance: str
    item_impacts: str
    item_breaking: str
    others: Counted
    others_by_type: str  # fields n, parts: an `others_of_type` per type
    others_of_type: str  # fields types, listed, more
    # Trends.
    no_labels: str
    no_previous: str
    week_on_week: Counted
    largest_changes: str
    largest_change: str
    # A rise made mostly of the classifier's guesses: some, all, or the one PR.
    largest_change_guessed: tuple[str, str, str]
    # A fall from last week's count, most of which were the classifier's guesses.
    largest_change_guessed_before: tuple[str, str, str]
    # {names} {share} {n}: themes left out as the repository's subject, of n PRs beyond housekeeping
    subject_theme: Counted
    faded_labels: str  # {names}: last week's few-PR labels this week has none of
    # Code files more PRs changed than usual (`facts.busy_files`): {list} of `busy_file`
    # ({path} {n} {refs} {usual} {weeks}), or `busy_file_new` where none had changed it.
    busy_files: str
    busy_file: str
    busy_file_new: str
    busy_file_sep: str
    # The week's authors: {n} {newcomers}, the last `newcomers` ({k} {list} of `newcomer`:
    # {author} {refs}) or empty.
    contributors: Counted
    newcomers: Counted
    newcomer: str
    more_people: str  # {total} {rest}: after the people listed, as `more` after PRs
    busy_reviewers: str  # field list: `busy_reviewer`s
    busy_reviewer: str  # fields login, n (the week's PRs they reviewed, two or more)
    # Changes of core code with tests: {n} {tested} {share} {min_lines} {earlier}, the last
    # `core_testing_earlier` ({n} {tested} {share} {weeks}) or empty.
    core_testing: str
    core_testing_earlier: str
    predicted: Counted  # {n} of {total} PRs whose modules the classifier predicted
    predicted_all: Counted  # every one of the week's {total} PRs
    # {n} of {total} PRs name no module themselves; the classifier predicted modules for
    # {guessed} of them and none for the other {rest} (counted by it), or for none of them.
    predicted_some: Counted
    predicted_none: Counted
    # In each `predicted*` after "titles or labels" ({tags}): the tags of theirs that name no
    # area (`no_area_tags`, fields tags), else nothing.
    no_area_tags: Counted
    # Risks, quick view, follow-ups.
    risk_texts: dict[RiskKind, RiskText]
    # After a risk's listed PRs, apart from the last one's clauses ("..., 419 of them in tests
    # and 4 more" read as 423 lines, vllm-ascend's 2026-08-03 report); fields rest.
    risk_more: Counted
    ask: str
    ask_bot: str
    ask_where: str
    # A config default change: the settings compared, or only the files when not comparable.
    settings_changed: str  # fields list
    setting_value: str  # fields key, before, after
    setting_in_file: str  # fields key, path: one key changed two ways, in this file
    settings_removed: Counted  # fields list
    settings_renamed: Counted  # fields list
    setting_renamed: str  # fields before, after
    settings_unknown: str  # fields paths
    settings_deleted_files: Counted  # fields paths
    settings_and: str  # between those clauses
    # A dependency change: the requirements a PR added, removed or re-pinned.
    requirement_changes: str  # fields list
    # Between a PR's requirement edits once one holds a list of its own (a move's places, a
    # re-lock's packages); plain edits keep `list_sep`.
    requirement_sep: str
    requirements: RequirementPhrases  # how a requirement edit is told
    # A requirement several of the week's PRs changed in turn, taken together.
    requirement_chain: str  # fields key, path, net, steps
    shared_files: str  # fields files: the files several of a risk's PRs changed
    shared_file: str  # fields path, n
    chain_changed: str  # fields before, after
    chain_added: str  # fields after
    chain_removed: str  # fields before
    chain_back: str  # fields before
    chain_no_net: str
    chain_step_added: str  # fields number, after (empty, or chain_at)
    chain_at: str  # fields version
    chain_step_removed: str  # fields number
    chain_step_changed: str  # fields number, before, after
    chain_then: str
    # Work left open: the author's words, quoted; the review comments they answered; the
    # later PR that took the work up.
    quote: str  # fields text
    gap_answers: str  # fields asks
    gap_taken_up: str  # fields number
    large_in_tests: str  # fields n: of a very large change's lines, those in tests
    large_uncounted: str  # field kinds: the files a very large change had that its lines leave out
    large_deleted: Counted  # field n: the files it deletes, which its lines leave out
    note_without_reviews: str
    note_without_core_paths: str  # the repository configures no `scoring.core_paths`
    note_no_risks: str
    quick_risks: str
    # A quick-view entry's review (`PrReviewing`): ` (review: {list})` of the parts below.
    quick_review: str
    quick_review_approved: str  # field names
    quick_review_changes: str  # field names
    quick_review_by: str  # field names: reviewers who neither approved nor requested changes
    quick_review_nobody: str  # no review by anyone but the author
    quick_review_threads: Counted  # fields n, bots (`review_coverage_bots` or `..._all_bots`)
    quick_view_top: str
    quick_view_no_key: Counted
    quick_view_no_key_all: Counted  # the list is every PR of the week
    follow_ups: dict[FollowUpKind, str]
    # The `works_everywhere` follow-up: what each risk kind it joins checks, and how one
    # kind's PRs read in it (fields name, refs).
    check_names: dict[RiskKind, str]
    check_part: str
    no_follow_up: str

    def __post_init__(self) -> None:
        # A language missing a name or template would silently drop a fact.
        for attribute, expected in (
            ("type_names", get_args(PrType)),
            ("type_counted", get_args(PrType)),
            ("type_plurals", get_args(PrType)),
            ("impact_names", get_args(FixImpact)),
            ("risk_headings", RISK_ORDER),
            ("risk_names", RISK_ORDER),
            ("pr_risk_names", RISK_ORDER),
            ("risk_texts", tuple(k for k in RISK_ORDER if k not in ("revert", "reverted"))),
            ("follow_ups", FOLLOW_UP_KINDS),
            ("check_names", WORKS_EVERYWHERE),
            ("place_file", PLACE_STATUSES),
            ("place_file_unsized", PLACE_STATUSES),
        ):
            if set(getattr(self, attribute)) != set(expected):
                raise ValueError(f"{self.lang} wording: {attribute} must cover {sorted(expected)}")

    def display_name(self, name: str) -> str:
        """A module or theme as the report names it: the repository's name for the module, a
        built-in theme in this language, else the module's usual spelling (`fsdp` -> `FSDP`)."""
        return self.module_names.get(name) or self.theme_names.get(name) or display_name(name)

    def _theme_in_count(self, theme: str, n: int) -> str:
        """A theme's name for a count that already says "related" ("文档相关 PR 2 个"): a theme
        told apart from a module ("MoE 相关") does not say it twice ("MoE 相关相关 PR 5 个")."""
        name = self.display_name(theme)
        relation = self.theme_told_apart.format(name="")
        if (
            relation.strip()
            and relation in _counted(self.theme_count, n)
            and name.endswith(relation)
        ):
            return name.removesuffix(relation)
        return name

    # Lists and counts.
    def join(self, items: Sequence[str]) -> str:
        if len(items) <= 2:
            return self.pair_sep.join(items)
        return self.list_sep.join(items[:-1]) + self.last_sep + items[-1]

    def refs(self, numbers: Sequence[int], limit: int = MAX_LISTED) -> str:
        text = self.list_sep.join(f"#{n}" for n in numbers[:limit])
        if len(numbers) <= limit:
            return text
        return text + self.more_prs.format(total=len(numbers), rest=len(numbers) - limit)

    def _more(self, total: int, shown: int) -> str:
        return self.more.format(total=total, rest=total - shown) if total > shown else ""

    def count_phrase(self, types: Sequence[tuple[PrType, int]], whole: int | None = None) -> str:
        """`types` counted; of `whole` PRs counted just before, when all of them are of one."""
        if whole is not None and len(types) == 1 and types[0][1] == whole:
            pr_type, n = types[0]
            name = (self.type_counted if n == 1 else self.type_plurals)[pr_type]
            return _counted(self.type_count_alone, n).format(n=n, name=name)
        return self.list_sep.join(
            self.type_count.format(
                n=n, name=(self.type_counted if n == 1 else self.type_plurals)[pr_type]
            )
            for pr_type, n in types
        )

    # Header.
    def report_title(self, repo: str, period: Period) -> str:
        return self.title.format(repo=repo, **vars(period))

    def how_generated(
        self,
        source: str | None,
        calibration: ScoreCalibration | None,
        review_available: bool,
        pushed: int = 0,
        titles_only: bool = False,
        from_commit: bool = False,
    ) -> str:
        parts = [self.generated]
        if source:
            parts.append(self.source.format(source=source))
        if calibration is not None:
            calibrated = calibration.method == "history"
            template = self.calibrated if calibrated else self.uncalibrated
            n = calibration.history_size
            parts.append(_counted(template, n).format(n=n))
        parts.append(self.with_reviews if review_available else self.without_reviews)
        if pushed:
            parts.append(_counted(self.pushed_listed, pushed).format(n=pushed))
        if titles_only:
            parts.append(self.titles_only_commit if from_commit else self.titles_only)
        return self.clause_sep.join(parts)

    def revert_summary(self, target: int, original_title: str | None, reason: str | None) -> str:
        """What a revert undoes and, where its description says more than that, what it says
        (most often why)."""
        points_at = rf"reverts?\s+(?:[\w.-]+/[\w.-]+)?#{target}\b"
        if reason is not None and re.match(points_at, reason, re.IGNORECASE):
            return reason  # "Reverts #7050, which breaks kimi-k2.5 ..." says both already
        if reason is not None:
            undone = (
                f"#{target}"
                if original_title is None
                else self.reverted_titled.format(target=target, title=original_title)
            )
            if reason.lower().startswith("which "):  # "..., which breaks tests/e2e/..."
                return self.reverts_pr_which.format(undone=undone, reason=reason)
            return self.reverts_pr_because.format(undone=undone, reason=reason)
        if original_title is None:
            return self.reverts_pr.format(target=target)
        return self.reverts_pr_titled.format(target=target, title=original_title)

    def reland_note(self, reland: Reland) -> str:
        """The change a PR lands again, and the revert of an earlier week that undid it."""
        revert = self._reverter(reland.revert, reland.commit)
        return _tight(
            self.reland.format(target=reland.target, revert=revert, day=reland.reverted_on)
        )

    def repeat_note(self, repeat: Repeat) -> str:
        """The earlier PR that had a PR's title: when it merged, the files they share, whether
        it was reverted, and the branch this one went to where the two differ."""
        when = (
            _counted(self.repeat_when, repeat.days).format(n=repeat.days)
            if repeat.days
            else self.repeat_same_day
        )
        files = (
            self.repeat_same_files
            if repeat.same_files
            else _counted(self.repeat_some_files, len(repeat.shared_paths)).format(
                n=len(repeat.shared_paths)
            )
        )
        return self.repeat.format(
            number=repeat.number,
            when=when,
            files=files,
            reverted=(
                self.repeat_reverted.format(number=repeat.reverted_by)
                if repeat.reverted_by is not None
                else ""
            ),
            branch=self.repeat_branch.format(branch=repeat.branch) if repeat.branch else "",
        )

    def change_outline(self, outline: ChangeOutline, limit: int, with_lead: bool = True) -> str:
        """The outline as one sentence, naming fewer places when all would pass `limit`;
        without its lead (`with_lead=False`) where the header says it for every PR."""
        if not with_lead:
            text = self._change_outline(outline, limit, "")
            text = _LEADLESS_START.sub("", text)
            return text[:1].upper() + text[1:]
        lead = (self.outline_lead_commit if outline.from_commit else self.outline_lead)[
            outline.described
        ]
        return self._change_outline(outline, limit, lead)

    def _change_outline(self, outline: ChangeOutline, limit: int, lead: str) -> str:
        if outline.files == 1 and outline.place_count == 1:
            return self.outline_one.format(lead=lead, place=self._place(outline.places[0]))
        besides = ""
        if outline.support:
            kinds = self.join([self.outline_kinds[k] for k in outline.support])
            besides = self.outline_besides.format(kinds=kinds)
        if outline.place_count == 1 and outline.complete and not outline.support:
            # One folder holds every file: the totals already are its counts.
            only = outline.places[0]
            place = self._place(only) if only.files == 1 else (only.path or self.top_folder)
            where = self.outline_in.format(places=place)
            return _tight(
                self.outline_many.format(
                    lead=lead,
                    files=outline.files,
                    lines=self._lines(outline.lines),
                    where=where,
                    besides="",
                )
            )
        text = ""
        for shown in range(len(outline.places), 0, -1):
            places = self.join([self._place(p) for p in outline.places[:shown]])
            if outline.support and outline.complete and outline.place_count == shown:
                files = outline.files - sum(p.files for p in outline.places)
                text = _tight(
                    self.outline_places_and_support.format(
                        lead=lead,
                        places=places,
                        files=_counted(self.file_count, files).format(n=files),
                        lines=self._lines(outline.lines - sum(p.lines for p in outline.places)),
                        kinds=self.join([self.outline_kinds[k] for k in outline.support]),
                    )
                )
                if len(text) <= limit:
                    break
                continue
            if outline.complete and outline.place_count == shown and not outline.support:
                # Every place is named with its counts: totals before them would repeat them
                # ("2 files (28 lines) in a.py (16 lines) and b.py (12 lines)").
                text = self.outline_one.format(lead=lead, place=places)
                if len(text) <= limit:
                    break
                continue
            where = self.outline_in.format(places=places)
            if outline.place_count > shown or not outline.complete:
                among = self.outline_among if outline.complete else self.outline_among_listed
                where = among.format(n=outline.place_count, places=places)
            text = _tight(
                self.outline_many.format(
                    lead=lead,
                    files=outline.files,
                    lines=self._lines(outline.lines),
                    where=where,
                    besides=besides,
                )
            )
            if len(text) <= limit:
                break
        return text

    def _place(self, place: ChangePlace) -> str:
        lines = self._lines(place.lines)
        status = place.status or "modified"
        if place.files == 1:
            if not place.lines:
                return self.place_file_unsized[status].format(path=place.path)
            return self.place_file[status].format(path=place.path, lines=lines)
        path = place.path or self.top_folder
        if not place.lines:
            return self.place_folder_unsized.format(path=path, files=place.files)
        return self.place_folder.format(path=path, files=place.files, lines=lines)

    def _lines(self, n: int) -> str:
        return _counted(self.line_count, n).format(n=n)

    def _batch_landed(self, batch: BatchLanding, total: int) -> str:
        """What the summary says of a batch: ColossalAI's 2023-08-14 read "57 pull requests were
        merged this week; 41 are key PRs", 54 of them written over the eight weeks before."""

        def day(written: date) -> str:
            same_year = written.year == batch.landed.year
            return (self.batch_day if same_year else self.batch_day_other_year).format(day=written)

        landed = (self.batch_landed_all if batch.count == total else self.batch_landed).format(
            n=batch.count,
            total=total,
            start=day(batch.written_from),
            end=day(batch.written_to),
            landed=self.batch_day.format(day=batch.landed),
        )
        if batch.key == batch.above_threshold:
            return landed
        return landed + self.batch_keys_limited.format(above=batch.above_threshold, key=batch.key)

    # Summary.
    def summary(self, s: Summary) -> list[str]:
        span = self.span.format(**vars(s.period))
        tags = [self.release.format(name=r.name, day=r.day, sha=r.sha[:9]) for r in s.releases]
        released = [self.released.format(list=self.join(tags))] if tags else []
        # OpenRLHF pushes most of its work straight to main (1104 of its 1459 commits): a week
        # of 10 such commits and two releases read only "No pull requests were merged".
        pushed = [_counted(self.pushed_summary, s.pushed).format(n=s.pushed)] if s.pushed else []
        if not s.pr_count:
            return [self.no_prs.format(span=span), *pushed, *released]
        overview = _counted(self.overview, s.pr_count)
        key = self.overview_key[min(s.key_count, 1) if s.pr_count == 1 else 2 + min(s.key_count, 2)]
        paragraphs = [
            overview.format(
                n=s.pr_count,
                key=key.format(key=s.key_count),
                span=span,
                types=self.count_phrase(s.types),
            )
        ]
        paragraphs.extend(self._batch_landed(batch, s.pr_count) for batch in s.batches)
        paragraphs.extend(pushed)
        paragraphs.extend(released)
        focus = []
        if s.top_modules:
            # Several modules all of the classifier's guesses (a repository that seldom tags)
            # say it once, after the list.
            all_guessed = len(s.top_modules) > 1 and all(
                s.module_guesses.get(m, 0) == n for m, n in s.top_modules
            )
            modules = [
                self.module_count.format(name=self.display_name(m), n=n)
                if all_guessed
                else self._module_count(m, n, s.module_guesses.get(m, 0))
                for m, n in s.top_modules
            ]
            busiest = _counted(
                self.busiest_modules_sure if s.top_modules_less_unsure else self.busiest_modules,
                len(modules),
            )
            listed = self.join(modules) + (self.modules_all_guessed if all_guessed else "")
            focus.append(busiest.format(list=listed))
        if s.top_themes:
            themes = [
                _counted(self.theme_count, n).format(
                    name=self._theme_in_count(t, n),
                    n=n,
                    lead=self.theme_lead.format(led=self.count_phrase([s.theme_leads[t]]))
                    if t in s.theme_leads
                    else "",
                )
                for t, n in s.top_themes
            ]
            alone = _counted(self.busiest_themes_alone, len(themes))
            lead = self.busiest_themes if focus else alone  # no module leads: themes open it
            focus.append(lead.format(list=self.join(themes)))
        if focus:
            sentence = self.clause_sep.join(focus)
            paragraphs.append(_tight(sentence[:1].upper() + sentence[1:] + self.stop))
        top = [
            self.top_change.format(
                number=r.number, type=r.type_name, importance=_fmt(r.importance), subject=subject(r)
            )
            + (
                self.top_change_same_title.format(refs=self.refs(s.same_title[r.number]))
                if r.number in s.same_title
                else ""
            )
            for r in s.top
        ]
        top_changes = _counted(self.top_changes, len(top))
        paragraphs.append(_closed(top_changes.format(list=self.clause_sep.join(top))))
        if s.fix_count:
            impacts = [
                self.fix_impact.format(
                    impact=self.impact_names[impact], refs=self.refs(nums, MAX_LISTED_PER_IMPACT)
                )
                for impact, nums in s.fixes_by_impact
            ]
            paragraphs.append(
                _counted(self.fix_impacts, s.fix_count).format(
                    n=s.fix_count, list=self.clause_sep.join(impacts)
                )
            )
        if s.fix_focus and s.fix_focus[0][1] == s.fix_total:
            area, n = s.fix_focus[0]
            guessed = self._fixes_guessed(n, s.fix_guesses.get(area, 0))
            paragraphs.append(
                _tight(
                    self.fix_focus_all.format(
                        total=s.fix_total, name=self.display_name(area), guessed=guessed
                    )
                )
            )
        elif s.fix_focus:
            areas = [
                self.fix_focus_area.format(
                    n=n,
                    name=self.display_name(a),
                    guessed=self._fixes_guessed(n, s.fix_guesses.get(a, 0)),
                )
                for a, n in s.fix_focus
            ]
            fix_focus = self.fix_focus.format(total=s.fix_total, list=self.join(areas))
            paragraphs.append(_tight(fix_focus))
        paragraphs.extend(self.revert_sentences(s.reverts))
        if s.risk_tally:
            tally = [
                self.risk_tally_item.format(name=self.risk_names[kind], n=n)
                for kind, n in s.risk_tally
            ]
            paragraphs.append(self.risk_tally.format(list=self.risk_tally_sep.join(tally)))
        if not s.review_available:
            paragraphs.append(self.summary_without_reviews)
        elif s.reviews is not None:
            paragraphs.append(self.review_coverage_sentence(s.reviews))
        return paragraphs

    def review_coverage_sentence(self, c: ReviewCoverage) -> str:
        def counted(template: Counted, n: int, **fields: str) -> str:
            return _counted(template, n).format(n=n, **fields) if n else ""

        bots = self._opened_by_bots(c.threads, c.bot_threads)
        # Without submitted reviews, only who took part in a thread is known, not who reviewed.
        template = (
            self.review_coverage if c.approved is not None else self.review_coverage_threads_only
        )
        return template.format(
            prs=c.prs,
            reviewed=c.reviewed,
            approved=self._approved(c),
            reviewers=counted(
                self.review_coverage_reviewers
                if c.approved is not None
                else self.review_coverage_participants,
                c.reviewers,
            ),
            threads=counted(self.review_coverage_threads, c.threads, bots=bots),
            hours=(
                ""
                if c.median_hours_to_merge is None
                else self.review_coverage_hours.format(hours=f"{c.median_hours_to_merge:.1f}")
            ),
        )

    def _approved(self, c: ReviewCoverage) -> str:
        """`, 3 approved (50%, against 83% over the previous 12 weeks)`; empty where approvals
        are unknown."""
        if c.approved is None:
            return ""
        earlier = ""
        if c.earlier_prs and c.earlier_approved is not None:
            earlier = self.review_coverage_earlier.format(
                share=_percent(c.approved, c.prs),
                earlier=_percent(c.earlier_approved, c.earlier_prs),
                weeks=USUAL_WEEKS,
            )
        return self.review_coverage_approved.format(n=c.approved, earlier=earlier)

    def _opened_by_bots(self, threads: int, bot_threads: int) -> str:
        """`, 2 of them opened by bots` after a count of review threads; empty without any."""
        if not bot_threads:
            return ""
        if bot_threads == threads:
            return _counted(self.review_coverage_all_bots, threads)
        return _counted(self.review_coverage_bots, bot_threads).format(n=bot_threads)

    def _module_count(self, module: str, n: int, guessed: int) -> str:
        """`CI (10)`, or `CI (10, all of them the classifier's guesses)` when at least half of
        its PRs have it only as the classifier's guess, as the largest changes say."""
        name = self.display_name(module)
        if 2 * guessed < n:
            return self.module_count.format(name=name, n=n)
        some, all_, one = self.module_count_guessed
        template = one if n == 1 else all_ if guessed == n else some
        return template.format(name=name, n=n, guessed=guessed)

    def _fixes_guessed(self, n: int, guessed: int) -> str:
        if 2 * guessed < n:
            return ""
        some, all_ = self.fix_focus_guessed
        return (all_ if guessed == n else some).format(guessed=guessed)

    def revert_sentences(
        self,
        chains: Sequence[RevertChain],
        *,
        with_reasons: bool = False,
        with_titles: bool = True,
    ) -> list[str]:
        """One sentence per identified revert, then one for all whose target is unknown;
        `with_reasons` quotes what each revert's description says of it (most often why),
        `with_titles` the reverted PR's title (left out where the PRs are listed below)."""
        sentences = [
            self._revert_sentence(chain, chain.target, with_reasons, with_titles)
            for chain in chains
            if chain.target is not None
        ]
        unknown = [f"#{chain.number}" for chain in chains if chain.target is None]
        if unknown:
            template = _counted(self.revert_unknown, len(unknown))
            sentences.append(template.format(refs=self.join(unknown)))
        return sentences

    def _revert_sentence(
        self, chain: RevertChain, target: int, with_reason: bool, with_title: bool
    ) -> str:
        text = (
            self.revert.format(number=chain.number, target=target)
            if chain.commit is None
            else self.revert_pushed.format(commit=chain.commit, target=target)
        )
        if with_title and chain.title:
            text += self.revert_title.format(title=chain.title)
        if chain.also:
            text += self.revert_also.format(refs=self.refs(chain.also))
        if with_reason and chain.reason:
            said = self.revert_reason_commit if chain.reason_from_commit else self.revert_reason
            text += said.format(reason=chain.reason)
        if chain.relanded is not None:
            later = chain.relanded_later_on
            when = (
                self.revert_relanded_later.format(day=later) if later else self.revert_relanded_soon
            )
            text += self.revert_relanded.format(target=target, relanded=chain.relanded, when=when)
        elif chain.reopened:
            reopened = _counted(self.revert_reopened, len(chain.reopened))
            impacts = [self.impact_names[i] for i in chain.impacts[:2]]
            text += reopened.format(
                target=target,
                refs=self.refs(chain.reopened),
                # A list, not "a and b": an impact's name may hold its own "or".
                impacts=(
                    self.revert_impacts.format(names=self.list_sep.join(impacts)) if impacts else ""
                ),
            )
        return _closed(text + self.stop)  # a quoted reason may end in its own stop

    # Key changes.
    def group_heading(self, group: Group) -> str:
        return self._heading(group.kind, group.name)

    def _heading(self, kind: GroupKind, name: str) -> str:
        if kind == "revert":
            return self.revert_chain
        if kind == "more":
            return self.more_heading
        if kind == "place":
            return self.place_heading.format(place=name)
        if kind == "other":
            return self.unlabelled_beside_places if name == BESIDE_PLACES else self.unlabelled
        return self.display_name(name)

    def group_lead(self, group: Group, reverts: Sequence[RevertChain]) -> str:
        if group.kind == "revert":
            # The group's items, right below, give both PRs' titles.
            return self.sentence_sep.join(self.revert_sentences(reverts, with_titles=False))
        n, key = len(group.members), group.key_count
        none, single, several, every, both, single_not = self.group_key
        if key == n > 1:
            key_phrase = both if n == 2 else every
        elif n == 1:
            key_phrase = single if key else single_not
        else:
            key_phrase = several if key else none
        if group.kind == "more":
            return self.more_lead.format(n=n, key=key_phrase.format(key=key))
        counts = {
            "n": n,
            "types": self.count_phrase(type_counts(group.members), n),
            "key": key_phrase.format(key=key),
        }
        if group.kind == "other":
            beside_places = group.name == BESIDE_PLACES
            intro = self.group_intro_beside_places if beside_places else self.group_intro_unlabelled
            return _counted(intro, n).format(**counts)
        if group.kind == "place":
            return self.group_intro_place.format(place=group.name, **counts)
        if group.label_total <= len(group.members):
            intro = _counted(self.group_intro, n)
            return _tight(intro.format(name=self.display_name(group.name), **counts))
        elsewhere = [self._heading(kind, name) for kind, name in group.see_also]
        if group.see_also_unnamed:
            elsewhere.append(self.see_also_unnamed.format(n=group.see_also_unnamed))
        if group.in_appendix_only:
            elsewhere.append(self.appendix)
        intro = _tight(
            self.group_intro_part.format(
                total=group.label_total, name=self.display_name(group.name), **counts
            )
        )
        return intro + self.group_see_also.format(list=self.join(elsewhere))

    def labelled_item_text(
        self, label: str, ref: PrRef, score: PrScore, badged: bool = False
    ) -> str:
        """An item of the "more" group, led by the module or theme it stands for, unless that
        only names its type again (vllm-ascend's "performance · performance: Optimized ...")."""
        text = self.item_text(ref, score, badged)
        if tag_type(label) == ref.pr_type:
            return text
        return self.item_label.format(label=self.display_name(label)) + text

    def item_text(self, ref: PrRef, score: PrScore, badged: bool = False) -> str:
        """A key change's line; `badged` for a view that shows its importance beside it."""
        notes = [] if badged else [self.item_importance.format(importance=_fmt(ref.importance))]
        if score.fix_impacts:
            impacts = self.join([self.impact_names[i] for i in score.fix_impacts[:2]])
            notes.append(self.item_impacts.format(impacts=impacts))
        if score.breaking:
            notes.append(self.item_breaking)
        text, template = subject(ref, 90), self.item
        if ref.pr_type == "other":
            template = self.item_untyped
        elif ref.pr_type in self.types_subject_says and first_word_type(text) == ref.pr_type:
            # "Fix pre-commit workflow", not "fix: Fix pre-commit workflow".
            text, template = text[:1].upper() + text[1:], self.item_untyped
        return template.format(
            type=ref.type_name,
            subject=text,
            notes=self.item_notes.format(notes=self.item_note_sep.join(notes)) if notes else "",
            summary=ref.summary,
        ).rstrip()

    def others_text(self, refs: Sequence[PrRef]) -> str:
        """A section's PRs not described one by one: named up to MAX_LISTED, or, where more are
        of several types, named by type (a share of the names each), so that a kind of work
        the names would leave out still shows (verl's 15 further NPU PRs of 2026-05-11
        named 6, none of them among its 8 docs changes)."""
        types = type_counts(refs)
        if len(refs) > MAX_LISTED and len(types) > 1:
            parts = [self._others_of_type(refs, pr_type, n) for pr_type, n in types]
            return self.others_by_type.format(n=len(refs), parts=self.join(parts))
        listed = self.clause_sep.join(f"#{r.number} {subject(r, 40)}" for r in refs[:MAX_LISTED])
        return _closed(
            _counted(self.others, len(refs)).format(
                n=len(refs),
                types=self.count_phrase(type_counts(refs), len(refs)),
                listed=listed,
                more=self._more(len(refs), MAX_LISTED),
            )
        )

    def _others_of_type(self, refs: Sequence[PrRef], pr_type: PrType, n: int) -> str:
        of_type = [r for r in refs if r.pr_type == pr_type]
        shown = min(n, max(1, round(MAX_LISTED * n / len(refs))))
        return self.others_of_type.format(
            types=self.count_phrase([(pr_type, n)]),
            listed=self.clause_sep.join(f"#{r.number} {subject(r, 40)}" for r in of_type[:shown]),
            more=self._more(n, shown),
        )

    # Trends.
    def trends_lead(
        self,
        counts: WeekCounts,
        previous: WeekCounts | None,
        prs_of: Mapping[str, Collection[int]],
        guessed: Mapping[str, int] | None = None,
    ) -> list[str]:
        """The week against the last, and the largest changes. A module most of whose PRs have it
        as the classifier's guess says so (`guessed`: the week's PRs per module the classifier
        gave): slime's CI went 0 → 10 in its week of 2026-08-10, all ten guesses for fixes that
        register their test in a workflow."""
        if not counts.modules and not counts.themes:
            return [self.no_labels] if counts.pr_count else []
        if previous is None:
            return [self.no_previous]
        lines = [
            _counted(self.week_on_week, counts.pr_count).format(
                n=counts.pr_count,
                previous=previous.pr_count,
                delta=delta(counts.pr_count, previous.pr_count),
            )
        ]
        changes = []
        for name, now, before in biggest_changes(counts, previous, prs_of):
            is_module = name not in counts.themes and name not in previous.themes
            template = self.largest_change
            guesses = (guessed or {}).get(name, 0) if is_module else 0
            if now > before and 2 * guesses >= now:
                some, all_, one = self.largest_change_guessed
                template = one if now == 1 else all_ if guesses == now else some
            elif now < before and is_module and 2 * previous.guesses.get(name, 0) >= before:
                # torchtitan's 2025-02-10 read "TorchComms (2 → 0)": last week's two were
                # guesses at 0.16 and 0.20, for a module first tagged months later.
                guesses = previous.guesses[name]
                some, all_, one = self.largest_change_guessed_before
                template = one if before == 1 else all_ if guesses == before else some
            changes.append(
                template.format(
                    name=self.display_name(name), now=now, before=before, guessed=guesses
                )
            )
        if changes:
            lines.append(_tight(self.largest_changes.format(list=self.join(changes))))
        return lines

    def subject_themes_note(self, subjects: Mapping[str, float], measured_prs: int) -> list[str]:
        """One sentence naming the themes left out as what the repository is about, with their
        share of the `measured_prs` stored PRs that do more than housekeeping."""
        if not subjects:
            return []
        names = self.join([self.display_name(name) for name in subjects])
        share = f"{round(100 * min(subjects.values()))}%"
        template = _counted(self.subject_theme, len(subjects))
        # "NPU/昇腾 不作为主题统计" (vllm-ascend's 2026-08-03): a Chinese name before the verb.
        return [_tight(template.format(names=names, share=share, n=measured_prs))]

    def faded_labels_note(self, names: Sequence[str]) -> list[str]:
        """One sentence naming the labels with no row for having gone from one or two PRs to
        none; a module and a theme of one name once, as the one with capitals says it (VeOmni's
        `lora` module and LoRA theme read "data, dist, lora, and LoRA")."""
        if not names:
            return []
        shown: dict[str, str] = {}
        for name in names:
            display = self.display_name(name)
            if shown.setdefault(name_key(name), display).islower():
                shown[name_key(name)] = display
        return [self.faded_labels.format(names=self.join(list(shown.values())))]

    def busy_files_note(self, files: Sequence[BusyFile]) -> list[str]:
        """One sentence naming the code files more of the week's PRs changed than usual."""
        if not files:
            return []
        told = [
            (self.busy_file if f.usual else self.busy_file_new).format(
                path=f.path,
                n=len(f.numbers),
                refs=self.refs(f.numbers, MAX_ITEM_REFS),
                usual=_fmt(f.usual),
                weeks=USUAL_WEEKS,
            )
            for f in files
        ]
        return [self.busy_files.format(list=self.busy_file_sep.join(told))]

    def contributors_note(self, found: Contributors | None) -> list[str]:
        """How many authors the week's PRs had, naming those new to the stored history."""
        if found is None:
            return []
        newcomers = ""
        if found.newcomers:
            listed = [
                self.newcomer.format(author=author, refs=self.refs(numbers, MAX_ITEM_REFS))
                for author, numbers in found.newcomers[:MAX_LISTED]
            ]
            newcomers = _counted(self.newcomers, len(found.newcomers)).format(
                k=len(found.newcomers),
                list=self.list_sep.join(listed) + self._more_people(len(found.newcomers)),
            )
        template = _counted(self.contributors, found.authors)
        return [template.format(n=found.authors, newcomers=newcomers)]

    def reviewers_note(self, busiest: Sequence[tuple[str, int]]) -> list[str]:
        """Who reviewed the most of the week's PRs (`facts.busiest_reviewers`)."""
        if not busiest:
            return []
        listed = [self.busy_reviewer.format(login=login, n=n) for login, n in busiest]
        return [self.busy_reviewers.format(list=self.join(listed))]

    def _more_people(self, total: int) -> str:
        if total <= MAX_LISTED:
            return ""
        return self.more_people.format(total=total, rest=total - MAX_LISTED)

    def predicted_note(
        self, n: int, total: int, guessed: int | None = None, tags: Sequence[str] = ()
    ) -> list[str]:
        """How many of the week's PRs name no module in their titles or labels (`n`), and of
        them how many have modules only the classifier gave them (`guessed`, all `n` when None):
        in slime's week of 2026-08-10, 12 of 29, among them all 10 of the `ci` PRs the table
        counts. tilelang's type-only tags (`[Bugfix]`) left 15 of a week's 33 PRs without a
        module of their own, 10 of which the classifier gave none: the note said 5. `tags` are
        the tags of theirs that name no area, which the note names: verl's 2026-03-09 said its
        `[misc] feat: support dynamic bsz using group size` named no module in its title."""
        guessed = n if guessed is None else guessed
        if not n:
            return []
        named = [f"[{self.display_name(tag)}]" for tag in tags]
        shown = _counted(self.no_area_tags, len(named)).format(tags=self.join(named))
        fields = {"n": n, "total": total, "tags": shown if named else ""}
        if guessed == n:
            template = self.predicted_all if n == total else self.predicted
            return [_counted(template, n).format(**fields)]
        if not guessed:
            return [_counted(self.predicted_none, n).format(**fields)]
        # "the other 1 have none" (verl's 2026-08-10): the rest counts the verb.
        some = _counted(self.predicted_some, n - guessed)
        return [some.format(guessed=guessed, rest=n - guessed, **fields)]

    # Risks.
    def risk_text(self, group: RiskGroup) -> str:
        if group.kind in ("revert", "reverted"):  # the reverted kind's: pushed reverts
            return self.sentence_sep.join(self.revert_sentences(group.reverts, with_reasons=True))
        lead, item, end = self.risk_texts[group.kind]
        n = len(group.numbers)
        items = self.clause_sep.join(self._risk_item(item, pr) for pr in group.listed)
        rest = group.unlisted
        more = _counted(self.risk_more, rest).format(rest=rest) if rest else ""
        lead = _counted(lead, n).format(n=n, refs=self.refs(group.numbers))
        chains = [self._requirement_chain(chain) for chain in group.requirement_chains]
        sentences = [_closed(_stopped_once(lead + items + more, _counted(end, n))), *chains]
        if group.shared_files:
            files = (self.shared_file.format(path=p, n=count) for p, count in group.shared_files)
            sentences.append(self.shared_files.format(files=self.list_sep.join(files)))
        return self.sentence_sep.join(sentences)

    def _version(self, spec: str | None) -> str:
        return shown_version(spec) or self.requirements.any_version

    def _requirement_chain(self, chain: RequirementChain) -> str:
        """`Taken together, torch in setup.py went from ==2.7 to ==2.9 (#1 ==2.7 → ==2.8, then
        #2 ==2.8 → ==2.9).`"""
        if chain.before is None and chain.after is None:
            net = self.chain_no_net
        elif chain.before is None:
            net = self.chain_added.format(after=self._version(chain.after))
        elif chain.after is None:
            net = self.chain_removed.format(before=self._version(chain.before))
        elif chain.before == chain.after:
            net = self.chain_back.format(before=self._version(chain.before))
        else:
            net = self.chain_changed.format(
                before=self._version(chain.before), after=self._version(chain.after)
            )
        steps = []
        for step in chain.steps:
            if step.before is None:
                version = shown_version(step.after)
                after = self.chain_at.format(version=version) if version else ""
                steps.append(self.chain_step_added.format(number=step.number, after=after))
            elif step.after is None:
                steps.append(self.chain_step_removed.format(number=step.number))
            else:
                steps.append(
                    self.chain_step_changed.format(
                        number=step.number,
                        before=self._version(step.before),
                        after=self._version(step.after),
                    )
                )
        # "最终回到原来的 任意版本" (vllm-ascend's 2026-07-06): a version said in words.
        return _tight(
            self.requirement_chain.format(
                key=chain.key, path=chain.path, net=net, steps=self.chain_then.join(steps)
            )
        )

    def _risk_item(self, template: str, pr: FlaggedPr) -> str:
        return template.format(
            number=pr.number,
            subject=pr.subject,
            lines=pr.lines,
            path=pr.paths[0] if pr.paths else "",
            paths=self.list_sep.join(pr.paths),
            modules=self.list_sep.join(self.display_name(m) for m in pr.modules),
            module_count=len(pr.modules),
            asks=self.clause_sep.join(self._ask(a) for a in pr.asks),
            settings=self._settings(pr),
            requirements=self._requirements(pr),
            quotes=self.list_sep.join(self.quote.format(text=q) for q in pr.quotes),
            answers=self.gap_answers.format(
                asks=self.clause_sep.join(self._ask(a) for a in pr.asks)
            )
            if pr.asks
            else "",
            taken_up=self.gap_taken_up.format(number=pr.taken_up_by) if pr.taken_up_by else "",
            tests=self.large_in_tests.format(n=pr.test_lines) if pr.test_lines else "",
            uncounted=self.large_uncounted.format(
                kinds=self.join([self.outline_kinds[k] for k in pr.uncounted])
            )
            if pr.uncounted
            else "",
            deleted=_counted(self.large_deleted, len(pr.deleted_paths)).format(
                n=len(pr.deleted_paths)
            )
            if pr.deleted_paths
            else "",
            earlier=pr.related[0] if pr.related else "",
        )

    def _requirements(self, pr: FlaggedPr) -> str:
        """The requirements a PR changed, as a parenthesis after its dependency files."""
        if not pr.settings:
            return ""
        edits = requirement_edits(pr.settings)
        named = pr.paths[0] if len(pr.paths) == 1 else None
        shown = [
            _tight(describe(edit, self.requirements, named_path=named))
            for edit in edits[:MAX_SETTINGS]
        ]
        # An edit with a list or a comma of its own stands apart from the next: Chinese joins
        # with `、`, and verl #7127's "...，不再动态声明、python >=3.10 → ..." ran on.
        commas = (self.list_sep, self.requirements.part_sep)
        separator = (
            self.requirement_sep
            if any(comma in text for text in shown for comma in commas)
            else self.list_sep
        )
        listed = separator.join(shown) + self._more(len(edits), MAX_SETTINGS)
        return self.requirement_changes.format(list=listed)

    def _settings(self, pr: FlaggedPr) -> str:
        """What a PR did to configuration defaults: the values it changed, the settings it
        renamed and removed (as its flag's detail says them), and which files it edited that
        could not be compared."""
        values, renames, removed_settings = settings_outcome(pr.settings)
        removed = [c.key for c in removed_settings]
        clauses = []
        if values:
            located = list(zip(values, setting_files(values), strict=True))[:MAX_SETTINGS]
            shown = [
                self.setting_value.format(
                    key=self.setting_in_file.format(key=c.key, path=path) if path else c.key,
                    before=before,
                    after=after,
                )
                for c, path in located
                for before, after in [shown_values(c)]
            ]
            listed = self.list_sep.join(shown) + self._more(len(values), MAX_SETTINGS)
            clauses.append(self.settings_changed.format(list=listed))
        if renames:
            shown = [
                self.setting_renamed.format(before=old.key, after=new.key)
                for old, new in renames[:MAX_SETTINGS]
            ]
            listed = self.list_sep.join(shown) + self._more(len(renames), MAX_SETTINGS)
            clauses.append(_counted(self.settings_renamed, len(renames)).format(list=listed))
        if removed:
            listed = self.list_sep.join(removed[:MAX_SETTINGS])
            clauses.append(
                _counted(self.settings_removed, len(removed)).format(
                    list=listed + self._more(len(removed), MAX_SETTINGS)
                )
            )
        if pr.deleted_paths:
            listed = self.list_sep.join(pr.deleted_paths[:MAX_SETTINGS])
            more = self._more(len(pr.deleted_paths), MAX_SETTINGS)
            deleted = _counted(self.settings_deleted_files, len(pr.deleted_paths))
            clauses.append(deleted.format(paths=listed + more))
        # A flag stored before files were compared has none of these: its files were edited.
        if pr.uncompared_paths or not (pr.settings or pr.deleted_paths):
            paths = self.list_sep.join(pr.uncompared_paths or pr.paths)
            clauses.append(self.settings_unknown.format(paths=paths))
        return self.settings_and.join(clauses)

    def _ask(self, ask: ReviewAsk) -> str:
        where = ask.where()
        return self.ask.format(
            reviewer=ask.reviewer,
            bot=self.ask_bot if ask.is_bot else "",
            where=self.ask_where.format(where=where) if where else "",
            ask=ask.ask,
        )

    def risk_notes(
        self,
        review_available: bool,
        any_risk: bool,
        core_paths: bool = True,
        testing: CoreTesting | None = None,
    ) -> list[str]:
        """How many of the week's core changes came with tests, what the risk rules could
        not check this week, and that none fired if so."""
        notes = [] if testing is None else [self.core_testing_note(testing)]
        if not review_available:
            notes.append(self.note_without_reviews)
        if not core_paths:
            notes.append(self.note_without_core_paths)
        return notes if any_risk else [*notes, self.note_no_risks]

    def core_testing_note(self, testing: CoreTesting) -> str:
        earlier = ""
        if testing.earlier_changes and testing.earlier_tested is not None:
            earlier = self.core_testing_earlier.format(
                n=testing.earlier_changes,
                tested=testing.earlier_tested,
                share=_percent(testing.earlier_tested, testing.earlier_changes),
                weeks=USUAL_WEEKS,
            )
        return self.core_testing.format(
            n=testing.changes,
            tested=testing.tested,
            share=_percent(testing.tested, testing.changes),
            min_lines=testing.min_lines,
            earlier=earlier,
        )

    def quick_view_lead(self, key: int, shown: int, threshold: float, total: int) -> str | None:
        if not shown or shown == key:
            return None
        if not key:
            no_key = self.quick_view_no_key_all if shown == total else self.quick_view_no_key
            return _counted(no_key, shown).format(threshold=f"{threshold:.1f}", shown=shown)
        return self.quick_view_top.format(key=key, shown=shown)

    def quick_risk_note(self, kinds: Sequence[RiskKind]) -> str:
        """` (risks: very large change)` after a quick-view entry; empty without risks."""
        if not kinds:
            return ""
        names = (self.pr_risk_names[k] for k in kinds)
        return self.quick_risks.format(list=self.list_sep.join(names))

    def quick_review_note(self, reviewing: PrReviewing | None) -> str:
        """` (review: approved by bob; 3 threads, 1 of them opened by a bot)` after a
        quick-view entry; empty without review data."""
        if reviewing is None:
            return ""

        def names(logins: Sequence[str | None]) -> str:
            shown = [login or DELETED_USER for login in logins[:MAX_NAMED_REVIEWERS]]
            if len(logins) > len(shown):
                # People, counted as people: "a、b、c 等 4 个批准" counted them as things.
                rest = len(logins) - len(shown)
                more = self.more_people.format(total=len(logins), rest=rest)
                return self.list_sep.join(shown) + more
            return self.join(shown)

        parts = []
        if not reviewing.reviewers and reviewing.reviews_known:
            parts.append(self.quick_review_nobody)
        if reviewing.approvers:
            parts.append(self.quick_review_approved.format(names=names(reviewing.approvers)))
        if reviewing.change_requesters:
            changes = self.quick_review_changes
            parts.append(changes.format(names=names(reviewing.change_requesters)))
        if reviewing.reviewers and not parts:
            parts.append(self.quick_review_by.format(names=names(reviewing.reviewers)))
        if reviewing.threads:
            threads = _counted(self.quick_review_threads, reviewing.threads)
            bots = self._opened_by_bots(reviewing.threads, reviewing.bot_threads)
            parts.append(threads.format(n=reviewing.threads, bots=bots))
        if not parts:  # thread excerpts, none on this PR
            return ""
        return _tight(self.quick_review.format(list=self.clause_sep.join(parts)))

    def basis(self, score: PrScore) -> str:
        """The raw score as the sum of its largest parts, e.g. "8.3 = size 2.7 + core paths
        2.4 + type 1.8 + fix impact 1.4", the rest summed as one part: the importance shown
        beside it is the raw score's rank in the repository's history, not the sum."""
        parts = sorted(((v, k) for k, v in score.parts.items() if v > 0), reverse=True)
        named = [(self.part_labels.get(k, k), v) for v, k in parts[:BASIS_PARTS]]
        if len(parts) > BASIS_PARTS:
            named.append((self.other_parts, sum(v for v, _ in parts[BASIS_PARTS:])))
        tenths = _tenths_summing_to([v for _, v in named], round(score.raw_score * 10))
        shown = [f"{name} {t / 10:.1f}" for (name, _), t in zip(named, tenths, strict=True) if t]
        return f"{score.raw_score:.1f} = " + " + ".join(shown) if shown else "0.0"

    # Follow-ups.
    def suggestions(self, follow_ups: Sequence[FollowUp]) -> list[str]:
        """The follow-ups. A source without reviews is said in the header, the summary and the
        risks; a fourth time, as a weekly ask to switch sources, told no one what to do."""
        return [self._follow_up(f) for f in follow_ups] or [self.no_follow_up]

    def _follow_up(self, follow_up: FollowUp) -> str:
        chain = follow_up.revert
        # "确认依赖、镜像 变更" (slime's 2026-06-29): the checks' names end in Chinese.
        text = self.follow_ups[follow_up.kind].format(
            refs=self.refs(follow_up.numbers, follow_up.limit),
            names=self.join([self.check_names[kind] for kind, _ in follow_up.parts]),
            parts=self.clause_sep.join(
                self.check_part.format(name=self.check_names[kind], refs=self.refs(numbers))
                for kind, numbers in follow_up.parts
            ),
            reverter=self._reverter(chain.number, chain.commit) if chain else None,
            target=chain.target if chain else None,
            reopened=self.refs(chain.reopened) if chain else "",
        )
        return _tight(text)

    def _reverter(self, number: int | None, commit: str | None) -> str:
        """A revert as a follow-up or a re-land names it: its PR, or a revert pushed without a
        PR, its commit."""
        if commit is None:
            return f"#{number}"
        return self.pushed_reverter.format(commit=commit)


# A stop after a subject that already ends a sentence ("…", "training.", "asked “why?”").
_SECOND_STOP = re.compile(r"(?<=[.!?。！？…])([\"'”’]*)[.。]$")
_ENDS_IN_STOP = re.compile(r"[.!?。！？…][\"'”’]*$")
# A space the templates put around a name, between two Chinese characters ("主题上 文档 相关").
_SPACE_BETWEEN_HAN = re.compile(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])")


def _tenths_summing_to(values: Sequence[float], total: int) -> list[int]:
    """`values` in tenths, rounded so that they add up to `total` tenths (largest remainders
    first): the parts shown beside a raw score of 6.9 read 6.9, not 6.8."""
    tenths = [value * 10 for value in values]
    rounded = [math.floor(t) for t in tenths]
    by_remainder = sorted(range(len(values)), key=lambda i: rounded[i] - tenths[i])
    for i in by_remainder[: max(0, total - sum(rounded))]:
        rounded[i] += 1
    return rounded


def _closed(sentence: str) -> str:
    """A sentence whose list ends in a subject with its own terminal punctuation keeps only
    that ("training.", not "training.." or "training.。")."""
    return _SECOND_STOP.sub(r"\1", sentence)


def _stopped_once(text: str, tail: str) -> str:
    """`text` and `tail`, without the stop that opens `tail` where `text` ends in one (a quoted
    review comment: "…is false.” These threads", not "…is false.”. These threads")."""
    if tail[:1] in (".", "。") and _ENDS_IN_STOP.search(text):
        tail = tail[1:]
    return text + tail


# What an outline without its lead starts with: the separator the lead came before.
_LEADLESS_START = re.compile(r"^[;；,，]\s*")


def _tight(text: str) -> str:
    """Text built from templates and names only, without spaces between Chinese words."""
    return _SPACE_BETWEEN_HAN.sub("", text)


def _counted(template: Counted, count: int) -> str:
    if isinstance(template, str):
        return template
    return template[0] if count == 1 else template[1]


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%"


def _fmt(value: float) -> str:
    return f"{value:.1f}"
