"""NodeResourcesBalancedAllocation: prefer nodes whose cpu and memory use stay in balance.

Upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
(BalancedAllocation.Name, Score, ScoreExtensions, NewBalancedAllocation,
balancedResourceScorer, fractionOfCapacity).

score = int64((1 − |cpuFraction − memoryFraction|) × 100) in IEEE doubles, truncated; 0 when
either fraction reaches 1. With gate BalanceAttachedNodeVolumes (alpha) and a node reporting
attachable volumes, the variance of the cpu, memory and volume fractions replaces the difference.
The scorer takes the four numbers (see ResourceAllocationScorer).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched import features
from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationScorer)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "NodeResourcesBalancedAllocation"


class BalancedAllocation:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos
        self.scorer = ResourceAllocationScorer(NAME, balanced_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES,
                                               weighs_volumes=True)

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*BalancedAllocation).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        return self.scorer.score(pod, node_info)

    def score_extensions(self) -> None:
        return None


def balanced_resource_scorer(cpu: int, cpu_capacity: int, memory: int, memory_capacity: int,
                             include_volumes: bool, requested_volumes: int, allocatable_volumes: int) -> int:
    """Upstream: balancedResourceScorer."""
    # fractionOfCapacity inline (a zero capacity counts as full)
    cpu_fraction = 1.0 if cpu_capacity == 0 else float(cpu) / float(cpu_capacity)
    memory_fraction = 1.0 if memory_capacity == 0 else float(memory) / float(memory_capacity)
    if cpu_fraction >= 1 or memory_fraction >= 1:
        return 0  # a full resource cannot be balanced
    if include_volumes and features.enabled("BalanceAttachedNodeVolumes") and allocatable_volumes > 0:
        volume_fraction = float(requested_volumes) / float(allocatable_volumes)
        if volume_fraction >= 1:
            return 0
        mean = (cpu_fraction + memory_fraction + volume_fraction) / 3.0
        variance = ((cpu_fraction - mean) * (cpu_fraction - mean)
                    + (memory_fraction - mean) * (memory_fraction - mean)
                    + (volume_fraction - mean) * (volume_fraction - mean)) / 3.0
        return int((1 - variance) * float(MAX_NODE_SCORE))
    return int((1 - abs(cpu_fraction - memory_fraction)) * float(MAX_NODE_SCORE))


def new(args: dict | None, handle: object) -> BalancedAllocation:
    """Upstream: NewBalancedAllocation (args ignored)."""
    return BalancedAllocation(node_infos_of(handle))


_s: ScorePlugin = BalancedAllocation(None)
