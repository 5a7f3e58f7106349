"""The in-memory API server: verbs, graceful deletion, pods/binding, watch and Events.

Upstream: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
(Store.Create, Update, Delete, updateForGracefulDeletionAndFinalizers),
staging/src/k8s.io/apiserver/pkg/registry/rest/create.go, update.go, delete.go
(BeforeCreate, BeforeUpdate, BeforeDelete), pkg/registry/core/pod/storage/storage.go
(BindingREST.setPodHostAndAnnotations, assignPod, StatusREST.Update) and
etcd3's GuaranteedUpdate (an update that changes nothing is not written).

Deviation: every call runs synchronously on the simulated loop; watch events are
delivered as the write commits. ``uid`` is not random: a UUID-formatted stable
hash of kind/namespace/name and a create counter. ``creationTimestamp`` and
``generation`` (1) are set only when missing, so cluster snapshots keep theirs.
A namespaced object without a namespace goes to ``default`` (kubectl's
behaviour); namespaces need not exist (no NamespaceLifecycle admission).
Deviation: the kubelet, not the API server, removes a terminating pod once its
containers stopped (a delete with grace 0: one more MODIFIED, then DELETED); here
the API server itself does so when the grace period has elapsed on the loop,
whether or not a node runs the pod. Finalizers are kept but never block removal.
``update_status`` changes status only (upstream also accepts label/annotation
changes through the status subresource). Deviation: ``create`` runs the strategy's
validation (``ValidateObjectMeta``) only for the lock kinds (``VALIDATED_ON_CREATE``), whose
names come from ``leaderElection.resourceName``/``resourceNamespace``; every other object
was validated when its file loaded or is built valid by the controller that writes it.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
import builtins
from typing import Any, Callable, Final, Mapping, Optional, Protocol, Sequence

from kubesched.api.core import Event, EventSource, Pod, PodCondition
from kubesched.api.meta import Time
from kubesched.api.validate_selectors import validate_object_meta
from kubesched.cluster import errors, pod_strategy
from kubesched.util.loop import Handle, Loop
from kubesched.cluster.events import (EventCorrelator, event_name, make_event, object_reference)
from kubesched.cluster.resources import known, namespaced
from kubesched.cluster.store import Key, Store, key_of, with_resource_version
from kubesched.cluster.watch import ADDED, DELETED, MODIFIED, Broadcaster, Handler, WatchEvent

UID_NAMESPACE: Final = uuid.UUID("6b756265-7363-6865-642d-636c75737465")
"""Fixed namespace for the uuid5 object UIDs ("kubesched-cluste" in ASCII)."""
GENERATE_NAME_ALPHABET: Final = "bcdfghjklmnpqrstvwxz2456789"
"""utilrand's alphabet for generated name suffixes (no vowels)."""
DEFAULT_SCHEDULER: Final = "default-scheduler"
FINAL_DELETE_LABEL: Final = "kubelet: delete terminated pod"
VALIDATED_ON_CREATE: Final = frozenset({"Endpoints", "ConfigMap", "Lease"})
"""The leader-election lock kinds: their names are configuration, not a loaded file's."""


class Selector(Protocol):
    def matches(self, labels: Mapping[str, str]) -> bool: ...


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What an informer's initial List returns: every object and the revision to watch from."""

    resource_version: str
    objects: tuple[Any, ...]


def stable_suffix(seed: str, length: int = 5) -> str:
    """``length`` characters of GENERATE_NAME_ALPHABET from a stable hash of ``seed``."""
    digest = uuid.uuid5(UID_NAMESPACE, seed).int
    chars = []
    for _ in range(length):
        digest, index = divmod(digest, len(GENERATE_NAME_ALPHABET))
        chars.append(GENERATE_NAME_ALPHABET[index])
    return "".join(chars)


class APIServer:
    """kube-apiserver plus etcd for one simulated cluster."""

    def __init__(self, loop: Loop):
        self.loop = loop
        self._store = Store()
        self._watchers = Broadcaster()
        self._creates = 0
        self._removals: dict[Key, Handle] = {}
        self._correlator = EventCorrelator(self._event_name)

    # ----- reads -------------------------------------------------------------------------------

    @property
    def resource_version(self) -> str:
        """The latest committed revision (what a List returns as its resourceVersion)."""
        return str(self._store.revision)

    def get(self, kind: str, namespace: str, name: str) -> Any:
        key = self._key(kind, namespace, name)
        obj = self._store.get(key)
        if obj is None:
            raise errors.not_found(kind, name)
        return obj

    def list(self, kind: str, namespace: Optional[str] = None,
             label_selector: Selector | Mapping[str, str] | None = None) -> builtins.list[Any]:
        """Objects of one kind ordered by namespace, then name."""
        self._check_kind(kind)
        matches = _selector_matcher(label_selector)
        return [obj for obj in self._store.items(kind, namespace) if matches(obj.metadata.labels)]

    def list_all(self, kinds: Optional[Sequence[str]] = None) -> tuple[Any, ...]:
        """Every object (of ``kinds``) ordered by kind, namespace, name."""
        wanted = None if kinds is None else frozenset(kinds)
        return tuple(o for o in self._store.items() if wanted is None or type(o).KIND in wanted)

    def snapshot(self, kinds: Optional[Sequence[str]] = None) -> Snapshot:
        return Snapshot(self.resource_version, self.list_all(kinds))

    def watch(self, handler: Handler, kinds: Optional[Sequence[str]] = None) -> Callable[[], None]:
        """Call ``handler(WatchEvent)`` for every later commit; returns ``stop()``."""
        return self._watchers.watch(handler, kinds)

    # ----- writes ------------------------------------------------------------------------------

    def create(self, obj: Any) -> Any:
        """Upstream: Store.Create with rest.BeforeCreate."""
        kind = type(obj).KIND
        self._check_kind(kind)
        obj = self._prepare_for_create(obj)
        if kind in VALIDATED_ON_CREATE:
            causes = [f"{p.path}: {p.message}" for p in validate_object_meta(obj.metadata, kind)]
            if causes:
                raise errors.invalid(kind, obj.metadata.name, causes)
        key = key_of(obj)
        if self._store.get(key) is not None:
            raise errors.already_exists(kind, obj.metadata.name)
        return self._commit(ADDED, obj, None)

    def update(self, obj: Any) -> Any:
        """Upstream: Store.Update: spec and metadata; status and system fields kept."""
        old = self._current_for_write(obj)
        new = self._prepare_for_update(obj, old)
        if isinstance(new, Pod):
            causes = pod_strategy.validate_pod_update(new, old)
            if causes:
                raise errors.invalid("Pod", new.metadata.name, causes)
        return self._write(new, old)

    def update_status(self, obj: Any) -> Any:
        """Upstream: the ``status`` subresource: only ``status`` changes."""
        old = self._current_for_write(obj)
        if not hasattr(old, "status"):
            raise errors.NotFound("the server could not find the requested resource")
        return self._write(dataclasses.replace(old, status=obj.status), old)

    def delete(self, kind: str, namespace: str, name: str,
               grace_period_seconds: Optional[int] = None) -> Any:
        """Upstream: Store.Delete; pods go through graceful deletion (rest.BeforeDelete).

        Returns the object as it stands after the call (terminating, or as removed).
        """
        obj = self.get(kind, namespace, name)
        if not isinstance(obj, Pod):
            return self._remove(obj)
        meta = obj.metadata
        if meta.deletion_timestamp is not None:
            return self._shorten_grace(obj, grace_period_seconds)
        period = pod_strategy.check_graceful_delete(obj, grace_period_seconds)
        marked = self._mark_deleting(obj, Time(self.loop.now() + period), period)
        if period == 0:
            return self._remove(marked)
        self._schedule_removal(marked, period)
        return marked

    def bind(self, namespace: str, name: str, node_name: str) -> Pod:
        """Upstream: BindingREST.Create -> assignPod -> setPodHostAndAnnotations."""
        pod = self._store.get(self._key("Pod", namespace, name))
        if pod is None:
            raise errors.not_found("Pod", name)
        if pod.metadata.deletion_timestamp is not None:
            raise errors.conflict("pods/binding", name,
                                  f"pod {name} is being deleted, cannot be assigned to a host")
        if pod.spec.node_name:
            raise errors.conflict("pods/binding", name,
                                  f'pod {name} is already assigned to node "{pod.spec.node_name}"')
        status = pod_strategy.update_pod_condition(
            pod.status, PodCondition(type=pod_strategy.POD_SCHEDULED, status=pod_strategy.CONDITION_TRUE),
            self.loop.now())
        bound = dataclasses.replace(pod, spec=dataclasses.replace(pod.spec, node_name=node_name),
                                    status=status)
        return self._write(bound, pod)

    # ----- events ------------------------------------------------------------------------------

    def record_event(self, involved: Any, type: str, reason: str, message: str,
                     component: str = DEFAULT_SCHEDULER, host: str = "") -> Optional[Event]:
        """Upstream: recorder.generateEvent + recordToSink through the EventCorrelator.

        Returns the stored Event, or None when the spam filter dropped it.
        """
        now = self.loop.now()
        event = make_event(object_reference(involved), type, reason, message,
                           EventSource(component=component, host=host), now, self._event_name)
        result = self._correlator.correlate(event, now)
        if result.skip or result.event is None:
            return None
        stored = self._write_event(result.event, result.patch)
        self._correlator.update_state(stored)
        return stored

    def events_for(self, obj: Any) -> builtins.list[Event]:
        """Events about ``obj`` oldest first, as ``kubectl describe`` sorts them (by lastTimestamp)."""
        meta = obj.metadata
        kind = type(obj).KIND
        found = [e for e in self._store.items("Event", meta.namespace or "default")
                 if e.involved_object.kind == kind and e.involved_object.name == meta.name
                 and e.involved_object.namespace == meta.namespace
                 and (not meta.uid or e.involved_object.uid in ("", meta.uid))]
        return sorted(found, key=lambda e: (e.last_timestamp or 0.0, e.metadata.name))

    # ----- internals ---------------------------------------------------------------------------

    def _check_kind(self, kind: str) -> None:
        if not known(kind):
            raise errors.NotFound("the server could not find the requested resource")

    def _key(self, kind: str, namespace: str, name: str) -> Key:
        self._check_kind(kind)
        if not namespaced(kind):
            return (kind, "", name)
        return (kind, namespace or "default", name)

    def _prepare_for_create(self, obj: Any) -> Any:
        """Upstream: rest.BeforeCreate / FillObjectMetaSystemFields / names.SimpleNameGenerator."""
        kind = type(obj).KIND
        meta = obj.metadata
        namespace = (meta.namespace or "default") if namespaced(kind) else ""
        name = meta.name
        if not name and meta.generate_name:
            name = self._generate_name(kind, namespace, meta.generate_name)
        if not name:
            raise errors.invalid(kind, "", ["metadata.name: Required value: name or generateName is required"])
        self._creates += 1
        meta = dataclasses.replace(
            meta, name=name, namespace=namespace, resource_version="",
            uid=meta.uid or str(uuid.uuid5(UID_NAMESPACE, f"{kind}/{namespace}/{name}/{self._creates}")),
            creation_timestamp=meta.creation_timestamp if meta.creation_timestamp is not None
            else Time(self.loop.now()),
            generation=meta.generation or 1, deletion_timestamp=None, deletion_grace_period_seconds=None)
        obj = dataclasses.replace(obj, metadata=meta)
        return pod_strategy.prepare_for_create(obj) if isinstance(obj, Pod) else obj

    def _generate_name(self, kind: str, namespace: str, prefix: str) -> str:
        counter = self._creates
        while True:
            name = prefix + stable_suffix(f"{kind}/{namespace}/{prefix}/{counter}")
            if self._store.get((kind, namespace, name)) is None:
                return name
            counter += 1

    def _current_for_write(self, obj: Any) -> Any:
        """The stored object, after the optimistic-concurrency check."""
        kind = type(obj).KIND
        old = self.get(kind, obj.metadata.namespace, obj.metadata.name)
        incoming = obj.metadata.resource_version
        if incoming and incoming != old.metadata.resource_version:
            raise errors.update_conflict(kind, obj.metadata.name)
        return old

    @staticmethod
    def _prepare_for_update(obj: Any, old: Any) -> Any:
        """Upstream: rest.BeforeUpdate + PrepareForUpdate (status and system metadata kept)."""
        meta = dataclasses.replace(
            obj.metadata, namespace=old.metadata.namespace, uid=old.metadata.uid,
            generate_name=old.metadata.generate_name,
            creation_timestamp=old.metadata.creation_timestamp,
            deletion_timestamp=old.metadata.deletion_timestamp,
            deletion_grace_period_seconds=old.metadata.deletion_grace_period_seconds,
            generation=old.metadata.generation, resource_version=old.metadata.resource_version)
        if hasattr(old, "spec") and obj.spec != old.spec and meta.generation > 0:
            meta = dataclasses.replace(meta, generation=meta.generation + 1)
        new = dataclasses.replace(obj, metadata=meta)
        if hasattr(old, "status"):
            new = dataclasses.replace(new, status=old.status)
        return new

    def _write(self, new: Any, old: Any) -> Any:
        """Commit an update unless nothing changed (GuaranteedUpdate's no-op short cut)."""
        if new == old:
            return old
        return self._commit(MODIFIED, new, old)

    def _commit(self, event_type: str, obj: Any, old: Optional[Any]) -> Any:
        obj = with_resource_version(obj, self._store.next_revision())
        self._store.put(obj)
        self._publish(event_type, obj, old)
        return obj

    def _remove(self, obj: Any) -> Any:
        key = key_of(obj)
        handle = self._removals.pop(key, None)
        if handle is not None:
            handle.cancel()
        old = self._store.remove(key)
        gone = with_resource_version(old, self._store.next_revision())
        self._publish(DELETED, gone, old)
        return gone

    def _publish(self, event_type: str, obj: Any, old: Optional[Any]) -> None:
        self._watchers.publish(WatchEvent(event_type, type(obj).KIND, obj, old,
                                          obj.metadata.resource_version))

    def _mark_deleting(self, pod: Pod, deletion_timestamp: Time, period: int) -> Pod:
        """Upstream: rest.BeforeDelete's update (deletionTimestamp = now + grace, generation + 1)."""
        meta = pod.metadata
        generation = meta.generation + 1 if meta.generation > 0 else meta.generation
        marked = dataclasses.replace(pod, metadata=dataclasses.replace(
            meta, deletion_timestamp=deletion_timestamp, deletion_grace_period_seconds=period,
            generation=generation))
        return self._commit(MODIFIED, marked, pod)

    def _shorten_grace(self, pod: Pod, grace_period_seconds: Optional[int]) -> Pod:
        """Upstream: rest.BeforeDelete on an object already being deleted (only shortens)."""
        meta = pod.metadata
        current = meta.deletion_grace_period_seconds
        if current is None or current == 0:
            return self._remove(pod)
        if grace_period_seconds is None or grace_period_seconds >= current:
            return pod
        assert meta.deletion_timestamp is not None
        ts = Time(meta.deletion_timestamp - current + grace_period_seconds)
        marked = dataclasses.replace(pod, metadata=dataclasses.replace(
            meta, deletion_timestamp=ts, deletion_grace_period_seconds=grace_period_seconds))
        marked = self._commit(MODIFIED, marked, pod)
        if grace_period_seconds == 0:
            return self._remove(marked)
        self._schedule_removal(marked, max(0.0, ts - self.loop.now()))
        return marked

    def _schedule_removal(self, pod: Pod, delay: float) -> None:
        key = key_of(pod)
        uid = pod.metadata.uid
        previous = self._removals.pop(key, None)
        if previous is not None:
            previous.cancel()

        def finish() -> None:
            self._removals.pop(key, None)
            current = self._store.get(key)
            if current is not None and current.metadata.uid == uid:
                self.delete("Pod", key[1], key[2], grace_period_seconds=0)

        self._removals[key] = self.loop.call_later(
            delay, finish, label=f"{FINAL_DELETE_LABEL} {key[1]}/{key[2]}")

    def _event_name(self, object_name: str, namespace: str, now: float) -> str:
        return event_name(object_name, now,
                          lambda name: self._store.get(("Event", namespace, name)) is not None)

    def _write_event(self, event: Event, patch: bool) -> Event:
        """Upstream: recordToSink: patch the known event, create it when absent."""
        key = key_of(event)
        stored = self._store.get(key)
        if patch and stored is not None:
            new = dataclasses.replace(stored, count=event.count, last_timestamp=event.last_timestamp,
                                      message=event.message)
            return self._write(new, stored)
        if stored is not None:
            return stored
        return self.create(dataclasses.replace(
            event, metadata=dataclasses.replace(event.metadata, resource_version="")))


def _selector_matcher(selector: Selector | Mapping[str, str] | None) -> Callable[[Mapping[str, str]], bool]:
    if selector is None:
        return lambda labels: True
    if isinstance(selector, Mapping):
        wanted = dict(selector)
        return lambda labels: all(labels.get(k) == v for k, v in wanted.items())
    return selector.matches

