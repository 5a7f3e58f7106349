"""Partition actions: a replica cut off the API server (``partition``) or with its watches
stalled (``stallWatch``). Timing as in test_replicas (lease 15 s, renew deadline 10 s, retry 2 s;
an action at an even time runs before A's renewal then): A's renew round that starts after the
cut fails for 10 s; A then stops with "leaderelection lost", and B takes over when the lease it
last observed expires (``clusters.takeover_time``)."""

from __future__ import annotations

import pytest

from kubesched.sim import Simulation
from kubesched.sim.edits import Partition, to_action
from kubesched.sim.replica import ReplicaClient, Unreachable, request_url
from kubesched.sim.scenario import ScenarioError, split_source
from kubesched.trace import Kind
from tests.sim.clusters import node, pod, scenario, takeover_time
from tests.sim.test_replicas import LATE_POD, elections

LOCK_URL = "https://10.96.0.1:443/api/v1/namespaces/kube-system/endpoints/kube-scheduler"


@pytest.mark.parametrize("action, edit", [
    ("{at: 3, partition: scheduler-a}", Partition("scheduler-a")),
    ("{at: 3, stallWatch: scheduler-b}", Partition("scheduler-b", watch_only=True)),
    ("{at: 3, partition: scheduler-27}", Partition("scheduler-27")),
])
def test_partition_actions_are_parsed_and_written_back(action, edit):
    _, parsed = split_source(scenario(action, replicas=2))
    (got,) = parsed.actions
    assert (got.at, got.edit) == (3.0, edit)
    verb = action.split(",")[1].split(":")[0].strip()
    assert to_action(edit) == {verb: edit.replica}


@pytest.mark.parametrize("action, path", [
    ("{at: 1, partition: true}", "spec.actions[0].partition"),
    ("{at: 1, stallWatch: node-1}", "spec.actions[0].stallWatch"),
    ("{at: 1, partition: scheduler-}", "spec.actions[0].partition"),
])
def test_partition_needs_a_replica_hostname(action, path):
    with pytest.raises(ScenarioError) as info:
        split_source(scenario(action))
    (problem,) = info.value.problems
    assert problem.path == path
    assert problem.message.startswith("must be a scheduler replica's hostname (scheduler-a, scheduler-b …), not ")


@pytest.mark.parametrize("cut_at, last_renewal, lost_at", [
    (5, 4.0, 16.0),     # the round of t=6 fails; its deadline is 6 + 10
    (10, 8.0, 20.0),    # the cut runs before A's renewal at 10: that round fails
    (19, 18.0, 30.0),   # lesson 22
])
def test_partitioned_leader_steps_down_at_its_renew_deadline(cut_at, last_renewal, lost_at):
    text = node("n1") + scenario(f"{{at: {cut_at}, partition: scheduler-a}}", LATE_POD % (cut_at + 1), replicas=2)
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    assert sim.stopped_reason == "idle"
    failed = elections(sim, "attempt failed", "scheduler-a")
    assert [(r.time, r.data.message) for r in failed] == [
        (lost_at - 10, f"error retrieving resource lock kube-system/kube-scheduler: Get {LOCK_URL}: "
                       "dial tcp 10.96.0.1:443: connect: connection refused")]
    assert [r.time for r in elections(sim, "lost", "scheduler-a")] == [lost_at]
    fatal = [r.time for r in sim.trace if r.kind is Kind.LOG and r.data.message == "leaderelection lost"]
    assert fatal == [lost_at]
    takeover = takeover_time("scheduler-b", last_renewal)
    assert lost_at < last_renewal + 15 <= takeover        # A stops before its lease runs out
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover]
    late = sim.state().pod("default", "late")
    assert (late.phase, late.node, late.bound_at) == ("Running", "n1", takeover)
    a, b = sim.state().replicas
    assert (a.alive, b.leading) == (False, True)


def test_partition_edit_at_the_cursor_forks_the_same_way():
    sim = Simulation.from_yaml(node("n1") + scenario(replicas=2))
    sim.advance(5)
    sim.apply(Partition("scheduler-a"))
    sim.run_until_idle()
    assert [r.time for r in elections(sim, "lost", "scheduler-a")] == [16.0]
    assert [r.time for r in elections(sim, "acquired", "scheduler-b")] == [takeover_time("scheduler-b", 4.0)]
    assert "partition: scheduler-a" in sim.to_scenario_yaml()


def test_stalled_watch_lets_a_bound_pod_expire_30s_after_finish_binding():
    # The cut at t=0 runs after main (the informers listed web-1), so web-1 is scheduled and its
    # Bind succeeds, but no update reaches the cache: it expires at the first sweep after 0 + 30.
    # ``late`` (t=5) never reaches the queue.
    text = node("n1") + pod("web-1") + scenario("{at: 0, stallWatch: scheduler-a}", LATE_POD % 5)
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    finished = [r.time for r in sim.trace if r.kind is Kind.CACHE_EVENT and r.pod == "default/web-1"
                and r.data.event == "FinishBinding"]
    expired = [r.time for r in sim.trace if r.kind is Kind.EXPIRE and r.pod == "default/web-1"]
    assert (finished, expired) == ([0.0], [31.0])
    web = sim.state().pod("default", "web-1")
    assert (web.phase, web.node) == ("Running", "n1")
    assert sim.state().node("n1").pods == ()
    assert [r for r in sim.trace if r.kind is Kind.QUEUE_MOVE and r.pod == "default/late"] == []


def test_unknown_replica_is_reported_and_skipped():
    sim = Simulation.from_yaml(node("n1") + scenario("{at: 2, partition: scheduler-c}", replicas=2))
    sim.run_until_idle()
    (refused,) = sim.action_errors
    assert (refused.time, refused.action, refused.error) == (
        2.0, "partition scheduler-c from the API server",
        "no scheduler replica scheduler-c (the replicas are scheduler-a, scheduler-b)")


class _Server:
    def __init__(self):
        self.handlers = []

    def get(self, kind, namespace, name):
        return (kind, namespace, name)

    def watch(self, handler, kinds=None):
        self.handlers.append(handler)
        return lambda: None

    def record_event(self, *args, **kwargs):
        return "event"


@pytest.mark.parametrize("watch_only, get_works, event, delivered", [
    (None, True, "event", ["e"]),      # not cut
    (True, True, "event", []),         # stallWatch: requests work, watches deliver nothing
    (False, False, None, []),          # partition: requests fail, Events are dropped
])
def test_replica_client_cuts(watch_only, get_works, event, delivered):
    server, got = _Server(), []
    client = ReplicaClient(server)
    client.watch(got.append)
    if watch_only is not None:
        client.cut(watch_only=watch_only)
    server.handlers[0]("e")
    assert got == delivered
    assert client.record_event("x") == event
    if get_works:
        assert client.get("Pod", "default", "p") == ("Pod", "default", "p")
    else:
        with pytest.raises(Unreachable, match="^Get https://10.96.0.1:443/api/v1/namespaces/default/pods/p: "
                                              "dial tcp 10.96.0.1:443: connect: connection refused$"):
            client.get("Pod", "default", "p")


@pytest.mark.parametrize("verb, args, url", [
    ("get", ("Lease", "kube-system", "kube-scheduler"),
     "https://10.96.0.1:443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler"),
    ("bind", ("default", "web", "n1"), "https://10.96.0.1:443/api/v1/namespaces/default/pods/web/binding"),
    ("list", ("Node",), "https://10.96.0.1:443/api/v1/nodes"),
    ("get", ("PodDisruptionBudget", "default", "pdb"),
     "https://10.96.0.1:443/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets/pdb"),
    ("snapshot", (), "https://10.96.0.1:443/api"),
])
def test_request_url(verb, args, url):
    assert request_url(verb, args) == url
