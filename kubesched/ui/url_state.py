"""What the URL carries, and the browser's Back and Forward.

Upstream: no counterpart (dashboard plumbing). Keys: ``?cluster=`` (a sample), ``?scenario=`` (a
run that is not a plain sample: edited, uploaded, two replicas or with edits, as compressed
scenario YAML), ``?step=`` (the cursor), ``?lang=``, ``?present=``; the Lessons page owns
``?lesson=`` and ``?lstep=``.

Every step writes ``?step=`` (Streamlit pushes a history entry). Back or Forward reruns the app
with the older URL (a rerun Streamlit marks as history navigation): a ``?step=`` there different
from the one this session wrote last came from the browser's history, and the cursor goes there.
Any other rerun may carry a ``?step=`` older than the last one written (a click sent before that
URL reached the browser): it is not a move. A run too big to carry in the URL gets no
``?cluster=`` (it would name the wrong run); the sidebar says it cannot be reproduced from the URL.
"""

from __future__ import annotations

import base64
import zlib

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

STEP, CLUSTER, SCENARIO, LANG = "step", "cluster", "scenario", "lang"
URL_SCENARIO_LIMIT = 8000          # characters of ?scenario= (links stay well under browser limits)
MAX_SCENARIO_BYTES = 5 * 2**20     # a decompressed ?scenario= larger than this is refused
_WRITTEN = "_url_step_written"
_START_STEP = "_url_step_at_start"


def remember_start() -> None:
    """Keep the ``?step=`` the session was opened with (a run restored later goes there)."""
    if _START_STEP not in st.session_state:
        step = st.query_params.get(STEP)
        st.session_state[_START_STEP] = int(step) if step and step.isdigit() else None


def start_step() -> int | None:
    return st.session_state.get(_START_STEP)


def write_lang() -> None:
    """Callback of the language picker: ``?lang=zh`` (none for English, the default)."""
    if st.session_state.get(LANG) == "zh":
        st.query_params[LANG] = "zh"
    else:
        st.query_params.pop(LANG, None)


def write_step(cursor: int) -> None:
    """Put the cursor in the URL (after every stepper run)."""
    wanted = str(cursor)
    st.session_state[_WRITTEN] = wanted
    if st.query_params.get(STEP) != wanted:
        st.query_params[STEP] = wanted


def is_history_navigation() -> bool:
    """This rerun was started by the browser's Back or Forward (not a click carrying an old URL)."""
    ctx = get_script_run_ctx()
    return ctx is not None and ctx.is_history_navigation


def history_step() -> int | None:
    """The ``?step=`` Back/Forward brought back, if it differs from the one written last; else None."""
    if not is_history_navigation():
        return None
    step, written = st.query_params.get(STEP), st.session_state.get(_WRITTEN)
    if written is None or step is None or step == written or not step.isdigit():
        return None
    return int(step)


def encode_scenario(text: str) -> str:
    """Scenario YAML as a URL-safe ``?scenario=`` value (zlib + base64url, no padding)."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def decode_scenario(value: str) -> str | None:
    """The YAML of a ``?scenario=`` value, or None when it is not one (or too large once inflated)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, MAX_SCENARIO_BYTES + 1)
    except (ValueError, zlib.error):
        return None
    if len(data) > MAX_SCENARIO_BYTES or inflater.unconsumed_tail:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def write_run(sample: str | None, scenario_yaml: str | None) -> bool:
    """Name the run in the URL: ``?cluster=`` for a plain sample, else ``?scenario=`` when it fits.

    Returns False when the run cannot be carried by the URL (too big): neither key is left then.
    """
    if sample is not None:
        st.query_params.pop(SCENARIO, None)
        if st.query_params.get(CLUSTER) != sample:
            st.query_params[CLUSTER] = sample
        return True
    st.query_params.pop(CLUSTER, None)
    value = encode_scenario(scenario_yaml or "")
    if len(value) > URL_SCENARIO_LIMIT:
        st.query_params.pop(SCENARIO, None)
        return False
    if st.query_params.get(SCENARIO) != value:
        st.query_params[SCENARIO] = value
    return True
