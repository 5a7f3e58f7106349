"""helper/spread.py (DefaultSelector, GetPodServices), util/topologies.py, util/utils.py, GetZoneKey."""

from __future__ import annotations

import pytest

from kubesched.api.decode import decode_object
from kubesched.scheduler.framework.plugins.defaultpodtopologyspread.default_pod_topology_spread import get_zone_key
from kubesched.scheduler.framework.plugins.helper import spread
from kubesched.client.listers.informer_listers import InformerListers
from kubesched.scheduler.util import topologies, utils
from kubesched.api.core import PodAffinity, PodAffinityTerm
from kubesched.api.labels import selector_from_set
from tests.scheduler.framework.plugins.placement_builders import node, pod, service


def _obj(kind, api, name, ns, spec):
    obj, _ = decode_object({"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": ns},
                            "spec": spec})
    return obj


def rc(name, selector, ns=""):
    return _obj("ReplicationController", "v1", name, ns, {"selector": selector})


def rs(name, selector, ns=""):
    return _obj("ReplicaSet", "apps/v1", name, ns, {"selector": selector})


def ss(name, selector, ns=""):
    return _obj("StatefulSet", "apps/v1", name, ns, {"selector": selector})


@pytest.mark.parametrize("objects, labels, matches, misses", [
    ([], {"a": "1"}, [], [{"a": "1"}]),                                      # nothing selects: empty selector
    ([service("s", {"a": "1"})], {"a": "1", "b": "2"}, [{"a": "1"}], [{"a": "2"}]),
    ([service("s", {"a": "1"}, namespace="other")], {"a": "1"}, [], [{"a": "1"}]),
    ([service("s", {"a": "1"}), rc("r", {"b": "2"})], {"a": "1", "b": "2"}, [{"a": "1", "b": "2"}], [{"a": "1"}]),
    ([rs("r", {"matchExpressions": [{"key": "c", "operator": "Exists"}]})], {"c": "x"}, [{"c": "y"}], [{}]),
    ([rs("r", {})], {"c": "x"}, [], [{"c": "x"}]),                           # empty RS selector matches nothing
    ([ss("s", {"matchLabels": {"d": "4"}}), service("v", {"a": "1"})], {"a": "1", "d": "4"},
     [{"a": "1", "d": "4"}], [{"d": "4"}]),
    ([service("s", {"a": "1"})], {}, [], [{"a": "1"}]),
])
def test_default_selector(objects, labels, matches, misses):
    selector = spread.default_selector(pod("p", labels=labels), InformerListers(objects))
    if not matches:
        assert selector.empty()
    for m in matches:
        assert selector.matches(m)
    for m in misses:
        assert selector.empty() or not selector.matches(m)


def test_get_pod_services_order_and_filtering():
    listers = InformerListers([service("b", {"a": "1"}), service("a", {"a": "1"}), service("c", {"x": "y"})])
    got = spread.get_pod_services(listers, pod("p", labels={"a": "1"}))
    assert [s.metadata.name for s in got] == ["a", "b"]


@pytest.mark.parametrize("namespaces, pod_ns, expected", [((), "ns1", {"ns1"}), (("x", "y"), "ns1", {"x", "y"})])
def test_get_namespaces_from_pod_affinity_term(namespaces, pod_ns, expected):
    term = PodAffinityTerm(namespaces=namespaces, topology_key="zone")
    assert topologies.get_namespaces_from_pod_affinity_term(pod("p", namespace=pod_ns), term) == expected


@pytest.mark.parametrize("namespaces, pod_ns, labels, expected", [
    (set(), "a", {"x": "1"}, True), ({"a"}, "a", {"x": "1"}, True), ({"b"}, "a", {"x": "1"}, False),
    ({"a"}, "a", {"x": "2"}, False),
])
def test_pod_matches_terms_namespace_and_selector(namespaces, pod_ns, labels, expected):
    p = pod("p", namespace=pod_ns, labels=labels)
    assert topologies.pod_matches_terms_namespace_and_selector(p, namespaces, selector_from_set({"x": "1"})) is expected


@pytest.mark.parametrize("a, b, key, expected", [
    (node("a", zone="1"), node("b", zone="1"), "zone", True), (node("a", zone="1"), node("b", zone="2"), "zone", False),
    (node("a", zone="1"), node("b"), "zone", False), (node("a", zone="1"), node("b", zone="1"), "", False),
    (None, node("b", zone="1"), "zone", False),
])
def test_nodes_have_same_topology_key(a, b, key, expected):
    assert topologies.nodes_have_same_topology_key(a, b, key) is expected


def test_utils():
    required = (PodAffinityTerm(topology_key="zone"),)
    assert utils.get_pod_affinity_terms(None) == () == utils.get_pod_anti_affinity_terms(None)
    assert utils.get_pod_affinity_terms(PodAffinity(required_during_scheduling_ignored_during_execution=required)) \
        == required
    assert utils.get_pod_full_name(pod("web", namespace="ns")) == "web_ns"


@pytest.mark.parametrize("labels, expected", [
    ({}, ""),
    ({"failure-domain.beta.kubernetes.io/zone": "z"}, ":\x00:z"),
    ({"topology.kubernetes.io/zone": "z", "topology.kubernetes.io/region": "r"}, "r:\x00:z"),
    ({"failure-domain.beta.kubernetes.io/zone": "b", "topology.kubernetes.io/zone": "s"}, ":\x00:b"),
    ({"failure-domain.beta.kubernetes.io/region": "r"}, "r:\x00:"),
])
def test_get_zone_key(labels, expected):
    assert get_zone_key(node("n", **labels)) == expected
