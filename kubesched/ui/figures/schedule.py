"""Schedule one pod: one scheduling cycle read from the trace, as rows and Plotly figures.

Upstream: pkg/scheduler/scheduler.go (Scheduler.scheduleOne) and
pkg/scheduler/core/generic_scheduler.go (genericScheduler.Schedule, numFeasibleNodesToFind,
findNodesThatPassFilters, podPassesFiltersOnNode, prioritizeNodes, selectHost, FitError.Error),
pkg/scheduler/framework/v1alpha1/framework.go (RunFilterPlugins, RunScorePlugins).

Pure builders: ``records`` (the visible trace, ``trace[:cursor]``) in, frozen rows or a
``go.Figure`` out; no Streamlit. Every figure sets explicit colours from ``theme`` and
fixed ranges, so the picture does not shift between steps. This module holds the cycle picker,
the phase timeline and the pick; the Filter section lives in ``schedule_filter.py`` and the
Score section in ``schedule_score.py``, both re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape

import plotly.graph_objects as go

from kubesched.explain.cycles import cycle_records, first_of
from kubesched.trace import upstream
from kubesched.trace.records import (
    Kind,
    Phase,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRun,
)
from kubesched.ui import theme
from kubesched.ui.figures.schedule_filter import (
    FilterMatrix,
    FilterNumbers,
    NominatedRow,
    filter_matrix,
    filter_matrix_figure,
    filter_numbers,
    filter_rows,
    nominated_rows,
    profile_filters,
)
from kubesched.ui.figures.schedule_score import (
    ScoreTable,
    score_breakdown_figure,
    score_source,
    score_rows,
    score_table,
    score_text,
    total_text,
    uniform_caption,
)
from kubesched.ui.figures.style import PAPER, plain_layout
from kubesched.ui.i18n import t

__all__ = [
    "PIPELINE",
    "SECTION_LINKS",
    "CycleOption",
    "FilterMatrix",
    "FilterNumbers",
    "NominatedRow",
    "PhaseSpan",
    "Pick",
    "ScoreTable",
    "cycle_at_cursor",
    "cycle_options",
    "cycle_records",
    "failure_message",
    "filter_matrix",
    "filter_matrix_figure",
    "filter_numbers",
    "filter_rows",
    "nominated_node",
    "nominated_rows",
    "phase_spans",
    "phase_timeline_figure",
    "pick",
    "profile_filters",
    "score_breakdown_figure",
    "score_rows",
    "score_source",
    "score_table",
    "score_text",
    "total_text",
    "uniform_caption",
]

# The extension points of scheduleOne a learner steps through, in upstream order.
PIPELINE = ("PreFilter", "Filter", "PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind", "PostBind")
# Also drawn when they happen: preemption after a failed Schedule, the Permit wait, Unreserve.
_EXTRA = ("Preempt", "WaitOnPermit", "Unreserve")
_SHOWN = frozenset(PIPELINE + _EXTRA)

# Phase states (the timeline's colour + glyph).
DONE, FAILED, WAITING, RUNNING, NOT_REACHED = "done", "failed", "waiting", "running", "not reached"
NOTHING = "nothing found"  # a Preempt that ended without nominating a node (upstream: Preempt returns "")
_STATE_STYLE = {
    DONE: ("✓", theme.OKABE_ITO["bluish_green"]),
    NOTHING: ("∅", theme.OKABE_ITO["yellow"]),
    FAILED: ("✗", theme.OKABE_ITO["vermillion"]),
    WAITING: ("‖", theme.OKABE_ITO["orange"]),
    RUNNING: ("◉", theme.OKABE_ITO["sky_blue"]),
    NOT_REACHED: ("–", "#D9D9D9"),
}

# Each section of the page and the upstream function it re-implements.
SECTION_LINKS: dict[str, tuple[str, str]] = {
    "timeline": (upstream.SCHEDULER_GO, "Scheduler.scheduleOne"),
    "feasible": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.numFeasibleNodesToFind"),
    "filter": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassFilters"),
    "filter_plugins": (upstream.FRAMEWORK_GO, "framework.RunFilterPlugins"),
    "nominated": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.podPassesFiltersOnNode"),
    "score": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"),
    "score_plugins": (upstream.FRAMEWORK_GO, "framework.RunScorePlugins"),
    "pick": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.selectHost"),
    "failure": (upstream.GENERIC_SCHEDULER_GO, "FitError.Error"),
    "failure_event": (upstream.SCHEDULER_GO, "Scheduler.recordSchedulingFailure"),
}

# -- which cycle --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CycleOption:
    """A scheduling cycle visible at the cursor, as the cycle picker lists it."""

    cycle: int
    pod: str
    profile: str
    time: float
    result: str           # "" while in progress, else CYCLE_END's result (assumed | failed | skipped …)
    node: str             # the suggested host, if any


def cycle_options(records: Sequence[Record]) -> tuple[CycleOption, ...]:
    """Every cycle that started within ``records`` (oldest first)."""
    starts: dict[int, Record] = {}
    ends: dict[int, Record] = {}
    for r in records:
        if r.cycle is None:
            continue
        if r.kind is Kind.CYCLE_START:
            starts.setdefault(r.cycle, r)
        elif r.kind is Kind.CYCLE_END:
            ends[r.cycle] = r
    out = []
    for cycle, start in starts.items():
        end = ends.get(cycle)
        out.append(CycleOption(cycle, start.pod or "", start.profile or "", start.time,
                               end.data.result if end is not None else "", (end.node or "") if end else ""))
    return tuple(out)


def cycle_at_cursor(records: Sequence[Record]) -> int | None:
    """The scheduling cycle of the last record at or before the cursor that has one."""
    for r in reversed(records):
        if r.cycle is not None:
            return r.cycle
    return None


# -- phase timeline -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PhaseSpan:
    phase: str
    start: int | None     # seq of PHASE_START (None: not reached)
    end: int | None       # seq of PHASE_END (None: still running or not reached)
    time: float | None
    code: str
    message: str
    state: str            # done | failed | waiting | running | not reached
    current: bool         # the cursor's last record lies inside this phase


def _state_of(code: str, end: int | None, start: int | None) -> str:
    if start is None:
        return NOT_REACHED
    if end is None:
        return RUNNING
    if code in ("Success", "Skip", ""):
        return DONE
    if code == "Wait":
        return WAITING
    return FAILED


def phase_spans(records: Sequence[Record], cursor: int) -> tuple[PhaseSpan, ...]:
    """The cycle's phases in the order they ran, then the PIPELINE phases it never reached.

    ``records`` are one cycle's records; ``cursor`` is the number of visible trace records.
    Phases nested in Preempt (its Filter runs) are not drawn as phases of their own.
    """
    open_: list[tuple[str, Record]] = []
    spans: dict[str, PhaseSpan] = {}
    order: list[str] = []
    last = cursor - 1
    for r in records:
        if r.kind not in (Kind.PHASE_START, Kind.PHASE_END) or not isinstance(r.data, Phase):
            continue
        phase = r.data.phase
        if r.kind is Kind.PHASE_START:
            open_.append((phase, r))
            continue
        while open_ and open_[-1][0] != phase:
            open_.pop()
        if not open_:
            continue
        _, start = open_.pop()
        if phase in _SHOWN and phase not in spans and not any(p == "Preempt" for p, _ in open_):
            spans[phase] = PhaseSpan(phase, start.seq, r.seq, start.time, r.data.code, r.data.message,
                                     _state_of(r.data.code, r.seq, start.seq), start.seq <= last <= r.seq)
            order.append(phase)
    for phase, start in open_:
        if phase in _SHOWN and phase not in spans and not any(p == "Preempt" for p, _ in open_[:-1]):
            spans[phase] = PhaseSpan(phase, start.seq, None, start.time, "", "", RUNNING, start.seq <= last)
            order.append(phase)
    for phase in PIPELINE:
        if phase not in spans:
            spans[phase] = PhaseSpan(phase, None, None, None, "", "", NOT_REACHED, False)
            order.append(phase)
    preempt = spans.get("Preempt")
    if preempt is not None and preempt.state == DONE and not nominated_node(records):
        spans["Preempt"] = replace(preempt, state=NOTHING)
    ran = [p for p in order if spans[p].start is not None]
    ran.sort(key=lambda p: spans[p].start or 0)
    return tuple(spans[p] for p in ran + [p for p in order if spans[p].start is None])


def phase_timeline_figure(spans: Sequence[PhaseSpan], lang: str = "en") -> go.Figure:
    """The cycle as a strip of equal boxes in the order the phases ran; the cursor's phase outlined."""
    names = [s.phase for s in spans]
    colours = [_STATE_STYLE[s.state][1] for s in spans]
    text = [f"{_STATE_STYLE[s.state][0]}<br>{_two_lines(s.phase)}" for s in spans]
    hover = []
    for s in spans:
        where = upstream.phase_location(s.phase)[1]
        if s.start is None:
            steps = t("schedule.phase.not_reached", lang)
        else:
            steps = t("schedule.phase.steps", lang, start=s.start, end="…" if s.end is None else s.end,
                      time=f"{s.time:g}")
        code = f"<br>{s.code}" + (f": {escape(s.message, quote=False)}" if s.message else "") if s.code else ""
        hover.append(f"<b>{s.phase}</b> ({where})<br>{t('schedule.state.' + s.state.replace(' ', '_'), lang)}"
                     f"<br>{steps}{code}")
    fig = go.Figure(go.Bar(
        x=names, y=[1] * len(spans), text=text, textposition="inside", insidetextanchor="middle", textangle=0,
        textfont={"color": "#000000", "size": 13}, hovertext=hover, hoverinfo="text",
        marker={"color": colours, "line": {"color": ["#000000" if s.current else PAPER for s in spans],
                                             "width": [4 if s.current else 1 for s in spans]}},
        width=0.95, showlegend=False, name="phases"))
    fig.update_yaxes(visible=False, range=[0, 1])
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=names, showticklabels=False,
                     showgrid=False)
    fig.update_layout(uniformtext={"minsize": 10, "mode": "show"})
    return plain_layout(fig, height=96, title="")


def _two_lines(phase: str) -> str:
    """``PreFilter`` → ``Pre<br>Filter``, ``WaitOnPermit`` → ``WaitOn<br>Permit``: split at the word
    boundary nearest the middle, so a box label stays horizontal in a narrow box (1024 px)."""
    cuts = [i for i in range(1, len(phase)) if phase[i].isupper() and phase[i - 1].islower()]
    if not cuts:
        return phase
    i = min(cuts, key=lambda c: max(c, len(phase) - c))
    return f"{phase[:i]}<br>{phase[i:]}"


# -- the pick and the failure -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    selected: str
    max_score: int | None
    ties: tuple[str, ...]
    shortcut: bool                 # one feasible node: upstream returns it without scoring
    evaluated: int | None
    feasible: int | None


def pick(records: Sequence[Record]) -> Pick | None:
    """selectHost's decision (or the one-feasible-node shortcut) of the cycle, if it got there."""
    select = first_of(records, Kind.SCORE_RUN)
    result = first_of(records, Kind.SCHEDULE_RESULT)
    res = result.data if result is not None and isinstance(result.data, ScheduleResult) else None
    if select is not None and isinstance(select.data, ScoreRun) and not select.data.error:
        s = select.data
        return Pick(s.selected, s.max_score, s.ties(), False, res.evaluated_nodes if res else None,
                    res.feasible_nodes if res else None)
    if res is not None:
        return Pick(res.suggested_host, None, (), res.shortcut, res.evaluated_nodes, res.feasible_nodes)
    return None


def nominated_node(records: Sequence[Record]) -> str:
    """The node preemption nominated in the cycle ("" when it nominated none)."""
    return next((r.node for r in records if r.kind is Kind.NOMINATE and r.node), "")


def failure_message(records: Sequence[Record]) -> str:
    """The exact FailedScheduling message of the cycle ("" when it did not fail)."""
    failure = first_of(records, Kind.SCHEDULING_FAILURE)
    if failure is not None and isinstance(failure.data, SchedulingFailure):
        return failure.data.message
    return ""
