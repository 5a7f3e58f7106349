"""The engine's observer hooks end to end: Score weights, extension-point phases, log sites, informers."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kubesched.api.meta import OwnerReference
from kubesched.cluster import APIServer, Kubelet
from kubesched.scheduler import factory
from kubesched.client.informers import InformerFactory
from kubesched.util.loop import EventLoop
from kubesched.trace import Kind, TraceRecorder, plugin_calls
from kubesched.trace import upstream as up
from tests.e2e.harness import node, pod

AVOID = "scheduler.alpha.kubernetes.io/preferAvoidPods"
RS = OwnerReference(api_version="apps/v1", kind="ReplicaSet", name="rs", uid="rs-uid", controller=True)


def avoided_node(name: str, cpu: str) -> object:
    n = node(name, cpu=cpu)
    signature = {"podController": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "rs-uid",
                                   "controller": True}}
    note = json.dumps({"preferAvoidPods": [{"podSignature": signature}]})
    return dataclasses.replace(n, metadata=dataclasses.replace(n.metadata, annotations={AVOID: note}))


def owned(p: object) -> object:
    return dataclasses.replace(p, metadata=dataclasses.replace(p.metadata, owner_references=(RS,)))


def run(*objects: object, until: float = 5.0) -> tuple[TraceRecorder, InformerFactory]:
    loop = EventLoop()
    api = APIServer(loop)
    for obj in objects:
        api.create(obj)
    Kubelet(api)
    rec = TraceRecorder(clock=loop)
    informers = InformerFactory(api, loop)
    sched = factory.new(api, loop, None, seed=3, informer_factory=informers, observer=rec.observer, log=rec.log)
    rec.attach_informers(informers)  # after the scheduler's handlers: the hook still comes first
    sched.run()
    loop.run(until=until)
    return rec, informers


CLUSTER = (node("n1", cpu="2"), node("n2", cpu="4"), pod("a", "1"), pod("big", "8"))


def phases(rec: TraceRecorder, name: str) -> list[tuple[str, str, str]]:
    cycle = rec.trace.filter(Kind.CYCLE_START, pod=f"default/{name}")[0].cycle
    return [("start" if r.kind is Kind.PHASE_START else "end", r.data.phase, r.data.code)
            for r in rec.trace.filter((Kind.PHASE_START, Kind.PHASE_END), cycle=cycle)]


def pairs(*names: str) -> list[tuple[str, str, str]]:
    return [step for n in names for step in (("start", n, ""), ("end", n, "Success"))]


@pytest.mark.parametrize("name, want", [
    ("a", [("start", "Schedule", ""), *pairs("PreFilter", "Filter", "PreScore", "Score"),
           ("end", "Schedule", "Success"),
           *pairs("AssumePodVolumes", "Reserve", "Assume", "Permit", "WaitOnPermit", "PreBind", "Bind", "PostBind")]),
    ("big", [("start", "Schedule", ""), *pairs("PreFilter"), ("start", "Filter", ""), ("end", "Filter", "Unschedulable"),
             ("end", "Schedule", "Unschedulable"), *pairs("Preempt")]),
], ids=["scheduled", "fails-in-filter"])
def test_extension_point_phases_in_order(name, want):
    rec, _ = run(*CLUSTER)
    assert phases(rec, name) == want


def test_extension_point_records_name_the_runner():
    rec, _ = run(*CLUSTER)
    where = {r.data.phase: (r.file, r.func) for r in rec.trace.filter(Kind.PHASE_START)}
    assert where["PreFilter"] == (up.FRAMEWORK_GO, "framework.RunPreFilterPlugins")
    assert where["Filter"] == (up.GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassFilters")
    assert where["Score"] == (up.FRAMEWORK_GO, "framework.RunScorePlugins")


# node → (plugin, raw, normalized, weight, weighted) for pod "a" (1 cpu, 200Mi by default) on n1 (2 cpu, 8Gi)
# and n2 (4 cpu, 8Gi); n1 avoids the pod's ReplicaSet.
WANT_SCORES = {
    "n1": [("NodeResourcesBalancedAllocation", 52, 52, 1, 52), ("ImageLocality", 0, 0, 1, 0),
           ("InterPodAffinity", 0, 0, 1, 0), ("NodeResourcesLeastAllocated", 73, 73, 1, 73),
           ("NodeAffinity", 0, 0, 1, 0), ("NodePreferAvoidPods", 0, 0, 10000, 0),
           ("DefaultPodTopologySpread", 0, 100, 1, 100), ("TaintToleration", 0, 100, 1, 100),
           ("PodTopologySpread", 0, 0, 1, 0)],
    "n2": [("NodeResourcesBalancedAllocation", 77, 77, 1, 77), ("ImageLocality", 0, 0, 1, 0),
           ("InterPodAffinity", 0, 0, 1, 0), ("NodeResourcesLeastAllocated", 86, 86, 1, 86),
           ("NodeAffinity", 0, 0, 1, 0), ("NodePreferAvoidPods", 100, 100, 10000, 1000000),
           ("DefaultPodTopologySpread", 0, 100, 1, 100), ("TaintToleration", 0, 100, 1, 100),
           ("PodTopologySpread", 0, 0, 1, 0)],
}


def test_score_records_carry_raw_normalized_weight_and_weighted():
    rec, _ = run(avoided_node("n1", "2"), node("n2", cpu="4"), owned(pod("a", "1")))
    runs = rec.trace.filter(Kind.SCORE_RUN, pod="default/a")
    calls = [r for r in plugin_calls(runs) if r.data.extension_point == "Score"]
    got = {n: [(r.plugin, r.data.raw_score, r.data.normalized_score, r.data.weight, r.data.weighted_score)
               for r in calls if r.node == n] for n in ("n1", "n2")}
    assert got == WANT_SCORES
    score_run = runs[0].data
    assert tuple(zip(score_run.nodes, score_run.totals)) == tuple(
        (n, sum(row[4] for row in rows)) for n, rows in WANT_SCORES.items())
    assert score_run.selected == "n2"


SCHED, FACTORY = up.SCHEDULER_GO, up.FACTORY_GO


def test_log_records_carry_severity_and_site():
    rec, _ = run(*CLUSTER)
    assert [(r.data.verbosity, r.data.severity, r.file, r.func, r.data.message)
            for r in rec.trace.filter(Kind.LOG)] == [
        (2, "I", FACTORY, "Configurator.createFromProvider",
         "Creating scheduler from algorithm provider 'DefaultProvider'"),
        (3, "I", SCHED, "Scheduler.scheduleOne", "Attempting to schedule pod: default/a"),
        (2, "I", SCHED, "Scheduler.scheduleOne",
         'pod default/a is bound successfully on node "n2", 2 nodes evaluated, 2 nodes were found feasible.'),
        (3, "I", SCHED, "Scheduler.scheduleOne", "Attempting to schedule pod: default/big"),
        (2, "I", FACTORY, "MakeDefaultErrorFunc",
         "Unable to schedule default/big: no fit: 0/2 nodes are available: 2 Insufficient cpu.; waiting"),
        (3, "I", SCHED, "podConditionUpdaterImpl.update",
         "Updating pod condition for default/big to (PodScheduled==False, Reason=Unschedulable)"),
    ]


def test_informer_deliveries_in_delivery_order_before_their_effects():
    rec, informers = run(*CLUSTER)
    records = rec.trace.filter(Kind.INFORMER_EVENT)
    assert [(r.data.event_type, r.data.object_kind, r.data.namespace, r.data.name) for r in records] == \
        informers.delivered
    assert ("MODIFIED", "Pod", "default", "a") in informers.delivered  # the binding's echo is there too
    added_a = next(r.seq for r in records if (r.data.event_type, r.data.name) == ("ADDED", "a"))
    queued_a = rec.trace.filter(Kind.QUEUE_MOVE, pod="default/a")[0]
    assert (queued_a.data.source, queued_a.data.target) == ("", "activeQ")
    assert added_a < queued_a.seq
