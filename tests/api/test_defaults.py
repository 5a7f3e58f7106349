"""API-server defaulting and priority admission.

Upstream: pkg/apis/core/v1/defaults_test.go, plugin/pkg/admission/priority/admission_test.go
(TestPodAdmission: class value, globalDefault, built-in classes, no class → 0).
"""

from __future__ import annotations

import uuid

import pytest

from kubesched.api.core import Node, Pod
from kubesched.api.meta import ObjectMeta
from kubesched.api.names import object_uid
from kubesched.api.scheduling import PriorityClass
from tests.api.helpers import dump, load, node, pod

PC = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass"}


def loaded_pod(*docs: dict) -> Pod:
    return load(dump(*docs)).of_kind(Pod)[0]


def test_pod_defaults() -> None:
    p = loaded_pod(pod({"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80}]}]}))
    assert (p.metadata.namespace, p.spec.scheduler_name, p.spec.termination_grace_period_seconds,
            p.spec.restart_policy, p.status.phase, p.spec.priority, p.spec.preemption_policy,
            p.spec.containers[0].ports[0].protocol) == (
        "default", "default-scheduler", 30, "Always", "Pending", 0, "PreemptLowerPriority", "TCP")


def test_explicit_values_are_kept() -> None:
    p = loaded_pod(pod({"schedulerName": "my-scheduler", "terminationGracePeriodSeconds": 0,
                        "nodeName": "n1", "priority": 0}, namespace="team-a"))
    assert (p.metadata.namespace, p.spec.scheduler_name, p.spec.termination_grace_period_seconds,
            p.spec.priority, p.status.phase) == ("team-a", "my-scheduler", 0, 0, "Pending")


def test_phase_from_manifest_is_kept() -> None:
    doc = pod({"nodeName": "n1"})
    doc["status"] = {"phase": "Running"}
    assert loaded_pod(doc).status.phase == "Running"


@pytest.mark.parametrize("name,classes,pod_class,want_class,want_priority,want_policy", [
    ("no classes at all", [], None, "", 0, "PreemptLowerPriority"),
    ("declared class", [{"name": "high", "value": 1000}], "high", "high", 1000, "PreemptLowerPriority"),
    ("class with Never", [{"name": "polite", "value": 50, "preemptionPolicy": "Never"}], "polite", "polite", 50,
     "Never"),
    ("global default applies", [{"name": "low", "value": 10, "globalDefault": True}], None, "low", 10,
     "PreemptLowerPriority"),
    ("global default not used when a class is named",
     [{"name": "low", "value": 10, "globalDefault": True}, {"name": "high", "value": 99}], "high", "high", 99,
     "PreemptLowerPriority"),
    ("built-in cluster critical", [], "system-cluster-critical", "system-cluster-critical", 2000000000,
     "PreemptLowerPriority"),
    ("built-in node critical", [], "system-node-critical", "system-node-critical", 2000001000,
     "PreemptLowerPriority"),
])
def test_priority_admission(name: str, classes: list[dict], pod_class: str | None, want_class: str,
                            want_priority: int, want_policy: str) -> None:
    docs = [{**PC, "metadata": {"name": c["name"]}, **{k: v for k, v in c.items() if k != "name"}}
            for c in classes]
    spec = {"priorityClassName": pod_class} if pod_class else {}
    p = loaded_pod(*docs, pod(spec))
    assert (p.spec.priority_class_name, p.spec.priority, p.spec.preemption_policy) == (
        want_class, want_priority, want_policy)


def test_priority_class_defaults() -> None:
    cluster = load(dump({**PC, "metadata": {"name": "a"}, "value": 3}))
    (pc,) = cluster.of_kind(PriorityClass)
    assert (pc.preemption_policy, pc.metadata.namespace) == ("PreemptLowerPriority", "")


@pytest.mark.parametrize("status,want", [
    ({"capacity": {"cpu": "4", "memory": "8Gi"}}, {"cpu": "4", "memory": "8Gi"}),
    ({"capacity": {"cpu": "4"}, "allocatable": {"cpu": "3900m"}}, {"cpu": "3900m"}),
    ({}, {}),
])
def test_node_allocatable_defaults_to_capacity(status: dict, want: dict) -> None:
    doc = node()
    doc["status"] = status
    (n,) = load(dump(doc)).of_kind(Node)
    assert {k: str(v) for k, v in n.status.allocatable.items()} == want


def test_cluster_scoped_objects_lose_namespace() -> None:
    (n,) = load(dump(node(namespace="default"))).of_kind(Node)
    assert n.metadata.namespace == ""


def test_uids_are_stable_uuids() -> None:
    p = loaded_pod(pod())
    assert p.metadata.uid == object_uid("Pod", "default", "p") == loaded_pod(pod()).metadata.uid
    assert str(uuid.UUID(p.metadata.uid)) == p.metadata.uid
    assert object_uid("Pod", "default", "q") != p.metadata.uid
    assert loaded_pod(pod(uid="given")).metadata.uid == "given"


def test_generate_name() -> None:
    doc = pod()
    doc["metadata"] = {"generateName": "job-"}
    pods = load(dump(doc, doc)).of_kind(Pod)
    names = [p.metadata.name for p in pods]
    assert [n[:4] for n in names] == ["job-", "job-"]
    assert [len(n) for n in names] == [9, 9]
    assert names[0] != names[1]
    assert names == [p.metadata.name for p in load(dump(doc, doc)).of_kind(Pod)]


def test_meta_default_keeps_other_fields() -> None:
    from kubesched.api.defaults import default_meta
    meta = default_meta(ObjectMeta(name="x", labels={"a": "b"}), "Pod")
    assert (meta.namespace, dict(meta.labels), meta.uid) == ("default", {"a": "b"}, object_uid("Pod", "default", "x"))
