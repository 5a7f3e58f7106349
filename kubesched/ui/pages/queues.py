"""Queues page: activeQ / podBackoffQ / unschedulableQ (+ in flight, bound) over time, every move,
the queue state machine, and each pending pod's attempts and backoff.

Upstream: pkg/scheduler/internal/queue/scheduling_queue.go (PriorityQueue). Layout only: the rows
and figures come from kubesched/ui/figures/queues.py.
"""

from __future__ import annotations

import streamlit as st

from kubesched.trace.upstream import QUEUE_GO, permalink
from kubesched.ui import charts, session
from kubesched.ui.figure_cache import cached
from kubesched.ui.figures import queues as fig
from kubesched.ui.figures.markup import links_line
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.widget_default import index_of

AXES = ("time", "seq")
AXIS_KEY = "queues_axis"

lang = session.lang()
st.title(t("queues.title", lang))
st.markdown(t("queues.intro", lang))

def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    sim = session.current()
    trace = sim.trace
    cursor = sim.cursor

    st.subheader(t("queues.counts_header", lang))
    if AXIS_KEY not in st.session_state:
        st.session_state[AXIS_KEY] = cached("queues.default_axis", lambda: fig.default_axis(trace))
    axis = st.radio(t("queues.axis", lang), AXES, key=AXIS_KEY, index=index_of(AXIS_KEY, AXES), horizontal=True,
                    format_func=lambda a: t(f"queues.axis_{a}", lang))
    charts.show(cached("queues.counts", lambda: fig.counts_figure(trace, cursor, sim.time, axis=axis, lang=lang),
                       axis), "queues_counts")
    now = fig.counts_at(cached("queues.samples", lambda: fig.count_samples(trace)), cursor)
    st.text(t("queues.now", lang, time=sim.time, summary=fig.counts_summary(now)))

    st.subheader(t("queues.moves_header", lang))
    rows = fig.move_rows(trace[:cursor])
    if rows:
        columns = {
            "seq": st.column_config.NumberColumn(t("queues.col_seq", lang), width="small"),
            "time": st.column_config.NumberColumn(t("queues.col_time", lang), format="%g", width="small"),
            "pod": st.column_config.TextColumn(t("queues.col_pod", lang)),
            "from": st.column_config.TextColumn(t("queues.col_from", lang)),
            "to": st.column_config.TextColumn(t("queues.col_to", lang)),
            "event": st.column_config.TextColumn(t("queues.col_event", lang)),
            "function": st.column_config.TextColumn(t("queues.col_function", lang)),
            "link": st.column_config.LinkColumn(t("queues.col_link", lang), display_text="v1.18.5"),
        }
        st.dataframe(list(reversed(rows)), column_config=columns, hide_index=True, key="queues_moves",
                     width="stretch", height=320)
    else:
        st.info(t("queues.moves_empty", lang))

    st.subheader(t("queues.sm_header", lang))
    charts.show(cached("queues.machine", lambda: fig.state_machine_figure(trace, cursor, lang=lang)),
                "queues_state_machine")
    st.caption(t("queues.sm_caption", lang))

    st.subheader(t("queues.pending_header", lang))
    pending = fig.pending_rows(sim.state())
    if pending:
        columns = {
            "queue": st.column_config.TextColumn(t("queues.col_queue", lang)),
            "pod": st.column_config.TextColumn(t("queues.col_pod", lang)),
            "priority": st.column_config.NumberColumn(t("queues.col_priority", lang)),
            "attempts": st.column_config.NumberColumn(t("queues.col_attempts", lang)),
            "timestamp": st.column_config.NumberColumn(t("queues.col_timestamp", lang), format="%g"),
            "backoff_expiry": st.column_config.NumberColumn(t("queues.col_backoff", lang), format="%g"),
            "backing_off": st.column_config.CheckboxColumn(t("queues.col_backing_off", lang)),
        }
        st.dataframe(pending, column_config=columns, hide_index=True, key="queues_pending", width="stretch")
    else:
        st.info(t("queues.pending_empty", lang))
    st.caption(t("queues.backoff_rule", lang))

    st.markdown(f"**{t('queues.links', lang)}**")
    functions = ("PriorityQueue.Add", "PriorityQueue.Pop", "PriorityQueue.AddUnschedulableIfNotPresent",
                 "PriorityQueue.flushBackoffQCompleted", "PriorityQueue.flushUnschedulableQLeftover",
                 "PriorityQueue.MoveAllToActiveOrBackoffQueue", "PriorityQueue.Update", "PriorityQueue.Delete")
    st.markdown(links_line((name, permalink(QUEUE_GO)) for name in functions))


cursor_views(views)
