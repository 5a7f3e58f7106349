"""Binding cycle page: Reserve, Permit, the binding task (WaitOnPermit … PostBind), Unreserve + Forget,
and the assumed pod's state in the scheduler cache.

Upstream: pkg/scheduler/scheduler.go (scheduleOne, bindVolumes, bind, finishBinding),
pkg/scheduler/internal/cache/cache.go. Layout only: steps, rows and figures come from
kubesched/ui/figures/binding.py.
"""

from __future__ import annotations

import streamlit as st

from kubesched.trace.upstream import CACHE_GO, SCHEDULER_GO, permalink
from kubesched.ui import charts, session
from kubesched.ui.figures import binding as fig
from kubesched.ui.figures.markup import links_line
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.widget_default import index_of

PICK_KEY = "binding_pick"
FOLLOW_KEY = "binding_follow"

lang = session.lang()
st.title(t("binding.title", lang))
st.markdown(t("binding.intro", lang))

def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    sim = session.current()
    cursor = sim.cursor
    visible = sim.trace[:cursor]


    attempts = fig.binding_attempts(visible)
    if not attempts:
        st.info(t("binding.none", lang))
        return

    labels = {(a.pod, a.cycle): t("binding.attempt", lang, pod=a.pod, cycle=a.cycle, node=a.node,
                                  result=t(f"binding.result.{a.result}", lang)) for a in attempts}
    keys = list(labels)
    follow = st.toggle(t("binding.follow", lang), value=True, key=FOLLOW_KEY)
    at_cursor = fig.attempt_at_cursor(visible)
    default = (at_cursor.pod, at_cursor.cycle) if at_cursor is not None else keys[-1]
    if follow or st.session_state.get(PICK_KEY) not in keys:
        st.session_state[PICK_KEY] = default
    pick = st.selectbox(t("binding.pick", lang), keys, key=PICK_KEY, index=index_of(PICK_KEY, keys),
                        format_func=labels.get, disabled=follow)
    pod, cycle = pick

    steps = fig.binding_steps(visible, pod, cycle)
    st.subheader(t("binding.timeline", lang))
    charts.show(fig.timeline_figure(steps, cursor, lang), "binding_timeline")
    st.caption(t("binding.timeline.caption", lang))
    columns = {t("binding.col.link", lang): st.column_config.LinkColumn(t("binding.col.link", lang),
                                                                           display_text="v1.18.5")}
    st.dataframe(fig.step_rows(steps, lang), hide_index=True, key="binding_steps", width="stretch",
                 column_config=columns)

    st.subheader(t("binding.cache", lang))
    st.caption(t("binding.cache.caption", lang, ttl=sim.assumed_pod_ttl))
    history = fig.assumed_history(visible, pod, sim.assumed_pod_ttl)
    left, right = st.columns([3, 2])
    with left:
        charts.show(fig.cache_figure(history, lang), "binding_cache")
    with right:
        st.text(t("binding.cache.state", lang, state=t(f"binding.cache.{history.state}", lang)))
        if history.expires_at is not None:
            st.text(t("binding.cache.expires", lang, at=history.expires_at, now=sim.time))
        rows = fig.cache_rows(history, lang)
        if rows:
            st.dataframe(rows, hide_index=True, key="binding_cache_rows", width="stretch")

    st.markdown(f"**{t('binding.links', lang)}**")
    links = [(func, url) for _step, func, url in fig.upstream_links()]
    links += [("schedulerCache.FinishBinding", permalink(CACHE_GO)), ("Scheduler.scheduleOne", permalink(SCHEDULER_GO))]
    st.markdown(links_line(links))


cursor_views(views)
