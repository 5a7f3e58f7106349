"""Shared informers and their event handlers: one kind's local store fed by the watch.

Upstream: staging/src/k8s.io/client-go/tools/cache (shared_informer.go
``SharedIndexInformer.AddEventHandler``, controller.go ``ResourceEventHandler``,
``ResourceEventHandlerFuncs``, ``FilteringResourceEventHandler``) and the scheduler's dedicated
pod informer (pkg/scheduler/scheduler.go ``NewPodInformer``: field selector
``status.phase!=Succeeded,status.phase!=Failed``). How deliveries are ordered is described in
``kubesched.client.informers.factory``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Optional, Protocol

from kubesched.cluster.watch import ADDED, DELETED, MODIFIED


INFORMER_PRIORITY: Final = 0
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
