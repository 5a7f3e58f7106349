"""PrioritySort: the default QueueSort plugin (higher priority first, then first come).

Upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort.go @ v1.18.5
(PrioritySort.Name, PrioritySort.Less, New).
"""

from __future__ import annotations

from typing import Any, Final

from kubesched.api.pod_util import get_pod_priority
from kubesched.scheduler.framework.v1alpha1.interface import QueueSortPlugin

NAME: Final = "PrioritySort"


class PrioritySort:
    def name(self) -> str:
        return NAME

    def less(self, pod_info_1: Any, pod_info_2: Any) -> bool:
        """Upstream: (*PrioritySort).Less. ``pod_info_*``: anything with ``pod`` and ``timestamp``."""
        p1, p2 = get_pod_priority(pod_info_1.pod), get_pod_priority(pod_info_2.pod)
        return p1 > p2 or (p1 == p2 and pod_info_1.timestamp < pod_info_2.timestamp)


def new(args: dict | None, handle: object) -> PrioritySort:
    return PrioritySort()


_: QueueSortPlugin = PrioritySort()
