"""InterPodAffinity: args, reasons, AddPod/RemovePod, missing-state errors, normalization."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.interpodaffinity import filtering, plugin, scoring
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, NodeScore
from kubesched.scheduler.framework.v1alpha1.plugin_args import RawArgs
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.placement_builders import Handle, node, pod, term

NODES = [node("a", region="r1", zone="z1"), node("b", region="r1", zone="z2"), node("c", region="r2", zone="z3")]


@pytest.mark.parametrize("args, weight", [
    (None, 1), ({}, 1), ({"hardPodAffinityWeight": 0}, 0), ({"hardPodAffinityWeight": 100}, 100),
    ({"HardPodAffinityWeight": 7}, 7), (RawArgs('{"hardPodAffinityWeight": 5}'), 5),
])
def test_args_accepted(args, weight):
    assert plugin.new(args, Handle()).hard_pod_affinity_weight == weight


@pytest.mark.parametrize("value", [-1, 101, 1000])
def test_args_out_of_range(value):
    with pytest.raises(ValueError) as err:
        plugin.new({"hardPodAffinityWeight": value}, Handle())
    assert str(err.value) == f"hardPodAffinityWeight: Invalid value: {value}: not in valid range [0-100]"


def test_names_and_reasons_are_upstreams():
    assert (plugin.NAME, filtering.PRE_FILTER_STATE_KEY, scoring.PRE_SCORE_STATE_KEY) == (
        "InterPodAffinity", "PreFilterInterPodAffinity", "PreScoreInterPodAffinity")
    assert filtering.ERR_REASON_AFFINITY_NOT_MATCH == "node(s) didn't match pod affinity/anti-affinity"
    assert filtering.ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH == \
        "node(s) didn't satisfy existing pods anti-affinity rules"
    assert filtering.ERR_REASON_AFFINITY_RULES_NOT_MATCH == "node(s) didn't match pod affinity rules"
    assert filtering.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH == "node(s) didn't match pod anti-affinity rules"


AFFINITY = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["db"], "region")]}}
ANTI = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["web"], "zone")]}}


@pytest.mark.parametrize("incoming, existing, node_name, code, reasons", [
    # existing pod's anti-affinity (symmetry) is checked first
    (pod("p", labels={"app": "web"}, affinity=AFFINITY), [pod("e", labels={"app": "x"}, node="a", affinity=ANTI)],
     "a", Code.UNSCHEDULABLE, (filtering.ERR_REASON_AFFINITY_NOT_MATCH,
                               filtering.ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)),
    # affinity unmet while other db pods exist elsewhere -> unresolvable
    (pod("p", labels={"app": "web"}, affinity=AFFINITY), [pod("e", labels={"app": "db"}, node="c")],
     "a", Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (filtering.ERR_REASON_AFFINITY_NOT_MATCH,
                                                filtering.ERR_REASON_AFFINITY_RULES_NOT_MATCH)),
    (pod("p", labels={"app": "web"}, affinity=AFFINITY), [pod("e", labels={"app": "db"}, node="c")], "b", Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
     (filtering.ERR_REASON_AFFINITY_NOT_MATCH, filtering.ERR_REASON_AFFINITY_RULES_NOT_MATCH)),
    # same region as the db pod -> fits
    (pod("p", labels={"app": "web"}, affinity=AFFINITY), [pod("e", labels={"app": "db"}, node="a")], "b", Code.SUCCESS, ()),
    # first pod of a self-affine group may go anywhere
    (pod("p", labels={"app": "db"}, affinity=AFFINITY), [], "c", Code.SUCCESS, ()),
    # incoming anti-affinity against a web pod in the same zone
    (pod("p", affinity=ANTI), [pod("e", labels={"app": "web"}, node="a")], "a", Code.UNSCHEDULABLE,
     (filtering.ERR_REASON_AFFINITY_NOT_MATCH, filtering.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)),
    (pod("p", affinity=ANTI), [pod("e", labels={"app": "web"}, node="a")], "b", Code.SUCCESS, ()),
])
def test_filter_reasons(incoming, existing, node_name, code, reasons):
    handle = Handle(existing, NODES)
    pl = plugin.new(None, handle)
    state = CycleState()
    assert pl.pre_filter(state, incoming) is None
    status = pl.filter(state, incoming, handle.snapshot.get(node_name))
    got = (Code.SUCCESS, ()) if status is None else (status.code, status.reasons)
    assert got == (code, reasons)


def test_filter_without_prefilter_and_without_node():
    pl = plugin.new(None, Handle(nodes=NODES))
    status = pl.filter(CycleState(), pod("p"), NodeInfo())
    assert (status.code, status.message()) == (
        Code.ERROR, 'error reading "PreFilterInterPodAffinity" from cycleState: not found')
    state = CycleState()
    pl.pre_filter(state, pod("p", affinity=ANTI))
    status = pl.filter(state, pod("p", affinity=ANTI), NodeInfo())
    assert (status.code, status.message()) == (Code.ERROR, "node not found")


@pytest.mark.parametrize("bad_affinity, code", [
    ({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["{{.bad}}"], "zone")]}},
     Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
    ({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["a b"], "zone")]}},
     Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
])
def test_prefilter_invalid_selector(bad_affinity, code):
    status = plugin.new(None, Handle(nodes=NODES)).pre_filter(CycleState(), pod("p", affinity=bad_affinity))
    assert status.code == code
    assert status.message().startswith("calculating preFilterState: invalid label value: ")


def test_existing_pod_invalid_anti_affinity_is_an_error():
    bad = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["!"], "zone")]}}
    handle = Handle([pod("e", node="a", affinity=bad)], NODES)
    status = plugin.new(None, handle).pre_filter(CycleState(), pod("p"))
    assert status.code == Code.ERROR and status.message().startswith("calculating preFilterState: ")


BOTH = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["db"], "region")]},
        "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["web"], "zone")]}}
EXISTING = [pod("e1", labels={"app": "db"}, node="a", uid="1"),
            pod("e2", labels={"app": "web"}, node="b", uid="2")]


def _maps(state):
    return (dict(state.topology_to_matched_existing_anti_affinity_terms),
            dict(state.topology_to_matched_affinity_terms), dict(state.topology_to_matched_anti_affinity_terms))


@pytest.mark.parametrize("added, expected_after_add", [
    (pod("n1", labels={"app": "db"}, node="c", uid="3"),
     ({}, {("region", "r1"): 1, ("region", "r2"): 1}, {("zone", "z2"): 1})),
    (pod("n2", labels={"app": "web"}, node="c", uid="4"),
     ({}, {("region", "r1"): 1}, {("zone", "z2"): 1, ("zone", "z3"): 1})),
    (pod("n3", labels={"app": "other"}, node="c", uid="5",
         affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
             term("role", "In", ["api"], "region")]}}),
     ({("region", "r2"): 1}, {("region", "r1"): 1}, {("zone", "z2"): 1})),
])
def test_add_remove_pod(added, expected_after_add):
    incoming = pod("p", labels={"role": "api"}, affinity=BOTH)
    handle = Handle(EXISTING, NODES)
    pl = plugin.new(None, handle)
    state = CycleState()
    pl.pre_filter(state, incoming)
    original = filtering.get_pre_filter_state(state).clone()
    info = handle.snapshot.get("c")
    assert pl.pre_filter_extensions().add_pod(state, incoming, added, info) is None
    assert _maps(filtering.get_pre_filter_state(state)) == expected_after_add
    fresh_handle = Handle(EXISTING + [added], NODES)
    fresh = CycleState()
    plugin.new(None, fresh_handle).pre_filter(fresh, incoming)
    assert filtering.get_pre_filter_state(fresh) == filtering.get_pre_filter_state(state)
    assert pl.pre_filter_extensions().remove_pod(state, incoming, added, info) is None
    assert filtering.get_pre_filter_state(state) == original


def test_add_pod_without_state():
    status = plugin.new(None, Handle()).add_pod(CycleState(), pod("p"), pod("q"), NodeInfo())
    assert (status.code, status.message()) == (
        Code.ERROR, 'error reading "PreFilterInterPodAffinity" from cycleState: not found')


def test_state_clone_is_independent():
    state = filtering.PreFilterState()
    state.topology_to_matched_affinity_terms[("zone", "z1")] = 1
    copy = state.clone()
    copy.topology_to_matched_affinity_terms[("zone", "z1")] = 5
    assert state.topology_to_matched_affinity_terms[("zone", "z1")] == 1


@pytest.mark.parametrize("raw, expected", [
    ([0, 0, 0], [0, 0, 0]),
    ([5, 0, 10], [50, 0, 100]),
    ([-3, 0, 3], [0, 50, 100]),      # min below zero shifts everything
    ([-2, -4, -1], [50, 0, 75]),     # max stays at least 0
    ([1, 2, 3], [33, 66, 100]),      # float64 truncation
])
def test_normalize_score(raw, expected):
    state = CycleState()
    pre = scoring.PreScoreState([], [])
    pre.topology_score["zone"] = {"z1": 1}
    state.write(scoring.PRE_SCORE_STATE_KEY, pre)
    scores = [NodeScore(str(i), s) for i, s in enumerate(raw)]
    assert plugin.new(None, Handle()).normalize_score(state, pod("p"), scores) is None
    assert [s.score for s in scores] == expected


def test_normalize_score_leaves_scores_without_topology_score():
    state = CycleState()
    state.write(scoring.PRE_SCORE_STATE_KEY, scoring.PreScoreState([], []))
    scores = [NodeScore("a", 7)]
    plugin.new(None, Handle()).normalize_score(state, pod("p"), scores)
    assert scores[0].score == 7


def test_score_errors():
    pl = plugin.new(None, Handle(nodes=NODES))
    _, status = pl.score(CycleState(), pod("p"), "a")
    assert status.message() == 'Error reading "PreScoreInterPodAffinity" from cycleState: not found'
    _, status = pl.score(CycleState(), pod("p"), "missing")
    assert status.message() == ('getting node "missing" from Snapshot: nodeinfo not found for node name '
                                '"missing", node is nil: true')


@pytest.mark.parametrize("weight, expected", [(0, [0, 0, 0]), (1, [100, 100, 0]), (50, [100, 100, 0])])
def test_hard_affinity_symmetry_weight(weight, expected):
    existing = [pod("e", labels={"app": "db"}, node="a", affinity={"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [term("app", "In", ["web"], "region")]}})]
    handle = Handle(existing, NODES)
    pl = plugin.new({"hardPodAffinityWeight": weight}, handle)
    incoming = pod("p", labels={"app": "web"})
    state = CycleState()
    assert pl.pre_score(state, incoming, NODES) is None
    scores = [NodeScore(n.metadata.name, pl.score(state, incoming, n.metadata.name)[0]) for n in NODES]
    pl.normalize_score(state, incoming, scores)
    assert [s.score for s in scores] == expected


def test_prescore_without_nodes_writes_nothing():
    state = CycleState()
    assert plugin.new(None, Handle(nodes=NODES)).pre_score(state, pod("p"), []) is None
    assert state.keys() == []


def test_prefilter_state_follows_snapshot_node_order():
    """Deviation from upstream's goroutines + Go maps: pairs appear in snapshot node order."""
    incoming = pod("p", labels={"role": "api"}, affinity=BOTH)
    existing = [pod("x", labels={"app": "db"}, node="c"), pod("y", labels={"app": "db"}, node="a")]
    for nodes, expected in ((NODES, [("region", "r1"), ("region", "r2")]),
                            (NODES[::-1], [("region", "r2"), ("region", "r1")])):
        state = CycleState()
        plugin.new(None, Handle(existing, nodes)).pre_filter(state, incoming)
        assert list(filtering.get_pre_filter_state(state).topology_to_matched_affinity_terms) == expected
