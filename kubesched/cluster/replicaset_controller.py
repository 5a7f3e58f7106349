"""A minimal ReplicaSet controller: a pod that stops counting for its owner is replaced.

Upstream: pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas;
also runs ReplicationControllers), pkg/controller/controller_utils.go
(FilterActivePods, GetPodFromTemplate).

A pod stops being active as soon as it carries a deletionTimestamp (or is gone), so
its replacement is created then, while the old pod may still be terminating: this is
how preemption victims come back as new pending pods. (StatefulSet pods come back
through kubesched.cluster.statefulset_controller, under their old name.)
Pods are built by kubesched.api.controllers.next_pod_for (template, labels,
controller ownerReference, defaulting, priority from the cluster's
PriorityClasses); the API server assigns the new pod's uid.
Deviation: no replica counting or resync: exactly one replacement per pod that
leaves, created on the loop ``CONTROLLER_DELAY_SECONDS`` after the watch event.
ReplicaSet names ``<owner>-<5 chars>`` come from a stable hash of the owner and an
ordinal counting up from ``spec.replicas`` (names in use are skipped) instead of
random characters. The owner must exist in the API server (same namespace, same
uid when the reference carries one) and not be terminating.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Optional

from kubesched.api.controllers import next_pod_for
from kubesched.api.core import Pod
from kubesched.api.meta import OwnerReference
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import DELETED, WatchEvent

OWNER_KINDS: Final = ("ReplicaSet", "ReplicationController")
CONTROLLER_DELAY_SECONDS: Final = 0.0
CONTROLLER_LABEL: Final = "controller: replace pod"


class ReplicaSetController:
    """Replaces pods owned (controller reference) by a ReplicaSet or ReplicationController."""

    def __init__(self, api: APIServer):
        self._api = api
        self._replaced: set[str] = set()
        self._ordinals: dict[tuple[str, str, str], int] = {}
        self.stop = api.watch(self._on_pod, kinds=("Pod",))

    def _on_pod(self, event: WatchEvent) -> None:
        pod: Pod = event.obj
        ref = pod.metadata.controller_ref()
        if ref is None or ref.kind not in OWNER_KINDS or pod.metadata.uid in self._replaced:
            return
        if event.type != DELETED and pod.metadata.deletion_timestamp is None:
            return
        self._replaced.add(pod.metadata.uid)
        self._api.loop.call_later(CONTROLLER_DELAY_SECONDS, lambda: self._replace(pod, ref),
                                  label=f"{CONTROLLER_LABEL} {pod.metadata.namespace}/{pod.metadata.name}")

    def _replace(self, pod: Pod, ref: OwnerReference) -> None:
        owner = self._owner(pod.metadata.namespace, ref)
        if owner is None:
            return
        replacement = self._next_pod(owner)
        meta = dataclasses.replace(replacement.metadata, uid="")
        try:
            self._api.create(dataclasses.replace(replacement, metadata=meta))
        except APIError:
            return

    def _owner(self, namespace: str, ref: OwnerReference) -> Optional[Any]:
        try:
            owner = self._api.get(ref.kind, namespace, ref.name)
        except APIError:
            return None
        if ref.uid and owner.metadata.uid != ref.uid:
            return None
        if owner.metadata.deletion_timestamp is not None or owner.spec.template is None:
            return None
        return owner

    def _classes(self) -> dict[str, Any]:
        return {pc.metadata.name: pc for pc in self._api.list("PriorityClass")}

    def _next_pod(self, owner: Any) -> Pod:
        """A pod with a name no pod of the namespace uses yet."""
        key = (type(owner).KIND, owner.metadata.namespace, owner.metadata.name)
        taken = {p.metadata.name for p in self._api.list("Pod", owner.metadata.namespace)}
        ordinal = self._ordinals.get(key, owner.spec.replicas or 1)
        while True:
            candidate = next_pod_for(owner, ordinal, self._classes())
            ordinal += 1
            if candidate.metadata.name not in taken:
                self._ordinals[key] = ordinal
                return candidate
