"""What the workload controllers share: a sync queue on the loop, claiming pods, pod states, events.

Upstream: pkg/controller/controller_utils.go (FilterActivePods / IsPodActive, ActivePods,
RealPodControl.CreatePodsWithControllerRef and DeletePod with their events),
pkg/controller/controller_ref_manager.go (PodControllerRefManager.ClaimPods),
pkg/api/v1/pod/util.go (IsPodReady, IsPodAvailable) and client-go's workqueue (a key is
queued at most once until its sync starts).

Deviation: a controller reads the API server directly instead of informer caches, and a
create or delete is visible at once, so no expectations are tracked. ClaimPods adopts an
orphan that the selector matches, and releases an owned pod it no longer matches, by
counting them or not, without patching ownerReferences. Generated pod names come from a stable seed, not random text.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Final, Optional

from kubesched.api.controllers import selects
from kubesched.api.core import Pod
from kubesched.api.meta import LabelSelector, OwnerReference
from kubesched.cluster import pod_strategy
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError

Key = tuple[str, str]
SUCCESSFUL_CREATE_POD_REASON: Final = "SuccessfulCreate"
FAILED_CREATE_POD_REASON: Final = "FailedCreate"
SUCCESSFUL_DELETE_POD_REASON: Final = "SuccessfulDelete"
EVENT_NORMAL: Final = "Normal"
EVENT_WARNING: Final = "Warning"


class SyncQueue:
    """A workqueue: ``add(key)`` runs ``sync(key)`` on the loop once, however often it was added."""

    def __init__(self, loop: Any, sync: Callable[[Key], None], label: str) -> None:
        self._loop = loop
        self._sync = sync
        self._label = label
        self._pending: set[Key] = set()

    def add(self, key: Key) -> None:
        if key in self._pending:
            return
        self._pending.add(key)
        self._loop.call_later(0.0, lambda: self._run(key), label=f"{self._label} {_show(key)}")

    def add_after(self, key: Key, seconds: float) -> None:
        """``AddAfter``: queue ``key`` once ``seconds`` have passed."""
        self._loop.call_later(seconds, lambda: self.add(key), label=f"{self._label} later {_show(key)}")

    def _run(self, key: Key) -> None:
        self._pending.discard(key)
        self._sync(key)


def _show(key: Key) -> str:
    return f"{key[0]}/{key[1]}" if key[0] else key[1]


def key_of(obj: Any) -> Key:
    return obj.metadata.namespace or "default", obj.metadata.name


def resolve_controller_ref(api: APIServer, kind: str, namespace: str, ref: Optional[OwnerReference]) -> Optional[Any]:
    """``resolveControllerRef``: the owner of kind ``kind`` the reference names, with the same uid."""
    if ref is None or ref.kind != kind:
        return None
    try:
        owner = api.get(kind, namespace, ref.name)
    except APIError:
        return None
    return owner if owner.metadata.uid == ref.uid else None


def is_controlled_by(obj: Any, owner: Any) -> bool:
    ref = obj.metadata.controller_ref()
    return ref is not None and ref.kind == owner.KIND and ref.name == owner.metadata.name \
        and ref.uid == owner.metadata.uid


def enqueue_pod_owners(api: APIServer, queue: SyncQueue, kind: str, pod: Pod) -> None:
    """addPod / updatePod / deletePod: queue the pod's ``kind`` controller, or every ``kind`` selecting an orphan."""
    ref = pod.metadata.controller_ref()
    if ref is not None:
        if resolve_controller_ref(api, kind, pod.metadata.namespace, ref) is not None:
            queue.add((pod.metadata.namespace, ref.name))
        return
    for owner in api.list(kind, pod.metadata.namespace):
        if selects(owner.spec.selector, pod.metadata.labels):
            queue.add(key_of(owner))


def claim_pods(api: APIServer, owner: Any, selector: Optional[LabelSelector],
               member: Callable[[Pod], bool] = lambda pod: True) -> list[Pod]:
    """``ClaimPods``: the namespace's pods that match and that ``owner`` controls or would adopt."""
    out = []
    for pod in api.list("Pod", owner.metadata.namespace):
        if not selects(selector, pod.metadata.labels) or not member(pod):
            continue
        if is_controlled_by(pod, owner) or (pod.metadata.controller_ref() is None
                                            and pod.metadata.deletion_timestamp is None
                                            and owner.metadata.deletion_timestamp is None):
            out.append(pod)
    return out


def is_pod_active(pod: Pod) -> bool:
    """``IsPodActive``: not Succeeded, not Failed, not being deleted."""
    return pod.status.phase not in (pod_strategy.POD_SUCCEEDED, pod_strategy.POD_FAILED) \
        and pod.metadata.deletion_timestamp is None


def is_pod_ready(pod: Pod) -> bool:
    """``IsPodReady``: the Ready condition is True."""
    condition = pod_strategy.get_pod_condition(pod.status, "Ready")
    return condition is not None and condition.status == pod_strategy.CONDITION_TRUE


def is_pod_available(pod: Pod, min_ready_seconds: int, now: float) -> bool:
    """``IsPodAvailable``: ready for at least ``min_ready_seconds``."""
    if not is_pod_ready(pod):
        return False
    if min_ready_seconds == 0:
        return True
    condition = pod_strategy.get_pod_condition(pod.status, "Ready")
    since = condition.last_transition_time if condition is not None else None
    return since is not None and since + min_ready_seconds <= now


def create_pod(api: APIServer, owner: Any, pod: Pod, component: str) -> Optional[Pod]:
    """``RealPodControl.createPods``: create (the API server sets the uid) and record the event."""
    pod = dataclasses.replace(pod, metadata=dataclasses.replace(pod.metadata, uid=""))
    try:
        created = api.create(pod)
    except APIError as err:
        api.record_event(owner, EVENT_WARNING, FAILED_CREATE_POD_REASON, f"Error creating: {err}",
                         component=component)
        return None
    api.record_event(owner, EVENT_NORMAL, SUCCESSFUL_CREATE_POD_REASON, f"Created pod: {created.metadata.name}",
                     component=component)
    return created


def delete_pod(api: APIServer, owner: Any, name: str, component: str) -> None:
    """``RealPodControl.DeletePod``: delete (gracefully) and record the event."""
    try:
        api.delete("Pod", owner.metadata.namespace, name)
    except APIError:
        return
    api.record_event(owner, EVENT_NORMAL, SUCCESSFUL_DELETE_POD_REASON, f"Deleted pod: {name}", component=component)


def write_status(api: APIServer, obj: Any, status: Any) -> Any:
    """Write ``status`` through the status subresource when it changed."""
    if status == obj.status:
        return obj
    return api.update_status(dataclasses.replace(obj, status=status))
