"""Node names grouped by zone, iterated round-robin across zones.

Upstream: pkg/scheduler/internal/cache/node_tree.go @ v1.18.5 (nodeTree, nodeArray.next,
newNodeTree, addNode, removeNode, removeZone, updateNode, resetExhausted, next) and
pkg/util/node/node.go (GetZoneKey, in kubesched.scheduler.util.node).

``next()`` visits zone 1's first node, zone 2's first node, ... then every zone's second
node, and so on: a list built by calling it ``num_nodes`` times interleaves zones, so
the first feasible nodes the scheduler finds are spread across zones. A zone that has
run out is skipped; when every zone has run out, all zones rewind together. The
iterator position (``zone_index`` and each zone's ``last_index``) survives between
calls and across add/remove: the scheduler cache relies on (and, in 1.18.5, suffers
from) that — see ``SchedulerCache.update_snapshot``.

Deviation: the "nodeArray is empty" and "already exist" / "was not found" klog lines
are not printed; ``remove_node`` raises ``NodeTreeError`` where upstream returns an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from kubesched.api.core import Node
from kubesched.scheduler.util.node import get_zone_key  # noqa: F401  (re-exported: GetZoneKey)



class NodeTreeError(LookupError):
    """``removeNode`` of a node the tree does not hold."""


@dataclass(slots=True)
class NodeArray:
    """The node names of one zone and the index of the next one to hand out."""

    nodes: list[str] = field(default_factory=list)
    last_index: int = 0

    def next(self) -> tuple[str, bool]:
        """``nodeArray.next``: (name, exhausted)."""
        if not self.nodes:
            return "", False
        if self.last_index >= len(self.nodes):
            return "", True
        name = self.nodes[self.last_index]
        self.last_index += 1
        return name, False


class NodeTree:
    """``nodeTree``: zone key → NodeArray, zones in insertion order."""

    __slots__ = ("tree", "zones", "zone_index", "num_nodes")

    def __init__(self, nodes: Optional[Iterable[Node]] = None) -> None:
        """``newNodeTree(nodes)``."""
        self.tree: dict[str, NodeArray] = {}
        self.zones: list[str] = []
        self.zone_index = 0
        self.num_nodes = 0
        for node in nodes or ():
            self.add_node(node)

    def add_node(self, node: Node) -> None:
        """Append to its zone (new zones go last); a name already there is ignored."""
        zone = get_zone_key(node)
        name = node.metadata.name
        array = self.tree.get(zone)
        if array is not None:
            if name in array.nodes:
                return
            array.nodes.append(name)
        else:
            self.zones.append(zone)
            self.tree[zone] = NodeArray([name], 0)
        self.num_nodes += 1

    def remove_node(self, node: Node) -> None:
        """Drop the node (and its zone once empty); raise if the zone does not hold it."""
        zone = get_zone_key(node)
        array = self.tree.get(zone)
        if array is not None and node.metadata.name in array.nodes:
            array.nodes.remove(node.metadata.name)
            if not array.nodes:
                self._remove_zone(zone)
            self.num_nodes -= 1
            return
        raise NodeTreeError(f'node "{node.metadata.name}" in group "{zone}" was not found')

    def _remove_zone(self, zone: str) -> None:
        del self.tree[zone]
        self.zones.remove(zone)

    def update_node(self, old: Optional[Node], new: Node) -> None:
        """Re-file the node only when its zone key changed (old may be None)."""
        old_zone = get_zone_key(old) if old is not None else ""
        if old_zone == get_zone_key(new):
            return
        if old is not None:
            try:
                self.remove_node(old)
            except NodeTreeError:
                pass  # upstream ignores whether the old node existed
        self.add_node(new)

    def reset_exhausted(self) -> None:
        """Rewind every zone and the zone cursor."""
        for array in self.tree.values():
            array.last_index = 0
        self.zone_index = 0

    def next(self) -> str:
        """The next node name, round-robin over zones; "" for an empty tree."""
        if not self.zones:
            return ""
        exhausted_zones = 0
        while True:
            if self.zone_index >= len(self.zones):
                self.zone_index = 0
            zone = self.zones[self.zone_index]
            self.zone_index += 1
            # An exhausted zone is still asked: nodes added to it later are handed out.
            name, exhausted = self.tree[zone].next()
            if not exhausted:
                return name
            exhausted_zones += 1
            if exhausted_zones >= len(self.zones):
                self.reset_exhausted()

    def list_order(self) -> list[str]:
        """Every node name, zone by zone (for the dashboard; does not move the cursor)."""
        return [name for zone in self.zones for name in self.tree[zone].nodes]
