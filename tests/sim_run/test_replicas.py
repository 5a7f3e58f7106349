"""Scheduler replicas: one leads, the others wait; KillLeader and a lost lease hand over.

Timing (no jitter; lease 15 s, renew deadline 10 s, retry 2 s). Replica A acquires at t=0 by
creating the lock; B's first try at t=0 sees A. A renews at 0, 2, 4 …; at an even time B's
try runs *before* A's renewal, so B observes a renewal made at r > 0 only at r + 2 (r = 0:
at 0). A scenario action due at an even time runs before A's renewal at that time. After a
kill at K, A's last renewal is r = the last even time < K (≤ K when K is odd); B may update
the lock at its first try t with observed + 15 <= t: t = r + 18 for r > 0, 16 for r = 0 —
the rows of the leader-election timing tests (tests/leaderelection).
"""

from __future__ import annotations

import dataclasses

import pytest

from kubesched.client.leaderelection import (
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    LeaderElectionRecord,
)
from kubesched.sim import Simulation
from kubesched.sim.edits import KillLeader, Update
from kubesched.sim.replica import hostname
from kubesched.trace import Kind
from tests.sim_run.clusters import node, pod, scenario

LATE_POD = ("{at: %s, create: {apiVersion: v1, kind: Pod, metadata: {name: late, namespace: default}, "
            "spec: {containers: [{name: c, image: nginx}]}}}")


def elections(sim, transition, host):
    return [r for r in sim.trace if r.kind is Kind.LEADER_ELECTION and r.data.transition == transition
            and r.data.identity.startswith(host + "_")]


def test_hostnames_are_lettered():
    assert [hostname(i) for i in (0, 1, 2, 25, 26)] == [
        "scheduler-a", "scheduler-b", "scheduler-c", "scheduler-z", "scheduler-27"]


def test_first_replica_leads_and_the_other_waits():
    sim = Simulation.from_yaml(node("n1") + pod("p") + scenario(replicas=2))
    sim.run_until_idle()
    state = sim.state()
    a, b = state.replicas
    assert (a.hostname, a.alive, a.leading) == ("scheduler-a", True, True)
    assert (b.hostname, b.alive, b.leading) == ("scheduler-b", True, False)
    assert state.leader == a.identity
    assert a.identity.startswith("scheduler-a_") and b.identity.startswith("scheduler-b_")
    assert [r.time for r in elections(sim, "acquired", "scheduler-a")] == [0.0]
    assert elections(sim, "acquired", "scheduler-b") == []
    (waiting,) = elections(sim, "attempt failed", "scheduler-b")
    assert waiting.data.message == f"lock is held by {a.identity} and has not yet expired"
    assert state.pod("default", "p").node == "n1"


@pytest.mark.parametrize("kill_at, takeover", [
    (1, 16.0),    # r = 0, observed at 0
    (5, 22.0),    # r = 4, observed at 6
    (10, 26.0),   # the kill runs before A's renewal at 10: r = 8
    (11, 28.0),   # r = 10, observed at 12
])
def test_kill_leader_hands_over_after_the_lease_expires(kill_at, takeover):
    text = node("n1") + scenario(f"{{at: {kill_at}, killLeader: true}}", LATE_POD % (kill_at + 1), replicas=2)
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    assert sim.stopped_reason == "idle"
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover]
    b_steps = [r for r in sim.trace if r.kind is Kind.STARTUP_STEP and r.data.step == "sched.Run"]
    assert [(dict(r.data.details)["replica"], r.time) for r in b_steps] == [("scheduler-a", 0.0),
                                                                             ("scheduler-b", takeover)]
    state = sim.state()
    a, b = state.replicas
    assert (a.alive, a.leading, b.alive, b.leading) == (False, False, True, True)
    late = state.pod("default", "late")
    assert (late.phase, late.node, late.bound_at) == ("Running", "n1", takeover)
    assert elections(sim, "stopped", "scheduler-a") == []   # a killed process reports nothing


def test_kill_leader_edit_at_the_cursor_forks_the_same_way():
    text = node("n1") + scenario(replicas=2)
    sim = Simulation.from_yaml(text)
    sim.advance(5)
    sim.apply(KillLeader())
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [22.0]


def test_kill_leader_without_a_leader_is_refused():
    sim = Simulation.from_yaml(node("n1") + scenario(replicas=1))
    sim.advance(3)
    sim.apply(KillLeader())
    with pytest.raises(ValueError, match="no scheduler replica is leading"):
        sim.apply(KillLeader())


def _stolen(obj, holder: str, now: float):
    record = LeaderElectionRecord(holder, 15, now, now, 1)
    if type(obj).KIND == "Endpoints":
        annotations = {**obj.metadata.annotations, LEADER_ELECTION_RECORD_ANNOTATION_KEY: record.to_json()}
        return dataclasses.replace(obj, metadata=dataclasses.replace(obj.metadata, annotations=annotations))
    spec = dataclasses.replace(obj.spec, holder_identity=holder, acquire_time=now, renew_time=now,
                               lease_transitions=1)
    return dataclasses.replace(obj, spec=spec)


def test_leader_that_cannot_renew_stops_with_leaderelection_lost():
    # At t=5 someone else writes the lock: A's renewals from t=6 fail ("held by intruder"); the
    # renew deadline ends A at 6 + 10 = 16, and B (which saw the intruder at 6) takes over at 22.
    sim = Simulation.from_yaml(node("n1") + scenario(replicas=2))
    sim.advance(5)
    api = sim.engine.api
    for kind in ("Endpoints", "Lease"):
        sim.apply(Update(_stolen(api.get(kind, "kube-system", "kube-scheduler"), "intruder", 5.0)))
        api = sim.engine.api
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "lost", "scheduler-a")] == [16.0]
    assert [r.time for r in elections(sim, "stopped", "scheduler-a")] == [16.0]
    fatal = [r for r in sim.trace if r.kind is Kind.LOG and r.data.message == "leaderelection lost"]
    assert [(r.time, r.data.severity, r.file, r.func) for r in fatal] == [
        (16.0, "F", "cmd/kube-scheduler/app/server.go", "Run")]
    renew = [r for r in sim.trace if r.kind is Kind.LOG and r.data.message.startswith("failed to renew lease")]
    assert [(r.time, r.data.message, r.func) for r in renew] == [
        (16.0, "failed to renew lease kube-system/kube-scheduler: timed out waiting for the condition",
         "LeaderElector.renew")]
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [22.0]
    a, b = sim.state().replicas
    assert (a.alive, b.leading) == (False, True)
