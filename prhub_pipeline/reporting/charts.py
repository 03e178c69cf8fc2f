"""Inline SVG charts for the HTML report: no scripts, no external files, labels escaped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

BAR_COLOURS = {"module": "#3b6fb6", "theme": "#c07a1f"}
PREVIOUS_COLOUR = "#b8c2cc"


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
    width: int = 720,
    row_height: int = 24,
    label_width: int = 170,
) -> Markup:
    """Horizontal bars, one row each, with the previous week as a thin grey bar beneath."""
    if not bars:
        return Markup("")
    top = 30
    height = top + row_height * len(bars) + 28
    scale_max = max(max(b.value, b.previous or 0) for b in bars) or 1
    plot = width - label_width - 50
    rows = []
    for i, bar in enumerate(bars):
        y = top + i * row_height
        length = plot * bar.value / scale_max
        colour = BAR_COLOURS.get(bar.kind, BAR_COLOURS["module"])
        label = bar.label if len(bar.label) <= 24 else bar.label[:23] + "…"
        rows.append(
            f'<text x="{label_width - 8}" y="{y + 14}"'
            f' text-anchor="end" class="lbl">{escape(label)}</text>'
            f'<rect x="{label_width}" y="{y + 3}" width="{length:.1f}"'
            f' height="12" rx="2" fill="{colour}">'
            f"<title>{escape(bar.label)}{colon}{bar.value}</title></rect>"
            f'<text x="{label_width + length + 6:.1f}" y="{y + 14}" class="val">{bar.value}</text>'
        )
        if bar.previous is not None:
            previous = plot * bar.previous / scale_max
            rows.append(
                f'<rect x="{label_width}" y="{y + 17}" width="{previous:.1f}"'
                f' height="3" fill="{PREVIOUS_COLOUR}">'
                f"<title>{escape(previous_label)}{colon}{bar.previous}</title></rect>"
            )
    legend_y = height - 10
    legend = (
        f'<rect x="{label_width}" y="{legend_y - 9}" width="10"'
        f' height="10" fill="{BAR_COLOURS["module"]}"/>'
        f'<text x="{label_width + 14}" y="{legend_y}" class="lbl">{escape(kind_labels[0])}</text>'
        f'<rect x="{label_width + 80}" y="{legend_y - 9}"'
        f' width="10" height="10" fill="{BAR_COLOURS["theme"]}"/>'
        f'<text x="{label_width + 94}" y="{legend_y}" class="lbl">{escape(kind_labels[1])}</text>'
        f'<rect x="{label_width + 160}" y="{legend_y - 5}"'
        f' width="16" height="3" fill="{PREVIOUS_COLOUR}"/>'
        f'<text x="{label_width + 180}" y="{legend_y}" class="lbl">{escape(previous_label)}</text>'
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" aria-label="{escape(title)}">'
        "<style>.lbl{font:12px sans-serif;fill:#333}.val{font:11px sans-serif;fill:#555}"
        ".ttl{font:bold 13px sans-serif;fill:#222}</style>"
        f'<text x="0" y="16" class="ttl">{escape(title)}</text>' + "".join(rows) + legend + "</svg>"
    )
    return Markup(svg)
