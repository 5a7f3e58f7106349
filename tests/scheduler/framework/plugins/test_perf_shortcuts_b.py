"""PreScoreSkip hooks of InterPodAffinity and DefaultPodTopologySpread (and countMatchingPods).

Each table row gives the exact ``constant_score`` answer after PreScore; every int is then
checked by running the real Score on every node of the row's cluster.
"""

from __future__ import annotations

from typing import Optional

import pytest

from kubesched.api.core import Node, Pod
from kubesched.api.labels import Requirement
from kubesched.scheduler.framework.plugins.defaultpodtopologyspread import default_pod_topology_spread as dpts
from kubesched.scheduler.framework.plugins.interpodaffinity import plugin as ipa
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.placement_builders import Handle, node, pod, service, spread_constraint, term

NODES = [node("a", zone="z1"), node("b", zone="z1"), node("c", zone="z2"), node("d")]
WEB = {"app": "web"}


def _preferred(kind: str, weight: int, key: str = "app", values: tuple[str, ...] = ("web",)) -> dict:
    return {kind: {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": weight, "podAffinityTerm": term(key, "In", list(values), "zone")}]}}


def _required_affinity(values: tuple[str, ...] = ("db",)) -> dict:
    return {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", list(values),
                                                                                    "zone")]}}


def _real_scores(pl, state: CycleState, incoming: Pod, nodes: list[Node]) -> set[tuple[int, object]]:
    return {pl.score(state, incoming, n.metadata.name) for n in nodes}


# ------------------------------------------------------------------------- InterPodAffinity

BOTH_WAYS = {**_preferred("podAffinity", 3), **_preferred("podAntiAffinity", 3)}
IPA_CASES = [
    ("no affinity anywhere", [pod("e", labels=WEB, node="a")], pod("p"), 0),
    ("preferred term matching nothing", [pod("e", labels={"app": "db"}, node="a")],
     pod("p", affinity=_preferred("podAffinity", 5)), 0),
    ("preferred term matching a pod", [pod("e", labels=WEB, node="a")],
     pod("p", affinity=_preferred("podAffinity", 5)), None),
    ("preferred anti-affinity matching a pod", [pod("e", labels=WEB, node="c")],
     pod("p", affinity=_preferred("podAntiAffinity", 2)), None),
    ("affinity and anti-affinity cancel out", [pod("e", labels=WEB, node="a")],
     pod("p", affinity=BOTH_WAYS), 0),
    ("existing pod prefers the incoming one", [pod("e", node="a", affinity=_preferred("podAffinity", 4))],
     pod("p", labels=WEB), None),
    ("existing pod's hard affinity counts", [pod("e", node="c", affinity=_required_affinity(("web",)))],
     pod("p", labels=WEB), None),
    ("existing pod's hard affinity not matching", [pod("e", node="c", affinity=_required_affinity())],
     pod("p", labels=WEB), 0),
]


@pytest.mark.parametrize("name,existing,incoming,want", IPA_CASES, ids=[c[0] for c in IPA_CASES])
def test_inter_pod_affinity_constant_score(name: str, existing: list[Pod], incoming: Pod,
                                           want: Optional[int]) -> None:
    pl = ipa.new(None, Handle(existing, NODES))
    state = CycleState()
    assert pl.pre_score(state, incoming, NODES) is None
    assert pl.constant_score(state, incoming, NODES) == want
    if want is not None:
        assert _real_scores(pl, state, incoming, NODES) == {(want, None)}
    else:
        assert len(_real_scores(pl, state, incoming, NODES)) > 1


def test_inter_pod_affinity_constant_score_without_pre_score_state() -> None:
    pl = ipa.new(None, Handle([], NODES))
    state = CycleState()
    assert pl.pre_score(state, pod("p"), []) is None  # no nodes: nothing written
    assert pl.constant_score(state, pod("p"), []) is None
    assert pl.score(state, pod("p"), "a")[1] is not None  # Score errs too


# ------------------------------------------------------------------------- DefaultPodTopologySpread

DPTS_CASES = [
    ("own spread constraints skip the plugin", [pod("e", labels=WEB, node="a")],
     pod("p", labels=WEB, spread=[spread_constraint("zone", "ScheduleAnyway")]), True, 0),
    ("no service or controller selects the pod", [pod("e", labels=WEB, node="a")], pod("p", labels={"x": "y"}),
     True, 0),
    ("a service selects the pod, a peer on one node", [pod("e", labels=WEB, node="a")], pod("p", labels=WEB),
     True, None),
    ("a service selects the pod, no peer (kept unproven)", [], pod("p", labels=WEB), True, None),
    ("skipped even without the PreScore state", [], pod("p", spread=[spread_constraint("zone")]), False, 0),
    ("no PreScore state", [], pod("p", labels=WEB), False, None),
]


@pytest.mark.parametrize("name,existing,incoming,pre_score,want", DPTS_CASES, ids=[c[0] for c in DPTS_CASES])
def test_default_pod_topology_spread_constant_score(name: str, existing: list[Pod], incoming: Pod, pre_score: bool,
                                                    want: Optional[int]) -> None:
    pl = dpts.new(None, Handle(existing, NODES, [service("s", WEB)]))
    state = CycleState()
    if pre_score:
        assert pl.pre_score(state, incoming, NODES) is None
    assert pl.constant_score(state, incoming, NODES) == want
    if want is not None:
        assert _real_scores(pl, state, incoming, NODES) == {(want, None)}
    elif existing:
        assert len(_real_scores(pl, state, incoming, NODES)) > 1


# ------------------------------------------------------------------------- countMatchingPods (fast order)

EMPTY = dpts.Selector()
APP_WEB = dpts.Selector((Requirement("app", "=", ("web",)),))
COUNT_CASES = [
    ("no pods", [], "ns", APP_WEB, 0),
    ("two of three match", [pod("a", "ns", WEB), pod("b", "ns", WEB), pod("c", "ns", {"app": "db"})], "ns", APP_WEB, 2),
    ("other namespace", [pod("a", "other", WEB)], "ns", APP_WEB, 0),
    ("terminating", [pod("a", "ns", WEB, terminating=True), pod("b", "ns", WEB)], "ns", APP_WEB, 1),
    ("empty selector counts nothing", [pod("a", "ns", WEB), pod("b", "ns", {})], "ns", EMPTY, 0),
    ("empty selector, no pod in the namespace", [pod("a", "x", WEB)], "ns", EMPTY, 0),
]


@pytest.mark.parametrize("name,pods,namespace,selector,want", COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
def test_count_matching_pods(name: str, pods: list[Pod], namespace: str, selector, want: int) -> None:
    info = NodeInfo(*pods)
    info.set_node(node("a"))
    assert dpts.count_matching_pods(namespace, selector, info) == want
