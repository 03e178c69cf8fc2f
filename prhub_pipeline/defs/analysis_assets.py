"""Analysis stages: the module classifier, module labels and themes, importance and risks,
and the weekly report."""

from collections.abc import Sequence
from pathlib import Path

import dagster as dg

from prhub_pipeline.defs.partitions import REPO_DIMENSION, partition_key
from prhub_pipeline.defs.reanalysis import ANALYSED_AGAIN_TAG
from prhub_pipeline.defs.resources import WAREHOUSE_POOL, PrhubSettings
from prhub_pipeline.defs.stage_runs import (
    failure_naming,
    run_weekly_stage,
    warehouse_writer,
    week_metadata,
)
from prhub_pipeline.stages.modules import (
    ClassifierSummary,
    WeekModules,
    label_weeks,
    tally_modules,
    train_classifier,
)
from prhub_pipeline.stages.quality import (
    check_modules,
    check_reports,
    check_scores,
)
from prhub_pipeline.stages.report import RestoredReport, WeekReport, report_weeks
from prhub_pipeline.stages.scoring import WeekScores, score_weeks
from prhub_pipeline.stages.text import counted


def _classifier_metadata(summary: ClassifierSummary) -> dict[str, dg.MetadataValue]:
    metrics = summary.metrics
    metadata: dict[str, dg.MetadataValue] = {
        "summary": dg.MetadataValue.text(summary.describe()),
        "status": dg.MetadataValue.text(summary.status),
        "training_size": dg.MetadataValue.int(metrics.training_size),
        "validation_size": dg.MetadataValue.int(metrics.validation_size),
        "label_counts": dg.MetadataValue.json(metrics.label_counts),
        "per_label_f1": dg.MetadataValue.json(metrics.per_label_f1),
        "train_seconds": dg.MetadataValue.float(metrics.train_seconds),
        "model_version": dg.MetadataValue.text(metrics.model_version or "none"),
    }
    if metrics.validation_micro_f1 is not None:
        metadata["validation_micro_f1"] = dg.MetadataValue.float(metrics.validation_micro_f1)
    if metrics.validation_macro_f1 is not None:
        metadata["validation_macro_f1"] = dg.MetadataValue.float(metrics.validation_macro_f1)
    if metrics.linear_training_size is not None:  # the latest PRs, which the linear models fit
        metadata["linear_training_size"] = dg.MetadataValue.int(metrics.linear_training_size)
    if metrics.chosen_params:  # what validation chose: regularisation, recency, memory weights
        metadata["chosen_params"] = dg.MetadataValue.json(metrics.chosen_params)
    if metrics.area_tagged_share is not None:
        metadata["area_tagged_share"] = dg.MetadataValue.float(metrics.area_tagged_share)
    return metadata


def _counts_table(rows: dict[str, int]) -> dg.MetadataValue:
    return dg.MetadataValue.md(
        "| name | PRs |\n| --- | --- |\n"
        + "\n".join(f"| {name} | {count} |" for name, count in sorted(rows.items()))
    )


def _modules_metadata(results: Sequence[WeekModules]) -> dict[str, dg.MetadataValue]:
    tally = tally_modules(results)
    return {
        "summary": dg.MetadataValue.text(tally.summary),
        "modules": _counts_table(tally.modules),
        "themes": _counts_table(tally.themes),
        "unknown_tags": _counts_table(tally.unknown_tags),
        "origins": dg.MetadataValue.json(tally.origins),
        "model_version": dg.MetadataValue.text(tally.model_version or "none"),
    }


def _scores_metadata(results: Sequence[WeekScores]) -> dict[str, dg.MetadataValue]:
    risks: dict[str, int] = {}
    for result in results:
        for risk, count in result.risks.items():
            risks[risk] = risks.get(risk, 0) + count
    key = sum(len(r.key_prs) for r in results)
    calibration = results[-1].calibration if results else None  # the latest week's
    return {
        "summary": dg.MetadataValue.text(
            f"{counted(sum(r.pr_count for r in results), 'PR')} scored, {key} key, "
            f"{counted(sum(risks.values()), 'risk flag')}"
        ),
        "risks": _counts_table(risks),
        "calibration": dg.MetadataValue.text(
            f"{calibration.method} on the latest {calibration.history_size} PRs up to"
            f" {results[-1].window.key}"
            if calibration
            else "none"
        ),
        "top": dg.MetadataValue.json({r.window.key: r.top[:5] for r in results[-10:]}),
    }


def _report_metadata(
    results: Sequence[WeekReport], analysed_again: str | None = None
) -> dict[str, dg.MetadataValue]:
    """`analysed_again`: why the run's weeks were analysed again (ANALYSED_AGAIN_TAG)."""
    notes = [f"analysed again from the stored PRs: {analysed_again}"] if analysed_again else []
    metadata: dict[str, dg.MetadataValue] = {
        "summary": dg.MetadataValue.text(
            "; ".join(
                [
                    f"{len(results)} report(s) in zh and en; files under "
                    + (str(results[0].files[0].parent) if results and results[0].files else "-"),
                    *notes,
                ]
            )
        ),
        "files": dg.MetadataValue.json([str(path) for r in results for path in r.files][:40]),
    }
    return metadata


RESTORED_NOTE = "missing from the folder or an earlier run's, written back from the warehouse"


def _restored_summary(restored: Sequence[RestoredReport]) -> str:
    """What the run's summary says of the other weeks' report files it wrote back; each
    week's observation names its own."""
    weeks = sorted({str(report.week_start) for report in restored})
    more = f" and {len(weeks) - 5} more" if len(weeks) > 5 else ""
    files = sum(len(report.files) for report in restored)
    return (
        f"{counted(files, 'file')} of stored reports, {RESTORED_NOTE}"
        f" (weeks {', '.join(weeks[:5])}{more})"
    )


def _restored_observation(asset_key: dg.AssetKey, restored: RestoredReport) -> dg.AssetObservation:
    """On the restored week's own partition, where a user looks for that week's report: a
    run's metadata sits on the run's weeks, and the last of them claimed the files."""
    return dg.AssetObservation(
        asset_key=asset_key,
        partition=partition_key(restored.repo, restored.week_start),
        metadata={
            "summary": dg.MetadataValue.text(
                f"{counted(len(restored.files), 'file')} of this week's stored report,"
                f" {RESTORED_NOTE}"
            ),
            **_report_files(restored.files),
        },
    )


def _report_files(files: Sequence[Path]) -> dict[str, dg.MetadataValue]:
    """One path entry per written file, `file_en_html` for `2026-05-11.en.html` and
    `file_index` for the repository's `index.html`: the UI shows each as a copyable path."""
    return {
        (
            "file_index"
            if path.name == "index.html"
            else "file_" + "_".join(path.name.split(".")[1:])
        ): dg.MetadataValue.path(str(path))
        for path in files
    }


def build_analysis_assets(
    repo_weeks: dg.MultiPartitionsDefinition, repos: dg.StaticPartitionsDefinition
) -> list[dg.AssetsDefinition]:
    @dg.asset(
        partitions_def=repos,
        group_name="modelling",
        kinds={"scikitlearn", "duckdb"},
        pool=WAREHOUSE_POOL,
        deps=[
            dg.AssetDep(
                "raw_prs",
                partition_mapping=dg.MultiToSingleDimensionPartitionMapping(REPO_DIMENSION),
            )
        ],
        check_specs=[
            dg.AssetCheckSpec(
                "validation_micro_f1_above_threshold",
                asset="module_classifier",
                description=(
                    "The classifier's micro-F1 on its time-ordered validation fifth is at least"
                    " modules.min_micro_f1 (WARN: the model is stored and used all the same; a"
                    " PR's own tags still win)."
                ),
            )
        ],
        description=(
            "The repository's module classifier, trained on every PR the warehouse holds whose"
            " title carries the repository's own module tags (or mapped labels), validated on"
            " the most recent PRs (a time-ordered split), then refitted on all. Stored without"
            " pickle in table module_models."
        ),
    )
    def module_classifier(
        context: dg.AssetExecutionContext, prhub: PrhubSettings
    ) -> dg.MaterializeResult:
        with failure_naming(context.partition_key):
            settings = prhub.load()
            with warehouse_writer(context, settings.database):
                summary = train_classifier(settings, settings.repo(context.partition_key))
        f1 = summary.metrics.validation_micro_f1
        return dg.MaterializeResult(
            metadata=_classifier_metadata(summary),
            check_results=[
                dg.AssetCheckResult(
                    check_name="validation_micro_f1_above_threshold",
                    passed=summary.passes_threshold,
                    # Labels stay right without a good model (own tags first, then none):
                    # a warning, not a block.
                    severity=dg.AssetCheckSeverity.WARN,
                    # No model, no F1: a 0.0 would plot beside the trained models' scores.
                    # The check shows its latest run, of whichever repository: the detail
                    # names it, as the weekly checks' do.
                    metadata={
                        "detail": dg.MetadataValue.text(f"{summary.repo}: {summary.describe()}"),
                        **(
                            {"validation_micro_f1": dg.MetadataValue.float(f1)}
                            if f1 is not None
                            else {}
                        ),
                        "threshold": dg.MetadataValue.float(summary.min_micro_f1),
                        "status": dg.MetadataValue.text(summary.status),
                    },
                )
            ],
        )

    @dg.asset(
        partitions_def=repo_weeks,
        group_name="modelling",
        kinds={"duckdb"},
        pool=WAREHOUSE_POOL,
        deps=[
            "raw_prs",
            dg.AssetDep(
                module_classifier,
                partition_mapping=dg.MultiToSingleDimensionPartitionMapping(REPO_DIMENSION),
            ),
        ],
        backfill_policy=dg.BackfillPolicy.single_run(),
        check_specs=[
            dg.AssetCheckSpec(
                "every_pr_has_a_module",
                asset="module_labels",
                description=(
                    "Every PR of the weeks has a module, from its tags or the classifier (WARN,"
                    " not blocking: the metadata lists the PRs without one, by week)."
                ),
            )
        ],
        description=(
            "Modules of each PR with their origin (title, label or model) and confidence, and"
            " the cross-cutting themes the rules find. Tables: pr_modules, pr_themes,"
            " pr_unknown_tags."
        ),
    )
    def module_labels(
        context: dg.AssetExecutionContext, prhub: PrhubSettings
    ) -> dg.MaterializeResult:
        labelled = run_weekly_stage(context, prhub, label_weeks, check_modules)
        metadata = week_metadata(context, labelled, _modules_metadata)
        return dg.MaterializeResult(metadata=metadata, check_results=labelled.checks)

    @dg.asset(
        partitions_def=repo_weeks,
        group_name="scoring",
        kinds={"duckdb"},
        pool=WAREHOUSE_POOL,
        deps=["module_labels", "review_threads"],
        backfill_policy=dg.BackfillPolicy.single_run(),
        check_specs=[
            dg.AssetCheckSpec(
                "scores_within_0_10",
                asset="importance_scores",
                blocking=True,
                description=(
                    "Every stored importance lies in 0-10 (ERROR: later assets of the run are"
                    " skipped)."
                ),
            ),
            dg.AssetCheckSpec(
                "every_pr_scored",
                asset="importance_scores",
                blocking=True,
                description=(
                    "Each week has as many scores as PRs (ERROR: later assets of the run are"
                    " skipped)."
                ),
            ),
        ],
        description=(
            "Importance 0-10 (one decimal) of each PR with its parts (type, breaking, size,"
            " core, breadth, fix impact, review, revert), calibrated on the repository's"
            " stored PRs of the year up to the week; risk flags with evidence; the PRs the"
            " week's reverts undo. Tables: pr_scores, pr_risks, pr_reverts."
        ),
    )
    def importance_scores(
        context: dg.AssetExecutionContext, prhub: PrhubSettings
    ) -> dg.MaterializeResult:
        scored = run_weekly_stage(context, prhub, score_weeks, check_scores)
        metadata = week_metadata(context, scored, _scores_metadata)
        return dg.MaterializeResult(metadata=metadata, check_results=scored.checks)

    @dg.asset(
        partitions_def=repo_weeks,
        group_name="reporting",
        kinds={"duckdb", "markdown", "html"},
        pool=WAREHOUSE_POOL,
        deps=["importance_scores"],
        backfill_policy=dg.BackfillPolicy.single_run(),
        check_specs=[
            dg.AssetCheckSpec(
                "report_in_every_language",
                asset="weekly_report",
                description=("Each week has a stored report in every language (zh and en)."),
            ),
            dg.AssetCheckSpec(
                "report_covers_every_pr",
                asset="weekly_report",
                description=(
                    "Each report, Markdown and HTML, links every PR the warehouse holds for its"
                    " week."
                ),
            ),
        ],
        description=(
            "The week's report in Chinese and English, Markdown and HTML: summary, key changes"
            " by theme, module and theme trends, risks, key PRs, follow-ups. Table"
            " weekly_reports; files under reports_dir. Each partition's Markdown report shows"
            " here as its materialization's `report` metadata. Besides its own week it reads"
            " the previous week's labels (the trends) and the stored history (new authors,"
            " earlier weeks' review and test shares): re-run a week after re-running the one"
            " before it."
        ),
    )
    def weekly_report(
        context: dg.AssetExecutionContext, prhub: PrhubSettings
    ) -> dg.MaterializeResult:
        restored: list[RestoredReport] = []

        def tell_restored(report: RestoredReport) -> None:
            restored.append(report)
            context.log_event(_restored_observation(context.asset_key, report))

        reported = run_weekly_stage(
            context,
            prhub,
            lambda settings, repo, weeks: report_weeks(settings, repo, weeks, tell_restored),
            check_reports,
        )
        for result in reported.results:
            # A backfill run materializes many partitions: each event carries its own week's
            # report, so a partition's page in the UI shows that week and not the range's last.
            # The UI plots the numbers across the weeks.
            context.add_asset_metadata(
                {
                    "report": dg.MetadataValue.md(result.markdown),
                    "pr_count": dg.MetadataValue.int(result.pr_count),
                    "key_pr_count": dg.MetadataValue.int(result.key_pr_count),
                    "risk_flags": dg.MetadataValue.int(result.risk_flags),
                    **_report_files(result.files),
                },
                partition_key=partition_key(result.repo, result.window.week_start),
            )
        analysed_again = context.run.tags.get(ANALYSED_AGAIN_TAG)
        metadata = week_metadata(
            context, reported, lambda group: _report_metadata(group, analysed_again)
        )
        if restored:  # the run's summary, not one of its weeks'
            summary = "run_summary" if "run_summary" in metadata else "summary"
            metadata[summary] = dg.MetadataValue.text(
                f"{metadata[summary].value}; {_restored_summary(restored)}"
            )
        return dg.MaterializeResult(metadata=metadata, check_results=reported.checks)

    return [module_classifier, module_labels, importance_scores, weekly_report]
