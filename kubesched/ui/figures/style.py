"""The look every Plotly figure of the Schedule and Preemption pages shares: font, white paper,
small margins, a fixed ``uirevision``, and the discrete colour scale of the outcome heatmaps.

Upstream: no counterpart (dashboard plumbing). Colours come from ``kubesched.ui.theme``.
"""

from __future__ import annotations

import plotly.graph_objects as go

from kubesched.ui import theme

__all__ = ["FONT", "PAPER", "outcome_colorscale", "plain_layout"]

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


def outcome_colorscale() -> list[list[object]]:
    """A discrete colour scale for the ``theme.FILTER_*`` codes 0..n-1 drawn with
    ``zmin=-0.5, zmax=n-0.5``: one flat band of the outcome's colour per code."""
    n = len(theme.FILTER_OUTCOMES)
    scale: list[list[object]] = []
    for code in range(n):
        colour = theme.FILTER_OUTCOMES[code][1]
        scale += [[code / n, colour], [(code + 1) / n, colour]]
    return scale
