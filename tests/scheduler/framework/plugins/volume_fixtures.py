"""Small manifest builders for the volume plugin tests."""

from __future__ import annotations

from typing import Any, Optional

from kubesched.conformance.volumes import lenient
from kubesched.client.listers.informer_listers import InformerListers
from tests.testing.wrappers import make_node, make_pod, make_pv, make_pvc
from tests.testing.wrappers import node_info  # noqa: F401  (re-exported for the volume tests)


def pod(*volumes: dict, name: str = "p", namespace: str = "ns", node: str = "") -> Any:
    w = make_pod().name(name).namespace(namespace).volumes(list(volumes))
    if node:
        w.node(node)
    return w.obj()


def claim_vol(claim: str) -> dict:
    return {"name": claim or "v", "persistentVolumeClaim": {"claimName": claim}}


def node(name: str = "node1", labels: Optional[dict] = None, allocatable: Optional[dict] = None) -> Any:
    return make_node().name(name).labels(labels).allocatable(allocatable).obj()


def pvc(name: str, namespace: str = "ns", volume_name: str = "", sc: Optional[str] = None, storage: str = "",
        access_modes: tuple = (), annotations: Optional[dict] = None, bound: bool = False) -> Any:
    w = make_pvc().name(name).namespace(namespace).volume_name(volume_name).access_modes(access_modes)
    if sc is not None:
        w.storage_class(sc)
    if storage:
        w.request(storage)
    ann = dict(annotations or {})
    if bound:
        ann["pv.kubernetes.io/bind-completed"] = "yes"
    return w.annotations(ann).obj()


def pv(name: str, sc: str = "", storage: str = "", access_modes: tuple = (), zone: str = "",
       affinity_zone: str = "", phase: str = "Available", source: Optional[dict] = None,
       labels: Optional[dict] = None, claim: Optional[tuple[str, str]] = None) -> Any:
    w = make_pv().name(name).storage_class(sc).access_modes(access_modes)
    if storage:
        w.capacity(storage)
    if affinity_zone:
        w.set("spec", nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "zone", "operator": "In", "values": [affinity_zone]}]}]}})
    if claim is not None:
        w.claim_ref(*claim)
    w.set("spec", **(source or {}))
    all_labels = dict(labels or {})
    if zone:
        all_labels["failure-domain.beta.kubernetes.io/zone"] = zone
    return w.labels(all_labels).phase(phase).obj()


def storage_class(name: str, provisioner: str = "kubernetes.io/fake", mode: Optional[str] = "WaitForFirstConsumer",
                  allowed_zones: tuple = ()) -> Any:
    doc: dict = {"metadata": {"name": name}, "provisioner": provisioner}
    if mode is not None:
        doc["volumeBindingMode"] = mode
    if allowed_zones:
        doc["allowedTopologies"] = [{"matchLabelExpressions": [{"key": "zone", "values": list(allowed_zones)}]}]
    return lenient(doc, "StorageClass")


def csi_node(name: str, migrated: str = "", drivers: tuple = ()) -> Any:
    meta: dict = {"name": name}
    if migrated:
        meta["annotations"] = {"storage.alpha.kubernetes.io/migrated-plugins": migrated}
    return lenient({"metadata": meta, "spec": {"drivers": [
        {"name": d, "nodeID": name, "allocatable": {"count": c}} for d, c in drivers]}}, "CSINode")


class Handle:
    def __init__(self, *objects: Any, binder: Any = None) -> None:
        self._listers = InformerListers(objects)
        self._binder = binder

    def listers(self) -> InformerListers:
        return self._listers

    def volume_binder(self) -> Any:
        return self._binder
