"""The scheduling queue: activeQ, podBackoffQ, unschedulableQ and the nominated pods.

Upstream: pkg/scheduler/internal/queue/scheduling_queue.go @ v1.18.5 (PriorityQueue: Run,
Add, AddUnschedulableIfNotPresent, flushBackoffQCompleted, flushUnschedulableQLeftover,
Pop, Update, Delete, AssignedPodAdded, AssignedPodUpdated, MoveAllToActiveOrBackoffQueue,
movePodsToActiveOrBackoffQueue, getUnschedulablePodsWithMatchingAffinityTerm,
NominatedPodsForNode, PendingPods, Close, DeleteNominatedPodIfExists,
UpdateNominatedPodForNode, NumUnschedulablePods, getBackoffTime,
calculateBackoffDuration, isPodUpdated; UnschedulablePodsMap; nominatedPodMap) and
pkg/scheduler/util (GetPodFullName, GetPodAffinityTerms, GetNamespacesFromPodAffinityTerm,
PodMatchesTermsNamespaceAndSelector) for the affinity match.

Time comes from an injected clock (the EventLoop); ``run`` registers the two
``wait.Until`` loops on that loop.

Deviations:
- ``pop`` does not block: it returns None when activeQ is empty (the scheduler waits on
  the event loop; ``broadcast_hooks`` are called wherever upstream broadcasts on its
  condition variable), and raises ``QueueClosedError`` once closed and empty.
- unschedulableQ is iterated in insertion order, and ``Heap.list`` in heap order, where
  upstream ranges over Go maps (random order). This fixes the order in which
  MoveAll / the leftover flush push pods into activeQ and backoffQ.
- An invalid label selector in a pending pod's affinity term never matches (upstream
  logs the error and would then dereference a nil selector).
- PodInfo stamps are totally ordered: with ``timestamp`` the queue stamps ``seq`` from its
  own counter (``newPodInfo``, AddUnschedulableIfNotPresent), and the activeQ order
  (PrioritySort) and the podBackoffQ order compare ``(time, seq)``. Upstream's wall-clock
  stamps are strictly increasing; the sequence reproduces that where simulated time stands
  still (pods created in one burst leave in arrival order). Whether a backoff has expired and
  the 60 s leftover rule use the time alone (see pod_info.py).
- ``on_move`` is not upstream: it reports every change of sub-queue for the trace, with
  the upstream event name, or ``Pop``/``Update``/``Delete`` for moves that have none.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Callable, Iterable, Optional

from kubesched.api.core import Pod, PodAffinityTerm, PodStatus
from kubesched.api.labels import SelectorError, label_selector_as_selector
from kubesched.scheduler.internal.heap import Heap
from kubesched.scheduler.internal.queue import events
from kubesched.scheduler.framework.plugins.queuesort import priority_sort
from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.util.clock import Clock
from kubesched.util.loop import Handle, Loop

UNSCHEDULABLE_Q_TIME_INTERVAL = 60.0
DEFAULT_POD_INITIAL_BACKOFF_DURATION = 1.0
DEFAULT_POD_MAX_BACKOFF_DURATION = 10.0
BACKOFF_FLUSH_PERIOD = 1.0
UNSCHEDULABLE_FLUSH_PERIOD = 30.0
QUEUE_CLOSED = "scheduling queue is closed"

ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_Q, OUTSIDE = "activeQ", "podBackoffQ", "unschedulableQ", ""
# Trace-only labels for moves upstream gives no event name.
MOVE_POP, MOVE_UPDATE, MOVE_DELETE = "Pop", "Update", "Delete"
# queue label of scheduler_queue_incoming_pods_total / scheduler_pending_pods
_METRIC_LABEL = {ACTIVE_Q: "active", BACKOFF_Q: "backoff", UNSCHEDULABLE_Q: "unschedulable"}

LessFunc = Callable[[PodInfo, PodInfo], bool]
OnMove = Callable[[Pod, str, str, str], None]


class QueueError(ValueError):
    """An operation the queue refuses (upstream returns an error)."""


class QueueClosedError(QueueError):
    """Pop on a closed, empty queue."""


# -- keys ---------------------------------------------------------------------------
def ns_name_for_pod(pod: Pod) -> str:
    """``types.NamespacedName{ns, name}.String()``."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def meta_namespace_key(pod: Pod) -> str:
    """``cache.MetaNamespaceKeyFunc``: ``namespace/name``, or ``name`` without namespace."""
    meta = pod.metadata
    return f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name


def pod_info_key_func(pod_info: PodInfo) -> str:
    return meta_namespace_key(pod_info.pod)


def get_pod_full_name(pod: Pod) -> str:
    """``util.GetPodFullName``: ``name_namespace``."""
    return f"{pod.metadata.name}_{pod.metadata.namespace}"


# -- UnschedulablePodsMap ------------------------------------------------------------
class UnschedulablePodsMap:
    """Pods tried and found unschedulable, keyed by pod full name."""

    __slots__ = ("pod_info_map",)

    def __init__(self) -> None:
        self.pod_info_map: dict[str, PodInfo] = {}

    def add_or_update(self, pod_info: PodInfo) -> None:
        self.pod_info_map[get_pod_full_name(pod_info.pod)] = pod_info

    def delete(self, pod: Pod) -> None:
        self.pod_info_map.pop(get_pod_full_name(pod), None)

    def get(self, pod: Pod) -> Optional[PodInfo]:
        return self.pod_info_map.get(get_pod_full_name(pod))

    def clear(self) -> None:
        self.pod_info_map = {}

    def __len__(self) -> int:
        return len(self.pod_info_map)


# -- nominatedPodMap -----------------------------------------------------------------
class NominatedPodMap:
    """Pods nominated to nodes (by preemption), findable by UID."""

    __slots__ = ("nominated_pods", "nominated_pod_to_node")

    def __init__(self) -> None:
        self.nominated_pods: dict[str, list[Pod]] = {}
        self.nominated_pod_to_node: dict[str, str] = {}

    def add(self, pod: Pod, node_name: str) -> None:
        """Record ``pod`` on ``node_name`` (or its status.nominatedNodeName); replaces any old entry."""
        self.delete(pod)
        nnn = node_name or pod.status.nominated_node_name
        if not nnn:
            return
        self.nominated_pod_to_node[pod.metadata.uid] = nnn
        pods = self.nominated_pods.setdefault(nnn, [])
        if any(p.metadata.uid == pod.metadata.uid for p in pods):
            return
        pods.append(pod)

    def delete(self, pod: Pod) -> None:
        uid = pod.metadata.uid
        nnn = self.nominated_pod_to_node.get(uid)
        if nnn is None:
            return
        pods = self.nominated_pods.get(nnn, [])
        for i, p in enumerate(pods):
            if p.metadata.uid == uid:
                del pods[i]
                if not pods:
                    del self.nominated_pods[nnn]
                break
        del self.nominated_pod_to_node[uid]

    def update(self, old_pod: Pod, new_pod: Pod) -> None:
        """Replace the pod, keeping an in-memory nomination when neither object carries one."""
        node_name = ""
        if not old_pod.status.nominated_node_name and not new_pod.status.nominated_node_name:
            node_name = self.nominated_pod_to_node.get(old_pod.metadata.uid, "")
        self.delete(old_pod)
        self.add(new_pod, node_name)

    def pods_for_node(self, node_name: str) -> Optional[list[Pod]]:
        pods = self.nominated_pods.get(node_name)
        return list(pods) if pods is not None else None


# -- helpers -------------------------------------------------------------------------
def is_pod_updated(old_pod: Pod, new_pod: Pod) -> bool:
    """True when the pods differ beyond resourceVersion, generation and status."""
    def strip(pod: Pod) -> Pod:
        meta = dataclasses.replace(pod.metadata, resource_version="", generation=0)
        return dataclasses.replace(pod, metadata=meta, status=PodStatus())
    return strip(old_pod) != strip(new_pod)


def get_pod_affinity_terms(pod: Pod) -> tuple[PodAffinityTerm, ...]:
    """``util.GetPodAffinityTerms``: the required pod-affinity terms only."""
    affinity = pod.spec.affinity
    if affinity is None or affinity.pod_affinity is None:
        return ()
    return affinity.pod_affinity.required_during_scheduling_ignored_during_execution


def get_namespaces_from_pod_affinity_term(pod: Pod, term: PodAffinityTerm) -> frozenset[str]:
    """The term's namespaces, or the pod's own namespace when the term lists none."""
    return frozenset(term.namespaces) if term.namespaces else frozenset((pod.metadata.namespace,))


def pod_matches_term(pending: Pod, term: PodAffinityTerm, assigned: Pod) -> bool:
    """``PodMatchesTermsNamespaceAndSelector`` for one term of ``pending``."""
    namespaces = get_namespaces_from_pod_affinity_term(pending, term)
    if assigned.metadata.namespace not in namespaces:
        return False
    try:
        selector = label_selector_as_selector(term.label_selector)
    except SelectorError:
        return False
    return selector.matches(assigned.metadata.labels)


# -- PriorityQueue -------------------------------------------------------------------
class PriorityQueue:
    """The v1.18.5 scheduling queue (see the module docstring)."""

    def __init__(self, less: Optional[LessFunc] = None, *, clock: Clock,
                 pod_initial_backoff_duration: float = DEFAULT_POD_INITIAL_BACKOFF_DURATION,
                 pod_max_backoff_duration: float = DEFAULT_POD_MAX_BACKOFF_DURATION,
                 on_move: Optional[OnMove] = None) -> None:
        less_fn = less or priority_sort.less
        self.clock = clock
        self.pod_initial_backoff_duration = float(pod_initial_backoff_duration)
        self.pod_max_backoff_duration = float(pod_max_backoff_duration)
        self.active_q: Heap[PodInfo] = Heap(pod_info_key_func, less_fn)
        self.pod_backoff_q: Heap[PodInfo] = Heap(pod_info_key_func, self._pods_compare_backoff_completed)
        self.unschedulable_q = UnschedulablePodsMap()
        self.nominated_pods = NominatedPodMap()
        self._scheduling_cycle = 0
        self._stamps = 0  # PodInfo stamps given so far (PodInfo.seq)
        self.move_request_cycle = -1
        self.closed = False
        self.on_move = on_move
        self.broadcast_hooks: list[Callable[[], object]] = []
        self.incoming_pods: Counter[tuple[str, str]] = Counter()  # (queue, event) → count
        self._flush_handles: tuple[Handle, ...] = ()

    # -- background flushes ------------------------------------------------------------
    def run(self, loop: Optional[Loop] = None, *, priority: int = 0) -> None:
        """``Run``: flushBackoffQCompleted every 1 s and flushUnschedulableQLeftover every 30 s.

        Both run at once, then periodically (``wait.Until``); nothing starts once closed.
        """
        if self.closed:
            return
        timers: Loop = loop if loop is not None else self.clock  # type: ignore[assignment]
        self._flush_handles = (
            timers.every(BACKOFF_FLUSH_PERIOD, self.flush_backoff_q_completed,
                         priority=priority, label="flushBackoffQCompleted", idle=self._backoff_flush_idle),
            timers.every(UNSCHEDULABLE_FLUSH_PERIOD, self.flush_unschedulable_q_leftover,
                         priority=priority, label="flushUnschedulableQLeftover", idle=self._leftover_flush_idle),
        )

    def _backoff_flush_idle(self) -> bool:
        """No pod's backoff has expired: a flush now moves nothing (the loop skips it)."""
        head = self.pod_backoff_q.peek()
        return head is None or self.get_backoff_time(head) > self.clock.now()

    def _leftover_pods(self) -> list[PodInfo]:
        now = self.clock.now()
        return [p for p in self.unschedulable_q.pod_info_map.values()
                if now - p.timestamp > UNSCHEDULABLE_Q_TIME_INTERVAL]

    def _leftover_flush_idle(self) -> bool:
        return not self._leftover_pods()

    def flush_backoff_q_completed(self) -> None:
        """Move every pod whose backoff has expired from podBackoffQ to activeQ."""
        moved = False
        while not self._backoff_flush_idle():
            head = self.pod_backoff_q.peek()
            self.pod_backoff_q.pop()
            self.active_q.add(head)
            self._record(head.pod, BACKOFF_Q, ACTIVE_Q, events.BACKOFF_COMPLETE)
            moved = True
        if moved:
            self._broadcast()

    def flush_unschedulable_q_leftover(self) -> None:
        """Move pods that stayed in unschedulableQ for more than 60 s."""
        to_move = self._leftover_pods()
        if to_move:
            self._move_pods_to_active_or_backoff_queue(to_move, events.UNSCHEDULABLE_TIMEOUT)

    # -- adding and popping ------------------------------------------------------------
    def add(self, pod: Pod) -> None:
        """A new pending pod: into activeQ (out of the other two if it was there)."""
        p_info = self.new_pod_info(pod)
        source = self._where(pod)
        self.active_q.add(p_info)
        if self.unschedulable_q.get(pod) is not None:
            self.unschedulable_q.delete(pod)  # upstream logs this as an error
        if self.pod_backoff_q.get_by_key(meta_namespace_key(pod)) is not None:
            self.pod_backoff_q.delete(p_info)  # upstream logs this as an error
        self._record(pod, source, ACTIVE_Q, events.POD_ADD)
        self.nominated_pods.add(pod, "")
        self._broadcast()

    def add_unschedulable_if_not_present(self, p_info: PodInfo, pod_scheduling_cycle: int) -> None:
        """Requeue a pod after a failed attempt: backoffQ if a move request came during or
        after its cycle, else unschedulableQ. Refreshes ``p_info.timestamp``."""
        pod = p_info.pod
        if self.unschedulable_q.get(pod) is not None:
            raise QueueError(f"pod: {ns_name_for_pod(pod)} is already present in unschedulable queue")
        self._stamp(p_info)
        key = meta_namespace_key(pod)
        if self.active_q.get_by_key(key) is not None:
            raise QueueError(f"pod: {ns_name_for_pod(pod)} is already present in the active queue")
        if self.pod_backoff_q.get_by_key(key) is not None:
            raise QueueError(f"pod {ns_name_for_pod(pod)} is already present in the backoff queue")
        if self.move_request_cycle >= pod_scheduling_cycle:
            self.pod_backoff_q.add(p_info)
            self._record(pod, OUTSIDE, BACKOFF_Q, events.SCHEDULE_ATTEMPT_FAILURE)
        else:
            self.unschedulable_q.add_or_update(p_info)
            self._record(pod, OUTSIDE, UNSCHEDULABLE_Q, events.SCHEDULE_ATTEMPT_FAILURE)
        self.nominated_pods.add(pod, "")

    def scheduling_cycle(self) -> int:
        """``SchedulingCycle``: the number of pods popped so far."""
        return self._scheduling_cycle

    def pop(self) -> Optional[PodInfo]:
        """Take the head of activeQ (attempts + 1, cycle + 1); None if empty (see Deviation)."""
        if len(self.active_q) == 0:
            if self.closed:
                raise QueueClosedError(QUEUE_CLOSED)
            return None
        p_info = self.active_q.pop()
        p_info.attempts += 1
        self._scheduling_cycle += 1
        self._record(p_info.pod, ACTIVE_Q, OUTSIDE, MOVE_POP)
        return p_info

    # -- informer-driven changes -------------------------------------------------------
    def update(self, old_pod: Optional[Pod], new_pod: Pod) -> None:
        """Apply a pod update per sub-queue (in place / cancel backoff / maybe leave unschedulableQ)."""
        if old_pod is not None:
            key = meta_namespace_key(old_pod)
            in_active = self.active_q.get_by_key(key)
            if in_active is not None:
                self.nominated_pods.update(old_pod, new_pod)
                in_active.pod = new_pod
                self.active_q.update(in_active)
                return
            in_backoff = self.pod_backoff_q.get_by_key(key)
            if in_backoff is not None:
                self.nominated_pods.update(old_pod, new_pod)
                self.pod_backoff_q.delete(in_backoff)
                in_backoff.pod = new_pod
                self.active_q.add(in_backoff)
                self._record(new_pod, BACKOFF_Q, ACTIVE_Q, MOVE_UPDATE)
                self._broadcast()
                return
        us_info = self.unschedulable_q.get(new_pod)
        if us_info is not None:
            self.nominated_pods.update(old_pod if old_pod is not None else new_pod, new_pod)
            if old_pod is None or is_pod_updated(old_pod, new_pod):
                self.unschedulable_q.delete(us_info.pod)
                us_info.pod = new_pod
                self.active_q.add(us_info)
                self._record(new_pod, UNSCHEDULABLE_Q, ACTIVE_Q, MOVE_UPDATE)
                self._broadcast()
                return
            us_info.pod = new_pod
            self.unschedulable_q.add_or_update(us_info)
            return
        self.active_q.add(self.new_pod_info(new_pod))
        self._record(new_pod, OUTSIDE, ACTIVE_Q, MOVE_UPDATE)
        self.nominated_pods.add(new_pod, "")
        self._broadcast()

    def delete(self, pod: Pod) -> None:
        """Forget the pod: its nomination and its entry in whichever sub-queue holds it."""
        self.nominated_pods.delete(pod)
        source = self._where(pod)
        key = meta_namespace_key(pod)
        if self.active_q.get_by_key(key) is not None:
            self.active_q.delete(PodInfo(pod))
        else:
            if self.pod_backoff_q.get_by_key(key) is not None:
                self.pod_backoff_q.delete(PodInfo(pod))
            self.unschedulable_q.delete(pod)
        if source:
            self._record(pod, source, OUTSIDE, MOVE_DELETE)

    def assigned_pod_added(self, pod: Pod) -> None:
        """A bound pod appeared: retry unschedulable pods whose required affinity it satisfies."""
        self._move_pods_to_active_or_backoff_queue(
            self._get_unschedulable_pods_with_matching_affinity_term(pod), events.ASSIGNED_POD_ADD)

    def assigned_pod_updated(self, pod: Pod) -> None:
        """A bound pod changed: as ``assigned_pod_added`` with event AssignedPodUpdate."""
        self._move_pods_to_active_or_backoff_queue(
            self._get_unschedulable_pods_with_matching_affinity_term(pod), events.ASSIGNED_POD_UPDATE)

    def move_all_to_active_or_backoff_queue(self, event: str) -> None:
        """Move every unschedulable pod to activeQ, or backoffQ while it is backing off."""
        pods = list(self.unschedulable_q.pod_info_map.values())
        self._move_pods_to_active_or_backoff_queue(pods, event)
        self.move_request_cycle = self._scheduling_cycle
        self._broadcast()

    def _move_pods_to_active_or_backoff_queue(self, pod_infos: Iterable[PodInfo], event: str) -> None:
        for p_info in pod_infos:
            if self.is_pod_backingoff(p_info):
                self.pod_backoff_q.add(p_info)
                target = BACKOFF_Q
            else:
                self.active_q.add(p_info)
                target = ACTIVE_Q
            self.unschedulable_q.delete(p_info.pod)
            self._record(p_info.pod, UNSCHEDULABLE_Q, target, event)
        self.move_request_cycle = self._scheduling_cycle
        self._broadcast()

    def _get_unschedulable_pods_with_matching_affinity_term(self, pod: Pod) -> list[PodInfo]:
        return [p_info for p_info in self.unschedulable_q.pod_info_map.values()
                if any(pod_matches_term(p_info.pod, term, pod) for term in get_pod_affinity_terms(p_info.pod))]

    # -- nominations and reads ---------------------------------------------------------
    def nominated_pods_for_node(self, node_name: str) -> Optional[list[Pod]]:
        """Pods nominated to ``node_name`` in nomination order, or None."""
        return self.nominated_pods.pods_for_node(node_name)

    def has_nominated_pods(self) -> bool:
        """Not upstream: whether any pod is nominated to any node (the filter walk asks it once)."""
        return bool(self.nominated_pods.nominated_pods)

    def pending_pods(self) -> list[Pod]:
        """activeQ, then backoffQ, then unschedulableQ pods."""
        infos = self.active_q.list() + self.pod_backoff_q.list() + list(self.unschedulable_q.pod_info_map.values())
        return [p.pod for p in infos]

    def close(self) -> None:
        """Stop the periodic flushes; a later ``pop`` on an empty queue raises QueueClosedError."""
        for handle in self._flush_handles:
            handle.cancel()
        self.closed = True
        self._broadcast()

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        self.nominated_pods.delete(pod)

    def update_nominated_pod_for_node(self, pod: Pod, node_name: str) -> None:
        """Called by preemption before the API update, so later cycles see the nomination."""
        self.nominated_pods.add(pod, node_name)

    def num_unschedulable_pods(self) -> int:
        return len(self.unschedulable_q)

    def pending_pods_metric(self) -> dict[str, int]:
        """The ``scheduler_pending_pods`` gauge, by queue label."""
        return {"active": len(self.active_q), "backoff": len(self.pod_backoff_q),
                "unschedulable": len(self.unschedulable_q)}

    # -- backoff -----------------------------------------------------------------------
    def new_pod_info(self, pod: Pod) -> PodInfo:
        """``newPodInfo``: stamped now, first attempt now."""
        p_info = PodInfo(pod)
        self._stamp(p_info)
        p_info.initial_attempt_timestamp = p_info.timestamp
        return p_info

    def _stamp(self, p_info: PodInfo) -> None:
        """``pInfo.Timestamp = p.clock.Now()`` plus the stamping order (see Deviations)."""
        p_info.timestamp = self.clock.now()
        self._stamps += 1
        p_info.seq = self._stamps

    def calculate_backoff_duration(self, p_info: PodInfo) -> float:
        """``min(initial · 2^(attempts−1), max)``; attempts 0 and 1 both give ``initial``."""
        duration = self.pod_initial_backoff_duration
        for _ in range(1, p_info.attempts):
            duration *= 2
            if duration > self.pod_max_backoff_duration:
                return self.pod_max_backoff_duration
        return duration

    def get_backoff_time(self, p_info: PodInfo) -> float:
        return p_info.timestamp + self.calculate_backoff_duration(p_info)

    def is_pod_backingoff(self, p_info: PodInfo) -> bool:
        return self.get_backoff_time(p_info) > self.clock.now()

    def _pods_compare_backoff_completed(self, a: PodInfo, b: PodInfo) -> bool:
        """``podsCompareBackoffCompleted``: the earlier backoff expiry first; equal expiries in
        stamping order (see Deviations)."""
        time_a, time_b = self.get_backoff_time(a), self.get_backoff_time(b)
        return time_a < time_b or (time_a == time_b and a.seq < b.seq)

    # -- bookkeeping -------------------------------------------------------------------
    def _where(self, pod: Pod) -> str:
        key = meta_namespace_key(pod)
        if self.active_q.get_by_key(key) is not None:
            return ACTIVE_Q
        if self.pod_backoff_q.get_by_key(key) is not None:
            return BACKOFF_Q
        if self.unschedulable_q.get(pod) is not None:
            return UNSCHEDULABLE_Q
        return OUTSIDE

    def _record(self, pod: Pod, source: str, target: str, event: str) -> None:
        if target and event not in _NOT_COUNTED:
            self.incoming_pods[(_METRIC_LABEL[target], event)] += 1
        if self.on_move is not None and source != target:
            self.on_move(pod, source, target, event)

    def _broadcast(self) -> None:
        for hook in self.broadcast_hooks:
            hook()


# Moves upstream does not count in scheduler_queue_incoming_pods_total.
_NOT_COUNTED = frozenset((MOVE_UPDATE, MOVE_POP, MOVE_DELETE))
