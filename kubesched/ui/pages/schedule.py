"""Schedule one pod: the phases of one scheduling cycle, the Filter matrix, the Score breakdown, the pick.

Upstream: pkg/scheduler/scheduler.go (Scheduler.scheduleOne), pkg/scheduler/core/generic_scheduler.go
(genericScheduler.Schedule and its helpers). Layout only: rows and figures come from
kubesched/ui/figures/schedule.py, the "why not node X?" sentence from kubesched/explain. Everything
below the title is the page's cursor-driven fragment; figures are built once per (run, cursor, view).
On big clusters the Filter matrix and the score bars are summarized (``figures/large.py``) unless
"show every node" is on.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from kubesched.explain import explain_pod
from kubesched.explain.text import focus_phrase, words
from kubesched.trace.records import Record
from kubesched.ui import charts, session
from kubesched.ui.figure_cache import built_once, cached
from kubesched.ui.figures import large
from kubesched.ui.figures import schedule as fig
from kubesched.ui.figures.markup import md, section_link
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.pages._exports import chart_download
from kubesched.ui.widget_default import index_of

CYCLE_KEY, WHOLE_KEY, NODE_KEY, UNIFORM_KEY = ("schedule_cycle", "schedule_whole", "schedule_why_node",
                                               "schedule_hide_uniform")
ALL_NODES_KEY = "schedule_all_nodes"
FOLLOW = 0  # the cycle picker's "cycle at the cursor" entry


def link(section: str) -> str:
    return section_link(fig.SECTION_LINKS, section)


def pick_cycle(visible: Sequence[Record], lang: str) -> tuple[int | None, dict[int, fig.CycleOption], bool]:
    """The cycle picker (the cycle at the cursor by default) and the "whole cycle" toggle."""
    by_number = {o.cycle: o for o in cached("schedule.options", lambda: fig.cycle_options(visible))}
    at_cursor = fig.cycle_at_cursor(visible)

    def label(number: int) -> str:
        if number == FOLLOW:   # no number in it: the widget keeps a selected option's old label after a step
            return t("schedule.pick.follow", lang)
        o = by_number[number]
        result = t(f"schedule.result.{o.result}", lang) if o.result else t("schedule.result.running", lang)
        return t("schedule.pick.item", lang, cycle=o.cycle, pod=o.pod, result=result, node=o.node or "")

    if st.session_state.get(CYCLE_KEY) not in (FOLLOW, *by_number):
        st.session_state[CYCLE_KEY] = FOLLOW
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    chosen = left.selectbox(t("schedule.pick.label", lang), [FOLLOW, *reversed(list(by_number))], key=CYCLE_KEY,
                            format_func=label)
    whole = right.toggle(t("schedule.whole", lang), key=WHOLE_KEY, help=t("schedule.whole_help", lang))
    return (at_cursor if chosen == FOLLOW else chosen), by_number, whole


def answer(option: fig.CycleOption, decision: fig.Pick | None, failure: str, records: Sequence[Record],
           table: fig.ScoreTable | None, lang: str) -> None:
    """The answer first: where the pod went and why, or why it did not."""
    pod = md(option.pod)
    score = fig.score_text(table, decision.max_score if decision else None, lang)
    if decision is not None and decision.selected:
        node = md(decision.selected)
        if decision.shortcut:
            st.success(t("schedule.answer.shortcut", lang, pod=pod, node=node, evaluated=decision.evaluated))
        elif len(decision.ties) > 1:
            st.success(t("schedule.answer.tie", lang, pod=pod, node=node, feasible=decision.feasible,
                         evaluated=decision.evaluated, score=score, ties=md(large.name_list(decision.ties, lang))))
        else:
            st.success(t("schedule.answer.best", lang, pod=pod, node=node, feasible=decision.feasible,
                         evaluated=decision.evaluated, score=score))
    elif failure:
        nominated = fig.nominated_node(records)
        st.warning(t("schedule.answer.failed", lang, pod=pod)
                   + (" " + t("schedule.answer.preempted", lang, node=md(nominated)) if nominated else ""))
    else:
        st.info(t("schedule.answer.running", lang))


def timeline(records: Sequence[Record], cursor: int, cycle: int, lang: str) -> None:
    st.markdown(f"#### {t('schedule.timeline', lang)} · {link('timeline')}")
    spans = tuple(cached("schedule.spans", lambda: fig.phase_spans(records, cursor), cycle, len(records)))
    figure = built_once("schedule.timeline", lambda: fig.phase_timeline_figure(list(spans), lang), spans)
    charts.show(figure, "schedule_timeline")
    st.caption(t("schedule.timeline_caption", lang))


def filter_numbers(numbers: fig.FilterNumbers, lang: str) -> None:
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric(t("schedule.num.all", lang), numbers.num_all_nodes)
    top[1].metric("percentageOfNodesToScore", numbers.percentage,
                  help=t("schedule.num.adaptive", lang) if not numbers.percentage else None)
    top[2].metric("numFeasibleNodesToFind", numbers.num_nodes_to_find)
    bottom[0].metric(t("schedule.num.start", lang), numbers.start_index)
    bottom[1].metric(t("schedule.num.processed", lang), "…" if numbers.processed is None else numbers.processed)
    bottom[2].metric(t("schedule.num.feasible", lang), "…" if numbers.feasible is None else numbers.feasible)
    st.caption(t("schedule.num.caption", lang) + " · " + link("feasible"))


def filter_section(records: Sequence[Record], option: fig.CycleOption, cycle: int, lang: str) -> None:
    st.markdown(f"#### {t('schedule.filter', lang)} · {link('filter')} · {link('filter_plugins')}")
    numbers = fig.filter_numbers(records)
    if numbers is None:
        spans = fig.phase_spans(records, session.current().cursor)
        running = any(s.phase == "Filter" and s.state == fig.RUNNING for s in spans)
        st.info(t("schedule.filter_running" if running else "schedule.filter_none", lang))
        return
    filter_numbers(numbers, lang)
    sim = session.current()
    matrix = cached("schedule.matrix", lambda: fig.filter_matrix(records, fig.profile_filters(sim.trace, option.profile)),
                    cycle, len(records))
    if not matrix.nodes:
        st.info(t("schedule.filter_waiting", lang))
    else:
        filter_matrix(matrix, cycle, lang)
    nominated(records, lang)


def filter_matrix(matrix: fig.FilterMatrix, cycle: int, lang: str) -> None:
    """The node × plugin matrix (summarized on big clusters) and its table."""
    big = len(matrix.nodes) > large.MATRIX_ROW_LIMIT
    show_all = big and st.toggle(t("large.show_all", lang), key=ALL_NODES_KEY, help=t("large.show_all_help", lang))
    shown, groups = (matrix, ()) if show_all else large.summarize_matrix(matrix, lang)
    figure = built_once("schedule.matrix_fig", lambda: fig.filter_matrix_figure(shown, lang), shown)
    if big and not show_all:
        st.caption(t("large.matrix_summary", lang, shown=len(shown.nodes), total=len(matrix.nodes),
                     sample=large.PASSING_SAMPLE))
    charts.show(figure, "schedule_matrix")
    st.caption(t("schedule.matrix_legend", lang))
    reason = t("schedule.col.reason", lang)
    st.dataframe(built_once("schedule.matrix_rows", lambda: fig.filter_rows(shown, lang), shown),
                 hide_index=True, key="schedule_filter_table", width="stretch",
                 column_config={reason: st.column_config.TextColumn(reason, width="large")})
    if groups and any(len(g.nodes) > 1 for g in groups):
        with st.expander(t("large.group_members", lang)):  # one small table
            st.dataframe([{t("schedule.col.node", lang): g.label, "": large.name_list(g.nodes, lang, first=20)}
                          for g in groups if len(g.nodes) > 1], hide_index=True, width="stretch")
    chart_download(figure, f"filter-matrix-cycle-{cycle}", key="schedule_matrix_download")


def nominated(records: Sequence[Record], lang: str) -> None:
    passes = fig.nominated_rows(records)
    if not passes:
        return
    st.markdown(f"**{t('schedule.nominated', lang)}** · {link('nominated')}")
    st.caption(t("schedule.nominated_caption", lang))
    st.dataframe([{t("schedule.col.node", lang): p.node,
                   t("schedule.nominated.pass", lang): t(f"schedule.nominated.pass{p.pass_index}", lang),
                   t("schedule.nominated.pods", lang): ", ".join(p.nominated_pods),
                   t("schedule.col.code", lang): p.code, t("schedule.col.reason", lang): "; ".join(p.reasons)}
                  for p in passes], hide_index=True, key="schedule_nominated", width="stretch")


def failure_section(failure: str, lang: str) -> None:
    st.markdown(f"#### {t('schedule.failure', lang)} · {link('failure')} · {link('failure_event')}")
    st.caption(t("schedule.failure_caption", lang))
    st.text(failure)                                 # plain text: a code block costs a syntax highlighter


def score_section(records: Sequence[Record], decision: fig.Pick | None, failure: str, cycle: int,
                  lang: str) -> None:
    st.markdown(f"#### {t('schedule.score', lang)} · {link('score')} · {link('score_plugins')}")
    table = cached("schedule.score_table", lambda: fig.score_table(records), cycle, len(records))
    if table is None:
        if decision is not None and decision.shortcut:
            st.info(t("schedule.score_shortcut", lang, node=md(decision.selected)))
        elif failure:
            st.info(t("schedule.score_failed", lang))
        else:
            st.info(t("schedule.score_waiting", lang))
        return
    hide = st.toggle(t("schedule.hide_uniform", lang), value=True, key=UNIFORM_KEY,
                     help=t("schedule.hide_uniform_help", lang))
    show_all = bool(st.session_state.get(ALL_NODES_KEY))
    shown = table if show_all else large.top_nodes(table)
    if len(shown.nodes) < len(table.nodes):
        st.caption(t("large.score_top", lang, shown=len(shown.nodes), total=len(table.nodes)))
    selected = decision.selected if decision is not None else ""
    figure = built_once("schedule.score_fig",
                        lambda: fig.score_breakdown_figure(shown, selected, lang, hide_uniform=hide),
                        fig.score_source(records), selected, hide, show_all)
    if hide and fig.uniform_caption(table, lang):
        st.caption(fig.uniform_caption(table, lang))
    charts.show(figure, "schedule_scores")
    st.caption(t("schedule.score_caption", lang))
    table_box = st.expander(t("schedule.score_table", lang), key="schedule_score_open", on_change="rerun")
    if table_box.open:                               # drawn only when opened: it is the biggest table here
        with table_box:
            st.dataframe(cached("schedule.score_rows", lambda: fig.score_rows(shown, lang), cycle, len(records),
                                show_all), hide_index=True, key="schedule_score_table", width="stretch")
    chart_download(figure, f"score-breakdown-cycle-{cycle}", key="schedule_scores_download")


def pick_section(decision: fig.Pick, table: fig.ScoreTable | None, lang: str) -> None:
    st.markdown(f"#### {t('schedule.pick', lang)} · {link('pick')}")
    node = md(decision.selected)
    score = fig.score_text(table, decision.max_score, lang)
    if decision.shortcut:
        st.markdown(t("schedule.pick.shortcut", lang, node=node))
    elif len(decision.ties) > 1:
        st.markdown(t("schedule.pick.tie", lang, score=score, ties=md(large.name_list(decision.ties, lang)), node=node))
    else:
        st.markdown(t("schedule.pick.single", lang, score=score, node=node))


def why_section(records: Sequence[Record], option: fig.CycleOption, lang: str) -> None:
    sim = session.current()
    nodes = [n.name for n in sim.state().nodes]
    if not nodes:
        return
    st.markdown(f"#### {t('schedule.why', lang)}")
    if st.session_state.get(NODE_KEY) not in nodes:
        st.session_state[NODE_KEY] = nodes[0]
    node = st.selectbox(t("schedule.why_node", lang), nodes, key=NODE_KEY, index=index_of(NODE_KEY, nodes))
    limit = (records[-1].seq + 1) if records else sim.cursor
    explanation = explain_pod(sim.trace[:limit], sim.state(), option.pod, node)
    text = words(focus_phrase(explanation, node), lambda key: t(f"why.{key}", lang))
    st.container(key="schedule_why_text").text(text)


def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    lang = session.lang()
    sim = session.current()
    visible = sim.trace[:sim.cursor]
    cycle, by_number, whole = pick_cycle(visible, lang)
    if cycle is None or cycle not in by_number:
        st.info(t("schedule.none", lang))
        return
    records = cached("schedule.records", lambda: fig.cycle_records(sim.trace if whole else visible, cycle),
                     cycle, whole)
    option = by_number[cycle]
    st.subheader(t("schedule.cycle_header", lang, cycle=cycle, pod=md(option.pod), profile=md(option.profile),
                   time=f"{option.time:g}"))
    decision = fig.pick(records)
    failure = fig.failure_message(records)
    table = cached("schedule.score_table", lambda: fig.score_table(records), cycle, len(records))
    answer(option, decision, failure, records, table, lang)
    timeline(records, sim.cursor, cycle, lang)
    filter_section(records, option, cycle, lang)
    if failure:
        failure_section(failure, lang)
    score_section(records, decision, failure, cycle, lang)
    if decision is not None and decision.selected:
        pick_section(decision, table, lang)
    why_section(records, option, lang)


st.title(t("schedule.title", session.lang()))
st.caption(t("schedule.intro", session.lang()))
cursor_views(views)
