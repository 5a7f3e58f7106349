"""Queue views: sub-queue sizes over time, every move, and the v1.18 queue state machine.

Upstream: pkg/scheduler/internal/queue/scheduling_queue.go (PriorityQueue.Add, Pop,
AddUnschedulableIfNotPresent, flushBackoffQCompleted, flushUnschedulableQLeftover,
MoveAllToActiveOrBackoffQueue, movePodsToActiveOrBackoffQueue, AssignedPodAdded, Update,
Delete), pkg/scheduler/internal/queue/events.go (event names), pkg/scheduler/scheduler.go
(Scheduler.scheduleOne pops, Scheduler.bind ends a pod's journey).

Pure builders: trace records / ``SimState`` in, plotly figures or table rows out (no streamlit).

Where each pod is (``locations``) is rebuilt from the records: a QUEUE_MOVE puts the pod in
its target (a ``Pop`` puts it *in flight*: taken by scheduleOne, in no sub-queue), a
BINDING_CYCLE_END ``bound`` makes it *bound*, a cycle that ends ``skipped`` and a deleted pod
drop it. Counts are the number of pods in each place after each record.

Deviation: with several scheduler replicas only the traced replica's queue reports moves
(see kubesched/sim/replica.py); after a hand-over the new leader's moves continue from where
the trace last saw each pod, so a pod the old leader had parked may show up popped from
activeQ — each pod is counted in exactly one place, never twice.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import networkx as nx
import plotly.graph_objects as go

from kubesched.sim.vocabulary import queue_events as qevents
from kubesched.trace.records import Kind, Record
from kubesched.trace.upstream import QUEUE_GO, SCHEDULER_GO, permalink, queue_location
from kubesched.ui.i18n import t
from kubesched.ui.theme import OKABE_ITO, QUEUE_COLOURS, QUEUE_GLYPHS

ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_Q = "activeQ", "podBackoffQ", "unschedulableQ"
IN_FLIGHT, BOUND = "inFlight", "bound"
NEW, GONE = "new", "gone"                       # outside the queue: before Add, after Delete
PLACES: Final = (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_Q, IN_FLIGHT, BOUND)
STATES: Final = (NEW, ACTIVE_Q, IN_FLIGHT, BOUND, BACKOFF_Q, UNSCHEDULABLE_Q, GONE)

MOVE_POP, MOVE_UPDATE, MOVE_DELETE = "Pop", "Update", "Delete"
BIND_EVENT: Final = "Bind"                      # the binding cycle (not a queue event upstream)

# Every event that can reach MoveAllToActiveOrBackoffQueue / movePodsToActiveOrBackoffQueue.
_DIRECT: Final = frozenset({qevents.POD_ADD, qevents.SCHEDULE_ATTEMPT_FAILURE, qevents.BACKOFF_COMPLETE})
MOVE_EVENTS: Final = frozenset(e for e in qevents.ALL_EVENTS if e not in _DIRECT)


@dataclass(frozen=True, slots=True)
class Transition:
    """One edge of the state machine: the events that take it and the upstream function."""

    source: str
    target: str
    events: frozenset[str]
    func: str
    file: str = QUEUE_GO


# v1.18.5's transitions (scheduling_queue.go; the binding edge is scheduler.go).
TRANSITIONS: Final = (
    Transition(NEW, ACTIVE_Q, frozenset({qevents.POD_ADD, MOVE_UPDATE}), "PriorityQueue.Add"),
    Transition(ACTIVE_Q, IN_FLIGHT, frozenset({MOVE_POP}), "PriorityQueue.Pop"),
    Transition(IN_FLIGHT, UNSCHEDULABLE_Q, frozenset({qevents.SCHEDULE_ATTEMPT_FAILURE}),
               "PriorityQueue.AddUnschedulableIfNotPresent"),
    Transition(IN_FLIGHT, BACKOFF_Q, frozenset({qevents.SCHEDULE_ATTEMPT_FAILURE}),
               "PriorityQueue.AddUnschedulableIfNotPresent"),
    Transition(IN_FLIGHT, BOUND, frozenset({BIND_EVENT}), "Scheduler.bind", SCHEDULER_GO),
    Transition(UNSCHEDULABLE_Q, ACTIVE_Q, MOVE_EVENTS | {qevents.POD_ADD, MOVE_UPDATE},
               "PriorityQueue.MoveAllToActiveOrBackoffQueue"),
    Transition(UNSCHEDULABLE_Q, BACKOFF_Q, MOVE_EVENTS, "PriorityQueue.MoveAllToActiveOrBackoffQueue"),
    Transition(BACKOFF_Q, ACTIVE_Q, frozenset({qevents.BACKOFF_COMPLETE, qevents.POD_ADD, MOVE_UPDATE}),
               "PriorityQueue.flushBackoffQCompleted"),
    Transition(ACTIVE_Q, GONE, frozenset({MOVE_DELETE}), "PriorityQueue.Delete"),
    Transition(BACKOFF_Q, GONE, frozenset({MOVE_DELETE}), "PriorityQueue.Delete"),
    Transition(UNSCHEDULABLE_Q, GONE, frozenset({MOVE_DELETE}), "PriorityQueue.Delete"),
)

# Fixed drawing positions (x, y): the happy path on top, the waiting rooms below.
POSITIONS: Final[dict[str, tuple[float, float]]] = {
    NEW: (0.0, 1.0), ACTIVE_Q: (1.0, 1.0), IN_FLIGHT: (2.0, 1.0), BOUND: (3.0, 1.0),
    BACKOFF_Q: (1.0, 0.0), UNSCHEDULABLE_Q: (2.0, 0.0), GONE: (0.0, -0.6),
}
_OUTSIDE_COLOUR: Final = OKABE_ITO["grey"]
LABEL_OFFSET: Final = 0.09                       # how far an edge's count sits beside the arrow
CROWDED: Final = 0.3                             # two edge middles closer than this are crowded
CROSSING_AT: Final = 0.3                         # a crowded edge's count: this far along from its source


def state_colour(state: str) -> str:
    return QUEUE_COLOURS.get(state, _OUTSIDE_COLOUR)


def state_glyph(state: str) -> str:
    return QUEUE_GLYPHS.get(state, "○" if state == NEW else "∅")


def state_machine() -> nx.DiGraph:
    """The queue state machine of v1.18.5 as a DiGraph (node attr ``pos``; edge attrs ``events``, ``func``)."""
    graph = nx.DiGraph()
    for state in STATES:
        graph.add_node(state, pos=POSITIONS[state])
    for tr in TRANSITIONS:
        graph.add_edge(tr.source, tr.target, events=tr.events, func=tr.func, file=tr.file)
    return graph


# -- reading the records ----------------------------------------------------------------------------------
def transition_of(record: Record) -> tuple[str, str, str] | None:
    """(source state, target state, event) of a record that moves a pod, else None."""
    if record.kind is Kind.QUEUE_MOVE:
        move: Any = record.data
        source, target, event = move.source, move.target, move.event
        if not source:
            source = IN_FLIGHT if event == qevents.SCHEDULE_ATTEMPT_FAILURE else NEW
        if not target:
            target = IN_FLIGHT if event == MOVE_POP else GONE
        return source, target, event
    if record.kind is Kind.BINDING_CYCLE_END and getattr(record.data, "result", "") == "bound":
        return IN_FLIGHT, BOUND, BIND_EVENT
    return None


def _dropped(record: Record) -> bool:
    """A record after which the pod is nowhere (skipped cycle, pod deleted)."""
    if record.kind is Kind.CYCLE_END:
        return getattr(record.data, "result", "") in ("skipped", "no-profile")
    if record.kind is Kind.INFORMER_EVENT:
        data: Any = record.data
        return data.object_kind == "Pod" and data.event_type == "DELETED"
    return False


def _pod_of(record: Record) -> str | None:
    if record.kind is Kind.INFORMER_EVENT:
        data: Any = record.data
        return f"{data.namespace}/{data.name}"
    return record.pod


@dataclass(frozen=True, slots=True)
class CountSample:
    """How many pods are in each place (``PLACES`` order) right after record ``seq``."""

    seq: int
    time: float
    counts: tuple[int, ...]

    def count(self, place: str) -> int:
        return self.counts[PLACES.index(place)]


def _counts(where: dict[str, str]) -> tuple[int, ...]:
    tally = Counter(where.values())
    return tuple(tally.get(place, 0) for place in PLACES)


def count_samples(records: Iterable[Record]) -> tuple[CountSample, ...]:
    """One sample per record that changes a count, after a first all-zero sample at t=0."""
    where: dict[str, str] = {}
    samples = [CountSample(-1, 0.0, (0,) * len(PLACES))]
    for record in records:
        pod = _pod_of(record)
        if pod is None:
            continue
        step = transition_of(record)
        if step is not None:
            target = step[1]
            if target == GONE:
                where.pop(pod, None)
            else:
                where[pod] = target
        elif _dropped(record) and (record.kind is Kind.INFORMER_EVENT or where.get(pod) == IN_FLIGHT):
            where.pop(pod, None)
        else:
            continue
        counts = _counts(where)
        if counts != samples[-1].counts:
            samples.append(CountSample(record.seq, record.time, counts))
    return tuple(samples)


def default_axis(records: Iterable[Record]) -> str:
    """``"seq"`` (record order) when most queue moves share one timestamp (a run where everything
    happens at t=0 looks empty over time), else ``"time"``."""
    times = Counter(r.time for r in records if transition_of(r) is not None)
    if not times:
        return "time"
    return "seq" if times.most_common(1)[0][1] * 2 > sum(times.values()) else "time"


def counts_at(samples: Sequence[CountSample], cursor: int) -> CountSample:
    """The last sample among the first ``cursor`` records."""
    last = samples[0]
    for sample in samples:
        if sample.seq >= cursor:
            break
        last = sample
    return last


def counts_summary(sample: CountSample) -> str:
    """``▶ activeQ 2 · ‖ podBackoffQ 0 · …``: every place with its glyph and count."""
    return " · ".join(f"{state_glyph(p)} {p} {sample.count(p)}" for p in PLACES)


def transition_counts(records: Iterable[Record]) -> Counter[tuple[str, str]]:
    """How many times each state-machine edge was taken."""
    tally: Counter[tuple[str, str]] = Counter()
    for record in records:
        step = transition_of(record)
        if step is not None:
            tally[(step[0], step[1])] += 1
    return tally


def move_rows(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Every QUEUE_MOVE as a table row: time, pod, from → to, event and the upstream function."""
    rows = []
    for record in records:
        if record.kind is not Kind.QUEUE_MOVE:
            continue
        move: Any = record.data
        file, func = record.file or QUEUE_GO, record.func or queue_location(move.source, move.target, move.event)[1]
        source, target, event = transition_of(record) or ("", "", "")
        rows.append({"seq": record.seq, "time": record.time, "pod": record.pod or "",
                     "from": source, "to": target, "event": event, "function": func,
                     "link": permalink(file)})
    return rows


def pending_rows(state: Any) -> list[dict[str, Any]]:
    """Each pod waiting in a sub-queue: attempts, timestamp and backoff expiry (as the queue holds them)."""
    queues = state.queues
    rows = []
    for pod in tuple(queues.active_q) + tuple(queues.pod_backoff_q) + tuple(queues.unschedulable_q):
        rows.append({"queue": pod.queue, "pod": pod.key, "priority": pod.priority, "attempts": pod.attempts,
                     "timestamp": pod.timestamp, "backoff_expiry": pod.backoff_expiry,
                     "backing_off": pod.backoff_expiry > state.time})
    return rows


# -- figures ---------------------------------------------------------------------------------------------
def _series(samples: Sequence[CountSample], place: str, axis: str) -> tuple[list[float], list[int]]:
    xs = [float(s.time if axis == "time" else max(s.seq, 0)) for s in samples]
    return xs, [s.count(place) for s in samples]


def counts_figure(records: Sequence[Record], cursor: int, cursor_time: float, *, axis: str = "time",
                  lang: str = "en") -> go.Figure:
    """Step lines of pods per place; solid up to the cursor, faint after it; a vertical line at the cursor.

    ``axis`` is ``"time"`` (simulated seconds) or ``"seq"`` (trace record index).
    """
    samples = count_samples(records)
    now = counts_at(samples, cursor)
    past = [s for s in samples if s.seq < cursor]
    future = [now] + [s for s in samples if s.seq >= cursor]
    cursor_x = float(cursor_time if axis == "time" else cursor)
    past_end = CountSample(cursor, cursor_time, now.counts)
    fig = go.Figure()
    for place in PLACES:
        colour = state_colour(place)
        name = f"{state_glyph(place)} {place}"
        xs, ys = _series(past, place, axis)
        xs.append(cursor_x)
        ys.append(past_end.count(place))
        fig.add_trace(go.Scatter(x=xs, y=ys, name=name, legendgroup=place, mode="lines", line_shape="hv",
                                 line={"color": colour, "width": 3}))
        if len(future) > 1:
            fx, fy = _series(future, place, axis)
            fx[0] = cursor_x
            fig.add_trace(go.Scatter(x=fx, y=fy, name=name, legendgroup=place, showlegend=False, mode="lines",
                                     line_shape="hv", opacity=0.3, line={"color": colour, "width": 2, "dash": "dot"}))
    fig.add_vline(x=cursor_x, line={"color": OKABE_ITO["black"], "width": 2, "dash": "dash"})
    title = t("queues.axis_time", lang) if axis == "time" else t("queues.axis_seq", lang)
    fig.update_layout(xaxis={"title": title, "type": "linear", "rangemode": "tozero"},
                      yaxis={"title": t("queues.axis_pods", lang), "rangemode": "tozero", "dtick": 1},
                      legend={"orientation": "h", "y": -0.25}, margin={"l": 50, "r": 20, "t": 30, "b": 40},
                      height=360, hovermode="x unified")
    return fig


def edge_width(count: int) -> float:
    """Arrow width for an edge taken ``count`` times: 1 when never taken, growing like log2, at most 8."""
    return 1.0 if count <= 0 else round(min(8.0, 1.5 + 1.5 * math.log2(count)), 3)


def arrow_size(width: float) -> float:
    """Arrowhead scale (plotly scales the head with the line width): heads stay about the same size."""
    return round(min(1.5, max(0.4, 2.0 / width)), 3)


def label_position(source: str, target: str) -> tuple[float, float]:
    """Where an edge's count is drawn: ``LABEL_OFFSET`` beside its arrow, on the side farther from
    the other arrows, half way along it or, when another edge's middle is near, ``CROSSING_AT`` of
    the way from its source (the two diagonals between the queues cross at their middles): each
    count stays by its own arrow."""
    here = _middle(source, target)
    others = [(tr.source, tr.target) for tr in TRANSITIONS if (tr.source, tr.target) != (source, target)]
    crowded = any(math.dist(here, _middle(*edge)) < CROWDED for edge in others)
    along = CROSSING_AT if crowded else 0.5
    (x0, y0), (x1, y1) = POSITIONS[source], POSITIONS[target]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    x, y = x0 + along * (x1 - x0), y0 + along * (y1 - y0)
    left = (x - LABEL_OFFSET * (y1 - y0) / length, y + LABEL_OFFSET * (x1 - x0) / length)
    right = (2 * x - left[0], 2 * y - left[1])
    return max((left, right), key=lambda p: min(_distance_to_edge(p, *edge) for edge in others))


def _middle(source: str, target: str) -> tuple[float, float]:
    (x0, y0), (x1, y1) = POSITIONS[source], POSITIONS[target]
    return (x0 + x1) / 2, (y0 + y1) / 2


def _distance_to_edge(point: tuple[float, float], source: str, target: str) -> float:
    (x0, y0), (x1, y1) = POSITIONS[source], POSITIONS[target]
    dx, dy = x1 - x0, y1 - y0
    along = max(0.0, min(1.0, ((point[0] - x0) * dx + (point[1] - y0) * dy) / (dx * dx + dy * dy)))
    return math.dist(point, (x0 + along * dx, y0 + along * dy))


def state_machine_figure(records: Iterable[Record], cursor: int | None = None, *, lang: str = "en") -> go.Figure:
    """The state machine with arrow widths from the moves among the first ``cursor`` records."""
    records = list(records)
    seen = records if cursor is None else [r for r in records if r.seq < cursor]
    taken = transition_counts(seen)
    graph = state_machine()
    now = counts_at(count_samples(seen), cursor if cursor is not None else len(records))
    fig = go.Figure()
    mid_x, mid_y, mid_text, mid_hover = [], [], [], []
    for source, target, attrs in graph.edges(data=True):
        (x0, y0), (x1, y1) = POSITIONS[source], POSITIONS[target]
        count = taken.get((source, target), 0)
        width = edge_width(count)
        fig.add_annotation(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="",
                           showarrow=True, arrowhead=2, arrowsize=arrow_size(width), arrowwidth=width,
                           arrowcolor=state_colour(target) if count else "#BBBBBB", standoff=24,
                           startstandoff=24, name=f"{source}->{target}")
        x, y = label_position(source, target)
        mid_x.append(x)
        mid_y.append(y)
        mid_text.append(str(count))
        shown = sorted(attrs["events"]) if len(attrs["events"]) <= 4 else sorted(attrs["events"])[:4] + ["…"]
        mid_hover.append(f"{source} → {target}<br>{attrs['func']}<br>{', '.join(shown)}<br>"
                         f"{t('queues.sm_taken', lang, n=count)}")
    fig.add_trace(go.Scatter(x=mid_x, y=mid_y, mode="text", text=mid_text, hovertext=mid_hover, hoverinfo="text",
                             textfont={"size": 13, "color": OKABE_ITO["black"]}, showlegend=False, name="edges"))
    xs = [POSITIONS[s][0] for s in STATES]
    ys = [POSITIONS[s][1] for s in STATES]
    labels = [s if s in PLACES else t(f"queues.state_{s}", lang) for s in STATES]
    counts = [now.count(s) if s in PLACES else None for s in STATES]
    text = [f"{state_glyph(s)} {label}" + (f" ({c})" if c is not None else "")
            for s, label, c in zip(STATES, labels, counts)]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", text=text, textposition="bottom center",
                             marker={"size": 34, "color": [state_colour(s) for s in STATES],
                                     "line": {"color": OKABE_ITO["black"], "width": 1}},
                             hoverinfo="text", hovertext=text, showlegend=False, name="states"))
    fig.update_layout(xaxis={"visible": False, "range": [-0.5, 3.5]}, yaxis={"visible": False, "range": [-1.0, 1.4]},
                      height=380, margin={"l": 10, "r": 10, "t": 10, "b": 10}, plot_bgcolor="rgba(0,0,0,0)")
    return fig
