"""NodeResourcesLeastAllocated: prefer nodes with more free cpu and memory.

Upstream: pkg/scheduler/framework/plugins/noderesources/least_allocated.go
(LeastAllocated.Name, Score, ScoreExtensions, NewLeastAllocated, leastResourceScorer,
leastRequestedScore).

Per resource: (capacity − requested) × 100 / capacity (0 when capacity is 0 or exceeded);
node score: the weighted mean over cpu and memory (weights 1), integer division. The scorer
takes the four numbers (see ResourceAllocationScorer).
"""

from __future__ import annotations

from typing import Final

from kubesched.scheduler.framework.plugins.helper.snapshot import shared_lister_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationPlugin, ResourceAllocationScorer, go_div)
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, ScorePlugin

NAME: Final = "NodeResourcesLeastAllocated"


class LeastAllocated(ResourceAllocationPlugin):
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, shared_lister: object) -> None:
        self.shared_lister = shared_lister
        self.scorer = ResourceAllocationScorer(NAME, least_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES)


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
    return LeastAllocated(shared_lister_of(handle))


_s: ScorePlugin = LeastAllocated(None)
