"""Small pod helpers of the scheduler's util package.

Upstream: pkg/scheduler/util/utils.go (GetPodFullName, GetPodStartTime,
GetEarliestPodStartTime, MoreImportantPod, GetPodAffinityTerms, GetPodAntiAffinityTerms).

Deviation: upstream's GetPodStartTime answers ``time.Now()`` for a pod without
``status.startTime`` (a fresh wall-clock reading at every call); here the caller passes
``now`` (the simulation clock), so every such pod of one call shares one instant.
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.core import Pod, PodAffinity, PodAffinityTerm
from kubesched.api.pod_util import get_pod_priority


def get_pod_full_name(pod: Pod) -> str:
    """``name_namespace``, the key the scheduler logs and nominates pods by."""
    return f"{pod.metadata.name}_{pod.metadata.namespace}"


def get_pod_start_time(pod: Pod, now: float) -> float:
    """``GetPodStartTime``: ``status.startTime``, or ``now`` for a pod that has not started."""
    return pod.status.start_time if pod.status.start_time is not None else now


def get_earliest_pod_start_time(victims: Any, now: float) -> Optional[float]:
    """``GetEarliestPodStartTime``: the earliest start among the highest-priority victims.

    ``victims`` has ``pods`` (``extenderv1.Victims``); None when it has no pods.
    """
    if not victims.pods:
        return None
    earliest = get_pod_start_time(victims.pods[0], now)
    max_priority = get_pod_priority(victims.pods[0])
    for pod in victims.pods:
        priority = get_pod_priority(pod)
        if priority == max_priority:
            earliest = min(earliest, get_pod_start_time(pod, now))
        elif priority > max_priority:
            max_priority = priority
            earliest = get_pod_start_time(pod, now)
    return earliest


def more_important_pod(pod1: Pod, pod2: Pod, now: float) -> bool:
    """``MoreImportantPod``: higher priority first; equal priority → the earlier start time."""
    p1, p2 = get_pod_priority(pod1), get_pod_priority(pod2)
    if p1 != p2:
        return p1 > p2
    return get_pod_start_time(pod1, now) < get_pod_start_time(pod2, now)


def get_pod_affinity_terms(pod_affinity: Optional[PodAffinity]) -> tuple[PodAffinityTerm, ...]:
    """The required (hard) terms of a pod affinity; nil-safe."""
    if pod_affinity is None:
        return ()
    return pod_affinity.required_during_scheduling_ignored_during_execution


def get_pod_anti_affinity_terms(pod_anti_affinity: Optional[PodAffinity]) -> tuple[PodAffinityTerm, ...]:
    """The required (hard) terms of a pod anti-affinity; nil-safe."""
    if pod_anti_affinity is None:
        return ()
    return pod_anti_affinity.required_during_scheduling_ignored_during_execution
