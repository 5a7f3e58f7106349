"""``python -m kubesched import`` against recorded API answers on a loopback server (no real cluster)."""

from __future__ import annotations

import pathlib

import pytest
import yaml

from kubesched.cli.importer import clean
from kubesched.cli.main import main
from kubesched.sim.simulation import Simulation
from tests.cli.recorded_cluster import V1_18, V1_27, kubeconfig, serve

HEADER = [
    "# Imported by `python -m kubesched import` from {url} (context recorded), {scope}.",
    "# Read at Tue, 01 Dec 2026 10:00:00 GMT (the cluster's clock); the cluster runs {version}.",
    "# Imported state is replayed under Kubernetes v1.18.5 scheduling rules, whatever the cluster's version.",
    "# Stripped: managedFields, resourceVersion, creationTimestamp, selfLink, generation, the last-applied "
    "annotation, workload and Service status.",
]
ALL_PATHS = ["/version", "/api/v1/nodes", "/api/v1/pods", "/api/v1/persistentvolumes",
             "/api/v1/persistentvolumeclaims", "/apis/storage.k8s.io/v1/storageclasses",
             "/apis/storage.k8s.io/v1/csinodes", "/apis/policy/v1/poddisruptionbudgets",
             "/apis/scheduling.k8s.io/v1/priorityclasses", "/api/v1/services", "/api/v1/replicationcontrollers",
             "/apis/apps/v1/replicasets", "/apis/apps/v1/statefulsets", "/apis/apps/v1/daemonsets",
             "/apis/apps/v1/deployments"]


def _import(routes, tmp_path: pathlib.Path, capsys, *args: str, namespace: str = "web"):
    with serve(routes) as (url, requests):
        (tmp_path / "kubeconfig").write_text(kubeconfig(url, namespace))
        out = tmp_path / "cluster.yaml"
        code = main(["import", "--kubeconfig", str(tmp_path / "kubeconfig"), *args, "-o", str(out)])
    text = out.read_text() if out.exists() else ""
    return code, url, requests, text, capsys.readouterr().err.splitlines()


def _docs(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if d]


def test_all_namespaces(tmp_path, capsys):
    code, url, requests, text, err = _import(V1_27, tmp_path, capsys, "-A")
    assert code == 0
    assert err == [f"import: wrote {tmp_path / 'cluster.yaml'}: 3 Nodes, 7 Pods, 1 PersistentVolume, "
                   "1 PersistentVolumeClaim, 1 StorageClass, 1 CSINode, 1 PodDisruptionBudget, 2 PriorityClasses, "
                   "1 Service, 2 ReplicaSets, 1 StatefulSet, 1 DaemonSet, 2 Deployments "
                   f"(from {url}, v1.27.3)"]
    assert requests == [("GET", p, "Bearer read-only-token") for p in ALL_PATHS]  # read-only: GETs only
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert header == [h.format(url=url, scope="all namespaces", version="v1.27.3") for h in HEADER] + [
        "# Left out: 1 Succeeded pod(s) (terminal: the scheduler never sees them).",
        "# PodDisruptionBudgets read as policy/v1 are written as policy/v1beta1 (what v1.18 serves)."]
    docs = _docs(text)
    assert [(d["apiVersion"], d["kind"], d["metadata"].get("namespace", ""), d["metadata"]["name"]) for d in docs][:4] \
        == [("v1", "Node", "", "node-1"), ("v1", "Node", "", "node-2"), ("v1", "Node", "", "node-3"),
            ("v1", "Pod", "kube-system", "coredns-5d78c9869d-7xk2p")]
    assert "migrate-8k2lq" not in text  # Succeeded
    for doc in docs:
        assert not set(doc["metadata"]) & {"managedFields", "resourceVersion", "creationTimestamp",
                                            "selfLink", "generation"}
        assert "kubectl.kubernetes.io/last-applied-configuration" not in doc["metadata"].get("annotations", {})
    by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    assert set(by["Pod", "db-0"]["status"]) == {"phase", "conditions", "startTime"}
    assert set(by["Node", "node-1"]["status"]) == {"capacity", "allocatable", "conditions", "addresses", "images"}
    assert "status" not in by["Deployment", "frontend"] and "status" not in by["Service", "frontend"]
    assert by["PodDisruptionBudget", "frontend"]["apiVersion"] == "policy/v1beta1"
    assert by["PodDisruptionBudget", "frontend"]["status"] == {"disruptionsAllowed": 0, "currentHealthy": 1,
                                                               "desiredHealthy": 1, "expectedPods": 2}
    assert by["Service", "frontend"]["spec"]["ipFamilyPolicy"] == "SingleStack"  # newer fields are kept
    assert by["Pod", "kube-proxy-4hz8q"]["metadata"]["ownerReferences"][0]["kind"] == "DaemonSet"


def test_namespace_of_the_context(tmp_path, capsys):
    """Without -n/-A the context's namespace (web); bound pods of every namespace stay (the nodes are full)."""
    code, url, requests, text, _ = _import(V1_27, tmp_path, capsys)
    assert code == 0
    assert [p for _, p, _ in requests if "namespaces" in p] == [
        "/api/v1/namespaces/web/persistentvolumeclaims", "/apis/policy/v1/namespaces/web/poddisruptionbudgets",
        "/api/v1/namespaces/web/services", "/api/v1/namespaces/web/replicationcontrollers",
        "/apis/apps/v1/namespaces/web/replicasets", "/apis/apps/v1/namespaces/web/statefulsets",
        "/apis/apps/v1/namespaces/web/daemonsets", "/apis/apps/v1/namespaces/web/deployments"]
    assert text.splitlines()[0] == HEADER[0].format(
        url=url, scope="namespace web (and the pods bound to a node in any namespace)")
    pods = [(d["metadata"]["namespace"], d["metadata"]["name"]) for d in _docs(text) if d["kind"] == "Pod"]
    assert pods == [("kube-system", "coredns-5d78c9869d-7xk2p"), ("kube-system", "kube-proxy-4hz8q"),
                    ("kube-system", "kube-proxy-9mbfw"), ("web", "frontend-6b7f9c4d8-aaaaa"),
                    ("web", "frontend-6b7f9c4d8-bbbbb"), ("web", "db-0"), ("web", "big-report")]
    assert {d["metadata"]["namespace"] for d in _docs(text) if d["kind"] in ("ReplicaSet", "Deployment")} == {"web"}


def test_a_v1_18_cluster(tmp_path, capsys):
    """policy/v1 is a 404 there (asked again at policy/v1beta1), selfLink is stripped, a 403 is a note."""
    code, url, requests, text, err = _import(V1_18, tmp_path, capsys, "-A", namespace="default")
    assert code == 0
    assert ("GET", "/apis/policy/v1beta1/poddisruptionbudgets", "Bearer read-only-token") in requests
    assert err == ["import: /apis/scheduling.k8s.io/v1/priorityclasses: forbidden (RBAC): left out",
                   f"import: wrote {tmp_path / 'cluster.yaml'}: 1 Node, 1 Pod, 1 PodDisruptionBudget "
                   f"(from {url}, v1.18.20)"]
    assert [line for line in text.splitlines() if line.startswith("#")][-1] == \
        "# Not read: /apis/scheduling.k8s.io/v1/priorityclasses: forbidden (RBAC): left out"
    assert "selfLink" not in text.split("\n---\n", 1)[1]
    assert [(d["apiVersion"], d["kind"]) for d in _docs(text)] == [
        ("v1", "Node"), ("v1", "Pod"), ("policy/v1beta1", "PodDisruptionBudget")]


def test_the_dump_opens_through_the_normal_loader(tmp_path, capsys):
    """The file the dashboard's upload and ``run`` open (Simulation.from_yaml), replayed under v1.18.5.

    Every document loads; pods the dump already holds are not created again by their controllers.
    """
    _, _, _, text, _ = _import(V1_27, tmp_path, capsys, "-A")
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    nodes = {p.key: p.node for p in sim.state().pods}
    dumped = {f"{d['metadata']['namespace']}/{d['metadata']['name']}" for d in _docs(text) if d["kind"] == "Pod"}
    assert dumped <= set(nodes)
    assert not [k for k in set(nodes) - dumped if k.startswith("kube-system/kube-proxy-")]
    assert {k: nodes[k] for k in ("kube-system/coredns-5d78c9869d-7xk2p", "kube-system/kube-proxy-4hz8q",
                                  "kube-system/kube-proxy-9mbfw", "web/frontend-6b7f9c4d8-aaaaa", "web/db-0")} == {
        "kube-system/coredns-5d78c9869d-7xk2p": "node-1", "kube-system/kube-proxy-4hz8q": "node-1",
        "kube-system/kube-proxy-9mbfw": "node-2", "web/frontend-6b7f9c4d8-aaaaa": "node-1", "web/db-0": "node-2"}
    assert nodes["web/frontend-6b7f9c4d8-bbbbb"] in ("node-1", "node-2")  # node-3 is the tainted control plane
    assert nodes["web/big-report"] == ""
    from kubesched.explain import explain_pod
    explained = explain_pod(sim.trace[: sim.cursor], sim.state(), "web/big-report")
    assert explained.message == "0/3 nodes are available: 3 Insufficient cpu."


@pytest.mark.parametrize("args,message", [
    (["--kubeconfig", "/nonexistent/kubeconfig"], "import: cannot use the kubeconfig: "),
    (["--context", "prod"], "import: context 'prod' not found in the kubeconfig"),
])
def test_kubeconfig_problems(tmp_path, capsys, args, message):
    (tmp_path / "kubeconfig").write_text(kubeconfig("http://127.0.0.1:1"))
    base = [] if "--kubeconfig" in args else ["--kubeconfig", str(tmp_path / "kubeconfig")]
    assert main(["import", *base, *args, "-o", str(tmp_path / "out.yaml")]) == 1
    assert capsys.readouterr().err.startswith(message)
    assert not (tmp_path / "out.yaml").exists()


def test_unreachable_server(tmp_path, capsys):
    with serve({}) as (url, _):
        pass  # the port is closed again
    (tmp_path / "kubeconfig").write_text(kubeconfig(url))
    assert main(["import", "--kubeconfig", str(tmp_path / "kubeconfig"), "-o", str(tmp_path / "out.yaml")]) == 1
    line = capsys.readouterr().err
    assert line.startswith(f"import: {url}/version: MaxRetryError: ") and line.count("\n") == 1


CLEAN = [
    ("list item gets apiVersion and kind", "ReplicaSet", "apps/v1", {"metadata": {"name": "a"}, "spec": {}},
     {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "a"}, "spec": {}}),
    ("server metadata (uid kept: owner references name it)", "Pod", "v1", {"metadata": {"name": "p", "uid": "u", "resourceVersion": "1",
                                                  "creationTimestamp": "t", "selfLink": "/x", "generation": 2,
                                                  "managedFields": [{}], "labels": {"a": "b"},
                                                  "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}}},
     {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u", "labels": {"a": "b"}}}),
    ("workload status dropped", "StatefulSet", "apps/v1", {"metadata": {"name": "s"}, "status": {"replicas": 3}},
     {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s"}}),
    ("pod status the scheduler reads", "Pod", "v1", {"metadata": {"name": "p"}, "status": {
        "phase": "Pending", "nominatedNodeName": "n1", "podIPs": [], "qosClass": "BestEffort"}},
     {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
      "status": {"phase": "Pending", "nominatedNodeName": "n1"}}),
    ("pdb v1 as v1beta1", "PodDisruptionBudget", "policy/v1", {"metadata": {"name": "b"}},
     {"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget", "metadata": {"name": "b"}}),
]


@pytest.mark.parametrize("kind,api_version,item,expected", [c[1:] for c in CLEAN], ids=[c[0] for c in CLEAN])
def test_clean(kind, api_version, item, expected):
    assert clean(kind, api_version, item) == expected
