"""Presenter mode (``?present=1`` or the toggle): the stepper as a sticky bar over the page, larger
type, the sidebar collapsed (the "?" sheet of keyboard shortcuts is in ``shortcuts``).

Upstream: no counterpart (dashboard plumbing). The bar hides the shortcut hints inside its buttons
(the sheet lists them). Streamlit sizes text, tables and widgets in rem,
so the larger type is one root font size (tables then draw at 0.875 rem = 15.75 px); charts get
their fonts raised by ``charts.show``.
"""

from __future__ import annotations

import streamlit as st

from kubesched.ui import browser
from kubesched.ui.i18n import t

PRESENT_KEY = "present"
BAR_KEY = "presenter_bar"
ROOT_FONT_PX = 18
_COLLAPSED = "_presenter_collapsed"

BACKGROUND = {"light": "#FFFFFF", "dark": "#171614"}   # Streamlit's page background per theme


def presenter_css(theme: str) -> str:
    """Root font size for larger type; the bar sticks under the header with the page's background."""
    return f"""<style>
html {{ font-size: {ROOT_FONT_PX}px; }}
[data-testid="stLayoutWrapper"]:has(> .st-key-{BAR_KEY}) {{ position: sticky; top: 3.75rem; z-index: 990; }}
.st-key-{BAR_KEY} {{
  padding: 0.4rem 0.25rem 0.2rem;
  background: {BACKGROUND.get(theme, BACKGROUND["light"])}; border-bottom: 1px solid rgba(128, 128, 128, 0.4);
}}
.st-key-{BAR_KEY} .st-key-stepper_status p, .st-key-{BAR_KEY} .st-key-stepper_status div {{
  font-size: 1.05rem; font-weight: 600;
}}
.st-key-{BAR_KEY} kbd {{ display: none; }}
[data-testid="stMainBlockContainer"] {{ padding: 4rem 1.5rem 4rem; max-width: none; }}
</style>"""


def init() -> None:
    """Read ``?present=`` once, when the session starts."""
    if PRESENT_KEY not in st.session_state:
        st.session_state[PRESENT_KEY] = st.query_params.get(PRESENT_KEY) in ("1", "true")


def active() -> bool:
    return bool(st.session_state.get(PRESENT_KEY))


def toggle_key() -> str:
    """The toggle's widget key: one per mode, so the switch drawn always shows the mode it is in
    (the toggle moves between the sidebar and the bar)."""
    return f"{PRESENT_KEY}_toggle_{int(active())}"


def _on_toggle(widget: str) -> None:
    st.session_state[PRESENT_KEY] = bool(st.session_state[widget])
    if active():
        st.query_params[PRESENT_KEY] = "1"
    else:
        st.query_params.pop(PRESENT_KEY, None)
    st.session_state[_COLLAPSED] = False


def render_toggle(lang: str) -> None:
    key = toggle_key()
    st.toggle(t("presenter.toggle", lang), value=active(), key=key, on_change=_on_toggle, args=(key,),
              help=t("presenter.help", lang))


def render_styles() -> None:
    """The presenter CSS (only in presenter mode) and, once per entry, the sidebar collapsed."""
    if not active():
        return
    st.html(presenter_css(getattr(st.context.theme, "type", "light") or "light"))
    if not st.session_state.get(_COLLAPSED):
        st.session_state[_COLLAPSED] = True
        browser.collapse_sidebar()
