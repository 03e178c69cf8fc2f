"""The weekly report's content, built from the data alone, in Chinese or English.

`build_report_context` turns a week's PRs, module labels, themes, scores and risk flags into a
`ReportContext`: plain-text sentences and rows that the templates lay out. Every sentence is
assembled from counts, titles, descriptions and flags; none states what the data does not
show (no review data: the report says so rather than reporting "no unresolved threads").
Text here is unescaped; the templates escape it for Markdown or HTML. What each section says
is chosen in `facts.py` (the key-change sections in `sections.py`), once for both languages;
`wording` puts it into words.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import NamedTuple

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.importance import ScoreCalibration, reverted_target
from prhub_pipeline.modelling.scoring.repeats import Repeat, repeats
from prhub_pipeline.modelling.scoring.risks import SEVERITY, core_tests
from prhub_pipeline.modelling.tagging.tags import areas_of, is_sure, normalise_tag
from prhub_pipeline.modelling.tagging.themes import (
    SubjectThemes,
    housekeeping_themes,
    modules_by_theme,
)
from prhub_pipeline.modelling.text.pr_summaries import (
    commit_subject,
    first_commit_subject,
    own_references,
    shorten,
    squash_list_subjects,
    subject_keys,
    summarize,
)
from prhub_pipeline.modelling.text.pr_titles import parse_title
from prhub_pipeline.records import (
    LANGS,
    Lang,
    ModuleLabel,
    PrScore,
    PullRequest,
    PushedCommit,
    ReleaseTag,
    ReviewData,
    RiskFlag,
    ThemeTag,
    WeekCounts,
)
from prhub_pipeline.reporting import facts, sections
from prhub_pipeline.reporting.models import (
    GroupItem,
    Header,
    LabelKind,
    PrRef,
    PushedCommitRef,
    QuickViewItem,
    ReportContext,
    RiskObservation,
    ThemeGroup,
    TrendRow,
)
from prhub_pipeline.reporting.wording import WORDINGS, Wording
from prhub_pipeline.reverts import TRAILING_PR_NUMBER
from prhub_pipeline.weeks import WeekWindow

TITLE_DISPLAY_LIMIT = 120
SUMMARY_LIMIT = 230  # characters of a description's summary (`summarize` keeps it to 225)
OUTLINE_LIMIT = 260  # of an outline of changed files, which is never cut: it names fewer places
MAX_QUICK_VIEW = 12
# A module or theme the previous week had fewer PRs of than this, and this week none, gets no
# row of zeros in the trends table: one sentence names them all.
MIN_FADED_ROW = 3


def _themes_told_apart(
    words: Wording,
    modules: set[str],
    themes: set[str],
    prs_of: Mapping[str, Collection[int]],
    previous: WeekCounts | None,
) -> Wording:
    """`words` naming a theme that shares its name with a module of the week as related to it
    ("Docker-related"): verl's Docker theme beside its `docker` tag, vllm-ascend's MoE theme
    beside the MoE its titles tag. They count different PRs (the theme's rules match far
    more), and a section heading or a list of names would not say which is meant.

    A theme of a module's name that counts the module's very PRs, this week and the last, is
    named as the module, in both languages: the trends table gives the two one row, the
    module's (`_trend_rows`). ColossalAI's 2023-10-30 filed its one `[moe]` PR under
    "MoE-related work" above a table whose row was "MoE | module" (5 of its 140 weeks; in
    Chinese a theme may have another name than the module, Docker's "Docker 镜像")."""

    def one_row(theme: str, module: str) -> bool:
        counted = prs_of.get(theme)
        return (
            theme.casefold() == module.casefold()
            and bool(counted)
            and set(counted or ()) == set(prs_of.get(module, ()))
            and (
                previous is None or previous.themes.get(theme, 0) == previous.modules.get(module, 0)
            )
        )

    namesakes: dict[str, str] = {}
    for module in modules:
        namesakes.setdefault(words.display_name(module).casefold(), module)
    names: dict[str, str] = {}
    for theme in themes:
        shared = next((module for module in modules if one_row(theme, module)), None)
        if shared is not None:
            names[theme] = words.display_name(shared)
        elif words.display_name(theme).casefold() in namesakes:
            names[theme] = words.theme_told_apart.format(name=words.display_name(theme))
    if not names:
        return words
    return replace(words, theme_names={**words.theme_names, **names})


@dataclass(frozen=True)
class ReportBackground:
    """What a week's report draws on beyond the week: the repository's settings and its stored
    history. The defaults are a repository with the built-in rules and no history; a run that
    reports many weeks works this out once and passes it to every week.

    `scoring` gives the key threshold the header names and tells test, doc and data files apart
    where a PR's outline of changed files is told. `source` names where the PRs came from (else
    the week's PRs say). `housekeeping` names the housekeeping themes and their modules
    (`ThemeRule.housekeeping`; `None`: the built-in rules), which group a PR only when nothing
    more specific does; `theme_modules` every theme's modules (`None`: the built-in rules'), so
    that a theme made of a module that counts the same PRs shares its trend row.
    `subjects` are the themes that name what the repository is about (`themes.subject_themes`):
    left out, and said so once. `module_named` are the themes a module of their name stands for
    (`themes.themes_named_modules_stand_for`): left out, the module's row and section tell them.
    `history` holds the stored PRs by number (the week's among them or not). `title_index` may
    hold `title_owners` of the history, `subject_index` its `subject_landings`; `core_tested`
    PRs' `risks.core_tests` (the others are worked out per week), for the share of the changes
    of core code that came with tests.
    `reviewed_before` holds the review (`facts.reviewing_by_pr`) of stored PRs with review data,
    for the share approved in the weeks before. `pushed_reverts` are the stored reverts pushed
    without a PR, whose re-lands a later week's PRs may be (`facts.relands`).
    """

    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    source: str | None = None
    housekeeping: Mapping[str, Sequence[str]] | None = None
    theme_modules: Mapping[str, Sequence[str]] | None = None
    subjects: SubjectThemes = field(default_factory=SubjectThemes)
    module_named: Collection[str] = ()
    history: Mapping[int, PullRequest] = field(default_factory=dict)
    title_index: Mapping[str, int] | None = None
    subject_index: Mapping[str, Sequence[SubjectLanding]] | None = None
    core_tested: Mapping[int, bool | None] = field(default_factory=dict)
    reviewed_before: Mapping[int, facts.PrReviewing] = field(default_factory=dict)
    pushed_reverts: Sequence[PushedCommit] = ()


def build_report_context(
    repo: str,
    window: WeekWindow,
    prs: Sequence[PullRequest],
    modules: Sequence[ModuleLabel],
    themes: Sequence[ThemeTag],
    scores: Sequence[PrScore],
    risks: Sequence[RiskFlag],
    review_data: ReviewData,
    previous_week_counts: WeekCounts | None,
    lang: Lang = "zh",
    report_url: str | None = None,
    *,
    calibration: ScoreCalibration | None = None,
    display_names: Mapping[str, str] | None = None,
    pushed: Sequence[PushedCommit] = (),
    releases: Sequence[ReleaseTag] = (),
    background: ReportBackground | None = None,
) -> ReportContext:
    """The report for one repository and week, in `lang`.

    `scores` must cover every PR in `prs` (a PR without a score is an error: the report would
    silently drop it). `previous_week_counts` counts the previous week's labels, every theme
    of them: those this week leaves out are dropped here, so both weeks are counted alike
    (`stages.report.last_week_counts`); None means the previous week is unknown.
    `calibration` is what the week's scores were calibrated on, as the header tells it.
    `display_names` are the repository's names for its modules in `lang`
    (`ModulesConfig.display_names_in`). `pushed` are the week's commits pushed without a PR,
    which the summary counts and the appendix lists; `releases` are the week's version tags,
    which the summary names. `background` holds the repository's
    settings and history (`ReportBackground`; the defaults when None).
    """
    if lang not in LANGS:
        raise ValueError(f"unknown report language {lang!r}; expected one of {', '.join(LANGS)}")
    background = background or ReportBackground()
    scoring = background.scoring
    subjects = dict(background.subjects.shares)
    housekeeping_by_theme = (
        housekeeping_themes(None) if background.housekeeping is None else background.housekeeping
    )
    theme_modules = (
        modules_by_theme(None) if background.theme_modules is None else background.theme_modules
    )
    left_out = set(subjects) | set(background.module_named)
    themes = [t for t in themes if t.theme not in left_out]
    if previous_week_counts is not None and left_out:  # last week counted as this week is
        previous_week_counts = previous_week_counts.model_copy(
            update={
                "themes": {
                    k: v for k, v in previous_week_counts.themes.items() if k not in left_out
                }
            }
        )
    by_number = {pr.number: pr for pr in prs}
    if previous_week_counts is not None:
        previous_week_counts = _without_modules_gone_into_their_themes(
            previous_week_counts,
            {label.module for label in modules if label.number in by_number},
            {tag.theme for tag in themes if tag.number in by_number},
            theme_modules,
        )
    score_of = {s.number: s for s in scores}
    missing = sorted(set(by_number) - set(score_of))
    if missing:
        raise ValueError(f"no importance score for PR(s) {', '.join(f'#{n}' for n in missing)}")
    module_names: dict[int, list[str]] = defaultdict(list)
    for label in modules:
        if label.number in by_number and label.module not in module_names[label.number]:
            module_names[label.number].append(label.module)
    theme_names: dict[int, list[str]] = defaultdict(list)
    for tag in themes:
        if tag.number in by_number and tag.theme not in theme_names[tag.number]:
            theme_names[tag.number].append(tag.theme)
    prs_of: dict[str, set[int]] = defaultdict(set)  # the week's PRs of each module and theme
    for names_of in (module_names, theme_names):
        for number, names in names_of.items():
            for name in names:
                prs_of[name].add(number)

    predicted = {label.number for label in modules if label.origin == "model"}
    own_areas = {
        label.number for label in modules if label.origin != "model" and areas_of([label.module])
    }
    # PRs whose titles and labels name no area: a type-only tag (`[Bugfix]`) is none.
    without_own = [pr.number for pr in prs if pr.number not in own_areas]
    # Their own tags, which name no area (`[misc]`, `[BugFix]`): their titles show them.
    no_area_tags = sorted(
        {
            label.module
            for label in modules
            if label.origin != "model"
            and label.number in by_number
            and label.number not in own_areas
        }
    )
    unsure: dict[int, list[str]] = defaultdict(list)
    for label in modules:
        if not is_sure(label):
            unsure[label.number].append(label.module)
    words = WORDINGS[lang]
    if display_names:
        words = replace(words, module_names=dict(display_names))
    last_week = previous_week_counts or WeekCounts()
    words = _themes_told_apart(
        words,
        {m for names in module_names.values() for m in names} | set(last_week.modules),
        {t for names in theme_names.values() for t in names} | set(last_week.themes),
        prs_of,
        previous_week_counts,
    )
    known = dict(background.history)
    known.update(by_number)
    owners = (
        title_owners(known.values()) if background.title_index is None else background.title_index
    )
    landings = (
        subject_landings(known.values())
        if background.subject_index is None
        else background.subject_index
    )
    repeated = repeats(prs, {s.number: s.pr_type for s in scores}, known)
    landed_again = facts.relands(prs, known, window, background.pushed_reverts)
    # A week none of whose PRs says more than its title (NVIDIA-NeMo/RL's squash commits carry
    # only sign-offs: 1345 of its 1346) has the header say so once: before every outline the
    # lead was the same clause, 20 to 40 times a report.
    titles_only = bool(prs) and not any(pr.body.strip() for pr in prs)
    refs = {
        pr.number: _pr_ref(
            repo,
            pr,
            score_of[pr.number],
            module_names[pr.number],
            words,
            known,
            owners,
            LandedBefore(landings, pr),
            scoring,
            predicted=pr.number in predicted,
            unsure=unsure.get(pr.number, []),
            repeat=repeated.get(pr.number),
            reland=landed_again.get(pr.number),
            outline_lead=not titles_only,
        )
        for pr in prs
    }
    ordered = sorted(refs.values(), key=lambda r: (-score_of[r.number].raw_score, r.number))
    prs_by_importance = [by_number[r.number] for r in ordered]
    counts = WeekCounts.from_labels(
        len(prs),
        [m for m in modules if m.number in by_number],
        [t for t in themes if t.number in by_number],
    )
    risks = [r for r in risks if r.number in by_number]
    chains = {f.number: facts.revert_chain(f, known, window) for f in risks if f.risk == "revert"}
    taken_up = facts.taken_up(risks, known)
    # A PR a revert PR of the week undoes too is told once, by that PR's chain (OpenRLHF's #281
    # landed, empty, the revert of #278 pushed a minute before).
    told = {n for chain in chains.values() for n in (chain.target, *chain.also)}
    pushed_reverts = [
        chain
        for commit in pushed
        if commit.reverted_number not in told
        and (chain := facts.pushed_revert_chain(commit, known, window)) is not None
    ]
    reverts = [*chains.values(), *pushed_reverts]
    period = facts.Period.of(window)

    header = Header(
        repo=repo,
        title=words.report_title(repo, period),
        week_start=period.start.isoformat(),
        week_end=period.end.isoformat(),
        timezone=window.timezone,
        iso_week=period.week,
        pr_count=len(prs),
        key_pr_count=sum(1 for s in scores if s.number in by_number and s.is_key),
        key_threshold=scoring.key_threshold,
        risk_flag_count=len(risks),
        generated=words.how_generated(
            background.source or (prs[0].source if prs else None),
            calibration,
            review_data.available,
            len(pushed),
            titles_only,
            from_commit=prs[0].source == "git" if prs else False,
        ),
        report_url=report_url,
    )
    reviewing = facts.reviewing_by_pr(prs, review_data)
    summary = facts.summary(
        period,
        ordered,
        score_of,
        counts,
        reverts,
        risks,
        review_data.available,
        theme_names,
        facts.review_coverage(
            reviewing,
            prs,
            facts.reviewing_before(background.reviewed_before, known.values(), window),
        ),
        housekeeping=housekeeping_by_theme,
        releases=[
            facts.Release(name=t.name, day=t.tagged_at.astimezone(window.zone).date(), sha=t.sha)
            for t in releases
        ],
        pushed=len(pushed),
        batches=facts.batch_landings(prs, score_of, window, scoring.key_threshold),
    )
    groups = [
        ThemeGroup(
            name=group.name,
            heading=words.group_heading(group),
            lead=words.group_lead(group, reverts),
            items=[
                GroupItem(
                    pr=r,
                    text=_item_text(words, group, r, score_of[r.number], badged=False),
                    badged_text=_item_text(words, group, r, score_of[r.number], badged=True),
                )
                for r in group.shown
            ],
            others=words.others_text(group.rest) if group.rest else None,
        )
        for group in sections.groups(
            ordered,
            theme_names,
            risks,
            housekeeping_by_theme,
            {
                normalise_tag(m)
                for theme in background.module_named
                for m in (theme, *housekeeping_by_theme.get(theme, ()))
                if theme in housekeeping_by_theme
            },
        )
    ]
    observations = [
        RiskObservation(
            risk=group.kind,
            severity=SEVERITY[group.kind],
            heading=words.risk_headings[group.kind],
            text=words.risk_text(group),
            numbers=group.numbers,
        )
        for group in facts.risk_groups(
            risks,
            refs,
            chains,
            taken_up,
            {pr.number: pr.merged_at for pr in prs},
            pushed_reverts,
        )
    ]
    faded = _faded_labels(counts, previous_week_counts, prs_of)
    key_refs = [r for r in ordered if r.is_key]
    quick_view = [
        QuickViewItem(
            pr=ref,
            summary=ref.summary,
            risks=words.quick_risk_note(
                list(dict.fromkeys(f.risk for f in risks if f.number == ref.number))
            ),
            review=words.quick_review_note(reviewing[ref.number] if reviewing else None),
            basis=words.basis(score_of[ref.number]),
        )
        for ref in (key_refs[:MAX_QUICK_VIEW] or ordered[: sections.NO_KEY_TOP])
    ]
    return ReportContext(
        lang=lang,
        header=header,
        summary=words.summary(summary),
        groups=groups,
        trends_lead=words.trends_lead(counts, previous_week_counts, prs_of, facts.guesses(ordered))
        + words.subject_themes_note(subjects, background.subjects.measured_prs)
        + words.faded_labels_note([name for _, name in faded])
        + words.busy_files_note(
            facts.busy_files(prs_by_importance, known.values(), window, scoring)
        )
        + words.contributors_note(facts.contributors(prs_by_importance, known.values(), window))
        + words.reviewers_note(facts.busiest_reviewers(reviewing))
        + words.predicted_note(
            len(without_own),
            len(prs),
            sum(1 for n in without_own if refs[n].areas),
            no_area_tags,
        ),
        trends=_trend_rows(
            ordered,
            module_names,
            theme_names,
            counts,
            previous_week_counts,
            words,
            set(faded),
            theme_modules,
        ),
        risks=observations,
        risk_notes=words.risk_notes(
            review_data.available,
            bool(risks),
            core_paths=bool(scoring.core_paths),
            testing=facts.core_testing(
                prs,
                lambda pr: (
                    background.core_tested[pr.number]
                    if pr.number in background.core_tested
                    else core_tests(pr, scoring)
                ),
                known.values(),
                window,
                scoring.untested_core_min_lines,
            ),
        ),
        quick_view_lead=words.quick_view_lead(
            len(key_refs), len(quick_view), scoring.key_threshold, len(ordered)
        ),
        quick_view=quick_view,
        suggestions=words.suggestions(
            facts.follow_ups(
                risks, refs, chains, taken_up, scoring.large_change_lines, pushed_reverts
            )
        ),
        prs=ordered,
        pushed=[
            PushedCommitRef(
                sha=commit.sha[:9],
                url=f"https://github.com/{repo}/commit/{commit.sha}",
                day=commit.committed_at.astimezone(window.zone).date().isoformat(),
                author=commit.author,
                subject=commit.subject,
            )
            for commit in pushed
        ],
        counts=counts,
        review_available=review_data.available,
    )


def title_owners(prs: Iterable[PullRequest]) -> dict[str, int]:
    """Each PR's title, with and without its type (`feat: add x` and `add x`), to its number:
    which PR a squash message's opening line is the title of."""
    return {
        commit_subject(title): pr.number
        for pr in prs
        for title in (pr.title, parse_title(pr.title).subject)
    }


class SubjectLanding(NamedTuple):
    """A PR a title or squashed commit landed through."""

    merged_at: datetime
    number: int


def subject_landings(prs: Iterable[PullRequest]) -> dict[str, list[SubjectLanding]]:
    """Each title's and squashed commit's `subject_keys` to the PRs it landed through, oldest
    first: which of the commits a later squash message lists came through another PR."""
    landings: dict[str, set[SubjectLanding]] = defaultdict(set)
    for pr in prs:
        landing = SubjectLanding(pr.merged_at, pr.number)
        for text in (pr.title, *squash_list_subjects(pr.title, pr.body)):
            for key in subject_keys(text):
                landings[key].add(landing)
    return {key: sorted(landed) for key, landed in landings.items()}


@dataclass(frozen=True)
class LandedBefore:
    """Which PR a subject last landed through before `pr`, as `summarize` asks it: a branch
    that grew from another's carries that one's commits, which it carried in turn (ColossalAI
    #821 lists #818's list, whose first commits #811 had landed)."""

    landings: Mapping[str, Sequence[SubjectLanding]]
    pr: PullRequest

    def __call__(self, key: str) -> int | None:
        landed = self.landings.get(key, ())
        before = bisect_left(landed, SubjectLanding(self.pr.merged_at, 0))  # merged earlier
        return landed[before - 1].number if before else None


def _pr_ref(
    repo: str,
    pr: PullRequest,
    score: PrScore,
    modules: list[str],
    words: Wording,
    known: Mapping[int, PullRequest],
    title_owners: Mapping[str, int],
    landed_through: Callable[[str], int | None],
    scoring: ScoringConfig,
    *,
    predicted: bool,
    unsure: list[str],
    repeat: Repeat | None,
    reland: facts.Reland | None,
    outline_lead: bool = True,
) -> PrRef:
    summary = own_references(summarize(pr.title, pr.body, landed_through=landed_through), repo)
    outline = None
    # A squash message that opens with another PR's title lists that PR's commits, which a
    # stacked branch carries: aibrix #2298's summary read "Add brixbench benchmark module", the
    # title of #2165, merged the same week; a summary of several commits opens with it too.
    # (Prose that says what another PR's title says still describes: verl #165 "Update
    # README.md" says "Add contribution guide".)
    first_commit = first_commit_subject(pr.body)
    elsewhere = first_commit is not None and any(
        title_owners.get(commit_subject(text), pr.number) != pr.number
        for text in (summary, first_commit)
    )
    if elsewhere or not facts.adds_to_title(summary, pr.title):
        # The title already says all the description does: say where the change is instead.
        outline = facts.change_outline(pr, scoring)
        summary = words.change_outline(outline, OUTLINE_LIMIT, outline_lead) if outline else ""
    if score.pr_type == "revert":
        target, _ = reverted_target(pr, known)
        if target is not None:
            original = known.get(target)
            # 'Revert "<title>"' quotes it already: verl #6360's line gave #6350's title twice.
            quoted = original is not None and original.title.casefold() in pr.title.casefold()
            title = shorten(original.title, 90) if original and not quoted else None
            summary = words.revert_summary(target, title, facts.revert_reason(pr, original))
            outline = None
    shown_summary = _with_stop(summary if outline else shorten(summary, SUMMARY_LIMIT))
    notes = []
    if repeat is not None:
        # Two PRs under one title read as a duplicate line unless the later says it came again.
        notes.append(words.repeat_note(repeat))
    # Under a title of its own, a re-land read as a change of its own (verl #7327), unless its
    # summary names what it lands again (vllm-ascend #11429: "This PR reapplies #11155 after
    # #11415 reverted it ...").
    if (
        reland is not None
        and (repeat is None or repeat.number != reland.target)
        and not re.search(rf"#{reland.target}\b", shown_summary)
    ):
        notes.append(words.reland_note(reland))
    for note in notes:
        # An English description's closing stop wants a space even before a Chinese sentence.
        sep = " " if shown_summary[-1:].isascii() else words.sentence_sep
        shown_summary = f"{shown_summary}{sep}{note}" if shown_summary else note
    own_number = TRAILING_PR_NUMBER.search(pr.title)
    # A title that ends in its own number says nothing by it: pytorch/torchtitan #4106, merged
    # as "... integration tests (#4106) (#4106)", read "... tests (#4106)" beside its link.
    shown_title = pr.title
    if own_number and own_number["number"] == str(pr.number):
        shown_title = pr.title[: own_number.start()]
    return PrRef(
        number=pr.number,
        url=f"https://github.com/{repo}/pull/{pr.number}",
        # Without a closing stop, as the subject: "function.**: importance 9.5" (mmengine #609).
        title=re.sub(r"\s*(?<!\.)\.$", "", shorten(shown_title, TITLE_DISPLAY_LIMIT)),
        # Without a closing stop: sentences and lists put their own after it ("worker.; #5423").
        subject=facts.title_subject(shown_title, 80),
        pr_type=score.pr_type,
        type_name=words.type_names[score.pr_type],
        modules=modules,
        importance=score.importance,
        is_key=score.is_key,
        summary=shown_summary,
        author=pr.author,
        predicted=predicted,
        repeat_of=repeat.number if repeat is not None else None,
        unsure=unsure,
        places=sections.code_places(pr, scoring),
        code_leads=sections.code_leads(pr, scoring),
    )


# How a summary may end that closes no sentence: a word, a code span, a bracket, a quote.
_OPEN_ENDING = re.compile(r"[\w`)\]}'\"%]$")
_CHINESE_ENDING = re.compile(r"[\u4e00-\u9fff]$")


def _item_text(
    words: Wording, group: sections.Group, ref: PrRef, score: PrScore, badged: bool
) -> str:
    """A key change's line in its section: led by its label in the "more" section."""
    if group.kind == "more":
        return words.labelled_item_text(group.label_of[ref.number], ref, score, badged)
    return words.item_text(ref, score, badged)


def _with_stop(summary: str) -> str:
    """A summary ending as a sentence does: a quarter of them are a title-like line without a
    stop ("Preserve lexical scope for decoupled casts"), which the next sentence of the item
    (or a note after it) would run on from."""
    if _CHINESE_ENDING.search(summary):
        return summary + "。"
    return summary + "." if _OPEN_ENDING.search(summary) else summary


def _without_modules_gone_into_their_themes(
    previous: WeekCounts,
    modules: Collection[str],
    themes: Collection[str],
    theme_modules: Mapping[str, Collection[str]] | None,
) -> WeekCounts:
    """Last week's counts without the modules that have no PR this week and that a theme of
    this week or the last is made of (`_made_of`: named as it, or taking it by its rule): the
    theme's row tells the subject. verl's 2026-06-22 read "The largest changes: ... Docker (3
    → 0)" of its `docker` tag above a table whose only Docker row was "Docker-related work |
    theme | 2 | 3" (the module's row of zeros left out, the theme still renamed for it); a
    module row of 0 beside its theme's says the subject twice, the once with nothing in it, as
    slime's 2026-06-15 "doc | module | 0 | 3" above "Docs | theme | 5 | 4" did."""
    gone = {
        module
        for module in previous.modules
        if module not in modules
        and any(_made_of(theme, module, theme_modules) for theme in (*themes, *previous.themes))
    }
    if not gone:
        return previous
    return previous.model_copy(
        update={
            "modules": {k: v for k, v in previous.modules.items() if k not in gone},
            "guesses": {k: v for k, v in previous.guesses.items() if k not in gone},
        }
    )


def _faded_labels(
    counts: WeekCounts, previous: WeekCounts | None, prs_of: Mapping[str, Collection[int]]
) -> list[tuple[str, str]]:
    """(kind, name) of the modules and themes the previous week had fewer than MIN_FADED_ROW
    PRs of and this week none: named in one sentence rather than given a row of zeros each
    (vllm-ascend's learned tags left 19 such rows in one week's table). A label the lead names
    among the largest changes keeps its row."""
    if previous is None or not counts.pr_count:
        return []
    named = {name for name, _, _ in facts.biggest_changes(counts, previous, prs_of)}
    return [
        (kind, name)
        for kind, table, prev_table in (
            (
                "module",
                counts.modules,
                {k: v for k, v in previous.modules.items() if areas_of([k])},
            ),
            ("theme", counts.themes, previous.themes),
        )
        for name, count in sorted(prev_table.items())
        if name not in table and count < MIN_FADED_ROW and name not in named
    ]


def _trend_rows(
    ordered: Sequence[PrRef],
    module_names: Mapping[int, list[str]],
    theme_names: Mapping[int, list[str]],
    counts: WeekCounts,
    previous: WeekCounts | None,
    words: Wording,
    faded: Collection[tuple[str, str]] = (),
    theme_modules: Mapping[str, Collection[str]] | None = None,
) -> list[TrendRow]:
    """A row per module and theme of this week or, when known, the previous one (a label that
    fell to zero is a change too, unless it is one of the `faded` few), most PRs first; none
    for a week without PRs, whose section says so instead. The last column lists the label's
    key PRs only, and of a module not those the classifier gave it at under even odds
    (huggingface/trl's CI row led with "Add DiffusionGemma block-diffusion SFT example",
    guessed `ci` at 0.34): they are counted, but named as the module's work they are not.
    A theme made of a module (`theme_modules`, or named as it) with the same PRs this week and
    as many the last shares the module's row. A module a theme is made of whose PRs this week
    are all the theme's, but not as a shared row would have them, has none: the theme's row
    counts them."""
    if not counts.pr_count:
        return []
    rows: list[TrendRow] = []
    # The theme's rules take a module's tag of its name, or of the names its rule lists, so
    # the module's PRs are among the theme's: vllm-ascend's 2026-08-03 read "MoE | module | 1"
    # above "MoE-related work | theme | 13", its one `[MoE]` PR among the 13; slime's
    # 2026-05-25 "doc | module | 5" above "Docs | theme | 6", its `doc` tags too few of its
    # Docs PRs to stand for the theme (a module that does has the theme left out instead:
    # `themes_named_modules_stand_for`).
    theme_prs = {
        theme: (
            frozenset(n for n, names in theme_names.items() if theme in names),
            previous.themes.get(theme, 0) if previous else None,
        )
        for theme in counts.themes
    }
    # A theme made of a module that counts the very same PRs, this week and the last, shares
    # the module's row: two rows would say it twice.
    module_rows: dict[tuple[frozenset[int], int | None], list[int]] = defaultdict(list)
    label_kinds: list[
        tuple[LabelKind, Mapping[int, Sequence[str]], dict[str, int], dict[str, int] | None]
    ] = [
        ("module", module_names, counts.modules, previous.modules if previous else None),
        ("theme", theme_names, counts.themes, previous.themes if previous else None),
    ]
    for kind, names, table, prev_table in label_kinds:
        dropped = {
            name: 0 for name in prev_table or {} if name not in table and (kind, name) not in faded
        }
        for name, count in facts.ranked({**table, **dropped}):
            if kind == "module" and not areas_of([name]):
                continue  # `bugfix` restates the composition column
            members = [r for r in ordered if name in names.get(r.number, [])]
            prev = prev_table.get(name, 0) if prev_table is not None else None
            same = (frozenset(r.number for r in members), prev)
            if kind == "module" and any(
                same[0] <= held and same != (held, held_before)
                for theme, (held, held_before) in theme_prs.items()
                if _made_of(theme, name, theme_modules)
            ):
                continue
            if kind == "module" and members:
                module_rows[same].append(len(rows))
            elif kind == "theme":
                made_of = [
                    i
                    for i in module_rows.get(same, [])
                    if _made_of(name, rows[i].name, theme_modules)
                ]
                if made_of:
                    module_rows[same].remove(made_of[0])
                    rows[made_of[0]] = _with_theme(rows[made_of[0]], name, words)
                    continue
            rows.append(
                TrendRow(
                    kind=kind,
                    name=name,
                    display=words.display_name(name),
                    count=count,
                    previous=prev,
                    delta=facts.delta(count, prev),
                    composition=words.count_phrase(facts.type_counts(members)),
                    key_changes=[r for r in members if r.is_key and name not in r.unsure][:2],
                )
            )
    return rows


def _made_of(theme: str, module: str, theme_modules: Mapping[str, Collection[str]] | None) -> bool:
    """Whether a theme is made of a module: its rule takes the module's PRs, or they share a
    name (slime's Docker module and theme), as tags are read."""
    taken = {normalise_tag(m) for m in (theme_modules or {}).get(theme, ())}
    return normalise_tag(module) in taken | {normalise_tag(theme)}


def _with_theme(row: TrendRow, theme: str, words: Wording) -> TrendRow:
    """A module's trend row that stands for a theme too (`doc (theme Docs)`); one named as the
    module needs no second name."""
    if theme.casefold() == row.name.casefold():
        return row
    return row.model_copy(update={"shared_theme": words.display_name(theme)})
