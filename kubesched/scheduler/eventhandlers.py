"""Informer event handlers: keep the cache and the scheduling queue in step with the cluster.

Upstream: pkg/scheduler/eventhandlers.go @ v1.18.5 (onPvAdd, onPvUpdate, onPvcAdd,
onPvcUpdate, onStorageClassAdd, onServiceAdd, onServiceUpdate, onServiceDelete,
addNodeToCache, updateNodeInCache, deleteNodeFromCache, onCSINodeAdd, onCSINodeUpdate,
addPodToSchedulingQueue, updatePodInSchedulingQueue, deletePodFromSchedulingQueue,
addPodToCache, updatePodInCache, deletePodFromCache, assignedPod, responsibleForPod,
skipPodUpdate, addAllEventHandlers, nodeSchedulingPropertiesChange and its helpers) and
pkg/scheduler/scheduler.go (profileForPod).

Assigned pods feed the cache, unassigned pods this scheduler's profiles are responsible
for feed the queue; a pod that gets bound therefore leaves the queue side (delete) and
enters the cache side (add). In 1.18 every cluster event moves *all* unschedulable pods
(the event name only labels metrics and the trace).

Deviations: cache/queue errors are passed to ``log`` instead of klog/HandleError;
``DeletedFinalStateUnknown`` tombstones are not modelled. ``CacheCorruptedError``
(upstream ``klog.Fatalf``) is not caught. Allocatable quantities compare by value
where Go's ``reflect.DeepEqual`` compares their representation.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Final, Mapping, Optional, Protocol

from kubesched import features
from kubesched.api.core import Node, Pod, PodStatus
from kubesched.api.storage import StorageClass
from kubesched.scheduler.internal.queue import events
from kubesched.client.informers import FilteringResourceEventHandler, ResourceEventHandlerFuncs

VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER: Final = "WaitForFirstConsumer"
REJECT_REASON: Final = "removed"

Log = Callable[[str, str], None]


class CacheLike(Protocol):
    def add_pod(self, pod: Pod) -> None: ...
    def update_pod(self, old_pod: Pod, new_pod: Pod) -> None: ...
    def remove_pod(self, pod: Pod) -> None: ...
    def is_assumed_pod(self, pod: Pod) -> bool: ...
    def get_pod(self, pod: Pod) -> Pod: ...
    def add_node(self, node: Node) -> None: ...
    def update_node(self, old_node: Optional[Node], new_node: Node) -> None: ...
    def remove_node(self, node: Node) -> None: ...


class QueueLike(Protocol):
    def add(self, pod: Pod) -> None: ...
    def update(self, old_pod: Optional[Pod], new_pod: Pod) -> None: ...
    def delete(self, pod: Pod) -> None: ...
    def assigned_pod_added(self, pod: Pod) -> None: ...
    def assigned_pod_updated(self, pod: Pod) -> None: ...
    def move_all_to_active_or_backoff_queue(self, event: str) -> None: ...
    def num_unschedulable_pods(self) -> int: ...


class FrameworkLike(Protocol):
    def reject_waiting_pod(self, uid: str) -> None: ...


class ProfileLike(Protocol):
    @property
    def framework(self) -> FrameworkLike: ...


class VolumeBinderLike(Protocol):
    def delete_pod_bindings(self, pod: Pod) -> None: ...


class SchedulerLike(Protocol):
    """The fields of ``Scheduler`` the handlers use."""

    @property
    def scheduler_cache(self) -> CacheLike: ...
    @property
    def scheduling_queue(self) -> QueueLike: ...
    @property
    def profiles(self) -> Mapping[str, ProfileLike]: ...
    @property
    def volume_binder(self) -> Optional[VolumeBinderLike]: ...


class InformersLike(Protocol):
    """What ``add_all_event_handlers`` registers on (``kubesched.client.informers``)."""

    def add_event_handler(self, kind: str, handler: Any) -> None: ...


def _no_log(level: str, message: str) -> None:
    return None


def _pod_name(pod: Pod) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


class EventHandlers:
    """The ``Scheduler`` methods of eventhandlers.go, bound to one scheduler."""

    def __init__(self, sched: SchedulerLike, log: Log = _no_log) -> None:
        self.sched = sched
        self.log = log

    @property
    def _cache(self) -> CacheLike:
        return self.sched.scheduler_cache

    @property
    def _queue(self) -> QueueLike:
        return self.sched.scheduling_queue

    def _try(self, what: str, call: Callable[[], object]) -> None:
        try:
            call()
        except ValueError as err:  # CacheError / QueueError: upstream logs the returned error
            self.log("error", f"{what} failed: {err}")

    # -- volumes, services, CSI nodes ---------------------------------------------------
    def on_pv_add(self, obj: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.PV_ADD)

    def on_pv_update(self, old: Any, new: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.PV_UPDATE)

    def on_pvc_add(self, obj: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.PVC_ADD)

    def on_pvc_update(self, old: Any, new: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.PVC_UPDATE)

    def on_storage_class_add(self, obj: StorageClass) -> None:
        """Only a late-binding class can make an unbound immediate PVC's pod schedulable."""
        if obj.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER:
            self._queue.move_all_to_active_or_backoff_queue(events.STORAGE_CLASS_ADD)

    def on_service_add(self, obj: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.SERVICE_ADD)

    def on_service_update(self, old: Any, new: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.SERVICE_UPDATE)

    def on_service_delete(self, obj: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.SERVICE_DELETE)

    def on_csi_node_add(self, obj: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.CSI_NODE_ADD)

    def on_csi_node_update(self, old: Any, new: Any) -> None:
        self._queue.move_all_to_active_or_backoff_queue(events.CSI_NODE_UPDATE)

    # -- nodes --------------------------------------------------------------------------
    def add_node_to_cache(self, node: Node) -> None:
        self._try("scheduler cache AddNode", lambda: self._cache.add_node(node))
        self._queue.move_all_to_active_or_backoff_queue(events.NODE_ADD)

    def update_node_in_cache(self, old_node: Node, new_node: Node) -> None:
        """Only a node that became more schedulable moves pods; with none waiting, ``Unknown``."""
        self._try("scheduler cache UpdateNode", lambda: self._cache.update_node(old_node, new_node))
        if self._queue.num_unschedulable_pods() == 0:
            # Cheap; bumps moveRequestCycle so a pod failing right now goes to backoffQ.
            self._queue.move_all_to_active_or_backoff_queue(events.UNKNOWN)
            return
        event = node_scheduling_properties_change(new_node, old_node)
        if event:
            self._queue.move_all_to_active_or_backoff_queue(event)

    def delete_node_from_cache(self, node: Node) -> None:
        self._try("scheduler cache RemoveNode", lambda: self._cache.remove_node(node))

    # -- unassigned pods: the scheduling queue -------------------------------------------
    def add_pod_to_scheduling_queue(self, pod: Pod) -> None:
        self._try(f"unable to queue {_pod_name(pod)}", lambda: self._queue.add(pod))

    def update_pod_in_scheduling_queue(self, old_pod: Pod, new_pod: Pod) -> None:
        if self.skip_pod_update(new_pod):
            return
        self._try(f"unable to update {_pod_name(new_pod)}", lambda: self._queue.update(old_pod, new_pod))

    def delete_pod_from_scheduling_queue(self, pod: Pod) -> None:
        self._try(f"unable to dequeue {_pod_name(pod)}", lambda: self._queue.delete(pod))
        binder = self.sched.volume_binder
        if binder is not None:
            binder.delete_pod_bindings(pod)
        profile = self.sched.profiles.get(pod.spec.scheduler_name)
        if profile is None:
            self.log("error", f'profile not found for scheduler name "{pod.spec.scheduler_name}"')
            return
        profile.framework.reject_waiting_pod(pod.metadata.uid)

    # -- assigned pods: the cache ---------------------------------------------------------
    def add_pod_to_cache(self, pod: Pod) -> None:
        self._try("scheduler cache AddPod", lambda: self._cache.add_pod(pod))
        self._queue.assigned_pod_added(pod)

    def update_pod_in_cache(self, old_pod: Pod, new_pod: Pod) -> None:
        self._try("scheduler cache UpdatePod", lambda: self._cache.update_pod(old_pod, new_pod))
        self._queue.assigned_pod_updated(new_pod)

    def delete_pod_from_cache(self, pod: Pod) -> None:
        self._try("scheduler cache RemovePod", lambda: self._cache.remove_pod(pod))
        self._queue.move_all_to_active_or_backoff_queue(events.ASSIGNED_POD_DELETE)

    def skip_pod_update(self, pod: Pod) -> bool:
        """``skipPodUpdate``: an assumed pod whose update only touches bookkeeping fields."""
        try:
            if not self._cache.is_assumed_pod(pod):
                return False
            assumed = self._cache.get_pod(pod)
        except ValueError as err:
            self.log("error", f"failed to check whether pod {_pod_name(pod)} is assumed: {err}")
            return False
        if _strip_for_skip(assumed) != _strip_for_skip(pod):
            return False
        self.log("info", f"Skipping pod {_pod_name(pod)} update")
        return True


def _strip_for_skip(pod: Pod) -> Pod:
    """Blank ResourceVersion, Spec.NodeName, Annotations, Finalizers and Status.Conditions.

    (ManagedFields is blanked upstream too; the object model has none.)
    """
    meta = dataclasses.replace(pod.metadata, resource_version="", annotations={}, finalizers=())
    spec = dataclasses.replace(pod.spec, node_name="")
    status: PodStatus = dataclasses.replace(pod.status, conditions=())
    return dataclasses.replace(pod, metadata=meta, spec=spec, status=status)


def assigned_pod(pod: Pod) -> bool:
    return pod.spec.node_name != ""


def responsible_for_pod(pod: Pod, profile_names: frozenset[str]) -> bool:
    return pod.spec.scheduler_name in profile_names


# -- nodeSchedulingPropertiesChange -----------------------------------------------------
def node_scheduling_properties_change(new_node: Node, old_node: Node) -> str:
    """The first change that can make pods schedulable, in upstream's order, or ""."""
    if node_spec_unschedulable_changed(new_node, old_node):
        return events.NODE_SPEC_UNSCHEDULABLE_CHANGE
    if node_allocatable_changed(new_node, old_node):
        return events.NODE_ALLOCATABLE_CHANGE
    if node_labels_changed(new_node, old_node):
        return events.NODE_LABEL_CHANGE
    if node_taints_changed(new_node, old_node):
        return events.NODE_TAINT_CHANGE
    if node_conditions_changed(new_node, old_node):
        return events.NODE_CONDITION_CHANGE
    return ""


def node_allocatable_changed(new_node: Node, old_node: Node) -> bool:
    return dict(old_node.status.allocatable) != dict(new_node.status.allocatable)


def node_labels_changed(new_node: Node, old_node: Node) -> bool:
    return dict(old_node.metadata.labels) != dict(new_node.metadata.labels)


def node_taints_changed(new_node: Node, old_node: Node) -> bool:
    return new_node.spec.taints != old_node.spec.taints


def node_conditions_changed(new_node: Node, old_node: Node) -> bool:
    """Only the type → status map counts: heartbeats, reasons and messages do not."""
    def strip(node: Node) -> dict[str, str]:
        return {c.type: c.status for c in node.status.conditions}
    return strip(old_node) != strip(new_node)


def node_spec_unschedulable_changed(new_node: Node, old_node: Node) -> bool:
    """Only a node becoming schedulable again counts."""
    return new_node.spec.unschedulable != old_node.spec.unschedulable and not new_node.spec.unschedulable


# -- wiring -----------------------------------------------------------------------------
def add_all_event_handlers(sched: SchedulerLike, informers: InformersLike,
                           profile_names: Optional[frozenset[str] | set[str] | list[str]] = None,
                           log: Log = _no_log) -> EventHandlers:
    """``addAllEventHandlers``: register every handler on the informers, in upstream's order."""
    handlers = EventHandlers(sched, log)
    names = frozenset(sched.profiles if profile_names is None else profile_names)
    informers.add_event_handler("Pod", FilteringResourceEventHandler(
        assigned_pod, ResourceEventHandlerFuncs(handlers.add_pod_to_cache, handlers.update_pod_in_cache,
                                                handlers.delete_pod_from_cache)))
    informers.add_event_handler("Pod", FilteringResourceEventHandler(
        lambda pod: not assigned_pod(pod) and responsible_for_pod(pod, names),
        ResourceEventHandlerFuncs(handlers.add_pod_to_scheduling_queue, handlers.update_pod_in_scheduling_queue,
                                  handlers.delete_pod_from_scheduling_queue)))
    informers.add_event_handler("Node", ResourceEventHandlerFuncs(
        handlers.add_node_to_cache, handlers.update_node_in_cache, handlers.delete_node_from_cache))
    if features.enabled("CSINodeInfo"):
        informers.add_event_handler("CSINode", ResourceEventHandlerFuncs(
            handlers.on_csi_node_add, handlers.on_csi_node_update))
    informers.add_event_handler("PersistentVolume", ResourceEventHandlerFuncs(
        handlers.on_pv_add, handlers.on_pv_update))
    informers.add_event_handler("PersistentVolumeClaim", ResourceEventHandlerFuncs(
        handlers.on_pvc_add, handlers.on_pvc_update))
    informers.add_event_handler("Service", ResourceEventHandlerFuncs(
        handlers.on_service_add, handlers.on_service_update, handlers.on_service_delete))
    informers.add_event_handler("StorageClass", ResourceEventHandlerFuncs(handlers.on_storage_class_add))
    return handlers
