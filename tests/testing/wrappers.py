"""Fluent builders for test objects, after upstream pkg/scheduler/testing/wrappers.go.

Upstream's ``MakePod().Name("p").Node("n1").Obj()`` becomes ``make_pod().name("p").node("n1").obj()``.
A wrapper holds a manifest (the API's JSON shape); ``doc()`` returns a copy of it (with
``apiVersion`` and ``kind``) for tests that feed YAML/JSON to a loader, ``obj()`` decodes it into the API object through the same decoder the
conformance vectors use (only "Required value" findings are tolerated, as Go structs allow).
"""

from __future__ import annotations

import copy
from typing import Any, Optional

from kubesched.api.kinds import API_VERSIONS
from kubesched.conformance._harness import as_object
from kubesched.scheduler.nodeinfo.node_info import NodeInfo


class _Wrapper:
    KIND = ""

    def __init__(self, doc: Optional[dict] = None) -> None:
        self._doc: dict = doc if doc is not None else {"metadata": {}}

    def _part(self, name: str) -> dict:
        return self._doc.setdefault(name, {})

    def set(self, section: str, **fields: Any) -> "_Wrapper":
        """Set raw JSON fields of ``metadata``/``spec``/``status`` (the wrappers.go escape hatch)."""
        self._part(section).update(fields)
        return self

    def name(self, name: str) -> "_Wrapper":
        return self.set("metadata", name=name)

    def namespace(self, namespace: str) -> "_Wrapper":
        return self.set("metadata", namespace=namespace)

    def uid(self, uid: str) -> "_Wrapper":
        return self.set("metadata", uid=uid)

    def labels(self, labels: Optional[dict]) -> "_Wrapper":
        return self.set("metadata", labels=dict(labels or {}))

    def label(self, key: str, value: str) -> "_Wrapper":
        self._part("metadata").setdefault("labels", {})[key] = value
        return self

    def annotations(self, annotations: Optional[dict]) -> "_Wrapper":
        return self.set("metadata", annotations=dict(annotations or {}))

    def doc(self) -> dict:
        """The manifest, with ``apiVersion`` and ``kind``."""
        return {"apiVersion": API_VERSIONS[self.KIND][0], "kind": self.KIND, **copy.deepcopy(self._doc)}

    def obj(self) -> Any:
        return as_object(self.doc(), self.KIND)


class PodWrapper(_Wrapper):
    KIND = "Pod"

    def __init__(self) -> None:
        super().__init__({"metadata": {}, "spec": {"containers": []}})

    def node(self, node_name: str) -> "PodWrapper":
        return self.set("spec", nodeName=node_name)

    def priority(self, priority: Optional[int]) -> "PodWrapper":
        return self.set("spec", priority=priority)

    def scheduler_name(self, name: str) -> "PodWrapper":
        return self.set("spec", schedulerName=name)

    def container(self, name: str = "c", requests: Optional[dict] = None, **extra: Any) -> "PodWrapper":
        """Append a container; ``requests`` (``{"cpu": "100m"}``) become its resource requests."""
        box: dict = {"name": name, **extra}
        if requests is not None:
            box["resources"] = {"requests": dict(requests)}
        self._part("spec")["containers"].append(box)
        return self

    def containers(self, boxes: list[dict]) -> "PodWrapper":
        return self.set("spec", containers=list(boxes))

    def req(self, **requests: str) -> "PodWrapper":
        """One container ``c`` requesting these resources (a later wrappers.go's Req)."""
        return self.container("c", requests)

    def affinity(self, affinity: dict) -> "PodWrapper":
        return self.set("spec", affinity=affinity)

    def spread_constraints(self, constraints: list) -> "PodWrapper":
        return self.set("spec", topologySpreadConstraints=list(constraints))

    def node_selector(self, selector: dict) -> "PodWrapper":
        return self.set("spec", nodeSelector=dict(selector))

    def volumes(self, volumes: list) -> "PodWrapper":
        return self.set("spec", volumes=list(volumes))

    def preemption_policy(self, policy: str) -> "PodWrapper":
        return self.set("spec", preemptionPolicy=policy)

    def terminating(self, when: Any = "2020-01-01T00:00:00Z") -> "PodWrapper":
        return self.set("metadata", deletionTimestamp=when)

    def start_time(self, when: Any) -> "PodWrapper":
        return self.set("status", startTime=when)

    def nominated_node_name(self, node_name: str) -> "PodWrapper":
        return self.set("status", nominatedNodeName=node_name)


class NodeWrapper(_Wrapper):
    KIND = "Node"

    def capacity(self, resources: dict) -> "NodeWrapper":
        """Capacity and allocatable both (1.18's NodeWrapper has Name, UID and Label only)."""
        return self.set("status", capacity=dict(resources), allocatable=dict(resources))

    def allocatable(self, resources: Optional[dict]) -> "NodeWrapper":
        return self.set("status", allocatable=dict(resources or {}))

    def taints(self, taints: Optional[list]) -> "NodeWrapper":
        return self.set("spec", taints=list(taints or []))

    def unschedulable(self, value: bool = True) -> "NodeWrapper":
        return self.set("spec", unschedulable=value)

    def images(self, images: Optional[list]) -> "NodeWrapper":
        return self.set("status", images=list(images or []))


class PersistentVolumeWrapper(_Wrapper):
    KIND = "PersistentVolume"

    def storage_class(self, name: str) -> "PersistentVolumeWrapper":
        return self.set("spec", storageClassName=name)

    def access_modes(self, modes) -> "PersistentVolumeWrapper":
        return self.set("spec", accessModes=list(modes))

    def capacity(self, storage: str) -> "PersistentVolumeWrapper":
        return self.set("spec", capacity={"storage": storage})

    def claim_ref(self, namespace: str, name: str) -> "PersistentVolumeWrapper":
        return self.set("spec", claimRef={"namespace": namespace, "name": name})

    def phase(self, phase: str) -> "PersistentVolumeWrapper":
        return self.set("status", phase=phase)


class PersistentVolumeClaimWrapper(_Wrapper):
    KIND = "PersistentVolumeClaim"

    def storage_class(self, name: str) -> "PersistentVolumeClaimWrapper":
        return self.set("spec", storageClassName=name)

    def access_modes(self, modes) -> "PersistentVolumeClaimWrapper":
        return self.set("spec", accessModes=list(modes))

    def request(self, storage: str) -> "PersistentVolumeClaimWrapper":
        return self.set("spec", resources={"requests": {"storage": storage}})

    def volume_name(self, name: str) -> "PersistentVolumeClaimWrapper":
        return self.set("spec", volumeName=name)


def make_pod() -> PodWrapper:
    return PodWrapper()


def make_node() -> NodeWrapper:
    return NodeWrapper()


def make_pv() -> PersistentVolumeWrapper:
    return PersistentVolumeWrapper()


def make_pvc() -> PersistentVolumeClaimWrapper:
    return PersistentVolumeClaimWrapper()


def node_info(node: Any, *pods: Any) -> NodeInfo:
    """A NodeInfo holding ``pods``, with ``node`` set unless it is None."""
    info = NodeInfo(*pods)
    if node is not None:
        info.set_node(node)
    return info
