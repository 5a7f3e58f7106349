"""Event log page: every trace record up to the cursor as a filterable table (selecting a row moves the
cursor there), ``kubectl describe``-style Events per pod, and klog lines at a chosen verbosity.

Upstream: the records name their own upstream function; Events as kubectl's DescribeEvents prints
them; klog lines as kube-scheduler writes them. Layout only: rows come from
kubesched/ui/figures/events.py.
"""

from __future__ import annotations

import streamlit as st

from kubesched.trace.upstream import EVENTS_CACHE_GO, SCHEDULER_GO, permalink
from kubesched.ui import session
from kubesched.ui.figures import events as fig
from kubesched.ui.figures.markup import links_line
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.widget_default import index_of

ROW_LIMIT = 5000
KINDS, POD, NODE, PLUGIN, CYCLE, SEARCH, NEWEST = ("events_kinds", "events_pod", "events_node", "events_plugin",
                                                  "events_cycle", "events_search", "events_newest")
DESCRIBE_POD, VERBOSITY = "events_describe_pod", "events_verbosity"

lang = session.lang()
st.title(t("events.title", lang))
st.markdown(t("events.intro", lang))

def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    sim = session.current()
    cursor = sim.cursor
    table_key = f"events_table_{cursor}"     # a new cursor gives a fresh table (no stale selection)


    rows = fig.event_rows(sim.trace[:cursor])
    if not rows:
        st.info(t("events.empty", lang))
        return

    options = fig.filter_options(rows)
    any_ = t("events.any", lang)
    with st.expander(t("events.filters", lang), expanded=True):
        c1, c2, c3, c4, c5 = st.columns([3, 2, 2, 2, 1])
        kinds = c1.multiselect(t("events.kind", lang), options["kind"], key=KINDS, placeholder=t("events.choose", lang))
        pod = c2.selectbox(t("events.pod", lang), [""] + options["pod"], key=POD, format_func=lambda v: v or any_)
        node = c3.selectbox(t("events.node", lang), [""] + options["node"], key=NODE, format_func=lambda v: v or any_)
        plugin = c4.selectbox(t("events.plugin", lang), [""] + options["plugin"], key=PLUGIN,
                              format_func=lambda v: v or any_)
        cycle = c5.selectbox(t("events.cycle", lang), [None] + options["cycle"], key=CYCLE,
                             format_func=lambda v: any_ if v is None else str(v))
        s1, s2 = st.columns([4, 1], vertical_alignment="bottom")
        text = s1.text_input(t("events.search", lang), key=SEARCH)
        newest = s2.toggle(t("events.newest_first", lang), value=True, key=NEWEST)

    shown = fig.filter_rows(rows, fig.RowFilter(tuple(kinds), pod or "", node or "", plugin or "", cycle, text))
    if newest:
        shown = list(reversed(shown))
    shown = shown[:ROW_LIMIT]
    st.caption(t("events.shown", lang, shown=len(shown), total=len(rows), cursor=cursor) + " "
               + t("events.select_hint", lang))
    columns = {name: st.column_config.Column(t(f"events.col.{name}", lang)) for name in fig.COLUMNS}
    columns["time"] = st.column_config.NumberColumn(t("events.col.time", lang), format="%g", width="small")
    columns["seq"] = st.column_config.NumberColumn(t("events.col.seq", lang), width="small")
    picked = st.dataframe(shown, column_config=columns, column_order=fig.COLUMNS, hide_index=True, key=table_key,
                          on_select="rerun", selection_mode="single-row", width="stretch", height=420)
    selected = picked.selection.rows if picked is not None else []
    if selected and selected[0] < len(shown):
        # Jump: the cursor goes just after the selected record; a full rerun redraws the stepper and every page.
        target = fig.cursor_for_row(shown[selected[0]])
        if target != cursor:
            sim.seek(target)
            st.rerun()

    st.subheader(t("events.describe", lang))
    state = sim.state()
    pods = [p.key for p in state.pods]
    if pods:
        current_pod = sim.current_pod
        if st.session_state.get(DESCRIBE_POD) not in pods:
            st.session_state[DESCRIBE_POD] = current_pod if current_pod in pods else pods[0]
        chosen = st.selectbox(t("events.describe.pod", lang), pods, key=DESCRIBE_POD,
                              index=index_of(DESCRIBE_POD, pods))
        events = fig.pod_events(state.events, chosen)
        st.caption(t("events.describe.caption", lang, now=state.time))
        st.code(fig.describe_text(events, state.time), language=None)
        if events:
            names = ("type", "reason", "age", "from", "message", "count", "first_seen", "last_seen")
            st.dataframe(fig.describe_rows(events, state.time), hide_index=True, key="events_describe", width="stretch",
                         column_config={n: st.column_config.Column(t(f"events.col.{n}", lang)) for n in names})
    else:
        st.text(t("events.describe.none", lang))

    st.subheader(t("events.klog", lang))
    verbosity = st.select_slider(t("events.verbosity", lang), fig.VERBOSITIES, value=2, key=VERBOSITY)
    st.caption(t("events.klog.caption", lang, v=verbosity))
    lines = fig.klog_text(sim.trace[:cursor], verbosity)
    st.code(lines or t("events.klog.none", lang), language=None)

    st.markdown(f"**{t('events.links', lang)}**")
    links = (("Scheduler.scheduleOne", permalink(SCHEDULER_GO)), ("EventCorrelator.EventCorrelate",
                                                                   permalink(EVENTS_CACHE_GO)),
             ("DescribeEvents", ("https://github.com/kubernetes/kubernetes/blob/v1.18.5/staging/src/k8s.io/kubectl/"
                                "pkg/describe/versioned/describe.go")),
             ("klog", "https://github.com/kubernetes/klog/blob/v1.0.0/klog.go"))
    st.markdown(links_line(links))


cursor_views(views)
