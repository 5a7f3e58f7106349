"""The queue's record of a pending pod: the pod plus when and how often it was tried.

Upstream: pkg/scheduler/framework/v1alpha1/interface.go (PodInfo, PodInfo.DeepCopy).
It lives next to the queue here because the queue is the only thing that creates it;
the framework's QueueSort ``less(pod_info_1, pod_info_2)`` receives these objects.

Deviation: Go's zero ``time.Time`` (a PodInfo made without a timestamp) is 0.0, the
start of the simulation, rather than year 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubesched.api.core import Pod
from kubesched.api.pod_util import get_pod_priority


@dataclass(slots=True, eq=False)
class PodInfo:
    """Mutable on purpose: the queue moves one object between sub-queues, as upstream.

    ``eq=False``: two records are the same only if they are the same object (upstream
    compares pointers).
    """

    pod: Pod
    timestamp: float = 0.0
    attempts: int = 0
    initial_attempt_timestamp: float = 0.0

    def deep_copy(self) -> "PodInfo":
        """``PodInfo.DeepCopy``; pods are immutable, so sharing the pod is a deep copy."""
        return PodInfo(self.pod, self.timestamp, self.attempts, self.initial_attempt_timestamp)


def priority_sort_less(pod_info_1: PodInfo, pod_info_2: PodInfo) -> bool:
    """The default QueueSort order (``queuesort.PrioritySort.Less``).

    Higher priority first; equal priority → the earlier ``timestamp`` first.
    """
    p1, p2 = get_pod_priority(pod_info_1.pod), get_pod_priority(pod_info_2.pod)
    return p1 > p2 or (p1 == p2 and pod_info_1.timestamp < pod_info_2.timestamp)
