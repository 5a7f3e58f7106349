"""The framework's observer (not upstream): each runner's start, end and plugin results; Score's numbers.

RunScorePlugins hands its numbers to a ``ScoreDetail``; the rows a trace derives from them
(``kubesched.trace.calls``) are checked here against hand-written tables.
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import ScoreDetail
from kubesched.scheduler.framework.v1alpha1.interface import Code, code_of
from kubesched.scheduler.framework.v1alpha1.plugin_args import (
    Plugin,
    Plugins,
    PluginSet,
)
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.trace import TraceRecorder, calls_of
from tests.scheduler.framework.v1alpha1.fakes import (
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


def scoring(a: Injected, b: Injected):
    """Plugins ``a`` (weight 2, with NormalizeScore) and ``b`` (weight 1) on profile ``p``."""
    pa, pb = TestPlugin("a", a, normalize=True), TestPlugin("b", b)
    config = Plugins(score=PluginSet((Plugin("a", 2), Plugin("b", 1))))
    return with_queue_sort_and_bind(registry_of(pa, pb), config, profile_name="p")


def derived_calls(detail: ScoreDetail) -> list:
    """The PLUGIN_CALL rows of the SCORE_RUN a recorder makes of ``detail``."""
    rec = TraceRecorder()
    rec.score_run(pod=POD, profile="p", detail=detail, selected="")
    return calls_of(rec.trace[-1])


def row(call) -> tuple:
    d = call.data
    return (d.extension_point, call.plugin, call.node or "", d.code, d.raw_score, d.normalized_score, d.weight,
            d.weighted_score, d.scores, call.profile)


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
    detail = ScoreDetail()
    result, _ = scoring(a, b).score_columns(CycleState(), POD, NODES, detail)
    calls = derived_calls(detail)
    assert [row(c) for c in calls] == [(p, pl, n, str(code), *rest) for p, pl, n, code, *rest in want]
    if result is not None:  # the trace's weighted scores are the runner's
        assert [(c.node, c.data.weighted_score) for c in calls if c.data.extension_point == "Score"] == [
            (name, result[plugin][i]) for i, name in enumerate(n.metadata.name for n in NODES) for plugin in "ab"]


class Points:
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def extension_point_start(self, **kw) -> None:
        self.seen.append(("start", kw["extension_point"], kw["pod"].metadata.name, kw["profile"], kw["node"]))

    def extension_point_end(self, **kw) -> None:
        self.seen.append(("end", kw["extension_point"], kw["pod"].metadata.name, kw["profile"], kw["node"],
                          kw["code"], kw["message"],
                          tuple((plugin, str(code_of(status)), timeout) for plugin, status, timeout in kw["results"])))


def _info() -> NodeInfo:
    info = NodeInfo()
    info.set_node(node("node1"))
    return info


OK = (("t", "Success", None),)
# (config attribute, runner, its arguments after (state, pod), injected result, point, node, code, message,
#  the plugins' results handed to extension_point_end)
POINT_CASES = [
    ("pre_filter", "run_pre_filter_plugins", (), Injected(), "PreFilter", "", "Success", "", OK),
    ("pre_filter", "run_pre_filter_plugins", (), Injected(pre_filter_status=U), "PreFilter", "", "Unschedulable",
     'rejected by "t" at prefilter: injected status', (("t", "Unschedulable", None),)),
    ("pre_score", "run_pre_score_plugins", (NODES,), Injected(), "PreScore", "", "Success", "", OK),
    ("score", "run_score_plugins", (NODES,), Injected(score_status=E), "Score", "", "Error",
     'error while running score plugin for pod "p": injecting failure.', ()),
    ("score", "run_score_plugins", (NODES,), Injected(score_res=7), "Score", "", "Success", "", ()),
    ("reserve", "run_reserve_plugins", ("node1",), Injected(), "Reserve", "node1", "Success", "", OK),
    ("permit", "run_permit_plugins", ("node1",), Injected(permit_status=W, permit_timeout=5), "Permit", "node1",
     "Wait", 'one or more plugins asked to wait and no plugin rejected pod "p"', (("t", "Wait", 5),)),
    ("permit", "run_permit_plugins", ("node1",), Injected(), "Permit", "node1", "Success", "",
     (("t", "Success", 0.0),)),
    ("pre_bind", "run_pre_bind_plugins", ("node1",), Injected(), "PreBind", "node1", "Success", "", OK),
    ("bind", "run_bind_plugins", ("node1",), Injected(), "Bind", "node1", "Success", "injected status", OK),
    ("post_bind", "run_post_bind_plugins", ("node1",), Injected(), "PostBind", "node1", "Success", "", OK),
    ("unreserve", "run_unreserve_plugins", ("node1",), Injected(), "Unreserve", "node1", "Success", "", OK),
]


@pytest.mark.parametrize("attr, runner, args, inj, point, node_name, code, message, results", POINT_CASES,
                         ids=[f"{c[4]}-{c[6]}" for c in POINT_CASES])
def test_each_runner_is_framed_by_start_and_end(attr, runner, args, inj, point, node_name, code, message, results):
    points = Points()
    f = framework_at(attr, TestPlugin("t", inj), observer=points, profile_name="p")
    getattr(f, runner)(CycleState(), POD, *args)
    assert points.seen == [("start", point, "p", "p", node_name),
                           ("end", point, "p", "p", node_name, code, message, results)]


def test_filter_and_extensions_are_not_framed_by_the_framework():
    points = Points()
    f = framework_at("filter", TestPlugin("t"), observer=points, profile_name="p")
    f.run_filter_plugins(CycleState(), POD, _info())
    assert points.seen == []
