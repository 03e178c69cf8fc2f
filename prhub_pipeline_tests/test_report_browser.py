"""The HTML report opened in a real headless Chromium: it renders, and shows its sections."""

from __future__ import annotations

import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from prhub_pipeline.records import Lang
from prhub_pipeline.reporting.render import render_report
from prhub_pipeline_tests.browser import CHROMIUM, CHROMIUM_ARGS, requires_chromium
from prhub_pipeline_tests.test_report import HOSTILE_TITLE, context_for, week_prs

pytestmark = requires_chromium("browser check")
SECTION_IDS = (
    "header",
    "summary",
    "key-changes",
    "trends",
    "risks",
    "quick-view",
    "suggestions",
    "appendix",
)


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(CHROMIUM),
        "--headless",
        *CHROMIUM_ARGS,
        f"--user-data-dir={tmp_path / 'profile'}",
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the decompressed scanlines of a PNG (no imaging library needed)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    offset, width, height, chunks = 8, 0, 0, []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    return width, height, zlib.decompress(b"".join(chunks))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_html_report_renders_in_chromium(tmp_path: Path, lang: Lang) -> None:
    page = tmp_path / f"report.{lang}.html"
    page.write_text(render_report(context_for(week_prs(), lang), lang, "html"), encoding="utf-8")

    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    for section in SECTION_IDS:
        assert f'id="{section}"' in dom.stdout, f"section {section} missing from the rendered DOM"
    assert "<svg" in dom.stdout
    # The hostile title is text in the DOM, never an element.
    assert "<script" not in dom.stdout
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom.stdout
    assert HOSTILE_TITLE.split("\n")[0].split("<")[0] in dom.stdout

    shot = tmp_path / f"report.{lang}.png"
    run = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,3000", page.as_uri())
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    width, height, pixels = png_pixels(shot)
    assert (width, height) == (1200, 3000)
    # A blank page is one colour; a rendered report has text, bars and table lines.
    assert len(set(pixels[: len(pixels) // 2])) > 50


def test_tables_stay_readable_on_a_phone(tmp_path: Path) -> None:
    """At a phone's width the trends table's name and composition columns shrank to one
    character a line (`overflow-wrap: anywhere` in the cells); they keep their words now, and
    the table scrolls sideways instead."""
    html = render_report(context_for(week_prs(), "en"), "en", "html")
    # The report allows no script; this copy measures the cells it lays out.
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    probe = (
        "<script>document.body.dataset.narrowest = Math.min(...Array.from("
        "document.querySelectorAll('#trends td:not(.num)'), td => td.getBoundingClientRect()"
        ".width));</script>"
    )
    page = tmp_path / "phone.html"
    page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, "--window-size=390,2000", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'data-narrowest="([\d.]+)"', dom.stdout)
    assert found is not None, "the probe did not run"
    assert float(found.group(1)) >= 50
