"""The queue's record of a pending pod: the pod plus when and how often it was tried.

Upstream: pkg/scheduler/framework/v1alpha1/interface.go (PodInfo, PodInfo.DeepCopy).
It lives next to the queue here because the queue is the only thing that creates it;
the framework's QueueSort ``less(pod_info_1, pod_info_2)`` receives these objects.

Deviations:
- Go's zero ``time.Time`` (a PodInfo made without a timestamp) is 0.0, the start of the
  simulation, rather than year 1.
- ``seq`` is not upstream. Upstream stamps ``Timestamp`` with ``clock.Now()``, and wall-clock
  stamps taken one after another always increase; simulated time does not move during a
  burst, so pods stamped at one instant would tie. The queue therefore stamps ``seq`` from its
  own monotonic counter together with ``timestamp``, and wherever upstream compares stamps
  (the QueueSort order, the podBackoffQ order) ``(timestamp, seq)`` is compared: equal
  simulated times fall back to stamping order, as upstream's increasing stamps do. Durations
  and ages (backoff expiry against now, the 60 s unschedulableQ leftover rule) use
  ``timestamp`` alone. A PodInfo made outside the queue has ``seq`` 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubesched.api.core import Pod


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
    seq: int = 0  # stamping order of ``timestamp`` (see the module docstring)

    def deep_copy(self) -> "PodInfo":
        """``PodInfo.DeepCopy``; pods are immutable, so sharing the pod is a deep copy."""
        return PodInfo(self.pod, self.timestamp, self.attempts, self.initial_attempt_timestamp, self.seq)

