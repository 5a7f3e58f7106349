"""Runners skip the calls a plugin promised (FilterShortcut / ScoreShortcut, not upstream).

The observer must hear exactly what it hears from the same plugins without the promise, the
runner must return the same result, and the promised calls must not be made.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.framework.v1alpha1.plugin_calls import FilterCalls
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.framework.fakes import Injected, TestPlugin, node, pod, registry_of, with_queue_sort_and_bind

S, E, U = Code.SUCCESS, Code.ERROR, Code.UNSCHEDULABLE
POD = pod("p")
NODES = [node("node1"), node("node2"), node("node3")]


@dataclass
class Promising(TestPlugin):
    """A TestPlugin that promises Filter success and/or a constant score."""

    __test__ = False

    passes: bool = False
    constant: int | None = None

    def filter_passes_every_node(self, p) -> bool:
        return self.passes

    def constant_score(self, state, p, nodes) -> int | None:
        return self.constant


def _plugins(specs, calls):
    """(name, Injected, passes, constant) → a Promising plugin and a plain twin sharing ``calls``."""
    promising = [Promising(n, inj, calls, passes=passes, constant=const) for n, inj, passes, const in specs]
    plain = [TestPlugin(n, inj, []) for n, inj, _, _ in specs]
    return promising, plain


def _filter_framework(plugins, seen, run_all=False):
    config = Plugins(filter=PluginSet(tuple(Plugin(p.name()) for p in plugins)))
    return with_queue_sort_and_bind(registry_of(*plugins), config, observer=seen.extend, profile_name="p",
                                    run_all_filters=run_all)


def _row(call):
    return (call.extension_point, call.plugin, call.node, call.status.code if call.status else S, call.score,
            call.normalized_score, call.weight, call.weighted_score, call.scores)


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
def test_filter_skips_promised_calls_and_reports_them(specs, run_all, made):
    calls: list = []
    promising, plain = _plugins(specs, calls)
    seen, want = [], []
    info = NodeInfo()
    info.set_node(NODES[0])
    got = _filter_framework(promising, seen, run_all).run_filter_plugins(CycleState(), POD, info)
    expected = _filter_framework(plain, want, run_all).run_filter_plugins(CycleState(), POD, info)
    assert got == expected
    assert [_row(c) for c in seen] == [_row(c) for c in want]
    assert calls == made


def test_filter_asks_each_pod_once():
    asked: list = []

    class Counting(Promising):
        def filter_passes_every_node(self, p) -> bool:
            asked.append(p.metadata.name)
            return True

    f = _filter_framework([Counting("a")], [])
    info = NodeInfo()
    info.set_node(NODES[0])
    other = pod("q")
    for p in (POD, POD, other, other, POD):
        f.run_filter_plugins(CycleState(), p, info)
    assert asked == ["p", "q", "p"]


FAILED_C = Status(Code.UNSCHEDULABLE, ("no",))
FAILED_A = Status(Code.ERROR, ("boom",))
# FilterCalls: (failures, count) → (plugin, status) heard
FILTER_BATCHES = {
    "every plugin passed": ({}, 3, [("a", None), ("b", None), ("c", None)]),
    "stopped at a failure": ({"c": FAILED_C}, 3, [("a", None), ("b", None), ("c", FAILED_C)]),
    "stopped at the first plugin": ({"a": FAILED_A}, 1, [("a", FAILED_A)]),
    "nothing ran": ({}, 0, []),
}


@pytest.mark.parametrize("failures, count, heard", FILTER_BATCHES.values(), ids=FILTER_BATCHES.keys())
def test_filter_calls_batch_length_and_order(failures, count, heard):
    batch = FilterCalls(POD, "p", "n1", ("a", "b", "c"), failures, count)
    assert len(batch) == len(heard)
    assert [(c.plugin, c.status, c.node, c.profile) for c in batch] == [(p, s, "n1", "p") for p, s in heard]


def _score_framework(plugins, seen, weights):
    config = Plugins(score=PluginSet(tuple(Plugin(p.name(), w) for p, w in zip(plugins, weights))))
    return with_queue_sort_and_bind(registry_of(*plugins), config, observer=seen.extend, profile_name="p")


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
def test_score_skips_constant_calls_and_reports_them(specs, weights, made):
    calls: list = []
    promising, plain = _plugins(specs, calls)
    for p, q in zip(promising, plain):
        p.normalize = q.normalize = p.inj.normalize_res != 0 or p.inj.normalize_status != S
    seen, want = [], []
    got, got_status = _score_framework(promising, seen, weights).run_score_plugins(CycleState(), POD, NODES)
    expected, expected_status = _score_framework(plain, want, weights).run_score_plugins(CycleState(), POD, NODES)
    assert (got_status is None) == (expected_status is None)
    if got is not None:
        assert {k: [(s.name, s.score) for s in v] for k, v in got.items()} == {
            k: [(s.name, s.score) for s in v] for k, v in expected.items()}
    else:
        assert got_status.message() == expected_status.message()
    assert [_row(c) for c in seen] == [_row(c) for c in want]
    assert calls == made


def test_a_raising_filter_plugin_leaves_the_calls_before_it():
    class Raising(Promising):
        def filter(self, state, p, node_info):
            raise RuntimeError("plugin bug")

    seen: list = []
    f = _filter_framework([Promising("a", passes=True), Promising("b"), Raising("c"), Promising("d")], seen)
    info = NodeInfo()
    info.set_node(NODES[0])
    with pytest.raises(RuntimeError):
        f.run_filter_plugins(CycleState(), POD, info)
    assert [(c.plugin, c.status) for c in seen] == [("a", None), ("b", None)]
