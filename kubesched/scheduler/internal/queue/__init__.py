"""The scheduling queue.

Upstream: pkg/scheduler/internal/queue (scheduling_queue.go, events.go).
"""

from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.scheduler.internal.queue.scheduling_queue import (
    PriorityQueue,
    QueueClosedError,
    QueueError,
)

__all__ = ["PodInfo", "PriorityQueue", "QueueClosedError", "QueueError"]
