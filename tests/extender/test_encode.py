"""to_manifest: the inverse of the decoder, in Kubernetes JSON form."""

from __future__ import annotations

import json

import pytest

from kubesched.api.decode import decode_strict
from kubesched.api.encode import encode_time, to_manifest

POD_FULL = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "web", "namespace": "prod", "uid": "u-1", "labels": {"app": "web"},
                 "annotations": {"a": "b"}, "creationTimestamp": "2020-06-17T10:00:00Z",
                 "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs",
                                      "uid": "rs-1", "controller": True}]},
    "spec": {
        "containers": [{"name": "c", "image": "nginx",
                        "resources": {"requests": {"cpu": "1500m", "memory": "1Gi"},
                                      "limits": {"example.com/gpu": "2"}},
                        "ports": [{"containerPort": 80, "hostPort": 8080, "protocol": "UDP"}]}],
        "initContainers": [{"name": "init", "resources": {"requests": {"cpu": "2"}}}],
        "nodeSelector": {"disk": "ssd"}, "priority": 100, "priorityClassName": "high",
        "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30,
        "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
                        {"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}],
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [
                {"key": "zone", "operator": "In", "values": ["a", "b"]}]}]}},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}},
                                                   "topologyKey": "kubernetes.io/hostname"}}]}},
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                                       "whenUnsatisfiable": "DoNotSchedule",
                                       "labelSelector": {"matchLabels": {"app": "web"}}}],
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "pvc"}},
                    {"name": "cfg", "configMap": {"name": "x", "items": [{"key": "k", "path": "p"}]}}],
        "overhead": {"cpu": "250m"},
    },
    "status": {"phase": "Running", "startTime": 12.5, "nominatedNodeName": "n1",
               "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]},
}
POD_MIN = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"containers": [{"name": "c"}]}}
NODE_FULL = {
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "n1", "labels": {"topology.kubernetes.io/zone": "a"}},
    "spec": {"unschedulable": True, "podCIDR": "10.0.0.0/24",
             "taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule",
                         "timeAdded": "1970-01-01T00:00:01.25Z"}]},
    "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
               "allocatable": {"cpu": "7800m", "memory": "31Gi", "ephemeral-storage": "100G"},
               "conditions": [{"type": "Ready", "status": "True"}],
               "images": [{"names": ["nginx:1.19"], "sizeBytes": 133000000}]},
}
NODE_MIN = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}

ROUND_TRIP = [("pod-full", POD_FULL), ("pod-min", POD_MIN), ("node-full", NODE_FULL),
              ("node-min", NODE_MIN)]


@pytest.mark.parametrize("manifest", [m for _, m in ROUND_TRIP], ids=[n for n, _ in ROUND_TRIP])
def test_round_trip(manifest):
    obj = decode_strict(manifest)
    encoded = to_manifest(obj)
    json.dumps(encoded)  # plain JSON
    assert decode_strict(encoded) == obj
    assert decode_strict(json.loads(json.dumps(encoded))) == obj


def test_minimal_pod_shape():
    # required fields stay; structs are written even when empty (Go never omits a struct);
    # empty scalars, lists and maps are dropped (omitempty).
    assert to_manifest(decode_strict(POD_MIN)) == {
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "resources": {}}]}, "status": {}}


def test_type_meta_can_be_left_out():
    assert to_manifest(decode_strict(NODE_MIN), type_meta=False) == {
        "metadata": {"name": "n"}, "spec": {}, "status": {}}


@pytest.mark.parametrize("path,expected", [
    (("spec", "containers", 0, "resources", "requests", "cpu"), "1500m"),
    (("spec", "containers", 0, "resources", "requests", "memory"), "1Gi"),
    (("spec", "containers", 0, "ports", 0, "protocol"), "UDP"),
    (("metadata", "creationTimestamp"), "2020-06-17T10:00:00Z"),
    (("status", "startTime"), "1970-01-01T00:00:12.5Z"),
    (("spec", "tolerations", 1, "tolerationSeconds"), 60),
    (("spec", "volumes", 1, "configMap"), {"name": "x", "items": [{"key": "k", "path": "p"}]}),
])
def test_field_forms(path, expected):
    value = to_manifest(decode_strict(POD_FULL))
    for step in path:
        value = value[step]
    assert value == expected


def test_default_protocol_dropped():
    pod = decode_strict({**POD_MIN, "spec": {"containers": [
        {"name": "c", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}})
    assert to_manifest(pod)["spec"]["containers"][0]["ports"] == [{"containerPort": 80}]


@pytest.mark.parametrize("seconds,expected", [
    (0.0, "1970-01-01T00:00:00Z"),
    (61.0, "1970-01-01T00:01:01Z"),
    (1.5, "1970-01-01T00:00:01.5Z"),
    (1592388000.0, "2020-06-17T10:00:00Z"),
    (0.1234567, 0.1234567),  # finer than a microsecond: a number, so the round trip is exact
])
def test_encode_time(seconds, expected):
    assert encode_time(seconds) == expected
