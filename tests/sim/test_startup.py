"""Startup as executed steps: names and order (reference §1.7), files/functions, cache-sync counts."""

from __future__ import annotations

import pytest

from kubesched.cmd.app.server import STARTUP_STEPS
from kubesched.sim import Simulation
from kubesched.trace import Kind
from tests.sim.clusters import SMALL, node, pod, scenario

LEADER_STEPS = ("sched.Run", "SchedulingQueue.Run", "scheduleOne")


@pytest.fixture(scope="module")
def small_run():
    sim = Simulation.from_yaml(SMALL)
    sim.run_until_idle()
    return sim


def steps(sim, replica):
    return [r for r in sim.trace if r.kind is Kind.STARTUP_STEP and ("replica", replica) in r.data.details]


def test_single_replica_runs_every_step_in_upstream_order(small_run):
    records = steps(small_run, "scheduler-a")
    assert tuple(r.data.step for r in records) == STARTUP_STEPS
    assert STARTUP_STEPS == (
        "main", "NewSchedulerCommand", "NewOptions", "runCommand", "Options.Config", "Config.Complete", "Run",
        "scheduler.New", "EventBroadcaster.StartRecordingToSink", "Setup healthz checks", "InsecureServing.Serve",
        "SecureServing.Serve", "InformerFactory.Start", "WaitForCacheSync", "LeaderElector.Run", "sched.Run",
        "SchedulingQueue.Run", "scheduleOne")
    assert {r.time for r in records} == {0.0}


@pytest.mark.parametrize("step, file, func", [
    ("main", "cmd/kube-scheduler/scheduler.go", "main"),
    ("NewSchedulerCommand", "cmd/kube-scheduler/app/server.go", "NewSchedulerCommand"),
    ("NewOptions", "cmd/kube-scheduler/app/options/options.go", "NewOptions"),
    ("runCommand", "cmd/kube-scheduler/app/server.go", "runCommand"),
    ("Options.Config", "cmd/kube-scheduler/app/options/options.go", "Options.Config"),
    ("Config.Complete", "cmd/kube-scheduler/app/config/config.go", "Config.Complete"),
    ("scheduler.New", "pkg/scheduler/scheduler.go", "New"),
    ("WaitForCacheSync", "cmd/kube-scheduler/app/server.go", "Run"),
    ("LeaderElector.Run", "cmd/kube-scheduler/app/server.go", "Run"),
    ("sched.Run", "pkg/scheduler/scheduler.go", "Scheduler.Run"),
    ("SchedulingQueue.Run", "pkg/scheduler/internal/queue/scheduling_queue.go", "PriorityQueue.Run"),
    ("scheduleOne", "pkg/scheduler/scheduler.go", "Scheduler.scheduleOne"),
])
def test_each_step_names_its_upstream_function(small_run, step, file, func):
    (record,) = [r for r in steps(small_run, "scheduler-a") if r.data.step == step]
    assert (record.file, record.func) == (file, func)


@pytest.mark.parametrize("objects, message, counts", [
    (SMALL, "informers synced 2 nodes, 3 pods", {"Node": "2", "Pod": "3"}),
    (node("a") + node("b") + node("c") + pod("p", node_name="a"), "informers synced 3 nodes, 1 pod",
     {"Node": "3", "Pod": "1"}),
    (pod("lonely"), "informers synced 0 nodes, 1 pod", {"Node": "0", "Pod": "1"}),
])
def test_wait_for_cache_sync_reports_what_the_informers_hold(objects, message, counts):
    sim = Simulation.from_yaml(objects)
    sim.run_until_idle()
    (record,) = [r for r in steps(sim, "scheduler-a") if r.data.step == "WaitForCacheSync"]
    assert record.data.message == message
    details = dict(record.data.details)
    assert {k: details[k] for k in counts} == counts
    # the sync is reported after every informer delivery of the initial List
    listed = sum(int(n) for n in counts.values())
    deliveries = [r for r in sim.trace if r.kind is Kind.INFORMER_EVENT][:listed]
    assert [r.data.event_type for r in deliveries] == ["ADDED"] * listed
    assert deliveries[-1].seq < record.seq


def test_serving_steps_record_the_ports_from_the_configuration(small_run):
    by_step = {r.data.step: dict(r.data.details) for r in steps(small_run, "scheduler-a")}
    assert by_step["InsecureServing.Serve"]["address"] == "0.0.0.0:10251"
    assert by_step["InsecureServing.Serve"]["serves"] == "healthz and metrics"
    assert by_step["SecureServing.Serve"]["port"] == "10259"
    le = by_step["LeaderElector.Run"]
    assert (le["lock"], le["lockObject"], le["leaseDuration"], le["renewDeadline"], le["retryPeriod"]) == (
        "endpointsleases", "kube-system/kube-scheduler", "15s", "10s", "2s")


def test_separate_metrics_address_starts_a_second_insecure_server():
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration",
              "metricsBindAddress": "0.0.0.0:10255"}
    sim = Simulation.from_yaml(SMALL, config=config)
    sim.run_until_idle()
    names = [r.data.step for r in steps(sim, "scheduler-a")]
    assert names[names.index("InsecureServing.Serve") + 1] == "InsecureMetricsServing.Serve"
    metrics = next(r for r in steps(sim, "scheduler-a") if r.data.step == "InsecureMetricsServing.Serve")
    assert dict(metrics.data.details)["address"] == "0.0.0.0:10255"


def test_without_leader_election_sched_run_follows_the_cache_sync():
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration",
              "leaderElection": {"leaderElect": False}}
    sim = Simulation.from_yaml(SMALL, config=config)
    sim.run_until_idle()
    names = tuple(r.data.step for r in steps(sim, "scheduler-a"))
    assert names == tuple(s for s in STARTUP_STEPS if s != "LeaderElector.Run")
    assert [r for r in sim.trace if r.kind is Kind.LEADER_ELECTION] == []
    assert len(sim.state().placements()) == 3


def test_standby_replica_stops_at_leader_election():
    sim = Simulation.from_yaml(SMALL + scenario(replicas=2))
    sim.run_until_idle()
    assert tuple(r.data.step for r in steps(sim, "scheduler-a")) == STARTUP_STEPS
    assert tuple(r.data.step for r in steps(sim, "scheduler-b")) == tuple(
        s for s in STARTUP_STEPS if s not in LEADER_STEPS)


@pytest.mark.parametrize("plugins, reason", [
    ("score: {enabled: [{name: Nope}]}", 'ScorePlugin "Nope" does not exist'),
    ("filter: {enabled: [{name: NodeResourcesLeastAllocated}]}",
     'plugin "NodeResourcesLeastAllocated" does not extend FilterPlugin plugin'),
])
def test_a_scheduler_that_cannot_start_says_why_in_the_trace(plugins, reason):
    text = f"""apiVersion: v1
kind: Node
metadata: {{name: n1}}
status: {{capacity: {{cpu: "1", memory: 1Gi, pods: "10"}}}}
---
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins: {{{plugins}}}
"""
    sim = Simulation.from_yaml(text, seed=0)
    sim.run_until_idle()
    errors = [r.data.message for r in sim.trace.filter(kind=Kind.LOG) if r.data.severity == "E"]
    assert len(errors) == 1 and reason in errors[0], errors
