"""NodeResourcesFit: the pod's requests must fit the node's allocatable minus what is requested.

Upstream: pkg/scheduler/framework/plugins/noderesources/fit.go
(Fit, FitArgs, preFilterState, Fit.Name, computePodResourceRequest, PreFilter,
PreFilterExtensions, getPreFilterState, Filter, InsufficientResource, Fits, fitsRequest, NewFit).

The pod request is max(Σ regular containers, each init container) + overhead (gate PodOverhead).
Checks, in order: pod count ("Too many pods"), then — unless the pod requests nothing —
cpu, memory, ephemeral-storage and each scalar resource. Extended resources listed in
``ignoredResources`` are skipped. v1.18.5 compares ephemeral-storage without a gate check.

Deviation: upstream walks the pod's scalar resources in Go map order (random); here they are
checked in the order the pod's containers first name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Final, Optional

from kubesched import features
from kubesched.api import v1helper
from kubesched.api.core import Pod
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    Code, FilterPlugin, PreFilterPlugin, Status)
from kubesched.scheduler.nodeinfo.node_info import NodeInfo, Resource

NAME: Final = "NodeResourcesFit"
PRE_FILTER_STATE_KEY: Final = "PreFilter" + NAME
REASON_TOO_MANY_PODS: Final = "Too many pods"
REASON_INSUFFICIENT_CPU: Final = "Insufficient cpu"
REASON_INSUFFICIENT_MEMORY: Final = "Insufficient memory"
REASON_INSUFFICIENT_EPHEMERAL_STORAGE: Final = "Insufficient ephemeral-storage"


def reason_insufficient(resource_name: str) -> str:
    """``Insufficient <name>`` (e.g. ``Insufficient example.com/foo``)."""
    return f"Insufficient {resource_name}"


@dataclass(frozen=True, slots=True)
class PreFilterState:
    """The pod's aggregate request (``preFilterState``); read-only once written."""

    resource: Resource

    def clone(self) -> "PreFilterState":
        return self


@dataclass(frozen=True, slots=True)
class InsufficientResource:
    """One resource the node lacks (``InsufficientResource``)."""

    resource_name: str
    reason: str
    requested: int
    used: int
    capacity: int


class Fit:
    """PreFilter + Filter plugin (no PreFilterExtensions: the request ignores other pods)."""

    def __init__(self, ignored_resources: AbstractSet[str] = frozenset()) -> None:
        self.ignored_resources = frozenset(ignored_resources)

    def name(self) -> str:
        return NAME

    def pre_filter(self, state: CycleState, pod: Pod) -> Optional[Status]:
        """Upstream: (*Fit).PreFilter."""
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(compute_pod_resource_request(pod)))
        return None

    def pre_filter_extensions(self) -> None:
        """Upstream: (*Fit).PreFilterExtensions returns nil."""
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*Fit).Filter. Unschedulable with one reason per insufficient resource."""
        try:
            s = state.read(PRE_FILTER_STATE_KEY)
        except KeyError as err:
            return Status(Code.ERROR, (f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}',))
        if not isinstance(s, PreFilterState):
            return Status(Code.ERROR, (f"{s!r}  convert to NodeResourcesFit.preFilterState error",))
        insufficient = fits_request(s.resource, node_info, self.ignored_resources)
        if insufficient:
            return Status(Code.UNSCHEDULABLE, tuple(r.reason for r in insufficient))
        return None


def compute_pod_resource_request(pod: Pod) -> Resource:
    """Upstream: computePodResourceRequest."""
    result = Resource()
    for container in pod.spec.containers:
        result.add(container.resources.requests)
    for init in pod.spec.init_containers:
        result.set_max_resource(init.resources.requests)
    if pod.spec.overhead and features.enabled("PodOverhead"):
        result.add(pod.spec.overhead)
    return result


def fits(pod: Pod, node_info: NodeInfo,
         ignored_extended_resources: AbstractSet[str] = frozenset()) -> list[InsufficientResource]:
    """Upstream: Fits. The insufficient resources of ``pod`` on the node (empty: it fits)."""
    return fits_request(compute_pod_resource_request(pod), node_info, ignored_extended_resources)


def fits_request(pod_request: Resource, node_info: NodeInfo,
                 ignored_extended_resources: AbstractSet[str] = frozenset()) -> list[InsufficientResource]:
    """Upstream: fitsRequest."""
    out: list[InsufficientResource] = []
    alloc = node_info.allocatable_resource
    num_pods = len(node_info.pods)
    if num_pods >= alloc.allowed_pod_number:  # num_pods + 1 > allowed
        out.append(InsufficientResource(v1helper.RESOURCE_PODS, REASON_TOO_MANY_PODS, 1, num_pods,
                                        alloc.allowed_pod_number))
    cpu, memory, ephemeral = pod_request.milli_cpu, pod_request.memory, pod_request.ephemeral_storage
    scalars = pod_request.scalar_resources
    if cpu == 0 and memory == 0 and ephemeral == 0 and not scalars:
        return out
    used = node_info.requested_resource
    if alloc.milli_cpu < cpu + used.milli_cpu:
        out.append(InsufficientResource(v1helper.RESOURCE_CPU, REASON_INSUFFICIENT_CPU, cpu, used.milli_cpu,
                                        alloc.milli_cpu))
    if alloc.memory < memory + used.memory:
        out.append(InsufficientResource(v1helper.RESOURCE_MEMORY, REASON_INSUFFICIENT_MEMORY, memory, used.memory,
                                        alloc.memory))
    if alloc.ephemeral_storage < ephemeral + used.ephemeral_storage:
        out.append(InsufficientResource(v1helper.RESOURCE_EPHEMERAL_STORAGE, REASON_INSUFFICIENT_EPHEMERAL_STORAGE,
                                        ephemeral, used.ephemeral_storage, alloc.ephemeral_storage))
    if scalars:  # (most pods have none: no view object to build)
        for name, want in scalars.items():
            if v1helper.is_extended_resource_name(name) and name in ignored_extended_resources:
                continue
            have, cap = used.scalar_resources.get(name, 0), alloc.scalar_resources.get(name, 0)
            if cap < want + have:
                out.append(InsufficientResource(name, reason_insufficient(name), want, have, cap))
    return out


def new(args: dict | None, handle: object) -> Fit:
    """Upstream: NewFit. Args: ``{"ignoredResources": [names]}`` (keys matched case-insensitively)."""
    args = args or {}
    ignored = args.get("ignoredResources",
                       next((v for k, v in args.items() if k.lower() == "ignoredresources"), None))
    if ignored is None:
        ignored = []
    if not isinstance(ignored, list) or not all(isinstance(v, str) for v in ignored):
        raise ValueError("json: cannot unmarshal into Go struct field FitArgs.ignoredResources "
                         "of type []string")
    return Fit(frozenset(ignored))


_p: PreFilterPlugin = Fit()
_f: FilterPlugin = Fit()
