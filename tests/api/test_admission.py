"""API-server defaulting and admission of v1.18 that the scheduler reads, and the API-server
validation of fields a v1.18.5 server refuses.

Upstream: pkg/apis/core/v1/defaults.go (SetDefaults_Pod: requests from limits;
SetDefaults_PodSpec: defaultHostNetworkPorts; SetDefaults_PersistentVolume(Claim)),
pkg/apis/storage/v1/defaults.go, plugin/pkg/admission/defaulttolerationseconds,
plugin/pkg/admission/priority (Admit), pkg/apis/core/validation/validation.go
(validateContainers, validateRestartPolicy, validateHostNetwork, validateVolumeSource,
validateHandler, ValidateVolumeMounts, ValidateEnv, validatePullPolicy, validateDNSPolicy),
pkg/apis/apps/validation and pkg/apis/batch/validation (template restartPolicy).
"""

from __future__ import annotations

import pathlib

import pytest

from kubesched.api.core import PersistentVolume, PersistentVolumeClaim, Pod
from kubesched.api.storage import StorageClass
from kubesched.sim.simulation import Simulation
from tests.api.helpers import dump, load, messages, node, pod

NOT_READY = ("node.kubernetes.io/not-ready", "Exists", "NoExecute", 300)
UNREACHABLE = ("node.kubernetes.io/unreachable", "Exists", "NoExecute", 300)


def loaded_pod(*docs: dict) -> Pod:
    return load(dump(*docs)).of_kind(Pod)[0]


def _requests(p: Pod, field: str = "containers") -> dict[str, str]:
    return {k: str(v) for k, v in getattr(p.spec, field)[0].resources.requests.items()}


@pytest.mark.parametrize("resources,want", [
    ({"limits": {"cpu": "600m"}}, {"cpu": "600m"}),
    ({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "250m"}}, {"cpu": "250m", "memory": "1Gi"}),
    ({"requests": {"cpu": "100m"}}, {"cpu": "100m"}),
    ({}, {}),
])
def test_requests_default_to_limits(resources: dict, want: dict) -> None:
    c = {"name": "c", "image": "i", "resources": resources}
    p = loaded_pod(pod({"containers": [c], "initContainers": [dict(c, name="init")]}))
    assert (_requests(p), _requests(p, "init_containers")) == (want, want)


def test_templates_keep_limits_only_and_their_pods_get_requests() -> None:
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"},
          "spec": {"replicas": 1, "selector": {"matchLabels": {"a": "b"}}, "template": {
              "metadata": {"labels": {"a": "b"}},
              "spec": {"containers": [{"name": "c", "image": "i", "resources": {"limits": {"cpu": "1"}}}]}}}}
    cluster = load(dump(rs))
    template = cluster.objects[0].spec.template.spec.containers[0].resources
    assert (dict(template.requests), _requests(cluster.of_kind(Pod)[0])) == ({}, {"cpu": "1"})


def test_two_limits_only_pods_do_not_both_fit_one_cpu() -> None:
    """The 1.18 derivation: each pod requests its 600m limit, 1200m > 1000m allocatable."""
    cpu = {"name": "c", "image": "i", "resources": {"limits": {"cpu": "600m"}}}
    n = node("n1")
    n["status"] = {"capacity": {"cpu": "1", "memory": "4Gi", "pods": "110"}}
    sim = Simulation.from_yaml(dump(n, pod({"containers": [cpu]}, name="a"), pod({"containers": [cpu]}, name="b")))
    sim.run_until_idle()
    placed = sorted((p.name, p.node or "-") for p in sim.state().pods)
    assert placed == [("a", "n1"), ("b", "-")]


@pytest.mark.parametrize("host_network,ports,want", [
    (True, [{"containerPort": 8080}], [8080]),
    (True, [{"containerPort": 53, "hostPort": 53}], [53]),
    (False, [{"containerPort": 8080}], [0]),
])
def test_host_network_ports(host_network: bool, ports: list, want: list) -> None:
    p = loaded_pod(pod({"hostNetwork": host_network, "containers": [{"name": "c", "image": "i", "ports": ports}]}))
    assert [port.host_port for port in p.spec.containers[0].ports] == want


@pytest.mark.parametrize("tolerations,want", [
    ([], [NOT_READY, UNREACHABLE]),
    ([{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
       "tolerationSeconds": 10}], [("node.kubernetes.io/not-ready", "Exists", "NoExecute", 10), UNREACHABLE]),
    ([{"operator": "Exists"}], [("", "Exists", "", None)]),
    ([{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoSchedule"}],
     [("node.kubernetes.io/unreachable", "Exists", "NoSchedule", None), NOT_READY, UNREACHABLE]),
])
def test_default_toleration_seconds(tolerations: list, want: list) -> None:
    p = loaded_pod(pod({"tolerations": tolerations}))
    assert [(t.key, t.operator, t.effect, t.toleration_seconds) for t in p.spec.tolerations] == want


def test_storage_defaults() -> None:
    pv = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv"},
          "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/d"}}}
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c"},
           "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
    sc = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "s"},
          "provisioner": "kubernetes.io/no-provisioner"}
    cluster = load(dump(pv, pvc, sc))
    v, c, s = cluster.of_kind(PersistentVolume)[0], cluster.of_kind(PersistentVolumeClaim)[0], \
        cluster.of_kind(StorageClass)[0]
    assert (v.status.phase, v.spec.persistent_volume_reclaim_policy, v.spec.volume_mode) == (
        "Pending", "Retain", "Filesystem")
    assert (c.status.phase, c.spec.volume_mode) == ("Pending", "Filesystem")
    assert (s.reclaim_policy, s.volume_binding_mode) == ("Delete", "Immediate")


def test_a_defaulted_pending_volume_is_made_available_and_bound_by_the_pv_controller() -> None:
    """The docs' PV task: the PV (Pending after defaulting) turns Available, the claim binds, the pod runs."""
    task = (pathlib.Path(__file__).with_name("corpus") / "pv-pvc-pod-task.yaml").read_text()
    n = node("n1")
    n["status"] = {"capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"}}
    sim = Simulation.from_yaml(task + dump(n))
    sim.run_until_idle()
    assert [(p.name, p.node) for p in sim.state().pods] == [("task-pv-pod", "n1")]


PC = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000}
PV = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv"}}
PVC = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c"}}
RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"}}
TEMPLATE = {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}


def _workload(kind: str, api: str, spec: dict) -> dict:
    return {"apiVersion": api, "kind": kind, "metadata": {"name": "w"}, "spec": spec}


def _template(**spec: object) -> dict:
    return {**TEMPLATE, "spec": {**TEMPLATE["spec"], **spec}}


@pytest.mark.parametrize("name,docs,want", [
    ("container without image", [pod({"containers": [{"name": "c"}]})],
     ["Pod default/p: spec.containers[0].image: Required value"]),
    ("restartPolicy Sometimes", [pod({"restartPolicy": "Sometimes"})],
     ['Pod default/p: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", '
      '"OnFailure", "Never"']),
    ("hostNetwork port mismatch", [pod({"hostNetwork": True, "containers": [
        {"name": "c", "image": "i", "ports": [{"containerPort": 80, "hostPort": 8080}]}]})],
     ["Pod default/p: spec.containers[0].ports[0].containerPort: Invalid value: 80: must match `hostPort` "
      "when `hostNetwork` is true"]),
    ("two volume types", [pod({"volumes": [{"name": "v", "emptyDir": {}, "hostPath": {"path": "/x"}}]})],
     ["Pod default/p: spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type"]),
    ("no volume type", [pod({"volumes": [{"name": "v"}]})],
     ["Pod default/p: spec.volumes[0]: Required value: must specify a volume type"]),
    ("mount of a missing volume", [pod({"containers": [
        {"name": "c", "image": "i", "volumeMounts": [{"name": "data", "mountPath": "/d"}]}]})],
     ['Pod default/p: spec.containers[0].volumeMounts[0].name: Not found: "data"']),
    ("probe without handler", [pod({"containers": [{"name": "c", "image": "i", "livenessProbe": {
        "periodSeconds": 5}}]})],
     ["Pod default/p: spec.containers[0].livenessProbe: Required value: must specify a handler type"]),
    ("pull policy", [pod({"containers": [{"name": "c", "image": "i", "imagePullPolicy": "Sometimes"}]})],
     ['Pod default/p: spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: '
      '"Always", "IfNotPresent", "Never"']),
    ("dns policy", [pod({"dnsPolicy": "Google"})],
     ['Pod default/p: spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", '
      '"ClusterFirst", "Default", "None"']),
    ("env without name", [pod({"containers": [{"name": "c", "image": "i", "env": [{"value": "x"}]}]})],
     ["Pod default/p: spec.containers[0].env[0].name: Required value"]),
    ("env name starting with a digit", [pod({"containers": [{"name": "c", "image": "i", "env": [
        {"name": "1ST", "value": "x"}, {"name": "my.env-NAME_2", "value": "ok"}]}]})],
     ['Pod default/p: spec.containers[0].env[0].name: Invalid value: "1ST": a valid environment variable name '
      "must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. "
      "'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is "
      "'[-._a-zA-Z][-._a-zA-Z0-9]*')"]),
    ("env valueFrom: none, with a value, two sources", [pod({"containers": [{"name": "c", "image": "i", "env": [
        {"name": "A", "valueFrom": {}},
        {"name": "B", "value": "x", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
        {"name": "C", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"},
                                    "configMapKeyRef": {"name": "m", "key": "k"}}},
        {"name": "D", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]}]})],
     ['Pod default/p: spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, '
      "`resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
      'Pod default/p: spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` '
      "is not empty",
      'Pod default/p: spec.containers[0].env[2].valueFrom: Invalid value: "": may not have more than one field '
      "specified at a time"]),
    ("env name '..' and '..x'", [pod({"containers": [{"name": "c", "image": "i", "env": [
        {"name": ".."}, {"name": "..x"}]}]})],
     ["Pod default/p: spec.containers[0].env[0].name: Invalid value: \"..\": must not be '..'",
      "Pod default/p: spec.containers[0].env[1].name: Invalid value: \"..x\": must not start with '..'"]),
    ("env name with a trailing newline", [pod({"containers": [{"name": "c", "image": "i", "env": [
        {"name": "A\n"}]}]})],
     ['Pod default/p: spec.containers[0].env[0].name: Invalid value: "A\\n": a valid environment variable name '
      "must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. "
      "'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is "
      "'[-._a-zA-Z][-._a-zA-Z0-9]*')"]),
    ("a name with a trailing newline", [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p\n"},
                                         "spec": {"containers": [{"name": "c", "image": "i"}]}}],
     ['Pod default/p\n: metadata.name: Invalid value: "p\\n": a DNS-1123 subdomain must consist of lower case '
      "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]),
    ("replicaset template must restart Always", [_workload("ReplicaSet", "apps/v1", {
        "selector": {"matchLabels": {"a": "b"}}, "template": _template(restartPolicy="OnFailure")})],
     ['ReplicaSet default/w: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported '
      'values: "Always"']),
    ("job template must not restart Always", [_workload("Job", "batch/v1", {"template": TEMPLATE})],
     ['Job default/w: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: '
      '"OnFailure", "Never"']),
    ("daemonset template checked", [_workload("DaemonSet", "apps/v1", {
        "selector": {"matchLabels": {"a": "b"}}, "template": {**TEMPLATE, "spec": {"containers": [{"name": "c"}]}}})],
     ["DaemonSet default/w: spec.template.spec.containers[0].image: Required value"]),
    ("cronjob template checked", [_workload("CronJob", "batch/v1beta1", {"schedule": "* * * * *", "jobTemplate": {
        "spec": {"template": _template(restartPolicy="Never", tolerations=[{"operator": "Equal"}])}}})],
     ['CronJob default/w: spec.jobTemplate.spec.template.spec.tolerations[0].operator: Invalid value: "Equal": '
      'operator must be Exists when `key` is empty, which means "match all values and all keys"']),
    ("priority differs from its class", [PC, pod({"priorityClassName": "high", "priority": 5})],
     ["Pod default/p: spec.priority: Forbidden: the integer value of priority (5) must not be provided in pod "
      "spec; priority admission controller computed 1000 from the given PriorityClass name"]),
    ("priority equal to its class", [PC, pod({"priorityClassName": "high", "priority": 1000})], []),
    ("three volume types, named in upstream's order and words", [pod({"volumes": [
        {"name": "v", "downwardAPI": {}, "cephfs": {"monitors": ["m"]}, "secret": {}}]})],
     ["Pod default/p: spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type",
      "Pod default/p: spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type"]),
    ("pv without modes, capacity or type", [{**PV, "spec": {}}],
     ["PersistentVolume pv: spec.accessModes: Required value", "PersistentVolume pv: spec.capacity: Required value",
      'PersistentVolume pv: spec.capacity: Unsupported value: map[string]string{}: supported values: "storage"',
      "PersistentVolume pv: spec: Required value: must specify a volume type"]),
    ("pv with a cpu capacity and two types", [{**PV, "spec": {
        "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "0", "cpu": "1"},
        "nfs": {"server": "s", "path": "/"}, "hostPath": {"path": "/d"}}}],
     ['PersistentVolume pv: spec.capacity: Unsupported value: map[string]string{"storage":"0", "cpu":"1"}: supported '
      'values: "storage"', 'PersistentVolume pv: spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      "PersistentVolume pv: spec.nfs: Forbidden: may not specify more than 1 volume type"]),
    ("local pv without node affinity", [{**PV, "spec": {
        "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}, "local": {"path": "/mnt/disks/a"},
        "persistentVolumeReclaimPolicy": "Recycled"}}],
     ["PersistentVolume pv: spec.nodeAffinity: Required value: Local volume requires node affinity",
      'PersistentVolume pv: spec.persistentVolumeReclaimPolicy: Unsupported value: "Recycled": supported values: '
      '"Delete", "Recycle", "Retain"']),
    ("service without ports, with a bad type", [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
                                                  "spec": {"selector": {"app": "x"}, "type": "Internal"}}],
     ["Service default/s: spec.ports: Required value",
      'Service default/s: spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", '
      '"LoadBalancer", "NodePort"']),
    ("headless and ExternalName services need no ports", [
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "h"}, "spec": {"clusterIP": "None"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "e"},
         "spec": {"type": "ExternalName", "externalName": "db.example.com"}}], []),
    ("service ports: unnamed among two, duplicate name, port 0, protocol", [
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [
            {"port": 80}, {"name": "web", "port": 0}, {"name": "web", "port": 443, "protocol": "HTTP"}]}}],
     ["Service default/s: spec.ports[0].name: Required value",
      "Service default/s: spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      'Service default/s: spec.ports[2].name: Duplicate value: "web"',
      'Service default/s: spec.ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", '
      '"UDP"']),
    ("storage class: empty provisioner, bad policy and binding mode", [
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc"}, "provisioner": "",
         "reclaimPolicy": "Recycle", "volumeBindingMode": "Later"}],
     ["StorageClass sc: provisioner: Required value",
      'StorageClass sc: reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'StorageClass sc: volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", '
      '"WaitForFirstConsumer"']),
    ("storage class provisioner must be a qualified name", [
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc"},
         "provisioner": "kubernetes.io/no-provisioner"},
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc2"},
         "provisioner": "my provisioner"}],
     ['StorageClass sc2: provisioner: Invalid value: "my provisioner": name part must consist of alphanumeric '
      "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
      "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]),
    ("system- priority classes: unknown, a wrong value, a global default", [
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "system-high"},
         "value": 10},
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "system-node-critical"},
         "value": 2000000000},
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
         "metadata": {"name": "system-cluster-critical"}, "value": 2000000000, "globalDefault": True},
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "too-high"},
         "value": 1000000001}],
     ["PriorityClass system-high: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved "
      "for system use only. error: system-high is not a known system priority class",
      "PriorityClass system-node-critical: metadata.name: Forbidden: priority class names with 'system-' prefix are "
      "reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
      "PriorityClass system-cluster-critical: metadata.name: Forbidden: priority class names with 'system-' prefix "
      "are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
      "PriorityClass too-high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]),
    ("cronjob schedule, descriptor, concurrencyPolicy, deadline", [
        _workload("CronJob", "batch/v1beta1", {"schedule": "* * *", "concurrencyPolicy": "Sometimes",
                                               "startingDeadlineSeconds": -5, "jobTemplate": {
                                                   "spec": {"template": _template(restartPolicy="Never")}}}),
        {**_workload("CronJob", "batch/v1beta1", {"schedule": "@fortnightly", "jobTemplate": {
            "spec": {"template": _template(restartPolicy="Never")}}}), "metadata": {"name": "w2"}}],
     ['CronJob default/w: spec.schedule: Invalid value: "* * *": Expected exactly 5 fields, found 3: * * *',
      'CronJob default/w: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", '
      '"Forbid", "Replace"',
      "CronJob default/w: spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0",
      'CronJob default/w2: spec.schedule: Invalid value: "@fortnightly": Unrecognized descriptor: @fortnightly']),
    ("cronjob schedules robfig/cron takes", [
        {**_workload("CronJob", "batch/v1beta1", {"schedule": schedule, "jobTemplate": {
            "spec": {"template": _template(restartPolicy="Never")}}}), "metadata": {"name": f"w{i}"}}
        for i, schedule in enumerate(("*/5 * * * *", "@hourly", "@every 1h30m", "0 0 1 jan mon"))], []),
    ("one hostIP/protocol/hostPort per pod; init container names; hostname", [pod({
        "hostname": "Web_1", "subdomain": "ok",
        "initContainers": [{"name": "c", "image": "i"}],
        "containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80, "hostPort": 8080}]},
                       {"name": "d", "image": "i", "ports": [
                           {"containerPort": 81, "hostPort": 8080},
                           {"containerPort": 82, "hostPort": 8080, "protocol": "UDP"},
                           {"containerPort": 83, "hostPort": 8080, "hostIP": "10.0.0.1"}]}]})],
     ['Pod default/p: spec.containers[1].ports[0].hostPort: Duplicate value: "/TCP/8080"',
      'Pod default/p: spec.hostname: Invalid value: "Web_1": a DNS-1123 label must consist of lower case '
      "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
      "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'Pod default/p: spec.initContainers[0].name: Duplicate value: "c"']),
    ("serviceAccountName, runtimeClassName, activeDeadlineSeconds", [pod({
        "serviceAccountName": "Robot", "runtimeClassName": "", "activeDeadlineSeconds": 0})],
     ['Pod default/p: spec.serviceAccountName: Invalid value: "Robot": a DNS-1123 subdomain must consist of lower '
      "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'Pod default/p: spec.runtimeClassName: Invalid value: "": a DNS-1123 subdomain must consist of lower case '
      "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'Pod default/p: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']),
    ("a deadline and names that are fine", [pod({"serviceAccountName": "robot", "runtimeClassName": "gvisor",
                                                "activeDeadlineSeconds": 2147483647})], []),
    ("pvc without modes or storage", [{**PVC, "spec": {"accessModes": [], "resources": {}}}],
     ["PersistentVolumeClaim default/c: spec.accessModes: Required value: at least 1 access mode is required",
      "PersistentVolumeClaim default/c: spec.resources[storage]: Required value"]),
    ("pvc with a bad mode", [{**PVC, "spec": {"accessModes": ["ReadWriteAll"], "volumeMode": "Raw",
                                             "resources": {"requests": {"storage": "1Gi"}}}}],
     ['PersistentVolumeClaim default/c: spec.accessModes: Unsupported value: "ReadWriteAll": supported values: '
      '"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      'PersistentVolumeClaim default/c: spec.volumeMode: Unsupported value: "Raw": supported values: "Block", '
      '"Filesystem"']),
])
def test_api_server_refuses(name: str, docs: list[dict], want: list[str]) -> None:
    assert messages(*docs) == want


def test_exported_pod_keeps_its_priority_when_the_class_is_not_in_the_file() -> None:
    cluster = load(dump(pod({"priorityClassName": "batch-low", "priority": -10})))
    assert [(w.path, w.message) for w in cluster.warnings] == [
        ("spec.priorityClassName", 'PriorityClass "batch-low" is not in the input; the pod keeps its '
                                   "spec.priority -10 (admitted before)")]
    assert cluster.of_kind(Pod)[0].spec.priority == -10
