"""Watch events and their synchronous, commit-ordered fan-out to subscribers.

Upstream: staging/src/k8s.io/apimachinery/pkg/watch (Event, EventType) and the
apiserver watch cache that delivers every committed change to each watcher in
revision order.
Deviation: delivery is a synchronous call, not a channel; a change committed by a
handler while events are being delivered is queued, so every subscriber still
sees all events in commit order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Final, Optional, Sequence

ADDED: Final = "ADDED"
MODIFIED: Final = "MODIFIED"
DELETED: Final = "DELETED"


@dataclass(frozen=True, slots=True)
class WatchEvent:
    type: str
    kind: str
    obj: Any
    old: Optional[Any]
    resource_version: str


Handler = Callable[[WatchEvent], None]


@dataclass(slots=True)
class _Watcher:
    handler: Handler
    kinds: Optional[frozenset[str]]
    active: bool = True


class Broadcaster:
    """Subscribers in registration order; events delivered in commit order."""

    def __init__(self) -> None:
        self._watchers: list[_Watcher] = []
        self._pending: deque[WatchEvent] = deque()
        self._delivering = False

    def watch(self, handler: Handler, kinds: Optional[Sequence[str]] = None) -> Callable[[], None]:
        """Subscribe; returns a function that stops this watch."""
        watcher = _Watcher(handler, frozenset(kinds) if kinds is not None else None)
        self._watchers.append(watcher)

        def stop() -> None:
            watcher.active = False
            if watcher in self._watchers:
                self._watchers.remove(watcher)

        return stop

    def publish(self, event: WatchEvent) -> None:
        self._pending.append(event)
        if self._delivering:
            return
        self._delivering = True
        try:
            while self._pending:
                self._deliver(self._pending.popleft())
        finally:
            self._delivering = False

    def _deliver(self, event: WatchEvent) -> None:
        for watcher in tuple(self._watchers):
            if watcher.active and (watcher.kinds is None or event.kind in watcher.kinds):
                watcher.handler(event)
