"""SQL models: each file in dbt_like_sql/ becomes an asset downstream of what it reads."""

from pathlib import Path

import dagster as dg

from prhub_pipeline.defs.resources import WAREHOUSE_POOL, PrhubSettings
from prhub_pipeline.defs.stage_runs import failure_naming, warehouse_writer
from prhub_pipeline.warehouse import connect
from prhub_pipeline.warehouse.sql_models import (
    SqlModel,
    drop_stale_models,
    load_models,
    materialize,
    model_names,
)

# Which asset writes each warehouse table a model may read with source().
TABLE_PRODUCERS: dict[str, str] = {
    "prs": "raw_prs",
    "pr_files": "raw_prs",
    "pr_config_files": "raw_prs",
    "pr_setting_changes": "raw_prs",
    "github_pages": "raw_prs",
    "pushed_commits": "raw_prs",
    "release_tags": "raw_prs",
    "late_prs": "raw_prs",
    "reviews": "review_threads",
    "review_threads": "review_threads",
    "review_thread_comments": "review_threads",
    "pr_comments": "review_threads",
    "pr_modules": "module_labels",
    "pr_themes": "module_labels",
    "pr_unknown_tags": "module_labels",
    "module_models": "module_classifier",
    "pr_scores": "importance_scores",
    "pr_risks": "importance_scores",
    "pr_reverts": "importance_scores",
    "weekly_reports": "weekly_report",
    "weekly_counts": "weekly_report",
    "display_names": "weekly_report",
}


def _rows_summary(rows: int, prhub: PrhubSettings) -> str:
    """The model's rows, which span every repository of the warehouse: `prhub materialize`
    prints them under the repository it ran for."""
    repos = len(prhub.load().repos)
    return f"{rows} rows" if repos == 1 else f"{rows} rows (all {repos} repositories)"


def _model_asset(model: SqlModel) -> dg.AssetsDefinition:
    deps = [dg.AssetKey(ref) for ref in model.refs]
    deps += sorted({dg.AssetKey(TABLE_PRODUCERS[source]) for source in model.sources})

    @dg.asset(
        name=model.name,
        deps=deps,
        group_name="sql_models",
        kinds={"duckdb", "sql"},
        pool=WAREHOUSE_POOL,
        description=model.description or f"SQL model {model.path.name}",
        metadata={
            "materialized": model.materialized,
            "file": dg.MetadataValue.path(str(model.path)),
            "sql": dg.MetadataValue.md(f"```sql\n{model.sql.strip()}\n```"),
        },
    )
    def sql_model(context: dg.AssetExecutionContext, prhub: PrhubSettings) -> dg.MaterializeResult:
        with failure_naming(f"SQL model {model.name}"):
            database = prhub.load().database
            with warehouse_writer(context, database), connect(database) as con:
                rows = materialize(con, model)
                # Each model's run tidies up, so a run of any of them drops what a removed
                # file made; the folder as it is now decides, not the one this code location
                # loaded.
                dropped = drop_stale_models(con, model_names(model.path.parent))
        dropped_note = f"; dropped stale {', '.join(dropped)}" if dropped else ""
        return dg.MaterializeResult(
            metadata={
                "rows": dg.MetadataValue.int(rows),
                "summary": _rows_summary(rows, prhub) + dropped_note,
            }
        )

    return sql_model


def build_sql_model_assets(folder: Path) -> list[dg.AssetsDefinition]:
    if not folder.is_dir():
        return []
    return [_model_asset(model) for model in load_models(folder, TABLE_PRODUCERS)]
