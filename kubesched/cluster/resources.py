"""Resource names (plural, lower-case) and API groups for every stored kind.

Upstream: the REST storage registrations of pkg/registry (``pods``,
``replicasets.apps`` ...) and schema.GroupResource.String / GroupKind.String,
which error messages print.
"""

from __future__ import annotations

from typing import Final

from kubesched.api.kinds import KINDS, is_namespaced

SERVER_ONLY_KINDS: Final = frozenset({"ConfigMap"})
"""Kinds the API server stores although a cluster file's documents of them stay inert: the
``configmaps`` leader-election lock writes a ConfigMap (``kubesched.api.core.ConfigMap``)."""

_RESOURCES: Final[dict[str, tuple[str, str]]] = {
    "Pod": ("pods", ""),
    "Node": ("nodes", ""),
    "PersistentVolume": ("persistentvolumes", ""),
    "PersistentVolumeClaim": ("persistentvolumeclaims", ""),
    "Service": ("services", ""),
    "ReplicationController": ("replicationcontrollers", ""),
    "Namespace": ("namespaces", ""),
    "Event": ("events", ""),
    "Endpoints": ("endpoints", ""),
    "ConfigMap": ("configmaps", ""),
    "ReplicaSet": ("replicasets", "apps"),
    "Deployment": ("deployments", "apps"),
    "StatefulSet": ("statefulsets", "apps"),
    "DaemonSet": ("daemonsets", "apps"),
    "Job": ("jobs", "batch"),
    "CronJob": ("cronjobs", "batch"),
    "StorageClass": ("storageclasses", "storage.k8s.io"),
    "CSINode": ("csinodes", "storage.k8s.io"),
    "PodDisruptionBudget": ("poddisruptionbudgets", "policy"),
    "PriorityClass": ("priorityclasses", "scheduling.k8s.io"),
    "Lease": ("leases", "coordination.k8s.io"),
}


def resource(kind: str) -> str:
    """The plural resource name: ``pods`` for Pod."""
    return _RESOURCES[kind][0]


def group(kind: str) -> str:
    return _RESOURCES[kind][1]


def qualified_resource(kind: str) -> str:
    """``GroupResource.String()``: ``pods``, ``replicasets.apps``, ``leases.coordination.k8s.io``."""
    plural, grp = _RESOURCES[kind]
    return f"{plural}.{grp}" if grp else plural


def qualified_kind(kind: str) -> str:
    """``GroupKind.String()``: ``Pod``, ``ReplicaSet.apps`` (used by Invalid errors)."""
    grp = _RESOURCES[kind][1]
    return f"{kind}.{grp}" if grp else kind


def known(kind: str) -> bool:
    return kind in _RESOURCES and (kind in KINDS or kind in SERVER_ONLY_KINDS)


def namespaced(kind: str) -> bool:
    return is_namespaced(kind)
