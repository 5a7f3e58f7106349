"""``show(fig, key)``: every Plotly chart of the dashboard goes through here.

Upstream: no counterpart (dashboard plumbing). One place decides what every chart shares:

- margins that grow to fit their labels (``automargin`` on every axis), so no node name is cut;
- the toolbar offers one thing, "download as PNG" (Plotly's ``toImage``), shown on hover;
- in presenter mode every font is at least ``PRESENTER_FONT`` px;
- in the dark theme the paper, the grid and the text follow the page (bars keep their colours);
- text in Source Sans, the font Streamlit ships (every glyph the figures use is in it).

Figures stay pure (``kubesched/ui/figures``); this only restyles a copy of their JSON.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from kubesched.ui import presenter

PRESENTER_FONT = 16
FONT_FAMILY = '"Source Sans", "Source Sans Pro", sans-serif'
CONFIG = {"displaylogo": False, "modeBarButtons": [["toImage"]], "displayModeBar": "hover",
          "toImageButtonOptions": {"format": "png", "scale": 2}}
DARK = {"paper": "#171614", "text": "#F5F4F0", "grid": "#45433E"}
_AXIS_PREFIXES = ("xaxis", "yaxis")
_BLACKS = {"", "#000", "#000000", "#111111", "#222222", "#333333", "BLACK"}
_FONT_KEYS = ("font", "textfont", "tickfont", "insidetextfont", "outsidetextfont", "hoverlabel")


def dark_theme() -> bool:
    """Whether the browser shows Streamlit's dark theme (``st.context.theme``)."""
    return getattr(st.context.theme, "type", "light") == "dark"


def styled(fig: go.Figure, *, large: bool, dark: bool) -> dict[str, Any]:
    """The figure as a dict with automargin on every axis, large fonts and dark colours as asked."""
    spec = fig.to_dict()
    layout = spec.setdefault("layout", {})
    for name, axis in list(layout.items()):
        if name.startswith(_AXIS_PREFIXES) and isinstance(axis, dict):
            axis["automargin"] = True
    layout.setdefault("xaxis", {})["automargin"] = True
    layout.setdefault("yaxis", {})["automargin"] = True
    layout.setdefault("font", {})["family"] = FONT_FAMILY
    if large:
        _grow_fonts(spec, PRESENTER_FONT)
        layout.setdefault("font", {})["size"] = max(layout.get("font", {}).get("size", 0), PRESENTER_FONT)
    if dark:
        _darken(spec)
    return spec


def _grow_fonts(node: Any, minimum: int) -> None:
    """Raise every explicit font size below ``minimum`` (in traces, axes, legends, titles)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _FONT_KEYS and isinstance(value, dict):
                size = value.get("size")
                if isinstance(size, (int, float)) and size < minimum:
                    value["size"] = minimum
                elif isinstance(size, list):
                    value["size"] = [max(s, minimum) for s in size]
            _grow_fonts(value, minimum)
    elif isinstance(node, list):
        for item in node:
            _grow_fonts(item, minimum)


def _darken(spec: dict[str, Any]) -> None:
    layout = spec["layout"]
    layout["paper_bgcolor"] = layout["plot_bgcolor"] = DARK["paper"]
    layout.setdefault("font", {})["color"] = DARK["text"]
    for name, axis in layout.items():
        if name.startswith(_AXIS_PREFIXES) and isinstance(axis, dict):
            axis.update(gridcolor=DARK["grid"], linecolor=DARK["grid"], zerolinecolor=DARK["grid"])
            axis.setdefault("tickfont", {})["color"] = DARK["text"]
    for key in ("legend", "title"):
        if isinstance(layout.get(key), dict):
            layout[key].setdefault("font", {})["color"] = DARK["text"]
    for annotation in layout.get("annotations", []):
        if not annotation.get("bgcolor"):
            _lighten(annotation.setdefault("font", {}))
    for trace in spec.get("data", []):
        if _text_on_paper(trace):
            _lighten(trace.setdefault("textfont", {}))


def _text_on_paper(trace: dict[str, Any]) -> bool:
    """Whether the trace's text is drawn on the paper: a scatter's text, a bar's text outside it."""
    if trace.get("type") == "scatter":
        return "text" in str(trace.get("mode", ""))
    return trace.get("type") == "bar" and trace.get("textposition") == "outside"


def _lighten(font: dict[str, Any]) -> None:
    """Text drawn on the paper: black (or unset) becomes the dark theme's text colour; colours stay."""
    if str(font.get("color", "")).upper() in _BLACKS:
        font["color"] = DARK["text"]


class _Built(go.Figure):
    """A figure already built and validated, handed to ``st.plotly_chart`` as its dict.

    Streamlit turns a Plotly figure into JSON through ``to_dict()``; this one returns the stored dict,
    so a cached figure is not rebuilt into Plotly's object tree on every rerun (10-40 ms a chart).
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        self.__dict__["_spec"] = spec

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__["_spec"]


def show(fig: go.Figure, key: str, **kwargs: Any) -> None:
    """``st.plotly_chart`` of ``fig`` restyled for the current mode and theme (PNG download only).

    The restyled dict is kept on the figure, so a cached figure is restyled once per mode.
    """
    look = (presenter.active(), dark_theme())
    memo = fig.__dict__.setdefault("_kubesched_styled", {})
    if look not in memo:
        memo[look] = styled(fig, large=look[0], dark=look[1])
    st.plotly_chart(_Built(memo[look]), key=key, theme=None, config=CONFIG, **kwargs)
