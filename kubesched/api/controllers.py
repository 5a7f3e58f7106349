"""Workload controllers at load time: a ReplicaSet's, RC's and Deployment's pods; shared pod building.

Upstream: pkg/controller/replicaset/replica_set.go (manageReplicas: pods named
``<rs>-<5 chars>`` with a controller ownerReference), pkg/controller/controller_utils.go
(GetPodFromTemplate, ComputeHash), pkg/controller/deployment/sync.go
(getNewReplicaSet: ``<deployment>-<pod-template-hash>``, the pod-template-hash
label and selector). ReplicationControllers behave like ReplicaSets.
StatefulSets, DaemonSets and Jobs are not expanded here: their live controllers
(kubesched.cluster) create their pods on the loop, in their order.

A Deployment whose ReplicaSet is missing from the input but whose pods are there
(``kubectl get pods -o yaml`` holds pods owned by ``<deployment>-<hash>``) gets that
ReplicaSet back, named and identified (uid) as the pods' owner reference says, so no pod
is created twice and the ReplicaSet controller can replace its pods.

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
from kubesched.api.labels import SelectorError, label_selector_as_selector
from kubesched.api.meta import LabelSelector, ObjectMeta, OwnerReference
from kubesched.api.names import generate_name, object_uid, safe_encode_string

DEFAULT_POD_TEMPLATE_HASH_LABEL = "pod-template-hash"
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


def replica_set_for(deployment: apps.Deployment, pod_hash: str = "", name: str = "",
                    uid: str = "") -> apps.ReplicaSet:
    """The ReplicaSet a Deployment creates for its current template.

    ``pod_hash``, ``name`` and ``uid`` rebuild a ReplicaSet that pods already name as their owner.
    """
    template = deployment.spec.template or core.PodTemplateSpec()
    pod_hash = pod_hash or compute_hash(template)
    labels = {**template.metadata.labels, DEFAULT_POD_TEMPLATE_HASH_LABEL: pod_hash}
    selector = deployment.spec.selector or LabelSelector()
    selector = replace(selector, match_labels={**selector.match_labels,
                                               DEFAULT_POD_TEMPLATE_HASH_LABEL: pod_hash})
    meta = ObjectMeta(name=name or f"{deployment.metadata.name}-{pod_hash}", uid=uid,
                      namespace=deployment.metadata.namespace or "default", labels=labels,
                      annotations={REVISION_ANNOTATION: "1"},
                      owner_references=(owner_reference(deployment),))
    spec = apps.ReplicaSetSpec(replicas=1 if deployment.spec.replicas is None else deployment.spec.replicas,
                               selector=selector,
                               template=replace(template, metadata=replace(template.metadata, labels=labels)))
    return apps.ReplicaSet(metadata=default_meta(meta, apps.ReplicaSet.KIND), spec=spec)


def pod_name(owner: Any, ordinal: int) -> str:
    """``<owner>-<5 chars>``: the generateName the API server completes, drawn from (owner, ordinal)."""
    name = owner.metadata.name
    namespace = owner.metadata.namespace or "default"
    return generate_name(f"{name}-", f"{owner.KIND}/{namespace}/{name}/{ordinal}")


def pod_from_template(owner: Any, template: core.PodTemplateSpec, name: str,
                      classes: Optional[Mapping[str, scheduling.PriorityClass]] = None, *,
                      labels: Optional[Mapping[str, str]] = None, generate_name: str = "",
                      spec: Optional[core.PodSpec] = None) -> core.Pod:
    """``GetPodFromTemplate`` plus the API server's defaulting: ``owner``'s pod called ``name``.

    ``labels`` and ``spec`` replace the template's (controllers add their own).
    """
    meta = ObjectMeta(name=name, generate_name=generate_name, namespace=owner.metadata.namespace or "default",
                      labels=dict(template.metadata.labels if labels is None else labels),
                      annotations=dict(template.metadata.annotations),
                      finalizers=template.metadata.finalizers, owner_references=(owner_reference(owner),))
    pod = core.Pod(metadata=meta, spec=template.spec if spec is None else spec, status=core.PodStatus())
    return default_pod(pod, classes or {})


def next_pod_for(owner: Any, ordinal: int,
                 classes: Optional[Mapping[str, scheduling.PriorityClass]] = None) -> core.Pod:
    """The pod ``owner`` creates as its ``ordinal``-th pod, defaulted.

    ``owner`` is a ReplicaSet or ReplicationController (a Deployment acts through
    :func:`replica_set_for`). The cluster's ReplicaSet controller calls this with
    ever-growing ordinals to get fresh, stable names.
    """
    if isinstance(owner, apps.Deployment):
        owner = replica_set_for(owner)
    template = owner.spec.template or core.PodTemplateSpec()
    return pod_from_template(owner, template, pod_name(owner, ordinal), classes)


def _replicas(owner: Any) -> int:
    return 1 if owner.spec.replicas is None else owner.spec.replicas


@dataclasses.dataclass(slots=True)
class _Existing:
    """What the manifests already hold (``kubectl get -o yaml`` exports pods too)."""

    keys: set[tuple[str, str, str]]  # (kind, namespace, name) of every object
    owned: dict[tuple[str, str, str], int]  # (namespace, owner kind, owner name) -> children
    refs: dict[tuple[str, str, str], tuple[OwnerReference, Mapping[str, str]]]  # a pod's controller + labels

    @classmethod
    def of(cls, objects: Sequence[Any]) -> "_Existing":
        found = cls(set(), {}, {})
        for obj in objects:
            namespace = obj.metadata.namespace or "default"
            found.keys.add((obj.KIND, namespace, obj.metadata.name))
            ref = obj.metadata.controller_ref()
            if ref is not None:
                key = (namespace, ref.kind, ref.name)
                found.owned[key] = found.owned.get(key, 0) + 1
                if isinstance(obj, core.Pod):
                    found.refs.setdefault(key, (ref, obj.metadata.labels))
        return found

    def children(self, owner: Any) -> int:
        return self.owned.get((owner.metadata.namespace or "default", owner.KIND, owner.metadata.name), 0)

    def has_pod(self, namespace: str, name: str) -> bool:
        return ("Pod", namespace, name) in self.keys

    def missing_replica_set(self, deployment: apps.Deployment) -> Optional[apps.ReplicaSet]:
        """The absent ReplicaSet ``<deployment>-<hash>`` that pods matching its selector name as owner."""
        namespace, prefix = deployment.metadata.namespace or "default", f"{deployment.metadata.name}-"
        for (ns, kind, name), (ref, labels) in sorted(self.refs.items()):
            if (ns, kind) != (namespace, apps.ReplicaSet.KIND) or not name.startswith(prefix) \
                    or ("ReplicaSet", ns, name) in self.keys or not selects(deployment.spec.selector, labels):
                continue
            pod_hash = labels.get(DEFAULT_POD_TEMPLATE_HASH_LABEL, name[len(prefix):])
            return replica_set_for(deployment, pod_hash, name, ref.uid)
        return None


def selects(selector: Optional[LabelSelector], labels: Mapping[str, str]) -> bool:
    """Does a (valid) label selector match ``labels``? None or an invalid one matches nothing."""
    if selector is None:
        return False
    try:
        return label_selector_as_selector(selector).matches(labels)
    except SelectorError:
        return False


def expand_owner(owner: Any, classes: Mapping[str, scheduling.PriorityClass],
                 existing: Optional[_Existing] = None) -> list[Any]:
    """The objects a workload creates: its missing pods (a Deployment's ReplicaSet first)."""
    existing = existing or _Existing(set(), {}, {})
    if owner.spec.template is None:
        return []
    if isinstance(owner, apps.Deployment):
        if existing.children(owner):
            return []
        rs = existing.missing_replica_set(owner) or replica_set_for(owner)
        return [rs, *expand_owner(rs, classes, existing)]
    pods: list[Any] = []
    missing, ordinal = _replicas(owner) - existing.children(owner), 0
    namespace = owner.metadata.namespace or "default"
    while len(pods) < missing:
        if not existing.has_pod(namespace, pod_name(owner, ordinal)):
            pods.append(next_pod_for(owner, ordinal, classes))
        ordinal += 1
    return pods


WORKLOADS = (core.ReplicationController, apps.ReplicaSet, apps.Deployment)
"""The workloads expanded at load time (StatefulSets, DaemonSets and Jobs run on the loop)."""


def expand(objects: Sequence[Any]) -> list[tuple[Any, int]]:
    """Every object followed by what its controller creates, with source indexes.

    Pods already present in the input (with a controller reference to their
    owner) count towards ``replicas``; a Deployment that already owns a
    ReplicaSet creates none, nor does one whose ReplicaSet only its pods name.
    """
    classes = priority_classes(objects)
    existing = _Existing.of(objects)
    out: list[tuple[Any, int]] = []
    for i, obj in enumerate(objects):
        out.append((obj, i))
        if isinstance(obj, WORKLOADS):
            out += [(child, i) for child in expand_owner(obj, classes, existing)]
    return out
