"""The framework's observers (not upstream): complete Score calls and extension-point start/end."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1 import framework as fw_module
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code
from kubesched.scheduler.framework.v1alpha1.plugin_args import (
    Plugin,
    Plugins,
    PluginSet,
)
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.framework.fakes import (
    Injected,
    TestPlugin,
    framework_at,
    node,
    pod,
    registry_of,
    with_queue_sort_and_bind,
)

S, E, U, W = Code.SUCCESS, Code.ERROR, Code.UNSCHEDULABLE, Code.WAIT
POD = pod("p")
NODES = [node("node1"), node("node2")]


def scoring(a: Injected, b: Injected, calls: list):
    """Plugins ``a`` (weight 2, with NormalizeScore) and ``b`` (weight 1) on profile ``p``."""
    pa, pb = TestPlugin("a", a, normalize=True), TestPlugin("b", b)
    config = Plugins(score=PluginSet((Plugin("a", 2), Plugin("b", 1))))
    return with_queue_sort_and_bind(registry_of(pa, pb), config, observer=calls.extend, profile_name="p")


def row(call) -> tuple:
    code = call.status.code if call.status is not None else S
    return (call.extension_point, call.plugin, call.node, code, call.score, call.normalized_score, call.weight,
            call.weighted_score, call.scores, call.profile)


NORM = "ScoreExtensionNormalize"

# (a's results, b's results, rows the observer gets: point, plugin, node, code, raw, normalized, weight,
#  weighted, scores, profile)
SCORE_CASES = {
    "normalized and weighted": (
        Injected(score_res=3, normalize_res=9), Injected(score_res=4), [
            ("Score", "a", "node1", S, 3, 9, 2, 18, (), "p"), ("Score", "b", "node1", S, 4, 4, 1, 4, (), "p"),
            ("Score", "a", "node2", S, 3, 9, 2, 18, (), "p"), ("Score", "b", "node2", S, 4, 4, 1, 4, (), "p"),
            (NORM, "a", "", S, None, None, 2, None, (("node1", 9), ("node2", 9)), "p")]),
    "score error stops at the failing call": (
        Injected(score_res=3), Injected(score_status=E), [
            ("Score", "a", "node1", S, 3, None, 2, None, (), "p"),
            ("Score", "b", "node1", E, 0, None, 1, None, (), "p")]),
    "normalize error leaves normalized empty": (
        Injected(score_res=3, normalize_status=E), Injected(score_res=4), [
            ("Score", "a", "node1", S, 3, None, 2, None, (), "p"), ("Score", "b", "node1", S, 4, None, 1, None, (), "p"),
            ("Score", "a", "node2", S, 3, None, 2, None, (), "p"), ("Score", "b", "node2", S, 4, None, 1, None, (), "p"),
            (NORM, "a", "", E, None, None, 2, None, (("node1", 3), ("node2", 3)), "p")]),
    "a score out of range is not weighted": (
        Injected(score_res=3, normalize_res=101), Injected(score_res=100), [
            ("Score", "a", "node1", S, 3, 101, 2, None, (), "p"),
            ("Score", "b", "node1", S, 100, 100, 1, 100, (), "p"),
            ("Score", "a", "node2", S, 3, 101, 2, None, (), "p"),
            ("Score", "b", "node2", S, 100, 100, 1, 100, (), "p"),
            (NORM, "a", "", S, None, None, 2, None, (("node1", 101), ("node2", 101)), "p")]),
}


@pytest.mark.parametrize("a, b, want", SCORE_CASES.values(), ids=SCORE_CASES.keys())
def test_score_calls_carry_raw_normalized_weight_and_weighted(a, b, want):
    calls: list = []
    f = scoring(a, b, calls)
    result, _ = f.run_score_plugins(CycleState(), POD, NODES)
    assert [row(c) for c in calls] == want
    if result is not None:  # the observer's weighted scores are the runner's
        assert [(c.node, c.weighted_score) for c in calls if c.extension_point == "Score"] == [
            (ns.name, ns.score) for i in range(len(NODES)) for ns in (result["a"][i], result["b"][i])]


class Points:
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def extension_point_start(self, **kw) -> None:
        self.seen.append(("start", kw["extension_point"], kw["pod"].metadata.name, kw["profile"], kw["node"]))

    def extension_point_end(self, **kw) -> None:
        self.seen.append(("end", kw["extension_point"], kw["pod"].metadata.name, kw["profile"], kw["node"],
                          kw["code"], kw["message"]))


def _info() -> NodeInfo:
    info = NodeInfo()
    info.set_node(node("node1"))
    return info


# (config attribute, runner, its arguments after (state, pod), injected result, point, node, code, message)
POINT_CASES = [
    ("pre_filter", "run_pre_filter_plugins", (), Injected(), "PreFilter", "", "Success", ""),
    ("pre_filter", "run_pre_filter_plugins", (), Injected(pre_filter_status=U), "PreFilter", "", "Unschedulable",
     'rejected by "t" at prefilter: injected status'),
    ("pre_score", "run_pre_score_plugins", (NODES,), Injected(), "PreScore", "", "Success", ""),
    ("score", "run_score_plugins", (NODES,), Injected(score_status=E), "Score", "", "Error",
     'error while running score plugin for pod "p": injecting failure.'),
    ("score", "run_score_plugins", (NODES,), Injected(score_res=7), "Score", "", "Success", ""),
    ("reserve", "run_reserve_plugins", ("node1",), Injected(), "Reserve", "node1", "Success", ""),
    ("permit", "run_permit_plugins", ("node1",), Injected(permit_status=W, permit_timeout=5), "Permit", "node1",
     "Wait", 'one or more plugins asked to wait and no plugin rejected pod "p"'),
    ("pre_bind", "run_pre_bind_plugins", ("node1",), Injected(), "PreBind", "node1", "Success", ""),
    ("bind", "run_bind_plugins", ("node1",), Injected(), "Bind", "node1", "Success", "injected status"),
    ("post_bind", "run_post_bind_plugins", ("node1",), Injected(), "PostBind", "node1", "Success", ""),
    ("unreserve", "run_unreserve_plugins", ("node1",), Injected(), "Unreserve", "node1", "Success", ""),
]


@pytest.mark.parametrize("attr, runner, args, inj, point, node_name, code, message", POINT_CASES,
                         ids=[f"{c[4]}-{c[6]}" for c in POINT_CASES])
def test_each_runner_is_framed_by_start_and_end(attr, runner, args, inj, point, node_name, code, message):
    points = Points()
    f = framework_at(attr, TestPlugin("t", inj), point_observer=points, profile_name="p")
    getattr(f, runner)(CycleState(), POD, *args)
    assert points.seen == [("start", point, "p", "p", node_name), ("end", point, "p", "p", node_name, code, message)]


def test_filter_and_extensions_are_not_framed_by_the_framework():
    points = Points()
    f = framework_at("filter", TestPlugin("t"), point_observer=points, profile_name="p")
    f.run_filter_plugins(CycleState(), POD, _info())
    assert points.seen == []


def test_no_observer_builds_no_records(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("a PluginCall was built without an observer")
    for name in ("PluginCall", "OneCall", "FilterCalls", "ScoreCalls"):
        monkeypatch.setattr(fw_module, name, boom)
    for attr, runner, args, inj, *_ in POINT_CASES:
        f = framework_at(attr, TestPlugin("t", inj))
        getattr(f, runner)(CycleState(), POD, *args)
    f = framework_at("filter", TestPlugin("t"))
    assert f.run_filter_plugins(CycleState(), POD, _info()) == {}
