"""Figures and rows built once per (run, cursor, view) in a browser session.

Upstream: no counterpart (dashboard plumbing). Stepping back and forth, or a widget rerun of
the views fragment, finds what it drew before instead of rebuilding it. The cache lives in the
session (a run is mutable and never shared) and is dropped when the session's run changes
(a new cluster, a reset, an edit that forks the future).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

from kubesched.ui import session

T = TypeVar("T")
MAX_ENTRIES = 96
_CACHE = "_figure_cache"


def cached(view: str, build: Callable[[], T], *key: Hashable) -> T:
    """``build()`` for ``view`` at the cursor of this session's run, computed once per ``key``."""
    sim = session.current()
    store = st.session_state.get(_CACHE)
    if store is None or store["sim"] is not sim or store["engine"] is not sim.engine:
        store = {"sim": sim, "engine": sim.engine, "entries": OrderedDict()}
        st.session_state[_CACHE] = store
    entries: OrderedDict = store["entries"]
    full = (view, sim.cursor, len(sim.trace), session.lang(), *key)
    if full in entries:
        entries.move_to_end(full)
        return entries[full]
    value = build()
    entries[full] = value
    while len(entries) > MAX_ENTRIES:
        entries.popitem(last=False)
    return value
