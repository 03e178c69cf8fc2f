"""The HTML report opened in a real headless Chromium: it renders, and shows its sections."""

from __future__ import annotations

import re
import struct
import subprocess
import zlib
from html import unescape as html_unescape
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


def probed(tmp_path: Path, html: str, width: int, expression: str) -> str:
    """What `expression` (JavaScript) says of the page laid out `width` px wide: the report allows
    no script, so a copy without its Content-Security-Policy runs it and keeps the answer."""
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    probe = f"<script>document.body.dataset.probed = JSON.stringify({expression});</script>"
    page = tmp_path / f"probed.{width}.html"
    page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, f"--window-size={width},2000", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'data-probed="([^"]*)"', dom.stdout)
    assert found is not None, "the probe did not run"
    return html_unescape(found.group(1))


# The texts among `selector`'s cells that the layout breaks across lines: a cell's whole text, or
# each of its `separator`-separated items.
SPLIT_TEXTS = """((selector, separator) => {
  const lines = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top))).size;
  };
  const split = [];
  for (const cell of document.querySelectorAll(selector)) {
    const items = separator ? cell.textContent.split(separator) : [cell.textContent];
    for (const item of items) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf(item);
        if (item && at >= 0 && lines(node, at, at + item.length) > 1) split.push(item);
      }
    }
  }
  return split;
})"""


@pytest.mark.parametrize("width", [1280, 390])
def test_chinese_table_cells_keep_their_words(tmp_path: Path, width: int) -> None:
    """Chinese may break between any two characters, so the trends table's kind column read
    模/块 and its header 类/别, one character a line even at 1280 px, and on a phone its
    composition read 修复 1 / 个、回退 1 / 个 (verl 2026-05-11): labels keep their words, and a
    composition breaks between its items."""
    html = render_report(context_for(week_prs(), "zh"), "zh", "html")
    label_cells = "#trends th, #trends td:nth-child(2), #appendix th, #appendix td:nth-child(3)"
    labels = f"{SPLIT_TEXTS}('{label_cells}', '')"
    compositions = f"{SPLIT_TEXTS}('#trends td:nth-child(6)', '、')"
    assert probed(tmp_path, html, width, f"[{labels}, {compositions}]") == "[[],[]]"


# The chart's bars, values, labels and caption that reach past the page's right edge.
CHART_PAST_THE_EDGE = """Array.from(
  document.querySelectorAll('#trends svg text, #trends svg rect, #trends figcaption'),
  element => element.getBoundingClientRect()
).filter(box => box.right > document.documentElement.clientWidth - 12).length"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_fits_a_phone(tmp_path: Path, lang: Lang) -> None:
    """A chart 720 px wide was cut at 390 px: its longest bars' values, the end of its title
    and its legend's last entry were out of sight (verl 2026-05-11). It takes the page's width,
    and its caption wraps."""
    html = render_report(context_for(week_prs(), lang), lang, "html")
    assert probed(tmp_path, html, 390, CHART_PAST_THE_EDGE) == "0"
