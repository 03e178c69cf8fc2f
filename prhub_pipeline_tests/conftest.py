from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prhub_pipeline.warehouse import connect
from prhub_pipeline.warehouse.connection import schema_version
from prhub_pipeline_tests.browser import CHROMIUM, CHROMIUM_ARGS
from prhub_pipeline_tests.gitrepo import GitRepo

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
VERL_PRS = SHARED / "data" / "verl" / "prs.jsonl"


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def write_config(folder: Path, git_path: Path, start: str = "2026-05-04", **extra: str) -> Path:
    """A settings file for one git repository, next to a database in `folder`."""
    lines = [
        "database: warehouse/prhub.duckdb",
        "timezone: Asia/Shanghai",
        *(f"{key}: {value}" for key, value in extra.items()),
        "repos:",
        "  - name: acme/widgets",
        "    source: git",
        f"    git_path: {git_path}",
        f"    start: {start}",
    ]
    path = folder / "prhub.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def empty_warehouse(database: Path) -> Path:
    """A warehouse with every table migrated and no rows, as a first run opens it."""
    with connect(database) as con:
        assert schema_version(con) > 0
    return database


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The distribution's Chromium under Playwright, one per test module that asks for it (the
    modules skip without Chromium or Playwright)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), headless=True
        )
        yield chromium
        chromium.close()
