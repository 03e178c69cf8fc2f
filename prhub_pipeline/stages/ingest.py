"""Ingest: read a repository's merged PRs for a range of weeks and store each week."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta

import duckdb
from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.modelling.scoring.config_diff import compared_files, config_file_diffs
from prhub_pipeline.records import (
    ConfigFileDiff,
    FileChange,
    FileVersions,
    PullRequest,
    PushedCommit,
    ReleaseTag,
    RequestStats,
    ReviewData,
)
from prhub_pipeline.reporting.files import prepare_report_dir
from prhub_pipeline.sources.git import (
    CloneUpdate,
    branch_commit,
    check_clone,
    read_file_versions,
    read_version_tags,
    read_window,
    update_clone,
)
from prhub_pipeline.sources.github import (
    GitHubClient,
    GitHubResponseError,
    fetch_file_versions,
    fetch_version_tags,
    fetch_week,
    parse_pages,
)
from prhub_pipeline.stages.just_stored import week_inputs
from prhub_pipeline.stages.text import counted
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.github import (
    github_tables,
    has_landing_pages,
    landing_tables,
    read_landing_pages,
    review_tables,
)
from prhub_pipeline.warehouse.partitions import move_repository
from prhub_pipeline.warehouse.prs import (
    config_diff_tables,
    late_pr_tables,
    pr_tables,
    prs_in_other_weeks,
    pushed_commit_tables,
    release_tables,
    release_tag_commits,
    repos_with_merge_commits,
    stored_landings,
    week_merge_commits,
    week_pr_numbers,
)
from prhub_pipeline.warehouse.quality import CheckOutcome
from prhub_pipeline.warehouse.reports import reported_weeks
from prhub_pipeline.warehouse.week_stages import stage_tables
from prhub_pipeline.weeks import WeekWindow, week_of

# Reported weeks before a run's first that a git run reads again for PRs they lack.
LATE_PR_WEEKS = 4


class WeekIngest(BaseModel):
    """What one week's ingest stored."""

    repo: str
    window: WeekWindow
    pr_count: int
    file_count: int
    additions: int
    deletions: int
    config_files: int  # configuration files and dependency manifests compared
    setting_changes: int  # settings those files changed, added or removed
    unread_config: str | None = None  # why the week's config files could not be read
    preview: list[PullRequest]
    github: RequestStats | None = None  # what the GitHub API calls cost, for that source
    clone: CloneUpdate | None = None  # what updating the git clone did, for that source
    # The week's commits that name no PR (pushed straight to the branch), which no report
    # covers; None where the source cannot tell (GitHub lists PRs, not pushes).
    pushed_commits: int | None = None
    # The week starts after the newest commit of a clone nobody updated (`_after_newest`).
    clone_behind: str | None = None
    # Reported weeks before the run's that the source has PRs (`late_prs`) or version tags
    # (`record_late_release_tags`) for that they lack.
    late_prs: str | None = None
    # Weeks stored under a former name of the repository, moved to its name (`former_names`).
    moved: str | None = None


class WeekReviews(BaseModel):
    """What one week's review data holds, or that the source has none."""

    repo: str
    window: WeekWindow
    available: bool
    reviews: int = 0
    threads: int = 0
    unresolved_threads: int = 0
    thread_comments: int = 0
    pr_comments: int = 0


def clone_updates(results: Sequence[WeekIngest]) -> dict[str, CloneUpdate]:
    """What updating each repository's git clone did, by repository (one update per run)."""
    return {r.repo: r.clone for r in results if r.clone is not None}


def clone_coverage(results: Sequence[WeekIngest]) -> list[CheckOutcome]:
    """`clone_reaches_the_week` for each repository of the run: no week starts after the newest
    commit of a clone nobody updated (WARN). Its detail names the repository and each offending
    item its week and repository, as every check's do: a run of two repositories over the same
    week said only `["2026-10-05"]` and a clone's path."""
    by_repo: dict[str, list[WeekIngest]] = defaultdict(list)
    for result in results:
        by_repo[result.repo].append(result)
    outcomes = []
    for repo, weeks in by_repo.items():
        behind = [week for week in weeks if week.clone_behind]
        notes = "; ".join(dict.fromkeys(str(week.clone_behind) for week in behind))
        outcomes.append(
            CheckOutcome(
                name="clone_reaches_the_week",
                passed=not behind,
                detail=f"{repo}: {notes or 'every week is covered'}",
                offending=[f"{repo} {week.window.key}" for week in behind],
                severity="warn",
            )
        )
    return outcomes


def ingest_summary(results: Sequence[WeekIngest]) -> str:
    """The run's one-line summary: PRs stored, and what a reader should know about the source
    (each clone's fetch, unread config files, a clone behind, late PRs, direct pushes)."""
    clones = clone_updates(results)
    # One repository's run says what its fetch did; one of several names whose fetch it was.
    notes = [f"{repo}: {c.message}" if len(clones) > 1 else c.message for repo, c in clones.items()]
    notes += [f"week {r.window.key}: {r.unread_config}" for r in results if r.unread_config]
    notes += dict.fromkeys(r.clone_behind for r in results if r.clone_behind)
    notes += dict.fromkeys(r.late_prs for r in results if r.late_prs)
    notes += dict.fromkeys(r.moved for r in results if r.moved)
    cut = sum(r.github.truncated_file_lists for r in results if r.github is not None)
    if cut:
        # GitHub lists a PR's first 3,000 files: the rest are in no table, tag or flag.
        notes.append(f"{counted(cut, 'PR')} with more files than GitHub lists, stored in part")
    direct = sum(r.pushed_commits or 0 for r in results)
    if direct:
        # Commits pushed straight to the branch are no PRs: say how many the reports list apart.
        notes.append(f"{counted(direct, 'commit')} pushed without a PR, listed apart")
    total = sum(result.pr_count for result in results)
    return "; ".join([f"{counted(total, 'PR')} in {len(results)} week(s)", *notes])


def windows_for(settings: Settings, weeks: Sequence[date]) -> list[WeekWindow]:
    return [WeekWindow(week_start=week, timezone=settings.timezone) for week in sorted(weeks)]


def _summary(
    repo: RepoConfig,
    window: WeekWindow,
    prs: list[PullRequest],
    diffs: list[ConfigFileDiff],
    stats: RequestStats | None = None,
    clone: CloneUpdate | None = None,
    unread_config: str | None = None,
    pushed_commits: int | None = None,
    clone_behind: str | None = None,
    late_prs: str | None = None,
) -> WeekIngest:
    return WeekIngest(
        repo=repo.name,
        window=window,
        pr_count=len(prs),
        file_count=sum(len(pr.files) for pr in prs),
        additions=sum(pr.additions for pr in prs),
        deletions=sum(pr.deletions for pr in prs),
        config_files=len(diffs),
        setting_changes=sum(len(d.changes) for d in diffs),
        unread_config=unread_config,
        preview=prs[:20],
        github=stats,
        clone=clone,
        pushed_commits=pushed_commits,
        clone_behind=clone_behind,
        late_prs=late_prs,
    )


class SourceCheckError(Exception):
    """What the source gave does not fit the weeks asked for or what is stored: a week whose
    stored PRs the source no longer has, or weeks after the newest commit of a clone that was
    not updated. Nothing is replaced."""


def refuse_emptying(
    con: duckdb.DuckDBPyConnection, repo: str, read: Mapping[date, Sequence[PullRequest]]
) -> None:
    """Raise SourceCheckError when a week with stored PRs would be replaced by one with none.

    Merged PRs stay merged, so a source that now has none of a week's PRs points elsewhere
    than before (a `branch` of another line of releases, another clone) or holds less (a
    clone cut short): replacing would delete the week's data and publish an empty report.
    """
    read_empty = [week for week, prs in read.items() if not prs]
    if not read_empty:
        return
    emptied = week_pr_numbers(con, repo, only=read_empty)
    if emptied:
        weeks = ", ".join(
            f"{week} ({len(numbers)} stored, e.g. #{numbers[0]})"
            for week, numbers in sorted(emptied.items())
        )
        raise SourceCheckError(
            f"{repo}: the source has none of the PRs stored for week(s) {weeks}; refusing to"
            " replace them with none. Check the repository's `branch`, `git_path` or `name`."
        )


def refuse_losing(
    con: duckdb.DuckDBPyConnection,
    repo: RepoConfig,
    read: Mapping[date, Sequence[PullRequest]],
    branch_commits: Collection[str],
) -> None:
    """Raise SourceCheckError when a clone read fewer of a week's PRs than are stored and the
    missing ones' merge commits are not on its branch (git source).

    Merged PRs stay merged: a clone that lost sight of them is behind (`git_fetch: false` on a
    clone nobody updated: verl's week of 2026-05-11 went from 43 PRs to 16, rc 0) or follows
    another line of history, and replacing the week would delete its data and publish a report
    of part of it. A missing PR whose commit is on the branch is read otherwise now (its
    message no longer names it), which the run may store. PRs the github source stored (those
    of release branches too, when it searched every branch) are held to `refuse_emptying`
    only. Where history really lost them upstream, the error says how to let the week go.
    """
    stored = week_merge_commits(con, repo.name, sorted(read))
    lost: dict[date, tuple[int, list[int]]] = {}
    for week, rows in stored.items():
        have = {pr.number for pr in read[week]}
        gone = [
            n for n, sha in rows if n not in have and (sha is None or sha not in branch_commits)
        ]
        if gone:
            lost[week] = (len(rows), gone)
    if lost:
        weeks = ", ".join(
            f"{week} ({len(gone)} of {total} stored, e.g. #{gone[0]})"
            for week, (total, gone) in sorted(lost.items())
        )
        raise SourceCheckError(
            f"{repo.name}: the clone lacks PRs stored for week(s) {weeks}: their merge commits"
            f" are not on {repo.branch or 'HEAD'} in {repo.git_path}; refusing to replace them."
            " Update the clone (git fetch), or check the repository's `branch`, `git_path` or"
            " `name`. If the branch's history lost them upstream, delete the week's stored PRs"
            f" (DELETE FROM prs WHERE repo = '{repo.name}' AND week_start = '<week>') and run"
            " it again."
        )


def refuse_stored_elsewhere(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    prs: Sequence[PullRequest],
    configured: Collection[str],
) -> None:
    """Raise SourceCheckError when PRs with these merge commits are stored under another
    repository's name: the same repository renamed in the config, or a clone of it, whose PRs
    would be stored twice (verl renamed: 86 PRs under each name, its models learning half).
    A name no longer `configured` is told how to move its weeks: GitHub searches a renamed
    repository under its new name only, so keeping the old one is no way out."""
    shas = [pr.merge_commit_sha for pr in prs if pr.merge_commit_sha]
    elsewhere = repos_with_merge_commits(con, repo, shas) if shas else {}
    if elsewhere:
        other, numbers = next(iter(elsewhere.items()))
        way_out = (
            f" Keep the name {other}, or store {repo} in a new `database`."
            if other in configured
            else f" If {other} was renamed {repo}, add `former_names: [{other}]` to {repo}'s"
            " entry: its weeks move to the new name. Else store it in a new `database`."
        )
        raise SourceCheckError(
            f"{repo}: {len(numbers)} of its PRs (e.g. #{numbers[0]}) are stored under {other}"
            " already, with the same merge commits: the same repository under another name."
            + way_out
        )


def adopt_former_names(con: duckdb.DuckDBPyConnection, repo: RepoConfig) -> str | None:
    """Move the weeks stored under the repository's `former_names` to its name; say which."""
    told = []
    for former in repo.former_names:
        weeks = move_repository(con, former, repo.name)
        if weeks:
            told.append(
                f"{counted(len(weeks), 'week')} stored under {former} ({weeks[0]} .. {weeks[-1]})"
                f" moved to {repo.name}; their reports name {former} until they run again"
            )
    return "; ".join(told) or None


def refuse_other_timezone(con: duckdb.DuckDBPyConnection, repo: str, timezone: str) -> None:
    """Raise SourceCheckError when stored PRs belong to other weeks in `timezone` than the
    ones they are stored in: the weeks were keyed by another `timezone`'s Mondays. Weeks of the
    new zone would overlap them, so a run lost the PRs that moved (verl's 2025-05-19 went from
    55 PRs to 51, rc 0) or failed on a duplicate key."""
    moved = prs_in_other_weeks(con, repo, timezone)
    if moved:
        number, merged_at, stored = moved[0]
        count = "1 stored PR is" if len(moved) == 1 else f"{len(moved)} stored PRs are"
        raise SourceCheckError(
            f"{repo}: {count} in other weeks by {timezone}'s Mondays than"
            f" the weeks they were stored in (#{number}, merged {merged_at:%Y-%m-%d %H:%M} UTC,"
            f" is in the week of {stored}): the weeks were stored with another `timezone`. Set"
            " it back, or keep this repository in a new `database`."
        )


def _after_newest(
    repo: RepoConfig,
    windows: Sequence[WeekWindow],
    newest: datetime | None,
    clone: CloneUpdate | None,
) -> dict[date, str]:
    """For each week that starts after the branch's newest commit, why its emptiness may be
    the clone's. A fetch that has just run tells: after one that failed the week is refused
    (SourceCheckError), since its report would say that no PR was merged; a fetch that
    succeeded makes it a quiet week. Without one (`git_fetch: false`, a working clone) the week
    is stored with a warning: a quiet repository's clone has nothing to update."""
    if newest is None or (clone is not None and clone.status == "updated"):
        return {}
    after = [w.week_start for w in windows if w.start_utc >= newest]
    if not after:
        return {}
    behind = (
        f"the newest commit of {repo.branch or 'HEAD'} in {repo.git_path} is from"
        f" {newest.astimezone(UTC):%Y-%m-%d %H:%M} UTC, before week(s)"
        f" {', '.join(map(str, after))}"
    )
    if clone is not None and clone.status == "failed":
        raise SourceCheckError(f"{repo.name}: {behind}, and {clone.message}; run again once it can")
    # A skipped fetch says why in the run's summary already.
    off = " (git_fetch is off)" if clone is None else ""
    note = f"{behind}: if the clone is out of date{off}, update it and run them again"
    return dict.fromkeys(after, note)


def _ingest_git(
    settings: Settings, repo: RepoConfig, windows: list[WeekWindow]
) -> list[WeekIngest]:
    """One `git log` for the whole range, then each week replaced in its own transaction."""
    assert repo.git_path is not None  # the config requires it for the git source
    check_clone(repo.git_path, repo.name)
    clone = update_clone(repo.git_path, repo.branch) if repo.git_fetch else None
    earlier = _earlier_windows(settings, repo, windows)
    with connect(settings.database) as con:
        held = week_pr_numbers(con, repo.name, only=[w.week_start for w in (*earlier, *windows)])
    # Taken before the read: a commit landing during it makes the weeks look read from an
    # older commit than they were, and a run asked for them later reads them again.
    inputs = week_inputs(settings, repo, branch_commit(repo.git_path, repo.branch)).of_ingest
    history = read_window(
        repo.git_path,
        repo.name,
        (earlier or windows)[0].start,
        windows[-1].end,
        branch=repo.branch,
        also={number for numbers in held.values() for number in numbers},
    )
    behind = _after_newest(repo, windows, history.newest_commit_at, clone)
    with connect(settings.database) as con:
        landed = stored_landings(con, repo.name, [pr.number for pr in history.prs])
    by_week: dict[date, list[PullRequest]] = defaultdict(list)
    for pr in history.prs:
        stored = landed.get(pr.number)
        if stored is None:
            by_week[week_of(pr.merged_at, settings.timezone)].append(pr)
            continue
        # A stored PR keeps its week and merge time: a history whose commit dates are out of
        # order may date it otherwise once later commits arrive (`landing_times`), and moving
        # it would take it out of a week its report already counted, or put it in a week the
        # run does not rewrite (where it was lost) or twice in one it does.
        week, merged_at = stored
        by_week[week].append(pr.model_copy(update={"merged_at": merged_at}))
    prs = [pr for window in windows for pr in by_week.get(window.week_start, [])]
    pushed: dict[date, list[PushedCommit]] = defaultdict(list)
    for commit in history.pushed:
        pushed[week_of(commit.committed_at, settings.timezone)].append(commit)
    releases = _by_week(
        read_version_tags(repo.git_path, repo.name, (earlier or windows)[0].start, windows[-1].end),
        settings.timezone,
    )
    versions = read_file_versions(repo.git_path, _compared_files(repo, prs))
    diffs_by_pr: dict[int, list[ConfigFileDiff]] = defaultdict(list)
    for diff in config_file_diffs(repo.name, versions):
        diffs_by_pr[diff.pr_number].append(diff)
    results = []
    with connect(settings.database) as con:
        # The weeks read again before the run's too: a new week under a renamed repository's
        # new name shares no PR with the old name's weeks, and was stored apart from them.
        again = [pr for w in earlier for pr in by_week.get(w.week_start, [])]
        refuse_stored_elsewhere(con, repo.name, [*again, *prs], configured_names(settings))
        read = {w.week_start: by_week.get(w.week_start, []) for w in windows}
        refuse_losing(con, repo, read, history.branch_commits)
        refuse_emptying(con, repo.name, read)  # of what another source stored too
        now = datetime.now(UTC)
        late = _notes(
            record_late_prs(con, repo.name, {w.week_start: by_week[w.week_start] for w in earlier}),
            record_late_release_tags(con, repo.name, _weeks_of(releases, earlier), now),
        )
        for window in windows:
            week_prs = by_week.get(window.week_start, [])
            week_pushed = pushed.get(window.week_start, [])
            diffs = [d for pr in week_prs for d in diffs_by_pr.get(pr.number, [])]
            # The landing table is emptied too: a repository may have moved from github to git.
            tables = [
                *pr_tables(window.week_start, week_prs),
                *config_diff_tables(window.week_start, diffs),
                *landing_tables(window.week_start, []),
                *pushed_commit_tables(window.week_start, week_pushed),
                *release_tables(
                    con, repo.name, window.week_start, releases.get(window.week_start, []), now
                ),
                *stage_tables(repo.name, window.week_start, "ingest", inputs),
            ]
            replace_partition(con, repo.name, window.week_start, tables)
            results.append(
                _summary(
                    repo,
                    window,
                    week_prs,
                    diffs,
                    clone=clone,
                    pushed_commits=len(week_pushed),
                    clone_behind=behind.get(window.week_start),
                    late_prs=late,
                )
            )
    return results


def _earlier_windows(
    settings: Settings, repo: RepoConfig, windows: Sequence[WeekWindow]
) -> list[WeekWindow]:
    """The LATE_PR_WEEKS weeks before a run's (from the repository's start): what a source
    has for them since they were reported (merges, tags) is told and queued again."""
    return windows_for(
        settings,
        [
            week
            for n in range(LATE_PR_WEEKS, 0, -1)
            if (week := windows[0].week_start - timedelta(weeks=n)) >= repo.start
        ],
    )


def _by_week(tags: Sequence[ReleaseTag], timezone: str) -> dict[date, list[ReleaseTag]]:
    weeks: dict[date, list[ReleaseTag]] = defaultdict(list)
    for tag in tags:
        weeks[week_of(tag.tagged_at, timezone)].append(tag)
    return weeks


def _weeks_of(
    releases: Mapping[date, list[ReleaseTag]], windows: Sequence[WeekWindow]
) -> dict[date, list[ReleaseTag]]:
    return {w.week_start: releases.get(w.week_start, []) for w in windows}


def _notes(*notes: str | None) -> str | None:
    return "; ".join(note for note in notes if note) or None


def record_late_release_tags(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    in_source: Mapping[date, Sequence[ReleaseTag]],
    now: datetime,
) -> str | None:
    """Store, for each reported week of `in_source`, the version tags the source has for it
    now: one it was stored without (or on another commit) is noticed `now`, which makes the
    weekly schedule run the week again so that its summary names the release. Such a tag was
    pushed after the week was reported: a lightweight tag carries its commit's date (verl's
    v0.9.0 is dated the Friday before the Monday it was pushed on). A tag deleted upstream
    is taken out of the week's rows but queues no run: the week's report names it until the
    week runs again.
    Says which weeks gained tags, or None."""
    if not in_source:
        return None
    told = []
    for week in sorted(reported_weeks(con, repo, min(in_source), max(in_source))):
        tags = in_source.get(week, [])
        stored = release_tag_commits(con, repo, week)
        if {(tag.name, tag.sha) for tag in tags} == set(stored.items()):
            continue
        moved = {tag.name for tag in tags if stored.get(tag.name) not in (None, tag.sha)}
        rows = release_tables(con, repo, week, tags, now, renoticed=moved)
        replace_partition(con, repo, week, rows)
        new = [tag.name for tag in tags if tag.name not in stored or tag.name in moved]
        if new:
            told.append(f"{week} gains {', '.join(new)}")
    if not told:
        return None
    return (
        f"{repo}: version tags not in their weeks' reports: {'; '.join(told)}; the weekly"
        f" schedule runs them again, or run `prhub materialize --repo {repo} --week WEEK`"
    )


def record_late_prs(
    con: duckdb.DuckDBPyConnection, repo: str, in_clone: Mapping[date, Sequence[PullRequest]]
) -> str | None:
    """Store, for each reported week of `in_clone`, the PRs the clone has for it that it was
    stored without (a merge pushed after the week was read, a clone that could not be
    updated), for the weekly schedule to run the week again; say which, or None."""
    if not in_clone:
        return None
    reported = reported_weeks(con, repo, min(in_clone), max(in_clone))
    stored = week_pr_numbers(con, repo, only=sorted(reported))
    noticed_at = datetime.now(UTC)
    told = []
    for week in sorted(reported):
        late = [pr for pr in in_clone[week] if pr.number not in stored.get(week, [])]
        replace_partition(con, repo, week, late_pr_tables(week, late, noticed_at))
        if late:
            numbers = ", ".join(f"#{pr.number}" for pr in late)
            told.append(f"{week} lacks {numbers}")
    if not told:
        return None
    return (
        f"{repo}: the clone has PRs that stored weeks lack, merged before the weeks were read or"
        f" pushed since: {'; '.join(told)}; the weekly schedule runs them again, or run"
        f" `prhub materialize --repo {repo} --week WEEK`"
    )


def _compared_files(
    repo: RepoConfig, prs: Sequence[PullRequest]
) -> list[tuple[PullRequest, FileChange]]:
    """The files whose settings are compared: configuration files, for the risk of changed
    defaults, and dependency manifests, for the requirements a PR changed."""
    return [(pr, change) for pr in prs for change in compared_files(pr, repo.scoring)]


def _ingest_github(
    settings: Settings, repo: RepoConfig, windows: list[WeekWindow]
) -> list[WeekIngest]:
    """Fetch and store week by week: a failure keeps every week stored before it, and the
    failing week's previous data, intact. The warehouse is not held open while fetching."""
    results = []
    earlier = _earlier_windows(settings, repo, windows)
    releases: dict[date, list[ReleaseTag]] = {}
    late: str | None = None
    with GitHubClient(repo.github) as client:
        for window in windows:
            week = fetch_week(client, repo.name, window, branch=repo.branch)
            if window is windows[0]:  # one read for the run's weeks, counted in its first
                tags = fetch_version_tags(
                    client,
                    repo.name,
                    (earlier or windows)[0].start,
                    windows[-1].end,
                    stats=week.stats,
                )
                releases = _by_week(tags, settings.timezone)
                with connect(settings.database) as con:
                    late = record_late_release_tags(
                        con, repo.name, _weeks_of(releases, earlier), datetime.now(UTC)
                    )
            files = _compared_files(repo, week.prs)
            unread = None
            try:
                versions, timed_out = fetch_file_versions(
                    client, repo.name, files, stats=week.stats
                )
            except GitHubResponseError as exc:
                # The week's PRs matter more than comparing their configs: an answer GitHub
                # garbles for one file leaves the files to the line-count rule, not the week
                # unstored. Rate limits and outages still stop the run.
                versions = [
                    FileVersions(pr_number=pr.number, path=f.path, status=f.status)
                    for pr, f in files
                ]
                unread = f"settings of {len(files)} config file(s) not compared: {exc}"
            else:
                if timed_out:
                    unread = (
                        f"settings of {len(timed_out)} config file(s) not compared, GitHub timed"
                        f" out reading them: {', '.join(timed_out)}"
                    )
            diffs = config_file_diffs(repo.name, versions)
            tables = [
                *pr_tables(window.week_start, week.prs),
                *config_diff_tables(window.week_start, diffs),
                *github_tables(window.week_start, week),
                # GitHub lists PRs, not pushes; a repository may have moved from git to github.
                *pushed_commit_tables(window.week_start, []),
            ]
            with connect(settings.database) as con:
                refuse_stored_elsewhere(con, repo.name, week.prs, configured_names(settings))
                refuse_emptying(con, repo.name, {window.week_start: week.prs})
                tables += release_tables(
                    con,
                    repo.name,
                    window.week_start,
                    releases.get(window.week_start, []),
                    datetime.now(UTC),
                )
                tables += stage_tables(
                    repo.name,
                    window.week_start,
                    "ingest",
                    week_inputs(settings, repo, None).of_ingest,
                )
                replace_partition(con, repo.name, window.week_start, tables)
            results.append(
                _summary(
                    repo,
                    window,
                    week.prs,
                    diffs,
                    stats=week.stats,
                    unread_config=unread,
                    late_prs=late,
                )
            )
    return results


def configured_names(settings: Settings) -> set[str]:
    return {repo.name for repo in settings.repos}


def check_source(settings: Settings, repo: RepoConfig) -> None:
    """What can be known of a repository's source before reading it: a git clone that is
    missing or is none fails here, before a run of several repositories writes any of them."""
    if repo.source == "git":
        assert repo.git_path is not None  # the config requires it for the git source
        check_clone(repo.git_path, repo.name)


def ingest_weeks(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[WeekIngest]:
    """Read the weeks from the repository's source and replace each week's partition."""
    windows = windows_for(settings, weeks)
    if not windows:
        return []
    # A run that cannot write its reports fails now, before it replaces any week's data: the
    # reports would tell the weeks as they were.
    prepare_report_dir(settings.reports_dir, repo.name)
    with connect(settings.database) as con:
        moved = adopt_former_names(con, repo)
        refuse_other_timezone(con, repo.name, settings.timezone)
    if repo.source == "github":
        results = _ingest_github(settings, repo, windows)
    else:
        results = _ingest_git(settings, repo, windows)
    return [result.model_copy(update={"moved": moved}) for result in results]


def store_review_weeks(
    settings: Settings, repo: RepoConfig, weeks: Sequence[date]
) -> list[WeekReviews]:
    """Rebuild each week's reviews and threads from the stored GitHub responses (never
    re-fetching); a week without them (the git source) is stored empty and marked unavailable."""
    results = []
    with connect(settings.database) as con:
        for window in windows_for(settings, weeks):
            if has_landing_pages(con, repo.name, window.week_start):
                pages = read_landing_pages(con, repo.name, window.week_start)
                _, review_data = parse_pages(repo.name, pages, window.week_start)
            else:
                review_data = ReviewData(available=False)
            replace_partition(
                con,
                repo.name,
                window.week_start,
                [
                    *review_tables(window.week_start, review_data),
                    *stage_tables(repo.name, window.week_start, "reviews"),
                ],
            )
            results.append(
                WeekReviews(
                    repo=repo.name,
                    window=window,
                    available=review_data.available,
                    reviews=len(review_data.reviews),
                    threads=len(review_data.threads),
                    unresolved_threads=sum(not t.is_resolved for t in review_data.threads),
                    thread_comments=sum(len(t.comments) for t in review_data.threads),
                    pr_comments=len(review_data.comments),
                )
            )
    return results
