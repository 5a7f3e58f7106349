"""Controller expansion: names, owners, labels, counts.

Upstream: pkg/controller/replicaset (pods ``<rs>-<5>``), deployment/sync.go
(``<deploy>-<hash>`` ReplicaSet, pod-template-hash), statefulset (``<set>-<i>``).
"""

from __future__ import annotations

import re

import pytest

from kubesched.api.apps import ReplicaSet
from kubesched.api.controllers import compute_hash, fnv32a, next_pod_for, replica_set_for
from kubesched.api.core import Pod
from kubesched.api.names import ALPHANUMS
from tests.api.helpers import dump, load

SUFFIX = f"[{ALPHANUMS}]{{5}}"
TEMPLATE = {"metadata": {"labels": {"app": "web"}, "annotations": {"note": "x"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}


def workload(kind: str, replicas: int | None = 2, namespace: str | None = None) -> dict:
    api = "v1" if kind == "ReplicationController" else "apps/v1"
    spec: dict = {"template": TEMPLATE}
    if replicas is not None:
        spec["replicas"] = replicas
    spec["selector"] = {"app": "web"} if kind == "ReplicationController" else {"matchLabels": {"app": "web"}}
    meta = {"name": "web"} if namespace is None else {"name": "web", "namespace": namespace}
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec}


@pytest.mark.parametrize("kind,replicas,count", [
    ("ReplicaSet", 3, 3), ("ReplicaSet", None, 1), ("ReplicaSet", 0, 0),
    ("ReplicationController", 2, 2), ("StatefulSet", 3, 3), ("Deployment", 2, 2),
])
def test_counts(kind: str, replicas: int | None, count: int) -> None:
    cluster = load(dump(workload(kind, replicas)))
    assert len(cluster.of_kind(Pod)) == count


@pytest.mark.parametrize("kind,pattern", [
    ("ReplicaSet", f"web-{SUFFIX}"),
    ("ReplicationController", f"web-{SUFFIX}"),
])
def test_replica_set_names_and_owner(kind: str, pattern: str) -> None:
    cluster = load(dump(workload(kind, 3, namespace="shop")))
    owner = cluster.objects[0]
    pods = cluster.of_kind(Pod)
    assert all(re.fullmatch(pattern, p.metadata.name) for p in pods)
    assert len({p.metadata.name for p in pods}) == 3
    for p in pods:
        ref = p.metadata.controller_ref()
        assert (ref.kind, ref.name, ref.uid, ref.controller, ref.api_version) == (
            kind, "web", owner.metadata.uid, True, owner.API_VERSION)
        assert (p.metadata.namespace, dict(p.metadata.labels), dict(p.metadata.annotations)) == (
            "shop", {"app": "web"}, {"note": "x"})
        assert (p.spec.scheduler_name, p.status.phase) == ("default-scheduler", "Pending")


def test_statefulset_names_and_labels() -> None:
    cluster = load(dump(workload("StatefulSet", 3)))
    pods = cluster.of_kind(Pod)
    revision = "web-" + compute_hash(cluster.objects[0].spec.template)
    assert [p.metadata.name for p in pods] == ["web-0", "web-1", "web-2"]
    assert [dict(p.metadata.labels) for p in pods] == [
        {"app": "web", "controller-revision-hash": revision, "statefulset.kubernetes.io/pod-name": f"web-{i}"}
        for i in range(3)]


def test_deployment_creates_replica_set_then_pods() -> None:
    cluster = load(dump(workload("Deployment", 2)))
    deploy, rs, *pods = cluster.objects
    pod_hash = compute_hash(deploy.spec.template)
    assert isinstance(rs, ReplicaSet)
    assert re.fullmatch(f"[{ALPHANUMS[21:]}{ALPHANUMS[:4]}]{{1,10}}", pod_hash)
    assert rs.metadata.name == f"web-{pod_hash}"
    assert (rs.metadata.controller_ref().kind, rs.metadata.controller_ref().name) == ("Deployment", "web")
    assert dict(rs.spec.selector.match_labels) == {"app": "web", "pod-template-hash": pod_hash}
    assert rs.spec.replicas == 2
    for p in pods:
        assert re.fullmatch(f"web-{pod_hash}-{SUFFIX}", p.metadata.name)
        assert dict(p.metadata.labels) == {"app": "web", "pod-template-hash": pod_hash}
        assert p.metadata.controller_ref().name == rs.metadata.name
    assert [o.document for o in cluster.origins] == [0, 0, 0, 0]


def test_names_are_deterministic() -> None:
    names = [p.metadata.name for p in load(dump(workload("Deployment", 3))).of_kind(Pod)]
    assert names == [p.metadata.name for p in load(dump(workload("Deployment", 3))).of_kind(Pod)]


def test_next_pod_for_gives_fresh_names() -> None:
    rs = load(dump(workload("ReplicaSet", 2))).objects[0]
    first = [next_pod_for(rs, i).metadata.name for i in range(5)]
    assert len(set(first)) == 5
    assert first == [next_pod_for(rs, i).metadata.name for i in range(5)]
    sts = load(dump(workload("StatefulSet", 1))).objects[0]
    assert next_pod_for(sts, 7).metadata.name == "web-7"
    deploy = load(dump(workload("Deployment", 1))).objects[0]
    assert next_pod_for(deploy, 0).metadata.owner_references[0].name == replica_set_for(deploy).metadata.name


def test_existing_pods_count_towards_replicas() -> None:
    rs = workload("ReplicaSet", 2)
    owned = {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "web-old", "labels": {"app": "web"},
                          "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web",
                                               "controller": True}]},
             "spec": {"containers": [{"name": "c"}]}}
    names = [p.metadata.name for p in load(dump(rs, owned)).of_kind(Pod)]
    assert len(names) == 2 and "web-old" in names


def test_deployment_with_existing_replica_set_adds_none() -> None:
    deploy = workload("Deployment", 2)
    rs = workload("ReplicaSet", 0)
    rs["metadata"] = {"name": "web-abc", "ownerReferences": [
        {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "controller": True}]}
    cluster = load(dump(deploy, rs))
    assert [type(o).__name__ for o in cluster.objects] == ["Deployment", "ReplicaSet"]


def test_taken_names_are_skipped() -> None:
    sts = workload("StatefulSet", 1)
    clash = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-0"}, "spec": {"containers": [{"name": "c"}]}}
    cluster = load(dump(clash, sts))
    assert [p.metadata.name for p in cluster.of_kind(Pod)] == ["web-0", "web-1"]


@pytest.mark.parametrize("data,want", [(b"", 0x811C9DC5), (b"a", 0xE40C292C), (b"foobar", 0xBF9CF968)])
def test_fnv32a(data: bytes, want: int) -> None:
    assert fnv32a(data) == want
