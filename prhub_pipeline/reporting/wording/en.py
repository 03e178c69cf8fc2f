"""The report in English."""

from __future__ import annotations

from typing import get_args

from prhub_pipeline.modelling.scoring.requirement_edits import ENGLISH as REQUIREMENTS_EN
from prhub_pipeline.records import PrType, RiskKind
from prhub_pipeline.reporting.wording.core import RiskText, Wording

_RISK_HEADINGS: dict[RiskKind, str] = {
    "revert": "Reverts",
    "reverted": "Reverted changes",
    "breaking_change": "Breaking changes",
    "unresolved_review": "Review threads unresolved at merge",
    "core_without_tests": "Core-path changes without tests",
    "tests_disabled": "Tests skipped or disabled",
    "no_approval": "Merged without an approving review",
    "large_change": "Very large changes",
    "cross_cutting": "Cross-cutting changes",
    # The flag covers settings renamed or removed too, not only defaults changed (verl #7374).
    "config_default_change": "Configuration setting changes",
    "dependency_change": "Dependency changes",
    "repeated_fix": "Fixes made again",
    "known_gap": "Work left open",
    "docker_change": "Docker image changes",
    "ci_change": "CI workflow changes",
}
_WORKS = " changes in {refs} work across environments and pipelines."


def _inside_sentence(heading: str) -> str:
    """`Very large changes` -> `very large changes`; names keep their capitals (`Docker`, `CI`)."""
    first = heading.split(" ", 1)[0]
    if first.isupper() or first in {"Docker"}:
        return heading
    return heading[:1].lower() + heading[1:]


EN = Wording(
    lang="en",
    list_sep=", ",
    pair_sep=" and ",
    last_sep=", and ",
    clause_sep="; ",
    sentence_sep=" ",
    stop=".",
    more=" and {rest} more",
    more_prs=" and {rest} more",
    type_names={
        "feat": "feature",
        "fix": "fix",
        "refactor": "refactor",
        "perf": "performance",
        "chore": "chore",
        "doc": "docs",
        "test": "test",
        "revert": "revert",
        "other": "other",
    },
    type_counted={
        "feat": "feature",
        "fix": "fix",
        "refactor": "refactor",
        "perf": "performance change",
        "chore": "chore",
        "doc": "docs change",
        "test": "test change",
        "revert": "revert",
        "other": "other change",
    },
    type_plurals={
        "feat": "features",
        "fix": "fixes",
        "refactor": "refactors",
        "perf": "performance changes",
        "chore": "chores",
        "doc": "docs changes",
        "test": "test changes",
        "revert": "reverts",
        "other": "other changes",
    },
    type_count="{n} {name}",
    type_count_alone="{n} {name}",
    impact_names={
        "wrong_result": "wrong results or precision",
        "data_loss": "data loss",
        "security": "security",
        "oom": "out-of-memory",
        "hang": "hangs or deadlocks",
        "crash": "crashes or errors",
        "regression": "regressions",
        "ignored_setting": "settings that had no effect",
    },
    risk_headings=_RISK_HEADINGS,
    risk_names={kind: _inside_sentence(heading) for kind, heading in _RISK_HEADINGS.items()},
    # The headings count several PRs; one PR has one change of each kind ("(risks: very large
    # changes)" read as if it had several).
    pr_risk_names={
        "revert": "revert",
        "reverted": "reverted change",
        "breaking_change": "breaking change",
        "unresolved_review": "review threads unresolved at merge",
        "core_without_tests": "core-path change without tests",
        "tests_disabled": "tests skipped or disabled",
        "no_approval": "merged without an approving review",
        "large_change": "very large change",
        "cross_cutting": "cross-cutting change",
        "config_default_change": "configuration setting change",
        "dependency_change": "dependency change",
        "repeated_fix": "fix made again",
        "known_gap": "work left open",
        "docker_change": "Docker image change",
        "ci_change": "CI workflow change",
    },
    part_labels={
        "type": "type",
        "breaking": "breaking",
        "size": "size",
        "core": "core paths",
        "breadth": "breadth",
        "fix_impact": "fix impact",
        "review": "review",
        "revert": "revert",
        "toolchain": "toolchain upgrade",
    },
    other_parts="other",
    theme_names={},  # the built-in themes are named in English
    theme_told_apart="{name}-related work",
    title=(
        "{repo} weekly report, week {week} of {year} ({start:%b} {start.day} to {end:%b} {end.day})"
    ),
    span="week {week}, {start:%b} {start.day} to {end:%b} {end.day}",
    generated="automatically, by prhub-pipeline from PR data",
    source="source: {source}",
    calibrated=(
        "importance calibrated on this repository's latest {n} PRs up to this week (a raw"
        " score's rank among them: 7.0 scores above 70%)"
    ),
    # The stored history, not the repository's: it begins at the configured `start`
    # (torchtitan's first stored week read "only 14 PRs of this repository", of thousands).
    uncalibrated=(
        "only {n} PR of this repository stored up to this week, importance not calibrated on"
        " its history but on a typical repository's (7.0 scores above 70% of its PRs)",
        "only {n} PRs of this repository stored up to this week, importance not calibrated on"
        " its history but on a typical repository's (7.0 scores above 70% of its PRs)",
    ),
    with_reviews="with review data",
    without_reviews="no review data",
    pushed_listed=(
        "{n} commit pushed without a PR is listed at the end, not analysed",
        "{n} commits pushed without a PR are listed at the end, not analysed",
    ),
    titles_only="no PR's description says more than its title",
    titles_only_commit="no PR's commit message says more than its title",
    reverts_pr="Reverts #{target}",
    reverts_pr_titled="Reverts #{target}: {title}",
    reverts_pr_because="Reverts {undone}: {reason}",
    reverts_pr_which="Reverts {undone}, {reason}",
    reverted_titled="#{target} ({title})",
    repeat="Same title as #{number}, merged {when}, which changed {files}{reverted}{branch}.",
    repeat_when=("a day earlier", "{n} days earlier"),
    repeat_same_day="the same day",
    repeat_same_files="the same files",
    repeat_some_files=("one of these files", "{n} of these files"),
    repeat_reverted="; #{number} reverted it",
    repeat_branch="; this one is for {branch}",
    reland="Lands #{target} again, which {revert} reverted on {day:%b} {day.day}.",
    revert_reason="; its description says: “{reason}”",
    revert_reason_commit="; its commit message says: “{reason}”",
    outline_one="{lead}; it changes {place}.",
    outline_many="{lead}; it changes {files} files ({lines}) {where}{besides}.",
    outline_lead=(
        "No description beyond the title",
        "The description does not summarise the change",
    ),
    outline_lead_commit=(
        "The commit message says nothing beyond the title",
        "The commit message does not summarise the change",
    ),
    outline_in="in {places}",
    outline_among="in {n} folders, including {places}",
    outline_among_listed="in {n} or more folders, including {places}",
    outline_besides=", besides {kinds}",
    outline_places_and_support="{lead}; it changes {places}, and {files} of {kinds} ({lines}).",
    file_count=("{n} file", "{n} files"),
    outline_kinds={
        "test": "tests",
        "doc": "docs",
        "ci": "CI",
        "docker": "Docker files",
        "lock": "lock files",
        "generated": "generated code",
        "vendored": "vendored code",
        "data": "data files",
    },
    place_folder="{path} ({files} files, {lines})",
    place_file={
        "modified": "{path} ({lines})",
        "added": "{path} (new, {lines})",
        "removed": "{path} (removed, {lines})",
    },
    place_folder_unsized="{path} ({files} files)",
    place_file_unsized={
        "modified": "{path}",
        "added": "{path} (new)",
        "removed": "{path} (removed)",
    },
    line_count=("{n} line", "{n} lines"),
    top_folder="the repository root",
    no_prs="No pull requests were merged this week ({span}).",
    released="Released this week: {list}.",
    pushed_summary=(
        "{n} commit was pushed straight to the branch without a PR: the last section lists it;"
        " this report does not analyse it.",
        "{n} commits were pushed straight to the branch without a PR: the last section lists"
        " them; this report does not analyse them.",
    ),
    batch_landed=(
        "{n} of this week's {total} pull requests were written between {start} and {end} and"
        " landed together on {landed}, by a rebase of their branch: mostly the work of earlier"
        " weeks."
    ),
    batch_landed_all=(
        "All {n} of this week's pull requests were written between {start} and {end} and landed"
        " together on {landed}, by a rebase of their branch: mostly the work of earlier weeks."
    ),
    batch_keys_limited=(
        " Of the {above} of them that reach the key threshold, the {key} most important count as"
        " key PRs; all are ranked as usual."
    ),
    batch_day="{day:%b} {day.day}",
    batch_day_other_year="{day:%b} {day.day}, {day.year}",
    release="{name} (tagged {day:%b} {day.day} on commit {sha})",
    overview=(
        "{n} pull request was merged this week ({span}); {key}. By type: {types}.",
        "{n} pull requests were merged this week ({span}); {key}. By type: {types}.",
    ),
    overview_key=(
        "it is not a key PR",
        "it is a key PR",
        "none of them is a key PR",
        "one of them is a key PR",
        "{key} of them are key PRs",
    ),
    busiest_modules=("The busiest module was {list}", "The busiest modules were {list}"),
    busiest_modules_sure=(
        "Not counting the classifier's unsure guesses, the busiest module was {list}",
        "Not counting the classifier's unsure guesses, the busiest modules were {list}",
    ),
    module_count="{name} ({n})",
    module_count_guessed=(
        "{name} ({n}, {guessed} of them guessed by the classifier)",
        "{name} ({n}, all of them guessed by the classifier)",
        "{name} (1, guessed by the classifier)",
    ),
    modules_all_guessed=", all of them guessed by the classifier",
    busiest_themes="among themes, {list}",
    busiest_themes_alone=("The busiest theme was {list}", "The busiest themes were {list}"),
    theme_count=("{name} ({n} PR{lead})", "{name} ({n} PRs{lead})"),
    theme_lead=", {led} among them",
    top_changes=("The most important change: {list}.", "The most important changes: {list}."),
    top_change="#{number} ({type}, {importance}) {subject}",
    top_change_same_title=" (and {refs} under the same title)",
    fix_impacts=(
        "{n} fix mentions what the bug caused (by keywords in title or description): {list}.",
        "{n} fixes mention what the bug caused (by keywords in title or description): {list}.",
    ),
    fix_impact="{impact} in {refs}",
    fix_focus="Of the week's {total} fixes, {list}.",
    fix_focus_area="{n} concern {name}{guessed}",
    fix_focus_all="All {total} of the week's fixes concern {name}{guessed}.",
    fix_focus_guessed=(
        " ({guessed} of them guessed by the classifier)",
        " (all of them guessed by the classifier)",
    ),
    risk_tally="Risk flags: {list} (see Risk observations).",
    risk_tally_item="{name} ({n})",
    risk_tally_sep="; ",
    summary_without_reviews="This week's data comes from a source without review"
    " information, so the review process is not assessed.",
    review_coverage=(
        "Reviews: {reviewed} of {prs} PRs reviewed by someone other than their author{reviewers}"
        "{approved}{threads}{hours}."
    ),
    review_coverage_threads_only=(
        "Reviews (the data holds review threads, not submitted reviews): {reviewed} of {prs} PRs"
        " discussed by someone other than their author{reviewers}{threads}{hours}."
    ),
    review_coverage_hours="; a median of {hours} hours from opening to merge",
    review_coverage_approved=", {n} approved{earlier}",
    review_coverage_earlier=" ({share}, against {earlier} over the previous {weeks} weeks)",
    review_coverage_reviewers=(" (1 reviewer)", " ({n} reviewers)"),
    review_coverage_participants=(" (1 participant)", " ({n} participants)"),
    review_coverage_threads=("; 1 review thread{bots}", "; {n} review threads{bots}"),
    review_coverage_bots=(", 1 of them opened by a bot", ", {n} of them opened by bots"),
    review_coverage_all_bots=(", opened by a bot", ", all of them opened by bots"),
    revert_unknown=(
        "{refs} is a revert, but the reverted PR could not be identified.",
        "{refs} are reverts whose reverted PRs could not be identified.",
    ),
    revert="#{number} reverted #{target}",
    revert_pushed="Commit {commit}, pushed without a PR, reverted #{target}",
    pushed_reverter="commit {commit}",
    revert_title=' ("{title}")',
    revert_also="; it also reverted {refs}",
    revert_reopened=(
        "; #{target} said it fixed {refs}: with the fix reverted, that problem{impacts} is"
        " unfixed again",
        "; #{target} said it fixed {refs}: with the fix reverted, those problems{impacts} are"
        " unfixed again",
    ),
    revert_impacts=" ({names})",
    revert_relanded="; #{relanded} landed the change again{when}",
    revert_relanded_soon="",
    revert_relanded_later=" on {day:%b} {day.day}, after this week",
    revert_chain="Revert chain",
    unlabelled="Unlabelled changes",
    unlabelled_beside_places="Other unlabelled changes",
    place_heading="Unlabelled changes in {place}",
    more_heading="Other key changes",
    more_lead="{n} PRs from smaller modules, themes and folders (one or two each here), {key}.",
    item_label="{label} · ",
    group_intro=(
        "{n} {name} PR this week ({types}), {key}.",
        "{n} {name} PRs this week ({types}), {key}.",
    ),
    group_intro_unlabelled=(
        "{n} PR this week in no module's or theme's section ({types}), {key}.",
        "{n} PRs this week in no module's or theme's section ({types}), {key}.",
    ),
    group_intro_beside_places=(
        "{n} more PR this week in no module's, theme's or folder's section ({types}), {key}.",
        "{n} more PRs this week in no module's, theme's or folder's section ({types}), {key}.",
    ),
    group_intro_place=(
        "{n} PRs this week in no module's or theme's section that change code mostly in {place}"
        " ({types}), {key}."
    ),
    group_intro_part="{n} of the week's {total} {name} PRs ({types}), {key}.",
    group_key=(
        "none of them key",
        "a key PR",
        "{key} of them key",
        "all of them key",
        "both of them key",
        "not a key PR",
    ),
    group_see_also=" See also {list}.",
    see_also_unnamed="{n} other sections",
    appendix="the appendix",
    item="{type}: {subject}{notes}. {summary}",
    item_untyped="{subject}{notes}. {summary}",
    types_subject_says=frozenset(get_args(PrType)),
    item_notes=" ({notes})",
    item_note_sep="; ",
    item_importance="importance {importance}",
    item_impacts="addresses {impacts}",
    item_breaking="breaking",
    others=(
        "Also {n} more PR ({types}): {listed}{more}.",
        "Also {n} more PRs ({types}): {listed}{more}.",
    ),
    others_by_type="Also {n} more PRs: {parts}.",
    others_of_type="{types} ({listed}{more})",
    no_labels="No module or theme labels this week.",
    no_previous="The previous week's data is not available, so the table shows no change.",
    week_on_week=(
        "{n} PR this week against {previous} the week before ({delta}).",
        "{n} PRs this week against {previous} the week before ({delta}).",
    ),
    largest_changes="The largest changes: {list}.",
    largest_change="{name} ({before} → {now})",
    largest_change_guessed=(
        "{name} ({before} → {now}, {guessed} of them guessed by the classifier)",
        "{name} ({before} → {now}, all of them guessed by the classifier)",
        "{name} ({before} → {now}, guessed by the classifier)",
    ),
    largest_change_guessed_before=(
        "{name} ({before} → {now}; {guessed} of last week's guessed by the classifier)",
        "{name} ({before} → {now}; all of last week's guessed by the classifier)",
        "{name} ({before} → {now}; last week's guessed by the classifier)",
    ),
    faded_labels="Not in the table: {names}, with one or two PRs last week and none this week.",
    busy_files="Code files changed by more PRs than usual: {list}.",
    busy_file="{path}, {n} PRs ({refs}) against {usual} a week over the previous {weeks} weeks",
    busy_file_new="{path}, {n} PRs ({refs}) and none in the previous {weeks} weeks",
    busy_file_sep="; ",
    contributors=(
        "1 author merged PRs this week{newcomers}.",
        "{n} authors merged PRs this week{newcomers}.",
    ),
    newcomers=(
        ", one of them for the first time in the stored history: {list}",
        ", {k} of them for the first time in the stored history: {list}",
    ),
    newcomer="{author} ({refs})",
    more_people=" and {rest} more",
    busy_reviewers="The week's most active reviewers: {list}.",
    busy_reviewer="{login} ({n} PRs)",
    # Past tense: "1 of the week's 5 PRs ... also added", as "3 of them ... also added".
    core_testing=(
        "{tested} of the week's {n} PRs that changed {min_lines} or more lines of core code also"
        " added or changed tests ({share}){earlier}."
    ),
    core_testing_earlier=", against {share} over the previous {weeks} weeks ({tested} of {n})",
    predicted=(
        "{n} of the week's {total} PRs names no module in its title or labels{tags}: its modules"
        " are the classifier's predictions (marked * in the appendix), counted in the table like"
        " the rest.",
        "{n} of the week's {total} PRs name no module in their titles or labels{tags}: their"
        " modules are the classifier's predictions (marked * in the appendix), counted in the"
        " table like the rest.",
    ),
    # LLaMA-Factory's 2026-04-27 read "... and the other 1 have none."
    predicted_some=(
        "{n} of the week's {total} PRs name no module in their titles or labels{tags}: the"
        " modules of {guessed} of them are the classifier's predictions (marked * in the"
        " appendix), counted in the table like the rest, and the other one has none.",
        "{n} of the week's {total} PRs name no module in their titles or labels{tags}: the"
        " modules of {guessed} of them are the classifier's predictions (marked * in the"
        " appendix), counted in the table like the rest, and the other {rest} have none.",
    ),
    predicted_none=(
        "{n} of the week's {total} PRs names no module in its title or labels{tags}, and none"
        " was predicted for it.",
        "{n} of the week's {total} PRs name no module in their titles or labels{tags}, and none"
        " was predicted for them.",
    ),
    predicted_all=(
        "The week's only PR names no module in its title or labels{tags}: its modules are the"
        " classifier's predictions (marked * in the appendix).",
        "None of the week's {total} PRs names a module in its title or labels{tags}: their"
        " modules are the classifier's predictions (marked * in the appendix).",
    ),
    no_area_tags=(" ({tags} counts as none)", " ({tags} count as none)"),
    subject_theme=(
        "{names} is not counted as a theme: {share} of this repository's {n} stored PRs that"
        " do more than housekeeping (docs, CI and the like) carry it, so it says what the"
        " repository is about, not what changed this week.",
        "{names} are not counted as themes: each is carried by at least {share} of this"
        " repository's {n} stored PRs that do more than housekeeping (docs, CI and the like), so"
        " they say what the repository is about, not what changed this week.",
    ),
    risk_texts={
        "breaking_change": RiskText(
            (
                "{n} PR carries a breaking-change marker: ",
                "{n} PRs carry breaking-change markers: ",
            ),
            "#{number} {subject}",
            ".",
        ),
        "unresolved_review": RiskText(
            "",
            "#{number}: {asks}",
            ".",
        ),
        "core_without_tests": RiskText(
            (
                "{n} PR changed core paths without adding or changing any test file: ",
                "{n} PRs changed core paths without adding or changing any test file: ",
            ),
            "#{number} ({lines} lines, {path})",
            ".",
        ),
        "tests_disabled": RiskText(
            ("{n} PR skipped or disabled tests: ", "{n} PRs skipped or disabled tests: "),
            "#{number} {subject} ({paths})",
            ". Until they are switched back on, nothing checks what they covered.",
        ),
        "no_approval": RiskText("{refs} merged without any APPROVED review.", "", ""),
        "repeated_fix": RiskText(
            (
                "{n} fix came under the title of a recent fix, changing its files: ",
                "{n} fixes came under the titles of recent fixes, changing their files: ",
            ),
            "#{number} after #{earlier}",
            ". The first fix may not have held.",
        ),
        "large_change": RiskText(
            "",
            "#{number} changes {lines} lines{uncounted}{tests}{deleted}",
            ", which makes review and regression checks harder.",
        ),
        "cross_cutting": RiskText("", "#{number} spans {module_count} modules ({modules})", "."),
        "config_default_change": RiskText("", "#{number} {settings}", "."),
        "dependency_change": RiskText("", "#{number}: {paths}{requirements}", "."),
        "known_gap": RiskText(
            "", "#{number}'s author names what it leaves open: {quotes}{answers}{taken_up}", "."
        ),
        "docker_change": RiskText("", "#{number}: {paths}", "."),
        "ci_change": RiskText("", "#{number}: {paths}", "."),
    },
    risk_more=("; and 1 more PR", "; and {rest} more PRs"),
    ask="{reviewer}{bot}{where} asked “{ask}”",
    ask_bot=" (bot)",
    ask_where=" on {where}",
    settings_changed="changes the defaults of {list}",
    setting_value="{key} ({before} → {after})",
    setting_in_file="{key} in {path}",
    settings_removed=("removes the setting {list}", "removes the settings {list}"),
    settings_renamed=("renames the setting {list}", "renames the settings {list}"),
    setting_renamed="{before} to {after}",
    settings_unknown=(
        "changes {paths}, whose settings could not be compared, so defaults may have changed"
        " or settings been removed"
    ),
    settings_deleted_files=(
        "deletes the configuration file {paths}",
        "deletes the configuration files {paths}",
    ),
    settings_and=", and ",
    requirement_changes=" ({list})",
    requirement_sep="; ",
    requirements=REQUIREMENTS_EN,
    requirement_chain="Taken together, {key} in {path} {net} ({steps}).",
    shared_files="Several of them changed the same files: {files}.",
    shared_file="{path} ({n} PRs)",
    chain_changed="went from {before} to {after}",
    chain_added="went from not listed to {after}",
    chain_removed="went from {before} to not listed",
    chain_back="ended where it started, at {before}",
    chain_no_net="was added and removed again, with no net change",
    chain_step_added="#{number} adds it{after}",
    chain_at=" at {version}",
    chain_step_removed="#{number} removes it",
    chain_step_changed="#{number} {before} → {after}",
    chain_then=", then ",
    quote="“{text}”",
    gap_answers=" (answering {asks})",
    gap_taken_up=" (#{number} has since followed it up)",
    large_in_tests=", {n} of them in tests",
    large_uncounted=" outside {kinds}",
    large_deleted=(", besides deleting 1 file", ", besides deleting {n} files"),
    note_without_reviews="Review data is not available (the source provides none):"
    " unresolved threads and approvals were not checked.",
    note_without_core_paths="No core paths are configured for this repository"
    " (scoring.core_paths): core changes without tests were not checked.",
    note_no_risks="No risk rule fired on this week's data.",
    quick_risks=" (risks: {list})",
    quick_review=" (review: {list})",
    quick_review_approved="approved by {names}",
    quick_review_changes="changes requested by {names}",
    quick_review_by="reviewed by {names}",
    quick_review_nobody="none by anyone but its author",
    quick_review_threads=("1 thread{bots}", "{n} threads{bots}"),
    quick_view_top="The {shown} most important of the week's {key} key PRs; the appendix lists"
    " every PR.",
    quick_view_no_key=(
        "No PR reached importance {threshold} this week; this is the most important.",
        "No PR reached importance {threshold} this week; these are the {shown} most important.",
    ),
    quick_view_no_key_all=(
        "The week's only PR did not reach importance {threshold}.",
        "None of the week's {shown} PRs reached importance {threshold}.",
    ),
    follow_ups={
        "refix": "Follow up on {reopened}: the fix #{target} was reverted by {reverter};"
        " find out why, then fix it again with a test.",
        "revert_explained": "Fix the cause {reverter} gives for reverting #{target} (see the"
        " risk observations) and land a corrected version with a test for it.",
        "revert": "Find out why {reverter} reverted #{target}"
        " and whether a corrected version should land.",
        "unresolved_review": "Go through the review threads left unresolved on {refs}"
        " and open follow-up PRs where needed.",
        "core_without_tests": "Add tests for the core-path changes in {refs}.",
        "tests_disabled": (
            "Re-enable the tests {refs} skipped or disabled once their cause is fixed, and"
            " track them in an issue so that the gap in coverage does not last."
        ),
        "large_change": "Watch for regressions after large changes such as {refs}.",
        "breaking_change": "List the breaking changes of {refs}"
        " in the release notes with migration steps.",
        "config_default_change": "Confirm the configuration setting changes of {refs} (changed"
        " defaults, renamed or removed settings) and note them in the release notes.",
        "dependency_change": "Confirm that the dependency" + _WORKS,
        "known_gap": "Track what {refs} left open and make sure someone takes it up.",
        "repeated_fix": "Make sure what {refs} fixed a second time has a regression test.",
        "docker_change": "Confirm that the image" + _WORKS,
        "ci_change": "Confirm that the CI" + _WORKS,
        "no_approval": "Ask maintainers for a post-merge review of {refs}.",
        "cross_cutting": "Have the owners of the affected modules review"
        " the cross-cutting changes {refs}.",
        "works_everywhere": "Confirm that the {names} changes work across environments"
        " and pipelines: {parts}.",
    },
    check_names={"dependency_change": "dependency", "docker_change": "image", "ci_change": "CI"},
    check_part="{name} changes in {refs}",
    no_follow_up="Nothing in this week's data calls for a specific follow-up.",
)
