"""DefaultPodTopologySpread: factory, skip rule, zone weighting, errors."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.defaultpodtopologyspread import default_pod_topology_spread as dpts
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import NodeScore
from tests.scheduler.framework.plugins.placement_builders import Handle, node, pod, service, spread_constraint

ZONE = "failure-domain.beta.kubernetes.io/zone"


def _run(existing, nodes, incoming, objects):
    handle = Handle(existing, nodes, objects)
    pl = dpts.new(None, handle)
    state = CycleState()
    assert pl.pre_score(state, incoming, nodes) is None
    scores = []
    for n in nodes:
        score, status = pl.score(state, incoming, n.metadata.name)
        assert status is None
        scores.append(NodeScore(n.metadata.name, score))
    assert pl.normalize_score(state, incoming, scores) is None
    return [s.score for s in scores]


def test_constants():
    assert (dpts.NAME, dpts.PRE_SCORE_STATE_KEY, dpts.ZONE_WEIGHTING) == (
        "DefaultPodTopologySpread", "PreScoreDefaultPodTopologySpread", 2.0 / 3.0)


def test_factory_needs_listers():
    with pytest.raises(ValueError, match="SharedInformerFactory is nil"):
        dpts.new(None, Handle(listers=False))


WEB = {"app": "web"}


@pytest.mark.parametrize("existing, nodes, expected", [
    ([], [node("a"), node("b")], [100, 100]),
    ([pod("e", labels=WEB, node="a")], [node("a"), node("b")], [0, 100]),
    ([pod("e", labels=WEB, node="a", terminating=True)], [node("a"), node("b")], [100, 100]),
    ([pod("e", labels=WEB, node="a", namespace="x")], [node("a"), node("b")], [100, 100]),
    # zone weighting: node a has 1 (zone z1), b and c none; b shares z1 -> (100/3 + 0) = 33
    ([pod("e", labels=WEB, node="a")], [node("a", **{ZONE: "z1"}), node("b", **{ZONE: "z1"}),
                                        node("c", **{ZONE: "z2"})], [0, 33, 100]),
    ([pod("e1", labels=WEB, node="a"), pod("e2", labels=WEB, node="a"), pod("e3", labels=WEB, node="c")],
     [node("a", **{ZONE: "z1"}), node("b", **{ZONE: "z1"}), node("c", **{ZONE: "z2"}), node("d")],
     [0, 33, 50, 100]),
])
def test_scores(existing, nodes, expected):
    assert _run(existing, nodes, pod("p", labels=WEB), [service("s", WEB)]) == expected


def test_pod_with_spread_constraints_scores_zero():
    incoming = pod("p", labels=WEB, spread=[spread_constraint("zone", "ScheduleAnyway")])
    assert _run([pod("e", labels=WEB, node="a")], [node("a"), node("b")], incoming, [service("s", WEB)]) == [0, 0]


def test_score_errors():
    pl = dpts.new(None, Handle(nodes=[node("a")]))
    _, status = pl.score(CycleState(), pod("p"), "a")
    assert status.message() == 'Error reading "PreScoreDefaultPodTopologySpread" from cycleState: not found'
    state = CycleState()
    pl.pre_score(state, pod("p"), [])
    _, status = pl.score(state, pod("p"), "zz")
    assert status.message() == 'getting node "zz" from Snapshot: nodeinfo not found for node name "zz"'
