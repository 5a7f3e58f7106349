"""Queue figure builders: places per record, counts, edge widths, rows, and the v1.18 state machine."""

from __future__ import annotations

import collections
import math
from pathlib import Path

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.sim.state import QueuedPod, QueueState, SimState
from kubesched.trace.records import (
    CycleInfo,
    InformerEvent,
    Kind,
    Outcome,
    QueueMove,
    Record,
)
from kubesched.trace.upstream import QUEUE_GO, permalink
from kubesched.ui.figures import queues as q
from kubesched.ui.theme import QUEUE_COLOURS

SAMPLES = Path(__file__).resolve().parents[3] / "sample_clusters"


def move(seq, time, pod, source, target, event):
    return Record(seq, time, Kind.QUEUE_MOVE, pod=pod, file=QUEUE_GO, func="PriorityQueue.X",
                  data=QueueMove(source, target, event))


def bound(seq, time, pod):
    return Record(seq, time, Kind.BINDING_CYCLE_END, pod=pod, data=Outcome("bound"))


def other(seq, time, pod=None):
    return Record(seq, time, Kind.LOG, pod=pod)


# A small journey: a and b added; a fails and waits; b binds; a NodeAdd-ed back, popped, bound; c deleted.
JOURNEY = (
    move(0, 0.0, "ns/a", "", "activeQ", "PodAdd"),
    move(1, 0.0, "ns/b", "", "activeQ", "PodAdd"),
    move(2, 0.0, "ns/a", "activeQ", "", "Pop"),
    other(3, 0.0, "ns/a"),
    move(4, 0.5, "ns/a", "", "unschedulableQ", "ScheduleAttemptFailure"),
    move(5, 1.0, "ns/b", "activeQ", "", "Pop"),
    bound(6, 1.0, "ns/b"),
    move(7, 5.0, "ns/a", "unschedulableQ", "podBackoffQ", "NodeAdd"),
    move(8, 6.0, "ns/a", "podBackoffQ", "activeQ", "BackoffComplete"),
    move(9, 6.0, "ns/c", "", "activeQ", "PodAdd"),
    move(10, 7.0, "ns/c", "activeQ", "", "Delete"),
    move(11, 7.0, "ns/a", "activeQ", "", "Pop"),
    bound(12, 7.5, "ns/a"),
)
# (seq, time, activeQ, podBackoffQ, unschedulableQ, inFlight, bound) after each change.
JOURNEY_COUNTS = (
    (-1, 0.0, 0, 0, 0, 0, 0),
    (0, 0.0, 1, 0, 0, 0, 0),
    (1, 0.0, 2, 0, 0, 0, 0),
    (2, 0.0, 1, 0, 0, 1, 0),
    (4, 0.5, 1, 0, 1, 0, 0),
    (5, 1.0, 0, 0, 1, 1, 0),
    (6, 1.0, 0, 0, 1, 0, 1),
    (7, 5.0, 0, 1, 0, 0, 1),
    (8, 6.0, 1, 0, 0, 0, 1),
    (9, 6.0, 2, 0, 0, 0, 1),
    (10, 7.0, 1, 0, 0, 0, 1),
    (11, 7.0, 0, 0, 0, 1, 1),
    (12, 7.5, 0, 0, 0, 0, 2),
)


@pytest.mark.parametrize("record, expected", [
    (move(0, 0, "p", "", "activeQ", "PodAdd"), ("new", "activeQ", "PodAdd")),
    (move(0, 0, "p", "", "activeQ", "Update"), ("new", "activeQ", "Update")),
    (move(0, 0, "p", "activeQ", "", "Pop"), ("activeQ", "inFlight", "Pop")),
    (move(0, 0, "p", "", "unschedulableQ", "ScheduleAttemptFailure"),
     ("inFlight", "unschedulableQ", "ScheduleAttemptFailure")),
    (move(0, 0, "p", "", "podBackoffQ", "ScheduleAttemptFailure"),
     ("inFlight", "podBackoffQ", "ScheduleAttemptFailure")),
    (move(0, 0, "p", "unschedulableQ", "activeQ", "UnschedulableTimeout"),
     ("unschedulableQ", "activeQ", "UnschedulableTimeout")),
    (move(0, 0, "p", "podBackoffQ", "activeQ", "BackoffComplete"), ("podBackoffQ", "activeQ", "BackoffComplete")),
    (move(0, 0, "p", "unschedulableQ", "", "Delete"), ("unschedulableQ", "gone", "Delete")),
    (bound(0, 0, "p"), ("inFlight", "bound", "Bind")),
    (Record(0, 0, Kind.BINDING_CYCLE_END, pod="p", data=Outcome("failed")), None),
    (other(0, 0, "p"), None),
])
def test_transition_of(record, expected):
    assert q.transition_of(record) == expected


def test_count_samples_follow_each_pod():
    samples = q.count_samples(JOURNEY)
    assert [(s.seq, s.time) + s.counts for s in samples] == list(JOURNEY_COUNTS)


@pytest.mark.parametrize("records, expected_last", [
    # a skipped cycle drops the popped pod
    ((move(0, 0, "p", "", "activeQ", "PodAdd"), move(1, 0, "p", "activeQ", "", "Pop"),
      Record(2, 0, Kind.CYCLE_END, pod="p", data=CycleInfo(result="skipped"))), (2, 0, 0, 0, 0, 0)),
    # a failed cycle keeps it in flight until the requeue
    ((move(0, 0, "p", "", "activeQ", "PodAdd"), move(1, 0, "p", "activeQ", "", "Pop"),
      Record(2, 0, Kind.CYCLE_END, pod="p", data=CycleInfo(result="failed"))), (1, 0, 0, 0, 1, 0)),
    # a bound pod deleted (a preemption victim) leaves "bound"
    ((move(0, 0, "ns/p", "", "activeQ", "PodAdd"), move(1, 0, "ns/p", "activeQ", "", "Pop"), bound(2, 1, "ns/p"),
      Record(3, 2, Kind.INFORMER_EVENT, data=InformerEvent("DELETED", "Pod", "ns", "p"))), (3, 0, 0, 0, 0, 0)),
    # after a hand-over a pod parked by the old leader is popped by the new one: counted once
    ((move(0, 0, "p", "", "activeQ", "PodAdd"), move(1, 0, "p", "activeQ", "", "Pop"),
      move(2, 0, "p", "", "unschedulableQ", "ScheduleAttemptFailure"), move(3, 16, "p", "activeQ", "", "Pop")),
     (3, 0, 0, 0, 1, 0)),
])
def test_count_samples_edge_cases(records, expected_last):
    last = q.count_samples(records)[-1]
    assert (last.seq,) + last.counts == expected_last


@pytest.mark.parametrize("cursor, expected_seq", [(0, -1), (1, 0), (3, 2), (4, 2), (5, 4), (13, 12), (99, 12)])
def test_counts_at_cursor(cursor, expected_seq):
    assert q.counts_at(q.count_samples(JOURNEY), cursor).seq == expected_seq


@pytest.mark.parametrize("count, width", [(0, 1.0), (1, 1.5), (2, 3.0), (4, 4.5), (8, 6.0), (3, 3.877), (32, 8.0),
                                          (1000, 8.0)])
def test_edge_width(count, width):
    assert q.edge_width(count) == width


def test_transition_counts_and_arrow_widths():
    counts = q.transition_counts(JOURNEY)
    assert dict(counts) == {("new", "activeQ"): 3, ("activeQ", "inFlight"): 3, ("inFlight", "unschedulableQ"): 1,
                            ("inFlight", "bound"): 2, ("unschedulableQ", "podBackoffQ"): 1,
                            ("podBackoffQ", "activeQ"): 1, ("activeQ", "gone"): 1}
    fig = q.state_machine_figure(JOURNEY)
    widths = {a.name: a.arrowwidth for a in fig.layout.annotations}
    assert widths == {f"{tr.source}->{tr.target}": q.edge_width(counts.get((tr.source, tr.target), 0))
                      for tr in q.TRANSITIONS}
    # only the moves before the cursor count
    early = {a.name: a.arrowwidth for a in q.state_machine_figure(JOURNEY, cursor=3).layout.annotations}
    assert early["new->activeQ"] == q.edge_width(2) and early["activeQ->inFlight"] == q.edge_width(1)
    assert early["inFlight->bound"] == 1.0


@pytest.mark.parametrize("width, size", [(1.0, 1.5), (2.0, 1.0), (4.0, 0.5), (8.0, 0.4)])
def test_arrow_size_keeps_heads_small(width, size):
    assert q.arrow_size(width) == size


def test_state_machine_graph_has_fixed_positions():
    graph = q.state_machine()
    assert set(graph.nodes) == set(q.STATES)
    assert {n: graph.nodes[n]["pos"] for n in graph.nodes} == q.POSITIONS
    assert graph.number_of_edges() == len(q.TRANSITIONS)


def _distance_to_edge(point, source, target):
    (x0, y0), (x1, y1) = q.POSITIONS[source], q.POSITIONS[target]
    dx, dy = x1 - x0, y1 - y0
    along = max(0.0, min(1.0, ((point[0] - x0) * dx + (point[1] - y0) * dy) / (dx * dx + dy * dy)))
    return math.dist(point, (x0 + along * dx, y0 + along * dy))


def test_each_edge_count_sits_by_its_own_arrow():
    """A count is read as the nearest arrow's: it must be nearer its own than any other, and no two
    counts sit close together (the two diagonals between the queues cross at their middles)."""
    labels = {(tr.source, tr.target): q.label_position(tr.source, tr.target) for tr in q.TRANSITIONS}
    for edge, point in labels.items():
        own = _distance_to_edge(point, *edge)
        assert own == pytest.approx(q.LABEL_OFFSET)
        assert all(_distance_to_edge(point, *other) > own for other in labels if other != edge), edge
    points = list(labels.values())
    # at least 0.18 apart in data units: ~35 px on a 1024 px wide page (the crossing counts were
    # 0.13 apart at one height, "0 0" at the crossing)
    assert min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]) > 0.18
    figure = q.state_machine_figure([])
    edges = next(tr for tr in figure.data if tr.name == "edges")
    assert list(zip(edges.x, edges.y)) == [labels[e] for e in q.state_machine().edges]


def test_counts_figure_data_colours_and_cursor():
    fig = q.counts_figure(JOURNEY, cursor=6, cursor_time=1.0)
    solid = [tr for tr in fig.data if tr.showlegend is not False]
    assert [tr.legendgroup for tr in solid] == list(q.PLACES)
    assert [tr.line.color for tr in solid] == [QUEUE_COLOURS[p] for p in q.PLACES]
    assert all(tr.line.shape == "hv" and tr.type == "scatter" for tr in fig.data)
    active = solid[0]
    assert list(active.x) == [0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.0]
    assert list(active.y) == [0, 1, 2, 1, 1, 0, 0]
    future_active = next(tr for tr in fig.data if tr.legendgroup == "activeQ" and tr.showlegend is False)
    assert list(future_active.x) == [1.0, 1.0, 5.0, 6.0, 6.0, 7.0, 7.0, 7.5]
    assert fig.layout.xaxis.type == "linear"
    assert [s.x0 for s in fig.layout.shapes] == [1.0]
    by_seq = q.counts_figure(JOURNEY, cursor=6, cursor_time=1.0, axis="seq")
    assert list(by_seq.data[0].x) == [0, 0, 1, 2, 4, 5, 6]
    assert [s.x0 for s in by_seq.layout.shapes] == [6]


def test_move_rows():
    rows = q.move_rows(JOURNEY[:5])
    assert [(r["seq"], r["time"], r["pod"], r["from"], r["to"], r["event"]) for r in rows] == [
        (0, 0.0, "ns/a", "new", "activeQ", "PodAdd"), (1, 0.0, "ns/b", "new", "activeQ", "PodAdd"),
        (2, 0.0, "ns/a", "activeQ", "inFlight", "Pop"),
        (4, 0.5, "ns/a", "inFlight", "unschedulableQ", "ScheduleAttemptFailure")]
    assert {r["link"] for r in rows} == {permalink(QUEUE_GO)}


def test_pending_rows():
    queues = QueueState(active_q=(QueuedPod("ns", "a", "activeQ", 0, 1.0, 2.0, 10),),
                        pod_backoff_q=(QueuedPod("ns", "b", "podBackoffQ", 3, 4.0, 8.0, 0),),
                        unschedulable_q=(QueuedPod("ns", "c", "unschedulableQ", 1, 2.0, 3.0, 0),))
    state = SimState(time=5.0, cycle=4, leader="", queues=queues, nodes=(), pods=(), events=(), replicas=())
    assert [(r["queue"], r["pod"], r["priority"], r["attempts"], r["timestamp"], r["backoff_expiry"],
             r["backing_off"]) for r in q.pending_rows(state)] == [
        ("activeQ", "ns/a", 10, 0, 1.0, 2.0, False), ("podBackoffQ", "ns/b", 0, 3, 4.0, 8.0, True),
        ("unschedulableQ", "ns/c", 0, 1, 2.0, 3.0, False)]


# -- against real runs ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["default.yaml", "preemption.yaml"])
def run(request):
    sim = Simulation.from_yaml(SAMPLES / request.param)
    sim.run_until_idle()
    return sim


def test_every_traced_transition_is_an_edge_of_the_state_machine(run):
    graph = q.state_machine()
    seen = [q.transition_of(r) for r in run.trace]
    seen = [s for s in seen if s is not None]
    assert seen
    for source, target, event in seen:
        assert graph.has_edge(source, target), (source, target, event)
        assert event in graph.edges[source, target]["events"], (source, target, event)


def test_counts_at_the_end_match_the_queue_state(run):
    state = run.state()
    last = q.count_samples(run.trace)[-1]
    assert (last.count("activeQ"), last.count("podBackoffQ"), last.count("unschedulableQ")) == (
        len(state.queues.active_q), len(state.queues.pod_backoff_q), len(state.queues.unschedulable_q))
    assert last.count("bound") == sum(1 for r in run.trace if r.kind is Kind.BINDING_CYCLE_END
                                      and r.data.result == "bound")


def test_queue_texts_exist_in_both_languages():
    from kubesched.ui.i18n import queues as texts

    assert set(texts.EN) == set(texts.ZH) and all(k.startswith("queues.") for k in texts.EN)


@pytest.mark.parametrize("records, axis", [
    ((), "time"),                                                        # no moves at all
    (JOURNEY, "time"),                                                   # 3 of 11 moves at t=0: spread out
    (tuple(move(i, 0.0, f"ns/p{i}", "", "activeQ", "PodAdd") for i in range(3))
     + (move(3, 4.0, "ns/p0", "activeQ", "", "Pop"),), "seq"),           # 3 of 4 at t=0
    ((move(0, 0.0, "ns/a", "", "activeQ", "PodAdd"), move(1, 1.0, "ns/a", "activeQ", "", "Pop")), "time"),  # a tie
    ((other(0, 0.0), other(1, 0.0), other(2, 0.0), move(3, 3.0, "ns/a", "", "activeQ", "PodAdd"),
      move(4, 5.0, "ns/a", "activeQ", "", "Pop")), "time"),              # only moves count
])
def test_default_axis_is_record_order_when_most_moves_share_a_time(records, axis):
    assert q.default_axis(records) == axis


def test_default_axis_of_the_default_cluster():
    sim = Simulation.from_yaml(SAMPLES / "default.yaml", seed=0)
    sim.run_until_idle()
    times = collections.Counter(r.time for r in sim.trace if q.transition_of(r) is not None)
    expected = "seq" if max(times.values()) * 2 > sum(times.values()) else "time"
    assert q.default_axis(sim.trace) == expected == "seq"    # every pod is added and popped at t=0
