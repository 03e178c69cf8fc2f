"""Analysing weeks again from their stored PRs, when their labels, scores or report predate
what is stored (`stale_weeks`): the weekly assets after raw_prs, with a tag saying why."""

from collections.abc import Sequence

import dagster as dg

from prhub_pipeline.warehouse.week_stages import StaleWeek

# raw_prs is not among them: the source is not read again (the GitHub run that failed partway
# would likely fail again), and review_threads rebuilds its rows from the stored responses.
REANALYSIS_ASSETS = ("review_threads", "module_labels", "importance_scores", "weekly_report")
# The run's tag, and the weekly report's summary, say which weeks ran again and why.
ANALYSED_AGAIN_TAG = "prhub/analysed_again"
# Weeks named with their reason in a summary line; the rest are counted.
NAMED_WEEKS = 3


def reanalysis_selection() -> list[dg.AssetKey]:
    return [dg.AssetKey(name) for name in REANALYSIS_ASSETS]


def describe_stale(stale: Sequence[StaleWeek]) -> str:
    """`2026-05-11 (PRs stored ... UTC, after its scores (...))` for the first weeks, then how
    many more."""
    named = "; ".join(f"{week.week_start} ({week.reason})" for week in stale[:NAMED_WEEKS])
    more = len(stale) - NAMED_WEEKS
    return named + (f"; and {more} more" if more > 0 else "")


def analysed_again_tags(stale: Sequence[StaleWeek]) -> dict[str, str]:
    return {ANALYSED_AGAIN_TAG: describe_stale(stale)}
