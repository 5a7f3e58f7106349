"""Schedule one pod: the phases of one scheduling cycle, the Filter matrix, the Score breakdown, the pick.

Upstream: pkg/scheduler/scheduler.go (Scheduler.scheduleOne), pkg/scheduler/core/generic_scheduler.go
(genericScheduler.Schedule and its helpers). Layout only: rows and figures come from
kubesched/ui/figures/schedule.py, the "why not node X?" sentence from kubesched/explain.
"""

from __future__ import annotations

import streamlit as st

from kubesched.explain import explain_pod, sentence
from kubesched.ui import session
from kubesched.ui.figures import schedule as fig
from kubesched.ui.figures.markup import md, section_link
from kubesched.ui.i18n import t
from kubesched.ui.pages._exports import chart_download

CYCLE_KEY, WHOLE_KEY, NODE_KEY, UNIFORM_KEY = ("schedule_cycle", "schedule_whole", "schedule_why_node",
                                               "schedule_hide_uniform")
FOLLOW = 0  # the cycle picker's "cycle at the cursor" entry


def link(section: str) -> str:
    return section_link(fig.SECTION_LINKS, section)


lang = session.lang()
sim = session.current()
visible = sim.trace[:sim.cursor]
st.title(t("schedule.title", lang))
st.caption(t("schedule.intro", lang))

options = fig.cycle_options(visible)
by_number = {o.cycle: o for o in options}
at_cursor = fig.cycle_at_cursor(visible)


def _label(number: int) -> str:
    if number == FOLLOW:
        return t("schedule.pick.follow", lang, cycle=at_cursor if at_cursor is not None else "—")
    o = by_number[number]
    result = t(f"schedule.result.{o.result}", lang) if o.result else t("schedule.result.running", lang)
    return t("schedule.pick.item", lang, cycle=o.cycle, pod=o.pod, result=result, node=o.node or "")


if st.session_state.get(CYCLE_KEY) not in (FOLLOW, *by_number):
    st.session_state[CYCLE_KEY] = FOLLOW
left, right = st.columns([3, 2], vertical_alignment="bottom")
chosen = left.selectbox(t("schedule.pick.label", lang), [FOLLOW, *reversed(list(by_number))], key=CYCLE_KEY,
                        format_func=_label)
whole = right.toggle(t("schedule.whole", lang), key=WHOLE_KEY, help=t("schedule.whole_help", lang))
cycle = at_cursor if chosen == FOLLOW else chosen

if cycle is None or cycle not in by_number:
    st.info(t("schedule.none", lang))
    st.stop()

source = sim.trace if whole else visible
records = fig.cycle_records(source, cycle)
option = by_number[cycle]
limit = (records[-1].seq + 1) if records else sim.cursor

st.subheader(t("schedule.cycle_header", lang, cycle=cycle, pod=md(option.pod), profile=md(option.profile),
               time=f"{option.time:g}"))

# -- the answer first ------------------------------------------------------------------------------
numbers = fig.filter_numbers(records)
decision = fig.pick(records)
failure = fig.failure_message(records)
if decision is not None and decision.selected:
    if decision.shortcut:
        st.success(t("schedule.answer.shortcut", lang, pod=md(option.pod), node=md(decision.selected),
                     evaluated=decision.evaluated))
    elif len(decision.ties) > 1:
        st.success(t("schedule.answer.tie", lang, pod=md(option.pod), node=md(decision.selected),
                     feasible=decision.feasible, evaluated=decision.evaluated, score=decision.max_score,
                     ties=md(", ".join(decision.ties))))
    else:
        st.success(t("schedule.answer.best", lang, pod=md(option.pod), node=md(decision.selected),
                     feasible=decision.feasible, evaluated=decision.evaluated, score=decision.max_score))
elif failure:
    nominated = fig.nominated_node(records)
    st.warning(t("schedule.answer.failed", lang, pod=md(option.pod))
               + (" " + t("schedule.answer.preempted", lang, node=md(nominated)) if nominated else ""))
else:
    st.info(t("schedule.answer.running", lang))

# -- phase timeline -------------------------------------------------------------------------------
st.markdown(f"#### {t('schedule.timeline', lang)} · {link('timeline')}")
spans = fig.phase_spans(records, sim.cursor)
st.plotly_chart(fig.phase_timeline_figure(spans, lang), key="schedule_timeline", theme=None,
                config={"displayModeBar": False})
st.caption(t("schedule.timeline_caption", lang))

# -- Filter ----------------------------------------------------------------------------------------
st.markdown(f"#### {t('schedule.filter', lang)} · {link('filter')} · {link('filter_plugins')}")
if numbers is None:
    st.info(t("schedule.filter_none", lang))
else:
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric(t("schedule.num.all", lang), numbers.num_all_nodes)
    top[1].metric("percentageOfNodesToScore", numbers.percentage,
                  help=t("schedule.num.adaptive", lang) if not numbers.percentage else None)
    top[2].metric("numFeasibleNodesToFind", numbers.num_nodes_to_find)
    bottom[0].metric(t("schedule.num.start", lang), numbers.start_index)
    bottom[1].metric(t("schedule.num.processed", lang), "…" if numbers.processed is None else numbers.processed)
    bottom[2].metric(t("schedule.num.feasible", lang), "…" if numbers.feasible is None else numbers.feasible)
    st.caption(t("schedule.num.caption", lang) + " · " + link("feasible"))
    matrix = fig.filter_matrix(records, fig.profile_filters(sim.trace, option.profile))
    if matrix.nodes:
        matrix_fig = fig.filter_matrix_figure(matrix, lang)
        st.plotly_chart(matrix_fig, key="schedule_matrix", theme=None, config={"displayModeBar": False})
        st.caption(t("schedule.matrix_legend", lang))
        reason = t("schedule.col.reason", lang)
        st.dataframe(fig.filter_rows(matrix, lang), hide_index=True, key="schedule_filter_table", width="stretch",
                     column_config={reason: st.column_config.TextColumn(reason, width="large")})
        chart_download(matrix_fig, f"filter-matrix-cycle-{cycle}", key="schedule_matrix_download")
    else:
        st.info(t("schedule.filter_waiting", lang))
    passes = fig.nominated_rows(records)
    if passes:
        st.markdown(f"**{t('schedule.nominated', lang)}** · {link('nominated')}")
        st.caption(t("schedule.nominated_caption", lang))
        st.dataframe([{t("schedule.col.node", lang): p.node,
                       t("schedule.nominated.pass", lang): t(f"schedule.nominated.pass{p.pass_index}", lang),
                       t("schedule.nominated.pods", lang): ", ".join(p.nominated_pods),
                       t("schedule.col.code", lang): p.code, t("schedule.col.reason", lang): "; ".join(p.reasons)}
                      for p in passes], hide_index=True, key="schedule_nominated", width="stretch")

if failure:
    st.markdown(f"#### {t('schedule.failure', lang)} · {link('failure')} · {link('failure_event')}")
    st.caption(t("schedule.failure_caption", lang))
    st.code(failure, language=None)

# -- Score -------------------------------------------------------------------------------------------
table = fig.score_table(records)
st.markdown(f"#### {t('schedule.score', lang)} · {link('score')} · {link('score_plugins')}")
if table is None:
    if decision is not None and decision.shortcut:
        st.info(t("schedule.score_shortcut", lang, node=md(decision.selected)))
    elif failure:
        st.info(t("schedule.score_failed", lang))
    else:
        st.info(t("schedule.score_waiting", lang))
else:
    hide = st.toggle(t("schedule.hide_uniform", lang), value=True, key=UNIFORM_KEY,
                     help=t("schedule.hide_uniform_help", lang))
    selected = decision.selected if decision is not None else ""
    score_fig = fig.score_breakdown_figure(table, selected, lang, hide_uniform=hide)
    if hide and fig.uniform_caption(table, lang):
        st.caption(fig.uniform_caption(table, lang))
    st.plotly_chart(score_fig, key="schedule_scores", theme=None, config={"displayModeBar": False})
    st.caption(t("schedule.score_caption", lang))
    with st.expander(t("schedule.score_table", lang)):
        st.dataframe(fig.score_rows(table, lang), hide_index=True, key="schedule_score_table", width="stretch")
    chart_download(score_fig, f"score-breakdown-cycle-{cycle}", key="schedule_scores_download")

# -- the pick ---------------------------------------------------------------------------------------
if decision is not None and decision.selected:
    st.markdown(f"#### {t('schedule.pick', lang)} · {link('pick')}")
    if decision.shortcut:
        st.markdown(t("schedule.pick.shortcut", lang, node=md(decision.selected)))
    elif len(decision.ties) > 1:
        st.markdown(t("schedule.pick.tie", lang, score=decision.max_score, ties=md(", ".join(decision.ties)),
                      node=md(decision.selected)))
    else:
        st.markdown(t("schedule.pick.single", lang, score=decision.max_score, node=md(decision.selected)))

# -- why not node X? --------------------------------------------------------------------------------
nodes = [n.name for n in sim.state().nodes]
if nodes:
    st.markdown(f"#### {t('schedule.why', lang)}")
    if st.session_state.get(NODE_KEY) not in nodes:
        st.session_state[NODE_KEY] = nodes[0]
    node = st.selectbox(t("schedule.why_node", lang), nodes, key=NODE_KEY)
    explanation = explain_pod(sim.trace[:limit], sim.state(), option.pod, node)
    st.text(sentence(explanation))
