"""numFeasibleNodesToFind and the round-robin nextStartNodeIndex across cycles."""

import pytest

from kubesched.scheduler.core.generic_scheduler import num_feasible_nodes_to_find
from kubesched.trace import Kind, TraceRecorder
from tests.scheduler.core.support import Harness, node, pod

FIT = {"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"]}


@pytest.mark.parametrize("num_all, percentage, expected", [
    # unset (adaptive): 50 - n/125 percent, floor 5 %, at least 100 nodes
    (50, 0, 50), (99, 0, 99), (100, 0, 100), (200, 0, 100), (1000, 0, 420), (5000, 0, 500),
    (6000, 0, 300), (6250, 0, 312), (10000, 0, 500),
    # 1 %: the 100-node minimum wins
    (50, 1, 50), (100, 1, 100), (1000, 1, 100), (5000, 1, 100), (6000, 1, 100),
    # 30 %
    (50, 30, 50), (100, 30, 100), (1000, 30, 300), (5000, 30, 1500), (6000, 30, 1800),
    # 100 % (and more): every node
    (50, 100, 50), (100, 100, 100), (1000, 100, 1000), (5000, 100, 5000), (6000, 100, 6000),
    (6000, 150, 6000),
    # negative counts as unset
    (1000, -1, 420),
    (0, 0, 0),
])
def test_num_feasible_nodes_to_find(num_all, percentage, expected):
    assert num_feasible_nodes_to_find(num_all, percentage) == expected
    harness = Harness([], FIT, percentage=percentage)
    assert harness.sched.num_feasible_nodes_to_find(num_all) == expected


def _names(n):
    return [f"node-{i:03d}" for i in range(n)]


def _walks(rec):
    return [r.data for r in rec.trace.filter(Kind.FILTER_RUN)]


def test_round_robin_on_200_identical_nodes():
    rec = TraceRecorder()
    harness = Harness([node(n) for n in _names(200)], FIT, observer=rec)
    first = harness.schedule(pod("p1", cpu="100m"))
    assert (first.evaluated_nodes, first.feasible_nodes) == (100, 100)
    assert harness.sched.next_start_node_index == 100
    walk = _walks(rec)[0]
    assert list(walk.feasible()) == _names(200)[:100]
    assert list(walk.not_visited()) == _names(200)[100:]
    assert (walk.num_nodes_to_find, walk.processed, walk.next_start_node_index) == (100, 100, 100)

    second = harness.schedule(pod("p2", cpu="100m"))
    assert (second.evaluated_nodes, second.feasible_nodes) == (100, 100)
    walk = _walks(rec)[1]
    assert walk.start_index == 100 and walk.nodes is _walks(rec)[0].nodes  # one node-name tuple for both
    assert list(walk.feasible()) == _names(200)[100:]
    assert harness.sched.next_start_node_index == 0


def test_failed_nodes_count_as_processed_and_the_walk_wraps():
    # nodes 0..9 are too small; they are examined and recorded before 100 feasible ones are found
    nodes = [node(n, cpu="100m" if i < 10 else "4") for i, n in enumerate(_names(200))]
    rec = TraceRecorder()
    harness = Harness(nodes, FIT, observer=rec)
    result = harness.schedule(pod("p", cpu="1"))
    assert (result.evaluated_nodes, result.feasible_nodes) == (110, 100)
    assert harness.sched.next_start_node_index == 110
    assert list(_walks(rec)[0].failed()) == _names(200)[:10]
    assert [i for i, _ in _walks(rec)[0].checks] == list(range(10))  # only failing nodes are recorded one by one
    # the next cycle starts at 110, wraps after 199 and skips the small nodes again
    result = harness.schedule(pod("q", cpu="1"))
    walk = _walks(rec)[1]
    assert list(walk.feasible()) == _names(200)[110:200] + _names(200)[10:20]
    assert list(walk.failed()) == _names(200)[:10]
    assert (result.evaluated_nodes, harness.sched.next_start_node_index) == (110, 20)


def test_all_nodes_examined_when_not_enough_feasible():
    nodes = [node(n, cpu="100m" if i % 2 else "4") for i, n in enumerate(_names(150))]
    harness = Harness(nodes, FIT)
    harness.sched.next_start_node_index = 7
    result = harness.schedule(pod("p", cpu="1"))
    assert (result.evaluated_nodes, result.feasible_nodes) == (150, 75)
    assert harness.sched.next_start_node_index == 7


def test_without_filter_plugins_the_first_nodes_are_taken_from_index_0():
    """1.18 quirk: the no-filter shortcut ignores nextStartNodeIndex but still advances it."""
    rec = TraceRecorder()
    harness = Harness([node(n) for n in _names(200)], {}, observer=rec)
    harness.sched.next_start_node_index = 50
    result = harness.schedule(pod("p"))
    assert (result.evaluated_nodes, result.feasible_nodes) == (100, 100)
    walk = _walks(rec)[0]
    assert list(walk.feasible()) == _names(200)[:100] and not walk.has_filter_plugins
    assert list(walk.not_visited()) == _names(200)[100:]
    assert harness.sched.next_start_node_index == 150
