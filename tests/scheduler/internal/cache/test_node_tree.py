"""NodeTree: zones, add/remove/update, round-robin next().

Upstream: TestNodeTree_AddNode, TestNodeTree_RemoveNode, TestNodeTree_UpdateNode,
TestNodeTree_Next, TestNodeTreeMultiOperations in internal/cache/node_tree_test.go.
"""

from __future__ import annotations

import pytest

from tests.scheduler.internal.cache.cache_fixtures import REGION, REGION_STABLE, ZONE, ZONE_STABLE, make_node
from kubesched.scheduler.internal.cache.node_tree import NodeTree, NodeTreeError, get_zone_key

ALL_NODES = [
    make_node("node-0"),
    make_node("node-1", {REGION: "region-1"}),
    make_node("node-2", {ZONE: "zone-2"}),
    make_node("node-3", {REGION: "region-1", ZONE: "zone-2"}),
    make_node("node-4", {REGION: "region-1", ZONE: "zone-2"}),
    make_node("node-5", {REGION: "region-1", ZONE: "zone-3"}),
    make_node("node-6", {REGION: "region-2", ZONE: "zone-2"}),
    make_node("node-7", {REGION: "region-2", ZONE: "zone-2"}),
    make_node("node-8", {REGION: "region-2", ZONE: "zone-2"}),
    make_node("node-9", {REGION_STABLE: "region-2", ZONE_STABLE: "zone-2", REGION: "region-2", ZONE: "zone-2"}),
    make_node("node-10", {REGION: "region-2", ZONE: "zone-3"}),
]


def tree_of(nt: NodeTree) -> dict[str, list[str]]:
    return {zone: list(array.nodes) for zone, array in nt.tree.items()}


def verify(nt: NodeTree, expected: dict[str, list[str]]) -> None:
    assert tree_of(nt) == expected
    assert nt.num_nodes == sum(len(v) for v in expected.values())
    assert sorted(nt.zones) == sorted(expected)
    assert all(a.last_index == 0 for a in nt.tree.values())


@pytest.mark.parametrize("labels, key", [
    ({}, ""),
    ({REGION: "r"}, "r:\x00:"),
    ({ZONE: "z"}, ":\x00:z"),
    ({REGION: "r", ZONE: "z"}, "r:\x00:z"),
    ({REGION_STABLE: "r2", ZONE_STABLE: "z2"}, "r2:\x00:z2"),
    ({REGION_STABLE: "stable", ZONE_STABLE: "stable", REGION: "beta", ZONE: "beta"}, "beta:\x00:beta"),
    ({REGION: "", ZONE: ""}, ""),
], ids=["none", "region", "zone", "both", "stable", "beta-preferred", "empty-values"])
def test_get_zone_key(labels, key):
    assert get_zone_key(make_node("n", labels)) == key


@pytest.mark.parametrize("name, nodes, expected", [
    ("single node no labels", ALL_NODES[:1], {"": ["node-0"]}),
    ("mix of nodes with and without proper labels", ALL_NODES[:4],
     {"": ["node-0"], "region-1:\x00:": ["node-1"], ":\x00:zone-2": ["node-2"], "region-1:\x00:zone-2": ["node-3"]}),
    ("mix of nodes with and without proper labels and some zones with multiple nodes", ALL_NODES[:7],
     {"": ["node-0"], "region-1:\x00:": ["node-1"], ":\x00:zone-2": ["node-2"],
      "region-1:\x00:zone-2": ["node-3", "node-4"], "region-1:\x00:zone-3": ["node-5"],
      "region-2:\x00:zone-2": ["node-6"]}),
    ("nodes also using deprecated zone/region label", ALL_NODES[9:],
     {"region-2:\x00:zone-2": ["node-9"], "region-2:\x00:zone-3": ["node-10"]}),
    ("adding a node twice is ignored", [ALL_NODES[3], ALL_NODES[3]], {"region-1:\x00:zone-2": ["node-3"]}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_add_node(name, nodes, expected):
    nt = NodeTree()
    for n in nodes:
        nt.add_node(n)
    verify(nt, expected)


@pytest.mark.parametrize("name, existing, to_remove, expected, expect_error", [
    ("remove a single node with no labels", ALL_NODES[:7], ALL_NODES[:1],
     {"region-1:\x00:": ["node-1"], ":\x00:zone-2": ["node-2"], "region-1:\x00:zone-2": ["node-3", "node-4"],
      "region-1:\x00:zone-3": ["node-5"], "region-2:\x00:zone-2": ["node-6"]}, False),
    ("remove a few nodes including one from a zone with multiple nodes", ALL_NODES[:7], ALL_NODES[1:4],
     {"": ["node-0"], "region-1:\x00:zone-2": ["node-4"], "region-1:\x00:zone-3": ["node-5"],
      "region-2:\x00:zone-2": ["node-6"]}, False),
    ("remove all nodes", ALL_NODES[:7], ALL_NODES[:7], {}, False),
    ("remove non-existing node", [], ALL_NODES[:5], {}, True),
], ids=lambda v: v if isinstance(v, str) else None)
def test_remove_node(name, existing, to_remove, expected, expect_error):
    nt = NodeTree(existing)
    for n in to_remove:
        if expect_error:
            with pytest.raises(NodeTreeError, match="was not found"):
                nt.remove_node(n)
        else:
            nt.remove_node(n)
    verify(nt, expected)


def test_remove_error_message():
    with pytest.raises(NodeTreeError) as err:
        NodeTree().remove_node(ALL_NODES[3])
    assert str(err.value) == 'node "node-3" in group "region-1:\x00:zone-2" was not found'


@pytest.mark.parametrize("name, existing, new, expected", [
    ("update a node without label", ALL_NODES[:7], make_node("node-0", {REGION: "region-1", ZONE: "zone-2"}),
     {"region-1:\x00:": ["node-1"], ":\x00:zone-2": ["node-2"],
      "region-1:\x00:zone-2": ["node-3", "node-4", "node-0"], "region-1:\x00:zone-3": ["node-5"],
      "region-2:\x00:zone-2": ["node-6"]}),
    ("update the only existing node", ALL_NODES[:1], make_node("node-0", {REGION: "region-1", ZONE: "zone-2"}),
     {"region-1:\x00:zone-2": ["node-0"]}),
    ("update non-existing node", ALL_NODES[:1], make_node("node-new", {REGION: "region-1", ZONE: "zone-2"}),
     {"": ["node-0"], "region-1:\x00:zone-2": ["node-new"]}),
    ("same zone is a no-op", ALL_NODES[:7], make_node("node-3", {REGION: "region-1", ZONE: "zone-2", "x": "y"}),
     {"": ["node-0"], "region-1:\x00:": ["node-1"], ":\x00:zone-2": ["node-2"],
      "region-1:\x00:zone-2": ["node-3", "node-4"], "region-1:\x00:zone-3": ["node-5"],
      "region-2:\x00:zone-2": ["node-6"]}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_update_node(name, existing, new, expected):
    nt = NodeTree(existing)
    old = next((n for n in ALL_NODES if n.metadata.name == new.metadata.name), make_node("nonexisting-node"))
    nt.update_node(old, new)
    verify(nt, expected)


@pytest.mark.parametrize("name, nodes, runs, expected", [
    ("empty tree", [], 2, ["", ""]),
    ("should go back to the first node after finishing a round", ALL_NODES[:1], 2, ["node-0", "node-0"]),
    ("should go back to the first node after going over all nodes", ALL_NODES[:4], 5,
     ["node-0", "node-1", "node-2", "node-3", "node-0"]),
    ("should go to all zones before going to the second nodes in the same zone", ALL_NODES[:9], 11,
     ["node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4", "node-7", "node-8", "node-0", "node-1"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_next(name, nodes, runs, expected):
    nt = NodeTree(nodes)
    assert [nt.next() for _ in range(runs)] == expected


def _zones(counts: dict[str, int]) -> list:
    """Nodes a-1.., b-1.. for zones given as {zone: count}, added zone by zone."""
    return [make_node(f"{z}{i}", {REGION: "r", ZONE: z}) for z, n in counts.items() for i in range(1, n + 1)]


@pytest.mark.parametrize("counts, expected", [
    ({"a": 3, "b": 2, "c": 1}, ["a1", "b1", "c1", "a2", "b2", "a3"]),
    ({"a": 1, "b": 1, "c": 1}, ["a1", "b1", "c1"]),
    ({"a": 4}, ["a1", "a2", "a3", "a4"]),
    ({"a": 1, "b": 3}, ["a1", "b1", "b2", "b3"]),
], ids=["3-2-1", "1-1-1", "one-zone", "1-3"])
def test_zone_interleaving(counts, expected):
    nt = NodeTree(_zones(counts))
    assert [nt.next() for _ in range(nt.num_nodes)] == expected
    assert nt.list_order() == [n.metadata.name for n in _zones(counts)]


@pytest.mark.parametrize("name, to_add, to_remove, ops, expected", [
    ("add and remove all nodes between two Next operations", ALL_NODES[2:9], ALL_NODES[2:9],
     ["add", "add", "next", "add", "remove", "remove", "remove", "next"], ["node-2", ""]),
    ("add and remove some nodes between two Next operations", ALL_NODES[2:9], ALL_NODES[2:9],
     ["add", "add", "next", "add", "remove", "remove", "next"], ["node-2", "node-4"]),
    ("remove nodes already iterated on and add new nodes", ALL_NODES[2:9], ALL_NODES[2:9],
     ["add", "add", "next", "next", "add", "remove", "remove", "next"], ["node-2", "node-3", "node-4"]),
    # Upstream builds this case's nodes with Go appends that alias allNodes; the
    # effective list is node-4, node-6, node-7, node-7 (ignored twice), node-8, node-3.
    ("add more nodes to an exhausted zone",
     [ALL_NODES[4], ALL_NODES[6], ALL_NODES[7], ALL_NODES[7], ALL_NODES[8], ALL_NODES[3]], [],
     ["add", "add", "add", "add", "add", "next", "next", "next", "next", "add", "next", "next", "next"],
     ["node-4", "node-6", "node-7", "node-8", "node-3", "node-4", "node-6"]),
    ("remove zone and add new to ensure exhausted is reset correctly", ALL_NODES[3:5] + ALL_NODES[6:8],
     ALL_NODES[3:5], ["add", "add", "next", "next", "remove", "add", "add", "next", "next", "remove", "next", "next"],
     ["node-3", "node-4", "node-6", "node-7", "node-6", "node-7"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_multi_operations(name, to_add, to_remove, ops, expected):
    nt = NodeTree()
    adds, removes, out = iter(to_add), iter(to_remove), []
    for op in ops:
        if op == "add":
            nt.add_node(next(adds))
        elif op == "remove":
            nt.remove_node(next(removes))
        else:
            out.append(nt.next())
    assert out == expected


def test_next_after_update_moves_node_to_new_zone():
    """A node re-filed into another zone is handed out from that zone's slot."""
    nt = NodeTree(_zones({"a": 2, "b": 2}))
    assert [nt.next() for _ in range(2)] == ["a1", "b1"]
    nt.update_node(make_node("a2", {REGION: "r", ZONE: "a"}), make_node("a2", {REGION: "r", ZONE: "b"}))
    assert tree_of(nt) == {"r:\x00:a": ["a1"], "r:\x00:b": ["b1", "b2", "a2"]}
    assert [nt.next() for _ in range(4)] == ["b2", "a2", "a1", "b1"]
