"""Scenarios: preemption (with and without a PDB), two profiles, Permit waits, an HTTP
extender, a bind failure. Each run is deterministic: the same inputs give the same Events."""

from __future__ import annotations

from typing import Callable

import pytest

from kubesched.extender.sample import REJECT_LABEL, SCORE_LABEL, SampleExtender, run_sample_extender
from kubesched.scheduler.apis.config.types import (Extender, KubeSchedulerConfiguration, KubeSchedulerProfile,
                                                   Plugin, Plugins, PluginSet)
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from tests.e2e.harness import Cluster, node, pdb, pod

SCHED = "default-scheduler"


# -- preemption ------------------------------------------------------------------------------
def preemption_without_pdb() -> Cluster:
    cluster = Cluster(node("n1", cpu="2"))
    cluster.at(0.0, pod("low1", cpu="1"))
    cluster.at(1.0, pod("low2", cpu="1"))
    cluster.at(2.0, pod("high", cpu="2", priority=100))
    return cluster


def test_preemption_evicts_victims_and_binds_the_preemptor_after_their_grace_period():
    cluster = preemption_without_pdb().run(until=10.0)
    assert cluster.get("high").status.nominated_node_name == "n1"
    assert cluster.get("low1").metadata.deletion_timestamp == 32.0
    assert cluster.get("low2").metadata.deletion_timestamp == 32.0
    cluster.run(until=40.0)
    assert cluster.node_of("high") == "n1"
    victims_scheduled = {("low1", "Scheduled"), ("low2", "Scheduled")}
    assert [e for e in cluster.events() if (e[3], e[5]) not in victims_scheduled] == [(2.0, 2.0, 1, "high", "Warning", "FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu.", SCHED),
            (2.0, 2.0, 1, "low1", "Normal", "Preempted", "Preempted by default/high on node n1", SCHED),
            (2.0, 2.0, 1, "low2", "Normal", "Preempted", "Preempted by default/high on node n1", SCHED),
            (32.0, 32.0, 1, "high", "Normal", "Scheduled", "Successfully assigned default/high to n1", SCHED)]


def preemption_with_pdb() -> Cluster:
    cluster = Cluster(node("n1", cpu="1"), node("n2", cpu="1"), pdb("guard", {"app": "guarded"}, 0))
    cluster.at(0.0, pod("a", cpu="1", labels={"app": "guarded"}, node_selector={"kubernetes.io/hostname": "n1"}))
    cluster.at(1.0, pod("b", cpu="1", labels={"app": "free"}))
    cluster.at(2.0, pod("high", cpu="1", priority=100))
    return cluster


def test_preemption_prefers_the_node_without_pdb_violations():
    cluster = preemption_with_pdb().run(until=10.0)
    assert (cluster.node_of("a"), cluster.node_of("b")) == ("n1", "n2")
    assert cluster.get("high").status.nominated_node_name == "n2"
    assert [e[3] for e in cluster.events() if e[5] == "Preempted"] == ["b"]
    assert cluster.get("a").metadata.deletion_timestamp is None
    cluster.run(until=40.0)
    assert cluster.node_of("high") == "n2"
    assert cluster.events_of("high", "Scheduled")[0][0] == 32.0


# -- profiles -------------------------------------------------------------------------------------
def two_profiles() -> Cluster:
    # BalancedAllocation would outweigh MostAllocated here: the packer drops it too.
    packer = Plugins(score=PluginSet(enabled=(Plugin("NodeResourcesMostAllocated", 1),),
                                     disabled=(Plugin("NodeResourcesLeastAllocated"),
                                               Plugin("NodeResourcesBalancedAllocation"))))
    config = KubeSchedulerConfiguration(profiles=(KubeSchedulerProfile(SCHED),
                                                  KubeSchedulerProfile("packer", plugins=packer)))
    cluster = Cluster(node("n1"), node("n2"), config=config, seed=7)
    for i, p in enumerate([pod("p1", cpu="1", scheduler="packer"), pod("p2", cpu="1", scheduler="packer"),
                           pod("d1", cpu="1"), pod("d2", cpu="1"), pod("other", cpu="1", scheduler="nobody")]):
        cluster.at(float(i), p)
    return cluster


def test_two_profiles_route_pods_by_scheduler_name():
    cluster = two_profiles().run(until=10.0)
    packed = cluster.node_of("p1")
    assert packed and cluster.node_of("p2") == packed
    spread = {"n1": "n2", "n2": "n1"}[packed]
    assert (cluster.node_of("d1"), cluster.node_of("d2")) == (spread, spread)
    assert {e[3]: e[7] for e in cluster.events()} == {"p1": "packer", "p2": "packer", "d1": SCHED, "d2": SCHED}
    assert cluster.node_of("other") == "" and cluster.events_of("other") == []
    assert len(cluster.sched.scheduling_queue.pending_pods()) == 0  # "nobody" is never queued


# -- out-of-tree plugins ------------------------------------------------------------------
class WaitTenSeconds:
    """A Permit plugin that parks every pod for 10 s (nobody allows it: it times out)."""

    NAME = "WaitTenSeconds"

    def name(self) -> str:
        return self.NAME

    def permit(self, state, pod, node_name):
        return Status(Code.WAIT, ("",)), 10.0


class FlakyBinder:
    """Refuses the first binding, binds through the API server afterwards; records Unreserve."""

    NAME = "FlakyBinder"

    def __init__(self, handle) -> None:
        self.handle, self.calls, self.unreserved = handle, 0, []

    def name(self) -> str:
        return self.NAME

    def bind(self, state, pod, node_name):
        self.calls += 1
        if self.calls == 1:
            return Status(Code.ERROR, ("flaky",))
        self.handle.client_set().bind(pod.metadata.namespace, pod.metadata.name, node_name)
        return None

    def unreserve(self, state, pod, node_name):
        self.unreserved.append((pod.metadata.name, node_name))


def _profile(plugins: Plugins) -> KubeSchedulerConfiguration:
    return KubeSchedulerConfiguration(profiles=(KubeSchedulerProfile(SCHED, plugins=plugins),))


def permit_timeout() -> Cluster:
    config = _profile(Plugins(permit=PluginSet(enabled=(Plugin(WaitTenSeconds.NAME),))))
    return Cluster(node("n1"), pod("p"), config=config,
                   out_of_tree_registry={WaitTenSeconds.NAME: lambda args, handle: WaitTenSeconds()})


def test_permit_wait_times_out_and_the_pod_is_forgotten():
    cluster = permit_timeout().run(until=9.0)
    assert cluster.sched.scheduler_cache.pod_count() == 1  # assumed while waiting
    assert cluster.node_of("p") == ""
    cluster.run(until=11.0)
    message = 'pod "p" rejected while waiting on permit: rejected due to timeout after waiting 10s at plugin ' \
              'WaitTenSeconds'
    assert cluster.events() == [(10.0, 10.0, 1, "p", "Warning", "FailedScheduling", message, SCHED)]
    assert cluster.sched.scheduler_cache.pod_count() == 0
    condition = next(c for c in cluster.get("p").status.conditions if c.type == "PodScheduled")
    assert (condition.status, condition.reason, condition.message) == ("False", "Unschedulable", message)


def bind_failure(binders: list) -> Cluster:
    plugins = Plugins(bind=PluginSet(enabled=(Plugin(FlakyBinder.NAME),), disabled=(Plugin("DefaultBinder"),)),
                      unreserve=PluginSet(enabled=(Plugin(FlakyBinder.NAME),)))

    def factory(args, handle):
        binders.append(FlakyBinder(handle))
        return binders[-1]
    return Cluster(node("n1"), pod("p"), config=_profile(plugins), out_of_tree_registry={FlakyBinder.NAME: factory})


def test_bind_failure_unreserves_and_requeues_then_binds_on_retry():
    binders: list[FlakyBinder] = []
    cluster = bind_failure(binders).run(until=1.0)
    assert binders[0].unreserved == [("p", "n1")]
    assert cluster.sched.scheduler_cache.pod_count() == 0
    assert cluster.sched.scheduling_queue.num_unschedulable_pods() == 1
    cluster.run(until=100.0)
    assert cluster.node_of("p") == "n1"
    assert cluster.events() == [
        (0.0, 0.0, 1, "p", "Warning", "FailedScheduling",
         'Binding rejected: plugin "FlakyBinder" failed to bind pod "default/p": flaky', SCHED),
        (90.0, 90.0, 1, "p", "Normal", "Scheduled", "Successfully assigned default/p to n1", SCHED)]


# -- extender over HTTP -----------------------------------------------------------------------
def extender_cluster(url: str) -> Cluster:
    config = KubeSchedulerConfiguration(extenders=(Extender(url_prefix=url, filter_verb="filter",
                                                            prioritize_verb="prioritize", bind_verb="bind",
                                                            weight=1),))
    nodes = [node("n1", labels={REJECT_LABEL: "true", SCORE_LABEL: "10"}), node("n2", labels={SCORE_LABEL: "2"}),
             node("n3", labels={SCORE_LABEL: "9"})]
    return Cluster(*nodes, pod("p"), config=config)


def test_extender_filters_scores_and_binds():
    holder: dict = {}

    def on_bind(args):
        holder["cluster"].api.bind(args["PodNamespace"], args["PodName"], args["Node"])
        return None

    extender = SampleExtender(on_bind=on_bind)
    with run_sample_extender(extender=extender) as url:
        cluster = holder["cluster"] = extender_cluster(url)
        cluster.run(until=1.0)
    assert cluster.node_of("p") == "n3"
    assert [r.verb for r in extender.requests] == ["filter", "prioritize", "bind"]
    filter_body = extender.requests_for("filter")[0].body
    assert [n["metadata"]["name"] for n in filter_body["Nodes"]["items"]] == ["n1", "n2", "n3"]
    prioritize_body = extender.requests_for("prioritize")[0].body
    assert [n["metadata"]["name"] for n in prioritize_body["Nodes"]["items"]] == ["n2", "n3"]
    assert extender.requests_for("bind")[0].body == {"PodName": "p", "PodNamespace": "default",
                                                     "PodUID": cluster.get("p").metadata.uid, "Node": "n3"}
    assert cluster.events() == [(0.0, 0.0, 1, "p", "Normal", "Scheduled", "Successfully assigned default/p to n3",
                                 SCHED)]


# -- determinism ----------------------------------------------------------------------------------
SCENARIOS: list[tuple[str, Callable[[], Cluster], float]] = [
    ("preemption", preemption_without_pdb, 40.0),
    ("preemption-pdb", preemption_with_pdb, 40.0),
    ("two-profiles", two_profiles, 10.0),
    ("permit-timeout", permit_timeout, 100.0),
    ("bind-failure", lambda: bind_failure([]), 100.0),
]


@pytest.mark.parametrize("build, until", [(b, u) for _, b, u in SCENARIOS], ids=[n for n, _, _ in SCENARIOS])
def test_each_scenario_twice_gives_the_same_events(build, until):
    first, second = build().run(until=until), build().run(until=until)
    assert first.events() and first.events() == second.events()
    assert first.logs == second.logs
