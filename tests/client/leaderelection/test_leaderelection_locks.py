"""Config validation, the record's JSON, the endpointsleases MultiLock, transitions, events, determinism."""

from __future__ import annotations

import random

import pytest
from tests.client.leaderelection.leaderelection_fakes import (
    NAME,
    NAMESPACE,
    endpoints_record,
    lease_record,
    make_replica,
    new_cluster,
)

from kubesched.api.coordination import Lease
from kubesched.api.core import ConfigMap, Endpoints
from kubesched.api.meta import ObjectMeta
from kubesched.client.leaderelection import resourcelock as rl
from kubesched.client.leaderelection.healthzadaptor import new_leader_healthz_adaptor
from kubesched.client.leaderelection.leader_election import (
    JITTER_FACTOR,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    run_or_die,
    scheduler_identity,
)
from kubesched.cluster import errors

A, B, C = "host-a_1", "host-b_2", "host-c_3"
NOOP = LeaderCallbacks(on_started_leading=lambda ctx: None, on_stopped_leading=lambda: None)
LOCK = object()


@pytest.mark.parametrize("lease, renew, retry, callbacks, lock, message", [
    (10, 10, 2, NOOP, LOCK, "leaseDuration must be greater than renewDeadline"),
    (15, 2.4, 2, NOOP, LOCK, "renewDeadline must be greater than retryPeriod*JitterFactor"),
    (15, 10, 0, NOOP, LOCK, "retryPeriod must be greater than zero"),
    (0, -1, -1, NOOP, LOCK, "leaseDuration must be greater than zero"),
    (15, 0, -1, NOOP, LOCK, "renewDeadline must be greater than zero"),
    (15, 10, 2, LeaderCallbacks(on_stopped_leading=lambda: None), LOCK,
     "OnStartedLeading callback must not be nil"),
    (15, 10, 2, LeaderCallbacks(on_started_leading=lambda ctx: None), LOCK,
     "OnStoppedLeading callback must not be nil"),
    (15, 10, 2, NOOP, None, "Lock must not be nil."),
    (15, 2.41, 2, NOOP, LOCK, None),
    (15, 10, 2, NOOP, LOCK, None),
])
def test_config_validation(lease, renew, retry, callbacks, lock, message):
    loop, server = new_cluster()
    real_lock = rl.new("endpointsleases", NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    config = LeaderElectionConfig(lock=real_lock if lock is LOCK else None, lease_duration=lease,
                                  renew_deadline=renew, retry_period=retry, callbacks=callbacks)
    if message is None:
        assert LeaderElector(config, loop).config is config
        return
    with pytest.raises(ValueError) as info:
        LeaderElector(config, loop)
    assert str(info.value) == message


@pytest.mark.parametrize("record, text", [
    (rl.LeaderElectionRecord(A, 15, 0.0, 2.0, 0),
     ('{"holderIdentity":"host-a_1","leaseDurationSeconds":15,"acquireTime":"1970-01-01T00:00:00Z",'
     '"renewTime":"1970-01-01T00:00:02Z","leaderTransitions":0}')),
    (rl.LeaderElectionRecord(leader_transitions=3),   # a released record
     '{"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,"leaderTransitions":3}'),
    (rl.LeaderElectionRecord("a<b>&c", 15, 3661.75, 86400.0, 1),  # whole seconds; Go's HTML escaping
     ('{"holderIdentity":"a\\u003cb\\u003e\\u0026c","leaseDurationSeconds":15,'
     '"acquireTime":"1970-01-01T01:01:01Z","renewTime":"1970-01-02T00:00:00Z","leaderTransitions":1}')),
])
def test_record_json(record, text):
    assert record.to_json() == text
    back = rl.LeaderElectionRecord.from_json(text)
    assert back.to_json() == text
    assert back.acquire_time == (None if record.acquire_time is None else float(int(record.acquire_time)))


@pytest.mark.parametrize("lock_type, kind, primary", [
    ("endpoints", rl.EndpointsLock, None), ("configmaps", rl.ConfigMapLock, None), ("leases", rl.LeaseLock, None),
    ("endpointsleases", rl.MultiLock, rl.EndpointsLock), ("configmapsleases", rl.MultiLock, rl.ConfigMapLock)])
def test_new_lock_types(lock_type, kind, primary):
    _, server = new_cluster()
    lock = rl.new(lock_type, NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    assert type(lock) is kind
    if primary is not None:
        assert (type(lock.primary), type(lock.secondary)) == (primary, rl.LeaseLock)
    assert (lock.identity(), lock.describe()) == (A, "kube-system/kube-scheduler")


@pytest.mark.parametrize("lock_type, message", [
    ("endpoints", "endpoint not initialized, call get or create first"),
    ("configmaps", "configmap not initialized, call get or create first"),
    ("leases", "lease not initialized, call get or create first"),
])
def test_update_before_get_or_create_is_refused(lock_type, message):
    _, server = new_cluster()
    lock = rl.new(lock_type, NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    with pytest.raises(rl.LockError) as info:
        lock.update(rl.LeaderElectionRecord(A, 15, 0.0, 0.0, 0))
    assert str(info.value) == message


def test_configmap_lock_keeps_the_record_in_the_annotation_and_the_data_untouched():
    _, server = new_cluster()
    server.create(ConfigMap(metadata=ObjectMeta(name=NAME, namespace=NAMESPACE), data={"k": "v"}))
    lock = rl.new("configmaps", NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    assert lock.get() == (rl.LeaderElectionRecord(), "")     # no annotation yet: an empty record
    record = rl.LeaderElectionRecord(A, 15, 0.0, 2.0, 0)
    lock.update(record)
    stored = server.get("ConfigMap", NAMESPACE, NAME)
    assert stored.data == {"k": "v"}
    assert stored.metadata.annotations == {rl.LEADER_ELECTION_RECORD_ANNOTATION_KEY: record.to_json()}
    assert lock.get() == (record, record.to_json())


def test_new_rejects_an_unknown_lock_type():
    _, server = new_cluster()
    with pytest.raises(rl.LockError) as info:
        rl.new("nodes", NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    assert str(info.value) == "Invalid lock-type nodes"


def _endpoints(record: rl.LeaderElectionRecord) -> Endpoints:
    return Endpoints(metadata=ObjectMeta(name=NAME, namespace=NAMESPACE, annotations={
        rl.LEADER_ELECTION_RECORD_ANNOTATION_KEY: record.to_json()}))


def _lease(record: rl.LeaderElectionRecord) -> Lease:
    return Lease(metadata=ObjectMeta(name=NAME, namespace=NAMESPACE),
                 spec=rl.leader_election_record_to_lease_spec(record))


@pytest.mark.parametrize("endpoints_holder, lease_holder, identity, expected", [
    ("x", "x", A, "x"),
    ("x", "y", A, rl.UNKNOWN_LEADER),     # the two halves disagree
    ("x", None, A, "x"),                 # held by an old (endpoints-only) client
    (A, None, A, "NotFound"),            # my own primary without a secondary: NotFound
    (None, "x", A, "NotFound"),          # no primary at all
])
def test_multilock_get(endpoints_holder, lease_holder, identity, expected):
    _, server = new_cluster()
    if endpoints_holder is not None:
        server.create(_endpoints(rl.LeaderElectionRecord(endpoints_holder, 15, 0.0, 0.0, 2)))
    if lease_holder is not None:
        server.create(_lease(rl.LeaderElectionRecord(lease_holder, 15, 0.0, 0.0, 2)))
    lock = rl.new("endpointsleases", NAMESPACE, NAME, server, rl.ResourceLockConfig(identity))
    if expected == "NotFound":
        with pytest.raises(errors.NotFound):
            lock.get()
        return
    record, raw = lock.get()
    assert record.holder_identity == expected
    assert raw.count("holderIdentity") == (1 if lease_holder is None else 2)


def test_multilock_update_creates_a_missing_lease_when_taking_over_from_an_old_client():
    # 1.18: an endpoints-only holder "old" (3 transitions); the Lease does not exist yet.
    loop, server = new_cluster()
    server.create(_endpoints(rl.LeaderElectionRecord("old", 15, 0.0, 0.0, 3)))
    a = make_replica(loop, server, A)
    a.elector.run()
    loop.run(until=14)
    with pytest.raises(errors.NotFound):
        server.get("Lease", NAMESPACE, NAME)
    loop.run(until=17)
    assert a.times("acquired") == [16.0]      # observed at 0, expired from 15, next retry 16
    assert endpoints_record(server) == rl.LeaderElectionRecord(A, 15, 16.0, 16.0, 4)
    assert lease_record(server) == rl.LeaderElectionRecord(A, 15, 16.0, 16.0, 4)


def test_multilock_create_tolerates_an_existing_primary():
    # My own Endpoints record without a Lease: Get says NotFound, Create keeps the Endpoints
    # as they are (AlreadyExists ignored) and creates the Lease.
    loop, server = new_cluster()
    server.create(_endpoints(rl.LeaderElectionRecord(A, 15, 0.0, 0.0, 5)))
    a = make_replica(loop, server, A)
    a.elector.run()
    loop.step()                                # the first try only
    assert a.times("attempt", succeeded=True) == [0.0]
    assert endpoints_record(server) == rl.LeaderElectionRecord(A, 15, 0.0, 0.0, 5)
    assert lease_record(server) == rl.LeaderElectionRecord(A, 15, 0.0, 0.0, 0)


@pytest.mark.parametrize("handovers", [0, 1, 2, 3])
def test_transitions_count_holder_changes(handovers):
    # Replicas A, B, C, D...; each stop (with release, so the next one takes over at its next
    # retry) hands the lock to the next replica in line.
    loop, server = new_cluster()
    names = [f"host-{i}_{i}" for i in range(handovers + 2)]
    replicas = [make_replica(loop, server, n, release_on_cancel=True) for n in names]
    for r in replicas:
        r.elector.run()
    loop.run(until=1)
    for i in range(handovers):
        replicas[i].elector.stop()
        loop.run(until=loop.now() + 5)
    leader = names[handovers]
    assert endpoints_record(server).holder_identity == leader
    assert endpoints_record(server).leader_transitions == handovers
    assert lease_record(server).leader_transitions == handovers
    became = [e.message for e in server.list("Event") if e.involved_object.kind == "Lease"]
    assert sorted(became) == sorted(f"{n} became leader" for n in names[:handovers + 1])


def test_became_leader_events_on_both_lock_objects():
    loop, server = new_cluster()
    make_replica(loop, server, A).elector.run()
    loop.run(until=1)
    events = server.list("Event")
    assert sorted((e.involved_object.kind, e.involved_object.namespace, e.involved_object.name, e.type,
                   e.reason, e.message, e.source.component) for e in events) == [
        ("Endpoints", NAMESPACE, NAME, "Normal", "LeaderElection", f"{A} became leader", "default-scheduler"),
        ("Lease", NAMESPACE, NAME, "Normal", "LeaderElection", f"{A} became leader", "default-scheduler"),
    ]


def _handover_writes(seed):
    loop, server = new_cluster()
    writes = []
    server.watch(lambda ev: writes.append((loop.now(), ev.type, ev.kind, ev.resource_version,
                                           repr(getattr(ev.obj, "spec", None)),
                                           dict(ev.obj.metadata.annotations))),
                 kinds=["Endpoints", "Lease"])
    rng_a, rng_b = random.Random(seed), random.Random(seed + 1)
    a = make_replica(loop, server, A, rng=rng_a)
    b = make_replica(loop, server, B, rng=rng_b)
    a.elector.run()
    b.elector.run()
    loop.run(until=9)
    a.elector.stop()
    loop.run(until=60)
    return writes, b.times("attempt")


def test_determinism_same_seed_same_records():
    first, attempts_1 = _handover_writes(7)
    second, attempts_2 = _handover_writes(7)
    assert first == second and attempts_1 == attempts_2
    assert _handover_writes(8)[1] != attempts_1


def test_acquire_jitter_draws_from_the_seeded_rng():
    loop, server = new_cluster()
    a = make_replica(loop, server, A)
    b = make_replica(loop, server, B, rng=random.Random(3))
    a.elector.run()
    b.elector.run()
    loop.run(until=30)
    draws, expected, t = random.Random(3), [], 0.0
    while t <= 30:
        expected.append(t)
        t += 2.0 + draws.random() * JITTER_FACTOR * 2.0
    assert b.times("attempt") == expected


def test_run_or_die_wires_the_healthz_adaptor():
    loop, server = new_cluster()
    watch_dog = new_leader_healthz_adaptor(20.0)
    assert (watch_dog.name(), watch_dog.check()) == ("leaderElection", None)
    lock = rl.new("endpointsleases", NAMESPACE, NAME, server, rl.ResourceLockConfig(A))
    elector = run_or_die(LeaderElectionConfig(lock=lock, callbacks=NOOP, watch_dog=watch_dog, name=NAME), loop)
    assert watch_dog.le is elector
    loop.run(until=4)
    assert elector.is_leader() and watch_dog.check() is None


@pytest.mark.parametrize("hostname, seed", [("master-1", "0"), ("master-2", "0"), ("master-1", "1")])
def test_scheduler_identity_is_hostname_underscore_uuid(hostname, seed):
    identity = scheduler_identity(hostname, seed)
    host, _, uid = identity.partition("_")
    assert host == hostname and len(uid) == 36 and uid.count("-") == 4
    assert identity == scheduler_identity(hostname, seed)
    assert identity != scheduler_identity(hostname, seed + "x")
