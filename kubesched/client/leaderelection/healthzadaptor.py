"""The leader-election healthz check kube-scheduler installs (``leaderElection``).

Upstream: staging/src/k8s.io/client-go/tools/leaderelection/healthzadaptor.go
(HealthzAdaptor.Name, Check, SetLeaderElection, NewLeaderHealthzAdaptor); kube-scheduler
creates it with a 20 s tolerance (cmd/kube-scheduler/app/options/options.go).

Deviation: ``check`` returns the error text or None instead of a Go error; there is no
HTTP request argument.
"""

from __future__ import annotations

from typing import Any, Final

NAME: Final = "leaderElection"
KUBE_SCHEDULER_TIMEOUT: Final = 20.0


class HealthzAdaptor:
    """Upstream: HealthzAdaptor: healthy until its elector leads with an overdue lease."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.le: Any = None

    def name(self) -> str:
        return NAME

    def check(self) -> str | None:
        if self.le is None:
            return None
        return self.le.check(self.timeout)

    def set_leader_election(self, le: Any) -> None:
        self.le = le


def new_leader_healthz_adaptor(timeout: float) -> HealthzAdaptor:
    """Upstream: NewLeaderHealthzAdaptor."""
    return HealthzAdaptor(timeout)
