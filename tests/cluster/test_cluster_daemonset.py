"""The DaemonSet controller: which nodes get a pod, the pod it creates (1.18 ScheduleDaemonSetPods), later nodes.

Upstream: pkg/controller/daemon/daemon_controller.go (nodeShouldRunDaemonPod, Predicates,
podsShouldBeOnNode, syncNodes, updateDaemonSetStatus) and util/daemonset_util.go
(AddOrUpdateDaemonPodTolerations, ReplaceDaemonSetPodNodeNameNodeAffinity, CreatePodTemplate).
"""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest

from kubesched.api.controllers import compute_hash
from kubesched.api.core import NodeSelectorRequirement, NodeSelectorTerm, Toleration
from kubesched.api.names import ALPHANUMS
from kubesched.cluster.daemonset_controller import node_should_run_daemon_pod
from tests.cluster.workload_fakes import Cluster, exported_pod, node, objects

TEMPLATE = {"metadata": {"labels": {"name": "agent"}},
            "spec": {"containers": [{"name": "agent", "image": "agent:1",
                                     "resources": {"requests": {"cpu": "100m"}}}]}}


def daemon_set(spec_patch: dict | None = None, namespace: str = "kube-system") -> dict:
    template = copy.deepcopy(TEMPLATE)
    template["spec"].update(spec_patch or {})
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent", "namespace": namespace},
            "spec": {"selector": {"matchLabels": {"name": "agent"}}, "template": template}}


NO_SCHEDULE = [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
NO_EXECUTE = [{"key": "dedicated", "value": "gpu", "effect": "NoExecute"}]
ELIGIBILITY = [
    # (case, node labels, node taints, template spec patch, (shouldRun, shouldContinueRunning))
    ("plain node", {}, [], {}, (True, True)),
    ("NoSchedule taint not tolerated", {}, NO_SCHEDULE, {}, (False, True)),
    ("NoExecute taint not tolerated", {}, NO_EXECUTE, {}, (False, False)),
    ("PreferNoSchedule taint is ignored", {}, [{"key": "k", "effect": "PreferNoSchedule"}], {}, (True, True)),
    ("taint tolerated", {}, NO_SCHEDULE,
     {"tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}]}, (True, True)),
    ("unschedulable taint: daemon toleration", {},
     [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}], {}, (True, True)),
    ("not-ready NoExecute: daemon toleration", {},
     [{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}], {}, (True, True)),
    ("memory-pressure: daemon toleration", {},
     [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule"}], {}, (True, True)),
    ("network-unavailable without hostNetwork", {},
     [{"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"}], {}, (False, True)),
    ("network-unavailable with hostNetwork", {},
     [{"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"}], {"hostNetwork": True},
     (True, True)),
    ("nodeSelector matches", {"disk": "ssd"}, [], {"nodeSelector": {"disk": "ssd"}}, (True, True)),
    ("nodeSelector does not match", {}, [], {"nodeSelector": {"disk": "ssd"}}, (False, False)),
    ("required affinity does not match", {"zone": "b"}, [],
     {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
         {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}}, (False, False)),
    ("template nodeName is another node", {}, [], {"nodeName": "n9"}, (False, False)),
]


@pytest.mark.parametrize("case,labels,taints,patch,want", ELIGIBILITY, ids=[c[0] for c in ELIGIBILITY])
def test_node_should_run_daemon_pod(case, labels, taints, patch, want) -> None:
    n, ds = objects(node("n1", labels, taints), daemon_set(patch))
    assert node_should_run_daemon_pod(n, ds) == want


def test_one_pod_per_eligible_node_created_the_1_18_way() -> None:
    user_toleration = {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                       "tolerationSeconds": 60}
    patch = {"tolerations": [user_toleration],
             "affinity": {"nodeAffinity": {
                 "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                     {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["main"]}],
                      "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n3"]}]}]},
                 "preferredDuringSchedulingIgnoredDuringExecution": [
                     {"weight": 5, "preference": {"matchExpressions": [{"key": "ssd", "operator": "Exists"}]}}]}}}
    cluster = Cluster(node("n1", {"pool": "main"}), node("n2", {"pool": "main"}, NO_SCHEDULE),
                      node("n3", {"pool": "main"}), node("n4", {"pool": "other"}), daemon_set(patch)).run(0.0)
    pods = cluster.pods("kube-system")
    ds = cluster.api.get("DaemonSet", "kube-system", "agent")
    assert [(p.metadata.name[:6], p.spec.node_name) for p in pods] == [("agent-", "n1")]
    pod = pods[0]
    assert re.fullmatch(f"agent-[{ALPHANUMS}]{{5}}", pod.metadata.name)
    assert pod.metadata.generate_name == "agent-"
    assert dict(pod.metadata.labels) == {"name": "agent", "pod-template-generation": "1",
                                         "controller-revision-hash": compute_hash(ds.spec.template)}
    ref = pod.metadata.controller_ref()
    assert (ref.api_version, ref.kind, ref.name, ref.uid, ref.block_owner_deletion) == (
        "apps/v1", "DaemonSet", "agent", ds.metadata.uid, True)
    assert pod.spec.tolerations == (
        Toleration(key="node.kubernetes.io/not-ready", operator="Exists", effect="NoExecute"),
        Toleration(key="node.kubernetes.io/unreachable", operator="Exists", effect="NoExecute"),
        Toleration(key="node.kubernetes.io/disk-pressure", operator="Exists", effect="NoSchedule"),
        Toleration(key="node.kubernetes.io/memory-pressure", operator="Exists", effect="NoSchedule"),
        Toleration(key="node.kubernetes.io/pid-pressure", operator="Exists", effect="NoSchedule"),
        Toleration(key="node.kubernetes.io/unschedulable", operator="Exists", effect="NoSchedule"),
    )
    affinity = pod.spec.affinity.node_affinity
    assert affinity.required_during_scheduling_ignored_during_execution.node_selector_terms == (
        NodeSelectorTerm(match_fields=(NodeSelectorRequirement(key="metadata.name", operator="In",
                                                               values=("n1",)),)),)
    assert affinity.preferred_during_scheduling_ignored_during_execution[0].weight == 5
    assert (pod.spec.scheduler_name, pod.spec.priority) == ("default-scheduler", 0)
    assert cluster.events("DaemonSet") == [
        (0.0, 1, "agent", "Normal", "SuccessfulCreate", f"Created pod: {pod.metadata.name}", "daemonset-controller")]


def test_host_network_pods_also_tolerate_network_unavailable() -> None:
    cluster = Cluster(node("n1"), daemon_set({"hostNetwork": True})).run(0.0)
    [pod] = cluster.pods("kube-system")
    assert pod.spec.tolerations[-1] == Toleration(key="node.kubernetes.io/network-unavailable",
                                                  operator="Exists", effect="NoSchedule")
    assert len(pod.spec.tolerations) == 7


def test_a_node_added_later_gets_its_pod_then() -> None:
    cluster = Cluster(node("n1"), daemon_set())
    cluster.add(node("n2"), at=30.0)
    cluster.run(29.0)
    assert [p.spec.node_name for p in cluster.pods("kube-system")] == ["n1"]
    cluster.run(31.5)
    pods = cluster.pods("kube-system")
    assert [(p.spec.node_name, p.metadata.creation_timestamp, p.status.phase) for p in pods] == [
        ("n1", 0.0, "Running"), ("n2", 30.0, "Running")]
    ds = cluster.api.get("DaemonSet", "kube-system", "agent")
    status = ds.status
    assert (status.desired_number_scheduled, status.current_number_scheduled, status.number_ready,
            status.number_available, status.number_unavailable, status.updated_number_scheduled,
            status.number_misscheduled) == (2, 2, 2, 2, 0, 2, 0)


def _relabel(cluster: Cluster, at: float, labels: dict, taints: list) -> None:
    def edit() -> None:
        current = cluster.api.get("Node", "", "n1")
        wanted = objects(node("n1", labels, taints))[0]
        cluster.api.update(dataclasses.replace(current, metadata=dataclasses.replace(
            current.metadata, labels=wanted.metadata.labels), spec=wanted.spec))
    cluster.loop.call_at(at, edit, label="test edit node")


def test_node_updates_create_and_delete_daemon_pods() -> None:
    cluster = Cluster(node("n1"), daemon_set({"nodeSelector": {"agent": "yes"}}))
    _relabel(cluster, 5.0, {"agent": "yes"}, [])
    _relabel(cluster, 10.0, {"agent": "yes"}, NO_SCHEDULE)
    _relabel(cluster, 20.0, {"agent": "yes"}, NO_EXECUTE)
    cluster.run(4.0)
    assert cluster.pods("kube-system") == []
    cluster.run(15.0)
    [pod] = cluster.pods("kube-system")
    assert (pod.spec.node_name, pod.metadata.creation_timestamp, pod.metadata.deletion_timestamp) == (
        "n1", 5.0, None)  # a NoSchedule taint it does not tolerate does not evict it
    cluster.run(20.0)
    pod = cluster.api.get("Pod", "kube-system", pod.metadata.name)
    assert (pod.metadata.deletion_timestamp, pod.metadata.deletion_grace_period_seconds) == (50.0, 30)
    assert [e[4:6] for e in cluster.events("DaemonSet")] == [
        ("SuccessfulCreate", f"Created pod: {pod.metadata.name}"),
        ("SuccessfulDelete", f"Deleted pod: {pod.metadata.name}")]


def test_pods_already_in_the_dump_are_not_created_again() -> None:
    ds = daemon_set()
    ds["metadata"]["uid"] = "ds-uid"
    existing = exported_pod("agent-x7k2p", "DaemonSet", "agent", "ds-uid", {"name": "agent"}, "kube-system")
    cluster = Cluster(node("n1"), node("n2"), ds, existing).run(0.0)
    assert sorted((p.metadata.name == "agent-x7k2p", p.spec.node_name) for p in cluster.pods("kube-system")) == [
        (False, "n2"), (True, "n1")]


def test_an_empty_selector_selects_all_and_creates_nothing() -> None:
    ds = daemon_set()
    ds["spec"]["selector"] = {}
    cluster = Cluster(node("n1"))
    cluster.api.create(objects(ds)[0])
    cluster.run(0.0)
    assert cluster.pods("kube-system") == []
    assert cluster.events("DaemonSet") == [(0.0, 1, "agent", "Warning", "SelectingAll",
                                            "This daemon set is selecting all pods. A non-empty selector is "
                                            "required.", "daemonset-controller")]


def test_names_are_generated_from_a_stable_seed() -> None:
    # generateName "agent-" + 5 characters drawn from (daemonset, node, count): the same on every run
    cluster = Cluster(node("n1"), node("n2"), node("n3"), daemon_set()).run(0.0)
    assert [(p.spec.node_name, p.metadata.name) for p in cluster.pods("kube-system")] == [
        ("n1", "agent-fxwck"), ("n2", "agent-nhhn6"), ("n3", "agent-xbtwb")]
