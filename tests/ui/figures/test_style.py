"""kubesched.ui.figures.style: the shared figure layout and the outcome colour scale."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from kubesched.ui import theme
from kubesched.ui.figures.style import (
    FONT,
    PAPER,
    outcome_colorscale,
    plain_layout,
    stepwise_colorscale,
)


def test_outcome_colorscale_has_one_flat_band_per_code() -> None:
    scale = outcome_colorscale()
    n = len(theme.FILTER_OUTCOMES)
    assert len(scale) == 2 * n
    for code in range(n):
        colour = theme.FILTER_OUTCOMES[code][1]
        assert scale[2 * code] == [code / n, colour]
        assert scale[2 * code + 1] == [(code + 1) / n, colour]
    assert scale[0][0] == 0 and scale[-1][0] == 1


@pytest.mark.parametrize(("colours", "expected"), [
    ((), []),
    (("#000",), [[0.0, "#000"], [1.0, "#000"]]),
    (("a", "b"), [[0.0, "a"], [0.5, "a"], [0.5, "b"], [1.0, "b"]]),
])
def test_stepwise_colorscale(colours: tuple[str, ...], expected: list[list[object]]) -> None:
    assert stepwise_colorscale(colours) == expected


@pytest.mark.parametrize(("title", "top", "text"), [(None, 10, None), ("", 10, ""), ("Scores", 40, "Scores")])
def test_plain_layout(title: str | None, top: int, text: str | None) -> None:
    fig = plain_layout(go.Figure(), height=123, title=title)
    layout = fig.layout
    assert layout.height == 123 and layout.uirevision == "fixed"
    assert layout.paper_bgcolor == PAPER == layout.plot_bgcolor
    assert layout.font.family == FONT["family"] and layout.font.size == FONT["size"]
    assert (layout.margin.l, layout.margin.r, layout.margin.t, layout.margin.b) == (10, 10, top, 10)
    assert layout.title.text == text
