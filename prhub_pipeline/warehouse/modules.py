"""Storing module labels, themes, unknown tags and the trained module classifier."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

import duckdb

from prhub_pipeline.records import ModuleLabel, StoredModelPayload, ThemeTag, UnknownTag
from prhub_pipeline.warehouse.connection import WarehouseError, read_sql, transaction
from prhub_pipeline.warehouse.partitions import TableRows

MODULE_COLUMNS = ("repo", "number", "week_start", "module", "origin", "confidence")
THEME_COLUMNS = ("repo", "number", "week_start", "theme")
UNKNOWN_TAG_COLUMNS = ("repo", "number", "week_start", "tag")


def module_tables(
    week_start: date,
    labels: Sequence[ModuleLabel],
    themes: Sequence[ThemeTag],
    unknown: Sequence[UnknownTag],
) -> list[TableRows]:
    """The `pr_modules`, `pr_themes` and `pr_unknown_tags` rows of one partition."""
    return [
        TableRows(
            "pr_modules",
            MODULE_COLUMNS,
            [
                (x.repo, x.number, week_start, x.module, x.origin, float(x.confidence))
                for x in labels
            ],
        ),
        TableRows(
            "pr_themes", THEME_COLUMNS, [(x.repo, x.number, week_start, x.theme) for x in themes]
        ),
        TableRows(
            "pr_unknown_tags",
            UNKNOWN_TAG_COLUMNS,
            [(x.repo, x.number, week_start, x.tag) for x in unknown],
        ),
    ]


def save_model_payload(
    con: duckdb.DuckDBPyConnection, stored: StoredModelPayload, keep: int | None = None
) -> None:
    """Add a trained model to `module_models` in one transaction.

    Earlier models stay (history) up to `keep` per repository, newest by training time;
    `read_model_payload` reads the newest. Saving the same version twice replaces that row.
    """
    if keep is not None and keep < 1:
        raise ValueError(f"keep must be at least 1 (the model being saved), got {keep}")
    try:
        with transaction(con):
            con.execute(
                "DELETE FROM module_models WHERE repo = ? AND model_version = ?",
                [stored.repo, stored.model_version],
            )
            con.execute(
                "INSERT INTO module_models"
                " (repo, model_version, trained_at, stored_at, payload, sha256, metrics)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    stored.repo,
                    stored.model_version,
                    stored.trained_at,
                    datetime.now(UTC),
                    stored.payload,
                    stored.sha256,
                    stored.metrics_json or "null",
                ],
            )
            if keep is not None:
                con.execute(
                    read_sql("prune_module_models.sql"), {"repo": stored.repo, "keep": keep}
                )
    except duckdb.Error as exc:
        raise WarehouseError(
            f"saving the module classifier of {stored.repo} failed: {exc}"
        ) from exc


def read_model_payload(con: duckdb.DuckDBPyConnection, repo: str) -> StoredModelPayload | None:
    """The newest stored classifier of a repository as stored, or None when none was trained."""
    row = con.execute(
        "SELECT model_version, trained_at, payload, sha256, metrics FROM module_models"
        " WHERE repo = ? ORDER BY trained_at DESC, stored_at DESC LIMIT 1",
        [repo],
    ).fetchone()
    if row is None:
        return None
    version, trained_at, payload, digest, metrics = row
    return StoredModelPayload(
        repo=repo,
        model_version=version,
        trained_at=trained_at,
        payload=bytes(payload),
        sha256=digest,
        metrics_json=None if metrics in (None, "null") else metrics,
    )


def _range(week_start: date | None, through: date | None) -> tuple[date, date]:
    return week_start or date.min, through or week_start or date.max


def read_module_labels(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    week_start: date | None = None,
    *,
    through: date | None = None,
) -> list[ModuleLabel]:
    """Module labels of one week, a range of weeks (`through` inclusive), or all."""
    rows = con.execute(
        "SELECT repo, number, module, origin, confidence FROM pr_modules"
        " WHERE repo = ? AND week_start BETWEEN ? AND ? ORDER BY number, module",
        [repo, *_range(week_start, through)],
    ).fetchall()
    return [
        ModuleLabel(repo=r, number=n, module=m, origin=o, confidence=c) for r, n, m, o, c in rows
    ]


def read_themes(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    week_start: date | None = None,
    *,
    through: date | None = None,
) -> list[ThemeTag]:
    """Theme tags of one week, a range of weeks (`through` inclusive), or all."""
    rows = con.execute(
        "SELECT repo, number, theme FROM pr_themes"
        " WHERE repo = ? AND week_start BETWEEN ? AND ? ORDER BY number, theme",
        [repo, *_range(week_start, through)],
    ).fetchall()
    return [ThemeTag(repo=r, number=n, theme=t) for r, n, t in rows]


def read_unknown_tags(
    con: duckdb.DuckDBPyConnection,
    repo: str,
    week_start: date | None = None,
    *,
    through: date | None = None,
) -> list[UnknownTag]:
    """Title tags outside the module list, for one week, a range of weeks, or all."""
    rows = con.execute(
        "SELECT repo, number, tag FROM pr_unknown_tags"
        " WHERE repo = ? AND week_start BETWEEN ? AND ? ORDER BY number, tag",
        [repo, *_range(week_start, through)],
    ).fetchall()
    return [UnknownTag(repo=r, number=n, tag=t) for r, n, t in rows]
