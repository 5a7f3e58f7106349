"""Resource locks for leader election: the record, Endpoints, ConfigMap, Lease and the MultiLocks.

Upstream: staging/src/k8s.io/client-go/tools/leaderelection/resourcelock/interface.go
(LeaderElectionRecord, ResourceLockConfig, Interface, New), endpointslock.go and
configmaplock.go (EndpointsLock / ConfigMapLock .Get, Create, Update, RecordEvent,
Describe, Identity: the same lock on two kinds), leaselock.go
(LeaseLock.*, LeaseSpecToLeaderElectionRecord, LeaderElectionRecordToLeaseSpec) and
multilock.go (MultiLock.*, ConcatRawRecord, UnknownLeader) at v1.18: ``endpointsleases``
and ``configmapsleases`` are a MultiLock of the annotation lock (primary) and the Lease.

The raw record a lock returns is text: the annotation as stored for Endpoints and ConfigMap, Go's
``json.Marshal`` of the record for a Lease; the MultiLock joins both with ``,``. The
elector only compares raw records for equality.

Times: a record holds simulated seconds, ``None`` for Go's zero ``metav1.Time``. The
annotation (Endpoints, ConfigMap) is JSON in which ``metav1.Time`` is RFC 3339 with whole seconds
(a fraction is truncated) and the zero time is ``null``; a Lease keeps the full value
(``MicroTime``).

Deviation: when a Create/Update call fails, the lock
forgets its cached object (Go keeps the empty object the typed client returns); every
election step calls Get first, so nothing observable changes. The API server is called
synchronously; there is no request context.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
from dataclasses import dataclass
from typing import Any, Final, Protocol

from kubesched.api.coordination import Lease, LeaseSpec
from kubesched.api.core import ConfigMap, Endpoints
from kubesched.api.meta import ObjectMeta, Time
from kubesched.cluster import errors

LEADER_ELECTION_RECORD_ANNOTATION_KEY: Final = "control-plane.alpha.kubernetes.io/leader"
ENDPOINTS_RESOURCE_LOCK: Final = "endpoints"
CONFIGMAPS_RESOURCE_LOCK: Final = "configmaps"
LEASES_RESOURCE_LOCK: Final = "leases"
ENDPOINTS_LEASES_RESOURCE_LOCK: Final = "endpointsleases"
CONFIGMAPS_LEASES_RESOURCE_LOCK: Final = "configmapsleases"
UNKNOWN_LEADER: Final = "leaderelection.k8s.io/unknown"
EVENT_TYPE_NORMAL: Final = "Normal"
EVENT_REASON: Final = "LeaderElection"

_EPOCH: Final = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


class LockError(Exception):
    """An error of the lock itself (not of the API server), as Go's ``errors.New``."""


# ----- the record ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LeaderElectionRecord:
    """Upstream: resourcelock.LeaderElectionRecord (times in simulated seconds, None = zero)."""

    holder_identity: str = ""
    lease_duration_seconds: int = 0
    acquire_time: float | None = None
    renew_time: float | None = None
    leader_transitions: int = 0

    def to_json(self) -> str:
        """Go's ``json.Marshal`` of the record (field order and names of the struct tags)."""
        return _go_json({
            "holderIdentity": self.holder_identity,
            "leaseDurationSeconds": self.lease_duration_seconds,
            "acquireTime": format_time(self.acquire_time),
            "renewTime": format_time(self.renew_time),
            "leaderTransitions": self.leader_transitions,
        })

    @classmethod
    def from_json(cls, text: str) -> LeaderElectionRecord:
        """Go's ``json.Unmarshal`` into the record; raises ``ValueError`` on bad JSON."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"json: cannot unmarshal {type(data).__name__} into LeaderElectionRecord")  # noqa: TRY004
        return cls(holder_identity=str(data.get("holderIdentity") or ""),
                   lease_duration_seconds=int(data.get("leaseDurationSeconds") or 0),
                   acquire_time=parse_time(data.get("acquireTime")),
                   renew_time=parse_time(data.get("renewTime")),
                   leader_transitions=int(data.get("leaderTransitions") or 0))


def format_time(seconds: float | None) -> str | None:
    """``metav1.Time.MarshalJSON``: RFC 3339 UTC, whole seconds; None (zero time) is null."""
    if seconds is None:
        return None
    stamp = _EPOCH + _dt.timedelta(seconds=math.floor(seconds))
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: Any) -> float | None:
    """``metav1.Time.UnmarshalJSON``: null is the zero time, otherwise RFC 3339."""
    if value is None:
        return None
    text = str(value)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    stamp = _dt.datetime.fromisoformat(text)
    return (stamp - _EPOCH).total_seconds()


def _go_json(data: dict[str, Any]) -> str:
    """Compact JSON with Go's HTML escaping of ``<``, ``>`` and ``&``."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ----- interfaces ----------------------------------------------------------------------------

class LockClient(Protocol):
    """The API calls a lock makes (``kubesched.cluster.apiserver.APIServer`` satisfies it)."""

    def get(self, kind: str, namespace: str, name: str) -> Any: ...

    def create(self, obj: Any) -> Any: ...

    def update(self, obj: Any) -> Any: ...


class EventRecorder(Protocol):
    """Upstream: resourcelock.EventRecorder (``Eventf`` without format arguments)."""

    def eventf(self, obj: Any, event_type: str, reason: str, message: str) -> None: ...


class APIServerEventRecorder:
    """An EventRecorder writing through ``APIServer.record_event`` for one event source."""

    def __init__(self, server: Any, component: str = "default-scheduler", host: str = "") -> None:
        self.server, self.component, self.host = server, component, host

    def eventf(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        self.server.record_event(obj, event_type, reason, message, component=self.component, host=self.host)


@dataclass(frozen=True, slots=True)
class ResourceLockConfig:
    """Upstream: resourcelock.ResourceLockConfig."""

    identity: str
    event_recorder: EventRecorder | None = None


class Interface(Protocol):
    """Upstream: resourcelock.Interface (Get returns the record and its raw text)."""

    def get(self) -> tuple[LeaderElectionRecord, str]: ...

    def create(self, ler: LeaderElectionRecord) -> None: ...

    def update(self, ler: LeaderElectionRecord) -> None: ...

    def record_event(self, s: str) -> None: ...

    def identity(self) -> str: ...

    def describe(self) -> str: ...


# ----- Endpoints and ConfigMap ---------------------------------------------------------------

class _AnnotationLock:
    """The record as JSON in one annotation of an object of ``_MODEL`` (Endpoints or ConfigMap)."""

    _MODEL: type = Endpoints
    _NOT_INITIALIZED = ""

    def __init__(self, namespace: str, name: str, client: LockClient, lock_config: ResourceLockConfig) -> None:
        self.meta = ObjectMeta(name=name, namespace=namespace)
        self.client = client
        self.lock_config = lock_config
        self._obj: Any = None

    def get(self) -> tuple[LeaderElectionRecord, str]:
        """Upstream: <Lock>.Get (an object without the annotation is an empty record)."""
        self._obj = self.client.get(self._MODEL.KIND, self.meta.namespace, self.meta.name)
        raw = self._obj.metadata.annotations.get(LEADER_ELECTION_RECORD_ANNOTATION_KEY)
        if raw is None:
            return LeaderElectionRecord(), ""
        return LeaderElectionRecord.from_json(raw), raw

    def create(self, ler: LeaderElectionRecord) -> None:
        meta = dataclasses.replace(self.meta, annotations={LEADER_ELECTION_RECORD_ANNOTATION_KEY: ler.to_json()})
        self._obj = None
        self._obj = self.client.create(self._MODEL(metadata=meta))

    def update(self, ler: LeaderElectionRecord) -> None:
        """Upstream: <Lock>.Update: the cached object (and its resourceVersion) is sent."""
        if self._obj is None:
            raise LockError(self._NOT_INITIALIZED)
        meta = self._obj.metadata
        annotations = dict(meta.annotations)
        annotations[LEADER_ELECTION_RECORD_ANNOTATION_KEY] = ler.to_json()
        new = dataclasses.replace(self._obj, metadata=dataclasses.replace(meta, annotations=annotations))
        self._obj = None
        self._obj = self.client.update(new)

    def record_event(self, s: str) -> None:
        _record_event(self.lock_config, self._obj or self._MODEL(metadata=self.meta), s)

    def describe(self) -> str:
        return f"{self.meta.namespace}/{self.meta.name}"

    def identity(self) -> str:
        return self.lock_config.identity


class EndpointsLock(_AnnotationLock):
    """Upstream: resourcelock.EndpointsLock (endpointslock.go)."""

    _MODEL = Endpoints
    _NOT_INITIALIZED = "endpoint not initialized, call get or create first"


class ConfigMapLock(_AnnotationLock):
    """Upstream: resourcelock.ConfigMapLock (configmaplock.go): the Endpoints lock on a ConfigMap."""

    _MODEL = ConfigMap
    _NOT_INITIALIZED = "configmap not initialized, call get or create first"


# ----- Lease ---------------------------------------------------------------------------------

class LeaseLock:
    """Upstream: resourcelock.LeaseLock: the record is the Lease spec."""

    def __init__(self, namespace: str, name: str, client: LockClient, lock_config: ResourceLockConfig) -> None:
        self.lease_meta = ObjectMeta(name=name, namespace=namespace)
        self.client = client
        self.lock_config = lock_config
        self._lease: Lease | None = None

    def get(self) -> tuple[LeaderElectionRecord, str]:
        self._lease = self.client.get("Lease", self.lease_meta.namespace, self.lease_meta.name)
        record = lease_spec_to_leader_election_record(self._lease.spec)
        return record, record.to_json()

    def create(self, ler: LeaderElectionRecord) -> None:
        self._lease = None
        self._lease = self.client.create(Lease(metadata=self.lease_meta,
                                               spec=leader_election_record_to_lease_spec(ler)))

    def update(self, ler: LeaderElectionRecord) -> None:
        if self._lease is None:
            raise LockError("lease not initialized, call get or create first")
        new = dataclasses.replace(self._lease, spec=leader_election_record_to_lease_spec(ler))
        self._lease = None
        self._lease = self.client.update(new)

    def record_event(self, s: str) -> None:
        _record_event(self.lock_config, self._lease or Lease(metadata=self.lease_meta), s)

    def describe(self) -> str:
        return f"{self.lease_meta.namespace}/{self.lease_meta.name}"

    def identity(self) -> str:
        return self.lock_config.identity


def lease_spec_to_leader_election_record(spec: LeaseSpec) -> LeaderElectionRecord:
    """Upstream: LeaseSpecToLeaderElectionRecord (nil fields become zero values)."""
    return LeaderElectionRecord(
        holder_identity=spec.holder_identity or "",
        lease_duration_seconds=spec.lease_duration_seconds or 0,
        acquire_time=None if spec.acquire_time is None else float(spec.acquire_time),
        renew_time=None if spec.renew_time is None else float(spec.renew_time),
        leader_transitions=spec.lease_transitions or 0)


def leader_election_record_to_lease_spec(ler: LeaderElectionRecord) -> LeaseSpec:
    """Upstream: LeaderElectionRecordToLeaseSpec (every field set, even when zero)."""
    return LeaseSpec(
        holder_identity=ler.holder_identity,
        lease_duration_seconds=ler.lease_duration_seconds,
        acquire_time=None if ler.acquire_time is None else Time(ler.acquire_time),
        renew_time=None if ler.renew_time is None else Time(ler.renew_time),
        lease_transitions=ler.leader_transitions)


# ----- MultiLock -----------------------------------------------------------------------------

class MultiLock:
    """Upstream: resourcelock.MultiLock, used to migrate from one lock kind to another."""

    def __init__(self, primary: Interface, secondary: Interface) -> None:
        self.primary = primary
        self.secondary = secondary

    def get(self) -> tuple[LeaderElectionRecord, str]:
        """Primary first; a missing secondary is fine while someone else holds the primary."""
        primary, primary_raw = self.primary.get()
        try:
            secondary, secondary_raw = self.secondary.get()
        except errors.NotFound:
            if primary.holder_identity != self.identity():
                return primary, primary_raw
            raise
        if primary.holder_identity != secondary.holder_identity:
            primary = dataclasses.replace(primary, holder_identity=UNKNOWN_LEADER)
            primary_raw = primary.to_json()
        return primary, concat_raw_record(primary_raw, secondary_raw)

    def create(self, ler: LeaderElectionRecord) -> None:
        """Create both; a primary that already exists is not an error."""
        try:
            self.primary.create(ler)
        except errors.AlreadyExists:
            pass
        self.secondary.create(ler)

    def update(self, ler: LeaderElectionRecord) -> None:
        """Update the primary, then the secondary (created when it does not exist yet)."""
        self.primary.update(ler)
        try:
            self.secondary.get()
        except errors.NotFound:
            self.secondary.create(ler)
            return
        self.secondary.update(ler)

    def record_event(self, s: str) -> None:
        self.primary.record_event(s)
        self.secondary.record_event(s)

    def describe(self) -> str:
        return self.primary.describe()

    def identity(self) -> str:
        return self.primary.identity()


def concat_raw_record(primary_raw: str, secondary_raw: str) -> str:
    """Upstream: ConcatRawRecord."""
    return primary_raw + "," + secondary_raw


def new(lock_type: str, namespace: str, name: str, client: LockClient,
        rlc: ResourceLockConfig) -> Interface:
    """Upstream: resourcelock.New; ``Invalid lock-type %s`` for an unknown type."""
    endpoints = EndpointsLock(namespace, name, client, rlc)
    config_map = ConfigMapLock(namespace, name, client, rlc)
    lease = LeaseLock(namespace, name, client, rlc)
    locks: dict[str, Interface] = {
        ENDPOINTS_RESOURCE_LOCK: endpoints,
        CONFIGMAPS_RESOURCE_LOCK: config_map,
        LEASES_RESOURCE_LOCK: lease,
        ENDPOINTS_LEASES_RESOURCE_LOCK: MultiLock(endpoints, lease),
        CONFIGMAPS_LEASES_RESOURCE_LOCK: MultiLock(config_map, lease),
    }
    if lock_type not in locks:
        raise LockError(f"Invalid lock-type {lock_type}")
    return locks[lock_type]


def _record_event(config: ResourceLockConfig, obj: Any, s: str) -> None:
    """Upstream: <Lock>.RecordEvent: ``"<identity> <s>"``, Normal, reason LeaderElection."""
    if config.event_recorder is None:
        return
    config.event_recorder.eventf(obj, EVENT_TYPE_NORMAL, EVENT_REASON, f"{config.identity} {s}")
