"""NodeResourcesMostAllocated: prefer nodes whose cpu and memory are already most used (bin packing).

Upstream: pkg/scheduler/framework/plugins/noderesources/most_allocated.go
(MostAllocated.Name, Score, ScoreExtensions, NewMostAllocated, mostResourceScorer,
mostRequestedScore).

Per resource: requested × 100 / capacity (0 when capacity is 0 or exceeded); node score: the
weighted mean over cpu and memory (weights 1), integer division.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, shared_lister_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationPlugin, ResourceAllocationScorer, go_div)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "NodeResourcesMostAllocated"


class MostAllocated(ResourceAllocationPlugin):
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, shared_lister: object) -> None:
        self.shared_lister = shared_lister
        self.scorer = ResourceAllocationScorer(NAME, most_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES)

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*MostAllocated).Score."""
        node_info, err = get_node_info(self.shared_lister, node_name)
        if node_info is None or node_info.node is None:
            return 0, Status(Code.ERROR, (
                f'getting node "{node_name}" from Snapshot: {err}, node is nil: true',))
        return self.scorer.score(pod, node_info)


def most_resource_scorer(cpu: int, cpu_capacity: int, memory: int, memory_capacity: int,
                         include_volumes: bool, requested_volumes: int, allocatable_volumes: int) -> int:
    """Upstream: mostResourceScorer, over memory and cpu (weight 1 each); volumes are not weighed."""
    return go_div(most_requested_score(memory, memory_capacity) + most_requested_score(cpu, cpu_capacity), 2)


def most_requested_score(requested: int, capacity: int) -> int:
    """Upstream: mostRequestedScore."""
    if capacity == 0 or requested > capacity:
        return 0
    return go_div(requested * MAX_NODE_SCORE, capacity)


def new(args: dict | None, handle: object) -> MostAllocated:
    """Upstream: NewMostAllocated (args ignored)."""
    return MostAllocated(shared_lister_of(handle))


_s: ScorePlugin = MostAllocated(None)
