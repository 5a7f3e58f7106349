"""NodeName, NodeLabel, ImageLocality and NodePreferAvoidPods beyond the upstream tables.

Upstream: nodename/node_name.go, nodelabel/node_label.go, imagelocality/image_locality.go,
nodepreferavoidpods/node_prefer_avoid_pods.go, core/v1 helper GetAvoidPodsFromNodeAnnotations.
"""

from __future__ import annotations

import json

import pytest

from kubesched.api import v1helper
from kubesched.scheduler.framework.plugins.imagelocality import image_locality
from kubesched.scheduler.framework.plugins.nodelabel import node_label
from kubesched.scheduler.framework.plugins.nodename import node_name
from kubesched.scheduler.framework.plugins.nodepreferavoidpods import node_prefer_avoid_pods
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code

from tests.scheduler.framework.plugins.plugin_builders import handle, node, node_info, pod


def _status(status) -> object:
    return None if status is None else (status.code, status.reasons)


@pytest.mark.parametrize("module", [node_name, node_label], ids=["NodeName", "NodeLabel"])
def test_filters_without_node_are_errors(module) -> None:
    status = module.new(None, None).filter(CycleState(), pod(), node_info(None))
    assert _status(status) == (Code.ERROR, ("node not found",))


def test_node_name_reason() -> None:
    status = node_name.new(None, None).filter(CycleState(), pod({"nodeName": "other"}), node_info(node("n1")))
    assert _status(status) == (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) didn't match the requested hostname",))


def test_node_label_filter_ignores_values() -> None:
    plugin = node_label.new({"presentLabels": ["zone"], "absentLabels": ["retiring"]}, None)
    assert plugin.filter(CycleState(), pod(), node_info(node(labels={"zone": ""}))) is None
    status = plugin.filter(CycleState(), pod(), node_info(node(labels={"zone": "a", "retiring": ""})))
    assert _status(status) == (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) didn't have the requested labels",))


def test_node_label_score_errors_and_empty_preferences() -> None:
    stray = pod({"nodeName": "ghost"}, uid="u1")
    h = handle([node(labels={"a": "1"})], [stray])
    plugin = node_label.new({"presentLabelsPreference": ["a"]}, h)
    assert _status(plugin.score(CycleState(), pod(), "nope")[1]) == (Code.ERROR, (
        'getting node "nope" from Snapshot: nodeinfo not found for node name "nope", node is nil: true',))
    assert _status(plugin.score(CycleState(), pod(), "ghost")[1]) == (Code.ERROR, (
        'getting node "ghost" from Snapshot: <nil>, node is nil: true',))
    assert node_label.new({}, h).score(CycleState(), pod(), "n1") == (0, None)  # Deviation: no panic


# ---------------------------------------------------------------- ImageLocality

MB = 1024 * 1024


@pytest.mark.parametrize("size,holders,total,want", [
    (23 * MB, 1, 1, 0),            # at the lower threshold
    (1000 * MB, 1, 1, 100),        # at the upper threshold
    (2000 * MB, 1, 1, 100),        # clamped
    (500 * MB, 1, 1, 48),          # 100 * 477 / 977 truncated
    (1000 * MB, 1, 2, 48),         # spread halves the size
])
def test_image_locality_score(size, holders, total, want) -> None:
    nodes = [node(f"n{i}", images=[{"names": ["img:1"], "sizeBytes": size}] if i <= holders else [])
             for i in range(1, total + 1)]
    plugin = image_locality.new(None, handle(nodes))
    assert plugin.score(CycleState(), pod({"containers": [{"name": "c", "image": "img:1"}]}), "n1") == (want, None)


def test_image_locality_counts_node_less_node_infos_and_ignores_init_containers() -> None:
    stray = pod({"nodeName": "ghost"}, uid="u1")
    n = node("n1", images=[{"names": ["big:latest"], "sizeBytes": 1000 * MB}])
    plugin = image_locality.new(None, handle([n], [stray]))
    assert plugin.score(CycleState(), pod({"containers": [{"name": "c", "image": "big"}]}), "n1") == (48, None)
    init_only = pod({"containers": [], "initContainers": [{"name": "i", "image": "big"}]})
    assert plugin.score(CycleState(), init_only, "n1") == (0, None)
    assert _status(plugin.score(CycleState(), init_only, "zz")[1]) == (
        Code.ERROR, ('getting node "zz" from Snapshot: nodeinfo not found for node name "zz"',))


@pytest.mark.parametrize("name,want", [
    ("repo/img", "repo/img:latest"), ("host:5000/img:v1", "host:5000/img:v1"), ("img:", "img:"),
])
def test_normalized_image_name(name, want) -> None:
    assert image_locality.normalized_image_name(name) == want


# ---------------------------------------------------------------- NodePreferAvoidPods

def _avoid(kind: str, uid: str) -> dict:
    value = {"preferAvoidPods": [{"podSignature": {"podController": {
        "apiVersion": "v1", "kind": kind, "name": "x", "uid": uid, "controller": True}}}]}
    return {v1helper.PREFER_AVOID_PODS_ANNOTATION_KEY: json.dumps(value)}


def _owned(kind: str, uid: str, controller: bool = True):
    return pod(ownerReferences=[{"apiVersion": "v1", "kind": kind, "name": "x", "uid": uid,
                                 "controller": controller}])


AVOID_CASES = [
    ("matching ReplicaSet", _owned("ReplicaSet", "u1"), _avoid("ReplicaSet", "u1"), 0),
    ("other uid", _owned("ReplicaSet", "u2"), _avoid("ReplicaSet", "u1"), 100),
    ("kind must match too", _owned("ReplicationController", "u1"), _avoid("ReplicaSet", "u1"), 100),
    ("StatefulSet owners are ignored", _owned("StatefulSet", "u1"), _avoid("StatefulSet", "u1"), 100),
    ("non-controller owner ignored", _owned("ReplicaSet", "u1", controller=False), _avoid("ReplicaSet", "u1"), 100),
    ("unparseable annotation", _owned("ReplicaSet", "u1"), {v1helper.PREFER_AVOID_PODS_ANNOTATION_KEY: "{"}, 100),
    ("wrong JSON shape", _owned("ReplicaSet", "u1"), {v1helper.PREFER_AVOID_PODS_ANNOTATION_KEY: "[1]"}, 100),
    ("no annotation", _owned("ReplicaSet", "u1"), {}, 100),
]


@pytest.mark.parametrize("name,p,annotations,want", AVOID_CASES, ids=[c[0] for c in AVOID_CASES])
def test_node_prefer_avoid_pods(name, p, annotations, want) -> None:
    plugin = node_prefer_avoid_pods.new(None, handle([node(annotations=annotations)]))
    assert plugin.score(CycleState(), p, "n1") == (want, None)


def test_node_prefer_avoid_pods_errors() -> None:
    stray = pod({"nodeName": "ghost"}, uid="u1")
    plugin = node_prefer_avoid_pods.new(None, handle([node()], [stray]))
    assert _status(plugin.score(CycleState(), pod(), "ghost")[1]) == (Code.ERROR, ("node not found",))
    assert _status(plugin.score(CycleState(), pod(), "zz")[1]) == (
        Code.ERROR, ('getting node "zz" from Snapshot: nodeinfo not found for node name "zz"',))
