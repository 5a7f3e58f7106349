"""Scheduler replicas: one leads, the others wait; KillLeader and a lost lease hand over.

Timing (lease 15 s, renew deadline 10 s, retry 2 s). Replica A acquires at t=0 by creating the
lock and renews every 2 s (no jitter: wait.Until); B's first try at t=0 sees A, then B retries
after waits of wait.Jitter(2 s, 1.2), in [2, 4.4) s, drawn from its own seeded source
(``clusters.acquire_tries``). A scenario action due at an even time runs before A's renewal at
that time. After a kill at K, A's last renewal is r = the last even time < K (≤ K when K is
odd); B observes it at its first try ≥ r and may update the lock at its first try t with
observed + 15 <= t (``clusters.takeover_time``).
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
from tests.sim.clusters import acquire_tries, node, pod, scenario, takeover_time

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


def test_standby_retries_with_jittered_waits():
    tries = acquire_tries("scheduler-b", 30.0)
    assert [round(t, 4) for t in tries] == [0.0, 3.5977, 6.3267, 10.6985, 12.9568, 15.3781, 17.565, 20.219,
                                           24.2972, 28.0382]
    assert all(2.0 <= b - a < 4.4 for a, b in zip(tries, tries[1:]))


@pytest.mark.parametrize("kill_at, last_renewal, takeover", [
    (1, 0.0, 15.3781),    # r = 0, observed at 0
    (5, 4.0, 24.2972),    # r = 4, observed at 6.3267
    (10, 8.0, 28.0382),   # the kill runs before A's renewal at 10: r = 8, observed at 10.6985
    (11, 10.0, 28.0382),  # r = 10, observed at 10.6985
])
def test_kill_leader_hands_over_after_the_lease_expires(kill_at, last_renewal, takeover):
    assert round(takeover_time("scheduler-b", last_renewal), 4) == takeover
    takeover = takeover_time("scheduler-b", last_renewal)
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


@pytest.mark.parametrize("seed", [0, 7])
def test_the_jitter_comes_from_the_runs_seed(seed):
    text = node("n1") + scenario("{at: 5, killLeader: true}", seed=seed, replicas=2)
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover_time("scheduler-b", 4.0, seed=seed)]
    assert takeover_time("scheduler-b", 4.0, seed=7) != takeover_time("scheduler-b", 4.0, seed=0)


def test_kill_leader_edit_at_the_cursor_forks_the_same_way():
    text = node("n1") + scenario(replicas=2)
    sim = Simulation.from_yaml(text)
    sim.advance(5)
    sim.apply(KillLeader())
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover_time("scheduler-b", 4.0)]


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
    # renew deadline ends A at 6 + 10 = 16 (renewals are not jittered), and B (which saw the
    # intruder at its try at 6.33) takes over at its first try after 21.33: 24.30.
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
    shown = [dict(r.data.details) for r in sim.trace if r.kind is Kind.STARTUP_STEP
             and r.data.step == "LeaderElector.Run"]
    assert [(d["replica"], d["leaseDuration"], d["renewDeadline"], d["retryPeriod"]) for d in shown] == [
        ("scheduler-a", "15s", "10s", "2s"), ("scheduler-b", "15s", "10s", "2s")]
    assert [round(r.time, 4) for r in elections(sim, "acquired", "scheduler-b")] == [24.2972]
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover_time("scheduler-b", 5.0)]
    a, b = sim.state().replicas
    assert (a.alive, b.leading) == (False, True)


LOCK_OBJECTS = {
    "endpoints": ["Endpoints"], "configmaps": ["ConfigMap"], "leases": ["Lease"],
    "endpointsleases": ["Endpoints", "Lease"], "configmapsleases": ["ConfigMap", "Lease"],
}


@pytest.mark.parametrize("lock_type", sorted(LOCK_OBJECTS))
def test_every_v1_18_lock_type_elects_and_hands_over_the_same_way(lock_type):
    """resourcelock.New: the five lock types of v1.18; the annotation locks (Endpoints, ConfigMap)
    and the Lease keep one record, so the election's timing does not depend on the type."""
    config = ("---\napiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
              f"leaderElection: {{resourceLock: {lock_type}}}\n")
    text = node("n1") + config + scenario("{at: 5, killLeader: true}", LATE_POD % 6, replicas=2)
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "acquired", "scheduler-a")] == [0.0]
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover_time("scheduler-b", 4.0)]
    api = sim.engine.api
    stored = sorted(k for k in ("Endpoints", "ConfigMap", "Lease")
                    if any(o.metadata.name == "kube-scheduler" for o in api.list(k, "kube-system")))
    assert stored == sorted(LOCK_OBJECTS[lock_type])
    b = sim.state().replicas[1]
    for kind in stored:
        obj = api.get(kind, "kube-system", "kube-scheduler")
        if kind == "Lease":
            holder, transitions = obj.spec.holder_identity, obj.spec.lease_transitions
        else:
            record = LeaderElectionRecord.from_json(obj.metadata.annotations[LEADER_ELECTION_RECORD_ANNOTATION_KEY])
            holder, transitions = record.holder_identity, record.leader_transitions
        assert (holder, transitions) == (b.identity, 1)
    assert sim.state().pod("default", "late").node == "n1"


SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
             "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
LABEL = ("a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and end with "
         "an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
         "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")


@pytest.mark.parametrize("election, error", [
    ("{resourceName: Kube_Scheduler}",
     f'Endpoints "Kube_Scheduler" is invalid: metadata.name: Invalid value: "Kube_Scheduler": {SUBDOMAIN}'),
    ("{resourceLock: leases, resourceNamespace: Kube-System}",
     f'Lease.coordination.k8s.io "kube-scheduler" is invalid: metadata.namespace: Invalid value: "Kube-System": '
     f'{LABEL}'),
    ("{resourceLock: configmapsleases, resourceName: -x}",
     f'ConfigMap "-x" is invalid: metadata.name: Invalid value: "-x": {SUBDOMAIN}'),
])
def test_a_lock_name_the_api_server_refuses_leaves_the_cluster_without_a_leader(election, error):
    """Validation takes any non-empty resourceName; the lock's Create is refused (ValidateObjectMeta),
    so tryAcquireOrRenew fails on every retry (the election record shows the first of a run of
    equal failures) and no pod is scheduled."""
    config = ("---\napiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
              f"leaderElection: {election}\n")
    sim = Simulation.from_yaml(node("n1") + pod("p") + config + scenario())
    sim.advance(20)
    message = f"error initially creating leader election record: {error}"
    logged = [r.time for r in sim.trace if r.kind is Kind.LOG and r.data.message == message]
    assert logged == acquire_tries("scheduler-a", 20.0)          # every jittered retry fails the same way
    assert [r.data.message for r in elections(sim, "attempt failed", "scheduler-a")] == [message]
    assert elections(sim, "acquired", "scheduler-a") == []
    assert sim.state().pod("default", "p").node == ""
