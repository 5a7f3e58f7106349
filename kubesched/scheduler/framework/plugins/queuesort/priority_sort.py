"""PrioritySort: the default QueueSort plugin (higher priority first, then first come).

Upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort.go @ v1.18.5
(PrioritySort.Name, PrioritySort.Less, New).

"First come" compares the PodInfo stamps as ``(timestamp, seq)``: see
``kubesched.scheduler.internal.queue.pod_info`` (Deviation: upstream's wall-clock stamps are
strictly increasing; the queue's stamping sequence reproduces that on the simulated clock).
"""

from __future__ import annotations

from typing import Any, Final

from kubesched.api.pod_util import get_pod_priority
from kubesched.scheduler.framework.v1alpha1.interface import QueueSortPlugin

NAME: Final = "PrioritySort"


def less(pod_info_1: Any, pod_info_2: Any) -> bool:
    """Upstream: (*PrioritySort).Less. ``pod_info_*``: anything with ``pod``, ``timestamp``, ``seq``."""
    p1, p2 = get_pod_priority(pod_info_1.pod), get_pod_priority(pod_info_2.pod)
    if p1 != p2:
        return p1 > p2
    t1, t2 = pod_info_1.timestamp, pod_info_2.timestamp
    return t1 < t2 or (t1 == t2 and pod_info_1.seq < pod_info_2.seq)


class PrioritySort:
    def name(self) -> str:
        return NAME

    less = staticmethod(less)


def new(args: dict | None, handle: object) -> PrioritySort:
    return PrioritySort()


_: QueueSortPlugin = PrioritySort()
