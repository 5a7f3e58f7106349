"""The event-loop interface the in-memory API server runs on.

Upstream: none (the simulator's single event heap replaces the goroutines and
timers of kube-apiserver, the kubelet and kube-controller-manager). The real
loop lives in kubesched.sim.loop; this package depends only on the Protocol.
"""

from __future__ import annotations

from typing import Callable, Protocol


class Handle(Protocol):
    """A scheduled callback that can still be cancelled."""

    def cancel(self) -> None: ...


class Loop(Protocol):
    """Simulated time and delayed callbacks, ordered by (time, priority, sequence)."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None], *,
                   priority: int = 0, label: str = "") -> Handle: ...
