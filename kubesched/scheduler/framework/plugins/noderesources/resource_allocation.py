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

from dataclasses import dataclass
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
# cpu_memory_scorer(requested cpu, allocatable cpu, requested memory, allocatable memory) -> score:
# the ScorerFunc's answer for the default resources without volumes, with no dict built
CpuMemoryScorerFunc = Callable[[int, int, int, int], int]

DEFAULT_REQUESTED_RATIO_RESOURCES: Final[ResourceToWeightMap] = {
    v1helper.RESOURCE_MEMORY: 1, v1helper.RESOURCE_CPU: 1}


def go_div(a: int, b: int) -> int:
    """Go's int64 ``a / b``: truncates toward zero (Python's ``//`` floors)."""
    q = a // b
    if q < 0 and q * b != a:  # a negative inexact quotient: floor is one below truncation
        q += 1
    return q


@dataclass(frozen=True, slots=True)
class ResourceAllocationScorer:
    """``resourceAllocationScorer``: a name, a scoring function and the resources it weighs.

    ``cpu_memory_scorer``, when set, must give ``scorer``'s answer for the default resources
    (memory and cpu, weight 1 each) without volumes; it then replaces the call with dicts.
    """

    name: str
    scorer: ScorerFunc
    resource_to_weight_map: Optional[ResourceToWeightMap]
    cpu_memory_scorer: Optional[CpuMemoryScorerFunc] = None

    def score(self, pod: Pod, node_info: NodeInfo) -> tuple[int, Optional[Status]]:
        """Upstream: (*resourceAllocationScorer).score."""
        if node_info.node is None:
            return 0, Status(Code.ERROR, ("node not found",))
        weights = self.resource_to_weight_map
        if weights is None:
            return 0, Status(Code.ERROR, ("resources not found",))
        volumes = features.enabled("BalanceAttachedNodeVolumes") and node_info.transient_info is not None
        if weights is DEFAULT_REQUESTED_RATIO_RESOURCES:
            last = _LAST_POD
            cpu, memory = last.cpu_memory if last.cpu_memory_pod is pod else pod_cpu_memory_request(pod)
            allocatable = node_info.allocatable_resource
            non_zero = node_info.non_zero_request
            if self.cpu_memory_scorer is not None and not volumes:
                return self.cpu_memory_scorer(non_zero.milli_cpu + cpu, allocatable.milli_cpu,
                                              non_zero.memory + memory, allocatable.memory), None
            requested = {v1helper.RESOURCE_MEMORY: non_zero.memory + memory,
                         v1helper.RESOURCE_CPU: non_zero.milli_cpu + cpu}
            allocatable = {v1helper.RESOURCE_MEMORY: allocatable.memory,
                           v1helper.RESOURCE_CPU: allocatable.milli_cpu}
        else:
            requested = {}
            allocatable = {}
            for resource in self.resource_to_weight_map:
                allocatable[resource], requested[resource] = calculate_resource_allocatable_request(
                    node_info, pod, resource)
        if volumes:
            info = node_info.transient_info
            return self.scorer(requested, allocatable, True, info.requested_volumes,
                               info.allocatable_volumes_count), None
        return self.scorer(requested, allocatable, False, 0, 0), None


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


class _LastPod:
    """The requests of the last pod asked about (a pod is scored on every node in a row).

    Pods are immutable, so the same object always has the same requests; a pod with an
    overhead is not cached (its sum depends on the PodOverhead gate), nor are resources
    other than cpu and memory (ephemeral storage depends on a gate).
    """

    __slots__ = ("pod", "requests", "cpu_memory_pod", "cpu_memory")

    def __init__(self) -> None:
        self.pod: Optional[Pod] = None
        self.requests: dict[str, int] = {}
        self.cpu_memory_pod: Optional[Pod] = None
        self.cpu_memory: tuple[int, int] = (0, 0)


_LAST_POD: Final = _LastPod()
_CACHED_RESOURCES: Final = frozenset({v1helper.RESOURCE_CPU, v1helper.RESOURCE_MEMORY})


def calculate_pod_resource_request(pod: Pod, resource: str) -> int:
    """Upstream: calculatePodResourceRequest. max(Σ containers, each init container) + overhead."""
    if pod.spec.overhead or resource not in _CACHED_RESOURCES:
        return _pod_resource_request(pod, resource)
    last = _LAST_POD
    if last.pod is not pod:
        last.pod, last.requests = pod, {}
    request = last.requests.get(resource)
    if request is None:
        request = last.requests[resource] = _pod_resource_request(pod, resource)
    return request


def pod_cpu_memory_request(pod: Pod) -> tuple[int, int]:
    """``calculatePodResourceRequest`` of cpu and of memory, as one pair (remembered per pod)."""
    last = _LAST_POD
    if last.cpu_memory_pod is pod:
        return last.cpu_memory
    pair = (calculate_pod_resource_request(pod, v1helper.RESOURCE_CPU),
            calculate_pod_resource_request(pod, v1helper.RESOURCE_MEMORY))
    if not pod.spec.overhead:
        last.cpu_memory_pod, last.cpu_memory = pod, pair
    return pair


def _pod_resource_request(pod: Pod, resource: str) -> int:
    request = sum(get_nonzero_request_for_resource(resource, c.resources.requests)
                  for c in pod.spec.containers)
    for init in pod.spec.init_containers:
        request = max(request, get_nonzero_request_for_resource(resource, init.resources.requests))
    if pod.spec.overhead and features.enabled("PodOverhead") and resource in pod.spec.overhead:
        request += pod.spec.overhead[resource].value()
    return request


def get_node_info(handle: object, node_name: str):
    """The snapshot lookup every scorer plugin starts with: (node_info | None, error text)."""
    try:
        return handle.snapshot_shared_lister().node_infos().get(node_name), "<nil>"
    except LookupError as err:
        return None, str(err)
