"""NodeResourcesLeastAllocated: prefer nodes with more free cpu and memory.

Upstream: pkg/scheduler/framework/plugins/noderesources/least_allocated.go
(LeastAllocated.Name, Score, ScoreExtensions, NewLeastAllocated, leastResourceScorer,
leastRequestedScore).

Per resource: (capacity − requested) × 100 / capacity (0 when capacity is 0 or exceeded);
node score: the weighted mean over cpu and memory (weights 1), integer division. The scorer
takes the four numbers (see ResourceAllocationScorer).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationScorer, go_div)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "NodeResourcesLeastAllocated"


class LeastAllocated:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos
        self.scorer = ResourceAllocationScorer(NAME, least_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES)

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*LeastAllocated).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        return self.scorer.score(pod, node_info)

    def score_extensions(self) -> None:
        return None


def least_resource_scorer(cpu: int, cpu_capacity: int, memory: int, memory_capacity: int,
                          include_volumes: bool, requested_volumes: int, allocatable_volumes: int) -> int:
    """Upstream: leastResourceScorer, over memory and cpu (weight 1 each); volumes are not weighed."""
    if 0 < cpu_capacity and cpu <= cpu_capacity and 0 < memory_capacity and memory <= memory_capacity:
        # the usual node: leastRequestedScore inline, where every quotient is of non-negative
        # numbers, so // is Go's truncation
        return ((memory_capacity - memory) * MAX_NODE_SCORE // memory_capacity
                + (cpu_capacity - cpu) * MAX_NODE_SCORE // cpu_capacity) // 2
    return go_div(least_requested_score(memory, memory_capacity) + least_requested_score(cpu, cpu_capacity), 2)


def least_requested_score(requested: int, capacity: int) -> int:
    """Upstream: leastRequestedScore."""
    if capacity == 0 or requested > capacity:
        return 0
    return go_div((capacity - requested) * MAX_NODE_SCORE, capacity)


def new(args: dict | None, handle: object) -> LeastAllocated:
    """Upstream: NewLeastAllocated (args ignored)."""
    return LeastAllocated(node_infos_of(handle))


_s: ScorePlugin = LeastAllocated(None)
