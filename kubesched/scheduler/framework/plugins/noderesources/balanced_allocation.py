"""NodeResourcesBalancedAllocation: prefer nodes whose cpu and memory use stay in balance.

Upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
(BalancedAllocation.Name, Score, ScoreExtensions, NewBalancedAllocation,
balancedResourceScorer, fractionOfCapacity).

score = int64((1 − |cpuFraction − memoryFraction|) × 100) in IEEE doubles, truncated; 0 when
either fraction reaches 1. With gate BalanceAttachedNodeVolumes (alpha) and a node reporting
attachable volumes, the variance of the cpu, memory and volume fractions replaces the difference.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched import features
from kubesched.api import v1helper
from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationScorer, ResourceToValueMap)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "NodeResourcesBalancedAllocation"


class BalancedAllocation:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, handle: object) -> None:
        self.handle = handle
        self.scorer = ResourceAllocationScorer(
            NAME, balanced_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES, balanced_cpu_memory_scorer)

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*BalancedAllocation).Score."""
        try:
            node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        except LookupError as err:
            return 0, Status(Code.ERROR, (f'getting node "{node_name}" from Snapshot: {err}',))
        if node_info is None:
            return 0, Status(Code.ERROR, (f'getting node "{node_name}" from Snapshot: <nil>',))
        return self.scorer.score(pod, node_info)

    def score_extensions(self) -> None:
        return None


def balanced_resource_scorer(requested: ResourceToValueMap, allocatable: ResourceToValueMap,
                             include_volumes: bool, requested_volumes: int, allocatable_volumes: int) -> int:
    """Upstream: balancedResourceScorer."""
    cpu = fraction_of_capacity(requested.get(v1helper.RESOURCE_CPU, 0), allocatable.get(v1helper.RESOURCE_CPU, 0))
    mem = fraction_of_capacity(requested.get(v1helper.RESOURCE_MEMORY, 0),
                               allocatable.get(v1helper.RESOURCE_MEMORY, 0))
    if cpu >= 1 or mem >= 1:
        return 0  # a full resource cannot be balanced
    if include_volumes and features.enabled("BalanceAttachedNodeVolumes") and allocatable_volumes > 0:
        volume = float(requested_volumes) / float(allocatable_volumes)
        if volume >= 1:
            return 0
        mean = (cpu + mem + volume) / 3.0
        variance = ((cpu - mean) * (cpu - mean) + (mem - mean) * (mem - mean)
                    + (volume - mean) * (volume - mean)) / 3.0
        return int((1 - variance) * float(MAX_NODE_SCORE))
    diff = abs(cpu - mem)
    return int((1 - diff) * float(MAX_NODE_SCORE))


def balanced_cpu_memory_scorer(cpu: int, cpu_capacity: int, memory: int, memory_capacity: int) -> int:
    """``balancedResourceScorer`` without volumes, without the maps."""
    cpu_fraction = 1.0 if cpu_capacity == 0 else float(cpu) / float(cpu_capacity)
    memory_fraction = 1.0 if memory_capacity == 0 else float(memory) / float(memory_capacity)
    if cpu_fraction >= 1 or memory_fraction >= 1:
        return 0  # a full resource cannot be balanced
    return int((1 - abs(cpu_fraction - memory_fraction)) * float(MAX_NODE_SCORE))


def fraction_of_capacity(requested: int, capacity: int) -> float:
    """Upstream: fractionOfCapacity (a zero capacity counts as full)."""
    if capacity == 0:
        return 1.0
    return float(requested) / float(capacity)


def new(args: dict | None, handle: object) -> BalancedAllocation:
    """Upstream: NewBalancedAllocation (args ignored)."""
    return BalancedAllocation(handle)


_s: ScorePlugin = BalancedAllocation(None)
