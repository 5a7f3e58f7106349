"""The StatefulSet controller: ordinal pods in order (OrderedReady / Parallel), claims from templates.

Upstream: pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet),
stateful_pod_control.go (CreateStatefulPod, createPersistentVolumeClaims, record*Event) and
stateful_set_utils.go (getPersistentVolumeClaims, updateStorage, initIdentity).
With the kubelet model a bound pod is Running and Ready 1 s later, so OrderedReady
creates ordinal N+1 one second after ordinal N.
"""

from __future__ import annotations

import dataclasses

import pytest

from kubesched.api.controllers import compute_hash
from kubesched.api.core import PersistentVolumeClaimVolumeSource, Volume
from tests.cluster.workload_fakes import Cluster, exported_pod, node


def stateful_set(replicas: int = 3, policy: str = "", claims: bool = False, volumes: list | None = None) -> dict:
    spec: dict = {"replicas": replicas, "serviceName": "nginx", "selector": {"matchLabels": {"app": "nginx"}},
                  "template": {"metadata": {"labels": {"app": "nginx"}},
                               "spec": {"terminationGracePeriodSeconds": 10,
                                        "containers": [{"name": "nginx", "image": "nginx-slim:0.8"}],
                                        "volumes": volumes or []}}}
    if policy:
        spec["podManagementPolicy"] = policy
    if claims:
        spec["volumeClaimTemplates"] = [{"metadata": {"name": "www", "labels": {"tier": "data"}},
                                         "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast",
                                                  "resources": {"requests": {"storage": "1Gi"}}}}]
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web"}, "spec": spec}


@pytest.mark.parametrize("policy,created", [
    ("", [("web-0", 0.0), ("web-1", 1.0), ("web-2", 2.0)]),
    ("OrderedReady", [("web-0", 0.0), ("web-1", 1.0), ("web-2", 2.0)]),
    ("Parallel", [("web-0", 0.0), ("web-1", 0.0), ("web-2", 0.0)]),
])
def test_pods_are_created_in_order(policy: str, created: list) -> None:
    cluster = Cluster(node("n1"), stateful_set(3, policy)).run(10.0)
    pods = cluster.pods()
    assert [(p.metadata.name, p.metadata.creation_timestamp) for p in pods] == created
    assert all(p.status.phase == "Running" for p in pods)
    sts = cluster.api.get("StatefulSet", "default", "web")
    revision = f"web-{compute_hash(sts.spec.template)}"
    assert (sts.status.replicas, sts.status.ready_replicas, sts.status.current_revision,
            sts.status.update_revision, sts.status.current_replicas) == (3, 3, revision, revision, 3)
    assert sts.spec.pod_management_policy == (policy or "OrderedReady")


def test_ordered_ready_waits_for_running_and_ready() -> None:
    cluster = Cluster(node("n1"), stateful_set(3), bind=False).run(30.0)
    assert [p.metadata.name for p in cluster.pods()] == ["web-0"]  # web-0 is never bound, so never Running


def test_pod_identity_labels_and_claims() -> None:
    extra = [{"name": "www", "emptyDir": {}}, {"name": "config", "configMap": {"name": "cfg"}}]
    cluster = Cluster(node("n1"), stateful_set(2, claims=True, volumes=extra)).run(5.0)
    sts = cluster.api.get("StatefulSet", "default", "web")
    web0, web1 = cluster.pods()
    assert dict(web0.metadata.labels) == {"app": "nginx", "statefulset.kubernetes.io/pod-name": "web-0",
                                          "controller-revision-hash": f"web-{compute_hash(sts.spec.template)}"}
    assert (web0.metadata.generate_name, web0.spec.hostname, web0.spec.subdomain) == ("web-", "web-0", "nginx")
    assert web1.spec.volumes[:1] == (Volume(name="www", persistent_volume_claim=PersistentVolumeClaimVolumeSource(
        claim_name="www-web-1")),)
    assert [v.name for v in web1.spec.volumes] == ["www", "config"]  # the template's "www" is replaced
    claims = cluster.api.list("PersistentVolumeClaim")
    assert [(c.metadata.name, dict(c.metadata.labels), c.spec.storage_class_name, c.metadata.owner_references)
            for c in claims] == [("www-web-0", {"tier": "data", "app": "nginx"}, "fast", ()),
                                 ("www-web-1", {"tier": "data", "app": "nginx"}, "fast", ())]
    assert [e[0:1] + e[3:] for e in cluster.events("StatefulSet")] == [
        (0.0, "Normal", "SuccessfulCreate", "create Claim www-web-0 Pod web-0 in StatefulSet web success",
         "statefulset-controller"),
        (0.0, "Normal", "SuccessfulCreate", "create Pod web-0 in StatefulSet web successful",
         "statefulset-controller"),
        (1.0, "Normal", "SuccessfulCreate", "create Claim www-web-1 Pod web-1 in StatefulSet web success",
         "statefulset-controller"),
        (1.0, "Normal", "SuccessfulCreate", "create Pod web-1 in StatefulSet web successful",
         "statefulset-controller"),
    ]


def test_a_deleted_pod_comes_back_with_its_name_once_gone() -> None:
    cluster = Cluster(node("n1"), stateful_set(2)).run(5.0)
    old = cluster.api.get("Pod", "default", "web-0")
    cluster.loop.call_at(6.0, lambda: cluster.api.delete("Pod", "default", "web-0"), label="test delete")
    cluster.run(15.9)
    assert cluster.api.get("Pod", "default", "web-0").metadata.uid == old.metadata.uid  # terminating: 10 s grace
    cluster.run(16.0)
    new = cluster.api.get("Pod", "default", "web-0")
    assert (new.metadata.uid != old.metadata.uid, new.metadata.creation_timestamp, new.spec.node_name) == (
        True, 16.0, "n1")


def test_scale_down_removes_the_highest_ordinal_first() -> None:
    cluster = Cluster(node("n1"), stateful_set(3)).run(5.0)

    def scale() -> None:
        sts = cluster.api.get("StatefulSet", "default", "web")
        cluster.api.update(dataclasses.replace(sts, spec=dataclasses.replace(sts.spec, replicas=1)))
    cluster.loop.call_at(10.0, scale, label="test scale")
    cluster.run(10.0)
    deleting = {p.metadata.name: p.metadata.deletion_timestamp for p in cluster.pods()}
    assert deleting == {"web-0": None, "web-1": None, "web-2": 20.0}
    cluster.run(20.0)
    assert {p.metadata.name: p.metadata.deletion_timestamp for p in cluster.pods()} == {"web-0": None,
                                                                                        "web-1": 30.0}
    cluster.run(30.0)
    assert [p.metadata.name for p in cluster.pods()] == ["web-0"]
    assert [e[4:6] for e in cluster.events("StatefulSet")][-2:] == [
        ("SuccessfulDelete", "delete Pod web-2 in StatefulSet web successful"),
        ("SuccessfulDelete", "delete Pod web-1 in StatefulSet web successful")]


def test_pods_already_in_the_dump_are_kept() -> None:
    sts = stateful_set(2)
    sts["metadata"]["uid"] = "sts-uid"
    web0 = exported_pod("web-0", "StatefulSet", "web", "sts-uid", {"app": "nginx"}, ready=True)
    cluster = Cluster(node("n1"), sts, web0).run(5.0)
    assert [p.metadata.name for p in cluster.pods()] == ["web-0", "web-1"]
    assert [e[5] for e in cluster.events("StatefulSet")] == ["create Pod web-1 in StatefulSet web successful"]
