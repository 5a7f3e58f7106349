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
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationScorer, go_div)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "NodeResourcesMostAllocated"


class MostAllocated:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos
        self.scorer = ResourceAllocationScorer(NAME, most_resource_scorer, DEFAULT_REQUESTED_RATIO_RESOURCES)

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*MostAllocated).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None or node_info.node is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name, node_is_nil=True),))
        return self.scorer.score(pod, node_info)

    def score_extensions(self) -> None:
        return None


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
    return MostAllocated(node_infos_of(handle))


_s: ScorePlugin = MostAllocated(None)
