"""The lesson player's side view: the figure that makes a step's point, and where each pod is.

Upstream: pkg/scheduler/internal/queue/scheduling_queue.go (the queue views),
pkg/scheduler/core/generic_scheduler.go (findNodesThatPassFilters, prioritizeNodes, Preempt),
pkg/scheduler/scheduler.go (scheduleOne's binding cycle), cmd/kube-scheduler/app/server.go and
client-go leaderelection (startup, election). Pure: records/state in, figures and rows out.

``step_view`` chooses the figure for a step (the lesson's ``view``, else the one of the step's
last decision); ``view_panels`` builds it from the figure builders of the other pages, from
the records visible at the cursor only (a lesson never shows the future). Big walks are cut
to the first ``ROWS`` nodes. ``pod_rows`` lists every pod with its queue, node, nominated node
and phase (Terminating while a deleted pod's grace period runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import plotly.graph_objects as go

from kubesched.explain.cycles import cycle_records
from kubesched.lessons.feedback import Why
from kubesched.lessons.quiz import TOKENS
from kubesched.trace import Kind, Record
from kubesched.ui.figures import binding, preemption, queues, schedule_filter, schedule_score, startup
from kubesched.ui.i18n import t

ROWS = 12
BINDING_PHASES = frozenset(binding.ALL_PHASES)
_VIEW_OF_KIND = {
    Kind.PREEMPTION: "preemption", Kind.NOMINATE: "preemption", Kind.VICTIM: "preemption",
    Kind.SCORE_RUN: "score", Kind.FILTER_RUN: "filter",
    Kind.QUEUE_MOVE: "queue", Kind.TIME: "queue", Kind.REQUEUE: "queue",
    Kind.ASSUME: "binding", Kind.FORGET: "binding", Kind.EXPIRE: "binding", Kind.PERMIT_WAIT: "binding",
    Kind.BIND: "binding", Kind.BINDING_CYCLE_START: "binding", Kind.BINDING_CYCLE_END: "binding",
    Kind.LEADER_ELECTION: "election", Kind.STARTUP_STEP: "startup",
}


@dataclass(frozen=True, slots=True)
class Panel:
    key: str
    figure: go.Figure
    caption: str = ""


# -- which figure --------------------------------------------------------------------------------------
def _view_of(record: Record) -> str:
    if record.kind in (Kind.PHASE_START, Kind.PHASE_END):
        return "binding" if getattr(record.data, "phase", "") in BINDING_PHASES else ""
    return _VIEW_OF_KIND.get(record.kind, "")


def step_view(records: Sequence[Record], start: int, explicit: str = "") -> str:
    """The figure of a step showing ``records`` (the visible trace) since ``start``: ``explicit``
    if given, else the view of the step's last decision (of the last one before it if the step
    made none); "queue" when nothing decided yet."""
    if explicit:
        return explicit
    for span in (records[start:], records[:start]):
        for record in reversed(span):
            view = _view_of(record)
            if view:
                return view
    return "queue"


# -- the figures ------------------------------------------------------------------------------------------
def _cycle(visible: Sequence[Record]) -> tuple[list[Record], str]:
    """The records and profile of the last scheduling cycle that started before the cursor."""
    start = next((r for r in reversed(visible) if r.kind is Kind.CYCLE_START), None)
    if start is None or start.cycle is None:
        return [], ""
    return cycle_records(visible, start.cycle), start.profile or ""


def _filter_panels(trace: Sequence[Record], visible: Sequence[Record], lang: str) -> list[Panel]:
    records, profile = _cycle(visible)
    if not any(r.kind is Kind.FILTER_RUN for r in records):
        return []
    matrix = schedule_filter.filter_matrix(records, schedule_filter.profile_filters(trace, profile))
    caption = ""
    if len(matrix.nodes) > ROWS:
        caption = t("lessons.rows_cut", lang, shown=ROWS, total=len(matrix.nodes))
        matrix = replace(matrix, nodes=matrix.nodes[:ROWS], codes=matrix.codes[:ROWS], reasons=matrix.reasons[:ROWS],
                         stopped_by=matrix.stopped_by[:ROWS], status_codes=matrix.status_codes[:ROWS])
    return [Panel("filter", schedule_filter.filter_matrix_figure(matrix, lang), caption)]


def _score_panels(visible: Sequence[Record], lang: str) -> list[Panel]:
    records, _ = _cycle(visible)
    table = schedule_score.score_table(records)
    if table is None:
        return []
    run = next(r.data for r in records if r.kind is Kind.SCORE_RUN)
    caption = schedule_score.uniform_caption(table, lang)
    if len(table.nodes) > ROWS:
        caption = " ".join(c for c in (caption, t("lessons.rows_cut", lang, shown=ROWS, total=len(table.nodes))) if c)
        table = replace(table, nodes=table.nodes[:ROWS])
    figure = schedule_score.score_breakdown_figure(table, run.selected, lang)
    low, high = figure.layout.xaxis.range
    figure.update_xaxes(range=[low, high * 1.5])  # room for the seven-digit totals in a narrow column
    figure.update_traces(cliponaxis=False, selector={"name": "total"})
    return [Panel("score", figure, caption)]


def _preemption_panels(visible: Sequence[Record], lang: str) -> list[Panel]:
    attempts = preemption.preemption_attempts(visible)
    if not attempts or not attempts[-1].candidates:
        return []
    return [Panel("victims", preemption.victims_figure(attempts[-1], lang))]


def _binding_panels(visible: Sequence[Record], cursor: int, lang: str) -> list[Panel]:
    attempt = binding.attempt_at_cursor(visible) or next(iter(reversed(binding.binding_attempts(visible))), None)
    if attempt is None:
        return []
    steps = binding.binding_steps(visible, attempt.pod, attempt.cycle)
    return [Panel("binding", binding.timeline_figure(steps, cursor, lang))]


def view_panels(view: str, trace: Sequence[Record], cursor: int, time: float, lang: str = "en") -> list[Panel]:
    """The figure(s) of ``view`` at ``cursor``, built from the visible records only."""
    visible = trace[:cursor]
    if view == "filter":
        return _filter_panels(trace, visible, lang)
    if view == "score":
        return _score_panels(visible, lang)
    if view == "preemption":
        return _preemption_panels(visible, lang)
    if view == "binding":
        return _binding_panels(visible, cursor, lang)
    if view == "startup":
        steps = startup.timeline(visible, cursor)
        return [Panel("startup", startup.timeline_figure(steps, show_future=False, lang=lang))] if steps else []
    if view == "election":
        return [Panel("election", startup.election_figure(visible, cursor, lang=lang))]
    # the Queues page's rule: record order when most moves share a timestamp (else t=0 looks empty)
    counts = queues.counts_figure(visible, cursor, time, axis=queues.default_axis(trace), lang=lang)
    counts.update_layout(legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0})  # clear of the axis title
    return [Panel("queue_counts", counts), Panel("queue_states", queues.state_machine_figure(visible, cursor, lang=lang))]


# -- text -----------------------------------------------------------------------------------------------------
def option_label(option: str, lang: str) -> str:
    """An option as the learner reads it: a token (quiz.TIE, NONE, YES, NO) in their language."""
    return t(f"lessons.opt.{option[1:]}", lang) if option in TOKENS else option


def answer_text(answer: object, lang: str = "en") -> str:
    """A guess or an answer as the player prints it: options joined by commas, tokens worded."""
    items = sorted(answer) if isinstance(answer, (tuple, list, frozenset, set)) else [str(answer)]
    return ", ".join(option_label(str(item), lang) for item in items)


def why_text(why: Why, lang: str) -> str:
    """One feedback fact (kubesched.lessons.feedback) in the learner's language."""
    return t(f"lessons.why.{why.key}", lang, **dict(why.args))


# -- pods -------------------------------------------------------------------------------------------------------
def pod_rows(state: Any, records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every pod: its queue (from the last visible move), node, nominated node and phase
    ("Terminating" while a deleted pod's grace period runs)."""
    where: dict[str, str] = {}
    for r in records:
        if r.kind is Kind.QUEUE_MOVE and r.pod:
            where[r.pod] = r.data.target
    return [{"pod": p.key.removeprefix("default/"), "queue": where.get(p.key, ""), "node": p.node,
             "nominated": p.nominated_node, "phase": "Terminating" if p.terminating else p.phase}
            for p in state.pods][:60]


__all__ = ["ROWS", "Panel", "answer_text", "option_label", "pod_rows", "step_view", "view_panels", "why_text"]
