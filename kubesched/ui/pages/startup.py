"""Startup page: the ``Run()`` sequence as a vertical timeline, and leader election with a
"stop the leader" button that shows the hand-over.

Upstream: cmd/kube-scheduler/app/server.go (Run), pkg/scheduler/scheduler.go (New, Scheduler.Run),
staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go (LeaderElector). Layout only:
the rows and figures come from kubesched/ui/figures/startup.py.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from kubesched.sim.edits import KillLeader, describe
from kubesched.sim.simulation import EditError, Simulation
from kubesched.trace.upstream import (
    LEADERELECTION_GO,
    SCHEDULER_GO,
    SERVER_GO,
    permalink,
)
from kubesched.ui import charts, fragments, session
from kubesched.ui.figures import startup as fig
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.status import computing

ERROR_KEY = "startup_error"
MAX_HANDOVER_STEPS = 2000


def _step_until(sim: Simulation, done: Callable[[], bool]) -> None:
    """Step by event until ``done()`` (or the run stops, or ``MAX_HANDOVER_STEPS`` steps)."""
    for _ in range(MAX_HANDOVER_STEPS):
        if done():
            return
        before = sim.cursor
        if sim.step("event") == before:
            return


def on_kill() -> None:
    """Apply KillLeader() at the cursor (stepping to the first leader if none yet), then step to the hand-over."""
    with computing():
        _kill(session.current())
    fragments.rerun_app()


def _kill(sim: Simulation) -> None:
    st.session_state[ERROR_KEY] = ""
    _step_until(sim, lambda: bool(sim.state().leader))
    old = fig.replica_of_identity(sim.state().leader)
    start = sim.cursor
    try:
        sim.apply(KillLeader())
    except EditError as err:
        st.session_state[ERROR_KEY] = str(err)
        return
    if sim.inputs.scenario.replicas >= 2:
        _step_until(sim, lambda: fig.leader_acquired_by_other(sim.trace[start:sim.cursor], old))


def on_reload() -> None:
    """Reload this cluster with two scheduler replicas; the cursor goes to the first scheduleOne."""
    sim = session.current()
    text = fig.with_replicas(sim.inputs, 2)
    errors = session.load_cluster_text(text, f"{session.cluster_source()} (replicas: 2)")
    if errors:
        st.session_state[ERROR_KEY] = "\n".join(errors)
        fragments.rerun_app()
    sim = session.current()
    first = fig.first_schedule_one(sim.trace)
    if first is not None:
        sim.seek(first + 1)
    fragments.rerun_app()


lang = session.lang()
st.title(t("startup.title", lang))
st.markdown(t("startup.intro", lang))

def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    sim = session.current()

    steps = fig.timeline(sim.trace, sim.cursor)
    st.subheader(t("startup.timeline_header", lang))
    show_future = st.toggle(t("startup.show_future", lang), key="startup_show_future", value=False)
    past = [s for s in steps if s.past]
    if not past:
        st.info(t("startup.none_yet", lang))
    if past or show_future:
        charts.show(fig.timeline_figure(steps, show_future=show_future, lang=lang), "startup_timeline")
    rows = fig.timeline_rows(steps, show_future=show_future, lang=lang)
    if rows:
        columns = {
            "seq": st.column_config.NumberColumn(t("startup.col_seq", lang), width="small"),
            "time": st.column_config.NumberColumn(t("startup.col_time", lang), format="%g", width="small"),
            "replica": st.column_config.TextColumn(t("startup.col_replica", lang), width="small"),
            "step": st.column_config.TextColumn(t("startup.col_step", lang)),
            "did": st.column_config.TextColumn(t("startup.col_did", lang), width="large"),
            "function": st.column_config.TextColumn(t("startup.col_function", lang)),
            "link": st.column_config.LinkColumn(t("startup.col_link", lang), display_text="v1.18.5"),
            "past": st.column_config.CheckboxColumn(t("startup.col_past", lang), width="small"),
        }
        st.dataframe(rows, column_config=columns, hide_index=True, key="startup_steps", width="stretch")
    hidden = sum(1 for s in steps if not s.past)
    if hidden and not show_future:
        st.caption(t("startup.hidden", lang, count=hidden))

    st.subheader(t("startup.election_header", lang))
    st.caption(t("startup.election_caption", lang))
    state = sim.state()
    replica_count = sim.inputs.scenario.replicas
    info, actions = st.columns([3, 2])
    with info:
        st.text(t("startup.replicas", lang, n=replica_count))
        if state.leader:
            st.text(t("startup.leader_now", lang, leader=state.leader))
        else:
            st.text(t("startup.no_leader", lang))
    with actions:
        if replica_count < 2:
            st.info(t("startup.one_replica", lang))
            st.button(t("startup.reload", lang), key="startup_reload", on_click=on_reload)
        st.button(t("startup.kill", lang), key="startup_kill", on_click=on_kill, help=t("startup.kill_help", lang),
                  type="primary")
    if st.session_state.get(ERROR_KEY):
        st.error(t("startup.kill_failed", lang))
        st.text(st.session_state[ERROR_KEY])

    kills = fig.kill_times(sim.edits)
    charts.show(fig.election_figure(sim.trace, sim.cursor, kills, lang=lang), "startup_election")
    for hand in fig.handovers(sim.trace[:sim.cursor], kills):
        if hand.new_leader:
            st.success(t("startup.handover", lang, old=hand.old_leader, killed=hand.killed_at, new=hand.new_leader,
                         acquired=hand.acquired_at))
            if hand.implied_attempts:
                st.caption(t("startup.handover_attempts", lang, new=hand.new_leader,
                             times=", ".join(f"{x:g}" for x in hand.implied_attempts)))
        else:
            st.warning(t("startup.handover_pending", lang, old=hand.old_leader or "—", killed=hand.killed_at))
    for applied in sim.edits:
        st.text(f"t={applied.time:g}s · {describe(applied.edit)}")

    st.markdown(f"**{t('startup.links', lang)}**")
    st.markdown(
        f"[`server.go` Run]({permalink(SERVER_GO)}) · [`scheduler.go` New / Scheduler.Run]({permalink(SCHEDULER_GO)}) · "
        f"[`leaderelection.go` LeaderElector]({permalink(LEADERELECTION_GO)})")


cursor_views(views)
