"""The scheduler cache: pods (assumed or confirmed) aggregated per node, and snapshots of it.

Upstream: pkg/scheduler/internal/cache/cache.go @ v1.18.5 (New, schedulerCache,
nodeInfoListItem, moveNodeInfoToHead, removeNodeInfoFromList, Dump, UpdateSnapshot,
updateNodeInfoSnapshotList, removeDeletedNodesFromSnapshot, ListPods, FilteredList,
AssumePod, FinishBinding, ForgetPod, addPod, updatePod, removePod, AddPod, UpdatePod,
RemovePod, IsAssumedPod, GetPod, AddNode, UpdateNode, RemoveNode, addNodeImageStates,
removeNodeImageStates, run, cleanupExpiredAssumedPods, cleanupAssumedPods, expirePod)
and pkg/scheduler/scheduler.go (``durationToExpireAssumedPod`` = 30 s).

NodeInfos sit in a doubly-linked list, most recently changed first; every mutation
moves the item to the head, so walking from the head meets generations in descending
order and ``update_snapshot`` stops at the first one the snapshot already has: only
NodeInfos changed since the last cycle are cloned.

The 1.18.5 list-rebuild quirk (a lesson; upstream issue #91601). When a node was added
or removed, ``update_snapshot`` rebuilds ``node_info_list`` by calling
``node_tree.next()`` ``num_nodes`` times — but 1.18.5 does not rewind the tree first.
The round-robin cursor continues from wherever the previous rebuild stopped. With
zones of unequal size, or nodes added to a zone that was already handed out, the
cursor wraps in the middle of the rebuild (it rewinds only once every zone is
exhausted), so the new list can hold one node twice and miss another. Its length
still equals ``num_nodes``, so the consistency check does not notice; the missing
node is invisible to Filter/Score until some later rebuild happens to include it.
Fixed after 1.18.5 by rewinding first (#93355, back-ported as #93387):
``SchedulerCache(reset_exhausted_on_rebuild=True)`` shows the fixed behaviour.

RemoveNode in 1.18.5 (#86964): the NodeInfo leaves the list, the map and the node
tree at once even if pods are still on it; their podStates stay until their delete
events, a later pod update for that node is ignored (#89908, back-ported to 1.18),
and a later pod delete finds no NodeInfo and just forgets the pod state.
``keep_ghost_nodes=True`` shows the later behaviour (#93938 + #95130, 1.18.10-era):
the NodeInfo stays as a node-less "ghost" until its last pod is removed.

Deviations:
- Go maps become insertion-ordered dicts: the expiry sweep visits assumed pods in the
  order they were assumed; ``removeDeletedNodesFromSnapshot`` scans the snapshot map in
  insertion order; ``dump`` lists nodes most recently updated first.
- Errors are raised (``CacheError``); ``klog.Fatalf`` becomes ``CacheCorruptedError``.
- klog lines and the cache_size metric are replaced by ``hooks`` (``CacheEvent``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Final, Optional

from kubesched import features
from kubesched.api.core import Node, Pod
from kubesched.api.labels import Selector
from kubesched.scheduler.internal.cache.interface import (CacheCorruptedError, CacheError, Dump,
                                                          PodStateView)
from kubesched.scheduler.internal.cache.node_tree import NodeTree, NodeTreeError
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import ImageStateSummary, NodeInfo, get_pod_key
from kubesched.util.clock import Clock
from kubesched.util.loop import Handle, Loop

CLEAN_ASSUMED_PERIOD: Final = 1.0
DURATION_TO_EXPIRE_ASSUMED_POD: Final = 30.0
CORRUPTED: Final = "Schedulercache is corrupted and can badly affect scheduling decisions"


@dataclass(frozen=True, slots=True)
class CacheEvent:
    """One observable cache change or upstream log line (for the trace, not upstream)."""

    kind: str
    message: str
    pod: Optional[Pod] = None
    node_name: str = ""


@dataclass(slots=True)
class PodState:
    pod: Pod
    deadline: Optional[float] = None
    binding_finished: bool = False


@dataclass(slots=True)
class ImageState:
    size: int
    nodes: set[str] = field(default_factory=set)


@dataclass(eq=False, slots=True)
class NodeInfoListItem:
    name: str
    info: NodeInfo
    next: Optional["NodeInfoListItem"] = None
    prev: Optional["NodeInfoListItem"] = None


def _pod_name(pod: Pod) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


class SchedulerCache:
    """``schedulerCache``."""

    def __init__(self, ttl: float = DURATION_TO_EXPIRE_ASSUMED_POD,
                 period: float = CLEAN_ASSUMED_PERIOD, *, clock: Clock,
                 reset_exhausted_on_rebuild: bool = False, keep_ghost_nodes: bool = False) -> None:
        """``newSchedulerCache(ttl, period, stop)``; the flags select post-1.18.5 fixes."""
        self.ttl = ttl
        self.period = period
        self.clock = clock
        self.reset_exhausted_on_rebuild = reset_exhausted_on_rebuild
        self.keep_ghost_nodes = keep_ghost_nodes
        self.assumed_pods: dict[str, bool] = {}
        self.pod_states: dict[str, PodState] = {}
        self.nodes: dict[str, NodeInfoListItem] = {}
        self.head_node: Optional[NodeInfoListItem] = None
        self.node_tree = NodeTree()
        self.image_states: dict[str, ImageState] = {}
        self.hooks: list[Callable[[CacheEvent], None]] = []
        self._sweeper: Optional[Handle] = None

    def _emit(self, kind: str, message: str, pod: Optional[Pod] = None, node_name: str = "") -> None:
        if self.hooks:
            event = CacheEvent(kind, message, pod, node_name)
            for hook in self.hooks:
                hook(event)

    # -- the linked list ----------------------------------------------------------------
    def _move_node_info_to_head(self, name: str) -> None:
        item = self.nodes.get(name)
        if item is None or item is self.head_node:
            return
        if item.prev is not None:
            item.prev.next = item.next
        if item.next is not None:
            item.next.prev = item.prev
        if self.head_node is not None:
            self.head_node.prev = item
        item.next = self.head_node
        item.prev = None
        self.head_node = item

    def _remove_node_info_from_list(self, name: str) -> None:
        item = self.nodes.get(name)
        if item is None:
            return
        if item.prev is not None:
            item.prev.next = item.next
        if item.next is not None:
            item.next.prev = item.prev
        if item is self.head_node:
            self.head_node = item.next
        del self.nodes[name]

    def list_items(self) -> list[NodeInfoListItem]:
        """The list from the head: most recently updated NodeInfo first (not upstream)."""
        out, item = [], self.head_node
        while item is not None:
            out.append(item)
            item = item.next
        return out

    def node_infos_by_recency(self) -> list[NodeInfo]:
        return [item.info for item in self.list_items()]

    # -- snapshots ------------------------------------------------------------------------
    def dump(self) -> Dump:
        """``Dump``: clones for the debugger and the dashboard."""
        nodes = {item.name: item.info.clone() for item in self.list_items()}
        states = {key: PodStateView(s.pod.metadata.name, s.pod.metadata.namespace, s.pod.spec.node_name,
                                    self.assumed_pods.get(key, False), s.binding_finished, s.deadline)
                  for key, s in self.pod_states.items()}
        return Dump(dict(self.assumed_pods), nodes, states)

    def update_snapshot(self, snapshot: Snapshot) -> None:
        """``UpdateSnapshot``: bring ``snapshot`` up to date, cloning only changed NodeInfos."""
        update_all_lists, update_affinity = self._clone_changed_node_infos(snapshot)
        if self.head_node is not None:
            snapshot.generation = self.head_node.info.generation
        if len(snapshot.node_info_map) > self._live_node_count():
            self._remove_deleted_nodes_from_snapshot(snapshot)
            update_all_lists = True
        if update_all_lists or update_affinity:
            self._update_node_info_snapshot_list(snapshot, update_all_lists)
        if len(snapshot.node_info_list) != self.node_tree.num_nodes:
            message = (f"snapshot state is not consistent, length of NodeInfoList={len(snapshot.node_info_list)} "
                       f"not equal to length of nodes in tree={self.node_tree.num_nodes} , length of "
                       f"NodeInfoMap={len(snapshot.node_info_map)}, length of nodes in cache={len(self.nodes)}"
                       ", trying to recover")
            self._emit("Error", message)
            self._update_node_info_snapshot_list(snapshot, True)
            raise CacheError(message)

    def _clone_changed_node_infos(self, snapshot: Snapshot) -> tuple[bool, bool]:
        balanced_volumes = features.enabled("BalanceAttachedNodeVolumes")
        update_all_lists = update_affinity = False
        item = self.head_node
        while item is not None and item.info.generation > snapshot.generation:
            info = item.info
            if balanced_volumes:
                info.transient_info.allocatable_volumes_count = 0
                info.transient_info.requested_volumes = 0
            if info.node is not None:
                existing = snapshot.node_info_map.get(info.node.metadata.name)
                if existing is None:
                    update_all_lists = True
                    existing = NodeInfo()
                    snapshot.node_info_map[info.node.metadata.name] = existing
                clone = info.clone()
                if bool(existing.pods_with_affinity) != bool(clone.pods_with_affinity):
                    update_affinity = True
                _overwrite(existing, clone)  # keep the object: node_info_list points to it
            item = item.next
        return update_all_lists, update_affinity

    def _live_node_count(self) -> int:
        return self.node_tree.num_nodes if self.keep_ghost_nodes else len(self.nodes)

    def _remove_deleted_nodes_from_snapshot(self, snapshot: Snapshot) -> None:
        to_delete = len(snapshot.node_info_map) - self._live_node_count()
        for name in list(snapshot.node_info_map):
            if to_delete <= 0:
                break
            item = self.nodes.get(name)
            if item is None or (self.keep_ghost_nodes and item.info.node is None):
                del snapshot.node_info_map[name]
                to_delete -= 1

    def _update_node_info_snapshot_list(self, snapshot: Snapshot, update_all: bool) -> None:
        """``updateNodeInfoSnapshotList``: rebuild the lists (the full one in node-tree order)."""
        snapshot.have_pods_with_affinity_node_info_list = []
        if not update_all:
            snapshot.have_pods_with_affinity_node_info_list = [
                n for n in snapshot.node_info_list if n.pods_with_affinity]
            return
        snapshot.node_info_list = []
        if self.reset_exhausted_on_rebuild:
            self.node_tree.reset_exhausted()  # the #93355 fix; 1.18.5 does not rewind
        for _ in range(self.node_tree.num_nodes):
            name = self.node_tree.next()
            info = snapshot.node_info_map.get(name)
            if info is None:
                self._emit("Error", f'node "{name}" exist in nodeTree but not in NodeInfoMap, '
                                    "this should not happen.", node_name=name)
                continue
            snapshot.node_info_list.append(info)
            if info.pods_with_affinity:
                snapshot.have_pods_with_affinity_node_info_list.append(info)

    # -- pods -----------------------------------------------------------------------------
    def list_pods(self, selector: Optional[Selector] = None) -> list[Pod]:
        """``ListPods``: every cached pod (assumed ones included), most recent node first."""
        return [pod for info in self.node_infos_by_recency() for pod in info.pods
                if selector is None or selector.matches(pod.metadata.labels)]

    def pod_count(self) -> int:
        """``PodCount``: pods held in NodeInfos (including those of node-less NodeInfos)."""
        return sum(len(item.info.pods) for item in self.nodes.values())

    def node_count(self) -> int:
        """Entries in the node map (placeholders and ghosts included)."""
        return len(self.nodes)

    def assume_pod(self, pod: Pod) -> None:
        """``AssumePod``: count the pod on its node before binding is confirmed."""
        key = get_pod_key(pod)
        if key in self.pod_states:
            raise CacheError(f"pod {key} is in the cache, so can't be assumed")
        self._add_pod(pod)
        self.pod_states[key] = PodState(pod)
        self.assumed_pods[key] = True
        self._emit("Assume", f"assumed pod {_pod_name(pod)} on {pod.spec.node_name}", pod, pod.spec.node_name)

    def finish_binding(self, pod: Pod, now: Optional[float] = None) -> None:
        """``FinishBinding``: from now on the assumed pod may expire (deadline = now + ttl)."""
        key = get_pod_key(pod)
        now = self.clock.now() if now is None else now
        state = self.pod_states.get(key)
        if state is not None and self.assumed_pods.get(key, False):
            state.binding_finished = True
            state.deadline = now + self.ttl
            self._emit("FinishBinding", f"Finished binding for pod {key}. Can be expired.", pod,
                       pod.spec.node_name)

    def forget_pod(self, pod: Pod) -> None:
        """``ForgetPod``: undo an assumption (binding failed)."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and state.pod.spec.node_name != pod.spec.node_name:
            raise CacheError(f"pod {key} was assumed on {pod.spec.node_name} but assigned to "
                             f"{state.pod.spec.node_name}")
        if state is None or not self.assumed_pods.get(key, False):
            raise CacheError(f"pod {key} wasn't assumed so cannot be forgotten")
        self._remove_pod(pod)
        del self.assumed_pods[key]
        del self.pod_states[key]
        self._emit("Forget", f"forgot assumed pod {_pod_name(pod)}", pod, pod.spec.node_name)

    def _add_pod(self, pod: Pod) -> None:
        name = pod.spec.node_name
        item = self.nodes.get(name)
        if item is None:
            item = self.nodes[name] = NodeInfoListItem(name, NodeInfo())
        item.info.add_pod(pod)
        self._move_node_info_to_head(name)

    def _update_pod(self, old_pod: Pod, new_pod: Pod) -> None:
        if not self.keep_ghost_nodes and new_pod.spec.node_name not in self.nodes:
            return  # #89908: the node was deleted already
        self._remove_pod(old_pod)
        self._add_pod(new_pod)

    def _remove_pod(self, pod: Pod) -> None:
        name = pod.spec.node_name
        item = self.nodes.get(name)
        if item is None:
            return  # the node was removed; its pods count as removed already
        try:
            item.info.remove_pod(pod)
        except LookupError as err:
            raise CacheError(str(err)) from None
        if self.keep_ghost_nodes and not item.info.pods and item.info.node is None:
            self._remove_node_info_from_list(name)
        else:
            self._move_node_info_to_head(name)

    def add_pod(self, pod: Pod) -> None:
        """``AddPod``: the informer saw the pod assigned: confirm it, or add it back."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and self.assumed_pods.get(key, False):
            if state.pod.spec.node_name != pod.spec.node_name:
                self._emit("Warning", f"Pod {key} was assumed to be on {pod.spec.node_name} but got added "
                                      f"to {state.pod.spec.node_name}", pod, pod.spec.node_name)
                try:
                    self._remove_pod(state.pod)
                except CacheError as err:
                    self._emit("Error", f"removing pod error: {err}", pod)
                self._add_pod(pod)
            del self.assumed_pods[key]
            state.deadline = None
            state.pod = pod
            self._emit("Confirm", f"confirmed pod {_pod_name(pod)} on {pod.spec.node_name}", pod,
                       pod.spec.node_name)
        elif state is None:
            self._add_pod(pod)
            self.pod_states[key] = PodState(pod)
            self._emit("Add", f"added pod {_pod_name(pod)} on {pod.spec.node_name}", pod, pod.spec.node_name)
        else:
            raise CacheError(f"pod {key} was already in added state")

    def update_pod(self, old_pod: Pod, new_pod: Pod) -> None:
        """``UpdatePod``: only for added pods; the node must not change."""
        key = get_pod_key(old_pod)
        state = self.pod_states.get(key)
        if state is None or self.assumed_pods.get(key, False):
            raise CacheError(f"pod {key} is not added to scheduler cache, so cannot be updated")
        if state.pod.spec.node_name != new_pod.spec.node_name:
            raise CacheCorruptedError(f"Pod {key} updated on a different node than previously added to. {CORRUPTED}")
        self._update_pod(old_pod, new_pod)
        state.pod = new_pod
        self._emit("Update", f"updated pod {_pod_name(new_pod)}", new_pod, new_pod.spec.node_name)

    def remove_pod(self, pod: Pod) -> None:
        """``RemovePod``: only for added pods."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is None or self.assumed_pods.get(key, False):
            raise CacheError(f"pod {key} is not found in scheduler cache, so cannot be removed from it")
        if state.pod.spec.node_name != pod.spec.node_name:
            raise CacheCorruptedError(f"Pod {key} was assumed to be on {pod.spec.node_name} but got added to "
                                      f"{state.pod.spec.node_name}. {CORRUPTED}")
        self._remove_pod(state.pod)
        del self.pod_states[key]
        self._emit("Remove", f"removed pod {_pod_name(pod)}", pod, pod.spec.node_name)

    def is_assumed_pod(self, pod: Pod) -> bool:
        return self.assumed_pods.get(get_pod_key(pod), False)

    def get_pod(self, pod: Pod) -> Pod:
        """``GetPod``: the cached copy (its node may be gone already)."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is None:
            raise CacheError(f"pod {key} does not exist in scheduler cache")
        return state.pod

    # -- nodes ----------------------------------------------------------------------------
    def add_node(self, node: Node) -> None:
        """``AddNode``."""
        name = node.metadata.name
        item = self.nodes.get(name)
        if item is None:
            item = self.nodes[name] = NodeInfoListItem(name, NodeInfo())
        else:
            self._remove_node_image_states(item.info.node)
        self._move_node_info_to_head(name)
        self.node_tree.add_node(node)
        self._add_node_image_states(node, item.info)
        item.info.set_node(node)
        self._emit("AddNode", f"added node {name}", node_name=name)

    def update_node(self, old_node: Optional[Node], new_node: Node) -> None:
        """``UpdateNode``: (re)set the node object; re-file it in the tree if its zone changed."""
        name = new_node.metadata.name
        item = self.nodes.get(name)
        if item is None:
            item = self.nodes[name] = NodeInfoListItem(name, NodeInfo())
            self.node_tree.add_node(new_node)
        else:
            self._remove_node_image_states(item.info.node)
        self._move_node_info_to_head(name)
        self.node_tree.update_node(old_node, new_node)
        self._add_node_image_states(new_node, item.info)
        item.info.set_node(new_node)
        self._emit("UpdateNode", f"updated node {name}", node_name=name)

    def remove_node(self, node: Node) -> None:
        """``RemoveNode`` (1.18.5: drop the NodeInfo at once; see the module docstring)."""
        name = node.metadata.name
        item = self.nodes.get(name)
        if item is None:
            raise CacheError(f"node {name} is not found")
        if not self.keep_ghost_nodes:
            self._remove_node_info_from_list(name)
        else:
            item.info.remove_node()
            if item.info.pods:
                self._move_node_info_to_head(name)
            else:
                self._remove_node_info_from_list(name)
        try:
            self.node_tree.remove_node(node)
        except NodeTreeError as err:
            raise CacheError(str(err)) from None
        self._remove_node_image_states(node)
        self._emit("RemoveNode", f"removed node {name}", node_name=name)

    def _add_node_image_states(self, node: Node, info: NodeInfo) -> None:
        summaries: dict[str, ImageStateSummary] = {}
        for image in node.status.images:
            for name in image.names:
                state = self.image_states.get(name)
                if state is None:
                    state = self.image_states[name] = ImageState(image.size_bytes, {node.metadata.name})
                else:
                    state.nodes.add(node.metadata.name)
                if name not in summaries:
                    summaries[name] = ImageStateSummary(state.size, len(state.nodes))
        info.image_states = summaries

    def _remove_node_image_states(self, node: Optional[Node]) -> None:
        if node is None:
            return
        for image in node.status.images:
            for name in image.names:
                state = self.image_states.get(name)
                if state is not None:
                    state.nodes.discard(node.metadata.name)
                    if not state.nodes:
                        del self.image_states[name]

    # -- expiry -----------------------------------------------------------------------------
    def run(self, loop: Loop, *, priority: int = 0) -> Handle:
        """``run``: sweep expired assumed pods now and every ``period`` (``wait.Until``)."""
        self._sweeper = loop.every(self.period, self.cleanup_expired_assumed_pods, priority=priority,
                                   label="cleanupExpiredAssumedPods", idle=lambda: not self.assumed_pods)
        return self._sweeper

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    def cleanup_expired_assumed_pods(self) -> None:
        self.cleanup_assumed_pods(self.clock.now())

    def cleanup_assumed_pods(self, now: float) -> None:
        """``cleanupAssumedPods``: drop assumed pods whose binding finished and deadline passed."""
        for key in list(self.assumed_pods):
            state = self.pod_states.get(key)
            if state is None:
                raise CacheCorruptedError("Key found in assumed set but not in podStates. "
                                          "Potentially a logical error.")
            if not state.binding_finished:
                continue  # "Couldn't expire cache for pod ... Binding is still in progress."
            if state.deadline is not None and now > state.deadline:
                self._emit("Expire", f"Pod {_pod_name(state.pod)} expired", state.pod, state.pod.spec.node_name)
                try:
                    self._expire_pod(key, state)
                except CacheError as err:
                    self._emit("Error", f"ExpirePod failed for {key}: {err}", state.pod)

    def _expire_pod(self, key: str, state: PodState) -> None:
        self._remove_pod(state.pod)
        del self.assumed_pods[key]
        del self.pod_states[key]


def new(ttl: float, loop: Loop, **options: bool) -> SchedulerCache:
    """``New(ttl, stop)``: a cache whose expiry sweep already runs on ``loop``."""
    cache = SchedulerCache(ttl, CLEAN_ASSUMED_PERIOD, clock=loop, **options)
    cache.run(loop)
    return cache


def _overwrite(target: NodeInfo, source: NodeInfo) -> None:
    """Go's ``*existing = *clone``: copy every field, keeping ``target``'s identity."""
    for name in NodeInfo.__slots__:
        setattr(target, name, getattr(source, name))
