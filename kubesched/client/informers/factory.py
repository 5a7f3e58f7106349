"""The informer factory: API-server watch events delivered to handlers through the event loop.

Upstream: staging/src/k8s.io/client-go/informers/factory.go (``SharedInformerFactory``:
``Start``, ``WaitForCacheSync``) over client-go's shared informers (``shared_informer.py``).

How events flow:

1. ``start()`` lists every watched object (the informers' initial List) and subscribes
   to the API server's watch in the same synchronous step, so nothing falls in between.
   Each listed object becomes an ADDED delivery, in a fixed order: kinds in
   ``LIST_ORDER`` (nodes first, pods last), then namespace, then name.
2. Each watch event becomes one loop callback ``call_later(0, ..., priority=priority)``:
   handlers never run inside the API server's write, always later on the loop, in
   commit order. The informer's local store (and the ``InformerListers``) change when the
   callback runs, so handlers see the same world a real informer's handlers would.
3. An update is delivered with the informer's previous copy as ``old``.
4. The pod informer ignores terminal pods (phase Succeeded/Failed): a pod that
   becomes terminal is delivered as a delete, as the field selector makes the API
   server do upstream.
5. ``has_synced()`` turns true once the initial ADDED deliveries have all run
   (``WaitForCacheSync``).
6. ``on_deliver`` hooks (not upstream; for the trace) hear each delivery as
   ``hook(kind, event_type, obj, old)`` after the store changed and before any handler
   runs, in delivery order; ``old`` is the previous copy (None for ADDED).

Handlers of one kind run in registration order (upstream: one goroutine per handler,
so their relative order is not fixed). ``FilteringResourceEventHandler`` turns an update
that enters the filter into an add and one that leaves it into a delete, which is how
a pod that gets bound moves from the queue handlers to the cache handlers.

Deviations: no resync, no relist, no ``DeletedFinalStateUnknown`` tombstones; one
delivery callback per event dispatches to every handler of the kind.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Optional, Protocol

from kubesched.client.informers.shared_informer import (
    INFORMER_PRIORITY,
    ResourceEventHandler,
    SharedInformer,
)
from kubesched.client.listers.informer_listers import InformerListers
from kubesched.cluster.watch import ADDED, DELETED, WatchEvent
from kubesched.util.loop import Loop

LIST_ORDER: Final = ("Node", "CSINode", "PersistentVolume", "PersistentVolumeClaim", "StorageClass",
                     "Service", "ReplicationController", "ReplicaSet", "StatefulSet",
                     "PodDisruptionBudget", "Pod")
LISTER_KINDS: Final = frozenset({"Node", "Service", "ReplicationController", "ReplicaSet", "StatefulSet",
                                 "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode",
                                 "PodDisruptionBudget"})


class APIServerLike(Protocol):
    def list_all(self, kinds: Optional[list[str] | tuple[str, ...]] = None) -> tuple[Any, ...]: ...

    def watch(self, handler: Callable[[WatchEvent], None],
              kinds: Optional[list[str] | tuple[str, ...]] = None) -> Callable[[], None]: ...


DeliverHook = Callable[[str, str, Any, Any], None]  # (kind, event_type, obj, old)


class InformerFactory:
    """``SharedInformerFactory`` on the simulated loop."""

    def __init__(self, apiserver: APIServerLike, loop: Loop, *, priority: int = INFORMER_PRIORITY,
                 listers: Optional[InformerListers] = None, on_deliver: Optional[DeliverHook] = None) -> None:
        self.apiserver = apiserver
        self.loop = loop
        self.priority = priority
        self.listers = listers if listers is not None else InformerListers()
        self.informers: dict[str, SharedInformer] = {}
        self.delivered: list[tuple[str, str, str, str]] = []  # (type, kind, namespace, name) as seen
        self.on_deliver: list[DeliverHook] = [on_deliver] if on_deliver is not None else []
        self._synced = False
        self._started = False
        self._stop_watch: Optional[Callable[[], None]] = None

    def informer(self, kind: str) -> SharedInformer:
        if kind not in self.informers:
            self.informers[kind] = SharedInformer(kind)
        return self.informers[kind]

    def add_event_handler(self, kind: str, handler: ResourceEventHandler) -> None:
        self.informer(kind).add_event_handler(handler)

    def watched_kinds(self) -> tuple[str, ...]:
        kinds = set(self.informers) | LISTER_KINDS
        return tuple(sorted(kinds, key=lambda k: (LIST_ORDER.index(k) if k in LIST_ORDER else len(LIST_ORDER), k)))

    def start(self) -> None:
        """List, then watch: every event reaches the handlers through the loop.

        Register handlers first: the kinds watched are fixed here.
        """
        if self._started:
            return
        self._started = True
        kinds = self.watched_kinds()
        listed = sorted(self.apiserver.list_all(kinds),
                        key=lambda o: (kinds.index(type(o).KIND), o.metadata.namespace, o.metadata.name))
        for obj in listed:
            self._schedule(ADDED, obj)
        self.loop.call_later(0, self._mark_synced, priority=self.priority, label="informers synced")
        self._stop_watch = self.apiserver.watch(self._on_watch_event, kinds)

    def stop(self) -> None:
        if self._stop_watch is not None:
            self._stop_watch()
            self._stop_watch = None

    def has_synced(self) -> bool:
        return self._synced

    def _mark_synced(self) -> None:
        self._synced = True

    def _on_watch_event(self, event: WatchEvent) -> None:
        self._schedule(event.type, event.obj)

    def _schedule(self, event_type: str, obj: Any) -> None:
        meta = obj.metadata
        name = f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name
        label = f"informer {event_type} {type(obj).KIND} {name}"
        self.loop.call_later(0, lambda: self._dispatch(event_type, obj), priority=self.priority, label=label)

    def _dispatch(self, event_type: str, obj: Any) -> None:
        kind = type(obj).KIND
        if kind in LISTER_KINDS:
            if event_type == DELETED:
                self.listers.delete(obj)
            else:
                self.listers.upsert(obj)
        informer = self.informer(kind)
        change = informer.apply(event_type, obj)
        if change is None:
            return
        for hook in self.on_deliver:
            hook(kind, *change)
        informer.notify(*change)
        self.delivered.append((change[0], kind, obj.metadata.namespace, obj.metadata.name))
