"""The shared stepper: one cursor over the trace, moved by event, phase or pod, a slider, autoplay.

Upstream: no counterpart (dashboard plumbing). A *phase* boundary is a PHASE_START / PHASE_END /
CYCLE_START / CYCLE_END record (``Simulation.step("phase")``); a *pod* boundary is the end of
the callback that ends a scheduling cycle (``scheduleOne`` returning).

Rules (Streamlit's rerun model): the cursor lives in the Simulation; widgets change it only in
callbacks, which rerun just the stepper and the page's views (``fragments``). The slider is never
written to: when the cursor moved otherwise than by it (a button, a timer, a link) it is drawn anew
under a new key (``slider_key``), so a value the browser sends for the slider it showed before
(a click, a timer tick or a page switch sent before the last step arrived) is not taken for a drag
back to where the cursor was; nor is a value equal to the one the slider showed (``on_slide``:
Streamlit reports an unmoved slider as changed after a timer's tick). The two timers
(autoplay, run to idle in slices) are fragments drawn beside the stepper, never inside it
(``fragments`` says why); a callback that starts or stops one reruns the app, which re-arms them.
Run to idle computes in slices (``SLICE_CALLBACKS`` engine callbacks per rerun of a timer fragment,
``Simulation.compute_ahead``), showing how far it got and a Stop button, so a long run neither
blocks this session's page nor holds the server's thread for its whole length.
The URL carries ``?step=`` (``url_state``). The stepper is drawn once per run: in the sidebar,
or, in presenter mode, as a bar across the top of the main area (same keys and shortcuts).

Deviation from the dashboard brief: the slider is not ``bind="query-params"``; its maximum
grows with the computed trace, and a bound slider whose maximum changes is re-seeded from the
URL of the previous run (Streamlit 1.67 treats it as a new widget), which would undo a step.
"""

from __future__ import annotations

import weakref

import streamlit as st

from kubesched.sim.simulation import Simulation
from kubesched.ui import fragments, session, shortcuts, url_state
from kubesched.ui.i18n import t
from kubesched.ui.shortcuts import IDLE_SHORTCUT, PLAY_SHORTCUT, SHORTCUTS
from kubesched.ui.status import computing

STEP_KEY = "step"   # the slider's key is step_<n>: a new n whenever the cursor moved otherwise than by it
_SLIDER = "_step_slider"   # (n, cursor): the number in the key of the slider drawn last, and where it was
RUNNING_KEY = "_running_to_idle"
SLICE_CALLBACKS = 100   # engine callbacks per slice of a run to idle (about 0.1-0.5 s on 2,500 nodes)
PLAYING_KEY = "playing"
SPEED_KEY = "play_speed"
PLAY_UNIT_KEY = "play_unit"
STATUS_KEY = "stepper_status"
_ARMED_KEY = "_play_armed"
SPEEDS = (0.5, 1.0, 2.0, 4.0)          # seconds between autoplay steps
UNITS = ("event", "phase", "pod")
# Material Symbols (a font Streamlit ships), not emoji: they render without an emoji font.
ICONS = {"idle": ":material/fast_forward:", "reset": ":material/restart_alt:", "play": ":material/play_arrow:",
         "pause": ":material/pause:"}


# -- pure cursor arithmetic (tested without Streamlit) -------------------------------------------
def move(sim: Simulation, unit: str, direction: int) -> int:
    """Step the cursor one ``unit`` forward (+1, computing further if needed) or back (-1)."""
    return sim.step(unit) if direction > 0 else sim.step_back(unit)


def status(sim: Simulation) -> dict[str, object]:
    """What the status line shows: time, cycle, current pod, cursor, trace length, stop reason."""
    return {"time": sim.time, "cycle": sim.cycle, "pod": sim.current_pod or "", "cursor": sim.cursor,
            "total": len(sim.trace), "stopped": sim.stopped_reason or "", "binding": sim.binding_pods}


# -- callbacks (the only places the cursor changes) ------------------------------------------------
def on_move(unit: str, direction: int) -> None:
    sim = session.current()
    with computing():
        move(sim, unit, direction)
    fragments.after_cursor_move()


def on_run_to_idle() -> None:
    """Finish at once when the run is (nearly) computed; else go on in slices (``_idle_slices``)."""
    sim = session.current()
    with computing():
        done = sim.compute_ahead(SLICE_CALLBACKS)
    if not done:
        st.session_state[RUNNING_KEY] = weakref.ref(sim)   # this run only: a load or Restart ends it
        fragments.rerun_app()   # arms the slices' timer
        return
    sim.run_until_idle()
    fragments.after_cursor_move()


def on_stop_run() -> None:
    st.session_state[RUNNING_KEY] = None
    fragments.rerun_app()   # disarms the slices' timer


def _running(sim: Simulation) -> bool:
    """A run to idle of this very Simulation is being computed in slices."""
    running = st.session_state.get(RUNNING_KEY)
    return running is not None and running() is sim


def on_slide(key: str) -> None:
    """A drag of the slider drawn last, to a value other than the one it showed; Streamlit also calls
    this for an unmoved slider after a timer's tick, and for the one drawn before (``slider_key``)."""
    value = int(st.session_state[key])
    if not is_drag(key, value, st.session_state.get(_SLIDER, (0, 0))):
        return
    sim = session.current()
    with computing():
        sim.seek(value)
    fragments.after_cursor_move()


def is_drag(key: str, value: int, drawn: tuple[int, int]) -> bool:
    """A slider value is a drag only for the slider drawn last (``drawn``: the number in its key and
    the cursor it showed) and only when it differs from what that slider showed."""
    n, shown = drawn
    return key == _slider_key(n) and value != shown


def on_play() -> None:
    st.session_state[PLAYING_KEY] = not st.session_state.get(PLAYING_KEY, False)
    fragments.rerun_app()   # arms or disarms the autoplay timer


def on_reset() -> None:
    timers = _running(session.current()) or st.session_state.get(PLAYING_KEY)
    session.reset()
    st.session_state[PLAYING_KEY] = False
    st.session_state[RUNNING_KEY] = None
    if timers:   # a run in slices or autoplay ends with the run it belonged to
        fragments.rerun_app()
    fragments.after_cursor_move()


# -- rendering -------------------------------------------------------------------------------------
def render_stepper(*, bar: bool = False) -> None:
    """The stepper in the current container: a sidebar column, or (``bar``) one row for presenter mode;
    below it, its timers (fragments beside it, not inside it)."""
    lang = session.lang()
    if not bar:
        _title_row(lang)   # outside the fragment: the title and the "?" sheet do not change with a step
    st.fragment(key=fragments.STEPPER)(_render_bar if bar else _render_column)()
    _idle_slices(lang)
    _autoplay()


def _step_buttons(unit: str, lang: str, columns: list) -> None:
    back, label, forward = columns
    back.button("◀", key=f"back_{unit}", on_click=on_move, args=(unit, -1), shortcut=SHORTCUTS[(unit, -1)],
                help=t(f"stepper.back_{unit}", lang), width="stretch")
    label.markdown(t(f"stepper.unit_{unit}", lang))
    forward.button("▶", key=f"next_{unit}", on_click=on_move, args=(unit, 1), shortcut=SHORTCUTS[(unit, 1)],
                   help=t(f"stepper.next_{unit}", lang), width="stretch")


def _idle_button(lang: str, column) -> None:
    column.button(t("stepper.run_to_idle", lang), key="run_to_idle", on_click=on_run_to_idle, icon=ICONS["idle"],
                  shortcut=IDLE_SHORTCUT, width="stretch")


def _idle_slices(lang: str) -> None:
    """While a run to idle is being computed: one slice per timer tick, its progress and Stop;
    at the end the cursor goes to the end of the run (a whole-app rerun, as a step)."""
    running = _running(session.current())

    @st.fragment(run_every=0.05 if running else None)
    def slices() -> None:
        sim = session.current()
        if not _running(sim):
            return
        with computing():
            done = sim.compute_ahead(SLICE_CALLBACKS)
        if done:
            st.session_state[RUNNING_KEY] = None
            sim.run_until_idle()   # the next run draws a new slider at the end (``slider_key``)
            st.rerun()
        st.caption(t("stepper.computing_run", lang, time=f"{sim.computed_time:g}", records=len(sim.trace)))
        st.button(t("stepper.stop_run", lang), key="stop_run", on_click=on_stop_run, width="stretch")

    slices()


def _play_controls(lang: str, play, unit, speed) -> None:
    playing = bool(st.session_state.get(PLAYING_KEY))
    play.button(t("stepper.pause" if playing else "stepper.play", lang), key="play", on_click=on_play,
                icon=ICONS["pause" if playing else "play"], shortcut=PLAY_SHORTCUT, width="stretch", type="primary" if playing else "secondary")
    unit.selectbox(t("stepper.play_unit", lang), UNITS, key=PLAY_UNIT_KEY,
                   format_func=lambda u: t(f"stepper.unit_{u}", lang))
    speed.selectbox(t("stepper.speed", lang), SPEEDS, index=1, key=SPEED_KEY, format_func=lambda s: f"{s:g} s",
                    on_change=fragments.rerun_app)   # the autoplay timer takes the new interval


def _position(part: str, inline: bool = False) -> None:
    """What a step changes: the status line (and the URL's ``?step=``), or the slider."""
    sim = session.current()
    lang = session.lang()
    if part == "status":
        render_status(sim, lang, inline=inline)
        url_state.write_step(sim.cursor)
        return
    n, _ = st.session_state.get(_SLIDER, (0, 0))
    if st.session_state.get(_slider_key(n), sim.cursor) != sim.cursor:   # moved otherwise than by this slider
        n += 1
    st.session_state[_SLIDER] = (n, sim.cursor)
    key = _slider_key(n)
    st.slider(t("stepper.slider", lang), min_value=0, max_value=max(1, len(sim.trace)), value=sim.cursor,
              key=key, on_change=on_slide, args=(key,), help=t("stepper.slider_help", lang))


def slider_key(state) -> str:
    """The key of the slider drawn now (``state``: the session state, or an AppTest's)."""
    return _slider_key(state[_SLIDER][0] if _SLIDER in state else 0)


def _slider_key(n: int) -> str:
    return f"{STEP_KEY}_{n}"


def _title_row(lang: str) -> None:
    title, sheet = st.columns([3, 1], vertical_alignment="center")
    title.markdown(f"**{t('stepper.title', lang)}**")
    with sheet:
        shortcuts.render_sheet(lang)


def _render_column() -> None:
    lang = session.lang()
    _position("status")
    for unit in UNITS:
        _step_buttons(unit, lang, st.columns([5, 3, 5], vertical_alignment="center", gap="xsmall"))
    idle, reset = st.columns([3, 2])   # the idle button also shows its shortcut
    _idle_button(lang, idle)
    reset.button(t("stepper.reset", lang), key="reset_sim", on_click=on_reset, width="stretch", icon=ICONS["reset"],
                 help=t("stepper.reset_help", lang))
    _position("slider")
    play = st.columns(1)[0]
    _play_controls(lang, play, *st.columns(2, vertical_alignment="bottom"))


def _render_bar() -> None:
    """Presenter mode: ◀ ▶ per unit, run to idle and play in one row; the status line and the
    autoplay unit and speed below it."""
    lang = session.lang()
    cells = st.columns([3, 3, 3, 3, 3, 3, 4, 3], vertical_alignment="center", gap="xsmall")
    for i, unit in enumerate(UNITS):
        name = t(f"stepper.unit_{unit}", lang)
        cells[2 * i].button(f"◀ {name}", key=f"back_{unit}", on_click=on_move, args=(unit, -1),
                            shortcut=SHORTCUTS[(unit, -1)], help=t(f"stepper.back_{unit}", lang), width="stretch")
        cells[2 * i + 1].button(f"{name} ▶", key=f"next_{unit}", on_click=on_move, args=(unit, 1),
                                shortcut=SHORTCUTS[(unit, 1)], help=t(f"stepper.next_{unit}", lang), width="stretch")
    _idle_button(lang, cells[6])
    status_cell, unit_cell, speed_cell = st.columns([10, 2, 2], vertical_alignment="center", gap="small")
    _play_controls(lang, cells[7], unit_cell, speed_cell)
    with status_cell:
        _position("status", inline=True)


def status_lines(sim: Simulation, lang: str) -> list[str]:
    """The status as text: position and time, the pod being scheduled, the binding cycles under way
    (upstream's binding goroutines: a pod waiting on Permit or binding while the next pod is
    scheduled), why the run stopped."""
    s = status(sim)
    lines = [t("stepper.status", lang, time=f"{s['time']:g}", cycle=s["cycle"], cursor=s["cursor"], total=s["total"]),
             t("stepper.pod", lang, pod=s["pod"] or "—")]
    if s["binding"]:
        pods = ", ".join(f"{pod} → {node}" if node else pod for pod, node in s["binding"])
        lines.append(t("stepper.binding", lang, pods=pods))
    if s["stopped"]:   # a fact about the whole computed run; "stopped" only when the cursor is at its end
        key = "stepper.stopped" if s["cursor"] == s["total"] else "stepper.run_ends"
        lines.append(t(key, lang, reason=t(f"stepper.reason_{s['stopped']}", lang), total=s["total"]))
    return lines


def render_status(sim: Simulation | None = None, lang: str | None = None, *, inline: bool = False) -> None:
    """The always-visible line: simulated time, cycle, current pod, position, stop reason
    (one ``st.text`` per line, or all on one line with ``inline``)."""
    lines = status_lines(sim or session.current(), lang or session.lang())
    with st.container(key=STATUS_KEY, gap=None):
        for line in [" · ".join(lines)] if inline else lines:
            st.text(line)


def _autoplay() -> None:
    """Step one event, phase or pod every few seconds while playing (a fragment rerun on a timer)."""
    playing = bool(st.session_state.get(PLAYING_KEY))
    st.session_state[_ARMED_KEY] = False
    interval = st.session_state.get(SPEED_KEY, 1.0) if playing else None

    @st.fragment(run_every=interval)
    def tick() -> None:
        if not st.session_state.get(PLAYING_KEY):
            return
        if not st.session_state.get(_ARMED_KEY):
            st.session_state[_ARMED_KEY] = True   # the run that drew us; step on the next timer tick
            return
        sim = session.current()
        before = sim.cursor
        sim.step(st.session_state.get(PLAY_UNIT_KEY, "event"))
        if sim.cursor == before:
            st.session_state[PLAYING_KEY] = False  # nothing left to show
        st.rerun()

    tick()
