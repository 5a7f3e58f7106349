"""Informers: API-server watch events delivered to handlers through the event loop.

Upstream: no direct counterpart; it stands in for client-go's shared informers
(staging/src/k8s.io/client-go/tools/cache: SharedIndexInformer.AddEventHandler,
ResourceEventHandler, ResourceEventHandlerFuncs, FilteringResourceEventHandler,
WaitForCacheSync) and the scheduler's dedicated pod informer (pkg/scheduler/scheduler.go
NewPodInformer: field selector ``status.phase!=Succeeded,status.phase!=Failed``).

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

from dataclasses import dataclass
from typing import Any, Callable, Final, Optional, Protocol

from kubesched.cluster.watch import ADDED, DELETED, MODIFIED, WatchEvent
from kubesched.scheduler.listers.informer_listers import InformerListers
from kubesched.sim.loop import Handle

INFORMER_PRIORITY: Final = 0
LIST_ORDER: Final = ("Node", "CSINode", "PersistentVolume", "PersistentVolumeClaim", "StorageClass",
                     "Service", "ReplicationController", "ReplicaSet", "StatefulSet",
                     "PodDisruptionBudget", "Pod")
LISTER_KINDS: Final = frozenset({"Service", "ReplicationController", "ReplicaSet", "StatefulSet",
                                 "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode",
                                 "PodDisruptionBudget"})
TERMINAL_POD_PHASES: Final = frozenset({"Succeeded", "Failed"})


class ResourceEventHandler(Protocol):
    def on_add(self, obj: Any) -> None: ...
    def on_update(self, old: Any, new: Any) -> None: ...
    def on_delete(self, obj: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class ResourceEventHandlerFuncs:
    """``ResourceEventHandlerFuncs``: any of the three may be None."""

    add_func: Optional[Callable[[Any], None]] = None
    update_func: Optional[Callable[[Any, Any], None]] = None
    delete_func: Optional[Callable[[Any], None]] = None

    def on_add(self, obj: Any) -> None:
        if self.add_func is not None:
            self.add_func(obj)

    def on_update(self, old: Any, new: Any) -> None:
        if self.update_func is not None:
            self.update_func(old, new)

    def on_delete(self, obj: Any) -> None:
        if self.delete_func is not None:
            self.delete_func(obj)


@dataclass(frozen=True, slots=True)
class FilteringResourceEventHandler:
    """``FilteringResourceEventHandler``: only objects passing ``filter_func`` reach ``handler``."""

    filter_func: Callable[[Any], bool]
    handler: ResourceEventHandler

    def on_add(self, obj: Any) -> None:
        if self.filter_func(obj):
            self.handler.on_add(obj)

    def on_update(self, old: Any, new: Any) -> None:
        newer, older = self.filter_func(new), self.filter_func(old)
        if newer and older:
            self.handler.on_update(old, new)
        elif newer:
            self.handler.on_add(new)
        elif older:
            self.handler.on_delete(old)

    def on_delete(self, obj: Any) -> None:
        if self.filter_func(obj):
            self.handler.on_delete(obj)


class APIServerLike(Protocol):
    def list_all(self, kinds: Optional[list[str] | tuple[str, ...]] = None) -> tuple[Any, ...]: ...

    def watch(self, handler: Callable[[WatchEvent], None],
              kinds: Optional[list[str] | tuple[str, ...]] = None) -> Callable[[], None]: ...


class LoopLike(Protocol):
    def call_later(self, delay: float, callback: Callable[[], object], *, priority: int = 0,
                   label: str = "") -> Handle: ...


def _key(obj: Any) -> tuple[str, str]:
    return obj.metadata.namespace, obj.metadata.name


def _visible(kind: str, obj: Any) -> bool:
    """The pod informer's field selector: terminal pods are not listed nor watched."""
    return kind != "Pod" or obj.status.phase not in TERMINAL_POD_PHASES


class SharedInformer:
    """One kind's informer: a local store plus its handlers."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.store: dict[tuple[str, str], Any] = {}
        self.handlers: list[ResourceEventHandler] = []

    def add_event_handler(self, handler: ResourceEventHandler) -> None:
        self.handlers.append(handler)

    def list(self) -> list[Any]:
        return [self.store[k] for k in sorted(self.store)]

    def get(self, namespace: str, name: str) -> Optional[Any]:
        return self.store.get((namespace, name))

    def apply(self, event_type: str, obj: Any) -> Optional[tuple[str, Any, Any]]:
        """Apply one change to the store; returns (ADDED|MODIFIED|DELETED, obj, old) or None."""
        key, old = _key(obj), self.store.get(_key(obj))
        visible = event_type != DELETED and _visible(self.kind, obj)
        if visible:
            self.store[key] = obj
        elif old is not None:
            del self.store[key]
        if visible:
            change = (MODIFIED, obj, old) if old is not None else (ADDED, obj, None)
        elif old is None:
            return None
        else:
            # A real delete carries the object's final state; an object leaving the field
            # selector is deleted with its previous content (the watch cache's rule).
            change = (DELETED, obj if event_type == DELETED else old, old)
        return change

    def notify(self, event_type: str, obj: Any, old: Any) -> None:
        """Hand one applied change to every handler, in registration order."""
        for handler in list(self.handlers):
            if event_type == ADDED:
                handler.on_add(obj)
            elif event_type == MODIFIED:
                handler.on_update(old, obj)
            else:
                handler.on_delete(obj)


DeliverHook = Callable[[str, str, Any, Any], None]  # (kind, event_type, obj, old)


class InformerFactory:
    """``SharedInformerFactory`` on the simulated loop."""

    def __init__(self, apiserver: APIServerLike, loop: LoopLike, *, priority: int = INFORMER_PRIORITY,
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
