"""Ingest stage: raw_prs (and, with the GitHub source, review threads)."""

from collections.abc import Sequence

import dagster as dg

from prhub_pipeline.defs.resources import WAREHOUSE_POOL, PrhubSettings
from prhub_pipeline.defs.stage_runs import check_results, run_weekly_stage, week_metadata
from prhub_pipeline.stages.ingest import (
    WeekIngest,
    WeekReviews,
    check_source,
    clone_coverage,
    clone_updates,
    ingest_summary,
    ingest_weeks,
    store_review_weeks,
)
from prhub_pipeline.stages.quality import check_ingest
from prhub_pipeline.stages.text import counted

PREVIEW_SCHEMA = dg.TableSchema(
    columns=[
        dg.TableColumn("number", "int"),
        dg.TableColumn("title", "string"),
        dg.TableColumn("author", "string"),
        dg.TableColumn("merged_at", "string"),
        dg.TableColumn("+/-", "string"),
    ]
)


def _ingest_metadata(results: Sequence[WeekIngest]) -> dict[str, dg.MetadataValue]:
    total = sum(result.pr_count for result in results)
    weeks = dg.MetadataValue.table(
        records=[
            dg.TableRecord(
                {
                    "repo": r.repo,
                    "week": r.window.key,
                    "local": f"{r.window.start.isoformat()} .. {r.window.end.isoformat()}",
                    "utc": f"{r.window.start_utc.isoformat()} .. {r.window.end_utc.isoformat()}",
                    "prs": r.pr_count,
                    "files": r.file_count,
                    "config_files": r.config_files,
                    "setting_changes": r.setting_changes,
                }
            )
            for r in results
        ],
        schema=dg.TableSchema(
            columns=[
                dg.TableColumn("repo", "string"),
                dg.TableColumn("week", "string"),
                dg.TableColumn("local", "string"),
                dg.TableColumn("utc", "string"),
                dg.TableColumn("prs", "int"),
                dg.TableColumn("files", "int"),
                dg.TableColumn("config_files", "int"),
                dg.TableColumn("setting_changes", "int"),
            ]
        ),
    )
    preview_prs = [pr for r in results for pr in r.preview][:50]
    preview = dg.MetadataValue.table(
        records=[
            dg.TableRecord(
                {
                    "number": pr.number,
                    "title": pr.title[:200],
                    "author": pr.author or "",
                    "merged_at": pr.merged_at.isoformat(),
                    "+/-": f"+{pr.additions} -{pr.deletions}",
                }
            )
            for pr in preview_prs
        ],
        schema=PREVIEW_SCHEMA,
    )
    clones = clone_updates(results)
    counts = [r.pushed_commits for r in results if r.pushed_commits is not None]
    metadata: dict[str, dg.MetadataValue] = {
        "summary": dg.MetadataValue.text(ingest_summary(results)),
        "pr_count": dg.MetadataValue.int(total),
        "weeks": weeks,
        "preview": preview,
    }
    github = [r.github for r in results if r.github is not None]
    if github:
        metadata["github_requests"] = dg.MetadataValue.int(sum(s.requests for s in github))
        metadata["github_points_spent"] = dg.MetadataValue.int(sum(s.points_spent for s in github))
        metadata["github_retries"] = dg.MetadataValue.int(sum(s.retries for s in github))
        metadata["github_rate_limit_wait_seconds"] = dg.MetadataValue.float(
            sum(s.rate_limit_waits_seconds for s in github)
        )
    if len(clones) == 1:
        metadata["clone_update"] = dg.MetadataValue.text(next(iter(clones.values())).status)
    if counts:
        metadata["pushed_commits"] = dg.MetadataValue.int(sum(counts))
    if len(results) == 1:
        window = results[0].window
        metadata["window_local"] = dg.MetadataValue.text(
            f"{window.start.isoformat()} .. {window.end.isoformat()}"
        )
        metadata["window_utc"] = dg.MetadataValue.text(
            f"{window.start_utc.isoformat()} .. {window.end_utc.isoformat()}"
        )
    return metadata


def build_ingest_assets(
    partitions_def: dg.MultiPartitionsDefinition,
) -> list[dg.AssetsDefinition]:
    @dg.asset(
        partitions_def=partitions_def,
        group_name="ingest",
        kinds={"duckdb"},
        pool=WAREHOUSE_POOL,
        backfill_policy=dg.BackfillPolicy.single_run(),
        check_specs=[
            dg.AssetCheckSpec(
                "no_duplicate_prs",
                asset="raw_prs",
                blocking=True,
                description=(
                    "No merge commit is stored as more than one PR (ERROR: later assets of the run"
                    " are skipped)."
                ),
            ),
            dg.AssetCheckSpec(
                "prs_inside_their_week",
                asset="raw_prs",
                blocking=True,
                description=(
                    "Every PR merged inside the window of the week it is filed under, in the"
                    " configured time zone (ERROR: later assets of the run are skipped)."
                ),
            ),
            dg.AssetCheckSpec(
                "clone_reaches_the_week",
                asset="raw_prs",
                description=(
                    "Git source: no week starts after the newest commit of a clone that was not"
                    " fetched (WARN: a quiet week, or a clone nobody updated, whose report says"
                    " that no PR was merged)."
                ),
            ),
        ],
        description=(
            "Merged pull requests of a repository and week with their files, read from the"
            " configured source (git clone or GitHub), and the settings each PR changed in its"
            " configuration files, the version tags of the week, and (git source) the commits"
            " pushed without a PR. Tables: prs, pr_files, pr_config_files,"
            " pr_setting_changes, pushed_commits, release_tags, late_prs."
        ),
    )
    def raw_prs(context: dg.AssetExecutionContext, prhub: PrhubSettings) -> dg.MaterializeResult:
        ingested = run_weekly_stage(
            context, prhub, ingest_weeks, check_ingest, preflight=check_source
        )
        results, checks = ingested.results, ingested.checks
        for repo, clone in clone_updates(results).items():
            log = context.log.warning if clone.status == "failed" else context.log.info
            log(f"{repo}: git clone: {clone.message}")
        behind = {(r.repo, r.clone_behind) for r in results if r.clone_behind}
        for repo, note in sorted(behind):
            context.log.warning(f"{repo}: git clone: {note}")
        for note in dict.fromkeys(r.late_prs for r in results if r.late_prs):
            context.log.warning(note)
        # This check is the asset's own, from what the source read: it replaces the stand-in
        # of run_weekly_stage unless the run had no week.
        coverage = check_results(clone_coverage(results))
        if coverage:
            checks = [c for c in checks if c.check_name != "clone_reaches_the_week"] + coverage
        for result in results:
            context.log.info(
                f"{result.repo} week {result.window.key}: {counted(result.pr_count, 'PR')}"
            )
            if result.pushed_commits:  # the run's summary gives the total
                context.log.info(
                    f"{result.repo} week {result.window.key}:"
                    f" {counted(result.pushed_commits, 'commit')} pushed without a PR"
                )
            if result.unread_config:
                context.log.warning(
                    f"{result.repo} week {result.window.key}: {result.unread_config}"
                )
        metadata = week_metadata(context, ingested, _ingest_metadata)
        return dg.MaterializeResult(metadata=metadata, check_results=checks)

    @dg.asset(
        partitions_def=partitions_def,
        group_name="ingest",
        kinds={"duckdb"},
        pool=WAREHOUSE_POOL,
        deps=[raw_prs],
        backfill_policy=dg.BackfillPolicy.single_run(),
        description=(
            "Reviews, review threads (with isResolved and every comment) and PR comments,"
            " rebuilt from the GitHub responses raw_prs stored, never re-fetched. With the git"
            " source the partition is empty and marked unavailable. Tables: reviews,"
            " review_threads, review_thread_comments, pr_comments."
        ),
    )
    def review_threads(
        context: dg.AssetExecutionContext, prhub: PrhubSettings
    ) -> dg.MaterializeResult:
        reviews = run_weekly_stage(context, prhub, store_review_weeks)
        return dg.MaterializeResult(metadata=week_metadata(context, reviews, _review_metadata))

    return [raw_prs, review_threads]


def _review_metadata(results: Sequence[WeekReviews]) -> dict[str, dg.MetadataValue]:
    available = [r for r in results if r.available]
    if not available:
        note = "review data is unavailable for this source (git): no reviews are stored"
        return {
            "summary": dg.MetadataValue.text(note),
            "review_data_available": dg.MetadataValue.bool(False),
        }
    threads = sum(r.threads for r in available)
    unresolved = sum(r.unresolved_threads for r in available)
    return {
        "summary": dg.MetadataValue.text(
            f"{counted(sum(r.reviews for r in available), 'review')}, {counted(threads, 'thread')}"
            f" ({unresolved} unresolved at merge) in {len(available)} week(s)"
        ),
        "review_data_available": dg.MetadataValue.bool(len(available) == len(results)),
        "reviews": dg.MetadataValue.int(sum(r.reviews for r in available)),
        "review_threads": dg.MetadataValue.int(threads),
        "unresolved_threads": dg.MetadataValue.int(unresolved),
        "thread_comments": dg.MetadataValue.int(sum(r.thread_comments for r in available)),
        "pr_comments": dg.MetadataValue.int(sum(r.pr_comments for r in available)),
    }
