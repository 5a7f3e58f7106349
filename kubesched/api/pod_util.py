"""Pod helpers the scheduler shares with the rest of Kubernetes.

Upstream: pkg/api/v1/pod/util.go (GetPodPriority).
"""

from __future__ import annotations

from typing import Any


def get_pod_priority(pod: Any) -> int:
    """``GetPodPriority``: ``spec.priority``, or 0 when unset."""
    return pod.spec.priority if pod.spec.priority is not None else 0
