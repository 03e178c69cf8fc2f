"""Ingest stage: raw_prs (and, with the GitHub source, review threads)."""

from collections.abc import Sequence

import dagster as dg

from prhub_pipeline.defs.partitions import weeks_by_repo
from prhub_pipeline.defs.resources import WAREHOUSE_POOL, PrhubSettings
from prhub_pipeline.stages.ingest import WeekIngest, ingest_weeks, verify_ingest
from prhub_pipeline.warehouse.quality import CheckOutcome

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
    metadata: dict[str, dg.MetadataValue] = {
        "summary": dg.MetadataValue.text(f"{total} PRs in {len(results)} week(s)"),
        "pr_count": dg.MetadataValue.int(total),
        "weeks": weeks,
        "preview": preview,
    }
    if len(results) == 1:
        window = results[0].window
        metadata["window_local"] = dg.MetadataValue.text(
            f"{window.start.isoformat()} .. {window.end.isoformat()}"
        )
        metadata["window_utc"] = dg.MetadataValue.text(
            f"{window.start_utc.isoformat()} .. {window.end_utc.isoformat()}"
        )
    return metadata


def check_results(outcomes: Sequence[CheckOutcome]) -> list[dg.AssetCheckResult]:
    """One result per check name, failing if any repository's outcome failed."""
    by_name: dict[str, list[CheckOutcome]] = {}
    for outcome in outcomes:
        by_name.setdefault(outcome.name, []).append(outcome)
    return [
        dg.AssetCheckResult(
            check_name=name,
            passed=all(o.passed for o in group),
            metadata={
                "detail": dg.MetadataValue.text("; ".join(o.detail for o in group)),
                "offending": dg.MetadataValue.json([x for o in group for x in o.offending]),
            },
        )
        for name, group in by_name.items()
    ]


def build_ingest_assets(
    partitions_def: dg.MultiPartitionsDefinition,
) -> list[dg.AssetsDefinition]:
    @dg.asset(
        partitions_def=partitions_def,
        group_name="ingest",
        kinds={"duckdb", "git"},
        pool=WAREHOUSE_POOL,
        backfill_policy=dg.BackfillPolicy.single_run(),
        check_specs=[
            dg.AssetCheckSpec("no_duplicate_prs", asset="raw_prs", blocking=True),
            dg.AssetCheckSpec("prs_inside_their_week", asset="raw_prs", blocking=True),
        ],
        description=(
            "Merged pull requests of a repository and week with their files, read from the"
            " configured source (git clone or GitHub). Tables: prs, pr_files."
        ),
    )
    def raw_prs(context: dg.AssetExecutionContext, prhub: PrhubSettings) -> dg.MaterializeResult:
        settings = prhub.load()
        results: list[WeekIngest] = []
        outcomes: list[CheckOutcome] = []
        for repo_name, weeks in weeks_by_repo(context.partition_keys).items():
            repo = settings.repo(repo_name)
            for week_result in ingest_weeks(settings, repo, weeks):
                context.log.info(
                    f"{repo_name} week {week_result.window.key}: {week_result.pr_count} PRs"
                )
                results.append(week_result)
            outcomes.extend(verify_ingest(settings, repo, weeks))
        return dg.MaterializeResult(
            metadata=_ingest_metadata(results), check_results=check_results(outcomes)
        )

    return [raw_prs]
