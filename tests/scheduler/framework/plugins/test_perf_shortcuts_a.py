"""Shortcut hooks of TaintToleration, NodeUnschedulable, NodePreferAvoidPods and ImageLocality.

Each table row gives the exact hook answer; every promise (True / an int) is then checked by
running the real Filter / PreScore + Score on every node of the row's cluster.
"""

from __future__ import annotations

from typing import Optional

import pytest

from kubesched.api.core import Node, Pod
from kubesched.scheduler.framework.plugins.imagelocality import image_locality
from kubesched.scheduler.framework.plugins.nodepreferavoidpods import node_prefer_avoid_pods
from kubesched.scheduler.framework.plugins.nodeunschedulable import node_unschedulable
from kubesched.scheduler.framework.plugins.tainttoleration import taint_toleration
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from tests.scheduler.framework.plugins.plugin_builders import handle, node, node_info, pod

MB = 1024 * 1024
PREFER = "PreferNoSchedule"
AVOID_KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"


def _taint(key: str, effect: str, value: str = "v") -> dict:
    return {"key": key, "value": value, "effect": effect}


def _avoid(kind: str, uid: str) -> dict:
    return {AVOID_KEY: '{"preferAvoidPods": [{"podSignature": {"podController": '
                       f'{{"kind": "{kind}", "name": "c", "uid": "{uid}", "apiVersion": "v1"}}}}}}]}}'}


def _owned(kind: str, uid: str = "u1", controller: bool = True) -> Pod:
    return pod(ownerReferences=[{"apiVersion": "v1", "kind": kind, "name": "c", "uid": uid,
                                 "controller": controller}])


def _tolerating(*tolerations: dict) -> Pod:
    return pod({"tolerations": list(tolerations)})


def _images(*images: tuple[str, int]) -> list[dict]:
    return [{"names": [name], "sizeBytes": size} for name, size in images]


def _with_image(*images: str) -> Pod:
    return pod({"containers": [{"name": f"c{i}", "image": image} for i, image in enumerate(images)]})


def _scores(plugin, state: CycleState, p: Pod, nodes: list[Node]) -> set[tuple[int, object]]:
    return {plugin.score(state, p, n.metadata.name) for n in nodes}


def _assert_constant(plugin, state: CycleState, p: Pod, nodes: list[Node], want: Optional[int]) -> None:
    """The hook's answer is ``want``; an int is every node's real Score, None means scores differ."""
    assert plugin.constant_score(state, p, nodes) == want
    if want is not None:
        assert _scores(plugin, state, p, nodes) == {(want, None)}
    else:
        assert len(_scores(plugin, state, p, nodes)) > 1


# ------------------------------------------------------------------------- TaintToleration Score

TAINT_SCORE_CASES = [
    ("no taints anywhere", [node("a"), node("b")], pod(), 0),
    ("only hard taints", [node("a", taints=[_taint("k", "NoSchedule")]), node("b")], pod(), 0),
    ("one node prefers not", [node("a", taints=[_taint("k", PREFER)]), node("b")], pod(), None),
    ("tolerated everywhere", [node("a", taints=[_taint("k", PREFER)]), node("b")],
     _tolerating({"key": "k", "operator": "Equal", "value": "v", "effect": PREFER}), 0),
    ("tolerated by empty effect", [node("a", taints=[_taint("k", PREFER)]), node("b")],
     _tolerating({"key": "k", "operator": "Exists"}), 0),
    ("same taint on every node", [node("a", taints=[_taint("k", PREFER)]),
                                  node("b", taints=[_taint("k", PREFER), _taint("h", "NoExecute")])], pod(), 1),
    ("two and one", [node("a", taints=[_taint("k", PREFER), _taint("j", PREFER)]),
                     node("b", taints=[_taint("k", PREFER)])], pod(), None),
    ("toleration for another value", [node("a", taints=[_taint("k", PREFER)]), node("b")],
     _tolerating({"key": "k", "operator": "Equal", "value": "w", "effect": PREFER}), None),
]


@pytest.mark.parametrize("name,nodes,p,want", TAINT_SCORE_CASES, ids=[c[0] for c in TAINT_SCORE_CASES])
def test_taint_toleration_constant_score(name: str, nodes: list[Node], p: Pod, want: Optional[int]) -> None:
    plugin = taint_toleration.new(None, handle(nodes, [pod(name="ghost", nodeName="gone")]))
    state = CycleState()
    assert plugin.pre_score(state, p, nodes) is None
    _assert_constant(plugin, state, p, nodes, want)


def test_taint_toleration_constant_score_without_pre_score_state() -> None:
    plugin = taint_toleration.new(None, handle([node("a")]))
    state = CycleState()
    assert plugin.constant_score(state, pod(), [node("a")]) is None
    assert plugin.score(state, pod(), "a")[1] is not None  # Score errs too


# ------------------------------------------------------------------------- TaintToleration Filter

HARD_NODES = [node("plain"), node("ns", taints=[_taint("k", "NoSchedule"), _taint("", "NoSchedule", "")]),
              node("ne", taints=[_taint("x", "NoExecute", "")]),
              node("both", taints=[_taint("a", "NoExecute"), _taint("b", "NoSchedule"), _taint("c", PREFER)])]

TAINT_FILTER_CASES = [
    ("no tolerations", pod(), False),
    ("keyless Exists", _tolerating({"operator": "Exists"}), True),
    ("keyless Exists NoSchedule only", _tolerating({"operator": "Exists", "effect": "NoSchedule"}), False),
    ("keyless Exists per hard effect", _tolerating({"operator": "Exists", "effect": "NoSchedule"},
                                                   {"operator": "Exists", "effect": "NoExecute"}), True),
    ("keyless Exists PreferNoSchedule", _tolerating({"operator": "Exists", "effect": PREFER}), False),
    ("keyed Exists", _tolerating({"key": "k", "operator": "Exists"}), False),
    ("keyless Equal", _tolerating({"operator": "Equal", "value": "v"}), False),
]


@pytest.mark.parametrize("name,p,want", TAINT_FILTER_CASES, ids=[c[0] for c in TAINT_FILTER_CASES])
def test_taint_toleration_skip_filter(name: str, p: Pod, want: bool) -> None:
    plugin = taint_toleration.new(None, handle(HARD_NODES))
    assert plugin.skip_filter(p) is want
    results = [plugin.filter(CycleState(), p, node_info(n)) for n in HARD_NODES]
    if want:
        assert results == [None] * len(HARD_NODES)
    else:
        assert any(r is not None for r in results)  # the cluster can say no to this pod


# ------------------------------------------------------------------------- NodeUnschedulable

UNSCHEDULABLE_CASES = [
    ("no tolerations", pod(), False),
    ("the cordon taint", _tolerating({"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                                      "effect": "NoSchedule"}), True),
    ("keyless Exists", _tolerating({"operator": "Exists"}), True),
    ("wrong effect", _tolerating({"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                                  "effect": "NoExecute"}), False),
    ("other key", _tolerating({"key": "k", "operator": "Exists"}), False),
]


@pytest.mark.parametrize("name,p,want", UNSCHEDULABLE_CASES, ids=[c[0] for c in UNSCHEDULABLE_CASES])
def test_node_unschedulable_skip_filter(name: str, p: Pod, want: bool) -> None:
    plugin = node_unschedulable.new(None, None)
    nodes = [node("up"), node("cordoned", unschedulable=True)]
    assert plugin.skip_filter(p) is want
    results = [plugin.filter(CycleState(), p, node_info(n)) for n in nodes]
    assert results[0] is None
    assert (results[1] is None) is want


# ------------------------------------------------------------------------- NodePreferAvoidPods

AVOID_CASES = [
    ("no controller", [node("a", annotations=_avoid("ReplicationController", "u1"))], pod(), 100),
    ("owner that is not the controller", [node("a", annotations=_avoid("ReplicationController", "u1")), node("b")],
     _owned("ReplicationController", controller=False), 100),
    ("controller of another kind", [node("a", annotations=_avoid("StatefulSet", "u1")), node("b")],
     _owned("StatefulSet"), 100),
    ("RC, no node annotated", [node("a"), node("b")], _owned("ReplicationController"), 100),
    ("RS, one node avoids it", [node("a", annotations=_avoid("ReplicaSet", "u1")), node("b")],
     _owned("ReplicaSet"), None),
    ("RS, a node avoids another RS", [node("a", annotations=_avoid("ReplicaSet", "u2")), node("b")],
     _owned("ReplicaSet"), 100),
    ("RC, every node avoids it", [node("a", annotations=_avoid("ReplicationController", "u1")),
                                  node("b", annotations=_avoid("ReplicationController", "u1"))],
     _owned("ReplicationController"), 0),
]


@pytest.mark.parametrize("name,nodes,p,want", AVOID_CASES, ids=[c[0] for c in AVOID_CASES])
def test_node_prefer_avoid_pods_constant_score(name: str, nodes: list[Node], p: Pod, want: Optional[int]) -> None:
    plugin = node_prefer_avoid_pods.new(None, handle(nodes, [pod(name="ghost", nodeName="gone")]))
    state = CycleState()
    _assert_constant(plugin, state, p, nodes, want)


# ------------------------------------------------------------------------- ImageLocality

BIG, SMALL = 500 * MB, 10 * MB
IMAGE_CASES = [
    ("no node reports images", [node("a"), node("b")], _with_image("nginx"), 0),
    ("other images only", [node("a", images=_images(("redis:latest", BIG))), node("b")], _with_image("nginx"), 0),
    ("the image on one node", [node("a", images=_images(("nginx:latest", BIG))), node("b")],
     _with_image("nginx"), None),
    ("the image on every node", [node("a", images=_images(("nginx:latest", BIG))),
                                 node("b", images=_images(("nginx:latest", BIG), ("redis:6", BIG)))],
     _with_image("nginx"), 100 * (BIG - 23 * MB) // (977 * MB)),
    ("a small image on one node", [node("a", images=_images(("nginx:1.0", SMALL))), node("b")],
     _with_image("nginx:1.0"), 0),
    ("pod without containers", [node("a", images=_images(("nginx:latest", BIG))), node("b")], pod(), 0),
]


@pytest.mark.parametrize("name,nodes,p,want", IMAGE_CASES, ids=[c[0] for c in IMAGE_CASES])
def test_image_locality_constant_score(name: str, nodes: list[Node], p: Pod, want: Optional[int]) -> None:
    plugin = image_locality.new(None, handle(nodes))
    state = CycleState()
    _assert_constant(plugin, state, p, nodes, want)
