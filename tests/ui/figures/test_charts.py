"""``charts.styled``: automargin on every axis, presenter fonts, dark colours, the PNG-only toolbar."""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from kubesched.ui import charts


def figure() -> go.Figure:
    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Bar(x=[1, 2], y=["zone-a-large-1", "zone-b-small-1"], orientation="h",
                         textfont={"size": 11, "color": "#000000"}), row=1, col=1)
    fig.add_trace(go.Scatter(x=[1], y=[2], mode="text", text=["1000479"], textfont={"size": 13}), row=1, col=2)
    fig.add_trace(go.Scatter(x=[1], y=[2], mode="markers+text", text=["label"]), row=1, col=2)
    fig.add_trace(go.Bar(x=[1], y=["Reserve"], orientation="h", text=["✓ Success"], textposition="outside",
                         textfont={"color": "#222222"}), row=1, col=1)
    fig.update_layout(font={"size": 13, "color": "#222222"}, legend={"font": {"size": 11}},
                      margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      annotations=[{"text": "✗ KillLeader", "font": {"color": "#D55E00"}, "x": 0, "y": 1},
                                   {"text": "plain", "x": 1, "y": 1}])
    fig.update_yaxes(tickfont={"size": 12})
    return fig


def test_every_axis_gets_automargin_and_the_streamlit_font():
    spec = charts.styled(figure(), large=False, dark=False)
    layout = spec["layout"]
    assert [layout[a]["automargin"] for a in ("xaxis", "xaxis2", "yaxis", "yaxis2")] == [True] * 4
    assert layout["font"]["family"] == charts.FONT_FAMILY and layout["font"]["size"] == 13
    assert spec["data"][0]["textfont"]["size"] == 11          # normal mode keeps the sizes


def test_presenter_mode_raises_every_font_to_16_px():
    spec = charts.styled(figure(), large=True, dark=False)
    sizes = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("font") and isinstance(value, dict) and "size" in value:
                    sizes.append(value["size"])
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(spec)
    assert sizes and min(sizes) >= charts.PRESENTER_FONT == 16
    assert spec["layout"]["font"]["size"] == 16 and spec["data"][0]["textfont"]["size"] == 16


def test_dark_theme_paper_grid_and_text():
    spec = charts.styled(figure(), large=False, dark=True)
    layout = spec["layout"]
    assert (layout["paper_bgcolor"], layout["plot_bgcolor"], layout["font"]["color"]) == (
        charts.DARK["paper"], charts.DARK["paper"], charts.DARK["text"])
    assert layout["yaxis"]["gridcolor"] == charts.DARK["grid"] and layout["xaxis2"]["tickfont"]["color"] == \
        charts.DARK["text"]
    assert [a["font"].get("color") for a in layout["annotations"]] == ["#D55E00", charts.DARK["text"]]
    assert spec["data"][1]["textfont"]["color"] == charts.DARK["text"]   # text on the paper
    assert spec["data"][0]["textfont"]["color"] == "#000000"             # text on a bar keeps its colour
    assert spec["data"][3]["textfont"]["color"] == charts.DARK["text"]   # text beside a bar is on the paper


def test_styling_leaves_the_figure_as_it_was():
    fig = figure()
    before = fig.to_dict()
    charts.styled(fig, large=True, dark=True)
    assert fig.to_dict() == before


def test_the_toolbar_offers_png_download_only():
    assert charts.CONFIG["modeBarButtons"] == [["toImage"]]
    assert charts.CONFIG["displaylogo"] is False and charts.CONFIG["toImageButtonOptions"]["format"] == "png"


def test_a_built_figure_hands_streamlit_its_dict():
    spec = charts.styled(figure(), large=False, dark=False)
    built = charts._Built(spec)
    assert built.to_dict() is spec
    assert pio.to_json(built.to_dict(), validate=False) == pio.to_json(spec, validate=False)


def test_figures_use_no_plotly_template():
    """As app.py imports them: Streamlit first (it makes its own template the default), then the figures."""
    import importlib

    import streamlit  # noqa: F401

    import kubesched.ui.figures

    importlib.reload(kubesched.ui.figures)
    assert pio.templates.default == "none"
