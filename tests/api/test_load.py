"""The loader: problem format, List documents, config documents, files, origins."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.api.core import Node, Pod
from kubesched.api.load import LoadError, LoadProblem, load_cluster, load_files
from tests.api.helpers import FILE, NODE, POD, errors, load, problems


@pytest.mark.parametrize("problem,text", [
    (LoadProblem("cluster.yaml", 0, 42, "Pod", "default", "web-1", "spec.containers[0].resources.requests.cpu",
                 '"12x" is not a valid quantity'),
     'cluster.yaml:42: Pod default/web-1: spec.containers[0].resources.requests.cpu: "12x" is not a valid quantity'),
    (LoadProblem("c.yaml", 1, 3, "Node", "", "zone-a-1", "spec.taints[0].effect", "Required value"),
     "c.yaml:3: Node zone-a-1: spec.taints[0].effect: Required value"),
    (LoadProblem("c.yaml", 3, 9, "Pod", "", "", "metadata.name", "Required value"),
     "c.yaml:9: Pod (document 3): metadata.name: Required value"),
    (LoadProblem("c.yaml", 2, 1, "", "", "", "kind", "Required value"),
     "c.yaml:1: document 2: kind: Required value"),
    (LoadProblem("c.yaml", 0, 5, "Pod", "default", "a", "spec.foo", "unknown field", warning=True),
     "c.yaml:5: warning: Pod default/a: spec.foo: unknown field"),
    (LoadProblem("c.yaml", 0, 1, "", "", "", "", "YAML syntax error: x"),
     "c.yaml:1: document 0: YAML syntax error: x"),
])
def test_problem_str(problem: LoadProblem, text: str) -> None:
    assert str(problem) == text


def test_error_line_of_quantity() -> None:
    text = POD.replace("    image: nginx\n", "    image: nginx\n    resources:\n      requests:\n        cpu: 12x\n")
    assert errors(NODE + "---\n" + text) == [
        'cluster.yaml:18: Pod default/web-1: spec.containers[0].resources.requests.cpu: "12x" is not a valid '
        'quantity']


def test_load_error_lists_errors_and_warnings_in_line_order() -> None:
    text = POD.replace("spec:\n", "spec:\n  bogus: 1\n") + "---\n" + NODE.replace("  name: node-1\n", "  name: N\n")
    with pytest.raises(LoadError) as info:
        load(text)
    assert [str(p) for p in info.value.problems] == [
        "cluster.yaml:6: warning: Pod default/web-1: spec.bogus: unknown field",
        "cluster.yaml:14: Node N: metadata.name: Invalid value: \"N\": a DNS-1123 subdomain must consist of lower "
        "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
        "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
        "[a-z0-9])?)*')",
    ]
    assert [str(p) for p in info.value.errors] == [str(info.value.problems[1])]
    assert str(info.value).splitlines()[0] == "1 error(s) in the cluster manifests:"


def test_fields_of_v1_18_the_model_lacks_are_no_finding() -> None:
    cluster = load(POD.replace("    image: nginx\n", "    image: nginx\n    imagePullPolicy: Always\n")
                   + "status:\n  podIPs: []\n")
    assert cluster.warnings == ()


def test_unknown_and_newer_fields_are_told_apart() -> None:
    cluster = load(POD.replace("    image: nginx\n", "    image: nginx\n    imagePullPolicyy: Always\n")
                   + "  schedulingGates: [{name: wait}]\nstatus:\n  hostIPs: []\n")
    assert [str(w) for w in cluster.warnings] == [
        'cluster.yaml:9: warning: Pod default/web-1: spec.containers[0].imagePullPolicyy: unknown field '
        '(did you mean "imagePullPolicy"?)',
        "cluster.yaml:10: warning: Pod default/web-1: spec.schedulingGates: field is not in Kubernetes v1.18 "
        "(added in 1.26)",
        "cluster.yaml:12: warning: Pod default/web-1: status.hostIPs: field is not in Kubernetes v1.18 "
        "(added in 1.28)",
    ]
    assert [w.code for w in cluster.warnings] == ["unknown-field", "newer-field", "newer-field"]
    assert len(cluster.of_kind(Pod)) == 1


@pytest.mark.parametrize("text,want", [
    ("kind: Pod\nmetadata: {name: a}\n", ["cluster.yaml:1: Pod default/a: apiVersion: Required value"]),
    ("apiVersion: v1\nmetadata: {name: a}\n", ["cluster.yaml:1: document 0: kind: Required value"]),
    ("apiVersion: v1\nkind: Gadget\nmetadata: {name: a}\n",
     ['cluster.yaml:2: Gadget default/a: kind: unknown kind "Gadget" in v1']),
    ("apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: a}\n",
     ['cluster.yaml:2: Deploymnet default/a: kind: unknown kind "Deploymnet" in apps/v1 (did you mean '
      '"Deployment"?)']),
    ("apiVersion: apps/v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n",
     ['cluster.yaml:1: Pod default/a: apiVersion: "apps/v1" is not a version of Pod in Kubernetes v1.18; '
      'use v1']),
    ("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: a}\n",
     ['cluster.yaml:1: PodDisruptionBudget default/a: apiVersion: policy/v1 PodDisruptionBudget is not in '
      'Kubernetes v1.18 (added in 1.21); use policy/v1beta1']),
    ("apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: a}\n",
     ['cluster.yaml:1: Deployment default/a: apiVersion: extensions/v1beta1 Deployment is not served by '
      'Kubernetes v1.18 (removed in 1.16); use apps/v1']),
    ("- 1\n- 2\n", ["cluster.yaml:1: document 0: must be an object, not a list"]),
    ("just text\n", ["cluster.yaml:1: document 0: must be an object, not a string"]),
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: {name: c}}\n",
     ["cluster.yaml:4: Pod default/a: spec.containers: must be a list, not an object"]),
])
def test_document_shape_errors(text: str, want: list[str]) -> None:
    assert errors(text) == want


KUBECTL_LIST = """\
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2020-07-01T10:00:00Z"
    labels:
      app: web
      pod-template-hash: 5d8f6c7b9
    name: web-5d8f6c7b9-x2x7q
    namespace: default
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: web-5d8f6c7b9
      uid: 3b1f5a0c-1f4e-4a64-9a57-0e0f3b2c9d11
    resourceVersion: "1234"
    selfLink: /api/v1/namespaces/default/pods/web-5d8f6c7b9-x2x7q
    uid: 9d0b7f84-2d6f-4a51-8f2f-6a7b1c5e2f10
  spec:
    containers:
    - image: nginx:1.19
      imagePullPolicy: IfNotPresent
      name: nginx
      resources:
        requests:
          cpu: 100m
          memory: 128Mi
    dnsPolicy: ClusterFirst
    enableServiceLinks: true
    nodeName: node-1
    priority: 0
    restartPolicy: Always
    schedulerName: default-scheduler
    terminationGracePeriodSeconds: 30
    tolerations:
    - effect: NoExecute
      key: node.kubernetes.io/not-ready
      operator: Exists
      tolerationSeconds: 300
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2020-07-01T10:00:00Z"
      status: "True"
      type: PodScheduled
    hostIP: 10.0.0.11
    phase: Running
    podIP: 10.244.1.5
    qosClass: Burstable
    startTime: "2020-07-01T10:00:00Z"
- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      node.alpha.kubernetes.io/ttl: "0"
    labels:
      beta.kubernetes.io/arch: amd64
      kubernetes.io/hostname: node-1
      topology.kubernetes.io/zone: zone-a
    name: node-1
    resourceVersion: "987"
    uid: 4a1c9e0b-7a53-4f0e-9d44-0f6c2d1b8e21
  spec:
    podCIDR: 10.244.1.0/24
  status:
    allocatable:
      cpu: 3920m
      memory: 15Gi
      pods: "110"
    capacity:
      cpu: "4"
      memory: 16Gi
      pods: "110"
    conditions:
    - lastHeartbeatTime: "2020-07-01T10:05:00Z"
      lastTransitionTime: "2020-07-01T09:00:00Z"
      message: kubelet is posting ready status
      reason: KubeletReady
      status: "True"
      type: Ready
    images:
    - names:
      - nginx@sha256:abc
      - nginx:1.19
      sizeBytes: 132000000
kind: List
metadata:
  resourceVersion: ""
  selfLink: ""
"""


WANT_LIST_WARNINGS: list[str] = []  # selfLink, imagePullPolicy, dnsPolicy, enableServiceLinks are v1.18 fields


def test_kubectl_list() -> None:
    cluster = load(KUBECTL_LIST)
    pod, node = cluster.objects
    assert (pod.metadata.name, pod.spec.node_name, pod.status.phase, pod.metadata.uid) == (
        "web-5d8f6c7b9-x2x7q", "node-1", "Running", "9d0b7f84-2d6f-4a51-8f2f-6a7b1c5e2f10")
    assert pod.metadata.controller_ref().name == "web-5d8f6c7b9"
    assert pod.spec.containers[0].resources.requests["cpu"].milli_value() == 100
    assert pod.spec.tolerations[0].toleration_seconds == 300
    assert (str(node.status.allocatable["cpu"]), node.status.images[0].size_bytes) == ("3920m", 132000000)
    assert [o.path for o in cluster.origins] == ["items[0]", "items[1]"]
    assert [str(w) for w in cluster.warnings] == WANT_LIST_WARNINGS


def test_list_item_error_path_and_line() -> None:
    text = KUBECTL_LIST.replace("          cpu: 100m\n", "          cpu: 100x\n")
    assert errors(text) == ['cluster.yaml:29: Pod default/web-5d8f6c7b9-x2x7q: '
                            'items[0].spec.containers[0].resources.requests.cpu: "100x" is not a valid quantity']


def test_list_items_must_be_a_list() -> None:
    assert errors("apiVersion: v1\nkind: List\nitems: {a: 1}\n") == [
        "cluster.yaml:3: List (document 0): items: must be a list, not dict"]


CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{name: ImageLocality}]
"""


def test_config_documents_are_kept_raw() -> None:
    cluster = load(NODE + "---\n" + CONFIG)
    assert len(cluster.objects) == 1
    (config,) = cluster.config_documents
    assert (config.file, config.document, config.line) == (FILE, 1, 8)
    assert config.data["profiles"][0]["plugins"]["score"]["disabled"] == [{"name": "ImageLocality"}]
    assert cluster.warnings == ()


def test_files(tmp_path: pathlib.Path) -> None:
    (tmp_path / "nodes.yaml").write_text(NODE)
    (tmp_path / "pods.yaml").write_text(POD.replace("spec:\n", "spec:\n  priorityClassName: high\n"))
    (tmp_path / "classes.yaml").write_text(
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 7\n")
    paths = [tmp_path / "nodes.yaml", tmp_path / "pods.yaml", tmp_path / "classes.yaml"]
    cluster = load_files(paths)
    assert cluster.sources == tuple(str(p) for p in paths)
    assert [type(o).__name__ for o in cluster.objects] == ["Node", "Pod", "PriorityClass"]
    assert cluster.of_kind(Pod)[0].spec.priority == 7
    assert [o.file for o in cluster.origins] == [str(p) for p in paths]
    single = load_cluster(tmp_path / "nodes.yaml")
    assert (single.sources, single.get(Node, "node-1").metadata.name) == ((str(tmp_path / "nodes.yaml"),), "node-1")
    assert single.origin_of(single.objects[0]).line == 1


def test_file_errors(tmp_path: pathlib.Path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"kind: \xff\n")
    missing = tmp_path / "missing.yaml"
    with pytest.raises(LoadError) as info:
        load_files([tmp_path / "bin.yaml", missing])
    assert [str(p) for p in info.value.problems] == [
        f"{tmp_path / 'bin.yaml'}:1: document 0: not UTF-8 text: invalid start byte at byte 6",
        f"{missing}:1: document 0: cannot read file: No such file or directory",
    ]


def test_problems_helper_on_clean_input() -> None:
    assert problems(NODE + "---\n" + POD) == []
