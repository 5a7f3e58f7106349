"""The default of a choice widget whose value the app sets itself (from the URL, the locale, a load).

Upstream: no counterpart (Streamlit plumbing). A keyed selectbox or radio keeps its value in
``st.session_state``, but Streamlit still falls back to the widget's *default* option whenever the
browser reports no value or a label it no longer offers (a run cut short before the widget reached
the browser, options relabelled in another language). With the default left at the first option,
the learner's lesson, language or cluster then jumps to the first one a click later (seen in CI:
a link to lesson 20 showed lesson 01 after the first Continue). ``index_of`` makes the default
the value the session holds, so that fallback changes nothing. The index is not part of a keyed
widget's identity, so passing a new one each run never resets the widget.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st


def index_of(key: str, options: Sequence[object], fallback: int = 0) -> int:
    """The position of ``st.session_state[key]`` among ``options``; ``fallback`` when it is not one."""
    value = st.session_state.get(key)
    for i, option in enumerate(options):
        if option == value:
            return i
    return fallback
