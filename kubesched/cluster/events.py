"""Event construction and client-go's EventCorrelator (spam filter, aggregation, counting).

Upstream: staging/src/k8s.io/client-go/tools/record/event.go (recorder.makeEvent,
recordToSink) and events_cache.go (EventCorrelator, EventAggregator, eventLogger,
EventSourceObjectSpamFilter, getEventKey, getSpamKey, EventAggregatorByReasonFunc);
client-go/util/flowcontrol (token-bucket TryAccept).

How ``kubectl describe`` ends up showing ``x3 over 2m``: an identical event
(same source, involved object, type, reason and message) found in the logger's
cache is sent as a patch that raises ``count`` and ``lastTimestamp`` and keeps
``firstTimestamp``; similar events (same reason, different messages) seen
``AGGREGATE_MAX_EVENTS`` times within ``AGGREGATE_INTERVAL_SECONDS`` collapse into
one ``(combined from similar events): ...`` event; a source may emit
``SPAM_BURST`` events per object, refilled at ``SPAM_QPS``.

Deviation: the v1.18.5 scheduler prefers the events.k8s.io/v1beta1 API through
an EventBroadcasterAdapter; this simulator always takes the adapter's core/v1
fallback path (the one ``kubectl describe`` shows with count/first/last).
Deviation: ``sets.String.PopAny`` removes an arbitrary message; here the
smallest one (sorted) is removed. Event names are ``<object>.<unix-nanos>``
zero-padded to 16 hex digits and bumped by one nanosecond on a clash (several
events share one simulated instant). Events never expire (kube-apiserver's
``--event-ttl`` of 1 h is not modelled).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Final, Generic, Optional, TypeVar

from kubesched.api.core import Event, EventSource
from kubesched.api.meta import ObjectMeta, ObjectReference, Time

MAX_LRU_CACHE_ENTRIES: Final = 4096
AGGREGATE_MAX_EVENTS: Final = 10
AGGREGATE_INTERVAL_SECONDS: Final = 600
SPAM_BURST: Final = 25
SPAM_QPS: Final = 1.0 / 300.0
COMBINED_PREFIX: Final = "(combined from similar events): "
NORMAL: Final = "Normal"
WARNING: Final = "Warning"

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """``groupcache/lru``: bounded, least recently used evicted first."""

    def __init__(self, size: int = MAX_LRU_CACHE_ENTRIES):
        self._size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> Optional[V]:
        if key not in self._data:
            return None
        self._data.move_to_end(key)
        return self._data[key]

    def add(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        if len(self._data) > self._size:
            self._data.popitem(last=False)


def get_event_key(e: Event) -> tuple[str, ...]:
    """Upstream: getEventKey (identical events)."""
    ref = e.involved_object
    return (e.source.component, e.source.host, ref.kind, ref.namespace, ref.name, ref.field_path,
            ref.uid, ref.api_version, e.type, e.reason, e.message)


def get_spam_key(e: Event) -> tuple[str, ...]:
    """Upstream: getSpamKey (source + involved object)."""
    ref = e.involved_object
    return (e.source.component, e.source.host, ref.kind, ref.namespace, ref.name, ref.uid,
            ref.api_version)


def event_aggregator_by_reason(e: Event) -> tuple[tuple[str, ...], str]:
    """Upstream: EventAggregatorByReasonFunc -> (aggregate key, local key = message)."""
    ref = e.involved_object
    return ((e.source.component, e.source.host, ref.kind, ref.namespace, ref.name, ref.uid,
             ref.api_version, e.type, e.reason), e.message)


@dataclass(slots=True)
class TokenBucket:
    """``flowcontrol.NewTokenBucketRateLimiterWithClock`` (x/time/rate), TryAccept only."""

    qps: float
    burst: int
    tokens: float
    last: float

    def try_accept(self, now: float) -> bool:
        elapsed = max(0.0, now - self.last)
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.qps)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(slots=True)
class _AggregateRecord:
    local_keys: set[str]
    last_timestamp: float


@dataclass(frozen=True, slots=True)
class _EventLog:
    count: int
    first_timestamp: Optional[Time]
    name: str
    resource_version: str


@dataclass(frozen=True, slots=True)
class CorrelateResult:
    """``EventCorrelateResult``: the event to write, whether it is a patch, or skip."""

    event: Optional[Event]
    patch: bool = False
    skip: bool = False


NameFunc = Callable[[str, str, float], str]


class EventCorrelator:
    """Upstream: record.EventCorrelator with NewEventCorrelator's defaults."""

    def __init__(self, name_for: NameFunc):
        self._name_for = name_for
        self._spam: LRU[tuple[str, ...], TokenBucket] = LRU()
        self._aggregates: LRU[tuple[str, ...], _AggregateRecord] = LRU()
        self._logs: LRU[tuple[str, ...], _EventLog] = LRU()

    def correlate(self, event: Event, now: float) -> CorrelateResult:
        """Upstream: EventCorrelate (aggregate, observe, then filter)."""
        aggregated, key = self._aggregate(event, now)
        observed, patch = self._observe(aggregated, key)
        if self._filter(observed, now):
            return CorrelateResult(None, skip=True)
        return CorrelateResult(observed, patch=patch)

    def update_state(self, event: Event) -> None:
        """Upstream: EventCorrelator.UpdateState (after the server accepted the write)."""
        self._logs.add(get_event_key(event), _log_of(event))

    def _filter(self, event: Event, now: float) -> bool:
        """Upstream: EventSourceObjectSpamFilter.Filter."""
        key = get_spam_key(event)
        bucket = self._spam.get(key) or TokenBucket(SPAM_QPS, SPAM_BURST, float(SPAM_BURST), now)
        self._spam.add(key, bucket)
        return not bucket.try_accept(now)

    def _aggregate(self, event: Event, now: float) -> tuple[Event, tuple[str, ...]]:
        """Upstream: EventAggregator.EventAggregate."""
        aggregate_key, local_key = event_aggregator_by_reason(event)
        record = self._aggregates.get(aggregate_key)
        if record is None or now - record.last_timestamp > AGGREGATE_INTERVAL_SECONDS:
            record = _AggregateRecord(set(), now)
        record.local_keys.add(local_key)
        record.last_timestamp = now
        self._aggregates.add(aggregate_key, record)
        if len(record.local_keys) < AGGREGATE_MAX_EVENTS:
            return event, get_event_key(event)
        record.local_keys.remove(min(record.local_keys))
        ref = event.involved_object
        combined = dataclasses.replace(
            event,
            metadata=ObjectMeta(name=self._name_for(ref.name, event.metadata.namespace, now),
                                namespace=event.metadata.namespace),
            count=1, first_timestamp=Time(now), last_timestamp=Time(now),
            message=COMBINED_PREFIX + event.message)
        return combined, aggregate_key

    def _observe(self, event: Event, key: tuple[str, ...]) -> tuple[Event, bool]:
        """Upstream: eventLogger.eventObserve; True when the write is a patch of a known event."""
        last = self._logs.get(key)
        patch = last is not None and last.count > 0
        if patch:
            assert last is not None
            meta = dataclasses.replace(event.metadata, name=last.name,
                                       resource_version=last.resource_version)
            event = dataclasses.replace(event, metadata=meta, first_timestamp=last.first_timestamp,
                                        count=last.count + 1)
        self._logs.add(key, _log_of(event))
        return event, patch


def _log_of(event: Event) -> _EventLog:
    return _EventLog(event.count, event.first_timestamp, event.metadata.name,
                     event.metadata.resource_version)


def object_reference(obj: Any) -> ObjectReference:
    """Upstream: reference.GetReference (kind, namespace, name, uid, apiVersion, resourceVersion)."""
    meta = obj.metadata
    return ObjectReference(kind=type(obj).KIND, namespace=meta.namespace, name=meta.name,
                           uid=meta.uid, api_version=getattr(type(obj), "API_VERSION", ""),
                           resource_version=meta.resource_version)


def make_event(ref: ObjectReference, event_type: str, reason: str, message: str,
               source: EventSource, now: float, name_for: NameFunc) -> Event:
    """Upstream: recorder.makeEvent; cluster-scoped objects' events go to ``default``."""
    namespace = ref.namespace or "default"
    return Event(metadata=ObjectMeta(name=name_for(ref.name, namespace, now), namespace=namespace),
                 involved_object=ref, reason=reason, message=message, type=event_type, count=1,
                 first_timestamp=Time(now), last_timestamp=Time(now), source=source)


def event_name(object_name: str, now: float, taken: Callable[[str], bool]) -> str:
    """``<object>.<unix nanoseconds, 16 hex digits>``, bumped past names already taken."""
    nanos = int(round(now * 1e9))
    while taken(f"{object_name}.{nanos:016x}"):
        nanos += 1
    return f"{object_name}.{nanos:016x}"
