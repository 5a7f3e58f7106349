"""An immutable-per-cycle view of the cache: NodeInfos by name and in list order.

Upstream: pkg/scheduler/internal/cache/snapshot.go (Snapshot, NewEmptySnapshot,
NewSnapshot, createNodeInfoMap, getNodeImageStates, createImageExistenceMap,
NodeInfos().List/HavePodsWithAffinityList/Get, Pods().List/FilteredList, NumNodes).

Deviation: ``NewSnapshot`` builds its list by ranging over a Go map (random order);
here the list follows the given nodes' order, then node-less NodeInfos (pods whose
nodeName matches no node) in the order their first pod appeared.
The scheduler cache's incremental ``UpdateSnapshot`` fills the same fields.
"""

from __future__ import annotations

from typing import Iterable

from kubesched.api.core import Node, Pod
from kubesched.api.labels import Selector
from kubesched.scheduler.listers.listers import NodeInfoNotFoundError, PodFilter
from kubesched.scheduler.nodeinfo.node_info import ImageStateSummary, NodeInfo


class Snapshot:
    def __init__(self) -> None:
        self.node_info_map: dict[str, NodeInfo] = {}
        self.node_info_list: list[NodeInfo] = []
        self.have_pods_with_affinity_node_info_list: list[NodeInfo] = []
        self.generation = 0

    @classmethod
    def new(cls, pods: Iterable[Pod], nodes: Iterable[Node]) -> "Snapshot":
        """``NewSnapshot(pods, nodes)``."""
        nodes = list(nodes)
        snap = cls()
        snap.node_info_map = create_node_info_map(list(pods), nodes)
        names = [n.metadata.name for n in nodes]
        order = names + [k for k in snap.node_info_map if k not in set(names)]
        seen: set[str] = set()
        for name in order:
            if name in seen or name not in snap.node_info_map:
                continue
            seen.add(name)
            info = snap.node_info_map[name]
            snap.node_info_list.append(info)
            if info.pods_with_affinity:
                snap.have_pods_with_affinity_node_info_list.append(info)
        return snap

    # SharedLister
    def pods(self) -> "Snapshot":
        return _PodLister(self)

    def node_infos(self) -> "Snapshot":
        return self

    # NodeInfoLister
    def list(self) -> list[NodeInfo]:
        return self.node_info_list

    def have_pods_with_affinity_list(self) -> list[NodeInfo]:
        return self.have_pods_with_affinity_node_info_list

    def get(self, node_name: str) -> NodeInfo:
        try:
            return self.node_info_map[node_name]
        except KeyError:
            raise NodeInfoNotFoundError(f'nodeinfo not found for node name "{node_name}"') from None

    def num_nodes(self) -> int:
        return len(self.node_info_list)


class _PodLister:
    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    def list(self, selector: Selector) -> list[Pod]:
        return self.filtered_list(lambda _pod: True, selector)

    def filtered_list(self, pod_filter: PodFilter, selector: Selector) -> list[Pod]:
        return [pod for info in self._snapshot.node_info_list for pod in info.pods
                if pod_filter(pod) and selector.matches(pod.metadata.labels)]


def create_node_info_map(pods: list[Pod], nodes: list[Node]) -> dict[str, NodeInfo]:
    infos: dict[str, NodeInfo] = {}
    for pod in pods:
        infos.setdefault(pod.spec.node_name, NodeInfo()).add_pod(pod)
    existence = create_image_existence_map(nodes)
    for node in nodes:
        info = infos.setdefault(node.metadata.name, NodeInfo())
        info.set_node(node)
        info.image_states = get_node_image_states(node, existence)
    return infos


def get_node_image_states(node: Node, existence: dict[str, set[str]]) -> dict[str, ImageStateSummary]:
    return {name: ImageStateSummary(image.size_bytes, len(existence.get(name, ())))
            for image in node.status.images for name in image.names}


def create_image_existence_map(nodes: list[Node]) -> dict[str, set[str]]:
    existence: dict[str, set[str]] = {}
    for node in nodes:
        for image in node.status.images:
            for name in image.names:
                existence.setdefault(name, set()).add(node.metadata.name)
    return existence


def new_empty_snapshot() -> Snapshot:
    """``NewEmptySnapshot``: what the scheduler starts with; the cache's ``update_snapshot`` fills it."""
    return Snapshot()
