"""Exports offered in the sidebar (scenario YAML, trace JSON) and ``chart_download`` for any page.

Upstream: no counterpart. Charts are written as standalone HTML with plotly.js embedded
(``include_plotlyjs=True``): no CDN at run time, a workshop room may have no internet. Files are
produced only when the learner clicks (``st.download_button`` with a callable).
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

from kubesched.trace import digest
from kubesched.ui import session
from kubesched.ui.i18n import t


def _stem(name: str) -> str:
    stem = re.sub(r"\.ya?ml$", "", name)
    return re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-") or "cluster"


def chart_html(fig: go.Figure) -> str:
    """A standalone HTML page of ``fig`` with plotly.js inside (works offline)."""
    return fig.to_html(include_plotlyjs=True, full_html=True)


def chart_download(fig: go.Figure, name: str, *, key: str | None = None) -> None:
    """A download button offering ``fig`` as ``<name>.html`` (built only when clicked)."""
    st.download_button(t("nav.export_chart", session.lang()), data=lambda: chart_html(fig), icon=":material/download:",
                       file_name=f"{_stem(name)}.html", mime="text/html", on_click="ignore",
                       key=key or f"chart_download_{name}")


def render_exports() -> None:
    """Sidebar section: the scenario YAML and the trace JSON of the current simulation."""
    sim = session.current()
    lang = session.lang()
    stem = _stem(session.cluster_source())
    computed = len(sim.trace)
    trace = sim.trace
    with st.expander(t("nav.export", lang)):
        st.download_button(t("nav.export_scenario", lang), data=sim.to_scenario_yaml,
                           file_name=f"{stem}-scenario.yaml", mime="application/yaml", on_click="ignore",
                           key="export_scenario", help=t("nav.export_help", lang), width="stretch")
        st.download_button(t("nav.export_trace", lang), data=lambda: digest.dumps(trace[:computed]),
                           file_name=f"{stem}-trace.jsonl", mime="application/json", on_click="ignore",
                           key="export_trace", width="stretch")
