"""Runner semantics of the framework (Run*Plugins).

Upstream: TestFilterPlugins, TestPreBindPlugins, TestReservePlugins, TestPermitPlugins,
TestRunBindPlugins, TestRunScorePlugins, TestPreFilterPlugins in
pkg/scheduler/framework/v1alpha1/framework_test.go (v1.18).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status, merge_statuses
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.v1alpha1.fakes import Injected, TestPlugin, framework_at, node, pod

S, E, U, UU, W, SK = (Code.SUCCESS, Code.ERROR, Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                      Code.WAIT, Code.SKIP)
POD = pod()  # upstream: &v1.Pod{} (name "")


def err(msg: str) -> Status:
    return Status(Code.ERROR, (msg,))


@dataclass
class Case:
    name: str
    codes: list  # one injected code per plugin, plugins named TestPlugin, TestPlugin 1, ...
    want: Optional[Status]
    want_map: dict = field(default_factory=dict)
    run_all_filters: bool = False


def plugins_with(attr: str, codes: list) -> list[TestPlugin]:
    names = ["TestPlugin"] + [f"TestPlugin {i}" for i in range(1, len(codes))]
    return [TestPlugin(n, Injected(**{attr: c})) for n, c in zip(names, codes)]


FILTER_CASES = [
    Case("SuccessFilter", [S], None, {}),
    Case("ErrorFilter", [E], err('running "TestPlugin" filter plugin for pod "": injected filter status'),
         {"TestPlugin": err('running "TestPlugin" filter plugin for pod "": injected filter status')}),
    Case("UnschedulableFilter", [U], Status(U, ("injected filter status",)),
         {"TestPlugin": Status(U, ("injected filter status",))}),
    Case("UnschedulableAndUnresolvableFilter", [UU], Status(UU, ("injected filter status",)),
         {"TestPlugin": Status(UU, ("injected filter status",))}),
    Case("ErrorAndErrorFilters", [E, E], err('running "TestPlugin" filter plugin for pod "": injected filter status'),
         {"TestPlugin": err('running "TestPlugin" filter plugin for pod "": injected filter status')}),
    Case("SuccessAndSuccessFilters", [S, S], None, {}),
    Case("SuccessAndErrorFilters", [S, E],
         err('running "TestPlugin 1" filter plugin for pod "": injected filter status'),
         {"TestPlugin 1": err('running "TestPlugin 1" filter plugin for pod "": injected filter status')}),
    Case("SuccessAndUnschedulableFilters", [S, U], Status(U, ("injected filter status",)),
         {"TestPlugin 1": Status(U, ("injected filter status",))}),
    Case("UnschedulableStopsAtFirstFailure", [UU, U], Status(UU, ("injected filter status",)),
         {"TestPlugin": Status(UU, ("injected filter status",))}),
    Case("SuccessFilterWithRunAllFilters", [S], None, {}, True),
    Case("ErrorAndErrorFiltersWithRunAllFilters", [E, E],
         err('running "TestPlugin" filter plugin for pod "": injected filter status'),
         {"TestPlugin": err('running "TestPlugin" filter plugin for pod "": injected filter status')}, True),
    Case("UnresolvableAndUnschedulableWithRunAllFilters", [UU, U],
         Status(UU, ("injected filter status", "injected filter status")),
         {"TestPlugin": Status(UU, ("injected filter status",)),
          "TestPlugin 1": Status(U, ("injected filter status",))}, True),
]


@pytest.mark.parametrize("case", FILTER_CASES, ids=lambda c: c.name)
def test_run_filter_plugins(case: Case) -> None:
    plugins = plugins_with("filter_status", case.codes)
    f = framework_at("filter", *plugins, run_all_filters=case.run_all_filters)
    got = f.run_filter_plugins(CycleState(), POD, None)
    assert got == case.want_map
    assert merge_statuses(got) == case.want


def test_filter_stops_at_first_failure() -> None:
    calls: list = []
    plugins = [TestPlugin("a", Injected(), calls), TestPlugin("b", Injected(filter_status=U), calls),
               TestPlugin("c", Injected(), calls)]
    framework_at("filter", *plugins).run_filter_plugins(CycleState(), POD, NodeInfo())
    assert calls == [("Filter", "a"), ("Filter", "b")]


PRE_FILTER_CASES = [
    Case("Success", [S, S], None),
    Case("Unschedulable", [U], Status(U, ('rejected by "TestPlugin" at prefilter: injected status',))),
    Case("UnschedulableAndUnresolvable", [S, UU],
         Status(UU, ('rejected by "TestPlugin 1" at prefilter: injected status',))),
    Case("Error", [E, U], err('error while running "TestPlugin" prefilter plugin for pod "": injected status')),
    Case("Wait is an error", [W], err('error while running "TestPlugin" prefilter plugin for pod "": injected status')),
]


@pytest.mark.parametrize("case", PRE_FILTER_CASES, ids=lambda c: c.name)
def test_run_pre_filter_plugins(case: Case) -> None:
    f = framework_at("pre_filter", *plugins_with("pre_filter_status", case.codes))
    assert f.run_pre_filter_plugins(CycleState(), POD) == case.want


@pytest.mark.parametrize(("attr", "op", "run"), [
    ("add_pod_status", "AddPod", "run_pre_filter_extension_add_pod"),
    ("remove_pod_status", "RemovePod", "run_pre_filter_extension_remove_pod"),
])
@pytest.mark.parametrize("code", [U, E])
def test_pre_filter_extensions_wrap_every_failure_as_error(attr: str, op: str, run: str, code: Code) -> None:
    f = framework_at("pre_filter", *plugins_with(attr, [S, code]))
    got = getattr(f, run)(CycleState(), pod("p"), pod("q"), NodeInfo())
    assert got == err(f'error while running {op} for plugin "TestPlugin 1" while scheduling pod "p": injected status')


def test_pre_filter_extensions_skip_plugins_without_extensions() -> None:
    class NoExt(TestPlugin):
        def pre_filter_extensions(self):
            return None
    calls: list = []
    f = framework_at("pre_filter", NoExt("n", calls=calls), TestPlugin("x", calls=calls))
    assert f.run_pre_filter_extension_add_pod(CycleState(), POD, POD, NodeInfo()) is None
    assert f.run_pre_filter_extension_remove_pod(CycleState(), POD, POD, NodeInfo()) is None
    assert calls == [("AddPod", "x"), ("RemovePod", "x")]


@pytest.mark.parametrize(("point", "attr", "run", "word"), [
    ("pre_score", "pre_score_status", "run_pre_score_plugins", "prescore"),
    ("reserve", "reserve_status", "run_reserve_plugins", "reserve"),
    ("pre_bind", "pre_bind_status", "run_pre_bind_plugins", "prebind"),
])
@pytest.mark.parametrize(("codes", "failing"), [
    ([S], None), ([S, S], None), ([U], "TestPlugin"), ([E], "TestPlugin"), ([UU], "TestPlugin"),
    ([S, E], "TestPlugin 1"), ([E, S], "TestPlugin"), ([E, E], "TestPlugin"), ([U, S], "TestPlugin"),
])
def test_every_failure_is_an_error(point, attr, run, word, codes, failing) -> None:
    """Upstream: TestPreBindPlugins, TestReservePlugins (and RunPreScorePlugins' same shape)."""
    f = framework_at(point, *plugins_with(attr, codes))
    arg = [] if point == "pre_score" else ""
    want = None if failing is None else err(
        f'error while running "{failing}" {word} plugin for pod "": injected status')
    assert getattr(f, run)(CycleState(), POD, arg) == want


PERMIT_CASES = [
    Case("NilPermitPlugin", [], None),
    Case("SuccessPermitPlugin", [S], None),
    Case("UnschedulablePermitPlugin", [U], Status(U, ('rejected pod "" by permit plugin "TestPlugin": injected status',))),
    Case("ErrorPermitPlugin", [E], err('error while running "TestPlugin" permit plugin for pod "": injected status')),
    Case("UnschedulableAndUnresolvablePermitPlugin", [UU],
         Status(UU, ('rejected pod "" by permit plugin "TestPlugin": injected status',))),
    Case("WaitPermitPlugin", [W], Status(W, ('one or more plugins asked to wait and no plugin rejected pod ""',))),
    Case("SuccessSuccessPermitPlugin", [S, S], None),
    Case("ErrorAndErrorPlugins", [E, E], err('error while running "TestPlugin" permit plugin for pod "": injected status')),
    Case("WaitThenUnschedulable", [W, U], Status(U, ('rejected pod "" by permit plugin "TestPlugin 1": injected status',))),
]


@pytest.mark.parametrize("case", PERMIT_CASES, ids=lambda c: c.name)
def test_run_permit_plugins(case: Case) -> None:
    f = framework_at("permit", *plugins_with("permit_status", case.codes))
    assert f.run_permit_plugins(CycleState(), POD, "") == case.want


BIND_CASES = [
    ("simple success", [S], S, ["bind-0"]),
    ("error on second", [SK, E, S], E, ["bind-0", "bind-1"]),
    ("all skip", [SK, SK, SK], SK, ["bind-0", "bind-1", "bind-2"]),
    ("error on third, but not reached", [SK, S, E], S, ["bind-0", "bind-1"]),
    ("invalid status", [U], E, ["bind-0"]),
    ("simple error", [E], E, ["bind-0"]),
    ("success on second, returns success", [SK, S], S, ["bind-0", "bind-1"]),
    ("invalid status, returns error", [SK, UU], E, ["bind-0", "bind-1"]),
    ("error after success status, returns success", [S, E], S, ["bind-0"]),
    ("success after error status, returns error", [E, S], E, ["bind-0"]),
]


@pytest.mark.parametrize(("name", "codes", "want", "called"), BIND_CASES, ids=[c[0] for c in BIND_CASES])
def test_run_bind_plugins(name, codes, want, called) -> None:
    calls: list = []
    plugins = [TestPlugin(f"bind-{i}", Injected(bind_status=c), calls) for i, c in enumerate(codes)]
    got = framework_at("bind", *plugins).run_bind_plugins(CycleState(), pod("p", namespace="ns"), "n")
    assert (got.code if got is not None else S) == want
    assert [c[1] for c in calls] == called


def test_bind_error_message() -> None:
    f = framework_at("bind", TestPlugin("b", Injected(bind_status=E)))
    got = f.run_bind_plugins(CycleState(), pod("p", namespace="ns"), "n")
    assert got == err('plugin "b" failed to bind pod "ns/p": injected status')


def test_unreserve_and_post_bind_run_all_in_configured_order() -> None:
    calls: list = []
    plugins = [TestPlugin(n, Injected(), calls) for n in ("first", "second", "third")]
    f = framework_at("unreserve", *plugins)
    f.run_unreserve_plugins(CycleState(), POD, "n")
    g = framework_at("post_bind", *plugins)
    g.run_post_bind_plugins(CycleState(), POD, "n")
    assert calls == [("Unreserve", "first"), ("Unreserve", "second"), ("Unreserve", "third"),
                     ("PostBind", "first"), ("PostBind", "second"), ("PostBind", "third")]


# --------------------------------------------------------------------------- score

@dataclass
class ScoreCase:
    name: str
    plugins: list  # (name, Injected, normalize, weight)
    want: Optional[dict] = None
    want_error: Optional[str] = None


NODES = [node("node1"), node("node2")]
SCORE_CASES = [
    ScoreCase("no Score plugins", [], {}),
    ScoreCase("single Score plugin", [("score-plugin-1", Injected(score_res=1), False, 1)],
              {"score-plugin-1": [("node1", 1), ("node2", 1)]}),
    ScoreCase("single ScoreWithNormalize plugin",
              [("score-with-normalize-plugin-1", Injected(score_res=10, normalize_res=5), True, 1)],
              {"score-with-normalize-plugin-1": [("node1", 5), ("node2", 5)]}),
    ScoreCase("2 Score plugins, 2 NormalizeScore plugins", [
        ("score-plugin-1", Injected(score_res=1), False, 1),
        ("score-with-normalize-plugin-1", Injected(score_res=3, normalize_res=4), True, 1),
        ("score-with-normalize-plugin-2", Injected(score_res=4, normalize_res=5), True, 2)],
        {"score-plugin-1": [("node1", 1), ("node2", 1)],
         "score-with-normalize-plugin-1": [("node1", 4), ("node2", 4)],
         "score-with-normalize-plugin-2": [("node1", 10), ("node2", 10)]}),
    ScoreCase("weight 0 counts as 1", [("w0", Injected(score_res=7), False, 0)],
              {"w0": [("node1", 7), ("node2", 7)]}),
    ScoreCase("score fails", [("score-plugin-1", Injected(), False, 1),
                              ("n1", Injected(score_status=E), True, 1)],
              want_error='error while running score plugin for pod "": injecting failure.'),
    ScoreCase("normalize fails", [("score-plugin-1", Injected(), False, 1),
                                  ("n1", Injected(normalize_status=E), True, 1)],
              want_error='error while running normalize score plugin for pod "": '
                         'normalize score plugin "n1" failed with error injecting failure.'),
    ScoreCase("Score plugin return score greater than MaxNodeScore", [("s", Injected(score_res=101), False, 1)],
              want_error='error while applying score defaultWeights for pod "": score plugin "s" returns an '
                         'invalid score 101, it should in the range of [0, 100] after normalizing'),
    ScoreCase("Score plugin return score less than MinNodeScore", [("s", Injected(score_res=-1), False, 1)],
              want_error='error while applying score defaultWeights for pod "": score plugin "s" returns an '
                         'invalid score -1, it should in the range of [0, 100] after normalizing'),
    ScoreCase("ScoreWithNormalize plugin return score greater than MaxNodeScore",
              [("n", Injected(normalize_res=101), True, 1)],
              want_error='error while applying score defaultWeights for pod "": score plugin "n" returns an '
                         'invalid score 101, it should in the range of [0, 100] after normalizing'),
    ScoreCase("raw score above range is fine when normalize fixes it",
              [("n", Injected(score_res=500, normalize_res=100), True, 3)],
              {"n": [("node1", 300), ("node2", 300)]}),
]


@pytest.mark.parametrize("case", SCORE_CASES, ids=lambda c: c.name)
def test_run_score_plugins(case: ScoreCase) -> None:
    from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
    from tests.scheduler.framework.v1alpha1.fakes import registry_of, with_queue_sort_and_bind
    plugins = [TestPlugin(n, inj, normalize=norm) for n, inj, norm, _ in case.plugins]
    config = Plugins(score=PluginSet(enabled=tuple(Plugin(n, w) for n, _, _, w in case.plugins)))
    f = with_queue_sort_and_bind(registry_of(*plugins), config)
    got, status = f.run_score_plugins(CycleState(), POD, NODES)
    if case.want_error is not None:
        assert (got, status) == (None, err(case.want_error))
    else:
        assert status is None
        assert {k: [(s.name, s.score) for s in v] for k, v in got.items()} == case.want
