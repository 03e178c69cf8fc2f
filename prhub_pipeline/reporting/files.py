"""Report files: `reports/OWNER/NAME/YYYY-MM-DD.{lang}.{md,html}` and an `index.html` per
repository, each written atomically so a reader never sees half a file."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from prhub_pipeline.records import LANGS, Lang, RenderedReport, ReportListing
from prhub_pipeline.reporting.render import render_index, report_file_name


def report_dir(reports_dir: Path, repo: str) -> Path:
    owner, name = repo.split("/", 1)
    return reports_dir / owner / name


class ReportDirError(Exception):
    """The reports folder cannot be created or written."""


def prepare_report_dir(reports_dir: Path, repo: str) -> Path:
    """The repository's reports folder, created if need be, before any report is stored: a
    report stored whose files cannot be written would leave the warehouse and the published
    files telling different weeks."""
    folder = report_dir(reports_dir, repo)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportDirError(
            f"reports_dir {reports_dir}: cannot create {folder}: {exc.strerror or exc}"
        ) from None  # the run's one-line error names the cause's message otherwise
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReportDirError(f"reports_dir {reports_dir}: {folder} is not writable")
    return folder


# What _write_atomic writes before its rename: `.2026-05-11.zh.md.<16 hex digits>.tmp`.
_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{16}\.tmp")


def remove_temporaries(folder: Path) -> list[Path]:
    """Remove the temporary files a run stopped mid-write left in a reports folder (a killed
    run, a full disk); call it while no other run writes reports (the warehouse's lock)."""
    removed = []
    for path in folder.iterdir() if folder.is_dir() else ():
        if _TEMPORARY.fullmatch(path.name) and path.is_file():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def published_url(reports_url: str, repo: str, week_start: date, lang: Lang) -> str:
    """The HTML report's address where the reports folder is published at `reports_url`."""
    return f"{reports_url.rstrip('/')}/{repo}/{report_file_name(week_start, lang, 'html')}"


def _write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file in the same folder, then rename: readers never see half a file.

    The temporary file is created with mode 0o666 less the umask, as a plain write would be
    (mkstemp's 0o600 would keep a web server from reading the published reports)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_report_files(
    reports_dir: Path,
    repo: str,
    week_start: date,
    rendered: Sequence[RenderedReport],
    index_entries: Sequence[ReportListing] | None = None,
    index_lang: Lang = "zh",
) -> list[Path]:
    """Write `reports/OWNER/NAME/YYYY-MM-DD.{lang}.{md,html}` and the repository's `index.html`.

    The index lists those of `index_entries` (e.g. `list_reports(con, repo)`) whose files are
    in the folder, as reports stored while `reports_dir` named another may not be; without
    them, every report file found in the folder after this write.
    """
    folder = report_dir(reports_dir, repo)
    written = []
    for report in rendered:
        for suffix, text in (("md", report.markdown), ("html", report.html)):
            path = folder / report_file_name(week_start, report.lang, suffix)
            _write_atomic(path, text)
            written.append(path)
    entries = (
        [
            entry
            for entry in index_entries
            if (folder / report_file_name(entry.week_start, entry.lang, "html")).is_file()
        ]
        if index_entries is not None
        else _listed_files(folder)
    )
    index = folder / "index.html"
    _write_atomic(index, render_index(repo, entries, lang=index_lang))
    written.append(index)
    return written


def files_behind(
    reports_dir: Path, repo: str, week_start: date, lang: Lang, since: datetime
) -> bool:
    """Whether a stored report's files are missing from the folder, or either was last written
    before `since` (the row's `generated_at`): the row is written first, so a run stopped
    between the two (killed, a full disk) left none, or an earlier run's."""
    folder = report_dir(reports_dir, repo)
    for suffix in ("md", "html"):
        try:
            modified = (folder / report_file_name(week_start, lang, suffix)).stat().st_mtime
        except FileNotFoundError:
            return True
        if modified < since.timestamp():
            return True
    return False


def restore_report_files(
    reports_dir: Path, repo: str, week_start: date, report: RenderedReport
) -> list[Path]:
    """Write each file of a stored report that does not hold its text (missing, or an earlier
    run's); return those written. The index is not: the run's own weeks write it next."""
    folder = report_dir(reports_dir, repo)
    written = []
    for suffix, text in (("md", report.markdown), ("html", report.html)):
        path = folder / report_file_name(week_start, report.lang, suffix)
        try:
            current: str | None = path.read_text(encoding="utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            current = None
        if current != text:
            _write_atomic(path, text)
            written.append(path)
        else:
            # Its text already (copied with its old time, or a file system keeping whole
            # seconds): dated now, so later runs need not read it and its row again.
            os.utime(path)
    return written


def _listed_files(folder: Path) -> list[ReportListing]:
    """Listings for the report files in a folder (without counts: files do not carry them)."""
    entries: list[ReportListing] = []
    for path in sorted(folder.glob("*.html")):
        stem = path.name.removesuffix(".html")
        week_text, _, lang = stem.rpartition(".")
        try:
            week = date.fromisoformat(week_text)
        except ValueError:
            continue
        entries.extend(
            ReportListing(week_start=week, lang=known) for known in LANGS if known == lang
        )
    return entries
