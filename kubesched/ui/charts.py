"""``show(fig, key)``: every Plotly chart of the dashboard goes through here.

Upstream: no counterpart (dashboard plumbing). One place decides what every chart shares:

- margins that grow to fit their labels (``automargin`` on every axis), so no node name is cut;
- the toolbar offers one thing, "download as PNG" (Plotly's ``toImage``), shown on hover;
- in presenter mode every font is at least ``PRESENTER_FONT`` px;
- in the dark theme the paper, the grid and the text follow the page (bars keep their colours).

Figures stay pure (``kubesched/ui/figures``); this only restyles a copy of their JSON.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from kubesched.ui import presenter

PRESENTER_FONT = 16
CONFIG = {"displaylogo": False, "modeBarButtons": [["toImage"]], "displayModeBar": "hover",
          "toImageButtonOptions": {"format": "png", "scale": 2}}
DARK = {"paper": "#0E1117", "text": "#FAFAFA", "grid": "#3A3F4B"}
_AXIS_PREFIXES = ("xaxis", "yaxis")
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
            annotation.setdefault("font", {})["color"] = DARK["text"]
    for trace in spec.get("data", []):
        if trace.get("type") == "scatter" and "text" in str(trace.get("mode", "")):
            trace.setdefault("textfont", {})["color"] = DARK["text"]


def show(fig: go.Figure, key: str, **kwargs: Any) -> None:
    """``st.plotly_chart`` of ``fig`` restyled for the current mode and theme (PNG download only)."""
    spec = styled(fig, large=presenter.active(), dark=dark_theme())
    st.plotly_chart(spec, key=key, theme=None, config=CONFIG, **kwargs)
