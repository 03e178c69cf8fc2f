"""Inline SVG charts for the HTML report: no scripts, no external files, labels escaped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

# The page's colours for the light and the dark scheme (style.css); the fallbacks are the light.
CHART_STYLE = (
    ".lbl{font-size:12px;fill:var(--ink,#1f2328)}.val{font-size:11px;fill:var(--muted,#59636e)}"
    ".bar-module{fill:var(--bar-module,#3b6fb6)}.bar-theme{fill:var(--bar-theme,#c07a1f)}"
    ".bar-previous{fill:var(--bar-previous,#8c959f)}"
)
BAR_KINDS = ("module", "theme")
# The longest bar's share of the width: the rest holds its value.
BAR_SHARE = 85.0


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    previous: int | None = None
    kind: str = "module"


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    previous_label: str,
    kind_labels: tuple[str, str] = ("module", "theme"),
    colon: str = ": ",
    row_height: int = 34,
) -> Markup:
    """Horizontal bars under their labels, with the previous week as a thin grey bar beneath,
    as wide as the page allows.

    Lengths are shares of the chart's width and text keeps its size: a chart of fixed width
    (720 px) was cut on a phone, its longest bars' values, title and legend out of sight
    (verl 2026-05-11 at 390 px). The title is the figure's caption, which wraps; the text is in
    the page's font, which has the Chinese glyphs."""
    if not bars:
        return Markup("")
    scale_max = max(max(b.value, b.previous or 0) for b in bars) or 1
    rows = []
    for i, bar in enumerate(bars):
        y = i * row_height
        share = BAR_SHARE * bar.value / scale_max
        kind = bar.kind if bar.kind in BAR_KINDS else "module"
        rows.append(
            f'<text x="0" y="{y + 13}" class="lbl">{escape(bar.label)}</text>'
            f'<rect x="0" y="{y + 17}" width="{share:.1f}%" height="10" rx="2" class="bar-{kind}">'
            f"<title>{escape(bar.label)}{colon}{bar.value}</title></rect>"
            f'<text x="{share:.1f}%" dx="6" y="{y + 26}" class="val">{bar.value}</text>'
        )
        if bar.previous is not None:
            previous = BAR_SHARE * bar.previous / scale_max
            rows.append(
                f'<rect x="0" y="{y + 29}" width="{previous:.1f}%" height="3"'
                ' class="bar-previous">'
                f"<title>{escape(previous_label)}{colon}{bar.previous}</title></rect>"
            )
    legend_y = row_height * len(bars) + 16
    height = legend_y + 6
    legend = (
        f'<rect x="0" y="{legend_y - 9}" width="10" height="10" class="bar-module"/>'
        f'<text x="14" y="{legend_y}" class="lbl">{escape(kind_labels[0])}</text>'
        f'<rect x="80" y="{legend_y - 9}" width="10" height="10" class="bar-theme"/>'
        f'<text x="94" y="{legend_y}" class="lbl">{escape(kind_labels[1])}</text>'
        f'<rect x="160" y="{legend_y - 5}" width="16" height="3" class="bar-previous"/>'
        f'<text x="180" y="{legend_y}" class="lbl">{escape(previous_label)}</text>'
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="100%" height="{height}"'
        f' aria-label="{escape(title)}">'
        f"<style>{CHART_STYLE}</style>" + "".join(rows) + legend + "</svg>"
    )
    return Markup(f'<figure class="chart"><figcaption>{escape(title)}</figcaption>{svg}</figure>')
