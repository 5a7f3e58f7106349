"""NodeResourceLimits: score 1 on nodes whose allocatable cpu or memory can hold the pod's limits.

Upstream: pkg/scheduler/framework/plugins/noderesources/resource_limits.go
(ResourceLimits, preScoreState, ResourceLimits.Name, PreScore, getPodResource, Score,
ScoreExtensions, NewResourceLimits, getResourceLimits, computeScore).

Enabled only with feature gate ResourceLimitsPriorityFunction (alpha, off in v1.18).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Optional

from kubesched.api.core import Node, Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, PreScorePlugin, ScorePlugin, Status
from kubesched.scheduler.nodeinfo.node_info import Resource

NAME: Final = "NodeResourceLimits"
PRE_SCORE_STATE_KEY: Final = "PreScore" + NAME


@dataclass(frozen=True, slots=True)
class PreScoreState:
    """The pod's limits (``preScoreState.podResourceRequest``)."""

    pod_resource_request: Resource

    def clone(self) -> "PreScoreState":
        return self


class ResourceLimits:
    """PreScore + Score plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos

    def name(self) -> str:
        return NAME

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[Status]:
        """Upstream: (*ResourceLimits).PreScore. No nodes: nothing is written."""
        if not nodes:
            return None
        if self.node_infos is None:
            return Status(Code.ERROR, ("empty shared lister",))
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(get_resource_limits(pod)))
        return None

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*ResourceLimits).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None or node_info.node is None:
            return 0, Status(Code.ERROR, (
                lookup_error(self.node_infos, node_name, node_is_nil=True),))
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except KeyError as e:
            return 0, Status(Code.ERROR, (f'Error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {e}',))
        if not isinstance(s, PreScoreState):
            return 0, Status(Code.ERROR, (f"{s!r}  convert to ResourceLimits.preScoreState error",))
        allocatable, limits = node_info.allocatable_resource, s.pod_resource_request
        cpu_score = compute_score(limits.milli_cpu, allocatable.milli_cpu)
        mem_score = compute_score(limits.memory, allocatable.memory)
        return (1 if cpu_score == 1 or mem_score == 1 else 0), None

    def score_extensions(self) -> None:
        return None


def get_resource_limits(pod: Pod) -> Resource:
    """Upstream: getResourceLimits. max(Σ container limits, each init container's limits)."""
    result = Resource()
    for container in pod.spec.containers:
        result.add(container.resources.limits)
    for init in pod.spec.init_containers:
        result.set_max_resource(init.resources.limits)
    return result


def compute_score(limit: int, allocatable: int) -> int:
    """Upstream: computeScore. 1 iff a non-zero limit fits a non-zero allocatable."""
    return 1 if limit != 0 and allocatable != 0 and limit <= allocatable else 0


def new(args: dict | None, handle: object) -> ResourceLimits:
    """Upstream: NewResourceLimits (no args)."""
    return ResourceLimits(node_infos_of(handle))


_p: PreScorePlugin = ResourceLimits(None)
_s: ScorePlugin = ResourceLimits(None)
