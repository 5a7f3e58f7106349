"""Scheduler cache: nodes (add/update/remove), image states, the recency list.

Upstream: TestNodeOperators and the image-state bookkeeping of cache.go
(addNodeImageStates/removeNodeImageStates) in internal/cache/cache_test.go.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.scheduler.internal.cache.cache_fixtures import make_base_pod, make_node, new_cache, zoned_node
from kubesched.api.core import ContainerImage, ContainerPort, Taint
from kubesched.api.quantity import Quantity
from kubesched.scheduler.internal.cache.interface import CacheError
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import ImageStateSummary

NODE = "test-node"
TAINT = Taint(key="test-key", value="test-value", effect="PreferNoSchedule")


def _node() -> object:
    node = make_node(NODE, taints=(TAINT,))
    alloc = dict(node.status.allocatable, **{"example.com/foo": Quantity.parse("1")})
    return dataclasses.replace(node, status=dataclasses.replace(node.status, allocatable=alloc))


def _pod(name: str, port: int = 0):
    ports = (ContainerPort(80, host_port=port, name="http"),) if port else ()
    return make_base_pod(NODE, name, "500m", "50m", "", ports)


@pytest.mark.parametrize("ghosts", [False, True], ids=["1.18.5", "ghost-nodes"])
@pytest.mark.parametrize("pods", [[_pod("pod1", 80)], [_pod("pod1"), _pod("pod2")]], ids=["case_0", "case_1"])
def test_node_operators(pods, ghosts):
    node = _node()
    cache, _ = new_cache(1.0, keep_ghost_nodes=ghosts)
    cache.add_node(node)
    for pod in pods:
        cache.add_pod(pod)
    # Step 1: the node was added into the cache successfully.
    info = cache.nodes[NODE].info
    assert (info.node, info.taints, info.allocatable_resource.milli_cpu, info.allocatable_resource.memory,
            info.allocatable_resource.scalar_resources) == (node, (TAINT,), 1000, 1, {"example.com/foo": 1})
    assert (info.requested_resource.milli_cpu, [p.metadata.name for p in info.pods]) == (
        500 * len(pods), [p.metadata.name for p in pods])
    assert (cache.node_tree.num_nodes, cache.node_tree.next()) == (1, NODE)
    # Step 2: a snapshot clones it.
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert list(snap.node_info_map) == [NODE]
    clone = snap.node_info_map[NODE]
    assert clone is not info and (clone.node, clone.pods, clone.generation) == (info.node, info.pods, info.generation)
    # Step 3: update a node attribute; generation goes up.
    before = info.generation
    alloc = dict(node.status.allocatable, memory=Quantity.parse("50m"))
    updated = dataclasses.replace(node, status=dataclasses.replace(node.status, allocatable=alloc))
    cache.update_node(None, updated)
    assert cache.nodes[NODE].info.generation > before
    assert cache.nodes[NODE].info.allocatable_resource.memory == 1  # 50m rounds up to 1 byte
    assert (cache.node_tree.num_nodes, cache.node_tree.next()) == (1, NODE)
    # Step 4: the node can be removed even if it still has pods.
    cache.remove_node(updated)
    if ghosts:
        assert cache.nodes[NODE].info.node is None  # a ghost entry remains
    else:
        assert NODE not in cache.nodes              # 1.18.5: gone at once
    assert (cache.node_tree.num_nodes, cache.node_tree.next()) == (0, "")
    for pod in pods:
        assert cache.get_pod(pod) is pod             # pods are still in the pod states
    # Step 5: removing pods for the removed node still succeeds.
    for pod in pods:
        cache.remove_pod(pod)
        with pytest.raises(CacheError):
            cache.get_pod(pod)
    assert NODE not in cache.nodes


def _imaged(name: str, *images: tuple[tuple[str, ...], int]):
    return make_node(name, images=tuple(ContainerImage(names=n, size_bytes=s) for n, s in images))


IMG_A = (("gcr.io/a:v1", "gcr.io/a@sha256:1"), 100)
IMG_B = (("gcr.io/b:v1",), 200)


def _summaries(cache, name):
    return dict(cache.nodes[name].info.image_states)


def test_image_states_counts_are_taken_when_a_node_is_added():
    cache, _ = new_cache()
    cache.add_node(_imaged("n1", IMG_A))
    cache.add_node(_imaged("n2", IMG_A, IMG_B))
    assert {k: (v.size, sorted(v.nodes)) for k, v in cache.image_states.items()} == {
        "gcr.io/a:v1": (100, ["n1", "n2"]), "gcr.io/a@sha256:1": (100, ["n1", "n2"]), "gcr.io/b:v1": (200, ["n2"])}
    # n1 was summarized before n2 arrived: its counts are not refreshed.
    assert _summaries(cache, "n1") == {"gcr.io/a:v1": ImageStateSummary(100, 1),
                                       "gcr.io/a@sha256:1": ImageStateSummary(100, 1)}
    assert _summaries(cache, "n2") == {"gcr.io/a:v1": ImageStateSummary(100, 2),
                                       "gcr.io/a@sha256:1": ImageStateSummary(100, 2),
                                       "gcr.io/b:v1": ImageStateSummary(200, 1)}


@pytest.mark.parametrize("action, want_states, want_n2", [
    # n2's summary still says 2 nodes have image a: summaries are not refreshed on removal.
    ("remove n1", {"gcr.io/a:v1": ["n2"], "gcr.io/a@sha256:1": ["n2"], "gcr.io/b:v1": ["n2"]},
     {"gcr.io/a:v1": ImageStateSummary(100, 2), "gcr.io/a@sha256:1": ImageStateSummary(100, 2),
      "gcr.io/b:v1": ImageStateSummary(200, 1)}),
    ("remove n2", {"gcr.io/a:v1": ["n1"], "gcr.io/a@sha256:1": ["n1"]}, None),
    ("update n2 without images", {"gcr.io/a:v1": ["n1"], "gcr.io/a@sha256:1": ["n1"]}, {}),
    ("update n2 with b only", {"gcr.io/a:v1": ["n1"], "gcr.io/a@sha256:1": ["n1"], "gcr.io/b:v1": ["n2"]},
     {"gcr.io/b:v1": ImageStateSummary(200, 1)}),
    ("re-add n2 with a only", {"gcr.io/a:v1": ["n1", "n2"], "gcr.io/a@sha256:1": ["n1", "n2"]},
     {"gcr.io/a:v1": ImageStateSummary(100, 2), "gcr.io/a@sha256:1": ImageStateSummary(100, 2)}),
])
def test_image_states_follow_node_changes(action, want_states, want_n2):
    cache, _ = new_cache()
    n1, n2 = _imaged("n1", IMG_A), _imaged("n2", IMG_A, IMG_B)
    cache.add_node(n1)
    cache.add_node(n2)
    if action == "remove n1":
        cache.remove_node(n1)
    elif action == "remove n2":
        cache.remove_node(n2)
    elif action == "update n2 without images":
        cache.update_node(n2, _imaged("n2"))
    elif action == "update n2 with b only":
        cache.update_node(n2, _imaged("n2", IMG_B))
    else:
        cache.add_node(_imaged("n2", IMG_A))
    assert {k: sorted(v.nodes) for k, v in cache.image_states.items()} == want_states
    assert (_summaries(cache, "n2") if "n2" in cache.nodes else None) == want_n2


def test_update_node_of_unknown_node_adds_it_to_the_tree():
    cache, _ = new_cache()
    cache.update_node(zoned_node("n1", "r", "a"), zoned_node("n1", "r", "a"))
    assert (cache.node_tree.list_order(), cache.nodes["n1"].info.node_name()) == (["n1"], "n1")


def test_update_node_zone_change_refiles_it():
    cache, _ = new_cache()
    for node in (zoned_node("n1", "r", "a"), zoned_node("n2", "r", "a"), zoned_node("n3", "r", "b")):
        cache.add_node(node)
    cache.update_node(zoned_node("n1", "r", "a"), zoned_node("n1", "r", "b"))
    assert {z: a.nodes for z, a in cache.node_tree.tree.items()} == {"r:\x00:a": ["n2"], "r:\x00:b": ["n3", "n1"]}


@pytest.mark.parametrize("ops, want", [
    (["add n0", "add n1", "add n2"], ["n2", "n1", "n0"]),
    (["add n0", "add n1", "add n2", "update n0"], ["n0", "n2", "n1"]),
    (["add n0", "add n1", "pod n0"], ["n0", "n1"]),
    (["add n0", "add n1", "pod n0", "add n2", "unpod n0"], ["n0", "n2", "n1"]),
    (["add n0", "add n1", "add n2", "remove n1"], ["n2", "n0"]),
    (["add n0", "add n1", "add n2", "remove n2"], ["n1", "n0"]),
    (["add n0", "pod x", "add n1"], ["n1", "x", "n0"]),
])
def test_recency_list(ops, want):
    cache, _ = new_cache()
    pods = {}
    for op in ops:
        verb, name = op.split()
        if verb == "add":
            cache.add_node(make_node(name))
        elif verb == "update":
            cache.update_node(make_node(name), make_node(name, {"k": "v"}))
        elif verb == "remove":
            cache.remove_node(make_node(name))
        elif verb == "pod":
            pods[name] = make_base_pod(name, f"p-{name}", "1m", "1")
            cache.add_pod(pods[name])
        else:
            cache.remove_pod(pods[name])
    items = cache.list_items()
    assert [i.name for i in items] == want
    assert [i.info.generation for i in items] == sorted((i.info.generation for i in items), reverse=True)
    assert all(b.prev is a and a.next is b for a, b in zip(items, items[1:]))
    assert items[0].prev is None and items[-1].next is None


def test_counts_and_list_pods():
    cache, _ = new_cache()
    cache.add_node(make_node("n0"))
    a = make_base_pod("n0", "a", "1m", "1")
    b = make_base_pod("elsewhere", "b", "1m", "1")
    cache.add_pod(a)
    cache.assume_pod(b)
    assert (cache.node_count(), cache.pod_count()) == (2, 2)
    assert [p.metadata.name for p in cache.list_pods()] == ["b", "a"]
