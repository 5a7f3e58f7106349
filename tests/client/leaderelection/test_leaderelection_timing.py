"""Leader election timings on the simulated clock (lease 15 s, renew deadline 10 s, retry 2 s).

Ordering used by the expectations: replicas are started A then B at t=0 with ``run()``. A's
first try (t=0) creates the lock; B's first try (t=0) sees A. A's first renew body runs at
t=0 after B's try, so from t=2 on B's tries at an even time run *before* A's renewal at that
time. B measures expiry from when it observed the last change of the raw record.
"""

from __future__ import annotations

import pytest
from tests.client.leaderelection.leaderelection_fakes import (
    NAME,
    endpoints_record,
    lease_record,
    make_replica,
    new_cluster,
)

from kubesched.client.leaderelection import resourcelock as rl
from kubesched.client.leaderelection.leader_election import (
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
)
from kubesched.cluster import errors

A, B = "host-a_1", "host-b_2"


def record(holder: str, acquire: float, renew: float, transitions: int) -> rl.LeaderElectionRecord:
    return rl.LeaderElectionRecord(holder, 15, acquire, renew, transitions)


@pytest.mark.parametrize("until, renew_time", [
    (0, 0.0),     # acquired by create at t=0; the renew at t=0 writes the same record
    (1, 0.0),
    (2, 2.0),
    (7, 6.0),     # renew bodies every 2 s: 0, 2, 4, 6
    (60, 60.0),
])
def test_single_replica_acquires_at_zero_and_renews_every_retry_period(until, renew_time):
    loop, server = new_cluster()
    a = make_replica(loop, server, A)
    a.elector.run()
    loop.run(until=until)
    expected = record(A, 0.0, renew_time, 0)
    assert endpoints_record(server) == expected
    assert lease_record(server) == expected
    assert a.times("acquired") == [0.0]
    assert a.calls[:2] == [(0.0, f"new-leader {A}"), (0.0, "started")]
    assert a.elector.is_leader() and a.elector.get_leader() == A


def test_endpoints_annotation_and_lease_spec_exact():
    loop, server = new_cluster()
    make_replica(loop, server, A).elector.run()
    loop.run(until=3)
    annotation = server.get("Endpoints", "kube-system", NAME).metadata.annotations[
        rl.LEADER_ELECTION_RECORD_ANNOTATION_KEY]
    assert annotation == ('{"holderIdentity":"host-a_1","leaseDurationSeconds":15,'
                          '"acquireTime":"1970-01-01T00:00:00Z","renewTime":"1970-01-01T00:00:02Z",'
                          '"leaderTransitions":0}')
    spec = server.get("Lease", "kube-system", NAME).spec
    assert (spec.holder_identity, spec.lease_duration_seconds, spec.acquire_time, spec.renew_time,
            spec.lease_transitions) == (A, 15, 0.0, 2.0, 0)


@pytest.mark.parametrize("lock_type", ["endpoints", "leases", "endpointsleases"])
def test_second_replica_retries_every_retry_period_and_fails_while_leader_renews(lock_type):
    loop, server = new_cluster()
    a = make_replica(loop, server, A, lock_type=lock_type)
    b = make_replica(loop, server, B, lock_type=lock_type)
    a.elector.run()
    b.elector.run()
    loop.run(until=40)
    assert b.times("attempt", succeeded=False) == [float(t) for t in range(0, 41, 2)]
    assert b.times("attempt", succeeded=True) == []
    held = {o.message for o in b.observations if o.transition.value == "attempt"}
    assert held == {f"lock is held by {A} and has not yet expired"}
    assert b.calls == [(0.0, f"new-leader {A}")]
    assert not b.elector.is_leader() and b.elector.get_leader() == A
    assert a.times("renewed") == [float(t) for t in range(0, 41, 2)]


@pytest.mark.parametrize("stop_at, method, release, b_acquires, b_lease", [
    # A's last renewal r = last even time <= stop_at; B observes it at r + 2 (r = 0: at 0),
    # and may update once (observed + 15) is not after now: the first even time >= r + 17.
    (0.5, "stop", False, 16.0, 15),   # r = 0, observed at 0 -> 15 -> retry at 16
    (1.0, "stop", False, 16.0, 15),
    (2.0, "stop", False, 20.0, 15),   # r = 2, observed at 4 -> 19 -> 20
    (5.0, "stop", False, 22.0, 15),   # r = 4, observed at 6 -> 21 -> 22
    (10.0, "stop", False, 28.0, 15),  # r = 10, observed at 12 -> 27 -> 28
    (5.0, "kill", False, 22.0, 15),   # a dead process also just stops renewing
    (5.0, "stop", True, 6.0, 15),     # released at 5 (empty holder): B takes it at its next retry
    (10.0, "stop", True, 12.0, 15),
    (5.0, "stop", False, 22.0, 16),  # B with a 16 s lease: observed at 6, 6 + 16 = 22 is not after 22
])
def test_handover_after_leader_stops(stop_at, method, release, b_acquires, b_lease):
    loop, server = new_cluster()
    a = make_replica(loop, server, A, release_on_cancel=release)
    b = make_replica(loop, server, B, lease_duration=b_lease)
    a.elector.run()
    b.elector.run()
    loop.run(until=stop_at)
    getattr(a.elector, method)()
    loop.run(until=b_acquires + 1)
    assert b.times("acquired") == [b_acquires]
    assert b.times("attempt", succeeded=True)[0] == b_acquires
    assert b.calls == [(0.0, f"new-leader {A}"), (b_acquires, f"new-leader {B}"), (b_acquires, "started")]
    expected_a_calls = [(0.0, f"new-leader {A}"), (0.0, "started")]
    if method == "stop":
        expected_a_calls.append((stop_at, "stopped"))
    assert a.calls == expected_a_calls
    expected = rl.LeaderElectionRecord(B, b_lease, b_acquires, b_acquires, 1)
    assert endpoints_record(server) == expected
    assert lease_record(server) == expected


@pytest.mark.parametrize("stop_at, release, record_after_stop", [
    (5.0, False, record(A, 0.0, 4.0, 0)),                    # 1.18 kube-scheduler: not released
    (5.0, True, rl.LeaderElectionRecord(leader_transitions=0)),  # release: only the transitions
])
def test_stop_releases_only_when_release_on_cancel(stop_at, release, record_after_stop):
    loop, server = new_cluster()
    a = make_replica(loop, server, A, release_on_cancel=release)
    a.elector.run()
    loop.run(until=stop_at)
    a.elector.stop()
    assert endpoints_record(server) == record_after_stop
    assert lease_record(server) == record_after_stop
    assert a.times("released") == ([stop_at] if release else [])
    loop.run(until=stop_at + 30)
    assert a.times("attempt")[-1] < stop_at
    assert loop.pending() == []


def _conflict(kind: str) -> Exception:
    return errors.update_conflict(kind, NAME)


@pytest.mark.parametrize("fail_from, fail_until, verb, lost_at", [
    # body at b fails -> tries b, b+2, ..., b+8 fail; the deadline b+10 ends it
    (3.0, 1e9, "update", 14.0),    # bodies 0, 2 ok; body 4 fails -> lost at 14
    (4.0, 1e9, "update", 14.0),
    (0.5, 1e9, "update", 12.0),    # body 0 ok; body 2 fails -> 12
    (3.0, 1e9, "get", 14.0),       # an API error on Get fails a try the same way
    (3.0, 9.0, "update", None),    # fails at 4, 6, 8; succeeds at 10 (within the deadline)
    (3.0, 14.0, "update", 14.0),   # the try due at the deadline (it would succeed) does not happen
])
def test_leader_that_cannot_renew_stops_after_renew_deadline(fail_from, fail_until, verb, lost_at):
    def fail(call: str, kind: str, now: float):
        if call == verb and fail_from <= now < fail_until:
            return _conflict(kind) if verb == "update" else errors.APIError("etcdserver: request timed out")
        return None

    loop, server = new_cluster()
    a = make_replica(loop, server, A, fail=fail)
    a.elector.run()
    loop.run(until=40)
    if lost_at is None:
        assert a.times("lost") == []
        assert a.calls == [(0.0, f"new-leader {A}"), (0.0, "started")]
        assert a.elector.phase == "leading"
        return
    assert a.times("lost") == [lost_at]
    assert a.calls[-1] == (lost_at, "stopped")
    attempts = a.times("attempt")
    assert max(attempts) < lost_at
    stopped = [e for e in server.list("Event") if e.message == f"{A} stopped leading"]
    assert sorted(e.involved_object.kind for e in stopped) == ["Endpoints", "Lease"]
    assert {e.first_timestamp for e in stopped} == {lost_at}
    assert loop.pending() == []


@pytest.mark.parametrize("now, expected", [
    (10.0, None),
    (39.0, None),
    (39.5, f"failed election to renew leadership on lease {NAME}"),
])
def test_check_reports_a_leader_overdue_past_tolerance(now, expected):
    # Updates fail from t=3; A last saw the raw record change at t=4 (its own renewal of t=2),
    # still believes it leads, and Check fails once now - 4 > 15 + 20.
    loop, server = new_cluster()
    a = make_replica(loop, server, A, fail=lambda verb, kind, t: _conflict(kind) if verb == "update" and t >= 3
                     else None)
    a.elector.run()
    loop.run(until=now)
    assert a.elector.check(20.0) == expected


def test_check_is_healthy_for_a_non_leader():
    loop, server = new_cluster()
    a, b = make_replica(loop, server, A), make_replica(loop, server, B)
    a.elector.run()
    b.elector.run()
    loop.run(until=100)
    assert b.elector.check(0.0) is None


@pytest.mark.parametrize("stop_at, events", [
    (5.0, []),                                  # between renew bodies: nothing recorded
    (7.0, [f"{A} stopped leading"] * 2),        # updates fail from 5: body 6 is polling
])
def test_stop_while_leading(stop_at, events):
    loop, server = new_cluster()
    a = make_replica(loop, server, A, fail=lambda verb, kind, t: _conflict(kind) if verb == "update" and t >= 5
                     else None)
    a.elector.run()
    loop.run(until=stop_at)
    a.elector.stop()
    assert [e.message for e in server.list("Event") if "stopped" in e.message] == events
    assert a.calls[-1] == (stop_at, "stopped")
    assert a.elector.phase == "stopped"


def test_stop_while_acquiring_calls_on_stopped_leading():
    loop, server = new_cluster()
    a, b = make_replica(loop, server, A), make_replica(loop, server, B)
    a.elector.run()
    b.elector.run()
    loop.run(until=5)
    b.elector.stop()
    loop.run(until=30)
    assert b.times("attempt") == [0.0, 2.0, 4.0]
    assert b.calls == [(0.0, f"new-leader {A}"), (5.0, "stopped")]


def test_started_leading_context_is_cancelled_when_leadership_ends():
    loop, server = new_cluster()
    contexts = []
    lock = rl.new("endpointsleases", "kube-system", NAME, server, rl.ResourceLockConfig(A))
    config = LeaderElectionConfig(lock=lock, callbacks=LeaderCallbacks(
        on_started_leading=contexts.append, on_stopped_leading=lambda: None), name=NAME)
    elector = LeaderElector(config, loop)
    elector.run()
    loop.run(until=3)
    assert len(contexts) == 1 and not contexts[0].done
    elector.stop()
    assert contexts[0].done and contexts[0].err == "context canceled"
