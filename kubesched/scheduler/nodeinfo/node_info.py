"""What the scheduler knows about one node: the node, its pods and their aggregate requests.

Upstream: pkg/scheduler/nodeinfo/node_info.go (Resource, NewResource, Resource.Add,
SetMaxResource, NodeInfo, NewNodeInfo, AddPod, RemovePod, SetNode, RemoveNode, Clone,
Filter, FilterOutPods, GetPodKey, calculateResource, ImageStateSummary,
TransientSchedulerInfo, nextGeneration).

The generation counter is process-global as upstream's atomic counter is; only its
order matters (snapshot updates compare generations), so never show it in a trace.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Mapping, Optional

from kubesched import features
from kubesched.api import v1helper
from kubesched.api.core import Node, Pod, Taint
from kubesched.api.quantity import Quantity
from kubesched.scheduler.nodeinfo.host_ports import HostPortInfo
from kubesched.scheduler.util.non_zero import get_nonzero_requests

_generations = itertools.count(1)


def next_generation() -> int:
    return next(_generations)


class PodKeyError(ValueError):
    """``GetPodKey`` of a pod without UID."""


def get_pod_key(pod: Pod) -> str:
    if not pod.metadata.uid:
        raise PodKeyError("Cannot get cache key for pod with empty UID")
    return pod.metadata.uid


@dataclass(slots=True)
class Resource:
    """Aggregate compute resources: milli-cpu, bytes, pod count and scalar resources."""

    milli_cpu: int = 0
    memory: int = 0
    ephemeral_storage: int = 0
    allowed_pod_number: int = 0
    scalar_resources: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_list(cls, resources: Mapping[str, Quantity]) -> "Resource":
        """``NewResource``."""
        r = cls()
        r.add(resources)
        return r

    def add(self, resources: Mapping[str, Quantity]) -> None:
        for name, q in resources.items():
            if name == v1helper.RESOURCE_CPU:
                self.milli_cpu += q.milli_value()
            elif name == v1helper.RESOURCE_MEMORY:
                self.memory += q.value()
            elif name == v1helper.RESOURCE_PODS:
                self.allowed_pod_number += q.value()
            elif name == v1helper.RESOURCE_EPHEMERAL_STORAGE:
                if features.enabled("LocalStorageCapacityIsolation"):
                    self.ephemeral_storage += q.value()
            elif v1helper.is_scalar_resource_name(name):
                self.scalar_resources[name] = self.scalar_resources.get(name, 0) + q.value()

    def set_max_resource(self, resources: Mapping[str, Quantity]) -> None:
        for name, q in resources.items():
            if name == v1helper.RESOURCE_CPU:
                self.milli_cpu = max(self.milli_cpu, q.milli_value())
            elif name == v1helper.RESOURCE_MEMORY:
                self.memory = max(self.memory, q.value())
            elif name == v1helper.RESOURCE_EPHEMERAL_STORAGE:
                self.ephemeral_storage = max(self.ephemeral_storage, q.value())
            elif v1helper.is_scalar_resource_name(name):
                self.scalar_resources[name] = max(self.scalar_resources.get(name, 0), q.value())

    def set_scalar(self, name: str, value: int) -> None:
        self.scalar_resources[name] = value

    def add_scalar(self, name: str, value: int) -> None:
        self.scalar_resources[name] = self.scalar_resources.get(name, 0) + value

    def clone(self) -> "Resource":
        return Resource(self.milli_cpu, self.memory, self.ephemeral_storage,
                        self.allowed_pod_number, dict(self.scalar_resources))

    def resource_list(self) -> dict[str, Quantity]:
        out = {
            v1helper.RESOURCE_CPU: Quantity.from_milli(self.milli_cpu),
            v1helper.RESOURCE_MEMORY: Quantity.from_int(self.memory, "BinarySI"),
            v1helper.RESOURCE_PODS: Quantity.from_int(self.allowed_pod_number),
            v1helper.RESOURCE_EPHEMERAL_STORAGE: Quantity.from_int(self.ephemeral_storage, "BinarySI"),
        }
        out.update({k: Quantity.from_int(v) for k, v in self.scalar_resources.items()})
        return out


@dataclass(frozen=True, slots=True)
class ImageStateSummary:
    size: int
    num_nodes: int


@dataclass(slots=True)
class TransientSchedulerInfo:
    """Per-cycle volume counters (used only with the BalanceAttachedNodeVolumes gate)."""

    allocatable_volumes_count: int = 0
    requested_volumes: int = 0


def calculate_resource(pod: Pod) -> tuple[Resource, int, int]:
    """A pod's requests: max(sum of containers, each init container) + overhead, and non-zero cpu/mem."""
    res, non0_cpu, non0_mem = Resource(), 0, 0
    for c in pod.spec.containers:
        res.add(c.resources.requests)
        cpu, mem = get_nonzero_requests(c.resources.requests)
        non0_cpu, non0_mem = non0_cpu + cpu, non0_mem + mem
    for ic in pod.spec.init_containers:
        res.set_max_resource(ic.resources.requests)
        cpu, mem = get_nonzero_requests(ic.resources.requests)
        non0_cpu, non0_mem = max(non0_cpu, cpu), max(non0_mem, mem)
    if pod.spec.overhead and features.enabled("PodOverhead"):
        res.add(pod.spec.overhead)
        if "cpu" in pod.spec.overhead:
            non0_cpu += pod.spec.overhead["cpu"].milli_value()
        if "memory" in pod.spec.overhead:
            non0_mem += pod.spec.overhead["memory"].value()
    return res, non0_cpu, non0_mem


def has_pod_affinity_constraints(pod: Pod) -> bool:
    a = pod.spec.affinity
    return a is not None and (a.pod_affinity is not None or a.pod_anti_affinity is not None)


class NodeInfo:
    """Node-level aggregated information (``nodeinfo.NodeInfo``)."""

    __slots__ = ("node", "pods", "pods_with_affinity", "used_ports", "requested_resource",
                 "non_zero_request", "allocatable_resource", "memory_pressure_condition",
                 "disk_pressure_condition", "pid_pressure_condition", "image_states",
                 "transient_info", "generation")

    def __init__(self, *pods: Pod) -> None:
        """``NewNodeInfo(pods...)``: a node-less NodeInfo holding ``pods``."""
        self.node: Optional[Node] = None
        self.pods: list[Pod] = []
        self.pods_with_affinity: list[Pod] = []
        self.used_ports = HostPortInfo()
        self.requested_resource = Resource()
        self.non_zero_request = Resource()
        self.allocatable_resource = Resource()
        self.memory_pressure_condition = self.disk_pressure_condition = self.pid_pressure_condition = ""
        self.image_states: dict[str, ImageStateSummary] = {}
        self.transient_info = TransientSchedulerInfo()
        self.generation = next_generation()
        for pod in pods:
            self.add_pod(pod)

    # -- accessors named as upstream's getters
    @property
    def taints(self) -> tuple[Taint, ...]:
        return self.node.spec.taints if self.node is not None else ()

    @property
    def allowed_pod_number(self) -> int:
        return self.allocatable_resource.allowed_pod_number

    def node_name(self) -> str:
        return self.node.metadata.name if self.node is not None else ""

    def volume_limits(self) -> dict[str, int]:
        return {k: v for k, v in self.allocatable_resource.scalar_resources.items()
                if v1helper.is_attachable_volume_resource_name(k)}

    # -- mutation
    def set_node(self, node: Node) -> None:
        self.node = node
        self.allocatable_resource = Resource.from_list(node.status.allocatable)
        for cond in node.status.conditions:
            if cond.type == "MemoryPressure":
                self.memory_pressure_condition = cond.status
            elif cond.type == "DiskPressure":
                self.disk_pressure_condition = cond.status
            elif cond.type == "PIDPressure":
                self.pid_pressure_condition = cond.status
        self.transient_info = TransientSchedulerInfo()
        self.generation = next_generation()

    def remove_node(self) -> None:
        self.node = None
        self.generation = next_generation()

    def set_allocatable_resource(self, resource: Resource) -> None:
        self.allocatable_resource = resource
        self.generation = next_generation()

    def add_pod(self, pod: Pod) -> None:
        res, non0_cpu, non0_mem = calculate_resource(pod)
        req = self.requested_resource
        req.milli_cpu += res.milli_cpu
        req.memory += res.memory
        req.ephemeral_storage += res.ephemeral_storage
        for name, value in res.scalar_resources.items():
            req.add_scalar(name, value)
        self.non_zero_request.milli_cpu += non0_cpu
        self.non_zero_request.memory += non0_mem
        self.pods.append(pod)
        if has_pod_affinity_constraints(pod):
            self.pods_with_affinity.append(pod)
        self._update_used_ports(pod, add=True)
        self.generation = next_generation()

    def remove_pod(self, pod: Pod) -> None:
        """Remove by UID; like upstream the last pod takes the removed one's slot."""
        key = get_pod_key(pod)
        if has_pod_affinity_constraints(pod):
            _remove_by_key(self.pods_with_affinity, key)
        for i, existing in enumerate(self.pods):
            if existing.metadata.uid and existing.metadata.uid == key:
                _swap_remove(self.pods, i)
                res, non0_cpu, non0_mem = calculate_resource(pod)
                req = self.requested_resource
                req.milli_cpu -= res.milli_cpu
                req.memory -= res.memory
                req.ephemeral_storage -= res.ephemeral_storage
                for name, value in res.scalar_resources.items():
                    req.add_scalar(name, -value)
                self.non_zero_request.milli_cpu -= non0_cpu
                self.non_zero_request.memory -= non0_mem
                self._update_used_ports(pod, add=False)
                self.generation = next_generation()
                return
        raise LookupError(f"no corresponding pod {pod.metadata.name} in pods of node {self.node_name()}")

    def _update_used_ports(self, pod: Pod, add: bool) -> None:
        for c in pod.spec.containers:
            for p in c.ports:
                if add:
                    self.used_ports.add(p.host_ip, p.protocol, p.host_port)
                else:
                    self.used_ports.remove(p.host_ip, p.protocol, p.host_port)

    def clone(self) -> "NodeInfo":
        copy = NodeInfo.__new__(NodeInfo)
        copy.node = self.node
        copy.pods = list(self.pods)
        copy.pods_with_affinity = list(self.pods_with_affinity)
        copy.used_ports = self.used_ports.clone()
        copy.requested_resource = self.requested_resource.clone()
        copy.non_zero_request = self.non_zero_request.clone()
        copy.allocatable_resource = self.allocatable_resource.clone()
        copy.memory_pressure_condition = self.memory_pressure_condition
        copy.disk_pressure_condition = self.disk_pressure_condition
        copy.pid_pressure_condition = self.pid_pressure_condition
        copy.image_states = self.image_states
        copy.transient_info = self.transient_info
        copy.generation = self.generation
        return copy

    def filter(self, pod: Pod) -> bool:
        """False only when ``pod`` claims this node but is not among its pods (preemption's view)."""
        if self.node is None or pod.spec.node_name != self.node.metadata.name:
            return True
        return any(p.metadata.name == pod.metadata.name and p.metadata.namespace == pod.metadata.namespace
                   for p in self.pods)

    def filter_out_pods(self, pods: list[Pod]) -> list[Pod]:
        if self.node is None:
            return list(pods)
        keys = {p.metadata.uid for p in self.pods if p.metadata.uid}
        return [p for p in pods
                if p.spec.node_name != self.node.metadata.name or (p.metadata.uid and p.metadata.uid in keys)]

    def __repr__(self) -> str:
        return (f"NodeInfo(node={self.node_name()!r}, pods={[p.metadata.name for p in self.pods]}, "
                f"requested={self.requested_resource}, allocatable={self.allocatable_resource})")


def _swap_remove(items: list, index: int) -> None:
    items[index] = items[-1]
    items.pop()


def _remove_by_key(items: list[Pod], key: str) -> None:
    for i, p in enumerate(items):
        if p.metadata.uid and p.metadata.uid == key:
            _swap_remove(items, i)
            return
