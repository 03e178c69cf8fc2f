"""The weekly report: build its context from stored data, render both languages and formats,
store them and write the files."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta
from itertools import groupby
from pathlib import Path

import duckdb
from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.modelling.scoring.importance import calibration_outline, calibration_slice
from prhub_pipeline.modelling.scoring.risks import core_tests
from prhub_pipeline.modelling.tagging.tags import areas_of, tag_spellings
from prhub_pipeline.modelling.tagging.themes import (
    housekeeping_themes,
    modules_by_theme,
    subject_themes,
    themes_named_modules_stand_for,
)
from prhub_pipeline.records import (
    LANGS,
    DisplayName,
    Lang,
    NameKind,
    PullRequest,
    RenderedReport,
    ReportListing,
    WeekCounts,
)
from prhub_pipeline.reporting.context import (
    ReportBackground,
    build_report_context,
    subject_landings,
    title_owners,
)
from prhub_pipeline.reporting.facts import USUAL_WEEKS, PrReviewing, reviewing_by_pr
from prhub_pipeline.reporting.files import (
    ReportDirError,
    files_behind,
    prepare_report_dir,
    published_url,
    remove_temporaries,
    report_dir,
    restore_report_files,
    write_report_files,
)
from prhub_pipeline.reporting.render import WeekLinks, render_report, with_week_links
from prhub_pipeline.reporting.wording import WORDINGS, module_display_names
from prhub_pipeline.stages.ingest import windows_for
from prhub_pipeline.stages.just_stored import week_inputs
from prhub_pipeline.stages.scoring import calibration_span
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.github import github_weeks, read_review_data
from prhub_pipeline.warehouse.modules import read_module_labels, read_themes
from prhub_pipeline.warehouse.prs import (
    clear_stored_late_prs,
    read_prs,
    read_pushed_commits,
    read_pushed_reverts,
    read_release_tags,
    week_pr_numbers,
    weeks_with_late_prs,
    weeks_with_late_release_tags,
)
from prhub_pipeline.warehouse.reports import (
    display_name_tables,
    list_reports,
    read_report,
    read_risks,
    read_scores,
    report_tables,
    reported_weeks,
)
from prhub_pipeline.warehouse.week_stages import (
    StaleWeek,
    refuse_unread_weeks,
    stage_tables,
    stale_weeks,
)
from prhub_pipeline.weeks import WeekWindow


class WeekReport(BaseModel):
    repo: str
    window: WeekWindow
    pr_count: int
    key_pr_count: int
    risk_flags: int
    markdown: str  # in the configured default language, for the operator to read
    files: list[Path]


class RestoredReport(BaseModel):
    """A stored report of a week the run does not report, whose files were written back from
    its rows (`restore_missing_files`)."""

    repo: str
    week_start: date
    files: list[Path]


def report_weeks(
    settings: Settings,
    repo: RepoConfig,
    weeks: Sequence[date],
    on_restored: Callable[[RestoredReport], None] = lambda _: None,
) -> list[WeekReport]:
    """Report `weeks`, after writing back the files of the repository's other stored reports
    that a killed run left unwritten (`restore_missing_files`). `on_restored` is told of each
    such week, which is none of `weeks` and so has no result (carried on the last week's,
    they showed in the UI as that week's)."""
    results: list[WeekReport] = []
    folder = prepare_report_dir(settings.reports_dir, repo.name)
    windows = windows_for(settings, weeks)
    if not windows:
        return results
    report_inputs = week_inputs(settings, repo, None).of_report
    with connect(settings.database) as con:
        refuse_unread_weeks(con, repo.name, weeks)
        remove_temporaries(folder)  # the warehouse's lock: no other run writes reports now
        # Before the run's weeks, whose writes list them in the index.
        for restored in restore_missing_files(
            con, settings, repo.name, skip=[w.week_start for w in windows]
        ):
            on_restored(restored)
        stored = {pr.number: pr for pr in read_prs(con, repo.name)}
        # Worked out once per run, and only as far back as the reports compare: the weeks
        # before the first one (USUAL_WEEKS), not the whole history on every scheduled run.
        since = windows[0].weeks_before(USUAL_WEEKS).start_utc
        recent = [pr for pr in stored.values() if pr.merged_at >= since]
        stored_themes = read_themes(con, repo.name)
        stored_labels = read_module_labels(con, repo.name)
        background = ReportBackground(
            scoring=repo.scoring,
            source=repo.source,
            housekeeping=housekeeping_themes(repo.themes),
            theme_modules=modules_by_theme(repo.themes),
            history=stored,
            pushed_reverts=read_pushed_reverts(con, repo.name),
            title_index=title_owners(stored.values()),
            subject_index=subject_landings(stored.values()),
            core_tested={pr.number: core_tests(pr, repo.scoring) for pr in recent},
            reviewed_before=stored_reviewing(
                con, repo.name, stored, since=windows[0].week_start - timedelta(weeks=USUAL_WEEKS)
            ),
        )
        spellings = tag_spellings(list(stored.values()), repo.modules)
        module_names = {
            lang: module_display_names(repo.modules.display_names_in(lang), spellings)
            for lang in LANGS
        }
        names = display_names(
            module_names,
            {label.module for label in stored_labels},
            {tag.theme for tag in stored_themes},
        )
        merged = sorted(pr.merged_at for pr in stored.values())
        for window in windows:
            week = window.week_start
            # What the week's scores were calibrated on, as the report says it.
            year = calibration_slice(merged, *calibration_span(window))
            calibration = calibration_outline(year.stop - year.start)
            # What the repository is about, as of the week's end: a report must not depend on
            # when it was written (vllm-ascend's first week named the 1,153 PRs stored since).
            upto = {n for n, pr in stored.items() if pr.merged_at < window.end_utc}
            themes_upto = [tag for tag in stored_themes if tag.number in upto]
            week_background = replace(
                background,
                subjects=subject_themes(themes_upto, upto, housekeeping_themes(repo.themes)),
                module_named=themes_named_modules_stand_for(
                    themes_upto,
                    [label for label in stored_labels if label.number in upto],
                    repo.themes,
                ),
            )
            prs = read_prs(con, repo.name, week)
            modules = read_module_labels(con, repo.name, week)
            themes = read_themes(con, repo.name, week)
            scores = read_scores(con, repo.name, week)
            risks = read_risks(con, repo.name, week)
            review_data = read_review_data(con, repo.name, week)
            previous = last_week_counts(con, repo.name, week)
            pushed = read_pushed_commits(con, repo.name, week)
            releases = read_release_tags(con, repo.name, week)
            rendered = []
            counts: WeekCounts | None = None
            for lang in LANGS:
                context = build_report_context(
                    repo.name,
                    window,
                    prs,
                    modules,
                    themes,
                    scores,
                    risks,
                    review_data,
                    previous,
                    lang,
                    report_url=(
                        published_url(settings.reports_url, repo.name, week, lang)
                        if settings.reports_url
                        else None
                    ),
                    calibration=calibration,
                    display_names=module_names[lang],
                    pushed=pushed,
                    releases=releases,
                    background=week_background,
                )
                counts = context.counts
                rendered.append(
                    RenderedReport(
                        lang=lang,
                        markdown=render_report(context, lang, "md"),
                        html=render_report(context, lang, "html"),
                    )
                )
            assert counts is not None
            key_pr_count = sum(1 for s in scores if s.is_key)
            replace_partition(
                con,
                repo.name,
                week,
                [
                    *report_tables(repo.name, week, rendered, counts, key_pr_count=key_pr_count),
                    *display_name_tables(repo.name, names),
                    *stage_tables(repo.name, week, "report", report_inputs),
                ],
            )
            clear_stored_late_prs(con, repo.name, week)  # the report has them now
            listing = list_reports(con, repo.name)
            stored_weeks = weeks_by_lang(listing)
            try:
                files = write_report_files(
                    settings.reports_dir,
                    repo.name,
                    week,
                    [linked(r, WeekLinks.among(stored_weeks[r.lang], week)) for r in rendered],
                    index_entries=listing,
                    index_lang=settings.language,
                )
                # The weeks beside it link to it now: their files are written again from
                # their rows, not their reports rendered again. A later week of the run
                # writes its own files (and its link back to this one) in its turn.
                later = {w.week_start for w in windows[windows.index(window) + 1 :]}
                for lang in LANGS:
                    links = WeekLinks.among(stored_weeks[lang], week)
                    for beside in (links.previous, links.next):
                        if beside is not None and beside not in later:
                            relink_report_files(con, settings, repo.name, beside, lang, listing)
            except OSError as exc:
                # A range stops here: its later weeks keep an earlier run's reports, or none,
                # and running this week alone again (as the error said) left them so.
                unreported = windows[windows.index(window) + 1 :]
                rerun = (
                    f", and weeks {unreported[0].week_start} to {unreported[-1].week_start} were"
                    f" not reported: run weeks {week} to {unreported[-1].week_start} again"
                    if unreported
                    else ": run the week again"
                )
                raise ReportDirError(
                    f"week {week}: its report is stored, but its files in {folder} could not"
                    f" all be written ({exc.strerror or exc}), so some may be an earlier run's"
                    f"{rerun}"
                ) from None
            default = next(r for r in rendered if r.lang == settings.language)
            results.append(
                WeekReport(
                    repo=repo.name,
                    window=window,
                    pr_count=len(prs),
                    key_pr_count=key_pr_count,
                    risk_flags=len(risks),
                    markdown=default.markdown,
                    files=files,
                )
            )
    return results


def last_week_counts(con: duckdb.DuckDBPyConnection, repo: str, week: date) -> WeekCounts | None:
    """The week before `week` counted from its stored PRs and labels, as `week` itself is
    counted, or None when that week has no report (the first week, a gap): unknown, as the
    SQL models take it. Not its report's `weekly_counts`, which leave out the themes left out
    as of that week's end: verl's 2025-01-27 left out Performance, its `perf` tag then on 5 of
    its 6 PRs (`themes_named_modules_stand_for`), so 2025-02-03, where it was no longer left
    out, read "Performance | 1 | 0" of a week that had 1 Performance PR."""
    last = week - timedelta(days=7)
    if not reported_weeks(con, repo, last, last):
        return None
    return WeekCounts.from_labels(
        len(week_pr_numbers(con, repo, [last]).get(last, [])),
        read_module_labels(con, repo, last),
        read_themes(con, repo, last),
    )


def display_names(
    module_names: Mapping[Lang, Mapping[str, str]],
    modules: Collection[str],
    themes: Collection[str],
) -> list[DisplayName]:
    """The name a report in each language gives each of `modules` and `themes`
    (`Wording.display_name`), given the repository's names for its modules in each
    (`module_display_names`): what the `display_names` table holds, so that a SQL user can name
    `kv_pool` `KV Pool` and verl's `ckpt` Checkpointing/检查点 as the reports do. Of a module,
    whether it names an area as the reports decide (`areas_of`): AReaL's `feature` and `fix`
    tags were its SQL models' top modules, and no report's (a theme has None)."""
    names: list[DisplayName] = []
    for lang in LANGS:
        words = replace(WORDINGS[lang], module_names=dict(module_names[lang]))
        keyed: tuple[tuple[NameKind, Collection[str]], ...] = (
            ("module", modules),
            ("theme", themes),
        )
        for kind, keys in keyed:
            names += [
                DisplayName(
                    kind=kind,
                    name=key,
                    lang=lang,
                    display_name=words.display_name(key),
                    is_area=bool(areas_of([key])) if kind == "module" else None,
                )
                for key in sorted(keys)
            ]
    return names


def weeks_by_lang(listing: Sequence[ReportListing]) -> dict[Lang, list[date]]:
    """The weeks of a repository's stored reports (`list_reports`), by language."""
    weeks: dict[Lang, list[date]] = {lang: [] for lang in LANGS}
    for entry in listing:
        weeks[entry.lang].append(entry.week_start)
    return weeks


def linked(report: RenderedReport, links: WeekLinks) -> RenderedReport:
    """A report as its files hold it: with links to the stored weeks beside it. Its row holds
    it without them, so that a week stored later changes only the files beside it."""
    return RenderedReport(
        lang=report.lang,
        markdown=with_week_links(report.markdown, report.lang, "md", links),
        html=with_week_links(report.html, report.lang, "html", links),
    )


def relink_report_files(
    con: duckdb.DuckDBPyConnection,
    settings: Settings,
    repo: str,
    week: date,
    lang: Lang,
    listing: Sequence[ReportListing],
) -> list[Path]:
    """Write a stored report's files again from its row with the links to the weeks beside it
    (`listing`: the repository's stored reports), where they do not hold that text; those that
    do are dated now, as `files_behind` expects of the files of a week beside one written."""
    stored = read_report(con, repo, week, lang)
    if stored is None:
        return []
    links = WeekLinks.among(weeks_by_lang(listing)[lang], week)
    return restore_report_files(settings.reports_dir, repo, week, linked(stored, links))


def restore_missing_files(
    con: duckdb.DuckDBPyConnection, settings: Settings, repo: str, skip: Collection[date]
) -> list[RestoredReport]:
    """Write back from its stored row each file of the repository's stored reports (but the
    weeks of `skip`) that is missing from its folder, or older than its row, or than the row
    of a stored week beside it, and not its text (with the links to those weeks): a run killed
    between a report's row and its files left them so, and the index linked none of them, nor
    the week before it the new one. Returns each week that had files written, newest first.
    Call it while no other run writes reports (the warehouse's lock). Reports stored while
    `reports_dir` named another folder are written here too, so every stored week the links
    name has its files."""
    listing = list_reports(con, repo)
    stored_weeks = weeks_by_lang(listing)
    generated = {(e.week_start, e.lang): e.generated_at for e in listing}
    restored: list[RestoredReport] = []
    for week, of_week in groupby(listing, key=lambda entry: entry.week_start):
        if week in skip:
            continue
        written: list[Path] = []
        for entry in of_week:
            lang = entry.lang
            if entry.generated_at is None:
                continue
            links = WeekLinks.among(stored_weeks[lang], week)
            beside = [w for w in (links.previous, links.next) if w is not None]
            since = max(
                when for when in (generated[w, lang] for w in (week, *beside)) if when is not None
            )
            if not files_behind(settings.reports_dir, repo, week, lang, since):
                continue
            try:
                written += relink_report_files(con, settings, repo, week, lang, listing)
            except OSError as exc:
                raise ReportDirError(
                    f"week {week}: its stored {lang} report's files are missing from"
                    f" {report_dir(settings.reports_dir, repo)} and could not be written back"
                    f" ({exc.strerror or exc})"
                ) from None
        if written:
            restored.append(RestoredReport(repo=repo, week_start=week, files=written))
    return restored


def stored_reviewing(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    stored: Mapping[int, PullRequest],
    since: date | None = None,
) -> dict[int, PrReviewing]:
    """The review of every stored PR (of `stored`, the repository's) whose week came from
    GitHub (from the week `since` names on), once per run: the report compares a week's share
    of approved PRs with the weeks before."""
    numbers = week_pr_numbers(con, repo)
    reviewing: dict[int, PrReviewing] = {}
    for week in github_weeks(con, repo):
        if since is not None and week < since:
            continue
        prs = [stored[n] for n in numbers.get(week, []) if n in stored]
        reviewing.update(reviewing_by_pr(prs, read_review_data(con, repo, week)) or {})
    return reviewing


# How long a schedule's look at the warehouse waits for a writer to finish.
SCHEDULE_LOCK_SECONDS = 5.0


def weeks_to_run_again(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[date]:
    """Of `weeks`, those with no stored report (their run failed, or none ran), that lack PRs
    a later git run found for them (`late_prs`), or whose report predates a version tag stored
    for them since (`weeks_with_late_release_tags`), oldest first; all of them before the
    warehouse exists. Raises WarehouseError when the warehouse cannot be read within
    SCHEDULE_LOCK_SECONDS."""
    if not weeks:
        return []
    if not settings.database.exists():
        return sorted(weeks)
    first, last = min(weeks), max(weeks)
    with connect(settings.database, read_only=True, lock_timeout=SCHEDULE_LOCK_SECONDS) as con:
        reported = reported_weeks(con, repo.name, first, last)
        late = weeks_with_late_prs(con, repo.name, first, last)
        late |= weeks_with_late_release_tags(con, repo.name, first, last)
    return sorted(week for week in weeks if week not in reported or week in late)


def weeks_to_analyse_again(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date]
) -> list[StaleWeek]:
    """Of `weeks`, those whose stored labels, scores or report do not tell the PRs stored for
    them (`stale_weeks`), oldest first, with why: their analysis runs again from the stored
    PRs, no source read. None before the warehouse exists. Raises WarehouseError when the
    warehouse cannot be read within SCHEDULE_LOCK_SECONDS."""
    if not weeks or not settings.database.exists():
        return []
    asked = set(weeks)
    with connect(settings.database, read_only=True, lock_timeout=SCHEDULE_LOCK_SECONDS) as con:
        stale = stale_weeks(con, repo.name, min(weeks), max(weeks))
    return [week for week in stale if week.week_start in asked]
