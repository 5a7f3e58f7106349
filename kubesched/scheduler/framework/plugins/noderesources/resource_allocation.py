"""The scorer shared by the node-resource score plugins: requested vs allocatable per resource.

Upstream: pkg/scheduler/framework/plugins/noderesources/resource_allocation.go
(resourceToWeightMap, defaultRequestedRatioResources, resourceAllocationScorer.score,
calculateResourceAllocatableRequest, calculatePodResourceRequest).

cpu and memory use the node's *non-zero* requests plus the pod's non-zero request (100m /
200Mi for a container that states none); other resources use the plain requests. The pod's
overhead is added with ``Quantity.Value()``, so an overhead cpu counts whole cores rounded up
on top of milli-cpu requests: an upstream quirk, kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Final, Mapping, Optional

from kubesched import features
from kubesched.api import v1helper
from kubesched.api.core import Pod
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.scheduler.util.non_zero import get_nonzero_request_for_resource

ResourceToWeightMap = Mapping[str, int]
ResourceToValueMap = dict[str, int]
# scorer(requested, allocatable, include_volumes, requested_volumes, allocatable_volumes) -> score
ScorerFunc = Callable[[ResourceToValueMap, ResourceToValueMap, bool, int, int], int]
# scorer(requested cpu, allocatable cpu, requested memory, allocatable memory,
#        include_volumes, requested_volumes, allocatable_volumes) -> score
CpuMemoryScorerFunc = Callable[[int, int, int, int, bool, int, int], int]

DEFAULT_REQUESTED_RATIO_RESOURCES: Final[ResourceToWeightMap] = {
    v1helper.RESOURCE_MEMORY: 1, v1helper.RESOURCE_CPU: 1}


def go_div(a: int, b: int) -> int:
    """Go's int64 ``a / b``: truncates toward zero (Python's ``//`` floors)."""
    q = a // b
    if q < 0 and q * b != a:  # a negative inexact quotient: floor is one below truncation
        q += 1
    return q


class LastPodRequests:
    """The (cpu, memory) requests of the last pod scored: a pod is scored on every node in a row.

    Pods are immutable, so the same object always has the same requests. A pod with an
    overhead is not remembered (its sum depends on the PodOverhead gate).
    """

    __slots__ = ("pod", "cpu_memory")

    def __init__(self) -> None:
        self.pod: Optional[Pod] = None
        self.cpu_memory: tuple[int, int] = (0, 0)

    def requests(self, pod: Pod) -> tuple[int, int]:
        if self.pod is pod:
            return self.cpu_memory
        pair = (calculate_pod_resource_request(pod, v1helper.RESOURCE_CPU),
                calculate_pod_resource_request(pod, v1helper.RESOURCE_MEMORY))
        if not pod.spec.overhead:
            self.pod, self.cpu_memory = pod, pair
        return pair


@dataclass(frozen=True, slots=True)
class ResourceAllocationScorer:
    """``resourceAllocationScorer``: a name, a scoring function and the resources it weighs.

    Deviation: when the weights are ``DEFAULT_REQUESTED_RATIO_RESOURCES`` itself (memory and cpu,
    weight 1 each: LeastAllocated, MostAllocated, BalancedAllocation), ``scorer`` is a
    ``CpuMemoryScorerFunc`` that takes the four numbers instead of two maps (upstream builds the
    maps for every node; the scorers read only those two keys). Any other weights
    (RequestedToCapacityRatio) get upstream's ``ScorerFunc`` on maps. Upstream reads the
    BalanceAttachedNodeVolumes gate on every node; here only a scorer that ``weighs_volumes``
    (BalancedAllocation's) does, the others ignore ``include_volumes`` anyway. Each scorer (one
    per plugin instance, so one per run) remembers the last pod's requests.
    """

    name: str
    scorer: CpuMemoryScorerFunc | ScorerFunc
    resource_to_weight_map: Optional[ResourceToWeightMap]
    weighs_volumes: bool = False
    last_pod: LastPodRequests = field(default_factory=LastPodRequests, compare=False, repr=False)

    def score(self, pod: Pod, node_info: NodeInfo) -> tuple[int, Optional[Status]]:
        """Upstream: (*resourceAllocationScorer).score."""
        if node_info.node is None:
            return 0, Status(Code.ERROR, ("node not found",))
        weights = self.resource_to_weight_map
        if weights is None:
            return 0, Status(Code.ERROR, ("resources not found",))
        info = node_info.transient_info
        include_volumes = self.weighs_volumes and info is not None and features.enabled("BalanceAttachedNodeVolumes")
        requested_volumes = info.requested_volumes if include_volumes else 0
        allocatable_volumes = info.allocatable_volumes_count if include_volumes else 0
        if weights is DEFAULT_REQUESTED_RATIO_RESOURCES:
            last = self.last_pod
            cpu, memory = last.cpu_memory if last.pod is pod else last.requests(pod)
            allocatable = node_info.allocatable_resource
            non_zero = node_info.non_zero_request
            return self.scorer(non_zero.milli_cpu + cpu, allocatable.milli_cpu,
                               non_zero.memory + memory, allocatable.memory,
                               include_volumes, requested_volumes, allocatable_volumes), None
        requested = {}
        allocatable = {}
        for resource in weights:
            allocatable[resource], requested[resource] = calculate_resource_allocatable_request(
                node_info, pod, resource)
        return self.scorer(requested, allocatable, include_volumes, requested_volumes, allocatable_volumes), None


def calculate_resource_allocatable_request(node_info: NodeInfo, pod: Pod, resource: str) -> tuple[int, int]:
    """Upstream: calculateResourceAllocatableRequest. (allocatable, node requested + pod request)."""
    allocatable = node_info.allocatable_resource
    requested = node_info.requested_resource
    pod_request = calculate_pod_resource_request(pod, resource)
    if resource == v1helper.RESOURCE_CPU:
        return allocatable.milli_cpu, node_info.non_zero_request.milli_cpu + pod_request
    if resource == v1helper.RESOURCE_MEMORY:
        return allocatable.memory, node_info.non_zero_request.memory + pod_request
    if resource == v1helper.RESOURCE_EPHEMERAL_STORAGE:
        return allocatable.ephemeral_storage, requested.ephemeral_storage + pod_request
    if v1helper.is_scalar_resource_name(resource):
        return (allocatable.scalar_resources.get(resource, 0),
                requested.scalar_resources.get(resource, 0) + pod_request)
    return 0, 0


def calculate_pod_resource_request(pod: Pod, resource: str) -> int:
    """Upstream: calculatePodResourceRequest. max(Σ containers, each init container) + overhead."""
    request = sum(get_nonzero_request_for_resource(resource, c.resources.requests)
                  for c in pod.spec.containers)
    for init in pod.spec.init_containers:
        request = max(request, get_nonzero_request_for_resource(resource, init.resources.requests))
    if pod.spec.overhead and features.enabled("PodOverhead") and resource in pod.spec.overhead:
        request += pod.spec.overhead[resource].value()
    return request

