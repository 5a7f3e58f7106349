"""Small pod helpers of the scheduler's util package.

Upstream: pkg/scheduler/util/utils.go (GetPodFullName, GetPodAffinityTerms,
GetPodAntiAffinityTerms).
"""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import Pod, PodAffinity, PodAffinityTerm


def get_pod_full_name(pod: Pod) -> str:
    """``name_namespace``, the key the scheduler logs and nominates pods by."""
    return f"{pod.metadata.name}_{pod.metadata.namespace}"


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
