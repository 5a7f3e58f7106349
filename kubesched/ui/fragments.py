"""The fragments a cursor move reruns: the stepper and the page's cursor-driven views.

Upstream: no counterpart (dashboard plumbing). A click on ▶ reruns only these
(``st.rerun([STEPPER, VIEWS])`` from the stepper's callbacks): not the navigation, the sidebar
pickers or a page's editors. A page draws whatever depends on the cursor through
``cursor_views(body)``; pages without one (Home) are not rerun by a step at all.

Rules: a widget inside the views fragment reruns only that fragment, so a widget there that
changes the Simulation or the session (load, edit, seek) ends its callback with ``rerun_app()``.
No fragment is drawn inside another: a rerun of a nested fragment requested while a full run is
still inside its parent (a click on ▶ while a page loads on a busy server) leaves the browser with
a delta for a place that no longer exists ("Bad delta path index", a blank page; Streamlit 1.67,
found by ``benchmarks/load_sessions.py``). The stepper's timers (autoplay, run to idle in slices)
are therefore fragments beside the stepper, not in it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from kubesched.ui.status import computing

STEPPER, VIEWS = "stepper", "views"
_HAS_VIEWS, _FULL_RUN_END = "_page_has_views", "_full_run_end"
SETTLE_S = 1.0   # a fragment run this soon after a full run ends would meet that run's cleanup


def begin_page() -> None:
    """Called by app.py before a page runs in a full run: the page has no views fragment yet."""
    st.session_state[_HAS_VIEWS] = False
    st.session_state[_FULL_RUN_END] = None


def end_page() -> None:
    """Called by app.py when the page ran to its end."""
    st.session_state[_FULL_RUN_END] = time.monotonic()


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
    """In a stepper callback: rerun the stepper and the page's views, not the whole app.

    Nothing when the callback opens a full run (a click that reached a busy server together with a
    page switch: one full run), which draws them anyway; naming them there cuts them short. The
    whole app when the last full run ended less than ``SETTLE_S`` ago or not at all (a click that
    came while it ran): the browser prunes what that run did not draw only after it ended, and a
    fragment run arriving first has its fresh elements pruned with them.
    """
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return
    ended = st.session_state.get(_FULL_RUN_END)
    if ended is None or time.monotonic() - ended < SETTLE_S:
        st.rerun()
    st.rerun([STEPPER, VIEWS] if st.session_state.get(_HAS_VIEWS) else [STEPPER])


def rerun_app() -> None:
    """In a callback of a widget inside a fragment: rerun the whole app (the sidebar shows the change)."""
    st.rerun()
