"""What podPassesFiltersOnNode did at one node, for the observer of a traced walk (not upstream).

Upstream: no counterpart; pkg/scheduler/core/generic_scheduler.go (podPassesFiltersOnNode,
addNominatedPods) computes these values and keeps none of them. The generic scheduler's Filter
walk and selectVictimsOnNode fill a ``FilterCheck`` only when an observer is set; the trace
recorder turns it into a ``NodeCheck`` record value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from kubesched.scheduler.framework.v1alpha1.framework import PluginFailure
from kubesched.scheduler.framework.v1alpha1.interface import Status

__all__ = ["CheckLog", "FilterCheck"]


@dataclass(slots=True)
class FilterCheck:
    """podPassesFiltersOnNode at one node, for the observer (not upstream).

    ``passes``: (RunFilterPlugins' plugin → status map, its merge) of each filter pass, in
    order (empty for a node without nominated pods that passed); ``nominated``: None when
    no pod is nominated to the node, else the nominated pods added for pass 0;
    ``add_pod_failure``: the nominated pod whose AddPod extension failed, and the failure.
    """

    passes: list[tuple[dict[str, Status], Optional[Status]]] = field(default_factory=list)
    nominated: Optional[list[Any]] = None
    add_pod_failure: Optional[tuple[Any, PluginFailure]] = None


CheckLog = list[tuple[int, FilterCheck]]  # (walk position or preemption step, check)


