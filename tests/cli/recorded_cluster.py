"""Recorded API answers of two clusters, served on 127.0.0.1 for the import tests.

``V1_27`` is a kubeadm v1.27.3 cluster as its API server answers ``GET …?`` list calls: objects
carry managedFields, uids, resourceVersions, the fields newer API servers default (Service
``ipFamilies``/``ipFamilyPolicy``/``internalTrafficPolicy``/``clusterIPs``, Pod ``hostIPs``/``podIPs``,
Node ``nodeInfo``), PodDisruptionBudgets at ``policy/v1``. ``V1_18`` is a v1.18.20 cluster: it
still writes ``selfLink`` and serves PDBs only at ``policy/v1beta1`` (``policy/v1`` is a 404).
``serve(routes)`` runs a loopback HTTP server that answers only GETs and records every request.
"""

from __future__ import annotations

import http.server
import json
import threading
import zlib
from contextlib import contextmanager
from typing import Any, Iterator

DATE = "Tue, 01 Dec 2026 10:00:00 GMT"


def _managed(manager: str, *fields: str) -> list[dict[str, Any]]:
    return [{"manager": manager, "operation": "Update", "apiVersion": "v1", "time": "2026-11-30T08:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {f"f:{f}": {} for f in fields}}]


def _uid(name: str) -> str:
    return f"0b1c2d3e-{zlib.crc32(name.encode()) % 10 ** 4:04d}-4f5a-8b6c-7d8e9f0a1b2c"


def _meta(name: str, namespace: str | None = None, uid: str = "", **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    meta.update({"uid": uid or _uid(name),
                 "resourceVersion": "48213", "creationTimestamp": "2026-11-30T08:00:00Z",
                 "managedFields": _managed("kube-controller-manager", "metadata", "spec")})
    meta.update(extra)
    return meta


def _node(name: str, cpu: str, memory: str, *, taints: list | None = None, labels: dict | None = None) -> dict:
    resources = {"cpu": cpu, "memory": memory, "pods": "110", "ephemeral-storage": "101430960Ki",
                 "hugepages-2Mi": "0"}
    return {
        "metadata": _meta(name, labels={"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                        "kubernetes.io/arch": "amd64", **(labels or {})},
                          annotations={"node.alpha.kubernetes.io/ttl": "0",
                                       "volumes.kubernetes.io/controller-managed-attach-detach": "true"}),
        "spec": {"podCIDR": "10.244.0.0/24", "podCIDRs": ["10.244.0.0/24"], **({"taints": taints} if taints else {})},
        "status": {
            "capacity": resources, "allocatable": resources,
            "conditions": [
                {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
                 "lastHeartbeatTime": "2026-12-01T09:59:00Z", "lastTransitionTime": "2026-11-30T08:00:00Z"},
                {"type": "Ready", "status": "True", "reason": "KubeletReady",
                 "lastHeartbeatTime": "2026-12-01T09:59:00Z", "lastTransitionTime": "2026-11-30T08:00:10Z"}],
            "addresses": [{"type": "InternalIP", "address": "172.18.0.2"}, {"type": "Hostname", "address": name}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {"kubeletVersion": "v1.27.3", "containerRuntimeVersion": "containerd://1.7.1",
                         "osImage": "Ubuntu 22.04.2 LTS", "architecture": "amd64", "operatingSystem": "linux"},
            "images": [{"names": ["registry.k8s.io/etcd@sha256:51eae8", "registry.k8s.io/etcd:3.5.7-0"],
                        "sizeBytes": 101639218}],
        },
    }


def _pod(name: str, namespace: str, *, node: str = "", cpu: str = "100m", memory: str = "64Mi",
         phase: str = "Running", owner: tuple[str, str] | None = None, extra_spec: dict | None = None,
         image: str = "nginx:1.25") -> dict:
    meta = _meta(name, namespace, labels={"app": name.split("-")[0]},
                 annotations={"kubectl.kubernetes.io/last-applied-configuration": '{"apiVersion":"v1"}'})
    if owner:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1],
                                    "uid": _uid(owner[1]), "controller": True,
                                    "blockOwnerDeletion": True}]
    spec = {"containers": [{"name": "main", "image": image, "imagePullPolicy": "IfNotPresent",
                            "resources": {"requests": {"cpu": cpu, "memory": memory}},
                            "terminationMessagePath": "/dev/termination-log",
                            "terminationMessagePolicy": "File"}],
            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "serviceAccountName": "default", "serviceAccount": "default", "securityContext": {},
            "schedulerName": "default-scheduler", "enableServiceLinks": True, "priority": 0,
            "preemptionPolicy": "PreemptLowerPriority",
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 300}],
            **(extra_spec or {})}
    if node:
        spec["nodeName"] = node
    status: dict[str, Any] = {"phase": phase, "qosClass": "Burstable"}
    if phase == "Pending" and not node:
        status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                 "message": "0/3 nodes are available: 3 Insufficient cpu.",
                                 "lastTransitionTime": "2026-12-01T09:58:00Z", "lastProbeTime": None}]
    else:
        status.update({"conditions": [{"type": "PodScheduled", "status": "True",
                                       "lastTransitionTime": "2026-11-30T08:01:00Z", "lastProbeTime": None}],
                       "hostIP": "172.18.0.2", "hostIPs": [{"ip": "172.18.0.2"}], "podIP": "10.244.0.5",
                       "podIPs": [{"ip": "10.244.0.5"}], "startTime": "2026-11-30T08:01:00Z",
                       "containerStatuses": [{"name": "main", "ready": True, "restartCount": 0, "image": image,
                                              "imageID": "docker.io/library/nginx@sha256:af296b", "started": True,
                                              "state": {"running": {"startedAt": "2026-11-30T08:01:05Z"}}}]})
    return {"metadata": meta, "spec": spec, "status": status}


def _list(kind: str, api_version: str, items: list[dict]) -> dict:
    return {"kind": f"{kind}List", "apiVersion": api_version, "metadata": {"resourceVersion": "48213"},
            "items": items}


DS_AFFINITY = lambda node: {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {  # noqa: E731
    "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}]}}}}

PODS_1_27 = [
    _pod("coredns-5d78c9869d-7xk2p", "kube-system", node="node-1", cpu="100m", memory="70Mi",
         owner=("ReplicaSet", "coredns-5d78c9869d"), image="registry.k8s.io/coredns/coredns:v1.10.1",
         extra_spec={"priorityClassName": "system-cluster-critical", "priority": 2000000000}),
    _pod("kube-proxy-4hz8q", "kube-system", node="node-1", cpu="0", memory="0",
         owner=("DaemonSet", "kube-proxy"), extra_spec=DS_AFFINITY("node-1")),
    _pod("kube-proxy-9mbfw", "kube-system", node="node-2", cpu="0", memory="0",
         owner=("DaemonSet", "kube-proxy"), extra_spec=DS_AFFINITY("node-2")),
    _pod("frontend-6b7f9c4d8-aaaaa", "web", node="node-1", cpu="1500m", memory="512Mi",
         owner=("ReplicaSet", "frontend-6b7f9c4d8")),
    _pod("frontend-6b7f9c4d8-bbbbb", "web", phase="Pending", cpu="1500m", memory="512Mi",
         owner=("ReplicaSet", "frontend-6b7f9c4d8")),
    _pod("db-0", "web", node="node-2", cpu="500m", memory="1Gi", owner=("StatefulSet", "db"),
         image="postgres:15", extra_spec={"hostname": "db-0", "subdomain": "db", "volumes": [
             {"name": "data", "persistentVolumeClaim": {"claimName": "data-db-0"}}]}),
    _pod("migrate-8k2lq", "web", node="node-2", cpu="100m", phase="Succeeded"),
    _pod("big-report", "web", phase="Pending", cpu="16", memory="1Gi"),
]

SERVICE_1_27 = {
    "metadata": _meta("frontend", "web"),
    "spec": {"selector": {"app": "frontend"}, "ports": [{"protocol": "TCP", "port": 80, "targetPort": 8080}],
             "type": "ClusterIP", "clusterIP": "10.96.12.7", "clusterIPs": ["10.96.12.7"],
             "sessionAffinity": "None", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
             "internalTrafficPolicy": "Cluster"},
    "status": {"loadBalancer": {}},
}


def _workload(name: str, namespace: str, replicas: int, extra: dict | None = None) -> dict:
    return {"metadata": _meta(name, namespace, labels={"app": name.split("-")[0]}),
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name.split("-")[0]}},
                     "template": {"metadata": {"labels": {"app": name.split("-")[0]}},
                                  "spec": {"containers": [{"name": "main", "image": "nginx:1.25"}]}},
                     **(extra or {})},
            "status": {"replicas": replicas, "readyReplicas": 1, "observedGeneration": 3}}


V1_27: dict[str, Any] = {
    "/version": {"major": "1", "minor": "27", "gitVersion": "v1.27.3", "gitCommit": "25b4e43193bcda6c7328a6d147b1fb73a33f1598",
                 "platform": "linux/amd64"},
    "/api/v1/nodes": _list("Node", "v1", [
        _node("node-1", "4", "8Gi"), _node("node-2", "4", "8Gi"),
        _node("node-3", "4", "8Gi", labels={"node-role.kubernetes.io/control-plane": ""},
              taints=[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}])]),
    "/api/v1/pods": _list("Pod", "v1", PODS_1_27),
    "/api/v1/persistentvolumes": _list("PersistentVolume", "v1", [{
        "metadata": _meta("pvc-3f2a", annotations={"pv.kubernetes.io/provisioned-by": "rancher.io/local-path"}),
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                 "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "standard", "volumeMode": "Filesystem",
                 "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "web", "name": "data-db-0",
                              "uid": "77aa", "apiVersion": "v1", "resourceVersion": "4011"},
                 "hostPath": {"path": "/var/local-path-provisioner/pvc-3f2a", "type": "DirectoryOrCreate"},
                 "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                     {"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-2"]}]}]}}},
        "status": {"phase": "Bound", "lastPhaseTransitionTime": "2026-11-30T08:02:00Z"}}]),
    "/api/v1/persistentvolumeclaims": _list("PersistentVolumeClaim", "v1", [{
        "metadata": _meta("data-db-0", "web", labels={"app": "db"},
                          annotations={"pv.kubernetes.io/bind-completed": "yes",
                                       "volume.kubernetes.io/selected-node": "node-2"}),
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                 "storageClassName": "standard", "volumeMode": "Filesystem", "volumeName": "pvc-3f2a"},
        "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}}}]),
    "/apis/storage.k8s.io/v1/storageclasses": _list("StorageClass", "storage.k8s.io/v1", [{
        "metadata": _meta("standard", annotations={"storageclass.kubernetes.io/is-default-class": "true"}),
        "provisioner": "rancher.io/local-path", "reclaimPolicy": "Delete",
        "volumeBindingMode": "WaitForFirstConsumer"}]),
    "/apis/storage.k8s.io/v1/csinodes": _list("CSINode", "storage.k8s.io/v1", [{
        "metadata": _meta("node-1", ownerReferences=[{"apiVersion": "v1", "kind": "Node", "name": "node-1",
                                                      "uid": "9f8e"}]),
        "spec": {"drivers": None}}]),
    "/apis/policy/v1/poddisruptionbudgets": _list("PodDisruptionBudget", "policy/v1", [{
        "metadata": _meta("frontend", "web", generation=1),
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "frontend"}}},
        "status": {"observedGeneration": 1, "disruptionsAllowed": 0, "currentHealthy": 1, "desiredHealthy": 1,
                   "expectedPods": 2, "conditions": [{"type": "DisruptionAllowed", "status": "False",
                                                      "reason": "InsufficientPods",
                                                      "lastTransitionTime": "2026-11-30T08:03:00Z",
                                                      "observedGeneration": 1, "message": ""}]}}]),
    "/apis/scheduling.k8s.io/v1/priorityclasses": _list("PriorityClass", "scheduling.k8s.io/v1", [
        {"metadata": _meta("system-cluster-critical"), "value": 2000000000, "preemptionPolicy": "PreemptLowerPriority",
         "description": "Used for system critical pods that must run in the cluster, but can be moved to another "
                        "node if necessary."},
        {"metadata": _meta("batch-low"), "value": -10, "preemptionPolicy": "Never", "globalDefault": False}]),
    "/api/v1/services": _list("Service", "v1", [SERVICE_1_27]),
    "/api/v1/replicationcontrollers": _list("ReplicationController", "v1", []),
    "/apis/apps/v1/replicasets": _list("ReplicaSet", "apps/v1", [
        _workload("coredns-5d78c9869d", "kube-system", 1), _workload("frontend-6b7f9c4d8", "web", 2)]),
    "/apis/apps/v1/statefulsets": _list("StatefulSet", "apps/v1", [_workload("db", "web", 1, {
        "serviceName": "db", "podManagementPolicy": "OrderedReady",
        "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]})]),
    "/apis/apps/v1/daemonsets": _list("DaemonSet", "apps/v1", [_workload("kube-proxy", "kube-system", 0)]),
    "/apis/apps/v1/deployments": _list("Deployment", "apps/v1", [
        _workload("coredns", "kube-system", 1), _workload("frontend", "web", 2)]),
}
# ``-n web``: the namespaced lists the importer asks for (pods are read cluster-wide).
for path in ("persistentvolumeclaims", "services", "replicationcontrollers"):
    V1_27[f"/api/v1/namespaces/web/{path}"] = {**V1_27[f"/api/v1/{path}"], "items": [
        i for i in V1_27[f"/api/v1/{path}"]["items"] if i["metadata"]["namespace"] == "web"]}
for path in ("apps/v1/replicasets", "apps/v1/statefulsets", "apps/v1/daemonsets", "apps/v1/deployments",
             "policy/v1/poddisruptionbudgets"):
    group, resource = path.rsplit("/", 1)
    V1_27[f"/apis/{group}/namespaces/web/{resource}"] = {**V1_27[f"/apis/{path}"], "items": [
        i for i in V1_27[f"/apis/{path}"]["items"] if i["metadata"]["namespace"] == "web"]}

V1_18: dict[str, Any] = {
    "/version": {"major": "1", "minor": "18", "gitVersion": "v1.18.20", "platform": "linux/amd64"},
    "/api/v1/nodes": _list("Node", "v1", [{**_node("worker", "2", "4Gi"), "metadata": {
        **_meta("worker", labels={"kubernetes.io/hostname": "worker"}), "selfLink": "/api/v1/nodes/worker"}}]),
    "/api/v1/pods": _list("Pod", "v1", [_pod("web-1", "default", phase="Pending", cpu="500m")]),
    "/apis/policy/v1beta1/poddisruptionbudgets": _list("PodDisruptionBudget", "policy/v1beta1", [{
        "metadata": {**_meta("web", "default"), "selfLink": "/apis/policy/v1beta1/namespaces/default/"
                                                            "poddisruptionbudgets/web"},
        "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "web"}}},
        "status": {"disruptionsAllowed": 1, "currentHealthy": 1, "desiredHealthy": 0, "expectedPods": 1,
                   "observedGeneration": 1}}]),
    "/apis/scheduling.k8s.io/v1/priorityclasses": {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                                   "reason": "Forbidden", "code": 403},
}
for path, kind in (("/api/v1/persistentvolumes", "PersistentVolume"),
                   ("/api/v1/persistentvolumeclaims", "PersistentVolumeClaim"),
                   ("/apis/storage.k8s.io/v1/storageclasses", "StorageClass"),
                   ("/apis/storage.k8s.io/v1/csinodes", "CSINode"), ("/api/v1/services", "Service"),
                   ("/api/v1/replicationcontrollers", "ReplicationController"),
                   ("/apis/apps/v1/replicasets", "ReplicaSet"), ("/apis/apps/v1/statefulsets", "StatefulSet"),
                   ("/apis/apps/v1/daemonsets", "DaemonSet"), ("/apis/apps/v1/deployments", "Deployment")):
    V1_18[path] = _list(kind, path.split("/apis/")[-1].rsplit("/", 1)[0] if "/apis/" in path else "v1", [])


@contextmanager
def serve(routes: dict[str, Any]) -> Iterator[tuple[str, list[tuple[str, str, str]]]]:
    """A loopback API server answering GETs from ``routes`` (a 403 Status stays a 403);
    yields its URL and the (method, path, Authorization) of every request."""
    requests: list[tuple[str, str, str]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def date_time_string(self, timestamp=None) -> str:  # the recorded Date
            return DATE

        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self) -> None:
            path = self.path.split("?", 1)[0]
            requests.append((self.command, path, self.headers.get("Authorization", "")))
            body = routes.get(path) if self.command == "GET" else None
            code = body.get("code", 200) if isinstance(body, dict) and body.get("kind") == "Status" else 200
            if body is None:
                code, body = (404 if self.command == "GET" else 405), {
                    "kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def kubeconfig(url: str, namespace: str = "web") -> str:
    """A kubeconfig with one context (a bearer token, the given namespace) for ``url``."""
    return (f"apiVersion: v1\nkind: Config\nclusters:\n- name: recorded\n  cluster:\n    server: {url}\n"
            "users:\n- name: viewer\n  user:\n    token: read-only-token\n"
            f"contexts:\n- name: recorded\n  context:\n    cluster: recorded\n    user: viewer\n"
            f"    namespace: {namespace}\ncurrent-context: recorded\n")
