"""A minimal workload controller: a pod that stops counting for its owner is replaced.

Upstream: pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas;
also runs ReplicationControllers), pkg/controller/controller_utils.go
(FilterActivePods, GetPodFromTemplate, getPodsLabelSet) and
pkg/controller/statefulset/stateful_set_utils.go (newStatefulSetPod).

ReplicaSet / ReplicationController: a pod stops being active as soon as it carries
a deletionTimestamp (or is gone), so its replacement is created then, while the
old pod may still be terminating: this is how preemption victims come back as new
pending pods. StatefulSet: the replacement keeps the ordinal name, so it can only
be created once the old pod has been removed (DELETED).
Deviation: no replica counting or resync: exactly one replacement per pod that
leaves, created on the loop ``CONTROLLER_DELAY_SECONDS`` after the watch event.
Replacement names use a stable hash (utilrand's alphabet) instead of random
characters. (kubesched.api.controllers did not provide ``next_pod_for`` yet, so
this module keeps its own small template builder.) StatefulSet pods get no
hostname/subdomain (the model has no such fields). The owner must exist in the API server (same namespace, same uid when
the reference carries one) and not be terminating.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Optional

from kubesched.api.core import Pod, PodStatus
from kubesched.api.meta import ObjectMeta, OwnerReference
from kubesched.cluster.apiserver import APIServer, stable_suffix
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import DELETED, WatchEvent

OWNER_KINDS: Final = ("ReplicaSet", "ReplicationController", "StatefulSet")
CONTROLLER_DELAY_SECONDS: Final = 0.0
STATEFULSET_POD_NAME_LABEL: Final = "statefulset.kubernetes.io/pod-name"
CONTROLLER_LABEL: Final = "controller: replace pod"

class ReplicaSetController:
    """Replaces pods owned (controller reference) by a ReplicaSet, RC or StatefulSet."""

    def __init__(self, api: APIServer):
        self._api = api
        self._replaced: set[str] = set()
        self._counter = 0
        self.stop = api.watch(self._on_pod, kinds=("Pod",))

    def _on_pod(self, event: WatchEvent) -> None:
        pod: Pod = event.obj
        ref = pod.metadata.controller_ref()
        if ref is None or ref.kind not in OWNER_KINDS or pod.metadata.uid in self._replaced:
            return
        gone = event.type == DELETED
        if not gone and (ref.kind == "StatefulSet" or pod.metadata.deletion_timestamp is None):
            return
        self._replaced.add(pod.metadata.uid)
        self._api.loop.call_later(CONTROLLER_DELAY_SECONDS, lambda: self._replace(pod, ref),
                                  label=f"{CONTROLLER_LABEL} {pod.metadata.namespace}/{pod.metadata.name}")

    def _replace(self, pod: Pod, ref: OwnerReference) -> None:
        owner = self._owner(pod.metadata.namespace, ref)
        if owner is None:
            return
        if ref.kind == "StatefulSet":
            replacement = new_stateful_set_pod(owner, pod.metadata.name)
        else:
            replacement = self._next_pod(owner)
        try:
            self._api.create(replacement)
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

    def _next_pod(self, owner: Any) -> Pod:
        ns, base = owner.metadata.namespace, owner.metadata.name
        while True:
            self._counter += 1
            name = f"{base}-{stable_suffix(f'{type(owner).KIND}/{ns}/{base}/{self._counter}')}"
            if not any(p.metadata.name == name for p in self._api.list("Pod", ns)):
                return pod_from_template(owner, name)


def controller_reference(owner: Any) -> OwnerReference:
    """Upstream: metav1.NewControllerRef."""
    return OwnerReference(api_version=type(owner).API_VERSION, kind=type(owner).KIND,
                          name=owner.metadata.name, uid=owner.metadata.uid,
                          controller=True, block_owner_deletion=True)


def pod_from_template(owner: Any, name: str) -> Pod:
    """Upstream: GetPodFromTemplate (labels, annotations, spec from the template; controller ref)."""
    template = owner.spec.template
    meta = ObjectMeta(name=name, generate_name=f"{owner.metadata.name}-",
                      namespace=owner.metadata.namespace,
                      labels=dict(template.metadata.labels),
                      annotations=dict(template.metadata.annotations),
                      owner_references=(controller_reference(owner),))
    return Pod(metadata=meta, spec=template.spec, status=PodStatus())


def new_stateful_set_pod(owner: Any, name: str) -> Pod:
    """Upstream: newStatefulSetPod (ordinal name kept, pod-name label added)."""
    pod = pod_from_template(owner, name)
    labels = {**pod.metadata.labels, STATEFULSET_POD_NAME_LABEL: name}
    return dataclasses.replace(pod, metadata=dataclasses.replace(pod.metadata, generate_name="",
                                                                 labels=labels))
