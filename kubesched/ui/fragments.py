"""The fragments a cursor move reruns: the stepper's position (status line, slider) and the page's
cursor-driven views.

Upstream: no counterpart (dashboard plumbing). A click on ▶ reruns only these
(``st.rerun([POSITION, VIEWS])`` from the stepper's callbacks): not the stepper's buttons (the
``STEPPER`` fragment, rerun only by its own widgets), the navigation, the sidebar pickers or a
page's editors. A page draws whatever depends on the cursor through ``cursor_views(body)``; pages
without one (Home) are not rerun by a step at all.

Rules: a widget inside the views fragment reruns only that fragment, so a widget there that
changes the Simulation or the session (load, edit, seek) ends its callback with ``rerun_app()``.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from kubesched.ui.status import computing

STEPPER, POSITION, VIEWS = "stepper", "position", "views"
_HAS_VIEWS = "_page_has_views"


def begin_page() -> None:
    """Called by app.py before a page runs in a full run: the page has no views fragment yet."""
    st.session_state[_HAS_VIEWS] = False


@st.fragment(key=VIEWS)
def _views(body: Callable[[], None]) -> None:
    with computing():
        body()


def cursor_views(body: Callable[[], None]) -> None:
    """Run ``body`` as a views fragment, rerun with the stepper on every cursor move (a page may
    have several: one per tab)."""
    st.session_state[_HAS_VIEWS] = True
    _views(body)


def after_cursor_move() -> None:
    """In a stepper callback: rerun the stepper's position and the page's views, not the whole app."""
    st.rerun([POSITION, VIEWS] if st.session_state.get(_HAS_VIEWS) else [POSITION])


def rerun_app() -> None:
    """In a callback of a widget inside a fragment: rerun the whole app (the sidebar shows the change)."""
    st.rerun()
