"""``computing()``: a "computing…" status on anything that may take more than half a second.

Upstream: no counterpart (dashboard plumbing). ``st.spinner`` shows itself only after 0.5 s
(Streamlit's ``DELAY_SECS``), so wrapping quick work costs nothing on screen; it counts the
seconds while it shows. Used around loading a cluster, stepping, running to idle, comparing
configurations and drawing the cursor-driven views.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

import streamlit as st

from kubesched.ui.i18n import t


def computing() -> AbstractContextManager[None]:
    return st.spinner(t("app.computing", st.session_state.get("lang", "en")), show_time=True)
