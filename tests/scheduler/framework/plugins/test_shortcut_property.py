"""Property: for random pods, a shortcut's answer never contradicts the real plugin.

skip_filter True => PreFilter + Filter pass on every node (and state clone);
constant_score an int => Score gives that int, with Success, on every node.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from tests.scheduler.framework.plugins.shortcut_world import FILTER_PLUGINS, NODES, VOLUMES, Handle, build, filter_everywhere, incoming

_PORTS = st.lists(st.fixed_dictionaries({"containerPort": st.just(80), "hostPort": st.sampled_from([0, 0, 80, 53]),
                                         "protocol": st.sampled_from(["TCP", "UDP"])}), max_size=2)
_CONTAINERS = st.lists(st.builds(lambda ports: {"name": "c", "ports": ports}, _PORTS), max_size=2)
_SSD = {"key": "disk", "operator": "In", "values": ["ssd"]}
_AFFINITY = st.sampled_from([
    None,
    {"nodeAffinity": {}},
    {"podAntiAffinity": {}},
    {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}},
    {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [_SSD]}]}}},
    {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 0, "preference": {"matchExpressions": [_SSD]}}]}},
    {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 3, "preference": {"matchExpressions": [_SSD]}}]}},
])
_SPREAD = st.lists(st.fixed_dictionaries({
    "maxSkew": st.just(1), "topologyKey": st.sampled_from(["zone", "node", "rack"]),
    "whenUnsatisfiable": st.sampled_from(["DoNotSchedule", "ScheduleAnyway"]),
    "labelSelector": st.just({"matchExpressions": [{"key": "foo", "operator": "Exists"}]}),
}), max_size=2, unique_by=lambda c: (c["topologyKey"], c["whenUnsatisfiable"]))


@st.composite
def pods(draw):
    spec = {"containers": draw(_CONTAINERS), "initContainers": draw(_CONTAINERS),
            "volumes": [VOLUMES[n] for n in draw(st.lists(st.sampled_from(sorted(VOLUMES)), max_size=2, unique=True))],
            "nodeName": draw(st.sampled_from(["", "", "n-full", "elsewhere"])),
            "nodeSelector": draw(st.sampled_from([{}, {}, {"disk": "ssd"}])),
            "topologySpreadConstraints": draw(_SPREAD)}
    affinity = draw(_AFFINITY)
    if affinity is not None:
        spec["affinity"] = affinity
    labels = draw(st.sampled_from([{}, {"foo": "p"}, {"app": "web"}, {"app": "web", "foo": "p"}]))
    return incoming(spec, labels)


_SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(pod=pods())
def test_filter_shortcut_never_lies(pod):
    handle = Handle()
    for name in FILTER_PLUGINS:
        plugin = build(name, handle)
        if plugin.skip_filter(pod):
            failures = {k: s for k, s in filter_everywhere(plugin, pod, handle).items() if s is not None}
            assert failures == {}, name


@_SETTINGS
@given(pod=pods(), filtered=st.lists(st.sampled_from(NODES), unique_by=lambda n: n.metadata.name))
def test_score_shortcut_never_lies(pod, filtered):
    handle = Handle()
    for name in ("NodeAffinity", "PodTopologySpread", "PodTopologySpread/soft-defaults"):
        plugin = build(name, handle)
        state = CycleState()
        if hasattr(plugin, "pre_score") and plugin.pre_score(state, pod, filtered) is not None:
            continue  # PreScore failed: the framework stops before Score
        want = plugin.constant_score(state, pod, filtered)
        if want is not None:
            got = {n.metadata.name: plugin.score(state, pod, n.metadata.name) for n in NODES}
            assert got == {n.metadata.name: (want, None) for n in NODES}, name
