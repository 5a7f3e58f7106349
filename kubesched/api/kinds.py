"""Which kinds the simulator understands, their API groups and scope.

Upstream: the scheme registrations of staging/src/k8s.io/api (group/version/kind)
and each resource's ``NamespaceScoped()`` in pkg/registry.
"""

from __future__ import annotations

from kubesched.api import apps, batch, coordination, core, policy, scheduling, storage

KINDS: dict[str, type] = {
    cls.KIND: cls
    for cls in (
        core.Pod, core.Node, core.PersistentVolume, core.PersistentVolumeClaim, core.Service,
        core.ReplicationController, core.Namespace, core.Event, core.Endpoints,
        apps.ReplicaSet, apps.Deployment, apps.StatefulSet, apps.DaemonSet,
        batch.Job, batch.CronJob,
        storage.StorageClass, storage.CSINode,
        policy.PodDisruptionBudget, scheduling.PriorityClass, coordination.Lease,
    )
}

API_VERSIONS: dict[str, tuple[str, ...]] = {
    kind: (cls.API_VERSION,) for kind, cls in KINDS.items()
}
API_VERSIONS["PodDisruptionBudget"] = ("policy/v1beta1", "policy/v1")
API_VERSIONS["PriorityClass"] = ("scheduling.k8s.io/v1", "scheduling.k8s.io/v1beta1",
                                 "scheduling.k8s.io/v1alpha1")
API_VERSIONS["StorageClass"] = ("storage.k8s.io/v1", "storage.k8s.io/v1beta1")
API_VERSIONS["CSINode"] = ("storage.k8s.io/v1", "storage.k8s.io/v1beta1")

CLUSTER_SCOPED = frozenset({"Node", "PersistentVolume", "Namespace", "StorageClass", "CSINode",
                            "PriorityClass"})


def is_namespaced(kind: str) -> bool:
    return kind not in CLUSTER_SCOPED
