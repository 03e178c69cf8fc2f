"""The weekly report's content, built from the data alone, in Chinese or English.

`build_report_context` turns a week's PRs, module labels, themes, scores and risk flags into a
`ReportContext`: plain-text sentences and rows that the templates lay out. Every sentence is
assembled from counts, titles, descriptions and flags; none states what the data does not
show (no review data: the report says so rather than reporting "no unresolved threads").
Text here is unescaped; the templates escape it for Markdown or HTML.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.modelling.importance import ScoreCalibration, reverted_target
from prhub_pipeline.modelling.pr_text import parse_title, summarize
from prhub_pipeline.modelling.risks import RISK_ORDER, SEVERITY
from prhub_pipeline.records import (
    LANGS,
    FixImpact,
    Lang,
    ModuleLabel,
    PrScore,
    PrType,
    PullRequest,
    ReviewData,
    RiskFlag,
    RiskKind,
    Severity,
    ThemeTag,
    WeekCounts,
)
from prhub_pipeline.weeks import WeekWindow

TITLE_DISPLAY_LIMIT = 120
MAX_QUICK_VIEW = 12
MAX_GROUP_ITEMS = 5
MAX_LISTED = 6


class Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class PrRef(Model):
    number: int
    url: str
    title: str  # one line, shortened for display
    subject: str  # the title without bracket tags and type prefix
    pr_type: PrType
    type_name: str
    modules: list[str]
    importance: float
    is_key: bool
    summary: str
    author: str | None = None


class Header(Model):
    repo: str
    title: str
    week_start: str
    week_end: str
    iso_week: int
    pr_count: int
    key_pr_count: int
    key_threshold: float
    generated: str
    report_url: str | None = None


class GroupItem(Model):
    pr: PrRef
    text: str


class ThemeGroup(Model):
    name: str
    heading: str
    lead: str
    items: list[GroupItem]
    others: str | None = None


class TrendRow(Model):
    kind: Literal["module", "theme"]
    name: str
    display: str
    count: int
    previous: int | None
    delta: str
    composition: str
    key_changes: list[PrRef]


class RiskObservation(Model):
    risk: RiskKind
    severity: Severity
    heading: str
    text: str
    numbers: list[int]


class QuickViewItem(Model):
    pr: PrRef
    text: str
    basis: str


class ReportContext(Model):
    """Everything a report template needs, already in the report's language."""

    lang: Lang
    header: Header
    summary: list[str]
    groups: list[ThemeGroup]
    trends_lead: list[str]
    trends: list[TrendRow]
    risks: list[RiskObservation]
    risk_notes: list[str]
    quick_view: list[QuickViewItem]
    suggestions: list[str]
    prs: list[PrRef]
    counts: WeekCounts
    review_available: bool


# ---------------------------------------------------------------------------------------------
# Words per language

TYPE_NAMES: dict[Lang, dict[PrType, str]] = {
    "zh": {
        "feat": "新功能",
        "fix": "修复",
        "refactor": "重构",
        "perf": "性能",
        "chore": "杂项",
        "doc": "文档",
        "test": "测试",
        "revert": "回退",
        "other": "其他",
    },
    "en": {
        "feat": "feature",
        "fix": "fix",
        "refactor": "refactor",
        "perf": "performance",
        "chore": "chore",
        "doc": "docs",
        "test": "test",
        "revert": "revert",
        "other": "other",
    },
}
IMPACT_NAMES: dict[Lang, dict[FixImpact, str]] = {
    "zh": {
        "wrong_result": "结果错误或精度问题",
        "data_loss": "数据丢失",
        "security": "安全问题",
        "oom": "内存溢出",
        "hang": "卡死或死锁",
        "crash": "崩溃或报错",
        "regression": "回归",
    },
    "en": {
        "wrong_result": "wrong results or precision",
        "data_loss": "data loss",
        "security": "security",
        "oom": "out-of-memory",
        "hang": "hangs or deadlocks",
        "crash": "crashes or errors",
        "regression": "regressions",
    },
}
RISK_HEADINGS: dict[Lang, dict[RiskKind, str]] = {
    "zh": {
        "revert": "回退",
        "reverted": "被回退的变更",
        "breaking_change": "不兼容变更",
        "unresolved_review": "合并时仍有未解决的评审意见",
        "core_without_tests": "核心路径变更未附测试",
        "no_approval": "未经批准即合并",
        "large_change": "超大变更",
        "cross_cutting": "跨模块变更",
        "config_default_change": "配置默认值可能变化",
        "dependency_change": "依赖变更",
        "docker_change": "Docker 镜像变更",
        "ci_change": "CI 流程变更",
    },
    "en": {
        "revert": "Reverts",
        "reverted": "Reverted changes",
        "breaking_change": "Breaking changes",
        "unresolved_review": "Review threads unresolved at merge",
        "core_without_tests": "Core-path changes without tests",
        "no_approval": "Merged without an approving review",
        "large_change": "Very large changes",
        "cross_cutting": "Cross-cutting changes",
        "config_default_change": "Configuration defaults may have changed",
        "dependency_change": "Dependency changes",
        "docker_change": "Docker image changes",
        "ci_change": "CI workflow changes",
    },
}
NAME_DISPLAY = {
    "fsdp": "FSDP",
    "megatron": "Megatron",
    "veomni": "VeOmni",
    "sglang": "SGLang",
    "vllm": "vLLM",
    "trtllm": "TRT-LLM",
    "ci": "CI",
    "npu": "NPU",
    "moe": "MoE",
    "ray": "Ray",
    "docker": "Docker",
}


def display_name(name: str) -> str:
    return NAME_DISPLAY.get(name.lower(), name)


def _one_line(text: str, limit: int = TITLE_DISPLAY_LIMIT) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _refs(numbers: Sequence[int], lang: Lang, limit: int = MAX_LISTED) -> str:
    shown = [f"#{n}" for n in numbers[:limit]]
    sep = "、" if lang == "zh" else ", "
    text = sep.join(shown)
    rest = len(numbers) - len(shown)
    if rest > 0:
        text += f" 等 {len(numbers)} 个" if lang == "zh" else f" and {rest} more"
    return text


def _join(items: Sequence[str], lang: Lang) -> str:
    if lang == "zh":
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]


def _count_phrase(counts: Counter[PrType], lang: Lang) -> str:
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    names = TYPE_NAMES[lang]
    if lang == "zh":
        return "、".join(f"{names[t]} {n} 个" for t, n in ordered)
    return ", ".join(f"{n} {_plural(names[t], n, t)}" for t, n in ordered)


def _plural(name: str, count: int, pr_type: PrType) -> str:
    if count == 1 or pr_type in ("doc", "other"):
        return name
    return name + ("es" if name.endswith(("x", "s", "sh", "ch")) else "s")


def _fmt(value: float) -> str:
    return f"{value:.1f}"


# ---------------------------------------------------------------------------------------------
# Building


def build_report_context(
    repo: str,
    window: WeekWindow,
    prs: Sequence[PullRequest],
    modules: Sequence[ModuleLabel],
    themes: Sequence[ThemeTag],
    scores: Sequence[PrScore],
    risks: Sequence[RiskFlag],
    review_data: ReviewData,
    previous_week_counts: WeekCounts | None,
    lang: Lang = "zh",
    report_url: str | None = None,
    *,
    calibration: ScoreCalibration | None = None,
    history_by_number: Mapping[int, PullRequest] | None = None,
    key_threshold: float = 7.0,
    source: str | None = None,
) -> ReportContext:
    """The report for one repository and week, in `lang`.

    `scores` must cover every PR in `prs` (a PR without a score is an error: the report would
    silently drop it). `previous_week_counts=None` means the previous week is unknown.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown report language {lang!r}; expected one of {', '.join(LANGS)}")
    by_number = {pr.number: pr for pr in prs}
    score_of = {s.number: s for s in scores}
    missing = sorted(set(by_number) - set(score_of))
    if missing:
        raise ValueError(f"no importance score for PR(s) {', '.join(f'#{n}' for n in missing)}")
    module_names: dict[int, list[str]] = defaultdict(list)
    for label in modules:
        if label.number in by_number and label.module not in module_names[label.number]:
            module_names[label.number].append(label.module)
    theme_names: dict[int, list[str]] = defaultdict(list)
    for tag in themes:
        if tag.number in by_number and tag.theme not in theme_names[tag.number]:
            theme_names[tag.number].append(tag.theme)

    known = dict(history_by_number or {})
    known.update(by_number)
    refs = {
        pr.number: _pr_ref(repo, pr, score_of[pr.number], module_names[pr.number], lang, known)
        for pr in prs
    }
    ordered = sorted(refs.values(), key=lambda r: (-score_of[r.number].raw_score, r.number))
    counts = WeekCounts.from_labels(
        len(prs),
        [m for m in modules if m.number in by_number],
        [t for t in themes if t.number in by_number],
    )
    risks = [r for r in risks if r.number in by_number]
    source_kind = source or (prs[0].source if prs else None)
    words: _Zh | _En = _Zh() if lang == "zh" else _En()

    header = Header(
        repo=repo,
        title=words.title(repo, window),
        week_start=window.week_start.isoformat(),
        week_end=(window.week_start + timedelta(days=6)).isoformat(),
        iso_week=window.week_start.isocalendar().week,
        pr_count=len(prs),
        key_pr_count=sum(1 for s in scores if s.number in by_number and s.is_key),
        key_threshold=key_threshold,
        generated=words.generated(source_kind, calibration, review_data.available),
        report_url=report_url,
    )
    return ReportContext(
        lang=lang,
        header=header,
        summary=words.summary(
            window, ordered, score_of, counts, theme_names, risks, known, review_data
        ),
        groups=words.groups(ordered, score_of, theme_names, risks, known),
        trends_lead=words.trends_lead(counts, previous_week_counts),
        trends=_trend_rows(ordered, module_names, theme_names, counts, previous_week_counts, lang),
        risks=words.risks(risks, refs, known),
        risk_notes=words.risk_notes(review_data, risks),
        quick_view=[
            QuickViewItem(
                pr=ref,
                text=words.quick_text(ref, score_of[ref.number], risks),
                basis=words.basis(score_of[ref.number]),
            )
            for ref in ([r for r in ordered if r.is_key][:MAX_QUICK_VIEW] or ordered[:3])
        ],
        suggestions=words.suggestions(risks, refs, known, review_data),
        prs=ordered,
        counts=counts,
        review_available=review_data.available,
    )


def _pr_ref(
    repo: str,
    pr: PullRequest,
    score: PrScore,
    modules: list[str],
    lang: Lang,
    known: Mapping[int, PullRequest],
) -> PrRef:
    summary = summarize(pr.title, pr.body)
    if score.pr_type == "revert":
        target, _ = reverted_target(pr, known)
        if target is not None:
            original = known.get(target)
            what = f"：{_one_line(original.title, 90)}" if original and lang == "zh" else ""
            what = what or (f": {_one_line(original.title, 90)}" if original else "")
            summary = f"回退 #{target}{what}" if lang == "zh" else f"Reverts #{target}{what}"
    return PrRef(
        number=pr.number,
        url=f"https://github.com/{repo}/pull/{pr.number}",
        title=_one_line(pr.title),
        subject=_one_line(parse_title(pr.title).subject or pr.title, 80),
        pr_type=score.pr_type,
        type_name=TYPE_NAMES[lang][score.pr_type],
        modules=modules,
        importance=score.importance,
        is_key=score.is_key,
        summary=_one_line(summary, 200),
        author=pr.author,
    )


def _group_of(
    ref: PrRef, themes: Mapping[int, list[str]], reverts: set[int], sizes: Mapping[str, int]
) -> str:
    """A PR's one group: the revert chain, else its most populous theme, else its most
    populous module this week (so `[model, fsdp]` joins a busy FSDP group)."""
    if ref.number in reverts:
        return "\x00revert"
    for labels in (themes.get(ref.number, []), ref.modules):
        if labels:
            return max(labels, key=lambda name: (sizes.get(name, 0), -labels.index(name)))
    return "\x00other"


def _delta(count: int, previous: int | None) -> str:
    if previous is None:
        return "—"
    change = count - previous
    return f"+{change}" if change > 0 else ("±0" if change == 0 else f"−{-change}")


def _trend_rows(
    ordered: Sequence[PrRef],
    module_names: Mapping[int, list[str]],
    theme_names: Mapping[int, list[str]],
    counts: WeekCounts,
    previous: WeekCounts | None,
    lang: Lang,
) -> list[TrendRow]:
    rows = []
    for kind, names, table, prev_table in (
        ("module", module_names, counts.modules, previous.modules if previous else None),
        ("theme", theme_names, counts.themes, previous.themes if previous else None),
    ):
        for name, count in sorted(table.items(), key=lambda kv: (-kv[1], kv[0])):
            members = [r for r in ordered if name in names.get(r.number, [])]
            types = Counter(r.pr_type for r in members)
            prev = prev_table.get(name, 0) if prev_table is not None else None
            rows.append(
                TrendRow(
                    kind=kind,  # type: ignore[arg-type]
                    name=name,
                    display=display_name(name),
                    count=count,
                    previous=prev,
                    delta=_delta(count, prev),
                    composition=_count_phrase(types, lang),
                    key_changes=members[:2],
                )
            )
    return rows


# ---------------------------------------------------------------------------------------------
# Sentences


class _Words(ABC):
    lang: Lang

    def type_name(self, pr_type: PrType) -> str:
        return TYPE_NAMES[self.lang][pr_type]

    def impacts(self, score: PrScore) -> str:
        return _join([IMPACT_NAMES[self.lang][i] for i in score.fix_impacts[:2]], self.lang)

    # Pieces every language builds the same way.
    def groups(
        self,
        ordered: Sequence[PrRef],
        score_of: Mapping[int, PrScore],
        themes: Mapping[int, list[str]],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
    ) -> list[ThemeGroup]:
        reverts = {f.number for f in risks if f.risk in ("revert", "reverted")}
        sizes: Counter[str] = Counter()
        for ref in ordered:
            sizes.update(set(ref.modules) | set(themes.get(ref.number, [])))
        members: dict[str, list[PrRef]] = defaultdict(list)
        for ref in ordered:
            members[_group_of(ref, themes, reverts, sizes)].append(ref)
        groups = []
        for name, refs in members.items():
            key_refs = [r for r in refs if r.is_key]
            if not key_refs and len(refs) < 3 and name != "\x00revert":
                continue
            shown = (key_refs or refs[:3])[:MAX_GROUP_ITEMS]
            if name == "\x00revert":
                shown = refs
            rest = [r for r in refs if r not in shown]
            groups.append(
                ThemeGroup(
                    name=name.strip("\x00"),
                    heading=self.group_heading(name, refs),
                    lead=self.group_lead(name, refs, risks, known),
                    items=[
                        GroupItem(pr=r, text=self.item_text(r, score_of[r.number])) for r in shown
                    ],
                    others=self.others(rest) if rest else None,
                )
            )
        groups.sort(key=lambda g: (g.name != "revert", -max(i.pr.importance for i in g.items)))
        return groups

    @abstractmethod
    def group_heading(self, name: str, refs: Sequence[PrRef]) -> str: ...

    @abstractmethod
    def group_lead(
        self,
        name: str,
        refs: Sequence[PrRef],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
    ) -> str: ...

    @abstractmethod
    def item_text(self, ref: PrRef, score: PrScore) -> str: ...

    @abstractmethod
    def others(self, refs: Sequence[PrRef]) -> str: ...


def _revert_chain(
    flag: RiskFlag, known: Mapping[int, PullRequest]
) -> tuple[int | None, str | None, list[int]]:
    """(reverted PR, its title, issues it had fixed) from a revert flag."""
    if not flag.related:
        return None, None, []
    target = flag.related[0]
    title = known[target].title if target in known else None
    return target, title, flag.related[1:]


def _subject(ref: PrRef, limit: int = 60) -> str:
    return _one_line(parse_title(ref.title).subject or ref.title, limit)


class _Zh(_Words):
    lang: Lang = "zh"

    def title(self, repo: str, window: WeekWindow) -> str:
        end = window.week_start + timedelta(days=6)
        week = window.week_start.isocalendar().week
        return f"{repo} 第 {week} 周周报（{window.week_start:%m-%d} 至 {end:%m-%d}）"

    def generated(
        self, source: str | None, calibration: ScoreCalibration | None, review_available: bool
    ) -> str:
        parts = ["由 prhub-pipeline 根据 PR 数据自动生成"]
        if source:
            parts.append(f"数据源 {source}")
        if calibration is not None and calibration.method == "history":
            parts.append(f"重要性按本仓库 {calibration.history_size} 个历史 PR 校准")
        elif calibration is not None:
            parts.append(f"历史 PR 仅 {calibration.history_size} 个，重要性未按历史校准")
        parts.append("含评审数据" if review_available else "无评审数据")
        return "；".join(parts)

    def summary(
        self,
        window: WeekWindow,
        ordered: Sequence[PrRef],
        score_of: Mapping[int, PrScore],
        counts: WeekCounts,
        themes: Mapping[int, list[str]],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
        review_data: ReviewData,
    ) -> list[str]:
        end = window.week_start + timedelta(days=6)
        week = window.week_start.isocalendar().week
        if not ordered:
            return [
                f"本周（第 {week} 周，{window.week_start:%m-%d} 至 {end:%m-%d}）没有合并的 PR。"
            ]
        key = [r for r in ordered if r.is_key]
        types = Counter(r.pr_type for r in ordered)
        paragraphs = [
            f"本周（第 {week} 周，{window.week_start:%m-%d}"
            f" 至 {end:%m-%d}）共合并 {len(ordered)} 个 PR，"
            f"其中 {len(key)} 个为重点 PR。按类型分：{_count_phrase(types, 'zh')}。"
        ]
        focus = []
        top_modules = sorted(counts.modules.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        if top_modules:
            focus.append(
                "变更最集中的模块是 "
                + "、".join(f"{display_name(m)}（{n} 个）" for m, n in top_modules)
            )
        top_themes = sorted(counts.themes.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        if top_themes:
            focus.append(
                "主题上 " + "、".join(f"{display_name(t)} 相关 PR {n} 个" for t, n in top_themes)
            )
        if focus:
            paragraphs.append("；".join(focus) + "。")
        top = (key or list(ordered))[:3]
        paragraphs.append(
            "最重要的变更："
            + "；".join(
                f"#{r.number}（{r.type_name}，{_fmt(r.importance)}）{_subject(r)}" for r in top
            )
            + "。"
        )
        fixes = [r for r in ordered if score_of[r.number].fix_impacts]
        if fixes:
            by_impact: dict[str, list[int]] = defaultdict(list)
            for r in fixes:
                by_impact[IMPACT_NAMES["zh"][score_of[r.number].fix_impacts[0]]].append(r.number)
            paragraphs.append(
                f"{len(fixes)} 个修复在标题或描述中提到了问题的后果（按关键词识别）："
                + "；".join(f"{name} {_refs(nums, 'zh', 4)}" for name, nums in by_impact.items())
                + "。"
            )
        for flag in (f for f in risks if f.risk == "revert"):
            paragraphs.append(self.revert_sentence(flag, known))
        risk_counts = Counter(f.risk for f in risks if f.risk not in ("revert", "reverted"))
        if risk_counts:
            listed = [
                f"{RISK_HEADINGS['zh'][k]} {n} 项"
                for k, n in sorted(risk_counts.items(), key=lambda kv: RISK_ORDER.index(kv[0]))
            ]
            paragraphs.append("风险标记：" + "，".join(listed) + "（详见风险观察）。")
        if not review_data.available:
            paragraphs.append("本周数据来自不含评审信息的数据源，报告未评估评审过程。")
        return paragraphs

    def revert_sentence(self, flag: RiskFlag, known: Mapping[int, PullRequest]) -> str:
        target, title, reopened = _revert_chain(flag, known)
        if target is None:
            return f"#{flag.number} 是一次回退，但无法从标题或描述确定被回退的 PR。"
        text = f"#{flag.number} 回退了 #{target}"
        if title:
            text += f"（{_one_line(title, 80)}）"
        if reopened:
            refs = _refs(reopened, "zh")
            text += f"；#{target} 曾声明修复 {refs}，回退后 {refs} 不再由该修复覆盖"
        return text + "。"

    def group_heading(self, name: str, refs: Sequence[PrRef]) -> str:
        if name == "\x00revert":
            return "回退链"
        if name == "\x00other":
            return "未归类变更"
        return display_name(name)

    def group_lead(
        self,
        name: str,
        refs: Sequence[PrRef],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
    ) -> str:
        types = Counter(r.pr_type for r in refs)
        if name == "\x00revert":
            sentences = [self.revert_sentence(f, known) for f in risks if f.risk == "revert"]
            return "".join(sentences)
        key = sum(1 for r in refs if r.is_key)
        return f"本周 {len(refs)} 个 PR（{_count_phrase(types, 'zh')}），其中重点 {key} 个。"

    def item_text(self, ref: PrRef, score: PrScore) -> str:
        text = f"{ref.type_name}：{_subject(ref, 90)}（重要性 {_fmt(ref.importance)}"
        if score.fix_impacts:
            text += f"，涉及{self.impacts(score)}"
        if score.breaking:
            text += "，不兼容变更"
        return text + f"）。{ref.summary}"

    def others(self, refs: Sequence[PrRef]) -> str:
        types = Counter(r.pr_type for r in refs)
        listed = "；".join(f"#{r.number} {_subject(r, 40)}" for r in refs[:MAX_LISTED])
        more = f" 等 {len(refs)} 个" if len(refs) > MAX_LISTED else ""
        return f"另有 {len(refs)} 个 PR（{_count_phrase(types, 'zh')}）：{listed}{more}。"

    def trends_lead(self, counts: WeekCounts, previous: WeekCounts | None) -> list[str]:
        if not counts.modules and not counts.themes:
            return ["本周没有模块或主题标签。"] if counts.pr_count else []
        if previous is None:
            return ["上周数据不可用，表中不给出环比变化。"]
        lines = [
            f"本周 {counts.pr_count} 个 PR，上周 {previous.pr_count}"
            f" 个（{_delta(counts.pr_count, previous.pr_count)}）。"
        ]
        changes = _biggest_changes(counts, previous)
        if changes:
            lines.append(
                "变化最大的是 "
                + "、".join(f"{display_name(n)}（{p} → {c}）" for n, c, p in changes)
                + "。"
            )
        return lines

    def risks(
        self, risks: Sequence[RiskFlag], refs: Mapping[int, PrRef], known: Mapping[int, PullRequest]
    ) -> list[RiskObservation]:
        observations = []
        for kind, flags in _by_kind(risks):
            numbers = [f.number for f in flags]
            heading = RISK_HEADINGS["zh"][kind]
            if kind == "revert":
                text = "".join(self.revert_sentence(f, known) for f in flags)
            elif kind == "reverted":
                text = (
                    "；".join(f"#{f.number} 已被 #{f.related[0]} 回退" for f in flags if f.related)
                    + "。"
                )
            elif kind == "unresolved_review":
                text = (
                    "；".join(
                        f"#{f.number}："
                        + "；".join(
                            f"{a.reviewer}{'（机器人）' if a.is_bot else ''}"
                            f"{' 在 ' + a.where() + ' ' if a.where() else ' '}提出“{a.ask}”"
                            for a in f.asks
                        )
                        for f in flags
                    )
                    + "。合并时这些讨论未标记为已解决。"
                )
            elif kind == "core_without_tests":
                ranked = sorted(flags, key=lambda f: -refs[f.number].importance)
                text = (
                    f"{len(flags)} 个 PR 修改了核心路径却没有改动任何测试文件："
                    + "；".join(
                        f"#{f.number}（{f.lines} 行，{f.paths[0] if f.paths else ''}）"
                        for f in ranked[:MAX_LISTED]
                    )
                    + ("" if len(flags) <= MAX_LISTED else f" 等 {len(flags)} 个")
                    + "。"
                )
            elif kind == "large_change":
                text = (
                    "；".join(f"#{f.number} 改动 {f.lines} 行（不含文档）" for f in flags)
                    + "，评审与回归验证的难度更高。"
                )
            elif kind == "cross_cutting":
                text = (
                    "；".join(
                        f"#{f.number} 横跨 {len(f.modules)} 个模块（{', '.join(f.modules)}）"
                        for f in flags
                    )
                    + "。"
                )
            elif kind == "config_default_change":
                text = (
                    "；".join(f"#{f.number} 修改了 {', '.join(f.paths)} 的已有内容" for f in flags)
                    + "，默认配置可能随之改变。"
                )
            elif kind in ("dependency_change", "docker_change", "ci_change"):
                text = "；".join(f"#{f.number}：{', '.join(f.paths)}" for f in flags) + "。"
            elif kind == "breaking_change":
                text = (
                    "；".join(f"#{f.number} {_subject(refs[f.number], 60)}" for f in flags)
                    + " 带有不兼容变更标记。"
                )
            else:  # no_approval
                text = f"{_refs(numbers, 'zh')} 合并时没有任何批准（APPROVED）评审。"
            observations.append(
                RiskObservation(
                    risk=kind, severity=SEVERITY[kind], heading=heading, text=text, numbers=numbers
                )
            )
        return observations

    def risk_notes(self, review_data: ReviewData, risks: Sequence[RiskFlag]) -> list[str]:
        notes = []
        if not review_data.available:
            notes.append("评审数据不可用（数据源不提供评审），未检查未解决的评审意见与批准情况。")
        if not risks:
            notes.append("本周数据没有触发任何风险规则。")
        return notes

    def quick_text(self, ref: PrRef, score: PrScore, risks: Sequence[RiskFlag]) -> str:
        text = ref.summary
        own = [RISK_HEADINGS["zh"][f.risk] for f in risks if f.number == ref.number]
        if own:
            text += f"（风险：{'、'.join(dict.fromkeys(own))}）"
        return text

    def basis(self, score: PrScore) -> str:
        return _basis(score, "zh")

    def suggestions(
        self,
        risks: Sequence[RiskFlag],
        refs: Mapping[int, PrRef],
        known: Mapping[int, PullRequest],
        review_data: ReviewData,
    ) -> list[str]:
        items = []
        for kind, flags in _by_kind(risks):
            numbers = _by_importance([f.number for f in flags], refs)
            if kind == "revert":
                for f in flags:
                    target, _, reopened = _revert_chain(f, known)
                    if reopened:
                        items.append(
                            f"跟进 {_refs(reopened, 'zh')}：其修"
                            f"复 #{target} 已被 #{f.number} 回退，"
                            "需要新的修复方案，并补充覆盖回退原因的测试。"
                        )
                    elif target:
                        items.append(
                            f"确认 #{f.number} 回退 #{target}"
                            f" 的原因，并决定是否重新提交修正后的版本。"
                        )
            elif kind == "unresolved_review":
                items.append(
                    f"逐条确认 {_refs(numbers, 'zh')} 合并时未解决的评审意见，需要时提交后续 PR。"
                )
            elif kind == "core_without_tests":
                items.append(f"为以下 PR 的核心路径改动补充测试：{_refs(numbers, 'zh', 5)}。")
            elif kind == "large_change":
                items.append(f"对 {_refs(numbers, 'zh')} 这类大改动安排合并后的回归观察。")
            elif kind == "breaking_change":
                items.append(
                    f"在发布说明中列出 {_refs(numbers, 'zh')} 的不兼容变更并给出迁移说明。"
                )
            elif kind == "config_default_change":
                items.append(
                    f"核对 {_refs(numbers, 'zh')} 是否改变了配置默认值，并在发布说明中注明。"
                )
            elif kind in ("dependency_change", "docker_change", "ci_change"):
                what = {"dependency_change": "依赖", "docker_change": "镜像", "ci_change": " CI "}[
                    kind
                ]
                items.append(f"确认{what}变更在各环境与流水线中正常工作：{_refs(numbers, 'zh')}。")
            elif kind == "no_approval":
                items.append(f"请维护者补充审阅 {_refs(numbers, 'zh')}。")
            elif kind == "cross_cutting":
                items.append(f"请相关模块负责人共同复查跨模块变更 {_refs(numbers, 'zh')}。")
        if not review_data.available:
            items.append(
                "如需评审相关的风险（未解决意见、未批准合并），"
                "请使用 github 数据源重新生成本周报告。"
            )
        return items or ["本周数据未提示需要专门跟进的事项。"]


class _En(_Words):
    lang: Lang = "en"

    def title(self, repo: str, window: WeekWindow) -> str:
        end = window.week_start + timedelta(days=6)
        week = window.week_start.isocalendar().week
        return f"{repo} weekly report, week {week} ({window.week_start:%b %d} to {end:%b %d})"

    def generated(
        self, source: str | None, calibration: ScoreCalibration | None, review_available: bool
    ) -> str:
        parts = ["generated automatically by prhub-pipeline from PR data"]
        if source:
            parts.append(f"source: {source}")
        if calibration is not None and calibration.method == "history":
            parts.append(
                f"importance calibrated on {calibration.history_size} past PRs of this repository"
            )
        elif calibration is not None:
            parts.append(
                f"only {calibration.history_size} past PRs, importance not calibrated on history"
            )
        parts.append("with review data" if review_available else "no review data")
        return "; ".join(parts)

    def summary(
        self,
        window: WeekWindow,
        ordered: Sequence[PrRef],
        score_of: Mapping[int, PrScore],
        counts: WeekCounts,
        themes: Mapping[int, list[str]],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
        review_data: ReviewData,
    ) -> list[str]:
        end = window.week_start + timedelta(days=6)
        week = window.week_start.isocalendar().week
        span = f"week {week}, {window.week_start:%b %d} to {end:%b %d}"
        if not ordered:
            return [f"No pull requests were merged this week ({span})."]
        key = [r for r in ordered if r.is_key]
        types = Counter(r.pr_type for r in ordered)
        merged = "pull request was" if len(ordered) == 1 else "pull requests were"
        paragraphs = [
            f"{len(ordered)} {merged} merged this week ({span}); {len(key)} of them are key PRs."
            f" By type: {_count_phrase(types, 'en')}."
        ]
        focus = []
        top_modules = sorted(counts.modules.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        if top_modules:
            focus.append(
                "The busiest modules were "
                + _join([f"{display_name(m)} ({n})" for m, n in top_modules], "en")
            )
        top_themes = sorted(counts.themes.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        if top_themes:
            focus.append(
                "among themes, "
                + _join([f"{display_name(t)} ({n} PRs)" for t, n in top_themes], "en")
            )
        if focus:
            paragraphs.append("; ".join(focus) + ".")
        top = (key or list(ordered))[:3]
        paragraphs.append(
            "The most important changes: "
            + "; ".join(
                f"#{r.number} ({r.type_name}, {_fmt(r.importance)}) {_subject(r)}" for r in top
            )
            + "."
        )
        fixes = [r for r in ordered if score_of[r.number].fix_impacts]
        if fixes:
            by_impact: dict[str, list[int]] = defaultdict(list)
            for r in fixes:
                by_impact[IMPACT_NAMES["en"][score_of[r.number].fix_impacts[0]]].append(r.number)
            paragraphs.append(
                f"{len(fixes)} {'fix mentions' if len(fixes) == 1 else 'fixes mention'}"
                f" what the bug caused (by keywords in title or description): "
                + "; ".join(f"{name} in {_refs(nums, 'en', 4)}" for name, nums in by_impact.items())
                + "."
            )
        for flag in (f for f in risks if f.risk == "revert"):
            paragraphs.append(self.revert_sentence(flag, known))
        risk_counts = Counter(f.risk for f in risks if f.risk not in ("revert", "reverted"))
        if risk_counts:
            listed = [
                f"{RISK_HEADINGS['en'][k].lower()} ({n})"
                for k, n in sorted(risk_counts.items(), key=lambda kv: RISK_ORDER.index(kv[0]))
            ]
            paragraphs.append("Risk flags: " + "; ".join(listed) + " (see Risk observations).")
        if not review_data.available:
            paragraphs.append(
                "This week's data comes from a source without review"
                " information, so the review process is not assessed."
            )
        return paragraphs

    def revert_sentence(self, flag: RiskFlag, known: Mapping[int, PullRequest]) -> str:
        target, title, reopened = _revert_chain(flag, known)
        if target is None:
            return f"#{flag.number} is a revert, but the reverted PR could not be identified."
        text = f"#{flag.number} reverted #{target}"
        if title:
            text += f' ("{_one_line(title, 80)}")'
        if reopened:
            refs = _refs(reopened, "en")
            text += f"; #{target} said it fixed {refs}, so {refs} is no longer fixed by that change"
        return text + "."

    def group_heading(self, name: str, refs: Sequence[PrRef]) -> str:
        if name == "\x00revert":
            return "Revert chain"
        if name == "\x00other":
            return "Unlabelled changes"
        return display_name(name)

    def group_lead(
        self,
        name: str,
        refs: Sequence[PrRef],
        risks: Sequence[RiskFlag],
        known: Mapping[int, PullRequest],
    ) -> str:
        if name == "\x00revert":
            return " ".join(self.revert_sentence(f, known) for f in risks if f.risk == "revert")
        types = Counter(r.pr_type for r in refs)
        key = sum(1 for r in refs if r.is_key)
        noun = "PR" if len(refs) == 1 else "PRs"
        return f"{len(refs)} {noun} this week ({_count_phrase(types, 'en')}), {key} of them key."

    def item_text(self, ref: PrRef, score: PrScore) -> str:
        text = f"{ref.type_name}: {_subject(ref, 90)} (importance {_fmt(ref.importance)}"
        if score.fix_impacts:
            text += f"; addresses {self.impacts(score)}"
        if score.breaking:
            text += "; breaking"
        return text + f"). {ref.summary}"

    def others(self, refs: Sequence[PrRef]) -> str:
        types = Counter(r.pr_type for r in refs)
        listed = "; ".join(f"#{r.number} {_subject(r, 40)}" for r in refs[:MAX_LISTED])
        more = f" and {len(refs) - MAX_LISTED} more" if len(refs) > MAX_LISTED else ""
        noun = "PR" if len(refs) == 1 else "PRs"
        return f"Also {len(refs)} more {noun} ({_count_phrase(types, 'en')}): {listed}{more}."

    def trends_lead(self, counts: WeekCounts, previous: WeekCounts | None) -> list[str]:
        if not counts.modules and not counts.themes:
            return ["No module or theme labels this week."] if counts.pr_count else []
        if previous is None:
            return ["The previous week's data is not available, so the table shows no change."]
        lines = [
            f"{counts.pr_count} PRs this week against {previous.pr_count} the week before"
            f" ({_delta(counts.pr_count, previous.pr_count)})."
        ]
        changes = _biggest_changes(counts, previous)
        if changes:
            lines.append(
                "The largest changes: "
                + _join([f"{display_name(n)} ({p} → {c})" for n, c, p in changes], "en")
                + "."
            )
        return lines

    def risks(
        self, risks: Sequence[RiskFlag], refs: Mapping[int, PrRef], known: Mapping[int, PullRequest]
    ) -> list[RiskObservation]:
        observations = []
        for kind, flags in _by_kind(risks):
            numbers = [f.number for f in flags]
            heading = RISK_HEADINGS["en"][kind]
            if kind == "revert":
                text = " ".join(self.revert_sentence(f, known) for f in flags)
            elif kind == "reverted":
                text = (
                    "; ".join(
                        f"#{f.number} was reverted by #{f.related[0]}" for f in flags if f.related
                    )
                    + "."
                )
            elif kind == "unresolved_review":
                text = (
                    "; ".join(
                        f"#{f.number}: "
                        + "; ".join(
                            f"{a.reviewer}{' (bot)' if a.is_bot else ''}"
                            f"{' on ' + a.where() if a.where() else ''} asked “{a.ask}”"
                            for a in f.asks
                        )
                        for f in flags
                    )
                    + ". These threads were not marked resolved when the PR merged."
                )
            elif kind == "core_without_tests":
                ranked = sorted(flags, key=lambda f: -refs[f.number].importance)
                text = (
                    f"{len(flags)} PRs changed core paths without touching any test file: "
                    + "; ".join(
                        f"#{f.number} ({f.lines} lines, {f.paths[0] if f.paths else ''})"
                        for f in ranked[:MAX_LISTED]
                    )
                    + ("" if len(flags) <= MAX_LISTED else f" and {len(flags) - MAX_LISTED} more")
                    + "."
                )
            elif kind == "large_change":
                text = (
                    "; ".join(
                        f"#{f.number} changes {f.lines} lines outside documentation" for f in flags
                    )
                    + ", which makes review and regression checks harder."
                )
            elif kind == "cross_cutting":
                text = (
                    "; ".join(
                        f"#{f.number} spans {len(f.modules)} modules ({', '.join(f.modules)})"
                        for f in flags
                    )
                    + "."
                )
            elif kind == "config_default_change":
                text = (
                    "; ".join(
                        f"#{f.number} edits existing lines of {', '.join(f.paths)}" for f in flags
                    )
                    + "; default settings may have changed."
                )
            elif kind in ("dependency_change", "docker_change", "ci_change"):
                text = "; ".join(f"#{f.number}: {', '.join(f.paths)}" for f in flags) + "."
            elif kind == "breaking_change":
                text = (
                    "; ".join(f"#{f.number} {_subject(refs[f.number], 60)}" for f in flags)
                    + " carries a breaking-change marker."
                )
            else:  # no_approval
                text = f"{_refs(numbers, 'en')} merged without any APPROVED review."
            observations.append(
                RiskObservation(
                    risk=kind, severity=SEVERITY[kind], heading=heading, text=text, numbers=numbers
                )
            )
        return observations

    def risk_notes(self, review_data: ReviewData, risks: Sequence[RiskFlag]) -> list[str]:
        notes = []
        if not review_data.available:
            notes.append(
                "Review data is not available (the source provides none):"
                " unresolved threads and approvals were not checked."
            )
        if not risks:
            notes.append("No risk rule fired on this week's data.")
        return notes

    def quick_text(self, ref: PrRef, score: PrScore, risks: Sequence[RiskFlag]) -> str:
        own = [RISK_HEADINGS["en"][f.risk].lower() for f in risks if f.number == ref.number]
        text = ref.summary
        if own:
            text += f" (risks: {', '.join(dict.fromkeys(own))})"
        return text

    def basis(self, score: PrScore) -> str:
        return _basis(score, "en")

    def suggestions(
        self,
        risks: Sequence[RiskFlag],
        refs: Mapping[int, PrRef],
        known: Mapping[int, PullRequest],
        review_data: ReviewData,
    ) -> list[str]:
        items = []
        for kind, flags in _by_kind(risks):
            numbers = _by_importance([f.number for f in flags], refs)
            if kind == "revert":
                for f in flags:
                    target, _, reopened = _revert_chain(f, known)
                    if reopened:
                        items.append(
                            f"Follow up on {_refs(reopened, 'en')}:"
                            f" its fix #{target} was reverted by"
                            f" #{f.number}; it needs a new fix, with"
                            f" a test for the reason of the revert."
                        )
                    elif target:
                        items.append(
                            f"Find out why #{f.number} reverted #{target}"
                            f" and whether a corrected version should land."
                        )
            elif kind == "unresolved_review":
                items.append(
                    f"Go through the review threads left unresolved on"
                    f" {_refs(numbers, 'en')} and open follow-up PRs where needed."
                )
            elif kind == "core_without_tests":
                items.append(f"Add tests for the core-path changes in {_refs(numbers, 'en', 5)}.")
            elif kind == "large_change":
                items.append(
                    f"Watch for regressions after large changes such as {_refs(numbers, 'en')}."
                )
            elif kind == "breaking_change":
                items.append(
                    f"List the breaking changes of {_refs(numbers, 'en')}"
                    f" in the release notes with migration steps."
                )
            elif kind == "config_default_change":
                items.append(
                    f"Check whether {_refs(numbers, 'en')} changed"
                    f" configuration defaults and note it in the release notes."
                )
            elif kind in ("dependency_change", "docker_change", "ci_change"):
                what = {
                    "dependency_change": "dependency",
                    "docker_change": "image",
                    "ci_change": "CI",
                }[kind]
                items.append(
                    f"Confirm that the {what} changes in {_refs(numbers, 'en')}"
                    f" work across environments and pipelines."
                )
            elif kind == "no_approval":
                items.append(f"Ask maintainers for a post-merge review of {_refs(numbers, 'en')}.")
            elif kind == "cross_cutting":
                items.append(
                    f"Have the owners of the affected modules review"
                    f" the cross-cutting changes {_refs(numbers, 'en')}."
                )
        if not review_data.available:
            items.append(
                "For review-based risks (unresolved threads, unapproved"
                " merges), regenerate this week from the github source."
            )
        return items or ["Nothing in this week's data calls for a specific follow-up."]


def _by_kind(risks: Sequence[RiskFlag]) -> list[tuple[RiskKind, list[RiskFlag]]]:
    grouped: dict[RiskKind, list[RiskFlag]] = defaultdict(list)
    for flag in risks:
        grouped[flag.risk].append(flag)
    return sorted(grouped.items(), key=lambda kv: RISK_ORDER.index(kv[0]))


def _by_importance(numbers: Sequence[int], refs: Mapping[int, PrRef]) -> list[int]:
    return sorted(dict.fromkeys(numbers), key=lambda n: (-refs[n].importance, n))


def _biggest_changes(counts: WeekCounts, previous: WeekCounts) -> list[tuple[str, int, int]]:
    changes = []
    for table, prev in ((counts.modules, previous.modules), (counts.themes, previous.themes)):
        for name in set(table) | set(prev):
            now, before = table.get(name, 0), prev.get(name, 0)
            if now != before:
                changes.append((name, now, before))
    changes.sort(key=lambda c: (-abs(c[1] - c[2]), c[0]))
    return changes[:3]


PART_LABELS: dict[Lang, dict[str, str]] = {
    "zh": {
        "type": "类型",
        "breaking": "不兼容",
        "size": "规模",
        "core": "核心路径",
        "breadth": "跨模块",
        "fix_impact": "修复后果",
        "review": "评审",
        "revert": "回退",
    },
    "en": {
        "type": "type",
        "breaking": "breaking",
        "size": "size",
        "core": "core paths",
        "breadth": "breadth",
        "fix_impact": "fix impact",
        "review": "review",
        "revert": "revert",
    },
}


def _basis(score: PrScore, lang: Lang) -> str:
    """The score's largest parts, e.g. "规模 2.7 · 核心路径 2.5 · 修复后果 1.6"."""
    labels = PART_LABELS[lang]
    parts = sorted(((v, k) for k, v in score.parts.items() if v > 0), reverse=True)[:4]
    return " · ".join(f"{labels.get(k, k)} {v:.1f}" for v, k in parts)
