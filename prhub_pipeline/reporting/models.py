"""The weekly report's content as the templates receive it: plain text, already in the report's
language (`context.build_report_context` builds it; the templates escape it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from prhub_pipeline.modelling.tagging.tags import areas_of
from prhub_pipeline.records import Lang, PrType, RiskKind, Severity, WeekCounts


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
    summary: str  # one line from the description; empty when it has nothing beyond the title
    author: str | None = None
    # Its modules are the classifier's predictions: neither its title nor its labels name one.
    predicted: bool = False
    repeat_of: int | None = None  # the earlier PR under its title (repeats.Repeat)
    # Predicted modules the classifier gives less than even odds: counted and listed like the
    # rest, but they do not decide the report section the PR is shown in.
    unsure: list[str] = []
    # Where most of its code changed, at each of `sections.PLACE_DEPTHS` (None: nowhere in
    # particular); a PR without a module is grouped by it.
    places: list[str | None] = []
    # More of its changed lines are code than docs, CI, image builds and data
    # (`sections.code_leads`).
    code_leads: bool = False

    @property
    def areas(self) -> list[str]:
        """The modules that say where the change is: not `bugfix` or `feature`, which the
        type column already says."""
        return areas_of(self.modules)

    @property
    def sure_areas(self) -> list[str]:
        """Its areas less the classifier's guesses under even odds (`unsure`), which decide no
        section, fix focus or busiest module."""
        return [m for m in self.areas if m not in self.unsure]


class Header(Model):
    repo: str
    title: str
    week_start: str
    week_end: str
    timezone: str  # the zone the week's days are in
    iso_week: int
    pr_count: int
    key_pr_count: int
    key_threshold: float
    risk_flag_count: int  # every flag of the week's PRs, as `pr_risks` and the index count them
    generated: str
    report_url: str | None = None


class GroupItem(Model):
    pr: PrRef
    text: str
    badged_text: str  # without the importance, for the HTML, whose badge beside it shows it


class ThemeGroup(Model):
    name: str
    heading: str
    lead: str
    items: list[GroupItem]
    others: str | None = None


LabelKind = Literal["module", "theme"]


class TrendRow(Model):
    kind: LabelKind
    name: str
    display: str
    count: int
    previous: int | None
    delta: str
    composition: str
    key_changes: list[PrRef]  # the label's two most important key PRs, if it has any
    # A module's row that stands for a theme of the same PRs too: the theme's name.
    shared_theme: str | None = None


class RiskObservation(Model):
    risk: RiskKind
    severity: Severity
    heading: str
    text: str
    numbers: list[int]


class QuickViewItem(Model):
    pr: PrRef
    summary: str
    risks: str  # ` (risks: ...)`, or empty
    review: str  # ` (review: ...)`, or empty without review data
    basis: str


class PushedCommitRef(Model):
    """A commit of the week pushed to the branch without a PR, as the appendix lists it."""

    sha: str  # abbreviated
    url: str
    day: str  # in the report's zone, ISO
    author: str | None
    subject: str


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
    quick_view_lead: str | None  # when the list is not simply every key PR
    quick_view: list[QuickViewItem]
    suggestions: list[str]
    prs: list[PrRef]
    pushed: list[PushedCommitRef]
    counts: WeekCounts
    review_available: bool
