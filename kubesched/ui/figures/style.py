"""The look every Plotly figure of the Schedule and Preemption pages shares: font, white paper,
small margins, a fixed ``uirevision``, and the discrete colour scales of the heatmaps.

Upstream: no counterpart (dashboard plumbing). Colours come from ``kubesched.ui.theme``.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from kubesched.ui import theme

__all__ = ["FONT", "PAPER", "outcome_colorscale", "plain_layout", "stepwise_colorscale"]

FONT = {"family": "sans-serif", "size": 13, "color": "#222222"}
PAPER = "#FFFFFF"


def plain_layout(fig: go.Figure, *, height: int, title: str | None = None) -> go.Figure:
    """``fig`` with the shared font, white paper, 10 px margins (40 on top under a title) and a
    ``uirevision`` that keeps zoom and legend choices between steps; ``title=None`` sets no title."""
    layout: dict[str, object] = {
        "height": height, "font": FONT, "paper_bgcolor": PAPER, "plot_bgcolor": PAPER,
        "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": 10}, "uirevision": "fixed"}
    if title is not None:
        layout["title"] = {"text": title, "x": 0, "font": {"size": 15}}
    fig.update_layout(**layout)
    return fig


def stepwise_colorscale(colours: Sequence[str]) -> list[list[object]]:
    """A discrete colour scale for integer codes 0..n-1 drawn with ``zmin=-0.5, zmax=n-0.5``:
    code ``c`` owns the flat band [c/n, (c+1)/n] of ``colours[c]``."""
    n = len(colours)
    scale: list[list[object]] = []
    for code, colour in enumerate(colours):
        scale += [[code / n, colour], [(code + 1) / n, colour]]
    return scale


def outcome_colorscale() -> list[list[object]]:
    """``stepwise_colorscale`` of the ``theme.FILTER_*`` outcome colours."""
    return stepwise_colorscale([theme.FILTER_OUTCOMES[code][1] for code in range(len(theme.FILTER_OUTCOMES))])
