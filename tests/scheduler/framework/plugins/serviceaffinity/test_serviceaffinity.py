"""ServiceAffinity: args, reason, AddPod/RemovePod, back-filled labels, normalization."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.serviceaffinity import service_affinity as sa
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, NodeScore
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.placement_builders import Handle, node, pod, service

NODES = [node("m1", region="r1", zone="z1"), node("m2", region="r1", zone="z2"), node("m3", region="r2", zone="z3")]
WEB = {"app": "web"}


def test_constants():
    assert (sa.NAME, sa.PRE_FILTER_STATE_KEY, sa.ERR_REASON) == (
        "ServiceAffinity", "PreFilterServiceAffinity", "node(s) didn't match service affinity")


@pytest.mark.parametrize("args, affinity, anti", [
    (None, (), ()), ({"affinityLabels": ["region"]}, ("region",), ()),
    ({"AffinityLabels": ["a", "b"], "antiAffinityLabelsPreference": ["zone"]}, ("a", "b"), ("zone",)),
])
def test_args(args, affinity, anti):
    pl = sa.new(args, Handle())
    assert (pl.args.affinity_labels, pl.args.anti_affinity_labels_preference) == (affinity, anti)


def _filter(existing, incoming, node_name, labels=("region",), objects=(service("s", WEB),)):
    handle = Handle(existing, NODES, objects)
    pl = sa.new({"affinityLabels": list(labels)}, handle)
    state = CycleState()
    assert pl.pre_filter(state, incoming) is None
    status = pl.filter(state, incoming, handle.snapshot.get(node_name))
    return "ok" if status is None else (status.code, status.reasons)


FAIL = (Code.UNSCHEDULABLE, ("node(s) didn't match service affinity",))


@pytest.mark.parametrize("existing, incoming, node_name, expected", [
    ([], pod("p", labels=WEB), "m3", "ok"),
    ([pod("e", labels=WEB, node="m1", uid="1")], pod("p", labels=WEB), "m2", "ok"),     # same region r1
    ([pod("e", labels=WEB, node="m1", uid="1")], pod("p", labels=WEB), "m3", FAIL),     # back-filled r1
    ([pod("e", labels=WEB, node="m1", uid="1")], pod("p", labels=WEB, node_selector={"region": "r2"}), "m3", "ok"),
    ([pod("e", labels=WEB, node="m1", uid="1")], pod("p", labels=WEB, node_selector={"region": "r2"}), "m1", FAIL),
    ([pod("e", labels=WEB, node="m1", uid="1", namespace="x")], pod("p", labels=WEB), "m3", "ok"),
])
def test_filter(existing, incoming, node_name, expected):
    assert _filter(existing, incoming, node_name) == expected


def test_filter_without_services_does_not_backfill():
    existing = [pod("e", labels=WEB, node="m1", uid="1")]
    assert _filter(existing, pod("p", labels=WEB), "m3", objects=()) == "ok"


def test_filter_errors():
    pl = sa.new({"affinityLabels": ["region"]}, Handle(nodes=NODES))
    info = NodeInfo()
    info.set_node(NODES[0])
    status = pl.filter(CycleState(), pod("p"), info)
    assert (status.code, status.message()) == (
        Code.ERROR, 'error reading "PreFilterServiceAffinity" from cycleState: not found')
    status = pl.filter(CycleState(), pod("p"), NodeInfo())
    assert (status.code, status.message()) == (Code.ERROR, "node not found")
    assert sa.new(None, Handle()).filter(CycleState(), pod("p"), NodeInfo()) is None  # no labels: always fits


def _names(state):
    return [p.metadata.name for p in sa.get_pre_filter_state(state).matching_pod_list]


@pytest.mark.parametrize("verb, other, expected", [
    ("add", pod("n", labels=WEB, node="m2"), ["e1", "e2", "n"]),
    ("add", pod("n", labels={"app": "db"}, node="m2"), ["e1", "e2"]),
    ("add", pod("n", labels=WEB, node="m2", namespace="x"), ["e1", "e2"]),
    ("remove", pod("e1", labels=WEB, node="m1"), ["e2"]),
    ("remove", pod("e1", labels=WEB, node="m1", namespace="x"), ["e1", "e2"]),
    ("remove", pod("zz", labels=WEB, node="m1"), ["e1", "e2"]),
])
def test_add_remove_pod(verb, other, expected):
    existing = [pod("e1", labels=WEB, node="m1"), pod("e2", labels=WEB, node="m3")]
    handle = Handle(existing, NODES, [service("s", WEB)])
    pl = sa.new({"affinityLabels": ["region"]}, handle)
    incoming = pod("p", labels=WEB)
    state = CycleState()
    pl.pre_filter(state, incoming)
    copy = state.clone()
    ext = pl.pre_filter_extensions()
    (ext.add_pod if verb == "add" else ext.remove_pod)(state, incoming, other, handle.snapshot.get("m2"))
    assert _names(state) == expected
    assert _names(copy) == ["e1", "e2"]


@pytest.mark.parametrize("labels, existing, expected", [
    (["zone"], [], [100, 100, 100]),
    (["zone"], [("m1", 2), ("m2", 1)], [33, 66, 100]),
    (["region"], [("m1", 2), ("m2", 1)], [0, 0, 100]),
    (["region", "zone"], [("m1", 2), ("m2", 1)], [16, 33, 100]),    # (0 + 33.3)/2, (0 + 66.6)/2 summed first
])
def test_score_and_normalize(labels, existing, expected):
    pods = [pod(f"{n}-{i}", labels=WEB, node=n) for n, c in existing for i in range(c)]
    handle = Handle(pods, NODES, [service("s", WEB)])
    pl = sa.new({"antiAffinityLabelsPreference": labels}, handle)
    incoming = pod("p", labels=WEB)
    scores = [NodeScore(n.metadata.name, pl.score(CycleState(), incoming, n.metadata.name)[0]) for n in NODES]
    assert pl.normalize_score(CycleState(), incoming, scores) is None
    assert [s.score for s in scores] == expected


def test_score_unknown_node():
    _, status = sa.new(None, Handle(nodes=NODES)).score(CycleState(), pod("p"), "zz")
    assert status.message() == 'getting node "zz" from Snapshot: nodeinfo not found for node name "zz"'
