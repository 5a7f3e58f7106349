"""The shared stepper: one cursor over the trace, moved by event, phase or pod, a slider, autoplay.

Upstream: no counterpart (dashboard plumbing). A *phase* boundary is a PHASE_START / PHASE_END /
CYCLE_START / CYCLE_END record (``Simulation.step("phase")``); a *pod* boundary is the end of
the callback that ends a scheduling cycle (``scheduleOne`` returning).

Rules (Streamlit's rerun model): the cursor lives in the Simulation; widgets change it only in
callbacks; the slider's session value (key ``"step"``) is written from the cursor before the
slider is drawn. The URL carries ``?step=`` (written here after every run; read by
``session.ensure`` when a session starts), so ``?cluster=…&step=…`` reproduces a view.

Deviation from the dashboard brief: the slider is not ``bind="query-params"``; its maximum
grows with the computed trace, and a bound slider whose maximum changes is re-seeded from the
URL of the previous run (Streamlit 1.67 treats it as a new widget), which would undo a step.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import streamlit as st

from kubesched.sim.simulation import PHASE_KINDS, Simulation
from kubesched.trace import Kind
from kubesched.ui import session
from kubesched.ui.i18n import t

STEP_KEY = "step"
PLAYING_KEY = "playing"
SPEED_KEY = "play_speed"
_ARMED_KEY = "_play_armed"
SPEEDS = (0.5, 1.0, 2.0, 4.0)          # seconds between autoplay steps
UNITS = ("event", "phase", "pod")
SHORTCUTS = {
    ("event", -1): "Left", ("event", 1): "Right",
    ("phase", -1): "Shift+Left", ("phase", 1): "Shift+Right",
    ("pod", -1): "Shift+Up", ("pod", 1): "Shift+Down",
}
IDLE_SHORTCUT = "End"
PLAY_SHORTCUT = "P"


# -- pure cursor arithmetic (tested without Streamlit) -------------------------------------------
def previous_position(sim: Simulation, unit: str) -> int:
    """Where one step back by ``unit`` puts the cursor (the inverse of ``Simulation.step``)."""
    cursor = sim.cursor
    trace = sim.trace
    marks = [m.trace_len for m in sim.engine.marks]
    if unit == "event":
        positions = [0] + marks
        return positions[max(0, bisect.bisect_left(positions, cursor) - 1)]
    if unit == "phase":
        for index in range(min(cursor, len(trace)) - 2, -1, -1):
            if trace[index].kind in PHASE_KINDS:
                return index + 1
        return 0
    if unit == "pod":
        for index in range(min(cursor, len(trace)) - 1, -1, -1):
            if trace[index].kind is Kind.CYCLE_END:
                position = _mark_after(marks, index)
                if position < cursor:
                    return position
        return 0
    raise ValueError(f"unknown step unit {unit!r}")


def _mark_after(marks: Sequence[int], index: int) -> int:
    """The first event boundary after record ``index``."""
    at = bisect.bisect_right(marks, index)
    return marks[at] if at < len(marks) else index + 1


def move(sim: Simulation, unit: str, direction: int) -> int:
    """Step the cursor one ``unit`` forward (+1, computing further if needed) or back (-1)."""
    if direction > 0:
        return sim.step(unit)
    if unit == "event":
        return sim.back(1)
    return sim.seek(previous_position(sim, unit))


def status(sim: Simulation) -> dict[str, object]:
    """What the status line shows: time, cycle, current pod, cursor, trace length, stop reason."""
    return {"time": sim.time, "cycle": sim.cycle, "pod": sim.current_pod or "", "cursor": sim.cursor,
            "total": len(sim.trace), "stopped": sim.stopped_reason or ""}


# -- callbacks (the only places the cursor changes) ------------------------------------------------
def _sync_slider(sim: Simulation) -> None:
    st.session_state[STEP_KEY] = sim.cursor


def on_move(unit: str, direction: int) -> None:
    sim = session.current()
    move(sim, unit, direction)
    _sync_slider(sim)


def on_run_to_idle() -> None:
    sim = session.current()
    sim.run_until_idle()
    _sync_slider(sim)


def on_slide() -> None:
    sim = session.current()
    sim.seek(int(st.session_state[STEP_KEY]))
    _sync_slider(sim)


def on_play() -> None:
    st.session_state[PLAYING_KEY] = not st.session_state.get(PLAYING_KEY, False)


def on_reset() -> None:
    session.reset()
    st.session_state[PLAYING_KEY] = False
    _sync_slider(session.current())


# -- rendering -------------------------------------------------------------------------------------
def render_stepper() -> None:
    """The stepper in the current container (app.py puts it in the sidebar on every page)."""
    sim = session.current()
    lang = session.lang()
    st.session_state[STEP_KEY] = sim.cursor
    st.markdown(f"**{t('stepper.title', lang)}**")
    render_status(sim, lang)
    for unit in UNITS:
        back, label, forward = st.columns([5, 3, 5], vertical_alignment="center", gap="xsmall")
        back.button("◀", key=f"back_{unit}", on_click=on_move, args=(unit, -1),
                    shortcut=SHORTCUTS[(unit, -1)], help=t(f"stepper.back_{unit}", lang), width="stretch")
        label.markdown(t(f"stepper.unit_{unit}", lang))
        forward.button("▶", key=f"next_{unit}", on_click=on_move, args=(unit, 1),
                       shortcut=SHORTCUTS[(unit, 1)], help=t(f"stepper.next_{unit}", lang), width="stretch")
    idle, reset = st.columns(2)
    idle.button(t("stepper.run_to_idle", lang), key="run_to_idle", on_click=on_run_to_idle,
                shortcut=IDLE_SHORTCUT, width="stretch")
    reset.button(t("stepper.reset", lang), key="reset_sim", on_click=on_reset, width="stretch",
                 help=t("stepper.reset_help", lang))
    st.slider(t("stepper.slider", lang), min_value=0, max_value=max(1, len(sim.trace)), key=STEP_KEY,
              on_change=on_slide, help=t("stepper.slider_help", lang))
    play, speed = st.columns([1, 1], vertical_alignment="bottom")
    playing = bool(st.session_state.get(PLAYING_KEY))
    play.button(t("stepper.pause" if playing else "stepper.play", lang), key="play", on_click=on_play,
                shortcut=PLAY_SHORTCUT, width="stretch", type="primary" if playing else "secondary")
    speed.selectbox(t("stepper.speed", lang), SPEEDS, index=1, key=SPEED_KEY,
                    format_func=lambda s: f"{s:g} s")
    _autoplay()
    _write_url(sim)


def render_status(sim: Simulation | None = None, lang: str | None = None) -> None:
    """The always-visible line: simulated time, cycle, current pod, position, stop reason."""
    sim = sim or session.current()
    lang = lang or session.lang()
    s = status(sim)
    text = t("stepper.status", lang, time=f"{s['time']:g}", cycle=s["cycle"], cursor=s["cursor"],
             total=s["total"])
    st.text(text)
    st.text(t("stepper.pod", lang) + ": " + (str(s["pod"]) or "—"))
    if s["stopped"]:
        st.text(t("stepper.stopped", lang, reason=t(f"stepper.reason_{s['stopped']}", lang)))


def _write_url(sim: Simulation) -> None:
    wanted = str(sim.cursor)
    if st.query_params.get(STEP_KEY) != wanted:
        st.query_params[STEP_KEY] = wanted


def _autoplay() -> None:
    """Step one event every few seconds while playing (a fragment that reruns on a timer)."""
    playing = bool(st.session_state.get(PLAYING_KEY))
    st.session_state[_ARMED_KEY] = False
    interval = st.session_state.get(SPEED_KEY, 1.0) if playing else None

    @st.fragment(run_every=interval)
    def tick() -> None:
        if not st.session_state.get(PLAYING_KEY):
            return
        if not st.session_state.get(_ARMED_KEY):
            st.session_state[_ARMED_KEY] = True   # the full run drew us; step on the next timer tick
            return
        sim = session.current()
        before = sim.cursor
        sim.step("event")
        if sim.cursor == before:
            st.session_state[PLAYING_KEY] = False  # nothing left to show
        st.rerun()

    tick()
