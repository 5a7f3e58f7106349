"""prioritizeNodes (plugin sums, extender scaling) and selectHost (reservoir sampling)."""

import random

import pytest

from kubesched.conformance.fakes_core import FakeExtender, HostPriority
from kubesched.scheduler.core.generic_scheduler import (MAX_EXTENDER_PRIORITY, EmptyPriorityListError,
                                                        GenericScheduler, select_host)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import ScoreDetail
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, FrameworkError, NodeScore
from kubesched.scheduler.internal.cache.snapshot import new_empty_snapshot
from kubesched.trace import Kind, TraceRecorder
from tests.scheduler.core.support import Harness, Recorder, node, pod

NAMES = ["1", "2", "3"]


def _prioritize(plugins, extenders=(), observer=None, detail=None):
    harness = Harness([node(n) for n in NAMES], plugins, extenders=extenders, observer=observer)
    nodes = [node(n) for n in NAMES]
    scores = harness.sched.prioritize_nodes(harness.profile, CycleState(), pod("p"), nodes, detail)
    return [(ns.name, ns.score) for ns in scores]


def _by_table(table):
    """A prioritizer returning fixed scores for the given hosts."""
    return lambda p, nodes: [HostPriority(h, s) for h, s in table.items()]


def test_extender_scale_is_ten():
    assert MAX_NODE_SCORE // MAX_EXTENDER_PRIORITY == 10


@pytest.mark.parametrize("plugins, extenders, expected", [
    # no score plugins and no extenders: every node scores 1
    ({}, [], [("1", 1), ("2", 1), ("3", 1)]),
    # NumericMap (score = node name) × weight 2, ReverseNumericMap (max+min-score) × 1
    ({"score": [{"name": "NumericMap", "weight": 2}]}, [], [("1", 2), ("2", 4), ("3", 6)]),
    ({"score": [{"name": "NumericMap", "weight": 2}, {"name": "ReverseNumericMap", "weight": 1}]}, [],
     [("1", 2 + 3), ("2", 4 + 2), ("3", 6 + 1)]),
    # one extender, no score plugins: framework part 0, extender score × weight × 10
    ({}, [FakeExtender("e", prioritizers=[(_by_table({"1": 1, "2": 5}), 1)], weight=3)],
     [("1", 30), ("2", 150), ("3", 0)]),
    # plugin scores plus two extenders (summed before scaling)
    ({"score": [{"name": "NumericMap", "weight": 1}]},
     [FakeExtender("a", prioritizers=[(_by_table({"1": 2}), 1)], weight=1),
      FakeExtender("b", prioritizers=[(_by_table({"1": 1, "3": 10}), 2)], weight=5)],
     [("1", 1 + (2 * 1 + 2 * 5) * 10), ("2", 2), ("3", 3 + 20 * 5 * 10)]),
    # failing and uninterested extenders contribute nothing; a host not in the list is ignored
    ({"score": [{"name": "NumericMap", "weight": 1}]},
     [FakeExtender("bad", fail_prioritize=True),
      FakeExtender("off", prioritizers=[(_by_table({"1": 9}), 1)], interested=False),
      FakeExtender("x", prioritizers=[(_by_table({"2": 1, "ghost": 7}), 1)])],
     [("1", 1), ("2", 2 + 10), ("3", 3)]),
])
def test_prioritize_nodes(plugins, extenders, expected):
    assert _prioritize(plugins, extenders) == expected


def test_extender_only_still_runs_score_plugins_path_and_reports_hooks():
    rec = Recorder()
    detail = ScoreDetail()
    ext = FakeExtender("e", prioritizers=[(_by_table({"2": 4}), 1)], weight=2)
    bad = FakeExtender("bad", fail_prioritize=True)
    assert _prioritize({}, [ext, bad], rec, detail) == [("1", 0), ("2", 80), ("3", 0)]
    calls = rec.of("extender_prioritize")
    assert [(c["extender"], c["weight"], c["error"]) for c in calls] == [
        ("e", 2, None), ("bad", 0, "injected extender prioritize error")]
    assert calls[0]["scores"] == [("1", 0), ("2", 4), ("3", 0)]
    assert (detail.extender_scores, detail.totals) == ({"1": 0, "2": 8, "3": 0}, [0, 80, 0])


def test_score_plugin_error_is_raised():
    with pytest.raises(FrameworkError, match='^error while running score plugin for pod "p": '
                                             'priority map encounters an error$'):
        _prioritize({"score": [{"name": "FalseMap", "weight": 1}]})


class ScriptedRng:
    """randrange answers from a script; records the bounds asked for."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.asked = []

    def randrange(self, n):
        self.asked.append(n)
        return self.answers.pop(0)


def _list(*pairs):
    return [NodeScore(n, s) for n, s in pairs]


@pytest.mark.parametrize("scores, answers, asked, host, ties", [
    # single max: rng never consulted
    (_list(("a", 1), ("b", 5), ("c", 2)), [], [], "b", ["b"]),
    # two ties: randrange(2) == 0 replaces the first with the second
    (_list(("a", 3), ("b", 3)), [0], [2], "b", ["a", "b"]),
    (_list(("a", 3), ("b", 3)), [1], [2], "a", ["a", "b"]),
    # three ties: the third replaces only when randrange(3) == 0
    (_list(("a", 3), ("b", 3), ("c", 3)), [0, 2], [2, 3], "b", ["a", "b", "c"]),
    (_list(("a", 3), ("b", 3), ("c", 3)), [1, 0], [2, 3], "c", ["a", "b", "c"]),
    # a higher score resets the count
    (_list(("a", 3), ("b", 3), ("c", 4), ("d", 4)), [1, 1], [2, 2], "c", ["c", "d"]),
    # out of order (TestSelectHost): lower scores in between are skipped
    (_list(("m1.1", 3), ("m1.2", 3), ("m2.1", 2), ("m3.1", 1), ("m1.3", 3)), [1, 0], [2, 3], "m1.3",
     ["m1.1", "m1.2", "m1.3"]),
])
def test_select_host_reservoir_sampling(scores, answers, asked, host, ties):
    rng = ScriptedRng(answers)
    assert select_host(scores, rng) == (host, ties)
    assert rng.asked == asked


def test_select_host_fixed_seed_is_deterministic_and_uniform_among_ties():
    scores = _list(("a", 5), ("b", 9), ("c", 9), ("d", 1), ("e", 9))
    picks = [select_host(scores, random.Random(seed))[0] for seed in range(300)]
    assert picks == [select_host(scores, random.Random(seed))[0] for seed in range(300)]
    assert set(picks) == {"b", "c", "e"}
    assert all(70 <= picks.count(n) <= 130 for n in "bce")


def test_select_host_empty_list():
    with pytest.raises(EmptyPriorityListError, match="^empty priorityList$"):
        select_host([], random.Random(0))


def test_scheduler_select_host_uses_its_rng():
    sched = GenericScheduler(None, new_empty_snapshot(), rng=random.Random(7))
    scores = _list(("a", 2), ("b", 2), ("c", 1))
    assert sched.select_host(scores) == select_host(scores, random.Random(7))[0]


def test_a_traced_schedule_records_the_tie_and_the_pick():
    rec = TraceRecorder()
    harness = Harness([node(n) for n in NAMES], {"score": [{"name": "NodeResourcesLeastAllocated", "weight": 1}]},
                      observer=rec)
    result = harness.schedule(pod("p", cpu="1"))
    (run,) = [r.data for r in rec.trace.filter(Kind.SCORE_RUN)]
    assert run.ties() == ("1", "2", "3") and run.selected == result.suggested_host
    assert run.max_score == max(run.totals) and list(run.nodes) == NAMES
