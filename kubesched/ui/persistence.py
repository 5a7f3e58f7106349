"""A browser reload keeps the run and the editor draft.

Upstream: no counterpart (dashboard plumbing). The run is named by the URL (``url_state``): a
plain sample by ``?cluster=``, anything else (edited, uploaded, two replicas, with edits) by
``?scenario=`` when it fits, so the link reproduces it anywhere. What the URL cannot hold lives
in this browser's local storage (``browser.local_store``): the editor's draft, and a run too big
for the URL under ``?run=<key>``. On the first run of a session nothing is saved until the
browser has said what it holds, so a reload never overwrites the saved draft with an empty one,
and a URL naming a saved run is left as it is until the browser answered.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from kubesched.ui import browser, session, url_state
from kubesched.ui.i18n import t

RUN = "run"
_READ = "_store_read"
_START = "_link_at_start"     # the run the URL named when the session started
_LINK = "_link_state"          # (sim, engine) the URL was last written for, and whether it fits
_NOTICE = "_link_notice"


def _plain_sample() -> str | None:
    """The sample file name when the run is exactly that sample (no edits), else None."""
    sim = session.current()
    name = st.session_state.get(session.CLUSTER)
    if session.cluster_source() == name and not sim.edits:
        return name
    return None


def _run_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _identity() -> str:
    """Which run the URL names (a draft is restored only into the run it was written against)."""
    for key in (RUN, url_state.SCENARIO, url_state.CLUSTER):
        value = st.query_params.get(key)
        if value:
            return f"{key}:{_run_key(value)}"
    return f"{url_state.CLUSTER}:{_run_key(session.DEFAULT_CLUSTER)}"


def _write_link() -> tuple[bool, str | None, str | None]:
    """Write ``?cluster=`` / ``?scenario=`` / ``?run=`` for the current run (once per run);
    returns (fits in the URL, run key, scenario text) for the local store."""
    sim = session.current()
    marker = (sim, sim.engine)
    cached = st.session_state.get(_LINK)
    if cached is not None and cached[0] is sim and cached[1] is sim.engine:
        fits, key, text = cached[2:]
    else:
        sample = _plain_sample()
        text = None if sample is not None else sim.to_scenario_yaml()
        fits = url_state.write_run(sample, text)
        key = None if fits else _run_key(text or "")
        st.session_state[_LINK] = (*marker, fits, key, text)
    if key is None:
        st.query_params.pop(RUN, None)
    elif st.query_params.get(RUN) != key:
        st.query_params[RUN] = key
    return fits, key, text


def _restore(stored: dict) -> bool:
    """Once per session, when the browser answered: the too-big run of ``?run=``, then the draft.
    Returns whether anything changed (a run loaded, a draft restored, a run said to be lost)."""
    changed = False
    wanted = st.query_params.get(RUN)
    if wanted and stored.get("run_key") == wanted and isinstance(stored.get("run_text"), str):
        step = url_state.start_step()
        loaded = not session.load_cluster_text(stored["run_text"], str(stored.get("run_source") or "saved run"))
        if loaded and step is not None:
            session.current().seek(step)
        changed = True
    elif wanted:
        st.session_state[_NOTICE] = "lost"
        changed = True
    draft = stored.get("draft")
    if isinstance(draft, str) and draft != session.valid_cluster_text() and stored.get("draft_base") == \
            st.session_state.get(_START):
        session.restore_draft(draft)
        changed = True
    return changed


def render(lang: str) -> None:
    """In the sidebar: name the run in the URL, say when the URL cannot reproduce it, and keep what the
    URL cannot hold in this browser (the run is settled by now: every load and edit is a callback)."""
    st.session_state.setdefault(_START, _identity())
    if not st.session_state.get(_READ, False):
        stored = browser.local_store(None)
        if stored is not None:                      # the browser answered: restore once, then go on
            st.session_state[_READ] = True
            if _restore(stored):                    # a rerun for nothing restored would drop what the
                st.rerun()                          # learner did meanwhile (an upload just picked)
        if st.session_state[_START].startswith(f"{RUN}:"):
            return                                  # the session opened on a saved run: wait for the answer
        fits = _write_link()[0]
    else:
        fits, key, text = _write_link()
        save = {"draft": session.cluster_text(), "draft_base": _identity()}
        if key is not None:
            save.update(run_key=key, run_text=text, run_source=session.cluster_source())
        browser.local_store(save)
    if st.session_state.get(_NOTICE) != "lost":
        st.session_state[_NOTICE] = "refused" if st.session_state.get(session.LINK_REFUSED) else (
            None if fits else "too_big")
    notice = st.session_state.get(_NOTICE)
    if notice:
        st.caption(t(f"persist.{notice}", lang))
