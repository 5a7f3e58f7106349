"""Figures and rows built once per (run, cursor, view) in a browser session, or once per (run,
view, input) where the input is the key (``built_once``).

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
    return _lookup((view, sim.cursor, len(sim.trace), session.lang(), *key), build)


def built_once(view: str, build: Callable[[], T], *key: Hashable) -> T:
    """``build()`` for ``view`` in this session's run, once per ``key`` whatever the cursor: for a
    build whose key is its whole input (a figure keyed by the matrix or the decision record it
    draws). A step that leaves that input as it was finds the same object, so the browser gets
    the same chart spec and draws nothing again."""
    return _lookup((view, "", session.lang(), *key), build)


def _lookup(full: tuple, build: Callable[[], T]) -> T:
    sim = session.current()
    store = st.session_state.get(_CACHE)
    if store is None or store["sim"] is not sim or store["engine"] is not sim.engine:
        store = {"sim": sim, "engine": sim.engine, "entries": OrderedDict()}
        st.session_state[_CACHE] = store
    entries: OrderedDict = store["entries"]
    if full in entries:
        entries.move_to_end(full)
        return entries[full]
    value = build()
    entries[full] = value
    while len(entries) > MAX_ENTRIES:
        entries.popitem(last=False)
    return value
