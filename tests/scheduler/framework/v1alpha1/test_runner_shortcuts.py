"""Runners skip the calls a plugin promised (PreFilterSkip / PreScoreSkip, not upstream).

The runner must return the same result as the same plugins without the promise, a traced run
must get the same numbers (``ScoreDetail``), and the promised calls must not be made.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import ScoreDetail
from kubesched.scheduler.framework.v1alpha1.interface import Code
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.trace import TraceRecorder, calls_of
from tests.scheduler.framework.v1alpha1.fakes import Injected, TestPlugin, node, pod, registry_of, with_queue_sort_and_bind

S, E, U = Code.SUCCESS, Code.ERROR, Code.UNSCHEDULABLE
POD = pod("p")
NODES = [node("node1"), node("node2"), node("node3")]


@dataclass
class Promising(TestPlugin):
    """A TestPlugin that promises Filter success and/or a constant score."""

    __test__ = False

    passes: bool = False
    constant: int | None = None

    def skip_filter(self, p) -> bool:
        return self.passes

    def constant_score(self, state, p, nodes) -> int | None:
        return self.constant


def _plugins(specs, calls):
    """(name, Injected, passes, constant) → a Promising plugin and a plain twin sharing ``calls``."""
    promising = [Promising(n, inj, calls, passes=passes, constant=const) for n, inj, passes, const in specs]
    plain = [TestPlugin(n, inj, []) for n, inj, _, _ in specs]
    return promising, plain


def _filter_framework(plugins, run_all=False):
    config = Plugins(filter=PluginSet(tuple(Plugin(p.name()) for p in plugins)))
    return with_queue_sort_and_bind(registry_of(*plugins), config, profile_name="p", run_all_filters=run_all)


def _rows(detail: ScoreDetail) -> list:
    """The plugin calls a trace shows for a RunScorePlugins (its SCORE_RUN's derived rows)."""
    rec = TraceRecorder()
    rec.score_run(pod=POD, detail=detail, selected="")
    return [(c.node, c.plugin, c.data) for c in calls_of(rec.trace[-1])]


FAIL = Injected(filter_status=U)
ERR = Injected(filter_status=E)
# specs (name, injected, promises success, constant score), run_all_filters, filter calls made
FILTER_CASES = {
    "promised plugins are skipped, the rest run": (
        [("a", Injected(), True, None), ("b", Injected(), False, None), ("c", Injected(), True, None)], False,
        [("Filter", "b")]),
    "stops at the first failure after a skipped plugin": (
        [("a", Injected(), True, None), ("b", FAIL, False, None), ("c", Injected(), False, None)], False,
        [("Filter", "b")]),
    "run all filters keeps going": (
        [("a", FAIL, False, None), ("b", Injected(), True, None), ("c", FAIL, False, None)], True,
        [("Filter", "a"), ("Filter", "c")]),
    "an error ends the calls": (
        [("a", ERR, False, None), ("b", Injected(), True, None)], False, [("Filter", "a")]),
    "every plugin promised": (
        [("a", Injected(), True, None), ("b", Injected(), True, None)], False, []),
}


@pytest.mark.parametrize("specs, run_all, made", FILTER_CASES.values(), ids=FILTER_CASES.keys())
def test_filter_skips_promised_calls_and_returns_the_same(specs, run_all, made):
    calls: list = []
    promising, plain = _plugins(specs, calls)
    info = NodeInfo()
    info.set_node(NODES[0])
    got = _filter_framework(promising, run_all).run_filter_plugins(CycleState(), POD, info)
    expected = _filter_framework(plain, run_all).run_filter_plugins(CycleState(), POD, info)
    assert got == expected
    assert calls == made


def test_filter_asks_each_pod_once():
    asked: list = []

    class Counting(Promising):
        def skip_filter(self, p) -> bool:
            asked.append(p.metadata.name)
            return True

    f = _filter_framework([Counting("a")])
    info = NodeInfo()
    info.set_node(NODES[0])
    other = pod("q")
    for p in (POD, POD, other, other, POD):
        f.run_filter_plugins(CycleState(), p, info)
    assert asked == ["p", "q", "p"]


def _score_framework(plugins, weights):
    config = Plugins(score=PluginSet(tuple(Plugin(p.name(), w) for p, w in zip(plugins, weights))))
    return with_queue_sort_and_bind(registry_of(*plugins), config, profile_name="p")


# specs, weights, score calls made (plugin, node)
SCORE_CASES = {
    "a constant plugin is not called": (
        [("a", Injected(score_res=7), False, 7), ("b", Injected(score_res=3), False, None)], (2, 1),
        [("Score", "b", n.metadata.name) for n in NODES]),
    "a constant plugin is normalized as usual": (
        [("a", Injected(score_res=5, normalize_res=40), False, 5), ("b", Injected(score_res=3), False, None)],
        (1, 3), [("Score", "b", n.metadata.name) for n in NODES]),
    "a failure after a constant plugin": (
        [("a", Injected(score_res=1), False, 1), ("b", Injected(score_status=E), False, None)], (1, 1),
        [("Score", "b", "node1")]),
    "a constant failure position mid node": (
        [("a", Injected(score_status=E), False, None), ("b", Injected(score_res=9), False, 9)], (1, 1),
        [("Score", "a", "node1")]),
    "normalize fails": (
        [("a", Injected(score_res=2, normalize_status=E), False, 2), ("b", Injected(score_res=4), False, None)],
        (1, 1), [("Score", "b", n.metadata.name) for n in NODES]),
}


@pytest.mark.parametrize("specs, weights, made", SCORE_CASES.values(), ids=SCORE_CASES.keys())
def test_score_skips_constant_calls_and_records_the_same(specs, weights, made):
    calls: list = []
    promising, plain = _plugins(specs, calls)
    for p, q in zip(promising, plain):
        p.normalize = q.normalize = p.inj.normalize_res != 0 or p.inj.normalize_status != S
    seen, want = ScoreDetail(), ScoreDetail()
    got, got_status = _score_framework(promising, weights).score_columns(CycleState(), POD, NODES, seen)
    expected, expected_status = _score_framework(plain, weights).score_columns(CycleState(), POD, NODES, want)
    assert got == expected
    assert (got_status is None) == (expected_status is None)
    if got is None:
        assert got_status.message() == expected_status.message()
    assert _rows(seen) == _rows(want)
    assert set(seen.constants) == {i for i, (*_, const) in enumerate(specs) if const is not None} and not want.constants
    assert calls == made
