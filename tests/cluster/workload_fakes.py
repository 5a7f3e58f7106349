"""A small cluster for the workload-controller tests: API server, kubelet, controller manager, a stand-in binder.

The binder binds every new unbound pod at once to the first node its ``matchFields``
(DaemonSet pods) or ``nodeSelector`` names, else to ``default_node``: the controllers are
tested without the scheduler (tests/e2e runs them with it).
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.decode import decode_strict
from kubesched.api.defaults import apply_defaults
from kubesched.cluster import APIServer, Kubelet
from kubesched.cluster.daemonset_util import get_target_node_name
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import ADDED
from kubesched.controller import manager
from kubesched.util.loop import EventLoop


def objects(*manifests: dict) -> list[Any]:
    return apply_defaults([decode_strict(m) for m in manifests])


def node(name: str, labels: Optional[dict] = None, taints: Optional[list] = None) -> dict:
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
            "spec": {"taints": taints or []},
            "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def exported_pod(name: str, owner_kind: str, owner: str, uid: str, labels: dict, namespace: str = "default",
                 ready: bool = False) -> dict:
    """A pod as ``kubectl get pods -o yaml`` exports it: bound to n1, Running, with its controller."""
    status: dict = {"phase": "Running"}
    if ready:
        status["conditions"] = [{"type": "Ready", "status": "True"}]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": namespace, "labels": labels,
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": owner_kind, "name": owner,
                                              "uid": uid, "controller": True, "blockOwnerDeletion": True}]},
            "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "nginx"}]}, "status": status}


class Cluster:
    """Everything below the scheduler, on one EventLoop."""

    def __init__(self, *manifests: dict, bind: bool = True, default_node: str = "n1") -> None:
        self.loop = EventLoop()
        self.api = APIServer(self.loop)
        for obj in objects(*manifests):
            self.api.create(obj)
        self.default_node = default_node
        if bind:
            self.api.watch(self._bind_new, kinds=("Pod",))
        self.kubelet = Kubelet(self.api)
        self.controllers = manager.start(self.api)

    def _bind_new(self, event: Any) -> None:
        pod = event.obj
        if event.type != ADDED or pod.spec.node_name:
            return
        target = get_target_node_name(pod) or self.default_node
        self.loop.call_later(0.0, lambda: self._bind(pod.metadata.namespace, pod.metadata.name, target),
                             label="test binder")

    def _bind(self, namespace: str, name: str, node_name: str) -> None:
        try:
            self.api.bind(namespace, name, node_name)
        except APIError:
            pass

    def add(self, manifest: dict, at: Optional[float] = None) -> None:
        obj = objects(manifest)[0]
        if at is None:
            self.api.create(obj)
        else:
            self.loop.call_at(at, lambda: self.api.create(obj), label="test create")

    def run(self, until: float) -> "Cluster":
        self.loop.run(until=until)
        return self

    def pods(self, namespace: str = "default") -> list[Any]:
        return sorted(self.api.list("Pod", namespace), key=lambda p: (p.metadata.creation_timestamp, p.metadata.name))

    def events(self, kind: str = "") -> list[tuple]:
        """(first time, count, object, type, reason, message, component) of every Event."""
        found = sorted(self.api.list("Event"), key=lambda e: (e.first_timestamp or 0.0, e.metadata.name))
        return [(e.first_timestamp, e.count, e.involved_object.name, e.type, e.reason, e.message, e.source.component)
                for e in found if not kind or e.involved_object.kind == kind]
