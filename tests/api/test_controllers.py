"""Controller expansion at load time: names, owners, labels, counts.

Upstream: pkg/controller/replicaset (pods ``<rs>-<5>``), deployment/sync.go
(``<deploy>-<hash>`` ReplicaSet, pod-template-hash). StatefulSets, DaemonSets and Jobs
create no pods at load time (their controllers run on the loop: tests/cluster).
"""

from __future__ import annotations

import re

import pytest

from kubesched.api.apps import ReplicaSet
from kubesched.api.controllers import compute_hash, fnv32a, next_pod_for, replica_set_for
from kubesched.api.core import Pod
from kubesched.api.names import ALPHANUMS
from tests.api.helpers import dump, load
from tests.cluster.workload_fakes import exported_pod

SUFFIX = f"[{ALPHANUMS}]{{5}}"
TEMPLATE = {"metadata": {"labels": {"app": "web"}, "annotations": {"note": "x"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}


def workload(kind: str, replicas: int | None = 2, namespace: str | None = None) -> dict:
    api = "v1" if kind == "ReplicationController" else "apps/v1"
    spec: dict = {"template": TEMPLATE}
    if kind == "StatefulSet":
        spec["serviceName"] = "web"
    if replicas is not None:
        spec["replicas"] = replicas
    spec["selector"] = {"app": "web"} if kind == "ReplicationController" else {"matchLabels": {"app": "web"}}
    meta = {"name": "web"} if namespace is None else {"name": "web", "namespace": namespace}
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec}


@pytest.mark.parametrize("kind,replicas,count", [
    ("ReplicaSet", 3, 3), ("ReplicaSet", None, 1), ("ReplicaSet", 0, 0),
    ("ReplicationController", 2, 2), ("StatefulSet", 3, 0), ("Deployment", 2, 2),
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
    deploy = load(dump(workload("Deployment", 1))).objects[0]
    assert next_pod_for(deploy, 0).metadata.owner_references[0].name == replica_set_for(deploy).metadata.name


def test_existing_pods_count_towards_replicas() -> None:
    rs = workload("ReplicaSet", 2)
    owned = {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "web-old", "labels": {"app": "web"},
                          "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web",
                                               "uid": "u1", "controller": True}]},
             "spec": {"containers": [{"name": "c", "image": "i"}]}}
    names = [p.metadata.name for p in load(dump(rs, owned)).of_kind(Pod)]
    assert len(names) == 2 and "web-old" in names


def test_deployment_with_existing_replica_set_adds_none() -> None:
    deploy = workload("Deployment", 2)
    rs = workload("ReplicaSet", 0)
    rs["metadata"] = {"name": "web-abc", "ownerReferences": [
        {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "u2", "controller": True}]}
    cluster = load(dump(deploy, rs))
    assert [type(o).__name__ for o in cluster.objects] == ["Deployment", "ReplicaSet"]


def test_taken_names_are_skipped() -> None:
    rs = load(dump(workload("ReplicaSet", 1))).objects[0]
    first, second = next_pod_for(rs, 0).metadata.name, next_pod_for(rs, 1).metadata.name
    clash = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": first},
             "spec": {"containers": [{"name": "c", "image": "i"}]}}
    cluster = load(dump(clash, workload("ReplicaSet", 1)))
    assert [p.metadata.name for p in cluster.of_kind(Pod)] == [first, second]


def test_deployment_whose_replica_set_is_missing_gets_it_back_from_its_pods() -> None:
    labels = {"app": "web", "pod-template-hash": "5d4f8b9c7d"}
    pods = [exported_pod(f"web-5d4f8b9c7d-{s}", "ReplicaSet", "web-5d4f8b9c7d", "rs-uid-1", labels)
            for s in ("abcde", "fghij")]
    cluster = load(dump(workload("Deployment", 3), *pods))
    kinds = [(type(o).__name__, o.metadata.name) for o in cluster.objects]
    rs = cluster.objects[1]
    assert kinds[:2] == [("Deployment", "web"), ("ReplicaSet", "web-5d4f8b9c7d")]
    assert (rs.metadata.uid, dict(rs.spec.selector.match_labels), rs.spec.replicas) == (
        "rs-uid-1", {"app": "web", "pod-template-hash": "5d4f8b9c7d"}, 3)
    new = [o for o in cluster.of_kind(Pod) if o.metadata.name not in
           ("web-5d4f8b9c7d-abcde", "web-5d4f8b9c7d-fghij")]
    assert len(cluster.of_kind(Pod)) == 3 and len(new) == 1
    assert re.fullmatch(f"web-5d4f8b9c7d-{SUFFIX}", new[0].metadata.name)
    assert (new[0].metadata.controller_ref().uid, new[0].metadata.labels["pod-template-hash"]) == (
        "rs-uid-1", "5d4f8b9c7d")


@pytest.mark.parametrize("owner_kind", ["StatefulSet", "DaemonSet", "ReplicaSet"])
def test_pods_of_other_owners_do_not_stop_a_deployment(owner_kind: str) -> None:
    pod = exported_pod("other-0", owner_kind, "other", "u-1", {"app": "web"})
    cluster = load(dump(workload("Deployment", 1), pod))
    assert [type(o).__name__ for o in cluster.objects] == ["Deployment", "ReplicaSet", "Pod", "Pod"]
    assert cluster.objects[1].metadata.name == f"web-{compute_hash(cluster.objects[0].spec.template)}"


@pytest.mark.parametrize("data,want", [(b"", 0x811C9DC5), (b"a", 0xE40C292C), (b"foobar", 0xBF9CF968)])
def test_fnv32a(data: bytes, want: int) -> None:
    assert fnv32a(data) == want
