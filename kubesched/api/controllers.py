"""Workload controllers, reduced to what a loaded cluster needs: their pods.

Upstream: pkg/controller/replicaset/replica_set.go (manageReplicas: pods named
``<rs>-<5 chars>`` with a controller ownerReference), pkg/controller/controller_utils.go
(GetPodFromTemplate, ComputeHash), pkg/controller/deployment/sync.go
(getNewReplicaSet: ``<deployment>-<pod-template-hash>``, the pod-template-hash
label and selector), pkg/controller/statefulset/stateful_set_utils.go
(newStatefulSetPod, getPodName: ``<set>-<ordinal>``; pod-name and
controller-revision-hash labels). ReplicationControllers behave like ReplicaSets.

Deviation: upstream suffixes are random and the template hash is FNV-32a over
Go's spew dump of the template; here suffixes come from a stable hash of
(owner, ordinal) and the template hash is FNV-32a over this model's repr, so
names are upstream-shaped and identical on every run, but not the names a real
cluster would pick. Pods appear right after their owner, in ordinal order.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional, Sequence

from kubesched.api import apps, core, scheduling
from kubesched.api.defaults import default_meta, default_pod, priority_classes
from kubesched.api.meta import LabelSelector, ObjectMeta, OwnerReference
from kubesched.api.names import generate_name, object_uid, safe_encode_string

DEFAULT_POD_TEMPLATE_HASH_LABEL = "pod-template-hash"
STATEFUL_SET_POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"
CONTROLLER_REVISION_HASH_LABEL = "controller-revision-hash"
REVISION_ANNOTATION = "deployment.kubernetes.io/revision"

replace = dataclasses.replace
_FNV32_OFFSET, _FNV32_PRIME = 0x811C9DC5, 0x01000193


def fnv32a(data: bytes) -> int:
    value = _FNV32_OFFSET
    for byte in data:
        value = ((value ^ byte) * _FNV32_PRIME) & 0xFFFFFFFF
    return value


def compute_hash(template: core.PodTemplateSpec) -> str:
    """``controller.ComputeHash``: SafeEncodeString of the template's FNV-32a hash."""
    return safe_encode_string(str(fnv32a(repr(template).encode("utf-8"))))


def owner_reference(owner: Any) -> OwnerReference:
    """A controller reference to ``owner`` (``metav1.NewControllerRef``)."""
    meta = owner.metadata
    uid = meta.uid or object_uid(owner.KIND, meta.namespace or "default", meta.name)
    return OwnerReference(api_version=owner.API_VERSION, kind=owner.KIND, name=meta.name, uid=uid,
                          controller=True, block_owner_deletion=True)


def replica_set_for(deployment: apps.Deployment) -> apps.ReplicaSet:
    """The ReplicaSet a Deployment creates for its current template."""
    template = deployment.spec.template or core.PodTemplateSpec()
    pod_hash = compute_hash(template)
    labels = {**template.metadata.labels, DEFAULT_POD_TEMPLATE_HASH_LABEL: pod_hash}
    selector = deployment.spec.selector or LabelSelector()
    selector = replace(selector, match_labels={**selector.match_labels,
                                               DEFAULT_POD_TEMPLATE_HASH_LABEL: pod_hash})
    meta = ObjectMeta(name=f"{deployment.metadata.name}-{pod_hash}",
                      namespace=deployment.metadata.namespace or "default", labels=labels,
                      annotations={REVISION_ANNOTATION: "1"},
                      owner_references=(owner_reference(deployment),))
    spec = apps.ReplicaSetSpec(replicas=1 if deployment.spec.replicas is None else deployment.spec.replicas,
                               selector=selector,
                               template=replace(template, metadata=replace(template.metadata, labels=labels)))
    return apps.ReplicaSet(metadata=default_meta(meta, apps.ReplicaSet.KIND), spec=spec)


def pod_name(owner: Any, ordinal: int) -> str:
    """``<set>-<ordinal>`` for a StatefulSet, ``<owner>-<5 chars>`` otherwise."""
    name = owner.metadata.name
    if isinstance(owner, apps.StatefulSet):
        return f"{name}-{ordinal}"
    namespace = owner.metadata.namespace or "default"
    return generate_name(f"{name}-", f"{owner.KIND}/{namespace}/{name}/{ordinal}")


def next_pod_for(owner: Any, ordinal: int,
                 classes: Optional[Mapping[str, scheduling.PriorityClass]] = None) -> core.Pod:
    """The pod ``owner`` creates as its ``ordinal``-th pod, defaulted.

    ``owner`` is a ReplicaSet, ReplicationController or StatefulSet (a
    Deployment acts through :func:`replica_set_for`). The cluster's ReplicaSet
    controller calls this with ever-growing ordinals to get fresh, stable names.
    """
    if isinstance(owner, apps.Deployment):
        owner = replica_set_for(owner)
    template = owner.spec.template or core.PodTemplateSpec()
    name = pod_name(owner, ordinal)
    labels = dict(template.metadata.labels)
    if isinstance(owner, apps.StatefulSet):
        labels[CONTROLLER_REVISION_HASH_LABEL] = f"{owner.metadata.name}-{compute_hash(template)}"
        labels[STATEFUL_SET_POD_NAME_LABEL] = name
    meta = ObjectMeta(name=name, namespace=owner.metadata.namespace or "default", labels=labels,
                      annotations=dict(template.metadata.annotations),
                      owner_references=(owner_reference(owner),))
    pod = core.Pod(metadata=meta, spec=template.spec, status=core.PodStatus())
    return default_pod(pod, classes or {})


def _replicas(owner: Any) -> int:
    return 1 if owner.spec.replicas is None else owner.spec.replicas


@dataclasses.dataclass(slots=True)
class _Existing:
    """What the manifests already hold (``kubectl get -o yaml`` exports pods too)."""

    pod_names: set[tuple[str, str]]
    owned: dict[tuple[str, str, str], int]  # (namespace, owner kind, owner name) -> children

    @classmethod
    def of(cls, objects: Sequence[Any]) -> "_Existing":
        names: set[tuple[str, str]] = set()
        owned: dict[tuple[str, str, str], int] = {}
        for obj in objects:
            namespace = obj.metadata.namespace or "default"
            if isinstance(obj, core.Pod):
                names.add((namespace, obj.metadata.name))
            ref = obj.metadata.controller_ref()
            if ref is not None:
                key = (namespace, ref.kind, ref.name)
                owned[key] = owned.get(key, 0) + 1
        return cls(names, owned)

    def children(self, owner: Any) -> int:
        return self.owned.get((owner.metadata.namespace or "default", owner.KIND, owner.metadata.name), 0)


def expand_owner(owner: Any, classes: Mapping[str, scheduling.PriorityClass],
                 existing: Optional[_Existing] = None) -> list[Any]:
    """The objects a workload creates: its missing pods (a Deployment's ReplicaSet first)."""
    existing = existing or _Existing(set(), {})
    if owner.spec.template is None:
        return []
    if isinstance(owner, apps.Deployment):
        if existing.children(owner):
            return []
        rs = replica_set_for(owner)
        return [rs, *expand_owner(rs, classes, existing)]
    pods: list[Any] = []
    missing, ordinal = _replicas(owner) - existing.children(owner), 0
    while len(pods) < missing:
        name = pod_name(owner, ordinal)
        if (owner.metadata.namespace or "default", name) not in existing.pod_names:
            pods.append(next_pod_for(owner, ordinal, classes))
        ordinal += 1
    return pods


WORKLOADS = (core.ReplicationController, apps.ReplicaSet, apps.Deployment, apps.StatefulSet)


def expand(objects: Sequence[Any]) -> list[tuple[Any, int]]:
    """Every object followed by what its controller creates, with source indexes.

    Pods already present in the input (with a controller reference to their
    owner) count towards ``replicas``; a Deployment that already owns a
    ReplicaSet creates none.
    """
    classes = priority_classes(objects)
    existing = _Existing.of(objects)
    out: list[tuple[Any, int]] = []
    for i, obj in enumerate(objects):
        out.append((obj, i))
        if isinstance(obj, WORKLOADS):
            out += [(child, i) for child in expand_owner(obj, classes, existing)]
    return out
