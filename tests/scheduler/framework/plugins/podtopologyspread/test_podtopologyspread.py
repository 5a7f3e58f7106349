"""PodTopologySpread: args validation, critical paths, AddPod/RemovePod, reasons, scoring."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.podtopologyspread import filtering, plugin, scoring
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, NodeScore
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.placement_builders import Handle, node, pod, service, spread_constraint

NODES = [node("node-a", zone="zone1", node="node-a"), node("node-b", zone="zone1", node="node-b"),
         node("node-x", zone="zone2", node="node-x"), node("node-y", zone="zone2", node="node-y")]


def _c(key="zone", action="DoNotSchedule", skew=1, **extra):
    return {"maxSkew": skew, "topologyKey": key, "whenUnsatisfiable": action, **extra}


@pytest.mark.parametrize("constraints, message", [
    ([_c(skew=0)], "defaultConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"),
    ([_c(key="")], "defaultConstraints[0].topologyKey: Required value: can not be empty"),
    ([_c(action="")], "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"),
    ([_c(action="Maybe")], 'defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported '
                           'values: "DoNotSchedule", "ScheduleAnyway"'),
    ([_c(labelSelector={"matchLabels": {"a": "b"}})],
     "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced "
     "for each pod"),
    ([_c(), _c(skew=2)], 'defaultConstraints[1]: Duplicate value: "{zone, DoNotSchedule}"'),
    ([_c(key="a/b/c")], 'defaultConstraints[0].topologyKey: Invalid value: "a/b/c": a qualified name must '
                        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                        "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                        "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
                        "subdomain prefix and '/' (e.g. 'example.com/MyName')"),
    ([_c(skew=-1, action="")], "[defaultConstraints[0].maxSkew: Invalid value: -1: must be greater than zero, "
                               "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty]"),
])
def test_args_validation(constraints, message):
    with pytest.raises(ValueError) as err:
        plugin.new({"defaultConstraints": constraints}, Handle())
    assert str(err.value) == message


@pytest.mark.parametrize("args, count", [
    (None, 0), ({"defaultConstraints": []}, 0),
    ({"defaultConstraints": [_c(), _c(action="ScheduleAnyway"), _c(key="node")]}, 3),
    ({"DefaultConstraints": [{"MaxSkew": 2, "TopologyKey": "zone", "WhenUnsatisfiable": "DoNotSchedule"}]}, 1),
])
def test_args_accepted(args, count):
    assert len(plugin.new(args, Handle()).default_constraints) == count


def test_default_constraints_need_listers():
    with pytest.raises(ValueError, match="SharedInformerFactory is nil"):
        plugin.new({"defaultConstraints": [_c()]}, Handle(listers=False))
    assert plugin.new(None, Handle(listers=False)).listers is None


def test_names_and_reason_are_upstreams():
    assert (plugin.NAME, filtering.PRE_FILTER_STATE_KEY, scoring.PRE_SCORE_STATE_KEY) == (
        "PodTopologySpread", "PreFilterPodTopologySpread", "PreScorePodTopologySpread")
    assert plugin.ERR_REASON_CONSTRAINTS_NOT_MATCH == "node(s) didn't match pod topology spread constraints"


@pytest.mark.parametrize("updates, expected", [
    ([], [["", 2**31 - 1], ["", 2**31 - 1]]),
    ([("a", 3)], [["a", 3], ["", 2**31 - 1]]),
    ([("a", 3), ("b", 1)], [["b", 1], ["a", 3]]),
    ([("a", 3), ("b", 1), ("c", 2)], [["b", 1], ["c", 2]]),
    ([("a", 3), ("b", 1), ("c", 5)], [["b", 1], ["a", 3]]),
    ([("a", 1), ("b", 2), ("a", 4)], [["b", 2], ["a", 4]]),      # existing entry updated, then swapped
    ([("a", 1), ("b", 2), ("c", 3), ("b", 0)], [["b", 0], ["a", 1]]),
    ([("a", 1), ("b", 2), ("c", 3), ("a", 9)], [["b", 2], ["a", 9]]),  # [1] need not be the 2nd minimum
])
def test_critical_paths_update(updates, expected):
    paths = filtering.CriticalPaths()
    for value, num in updates:
        paths.update(value, num)
    assert paths.paths == expected


def _filter_all(pl, incoming, handle):
    state = CycleState()
    assert pl.pre_filter(state, incoming) is None
    out = {}
    for n in NODES:
        status = pl.filter(state, incoming, handle.snapshot.get(n.metadata.name))
        out[n.metadata.name] = "ok" if status is None else (str(status.code), status.reasons)
    return out


FAIL = ("Unschedulable", ("node(s) didn't match pod topology spread constraints",))


def test_filter_missing_key_is_plain_unschedulable():
    nodes = NODES[:3] + [node("node-y", node="node-y")]  # no zone label
    handle = Handle([pod("e", labels={"foo": ""}, node="node-a")], nodes)
    pl = plugin.new(None, handle)
    incoming = pod("p", labels={"foo": ""}, spread=[spread_constraint("zone")])
    state = CycleState()
    pl.pre_filter(state, incoming)
    status = pl.filter(state, incoming, handle.snapshot.get("node-y"))
    assert (str(status.code), status.reasons) == FAIL


@pytest.mark.parametrize("existing, incoming_labels, expected", [
    ([], {"foo": ""}, {"node-a": "ok", "node-b": "ok", "node-x": "ok", "node-y": "ok"}),
    ([pod("e1", labels={"foo": ""}, node="node-a")], {"foo": ""},
     {"node-a": FAIL, "node-b": FAIL, "node-x": "ok", "node-y": "ok"}),
    # the incoming pod does not match its own selector: no self-match
    ([pod("e1", labels={"foo": ""}, node="node-a")], {}, {"node-a": "ok", "node-b": "ok", "node-x": "ok",
                                                          "node-y": "ok"}),
    # terminating and other-namespace pods do not count
    ([pod("e1", labels={"foo": ""}, node="node-a", terminating=True),
      pod("e2", labels={"foo": ""}, node="node-a", namespace="other")], {"foo": ""},
     {"node-a": "ok", "node-b": "ok", "node-x": "ok", "node-y": "ok"}),
])
def test_filter_skew(existing, incoming_labels, expected):
    handle = Handle(existing, NODES)
    incoming = pod("p", labels=incoming_labels, spread=[spread_constraint("zone")])
    assert _filter_all(plugin.new(None, handle), incoming, handle) == expected


def test_filter_without_prefilter_or_node():
    pl = plugin.new(None, Handle(nodes=NODES))
    info = NodeInfo()
    info.set_node(NODES[0])
    status = pl.filter(CycleState(), pod("p"), info)
    assert (status.code, status.message()) == (
        Code.ERROR, 'error reading "PreFilterPodTopologySpread" from cycleState: not found')
    status = pl.filter(CycleState(), pod("p"), NodeInfo())
    assert (status.code, status.message()) == (Code.ERROR, "node not found")


def test_prefilter_bad_selector():
    bad = {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
           "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["a b"]}]}}
    status = plugin.new(None, Handle(nodes=NODES)).pre_filter(CycleState(), pod("p", spread=[bad]))
    assert status.code == Code.ERROR
    assert status.message().startswith("obtaining pod's hard topology spread constraints: invalid label value")


def _state(pl, incoming):
    state = CycleState()
    pl.pre_filter(state, incoming)
    return state


@pytest.mark.parametrize("verb, other, node_name, pairs, paths", [
    ("add", pod("n", labels={"foo": ""}, node="node-x"), "node-x",
     {("zone", "zone1"): 2, ("zone", "zone2"): 2}, [["zone2", 2], ["zone1", 2]]),  # equal: no swap
    ("add", pod("n", labels={"foo": ""}, node="node-a"), "node-a",
     {("zone", "zone1"): 3, ("zone", "zone2"): 1}, [["zone2", 1], ["zone1", 3]]),
    ("add", pod("n", labels={"bar": ""}, node="node-x"), "node-x",       # selector mismatch: ignored
     {("zone", "zone1"): 2, ("zone", "zone2"): 1}, [["zone2", 1], ["zone1", 2]]),
    ("add", pod("n", labels={"foo": ""}, namespace="ns2", node="node-x"), "node-x",   # other namespace
     {("zone", "zone1"): 2, ("zone", "zone2"): 1}, [["zone2", 1], ["zone1", 2]]),
    ("remove", pod("e1", labels={"foo": ""}, node="node-a"), "node-a",
     {("zone", "zone1"): 1, ("zone", "zone2"): 1}, [["zone2", 1], ["zone1", 1]]),
    ("remove", pod("e3", labels={"foo": ""}, node="node-x"), "node-x",
     {("zone", "zone1"): 2, ("zone", "zone2"): 0}, [["zone2", 0], ["zone1", 2]]),
])
def test_add_remove_pod(verb, other, node_name, pairs, paths):
    existing = [pod("e1", labels={"foo": ""}, node="node-a"), pod("e2", labels={"foo": ""}, node="node-b"),
                pod("e3", labels={"foo": ""}, node="node-x")]
    handle = Handle(existing, NODES)
    pl = plugin.new(None, handle)
    incoming = pod("p", labels={"foo": ""}, spread=[spread_constraint("zone")])
    state = _state(pl, incoming)
    ext = pl.pre_filter_extensions()
    status = (ext.add_pod if verb == "add" else ext.remove_pod)(state, incoming, other, handle.snapshot.get(node_name))
    assert status is None
    got = filtering.get_pre_filter_state(state)
    assert (got.tp_pair_to_match_num, got.tp_key_to_critical_paths["zone"].paths) == (pairs, paths)


def test_state_clone_is_independent():
    handle = Handle([pod("e1", labels={"foo": ""}, node="node-a")], NODES)
    pl = plugin.new(None, handle)
    incoming = pod("p", labels={"foo": ""}, spread=[spread_constraint("zone")])
    state = _state(pl, incoming)
    before = filtering.get_pre_filter_state(state).clone()
    copy = state.clone()
    pl.add_pod(copy, incoming, pod("n", labels={"foo": ""}, node="node-x"), handle.snapshot.get("node-x"))
    assert filtering.get_pre_filter_state(state) == before
    assert filtering.get_pre_filter_state(copy) != before


def test_default_constraints_use_service_selector():
    handle = Handle([pod("e1", labels={"app": "web"}, node="node-a"), pod("e2", labels={"app": "web"}, node="node-b")],
                    NODES, [service("s", {"app": "web"})])
    pl = plugin.new({"defaultConstraints": [_c()]}, handle)
    incoming = pod("p", labels={"app": "web"})
    out = _filter_all(pl, incoming, handle)
    assert out == {"node-a": FAIL, "node-b": FAIL, "node-x": "ok", "node-y": "ok"}
    # pod's own constraints win over defaults (none are hard here -> empty state)
    soft_only = pod("p", labels={"app": "web"}, spread=[spread_constraint("zone", "ScheduleAnyway")])
    assert filtering.get_pre_filter_state(_state(pl, soft_only)).constraints == ()


def _scores(pl, incoming, names):
    state = CycleState()
    assert pl.pre_score(state, incoming, [n for n in NODES if n.metadata.name in names]) is None
    scores = [NodeScore(n, pl.score(state, incoming, n)[0]) for n in names]
    assert pl.normalize_score(state, incoming, scores) is None
    return [s.score for s in scores]


@pytest.mark.parametrize("counts, names, expected", [
    ({"node-a": 2, "node-b": 1, "node-x": 0, "node-y": 3}, ["node-a", "node-b", "node-x", "node-y"],
     [66, 83, 100, 50]),
    ({}, ["node-a", "node-b"], [100, 100]),                     # diff 0 -> MaxNodeScore for everyone
    ({"node-a": 1, "node-y": 4}, ["node-a", "node-b"], [0, 100]),
])
def test_score_node_constraint(counts, names, expected):
    existing = [pod(f"{n}-{i}", labels={"foo": ""}, node=n) for n, c in counts.items() for i in range(c)]
    handle = Handle(existing, NODES)
    incoming = pod("p", labels={"foo": ""}, spread=[spread_constraint("node", "ScheduleAnyway")])
    assert _scores(plugin.new(None, handle), incoming, names) == expected


def test_score_errors_without_prescore():
    pl = plugin.new(None, Handle(nodes=NODES))
    _, status = pl.score(CycleState(), pod("p"), "node-a")
    assert status.message() == 'error reading "PreScorePodTopologySpread" from cycleState: not found'
    status = pl.normalize_score(CycleState(), pod("p"), [NodeScore("node-a", 0)])
    assert status.message() == 'error reading "PreScorePodTopologySpread" from cycleState: not found'


def test_prescore_without_filtered_nodes_writes_nothing():
    state = CycleState()
    assert plugin.new(None, Handle(nodes=NODES)).pre_score(state, pod("p"), []) is None
    assert state.keys() == []


def test_critical_paths_feed_order_is_deterministic():
    """Deviation from Go map order: ties keep first-seen (snapshot) order."""
    handle = Handle([], NODES)
    incoming = pod("p", labels={"foo": ""}, spread=[spread_constraint("node")])
    for _ in range(3):
        state = _state(plugin.new(None, handle), incoming)
        assert filtering.get_pre_filter_state(state).tp_key_to_critical_paths["node"].paths == [
            ["node-a", 0], ["node-b", 0]]
