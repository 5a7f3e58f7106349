"""What the simulated cluster and the leading scheduler look like at one moment (``SimState``).

Upstream: no counterpart. The pieces mirror what upstream exposes: the scheduling queue's
three sub-queues with each PodInfo's attempts, timestamp and backoff expiry
(pkg/scheduler/internal/queue/scheduling_queue.go), the scheduler cache's NodeInfo
(requested vs allocatable, pkg/scheduler/nodeinfo/node_info.go), pods as the API server
stores them, and Events as ``kubectl describe`` lists them.

``capture(...)`` builds a frozen ``SimState`` from live engine objects; it copies plain
values only (strings, ints, tuples), never engine objects, so a state is safe to keep.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kubesched.api.core import Node, Pod
from kubesched.api.pod_util import get_pod_priority

PHASE_PENDING = "Pending"
PHASE_BOUND = "Bound"
PHASE_RUNNING = "Running"
PHASE_SUCCEEDED = "Succeeded"
PHASE_DELETED = "Deleted"


@dataclass(frozen=True, slots=True)
class QueuedPod:
    """A pod waiting in one of the scheduling queue's sub-queues."""

    namespace: str
    name: str
    queue: str                     # activeQ | podBackoffQ | unschedulableQ
    attempts: int
    timestamp: float
    backoff_expiry: float          # timestamp + backoff (when podBackoffQ would release it)
    priority: int

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class QueueState:
    active_q: tuple[QueuedPod, ...] = ()          # in pop order
    pod_backoff_q: tuple[QueuedPod, ...] = ()     # in backoff-expiry order
    unschedulable_q: tuple[QueuedPod, ...] = ()   # by namespace/name
    nominated: tuple[tuple[str, str], ...] = ()   # (pod, node)

    def find(self, key: str) -> QueuedPod | None:
        for pod in self.active_q + self.pod_backoff_q + self.unschedulable_q:
            if pod.key == key:
                return pod
        return None

    def __len__(self) -> int:
        return len(self.active_q) + len(self.pod_backoff_q) + len(self.unschedulable_q)


@dataclass(frozen=True, slots=True)
class NodeState:
    """A node as the leader's cache (NodeInfo) sees it; resources as canonical quantities."""

    name: str
    labels: tuple[tuple[str, str], ...]
    taints: tuple[str, ...]                        # "key=value:Effect"
    unschedulable: bool
    allocatable: tuple[tuple[str, str], ...]      # cpu, memory, pods, ephemeral-storage, scalars
    requested: tuple[tuple[str, str], ...]
    pods: tuple[str, ...]                          # "namespace/name", assumed pods included

    def allocatable_of(self, resource: str) -> str:
        return dict(self.allocatable).get(resource, "0")

    def requested_of(self, resource: str) -> str:
        return dict(self.requested).get(resource, "0")


@dataclass(frozen=True, slots=True)
class PodState:
    namespace: str
    name: str
    phase: str                     # Pending | Bound | Running | Deleted
    node: str
    nominated_node: str
    attempts: int
    bound_at: float | None
    queue: str = ""                # the sub-queue it waits in, if any
    priority: int = 0
    terminating: bool = False      # deleted with a grace period that has not run out (deletionTimestamp set)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class EventState:
    """One stored Event, as ``kubectl describe`` lists it."""

    type: str
    reason: str
    object: str                    # "Pod default/web-1"
    message: str
    count: int
    first_timestamp: float | None
    last_timestamp: float | None
    source: str                    # "default-scheduler" / component, host


@dataclass(frozen=True, slots=True)
class ReplicaState:
    hostname: str
    identity: str
    alive: bool
    leading: bool


@dataclass(frozen=True, slots=True)
class SimState:
    time: float
    cycle: int
    leader: str                    # the identity of the leading replica ("" if none)
    queues: QueueState
    nodes: tuple[NodeState, ...]
    pods: tuple[PodState, ...]
    events: tuple[EventState, ...]
    replicas: tuple[ReplicaState, ...]

    def pod(self, namespace: str, name: str) -> PodState | None:
        return next((p for p in self.pods if p.namespace == namespace and p.name == name), None)

    def node(self, name: str) -> NodeState | None:
        return next((n for n in self.nodes if n.name == name), None)

    def placements(self) -> dict[str, str]:
        """``namespace/name`` → node for every pod that is bound, running or has run to completion there."""
        return {p.key: p.node for p in self.pods if p.phase in (PHASE_BOUND, PHASE_RUNNING, PHASE_SUCCEEDED)}


# -- capture -----------------------------------------------------------------------------------
def _taint(taint: Any) -> str:
    value = f"={taint.value}" if taint.value else ""
    return f"{taint.key}{value}:{taint.effect}"


def _resources(resource: Any) -> tuple[tuple[str, str], ...]:
    return tuple((name, str(q)) for name, q in resource.resource_list().items())


def _queued(info: Any, queue: str, sched_queue: Any) -> QueuedPod:
    meta = info.pod.metadata
    return QueuedPod(meta.namespace, meta.name, queue, info.attempts, info.timestamp,
                     sched_queue.get_backoff_time(info), get_pod_priority(info.pod))


def capture_queues(queue: Any) -> QueueState:
    """The three sub-queues (activeQ and podBackoffQ in pop order: priority, then the PodInfo stamp
    ``(timestamp, seq)``; backoff expiry, then ``seq``)."""
    if queue is None:
        return QueueState()
    active = [_queued(i, "activeQ", queue) for i in sorted(
        queue.active_q.list(), key=lambda i: (-get_pod_priority(i.pod), i.timestamp, i.seq))]
    backoff = [_queued(i, "podBackoffQ", queue) for i in sorted(
        queue.pod_backoff_q.list(), key=lambda i: (queue.get_backoff_time(i), i.seq))]
    unsched = sorted((_queued(i, "unschedulableQ", queue) for i in queue.unschedulable_q.pod_info_map.values()),
                     key=lambda q: q.key)
    nominated = tuple(sorted(queue.nominated_pods.nominated_pod_to_node.items()))
    return QueueState(tuple(active), tuple(backoff), tuple(unsched), nominated)


def capture_nodes(api: Any, cache: Any, memo: dict[str, tuple[Any, Any, int, NodeState]] | None = None,
                  ) -> tuple[NodeState, ...]:
    """Every node stored in the API server, with the cache's view of its allocations.

    ``memo`` (name → (node object, NodeInfo, generation, NodeState)) reuses a node's summary
    while neither the stored Node nor its NodeInfo changed.
    """
    items = cache.nodes if cache is not None else {}
    memo = {} if memo is None else memo
    out: list[NodeState] = []
    for node in api.list("Node"):
        name = node.metadata.name
        item = items.get(name)
        info = item.info if item is not None else None
        generation = info.generation if info is not None else -1
        known = memo.get(name)
        if known is not None and known[0] is node and known[1] is info and known[2] == generation:
            out.append(known[3])
            continue
        state = _node_state(node, info)
        memo[name] = (node, info, generation, state)
        out.append(state)
    return tuple(out)


def _node_state(node: Node, info: Any) -> NodeState:
    requested = _resources(info.requested_resource) if info is not None else ()
    allocatable = (_resources(info.allocatable_resource) if info is not None and info.node is not None
                   else tuple((k, str(v)) for k, v in node.status.allocatable.items()))
    pods = tuple(sorted(f"{p.metadata.namespace}/{p.metadata.name}" for p in info.pods)) if info else ()
    return NodeState(node.metadata.name, tuple(sorted(node.metadata.labels.items())),
                     tuple(_taint(t) for t in node.spec.taints), bool(node.spec.unschedulable),
                     allocatable, requested, pods)


def capture_pods(api: Any, queues: QueueState, attempts: Mapping[str, int], bound_at: Mapping[str, float],
                 deleted: Iterable[Pod], memo: dict[str, tuple[Any, tuple[Any, ...], PodState]] | None = None,
                 ) -> tuple[PodState, ...]:
    """Every pod stored (and every deleted one). ``memo`` (key → (pod object, inputs, PodState))
    reuses a pod's state while its stored object and queue position are unchanged, so
    successive checkpoints share what did not change."""
    memo = {} if memo is None else memo
    queued = {q.key: q for q in queues.active_q + queues.pod_backoff_q + queues.unschedulable_q}
    out = [_pod_state(pod, queued, attempts, bound_at, None, memo) for pod in api.list("Pod")]
    out += [_pod_state(pod, queued, attempts, bound_at, PHASE_DELETED, memo) for pod in deleted]
    return tuple(sorted(out, key=lambda p: (p.namespace, p.name, p.phase == PHASE_DELETED)))


def _pod_state(pod: Pod, queued_pods: Mapping[str, QueuedPod], attempts: Mapping[str, int],
               bound_at: Mapping[str, float], phase: str | None,
               memo: dict[str, tuple[Any, tuple[Any, ...], PodState]]) -> PodState:
    meta = pod.metadata
    key = f"{meta.namespace}/{meta.name}"
    queued = queued_pods.get(key) if phase is None else None
    count = queued.attempts if queued is not None else attempts.get(key, 0)
    inputs = (phase, queued.queue if queued else "", count, bound_at.get(key))
    known = memo.get(key)
    if known is not None and known[0] is pod and known[1] == inputs:
        return known[2]
    if phase is None:
        if pod.status.phase in (PHASE_RUNNING, PHASE_SUCCEEDED):
            phase = pod.status.phase
        elif pod.spec.node_name:
            phase = PHASE_BOUND
        else:
            phase = PHASE_PENDING
    state = PodState(meta.namespace, meta.name, phase, pod.spec.node_name, pod.status.nominated_node_name,
                     count, bound_at.get(key), queued.queue if queued else "", get_pod_priority(pod),
                     phase != PHASE_DELETED and meta.deletion_timestamp is not None)
    memo[key] = (pod, inputs, state)
    return state


def capture_events(api: Any, memo: dict[tuple[str, str], tuple[Any, EventState]] | None = None,
                   ) -> tuple[EventState, ...]:
    """The stored Events, oldest first; ``memo`` reuses an Event's state while it is unchanged."""
    memo = {} if memo is None else memo
    events = sorted(api.list("Event"), key=lambda e: (e.first_timestamp or 0.0, e.metadata.namespace,
                                                      e.metadata.name))
    out = []
    for ev in events:
        key = (ev.metadata.namespace, ev.metadata.name)
        known = memo.get(key)
        if known is None or known[0] is not ev:
            ref = ev.involved_object
            name = f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name
            source = ev.source.component + (f", {ev.source.host}" if ev.source.host else "")
            known = memo[key] = (ev, EventState(ev.type, ev.reason, f"{ref.kind} {name}", ev.message, ev.count,
                                                ev.first_timestamp, ev.last_timestamp, source))
        out.append(known[1])
    return tuple(out)
