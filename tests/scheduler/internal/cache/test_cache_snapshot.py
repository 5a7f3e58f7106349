"""UpdateSnapshot: incremental cloning by generation, list rebuild in node-tree order, the 1.18.5 quirk.

Upstream: TestSchedulerCache_UpdateSnapshot, TestSchedulerCache_updateNodeInfoSnapshotList
(and compareCacheWithNodeInfoSnapshot) in internal/cache/cache_test.go; issue #91601.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.scheduler.internal.cache.cache_fixtures import make_base_pod, make_node, new_cache, with_pod_affinity, zoned_node
from kubesched.scheduler.internal.cache.interface import CacheError
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.listers.listers import NodeInfoNotFoundError

NODES = [make_node(f"test-node{i}") for i in range(10)]
UPDATED_NODES = [make_node(f"test-node{i}", cpu="2000m", mem="500m") for i in range(10)]
PODS = [make_base_pod(f"test-node{i % 10}", f"test-pod{i}") for i in range(20)]
PODS = [dataclasses.replace(p, metadata=dataclasses.replace(p.metadata, namespace="test-ns",
                                                            uid=f"test-puid{i}")) for i, p in enumerate(PODS)]
UPDATED_PODS = [dataclasses.replace(p, spec=dataclasses.replace(p.spec, priority=1000)) for p in PODS]
AFFINITY_PODS = [dataclasses.replace(PODS[i], spec=dataclasses.replace(PODS[i].spec, affinity=with_pod_affinity()))
                 for i in range(2)]


def run_ops(cache, snap, ops: str) -> None:
    for op in ops.split():
        verb, _, arg = op.partition(":")
        i = int(arg) if arg else 0
        {"addNode": lambda: cache.add_node(NODES[i]),
         "removeNode": lambda: cache.remove_node(NODES[i]),
         "updateNode": lambda: cache.update_node(NODES[i], UPDATED_NODES[i]),
         "addPod": lambda: cache.add_pod(PODS[i]),
         "addPodWithAffinity": lambda: cache.add_pod(AFFINITY_PODS[i]),
         "removePod": lambda: cache.remove_pod(PODS[i]),
         "removePodWithAffinity": lambda: cache.remove_pod(AFFINITY_PODS[i]),
         "updatePod": lambda: cache.update_pod(PODS[i], UPDATED_PODS[i]),
         "updateSnapshot": lambda: check_snapshot(cache, snap, update=True)}[verb]()


def check_snapshot(cache, snap, update: bool = False) -> None:
    """``compareCacheWithNodeInfoSnapshot`` without moving the node tree's cursor."""
    if update:
        cache.update_snapshot(snap)
    tree_names = cache.node_tree.list_order()
    assert sorted(snap.node_info_map) == sorted(tree_names)
    for name, item in cache.nodes.items():
        if item.info.node is None:
            assert name not in snap.node_info_map
            continue
        got = snap.node_info_map[name]
        assert got is not item.info
        assert (got.node, got.pods, got.generation, got.requested_resource) == (
            item.info.node, item.info.pods, item.info.generation, item.info.requested_resource)
    assert sorted(n.node_name() for n in snap.node_info_list) == sorted(tree_names)
    assert all(snap.node_info_map[n.node_name()] is n for n in snap.node_info_list)
    assert snap.have_pods_with_affinity_node_info_list == [n for n in snap.node_info_list if n.pods_with_affinity]


@pytest.mark.parametrize("ghosts", [False, True], ids=["1.18.5", "ghost-nodes"])
@pytest.mark.parametrize("name, ops, expected, affinity", [
    ("Empty cache", "", [], 0),
    ("Single node", "addNode:1", [1], 0),
    ("Add node, remove it, add it again", "addNode:1 updateSnapshot removeNode:1 addNode:1", [1], 0),
    ("Add node and remove it in the same cycle, add it again",
     "addNode:1 updateSnapshot addNode:2 removeNode:1", [2], 0),
    ("Add a few nodes, and snapshot in the middle",
     "addNode:0 updateSnapshot addNode:1 updateSnapshot addNode:2 updateSnapshot addNode:3", [3, 2, 1, 0], 0),
    ("Add a few nodes, and snapshot in the end", "addNode:0 addNode:2 addNode:5 addNode:6", [6, 5, 2, 0], 0),
    ("Update some nodes", "addNode:0 addNode:1 addNode:5 updateSnapshot updateNode:1", [1, 5, 0], 0),
    ("Add a few nodes, and remove all of them",
     "addNode:0 addNode:2 addNode:5 addNode:6 updateSnapshot removeNode:0 removeNode:2 removeNode:5 removeNode:6",
     [], 0),
    ("Add a few nodes, and remove some of them",
     "addNode:0 addNode:2 addNode:5 addNode:6 updateSnapshot removeNode:0 removeNode:6", [5, 2], 0),
    ("Add a few nodes, remove all of them, and add more",
     "addNode:2 addNode:5 addNode:6 updateSnapshot removeNode:2 removeNode:5 removeNode:6 updateSnapshot "
     "addNode:7 addNode:9", [9, 7], 0),
    ("Update nodes in particular order", "addNode:8 updateNode:2 updateNode:8 updateSnapshot addNode:1",
     [1, 8, 2], 0),
    ("Add some nodes and some pods", "addNode:0 addNode:2 addNode:8 updateSnapshot addPod:8 addPod:2",
     [2, 8, 0], 0),
    ("Updating a pod moves its node to the head", "addNode:0 addPod:0 addNode:2 addNode:4 updatePod:0",
     [0, 4, 2], 0),
    ("Add pod before its node", "addNode:0 addPod:1 updatePod:1 addNode:1", [1, 0], 0),
    ("Remove node before its pods",
     "addNode:0 addNode:1 addPod:1 addPod:11 updateSnapshot removeNode:1 updateSnapshot "
     "updatePod:1 updatePod:11 removePod:1 removePod:11", [0], 0),
    ("Add Pods with affinity", "addNode:0 addPodWithAffinity:0 updateSnapshot addNode:1", [1, 0], 1),
    ("Add multiple nodes with pods with affinity",
     "addNode:0 addPodWithAffinity:0 updateSnapshot addNode:1 addPodWithAffinity:1 updateSnapshot", [1, 0], 2),
    ("Add then Remove pods with affinity",
     "addNode:0 addNode:1 addPodWithAffinity:0 updateSnapshot removePodWithAffinity:0 updateSnapshot", [0, 1], 0),
], ids=lambda v: v if isinstance(v, str) and not v[:1].islower() else None)
def test_update_snapshot(name, ops, expected, affinity, ghosts):
    cache, _ = new_cache(1.0, keep_ghost_nodes=ghosts)
    snap = Snapshot()
    run_ops(cache, snap, ops)
    assert len(cache.nodes) == len(expected)
    assert [i.info.node_name() for i in cache.list_items()] == [f"test-node{i}" for i in expected]
    assert len(snap.have_pods_with_affinity_node_info_list) == affinity
    check_snapshot(cache, snap, update=True)


def test_only_changed_node_infos_are_cloned():
    cache, _ = new_cache()
    for i in range(3):
        cache.add_node(NODES[i])
    snap = Snapshot()
    cache.update_snapshot(snap)
    entries = {name: (info, info.pods) for name, info in snap.node_info_map.items()}
    listed = list(snap.node_info_list)
    cache.add_pod(PODS[1])
    cache.update_snapshot(snap)
    for name, (info, pods) in entries.items():
        assert snap.node_info_map[name] is info            # the pointer the list holds is kept
        changed = name == "test-node1"
        assert (snap.node_info_map[name].pods is pods) == (not changed)
    assert snap.node_info_list == listed                   # no node added/removed: list not rebuilt
    assert [p.metadata.name for p in snap.node_info_map["test-node1"].pods] == ["test-pod1"]
    assert snap.generation == cache.head_node.info.generation


def test_snapshot_is_isolated_from_later_cache_changes():
    cache, _ = new_cache()
    cache.add_node(NODES[0])
    snap = Snapshot()
    cache.update_snapshot(snap)
    cache.add_pod(PODS[0])
    assert snap.get("test-node0").pods == []
    cache.update_snapshot(snap)
    assert [p.metadata.name for p in snap.get("test-node0").pods] == ["test-pod0"]


def test_node_less_node_infos_are_skipped():
    cache, _ = new_cache()
    cache.add_node(NODES[0])
    cache.add_pod(PODS[5])  # test-node5 not known yet: placeholder without node
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert list(snap.node_info_map) == ["test-node0"]
    with pytest.raises(NodeInfoNotFoundError):
        snap.get("test-node5")


def test_list_rebuild_follows_the_node_tree_order():
    cache, _ = new_cache()
    for node in (zoned_node("a1", "r", "a"), zoned_node("a2", "r", "a"), zoned_node("a3", "r", "a"),
                 zoned_node("b1", "r", "b"), zoned_node("b2", "r", "b"), zoned_node("c1", "r", "c")):
        cache.add_node(node)
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert [n.node_name() for n in snap.node_info_list] == ["a1", "b1", "c1", "a2", "b2", "a3"]


Z0 = [zoned_node(f"node-{i}", "region-0", "zone-0") for i in range(2)]
Z1 = [zoned_node(f"node-{i}", "region-1", "zone-1") for i in range(2, 8)]
ZNODES = Z0 + Z1


@pytest.mark.parametrize("reset, steps, want", [
    # 1.18.5 (no rewind): node-3 is missing and node-0 listed twice (issue #91601);
    # the list length still equals the tree size, so no consistency error.
    (False, [[2, 3], [4, 0]], ["node-0", "node-4", "node-2", "node-0"]),
    (False, [[2, 3, 4, 5], [6, 0]], ["node-0", "node-6", "node-2", "node-0", "node-3", "node-4"]),
    # with the #93355 fix: upstream's expected orders
    (True, [[2, 3], [4, 0]], ["node-2", "node-0", "node-3", "node-4"]),
    (True, [[2, 3, 4, 5], [6, 0]], ["node-2", "node-0", "node-3", "node-4", "node-5", "node-6"]),
    (True, [[2], [3, 4], [5, 6, 0, 1]], ["node-2", "node-0", "node-3", "node-1", "node-4", "node-5", "node-6"]),
    (True, [[2, 1], [3, 4], [5, 6, 0]], ["node-2", "node-1", "node-3", "node-0", "node-4", "node-5", "node-6"]),
], ids=["1.18.5-two-zones", "1.18.5-six-nodes", "fixed-two-zones", "fixed-six-nodes", "fixed-seven-nodes",
        "fixed-seven-nodes-other-zone-order"])
def test_list_rebuild_quirk(reset, steps, want):
    """Add nodes, snapshot after each step; the last snapshot's list is checked."""
    cache, _ = new_cache(reset_exhausted_on_rebuild=reset)
    snap = Snapshot()
    for step in steps:
        for i in step:
            cache.add_node(ZNODES[i])
        cache.update_snapshot(snap)
    assert [n.node_name() for n in snap.node_info_list] == want
    assert len(snap.node_info_list) == cache.node_tree.num_nodes


def test_quirk_leaves_a_node_out_until_the_next_rebuild():
    cache, _ = new_cache()
    snap = Snapshot()
    for step in ([2, 3], [4, 0]):
        for i in step:
            cache.add_node(ZNODES[i])
        cache.update_snapshot(snap)
    assert snap.get("node-3").node_name() == "node-3"     # in the map ...
    assert "node-3" not in [n.node_name() for n in snap.node_info_list]  # ... but not in the list
    cache.add_node(ZNODES[5])
    cache.update_snapshot(snap)
    assert [n.node_name() for n in snap.node_info_list] == ["node-3", "node-4", "node-5", "node-2", "node-0"]


def _stale_setup(ghosts: bool):
    cache, _ = new_cache(keep_ghost_nodes=ghosts)
    cache.add_node(NODES[0])
    cache.add_node(NODES[1])
    cache.add_pod(PODS[5])  # placeholder NodeInfo for test-node5 (no node object)
    snap = Snapshot()
    cache.update_snapshot(snap)
    cache.remove_node(NODES[1])
    return cache, snap


def test_consistency_error_when_a_placeholder_hides_a_removal():
    """1.18.5 compares the map with len(cache.nodes), which counts node-less placeholders."""
    cache, snap = _stale_setup(ghosts=False)
    with pytest.raises(CacheError) as err:
        cache.update_snapshot(snap)
    assert str(err.value) == ("snapshot state is not consistent, length of NodeInfoList=2 not equal to length of "
                              "nodes in tree=1 , length of NodeInfoMap=2, length of nodes in cache=2, "
                              "trying to recover")
    assert [n.node_name() for n in snap.node_info_list] == ["test-node0"]  # recovered for the next cycle
    cache.update_snapshot(snap)
    assert snap.get("test-node1").node_name() == "test-node1"  # the deleted node lingers in the map


def test_no_consistency_error_with_the_later_tree_comparison():
    cache, snap = _stale_setup(ghosts=True)
    cache.update_snapshot(snap)
    assert (list(snap.node_info_map), [n.node_name() for n in snap.node_info_list]) == (
        ["test-node0"], ["test-node0"])
