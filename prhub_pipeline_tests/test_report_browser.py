"""The HTML report opened in a real headless Chromium: it renders, and shows its sections."""

from __future__ import annotations

import importlib.util
import re
import struct
import subprocess
import zlib
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from prhub_pipeline.records import LANGS, Lang, RenderedReport, ReportListing
from prhub_pipeline.reporting.files import write_report_files
from prhub_pipeline.reporting.render import render_index, render_report
from prhub_pipeline_tests.browser import CHROMIUM, CHROMIUM_ARGS, requires_chromium
from prhub_pipeline_tests.test_report import HOSTILE_TITLE, context_for, week_prs

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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


requires_playwright = pytest.mark.skipif(
    importlib.util.find_spec("playwright") is None,
    reason="the playwright package is not installed (pip install -e '.[dev]'): layout check",
)


def probed(
    browser: Browser,
    tmp_path: Path,
    html: str,
    width: int,
    expression: str,
    scheme: Literal["light", "dark"] = "light",
    media: Literal["screen", "print"] = "screen",
) -> Any:
    """What `expression` (JavaScript) says of the page opened from disk in a window `width` px
    wide, in a light or dark colour scheme, on screen or as printed (Chromium's own --window-size
    keeps a window at least 485 px wide: no phone)."""
    page_file = tmp_path / f"probed.{width}.html"
    page_file.write_text(html, encoding="utf-8")
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.emulate_media(media=media)
        page.goto(page_file.as_uri())
        return page.evaluate(expression)
    finally:
        context.close()


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


@requires_playwright
@pytest.mark.parametrize("width", [1280, 390])
def test_chinese_table_cells_keep_their_words(browser: Browser, tmp_path: Path, width: int) -> None:
    """Chinese may break between any two characters, so the trends table's kind column read
    模/块 and its header 类/别, one character a line even at 1280 px, and on a phone its
    composition read 修复 1 / 个、回退 1 / 个 (verl 2026-05-11): labels keep their words, and a
    composition breaks between its items."""
    html = render_report(context_for(week_prs(), "zh"), "zh", "html")
    label_cells = "#trends th, #trends td:nth-child(2), #appendix th, #appendix td:nth-child(3)"
    labels = f"{SPLIT_TEXTS}('{label_cells}', '')"
    compositions = f"{SPLIT_TEXTS}('#trends td:nth-child(6)', '、')"
    assert probed(browser, tmp_path, html, width, f"[{labels}, {compositions}]") == [[], []]


# The chart's bars, values, labels and caption that reach past the page's right edge.
CHART_PAST_THE_EDGE = """Array.from(
  document.querySelectorAll('#trends svg text, #trends svg rect, #trends figcaption'),
  element => element.getBoundingClientRect()
).filter(box => box.right > document.documentElement.clientWidth - 12).length"""


@requires_playwright
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_fits_a_phone(browser: Browser, tmp_path: Path, lang: Lang) -> None:
    """A chart 720 px wide was cut at 390 px: its longest bars' values, the end of its title
    and its legend's last entry were out of sight (verl 2026-05-11). It takes the page's width,
    and its caption wraps."""
    html = render_report(context_for(week_prs(), lang), lang, "html")
    assert probed(browser, tmp_path, html, 390, CHART_PAST_THE_EDGE) == 0


@requires_playwright
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_index_shows_each_weeks_links_on_a_phone(
    browser: Browser, tmp_path: Path, lang: Lang
) -> None:
    """At 390 px verl's index broke its dates at their hyphens (2026 / -W34, four lines a week)
    and left the report links, its last column, out of sight: a week is one line, and its links
    are on screen."""
    mondays = [date(2026, 8, 17) - timedelta(weeks=n) for n in range(30)]
    listed = [
        ReportListing(week_start=monday, lang=code, pr_count=43, key_pr_count=18, risk_flags=18)
        for monday in mondays
        for code in LANGS
    ]
    html = render_index("verl-project/verl", listed, lang)
    lines = f"{SPLIT_TEXTS}('#weeks td', '')"
    links_out_of_sight = (
        "Array.from(document.querySelectorAll('#weeks a')).filter(link =>"
        " link.getBoundingClientRect().right"
        " > link.closest('.table-wrap').getBoundingClientRect().right).length"
    )
    assert probed(browser, tmp_path, html, 390, f"[{lines}.length, {links_out_of_sight}]") == [0, 0]


# Each text (and each bar) whose contrast with the background behind it is under WCAG's 4.5:1
# (3:1 for a bar), with the page's background colour.
LOW_CONTRAST = """(() => {
  const rgb = value => value.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(c => c / 255)
    .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const behind = element => {
    for (let at = element; at; at = at.parentElement) {
      const colour = rgb(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || colour[3] > 0) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const element of document.querySelectorAll('body *')) {
    const svg = element instanceof SVGElement;
    const shown = !['title', 'style'].includes(element.tagName);  // a tooltip, the chart's CSS
    const own = shown && Array.from(element.childNodes).some(node => node.data?.trim());
    if (svg && element.tagName === 'rect') {
      const fill = getComputedStyle(element).fill;
      const contrast = ratio(rgb(fill), behind(element));
      if (contrast < 3) low.push(`bar ${fill} ${contrast.toFixed(2)}`);
    } else if (own) {
      const style = getComputedStyle(element);
      const contrast = ratio(rgb(svg ? style.fill : style.color), behind(element));
      const text = element.textContent.trim().slice(0, 20);
      if (contrast < 4.5) low.push(`${text} ${contrast.toFixed(2)}`);
    }
  }
  return [getComputedStyle(document.body).backgroundColor, [...new Set(low)]];
})()"""


@requires_playwright
@pytest.mark.parametrize(
    ("scheme", "page"), [("light", "rgb(255, 255, 255)"), ("dark", "rgb(13, 17, 23)")]
)
def test_the_report_reads_in_the_readers_colour_scheme(
    browser: Browser, tmp_path: Path, scheme: Literal["light", "dark"], page: str
) -> None:
    """A reader whose system is dark got a white page; the page follows the scheme, each text at
    least 4.5:1 on its background and each bar at least 3:1 in both (last week's grey bar was
    1.8:1 on white)."""
    html = render_report(context_for(week_prs(), "zh"), "zh", "html")
    assert probed(browser, tmp_path, html, 1280, LOW_CONTRAST, scheme) == [page, []]


@requires_playwright
def test_a_printed_report_keeps_its_appendix_and_light_colours(
    browser: Browser, tmp_path: Path
) -> None:
    """The appendix of a week of more than 20 PRs is closed on screen, and printed as its summary
    line alone ('43 个 PR', verl 2026-05-11); a reader whose system is dark would print light
    text on white paper. Paper gets every PR and the light colours."""
    context = context_for(week_prs(), "zh")
    many = [
        pr.model_copy(update={"number": 7000 + n})
        for n, pr in enumerate(context.prs * (21 // len(context.prs) + 1))
    ]
    html = render_report(context.model_copy(update={"prs": many}), "zh", "html")
    assert "<details>" in html  # closed on screen
    shown_rows = (
        "Array.from(document.querySelectorAll('#appendix tbody tr'))"
        ".filter(row => row.checkVisibility()).length"
    )
    printed = probed(
        browser, tmp_path, html, 800, f"[{shown_rows}, {LOW_CONTRAST}]", "dark", "print"
    )
    assert printed == [len(many), ["rgb(255, 255, 255)", []]]


@requires_playwright
def test_a_report_opened_from_disk_leads_to_the_index_and_the_other_language(
    browser: Browser, tmp_path: Path
) -> None:
    """A report opened from the index had no link back to it, nor to the week's other language:
    both are a click away, and they open from the folder on disk."""
    rendered = [
        RenderedReport(
            lang=lang,
            markdown=render_report(context_for(week_prs(), lang), lang, "md"),
            html=render_report(context_for(week_prs(), lang), lang, "html"),
        )
        for lang in LANGS
    ]
    write_report_files(tmp_path, "verl-project/verl", date(2026, 5, 11), rendered)
    folder = tmp_path / "verl-project" / "verl"
    context = browser.new_context()
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto((folder / "2026-05-11.zh.html").as_uri())
        page.get_by_role("link", name="English", exact=True).click()
        assert page.url == (folder / "2026-05-11.en.html").as_uri()
        assert page.locator("html").get_attribute("lang") == "en"
        page.get_by_role("link", name="Weekly reports", exact=True).click()
        assert page.url == (folder / "index.html").as_uri()
        page.get_by_role("link", name="中文", exact=True).click()
        assert page.url == (folder / "2026-05-11.zh.html").as_uri()
    finally:
        context.close()


@requires_playwright
def test_a_long_path_in_a_paragraph_wraps_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    """A file path is one long word: verl 2026-03-09's busy-files paragraph made the page 470 px
    wide at 390 px, the whole page scrolling sideways."""
    context = context_for(week_prs(), "en")
    busy = (
        "Code files changed by more PRs than usual:"
        " verl/workers/rollout/trtllm_rollout/trtllm_async_server.py, 5 PRs (#6268)."
    )
    html = render_report(context.model_copy(update={"trends_lead": [busy]}), "en", "html")
    assert probed(browser, tmp_path, html, 390, "document.documentElement.scrollWidth") == 390


@requires_playwright
def test_a_chinese_heading_keeps_its_words_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    """The index's title read 'verl-project/verl · 周报索' at 390 px, 引 alone on the next line."""
    html = render_index("verl-project/verl", [], "zh")
    assert probed(browser, tmp_path, html, 390, f"{SPLIT_TEXTS}('h1', ' · ')") == []


@requires_playwright
@pytest.mark.parametrize(
    ("lang", "key", "other"),
    [
        ("en", "importance 10.0, key", "importance 0.3"),
        ("zh", "重要性 10.0，重点", "重要性 0.3"),
    ],
)
def test_an_importance_badge_says_what_it_is_to_a_screen_reader(
    browser: Browser, tmp_path: Path, lang: Lang, key: str, other: str
) -> None:
    """A badge was its figure alone, its colour saying "key": a screen reader read "10.0" in the
    key changes, the quick view and the appendix, and no word of what it was or that it was
    key. It reads the words in the page's language; the page shows the figure as before."""
    html = render_report(context_for(week_prs(), lang), lang, "html")
    page_file = tmp_path / f"badges.{lang}.html"
    page_file.write_text(html, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        rows = page.locator("#appendix tbody tr")
        assert f'- cell "{key}"' in rows.first.aria_snapshot()
        assert f'- cell "{other}"' in rows.last.aria_snapshot()
        assert key in page.locator("#quick-view li").first.aria_snapshot()
        assert key in page.locator("#key-changes li").first.aria_snapshot()
        badges = page.locator(".score")
        assert badges.count() >= 3
        for at in range(badges.count()):
            box = badges.nth(at).bounding_box()
            assert box is not None and box["width"] < 50  # the figure's badge, no words beside it
    finally:
        context.close()
