"""Rendering a ReportContext to Markdown or HTML, and the index page of a repository's weeks.

Both formats escape every value by default, the way HTML autoescaping does: HTML through
Jinja2's autoescape, Markdown through a `finalize` hook that backslash-escapes the characters
that would start markup or break a table row. Templates opt out only for values built here
(links, the SVG chart), never for text that came from GitHub.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, Literal

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from prhub_pipeline.records import LANGS, Lang, ReportListing, printable
from prhub_pipeline.reporting.charts import Bar, bar_chart
from prhub_pipeline.reporting.facts import first_without_cut_ties
from prhub_pipeline.reporting.models import ReportContext

Format = Literal["md", "html"]
FORMATS: tuple[Format, ...] = ("md", "html")
MAX_CHART_BARS = 16


LABELS: dict[Lang, dict[str, str]] = {
    "zh": {
        "repo": "仓库",
        "period": "周期",
        "to": "至",
        "pr_count": "来源 PR",
        "key_pr_count": "重点 PR",
        "importance_at_least": "重要性 ≥",
        "generated": "生成方式",
        "link": "原文链接",
        "summary": "执行摘要",
        "key_changes": "本周重点变化",
        "no_key_changes": "本周没有可归入主题的重点变化。",
        "no_key_prs": "本周没有重要性达到 {threshold} 的 PR。",
        "trends": "模块与主题趋势",
        "name": "名称",
        "kind": "类别",
        "module": "模块",
        "theme": "主题",
        "shared_theme": "（即主题“{theme}”）",
        "this_week": "本周",
        "last_week": "上周",
        "change": "变化",
        "composition": "构成",
        "top_changes": "重点变更",
        "top_change_sep": "；",
        "risks": "风险观察",
        "quick_view": "重点 PR 速览",
        "importance": "重要性",
        "importance_column": "重要性",
        "importance_spoken": "重要性 {score}",
        "key_spoken": "，重点",
        "basis": "原始分",
        "suggestions": "后续建议",
        "appendix": "附录：本周全部 PR",
        "pushed_appendix": "附录：未经 PR 直接推送的提交",
        "commit": "提交",
        "date": "日期",
        "author": "作者",
        "subject": "提交说明",
        "commits_one": "{n} 个提交",
        "commits_many": "{n} 个提交",
        "pushed_column": "未经 PR 推送的提交",
        "title": "标题",
        "type": "类型",
        "modules": "模块",
        "predicted_mark": " *",
        "names_sep": "、",
        "chart_title": "本周各模块与主题的 PR 数",
        "chart_title_top": "本周 PR 数最多的 {shown} 个模块与主题（共 {total} 个，全部见下表）",
        "no_prs": "本周没有合并的 PR。",
        "prs_one": "{n} 个 PR",
        "prs_many": "{n} 个 PR",
        "index_title": "周报索引",
        "risk_flags": "风险标记",
        "week": "周",
        "reports": "报告",
        "no_reports": "还没有生成任何周报。",
        "previous_week": "← 上一周（{week}）",
        "next_week": "下一周（{week}）→",
        "lang_name": "中文",
        "colon": "：",
        "lp": "（",
        "rp": "）",
        "stop": "。",
    },
    "en": {
        "repo": "Repository",
        "period": "Period",
        "to": "to",
        "pr_count": "Pull requests",
        "key_pr_count": "Key PRs",
        "importance_at_least": "importance ≥",
        "generated": "Generated",
        "link": "Link",
        "summary": "Executive summary",
        "key_changes": "Key changes this week",
        "no_key_changes": "No key changes could be grouped by theme this week.",
        "no_key_prs": "No PR reached importance {threshold} this week.",
        "trends": "Module and theme trends",
        "name": "Name",
        "kind": "Kind",
        "module": "module",
        "theme": "theme",
        "shared_theme": " (also the {theme} theme)",
        "this_week": "This week",
        "last_week": "Last week",
        "change": "Change",
        "composition": "Composition",
        "top_changes": "Key changes",
        "top_change_sep": "; ",
        "risks": "Risk observations",
        "quick_view": "Key PRs at a glance",
        "importance": "importance",
        "importance_column": "Importance",
        "importance_spoken": "importance {score}",
        "key_spoken": ", key",
        "basis": "raw score",
        "suggestions": "Follow-up suggestions",
        "appendix": "Appendix: all PRs this week",
        "pushed_appendix": "Appendix: commits pushed without a PR",
        "commit": "Commit",
        "date": "Date",
        "author": "Author",
        "subject": "Subject",
        "commits_one": "{n} commit",
        "commits_many": "{n} commits",
        "pushed_column": "Pushed without a PR",
        "title": "Title",
        "type": "Type",
        "modules": "Modules",
        "predicted_mark": " *",
        "names_sep": ", ",
        "chart_title": "PRs per module and theme this week",
        "chart_title_top": "The {shown} modules and themes with the most PRs this week"
        " (of {total}; the table lists all)",
        "no_prs": "No pull requests were merged this week.",
        "prs_one": "{n} PR",
        "prs_many": "{n} PRs",
        "index_title": "Weekly reports",
        "risk_flags": "Risk flags",
        "week": "Week",
        "reports": "Reports",
        "no_reports": "No weekly report has been generated yet.",
        "previous_week": "← Previous week ({week})",
        "next_week": "Next week ({week}) →",
        "lang_name": "English",
        "colon": ": ",
        "lp": " (",
        "rp": ")",
        "stop": ". ",
    },
}


# ---------------------------------------------------------------------------------------------
# Which `#N` are the repository's own

# Numbers assigned after the week's newest merged PR (issues, unmerged PRs) that its text can
# still cite: a share of that number, at least REF_SLACK_MIN.
REF_SLACK_SHARE = 0.25
REF_SLACK_MIN = 200
# `vLLM PR #39949`, `VeOmni PR #12`, `openyuanrong-datasystem PR #1412`: a number of another
# project's sequence (a bare `upstream #5` is not: vllm-ascend's authors also say it of their
# own main branch). A project name: a word with a capital after a small letter
# (`vLLM`), two capitals before one (`SGLang`), a hyphen or a slash (plain words such as
# `in PR #12` or `accuracy issue #3` are not).
_OTHER_PROJECT = re.compile(
    r"\b(?P<name>[A-Za-z][\w.]*(?:[-/][\w.]+)+|[A-Za-z]*[a-z][A-Z][\w.]*|[A-Z]{2,}[a-z][\w.]*)"
    r"(?:'s)?\s+(?i:PRs?|pull requests?|issues?|RFCs?)"
    r"\s*:?\s*\\?$"
)


@dataclass(frozen=True)
class RefScope:
    """Which `#N` in a report's text are the repository's own PRs and issues: not a number the
    repository cannot have reached by the week's end (`RFC #48203` in a repository at #13878),
    nor one another project's name comes with."""

    repo: str
    highest: int | None  # the week's newest merged PR's number; None: any number

    @classmethod
    def of(cls, context: ReportContext) -> RefScope:
        numbers = [ref.number for ref in context.prs]
        return cls(context.header.repo, max(numbers) if numbers else None)

    def owns(self, match: re.Match[str]) -> bool:
        number = int(match.group(1))
        slack = max(REF_SLACK_MIN, (self.highest or 0) * REF_SLACK_SHARE)
        if self.highest is not None and number > self.highest + slack:
            return False
        before = match.string[max(0, match.start() - 60) : match.start()].replace("\\", "")
        named = _OTHER_PROJECT.search(before)
        own_names = {self.repo.lower(), self.repo.rpartition("/")[2].lower()}
        return named is None or named.group("name").lower() in own_names


# ---------------------------------------------------------------------------------------------
# Markdown escaping


class MdSafe(str):
    """Markdown built by this module (a link, a separator) that must not be escaped again."""

    __slots__ = ()


_MD_SPECIAL = re.compile(
    r"[\\`*\[\]<>|~&]"  # emphasis, code, links, HTML, tables, strike-through, entities
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # `_` that could open or close emphasis
)
# A heading, list item or setext underline where the text starts a line, after the space a
# line may lead with (CommonMark allows three; the text is on one line, its spaces one).
_BLOCK_START = re.compile(r"^( ?)([#+\-=])")
_ORDERED_LIST_START = re.compile(r"^( ?)(\d+)([.)])(?=\s|$)")


def md_escape(value: Any) -> str:
    """Text that renders literally in CommonMark/GFM, on one line, inside or outside a table."""
    if value is None:
        return ""
    if isinstance(value, MdSafe):
        return value
    text = re.sub(r"\s+", " ", str(value))  # newlines, tabs, CR: one line
    text = _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text)
    text = _BLOCK_START.sub(r"\1\\\2", text)
    return _ORDERED_LIST_START.sub(r"\1\2\\\3", text)


def _md_link(text: str, url: str) -> MdSafe:
    label = md_escape(text)
    if label.startswith("\\#"):  # inside brackets a `#` cannot start a heading
        label = label[1:]
    return MdSafe(f"[{label}](<{url.replace('>', '%3E').replace(' ', '%20')}>)")


# A `code` span from a description or title: one line, no backtick inside. A lone backtick
# stays literal text.
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _code_spans(text: str) -> list[tuple[str, bool]]:
    """The text on one line, cut into (part, is_code) pieces at its balanced `code` spans."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    line = re.sub(r"\s+", " ", text)
    for span in _CODE_SPAN.finditer(line):
        pieces.append((line[at : span.start()], False))
        pieces.append((span.group(1), True))
        at = span.end()
    pieces.append((line[at:], False))
    return [piece for piece in pieces if piece[0]]


def md_refs(text: str, scope: RefScope) -> MdSafe:
    """Escaped text with the repository's own `#N` turned into links to its PRs, and its
    `code` spans kept as code (their text is literal in Markdown, so it needs no escaping)."""
    return MdSafe(
        "".join(
            f"`{part}`" if is_code else _md_link_refs(md_escape(part), scope)
            for part, is_code in _code_spans(text)
        )
    )


def _md_link_refs(escaped: str, scope: RefScope) -> str:
    return _linked_refs(
        _MD_REF, escaped, scope, lambda n: f"[#{n}](https://github.com/{scope.repo}/pull/{n})"
    )


# `#N` not inside a word or an entity (`&#39;`); in Markdown, escaped or not.
_MD_REF = re.compile(r"(?<![\w&])\\?#(\d+)\b")
_HTML_REF = re.compile(r"(?<![&\w])#(\d+)\b")


def _linked_refs(
    pattern: re.Pattern[str], escaped: str, scope: RefScope, link: Callable[[str], str]
) -> str:
    """`escaped` with each `#N` the repository owns replaced by `link(N)`."""
    return pattern.sub(lambda m: link(m.group(1)) if scope.owns(m) else m.group(0), escaped)


# ---------------------------------------------------------------------------------------------
# HTML helpers


def html_refs(text: str, scope: RefScope) -> Markup:
    """Escaped text with the repository's own `#N` turned into links and its `code` spans
    into `<code>` (entities such as `&#39;` are left alone)."""
    return Markup(
        "".join(
            f"<code>{escape(part)}</code>" if is_code else _html_link_refs(str(escape(part)), scope)
            for part, is_code in _code_spans(text)
        )
    )


def _html_link_refs(escaped: str, scope: RefScope) -> str:
    repo_path = str(escape(scope.repo))
    return _linked_refs(
        _HTML_REF,
        escaped,
        scope,
        lambda n: f'<a href="https://github.com/{repo_path}/pull/{n}">#{n}</a>',
    )


def _chart(context: ReportContext) -> Markup:
    """The week's largest modules and themes alike (the table lists modules first, so its
    first rows could leave out the largest theme); the title says when some are left out."""
    labels = LABELS[context.lang]
    # This week's labels only (the table also keeps those that fell to zero); a stable sort:
    # equal counts keep the table's order.
    present = sorted((row for row in context.trends if row.count), key=lambda row: -row.count)
    # Bars stop before a tie the limit would cut (two labels of 2 PRs shown, two hidden), unless
    # that leaves the chart less than half full: then the title's "N of M" covers the cut.
    rows = first_without_cut_ties(present, MAX_CHART_BARS, lambda row: row.count)
    if len(rows) < MAX_CHART_BARS // 2:
        rows = present[:MAX_CHART_BARS]
    title = labels["chart_title"]
    if len(rows) < len(present):
        title = labels["chart_title_top"].format(shown=len(rows), total=len(present))
    bars = [
        Bar(
            label=row.display,
            value=row.count,
            previous=row.previous,
            kind=row.kind,
        )
        for row in rows
    ]
    return bar_chart(
        bars,
        title=title,
        previous_label=labels["last_week"],
        kind_labels=(labels["module"], labels["theme"]),
        colon=labels["colon"],
    )


@lru_cache(maxsize=2)
def _environment(fmt: Format) -> Environment:
    loader = PackageLoader("prhub_pipeline.reporting", "templates")
    if fmt == "html":
        env = Environment(
            loader=loader,
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["refs"] = html_refs
    else:
        env = Environment(
            loader=loader,
            autoescape=False,
            finalize=md_escape,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        env.filters["refs"] = md_refs
        env.filters["link"] = _md_link
        env.filters["md_safe"] = MdSafe
    return env


# Chinese sets no space between a full-width closing mark and the Chinese text after it.
_SPACE_AFTER_FULL_WIDTH = re.compile(r"(?<=[）」』】]) (?=[\u4e00-\u9fff])")


LANG_TAGS: dict[Lang, str] = {"zh": "zh-CN", "en": "en"}


def _other_langs(lang: Lang) -> list[tuple[Lang, str, str]]:
    """The week's reports in the other languages, which the pipeline always writes beside it
    (code, BCP 47 tag, name): a report opened from the index had no way back to it, nor to the
    other language, but the browser's address bar."""
    return [(code, LANG_TAGS[code], LABELS[code]["lang_name"]) for code in LANGS if code != lang]


def render_report(context: ReportContext, lang: Lang | None = None, fmt: Format = "md") -> str:
    """The report as Markdown (`fmt="md"`) or a self-contained HTML page (`fmt="html"`)."""
    if lang is not None and lang != context.lang:
        raise ValueError(
            f"the report context is in {context.lang!r}, not {lang!r}: build it with lang={lang!r}"
        )
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")
    template = _environment(fmt).get_template(f"report.{fmt}.j2")
    extra = (
        {"chart": _chart(context), "other_langs": _other_langs(context.lang)}
        if fmt == "html"
        else {}
    )
    text = template.render(
        c=context, t=LABELS[context.lang], ref_scope=RefScope.of(context), **extra
    )
    if context.lang == "zh":  # "（#6317） 等 10 位": a list's tail after a parenthesis
        text = _SPACE_AFTER_FULL_WIDTH.sub("", text)
    # The records' text is cleaned already; file paths keep what git allows.
    return re.sub(r"\n{3,}", "\n\n", printable(text)).strip() + "\n"


@dataclass(frozen=True)
class WeekLinks:
    """The repository's stored weeks before and after a report's week, which its files link
    to (None: there is none)."""

    previous: date | None = None
    next: date | None = None

    @classmethod
    def among(cls, weeks: Iterable[date], week: date) -> WeekLinks:
        """The neighbours of `week` among `weeks` (the stored weeks, gaps and all)."""
        known = set(weeks)
        return cls(
            previous=max((w for w in known if w < week), default=None),
            next=min((w for w in known if w > week), default=None),
        )


def with_week_links(text: str, lang: Lang, fmt: Format, links: WeekLinks) -> str:
    """A rendered report (`render_report`) with links to the reports of the weeks before and
    after it, as its files carry them: a line under the Markdown title, links at the end of the
    HTML header's navigation. They are added to the stored text rather than rendered with it:
    a week reported later gives the week before it a link, and only its files, not its report,
    need writing again. An HTML report stored without the header's navigation gets none."""
    if links.previous is None and links.next is None:
        return text
    labels = LABELS[lang]
    targets = [
        (week, labels[key].format(week=week.isoformat()), rel)
        for week, key, rel in (
            (links.previous, "previous_week", "prev"),
            (links.next, "next_week", "next"),
        )
        if week is not None
    ]
    if fmt == "md":
        title, sep, rest = text.partition("\n\n")
        if not title.startswith("# ") or not sep:
            raise ValueError("not a rendered Markdown report: it opens with no title")
        line = " · ".join(
            _md_link(label, report_file_name(week, lang, "md")) for week, label, _ in targets
        )
        return f"{title}\n\n{line}\n\n{rest}"
    head, sep, rest = text.partition("</nav>")
    if not sep:
        # A row stored before the header had a navigation (49232b5) is written as stored: its
        # relinking, on every run beside a newer week, failed the run on the first one.
        return text
    anchors = "".join(
        f' · <a href="{report_file_name(week, lang, "html")}" rel="{rel}">{escape(label)}</a>'
        for week, label, rel in targets
    )
    return head + anchors + sep + rest


def report_file_name(week_start: date, lang: Lang, suffix: str) -> str:
    """A report file's name in its repository's folder (`2026-05-11.zh.md`)."""
    return f"{week_start.isoformat()}.{lang}.{suffix}"


def _known(values: Iterable[int | None]) -> int | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def render_index(repo: str, entries: Sequence[ReportListing], lang: Lang = "zh") -> str:
    """An HTML page listing every stored week of a repository, newest first, with links to
    each language's HTML and Markdown file (named as `write_report_files` names them)."""
    if lang not in LANGS:
        raise ValueError(f"unknown report language {lang!r}; expected one of {', '.join(LANGS)}")
    weeks: dict[date, dict[Lang, ReportListing]] = {}
    for entry in entries:
        weeks.setdefault(entry.week_start, {})[entry.lang] = entry
    rows = [
        {
            "week": week,
            # With the ISO year: week 1 of 2025 starts on 2024-12-30, and every year has a W1.
            "iso_week": "{}-W{:02d}".format(*week.isocalendar()),
            "week_end": week + timedelta(days=6),
            "pr_count": _known(e.pr_count for e in by_lang.values()),
            "key_pr_count": _known(e.key_pr_count for e in by_lang.values()),
            "risk_flags": _known(e.risk_flags for e in by_lang.values()),
            "pushed": _known(e.pushed_commits for e in by_lang.values()),
            "langs": [(code, LABELS[code]["lang_name"]) for code in LANGS if code in by_lang],
        }
        for week, by_lang in sorted(weeks.items(), reverse=True)
    ]
    # A column of the weeks' commits pushed without a PR where there were any: OpenRLHF's week
    # of 2026-03-23 (10 of them, two releases) read as a week of 0 PRs and nothing else.
    show_pushed = any(row["pushed"] for row in rows)
    template = _environment("html").get_template("index.html.j2")
    return (
        template.render(
            repo=repo, rows=rows, t=LABELS[lang], lang=lang, show_pushed=show_pushed
        ).strip()
        + "\n"
    )
