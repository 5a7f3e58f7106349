"""Informer-backed listers for the non-pod objects plugins read.

Upstream: the client-go listers plugins get from ``SharedInformerFactory`` (Services,
ReplicationControllers, ReplicaSets, StatefulSets, PersistentVolumes,
PersistentVolumeClaims, StorageClasses, CSINodes, PodDisruptionBudgets), and the Node lister
the volume binder reads (scheduler_binder.go checkBindings).

One store keyed by (kind, namespace, name); the informer layer calls ``upsert`` /
``delete`` as watch events arrive, conformance adapters fill it from a vector's objects.
Lists are returned in (namespace, name) order (Deviation: upstream's order is a map's).
"""

from __future__ import annotations

from typing import Iterable, Optional

from kubesched.api import apps, core, policy, storage


class InformerListers:
    def __init__(self, objects: Iterable[object] = ()) -> None:
        self._store: dict[tuple[str, str, str], object] = {}
        for obj in objects:
            self.upsert(obj)

    @staticmethod
    def _key(obj) -> tuple[str, str, str]:
        return type(obj).KIND, obj.metadata.namespace, obj.metadata.name

    def upsert(self, obj) -> None:
        self._store[self._key(obj)] = obj

    def delete(self, obj) -> None:
        self._store.pop(self._key(obj), None)

    def _list(self, kind: str, namespace: Optional[str]) -> list:
        keys = sorted(k for k in self._store if k[0] == kind and (namespace is None or k[1] == namespace))
        return [self._store[k] for k in keys]

    def _get(self, kind: str, namespace: str, name: str):
        return self._store.get((kind, namespace, name))

    def services(self, namespace: Optional[str] = None) -> list[core.Service]:
        return self._list("Service", namespace)

    def replication_controllers(self, namespace: Optional[str] = None) -> list[core.ReplicationController]:
        return self._list("ReplicationController", namespace)

    def replica_sets(self, namespace: Optional[str] = None) -> list[apps.ReplicaSet]:
        return self._list("ReplicaSet", namespace)

    def stateful_sets(self, namespace: Optional[str] = None) -> list[apps.StatefulSet]:
        return self._list("StatefulSet", namespace)

    def pod_disruption_budgets(self, namespace: Optional[str] = None) -> list[policy.PodDisruptionBudget]:
        return self._list("PodDisruptionBudget", namespace)

    def persistent_volume(self, name: str) -> Optional[core.PersistentVolume]:
        return self._get("PersistentVolume", "", name)

    def persistent_volumes(self) -> list[core.PersistentVolume]:
        return self._list("PersistentVolume", None)

    def persistent_volume_claim(self, namespace: str, name: str) -> Optional[core.PersistentVolumeClaim]:
        return self._get("PersistentVolumeClaim", namespace, name)

    def storage_class(self, name: str) -> Optional[storage.StorageClass]:
        return self._get("StorageClass", "", name)

    def csi_node(self, name: str) -> Optional[storage.CSINode]:
        return self._get("CSINode", "", name)

    def node(self, name: str) -> Optional[core.Node]:
        return self._get("Node", "", name)
